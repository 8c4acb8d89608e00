/* cli_tree.h -- the subcommands' paths for riccati model files (cli_tree.c). */
#ifndef HS_CLI_TREE_H
#define HS_CLI_TREE_H

/* `hydrosweep simulate MODEL [--t-end T] [--every K] [-o CSV]` of a riccati model. */
int hs_cli_simulate_tree(const char *model_path, int argc, char **argv);
/* `hydrosweep info MODEL` of a riccati model. */
int hs_cli_info_tree(const char *model_path);

#endif
