/* hs_gpu_launch.cuh -- what the GPU kernels (the specialised engine, kernels/hs_spec_entry.h;
 * the cuBLAS path's phases; the tree kernel, hs_tree_kernel.cuh) share with the host code that
 * launches them: the block size, the call's constant inputs, the progress and stop words. */
#ifndef HS_GPU_LAUNCH_CUH
#define HS_GPU_LAUNCH_CUH

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
 * kernel (host/gpu/backend_gpu.cu, hs_gpu_wait); the host sets stop to have the threads skip the
 * instances they have not started. done counts over every launch of the job. Also the
 * specialised kernel's (kernels/hs_spec_entry.h) and the cuBLAS path's. */
typedef struct hs_gpu_ctl {
    unsigned long long done;
    int stop;
} hs_gpu_ctl;

#endif
