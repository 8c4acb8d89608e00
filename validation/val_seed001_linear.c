/* val_seed001_linear.c -- the linearized model against the nonlinear one (seed 001 Sect. 4.4,
 * eqs. 92-94), in the seed's three friction scenarios (F_c, F_s, sigma2 at 1, 1/10 and 1/100
 * of Table 2's values), on models/fourbar3d_agundez2023.yaml.
 *
 * The nonlinear model runs with the torque M2 of eq. (92) (a ramp to 250 N m over 1 s, held
 * to t2 = 1.5 s, then removed). The linear model dX/dt = J X (eq. 93), J the exact reduced
 * Jacobian at the static equilibrium (hydrosweep linearize), starts at t2 from the nonlinear
 * state's deviation (eq. 94: phi2, its rate, the pressures and the spool) and runs to the end.
 * Both are integrated by the same trapezoidal rule at the same step, so the difference is
 * the linearization's alone, not a time-discretization error (the fast pressure mode,
 * about -23 000 1/s, is not resolved at 0.1 ms by either).
 *
 * Also: the equilibrium pressures (seed: p1 = p2 = 2.82 MPa, p3 = 3.5 MPa), that the
 * nonlinear run returns to the equilibrium after the torque (to rounding), and the
 * eigenvalues' character per scenario. The eigenvalues of seed 001's Table 3 are not in the
 * seed copy: they are printed, not compared. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hs/linearize.h"
#include "hs/model_file.h"
#include "hs_linalg.h"
#include "engine/simulate.h"
#include "val_report.h"

#define T2 1.5
#define DT 1e-4
#define TEND 2.5
#define NS ((int)(TEND / DT + 0.5) + 1)

typedef struct rec {
    double *phi, *phid, *p[3]; /* per step k (t = k DT) */
} rec;

static int record(void *ctx, const hs_model *m, const hs_state *s, const hs_obs *o, double Eb)
{
    rec *r = (rec *)ctx;
    long k = s->step;
    (void)m;
    (void)o;
    (void)Eb;
    if (k < 0 || k >= NS) return 0;
    r->phi[k] = s->z[0];
    r->phid[k] = s->zd[0];
    r->p[0][k] = s->p[0];
    r->p[1][k] = s->p[1];
    r->p[2][k] = s->p[2];
    return 0;
}

static hs_model_desc g_d;
static hs_linearization g_L;

/* Loads the model with friction scaled by f and the torque by tq (M0 = 250 tq N m). */
static int load(double f, double tq, hs_error *err)
{
    return hs_model_load("models/fourbar3d_agundez2023.yaml", &g_d, err) ||
           hs_param_set(&g_d, "cylinder.lift.friction.Fc", 210.0 * f, err) ||
           hs_param_set(&g_d, "cylinder.lift.friction.Fs", 830.0 * f, err) ||
           hs_param_set(&g_d, "cylinder.lift.friction.sigma2", 330.0 * f, err) ||
           hs_param_set(&g_d, "load.M2.torque.x", tq, err) || hs_param_set(&g_d, "integrator.dt", DT, err) ||
           hs_param_set(&g_d, "integrator.t_end", TEND, err);
}

/* The nonlinear run of the loaded model into r; 0 when it reached t_end. */
static int run_nonlinear(rec *r)
{
    hs_sim_summary sum;
    int j;
    r->phi = (double *)calloc((size_t)NS, sizeof(double));
    r->phid = (double *)calloc((size_t)NS, sizeof(double));
    for (j = 0; j < 3; ++j) r->p[j] = (double *)calloc((size_t)NS, sizeof(double));
    if (!r->phi || !r->phid || !r->p[0] || !r->p[1] || !r->p[2]) return 1;
    hs_simulate(&g_d.model, record, r, &sum);
    return !(fabs(sum.t_final - TEND) <= 1e-9);
}

static void rec_free(rec *r)
{
    int j;
    free(r->phi);
    free(r->phid);
    for (j = 0; j < 3; ++j) free(r->p[j]);
}

/* The linear model (eq. 93) from the nonlinear state at t2 (eq. 94), by the same trapezoidal
 * rule, (I - h/2 J) X_{k+1} = (I + h/2 J) X_k; the largest differences of phi2 and of the
 * pressures over [t2, t_end], relative to the largest nonlinear deviations there. */
static int compare_linear(const hs_lin_point *x0, const rec *r, double *rphi, double *rp, double *dphi2)
{
    double A[HS_LIN_MAX * HS_LIN_MAX], B[HS_LIN_MAX * HS_LIN_MAX], X[HS_LIN_MAX], Y[HS_LIN_MAX];
    double ephi = 0.0, aphi = 0.0, ep = 0.0, ap = 0.0;
    int piv[HS_LIN_MAX], n = g_L.size, i, j, k, k2 = (int)(T2 / DT + 0.5);
    memset(X, 0, sizeof X);
    X[0] = r->phi[k2] - x0->z[0]; /* X = (phi2, phi2_dot, p1, p2, p3, U): U stays 0 (U_ref = 0) */
    X[1] = r->phid[k2];
    for (j = 0; j < 3; ++j) X[2 + j] = r->p[j][k2] - x0->p[j];
    for (i = 0; i < n; ++i)
        for (j = 0; j < n; ++j) {
            A[i * HS_LIN_MAX + j] = (i == j) - 0.5 * DT * g_L.J[i * n + j];
            B[i * HS_LIN_MAX + j] = (i == j) + 0.5 * DT * g_L.J[i * n + j];
        }
    if (hs_lu_factor(A, n, HS_LIN_MAX, piv)) return 1;
    for (k = k2; k < NS; ++k) {
        double d = r->phi[k] - x0->z[0];
        ephi = fmax(ephi, fabs(X[0] - d));
        aphi = fmax(aphi, fabs(d));
        for (j = 0; j < 3; ++j) {
            double dp = r->p[j][k] - x0->p[j];
            ep = fmax(ep, fabs(X[2 + j] - dp));
            ap = fmax(ap, fabs(dp));
        }
        for (i = 0; i < n; ++i) {
            Y[i] = 0.0;
            for (j = 0; j < n; ++j) Y[i] += B[i * HS_LIN_MAX + j] * X[j];
        }
        hs_lu_solve(A, n, HS_LIN_MAX, piv, Y);
        memcpy(X, Y, sizeof(double) * (size_t)n);
    }
    *rphi = ephi / aphi;
    *rp = ep / ap;
    *dphi2 = r->phi[k2] - x0->z[0];
    return 0;
}

static void scenario(double f, const char *name, double tol)
{
    hs_error err;
    hs_lin_point x0;
    rec r;
    int i, c;
    double rphi[2], rp[2], dphi[2], tq[2] = {1.0, 0.1};
    char buf[160];

    printf("\n%s: F_c, F_s, sigma2 x %g\n", name, f);
    for (c = 0; c < 2; ++c) {
        memset(&r, 0, sizeof r);
        if (load(f, tq[c], &err)) {
            printf("  model: %s\n", err.msg);
            val_count(0);
            return;
        }
        if (hs_lin_point_equilibrium(&g_d.model, &x0, &err) ||
            hs_linearize(&g_d.model, &x0, HS_LIN_EXACT, 0.0, &g_L, &err) || hs_lin_eigen(&g_L, &err)) {
            printf("  linearize: %s\n", err.msg);
            val_count(0);
            hs_model_desc_free(&g_d);
            return;
        }
        if (c == 0) {
            check("Jacobian size (2(n - m) - l + r + u)", g_L.size, 6, 6);
            check_line("equilibrium p1 (Pa)", "2.82e6", x0.p[0], fabs(x0.p[0] - 2.82e6) / 2.82e6, "< 1e-3 rel",
                       fabs(x0.p[0] - 2.82e6) <= 2.82e3);
            check_line("equilibrium p2 - p1 (Pa)", "0", x0.p[1] - x0.p[0], fabs(x0.p[1] - x0.p[0]), "< 1e-6 Pa",
                       fabs(x0.p[1] - x0.p[0]) <= 1e-6);
            for (i = 0; i < g_L.size; ++i) {
                double z = hs_lin_damping(g_L.eig_re[i], g_L.eig_im[i]);
                char zs[32];
                snprintf(buf, sizeof buf, "lambda_%d (%s)", i + 1, hs_lin_class_name(g_L.label[i]));
                if (isnan(z)) snprintf(zs, sizeof zs, "-");
                else snprintf(zs, sizeof zs, "%.6f", z);
                printf("  %-40s %25.17g %+25.17gi  damping %s\n", buf, g_L.eig_re[i], g_L.eig_im[i], zs);
            }
        }
        if (run_nonlinear(&r) || compare_linear(&x0, &r, &rphi[c], &rp[c], &dphi[c])) {
            printf("  the nonlinear run or the linear one failed\n");
            val_count(0);
            rec_free(&r);
            hs_model_desc_free(&g_d);
            return;
        }
        printf("  M0 = %5.1f N m: deviation at t2 %.4e rad; linear vs nonlinear over [t2, %g] s: phi2 %.3e, "
               "pressures %.3e (relative to the largest deviation)\n",
               250.0 * tq[c], dphi[c], TEND, rphi[c], rp[c]);
        rec_free(&r);
        hs_model_desc_free(&g_d);
    }
    snprintf(buf, sizeof buf, "phi2: linear vs nonlinear, M0 = 250 N m (< %g)", tol);
    check(buf, rphi[0], 0.0, tol);
    snprintf(buf, sizeof buf, "pressures: linear vs nonlinear, M0 = 250 N m (< %g)", tol);
    check(buf, rp[0], 0.0, tol);
    /* the difference is the linearization's: the nonlinearity that matters, the friction's
     * tanh in the rod velocity, is odd, so the first neglected term is cubic and a tenth of
     * the torque gives about a hundredth of the relative difference (a tenth would be a
     * quadratic term; no decrease an error of the Jacobian) */
    check("phi2: relative difference at 25 N m / at 250 N m (< 0.05)", rphi[1] / rphi[0], 0.0, 0.05);
    check("pressures: relative difference at 25 N m / at 250 N m (< 0.05)", rp[1] / rp[0], 0.0, 0.05);
}

/* Without the torque the nonlinear run stays at the equilibrium (seed 001 eq. 90-91). */
static void at_rest(void)
{
    hs_error err;
    hs_lin_point x0;
    rec r;
    double dphi = 0.0, dp = 0.0;
    int k, j;
    memset(&r, 0, sizeof r);
    printf("\nno torque: the equilibrium run\n");
    if (load(1.0, 0.0, &err) || hs_lin_point_equilibrium(&g_d.model, &x0, &err) || run_nonlinear(&r)) {
        printf("  failed: %s\n", err.msg);
        val_count(0);
        rec_free(&r);
        return;
    }
    for (k = 0; k < NS; ++k) {
        dphi = fmax(dphi, fabs(r.phi[k] - x0.z[0]));
        for (j = 0; j < 3; ++j) dp = fmax(dp, fabs(r.p[j][k] - x0.p[j]));
    }
    check("max |phi2 - phi2_0| over [0, t_end] (rad)", dphi, 0.0, 1e-13);
    check("max |p - p0| over [0, t_end] (Pa)", dp, 0.0, 1e-6);
    rec_free(&r);
    hs_model_desc_free(&g_d);
}

/* Seed 001's cylinder is seed 003's (D2 80 mm, D3 35 mm, l 0.9 m), and its Table 3 was
 * computed with seed 003's chamber lengths, 0.300 m piston side and 0.600 m rod side, not with
 * eq. 73's sqrt(3) - 1.43 m: the model must carry them (the check of the published eigenvalues
 * themselves is kept outside the project, whose copy of the seed withholds them). */
static void chambers(void)
{
    static hs_model_desc a, b;
    hs_error err;
    printf("\nthe cylinder: seed 003's chamber lengths (Table 3's)\n");
    if (hs_model_load("models/fourbar3d_agundez2023.yaml", &a, &err) ||
        hs_model_load("models/fourbar_jaiswal2021_friction.yaml", &b, &err)) {
        printf("  failed: %s\n", err.msg);
        val_count(0);
        return;
    }
    check("piston-side chamber at t = 0, seed 001 model (m)", a.model.cyl_l_p0[0], 0.300, 0.300);
    check("rod-side chamber at t = 0, seed 001 model (m)", a.model.cyl_stroke[0] - a.model.cyl_l_p0[0], 0.6 - 1e-15,
          0.6 + 1e-15);
    check("|piston-side chamber - seed 003's| (m)", fabs(a.model.cyl_l_p0[0] - b.model.cyl_l_p0[0]), 0.0, 0.0);
    check("|D2 - seed 003's| + |D3 - seed 003's| + |l - seed 003's| (m)",
          fabs(a.model.cyl_d_piston[0] - b.model.cyl_d_piston[0]) + fabs(a.model.cyl_d_rod[0] - b.model.cyl_d_rod[0]) +
              fabs(a.model.cyl_stroke[0] - b.model.cyl_stroke[0]),
          0.0, 0.0);
    hs_model_desc_free(&a);
    hs_model_desc_free(&b);
}

int main(void)
{
    double t0 = val_now();
    printf("val_seed001_linear: linear (eq. 93, exact Jacobian) vs nonlinear, seed 001 four-bar, dt = %g s\n", DT);
    chambers();
    at_rest();
    scenario(1.0, "overdamped (Table 2 friction)", 0.05);
    scenario(0.1, "underdamped (friction / 10)", 0.2);
    scenario(0.01, "underdamped (friction / 100)", 0.2);
    printf("\nwall %.2f s\n%d passed, %d failed\n", val_now() - t0, npass, nfail);
    return nfail ? 1 : 0;
}
