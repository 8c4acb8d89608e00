/* cli.h -- subcommands of the hydrosweep command-line program. Each returns the exit code:
 * 0 success, 1 usage error, 2 bad input (model file, parameter), 3 simulation failure. */
#ifndef HS_CLI_H
#define HS_CLI_H

#include <stdio.h>
#include <string.h>

#include "hs/errors.h"

int hs_cli_simulate(int argc, char **argv);
int hs_cli_info(int argc, char **argv);
int hs_cli_run(int argc, char **argv);
int hs_cli_validate(int argc, char **argv);
int hs_cli_merge(int argc, char **argv);
int hs_cli_kernel(int argc, char **argv);
int hs_cli_plot(int argc, char **argv);
int hs_cli_linearize(int argc, char **argv);
int hs_cli_analyze(int argc, char **argv);
int hs_cli_circuit(int argc, char **argv);

/* 1 (after a message on stderr: a usage error, exit 1) when the value of --set lacks its '='
 * (`--set NAME` instead of `--set NAME=VALUE`), else 0. cmd names the subcommand. */
static inline int hs_cli_set_usage(const char *cmd, const char *value)
{
    const char *eq = value ? strchr(value, '=') : NULL;
    if (eq && eq != value) return 0;
    fprintf(stderr, "hydrosweep %s: option --set needs NAME=VALUE, got '%.80s'%s\n", cmd, value ? value : "",
            value && strlen(value) > 80 ? "..." : "");
    return 1;
}

/* Prints e on stderr, after "hydrosweep CMD: " (nothing when cmd is NULL). */
static inline void hs_cli_error(const char *cmd, const hs_error *e)
{
    char buf[1024];
    hs_error_format(e, buf, sizeof buf);
    fprintf(stderr, "%s%s%s%s\n", cmd ? "hydrosweep " : "", cmd ? cmd : "", cmd ? ": " : "", buf);
}

/* The command's operand a (its file, what: "model" or "file") into *path; or 1, a usage error
 * after a message: a is an unknown option, or a second operand. */
static inline int hs_cli_operand(const char *cmd, const char *what, const char *a, const char **path)
{
    if (a[0] == '-' && a[1] != '\0')
        fprintf(stderr, "hydrosweep %s: unknown option '%s' (see --help)\n", cmd, a);
    else if (*path)
        fprintf(stderr, "hydrosweep %s: more than one %s given ('%s', '%s')\n", cmd, what, *path, a);
    else
        *path = a;
    return *path != a;
}

#include "hs_batch.h"
#include "engine/simulate.h"

/* The model's implausible values (hs_model_implausible) as a warning on stderr; note follows
 * "implausible values" (run's: the instances carry the warning bit). */
static inline void hs_cli_warn_implausible(const char *cmd, const hs_model_desc *d, const char *note)
{
    char what[1024];
    if (hs_model_implausible(d, what, sizeof what) > 0)
        fprintf(stderr, "hydrosweep %s: warning: implausible values%s: %s\n", cmd, note, what);
}

/* The counterbalance valves that do not hold their load at rest (hs_model_load_not_held) as a
 * warning on stderr. */
static inline void hs_cli_warn_load_not_held(const char *cmd, const hs_model_desc *d)
{
    char what[1024];
    if (hs_model_load_not_held(d, what, sizeof what) > 0)
        fprintf(stderr, "hydrosweep %s: warning: the load would fall: %s\n", cmd, what);
}

/* validate's bounds on Newton iteration counts (a cost, not a result: a count flips by one
 * where rounding moves a convergence test across its threshold). Per instance, the mean
 * iterations per step of the two backends may differ by at most iter_rtol times the larger of
 * the two, the largest iterations of one step by at most HS_VALIDATE_ITER_MAX_DIFF. */
#define HS_VALIDATE_ITER_MAX_DIFF 1
typedef struct hs_iter_cmp {
    long ndiff; /* instances whose iteration counts differ at all */
    long nbad; /* instances beyond a bound */
    double worst_mean, worst_mean_rel; /* largest |mean_a - mean_b|, and relative to the larger */
    long worst_mean_k; /* its row, -1 if none */
    int worst_max; /* largest |max_a - max_b| */
    long worst_max_k; /* its row, -1 if none */
} hs_iter_cmp;
/* Compares rows 0..K-1 of a (the backend checked) and b (the reference). */
void hs_validate_iterations(const hs_batch_out *a, const hs_batch_out *b, long K,
                            double iter_rtol, hs_iter_cmp *r);

#endif
