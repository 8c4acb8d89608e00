/* backend_gpu_stub.c -- the GPU backend's entry points in a build without CUDA
 * (host/gpu/backend_gpu.cu replaces this file when CUDA is enabled: HS_HAVE_CUDA). */
#ifndef HS_HAVE_CUDA
#include <stddef.h>
#include <stdio.h>

#include "engine/backend.h"
#include "gpu/backend_gpu.h"

int hs_backend_gpu(const hs_batch_job *job, hs_error *err)
{
    (void)job;
    return hs_error_set(err, HS_ERR_ARG, "", 0, 0, "backend",
                        "this build has no CUDA support (rebuild with nvcc present, HS_CUDA=ON)");
}

int hs_backend_gpu_tree(const hs_batch_job *job, hs_error *err)
{
    return hs_backend_gpu(job, err);
}

int hs_gpu_available(char *name, size_t n)
{
    if (n) snprintf(name, n, "none (built without CUDA)");
    return 0;
}

int hs_kernel_figures(const hs_model *m, const hs_override_spec *ov, const hs_output_spec *out, const char *arch,
                      hs_kernel_fig *spec, char *why, size_t nwhy, hs_error *err)
{
    (void)m;
    (void)ov;
    (void)out;
    (void)arch;
    (void)spec;
    if (nwhy) why[0] = '\0';
    return hs_error_set(err, HS_ERR_ARG, "", 0, 0, "kernel",
                        "this build has no CUDA support (NVRTC compiles the kernels): rebuild with nvcc present");
}

int hs_kernel_figures_tree(const char *arch, hs_kernel_fig *fig, hs_error *err)
{
    (void)arch;
    (void)fig;
    return hs_error_set(err, HS_ERR_ARG, "", 0, 0, "kernel",
                        "this build has no CUDA support (NVRTC compiles the kernels): rebuild with nvcc present");
}

/* No device: host/results/results.c then computes the ensemble quantiles with hs_quantile. */
int hs_gpu_quantiles(const double *x, long n, const double *q, int nq, double *out)
{
    (void)x;
    (void)n;
    (void)q;
    (void)nq;
    (void)out;
    return HS_ERR_ARG;
}

int hs_gpu_arch_supported(const char *arch, char *why, size_t nwhy)
{
    (void)arch;
    if (why && nwhy) why[0] = '\0';
    return 1; /* no NVRTC to ask: the kernel command then reports the build has no CUDA */
}
#else
typedef int hs_backend_gpu_stub_unused; /* ISO C forbids an empty translation unit */
#endif

