/* hs/capi.h -- a flat C API for bindings (the Python package hydrosweep calls it through
 * ctypes: python/hydrosweep/_capi.py): no structs cross it, only handles, strings and
 * numbers, and every failure fills the caller's message buffer with the C library's own
 * message (file:line:col: error: key 'k': rule) and returns non-zero.
 *
 * It is built into the shared library libhydrosweep_capi.so (CMake target hydrosweep_capi,
 * which `pip install .` builds) from the same objects as the program. */
#ifndef HS_CAPI_H
#define HS_CAPI_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hs_model_desc hs_capi_model; /* a loaded model (hs/model_file.h) */

/* hydrosweep's version and the commit it was built from, e.g. "0.1.0 (commit 1a2b3c4d5e6f)". */
const char *hs_capi_version(void);

/* Loads and validates a model file; NULL with msg filled on failure. Free with
 * hs_capi_model_free. */
hs_capi_model *hs_capi_model_load(const char *path, char *msg, size_t nmsg);
void hs_capi_model_free(hs_capi_model *m);
/* A model equal to m as it is in memory: the text it was loaded from (not its file again, which
 * may have changed or gone) with every parameter's current value. NULL with msg filled. */
hs_capi_model *hs_capi_model_copy(const hs_capi_model *m, char *msg, size_t nmsg);
/* The model's name (its name: key). */
const char *hs_capi_model_name(const hs_capi_model *m);

/* The named parameters (as `hydrosweep info` lists them): count, name, SI unit ("" when
 * dimensionless), value (an enumeration's integer), and the value's name for an enumeration
 * (NULL otherwise). */
int hs_capi_param_count(const hs_capi_model *m);
const char *hs_capi_param_name(const hs_capi_model *m, int i);
const char *hs_capi_param_unit(const hs_capi_model *m, int i);
double hs_capi_param_value(const hs_capi_model *m, int i);
const char *hs_capi_param_value_name(const hs_capi_model *m, int i);
/* "NAME=VALUE" (a unit suffix allowed, an enumeration's value name): the model re-derived and
 * re-validated. 0, or non-zero with msg filled (an unknown name suggests the closest ones). */
int hs_capi_param_set(hs_capi_model *m, const char *assignment, char *msg, size_t nmsg);

/* The columns of `hydrosweep simulate`'s CSV for m (t first): their count, and column i's
 * name and SI unit into the buffers ("" beyond the count). */
int hs_capi_column_count(const hs_capi_model *m);
void hs_capi_column(const hs_capi_model *m, int i, char *name, size_t nname, char *unit, size_t nunit);

/* Integrates one instance of m (CPU reference path) and writes the CSV of `hydrosweep
 * simulate` (every k-th step and the last) to csv_path. 0: reached t_end; 1: bad arguments
 * or the file cannot be written (msg); 3: the integration failed (msg says why; the CSV holds
 * every step up to the failure). */
int hs_capi_simulate_csv(const hs_capi_model *m, const char *csv_path, long every, char *msg, size_t nmsg);

/* `hydrosweep run SWEEP -b backend [-n n] -o out [--threads threads]` with progress (0 none,
 * 1 on a terminal, 2 always, on stderr; with 0 the run's report on stdout is left out too): 0, or the CLI's exit status (2 bad input, 3 the run
 * failed) with msg filled. n = 0: the sweep's instances; threads = 0: all cores. */
int hs_capi_run(const char *sweep_path, const char *backend, long n, const char *out, int threads, int progress,
                char *msg, size_t nmsg);

#ifdef __cplusplus
}
#endif

#endif
