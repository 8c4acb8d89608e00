/* test_gpu_emul.cpp -- host/gpu/backend_gpu.cu, host/gpu/backend_gpu_spec.cu and
 * host/gpu/backend_gpu_cublas.cu on the emulated device (hs_cuda_emul.h, hs_nvrtc_emul.cpp), for
 * what only a device of chosen size and faults can show:
 *  - a device too small for the job: sub-batches, a smaller thread pool, bit-identical
 *    results to the cpu backend (the same host-compiled step code), peak device memory within
 *    the device; a device too small for anything: a clear error;
 *  - every cudaMalloc of a run made to fail in turn, kernel launches and cuBLAS calls made to
 *    fail: the backend returns the error with CUDA's message, frees everything, never crashes;
 *  - no driver, no device, a stack the device cannot hold: clear errors, hs_gpu_available says
 *    why;
 *  - sub-batches that do not divide the job, more instances than threads per block;
 *  - the kernels' threads on several OS threads at once (shared slots collide);
 *  - the specialised path: a compile that fails is a clear error (nothing leaked); a swept
 *    enumeration (a friction law) runs one kernel per structure (host/run/run_split.h), each
 *    instance's results those of the cpu backend;
 *  - progress with asynchronous kernels (hs_emul.async): every path counts finished instances
 *    in mapped pinned memory that the host reads while it polls the running kernel (counts
 *    rise instance by instance, end at the job's size); a stop request skips the instances not
 *    started (HS_ERR_INTERRUPTED, nothing leaked); without mapped memory the counts come per
 *    sub-batch;
 *  - in every run: no misuse of the device API (copies inside their blocks, kernel arguments in
 *    device memory, launch shapes within CUDA's limits) and no leak. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hs_cuda_emul.h"

#include "gpu/backend_gpu_util.cuh" /* the backends' own header: HS_GPU_BLOCK */
#include "results/batch_out.h"
#include "../conformance_setup.h"
#include "run/run_split.h"
#include "emul_checks.h"

enum { PATH_CUBLAS, PATH_SPEC };
static const char *path_name[] = {"cublas", "specialised"};

static prog_rec *g_prog;

/* Runs cnt instances (the conformance setup's values, repeated) on the given path; err gets
 * the message. Leaves the device's counters for the caller to read. */
static int run_gpu(int path, long cnt, hs_batch_out *o, hs_error *err)
{
    hs_batch_job job;
    static double v[3 * 4096];
    long i;
    if (cnt > 4096) return -1;
    for (i = 0; i < 3 * cnt; ++i) v[i] = vals[i % (3 * NI)];
    if (conf_job(&job, v, cnt, o)) return -1;
    memset(err, 0, sizeof *err);
    if (g_prog) {
        g_prog->caller = pthread_self();
        job.progress = prog_cb;
        job.progress_ctx = g_prog;
    }
    if (path < 0) return hs_backend_cpu(&job, 1, err);
    setenv("HS_GPU_PATH", path_name[path], 1);
    return hs_backend_gpu(&job, err);
}

static int run_cpu(long cnt, hs_batch_out *o)
{
    hs_error err;
    return run_gpu(-1, cnt, o, &err);
}

static int same(const hs_batch_out *a, const hs_batch_out *b)
{
    return emul_same(a, b, spec.nsig, spec.ntraj);
}

/* One run on a device of mem bytes: 0 ran whole, 1 in sub-batches, 2 refused, -1 wrong. */
static int run_on(int path, size_t mem, const hs_batch_out *want, long cnt)
{
    hs_batch_out o;
    hs_error err;
    int rc, r;
    char what[96];
    hs_emul_reset();
    hs_emul.mem_total = mem;
    rc = run_gpu(path, cnt, &o, &err);
    snprintf(what, sizeof what, "%s on a device of %zu bytes", path_name[path], mem);
    clean(what);
    {
        /* the backends plan with the free memory less a reserve of 5 % of the device (at least
         * 256 MiB) and the stack of every thread the device can hold; their blocks stay
         * within that, up to the few small ones outside the plan (model copy, CUB) */
        size_t reserve = mem / 20 > ((size_t)256 << 20) ? mem / 20 : ((size_t)256 << 20);
        size_t stack = (hs_emul.local_bytes + 1024) * (size_t)hs_emul.sms * (size_t)hs_emul.threads_per_sm;
        CHECK(hs_emul_count.peak_bytes == 0 || hs_emul_count.peak_bytes + stack + reserve <= mem + ((size_t)64 << 10),
              "%s: peak %zu bytes within the plan (device less reserve and stacks: %zu)", what,
              hs_emul_count.peak_bytes, mem - stack - reserve);
    }
    if (rc == 0) {
        /* specialised: one launch per sub-batch; cublas: one init launch per sub-batch */
        long nsub = hs_emul_count.launches_of_first;
        r = nsub > 1 ? 1 : 0;
        if (want) {
            int eq = same(&o, want);
            CHECK(eq, "%s: results equal to the bit (%ld sub-batches)", what, nsub);
            if (!eq) r = -1;
        }
    } else {
        int clear = rc == HS_ERR_IO && strstr(err.msg, "not enough free device memory");
        CHECK(clear, "%s: a clear error when nothing fits (%d: %s)", what, rc, err.msg);
        r = clear ? 2 : -1;
    }
    hs_batch_out_free(&o);
    return r;
}

/* Devices just below, at and above the smallest one that takes the job: refused, sub-batches,
 * whole; results always equal to want's. The smallest is found by bisection with 1 ms runs
 * (the memory plan does not depend on the duration, but for a few bytes of trajectory). */
static void check_small_devices(int path, const hs_batch_out *want, long cnt)
{
    static const size_t above[] = {(size_t)4 << 10, (size_t)16 << 10, (size_t)64 << 10, (size_t)256 << 10,
                                   (size_t)1 << 20, (size_t)4 << 20, (size_t)16 << 20, (size_t)64 << 20};
    size_t lo = (size_t)256 << 20, hi = (size_t)1 << 30;
    double t_end = base.t_end;
    int k, n[3] = {0, 0, 0};
    base.t_end = 0.001;
    CHECK(run_on(path, lo, NULL, cnt) == 2 && run_on(path, hi, NULL, cnt) == 0, "%s: bisection brackets",
          path_name[path]);
    while (hi - lo > 1024) {
        size_t mid = lo + (hi - lo) / 2;
        if (run_on(path, mid, NULL, cnt) == 2) lo = mid;
        else hi = mid;
    }
    base.t_end = t_end;
    k = run_on(path, hi - (8 << 10), want, cnt);
    if (k >= 0) ++n[k];
    for (k = 0; k < (int)(sizeof above / sizeof above[0]); ++k) {
        int r = run_on(path, hi + above[k], want, cnt);
        if (r >= 0) ++n[r];
    }
    printf("  %s: smallest device for %ld instances %.3f MiB; %d sizes ran whole, %d in sub-batches, %d refused\n",
           path_name[path], cnt, (double)hi / 1048576.0, n[0], n[1], n[2]);
    CHECK(n[0] > 0 && n[1] > 0 && n[2] > 0, "%s: the sizes cover whole, split and refused runs", path_name[path]);
}

/* The k-th cudaMalloc / launch / cuBLAS call fails, for k over the calls of a whole run. */
static void check_faults(int path, long cnt)
{
    hs_batch_out o;
    hs_error err;
    long nmalloc, nlaunch, nblas, k, step;
    int rc;
    hs_emul_reset();
    rc = run_gpu(path, cnt, &o, &err);
    CHECK(rc == 0, "%s: a clean run (%s)", path_name[path], err.msg);
    hs_batch_out_free(&o);
    nmalloc = hs_emul_count.mallocs;
    nlaunch = hs_emul_count.launches;
    nblas = hs_emul_count.blas_calls;
    for (k = 1; k <= nmalloc; ++k) {
        hs_emul_reset();
        hs_emul.fail_malloc_at = k;
        rc = run_gpu(path, cnt, &o, &err);
        CHECK(rc == HS_ERR_IO && strstr(err.msg, "cudaMalloc") && strstr(err.msg, "cudaErrorMemoryAllocation"),
              "%s: cudaMalloc %ld of %ld fails: %d %s", path_name[path], k, nmalloc, rc, err.msg);
        clean("cudaMalloc failure");
        hs_batch_out_free(&o);
    }
    step = nlaunch > 12 ? nlaunch / 12 : 1;
    for (int deferred = 0; deferred < 2; ++deferred)
        for (k = 1; k <= nlaunch; k += (k == 1 ? 1 : step)) {
            hs_emul_reset();
            hs_emul.fail_launch_at = k;
            hs_emul.fault_deferred = deferred;
            rc = run_gpu(path, cnt, &o, &err);
            /* immediate: seen by the launch check; deferred: by the next synchronising call,
             * a cuBLAS call among them (which reports its own status) */
            CHECK(rc == HS_ERR_NUMERIC && (strstr(err.msg, "cudaErrorLaunchFailure") ||
                                           (deferred && strstr(err.msg, "gpu cublas: cublasDgetr"))),
                  "%s: launch %ld of %ld faults (%s): %d %s", path_name[path], k, nlaunch,
                  deferred ? "deferred" : "immediate", rc, err.msg);
            clean("launch fault");
            hs_batch_out_free(&o);
        }
    step = nblas > 8 ? nblas / 8 : 1;
    for (k = 1; k <= nblas; k += step) {
        hs_emul_reset();
        hs_emul.fail_blas_at = k;
        rc = run_gpu(path, cnt, &o, &err);
        CHECK(rc != 0 && strstr(err.msg, "gpu cublas: "), "%s: cuBLAS call %ld of %ld fails: %d %s", path_name[path],
              k, nblas, rc, err.msg);
        clean("cuBLAS failure");
        hs_batch_out_free(&o);
    }
    printf("  %s: %ld cudaMalloc, %ld launches, %ld cuBLAS calls per run; each failure reported and cleaned up\n",
           path_name[path], nmalloc, nlaunch, nblas);
}

static void check_no_device(void)
{
    char name[256];
    hs_batch_out o;
    hs_error err;
    int rc;
    hs_emul_reset();
    hs_emul.count_error = cudaErrorInsufficientDriver;
    CHECK(!hs_gpu_available(name, sizeof name), "no driver: no GPU");
    CHECK(strstr(name, "none (no CUDA driver installed") != NULL, "no driver: says so: %s", name);
    rc = run_gpu(PATH_SPEC, 2, &o, &err);
    CHECK(rc == HS_ERR_ARG && strstr(err.msg, "no usable CUDA device: no CUDA driver installed"),
          "no driver: gpu backend refuses: %s", err.msg);
    hs_batch_out_free(&o);
    hs_emul_reset();
    hs_emul.device_count = 0;
    CHECK(!hs_gpu_available(name, sizeof name), "no device: no GPU");
    rc = run_gpu(PATH_CUBLAS, 2, &o, &err);
    CHECK(rc == HS_ERR_ARG && strstr(err.msg, "gpu: "), "no device: cublas path refuses: %s", err.msg);
    hs_batch_out_free(&o);
    rc = run_gpu(PATH_SPEC, 2, &o, &err);
    CHECK(rc == HS_ERR_ARG && strstr(err.msg, "gpu: "), "no device: specialised path refuses: %s", err.msg);
    hs_batch_out_free(&o);
    hs_emul_reset();
    CHECK(hs_gpu_available(name, sizeof name) && strstr(name, "emulation") && !strchr(name, ','),
          "a device: its name, without commas: %s", name);
    /* a stack frame the device cannot reserve for all its threads */
    hs_emul.local_bytes = (size_t)2 << 20; /* 2 MiB x 8192 threads = 16 GiB > 8 GiB */
    rc = run_gpu(PATH_SPEC, 2, &o, &err);
    CHECK(rc == HS_ERR_IO && strstr(err.msg, "per-thread stack size"), "huge frame: refused: %d %s", rc, err.msg);
    clean("huge frame");
    hs_batch_out_free(&o);
    hs_emul_reset();
    /* 30 KiB x 8192 threads = 248 MiB of frames: settable on 500 MiB, but with the 256 MiB
     * reserve nothing is left to plan with */
    hs_emul.local_bytes = (size_t)30 << 10;
    hs_emul.mem_total = (size_t)500 << 20;
    rc = run_gpu(PATH_SPEC, 2, &o, &err);
    CHECK(rc == HS_ERR_IO && strstr(err.msg, "not enough free device memory"),
          "a device without room for the frames: refused: %d %s", rc, err.msg);
    clean("no room for the frames");
    hs_batch_out_free(&o);
}

/* HS_GPU_BATCH not dividing the instance count, one instance per sub-batch, more instances
 * than one block. */
static void check_shapes(const hs_batch_out *cpu, const hs_batch_out *cub, long cnt)
{
    static const char *batch[] = {"", "13", "64", "1"};
    int k, p;
    for (p = PATH_CUBLAS; p <= PATH_SPEC; ++p)
        for (k = 0; k < 4; ++k) {
            hs_batch_out o;
            hs_error err;
            int rc;
            hs_emul_reset();
            setenv("HS_GPU_BATCH", batch[k], 1);
            rc = run_gpu(p, cnt, &o, &err);
            CHECK(rc == 0, "%s, batch '%s': runs (%s)", path_name[p], batch[k], err.msg);
            /* specialised: the cpu backend's engine, compiled alike; cublas: LAPACK's LU, the
             * same for every batch size */
            CHECK(rc || same(&o, p == PATH_CUBLAS ? cub : cpu), "%s, batch '%s': equal to the bit", path_name[p],
                  batch[k]);
            CHECK(hs_emul_count.max_block <= HS_GPU_BLOCK && hs_emul_count.max_block % 32 == 0,
                  "%s: blocks of whole warps within the launch bound (%u)", path_name[p], hs_emul_count.max_block);
            clean(path_name[p]);
            hs_batch_out_free(&o);
        }
    unsetenv("HS_GPU_BATCH");
}

/* The kernels' threads on 4 OS threads at once: a slot of the scratch pool or of the outputs
 * that two GPU threads share by mistake (harmless when they run one after the other) then
 * corrupts results. Per path, in one sub-batch and in sub-batches of 7. */
static void check_concurrent(const hs_batch_out *cpu, const hs_batch_out *cub, long cnt)
{
    static const char *batch[] = {"", "7"};
    int k, p;
    for (p = PATH_CUBLAS; p <= PATH_SPEC; ++p)
        for (k = 0; k < 2; ++k) {
            hs_batch_out o;
            hs_error err;
            int rc;
            hs_emul_reset();
            hs_emul.workers = 4;
            setenv("HS_GPU_BATCH", batch[k], 1);
            rc = run_gpu(p, cnt, &o, &err);
            CHECK(rc == 0 && same(&o, p == PATH_CUBLAS ? cub : cpu),
                  "%s, batch '%s', kernels on 4 OS threads: equal to the bit (%s)", path_name[p], batch[k], err.msg);
            clean("concurrent kernels");
            hs_batch_out_free(&o);
        }
    unsetenv("HS_GPU_BATCH");
}

/* the counts of r: non-decreasing, within [0, cnt]; returns how many distinct ones lie strictly
 * between 0 and cnt, -1 if the sequence is wrong */
static long prog_inner(const prog_rec *r, long cnt)
{
    long k, inner = 0;
    for (k = 0; k < r->n; ++k) {
        if (r->seen[k] < 0 || r->seen[k] > cnt || (k > 0 && r->seen[k] < r->seen[k - 1])) return -1;
        if (r->seen[k] > 0 && r->seen[k] < cnt && (k == 0 || r->seen[k] != r->seen[k - 1])) ++inner;
    }
    return inner;
}

static int split_gpu(const hs_batch_job *job, void *ctx, hs_error *err)
{
    (void)ctx;
    return hs_backend_gpu(job, err);
}

/* A specialised kernel that does not compile (the emulated NVRTC made to fail, on an output
 * spec of its own so that no earlier build is reused): a clear error with NVRTC's word,
 * nothing leaked. A swept enumeration (the friction law of the second swept value: two
 * structures, interleaved) through the run layer's split (host/run/run_split.h): one kernel
 * per structure, every instance's results those of the cpu backend (which runs the generic
 * engine on such a job), progress counting over the groups; and straight to the GPU backend
 * without the split: an error that says why, not a wrong result. */
static void check_structures(long cnt)
{
    static prog_rec r;
    hs_batch_out o, c;
    hs_error err;
    int rc, nsig = spec.nsig;
    const char *cache = getenv("HS_KERNEL_CACHE");
    char keep[1024];
    snprintf(keep, sizeof keep, "%s", cache ? cache : "");
    setenv("HS_KERNEL_CACHE", "off", 1); /* no build from an earlier run of this test */
    hs_emul_reset();
    spec.nsig = nsig - 1; /* another kernel */
    hs_emul.fail_nvrtc = 1;
    rc = run_gpu(PATH_SPEC, cnt, &o, &err);
    CHECK(rc != 0 && strstr(err.msg, "specialised"), "a failed compile: an error that says so (%d: %s)", rc, err.msg);
    CHECK(hs_emul_count.launches == 0 && hs_emul_count.nvrtc_failed == 1, "the compile was tried, failed, nothing ran");
    clean("failed compile");
    hs_batch_out_free(&o);
    /* (still nsig - 1 and no disk cache: the kernels below are built here, each once) */
    hs_emul_reset();
    ov.is_int[1] = 1; /* the second swept value an enumeration */
    ov.offset[1] = offsetof(hs_model, cyl_fric);
    {
        static double v[3 * NI];
        hs_batch_job job;
        long i, inner;
        for (i = 0; i < 3 * NI; ++i) v[i] = vals[i];
        for (i = 0; i < NI; ++i) v[3 * i + 1] = (double)(i % 2 ? HS_FRIC_BROWN_MCPHEE : HS_FRIC_LUGRE);
        conf_job(&job, v, NI, &c);
        rc = hs_backend_cpu(&job, 1, &err);
        CHECK(rc == 0, "cpu: a swept friction model runs (generic engine)");
        conf_job(&job, v, NI, &o);
        setenv("HS_GPU_PATH", "specialised", 1);
        rc = hs_backend_gpu(&job, &err);
        CHECK(rc == HS_ERR_ARG && strstr(err.msg, "structure"),
              "gpu without the split: refused, saying the structure differs (%d: %s)", rc, err.msg);
        clean("swept enumeration, no split");
        hs_batch_out_free(&o);
        conf_job(&job, v, NI, &o);
        memset(&r, 0, sizeof r);
        r.caller = pthread_self();
        job.progress = prog_cb;
        job.progress_ctx = &r;
        hs_emul_reset();
        rc = hs_run_split(&job, split_gpu, NULL, &err);
        inner = prog_inner(&r, NI);
        CHECK(rc == 0 && same(&o, &c), "gpu, split by structure: every instance equal to the cpu's (%s)", err.msg);
        /* two kernels, each built once and launched once (one sub-batch each) */
        CHECK(hs_emul_count.nvrtc_compiles == 2 && hs_emul_count.launches == 2,
              "one kernel per structure (%ld compiles, %ld launches)", hs_emul_count.nvrtc_compiles,
              hs_emul_count.launches);
        CHECK(r.n > 0 && r.seen[r.n - 1] == NI && inner >= 0, "progress over the groups rises to %d (%ld reports)",
              NI, r.n);
        clean("swept enumeration, split");
        hs_batch_out_free(&o);
        hs_batch_out_free(&c);
    }
    spec.nsig = nsig;
    if (keep[0]) setenv("HS_KERNEL_CACHE", keep, 1);
    else unsetenv("HS_KERNEL_CACHE");
    ov.is_int[1] = 0;
    ov.offset[1] = offsetof(hs_model, cyl_fp) + HS_FP_FC * sizeof(double);
}

/* Progress on every path with asynchronous kernels: the host polls the running kernel and
 * reports the device counter (mapped pinned memory), counts rising as instances end, the last
 * one the job's size, results unchanged; with the kernels' threads on 4 OS threads too (the
 * atomic count loses nothing). Then stop requests: in the middle of a kernel (the threads
 * skip what they have not started) and at the end of a sub-batch (the next is not launched);
 * and no mapped memory to be had (counts per sub-batch, the same results). */
static void check_progress(const hs_batch_out *cpu, const hs_batch_out *cub, long cnt)
{
    static prog_rec r;
    int p, workers;
    g_prog = &r;
    for (p = PATH_CUBLAS; p <= PATH_SPEC; ++p)
        for (workers = 1; workers <= 4; workers += 3) {
            hs_batch_out o;
            hs_error err;
            long inner;
            int rc;
            if (p == PATH_CUBLAS && workers > 1) continue; /* thousands of tiny kernels: slow */
            memset(&r, 0, sizeof r);
            hs_emul_reset();
            hs_emul.async = 1;
            hs_emul.workers = workers;
            rc = run_gpu(p, cnt, &o, &err);
            inner = prog_inner(&r, cnt);
            CHECK(rc == 0 && same(&o, p == PATH_CUBLAS ? cub : cpu),
                  "%s, asynchronous kernels on %d OS threads, with progress: equal to the bit (%s)", path_name[p],
                  workers, err.msg);
            CHECK(r.n > 0 && r.seen[0] == 0 && r.seen[r.n - 1] == cnt && inner >= 0,
                  "%s: counts from 0 up to %ld, never down (%ld reports, last %ld)", path_name[p], cnt, r.n,
                  r.n ? r.seen[r.n - 1] : -1L);
            /* the cuBLAS path counts per step of its host loop: the invalid instances (ended in
             * the init kernel) show before the rest; the others count while their kernel runs */
            CHECK(inner >= (p == PATH_CUBLAS ? 1 : 3), "%s: %ld distinct counts between 0 and %ld", path_name[p],
                  inner, cnt);
            CHECK(p == PATH_CUBLAS || hs_emul_count.not_ready > 0,
                  "%s: the host polled a running kernel (%ld queries, %ld not ready)", path_name[p],
                  hs_emul_count.queries, hs_emul_count.not_ready);
            CHECK(hs_emul_count.host_allocs == 1, "%s: one pinned counter per job (%ld)", path_name[p],
                  hs_emul_count.host_allocs);
            CHECK(!r.not_host, "%s: every report from the calling thread", path_name[p]);
            clean("progress");
            if (workers == 1)
                printf("  %s: %ld progress reports, %ld distinct counts inside (0, %ld), %ld polls of a running "
                       "kernel\n", path_name[p], r.n, inner, cnt, hs_emul_count.not_ready);
            hs_batch_out_free(&o);
        }
    /* stop requests */
    for (p = PATH_CUBLAS; p <= PATH_SPEC; ++p)
        for (int k = 0; k < 2; ++k) {
            hs_batch_out o;
            hs_error err;
            int rc;
            memset(&r, 0, sizeof r);
            hs_emul_reset();
            hs_emul.async = 1;
            /* k = 0: in the middle of the first sub-batch's kernel(s); k = 1: once the first
             * sub-batch (40 instances) is done */
            setenv("HS_GPU_BATCH", "40", 1);
            r.stop_at = k == 0 ? cnt / 5 : 40;
            /* in the kernel: its threads after the first stop_at wait for the host's stop
             * request, so the request lands inside it however loaded this machine is (an
             * unheld run let all 40 finish first under a parallel ctest) */
            if (k == 0 && p != PATH_CUBLAS) hs_emul.hold_after = r.stop_at;
            rc = run_gpu(p, cnt, &o, &err);
            CHECK(rc == HS_ERR_INTERRUPTED && strstr(err.msg, "stopped"), "%s: a stop request (at %ld): %d %s",
                  path_name[p], r.stop_at, rc, err.msg);
            CHECK(r.n > 0 && r.seen[r.n - 1] >= r.stop_at && r.seen[r.n - 1] < cnt && prog_inner(&r, cnt) >= 0,
                  "%s: stopped at %ld of %ld", path_name[p], r.n ? r.seen[r.n - 1] : -1L, cnt);
            /* stopped within the kernel: fewer than its sub-batch ran (the cuBLAS path stops
             * between two steps, where its lockstep instances have not ended) */
            if (k == 0 && p != PATH_CUBLAS)
                CHECK(r.seen[r.n - 1] < 40, "%s: the threads skipped what they had not started (%ld ran)",
                      path_name[p], r.seen[r.n - 1]);
            clean("stop request");
            hs_batch_out_free(&o);
        }
    unsetenv("HS_GPU_BATCH");
    /* no mapped memory: the job runs as before, progress per sub-batch */
    for (p = PATH_CUBLAS; p <= PATH_SPEC; ++p) {
        hs_batch_out o;
        hs_error err;
        int rc;
        long k, per_batch = 1;
        memset(&r, 0, sizeof r);
        hs_emul_reset();
        hs_emul.async = 1;
        hs_emul.fail_host_alloc = 1;
        setenv("HS_GPU_BATCH", "30", 1);
        rc = run_gpu(p, cnt, &o, &err);
        for (k = 0; k < r.n; ++k)
            if (r.seen[k] % 30 != 0 && r.seen[k] != cnt) per_batch = 0;
        CHECK(rc == 0 && same(&o, p == PATH_CUBLAS ? cub : cpu) && r.n > 0 && r.seen[r.n - 1] == cnt && per_batch,
              "%s without mapped memory: runs, equal to the bit, counts per sub-batch of 30 up to %ld (%s)",
              path_name[p], cnt, err.msg);
        clean("no mapped memory");
        hs_batch_out_free(&o);
    }
    unsetenv("HS_GPU_BATCH");
    g_prog = NULL;
}

int main(void)
{
    enum { N = 100 };
    hs_batch_out cpu, cub;
    hs_error err;
    setup();
    base.t_end = 0.6; /* past the valve's opening at 0.5 s: flow and motion, in half the time */
    hs_emul_reset();
    CHECK(run_cpu(N, &cpu) == 0, "cpu backend runs");
    CHECK(run_gpu(PATH_CUBLAS, N, &cub, &err) == 0, "cublas path runs: %s", err.msg);
    clean("cublas baseline");
    check_shapes(&cpu, &cub, N);
    check_concurrent(&cpu, &cub, N);
    check_small_devices(PATH_CUBLAS, &cub, N);
    check_faults(PATH_CUBLAS, NI);
    check_small_devices(PATH_SPEC, &cpu, N);
    check_faults(PATH_SPEC, NI);
    check_structures(NI);
    check_progress(&cpu, &cub, N);
    check_no_device();
    hs_batch_out_free(&cpu);
    hs_batch_out_free(&cub);
    unsetenv("HS_GPU_PATH");
    return tu_report("test_gpu_emul");
}
