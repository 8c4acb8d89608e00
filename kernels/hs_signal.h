/* hs_signal.h -- the inputs (loads, U_ref) as functions of time: piecewise linear between
 * knots, or a test input of seed 004 Pub. III (hs_test_input.h).
 * Knot times are non-decreasing; two equal times make a jump. hs_signal_eval is
 * right-continuous (the value after a jump at the jump time); hs_signal_eval_side gives
 * either limit. The integrator lands its steps on every knot (hs_step_span), uses the left
 * limit at the end of a step and the right limit at its start, and re-solves the
 * accelerations after a load jump, so a switch is handled exactly and the trapezoidal rule
 * stays second order (docs/model-data.md, numerical notes). Times are compared with a relative slack of
 * 1e-12, so t = n*dt landing a hair off a knot (rounding) counts as the knot itself. */
#ifndef HS_SIGNAL_H
#define HS_SIGNAL_H

#include "hs_model.h"

/* A test input (hs_test_input.h, seed 004 Pub. III eqs. 12-15) at t; side as below. Its
 * switching times t_s (step, ramp) and t_s -+ d/2 (impulse) are where the integrator lands its
 * steps (hs_signal_next_switch). */
HS_HD static inline double hs_test_eval(const hs_mview *m, int sig, double t, int side)
{
    const double *P = HS_D(m, sig_test)[sig];
    double ts = P[HS_TP_TS], slack = 1e-12 * (fabs(t) > 1.0 ? fabs(t) : 1.0), a, b;
    switch (HS_I(m, sig_kind, sig)) {
    case HS_SIGK_STEP: /* eq. 12: v_max from t_s on */
        return (side < 0 ? t > ts + slack : t >= ts - slack) ? P[HS_TP_VMAX] : P[HS_TP_V0];
    case HS_SIGK_RAMP: /* eq. 13, continuous: v0 + (t - t_s) v_max / t_rise from t_s on */
        return t > ts ? P[HS_TP_V0] + (t - ts) * P[HS_TP_VMAX] / P[HS_TP_TRISE] : P[HS_TP_V0];
    case HS_SIGK_IMPULSE: /* eq. 14: v_max on [t_s - d/2, t_s + d/2) */
        a = ts - 0.5 * P[HS_TP_D];
        b = ts + 0.5 * P[HS_TP_D];
        if (side < 0) return (t > a + slack && t <= b + slack) ? P[HS_TP_VMAX] : P[HS_TP_V0];
        return (t >= a - slack && t < b - slack) ? P[HS_TP_VMAX] : P[HS_TP_V0];
    default: /* HS_SIGK_SINE, eq. 15 with omega = 2 pi f */
        return P[HS_TP_V0] + P[HS_TP_A] * sin(2.0 * HS_PI * P[HS_TP_F] * t);
    }
}

/* side < 0: the limit from the left (before a jump at t); side >= 0: from the right. */
HS_HD static inline double hs_signal_eval_side(const hs_mview *m, int sig, double t, int side)
{
    int k0, n, k;
    const double *T, *V;
    double slack;
    if (sig < 0) return 1.0; /* no signal: constant unit factor */
    if (HS_I(m, sig_kind, sig) != HS_SIGK_KNOTS) return hs_test_eval(m, sig, t, side);
    k0 = HS_I(m, sig_start, sig);
    n = HS_I(m, sig_n, sig);
    T = HS_D(m, knot_t) + k0;
    V = HS_D(m, knot_v) + k0;
    if (n <= 0) return 0.0;
    slack = 1e-12 * (fabs(t) > 1.0 ? fabs(t) : 1.0);
    if (t < T[0] - slack) return V[0];
    if (side < 0) { /* first knot whose time is >= t (with slack): left limit at jumps */
        k = 0;
        while (k < n - 1 && T[k] < t - slack) ++k;
        if (k == 0 || T[k] - T[k - 1] <= 0.0 || t >= T[k] - slack) return V[k];
        return V[k - 1] + (V[k] - V[k - 1]) * (t - T[k - 1]) / (T[k] - T[k - 1]);
    }
    /* last knot whose time is <= t (with slack): right-continuous at jumps */
    k = n - 1;
    while (k > 0 && T[k] > t + slack) --k;
    if (k == n - 1) return V[n - 1];
    if (T[k + 1] - T[k] <= 0.0) return V[k + 1];
    if (t <= T[k] + slack) return V[k];
    return V[k] + (V[k + 1] - V[k]) * (t - T[k]) / (T[k + 1] - T[k]);
}

/* Knot signal sig at t as a C1 curve: between two knots the cubic smoothstep from one value
 * to the next, v_a + (v_b - v_a) (3 u^2 - 2 u^3), u = (t - t_a)/(t_b - t_a), so its rate is 0
 * at every knot; constant before the first knot and after the last; *rate its time
 * derivative. A payload's mass follows it (hs_dynamics.h): a load taken up over a ramp's time
 * with no jump in the rate of its mass, so what the mass brings in (hs_external_power) has
 * no jump at a knot either and the trapezoidal rule stays second order across it. Not for
 * test inputs (the loader's rule); 1 and 0 for no signal. */
HS_HD static inline double hs_signal_smooth(const hs_mview *m, int sig, double t, double *rate)
{
    int k0, n, k;
    const double *T, *V;
    double u, d;
    *rate = 0.0;
    if (sig < 0) return 1.0;
    k0 = HS_I(m, sig_start, sig);
    n = HS_I(m, sig_n, sig);
    T = HS_D(m, knot_t) + k0;
    V = HS_D(m, knot_v) + k0;
    if (n <= 0) return 0.0;
    if (!(t > T[0])) return V[0];
    k = 0;
    while (k < n - 1 && T[k + 1] <= t) ++k;
    if (k == n - 1) return V[n - 1];
    d = T[k + 1] - T[k];
    if (!(d > 0.0)) return V[k + 1];
    u = (t - T[k]) / d;
    *rate = (V[k + 1] - V[k]) * 6.0 * u * (1.0 - u) / d;
    return V[k] + (V[k + 1] - V[k]) * u * u * (3.0 - 2.0 * u);
}

HS_HD static inline double hs_signal_eval(const hs_mview *m, int sig, double t)
{
    return hs_signal_eval_side(m, sig, t, 1);
}

/* The first time strictly inside (t0, t1) (by more than sl) where a signal switches or kinks
 * (a knot of a knots signal, the switching times of a test input), else t1: the integrator
 * lands its steps there (hs_step_span, hs_adapt.h). */
HS_HD static inline double hs_signal_next_switch(const hs_mview *m, double t0, double t1, double sl)
{
    int s, k;
    for (s = 0; s < HS_N(m, nsignal); ++s) {
        int kind = HS_I(m, sig_kind, s);
        if (kind == HS_SIGK_KNOTS) {
            int k0 = HS_I(m, sig_start, s), n = HS_I(m, sig_n, s);
            for (k = k0; k < k0 + n; ++k) {
                double tk = HS_D(m, knot_t)[k];
                if (tk > t0 + sl && tk < t1 - sl) t1 = tk;
            }
        } else if (kind != HS_SIGK_SINE) {
            const double *P = HS_D(m, sig_test)[s];
            double ts = P[HS_TP_TS], d = kind == HS_SIGK_IMPULSE ? 0.5 * P[HS_TP_D] : 0.0, tk;
            for (k = 0; k < 2; ++k) {
                tk = k ? ts + d : ts - d;
                if (tk > t0 + sl && tk < t1 - sl) t1 = tk;
            }
        }
    }
    return t1;
}

/* Every signal of kind knots, its test parameters their defaults (hs_test_input.h): for a
 * model built in code (a model file sets them as it reads the signals). */
HS_HD static inline void hs_signal_defaults(hs_model *m)
{
    int s;
    for (s = 0; s < HS_MAX_SIGNALS; ++s) {
        m->sig_kind[s] = HS_SIGK_KNOTS;
#define HS_TP_SET_(ID, key, unit, def, lo, open, text) m->sig_test[s][HS_TP_##ID] = (def);
        HS_TEST_PARAMS(HS_TP_SET_)
#undef HS_TP_SET_
    }
}

/* Does any load signal jump at t (left and right limits differ)? */
HS_HD static inline int hs_loads_jump(const hs_mview *m, double t)
{
    int l;
    for (l = 0; l < HS_N(m, nload); ++l) {
        int a = HS_I(m, load_force_sig, l), b = HS_I(m, load_torque_sig, l);
        if (a >= 0 && hs_signal_eval_side(m, a, t, -1) != hs_signal_eval_side(m, a, t, 1)) return 1;
        if (b >= 0 && hs_signal_eval_side(m, b, t, -1) != hs_signal_eval_side(m, b, t, 1)) return 1;
    }
    return 0;
}

#endif
