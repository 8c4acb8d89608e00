/* hs_dynamics.h -- mass matrix, generalised forces and energies of the tree in relative
 * coordinates (seed 000 eqs. 8-12; seed 004 Pub. I eqs. 8-14).
 *
 * M = Rd^T T^T Mbar T Rd and Q = Rd^T T^T (Qbar - Mbar T Rdot zdot) are formed by backward
 * accumulation over the tree: Mbar and Qbar - Mbar Zd0 of each body are added into its
 * parent (the products with the path matrix T), so no 6N x 6N matrix is ever built.
 * M_kl = b_k^T Mc_k b_l when l is on the path root..k (zero when neither is an ancestor of the
 * other); Q_k = b_k^T Qc_k. Cost O(nbody * depth). */
#ifndef HS_DYNAMICS_H
#define HS_DYNAMICS_H

#include "hs_kinematics.h"
#include "hs_signal.h"

typedef struct hs_dyn_work {
    double Mc[HS_CAP_BODIES][36]; /* accumulated 6x6 body mass matrices Mbar (nbody x 36) */
    double Qc[HS_CAP_BODIES][6]; /* accumulated Qbar - Mbar Zd0 (nbody x 6) */
    double F[HS_CAP_BODIES][3]; /* applied force on each body, global (nbody x 3) */
    double N[HS_CAP_BODIES][3]; /* applied moment about the global origin (nbody x 3) */
} hs_dyn_work;

/* Applied forces: gravity at the centres of mass and the external loads at time t (their
 * signals' left limit if side < 0, right limit otherwise: hs_signal.h).
 * F_j (global) and N_j, the moment about the global origin (eq. 10's tau + g~ f). */
HS_HD static inline void hs_applied_forces_side(const hs_mview *m, const hs_kin *k, double t,
                                                int side, double F[][3], double N[][3])
{
    int j, l;
    for (j = 0; j < HS_N(m, nbody); ++j) {
        double w[3];
        for (l = 0; l < 3; ++l) F[j][l] = HS_D(m, body_mass)[j] * HS_D(m, gravity)[l];
        hs_v3_cross(w, k->g[j], F[j]);
        hs_v3_copy(N[j], w);
    }
    for (l = 0; l < HS_N(m, nload); ++l) {
        int j2 = HS_I(m, load_body, l);
        double sf = hs_signal_eval_side(m, HS_I(m, load_force_sig, l), t, side);
        double st = hs_signal_eval_side(m, HS_I(m, load_torque_sig, l), t, side);
        double f[3], tq[3], r[3], w[3];
        int q;
        if (j2 < 0) continue; /* a load on ground does no work and moves nothing */
        if (HS_I(m, load_frame, l) == HS_FRAME_BODY) {
            hs_m3_mulv(f, k->A[j2], HS_D(m, load_force_dir)[l]);
            hs_m3_mulv(tq, k->A[j2], HS_D(m, load_torque_dir)[l]);
        } else {
            hs_v3_copy(f, HS_D(m, load_force_dir)[l]);
            hs_v3_copy(tq, HS_D(m, load_torque_dir)[l]);
        }
        for (q = 0; q < 3; ++q) {
            f[q] *= sf;
            tq[q] *= st;
        }
        hs_kin_point(k, j2, HS_D(m, load_at)[l], r);
        hs_v3_cross(w, r, f);
        for (q = 0; q < 3; ++q) {
            F[j2][q] += f[q];
            N[j2][q] += w[q] + tq[q];
        }
    }
}

HS_HD static inline void hs_applied_forces(const hs_mview *m, const hs_kin *k, double t,
                                           double F[][3], double N[][3])
{
    hs_applied_forces_side(m, k, t, 1, F, N);
}

/* Power of the external loads (gravity excluded: it is in E_pot) at time t (signal limit as
 * in hs_applied_forces_side). */
HS_HD static inline double hs_external_power(const hs_mview *m, const hs_kin *k, double t, int side)
{
    double P = 0.0;
    int l;
    for (l = 0; l < HS_N(m, nload); ++l) {
        int j = HS_I(m, load_body, l);
        double sf, st, f[3], tq[3], r[3], v[3];
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
    return P;
}

/* Body mass matrix Mbar_j (eq. 9) in global axes, 6x6 row-major. */
HS_HD static inline void hs_body_mass6(const hs_mview *m, const hs_kin *k, int j, double Mb[36])
{
    double J[9], mj = HS_D(m, body_mass)[j];
    const double *g = k->g[j];
    double G[9]; /* g~ */
    int r, c, q;
    hs_m3_inertia_global(J, k->A[j], HS_D(m, body_inertia)[j]);
    G[0] = 0.0;
    G[1] = -g[2];
    G[2] = g[1];
    G[3] = g[2];
    G[4] = 0.0;
    G[5] = -g[0];
    G[6] = -g[1];
    G[7] = g[0];
    G[8] = 0.0;
    for (r = 0; r < 3; ++r)
        for (c = 0; c < 3; ++c) {
            double gg = 0.0;
            for (q = 0; q < 3; ++q) gg += G[3 * r + q] * G[3 * q + c];
            Mb[6 * r + c] = (r == c) ? mj : 0.0;
            Mb[6 * r + 3 + c] = -mj * G[3 * r + c];
            Mb[6 * (3 + r) + c] = mj * G[3 * r + c];
            Mb[6 * (3 + r) + 3 + c] = J[3 * r + c] - mj * gg;
        }
}

/* Body force vector Qbar_j (eq. 10) with applied force F and moment N about the origin. */
HS_HD static inline void hs_body_force6(const hs_mview *m, const hs_kin *k, int j,
                                        const double F[3], const double N[3], double Qb[6])
{
    double J[9], Jw[3], wJw[3], c[3], mg[3], gc[3];
    const double *w = k->Z[j] + 3;
    int q;
    hs_m3_inertia_global(J, k->A[j], HS_D(m, body_inertia)[j]);
    for (q = 0; q < 3; ++q) mg[q] = HS_D(m, body_mass)[j] * k->g[j][q];
    hs_v3_cross2(c, w, mg); /* w x (w x m g): centripetal term */
    hs_m3_mulv(Jw, J, w);
    hs_v3_cross(wJw, w, Jw);
    hs_v3_cross(gc, k->g[j], c);
    for (q = 0; q < 3; ++q) {
        Qb[q] = F[q] - c[q];
        Qb[3 + q] = N[q] - wJw[q] - gc[q];
    }
}

/* Body j's 6-vector of applied minus velocity-dependent inertial forces, Qc = Qb - Mb Zd0,
 * with Mb its own (not yet accumulated) 6x6 mass matrix. */
HS_HD static inline void hs_body_bias6(const hs_mview *m, const hs_kin *k, int j, const double *Mb,
                                       const double *F, const double *N, double *Qc)
{
    double Qb[6];
    int r, c;
    hs_body_force6(m, k, j, F, N, Qb);
    for (r = 0; r < 6; ++r) {
        double s = Qb[r];
        for (c = 0; c < 6; ++c) s -= Mb[6 * r + c] * k->Zd0[j][c];
        Qc[r] = s;
    }
}

/* Q (nz) from the bodies' Qc in w: backward accumulation over the tree (children are after
 * their parents), then projection on each joint's axis b. */
HS_HD static inline void hs_force_project(const hs_mview *m, const hs_kin *k, double *Q, hs_dyn_work *w)
{
    int j, r;
    for (j = HS_N(m, nbody) - 1; j >= 0; --j) {
        int par = HS_I(m, body_parent, j);
        if (par < 0) continue;
        for (r = 0; r < 6; ++r) w->Qc[par][r] += w->Qc[j][r];
    }
    for (j = 0; j < HS_N(m, nbody); ++j) {
        double s = 0.0;
        for (r = 0; r < 6; ++r) s += k->b[j][r] * w->Qc[j][r];
        Q[j] = s;
    }
}

/* M (nz x nz, row-major, leading dimension ldm) and Q (nz) from the applied forces already in
 * w->F and w->N (hs_applied_forces plus, e.g., cylinder forces). Requires hs_kin_positions and
 * hs_kin_velocities. */
HS_HD static inline void hs_mass_force_applied(const hs_mview *m, const hs_kin *k, double *M,
                                               int ldm, double *Q, hs_dyn_work *w)
{
    int j, r, c;
    for (j = 0; j < HS_N(m, nbody); ++j) {
        hs_body_mass6(m, k, j, w->Mc[j]);
        hs_body_bias6(m, k, j, w->Mc[j], w->F[j], w->N[j], w->Qc[j]);
    }
    /* backward accumulation of the composite masses: children are after their parents */
    for (j = HS_N(m, nbody) - 1; j >= 0; --j) {
        int par = HS_I(m, body_parent, j);
        if (par < 0) continue;
        for (r = 0; r < 36; ++r) w->Mc[par][r] += w->Mc[j][r];
    }
    hs_force_project(m, k, Q, w);
    for (r = 0; r < HS_N(m, nz); ++r)
        for (c = 0; c < HS_N(m, nz); ++c) M[r * ldm + c] = 0.0;
    for (j = 0; j < HS_N(m, nbody); ++j) {
        double h[6], s;
        int l;
        for (r = 0; r < 6; ++r) {
            s = 0.0;
            for (c = 0; c < 6; ++c) s += w->Mc[j][6 * r + c] * k->b[j][c];
            h[r] = s;
        }
        for (l = j; l >= 0; l = HS_I(m, body_parent, l)) {
            s = 0.0;
            for (r = 0; r < 6; ++r) s += k->b[l][r] * h[r];
            M[j * ldm + l] = s;
            M[l * ldm + j] = s;
        }
    }
}

/* Q alone (nz), with hs_mass_force_applied's operations for Q: for a change of the applied
 * forces at unchanged kinematics (the tangent's hydraulic columns), where M is unchanged and
 * need not be rebuilt. Bit-identical to hs_mass_force_applied's Q. */
HS_HD static inline void hs_force_applied(const hs_mview *m, const hs_kin *k, double *Q, hs_dyn_work *w)
{
    int j;
    for (j = 0; j < HS_N(m, nbody); ++j) {
        double Mb[36];
        hs_body_mass6(m, k, j, Mb);
        hs_body_bias6(m, k, j, Mb, w->F[j], w->N[j], w->Qc[j]);
    }
    hs_force_project(m, k, Q, w);
}

/* M and Q with gravity and the external loads at time t as the applied forces. */
HS_HD static inline void hs_mass_force(const hs_mview *m, const hs_kin *k, double t, double *M,
                                       int ldm, double *Q, hs_dyn_work *w)
{
    hs_applied_forces(m, k, t, w->F, w->N);
    hs_mass_force_applied(m, k, M, ldm, Q, w);
}

/* Kinetic and potential energy at the state in k (E_pot relative to the global origin). */
HS_HD static inline void hs_energy(const hs_mview *m, const hs_kin *k, double *Ekin, double *Epot)
{
    double T = 0.0, V = 0.0;
    int j;
    for (j = 0; j < HS_N(m, nbody); ++j) {
        double v[3], J[9], Jw[3];
        const double *w = k->Z[j] + 3;
        hs_kin_point_vel(k, j, k->g[j], v);
        hs_m3_inertia_global(J, k->A[j], HS_D(m, body_inertia)[j]);
        hs_m3_mulv(Jw, J, w);
        T += 0.5 * (HS_D(m, body_mass)[j] * hs_v3_dot(v, v) + hs_v3_dot(w, Jw));
        V -= HS_D(m, body_mass)[j] * hs_v3_dot(HS_D(m, gravity), k->g[j]);
    }
    *Ekin = T;
    *Epot = V;
}

#endif
