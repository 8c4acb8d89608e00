/* cli_tree.h -- the subcommands' paths for riccati model files (cli_tree.c). */
#ifndef HS_CLI_TREE_H
#define HS_CLI_TREE_H

#include <stdio.h>

#include "hs/model_file.h"
#include "hs_batch.h"

/* `hydrosweep info MODEL [--set NAME=VALUE ...]` of a riccati model, loaded into d
 * (tree_params.h) with the --set values applied. */
int hs_cli_info_tree(const hs_model_desc *d);

/* `hydrosweep simulate --from R --instance I|--nominal` of a riccati model's sweep: the tree
 * of d (tree_params.h) with the sweep's values vals of the parameters ov applied, integrated
 * to d's t_end at its dt, a CSV row every `every` steps (0: the model's outputs.every) to out,
 * the summary after. HS_OK, 3
 * when the integration failed, or an hs_errcode with *err filled. */
int hs_cli_tree_instance(const hs_model_desc *d, const hs_override_spec *ov, const double *vals, FILE *out,
                         long every, hs_error *err);

#endif
