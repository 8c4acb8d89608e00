/* backend_gpu_spec.cu -- the default GPU path: the engine specialised to the job's model
 * structure (host/engine/kernel_spec.h), compiled at run time by NVRTC for the device's
 * architecture, cached on disk (host/engine/kernel_build.h), loaded with the runtime's library API.
 *
 *  - The shared model and the output spec go to the module's constant memory (hs_spec_base,
 *    hs_spec_out): every thread reads them at the same address.
 *  - Per instance the device holds only what its sweep varies (SoA, computed on the host by
 *    hs_spec_values, with each instance's validity) and the outputs; state and work arrays
 *    are the thread's own (registers and local memory, sized by the model).
 *  - One thread per instance, one launch per sub-batch; sub-batches as large as the device
 *    memory left after the stack reservation allows. The host polls the launch
 *    (hs_gpu_wait) and reports the instances the threads count as they end (hs_gpu_ctl in
 *    mapped pinned memory) to the job's progress callback.
 *  - A compile or load failure is an error with NVRTC's log (host/gpu/backend_gpu.cu); a sweep
 *    that varies the structure comes in groups of one structure (host/run/run_split.h).
 *
 * Also here: hs_kernel_figures, the kernel's resources as ptxas reports them for an
 * architecture (NVRTC only: no GPU needed), for `hydrosweep kernel`. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nvrtc.h>

#include "gpu/backend_gpu_util.cuh"
extern "C" {
#include "engine/kernel_build.h"
#include "engine/kernel_spec.h"
#include "base/progress.h"
}

/* ---------------------------------------------------------------------------------------
 * NVRTC */

/* Compiles source (the program name "name") for arch ("sm_90"), kernel the name expression
 * of its kernel; *bin gets the cubin (malloc'd), *log the compiler's log (malloc'd, may be
 * NULL). ptxas_v asks ptxas for its resource report (in the log). */
static int hs_nvrtc(const char *source, const char *name, const char *kernel, const char *arch, int ptxas_v,
                    char **bin, size_t *nbin, char **log, hs_error *err)
{
    nvrtcProgram prog;
    char archopt[64];
    const char *opts[8];
    int nopt = 0;
    size_t n = 0;
    nvrtcResult r;
    *bin = NULL;
    *nbin = 0;
    *log = NULL;
    r = nvrtcCreateProgram(&prog, source, name, hs_embedded_header_count, hs_embedded_header_texts,
                           hs_embedded_header_names);
    if (r != NVRTC_SUCCESS)
        return hs_error_set(err, HS_ERR_NUMERIC, "", 0, 0, "nvrtc", "nvrtcCreateProgram: %s", nvrtcGetErrorString(r));
    snprintf(archopt, sizeof archopt, "--gpu-architecture=%s", arch);
    opts[nopt++] = archopt;
    opts[nopt++] = "--std=c++17";
    if (ptxas_v) opts[nopt++] = "--ptxas-options=-v";
    if (kernel) (void)nvrtcAddNameExpression(prog, kernel);
    r = nvrtcCompileProgram(prog, nopt, opts);
    if (nvrtcGetProgramLogSize(prog, &n) == NVRTC_SUCCESS && n > 1 && (*log = (char *)malloc(n)))
        if (nvrtcGetProgramLog(prog, *log) != NVRTC_SUCCESS) (*log)[0] = '\0';
    if (r != NVRTC_SUCCESS) {
        hs_error_set(err, HS_ERR_NUMERIC, "", 0, 0, "nvrtc", "compiling the specialised kernel for %s: %s: %.300s",
                     arch, nvrtcGetErrorString(r), *log ? *log : "");
        (void)nvrtcDestroyProgram(&prog);
        return HS_ERR_NUMERIC;
    }
    r = nvrtcGetCUBINSize(prog, &n);
    if (r == NVRTC_SUCCESS && n > 0 && (*bin = (char *)malloc(n))) r = nvrtcGetCUBIN(prog, *bin);
    (void)nvrtcDestroyProgram(&prog);
    if (r != NVRTC_SUCCESS || !*bin) {
        free(*bin);
        *bin = NULL;
        return hs_error_set(err, HS_ERR_NUMERIC, "", 0, 0, "nvrtc", "no cubin for %s: %s", arch,
                            r != NVRTC_SUCCESS ? nvrtcGetErrorString(r) : "out of memory");
    }
    *nbin = n;
    return HS_OK;
}

/* The options string of a build (its cache key includes it): NVRTC's version and arch. */
static void hs_nvrtc_tag(const char *arch, char *buf, size_t n)
{
    int maj = 0, min = 0;
    (void)nvrtcVersion(&maj, &min);
    snprintf(buf, n, "nvrtc %d.%d %s --std=c++17", maj, min, arch);
}

/* The key of a run's build of source for arch, and the cache file its cubin is kept in
 * (name: n bytes): one rule for the runs that load it and for `hydrosweep kernel`, which
 * leaves it there. */
static unsigned long long hs_spec_cubin_name(const char *source, const char *arch, char *name, size_t n)
{
    char tag[128];
    unsigned long long key;
    hs_nvrtc_tag(arch, tag, sizeof tag);
    key = hs_spec_key(source, tag);
    snprintf(name, n, "%016llx-%s.cubin", key, arch);
    return key;
}

/* ---------------------------------------------------------------------------------------
 * specialised modules, loaded once per process */

typedef struct hs_gpu_spec_mod {
    unsigned long long key;
    cudaLibrary_t lib;
    cudaKernel_t kernel;
    void *d_base; /* hs_spec_base (constant memory) */
    void *d_out; /* hs_spec_out */
    double build_s; /* compile time (0: from the cache or earlier in this process) */
    int from_disk; /* the cubin came from the cache directory */
} hs_gpu_spec_mod;

#define HS_GPU_SPEC_SLOTS 8
static hs_gpu_spec_mod g_mods[HS_GPU_SPEC_SLOTS];
static int g_nmods, g_next; /* g_next: the slot the next module replaces once all are taken */

static int hs_gpu_spec_load(const char *source, const char *arch, hs_gpu_spec_mod *out, hs_error *err)
{
    char name[96];
    unsigned long long key;
    char *bin = NULL, *log = NULL;
    size_t nbin = 0, nglob = 0;
    int rc = HS_OK, i, from_disk = 0;
    double t0 = hs_now_s(), build = 0.0;
    cudaLibrary_t lib = NULL;
    hs_gpu_spec_mod m;
    key = hs_spec_cubin_name(source, arch, name, sizeof name);
    for (i = 0; i < g_nmods; ++i)
        if (g_mods[i].key == key) {
            *out = g_mods[i];
            out->build_s = 0.0;
            return HS_OK;
        }
    if (hs_kcache_read(name, (void **)&bin, &nbin) == 0) {
        from_disk = 1;
    } else {
        hs_build_note("gpu");
        if ((rc = hs_nvrtc(source, "hs_spec.cu", "hs_spec_kernel", arch, 0, &bin, &nbin, &log, err))) goto done;
        build = hs_now_s() - t0;
        (void)hs_kcache_write(name, bin, nbin);
    }
    memset(&m, 0, sizeof m);
    m.key = key;
    HS_GPU_TRY(cudaLibraryLoadData(&lib, bin, NULL, NULL, 0, NULL, NULL, 0), "loading the specialised kernel");
    m.lib = lib;
    HS_GPU_TRY(cudaLibraryGetKernel(&m.kernel, lib, "hs_spec_kernel"), "hs_spec_kernel");
    HS_GPU_TRY(cudaLibraryGetGlobal(&m.d_base, &nglob, lib, "hs_spec_base"), "hs_spec_base");
    if (nglob != sizeof(hs_model)) {
        rc = hs_error_set(err, HS_ERR_NUMERIC, "", 0, 0, "", "the specialised kernel's model has %zu bytes, not %zu",
                          nglob, sizeof(hs_model));
        goto done;
    }
    HS_GPU_TRY(cudaLibraryGetGlobal(&m.d_out, &nglob, lib, "hs_spec_out"), "hs_spec_out");
    m.build_s = build;
    m.from_disk = from_disk;
    if (g_nmods < HS_GPU_SPEC_SLOTS) {
        g_mods[g_nmods++] = m;
    } else { /* the oldest module makes room, unloaded: no run holds it (the runs are sequential, and
                a later run of its model loads it again) */
        (void)cudaLibraryUnload(g_mods[g_next].lib);
        g_mods[g_next] = m;
        g_next = (g_next + 1) % HS_GPU_SPEC_SLOTS;
    }
    *out = m;
    lib = NULL;
done:
    if (rc && lib) (void)cudaLibraryUnload(lib);
    free(bin);
    free(log);
    return rc;
}

/* ---------------------------------------------------------------------------------------
 * the path */

/* "sm_XY" of the current device. */
static int hs_gpu_arch(char *arch, size_t n, hs_error *err)
{
    int dev = 0, maj = 0, min = 0, rc = HS_OK;
    HS_GPU_TRY(cudaGetDevice(&dev), "cudaGetDevice");
    HS_GPU_TRY(cudaDeviceGetAttribute(&maj, cudaDevAttrComputeCapabilityMajor, dev), "compute capability");
    HS_GPU_TRY(cudaDeviceGetAttribute(&min, cudaDevAttrComputeCapabilityMinor, dev), "compute capability");
    snprintf(arch, n, "sm_%d%d", maj, min);
done:
    return rc;
}

int hs_backend_gpu_spec(const hs_batch_job *job, char *why, size_t nwhy, hs_error *err)
{
    int rc = HS_OK, sms = 0, occ = 0, *d_pre = NULL, *pre = NULL;
    hs_spec sp;
    hs_gpu_spec_mod mod;
    hs_gpu_out o;
    cudaFuncAttributes fa;
    char arch[32];
    double *d_var = NULL, *var = NULL;
    size_t per, budget, old_stack = 0;
    long batch, i0, cap_batch = hs_gpu_env_long("HS_GPU_BATCH");
    hs_error e2;
    hs_gpu_watch wt;
    why[0] = '\0';
    memset(&wt, 0, sizeof wt);
    memset(&mod, 0, sizeof mod);
    memset(&o, 0, sizeof o);
    memset(&sp, 0, sizeof sp);
    if (job->cnt <= 0) return HS_OK;
    if ((rc = hs_gpu_ready(&sms, err)) || (rc = hs_gpu_arch(arch, sizeof arch, err))) return rc;
    if ((rc = hs_spec_build(job->base, job->ov, job->spec, &sp, err))) return rc;
    if (!sp.source) {
        snprintf(why, nwhy, "%s", sp.why);
        return HS_OK;
    }
    if (hs_gpu_spec_load(sp.source, arch, &mod, &e2)) {
        snprintf(why, nwhy, "%s", e2.msg);
        hs_spec_free(&sp);
        (void)cudaGetLastError();
        return HS_OK;
    }
    HS_GPU_TRY(cudaFuncGetAttributes(&fa, (const void *)mod.kernel), "cudaFuncGetAttributes(hs_spec_kernel)");
    HS_GPU_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, (const void *)mod.kernel, HS_SPEC_BLOCK, 0),
               "occupancy query");
    budget = hs_gpu_budget(fa.localSizeBytes);
    if ((rc = hs_gpu_stack(fa.localSizeBytes + 256, &old_stack, err))) goto done;
    per = hs_gpu_out_bytes(job) + sizeof(int) + sizeof(double) * (size_t)sp.nvar;
    if (budget < per) {
        rc = hs_error_set(err, HS_ERR_IO, "", 0, 0, "backend",
                          "gpu: not enough free device memory (%.1f MiB usable) for one instance",
                          (double)budget / 1048576.0);
        goto done;
    }
    batch = (long)(budget / per);
    if (batch > job->cnt) batch = job->cnt;
    if (cap_batch > 0 && cap_batch < batch) batch = cap_batch;
    if (hs_gpu_verbose())
        fprintf(stderr,
                "gpu specialised: %ld instances, sub-batches of %ld, %s, %d registers, %zu B stack, "
                "%d blocks of %d per SM, %d varying values per instance, kernel %s\n",
                job->cnt, batch, arch, fa.numRegs, fa.localSizeBytes, occ, HS_SPEC_BLOCK, sp.nvar,
                mod.build_s > 0.0 ? "compiled now" : (mod.from_disk ? "from the cache" : "loaded before"));
    if (mod.build_s > 0.0)
        fprintf(stderr, "gpu: specialised kernel for %s compiled in %.1f s (cached for later runs)\n", arch,
                mod.build_s);
    HS_GPU_TRY(cudaMemcpy(mod.d_base, job->base, sizeof(hs_model), cudaMemcpyHostToDevice), "copy of the model");
    HS_GPU_TRY(cudaMemcpy(mod.d_out, job->spec, sizeof(hs_output_spec), cudaMemcpyHostToDevice),
               "copy of the output spec");
    var = (double *)malloc((size_t)batch * (size_t)(sp.nvar > 0 ? sp.nvar : 1) * sizeof *var);
    pre = (int *)malloc((size_t)batch * sizeof *pre);
    if (!var || !pre) {
        rc = hs_error_set(err, HS_ERR_IO, "", 0, 0, "", "out of host memory for %ld instances", batch);
        goto done;
    }
    if (sp.nvar > 0)
        HS_GPU_TRY(cudaMalloc((void **)&d_var, (size_t)batch * (size_t)sp.nvar * sizeof(double)), "cudaMalloc(values)");
    HS_GPU_TRY(cudaMalloc((void **)&d_pre, (size_t)batch * sizeof(int)), "cudaMalloc(validity)");
    if ((rc = hs_gpu_out_alloc(&o, job, batch, err))) goto done;
    hs_gpu_watch_open(&wt, job);
    hs_gpu_watch_report(&wt, job, 0);
    for (i0 = 0; i0 < job->cnt; i0 += batch) {
        long cnt = job->cnt - i0 < batch ? job->cnt - i0 : batch;
        unsigned int blocks = (unsigned int)((cnt + HS_SPEC_BLOCK - 1) / HS_SPEC_BLOCK);
        const double *dv = d_var;
        const int *dp = d_pre;
        hs_gpu_ctl *dctl = wt.d;
        void *args[4];
        if (wt.stop) {
            rc = hs_error_set(err, HS_ERR_INTERRUPTED, "", 0, 0, "backend", "gpu: stopped after %ld of %ld instances",
                              wt.shown, job->cnt);
            goto done;
        }
        if ((rc = hs_spec_values(&sp, job->base, job->ov, job->values + (size_t)i0 * (size_t)job->ov->n, cnt, var,
                                 pre, err)))
            goto done;
        if (sp.nvar > 0)
            HS_GPU_TRY(cudaMemcpy(d_var, var, (size_t)cnt * (size_t)sp.nvar * sizeof(double), cudaMemcpyHostToDevice),
                       "copy of the varying values");
        HS_GPU_TRY(cudaMemcpy(d_pre, pre, (size_t)cnt * sizeof(int), cudaMemcpyHostToDevice), "copy of the validity");
        o.d.n = cnt;
        args[0] = (void *)&dv;
        args[1] = (void *)&dp;
        args[2] = (void *)&o.d;
        args[3] = (void *)&dctl;
        HS_GPU_TRY(cudaLaunchKernel((const void *)mod.kernel, dim3(blocks), dim3(HS_SPEC_BLOCK), args, 0, 0),
                   "launch of the specialised kernel");
        if ((rc = hs_gpu_sub_batch_finish(&wt, job, &o, i0, cnt, "specialised kernel", err))) goto done;
    }
done:
    hs_gpu_watch_close(&wt);
    hs_gpu_out_free(&o);
    (void)cudaFree(d_var);
    (void)cudaFree(d_pre);
    free(var);
    free(pre);
    hs_spec_free(&sp);
    hs_gpu_stack_restore(old_stack);
    return rc;
}

/* ---------------------------------------------------------------------------------------
 * kernel figures for `hydrosweep kernel` */

/* The figures of kernel fn (a substring of its name) in a ptxas -v log:
 *   ptxas info    : Function properties for <fn>
 *   ptxas         .     368 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
 *   ptxas info    : Used 40 registers, used 0 barriers, 368 bytes cumulative stack size */
static int hs_parse_ptxas(const char *log, const char *fn, hs_kernel_fig *f)
{
    const char *p = log;
    memset(f, 0, sizeof *f);
    f->registers = -1;
    while ((p = strstr(p, "Function properties for "))) {
        const char *eol = strchr(p, '\n'), *l2, *l3, *s;
        if (!eol) return -1;
        if ((size_t)(eol - p) > strlen("Function properties for ") && memmem(p, (size_t)(eol - p), fn, strlen(fn))) {
            l2 = eol + 1;
            l3 = strchr(l2, '\n');
            if (!l3) return -1;
            ++l3;
            s = strstr(l2, "bytes stack frame");
            if (!s || s > l3) return -1;
            while (s > l2 && s[-1] == ' ') --s;
            while (s > l2 && s[-1] >= '0' && s[-1] <= '9') --s;
            if (sscanf(s, "%ld bytes stack frame, %ld bytes spill stores, %ld bytes spill loads", &f->stack_bytes,
                       &f->spill_store_bytes, &f->spill_load_bytes) != 3)
                return -1;
            s = strstr(l3, "Used ");
            if (!s || sscanf(s, "Used %d registers", &f->registers) != 1) return -1;
            return 0;
        }
        p = eol;
    }
    return -1;
}

/* The figures of kernel fn in source, compiled for arch with ptxas -v: from the cache when
 * this source, engine and NVRTC gave them before (a small text file), else compiled now. */
static int hs_figures_of(const char *source, const char *prog, const char *kernel, const char *fn, const char *arch,
                         hs_kernel_fig *f, hs_error *err)
{
    char tag[160], name[96], text[256], *bin = NULL, *log = NULL;
    void *cached = NULL;
    size_t nbin = 0, nc = 0;
    int rc;
    double t0;
    hs_nvrtc_tag(arch, tag, sizeof tag);
    strncat(tag, " ptxas-v", sizeof tag - strlen(tag) - 1);
    snprintf(name, sizeof name, "%016llx-%s.fig", hs_spec_key(source, tag), arch);
    if (hs_kcache_read(name, &cached, &nc) == 0) {
        snprintf(text, sizeof text, "%.*s", (int)(nc < sizeof text ? nc : sizeof text - 1), (const char *)cached);
        free(cached);
        memset(f, 0, sizeof *f);
        if (sscanf(text, "%d %ld %ld %ld %ld %lf", &f->registers, &f->stack_bytes, &f->spill_store_bytes,
                   &f->spill_load_bytes, &f->cubin_bytes, &f->compile_s) == 6)
            return HS_OK;
    }
    t0 = hs_now_s();
    rc = hs_nvrtc(source, prog, kernel, arch, 1, &bin, &nbin, &log, err);
    if (!rc && (!log || hs_parse_ptxas(log, fn, f)))
        rc = hs_error_set(err, HS_ERR_NUMERIC, "", 0, 0, "nvrtc", "no ptxas report for %s", fn);
    f->compile_s = hs_now_s() - t0;
    f->cubin_bytes = (long)nbin;
    if (!rc && bin && kernel && !strcmp(kernel, "hs_spec_kernel")) {
        /* the same cubin (ptxas -v only reports) under the name a run looks it up by
         * (hs_gpu_spec_load): `hydrosweep kernel` here fills the cache a GPU machine's runs then
         * load instead of compiling (scripts/gpu_prepare.sh) */
        char rname[96];
        void *have = NULL;
        size_t nhave = 0;
        (void)hs_spec_cubin_name(source, arch, rname, sizeof rname);
        if (hs_kcache_read(rname, &have, &nhave) == 0) free(have);
        else (void)hs_kcache_write(rname, bin, nbin);
    }
    free(bin);
    free(log);
    if (!rc) {
        int k = snprintf(text, sizeof text, "%d %ld %ld %ld %ld %.3f\n", f->registers, f->stack_bytes,
                         f->spill_store_bytes, f->spill_load_bytes, f->cubin_bytes, f->compile_s);
        (void)hs_kcache_write(name, text, (size_t)k);
    }
    return rc;
}

int hs_gpu_arch_supported(const char *arch, char *why, size_t nwhy)
{
    int n = 0, k, num = 0, used = 0, *list;
    const char *p = arch;
    char *e;
    long v;
    if (why && nwhy) why[0] = '\0';
    if (!arch || strncmp(arch, "sm_", 3) != 0) goto bad;
    p = arch + 3;
    errno = 0;
    v = strtol(p, &e, 10);
    if (errno || e == p || !(*e == '\0' || ((*e == 'a' || *e == 'f') && e[1] == '\0')) || v <= 0 || v > 10000)
        goto bad;
    num = (int)v;
    if (nvrtcGetNumSupportedArchs(&n) != NVRTC_SUCCESS || n <= 0) return 1; /* cannot tell */
    if (!(list = (int *)malloc((size_t)n * sizeof *list))) return 1;
    if (nvrtcGetSupportedArchs(list) != NVRTC_SUCCESS) {
        free(list);
        return 1;
    }
    for (k = 0; k < n; ++k)
        if (list[k] == num) {
            free(list);
            return 1;
        }
    if (why && nwhy) {
        int w = snprintf(why, nwhy, "NVRTC compiles for");
        used = w > 0 ? w : 0;
        for (k = 0; k < n && (size_t)used < nwhy; ++k) {
            w = snprintf(why + used, nwhy - used, " sm_%d", list[k]);
            if (w > 0) used += w;
        }
        if ((size_t)used < nwhy) snprintf(why + used, nwhy - used, " (optionally with a suffix a or f)");
    }
    free(list);
    return 0;
bad:
    if (why && nwhy) snprintf(why, nwhy, "an architecture is sm_ and its number, e.g. sm_90 (H100) or sm_80 (A100)");
    return 0;
}

int hs_kernel_figures(const hs_model *m, const hs_override_spec *ov, const hs_output_spec *out, const char *arch,
                      hs_kernel_fig *spec, char *why, size_t nwhy, hs_error *err)
{
    hs_spec sp;
    hs_override_spec own;
    int rc;
    (void)hs_spec_drop_structural(ov, &own, why, nwhy);
    if ((rc = hs_spec_build(m, &own, out, &sp, err))) return rc;
    if (!sp.source) /* (no structural override is left: not expected) */
        return hs_error_set(err, HS_ERR_ARG, "", 0, 0, "kernel", "%s", sp.why);
    rc = hs_figures_of(sp.source, "hs_spec.cu", "hs_spec_kernel", "hs_spec_kernel", arch, spec, err);
    hs_spec_free(&sp);
    return rc;
}

int hs_kernel_figures_tree(const char *arch, hs_kernel_fig *fig, hs_error *err)
{
    /* the tree kernel's sizes are runtime values: one kernel for every riccati model, cached
     * once per engine and arch */
    return hs_figures_of("#define HS_TREE_KERNEL_DEFINE\n#include \"hs_tree_kernel.cuh\"\n", "hs_tree.cu", NULL,
                         "hs_tree_kernel", arch, fig, err);
}
