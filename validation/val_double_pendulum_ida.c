/* val_double_pendulum_ida.c -- our integrator (seed 000 Sect. 2: semi-recursive relative
 * coordinates, trapezoidal rule) against the independent SUNDIALS IDA reference in absolute
 * planar coordinates (ida_reference.c) on models/double_pendulum.yaml (two rods released
 * from rest; no loop, so our engine has no constraints while the reference has four).
 *
 * The double pendulum is chaotic: the difference of two accurate solutions grows roughly
 * exponentially, so the strict comparison is over [0, 2] s and the 10 s numbers are
 * reported, not asserted. Asserted:
 *   max |error| of both joint angles over [0, 2] s at dt = 1 ms < 1e-4 rad;
 *   e(1 ms)/e(0.5 ms) and e(0.5 ms)/e(0.25 ms) over [0, 2] s in [3.4, 4.6] (second order);
 *   IDA's max |Phi| over [0, 10] s < 1e-8 m and its energy balance
 *   |E - E0| < 1e-8 max(|E0|, 1 J) (checks of the reference itself).
 * The reference runs with rtol 1e-12 (atol 1e-14 / 1e-13): at 1e-11 its own drift over 10 s
 * reaches 1.6e-8 m. Newton tolerance of our integrator: 1e-10 rad. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "val_report.h"

#define MODEL "models/double_pendulum.yaml"
#define T_LONG 10.0
#define T_SHORT 2.0
#define OUT_DT 1e-3
#define NLONG 10001 /* 0 .. 10 s every 1 ms */
#define NSHORT 2001 /* 0 .. 2 s */
#define NDT 3


static int set(hs_model_desc *d, const char *name, double v)
{
    hs_error err;
    if (hs_param_set(d, name, v, &err) == HS_OK) return 0;
    return val_err("val_double_pendulum_ida", &err);
}

int main(void)
{
    static const double dts[NDT] = {1e-3, 5e-4, 2.5e-4};
    static const double show[] = {0.5, 1.0, 2.0, 4.0, 6.0, 8.0, 10.0};
    hs_model_desc d;
    hs_error err;
    hs_ida_opts opts;
    hs_ida_stats st;
    char msg[512];
    double *times, *zref, *zeng[NDT];
    double e2[NDT][HS_MAX_Z], e10[HS_MAX_Z], t_1e3 = -1.0;
    int i, j, k, nz, rc = 1;

    if (hs_model_load(MODEL, &d, &err) != HS_OK) return val_err("val_double_pendulum_ida", &err);
    nz = d.model.nz;
    times = (double *)malloc(NLONG * sizeof *times);
    zref = (double *)malloc((size_t)NLONG * (size_t)nz * sizeof *zref);
    for (k = 0; k < NDT; ++k) zeng[k] = (double *)malloc((size_t)NLONG * (size_t)nz * sizeof(double));
    if (!times || !zref || !zeng[0] || !zeng[1] || !zeng[2]) {
        fprintf(stderr, "val_double_pendulum_ida: out of memory\n");
        goto out;
    }
    for (i = 0; i < NLONG; ++i) times[i] = i * OUT_DT;
    if (set(&d, "integrator.tol_position", 1e-10)) goto out;

    printf("val_double_pendulum_ida: %s, released from rest, [0, %g] s\n", MODEL, T_LONG);
    printf("reference: SUNDIALS IDA, planar absolute coordinates, index-1 DAE, rtol 1e-12, "
           "atol 1e-14\n");
    hs_ida_opts_default(&opts);
    opts.rtol = 1e-12;
    opts.atol_q = 1e-14;
    opts.atol_v = 1e-13;
    if (hs_ida_planar_solve_ex(&d.model, &opts, times, NLONG, zref, NULL, NULL, &st, msg,
                               sizeof msg)) {
        fprintf(stderr, "val_double_pendulum_ida: reference failed: %s\n", msg);
        goto out;
    }
    val_ida_stats_print(&st);

    /* dt = 1 ms over 10 s; the halved steps over 2 s only */
    for (k = 0; k < NDT; ++k) {
        int nout = k == 0 ? NLONG : NSHORT;
        if (set(&d, "integrator.dt", dts[k]) ||
            set(&d, "integrator.t_end", k == 0 ? T_LONG : T_SHORT))
            goto out;
        if (hs_val_run_engine(&d.model, OUT_DT, nout, zeng[k], NULL, msg, sizeof msg)) {
            fprintf(stderr, "val_double_pendulum_ida: dt = %g: %s\n", dts[k], msg);
            goto out;
        }
        for (j = 0; j < nz; ++j) e2[k][j] = hs_val_max_abs_diff(zref, zeng[k], nz, j, 0, NSHORT);
    }
    for (j = 0; j < nz; ++j) e10[j] = hs_val_max_abs_diff(zref, zeng[0], nz, j, 0, NLONG);
    for (i = 0; i < NLONG && t_1e3 < 0.0; ++i)
        for (j = 0; j < nz; ++j)
            if (fabs(zref[i * nz + j] - zeng[0][i * nz + j]) > 1e-3) t_1e3 = times[i];

    printf("\njoint angles at selected times (dt = 1 ms; beyond 2 s: reported, not asserted):\n");
    printf("  %6s %-6s %18s %18s %12s %12s\n", "t [s]", "joint", "IDA [rad]", "ours [rad]",
           "abs diff", "rel diff");
    for (i = 0; i < (int)(sizeof show / sizeof show[0]); ++i) {
        int r = (int)floor(show[i] / OUT_DT + 0.5);
        for (j = 0; j < nz; ++j) {
            double a = zref[r * nz + j], b = zeng[0][r * nz + j];
            printf("  %6.2f %-6s %18.12f %18.12f %12.3e %12.3e\n", times[r], d.joint_name[j], a,
                   b, fabs(a - b), fabs(a - b) / fabs(a));
        }
    }
    printf("\nmax |z - z_IDA| over [0, %g] s (every 1 ms):\n", T_SHORT);
    val_err_table(12, 14, &d, dts, NDT, e2, NULL);
    val_ratio_rows(12, 14, &d, e2);
    printf("\nover [0, %g] s at dt = 1 ms (not asserted: chaotic):", T_LONG);
    for (j = 0; j < nz; ++j) printf(" max |err| %s = %.3e rad;", d.joint_name[j], e10[j]);
    if (t_1e3 >= 0.0) printf(" the error first exceeds 1e-3 rad at t = %.3f s\n", t_1e3);
    else printf(" the error stays below 1e-3 rad\n");

    printf("\nchecks:\n");
    val_ida_checks(&d, e2, " over [0, 2] s", "IDA max |Phi| over [0, 10] s [m]", &st);
    printf("%d passed, %d failed\n", npass, nfail);
    rc = nfail ? 1 : 0;
out:
    free(times);
    free(zref);
    for (k = 0; k < NDT; ++k) free(zeng[k]);
    hs_model_desc_free(&d);
    return rc;
}
