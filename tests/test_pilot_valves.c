/* test_pilot_valves.c -- kernels/hs_pilot_valves.h: each valve's static characteristic
 * against its closed form (closed at its setting, the catalogue's pilot pressure, the opening's
 * value and continuity at its corners, the bypass checks, the decompression poppet opening
 * first, the shuttle's selection), and two circuits: a boom held by a counterbalance valve with
 * its valve port drained (held to the bit unpiloted; piloted, lowered at the speed the static
 * load and the valve's law predict) and tests/data/crane_cbv.yaml's lift, hold and lower cycle
 * (the rod line at the pilot pressure that opens the spool while it lowers, the energy audit
 * closing); the seat valves' flows (tests/data/seat_valves.yaml) and their bookkeeping. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/simulate.h"
#include "hs/model_file.h"
#include "hs_batch.h"
#include "test_util.h"

#define SLOPE(f, x, h) (((f)((x) + (h)) - (f)((x) - (h))) / (2.0 * (h)))
#define PA HS_P_ATM

static double CB[HS_CMP_NPAR], PO[HS_CMP_NPAR], PR[HS_CMP_NPAR], SQ[HS_CMP_NPAR], SH[HS_CMP_NPAR];
static double g_pv = PA, g_px = PA; /* the valve port's and the pilot's pressures of cb_q */
static double cb_x(double pl) { return hs_cbv_opening(CB, pl, g_pv, g_px); }
static double cb_q(double pl) { return hs_cbv_flow(CB, hs_cbv_opening(CB, pl, g_pv, g_px), pl, g_pv); }
static double pr_q(double pb) { return hs_orifice_flow(PR[HS_CP_PR_CV] * hs_prv_opening(PR, pb), 50e5 - pb, 2e5); }

static void test_counterbalance_law(void)
{
    double pset = 60e5, R = 3.0, dpo = 20e5, Cv = 1.1e-7, pl, x;
    memset(CB, 0, sizeof CB);
    CB[HS_CP_CB_PSET] = pset, CB[HS_CP_CB_RATIO] = R, CB[HS_CP_CB_DPO] = dpo, CB[HS_CP_CB_CV] = Cv;
    CB[HS_CP_CB_CVCK] = 1e-6, CB[HS_CP_CB_PCK] = 1e5, CB[HS_CP_CB_DPLIM] = 2e5;
    /* unpiloted (pilot and valve port at the drain's pressure): closed up to the setting */
    g_pv = g_px = PA;
    CHECK(cb_q(PA + pset) == 0.0 && cb_q(PA + 0.5 * pset) == 0.0, "counterbalance: holds a load up to p_set unpiloted");
    CHECK(cb_x(PA + pset + 0.5 * dpo) > 0.0, "counterbalance: opens above p_set unpiloted (a relief of the load)");
    /* the catalogue's pilot pressure (p_set - p_load) / R, gauge, at load 150 bar */
    pl = PA + 150e5;
    g_px = hs_cbv_pilot_to_open(CB, pl, g_pv);
    CHECK_CLOSE(g_px - PA, (pset - 150e5) / R, 1e-9, "counterbalance: pilot to open = (p_set - p_load) / R");
    CHECK(cb_q(pl) == 0.0, "counterbalance: closed at the pilot pressure that starts to open it");
    /* u = 1/2 (the pilot dp_open / (2 R) above it): x = u - 0.05, Cv x sqrt(dp) */
    g_px += 0.5 * dpo / R;
    x = cb_x(pl);
    CHECK_CLOSE(x, 0.45, 1e-12, "counterbalance: x = u - 0.05 at u = 1/2");
    CHECK_CLOSE(cb_q(pl), 0.45 * Cv * sqrt(pl - g_pv), 1e-18, "counterbalance: Q = Cv x sqrt(p_load - p_valve)");
    g_px += dpo / R;
    CHECK(cb_x(pl) == 1.0, "counterbalance: fully open at u >= 1.1");
    /* C1 at both corners of the opening (u = 0 and 1.1 rounded over 0.1): its slope in p_load
     * is 0 at u = 0 and 1 / dp_open in between */
    g_px = hs_cbv_pilot_to_open(CB, pl, g_pv);
    CHECK(fabs(SLOPE(cb_x, pl, 1.0)) < 1e-5 / dpo, "counterbalance: slope 0 where it starts to open");
    CHECK_CLOSE(SLOPE(cb_x, pl + 0.5 * dpo, 1.0), 1.0 / dpo, 1e-6 / dpo, "counterbalance: slope 1 / dp_open");
    CHECK_CLOSE(SLOPE(cb_x, pl + 0.1 * dpo, 1e-2), 1.0 / dpo, 1e-6 / dpo, "counterbalance: slope continuous at u = 0.1");
    /* back pressure at the valve port adds (1 + R) / R to the pilot needed (not vented), nothing
     * when vented */
    CHECK_CLOSE(hs_cbv_pilot_to_open(CB, pl, PA + 10e5) - hs_cbv_pilot_to_open(CB, pl, PA), 10e5 * (1.0 + R) / R,
                1e-6, "counterbalance: valve-port pressure adds (1 + R) / R to the pilot pressure");
    CB[HS_CP_CB_VENT] = 1.0;
    CHECK_CLOSE(hs_cbv_pilot_to_open(CB, pl, PA + 10e5), hs_cbv_pilot_to_open(CB, pl, PA), 1e-6,
                "counterbalance, vented: the valve-port pressure does not act");
    CB[HS_CP_CB_VENT] = 0.0;
    /* the bypass check: free flow valve -> load once the valve port is p_check + 1 bar above */
    g_px = PA;
    g_pv = PA + 100e5;
    pl = g_pv - 5e5;
    CHECK_CLOSE(cb_q(pl), -1e-6 * sqrt(5e5), 1e-15, "counterbalance: the check passes -Cv_check sqrt(dp) valve -> load");
    CHECK(cb_q(g_pv - 0.99e5) == 0.0, "counterbalance: the check closed below p_check");
    g_pv = PA;
}

static void test_pilot_check_law(void)
{
    double pa = PA + 20e5, pb = PA + 150e5, pc = 1e5, dpo = 2e5, R = 4.0, px0, q;
    memset(PO, 0, sizeof PO);
    PO[HS_CP_PO_PCR] = pc, PO[HS_CP_PO_DPO] = dpo, PO[HS_CP_PO_CV] = 1e-6, PO[HS_CP_PO_RATIO] = R;
    PO[HS_CP_PO_DPLIM] = 2e5;
    /* free flow from -> to as a check valve */
    CHECK_CLOSE(hs_pocv_flow(PO, PA + 10e5, PA, PA), 1e-6 * sqrt(10e5), 1e-15, "pilot check: free flow from -> to");
    /* reverse: closed without pilot; the catalogue's pilot pressure p_from + (p_to - p_from +
     * p_crack) / R starts it, dp_open / R more opens it fully */
    CHECK(hs_pocv_flow(PO, pa, pb, pa) == 0.0, "pilot check: holds the load unpiloted");
    px0 = pa + (pb - pa + pc) / R;
    CHECK(hs_pocv_flow(PO, pa, pb, px0) == 0.0, "pilot check: closed at the pilot pressure that starts it");
    CHECK(hs_pocv_flow(PO, pa, pb, px0 + 1.0) < 0.0, "pilot check: opens above it");
    CHECK_CLOSE(hs_pocv_flow(PO, pa, pb, px0 + dpo / R), -1e-6 * sqrt(pb - pa), 1e-15,
                "pilot check: fully open reverse at dp_open / R above it");
    CHECK_CLOSE(hs_pocv_flow(PO, pa, pb, px0 + 0.5 * dpo / R), -0.5 * 1e-6 * sqrt(pb - pa), 1e-15,
                "pilot check: half open (3u^2 - 2u^3 at 1/2)");
    /* a decompression poppet (ratio 12, a tenth of the orifice) opens first */
    PO[HS_CP_PO_RDEC] = 12.0, PO[HS_CP_PO_CVDEC] = 1e-7;
    q = hs_pocv_flow(PO, pa, pb, pa + (pb - pa + pc + dpo) / 12.0);
    CHECK_CLOSE(q, -1e-7 * sqrt(pb - pa), 1e-16, "pilot check: decompression poppet alone open at its pilot pressure");
    CHECK(pa + (pb - pa + pc + dpo) / 12.0 < px0, "pilot check: ... below the main poppet's");
    PO[HS_CP_PO_RDEC] = 0.0, PO[HS_CP_PO_CVDEC] = 0.0;
}

static void test_reducing_sequence_shuttle_laws(void)
{
    double Q2, q, s;
    memset(PR, 0, sizeof PR);
    memset(SQ, 0, sizeof SQ);
    memset(SH, 0, sizeof SH);
    /* reducing: closed at the set outlet pressure (gauge), open by (p_set - p_out) / band - 0.05 */
    PR[HS_CP_PR_PSET] = 30e5, PR[HS_CP_PR_BAND] = 5e5, PR[HS_CP_PR_CV] = 1e-7, PR[HS_CP_PR_DPLIM] = 2e5;
    CHECK(hs_prv_opening(PR, PA + 30e5) == 0.0 && hs_prv_opening(PR, PA + 40e5) == 0.0,
          "reducing: closed at and above p_set");
    CHECK_CLOSE(hs_prv_opening(PR, PA + 30e5 - 2.5e5), 0.45, 1e-12, "reducing: x = 0.45 half a band below p_set");
    CHECK(hs_prv_opening(PR, PA + 20e5) == 1.0, "reducing: wide open a band and a half below");
    CHECK(SLOPE(pr_q, PA + 29e5, 1.0) < 0.0, "reducing: the flow falls as the outlet rises to p_set");
    /* sequence: closed below p_set at its pilot, opens over dp_open; reverse check */
    SQ[HS_CP_SQ_PSET] = 80e5, SQ[HS_CP_SQ_DPO] = 10e5, SQ[HS_CP_SQ_CV] = 1e-7, SQ[HS_CP_SQ_DPLIM] = 2e5;
    CHECK(hs_sequence_opening(SQ, PA + 80e5) == 0.0, "sequence: closed at p_set");
    CHECK_CLOSE(hs_sequence_opening(SQ, PA + 85e5), 0.45, 1e-12, "sequence: x = 0.45 at p_set + dp_open / 2");
    q = hs_pilot_flow(HS_CMP_SEQUENCE, SQ, 0.45, PA + 85e5, PA + 20e5, PA + 85e5, &Q2);
    CHECK_CLOSE(q, 0.45e-7 * sqrt(65e5), 1e-16, "sequence: Cv x sqrt(p_primary - p_secondary)");
    CHECK(hs_pilot_flow(HS_CMP_SEQUENCE, SQ, 0.0, PA, PA + 20e5, PA, &Q2) == 0.0, "sequence: no reverse flow without a check");
    SQ[HS_CP_SQ_CVCK] = 1e-6;
    CHECK_CLOSE(hs_pilot_flow(HS_CMP_SEQUENCE, SQ, 0.0, PA, PA + 20e5, PA, &Q2), -1e-6 * sqrt(20e5), 1e-15,
                "sequence: its check's reverse flow");
    /* shuttle: the higher input passes, the other seat closed; equal inputs share */
    SH[HS_CP_SH_CV] = 1e-7, SH[HS_CP_SH_DPSW] = 1e5, SH[HS_CP_SH_DPLIM] = 2e5;
    q = hs_pilot_flow(HS_CMP_SHUTTLE, SH, 0.0, PA + 100e5, PA + 90e5, PA + 50e5, &Q2);
    CHECK_CLOSE(q, 1e-7 * sqrt(10e5), 1e-16, "shuttle: the higher input feeds the output");
    CHECK(Q2 == 0.0, "shuttle: the lower input's seat is closed");
    q = hs_pilot_flow(HS_CMP_SHUTTLE, SH, 0.0, PA + 50e5, PA + 90e5, PA + 100e5, &Q2);
    CHECK(q == 0.0 && Q2 == 1e-7 * sqrt(10e5), "shuttle: and the other way round");
    s = hs_shuttle_share(SH, PA + 70e5, PA + 70e5);
    CHECK(s == 0.5, "shuttle: equal inputs, the ball in the middle (%g)", s);
    q = hs_pilot_flow(HS_CMP_SHUTTLE, SH, 0.0, PA + 50e5, PA + 90e5, PA + 40e5, &Q2);
    CHECK_CLOSE(q, -1e-7 * sqrt(40e5), 1e-16, "shuttle: the output drains back to the higher input");
    CHECK(Q2 == 0.0, "shuttle: not to the lower one");
}

/* ---- circuits ---- */

static const char *k_hold =
    "name: cbv_hold\n"
    "gravity: [0, -9.81, 0]\n"
    "bodies: [{name: link1, shape: custom, mass: 450 kg, com: [0.777777777778, 0, 0],\n"
    "          inertia: [0.01, 44.4444444444, 44.4444444444, 0, 0, 0]}]\n"
    "joints: [{name: theta1, type: revolute, parent: ground, child: link1, axis: [0, 0, 1], z0: 30 deg}]\n"
    "fluid: {B_oil: 1500 MPa, rho: 850 kg/m^3}\n"
    "hydraulics:\n"
    "  sources: [{name: tank, p: 0.1 MPa}, {name: pilot, p: 0.1 MPa}]\n"
    "  volumes: [{name: piston, V: 3.14e-5 m^3, B: 1500 MPa}, {name: rod, V: 7.85e-5 m^3, B: 1500 MPa}]\n"
    "  throttles: [{name: suction, from: tank, to: rod, Cd: 0.8, A: 2e-4 m^2, dp_lim: 0.5 bar}]\n"
    "  cylinders:\n"
    "    - {name: lift, body_a: ground, at_a: [0.866025403784, 0, 0], body_b: link1, at_b: [0.5, 0, 0],\n"
    "       d_piston: 80 mm, d_rod: 35 mm, stroke: 0.3 m, l_piston0: 0.15 m, B_wall: 31500 MPa,\n"
    "       piston_volume: piston, rod_volume: rod, friction: {model: viscous, c: 1e4 Ns/m},\n"
    "       init: {mode: equilibrium, p_rod: 0.1 MPa}}\n"
    "  components:\n"
    "    - {name: cbv, type: counterbalance_valve, from: piston, to: tank, pilot: pilot, p_set: 60 bar,\n"
    "       ratio: 3, dp_open: 20 bar, Cv: 1.1e-7, Cv_check: 1.1e-6}\n"
    "integrator: {dt: 1 ms, t_end: 1 s, tol_position: 1e-9, tol_pressure: 1 Pa, penalty: 1e11}\n";

typedef struct {
    double t_probe, z0, dz_max, sd, p_p, p_r, z; /* the state at t_probe; |z - z0| over the run */
    int at_probe;
    /* crane_cbv's phases */
    double dz_hold, z_hold0, x_min_lowering, z_lift_end, z_lower_end;
} probe;

static int on_step(void *ctx, const hs_model *m, const hs_state *s, const hs_obs *o, double E)
{
    probe *q = (probe *)ctx;
    (void)E;
    if (s->t == 0.0) q->z0 = s->z[0];
    if (fabs(s->z[0] - q->z0) > q->dz_max) q->dz_max = fabs(s->z[0] - q->z0);
    if (!q->at_probe && s->t >= q->t_probe - 1e-12) {
        q->at_probe = 1;
        q->sd = o->sd[0], q->p_p = s->p[0], q->p_r = s->p[1], q->z = s->z[0];
    }
    (void)m;
    return 0;
}

/* The lowering speed v (> 0) of the held boom once piloted at px, quasi-static at the load of
 * its rest, W = p_p0 Ap - p_r0 Ar: the piston pressure (W + p_r Ar - c v) / Ap (the seal's
 * viscous friction c v carries part of the load), the rod side drawn below the tank through the
 * suction throttle, and Ap v = the counterbalance valve's flow at those pressures. Bisection. */
static double lowering_speed(const hs_model *m, double W, double px)
{
    double Ap = m->cyl_Ap[0], Ar = m->cyl_Ar[0], c = m->cyl_fp[0][HS_FP_C], pt = m->src_p[0];
    double lo = 0.0, hi = 1.0, v = 0.5;
    int k, j;
    for (k = 0; k < 200; ++k) {
        double qr, pr, dlo = 0.0, dhi = 10e5, pp, g;
        v = 0.5 * (lo + hi);
        qr = Ar * v; /* the suction throttle's drop tank -> rod that passes it */
        for (j = 0; j < 200; ++j) {
            double d = 0.5 * (dlo + dhi);
            if (hs_orifice_flow(m->thr_Cv[0], d, m->thr_dplim[0]) < qr) dlo = d;
            else dhi = d;
        }
        pr = pt - 0.5 * (dlo + dhi);
        pp = (W + pr * Ar - c * v) / Ap;
        g = Ap * v - hs_cbv_flow(m->cmp_par[0], hs_cbv_opening(m->cmp_par[0], pp, pt, px), pp, pt);
        if (g > 0.0) hi = v;
        else lo = v;
    }
    return v;
}

static void test_hold_and_meter(void)
{
    static hs_model_desc d;
    hs_sim_summary sum;
    probe q;
    double W, px, v, pl0;
    hs_state s0;
    hs_work *w = (hs_work *)calloc(1, sizeof *w);
    if (tu_load_text(k_hold, "cbv hold", &d)) {
        free(w);
        return;
    }
    CHECK(d.model.cyl_fp[0][HS_FP_C] == 1e4, "the viscous friction's c (%g)", d.model.cyl_fp[0][HS_FP_C]);
    CHECK(hs_init(&d.model, &s0, w) == 0, "init");
    pl0 = s0.p[0];
    W = s0.p[0] * d.model.cyl_Ap[0] - s0.p[1] * d.model.cyl_Ar[0];
    /* unpiloted, the valve port drained: held to the bit (no leakage given) */
    memset(&q, 0, sizeof q);
    q.t_probe = 1.0;
    CHECK(hs_simulate(&d.model, on_step, &q, &sum) == 0, "held: runs");
    CHECK(q.dz_max == 0.0, "held: the boom does not move (|dz| %.3e rad over 1 s)", q.dz_max);
    /* piloted to u = 1/2 at the load's pressure: lowers at the predicted speed */
    px = hs_cbv_pilot_to_open(d.model.cmp_par[0], pl0, d.model.src_p[0]) + 0.5 * 20e5 / 3.0;
    d.model.src_p[1] = px;
    memset(&q, 0, sizeof q);
    q.t_probe = 0.1;
    CHECK(hs_simulate(&d.model, on_step, &q, &sum) == 0, "piloted: runs");
    v = lowering_speed(&d.model, W, px);
    printf("  counterbalance valve piloted at %.4g bar: lowers at %.5f m/s, quasi-static %.5f m/s (load %.4g bar)\n",
           (px - PA) / 1e5, -q.sd, v, (pl0 - PA) / 1e5);
    /* 1.5 %: the load's moment arm changes as the boom lowers (the piston pressure rises about
     * 0.35 % in 0.1 s) and the start's transient has decayed to a few per mille by 0.1 s */
    CHECK(q.sd < 0.0 && fabs(-q.sd - v) < 0.015 * v, "piloted: lowers at %.5f m/s, the static law's %.5f within 1.5 %%",
          -q.sd, v);
    hs_model_desc_free(&d);
    free(w);
}

static int on_cycle(void *ctx, const hs_model *m, const hs_state *s, const hs_obs *o, double E)
{
    probe *q = (probe *)ctx;
    (void)E;
    (void)o;
    if (s->t > 1.49 && s->t < 1.51) q->z_lift_end = s->z[0];
    if (s->t >= 1.7 && s->t <= 2.5) { /* held by the closed centre and the valve */
        if (q->z_hold0 == 0.0) q->z_hold0 = s->z[0];
        if (fabs(s->z[0] - q->z_hold0) > q->dz_hold) q->dz_hold = fabs(s->z[0] - q->z_hold0);
    }
    if (s->t >= 2.7 && s->t <= 3.4) { /* lowering: the spool opened by the rod line's pressure */
        double x = hs_cbv_opening(m->cmp_par[3], s->p[2], s->p[1], s->p[3]);
        if (x < q->x_min_lowering) q->x_min_lowering = x;
    }
    if (s->t > 3.49 && s->t < 3.51) q->z_lower_end = s->z[0];
    return 0;
}

static void test_crane_cycle(void)
{
    static hs_model_desc d;
    hs_sim_summary sum;
    probe q;
    if (tu_load_model("tests/data/crane_cbv.yaml", &d)) return;
    CHECK(d.model.cmp_type[3] == HS_CMP_COUNTERBALANCE && d.model.nvol == 4, "crane_cbv: its valve is component 3");
    memset(&q, 0, sizeof q);
    q.x_min_lowering = 2.0;
    CHECK(hs_simulate(&d.model, on_cycle, &q, &sum) == 0, "crane_cbv: the cycle completes (status %d)", sum.status);
    printf("  crane_cbv: lifted %.4f rad through the check, held within %.2e rad, lowered %.4f rad with the spool "
           "open >= %.3f; audit closes to %.2e J\n",
           q.z_lift_end - 30.0 * HS_PI / 180.0, q.dz_hold, q.z_lift_end - q.z_lower_end, q.x_min_lowering,
           sum.max_abs_audit);
    CHECK(q.z_lift_end - 30.0 * HS_PI / 180.0 > 0.05, "crane_cbv: lifted through the bypass check");
    CHECK(q.dz_hold < 1e-4, "crane_cbv: held (%.2e rad)", q.dz_hold);
    CHECK(q.z_lift_end - q.z_lower_end > 0.05, "crane_cbv: lowered under pilot");
    CHECK(q.x_min_lowering > 0.05, "crane_cbv: the spool open while lowering (x >= %.3f)", q.x_min_lowering);
    CHECK(sum.max_abs_audit < 1e-6, "crane_cbv: the energy audit closes (%.2e J)", sum.max_abs_audit);
    hs_model_desc_free(&d);
}

/* Seat valves (hs_valve_flows, dcv_kind): the 3/2 open P -> A by U and A -> T by 1 - U, the 2/2
 * P -> A by U, closed at U <= 0, fully open from U = 1, and the callers' bookkeeping: what
 * enters A leaves P, what leaves A enters T, whatever U's sign. */
static void test_seat_laws(void)
{
    static hs_model_desc d;
    const hs_model *m;
    double p[HS_CAP_VOLS], U[2], qA, qB, Cv = 2e-7, lim = 2e5;
    hs_hyd *o = (hs_hyd *)calloc(1, sizeof *o);
    int j;
    if (tu_load_model("tests/data/seat_valves.yaml", &d)) {
        free(o);
        return;
    }
    m = &d.model;
    CHECK(m->dcv_kind[0] == HS_DCV_SEAT_3_2 && m->dcv_kind[1] == HS_DCV_SEAT_2_2, "seat: the valves' types");
    CHECK(m->dcv_B[0] == m->dcv_A[0] && m->dcv_T[1] == m->dcv_P[1] && m->dcv_B[1] == m->dcv_A[1],
          "seat: B is A, a 2/2's T is P");
    p[0] = PA + 20e5, p[1] = PA + 14e5, p[2] = PA; /* line, piston, rod */
    for (j = 0; j < 4; ++j) { /* U = 1, 0.3, -0.5, 1.7 on the 3/2 */
        const double u[4] = {1.0, 0.3, -0.5, 1.7}, x = u[j] < 0.0 ? 0.0 : u[j] > 1.0 ? 1.0 : u[j];
        double qpa = hs_orifice_flow(Cv * x, m->src_p[1] - p[0], lim); /* supply -> line */
        double qat = hs_orifice_flow(Cv * (1.0 - x), p[0] - m->src_p[0], lim); /* line -> tank */
        U[0] = u[j], U[1] = 0.0;
        hs_valve_flows(m, 0, p, U, &qA, &qB);
        CHECK(fabs(qA + qB - (qpa - qat)) <= 1e-18,
              "3/2 at U = %g: into A = Cv x sqrt(p_P - p_A) - Cv (1 - x) sqrt(p_A - p_T)", u[j]);
        CHECK(fabs((u[j] >= 0.0 ? qA : qB) - qpa) <= 1e-18, "3/2 at U = %g: P's outflow (the edge the 4/3 books)", u[j]);
        CHECK(fabs((u[j] >= 0.0 ? -qB : -qA) - qat) <= 1e-18, "3/2 at U = %g: T's inflow", u[j]);
    }
    U[0] = 1.0, U[1] = 0.0;
    hs_valve_flows(m, 1, p, U, &qA, &qB);
    CHECK(qA == 0.0 && qB == 0.0, "2/2 closed at U = 0 holds the load");
    U[1] = 0.5;
    hs_valve_flows(m, 1, p, U, &qA, &qB);
    CHECK_CLOSE(qA, hs_orifice_flow(0.5e-7, 6e5, lim), 1e-18, "2/2 at U = 0.5: Cv U sqrt(p_P - p_A)");
    CHECK(qB == 0.0, "2/2: no second edge");
    /* the volumes' balance: the line receives what the 3/2 passes less what the 2/2 takes */
    {
        double fs[HS_CAP_FS] = {0.0};
        hs_state s;
        hs_work *w = (hs_work *)calloc(1, sizeof *w);
        double q3a, q3b, q2a, q2b;
        CHECK(hs_init(m, &s, w) == 0, "seat: init");
        U[0] = 0.4, U[1] = 0.7;
        hs_kin_positions(m, s.z, &w->kin);
        hs_kin_velocities(m, s.zd, &w->kin);
        hs_cylinders(m, &w->kin, s.s0, o);
        hs_hydraulic_rates(m, p, fs, U, o);
        hs_valve_flows(m, 0, p, U, &q3a, &q3b);
        hs_valve_flows(m, 1, p, U, &q2a, &q2b);
        CHECK_CLOSE(o->h[0] * hs_volume_capacitance(m, 0, 0.0, 0.0, 0.0), q3a + q3b - (q2a + q2b), 1e-18,
                    "seat: the line's inflow is the 3/2's net flow into A less the 2/2's from P");
        free(w);
    }
    free(o);
    hs_model_desc_free(&d);
}

int main(void)
{
    test_seat_laws();
    test_counterbalance_law();
    test_pilot_check_law();
    test_reducing_sequence_shuttle_laws();
    test_hold_and_meter();
    test_crane_cycle();
    return tu_report("test_pilot_valves");
}
