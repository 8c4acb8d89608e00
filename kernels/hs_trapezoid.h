/* hs_trapezoid.h -- one step of the seeds' scheme: the implicit trapezoidal rule (seed 000
 * eqs. 33-34) over a step of dt, cut into sub-steps that land on the inputs' knots (spans),
 * the Taylor predictor, the Newton iteration (hs_newton.h), then the
 * mass-damping-stiffness-orthogonal projections of velocities and accelerations (seed 000
 * eqs. 20-21 / 27-28 with the weight of eq. 43; seed 004 Pub. I eqs. 43-45), the checks, the
 * accepted state and its works (trapezoidal), and rates consistent with a state after a load
 * jumps. hs_step is the fixed-step driver; the ESDIRK stages (hs_esdirk.h) and the adaptive
 * steps (hs_adapt.h) reuse its prologue, Newton solve and finish. */
#ifndef HS_TRAPEZOID_H
#define HS_TRAPEZOID_H

#include "hs_energy.h"
#include "hs_newton.h"

/* Does a fixed step start from the extrapolated predictor (integrator.predictor)? */
HS_HD static inline int hs_pred_extrapolated(const hs_mview *m)
{
    int p = HS_N(m, predictor);
    return p == HS_PRED_EXTRAPOLATED || (p == HS_PRED_AUTO && hs_newton_reuse(m));
}

/* Factorises L = P + dt^2/4 alpha J^T J (nz x nz, ld HS_CAP_Z) into w->L. */
HS_HD static inline int hs_projection_matrix(const hs_mview *m, hs_work *w)
{
    int n = HS_N(m, nz), i, j, e;
    double sa = 0.25 * w->h * w->h * w->alpha;
    HS_UNROLL
    for (i = 0; i < n; ++i)
        HS_UNROLL
        for (j = 0; j < n; ++j) {
            double s = w->P[i * HS_CAP_Z + j];
            HS_UNROLL
            for (e = 0; e < HS_N(m, ncon); ++e) s += sa * w->J[e * HS_CAP_Z + i] * w->J[e * HS_CAP_Z + j];
            w->L[i * HS_CAP_Z + j] = s;
        }
    return HS_LU_FACTOR(w->L, n, HS_CAP_Z, w->pivL);
}

/* Mass-damping-stiffness-orthogonal projection (eqs. 20-21 / 27-28), in place on v (nz):
 *   (P + dt^2/4 alpha J^T J) v = P v* - dt^2/4 alpha J^T (c + sigma),
 * with c = 0 for velocities and c = Phidot_z zd for accelerations. One solve leaves a residual
 * J v + c of order |P| / (dt^2/4 alpha |J|^2) times the initial one (not small for
 * alpha = 1e9 at dt = 1 ms), so the multiplier sigma is iterated, sigma += J v + c, until
 * |J v + c| is at rounding level: the fixed point is the exact P-weighted projection. The
 * factorised matrix (w->L from hs_projection_matrix) is reused by every pass. */
HS_HD static inline void hs_project(const hs_mview *m, hs_work *w, double *v, const double *c)
{
    int n = HS_N(m, nz), nc = HS_N(m, ncon), i, j, e, it;
    double sa = 0.25 * w->h * w->h * w->alpha, vmax = 0.0;
    HS_UNROLL
    for (i = 0; i < n; ++i) {
        double q = 0.0;
        HS_UNROLL
        for (j = 0; j < n; ++j) q += w->P[i * HS_CAP_Z + j] * v[j];
        w->f1[i] = q; /* P v*, kept for every pass */
        if (fabs(v[i]) > vmax) vmax = fabs(v[i]);
    }
    HS_UNROLL
    for (e = 0; e < nc; ++e) w->y[e] = c ? c[e] : 0.0; /* c + sigma */
    for (it = 0; it < 30; ++it) {
        double rmax = 0.0;
        HS_UNROLL
        for (i = 0; i < n; ++i) {
            double q = w->f1[i];
            HS_UNROLL
            for (e = 0; e < nc; ++e) q -= sa * w->J[e * HS_CAP_Z + i] * w->y[e];
            v[i] = q;
        }
        HS_LU_SOLVE(w->L, n, HS_CAP_Z, w->pivL, v);
        HS_UNROLL
        for (e = 0; e < nc; ++e) {
            double q = c ? c[e] : 0.0;
            HS_UNROLL
            for (i = 0; i < n; ++i) q += w->J[e * HS_CAP_Z + i] * v[i];
            w->y[e] += q;
            if (fabs(q) > rmax) rmax = fabs(q);
        }
        if (rmax <= 1e-14 * (1.0 + vmax)) break;
    }
}

/* The cavitation warning: a volume's absolute pressure below fluid.p_vapour. */
HS_HD static inline void hs_cavitation_check(const hs_mview *m, hs_state *s)
{
    int v;
    HS_UNROLL
    for (v = 0; v < HS_N(m, nvol); ++v)
        if (s->p[v] < HS_D(m, p_vapour)) s->warn |= HS_ST_CAVITATION;
}

/* Cylinder powers F sdot of the state in w->hyd (ncyl). */
HS_HD static inline void hs_cylinder_power(const hs_mview *m, const hs_work *w, double *P)
{
    int c;
    for (c = 0; c < HS_N(m, ncyl); ++c) P[c] = w->hyd.F[c] * w->hyd.sd[c];
}

/* Rates consistent with the state s at time t (inputs' right limits): accelerations and
 * multipliers from the acceleration-level augmented Lagrangian iteration
 *   (M + alpha J^T J) zdd = Q - J^T (lam + alpha c),  lam += alpha (J zdd + c),
 * (c = Phidot_z zd), which tolerates redundant constraints; pressure and friction-state
 * rates; cylinder and load powers. Used at t = 0 and after a load jumps on a step boundary.
 * Leaves w describing s (kinematics, Phi_z, hydraulics). Returns s->status. */
HS_HD HS_NOINLINE static inline int hs_consistent_rates(const hs_mview *m, hs_state *s, hs_work *w, double t)
{
    int n = HS_N(m, nz), nc = HS_N(m, ncon), i, j, e, it;
    double a = w->alpha, M[HS_CAP_Z * HS_CAP_Z], Q0[HS_CAP_Z], vp[HS_CAP_CON]; /* vp: Phidot_z zdot */
    hs_evaluate(m, s, t, 1, s->z, s->zd, s->p, s->fs, s->U, w, M, Q0);
    hs_q_total(m, w, s->z, s->zd, Q0, w->r);
    for (i = 0; i < HS_N(m, nvol); ++i) s->pd[i] = HS_I(m, vol_model, i) == HS_VOL_SP ? 0.0 : w->hyd.h[i];
    for (i = 0; i < HS_N(m, nfs); ++i) s->fsd[i] = w->hyd.fsd[i];
    hs_cylinder_power(m, w, s->P_cyl);
#if HS_MOT_ON
    s->P_mot = hs_motor_power(m, &w->hyd);
#endif
#if HS_AUDIT_ON
    hs_hydraulic_power(m, s->p, s->fs, s->U, &w->hyd, s->P_hyd, NULL);
#endif
    hs_constraints_jac(m, &w->kin, w->J, HS_CAP_Z);
    hs_constraints_vprod(m, &w->kin, vp);
    for (i = 0; i < n; ++i)
        for (j = 0; j < n; ++j) {
            double q = M[i * HS_CAP_Z + j];
            for (e = 0; e < nc; ++e) q += a * w->J[e * HS_CAP_Z + i] * w->J[e * HS_CAP_Z + j];
            w->L[i * HS_CAP_Z + j] = q;
        }
    if (HS_LU_FACTOR(w->L, n, HS_CAP_Z, w->pivL)) {
        s->status |= HS_ST_SINGULAR;
        return s->status;
    }
    for (it = 0; it < 100; ++it) {
        double rmax = 0.0, cmax = 0.0;
        for (i = 0; i < n; ++i) {
            double q = w->r[i];
            for (e = 0; e < nc; ++e) q -= w->J[e * HS_CAP_Z + i] * (s->lambda[e] + a * vp[e]);
            s->zdd[i] = q;
        }
        HS_LU_SOLVE(w->L, n, HS_CAP_Z, w->pivL, s->zdd);
        for (e = 0; e < nc; ++e) {
            double q = vp[e];
            for (i = 0; i < n; ++i) q += w->J[e * HS_CAP_Z + i] * s->zdd[i];
            s->lambda[e] += a * q;
            if (fabs(q) > rmax) rmax = fabs(q);
            if (fabs(vp[e]) > cmax) cmax = fabs(vp[e]);
        }
        if (rmax <= 1e-13 * (1.0 + cmax)) break;
    }
    for (i = 0; i < n; ++i)
        if (!hs_isfinite(s->z[i]) || !hs_isfinite(s->zd[i]) || !hs_isfinite(s->zdd[i])) {
            s->status |= HS_ST_NONFINITE;
            return s->status;
        }
    s->P_ext = hs_external_power(m, &w->kin, t, 1) + hs_spring_power(m, s->z, s->zd);
    return s->status;
}

/* hs_step in phases. The CUDA cuBLAS path (host/gpu/backend_gpu_cublas.cu) runs the same phases
 * with the Newton systems of all instances solved in one batched call between two kernels. */

/* The first signal knot or switch strictly inside (t0, t1) (by more than sl), else t1
 * (hs_signal.h). */
HS_HD static inline double hs_next_knot(const hs_mview *m, double t0, double t1, double sl)
{
    return hs_signal_next_switch(m, t0, t1, sl);
}

/* The next (sub-)step from s->t into w: its end t1 is the end tg of the current step of dt
 * ((step + 1) dt, or t_end for a last step that would pass it), or the first signal knot
 * before tg: a step never steps over a switch or a kink of an input, it is shortened to land
 * on it (the left limit at its end, the right limit at the next one's start: hs_signal.h),
 * which keeps the trapezoidal rule second order whatever dt. A whole step of dt keeps
 * h = dt exactly. Times within 1e-12 (relative) of tg count as tg. */
HS_HD static inline void hs_step_span(const hs_mview *m, const hs_state *s, hs_work *w)
{
    double dt = HS_D(m, dt), t0 = s->t, tg = (double)(s->step + 1) * dt, te = HS_D(m, t_end), t1, sl;
    sl = 1e-12 * (fabs(tg) > 1.0 ? fabs(tg) : 1.0);
    if (tg > te + sl) tg = te; /* the last step ends at t_end */
    t1 = hs_next_knot(m, t0, tg, sl);
    w->t0 = t0;
    w->t1 = t1;
    w->tg = tg;
    w->h = (t1 == tg && t0 == (double)s->step * dt && tg == (double)(s->step + 1) * dt) ? dt : t1 - t0;
    if (t0 == (double)s->step * dt) w->it_step = 0; /* a new step of dt begins */
}

/* The history of a step of h from the state s (its rates at the start). */
HS_HD static inline void hs_hist_take(const hs_mview *m, const hs_state *s, double h, hs_hist *hist)
{
    int i;
    hist->h = h;
    HS_UNROLL
    for (i = 0; i < HS_N(m, nz); ++i) hist->zdd[i] = s->zdd[i];
    HS_UNROLL
    for (i = 0; i < HS_N(m, nvol); ++i) hist->pd[i] = s->pd[i];
    HS_UNROLL
    for (i = 0; i < HS_N(m, nfs); ++i) hist->fsd[i] = s->fsd[i];
}

/* Does the (sub-)step whose span is in w end on a signal knot before t_end? An input may
 * switch or kink there, so no rate history reaches across it. */
HS_HD static inline int hs_span_ends_on_knot(const hs_mview *m, const hs_work *w)
{
    return w->t1 < HS_D(m, t_end) && hs_next_knot(m, w->t0, w->t1 + w->h, 0.0) == w->t1;
}

/* Prologue of a (sub-)step whose span is in w: spools first (closed-form trapezoidal step),
 * the predictors, the multipliers to iterate. The predictors are the Taylor polynomials of
 * the state: z + h zd + h^2/2 zdd, x + h xdot (the seeds'); given a rate history hist
 * (adaptive steps, and fixed ones with integrator.predictor = extrapolated) one degree
 * higher, the next derivative being the rates' divided difference over the previous step: a
 * step starts closer to its solution (fewer Newton iterations on the seed 003 cycle: 1.36
 * instead of 1.68 per step with modified Newton, 1.26 instead of 1.43 with full Newton). */
HS_HD static inline void hs_step_prologue(const hs_mview *m, const hs_state *s, hs_work *w, const hs_hist *hist)
{
    int n = HS_N(m, nz), nx = HS_N(m, nx), i, e;
    double h, t0, t1;
    w->kin_x = 0;
    h = w->h;
    t0 = w->t0;
    t1 = w->t1;
    HS_UNROLL
    for (i = 0; i < HS_N(m, ndcv); ++i)
        w->U1[i] = hs_spool_advance(m, i, s->U[i], t0, t1, h);
    HS_UNROLL
    for (i = 0; i < n; ++i) w->x[i] = s->z[i] + h * s->zd[i] + 0.5 * h * h * s->zdd[i];
    HS_UNROLL
    for (i = n; i < nx; ++i) {
        int v = i - n;
        double xv = v < HS_N(m, nvol) ? s->p[v] : s->fs[v - HS_N(m, nvol)];
        double xr = v < HS_N(m, nvol) ? s->pd[v] : s->fsd[v - HS_N(m, nvol)];
        w->x[i] = xv + h * xr;
    }
    if (hist && hist->h > 0.0) {
        double c = h * h / hist->h;
        HS_UNROLL
        for (i = 0; i < n; ++i) w->x[i] += c * h * (s->zdd[i] - hist->zdd[i]) / 6.0;
        HS_UNROLL
        for (i = n; i < nx; ++i) {
            int v = i - n;
            double xr = v < HS_N(m, nvol) ? s->pd[v] : s->fsd[v - HS_N(m, nvol)];
            double xm = v < HS_N(m, nvol) ? hist->pd[v] : hist->fsd[v - HS_N(m, nvol)];
            w->x[i] += 0.5 * c * (xr - xm);
        }
    }
    HS_UNROLL
    for (e = 0; e < HS_N(m, ncon); ++e) w->lam[e] = s->lambda[e];
}

/* Prologue of the next fixed (sub-)step of the cuBLAS path (host/gpu/backend_gpu_phases.cuh): at
 * the start of a step of dt (not of a sub-step to a knot) the ball joints' charts, as hs_step
 * changes them (hs_ball_rechart; it may fail the instance); its span (hs_step_span), then
 * hs_step_prologue. */
HS_HD static inline void hs_step_begin(const hs_mview *m, hs_state *s, hs_work *w)
{
    if (s->t == (double)s->step * HS_D(m, dt)) hs_ball_rechart(m, s, (hs_hist *)0);
    hs_step_span(m, s, w);
    hs_step_prologue(m, s, w, NULL);
}

/* Velocities and accelerations of the converged penalty iterate w->x into w->zd, w->zdd:
 * the trapezoidal rule's, then their mass-damping-stiffness-orthogonal projections (eqs.
 * 20-21 / 27-28); the kinematics' velocities follow. Returns s->status. */
HS_HD static inline int hs_projected_rates(const hs_mview *m, hs_state *s, hs_work *w)
{
    int n = HS_N(m, nz), i;
    double c1 = 2.0 / w->h, c2 = 4.0 / (w->h * w->h);
    hs_constraints_jac(m, &w->kin, w->J, HS_CAP_Z);
    HS_UNROLL
    for (i = 0; i < n; ++i) {
        w->zd[i] = c1 * w->x[i] + hs_hat_d(s, c1, i);
        w->zdd[i] = c2 * w->x[i] + hs_hat_dd(s, c1, c2, i);
    }
    if (HS_N(m, ncon) > 0) {
        double vp[HS_CAP_CON]; /* Phidot_z zdot */
        if (hs_projection_matrix(m, w)) {
            s->status |= HS_ST_SINGULAR;
            return s->status;
        }
        hs_project(m, w, w->zd, NULL);
        hs_kin_velocities(m, w->zd, &w->kin);
        hs_constraints_vprod(m, &w->kin, vp);
        hs_project(m, w, w->zdd, vp);
    } else {
        hs_kin_velocities(m, w->zd, &w->kin);
    }
    return 0;
}

/* The accepting half of hs_step_finish, once the (sub-)step's rates are final: w->x holds
 * the new positions, pressures and friction states, w->zd and w->zdd the velocities and
 * accelerations, w->kin the kinematics there (positions and velocities), w->phi and w->J
 * Phi and Phi_z there. Checks, accept, energies, the right-limit rates after a load jump; at
 * the end of a step of dt (w->t1 == w->tg) the step and its iterations are counted. The
 * co-simulation's i1al step (hs_i1al.h), which has its own rates and no projections, ends
 * here too. Returns s->status (0: accepted). */
HS_HD static inline int hs_step_accept(const hs_mview *m, hs_state *s, hs_work *w)
{
    int n = HS_N(m, nz), nx = HS_N(m, nx), i, e;
    double dt = w->h, c1 = 2.0 / dt;
    double t1 = w->t1;
    HS_UNROLL
    for (i = 0; i < n; ++i)
        if (!hs_isfinite(w->zd[i]) || !hs_isfinite(w->zdd[i])) {
            s->status |= HS_ST_NONFINITE;
            return s->status;
        }
    HS_UNROLL
    for (e = 0; e < HS_N(m, ncon); ++e)
        if (fabs(w->phi[e]) > HS_PHI_BLOWUP) {
            s->status |= HS_ST_CONSTRAINT;
            return s->status;
        }
    if (HS_N(m, ncyl) > 0 || HS_N(m, nvol) > 0) {
        hs_hydraulics(m, &w->kin, w->x + n, w->x + n + HS_N(m, nvol), w->U1, s->s0, &w->hyd);
        hs_cosim_hold(m, w);
        if (w->hyd.stroke_out) {
            s->status |= HS_ST_STROKE;
            return s->status;
        }
    }
    HS_UNROLL
    for (i = 0; i < n; ++i) {
        s->z[i] = w->x[i];
        s->zd[i] = w->zd[i];
        s->zdd[i] = w->zdd[i];
    }
    HS_UNROLL
    for (i = n; i < nx; ++i) {
        int v = i - n;
        double rate = c1 * w->x[i] + hs_hat_x(m, s, c1, i);
        if (v < HS_N(m, nvol)) {
            /* an algebraic pressure has no trapezoidal rate: its backward difference, for the
             * predictor and the dense output (the secant recursion would oscillate) */
            if (HS_I(m, vol_model, v) == HS_VOL_SP) rate = (w->x[i] - s->p[v]) / dt;
            s->p[v] = w->x[i];
            s->pd[v] = rate;
        } else {
            s->fs[v - HS_N(m, nvol)] = w->x[i];
            s->fsd[v - HS_N(m, nvol)] = rate;
        }
    }
    HS_UNROLL
    for (i = 0; i < HS_N(m, ndcv); ++i) s->U[i] = w->U1[i];
    HS_UNROLL
    for (e = 0; e < HS_N(m, ncon); ++e) s->lambda[e] = w->lam[e];
    {
        double P1 = hs_external_power(m, &w->kin, t1, -1) + hs_spring_power(m, s->z, s->zd), Pc[HS_CAP_CYLS];
        int c;
        s->W_ext += 0.5 * dt * (s->P_ext + P1);
        s->P_ext = P1;
        hs_cylinder_power(m, w, Pc);
        HS_UNROLL
        for (c = 0; c < HS_N(m, ncyl); ++c) {
            s->W_cyl[c] += 0.5 * dt * (s->P_cyl[c] + Pc[c]);
            s->P_cyl[c] = Pc[c];
        }
#if HS_MOT_ON
        {
            double Pm = hs_motor_power(m, &w->hyd);
            s->W_mot += 0.5 * dt * (s->P_mot + Pm);
            s->P_mot = Pm;
        }
#endif
#if HS_AUDIT_ON
        {
            double Ph[HS_NPW];
            hs_hydraulic_power(m, s->p, s->fs, s->U, &w->hyd, Ph, NULL);
            HS_UNROLL
            for (c = 0; c < HS_NPW; ++c) {
                s->W_hyd[c] += 0.5 * dt * (s->P_hyd[c] + Ph[c]);
                s->P_hyd[c] = Ph[c];
            }
        }
#endif
    }
    s->t = t1;
    hs_cavitation_check(m, s);
    if (hs_double_step(m) && hs_ds_partition(m, s, w, 0)) w->tan_ok = 0;
    w->it_step += s->iters;
    if (t1 == w->tg) { /* a step of dt done: its iterations are those of all its sub-steps */
        s->step += 1;
        s->iters = w->it_step;
        s->iters_total += s->iters;
        if (s->iters > s->iters_max) s->iters_max = s->iters;
    }
    if (hs_loads_jump(m, t1)) return hs_consistent_rates(m, s, w, t1);
    return 0;
}

/* Epilogue of a converged (sub-)step: projections (eqs. 20-21 / 27-28), then hs_step_accept
 * (checks, accept, energies, the right-limit rates after a load jump). At the end of a step
 * of dt (w->t1 == w->tg) the step and its iterations are counted; hs_step_done tells. Leaves w
 * describing the new state (kinematics, Phi, Phi_z, hydraulics: what hs_observe_current
 * reads). Returns s->status (0: accepted). */
HS_HD HS_NOINLINE static inline int hs_step_finish(const hs_mview *m, hs_state *s, hs_work *w)
{
    if (hs_double_step(m)) {
        /* the last update moved the independent coordinates: the loop closed at them, the
         * dependent rates from eqs. 13 and 15 (Phi = 0, Phi_z zd = 0 and its derivative hold
         * to rounding: no projection) */
        if (hs_ds_close(m, s, w->x, w)) {
            s->status |= HS_ST_MAXITER | HS_ST_SINGULAR_CONFIG;
            return s->status;
        }
        hs_ds_rates(m, s, w->x, w);
    } else if (hs_projected_rates(m, s, w)) {
        return s->status;
    }
    return hs_step_accept(m, s, w);
}

/* 1 when the last hs_step_finish completed a step of dt (not only a sub-step to a knot). */
HS_HD static inline int hs_step_done(const hs_work *w)
{
    return w->t1 == w->tg;
}

/* The Newton iteration of the (sub-)step whose span is in w, from its predictor
 * (hs_step_prologue; hist as there). With integrator.newton = modified a failed attempt
 * (iteration limit, non-finite or singular) is taken again from the predictor with full
 * Newton, so modified Newton never fails a step that full Newton would pass; s->iters counts
 * the iterations of both attempts. Returns as hs_newton_solve. */
HS_HD static inline int hs_step_solve(const hs_mview *m, hs_state *s, hs_work *w, const hs_hist *hist)
{
    int r, reuse = hs_newton_reuse(m);
    hs_step_prologue(m, s, w, hist);
    r = hs_newton_solve(m, s, w, reuse, 0);
    if (r != 1 && reuse) {
        int spent = s->iters;
        s->status = 0;
        w->tan_ok = 0;
        hs_step_prologue(m, s, w, hist);
        r = hs_newton_solve(m, s, w, 0, spent);
    }
    return r;
}

/* Advances the state by one step of m->dt (to t_end for a last, shorter one), in sub-steps
 * that land on the signals' knots inside it (hs_step_span). Returns s->status (0: accepted).
 * With integrator.newton = modified a (sub-)step whose modified Newton iteration fails
 * (iteration limit, non-finite or singular) is taken again from its predictor with full
 * Newton, so modified Newton never fails a step that full Newton would pass; s->iters counts
 * the iterations of every attempt and sub-step (hs_step, hs_cosim.h, calls it for monolithic
 * coupling). With integrator.predictor = extrapolated (by
 * default with modified Newton) a step is predicted one Taylor degree higher from the rates of
 * the previous (sub-)step (w->hist); by default full Newton keeps the seeds' predictor, whose
 * iteration counts the papers quote. */
HS_HD static inline int hs_step_fixed(const hs_mview *m, hs_state *s, hs_work *w)
{
    int r;
    if (s->status) return s->status;
    do {
        hs_step_span(m, s, w);
#if HS_WORK_HIST
        if (hs_pred_extrapolated(m)) {
            hs_hist h0; /* this step's history for the next */
            hs_hist_take(m, s, w->h, &h0);
            r = hs_step_solve(m, s, w, &w->hist);
            if (hs_span_ends_on_knot(m, w)) h0.h = 0.0;
            w->hist = h0;
        } else
#endif
            r = hs_step_solve(m, s, w, NULL);
        if (r == 0) {
            hs_newton_fail(m, s, w);
            return s->status;
        }
        if (r < 0 || hs_step_finish(m, s, w)) return s->status;
    } while (!hs_step_done(w));
    return 0;
}

#endif
