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
 * 357.47 J reported beside. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "hs/model_file.h"
#include "simulate.h"
#include "val_report.h"

#define NMOD 2


typedef struct run_ctx {
    val_peaks pk;
    double Wpos; /* the peak positive actuator work, J */
    double phimax, t_phimax, t_itmax;
    int itmax;
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
    return 0;
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
    char msg[512], q[96], p[32];

    printf("val_seed000_mechanisms: the 10 s work cycles of seed 000 Sect. 6 at dt = 1 ms "
           "(penalty-based semi-recursive)\n");
    for (k = 0; k < NMOD; ++k) {
        hs_model_desc d;
        hs_error err;
        double t0;
        if (hs_model_load(models[k], &d, &err) != HS_OK ||
            hs_param_set(&d, "integrator.dt", 1e-3, &err)) {
            hs_error_format(&err, msg, sizeof msg);
            fprintf(stderr, "val_seed000_mechanisms: %s\n", msg);
            return 1;
        }
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
            hs_param_set(&d, "valve.dcv.Cv", 1.604e-8, &err)) {
            hs_error_format(&err, msg, sizeof msg);
            fprintf(stderr, "val_seed000_mechanisms: %s\n", msg);
            return 1;
        }
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
    printf("%d passed, %d failed\n", npass, nfail);
    return nfail ? 1 : 0;
}
