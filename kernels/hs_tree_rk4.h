/* hs_tree_rk4.h -- the classical fourth-order Runge-Kutta step of an open tree whose
 * accelerations come from the Riccati transfer matrix method (seed 002 Sect. 5.1: "a
 * fourth-order Runge-Kutta integration scheme with constant step-size").
 *
 * State y = [q (nq); v (nv)]. q' is v for revolute and prismatic joints, and
 * quat' = 1/2 quat (x) (0, rot0 nu) for a ball joint (the relative rotation's quaternion turns
 * with the relative angular velocity in its own frame, which rot0 maps nu's child frame to).
 * After the step each quaternion is normalised: the constraint |quat| = 1 drifts by the
 * step's error otherwise. */
#ifndef HS_TREE_RK4_H
#define HS_TREE_RK4_H

#include "hs_riccati.h"

/* yd = dy/dt at y (nq + nv): positions' rates and the Riccati accelerations. f: applied
 * loads (nbody x 6) or NULL; w: (nbody x HS_TREE_NW). 0 or the failing joint + 1. */
HS_HD static inline int hs_tree_rate(const hs_tree *t, const hs_real *y, const hs_real *f, hs_real *w, hs_real *yd)
{
    const hs_real *q = y, *v = y + t->nq;
    int j, i;
    for (j = 0; j < t->nbody; ++j) {
        int k = hs_tree_iq(t, j), kv = hs_tree_iv(t, j);
        if (t->jtype[j] == HS_JOINT_BALL) {
            /* omega = rot0 nu; quat' = 1/2 quat (x) (0, omega) */
            hs_real om[3], R0[9];
            const hs_real *qq = q + k;
            if (t->rot0) {
                for (i = 0; i < 9; ++i) R0[i] = t->rot0[9L * j + i];
                hs_m3_mulv(om, R0, v + kv);
            } else {
                hs_v3_copy(om, v + kv);
            }
            yd[k] = 0.5 * (-qq[1] * om[0] - qq[2] * om[1] - qq[3] * om[2]);
            yd[k + 1] = 0.5 * (qq[0] * om[0] + qq[2] * om[2] - qq[3] * om[1]);
            yd[k + 2] = 0.5 * (qq[0] * om[1] + qq[3] * om[0] - qq[1] * om[2]);
            yd[k + 3] = 0.5 * (qq[0] * om[2] + qq[1] * om[1] - qq[2] * om[0]);
        } else {
            yd[k] = v[kv];
        }
    }
    return hs_riccati_accel(t, q, v, f, w, yd + t->nq, (hs_real *)0);
}

/* Unit quaternions again after a step. */
HS_HD static inline void hs_tree_normalise(const hs_tree *t, hs_real *q)
{
    int j;
    for (j = 0; j < t->nbody; ++j)
        if (t->jtype[j] == HS_JOINT_BALL) {
            hs_real *qq = q + hs_tree_iq(t, j);
            hs_real n = sqrt(qq[0] * qq[0] + qq[1] * qq[1] + qq[2] * qq[2] + qq[3] * qq[3]);
            qq[0] /= n;
            qq[1] /= n;
            qq[2] /= n;
            qq[3] /= n;
        }
}

/* One RK4 step of length h on y (nq + nv), in place, from the time t->time (the stages'
 * loads at t + c h: hs_tree_loads). scratch: HS_TREE_RK4_NSCRATCH (nq + nv); w as above. Loads
 * f are held over the step. Wext, if not NULL, gets the work of the model's external loads
 * over the step added (their power integrated by the same stages: E_kin + E_pot - W_ext is
 * then conserved to the integrator's order). 0, or the failing joint + 1 (y and Wext
 * unchanged then). */
HS_HD static inline int hs_tree_rk4_step_w(const hs_tree *t, hs_real h, const hs_real *f, hs_real *y, hs_real *w,
                                           hs_real *scratch, hs_real *Wext)
{
    int n = t->nq + t->nv, i, rc, s;
    hs_real *yt = scratch, *k = yt + n, *sum = k + n;
    hs_real P = 0.0;
    hs_tree ts = *t; /* the stages' times */
    int loads = t->ext && t->ext->nload > 0;
    for (s = 0; s < 4; ++s) {
        /* stage s: its time c h, its state y + c h k_{s-1}, its weight bw / 6 */
        hs_real c = s == 0 ? 0.0 : (s == 3 ? 1.0 : 0.5), bw = (s == 0 || s == 3) ? 1.0 : 2.0;
        const hs_real *ys = y;
        if (s > 0) {
            hs_real a = c * h;
            for (i = 0; i < n; ++i) yt[i] = y[i] + a * k[i];
            ys = yt;
        }
        ts.time = t->time + c * h;
        if ((rc = hs_tree_rate(&ts, ys, f, w, k))) return rc;
        if (loads) P += bw * hs_tree_load_power(&ts, w);
        if (s == 0)
            for (i = 0; i < n; ++i) sum[i] = k[i];
        else
            for (i = 0; i < n; ++i) sum[i] += bw * k[i];
    }
    for (i = 0; i < n; ++i) y[i] += h / 6.0 * sum[i];
    if (Wext) *Wext += h / 6.0 * P;
    hs_tree_normalise(t, y);
    return 0;
}

/* hs_tree_rk4_step_w without the loads' work. */
HS_HD static inline int hs_tree_rk4_step(const hs_tree *t, hs_real h, const hs_real *f, hs_real *y, hs_real *w,
                                         hs_real *scratch)
{
    return hs_tree_rk4_step_w(t, h, f, y, w, scratch, (hs_real *)0);
}

#endif
