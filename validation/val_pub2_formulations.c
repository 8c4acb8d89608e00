/* val_pub2_formulations.c -- seed 004 Publication II: the lumped-fluid and the
 * singular-perturbation formulation of the small valve volume (7.85e-7 m^3) on the 7 s work
 * cycle of models/fourbar_rahikainen2018_smallvalve.yaml, at dt = 0.5, 1, 2, 3, 5, 8 ms with
 * the paper's limit of 100 Newton iterations.
 *
 * Paper values (Pub. II Sect. 4, Table 3, Figs. 4 and 8):
 *   iterations avg./max, lumped fluid: 0.5 ms 1.76/4, 1 ms 2.26/4, 2 ms 2.52/4, 3-8 ms fail;
 *   singular perturbation: 1.62/4, 1.76/4, 1.81/3, 1.83/4, 1.85/3, 1.90/4;
 *   the cylinder length "practically identical" with both (Fig. 4, 2 ms lumped vs 8 ms SP);
 *   the energy balance at 8 ms with SP within about 8 J (Fig. 8) against about 1400 J of work.
 * Asserted:
 *   singular perturbation reaches t = 7 s at every dt; its mean iterations within 0.15 of the
 *     paper's at 0.5-3 ms and its max within 2 of the paper's at every dt;
 *   lumped fluid reaches 7 s at 0.5-2 ms with mean iterations within 0.15 of the paper's;
 *   peak |E_balance| with SP at 8 ms below 8 J;
 *   the two formulations' cylinder lengths within 1 mm of each other at 0.5 and 1 ms (0.5 % of
 *     the 0.19 m stroke the cycle uses), and SP at 8 ms within 2.5 mm of lumped at 0.5 ms.
 * Reported, not asserted: lumped fluid at 3-8 ms, where ours converges and the paper's did
 *   not (our Newton on the same equations reaches 7 s; the paper does not say what stopped its
 *   iteration, so we cannot tell why); every iteration count beside the paper's; the wall
 *   time ratio SP/LF. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hs/model_file.h"
#include "engine/simulate.h"
#include "val_report.h"

#define MODEL "models/fourbar_rahikainen2018_smallvalve.yaml"
#define NDT 6
#define NS 14001 /* s_lift every 0.5 ms over [0, 7] s */

typedef struct run_ctx {
    val_peaks pk;
    double dt;
    double *s; /* s_lift at t = k dt (NS) */
} run_ctx;

static int on_step(void *vctx, const hs_model *m, const hs_state *s, const hs_obs *o, double Eb)
{
    run_ctx *c = (run_ctx *)vctx;
    long k = (long)floor(s->t / c->dt + 0.5);
    (void)m;
    val_peaks_update(&c->pk, s->W_cyl[0], Eb, s->t);
    if (k >= 0 && k < NS) c->s[k] = o->s[0];
    return 0;
}

typedef struct result {
    hs_sim_summary sum;
    run_ctx c;
    int ok;
} result;

static double g_s[2][NDT][NS];

static int run(hs_model_desc *d, int sp, int k, double dt, result *r)
{
    hs_error err;
    char set[96];
    double t0;
    snprintf(set, sizeof set, "volume.valve.model=%s", sp ? "singular_perturbation" : "lumped");
    if (hs_param_set_string(d, set, &err) || hs_param_set(d, "integrator.dt", dt, &err) ||
        hs_param_set(d, "integrator.max_iter", 100.0, &err)) return val_err("val_pub2_formulations", &err);
    memset(r, 0, sizeof *r);
    r->c.dt = dt;
    r->c.s = g_s[sp][k];
    for (long i = 0; i < NS; ++i) r->c.s[i] = NAN;
    t0 = val_now();
    hs_simulate(&d->model, on_step, &r->c, &r->sum);
    r->sum.wall_s = val_now() - t0;
    r->ok = r->sum.status == 0 && r->sum.steps == r->sum.steps_planned;
    return 0;
}

/* max |a(t) - b(t)| over the times both have (a every da, b every db; db a multiple of da). */
static double max_diff(const double *a, double da, const double *b, double db)
{
    long r = (long)floor(db / da + 0.5), k;
    double e = 0.0;
    for (k = 0; k * r < NS; ++k)
        if (!isnan(a[k * r]) && !isnan(b[k])) e = fmax(e, fabs(a[k * r] - b[k]));
    return e;
}

int main(void)
{
    static const double dts[NDT] = {0.5e-3, 1e-3, 2e-3, 3e-3, 5e-3, 8e-3};
    static const double p_lf[NDT] = {1.76, 2.26, 2.52, NAN, NAN, NAN};
    static const int p_lf_max[NDT] = {4, 4, 4, 0, 0, 0};
    static const double p_sp[NDT] = {1.62, 1.76, 1.81, 1.83, 1.85, 1.90};
    static const int p_sp_max[NDT] = {4, 4, 3, 4, 3, 4};
    static result res[2][NDT];
    hs_model_desc d;
    hs_error err;
    char q[128], p[32];
    int k, f;
    double ds[NDT];

    if (hs_model_load(MODEL, &d, &err) != HS_OK) return val_err("val_pub2_formulations", &err);
    printf("val_pub2_formulations: %s, lumped fluid (LF) against singular perturbation (SP) of the "
           "valve volume (seed 004 Pub. II Sect. 4, Table 3)\n", MODEL);
    for (f = 0; f < 2; ++f)
        for (k = 0; k < NDT; ++k)
            if (run(&d, f, k, dts[k], &res[f][k])) return 1;
    for (k = 0; k < NDT; ++k) ds[k] = max_diff(g_s[0][k], dts[k], g_s[1][k], dts[k]);

    printf("\n  %-7s | %-6s %6s %4s %-9s %9s | %-6s %6s %4s %-9s %9s | %10s %7s\n", "dt [ms]", "LF", "iters",
           "max", "paper", "|Ebal| J", "SP", "iters", "max", "paper", "|Ebal| J", "|s_SP-s_LF|", "SP/LF t");
    for (k = 0; k < NDT; ++k) {
        const result *a = &res[0][k], *b = &res[1][k];
        char pl[32], ps[32];
        if (p_lf_max[k]) snprintf(pl, sizeof pl, "%.2f/%d", p_lf[k], p_lf_max[k]);
        else snprintf(pl, sizeof pl, "fail");
        snprintf(ps, sizeof ps, "%.2f/%d", p_sp[k], p_sp_max[k]);
        printf("  %-7g | %-6s %6.3f %4d %-9s %9.3f | %-6s %6.3f %4d %-9s %9.3f | %8.3f mm %7.2f\n", dts[k] * 1e3,
               a->ok ? "ok" : "FAIL", a->sum.mean_iters, a->sum.max_iters, pl, a->c.pk.Ebpeak, b->ok ? "ok" : "FAIL",
               b->sum.mean_iters, b->sum.max_iters, ps, b->c.pk.Ebpeak, 1e3 * ds[k],
               a->sum.wall_s > 0.0 ? b->sum.wall_s / a->sum.wall_s : NAN);
    }
    printf("  (iters: mean Newton iterations per step, max the largest; |Ebal|: peak |E_kin + E_pot - W_lift - "
           "initial|;\n   |s_SP-s_LF|: max difference of the cylinder lengths at the same dt; SP/LF t: wall-time "
           "ratio)\n");
    printf("  peak |W_lift| at 1 ms: LF %.1f J, SP %.1f J\n", res[0][1].c.pk.Wpeak, res[1][1].c.pk.Wpeak);

    printf("\nchecks:\n  %-44s %12s %12s %11s %-16s %s\n", "quantity", "paper", "ours", "diff/margin", "tolerance",
           "result");
    for (k = 0; k < NDT; ++k) {
        snprintf(q, sizeof q, "SP, dt = %g ms: reaches t = 7 s (1 = yes)", dts[k] * 1e3);
        check_line(q, "converged", res[1][k].ok, 0.0, "= 1", res[1][k].ok);
        snprintf(q, sizeof q, "SP, dt = %g ms: max Newton iterations", dts[k] * 1e3);
        snprintf(p, sizeof p, "%d", p_sp_max[k]);
        check_max(q, p, (double)res[1][k].sum.max_iters, p_sp_max[k] + 2.0);
    }
    for (k = 0; k < 4; ++k) {
        snprintf(q, sizeof q, "SP, dt = %g ms: mean Newton iterations", dts[k] * 1e3);
        check_abs(q, p_sp[k], res[1][k].sum.mean_iters, 0.15);
    }
    for (k = 4; k < NDT; ++k) {
        snprintf(q, sizeof q, "SP, dt = %g ms: mean Newton iterations", dts[k] * 1e3);
        snprintf(p, sizeof p, "%.2f", p_sp[k]);
        report_line(q, p, res[1][k].sum.mean_iters, res[1][k].sum.mean_iters - p_sp[k]);
    }
    for (k = 0; k < 3; ++k) {
        snprintf(q, sizeof q, "LF, dt = %g ms: reaches t = 7 s (1 = yes)", dts[k] * 1e3);
        check_line(q, "converged", res[0][k].ok, 0.0, "= 1", res[0][k].ok);
        snprintf(q, sizeof q, "LF, dt = %g ms: mean Newton iterations", dts[k] * 1e3);
        check_abs(q, p_lf[k], res[0][k].sum.mean_iters, 0.15);
    }
    for (k = 3; k < NDT; ++k) {
        snprintf(q, sizeof q, "LF, dt = %g ms: reaches 7 s (paper: fails)", dts[k] * 1e3);
        report_line(q, "fail", res[0][k].ok, 0.0);
    }
    check_max("SP, dt = 8 ms: peak |E_balance| [J]", "about 8", res[1][5].c.pk.Ebpeak, 8.0);
    check_max("dt = 0.5 ms: max |s_SP - s_LF| [m]", "identical", ds[0], 1e-3);
    check_max("dt = 1 ms: max |s_SP - s_LF| [m]", "identical", ds[1], 1e-3);
    check_max("SP 8 ms vs LF 0.5 ms: max |s| difference [m]", "identical",
              max_diff(g_s[0][0], dts[0], g_s[1][5], dts[5]), 2.5e-3);
    printf("%d passed, %d failed\n", npass, nfail);
    hs_model_desc_free(&d);
    return nfail ? 1 : 0;
}
