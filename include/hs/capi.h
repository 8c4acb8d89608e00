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
/* What the model is made of, into buf: "4 bodies, 3 joint coordinates, ..., 2 components:
 * pump (pump), relief (relief_valve)", or "an open tree of N bodies (riccati)". */
void hs_capi_model_sizes(const hs_capi_model *m, char *buf, size_t n);

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
 * simulate` (every k-th step and the last; k = 0: the model's outputs.every) to csv_path. 0: reached t_end; 1: bad arguments
 * or the file cannot be written (msg); 3: the integration failed (msg says why; the CSV holds
 * every step up to the failure). */
int hs_capi_simulate_csv(const hs_capi_model *m, const char *csv_path, long every, char *msg, size_t nmsg);

/* `hydrosweep run SWEEP -b backend [-n n] -o out [--threads threads]` with progress (0 none,
 * 1 on a terminal, 2 always, on stderr; with 0 the run's report on stdout is left out too; plus
 * 4: no report, the caller shows the results): 0, or the CLI's exit status (2 bad input, 3 the
 * run failed) with msg filled. n = 0: the sweep's instances; threads = 0: all cores. */
int hs_capi_run(const char *sweep_path, const char *backend, long n, const char *out, int threads, int progress,
                char *msg, size_t nmsg);

/* ---- open trees of the Riccati transfer matrix method (seed 002; hs/tree.h) ---- */
typedef struct hs_capi_tree hs_capi_tree;

/* Loads a riccati model file (integrator.formulation: riccati); NULL with msg on failure. */
hs_capi_tree *hs_capi_tree_load(const char *path, char *msg, size_t nmsg);
/* A tree from arrays, copied (layout of kernels/hs_tree.h): parent (n; -1 ground, parent <
 * child), jtype (n; 0 revolute, 1 prismatic, 2 ball), mass (n), com (n x 3), inertia about the
 * com (n x 6: xx yy zz xy xz yz), at_parent, at_child, axis (n x 3; axis unit, ignored for ball
 * joints), rot0 (n x 9, row-major; NULL: identity), gravity (3). NULL with msg when a rule is
 * broken (an index, a zero axis, a size). */
hs_capi_tree *hs_capi_tree_make(int n, const int *parent, const int *jtype, const double *mass, const double *com,
                                const double *inertia, const double *at_parent, const double *at_child,
                                const double *axis, const double *rot0, const double *gravity, char *msg,
                                size_t nmsg);
void hs_capi_tree_free(hs_capi_tree *t);
/* Bodies, position and velocity coordinates. */
void hs_capi_tree_size(const hs_capi_tree *t, int *nbody, int *nq, int *nv);
/* The initial state of a loaded tree (a made one: zeros and identity quaternions). */
void hs_capi_tree_state0(const hs_capi_tree *t, double *q, double *v);
/* Joint accelerations vd (nv) at q (nq), v (nv) with gravity and the model's external loads at
 * the tree's time (0 when loaded, advanced by hs_capi_tree_rk4), and the internal moment and
 * force at every joint (nbody x 6, the seed's signs) into F unless NULL. 0, or j + 1 when the
 * articulated inertia at joint j is singular. */
int hs_capi_tree_accel(hs_capi_tree *t, const double *q, const double *v, double *vd, double *F);
/* Seconds per hs_capi_tree_accel, timed over nrep calls inside the library (no binding overhead);
 * negative on failure. */
double hs_capi_tree_time_accel(hs_capi_tree *t, const double *q, const double *v, long nrep);
/* nsteps RK4 steps of length dt on (q, v), in place, from the tree's time, which they advance
 * (the loads' signals). 0, or j + 1 as hs_capi_tree_accel. */
int hs_capi_tree_rk4(hs_capi_tree *t, double *q, double *v, double dt, long nsteps);
/* Seconds per evaluation of the same accelerations by the semi-recursive formulation of the
 * step (kernels/hs_dynamics.h: M and Q accumulated over the tree, then a dense LU solve of
 * M zdd = Q), timed over nrep calls, for a tree that fits hs_model (at most HS_MAX_BODIES
 * bodies, a ball joint counting three: hs_tree_to_model); its accelerations into vd (nv, a
 * ball joint's nu' as hs_capi_tree_accel gives it) unless NULL. Negative when the tree does
 * not fit or M is singular. */
double hs_capi_tree_time_semirecursive(hs_capi_tree *t, const double *q, const double *v, long nrep, double *vd);
/* The tree's arrays copied out, in hs_capi_tree_make's layout (each sized for nbody). */
void hs_capi_tree_arrays(const hs_capi_tree *t, int *parent, int *jtype, double *mass, double *com, double *inertia,
                         double *at_parent, double *at_child, double *axis, double *rot0, double *gravity);
/* Kinetic and potential energy at (q, v). */
void hs_capi_tree_energy(hs_capi_tree *t, const double *q, const double *v, double *Ekin, double *Epot);

#ifdef __cplusplus
}
#endif

#endif
