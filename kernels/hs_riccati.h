/* hs_riccati.h -- accelerations and internal forces of an open tree by the Riccati transfer
 * matrix method (seed 002, Rui et al. 2020), in time linear in the number of bodies.
 *
 * State vector of a point (eq. 1): z = [r''; Omega'; m; q; 1], accelerations and internal
 * moment and force in the inertial frame, with the seed's signs (q the force the tip side
 * exerts on the root side; m the moment about the negative axes, i.e. minus the tip side's
 * moment). Transfer runs from the tips (inputs, free boundaries) to the root (output, the
 * ground). The known half z_a = [m; q] and the unknown half z_b = [r''; Omega'] are related
 * at every joint by the Riccati transformation (eq. 21)
 *     z_a = S z_b + e,
 * starting from S = 0, e = 0 at a free tip (eq. 34). Three transfers move (S, e) rootwards:
 *  - a rigid body (eqs. 3-5), taken with its input at its own joint point (r_IO = 0), so
 *    T22 = I and its step is S += T12, e += f_a (eqs. 29-30 with P = I, q = 0);
 *  - a massless rigid shift of a child's relation from the child's joint point to the
 *    body's (eq. 4 with m = 0, J = 0: T21 = 0, P = T22^-1, eqs. 24, 29, 30). The children of a
 *    multi-input body (eq. 8) add: their forces enter its equations as the extra columns of
 *    eq. (8), and their input accelerations follow from its own by the geometric equations
 *    (eq. 14), which this shift is. Substituting those into the subchains' tip relations
 *    (eq. 32) instead of assembling eq. (56) solves Algorithm B's step B3 by elimination, so
 *    nested branches recurse and no global system is formed;
 *  - a smooth hinge. Its transfer relation is implicit in the joint acceleration theta''
 *    (eq. 10 eliminates it through the outboard body's moment row, which assumes ball joints
 *    at both ends of that body); here the Riccati transformation is applied to it directly:
 *    with a_in = a_out + H theta'' + zeta and the hinge condition Hm^T z_a = 0 (no moment
 *    about a revolute axis, no moment at a ball joint, no force along a slider),
 *        theta'' = -D^-1 Hm^T (S (a_out + zeta) + e),  D = Hm^T S H,
 *        S_out = S - S H D^-1 Hm^T S,  e_out = (I - S H D^-1 Hm^T)(S zeta + e).
 *    For the seed's chains of ball-jointed rods this is eq. (10) (the rod's moment row is the
 *    row Hm^T S picks), and for any tree it is the articulated-body recursion.
 * At the root the ground's accelerations are known (zero), and the backward recursion
 * (eq. 33) gives every joint's acceleration and every internal force, root to tip.
 * Gravity, the model's external loads (t->ext, at t->time: hs_tree_loads) and the caller's applied
 * loads act at the centres of mass as f_C, m_C (eq. 5).
 * Cost per body: one 6x6 rank-k update and one shift, O(nbody) in all; memory HS_TREE_NW
 * doubles per body. */
#ifndef HS_RICCATI_H
#define HS_RICCATI_H

#include "hs_signal.h"
#include "hs_tree.h"

/* Rows of S: [m; q]; columns: [r''; Omega']. */

/* C = R X for R = skew(r) and a 3x3 X (row-major): column k of C is r x X(:,k). C != X. */
HS_HD static inline void hs_skew_mul(hs_real C[9], const hs_real r[3], const hs_real X[9])
{
    int k;
    for (k = 0; k < 3; ++k) {
        C[k] = r[1] * X[6 + k] - r[2] * X[3 + k];
        C[3 + k] = r[2] * X[k] - r[0] * X[6 + k];
        C[6 + k] = r[0] * X[3 + k] - r[1] * X[k];
    }
}

/* C = X R for R = skew(r): row i of C is X(i,:) x r. C != X. */
HS_HD static inline void hs_mul_skew(hs_real C[9], const hs_real X[9], const hs_real r[3])
{
    int i;
    for (i = 0; i < 3; ++i) {
        const hs_real *x = X + 3 * i;
        C[3 * i] = x[1] * r[2] - x[2] * r[1];
        C[3 * i + 1] = x[2] * r[0] - x[0] * r[2];
        C[3 * i + 2] = x[0] * r[1] - x[1] * r[0];
    }
}

/* The 3x3 block (bi, bj) of a row-major 6x6 S, to and from X. */
HS_HD static inline void hs_s6_get(const hs_real *S, int bi, int bj, hs_real X[9])
{
    int i, k;
    for (i = 0; i < 3; ++i)
        for (k = 0; k < 3; ++k) X[3 * i + k] = S[6 * (3 * bi + i) + 3 * bj + k];
}
HS_HD static inline void hs_s6_add(hs_real *S, int bi, int bj, const hs_real X[9])
{
    int i, k;
    for (i = 0; i < 3; ++i)
        for (k = 0; k < 3; ++k) S[6 * (3 * bi + i) + 3 * bj + k] += X[3 * i + k];
}

/* The body's own transfer (eqs. 4-5 with I = O at its joint point o): S += T12, e += f_a with
 *   T12 = [m rt, J_I; -m I, m rt], f_a = [-m_C - rt f_C + Omega~ J_I Omega; f_C - m Omega~ Omega~ r]
 * (rt = skew(r_IC), J_I the inertia about o in global axes). f (6, global: force at the
 * centre of mass, moment) or NULL adds to gravity. */
HS_HD static inline void hs_riccati_body(const hs_tree *t, int j, hs_real *wj, const hs_real *f)
{
    hs_real *S = wj + HS_TW_S, *e = wj + HS_TW_E;
    const hs_real *om = wj + HS_TW_W;
    hs_real r[3], J[9], Jb[6], fC[3], mC[3], Jw[3], x[3], y[3], c[3];
    double mj = t->mass[j];
    hs_real rr;
    int i, k;
    hs_tree_com(t, j, wj, c);
    hs_v3_sub(r, c, wj + HS_TW_O);
    for (i = 0; i < 6; ++i) Jb[i] = t->inertia[6L * j + i];
    hs_m3_inertia_global(J, wj + HS_TW_A, Jb);
    rr = hs_v3_dot(r, r);
    for (i = 0; i < 3; ++i)
        for (k = 0; k < 3; ++k) J[3 * i + k] += mj * ((i == k ? rr : 0.0) - r[i] * r[k]); /* parallel axes */
    for (i = 0; i < 3; ++i) {
        fC[i] = mj * t->gravity[i] + (f ? f[i] : 0.0);
        mC[i] = f ? f[3 + i] : 0.0;
    }
    /* rows m */
    S[0 * 6 + 1] += -mj * r[2];
    S[0 * 6 + 2] += mj * r[1];
    S[1 * 6 + 0] += mj * r[2];
    S[1 * 6 + 2] += -mj * r[0];
    S[2 * 6 + 0] += -mj * r[1];
    S[2 * 6 + 1] += mj * r[0];
    for (i = 0; i < 3; ++i)
        for (k = 0; k < 3; ++k) S[6 * i + 3 + k] += J[3 * i + k];
    /* rows q */
    for (i = 0; i < 3; ++i) S[6 * (3 + i) + i] += -mj;
    S[3 * 6 + 4] += -mj * r[2];
    S[3 * 6 + 5] += mj * r[1];
    S[4 * 6 + 3] += mj * r[2];
    S[4 * 6 + 5] += -mj * r[0];
    S[5 * 6 + 3] += -mj * r[1];
    S[5 * 6 + 4] += mj * r[0];
    hs_m3_mulv(Jw, J, om);
    hs_v3_cross(x, om, Jw);
    hs_v3_cross(y, r, fC);
    for (i = 0; i < 3; ++i) e[i] += -mC[i] - y[i] + x[i];
    hs_v3_cross(x, om, r);
    hs_v3_cross(y, om, x);
    for (i = 0; i < 3; ++i) e[3 + i] += fC[i] - mj * y[i];
}

/* The external loads on body j at time t->time (hs_dynamics.h's hs_body_applied, for a tree),
 * with the kinematics of wj: their force and their moment about the centre of mass, global,
 * into f (6); and, if power is not NULL, their power added to it (the force at its point's
 * velocity, the torque at the body's angular velocity). 0 when no load acts on j. A load's
 * force and torque are its directions (global, or body frame: turned by A) times its signals
 * (1 without one), its point `at` in the body frame. */
HS_HD static inline int hs_tree_loads(const hs_tree *t, int j, const hs_real *wj, hs_real f[6], hs_real *power)
{
    const hs_model *m = t->ext;
    int l, i, any = 0;
    for (i = 0; i < 6; ++i) f[i] = 0.0;
    if (!m) return 0;
    for (l = 0; l < m->nload; ++l) {
        hs_real F[3], tq[3], r[3], d[3], x[3], vp[3], c[3];
        double sf, st;
        if (m->load_body[l] != j) continue;
        any = 1;
        sf = m->load_force_sig[l] >= 0 ? hs_signal_eval(m, m->load_force_sig[l], t->time) : 1.0;
        st = m->load_torque_sig[l] >= 0 ? hs_signal_eval(m, m->load_torque_sig[l], t->time) : 1.0;
        if (m->load_frame[l] == HS_FRAME_BODY) {
            hs_m3_mulv(F, wj + HS_TW_A, m->load_force_dir[l]);
            hs_m3_mulv(tq, wj + HS_TW_A, m->load_torque_dir[l]);
        } else {
            hs_v3_copy(F, m->load_force_dir[l]);
            hs_v3_copy(tq, m->load_torque_dir[l]);
        }
        for (i = 0; i < 3; ++i) {
            F[i] *= sf;
            tq[i] *= st;
            d[i] = m->load_at[l][i] - t->at_child[3L * j + i];
        }
        hs_m3_mulv(r, wj + HS_TW_A, d); /* the point from the joint point o */
        hs_tree_com(t, j, wj, c);
        hs_v3_sub(d, r, c);
        hs_v3_axpy(d, d, 1.0, wj + HS_TW_O); /* the point from the centre of mass */
        hs_v3_cross(x, d, F);
        for (i = 0; i < 3; ++i) {
            f[i] += F[i];
            f[3 + i] += tq[i] + x[i];
        }
        if (power) {
            hs_v3_cross(x, wj + HS_TW_W, r);
            hs_v3_axpy(vp, wj + HS_TW_V, 1.0, x);
            *power += hs_v3_dot(F, vp) + hs_v3_dot(tq, wj + HS_TW_W);
        }
    }
    return any;
}

/* The power of every external load at the state whose kinematics w holds (time t->time). */
HS_HD static inline hs_real hs_tree_load_power(const hs_tree *t, const hs_real *w)
{
    hs_real P = 0.0, f[6];
    int l, j;
    if (!t->ext) return 0.0;
    for (l = 0; l < t->ext->nload; ++l) { /* each loaded body once, however many loads */
        int seen = 0, k;
        j = t->ext->load_body[l];
        for (k = 0; k < l; ++k) seen |= t->ext->load_body[k] == j;
        if (!seen) hs_tree_loads(t, j, w + (long)j * HS_TREE_NW, f, &P);
    }
    return P;
}

/* Joint j's H (accelerations, rows [r''; Omega']) and Hm (the hinge condition, rows [m; q]),
 * 6 x k row-major, k = hs_joint_nv. */
HS_HD static inline int hs_riccati_hinge_maps(const hs_tree *t, int j, const hs_real *w, hs_real H[18], hs_real Hm[18])
{
    int ty = t->jtype[j], par = t->parent[j], k = hs_joint_nv(ty), i, c;
    hs_real Ap[9], ug[3];
    const hs_real *A = w + (long)j * HS_TREE_NW + HS_TW_A;
    for (i = 0; i < 18; ++i) H[i] = Hm[i] = 0.0;
    if (par >= 0)
        for (i = 0; i < 9; ++i) Ap[i] = w[(long)par * HS_TREE_NW + HS_TW_A + i];
    else
        hs_m3_identity(Ap);
    if (ty == HS_JOINT_BALL) {
        /* nu in the child's frame: the columns of A_j; no moment at all at the joint */
        for (i = 0; i < 3; ++i)
            for (c = 0; c < 3; ++c) H[(3 + i) * 3 + c] = Hm[i * 3 + c] = A[3 * i + c];
        return 3;
    }
    hs_m3_mulv(ug, Ap, t->axis + 3L * j);
    for (i = 0; i < 3; ++i) {
        if (ty == HS_JOINT_REVOLUTE) H[(3 + i) * 3] = Hm[i * 3] = ug[i];
        else H[i * 3] = Hm[(3 + i) * 3] = ug[i];
    }
    return k;
}

/* Inverse of a 3x3 M (row-major) into Mi; 0, or -1 when |det| is at most 1e-12 of scale^3
 * (the ball joint's articulated rotational inertia is singular). */
HS_HD static inline int hs_riccati_inv3(const hs_real M[9], hs_real scale, hs_real Mi[9])
{
    hs_real c0 = M[4] * M[8] - M[5] * M[7], c1 = M[5] * M[6] - M[3] * M[8], c2 = M[3] * M[7] - M[4] * M[6];
    hs_real det = M[0] * c0 + M[1] * c1 + M[2] * c2, id;
    if (!(fabs(det) > 1e-12 * scale * scale * scale)) return -1;
    id = 1.0 / det;
    Mi[0] = c0 * id;
    Mi[1] = (M[2] * M[7] - M[1] * M[8]) * id;
    Mi[2] = (M[1] * M[5] - M[2] * M[4]) * id;
    Mi[3] = c1 * id;
    Mi[4] = (M[0] * M[8] - M[2] * M[6]) * id;
    Mi[5] = (M[2] * M[3] - M[0] * M[5]) * id;
    Mi[6] = c2 * id;
    Mi[7] = (M[1] * M[6] - M[0] * M[7]) * id;
    Mi[8] = (M[0] * M[4] - M[1] * M[3]) * id;
    return 0;
}

/* The smooth hinge's Riccati transformation (see the top of this file) of joint j, with the
 * structure of its H and Hm used: (S, b = S zeta + e) on the body side -> (So, eo) on the
 * parent's side, and the gain K with theta'' = -K (S (a_parent + zeta) + e)_rows into K: k x 3,
 * on the rows 3 - hs_tree_zeta_at(ty) of [m; q] (the moment rows for revolute and ball joints,
 * the force rows for prismatic ones; the other rows' entries are 0).
 *   revolute:  Hm^T S = u^T S_m (a row), S H = S_:,Omega u, D = u . (S H)_m;
 *   prismatic: the same with the force rows and the translational columns;
 *   ball:      H = [0; A], Hm = [A; 0]: S H D^-1 Hm^T S = S_:,Omega S_mOmega^-1 S_m,: (A cancels),
 *              K = A^T S_mOmega^-1 on the moment rows (nu'' in the child's frame).
 * 0, or -1 when D is singular (at most 1e-12 of the block's trace). */
HS_HD static inline int hs_riccati_hinge(const hs_tree *t, int j, const hs_real *wj, const hs_real *b, hs_real So[36],
                                         hs_real eo[6], hs_real K[9])
{
    const hs_real *S = wj + HS_TW_S;
    int ty = t->jtype[j], i, c;
    if (ty == HS_JOINT_BALL) {
        const hs_real *A = wj + HS_TW_A;
        hs_real M[9], Mi[9], X[18], scale = fabs(S[3]) + fabs(S[6 + 4]) + fabs(S[12 + 5]);
        for (i = 0; i < 3; ++i)
            for (c = 0; c < 3; ++c) M[3 * i + c] = S[6 * i + 3 + c];
        if (hs_riccati_inv3(M, scale / 3.0, Mi)) return -1;
        /* X = S_:,Omega Mi (6 x 3) */
        for (i = 0; i < 6; ++i)
            for (c = 0; c < 3; ++c)
                X[3 * i + c] = S[6 * i + 3] * Mi[c] + S[6 * i + 4] * Mi[3 + c] + S[6 * i + 5] * Mi[6 + c];
        for (i = 0; i < 6; ++i) {
            for (c = 0; c < 6; ++c) So[6 * i + c] = S[6 * i + c] - (X[3 * i] * S[c] + X[3 * i + 1] * S[6 + c] + X[3 * i + 2] * S[12 + c]);
            eo[i] = b[i] - (X[3 * i] * b[0] + X[3 * i + 1] * b[1] + X[3 * i + 2] * b[2]);
        }
        /* K = A^T Mi (the moment rows) */
        for (i = 0; i < 3; ++i)
            for (c = 0; c < 3; ++c) K[3 * i + c] = A[i] * Mi[c] + A[3 + i] * Mi[3 + c] + A[6 + i] * Mi[6 + c];
        return 0;
    } else {
        /* one freedom along u (global): revolute (bf = 0: moments, angular accelerations) or
         * prismatic (bf = 3: forces, translational accelerations) */
        int bf = ty == HS_JOINT_PRISMATIC ? 3 : 0, ba = 3 - bf, par = t->parent[j];
        hs_real u[3], r[6], sh[6], D, ub, scale;
        if (par >= 0) {
            /* the axis turns with the parent: the parent's A is in its own work (w - ...) */
            const hs_real *Ap = wj - (long)(j - par) * HS_TREE_NW + HS_TW_A;
            hs_m3_mulv(u, Ap, t->axis + 3L * j);
        } else {
            for (i = 0; i < 3; ++i) u[i] = t->axis[3L * j + i];
        }
        for (c = 0; c < 6; ++c) {
            r[c] = u[0] * S[6 * bf + c] + u[1] * S[6 * (bf + 1) + c] + u[2] * S[6 * (bf + 2) + c];
            sh[c] = S[6 * c + ba] * u[0] + S[6 * c + ba + 1] * u[1] + S[6 * c + ba + 2] * u[2];
        }
        D = u[0] * sh[bf] + u[1] * sh[bf + 1] + u[2] * sh[bf + 2];
        scale = fabs(S[6 * bf + ba]) + fabs(S[6 * (bf + 1) + ba + 1]) + fabs(S[6 * (bf + 2) + ba + 2]);
        if (!(fabs(D) > 1e-12 * scale)) return -1;
        ub = (u[0] * b[bf] + u[1] * b[bf + 1] + u[2] * b[bf + 2]) / D;
        for (i = 0; i < 6; ++i) {
            hs_real f = sh[i] / D;
            for (c = 0; c < 6; ++c) So[6 * i + c] = S[6 * i + c] - f * r[c];
            eo[i] = b[i] - sh[i] * ub;
        }
        for (i = 0; i < 3; ++i) K[i] = u[i] / D;
        return 0;
    }
}

/* Forward sweep, tips to root (Algorithms A and B, steps A2-A3 and B2-B3): S and e of every
 * joint, body side, and the hinges' gains into w. f: applied loads per body (nbody x 6: force
 * at the centre of mass, moment; global) or NULL. 0, or j + 1 for the first joint (from the
 * tips) whose articulated inertia is singular (a massless subtree, or a ball joint on a body
 * with no inertia about an axis through it). */
HS_HD static inline int hs_riccati_forward(const hs_tree *t, hs_real *w, const hs_real *f)
{
    int j, i, c;
    /* S and e start at a free tip's 0 (eq. 34): hs_tree_kinematics zeroed them */
    for (j = t->nbody - 1; j >= 0; --j) {
        hs_real *wj = w + (long)j * HS_TREE_NW;
        hs_real So[36], eo[6], b[6];
        const hs_real *S = wj + HS_TW_S, *ze = wj + HS_TW_ZETA;
        int par = t->parent[j], z0 = hs_tree_zeta_at(t->jtype[j]);
        hs_real fl[6];
        if (hs_tree_loads(t, j, wj, fl, (hs_real *)0)) { /* the external loads, and the caller's */
            if (f)
                for (i = 0; i < 6; ++i) fl[i] += f[6L * j + i];
            hs_riccati_body(t, j, wj, fl);
        } else {
            hs_riccati_body(t, j, wj, f ? f + 6L * j : (const hs_real *)0);
        }
        /* b = S zeta + e: zeta is rotational (revolute, ball) or translational (prismatic) */
        for (i = 0; i < 6; ++i)
            b[i] = wj[HS_TW_E + i] + S[6 * i + z0] * ze[0] + S[6 * i + z0 + 1] * ze[1] + S[6 * i + z0 + 2] * ze[2];
        if (hs_riccati_hinge(t, j, wj, b, So, eo, wj + HS_TW_K)) return j + 1;
        if (par < 0) continue; /* the ground: accelerations known (step A4) */
        {
            /* shift to the parent's joint point: r = r_IO = o_p - o_j on the parent, Omega_p:
             * S'' = T11 So P = [X, X R + B + R D2; C, C R + D2] with X = A + R C,
             * e'' = T11 eo - S'' [Omega~ Omega~ r; 0] */
            hs_real *wp = w + (long)par * HS_TREE_NW;
            hs_real rv[3], A3[9], B3[9], C3[9], D3[9], X[9], Y[9], Z[9], fb[3], x[3];
            hs_v3_sub(rv, wp + HS_TW_O, wj + HS_TW_O);
            for (i = 0; i < 3; ++i)
                for (c = 0; c < 3; ++c) {
                    A3[3 * i + c] = So[6 * i + c];
                    B3[3 * i + c] = So[6 * i + 3 + c];
                    C3[3 * i + c] = So[6 * (3 + i) + c];
                    D3[3 * i + c] = So[6 * (3 + i) + 3 + c];
                }
            hs_skew_mul(X, rv, C3);
            for (i = 0; i < 9; ++i) X[i] += A3[i];
            hs_mul_skew(Y, X, rv);
            hs_skew_mul(Z, rv, D3);
            for (i = 0; i < 9; ++i) Y[i] += B3[i] + Z[i];
            hs_mul_skew(Z, C3, rv);
            for (i = 0; i < 9; ++i) Z[i] += D3[i];
            hs_s6_add(wp + HS_TW_S, 0, 0, X);
            hs_s6_add(wp + HS_TW_S, 0, 1, Y);
            hs_s6_add(wp + HS_TW_S, 1, 0, C3);
            hs_s6_add(wp + HS_TW_S, 1, 1, Z);
            /* e'' = [eo_m + r x eo_q; eo_q] - [X fb; C fb] */
            hs_v3_cross(x, wp + HS_TW_W, rv);
            hs_v3_cross(fb, wp + HS_TW_W, x);
            hs_v3_cross(x, rv, eo + 3);
            for (i = 0; i < 3; ++i) {
                hs_real sx = X[3 * i] * fb[0] + X[3 * i + 1] * fb[1] + X[3 * i + 2] * fb[2];
                hs_real sc = C3[3 * i] * fb[0] + C3[3 * i + 1] * fb[1] + C3[3 * i + 2] * fb[2];
                wp[HS_TW_E + i] += eo[i] + x[i] - sx;
                wp[HS_TW_E + 3 + i] += eo[3 + i] - sc;
            }
        }
    }
    return 0;
}

/* Backward recursion, root to tips (step A5 / B4, eq. 33): joint accelerations vd (nv), the
 * bodies' accelerations at their joint points into w, and the internal moment and force at
 * every joint, body side, with the seed's signs, into F (nbody x 6: [m; q]) unless NULL.
 * After hs_riccati_forward on the same w (its S, e and gains K). */
HS_HD static inline void hs_riccati_backward(const hs_tree *t, hs_real *w, hs_real *vd, hs_real *F)
{
    int j, i, c;
    for (j = 0; j < t->nbody; ++j) {
        hs_real *wj = w + (long)j * HS_TREE_NW;
        hs_real *a = wj + HS_TW_ACC;
        const hs_real *S = wj + HS_TW_S, *e = wj + HS_TW_E, *ze = wj + HS_TW_ZETA, *K = wj + HS_TW_K;
        hs_real ap[6], b[3], th[3];
        int par = t->parent[j], ty = t->jtype[j], k = hs_joint_nv(ty), kv = hs_tree_iv(t, j), z0 = hs_tree_zeta_at(ty),
            kr = 3 - z0;
        if (par >= 0) {
            /* the parent's acceleration at o_j (eq. 14) */
            const hs_real *wp = w + (long)par * HS_TREE_NW, *pa = wp + HS_TW_ACC;
            hs_real d[3], x[3], y[3];
            hs_v3_sub(d, wj + HS_TW_O, wp + HS_TW_O);
            hs_v3_cross(x, pa + 3, d);
            hs_v3_cross(y, wp + HS_TW_W, d);
            hs_v3_cross(d, wp + HS_TW_W, y);
            for (i = 0; i < 3; ++i) {
                ap[i] = pa[i] + x[i] + d[i];
                ap[3 + i] = pa[3 + i];
            }
        } else {
            for (i = 0; i < 6; ++i) ap[i] = 0.0;
        }
        for (i = 0; i < 6; ++i) a[i] = ap[i];
        for (i = 0; i < 3; ++i) a[z0 + i] += ze[i];
        for (i = 0; i < 3; ++i) { /* the rows K acts on */
            hs_real s = e[kr + i];
            for (c = 0; c < 6; ++c) s += S[6 * (kr + i) + c] * a[c];
            b[i] = s;
        }
        for (i = 0; i < k; ++i) {
            th[i] = -(K[3 * i] * b[0] + K[3 * i + 1] * b[1] + K[3 * i + 2] * b[2]);
            vd[kv + i] = th[i];
        }
        /* a += H theta'' */
        if (ty == HS_JOINT_BALL) {
            const hs_real *A = wj + HS_TW_A;
            for (i = 0; i < 3; ++i) a[3 + i] += A[3 * i] * th[0] + A[3 * i + 1] * th[1] + A[3 * i + 2] * th[2];
        } else {
            hs_real u[3];
            int o = ty == HS_JOINT_PRISMATIC ? 0 : 3;
            if (par >= 0) hs_m3_mulv(u, w + (long)par * HS_TREE_NW + HS_TW_A, t->axis + 3L * j);
            else hs_v3_set(u, t->axis[3L * j], t->axis[3L * j + 1], t->axis[3L * j + 2]);
            for (i = 0; i < 3; ++i) a[o + i] += u[i] * th[0];
        }
        if (F)
            for (i = 0; i < 6; ++i) {
                hs_real s = e[i];
                for (c = 0; c < 6; ++c) s += S[6 * i + c] * a[c];
                F[6L * j + i] = s;
            }
    }
}

/* Joint accelerations vd (nv) at positions q (nq) and velocities v (nv): kinematics, the
 * forward and the backward sweep. w: (nbody x HS_TREE_NW) work; f, F as above. */
HS_HD static inline int hs_riccati_accel(const hs_tree *t, const hs_real *q, const hs_real *v, const hs_real *f,
                                         hs_real *w, hs_real *vd, hs_real *F)
{
    int rc;
    hs_tree_kinematics(t, q, v, w);
    if ((rc = hs_riccati_forward(t, w, f))) return rc;
    hs_riccati_backward(t, w, vd, F);
    return 0;
}

#endif
