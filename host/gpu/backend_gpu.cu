/* backend_gpu.cu -- the GPU batch backend's entry (DESIGN.md sect. 5): hs_backend_gpu sends a
 * job to the engine specialised to its model (host/gpu/backend_gpu_spec.cu, the default) or,
 * with HS_GPU_PATH=cublas, to the batched cuBLAS path (host/gpu/backend_gpu_cublas.cu); and the
 * helpers both share (backend_gpu_util.cuh): device checks, memory budget, per-thread stack,
 * output buffers and their copies back (sub-batches into their slices of job->out), progress
 * through mapped pinned memory. Every CUDA call is checked; a failure becomes an hs_error with
 * CUDA's own message. HS_GPU_BATCH and HS_GPU_VERBOSE are described in host/gpu/backend_gpu.h.
 * Also here: hs_gpu_available and hs_gpu_quantiles (Thrust). */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <new>

#include <thrust/device_vector.h>
#include <thrust/remove.h>
#include <thrust/sort.h>
#include <thrust/system_error.h>

#include "gpu/backend_gpu_util.cuh"

/* ---------------------------------------------------------------------------------------
 * helpers shared with backend_gpu_cublas.cu (declared in backend_gpu_util.cuh) */

int hs_gpu_fail(hs_error *err, cudaError_t e, const char *what)
{
    int code = HS_ERR_NUMERIC;
    if (e == cudaErrorMemoryAllocation) code = HS_ERR_IO;
    else if (e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver ||
             e == cudaErrorInvalidDevice || e == cudaErrorDevicesUnavailable)
        code = HS_ERR_ARG;
    /* a sticky error (illegal address, launch failure) poisons the context: clear the
     * non-sticky part so a later call in this process at least reports its own error */
    (void)cudaGetLastError();
    return hs_error_set(err, code, "", 0, 0, "backend", "gpu: %s: %s: %s", what, cudaGetErrorName(e),
                        cudaGetErrorString(e));
}

long hs_gpu_env_long(const char *name)
{
    const char *s = getenv(name);
    char *end = NULL;
    long v;
    if (!s || !*s) return 0;
    v = strtol(s, &end, 10);
    return (end && *end == '\0' && v > 0) ? v : 0;
}

int hs_gpu_verbose(void)
{
    const char *s = getenv("HS_GPU_VERBOSE");
    return s && *s && strcmp(s, "0") != 0;
}

/* "no CUDA driver installed" when there is none at all: the runtime then reports
 * cudaErrorInsufficientDriver, which reads as if a driver were merely too old. */
static const char *hs_gpu_driver_note(cudaError_t e)
{
    int v = -1;
    if (e == cudaErrorInsufficientDriver && cudaDriverGetVersion(&v) == cudaSuccess && v == 0)
        return "no CUDA driver installed; ";
    return "";
}

int hs_gpu_ready(int *sms, hs_error *err)
{
    int n = 0, dev = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess) {
        (void)cudaGetLastError();
        return hs_error_set(err, HS_ERR_ARG, "", 0, 0, "backend", "gpu: no usable CUDA device: %s%s: %s",
                            hs_gpu_driver_note(e), cudaGetErrorName(e), cudaGetErrorString(e));
    }
    if (n <= 0)
        return hs_error_set(err, HS_ERR_ARG, "", 0, 0, "backend", "gpu: no CUDA device present");
    e = cudaGetDevice(&dev);
    {   /* under mpirun each rank takes the GPU of its rank on the node, round-robin over the
         * visible devices (HS_GPU_DEVICE_INDEX, set by host/cli/cli_run.c's MPI path) */
        const char *ix = getenv("HS_GPU_DEVICE_INDEX");
        if (e == cudaSuccess && ix && *ix) dev = atoi(ix) % n;
    }
    if (e == cudaSuccess) e = cudaSetDevice(dev); /* creates the context now: errors show here */
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(sms, cudaDevAttrMultiProcessorCount, dev);
    if (e != cudaSuccess) return hs_gpu_fail(err, e, "cannot use the CUDA device");
    return HS_OK;
}

int hs_gpu_scratch_alloc(long n, hs_model **pm, hs_state **ps, hs_work **pw, hs_error *err)
{
    int rc = HS_OK;
    *pm = NULL;
    *ps = NULL;
    *pw = NULL;
    HS_GPU_TRY(cudaMalloc((void **)pm, (size_t)n * sizeof **pm), "cudaMalloc(models)");
    HS_GPU_TRY(cudaMalloc((void **)ps, (size_t)n * sizeof **ps), "cudaMalloc(states)");
    HS_GPU_TRY(cudaMalloc((void **)pw, (size_t)n * sizeof **pw), "cudaMalloc(work arrays)");
    HS_GPU_TRY(cudaMemset(*pw, 0, (size_t)n * sizeof **pw), "cudaMemset(work arrays)");
done:
    if (rc) {
        (void)cudaFree(*pw);
        (void)cudaFree(*ps);
        (void)cudaFree(*pm);
        *pm = NULL;
        *ps = NULL;
        *pw = NULL;
    }
    return rc;
}

size_t hs_gpu_budget(size_t stack_bytes_per_thread)
{
    size_t fr = 0, tot = 0, reserve;
    int dev = 0, sms = 0, tpm = 0;
    if (cudaMemGetInfo(&fr, &tot) != cudaSuccess) return 0;
    if (cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&tpm, cudaDevAttrMaxThreadsPerMultiProcessor, dev) != cudaSuccess)
        return 0;
    /* the driver backs the stack of every thread the device can hold at once, whatever the
     * grid size; plus 5% of the card (at least 256 MiB) for cuBLAS/Thrust temporaries,
     * the context and fragmentation */
    reserve = (stack_bytes_per_thread + 1024) * (size_t)sms * (size_t)tpm;
    reserve += tot / 20 > ((size_t)256 << 20) ? tot / 20 : ((size_t)256 << 20);
    return fr > reserve ? fr - reserve : 0;
}

int hs_gpu_stack(size_t need, size_t *old, hs_error *err)
{
    size_t cur = 0;
    cudaError_t e = cudaDeviceGetLimit(&cur, cudaLimitStackSize);
    *old = 0;
    /* recent drivers grow the stack at launch anyway; asking up front turns a shortage
     * into a clear error here instead of a failed launch */
    if (e == cudaSuccess && cur < need) {
        e = cudaDeviceSetLimit(cudaLimitStackSize, need);
        if (e == cudaSuccess) *old = cur;
    }
    return e == cudaSuccess ? HS_OK : hs_gpu_fail(err, e, "per-thread stack size");
}

void hs_gpu_stack_restore(size_t old)
{
    /* gives the reservation back to later calls and other users of the device; a failure
     * (a context with a sticky error) changes nothing that could be acted on */
    if (old > 0 && cudaDeviceSetLimit(cudaLimitStackSize, old) != cudaSuccess) (void)cudaGetLastError();
}

long hs_gpu_block_for(long nthreads, int sms)
{
    long bd = HS_GPU_BLOCK;
    /* fewer threads than one full block per SM: smaller blocks (whole warps) spread them over
     * more SMs, so each thread's hot scratch shares an L1 cache with fewer others */
    if (sms > 0 && nthreads < (long)sms * HS_GPU_BLOCK) bd = 32 * ((nthreads + 32L * sms - 1) / (32L * sms));
    if (bd < 32) bd = 32;
    return bd > HS_GPU_BLOCK ? HS_GPU_BLOCK : bd;
}

size_t hs_gpu_out_bytes(const hs_batch_job *job)
{
    const hs_output_spec *sp = job->spec;
    size_t b = sizeof(int) + sizeof(long) + sizeof(double) + sizeof(int);
    b += sizeof(double) * (size_t)(sp->nsig > 0 ? sp->nsig : 1) * HS_NSTAT;
    if (job->out->traj && job->out->ntime > 0)
        b += sizeof(double) * (size_t)sp->ntraj * (size_t)job->out->ntime;
    b += sizeof(double) * (size_t)job->ov->n; /* the sampled values */
    return b;
}

int hs_gpu_out_alloc(hs_gpu_out *o, const hs_batch_job *job, long cap, hs_error *err)
{
    int rc = HS_OK;
    size_t c = (size_t)cap;
    memset(o, 0, sizeof *o);
    o->cap = cap;
    o->nrows_stats = (job->spec->nsig > 0 ? job->spec->nsig : 1) * HS_NSTAT;
    o->nrows_traj = (job->out->traj && job->out->ntime > 0) ? job->spec->ntraj * (int)job->out->ntime : 0;
    o->d.ntime = job->out->ntime;
#define HS_GPU_OUT_ALLOC_(f, T) HS_GPU_TRY(cudaMalloc((void **)&o->d.f, c * sizeof(T)), "cudaMalloc(" #f ")");
    HS_BATCH_OUT_ROWS(HS_GPU_OUT_ALLOC_)
    HS_GPU_TRY(cudaMalloc((void **)&o->d.stats, c * (size_t)o->nrows_stats * sizeof(double)),
               "cudaMalloc(stats)");
    if (o->nrows_traj > 0)
        HS_GPU_TRY(cudaMalloc((void **)&o->d.traj, c * (size_t)o->nrows_traj * sizeof(double)),
                   "cudaMalloc(traj)");
done:
    if (rc) hs_gpu_out_free(o);
    return rc;
}

void hs_gpu_out_free(hs_gpu_out *o)
{
    /* cudaFree of NULL is a no-op; errors here cannot be acted on (the context may already
     * carry a sticky error that was reported) */
#define HS_GPU_OUT_FREE_(f, T) (void)cudaFree(o->d.f);
    HS_BATCH_OUT_ROWS(HS_GPU_OUT_FREE_)
    (void)cudaFree(o->d.stats);
    (void)cudaFree(o->d.traj);
    memset(o, 0, sizeof *o);
}

int hs_gpu_out_fetch(const hs_gpu_out *o, const hs_batch_job *job, long i0, long cnt, hs_error *err)
{
    int rc = HS_OK;
    hs_batch_out *h = job->out;
    size_t c = (size_t)cnt, N = (size_t)h->n;
    /* (rejected only where the host keeps it) */
#define HS_GPU_OUT_FETCH_(f, T)                                                                    \
    if (h->f || offsetof(hs_batch_out, f) != offsetof(hs_batch_out, rejected))                     \
        HS_GPU_TRY(cudaMemcpy(h->f + i0, o->d.f, c * sizeof(T), cudaMemcpyDeviceToHost), "copy back (" #f ")");
    HS_BATCH_OUT_ROWS(HS_GPU_OUT_FETCH_)
    /* rows of cnt values on the device (stride cnt), rows of N on the host (stride N) */
    if (job->spec->nsig > 0)
        HS_GPU_TRY(cudaMemcpy2D(h->stats + i0, N * sizeof(double), o->d.stats, c * sizeof(double),
                                c * sizeof(double), (size_t)job->spec->nsig * HS_NSTAT,
                                cudaMemcpyDeviceToHost),
                   "copy back (stats)");
    if (o->nrows_traj > 0)
        HS_GPU_TRY(cudaMemcpy2D(h->traj + i0, N * sizeof(double), o->d.traj, c * sizeof(double),
                                c * sizeof(double), (size_t)o->nrows_traj, cudaMemcpyDeviceToHost),
                   "copy back (traj)");
done:
    return rc;
}

int hs_gpu_const_upload(const hs_batch_job *job, hs_gpu_const **dc, hs_error *err)
{
    int rc = HS_OK;
    hs_gpu_const *h = (hs_gpu_const *)malloc(sizeof *h);
    *dc = NULL;
    if (!h) return hs_error_set(err, HS_ERR_IO, "", 0, 0, "backend", "gpu: out of host memory");
    h->base = *job->base;
    h->ov = *job->ov;
    h->spec = *job->spec;
    HS_GPU_TRY(cudaMalloc((void **)dc, sizeof **dc), "cudaMalloc(model)");
    HS_GPU_TRY(cudaMemcpy(*dc, h, sizeof *h, cudaMemcpyHostToDevice), "copy of the model");
done:
    if (rc && *dc) {
        (void)cudaFree(*dc);
        *dc = NULL;
    }
    free(h);
    return rc;
}

/* ---------------------------------------------------------------------------------------
 * progress: the device counter and the polling wait (backend_gpu_util.cuh) */

void hs_gpu_watch_open(hs_gpu_watch *w, const hs_batch_job *job)
{
    void *h = NULL, *d = NULL;
    memset(w, 0, sizeof *w);
    if (!job->progress) return;
    /* mapped pinned host memory: the kernels write it over the bus, the host reads it while
     * they run; without it (a failure here is not the job's) progress comes per sub-batch */
    if (cudaHostAlloc(&h, sizeof(hs_gpu_ctl), cudaHostAllocMapped) != cudaSuccess) {
        (void)cudaGetLastError();
        return;
    }
    if (cudaHostGetDevicePointer(&d, h, 0) != cudaSuccess) {
        (void)cudaGetLastError();
        (void)cudaFreeHost(h);
        return;
    }
    w->h = (hs_gpu_ctl *)h;
    w->d = (hs_gpu_ctl *)d;
    w->h->done = 0;
    w->h->stop = 0;
}

void hs_gpu_watch_close(hs_gpu_watch *w)
{
    /* (synchronises: no kernel may still write it) */
    if (w->h && cudaFreeHost(w->h) != cudaSuccess) (void)cudaGetLastError();
    w->h = w->d = NULL;
}

void hs_gpu_watch_report(hs_gpu_watch *w, const hs_batch_job *job, long done)
{
    if (!job->progress) return;
    if (done < w->shown) done = w->shown;
    if (done > job->cnt) done = job->cnt;
    w->shown = done;
    if (job->progress(job->progress_ctx, done) && !w->stop) {
        w->stop = 1;
        if (w->h) *(volatile int *)&w->h->stop = 1; /* the threads start no further instance */
    }
}

long hs_gpu_watch_count(const hs_gpu_watch *w, long none)
{
    return w->h ? (long)*(const volatile unsigned long long *)&w->h->done : none;
}

cudaError_t hs_gpu_wait(hs_gpu_watch *w, const hs_batch_job *job, long i_end)
{
    long ns = 100000; /* 0.1 ms, doubling to 10 ms: short kernels are not slowed down */
    cudaError_t e;
    for (;;) {
        struct timespec ts;
        e = cudaStreamQuery(0);
        if (e != cudaErrorNotReady) break;
        {
            long c = hs_gpu_watch_count(w, w->shown);
            hs_gpu_watch_report(w, job, c < i_end ? c : i_end);
        }
        ts.tv_sec = 0;
        ts.tv_nsec = ns;
        nanosleep(&ts, NULL);
        if (ns < 10000000L) ns *= 2;
    }
    /* a query that found the work unfinished may leave cudaErrorNotReady as the last error */
    (void)cudaGetLastError();
    if (e == cudaSuccess) {
        long c = hs_gpu_watch_count(w, i_end);
        hs_gpu_watch_report(w, job, c < i_end ? c : i_end);
    }
    return e;
}

int hs_gpu_sub_batch_finish(hs_gpu_watch *w, const hs_batch_job *job, const hs_gpu_out *o, long i0, long cnt,
                            const char *what, hs_error *err)
{
    int rc = HS_OK;
    HS_GPU_TRY(hs_gpu_wait(w, job, i0 + cnt), what);
    HS_GPU_TRY(cudaDeviceSynchronize(), what);
    if (w->stop && w->shown < i0 + cnt) /* instances were skipped */
        return hs_error_set(err, HS_ERR_INTERRUPTED, "", 0, 0, "backend", "gpu: stopped after %ld of %ld instances",
                            w->shown, job->cnt);
    rc = hs_gpu_out_fetch(o, job, i0, cnt, err);
done:
    return rc;
}

/* ---------------------------------------------------------------------------------------
 * entry points of host/engine/backend.h (C linkage from its extern "C" include) */

#ifdef HS_GPU_NO_CUBLAS
extern "C" int hs_backend_gpu_cublas(const hs_batch_job *job, hs_error *err)
{
    (void)job;
    return hs_error_set(err, HS_ERR_ARG, "", 0, 0, "HS_GPU_PATH",
                        "this build has no cuBLAS (the CUDA toolkit it was built with lacks it)");
}
#endif

int hs_backend_gpu(const hs_batch_job *job, hs_error *err)
{
    const char *path = getenv("HS_GPU_PATH");
    if (!path || !*path || !strcmp(path, "specialised")) {
        char why[512];
        int rc = hs_backend_gpu_spec(job, why, sizeof why, err);
        if (rc || !why[0]) return rc;
        /* a job that varies the structure comes here in groups of one structure
         * (host/run/run_split.h); what is left is a build that failed */
        return hs_error_set(err, HS_ERR_ARG, "", 0, 0, "backend", "gpu: the specialised engine cannot run this job: %s",
                            why);
    }
    if (!strcmp(path, "cublas")) {
        if (job->base->newton == HS_NEWTON_MODIFIED)
            return hs_error_set(err, HS_ERR_ARG, "", 0, 0, "HS_GPU_PATH",
                                "the cublas path solves every Newton iteration afresh: it runs "
                                "integrator.newton: full (or auto with fixed steps) only");
        if (job->base->step != HS_STEP_FIXED)
            return hs_error_set(err, HS_ERR_ARG, "", 0, 0, "HS_GPU_PATH",
                                "the cublas path advances all instances in lockstep, one step of dt "
                                "at a time: it runs integrator.step: fixed only (adaptive steps run "
                                "on the specialised path, the default)");
        {
            int k, cosim = job->base->coupling == HS_COUPLE_COSIM;
            for (k = 0; k < job->ov->n; ++k)
                if (job->ov->offset[k] == offsetof(hs_model, coupling)) cosim = 1;
            if (cosim)
                return hs_error_set(err, HS_ERR_ARG, "", 0, 0, "HS_GPU_PATH",
                                    "the cublas path takes monolithic steps only: co-simulation "
                                    "(integrator.coupling: cosim) runs on the specialised path, the default");
        }
        return hs_backend_gpu_cublas(job, err);
    }
    return hs_error_set(err, HS_ERR_ARG, "", 0, 0, "HS_GPU_PATH", "unknown GPU path '%s' (specialised or cublas)",
                        path);
}

int hs_gpu_available(char *name, size_t n)
{
    int cnt = 0, dev = 0;
    cudaDeviceProp p;
    cudaError_t e = cudaGetDeviceCount(&cnt);
    if (e != cudaSuccess) {
        /* no driver (CPU-only machines: cudaErrorInsufficientDriver) or no device */
        if (n)
            snprintf(name, n, "none (%s%s: %s)", hs_gpu_driver_note(e), cudaGetErrorName(e),
                     cudaGetErrorString(e));
        (void)cudaGetLastError();
        return 0;
    }
    if (cnt <= 0) {
        if (n) snprintf(name, n, "none (no CUDA device)");
        return 0;
    }
    if ((e = cudaGetDevice(&dev)) != cudaSuccess || (e = cudaGetDeviceProperties(&p, dev)) != cudaSuccess) {
        if (n) snprintf(name, n, "none (%s: %s)", cudaGetErrorName(e), cudaGetErrorString(e));
        (void)cudaGetLastError();
        return 0;
    }
    /* no commas: the run report prints it inside a comma-separated line */
    if (n)
        snprintf(name, n, "%s (sm_%d%d %d SMs %.0f GiB)", p.name, p.major, p.minor,
                 p.multiProcessorCount, (double)p.totalGlobalMem / 1073741824.0);
    return 1;
}

/* ---------------------------------------------------------------------------------------
 * ensemble quantiles */

struct hs_isnan_op {
    __host__ __device__ bool operator()(double v) const { return v != v; }
};

int hs_gpu_quantiles(const double *x, long n, const double *q, int nq, double *out)
{
    int k;
    if (n < 0 || nq < 0 || (n > 0 && !x) || (nq > 0 && (!q || !out))) return HS_ERR_ARG;
    if (nq == 0) return HS_OK;
    try {
        thrust::device_vector<double> d(x, x + n);
        long m = (long)(thrust::remove_if(d.begin(), d.end(), hs_isnan_op()) - d.begin());
        thrust::sort(d.begin(), d.begin() + m);
        for (k = 0; k < nq; ++k) {
            double h, lo_v, hi_v;
            long lo;
            if (m == 0 || !(q[k] >= 0.0 && q[k] <= 1.0)) {
                out[k] = NAN;
                continue;
            }
            h = (double)(m - 1) * q[k];
            lo = (long)floor(h);
            if (lo > m - 1) lo = m - 1;
            lo_v = d[lo]; /* element reads: nq small copies, not the whole array */
            if (h == (double)lo || lo + 1 >= m) {
                out[k] = lo_v;
                continue;
            }
            hi_v = d[lo + 1];
            /* host/results/results.c's hs_quantile to the bit: the same formula, no interpolation
             * between equal values (Inf stays Inf) */
            if (hi_v == lo_v) {
                out[k] = lo_v;
                continue;
            }
            h -= (double)lo;
            out[k] = (1.0 - h) * lo_v + h * hi_v;
        }
    } catch (const std::bad_alloc &) {
        (void)cudaGetLastError();
        return HS_ERR_IO;
    } catch (const thrust::system_error &) {
        (void)cudaGetLastError();
        return HS_ERR_ARG;
    } catch (...) {
        (void)cudaGetLastError();
        return HS_ERR_ARG;
    }
    return HS_OK;
}
