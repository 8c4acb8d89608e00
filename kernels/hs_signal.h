/* hs_signal.h -- piecewise-linear functions of time (inputs: loads, later U_ref).
 * Knot times are non-decreasing; two equal times make a jump. At a jump time the function
 * takes the value after the jump (right-continuous), so the step that lands on a switching
 * time already sees the new input. Times are compared with a relative slack of 1e-12 so that
 * t = n*dt landing a hair before a knot (rounding) is treated as the knot itself (see
 * ../shared/model-data.md, numerical notes: exact switch handling keeps second order). */
#ifndef HS_SIGNAL_H
#define HS_SIGNAL_H

#include "../include/hs/model.h"

HS_HD static inline double hs_signal_eval(const hs_model *m, int sig, double t)
{
    int k0, n, k;
    const double *T, *V;
    double slack;
    if (sig < 0) return 1.0; /* no signal: constant unit factor */
    k0 = m->sig_start[sig];
    n = m->sig_n[sig];
    T = m->knot_t + k0;
    V = m->knot_v + k0;
    if (n <= 0) return 0.0;
    slack = 1e-12 * (fabs(t) > 1.0 ? fabs(t) : 1.0);
    if (t < T[0] - slack) return V[0];
    /* last knot whose time is <= t (with slack): right-continuous at jumps */
    k = n - 1;
    while (k > 0 && T[k] > t + slack) --k;
    if (k == n - 1) return V[n - 1];
    if (T[k + 1] - T[k] <= 0.0) return V[k + 1];
    if (t <= T[k] + slack) return V[k];
    return V[k] + (V[k + 1] - V[k]) * (t - T[k]) / (T[k + 1] - T[k]);
}

#endif
