/* kernel_build.c -- run-time builds of the specialised engine and their cache (kernel_build.h). */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "engine/kernel_build.h"
#include "engine/kernel_spec.h"

extern char **environ;

#ifndef HS_HOST_CC
#define HS_HOST_CC "cc"
#endif

const char *hs_host_cc(void)
{
    const char *e = getenv("HS_CC");
    if (e && *e) return e;
    if (access(HS_HOST_CC, X_OK) == 0) return HS_HOST_CC;
    return "cc";
}

/* mkdir -p (mode 0755); 0 when dir exists afterwards */
static int mkdir_p(const char *dir)
{
    char buf[1024];
    size_t i, n = strlen(dir);
    if (n == 0 || n >= sizeof buf) return -1;
    memcpy(buf, dir, n + 1);
    for (i = 1; i <= n; ++i)
        if (buf[i] == '/' || buf[i] == '\0') {
            char c = buf[i];
            buf[i] = '\0';
            if (mkdir(buf, 0755) != 0 && errno != EEXIST) return -1;
            buf[i] = c;
        }
    return 0;
}

int hs_kcache_dir(char *buf, size_t n)
{
    const char *e = getenv("HS_KERNEL_CACHE"), *x, *h;
    int k;
    buf[0] = '\0';
    if (e && (!strcmp(e, "off") || !strcmp(e, "0"))) return -1;
    if (e && *e) k = snprintf(buf, n, "%s", e);
    else if ((x = getenv("XDG_CACHE_HOME")) && *x) k = snprintf(buf, n, "%s/hydrosweep/kernels", x);
    else if ((h = getenv("HOME")) && *h) k = snprintf(buf, n, "%s/.cache/hydrosweep/kernels", h);
    else return -1;
    if (k < 0 || (size_t)k >= n || mkdir_p(buf) != 0 || access(buf, W_OK | X_OK) != 0) {
        buf[0] = '\0';
        return -1;
    }
    return 0;
}

/* Opens the cache entry path for reading: a regular file, never through a symbolic link (a
 * link planted in the cache could load another program's code); -1 otherwise. */
static FILE *kcache_open(const char *path)
{
    struct stat st;
    FILE *f;
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) return NULL;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || !(f = fdopen(fd, "rb"))) {
        close(fd);
        return NULL;
    }
    return f;
}

int hs_kcache_read(const char *name, void **data, size_t *n)
{
    char dir[1024], path[1300];
    FILE *f;
    long len;
    *data = NULL;
    *n = 0;
    if (hs_kcache_dir(dir, sizeof dir)) return -1;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (!(f = kcache_open(path))) return -1;
    if (fseek(f, 0, SEEK_END) != 0 || (len = ftell(f)) <= 0 || fseek(f, 0, SEEK_SET) != 0 ||
        !(*data = malloc((size_t)len)) || fread(*data, 1, (size_t)len, f) != (size_t)len) {
        fclose(f);
        free(*data);
        *data = NULL;
        return -1;
    }
    fclose(f);
    *n = (size_t)len;
    return 0;
}

/* Writes text or data to a new file of this process only: O_CREAT | O_EXCL | O_NOFOLLOW (a
 * stale file or a link of that name is removed first, never written through). */
static FILE *new_file(const char *path, const char *mode)
{
    int fd;
    FILE *f;
    unlink(path); /* a link itself, not its target */
    fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0) return NULL;
    if (!(f = fdopen(fd, mode))) close(fd);
    return f;
}

int hs_kcache_write(const char *name, const void *data, size_t n)
{
    char dir[1024], tmp[1400], path[1300];
    FILE *f;
    int ok;
    if (hs_kcache_dir(dir, sizeof dir)) return -1;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    snprintf(tmp, sizeof tmp, "%s.tmp%ld", path, (long)getpid());
    if (!(f = new_file(tmp, "wb"))) return -1;
    ok = fwrite(data, 1, n, f) == n;
    ok = (fclose(f) == 0) && ok;
    /* rename replaces a link at path itself, never writes through it */
    if (!ok || rename(tmp, path) != 0) {
        unlink(tmp);
        return -1;
    }
    return 0;
}

static int write_file(const char *path, const char *text)
{
    FILE *f = new_file(path, "w");
    int ok;
    if (!f) return -1;
    ok = fputs(text, f) >= 0;
    ok = (fclose(f) == 0) && ok;
    return ok ? 0 : -1;
}

/* removes the files of a build directory, then the directory */
static void rm_build_dir(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char p[1400];
    if (d) {
        while ((e = readdir(d)))
            if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
                snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
                unlink(p);
            }
        closedir(d);
    }
    rmdir(dir);
}

void hs_build_note(const char *who)
{
    char dir[1024];
    fprintf(stderr, "%s: compiling the engine for this model (%s)...\n", who,
            hs_kcache_dir(dir, sizeof dir) == 0 ? "once, cached for later runs"
                                                : "the kernel cache is off: every run compiles it");
}

int hs_cc_shared(const char *source, const char *cc, const char *const *args, const char *ext, const char *note,
                 char *path, size_t np, int *cached, hs_error *err)
{
    char dir[1024], work[1100], src[1200], so[1200], logp[1200], opts[2048], name[64];
    const char *argv[64];
    unsigned long long key;
    posix_spawn_file_actions_t fa;
    pid_t pid;
    int nargs = 0, i, status = 0, have_cache, rc;
    size_t o = 0;
    *cached = 0;
    if (!cc) cc = hs_host_cc();
    /* the key: the source, the engine, the compiler and every option */
    o += (size_t)snprintf(opts, sizeof opts, "%s %s", cc, ext);
    for (i = 0; args && args[i] && o < sizeof opts; ++i) o += (size_t)snprintf(opts + o, sizeof opts - o, " %s", args[i]);
    key = hs_spec_key(source, opts);
    snprintf(name, sizeof name, "%016llx%s.so", key, !strcmp(ext, ".c") ? "-c" : "-cxx");
    have_cache = hs_kcache_dir(dir, sizeof dir) == 0;
    if (have_cache) {
        struct stat st;
        snprintf(path, np, "%s/%s", dir, name);
        /* a cached object only as a regular file: anything else at the name (a link planted
         * in the cache) is built anew and replaced by the rename below, never followed */
        if (lstat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, R_OK) == 0) {
            *cached = 1;
            return HS_OK;
        }
    }
    if (note) hs_build_note(note);
    snprintf(work, sizeof work, "%s/hs-build-XXXXXX", have_cache ? dir : "/tmp");
    if (!mkdtemp(work))
        return hs_error_set(err, HS_ERR_IO, work, 0, 0, "", "cannot make a build directory: %s", strerror(errno));
    for (i = 0; i < hs_embedded_header_count; ++i) {
        char hp[1400];
        snprintf(hp, sizeof hp, "%s/%s", work, hs_embedded_header_names[i]);
        if (write_file(hp, hs_embedded_header_texts[i])) {
            rm_build_dir(work);
            return hs_error_set(err, HS_ERR_IO, hp, 0, 0, "", "cannot write: %s", strerror(errno));
        }
    }
    snprintf(src, sizeof src, "%s/spec%s", work, ext);
    snprintf(so, sizeof so, "%s/%s", work, name);
    snprintf(logp, sizeof logp, "%s/build.log", work);
    if (write_file(src, source)) {
        rm_build_dir(work);
        return hs_error_set(err, HS_ERR_IO, src, 0, 0, "", "cannot write: %s", strerror(errno));
    }
    argv[nargs++] = cc;
    for (i = 0; args && args[i] && nargs < 56; ++i) argv[nargs++] = args[i];
    argv[nargs++] = "-I";
    argv[nargs++] = work;
    argv[nargs++] = "-o";
    argv[nargs++] = so;
    argv[nargs++] = src;
    argv[nargs++] = "-lm";
    argv[nargs] = NULL;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, logp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    rc = posix_spawnp(&pid, cc, &fa, NULL, (char *const *)argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0) {
        rm_build_dir(work);
        return hs_error_set(err, HS_ERR_NUMERIC, "", 0, 0, "HS_CC", "cannot run the compiler '%s': %s", cc,
                            strerror(rc));
    }
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        char msg[400] = "";
        FILE *f = fopen(logp, "r");
        if (f) {
            size_t k = fread(msg, 1, sizeof msg - 1, f);
            msg[k] = '\0';
            fclose(f);
        }
        rm_build_dir(work);
        return hs_error_set(err, HS_ERR_NUMERIC, "", 0, 0, "HS_CC", "the compiler '%s' failed on the specialised engine: %s",
                            cc, msg);
    }
    if (have_cache && rename(so, path) == 0) {
        rm_build_dir(work);
        return HS_OK;
    }
    /* no cache: the object stays in its build directory, which the caller may remove once
     * the object is loaded (hs_cpu_spec_get does) */
    snprintf(path, np, "%s", so);
    return HS_OK;
}

/* ---------------------------------------------------------------------------------------
 * the CPU backend's builds, loaded once per process */

#define HS_CPU_SPEC_SLOTS 16

static struct {
    unsigned long long key;
    hs_cpu_spec s;
} g_loaded[HS_CPU_SPEC_SLOTS];
static int g_nloaded, g_next; /* g_next: the slot the next build replaces once all are taken */

/* The engine is built where it runs, so it may use every instruction of this CPU
 * (-march=native: on x86-64 the AVX registers; bench/bench_single.py measures the gain).
 * -ffp-contract=off keeps every product and sum rounded as in the reference backend: no
 * fused multiply-add, so the results do not change with the flag (bit-identical,
 * tests/test_backends.c). -fno-math-errno lets sqrt be the instruction instead of a call that
 * may set errno, which the engine never reads (the same correctly rounded value, and faster).
 * HS_CPU_NATIVE=0 builds for the baseline ISA. */
static const char *const cpu_args[] = {"-std=c11", "-O3", "-fPIC", "-shared", "-ffp-contract=off", "-fno-math-errno",
                                       "-DNDEBUG", "-w", NULL};

static int cpu_native(void)
{
    const char *e = getenv("HS_CPU_NATIVE");
#if defined(__x86_64__) || defined(__aarch64__)
    return !(e && !strcmp(e, "0"));
#else
    (void)e;
    return 0;
#endif
}

/* A word naming this CPU for the cache key of a -march=native build (a cache directory shared
 * by several machines must not hand one CPU's build to another): a hash of the model name and
 * feature flags of /proc/cpuinfo (their first occurrence). */
static const char *cpu_tag(char *buf, size_t n)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[4096];
    unsigned long long h = 1469598103934665603ull;
    int got = 0;
    if (f) {
        while (got < 3 && fgets(line, sizeof line, f)) {
            const char *p;
            if (strncmp(line, "model name", 10) && strncmp(line, "flags", 5) && strncmp(line, "Features", 8) &&
                strncmp(line, "CPU part", 8))
                continue;
            for (p = line; *p; ++p) h = (h ^ (unsigned char)*p) * 1099511628211ull;
            ++got;
        }
        fclose(f);
    }
    snprintf(buf, n, "-DHS_CPU_TAG=%016llx", h);
    return buf;
}

/* cpu_args, -march=native with the CPU's tag, then the words of $HS_CC_FLAGS
 * (scripts/sanitize.sh instruments the engine too) */
static const char *const *cpu_args_env(const char **buf, int nbuf, char *words, size_t nwords, char *tag,
                                       size_t ntag, int native)
{
    const char *e = getenv("HS_CC_FLAGS");
    int n = 0;
    char *tok, *save = NULL;
    while (cpu_args[n] && n < nbuf - 1) {
        buf[n] = cpu_args[n];
        ++n;
    }
    if (native && n < nbuf - 3) {
        buf[n++] = "-march=native";
        buf[n++] = cpu_tag(tag, ntag);
    }
    if (e && *e) {
        snprintf(words, nwords, "%s", e);
        for (tok = strtok_r(words, " \t", &save); tok && n < nbuf - 1; tok = strtok_r(NULL, " \t", &save))
            buf[n++] = tok;
    }
    buf[n] = NULL;
    return buf;
}

int hs_cpu_spec_get(const char *source, hs_cpu_spec *out, hs_error *err)
{
    unsigned long long key;
    char path[1400], words[512], tag[64];
    const char *argbuf[40], *const *args;
    int i, cached = 0, rc;
    struct timespec t0, t1;
    void *so;
    char opts[1024];
    size_t o = 0;
    int native = cpu_native();
again:
    args = cpu_args_env(argbuf, 40, words, sizeof words, tag, sizeof tag, native);
    for (o = 0, i = 0; args[i] && o < sizeof opts; ++i) o += (size_t)snprintf(opts + o, sizeof opts - o, "%s ", args[i]);
    key = hs_spec_key(source, opts);
    for (i = 0; i < g_nloaded; ++i)
        if (g_loaded[i].key == key) {
            *out = g_loaded[i].s;
            out->build_s = 0.0;
            return HS_OK;
        }
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if ((rc = hs_cc_shared(source, NULL, args, ".c", "cpu", path, sizeof path, &cached, err))) {
        if (native) { /* a compiler without -march=native for this CPU: the baseline ISA */
            native = 0;
            goto again;
        }
        return rc;
    }
    {   /* the object to load: a regular file, not a link (a link planted in the cache) */
        struct stat st;
        if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode))
            return hs_error_set(err, HS_ERR_IO, path, 0, 0, "",
                                "the cached specialised engine is not a regular file (a link?): "
                                "refused; remove it, or set HS_KERNEL_CACHE=off");
    }
    so = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (strstr(path, "/hs-build-")) { /* uncached: the loaded object needs no file */
        char *slash = strrchr(path, '/');
        unlink(path);
        if (slash) {
            *slash = '\0';
            rm_build_dir(path);
        }
    }
    if (!so) return hs_error_set(err, HS_ERR_NUMERIC, "", 0, 0, "", "cannot load the specialised engine: %s", dlerror());
    memset(out, 0, sizeof *out);
    out->so = so;
    *(void **)&out->set = dlsym(so, "hs_spec_cpu_set");
    *(void **)&out->run = dlsym(so, "hs_spec_cpu_run");
    if (!out->set || !out->run) {
        dlclose(so);
        return hs_error_set(err, HS_ERR_NUMERIC, "", 0, 0, "", "the specialised engine lacks its entry points");
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (g_nloaded < HS_CPU_SPEC_SLOTS) {
        g_loaded[g_nloaded].key = key;
        g_loaded[g_nloaded].s = *out;
        ++g_nloaded;
    } else { /* the oldest build makes room, closed: no run holds it (the runs are sequential, and a
                later run of its model loads it again), so a long process does not pile up engines */
        dlclose(g_loaded[g_next].s.so);
        g_loaded[g_next].key = key;
        g_loaded[g_next].s = *out;
        g_next = (g_next + 1) % HS_CPU_SPEC_SLOTS;
    }
    out->build_s = cached ? 0.0 : (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    return HS_OK;
}
