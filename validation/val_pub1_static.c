/* val_pub1_static.c -- the static start of the hydraulically actuated four-bar of seed 004,
 * Publication I (Sect. 5, eqs. 53-54, Table 2), on models/fourbar_rahikainen2018.yaml and
 * models/fourbar_rahikainen2018_smallvalve.yaml (Pub. II valve volume).
 *
 * The paper starts "at static equilibrium with zero velocities": the crank at -30 deg is
 * perpendicular to the cylinder, so the cylinder force is (eq. 53)
 *   F_s0 = sqrt(3)/2 g (m1 + 2 m2 + L3/L1 m3),
 * and with the rod-side pressure p2 given (3.5 MPa) the piston-side pressure is (eq. 54)
 *   p1 = (F_s0 + A2 p2) / A1,
 * equal to the valve-volume pressure p3 (no flow through the throttle at rest). Table 2
 * prints p1 = p3 = 4.14e6 Pa, p2 = 3.50e6 Pa. Our start (hs_init) does the equilibrium
 * generically (least squares on the joint-space equilibrium with the cut multipliers), so
 * the closed form is an independent check of it. Asserted, for each model:
 *   p_piston and p_valve: |ours - 4.14e6 Pa| < 0.005e6 Pa (Table 2 to its 3 digits);
 *   p_piston and p_valve equal eq. (54) with F_s0 of eq. (53) to 1e-9 relative (F_s0, m_i,
 *     L_i, g, d_piston, d_rod and p_rod read from the model's parameters);
 *   p_rod = 3.5e6 Pa (to 1e-12 relative);
 *   the joint accelerations after the start |zdd_i| < 1e-6 rad/s^2 (a static equilibrium).
 * Reported: zdot at t = 0 (Table 2: 0), the pressure rates (Table 2: 0), the cylinder force
 * and length against eq. (53) and s0 = 0.866 m (Table 1). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hs/model_file.h"
#include "engine/simulate.h"
#include "val_report.h"

#define PI 3.14159265358979323846

static void header(void)
{
    printf("  %-46s %12s %14s %11s %-16s %s\n", "quantity", "paper", "ours", "diff", "tolerance",
           "result");
    printf("  (diff: relative where the tolerance is 'rel', else absolute in the row's unit)\n");
}

static void report(const char *q, double ref, double ours)
{
    char p[32];
    snprintf(p, sizeof p, "%g", ref);
    report_line(q, p, ours, fabs(ours - ref));
}

typedef struct start_ctx {
    hs_state s;
    hs_obs o;
    int seen;
} start_ctx;

/* stop at the first callback: the state right after hs_init (t = 0) */
static int at_start(void *vctx, const hs_model *m, const hs_state *s, const hs_obs *o, double Eb)
{
    start_ctx *c = (start_ctx *)vctx;
    (void)m;
    (void)Eb;
    c->s = *s;
    c->o = *o;
    c->seen = 1;
    return 1;
}

static double param(const hs_model_desc *d, const char *name, int *bad)
{
    int i = hs_param_find(d, name);
    if (i < 0) {
        fprintf(stderr, "val_pub1_static: %s: no parameter %s\n", d->name, name);
        *bad = 1;
        return NAN;
    }
    return hs_param_get(d, i);
}

static int vol_index(const hs_model_desc *d, const char *name)
{
    int i;
    for (i = 0; i < d->model.nvol; ++i)
        if (strcmp(d->vol_name[i], name) == 0) return i;
    fprintf(stderr, "val_pub1_static: %s: no volume %s\n", d->name, name);
    return -1;
}

static int run_model(const char *path)
{
    static start_ctx c;
    hs_model_desc d;
    hs_error err;
    hs_sim_summary sum;
    char q[96];
    int bad = 0, iv, ip, ir, j;
    double g, m1, m2, m3, L1, L3, d1, d2, p2, A1, A2, Fs0, p1;

    if (hs_model_load(path, &d, &err) != HS_OK) return val_err("val_pub1_static", &err);
    g = fabs(param(&d, "gravity.y", &bad));
    m1 = param(&d, "body.crank.mass", &bad);
    m2 = param(&d, "body.coupler.mass", &bad);
    m3 = param(&d, "body.boom.mass", &bad);
    L1 = param(&d, "body.crank.length", &bad);
    L3 = param(&d, "body.boom.length", &bad);
    d1 = param(&d, "cylinder.lift.d_piston", &bad);
    d2 = param(&d, "cylinder.lift.d_rod", &bad);
    p2 = param(&d, "cylinder.lift.init.p", &bad);
    iv = vol_index(&d, "valve");
    ip = vol_index(&d, "piston");
    ir = vol_index(&d, "rod");
    if (bad || iv < 0 || ip < 0 || ir < 0) {
        hs_model_desc_free(&d);
        return 1;
    }
    A1 = 0.25 * PI * d1 * d1;
    A2 = A1 - 0.25 * PI * d2 * d2;
    Fs0 = 0.5 * sqrt(3.0) * g * (m1 + 2.0 * m2 + L3 / L1 * m3); /* eq. (53) */
    p1 = (Fs0 + A2 * p2) / A1; /* eq. (54) */

    memset(&c, 0, sizeof c);
    hs_simulate(&d.model, at_start, &c, &sum);
    printf("\n%s (%s): valve volume V = %.4g m^3\n", d.name, path, d.model.vol_V[iv]);
    if (!c.seen) {
        printf("  the static start failed: %s\n", hs_status_string(sum.status));
        ++nfail;
        hs_model_desc_free(&d);
        return 0;
    }
    printf("  eq. (53): F_s0 = %.6f N; A1 = %.6e m^2, A2 = %.6e m^2; eq. (54): p1 = %.6f Pa\n",
           Fs0, A1, A2, p1);
    header();
    check_abs("p_piston (p1) vs Table 2 [Pa]", 4.14e6, c.s.p[ip], 0.005e6);
    check_abs("p_valve (p3) vs Table 2 [Pa]", 4.14e6, c.s.p[iv], 0.005e6);
    check_rel("p_piston vs eq. (54) [Pa]", p1, c.s.p[ip], 1e-9);
    check_rel("p_valve vs eq. (54) [Pa]", p1, c.s.p[iv], 1e-9);
    check_rel("p_rod (p2) vs Table 2 [Pa]", 3.5e6, c.s.p[ir], 1e-12);
    for (j = 0; j < d.model.nz; ++j) {
        snprintf(q, sizeof q, "zdd %s at t = 0 [rad/s^2]", d.joint_name[j]);
        check_abs(q, 0.0, c.s.zdd[j], 1e-6);
    }
    for (j = 0; j < d.model.nz; ++j) {
        snprintf(q, sizeof q, "zdot %s at t = 0 [rad/s]", d.joint_name[j]);
        report(q, 0.0, c.s.zd[j]);
    }
    snprintf(q, sizeof q, "pdot piston at t = 0 [Pa/s]");
    report(q, 0.0, c.s.pd[ip]);
    snprintf(q, sizeof q, "pdot rod at t = 0 [Pa/s]");
    report(q, 0.0, c.s.pd[ir]);
    snprintf(q, sizeof q, "pdot valve at t = 0 [Pa/s]");
    report(q, 0.0, c.s.pd[iv]);
    report("cylinder force vs eq. (53) [N]", Fs0, c.o.F[0]);
    report("cylinder length s0 vs Table 1 [m]", 0.866, c.o.s[0]);
    report("constraint violation ||Phi|| at t = 0", 0.0, c.o.phi_norm);
    hs_model_desc_free(&d);
    return 0;
}

int main(void)
{
    static const char *models[] = {"models/fourbar_rahikainen2018.yaml",
                                   "models/fourbar_rahikainen2018_smallvalve.yaml"};
    int k;
    printf("val_pub1_static: static-equilibrium start of the Pub. I four-bar (seed 004, "
           "eqs. 53-54, Table 2)\n");
    for (k = 0; k < 2; ++k)
        if (run_model(models[k])) return 1;
    printf("%d passed, %d failed\n", npass, nfail);
    return nfail ? 1 : 0;
}
