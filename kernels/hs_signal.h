/* hs_signal.h -- piecewise-linear functions of time (inputs: loads, U_ref).
 * Knot times are non-decreasing; two equal times make a jump. hs_signal_eval is
 * right-continuous (the value after a jump at the jump time); hs_signal_eval_side gives
 * either limit. The integrator lands its steps on every knot (hs_step_span), uses the left
 * limit at the end of a step and the right limit at its start, and re-solves the
 * accelerations after a load jump, so a switch is handled exactly and the trapezoidal rule
 * stays second order (../shared/model-data.md, numerical notes). Times are compared with a relative slack of
 * 1e-12, so t = n*dt landing a hair off a knot (rounding) counts as the knot itself. */
#ifndef HS_SIGNAL_H
#define HS_SIGNAL_H

#include "hs_model.h"

/* side < 0: the limit from the left (before a jump at t); side >= 0: from the right. */
HS_HD static inline double hs_signal_eval_side(const hs_mview *m, int sig, double t, int side)
{
    int k0, n, k;
    const double *T, *V;
    double slack;
    if (sig < 0) return 1.0; /* no signal: constant unit factor */
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

HS_HD static inline double hs_signal_eval(const hs_mview *m, int sig, double t)
{
    return hs_signal_eval_side(m, sig, t, 1);
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
