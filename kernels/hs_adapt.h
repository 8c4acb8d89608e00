/* hs_adapt.h -- error-controlled steps (integrator.step: adaptive): the trapezoidal rule's
 * local error estimate and its weighted norm, the PI step-size controller, the span of an
 * adaptive step, one accepted adaptive step (hs_step_adaptive: trapezoidal or ESDIRK
 * attempts, rejections, the controller's next step), and the dense output (cubic Hermite
 * interpolation of an accepted step). */
#ifndef HS_ADAPT_H
#define HS_ADAPT_H

#include "hs_esdirk.h"

/* One component's estimated local error of the trapezoidal rule over a step of h from a
 * value with rate f0 to one with rate f1, fm the rate at the start of the previous step of
 * hp: -(h^3/12) y3, the rule's leading error term, with the third derivative y3 = f'' taken
 * as twice the second divided difference of the rates at the three times. Without history
 * (hp = 0: the first step, or the first after a signal knot, where rates may jump) it is
 * (h/2) (f1 - f0), the error of an explicit Euler step from the same point: larger than the
 * rule's by about 6 / (h |f''/f'|), so a restart takes small steps until the history exists. */
HS_HD static inline double hs_lte(double fm, double f0, double f1, double h, double hp)
{
    if (hp > 0.0) {
        double dd = ((f1 - f0) / h - (f0 - fm) / hp) / (h + hp);
        return h * h * h * dd / 6.0;
    }
    return 0.5 * h * (f1 - f0);
}

/* The weighted RMS norm of the estimated local error of the step from a to b (b the
 * candidate at its end, a the state at its start, c the controller, whose hist.h says whether
 * its rate history exists), each component against atol_class + rtol max(|y_a|, |y_b|):
 *   positions: -(h^3/12) z3 with z3 = (zdd_b - zdd_a) / h, from this step alone;
 *   velocities, pressures, friction states, spools: hs_lte of their rates.
 * The cubic through the two ends' values and rates has no cubic term for a trapezoidal step
 * (the rule makes it vanish), so a third derivative of a first-order unknown needs the
 * previous step as well. 0 for a model without unknowns. (No weight is below the Newton
 * tolerance of its class, which hs_newton_tol keeps at most atol: the controller does not
 * chase the iteration's noise.) */
HS_HD static inline double hs_local_error(const hs_mview *m, const hs_state *a, const hs_state *b,
                                          const hs_ctrl *c, double h)
{
    double sum = 0.0, rt = HS_D(m, rtol), hp = c->hist.h, e, wgt;
    int i, n = 0;
    HS_UNROLL
    for (i = 0; i < HS_N(m, nz); ++i) {
        double za = fabs(a->z[i]), zb = fabs(b->z[i]), va = fabs(a->zd[i]), vb = fabs(b->zd[i]);
        e = h * h * (b->zdd[i] - a->zdd[i]) / 12.0;
        wgt = HS_D(m, atol_z) + rt * (za > zb ? za : zb);
        sum += (e / wgt) * (e / wgt);
        e = hs_lte(c->hist.zdd[i], a->zdd[i], b->zdd[i], h, hp);
        wgt = HS_D(m, atol_zd) + rt * (va > vb ? va : vb);
        sum += (e / wgt) * (e / wgt);
        n += 2;
    }
    HS_UNROLL
    for (i = 0; i < HS_N(m, nvol); ++i) {
        double pa = fabs(a->p[i]), pb = fabs(b->p[i]);
        if (HS_I(m, vol_model, i) == HS_VOL_SP) continue; /* algebraic: no integration error */
        e = hs_lte(c->hist.pd[i], a->pd[i], b->pd[i], h, hp);
        wgt = HS_D(m, atol_p) + rt * (pa > pb ? pa : pb);
        sum += (e / wgt) * (e / wgt);
        ++n;
    }
    HS_UNROLL
    for (i = 0; i < HS_N(m, nfs); ++i) {
        double fa = fabs(a->fs[i]), fb = fabs(b->fs[i]);
        e = hs_lte(c->hist.fsd[i], a->fsd[i], b->fsd[i], h, hp);
        wgt = HS_D(m, atol_fs) + rt * (fa > fb ? fa : fb);
        sum += (e / wgt) * (e / wgt);
        ++n;
    }
    HS_UNROLL
    for (i = 0; i < HS_N(m, ndcv); ++i) {
        double ua = fabs(a->U[i]), ub = fabs(b->U[i]);
        double ra = hs_spool_rate(m, i, a->U[i], a->t, 1), rb = hs_spool_rate(m, i, b->U[i], b->t, -1);
        e = hs_lte(c->Ud_m[i], ra, rb, h, hp);
        wgt = HS_D(m, atol_U) + rt * (ua > ub ? ua : ub);
        sum += (e / wgt) * (e / wgt);
        ++n;
    }
    return n > 0 ? sqrt(sum / (double)n) : 0.0;
}

/* The controller's factor for the next step after an error norm err: PI control
 * (Gustafsson; as in Hairer & Wanner's codes), fac = 0.9 err^(-0.7/k) err_prev^(0.4/k), k the
 * power of h the estimate falls with (hs_error_power), between 0.2 and 5. A rejected step, or
 * one without a previous error, uses 0.9 err^(-1/k). */
HS_HD static inline double hs_step_factor(double err, double err_prev, double k, int accepted)
{
    double fac;
    int pi = accepted && err_prev > 0.0;
    if (!(err > 1e-10)) err = 1e-10;
    fac = 0.9 * pow(err, -(pi ? 0.7 : 1.0) / k);
    if (pi) fac *= pow(err_prev, 0.4 / k);
    if (fac < 0.2) fac = 0.2;
    if (fac > 5.0) fac = 5.0;
    return fac;
}

/* The power of the step the local error estimate falls with: the embedded estimate of an
 * ESDIRK method of order q is of order q - 1, so h^q; the trapezoidal rule's h^3 with its rate
 * history, h^2 for the Euler estimate of a restart (hs_lte). */
HS_HD static inline double hs_error_power(const hs_mview *m, const hs_ctrl *c)
{
    if (hs_method(m) == HS_METHOD_ESDIRK3) return 3.0;
    if (hs_method(m) == HS_METHOD_ESDIRK4) return 4.0;
    return c->hist.h > 0.0 ? 3.0 : 2.0;
}

/* h rounded down to a quarter-octave value m 2^e, m in {1, 1.25, 1.5, 1.75}: the steps the
 * controller proposes come from error norms that backends compute with different rounding
 * (LAPACK against the built-in LU, FMA on a GPU); rounded to this coarse set they are equal
 * unless a norm falls within rounding of a boundary, so the step sequence does not depend on
 * the backend. It also repeats step sizes, which a reused tangent needs (modified Newton). */
HS_HD static inline double hs_step_quantize(double h)
{
    int e;
    double f = frexp(h, &e); /* h = f 2^e, f in [0.5, 1) */
    return ldexp(floor(f * 8.0) / 8.0, e);
}

/* Restarts the controller (t = 0, or after a signal knot): no rate history, the next step at
 * most h_init. */
HS_HD static inline void hs_step_restart(const hs_mview *m, hs_ctrl *c)
{
    if (!(c->h > 0.0) || c->h > HS_D(m, h_init)) c->h = HS_D(m, h_init);
    c->hist.h = 0.0;
    c->err_prev = 0.0;
}

/* A controller for a run from t = 0: nothing rejected, no history, the first step h_init. */
HS_HD static inline void hs_ctrl_start(const hs_mview *m, hs_ctrl *c)
{
    int i;
    c->h = 0.0;
    c->rejected = 0;
    hs_step_restart(m, c);
    for (i = 0; i < HS_CAP_Z; ++i) c->hist.zdd[i] = 0.0;
    for (i = 0; i < HS_CAP_VOLS; ++i) c->hist.pd[i] = 0.0;
    for (i = 0; i < HS_CAP_FS; ++i) c->hist.fsd[i] = 0.0;
    for (i = 0; i < HS_CAP_DCV; ++i) c->Ud_m[i] = 0.0;
}

/* The span of an adaptive step of the controller's size c->h (at most h_max) from s->t into
 * w, by the same rule as hs_step_span: it ends exactly on the next signal knot or on t_end
 * when either lies within 1.1 h (stretched a little rather than leaving a sliver), at the
 * midpoint when it lies within 2 h (two equal steps rather than a full and a tiny one),
 * else at s->t + h. Every adaptive step is a whole step (tg = t1). Sets the step's penalty. */
HS_HD static inline void hs_step_span_adaptive(const hs_mview *m, const hs_state *s, const hs_ctrl *c,
                                               hs_work *w)
{
    double t0 = s->t, te = HS_D(m, t_end), h = c->h, sl, tk, d, t1;
    if (h > HS_D(m, h_max)) h = HS_D(m, h_max);
    sl = 1e-12 * (fabs(te) > 1.0 ? fabs(te) : 1.0);
    tk = hs_next_knot(m, t0, te, sl);
    d = tk - t0;
    if (d <= 1.1 * h) t1 = tk;
    else if (d < 2.0 * h) t1 = t0 + 0.5 * d;
    else t1 = t0 + h;
    w->t0 = t0;
    w->t1 = t1;
    w->tg = t1;
    w->h = t1 - t0;
    w->it_step = 0;
    hs_penalty_adaptive(m, w, w->h);
}

/* One accepted adaptive step from s (integrator.step = adaptive) of the controller's size
 * c->h, cut to land on signal knots and t_end (hs_step_span_adaptive). An attempt whose Newton
 * iteration fails (iteration limit, NaN/Inf, singular matrix; with modified Newton after its
 * full-Newton retry) or whose epilogue fails is taken again at a quarter of the step; one
 * whose local error norm (hs_local_error) exceeds 1, at the size the controller gives. A
 * failed attempt at h_min is the instance's failure, with that attempt's status; an attempt
 * at h_min whose error still exceeds the tolerance fails it with HS_ST_STEPSIZE (the state
 * stays the last accepted one). On return s0 holds the state at the start of the
 * accepted step (the dense output's left end: hs_dense_state) and w describes s. s->step
 * counts accepted steps, c->rejected the attempts thrown away, whose Newton iterations count
 * in s->iters_total. After a step that ends on a signal knot the controller restarts
 * (hs_step_restart): an input switches or kinks there. Returns s->status (0: accepted). */
HS_HD HS_NOINLINE static inline int hs_step_adaptive(const hs_mview *m, hs_state *s, hs_ctrl *c, hs_work *w,
                                                     hs_state *s0)
{
    int rejected = 0, r, i;
    long spent = 0;
    double err = 0.0;
    if (s->status) return s->status;
    if (hs_ball_rechart(m, s, &c->hist)) c->err_prev = 0.0; /* a new chart: a restart */
    if (s->status) return s->status;
    *s0 = *s;
    (void)r;
    for (;;) {
        int ok;
        hs_step_span_adaptive(m, s, c, w);
        if (hs_method(m) != HS_METHOD_TRAPEZOIDAL) {
            ok = hs_esdirk_attempt(m, s0, s, c, w, &err);
        } else {
            r = hs_step_solve(m, s, w, &c->hist);
            ok = r == 1 && !hs_step_finish(m, s, w);
            if (ok) err = hs_local_error(m, s0, s, c, w->h);
        }
        if (ok && err <= 1.0) break;
        /* at h_min (the controller's size: the span may stretch a step to a knot) */
        if (ok && c->h <= HS_D(m, h_min)) { /* the tolerance cannot be met: a failure */
            *s = *s0;
            s->status |= HS_ST_STEPSIZE;
            c->rejected += rejected + 1;
            s->iters_total += spent;
            return s->status;
        }
        { /* rejected: back to the start, a smaller step */
            int st = s->status, its = s->iters;
            double h = w->h, fac = ok ? hs_step_factor(err, 0.0, hs_error_power(m, c), 0) : 0.25;
            spent += its;
            *s = *s0;
            w->tan_ok = 0;
            ++rejected;
            if (!ok && c->h <= HS_D(m, h_min)) {
                s->status = st ? st : HS_ST_MAXITER;
                c->rejected += rejected;
                s->iters_total += spent;
                if (s->status & HS_ST_MAXITER) hs_newton_fail(m, s, w);
                return s->status;
            }
            h = hs_step_quantize(h * fac);
            c->h = h > HS_D(m, h_min) ? h : HS_D(m, h_min);
        }
    }
    { /* accepted: the controller's next step and the rate history */
        double h = w->h, fac = hs_step_factor(err, c->err_prev, hs_error_power(m, c), 1);
        int knot = hs_span_ends_on_knot(m, w);
        if (rejected && fac > 1.0) fac = 1.0; /* no growth right after a rejection */
        if (fac >= 1.0 && fac <= 1.2) fac = 1.0; /* keep h, and so a reusable tangent */
        h = hs_step_quantize(fac == 1.0 ? c->h : h * fac);
        if (h > HS_D(m, h_max)) h = HS_D(m, h_max);
        if (h < HS_D(m, h_min)) h = HS_D(m, h_min);
        c->h = h;
        c->rejected += rejected;
        s->iters_total += spent;
        c->err_prev = err > 1e-4 ? err : 1e-4;
        hs_hist_take(m, s0, w->h, &c->hist);
        HS_UNROLL
        for (i = 0; i < HS_N(m, ndcv); ++i) c->Ud_m[i] = hs_spool_rate(m, i, s0->U[i], s0->t, 1);
        if (knot) hs_step_restart(m, c);
    }
    return 0;
}

/* The cubic Hermite basis at time t of a step from ta to tb (th = (t - ta) / h), for the dense
 * output (hs_dense_state, and the state signals' grid samples of hs_instance_adaptive, which
 * must be the same numbers): y(t) = h00 ya + h10 fa + h01 yb + h11 fb for the values y and rates
 * f at the ends. */
typedef struct hs_hermite {
    double th, h00, h10, h01, h11;
} hs_hermite;

HS_HD static inline hs_hermite hs_hermite_at(double ta, double tb, double t)
{
    hs_hermite b;
    double h = tb - ta, th = h > 0.0 ? (t - ta) / h : 1.0, th2 = th * th, th3 = th2 * th;
    b.th = th;
    b.h00 = 2.0 * th3 - 3.0 * th2 + 1.0;
    b.h10 = (th3 - 2.0 * th2 + th) * h;
    b.h01 = -2.0 * th3 + 3.0 * th2;
    b.h11 = (th3 - th2) * h;
    return b;
}
#define HS_HERMITE_EVAL(b, ya, fa, yb, fb) ((b).h00 * (ya) + (b).h10 * (fa) + (b).h01 * (yb) + (b).h11 * (fb))

/* Dense output: the state at time t of the accepted step from a to b (a->t <= t <= b->t), by
 * the cubic Hermite interpolant of each unknown between its values and rates at the two ends
 * (positions with velocities, velocities with accelerations, pressures, friction states,
 * spools and works with their rates): third-order accurate, one order above the rule's local
 * error, so the interpolation adds no larger error. Multipliers, accelerations and rates are
 * linear. The rest (counters, status, the cylinders' reference lengths) is b's. */
HS_HD static inline void hs_dense_state(const hs_mview *m, const hs_state *a, const hs_state *b, double t,
                                        hs_state *o)
{
    const hs_hermite hb = hs_hermite_at(a->t, b->t, t);
    double th = hb.th;
    int i;
#define HS_HERMITE(ya, fa, yb, fb) HS_HERMITE_EVAL(hb, ya, fa, yb, fb)
    *o = *b;
    o->t = t;
    HS_UNROLL
    for (i = 0; i < HS_N(m, nz); ++i) {
        o->z[i] = HS_HERMITE(a->z[i], a->zd[i], b->z[i], b->zd[i]);
        o->zd[i] = HS_HERMITE(a->zd[i], a->zdd[i], b->zd[i], b->zdd[i]);
        o->zdd[i] = (1.0 - th) * a->zdd[i] + th * b->zdd[i];
    }
    HS_UNROLL
    for (i = 0; i < HS_N(m, ncon); ++i) o->lambda[i] = (1.0 - th) * a->lambda[i] + th * b->lambda[i];
    HS_UNROLL
    for (i = 0; i < HS_N(m, nvol); ++i) {
        o->p[i] = HS_HERMITE(a->p[i], a->pd[i], b->p[i], b->pd[i]);
        o->pd[i] = (1.0 - th) * a->pd[i] + th * b->pd[i];
    }
    HS_UNROLL
    for (i = 0; i < HS_N(m, nfs); ++i) {
        o->fs[i] = HS_HERMITE(a->fs[i], a->fsd[i], b->fs[i], b->fsd[i]);
        o->fsd[i] = (1.0 - th) * a->fsd[i] + th * b->fsd[i];
    }
    HS_UNROLL
    for (i = 0; i < HS_N(m, ndcv); ++i)
        o->U[i] = HS_HERMITE(a->U[i], hs_spool_rate(m, i, a->U[i], a->t, 1), b->U[i],
                             hs_spool_rate(m, i, b->U[i], b->t, -1));
    HS_UNROLL
    for (i = 0; i < HS_N(m, ncyl); ++i) {
        o->W_cyl[i] = HS_HERMITE(a->W_cyl[i], a->P_cyl[i], b->W_cyl[i], b->P_cyl[i]);
        o->P_cyl[i] = (1.0 - th) * a->P_cyl[i] + th * b->P_cyl[i];
    }
    o->W_ext = HS_HERMITE(a->W_ext, a->P_ext, b->W_ext, b->P_ext);
    o->P_ext = (1.0 - th) * a->P_ext + th * b->P_ext;
#if HS_MOT_ON
    o->W_mot = HS_HERMITE(a->W_mot, a->P_mot, b->W_mot, b->P_mot);
    o->P_mot = (1.0 - th) * a->P_mot + th * b->P_mot;
#endif
#if HS_AUDIT_ON
    for (i = 0; i < HS_NPW; ++i) {
        o->W_hyd[i] = HS_HERMITE(a->W_hyd[i], a->P_hyd[i], b->W_hyd[i], b->P_hyd[i]);
        o->P_hyd[i] = (1.0 - th) * a->P_hyd[i] + th * b->P_hyd[i];
    }
#endif
#undef HS_HERMITE
}

#endif
