/* hs_cuda_emul.cpp -- the definitions behind hs_cuda_emul.h: the CUDA runtime and cuBLAS
 * calls of the GPU backends, on the host (see the header for what is and is not checked).
 * Single-threaded, like the host code that calls it. */
#include "hs_cuda_emul.h"

#include <cublas_v2.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <atomic>
#include <chrono>
#include <map>
#include <thread>

/* Device memory: outside an AddressSanitizer build, one reserved address range whose pages
 * are inaccessible (PROT_NONE) except while the emulated device works on them (a kernel, a
 * copy, a memset, CUB, cuBLAS): host code that dereferences a device pointer faults here as
 * on a GPU. Under ASan, plain malloc blocks, whose redzones catch kernels running off a
 * block's end instead. */
#if defined(__SANITIZE_ADDRESS__)
#define HS_EMUL_ARENA 0
#else
#define HS_EMUL_ARENA 1
#include <sys/mman.h>
#include <unistd.h>
#endif

#include "hs_batch.h"

extern "C" {
void dgetrf_(const int *m, const int *n, double *a, const int *lda, int *ipiv, int *info);
void dgetrs_(const char *trans, const int *n, const int *nrhs, const double *a, const int *lda, const int *ipiv,
             double *b, const int *ldb, int *info, size_t trans_len);
}

hs_emul_config hs_emul;
hs_emul_counters hs_emul_count;

/* hs_emul.hold_after: the threads started since the reset, whether a stop was asked, and the
 * gate the host's next stream query opens */
static std::atomic<long> g_gate_started(0);
static std::atomic<int> g_gate_asked(0), g_gate_open(0);

void hs_emul_stop_asked(void)
{
    g_gate_asked.store(1);
}

void hs_emul_thread_gate(void)
{
    int k;
    if (g_gate_started.fetch_add(1) < hs_emul.hold_after) return;
    for (k = 0; k < 10000 && !g_gate_open.load(); ++k) /* at most 10 s: a test never hangs */
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    g_gate_open.store(1);
}
thread_local uint3 hs_emul_blockIdx, hs_emul_threadIdx;
thread_local dim3 hs_emul_blockDim, hs_emul_gridDim;

static std::map<uintptr_t, size_t> g_blocks; /* start -> size of every live device block */
static std::map<uintptr_t, size_t> g_globals; /* start -> size of every library variable */
static std::map<uintptr_t, size_t> g_host; /* start -> size of every live cudaHostAlloc block */
static std::map<uintptr_t, size_t> g_mapped; /* the same, of those allocated cudaHostAllocMapped */

/* the kernel running asynchronously (hs_emul.async), at most one: the default stream */
static std::thread *g_bg = NULL;
static std::atomic<int> g_bg_done(0);
static void *g_bg_ctx = NULL;
static void (*g_bg_drop)(void *) = NULL;
static cudaError_t g_last = cudaSuccess; /* cudaGetLastError's (non-sticky) */
static cudaError_t g_sticky = cudaSuccess; /* a faulted kernel: every later call reports it */
static cudaError_t g_pending = cudaSuccess; /* a deferred fault not yet seen by a sync point */
static size_t g_stack = 1024; /* cudaLimitStackSize */
/* the first kernel's name, copied: a kernel of an unloaded library is freed with it */
static char g_first_kernel[128];
static int g_init = 0;

#if HS_EMUL_ARENA
static char *g_arena = NULL;
static const size_t g_arena_cap = (size_t)1 << 36; /* address space only (MAP_NORESERVE) */
static size_t g_arena_used = 0;
static int g_open = 0; /* nesting of hs_emul_device_open */
static size_t g_rw = 0; /* bytes of the arena now readable and writable (from its start) */
static long g_closes = 0; /* device work ended since the reset */

static size_t page_up(size_t n)
{
    size_t pg = (size_t)sysconf(_SC_PAGESIZE);
    return (n + pg - 1) / pg * pg;
}
#endif

/* device memory of n bytes, 256-byte aligned like cudaMalloc's; NULL when there is none */
static void *dev_alloc(size_t n)
{
#if HS_EMUL_ARENA
    size_t off;
    static int no_arena = 0;
    if (!g_arena && !no_arena) {
        void *p = mmap(NULL, g_arena_cap, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p == MAP_FAILED) { /* no address space to reserve: unprotected heap blocks */
            no_arena = 1;
            fprintf(stderr, "hs_cuda_emul: cannot reserve the device arena; device memory stays "
                            "accessible to host code\n");
        } else {
            g_arena = (char *)p;
        }
    }
    if (!g_arena) return malloc(n);
    off = (g_arena_used + 255) / 256 * 256;
    if (off + n > g_arena_cap) return NULL;
    g_arena_used = off + n;
    return g_arena + off;
#else
    return malloc(n);
#endif
}

static void dev_free(void *p)
{
#if HS_EMUL_ARENA
    if (!g_arena) free(p); /* else the range is reclaimed by hs_emul_reset */
#else
    free(p);
#endif
}

void hs_emul_device_open(void)
{
#if HS_EMUL_ARENA
    size_t n = page_up(g_arena_used);
    if (g_open++ == 0 && n > g_rw) {
        if (mprotect(g_arena, n, PROT_READ | PROT_WRITE)) abort();
        g_rw = n;
    }
#endif
}

/* Takes the host's access away again (the arena's pages back to PROT_NONE). */
static void dev_protect(void)
{
#if HS_EMUL_ARENA
    if (g_open == 0 && g_rw > 0) {
        if (mprotect(g_arena, g_rw, PROT_NONE)) abort();
        g_rw = 0;
    }
#endif
}

/* After device work, host code runs: protected again after the first 512 pieces of work
 * since the reset (a backend's set-up and its first loop iterations, every line of its host
 * code), then after every 61st (re-protecting all pages after each of the cuBLAS path's
 * thousands of launches would cost seconds of system time per run), and always at
 * cudaDeviceSynchronize and cudaFree (the ends of loops: the copy back and the clean-up). */
void hs_emul_device_close(void)
{
#if HS_EMUL_ARENA
    if (--g_open == 0) {
        ++g_closes;
        if (g_closes < 512 || g_closes % 61 == 0) dev_protect();
    }
#endif
}

void hs_emul_reset(void)
{
    std::map<uintptr_t, size_t>::iterator it;
    hs_emul_drain();
    for (it = g_blocks.begin(); it != g_blocks.end(); ++it) dev_free((void *)it->first);
    g_blocks.clear();
    for (it = g_host.begin(); it != g_host.end(); ++it) free((void *)it->first);
    g_host.clear();
    g_mapped.clear();
#if HS_EMUL_ARENA
    if (g_arena && g_arena_used > 0) {
        (void)madvise(g_arena, page_up(g_arena_used), MADV_DONTNEED);
        (void)mprotect(g_arena, page_up(g_arena_used), PROT_NONE);
    }
    g_arena_used = 0;
    g_open = 0;
    g_rw = 0;
    g_closes = 0;
#endif
    g_init = 1;
    g_gate_started.store(0);
    g_gate_asked.store(0);
    g_gate_open.store(0);
    memset(&hs_emul, 0, sizeof hs_emul);
    hs_emul.device_count = 1;
    hs_emul.count_error = cudaSuccess;
    hs_emul.sms = 4;
    hs_emul.threads_per_sm = 2048;
    hs_emul.blocks_per_sm = 2;
    hs_emul.mem_total = (size_t)8 << 30;
    hs_emul.local_bytes = 2048;
    {
        /* HS_EMUL_ASYNC=1: asynchronous kernels from the start (the CLI on the emulated
         * device: hydrosweep_gpu_emul, tests/gpu_emul/cli_run_gpu_emul.sh) */
        const char *a = getenv("HS_EMUL_ASYNC");
        hs_emul.async = a && *a && strcmp(a, "0") != 0;
    }
    memset(&hs_emul_count, 0, sizeof hs_emul_count);
    g_last = g_sticky = g_pending = cudaSuccess;
    g_stack = 1024;
    g_first_kernel[0] = '\0';
}

/* the first call of anything sets the defaults (unless a test reset them first); every call
 * but cudaStreamQuery and cudaGetLastError waits for an asynchronous kernel first, as calls
 * on the default stream are ordered after it */
static void ensure_init(void)
{
    if (!g_init) hs_emul_reset();
    hs_emul_drain();
}

static void bg_main(void (*body)(void *), void *ctx)
{
    body(ctx);
    g_bg_done.store(1);
}

void hs_emul_async_start(void (*body)(void *), void *ctx, void (*drop)(void *))
{
    hs_emul_drain();
    hs_emul_device_open(); /* (closed again by hs_emul_drain, on the host's thread) */
    g_bg_done.store(0);
    g_bg_ctx = ctx;
    g_bg_drop = drop;
    g_bg = new std::thread(bg_main, body, ctx);
}

void hs_emul_drain(void)
{
    if (!g_bg || g_bg->get_id() == std::this_thread::get_id()) return;
    g_bg->join();
    delete g_bg;
    g_bg = NULL;
    if (g_bg_drop) g_bg_drop(g_bg_ctx);
    g_bg_ctx = NULL;
    g_bg_drop = NULL;
    hs_emul_device_close();
}

/* A synchronising call (cudaDeviceSynchronize, copies, cudaFree, CUB, cuBLAS): a deferred
 * kernel fault shows here and becomes sticky. */
static cudaError_t sync_point(void)
{
    if (g_pending != cudaSuccess) {
        g_sticky = g_pending;
        g_pending = cudaSuccess;
    }
    return g_sticky;
}

int hs_emul_faulted(void) { return g_sticky != cudaSuccess || g_pending != cudaSuccess; }

/* a misuse recorded, then cudaErrorInvalidValue as the last error */
#define EMUL_INVALID(...) EMUL_MISUSE(set_err(cudaErrorInvalidValue), __VA_ARGS__)

void hs_emul_violation(const char *fmt, ...)
{
    va_list ap;
    if (hs_emul_count.violations++ == 0) {
        va_start(ap, fmt);
        vsnprintf(hs_emul_count.what, sizeof hs_emul_count.what, fmt, ap);
        va_end(ap);
    }
}

/* [p, p + bytes) inside one range of map */
static int in_map(std::map<uintptr_t, size_t> &map, uintptr_t a, size_t bytes)
{
    std::map<uintptr_t, size_t>::iterator it = map.upper_bound(a);
    if (it == map.begin()) return 0;
    --it;
    /* a zero-byte range may sit at a block's end (one past the last element) */
    return a >= it->first && a - it->first <= it->second && bytes <= it->second - (a - it->first);
}

int hs_emul_is_device(const void *p, size_t bytes)
{
    ensure_init();
    if (!p) return 0;
    return in_map(g_blocks, (uintptr_t)p, bytes) || in_map(g_globals, (uintptr_t)p, bytes);
}

void hs_emul_global(void *p, size_t bytes)
{
    if (bytes > 0) g_globals[(uintptr_t)p] = bytes;
    else g_globals.erase((uintptr_t)p);
}

void hs_emul_check_arg(const char *kernel, const void *p)
{
    if (p && !hs_emul_is_device(p, 0) && !in_map(g_mapped, (uintptr_t)p, 0))
        hs_emul_violation("kernel %s: pointer argument %p is neither device memory nor mapped pinned host memory",
                          kernel, p);
}

void hs_emul_arg(const char *kernel, const hs_batch_out &o)
{
    size_t n = (size_t)(o.n > 0 ? o.n : 0);
    if (!hs_emul_is_device(o.status, n * sizeof *o.status) || !hs_emul_is_device(o.steps, n * sizeof *o.steps) ||
        (o.rejected && !hs_emul_is_device(o.rejected, n * sizeof *o.rejected)) ||
        !hs_emul_is_device(o.iters_mean, n * sizeof *o.iters_mean) ||
        !hs_emul_is_device(o.iters_max, n * sizeof *o.iters_max) || !hs_emul_is_device(o.stats, n * HS_NSTAT * sizeof *o.stats) ||
        (o.traj && !hs_emul_is_device(o.traj, n * o.ntime * sizeof *o.traj)))
        hs_emul_violation("kernel %s: the hs_batch_out of %ld instances does not point into device memory", kernel,
                          o.n);
}

/* a host pointer must not point into device memory */
static int is_host(const void *p) { return p && !hs_emul_is_device(p, 0); }

static cudaError_t set_err(cudaError_t e)
{
    if (e != cudaSuccess && g_last == cudaSuccess) g_last = e;
    return e;
}

int hs_emul_launch_begin(const char *kernel, unsigned int grid, unsigned int block)
{
    ensure_init();
    ++hs_emul_count.launches;
    g_gate_started.store(0); /* hs_emul.hold_after counts each launch's threads */
    if (!g_first_kernel[0]) snprintf(g_first_kernel, sizeof g_first_kernel, "%s", kernel);
    if (!strcmp(kernel, g_first_kernel)) ++hs_emul_count.launches_of_first;
    if (block > hs_emul_count.max_block) hs_emul_count.max_block = block;
    if (grid > hs_emul_count.max_grid) hs_emul_count.max_grid = grid;
    if (g_sticky != cudaSuccess) {
        set_err(g_sticky);
        return 1;
    }
    if (grid == 0 || block == 0 || block > 1024 || grid > 0x7fffffffu) {
        hs_emul_violation("kernel %s: launch shape <<<%u, %u>>> outside CUDA's limits", kernel, grid, block);
        set_err(cudaErrorInvalidConfiguration);
        return 1;
    }
    if (hs_emul.fail_launch_at > 0 && hs_emul_count.launches == hs_emul.fail_launch_at) {
        /* immediate: cudaGetLastError after the launch reports it; deferred (as a fault during
         * the kernel on a device): the launch succeeds, the next synchronising call fails */
        if (hs_emul.fault_deferred) g_pending = cudaErrorLaunchFailure;
        else g_sticky = cudaErrorLaunchFailure;
        return 1;
    }
    return 0;
}

size_t hs_emul_cub_temp_bytes(long num_items) { return 256 + (size_t)(num_items > 0 ? num_items : 0) * 4; }

cudaError_t hs_emul_cub_check(void *d_temp, size_t temp_bytes, long num_items, const void *flags, size_t flag_size,
                              const void *out, size_t out_size, const void *nsel, size_t nsel_size)
{
    size_t n = (size_t)(num_items > 0 ? num_items : 0);
    if (temp_bytes < hs_emul_cub_temp_bytes(num_items) || !hs_emul_is_device(d_temp, temp_bytes))
        return EMUL_MISUSE(cudaErrorInvalidValue,
                           "cub::DeviceSelect::Flagged: temporary of %zu bytes (device: %d) for %ld items, needs %zu",
                           temp_bytes, hs_emul_is_device(d_temp, temp_bytes), num_items,
                           hs_emul_cub_temp_bytes(num_items));
    if ((n && (!hs_emul_is_device(flags, n * flag_size) || !hs_emul_is_device(out, n * out_size))) ||
        !hs_emul_is_device(nsel, nsel_size))
        return EMUL_MISUSE(cudaErrorInvalidValue,
                           "cub::DeviceSelect::Flagged: flags, output or count not device memory of %ld items",
                           num_items);
    return sync_point();
}

/* ---------------------------------------------------------------------------------------
 * the runtime */

extern "C" {

/* the errors the emulation gives: name, CUDA's description ("": the unknown one) */
#define EMUL_ERRORS(X)                                                                             \
    X(cudaSuccess, "no error") X(cudaErrorInvalidValue, "invalid argument")                         \
    X(cudaErrorMemoryAllocation, "out of memory")                                                  \
    X(cudaErrorInvalidConfiguration, "invalid configuration argument")                             \
    X(cudaErrorLaunchFailure, "unspecified launch failure")                                        \
    X(cudaErrorNoDevice, "no CUDA-capable device is detected")                                     \
    X(cudaErrorInsufficientDriver, "CUDA driver version is insufficient for CUDA runtime version")   \
    X(cudaErrorInvalidDevice, "invalid device ordinal") X(cudaErrorInvalidDeviceFunction, "")       \
    X(cudaErrorUnsupportedLimit, "")

const char *cudaGetErrorName(cudaError_t e)
{
#define EMUL_NAME_(c, s) if (e == c) return #c;
    EMUL_ERRORS(EMUL_NAME_)
    return "cudaErrorUnknown";
}

const char *cudaGetErrorString(cudaError_t e)
{
#define EMUL_STRING_(c, s) if (e == c && s[0]) return s;
    EMUL_ERRORS(EMUL_STRING_)
    return "unknown error (emulated device)";
}

cudaError_t cudaGetLastError(void)
{
    cudaError_t e = g_last;
    if (!g_init) hs_emul_reset(); /* (not ordered after a running kernel: no waiting) */
    g_last = cudaSuccess;
    return g_sticky != cudaSuccess ? g_sticky : e;
}

cudaError_t cudaDriverGetVersion(int *v)
{
    ensure_init();
    *v = hs_emul.count_error == cudaErrorInsufficientDriver ? 0 : 13000;
    return cudaSuccess;
}

cudaError_t cudaGetDeviceCount(int *n)
{
    ensure_init();
    *n = 0;
    if (hs_emul.count_error != cudaSuccess) return set_err(hs_emul.count_error);
    *n = hs_emul.device_count;
    return hs_emul.device_count > 0 ? cudaSuccess : set_err(cudaErrorNoDevice);
}

cudaError_t cudaGetDevice(int *d)
{
    ensure_init();
    *d = 0;
    if (g_sticky != cudaSuccess) return g_sticky;
    return hs_emul.device_count > 0 && hs_emul.count_error == cudaSuccess ? cudaSuccess : set_err(cudaErrorNoDevice);
}

cudaError_t cudaSetDevice(int d)
{
    ensure_init();
    if (d < 0 || d >= hs_emul.device_count || hs_emul.count_error != cudaSuccess) return set_err(cudaErrorInvalidDevice);
    return g_sticky != cudaSuccess ? g_sticky : cudaSuccess;
}

cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *p, int d)
{
    ensure_init();
    if (d < 0 || d >= hs_emul.device_count) return set_err(cudaErrorInvalidDevice);
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "host emulation of a CUDA device (tests/gpu_emul)");
    p->major = 9;
    p->minor = 0;
    p->multiProcessorCount = hs_emul.sms;
    p->maxThreadsPerMultiProcessor = hs_emul.threads_per_sm;
    p->totalGlobalMem = hs_emul.mem_total;
    return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int *v, enum cudaDeviceAttr a, int d)
{
    ensure_init();
    if (g_sticky != cudaSuccess) return g_sticky;
    if (d < 0 || d >= hs_emul.device_count) return set_err(cudaErrorInvalidDevice);
    switch (a) {
    case cudaDevAttrMultiProcessorCount: *v = hs_emul.sms; break;
    case cudaDevAttrMaxThreadsPerMultiProcessor: *v = hs_emul.threads_per_sm; break;
    case cudaDevAttrMaxThreadsPerBlock: *v = 1024; break;
    case cudaDevAttrComputeCapabilityMajor: *v = 9; break; /* an sm_90 device, like the H100 */
    case cudaDevAttrComputeCapabilityMinor: *v = 0; break;
    default: return set_err(cudaErrorInvalidValue);
    }
    return cudaSuccess;
}

cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *fa, const void *f)
{
    ensure_init();
    if (!f) return set_err(cudaErrorInvalidDeviceFunction);
    memset(fa, 0, sizeof *fa);
    fa->numRegs = 255;
    fa->localSizeBytes = hs_emul.local_bytes;
    fa->maxThreadsPerBlock = 1024;
    return g_sticky != cudaSuccess ? g_sticky : cudaSuccess;
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *nb, const void *f, int block, size_t smem)
{
    ensure_init();
    if (g_sticky != cudaSuccess) return g_sticky;
    (void)smem;
    if (!f || block <= 0 || block > 1024) return set_err(cudaErrorInvalidValue);
    *nb = hs_emul.blocks_per_sm;
    return cudaSuccess;
}

cudaError_t cudaDeviceGetLimit(size_t *v, enum cudaLimit l)
{
    ensure_init();
    if (g_sticky != cudaSuccess) return g_sticky;
    if (l != cudaLimitStackSize) return set_err(cudaErrorUnsupportedLimit);
    *v = g_stack;
    return cudaSuccess;
}

/* like the driver: the stack of every thread the device can hold is reserved at once */
cudaError_t cudaDeviceSetLimit(enum cudaLimit l, size_t v)
{
    size_t need;
    ensure_init();
    if (g_sticky != cudaSuccess) return g_sticky; /* a faulted context keeps its limit */
    if (l != cudaLimitStackSize) return set_err(cudaErrorUnsupportedLimit);
    need = v * (size_t)hs_emul.sms * (size_t)hs_emul.threads_per_sm;
    if (need + hs_emul_count.live_bytes > hs_emul.mem_total) return set_err(cudaErrorMemoryAllocation);
    g_stack = v;
    return cudaSuccess;
}

/* free = total - blocks - the stack reservation */
cudaError_t cudaMemGetInfo(size_t *fr, size_t *tot)
{
    size_t used;
    ensure_init();
    used = hs_emul_count.live_bytes + g_stack * (size_t)hs_emul.sms * (size_t)hs_emul.threads_per_sm;
    *tot = hs_emul.mem_total;
    *fr = used < hs_emul.mem_total ? hs_emul.mem_total - used : 0;
    return g_sticky != cudaSuccess ? g_sticky : cudaSuccess;
}

cudaError_t cudaMalloc(void **p, size_t n)
{
    size_t fr = 0, tot = 0;
    ensure_init();
    *p = NULL;
    ++hs_emul_count.mallocs;
    if (g_sticky != cudaSuccess) return g_sticky;
    if (hs_emul.fail_malloc_at > 0 && hs_emul_count.mallocs == hs_emul.fail_malloc_at)
        return set_err(cudaErrorMemoryAllocation);
    (void)cudaMemGetInfo(&fr, &tot);
    if (n > fr) return set_err(cudaErrorMemoryAllocation);
    if (n == 0) return cudaSuccess;
    *p = dev_alloc(n);
    if (!*p) return set_err(cudaErrorMemoryAllocation);
    hs_emul_device_open();
    memset(*p, 0xff, n); /* not zeroed: NaN doubles, -1 ints */
    hs_emul_device_close();
    g_blocks[(uintptr_t)*p] = n;
    ++hs_emul_count.live;
    hs_emul_count.live_bytes += n;
    if (hs_emul_count.live_bytes > hs_emul_count.peak_bytes) hs_emul_count.peak_bytes = hs_emul_count.live_bytes;
    return cudaSuccess;
}

cudaError_t cudaFree(void *p)
{
    std::map<uintptr_t, size_t>::iterator it;
    ensure_init();
    if (!p) return cudaSuccess;
    ++hs_emul_count.frees;
    it = g_blocks.find((uintptr_t)p);
    if (it == g_blocks.end())
        return EMUL_INVALID("cudaFree(%p): not the start of a live device block (double free?)", p);
    hs_emul_count.live_bytes -= it->second;
    --hs_emul_count.live;
    g_blocks.erase(it);
    dev_free(p);
    dev_protect();
    /* cudaFree synchronises. On a device a faulted context reclaims nothing and reports its
     * fault; here the block counts as handed back either way, so that the leak checks see
     * whether the error paths hand every block back */
    return sync_point();
}

/* the device side of a copy inside one block, the host side outside all of them */
static int copy_ok(const char *what, const void *dst, size_t dspan, const void *src, size_t sspan,
                   enum cudaMemcpyKind k)
{
    int dd = k == cudaMemcpyDeviceToDevice || k == cudaMemcpyHostToDevice;
    int sd = k == cudaMemcpyDeviceToDevice || k == cudaMemcpyDeviceToHost;
    if (k != cudaMemcpyHostToDevice && k != cudaMemcpyDeviceToHost && k != cudaMemcpyDeviceToDevice &&
        k != cudaMemcpyHostToHost)
        return EMUL_MISUSE(0, "%s: copy kind %d (use an explicit direction)", what, (int)k);
    if (dspan == 0 && sspan == 0) return 1;
    if (!dst || !src || (dd ? !hs_emul_is_device(dst, dspan) : !is_host(dst)) ||
        (sd ? !hs_emul_is_device(src, sspan) : !is_host(src)))
        return EMUL_MISUSE(0,
                           "%s: %s %p (%zu bytes) <- %s %p (%zu bytes): not where the copy kind says, or out of its "
                           "block", what, dd ? "device" : "host", dst, dspan, sd ? "device" : "host", src, sspan);
    return 1;
}

cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, enum cudaMemcpyKind k)
{
    ensure_init();
    ++hs_emul_count.copies;
    if (sync_point() != cudaSuccess) return g_sticky;
    if (!copy_ok("cudaMemcpy", dst, n, src, n, k)) return set_err(cudaErrorInvalidValue);
    hs_emul_device_open();
    if (n) memmove(dst, src, n);
    hs_emul_device_close();
    return cudaSuccess;
}

cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                         enum cudaMemcpyKind k)
{
    size_t r;
    ensure_init();
    ++hs_emul_count.copies;
    if (sync_point() != cudaSuccess) return g_sticky;
    if (width > dpitch || width > spitch)
        return EMUL_INVALID("cudaMemcpy2D: width %zu wider than a pitch (%zu, %zu)", width, dpitch, spitch);
    if (height == 0 || width == 0) return cudaSuccess;
    if (!copy_ok("cudaMemcpy2D", dst, (height - 1) * dpitch + width, src, (height - 1) * spitch + width, k))
        return set_err(cudaErrorInvalidValue);
    hs_emul_device_open();
    for (r = 0; r < height; ++r) memmove((char *)dst + r * dpitch, (const char *)src + r * spitch, width);
    hs_emul_device_close();
    return cudaSuccess;
}

cudaError_t cudaMemset(void *p, int v, size_t n)
{
    ensure_init();
    if (g_sticky != cudaSuccess) return g_sticky;
    if (n == 0) return cudaSuccess;
    if (!hs_emul_is_device(p, n))
        return EMUL_INVALID("cudaMemset(%p, %zu bytes): not inside a device block", p, n);
    hs_emul_device_open();
    memset(p, v, n);
    hs_emul_device_close();
    return cudaSuccess;
}

cudaError_t cudaDeviceSynchronize(void)
{
    ensure_init();
    dev_protect();
    return sync_point();
}

/* Not a synchronising call: cudaErrorNotReady while an asynchronous kernel runs; else the
 * fault of a kernel, if any (it becomes sticky, as at any synchronising call). */
cudaError_t cudaStreamQuery(cudaStream_t stream)
{
    if (!g_init) hs_emul_reset();
    ++hs_emul_count.queries;
    if (g_gate_asked.load()) g_gate_open.store(1); /* the host wrote its stop flag before this */
    if (stream != 0)
        return EMUL_INVALID("cudaStreamQuery(%p): only the default stream is emulated", (void *)stream);
    if (g_bg && !g_bg_done.load()) {
        ++hs_emul_count.not_ready;
        return cudaErrorNotReady;
    }
    hs_emul_drain();
    return sync_point();
}

/* pinned host memory: ordinary host memory (not zeroed), known to the device when mapped;
 * with unified addressing its device address is its host address */
cudaError_t cudaHostAlloc(void **p, size_t n, unsigned int flags)
{
    void *q;
    ensure_init();
    *p = NULL;
    ++hs_emul_count.host_allocs;
    if (g_sticky != cudaSuccess) return g_sticky;
    if (flags & ~(unsigned int)(cudaHostAllocPortable | cudaHostAllocMapped | cudaHostAllocWriteCombined))
        return EMUL_INVALID("cudaHostAlloc: unknown flags %#x", flags);
    if (hs_emul.fail_host_alloc) return set_err(cudaErrorMemoryAllocation);
    if (!(q = malloc(n > 0 ? n : 1))) return set_err(cudaErrorMemoryAllocation);
    memset(q, 0xff, n);
    g_host[(uintptr_t)q] = n;
    if (flags & cudaHostAllocMapped) g_mapped[(uintptr_t)q] = n;
    ++hs_emul_count.host_live;
    *p = q;
    return cudaSuccess;
}

cudaError_t cudaHostGetDevicePointer(void **d, void *h, unsigned int flags)
{
    ensure_init();
    *d = NULL;
    if (g_sticky != cudaSuccess) return g_sticky;
    if (flags != 0)
        return EMUL_INVALID("cudaHostGetDevicePointer: flags must be 0, not %#x", flags);
    if (!h || !in_map(g_mapped, (uintptr_t)h, 0))
        return EMUL_INVALID("cudaHostGetDevicePointer(%p): not mapped pinned memory (cudaHostAllocMapped)", h);
    *d = h;
    return cudaSuccess;
}

cudaError_t cudaFreeHost(void *p)
{
    std::map<uintptr_t, size_t>::iterator it;
    ensure_init();
    if (!p) return cudaSuccess;
    it = g_host.find((uintptr_t)p);
    if (it == g_host.end())
        return EMUL_INVALID("cudaFreeHost(%p): not the start of a live cudaHostAlloc block (double free?)", p);
    ++hs_emul_count.host_frees;
    --hs_emul_count.host_live;
    g_host.erase(it);
    g_mapped.erase((uintptr_t)p);
    free(p);
    return sync_point(); /* (it synchronises, like cudaFree) */
}

/* ---------------------------------------------------------------------------------------
 * cuBLAS */

} /* extern "C" */

struct cublasContext {
    unsigned magic;
};
#define EMUL_BLAS_MAGIC 0xb1a5u

/* 1 when this cuBLAS call is the injected failure */
static int blas_fault(void)
{
    ++hs_emul_count.blas_calls;
    return hs_emul.fail_blas_at > 0 && hs_emul_count.blas_calls == hs_emul.fail_blas_at;
}

/* the batch's matrix pointers: a device array of device matrices of rows x cols doubles,
 * column-major with leading dimension ld */
static int blas_matrices(const char *what, const double *const *A, int ld, int rows, int cols, int batch)
{
    int k, ok = 1;
    size_t need = cols > 0 ? (size_t)ld * (size_t)(cols - 1) + (size_t)rows : 0;
    if (batch <= 0) return 1;
    if (!hs_emul_is_device(A, (size_t)batch * sizeof *A))
        return EMUL_MISUSE(0, "%s: the pointer array is not device memory of %d pointers", what, batch);
    hs_emul_device_open(); /* the pointers live on the device */
    for (k = 0; k < batch && ok; ++k)
        if (!hs_emul_is_device(A[k], need * sizeof(double))) {
            hs_emul_violation("%s: matrix %d (%p) is not device memory of %d x %d doubles (ld %d)", what, k,
                              (const void *)A[k], rows, cols, ld);
            ok = 0;
        }
    hs_emul_device_close();
    return ok;
}

extern "C" {

cublasStatus_t cublasCreate_v2(cublasHandle_t *h)
{
    ensure_init();
    if (blas_fault()) return CUBLAS_STATUS_NOT_INITIALIZED;
    *h = (cublasHandle_t)malloc(sizeof **h);
    if (!*h) return CUBLAS_STATUS_ALLOC_FAILED;
    (*h)->magic = EMUL_BLAS_MAGIC;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasDestroy_v2(cublasHandle_t h)
{
    if (!h || h->magic != EMUL_BLAS_MAGIC)
        return EMUL_MISUSE(CUBLAS_STATUS_NOT_INITIALIZED, "cublasDestroy: not a live handle");
    h->magic = 0;
    free(h);
    return CUBLAS_STATUS_SUCCESS;
}

const char *cublasGetStatusString(cublasStatus_t s)
{
    switch (s) {
    case CUBLAS_STATUS_SUCCESS: return "the operation completed successfully";
    case CUBLAS_STATUS_NOT_INITIALIZED: return "the library was not initialized";
    case CUBLAS_STATUS_ALLOC_FAILED: return "the resource allocation failed";
    case CUBLAS_STATUS_INVALID_VALUE: return "an invalid numeric value was used as an argument";
    case CUBLAS_STATUS_EXECUTION_FAILED: return "the GPU program failed to execute";
    default: return "unknown cuBLAS status (emulated)";
    }
}

cublasStatus_t cublasDgetrfBatched(cublasHandle_t h, int n, double *const A[], int lda, int *P, int *info,
                                   int batch)
{
    int k;
    if (!h || h->magic != EMUL_BLAS_MAGIC) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (n < 0 || lda < (n > 1 ? n : 1) || batch < 0) return CUBLAS_STATUS_INVALID_VALUE;
    if (blas_fault()) return CUBLAS_STATUS_EXECUTION_FAILED;
    if (sync_point() != cudaSuccess) return CUBLAS_STATUS_EXECUTION_FAILED;
    if (!blas_matrices("cublasDgetrfBatched", A, lda, n, n, batch)) return CUBLAS_STATUS_INVALID_VALUE;
    if (batch > 0 && (!hs_emul_is_device(info, (size_t)batch * sizeof *info) ||
                      (P && !hs_emul_is_device(P, (size_t)batch * (size_t)n * sizeof *P))))
        return EMUL_MISUSE(CUBLAS_STATUS_INVALID_VALUE,
                           "cublasDgetrfBatched: pivots or info not device memory of the batch's size");
    if (!P) { /* cuBLAS factors without pivoting then: not what the backends ask for */
        hs_emul_violation("cublasDgetrfBatched without pivots");
        return CUBLAS_STATUS_INVALID_VALUE;
    }
    hs_emul_device_open();
    for (k = 0; k < batch; ++k) dgetrf_(&n, &n, A[k], &lda, P + (size_t)k * (size_t)n, &info[k]);
    hs_emul_device_close();
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasDgetrsBatched(cublasHandle_t h, cublasOperation_t trans, int n, int nrhs, const double *const A[],
                                   int lda, const int *P, double *const B[], int ldb, int *info, int batch)
{
    int k, e = 0;
    char t = trans == CUBLAS_OP_N ? 'N' : 'T';
    if (!h || h->magic != EMUL_BLAS_MAGIC) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (hs_emul_is_device(info, sizeof *info))
        return EMUL_MISUSE(CUBLAS_STATUS_INVALID_VALUE, "cublasDgetrsBatched: info must be a host pointer");
    /* cuBLAS reports a bad argument through *info (-i for the i-th) */
    if (n < 0) e = 3;
    else if (nrhs < 0) e = 4;
    else if (lda < (n > 1 ? n : 1)) e = 6;
    else if (ldb < (n > 1 ? n : 1)) e = 9;
    else if (batch < 0) e = 11;
    *info = -e;
    if (e) return CUBLAS_STATUS_INVALID_VALUE;
    if (blas_fault()) return CUBLAS_STATUS_EXECUTION_FAILED;
    if (sync_point() != cudaSuccess) return CUBLAS_STATUS_EXECUTION_FAILED;
    if (!blas_matrices("cublasDgetrsBatched (A)", A, lda, n, n, batch) ||
        !blas_matrices("cublasDgetrsBatched (B)", B, ldb, n, nrhs, batch))
        return CUBLAS_STATUS_INVALID_VALUE;
    if (batch > 0 && !hs_emul_is_device(P, (size_t)batch * (size_t)n * sizeof *P))
        return EMUL_MISUSE(CUBLAS_STATUS_INVALID_VALUE,
                           "cublasDgetrsBatched: pivots not device memory of the batch's size");
    hs_emul_device_open();
    for (k = 0; k < batch; ++k) {
        int inf = 0;
        dgetrs_(&t, &n, &nrhs, A[k], &lda, P + (size_t)k * (size_t)n, B[k], &ldb, &inf, 1);
    }
    hs_emul_device_close();
    return CUBLAS_STATUS_SUCCESS;
}

} /* extern "C" */
