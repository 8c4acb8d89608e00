/* cli.h -- subcommands of the hydrosweep command-line program. Each returns the exit code:
 * 0 success, 1 usage error, 2 bad input (model file, parameter), 3 simulation failure. */
#ifndef HS_CLI_H
#define HS_CLI_H

int hs_cli_simulate(int argc, char **argv);
int hs_cli_info(int argc, char **argv);
int hs_cli_run(int argc, char **argv);
int hs_cli_validate(int argc, char **argv);
int hs_cli_merge(int argc, char **argv);
int hs_cli_kernel(int argc, char **argv);

#endif
