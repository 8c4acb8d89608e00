/* run_cli.h -- the sweep pipeline as the CLI and the C API call it (run.c). */
#ifndef HS_RUN_CLI_H
#define HS_RUN_CLI_H

#include "hs/run.h"

#ifdef __cplusplus
extern "C" {
#endif

/* hs_run (hs/run.h) that names argv0 (the program as it was invoked; NULL: "hydrosweep") in
 * the command it prints to continue a stopped run. Returns HS_ERR_INTERRUPTED (host/engine/backend.h)
 * when a signal stopped it, after printing that command on stderr. */
int hs_run_cli(const hs_sweep *sw, hs_model_desc *md, const hs_run_opts *o, const char *argv0, hs_error *err);

#ifdef __cplusplus
}
#endif

#endif
