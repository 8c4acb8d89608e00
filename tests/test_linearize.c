/* test_linearize.c -- hs_linearize and hs_lin_eigen (host/engine/linearize.cpp; seed 001):
 *  - a pendulum: J = [0 1; -3g/(2L) 0] and eigenvalues +-i sqrt(3g/(2L)), by hand;
 *  - a mass on a prismatic joint held by a cylinder with two closed volumes and viscous
 *    friction: the whole 4 x 4 Jacobian by hand (hydraulic stiffness A^2 Be / V);
 *  - the seed 001 four-bar: sizes n, m, l, r, u, the held input joint as the independent
 *    coordinate, two exact zeros and lambda = -1/tau (seed 001 Sect. 4.4), the three friction
 *    scenarios' character (overdamped, then oscillatory with less damping), and the same
 *    nonzero eigenvalues from the conventional counterpart (with 2m extra zeros);
 *  - the exact Jacobian against central differences, at the equilibrium and at a moving
 *    state of a simulation (velocity products, friction at v != 0, an open valve, a LuGre
 *    friction state): second-order agreement. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hs/linearize.h"
#include "hs/model_file.h"
#include "test_util.h"

static hs_model_desc g_d;
static hs_linearization g_L, g_L2;

static const char *k_pendulum =
    "name: pendulum\n"
    "gravity: [0, 0, -9.81]\n"
    "bodies:\n"
    "  - {name: rod, shape: rod, mass: 2 kg, length: 1.5 m}\n"
    "joints:\n"
    "  - {name: theta, type: revolute, parent: ground, child: rod, axis: [0, 1, 0], z0: 90 deg}\n"
    "integrator: {dt: 1 ms, t_end: 1 s}\n";

static const char *k_spring =
    "name: hydraulic_spring\n"
    "gravity: [0, 0, -9.81]\n"
    "bodies:\n"
    "  - {name: mass, shape: point, mass: 100 kg}\n"
    "joints:\n"
    "  - {name: x, type: prismatic, parent: ground, child: mass, axis: [0, 0, 1], z0: 0}\n"
    "fluid: {B_oil: 1500 MPa, rho: 850 kg/m^3}\n"
    "hydraulics:\n"
    "  volumes:\n"
    "    - {name: piston, V: 1e-4 m^3, B: 1000 MPa}\n"
    "    - {name: rod, V: 2e-4 m^3, B: 800 MPa}\n"
    "  cylinders:\n"
    "    - name: c\n"
    "      body_a: ground\n"
    "      at_a: [0, 0, -1]\n"
    "      body_b: mass\n"
    "      at_b: [0, 0, 0]\n"
    "      d_piston: 50 mm\n"
    "      d_rod: 20 mm\n"
    "      stroke: 0.5 m\n"
    "      l_piston0: 0.2 m\n"
    "      B_wall: 20000 MPa\n"
    "      piston_volume: piston\n"
    "      rod_volume: rod\n"
    "      friction: {model: viscous, c: 500 Ns/m}\n"
    "      init: {mode: equilibrium, p_rod: 2 MPa}\n"
    "integrator: {dt: 1 ms, t_end: 1 s}\n";


static void test_pendulum(void)
{
    hs_error err;
    hs_lin_point x;
    double w2 = 3.0 * 9.81 / (2.0 * 1.5), w = sqrt(w2);
    if (tu_load_text(k_pendulum, "pendulum model", &g_d)) return;
    CHECK(hs_lin_point_equilibrium(&g_d.model, &x, &err) == 0, "pendulum equilibrium: %s", err.msg);
    CHECK(hs_linearize(&g_d.model, &x, HS_LIN_EXACT, 0.0, &g_L, &err) == 0, "linearize: %s", err.msg);
    CHECK(g_L.size == 2 && g_L.n == 1 && g_L.m == 0, "pendulum size %d n %d m %d", g_L.size, g_L.n, g_L.m);
    CHECK_CLOSE(g_L.J[0], 0.0, 1e-15, "J00");
    CHECK_CLOSE(g_L.J[1], 1.0, 1e-15, "J01");
    CHECK(fabs(g_L.J[2] + w2) <= 1e-13 * w2, "J10 = %.17g, want -3g/(2L) = %.17g", g_L.J[2], -w2);
    CHECK(fabs(g_L.J[3]) <= 1e-13, "J11 = %g, want 0", g_L.J[3]);
    CHECK(fabs(g_L.rates[1]) <= 1e-12, "hanging at rest: thetaddot = %g", g_L.rates[1]);
    CHECK(hs_lin_eigen(&g_L, &err) == 0, "eigen: %s", err.msg);
    CHECK(fabs(g_L.eig_re[0]) <= 1e-12 * w && fabs(g_L.eig_re[1]) <= 1e-12 * w, "pendulum: real parts %g %g",
          g_L.eig_re[0], g_L.eig_re[1]);
    CHECK(fabs(g_L.eig_im[0] - w) <= 1e-13 * w && fabs(g_L.eig_im[1] + w) <= 1e-13 * w,
          "pendulum: imaginary parts %.17g %.17g, want +-%.17g", g_L.eig_im[0], g_L.eig_im[1], w);
    CHECK(fabs(hs_lin_frequency(g_L.eig_im[0]) - w / (2.0 * HS_PI)) <= 1e-13, "frequency in Hz");
    CHECK(g_L.label[0] == HS_LIN_MECH, "pendulum mode is mechanical");
    hs_model_desc_free(&g_d);
}

static void test_hydraulic_spring(void)
{
    hs_error err;
    hs_lin_point x;
    double m = 100.0, g = 9.81, c = 500.0, Ap = 0.25 * HS_PI * 0.05 * 0.05;
    double Ar = Ap - 0.25 * HS_PI * 0.02 * 0.02, lp = 0.2, lr = 0.3, cp, cr, pr = 2e6, pp;
    double want[16];
    int k;
    if (tu_load_text(k_spring, "spring model", &g_d)) return;
    /* V / Be of each chamber's volume: hose and chamber in the oil, the hose's and the
     * wall's compliance (kernels/hs_hydraulics.h, seed 000 eq. 23) */
    cp = (1e-4 + Ap * lp) / 1.5e9 + 1e-4 / 1.0e9 + Ap * lp / 2e10;
    cr = (2e-4 + Ar * lr) / 1.5e9 + 2e-4 / 0.8e9 + Ar * lr / 2e10;
    pp = (m * g + pr * Ar) / Ap;
    CHECK(hs_lin_point_equilibrium(&g_d.model, &x, &err) == 0, "spring equilibrium: %s", err.msg);
    CHECK(fabs(x.p[0] - pp) <= 1e-12 * pp && fabs(x.p[1] - pr) <= 1e-12 * pr, "equilibrium pressures %.17g %.17g, want %.17g %.17g",
          x.p[0], x.p[1], pp, pr);
    CHECK(hs_linearize(&g_d.model, &x, HS_LIN_EXACT, 0.0, &g_L, &err) == 0, "linearize: %s", err.msg);
    CHECK(g_L.size == 4 && g_L.r == 2 && g_L.u == 0, "spring size %d", g_L.size);
    /* X = (x, xdot, p_piston, p_rod) */
    memset(want, 0, sizeof want);
    want[0 * 4 + 1] = 1.0;
    want[1 * 4 + 1] = -c / m;
    want[1 * 4 + 2] = Ap / m;
    want[1 * 4 + 3] = -Ar / m;
    want[2 * 4 + 1] = -Ap / cp;
    want[3 * 4 + 1] = Ar / cr;
    for (k = 0; k < 16; ++k)
        CHECK(fabs(g_L.J[k] - want[k]) <= 1e-13 * fabs(want[k]) + 1e-9, "spring J[%d][%d] = %.17g, want %.17g", k / 4,
              k % 4, g_L.J[k], want[k]);
    CHECK(hs_lin_eigen(&g_L, &err) == 0, "eigen: %s", err.msg);
    {
        /* lambda^2 + (c/m) lambda + w2 = 0 besides two zeros, w2 = (Ap^2/cp + Ar^2/cr) / m */
        double w2 = (Ap * Ap / cp + Ar * Ar / cr) / m, re = -0.5 * c / m, im = sqrt(w2 - re * re);
        int nz = 0, ok = 0;
        for (k = 0; k < 4; ++k) {
            if (g_L.eig_re[k] == 0.0 && g_L.eig_im[k] == 0.0) ++nz;
            if (fabs(g_L.eig_re[k] - re) <= 1e-10 * im && fabs(fabs(g_L.eig_im[k]) - im) <= 1e-12 * im) ++ok;
        }
        CHECK(nz == 2, "spring: %d exact zeros, want 2 (pressure combinations that no force sees)", nz);
        CHECK(ok == 2, "spring: the oscillating pair %.17g +- %.17g i not found", re, im);
    }
    hs_model_desc_free(&g_d);
}

static double fd_err(const hs_lin_point *x, double h);

static int scenario(double f, hs_lin_point *x)
{
    hs_error err;
    if (hs_model_load("models/fourbar3d_agundez2023.yaml", &g_d, &err)) return 1;
    if (hs_param_set(&g_d, "cylinder.lift.friction.Fc", 210.0 * f, &err) ||
        hs_param_set(&g_d, "cylinder.lift.friction.Fs", 830.0 * f, &err) ||
        hs_param_set(&g_d, "cylinder.lift.friction.sigma2", 330.0 * f, &err))
        return 1;
    return hs_lin_point_equilibrium(&g_d.model, x, &err);
}

static void test_fourbar3d(void)
{
    hs_error err;
    hs_lin_point x;
    double f[3] = {1.0, 0.1, 0.01}, re_osc[3] = {0, 0, 0};
    int s, k;
    for (s = 0; s < 3; ++s) {
        int nz = 0, ncomplex = 0, tau_ok = 0;
        double tau = g_d.model.dcv_tau[0];
        if (scenario(f[s], &x)) {
            CHECK(0, "four-bar scenario %d", s);
            return;
        }
        tau = g_d.model.dcv_tau[0];
        CHECK(hs_linearize(&g_d.model, &x, HS_LIN_EXACT, 0.0, &g_L, &err) == 0, "linearize: %s", err.msg);
        CHECK(hs_lin_eigen(&g_L, &err) == 0, "eigen: %s", err.msg);
        if (s == 0) {
            CHECK(g_L.n == 3 && g_L.m == 2 && g_L.ncon == 5 && g_L.l == 0 && g_L.r == 3 && g_L.u == 1 && g_L.size == 6,
                  "four-bar sizes n %d m %d ncon %d r %d u %d size %d (seed 001: 2(n-m)-l+r+u = 6)", g_L.n, g_L.m,
                  g_L.ncon, g_L.r, g_L.u, g_L.size);
            CHECK(g_L.indep[0] == 0, "independent coordinate: joint %d, want phi2 (0, held)", g_L.indep[0]);
            CHECK(fabs(x.p[0] - x.p[1]) <= 1e-6 && fabs(x.p[1] - 2.820479e6) <= 1.0, "equilibrium p1 = p2 = %.10g Pa",
                  x.p[1]);
            for (k = 0; k < g_L.size; ++k)
                CHECK(fabs(g_L.rates[k]) <= (k < 2 ? 1e-9 : 1e-6), "at rest: rate %d = %g", k, g_L.rates[k]);
        }
        for (k = 0; k < g_L.size; ++k) {
            if (g_L.eig_re[k] == 0.0 && g_L.eig_im[k] == 0.0) ++nz;
            if (g_L.eig_im[k] > 0.0) {
                ++ncomplex;
                re_osc[s] = g_L.eig_re[k];
            }
            if (fabs(g_L.eig_re[k] + 1.0 / tau) <= 1e-12 / tau && g_L.eig_im[k] == 0.0) ++tau_ok;
        }
        CHECK(nz == 2, "scenario %d: %d exact zeros, want 2", s, nz);
        CHECK(tau_ok == 1, "scenario %d: lambda = -1/tau not found", s);
        CHECK(s == 0 ? ncomplex == 0 : ncomplex == 1, "scenario %d: %d oscillating pairs (seed 001: overdamped, "
                                                      "then underdamped)", s, ncomplex);
        if (s == 0) {
            /* the counterparts: reduced by central differences (second order in the step) and
             * the conventional index-1 ODE in all coordinates (2m = 4 extra zeros) */
            double e = fd_err(&x, 1e-5);
            CHECK(e <= 1e-6, "fd (1e-5) vs exact at the equilibrium: %g", e); /* second order: tests below */
            CHECK(hs_linearize(&g_d.model, &x, HS_LIN_CONVENTIONAL, 1e-7, &g_L2, &err) == 0 &&
                      hs_lin_eigen(&g_L2, &err) == 0,
                  "conventional: %s", err.msg);
            CHECK(g_L2.size == 10, "conventional size %d, want 2n + r + u = 10", g_L2.size);
            {
                int used[HS_LIN_MAX] = {0}, j, small = 0;
                double worst = 0.0;
                for (k = 0; k < g_L.size; ++k) {
                    int best = -1;
                    double bd = INFINITY;
                    for (j = 0; j < g_L2.size; ++j) {
                        double d = hypot(g_L2.eig_re[j] - g_L.eig_re[k], g_L2.eig_im[j] - g_L.eig_im[k]);
                        if (!used[j] && d < bd) {
                            bd = d;
                            best = j;
                        }
                    }
                    used[best] = 1;
                    if (hypot(g_L.eig_re[k], g_L.eig_im[k]) > 0.0)
                        worst = fmax(worst, bd / hypot(g_L.eig_re[k], g_L.eig_im[k]));
                }
                for (j = 0; j < g_L2.size; ++j)
                    if (!used[j] && hypot(g_L2.eig_re[j], g_L2.eig_im[j]) < 1e-3) ++small;
                CHECK(worst <= 1e-6, "conventional vs reduced nonzero eigenvalues: %g relative", worst);
                CHECK(small == 4, "conventional: %d extra (near-)zero eigenvalues, want 2m = 4", small);
            }
        }
        hs_model_desc_free(&g_d);
    }
    CHECK(re_osc[1] < 0.0 && re_osc[2] < 0.0 && re_osc[2] > re_osc[1],
          "less friction, less damping: Re %g (1/10) and %g (1/100)", re_osc[1], re_osc[2]);
}

/* The exact Jacobian against central differences, which converge to it at second order. The
 * spool's columns are left out where U = 0 (the valve's kink). */
static double fd_err(const hs_lin_point *x, double h)
{
    hs_error err;
    double e = 0.0;
    int i, j, n = g_L.size;
    if (hs_linearize(&g_d.model, x, HS_LIN_FD, h, &g_L2, &err)) return INFINITY;
    /* entry by entry, in the units of the steps (column j scaled by max(1, |X_j|)) and
     * relative to its row's largest scaled entry: pressures in Pa and angles in rad mixed */
    for (i = 0; i < n; ++i) {
        double rmax = 0.0;
        for (j = 0; j < n; ++j) rmax = fmax(rmax, fabs(g_L.J[i * n + j]) * fmax(1.0, fabs(g_L.X0[j])));
        for (j = 0; j < n; ++j) {
            if (g_L.state_class[j] == HS_LIN_SPOOL && g_L.X0[j] == 0.0) continue;
            if (rmax > 0.0) e = fmax(e, fabs(g_L2.J[i * n + j] - g_L.J[i * n + j]) * fmax(1.0, fabs(g_L.X0[j])) / rmax);
        }
    }
    return e;
}

static void test_exact_vs_fd(void)
{
    hs_error err;
    hs_lin_point x;
    double e3, e4;
    /* the seed 001 four-bar; Pub. I's with its valve open; seed 003's with LuGre friction
     * (a friction state); the knife-edge pendulum (l = 1: the velocity-dependent terms of eqs.
     * 34, 40 and 52 at a moving state) */
    const char *models[4] = {"models/fourbar3d_agundez2023.yaml", "models/fourbar_rahikainen2018.yaml",
                             "models/fourbar_jaiswal2021_friction.yaml", "models/knife_edge_pendulum.yaml"};
    int i;
    for (i = 0; i < 4; ++i) {
        if (hs_model_load(models[i], &g_d, &err) ||
            (i == 2 && hs_param_set_string(&g_d, "cylinder.lift.friction.model=lugre", &err))) {
            CHECK(0, "load %s: %s", models[i], err.msg);
            continue;
        }
        if (i == 2) CHECK(g_d.model.nfs == 1, "LuGre: one friction state");
        /* a moving state: velocity products and friction at v != 0 enter the Jacobian */
        CHECK(hs_lin_point_at(&g_d.model, 0.5, &x, &err) == 0, "%s at t = 0.5: %s", models[i], err.msg);
        CHECK(fabs(x.t - 0.5) <= 1e-9, "point time %g", x.t);
        CHECK(hs_linearize(&g_d.model, &x, HS_LIN_EXACT, 0.0, &g_L, &err) == 0, "linearize: %s", err.msg);
        e3 = fd_err(&x, 1e-4);
        e4 = fd_err(&x, 1e-5);
        printf("%s at t = 0.5 s: fd vs exact %.3e (h = 1e-4), %.3e (h = 1e-5)\n", models[i], e3, e4);
        CHECK(e4 <= 1e-6, "%s: fd (1e-5) vs exact %g", models[i], e4);
        /* 1/100 for a step 10 times smaller, until rounding (about eps / h = 1e-11) */
        CHECK(e4 <= 0.02 * e3 || e4 <= 1e-10, "%s: second order: %g -> %g for a step 10 times smaller", models[i], e3,
              e4);
        hs_model_desc_free(&g_d);
    }
}

/* Seed 001 with l > 0 (eqs. 29-61): the knife-edge pendulum (models/knife_edge_pendulum.yaml)
 * hanging at rest, its skate's heading down. n = 3, m = 0, l = 1: the Jacobian is 5 x 5 =
 * 2(n - m) - l, with l = 1 spurious zero eigenvalue and 2(n - m - l) = 4 real ones. Those
 * are checked against a hand derivation: at rest the blade (B0 zd = 0, B0 = (L1 + L2, L2, 0)
 * in the relative angles) confines the small motions to B0 q = 0 (for s != 0, B0 s q = 0),
 * so the nonzero eigenvalues are +-i w with det(N^T K N - w^2 N^T M N) = 0, N spanning B0's
 * null space, M and K the mass and gravity-stiffness matrices of the hanging chain (absolute
 * angles a = S phi: every centre of mass moves across the vertical). The conventional
 * counterpart (eq. 99) has 2(m + l) = 2 extra (near-)zero eigenvalues. */
static void test_nonholonomic(void)
{
    hs_error err;
    hs_lin_point x;
    const double g = 9.81, m1 = 1.0, L1 = 1.0, m2 = 1.0, L2 = 0.8, m3 = 2.0, c = 0.3, I3 = 0.02;
    double Ma[3][3] = {{0}}, Ka[3] = {g * (m1 * L1 / 2 + (m2 + m3) * L1), g * (m2 * L2 / 2 + m3 * L2), g * m3 * c};
    double M[3][3], K[3][3], N[2][3] = {{L2, -(L1 + L2), 0.0}, {0.0, 0.0, 1.0}}, Mr[2][2], Kr[2][2], w[2];
    /* the centres of mass' velocities across the vertical per absolute rate, and the rods' and
     * the skate's own inertia about z */
    const double v[3][3] = {{L1 / 2, 0, 0}, {L1, L2 / 2, 0}, {L1, L2, c}}, ms[3] = {m1, m2, m3},
                 Iz[3] = {m1 * L1 * L1 / 12, m2 * L2 * L2 / 12, I3};
    int i, j, k, a, b, nzero = 0, found[2] = {0, 0};
    for (k = 0; k < 3; ++k)
        for (i = 0; i < 3; ++i) {
            for (j = 0; j < 3; ++j) Ma[i][j] += ms[k] * v[k][i] * v[k][j];
            Ma[i][i] += i == k ? Iz[k] : 0.0;
        }
    /* phi -> a: a_i = sum_{j <= i} phi_j, so M = S^T Ma S: M_ij = sum_{a >= i, b >= j} Ma_ab */
    for (i = 0; i < 3; ++i)
        for (j = 0; j < 3; ++j) {
            M[i][j] = K[i][j] = 0.0;
            for (a = i; a < 3; ++a)
                for (b = j; b < 3; ++b) {
                    M[i][j] += Ma[a][b];
                    K[i][j] += a == b ? Ka[a] : 0.0;
                }
        }
    for (a = 0; a < 2; ++a)
        for (b = 0; b < 2; ++b) {
            Mr[a][b] = Kr[a][b] = 0.0;
            for (i = 0; i < 3; ++i)
                for (j = 0; j < 3; ++j) {
                    Mr[a][b] += N[a][i] * M[i][j] * N[b][j];
                    Kr[a][b] += N[a][i] * K[i][j] * N[b][j];
                }
        }
    {
        double qa = Mr[0][0] * Mr[1][1] - Mr[0][1] * Mr[1][0];
        double qb = Mr[0][0] * Kr[1][1] + Mr[1][1] * Kr[0][0] - Mr[0][1] * Kr[1][0] - Mr[1][0] * Kr[0][1];
        double qc = Kr[0][0] * Kr[1][1] - Kr[0][1] * Kr[1][0], dq = sqrt(qb * qb - 4 * qa * qc);
        w[0] = sqrt((qb - dq) / (2 * qa));
        w[1] = sqrt((qb + dq) / (2 * qa));
    }
    if (hs_model_load("models/knife_edge_pendulum.yaml", &g_d, &err) ||
        hs_param_set(&g_d, "joint.j1.z0", -HS_PI / 2, &err) || hs_param_set(&g_d, "joint.j2.z0", 0.0, &err) ||
        hs_param_set(&g_d, "joint.j3.z0", 0.0, &err)) {
        CHECK(0, "knife-edge pendulum: %s", err.msg);
        return;
    }
    CHECK(hs_lin_point_equilibrium(&g_d.model, &x, &err) == 0, "hanging at rest: %s", err.msg);
    CHECK(hs_linearize(&g_d.model, &x, HS_LIN_EXACT, 0.0, &g_L, &err) == 0, "linearize: %s", err.msg);
    CHECK(hs_lin_eigen(&g_L, &err) == 0, "eigen: %s", err.msg);
    CHECK(g_L.n == 3 && g_L.m == 0 && g_L.l == 1 && g_L.size == 5, "sizes n %d m %d l %d size %d (5)", g_L.n, g_L.m,
          g_L.l, g_L.size);
    /* the largest entry of B0 is j1's: z_ad = j1, the independent ones j2, j3 */
    CHECK(g_L.indep[0] == 1 && g_L.indep[1] == 2 && g_L.indep[2] == 0, "partition: z_ai = j2 j3, z_ad = j1");
    CHECK(hs_lin_at_rest(&g_L, &x), "at rest");
    for (k = 0; k < g_L.size; ++k) {
        double re = g_L.eig_re[k], im = fabs(g_L.eig_im[k]);
        if (re == 0.0 && im == 0.0) {
            ++nzero;
            continue;
        }
        for (i = 0; i < 2; ++i)
            if (fabs(im - w[i]) <= 1e-10 * w[i] && fabs(re) <= 1e-12 * w[i]) found[i]++;
    }
    printf("knife-edge pendulum: eigenvalues 0, +-%.15gi, +-%.15gi (by hand: %.15g, %.15g)\n", fabs(g_L.eig_im[0]),
           fabs(g_L.eig_im[3]), w[0], w[1]);
    CHECK(nzero == 1, "l = 1 spurious zero eigenvalue, got %d", nzero);
    CHECK(found[0] == 2 && found[1] == 2, "+-i w1, +-i w2 against the hand derivation (%d, %d found)", found[0],
          found[1]);
    /* the conventional counterpart: 6 x 6, the same nonzero ones and 2(m + l) = 2 near zeros */
    CHECK(hs_linearize(&g_d.model, &x, HS_LIN_CONVENTIONAL, 1e-6, &g_L2, &err) == 0 && hs_lin_eigen(&g_L2, &err) == 0,
          "conventional: %s", err.msg);
    CHECK(g_L2.size == 6, "conventional size %d (2n)", g_L2.size);
    nzero = 0;
    found[0] = found[1] = 0;
    for (k = 0; k < g_L2.size; ++k) {
        double im = fabs(g_L2.eig_im[k]);
        if (hypot(g_L2.eig_re[k], im) <= 1e-4) ++nzero;
        for (i = 0; i < 2; ++i)
            if (fabs(im - w[i]) <= 1e-8 * w[i]) found[i]++;
    }
    CHECK(nzero == 2, "conventional: 2(m + l) = 2 extra (near-)zeros, got %d", nzero);
    CHECK(found[0] == 2 && found[1] == 2, "conventional: the same nonzero eigenvalues");
    hs_model_desc_free(&g_d);
}

int main(void)
{
    test_pendulum();
    test_hydraulic_spring();
    test_fourbar3d();
    test_nonholonomic();
    test_exact_vs_fd();
    return tu_report("test_linearize");
}
