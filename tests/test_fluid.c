/* test_fluid.c -- kernels/hs_fluid.h: the mixture's law against its closed forms (the constant
 * bulk modulus exactly at no air, Simscape's constant-entrained-air form at p_vapour = 0, its
 * compressibility as -d ln v / dp, the vapour-pressure floor, the tangent continuation), the
 * flows' weights, and two circuits: a closed chamber pulled open (tests/data/cavitation_closed.yaml:
 * the oil's mass conserved at second order, the floor, the energy audit) and an overrunning
 * load (tests/data/cavitation_lower.yaml: -17 bar and a held boom with the constant modulus, the
 * floor and a falling boom with entrained air). The IDA check of the latter:
 * validation/val_components_ida.c. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/simulate.h"
#include "hs/model_file.h"
#include "hs_batch.h"
#include "test_util.h"

#define PA HS_P_ATM

/* The law written out (docs/model-format.md, "Entrained air and cavitation"). */
static double v_closed(double a, double n, double B, double pv, double p)
{
    return (1.0 - a) * exp(-(p - PA) / B) + a * pow((PA - pv) / (p - pv), 1.0 / n);
}

static void test_mix_law(void)
{
    const double B = 1.5e9, ps[5] = {2e3, 5e4, PA, 1e6, 3e7};
    double k, v, kh, vh, h;
    int i;
    for (i = 0; i < 5; ++i) { /* no air: the constant modulus, exactly */
        v = hs_mix_volume(0.0, 1.0, B, 1e3, ps[i], &k);
        CHECK(fabs(v - exp(-(ps[i] - PA) / B)) <= 4e-16 * v && fabs(k * B - 1.0) <= 4e-16,
              "no air at p = %g Pa: v = exp(-(p - p_atm)/B), kappa = 1/B (the engine takes 1/B itself there)", ps[i]);
    }
    for (i = 0; i < 5; ++i) { /* p_vapour = 0: Simscape's mixture, (1 - a) e^(-(p - p0)/B) + a (p0/p)^(1/n) */
        double a = 0.005, n = 1.4, ref = (1.0 - a) * exp(-(ps[i] - PA) / B) + a * pow(PA / ps[i], 1.0 / n);
        v = hs_mix_volume(a, n, B, 0.0, ps[i], &k);
        CHECK(fabs(v - ref) <= 2e-15 * ref, "air 0.5 %%, n 1.4, p_v 0, p = %g Pa: Simscape's specific volume", ps[i]);
    }
    CHECK(hs_mix_volume(0.02, 1.2, B, 1e3, PA, &k) == 1.0, "v(p_atm) = 1");
    for (i = 0; i < 5; ++i) { /* kappa = -d ln v / dp, central differences */
        double a = 0.01, n = 1.2, p = ps[i];
        h = 1e-4 * (p - 1e3);
        v = hs_mix_volume(a, n, B, 1e3, p, &k);
        kh = -(log(v_closed(a, n, B, 1e3, p + h)) - log(v_closed(a, n, B, 1e3, p - h))) / (2.0 * h);
        CHECK(fabs(k - kh) <= 1e-6 * kh, "air 1 %%, p = %g Pa: kappa = -d ln v/dp (%.6g, %.6g)", p, k, kh);
        CHECK(fabs(v - v_closed(a, n, B, 1e3, p)) <= 1e-14 * v, "air 1 %%, p = %g Pa: v as written", p);
    }
    /* the floor: v grows without bound towards p_vapour, as (x0 / x)^(1/n) */
    vh = hs_mix_volume(1e-4, 1.0, B, 1e3, 1e3 + 1.0, &k);
    v = hs_mix_volume(1e-4, 1.0, B, 1e3, 1e3 + 0.01, &k);
    CHECK(fabs(v / vh - (1e-4 * (PA - 1e3) / 0.01 + 1.0) / (1e-4 * (PA - 1e3) + 1.0)) <= 1e-3,
          "towards p_vapour: the gas grows as 1/(p - p_v) (n = 1): %.6g", v / vh);
    CHECK(k > 1.0 / 0.02 && k < 1.0 / 0.01 + 1e-9, "at 0.01 Pa above p_vapour: kappa near 1/(n x) = %.4g/Pa", k);
    /* the tangent continuation at x_c = HS_AIR_XC (p_atm - p_v): C1, finite below p_vapour */
    h = HS_AIR_XC * (PA - 1e3);
    v = hs_mix_volume(1e-3, 1.3, B, 1e3, 1e3 + h * (1.0 + 1e-9), &k);
    vh = hs_mix_volume(1e-3, 1.3, B, 1e3, 1e3 + h * (1.0 - 1e-9), &kh);
    CHECK(fabs(v - vh) <= 1e-8 * v, "x_c: v continuous (%.10g, %.10g)", v, vh);
    CHECK(fabs(k - kh) <= 1e-7 * k, "x_c: kappa continuous (%.10g, %.10g)", k, kh);
    v = hs_mix_volume(1e-3, 1.3, B, 1e3, -5e5, &k);
    CHECK(isfinite(v) && v > 0.0 && isfinite(k) && k > 0.0, "below p_vapour (a Newton iterate): finite, positive");
}

static void test_weights(void)
{
    static hs_model_desc d;
    hs_model *m;
    double wa, wb, k, va, vb;
    if (tu_load_model("tests/data/cavitation_lower.yaml", &d)) return;
    m = &d.model;
    va = hs_fluid_volume(m, 50e5, &k);
    vb = hs_fluid_volume(m, 2e3, &k);
    hs_edge_weights(m, 50e5, 2e3, 1e-4, &wa, &wb);
    CHECK(wa == 1.0 && wb == vb / va, "a -> b: leaves a as given, fills b by v(p_b)/v(p_a) = %.4g", wb);
    hs_edge_weights(m, 50e5, 2e3, -1e-4, &wa, &wb);
    CHECK(wb == 1.0 && wa == va / vb, "b -> a: leaves b as given, fills a by v(p_a)/v(p_b)");
    m->air_fraction = 0.0;
    hs_edge_weights(m, 50e5, 2e3, 1e-4, &wa, &wb);
    CHECK(wa == 1.0 && wb == 1.0, "no air: both 1");
    hs_model_desc_free(&d);
}

typedef struct {
    double m0, dm, p_min, x_end, p_end;
    int n;
} mass_probe;

/* cavitation_closed's oil: the piston side (hose 1e-5 m^3, chamber A_p (0.02 m + x)) and the
 * auxiliary volume (1e-4 m^3), at their pressures, by the law written out. */
static int on_closed(void *ctx, const hs_model *m, const hs_state *s, const hs_obs *o, double E)
{
    mass_probe *q = (mass_probe *)ctx;
    double Ap = 0.25 * HS_PI * 0.08 * 0.08, a = m->air_fraction, n = m->air_n, M;
    (void)o;
    (void)E;
    M = (1e-5 + Ap * (0.02 + s->z[0])) / v_closed(a, n, m->B_oil, m->p_vapour, s->p[0]) +
        1e-4 / v_closed(a, n, m->B_oil, m->p_vapour, s->p[2]);
    if (q->n++ == 0) q->m0 = M;
    q->dm = fmax(q->dm, fabs(M / q->m0 - 1.0));
    q->p_min = fmin(q->p_min, fmin(s->p[0], s->p[2]));
    q->x_end = s->z[0];
    q->p_end = s->p[0];
    return 0;
}

static void test_closed_chamber(void)
{
    static hs_model_desc d;
    hs_sim_summary sum;
    mass_probe q[3];
    int k;
    if (tu_load_model("tests/data/cavitation_closed.yaml", &d)) return;
    for (k = 0; k < 3; ++k) {
        memset(&q[k], 0, sizeof q[k]);
        q[k].p_min = 1e300;
        d.model.dt = 1e-3 / (1 << k);
        CHECK(hs_simulate(&d.model, on_closed, &q[k], &sum) == 0, "closed chamber at dt = %g: runs", d.model.dt);
        CHECK(!(sum.warn & HS_ST_CAVITATION), "closed chamber: no cavitation warning (the mixture models it)");
        CHECK(sum.max_abs_audit < 1e-9, "closed chamber at dt = %g: the energy audit closes (%.2e J)", d.model.dt,
              sum.max_abs_audit);
        printf("  closed chamber, dt = %g ms: mass error %.3e, lowest pressure %.2f Pa, x %.4f m, p_piston %.2f Pa\n",
               d.model.dt * 1e3, q[k].dm, q[k].p_min, q[k].x_end, q[k].p_end);
    }
    /* the chamber grows sixfold and its oil's mass stays: 7e-5 at 1 ms (measured), second order */
    CHECK(q[0].x_end > 0.12, "closed chamber: pulled out %.3f m (the chamber about sevenfold)", q[0].x_end);
    CHECK(q[0].dm < 1.5e-4, "closed chamber: mass conserved within 1.5e-4 at dt = 1 ms (%.2e)", q[0].dm);
    for (k = 1; k < 3; ++k)
        CHECK(q[k - 1].dm / q[k].dm > 3.4 && q[k - 1].dm / q[k].dm < 4.6,
              "closed chamber: the mass error second order (ratio %.3f at dt = %g ms)", q[k - 1].dm / q[k].dm,
              1e3 / (1 << k));
    CHECK(q[2].p_min >= d.model.p_vapour, "closed chamber: no pressure below p_vapour (lowest %.2f Pa)", q[2].p_min);
    CHECK(q[2].p_end < d.model.p_vapour + 100.0, "closed chamber: the piston side at its vapour pressure (%.2f Pa)",
          q[2].p_end);
    hs_model_desc_free(&d);
}

typedef struct {
    double p_min, z_end;
} low_probe;

static int on_lower(void *ctx, const hs_model *m, const hs_state *s, const hs_obs *o, double E)
{
    low_probe *q = (low_probe *)ctx;
    int v;
    (void)o;
    (void)E;
    for (v = 0; v < m->nvol; ++v) q->p_min = fmin(q->p_min, s->p[v]);
    q->z_end = s->z[0];
    return 0;
}

static void test_overrunning_load(void)
{
    static hs_model_desc d;
    hs_sim_summary sum;
    low_probe q0, q1;
    const double z0 = 30.0 * HS_PI / 180.0;
    if (tu_load_model("tests/data/cavitation_lower.yaml", &d)) return;
    q0.p_min = q1.p_min = 1e300;
    CHECK(hs_simulate(&d.model, on_lower, &q1, &sum) == 0, "overrunning, 0.2 %% air: runs");
    CHECK(!(sum.warn & HS_ST_CAVITATION) && q1.p_min >= d.model.p_vapour,
          "overrunning, 0.2 %% air: no pressure below p_vapour (lowest %.1f Pa)", q1.p_min);
    d.model.air_fraction = 0.0;
    CHECK(hs_simulate(&d.model, on_lower, &q0, &sum) == 0, "overrunning, constant modulus: runs");
    CHECK((sum.warn & HS_ST_CAVITATION) && q0.p_min < -10e5,
          "overrunning, constant modulus: the rod side at %.1f bar (absolute), flagged", q0.p_min / 1e5);
    printf("  overrunning load over 0.6 s: lowered %.4f rad with 0.2 %% air (lowest %.0f Pa), %.4f rad at the "
           "constant modulus (lowest %.1f bar)\n",
           z0 - q1.z_end, q1.p_min, z0 - q0.z_end, q0.p_min / 1e5);
    CHECK(z0 - q1.z_end > 0.025 && z0 - q0.z_end < 0.01,
          "overrunning: the cavitating rod side lets the boom down (%.4f rad), the tensile one holds it (%.4f rad)",
          z0 - q1.z_end, z0 - q0.z_end);
    hs_model_desc_free(&d);
}

/* A sampled air fraction outside [0, 1), or an index outside [1, 1.4], flags the instance. */
static void test_sampled_values(void)
{
    static hs_model_desc d;
    if (tu_load_model("tests/data/cavitation_lower.yaml", &d)) return;
    CHECK(hs_model_values_ok(&d.model), "sampled: the model's own values pass");
    d.model.air_fraction = 1.0;
    CHECK(!hs_model_values_ok(&d.model), "sampled: air_fraction 1 flagged");
    d.model.air_fraction = -1e-3;
    CHECK(!hs_model_values_ok(&d.model), "sampled: air_fraction < 0 flagged");
    d.model.air_fraction = 0.01;
    d.model.air_n = 1.6;
    CHECK(!hs_model_values_ok(&d.model), "sampled: polytropic index 1.6 flagged");
    hs_model_desc_free(&d);
}

int main(void)
{
    test_mix_law();
    test_weights();
    test_closed_chamber();
    test_overrunning_load();
    test_sampled_values();
    return tu_report("test_fluid");
}
