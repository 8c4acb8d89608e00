/* val_seed000_mechanisms.c -- the two hydraulically actuated mechanisms of seed 000 (Jaiswal
 * et al., Sect. 6): models/fourbar_jaiswal2021.yaml and models/quickreturn_jaiswal2021.yaml,
 * the 10 s work cycle (eqs. 46-47) at dt = 1 ms with the penalty-based semi-recursive
 * formulation (ours).
 *
 * Paper values, penalty approach (seed 000 Sect. 6): four-bar peak energy drift 0.84 J,
 * 0.09 % of the maximum actuator work 982.95 J; Newton iterations avg. 1.56, max 4;
 * quick-return 0.23 J, 0.06 % of 357.47 J; iterations 1.57 / 6; both drifts at the valve
 * closing around 8 s; "the constraints were fulfilled with good accuracy". Seed 000's own
 * Table 1 is lost and the models use seed 001's hydraulics, an assumed friction law and a
 * reconstructed quick-return geometry (see the model headers), so the absolute work is not
 * expected to match and is reported, not asserted.
 * Asserted, for each model:
 *   the run reaches t = 10 s (no failure status);
 *   ||Phi||_2 < 1e-6 at every step (t = 0 included);
 *   peak |E_balance| < 0.2 % of the peak |W_lift| (the paper: 0.09 % and 0.06 %).
 * Reported: peak |W_lift| against the paper's maximum actuator work, the peak drift and its
 * time, mean and max Newton iterations, the wall time (clock_gettime).
 *
 * The variant of seed 000's work figures (issue 13): with the valve coefficient
 * valve.dcv.Cv = 1.604e-8 instead of seed 001's 2.138e-8 the paper's maximum actuator work is
 * reproduced; an independent calculation gives 982.8 J (four-bar) and 360.4 J (quick-return)
 * with it. The paper's figure is the peak positive work; the peak |work| is reported apart
 * (the four-bar's work goes negative on the descent, beyond the positive peak). Asserted: the
 * peak positive work within 0.1 % of the independent 982.8 and 360.4 J; the paper's 982.95 and
 * 357.47 J reported beside.
 *
 * The double-step semi-recursive formulation (seed 000 Sect. 2.3, integrator.formulation =
 * double_step; issue 13): the same cycles, asserted for each model:
 *   the run reaches t = 10 s; the independent coordinate is the paper's (z3 for the four-bar,
 *   z4 for the quick-return, "throughout the simulation": no re-partition);
 *   ||Phi||_2 <= 1e-12 at every step (the paper: "to the level of machine precision");
 *   peak |E_balance| < 0.2 % of the peak |W_lift|;
 *   the trajectories (every coordinate, every pressure, at every step of the cycle) agree
 *   with the penalty formulation's to a difference that falls as O(dt^2): dt = 2, 1, 0.5 ms,
 *   each halving dividing it by 3 to 5.
 * Reported: mean and max Newton iterations beside the paper's (double-step 1.39/3 and 1.49/3),
 * the wall time beside the paper's Matlab 27.45 and 29.03 s. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hs/model_file.h"
#include "engine/simulate.h"
#include "val_report.h"

#define NMOD 2


typedef struct run_ctx {
    val_peaks pk;
    double Wpos; /* the peak positive actuator work, J */
    double phimax, t_phimax, t_itmax;
    int itmax;
    double *traj; /* when set: z and p of every step ((nsteps + 1) x (nz + nvol)) */
    long ntraj; /* its rows */
} run_ctx;

static int on_step(void *vctx, const hs_model *m, const hs_state *s, const hs_obs *o, double Eb)
{
    run_ctx *c = (run_ctx *)vctx;
    (void)m;
    val_peaks_update(&c->pk, s->W_cyl[0], Eb, s->t);
    if (s->W_cyl[0] > c->Wpos) c->Wpos = s->W_cyl[0];
    if (c->phimax == c->phimax && !(o->phi_norm <= c->phimax)) { /* a NaN sticks */
        c->phimax = o->phi_norm;
        c->t_phimax = s->t;
    }
    if (s->step > 0 && s->iters > c->itmax) {
        c->itmax = s->iters;
        c->t_itmax = s->t;
    }
    if (c->traj && s->step < c->ntraj) {
        int w = m->nz + m->nvol, i;
        for (i = 0; i < m->nz; ++i) c->traj[s->step * w + i] = s->z[i];
        for (i = 0; i < m->nvol; ++i) c->traj[s->step * w + m->nz + i] = s->p[i];
    }
    return 0;
}

/* Runs file at dt with the given formulation into c and *sum (c->traj as the caller set it);
 * the independent coordinates' names into indep. Returns 0, or 1 when the model does not
 * load. */
static int run_cycle(const char *file, double dt, int formulation, run_ctx *c, hs_sim_summary *sum, char *indep,
                     size_t n)
{
    hs_model_desc d;
    hs_error err;
    double t0;
    if (hs_model_load(file, &d, &err) != HS_OK || hs_param_set(&d, "integrator.dt", dt, &err) ||
        hs_param_set(&d, "integrator.formulation", (double)formulation, &err))
        return val_err("val_seed000_mechanisms", &err);
    t0 = val_now();
    hs_simulate(&d.model, on_step, c, sum);
    sum->wall_s = val_now() - t0;
    if (indep) hs_independent_names(&d, sum->ds_dep, indep, n);
    hs_model_desc_free(&d);
    return 0;
}

/* max |a - b| over the rows of two trajectories of w columns: coordinates (rad) in *dz, the
 * pressures (Pa) in *dp. */
static void traj_diff(const double *a, const double *b, long rows, int nz, int w, double *dz, double *dp)
{
    long k;
    int i;
    *dz = *dp = 0.0;
    for (k = 0; k < rows; ++k)
        for (i = 0; i < w; ++i) {
            double d = fabs(a[k * w + i] - b[k * w + i]);
            if (i < nz && !(d <= *dz)) *dz = d;
            if (i >= nz && !(d <= *dp)) *dp = d;
        }
}

/* The double-step formulation's rows (see the header). */
static void double_step_section(const char *const *models, const char *const *tags)
{
    static const char *const indep_paper[NMOD] = {"z3", "z4"};
    static const double paper_avg[NMOD] = {1.39, 1.49};
    static const int paper_max[NMOD] = {3, 3};
    static const double paper_wall[NMOD] = {27.45, 29.03};
    static const double dts[3] = {2e-3, 1e-3, 5e-4};
    int k, j;
    char q[128], p[64], indep[128];
    printf("\ndouble-step semi-recursive formulation (integrator.formulation = double_step), dt = 1 ms:\n");
    for (k = 0; k < NMOD; ++k) {
        hs_sim_summary sum;
        run_ctx c;
        int ok;
        double ratio;
        memset(&c, 0, sizeof c);
        if (run_cycle(models[k], 1e-3, HS_FORM_DOUBLE_STEP, &c, &sum, indep, sizeof indep)) {
            val_count(0);
            continue;
        }
        ok = sum.status == 0 && sum.steps == sum.steps_planned;
        snprintf(q, sizeof q, "%s, double-step: reaches t = 10 s (1 = yes)", tags[k]);
        check_line(q, "completes", ok, 0.0, "= 1", ok);
        snprintf(q, sizeof q, "%s, double-step: independent coordinate", tags[k]);
        printf("  %-46s %12s %14s %11s %-16s %s\n", q, indep_paper[k], indep, sum.ds_repart ? "re-chosen" : "kept",
               "= paper's", !strcmp(indep, indep_paper[k]) && sum.ds_repart == 0 ? "PASS" : "FAIL");
        val_count(!strcmp(indep, indep_paper[k]) && sum.ds_repart == 0);
        snprintf(q, sizeof q, "%s, double-step: max ||Phi||_2 over every step", tags[k]);
        check_max(q, "machine", c.phimax, 1e-12);
        snprintf(q, sizeof q, "%s, double-step: peak |E_balance| / peak |W|", tags[k]);
        ratio = c.pk.Ebpeak / c.pk.Wpeak;
        check_max(q, "-", ratio, 0.002);
        snprintf(q, sizeof q, "%s, double-step: peak |E_balance| [J] (at %.3f s)", tags[k], c.pk.t_Ebpeak);
        report_line(q, "-", c.pk.Ebpeak, 0.0);
        snprintf(q, sizeof q, "%s, double-step: mean Newton iterations", tags[k]);
        snprintf(p, sizeof p, "%.2f", paper_avg[k]);
        report_line(q, p, sum.mean_iters, fabs(sum.mean_iters - paper_avg[k]) / paper_avg[k]);
        snprintf(q, sizeof q, "%s, double-step: max Newton iterations", tags[k]);
        snprintf(p, sizeof p, "%d", paper_max[k]);
        report_line(q, p, (double)sum.max_iters, fabs((double)sum.max_iters - paper_max[k]) / paper_max[k]);
        snprintf(q, sizeof q, "%s, double-step: wall time [s]", tags[k]);
        snprintf(p, sizeof p, "%.2f", paper_wall[k]);
        report_line(q, p, sum.wall_s, 0.0);
    }
    printf("  (the paper's iterations and wall time: double-step approach, Matlab)\n");

    printf("\ndouble-step against penalty over the whole cycle (max over every step, all coordinates "
           "and pressures):\n");
    for (k = 0; k < NMOD; ++k) {
        double dz[3], dp[3];
        int ok = 1;
        for (j = 0; j < 3; ++j) {
            run_ctx a, b;
            hs_sim_summary sa, sb;
            long rows = (long)floor(10.0 / dts[j] + 0.5) + 1;
            memset(&a, 0, sizeof a);
            memset(&b, 0, sizeof b);
            a.ntraj = b.ntraj = rows;
            a.traj = (double *)calloc((size_t)rows * 8, sizeof(double));
            b.traj = (double *)calloc((size_t)rows * 8, sizeof(double));
            if (!a.traj || !b.traj || run_cycle(models[k], dts[j], HS_FORM_DOUBLE_STEP, &a, &sa, NULL, 0) ||
                run_cycle(models[k], dts[j], HS_FORM_PENALTY, &b, &sb, NULL, 0)) {
                ok = 0;
                dz[j] = dp[j] = NAN;
            } else {
                /* both models have at most 5 coordinates and 3 volumes: 8 columns */
                hs_model_desc d;
                hs_error err;
                int nz = 0, w = 0;
                if (hs_model_load(models[k], &d, &err) == HS_OK) {
                    nz = d.model.nz;
                    w = d.model.nz + d.model.nvol;
                    hs_model_desc_free(&d);
                }
                ok = ok && sa.status == 0 && sb.status == 0 && w > 0 && w <= 8;
                traj_diff(a.traj, b.traj, rows, nz, w, &dz[j], &dp[j]);
            }
            printf("  %-13s dt = %-6g max |z_ds - z_pen| %.3e rad, max |p_ds - p_pen| %.3e Pa\n", tags[k], dts[j],
                   dz[j], dp[j]);
            free(a.traj);
            free(b.traj);
        }
        snprintf(q, sizeof q, "%s: both formulations complete at 2, 1, 0.5 ms", tags[k]);
        check_line(q, "-", ok, 0.0, "= 1", ok);
        for (j = 0; j < 2; ++j) {
            snprintf(q, sizeof q, "%s: coordinate difference ratio dt %g/%g", tags[k], dts[j], dts[j + 1]);
            check(q, dz[j] / dz[j + 1], 3.0, 5.0);
            snprintf(q, sizeof q, "%s: pressure difference ratio dt %g/%g", tags[k], dts[j], dts[j + 1]);
            check(q, dp[j] / dp[j + 1], 3.0, 5.0);
        }
    }
}

int main(void)
{
    static const char *models[NMOD] = {"models/fourbar_jaiswal2021.yaml",
                                       "models/quickreturn_jaiswal2021.yaml"};
    static const char *tags[NMOD] = {"four-bar", "quick-return"};
    static const double paper_W[NMOD] = {982.95, 357.47};
    static const double paper_E[NMOD] = {0.84, 0.23};
    static const double paper_avg[NMOD] = {1.56, 1.57};
    static const int paper_max[NMOD] = {4, 6};
    static const double paper_wall[NMOD] = {21.54, 28.47};
    hs_sim_summary sum[NMOD];
    run_ctx c[NMOD];
    int ok[NMOD], k;
    char q[96], p[32];

    printf("val_seed000_mechanisms: the 10 s work cycles of seed 000 Sect. 6 at dt = 1 ms "
           "(penalty-based semi-recursive)\n");
    for (k = 0; k < NMOD; ++k) {
        hs_model_desc d;
        hs_error err;
        double t0;
        if (hs_model_load(models[k], &d, &err) != HS_OK ||
            hs_param_set(&d, "integrator.dt", 1e-3, &err)) return val_err("val_seed000_mechanisms", &err);
        memset(&c[k], 0, sizeof c[k]);
        t0 = val_now();
        hs_simulate(&d.model, on_step, &c[k], &sum[k]);
        sum[k].wall_s = val_now() - t0;
        ok[k] = sum[k].status == 0 && sum[k].steps == sum[k].steps_planned;
        printf("  %-13s %s (%s): %s\n", tags[k], models[k], d.name,
               ok[k] ? "t_end reached" : hs_status_string(sum[k].status));
        if (!ok[k]) printf("  %-13s stopped at t = %g s\n", "", sum[k].t_final);
        hs_model_desc_free(&d);
    }

    printf("\n  %-13s %-6s %6s %6s %4s %7s %-9s %9s %7s %-6s %9s %-7s %7s %10s %8s %-7s\n",
           "model", "status", "steps", "iters", "max", "t_max", "paper", "|Ebal| J", "at [s]",
           "paper", "|W_lift|", "paper", "Ebal/W", "max|Phi|", "wall s", "paper s");
    for (k = 0; k < NMOD; ++k) {
        snprintf(p, sizeof p, "%.2f/%d", paper_avg[k], paper_max[k]);
        printf("  %-13s %-6s %6ld %6.3f %4d %7.3f %-9s %9.4f %7.3f %-6.2f %9.2f %-7.2f %6.3f%% "
               "%10.3e %8.3f %-7.2f\n",
               tags[k], ok[k] ? "ok" : "FAIL", sum[k].steps, sum[k].mean_iters, sum[k].max_iters,
               c[k].t_itmax, p, c[k].pk.Ebpeak, c[k].pk.t_Ebpeak, paper_E[k], c[k].pk.Wpeak, paper_W[k],
               100.0 * c[k].pk.Ebpeak / c[k].pk.Wpeak, c[k].phimax, sum[k].wall_s, paper_wall[k]);
    }
    printf("  (paper iterations avg./max and wall time: penalty approach, Matlab; |Ebal|: peak "
           "|E_balance| and its time)\n");

    printf("\nchecks:\n  %-46s %12s %12s %11s %-16s %s\n", "quantity", "paper", "ours",
           "diff/margin", "tolerance", "result");
    for (k = 0; k < NMOD; ++k) {
        double ratio = c[k].pk.Ebpeak / c[k].pk.Wpeak;
        snprintf(q, sizeof q, "%s: reaches t = 10 s (1 = yes)", tags[k]);
        check_line(q, "completes", ok[k], 0.0, "= 1", ok[k]);
        snprintf(q, sizeof q, "%s: max ||Phi||_2 over every step", tags[k]);
        check_line(q, "-", c[k].phimax, (1e-6 - c[k].phimax) / 1e-6, "<= 1e-06",
                   c[k].phimax <= 1e-6);
        snprintf(q, sizeof q, "%s: peak |E_balance| / peak |W_lift|", tags[k]);
        snprintf(p, sizeof p, "%.3g", paper_E[k] / paper_W[k]);
        check_line(q, p, ratio, (0.002 - ratio) / 0.002, "<= 0.002", ratio <= 0.002);
        snprintf(q, sizeof q, "%s: peak |W_lift| [J]", tags[k]);
        snprintf(p, sizeof p, "%.2f", paper_W[k]);
        report_line(q, p, c[k].pk.Wpeak, fabs(c[k].pk.Wpeak - paper_W[k]) / paper_W[k]);
        snprintf(q, sizeof q, "%s: peak |E_balance| [J]", tags[k]);
        snprintf(p, sizeof p, "%.2f", paper_E[k]);
        report_line(q, p, c[k].pk.Ebpeak, fabs(c[k].pk.Ebpeak - paper_E[k]) / paper_E[k]);
        snprintf(q, sizeof q, "%s: mean Newton iterations", tags[k]);
        snprintf(p, sizeof p, "%.2f", paper_avg[k]);
        report_line(q, p, sum[k].mean_iters, fabs(sum[k].mean_iters - paper_avg[k]) / paper_avg[k]);
        snprintf(q, sizeof q, "%s: max Newton iterations", tags[k]);
        snprintf(p, sizeof p, "%d", paper_max[k]);
        report_line(q, p, (double)sum[k].max_iters,
                    fabs((double)sum[k].max_iters - paper_max[k]) / paper_max[k]);
    }
    printf("  (reported rows: diff is relative to the paper's value)\n");

    /* the variant valve.dcv.Cv = 1.604e-8: seed 000's work figures */
    printf("\nvariant valve.dcv.Cv = 1.604e-8 (seed 000's actuator work):\n");
    for (k = 0; k < NMOD; ++k) {
        static const double indep_W[NMOD] = {982.8, 360.4};
        hs_model_desc d;
        hs_error err;
        hs_sim_summary sv;
        run_ctx cv;
        if (hs_model_load(models[k], &d, &err) != HS_OK || hs_param_set(&d, "integrator.dt", 1e-3, &err) ||
            hs_param_set(&d, "valve.dcv.Cv", 1.604e-8, &err)) return val_err("val_seed000_mechanisms", &err);
        memset(&cv, 0, sizeof cv);
        hs_simulate(&d.model, on_step, &cv, &sv);
        snprintf(q, sizeof q, "%s, Cv 1.604e-8: reaches t = 10 s (1 = yes)", tags[k]);
        check_line(q, "completes", sv.status == 0 && sv.steps == sv.steps_planned, 0.0, "= 1",
                   sv.status == 0 && sv.steps == sv.steps_planned);
        snprintf(q, sizeof q, "%s, Cv 1.604e-8: peak positive W [J]", tags[k]);
        snprintf(p, sizeof p, "%.1f (ind.)", indep_W[k]);
        check_line(q, p, cv.Wpos, fabs(cv.Wpos - indep_W[k]) / indep_W[k], "rel <= 1e-3",
                   fabs(cv.Wpos - indep_W[k]) <= 1e-3 * indep_W[k]);
        snprintf(q, sizeof q, "%s, Cv 1.604e-8: peak positive W [J]", tags[k]);
        snprintf(p, sizeof p, "%.2f", paper_W[k]);
        report_line(q, p, cv.Wpos, fabs(cv.Wpos - paper_W[k]) / paper_W[k]);
        snprintf(q, sizeof q, "%s, Cv 1.604e-8: peak |W| [J]", tags[k]);
        report_line(q, "-", cv.pk.Wpeak, 0.0);
        hs_model_desc_free(&d);
    }
    double_step_section(models, tags);
    printf("%d passed, %d failed\n", npass, nfail);
    return nfail ? 1 : 0;
}
