/* hs_kernels.cuh -- the generic CUDA kernels: one thread runs whole instances of the generic
 * engine (kernels/hs_batch.h: its own copy of the model, overrides applied on the device).
 * Built by nvcc into host/backend_gpu.cu; also compiled by NVRTC for `hydrosweep kernel`
 * (host/kernel_spec.h), which reports their resources beside the specialised kernel's
 * (kernels/hs_spec_entry.h). */
#ifndef HS_KERNELS_CUH
#define HS_KERNELS_CUH

#include "hs_batch.h"

/* Threads per block of the per-instance kernels: small blocks, since every thread needs
 * many registers and a large stack frame; occupancy is set by registers, not block size. */
#define HS_GPU_BLOCK 128

/* The immutable inputs of a call, one device copy read by every thread (the same address
 * in a warp: broadcast loads). */
typedef struct hs_gpu_const {
    hs_model base;
    hs_override_spec ov;
    hs_output_spec spec;
} hs_gpu_const;

/* The kernels themselves in one translation unit only (host/backend_gpu.cu, the NVRTC
 * program of `hydrosweep kernel`); the others need the types. */
#ifdef HS_KERNELS_DEFINE
/* Thread tid (< nthr, the pool slots in use) runs instances tid, tid + nthr, ... of the
 * sub-batch with its own scratch; the outputs go to slot i of the sub-batch's SoA arrays
 * (stride out.n = the sub-batch's size). Threads of the last block beyond nthr idle. */
__global__ void __launch_bounds__(HS_GPU_BLOCK)
    hs_fused_kernel(const hs_gpu_const *c, const double *values, hs_batch_out out, long nthr,
                    hs_model *pm, hs_state *ps, hs_work *pw)
{
    long tid = (long)blockIdx.x * blockDim.x + threadIdx.x, i, nov = c->ov.n;
    if (tid >= nthr) return;
    for (i = tid; i < out.n; i += nthr)
        hs_run_instance(&c->base, &c->ov, values + i * nov, &c->spec, i, &out, pm + tid, ps + tid,
                        pw + tid);
}

/* The same with the scratch in each thread's local memory (its stack) instead of the pool:
 * the hardware interleaves local memory word by word across the threads of a warp, so the
 * warp's accesses to one field of hs_work coalesce, where the pool's per-thread blocks
 * (~85 KB apart) cost one memory transaction per thread. The price is the driver's stack
 * reservation: the frame times every thread the device can hold (SMs x 2048), ~23 GB on an
 * H100. HS_GPU_PATH=fused_local; which one is faster is for bench/bench_ensemble.py to say. */
__global__ void __launch_bounds__(HS_GPU_BLOCK)
    hs_fused_local_kernel(const hs_gpu_const *c, const double *values, hs_batch_out out, long nthr,
                          hs_model *pm, hs_state *ps, hs_work *pw)
{
    long tid = (long)blockIdx.x * blockDim.x + threadIdx.x, i, nov = c->ov.n;
    hs_model m;
    hs_state s;
    hs_work w;
    (void)pm;
    (void)ps;
    (void)pw;
    if (tid >= nthr) return;
    memset(&w, 0, sizeof w); /* like the pool's cudaMemset */
    for (i = tid; i < out.n; i += nthr)
        hs_run_instance(&c->base, &c->ov, values + i * nov, &c->spec, i, &out, &m, &s, &w);
}
#endif

#endif
