/* hs_spec_entry.h -- the entry points of a specialised build of the engine. A generated
 * translation unit (host/engine/kernel_spec.c) defines HS_SPEC, the sizes, the topology, hs_mview
 * and hs_spec_view_load, then includes this header, which adds
 *   hs_spec_base, hs_spec_out   the shared model and output spec (constant memory on a GPU)
 *   hs_spec_instance            one instance: its view, then hs_run_model (kernels/hs_batch.h)
 *   hs_spec_kernel              CUDA: one thread per instance (NVRTC; or, with HS_SPEC_EMUL,
 *                               the host compiler for tests/gpu_emul's emulated device),
 *                               counting finished instances for the host's progress
 *   hs_spec_cpu_set/_run        the host compiler's build for the CPU backend (a shared object
 *                               loaded by host/engine/kernel_build.c)
 * Everything else is the ordinary engine: one physics text, specialised by constants. */
#ifndef HS_SPEC_ENTRY_H
#define HS_SPEC_ENTRY_H

#ifndef HS_SPEC
#error "hs_spec_entry.h belongs to a specialised build (host/engine/kernel_spec.c generates one)"
#endif

#ifndef HS_SPEC_BLOCK
#define HS_SPEC_BLOCK 128 /* threads per block of hs_spec_kernel (the generator sets it) */
#endif

#ifdef __cplusplus
#define HS_SPEC_EXTERN_C extern "C"
#else
#define HS_SPEC_EXTERN_C
#endif

/* The shared model (HS_D of every member that does not vary reads it) and output spec: read
 * by every thread of a warp at the same address, which the constant cache broadcasts. (Names
 * at namespace scope are not mangled: the host finds them as they are.) */
#if (defined(__CUDACC__) || defined(HS_SPEC_EMUL)) && !defined(HS_SPEC_BASE_GLOBAL)
__constant__ hs_model hs_spec_base;
#elif defined(__CUDACC__) || defined(HS_SPEC_EMUL)
/* a large model (host/engine/kernel_spec.c, HS_SPEC_CONST_BUDGET): its tables fill the
 * constant bank, and the block is read through the caches from global memory */
__device__ hs_model hs_spec_base;
#else
static hs_model hs_spec_base;
#endif

/* The running statistics in shared memory (hs_batch.h, HS_ACC_LD) when they fit beside the
 * states: at most 32 KB per block. */
#if (defined(__CUDACC__) || defined(HS_SPEC_EMUL)) && HS_CAP_OUT * 6 * 8 * HS_SPEC_BLOCK <= 32768
#define HS_ACC_LD HS_SPEC_BLOCK
#endif
#include "hs_batch.h"

#if defined(__CUDACC__) || defined(HS_SPEC_EMUL)
__constant__ hs_output_spec hs_spec_out;
#else
static hs_output_spec hs_spec_out;
#endif

/* Instance slot i of the batch out: pre[i] (HS_ST_INVALID for values that broke a physical
 * rule, else the warnings it starts with: both decided on the host, hs_spec_values) and its
 * varying values var (SoA, stride out->n). s: the instance's state (the GPU kernel keeps it in
 * shared memory). */
HS_HD static inline int hs_spec_instance(const double *var, const int *pre, long i, hs_batch_out *out, hs_state *s,
                                         double *acc)
{
    hs_mview m;
    hs_work w;
    hs_inst_run g;
#if HS_ACC_LD > 1
    g.acc = acc;
#else
    (void)acc;
#endif
    if (pre[i] & HS_ST_INVALID) return hs_instance_invalid(&hs_spec_out, i, out, s);
    hs_spec_view_load(var, out->n, i, &m);
    return hs_run_model(&m, &hs_spec_out, i, out, s, &w, &g, pre[i]);
}

#if defined(__CUDACC__) || defined(HS_SPEC_EMUL)
#include "hs_gpu_launch.cuh" /* hs_gpu_ctl */

/* One thread per instance. ctl (mapped pinned host memory, or NULL): the instance is counted
 * in ctl->done when it ends, and skipped when ctl->stop is set before it starts. Each thread's
 * state (hs_state) and running statistics (hs_inst_run's HS_NACC per signal) are in shared
 * memory, on the chip, rather than in its stack frame in local memory, which the L1 cache
 * cannot hold for all the threads of an SM: for the seed 003 four-bar and its 9 signals,
 * 15 KB + 27 KB per block of 64, 240 + 432 B less per thread in the frame (ptxas, `hydrosweep
 * kernel`). A model whose states would take more than 16 KB per block, or outputs more than
 * 32 KB, keeps them in the frame (48 KB of static shared memory per block). */
/* A state padded to an odd number of 8-byte words: the threads of a warp reading the same
 * member then hit distinct shared-memory banks (a stride of 30 words would put 4 threads on
 * each bank). */
union hs_spec_state_padded {
    hs_state s;
    double w[((sizeof(hs_state) + 7) / 8) | 1];
};
template <bool shared> __device__ static inline hs_state *hs_spec_state_slot(hs_state *local);
template <> __device__ inline hs_state *hs_spec_state_slot<true>(hs_state *local)
{
    __shared__ hs_spec_state_padded st[HS_SPEC_BLOCK];
    (void)local;
    return &st[threadIdx.x].s;
}
template <> __device__ inline hs_state *hs_spec_state_slot<false>(hs_state *local)
{
    return local;
}

HS_SPEC_EXTERN_C __global__ void __launch_bounds__(HS_SPEC_BLOCK)
    hs_spec_kernel(const double *var, const int *pre, hs_batch_out out, hs_gpu_ctl *ctl)
{
    hs_state sl; /* a larger model's: in the frame */
    hs_state *s = hs_spec_state_slot<(sizeof(hs_spec_state_padded) * HS_SPEC_BLOCK <= 16384)>(&sl);
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
#if HS_ACC_LD > 1
    __shared__ double acc[HS_CAP_OUT * HS_NACC * HS_SPEC_BLOCK];
    double *a = acc + threadIdx.x;
#else
    double *a = NULL;
#endif
    if (i >= out.n || (ctl && *(volatile int *)&ctl->stop)) return;
    hs_spec_instance(var, pre, i, &out, s, a);
    if (ctl) atomicAdd(&ctl->done, 1ULL);
}
#else
#if defined(__GNUC__)
#define HS_SPEC_EXPORT __attribute__((visibility("default")))
#else
#define HS_SPEC_EXPORT
#endif

/* The shared model and output spec of the next hs_spec_cpu_run calls. */
HS_SPEC_EXPORT void hs_spec_cpu_set(const hs_model *base, const hs_output_spec *spec);
HS_SPEC_EXPORT void hs_spec_cpu_set(const hs_model *base, const hs_output_spec *spec)
{
    hs_spec_base = *base;
    hs_spec_out = *spec;
}

/* Instances [i0, i1) of the batch out. */
HS_SPEC_EXPORT void hs_spec_cpu_run(const double *var, const int *pre, long i0, long i1, hs_batch_out *out);
HS_SPEC_EXPORT void hs_spec_cpu_run(const double *var, const int *pre, long i0, long i1, hs_batch_out *out)
{
    long i;
    hs_state s;
    for (i = i0; i < i1; ++i) hs_spec_instance(var, pre, i, out, &s, NULL);
}
#endif

#endif
