/* val_report.h -- the PASS/FAIL lines of the validation programs and their counters (one
 * header for all val_*.c; each program is its own executable, so the static counters are
 * per program). Every program ends with printf("%d passed, %d failed\n", npass, nfail). */
#ifndef HS_VAL_REPORT_H
#define HS_VAL_REPORT_H

#include <math.h>
#include <stdio.h>
#include <time.h>

#include "hs/errors.h"
#include "hs/model_file.h"
#include "ida_reference.h"

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
 * the halvings 1 -> 0.5 -> 0.25 ms in [3.4, 4.6] (second order). e[k][j]: errors at the three
 * dt. */
static inline void check_refinement(const char *name, const char *window, double e[][HS_MAX_Z],
                                    int j, double max1)
{
    char w[128];
    snprintf(w, sizeof w, "max |err| %s%s, dt = 1 ms [rad]", name, window);
    check(w, e[0][j], 0.0, max1);
    snprintf(w, sizeof w, "ratio e(1 ms)/e(0.5 ms) %s", name);
    check(w, e[0][j] / e[1][j], 3.4, 4.6);
    snprintf(w, sizeof w, "ratio e(0.5 ms)/e(0.25 ms) %s", name);
    check(w, e[1][j] / e[2][j], 3.4, 4.6);
}

/* ---- the programs that compare our integrator with the IDA reference at dt = 1, 0.5, 0.25 ms */


/* IDA's counts and its drift and energy balance */
static inline void val_ida_stats_print(const hs_ida_stats *st)
{
    printf("  IDA: %d coordinates, %d constraints, %ld steps, %ld residuals\n", st->ncoord,
           st->ncon, st->nsteps, st->nres);
    printf("  IDA drift: max |Phi| = %.3e m, max |Phi_q v| = %.3e m/s; energy E0 = %.6f J, "
           "max |E - E0| = %.3e J\n",
           st->phi_max, st->phid_max, st->E0, st->dE_max);
}

/* The error table: a row "dt [ms]" of the joint names (the label column w wide, the others
 * cw), then one row per dt of e[k][j]; phi (or NULL): a last column max||Phi||_2. */
static inline void val_err_table(int w, int cw, const hs_model_desc *d, const double *dts,
                                 int ndt, double e[][HS_MAX_Z], const double *phi)
{
    int j, k;
    printf("  %-*s", w, "dt [ms]");
    for (j = 0; j < d->model.nz; ++j) printf(" %*s", cw, d->joint_name[j]);
    if (phi) printf(" %14s", "max||Phi||_2");
    printf("\n");
    for (k = 0; k < ndt; ++k) {
        printf("  %-*g", w, dts[k] * 1e3);
        for (j = 0; j < d->model.nz; ++j) printf(" %*.4e", cw, e[k][j]);
        if (phi) printf(" %14.3e", phi[k]);
        printf("\n");
    }
}

/* The rows of the error ratios e(1)/e(0.5 ms) and e(0.5)/e(0.25 ms) of each joint. */
static inline void val_ratio_rows(int w, int cw, const hs_model_desc *d, double e[][HS_MAX_Z])
{
    int j, r;
    for (r = 0; r < 2; ++r) {
        printf("  %-*s", w, r ? "ratio .5/.25" : "ratio 1/.5");
        for (j = 0; j < d->model.nz; ++j) printf(" %*.3f", cw, e[r][j] / e[r + 1][j]);
        printf("\n");
    }
}

/* The checks of each joint's refinement (check_refinement over window), of IDA's drift
 * (phi_what) and of its energy balance. */
static inline void val_ida_checks(const hs_model_desc *d, double e[][HS_MAX_Z],
                                  const char *window, const char *phi_what,
                                  const hs_ida_stats *st)
{
    int j;
    for (j = 0; j < d->model.nz; ++j) check_refinement(d->joint_name[j], window, e, j, 1e-4);
    check(phi_what, st->phi_max, 0.0, 1e-8);
    check("IDA max |E - E0| / max(|E0|, 1 J)", st->dE_max / (fabs(st->E0) > 1.0 ? fabs(st->E0) : 1.0),
          0.0, 1e-8);
}

#endif
