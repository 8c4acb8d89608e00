/* test_simulate.c -- host/engine/simulate.c and the warnings of kernels/hs_integrator.h and
 * hs_batch.h: the cavitation warning (a volume pressure below fluid.p_vapour) is set exactly
 * when a step's pressure falls below it, never fails the run and changes no number; the
 * plausibility rules (hs_model_plausible) and their message (hs_model_implausible). */
#include <stdlib.h>
#include <string.h>

#include "hs/model_file.h"
#include "hs_batch.h"
#include "engine/simulate.h"
#include "test_util.h"

/* the lowest volume pressure over every state of the run, and when it first fell below pv */
typedef struct scan {
    double pmin, pv, t_first;
} scan;

static int on_step(void *ctx, const hs_model *m, const hs_state *s, const hs_obs *o, double E_balance)
{
    scan *c = (scan *)ctx;
    int v;
    (void)o;
    (void)E_balance;
    for (v = 0; v < m->nvol; ++v) {
        if (s->p[v] < c->pmin) c->pmin = s->p[v];
        if (s->p[v] < c->pv && !(c->t_first >= 0.0)) c->t_first = s->t;
    }
    return 0;
}

/* Jaiswal's four-bar without friction: the rod chamber is pulled to about -2 MPa (the seed's
 * model has no cavitation limit) after the valve closes at 2.5 s; Pub. I's stays above
 * 26 kPa at dt = 1 ms (about 9 kPa at small dt, docs/model-data.md): below p_vapour only when it is raised. */
static void test_cavitation_warning(void)
{
    static hs_model_desc d;
    static const struct {
        const char *path;
        double t_end, p_vapour;
        int want;
    } c[4] = {{"models/fourbar_jaiswal2021.yaml", 3.0, 1e3, 1},
              {"models/fourbar_rahikainen2018.yaml", 3.0, 1e3, 0},
              {"models/fourbar_rahikainen2018.yaml", 3.0, 5e4, 1},
              {"models/fourbar_jaiswal2021.yaml", 2.0, 1e3, 0}};
    int q;
    for (q = 0; q < 4; ++q) {
        hs_sim_summary sum;
        scan sc = {HUGE_VAL, c[q].p_vapour, -1.0};
        int st;
        if (tu_load_model(c[q].path, &d)) return;
        CHECK(d.model.p_vapour == HS_P_VAPOUR_DEFAULT && HS_P_VAPOUR_DEFAULT == 1e3, "p_vapour defaults to 1 kPa");
        d.model.t_end = c[q].t_end;
        d.model.p_vapour = c[q].p_vapour;
        st = hs_simulate(&d.model, on_step, &sc, &sum);
        CHECK(st == 0 && sum.status == 0, "%s, p_vapour %g: completes (status %d)", c[q].path, c[q].p_vapour, st);
        CHECK(!!(sum.warn & HS_ST_CAVITATION) == c[q].want && (sum.warn & ~HS_ST_CAVITATION) == 0,
              "%s to %g s, p_vapour %g: warning %d, want %d (lowest p %.4g Pa)", c[q].path, c[q].t_end,
              c[q].p_vapour, sum.warn, c[q].want, sc.pmin);
        /* the summary's minimum and first time are those of the states the engine reported */
        CHECK(sum.p_min == sc.pmin, "p_min %.17g = scanned %.17g", sum.p_min, sc.pmin);
        CHECK(c[q].want ? sum.t_cavitation == sc.t_first : sc.t_first < 0.0, "first below p_vapour at %g s (scan %g)",
              sum.t_cavitation, sc.t_first);
        printf("  %s to %g s: lowest p %.4g Pa%s\n", c[q].path, c[q].t_end, sc.pmin,
               c[q].want ? " (cavitation warning)" : "");
        CHECK(fabs(sum.t_final - c[q].t_end) < 1e-9, "the warning stops nothing: ends at %.17g s", sum.t_final);
        hs_model_desc_free(&d);
    }
}

/* The warning bit changes no number: Pub. I with p_vapour 0 and 5e4 Pa, state for state. */
static void test_warning_changes_nothing(void)
{
    static hs_model_desc d;
    static hs_state s[2];
    hs_work *w = (hs_work *)calloc(1, sizeof *w);
    long k, n;
    int q, same = 1;
    if (!w || tu_load_model("models/fourbar_rahikainen2018.yaml", &d)) {
        free(w);
        return;
    }
    d.model.t_end = 3.0;
    n = hs_instance_steps(d.model.t_end, d.model.dt);
    for (q = 0; q < 2; ++q) {
        hs_model m = d.model;
        m.p_vapour = q ? 5e4 : 0.0;
        CHECK(hs_init(&m, &s[q], w) == 0, "init");
        for (k = 0; k < n; ++k)
            if (hs_step(&m, &s[q], w)) break;
        CHECK(k == n, "p_vapour %g: %ld of %ld steps", m.p_vapour, k, n);
    }
    CHECK(s[0].warn == 0 && s[1].warn == HS_ST_CAVITATION, "warnings %d and %d", s[0].warn, s[1].warn);
    for (q = 0; q < d.model.nz; ++q) same &= s[0].z[q] == s[1].z[q] && s[0].zd[q] == s[1].zd[q];
    for (q = 0; q < d.model.nvol; ++q) same &= s[0].p[q] == s[1].p[q];
    CHECK(same && s[0].iters_total == s[1].iters_total, "bit-identical states and iteration counts");
    hs_model_desc_free(&d);
    free(w);
}

static void test_plausibility(void)
{
    static hs_model_desc d, dp;
    char buf[512];
    hs_model m;
    if (tu_load_model("models/fourbar_rahikainen2018.yaml", &d) || tu_load_model("models/double_pendulum.yaml", &dp)) return;
    m = d.model;
    CHECK(hs_model_plausible(&m) == 0 && hs_model_implausible(&d, buf, sizeof buf) == 0 && buf[0] == '\0',
          "the shipped model is plausible ('%s')", buf);
    /* each rule at its bounds (inclusive) and just past them */
    {
        static const struct {
            int rule;
            double lo, hi;
        } r[HS_PL_CMP] = {{HS_PL_B_OIL, 1e7, 1e10}, {HS_PL_RHO, 500, 2000},  {HS_PL_VOL_B, 1e6, 1e12},
                            {HS_PL_VOL_P0, -1e300, 1e9}, {HS_PL_CYL_B, 1e6, 1e12}, {HS_PL_SRC_P, -1e300, 1e9},
                            {HS_PL_AIR, 0.0, 0.1}};
        int q;
        for (q = 0; q < HS_PL_CMP; ++q) { /* the components' rule: test_component_plausibility */
            double lo, hi, *v;
            hs_model t = d.model;
            CHECK(hs_plaus_count(&t, r[q].rule) >= 1, "rule %d checks the model", q);
            switch (r[q].rule) {
            case HS_PL_B_OIL: v = &t.B_oil; break;
            case HS_PL_RHO: v = &t.rho; break;
            case HS_PL_VOL_B: v = &t.vol_B[t.nvol - 1]; break;
            case HS_PL_VOL_P0: v = &t.vol_p0[t.nvol - 1]; break;
            case HS_PL_CYL_B: v = &t.cyl_B[t.ncyl - 1]; break;
            case HS_PL_AIR: v = &t.air_fraction; break;
            default: v = &t.src_p[t.nsrc - 1]; break;
            }
            hs_plaus_value(&t, r[q].rule, 0, &lo, &hi);
            CHECK(hi == r[q].hi && lo == r[q].lo, "rule %d range [%g, %g]", q,
                  lo, hi);
            *v = r[q].hi;
            CHECK(hs_model_plausible(&t) == 0, "rule %d: %g at the bound is plausible", q, *v);
            *v = r[q].hi * (1 + 1e-15) + 1e-300;
            CHECK(hs_model_plausible(&t) == HS_ST_IMPLAUSIBLE, "rule %d: %.17g above the bound", q, *v);
            if (r[q].lo > 0) {
                *v = r[q].lo;
                CHECK(hs_model_plausible(&t) == 0, "rule %d: %g at the lower bound", q, *v);
                *v = r[q].lo * (1 - 1e-15);
                CHECK(hs_model_plausible(&t) == HS_ST_IMPLAUSIBLE, "rule %d: below the lower bound", q);
            }
            *v = NAN;
            CHECK(hs_model_plausible(&t) == HS_ST_IMPLAUSIBLE, "rule %d: NaN is implausible", q);
        }
    }
    /* the message names each value, with units; beyond four it counts */
    d.model.B_oil = 1500.0; /* 1500 MPa written without its unit */
    d.model.rho = 5.0;
    CHECK(hs_model_implausible(&d, buf, sizeof buf) == 2 &&
              !strcmp(buf, "fluid.B_oil = 1500 Pa outside [1e+07, 1e+10] Pa; fluid.rho = 5 kg/m^3 outside [500, 2000] kg/m^3"),
          "message: '%s'", buf);
    d.model.vol_p0[0] = 2e9;
    d.model.src_p[0] = 3e9;
    d.model.cyl_B[0] = 1.0;
    CHECK(hs_model_implausible(&d, buf, sizeof buf) == 5 && strstr(buf, "volume.") && strstr(buf, ".p0 = 2e+09 Pa above 1e+09 Pa") &&
              strstr(buf, "; and 1 more") && !strstr(buf, "source."),
          "five values, four listed: '%s'", buf);
    CHECK(hs_model_implausible(&d, buf, 16) == 5 && strlen(buf) == 15, "a short buffer is cut, not overrun");
    /* a mechanism without hydraulics: its unused fluid values are not checked */
    dp.model.B_oil = 0.0;
    CHECK(hs_model_plausible(&dp.model) == 0 && hs_model_implausible(&dp, buf, sizeof buf) == 0,
          "mechanism only: nothing to check");
    hs_model_desc_free(&d);
    hs_model_desc_free(&dp);
}

/* A component parameter beyond the plausible magnitude of its unit (hs_cmp_param_plausible)
 * makes the instance implausible: the pump speed of 1e300 rad/s that turned into NaN at the
 * first step with no word before; the bound inclusive, either sign, NaN; units by exact name. */
static void test_component_plausibility(void)
{
    static hs_model_desc d;
    char buf[512];
    hs_model t;
    double *speed;
    int i;
    if (tu_load_model("models/crane_pump_relief.yaml", &d)) return;
    CHECK(hs_model_plausible(&d.model) == 0, "the shipped circuit is plausible");
    for (i = 0; i < d.model.ncmp && d.model.cmp_type[i] != HS_CMP_PUMP; ++i) {
    }
    if (i == d.model.ncmp) {
        CHECK(0, "crane_pump_relief has a pump");
        return;
    }
    t = d.model;
    speed = &t.cmp_par[i][HS_CP_PU_N];
    *speed = 1e4;
    CHECK(hs_model_plausible(&t) == 0, "1e4 rad/s at the bound is plausible");
    *speed = 1e4 * (1 + 1e-15);
    CHECK(hs_model_plausible(&t) == HS_ST_IMPLAUSIBLE, "just above 1e4 rad/s is implausible");
    *speed = -2e4;
    CHECK(hs_model_plausible(&t) == HS_ST_IMPLAUSIBLE, "-2e4 rad/s is implausible");
    *speed = NAN;
    CHECK(hs_model_plausible(&t) == HS_ST_IMPLAUSIBLE, "NaN is implausible");
    d.model.cmp_par[i][HS_CP_PU_N] = 1e300;
    CHECK(hs_model_implausible(&d, buf, sizeof buf) == 1 &&
              !strcmp(buf, "component.pump.speed = 1e+300 rad/s beyond +- 10000 rad/s"),
          "message: '%s'", buf);
    CHECK(hs_cmp_unit_plausible("Pa") == 1e9 && hs_cmp_unit_plausible("m^3") == 10.0 &&
              hs_cmp_unit_plausible("m^3/s") == 1.0 && hs_cmp_unit_plausible("") == HS_CMP_NOLIMIT &&
              hs_cmp_unit_plausible("P") == HS_CMP_NOLIMIT,
          "units by their exact names");
    hs_model_desc_free(&d);
}

int main(void)
{
    test_component_plausibility();
    test_cavitation_warning();
    test_warning_changes_nothing();
    test_plausibility();
    return tu_report("test_simulate");
}
