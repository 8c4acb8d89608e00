/* hs_nvrtc_emul.cpp -- NVRTC and the runtime's library API (cudaLibraryLoadData,
 * cudaLibraryGetKernel, cudaLibraryGetGlobal, cudaLaunchKernel) on the emulated device, so
 * that CI runs the specialised GPU path (host/gpu/backend_gpu_spec.cu) end to end without a GPU.
 *
 * A program is compiled by the host C++ compiler (host/engine/kernel_build.h's hs_cc_shared, with
 * its cache) after a prelude that gives the CUDA built-ins (blockIdx, __global__,
 * __constant__, ...) host meanings, and a postlude with one trampoline per kernel named by
 * nvrtcAddNameExpression. The "cubin" is that shared object's bytes behind a magic header;
 * loading it dlopens a copy. Its kernels run thread by thread (or on hs_emul.workers OS
 * threads) like every emulated kernel, with their pointer arguments checked; its
 * __constant__ variables are device memory for copies (found with dlsym, sized by the
 * symbol table). What this cannot check: ptxas, registers, local memory, NVRTC's dialect
 * (the real compile is checked by `hydrosweep kernel` in CI). */
#include "hs_cuda_emul.h"

#include <dlfcn.h>
#include <link.h>
#include <nvrtc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <string>
#include <thread>
#include <vector>

extern "C" {
#include "engine/kernel_build.h"
#include "engine/kernel_spec.h"
}

#ifndef HS_EMUL_CXX
#define HS_EMUL_CXX "c++"
#endif

struct _nvrtcProgram {
    std::string src, name, log;
    std::vector<std::string> kernels;
    std::vector<char> image;
    int nheaders;
};

static const char hs_emul_magic[8] = {'H', 'S', 'E', 'M', 'U', 'L', 'S', 'O'};

/* the CUDA built-ins a kernel program uses, for the host compiler */
static const char *const prelude =
    "#define __global__\n#define __device__\n#define __host__\n#define __constant__\n"
    "#define __launch_bounds__(...)\n#define HS_SPEC_EMUL 1\n"
    /* a block's shared memory: one copy per worker, which runs its threads one after the other */
    "#define __shared__ static thread_local\n"
    "struct hs_emul_dim { unsigned int x, y, z; };\n"
    "static thread_local hs_emul_dim blockIdx, threadIdx, blockDim, gridDim;\n"
    "static inline unsigned long long atomicAdd(unsigned long long *a, unsigned long long v)\n"
    "{\n    return __atomic_fetch_add(a, v, __ATOMIC_RELAXED);\n}\n";

/* after the program: each kernel's trampoline, called per thread with (block, thread, block
 * size, grid size); or with thr == NULL: mode 0 checks its pointer arguments, mode 1 copies
 * them (out[I] = a new copy of *args[I], as a launch copies its arguments), mode 2 deletes such
 * copies (args) */
static const char *const postlude_head =
    "\n#include <cstddef>\n#include <type_traits>\n#include <utility>\n"
    "typedef void (*hs_emul_check_fn)(const char *, const void *);\n"
    "template <class T> static void hs_emul_check_arg(const char *k, const T &a, hs_emul_check_fn chk,\n"
    "                                               hs_emul_check_fn chk_out)\n"
    "{\n"
    "    if constexpr (std::is_pointer<T>::value) chk(k, (const void *)a);\n"
    "    else if constexpr (std::is_same<T, hs_batch_out>::value) chk_out(k, (const void *)&a);\n"
    "}\n"
    "template <class... A, std::size_t... I>\n"
    "static void hs_emul_call(void (*k)(A...), const char *name, int mode, const unsigned *thr, void **args,\n"
    "                         void **out, hs_emul_check_fn chk, hs_emul_check_fn chk_out,\n"
    "                         std::index_sequence<I...>)\n"
    "{\n"
    "    static_assert(sizeof...(A) <= 16, \"at most 16 kernel arguments\");\n"
    "    if (!thr && mode == 1) {\n"
    "        ((out[I] = (void *)new typename std::decay<A>::type(*(typename std::decay<A>::type *)args[I])), ...);\n"
    "        return;\n"
    "    }\n"
    "    if (!thr && mode == 2) {\n"
    "        (delete (typename std::decay<A>::type *)args[I], ...);\n"
    "        return;\n"
    "    }\n"
    "    if (!thr) {\n"
    "        (hs_emul_check_arg(name, *(typename std::decay<A>::type *)args[I], chk, chk_out), ...);\n"
    "        return;\n"
    "    }\n"
    "    blockIdx.x = thr[0]; threadIdx.x = thr[1]; blockDim.x = thr[2]; gridDim.x = thr[3];\n"
    "    blockIdx.y = blockIdx.z = threadIdx.y = threadIdx.z = 0;\n"
    "    blockDim.y = blockDim.z = gridDim.y = gridDim.z = 1;\n"
    "    k(*(typename std::decay<A>::type *)args[I]...);\n"
    "}\n";

extern "C" {

const char *nvrtcGetErrorString(nvrtcResult r)
{
    switch (r) {
    case NVRTC_SUCCESS: return "NVRTC_SUCCESS";
    case NVRTC_ERROR_OUT_OF_MEMORY: return "NVRTC_ERROR_OUT_OF_MEMORY";
    case NVRTC_ERROR_INVALID_INPUT: return "NVRTC_ERROR_INVALID_INPUT";
    case NVRTC_ERROR_INVALID_PROGRAM: return "NVRTC_ERROR_INVALID_PROGRAM";
    case NVRTC_ERROR_INVALID_OPTION: return "NVRTC_ERROR_INVALID_OPTION";
    case NVRTC_ERROR_COMPILATION: return "NVRTC_ERROR_COMPILATION";
    default: return "NVRTC_ERROR (emulated)";
    }
}

/* the architectures NVRTC 13.0 lists */
static const int emul_archs[] = {75, 80, 86, 87, 88, 89, 90, 100, 103, 110, 120, 121};

nvrtcResult nvrtcGetNumSupportedArchs(int *n)
{
    *n = (int)(sizeof emul_archs / sizeof emul_archs[0]);
    return NVRTC_SUCCESS;
}

nvrtcResult nvrtcGetSupportedArchs(int *archs)
{
    for (size_t k = 0; k < sizeof emul_archs / sizeof emul_archs[0]; ++k) archs[k] = emul_archs[k];
    return NVRTC_SUCCESS;
}

/* A version no real NVRTC has: it is part of every build's cache key (backend_gpu_spec.cu,
 * hs_nvrtc_tag), so that the host-compiled modules of the emulation and the real cubins that
 * `hydrosweep kernel` leaves in a shared cache (a build's kernel-cache, which every test uses)
 * never take each other's names: with 13.0 here, the emulated runs after cli_kernel found its
 * cubins and failed to load them. */
nvrtcResult nvrtcVersion(int *major, int *minor)
{
    *major = 9013;
    *minor = 0;
    return NVRTC_SUCCESS;
}

nvrtcResult nvrtcCreateProgram(nvrtcProgram *prog, const char *src, const char *name, int numHeaders,
                               const char *const *headers, const char *const *includeNames)
{
    int i;
    if (!prog || !src) return NVRTC_ERROR_INVALID_INPUT;
    /* the emulated compile writes the engine headers embedded in the binary: the program must
     * ask for exactly those */
    if (numHeaders != hs_embedded_header_count) return NVRTC_ERROR_INVALID_INPUT;
    for (i = 0; i < numHeaders; ++i)
        if (strcmp(headers[i], hs_embedded_header_texts[i]) || strcmp(includeNames[i], hs_embedded_header_names[i]))
            return NVRTC_ERROR_INVALID_INPUT;
    *prog = new _nvrtcProgram();
    (*prog)->src = src;
    (*prog)->name = name ? name : "default_program";
    (*prog)->nheaders = numHeaders;
    return NVRTC_SUCCESS;
}

nvrtcResult nvrtcDestroyProgram(nvrtcProgram *prog)
{
    if (!prog || !*prog) return NVRTC_ERROR_INVALID_PROGRAM;
    delete *prog;
    *prog = NULL;
    return NVRTC_SUCCESS;
}

nvrtcResult nvrtcAddNameExpression(nvrtcProgram prog, const char *name)
{
    if (!prog || !name) return NVRTC_ERROR_INVALID_INPUT;
    prog->kernels.push_back(name[0] == '&' ? name + 1 : name);
    return NVRTC_SUCCESS;
}

nvrtcResult nvrtcCompileProgram(nvrtcProgram prog, int numOptions, const char *const *options)
{
    static const char *const args[] = {"-std=c++17", "-O2", "-fPIC", "-shared", "-ffp-contract=off", "-w", NULL};
    std::string text;
    char path[1400];
    int i, cached = 0, arch = 0;
    hs_error err;
    FILE *f;
    long n;
    if (!prog) return NVRTC_ERROR_INVALID_PROGRAM;
    ++hs_emul_count.nvrtc_compiles;
    if (hs_emul.fail_nvrtc) {
        ++hs_emul_count.nvrtc_failed;
        prog->log = "emulated NVRTC: made to fail (hs_emul.fail_nvrtc)";
        return NVRTC_ERROR_COMPILATION;
    }
    for (i = 0; i < numOptions; ++i)
        if (!strncmp(options[i], "--gpu-architecture=sm_", 22)) arch = 1;
        else if (!strncmp(options[i], "--gpu-architecture=", 19)) return NVRTC_ERROR_INVALID_OPTION;
    if (!arch) { /* a cubin needs a real architecture */
        prog->log = "emulated NVRTC: no --gpu-architecture=sm_XY";
        return NVRTC_ERROR_INVALID_OPTION;
    }
    text = std::string(prelude) + prog->src + postlude_head;
    for (const std::string &k : prog->kernels)
        text += "template <class... A> static void hs_emul_tramp_" + k +
                "_(void (*kk)(A...), int mode, const unsigned *thr, void **args, void **out, hs_emul_check_fn chk,\n"
                "                          hs_emul_check_fn chk_out)\n"
                "{\n    hs_emul_call(kk, \"" + k +
                "\", mode, thr, args, out, chk, chk_out, std::index_sequence_for<A...>{});\n}\n"
                "extern \"C\" void hs_emul_tramp_" + k +
                "(int mode, const unsigned *thr, void **args, void **out, hs_emul_check_fn chk, hs_emul_check_fn chk_out)\n"
                "{\n    hs_emul_tramp_" + k + "_(" + k + ", mode, thr, args, out, chk, chk_out);\n}\n";
    if (hs_cc_shared(text.c_str(), HS_EMUL_CXX, args, ".cpp", NULL, path, sizeof path, &cached, &err)) {
        prog->log = std::string("emulated NVRTC (host C++ compiler): ") + err.msg;
        return NVRTC_ERROR_COMPILATION;
    }
    prog->log = "";
    f = fopen(path, "rb");
    if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) <= 0 || fseek(f, 0, SEEK_SET)) {
        if (f) fclose(f);
        prog->log = "emulated NVRTC: cannot read the built object";
        return NVRTC_ERROR_COMPILATION;
    }
    prog->image.assign(sizeof hs_emul_magic + sizeof(long) + (size_t)n, 0);
    memcpy(prog->image.data(), hs_emul_magic, sizeof hs_emul_magic);
    memcpy(prog->image.data() + sizeof hs_emul_magic, &n, sizeof n);
    if (fread(prog->image.data() + sizeof hs_emul_magic + sizeof n, 1, (size_t)n, f) != (size_t)n) {
        fclose(f);
        prog->image.clear();
        return NVRTC_ERROR_COMPILATION;
    }
    fclose(f);
    if (strstr(path, "/hs-build-")) unlink(path); /* uncached: the image is the only copy */
    return NVRTC_SUCCESS;
}

nvrtcResult nvrtcGetProgramLogSize(nvrtcProgram prog, size_t *n)
{
    if (!prog) return NVRTC_ERROR_INVALID_PROGRAM;
    *n = prog->log.size() + 1;
    return NVRTC_SUCCESS;
}

nvrtcResult nvrtcGetProgramLog(nvrtcProgram prog, char *log)
{
    if (!prog) return NVRTC_ERROR_INVALID_PROGRAM;
    memcpy(log, prog->log.c_str(), prog->log.size() + 1);
    return NVRTC_SUCCESS;
}

nvrtcResult nvrtcGetCUBINSize(nvrtcProgram prog, size_t *n)
{
    if (!prog) return NVRTC_ERROR_INVALID_PROGRAM;
    if (prog->image.empty()) return NVRTC_ERROR_INVALID_PROGRAM;
    *n = prog->image.size();
    return NVRTC_SUCCESS;
}

nvrtcResult nvrtcGetCUBIN(nvrtcProgram prog, char *cubin)
{
    if (!prog || prog->image.empty()) return NVRTC_ERROR_INVALID_PROGRAM;
    memcpy(cubin, prog->image.data(), prog->image.size());
    return NVRTC_SUCCESS;
}

} /* extern "C" */

/* ---------------------------------------------------------------------------------------
 * libraries */

typedef void (*hs_emul_tramp)(int mode, const unsigned *thr, void **args, void **out,
                              void (*chk)(const char *, const void *), void (*chk_out)(const char *, const void *));

struct hs_emul_kernel {
    unsigned magic;
    hs_emul_tramp tramp;
    std::string name;
};
#define EMUL_KERNEL_MAGIC 0x6b65726eu

struct hs_emul_library {
    void *so;
    std::vector<hs_emul_kernel *> kernels;
    std::vector<void *> globals;
};

static std::vector<hs_emul_kernel *> g_kernels; /* every kernel of every loaded library */

static hs_emul_kernel *as_kernel(const void *f)
{
    for (hs_emul_kernel *k : g_kernels)
        if ((const void *)k == f) return k;
    return NULL;
}

static void chk_ptr(const char *k, const void *p) { hs_emul_check_arg(k, p); }
static void chk_out(const char *k, const void *o) { hs_emul_arg(k, *(const hs_batch_out *)o); }

extern "C" {

cudaError_t cudaLibraryLoadData(cudaLibrary_t *library, const void *code, enum cudaJitOption *jitOptions,
                                void **jitOptionsValues, unsigned int numJitOptions,
                                enum cudaLibraryOption *libraryOptions, void **libraryOptionValues,
                                unsigned int numLibraryOptions)
{
    char path[] = "/tmp/hs-emul-lib-XXXXXX";
    long n;
    int fd;
    void *so;
    (void)jitOptions;
    (void)jitOptionsValues;
    (void)numJitOptions;
    (void)libraryOptions;
    (void)libraryOptionValues;
    (void)numLibraryOptions;
    if (hs_emul_faulted()) return cudaGetLastError();
    if (!library || !code || memcmp(code, hs_emul_magic, sizeof hs_emul_magic))
        return EMUL_MISUSE(cudaErrorInvalidValue, "cudaLibraryLoadData: not an image of the emulated NVRTC");
    memcpy(&n, (const char *)code + sizeof hs_emul_magic, sizeof n);
    fd = mkstemp(path);
    if (fd < 0) return cudaErrorMemoryAllocation;
    if (write(fd, (const char *)code + sizeof hs_emul_magic + sizeof n, (size_t)n) != (ssize_t)n) {
        close(fd);
        unlink(path);
        return cudaErrorMemoryAllocation;
    }
    close(fd);
    so = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    unlink(path);
    if (!so)
        return EMUL_MISUSE(cudaErrorInvalidValue, "cudaLibraryLoadData: %s", dlerror());
    hs_emul_library *lib = new hs_emul_library();
    lib->so = so;
    *library = (cudaLibrary_t)lib;
    return cudaSuccess;
}

cudaError_t cudaLibraryUnload(cudaLibrary_t library)
{
    hs_emul_library *lib = (hs_emul_library *)library;
    if (!lib) return cudaErrorInvalidValue;
    for (hs_emul_kernel *k : lib->kernels) {
        for (size_t i = 0; i < g_kernels.size(); ++i)
            if (g_kernels[i] == k) g_kernels.erase(g_kernels.begin() + (long)i);
        delete k;
    }
    for (void *g : lib->globals) hs_emul_global(g, 0);
    dlclose(lib->so);
    delete lib;
    return cudaSuccess;
}

cudaError_t cudaLibraryGetKernel(cudaKernel_t *pKernel, cudaLibrary_t library, const char *name)
{
    hs_emul_library *lib = (hs_emul_library *)library;
    std::string sym = std::string("hs_emul_tramp_") + name;
    void *t;
    if (hs_emul_faulted()) return cudaGetLastError();
    if (!lib || !pKernel || !name) return cudaErrorInvalidValue;
    t = dlsym(lib->so, sym.c_str());
    if (!t) return cudaErrorSymbolNotFound;
    hs_emul_kernel *k = new hs_emul_kernel();
    k->magic = EMUL_KERNEL_MAGIC;
    *(void **)&k->tramp = t;
    k->name = name;
    lib->kernels.push_back(k);
    g_kernels.push_back(k);
    *pKernel = (cudaKernel_t)k;
    return cudaSuccess;
}

cudaError_t cudaLibraryGetGlobal(void **dptr, size_t *bytes, cudaLibrary_t library, const char *name)
{
    hs_emul_library *lib = (hs_emul_library *)library;
    void *g;
    Dl_info info;
    const ElfW(Sym) *sym = NULL;
    if (hs_emul_faulted()) return cudaGetLastError();
    if (!lib || !dptr || !bytes || !name) return cudaErrorInvalidValue;
    g = dlsym(lib->so, name);
    if (!g || !dladdr1(g, &info, (void **)&sym, RTLD_DL_SYMENT) || !sym) return cudaErrorSymbolNotFound;
    *dptr = g;
    *bytes = (size_t)sym->st_size;
    hs_emul_global(g, *bytes); /* device memory from now on, for copies and kernel arguments */
    lib->globals.push_back(g);
    return cudaSuccess;
}

/* a launch of a library kernel: the grid on hs_emul.workers OS threads or one by one */
struct hs_emul_lib_launch {
    hs_emul_kernel *k;
    dim3 grid, block;
    void **argv; /* the arguments: the caller's, or (asynchronous) copies in args */
    void *args[16];
    int copied;
};

static void lib_run(void *p)
{
    hs_emul_lib_launch *L = (hs_emul_lib_launch *)p;
    int W = hs_emul.workers > 1 ? hs_emul.workers : 1, w;
    auto run = [L](int w0, int WW) {
        unsigned long long q, total = (unsigned long long)L->grid.x * L->block.x;
        for (q = (unsigned long long)w0; q < total; q += (unsigned long long)WW) {
            /* one thread: blocks from the last to the first (any order must do) */
            unsigned long long b = WW == 1 ? L->grid.x - 1 - q / L->block.x : q / L->block.x;
            unsigned thr[4] = {(unsigned)b, (unsigned)(q % L->block.x), L->block.x, L->grid.x};
            L->k->tramp(0, thr, L->argv, NULL, chk_ptr, chk_out);
        }
    };
    if (W == 1) {
        run(0, 1);
    } else {
        std::vector<std::thread> ts;
        for (w = 0; w < W; ++w) ts.emplace_back(run, w, W);
        for (w = 0; w < W; ++w) ts[w].join();
    }
}

static void lib_drop(void *p)
{
    hs_emul_lib_launch *L = (hs_emul_lib_launch *)p;
    if (L->copied) L->k->tramp(2, NULL, L->args, NULL, NULL, NULL);
    delete L;
}

cudaError_t cudaLaunchKernel(const void *func, dim3 grid, dim3 block, void **args, size_t smem, cudaStream_t stream)
{
    hs_emul_kernel *k = as_kernel(func);
    (void)stream;
    if (!k)
        return EMUL_MISUSE(cudaErrorInvalidDeviceFunction, "cudaLaunchKernel: %p is not a kernel of a loaded library",
                           func);
    if (grid.y != 1 || grid.z != 1 || block.y != 1 || block.z != 1 || smem != 0)
        return EMUL_MISUSE(cudaErrorInvalidConfiguration,
                           "cudaLaunchKernel %s: only 1-D launches without shared memory are emulated", k->name.c_str());
    if (hs_emul_launch_begin(k->name.c_str(), grid.x, block.x)) return cudaGetLastError();
    k->tramp(0, NULL, args, NULL, chk_ptr, chk_out); /* the pointer arguments */
    hs_emul_lib_launch *L = new hs_emul_lib_launch();
    L->k = k;
    L->grid = grid;
    L->block = block;
    if (hs_emul.async) {
        /* the kernel runs while the host goes on: the arguments as they were at the launch */
        k->tramp(1, NULL, args, L->args, NULL, NULL);
        L->argv = L->args;
        L->copied = 1;
        hs_emul_async_start(lib_run, L, lib_drop);
        return cudaSuccess;
    }
    L->argv = args;
    hs_emul_device_open();
    lib_run(L);
    hs_emul_device_close();
    delete L;
    return cudaSuccess;
}

} /* extern "C" */
