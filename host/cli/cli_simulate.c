/* cli_simulate.c -- `hydrosweep simulate MODEL`: one instance on the CPU reference path,
 * a CSV trajectory with stable column names and a short summary. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_tree.h"
#include "base/progress.h"
#include "hs/tree.h"
#include "base/fileio.h"
#include "hs/model_file.h"
#include "hs/results.h"
#include "hs/run.h"
#include "hs/sweep.h"
#include "hs_integrator.h"
#include "model/params.h"
#include "tree/tree_params.h"
#include "engine/simulate.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: hydrosweep simulate MODEL [--set NAME=VALUE ...] [--t-end T] [--dt H]\n"
            "                           [--every K] [-o out.csv]\n"
            "       hydrosweep simulate --from RESULTS.h5 --instance I|--nominal [same options]\n"
            "\n"
            "Integrates one instance of MODEL (a YAML model file) from its initial state.\n"
            "  --from R --instance I  re-run instance I of a sweep's results file R alone: the\n"
            "                    sweep stored in R is reloaded, instance I's sampled values (a pure\n"
            "                    function of seed, instance and parameter) are recomputed, checked\n"
            "                    against those stored in R and applied, as are the sweep's simulation\n"
            "                    settings (t_end, dt, newton, step, rtol)\n"
            "  --from R --nominal  the sweep's model with its own values (nothing sampled) and the\n"
            "                    sweep's simulation settings: the nominal instance\n"
            "  --set NAME=VALUE  override a named parameter (see `hydrosweep info MODEL`);\n"
            "                    VALUE may carry a unit, e.g. --set joint.crank_angle.z0=-25deg\n"
            "                    (a joint of models/fourbar_rahikainen2018.yaml)\n"
            "  --t-end T         end time (s), as --set integrator.t_end=T\n"
            "  --dt H            time step (s), as --set integrator.dt=H; --t-end and --dt are\n"
            "                    applied together after the --set options (t_end / dt must be at\n"
            "                    most 1e9 steps)\n"
            "  --every K         write every K-th step (default: the model's outputs.every, else\n"
            "                    1; the last step always)\n"
            "  -o FILE           CSV output (default: standard output)\n"
            "\n"
            "CSV columns: t, then <joint> and <joint>_dot for every joint (rad or m, rad/s or\n"
            "m/s), p_<volume> (Pa), U_<valve> (V), and per cylinder s_<cyl> (length, m),\n"
            "sdot_<cyl> (m/s), F_<cyl> (net force along it, N), Ffric_<cyl> (N), W_<cyl> (its\n"
            "work on the mechanism, J); then E_kin, E_pot, W_ext (work of external loads),\n"
            "E_balance (E_kin + E_pot - W_ext - sum W_<cyl> - the motors' work, minus its initial value), phi_norm\n"
            "(constraint violation), newton_iters.\n"
            "Exit status: 0 success, 1 usage, 2 bad model, parameter or output (a CSV that cannot\n"
            "be written completely, e.g. a full disk), 3 the integration failed (the CSV holds\n"
            "every step up to the failure).\n");
}

/* The model of instance i of a results file: its sweep reloaded from the stored text, the
 * sweep's simulation overrides and instance i's sampled values applied (and checked against
 * the values the run stored). i < 0: the nominal instance, the model's own values with the
 * sweep's simulation overrides (the reference line of a fan chart, `hydrosweep plot`). */
static int load_instance(const char *res, long i, hs_model_desc *d, hs_override_spec *ov, double *vals,
                         hs_error *err)
{
    char *stext = NULL, *spath = NULL, names[HS_MAX_SWEEP][112];
    long ntot = 0;
    double stored[HS_MAX_SWEEP];
    int np = 0, j, rc;
    hs_sweep sw;
    if (i >= 0 && (rc = hs_results_read_instance(res, i, HS_MAX_SWEEP, names, stored, &np, NULL, 0, err)))
        return rc;
    if ((rc = hs_results_read_sweep(res, &stext, &spath, &ntot, err))) return rc;
    rc = hs_sweep_load_text(stext, spath, &sw, d, err);
    free(stext);
    free(spath);
    if (rc) return rc;
    sw.n = ntot; /* the run's instance count (run -n) defines the Latin-hypercube strata */
    if (i < 0) np = 0; /* nominal: no sampled values */
    else if (sw.nparam != np) rc = hs_error_set(err, HS_ERR_VALUE, res, 0, 0, "", "the stored sweep has %d parameters, the file %d", sw.nparam, np);
    /* t_end, dt, newton, formulation, step, method, rtol */
    if (!rc) rc = hs_sweep_apply_simulation(&sw, d, err);
    for (j = 0; j < np && !rc; ++j) {
        double v = hs_sweep_sample(&sw, i, j);
        if (strcmp(names[j], sw.param[j].name) || !(v == stored[j] || (isnan(v) && isnan(stored[j]))))
            rc = hs_error_set(err, HS_ERR_VALUE, res, 0, 0, names[j],
                              "instance %ld: the value recomputed from the sweep (%.17g) differs from "
                              "the stored one (%.17g): the file was made by another version",
                              i, v, stored[j]);
        else if (d->tree) /* a tree's instance: its values go to hs_tree_instance_setup */
            vals[j] = v;
        else
            rc = hs_param_set(d, sw.param[j].name, v, err);
    }
    hs_sweep_overrides(&sw, d, ov);
    ov->n = np;
    if (!rc && i >= 0) fprintf(stderr, "simulate: instance %ld of %s (%d parameters set)\n", i, res, np);
    if (!rc && i < 0) fprintf(stderr, "simulate: the nominal instance of %s (the model's own values)\n", res);
    hs_sweep_free(&sw);
    if (rc) hs_model_desc_free(d);
    return rc;
}

/* A riccati model's --set after --from: the instance's values are applied after the model's
 * own (hs_cli_tree_instance), so a swept parameter set again takes the new value there too. */
static void tree_set_swept(const hs_model_desc *d, const hs_override_spec *ov, double *vals, const char *assignment)
{
    char name[sizeof(((hs_param *)0)->name)];
    size_t n;
    int j, k;
    while (isspace((unsigned char)*assignment)) ++assignment;
    n = strcspn(assignment, "=");
    while (n > 0 && isspace((unsigned char)assignment[n - 1])) --n;
    snprintf(name, sizeof name, "%.*s", (int)n, assignment);
    k = hs_param_find(d, name);
    for (j = 0; j < ov->n && k >= 0; ++j)
        if (ov->offset[j] == (unsigned long)k) vals[j] = hs_param_get(d, k);
}

/* The CSV's end: a file's .part committed (removed on a failed write: nothing at the path
 * changes), standard output flushed. */
static int close_csv(hs_output *csv, const char *out_path, int saved_errno, hs_error *err)
{
    if (csv->f) return hs_output_commit(csv, saved_errno, err);
    return hs_close_output(stdout, out_path, saved_errno, err);
}

/* The value of --t-end / --dt: seconds, with an optional time unit. */
static int time_arg(const char *s, const char *name, double *v, hs_error *err)
{
    char unit[32];
    if (hs_parse_quantity(s, v, unit, sizeof unit) != 0)
        return hs_error_set(err, HS_ERR_ARG, "", 0, 0, name,
                            "'%s' is not a number with an optional unit suffix", s);
    if (unit[0] && strcmp(unit, "s") != 0)
        return hs_error_set(err, HS_ERR_ARG, "", 0, 0, name,
                            "unit of '%s' is %s, but the parameter is in s", s, unit);
    return HS_OK;
}

int hs_cli_simulate(int argc, char **argv)
{
    const char *model_path = NULL, *out_path = NULL, *from = NULL;
    long every = 1, inst = -1;
    int every_given = 0;
    int nominal = 0;
    double t_end = NAN, dt = NAN;
    int i, rc;
    hs_model_desc d;
    hs_override_spec ov; /* a tree's instance: its swept parameters and values */
    double vals[HS_MAX_SWEEP];
    hs_error err;
    char buf[1024];
    hs_sim_summary sum;
    FILE *out = stdout;
    hs_output csv = {NULL, NULL, NULL};
    memset(&ov, 0, sizeof ov);

    for (i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 0;
        }
    }
    /* first pass: the model path (the one non-option argument) */
    for (i = 1; i < argc; ++i) {
        const char *a = argv[i];
        if (!strcmp(a, "--set") || !strcmp(a, "--t-end") || !strcmp(a, "--dt") ||
            !strcmp(a, "--every") || !strcmp(a, "-o") || !strcmp(a, "--from") ||
            !strcmp(a, "--instance")) {
            if (i + 1 < argc && !strcmp(a, "--from")) from = argv[i + 1];
            if (i + 1 < argc && !strcmp(a, "--set") && hs_cli_set_usage("simulate", argv[i + 1])) return 1;
            if (i + 1 < argc && !strcmp(a, "--instance")) {
                char *e;
                errno = 0;
                inst = strtol(argv[i + 1], &e, 10);
                if (errno || *e || e == argv[i + 1] || inst < 0) {
                    fprintf(stderr, "hydrosweep simulate: --instance needs an integer >= 0\n");
                    return 1;
                }
            }
            if (i + 1 >= argc) {
                fprintf(stderr, "hydrosweep simulate: option %s needs a value\n", a);
                return 1;
            }
            ++i;
        } else if (!strcmp(a, "--nominal")) {
            nominal = 1;
        } else if (hs_cli_operand("simulate", "model", a, &model_path)) {
            return 1;
        }
    }
    if (nominal && !from) {
        fprintf(stderr, "hydrosweep simulate: --nominal goes with --from RESULTS.h5\n");
        return 1;
    }
    if (from) {
        if (model_path || (inst < 0) == !nominal) {
            fprintf(stderr, "hydrosweep simulate: --from takes either --instance I or --nominal, and no MODEL\n");
            return 1;
        }
        if ((rc = load_instance(from, nominal ? -1 : inst, &d, &ov, vals, &err))) {
            hs_cli_error(NULL, &err);
            return 2;
        }
    } else if (!model_path) {
        usage(stderr);
        return 1;
    } else if (hs_tree_file_is_riccati(model_path) ? hs_tree_desc_load(model_path, &d, &err)
                                                   : hs_model_load(model_path, &d, &err)) {
        hs_cli_error(NULL, &err);
        return 2;
    }
    /* second pass: --set in command-line order, then --t-end and --dt together (so that
     * neither order matters for the rules on both, e.g. t_end / dt <= HS_MAX_STEPS) */
    rc = 0;
    for (i = 1; i < argc && !rc; ++i) {
        const char *a = argv[i];
        if (!strcmp(a, "--set")) {
            if (hs_param_set_string(&d, argv[++i], &err)) rc = 2;
            else if (d.tree) tree_set_swept(&d, &ov, vals, argv[i]);
        } else if (!strcmp(a, "--t-end") || !strcmp(a, "--dt")) {
            int is_dt = !strcmp(a, "--dt");
            if (time_arg(argv[++i], is_dt ? "integrator.dt" : "integrator.t_end",
                         is_dt ? &dt : &t_end, &err))
                rc = 2;
        } else if (!strcmp(a, "--every")) {
            char *end;
            errno = 0;
            every = strtol(argv[++i], &end, 10);
            every_given = 1;
            if (errno || *end || every < 1) {
                fprintf(stderr, "hydrosweep simulate: --every needs an integer >= 1, got '%s'\n",
                        argv[i]);
                hs_model_desc_free(&d);
                return 1;
            }
        } else if (!strcmp(a, "-o")) {
            out_path = argv[++i];
        }
    }
    if (!rc && hs_model_set_time(&d, t_end, dt, &err)) rc = 2;
    if (rc) {
        hs_cli_error(NULL, &err);
        hs_model_desc_free(&d);
        return rc;
    }
    if (out_path && strcmp(out_path, "-") &&
        (hs_same_file(out_path, from ? from : model_path) || hs_same_file(out_path, d.path))) {
        fprintf(stderr,
                "hydrosweep simulate: %s: error: the CSV output (-o) is the %s itself: it would "
                "be overwritten\n",
                out_path, from ? "results file" : "model file");
        hs_model_desc_free(&d);
        return 2;
    }
    if (out_path && strcmp(out_path, "-")) {
        /* written to PATH.part and renamed into place when complete (an existing file at PATH
         * stays as it was until then); never blocks; a directory is refused */
        if (hs_output_begin(&csv, out_path, "CSV output (-o)", &err) == HS_OK) out = csv.f;
        if (!csv.f) {
            hs_cli_error("simulate", &err);
            hs_model_desc_free(&d);
            return 2;
        }
    } else {
        out = stdout;
        out_path = "standard output";
    }
    if (d.tree) { /* an instance of a riccati model's sweep (tree_params.h) */
        rc = hs_cli_tree_instance(&d, &ov, vals, out, every_given ? every : 0, &err);
        if (close_csv(&csv, out_path, 0, &err) && !rc) rc = 2;
        if (rc) {
            hs_cli_error("simulate", &err);
        }
        hs_model_desc_free(&d);
        return rc;
    }
    {
        /* with integrator.penalty_ratio > 0 the engine raises alpha itself (hs_penalty) */
        double r = hs_penalty_ratio(&d.model);
        if (d.model.ncon > 0 && r < 1.0 && !(d.model.penalty_ratio > 0.0))
            fprintf(stderr,
                    "hydrosweep simulate: warning: penalty * dt^2 / 4 is only %.2g times the largest "
                    "mass-matrix entry and integrator.penalty_ratio is 0; the constraint multipliers "
                    "will converge slowly (raise integrator.penalty to about %.1e, or set "
                    "penalty_ratio, e.g. 4)\n",
                    r, d.model.penalty * 4.0 / r);
    }
    hs_cli_warn_implausible("simulate", &d, "");
    hs_cli_warn_load_not_held("simulate", &d);
    {
        double t0 = hs_now_s();
        rc = hs_simulate_csv(&d, out, every_given || d.out_every < 1 ? every : d.out_every, &sum);
        sum.wall_s = hs_now_s() - t0;
    }
    /* every write, the flush and the close of the CSV are checked: a full disk is an
     * error, never a silently truncated file */
    if (close_csv(&csv, out_path, sum.write_errno, &err)) {
        hs_error_format(&err, buf, sizeof buf);
        fprintf(stderr, "hydrosweep simulate: %s (the CSV is incomplete)\n", buf);
        hs_model_desc_free(&d);
        return 2;
    }
    {
        FILE *f = (out == stdout) ? stderr : stdout;
        hs_sim_summary_print(f, &d, &sum);
        /* a failure is an error: on stderr too, where scripts and users look for one */
        if (sum.status && f != stderr)
            fprintf(stderr, "hydrosweep simulate: error: the integration FAILED at t = %g s: %s (the CSV holds the "
                            "steps before it)\n",
                    sum.adaptive ? sum.t_final : sum.t_final + d.model.dt, hs_status_string(sum.status));
    }
    hs_model_desc_free(&d);
    return rc ? 3 : 0;
}
