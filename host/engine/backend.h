/* backend.h -- the batch backends behind one interface: each runs the per-instance step code
 * of kernels/hs_batch.h over a chunk of instances and fills SoA outputs.
 *   reference: one instance after another on one core, linear solves by LAPACK
 *   cpu:       OpenMP over instances, the shared LU of hs_linalg.h
 *   gpu:       CUDA, one thread per instance (host/gpu/backend_gpu.cu; absent without CUDA) */
#ifndef HS_BACKEND_H
#define HS_BACKEND_H

#include <stddef.h>

#include "hs/errors.h"
#include "hs_tree_batch.h"

enum hs_backend_kind { HS_BACKEND_AUTO = 0, HS_BACKEND_CPU, HS_BACKEND_GPU, HS_BACKEND_REFERENCE };

/* A job (or run) stopped on request -- a progress callback that returned non-zero, SIGINT or
 * SIGTERM (host/base/progress.h) -- before it was complete. Host-internal: beside the codes of
 * hs/errors.h, never written to a file. */
#define HS_ERR_INTERRUPTED 64

/* Progress of a job. A backend calls it with done, the number of the job's instances that
 * have finished so far (non-decreasing, at most cnt), from the thread that called the backend
 * only and never from two threads at once; often (as instances finish, or every few
 * milliseconds while it waits on a device), so the callback decides itself when to print.
 * A non-zero return asks the backend to stop: instances not yet started are skipped, those
 * running finish, and the backend returns HS_ERR_INTERRUPTED with job->out incomplete. */
typedef int (*hs_progress_fn)(void *ctx, long done);

typedef struct hs_batch_job {
    const hs_model *base; /* shared model (sweep overrides of t_end/dt applied) */
    const hs_override_spec *ov; /* which parameters each instance overrides */
    const hs_output_spec *spec; /* what is recorded */
    long cnt; /* instances in the job */
    const double *values; /* (cnt x ov->n) row-major sampled values */
    hs_batch_out *out; /* (cnt) SoA outputs; out->n == cnt */
    hs_progress_fn progress; /* NULL: no reports, never stopped */
    void *progress_ctx; /* its first argument */
    const hs_tree_ens *tree; /* a riccati model's ensemble (kernels/hs_tree_batch.h): the
                                instances run hs_tree_run_instance with values (cnt x tree->nov);
                                base and ov are not read. NULL: the step's engine */
} hs_batch_job;

/* hs_batch_out's arrays of one value per instance (n): member, element type. */
#define HS_BATCH_OUT_ROWS(X) X(status, int) X(steps, long) X(rejected, long) X(iters_mean, double) X(iters_max, int)

int hs_backend_reference(const hs_batch_job *job, hs_error *err);
int hs_backend_cpu(const hs_batch_job *job, int threads, hs_error *err);
/* HS_OK if the cpu backend may run threads threads (0: OpenMP's default, OMP_NUM_THREADS):
 * at most hs_max_threads() (fileio.h); else HS_ERR_ARG naming --threads or OMP_NUM_THREADS. */
int hs_cpu_threads_check(int threads, hs_error *err);
/* GPU: returns HS_ERR_ARG with a message when built without CUDA or no device is present. */
int hs_backend_gpu(const hs_batch_job *job, hs_error *err);
/* The GPU backend of a tree ensemble (job->tree; host/gpu/backend_gpu_tree.cu): one thread per
 * instance, each instance's block (hs_tree_inst_doubles) in global memory. */
int hs_backend_gpu_tree(const hs_batch_job *job, hs_error *err);
/* 1 and the device name if a CUDA device can be used. */
int hs_gpu_available(char *name, size_t n);

/* "Model name @ n cores" of this machine's CPU. */
void hs_cpu_name(char *buf, size_t n);

#endif
