/* hs_dynamics.h -- mass matrix, generalised forces and energies of the tree in relative
 * coordinates (seed 000 eqs. 8-12; seed 004 Pub. I eqs. 8-14).
 *
 * M = Rd^T T^T Mbar T Rd and Q = Rd^T T^T (Qbar - Mbar T Rdot zdot) are formed by backward
 * accumulation over the tree: Mbar and Qbar - Mbar Zd0 of each body are added into its
 * parent (the products with the path matrix T), so no 6N x 6N matrix is ever built.
 * M_kl = b_k^T Mc_k b_l when l is on the path root..k (zero when neither is an ancestor of the
 * other); Q_k = b_k^T Qc_k. Cost O(nbody * depth).
 *
 * Hydraulic cylinders are not applied forces here: their generalised force F_c ds_c/dz is
 * added to Q by the integrator (hs_integrator.h), so that a change of the pressures alone
 * needs no new pass over the bodies. */
#ifndef HS_DYNAMICS_H
#define HS_DYNAMICS_H

#include "hs_kinematics.h"
#include "hs_signal.h"

/* Body j's inertia about its centre of mass in global axes. The standard shapes' inertias are
 * diagonal in the body frame (hs_model_derive: their products of inertia are zero), which a
 * structural test (body_shape) lets the cheaper product use. */
HS_HD static inline void hs_body_inertia_global(const hs_mview *m, const hs_kin *k, int j, hs_real J[9])
{
    if (HS_I(m, body_shape, j) != HS_SHAPE_CUSTOM && HS_I(m, joint_planar, j))
        hs_m3_inertia_global_diag_z(J, k->A[j], HS_D(m, body_inertia)[j]);
    else if (HS_I(m, body_shape, j) != HS_SHAPE_CUSTOM)
        hs_m3_inertia_global_diag(J, k->A[j], HS_D(m, body_inertia)[j]);
    else hs_m3_inertia_global(J, k->A[j], HS_D(m, body_inertia)[j]);
}

/* A body's 6x6 mass matrix of eq. (9) in global axes, about the global origin,
 *   Mbar = [ m I    -c~ ]     c = m g           (first moment; g the centre of mass)
 *          [ c~      Io ]     Io = J + m (|g|^2 I - g g^T)   (inertia about the origin),
 * kept as its ten independent numbers: a sum of such matrices (a composite body of the
 * backward accumulation) has the same form, so adding costs 10 flops instead of 36 and a
 * product Mbar v about 30 instead of 66. */
typedef struct hs_inertia6 {
    hs_real m; /* kg */
    hs_real c[3]; /* m g, kg m */
    hs_real I[6]; /* Io: xx yy zz xy xz yz, kg m^2 */
} hs_inertia6;

/* r = Mbar v for v = [s; w] (6): [m s - c x w; c x s + Io w]. */
HS_HD static inline void hs_inertia6_apply(const hs_inertia6 *B, const hs_real *v, hs_real *r)
{
    const hs_real *s = v, *w = v + 3, *I = B->I;
    hs_real t[3];
    hs_v3_cross(t, B->c, w);
    r[0] = B->m * s[0] - t[0];
    r[1] = B->m * s[1] - t[1];
    r[2] = B->m * s[2] - t[2];
    hs_v3_cross(t, B->c, s);
    r[3] = t[0] + I[0] * w[0] + I[3] * w[1] + I[4] * w[2];
    r[4] = t[1] + I[3] * w[0] + I[1] * w[1] + I[5] * w[2];
    r[5] = t[2] + I[4] * w[0] + I[5] * w[1] + I[2] * w[2];
}

/* hs_inertia6_apply for a v = [s; w] of a planar body (hs_model's joint_planar: s = (sx, sy,
 * 0), w = (0, 0, wz), exact zeros, as the body's velocities, accelerations and joint vector
 * are): the same values without the products with those zeros. */
HS_HD static inline void hs_inertia6_apply_z(const hs_inertia6 *B, const hs_real *v, hs_real *r)
{
    const hs_real *s = v, *I = B->I, *c = B->c, w = v[5];
    r[0] = B->m * s[0] - c[1] * w;
    r[1] = B->m * s[1] - (-(c[0] * w));
    r[2] = 0.0;
    r[3] = -(c[2] * s[1]) + I[4] * w;
    r[4] = c[2] * s[0] + I[5] * w;
    r[5] = (c[0] * s[1] - c[1] * s[0]) + I[2] * w;
}

/* Mbar v (hs_inertia6_apply) of body j: the planar form where it holds. */
HS_HD static inline void hs_body_inertia6_apply(const hs_mview *m, int j, const hs_inertia6 *B, const hs_real *v,
                                                hs_real *r)
{
    if (HS_I(m, joint_planar, j)) hs_inertia6_apply_z(B, v, r);
    else hs_inertia6_apply(B, v, r);
}

/* A += B (a composite body). */
HS_HD static inline void hs_inertia6_add(hs_inertia6 *A, const hs_inertia6 *B)
{
    int q;
    A->m += B->m;
    for (q = 0; q < 3; ++q) A->c[q] += B->c[q];
    for (q = 0; q < 6; ++q) A->I[q] += B->I[q];
}

typedef struct hs_dyn_work {
    hs_inertia6 Ic[HS_CAP_BODIES]; /* body mass matrices, accumulated over the subtrees (nbody) */
    hs_real Qc[HS_CAP_BODIES][6]; /* accumulated Qbar - Mbar Zd0 (nbody x 6) */
} hs_dyn_work;

/* Applied force on body j: gravity at its centre of mass and the external loads on it at
 * time t (their signals' left limit if side < 0, right limit otherwise: hs_signal.h).
 * F (global) and N, the moment about the global origin (eq. 10's tau + g~ f). A load on
 * ground does no work and moves nothing. */
HS_HD static inline void hs_body_applied(const hs_mview *m, const hs_kin *k, int j, const hs_real g[3], double t,
                                         int side, hs_real F[3], hs_real N[3])
{
    int l, q;
    for (q = 0; q < 3; ++q) F[q] = HS_D(m, body_mass)[j] * HS_D(m, gravity)[q];
    hs_v3_cross(N, g, F);
    HS_UNROLL
    for (l = 0; l < HS_N(m, nload); ++l) {
        hs_real sf, st, f[3], tq[3], r[3], w[3];
        if (HS_I(m, load_body, l) != j) continue;
        sf = hs_signal_eval_side(m, HS_I(m, load_force_sig, l), t, side);
        st = hs_signal_eval_side(m, HS_I(m, load_torque_sig, l), t, side);
        if (HS_I(m, load_frame, l) == HS_FRAME_BODY) {
            hs_m3_mulv(f, k->A[j], HS_D(m, load_force_dir)[l]);
            hs_m3_mulv(tq, k->A[j], HS_D(m, load_torque_dir)[l]);
        } else {
            hs_v3_copy(f, HS_D(m, load_force_dir)[l]);
            hs_v3_copy(tq, HS_D(m, load_torque_dir)[l]);
        }
        for (q = 0; q < 3; ++q) {
            f[q] *= sf;
            tq[q] *= st;
        }
        hs_kin_point(k, j, HS_D(m, load_at)[l], r);
        hs_v3_cross(w, r, f);
        for (q = 0; q < 3; ++q) {
            F[q] += f[q];
            N[q] += w[q] + tq[q];
        }
    }
}

/* Payload p on its body (returned) at the state in k: its point r, its velocity v (NULL: not
 * wanted) and its own inertia at s = 1 in global axes J (hs_payloads_add, hs_energy,
 * hs_external_power). */
HS_HD static inline int hs_payload_at(const hs_mview *m, const hs_kin *k, int p, hs_real r[3], hs_real *v,
                                      hs_real J[9])
{
    int j = HS_I(m, pay_body, p);
    hs_kin_point(k, j, HS_D(m, pay_at)[p], r);
    if (v) hs_kin_point_vel(k, j, r, v);
    hs_m3_inertia_global(J, k->A[j], HS_D(m, pay_inertia)[p]);
    return j;
}

/* Power of the external loads (gravity excluded: it is in E_pot) at time t (signal limit as
 * in hs_applied_forces_side). */
HS_HD static inline hs_real hs_external_power(const hs_mview *m, const hs_kin *k, double t, int side)
{
    hs_real P = 0.0;
    int l;
    for (l = 0; l < HS_N(m, nload); ++l) {
        int j = HS_I(m, load_body, l);
        hs_real sf, st, f[3], tq[3], r[3], v[3];
        if (j < 0) continue;
        sf = hs_signal_eval_side(m, HS_I(m, load_force_sig, l), t, side);
        st = hs_signal_eval_side(m, HS_I(m, load_torque_sig, l), t, side);
        if (HS_I(m, load_frame, l) == HS_FRAME_BODY) {
            hs_m3_mulv(f, k->A[j], HS_D(m, load_force_dir)[l]);
            hs_m3_mulv(tq, k->A[j], HS_D(m, load_torque_dir)[l]);
        } else {
            hs_v3_copy(f, HS_D(m, load_force_dir)[l]);
            hs_v3_copy(tq, HS_D(m, load_torque_dir)[l]);
        }
        hs_kin_point(k, j, HS_D(m, load_at)[l], r);
        hs_kin_point_vel(k, j, r, v);
        P += sf * hs_v3_dot(f, v) + st * hs_v3_dot(tq, k->Z[j] + 3);
    }
    /* what a payload's changing mass brings in, dm/dt (|v|^2 / 2 - g . r) + ds/dt w.J w / 2: the
     * E_kin and E_pot it adds or takes away with itself (so E_balance closes) */
    for (l = 0; l < HS_N(m, npay); ++l) {
        hs_real r[3], v[3], J[9], Jw[3];
        int j;
        double ds;
        (void)hs_signal_smooth(m, HS_I(m, pay_sig, l), t, &ds);
        if (ds == 0.0) continue;
        j = hs_payload_at(m, k, l, r, v, J);
        hs_m3_mulv(Jw, J, k->Z[j] + 3);
        P += ds * (HS_D(m, pay_mass)[l] * (0.5 * hs_v3_dot(v, v) - hs_v3_dot(HS_D(m, gravity), r)) +
                   0.5 * hs_v3_dot(k->Z[j] + 3, Jw));
    }
    return P;
}

/* Body j's Mbar (eq. 9), given its centre of mass g and its inertia about it in global axes J. */
HS_HD static inline void hs_inertia6_set(hs_real mj, const hs_real g[3], const hs_real J[9], hs_inertia6 *B)
{
    hs_real gg = hs_v3_dot(g, g);
    B->m = mj;
    B->c[0] = mj * g[0];
    B->c[1] = mj * g[1];
    B->c[2] = mj * g[2];
    B->I[0] = J[0] + mj * (gg - g[0] * g[0]);
    B->I[1] = J[4] + mj * (gg - g[1] * g[1]);
    B->I[2] = J[8] + mj * (gg - g[2] * g[2]);
    B->I[3] = J[1] - mj * g[0] * g[1];
    B->I[4] = J[2] - mj * g[0] * g[2];
    B->I[5] = J[5] - mj * g[1] * g[2];
}

HS_HD static inline void hs_body_inertia6(const hs_mview *m, int j, const hs_real g[3], const hs_real J[9],
                                          hs_inertia6 *B)
{
    hs_inertia6_set(HS_D(m, body_mass)[j], g, J, B);
}

/* Body force vector Qbar_j (eq. 10) with applied force F and moment N about the origin, g its
 * centre of mass and Jw its inertia about it (global axes) times its angular velocity. */
HS_HD static inline void hs_force6_set(hs_real mj, int planar, const hs_real *w, const hs_real g[3],
                                       const hs_real Jw[3], const hs_real F[3], const hs_real N[3], hs_real Qb[6])
{
    hs_real wJw[3], c[3], mg[3], gc[3];
    int q;
    for (q = 0; q < 3; ++q) mg[q] = mj * g[q];
    if (planar) {
        /* w = (0, 0, W) and Jw along it (planar body): w x (w x m g) = -W^2 (m gx, m gy, 0)
         * as hs_v3_cross2 evaluates it, w x Jw = 0 */
        hs_real W = w[2];
        c[0] = -(W * (W * mg[0]));
        c[1] = -(W * (W * mg[1]));
        c[2] = 0.0;
        hs_v3_cross(gc, g, c);
        for (q = 0; q < 3; ++q) {
            Qb[q] = F[q] - c[q];
            Qb[3 + q] = N[q] - gc[q];
        }
        return;
    }
    hs_v3_cross2(c, w, mg); /* w x (w x m g): centripetal term */
    hs_v3_cross(wJw, w, Jw);
    hs_v3_cross(gc, g, c);
    for (q = 0; q < 3; ++q) {
        Qb[q] = F[q] - c[q];
        Qb[3 + q] = N[q] - wJw[q] - gc[q];
    }
}

HS_HD static inline void hs_body_force6(const hs_mview *m, const hs_kin *k, int j, const hs_real g[3],
                                        const hs_real Jw[3], const hs_real F[3], const hs_real N[3], hs_real Qb[6])
{
    hs_force6_set(HS_D(m, body_mass)[j], HS_I(m, joint_planar, j), k->Z[j] + 3, g, Jw, F, N, Qb);
}

/* The payloads on body j at time t: each a point mass m_p s(t) at its
 * point r, added to the body's Mbar (eq. 9 with J = 0 about r) and Qbar (eq. 10: its weight,
 * and w x (w x m_p r) for its centripetal force), as if it were part of the body: a load picked
 * up moves with the grapple that holds it (its mass ramps in at the grapple's velocity, not
 * with an impact); s follows the payload's knot signal as a C1 curve (hs_signal_smooth). Its
 * energy: hs_energy; what its changing mass brings: hs_external_power. */
HS_HD static inline void hs_payloads_add(const hs_mview *m, const hs_kin *k, int j, double t, hs_inertia6 *B,
                                         hs_real Qb[6])
{
    int p, q;
    HS_UNROLL
    for (p = 0; p < HS_N(m, npay); ++p) {
        hs_real r[3], F[3], N[3], J[9], Jw[3], Qp[6];
        hs_inertia6 Bp;
        double mp, rate, s;
        if (HS_I(m, pay_body, p) != j) continue;
        s = hs_signal_smooth(m, HS_I(m, pay_sig, p), t, &rate);
        mp = HS_D(m, pay_mass)[p] * s;
        if (!(mp != 0.0)) continue;
        (void)hs_payload_at(m, k, p, r, (hs_real *)0, J);
        for (q = 0; q < 9; ++q) J[q] *= s; /* its own inertia, at s */
        hs_m3_mulv(Jw, J, k->Z[j] + 3);
        for (q = 0; q < 3; ++q) F[q] = mp * HS_D(m, gravity)[q];
        hs_v3_cross(N, r, F);
        hs_inertia6_set(mp, r, J, &Bp);
        hs_force6_set(mp, HS_I(m, joint_planar, j), k->Z[j] + 3, r, Jw, F, N, Qp);
        hs_inertia6_add(B, &Bp);
        for (q = 0; q < 6; ++q) Qb[q] += Qp[q];
    }
}

/* Body j's Mbar (eq. 9) and Qbar (eq. 10) at the state in k, applied forces at time t (signal
 * limit as in hs_body_applied). */
HS_HD static inline void hs_body_mass_force6(const hs_mview *m, const hs_kin *k, int j, double t, int side,
                                             hs_inertia6 *B, hs_real Qb[6])
{
    hs_real J[9], Jw[3], F[3], N[3], g[3];
    hs_kin_com(m, k, j, g);
    hs_body_applied(m, k, j, g, t, side, F, N);
    hs_body_inertia_global(m, k, j, J);
    hs_body_inertia6(m, j, g, J, B);
    if (HS_I(m, joint_planar, j)) hs_v3_set(Jw, 0.0, 0.0, 0.0); /* along w: hs_body_force6 needs no w x Jw */
    else hs_m3_mulv(Jw, J, k->Z[j] + 3);
    hs_body_force6(m, k, j, g, Jw, F, N, Qb);
    if (HS_N(m, npay) > 0) hs_payloads_add(m, k, j, t, B, Qb); /* (continuous in t: no side) */
}

/* M (nz x nz, row-major, leading dimension ldm) and Q (nz) with gravity and the external
 * loads at time t (hs_body_applied) as the applied forces. Per body Mbar and
 * Qc = Qbar - Mbar Zd0 (the product Rdot zdot of eq. 11 is in Zd0), then backward
 * accumulation over the tree (children come after their parents) and projection on the joint
 * vectors: M_jl = b_l^T Mc_j b_j for l on the path root..j, Q_j = b_j^T Qc_j. Requires
 * hs_kin_positions and hs_kin_velocities. */
HS_HD static inline void hs_mass_force_side(const hs_mview *m, const hs_kin *k, double t, int side, hs_real *M,
                                            int ldm, hs_real *Q, hs_dyn_work *w)
{
    int j, r;
    HS_UNROLL
    for (j = 0; j < HS_N(m, nbody); ++j) {
        hs_real Qb[6], a[6];
        hs_body_mass_force6(m, k, j, t, side, &w->Ic[j], Qb);
        hs_body_inertia6_apply(m, j, &w->Ic[j], k->Zd0[j], a);
        for (r = 0; r < 6; ++r) w->Qc[j][r] = Qb[r] - a[r];
    }
    HS_UNROLL
    for (j = HS_N(m, nbody) - 1; j >= 0; --j) {
        int par = HS_I(m, body_parent, j);
        if (par < 0) continue;
        hs_inertia6_add(&w->Ic[par], &w->Ic[j]);
        for (r = 0; r < 6; ++r) w->Qc[par][r] += w->Qc[j][r];
    }
    HS_UNROLL
    for (j = 0; j < HS_N(m, nbody); ++j) {
        hs_real h[6];
        int l;
        Q[j] = hs_v3_dot(k->b[j], w->Qc[j]) + hs_v3_dot(k->b[j] + 3, w->Qc[j] + 3);
        hs_body_inertia6_apply(m, j, &w->Ic[j], k->b[j], h);
        HS_UNROLL
        for (l = 0; l < HS_N(m, nbody); ++l) {
            hs_real s;
            if (!((HS_I(m, body_anc, j) >> l) & 1u)) continue; /* l not on the path root..j */
            s = hs_v3_dot(k->b[l], h) + hs_v3_dot(k->b[l] + 3, h + 3);
            M[j * ldm + l] = s;
            M[l * ldm + j] = s;
        }
        HS_UNROLL
        for (l = 0; l < HS_N(m, nbody); ++l) /* neither an ancestor of the other: no coupling */
            if (!((HS_I(m, body_anc, j) >> l) & 1u) && !((HS_I(m, body_anc, l) >> j) & 1u))
                M[j * ldm + l] = 0.0;
    }
}

/* Inverse dynamics, tau = M zdd - Q (nz; Q with gravity and the external loads at time t, signal
 * limit as in hs_body_applied), without forming M: the recursive Newton-Euler form of eqs.
 * 8-12. Out from the root, the body accelerations Zdot_j = Zd0_j + sum over the path root..j
 * of b_l zdd_l (eq. 3); per body f_j = Mbar_j Zdot_j - Qbar_j; back to the root, each f added
 * into its parent (the products with T^T); tau_j = b_j^T f_j. For the seed 003 four-bar about
 * 2/3 of the flops of hs_mass_force_side and the product M zdd, which a residual needs only
 * this way (hs_residual_sub). fb (nbody x 6) keeps each body's own f: the bodies outside
 * mask (bit j: body j) take theirs from it, which holds when their positions, velocities and
 * the accelerations on their paths are those of the call that computed it (hs_tangent's
 * columns recompute only the bodies a coordinate moves); the others' are computed and kept.
 * Requires hs_kin_positions and hs_kin_velocities. */
HS_HD static inline void hs_inverse_dynamics_side(const hs_mview *m, const hs_kin *k, double t, int side,
                                                  const hs_real *zdd, unsigned int mask,
                                                  hs_real (*fb)[6], hs_real *tau)
{
    hs_real a[HS_CAP_BODIES][6]; /* the path sums of b_l zdd_l, then the accumulated forces */
    int j, r;
    HS_UNROLL
    for (j = 0; j < HS_N(m, nbody); ++j) {
        int par = HS_I(m, body_parent, j);
        if (HS_I(m, joint_planar, j)) { /* b = [bx, by, 0; 0, 0, +-1] */
            for (r = 0; r < 6; ++r) a[j][r] = par >= 0 ? a[par][r] : 0.0;
            a[j][0] += k->b[j][0] * zdd[j];
            a[j][1] += k->b[j][1] * zdd[j];
            a[j][5] += k->b[j][5] * zdd[j];
        } else {
            for (r = 0; r < 6; ++r) a[j][r] = (par >= 0 ? a[par][r] : 0.0) + k->b[j][r] * zdd[j];
        }
    }
    HS_UNROLL
    for (j = 0; j < HS_N(m, nbody); ++j) {
        hs_inertia6 B;
        hs_real Qb[6], acc[6], f[6];
        if (!((mask >> j) & 1u)) continue;
        hs_body_mass_force6(m, k, j, t, side, &B, Qb);
        for (r = 0; r < 6; ++r) acc[r] = k->Zd0[j][r] + a[j][r];
        hs_body_inertia6_apply(m, j, &B, acc, f);
        for (r = 0; r < 6; ++r) fb[j][r] = f[r] - Qb[r];
    }
    HS_UNROLL
    for (j = 0; j < HS_N(m, nbody); ++j)
        for (r = 0; r < 6; ++r) a[j][r] = fb[j][r];
    HS_UNROLL
    for (j = HS_N(m, nbody) - 1; j >= 0; --j) {
        int par = HS_I(m, body_parent, j);
        if (HS_I(m, joint_planar, j)) /* b's zeros as above */
            tau[j] = (k->b[j][0] * a[j][0] + k->b[j][1] * a[j][1]) + k->b[j][5] * a[j][5];
        else tau[j] = hs_v3_dot(k->b[j], a[j]) + hs_v3_dot(k->b[j] + 3, a[j] + 3);
        if (par >= 0)
            for (r = 0; r < 6; ++r) a[par][r] += a[j][r];
    }
}

/* M and Q with gravity and the external loads at time t as the applied forces. */
HS_HD static inline void hs_mass_force(const hs_mview *m, const hs_kin *k, double t, hs_real *M,
                                       int ldm, hs_real *Q, hs_dyn_work *w)
{
    hs_mass_force_side(m, k, t, 1, M, ldm, Q, w);
}

/* Kinetic and potential energy at the state in k at time t (E_pot relative to the global
 * origin), the payloads' included. */
HS_HD static inline void hs_energy(const hs_mview *m, const hs_kin *k, double t, hs_real *Ekin, hs_real *Epot)
{
    hs_real T = 0.0, V = 0.0;
    int j, p;
    for (j = 0; j < HS_N(m, nbody); ++j) {
        hs_real v[3], J[9], Jw[3], g[3];
        const hs_real *w = k->Z[j] + 3;
        hs_kin_com(m, k, j, g);
        hs_kin_point_vel(k, j, g, v);
        hs_body_inertia_global(m, k, j, J);
        hs_m3_mulv(Jw, J, w);
        T += 0.5 * (HS_D(m, body_mass)[j] * hs_v3_dot(v, v) + hs_v3_dot(w, Jw));
        V -= HS_D(m, body_mass)[j] * hs_v3_dot(HS_D(m, gravity), g);
    }
    for (p = 0; p < HS_N(m, npay); ++p) {
        hs_real r[3], v[3], J[9], Jw[3];
        double rate, s = hs_signal_smooth(m, HS_I(m, pay_sig, p), t, &rate), mp = HS_D(m, pay_mass)[p] * s;
        j = hs_payload_at(m, k, p, r, v, J);
        hs_m3_mulv(Jw, J, k->Z[j] + 3);
        T += 0.5 * (mp * hs_v3_dot(v, v) + s * hs_v3_dot(k->Z[j] + 3, Jw));
        V -= mp * hs_v3_dot(HS_D(m, gravity), r);
    }
    *Ekin = T;
    *Epot = V;
}

#endif
