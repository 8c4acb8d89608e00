/* backend_gpu.h -- the CUDA side beyond host/engine/backend.h's hs_backend_gpu / hs_gpu_available:
 * the second GPU path (batched cuBLAS Newton solves) and ensemble quantiles on the device.
 * Defined in host/gpu/backend_gpu.cu and host/gpu/backend_gpu_cublas.cu, which exist only in a build
 * with CUDA (HS_HAVE_CUDA); C and CUDA C++ callers alike. hs_gpu_quantiles exists in every
 * build: without CUDA host/gpu/backend_gpu_stub.c defines it to return HS_ERR_ARG, so that
 * host/results/results.c calls it unconditionally and falls back to hs_quantile.
 *
 * Which GPU path hs_backend_gpu takes is read from the environment on every call, so that
 * `hydrosweep run -b gpu` (whose backend names are fixed) and the benchmarks can pick it:
 *   HS_GPU_PATH=specialised (default, also when unset or empty) the engine specialised to the
 *                       model's structure, compiled by NVRTC at run time and cached
 *                       (hs_backend_gpu_spec, host/gpu/backend_gpu_spec.cu); one thread runs
 *                       the whole time loop of an instance. A sweep that varies the structure
 *                       (a friction law) reaches it in groups of one structure
 *                       (host/run/run_split.h); a build that fails is an error
 *   HS_GPU_PATH=cublas  the time loop on the host; per Newton iteration one kernel builds the
 *                       residuals and tangents of all unconverged instances, then
 *                       cublasDgetrfBatched/cublasDgetrsBatched solve them
 *                       (hs_backend_gpu_cublas); full Newton only
 * Any other value is an error (HS_ERR_ARG), never a silent fallback.
 * Two more variables cap the device resources, for tests and for sharing a GPU:
 *   HS_GPU_THREADS=T   at most T resident threads of the tree kernel (its grid-stride loop then
 *                      gives each thread several instances)
 *   HS_GPU_BATCH=B     at most B instances per sub-batch (a job is split into sub-batches
 *                      that fit the device's memory anyway) */
#ifndef HS_BACKEND_GPU_H
#define HS_BACKEND_GPU_H

#include <stddef.h>

#include "hs/errors.h"
#include "hs_batch.h"

#ifdef __cplusplus
extern "C" {
#endif

struct hs_batch_job;

/* Resources of a kernel as ptxas reports them. */
typedef struct hs_kernel_fig {
    int registers;
    long stack_bytes; /* stack frame, bytes per thread */
    long spill_store_bytes, spill_load_bytes;
    long cubin_bytes;
    double compile_s; /* NVRTC's time for it */
} hs_kernel_fig;

/* The specialised kernel's figures for the model m (derived), the sweep's overrides ov and
 * outputs out, compiled by NVRTC for arch ("sm_90"): no GPU needed. Overrides that shape the
 * structure (hs_spec_structural) are left out: the kernel of the model's own structure is
 * compiled, and why says which were left out (a run builds one kernel per structure); "" when
 * none. HS_ERR_ARG in a build without CUDA. */
int hs_kernel_figures(const hs_model *m, const hs_override_spec *ov, const hs_output_spec *out, const char *arch,
                      hs_kernel_fig *spec, char *why, size_t nwhy, hs_error *err);

/* The tree ensembles' kernel (kernels/hs_tree_kernel.cuh, hs_tree_kernel): one kernel for
 * every riccati model (the tree's sizes are runtime values), so its figures depend on arch
 * only (cached once per arch and engine). HS_ERR_ARG in a build without CUDA. */
int hs_kernel_figures_tree(const char *arch, hs_kernel_fig *fig, hs_error *err);

/* Device bytes of one instance of a tree job (host/gpu/backend_gpu_tree.cu) beside its block of
 * 8 hs_tree_inst_doubles: its outputs (status, steps, rejected, iters_mean, iters_max, the
 * nsig x HS_NSTAT statistics, ntraj x ntime trajectory samples; ntime 0: none) and its nov
 * sampled values. */
static inline size_t hs_gpu_tree_out_bytes(const hs_output_spec *spec, long ntime, int nov)
{
    size_t b = sizeof(int) + sizeof(long) + sizeof(long) + sizeof(double) + sizeof(int);
    b += sizeof(double) * (size_t)(spec->nsig > 0 ? spec->nsig : 1) * HS_NSTAT;
    if (ntime > 0) b += sizeof(double) * (size_t)spec->ntraj * (size_t)ntime;
    return b + sizeof(double) * (size_t)(nov > 0 ? nov : 0);
}

/* 1 if NVRTC compiles for arch ("sm_90", "sm_90a": sm_ and a number it lists in
 * nvrtcGetSupportedArchs, with an optional 'a' or 'f' suffix), else 0 with why saying what
 * it takes. A build without CUDA cannot tell: 1. */
int hs_gpu_arch_supported(const char *arch, char *why, size_t nwhy);

/* The specialised GPU path (host/gpu/backend_gpu_spec.cu): same contract as hs_backend_gpu, or
 * HS_OK with why set (and nothing run) when the job cannot be specialised. */
int hs_backend_gpu_spec(const struct hs_batch_job *job, char *why, size_t nwhy, hs_error *err);

/* Same contract as hs_backend_gpu (host/engine/backend.h), through the batched cuBLAS path. */
int hs_backend_gpu_cublas(const struct hs_batch_job *job, hs_error *err);

/* Quantiles q[0..nq-1] (in [0, 1]) of the host array x[0..n-1], NaNs ignored, R type 7
 * (linear interpolation between order statistics: h = (m - 1) q of the m finite-or-infinite
 * values, x_(floor h) + (h - floor h) (x_(floor h + 1) - x_(floor h))), sorted on the device
 * with Thrust. out[k] is NaN when every value is NaN or q[k] is outside [0, 1].
 * The result equals host/results/results.c's hs_quantile bit for bit (same formula, no interpolation
 * between equal values). Returns HS_OK, or HS_ERR_ARG (no device, bad arguments, a build
 * without CUDA) / HS_ERR_IO (device memory); out is then undefined. */
int hs_gpu_quantiles(const double *x, long n, const double *q, int nq, double *out);

#ifdef __cplusplus
}
#endif

#endif
