/* test_payload.c -- payloads (payloads[], kernels/hs_dynamics.h hs_payloads_add) on
 * tests/data/payload_pick.yaml: the energy balance through a pick and a release (what the
 * changing mass brings, in W_ext) at second order; with the load held throughout, the arm's
 * motion equal to that of one body with the same mass, centre of mass and inertia (the point
 * mass in Mbar and Qbar), its static equilibrium k theta = -(m_a l/2 + m_p l) g cos theta, and
 * its linearization's eigenvalues against the closed form; the mass's C1 curve
 * (hs_signal_smooth). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/simulate.h"
#include "hs/linearize.h"
#include "hs/model_file.h"
#include "hs_batch.h"
#include "test_util.h"

typedef struct {
    double eb, z[1300];
    int n;
} probe;

static int on_step(void *ctx, const hs_model *m, const hs_state *s, const hs_obs *o, double E)
{
    probe *q = (probe *)ctx;
    (void)m;
    (void)o;
    q->eb = fmax(q->eb, fabs(E));
    if (q->n < 1300) q->z[q->n++] = s->z[0];
    return 0;
}

static void test_smooth_curve(void)
{
    static hs_model_desc d;
    double r, v, h = 1e-6;
    if (tu_load_model("tests/data/payload_pick.yaml", &d)) return;
    v = hs_signal_smooth(&d.model, 0, 0.3, &r);
    CHECK(fabs(v - 0.5) < 1e-15 && fabs(r - 7.5) < 1e-12, "mid-ramp: 1/2, rate 1.5 / 0.2 s (%g, %g)", v, r);
    (void)hs_signal_smooth(&d.model, 0, 0.2 + 1e-9, &r);
    CHECK(fabs(r) < 1e-6, "rate 0 at the ramp's knot (%g)", r);
    v = (hs_signal_smooth(&d.model, 0, 0.25 + h, &r) - hs_signal_smooth(&d.model, 0, 0.25 - h, &r)) / (2.0 * h);
    (void)hs_signal_smooth(&d.model, 0, 0.25, &r);
    CHECK(fabs(v - r) < 1e-6 * fabs(r), "rate = d/dt of the curve (%g, %g)", v, r);
    CHECK(hs_signal_smooth(&d.model, 0, 0.55, &r) == 1.0 && r == 0.0, "held: 1");
    hs_model_desc_free(&d);
}

static void test_pick_release_energy(void)
{
    static hs_model_desc d;
    static probe q[3];
    hs_sim_summary sum;
    int k;
    if (tu_load_model("tests/data/payload_pick.yaml", &d)) return;
    CHECK(d.model.npay == 1 && d.model.pay_mass[0] == 20.0, "the payload loaded");
    for (k = 0; k < 3; ++k) {
        memset(&q[k], 0, sizeof q[k]);
        d.model.dt = 1e-3 / (1 << k);
        CHECK(hs_simulate(&d.model, on_step, &q[k], &sum) == 0, "pick and release at dt = %g", d.model.dt);
        printf("  pick and release, dt = %g ms: max |E_balance| %.3e J\n", d.model.dt * 1e3, q[k].eb);
    }
    /* measured 3.8e-4 J at 1 ms, against the 37 J the load's weight does on the arm */
    CHECK(q[0].eb < 6e-4, "pick and release: E_balance within 6e-4 J at 1 ms (%.2e)", q[0].eb);
    for (k = 1; k < 3; ++k)
        CHECK(q[k - 1].eb / q[k].eb > 3.6 && q[k - 1].eb / q[k].eb < 4.4, "E_balance second order (ratio %.3f)",
              q[k - 1].eb / q[k].eb);
    hs_model_desc_free(&d);
}

/* The load held from t = 0 (its signal 1) against one body: 25 kg, its centre of mass at 0.9 m,
 * J_zz = 1/12 5 + 5 0.4^2 + 20 0.1^2 + 1.5 (the load's own) about it. */
static void test_equivalent_body(void)
{
    static hs_model_desc d, e;
    static probe qa, qb;
    hs_sim_summary sum;
    double dz = 0.0;
    int i;
    if (tu_load_model("tests/data/payload_pick.yaml", &d) || tu_load_model("tests/data/payload_pick.yaml", &e)) return;
    for (i = 0; i < d.model.sig_n[0]; ++i) d.model.knot_v[d.model.sig_start[0] + i] = 1.0;
    d.model.joint_z0[0] = e.model.joint_z0[0] = 0.2;
    e.model.npay = 0;
    e.model.body_mass[0] = 25.0;
    e.model.body_com[0][0] = 0.9;
    e.model.body_inertia[0][0] = 0.01 + 0.2;
    e.model.body_inertia[0][1] = e.model.body_inertia[0][2] = 5.0 / 12.0 + 5.0 * 0.16 + 20.0 * 0.01 + 1.5;
    memset(&qa, 0, sizeof qa);
    memset(&qb, 0, sizeof qb);
    CHECK(hs_simulate(&d.model, on_step, &qa, &sum) == 0 && hs_simulate(&e.model, on_step, &qb, &sum) == 0,
          "held load and equivalent body: run");
    for (i = 0; i < qa.n && i < qb.n; ++i) dz = fmax(dz, fabs(qa.z[i] - qb.z[i]));
    printf("  held load against one equivalent body: max |d theta| %.2e rad over %d steps\n", dz, qa.n);
    CHECK(qa.n == qb.n && qa.n > 1000 && dz < 1e-10, "held load = one body of the same mass properties (%.2e rad)",
          dz);
    hs_model_desc_free(&d);
    hs_model_desc_free(&e);
}

static int on_rest(void *ctx, const hs_model *m, const hs_state *s, const hs_obs *o, double E)
{
    double *dz = (double *)ctx;
    (void)o;
    (void)E;
    *dz = fmax(*dz, fabs(s->z[0] - m->joint_z0[0]));
    return 0;
}

static void test_equilibrium_and_linearization(void)
{
    static hs_model_desc d;
    static hs_linearization L;
    hs_sim_summary sum;
    hs_lin_point x;
    hs_error err;
    const double k = 2000.0, c = 5.0, G = (5.0 * 0.5 + 20.0 * 1.0) * 9.81; /* the weights' moment at theta 0 */
    double th = 0.0, dz = 0.0, I = 5.0 / 12.0 + 5.0 * 0.25 + 20.0 + 1.5, w2, wd;
    int i, it, found = 0;
    if (tu_load_model("tests/data/payload_pick.yaml", &d)) return;
    for (i = 0; i < d.model.sig_n[0]; ++i) d.model.knot_v[d.model.sig_start[0] + i] = 1.0;
    for (it = 0; it < 50; ++it) th -= (k * th + G * cos(th)) / (k - G * sin(th)); /* k th + G cos th = 0 */
    d.model.joint_z0[0] = th;
    CHECK(hs_simulate(&d.model, on_rest, &dz, &sum) == 0, "equilibrium: runs");
    CHECK(dz < 1e-9, "held load: the arm at rest at %.5f deg stays (%.2e rad)", th * 180.0 / HS_PI, dz);
    CHECK(hs_lin_point_at(&d.model, 0.0, &x, &err) == 0, "the point: %s", err.msg);
    CHECK(hs_linearize(&d.model, &x, HS_LIN_EXACT, 0.0, &L, &err) == 0 && hs_lin_eigen(&L, &err) == 0,
          "linearize: %s", err.msg);
    w2 = (k - G * sin(th)) / I; /* I theta'' = -k theta - c theta' - G cos theta */
    wd = sqrt(w2 - (c / (2.0 * I)) * (c / (2.0 * I)));
    for (i = 0; i < L.size; ++i)
        if (fabs(L.eig_re[i] + c / (2.0 * I)) < 1e-9 && fabs(fabs(L.eig_im[i]) - wd) < 1e-9 * wd) found++;
    CHECK(found == 2, "linearized with the load: -c/(2I) +- i omega_d, I = %.4f kg m^2 (%g +- %g i)", I,
          -c / (2.0 * I), wd);
    hs_model_desc_free(&d);
}

/* A sampled mass <= 0, or a payload's signal made a test input, flags the instance. */
static void test_sampled(void)
{
    static hs_model_desc d;
    if (tu_load_model("tests/data/payload_pick.yaml", &d)) return;
    CHECK(hs_model_values_ok(&d.model), "sampled: the model's own values pass");
    d.model.pay_mass[0] = 0.0;
    CHECK(!hs_model_values_ok(&d.model), "sampled: a payload of 0 kg flagged");
    d.model.pay_mass[0] = 20.0;
    d.model.sig_kind[0] = HS_SIGK_STEP;
    CHECK(!hs_model_values_ok(&d.model), "sampled: a payload's signal as a test input flagged");
    hs_model_desc_free(&d);
}

int main(void)
{
    test_smooth_curve();
    test_pick_release_energy();
    test_equivalent_body();
    test_equilibrium_and_linearization();
    test_sampled();
    return tu_report("test_payload");
}
