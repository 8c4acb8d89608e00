/* precision_point.c -- one point of a work-precision diagram (bench/bench_precision.py): one
 * instance of a planar model integrated on one core, either by SUNDIALS IDA (the independent
 * reference of ida_reference.c, variable order and step) at a tolerance, or by our engine with
 * fixed steps of dt or with adaptive steps at a tolerance; the best wall time of REPS runs,
 * and the samples on the output grid k * OUT_DT written to a CSV (t, every joint coordinate,
 * every pressure) for the script to compare with a reference.
 *
 * usage: precision_point MODEL.yaml T_END OUT_DT MODE VALUE REPS OUT.csv
 *   MODE ida       VALUE = rtol; absolute tolerances rtol x (1 rad or m, 1 rad/s or m/s,
 *                  1 MPa, 10 V, 1 mm for friction states)
 *   MODE fixed     VALUE = dt (OUT_DT a multiple of it)
 *   MODE adaptive  VALUE = rtol = the atols in the same units as for ida; dt = OUT_DT
 *   MODE esdirk3, esdirk4: adaptive steps of that integrator.method
 *   MODE fixed_modified, adaptive_modified, ...: the same with integrator.newton = modified
 *   (without _modified: full, whatever the model file says)
 * Prints one JSON line: mode, value, seconds (best of REPS), steps, rejected, newton_mean. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hs/model_file.h"
#include "ida_reference.h"

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv)
{
    static hs_model_desc d;
    hs_error e;
    hs_model m;
    double t_end, out_dt, value, best = 1e300, *times, *z, *p;
    int reps, nout, k, r, mode, modified;
    long steps = 0, rejected = 0;
    double nmean = 0.0;
    char msg[512];
    FILE *f;
    if (argc != 8) {
        fprintf(stderr, "usage: precision_point MODEL.yaml T_END OUT_DT ida|fixed|adaptive|esdirk3|esdirk4[_modified] VALUE REPS "
                        "OUT.csv\n");
        return 2;
    }
    t_end = atof(argv[2]);
    out_dt = atof(argv[3]);
    modified = strlen(argv[4]) > 9 && !strcmp(argv[4] + strlen(argv[4]) - 9, "_modified");
    mode = !strcmp(argv[4], "ida") ? 0
         : !strncmp(argv[4], "fixed", 5) && strlen(argv[4]) == 5 + (modified ? 9u : 0u) ? 1
         : !strncmp(argv[4], "adaptive", 8) && strlen(argv[4]) == 8 + (modified ? 9u : 0u) ? 2
         : !strncmp(argv[4], "esdirk3", 7) && strlen(argv[4]) == 7 + (modified ? 9u : 0u) ? 3
         : !strncmp(argv[4], "esdirk4", 7) && strlen(argv[4]) == 7 + (modified ? 9u : 0u) ? 4 : -1;
    value = atof(argv[5]);
    reps = atoi(argv[6]);
    if (mode < 0 || !(t_end > 0) || !(out_dt > 0) || !(value > 0) || reps < 1) {
        fprintf(stderr, "precision_point: bad arguments (mode ida, fixed, adaptive, esdirk3 or esdirk4, each but ida "
                        "optionally with _modified; positive numbers)\n");
        return 2;
    }
    if (hs_model_load(argv[1], &d, &e)) {
        fprintf(stderr, "precision_point: %s\n", e.msg);
        return 1;
    }
    m = d.model;
    m.t_end = t_end;
    m.newton = modified ? HS_NEWTON_MODIFIED : HS_NEWTON_FULL; /* explicit: auto would pick by step */
    nout = (int)floor(t_end / out_dt + 0.5) + 1;
    times = (double *)malloc((size_t)nout * sizeof *times);
    z = (double *)calloc((size_t)nout * (size_t)(m.nz > 0 ? m.nz : 1), sizeof *z);
    p = (double *)calloc((size_t)nout * (size_t)(m.nvol > 0 ? m.nvol : 1), sizeof *p);
    if (!times || !z || !p) return 1;
    for (k = 0; k < nout; ++k) times[k] = k * out_dt;
    if (mode == 1) {
        m.dt = value;
    } else {
        m.dt = out_dt;
        m.step = HS_STEP_ADAPTIVE;
        m.method = mode == 3 ? HS_METHOD_ESDIRK3 : mode == 4 ? HS_METHOD_ESDIRK4 : HS_METHOD_TRAPEZOIDAL;
        m.rtol = m.atol_z = m.atol_zd = value;
        m.atol_p = value * 1e6;
        m.atol_U = value * 10.0;
        m.atol_fs = value * 1e-3;
    }
    for (r = 0; r < reps; ++r) {
        double t0 = now_s(), dt;
        int rc;
        if (mode == 0) {
            hs_ida_opts o;
            hs_ida_out io;
            hs_ida_stats st;
            hs_ida_opts_default(&o);
            o.rtol = value;
            o.atol_q = o.atol_v = value;
            o.atol_p = value * 1e6;
            o.atol_U = value * 10.0;
            o.atol_fs = value * 1e-3;
            memset(&io, 0, sizeof io);
            io.z = z;
            io.p = p;
            rc = hs_ida_planar_hyd_solve(&m, &o, times, nout, &io, &st, msg, sizeof msg);
            steps = st.nsteps;
        } else {
            hs_val_out vo;
            hs_val_stats vs;
            memset(&vo, 0, sizeof vo);
            vo.z = z;
            vo.p = p;
            rc = hs_val_run_engine_hyd(&m, out_dt, nout, &vo, &vs, msg, sizeof msg);
            steps = vs.steps;
            rejected = vs.rejected;
            nmean = vs.mean_iters;
        }
        dt = now_s() - t0;
        if (rc) {
            fprintf(stderr, "precision_point: %s %s: %s\n", argv[4], argv[5], msg);
            return 1;
        }
        if (dt < best) best = dt;
    }
    if (!(f = fopen(argv[7], "w"))) {
        fprintf(stderr, "precision_point: cannot write %s\n", argv[7]);
        return 1;
    }
    fprintf(f, "t");
    for (k = 0; k < m.nz; ++k) fprintf(f, ",z%d", k);
    for (k = 0; k < m.nvol; ++k) fprintf(f, ",p%d", k);
    fprintf(f, "\n");
    for (k = 0; k < nout; ++k) {
        int j;
        fprintf(f, "%.17g", times[k]);
        for (j = 0; j < m.nz; ++j) fprintf(f, ",%.17g", z[(size_t)k * (size_t)m.nz + (size_t)j]);
        for (j = 0; j < m.nvol; ++j) fprintf(f, ",%.17g", p[(size_t)k * (size_t)m.nvol + (size_t)j]);
        fprintf(f, "\n");
    }
    fclose(f);
    printf("{\"mode\": \"%s\", \"value\": %.17g, \"seconds\": %.6f, \"steps\": %ld, \"rejected\": %ld, "
           "\"newton_mean\": %.4f}\n",
           argv[4], value, best, steps, rejected, nmean);
    free(times);
    free(z);
    free(p);
    hs_model_desc_free(&d);
    return 0;
}
