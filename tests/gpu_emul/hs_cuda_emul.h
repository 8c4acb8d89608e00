/* hs_cuda_emul.h -- a CUDA device emulated on the host, so that CI (which has nvcc but no
 * GPU) runs the GPU backends' host logic: host/gpu/backend_gpu.cu and host/gpu/backend_gpu_cublas.cu
 * compiled as C++17 by the host compiler against this header and hs_cuda_emul.cpp in place of
 * libcudart and libcublas.
 *
 * The types and declarations are the toolkit's own (<cuda_runtime.h>, <cublas_v2.h>); only
 * the definitions of the runtime and cuBLAS functions the backends call are ours. Kernels run
 * thread by thread on the host (HS_GPU_LAUNCH, blocks in reverse order so that nothing may
 * depend on the order; or on hs_emul.workers OS threads at once), cub::DeviceSelect::Flagged
 * is a host loop, cuBLAS's batched LU is LAPACK's dgetrf/dgetrs per matrix, Thrust runs on its
 * CPP backend.
 *
 * What this checks that a plain CPU run cannot:
 *  - sub-batching and pool sizing against a device of chosen size (hs_emul.mem_total),
 *    including cudaMemGetInfo, the stack-limit reservation and cudaMalloc failures;
 *  - every copy and memset: the device side must lie inside one live cudaMalloc block, the
 *    host side must not be device memory (a swapped direction is caught);
 *  - every pointer argument of a kernel (and the pointers inside an hs_batch_out passed by
 *    value) must be device memory or NULL: a host pointer handed to a kernel is caught;
 *  - device memory is not zeroed: cudaMalloc fills it with 0xff bytes (NaN doubles, -1
 *    ints), so a kernel that reads memory nobody wrote gives NaN results;
 *  - device memory is inaccessible to host code (PROT_NONE pages, outside ASan builds) except
 *    inside the emulated device's own work: host code dereferencing a device pointer faults
 *    (after the first 512 pieces of device work since a reset, only after every 61st and at
 *    cudaDeviceSynchronize / cudaFree: see hs_emul_device_close);
 *  - launch shapes (grid and block sizes within CUDA's limits), CUB temporary sizes, cuBLAS
 *    argument rules (lda >= n, device pointer arrays, info on the host for getrs);
 *  - races: with hs_emul.workers > 1 a kernel's threads run on several OS threads at once,
 *    so two GPU threads sharing a pool slot or an output row by mistake corrupt the results
 *    (one after the other they would not: the sequential mode cannot see it);
 *  - leaks (live allocations after a call), double frees, and the error paths: the k-th
 *    cudaMalloc, kernel launch or cuBLAS call can be made to fail (a failed launch is a
 *    sticky error, as on a device, seen at once or, deferred, at the next synchronising call);
 *  - pinned host memory (cudaHostAlloc, cudaHostGetDevicePointer, cudaFreeHost): not zeroed,
 *    a kernel may take it as an argument only when allocated cudaHostAllocMapped, freed with
 *    cudaFreeHost exactly once (leaks counted apart from device blocks); cudaHostAlloc can be
 *    made to fail;
 *  - asynchronous kernels (hs_emul.async): a launch returns at once and the kernel runs on
 *    a thread of its own while the host goes on, as on a device; cudaStreamQuery says
 *    cudaErrorNotReady until it has finished, and every other runtime call waits for it first
 *    (the default stream's order), so the host's polling loop and what it reads from mapped
 *    memory meanwhile (progress counters) are exercised. (Meanwhile device memory stays
 *    accessible to host code: the protection of device memory is checked in the synchronous
 *    mode only.)
 * What it cannot check: anything of the device itself -- registers, local-memory limits,
 * fused multiply-adds and CUDA's libm, warp scheduling, timing. Those need a GPU
 * (scripts/gpu_session.sh, ctest label gpu). */
#ifndef HS_CUDA_EMUL_H
#define HS_CUDA_EMUL_H

#include <cuda_runtime.h>
#include <stddef.h>

#include <thread>
#include <tuple>
#include <vector>

#define HS_GPU_EMULATION 1
/* nvcc's attribute; the host compiler has no use for it (launch shapes are checked below) */
#define __launch_bounds__(...)

/* ---------------------------------------------------------------------------------------
 * the emulated device and its counters */

typedef struct hs_emul_config {
    int device_count; /* devices cudaGetDeviceCount reports */
    cudaError_t count_error; /* its error instead (cudaErrorInsufficientDriver: no driver) */
    int sms, threads_per_sm, blocks_per_sm; /* shape; blocks_per_sm: occupancy answer */
    size_t mem_total; /* device memory, bytes */
    size_t local_bytes; /* every kernel's stack frame (cudaFuncGetAttributes) */
    long fail_malloc_at; /* the k-th cudaMalloc from the last reset fails (0: none) */
    long fail_launch_at; /* the k-th kernel launch faults: sticky cudaErrorLaunchFailure */
    long fail_blas_at; /* the k-th cuBLAS call returns CUBLAS_STATUS_EXECUTION_FAILED */
    int workers; /* > 1: a kernel's threads run on that many OS threads at once (round
                  * robin), so that two threads sharing what should be private (a pool slot,
                  * an output row) collide; else one by one, blocks in reverse order */
    int fail_nvrtc; /* nvrtcCompileProgram fails (NVRTC_ERROR_COMPILATION) */
    int fault_deferred; /* the injected launch fault shows at the next synchronising call
                         * (cudaDeviceSynchronize, a copy, cudaFree, CUB, cuBLAS), as a fault
                         * inside a running kernel does, not at cudaGetLastError */
    int fail_host_alloc; /* every cudaHostAlloc fails (cudaErrorMemoryAllocation) */
    int async; /* kernels run on a thread of their own; launches return at once (the
                * default: HS_EMUL_ASYNC set and not "0") */
    long hold_after; /* > 0: a kernel's threads after this many wait until the host queries the
                      * stream after hs_emul_stop_asked() (or 10 s pass): a stop request then
                      * lands inside the kernel whatever the machine's load, as on a GPU whose
                      * later threads have not been scheduled yet */
} hs_emul_config;

/* The host is about to ask the running kernel to stop (a test's progress callback says so):
 * the threads held by hs_emul.hold_after go on at the host's next cudaStreamQuery, by when it
 * has written its stop flag (hs_gpu_watch_report writes it before it polls again). */
void hs_emul_stop_asked(void);
/* A thread of the flattened grid is about to start: waits while hs_emul.hold_after holds it. */
void hs_emul_thread_gate(void);

typedef struct hs_emul_counters {
    long mallocs, frees, live; /* cudaMalloc / cudaFree calls, blocks now allocated */
    size_t live_bytes, peak_bytes;
    long launches, blas_calls, copies;
    long launches_of_first; /* launches of the kernel launched first since the reset */
    long nvrtc_compiles, nvrtc_failed; /* programs compiled by the emulated NVRTC, failures */
    long host_allocs, host_frees, host_live; /* cudaHostAlloc / cudaFreeHost, blocks now allocated */
    long queries, not_ready; /* cudaStreamQuery calls, and those that found a kernel running */
    unsigned int max_block, max_grid; /* largest block and grid seen */
    long violations; /* misuses found (see above); the first one is described in what */
    char what[512];
} hs_emul_counters;

extern hs_emul_config hs_emul;
extern hs_emul_counters hs_emul_count;

/* A fresh device: 4 SMs of 2048 threads, 2 blocks per SM, 8 GiB, 2 KiB frames, no faults;
 * counters zero, no sticky error, every block freed (so one test's leak does not hide
 * another's). */
void hs_emul_reset(void);
/* 1 once an injected fault happened (pending or sticky). */
int hs_emul_faulted(void);
/* Device memory is inaccessible to host code (outside ASan builds) except between these:
 * kernels, copies, CUB and cuBLAS open it. Nested calls are counted. */
void hs_emul_device_open(void);
void hs_emul_device_close(void);
/* Records a misuse (printf format). */
void hs_emul_violation(const char *fmt, ...);
/* The same, then ret: a failing call's return value. */
#define EMUL_MISUSE(ret, ...) (hs_emul_violation(__VA_ARGS__), (ret))
/* 1 if [p, p + bytes) lies inside one live device block. */
int hs_emul_is_device(const void *p, size_t bytes);
/* A loaded library's __constant__ or __device__ variable of bytes bytes at p counts as device
 * memory (bytes == 0: no longer). It survives hs_emul_reset: libraries stay loaded. */
void hs_emul_global(void *p, size_t bytes);
/* A kernel's pointer argument: NULL, device memory or mapped pinned host memory (checked,
 * recorded as a misuse). */
void hs_emul_check_arg(const char *kernel, const void *p);
/* Asynchronous kernels (hs_emul.async): body runs on a thread of its own (the device opened
 * for it); hs_emul_drain waits for it (every runtime call but cudaStreamQuery does). */
void hs_emul_async_start(void (*body)(void *), void *ctx, void (*drop)(void *));
void hs_emul_drain(void);

/* The kernel-taking templates that <cuda_runtime.h> declares for nvcc only. */
template <class T> static inline cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *a, T *kernel)
{
    return ::cudaFuncGetAttributes(a, (const void *)kernel);
}
template <class T>
static inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *nb, T *kernel, int block, size_t smem)
{
    return ::cudaOccupancyMaxActiveBlocksPerMultiprocessor(nb, (const void *)kernel, block, smem);
}

/* ---------------------------------------------------------------------------------------
 * kernels on the host */

extern thread_local uint3 hs_emul_blockIdx, hs_emul_threadIdx;
extern thread_local dim3 hs_emul_blockDim, hs_emul_gridDim;
#define blockIdx hs_emul_blockIdx
#define threadIdx hs_emul_threadIdx
#define blockDim hs_emul_blockDim
#define gridDim hs_emul_gridDim

/* 0 to run the kernel; else the launch is refused (bad shape, injected fault) and the error
 * is set as cudaGetLastError / the next synchronisation will report it. */
int hs_emul_launch_begin(const char *kernel, unsigned int grid, unsigned int block);

/* Pointer arguments are checked, and the pointers inside an hs_batch_out; other types pass. */
template <class T> static inline void hs_emul_arg(const char *kernel, T *p) { hs_emul_check_arg(kernel, (const void *)p); }
template <class T> static inline void hs_emul_arg(const char *kernel, const T &) { (void)kernel; }
/* the SoA outputs passed by value: every array must be device memory (hs_cuda_emul.cpp) */
struct hs_batch_out;
void hs_emul_arg(const char *kernel, const hs_batch_out &o);

/* Runs the threads w, w + W, w + 2W, ... of the flattened grid (all of them, blocks in
 * reverse order, when W == 1). */
template <class K, class... A>
static inline void hs_emul_run_threads(int w, int W, K kernel, unsigned int grid, unsigned int block, A... args)
{
    unsigned long long q, total = (unsigned long long)grid * block;
    hs_emul_gridDim = dim3(grid, 1, 1);
    hs_emul_blockDim = dim3(block, 1, 1);
    for (q = (unsigned long long)w; q < total; q += (unsigned long long)W) {
        /* W == 1: blocks from the last to the first, threads in order within each */
        unsigned long long b = W == 1 ? grid - 1 - q / block : q / block, t = q % block;
        hs_emul_blockIdx.x = (unsigned int)b;
        hs_emul_blockIdx.y = hs_emul_blockIdx.z = 0;
        hs_emul_threadIdx.x = (unsigned int)t;
        hs_emul_threadIdx.y = hs_emul_threadIdx.z = 0;
        if (hs_emul.hold_after > 0) hs_emul_thread_gate();
        kernel(args...);
    }
}

/* the whole grid, on hs_emul.workers OS threads or one after the other */
template <class K, class... A>
static inline void hs_emul_run_grid(K kernel, unsigned int grid, unsigned int block, A... args)
{
    int W = hs_emul.workers > 1 ? hs_emul.workers : 1, w;
    if (W == 1) {
        hs_emul_run_threads(0, 1, kernel, grid, block, args...);
    } else {
        std::vector<std::thread> ts;
        for (w = 0; w < W; ++w) ts.emplace_back(hs_emul_run_threads<K, A...>, w, W, kernel, grid, block, args...);
        for (w = 0; w < W; ++w) ts[w].join();
    }
}

/* a launch's kernel and arguments, copied as a launch copies them, for an asynchronous run */
template <class K, class... A> struct hs_emul_pending {
    K kernel;
    unsigned int grid, block;
    std::tuple<A...> args;
    static void run(void *p)
    {
        hs_emul_pending *q = (hs_emul_pending *)p;
        std::apply([q](A... a) { hs_emul_run_grid(q->kernel, q->grid, q->block, a...); }, q->args);
    }
    static void drop(void *p) { delete (hs_emul_pending *)p; }
};

template <class K, class... A>
static inline void hs_emul_launch(const char *name, K kernel, unsigned int grid, unsigned int block, A... args)
{
    if (hs_emul_launch_begin(name, grid, block)) return;
    (hs_emul_arg(name, args), ...);
    if (hs_emul.async) {
        hs_emul_pending<K, A...> *q = new hs_emul_pending<K, A...>{kernel, grid, block, std::tuple<A...>(args...)};
        hs_emul_async_start(hs_emul_pending<K, A...>::run, q, hs_emul_pending<K, A...>::drop);
        return;
    }
    hs_emul_device_open();
    hs_emul_run_grid(kernel, grid, block, args...);
    hs_emul_device_close();
}
#define HS_GPU_LAUNCH(kernel, grid, block, ...) hs_emul_launch(#kernel, kernel, (grid), (block), __VA_ARGS__)

/* Device atomics (the threads may run at once: hs_emul.workers). */
template <class T> static inline T hs_emul_atomic_max(T *a, T v)
{
    T old = __atomic_load_n(a, __ATOMIC_RELAXED);
    while (v > old && !__atomic_compare_exchange_n(a, &old, v, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
    }
    return old;
}
static inline unsigned long long atomicMax(unsigned long long *a, unsigned long long v) { return hs_emul_atomic_max(a, v); }
static inline int atomicMax(int *a, int v) { return hs_emul_atomic_max(a, v); }
static inline unsigned long long atomicAdd(unsigned long long *a, unsigned long long v)
{
    return __atomic_fetch_add(a, v, __ATOMIC_RELAXED);
}

/* ---------------------------------------------------------------------------------------
 * CUB's stream compaction (cub::DeviceSelect::Flagged), the subset the cuBLAS path uses:
 * the same two-call protocol (size query with d_temp == NULL, then the selection), with a
 * temporary size that grows with num_items so that reusing a smaller query is caught. */

size_t hs_emul_cub_temp_bytes(long num_items);
/* cudaSuccess, cudaErrorInvalidValue (a misuse, recorded) or the context's fault */
cudaError_t hs_emul_cub_check(void *d_temp, size_t temp_bytes, long num_items, const void *flags, size_t flag_size,
                              const void *out, size_t out_size, const void *nsel, size_t nsel_size);

namespace cub {
struct DeviceSelect {
    template <class In, class Flag, class Out, class Num, class N>
    static cudaError_t Flagged(void *d_temp, size_t &temp_bytes, In in, Flag *flags, Out *out, Num *nsel, N num_items,
                               cudaStream_t stream = 0)
    {
        long i, k = 0, n = (long)num_items;
        cudaError_t e;
        (void)stream;
        if (!d_temp) {
            temp_bytes = hs_emul_cub_temp_bytes(n);
            return cudaSuccess;
        }
        e = hs_emul_cub_check(d_temp, temp_bytes, n, flags, sizeof *flags, out, sizeof *out, nsel, sizeof *nsel);
        if (e != cudaSuccess) return e;
        hs_emul_device_open();
        for (i = 0; i < n; ++i)
            if (flags[i]) out[k++] = in[i];
        *nsel = (Num)k;
        hs_emul_device_close();
        return cudaSuccess;
    }
};
} /* namespace cub */

#endif
