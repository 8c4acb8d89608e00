/* tree_params.h -- a riccati model behind an hs_model_desc, for sweeps: loading, its named
 * parameters and signals, and the ensemble model of a job (tree_params.c). Host-internal. */
#ifndef HS_HOST_TREE_PARAMS_H
#define HS_HOST_TREE_PARAMS_H

#include "hs/sweep.h"
#include "hs/tree.h"
#include "hs_tree_batch.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Loads a riccati model file's text into d: d->tree, its parameter table (d->param, the
 * offset of each indexing d->tree_ov) and the integrator's times in d->model. */
int hs_tree_desc_load_text(const char *text, const char *path, hs_model_desc *d, hs_error *err);
/* The same of the file at path. */
int hs_tree_desc_load(const char *path, hs_model_desc *d, hs_error *err);
/* hs_model_desc_free frees what it added; hs_param_get gives a parameter's loaded value (of its
 * first body), hs_param_set sets it with the meaning it has in a sweep (nothing changes on
 * failure; HS_ERR_VALUE: v breaks a physical rule): through d->ops. */

/* The signals of a tree (hs_output_find and the others, for d->tree). */
int hs_tree_output_find(const hs_model_desc *d, const char *name, hs_signal_ref *ref);
void hs_tree_output_name(const hs_model_desc *d, hs_signal_ref ref, char *buf, size_t n);
const char *hs_tree_output_unit(const hs_model_desc *d, hs_signal_ref ref);
int hs_tree_output_count(const hs_model_desc *d);
hs_signal_ref hs_tree_output_at(const hs_model_desc *d, int k);

/* The ensemble model of a job: tm's tree, the swept parameters ov (offsets into d's table)
 * and what spec records. 0, or -1 if an offset is not one of d's parameters. */
int hs_tree_ens_of(const hs_tree_model *tm, const hs_model_desc *d, const hs_override_spec *ov,
                   const hs_output_spec *spec, double t_end, double dt, hs_tree_ens *e);

#ifdef __cplusplus
}
#endif

#endif
