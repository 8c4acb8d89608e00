/* kernel_build.h -- run-time builds of the specialised engine (host/engine/kernel_spec.h) and their
 * cache on disk.
 *
 * Cache: $HS_KERNEL_CACHE, else $XDG_CACHE_HOME/hydrosweep/kernels, else
 * $HOME/.cache/hydrosweep/kernels (created when missing). A build is named by
 * hs_spec_key (the generated source, the engine headers, the compiler and its options, the
 * version), so a changed model structure, engine or compiler never reuses a stale build.
 * Files are written to a temporary name and renamed, so concurrent runs share the cache
 * safely. HS_KERNEL_CACHE=off (or a directory that cannot be made) builds without caching.
 *
 * The CPU backend's build: the generated source compiled as C11 by the host compiler
 * ($HS_CC, else the compiler hydrosweep was built with, else cc; $HS_CC_FLAGS adds options)
 * into a shared object and loaded with dlopen; tests/gpu_emul uses the same mechanism for its
 * emulated NVRTC. */
#ifndef HS_KERNEL_BUILD_H
#define HS_KERNEL_BUILD_H

#include <stddef.h>

#include "hs/errors.h"
#include "hs_batch.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The cache directory into buf; 0, or -1 when caching is off or impossible (buf "" then). */
int hs_kcache_dir(char *buf, size_t n);
/* File name of the cache into *data (malloc'd, *n bytes); 0 if found. */
int hs_kcache_read(const char *name, void **data, size_t *n);
/* Stores n bytes under name (atomically); 0 on success. Failure only loses the caching. */
int hs_kcache_write(const char *name, const void *data, size_t n);

/* Builds source with the compiler cc (NULL: the host C compiler) and the arguments args
 * (NULL-terminated; the output, the engine headers' include directory and the source file
 * are added) into a shared object; path gets its file name (in the cache when there is one;
 * *cached is set to 1 when it was there already). On a compiler failure err holds the
 * compiler's message (its first lines) and the return is HS_ERR_NUMERIC. ext names the
 * source file's language (".c" or ".cpp"). note (NULL: none): the backend named in the line
 * hs_build_note prints before a build that the cache does not spare. */
int hs_cc_shared(const char *source, const char *cc, const char *const *args, const char *ext, const char *note,
                 char *path, size_t np, int *cached, hs_error *err);

/* "<who>: compiling the engine for this model (once, cached for later runs)..." on stderr:
 * a build takes seconds, and a user should know why the run has not started. */
void hs_build_note(const char *who);

/* The host C compiler: $HS_CC, else the one hydrosweep was built with, else "cc". */
const char *hs_host_cc(void);

/* ---- the CPU backend's specialised engine ---- */

typedef struct hs_cpu_spec {
    void *so; /* dlopen handle (the 16 latest builds stay open for the process) */
    void (*set)(const hs_model *base, const hs_output_spec *spec);
    void (*run)(const double *var, const int *pre, long i0, long i1, hs_batch_out *out);
    double build_s; /* seconds spent building (0: from the cache or this process) */
} hs_cpu_spec;

/* The specialised CPU engine for source (hs_spec_build's), built or found in the cache and
 * loaded once per process. Returns HS_OK, or an error saying why (no compiler, a compiler
 * failure, dlopen), after which the caller uses the generic engine. */
int hs_cpu_spec_get(const char *source, hs_cpu_spec *out, hs_error *err);

#ifdef __cplusplus
}
#endif

#endif
