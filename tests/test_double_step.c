/* test_double_step.c -- kernels/hs_double_step.h, the double-step semi-recursive formulation
 * (seed 000 Sects. 2.3 and 4): the full-pivot partition against a hand elimination and the
 * seed's independent coordinates (z3 for the four-bar, z4 for the quick-return); the loop
 * closure to rounding level at every step (seed 000: "to the level of machine precision");
 * the reduced residual against the full equations; agreement with the penalty formulation
 * shrinking as O(dt^2); second order on its own; the energy balance; a poor partition
 * replaced after one step; closure failures flagged, not accepted. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "hs/model_file.h"
#include "hs_batch.h"
#include "engine/simulate.h"
#include "test_util.h"

static hs_work *W, *W2;

/* Full pivoting by hand: J = [1 2 0; 0 1 3] pivots on 3 at (1, 2), then on 2 at (0, 1): the
 * dependent coordinates z1, z2 (0-based 1, 2), the independent z0, |det| of the block 6. A
 * repeated row has rank 1. */
static void test_pivots(void)
{
    hs_model m;
    double J[HS_CAP_CON * HS_CAP_Z], det;
    hs_ds_mask dep, row;
    int r;
    memset(&m, 0, sizeof m);
    m.nz = 3;
    m.ncon = 2;
    memset(J, 0, sizeof J);
    J[0 * HS_CAP_Z + 0] = 1;
    J[0 * HS_CAP_Z + 1] = 2;
    J[1 * HS_CAP_Z + 1] = 1;
    J[1 * HS_CAP_Z + 2] = 3;
    r = hs_ds_pivots(&m, J, &dep, &row, &det);
    CHECK(r == 2 && dep == 6u && row == 3u && fabs(det - 6.0) < 1e-15,
          "full pivoting: rank %d, dependent mask %u (6), rows %u (3), |det| %.17g (6)", r, (unsigned)dep,
          (unsigned)row, det);
    J[1 * HS_CAP_Z + 0] = 2; /* row 1 = 2 row 0 */
    J[1 * HS_CAP_Z + 1] = 4;
    J[1 * HS_CAP_Z + 2] = 0;
    r = hs_ds_pivots(&m, J, &dep, &row, &det);
    CHECK(r == 1 && dep == 2u && row == 2u && fabs(det - 4.0) < 1e-15,
          "a redundant row: rank %d (1), dependent %u (2), row %u (2), |det| %g (4)", r, (unsigned)dep,
          (unsigned)row, det);
    /* the masks span every row and coordinate the sizes allow (HS_MAX_CON 64, HS_MAX_Z 32):
     * the pivot in row 40 and column 31 sets bits 40 and 31 */
    m.nz = HS_CAP_Z;
    m.ncon = 41;
    memset(J, 0, sizeof J);
    J[40 * HS_CAP_Z + HS_CAP_Z - 1] = 5.0;
    r = hs_ds_pivots(&m, J, &dep, &row, &det);
    CHECK(r == 1 && dep == (hs_ds_mask)1 << (HS_CAP_Z - 1) && row == (hs_ds_mask)1 << 40 && det == 5.0,
          "row 40, column %d: rank %d, masks %llx %llx", HS_CAP_Z - 1, r, (unsigned long long)dep,
          (unsigned long long)row);
}

/* Runs m from its initial state for n steps; the largest |Phi| (holonomic rows) and
 * |Phi_z zd| seen after each step into *phimax, *phidmax; max |E_balance| into *ebal when
 * given (mechanisms without hydraulics: E_kin + E_pot - W_ext). Returns the status. */
static int run(const hs_model *m, hs_state *s, hs_work *w, long n, double *phimax, double *phidmax, double *ebal)
{
    hs_obs o;
    double E0;
    long k;
    int st = hs_init(m, s, w);
    if (st) return st;
    hs_observe_current(m, s, w, &o);
    E0 = o.Ekin + o.Epot - s->W_ext - o.W_cyl;
    *phimax = *phidmax = 0.0;
    if (ebal) *ebal = 0.0;
    for (k = 0; k < n; ++k) {
        st = hs_step(m, s, w);
        if (st) return st;
        hs_observe_current(m, s, w, &o);
        if (o.phi_norm > *phimax) *phimax = o.phi_norm;
        if (o.phid_norm > *phidmax) *phidmax = o.phid_norm;
        if (ebal && fabs(o.Ekin + o.Epot - s->W_ext - o.W_cyl - E0) > *ebal)
            *ebal = fabs(o.Ekin + o.Epot - s->W_ext - o.W_cyl - E0);
    }
    return 0;
}

/* The reduced residual is R^T of the full one (eq. 16): at a closed iterate, for a change dz_i
 * of the independent coordinate and the dependent ones following (R dz_i), the virtual work
 * of the full z rows equals that of the reduced rows. And the dependent rows are 0. */
static void test_reduction(void)
{
    static hs_model_desc d;
    static hs_state s;
    double f[HS_MAX_X], v[HS_MAX_Z], full = 0.0, red = 0.0;
    int i, n;
    if (tu_load_model("models/fourbar_jaiswal2021.yaml", &d)) return;
    d.model.formulation = HS_FORM_DOUBLE_STEP;
    n = d.model.nz;
    CHECK(hs_init(&d.model, &s, W) == 0, "init");
    hs_step_span(&d.model, &s, W);
    hs_step_prologue(&d.model, &s, W, NULL);
    W->x[2] += 1e-3; /* away from the predictor: a residual far from 0 */
    CHECK(hs_ds_residual(&d.model, &s, W->t1, W->x, W, f) == 0, "the iterate closes");
    for (i = 0; i < n; ++i)
        if ((s.ds_dep >> i) & 1u) CHECK(f[i] == 0.0, "dependent row %d is 0", i);
    /* a velocity-like direction: independent component 1, dependent ones from eq. 13 */
    for (i = 0; i < n; ++i) v[i] = (s.ds_dep >> i) & 1u ? 0.0 : 1.0;
    hs_ds_dependent(&d.model, &s, W, v, NULL);
    {
        /* the full rows r (before the reduction) from hs_residual_rows on the same w */
        double r[HS_MAX_X];
        hs_residual_rows(&d.model, &s, W->x, W, r);
        for (i = 0; i < n; ++i) {
            full += r[i] * v[i];
            red += f[i] * ((s.ds_dep >> i) & 1u ? 0.0 : 1.0);
        }
    }
    CHECK(fabs(full - red) <= 1e-12 * fabs(full) && fabs(full) > 0.0,
          "virtual work of the full rows %.17g = that of the reduced rows %.17g", full, red);
    hs_model_desc_free(&d);
}

/* Seed 000's two mechanisms (models/fourbar_jaiswal2021.yaml, quickreturn_jaiswal2021.yaml)
 * over the first 3 s of the cycle (the valve opens at 1 s and closes at 2.5 s): the
 * independent coordinate the seed reports, the loop closure at rounding level at every step,
 * and the trajectories against the penalty formulation, their difference falling as dt^2
 * (dt 1 ms -> 0.5 ms: ratio 4). */
static void test_seed000(const char *file, const char *indep)
{
    static hs_model_desc d;
    static hs_state sd, sp;
    char names[128];
    double diff[2], phimax = 0.0, phidmax = 0.0, eb = 0.0, phimax_p = 0.0, phidmax_p = 0.0;
    int k, i, v;
    if (tu_load_model(file, &d)) return;
    d.model.t_end = 3.0;
    for (k = 0; k < 2; ++k) {
        hs_model md = d.model, mp = d.model;
        long n;
        md.dt = mp.dt = k == 0 ? 1e-3 : 5e-4;
        md.formulation = HS_FORM_DOUBLE_STEP;
        n = hs_instance_steps(md.t_end, md.dt);
        CHECK(run(&md, &sd, W, n, &phimax, &phidmax, &eb) == 0, "%s: double-step runs 3 s at dt %g (status %d)", file,
              md.dt, sd.status);
        CHECK(run(&mp, &sp, W2, n, &phimax_p, &phidmax_p, NULL) == 0, "%s: penalty runs", file);
        if (k == 0) {
            hs_independent_names(&d, sd.ds_dep, names, sizeof names);
            CHECK(!strcmp(names, indep) && sd.ds_repart == 0, "%s: independent coordinate %s (the seed's %s), %d "
                  "re-partitions", file, names, indep, sd.ds_repart);
            printf("  %s: independent %s; max |Phi| %.2e (penalty %.2e), max |Phi_z zd| %.2e, max |E_balance| %.3e J, "
                   "iterations %.3f / %d (penalty %.3f / %d)\n",
                   file, names, phimax, phimax_p, phidmax, eb, (double)sd.iters_total / sd.step, sd.iters_max,
                   (double)sp.iters_total / sp.step, sp.iters_max);
            /* machine precision: positions of metres, rounding ~1e-16 each */
            CHECK(phimax <= 1e-12, "%s: the loop closed to %.2e <= 1e-12 at every step", file, phimax);
            CHECK(phidmax <= 1e-11, "%s: Phi_z zd = %.2e <= 1e-11 at every step", file, phidmax);
        }
        diff[k] = 0.0;
        for (i = 0; i < d.model.nz; ++i)
            if (fabs(sd.z[i] - sp.z[i]) > diff[k]) diff[k] = fabs(sd.z[i] - sp.z[i]);
        for (v = 0; v < d.model.nvol; ++v)
            if (fabs(sd.p[v] - sp.p[v]) * 1e-9 > diff[k]) diff[k] = fabs(sd.p[v] - sp.p[v]) * 1e-9;
    }
    printf("  %s: double-step vs penalty at t = 3 s: %.3e (dt 1 ms), %.3e (0.5 ms): ratio %.2f\n", file, diff[0], diff[1],
           diff[0] / diff[1]);
    /* the two are different second-order discretisations of one solution: their difference is
     * O(dt^2) (the Newton tolerance, 1e-7 rad, is far below it here) */
    CHECK(diff[0] / diff[1] > 3.0 && diff[0] / diff[1] < 5.0, "%s: the difference falls as dt^2 (ratio %.2f in [3, 5])",
          file, diff[0] / diff[1]);
    CHECK(diff[0] < 1e-5, "%s: the formulations agree to %.2e at dt = 1 ms", file, diff[0]);
    hs_model_desc_free(&d);
}

/* The double pendulum made a closed chain: no. A mechanism without hydraulics, the four-bar of
 * tests/test_util.h (tu_fourbar) swinging under gravity: second order of the double-step
 * solution on its own (successive differences at dt = 4, 2, 1, 0.5 ms) and its energy
 * balance; the trapezoidal rule conserves energy to O(dt^2). */
static void test_order_energy(void)
{
    static hs_state s;
    hs_model m;
    double zs[4][3], dts[4] = {4e-3, 2e-3, 1e-3, 5e-4}, err[3], phimax = 0.0, phidmax = 0.0, eb = 0.0;
    int i, j;
    tu_fourbar(&m);
    m.formulation = HS_FORM_DOUBLE_STEP;
    m.t_end = 1.0;
    m.tol_z = 1e-12;
    for (i = 0; i < 4; ++i) {
        m.dt = dts[i];
        CHECK(run(&m, &s, W, hs_instance_steps(m.t_end, m.dt), &phimax, &phidmax, i == 2 ? &eb : NULL) == 0,
              "four-bar, double-step, dt %g runs", dts[i]);
        for (j = 0; j < 3; ++j) zs[i][j] = s.z[j];
        CHECK(phimax <= 1e-12, "four-bar: |Phi| %.2e <= 1e-12 at every step (dt %g)", phimax, dts[i]);
    }
    for (i = 0; i < 3; ++i) {
        err[i] = 0.0;
        for (j = 0; j < 3; ++j) err[i] += fabs(zs[i][j] - zs[i + 1][j]);
    }
    for (i = 0; i < 2; ++i) {
        double p = log(err[i] / err[i + 1]) / log(2.0);
        printf("  four-bar, double-step: observed order %.3f (dt %g -> %g)\n", p, dts[i + 1], dts[i + 2]);
        CHECK(p > 1.8 && p < 2.2, "four-bar, double-step: observed order %.3f in [1.8, 2.2]", p);
    }
    printf("  four-bar, double-step, dt = 1 ms: max |E - E0| %.3e J\n", eb);
    /* potential energy swings of ~1e3 J: the balance within 1e-4 of it */
    CHECK(eb < 0.1, "four-bar, double-step: energy balance %.3e J < 0.1 J", eb);
}

/* |det| of the block of J (ld HS_CAP_Z) with the rows in row and the columns in dep. */
static double block_det(const double *J, unsigned int row, unsigned int dep, int nc, int nz)
{
    double A[HS_CAP_Z * HS_CAP_Z], d = 1.0;
    int ri[HS_CAP_CON], ci[HS_CAP_Z], piv[HS_CAP_Z], r = 0, c = 0, i, k;
    for (i = 0; i < nc; ++i)
        if ((row >> i) & 1u) ri[r++] = i;
    for (i = 0; i < nz; ++i)
        if ((dep >> i) & 1u) ci[c++] = i;
    if (r != c) return 0.0;
    for (i = 0; i < r; ++i)
        for (k = 0; k < r; ++k) A[i * HS_CAP_Z + k] = J[ri[i] * HS_CAP_Z + ci[k]];
    if (hs_lu_factor(A, r, HS_CAP_Z, piv)) return 0.0;
    for (i = 0; i < r; ++i) d /= fabs(A[i * HS_CAP_Z + i]); /* the diagonal holds 1/u_ii */
    return d;
}

/* A poor partition (the dependent block with the smallest non-zero |det|) put in place after
 * hs_init is replaced by the full-pivot choice after the first step, counted once; the run
 * then agrees with one that started with the good partition to far below the Newton
 * tolerance (both close the same loop; only which coordinates Newton moves differs). The
 * seed 000 quick-return (5 coordinates, 4 constraint rows) over 0.5 s. */
static void test_repartition(void)
{
    static hs_model_desc d;
    static hs_state s, g;
    hs_model m;
    double J[HS_CAP_CON * HS_CAP_Z], worst = 1e300, best = 0.0;
    unsigned int poor = 0u, good, mask;
    int k, i, nz;
    if (tu_load_model("models/quickreturn_jaiswal2021.yaml", &d)) return;
    m = d.model;
    m.formulation = HS_FORM_DOUBLE_STEP;
    m.t_end = 0.5;
    nz = m.nz;
    CHECK(hs_init(&m, &s, W) == 0 && hs_init(&m, &g, W2) == 0, "init");
    good = g.ds_dep;
    memcpy(J, W->J, sizeof J);
    for (mask = 0; mask < (1u << nz); ++mask) { /* every block of as many columns as rows */
        double dt;
        int bits = 0;
        for (i = 0; i < nz; ++i) bits += (mask >> i) & 1u;
        if (bits != m.ncon) continue;
        dt = block_det(J, s.ds_row, mask, m.ncon, nz);
        if (dt > 0.0 && dt < worst) {
            worst = dt;
            poor = mask;
        }
        if (dt > best) best = dt;
    }
    CHECK(poor != good && worst < HS_DS_REPART * best &&
              fabs(block_det(J, s.ds_row, good, m.ncon, nz) - best) <= 1e-12 * best,
          "the full-pivot choice has the largest |det| (%.3g); a poor partition exists (mask %u: %.3g)", best, poor,
          worst);
    s.ds_dep = (unsigned short)poor;
    CHECK(hs_step(&m, &s, W) == 0, "a step with the poor partition");
    CHECK(s.ds_dep == good && s.ds_repart == 1, "replaced by the full-pivot choice after one step (mask %u, %d)",
          s.ds_dep, s.ds_repart);
    CHECK(hs_step(&m, &g, W2) == 0, "the same step with the good one");
    for (k = 1; k < 500; ++k) {
        if (hs_step(&m, &s, W) || hs_step(&m, &g, W2)) break;
    }
    CHECK(k == 500, "500 steps with both (%d)", k);
    CHECK(s.ds_repart == 1 && g.ds_repart == 0, "no further changes (%d, %d)", s.ds_repart, g.ds_repart);
    for (i = 0; i < nz; ++i)
        CHECK(fabs(s.z[i] - g.z[i]) < 1e-9, "z%d after 0.5 s: %.17g vs %.17g", i + 1, s.z[i], g.z[i]);
    hs_model_desc_free(&d);
}

/* A loop that cannot close is flagged, not accepted: after hs_init the cut's ground point is
 * moved 100 m away (no configuration reaches it); the step ends with MAXITER |
 * SINGULAR_CONFIG and the state stays the last good one. */
static void test_closure_failure(void)
{
    static hs_state s;
    hs_model m;
    double z0[3];
    tu_fourbar(&m);
    m.formulation = HS_FORM_DOUBLE_STEP;
    m.dt = 1e-3;
    CHECK(hs_init(&m, &s, W) == 0, "init");
    memcpy(z0, s.z, sizeof z0);
    m.cut_at_b[0][0] = 100.0;
    hs_model_derive(&m);
    CHECK(hs_step(&m, &s, W) == (HS_ST_MAXITER | HS_ST_SINGULAR_CONFIG), "flagged MAXITER | SINGULAR_CONFIG (status %d)",
          s.status);
    CHECK(s.z[0] == z0[0] && s.z[1] == z0[1] && s.z[2] == z0[2] && s.t == 0.0 && s.step == 0,
          "the state is the last good one");
}

/* A sweep may vary the formulation per instance: an instance that asks for double_step on a
 * model with a nonholonomic cut (the knife edge) is invalid (HS_ST_INVALID, never run), as
 * the model-file rule says; the penalty instance beside it is valid. So is an enumeration
 * value out of range. */
static void test_instance_refusal(void)
{
    static hs_model_desc d;
    static hs_model mi;
    hs_override_spec ov;
    double v[3] = {HS_FORM_PENALTY, HS_FORM_DOUBLE_STEP, 2.0};
    if (tu_load_model("models/knife_edge_pendulum.yaml", &d)) return;
    memset(&ov, 0, sizeof ov);
    ov.n = 1;
    ov.offset[0] = offsetof(hs_model, formulation);
    ov.is_int[0] = 1;
    CHECK(hs_instance_model(&d.model, &ov, &v[0], &mi), "knife edge, penalty: a valid instance");
    CHECK(!hs_instance_model(&d.model, &ov, &v[1], &mi), "knife edge, double_step: an invalid instance");
    CHECK(!hs_instance_model(&d.model, &ov, &v[2], &mi), "formulation 2: an invalid instance");
    hs_model_desc_free(&d);
    if (tu_load_model("models/fourbar_jaiswal2021.yaml", &d)) return;
    CHECK(hs_instance_model(&d.model, &ov, &v[1], &mi), "four-bar, double_step: a valid instance");
    hs_model_desc_free(&d);
}

int main(void)
{
    W = (hs_work *)calloc(1, sizeof *W);
    W2 = (hs_work *)calloc(1, sizeof *W2);
    test_pivots();
    test_reduction();
    test_seed000("models/fourbar_jaiswal2021.yaml", "z3");
    test_seed000("models/quickreturn_jaiswal2021.yaml", "z4");
    test_order_energy();
    test_repartition();
    test_closure_failure();
    test_instance_refusal();
    free(W);
    free(W2);
    return tu_report("test_double_step");
}
