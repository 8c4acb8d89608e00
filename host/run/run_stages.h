/* run_stages.h -- the stages of a sweep run (hs_run_cli, run.c), each with the data it owns:
 *   plan    (run_plan.c)    what to run: the instance range, backend, device, overrides, sizes
 *   layout  (run_layout.c)  what the results file holds: names, units, time grid, metadata
 *   chunks  (run.c)         per group of chunks: sample, integrate, write
 *   finish  (run.c)         the closing report, or how to continue a stopped run */
#ifndef HS_RUN_STAGES_H
#define HS_RUN_STAGES_H

#include <stdio.h>

#include "hs/results.h"
#include "hs/run.h"

/* The plan of a run: decided once, before anything is created. */
typedef struct hs_run_plan {
    hs_sweep sw; /* the sweep with -n's instance count (the samples are drawn for it) */
    long n; /* instances of the sweep */
    long i_begin, i_end; /* this run's instances (a shard, or all) */
    int backend; /* HS_BACKEND_* (auto resolved) */
    char device[256]; /* the CPU's or GPU's name */
    hs_override_spec ov; /* what each instance overrides */
    int neig; /* eigenvalues per instance (outputs.eigenvalues), 0: none */
    long nsteps, ntime; /* steps per instance, trajectory samples */
} hs_run_plan;

/* The plan of sweep sw_in on model md as o asks: the sweep's simulation settings applied to md,
 * the shard's range, the checks that need no file yet (size, threads, inputs not overwritten,
 * a GPU present), the backend (auto: the GPU when there is one, said on o->report). */
int hs_run_plan_make(const hs_sweep *sw_in, hs_model_desc *md, const hs_run_opts *o, hs_run_plan *p,
                     hs_error *err);

/* The layout and metadata of the results file of plan p, with the arrays they point to. */
typedef struct hs_run_layout {
    hs_results_layout L;
    hs_results_meta meta;
    char ver[64];
    char (*namebuf)[112]; /* (nsig + ntraj) the signals' names */
    const char **pnames, **punits, **snames, **sunits, **tnames, **tunits; /* (nparam), (nsig), (ntraj) */
    const char **jnames, **jkinds; /* (nz) */
    double *ttime; /* (ntime) */
    int sdims[HS_MAX_SWEEP]; /* a configuration search's parameter roles (nparam) */
    char senums[HS_MAX_SWEEP][256]; /* ... their enumerations' names */
    const char *senum_p[HS_MAX_SWEEP];
    const char *snames_in[64]; /* ... its test inputs */
} hs_run_layout;

/* The names of every run method (hs_sweep.method), as the results file writes them. */
extern const char *const hs_run_method_names[];

/* Fills y for plan p of model md (pointing into p, md and y itself: none may move while the
 * results file is created). HS_ERR_IO when out of memory; free with hs_run_layout_free. */
int hs_run_layout_make(const hs_run_plan *p, const hs_model_desc *md, hs_run_layout *y, hs_error *err);
void hs_run_layout_free(hs_run_layout *y);

#endif
