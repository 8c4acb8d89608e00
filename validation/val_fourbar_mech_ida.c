/* val_fourbar_mech_ida.c -- our integrator (seed 000 Sect. 2: semi-recursive relative
 * coordinates, trapezoidal rule, index-3 augmented Lagrangian) against the independent
 * SUNDIALS IDA reference in absolute planar coordinates (ida_reference.c) on the four-bar of
 * models/fourbar_rahikainen2018_mech.yaml, released from rest, 2 s.
 *
 * Compared: the three joint angles at every 1 ms over [0, 2] s, for dt = 1, 0.5 and 0.25 ms
 * (Newton tol_position tightened to 1e-10 so that the iteration error does not pollute the
 * refinement study). Asserted:
 *   max |crank_angle error| at dt = 1 ms < 1e-4 rad (and the same for the other two angles);
 *   e(1 ms)/e(0.5 ms) and e(0.5 ms)/e(0.25 ms) in [3.4, 4.6] for each angle (second order);
 *   IDA's max |Phi| over the output times < 1e-8 (drift of the index-1 DAE);
 *   IDA's energy balance |E - E0| < 1e-8 max(|E0|, 1 J) (a check of the reference itself). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "val_report.h"

#define MODEL "models/fourbar_rahikainen2018_mech.yaml"
#define T_END 2.0
#define OUT_DT 1e-3
#define NOUT 2001 /* t = 0, 1 ms, ..., 2 s */
#define NDT 3


int main(void)
{
    static const double dts[NDT] = {1e-3, 5e-4, 2.5e-4};
    hs_model_desc d;
    hs_error err;
    hs_ida_stats st;
    char msg[512];
    double *times = NULL, *zref = NULL, *zeng[NDT] = {NULL, NULL, NULL};
    double e[NDT][HS_MAX_Z], phi_eng[NDT];
    int i, j, k, nz;
    static const int show[] = {250, 500, 1000, 1500, 2000};

    if (hs_model_load(MODEL, &d, &err) != HS_OK) return val_err("val_fourbar_mech_ida", &err);
    nz = d.model.nz;
    if (hs_param_set(&d, "integrator.tol_position", 1e-10, &err) ||
        hs_param_set(&d, "integrator.t_end", T_END, &err)) {
        val_err("val_fourbar_mech_ida", &err);
        hs_model_desc_free(&d);
        return 1;
    }
    times = (double *)malloc(NOUT * sizeof *times);
    zref = (double *)malloc((size_t)NOUT * (size_t)nz * sizeof *zref);
    for (k = 0; k < NDT; ++k) zeng[k] = (double *)malloc((size_t)NOUT * (size_t)nz * sizeof(double));
    if (!times || !zref || !zeng[0] || !zeng[1] || !zeng[2]) {
        fprintf(stderr, "val_fourbar_mech_ida: out of memory\n");
        return 1;
    }
    for (i = 0; i < NOUT; ++i) times[i] = i * OUT_DT;

    printf("val_fourbar_mech_ida: %s, released from rest, [0, %g] s\n", MODEL, T_END);
    printf("reference: SUNDIALS IDA, planar absolute coordinates, index-1 DAE, rtol 1e-11, "
           "atol 1e-13\n");
    if (hs_ida_planar_solve_ex(&d.model, NULL, times, NOUT, zref, NULL, NULL, &st, msg,
                               sizeof msg)) {
        fprintf(stderr, "val_fourbar_mech_ida: reference failed: %s\n", msg);
        return 1;
    }
    val_ida_stats_print(&st);

    for (k = 0; k < NDT; ++k) {
        if (hs_param_set(&d, "integrator.dt", dts[k], &err)) return val_err("val_fourbar_mech_ida", &err);
        if (hs_val_run_engine(&d.model, OUT_DT, NOUT, zeng[k], &phi_eng[k], msg, sizeof msg)) {
            fprintf(stderr, "val_fourbar_mech_ida: dt = %g: %s\n", dts[k], msg);
            return 1;
        }
        for (j = 0; j < nz; ++j) e[k][j] = hs_val_max_abs_diff(zref, zeng[k], nz, j, 0, NOUT);
    }

    printf("\n%s at selected times (dt = 1 ms):\n", d.joint_name[0]);
    printf("  %8s %20s %20s %12s %12s\n", "t [s]", "IDA [rad]", "ours [rad]", "abs diff",
           "rel diff");
    for (i = 0; i < (int)(sizeof show / sizeof show[0]); ++i) {
        int r = show[i];
        double a = zref[r * nz], b = zeng[0][r * nz];
        printf("  %8.3f %20.12f %20.12f %12.3e %12.3e\n", times[r], a, b, fabs(a - b),
               fabs(a - b) / fabs(a));
    }
    printf("\nmax |z - z_IDA| over the %d output times in [0, %g] s:\n", NOUT, T_END);
    val_err_table(10, 16, &d, dts, NDT, e, phi_eng);
    val_ratio_rows(10, 16, &d, e);
    printf("\nchecks:\n");
    val_ida_checks(&d, e, "", "IDA max |Phi| [m]", &st);
    printf("%d passed, %d failed\n", npass, nfail);

    free(times);
    free(zref);
    for (k = 0; k < NDT; ++k) free(zeng[k]);
    hs_model_desc_free(&d);
    return nfail ? 1 : 0;
}
