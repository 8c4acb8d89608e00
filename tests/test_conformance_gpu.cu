/* test_conformance_gpu.cu -- host/gpu/backend_gpu.cu, host/gpu/backend_gpu_spec.cu and
 * host/gpu/backend_gpu_cublas.cu (conformance suite, GPU part; label gpu, needs a CUDA device):
 * the GPU twin of tests/test_backends.c, with the same model, overrides and assertions.
 *  - the specialised kernel (the default path; NVRTC) vs the reference backend and the cpu
 *    batch (itself specialised, compiled by the host compiler), full and modified Newton; it
 *    is the one that ran (no fallback), deterministic, and equal in sub-batches of 5;
 *  - the specialised path vs the reference backend (LAPACK solves): equal status and step
 *    counts; statistics within rounding (the bound of test_backends.c) where the Newton counts
 *    are equal, within the Newton tolerance where they differ (such instances are listed);
 *  - cuBLAS path vs the specialised path likewise;
 *  - determinism: two specialised runs are bit-identical, and so is a run in small
 *    sub-batches (strided copy back), and an instance run alone;
 *  - an invalid instance is flagged with NaN statistics, a diverging one flagged or finished;
 *  - an unknown HS_GPU_PATH is an error;
 *  - progress (host/engine/backend.h's callback): on every path the counts the kernels keep in mapped
 *    pinned memory rise to the job's size while the host polls, the results are bit-identical
 *    to a run without a callback, and a stop request is honoured (HS_ERR_INTERRUPTED);
 *  - the double-step formulation on the specialised and cuBLAS paths vs the reference;
 *  - the hydraulic components (kernels/hs_components.h) likewise;
 *  - hs_gpu_quantiles against a sort on the host (R type 7, NaNs ignored).
 * Without a device it fails, saying why (scripts/test.sh leaves label gpu out there). */
#include <stddef.h>
#include <stdlib.h>

#include "hs_batch.h"
extern "C" {
#include "engine/backend.h"
#include "results/batch_out.h"
}
#include "gpu/backend_gpu.h"
#include "conformance_setup.h"
#include "hs/model_file.h" /* hs_model_load */
#include "hs/results.h" /* hs_quantile */

#define PATH_CUBLAS 1
#ifdef HS_GPU_NO_CUBLAS /* CMakeLists.txt: a CUDA toolkit without cuBLAS */
#define HAVE_CUBLAS 0
#else
#define HAVE_CUBLAS 1
#endif
#define PATH_SPEC 3

/* backend: HS_BACKEND_REFERENCE, HS_BACKEND_CPU or HS_BACKEND_GPU (path: specialised / cublas). */
static int run(int backend, int path, const double *v, long cnt, hs_batch_out *o)
{
    hs_batch_job job;
    hs_error err;
    int rc;
    CHECK(conf_job(&job, v, cnt, o) == 0, "alloc");
    memset(&err, 0, sizeof err);
    if (backend == HS_BACKEND_GPU) {
        if (path == PATH_CUBLAS && !HAVE_CUBLAS) path = PATH_SPEC; /* said at the start */
        setenv("HS_GPU_PATH", path == PATH_CUBLAS ? "cublas" : "specialised", 1);
        rc = hs_backend_gpu(&job, &err);
    } else if (backend == HS_BACKEND_CPU) {
        rc = hs_backend_cpu(&job, 2, &err);
    } else {
        rc = hs_backend_reference(&job, &err);
    }
    CHECK(rc == 0, "backend %d (path %d) runs: %s", backend, path, err.msg);
    return rc;
}

/* Largest difference of the statistics of a and b relative to each signal's scale in b
 * (E_balance, a residual of ~1e3 J energies, is scaled by the cylinder work), over the
 * valid instances whose Newton counts agree (loose == 0) or differ (loose == 1; the
 * iteration-count signal itself is left out then). E_balance's time of maximum is left out:
 * without fused multiply-adds the residual never rises above 0 (maximum at t = 0), with them
 * it reaches ~1e-11 J at some arbitrary step, which moves that time anywhere in the run
 * (measured by rebuilding this setup on the host with -ffp-contract=fast); its value is
 * compared. */
static double stat_diff(const hs_batch_out *a, const hs_batch_out *b, long n, int loose)
{
    long i, k;
    double worst = 0.0;
    for (k = 0; k < spec.nsig * HS_NSTAT; ++k) {
        double scale = 0.0;
        long kk = (k / HS_NSTAT == 4) ? 3 * HS_NSTAT + HS_STAT_MAX : k;
        if (loose && k / HS_NSTAT == 5) continue;
        if (k == 4 * HS_NSTAT + HS_STAT_TMAX) continue;
        for (i = 0; i < n; ++i)
            if (i != 5 && fabs(b->stats[kk * n + i]) > scale) scale = fabs(b->stats[kk * n + i]);
        for (i = 0; i < n; ++i) {
            int same = a->iters_max[i] == b->iters_max[i] && a->iters_mean[i] == b->iters_mean[i];
            double d;
            if (i == 5 || same == loose) continue;
            d = fabs(a->stats[k * n + i] - b->stats[k * n + i]) / (scale > 0 ? scale : 1.0);
            if (!(d <= worst)) worst = d; /* NaN propagates: never passes */
        }
    }
    return worst;
}

/* a vs b (the expected): statuses, steps, statistics; instances with other Newton counts are
 * listed and compared within the Newton tolerance. */
static void compare(const char *what, const hs_batch_out *a, const hs_batch_out *b, long n)
{
    long i, ndiff = 0;
    double tight, loose;
    for (i = 0; i < n; ++i) {
        CHECK(a->status[i] == b->status[i], "%s: status %ld: %d vs %d", what, i, a->status[i], b->status[i]);
        CHECK(a->steps[i] == b->steps[i], "%s: steps %ld: %ld vs %ld", what, i, a->steps[i], b->steps[i]);
        if (a->iters_max[i] != b->iters_max[i] || a->iters_mean[i] != b->iters_mean[i]) {
            printf("  %s: instance %ld: Newton counts differ (mean %.6f vs %.6f, max %d vs %d)\n", what,
                   i, a->iters_mean[i], b->iters_mean[i], a->iters_max[i], b->iters_max[i]);
            /* a different count on a few steps out of 1200 */
            CHECK(fabs(a->iters_mean[i] - b->iters_mean[i]) < 0.01, "%s: mean Newton count %ld", what, i);
            ++ndiff;
        }
    }
    tight = stat_diff(a, b, n, 0);
    loose = ndiff ? stat_diff(a, b, n, 1) : 0.0;
    printf("  %s: max relative difference of the statistics %.3e (equal Newton counts), "
           "%.3e (other counts, %ld instances)\n", what, tight, loose, ndiff);
    /* rounding level: LAPACK vs our LU measured 7e-10 on the CPU (test_backends.c); the GPU
     * adds fused multiply-adds and CUDA's libm (1-2 ulp), the same order of perturbation
     * through the same badly scaled Newton matrix: the same bound */
    CHECK(tight < 5e-9, "%s: statistics equal to rounding: %.3e", what, tight);
    /* one extra or missing Newton update of size <= tol (tol_p = 100 Pa against pressures of
     * ~1e7 Pa, tol_z = 1e-7 rad) moves the statistics by ~1e-5 of their scale at most */
    CHECK(loose < 1e-5, "%s: statistics within the Newton tolerance: %.3e", what, loose);
}

static void check_quantiles(void)
{
    enum { N = 1001 };
    static double x[N], y[N], z[N];
    double q[6] = {0.0, 0.1, 0.5, 0.9, 1.0, 1.5}, out[6], want;
    long i, m = 0;
    int k, rc;
    for (i = 0; i < N; ++i) x[i] = (i % 17 == 3) ? NAN : tu_rand(-5.0, 5.0);
    for (i = 0; i < N; ++i)
        if (!isnan(x[i])) y[m++] = x[i];
    qsort(y, (size_t)m, sizeof y[0], [](const void *a, const void *b) {
        double u = *(const double *)a, v = *(const double *)b;
        return (u > v) - (u < v);
    });
    rc = hs_gpu_quantiles(x, N, q, 6, out);
    CHECK(rc == 0, "hs_gpu_quantiles runs (%d)", rc);
    for (k = 0; k < 5; ++k) {
        /* the host's quantile (host/results/results.c), which the GPU's must equal to the bit, and
         * R type 7 on the sorted values to rounding */
        double h = (double)(m - 1) * q[k];
        long lo = (long)floor(h);
        double r7 = lo + 1 < m ? y[lo] + (h - (double)lo) * (y[lo + 1] - y[lo]) : y[lo];
        memcpy(z, x, sizeof x);
        want = hs_quantile(z, N, q[k]);
        CHECK(out[k] == want, "quantile %.2f: %.17g vs the host's %.17g", q[k], out[k], want);
        CHECK(fabs(out[k] - r7) <= 1e-15 * (1.0 + fabs(r7)), "quantile %.2f: %.17g vs R type 7 %.17g", q[k],
              out[k], r7);
    }
    CHECK(isnan(out[5]), "quantile outside [0, 1] is NaN");
    x[0] = 2.5;
    rc = hs_gpu_quantiles(x, 1, q + 2, 1, out);
    CHECK(rc == 0 && out[0] == 2.5, "median of one value");
    x[0] = NAN;
    rc = hs_gpu_quantiles(x, 1, q + 2, 1, out);
    CHECK(rc == 0 && isnan(out[0]), "all NaN: NaN");
}

/* The specialised kernel: no fallback, equal to the reference and the cpu batch within the
 * suite's bounds, deterministic, the same in sub-batches; modified Newton against the cpu
 * batch's modified Newton. */
static void check_specialised(void)
{
    hs_batch_out ref, cpu, sp, sp2, sp5, mc, mg;
    hs_batch_job job;
    hs_error err;
    char why[512] = "x";
    long n = NI, i;
    run(HS_BACKEND_REFERENCE, 0, vals, n, &ref);
    run(HS_BACKEND_CPU, 0, vals, n, &cpu);
    CHECK(conf_job(&job, vals, n, &sp) == 0, "alloc");
    CHECK(hs_backend_gpu_spec(&job, why, sizeof why, &err) == 0 && why[0] == '\0',
          "the specialised kernel runs, no fallback (%s %s)", why, err.msg);
    run(HS_BACKEND_GPU, PATH_SPEC, vals, n, &sp2);
    compare("gpu specialised vs reference", &sp, &ref, n);
    compare("gpu specialised vs cpu batch", &sp, &cpu, n);
    CHECK(!memcmp(sp.stats, sp2.stats, sizeof(double) * (size_t)(n * spec.nsig * HS_NSTAT)),
          "specialised: bit-identical statistics run to run");
    setenv("HS_GPU_BATCH", "5", 1);
    run(HS_BACKEND_GPU, PATH_SPEC, vals, n, &sp5);
    unsetenv("HS_GPU_BATCH");
    CHECK(!memcmp(sp.stats, sp5.stats, sizeof(double) * (size_t)(n * spec.nsig * HS_NSTAT)) &&
              !memcmp(sp.traj, sp5.traj, sizeof(double) * (size_t)(n * sp.ntime)),
          "specialised: sub-batches of 5 bit-identical to one");
    CHECK(sp.status[5] == HS_ST_INVALID && sp.steps[5] == 0 && isnan(sp.stats[(1 * HS_NSTAT + HS_STAT_MAX) * n + 5]),
          "specialised: the invalid instance flagged, NaN statistics");
    base.newton = HS_NEWTON_MODIFIED;
    run(HS_BACKEND_CPU, 0, vals, n, &mc);
    run(HS_BACKEND_GPU, PATH_SPEC, vals, n, &mg);
    base.newton = HS_NEWTON_FULL;
    compare("gpu specialised vs cpu batch, modified Newton", &mg, &mc, n);
    for (i = 0; i < n; ++i)
        if (i != 5) CHECK(mg.status[i] == 0, "modified Newton: instance %ld completes", i);
    hs_batch_out_free(&ref);
    hs_batch_out_free(&cpu);
    hs_batch_out_free(&sp);
    hs_batch_out_free(&sp2);
    hs_batch_out_free(&sp5);
    hs_batch_out_free(&mc);
    hs_batch_out_free(&mg);
}

/* A model file on every GPU path, over [0, t_end], with the setup's overrides and invalid
 * instance: the specialised and cuBLAS paths against the reference backend and the cpu
 * batch.
 *  - tests/data/crane_ls.yaml: the components of kernels/hs_components.h (a load-sensing
 *    pump's swash plate and a relief poppet as states, a check valve, an accumulator, the
 *    valve's P on a volume), 1.2 s (the valve opens at 0.5 s);
 *  - tests/data/crane_fcv.yaml: a flow control valve holding the valve's supply, 1.2 s;
 *  - models/excavator_front.yaml: three joints, cylinders and valve sections on one pump
 *    line, a pressure-compensated pump, a relief valve, an accumulator and the digging force,
 *    3 s (the dig and the start of the lift);
 *  - tests/data/slew_motor.yaml: a hydraulic motor on a joint (its torque in the joint's row,
 *    its flow from the joint's rate), 2.4 s (accelerated, then braked on a relief valve);
 *  - tests/data/crane_ls2.yaml: load-sensing valve sections (compensated meter-in edges, the
 *    pump sensing their highest load), 1.2 s (both cylinders moving);
 *  - tests/data/crane_hose.yaml: a hose of 3 lumped segments on the rod side (its segments'
 *    velocities, its internal volumes), 1.2 s (the valve opens at 0.5 s);
 *  - tests/data/cbv_lower.yaml, pilot_circuit.yaml, seat_valves.yaml: the pilot-operated
 *    valves (kernels/hs_pilot_valves.h: a counterbalance valve's spool lag, a reducing, a
 *    sequence and a shuttle valve, a pilot-operated check) and the seat valves, 1.2 s each;
 *  - tests/data/cavitation_lower.yaml (0.6 s), cavitation_closed.yaml (0.4 s): oil with
 *    entrained air (kernels/hs_fluid.h), volumes at their vapour-pressure floor.
 * (The joints' springs and the payloads, mechanisms without a circuit, whose invalid instance
 * this check draws through the fluid: tests/cli_springs.sh compares the emulated device's
 * statistics with the cpu's.) */
static void check_model_paths(const char *file, double t_end)
{
    static hs_model_desc d;
    hs_model keep = base;
    hs_batch_out ref, cpu, sp, cb;
    hs_error e;
    long n = NI, i, nstep = lround(t_end / 1e-3);
    char what[200];
    if (hs_model_load(file, &d, &e)) {
        CHECK(0, "%s loads: %s", file, e.msg);
        return;
    }
    hs_output_spec keep_spec = spec;
    base = d.model;
    base.t_end = t_end;
    base.dt = 1e-3;
    if (base.ncyl == 0) { /* no cylinder force and work: the joint rate and the kinetic energy (the
                             scale of E_balance in stat_diff) */
        spec.sig[2].kind = HS_SIG_ZD;
        spec.sig[3].kind = HS_SIG_EKIN;
    }
    run(HS_BACKEND_REFERENCE, 0, vals, n, &ref);
    run(HS_BACKEND_CPU, 0, vals, n, &cpu);
    run(HS_BACKEND_GPU, PATH_SPEC, vals, n, &sp);
    run(HS_BACKEND_GPU, PATH_CUBLAS, vals, n, &cb);
    for (i = 0; i < n; ++i)
        if (i != 5)
            CHECK(ref.status[i] == 0 && ref.steps[i] == nstep, "%s: instance %ld completes (status %d)", file, i,
                  ref.status[i]);
    snprintf(what, sizeof what, "%s: gpu specialised vs reference", file);
    compare(what, &sp, &ref, n);
    snprintf(what, sizeof what, "%s: gpu specialised vs cpu batch", file);
    compare(what, &sp, &cpu, n);
    snprintf(what, sizeof what, "%s: gpu cublas vs reference", file);
    compare(what, &cb, &ref, n);
    CHECK(sp.status[5] == HS_ST_INVALID && cb.status[5] == HS_ST_INVALID,
          "%s: the invalid instance flagged on every path", file);
    hs_batch_out_free(&ref);
    hs_batch_out_free(&cpu);
    hs_batch_out_free(&sp);
    hs_batch_out_free(&cb);
    hs_model_desc_free(&d);
    base = keep;
    spec = keep_spec;
}

/* The double-step formulation (integrator.formulation = double_step) on every GPU path: the
 * specialised kernel and the cuBLAS path (its batched solve takes the
 * dependent coordinate's unit rows like any others) against the reference backend. */
static void check_double_step(void)
{
    hs_batch_out ref, sp, cb;
    long n = NI, i;
    base.formulation = HS_FORM_DOUBLE_STEP;
    run(HS_BACKEND_REFERENCE, 0, vals, n, &ref);
    run(HS_BACKEND_GPU, PATH_SPEC, vals, n, &sp);
    run(HS_BACKEND_GPU, PATH_CUBLAS, vals, n, &cb);
    base.formulation = HS_FORM_PENALTY;
    for (i = 0; i < n; ++i)
        if (i != 5) CHECK(ref.status[i] == 0 && ref.steps[i] == 1200, "double-step: instance %ld completes", i);
    compare("double-step: gpu specialised vs reference", &sp, &ref, n);
    compare("double-step: gpu cublas vs reference", &cb, &ref, n);
    hs_batch_out_free(&ref);
    hs_batch_out_free(&sp);
    hs_batch_out_free(&cb);
}

/* What a progress callback was told. */
typedef struct prog_rec {
    long n, seen[1 << 16];
    long stop_call; /* > 0: ask to stop at this call */
} prog_rec;

static int prog_cb(void *ctx, long done)
{
    prog_rec *r = (prog_rec *)ctx;
    if (r->n < (long)(sizeof r->seen / sizeof r->seen[0])) r->seen[r->n++] = done;
    return r->stop_call > 0 && r->n >= r->stop_call;
}

/* Progress on the device, every path: 4096 instances (the setup's values repeated; 64 on the
 * emulated device, which runs them on the host). */
static void check_progress(void)
{
    static double v[3 * 4096];
    static prog_rec r;
    static const char *const paths[] = {"specialised", "cublas"};
#ifdef HS_GPU_EMULATION
    const long cnt = 64;
#else
    const long cnt = 4096;
#endif
    long i, k;
    int p;
    for (i = 0; i < 3 * cnt; ++i) v[i] = vals[i % (3 * NI)];
    for (p = 0; p < 2; ++p) {
        hs_batch_out a, b;
        hs_batch_job job;
        hs_error err;
        long inner = 0;
        int rc, mono = 1;
        if (p == 1 && !HAVE_CUBLAS) continue;
        setenv("HS_GPU_PATH", paths[p], 1);
        CHECK(conf_job(&job, v, cnt, &a) == 0, "alloc");
        CHECK(hs_backend_gpu(&job, &err) == 0, "%s without progress: %s", paths[p], err.msg);
        memset(&r, 0, sizeof r);
        CHECK(conf_job(&job, v, cnt, &b) == 0, "alloc");
        job.progress = prog_cb;
        job.progress_ctx = &r;
        rc = hs_backend_gpu(&job, &err);
        for (k = 0; k < r.n; ++k) {
            if (k > 0 && r.seen[k] < r.seen[k - 1]) mono = 0;
            if (r.seen[k] > 0 && r.seen[k] < cnt && (k == 0 || r.seen[k] != r.seen[k - 1])) ++inner;
        }
        CHECK(rc == 0 && r.n > 0 && r.seen[r.n - 1] == cnt && mono, "%s: counts rise to %ld (%ld reports): %s",
              paths[p], cnt, r.n, err.msg);
        CHECK(!memcmp(a.stats, b.stats, sizeof(double) * (size_t)(cnt * spec.nsig * HS_NSTAT)) &&
                  !memcmp(a.status, b.status, sizeof(int) * (size_t)cnt),
              "%s: bit-identical with and without progress", paths[p]);
        printf("  %s: %ld progress reports, %ld distinct counts between 0 and %ld while the kernels ran\n", paths[p],
               r.n, inner, cnt);
        hs_batch_out_free(&a);
        hs_batch_out_free(&b);
        /* stop at the first report: nothing is launched, the device stays usable */
        memset(&r, 0, sizeof r);
        r.stop_call = 1;
        CHECK(conf_job(&job, v, cnt, &b) == 0, "alloc");
        job.progress = prog_cb;
        job.progress_ctx = &r;
        rc = hs_backend_gpu(&job, &err);
        CHECK(rc == HS_ERR_INTERRUPTED, "%s: a stop request: %d %s", paths[p], rc, err.msg);
        hs_batch_out_free(&b);
    }
    unsetenv("HS_GPU_PATH");
}

int main(void)
{
    hs_batch_out ref, gpu, gpu2, cub, cub2, small, one, cpu;
    long i, k, n = NI;
    char dev[256];
    if (!hs_gpu_available(dev, sizeof dev)) {
        printf("test_conformance_gpu: FAIL: no usable CUDA device: %s\n"
               "  (this test is labelled gpu; run it where a GPU is present, e.g. scripts/gpu_session.sh)\n",
               dev);
        printf("test_conformance_gpu: 0 passed, 1 failed\n");
        return 1;
    }
    printf("  device: %s\n", dev);
    if (!HAVE_CUBLAS)
        printf("  NOTE: this build has no cuBLAS: the 'gpu cublas' checks below run the specialised path\n");
    setup();
    run(HS_BACKEND_REFERENCE, 0, vals, n, &ref);
    run(HS_BACKEND_CPU, 0, vals, n, &cpu);
    if (run(HS_BACKEND_GPU, PATH_SPEC, vals, n, &gpu)) return tu_report("test_conformance_gpu");
    run(HS_BACKEND_GPU, PATH_SPEC, vals, n, &gpu2);
    run(HS_BACKEND_GPU, PATH_CUBLAS, vals, n, &cub);
    for (i = 0; i < n; ++i) {
        if (i == 5) continue;
        CHECK(ref.status[i] == 0, "instance %ld completes (status %d)", i, ref.status[i]);
        CHECK(ref.steps[i] == 1200, "1200 steps");
    }
    compare("gpu specialised vs reference", &gpu, &ref, n);
    compare("gpu specialised vs cpu batch", &gpu, &cpu, n);
    compare("gpu cublas vs gpu specialised", &cub, &gpu, n);
    compare("gpu cublas vs reference", &cub, &ref, n);
    /* determinism */
    CHECK(!memcmp(gpu.stats, gpu2.stats, sizeof(double) * (size_t)(n * spec.nsig * HS_NSTAT)),
          "bit-identical statistics");
    CHECK(!memcmp(gpu.traj, gpu2.traj, sizeof(double) * (size_t)(n * gpu.ntime)), "bit-identical traj");
    /* sub-batches of 5 (strided copy back) */
    setenv("HS_GPU_BATCH", "5", 1);
    run(HS_BACKEND_GPU, PATH_SPEC, vals, n, &small);
    run(HS_BACKEND_GPU, PATH_CUBLAS, vals, n, &cub2);
    unsetenv("HS_GPU_BATCH");
    for (i = 0; i < n; ++i)
        CHECK(small.status[i] == gpu.status[i] && small.steps[i] == gpu.steps[i] &&
                  small.iters_mean[i] == gpu.iters_mean[i] && small.iters_max[i] == gpu.iters_max[i],
              "sub-batches of 5: instance %ld's counters", i);
    for (k = 0; k < spec.nsig * HS_NSTAT; ++k)
        for (i = 0; i < n; ++i)
            if (i != 5 && small.stats[k * n + i] != gpu.stats[k * n + i]) {
                CHECK(0, "sub-batches of 5: stat %ld of instance %ld: %.17g vs %.17g", k, i,
                      small.stats[k * n + i], gpu.stats[k * n + i]);
                k = spec.nsig * HS_NSTAT;
                break;
            }
    CHECK(!memcmp(small.traj, gpu.traj, sizeof(double) * (size_t)(n * gpu.ntime)),
          "sub-batches of 5: bit-identical traj");
    /* cuBLAS may pick another kernel for another batch size: rounding level, not bits */
    compare("gpu cublas in sub-batches of 5 vs whole", &cub2, &cub, n);
    /* the invalid instance is flagged, keeps NaN statistics, and does not disturb the others */
    CHECK(gpu.status[5] == HS_ST_INVALID && gpu.steps[5] == 0, "invalid instance flagged");
    CHECK(cub.status[5] == HS_ST_INVALID && cub.steps[5] == 0, "invalid instance flagged (cublas)");
    CHECK(isnan(gpu.stats[(1 * HS_NSTAT + HS_STAT_MAX) * n + 5]), "no statistics for it");
    CHECK(isnan(cub.stats[(1 * HS_NSTAT + HS_STAT_MAX) * n + 5]), "no statistics for it (cublas)");
    CHECK(isnan(gpu.traj[0 * n + 5]) && isnan(cub.traj[0 * n + 5]), "NaN trajectory for it");
    run(HS_BACKEND_GPU, PATH_SPEC, vals + 3 * 6, 1, &one); /* instance 6 alone */
    for (k = 0; k < spec.nsig * HS_NSTAT; ++k)
        CHECK(one.stats[k] == gpu.stats[k * n + 6], "instance 6 alone == in the batch (stat %ld)", k);
    /* trajectory: the first sample is the static start pressure */
    CHECK(gpu.ntime == 13, "13 trajectory samples");
    CHECK(fabs(gpu.traj[0 * n + 0] - ref.traj[0 * n + 0]) < 1e-6, "traj t = 0");
    CHECK(fabs(cub.traj[0 * n + 0] - ref.traj[0 * n + 0]) < 1e-6, "traj t = 0 (cublas)");
    {
        double worst = 0.0, scale = 0.0;
        for (k = 0; k < gpu.ntime * n; ++k)
            if (k % n != 5 && fabs(ref.traj[k]) > scale) scale = fabs(ref.traj[k]);
        for (k = 0; k < gpu.ntime * n; ++k) {
            double d;
            i = k % n;
            if (i == 5 || gpu.iters_mean[i] != ref.iters_mean[i]) continue;
            d = fabs(gpu.traj[k] - ref.traj[k]) / scale;
            if (!(d <= worst)) worst = d;
        }
        printf("  gpu specialised vs reference: max relative difference of the trajectory %.3e\n", worst);
        CHECK(worst < 5e-9, "trajectory equal to rounding: %.3e", worst);
    }
    hs_batch_out_free(&ref);
    hs_batch_out_free(&cpu);
    hs_batch_out_free(&gpu);
    hs_batch_out_free(&gpu2);
    hs_batch_out_free(&cub);
    hs_batch_out_free(&cub2);
    hs_batch_out_free(&small);
    hs_batch_out_free(&one);
    /* a diverging instance: an absurdly soft oil (1 kPa) makes the valve volume's pressure
     * equation ill-posed; whatever happens it must be flagged or finish, never crash */
    {
        double v2[6] = {1200e6, 200, 550e6, 1e3, 200, 550e6};
        hs_batch_out o2, o3;
        run(HS_BACKEND_GPU, PATH_SPEC, v2, 2, &o2);
        run(HS_BACKEND_GPU, PATH_CUBLAS, v2, 2, &o3);
        CHECK(o2.status[0] == 0 && o3.status[0] == 0, "normal instance next to a diverging one completes");
        printf("  soft-oil instance: status %d after %ld steps (specialised), %d after %ld (cublas)\n",
               o2.status[1], o2.steps[1], o3.status[1], o3.steps[1]);
        CHECK(o2.status[1] != 0 || o2.steps[1] == 1200, "soft oil: flagged or completed");
        CHECK(o3.status[1] != 0 || o3.steps[1] == 1200, "soft oil: flagged or completed (cublas)");
        hs_batch_out_free(&o2);
        hs_batch_out_free(&o3);
    }
    /* an unknown path is refused, not silently replaced */
    {
        hs_batch_out o4;
        hs_batch_job job;
        hs_error err;
        CHECK(conf_job(&job, vals, 1, &o4) == 0, "alloc");
        setenv("HS_GPU_PATH", "warp", 1);
        CHECK(hs_backend_gpu(&job, &err) == HS_ERR_ARG, "HS_GPU_PATH=warp is an error");
        unsetenv("HS_GPU_PATH");
        hs_batch_out_free(&o4);
    }
    check_specialised();
    check_double_step();
    check_model_paths("tests/data/crane_ls.yaml", 1.2);
    check_model_paths("tests/data/crane_fcv.yaml", 1.2);
    check_model_paths("models/excavator_front.yaml", 3.0);
    check_model_paths("tests/data/slew_motor.yaml", 2.4);
    check_model_paths("tests/data/crane_ls2.yaml", 1.2);
    check_model_paths("tests/data/crane_hose.yaml", 1.2);
    check_model_paths("tests/data/cbv_lower.yaml", 1.2);
    check_model_paths("tests/data/pilot_circuit.yaml", 1.2);
    check_model_paths("tests/data/seat_valves.yaml", 1.2);
    check_model_paths("tests/data/cavitation_lower.yaml", 0.6);
    check_model_paths("tests/data/cavitation_closed.yaml", 0.4);
    check_progress();
    check_quantiles();
    return tu_report("test_conformance_gpu");
}
