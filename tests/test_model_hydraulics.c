/* test_model_hydraulics.c -- the hydraulic sections of a model file (fluid, sources, volumes,
 * throttles, 4/3 valves, cylinders with friction, end dampers and init modes): loaded values
 * and derived ones, the parameter table (the enum parameter friction.model included), changing
 * parameters, and that each class of error names the right line, column and key. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hs/model_file.h"
#include "model/model_names.h"
#include "test_util.h"

static hs_model_desc *g_d; /* one heap descriptor (it is tens of kB) reused by every test */

/* A circuit like Pub. I of seed 004 (pump, tank, DCV, throttle, one cylinder on a crank). One
 * line per array entry, so that the error tests can replace a line and know its number. */
static const char *const k_base[] = {
    "name: pub1_like",
    "gravity: [0, -9.81, 0]",
    "bodies:",
    "  - {name: crank, shape: beam, mass: 50 kg, length: 1 m, width: 0.05 m, height: 0.05 m}",
    "joints:",
    "  - {name: j1, type: revolute, parent: ground, child: crank, axis: [0, 0, 1], z0: -30 deg}",
    "signals:",
    "  - {name: uref, knots: [[0, 0], [1 s, 10 V]]}",
    "fluid:",
    "  B_oil: 1500 MPa",
    "  rho: 850 kg/m^3",
    "hydraulics:",
    "  sources:",
    "    - {name: pump, p: 7.6 MPa}",
    "    - {name: tank, p: 0.1 MPa}",
    "  volumes:",
    "    - {name: valve, V: 3.14e-5 m^3, B: 550 MPa, p0: 4.14 MPa}",
    "    - {name: piston, V: 0, B: 1500 MPa}",
    "    - {name: rod, V: 2 cm^3, B: 1500 MPa, p0: 3.5 MPa}",
    "  throttles:",
    "    - {name: thr, from: valve, to: piston, Cd: 0.8, A: 2.83e-5 m^2}",
    "  valves:",
    "    - name: dcv",
    "      P: pump",
    "      T: tank",
    "      A: valve",
    "      B: rod",
    "      Cv: 2.138e-8",
    "      k_AT: 0.5",
    "      tau: 4.5 ms",
    "      U_ref: uref",
    "  cylinders:",
    "    - name: lift",
    "      body_a: ground",
    "      at_a: [0, -1, 0]",
    "      body_b: crank",
    "      at_b: [0.5, 0, 0]",
    "      d_piston: 80 mm",
    "      d_rod: 35 mm",
    "      stroke: 0.7 m",
    "      l_piston0: 0.2 m",
    "      B_wall: 31500 MPa",
    "      piston_volume: piston",
    "      rod_volume: rod",
    "      friction: {model: brown_mcphee, Fc: 210 N, Fs: 830 N, vs: 0.0125 m/s, sigma2: 330 Ns/m}",
    "      end_dampers: {l_d: 8 mm, k_d: 1e7 N/m, c_d: 5e3 Ns/m}",
    "      init: {mode: equilibrium, p_rod: 3.5 MPa}",
    "integrator: {dt: 1 ms, t_end: 1 s, tol_pressure: 1 Pa}",
    NULL};

static char g_text[16384];

/* A mechanism of one point body on a revolute joint, for the texts without the base model */
#define MECH                                                                                                 \
    "bodies: [{name: a, shape: point, mass: 1}]\n"                                                          \
    "joints: [{name: j, type: revolute, parent: ground, child: a, axis: [0, 0, 1]}]\n"

/* The base model with up to three lines replaced: the line containing find[k] (unique) by
 * repl[k] (may hold several lines; NULL, or repl NULL, deletes the line). Returns the text; *line gets the
 * 1-based number of the first replaced line in the result (0 if none). */
static const char *variant3(const char *const find[3], const char *const repl[3], int *line)
{
    size_t used = 0;
    int i, k, out_line = 1;
    if (line) *line = 0;
    g_text[0] = '\0';
    for (i = 0; k_base[i]; ++i) {
        const char *r = k_base[i];
        int hit = 0;
        for (k = 0; k < 3; ++k)
            if (find[k] && strstr(k_base[i], find[k])) {
                r = repl ? repl[k] : NULL;
                hit = 1;
                if (line && !*line) *line = out_line;
                break;
            }
        if (!r) continue;
        used += (size_t)snprintf(g_text + used, sizeof g_text - used, "%s\n", r);
        out_line += 1;
        if (hit) {
            const char *p;
            for (p = r; *p; ++p) out_line += *p == '\n';
        }
    }
    return g_text;
}

static const char *variant(const char *find, const char *repl, int *line)
{
    return variant3((const char *const[3]){find, NULL, NULL}, (const char *const[3]){repl, NULL, NULL}, line);
}

static int load(const char *text, hs_error *e)
{
    hs_model_desc_free(g_d);
    return hs_model_load_text(text, "h.yaml", g_d, e);
}

/* 1-based column of marker inside the line s. */
static int col_of(const char *s, const char *marker)
{
    const char *p = strstr(s, marker);
    return p ? (int)(p - s) + 1 : -1;
}

static void expect_error(const char *what, const char *text, int code, int line, int col,
                         const char *key, const char *msg)
{
    hs_error e;
    tu_check_error(what, load(text, &e), &e, code, "h.yaml", line, col, key, msg);
}

static double pget(const char *name)
{
    return hs_param_get(g_d, hs_param_find(g_d, name));
}

static void test_values(void)
{
    const hs_model *m = &g_d->model;
    hs_error e;
    int rc = load(variant(NULL, NULL, NULL), &e), i;
    CHECK(rc == HS_OK, "base model: %d:%d %s %s", e.line, e.col, e.key, e.msg);
    if (rc != HS_OK) return;
    CHECK(m->nvol == 3 && m->nsrc == 2 && m->nthr == 1 && m->ndcv == 1 && m->ncyl == 1, "sizes");
    CHECK(m->nfs == 0 && m->nx == m->nz + 3 && m->nz == 1, "nx = nz + nvol for brown_mcphee");
    CHECK(m->B_oil == 1.5e9 && m->rho == 850.0, "fluid");
    CHECK(!strcmp(g_d->src_name[0], "pump") && !strcmp(g_d->src_name[1], "tank") &&
              !strcmp(g_d->vol_name[2], "rod") && !strcmp(g_d->thr_name[0], "thr") &&
              !strcmp(g_d->dcv_name[0], "dcv") && !strcmp(g_d->cyl_name[0], "lift"),
          "names");
    CHECK(m->src_p[0] == 7.6e6 && m->src_p[1] == 1e5, "source pressures");
    CHECK_CLOSE(m->vol_V[0], 3.14e-5, 1e-15, "V");
    CHECK(m->vol_V[1] == 0.0, "chamber with no hose volume");
    CHECK_CLOSE(m->vol_V[2], 2e-6, 1e-15, "V 2 cm^3");
    CHECK(m->vol_B[0] == 5.5e8 && m->vol_B[1] == 1.5e9, "B");
    CHECK_CLOSE(m->vol_p0[0], 4.14e6, 1e-15, "p0");
    CHECK(m->vol_p0[1] == 1e5, "p0 default 0.1 MPa");
    CHECK(m->vol_cyl[0] == -1 && m->vol_cyl[1] == 0 && m->vol_cyl[2] == 0 &&
              m->vol_side[1] == 0 && m->vol_side[2] == 1,
          "vol_cyl / vol_side");
    /* nodes: volumes 0..2, then sources 3..4 */
    CHECK(m->thr_a[0] == 0 && m->thr_b[0] == 1, "throttle nodes");
    CHECK(m->thr_Cd[0] == 0.8 && m->thr_A[0] == 2.83e-5 && m->thr_Cv_given[0] == 0.0,
          "throttle Cd, A");
    CHECK(m->thr_dplim[0] == 2e5, "throttle dp_lim default 2 bar");
    CHECK_CLOSE(m->thr_Cv[0], 0.8 * 2.83e-5 * sqrt(2.0 / 850.0), 1e-14, "thr_Cv derived");
    CHECK(m->dcv_P[0] == 3 && m->dcv_T[0] == 4 && m->dcv_A[0] == 0 && m->dcv_B[0] == 2,
          "valve ports");
    CHECK(m->dcv_Cv[0] == 2.138e-8, "valve Cv");
    CHECK(m->dcv_kpath[0][0] == 1.0 && m->dcv_kpath[0][1] == 1.0 && m->dcv_kpath[0][2] == 1.0 &&
              m->dcv_kpath[0][3] == 0.5,
          "path factors PA BT PB AT");
    CHECK_CLOSE(m->dcv_tau[0], 4.5e-3, 1e-15, "tau");
    CHECK(m->dcv_dplim[0] == 2e5 && m->dcv_U0[0] == 0.0 && m->dcv_sig[0] == 0, "valve defaults");
    CHECK(m->knot_v[1] == 10.0, "signal value in V");
    CHECK(m->cyl_body_a[0] == -1 && m->cyl_body_b[0] == 0, "cylinder bodies");
    CHECK(m->cyl_at_a[0][1] == -1.0 && m->cyl_at_b[0][0] == 0.5, "cylinder points");
    CHECK_CLOSE(m->cyl_d_piston[0], 0.08, 1e-15, "d_piston");
    CHECK_CLOSE(m->cyl_d_rod[0], 0.035, 1e-15, "d_rod");
    CHECK(m->cyl_stroke[0] == 0.7 && m->cyl_l_p0[0] == 0.2 && m->cyl_B[0] == 3.15e10,
          "stroke, l_piston0, B_wall");
    CHECK_CLOSE(m->cyl_Ap[0], HS_PI * 0.04 * 0.04, 1e-14, "A_p = pi 0.04^2");
    CHECK_CLOSE(m->cyl_Ar[0], HS_PI * (0.04 * 0.04 - 0.0175 * 0.0175), 1e-14, "A_r");
    CHECK(m->cyl_vol_p[0] == 1 && m->cyl_vol_r[0] == 2, "chambers");
    CHECK(m->cyl_fric[0] == HS_FRIC_BROWN_MCPHEE, "friction model");
    CHECK(m->cyl_fp[0][HS_FP_FC] == 210.0 && m->cyl_fp[0][HS_FP_FS] == 830.0 &&
              m->cyl_fp[0][HS_FP_VS] == 0.0125 && m->cyl_fp[0][HS_FP_SIGMA2] == 330.0,
          "friction values");
    CHECK(m->cyl_fp[0][HS_FP_SIGMA0] == 1e7 && m->cyl_fp[0][HS_FP_SIGMA1] == 1e3 &&
              m->cyl_fp[0][HS_FP_XI] == 0.0 && m->cyl_fp[0][HS_FP_N] == 2.0 &&
              m->cyl_fp[0][HS_FP_VB] == 0.0 && m->cyl_fp[0][HS_FP_TAU_HP] == 0.1 &&
              m->cyl_fp[0][HS_FP_TAU_HN] == 0.05 && m->cyl_fp[0][HS_FP_TAU_H0] == 1.0 &&
              m->cyl_fp[0][HS_FP_ETA] == 1.0 && m->cyl_fp[0][HS_FP_C] == 0.0 &&
              m->cyl_fp[0][HS_FP_VEPS] == 1e-3,
          "friction defaults");
    CHECK_CLOSE(m->cyl_ld[0], 8e-3, 1e-15, "l_d");
    CHECK(m->cyl_kd[0] == 1e7 && m->cyl_cd[0] == 5e3, "k_d, c_d");
    CHECK(m->cyl_init[0] == HS_CYLINIT_EQ_PROD && m->cyl_init_p[0] == 3.5e6, "init");
    CHECK(m->tol_p == 1.0 && m->tol_fs == 1e-7, "tol_pressure, tol_friction default");

    /* parameters */
    {
        static const char *const present[] = {
            "fluid.B_oil", "fluid.rho", "source.pump.p", "source.tank.p", "volume.valve.V",
            "volume.piston.B", "volume.rod.p0", "throttle.thr.Cd", "throttle.thr.A",
            "throttle.thr.dp_lim", "valve.dcv.Cv", "valve.dcv.k_PA", "valve.dcv.k_BT",
            "valve.dcv.k_PB", "valve.dcv.k_AT", "valve.dcv.tau", "valve.dcv.dp_lim",
            "valve.dcv.U0", "cylinder.lift.at_a.x", "cylinder.lift.at_b.z",
            "cylinder.lift.d_piston", "cylinder.lift.d_rod", "cylinder.lift.stroke",
            "cylinder.lift.l_piston0", "cylinder.lift.B_wall", "cylinder.lift.friction.model",
            "cylinder.lift.friction.Fc", "cylinder.lift.friction.sigma0",
            "cylinder.lift.friction.tau_h0", "cylinder.lift.friction.v_eps",
            "cylinder.lift.end_dampers.l_d", "cylinder.lift.end_dampers.k_d",
            "cylinder.lift.end_dampers.c_d", "cylinder.lift.init.p", "integrator.tol_pressure",
            "integrator.tol_friction", NULL};
        static const char *const absent[] = {"throttle.thr.Cv", "cylinder.lift.init.F",
                                             "valve.dcv.f45", "volume.pump.p0", NULL};
        int nf = 0;
        for (i = 0; present[i]; ++i)
            CHECK(hs_param_find(g_d, present[i]) >= 0, "param %s", present[i]);
        for (i = 0; absent[i]; ++i)
            CHECK(hs_param_find(g_d, absent[i]) < 0, "no param %s", absent[i]);
        for (i = 0; i < g_d->nparam; ++i) {
            const hs_param *p = &g_d->param[i];
            nf += !strncmp(p->name, "cylinder.lift.friction.", 23);
            CHECK(p->offset % (p->type == HS_PARAM_ENUM ? sizeof(int) : sizeof(double)) == 0 &&
                      p->offset + sizeof(double) <= sizeof(hs_model),
                  "offset of %s", p->name);
        }
        CHECK(nf == 1 + HS_FP_COUNT, "every friction parameter: %d", nf);
        i = hs_param_find(g_d, "cylinder.lift.friction.model");
        CHECK(i >= 0 && g_d->param[i].type == HS_PARAM_ENUM &&
                  g_d->param[i].n_enum == HS_FRICTION_COUNT &&
                  g_d->param[i].offset == offsetof(hs_model, cyl_fric),
              "friction.model is an enum parameter on cyl_fric");
        CHECK(hs_param_get(g_d, i) == (double)HS_FRIC_BROWN_MCPHEE, "enum value as double");
        CHECK(hs_param_value_name(g_d, i) && !strcmp(hs_param_value_name(g_d, i), "brown_mcphee"),
              "enum value name");
        CHECK(hs_param_value_name(g_d, hs_param_find(g_d, "fluid.rho")) == NULL,
              "no value name for a double");
        i = hs_param_find(g_d, "fluid.rho");
        CHECK(i >= 0 && !strcmp(g_d->param[i].unit, "kg/m^3") &&
                  g_d->param[i].type == HS_PARAM_DOUBLE,
              "rho unit");
        CHECK(pget("cylinder.lift.init.p") == 3.5e6 && pget("valve.dcv.k_AT") == 0.5 &&
                  pget("cylinder.lift.friction.Fs") == 830.0,
              "parameter values");
        /* order: mechanism, fluid, sources, volumes, throttles, valves, cylinders, integrator,
         * co-simulation (a model with a cylinder) */
        {
            static const char *const order[] = {
                "signal.uref.v.1", "fluid.B_oil", "fluid.rho", "source.pump.p", "source.tank.p",
                "volume.valve.V", "volume.rod.p0", "throttle.thr.Cd", "throttle.thr.dp_lim",
                "valve.dcv.Cv", "valve.dcv.U0", "cylinder.lift.at_a.x", "cylinder.lift.init.p",
                "integrator.dt", "integrator.tol_friction", "integrator.newton", "integrator.step",
                "integrator.rtol", "integrator.atol_spool", "integrator.h_max", "integrator.coupling",
                "cosim.mechanics", "cosim.extrapolation", "cosim.h_hyd", "cosim.i1al_xi", "cosim.i1al_omega",
                NULL};
            for (i = 1; order[i]; ++i)
                CHECK(hs_param_find(g_d, order[i - 1]) < hs_param_find(g_d, order[i]),
                      "parameter order: %s before %s", order[i - 1], order[i]);
            CHECK(hs_param_find(g_d, "cosim.i1al_omega") == g_d->nparam - 1, "cosim.i1al_omega last");
        }
    }
}

static void test_variants(void)
{
    const hs_model *m = &g_d->model;
    hs_error e;
    int rc;
    /* f45 instead of tau: tau = 1 / (2 pi f45) */
    rc = load(variant("tau: 4.5 ms", "      f45: 35 Hz", NULL), &e);
    CHECK(rc == HS_OK, "f45: %s %s", e.key, e.msg);
    if (rc == HS_OK) {
        CHECK_CLOSE(m->dcv_tau[0], 1.0 / (2.0 * HS_PI * 35.0), 1e-14, "tau from f45");
        CHECK(fabs(m->dcv_tau[0] - 4.547e-3) < 1e-6, "tau from f45 = 4.547 ms");
        CHECK(hs_param_find(g_d, "valve.dcv.tau") >= 0, "f45 gives the parameter tau");
    }
    /* Cv instead of Cd and A; U0; kpath; no U_ref */
    rc = load(variant3((const char *const[3]){"name: thr", "U_ref", "k_AT"},
                       (const char *const[3]){"    - {name: thr, from: piston, to: tank, Cv: 3e-9, dp_lim: 1 bar}",
                                              "      U0: -2.5 V", NULL},
                       NULL),
              &e);
    CHECK(rc == HS_OK, "Cv throttle: %s %s", e.key, e.msg);
    if (rc == HS_OK) {
        CHECK(m->thr_a[0] == 1 && m->thr_b[0] == 4, "volume to source");
        CHECK(m->thr_Cv_given[0] == 3e-9 && m->thr_Cv[0] == 3e-9 && m->thr_dplim[0] == 1e5, "thr Cv given");
        CHECK(hs_param_find(g_d, "throttle.thr.Cv") >= 0 && hs_param_find(g_d, "throttle.thr.Cd") < 0 &&
                  hs_param_find(g_d, "throttle.thr.A") < 0,
              "Cv parameter instead of Cd and A");
        CHECK(m->dcv_sig[0] == -1 && m->dcv_U0[0] == -2.5 && m->dcv_kpath[0][3] == 1.0, "no U_ref, U0");
    }
    /* no friction, no dampers, no init: defaults */
    rc = load(variant3((const char *const[3]){"friction:", "end_dampers:", "init:"}, NULL, NULL), &e);
    CHECK(rc == HS_OK, "plain cylinder: %s %s", e.key, e.msg);
    if (rc == HS_OK) {
        CHECK(m->cyl_fric[0] == HS_FRIC_NONE && m->cyl_ld[0] == 0.0 && m->cyl_init[0] == HS_CYLINIT_PRESSURES &&
                  m->nfs == 0,
              "defaults none / no dampers / pressures");
        CHECK(m->cyl_fp[0][HS_FP_VS] == 0.01 && m->cyl_fp[0][HS_FP_SIGMA0] == 1e7,
              "friction defaults without a friction section");
        CHECK(hs_param_find(g_d, "cylinder.lift.end_dampers.l_d") < 0 &&
                  hs_param_find(g_d, "cylinder.lift.init.p") < 0 &&
                  hs_param_find(g_d, "cylinder.lift.friction.vs") >= 0,
              "optional parameters");
    }
    /* LuGre: one friction state; modified LuGre: two */
    rc = load(variant("friction:", "      friction: {model: lugre, Fc: 210 N, Fs: 830 N, "
                                   "sigma0: 2e6 N/m, n: 1}", NULL), &e);
    CHECK(rc == HS_OK && m->nfs == 1 && m->cyl_nfs[0] == 1 && m->cyl_fs0[0] == 0 &&
              m->nx == m->nz + m->nvol + 1,
          "lugre: nfs %d nx %d (%s)", m->nfs, m->nx, e.msg);
    rc = load(variant("friction:", "      friction: {model: lugre_modified, Fc: 210 N, Fs: 830 N, "
                                   "vb: 0.0375 m/s, xi: 80 s/m, tau_hp: 0.2 s}", NULL), &e);
    CHECK(rc == HS_OK && m->nfs == 2 && m->cyl_nfs[0] == 2 && m->nx == m->nz + m->nvol + 2,
          "lugre_modified: nfs %d nx %d (%s)", m->nfs, m->nx, e.msg);
    CHECK(m->cyl_fp[0][HS_FP_XI] == 80.0 && m->cyl_fp[0][HS_FP_VB] == 0.0375 &&
              m->cyl_fp[0][HS_FP_TAU_HP] == 0.2,
          "xi in s/m, vb, tau_hp");
    /* init modes */
    rc = load(variant("init:", "      init: {mode: equilibrium, p_piston: 2 MPa}", NULL), &e);
    CHECK(rc == HS_OK && m->cyl_init[0] == HS_CYLINIT_EQ_PPISTON && m->cyl_init_p[0] == 2e6,
          "equilibrium with p_piston: %s", e.msg);
    rc = load(variant("init:", "      init: {mode: force, F: -12 kN, p_rod: 1 MPa}", NULL), &e);
    CHECK(rc == HS_OK && m->cyl_init[0] == HS_CYLINIT_FORCE && m->cyl_init_F[0] == -12e3 &&
              m->cyl_init_p[0] == 1e6 && pget("cylinder.lift.init.F") == -12e3,
          "force mode: %s", e.msg);
    rc = load(variant("init:", "      init: {mode: pressures}", NULL), &e);
    CHECK(rc == HS_OK && m->cyl_init[0] == HS_CYLINIT_PRESSURES, "pressures mode: %s", e.msg);
    /* a fluid section alone is allowed and gives its parameters */
    rc = load("name: f\n" MECH "fluid: {B_oil: 1.5 GPa, rho: 850}\n", &e);
    CHECK(rc == HS_OK && m->nx == 1 && hs_param_find(g_d, "fluid.rho") >= 0, "fluid only: %s",
          e.msg);
    /* no hydraulics at all: no hydraulic parameters, but the integrator tolerances */
    rc = load("name: f\n" MECH, &e);
    CHECK(rc == HS_OK && hs_param_find(g_d, "fluid.rho") < 0 &&
              hs_param_find(g_d, "integrator.tol_pressure") >= 0 && m->tol_p == 1e-2,
          "mechanism only");
}

static hs_error g_e; /* the error of the last set_is or set_str_is */

/* A set returned rc: it must be code, with the key key and a message containing msg (NULL: not
 * checked). */
static int set_result(int rc, int code, const char *key, const char *msg)
{
    return rc == code && (!key || !strcmp(g_e.key, key)) && (!msg || strstr(g_e.msg, msg));
}

static int set_is(const char *name, double v, int code, const char *key, const char *msg)
{
    return set_result(hs_param_set(g_d, name, v, &g_e), code, key, msg);
}

static int set_str_is(const char *assignment, int code, const char *key, const char *msg)
{
    return set_result(hs_param_set_string(g_d, assignment, &g_e), code, key, msg);
}

static void test_set(void)
{
    const hs_model *m = &g_d->model;
    const char *fm = "cylinder.lift.friction.model";
    hs_error e;
    int rc, nx0;
    rc = load(variant(NULL, NULL, NULL), &e);
    CHECK(rc == HS_OK, "reload: %s", e.msg);
    if (rc != HS_OK) return;
    nx0 = m->nx;

    /* switching the friction model changes the friction states and nx */
    rc = hs_param_set_string(g_d, "cylinder.lift.friction.model=lugre", &e);
    CHECK(rc == HS_OK && m->cyl_fric[0] == HS_FRIC_LUGRE && m->nfs == 1 && m->nx == nx0 + 1,
          "--set ...=lugre: rc %d nx %d (%s)", rc, m->nx, e.msg);
    CHECK(pget(fm) == 4.0 && !strcmp(hs_param_value_name(g_d, hs_param_find(g_d, fm)), "lugre"),
          "get lugre");
    CHECK(set_str_is("cylinder.lift.friction.model = lugre_modified ", HS_OK, NULL, NULL) && m->nfs == 2 &&
              m->nx == nx0 + 2,
          "lugre_modified: %s", g_e.msg);
    CHECK(set_str_is("cylinder.lift.friction.model=0", HS_OK, NULL, NULL) && m->cyl_fric[0] == HS_FRIC_NONE &&
              m->nx == nx0,
          "integer value 0");
    CHECK(set_is(fm, 7.0, HS_OK, NULL, NULL) && m->cyl_fric[0] == HS_FRIC_EFFICIENCY, "hs_param_set 7: %s", g_e.msg);
    CHECK(set_str_is("cylinder.lift.friction.model=coulomb", HS_ERR_ARG, fm, "lugre_modified (5)") &&
              m->cyl_fric[0] == HS_FRIC_EFFICIENCY,
          "unknown model name: %s", g_e.msg);
    CHECK(set_str_is("cylinder.lift.friction.model=8", HS_ERR_ARG, NULL, NULL) && m->cyl_fric[0] == HS_FRIC_EFFICIENCY,
          "8 out of range");
    CHECK(set_str_is("cylinder.lift.friction.model=1.5", HS_ERR_ARG, NULL, NULL), "1.5 is not a model");
    CHECK(set_is(fm, -1.0, HS_ERR_VALUE, NULL, "must be one of") && m->cyl_fric[0] == HS_FRIC_EFFICIENCY,
          "-1 refused: %s", g_e.msg);

    /* a switch is refused when the new model's rules fail, and nothing changes */
    CHECK(set_is(fm, HS_FRIC_BROWN_MCPHEE, HS_OK, NULL, NULL), "back to brown_mcphee");
    CHECK(set_is("cylinder.lift.friction.sigma0", 0.0, HS_OK, NULL, NULL),
          "sigma0 = 0 is fine while brown_mcphee does not use it: %s", g_e.msg);
    CHECK(set_str_is("cylinder.lift.friction.model=lugre", HS_ERR_VALUE, "cylinder.lift.friction.sigma0",
                     "sigma0 must be > 0") &&
              m->cyl_fric[0] == HS_FRIC_BROWN_MCPHEE && m->nx == nx0 && m->nfs == 0,
          "lugre with sigma0 = 0 refused: %s %s", g_e.key, g_e.msg);
    CHECK(set_is("cylinder.lift.friction.sigma0", 1e6, HS_OK, NULL, NULL), "sigma0 back");
    CHECK(set_is("cylinder.lift.friction.Fc", 900.0, HS_ERR_VALUE, "cylinder.lift.friction.Fc", "0 <= Fc <= Fs") &&
              m->cyl_fp[0][HS_FP_FC] == 210.0,
          "Fc > Fs refused: %s %s", g_e.key, g_e.msg);
    CHECK(set_is("cylinder.lift.friction.vs", 0.0, HS_ERR_VALUE, NULL, "vs must be > 0"), "vs = 0: %s", g_e.msg);
    CHECK(set_is("cylinder.lift.friction.sigma2", -1.0, HS_ERR_VALUE, NULL, "sigma2"), "sigma2 < 0");
    CHECK(set_is(fm, HS_FRIC_EFFICIENCY_PRINTED, HS_OK, NULL, NULL), "efficiency_as_printed");
    CHECK(set_is("cylinder.lift.friction.eta", 1.2, HS_ERR_VALUE, NULL, "0 < eta <= 1"), "eta > 1: %s", g_e.msg);
    CHECK(set_is("cylinder.lift.friction.eta", 0.88, HS_OK, NULL, NULL) && m->cyl_fp[0][HS_FP_ETA] == 0.88,
          "eta 0.88");
    CHECK(set_is("cylinder.lift.friction.v_eps", 0.0, HS_OK, NULL, NULL), "v_eps unused by efficiency_as_printed");
    CHECK(set_is(fm, HS_FRIC_EFFICIENCY, HS_ERR_VALUE, NULL, "v_eps"), "efficiency needs v_eps > 0");
    CHECK(set_is("cylinder.lift.friction.v_eps", 1e-3, HS_OK, NULL, NULL), "v_eps back");
    CHECK(set_is(fm, HS_FRIC_VISCOUS, HS_OK, NULL, NULL), "viscous");
    CHECK(set_is("cylinder.lift.friction.c", -5.0, HS_ERR_VALUE, NULL, "c must be >= 0"), "viscous c < 0");

    /* geometry and fluid values re-derive the areas and the throttle coefficient */
    CHECK(set_str_is("cylinder.lift.d_piston=100 mm", HS_OK, NULL, NULL), "d_piston: %s", g_e.msg);
    CHECK_CLOSE(m->cyl_Ap[0], HS_PI * 0.05 * 0.05, 1e-14, "A_p re-derived");
    CHECK(set_str_is("fluid.rho=900 kg/m^3", HS_OK, NULL, NULL), "rho: %s", g_e.msg);
    CHECK_CLOSE(m->thr_Cv[0], 0.8 * 2.83e-5 * sqrt(2.0 / 900.0), 1e-14, "thr_Cv re-derived");
    hs_param_set_string(g_d, "throttle.thr.Cd=0.6", &e);
    CHECK_CLOSE(m->thr_Cv[0], 0.6 * 2.83e-5 * sqrt(2.0 / 900.0), 1e-14, "thr_Cv after Cd");
    CHECK(set_is("cylinder.lift.d_rod", 0.1, HS_ERR_VALUE, "cylinder.lift.d_rod", "< d_piston") &&
              m->cyl_d_rod[0] == 0.035,
          "d_rod = d_piston refused: %s %s", g_e.key, g_e.msg);
    CHECK(set_is("cylinder.lift.l_piston0", 0.7, HS_ERR_VALUE, NULL, "l_piston0 < stroke"), "l_piston0 = stroke");
    CHECK(set_is("valve.dcv.tau", 0.0, HS_ERR_VALUE, "valve.dcv.tau", NULL), "tau = 0");
    CHECK(set_is("throttle.thr.A", 0.0, HS_ERR_VALUE, "throttle.thr.A", NULL), "A = 0: %s", g_e.key);
    CHECK(set_is("volume.valve.V", 0.0, HS_ERR_VALUE, NULL, "cylinder chamber"), "hose V = 0: %s", g_e.msg);
    CHECK(set_is("volume.piston.V", 1e-6, HS_OK, NULL, NULL), "chamber V > 0 is fine");
    CHECK(set_is("cylinder.lift.end_dampers.l_d", 0.0, HS_ERR_VALUE, NULL, "l_d must be > 0"), "l_d = 0 refused");
    CHECK(set_is("cylinder.lift.init.p", -1.0, HS_ERR_VALUE, "cylinder.lift.init.p", NULL), "init.p < 0");
    CHECK(set_is("fluid.B_oil", 0.0, HS_ERR_VALUE, "fluid.B_oil", NULL), "B_oil = 0");
    CHECK(set_is("integrator.tol_pressure", 0.0, HS_ERR_VALUE, "integrator.tol_pressure", NULL), "tol_pressure = 0");
    /* units on the new families */
    CHECK(set_str_is("valve.dcv.U0=2 V", HS_OK, NULL, NULL) && m->dcv_U0[0] == 2.0, "U0 in V: %s", g_e.msg);
    CHECK(set_str_is("valve.dcv.Cv=2e-8 m^3/(s V sqrt(Pa))", HS_OK, NULL, NULL) && m->dcv_Cv[0] == 2e-8,
          "Cv with its unit: %s", g_e.msg);
    CHECK(set_str_is("valve.dcv.tau=5 ms", HS_OK, NULL, NULL) && m->dcv_tau[0] == 5e-3, "tau in ms");
    CHECK(set_str_is("cylinder.lift.friction.xi=50 s/m", HS_OK, NULL, NULL) && m->cyl_fp[0][HS_FP_XI] == 50.0,
          "xi in s/m: %s", g_e.msg);
    CHECK(set_str_is("valve.dcv.tau=5 Hz", HS_ERR_ARG, NULL, NULL), "tau in Hz refused");
    CHECK(set_str_is("integrator.tol_friction=1e-8 m", HS_OK, NULL, NULL) && m->tol_fs == 1e-8, "tol_friction in m: %s",
          g_e.msg);
}

/* An error case made by replacing the base model's line containing find by repl: the error is
 * on that line, at the column of marker in repl. */
typedef struct {
    const char *what, *find, *repl;
    int code;
    const char *marker, *key, *msg;
} line_case;

static void test_errors(void)
{
    static const line_case cases[] = {
        {"unknown key in friction", "friction:", "      friction: {model: lugre, Fc: 210 N, Fs: 830 N, mu: 0.1}",
         HS_ERR_SCHEMA, "mu:", "hydraulics.cylinders[0].friction.mu", "unknown key (allowed here: model, Fc"},
        {"Fc > Fs", "friction:", "      friction: {model: brown_mcphee, Fc: 900 N, Fs: 830 N}", HS_ERR_VALUE, "900",
         "hydraulics.cylinders[0].friction.Fc", "need 0 <= Fc <= Fs"},
        {"unknown friction model", "friction:", "      friction: {model: stick_slip}", HS_ERR_SCHEMA, "stick",
         "hydraulics.cylinders[0].friction.model", "must be one of: none, viscous"},
        {"d_rod >= d_piston", "d_rod:", "      d_rod: 80 mm", HS_ERR_VALUE, "80", "hydraulics.cylinders[0].d_rod",
         "d_rod must be > 0 and < d_piston"},
        {"l_piston0 >= stroke", "l_piston0:", "      l_piston0: 0.7 m", HS_ERR_VALUE, "0.7",
         "hydraulics.cylinders[0].l_piston0", "0 < l_piston0 < stroke"},
        {"unknown node in a throttle", "name: thr",
         "    - {name: thr, from: valve, to: pistn, Cd: 0.8, A: 2.83e-5 m^2}", HS_ERR_VALUE, "pistn",
         "hydraulics.throttles[0].to", "to 'pistn' is not a node (a volume or source) defined in hydraulics"},
        {"throttle between sources", "name: thr", "    - {name: thr, from: pump, to: tank, Cd: 0.8, A: 2.83e-5 m^2}",
         HS_ERR_VALUE, "tank", "hydraulics.throttles[0].to", "at least one of from and to must be a volume"},
        {"throttle to itself", "name: thr", "    - {name: thr, from: valve, to: valve, Cd: 0.8, A: 2.83e-5 m^2}",
         HS_ERR_VALUE, "valve, Cd", "hydraulics.throttles[0].to", "different nodes"},
        {"Cv with Cd", "name: thr", "    - {name: thr, from: valve, to: piston, Cd: 0.8, A: 2.83e-5 m^2, Cv: 1e-9}",
         HS_ERR_SCHEMA, "Cd", "hydraulics.throttles[0].Cd", "either Cv or Cd and A"},
        {"Cd without A", "name: thr", "    - {name: thr, from: valve, to: piston, Cd: 0.8}", HS_ERR_SCHEMA, "{",
         "hydraulics.throttles[0].A", "required key is missing"},
        /* a volume used by two cylinders: a second cylinder before the integrator line */
        {"volume of two cylinders", "integrator:",
         "    - {name: c2, body_a: ground, body_b: crank, d_piston: 50 mm, d_rod: 20 mm, stroke: 0.5, l_piston0: 0.1, "
         "B_wall: 1 GPa, piston_volume: valve, rod_volume: piston}\n"
         "integrator: {dt: 1 ms, t_end: 1 s, tol_pressure: 1 Pa}",
         HS_ERR_VALUE, "piston}", "hydraulics.cylinders[1].rod_volume",
         "volume 'piston' is already the piston-side chamber of cylinder 'lift'"},
        {"same volume both sides", "rod_volume:", "      rod_volume: piston", HS_ERR_VALUE, "piston",
         "hydraulics.cylinders[0].rod_volume", "must be different volumes"},
        {"source as a chamber", "rod_volume:", "      rod_volume: tank", HS_ERR_VALUE, "tank",
         "hydraulics.cylinders[0].rod_volume", "'tank' is a source"},
        {"cylinder on ground twice", "body_b:", "      body_b: ground", HS_ERR_VALUE, "ground",
         "hydraulics.cylinders[0].body_b", "body_a and body_b must differ"},
        {"rho = 0", "rho:", "  rho: 0", HS_ERR_VALUE, "0", "fluid.rho", "rho must be > 0"},
        {"rho unit", "rho:", "  rho: 850 kg", HS_ERR_SCHEMA, "850", "fluid.rho", "expected kg/m^3"},
        {"f45 = 0", "tau: 4.5 ms", "      f45: 0 Hz", HS_ERR_VALUE, "0 Hz", "hydraulics.valves[0].f45",
         "f45 must be > 0"},
        {"tau < 0", "tau: 4.5 ms", "      tau: -1 ms", HS_ERR_VALUE, "-1", "hydraulics.valves[0].tau",
         "tau must be > 0"},
        {"valve port A a source", "A: valve", "      A: pump", HS_ERR_VALUE, "pump", "hydraulics.valves[0].A",
         "'pump' is a source: A must be a volume"},
        {"valve ports not distinct", "B: rod", "      B: valve", HS_ERR_VALUE, "valve", "hydraulics.valves[0].B",
         "four different nodes (B is A too)"},
        {"unknown U_ref", "U_ref:", "      U_ref: nosignal", HS_ERR_VALUE, "nosignal", "hydraulics.valves[0].U_ref",
         "not a signal defined"},
        /* duplicate node name across volumes and sources */
        {"volume named like a source", "name: valve,", "    - {name: tank, V: 3.14e-5 m^3, B: 550 MPa, p0: 4.14 MPa}",
         HS_ERR_VALUE, "tank", "hydraulics.volumes[0].name", "duplicate node name 'tank' (first defined at line 15"},
        {"V = 0 outside a cylinder", "name: valve,", "    - {name: valve, V: 0, B: 550 MPa}", HS_ERR_VALUE, "0,",
         "hydraulics.volumes[0].V", "V must be > 0"},
        {"l_d = 0", "end_dampers:", "      end_dampers: {l_d: 0, k_d: 1e7 N/m, c_d: 5e3 Ns/m}", HS_ERR_VALUE, "0,",
         "hydraulics.cylinders[0].end_dampers.l_d", "l_d must be > 0"},
        {"k_d < 0", "end_dampers:", "      end_dampers: {l_d: 8 mm, k_d: -1, c_d: 5e3 Ns/m}", HS_ERR_VALUE, "-1",
         "hydraulics.cylinders[0].end_dampers.k_d", "k_d must be >= 0"},
        {"equilibrium with both pressures", "init:",
         "      init: {mode: equilibrium, p_rod: 3.5 MPa, p_piston: 1 MPa}", HS_ERR_SCHEMA, "p_piston",
         "hydraulics.cylinders[0].init.p_piston", "either p_rod or p_piston"},
        {"force without F", "init:", "      init: {mode: force, p_rod: 3.5 MPa}", HS_ERR_SCHEMA, "{",
         "hydraulics.cylinders[0].init.F", "required key is missing"},
        {"negative init pressure", "init:", "      init: {mode: equilibrium, p_rod: -3.5 MPa}", HS_ERR_VALUE, "-3.5",
         "hydraulics.cylinders[0].init.p_rod", "pressure must be >= 0"},
        {"lugre n = 0", "friction:", "      friction: {model: lugre, n: 0}", HS_ERR_VALUE, "0}",
         "hydraulics.cylinders[0].friction.n", "n must be > 0"},
        {"lugre_modified Fs = 0", "friction:", "      friction: {model: lugre_modified, Fs: 0}", HS_ERR_VALUE, "0}",
         "hydraulics.cylinders[0].friction.Fs", "Fs must be > 0"},
        {"eta = 0", "friction:", "      friction: {model: efficiency, eta: 0}", HS_ERR_VALUE, "0}",
         "hydraulics.cylinders[0].friction.eta", "0 < eta <= 1"},
        {"unknown hydraulics key", "  sources:", "  pumps: []\n  sources:", HS_ERR_SCHEMA, "pumps", "hydraulics.pumps",
         "unknown key (allowed here: sources, volumes, throttles, valves, cylinders, components)"},
        {"tol_pressure = 0", "integrator:", "integrator: {dt: 1 ms, t_end: 1 s, tol_pressure: 0}", HS_ERR_VALUE, "0}",
         "integrator.tol_pressure", "tol_pressure must be > 0"}};
    char big[8192];
    const char *t;
    size_t used, c;
    int line, k;

    for (c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        t = variant(cases[c].find, cases[c].repl, &line);
        expect_error(cases[c].what, t, cases[c].code, line, col_of(cases[c].repl, cases[c].marker), cases[c].key,
                     cases[c].msg);
    }
    /* missing fluid: reported at the hydraulics key */
    t = variant3((const char *const[3]){"fluid:", "B_oil:", "rho:"}, NULL, NULL);
    expect_error("missing fluid", t, HS_ERR_SCHEMA, 9, 1, "fluid",
                 "a fluid section (B_oil, rho) is required when hydraulics is given");
    /* tau and f45 both given: the later one is reported */
    t = variant("tau: 4.5 ms", "      tau: 4.5 ms\n      f45: 35 Hz", &line);
    expect_error("tau and f45", t, HS_ERR_SCHEMA, line + 1, 7, "hydraulics.valves[0].f45",
                 "give either tau or f45, not both");
    t = variant("tau: 4.5 ms", NULL, &line);
    expect_error("neither tau nor f45", t, HS_ERR_SCHEMA, 23, 7, "hydraulics.valves[0].tau",
                 "one of tau or f45 is required");

    /* too many volumes: the first one beyond HS_MAX_VOLS is reported */
    used = (size_t)snprintf(big, sizeof big,
                            "name: m\n" MECH "fluid: {B_oil: 1.5 GPa, rho: 850}\n"
                            "hydraulics:\n"
                            "  volumes:\n");
    for (k = 0; k <= HS_MAX_VOLS; ++k)
        used += (size_t)snprintf(big + used, sizeof big - used,
                                 "    - {name: v%d, V: 1 L, B: 1 GPa}\n", k);
    {
        char key[40], msg[80];
        snprintf(key, sizeof key, "hydraulics.volumes[%d]", HS_MAX_VOLS);
        snprintf(msg, sizeof msg, "too many volumes: %d (HS_MAX_VOLS is %d)", HS_MAX_VOLS + 1, HS_MAX_VOLS);
        expect_error("too many volumes", big, HS_ERR_LIMIT, 7 + HS_MAX_VOLS, 7, key, msg);
    }
    CHECK(g_d->param == NULL && g_d->text == NULL, "failed load holds no memory");
}

int main(void)
{
    g_d = (hs_model_desc *)calloc(1, sizeof *g_d);
    if (!g_d) return 1;
    test_values();
    test_variants();
    test_set();
    test_errors();
    hs_model_desc_free(g_d);
    free(g_d);
    return tu_report("test_model_hydraulics");
}
