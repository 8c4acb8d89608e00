/* cli_tree.h -- the subcommands' paths for riccati model files (cli_tree.c). */
#ifndef HS_CLI_TREE_H
#define HS_CLI_TREE_H

/* `hydrosweep simulate MODEL [--t-end T] [--every K] [-o CSV]` of a riccati model. */
int hs_cli_simulate_tree(const char *model_path, int argc, char **argv);
/* `hydrosweep info MODEL` of a riccati model. */
int hs_cli_info_tree(const char *model_path);

#include <stdio.h>

#include "hs/model_file.h"
#include "hs_batch.h"

/* `hydrosweep simulate --from R --instance I|--nominal` of a riccati model's sweep: the tree
 * of d (tree_params.h) with the sweep's values vals of the parameters ov applied, integrated
 * to d's t_end at its dt, a CSV row every `every` steps (0: the model's outputs.every) to out,
 * the summary after. HS_OK, 3
 * when the integration failed, or an hs_errcode with *err filled. */
int hs_cli_tree_instance(const hs_model_desc *d, const hs_override_spec *ov, const double *vals, FILE *out,
                         long every, hs_error *err);

#endif
