/* run_split.h -- a job that varies the model's structure, run as one job per structure
 * (run_split.c). */
#ifndef HS_RUN_SPLIT_H
#define HS_RUN_SPLIT_H

#include "engine/backend.h"

#ifdef __cplusplus
extern "C" {
#endif

/* At most this many structures (distinct values of the structural integers) in one job: each
 * is a build of the specialised engine. */
#define HS_SPLIT_MAX 64

/* Runs a job (its base, overrides and outputs as given; progress counts its instances). */
typedef int (*hs_split_run_fn)(const hs_batch_job *job, void *ctx, hs_error *err);

/* Runs job through run: at once when no override of job->ov is structural (hs_spec_structural),
 * else once per group of instances with equal structural values, each group with those values
 * set in its base model and dropped from its overrides, its outputs scattered back into
 * job->out; progress reports count over the groups in turn. Returns run's first error (and
 * job->out is then incomplete, as a backend's would be), HS_ERR_ARG beyond HS_SPLIT_MAX groups,
 * HS_ERR_IO when out of memory. */
int hs_run_split(const hs_batch_job *job, hs_split_run_fn run, void *ctx, hs_error *err);

#ifdef __cplusplus
}
#endif

#endif
