/* kernel_spec.h -- the engine specialised to one model structure (issue: GPU ensembles at
 * hardware speed). The same kernels/ headers are compiled with the model's sizes and
 * topology as compile-time constants (HS_N, HS_I of kernels/hs_model.h become literals, the
 * loops over them unroll, the per-instance arrays shrink to the model's sizes), the shared
 * model in constant memory, and per instance only the values its sweep varies:
 *
 *   hs_spec_build    the generated source text (a few hundred lines of #defines and the
 *                    view struct, then #include "hs_spec_entry.h") and what varies per
 *                    instance; or the reason the job cannot be specialised (hs_spec.why)
 *   hs_spec_values   per-instance varying values (SoA) and validity, from the sampled values,
 *                    computed on the host exactly as the generic engine's hs_instance_model
 *   hs_spec_key      the cache key of a build: the source, the engine headers, the compiler
 *                    options and the hydrosweep version
 *
 * The source is compiled by NVRTC for a GPU (host/gpu/backend_gpu.cu) or by the host C compiler
 * into a shared object for the CPU backend (host/engine/kernel_build.c). The engine headers reach
 * either compiler from the copies embedded in the binary (hs_embedded_headers), so an
 * installed hydrosweep needs no source tree. */
#ifndef HS_KERNEL_SPEC_H
#define HS_KERNEL_SPEC_H

#include <stddef.h>

#include "hs/errors.h"
#include "hs_batch.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Field types of hs_model. */
enum hs_field_type { HS_FT_INT = 0, HS_FT_UINT = 1, HS_FT_DOUBLE = 2 };

/* One member of hs_model: its place and shape. An array's first dimension is counted by the
 * size member at size_off (nbody, ncon, ...) or fixed (fixed elements; 1 for a scalar); each
 * of its entries holds inner values (3 for a vector, HS_MAX_FP, ...). */
typedef struct hs_field {
    const char *name;
    size_t offset;
    int type; /* enum hs_field_type */
    int counted; /* 1: the first dimension is counted by the int at size_off */
    size_t size_off;
    int fixed; /* elements of the first dimension when not counted */
    int inner; /* values per entry of the first dimension */
    int is_array; /* 0: a scalar */
} hs_field;

/* Every member of hs_model, in declaration order; NULL-terminated (name == NULL). */
extern const hs_field hs_model_fields[];

/* Index into hs_model_fields of the member holding byte offset off, or -1. */
int hs_field_at(size_t off);
/* Entries of the first dimension of field f in model m (its size, or fixed). */
int hs_field_count(const hs_field *f, const hs_model *m);

/* Threads per block of the specialised GPU kernel (the generated source passes it on to
 * kernels/hs_spec_entry.h). 64: the states and statistics it keeps in shared memory fit the
 * 48 KB of a block; at ~255 registers per thread four blocks fill an SM either way. */
#define HS_SPEC_BLOCK 64

/* Above this many Newton unknowns the specialised engine's loops are left rolled
 * (HS_SPEC_ROLLED, kernels/hs_hd.h): every shipped seed model has at most 11, and their
 * builds stay as they were; the 80 of tests/data/gen_limits_model.py's model build in
 * seconds instead of minutes. */
#define HS_SPEC_UNROLL_MAX_X 24

/* The bytes of constant memory the model block, the output spec and a build's tables may
 * take together (64 KiB on every CUDA GPU, less a margin); beyond, the model block goes to
 * global memory (HS_SPEC_BASE_GLOBAL, kernels/hs_spec_entry.h). */
#define HS_SPEC_CONST_BUDGET (60 * 1024)

/* At most this many hs_model members vary per instance in one build: more than hs_model has
 * (test_kernel_spec checks), so that any sweep of doubles can be specialised. */
#define HS_SPEC_MAX_VAR 256

typedef struct hs_spec {
    char *source; /* the generated translation unit (malloc'd, NUL-terminated) */
    size_t len;
    int nvarf; /* hs_model members that vary per instance */
    int varf[HS_SPEC_MAX_VAR]; /* their hs_model_fields indices (nvarf) */
    int varn[HS_SPEC_MAX_VAR]; /* their values per instance (nvarf) */
    int nvar; /* values per instance in all: sum of varn */
    int nintg; /* derived integers that follow swept values: their general value (0) is */
    int intg[HS_SPEC_MAX_VAR]; /* compiled in instead (hs_model_fields indices, nintg) */
    char why[512]; /* why the job cannot be specialised ("" when it can) */
} hs_spec;

/* 1 if override j of ov is an integer that shapes the model (a friction law sets the friction
 * states; not a branch selector such as a volume's formulation, which the engine reads per
 * instance): one build holds one value of it, so a job that varies it runs one build per
 * value (host/run/run_split.c). */
int hs_spec_structural(const hs_override_spec *ov, int j);
/* ov less its structural overrides, into own (the job of the model's own structure); the
 * members left out named in names (n bytes, ", "-separated; NULL: not wanted). Returns how
 * many were left out. */
int hs_spec_drop_structural(const hs_override_spec *ov, hs_override_spec *own, char *names, size_t n);

/* The specialised source for model m (already derived), the sweep's overrides ov (NULL: none)
 * and outputs out. Returns HS_OK with sp->source set; or HS_OK with sp->source == NULL and
 * sp->why saying why it cannot be (an integer of hs_spec_structural is swept, so the
 * structure differs between instances); HS_ERR_IO when out of memory. Free with
 * hs_spec_free. */
int hs_spec_build(const hs_model *m, const hs_override_spec *ov, const hs_output_spec *out, hs_spec *sp,
                  hs_error *err);
void hs_spec_free(hs_spec *sp);

/* The varying values of instances [0, cnt) into var (nvar x cnt, var[k * cnt + i]) and their
 * validity into pre (cnt: HS_ST_INVALID for values that break a physical rule, as
 * hs_instance_model decides, else the warnings of hs_model_plausible): the base model with instance i's overrides (values, cnt x
 * ov->n row-major) applied and derived. OpenMP over instances. Returns HS_OK or HS_ERR_IO
 * (out of memory). */
int hs_spec_values(const hs_spec *sp, const hs_model *base, const hs_override_spec *ov, const double *values,
                   long cnt, double *var, int *pre, hs_error *err);

/* The engine headers compiled into this binary: names ("hs_batch.h", ...) and texts,
 * NULL-terminated. Generated at build time from kernels/ (CMakeLists.txt). */
extern const char *const hs_embedded_header_names[];
extern const char *const hs_embedded_header_texts[];
extern const int hs_embedded_header_count;

/* 64-bit FNV-1a of the source, every embedded header, the options string and the version:
 * the name of a cached build. */
unsigned long long hs_spec_key(const char *source, const char *options);

#ifdef __cplusplus
}
#endif

#endif
