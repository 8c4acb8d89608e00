/* val_report.h -- the PASS/FAIL lines of the validation programs and their counters (one
 * header for all val_*.c; each program is its own executable, so the static counters are
 * per program). Every program ends with printf("%d passed, %d failed\n", npass, nfail). */
#ifndef HS_VAL_REPORT_H
#define HS_VAL_REPORT_H

#include <math.h>
#include <stdio.h>
#include <time.h>

#include "hs/errors.h"

static int npass, nfail;

/* Wall-clock seconds (monotonic), for the programs' timings. */
/* Prints e after "PROG: " on stderr; returns 1 (the exit status of a failed setup). */
static inline int val_err(const char *prog, const hs_error *e)
{
    char m[512];
    hs_error_format(e, m, sizeof m);
    fprintf(stderr, "%s: %s\n", prog, m);
    return 1;
}

static inline double val_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The peaks every cycle run tracks: |W| of the first cylinder, |E_balance| and its time. */
typedef struct val_peaks {
    double Wpeak, Ebpeak, t_Ebpeak;
} val_peaks;

static inline void val_peaks_update(val_peaks *p, double W, double Eb, double t)
{
    if (fabs(W) > p->Wpeak) p->Wpeak = fabs(W);
    if (fabs(Eb) > p->Ebpeak) {
        p->Ebpeak = fabs(Eb);
        p->t_Ebpeak = t;
    }
}

static inline void val_count(int ok)
{
    if (ok) ++npass;
    else ++nfail;
}

/* A measured value v that must lie in [lo, hi]. */
static inline void check(const char *what, double v, double lo, double hi)
{
    int ok = v >= lo && v <= hi;
    printf("  %-60s %12.4e  in [%.3g, %.3g]  %s\n", what, v, lo, hi, ok ? "PASS" : "FAIL");
    val_count(ok);
}

/* One row of a paper comparison: quantity, paper value (text), ours, difference, tolerance. */
static inline void check_line(const char *q, const char *paper, double ours, double diff,
                              const char *tol, int ok)
{
    printf("  %-46s %12s %14.8g %11.3e %-16s %s\n", q, paper, ours, diff, tol, ok ? "PASS" : "FAIL");
    val_count(ok);
}

/* A row that is printed for the record, not asserted. */
static inline void report_line(const char *q, const char *paper, double ours, double diff)
{
    printf("  %-46s %12s %14.8g %11.3e %-16s %s\n", q, paper, ours, diff, "-", "reported");
}

/* ours <= limit; the difference column is the margin (limit - ours) / limit. */
static inline void check_max(const char *q, const char *paper, double ours, double limit)
{
    char t[32];
    snprintf(t, sizeof t, "<= %g", limit);
    check_line(q, paper, ours, (limit - ours) / limit, t, ours <= limit);
}

/* |ours - ref| / |ref| <= tol */
static inline void check_rel(const char *q, double ref, double ours, double tol)
{
    char p[32], t[32];
    double r = fabs(ours - ref) / fabs(ref);
    snprintf(p, sizeof p, "%g", ref);
    snprintf(t, sizeof t, "rel <= %g", tol);
    check_line(q, p, ours, r, t, r <= tol);
}

/* |ours - ref| <= tol */
static inline void check_abs(const char *q, double ref, double ours, double tol)
{
    char p[32], t[32];
    snprintf(p, sizeof p, "%g", ref);
    snprintf(t, sizeof t, "abs <= %g", tol);
    check_line(q, p, ours, fabs(ours - ref), t, fabs(ours - ref) <= tol);
}

/* Step refinement of one quantity: the error at dt = 1 ms below max1 and the error ratios of
 * the halvings 1 -> 0.5 -> 0.25 ms in [3.4, 4.6] (second order). e: errors at the three dt. */
static inline void check_refinement(const char *name, const char *window, const double e[3],
                                    double max1)
{
    char w[128];
    snprintf(w, sizeof w, "max |err| %s%s, dt = 1 ms [rad]", name, window);
    check(w, e[0], 0.0, max1);
    snprintf(w, sizeof w, "ratio e(1 ms)/e(0.5 ms) %s", name);
    check(w, e[0] / e[1], 3.4, 4.6);
    snprintf(w, sizeof w, "ratio e(0.5 ms)/e(0.25 ms) %s", name);
    check(w, e[1] / e[2], 3.4, 4.6);
}

#endif
