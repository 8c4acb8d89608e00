/* test_sweep_search.c -- host/sweep/sweep_search.c: a sweep with method cosim_search loads as the
 * grid of H x test input x configuration (H fastest), every instance's values are those the file
 * gives (an input's left-out parameter keeps the model's value), and each class of error names
 * its line, column and key. Run from the source directory (ctest does). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hs/sweep.h"
#include "test_util.h"

static hs_sweep g_sw;
static hs_model_desc *g_md;

#define PATH "sweeps/t.yaml"
#define CRANE "model: ../models/crane_rahikainen2020_single.yaml\nmethod: cosim_search\n"
#define GRID "search: {H_ini: 1 ms, H_inc: 0.2 ms, H_max: 2 ms, h_hyd: 0.1 ms}\n"
#define CONFIGS                                                 \
    "parameters:\n"                                             \
    "  cosim.hydraulics: {values: [euler, trapezoidal, rk4]}\n" \
    "  cosim.extrapolation: {values: [0, integrate]}\n"
#define INPUTS                                                                       \
    "inputs:\n"                                                                      \
    "  - {name: step, signal.U_ref.kind: step, signal.U_ref.v_max: 10}\n"            \
    "  - {name: sine 35 Hz, signal.U_ref.kind: sine, signal.U_ref.a: 10, signal.U_ref.f: 35 Hz}\n"

static int load(const char *text, hs_error *e)
{
    hs_sweep_free(&g_sw);
    hs_model_desc_free(g_md);
    return hs_sweep_load_text(text, PATH, &g_sw, g_md, e);
}

static void expect_error(const char *what, const char *text, int code, int line, int col, const char *key,
                         const char *msg)
{
    hs_error e;
    int rc = load(text, &e);
    CHECK(rc == code, "%s: code %d, want %d (%s)", what, rc, code, e.msg);
    CHECK(e.line == line && e.col == col, "%s: at %d:%d, want %d:%d (%s)", what, e.line, e.col, line, col, e.msg);
    CHECK(!strcmp(e.key, key), "%s: key '%s', want '%s' (%s)", what, e.key, key, e.msg);
    CHECK(strstr(e.msg, msg) != NULL, "%s: message '%s' lacks '%s'", what, e.msg, msg);
    CHECK(g_sw.param == NULL && g_sw.search.input_name == NULL, "%s: a failed load holds no memory", what);
}

static int param_index(const char *name)
{
    int j;
    for (j = 0; j < g_sw.nparam; ++j)
        if (!strcmp(g_sw.param[j].name, name)) return j;
    return -1;
}

static void test_layout(void)
{
    hs_error e;
    int rc = load(CRANE "simulation: {t_end: 1 s}\n" GRID CONFIGS INPUTS, &e), jdt, jhh, jk, jv, ja, jf, jh, jx, ok;
    long i;
    CHECK(rc == HS_OK, "the search loads (%s)", e.msg);
    if (rc) return;
    CHECK(g_sw.method == HS_SAMPLE_COSIM_SEARCH && g_sw.search.nH == 6 && g_sw.search.ninput == 2,
          "6 values of H (1 to 2 ms by 0.2 ms, both ends), 2 inputs: %d, %d", g_sw.search.nH, g_sw.search.ninput);
    CHECK(g_sw.n == 6 * 2 * 3 * 2, "n = 6 H x 2 inputs x 3 x 2 configurations = %ld", g_sw.n);
    CHECK(!strcmp(g_sw.search.input_name[0], "step") && !strcmp(g_sw.search.input_name[1], "sine 35 Hz"),
          "the inputs' names");
    CHECK(g_sw.coupling == HS_COUPLE_COSIM && g_md->model.coupling == HS_COUPLE_COSIM, "the search co-simulates");
    jdt = param_index("integrator.dt");
    jhh = param_index("cosim.h_hyd");
    jk = param_index("signal.U_ref.kind");
    jv = param_index("signal.U_ref.v_max");
    ja = param_index("signal.U_ref.a");
    jf = param_index("signal.U_ref.f");
    jh = param_index("cosim.hydraulics");
    jx = param_index("cosim.extrapolation");
    CHECK(jdt == 0 && jhh == 1 && jk == 2 && jv == 3 && ja == 4 && jf == 5 && jh == 6 && jx == 7 &&
              g_sw.nparam == 8,
          "parameters: H, h_hyd, the inputs' in order of appearance, the configurations");
    CHECK(g_sw.search.dim_input == 2 && g_sw.search.dim_config == 3 && g_sw.param[jf].dim == 2 &&
              g_sw.param[jx].dim == 4,
          "dimensions: H 0, h_hyd 1, inputs 2 (shared), configurations 3, 4");
    ok = 1;
    for (i = 0; i < g_sw.n; ++i) {
        long kH = i % 6, kin = (i / 6) % 2, kh = (i / 12) % 3, kx = i / 36;
        double H = hs_sweep_sample(&g_sw, i, jdt), f = hs_sweep_sample(&g_sw, i, jf);
        ok &= fabs(H - (1e-3 + 2e-4 * (double)kH)) < 1e-15;
        ok &= hs_sweep_sample(&g_sw, i, jhh) == 1e-4;
        ok &= hs_sweep_sample(&g_sw, i, jk) == (kin == 0 ? 1.0 : 4.0); /* step, sine */
        /* left out by an input: the model's value (v_max 0 and f 1 Hz: hs_test_input.h) */
        ok &= hs_sweep_sample(&g_sw, i, jv) == (kin == 0 ? 10.0 : 0.0);
        ok &= hs_sweep_sample(&g_sw, i, ja) == (kin == 0 ? 0.0 : 10.0);
        ok &= f == (kin == 0 ? 1.0 : 35.0);
        ok &= hs_sweep_sample(&g_sw, i, jh) == (double)kh; /* euler 0, trapezoidal 1, rk4 2 */
        ok &= hs_sweep_sample(&g_sw, i, jx) == (kx == 0 ? 0.0 : 5.0); /* 0, integrate */
    }
    CHECK(ok, "every instance's values: H fastest, then the input, then the configurations in file order");
    /* without h_hyd the model's (0.1 ms), without parameters one configuration, one input that
     * sets nothing */
    rc = load(CRANE "search: {H_ini: 1 ms, H_inc: 1 ms, H_max: 3.5 ms}\ninputs: [{name: as the model}]\n", &e);
    CHECK(rc == HS_OK && g_sw.n == 3 && g_sw.nparam == 1 && g_sw.search.dim_input == -1,
          "one configuration, one input of the model's signals: 3 instances (H = 1, 2, 3 ms; 3.5 is off the "
          "grid) (%s)",
          e.msg);
}

static void test_errors(void)
{
    expect_error("dt in simulation", CRANE "simulation: {dt: 1 ms}\n" GRID INPUTS, HS_ERR_VALUE, 3, 18,
                 "simulation.dt", "leave simulation.dt out");
    expect_error("monolithic coupling", CRANE "simulation: {coupling: monolithic}\n" GRID INPUTS, HS_ERR_VALUE, 3,
                 24, "simulation.coupling", "coupling must be cosim");
    expect_error("instances", CRANE "instances: 4\n" GRID INPUTS, HS_ERR_VALUE, 3, 12, "instances",
                 "leave instances out");
    expect_error("no search", CRANE INPUTS, HS_ERR_SCHEMA, 1, 1, "search", "");
    expect_error("no inputs", CRANE GRID, HS_ERR_SCHEMA, 1, 1, "inputs", "");
    expect_error("search: on a grid", "model: ../models/crane_rahikainen2020_single.yaml\nmethod: grid\n" GRID,
                 HS_ERR_SCHEMA, 3, 1, "search", "belongs to method cosim_search");
    expect_error("H off the h_hyd grid",
                 CRANE "search: {H_ini: 1 ms, H_inc: 0.25 ms, H_max: 2 ms, h_hyd: 0.1 ms}\n" INPUTS, HS_ERR_VALUE,
                 3, 30, "search.H_inc", "not a whole multiple of h_hyd");
    expect_error("H_ini off the model's h_hyd", CRANE "search: {H_ini: 0.05 ms, H_inc: 0.1 ms, H_max: 1 ms}\n" INPUTS,
                 HS_ERR_VALUE, 3, 17, "search.H_ini", "(the model's cosim.h_hyd)");
    expect_error("H_max < H_ini", CRANE "search: {H_ini: 2 ms, H_inc: 1 ms, H_max: 1 ms}\n" INPUTS, HS_ERR_VALUE, 3,
                 43, "search.H_max", "must be >= H_ini");
    expect_error("every H above t_end",
                 CRANE "simulation: {t_end: 1 ms}\nsearch: {H_ini: 2 ms, H_inc: 0.2 ms, H_max: 3 ms, h_hyd: 0.1 ms}\n" INPUTS,
                 HS_ERR_VALUE, 4, 17, "search.H_ini", "H_ini = 0.002 s is more than t_end = 0.001 s: no communication step");
    expect_error("H unit", CRANE "search: {H_ini: 2 m, H_inc: 1 ms, H_max: 3 ms}\n" INPUTS, HS_ERR_SCHEMA, 3, 17,
                 "search.H_ini", "");
    expect_error("too fine a grid", CRANE "search: {H_ini: 0.1 ms, H_inc: 0.1 ms, H_max: 1 s}\n" INPUTS,
                 HS_ERR_LIMIT, 3, 32, "search.H_inc", "more than 1000");
    expect_error("dt as a configuration", CRANE GRID "parameters:\n  integrator.dt: {values: [1 ms]}\n" INPUTS,
                 HS_ERR_VALUE, 5, 3, "parameters.integrator.dt", "search: H_ini, H_inc, H_max");
    expect_error("a drawn configuration", CRANE GRID "parameters:\n  valve.dcv.Cv: {uniform: [1e-8, 2e-8]}\n" INPUTS,
                 HS_ERR_SCHEMA, 5, 18, "parameters.valve.dcv.Cv.uniform", "method cosim_search takes value lists");
    expect_error("unnamed input", CRANE GRID "inputs:\n  - {signal.U_ref.kind: step}\n", HS_ERR_SCHEMA, 5, 5,
                 "inputs[0].name", "");
    expect_error("input named twice", CRANE GRID "inputs:\n  - {name: a, signal.U_ref.kind: step}\n"
                                                 "  - {name: a, signal.U_ref.kind: ramp}\n",
                 HS_ERR_VALUE, 6, 12, "inputs[1].name", "named twice (first at line 5)");
    expect_error("unknown input parameter", CRANE GRID "inputs:\n  - {name: a, signal.U_rf.kind: step}\n",
                 HS_ERR_VALUE, 5, 15, "inputs[0].signal.U_rf.kind", "did you mean signal.U_ref.kind");
    expect_error("input sets a configuration",
                 CRANE GRID "parameters:\n  cosim.hydraulics: {values: [euler]}\n"
                            "inputs:\n  - {name: a, cosim.hydraulics: rk4}\n",
                 HS_ERR_VALUE, 7, 15, "inputs[0].cosim.hydraulics", "is a configuration");
    expect_error("input sets H", CRANE GRID "inputs:\n  - {name: a, integrator.dt: 2 ms}\n", HS_ERR_VALUE, 5, 15,
                 "inputs[0].integrator.dt", "the search sets integrator.dt itself");
    expect_error("input kind unknown", CRANE GRID "inputs:\n  - {name: a, signal.U_ref.kind: saw}\n", HS_ERR_VALUE,
                 5, 34, "inputs[0].signal.U_ref.kind", "one of: knots, step, ramp, impulse, sine");
    expect_error("test-input parameter out of range",
                 CRANE GRID "inputs:\n  - {name: a, signal.U_ref.kind: step}\n"
                            "  - {name: b, signal.U_ref.kind: sine, signal.U_ref.f: -3 Hz}\n",
                 HS_ERR_VALUE, 6, 40, "inputs[1].signal.U_ref.f", "test input 'b'");
    expect_error("inputs setting nothing", CRANE GRID "inputs:\n  - {name: a}\n  - {name: b}\n", HS_ERR_VALUE, 6, 5,
                 "inputs[1]", "sets no parameter");
    expect_error("no cylinder",
                 "model: ../models/double_pendulum.yaml\nmethod: cosim_search\n" GRID INPUTS, HS_ERR_VALUE, 2,
                 9, "method", "has no hydraulic cylinder");
}

int main(void)
{
    g_md = (hs_model_desc *)calloc(1, sizeof *g_md);
    if (!g_md) return 1;
    test_layout();
    test_errors();
    hs_sweep_free(&g_sw);
    hs_model_desc_free(g_md);
    free(g_md);
    return tu_report("test_sweep_search");
}
