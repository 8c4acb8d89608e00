/* backend_gpu_util.cuh -- private helpers of the two GPU paths (host/gpu/backend_gpu.cu and
 * host/gpu/backend_gpu_cublas.cu): CUDA error reports, the environment knobs of backend_gpu.h,
 * device-memory budgeting and the device copies of a sub-batch's SoA outputs. CUDA C++ only;
 * defined in host/gpu/backend_gpu.cu. */
#ifndef HS_BACKEND_GPU_UTIL_CUH
#define HS_BACKEND_GPU_UTIL_CUH

#include <cuda_runtime.h>
#include <stddef.h>

/* The shared headers first, with C++ linkage (they are all static inline), so that the
 * extern "C" block below only gives C linkage to backend.h's own declarations: <math.h> and
 * friends must not be pulled in inside extern "C" (libstdc++'s <cmath> has templates). */
#include "hs_gpu_launch.cuh"
extern "C" {
#include "engine/backend.h"
}
#include "gpu/backend_gpu.h"

/* A kernel launch, kernel<<<grid, block>>>(args). A macro so that the host emulation of a
 * device (tests/gpu_emul/hs_cuda_emul.h, which CI uses to run this file's logic without a
 * GPU) can run the kernel's threads on the host instead. */
#ifndef HS_GPU_LAUNCH
#define HS_GPU_LAUNCH(kernel, grid, block, ...) kernel<<<(grid), (block)>>>(__VA_ARGS__)
#endif

/* Device SoA outputs for up to cap instances; d.n is set to each sub-batch's size (the stride
 * hs_run_instance uses). d.traj is NULL when the job records no trajectory. */
typedef struct hs_gpu_out {
    hs_batch_out d;
    long cap;
    int nrows_stats, nrows_traj; /* nsig * HS_NSTAT, ntraj * ntime */
} hs_gpu_out;

/* err from a CUDA status: "what: cudaErrorX: description". Returns HS_ERR_IO for memory
 * exhaustion, HS_ERR_ARG for no device / driver, HS_ERR_NUMERIC for anything else
 * (launch failures, illegal addresses). */
int hs_gpu_fail(hs_error *err, cudaError_t e, const char *what);
/* A positive integer environment variable, 0 when unset, empty or not a positive number. */
long hs_gpu_env_long(const char *name);
/* HS_GPU_VERBOSE set and not "0": one line per call on stderr (sizes, launch shape). */
int hs_gpu_verbose(void);
/* Checks that a device is usable and selects it (the current one, CUDA_VISIBLE_DEVICES
 * honoured); *sms gets its multiprocessor count. Fills err with the reason when not. */
int hs_gpu_ready(int *sms, hs_error *err);
/* Per-instance scratch for n threads or instances: local models, states and work arrays,
 * the work arrays zeroed like the CPU backend's calloc'd ones. On failure nothing is left
 * allocated by this call. */
int hs_gpu_scratch_alloc(long n, hs_model **pm, hs_state **ps, hs_work **pw, hs_error *err);
/* Raises the per-thread stack limit to need bytes (the kernels' frames, from
 * cudaFuncGetAttributes) if it is lower; *old gets the limit it replaced (0: unchanged), for
 * hs_gpu_stack_restore when the call ends, since the driver keeps the stack of every thread
 * the device can hold reserved while a limit stands. */
int hs_gpu_stack(size_t need, size_t *old, hs_error *err);
void hs_gpu_stack_restore(size_t old);
/* Free device memory that may be planned with: what cudaMemGetInfo reports, less a reserve
 * for the driver's per-thread stack (local memory for every resident thread), cuBLAS
 * workspaces and fragmentation. Called before hs_gpu_stack raises the limit, so that the
 * stack is counted once whether the driver reserves it then or at the launch. */
size_t hs_gpu_budget(size_t stack_bytes_per_thread);
/* Threads per block for nthreads threads on sms multiprocessors: HS_GPU_BLOCK, or fewer
 * (whole warps) so that a small launch still reaches every SM. */
long hs_gpu_block_for(long nthreads, int sms);
/* Device bytes one instance's outputs and sampled values need. */
size_t hs_gpu_out_bytes(const hs_batch_job *job);
int hs_gpu_out_alloc(hs_gpu_out *o, const hs_batch_job *job, long cap, hs_error *err);
void hs_gpu_out_free(hs_gpu_out *o);
/* Copies the first cnt instances of the device outputs into job->out at instances
 * [i0, i0 + cnt) (strided rows: stats and trajectories have job->out->n as their stride). */
int hs_gpu_out_fetch(const hs_gpu_out *o, const hs_batch_job *job, long i0, long cnt, hs_error *err);
/* A device copy of the job's model, override and output specs. */
int hs_gpu_const_upload(const hs_batch_job *job, hs_gpu_const **dc, hs_error *err);

/* Progress of a job on the device (host/engine/backend.h's callback): an hs_gpu_ctl in mapped
 * pinned host memory that the kernels count finished instances in, read by the host while it
 * waits. */
typedef struct hs_gpu_watch {
    hs_gpu_ctl *h; /* host address; NULL: no counter (no callback, or no mapped memory) */
    hs_gpu_ctl *d; /* device address of the same, the kernels' argument */
    long shown; /* the latest count reported */
    int stop; /* the callback asked to stop */
} hs_gpu_watch;
/* The counter of a job with a progress callback; without one, or when mapped pinned memory
 * cannot be had (the job then runs without, reporting per sub-batch), w->h and w->d are NULL.
 * Never fails. */
void hs_gpu_watch_open(hs_gpu_watch *w, const hs_batch_job *job);
void hs_gpu_watch_close(hs_gpu_watch *w);
/* The kernels' count so far (instances of the job finished), none without a counter. */
long hs_gpu_watch_count(const hs_gpu_watch *w, long none);
/* Reports done (clamped to [w->shown, job->cnt]) to the job's callback, if any; a stop
 * request sets w->stop and the counter's stop flag. */
void hs_gpu_watch_report(hs_gpu_watch *w, const hs_batch_job *job, long done);
/* Waits for the device's queued work without blocking in the driver: cudaStreamQuery on the
 * default stream, short sleeps between polls, and the counter reported meanwhile (at most
 * i_end, the instances of the job up to the end of this sub-batch). Returns the query's final
 * status (cudaSuccess, or a fault of the kernels). */
cudaError_t hs_gpu_wait(hs_gpu_watch *w, const hs_batch_job *job, long i_end);
/* The end of the sub-batch [i0, i0 + cnt) whose kernel (named what) was launched: hs_gpu_wait
 * (polled, with progress, not a blocking synchronisation), cudaDeviceSynchronize, and its outputs
 * o copied into job->out. HS_OK; HS_ERR_INTERRUPTED when a stop request skipped instances; the
 * error of a fault of the kernel or of the copy. Every GPU path's sub-batch ends here. */
int hs_gpu_sub_batch_finish(hs_gpu_watch *w, const hs_batch_job *job, const hs_gpu_out *o, long i0, long cnt,
                            const char *what, hs_error *err);

#define HS_GPU_TRY(call, what)                                                                     \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess) {                                                                   \
            rc = hs_gpu_fail(err, e_, what);                                                       \
            goto done;                                                                             \
        }                                                                                          \
    } while (0)

#endif
