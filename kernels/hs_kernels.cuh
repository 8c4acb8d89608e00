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

/* Progress and stop of a job's launches, in mapped pinned host memory (cudaHostAlloc with
 * cudaHostAllocMapped; the kernels get its device address, NULL for none): every thread adds
 * one to done when an instance of its own ends, which the host reads while it polls the
 * kernel (host/backend_gpu.cu, hs_gpu_wait); the host sets stop to have the threads skip the
 * instances they have not started. done counts over every launch of the job. Also the
 * specialised kernel's (kernels/hs_spec_entry.h) and the cuBLAS path's. */
typedef struct hs_gpu_ctl {
    unsigned long long done;
    int stop;
} hs_gpu_ctl;

/* The kernels themselves in one translation unit only (host/backend_gpu.cu, the NVRTC
 * program of `hydrosweep kernel`); the others need the types. */
#ifdef HS_KERNELS_DEFINE
/* Thread tid (< nthr, the pool slots in use) runs instances tid, tid + nthr, ... of the
 * sub-batch with its own scratch; the outputs go to slot i of the sub-batch's SoA arrays
 * (stride out.n = the sub-batch's size). Threads of the last block beyond nthr idle. Each
 * finished instance is counted in ctl (if not NULL); once ctl->stop is set no thread starts
 * another. */
__global__ void __launch_bounds__(HS_GPU_BLOCK)
    hs_fused_kernel(const hs_gpu_const *c, const double *values, hs_batch_out out, long nthr,
                    hs_model *pm, hs_state *ps, hs_work *pw, hs_gpu_ctl *ctl)
{
    long tid = (long)blockIdx.x * blockDim.x + threadIdx.x, i, nov = c->ov.n;
    if (tid >= nthr) return;
    for (i = tid; i < out.n; i += nthr) {
        if (ctl && *(volatile int *)&ctl->stop) break;
        hs_run_instance(&c->base, &c->ov, values + i * nov, &c->spec, i, &out, pm + tid, ps + tid,
                        pw + tid);
        if (ctl) atomicAdd(&ctl->done, 1ULL);
    }
}

/* The same with the scratch in each thread's local memory (its stack) instead of the pool:
 * the hardware interleaves local memory word by word across the threads of a warp, so the
 * warp's accesses to one field of hs_work coalesce, where the pool's per-thread blocks
 * (~85 KB apart) cost one memory transaction per thread. The price is the driver's stack
 * reservation: the frame times every thread the device can hold (SMs x 2048), ~23 GB on an
 * H100. HS_GPU_PATH=fused_local; which one is faster is for bench/bench_ensemble.py to say. */
__global__ void __launch_bounds__(HS_GPU_BLOCK)
    hs_fused_local_kernel(const hs_gpu_const *c, const double *values, hs_batch_out out, long nthr,
                          hs_model *pm, hs_state *ps, hs_work *pw, hs_gpu_ctl *ctl)
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
    for (i = tid; i < out.n; i += nthr) {
        if (ctl && *(volatile int *)&ctl->stop) break;
        hs_run_instance(&c->base, &c->ov, values + i * nov, &c->spec, i, &out, &m, &s, &w);
        if (ctl) atomicAdd(&ctl->done, 1ULL);
    }
}
#endif

#endif
