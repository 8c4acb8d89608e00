/* test_friction.c -- kernels/hs_friction.h against the equations of seed 003 (eqs. 21-34) and
 * seed 004 (Pub. II efficiency law, Pub. III eq. 31 end dampers): values at characteristic
 * velocities, continuity, and the steady states of the dynamic models. */
#include "hs_friction.h"
#include "test_util.h"

/* seed 003 / model-data.md values */
#define FC 210.0
#define FS 830.0
#define VS 0.0125
#define S2 330.0

static void set_params(hs_model *m, int model)
{
    double *P = m->cyl_fp[0];
    m->ncyl = 1;
    m->cyl_fric[0] = model;
    P[HS_FP_FC] = FC;
    P[HS_FP_FS] = FS;
    P[HS_FP_VS] = VS;
    P[HS_FP_SIGMA2] = S2;
    P[HS_FP_SIGMA0] = 1e7;
    P[HS_FP_SIGMA1] = 3e3;
    P[HS_FP_N] = 2;
    P[HS_FP_XI] = 0; /* default 1/vs */
    P[HS_FP_VB] = 0; /* default 3 vs */
    P[HS_FP_TAU_HP] = 0.1;
    P[HS_FP_TAU_HN] = 0.05;
    P[HS_FP_TAU_H0] = 1.0;
    P[HS_FP_ETA] = 0.88;
    P[HS_FP_C] = 1e5;
    P[HS_FP_VEPS] = 1e-3;
}

static double F(hs_model *m, double v, double *fs, double Fp, double *fsd)
{
    return hs_friction_force(m, 0, v, fs, Fp, fsd);
}

static void test_brown_mcphee(void)
{
    hs_model m;
    double d[2] = {0, 0};
    tu_model_defaults(&m);
    set_params(&m, HS_FRIC_BROWN_MCPHEE);
    CHECK(F(&m, 0.0, NULL, 0, d) == 0.0, "zero at rest");
    /* at |v| = vs the Stribeck term peaks at Fs - Fc (eq. 24): d = 1/4 + 3/4 = 1 */
    CHECK_CLOSE(F(&m, VS, NULL, 0, d), FC * tanh(4.0) + (FS - FC) + S2 * VS * tanh(4.0), 1e-14,
                "F(vs)");
    CHECK_CLOSE(F(&m, -VS, NULL, 0, d), -F(&m, VS, NULL, 0, d), 1e-15, "odd");
    /* far above vs: Coulomb + viscous, Stribeck term ~ 16 (Fs-Fc) vs^3 / v^3 */
    CHECK_CLOSE(F(&m, 1.0, NULL, 0, d), FC + S2 * tanh(4.0) + 16 * (FS - FC) * pow(VS, 3), 1e-6,
                "F(1 m/s)");
    /* smooth through zero: slope 4 Fc/vs + (Fs - Fc)/(vs 9/16) + sigma2 tanh 4 */
    {
        double h = 1e-9, sl = (F(&m, h, NULL, 0, d) - F(&m, -h, NULL, 0, d)) / (2 * h);
        CHECK_CLOSE(sl, 4 * FC / VS + (FS - FC) / VS * 16.0 / 9.0 + S2 * tanh(4.0), 1e-6,
                    "slope at 0");
    }
}

static void test_bengisu_akay(void)
{
    hs_model m;
    double d[2] = {0, 0}, eps = 1e-12;
    tu_model_defaults(&m);
    set_params(&m, HS_FRIC_BENGISU_AKAY);
    CHECK(fabs(F(&m, 1e-15, NULL, 0, d)) < 1e-9, "zero at rest (parabola through 0)");
    CHECK_CLOSE(F(&m, VS - eps, NULL, 0, d), FS, 1e-9, "Fs just below vs");
    /* at vs the sliding branch starts: Fs + sigma2 vs (the printed model's step) */
    CHECK_CLOSE(F(&m, VS, NULL, 0, d), FS + S2 * VS, 1e-12, "Fs + sigma2 vs at vs");
    CHECK_CLOSE(F(&m, 0.5 * VS, NULL, 0, d), -FS / (VS * VS) * 0.25 * VS * VS + FS, 1e-12,
                "parabola at vs/2 = 3/4 Fs");
    CHECK_CLOSE(F(&m, VS + 1.0 / (1.0 / VS), NULL, 0, d),
                FC + (FS - FC) * exp(-1.0) + S2 * 2 * VS, 1e-12, "decay by e at vs + 1/xi");
    CHECK_CLOSE(F(&m, -2 * VS, NULL, 0, d), -F(&m, 2 * VS, NULL, 0, d), 1e-15, "odd");
}

/* LuGre: with q at its steady state g(v) sgn(v)/sigma0 the state rate vanishes and the force
 * equals g(v) sgn(v) + sigma2 v (seed 003 eqs. 25-27) */
static void test_lugre_steady_state(void)
{
    hs_model m;
    double vs[5] = {-0.3, -VS, 0.002, VS, 0.2};
    int i;
    tu_model_defaults(&m);
    set_params(&m, HS_FRIC_LUGRE);
    hs_model_derive(&m);
    CHECK(m.nfs == 1, "LuGre has one state");
    for (i = 0; i < 5; ++i) {
        double v = vs[i], g = FC + (FS - FC) * exp(-pow(fabs(v) / VS, 2));
        double q[2] = {g * hs_sgn(v) / 1e7, 0}, d[2] = {1, 1}, f = F(&m, v, q, 0, d);
        CHECK(fabs(d[0]) < 1e-15, "qdot = 0 at the steady state (v %g): %g", v, d[0]);
        CHECK_CLOSE(f, g * hs_sgn(v) + S2 * v, 1e-12, "steady force g(v) + sigma2 v");
    }
    /* g at 0 is Fs, at vs it is Fc + (Fs - Fc)/e */
    CHECK_CLOSE(hs_fric_g(FC, FS, VS, 2, 0, 0), FS, 1e-15, "g(0) = Fs");
    CHECK_CLOSE(hs_fric_g(FC, FS, VS, 2, 0, VS), FC + (FS - FC) * exp(-1.0), 1e-13, "g(vs)");
    /* sticking: at v = 0 the bristle acts as a spring sigma0 q */
    {
        double q[2] = {1e-5, 0}, d[2] = {0, 0};
        CHECK_CLOSE(F(&m, 0.0, q, 0, d), 1e7 * 1e-5, 1e-12, "sigma0 q at rest");
    }
}

static void test_lugre_modified(void)
{
    hs_model m;
    double d[2] = {0, 0};
    tu_model_defaults(&m);
    set_params(&m, HS_FRIC_LUGRE_MOD);
    hs_model_derive(&m);
    CHECK(m.nfs == 2, "modified LuGre has two states");
    /* above vb = 3 vs the steady film is h_ss = 1 - Fc/Fs and g = Fc exactly */
    {
        double v = 0.1, hss = hs_fric_hss(FC, FS, 3 * VS, v), st[2];
        double g = hs_fric_g(FC, FS, VS, 2, hss, v);
        CHECK_CLOSE(hss, 1 - FC / FS, 1e-14, "h_ss above vb");
        CHECK_CLOSE(g, FC, 1e-12, "g = Fc with the film formed");
        st[0] = g / 1e7;
        st[1] = hss;
        CHECK_CLOSE(F(&m, v, st, 0, d), FC + S2 * v, 1e-12, "steady force Fc + sigma2 v");
        CHECK(fabs(d[0]) < 1e-15 && fabs(d[1]) < 1e-15, "steady state rates vanish");
    }
    /* below vb: h_ss = Kf |v|^(2/3) (eq. 32); film grows with tau_hp, thins with tau_hn */
    {
        double v = VS, vb = 3 * VS, Kf = (1 - FC / FS) * pow(vb, -2.0 / 3.0), st[2] = {0, 0};
        CHECK_CLOSE(hs_fric_hss(FC, FS, vb, v), Kf * pow(v, 2.0 / 3.0), 1e-14, "h_ss below vb");
        F(&m, v, st, 0, d);
        CHECK_CLOSE(d[1], Kf * pow(v, 2.0 / 3.0) / 0.1, 1e-12, "acceleration: tau_hp");
        st[1] = 0.9;
        F(&m, v, st, 0, d);
        CHECK_CLOSE(d[1], (Kf * pow(v, 2.0 / 3.0) - 0.9) / 0.05, 1e-12, "deceleration: tau_hn");
        F(&m, 0.0, st, 0, d);
        CHECK_CLOSE(d[1], -0.9 / 1.0, 1e-12, "dwell: tau_h0");
    }
}

static void test_efficiency_and_viscous(void)
{
    hs_model m;
    double d[2] = {0, 0};
    tu_model_defaults(&m);
    set_params(&m, HS_FRIC_EFFICIENCY_PRINTED);
    /* Pub. II as printed: (p1 A1 - p2 A2)(1 - eta) sdot */
    CHECK_CLOSE(F(&m, 0.05, NULL, 10000.0, d), 10000.0 * 0.12 * 0.05, 1e-12, "as printed");
    set_params(&m, HS_FRIC_EFFICIENCY);
    CHECK_CLOSE(F(&m, 0.05, NULL, -10000.0, d), 0.12 * 10000.0 * tanh(50.0), 1e-12,
                "physical: (1-eta)|Fp| opposing motion");
    CHECK(F(&m, 0.0, NULL, 10000.0, d) == 0.0, "no loss at rest");
    set_params(&m, HS_FRIC_VISCOUS);
    CHECK_CLOSE(F(&m, -0.02, NULL, 0, d), -1e5 * 0.02, 1e-12, "viscous c v");
    set_params(&m, HS_FRIC_NONE);
    CHECK(F(&m, 0.3, NULL, 5e4, d) == 0.0, "none");
}

static void test_end_damper(void)
{
    hs_model m;
    tu_model_defaults(&m);
    m.ncyl = 1;
    m.cyl_ld[0] = 0.008;
    m.cyl_kd[0] = 1e7;
    m.cyl_cd[0] = 5e3;
    /* Pub. III eq. 31 */
    CHECK_CLOSE(hs_end_damper(&m, 0, 0.005, 0.2, -0.1), 1e7 * 0.003 + 5e3 * 0.1, 1e-12,
                "piston end: pushes out");
    CHECK_CLOSE(hs_end_damper(&m, 0, 0.2, 0.002, 0.1), -1e7 * 0.006 - 5e3 * 0.1, 1e-12,
                "rod end: pulls in");
    CHECK(hs_end_damper(&m, 0, 0.1, 0.1, 0.3) == 0.0, "free stroke");
    m.cyl_ld[0] = 0;
    CHECK(hs_end_damper(&m, 0, 0.001, 0.1, 0.3) == 0.0, "no dampers");
}

int main(void)
{
    test_brown_mcphee();
    test_bengisu_akay();
    test_lugre_steady_state();
    test_lugre_modified();
    test_efficiency_and_viscous();
    test_end_damper();
    return tu_report("test_friction");
}
