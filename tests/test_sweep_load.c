/* test_sweep_load.c -- host/sweep/sweep_load.c: sweep files of every method load with the right
 * values; every class of error names the right line, column and key; hs_sweep_sample is the
 * composition of the kernels/hs_sample.h functions, reproducible per (seed, i, j) and
 * different across seeds; signal names are the CSV columns of `simulate`. Run from the
 * source directory (ctest does): the sweeps name models by relative paths. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hs/sweep.h"
#include "hs_sample.h"
#include "engine/simulate.h"
#include "test_util.h"

static hs_sweep g_sw;
static hs_model_desc *g_md; /* tens of kB: on the heap */

#define PATH "sweeps/t.yaml" /* models are named relative to sweeps/ */
#define FRIC "model: ../models/fourbar_jaiswal2021_friction.yaml\n"
#define PUB1 "model: ../models/fourbar_rahikainen2018.yaml\n"

static int load(const char *text, hs_error *e)
{
    hs_sweep_free(&g_sw);
    hs_model_desc_free(g_md);
    return hs_sweep_load_text(text, PATH, &g_sw, g_md, e);
}

/* Loading must fail with this code at line:col and key, the message containing msg. */
static void expect_error(const char *what, const char *text, int code, int line, int col,
                         const char *key, const char *msg)
{
    hs_error e;
    tu_check_error(what, load(text, &e), &e, code, PATH, line, col, key, msg);
    CHECK(g_sw.param == NULL && g_sw.text == NULL && g_sw.nparam == 0 && g_md->param == NULL,
          "%s: a failed load holds no memory", what);
}

/* The error cases of one topic, a table. */
static void expect_errors(const tu_err_case *c, size_t n)
{
    for (; n--; ++c) expect_error(c->what, c->text, c->code, c->line, c->col, c->key, c->msg);
}

/* head, then limit + 1 items (item: one line, %d its number): refused with HS_ERR_LIMIT at
 * the last item's line (line0 + limit) and column, key and msg formatted with the limit. */
static void over_limit(const char *what, const char *head, const char *item, int limit, int line0, int col,
                       const char *key_fmt, const char *msg_fmt)
{
    char big[4096], key[48], msg[80];
    size_t used = (size_t)snprintf(big, sizeof big, "%s", head);
    int k;
    for (k = 0; k <= limit; ++k) used += (size_t)snprintf(big + used, sizeof big - used, item, k);
    snprintf(key, sizeof key, key_fmt, limit);
    snprintf(msg, sizeof msg, msg_fmt, limit + 1, limit);
    expect_error(what, big, HS_ERR_LIMIT, line0 + limit, col, key, msg);
}

static int sig_is(hs_signal_ref r, int kind, int index)
{
    return r.kind == kind && r.index == index;
}

/* ---- the shipped sweep files ---- */

static void test_file_friction_mc(void)
{
    hs_error e;
    int rc, j;
    long i;
    hs_sweep_free(&g_sw);
    hs_model_desc_free(g_md);
    rc = hs_sweep_load("sweeps/friction_bulk_mc.yaml", &g_sw, g_md, &e);
    CHECK(rc == HS_OK, "friction_bulk_mc loads (%s)", e.msg);
    if (rc) return;
    CHECK(!strcmp(g_sw.model_path, "sweeps/../models/fourbar_jaiswal2021_friction.yaml"),
          "model path '%s'", g_sw.model_path);
    CHECK(!strcmp(g_md->name, "fourbar_jaiswal2021_friction"), "model %s", g_md->name);
    CHECK(g_sw.n == 100000 && g_sw.seed == 20261121ULL && g_sw.method == HS_SAMPLE_MONTE_CARLO,
          "n %ld seed %llu method %d", g_sw.n, g_sw.seed, g_sw.method);
    CHECK(g_sw.chunk == 4096 && g_sw.t_end == 10.0 && g_sw.dt == 1e-3, "chunk, t_end, dt");
    CHECK(g_sw.text && strstr(g_sw.text, "friction.Fc") != NULL, "text kept");
    CHECK(g_sw.nparam == 9, "9 parameters (%d)", g_sw.nparam);
    if (g_sw.nparam != 9) return;
    CHECK(g_sw.param[0].dist == HS_DIST_UNIFORM && g_sw.param[0].a == 168.0 &&
              g_sw.param[0].b == 252.0 && !strcmp(g_sw.param[0].name, "cylinder.lift.friction.Fc"),
          "Fc uniform [168, 252] N");
    CHECK(g_sw.param[2].a == 0.01 && g_sw.param[2].b == 0.015, "vs in m/s");
    CHECK(g_sw.param[4].dist == HS_DIST_LOGNORMAL && g_sw.param[4].a == 1500e6 &&
              g_sw.param[4].b == 0.15,
          "B_oil lognormal 1500 MPa, 0.15");
    CHECK(g_sw.param[8].a == 31500e6 && g_sw.param[8].b == 0.05, "B_wall");
    CHECK(g_sw.param[0].index == hs_param_find(g_md, "cylinder.lift.friction.Fc") &&
              g_sw.param[7].index == hs_param_find(g_md, "volume.rod.B"),
          "parameter indices");
    {
        const char *t = g_sw.text, *at = strstr(t, "  cylinder.lift.friction.Fc:");
        int line = 1;
        for (; at && t < at; ++t) line += *t == '\n';
        CHECK(at && g_sw.param[0].line == line, "line of the first parameter %d, want %d",
              g_sw.param[0].line, line);
    }
    CHECK(g_sw.out.nsig == 7 && sig_is(g_sw.out.sig[0], HS_SIG_Z, 0) &&
              sig_is(g_sw.out.sig[1], HS_SIG_P, 1) && sig_is(g_sw.out.sig[2], HS_SIG_P, 2) &&
              sig_is(g_sw.out.sig[3], HS_SIG_F, 0) && sig_is(g_sw.out.sig[4], HS_SIG_W, 0) &&
              sig_is(g_sw.out.sig[5], HS_SIG_EBAL, 0) && sig_is(g_sw.out.sig[6], HS_SIG_ITERS, 0),
          "signals z1, p_piston, p_rod, F_lift, W_lift, E_balance, newton_iters");
    CHECK(g_sw.out.stats == 0x3fu, "all statistics");
    CHECK(g_sw.out.traj_every == 100 && g_sw.out.ntraj == 2 &&
              sig_is(g_sw.out.traj[0], HS_SIG_Z, 0) && sig_is(g_sw.out.traj[1], HS_SIG_P, 1),
          "trajectories every 100 of z1, p_piston");
    CHECK(g_md->model.t_end == 10.0, "the model itself is as its file says");
    for (i = 0; i < 2000; ++i)
        for (j = 0; j < 9; ++j) {
            double x = hs_sweep_sample(&g_sw, i, j);
            const hs_sweep_param *p = &g_sw.param[j];
            if (p->dist == HS_DIST_UNIFORM && !(x >= p->a && x <= p->b)) {
                CHECK(0, "instance %ld: %s = %g outside [%g, %g]", i, p->name, x, p->a, p->b);
                return;
            }
            if (p->dist == HS_DIST_LOGNORMAL && !(x > 0.0 && fabs(log(x / p->a)) < 9 * p->b)) {
                CHECK(0, "instance %ld: %s = %g", i, p->name, x);
                return;
            }
        }
}

static void test_file_design_lhs(void)
{
    hs_error e;
    long i;
    int rc, ok = 1, j;
    hs_sweep_free(&g_sw);
    hs_model_desc_free(g_md);
    rc = hs_sweep_load("sweeps/design_space_lhs.yaml", &g_sw, g_md, &e);
    CHECK(rc == HS_OK, "design_space_lhs loads (%s)", e.msg);
    if (rc) return;
    CHECK(g_sw.n == 2000 && g_sw.method == HS_SAMPLE_LHS && g_sw.nparam == 4 && g_sw.chunk == 1024,
          "n, method, 4 parameters, default chunk");
    CHECK(g_sw.param[0].a == 0.070 && g_sw.param[0].b == 0.100 && g_sw.param[1].a == 0.030 &&
              g_sw.param[1].b == 0.050 && g_sw.param[2].a == 1.5e-8 && g_sw.param[3].b == 4.5e-5,
          "ranges in SI");
    CHECK(g_sw.out.nsig == 10 && sig_is(g_sw.out.sig[0], HS_SIG_Z, 0) &&
              sig_is(g_sw.out.sig[5], HS_SIG_U, 0) && g_sw.out.ntraj == 3 &&
              g_sw.out.traj_every == 50 && g_sw.out.stats == 0x3fu,
          "outputs");
    for (i = 0; i < g_sw.n; ++i) {
        double dp = hs_sweep_sample(&g_sw, i, 0), dr = hs_sweep_sample(&g_sw, i, 1);
        ok &= dr < dp && dp >= 0.070 && dp <= 0.100 && dr >= 0.030 && dr <= 0.050;
        for (j = 0; j < 4; ++j)
            ok &= hs_sweep_sample(&g_sw, i, j) ==
                  hs_q_uniform(g_sw.param[j].a, g_sw.param[j].b,
                               hs_lhs_u(4, (uint64_t)i, (uint32_t)j, 2000));
    }
    CHECK(ok, "d_rod < d_piston in all 2000 instances; values = uniform(LHS u)");
}

/* ---- every method and distribution ---- */

static const char *const methods[3] = {"monte_carlo", "latin_hypercube", "sobol"}; /* by method number */

static const char *k_all_dists =
    FRIC "instances: 50\n"
         "seed: 77\n"
         "method: %s\n"
         "parameters:\n"
         "  cylinder.lift.friction.Fc: {uniform: [168 N, 252 N]}\n"
         "  cylinder.lift.friction.Fs: {uniform: {low: 0.664 kN, high: 996}}\n"
         "  cylinder.lift.friction.vs: {normal: {mean: 12.5 mm/s, sd: 1 mm/s}}\n"
         "  volume.piston.B: {truncated_normal: {mean: 550 MPa, sd: 100 MPa, low: 300 MPa, high: "
         "800 MPa}}\n"
         "  fluid.B_oil: {lognormal: {median: 1.5 GPa, sigma_log: 0.1}}\n"
         "  cylinder.lift.d_piston: {values: [70 mm, 80 mm, 0.09]}\n"
         "  valve.dcv.Cv: {range: {from: 1.5e-8, to: 2.5e-8, n: 5}}\n"
         "  cylinder.lift.friction.model: {values: [brown_mcphee, lugre, 0]}\n";

static void test_methods(void)
{
    char text[2048];
    hs_error e;
    int m, rc;
    for (m = 0; m < 3; ++m) {
        const hs_sweep_param *p;
        long i;
        int ok = 1;
        snprintf(text, sizeof text, k_all_dists, methods[m]);
        rc = load(text, &e);
        CHECK(rc == HS_OK, "%s loads (%s at %d:%d)", methods[m], e.msg, e.line, e.col);
        if (rc) continue;
        p = g_sw.param;
        CHECK(g_sw.method == m && g_sw.n == 50 && g_sw.seed == 77 && g_sw.nparam == 8, "%s: header",
              methods[m]);
        CHECK(p[0].dist == HS_DIST_UNIFORM && p[0].a == 168 && p[0].b == 252, "uniform list");
        CHECK(p[1].dist == HS_DIST_UNIFORM && p[1].a == 664 && p[1].b == 996, "uniform map");
        CHECK(p[2].dist == HS_DIST_NORMAL && fabs(p[2].a - 0.0125) < 1e-17 && p[2].b == 1e-3,
              "normal in m/s");
        CHECK(p[3].dist == HS_DIST_TRUNCNORMAL && p[3].a == 550e6 && p[3].b == 100e6 &&
                  p[3].c == 300e6 && p[3].d == 800e6,
              "truncated normal");
        CHECK(p[4].dist == HS_DIST_LOGNORMAL && p[4].a == 1.5e9 && p[4].b == 0.1, "lognormal");
        CHECK(p[5].dist == HS_DIST_VALUES && p[5].nvalues == 3 && p[5].values[0] == 0.07 &&
                  p[5].values[1] == 0.08 && p[5].values[2] == 0.09,
              "values with and without units");
        CHECK(p[6].dist == HS_DIST_VALUES && p[6].nvalues == 5 && p[6].values[0] == 1.5e-8 &&
                  fabs(p[6].values[2] - 2e-8) < 1e-23 && p[6].values[4] == 2.5e-8,
              "range: 5 equally spaced values, ends exact");
        CHECK(p[7].dist == HS_DIST_VALUES && p[7].nvalues == 3 && p[7].values[0] == 2 &&
                  p[7].values[1] == 4 && p[7].values[2] == 0,
              "enum values by name and number");
        CHECK(isnan(g_sw.t_end) && isnan(g_sw.dt) && g_sw.chunk == 1024, "defaults");
        /* the default outputs: joints, pressures, cylinder F and W, E_balance */
        CHECK(g_sw.out.nsig == 9 && sig_is(g_sw.out.sig[0], HS_SIG_Z, 0) &&
                  sig_is(g_sw.out.sig[2], HS_SIG_Z, 2) && sig_is(g_sw.out.sig[3], HS_SIG_P, 0) &&
                  sig_is(g_sw.out.sig[5], HS_SIG_P, 2) && sig_is(g_sw.out.sig[6], HS_SIG_F, 0) &&
                  sig_is(g_sw.out.sig[7], HS_SIG_W, 0) && sig_is(g_sw.out.sig[8], HS_SIG_EBAL, 0),
              "default signals");
        CHECK(g_sw.out.stats == 0x3fu && g_sw.out.ntraj == 0 && g_sw.out.traj_every == 0,
              "default statistics, no trajectories");
        /* hs_sweep_sample = the method's uniform through the distribution's inverse CDF */
        for (i = 0; i < 50; ++i) {
            double u[8], x;
            int j;
            for (j = 0; j < 8; ++j)
                u[j] = m == 0   ? hs_uniform(77, (uint64_t)i, (uint32_t)j, HS_STREAM_MC)
                       : m == 1 ? hs_lhs_u(77, (uint64_t)i, (uint32_t)j, 50)
                                : hs_sobol_u(77, (uint64_t)i, (uint32_t)j);
            ok &= hs_sweep_sample(&g_sw, i, 0) == hs_q_uniform(168, 252, u[0]);
            ok &= hs_sweep_sample(&g_sw, i, 1) == hs_q_uniform(664, 996, u[1]);
            ok &= hs_sweep_sample(&g_sw, i, 2) == hs_q_normal(p[2].a, 1e-3, u[2]);
            ok &=
                hs_sweep_sample(&g_sw, i, 3) == hs_q_truncnormal(550e6, 100e6, 300e6, 800e6, u[3]);
            ok &= hs_sweep_sample(&g_sw, i, 4) == hs_q_lognormal(1.5e9, 0.1, u[4]);
            ok &= hs_sweep_sample(&g_sw, i, 5) == p[5].values[(int)(u[5] * 3)];
            ok &= hs_sweep_sample(&g_sw, i, 6) == p[6].values[(int)(u[6] * 5)];
            x = hs_sweep_sample(&g_sw, i, 7);
            ok &= x == 2 || x == 4 || x == 0;
        }
        CHECK(ok, "%s: values are the composition of hs_sample.h", methods[m]);
    }
}

static void test_grid(void)
{
    hs_error e;
    int rc, seen[30], ok = 1;
    long i;
    rc = load(FRIC "method: grid\n"
                   "parameters:\n"
                   "  cylinder.lift.d_piston: {values: [70 mm, 80 mm, 90 mm]}\n"
                   "  valve.dcv.Cv: {range: {from: 1.5e-8, to: 2.5e-8, n: 5}}\n"
                   "  cylinder.lift.friction.model: {values: [brown_mcphee, lugre]}\n",
              &e);
    CHECK(rc == HS_OK, "grid loads (%s)", e.msg);
    if (rc) return;
    CHECK(g_sw.n == 30 && g_sw.method == HS_SAMPLE_GRID, "n = 3 * 5 * 2 = %ld", g_sw.n);
    memset(seen, 0, sizeof seen);
    for (i = 0; i < 30; ++i) {
        double a = hs_sweep_sample(&g_sw, i, 0), b = hs_sweep_sample(&g_sw, i, 1),
               c = hs_sweep_sample(&g_sw, i, 2);
        int ka = (int)floor((a - 0.065) / 0.01), kb = -1, kc = c == 2 ? 0 : c == 4 ? 1 : -1, k;
        for (k = 0; k < 5; ++k)
            if (b == g_sw.param[1].values[k]) kb = k;
        ok &= ka >= 0 && ka < 3 && kb >= 0 && kc >= 0;
        ok &= i == ka + 3 * (kb + 5 * kc); /* first parameter fastest */
        if (ok) ++seen[i];
    }
    for (i = 0; i < 30; ++i) ok &= seen[i] == 1;
    CHECK(ok, "every grid point once, first parameter fastest");
    CHECK(hs_sweep_sample(&g_sw, 30, 0) == hs_sweep_sample(&g_sw, 0, 0), "indices wrap");
    rc = load(FRIC "method: grid\ninstances: 3\n"
                   "parameters:\n  cylinder.lift.d_piston: {values: [70 mm, 80 mm, 90 mm]}\n",
              &e);
    CHECK(rc == HS_OK && g_sw.n == 3, "grid with the matching instance count");
    rc = load(FRIC "method: grid\n", &e);
    CHECK(rc == HS_OK && g_sw.n == 1 && g_sw.nparam == 0, "grid without parameters: 1 instance");
    rc = load(FRIC "instances: 5\nsimulation: {t_end: 2 s, dt: 2 ms}\n", &e);
    CHECK(rc == HS_OK && g_sw.t_end == 2.0 && g_sw.dt == 2e-3 && g_md->model.t_end == 10.0 &&
              g_md->model.dt == 1e-3,
          "simulation overrides are kept in the sweep, the model stays as its file says");
    rc = load(FRIC "instances: 5\nparameters: {}\n", &e);
    CHECK(rc == HS_OK && g_sw.n == 5 && g_sw.nparam == 0, "no parameters: identical instances");
}

static void test_reproducible(void)
{
    char text[512];
    double v[3][20];
    hs_error e;
    int m, i, j, again, differ, rc;
    for (m = 0; m < 3; ++m) {
        again = 1;
        differ = 0;
        for (j = 0; j < 3; ++j) {
            snprintf(text, sizeof text,
                     FRIC "instances: 20\nseed: %d\nmethod: %s\n"
                          "parameters:\n"
                          "  cylinder.lift.friction.Fc: {uniform: [168 N, 252 N]}\n"
                          "  fluid.B_oil: {lognormal: {median: 1500 MPa, sigma_log: 0.15}}\n",
                     j < 2 ? 5 : 6, methods[m]);
            rc = load(text, &e);
            CHECK(rc == HS_OK, "load (%s)", e.msg);
            if (rc) return;
            for (i = 0; i < 20; ++i) v[j][i] = hs_sweep_sample(&g_sw, i, 0);
            for (i = 0; i < 20; ++i) differ += hs_sweep_sample(&g_sw, i, 1) != v[j][i];
            /* order independence: backwards gives the same values */
            for (i = 19; i >= 0; --i) again &= hs_sweep_sample(&g_sw, i, 0) == v[j][i];
        }
        for (i = 0; i < 20; ++i) again &= v[0][i] == v[1][i];
        for (i = 0; i < 20; ++i) differ += v[0][i] != v[2][i];
        CHECK(again, "%s: same (seed, i, j) -> same value, in any order and after reloading",
              methods[m]);
        CHECK(differ == 80, "%s: another seed or parameter gives other values (%d of 80)",
              methods[m], differ);
    }
    CHECK(isnan(hs_sweep_sample(&g_sw, -1, 0)) && isnan(hs_sweep_sample(&g_sw, 0, 2)) &&
              isnan(hs_sweep_sample(NULL, 0, 0)),
          "out-of-range arguments give NaN");
}

/* ---- errors ---- */

static void test_errors(void)
{
#define I3 FRIC "instances: 3\n"
#define P3 I3 "parameters:\n  "                    /* the parameter at line 4, column 3 */
#define G3 FRIC "method: grid\nparameters:\n  "  /* likewise, on a grid */
#define O3 PUB1 "instances: 3\n"
    static const tu_err_case cases[] = {
        {"empty", "", HS_ERR_SCHEMA, 1, 1, "", "the sweep file is empty"},
        {"YAML syntax", FRIC "instances: [1, 2\n", HS_ERR_PARSE, 3, 1, "", "YAML syntax"},
        {"two documents", I3 "---\nseed: 2\n", HS_ERR_PARSE, 3, 1, "", "a sweep file holds exactly one YAML document"},
        {"not a mapping", "- a\n", HS_ERR_SCHEMA, 1, 1, "", "must be a mapping"},
        {"unknown key", I3 "seeed: 2\n", HS_ERR_SCHEMA, 3, 1, "seeed",
         "unknown key (allowed here: model, instances, seed, method, chunk"},
        {"missing model", "instances: 3\n", HS_ERR_SCHEMA, 1, 1, "model", "required key is missing"},
        {"missing instances", FRIC "seed: 3\n", HS_ERR_SCHEMA, 1, 1, "instances", "required key is missing"},
        {"instances not a number", FRIC "instances: ten\n", HS_ERR_SCHEMA, 2, 12, "instances",
         "'ten' is not an integer"},
        {"instances 0", FRIC "instances: 0\n", HS_ERR_VALUE, 2, 12, "instances", "must be in [1,"},
        {"instances fractional", FRIC "instances: 2.5\n", HS_ERR_SCHEMA, 2, 12, "instances", "not an integer"},
        {"sobol instances", FRIC "method: sobol\ninstances: 4294967296\n", HS_ERR_VALUE, 3, 12, "instances",
         "must be in [1, 4294967295]"},
        {"seed", I3 "seed: -4\n", HS_ERR_SCHEMA, 3, 7, "seed", "not a decimal integer"},
        {"seed overflow", I3 "seed: 18446744073709551616\n", HS_ERR_SCHEMA, 3, 7, "seed", "not a decimal integer"},
        {"method", I3 "method: quasi\n", HS_ERR_SCHEMA, 3, 9, "method",
         "must be one of: monte_carlo, latin_hypercube, sobol, grid"},
        {"chunk", I3 "chunk: 0\n", HS_ERR_VALUE, 3, 8, "chunk", "must be in [1,"},
        {"simulation unit", I3 "simulation: {t_end: 10 m}\n", HS_ERR_SCHEMA, 3, 21, "simulation.t_end",
         "has unit m, expected s"},
        {"simulation dt", I3 "simulation: {dt: 0 s}\n", HS_ERR_VALUE, 3, 18, "simulation.dt", "dt must be > 0"},
        {"simulation against the model's rules", I3 "simulation: {t_end: 1 ms, dt: 2 ms}\n", HS_ERR_VALUE, 3, 31,
         "simulation.dt", "dt"},
        {"simulation key", I3 "simulation: {tend: 1 s}\n", HS_ERR_SCHEMA, 3, 14, "simulation.tend", "unknown key"},
        /* parameters */
        {"unknown parameter", P3 "cylinder.lift.friction.Fcc: {uniform: [1, 2]}\n", HS_ERR_VALUE, 4, 3,
         "parameters.cylinder.lift.friction.Fcc", "did you mean cylinder.lift.friction.Fc"},
        {"unknown joint: the parameters of that form", P3 "joint.crank_angle.z0: {uniform: [1, 2]}\n", HS_ERR_VALUE,
         4, 3, "parameters.joint.crank_angle.z0", "(did you mean joint.z1.z0, joint.z2.z0 or joint.z3.z0?)"},
        {"parameter twice", P3 "fluid.rho: {uniform: [800, 900]}\n  fluid.rho: {uniform: [800, 900]}\n",
         HS_ERR_SCHEMA, 5, 3, "parameters.fluid.rho", "parameter swept twice"},
        {"unknown distribution", P3 "fluid.rho: {gauss: {mean: 1, sd: 2}}\n", HS_ERR_SCHEMA, 4, 15,
         "parameters.fluid.rho.gauss", "unknown key (allowed here: uniform, normal"},
        {"two distributions", P3 "fluid.rho: {values: [1], uniform: [1, 2]}\n", HS_ERR_SCHEMA, 4, 28,
         "parameters.fluid.rho", "exactly one distribution"},
        {"wrong unit", P3 "cylinder.lift.friction.Fc: {uniform: [168 mm, 252 N]}\n", HS_ERR_SCHEMA, 4, 41,
         "parameters.cylinder.lift.friction.Fc.uniform[0]",
         "'168 mm' has unit m, but parameter cylinder.lift.friction.Fc is in N"},
        {"unknown unit", P3 "fluid.B_oil: {normal: {mean: 1500 MPa, sd: 3 furlong}}\n", HS_ERR_SCHEMA, 4, 46,
         "parameters.fluid.B_oil.normal.sd", "not a finite number with an optional known unit"},
        {"sigma_log unit", P3 "fluid.B_oil: {lognormal: {median: 1500 MPa, sigma_log: 1 Pa}}\n", HS_ERR_SCHEMA, 4,
         58, "parameters.fluid.B_oil.lognormal.sigma_log", "expected no unit"},
        {"sd 0", P3 "fluid.B_oil: {normal: {mean: 1500 MPa, sd: 0 MPa}}\n", HS_ERR_VALUE, 4, 46,
         "parameters.fluid.B_oil.normal.sd", "sd must be > 0"},
        {"truncated sd < 0", P3 "fluid.B_oil: {truncated_normal: {mean: 1, sd: -1, low: 0, high: 2}}\n",
         HS_ERR_VALUE, 4, 49, "parameters.fluid.B_oil.truncated_normal.sd", "sd must be > 0"},
        {"sigma_log 0", P3 "fluid.B_oil: {lognormal: {median: 1500 MPa, sigma_log: 0}}\n", HS_ERR_VALUE, 4, 58,
         "parameters.fluid.B_oil.lognormal.sigma_log", "sigma_log must be > 0"},
        {"median 0", P3 "fluid.B_oil: {lognormal: {median: 0 MPa, sigma_log: 0.1}}\n", HS_ERR_VALUE, 4, 37,
         "parameters.fluid.B_oil.lognormal.median", "median must be > 0"},
        {"uniform low >= high", P3 "cylinder.lift.friction.Fc: {uniform: [252 N, 168 N]}\n", HS_ERR_VALUE, 4, 48,
         "parameters.cylinder.lift.friction.Fc.uniform[1]", "low must be < high"},
        {"uniform map low >= high", P3 "fluid.rho: {uniform: {low: 900, high: 900}}\n", HS_ERR_VALUE, 4, 41,
         "parameters.fluid.rho.uniform.high", "low must be < high"},
        {"truncated low >= high", P3 "fluid.rho: {truncated_normal: {mean: 850, sd: 10, low: 900, high: 800}}\n",
         HS_ERR_VALUE, 4, 69, "parameters.fluid.rho.truncated_normal.high", "low must be < high"},
        {"uniform of three", P3 "fluid.rho: {uniform: [1, 2, 3]}\n", HS_ERR_SCHEMA, 4, 24,
         "parameters.fluid.rho.uniform", "must be a list [low, high]"},
        {"missing sd", P3 "fluid.rho: {normal: {mean: 850}}\n", HS_ERR_SCHEMA, 4, 23, "parameters.fluid.rho.normal.sd",
         "required key is missing"},
        {"empty values", P3 "fluid.rho: {values: []}\n", HS_ERR_VALUE, 4, 23, "parameters.fluid.rho.values",
         "the value list is empty"},
        {"range from >= to", G3 "fluid.rho: {range: {from: 900, to: 800, n: 3}}\n", HS_ERR_VALUE, 4, 38,
         "parameters.fluid.rho.range.to", "from must be < to"},
        {"range n", G3 "fluid.rho: {range: {from: 800, to: 900, n: 1}}\n", HS_ERR_VALUE, 4, 46,
         "parameters.fluid.rho.range.n", "must be in [2,"},
        {"grid with a distribution", G3 "fluid.rho: {uniform: [800, 900]}\n", HS_ERR_SCHEMA, 4, 15,
         "parameters.fluid.rho.uniform", "method grid takes value lists"},
        {"grid instances", FRIC "method: grid\ninstances: 4\nparameters:\n  fluid.rho: {values: [800, 900]}\n",
         HS_ERR_VALUE, 3, 12, "instances", "exactly the product of the value counts, 2"},
        {"enum with uniform", P3 "cylinder.lift.friction.model: {uniform: [0, 2]}\n", HS_ERR_SCHEMA, 4, 34,
         "parameters.cylinder.lift.friction.model.uniform", "is an enumeration: sweep it with values"},
        {"enum bad name", P3 "cylinder.lift.friction.model: {values: [lugre, coulomb]}\n", HS_ERR_VALUE, 4, 50,
         "parameters.cylinder.lift.friction.model.values[1]",
         "'coulomb' is not a value of cylinder.lift.friction.model"},
        /* outputs */
        {"swept dt with trajectories",
         O3 "parameters:\n  integrator.dt: {uniform: [0.001, 0.002]}\n"
            "outputs: {trajectories: {every: 10, signals: [p_piston]}}\n",
         HS_ERR_VALUE, 4, 3, "parameters.integrator.dt", "share one time axis"},
        {"unknown signal", O3 "outputs: {signals: [crank_angle, p_pistn]}\n", HS_ERR_VALUE, 3, 34,
         "outputs.signals[1]", "did you mean p_piston"},
        {"signal twice", O3 "outputs: {signals: [F_lift, F_lift]}\n", HS_ERR_VALUE, 3, 29, "outputs.signals[1]",
         "listed twice"},
        {"empty signals", O3 "outputs: {signals: []}\n", HS_ERR_VALUE, 3, 20, "outputs.signals", "the list is empty"},
        {"trajectories without signals", O3 "outputs:\n  trajectories: {every: 5}\n", HS_ERR_SCHEMA, 4, 17,
         "outputs.trajectories.signals", "required key is missing"},
        {"trajectories every", O3 "outputs:\n  trajectories: {every: 0, signals: [p_rod]}\n", HS_ERR_VALUE, 4, 25,
         "outputs.trajectories.every", "must be in [1,"},
        {"statistic", O3 "outputs: {statistics: [min, median]}\n", HS_ERR_SCHEMA, 3, 29, "outputs.statistics[1]",
         "must be one of: min, max, final, mean, rms, t_max"},
        {"outputs key", O3 "outputs: {signal: [p_rod]}\n", HS_ERR_SCHEMA, 3, 11, "outputs.signal",
         "unknown key (allowed here: signals, statistics"}};
    expect_errors(cases, sizeof cases / sizeof cases[0]);
    /* one parameter, signal or trajectory beyond its limit: the first one past it is reported */
    over_limit("too many parameters", I3 "parameters:\n", "  p%d: {values: [1]}\n", HS_MAX_SWEEP, 4, 3,
               "parameters.p%d", "too many swept parameters: %d (HS_MAX_SWEEP is %d)");
    over_limit("too many signals", O3 "outputs:\n  signals:\n", "    - s%d\n", HS_MAX_OUT, 5, 7,
               "outputs.signals[%d]", "too many signals: %d (HS_MAX_OUT is %d)");
    over_limit("too many trajectories", O3 "outputs:\n  trajectories:\n    every: 5\n    signals:\n",
               "      - s%d\n", HS_MAX_TRAJ, 7, 9, "outputs.trajectories.signals[%d]",
               "too many signals: %d (HS_MAX_TRAJ is %d)");
#undef O3
#undef G3
#undef P3
#undef I3
}

/* A model that fails to load passes its own error through (its file, line, column, key). */
static void test_model_error_passthrough(void)
{
    char mpath[] = "/tmp/hs_test_sweep_modelXXXXXX", text[256];
    hs_error e;
    FILE *f;
    int fd = mkstemp(mpath), rc;
    CHECK(fd >= 0, "temporary model file");
    if (fd < 0) return;
    f = fdopen(fd, "w");
    fputs("name: bad\nbodies:\n  - {name: a, shape: point, mass: -1 kg}\n"
          "joints:\n  - {name: j, type: revolute, parent: ground, child: a, axis: [0, 0, 1]}\n",
          f);
    fclose(f);
    snprintf(text, sizeof text, "model: %s\ninstances: 3\n", mpath);
    rc = load(text, &e);
    CHECK(rc == HS_ERR_VALUE && !strcmp(e.file, mpath) && e.line == 3 && e.col == 35 &&
              !strcmp(e.key, "bodies[0].mass"),
          "the model's error: %d %s:%d:%d key '%s': %s", rc, e.file, e.line, e.col, e.key, e.msg);
    CHECK(!strcmp(g_sw.path, PATH) && g_sw.param == NULL, "sweep left empty");
    unlink(mpath);
    /* a model file that cannot be read is the sweep's error: its file, line and key */
    rc = load("model: ../models/nope.yaml\ninstances: 3\n", &e);
    tu_check_error("a missing model file", rc, &e, HS_ERR_IO, PATH, 1, 8, "model", "cannot open");
    CHECK(strstr(e.msg, "sweeps/../models/nope.yaml") != NULL, "a missing model file: %s", e.msg);
    rc = load("model: ../models\ninstances: 3\n", &e);
    CHECK(rc == HS_ERR_IO && !strcmp(e.file, PATH) && e.line == 1 && !strcmp(e.key, "model") &&
              strstr(e.msg, "is a directory") != NULL,
          "a directory as model: %d %s:%d key '%s': %s", rc, e.file, e.line, e.key, e.msg);
}

/* Signal names: every CSV column of `simulate` (but t) resolves to a reference whose name is
 * the column; the Pub. I model's names by kind. */
static void test_signal_names(void)
{
    static const struct {
        const char *name;
        int kind, index;
    } pub1[] = {{"crank_angle", HS_SIG_Z, 0},     {"crank_angle_dot", HS_SIG_ZD, 0},
                {"boom_angle", HS_SIG_Z, 2},      {"boom_angle_dot", HS_SIG_ZD, 2},
                {"p_valve", HS_SIG_P, 0},         {"p_piston", HS_SIG_P, 1},
                {"p_rod", HS_SIG_P, 2},           {"U_dcv", HS_SIG_U, 0},
                {"s_lift", HS_SIG_S, 0},          {"sdot_lift", HS_SIG_SD, 0},
                {"F_lift", HS_SIG_F, 0},          {"Ffric_lift", HS_SIG_FFRIC, 0},
                {"W_lift", HS_SIG_W, 0},          {"E_kin", HS_SIG_EKIN, 0},
                {"E_pot", HS_SIG_EPOT, 0},        {"W_ext", HS_SIG_WEXT, 0},
                {"E_balance", HS_SIG_EBAL, 0},    {"phi_norm", HS_SIG_PHI, 0},
                {"newton_iters", HS_SIG_ITERS, 0}};
    hs_error e;
    hs_signal_ref r;
    hs_sim_summary sum;
    char line[4096], name[96], *tok, *save = NULL;
    FILE *f;
    size_t k;
    int rc, ncol = 0, ok = 1;
    hs_model_desc_free(g_md);
    rc = hs_model_load("models/fourbar_rahikainen2018.yaml", g_md, &e);
    CHECK(rc == HS_OK, "Pub. I model loads (%s)", e.msg);
    if (rc) return;
    for (k = 0; k < sizeof pub1 / sizeof pub1[0]; ++k) {
        r.kind = -1;
        rc = hs_output_find(g_md, pub1[k].name, &r);
        CHECK(rc == 0 && r.kind == pub1[k].kind && r.index == pub1[k].index, "%s -> %d/%d",
              pub1[k].name, r.kind, r.index);
        hs_output_name(g_md, r, name, sizeof name);
        CHECK(!strcmp(name, pub1[k].name), "name of %s: %s", pub1[k].name, name);
    }
    CHECK(hs_output_find(g_md, "t", &r) != 0 && hs_output_find(g_md, "p_pump", &r) != 0 &&
              hs_output_find(g_md, "F_lift ", &r) != 0 && hs_output_find(g_md, "", &r) != 0,
          "t, sources, near misses are not signals");
    r.kind = HS_SIG_P;
    r.index = 7;
    hs_output_name(g_md, r, name, sizeof name);
    CHECK(!strcmp(name, "unknown_signal"), "bad reference named unknown_signal");
    /* the CSV header of simulate, one step */
    CHECK(hs_param_set(g_md, "integrator.t_end", 1e-3, &e) == HS_OK, "t_end 1 ms");
    f = tmpfile();
    CHECK(f != NULL, "tmpfile");
    if (!f) return;
    hs_simulate_csv(g_md, f, 1, &sum);
    rewind(f);
    if (!fgets(line, sizeof line, f)) line[0] = '\0';
    fclose(f);
    line[strcspn(line, "\n")] = '\0';
    for (tok = strtok_r(line, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (!strcmp(tok, "t")) continue;
        ++ncol;
        if (hs_output_find(g_md, tok, &r) != 0) {
            ok = 0;
            printf("column %s does not resolve\n", tok);
            continue;
        }
        hs_output_name(g_md, r, name, sizeof name);
        ok &= !strcmp(name, tok);
    }
    /* joints, pressures, the spool, the cylinder, the tail, the circuit's energy audit, and the
     * throttle's and the valve's flows and losses */
    CHECK(ok && ncol == 2 * 3 + 3 + 1 + 5 + 6 + 3 + 2 + 3, "all %d CSV columns resolve and round-trip", ncol);
}

/* Integer parameters, step counts (simulation: and swept dt / t_end), run sizes and the
 * text itself: each refused at the key responsible. */
static void test_limits(void)
{
#define DP "model: ../models/double_pendulum.yaml\n"
#define IP DP "instances: 4\nparameters:\n  " /* the parameter at line 4, column 3 */
#define GP DP "method: grid\nparameters:\n  "  /* likewise, on a grid */
    static const tu_err_case cases[] = {
        /* integers: values or range lists of integers in the range, nothing continuous */
        {"max_iter uniform", IP "integrator.max_iter: {uniform: [2, 3]}\n", HS_ERR_SCHEMA, 4, 25,
         "parameters.integrator.max_iter.uniform", "takes integer values only"},
        {"max_iter lognormal", IP "integrator.max_iter: {lognormal: {median: 9, sigma_log: 1}}\n", HS_ERR_SCHEMA, 4,
         25, "parameters.integrator.max_iter.lognormal", "lognormal"},
        {"max_iter 2.5", IP "integrator.max_iter: {values: [3, 2.5]}\n", HS_ERR_VALUE, 4, 37,
         "parameters.integrator.max_iter.values[1]", "2.5 is not one"},
        {"max_iter 0", IP "integrator.max_iter: {values: [0]}\n", HS_ERR_VALUE, 4, 34,
         "parameters.integrator.max_iter.values[0]", "from 1 to 1000000"},
        {"max_iter range step", GP "integrator.max_iter: {range: {from: 1, to: 10, n: 3}}\n", HS_ERR_VALUE, 4, 32,
         "parameters.integrator.max_iter.range", "5.5 of the range"},
        /* steps: the simulation: overrides, and what a sweep can draw */
        {"simulation t_end 1e9", DP "instances: 4\nsimulation: {t_end: 1e9 s}\n", HS_ERR_LIMIT, 3, 21,
         "simulation.t_end", "at most 1e+09 steps"},
        {"simulation dt 1e-12", DP "instances: 4\nsimulation: {dt: 1e-12 s}\n", HS_ERR_LIMIT, 3, 18, "simulation.dt",
         "at most 1e+09 steps"},
        {"swept dt to 1e-300", IP "integrator.dt: {uniform: [1e-300 s, 1 ms]}\n", HS_ERR_LIMIT, 4, 3,
         "parameters.integrator.dt", "HS_MAX_STEPS"},
        {"swept dt normal through 0", IP "integrator.dt: {normal: {mean: 1 ms, sd: 0.5 ms}}\n", HS_ERR_VALUE, 4, 3,
         "parameters.integrator.dt", "steps <= 0"},
        {"swept t_end values", IP "integrator.t_end: {values: [1 s, 1e9 s]}\n", HS_ERR_LIMIT, 4, 3,
         "parameters.integrator.t_end", "HS_MAX_STEPS"},
        /* sizes: a chunk of trajectories when loading */
        {"trajectories",
         DP "instances: 1000\nsimulation: {t_end: 1000 s, dt: 1e-6 s}\noutputs:\n  signals: [j1]\n"
            "  trajectories: {every: 1, signals: [j1, j2, j1_dot, j2_dot]}\n",
         HS_ERR_LIMIT, 6, 25, "outputs.trajectories.every", "of memory"},
        /* the text: a byte that is not UTF-8 never drops the rest (the parameters after it) */
        {"0xFF in a comment", DP "instances: 4  # \xff\nparameters:\n  body.link1.mass: {uniform: [1, 2]}\n",
         HS_ERR_PARSE, 2, 17, "instances", "byte 0xFF is not valid UTF-8"}};
    /* what loads: the step overrides together (their order does not matter), swept dt that
     * cannot reach 0, and a listed dt <= 0 (an invalid instance, not an error) */
    static const char *const fine[][2] = {
        {"t_end 1e7 s with dt 1 s", DP "instances: 4\nsimulation: {t_end: 1e7 s, dt: 1 s}\n"},
        {"dt first", DP "instances: 4\nsimulation: {dt: 1 s, t_end: 1e7 s}\n"},
        {"swept dt normal far from 0", IP "integrator.dt: {normal: {mean: 1 ms, sd: 0.02 ms}}\n"},
        {"a listed dt <= 0 is an invalid instance, not an error", IP "integrator.dt: {values: [-1 ms, 1 ms]}\n"}};
    hs_error e;
    size_t k;
    expect_errors(cases, sizeof cases / sizeof cases[0]);
    for (k = 0; k < sizeof fine / sizeof fine[0]; ++k)
        CHECK(load(fine[k][1], &e) == HS_OK, "%s: %s", fine[k][0], e.msg);
    CHECK(load(GP "integrator.max_iter: {range: {from: 1, to: 10, n: 4}}\n", &e) == HS_OK && g_sw.n == 4 &&
              g_sw.param[0].values[1] == 4.0,
          "max_iter range of integers: %s", e.msg);
    /* sizes: the ensemble statistics of a run's instances when it is run (a shard of a huge
     * sweep fits), at the count's line */
    CHECK(load(DP "instances: 1e12\n", &e) == HS_OK && g_sw.n == 1000000000000L &&
              g_sw.n_line == 2 && g_sw.n_col == 12 && !strcmp(g_sw.n_key, "instances"),
          "instances 1e12 load: %s", e.msg);
    CHECK(hs_sweep_check_size(&g_sw, g_md, g_sw.n, g_sw.n, &e) == HS_ERR_LIMIT &&
              !strcmp(e.file, PATH) && e.line == 2 && e.col == 12 &&
              !strcmp(e.key, "instances") && strstr(e.msg, "of memory"),
          "1e12 instances in one run: %s:%d:%d %s %s", e.file, e.line, e.col, e.key, e.msg);
    CHECK(hs_sweep_check_size(&g_sw, g_md, g_sw.n, 1000000, &e) == HS_OK,
          "a shard of 1e6 of them: %s", e.msg);
    CHECK(load(GP "body.link1.mass: {range: {from: 1 kg, to: 2 kg, n: 1000000}}\n"
                  "  body.link2.mass: {range: {from: 1 kg, to: 2 kg, n: 1000000}}\n", &e) == HS_OK,
          "grid 1e12 load: %s", e.msg);
    CHECK(hs_sweep_check_size(&g_sw, g_md, g_sw.n, g_sw.n, &e) == HS_ERR_LIMIT && e.line == 3 &&
              e.col == 1 && !strcmp(e.key, "parameters"),
          "grid 1e12 in one run: %d:%d %s %s", e.line, e.col, e.key, e.msg);
    CHECK(load(DP "method: sobol\ninstances: 4\n", &e) == HS_OK &&
              hs_sweep_check_size(&g_sw, g_md, 5000000000L, 1, &e) == HS_ERR_LIMIT &&
              strstr(e.msg, "method sobol takes 1 to 4294967295"),
          "sobol beyond 2^32 - 1 (run -n): %s", e.msg);
#undef GP
#undef IP
#undef DP
}

int main(void)
{
    g_md = (hs_model_desc *)calloc(1, sizeof *g_md);
    if (!g_md) return 1;
    test_file_friction_mc();
    test_file_design_lhs();
    test_methods();
    test_grid();
    test_reproducible();
    test_errors();
    test_model_error_passthrough();
    test_signal_names();
    test_limits();
    hs_sweep_free(&g_sw);
    hs_model_desc_free(g_md);
    free(g_md);
    return tu_report("test_sweep_load");
}
