/* test_tree_gpu_emul.cpp -- host/gpu/backend_gpu_tree.cu (the GPU backend of tree ensembles, the
 * Riccati formulation of seed 002; kernels/hs_tree_kernel.cuh) on the emulated device
 * (hs_cuda_emul.h), through the sweep API (hs_sweep_load_text, hs_run_range) as `run -b gpu`
 * takes it:
 *  - the branch pendulum of seed 002 Sect. 5.1 (models/branch_pendulum_rui2020.yaml) swept as
 *    sweeps/branch_pendulum_mc.yaml sweeps it (masses and lengths: each instance its own copy
 *    of the bodies' numbers; a joint force and trajectories recorded), 40 instances to 0.2 s;
 *    the same with initial states and gravity only (the bodies' numbers shared) and the
 *    default signals; the N = 999 branch system of Sect. 5.2 (500 bodies, ball joints, chains:
 *    iq, iv, rot0 and chain_of uploaded), a few instances over a few steps: every status 0,
 *    every statistic and trajectory sample equal to the cpu backend's within 1e-12 relative
 *    (the emulated kernel is the same C code compiled as C++ with -ffp-contract=off: bit for
 *    bit expected; the largest difference is printed);
 *  - sub-batches (HS_GPU_BATCH=7) and several instances per thread (HS_GPU_THREADS=3) equal
 *    the whole run to the bit;
 *  - devices around the smallest that takes one instance: below it a clear error naming the
 *    block's bytes, above it sub-batches and fewer pool slots with equal results, peak device
 *    memory within the plan;
 *  - the k-th cudaMalloc failing, and kernel launches faulting (at once or deferred): the
 *    error with CUDA's message, nothing leaked;
 *  - the kernel's threads on 4 OS threads at once (a pool slot or output row shared by
 *    mistake collides): results unchanged;
 *  - progress with asynchronous kernels: counts rise to the job's size; a stop request skips
 *    what has not started (HS_ERR_INTERRUPTED, nothing leaked);
 *  - in every run: no misuse of the device API and no leak. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hs_cuda_emul.h"

#include "gpu/backend_gpu_util.cuh" /* backend.h, HS_GPU_BLOCK */
#include "results/batch_out.h"
#include "../test_util.h"
#include "hs/run.h"
#include "hs/sweep.h"
#include "tree/tree_params.h"
#include "emul_checks.h"

/* A sweep over a tree model, loaded, with its sizes. */
typedef struct tcase {
    const char *name;
    hs_sweep *sw;
    hs_model_desc *md;
    long n, ntime;
    hs_tree_ens e; /* the ensemble model of a job (sizes, flags) */
} tcase;

static int tcase_load(tcase *c, const char *name, const char *text, long n)
{
    hs_error err;
    hs_override_spec ov;
    memset(c, 0, sizeof *c);
    c->name = name;
    c->n = n;
    c->sw = (hs_sweep *)calloc(1, sizeof *c->sw);
    c->md = (hs_model_desc *)calloc(1, sizeof *c->md);
    if (!c->sw || !c->md) return -1;
    /* the model path is resolved against the sweep's: as if the text were a file of sweeps/ */
    if (hs_sweep_load_text(text, "sweeps/test_tree_gpu_emul.yaml", c->sw, c->md, &err) ||
        hs_sweep_apply_simulation(c->sw, c->md, &err)) {
        printf("%s: %s\n", name, err.msg);
        return -1;
    }
    if (!c->md->tree) return -1;
    c->ntime = hs_traj_count(hs_instance_steps(c->md->model.t_end, c->md->model.dt), c->sw->out.traj_every);
    hs_sweep_overrides(c->sw, c->md, &ov);
    return hs_tree_ens_of(c->md->tree, c->md, &ov, &c->sw->out, c->md->model.t_end, c->md->model.dt, &c->e);
}

static void tcase_free(tcase *c)
{
    if (c->sw) hs_sweep_free(c->sw);
    if (c->md) hs_model_desc_free(c->md);
    free(c->sw);
    free(c->md);
}

/* Runs the case's instances on a backend through hs_run_range, as `validate` does. */
static int run(const tcase *c, int backend, hs_batch_out *o, hs_error *err)
{
    memset(err, 0, sizeof *err);
    if (hs_batch_out_alloc(o, c->n, &c->sw->out, c->ntime)) return -1;
    return hs_run_range(c->sw, c->md, backend, 1, NULL, c->n, o, err);
}

/* The largest relative difference of a's statistics and trajectory samples from b's (NaN
 * against NaN: none; NaN against a number: infinite); -1 when the statuses or step counts
 * differ. */
static double maxdiff(const tcase *c, const hs_batch_out *a, const hs_batch_out *b)
{
    long n = a->n, k, rows = (long)c->sw->out.nsig * HS_NSTAT, trows = (long)c->sw->out.ntraj * a->ntime;
    double m = 0.0;
    if (a->n != b->n || a->ntime != b->ntime) return -1.0;
    for (k = 0; k < n; ++k)
        if (a->status[k] != b->status[k] || a->steps[k] != b->steps[k]) return -1.0;
    for (int pass = 0; pass < 2; ++pass) {
        const double *x = pass ? a->traj : a->stats, *y = pass ? b->traj : b->stats;
        long nv = (pass ? trows : rows) * n;
        if (!x || !y) continue;
        for (k = 0; k < nv; ++k) {
            double d, s;
            if (isnan(x[k]) && isnan(y[k])) continue;
            if (isnan(x[k]) || isnan(y[k])) return INFINITY;
            d = fabs(x[k] - y[k]);
            s = fabs(y[k]) > 1e-300 ? fabs(y[k]) : 1e-300;
            if (d / s > m && d > 0.0) m = d / s;
        }
    }
    return m;
}

static int same(const tcase *c, const hs_batch_out *a, const hs_batch_out *b)
{
    return emul_same(a, b, c->sw->out.nsig, c->sw->out.ntraj);
}

/* cpu against gpu: statuses 0, statistics within 1e-12 relative; returns the cpu's outputs
 * in cpu (the caller frees them). */
static void check_equal(const tcase *c, hs_batch_out *cpu)
{
    hs_batch_out g;
    hs_error err;
    int rc, zero = 1;
    long k;
    double d;
    hs_emul_reset();
    rc = run(c, HS_BACKEND_CPU, cpu, &err);
    CHECK(rc == 0, "%s: cpu backend runs (%s)", c->name, err.msg);
    rc = run(c, HS_BACKEND_GPU, &g, &err);
    CHECK(rc == 0, "%s: gpu backend (emulated) runs (%s)", c->name, err.msg);
    clean(c->name);
    for (k = 0; k < c->n; ++k)
        if (cpu->status[k] != 0 || g.status[k] != 0) zero = 0;
    CHECK(zero, "%s: every instance's status 0 on both backends", c->name);
    d = maxdiff(c, &g, cpu);
    CHECK(d >= 0.0 && d <= 1e-12, "%s: gpu statistics and trajectories within 1e-12 of the cpu's (max %.3g)",
          c->name, d);
    printf("  %s: %ld instances of %d bodies (%ld doubles per instance block, own copy of the bodies' numbers: %s, "
           "forces: %s), %ld steps; max relative difference gpu vs cpu %.3g (%s)\n",
           c->name, c->n, c->e.base.nbody, hs_tree_inst_doubles(&c->e), c->e.own_par ? "yes" : "no",
           c->e.forces ? "yes" : "no", hs_instance_steps(c->e.t_end, c->e.dt), d,
           same(c, &g, cpu) ? "bit-identical" : "not bit-identical");
    hs_batch_out_free(&g);
}

/* HS_GPU_BATCH=7 (sub-batches), HS_GPU_THREADS=3 (several instances per thread): the whole
 * run's results to the bit. */
static void check_shapes(const tcase *c, const hs_batch_out *want)
{
    static const char *threads[] = {"", "3", "1"}, *batch[] = {"7", "", "5"};
    int k;
    for (k = 0; k < 3; ++k) {
        hs_batch_out o;
        hs_error err;
        int rc;
        hs_emul_reset();
        setenv("HS_GPU_THREADS", threads[k], 1);
        setenv("HS_GPU_BATCH", batch[k], 1);
        rc = run(c, HS_BACKEND_GPU, &o, &err);
        CHECK(rc == 0 && same(c, &o, want), "%s, threads '%s', batch '%s': runs, equal to the bit (%s)", c->name,
              threads[k], batch[k], err.msg);
        if (batch[k][0]) {
            long b = atol(batch[k]), nsub = (c->n + b - 1) / b;
            CHECK(hs_emul_count.launches_of_first == nsub, "%s: %ld sub-batches of %ld (%ld launches)", c->name,
                  nsub, b, hs_emul_count.launches_of_first);
        }
        CHECK(hs_emul_count.max_block <= HS_GPU_BLOCK && hs_emul_count.max_block % 32 == 0,
              "%s: blocks of whole warps within the launch bound (%u)", c->name, hs_emul_count.max_block);
        clean("shapes");
        hs_batch_out_free(&o);
    }
    unsetenv("HS_GPU_THREADS");
    unsetenv("HS_GPU_BATCH");
}

/* One run on a device of mem bytes: 0 ran whole, 1 in sub-batches, 2 refused, -1 wrong. */
static int run_on(const tcase *c, size_t mem, const hs_batch_out *want)
{
    hs_batch_out o;
    hs_error err;
    int rc, r;
    char what[160];
    size_t blk = sizeof(double) * (size_t)hs_tree_inst_doubles(&c->e);
    hs_emul_reset();
    hs_emul.mem_total = mem;
    rc = run(c, HS_BACKEND_GPU, &o, &err);
    snprintf(what, sizeof what, "%s on a device of %zu bytes", c->name, mem);
    clean(what);
    {
        /* the plan: free memory less a reserve of 5 % of the device (at least 256 MiB) and
         * the stack of every thread the device can hold */
        size_t reserve = mem / 20 > ((size_t)256 << 20) ? mem / 20 : ((size_t)256 << 20);
        size_t stack = (hs_emul.local_bytes + 1024) * (size_t)hs_emul.sms * (size_t)hs_emul.threads_per_sm;
        CHECK(hs_emul_count.peak_bytes == 0 || hs_emul_count.peak_bytes + stack + reserve <= mem,
              "%s: peak %zu bytes within the plan (%zu)", what, hs_emul_count.peak_bytes,
              mem > stack + reserve ? mem - stack - reserve : 0);
    }
    if (rc == 0) {
        r = hs_emul_count.launches_of_first > 1 ? 1 : 0;
        if (want && !same(c, &o, want)) {
            CHECK(0, "%s: results equal to the bit (%ld sub-batches)", what, hs_emul_count.launches_of_first);
            r = -1;
        }
    } else {
        char bytes[64];
        int clear;
        snprintf(bytes, sizeof bytes, "its block of %zu bytes", blk);
        clear = rc == HS_ERR_IO && strstr(err.msg, "not enough free device memory") && strstr(err.msg, bytes);
        CHECK(clear, "%s: a clear error naming the block's bytes when nothing fits (%d: %s)", what, rc, err.msg);
        r = clear ? 2 : -1;
    }
    hs_batch_out_free(&o);
    return r;
}

/* The smallest device that takes the job (bisection), devices just below (refused, the
 * message naming the block) and above it (sub-batches, then whole runs): results equal. */
static void check_small_devices(const tcase *c, const hs_batch_out *want)
{
    size_t lo = (size_t)256 << 20, hi = (size_t)1 << 30, blk = sizeof(double) * (size_t)hs_tree_inst_doubles(&c->e);
    size_t above[6];
    int k, n[3] = {0, 0, 0}, r;
    above[0] = 64;
    above[1] = blk;
    above[2] = 3 * blk;
    above[3] = 8 * blk + (size_t)64 * 1024;
    above[4] = (size_t)4 << 20;
    above[5] = (size_t)64 << 20;
    CHECK(run_on(c, lo, NULL) == 2 && run_on(c, hi, NULL) == 0, "%s: bisection brackets", c->name);
    while (hi - lo > 64) {
        size_t mid = lo + (hi - lo) / 2;
        if (run_on(c, mid, NULL) == 2) lo = mid;
        else hi = mid;
    }
    r = run_on(c, hi - 1024, want);
    CHECK(r == 2, "%s: a device 1 KiB below the smallest refuses", c->name);
    if (r >= 0) ++n[r];
    for (k = 0; k < 6; ++k) {
        r = run_on(c, hi + above[k], want);
        CHECK(r >= 0, "%s: device of %zu bytes above the smallest", c->name, above[k]);
        if (r >= 0) ++n[r];
    }
    printf("  %s: smallest device %.3f MiB (block %zu B); %d sizes ran whole, %d in sub-batches, %d refused\n",
           c->name, (double)hi / 1048576.0, blk, n[0], n[1], n[2]);
    CHECK(n[0] > 0 && n[1] > 0 && n[2] > 0, "%s: the sizes cover whole, split and refused runs", c->name);
}

/* The k-th cudaMalloc of a run fails, for every k; kernel launches fault, at once and deferred. */
static void check_faults(const tcase *c)
{
    hs_batch_out o;
    hs_error err;
    long nmalloc, nlaunch, k;
    int rc;
    hs_emul_reset();
    setenv("HS_GPU_BATCH", "16", 1); /* several launches */
    rc = run(c, HS_BACKEND_GPU, &o, &err);
    CHECK(rc == 0, "%s: a clean run (%s)", c->name, err.msg);
    hs_batch_out_free(&o);
    nmalloc = hs_emul_count.mallocs;
    nlaunch = hs_emul_count.launches;
    for (k = 1; k <= nmalloc; ++k) {
        hs_emul_reset();
        hs_emul.fail_malloc_at = k;
        rc = run(c, HS_BACKEND_GPU, &o, &err);
        CHECK(rc == HS_ERR_IO && strstr(err.msg, "cudaMalloc") && strstr(err.msg, "cudaErrorMemoryAllocation"),
              "%s: cudaMalloc %ld of %ld fails: %d %s", c->name, k, nmalloc, rc, err.msg);
        clean("cudaMalloc failure");
        hs_batch_out_free(&o);
    }
    for (int deferred = 0; deferred < 2; ++deferred)
        for (k = 1; k <= nlaunch; ++k) {
            hs_emul_reset();
            hs_emul.fail_launch_at = k;
            hs_emul.fault_deferred = deferred;
            rc = run(c, HS_BACKEND_GPU, &o, &err);
            CHECK(rc == HS_ERR_NUMERIC && strstr(err.msg, "cudaErrorLaunchFailure"), "%s: launch %ld of %ld faults (%s): %d %s",
                  c->name, k, nlaunch, deferred ? "deferred" : "immediate", rc, err.msg);
            clean("launch fault");
            hs_batch_out_free(&o);
        }
    unsetenv("HS_GPU_BATCH");
    printf("  %s: %ld cudaMalloc, %ld launches per run; each failure reported and cleaned up\n", c->name, nmalloc,
           nlaunch);
}

/* The kernel's threads on 4 OS threads at once, with every resident thread and with 3. */
static void check_concurrent(const tcase *c, const hs_batch_out *want)
{
    static const char *threads[] = {"", "3"};
    for (int k = 0; k < 2; ++k) {
        hs_batch_out o;
        hs_error err;
        int rc;
        hs_emul_reset();
        hs_emul.workers = 4;
        setenv("HS_GPU_THREADS", threads[k], 1);
        rc = run(c, HS_BACKEND_GPU, &o, &err);
        CHECK(rc == 0 && same(c, &o, want), "%s, threads '%s', kernel on 4 OS threads: equal to the bit (%s)",
              c->name, threads[k], err.msg);
        clean("concurrent kernel");
        hs_batch_out_free(&o);
    }
    unsetenv("HS_GPU_THREADS");
}

/* The backend called directly with a progress callback (hs_run_range passes none), the
 * sampled values the sweep draws. */
static int run_job(const tcase *c, prog_rec *r, hs_batch_out *o, hs_error *err)
{
    hs_batch_job job;
    double *v = (double *)malloc(sizeof(double) * (size_t)c->n * (size_t)(c->e.nov > 0 ? c->e.nov : 1));
    long i;
    int j, rc;
    memset(err, 0, sizeof *err);
    if (!v || hs_batch_out_alloc(o, c->n, &c->sw->out, c->ntime)) {
        free(v);
        return -1;
    }
    for (i = 0; i < c->n; ++i)
        for (j = 0; j < c->e.nov; ++j) v[i * c->e.nov + j] = hs_sweep_sample(c->sw, i, j);
    memset(&job, 0, sizeof job);
    job.spec = &c->sw->out;
    job.cnt = c->n;
    job.values = v;
    job.out = o;
    job.tree = &c->e;
    r->caller = pthread_self();
    job.progress = prog_cb;
    job.progress_ctx = r;
    rc = hs_backend_gpu_tree(&job, err);
    free(v);
    return rc;
}

static void check_progress(const tcase *c, const hs_batch_out *want)
{
    static prog_rec r;
    hs_batch_out o;
    hs_error err;
    long k;
    int rc, up = 1;
    memset(&r, 0, sizeof r);
    hs_emul_reset();
    hs_emul.async = 1;
    rc = run_job(c, &r, &o, &err);
    for (k = 1; k < r.n; ++k)
        if (r.seen[k] < r.seen[k - 1]) up = 0;
    CHECK(rc == 0 && same(c, &o, want), "%s, asynchronous kernel with progress: equal to the bit (%s)", c->name,
          err.msg);
    CHECK(r.n > 0 && r.seen[0] == 0 && r.seen[r.n - 1] == c->n && up && !r.not_host,
          "%s: counts from 0 up to %ld, never down, from the calling thread (%ld reports, last %ld)", c->name, c->n,
          r.n, r.n ? r.seen[r.n - 1] : -1L);
    CHECK(hs_emul_count.host_allocs == 1, "%s: one pinned counter per job (%ld)", c->name, hs_emul_count.host_allocs);
    clean("progress");
    hs_batch_out_free(&o);
    /* a stop request in the middle of the first sub-batch's kernel */
    memset(&r, 0, sizeof r);
    hs_emul_reset();
    hs_emul.async = 1;
    setenv("HS_GPU_BATCH", "20", 1);
    setenv("HS_GPU_THREADS", "1", 1); /* one instance after another: the stop lands mid-kernel */
    r.stop_at = 2;
    rc = run_job(c, &r, &o, &err);
    CHECK(rc == HS_ERR_INTERRUPTED && strstr(err.msg, "stopped"), "%s: a stop request: %d %s", c->name, rc, err.msg);
    CHECK(r.n > 0 && r.seen[r.n - 1] >= 2 && r.seen[r.n - 1] < 20, "%s: stopped within the first sub-batch (%ld ran)",
          c->name, r.n ? r.seen[r.n - 1] : -1L);
    clean("stop request");
    hs_batch_out_free(&o);
    unsetenv("HS_GPU_BATCH");
    unsetenv("HS_GPU_THREADS");
}

/* seed 002 Sect. 5.1 as sweeps/branch_pendulum_mc.yaml sweeps it, to 0.2 s */
static const char *const k_pendulum_mc =
    "model: ../models/branch_pendulum_rui2020.yaml\n"
    "method: monte_carlo\n"
    "instances: 40\n"
    "seed: 2020\n"
    "parameters:\n"
    "  body.rod1.mass: {uniform: [0.8 kg, 1.2 kg]}\n"
    "  body.rod3.length: {uniform: [0.8 m, 1.2 m]}\n"
    "  joint.hinge2.z0: {normal: {mean: 90 deg, sd: 10 deg}}\n"
    "  joint.hinge9.zdot0: {uniform: [-1 rad/s, 1 rad/s]}\n"
    "outputs:\n"
    "  signals: [hinge9, hinge4, rod3.y, F_hinge9, E_kin, E_balance]\n"
    "  statistics: [min, max, final, rms]\n"
    "  trajectories: {every: 20, signals: [hinge9, rod3.y]}\n"
    "simulation: {t_end: 0.2 s}\n";

/* initial states and gravity only: the bodies' numbers shared; the default signals */
static const char *const k_pendulum_state =
    "model: ../models/branch_pendulum_rui2020.yaml\n"
    "method: monte_carlo\n"
    "instances: 40\n"
    "seed: 7\n"
    "parameters:\n"
    "  joint.hinge2.z0: {uniform: [60 deg, 120 deg]}\n"
    "  joint.hinge9.zdot0: {uniform: [-1 rad/s, 1 rad/s]}\n"
    "  gravity.y: {uniform: [-9.9, -9.7]}\n"
    "simulation: {t_end: 0.2 s}\n";

/* 500 bodies on ball joints, in chains */
static const char *const k_branch_system =
    "model: ../models/branch_system_rui2020.yaml\n"
    "method: monte_carlo\n"
    "instances: 6\n"
    "seed: 11\n"
    "parameters:\n"
    "  chain.right.mass: {uniform: [0.9 kg, 1.1 kg]}\n"
    "  chain.left.w0.z: {uniform: [-0.5 rad/s, 0.5 rad/s]}\n"
    "outputs:\n"
    "  signals: [E_kin, E_balance, b11.y]\n"
    "simulation: {t_end: 0.005 s}\n";

/* external loads and their signals (the tree's ext model goes to the device too) */
static const char *const k_loaded =
    "model: ../tests/data/loaded_chain.yaml\n"
    "method: monte_carlo\n"
    "instances: 12\n"
    "seed: 5\n"
    "parameters:\n"
    "  chain.link.zdot0: {uniform: [-1 rad/s, 1 rad/s]}\n"
    "outputs:\n"
    "  signals: [W_ext, E_balance, link_3.x, F_link_j2]\n"
    "simulation: {t_end: 0.2 s}\n";

int main(void)
{
    tcase pm, ps, bs, ld;
    hs_batch_out cpu_pm, cpu_ps, cpu_bs, cpu_ld;
    int ok_pm = tcase_load(&pm, "branch pendulum (masses, lengths)", k_pendulum_mc, 40) == 0,
        ok_ps = tcase_load(&ps, "branch pendulum (states, gravity)", k_pendulum_state, 40) == 0,
        ok_bs = tcase_load(&bs, "branch system N=999", k_branch_system, 6) == 0,
        ok_ld = tcase_load(&ld, "loaded chain", k_loaded, 12) == 0;
    CHECK(ok_pm && ok_ps && ok_bs && ok_ld, "the sweeps load");
    if (!(ok_pm && ok_ps && ok_bs && ok_ld)) return tu_report("test_tree_gpu_emul");
    CHECK(ld.e.base.ext && ld.e.base.ext->nload == 2, "the loaded chain has its loads");
    CHECK(pm.e.own_par && pm.e.forces && !ps.e.own_par && !ps.e.forces && bs.e.own_par && bs.e.base.iq &&
              !bs.e.base.rot0,
          "the cases cover a private and a shared copy of the bodies' numbers, forces, ball joints (and a tree "
          "whose rot0 are all the identity: none uploaded, hs_tree_rot0_view)");
    check_equal(&pm, &cpu_pm);
    check_equal(&ps, &cpu_ps);
    check_equal(&bs, &cpu_bs);
    check_equal(&ld, &cpu_ld);
    check_shapes(&pm, &cpu_pm);
    check_shapes(&bs, &cpu_bs);
    check_concurrent(&pm, &cpu_pm);
    check_concurrent(&bs, &cpu_bs);
    check_small_devices(&pm, &cpu_pm);
    check_small_devices(&bs, &cpu_bs);
    check_faults(&pm);
    check_progress(&pm, &cpu_pm);
    hs_batch_out_free(&cpu_pm);
    hs_batch_out_free(&cpu_ps);
    hs_batch_out_free(&cpu_bs);
    hs_batch_out_free(&cpu_ld);
    tcase_free(&ld);
    tcase_free(&pm);
    tcase_free(&ps);
    tcase_free(&bs);
    return tu_report("test_tree_gpu_emul");
}
