/* sweep_search.h -- host-private: a sweep file's method cosim_search (sweep_search.c) and the
 * parameter-value parser it shares with sweep_load.c. Not part of the public API
 * (include/hs/sweep.h is). */
#ifndef HS_HOST_SWEEP_SEARCH_H
#define HS_HOST_SWEEP_SEARCH_H

#include "hs/sweep.h"
#include "base/yaml_tree.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One value of parameter p at node v (key path kp in messages): an enumeration's name or
 * integer, else a number whose unit suffix fits p's unit (an integer parameter's in its
 * range). */
int hs_sweep_value_node(const yt_ctx *y, const yt_node *v, const char *kp, const hs_param *p, double *out);

/* method: cosim_search, after the configurations (parameters:, value lists) are in
 * sw->param: reads search: and inputs: of the sweep file's root, checks every configuration,
 * test input and H against the model's rules, and lays the parameters out as the search's
 * grid (hs_cosim_search in hs/sweep.h); sets sw->n. Errors at the file's line and key. */
int hs_search_load(const yt_ctx *y, const yt_node *root, hs_sweep *sw, hs_model_desc *md);

#ifdef __cplusplus
}
#endif

#endif
