/* val_pub1_ida.c -- the hydraulically actuated four-bar of seed 004 Publication I
 * (models/fourbar_rahikainen2018.yaml: four-bar + double-acting cylinder, valve, piston and
 * rod volumes, throttle, 4/3 valve, efficiency_as_printed friction) with our monolithic
 * integrator (trapezoidal rule + index-3 augmented Lagrangian, seed 004 Pub. I) against the
 * independent SUNDIALS IDA reference in absolute planar coordinates (ida_reference.c), over
 * the first 3 s of the work cycle: the valve opens at 0.5 s (U_ref 0 -> +10 V) and closes at
 * 2.8 s (-> 0 V); afterwards the frictionless circuit rings.
 *
 * Part 1 checks the reference itself: IDA's constraint drift and energy balance
 * E_kin + E_pot - W_cyl = E0; that its geometry gives hs_init's cylinder length s0; a frozen
 * valve (U_ref = 0) keeps the static-equilibrium start at rest (our equilibrium pressures
 * hold the mechanism in the reference's independent force application); a closed chamber
 * (valve shut, crank started at 0.3 rad/s, hose and wall compliance removed so that
 * Be = B_oil) follows p = p0 - B_oil ln(V/V0) exactly; and the tight IDA solution against a
 * 10x looser one (IDA's own error, far below the differences measured in Part 2).
 *
 * Part 2 compares ours at dt = 1, 0.5, 0.25 and 0.1 ms with IDA (rtol 1e-10, atol 1e-3 Pa on
 * pressures) at every 1 ms: crank angle, the three pressures, the spool position, the
 * cylinder length and the cylinder work, over [0, 3] s and over [0, 2.7] s (before the valve
 * closes). Our Newton tolerances are tightened so that the iteration error stays out of the
 * refinement study: tol_position 1e-10 rad, tol_pressure 1e-2 Pa (1e-3 Pa is below the
 * update noise floor of the forward-difference Newton near 3 MPa: it stalls at 2.8 s at
 * dt = 0.25 ms), and max_iter 100 (with the model's alpha = 1e11 the multiplier iteration
 * converges slowly at small dt: up to 43 iterations at dt = 0.1 ms; alpha = 1e13 needs 4 and
 * changes the results by 1.2e-9 rad and 2 Pa, under 1 % of the errors measured here).
 * Asserted: max |err| at dt = 1 ms below ~3x the measured value, and every error ratio within
 * 15 % of the second-order value (4 per halving, 6.25 from 0.25 to 0.1 ms); the table printed
 * at the end lists each. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hs/model_file.h"
#include "ida_reference.h"
#include "val_report.h"

#define MODEL "models/fourbar_rahikainen2018.yaml"
#define T_END 3.0
#define OUT_DT 1e-3
#define NOUT 3001 /* t = 0, 1 ms, ..., 3 s */
#define KPRE 2701 /* outputs in [0, 2.7] s: before the valve closes */
#define NDT 4
#define NQ 6 /* compared quantities: crank, p_valve, p_piston, p_rod, U, s */


/* table row: quantity, dt, max |err|, ratio to the previous dt, tolerance, verdict */
static void row(const char *q, const char *win, double dt, double e, double unit,
                const char *uname, double ratio, double rlo, double rhi, double emax)
{
    int ok_e = emax <= 0.0 || e <= emax, ok_r = rlo <= 0.0 || (ratio >= rlo && ratio <= rhi);
    char rs[32], ts[64];
    if (ratio > 0.0) snprintf(rs, sizeof rs, "%7.3f", ratio);
    else snprintf(rs, sizeof rs, "%7s", "-");
    ts[0] = '\0';
    if (emax > 0.0) snprintf(ts, sizeof ts, "err < %.2g %s", emax / unit, uname);
    if (rlo > 0.0)
        snprintf(ts + strlen(ts), sizeof ts - strlen(ts), "%sratio in [%.2f, %.2f]",
                 ts[0] ? ", " : "", rlo, rhi);
    printf("  %-10s %-9s %7.2f %14.4e %-4s %s  %-38s %s\n", q, win, dt * 1e3, e / unit, uname,
           rs, ts[0] ? ts : "(reported)",
           (emax > 0.0 || rlo > 0.0) ? (ok_e && ok_r ? "PASS" : "FAIL") : "");
    if (emax > 0.0 || rlo > 0.0) {
        if (ok_e && ok_r) ++npass;
        else ++nfail;
    }
}

static double max_abs(const double *a, int stride, int col, int k0, int k1, double ref)
{
    double e = 0.0;
    int k;
    for (k = k0; k < k1; ++k) {
        double d = fabs(a[(size_t)k * (size_t)stride + (size_t)col] - ref);
        if (d > e || d != d) e = d;
    }
    return e;
}

/* Part 1 (a): frozen valve. (b): closed chamber. m is a private copy. */
static int frozen_valve_checks(const hs_model *m0, const double *times)
{
    hs_model *m = (hs_model *)malloc(sizeof *m);
    hs_ida_out o;
    hs_ida_stats st;
    double *z = (double *)malloc((size_t)NOUT * HS_MAX_Z * sizeof(double));
    double *p = (double *)malloc((size_t)NOUT * HS_MAX_VOLS * sizeof(double));
    double *s = (double *)malloc((size_t)NOUT * HS_MAX_CYLS * sizeof(double));
    char msg[512];
    int rc = 1, nt = 1001, k, vr;
    if (!m || !z || !p || !s) goto out;
    memcpy(m, m0, sizeof *m);
    vr = m->cyl_vol_r[0];
    m->dcv_sig[0] = -1; /* U_ref = 0: the valve stays shut */
    memset(&o, 0, sizeof o);
    o.z = z;
    o.p = p;
    o.s = s;
    printf("\n(a) frozen valve (U_ref = 0), static-equilibrium start, [0, 1] s:\n");
    if (hs_ida_planar_hyd_solve(m, NULL, times, nt, &o, &st, msg, sizeof msg)) {
        fprintf(stderr, "val_pub1_ida: frozen valve: %s\n", msg);
        goto out;
    }
    {
        double dz = max_abs(z, m->nz, 0, 0, nt, z[0]), dp = 0.0;
        for (k = 0; k < m->nvol; ++k) {
            double d = max_abs(p, m->nvol, k, 0, nt, p[k]);
            if (d > dp) dp = d;
        }
        printf("  crank stays at %.12f rad: max |z - z0| = %.3e rad; max |p - p0| = %.3e Pa; "
               "max |v'(0)| = %.3e (m/s^2 | rad/s^2)\n",
               z[0], dz, dp, st.acc0_max);
        check("(a) frozen valve: max |v'(0)| (our equilibrium, their forces)", st.acc0_max, 0.0,
              1e-9);
        check("(a) frozen valve: max |crank - crank0| [rad]", dz, 0.0, 1e-9);
        check("(a) frozen valve: max |p - p0| over the volumes [Pa]", dp, 0.0, 1e-2);
    }

    /* (b) closed chamber: crank started at 0.3 rad/s, Be = B_oil everywhere */
    m->joint_zd0[0] = 0.3;
    for (k = 0; k < m->nvol; ++k) m->vol_B[k] = 1e300;
    m->cyl_B[0] = 1e300;
    printf("\n(b) closed chamber: valve shut, crank zdot0 = 0.3 rad/s, B_hose = B_wall = 1e300 "
           "(Be = B_oil), [0, 1] s:\n");
    if (hs_ida_planar_hyd_solve(m, NULL, times, nt, &o, &st, msg, sizeof msg)) {
        fprintf(stderr, "val_pub1_ida: closed chamber: %s\n", msg);
        goto out;
    }
    {
        double Ar = 0.25 * 3.14159265358979323846 *
                    (m->cyl_d_piston[0] * m->cyl_d_piston[0] - m->cyl_d_rod[0] * m->cyl_d_rod[0]);
        double V0 = m->vol_V[vr] + Ar * (m->cyl_stroke[0] - m->cyl_l_p0[0]);
        double e = 0.0, smin = s[0], smax = s[0], pmin = p[vr], pmax = p[vr];
        for (k = 0; k < nt; ++k) {
            double V = m->vol_V[vr] + Ar * (m->cyl_stroke[0] - m->cyl_l_p0[0] - (s[k] - s[0]));
            double pe = p[vr] - m->B_oil * log(V / V0);
            double pk = p[(size_t)k * (size_t)m->nvol + (size_t)vr];
            if (fabs(pk - pe) > e) e = fabs(pk - pe);
            if (s[k] < smin) smin = s[k];
            if (s[k] > smax) smax = s[k];
            if (pk < pmin) pmin = pk;
            if (pk > pmax) pmax = pk;
        }
        printf("  cylinder length %.6f..%.6f m, rod pressure %.4f..%.4f MPa; against "
               "p0 - B_oil ln(V/V0): max |diff| = %.3e Pa\n",
               smin, smax, pmin * 1e-6, pmax * 1e-6, e);
        printf("  IDA: max |Phi| %.3e m, max |E - E0| %.3e J (E0 = %.3f J)\n", st.phi_max,
               st.dE_max, st.E0);
        check("(b) closed rod chamber: max |p - (p0 - B_oil ln(V/V0))| [Pa]", e, 0.0, 1e-2);
        check("(b) rod pressure swing max - min [MPa] (the test is not vacuous)",
              (pmax - pmin) * 1e-6, 0.1, 1e3);
        check("(b) IDA max |E_kin + E_pot - W_cyl - E0| / |E0|", st.dE_max / fabs(st.E0), 0.0,
              1e-8);
    }
    rc = 0;
out:
    free(m);
    free(z);
    free(p);
    free(s);
    return rc;
}

int main(void)
{
    static const double dts[NDT] = {1e-3, 5e-4, 2.5e-4, 1e-4};
    static const char *qname[NQ] = {"crank", "p_valve", "p_piston", "p_rod", "U", "s"};
    /* bounds on max |err| at dt = 1 ms, over [0, 3] s and [0, 2.7] s: ~3x the measured
     * 2.75e-5 / 3.81e-6 rad, 38.5 / 7.5, 38.5 / 7.6, 45.1 / 3.7 kPa, 14.8 / 14.8 mV,
     * 12.9 / 1.9 um */
    static const double bound[NQ][2] = {{8e-5, 1.2e-5}, {1.2e5, 2.3e4}, {1.2e5, 2.3e4},
                                        {1.4e5, 1.2e4}, {4.5e-2, 4.5e-2}, {4e-5, 6e-6}};
    hs_model_desc d;
    hs_error err;
    hs_ida_opts opts, lopts;
    hs_ida_stats st, lst;
    hs_ida_out ro, lo;
    hs_val_out eo;
    hs_val_stats es[NDT];
    char msg[512];
    double *times = NULL, *zr = NULL, *pr = NULL, *Ur = NULL, *sr = NULL, *Wr = NULL;
    double *zl = NULL, *pl = NULL;
    double *ze = NULL, *pe = NULL, *Ue = NULL, *se = NULL, *We = NULL;
    double **const arr[] = {&zr, &zl, &ze, &pr, &pl, &pe, &times, &Ur, &sr, &Wr, &Ue, &se, &We};
    enum { NARR = sizeof arr / sizeof arr[0] };
    double eA[NDT][NQ], eP[NDT][NQ], eW[NDT];
    int i, k, q, nz, nv, col[NQ], rc = 1;

    if (hs_model_load(MODEL, &d, &err) != HS_OK) return val_err("val_pub1_ida", &err);
    nz = d.model.nz;
    nv = d.model.nvol;
    if (nv != 3 || d.model.ndcv != 1 || d.model.ncyl != 1 || strcmp(d.joint_name[0], "crank_angle")) {
        fprintf(stderr, "val_pub1_ida: %s is not the expected circuit\n", MODEL);
        hs_model_desc_free(&d);
        return 1;
    }
    for (q = 0; q < 3; ++q) {
        static const char *vn[3] = {"valve", "piston", "rod"};
        col[1 + q] = -1;
        for (i = 0; i < nv; ++i)
            if (!strcmp(d.vol_name[i], vn[q])) col[1 + q] = i;
        if (col[1 + q] < 0) {
            fprintf(stderr, "val_pub1_ida: no volume named %s\n", vn[q]);
            hs_model_desc_free(&d);
            return 1;
        }
    }
    col[0] = 0;
    col[4] = 0;
    col[5] = 0;
    if (hs_param_set(&d, "integrator.tol_position", 1e-10, &err) ||
        hs_param_set(&d, "integrator.tol_pressure", 1e-2, &err) ||
        hs_param_set(&d, "integrator.max_iter", 100, &err) ||
        hs_param_set(&d, "integrator.t_end", T_END, &err)) {
        val_err("val_pub1_ida", &err);
        hs_model_desc_free(&d);
        return 1;
    }
    for (i = 0; i < NARR; ++i) /* (NOUT x nz), (NOUT x nv) or (NOUT) */
        if (!(*arr[i] = (double *)malloc((size_t)NOUT * (size_t)(i < 3 ? nz : i < 6 ? nv : 1) * sizeof(double)))) {
            fprintf(stderr, "val_pub1_ida: out of memory\n");
            goto out;
        }
    for (i = 0; i < NOUT; ++i) times[i] = i * OUT_DT;

    printf("val_pub1_ida: %s (Pub. I), U_ref +10 V on [0.5, 2.8) s, [0, %g] s\n", MODEL, T_END);

    /* ---------------- Part 1: the reference ---------------- */
    printf("\nPart 1: the reference (SUNDIALS IDA, planar absolute coordinates + hydraulic "
           "states, index-1 DAE)\n");
    hs_ida_opts_default(&opts);
    opts.rtol = 1e-10;
    opts.atol_q = 1e-12;
    opts.atol_v = 1e-11;
    opts.atol_p = 1e-3;
    memset(&ro, 0, sizeof ro);
    ro.z = zr;
    ro.p = pr;
    ro.U = Ur;
    ro.s = sr;
    ro.W_cyl = Wr;
    if (hs_ida_planar_hyd_solve(&d.model, &opts, times, NOUT, &ro, &st, msg, sizeof msg)) {
        fprintf(stderr, "val_pub1_ida: reference failed: %s\n", msg);
        goto out;
    }
    printf("  IDA rtol %.0e, atol %.0e rad|m / %.0e Pa / %.0e V: %d coordinates, %d constraints, "
           "%d hydraulic states, %d segments, %ld steps, %ld residuals\n",
           opts.rtol, opts.atol_q, opts.atol_p, opts.atol_U, st.ncoord, st.ncon, st.nhyd,
           st.nsegments, st.nsteps, st.nres);
    printf("  crank %.6f -> %.6f rad, cylinder %.6f -> %.6f m, pressures %.4f..%.4f MPa, "
           "W_cyl(3 s) = %.3f J\n",
           zr[0], zr[(size_t)(NOUT - 1) * (size_t)nz], sr[0], sr[NOUT - 1], st.p_min * 1e-6,
           st.p_max * 1e-6, Wr[NOUT - 1]);
    printf("  drift: max |Phi| = %.3e m, max |Phi_q v| = %.3e m/s; energy E0 = %.6f J, "
           "max |E_kin + E_pot - W_cyl - E0| = %.3e J; |s(0) - s0| = %.1e m\n",
           st.phi_max, st.phid_max, st.E0, st.dE_max, st.s0_mismatch);
    check("IDA max |Phi| [m]", st.phi_max, 0.0, 1e-8);
    {
        double wmax = 0.0;
        for (i = 0; i < NOUT; ++i)
            if (fabs(Wr[i]) > wmax) wmax = fabs(Wr[i]);
        check("IDA max |E_kin + E_pot - W_cyl - E0| / max(|E0|, max|W_cyl|)",
              st.dE_max / (fabs(st.E0) > wmax ? fabs(st.E0) : wmax), 0.0, 1e-8);
    }
    check("IDA cylinder length at t = 0 vs hs_init's s0 [m]", st.s0_mismatch, 0.0, 1e-12);

    lopts = opts;
    lopts.rtol = 1e-9;
    lopts.atol_p = 1e-2;
    lopts.atol_q = 1e-11;
    lopts.atol_v = 1e-10;
    memset(&lo, 0, sizeof lo);
    lo.z = zl;
    lo.p = pl;
    if (hs_ida_planar_hyd_solve(&d.model, &lopts, times, NOUT, &lo, &lst, msg, sizeof msg)) {
        fprintf(stderr, "val_pub1_ida: loose reference failed: %s\n", msg);
        goto out;
    }
    {
        double ez = hs_val_max_abs_diff(zr, zl, nz, 0, 0, NOUT), ep = 0.0;
        for (q = 1; q <= 3; ++q) {
            double e = hs_val_max_abs_diff(pr, pl, nv, col[q], 0, NOUT);
            if (e > ep) ep = e;
        }
        printf("  IDA at rtol 1e-9 (%ld steps) vs rtol 1e-10: crank %.3e rad, pressures %.3e Pa\n",
               lst.nsteps, ez, ep);
        check("IDA rtol 1e-9 vs 1e-10: max |crank diff| [rad]", ez, 0.0, 1e-8);
        check("IDA rtol 1e-9 vs 1e-10: max |pressure diff| [Pa]", ep, 0.0, 10.0);
    }
    if (frozen_valve_checks(&d.model, times)) goto out;

    /* ---------------- Part 2: ours against the reference ---------------- */
    printf("\nPart 2: ours (trapezoidal + index-3 AL, tol_position 1e-10 rad, tol_pressure "
           "1e-2 Pa, max_iter 100) against IDA, every 1 ms\n");
    memset(&eo, 0, sizeof eo);
    eo.z = ze;
    eo.p = pe;
    eo.U = Ue;
    eo.s = se;
    eo.W_cyl = We;
    for (k = 0; k < NDT; ++k) {
        if (hs_param_set(&d, "integrator.dt", dts[k], &err)) {
            val_err("val_pub1_ida", &err);
            goto out;
        }
        if (hs_val_run_engine_hyd(&d.model, OUT_DT, NOUT, &eo, &es[k], msg, sizeof msg)) {
            fprintf(stderr, "val_pub1_ida: dt = %g: %s\n", dts[k], msg);
            goto out;
        }
        for (q = 0; q < NQ; ++q) {
            const double *a = q == 0 ? zr : q <= 3 ? pr : q == 4 ? Ur : sr;
            const double *b = q == 0 ? ze : q <= 3 ? pe : q == 4 ? Ue : se;
            int stride = q == 0 ? nz : q <= 3 ? nv : 1;
            eA[k][q] = hs_val_max_abs_diff(a, b, stride, col[q], 0, NOUT);
            eP[k][q] = hs_val_max_abs_diff(a, b, stride, col[q], 0, KPRE);
        }
        eW[k] = hs_val_max_abs_diff(Wr, We, 1, 0, 0, NOUT);
        printf("  dt = %.2f ms: %ld steps, Newton %.2f iterations/step (max %d), max ||Phi||_2 "
               "%.2e; crank(3 s) %.9f rad, p_rod(3 s) %.6f MPa\n",
               dts[k] * 1e3, es[k].steps, es[k].mean_iters, es[k].max_iters, es[k].phi_max,
               ze[(size_t)(NOUT - 1) * (size_t)nz], pe[(size_t)(NOUT - 1) * (size_t)nv + (size_t)col[3]] * 1e-6);
    }

    printf("\nmax |ours - IDA| over the 1 ms outputs (ratio: e(previous dt)/e(dt); "
           "second order: 4 per halving, 6.25 from 0.25 to 0.1 ms)\n");
    printf("  %-10s %-9s %7s %14s %-4s %7s  %-38s %s\n", "quantity", "window", "dt[ms]",
           "max|err|", "", "ratio", "tolerance", "");
    for (q = 0; q < NQ; ++q) {
        int w;
        for (w = 0; w < 2; ++w) {
            const char *win = w == 0 ? "[0,3]s" : "[0,2.7]s";
            double(*e)[NQ] = w == 0 ? eA : eP;
            double unit = q == 0 ? 1.0 : q <= 3 ? 1e6 : 1.0;
            const char *un = q == 0 ? "rad" : q <= 3 ? "MPa" : q == 4 ? "V" : "m";
            for (k = 0; k < NDT; ++k) {
                double ratio = k > 0 ? e[k - 1][q] / e[k][q] : 0.0, rlo = 0.0, rhi = 0.0,
                       emax = 0.0, nom = k == 3 ? 6.25 : 4.0;
                /* asserted: the error at 1 ms below ~3x the measured one, and second order
                 * (the ratio within 15 % of 4, or of 6.25 from 0.25 to 0.1 ms) */
                if (k == 0) emax = bound[q][w];
                else {
                    rlo = 0.85 * nom;
                    rhi = 1.15 * nom;
                }
                row(qname[q], win, dts[k], e[k][q], unit, un, ratio, rlo, rhi, emax);
            }
        }
    }
    for (k = 0; k < NDT; ++k)
        row("W_cyl", "[0,3]s", dts[k], eW[k], 1.0, "J", k > 0 ? eW[k - 1] / eW[k] : 0.0,
            k > 0 ? 0.85 * (k == 3 ? 6.25 : 4.0) : 0.0, k > 0 ? 1.15 * (k == 3 ? 6.25 : 4.0) : 0.0,
            k == 0 ? 0.6 : 0.0);
    printf("%d passed, %d failed\n", npass, nfail);
    rc = nfail ? 1 : 0;
out:
    for (i = 0; i < NARR; ++i) free(*arr[i]);
    hs_model_desc_free(&d);
    return rc;
}
