/* test_cosim.c -- co-simulation of the mechanism and the hydraulics (kernels/hs_cosim.h; seed
 * 004 Pub. III): the Lagrange extrapolation is exact for polynomials of its order, sddot of a
 * cylinder equals the central difference of its sdot, the mechanical step holds what it is
 * given, every configuration converges to the monolithic solution as H and h_hyd shrink (both
 * cranes, every extrapolation order, both exchanges and both mechanical methods: observed
 * orders), the accumulated energy residual falls as H^(m+1) for extrapolation order m (Pub.
 * III Sect. 2.4, with both sides extrapolating with order m), and a diverging instance is
 * flagged. The index-1 mechanics (i1al, kernels/hs_i1al.h) takes i3al_p's Newton iterates on
 * the tree cranes, holds a cut joint's closure without projections and converges on the Pub. I
 * four-bar, and fails as i3al_p does. */
#include <math.h>
#include <stdlib.h>

#include "hs/model_file.h"
#include "hs_batch.h"
#include "test_util.h"

#define NT 15 /* samples of s at t = 0.1, 0.2, ..., 1.5 s */

static hs_model_desc g_single, g_double;

static void set(hs_model_desc *d, const char *a)
{
    hs_error e;
    int rc = hs_param_set_string(d, a, &e);
    CHECK(rc == HS_OK, "--set %s: %s", a, e.msg);
}

/* Runs m to t_end; out (NT x ncyl) takes every cylinder's s at t = 0.1 k s (k = 1..NT), *eres
 * the final accumulated energy residual, *phi and *phid the largest constraint violations
 * ||Phi|| and ||Phi_z zd|| after any step (each pointer may be NULL). Returns the status. */
static int run_obs(const hs_model *m, double *out, double *eres, double *phi, double *phid)
{
    hs_state *s = (hs_state *)calloc(1, sizeof *s);
    hs_work *w = (hs_work *)calloc(1, sizeof *w);
    hs_obs o;
    long n = lround(m->t_end / m->dt), per = lround(0.1 / m->dt), k;
    int st = hs_init(m, s, w), j = 0, c;
    if (phi) *phi = 0.0;
    if (phid) *phid = 0.0;
    for (k = 1; k <= n && !st; ++k) {
        st = hs_step(m, s, w);
        if (st) break;
        hs_observe_current(m, s, w, &o);
        if (phi && o.phi_norm > *phi) *phi = o.phi_norm;
        if (phid && o.phid_norm > *phid) *phid = o.phid_norm;
        if (k % per == 0 && j < NT) {
            for (c = 0; c < m->ncyl; ++c) out[j * m->ncyl + c] = o.s[c];
            ++j;
        }
    }
    if (eres) {
        *eres = 0.0;
        for (c = 0; c < m->ncyl; ++c) *eres += w->cs.E_res[c];
    }
    free(s);
    free(w);
    return st;
}

static int run(const hs_model *m, double *out, double *eres)
{
    return run_obs(m, out, eres, NULL, NULL);
}

static double max_diff(const double *a, const double *b, int n)
{
    double e = 0.0;
    int i;
    for (i = 0; i < n; ++i)
        if (fabs(a[i] - b[i]) > e) e = fabs(a[i] - b[i]);
    return e;
}

/* Lagrange weights through unequally spaced points reproduce every polynomial of their order
 * at any time, and the order is cut to the points there are. */
static void test_weights(void)
{
    hs_cosim cs;
    double l[HS_CEXT_NHIST], t = 1.3;
    int q, k, j;
    memset(&cs, 0, sizeof cs);
    cs.nh = 5;
    cs.th[0] = 0.0;
    cs.th[1] = -0.9;
    cs.th[2] = -2.1;
    cs.th[3] = -2.8;
    cs.th[4] = -4.3;
    for (q = 0; q <= HS_CEXT_MAX_ORDER; ++q) {
        CHECK(hs_cosim_weights(&cs, q, t, l) == q, "order %d kept", q);
        for (k = 0; k <= q; ++k) { /* p(t) = t^k */
            double v = 0.0;
            for (j = 0; j <= q; ++j) v += l[j] * pow(cs.th[j], k);
            CHECK_CLOSE(v, pow(t, k), 1e-12, "order q reproduces t^k");
        }
    }
    cs.nh = 2;
    CHECK(hs_cosim_weights(&cs, 4, t, l) == 1, "order cut to the two points there are");
    CHECK_CLOSE(l[0] + l[1], 1.0, 1e-15, "weights sum to one");
}

/* sddot (hs_cylinder_sdd) against the central difference of sdot along the motion
 * z(t +- d) = z +- d zd + d^2/2 zdd, zd(t +- d) = zd +- d zdd (error O(d^2)), at a moving state
 * of the single crane. */
static void test_sdd(void)
{
    hs_model m = g_single.model;
    hs_state *s = (hs_state *)calloc(1, sizeof *s);
    hs_work *w = (hs_work *)calloc(1, sizeof *w);
    double zp[HS_MAX_Z], zdp[HS_MAX_Z], sd[2], d = 1e-5, want, got;
    int k, i, sg;
    m.t_end = 0.7;
    CHECK(hs_init(&m, s, w) == 0, "init");
    for (k = 0; k < 700; ++k) CHECK(hs_step(&m, s, w) == 0, "step %d", k);
    hs_kin_positions(&m, s->z, &w->kin);
    hs_kin_velocities(&m, s->zd, &w->kin);
    hs_cylinders(&m, &w->kin, s->s0, &w->hyd);
    hs_cylinder_jac(&m, &w->kin, &w->hyd, 0, w->js[0]);
    got = hs_cylinder_sdd(&m, w, 0, s->zdd);
    for (sg = 0; sg < 2; ++sg) {
        double e = sg ? d : -d;
        for (i = 0; i < m.nz; ++i) {
            zp[i] = s->z[i] + e * s->zd[i] + 0.5 * e * e * s->zdd[i];
            zdp[i] = s->zd[i] + e * s->zdd[i];
        }
        hs_kin_positions(&m, zp, &w->kin);
        hs_kin_velocities(&m, zdp, &w->kin);
        hs_cylinders(&m, &w->kin, s->s0, &w->hyd);
        sd[sg] = w->hyd.sd[0];
    }
    want = (sd[1] - sd[0]) / (2.0 * d);
    CHECK(fabs(w->hyd.sd[0]) > 1e-3 || fabs(want) > 1e-2, "a moving state (sdot %g, sddot %g)", w->hyd.sd[0], want);
    CHECK(fabs(got - want) <= 1e-6 * (1.0 + fabs(want)), "sddot %.12g, central difference %.12g", got, want);
    free(s);
    free(w);
}

/* The mechanical step's hold: with the force exchanged the cylinder forces are the input and
 * the hydraulic rates are zero; without a hold the hydraulics are the model's. */
static void test_hold(void)
{
    hs_model_desc d = g_single;
    hs_state *s = (hs_state *)calloc(1, sizeof *s);
    hs_work *w = (hs_work *)calloc(1, sizeof *w);
    int v;
    double F0;
    set(&d, "integrator.coupling=cosim");
    CHECK(hs_init(&d.model, s, w) == 0, "init");
    CHECK(w->cs.nh == 1 && w->cs.th[0] == 0.0, "the exchange at t = 0 is the history's first point");
    CHECK_CLOSE(w->cs.uh[0][0], w->hyd.F[0], 1e-15, "the hydraulics' first output is the force at t = 0");
    hs_evaluate_kin_hyd(&d.model, s, s->z, s->zd, s->p, s->fs, s->U, w, ~0u, ~0u, 1);
    F0 = w->hyd.F[0];
    w->cs.hold = 2;
    w->cs.F_in[0] = 1234.5;
    hs_evaluate_kin_hyd(&d.model, s, s->z, s->zd, s->p, s->fs, s->U, w, ~0u, ~0u, 1);
    CHECK(w->hyd.F[0] == 1234.5, "held force %g", w->hyd.F[0]);
    for (v = 0; v < d.model.nvol; ++v) CHECK(w->hyd.h[v] == 0.0, "held pressure %d has rate 0", v);
    w->cs.hold = 1;
    hs_evaluate_kin_hyd(&d.model, s, s->z, s->zd, s->p, s->fs, s->U, w, ~0u, ~0u, 1);
    CHECK(w->hyd.F[0] == F0, "pressures held: the force of the pressures (%g, %g)", w->hyd.F[0], F0);
    w->cs.hold = 0;
    hs_evaluate_kin_hyd(&d.model, s, s->z, s->zd, s->p, s->fs, s->U, w, ~0u, ~0u, 1);
    CHECK(w->hyd.F[0] == F0, "no hold: the model's force");
    free(s);
    free(w);
}

/* As H (= dt) and h_hyd = H/10 shrink, every configuration converges to the monolithic
 * solution (dt = 25 us) over the first 1.5 s of the crane's cycle (valve 1 opens at 0.5 s, the
 * double crane's valve 2 at 1.0 s): the error in s falls at every halving, with an observed
 * order of at least 0.85 between the two smallest steps (the mechanics holds its input, m = 0:
 * first order; measured 0.98-1.3) and below 2e-5 m at H = 0.25 ms. With either mechanical
 * method mech: on these trees i1al's errors are i3al_p's (test_i1al_tree), so are its orders. */
static void test_convergence(const hs_model_desc *base, const char *name, const char *mech)
{
    static const char *const ex[2] = {"force", "pressures"};
    static const char *const ext[6] = {"0", "1", "2", "3", "4", "integrate"};
    static const double H[3] = {1e-3, 5e-4, 2.5e-4};
    double ref[NT * HS_MAX_CYLS], got[NT * HS_MAX_CYLS];
    int nc = base->model.ncyl, a, b, k;
    hs_model_desc d = *base;
    char buf[96];
    d.model.t_end = 0.1 * NT;
    d.model.dt = 2.5e-5;
    CHECK(run(&d.model, ref, NULL) == 0, "%s: monolithic reference", name);
    for (a = 0; a < 2; ++a)
        for (b = 0; b < 6; ++b) {
            double err[3];
            d = *base;
            set(&d, "integrator.coupling=cosim");
            set(&d, "cosim.hydraulics=trapezoidal");
            snprintf(buf, sizeof buf, "cosim.mechanics=%s", mech);
            set(&d, buf);
            snprintf(buf, sizeof buf, "cosim.exchange=%s", ex[a]);
            set(&d, buf);
            snprintf(buf, sizeof buf, "cosim.extrapolation=%s", ext[b]);
            set(&d, buf);
            d.model.t_end = 0.1 * NT;
            for (k = 0; k < 3; ++k) {
                d.model.dt = H[k];
                d.model.cosim_h_hyd = H[k] / 10.0;
                CHECK(run(&d.model, got, NULL) == 0, "%s %s %s m=%s H=%g runs", name, mech, ex[a], ext[b], H[k]);
                err[k] = max_diff(got, ref, NT * nc);
            }
            printf("%s %-6s exchange %-9s extrapolation %-9s |s - s_mono|: %.3e %.3e %.3e (orders %.2f %.2f)\n",
                   name, mech, ex[a], ext[b], err[0], err[1], err[2], log2(err[0] / err[1]), log2(err[1] / err[2]));
            CHECK(err[1] < err[0] && err[2] < err[1], "%s %s %s m=%s: the error falls with H", name, mech, ex[a],
                  ext[b]);
            CHECK(log2(err[1] / err[2]) >= 0.85, "%s %s %s m=%s: observed order %.2f", name, mech, ex[a], ext[b],
                  log2(err[1] / err[2]));
            CHECK(err[2] < 2e-5, "%s %s %s m=%s: error %.3e at H = 0.25 ms", name, mech, ex[a], ext[b], err[2]);
        }
}

/* d co-simulated with trapezoidal hydraulics and extrapolation order m on both sides under a
 * 2 Hz sine of 5 V (Pub. III eq. 15) for 1 s, at H = dt, h_hyd = dt / 10. */
static void sine_cosim(hs_model_desc *d, int m, double dt)
{
    char buf[96];
    set(d, "integrator.coupling=cosim");
    set(d, "cosim.hydraulics=trapezoidal");
    set(d, "signal.U_ref.kind=sine");
    set(d, "signal.U_ref.a=5");
    set(d, "signal.U_ref.f=2");
    snprintf(buf, sizeof buf, "cosim.extrapolation=%d", m);
    set(d, buf);
    snprintf(buf, sizeof buf, "cosim.mechanics_extrapolation=%d", m);
    set(d, buf);
    d->model.t_end = 1.0;
    d->model.dt = dt;
    d->model.cosim_h_hyd = dt / 10.0;
}

/* Pub. III Sect. 2.4 ([28]): in the stable region the accumulated energy residual is
 * O(H^(m+1)) for extrapolation order m (both subsystems extrapolating with order m), here under
 * a smooth input (a 2 Hz sine of 5 V, eq. 15) for 1 s on the single crane; the observed order
 * between the two smallest H of each row within [m + 0.7, m + 1.5] (measured 1.00, 2.00, 2.99,
 * 3.93). Higher orders are stable at smaller H only (m = 3 diverges at H = 2 ms, m = 4 at
 * 0.25 ms: Pub. III's Fig. 3 shows the same); m = 4 where it is stable (H <= 0.125 ms) is at
 * the floor of the subsystems' own errors already (1.6e-7 J, 8.6e-8 J at half that H), so its
 * order is not measurable here. */
static void test_residual_orders(void)
{
    static const double H[4][3] = {
        {1e-3, 5e-4, 2.5e-4}, {1e-3, 5e-4, 2.5e-4}, {1e-3, 5e-4, 2.5e-4}, {5e-4, 2.5e-4, 1.25e-4}};
    double s[NT * HS_MAX_CYLS], E[3];
    int m, k;
    for (m = 0; m <= 3; ++m) {
        double q;
        for (k = 0; k < 3; ++k) {
            hs_model_desc d = g_single;
            sine_cosim(&d, m, H[m][k]);
            CHECK(run(&d.model, s, &E[k]) == 0, "m=%d H=%g runs", m, H[m][k]);
        }
        q = log2(E[1] / E[2]);
        printf("single sine m=%d: E_res %.3e %.3e %.3e at H = %g, %g, %g: orders %.2f %.2f\n", m, E[0], E[1], E[2],
               H[m][0], H[m][1], H[m][2], log2(E[0] / E[1]), q);
        CHECK(q >= m + 0.7 && q <= m + 1.5, "m=%d: observed order of E_res %.2f, want about %d", m, q, m + 1);
    }
}

/* A configuration outside its stable region is flagged and stops (the batch goes on): the
 * single crane with extrapolation order 3 at H = 2 ms under the sine diverges (HS_ST_COSIM). */
static void test_divergence(void)
{
    hs_model_desc d = g_single;
    double s[NT * HS_MAX_CYLS];
    int st;
    sine_cosim(&d, 3, 2e-3);
    st = run(&d.model, s, NULL);
    CHECK(st & HS_ST_COSIM, "a diverging co-simulation is flagged cosim_diverged (status %d)", st);
}

/* An explicit hydraulic step beyond its stability limit is a warning: forward Euler and RK4
 * at h_hyd = 0.1 ms on the crane's 0.785 cm^3 valve volume (lambda about 4e5 1/s) carry
 * cosim_stiff; the trapezoidal rule and Euler at 2 us (h lambda < 2) do not. */
static void test_stiff(void)
{
    static const char *const hy[3] = {"euler", "rk4", "trapezoidal"};
    int k;
    for (k = 0; k < 4; ++k) {
        hs_model_desc d = g_single;
        hs_state *s = (hs_state *)calloc(1, sizeof *s);
        hs_work *w = (hs_work *)calloc(1, sizeof *w);
        char buf[64];
        int i, st;
        set(&d, "integrator.coupling=cosim");
        snprintf(buf, sizeof buf, "cosim.hydraulics=%s", hy[k < 3 ? k : 0]);
        set(&d, buf);
        if (k == 3) d.model.cosim_h_hyd = 2e-6;
        d.model.t_end = 0.6;
        st = hs_init(&d.model, s, w);
        for (i = 0; i < 600 && !st; ++i) st = hs_step(&d.model, s, w);
        CHECK(st == 0, "%s runs (status %d)", buf, st);
        CHECK(!(s->warn & HS_ST_COSIM_STIFF) == (k >= 2), "%s h_hyd %g: cosim_stiff %s", buf, d.model.cosim_h_hyd,
              k >= 2 ? "not set" : "set");
        free(s);
        free(w);
    }
}

/* The rules (kernels/hs_rules.h): each broken one is named. */
static void test_rules(void)
{
    hs_model m = g_single.model;
    m.coupling = HS_COUPLE_COSIM;
    CHECK(hs_crule_broken(&m) < 0, "the default configuration keeps the rules");
    m.cosim_h_hyd = 3e-4;
    CHECK(hs_crule_broken(&m) == HS_CR_H_HYD, "H = 1 ms is not a multiple of 0.3 ms");
    m.cosim_h_hyd = 1e-4;
    m.cosim_extrap = 6;
    CHECK(hs_crule_broken(&m) == HS_CR_EXTRAPOLATION, "extrapolation 6");
    m.cosim_extrap = 2;
    m.cosim_extrap_mech = HS_CEXT_INTEGRATE;
    CHECK(hs_crule_broken(&m) == HS_CR_EXTRAPOLATION_MECH, "the mechanics cannot integrate");
    m.cosim_extrap_mech = 0;
    m.step = HS_STEP_ADAPTIVE;
    CHECK(hs_crule_broken(&m) == HS_CR_STEP, "adaptive steps refused");
    m.step = HS_STEP_FIXED;
    m.cosim_mech = HS_CMECH_I1AL;
    CHECK(hs_crule_broken(&m) < 0 && m.cosim_i1al_xi == 1.0 && m.cosim_i1al_omega == 10.0,
          "i1al with its default stabilisation keeps the rules");
    m.cosim_mech = HS_CMECH_I1AL + 1;
    CHECK(hs_crule_broken(&m) == HS_CR_MECHANICS, "a third mechanical method");
    m.cosim_mech = HS_CMECH_I1AL;
    m.cosim_i1al_xi = -0.5;
    CHECK(hs_crule_broken(&m) == HS_CR_I1AL_XI, "xi < 0");
    m.cosim_i1al_xi = 0.0;
    m.cosim_i1al_omega = 0.0;
    CHECK(hs_crule_broken(&m) < 0, "xi = omega = 0 (no stabilisation) is allowed");
    m.cosim_i1al_omega = NAN;
    CHECK(hs_crule_broken(&m) == HS_CR_I1AL_OMEGA, "omega NaN");
    m.cosim_i1al_omega = INFINITY;
    CHECK(hs_crule_broken(&m) == HS_CR_I1AL_OMEGA, "omega Inf");
    CHECK(!hs_model_values_ok(&m), "and the instance is invalid");
    m.cosim_i1al_omega = 10.0;
    m.ncyl = 0;
    CHECK(hs_crule_broken(&m) == HS_CR_CYLINDERS, "no cylinder");
    CHECK(!hs_model_values_ok(&m), "and the instance is invalid");
}

/* On a tree (both cranes) i1al and i3al_p solve the same trapezoidal equations (hs_i1al.h: R(a)
 * is the i3al_p residual's z rows over h^2/4, a the affine image of z_n+1) from the same
 * predictor, with tangents whose increments move the same positions by the same amounts and
 * the same test on the position updates: the same Newton iterates up to rounding. Run side by
 * side over 1.5 s at H = 1 ms for both exchanges and extrapolations 0, 2 and I2, they take the
 * same Newton iterations at every step and their coordinates agree within 1e-10 rad, their
 * rates within 1e-9 rad/s (measured: at most 6.7e-12 rad and 6.0e-11 rad/s, rounding grown
 * over 1500 steps), where two different iterations that each met the Newton position
 * tolerance (1e-7 rad) could differ by about that tolerance. */
static void test_i1al_tree(const hs_model_desc *base, const char *name)
{
    static const char *const ex[2] = {"force", "pressures"};
    static const char *const ext[3] = {"0", "2", "integrate"};
    int a, b, k, i;
    for (a = 0; a < 2; ++a)
        for (b = 0; b < 3; ++b) {
            hs_model_desc d[2];
            hs_state *s[2];
            hs_work *w[2];
            char buf[96];
            double dz = 0.0, dzd = 0.0;
            long n, it_diff = 0;
            int st = 0;
            for (k = 0; k < 2; ++k) {
                d[k] = *base;
                set(&d[k], "integrator.coupling=cosim");
                set(&d[k], k ? "cosim.mechanics=i1al" : "cosim.mechanics=i3al_p");
                snprintf(buf, sizeof buf, "cosim.exchange=%s", ex[a]);
                set(&d[k], buf);
                snprintf(buf, sizeof buf, "cosim.extrapolation=%s", ext[b]);
                set(&d[k], buf);
                d[k].model.t_end = 1.5;
                s[k] = (hs_state *)calloc(1, sizeof *s[k]);
                w[k] = (hs_work *)calloc(1, sizeof *w[k]);
                st |= hs_init(&d[k].model, s[k], w[k]);
            }
            CHECK(base->model.ncon == 0 && st == 0, "%s: a tree, initialised", name);
            n = lround(d[0].model.t_end / d[0].model.dt);
            for (k = 0; k < n && !st; ++k) {
                st = hs_step(&d[0].model, s[0], w[0]) | hs_step(&d[1].model, s[1], w[1]);
                if (s[0]->iters != s[1]->iters) ++it_diff;
                for (i = 0; i < base->model.nz; ++i) {
                    if (fabs(s[1]->z[i] - s[0]->z[i]) > dz) dz = fabs(s[1]->z[i] - s[0]->z[i]);
                    if (fabs(s[1]->zd[i] - s[0]->zd[i]) > dzd) dzd = fabs(s[1]->zd[i] - s[0]->zd[i]);
                }
            }
            printf("%s exchange %-9s extrapolation %-9s i1al - i3al_p: |z| %.2e, |zd| %.2e; %ld steps of "
                   "%ld with other iterations (%ld, %ld in all)\n",
                   name, ex[a], ext[b], dz, dzd, it_diff, n, s[1]->iters_total, s[0]->iters_total);
            CHECK(st == 0, "%s %s m=%s: both run (status %d)", name, ex[a], ext[b], st);
            CHECK(it_diff == 0, "%s %s m=%s: the same Newton iterations at every step", name, ex[a], ext[b]);
            CHECK(dz <= 1e-10 && dzd <= 1e-9, "%s %s m=%s: z within 1e-10 (%.2e), zd within 1e-9 (%.2e)", name,
                  ex[a], ext[b], dz, dzd);
            for (k = 0; k < 2; ++k) {
                free(s[k]);
                free(w[k]);
            }
        }
}

/* i1al on a model with a cut joint: the Pub. I four-bar (models/fourbar_rahikainen2018.yaml,
 * one planar revolute cut: two loop-closure equations) co-simulated over 1.5 s (its valve
 * opens at 0.5 s). Without projections the stabilisation (xi = 1, omega = 10 rad/s) holds the
 * violation: max ||Phi|| <= 1e-11 m and max ||Phi_z zd|| <= 1e-9 m/s over every step at H = 1,
 * 0.5 and 0.25 ms (measured 5.1e-13, 9.0e-13, 1.2e-13 m and 3.0e-11, 5.8e-11, 7.7e-12 m/s;
 * i3al_p's projected steps leave 3.6e-9 m); without it (omega = 0, xi = 0) the violation at
 * H = 1 ms is more than twice as large (measured 2.2e-11 m, 42 times). The solution converges
 * to the monolithic one (dt = 25 us) as H shrinks, as i3al_p's does (first order; measured
 * orders 1.38 and 1.11; below 1e-5 m at H = 0.25 ms, measured 3.9e-6 m), and stays within
 * 1e-7 m of i3al_p's (measured 2.3e-9, 8.8e-10, 1.0e-10 m: two discretisations of the same
 * constrained equations, index 3 with projections and index 1 with stabilisation). */
static void test_i1al_cut(void)
{
    static const double H[3] = {1e-3, 5e-4, 2.5e-4};
    hs_model_desc fb, d;
    double ref[NT], got[NT], g3[NT], err[3], phi, phid, phi0, q;
    int k;
    if (tu_load_model("models/fourbar_rahikainen2018.yaml", &fb)) return;
    CHECK(fb.model.ncon == 2 && fb.model.ncyl == 1, "a cut joint (%d equations), one cylinder", fb.model.ncon);
    fb.model.t_end = 0.1 * NT;
    d = fb;
    d.model.dt = 2.5e-5;
    CHECK(run(&d.model, ref, NULL) == 0, "four-bar: monolithic reference");
    for (k = 0; k < 3; ++k) {
        d = fb;
        set(&d, "integrator.coupling=cosim");
        d.model.dt = H[k];
        d.model.cosim_h_hyd = H[k] / 10.0;
        CHECK(run(&d.model, g3, NULL) == 0, "four-bar i3al_p H=%g runs", H[k]);
        set(&d, "cosim.mechanics=i1al");
        CHECK(run_obs(&d.model, got, NULL, &phi, &phid) == 0, "four-bar i1al H=%g runs", H[k]);
        err[k] = max_diff(got, ref, NT);
        printf("four-bar i1al H=%g: |s - s_mono| %.3e, |s - s_i3al_p| %.2e, max ||Phi|| %.2e m, "
               "max ||Phi_z zd|| %.2e m/s\n",
               H[k], err[k], max_diff(got, g3, NT), phi, phid);
        CHECK(phi <= 1e-11 && phid <= 1e-9, "four-bar i1al H=%g: ||Phi|| %.2e <= 1e-11, ||Phi_z zd|| %.2e <= 1e-9",
              H[k], phi, phid);
        CHECK(max_diff(got, g3, NT) <= 1e-7, "four-bar H=%g: i1al within 1e-7 m of i3al_p", H[k]);
        if (k == 0) { /* the stabilisation off */
            set(&d, "cosim.i1al_omega=0");
            set(&d, "cosim.i1al_xi=0");
            CHECK(run_obs(&d.model, got, NULL, &phi0, NULL) == 0, "four-bar i1al unstabilised runs");
            printf("four-bar i1al H=%g, omega = xi = 0: max ||Phi|| %.2e m (%.1f times)\n", H[k], phi0, phi0 / phi);
            CHECK(phi0 > 2.0 * phi, "the stabilisation holds Phi: %.2e without, %.2e with", phi0, phi);
        }
    }
    q = log2(err[1] / err[2]);
    printf("four-bar i1al |s - s_mono|: orders %.2f %.2f\n", log2(err[0] / err[1]), q);
    CHECK(err[1] < err[0] && err[2] < err[1], "four-bar i1al: the error falls with H");
    CHECK(q >= 0.85, "four-bar i1al: observed order %.2f", q);
    CHECK(err[2] < 1e-5, "four-bar i1al: error %.3e at H = 0.25 ms", err[2]);
    hs_model_desc_free(&fb);
}

/* A Newton failure of the i1al step is flagged as i3al_p's (hs_newton_fail): the four-bar
 * with a position tolerance below rounding (1e-30 rad: no update ever meets it; the hydraulic
 * subsystem's iteration has its own tolerances) stops at its first step with maxiter, and
 * nothing else, under both methods. */
static void test_i1al_fail(void)
{
    static const char *const mech[2] = {"i3al_p", "i1al"};
    hs_model_desc fb, d;
    int k, st[2];
    if (tu_load_model("models/fourbar_rahikainen2018.yaml", &fb)) return;
    for (k = 0; k < 2; ++k) {
        char buf[64];
        d = fb;
        set(&d, "integrator.coupling=cosim");
        set(&d, "integrator.tol_position=1e-30");
        snprintf(buf, sizeof buf, "cosim.mechanics=%s", mech[k]);
        set(&d, buf);
        d.model.t_end = 0.01;
        {
            hs_state *ss = (hs_state *)calloc(1, sizeof *ss);
            hs_work *w = (hs_work *)calloc(1, sizeof *w);
            CHECK(hs_init(&d.model, ss, w) == 0, "%s: init", mech[k]);
            st[k] = hs_step(&d.model, ss, w);
            CHECK(st[k] == HS_ST_MAXITER && ss->step == 0 && ss->t == 0.0,
                  "%s: maxiter at the first step, the state kept (status %d, step %ld)", mech[k], st[k], ss->step);
            CHECK(hs_step(&d.model, ss, w) == st[k], "%s: the instance stays stopped", mech[k]);
            free(ss);
            free(w);
        }
    }
    hs_model_desc_free(&fb);
}

int main(void)
{
    hs_error e;
    if (hs_model_load("models/crane_rahikainen2020_single.yaml", &g_single, &e) ||
        hs_model_load("models/crane_rahikainen2020_double.yaml", &g_double, &e)) {
        printf("load: %s\n", e.msg);
        return 1;
    }
    test_weights();
    test_sdd();
    test_hold();
    test_rules();
    test_stiff();
    test_divergence();
    test_convergence(&g_single, "single", "i3al_p");
    test_convergence(&g_double, "double", "i3al_p");
    test_convergence(&g_single, "single", "i1al");
    test_convergence(&g_double, "double", "i1al");
    test_i1al_tree(&g_single, "single");
    test_i1al_tree(&g_double, "double");
    test_i1al_cut();
    test_i1al_fail();
    test_residual_orders();
    return tu_report("test_cosim");
}
