/* hs_cosim.h -- co-simulation of the mechanism and the hydraulics (seed 004 Pub. III Sects.
 * 2.2-2.4 and 3.3; dissertation Sect. 2.4): two subsystems, each with its own integrator and
 * step, exchanging values every communication step H (= integrator.dt) in a non-iterative
 * Jacobi scheme. At t_n both send their outputs computed from their previous inputs, then
 * integrate to t_n+1 independently:
 *   mechanics   one step over H by cosim.mechanics: the engine's trapezoidal index-3
 *               augmented Lagrangian step with projections (i3al_p, Pub. III eqs. 18-19:
 *               hs_step_solve, hs_step_finish) or the index-1 augmented Lagrangian with the
 *               trapezoidal rule on the accelerations (i1al, eqs. 17a-17b: hs_i1al_solve,
 *               hs_step_accept; hs_i1al.h), the
 *               hydraulics held (hs_cosim_hold): the cylinder forces F (exchange: force) or
 *               the chamber pressures and friction states (exchange: pressures; Pub. IV),
 *               extrapolated to t_n+1 by a Lagrange polynomial of order
 *               cosim.mechanics_extrapolation (Pub. III Table 3: 0, the t_n values);
 *   hydraulics  pressures, friction states and spools (Pub. III eqs. 20-22, 28) in steps of
 *               h_hyd (forward Euler, the trapezoidal rule or RK4), with the cylinder length s
 *               and rate sdot extrapolated from the communicated values by Lagrange
 *               polynomials of order m = 0..4, or integrated from the communicated
 *               acceleration (I2) (Pub. III Sect. 3.3).
 * Each cylinder is a power bond (force, rod rate). Its residual power at t_n+1 (Pub. III eqs.
 * 5-8, with the signs of the bond: the mechanics receives F~ sdot, the hydraulics gives
 * F sdot~)
 *   delta P = sdot~ F - F~ sdot,
 * with ~ the extrapolated inputs at t_n+1 and F, sdot the outputs there, and its residual
 * energy over the step (eqs. 9-11): delta P H when both sides hold their inputs (m = 0,
 * rectangle rule, eq. 10), the trapezoidal rule H/2 (delta P_n + delta P_n+1) otherwise (eq.
 * 11, printed with a minus sign that would only flip every term). E_res accumulates |delta E| over the steps: the sum
 * Pub. III's search plots against H (its Fig. 3). With exchange: pressures the bond's force is
 * the pressure force p1 A1 - p2 A2 (friction and end dampers are then the mechanics').
 *
 * The macro steps keep the grid k H (no sub-steps at signal knots: the inputs may switch
 * inside a step, as Pub. III's tests do); the last one ends at t_end. A failure of the
 * mechanical step is flagged as in monolithic steps; a hydraulic subsystem that diverges is
 * flagged HS_ST_COSIM. */
#ifndef HS_COSIM_H
#define HS_COSIM_H

#include "hs_i1al.h"

/* A pressure beyond this (10 GPa, ten times the largest plausible one) is a diverged
 * co-simulation, not a hydraulic state. */
#define HS_COSIM_P_BLOWUP 1e10

/* Does the model co-simulate its subsystems (integrator.coupling)? */
HS_HD static inline int hs_is_cosim(const hs_mview *m)
{
    return HS_B(m, coupling) == HS_COUPLE_COSIM;
}

#if HS_COSIM_ON
/* the hydraulic subsystem's state: pressures, friction states, spools (nvol + nfs + ndcv) */
#define HS_CAP_Y (HS_CAP_VOLS + HS_CAP_FS + HS_CAP_DCV)

/* The weights l[0..q] of the Lagrange polynomial of order q through the newest q + 1
 * communication points (times cs->th), at time t; q is cut to the points there are (fewer at
 * the start, before q steps are communicated). Returns the order used. */
HS_HD static inline int hs_cosim_weights(const hs_cosim *cs, int q, double t, double *l)
{
    int j, k;
    if (q > cs->nh - 1) q = cs->nh - 1;
    for (j = 0; j <= q; ++j) {
        l[j] = 1.0;
        for (k = 0; k <= q; ++k)
            if (k != j) l[j] *= (t - cs->th[k]) / (cs->th[j] - cs->th[k]);
    }
    return q;
}

/* The hydraulics' inputs s, sdot at time t (ncyl), extrapolated from the communicated history
 * (Pub. III Sect. 3.3): the Lagrange polynomial of order cosim.extrapolation (hs_cosim_weights),
 * or with I2 the Taylor polynomial of the newest point's s, sdot and sddot (the acceleration
 * held, s and sdot integrated). */
HS_HD static inline void hs_cosim_inputs(const hs_mview *m, const hs_cosim *cs, double t, hs_real *s, hs_real *sd)
{
    int c, j, q = HS_B(m, cosim_extrap);
    double l[HS_CEXT_NHIST];
    if (q == HS_CEXT_INTEGRATE) {
        double d = t - cs->th[0];
        for (c = 0; c < HS_N(m, ncyl); ++c) {
            s[c] = cs->sh[0][c] + d * (cs->sdh[0][c] + 0.5 * d * cs->sdd[c]);
            sd[c] = cs->sdh[0][c] + d * cs->sdd[c];
        }
        return;
    }
    q = hs_cosim_weights(cs, q, t, l);
    for (c = 0; c < HS_N(m, ncyl); ++c) s[c] = sd[c] = 0.0;
    for (j = 0; j <= q; ++j)
        for (c = 0; c < HS_N(m, ncyl); ++c) {
            s[c] += l[j] * cs->sh[j][c];
            sd[c] += l[j] * cs->sdh[j][c];
        }
}

/* The number of the hydraulics' outputs the mechanics takes: the cylinder forces, or with
 * the pressures exchanged every pressure and friction state. */
HS_HD static inline int hs_cosim_nu(const hs_mview *m)
{
    return HS_B(m, cosim_exchange) == HS_CEX_FORCE ? HS_N(m, ncyl) : HS_N(m, nvol) + HS_N(m, nfs);
}

/* The mechanics' inputs at time t (hs_cosim_nu of them), extrapolated from the communicated
 * outputs of the hydraulics by the Lagrange polynomial of order cosim.mechanics_extrapolation. */
HS_HD static inline void hs_cosim_mech_inputs(const hs_mview *m, const hs_cosim *cs, double t, double *u)
{
    int k, j, q, nu = hs_cosim_nu(m);
    double l[HS_CEXT_NHIST];
    q = hs_cosim_weights(cs, HS_B(m, cosim_extrap_mech), t, l);
    for (k = 0; k < nu; ++k) {
        double v = 0.0;
        for (j = 0; j <= q; ++j) v += l[j] * cs->uh[j][k];
        u[k] = v;
    }
}

/* The hydraulic subsystem's rates dy at time t (the signals' left limits if side < 0) and
 * state y = [p, fs, U]: the pressure rates (Pub. III eqs. 20-25), the friction states' and
 * the spools' (eq. 28), with the cylinders at their extrapolated s, sdot; o takes the
 * hydraulics there (forces, friction). Returns 1 when an extrapolated chamber length leaves
 * (0, l): a diverged exchange. */
HS_HD static inline int hs_cosim_rates(const hs_mview *m, const hs_state *s, const hs_cosim *cs, double t, int side,
                                       const double *y, double *dy, hs_hyd *o)
{
    int nv = HS_N(m, nvol), nf = HS_N(m, nfs), c, i, out = 0;
    hs_cosim_inputs(m, cs, t, o->s, o->sd);
    for (c = 0; c < HS_N(m, ncyl); ++c)
        if (hs_chambers(m, s->s0, c, o)) out = 1;
    hs_hydraulic_rates_f(m, y, y + nv, y + nv + nf, o, 0);
    for (i = 0; i < nv; ++i) dy[i] = o->h[i];
    for (i = 0; i < nf; ++i) dy[nv + i] = o->fsd[i];
    for (i = 0; i < HS_N(m, ndcv); ++i) dy[nv + nf + i] = hs_spool_rate(m, i, y[nv + nf + i], t, side);
    return out;
}

/* One implicit trapezoidal step of the hydraulic subsystem from (t0, y) to t1, in place: the
 * spools in closed form (hs_spool_step), the pressures and friction states by Newton's
 * iteration on y1 - y0 - h/2 (f0 + f(y1)) = 0 with a forward-difference Jacobian (eqs. 40-41's
 * increment) in w->lu.T, converged when every update is within tol_pressure / tol_friction.
 * Returns 1 on failure (iteration limit, singular, or a stroke left). */
HS_HD static inline int hs_cosim_trapezoid(const hs_mview *m, const hs_state *s, hs_work *w, double t0, double t1,
                                           double *y)
{
    int nv = HS_N(m, nvol), nf = HS_N(m, nfs), n = nv + nf, i, j, it;
    double h = t1 - t0, f0[HS_CAP_Y], f1[HS_CAP_Y], g[HS_CAP_Y], y0[HS_CAP_Y];
    hs_hyd o;
    if (hs_cosim_rates(m, s, &w->cs, t0, 1, y, f0, &o)) return 1;
    for (i = 0; i < n; ++i) {
        y0[i] = y[i];
        y[i] += h * f0[i]; /* Euler predictor */
    }
    for (i = 0; i < HS_N(m, ndcv); ++i) y[n + i] = hs_spool_advance(m, i, y[n + i], t0, t1, h);
    w->tan_ok = 0; /* the mechanics' factorised tangent is overwritten */
    for (it = 0; it < (int)HS_D(m, max_iter); ++it) {
        int conv = 1;
        if (hs_cosim_rates(m, s, &w->cs, t1, -1, y, f1, &o)) return 1;
        for (i = 0; i < n; ++i) g[i] = y[i] - y0[i] - 0.5 * h * (f0[i] + f1[i]);
        for (j = 0; j < n; ++j) { /* column j: I - h/2 df/dy_j */
            double yj = y[j], yp = hs_fd_point(m, yj), ie = 1.0 / (yp - yj);
            y[j] = yp;
            hs_cosim_rates(m, s, &w->cs, t1, -1, y, w->f1, &o);
            for (i = 0; i < n; ++i)
                w->lu.T[i * HS_CAP_X + j] = (i == j ? 1.0 : 0.0) - 0.5 * h * (w->f1[i] - f1[i]) * ie;
            y[j] = yj;
        }
        if (HS_LU_FACTOR(w->lu.T, n, HS_CAP_X, w->piv)) return 1;
        for (i = 0; i < n; ++i) w->dx[i] = -g[i];
        HS_LU_SOLVE(w->lu.T, n, HS_CAP_X, w->piv, w->dx);
        for (i = 0; i < n; ++i) {
            y[i] += w->dx[i];
            if (!hs_isfinite(y[i])) return 1;
            if (fabs(w->dx[i]) > (i < nv ? HS_D(m, tol_p) : HS_D(m, tol_fs))) conv = 0;
        }
        if (conv) return 0;
    }
    return 1;
}

/* The explicit hydraulic step's stability check at (t, y): the largest |d p'_v / d p_v| over
 * the volumes (forward differences, eqs. 40-41's increment) times h against the method's
 * limit on the negative real axis (forward Euler 2, RK4 2.785). The diagonal is the volume's own
 * rate (B_e / V) dQ/dp, which dominates for the small volumes that limit the step. Returns 1
 * when h exceeds the limit (the warning HS_ST_COSIM_STIFF). */
HS_HD static inline int hs_cosim_stiff(const hs_mview *m, const hs_state *s, hs_work *w, double t, double h,
                                       double *y)
{
    double f0[HS_CAP_Y], f1[HS_CAP_Y], lam = 0.0, lim = HS_B(m, cosim_hyd) == HS_CHYD_RK4 ? 2.785 : 2.0;
    int v;
    hs_hyd o;
    if (hs_cosim_rates(m, s, &w->cs, t, 1, y, f0, &o)) return 0;
    for (v = 0; v < HS_N(m, nvol); ++v) {
        double yv = y[v], yp = hs_fd_point(m, yv), d;
        y[v] = yp;
        hs_cosim_rates(m, s, &w->cs, t, 1, y, f1, &o);
        d = fabs((f1[v] - f0[v]) / (yp - yv));
        y[v] = yv;
        if (d > lam) lam = d;
    }
    return h * lam > lim;
}

/* One step of the hydraulic subsystem from (t0, y) to t1, in place, by cosim.hydraulics.
 * Returns 1 when it diverged. */
HS_HD static inline int hs_cosim_hyd_step(const hs_mview *m, const hs_state *s, hs_work *w, double t0, double t1,
                                          double *y)
{
    int n = HS_N(m, nvol) + HS_N(m, nfs) + HS_N(m, ndcv), i;
    double h = t1 - t0, k[HS_CAP_Y], acc[HS_CAP_Y], yt[HS_CAP_Y];
    hs_hyd o;
    switch (HS_B(m, cosim_hyd)) {
    case HS_CHYD_TRAPEZOIDAL: return hs_cosim_trapezoid(m, s, w, t0, t1, y);
    case HS_CHYD_RK4: {
        /* the classical fourth-order method: stages at t0, t0 + h/2 (twice), t1 */
        static const double cs4[4] = {0.0, 0.5, 0.5, 1.0}, bs4[4] = {1.0, 2.0, 2.0, 1.0};
        int q;
        for (i = 0; i < n; ++i) {
            acc[i] = 0.0;
            yt[i] = y[i];
        }
        for (q = 0; q < 4; ++q) {
            if (q > 0)
                for (i = 0; i < n; ++i) yt[i] = y[i] + cs4[q] * h * k[i];
            if (hs_cosim_rates(m, s, &w->cs, t0 + cs4[q] * h, q == 3 ? -1 : 1, yt, k, &o)) return 1;
            for (i = 0; i < n; ++i) acc[i] += bs4[q] * k[i];
        }
        for (i = 0; i < n; ++i) y[i] += h / 6.0 * acc[i];
        return 0;
    }
    default: /* forward Euler */
        if (hs_cosim_rates(m, s, &w->cs, t0, 1, y, k, &o)) return 1;
        for (i = 0; i < n; ++i) y[i] += h * k[i];
        return 0;
    }
}

/* sddot of cylinder c at the state w->kin describes (positions, velocities and the bodies'
 * accelerations at zddot = 0, hs_kin_velocities) with accelerations zdd: the derivative of
 * sdot = e . (v_b - v_a), which is e . (a_b - a_a) + (|v_b - v_a|^2 - sdot^2) / s, where
 * e . (a_b - a_a) = ds/dz . zdd + e . (a0_b - a0_a). Needs w->hyd's geometry and w->js. */
HS_HD static inline double hs_cylinder_sdd(const hs_mview *m, const hs_work *w, int c, const double *zdd)
{
    hs_real aa[3], ab[3], va[3], vb[3], d[3], acc = 0.0;
    int q, a = HS_I(m, cyl_body_a, c), b = HS_I(m, cyl_body_b, c);
    for (q = 0; q < HS_N(m, nz); ++q) acc += w->js[c][q] * zdd[q];
    hs_kin_point_acc0(&w->kin, a, w->hyd.ra[c], aa);
    hs_kin_point_acc0(&w->kin, b, w->hyd.rb[c], ab);
    hs_kin_point_vel(&w->kin, a, w->hyd.ra[c], va);
    hs_kin_point_vel(&w->kin, b, w->hyd.rb[c], vb);
    hs_v3_sub(d, ab, aa);
    acc += hs_v3_dot(w->hyd.e[c], d);
    hs_v3_sub(d, vb, va);
    if (w->hyd.s[c] > 0.0) acc += (hs_v3_dot(d, d) - w->hyd.sd[c] * w->hyd.sd[c]) / w->hyd.s[c];
    return acc;
}

/* The force the bond carries from hydraulic outputs o at pressures p: the cylinder force
 * (exchange: force) or the pressure force p1 A1 - p2 A2 (exchange: pressures). */
HS_HD static inline double hs_cosim_bond_force(const hs_mview *m, const hs_hyd *o, const double *p, int c)
{
    return HS_B(m, cosim_exchange) == HS_CEX_FORCE ? o->F[c] : hs_pressure_force(m, p, c);
}

/* The exchange at time t: the mechanics' outputs of the state s (w describing it: kinematics,
 * geometry; s, sdot and sddot of every cylinder) and the hydraulics' outputs u
 * (hs_cosim_nu) become the newest point of the history. */
HS_HD static inline void hs_cosim_push(const hs_mview *m, const hs_state *s, hs_work *w, double t, const double *u)
{
    hs_cosim *cs = &w->cs;
    int j, c, nu = hs_cosim_nu(m);
    for (j = HS_CEXT_NHIST - 1; j > 0; --j) {
        cs->th[j] = cs->th[j - 1];
        for (c = 0; c < HS_N(m, ncyl); ++c) {
            cs->sh[j][c] = cs->sh[j - 1][c];
            cs->sdh[j][c] = cs->sdh[j - 1][c];
        }
        for (c = 0; c < nu; ++c) cs->uh[j][c] = cs->uh[j - 1][c];
    }
    cs->th[0] = t;
    for (c = 0; c < HS_N(m, ncyl); ++c) {
        hs_cylinder_jac(m, &w->kin, &w->hyd, c, w->js[c]);
        cs->sh[0][c] = w->hyd.s[c];
        cs->sdh[0][c] = w->hyd.sd[c];
        cs->sdd[c] = hs_cylinder_sdd(m, w, c, s->zdd);
    }
    for (c = 0; c < nu; ++c) cs->uh[0][c] = u[c];
    if (cs->nh < HS_CEXT_NHIST) cs->nh += 1;
}

/* The hydraulics' outputs u (hs_cosim_nu) from its evaluation o at state y = [p, fs, U]. */
HS_HD static inline void hs_cosim_outputs(const hs_mview *m, const hs_hyd *o, const double *y, double *u)
{
    int k;
    if (HS_B(m, cosim_exchange) == HS_CEX_FORCE)
        for (k = 0; k < HS_N(m, ncyl); ++k) u[k] = o->F[k];
    else
        for (k = 0; k < HS_N(m, nvol) + HS_N(m, nfs); ++k) u[k] = y[k];
}

/* The exchange at t = 0 (at the end of hs_init, which emptied the history and zeroed the
 * residuals: the inputs are exact at the start; w describing the initial state): the history
 * holds the initial outputs of both. */
HS_HD static inline void hs_cosim_start(const hs_mview *m, hs_state *s, hs_work *w)
{
    double y[HS_CAP_VOLS + HS_CAP_FS], u[HS_CAP_VOLS + HS_CAP_FS];
    int c;
    if (!hs_is_cosim(m)) return;
    for (c = 0; c < HS_N(m, nvol); ++c) y[c] = s->p[c];
    for (c = 0; c < HS_N(m, nfs); ++c) y[HS_N(m, nvol) + c] = s->fs[c];
    hs_cosim_outputs(m, &w->hyd, y, u);
    hs_cosim_push(m, s, w, s->t, u);
}

/* One communication step of H = dt (to t_end for a last, shorter one): the hydraulics in
 * steps of about h_hyd (the step divided evenly), the mechanics in one step with its inputs
 * held, then the residuals and the exchange at the new time. Leaves w describing the new
 * state (the hydraulics at the new pressures and the mechanics' s, sdot: what
 * hs_observe_current reads). Returns s->status (0: accepted). */
HS_HD HS_NOINLINE static inline int hs_cosim_step(const hs_mview *m, hs_state *s, hs_work *w)
{
    hs_cosim *cs = &w->cs;
    int nv = HS_N(m, nvol), nf = HS_N(m, nfs), nd = HS_N(m, ndcv), i, c, k, nsub, r, i1;
    double dt = HS_D(m, dt), t0 = s->t, tg = (double)(s->step + 1) * dt, te = HS_D(m, t_end), sl, h;
    double y[HS_CAP_Y], yd[HS_CAP_Y], Fout[HS_CAP_CYLS], sdx[HS_CAP_CYLS], u[HS_CAP_VOLS + HS_CAP_FS];
    hs_hyd o;
    if (s->status) return s->status;
    sl = 1e-12 * (fabs(tg) > 1.0 ? fabs(tg) : 1.0);
    if (tg > te + sl) tg = te;
    h = (t0 == (double)s->step * dt && tg == (double)(s->step + 1) * dt) ? dt : tg - t0;
    /* the hydraulics from t0 to tg with its inputs extrapolated */
    for (i = 0; i < nv; ++i) y[i] = s->p[i];
    for (i = 0; i < nf; ++i) y[nv + i] = s->fs[i];
    for (i = 0; i < nd; ++i) y[nv + nf + i] = s->U[i];
    nsub = (int)floor(h / HS_D(m, cosim_h_hyd) + 0.5);
    if (nsub < 1) nsub = 1;
    if (HS_B(m, cosim_hyd) != HS_CHYD_TRAPEZOIDAL && !(s->warn & HS_ST_COSIM_STIFF) &&
        hs_cosim_stiff(m, s, w, t0, h / (double)nsub, y))
        s->warn |= HS_ST_COSIM_STIFF; /* once: the check costs nvol evaluations a step */
    for (k = 0; k < nsub; ++k) {
        double ta = t0 + h * (double)k / (double)nsub, tb = k == nsub - 1 ? tg : t0 + h * (double)(k + 1) / (double)nsub;
        if (hs_cosim_hyd_step(m, s, w, ta, tb, y)) {
            s->status |= HS_ST_COSIM;
            return s->status;
        }
    }
    for (i = 0; i < nv + nf + nd; ++i)
        if (!hs_isfinite(y[i]) || (i < nv && fabs(y[i]) > HS_COSIM_P_BLOWUP)) {
            s->status |= HS_ST_COSIM;
            return s->status;
        }
    /* its outputs at tg, from its inputs extrapolated to tg */
    if (hs_cosim_rates(m, s, cs, tg, -1, y, yd, &o)) {
        s->status |= HS_ST_COSIM;
        return s->status;
    }
    for (c = 0; c < HS_N(m, ncyl); ++c) {
        Fout[c] = hs_cosim_bond_force(m, &o, y, c);
        sdx[c] = o.sd[c];
    }
    /* the mechanics from t0 to tg, its inputs extrapolated to tg and held there: the forces
     * F_in (force exchanged), or the pressures and friction states with zero rates */
    hs_cosim_mech_inputs(m, cs, tg, u);
    for (c = 0; c < HS_N(m, ncyl); ++c)
        cs->F_in[c] = HS_B(m, cosim_exchange) == HS_CEX_FORCE ? u[c] : hs_pressure_force(m, u, c);
    if (HS_B(m, cosim_exchange) != HS_CEX_FORCE) {
        for (i = 0; i < nv; ++i) s->p[i] = u[i];
        for (i = 0; i < nf; ++i) s->fs[i] = u[nv + i];
    }
    for (i = 0; i < nv; ++i) s->pd[i] = 0.0;
    for (i = 0; i < nf; ++i) s->fsd[i] = 0.0;
    cs->hold = HS_B(m, cosim_exchange) == HS_CEX_FORCE ? 2 : 1;
    w->t0 = t0;
    w->t1 = w->tg = tg;
    w->h = h;
    w->it_step = 0;
    i1 = HS_B(m, cosim_mech) == HS_CMECH_I1AL;
    r = i1 ? hs_i1al_solve(m, s, w) : hs_step_solve(m, s, w, NULL);
    if (r == 0) hs_newton_fail(m, s, w);
    /* i1al's rates are its own (index 1: no projections) */
    if (r != 1 || (i1 ? hs_step_accept(m, s, w) : hs_step_finish(m, s, w))) {
        cs->hold = 0;
        return s->status;
    }
    cs->hold = 0;
    /* the hydraulics' new state replaces what the mechanical step held */
    for (i = 0; i < nv; ++i) {
        s->p[i] = y[i];
        s->pd[i] = yd[i];
    }
    for (i = 0; i < nf; ++i) {
        s->fs[i] = y[nv + i];
        s->fsd[i] = yd[nv + i];
    }
    for (i = 0; i < nd; ++i) s->U[i] = y[nv + nf + i];
    /* residual power and energy of each bond (Pub. III eqs. 8, 10-11): the rectangle rule
     * when both sides hold their inputs (m = 0), else the trapezoidal rule */
    for (c = 0; c < HS_N(m, ncyl); ++c) {
        double dP = sdx[c] * Fout[c] - cs->F_in[c] * w->hyd.sd[c];
        double dE = HS_B(m, cosim_extrap) == 0 && HS_B(m, cosim_extrap_mech) == 0 ? dP * h
                                                                                  : 0.5 * h * (cs->P_res[c] + dP);
        cs->E_res[c] += fabs(dE);
        cs->P_res[c] = dP;
    }
    /* the exchange at tg: both subsystems' outputs into the history */
    hs_cosim_outputs(m, &o, y, u);
    hs_cosim_push(m, s, w, tg, u);
    /* the observed hydraulics: the new pressures at the mechanics' geometry */
    hs_hydraulic_rates_f(m, s->p, s->fs, s->U, &w->hyd, 0);
    hs_cavitation_check(m, s);
    return 0;
}
#endif

/* Advances the state by one step of m->dt (to t_end for a last, shorter one): a step of the
 * monolithic scheme (hs_step_fixed) or a communication step of the co-simulation
 * (hs_cosim_step). Returns s->status (0: accepted). */
HS_HD static inline int hs_step(const hs_mview *m, hs_state *s, hs_work *w)
{
    if (s->status) return s->status;
#if HS_WORK_HIST
    hs_ball_rechart(m, s, &w->hist);
#else
    hs_ball_rechart(m, s, (hs_hist *)0);
#endif
    if (s->status) return s->status;
#if HS_COSIM_ON
    if (hs_is_cosim(m)) return hs_cosim_step(m, s, w);
#endif
    return hs_step_fixed(m, s, w);
}

#endif
