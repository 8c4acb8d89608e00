/* hs_newton.h -- the Newton-Raphson iteration of one implicit step on the scaled residual
 * (seed 000 eqs. 39-41; seed 004 Pub. I eqs. 40-42): residual, tangent and projection weight
 * (eq. 43), update with a per-class convergence test, the multiplier update (seed 000 eq. 19),
 * full and modified Newton (a factorised tangent reused while it contracts), the
 * contraction-rate stop of adaptive steps, and the diagnosis of a failure (a loop-closure
 * Jacobian that lost rank). Both formulations run it: the penalty one (hs_residual.h) and
 * the double-step one (hs_double_step.h), which the iteration's stages dispatch to. */
#ifndef HS_NEWTON_H
#define HS_NEWTON_H

#include "hs_double_step.h"

/* With adaptive steps and a reused tangent, the error a converged Newton iteration may leave, as
 * a fraction of the Newton tolerances (hs_newton_solve). */
#define HS_NEWTON_KAPPA 0.1

/* Does Newton reuse its factorised tangent (integrator.newton: modified; auto: with ESDIRK
 * steps)? An ESDIRK step's stages share one tangent anyway; reused across steps too it takes
 * about half the time at matched accuracy (bench/results/2026-11-27-precision-cpu-22d4ab9.md) and the
 * error control bounds what the slower contraction leaves. Fixed steps keep the seeds' full
 * Newton, and so do adaptive trapezoidal steps: their many steps make the iteration's error
 * floor (HS_NEWTON_KAPPA) show at tolerances below 1e-5. */
HS_HD static inline int hs_newton_reuse(const hs_mview *m)
{
    int n = HS_N(m, newton);
    return n == HS_NEWTON_MODIFIED ||
           (n == HS_NEWTON_AUTO && HS_N(m, step) == HS_STEP_ADAPTIVE && hs_method(m) != HS_METHOD_TRAPEZOIDAL);
}

/* Is the loop-closure Jacobian at the positions in w->kin (nearly) rank deficient? The Gram
 * matrix J J^T (ncon x ncon) is factorised; a smallest-to-largest pivot ratio below 1e-4
 * (singular values ~1 % apart) marks the neighbourhood of a singular position, where the
 * cut-joint equations stop fixing the dependent coordinates and Newton stalls. Used only to
 * explain a failure. (Pub. I four-bar: 8e-2 at its start, -30 deg; 7.6e-5 at 1 deg from
 * folding flat, where its Newton iteration fails.) */
HS_HD static inline int hs_loop_singular(const hs_mview *m, hs_work *w)
{
    int nc = HS_N(m, ncon), a, b, i;
    double pmin = 1e300, pmax = 0.0;
    if (nc == 0) return 0;
    hs_constraints_jac(m, &w->kin, w->J, HS_CAP_Z);
    for (a = 0; a < nc; ++a)
        for (b = 0; b < nc; ++b) {
            double g = 0.0;
            for (i = 0; i < HS_N(m, nz); ++i) g += w->J[a * HS_CAP_Z + i] * w->J[b * HS_CAP_Z + i];
            w->lu.G[a * HS_CAP_G + b] = g;
        }
    if (hs_lu_factor(w->lu.G, nc, HS_CAP_G, w->piv)) return 1;
    for (a = 0; a < nc; ++a) {
        double d = 1.0 / fabs(w->lu.G[a * HS_CAP_G + a]); /* hs_lu_factor keeps 1/u_aa */
        if (d < pmin) pmin = d;
        if (d > pmax) pmax = d;
    }
    return pmin < 1e-4 * pmax;
}

/* Residual f0 at the iterate (it must be finite) and the right-hand side -f0 in w->dx. */
HS_HD static inline int hs_newton_residual(const hs_mview *m, hs_state *s, hs_work *w)
{
    int nx = HS_N(m, nx), i;
    if (hs_double_step(m)) {
        if (hs_ds_residual(m, s, w->t1, w->x, w, w->f0)) { /* the loop closure failed */
            s->status |= HS_ST_MAXITER | HS_ST_SINGULAR_CONFIG;
            return s->status;
        }
    } else {
        hs_residual(m, s, w->t1, w->x, w->lam, w, w->f0);
    }
    HS_UNROLL
    for (i = 0; i < nx; ++i) {
        if (!hs_isfinite(w->f0[i])) {
            s->status |= HS_ST_NONFINITE;
            return s->status;
        }
        w->dx[i] = -w->f0[i];
    }
    return 0;
}

/* Tangent at the iterate into w->lu.T (after hs_newton_residual, whose kinematics it starts
 * from), and the projection weight P of eq. (43): its z block less the penalty part
 * dt^2/4 alpha J^T J, with J at the same point. The double-step formulation has no
 * projections: its tangent only (hs_ds_tangent). */
HS_HD static inline int hs_newton_tangent(const hs_mview *m, hs_state *s, hs_work *w)
{
    int n = HS_N(m, nz), nx = HS_N(m, nx), i, j, e, ds = hs_double_step(m);
    double t1 = w->t1, sa = 0.25 * w->h * w->h * w->alpha;
    if (ds) {
        if (hs_ds_tangent(m, s, t1, w->x, w->f0, w)) {
            s->status |= HS_ST_MAXITER | HS_ST_SINGULAR_CONFIG;
            return s->status;
        }
    } else {
        HS_UNROLL
        for (i = 0; i < n; ++i)
            HS_UNROLL
            for (j = 0; j < n; ++j) {
                double q = 0.0;
                HS_UNROLL
                for (e = 0; e < HS_N(m, ncon); ++e) q += w->J[e * HS_CAP_Z + i] * w->J[e * HS_CAP_Z + j];
                w->P[i * HS_CAP_Z + j] = -(sa * q);
            }
        hs_tangent(m, s, t1, w->x, w->lam, w->f0, w);
    }
    w->tan_h = w->h;
    /* a non-finite tangent is flagged here, not left to the factorisation: LU pivoting
     * treats NaN differently in kernels/hs_linalg.h, LAPACK and cuBLAS */
    HS_UNROLL
    for (i = 0; i < nx; ++i)
        HS_UNROLL
        for (j = 0; j < nx; ++j)
            if (!hs_isfinite(w->lu.T[i * HS_CAP_X + j])) {
                s->status |= HS_ST_NONFINITE;
                return s->status;
            }
    if (ds) return 0; /* no projections */
    HS_UNROLL
    for (i = 0; i < n; ++i)
        HS_UNROLL
        for (j = 0; j < n; ++j) w->P[i * HS_CAP_Z + j] += w->lu.T[i * HS_CAP_X + j];
    return 0;
}

/* First half of a full Newton iteration (the cuBLAS path's): residual, tangent into w->lu.T,
 * the right-hand side -f0 into w->dx. */
HS_HD static inline int hs_newton_assemble(const hs_mview *m, hs_state *s, hs_work *w)
{
    if (hs_newton_residual(m, s, w)) return s->status;
    return hs_newton_tangent(m, s, w);
}

/* The Newton tolerances of the classes (positions, pressures, friction states): the model's
 * (tol_position, tol_pressure, tol_friction: the seeds'), and with adaptive steps at most the
 * class's absolute error tolerance as well, so that an error tolerance below the seeds' Newton
 * tolerance is met rather than stopped by the iteration's own error: the Pub. I cycle's
 * tol_pressure of 100 Pa held its crank angle error near 5e-6 rad whatever rtol. The defaults
 * (atol: 1e-4 rad, 100 Pa, 1e-7) leave the shipped models' tolerances as they are. */
HS_HD static inline double hs_newton_tol(const hs_mview *m, int cls)
{
    double t = cls == 0 ? HS_D(m, tol_z) : cls == 1 ? HS_D(m, tol_p) : HS_D(m, tol_fs);
    if (HS_N(m, step) == HS_STEP_ADAPTIVE) {
        double a = cls == 0 ? HS_D(m, atol_z) : cls == 1 ? HS_D(m, atol_p) : HS_D(m, atol_fs);
        if (a < t) t = a;
    }
    return t;
}

#if HS_AIR_ON
/* With entrained air the pressures stay above p_vapour (kernels/hs_fluid.h): an update dx of
 * a pressure x that would take it below p_vapour + (x - p_vapour) / 2 takes it there instead,
 * so that every iterate stays in the mixture's domain (its gas law is singular at p_vapour;
 * the true solution never reaches it). Returns the update to apply. */
HS_HD static inline double hs_floor_update(const hs_mview *m, double x, double dx)
{
    double xv = x - HS_D(m, p_vapour);
    return xv > 0.0 && x + dx < HS_D(m, p_vapour) + 0.5 * xv ? -0.5 * xv : dx;
}
#endif

/* Second half, after the solve left dx in w->dx: update, per-class convergence test,
 * multiplier update with the new positions (eq. 19). *dn gets max_i |dx_i| / tol_i, the
 * update measured in its tolerances (modified Newton watches how fast it falls). The
 * double-step formulation updates the independent unknowns only (a dependent coordinate's
 * update is 0 by the tangent's unit rows; set so whatever the solver's rounding). */
HS_HD HS_NOINLINE static inline int hs_newton_apply(const hs_mview *m, hs_state *s, hs_work *w, int it, int *conv,
                                        double *dn)
{
    int n = HS_N(m, nz), nx = HS_N(m, nx), i, e;
    double tz = hs_newton_tol(m, 0), tp = hs_newton_tol(m, 1), tf = hs_newton_tol(m, 2);
    double d = 0.0, itz = 1.0 / tz, itp = 1.0 / tp, itf = 1.0 / tf;
    *conv = 1;
    if (hs_double_step(m))
        for (i = 0; i < n; ++i)
            if ((s->ds_dep >> i) & 1u) w->dx[i] = 0.0;
#if HS_AIR_ON
    if (hs_air_on(m))
        for (i = n; i < n + HS_N(m, nvol); ++i) w->dx[i] = hs_floor_update(m, w->x[i], w->dx[i]);
#endif
    HS_UNROLL
    for (i = 0; i < nx; ++i) {
        double tol = i < n ? tz : (i < n + HS_N(m, nvol) ? tp : tf);
        double a = fabs(w->dx[i]) * (i < n ? itz : (i < n + HS_N(m, nvol) ? itp : itf));
        w->x[i] += w->dx[i];
        if (!(fabs(w->dx[i]) <= tol)) *conv = 0;
        if (!hs_isfinite(w->dx[i])) {
            s->status |= HS_ST_NONFINITE;
            return s->status;
        }
        if (a > d) d = a;
    }
    *dn = d;
    if (hs_double_step(m)) { /* no multipliers: the next residual closes the loop at x */
        w->kin_x = 0;
        s->iters = it;
        return 0;
    }
    hs_kin_positions_tc(m, w->x, &w->kin, ~0u, HS_WORK_TRIG(w));
    w->kin_x = 1;
    hs_constraints_phi(m, &w->kin, w->phi);
    if (HS_N(m, nnh) > 0) { /* B at the last residual's positions: equal at convergence. w->zd
                               is rewritten by the next residual and by hs_step_finish */
        double c1 = 2.0 / w->h;
        HS_UNROLL
        for (i = 0; i < n; ++i) w->zd[i] = c1 * w->x[i] + hs_hat_d(s, c1, i);
        hs_phi_nh(m, w->J, w->zd, w->h, w->phi);
    }
    HS_UNROLL
    for (e = 0; e < HS_N(m, ncon); ++e) w->lam[e] += w->alpha * w->phi[e];
    s->iters = it;
    return 0;
}

/* Newton did not converge within max_iter: hs_step's verdict, with the singular-position
 * diagnosis at the last iterate's positions (w->kin). */
HS_HD HS_NOINLINE static inline void hs_newton_fail(const hs_mview *m, hs_state *s, hs_work *w)
{
    s->status |= HS_ST_MAXITER;
    if (hs_loop_singular(m, w)) s->status |= HS_ST_SINGULAR_CONFIG;
}

/* The Newton iteration of one step from the predictor of hs_step_begin. reuse = 0: a new
 * tangent every iteration (full Newton-Raphson, the seeds'). reuse = 1 (modified Newton):
 * the factorised tangent in w->lu.T is kept across iterations and steps while it still
 * contracts, i.e. a new one is made at the next iteration when an update is more than half
 * the previous one, or when three iterations on an old tangent have not converged. it0
 * iterations were spent before (a first attempt). Returns 1 if converged, 0 if not (max_iter),
 * -1 on a failure already flagged in s->status. */
HS_HD static inline int hs_newton_solve(const hs_mview *m, hs_state *s, hs_work *w, int reuse, int it0)
{
    int it, nx = HS_N(m, nx), maxit = (int)HS_D(m, max_iter), conv = 0, fresh = 0;
    /* with modified Newton every tangent (also the full-Newton retry's, which the next step
     * may reuse) is kept as its inverse */
    const int inv = HS_LU_INVERSE && hs_newton_reuse(m);
    double dn = 0.0, dprev = 0.0;
#if HS_AIR_ON
    if (hs_air_on(m)) /* a predictor below the floor, likewise (hs_floor_update) */
        for (it = 0; it < HS_N(m, nvol); ++it) {
            double *xp = &w->x[HS_N(m, nz) + it];
            *xp += hs_floor_update(m, s->p[it], *xp - s->p[it]) - (*xp - s->p[it]);
        }
#endif
    for (it = 1; it <= maxit; ++it) {
        s->iters = it0 + it;
        if (hs_newton_residual(m, s, w)) return -1;
        if (!reuse || !w->tan_ok || w->tan_h != w->h) { /* the tangent depends on h */
            w->tan_ok = 0;
            if (hs_newton_tangent(m, s, w)) return -1;
            if (HS_LU_FACTOR(w->lu.T, nx, HS_CAP_X, w->piv)) {
                s->status |= HS_ST_SINGULAR;
                return -1;
            }
            if (inv) hs_lu_invert(w->lu.T, nx, HS_CAP_X, w->piv, w->f1);
            w->tan_ok = 1;
            fresh = 1;
        }
        if (inv) hs_inverse_apply(w->lu.T, nx, HS_CAP_X, w->dx, w->f1);
        else HS_LU_SOLVE(w->lu.T, nx, HS_CAP_X, w->piv, w->dx);
        if (hs_newton_apply(m, s, w, it0 + it, &conv, &dn)) return -1;
        if (HS_N(m, step) == HS_STEP_ADAPTIVE) {
            /* adaptive steps: converged too when the error left after this update, estimated
             * from the contraction rate r = dn / dprev as r / (1 - r) dn, is within the
             * tolerances (IDA's test; Hairer & Wanner IV.8): the update itself need not be.
             * A reused tangent contracts linearly (r up to 1/2), so an update within the
             * tolerances may leave about as much behind: there the estimate must be within
             * HS_NEWTON_KAPPA of them (at the first iteration, with r unknown, the update),
             * or the iteration's error, not the step's, sets the global error's floor */
            const double kap = reuse ? HS_NEWTON_KAPPA : 1.0;
            if (reuse && conv && !(it > 1 ? dn < dprev && dn * dn <= kap * (dprev - dn) : dn <= kap))
                conv = 0;
            if (!conv && it > 1 && dn < dprev && dn * dn <= kap * (dprev - dn)) conv = 1;
        }
        if (conv) return 1;
        if (reuse && ((it > 1 && dn > 0.5 * dprev) || (!fresh && it >= 3))) w->tan_ok = 0;
        dprev = dn;
    }
    return 0;
}

#endif
