/* hs_tree_kernel.cuh -- the GPU kernel of a tree ensemble (the Riccati formulation, seed 002;
 * kernels/hs_tree_batch.h): one thread runs whole instances of hs_tree_run_instance, the same
 * HS_HD code as the cpu and reference backends. Built by nvcc into host/gpu/backend_gpu_tree.cu;
 * also compiled by NVRTC for `hydrosweep kernel` (hs_kernel_figures_tree,
 * host/gpu/backend_gpu_spec.cu) from the source "#define HS_TREE_KERNEL_DEFINE\n#include
 * \"hs_tree_kernel.cuh\"" with the embedded engine headers.
 *
 * A tree of hundreds of bodies fits neither registers nor a thread's stack: each thread's
 * instance block (hs_tree_inst_doubles doubles: state, RK4 stages, Riccati work, optionally
 * its own copy of the bodies' numbers) is a slot of a pool in global memory, one slot per
 * resident thread, handed from instance to instance by a grid-stride loop. The tree's arrays
 * are one device copy read by every thread. */
#ifndef HS_TREE_KERNEL_CUH
#define HS_TREE_KERNEL_CUH

#include "hs_gpu_launch.cuh" /* HS_GPU_BLOCK, hs_gpu_ctl */
#include "hs_tree_batch.h"

/* The kernel in one translation unit only (host/gpu/backend_gpu_tree.cu, the NVRTC program of
 * `hydrosweep kernel`). */
#ifdef HS_TREE_KERNEL_DEFINE
/* Thread tid (< nthr, the pool slots in use) runs instances tid, tid + nthr, ... of the
 * sub-batch, with the pool's slot tid (blk doubles at pool + tid * blk); the outputs go to
 * slot i of the sub-batch's SoA arrays (stride out.n = the sub-batch's size), the sampled
 * values of instance i at values + i * e.nov. e (its pointers device pointers) and spec, by
 * value, are the same for every thread: read-only parameters, which nvcc reads from the
 * parameter space even where their address is taken (ptxas reports the same frame as with
 * __grid_constant__, which the emulated NVRTC of tests/gpu_emul does not know). Each finished
 * instance is counted in ctl (if not NULL); once ctl->stop is set no thread starts another. */
__global__ void __launch_bounds__(HS_GPU_BLOCK)
    hs_tree_kernel(const hs_tree_ens e, const hs_output_spec spec, const double *values, hs_batch_out out, long nthr,
                   double *pool, long blk, hs_gpu_ctl *ctl)
{
    long tid = (long)blockIdx.x * blockDim.x + threadIdx.x, i;
    if (tid >= nthr) return;
    for (i = tid; i < out.n; i += nthr) {
        if (ctl && *(volatile int *)&ctl->stop) break;
        hs_tree_run_instance(&e, values + i * e.nov, &spec, i, &out, pool + tid * blk);
        if (ctl) atomicAdd(&ctl->done, 1ULL);
    }
}
#endif

#endif
