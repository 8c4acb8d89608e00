/* sweep_load.c -- sweep files (YAML, docs/sweep-format.md): which model, how many instances,
 * how each named model parameter is sampled, what is recorded per instance; the value of a
 * swept parameter for an instance (hs_sweep_sample, a pure function of (seed, i, j)); and the
 * names of the recordable signals (the CSV columns of `hydrosweep simulate`).
 *
 * The file is read with the line/column-annotated YAML tree of yaml_tree.h, so every error
 * names file, line, column, dotted key and the rule. Parameter names are checked against the
 * model's parameter table (hs_param_find), values against the parameter's unit. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hs/sweep.h"
#include "hs_sample.h"
#include "base/fileio.h"
#include "model/model_names.h"
#include "model/params.h"
#include "tree/tree_params.h"
#include "base/suggest.h"
#include "sweep/sweep_search.h"
#include "base/yaml_tree.h"

static const char *const k_methods[] = {"monte_carlo", "latin_hypercube", "sobol", "grid", "saltelli",
                                        "cosim_search", NULL};
static const char *const k_stats[] = {"min", "max", "final", "mean", "rms", "t_max", NULL};
static const char *const k_dists[] = {
    "uniform", "normal", "truncated_normal", "lognormal", "values", "range", NULL};

#define MAX_INSTANCES 9007199254740992.0 /* 2^53: instance counts are exact doubles */
#define LHS_MAX_INSTANCES 1099511627776.0 /* 2^40: hs_lhs_u keeps strata exact below it */
#define SOBOL_MAX_INSTANCES 4294967295.0 /* 2^32 - 1 points after the origin */

/* ====================================================================================== */
/* signal names                                                                           */
/* ====================================================================================== */

/* Number of recordable signals of the model: the CSV columns of hs_simulate_csv but t. */
/* The components with a flow of their own (an accumulator's is its volume's capacitance). */
static int flow_components(const hs_model *m)
{
    int k, n = 0;
    for (k = 0; k < m->ncmp; ++k) n += m->cmp_type[k] != HS_CMP_ACCUMULATOR;
    return n;
}

int hs_output_count(const hs_model_desc *d)
{
    const hs_model *m = &d->model;
    if (d->tree) return hs_tree_output_count(d);
    /* a co-simulated model has its residuals too: P_res and E_res of each cylinder, E_res; a
     * circuit its energy audit (W_in, W_loss, E_fluid) and its elements' flows and losses */
    return 2 * m->nz + m->nvol + m->ndcv + 5 * m->ncyl + 6 + (hs_model_has_hydraulics(m) ? 3 : 0) +
           (m->coupling == HS_COUPLE_COSIM ? 2 * m->ncyl + 1 : 0) + 2 * m->nthr + 3 * m->ndcv +
           2 * flow_components(m);
}

/* The k-th signal in CSV column order: runs of signals, each n entities x per kinds. */
hs_signal_ref hs_output_at(const hs_model_desc *d, int k)
{
    static const int zk[2] = {HS_SIG_Z, HS_SIG_ZD}, pk[1] = {HS_SIG_P}, uk[1] = {HS_SIG_U},
                     ck[5] = {HS_SIG_S, HS_SIG_SD, HS_SIG_F, HS_SIG_FFRIC, HS_SIG_W},
                     rk[2] = {HS_SIG_PRES, HS_SIG_ERES}, ek[1] = {HS_SIG_ERES_SUM},
                     qt[2] = {HS_SIG_QTHR, HS_SIG_PTHR}, qv[3] = {HS_SIG_QA, HS_SIG_QB, HS_SIG_PVAL},
                     qc[2] = {HS_SIG_QCMP, HS_SIG_PCMP};
    /* without a circuit, no W_in, W_loss, E_fluid */
    static const int tk[9] = {HS_SIG_EKIN,  HS_SIG_EPOT,   HS_SIG_WEXT, HS_SIG_EBAL, HS_SIG_WIN,
                              HS_SIG_WLOSS, HS_SIG_EFLUID, HS_SIG_PHI,  HS_SIG_ITERS},
                     tk0[6] = {HS_SIG_EKIN, HS_SIG_EPOT, HS_SIG_WEXT, HS_SIG_EBAL, HS_SIG_PHI, HS_SIG_ITERS};
    const hs_model *m = &d->model;
    int audit = hs_model_has_hydraulics(m), cosim = m->coupling == HS_COUPLE_COSIM, s;
    const struct { int n, per; const int *kinds; } run[10] = {
        {m->nz, 2, zk}, {m->nvol, 1, pk}, {m->ndcv, 1, uk}, {m->ncyl, 5, ck}, {1, audit ? 9 : 6, audit ? tk : tk0},
        {cosim ? m->ncyl : 0, 2, rk}, {cosim, 1, ek}, {m->nthr, 2, qt}, {m->ndcv, 3, qv}, {flow_components(m), 2, qc}};
    hs_signal_ref r = {HS_SIG_COUNT, 0};
    if (d->tree) return hs_tree_output_at(d, k);
    for (s = 0; s < 10 && k >= 0; k -= run[s].n * run[s].per, ++s)
        if (k < run[s].n * run[s].per) {
            r.kind = run[s].kinds[k % run[s].per];
            r.index = k / run[s].per;
            if (s == 9) { /* the r.index-th component with a flow */
                int c, n = -1;
                for (c = 0; c < m->ncmp && n < r.index; ++c) n += m->cmp_type[c] != HS_CMP_ACCUMULATOR;
                r.index = c - 1;
            }
            return r;
        }
    return r;
}

/* Each signal kind's name (prefix, the entity's name from set: 1 joint, 2 volume, 3 valve,
 * 4 cylinder, 5 throttle, 6 component, 0 none; suffix) and SI unit (a joint's depends on its kind: hs_output_unit). */
static const struct {
    const char *pre, *post;
    int set;
    const char *unit;
} k_sig[HS_SIG_COUNT] = {
    [HS_SIG_Z] = {"", "", 1, NULL},        [HS_SIG_ZD] = {"", "_dot", 1, NULL},
    [HS_SIG_P] = {"p_", "", 2, "Pa"},      [HS_SIG_U] = {"U_", "", 3, "V"},
    [HS_SIG_S] = {"s_", "", 4, "m"},       [HS_SIG_SD] = {"sdot_", "", 4, "m/s"},
    [HS_SIG_F] = {"F_", "", 4, "N"},       [HS_SIG_FFRIC] = {"Ffric_", "", 4, "N"},
    [HS_SIG_W] = {"W_", "", 4, "J"},       [HS_SIG_EKIN] = {"E_kin", "", 0, "J"},
    [HS_SIG_EPOT] = {"E_pot", "", 0, "J"}, [HS_SIG_WEXT] = {"W_ext", "", 0, "J"},
    [HS_SIG_EBAL] = {"E_balance", "", 0, "J"},
    [HS_SIG_PHI] = {"phi_norm", "", 0, "m or rad"}, /* the norm of every constraint row: mixed */
    [HS_SIG_ITERS] = {"newton_iters", "", 0, "-"}, [HS_SIG_PRES] = {"P_res_", "", 4, "W"},
    [HS_SIG_ERES] = {"E_res_", "", 4, "J"}, [HS_SIG_ERES_SUM] = {"E_res", "", 0, "J"},
    [HS_SIG_WIN] = {"W_in", "", 0, "J"},   [HS_SIG_WLOSS] = {"W_loss", "", 0, "J"},
    [HS_SIG_EFLUID] = {"E_fluid", "", 0, "J"},
    [HS_SIG_QTHR] = {"Q_", "", 5, "m^3/s"}, [HS_SIG_PTHR] = {"P_loss_", "", 5, "W"},
    [HS_SIG_QA] = {"Q_", "_A", 3, "m^3/s"},  [HS_SIG_QB] = {"Q_", "_B", 3, "m^3/s"},
    [HS_SIG_PVAL] = {"P_loss_", "", 3, "W"}, [HS_SIG_QCMP] = {"Q_", "", 6, "m^3/s"},
    [HS_SIG_PCMP] = {"P_loss_", "", 6, "W"}};

void hs_output_name(const hs_model_desc *d, hs_signal_ref ref, char *buf, size_t n)
{
    int i = ref.index;
    if (!buf || n == 0) return;
    buf[0] = '\0';
    if (!d) return;
    if (d->tree) {
        hs_tree_output_name(d, ref, buf, n);
        return;
    }
    if (ref.kind >= 0 && ref.kind < HS_SIG_COUNT && k_sig[ref.kind].pre) {
        const char(*set[7])[HS_NAME_LEN] = {NULL, d->joint_name, d->vol_name, d->dcv_name, d->cyl_name,
                                            d->thr_name, d->cmp_name};
        const int cnt[7] = {0, d->model.nz, d->model.nvol, d->model.ndcv, d->model.ncyl, d->model.nthr, d->model.ncmp},
                  s = k_sig[ref.kind].set;
        if (!s) snprintf(buf, n, "%s", k_sig[ref.kind].pre);
        else if (i >= 0 && i < cnt[s]) snprintf(buf, n, "%s%s%s", k_sig[ref.kind].pre, set[s][i], k_sig[ref.kind].post);
    }
    if (!buf[0]) snprintf(buf, n, "unknown_signal");
}

const char *hs_output_unit(const hs_model_desc *d, hs_signal_ref ref)
{
    int prismatic;
    if (d && d->tree) return hs_tree_output_unit(d, ref);
    prismatic = d && ref.index >= 0 && ref.index < d->model.nz &&
                    d->model.joint_type[ref.index] == HS_JOINT_PRISMATIC;
    if (ref.kind == HS_SIG_Z || ref.kind == HS_SIG_ZD)
        return ref.kind == HS_SIG_Z ? (prismatic ? "m" : "rad") : (prismatic ? "m/s" : "rad/s");
    return ref.kind >= 0 && ref.kind < HS_SIG_COUNT && k_sig[ref.kind].unit ? k_sig[ref.kind].unit : "";
}

const char *hs_joint_kind_name(const hs_model_desc *d, int j)
{
    if (!d || j < 0 || j >= d->model.nz) return "";
    return d->model.joint_type[j] == HS_JOINT_PRISMATIC ? "prismatic"
           : d->model.joint_type[j] == HS_JOINT_BALL    ? "ball" /* a rotation vector's coordinate */
                                                        : "revolute";
}

/* The first CSV column of that name wins (column names of a model are normally unique). */
int hs_output_find(const hs_model_desc *d, const char *name, hs_signal_ref *ref)
{
    char buf[HS_NAME_LEN + 16];
    int k, n;
    if (!d || !name) return -1;
    if (d->tree) return hs_tree_output_find(d, name, ref);
    n = hs_output_count(d);
    for (k = 0; k < n; ++k) {
        hs_signal_ref r = hs_output_at(d, k);
        hs_output_name(d, r, buf, sizeof buf);
        if (!strcmp(buf, name)) {
            if (ref) *ref = r;
            return 0;
        }
    }
    return -1;
}

/* ====================================================================================== */
/* sampling                                                                               */
/* ====================================================================================== */

/* Value index of a uniform u among n listed values (monte_carlo, latin_hypercube, sobol):
 * floor(u n), each value with probability 1/n; LHS and Sobol' keep their balance. */
static int value_index(double u, int n)
{
    int k = (int)(u * (double)n);
    return k < 0 ? 0 : k >= n ? n - 1 : k;
}

double hs_sweep_sample(const hs_sweep *sw, long i, int j)
{
    const hs_sweep_param *p;
    uint64_t seed, ii;
    double u;
    if (!sw || j < 0 || j >= sw->nparam || i < 0) return NAN;
    p = &sw->param[j];
    seed = (uint64_t)sw->seed;
    ii = (uint64_t)i;
    if (sw->method == HS_SAMPLE_GRID || sw->method == HS_SAMPLE_COSIM_SEARCH) {
        /* the digit of p's dimension; the parameters of a dimension (ascending, contiguous) have
         * as many values each */
        int counts[HS_MAX_SWEEP], k, nd = 0;
        if (j >= HS_MAX_SWEEP || p->dim < 0 || p->dim > j) return NAN;
        for (k = 0; k <= j; ++k)
            if (sw->param[k].dim == nd) {
                counts[nd++] = sw->param[k].nvalues;
                if (counts[nd - 1] < 1) return NAN;
            }
        if (nd != p->dim + 1 || p->nvalues != counts[p->dim]) return NAN;
        return p->values[hs_grid_digit(ii, p->dim, counts)];
    }
    switch (sw->method) {
    case HS_SAMPLE_MONTE_CARLO: u = hs_uniform(seed, ii, (uint32_t)j, HS_STREAM_MC); break;
    case HS_SAMPLE_LHS: u = hs_lhs_u(seed, ii, (uint32_t)j, sw->n > 0 ? (uint64_t)sw->n : 1); break;
    case HS_SAMPLE_SOBOL:
        if (j >= HS_SOBOL_MAX_DIM) return NAN;
        u = hs_sobol_u(seed, ii, (uint32_t)j);
        break;
    case HS_SAMPLE_SALTELLI:
        if (2 * sw->nparam > HS_SOBOL_MAX_DIM) return NAN;
        u = hs_saltelli_u(ii, (uint32_t)j, (uint32_t)sw->nparam,
                          hs_saltelli_skip((uint64_t)(sw->n > 0 ? sw->n : 1) / (uint64_t)(2 * sw->nparam + 2)));
        break;
    default: return NAN;
    }
    switch (p->dist) {
    case HS_DIST_UNIFORM: return hs_q_uniform(p->a, p->b, u);
    case HS_DIST_NORMAL: return hs_q_normal(p->a, p->b, u);
    case HS_DIST_TRUNCNORMAL: return hs_q_truncnormal(p->a, p->b, p->c, p->d, u);
    case HS_DIST_LOGNORMAL: return hs_q_lognormal(p->a, p->b, u);
    case HS_DIST_VALUES: return p->nvalues > 0 ? p->values[value_index(u, p->nvalues)] : NAN;
    default: return NAN;
    }
}

/* ====================================================================================== */
/* loading                                                                                */
/* ====================================================================================== */

typedef struct sctx {
    yt_ctx y;
    hs_sweep *sw;
    hs_model_desc *md;
    const yt_node *root;
    const char *model_text; /* the model's text when it is given (hs_sweep_load_stored), else NULL */
    char hhyd_msg[512]; /* the co-simulation's h_hyd rule broken by simulation: alone, decided
                           once the parameters are read (check_hhyd): "" when kept */
} sctx;

/* An integer in [lo, hi] (a plain number without unit, e.g. 100000 or 1e5). */
static int int_node(sctx *c, const yt_node *y, const char *kp, double lo, double hi, long *out)
{
    char unit[32];
    double v;
    if (y->type != YT_SCALAR || yt_is_null(y))
        return yt_fail(&c->y, HS_ERR_SCHEMA, y, kp, "must be an integer");
    if (hs_parse_quantity(y->text, &v, unit, sizeof unit) != 0 || unit[0] || v != floor(v))
        return yt_fail(&c->y, HS_ERR_SCHEMA, y, kp, "'%s' is not an integer (without unit)",
                       y->text);
    if (v < lo || v > hi)
        return yt_fail(&c->y, HS_ERR_VALUE, y, kp, "%s must be in [%.17g, %.17g]", y->text, lo, hi);
    *out = (long)v;
    return HS_OK;
}

static int get_int(sctx *c, const yt_node *m, const char *path, const char *key, double lo,
                   double hi, long def, long *out)
{
    char kp[128];
    const yt_node *v = yt_map_get(m, key);
    if (!v) {
        *out = def;
        return HS_OK;
    }
    return int_node(c, v, yt_join(kp, sizeof kp, path, key), lo, hi, out);
}

/* seed: a decimal integer 0 .. 2^64 - 1. */
static int get_seed(sctx *c, const yt_node *m)
{
    const yt_node *v = yt_map_get(m, "seed");
    const char *s;
    unsigned long long x;
    char *end;
    c->sw->seed = 1;
    if (!v) return HS_OK;
    if (v->type != YT_SCALAR)
        return yt_fail(&c->y, HS_ERR_SCHEMA, v, "seed", "must be an integer 0 .. 2^64 - 1");
    for (s = v->text; *s >= '0' && *s <= '9'; ++s) {
    }
    errno = 0;
    x = strtoull(v->text, &end, 10);
    if (*s || !v->text[0] || errno == ERANGE || *end)
        return yt_fail(&c->y, HS_ERR_SCHEMA, v, "seed",
                       "'%s' is not a decimal integer 0 .. 18446744073709551615", v->text);
    c->sw->seed = x;
    return HS_OK;
}

/* A value of parameter p: a number whose unit suffix (if any) fits the parameter's unit. */
static int param_num(sctx *c, const yt_node *y, const char *kp, const hs_param *p, double *out)
{
    char unit[32];
    if (y->type != YT_SCALAR || yt_is_null(y))
        return yt_fail(&c->y, HS_ERR_SCHEMA, y, kp,
                       "must be a number (optionally with a unit, e.g. 80 mm)");
    if (hs_parse_quantity(y->text, out, unit, sizeof unit) != 0)
        return yt_fail(&c->y, HS_ERR_SCHEMA, y, kp,
                       "'%s' is not a finite number with an optional known unit (e.g. 80 mm)",
                       y->text);
    if (!hs_param_unit_fits(p, unit))
        return yt_fail(&c->y, HS_ERR_SCHEMA, y, kp, "'%s' has unit %s, but parameter %s is in %s",
                       y->text, unit, p->name, p->unit[0] ? p->unit : "no unit (dimensionless)");
    return HS_OK;
}

static int get_param_num(sctx *c, const yt_node *m, const char *path, const char *key,
                         const hs_param *p, double *out)
{
    char kp[160];
    const yt_node *v = yt_map_get(m, key);
    if (!v) return yt_missing(&c->y, m, path, key);
    return param_num(c, v, yt_join(kp, sizeof kp, path, key), p, out);
}

/* An enumeration value: one of the names, or its integer. */
static int enum_value(sctx *c, const yt_node *y, const char *kp, const hs_param *p, double *out)
{
    char list[400], unit[32];
    double v;
    int k;
    if (y->type == YT_SCALAR) {
        for (k = 0; k < p->n_enum; ++k)
            if (!strcmp(y->text, p->enum_names[k])) {
                *out = (double)k;
                return HS_OK;
            }
        if (hs_param_enum_by_index(p) && hs_parse_quantity(y->text, &v, unit, sizeof unit) == 0 && !unit[0] &&
            v == floor(v) && v >= 0.0 && v < p->n_enum) {
            *out = v;
            return HS_OK;
        }
    }
    return yt_fail(&c->y, HS_ERR_VALUE, y, kp, "'%s' is not a value of %s (one of: %s)",
                   y->type == YT_SCALAR ? y->text : "?", p->name, yt_list(list, sizeof list, p->enum_names, p->n_enum));
}

/* A value of an integer-valued parameter (integrator.max_iter) must be an integer in its
 * range; other parameters take any value here. */
static int integer_ok(sctx *c, const yt_node *y, const char *kp, const hs_param *p, double v,
                      const char *what)
{
    if (!p->integer || (v == floor(v) && v >= p->lo && v <= p->hi)) return HS_OK;
    return yt_fail(&c->y, HS_ERR_VALUE, y, kp,
                   "%s takes integer values from %.17g to %.17g only: %.17g%s%s is not one",
                   p->name, p->lo, p->hi, v, what ? " " : "", what ? what : "");
}

int hs_sweep_value_node(const yt_ctx *y, const yt_node *v, const char *kp, const hs_param *p, double *out)
{
    sctx c;
    int rc;
    memset(&c, 0, sizeof c);
    c.y = *y;
    if (p->type == HS_PARAM_ENUM) return enum_value(&c, v, kp, p, out);
    if ((rc = param_num(&c, v, kp, p, out))) return rc;
    return integer_ok(&c, v, kp, p, *out, NULL);
}

static int alloc_values(sctx *c, hs_sweep_param *sp, int n)
{
    sp->values = (double *)calloc((size_t)n, sizeof *sp->values);
    if (!sp->values) return yt_fail(&c->y, HS_ERR_IO, NULL, "", "out of memory");
    sp->nvalues = n;
    return HS_OK;
}

/* The rule between two keys of the distribution's mapping m (path dp): lo < hi, their values
 * a and b; or, with lo NULL, b > 0. Else the error at hi. */
static int need_less(sctx *c, const yt_node *m, const char *dp, const char *lo, const char *hi, double a, double b)
{
    char kp[224];
    if (lo ? a < b : b > 0.0) return HS_OK;
    yt_join(kp, sizeof kp, dp, hi);
    if (!lo) return yt_fail(&c->y, HS_ERR_VALUE, yt_map_get(m, hi), kp, "%s must be > 0", hi);
    return yt_fail(&c->y, HS_ERR_VALUE, yt_map_get(m, hi), kp, "%s must be < %s (got %g >= %g)", lo, hi, a, b);
}

/* The distribution of one swept parameter: a mapping with exactly one of k_dists. */
static int parse_dist(sctx *c, const yt_node *key, const yt_node *v, const hs_param *p,
                      hs_sweep_param *sp)
{
    static const char *const kn[] = {"mean", "sd", NULL};
    static const char *const kl[] = {"median", "sigma_log", NULL};
    static const char *const kt[] = {"mean", "sd", "low", "high", NULL};
    static const char *const ku[] = {"low", "high", NULL};
    static const char *const kr[] = {"from", "to", "n", NULL};
    char path[160], dp[192], kp[224];
    const yt_node *dk, *dv;
    int dist, rc, k, is_enum = p->type == HS_PARAM_ENUM;
    snprintf(path, sizeof path, "parameters.%s", key->text);
    if ((rc = yt_need(&c->y, v, YT_MAP, path)) || (rc = yt_check_keys(&c->y, v, path, k_dists)))
        return rc;
    if (v->n != 2)
        return yt_fail(&c->y, HS_ERR_SCHEMA, v->n ? v->kid[2] : v, path,
                       "give exactly one distribution (uniform, normal, truncated_normal, "
                       "lognormal, values or range), not %d",
                       v->n / 2);
    dk = v->kid[0];
    dv = v->kid[1];
    for (dist = 0; strcmp(k_dists[dist], dk->text) != 0; ++dist) {
    }
    yt_join(dp, sizeof dp, path, dk->text);
    if (is_enum && dist != 4) {
        char list[300];
        return yt_fail(&c->y, HS_ERR_SCHEMA, dk, dp, "%s is an enumeration: sweep it with values: [...] (of: %s)",
                       p->name, yt_list(list, sizeof list, p->enum_names, p->n_enum));
    }
    if (p->integer && !is_enum && dist != 4 && dist != 5)
        return yt_fail(&c->y, HS_ERR_SCHEMA, dk, dp,
                       "%s takes integer values only (%.17g to %.17g): sweep it with values: "
                       "[...] or range: {from, to, n}, not %s (a continuous distribution draws "
                       "non-integers)",
                       p->name, p->lo, p->hi, dk->text);
    if ((c->sw->method == HS_SAMPLE_GRID || c->sw->method == HS_SAMPLE_COSIM_SEARCH) && dist != 4 && dist != 5)
        return yt_fail(&c->y, HS_ERR_SCHEMA, dk, dp,
                       "method %s takes value lists: values: [...] or range: {from, to, n}, "
                       "not %s",
                       k_methods[c->sw->method], dk->text);
    if (yt_is_null(dv)) return yt_missing(&c->y, v, path, dk->text);
    switch (dist) {
    case 0: /* uniform: [low, high] or {low, high} */
        sp->dist = HS_DIST_UNIFORM;
        if (dv->type == YT_SEQ) {
            if (dv->n != 2)
                return yt_fail(&c->y, HS_ERR_SCHEMA, dv, dp, "must be a list [low, high]");
            snprintf(kp, sizeof kp, "%s[0]", dp);
            if ((rc = param_num(c, dv->kid[0], kp, p, &sp->a))) return rc;
            snprintf(kp, sizeof kp, "%s[1]", dp);
            if ((rc = param_num(c, dv->kid[1], kp, p, &sp->b))) return rc;
            if (!(sp->a < sp->b))
                return yt_fail(&c->y, HS_ERR_VALUE, dv->kid[1], kp,
                               "low must be < high (got %g >= %g)", sp->a, sp->b);
            return HS_OK;
        }
        if (dv->type != YT_MAP)
            return yt_fail(&c->y, HS_ERR_SCHEMA, dv, dp,
                           "must be a list [low, high] or a mapping {low, high}");
        if ((rc = yt_check_keys(&c->y, dv, dp, ku)) ||
            (rc = get_param_num(c, dv, dp, "low", p, &sp->a)) ||
            (rc = get_param_num(c, dv, dp, "high", p, &sp->b)))
            return rc;
        return need_less(c, dv, dp, "low", "high", sp->a, sp->b);
    case 1: /* normal: {mean, sd} */
        sp->dist = HS_DIST_NORMAL;
        if ((rc = yt_need(&c->y, dv, YT_MAP, dp)) || (rc = yt_check_keys(&c->y, dv, dp, kn)) ||
            (rc = get_param_num(c, dv, dp, "mean", p, &sp->a)) ||
            (rc = get_param_num(c, dv, dp, "sd", p, &sp->b)))
            return rc;
        return need_less(c, dv, dp, NULL, "sd", 0.0, sp->b);
    case 2: /* truncated_normal: {mean, sd, low, high} */
        sp->dist = HS_DIST_TRUNCNORMAL;
        if ((rc = yt_need(&c->y, dv, YT_MAP, dp)) || (rc = yt_check_keys(&c->y, dv, dp, kt)) ||
            (rc = get_param_num(c, dv, dp, "mean", p, &sp->a)) ||
            (rc = get_param_num(c, dv, dp, "sd", p, &sp->b)) ||
            (rc = get_param_num(c, dv, dp, "low", p, &sp->c)) ||
            (rc = get_param_num(c, dv, dp, "high", p, &sp->d)) ||
            (rc = need_less(c, dv, dp, NULL, "sd", 0.0, sp->b)))
            return rc;
        return need_less(c, dv, dp, "low", "high", sp->c, sp->d);
    case 3: /* lognormal: {median, sigma_log} */
        sp->dist = HS_DIST_LOGNORMAL;
        if ((rc = yt_need(&c->y, dv, YT_MAP, dp)) || (rc = yt_check_keys(&c->y, dv, dp, kl)) ||
            (rc = get_param_num(c, dv, dp, "median", p, &sp->a)) ||
            (rc = yt_get_num(&c->y, dv, dp, "sigma_log", "", 1, 0.0, &sp->b)) ||
            (rc = need_less(c, dv, dp, NULL, "median", 0.0, sp->a)))
            return rc;
        return need_less(c, dv, dp, NULL, "sigma_log", 0.0, sp->b);
    case 4: /* values: [v0, v1, ...] */
        sp->dist = HS_DIST_VALUES;
        if ((rc = yt_need(&c->y, dv, YT_SEQ, dp))) return rc;
        if (dv->n == 0) return yt_fail(&c->y, HS_ERR_VALUE, dv, dp, "the value list is empty");
        if ((rc = alloc_values(c, sp, dv->n))) return rc;
        for (k = 0; k < dv->n; ++k) {
            snprintf(kp, sizeof kp, "%s[%d]", dp, k);
            rc = is_enum ? enum_value(c, dv->kid[k], kp, p, &sp->values[k])
                         : param_num(c, dv->kid[k], kp, p, &sp->values[k]);
            if (rc) return rc;
            if (!is_enum && (rc = integer_ok(c, dv->kid[k], kp, p, sp->values[k], NULL)))
                return rc;
        }
        return HS_OK;
    default: { /* range: {from, to, n}: n equally spaced values, both ends included */
        double from, to;
        long n;
        sp->dist = HS_DIST_VALUES;
        if ((rc = yt_need(&c->y, dv, YT_MAP, dp)) || (rc = yt_check_keys(&c->y, dv, dp, kr)) ||
            (rc = get_param_num(c, dv, dp, "from", p, &from)) ||
            (rc = get_param_num(c, dv, dp, "to", p, &to)))
            return rc;
        if (!yt_map_get(dv, "n")) return yt_missing(&c->y, dv, dp, "n");
        if ((rc = get_int(c, dv, dp, "n", 2, 1e7, 2, &n)) || (rc = need_less(c, dv, dp, "from", "to", from, to)))
            return rc;
        if ((rc = alloc_values(c, sp, (int)n))) return rc;
        for (k = 0; k < n; ++k) sp->values[k] = from + (to - from) * (double)k / (double)(n - 1);
        sp->values[n - 1] = to;
        for (k = 0; k < n; ++k)
            if ((rc = integer_ok(c, dv, dp, p, sp->values[k], "of the range"))) return rc;
        return HS_OK;
    }
    }
}

static int parse_parameters(sctx *c)
{
    const yt_node *m = yt_map_get(c->root, "parameters");
    hs_sweep *sw = c->sw;
    char kp[160], near[400];
    int rc, i, k, n;
    if (!m) return HS_OK; /* no parameters: n identical instances (e.g. a benchmark) */
    if ((rc = yt_need(&c->y, m, YT_MAP, "parameters"))) return rc;
    n = m->n / 2;
    for (i = 0; i < m->n; i += 2) {
        const yt_node *key = m->kid[i];
        if (key->type != YT_SCALAR)
            return yt_fail(&c->y, HS_ERR_SCHEMA, key, "parameters",
                           "mapping keys must be plain strings (parameter names)");
        for (k = 0; k < i; k += 2)
            if (!strcmp(m->kid[k]->text, key->text))
                return yt_fail(&c->y, HS_ERR_SCHEMA, key,
                               yt_join(kp, sizeof kp, "parameters", key->text),
                               "parameter swept twice (first at line %d)", m->kid[k]->line);
    }
    if (n > HS_MAX_SWEEP)
        return yt_fail(&c->y, HS_ERR_LIMIT, m->kid[2 * HS_MAX_SWEEP],
                       yt_join(kp, sizeof kp, "parameters", m->kid[2 * HS_MAX_SWEEP]->text),
                       "too many swept parameters: %d (HS_MAX_SWEEP is %d)", n, HS_MAX_SWEEP);
    if (n == 0) return HS_OK;
    sw->param = (hs_sweep_param *)calloc((size_t)n, sizeof *sw->param);
    if (!sw->param) return yt_fail(&c->y, HS_ERR_IO, NULL, "", "out of memory");
    for (i = 0; i < n; ++i) {
        const yt_node *key = m->kid[2 * i], *v = m->kid[2 * i + 1];
        hs_sweep_param *sp = &sw->param[i];
        int pi = hs_param_find(c->md, key->text);
        yt_join(kp, sizeof kp, "parameters", key->text);
        if (pi < 0) {
            hs_param_suggest(c->md, key->text, near, sizeof near);
            return yt_fail(&c->y, HS_ERR_VALUE, key, kp,
                           "'%s' is not a parameter of model %s%s ('hydrosweep info %s' lists "
                           "them)%s",
                           key->text, c->md->name, near, c->md->path,
                           c->md->tree ? "; the bodies and joints of a chain are swept together, by the chain's "
                                         "name (chain.<name>.mass, .length, .com.x, .z0, .zdot0, .w0.x)"
                                       : "");
        }
        snprintf(sp->name, sizeof sp->name, "%s", key->text);
        sp->index = pi;
        sp->line = key->line;
        sp->dim = i; /* a grid's own dimension (cosim_search lays them out again) */
        sp->a = sp->b = sp->c = sp->d = NAN;
        sw->nparam = i + 1; /* owned from here on (hs_sweep_free) */
        if ((rc = parse_dist(c, key, v, &c->md->param[pi], sp))) return rc;
    }
    return HS_OK;
}

/* One signal name of a list in outputs. */
static int signal_node(sctx *c, const yt_node *y, const char *kp, hs_signal_ref *ref)
{
    char near[400], buf[HS_NAME_LEN + 16];
    hs_near L;
    int k, n;
    if (y->type != YT_SCALAR || yt_is_null(y))
        return yt_fail(&c->y, HS_ERR_SCHEMA, y, kp, "must be a signal name");
    if (hs_output_find(c->md, y->text, ref) == 0) return HS_OK;
    if (c->md->tree) /* a tree of any size: no list of every name */
        return yt_fail(&c->y, HS_ERR_VALUE, y, kp,
                       "'%s' is not a signal of model %s (an open tree's: <joint>, <joint>_dot, <body>.x, "
                       "<body>.y, <body>.z, F_<joint>, M_<joint>, E_kin, E_pot, E_balance; 'hydrosweep info %s' "
                       "lists the names)",
                       y->text, c->md->name, c->md->path);
    memset(&L, 0, sizeof L);
    n = hs_output_count(c->md);
    for (k = 0; k < n; ++k) {
        hs_output_name(c->md, hs_output_at(c->md, k), buf, sizeof buf);
        hs_near_add(&L, y->text, buf);
    }
    return yt_fail(&c->y, HS_ERR_VALUE, y, kp,
                   "'%s' is not a signal of model %s%s (the column names of `hydrosweep "
                   "simulate`: joints, <joint>_dot, p_<volume>, U_<valve>, s_/sdot_/F_/Ffric_/"
                   "W_<cylinder>, E_kin, E_pot, W_ext, E_balance, with a circuit W_in, W_loss, E_fluid; "
                   "phi_norm, newton_iters)",
                   y->text, c->md->name, hs_near_text(&L, near, sizeof near));
}

/* A non-empty list of distinct signal names, at most max. */
static int signal_list(sctx *c, const yt_node *l, const char *kp, int max, const char *maxname,
                       hs_signal_ref *refs, int *n)
{
    char ip[192];
    int rc, k, q;
    if ((rc = yt_need(&c->y, l, YT_SEQ, kp))) return rc;
    if (l->n == 0)
        return yt_fail(&c->y, HS_ERR_VALUE, l, kp,
                       "the list is empty (leave the key out for the default)");
    if (l->n > max) {
        snprintf(ip, sizeof ip, "%s[%d]", kp, max);
        return yt_fail(&c->y, HS_ERR_LIMIT, l->kid[max], ip, "too many signals: %d (%s is %d)",
                       l->n, maxname, max);
    }
    for (k = 0; k < l->n; ++k) {
        snprintf(ip, sizeof ip, "%s[%d]", kp, k);
        if ((rc = signal_node(c, l->kid[k], ip, &refs[k]))) return rc;
        for (q = 0; q < k; ++q)
            if (refs[q].kind == refs[k].kind && refs[q].index == refs[k].index)
                return yt_fail(&c->y, HS_ERR_VALUE, l->kid[k], ip, "'%s' is listed twice",
                               l->kid[k]->text);
    }
    *n = l->n;
    return HS_OK;
}

/* Default signals: every joint coordinate, every pressure, every cylinder's F and W, and
 * E_balance. */
static int default_signals(sctx *c, const yt_node *at)
{
    const hs_model *m = &c->md->model;
    hs_output_spec *o = &c->sw->out;
    int need = m->nz + m->nvol + 2 * m->ncyl + 1, k;
    o->nsig = 0;
    if (c->md->tree) { /* a tree of any size: its energies (E_balance checks the integration) */
        o->sig[o->nsig++] = (hs_signal_ref){HS_SIG_EKIN, 0};
        o->sig[o->nsig++] = (hs_signal_ref){HS_SIG_EPOT, 0};
        o->sig[o->nsig++] = (hs_signal_ref){HS_SIG_EBAL, 0};
        return HS_OK;
    }
    if (need > HS_MAX_OUT)
        return yt_fail(&c->y, HS_ERR_LIMIT, at, "outputs.signals",
                       "the default signal set of model %s has %d signals (HS_MAX_OUT is %d): "
                       "list the signals to record in outputs.signals",
                       c->md->name, need, HS_MAX_OUT);
    for (k = 0; k < m->nz; ++k) o->sig[o->nsig++] = (hs_signal_ref){HS_SIG_Z, k};
    for (k = 0; k < m->nvol; ++k) o->sig[o->nsig++] = (hs_signal_ref){HS_SIG_P, k};
    for (k = 0; k < m->ncyl; ++k) {
        o->sig[o->nsig++] = (hs_signal_ref){HS_SIG_F, k};
        o->sig[o->nsig++] = (hs_signal_ref){HS_SIG_W, k};
    }
    o->sig[o->nsig++] = (hs_signal_ref){HS_SIG_EBAL, 0};
    return HS_OK;
}

static int parse_outputs(sctx *c)
{
    static const char *const keys[] = {"signals", "statistics", "trajectories", "eigenvalues", NULL};
    static const char *const tkeys[] = {"every", "signals", NULL};
    hs_output_spec *o = &c->sw->out;
    const yt_node *m = yt_map_get(c->root, "outputs"), *v;
    char ip[96];
    long every;
    int rc, k, q;
    memset(o, 0, sizeof *o);
    o->stats = (1u << HS_NSTAT) - 1u;
    if (m && ((rc = yt_need(&c->y, m, YT_MAP, "outputs")) ||
              (rc = yt_check_keys(&c->y, m, "outputs", keys))))
        return rc;
    v = m ? yt_map_get(m, "signals") : NULL;
    if (v) {
        if ((rc = signal_list(c, v, "outputs.signals", HS_MAX_OUT, "HS_MAX_OUT", o->sig, &o->nsig)))
            return rc;
    } else if ((rc = default_signals(c, m ? m : c->root))) {
        return rc;
    }
    v = m ? yt_map_get(m, "statistics") : NULL;
    if (v) {
        if ((rc = yt_need(&c->y, v, YT_SEQ, "outputs.statistics"))) return rc;
        if (v->n == 0)
            return yt_fail(&c->y, HS_ERR_VALUE, v, "outputs.statistics",
                           "the list is empty (leave the key out for all statistics)");
        o->stats = 0;
        for (k = 0; k < v->n; ++k) {
            const yt_node *s = v->kid[k];
            snprintf(ip, sizeof ip, "outputs.statistics[%d]", k);
            for (q = 0; k_stats[q] && !(s->type == YT_SCALAR && !strcmp(s->text, k_stats[q]));
                 ++q) {
            }
            if (!k_stats[q])
                return yt_fail(&c->y, HS_ERR_SCHEMA, s, ip,
                               "must be one of: min, max, final, mean, rms, t_max");
            if (o->stats & (1u << q))
                return yt_fail(&c->y, HS_ERR_VALUE, s, ip, "'%s' is listed twice", s->text);
            o->stats |= 1u << q;
        }
    }
    c->sw->eig = c->sw->eig_line = c->sw->eig_col = 0;
    if (m && (rc = yt_get_bool(&c->y, m, "outputs", "eigenvalues", &c->sw->eig))) return rc;
    if (m && (v = yt_map_get(m, "eigenvalues"))) {
        c->sw->eig_line = v->line;
        c->sw->eig_col = v->col;
        if (c->sw->eig && c->md->tree)
            return yt_fail(&c->y, HS_ERR_VALUE, v, "outputs.eigenvalues",
                           "model %s uses integrator.formulation: riccati, which has no linearization: "
                           "eigenvalues come from the penalty and double_step formulations",
                           c->md->name);
    }
    v = m ? yt_map_get(m, "trajectories") : NULL;
    if (v) {
        const yt_node *l;
        if ((rc = yt_need(&c->y, v, YT_MAP, "outputs.trajectories")) ||
            (rc = yt_check_keys(&c->y, v, "outputs.trajectories", tkeys)) ||
            (rc = get_int(c, v, "outputs.trajectories", "every", 1, 2147483647.0, 1, &every)))
            return rc;
        l = yt_map_get(v, "signals");
        if (!l) return yt_missing(&c->y, v, "outputs.trajectories", "signals");
        if ((rc = signal_list(c, l, "outputs.trajectories.signals", HS_MAX_TRAJ, "HS_MAX_TRAJ",
                              o->traj, &o->ntraj)))
            return rc;
        o->traj_every = (int)every;
    }
    return HS_OK;
}

/* The enumerations of simulation: (newton, formulation, step, method, with rtol) against the model's
 * rules, set on the model and put back: a choice the model cannot take (formulation
 * double_step with a nonholonomic cut) is this file's error, at the key's line, as t_end and
 * dt are, not the model file's at run time. */
static int check_simulation_modes(sctx *c, const yt_node *m)
{
    static const char *const keys[] = {"newton", "formulation", "step", "method", "rtol", "coupling"};
    enum { nkey = sizeof keys / sizeof keys[0] };
    hs_sweep *sw = c->sw;
    hs_model *mo = &c->md->model;
    int n0 = mo->newton, f0 = mo->formulation, s0 = mo->step, m0 = mo->method, c0 = mo->coupling, rc, k, at = -1;
    double r0 = mo->rtol;
    hs_error e;
    if (sw->newton < 0 && sw->formulation < 0 && sw->step < 0 && sw->integ_method < 0 &&
        sw->coupling < 0 && isnan(sw->rtol))
        return HS_OK;
    if (sw->newton >= 0) mo->newton = sw->newton;
    if (sw->formulation >= 0) mo->formulation = sw->formulation;
    if (sw->step >= 0) mo->step = sw->step;
    if (sw->integ_method >= 0) mo->method = sw->integ_method;
    if (!isnan(sw->rtol)) mo->rtol = sw->rtol;
    if (sw->coupling >= 0) mo->coupling = sw->coupling;
    rc = hs_model_validate(c->md, &e);
    mo->coupling = c0;
    mo->newton = n0;
    mo->formulation = f0;
    mo->step = s0;
    mo->method = m0;
    mo->rtol = r0;
    if (rc == HS_OK) return HS_OK;
    if (!strcmp(e.key, "cosim.h_hyd")) {
        /* simulation's dt against the model's cosim.h_hyd: a sweep that gives cosim.h_hyd
         * values of its own may keep it (check_hhyd, after the parameters) */
        snprintf(c->hhyd_msg, sizeof c->hhyd_msg, "%s", e.msg);
        return HS_OK;
    }
    /* the key the rule names (integrator.<key>), else the first one given */
    for (k = 0; k < nkey; ++k)
        if (yt_map_get(m, keys[k]) && !strncmp(e.key, "integrator.", 11) && !strcmp(e.key + 11, keys[k])) at = k;
    for (k = 0; k < nkey && at < 0; ++k)
        if (yt_map_get(m, keys[k])) at = k;
    if (at < 0) /* none given: the coupling of method cosim_search */
        return yt_fail(&c->y, rc, yt_map_get(c->root, "method"), "method", "%s (model %s)", e.msg, c->md->path);
    {
        char key[64];
        snprintf(key, sizeof key, "simulation.%s", keys[at]);
        return yt_fail(&c->y, rc, yt_map_get(m, keys[at]), key, "%s (model %s)", e.msg, c->md->path);
    }
}

/* The co-simulation's hydraulic step against the communication step of the run (simulation's
 * dt or the model's): every listed value of a swept cosim.h_hyd must divide it (a value that
 * does not is this file's error at the parameter, not an invalid instance at run time); a
 * drawn one cannot be checked, so h_hyd is swept by values only; without a swept h_hyd the
 * model's must divide it (the rule simulation: broke, c->hhyd_msg, reported at its dt). */
static void dist_range(const hs_sweep_param *sp, double *lo, double *hi);

static int check_hhyd(sctx *c)
{
    hs_model *mo = &c->md->model;
    const yt_node *sim = yt_map_get(c->root, "simulation"), *pm = yt_map_get(c->root, "parameters");
    const yt_node *ts = sim ? yt_map_get(sim, "t_end") : NULL, *tp = pm ? yt_map_get(pm, "integrator.t_end") : NULL;
    double dt = isnan(c->sw->dt) ? mo->dt : c->sw->dt, te = isnan(c->sw->t_end) ? mo->t_end : c->sw->t_end, lo;
    int j, k, cosim = mo->coupling == HS_COUPLE_COSIM || c->sw->coupling == HS_COUPLE_COSIM;
    if (!cosim) return HS_OK;
    for (j = 0; j < c->sw->nparam; ++j) /* the longest run a swept t_end can draw */
        if (!strcmp(c->sw->param[j].name, "integrator.t_end")) dist_range(&c->sw->param[j], &lo, &te);
    for (j = 0; j < c->sw->nparam; ++j) {
        const hs_sweep_param *sp = &c->sw->param[j];
        const yt_node *at = pm ? yt_map_get(pm, sp->name) : NULL;
        char key[160];
        if (strcmp(sp->name, "cosim.h_hyd")) continue;
        snprintf(key, sizeof key, "parameters.%s", sp->name);
        if (sp->dist != HS_DIST_VALUES)
            return yt_fail(&c->y, HS_ERR_VALUE, at ? at : pm, key,
                           "cosim.h_hyd must divide the communication step dt a whole number of times: "
                           "sweep it with values (a drawn value would not)");
        for (k = 0; k < sp->nvalues; ++k) {
            double h = sp->values[k];
            if (!hs_cosim_steps_ok(te, h))
                return yt_fail(&c->y, HS_ERR_LIMIT, at ? at : pm, key,
                               "value %g s gives t_end / h_hyd = %.3g hydraulic steps (t_end = %g s), more than "
                               "HS_MAX_STEPS = %.0e",
                               h, te / h, te, HS_MAX_STEPS);
            if (!hs_cosim_h_hyd_ok(dt, h))
                return yt_fail(&c->y, HS_ERR_VALUE, at ? at : pm, key,
                               "value %g s does not divide the communication step dt = %g s a whole number "
                               "of times (to 1e-9 relative)",
                               h, dt);
        }
        return HS_OK;
    }
    {
        double h = mo->cosim_h_hyd;
        if (!hs_cosim_steps_ok(te, h)) {
            const yt_node *at = ts ? ts : tp ? tp : sim ? yt_map_get(sim, "coupling") : NULL;
            return yt_fail(&c->y, HS_ERR_LIMIT, at ? at : c->root,
                           ts ? "simulation.t_end" : tp ? "parameters.integrator.t_end" : "simulation.coupling",
                           "the model's cosim.h_hyd (%g s) gives t_end / h_hyd = %.3g hydraulic steps (t_end = %g s), "
                           "more than HS_MAX_STEPS = %.0e: set a larger one in the model, or sweep cosim.h_hyd",
                           h, te / h, te, HS_MAX_STEPS);
        }
        if (c->hhyd_msg[0] || !hs_cosim_h_hyd_ok(dt, h)) {
            const yt_node *at = sim ? yt_map_get(sim, "dt") : NULL;
            if (!at && sim) at = yt_map_get(sim, "coupling");
            return yt_fail(&c->y, HS_ERR_VALUE, at ? at : sim ? sim : c->root,
                           at && at == yt_map_get(sim, "dt") ? "simulation.dt" : "simulation.coupling",
                           "the model's cosim.h_hyd (%g s) does not divide the communication step dt = %g s a "
                           "whole number of times: set one that does in the model, or sweep cosim.h_hyd with "
                           "values that do",
                           h, dt);
        }
    }
    return HS_OK;
}

/* simulation: {t_end, dt, newton, formulation, step, method, rtol, coupling}: checked against the model's rules on a scratch copy
 * (hs_sweep_apply_simulation applies them for hs_run and `validate`); the loaded model itself
 * stays as its file says. */
static int parse_simulation(sctx *c)
{
    static const char *const keys[] = {"t_end", "dt", "newton", "formulation", "step", "method", "rtol",
                                       "coupling", NULL};
    const yt_node *m = yt_map_get(c->root, "simulation");
    hs_sweep *sw = c->sw;
    hs_error e;
    double t0, d0;
    int rc;
    sw->t_end = sw->dt = sw->rtol = NAN;
    sw->newton = sw->step = sw->formulation = sw->integ_method = sw->coupling = -1;
    if (!m) {
        if (sw->method == HS_SAMPLE_COSIM_SEARCH) c->md->model.coupling = sw->coupling = HS_COUPLE_COSIM;
        return HS_OK;
    }
    if ((rc = yt_need(&c->y, m, YT_MAP, "simulation")) ||
        (rc = yt_check_keys(&c->y, m, "simulation", keys)) ||
        (rc = yt_get_num(&c->y, m, "simulation", "t_end", "s", 0, NAN, &sw->t_end)) ||
        (rc = yt_get_num(&c->y, m, "simulation", "dt", "s", 0, NAN, &sw->dt)) ||
        (rc = yt_get_enum(&c->y, m, "simulation", "newton", 0, hs_newton_names, -1, &sw->newton)) ||
        (rc = yt_get_enum(&c->y, m, "simulation", "formulation", 0, hs_formulation_names, -1,
                          &sw->formulation)) ||
        (rc = yt_get_enum(&c->y, m, "simulation", "step", 0, hs_step_names, -1, &sw->step)) ||
        (rc = yt_get_enum(&c->y, m, "simulation", "method", 0, hs_method_names, -1, &sw->integ_method)) ||
        (rc = yt_get_num(&c->y, m, "simulation", "rtol", "", 0, NAN, &sw->rtol)) ||
        (rc = yt_get_enum(&c->y, m, "simulation", "coupling", 0, hs_coupling_names, -1, &sw->coupling)))
        return rc;
    if (c->md->tree) { /* RK4 at fixed steps: only the times may change */
        static const char *const step_keys[] = {"newton", "formulation", "step", "method", "rtol", "coupling"};
        char kp[48];
        int k;
        for (k = 0; k < 6; ++k)
            if (yt_map_get(m, step_keys[k]))
                return yt_fail(&c->y, HS_ERR_VALUE, yt_map_key(m, step_keys[k]),
                               yt_join(kp, sizeof kp, "simulation", step_keys[k]),
                               "simulation.%s: model %s uses integrator.formulation: riccati, which integrates by "
                               "RK4 at fixed steps of dt (only t_end and dt may be set here)",
                               step_keys[k], c->md->name);
    }
    if (sw->method == HS_SAMPLE_COSIM_SEARCH) { /* the search co-simulates, each H an instance's dt */
        if (!isnan(sw->dt))
            return yt_fail(&c->y, HS_ERR_VALUE, yt_map_get(m, "dt"), "simulation.dt",
                           "a cosim_search takes its communication steps H (each instance's dt) from "
                           "search: H_ini, H_inc, H_max; leave simulation.dt out");
        if (sw->coupling == HS_COUPLE_MONOLITHIC)
            return yt_fail(&c->y, HS_ERR_VALUE, yt_map_get(m, "coupling"), "simulation.coupling",
                           "a cosim_search co-simulates: coupling must be cosim (or left out)");
        sw->coupling = HS_COUPLE_COSIM;
    }
    if (!isnan(sw->rtol) && !(sw->rtol >= 1e-14 && sw->rtol <= 1.0))
        return yt_fail(&c->y, HS_ERR_VALUE, yt_map_get(m, "rtol"), "simulation.rtol",
                       "rtol must be in [1e-14, 1] (is %g)", sw->rtol);
    if (!isnan(sw->t_end) && !(sw->t_end > 0.0))
        return yt_fail(&c->y, HS_ERR_VALUE, yt_map_get(m, "t_end"), "simulation.t_end",
                       "t_end must be > 0");
    if (!isnan(sw->dt) && !(sw->dt > 0.0))
        return yt_fail(&c->y, HS_ERR_VALUE, yt_map_get(m, "dt"), "simulation.dt", "dt must be > 0");
    /* both at once: neither order may matter (hs_model_set_time); the model stays as is */
    t0 = c->md->model.t_end;
    d0 = c->md->model.dt;
    rc = hs_model_set_time(c->md, sw->t_end, sw->dt, &e);
    c->md->model.t_end = t0;
    c->md->model.dt = d0;
    if (rc != HS_OK && !strcmp(e.key, "cosim.h_hyd")) { /* the model co-simulates: check_hhyd */
        snprintf(c->hhyd_msg, sizeof c->hhyd_msg, "%s", e.msg);
        rc = HS_OK;
    }
    if (rc != HS_OK) {
        int on_t = isnan(sw->dt) || (!strcmp(e.key, "integrator.t_end") && !isnan(sw->t_end));
        return yt_fail(&c->y, rc, yt_map_get(m, on_t ? "t_end" : "dt"),
                       on_t ? "simulation.t_end" : "simulation.dt", "%s", e.msg);
    }
    if ((rc = check_simulation_modes(c, m))) return rc;
    /* the coupling decides which signals there are (a co-simulation's residuals: hs_output_at),
     * so the outputs below are read against it: set on the loaded model now */
    if (sw->coupling >= 0) c->md->model.coupling = sw->coupling;
    return HS_OK;
}

/* The smallest and largest value sweep parameter sp can take: the listed values, the bounds
 * of a bounded distribution, or the quantiles at the extreme uniforms any method draws (all
 * are in [2^-91, 1 - 2^-53]: hs_sample.h; Latin hypercubes come nearest to 0). */
static void dist_range(const hs_sweep_param *sp, double *lo, double *hi)
{
    const double ulo = ldexp(1.0, -91), uhi = 1.0 - ldexp(1.0, -53);
    int k;
    switch (sp->dist) {
    case HS_DIST_UNIFORM:
        *lo = sp->a;
        *hi = sp->b;
        return;
    case HS_DIST_NORMAL:
        *lo = hs_q_normal(sp->a, sp->b, ulo);
        *hi = hs_q_normal(sp->a, sp->b, uhi);
        return;
    case HS_DIST_TRUNCNORMAL:
        *lo = sp->c;
        *hi = sp->d;
        return;
    case HS_DIST_LOGNORMAL:
        *lo = hs_q_lognormal(sp->a, sp->b, ulo);
        *hi = hs_q_lognormal(sp->a, sp->b, uhi);
        return;
    default:
        *lo = HUGE_VAL;
        *hi = -HUGE_VAL;
        for (k = 0; k < sp->nvalues; ++k) {
            if (sp->values[k] < *lo) *lo = sp->values[k];
            if (sp->values[k] > *hi) *hi = sp->values[k];
        }
    }
}

/* A swept integrator.dt or integrator.t_end must keep every instance within HS_MAX_STEPS
 * steps (an instance of more would run for days, or overflow its step count): checked on the
 * smallest dt and the largest t_end the sweep can draw. Values <= 0 are flagged as invalid
 * instances when run, but a continuous distribution reaching 0 also draws positive steps
 * arbitrarily close to it. */
static int check_swept_steps(sctx *c)
{
    const hs_sweep *sw = c->sw;
    const yt_node *pm = yt_map_get(c->root, "parameters");
    double te = isnan(sw->t_end) ? c->md->model.t_end : sw->t_end;
    double dt = isnan(sw->dt) ? c->md->model.dt : sw->dt, lo, hi;
    char kp[160];
    int jd = -1, jt = -1, j, k, blame;
    for (j = 0; j < sw->nparam; ++j) {
        if (!strcmp(sw->param[j].name, "integrator.dt")) jd = j;
        if (!strcmp(sw->param[j].name, "integrator.t_end")) jt = j;
    }
    if (jd < 0 && jt < 0) return HS_OK;
    if (jt >= 0) dist_range(&sw->param[jt], &lo, &te);
    if (jd >= 0) {
        const hs_sweep_param *sp = &sw->param[jd];
        if (sp->dist == HS_DIST_VALUES) {
            dt = HUGE_VAL;
            for (k = 0; k < sp->nvalues; ++k)
                if (sp->values[k] > 0.0 && sp->values[k] < dt) dt = sp->values[k];
            if (isinf(dt)) return HS_OK; /* every instance invalid (dt <= 0), none runs */
        } else {
            dist_range(sp, &dt, &hi);
            if (!(dt > 0.0))
                return yt_fail(&c->y, HS_ERR_VALUE, pm ? yt_map_key(pm, sp->name) : NULL,
                               yt_join(kp, sizeof kp, "parameters", sp->name),
                               "this distribution of integrator.dt reaches %g s: it draws steps "
                               "<= 0 and steps arbitrarily close to 0 (more than HS_MAX_STEPS = "
                               "%.0e steps to t_end); give dt a range that stays above 0 "
                               "(uniform, truncated_normal, values or range)",
                               dt, HS_MAX_STEPS);
        }
    }
    if (te / dt <= HS_MAX_STEPS) return HS_OK;
    /* blame the swept one (the one further from its usual size when both are swept) */
    blame = jd >= 0 && (jt < 0 || te * dt <= 1e-3) ? jd : jt;
    return yt_fail(&c->y, HS_ERR_LIMIT, pm ? yt_map_key(pm, sw->param[blame].name) : NULL,
                   yt_join(kp, sizeof kp, "parameters", sw->param[blame].name),
                   "instances may draw t_end = %g s with dt = %g s: t_end / dt = %.3g steps, "
                   "more than HS_MAX_STEPS = %.0e (t_end / dt must be at most that)",
                   te, dt, te / dt, HS_MAX_STEPS);
}

/* What a run of the sweep needs, per instance and in all. */
typedef struct size_need {
    long nsteps, ntime, rows; /* steps, trajectory samples, instances per chunk */
    int ncol;
    double chunk_mem; /* bytes of memory for one chunk of results */
    double end_mem;   /* bytes of memory for the ensemble statistics at the end */
    double file;      /* bytes of the results file */
} size_need;

static void size_of(const hs_sweep *sw, const hs_model_desc *md, long n, size_need *z)
{
    double t_end = isnan(sw->t_end) ? md->model.t_end : sw->t_end;
    double dt = isnan(sw->dt) ? md->model.dt : sw->dt, row_mem, row_file;
    long chunk = sw->chunk > 0 ? sw->chunk : 1024;
    hs_model *m = (hs_model *)malloc(sizeof *m);
    int q;
    memset(z, 0, sizeof *z);
    if (m) {
        memcpy(m, &md->model, sizeof *m);
        m->t_end = t_end;
        m->dt = dt;
        z->nsteps = hs_nsteps(m);
        free(m);
    } else {
        z->nsteps = (long)(t_end / dt <= HS_MAX_STEPS ? t_end / dt + 1.0 : HS_MAX_STEPS);
    }
    z->ntime = sw->out.ntraj > 0 ? hs_traj_count(z->nsteps, sw->out.traj_every) : 0;
    for (q = 0; q < HS_NSTAT; ++q) z->ncol += (sw->out.stats >> q) & 1u;
    z->rows = chunk < n ? chunk : n;
    /* a batch: sampled values, status/steps/iterations, every statistic, the trajectories */
    row_mem = 8.0 * sw->nparam + 24.0 + 8.0 * sw->out.nsig * HS_NSTAT +
              8.0 * sw->out.ntraj * (double)z->ntime;
    row_file = 8.0 + 8.0 * sw->nparam + 24.0 + 8.0 * sw->out.nsig * z->ncol +
               8.0 * sw->out.ntraj * (double)z->ntime;
    z->chunk_mem = (double)z->rows * row_mem;
    /* the statuses and one signal's statistics of every instance (hs_results_finish) */
    z->end_mem = (double)n * (4.0 + 8.0 * z->ncol);
    z->file = (double)n * row_file;
}

int hs_sweep_check_size(const hs_sweep *sw, const hs_model_desc *md, long n_total, long n_run,
                        hs_error *err)
{
    size_need z;
    const char *who;
    double mem = hs_mem_available(&who), nmax;
    char a[32], b[32];
    const char *nkey;
    int nl, nc;
    if (!sw || !md) return hs_error_set(err, HS_ERR_ARG, "", 0, 0, "", "no sweep or model");
    /* the instance count's place in the file: instances, or a grid's parameters */
    nkey = sw->n_key[0] ? sw->n_key : "instances";
    nl = sw->n_line;
    nc = sw->n_col;
    /* the method's own limit (the loader checks the file's instances; run -n comes here) */
    nmax = sw->method == HS_SAMPLE_SOBOL || sw->method == HS_SAMPLE_SALTELLI ? SOBOL_MAX_INSTANCES
           : sw->method == HS_SAMPLE_LHS ? LHS_MAX_INSTANCES
                                         : MAX_INSTANCES;
    if (n_total < 1 || (double)n_total > nmax)
        return hs_error_set(err, HS_ERR_LIMIT, sw->path, nl, nc, nkey,
                            "%ld instances: method %s takes 1 to %.0f", n_total,
                            k_methods[sw->method], nmax);
    if (sw->method == HS_SAMPLE_SALTELLI && n_total % (2L * sw->nparam + 2) != 0)
        return hs_error_set(err, HS_ERR_VALUE, sw->path, nl, nc, nkey,
                            "%ld instances: method saltelli needs a multiple of 2 D + 2 = %ld (D = %d parameters)",
                            n_total, 2L * sw->nparam + 2, sw->nparam);
    size_of(sw, md, n_run > 0 ? n_run : n_total, &z);
    if (mem <= 0.0) return HS_OK; /* unknown: nothing to compare with */
    if (z.chunk_mem > mem) {
        if (sw->out.ntraj > 0 && 8.0 * sw->out.ntraj * (double)z.ntime * (double)z.rows > mem / 2)
            return hs_error_set(err, HS_ERR_LIMIT, sw->path, 0, 0, "outputs.trajectories.every",
                                "trajectories of %ld samples x %d signals for a chunk of %ld "
                                "instances need %s of memory, more than %s (%s): "
                                "record every k-th step with a larger every, fewer signals, or "
                                "lower chunk",
                                z.ntime, sw->out.ntraj, z.rows,
                                hs_fmt_bytes(z.chunk_mem, a, sizeof a), who,
                                hs_fmt_bytes(mem, b, sizeof b));
        return hs_error_set(err, HS_ERR_LIMIT, sw->path, 0, 0, "chunk",
                            "a chunk of %ld instances needs %s of memory, more than %s (%s): lower chunk",
                            z.rows, hs_fmt_bytes(z.chunk_mem, a, sizeof a), who,
                            hs_fmt_bytes(mem, b, sizeof b));
    }
    /* a run's ensemble statistics: the instances of this run (a shard's, or all) */
    if (n_run > 0 && z.end_mem > mem)
        return hs_error_set(err, HS_ERR_LIMIT, sw->path, nl, nc, nkey,
                            "a run of %ld instances needs %s of memory for the ensemble "
                            "statistics of its results (%d bytes each), more than %s (%s): run fewer "
                            "instances, or split them with run --shard K/N",
                            n_run, hs_fmt_bytes(z.end_mem, a, sizeof a), 4 + 8 * z.ncol, who,
                            hs_fmt_bytes(mem, b, sizeof b));
    return HS_OK;
}

/* hs_sweep_check_size at load time (what every run of the sweep needs: a chunk; the memory
 * for all instances depends on the run, a shard needing less: hs_run checks it), the error
 * at the key's node. Records where the instance count comes from, for hs_run's errors. */
static int check_size(sctx *c, long n)
{
    hs_error e;
    const yt_node *at = c->root, *o, *t, *in = yt_map_get(c->root, "instances");
    int rc;
    if (!in) in = yt_map_key(c->root, "parameters"); /* a grid's product of the value counts */
    snprintf(c->sw->n_key, sizeof c->sw->n_key, "%s",
             yt_map_get(c->root, "instances") ? "instances" : "parameters");
    c->sw->n_line = in ? in->line : 0;
    c->sw->n_col = in ? in->col : 0;
    rc = hs_sweep_check_size(c->sw, c->md, n, 0, &e);
    if (rc == HS_OK) return HS_OK;
    if (!strcmp(e.key, c->sw->n_key)) {
        at = in;
    } else if (!strcmp(e.key, "chunk")) {
        at = yt_map_get(c->root, "chunk");
    } else {
        o = yt_map_get(c->root, "outputs");
        t = o ? yt_map_get(o, "trajectories") : NULL;
        at = t && yt_map_get(t, "every") ? yt_map_get(t, "every") : t;
    }
    return yt_fail(&c->y, rc, at ? at : c->root, e.key, "%s", e.msg);
}

/* The model path relative to the sweep file's directory (absolute paths as they are). */
static int resolve_model(sctx *c, const char *sweep_path, const yt_node *node, const char *rel)
{
    hs_sweep *sw = c->sw;
    const char *slash = sweep_path ? strrchr(sweep_path, '/') : NULL;
    int w;
    if (rel[0] == '/' || !slash)
        w = snprintf(sw->model_path, sizeof sw->model_path, "%s", rel);
    else
        w = snprintf(sw->model_path, sizeof sw->model_path, "%.*s/%s", (int)(slash - sweep_path),
                     sweep_path, rel);
    if (w < 0 || (size_t)w >= sizeof sw->model_path)
        return yt_fail(&c->y, HS_ERR_LIMIT, node, "model",
                       "the model path is too long (at most %d characters)",
                       (int)sizeof sw->model_path - 1);
    return HS_OK;
}

/* The model named by model: (resolved). A file that cannot be read (missing, a directory, a
 * FIFO, too large) is reported at the sweep's model: key, naming both files; an error inside
 * the model file names the model file, line and key. */
static int load_model(sctx *c, const yt_node *node, const char *rel)
{
    char *text = NULL;
    hs_error e;
    int rc = HS_OK;
    if (c->model_text) { /* given: a stored run's */
        size_t n = strlen(c->model_text) + 1;
        if (!(text = (char *)malloc(n))) return yt_fail(&c->y, HS_ERR_IO, node, "model", "out of memory");
        memcpy(text, c->model_text, n);
    } else {
        rc = yt_read_file(c->sw->model_path, "model file", &text, &e);
    }
    if (rc != HS_OK) {
        if (!strcmp(e.file, c->sw->model_path) && e.line == 0)
            return yt_fail(&c->y, rc, node, "model", "'%s'%s%s%s: %s", rel,
                           strcmp(rel, c->sw->model_path) ? " (resolved to " : "",
                           strcmp(rel, c->sw->model_path) ? c->sw->model_path : "",
                           strcmp(rel, c->sw->model_path) ? ")" : "", e.msg);
        if (c->y.err) *c->y.err = e;
        return rc;
    }
    /* a riccati model (an open tree of any size) runs through the tree backends */
    rc = hs_tree_text_is_riccati(text) ? hs_tree_desc_load_text(text, c->sw->model_path, c->md, c->y.err)
                                       : hs_model_load_text(text, c->sw->model_path, c->md, c->y.err);
    free(text);
    if (rc != HS_OK && c->y.err) { /* where the model came from, as a compiler names the line
                                      that included a header */
        hs_error *e = c->y.err;
        size_t k = strlen(e->msg);
        snprintf(e->msg + k, sizeof e->msg - k, " (in the model file named by %s:%d:%d, key 'model')",
                 c->y.file, node ? node->line : 0, node ? node->col : 0);
    }
    return rc;
}

static int load_root(sctx *c, const char *text, const char *path)
{
    static const char *const keys[] = {"model",      "instances",  "seed",    "method", "chunk",
                                       "simulation", "parameters", "outputs", "search", "inputs", NULL};
    hs_sweep *sw = c->sw;
    const yt_node *mn, *in;
    char rel[256];
    double nmax;
    long n = 0;
    int rc, j;
    size_t len;
    if (!c->root)
        return hs_error_set(c->y.err, HS_ERR_SCHEMA, c->y.file, 1, 1, "",
                            "the sweep file is empty");
    if ((rc = yt_need(&c->y, c->root, YT_MAP, "")) ||
        (rc = yt_check_keys(&c->y, c->root, "", keys)) ||
        (rc = yt_get_str(&c->y, c->root, "", "model", 1, 0, rel, sizeof rel, &mn)) ||
        (rc = yt_get_enum(&c->y, c->root, "", "method", 0, k_methods, HS_SAMPLE_MONTE_CARLO,
                          &sw->method)) ||
        (rc = get_seed(c, c->root)) ||
        (rc = get_int(c, c->root, "", "chunk", 1, 2147483647.0, 1024, &sw->chunk)))
        return rc;
    if (!rel[0]) return yt_missing(&c->y, c->root, "", "model");
    nmax = sw->method == HS_SAMPLE_SOBOL || sw->method == HS_SAMPLE_SALTELLI ? SOBOL_MAX_INSTANCES
           : sw->method == HS_SAMPLE_LHS ? LHS_MAX_INSTANCES
                                         : MAX_INSTANCES;
    in = yt_map_get(c->root, "instances");
    if (!in && sw->method != HS_SAMPLE_GRID && sw->method != HS_SAMPLE_COSIM_SEARCH)
        return yt_missing(&c->y, c->root, "", "instances");
    if (in && sw->method == HS_SAMPLE_COSIM_SEARCH)
        return yt_fail(&c->y, HS_ERR_VALUE, in, "instances",
                       "a cosim_search has one instance per configuration, test input and H: leave "
                       "instances out");
    for (j = 0; j < 2 && sw->method != HS_SAMPLE_COSIM_SEARCH; ++j) {
        static const char *const sk[2] = {"search", "inputs"};
        if (yt_map_get(c->root, sk[j]))
            return yt_fail(&c->y, HS_ERR_SCHEMA, yt_map_key(c->root, sk[j]), sk[j],
                           "%s: belongs to method cosim_search (this sweep's method is %s)", sk[j],
                           k_methods[sw->method]);
    }
    if (in && (rc = int_node(c, in, "instances", 1, nmax, &n))) return rc;
    if ((rc = resolve_model(c, path, mn, rel))) return rc;
    if ((rc = load_model(c, mn, rel)) != HS_OK) return rc;
    if (sw->method == HS_SAMPLE_COSIM_SEARCH && c->md->model.ncyl < 1)
        return yt_fail(&c->y, HS_ERR_VALUE, yt_map_get(c->root, "method"), "method",
                       "method cosim_search co-simulates the mechanism and its hydraulics, but model %s "
                       "has no hydraulic cylinder",
                       c->md->name);
    if ((rc = parse_simulation(c)) || (rc = parse_parameters(c))) return rc;
    if (sw->method == HS_SAMPLE_COSIM_SEARCH) {
        if ((rc = hs_search_load(&c->y, c->root, sw, c->md))) return rc;
        n = sw->n;
    } else if ((rc = check_hhyd(c))) {
        return rc;
    }
    if ((rc = parse_outputs(c))) return rc;
    /* trajectories share one time axis (/traj/time, from the model's dt and t_end): a swept
     * step or end time would give every instance its own */
    for (j = 0; sw->out.ntraj > 0 && j < sw->nparam; ++j)
        if (!strcmp(sw->param[j].name, "integrator.dt") || !strcmp(sw->param[j].name, "integrator.t_end")) {
            const yt_node *pm = yt_map_get(c->root, "parameters");
            char key[160];
            snprintf(key, sizeof key, "parameters.%s", sw->param[j].name);
            return yt_fail(&c->y, HS_ERR_VALUE, pm ? yt_map_key(pm, sw->param[j].name) : NULL,
                           key, "'%s' cannot be swept together with outputs.trajectories "
                           "(the trajectories share one time axis); record statistics only, or set "
                           "it in simulation:", sw->param[j].name);
        }
    if (sw->method == HS_SAMPLE_GRID) {
        double prod = 1.0;
        for (j = 0; j < sw->nparam; ++j) prod *= (double)sw->param[j].nvalues;
        if (prod > MAX_INSTANCES)
            return yt_fail(&c->y, HS_ERR_LIMIT, yt_map_key(c->root, "parameters"), "parameters",
                           "the grid has %.6g points (at most 2^53)", prod);
        if (in && (double)n != prod)
            return yt_fail(&c->y, HS_ERR_VALUE, in, "instances",
                           "a grid sweep has exactly the product of the value counts, %.0f "
                           "instances, not %ld (leave instances out)",
                           prod, n);
        n = (long)prod;
    }
    if (sw->method == HS_SAMPLE_SALTELLI) {
        long blk = 2L * sw->nparam + 2;
        if (sw->nparam < 1 || 2 * sw->nparam > HS_SOBOL_MAX_DIM)
            return yt_fail(&c->y, HS_ERR_VALUE, yt_map_key(c->root, "parameters"), "parameters",
                           "method saltelli takes 1 to %d parameters (its Sobol' points have 2 per "
                           "parameter, of %d dimensions), not %d",
                           HS_SOBOL_MAX_DIM / 2, HS_SOBOL_MAX_DIM, sw->nparam);
        if (n % blk != 0)
            return yt_fail(&c->y, HS_ERR_VALUE, in, "instances",
                           "method saltelli needs a multiple of 2 D + 2 = %ld instances (D = %d "
                           "parameters: N base points, each A, B and the %d cross rows each way), not %ld; "
                           "e.g. %ld for N = 64",
                           blk, sw->nparam, sw->nparam, n, 64 * blk);
    }
    sw->n = n;
    if ((rc = check_swept_steps(c)) || (rc = check_size(c, n))) return rc;
    len = strlen(text);
    sw->text = (char *)malloc(len + 1);
    if (!sw->text) return yt_fail(&c->y, HS_ERR_IO, NULL, "", "out of memory");
    memcpy(sw->text, text, len + 1);
    return HS_OK;
}

static int load_text(const char *text, const char *path, const char *model_text, hs_sweep *sw,
                     hs_model_desc *model, hs_error *err)
{
    sctx c;
    yt_node *root = NULL;
    int rc;
    if (!sw || !model)
        return hs_error_set(err, HS_ERR_ARG, path ? path : "", 0, 0, "",
                            "no sweep or model descriptor");
    memset(sw, 0, sizeof *sw);
    memset(model, 0, sizeof *model);
    sw->t_end = sw->dt = sw->rtol = NAN;
    sw->newton = sw->step = sw->formulation = sw->integ_method = sw->coupling = -1;
    if (!path) path = "<text>";
    if (strlen(path) >= sizeof sw->path)
        return hs_error_set(err, HS_ERR_LIMIT, "", 0, 0, "", "the sweep file's path has %lu characters, more than the %d a path may have: %.60s...",
                            (unsigned long)strlen(path), (int)sizeof sw->path - 1, path);
    snprintf(sw->path, sizeof sw->path, "%s", path);
    if (!text) return hs_error_set(err, HS_ERR_ARG, path, 0, 0, "", "no sweep text");
    if (err) memset(err, 0, sizeof *err);
    if ((rc = yt_parse(text, path, "sweep file", &root, err)) != HS_OK) return rc;
    memset(&c, 0, sizeof c);
    c.y.file = path;
    c.y.err = err;
    c.y.what = "sweep file";
    c.sw = sw;
    c.md = model;
    c.root = root;
    c.model_text = model_text;
    rc = load_root(&c, text, path);
    yt_free(root);
    if (rc != HS_OK) {
        hs_sweep_free(sw);
        hs_model_desc_free(model);
        memset(model, 0, sizeof *model);
        snprintf(sw->path, sizeof sw->path, "%s", path);
        sw->t_end = sw->dt = sw->rtol = NAN;
        sw->newton = sw->step = sw->formulation = sw->integ_method = sw->coupling = -1;
    }
    return rc;
}

int hs_sweep_load_text(const char *text, const char *path, hs_sweep *sw, hs_model_desc *model,
                       hs_error *err)
{
    return load_text(text, path, NULL, sw, model, err);
}

int hs_sweep_load_stored(const char *text, const char *path, const char *model_text, hs_sweep *sw,
                         hs_model_desc *model, hs_error *err)
{
    if (!model_text) return hs_error_set(err, HS_ERR_ARG, path ? path : "", 0, 0, "", "no model text");
    return load_text(text, path, model_text, sw, model, err);
}

int hs_sweep_load(const char *path, hs_sweep *sw, hs_model_desc *model, hs_error *err)
{
    char *buf = NULL;
    int rc;
    if (sw) memset(sw, 0, sizeof *sw);
    if (model) memset(model, 0, sizeof *model);
    if (!path) return hs_error_set(err, HS_ERR_ARG, "", 0, 0, "", "no sweep file given");
    if ((rc = yt_read_file(path, "sweep file", &buf, err)) != HS_OK) return rc;
    rc = hs_sweep_load_text(buf, path, sw, model, err);
    free(buf);
    return rc;
}

void hs_sweep_free(hs_sweep *sw)
{
    int j;
    if (!sw) return;
    for (j = 0; j < sw->nparam; ++j) free(sw->param[j].values);
    free(sw->param);
    free(sw->text);
    free(sw->search.input_name);
    memset(sw, 0, sizeof *sw);
}
