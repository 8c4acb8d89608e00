/* hs/run.h -- running a sweep: sample, integrate on a backend chunk by chunk, write results. */
#ifndef HS_RUN_H
#define HS_RUN_H

#include <stdio.h>

#include "errors.h"
#include "sweep.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hs_run_opts {
    int backend; /* enum hs_backend_kind (host/engine/backend.h): auto, cpu, gpu, reference */
    long n; /* instances (0: the sweep's) */
    const char *out; /* results file (.h5) */
    int threads; /* cpu backend threads (0: all) */
    int shard_k, shard_n; /* run the k-th of n equal slices of the instances (0/1: all) */
    int resume; /* continue out's .part file */
    long stop_after; /* write at most this many chunks, then stop unfinished (0: no limit) */
    long batch; /* instances per backend call, whole chunks (0: gpu 131072, else one chunk) */
    int progress; /* 0: never, 1: when stderr is a terminal, 2: always */
    FILE *report; /* where the summary goes (stdout) */
    int si; /* the summary in SI units (0: MPa, deg, mm, L/min) */
} hs_run_opts;

/* The sweep's simulation overrides (t_end, dt, newton) applied to the model, checked against
 * its rules. */
int hs_sweep_apply_simulation(const hs_sweep *sw, hs_model_desc *md, hs_error *err);

/* Applies the sweep's simulation overrides to the model, then runs and writes everything. */
int hs_run(const hs_sweep *sw, hs_model_desc *md, const hs_run_opts *o, hs_error *err);

/* Instances [i0, i0 + cnt) of the sweep on one backend into out (allocated by the caller
 * with hs_batch_out_alloc); used by `validate` and by the tests. */
int hs_run_range(const hs_sweep *sw, const hs_model_desc *md, int backend, int threads,
                 const long *indices, long cnt, hs_batch_out *out, hs_error *err);

/* The override spec of a sweep (offsets of its parameters in hs_model). */
void hs_sweep_overrides(const hs_sweep *sw, const hs_model_desc *md, hs_override_spec *ov);

#ifdef __cplusplus
}
#endif

#endif
