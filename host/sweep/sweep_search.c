/* sweep_search.c -- a sweep file's method cosim_search: seed 004 Pub. III Sect. 2.4.1's search
 * for each co-simulation configuration's largest stable communication step H, as one batched
 * run. The paper runs it configuration by configuration, H growing until the accumulated
 * energy residual leaves its linear region or the run fails; here every configuration x test
 * input x H of the grid H_ini, H_ini + H_inc, ..., H_max is one instance (a grid), and
 * `hydrosweep analyze cosim` applies the paper's rule to the results afterwards
 * (python/hydrosweep/analyze.py). Running H past the first failure costs instances the paper
 * would not run, but none waits for another: the whole search is one launch.
 *
 *   search:  {H_ini, H_inc, H_max[, h_hyd]}    the H grid; h_hyd the hydraulics' step (Pub. III
 *                                              Table 3: 0.1 ms), else the model's
 *   parameters:                                the configurations: value lists (cosim.*, ...)
 *   inputs:  [{name, <parameter>: value, ...}] the test inputs (Pub. III eqs. 12-15): named sets
 *                                              of parameter values, e.g. signal.U_ref.kind: step
 *
 * The layout (hs_cosim_search, hs/sweep.h): integrator.dt (dimension 0, fastest), cosim.h_hyd
 * (one value, when given), the inputs' parameters (one shared dimension: an input sets all of
 * them; one it leaves out keeps the model's value), then the configuration parameters. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hs_model_derive.h"
#include "hs_rules.h"
#include "model/params.h"
#include "base/suggest.h"
#include "sweep/sweep_search.h"

#define SEARCH_MAX_H 1000 /* values of H: a finer grid says no more about stability */
#define SEARCH_MAX_INPUTS 64 /* test inputs */
#define SEARCH_NAME_LEN 64 /* a test input's name, with its terminating 0 */
#define SEARCH_CHECK_MAX 4096 /* configurations checked one by one against the rules */

/* Parameters the search sets itself, which neither a configuration nor a test input may set. */
static const char *const k_owned[] = {"integrator.dt", "cosim.h_hyd", "integrator.coupling", "integrator.t_end",
                                      NULL};

static int owned(const char *name)
{
    int k;
    for (k = 0; k_owned[k]; ++k)
        if (!strcmp(name, k_owned[k])) return 1;
    return 0;
}

/* search: the H grid. */
static int parse_grid(const yt_ctx *y, const yt_node *root, hs_sweep *sw, const hs_model_desc *md)
{
    static const char *const keys[] = {"H_ini", "H_inc", "H_max", "h_hyd", NULL};
    hs_cosim_search *q = &sw->search;
    const yt_node *m = yt_map_get(root, "search");
    double nh, hh, te;
    int rc, k;
    if (!m) return yt_missing(y, root, "", "search");
    if ((rc = yt_need(y, m, YT_MAP, "search")) || (rc = yt_check_keys(y, m, "search", keys)) ||
        (rc = yt_get_num(y, m, "search", "H_ini", "s", 1, NAN, &q->H_ini)) ||
        (rc = yt_get_num(y, m, "search", "H_inc", "s", 1, NAN, &q->H_inc)) ||
        (rc = yt_get_num(y, m, "search", "H_max", "s", 1, NAN, &q->H_max)) ||
        (rc = yt_get_num(y, m, "search", "h_hyd", "s", 0, NAN, &q->h_hyd)))
        return rc;
    if (!(q->H_ini > 0.0))
        return yt_fail(y, HS_ERR_VALUE, yt_map_get(m, "H_ini"), "search.H_ini", "H_ini must be > 0 s");
    if (!(q->H_inc > 0.0))
        return yt_fail(y, HS_ERR_VALUE, yt_map_get(m, "H_inc"), "search.H_inc", "H_inc must be > 0 s");
    if (!(q->H_max >= q->H_ini))
        return yt_fail(y, HS_ERR_VALUE, yt_map_get(m, "H_max"), "search.H_max",
                       "H_max (%g s) must be >= H_ini (%g s)", q->H_max, q->H_ini);
    if (!isnan(q->h_hyd) && !(q->h_hyd > 0.0))
        return yt_fail(y, HS_ERR_VALUE, yt_map_get(m, "h_hyd"), "search.h_hyd", "h_hyd must be > 0 s");
    te = isnan(sw->t_end) ? md->model.t_end : sw->t_end;
    if (q->H_ini > te) /* no H of the grid fits: every instance would be invalid (issue 47, class 6) */
        return yt_fail(y, HS_ERR_VALUE, yt_map_get(m, "H_ini"), "search.H_ini",
                       "H_ini = %g s is more than t_end = %g s%s: no communication step of the grid fits in "
                       "the run; take H_ini <= t_end", q->H_ini, te, isnan(sw->t_end) ? " (the model's)" : "");
    /* H_max itself counts when it is on the grid (to 1e-9 of a step) */
    nh = floor((q->H_max - q->H_ini) / q->H_inc + 1e-9) + 1.0;
    if (nh > SEARCH_MAX_H)
        return yt_fail(y, HS_ERR_LIMIT, yt_map_get(m, "H_inc"), "search.H_inc",
                       "the H grid from %g s to %g s in steps of %g s has %.0f values, more than %d: "
                       "take a larger H_inc",
                       q->H_ini, q->H_max, q->H_inc, nh, SEARCH_MAX_H);
    q->nH = (int)nh;
    hh = isnan(q->h_hyd) ? md->model.cosim_h_hyd : q->h_hyd;
    if (!hs_cosim_steps_ok(te, hh))
        return yt_fail(y, HS_ERR_LIMIT, isnan(q->h_hyd) ? m : yt_map_get(m, "h_hyd"), "search.h_hyd",
                       "h_hyd = %g s%s gives t_end / h_hyd = %.3g hydraulic steps (t_end = %g s), more than "
                       "HS_MAX_STEPS = %.0e",
                       hh, isnan(q->h_hyd) ? " (the model's cosim.h_hyd)" : "", te / hh, te, HS_MAX_STEPS);
    for (k = 0; k < q->nH; ++k) {
        double H = q->H_ini + q->H_inc * (double)k;
        if (!hs_cosim_h_hyd_ok(H, hh))
            return yt_fail(y, HS_ERR_VALUE, yt_map_get(m, k == 0 ? "H_ini" : "H_inc"),
                           k == 0 ? "search.H_ini" : "search.H_inc",
                           "H = %g s (H_ini + %d H_inc) is not a whole multiple of h_hyd = %g s%s: the "
                           "hydraulics take whole steps within each communication step (Pub. III Table 3); "
                           "choose H_ini and H_inc as multiples of h_hyd",
                           H, k, hh, isnan(q->h_hyd) ? " (the model's cosim.h_hyd)" : "");
    }
    return HS_OK;
}

/* The sweep parameter of model parameter pi with n values (dist values), dimension dim. */
static int new_param(const yt_ctx *y, const hs_model_desc *md, int pi, int n, int dim, int line,
                     hs_sweep_param *sp)
{
    memset(sp, 0, sizeof *sp);
    snprintf(sp->name, sizeof sp->name, "%s", md->param[pi].name);
    sp->index = pi;
    sp->dist = HS_DIST_VALUES;
    sp->a = sp->b = sp->c = sp->d = NAN;
    sp->dim = dim;
    sp->line = line;
    sp->values = (double *)calloc((size_t)n, sizeof *sp->values);
    if (!sp->values) return yt_fail(y, HS_ERR_IO, NULL, "", "out of memory");
    sp->nvalues = n;
    return HS_OK;
}

/* Is name one of the configurations (cfg, ncfg)? */
static int in_configs(const hs_sweep_param *cfg, int ncfg, const char *name)
{
    int j;
    for (j = 0; j < ncfg; ++j)
        if (!strcmp(cfg[j].name, name)) return 1;
    return 0;
}

/* inputs: the test inputs into sp[0 .. *np) (one per parameter any input sets, in the order
 * they first appear; dimension dim), their names into sw->search. */
static int parse_inputs(const yt_ctx *y, const yt_node *root, hs_sweep *sw, const hs_model_desc *md,
                        const hs_sweep_param *cfg, int ncfg, int dim, hs_sweep_param *sp, int *np, int maxp)
{
    hs_cosim_search *q = &sw->search;
    const yt_node *l = yt_map_get(root, "inputs");
    char kp[192], near[400];
    int rc, k, i, j, n;
    *np = 0;
    if (!l) return yt_missing(y, root, "", "inputs");
    if ((rc = yt_need(y, l, YT_SEQ, "inputs"))) return rc;
    if (l->n < 1) return yt_fail(y, HS_ERR_VALUE, l, "inputs", "the list of test inputs is empty");
    if (l->n > SEARCH_MAX_INPUTS)
        return yt_fail(y, HS_ERR_LIMIT, l->kid[SEARCH_MAX_INPUTS], "inputs", "%d test inputs, more than %d", l->n,
                       SEARCH_MAX_INPUTS);
    q->input_name = (char(*)[SEARCH_NAME_LEN])calloc((size_t)l->n, SEARCH_NAME_LEN);
    if (!q->input_name) return yt_fail(y, HS_ERR_IO, NULL, "", "out of memory");
    n = q->ninput = l->n;
    /* the names, and the union of the parameters */
    for (k = 0; k < n; ++k) {
        const yt_node *it = l->kid[k], *nm;
        snprintf(kp, sizeof kp, "inputs[%d]", k);
        if ((rc = yt_need(y, it, YT_MAP, kp))) return rc;
        nm = yt_map_get(it, "name");
        if (!nm) return yt_missing(y, it, kp, "name");
        snprintf(kp, sizeof kp, "inputs[%d].name", k);
        if (nm->type != YT_SCALAR || yt_is_null(nm) || !nm->text[0] || strlen(nm->text) >= SEARCH_NAME_LEN)
            return yt_fail(y, HS_ERR_VALUE, nm, kp, "a test input's name must be a text of 1 to %d characters",
                           SEARCH_NAME_LEN - 1);
        for (j = 0; j < k; ++j)
            if (!strcmp(q->input_name[j], nm->text))
                return yt_fail(y, HS_ERR_VALUE, nm, kp, "test input '%s' is named twice (first at line %d)",
                               nm->text, yt_map_get(l->kid[j], "name")->line);
        snprintf(q->input_name[k], SEARCH_NAME_LEN, "%s", nm->text);
        for (i = 0; i < it->n; i += 2) {
            const yt_node *key = it->kid[i];
            int pi, have = 0;
            if (key->type != YT_SCALAR || !strcmp(key->text, "name")) continue;
            snprintf(kp, sizeof kp, "inputs[%d].%s", k, key->text);
            pi = hs_param_find(md, key->text);
            if (pi < 0) {
                hs_param_suggest(md, key->text, near, sizeof near);
                return yt_fail(y, HS_ERR_VALUE, key, kp,
                               "'%s' is not a parameter of model %s%s (a test input sets signal parameters "
                               "such as signal.<name>.kind, .v_max, .f; 'hydrosweep info %s' lists them)",
                               key->text, md->name, near, md->path);
            }
            if (owned(key->text))
                return yt_fail(y, HS_ERR_VALUE, key, kp,
                               "the search sets %s itself (search: and simulation:); a test input cannot",
                               key->text);
            if (in_configs(cfg, ncfg, key->text))
                return yt_fail(y, HS_ERR_VALUE, key, kp,
                               "%s is a configuration (parameters:); a test input cannot set it too", key->text);
            for (j = 0; j < *np; ++j)
                if (sp[j].index == pi) have = 1;
            if (have) continue;
            if (*np >= maxp)
                return yt_fail(y, HS_ERR_LIMIT, key, kp,
                               "too many swept parameters: the configurations, the test inputs' and H "
                               "together take more than HS_MAX_SWEEP = %d",
                               HS_MAX_SWEEP);
            if ((rc = new_param(y, md, pi, n, dim, key->line, &sp[*np]))) return rc;
            for (j = 0; j < n; ++j) sp[*np].values[j] = hs_param_get(md, pi); /* left out: the model's */
            ++*np;
        }
    }
    /* the values */
    for (k = 0; k < n; ++k) {
        const yt_node *it = l->kid[k];
        for (i = 0; i < it->n; i += 2) {
            const yt_node *key = it->kid[i];
            if (key->type != YT_SCALAR || !strcmp(key->text, "name")) continue;
            snprintf(kp, sizeof kp, "inputs[%d].%s", k, key->text);
            for (j = 0; j < *np && strcmp(sp[j].name, key->text); ++j) {
            }
            if ((rc = hs_sweep_value_node(y, it->kid[i + 1], kp, &md->param[sp[j].index], &sp[j].values[k])))
                return rc;
        }
    }
    return HS_OK;
}

/* The model's rules on instance i's values (hs_sweep_sample), on a scratch copy of the model:
 * HS_OK, or the rule broken in *e (its key the parameter's name where the validator names one). */
static int instance_ok(const hs_sweep *sw, hs_model_desc *md, long i, hs_error *e)
{
    hs_model *saved = (hs_model *)malloc(sizeof *saved);
    int j, rc;
    if (!saved) return hs_error_set(e, HS_ERR_IO, "", 0, 0, "", "out of memory");
    memcpy(saved, &md->model, sizeof *saved);
    for (j = 0; j < sw->nparam; ++j) {
        const hs_param *p = &md->param[sw->param[j].index];
        double v = hs_sweep_sample(sw, i, j);
        if (p->type == HS_PARAM_ENUM) {
            int iv = (int)v;
            memcpy((char *)&md->model + p->offset, &iv, sizeof iv);
        } else {
            memcpy((char *)&md->model + p->offset, &v, sizeof v);
        }
    }
    md->model.coupling = HS_COUPLE_COSIM;
    hs_model_derive(&md->model);
    rc = hs_model_validate(md, e);
    memcpy(&md->model, saved, sizeof *saved);
    free(saved);
    return rc;
}

/* The node of key name in test input k, else the input itself. */
static const yt_node *input_node(const yt_node *root, int k, const char *name)
{
    const yt_node *it = yt_map_get(root, "inputs")->kid[k];
    const yt_node *at = yt_map_key(it, name);
    return at ? at : it;
}

/* Every test input, every configuration (up to SEARCH_CHECK_MAX of them) and every H against
 * the model's rules, each with the others' first values: an error names the value's place in
 * the file, not an invalid instance at run time. */
static int check_rules(const yt_ctx *y, const yt_node *root, const hs_sweep *sw, hs_model_desc *md, int din,
                       int dcfg)
{
    const hs_cosim_search *q = &sw->search;
    long ncfg = sw->n / ((long)q->nH * q->ninput), c, stride = (long)q->nH * q->ninput;
    hs_error e;
    char kp[192];
    int k, j, rc;
    for (k = 0; k < q->ninput; ++k)
        if ((rc = instance_ok(sw, md, (long)k * q->nH, &e))) {
            snprintf(kp, sizeof kp, "inputs[%d]%s%s", k, e.key[0] ? "." : "", e.key);
            return yt_fail(y, rc, input_node(root, k, e.key), kp, "test input '%s': %s", q->input_name[k], e.msg);
        }
    for (c = 0; c < ncfg && c < SEARCH_CHECK_MAX; ++c)
        if ((rc = instance_ok(sw, md, c * stride, &e))) {
            char what[512];
            size_t used = 0;
            const yt_node *pm = yt_map_get(root, "parameters"), *at = pm ? yt_map_key(pm, e.key) : NULL;
            what[0] = '\0';
            for (j = 0; j < sw->nparam; ++j) {
                const hs_param *p = &md->param[sw->param[j].index];
                double v = hs_sweep_sample(sw, c * stride, j);
                int w;
                if (sw->param[j].dim < dcfg) continue;
                w = p->type == HS_PARAM_ENUM && v >= 0 && v < p->n_enum
                        ? snprintf(what + used, sizeof what - used, "%s%s = %s", used ? ", " : "", p->name,
                                   p->enum_names[(int)v])
                        : snprintf(what + used, sizeof what - used, "%s%s = %g", used ? ", " : "", p->name, v);
                if (w > 0 && (size_t)w < sizeof what - used) used += (size_t)w;
            }
            snprintf(kp, sizeof kp, "parameters%s%s", at ? "." : "", at ? e.key : "");
            return yt_fail(y, rc, at ? at : pm ? pm : root, kp, "configuration (%s): %s", what, e.msg);
        }
    (void)din;
    for (k = 0; k < q->nH; ++k)
        if ((rc = instance_ok(sw, md, k, &e))) {
            const yt_node *m = yt_map_get(root, "search");
            return yt_fail(y, rc, yt_map_get(m, k == 0 ? "H_ini" : "H_inc"), k == 0 ? "search.H_ini" : "search.H_inc",
                           "H = %g s: %s", q->H_ini + q->H_inc * (double)k, e.msg);
        }
    return HS_OK;
}

int hs_search_load(const yt_ctx *y, const yt_node *root, hs_sweep *sw, hs_model_desc *md)
{
    hs_cosim_search *q = &sw->search;
    hs_sweep_param *np = NULL, *cfg = sw->param;
    int ncfg = sw->nparam, rc, j, k, nin = 0, n = 0, dim = 0, din, dcfg;
    double prod;
    const yt_node *pm = yt_map_get(root, "parameters");
    char kp[160];
    for (j = 0; j < ncfg; ++j)
        if (owned(cfg[j].name))
            return yt_fail(y, HS_ERR_VALUE, pm ? yt_map_key(pm, cfg[j].name) : root,
                           yt_join(kp, sizeof kp, "parameters", cfg[j].name),
                           "a cosim_search sets %s itself (%s): it cannot be a configuration", cfg[j].name,
                           !strcmp(cfg[j].name, "integrator.dt")         ? "the H grid, search: H_ini, H_inc, H_max"
                           : !strcmp(cfg[j].name, "cosim.h_hyd")         ? "search.h_hyd"
                           : !strcmp(cfg[j].name, "integrator.coupling") ? "cosim"
                                                                         : "simulation.t_end");
    if ((rc = parse_grid(y, root, sw, md))) return rc;
    np = (hs_sweep_param *)calloc(HS_MAX_SWEEP, sizeof *np);
    if (!np) return yt_fail(y, HS_ERR_IO, NULL, "", "out of memory");
    /* H: dimension 0 */
    if ((rc = new_param(y, md, hs_param_find(md, "integrator.dt"), q->nH, dim++, 0, &np[n]))) goto fail;
    for (k = 0; k < q->nH; ++k) np[n].values[k] = q->H_ini + q->H_inc * (double)k;
    ++n;
    if (!isnan(q->h_hyd)) {
        if ((rc = new_param(y, md, hs_param_find(md, "cosim.h_hyd"), 1, dim++, 0, &np[n]))) goto fail;
        np[n++].values[0] = q->h_hyd;
    }
    din = dim++;
    rc = parse_inputs(y, root, sw, md, cfg, ncfg, din, np + n, &nin, HS_MAX_SWEEP - n - ncfg);
    n += nin; /* before the check: a failed parse leaves its first nin parameters to free */
    if (rc) goto fail;
    if (nin == 0) /* inputs that set nothing: the shared dimension still counts them */
        --dim;
    dcfg = dim;
    q->dim_input = nin > 0 ? din : -1;
    q->dim_config = dcfg;
    if (n + ncfg > HS_MAX_SWEEP) {
        rc = yt_fail(y, HS_ERR_LIMIT, pm ? pm : root, "parameters",
                     "too many swept parameters: the configurations, the test inputs' and H together "
                     "take %d, more than HS_MAX_SWEEP = %d",
                     n + ncfg, HS_MAX_SWEEP);
        goto fail;
    }
    prod = (double)q->nH * (double)q->ninput;
    for (j = 0; j < ncfg; ++j) {
        np[n] = cfg[j]; /* the values move over */
        np[n].dim = dim++;
        prod *= (double)cfg[j].nvalues;
        ++n;
    }
    if (prod > 9007199254740992.0) {
        rc = yt_fail(y, HS_ERR_LIMIT, pm ? pm : root, "parameters", "the search has %.6g instances (at most 2^53)",
                     prod);
        goto fail_moved;
    }
    free(sw->param);
    sw->param = np;
    sw->nparam = n;
    sw->n = (long)prod;
    if (nin == 0 && q->ninput > 1) {
        /* several inputs that set nothing would be identical instances: name the second */
        const yt_node *l = yt_map_get(root, "inputs");
        return yt_fail(y, HS_ERR_VALUE, l->kid[1], "inputs[1]",
                       "test input '%s' sets no parameter: it is the same as '%s' (set e.g. "
                       "signal.<name>.kind and its values)",
                       q->input_name[1], q->input_name[0]);
    }
    return check_rules(y, root, sw, md, din, dcfg);
fail_moved:
    for (j = 0; j < ncfg; ++j) cfg[j].values = NULL; /* moved into np; freed with it */
fail:
    for (j = 0; j < n; ++j) free(np[j].values);
    free(np);
    return rc;
}
