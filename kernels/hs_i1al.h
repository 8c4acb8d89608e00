/* hs_i1al.h -- the co-simulation's second mechanical method (cosim.mechanics: i1al): the
 * index-1 augmented Lagrangian of seed 004 Pub. III Sect. 3.1.3 with the accelerations as
 * primary variables, combined with the trapezoidal rule, one step of H with the hydraulics
 * held (hs_cosim_hold; kernels/hs_cosim.h). The unknown is a = zdd_n+1; the trapezoidal
 * relations of eq. 18 written for it give the positions and velocities,
 *   z_n+1 = z_n + h zd_n + h^2/4 (zdd_n + a),    zd_n+1 = zd_n + h/2 (zdd_n + a),
 * and the dynamics at t_n+1 (eq. 17a, with Phi_t = 0: the cut joints are scleronomic) is
 *   R(a) = M a - Q + Phi_z^T (lam* + alpha psi) = 0,
 *   psi = Phiddot + 2 xi omega Phidot + omega^2 Phi = Phi_z a + Phidot_z zd + 2 xi omega Phi_z zd
 *         + omega^2 Phi,
 * solved by Newton-Raphson on a with a tangent M + Phi_z^T alpha Phi_z + h/2 C + h^2/4 K
 * (hs_i1al_solve), the multipliers updated after every update by eq. 17b,
 * lam* += alpha psi. No projections follow (index 1): the Baumgarte-like terms, xi =
 * cosim.i1al_xi and omega = cosim.i1al_omega, hold the drift of Phi and Phidot. A
 * nonholonomic row (Phi = 0 at position level, hs_constraints.h) gets psi = gdot + 2 xi omega
 * g for its velocity constraint g = B zd.
 *
 * On a tree (no cut joint) R(a) = M a - Q is the i3al_p step's residual (hs_residual.h) divided
 * by h^2/4, a the affine image of its unknown z_n+1: both solve the same discrete equations,
 * and with the same predictor, tangent increments and position tolerance they take the same
 * Newton iterates, equal to rounding (tests/test_cosim.c). */
#ifndef HS_I1AL_H
#define HS_I1AL_H

#include "hs_trapezoid.h"

#if HS_COSIM_ON
/* The positions w->x[0..nz) and velocities w->zd at the end of the step from its accelerations
 * a = w->zdd (the trapezoidal rule for accelerations, above). */
HS_HD static inline void hs_i1al_state(const hs_mview *m, const hs_state *s, hs_work *w)
{
    double h = w->h;
    int i;
    HS_UNROLL
    for (i = 0; i < HS_N(m, nz); ++i) {
        double sa = s->zdd[i] + w->zdd[i];
        w->x[i] = s->z[i] + h * s->zd[i] + 0.25 * h * h * sa;
        w->zd[i] = s->zd[i] + 0.5 * h * sa;
    }
}

/* The dynamic part of the residual of eq. 17a at the accelerations a = w->zdd, with the
 * multipliers w->lam*, Rb = M a - Q + Phi_z^T lam* (nz), and psi (ncon), the stabilised
 * constraint acceleration that the penalty weighs: R = Rb + alpha Phi_z^T psi. The
 * hydraulics are the held ones of w->x (hs_step_prologue: the pressures and friction states
 * with zero rates) and the spools w->U1, at t_n+1 (the inputs' left limits, as every step's
 * residual). Leaves w describing that state: positions w->x, velocities w->zd, kinematics,
 * hydraulics, Phi and Phi_z. */
HS_HD HS_NOINLINE static inline void hs_i1al_residual(const hs_mview *m, const hs_state *s, hs_work *w, double *Rb,
                                                      double *psi)
{
    int n = HS_N(m, nz), i, e;
    double tau[HS_CAP_Z];
    hs_real fb[HS_CAP_BODIES][6]; /* every body's own force, all recomputed (mask ~0u) */
    hs_i1al_state(m, s, w);
    hs_evaluate_kin_hyd(m, s, w->x, w->zd, w->x + n, w->x + n + HS_N(m, nvol), w->U1, w, ~0u, ~0u, 1);
    /* M a - Q without the cylinders by the inverse dynamics, without forming M, as the i3al_p
     * residual forms it (hs_residual_sub): on a tree the two then round alike */
    hs_inverse_dynamics_side(m, &w->kin, w->t1, -1, w->zdd, ~0u, fb, tau);
    HS_UNROLL
    for (i = 0; i < n; ++i) tau[i] = -tau[i];
    hs_q_total(m, w, w->x, w->zd, tau, Rb); /* Q - M a: hs_q_total adds the cylinders' F_c ds_c/dz */
    HS_UNROLL
    for (i = 0; i < n; ++i) Rb[i] = -Rb[i];
    if (HS_N(m, ncon) > 0) {
        double xi = HS_D(m, cosim_i1al_xi), om = HS_D(m, cosim_i1al_omega), vp[HS_CAP_CON];
        hs_constraints_phi(m, &w->kin, w->phi);
        hs_constraints_jac(m, &w->kin, w->J, HS_CAP_Z);
        hs_constraints_vprod(m, &w->kin, vp); /* Phidot_z zd */
        HS_UNROLL
        for (e = 0; e < HS_N(m, ncon); ++e) {
            double q = vp[e] + om * om * w->phi[e];
            HS_UNROLL
            for (i = 0; i < n; ++i) q += w->J[e * HS_CAP_Z + i] * (w->zdd[i] + 2.0 * xi * om * w->zd[i]);
            psi[e] = q;
        }
        HS_UNROLL
        for (i = 0; i < n; ++i) {
            double r = Rb[i];
            HS_UNROLL
            for (e = 0; e < HS_N(m, ncon); ++e) r += w->J[e * HS_CAP_Z + i] * w->lam[e];
            Rb[i] = r;
        }
    }
}

/* The Newton iteration of one i1al step over the span in w (w->t0, w->t1, w->h set by the
 * caller), from the predictor a = zdd_n: the engine's Taylor predictor of the positions
 * (hs_step_prologue, which also advances the spools, puts the held pressures and friction
 * states in w->x and starts the multipliers from the last step's). Full Newton, the tangent
 * formed at every iteration in two parts:
 *   - alpha Phi_z^T dpsi/da with dpsi/da = Phi_z (1 + xi omega h + omega^2 h^2/4), analytic
 *     (the terms of psi linear in Phi; those of the derivatives of Phi_z and Phidot_z, O(h)
 *     relative, are left out: they only slow the contraction). A forward difference of
 *     alpha psi would carry alpha times the difference's truncation error in the velocity
 *     product (zd moves by 2/h times the position increment), which for alpha = 1e11 swamps
 *     M (the Pub. I four-bar's first step after its valve opens took 1/8 of the acceleration);
 *   - dRb/da = M + h/2 C + h^2/4 K (with the constraint forces' geometric stiffness) by
 *     forward differences, column j by an increment of a_j that moves z_j by eq. 41's
 *     increment (hs_fd_point): one of fd_rel |a_j| would move z_j by h^2/4 of it, at rounding
 *     level, and lose K.
 * Converged when every update moves the positions by at most the Newton position tolerance,
 * h^2/4 |da_i| <= tol_position (the i3al_p step's test on the same positions). On return w
 * describes the last iterate (its kinematics, hydraulics, Phi, Phi_z; zd and zdd its rates,
 * no projection), what hs_step_accept and hs_newton_fail read. Returns 1 if converged, 0 if
 * not (max_iter), -1 on a failure flagged in s->status (non-finite, singular tangent). */
HS_HD HS_NOINLINE static inline int hs_i1al_solve(const hs_mview *m, hs_state *s, hs_work *w)
{
    int n = HS_N(m, nz), nc = HS_N(m, ncon), maxit = (int)HS_D(m, max_iter), i, j, e, it;
    double h = w->h, c = 0.25 * h * h, tz = hs_newton_tol(m, 0), psi[HS_CAP_CON], rb[HS_CAP_Z];
    double xi = HS_D(m, cosim_i1al_xi), om = HS_D(m, cosim_i1al_omega);
    double g = w->alpha * (1.0 + xi * om * h + om * om * c); /* alpha dpsi/da = g Phi_z */
    hs_step_prologue(m, s, w, NULL);
    HS_UNROLL
    for (i = 0; i < n; ++i) w->zdd[i] = s->zdd[i];
    w->tan_ok = 0; /* w->lu.T is overwritten: no modified-Newton tangent survives */
    hs_i1al_residual(m, s, w, rb, psi);
    for (it = 1; it <= maxit; ++it) {
        int conv = 1;
        s->iters = it;
        HS_UNROLL
        for (i = 0; i < n; ++i) {
            double r = rb[i];
            HS_UNROLL
            for (e = 0; e < nc; ++e) r += w->J[e * HS_CAP_Z + i] * w->alpha * psi[e];
            if (!hs_isfinite(r)) {
                s->status |= HS_ST_NONFINITE;
                return -1;
            }
            w->f0[i] = r;
            HS_UNROLL
            for (j = 0; j < n; ++j) { /* the penalty's part, with Phi_z at the iterate */
                double q = 0.0;
                HS_UNROLL
                for (e = 0; e < nc; ++e) q += w->J[e * HS_CAP_Z + i] * w->J[e * HS_CAP_Z + j];
                w->lu.T[i * HS_CAP_X + j] = g * q;
            }
        }
        HS_NOUNROLL
        for (j = 0; j < n; ++j) { /* column j of dRb/da */
            double a0 = w->zdd[j], xj = w->x[j], d;
            w->zdd[j] = a0 + (hs_fd_point(m, xj) - xj) / c;
            d = w->zdd[j] - a0; /* the representable increment */
            hs_i1al_residual(m, s, w, w->f1, psi);
            for (i = 0; i < n; ++i) {
                double t = (w->f1[i] - rb[i]) / d;
                if (!hs_isfinite(t)) { /* flagged here: LU pivoting treats NaN differently */
                    s->status |= HS_ST_NONFINITE;
                    return -1;
                }
                w->lu.T[i * HS_CAP_X + j] += t;
            }
            w->zdd[j] = a0; /* (the next residual recomputes x and zd from the iterate) */
        }
        if (HS_LU_FACTOR(w->lu.T, n, HS_CAP_X, w->piv)) {
            s->status |= HS_ST_SINGULAR;
            return -1;
        }
        for (i = 0; i < n; ++i) w->dx[i] = -w->f0[i];
        HS_LU_SOLVE(w->lu.T, n, HS_CAP_X, w->piv, w->dx);
        for (i = 0; i < n; ++i) {
            if (!hs_isfinite(w->dx[i])) {
                s->status |= HS_ST_NONFINITE;
                return -1;
            }
            w->zdd[i] += w->dx[i];
            if (!(c * fabs(w->dx[i]) <= tz)) conv = 0;
        }
        /* the residual at the new iterate, then the multipliers (eq. 17b) with its psi: Rb is
         * linear in them, so it follows without a new pass */
        hs_i1al_residual(m, s, w, rb, psi);
        HS_UNROLL
        for (e = 0; e < nc; ++e) {
            double dl = w->alpha * psi[e];
            w->lam[e] += dl;
            HS_UNROLL
            for (i = 0; i < n; ++i) rb[i] += w->J[e * HS_CAP_Z + i] * dl;
        }
        if (conv) return 1;
    }
    return 0;
}
#endif

#endif
