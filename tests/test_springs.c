/* test_springs.c -- joints' springs and dampers (joints[].spring, kernels/hs_residual.h
 * hs_spring_forces) on tests/data/joint_springs.yaml: the slider against the damped
 * oscillator's closed form at second order, the energy balance (the springs' energy and the
 * dampers' loss in W_ext) at second order, the static equilibrium of a sprung rod under
 * gravity, and the linearization's eigenvalues against -zeta omega +- i omega_d. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/simulate.h"
#include "hs/linearize.h"
#include "hs/model_file.h"
#include "test_util.h"

/* the slider: m x'' + c x' + k x = 0 from x0 at rest */
#define SM 10.0
#define SK 1e4
#define SC 20.0
#define SX0 0.1

static double oscillator(double t)
{
    double w = sqrt(SK / SM), z = SC / (2.0 * sqrt(SK * SM)), wd = w * sqrt(1.0 - z * z);
    return exp(-z * w * t) * (SX0 * cos(wd * t) + z * w * SX0 / wd * sin(wd * t));
}

typedef struct {
    double ex, eb;
} probe;

static int on_step(void *ctx, const hs_model *m, const hs_state *s, const hs_obs *o, double E)
{
    probe *q = (probe *)ctx;
    (void)m;
    (void)o;
    q->ex = fmax(q->ex, fabs(s->z[0] - oscillator(s->t)));
    q->eb = fmax(q->eb, fabs(E));
    return 0;
}

static void test_oscillator(void)
{
    static hs_model_desc d;
    hs_sim_summary sum;
    probe q[3];
    int k;
    if (tu_load_model("tests/data/joint_springs.yaml", &d)) return;
    CHECK(d.model.nspring == 2 && d.model.joint_k[0] == SK && d.model.joint_c[0] == SC, "two springs loaded");
    for (k = 0; k < 3; ++k) {
        memset(&q[k], 0, sizeof q[k]);
        d.model.dt = 1e-3 / (1 << k);
        CHECK(hs_simulate(&d.model, on_step, &q[k], &sum) == 0, "springs at dt = %g: runs", d.model.dt);
        printf("  dt = %g ms: slider error %.3e m, max |E_balance| %.3e J\n", d.model.dt * 1e3, q[k].ex, q[k].eb);
    }
    /* measured 9.7e-5 m and 0.019 J at 1 ms (about 100 J in the springs at the start) */
    CHECK(q[0].ex < 1.5e-4, "slider: the damped oscillator's closed form within 1.5e-4 m at 1 ms (%.2e)", q[0].ex);
    CHECK(q[0].eb < 0.03, "springs: E_balance within 0.03 J at 1 ms (%.3e)", q[0].eb);
    for (k = 1; k < 3; ++k) {
        CHECK(q[k - 1].ex / q[k].ex > 3.6 && q[k - 1].ex / q[k].ex < 4.4, "slider: second order (ratio %.3f)",
              q[k - 1].ex / q[k].ex);
        CHECK(q[k - 1].eb / q[k].eb > 3.6 && q[k - 1].eb / q[k].eb < 4.4, "E_balance: second order (ratio %.3f)",
              q[k - 1].eb / q[k].eb);
    }
    hs_model_desc_free(&d);
}

static void test_linearized(void)
{
    static hs_model_desc d;
    static hs_linearization L;
    hs_lin_point x;
    hs_error err;
    double w = sqrt(SK / SM), z = SC / (2.0 * sqrt(SK * SM)), wd = w * sqrt(1.0 - z * z);
    double I = 5.0 / 3.0, th0 = 20.0 * HS_PI / 180.0, wr2, found_s = 0, found_r = 0;
    int i;
    if (tu_load_model("tests/data/joint_springs.yaml", &d)) return;
    CHECK(hs_lin_point_at(&d.model, 0.0, &x, &err) == 0, "the initial point: %s", err.msg);
    CHECK(hs_linearize(&d.model, &x, HS_LIN_EXACT, 0.0, &L, &err) == 0, "linearize: %s", err.msg);
    CHECK(hs_lin_eigen(&L, &err) == 0, "eigenvalues: %s", err.msg);
    /* the rod: I theta'' = -k theta - c theta' - m g (l/2) cos theta, its stiffness k - m g (l/2) sin theta0 */
    wr2 = (800.0 - 5.0 * 9.81 * 0.5 * sin(th0)) / I;
    for (i = 0; i < L.size; ++i) {
        if (fabs(L.eig_re[i] + z * w) < 1e-9 * w && fabs(fabs(L.eig_im[i]) - wd) < 1e-9 * w) found_s++;
        if (fabs(L.eig_re[i] + 1.0 / I) < 1e-9 && fabs(fabs(L.eig_im[i]) - sqrt(wr2 - 1.0 / (I * I))) < 1e-9 * 20.0)
            found_r++;
    }
    CHECK(found_s == 2, "linearized slider: -zeta omega +- i omega_d (%g +- %g i)", -z * w, wd);
    CHECK(found_r == 2, "linearized rod: -c/(2I) +- i sqrt(k_eff/I - (c/2I)^2)");
    hs_model_desc_free(&d);
}

/* The rod's static equilibrium: the spring holds it where k theta = -m g (l/2) cos theta (a
 * start there stays there). */
static int on_rod(void *ctx, const hs_model *m, const hs_state *s, const hs_obs *o, double E)
{
    double *dz = (double *)ctx;
    (void)o;
    (void)E;
    *dz = fmax(*dz, fabs(s->z[1] - m->joint_z0[1]));
    return 0;
}

static void test_equilibrium(void)
{
    static hs_model_desc d;
    hs_sim_summary sum;
    double th = 0.0, dz = 0.0;
    int it;
    if (tu_load_model("tests/data/joint_springs.yaml", &d)) return;
    for (it = 0; it < 50; ++it) /* Newton on k th + m g (l/2) cos th = 0 */
        th -= (800.0 * th + 5.0 * 9.81 * 0.5 * cos(th)) / (800.0 - 5.0 * 9.81 * 0.5 * sin(th));
    d.model.joint_z0[1] = th;
    d.model.joint_z0[0] = 0.0;
    CHECK(hs_simulate(&d.model, on_rod, &dz, &sum) == 0, "equilibrium: runs");
    printf("  rod at rest at %.6f deg: moved %.2e rad in 1 s\n", th * 180.0 / HS_PI, dz);
    CHECK(dz < 1e-9, "the sprung rod at its equilibrium %.4f deg stays (%.2e rad)", th * 180.0 / HS_PI, dz);
    hs_model_desc_free(&d);
}

int main(void)
{
    test_oscillator();
    test_linearized();
    test_equilibrium();
    return tu_report("test_springs");
}
