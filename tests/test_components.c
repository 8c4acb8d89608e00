/* test_components.c -- kernels/hs_components.h and its coupling (hs_hydraulics.h): every
 * component's static characteristic against its closed form (values, continuity and slope
 * at its corners; the flow control valve's monotone rise to its set flow), the circuit's conservation of oil with every component and valve ports
 * on volumes, an accumulator discharged slowly and fast against the polytropic law
 * p V^n = const, a relief poppet's step response against x_ss (1 - exp(-t/tau)) at second
 * order, the dead-headed pressure-compensated and load-sensing pumps at their closed-form
 * equilibria, and a motor's laws (its loss power never negative) and torque-speed balance
 * (fed by a pump, braked by a constant torque) with the energy balance closing. */
#include <stdlib.h>
#include <string.h>

#include "engine/simulate.h"
#include "hs/model_file.h"
#include "hs_batch.h"
#include "hs_integrator.h"
#include "test_util.h"

static hs_work *W;
static hs_model_desc D;

/* Loads text into D (0), or fails a check naming what (-1). */
static int load(const char *text, const char *what)
{
    hs_model_desc_free(&D);
    return tu_load_text(text, what, &D);
}

/* central difference of f at x */
#define SLOPE(f, x, h) (((f)((x) + (h)) - (f)((x) - (h))) / (2.0 * (h)))

static double RV[HS_CMP_NPAR], CK[HS_CMP_NPAR], PU[HS_CMP_NPAR], AC[HS_CMP_NPAR], FC[HS_CMP_NPAR];
static double fc_q(double dp) { return hs_flow_control_flow(FC, dp); }
static double rv_q(double dp) { return RV[HS_CP_RV_QNOM] * hs_relief_opening(RV, dp); }
static double ck_q(double dp) { return hs_check_flow(CK, dp); }
static double ac_vg(double p)
{
    double vg;
    hs_accumulator_capacitance(AC, 1.5e9, p, &vg);
    return vg;
}
static double ac_e(double p) { return hs_accumulator_energy(AC, p); }

static void test_laws(void)
{
    double pcr = 100e5, d = 1e5, ov = 10e5, Qn = 20e-3 / 60, x, q;
    int k;
    /* relief valve: zero below cracking, Q_nom at p_crack + override + d/2, the gradient
     * Q_nom / override beyond the rounding, value and slope continuous at both corners */
    RV[HS_CP_RV_PCR] = pcr, RV[HS_CP_RV_QNOM] = Qn, RV[HS_CP_RV_DPOV] = ov, RV[HS_CP_RV_DPS] = d;
    CHECK(rv_q(pcr) == 0.0 && rv_q(pcr - 1e5) == 0.0 && rv_q(0.0) == 0.0, "relief: closed up to p_crack");
    CHECK_CLOSE(rv_q(pcr + ov + 0.5 * d), Qn, 1e-15, "relief: Q_nom at p_crack + override + dp_smooth/2");
    CHECK_CLOSE(rv_q(pcr + 0.5 * d), Qn * (0.25 * d * d / (2 * d)) / ov, 1e-15, "relief: quadratic in the rounding");
    CHECK_CLOSE(SLOPE(rv_q, pcr + 3 * ov, 1.0), Qn / ov, 1e-7 * Qn / ov, "relief: gradient Q_nom / dp_override");
    CHECK_CLOSE(SLOPE(rv_q, pcr + d, 1e-3), Qn / ov, 1e-6 * Qn / ov, "relief: slope continuous at the end of the rounding");
    CHECK(fabs(SLOPE(rv_q, pcr, 1e-3)) < 1e-8 * Qn / ov, "relief: slope 0 at cracking");
    /* check valve: leakage only below cracking (both directions), the full orifice flow
     * Cv sqrt(dp) beyond p_crack + dp_open, 3u^2 - 2u^3 between: C1 */
    CK[HS_CP_CK_PCR] = 0.5e5, CK[HS_CP_CK_DPO] = 2e5, CK[HS_CP_CK_CV] = 3e-7, CK[HS_CP_CK_DPLIM] = 1e5;
    CK[HS_CP_CK_GL] = 1e-12;
    CHECK_CLOSE(ck_q(-50e5), -50e5 * 1e-12, 1e-20, "check: reverse flow is the leakage");
    CHECK_CLOSE(ck_q(0.4e5), 0.4e5 * 1e-12, 1e-20, "check: leakage below cracking");
    CHECK_CLOSE(ck_q(10e5), 3e-7 * sqrt(10e5) + 10e5 * 1e-12, 1e-16, "check: open: Cv sqrt(dp)");
    x = 0.5e5 + 0.5 * 2e5; /* half way: opening 1/2, turbulent (dp > dp_lim) */
    CHECK_CLOSE(ck_q(x), 0.5 * 3e-7 * sqrt(x) + x * 1e-12, 1e-16, "check: half open at the middle");
    for (k = 0; k < 2; ++k) {
        double c = k ? 2.5e5 : 0.5e5, h = 1e-4;
        CHECK(fabs(ck_q(c + h) - ck_q(c - h)) < 1e-8 * ck_q(10e5), "check: continuous at %g Pa", c);
        CHECK(fabs(SLOPE(ck_q, c + 10 * h, h) - SLOPE(ck_q, c - 10 * h, h)) < 1e-4 * 3e-7 / sqrt(2.5e5),
              "check: slope continuous at %g Pa", c);
    }
    /* pump: D n / (2 pi) at no pressure rise, eta_v of it at dp_rated, linear between */
    PU[HS_CP_PU_D] = 45e-6, PU[HS_CP_PU_N] = 1500 * HS_PI / 30, PU[HS_CP_PU_ETAV] = 0.94, PU[HS_CP_PU_DPR] = 250e5;
    PU[HS_CP_PU_ETAHM] = 0.9, PU[HS_CP_PU_PREF] = 200e5, PU[HS_CP_PU_BAND] = 10e5;
    q = 45e-6 * 1500 / 60;
    CHECK_CLOSE(hs_pump_flow(PU, 1.0, 0.0), q, 1e-15, "pump: D n at no pressure rise (67.5 L/min)");
    CHECK_CLOSE(hs_pump_flow(PU, 1.0, 250e5), 0.94 * q, 1e-15, "pump: eta_v D n at dp_rated");
    CHECK_CLOSE(hs_pump_flow(PU, 0.5, 125e5), 0.5 * q - 0.5 * 0.06 * q, 1e-15, "pump: half stroke, half the leakage");
    /* the prime mover's droop: the speed falls by droop eps dp / p_max; the leakage does not */
    PU[HS_CP_PU_DROOP] = 0.1, PU[HS_CP_PU_PMAX] = 300e5;
    CHECK_CLOSE(hs_pump_flow(PU, 1.0, 300e5), 0.9 * q - 0.06 * q * 300.0 / 250.0, 1e-15,
                "pump with droop 0.1: 0.9 D n at full stroke and p_max, less the leakage");
    CHECK_CLOSE(hs_pump_flow(PU, 0.5, 150e5), 0.5 * q * (1.0 - 0.1 * 0.25) - 0.06 * q * 150.0 / 250.0, 1e-15,
                "pump with droop 0.1: half stroke at half p_max loses a quarter of the droop");
    CHECK(hs_pump_speed_ratio(PU, 1.0, 1e10) == 0.0, "pump with droop: the speed never below 0");
    PU[HS_CP_PU_DROOP] = 0.0;
    CHECK(hs_pump_speed_ratio(PU, 1.0, 300e5) == 1.0, "pump without droop: its speed");
    CHECK_CLOSE(hs_pump_eps_ss(PU, 150e5, 200e5), 1.0, 0, "pump control: full stroke below p_ref");
    CHECK_CLOSE(hs_pump_eps_ss(PU, 205e5, 200e5), 0.5, 1e-15, "pump control: half stroke mid-band");
    CHECK_CLOSE(hs_pump_eps_ss(PU, 212e5, 200e5), 0.0, 0, "pump control: none beyond the band");
    /* accumulator: V_g (p) = V0 (p_pre / p)^(1/n) above precharge; the capacitance is
     * -dV_g/dp plus the oil's; the stored energy's derivative is p (-dV_g/dp) */
    AC[HS_CP_AC_V0] = 4e-3, AC[HS_CP_AC_PPRE] = 90e5, AC[HS_CP_AC_N] = 1.4;
    CHECK(ac_vg(80e5) == 4e-3 && ac_e(80e5) == 0.0, "accumulator: empty at or below precharge");
    CHECK_CLOSE(ac_vg(180e5) * pow(180e5, 1 / 1.4), 4e-3 * pow(90e5, 1 / 1.4), 1e-15, "accumulator: p V^n = const");
    for (x = 100e5; x < 300e5; x += 50e5) {
        double vg, C = hs_accumulator_capacitance(AC, 1.5e9, x, &vg);
        double want = -SLOPE(ac_vg, x, 10.0) + (4e-3 - vg) / 1.5e9, de = SLOPE(ac_e, x, 10.0);
        CHECK(fabs(C - want) <= 1e-7 * C, "accumulator: capacitance at %g Pa: %.10g, want %.10g", x, C, want);
        CHECK(fabs(de + x * SLOPE(ac_vg, x, 10.0)) <= 1e-6 * fabs(de), "accumulator: dE/dp = -p dV_g/dp at %g Pa", x);
    }
    AC[HS_CP_AC_N] = 1.0;
    q = ac_e(200e5);
    CHECK_CLOSE(q, 90e5 * 4e-3 * log(200.0 / 90.0), 1e-9 * q, "accumulator: isothermal energy p0 V0 ln(p/p0)");
    AC[HS_CP_AC_N] = 1.0 + 1e-6;
    CHECK_CLOSE(ac_e(200e5), q, 1e-5 * q, "accumulator: the polytropic energy tends to the isothermal one");
    AC[HS_CP_AC_N] = 1.4;
    /* flow control valve: Q_set from dp_comp on, in both directions; below it the orifice
     * sized to pass Q_set at dp_comp, times (3 - r)/2: at r = 1/4 Q_set sqrt(1/4) 11/8;
     * value and slope continuous at dp_comp (slope 0 there), increasing below it; plus the
     * leakage */
    FC[HS_CP_FC_QSET] = 40e-3 / 60, FC[HS_CP_FC_DPC] = 8e5, FC[HS_CP_FC_DPLIM] = 0.5e5, FC[HS_CP_FC_GL] = 0.0;
    q = 40e-3 / 60;
    CHECK_CLOSE(fc_q(50e5), q, 1e-18, "flow control: Q_set well above dp_comp");
    CHECK_CLOSE(fc_q(-50e5), -q, 1e-18, "flow control: -Q_set in reverse");
    CHECK_CLOSE(fc_q(8e5), q, 1e-18, "flow control: Q_set at dp_comp");
    CHECK_CLOSE(fc_q(2e5), q * 0.5 * 11.0 / 8.0, 1e-15 * q, "flow control: Q_set sqrt(r) (3 - r)/2 at r = 1/4");
    CHECK_CLOSE(fc_q(0.25e5), q * (0.25e5 / sqrt(0.5e5 * 8e5)) * (3.0 - 0.25 / 8.0) / 2.0, 1e-15 * q,
                "flow control: laminar below dp_lim");
    CHECK(fabs(fc_q(8e5 + 1e-3) - fc_q(8e5 - 1e-3)) < 1e-12 * q, "flow control: continuous at dp_comp");
    CHECK(fabs(SLOPE(fc_q, 8e5 - 1.0, 0.5)) < 1e-5 * q / 8e5, "flow control: slope 0 at dp_comp from below");
    /* (at dp_lim the value is continuous, the slope halves: the seeds' orifice law, as every
     * valve's) */
    CHECK(fabs(fc_q(0.5e5 + 1e-3) - fc_q(0.5e5 - 1e-3)) < 1e-7 * q, "flow control: continuous at dp_lim");
    for (k = 1, x = 0.0; k < 100; ++k) { /* monotone up to dp_comp */
        double v = fc_q(8e5 * k / 100.0);
        CHECK(v > x, "flow control: increasing at %g Pa", 8e5 * k / 100.0);
        x = v;
    }
    FC[HS_CP_FC_GL] = 1e-12;
    CHECK_CLOSE(fc_q(50e5), q + 50e5 * 1e-12, 1e-18, "flow control: plus the leakage");
}

static double CMP_C = 6e-8, CMP_DPC = 10e5, CMP_LIM = 2e5;
static double ce_q(double dp) { return hs_compensated_edge(CMP_C, CMP_DPC, CMP_LIM, dp); }

/* A load-sensing section's compensated meter-in edge: C sqrt(dp_comp) from dp_comp on,
 * whatever the drop; the flow control valve's shape below; no reverse flow, the check
 * opening C1 over the laminar band; the sensing port's opening and the shuttle network's
 * rounded maximum. */
static void test_ls_laws(void)
{
    double q = CMP_C * sqrt(CMP_DPC);
    CHECK_CLOSE(ce_q(50e5), q, 1e-15 * q, "LS edge: C sqrt(dp_comp) at 50 bar");
    CHECK_CLOSE(ce_q(150e5), q, 1e-15 * q, "LS edge: the same at 150 bar (the load does not matter)");
    CHECK_CLOSE(ce_q(4e5), q * sqrt(0.4) * (3.0 - 0.4) / 2.0, 1e-14 * q, "LS edge: below dp_comp, the orifice shape");
    CHECK(ce_q(-10e5) == 0.0 && ce_q(0.0) == 0.0, "LS edge: no reverse flow (load-holding check)");
    CHECK_CLOSE(ce_q(1e5), q * (1e5 / sqrt(CMP_LIM * CMP_DPC)) * (3.0 - 0.1) / 2.0 * 0.5, 1e-14 * q,
                "LS edge: the check half open in the middle of the laminar band");
    CHECK(fabs(SLOPE(ce_q, 1.0, 0.5)) < 1e-9 * q / CMP_LIM, "LS edge: slope 0 where it opens (C1)");
    CHECK(fabs(ce_q(CMP_LIM + 1e-3) - ce_q(CMP_LIM - 1e-3)) < 1e-8 * q && fabs(ce_q(CMP_DPC + 1e-3) - ce_q(CMP_DPC - 1e-3)) < 1e-8 * q,
          "LS edge: continuous where the check is open and where the compensator takes over");
    CHECK(hs_ls_open(0.0) == 0.0 && hs_ls_open(1.0) == 1.0 && hs_ls_open(-2.0) == 1.0 && hs_ls_open(0.5) == 0.5,
          "LS port: closed at the centre, open from U_ls, half open half way");
    CHECK(hs_smooth_max(100e5, 50e5, 5e5) == 100e5 && hs_smooth_max(50e5, 100e5, 5e5) == 100e5,
          "LS max: the higher pressure beyond the rounding");
    CHECK_CLOSE(hs_smooth_max(80e5, 80e5, 5e5), 80e5 + 5e5 / 8.0, 1e-6, "LS max: equal pressures, d/8 above");
}

static double MO[HS_CMP_NPAR];
static double mo_t(double dp) { return hs_motor_torque(MO, dp, 0.3); }

/* The motor's laws: flow D i zdot / (2 pi) + G dp; torque i D dp / (2 pi) less the loss
 * (1 - eta_hm) |dp| against the motion, so eta_hm of the ideal torque when it drives at speed,
 * 1 / ... more when it is driven, and a loss power T_l w >= 0 at every dp and speed; at rest
 * the rounded |dp| is d/2; the viscous term -c_v w. */
static void test_motor_laws(void)
{
    double D = 100e-6, i = 4.0, eta = 0.9, G = 1e-12, cv = 0.5, k = D / (2.0 * HS_PI), dp, zd;
    int a, b, bad = 0;
    MO[HS_CP_MO_D] = D, MO[HS_CP_MO_RATIO] = i, MO[HS_CP_MO_ETAHM] = eta, MO[HS_CP_MO_GL] = G;
    MO[HS_CP_MO_WS] = 1.0, MO[HS_CP_MO_CV] = 0.0;
    CHECK_CLOSE(hs_motor_flow(MO, 100e5, 3.0), k * i * 3.0 + G * 100e5, 1e-18, "motor: flow D i zdot / (2 pi) + G dp");
    CHECK_CLOSE(hs_motor_torque(MO, 100e5, 10.0), i * eta * k * 100e5, 1e-9 * i * k * 100e5,
                "motor: eta_hm of the ideal torque when driving at speed");
    CHECK_CLOSE(hs_motor_torque(MO, 100e5, -10.0), i * (2.0 - eta) * k * 100e5, 1e-9 * i * k * 100e5,
                "motor: the loss adds to the torque when driven against its pressure");
    CHECK_CLOSE(hs_motor_torque(MO, -100e5, -10.0), -i * eta * k * 100e5, 1e-9 * i * k * 100e5,
                "motor: reversed");
    CHECK_CLOSE(hs_motor_torque(MO, 100e5, 0.0), i * k * 100e5, 1e-12 * i * k * 100e5, "motor: ideal torque at rest");
    CHECK_CLOSE(hs_motor_torque(MO, 0.0, 10.0), -i * k * (1.0 - eta) * 0.5 * HS_MOTOR_DP_SMOOTH * tanh(40.0),
                1e-12, "motor: the rounded |dp| at dp = 0 is d/2");
    MO[HS_CP_MO_CV] = cv;
    CHECK_CLOSE(hs_motor_torque(MO, 0.0, 0.5) - hs_motor_torque(MO, 0.0, 0.0),
                -i * k * (1.0 - eta) * 0.5 * HS_MOTOR_DP_SMOOTH * tanh(2.0) - i * cv * i * 0.5, 1e-12,
                "motor: the viscous torque c_v i w on the joint");
    for (a = -20; a <= 20; ++a) /* the loss power, (ideal - actual) torque times the joint rate */
        for (b = -20; b <= 20; ++b) {
            dp = a * 13.3e5, zd = b * 0.137;
            if ((i * k * dp - hs_motor_torque(MO, dp, zd)) * zd < -1e-12) ++bad;
        }
    CHECK(bad == 0, "motor: the loss power >= 0 at every dp and speed (%d points broke it)", bad);
    MO[HS_CP_MO_CV] = 0.0; /* C1 at the rounding's end (mo_t: at a joint rate of 0.3 rad/s) */
    CHECK(fabs(mo_t(HS_MOTOR_DP_SMOOTH + 1e-3) - mo_t(HS_MOTOR_DP_SMOOTH - 1e-3) -
               2e-3 * SLOPE(mo_t, HS_MOTOR_DP_SMOOTH, 1e-3)) < 1e-9 * i * k * 2e-3 &&
              fabs(SLOPE(mo_t, HS_MOTOR_DP_SMOOTH + 0.5, 0.4) - SLOPE(mo_t, HS_MOTOR_DP_SMOOTH - 0.5, 0.4)) <
                  2e-5 * i * k,
          "motor: torque continuous with a continuous slope at the rounding's end");
}

static const char *k_closed =
    "name: closed\n"
    "gravity: [0, 0, 0]\nbodies: [{name: b, shape: point, mass: 1 kg, com: [1, 0, 0]}]\n"
    "joints: [{name: j, type: revolute, parent: ground, child: b, axis: [0, 0, 1]}]\n"
    "fluid: {B_oil: 1500 MPa, rho: 850 kg/m^3}\n"
    "signals: [{name: u, knots: [[0 s, 3]]}]\n"
    "hydraulics:\n"
    "  volumes:\n"
    "    - {name: tank, V: 50 L, B: 1500 MPa, p0: 1 bar}\n"
    "    - {name: line, V: 0.2 L, B: 800 MPa, p0: 120 bar}\n"
    "    - {name: a, V: 0.1 L, B: 800 MPa, p0: 40 bar}\n"
    "    - {name: b, V: 0.1 L, B: 800 MPa, p0: 30 bar}\n"
    "    - {name: ls, V: 0.05 L, B: 800 MPa, p0: 35 bar}\n"
    "  throttles: [{name: t, from: a, to: ls, Cv: 1e-8, dp_lim: 2 bar}]\n"
    "  valves: [{name: v, P: line, T: tank, A: a, B: b, Cv: 2e-8, tau: 5 ms, U_ref: u, U0: 3}]\n"
    "  components:\n"
    "    - {name: pump, type: load_sensing_pump, from: tank, to: line, sense: ls, D: 28 cm^3/rev, speed: 1800 rpm,\n"
    "       eta_v: 0.93}\n"
    "    - {name: fixed, type: pump, from: tank, to: b, D: 1 cm^3/rev, speed: 1000 rpm}\n"
    "    - {name: relief, type: relief_valve, from: line, to: tank, p_crack: 110 bar, Q_nom: 60 L/min,\n"
    "       dp_override: 15 bar, tau: 3 ms}\n"
    "    - {name: check, type: check_valve, from: b, to: line, p_crack: 0.5 bar, Cv: 1e-7, leakage: 1e-13}\n"
    "    - {name: acc, type: accumulator, at: line, V0: 1 L, p_pre: 70 bar}\n"
    "    - {name: fcv, type: flow_control_valve, from: line, to: a, Q_set: 10 L/min, dp_comp: 6 bar}\n"
    "integrator: {dt: 1 ms, t_end: 0.1 s}\n";

static const char *k_rated =
    "name: rated\n"
    "gravity: [0, 0, 0]\nbodies: [{name: b, shape: point, mass: 1 kg, com: [1, 0, 0]}]\n"
    "joints: [{name: j, type: revolute, parent: ground, child: b, axis: [0, 0, 1]}]\n"
    "fluid: {B_oil: 1500 MPa, rho: 850 kg/m^3}\n"
    "hydraulics:\n"
    "  sources: [{name: tank, p: 1 bar}]\n"
    "  volumes: [{name: line, V: 1 L, B: 1000 MPa, p0: 200 bar}]\n"
    "  components:\n"
    "    - {name: pump, type: pressure_compensated_pump, from: tank, to: line, D: 20 cm^3/rev, speed: 1500 rpm,\n"
    "       p_set: 210 bar, dp_band: 10 bar, p_max: 250 bar}\n"
    "    - {name: relief, type: relief_valve, from: line, to: tank, p_crack: 230 bar, Q_nom: 40 L/min,\n"
    "       dp_override: 10 bar}\n"
    "    - {name: acc, type: accumulator, at: line, V0: 1 L, p_pre: 120 bar}\n"
    "integrator: {dt: 1 ms, t_end: 0.01 s}\n";

/* Oil is conserved: in a closed circuit (valve ports P and T on volumes, every component
 * between volumes) the volume rates sum to zero, sum_v C_v p'_v = 0 with the capacitance
 * C_v = V_v / B_oil + V_v / B_v + the accumulator's, at random pressures and states. */
static void test_conservation(void)
{
    const hs_model *m;
    hs_hyd o;
    double p[HS_MAX_VOLS], fs[HS_MAX_FS], U[HS_MAX_DCV];
    int r, v, i;
    if (load(k_closed, "closed circuit")) return;
    m = &D.model;
    CHECK(m->ncmp == 6 && m->nfs == 2 && m->cmp_fs0[0] == 0 && m->cmp_fs0[2] == 1 && m->cmp_fs0[1] < 0,
          "two states: the LS pump's swash, the relief's poppet (ncmp %d, nfs %d)", m->ncmp, m->nfs);
    for (r = 0; r < 200; ++r) {
        double sum = 0.0, mag = 0.0;
        memset(&o, 0, sizeof o);
        for (v = 0; v < m->nvol; ++v) p[v] = tu_rand(1e5, 200e5);
        for (i = 0; i < m->nfs; ++i) fs[i] = tu_rand(0.0, 1.0);
        U[0] = tu_rand(-10.0, 10.0);
        hs_hydraulic_rates(m, p, fs, U, &o);
        for (v = 0; v < m->nvol; ++v) {
            double C = m->vol_V[v] / m->B_oil + m->vol_V[v] / m->vol_B[v], vg;
            for (i = 0; i < m->ncmp; ++i)
                if (m->cmp_type[i] == HS_CMP_ACCUMULATOR && m->cmp_a[i] == v)
                    C += hs_accumulator_capacitance(m->cmp_par[i], m->B_oil, p[v], &vg);
            sum += C * o.h[v];
            mag += fabs(C * o.h[v]);
        }
        CHECK(fabs(sum) <= 1e-13 * mag, "closed circuit: sum C p' = %.3g of %.3g (draw %d)", sum, mag, r);
    }
}

static const char *k_discharge =
    "name: discharge\n"
    "gravity: [0, 0, 0]\nbodies: [{name: b, shape: point, mass: 1 kg, com: [1, 0, 0]}]\n"
    "joints: [{name: j, type: revolute, parent: ground, child: b, axis: [0, 0, 1]}]\n"
    "fluid: {B_oil: 1500 MPa, rho: 850 kg/m^3}\n"
    "hydraulics:\n"
    "  sources: [{name: tank, p: 1 bar}]\n"
    "  volumes: [{name: line, V: 0.05 L, B: 1000 MPa, p0: 200 bar}]\n"
    "  throttles: [{name: out, from: line, to: tank, Cv: CV, dp_lim: 2 bar}]\n"
    "  components: [{name: acc, type: accumulator, at: line, V0: 1 L, p_pre: 50 bar, n: 1.4}]\n"
    "integrator: {dt: DT, t_end: TEND, tol_pressure: 1e-3 Pa}\n";

/* The oil that left, integrated from the throttle flow (trapezoidal, the step's own rule),
 * against the gas law: V_g = V_g(p0) + V_out - (the oil's compression), and p V_g^n stays
 * p_pre V0^n. Slow (about 2 s) and fast (about 40 ms) discharges, 200 bar down to 60 bar,
 * each at two steps: the trapezoidal rule on p' = Q / C(p) conserves the oil to O(h^2). */
static void test_accumulator_discharge(void)
{
    static const double cv[2] = {1e-7, 5e-6}, tend[2] = {4.0, 0.1}, dt[2] = {2e-3, 5e-5};
    double errs[4];
    int r, hv;
    for (r = 0; r < 4; ++r) {
        char text[2048], *t;
        hs_state s;
        const hs_model *m;
        double vout = 0.0, q0, worst = 0.0, p0, Vl;
        long k, n;
        snprintf(text, sizeof text, "%s", k_discharge);
        t = strstr(text, "CV");
        {
            char buf[2048];
            snprintf(buf, sizeof buf, "%.*s%g%s", (int)(t - text), text, cv[r / 2], t + 2);
            snprintf(text, sizeof text, "%s", buf);
            t = strstr(text, "DT");
            snprintf(buf, sizeof buf, "%.*s%g%s", (int)(t - text), text, dt[r / 2] / (1 + r % 2), t + 2);
            snprintf(text, sizeof text, "%s", buf);
            t = strstr(text, "TEND");
            snprintf(buf, sizeof buf, "%.*s%g%s", (int)(t - text), text, tend[r / 2], t + 4);
            snprintf(text, sizeof text, "%s", buf);
        }
        if (load(text, "discharge model")) return;
        m = &D.model;
        CHECK(hs_init(m, &s, W) == 0, "init");
        p0 = s.p[0];
        Vl = m->vol_V[0] / m->B_oil + m->vol_V[0] / m->vol_B[0]; /* the line's capacitance */
        q0 = hs_orifice_flow(m->thr_Cv[0], s.p[0] - 1e5, 2e5);
        hv = r % 2;
        n = (long)(tend[r / 2] / m->dt + 0.5);
        for (k = 0; k < n; ++k) {
            double q1, vg0, vgas, oilc, rel;
            if (hs_step(m, &s, W)) break;
            q1 = hs_orifice_flow(m->thr_Cv[0], s.p[0] - 1e5, 2e5);
            vout += 0.5 * m->dt * (q0 + q1);
            q0 = q1;
            if (s.p[0] < 60e5) break;
            /* the oil's own compression between p0 and p: the line's, and that of the oil held
             * in the shell, (V0 - V_g(p)) / B_oil, by composite Simpson (256 intervals) */
            hs_accumulator_capacitance(m->cmp_par[0], m->B_oil, p0, &vg0);
            {
                int j;
                double hp = (p0 - s.p[0]) / 256, sum = 0.0, vgj;
                for (j = 0; j <= 256; ++j) {
                    hs_accumulator_capacitance(m->cmp_par[0], m->B_oil, s.p[0] + j * hp, &vgj);
                    sum += (j == 0 || j == 256 ? 1 : j % 2 ? 4 : 2) * (1e-3 - vgj);
                }
                oilc = Vl * (p0 - s.p[0]) + hp / 3.0 * sum / m->B_oil;
            }
            vgas = vg0 + vout - oilc; /* the gas volume the oil balance gives */
            rel = fabs(s.p[0] * pow(vgas, 1.4) / (50e5 * pow(1e-3, 1.4)) - 1.0);
            if (rel > worst) worst = rel;
        }
        CHECK(s.status == 0 && s.p[0] < 60e5, "%s discharge to 60 bar runs (%ld steps)", r / 2 ? "fast" : "slow", k);
        errs[r] = worst;
        if (hv) {
            double ratio = errs[r - 1] / errs[r];
            CHECK(errs[r] < 2e-5 && ratio > 3.6 && ratio < 4.4,
                  "%s discharge: p V_g^n = p_pre V0^n within %.2e, %.2e at dt, dt/2 (V_g from the oil that left; "
                  "ratio %.2f: the trapezoidal rule's second order)",
                  r / 2 ? "fast" : "slow", errs[r - 1], errs[r], ratio);
            printf("  accumulator %s discharge 200 -> 60 bar: |p V^n / (p_pre V0^n) - 1| <= %.2e, %.2e (dt %g, %g s)\n",
                   r / 2 ? "fast" : "slow", errs[r - 1], errs[r], 2 * m->dt, m->dt);
        }
    }
}

static const char *k_poppet =
    "name: poppet\n"
    "gravity: [0, 0, 0]\nbodies: [{name: b, shape: point, mass: 1 kg, com: [1, 0, 0]}]\n"
    "joints: [{name: j, type: revolute, parent: ground, child: b, axis: [0, 0, 1]}]\n"
    "fluid: {B_oil: 1500 MPa, rho: 850 kg/m^3}\n"
    "hydraulics:\n"
    "  sources: [{name: supply, p: 101 bar}]\n"
    "  volumes: [{name: tank, V: 1e6 m^3, B: 1500 MPa, p0: 1 bar}]\n"
    "  components:\n"
    "    - {name: relief, type: relief_valve, from: supply, to: tank, p_crack: 80 bar, Q_nom: 10 L/min,\n"
    "       dp_override: 10 bar, dp_smooth: 1 bar, tau: 10 ms}\n"
    "integrator: {dt: 1 ms, t_end: 0.05 s, tol_friction: 1e-12}\n";

/* The poppet's step response: opened from 0 with the pressure drop held (the downstream
 * volume is large), x(t) = x_ss (1 - exp(-t/tau)); the trapezoidal rule's error falls as dt^2. */
static void test_poppet(void)
{
    double err[2];
    int r;
    if (load(k_poppet, "poppet model")) return;
    for (r = 0; r < 2; ++r) {
        hs_model m = D.model;
        hs_state s;
        double xss, e = 0.0;
        int k, kf;
        m.dt = r ? 5e-4 : 1e-3;
        CHECK(hs_init(&m, &s, W) == 0, "init");
        xss = s.fs[0];
        CHECK_CLOSE(xss, (100e5 - 80e5 - 0.5e5) / 10e5, 1e-12, "poppet starts at rest: x_ss = (dp - p_crack - d/2) / override");
        s.fs[0] = 0.0; /* the step: closed at t = 0 */
        CHECK(hs_consistent_rates(&m, &s, W, 0.0) == 0, "rates");
        kf = (int)(0.05 / m.dt + 0.5);
        for (k = 0; k < kf; ++k) {
            double x;
            CHECK(hs_step(&m, &s, W) == 0, "step");
            x = xss * (1.0 - exp(-s.t / 0.01));
            if (fabs(s.fs[0] - x) > e) e = fabs(s.fs[0] - x);
        }
        err[r] = e / xss;
    }
    printf("  relief poppet step response: max error %.3e, %.3e of x_ss at dt 1, 0.5 ms\n", err[0], err[1]);
    CHECK(err[0] < 1e-3 && err[0] / err[1] > 3.8 && err[0] / err[1] < 4.2,
          "poppet step response: errors %.3e, %.3e of x_ss (ratio %.2f, second order)", err[0], err[1],
          err[0] / err[1]);
}

static const char *k_motor =
    "name: motor_balance\n"
    "gravity: [0, 0, -9.81]\n"
    "bodies: [{name: drum, shape: custom, mass: 10 kg, com: [0, 0, 0], inertia: [1, 1, 2, 0, 0, 0]}]\n"
    "joints: [{name: j, type: revolute, parent: ground, child: drum, axis: [0, 0, 1]}]\n"
    "loads: [{name: brake, body: drum, torque: [0, 0, -400]}]\n"
    "fluid: {B_oil: 1500 MPa, rho: 850 kg/m^3}\n"
    "hydraulics:\n"
    "  sources: [{name: tank, p: 1 bar}]\n"
    "  volumes: [{name: line, V: 1 L, B: 1500 MPa, p0: 1 bar}]\n"
    "  components:\n"
    "    - {name: pump, type: pump, from: tank, to: line, D: 10 cm^3/rev, speed: 1500 rpm}\n"
    "    - {name: motor, type: motor, from: line, to: tank, joint: drum, D: 100 cm^3/rev, ratio: 4,\n"
    "       eta_hm: 0.9, leakage: 1e-12, omega_s: 1 rad/s, damping: 2 N m s/rad}\n"
    "integrator: {dt: 1 ms, t_end: 4 s, tol_pressure: 1e-3 Pa, tol_position: 1e-12}\n";

/* A motor's torque-speed balance: fed a constant flow Q_p by a pump and braked by a constant
 * torque T_L on its joint, it settles where (shaft speed w = i zdot, far above omega_s: tanh = 1)
 *   Q_p = D w / (2 pi) + G dp,        T_L / i = D eta_hm dp / (2 pi) - c_v w,
 * two linear equations; the energy balance E_kin + E_pot - W_ext - W_motors closes on the way. */
static void test_motor_balance(void)
{
    double Dm = 100e-6, i = 4.0, eta = 0.9, G = 1e-12, cv = 2.0, TL = 400.0, Qp = 10e-6 * 1500.0 / 60.0;
    double k = Dm / (2.0 * HS_PI), w, dp, E0 = 0.0, ebmax = 0.0, Wmax = 0.0;
    hs_state s;
    hs_obs o;
    int n;
    /* w = (Q_p - G dp) / k, dp = (T_L / i + c_v w) / (k eta) */
    dp = (TL / i + cv * Qp / k) / (k * eta + cv * G / k);
    w = (Qp - G * dp) / k;
    if (load(k_motor, "motor model")) return;
    CHECK(hs_init(&D.model, &s, W) == 0, "motor: init");
    for (n = 0; n < 4000 && !hs_step(&D.model, &s, W); ++n) {
        double eb;
        hs_observe(&D.model, &s, W, &o);
        if (n == 0) E0 = o.Ekin + o.Epot - s.W_ext - o.W_cyl;
        eb = o.Ekin + o.Epot - s.W_ext - o.W_cyl - E0;
        if (fabs(eb) > ebmax) ebmax = fabs(eb);
        if (fabs(s.W_ext) > Wmax) Wmax = fabs(s.W_ext);
    }
    CHECK(s.status == 0 && n == 4000, "motor: runs 4 s");
    CHECK_CLOSE(s.zd[0], w / i, 1e-9 * w / i, "motor: joint speed Q_p (2 pi) / (D i) less the leakage");
    CHECK_CLOSE(s.p[0] - 1e5, dp, 1e-9 * dp, "motor: pressure drop (T_L / i + c_v w) 2 pi / (D eta_hm)");
    CHECK(ebmax < 1e-5 * Wmax, "motor: the energy balance closes (max %.3e J of the brake's %.3e J)", ebmax, Wmax);
    printf("  motor balance: %.9f rad/s at %.6f bar (closed form %.9f, %.6f); |E_balance| <= %.2e J of %.3e J\n",
           s.zd[0], (s.p[0] - 1e5) / 1e5, w / i, dp / 1e5, ebmax, Wmax);
}

/* Flow sharing (tests/data/crane_ls2.yaml at 1.0 s, both sections open at 6 V, the two
 * cylinders' loads 26 and 9 bar apart): each piston moves at C_v U sqrt(dp_comp) / A_p,
 * whatever its load, to 0.1 % (what the chambers' compression takes as the loads change with
 * the angles); without compensators (dp_comp = 0) the lighter load runs faster. The
 * pump line stays at least dp_margin above the higher load pressure. */
static void test_flow_sharing(void)
{
    double Ap = 0.25 * HS_PI * 0.08 * 0.08, v = 1.069e-8 * 6.0 * sqrt(10e5) / Ap, sd[2][2];
    int r, k, n;
    for (r = 0; r < 2; ++r) {
        hs_state s;
        hs_model_desc_free(&D);
        if (tu_load_model("tests/data/crane_ls2.yaml", &D)) return;
        if (r) D.model.dcv_dpcomp[0] = D.model.dcv_dpcomp[1] = 0.0;
        CHECK(hs_init(&D.model, &s, W) == 0, "crane_ls2: init");
        for (n = 0; n < 1000 && !hs_step(&D.model, &s, W); ++n)
            ;
        CHECK(s.status == 0 && n == 1000, "crane_ls2 runs to 1 s");
        for (k = 0; k < 2; ++k) sd[r][k] = W->hyd.sd[k];
        if (!r) {
            CHECK(s.p[0] > s.p[1] + 20e5, "LS: the pump line %.2f bar at least the margin above the higher load %.2f bar",
                  s.p[0] / 1e5, s.p[1] / 1e5);
            CHECK(s.p[1] - s.p[4] > 15e5, "LS: the loads differ (%.2f, %.2f bar)", s.p[1] / 1e5, s.p[4] / 1e5);
        }
    }
    CHECK_CLOSE(sd[0][0], v, 1e-3 * v, "flow sharing: the heavier load's piston at C_v U sqrt(dp_comp) / A_p");
    CHECK_CLOSE(sd[0][1], v, 1e-3 * v, "flow sharing: the lighter load's piston at the same speed");
    CHECK(sd[1][1] > 1.2 * sd[1][0], "without compensators the lighter load runs faster (%.5f against %.5f m/s)",
          sd[1][1], sd[1][0]);
    printf("  flow sharing: pistons at %.6f, %.6f m/s (C_v U sqrt(dp_comp) / A_p = %.6f); uncompensated %.5f, %.5f\n",
           sd[0][0], sd[0][1], v, sd[1][0], sd[1][1]);
}

/* A hose (tests/data/hose_line.yaml: 4 m of 10 mm bore in 4 segments, 1 bar across it): at
 * rest its oil flows at Hagen-Poiseuille's v = dp d^2 / (32 rho nu L) in every segment, its
 * internal pressures on the straight line between its ends, and stays there; its law's
 * pieces against their closed forms; and the line conserves oil (the inflows of a hose
 * between two volumes sum to zero, whatever the state). */
static void test_hose(void)
{
    hs_state s;
    const double *par;
    double v, qin[HS_MAX_VOLS], Cacc[HS_MAX_VOLS], fs[HS_MAX_FS], fsd[HS_MAX_FS], p[HS_MAX_VOLS], sum, Ctot;
    int n, k;
    hs_model_desc_free(&D);
    if (tu_load_model("tests/data/hose_line.yaml", &D)) return;
    par = D.model.cmp_par[0];
    CHECK(D.model.nvol == 3 && D.model.nfs == 4 && D.model.cmp_dyn[0] == 4 && D.model.cmp_ref[0] == 0,
          "hose_line: 3 internal volumes, 4 velocities (nvol %d, nfs %d)", D.model.nvol, D.model.nfs);
    CHECK(!strcmp(D.vol_name[0], "line_1") && !strcmp(D.vol_name[2], "line_3"), "internal volumes line_1 .. line_3");
    CHECK_CLOSE(D.model.vol_V[1], 0.25 * HS_PI * 1e-4 * 1.0, 1e-18, "an internal volume holds a segment's oil, A l");
    CHECK_CLOSE(hs_hose_wave_speed(par, 1.5e9, 850.0), sqrt(6e8 / 850.0), 1e-9, "wave speed sqrt(Be / rho)");
    CHECK_CLOSE(hs_hose_accel(par, 850.0, 2.5e4, 0.0), 2.5e4 / 850.0, 1e-9, "rho l v' = dp at rest (l = 1 m)");
    CHECK_CLOSE(hs_hose_accel(par, 850.0, 0.0, 2.0), -32.0 * 46e-6 / 1e-4 * 2.0, 1e-12,
                "v' = -32 nu v / d^2 without a drop (laminar friction)");
    CHECK(hs_init(&D.model, &s, W) == 0, "hose_line: init");
    v = 1e5 * 1e-4 / (32.0 * 850.0 * 46e-6 * 4.0);
    for (k = 0; k < 4; ++k)
        CHECK(fabs(s.fs[k] - v) <= 1e-12 * v, "segment %d at Hagen-Poiseuille's %.6f m/s (%.12f)", k, v, s.fs[k]);
    for (k = 0; k < 3; ++k)
        CHECK(fabs(s.p[k] - (10.1e6 - 0.1e6 * (k + 1) / 4.0)) <= 1e-6, "internal pressure %d on the line", k);
    for (n = 0; n < 500 && !hs_step(&D.model, &s, W); ++n)
        ;
    CHECK(s.status == 0 && n == 500, "hose_line runs 50 ms");
    for (k = 0; k < 4; ++k)
        CHECK(fabs(s.fs[k] - v) <= 1e-9 * v, "segment %d still at %.6f m/s after 50 ms (%.12f)", k, v, s.fs[k]);
    CHECK_CLOSE(s.p[1], 10.05e6, 1e-3, "the middle stays at 100.5 bar");
    /* oil conserved: between two volumes (the hose of crane_hose.yaml), any state */
    hs_model_desc_free(&D);
    if (tu_load_model("tests/data/crane_hose.yaml", &D)) return;
    for (k = 0; k < HS_MAX_VOLS; ++k) p[k] = 3e6 + 2e5 * k * k, qin[k] = Cacc[k] = 0.0;
    for (k = 0; k < HS_MAX_FS; ++k) fs[k] = 0.7 - 0.3 * k, fsd[k] = 0.0;
    hs_hose_flows(&D.model, 2, p, fs, qin, fsd);
    D.model.cmp_type[3] = HS_CMP_CHECK; /* the accumulator out of the way: the hose's share alone */
    hs_component_capacitance(&D.model, p, Cacc);
    for (k = 0, sum = 0.0, Ctot = 0.0; k < D.model.nvol; ++k) sum += qin[k], Ctot += Cacc[k];
    CHECK(fabs(sum) < 1e-18, "the hose's inflows sum to %.3g m^3/s", sum);
    CHECK_CLOSE(Ctot, hs_hose_seg_capacitance(D.model.cmp_par[2], 1.5e9), 1e-25,
                "its ends hold half a segment's capacitance each");
}

/* The energy audit (kernels/hs_energy.h) at a state against the engine's own rates: the
 * power stored, sum p C p' over the lumped volumes (C and p' as hs_hydraulic_rates has them)
 * plus the hoses' oil's kinetic energy rate, equals the audit's, and what it takes in less what
 * it loses and stores is the actuators' power sum F sdot + T zdot: every element's flow enters
 * the audit as it enters the volumes, every component's loss is counted. At 0.7 s of each
 * model (valves open, pumps regulating, the hose ringing, the motor turning). */
static void test_audit_rates(void)
{
    static const char *const files[] = {"models/crane_pump_relief.yaml", "tests/data/crane_ls.yaml",
                                        "tests/data/crane_fcv.yaml",      "models/excavator_front.yaml",
                                        "tests/data/slew_motor.yaml",     "tests/data/crane_ls2.yaml",
                                        "tests/data/crane_hose.yaml",     "tests/data/hose_line.yaml"};
    int f;
    for (f = 0; f < (int)(sizeof files / sizeof files[0]); ++f) {
        hs_state s;
        const hs_model *m;
        double P[HS_NPW], Vch[HS_MAX_VOLS], Cacc[HS_MAX_VOLS], store = 0.0, act = 0.0;
        int k, c, n;
        hs_model_desc_free(&D);
        if (tu_load_model(files[f], &D)) continue;
        m = &D.model;
        CHECK(hs_init(m, &s, W) == 0, "%s: init", files[f]);
        for (n = 0; n < (int)lround(0.7 / m->dt) && !hs_step(m, &s, W); ++n)
            ;
        hs_hydraulic_rates(m, s.p, s.fs, s.U, &W->hyd); /* at exactly this state */
        hs_hydraulic_power(m, s.p, s.fs, s.U, &W->hyd, P, NULL);
        for (k = 0; k < HS_MAX_VOLS; ++k) Vch[k] = Cacc[k] = 0.0;
        for (c = 0; c < m->ncyl; ++c) {
            Vch[m->cyl_vol_p[c]] = m->cyl_Ap[c] * W->hyd.lp[c];
            Vch[m->cyl_vol_r[c]] = m->cyl_Ar[c] * W->hyd.lr[c];
            act += W->hyd.F[c] * W->hyd.sd[c];
        }
        act += hs_motor_power(m, &W->hyd);
        hs_component_capacitance(m, s.p, Cacc);
        for (k = 0; k < m->nvol; ++k) store += s.p[k] * hs_volume_capacitance(m, k, s.p[k], Vch[k], Cacc[k]) * W->hyd.h[k];
        for (c = 0; c < m->ncmp; ++c)
            if (m->cmp_type[c] == HS_CMP_HOSE)
                for (k = 0; k < m->cmp_dyn[c]; ++k)
                    store += m->rho * hs_hose_area(m->cmp_par[c]) * m->cmp_par[c][HS_CP_HO_L] / m->cmp_dyn[c] *
                             s.fs[m->cmp_fs0[c] + k] * W->hyd.fsd[m->cmp_fs0[c] + k];
        CHECK(fabs(store - P[HS_PW_STORE]) <= 1e-9 * (fabs(P[HS_PW_IN]) + fabs(P[HS_PW_LOSS])),
              "%s: stored power %.9g W from the engine's rates, %.9g W from the audit's flows", files[f], store,
              P[HS_PW_STORE]);
        CHECK(fabs(P[HS_PW_IN] - P[HS_PW_LOSS] - P[HS_PW_STORE] - act) <= 1e-12 * (fabs(P[HS_PW_IN]) + fabs(P[HS_PW_LOSS])),
              "%s: in %.6g W - lost %.6g W - stored %.6g W = the actuators' %.6g W", files[f], P[HS_PW_IN],
              P[HS_PW_LOSS], P[HS_PW_STORE], act);
        CHECK(P[HS_PW_LOSS] > 0.0, "%s: the elements dissipate (%.6g W)", files[f], P[HS_PW_LOSS]);
    }
}

/* The audit in closed form: a 1 L line charged from 10 to about 100 bar from a 100 bar source
 * through a check valve stores C (p^2 - p0^2) / 2 (C = V (1/B_oil + 1/B)), takes in the source's
 * p_s C (p - p0), and loses the difference in the valve. With a 0.5 L accumulator (precharge
 * 20 bar, n = 1.4) on the line, charged through its precharge (the bladder lifting over
 * HS_ACC_SMOOTH), the line's capacitance is C + C_acc(p) (hs_accumulator_capacitance): the
 * fluid stores the integral of p (C + C_acc) dp and the source delivers p_s times the integral
 * of C + C_acc, both by Simpson's rule here (split where C_acc's slope jumps). */
static const char *k_charge =
    "name: charge\n"
    "gravity: [0, 0, 0]\nbodies: [{name: b, shape: point, mass: 1 kg, com: [1, 0, 0]}]\n"
    "joints: [{name: j, type: revolute, parent: ground, child: b, axis: [0, 0, 1]}]\n"
    "fluid: {B_oil: 1500 MPa, rho: 850 kg/m^3}\n"
    "hydraulics:\n"
    "  sources: [{name: supply, p: 100 bar}]\n"
    "  volumes: [{name: line, V: 1 L, B: 1000 MPa, p0: 10 bar}]\n"
    "  components:\n"
    "    - {name: check, type: check_valve, from: supply, to: line, Cv: 2e-8, dp_open: 2 bar}\n"
    "ACC"
    "integrator: {dt: 0.1 ms, t_end: 1 s}\n";

/* The line's capacitance at p, with the accumulator of k_charge when acc. */
static double charge_C(double p, int acc)
{
    double vg, C = 1e-3 * (1.0 / 1.5e9 + 1.0 / 1e9);
    return C + (acc ? hs_accumulator_capacitance(D.model.cmp_par[1], 1.5e9, p, &vg) : 0.0);
}

/* Simpson's rule of p^k (C + C_acc) over [a, b]. */
static double charge_int(double a, double b, int k, int acc)
{
    int i, ns = 2000;
    double h = (b - a) / ns, sum = 0.0;
    if (!(b > a)) return 0.0;
    for (i = 0; i <= ns; ++i) {
        double p = a + i * h;
        sum += (i == 0 || i == ns ? 1.0 : i % 2 ? 4.0 : 2.0) * (k ? p : 1.0) * charge_C(p, acc);
    }
    return sum * h / 3.0;
}

static void test_audit_closed_form(void)
{
    int r;
    for (r = 0; r < 2; ++r) {
        char text[2048], *t;
        const char *acc = r ? "    - {name: acc, type: accumulator, at: line, V0: 0.5 L, p_pre: 20 bar, n: 1.4}\n" : "";
        double p0 = 10e5, p, want = 0.0, win = 0.0, cut[4];
        hs_state s;
        int k;
        snprintf(text, sizeof text, "%s", k_charge);
        t = strstr(text, "ACC");
        memmove(t + strlen(acc), t + 3, strlen(t + 3) + 1);
        memcpy(t, acc, strlen(acc));
        if (load(text, "charge model")) return;
        CHECK(hs_init(&D.model, &s, W) == 0, "charge: init");
        for (k = 0; k < 10000 && !hs_step(&D.model, &s, W); ++k)
            ;
        CHECK(s.status == 0 && k == 10000, "charge%s runs 1 s (status %d)", r ? " through the precharge" : "", s.status);
        p = s.p[0];
        cut[0] = p0, cut[1] = 20e5 - 0.5 * HS_ACC_SMOOTH, cut[2] = 20e5 + 0.5 * HS_ACC_SMOOTH, cut[3] = p;
        for (k = 0; k < 3; ++k) {
            want += charge_int(cut[k], cut[k + 1], 1, r);
            win += 100e5 * charge_int(cut[k], cut[k + 1], 0, r);
        }
        CHECK(fabs(s.W_hyd[HS_PW_STORE] - want) <= 1e-4 * want, "charge%s: E_fluid %.9g J, closed form %.9g J",
              r ? " with an accumulator" : "", s.W_hyd[HS_PW_STORE], want);
        CHECK(fabs(s.W_hyd[HS_PW_IN] - win) <= 1e-4 * win, "charge%s: W_in %.9g J, the source's p_s V_in %.9g J",
              r ? " with an accumulator" : "", s.W_hyd[HS_PW_IN], win);
        CHECK(fabs(s.W_hyd[HS_PW_IN] - s.W_hyd[HS_PW_LOSS] - s.W_hyd[HS_PW_STORE]) <= 1e-9 * win,
              "charge: W_in = W_loss + E_fluid");
        printf("  charge%s to %.4f bar: E_fluid %.6g J (closed form %.6g), W_in %.6g J (%.6g), W_loss %.6g J\n",
               r ? " with an accumulator" : "", p / 1e5, s.W_hyd[HS_PW_STORE], want, s.W_hyd[HS_PW_IN], win,
               s.W_hyd[HS_PW_LOSS]);
    }
}

static const char *k_deadhead =
    "name: deadhead\n"
    "gravity: [0, 0, 0]\nbodies: [{name: b, shape: point, mass: 1 kg, com: [1, 0, 0]}]\n"
    "joints: [{name: j, type: revolute, parent: ground, child: b, axis: [0, 0, 1]}]\n"
    "fluid: {B_oil: 1500 MPa, rho: 850 kg/m^3}\n"
    "hydraulics:\n"
    "  sources: [{name: tank, p: 1 bar}, {name: load, p: 80 bar}]\n"
    "  volumes: [{name: line, V: 1 L, B: 1000 MPa, p0: 50 bar}]\n"
    "  components:\n"
    "    - {name: pump, type: TYPE, from: tank, to: line, D: 18 cm^3/rev, speed: 1500 rpm, eta_v: 0.92,\n"
    "       dp_rated: 250 bar, EXTRA, tau: 20 ms}\n"
    "integrator: {dt: 1 ms, t_end: 1 s}\n";

/* A pump dead-headed into a closed line settles where its stroke's flow equals its own
 * leakage: eps_ss(p) D n / (2 pi) = C_l (p - p_tank), solved here by bisection; for load
 * sensing, p_ref = p_load + dp_margin. */
static void test_pump_deadhead(void)
{
    int r;
    for (r = 0; r < 2; ++r) {
        char text[2048], buf[2048], *t;
        const char *type = r ? "load_sensing_pump" : "pressure_compensated_pump";
        const char *extra = r ? "sense: load, dp_margin: 20 bar" : "p_set: 180 bar, dp_band: 8 bar";
        double pref = r ? 100e5 : 180e5, lo = 1e5, hi = 300e5, *par;
        hs_state s;
        int k;
        snprintf(text, sizeof text, "%s", k_deadhead);
        t = strstr(text, "TYPE");
        snprintf(buf, sizeof buf, "%.*s%s%s", (int)(t - text), text, type, t + 4);
        t = strstr(buf, "EXTRA");
        snprintf(text, sizeof text, "%.*s%s%s", (int)(t - buf), buf, extra, t + 5);
        if (load(text, "dead-head model")) return;
        par = D.model.cmp_par[0];
        for (k = 0; k < 200; ++k) { /* eps_ss(p) Qg - C_l (p - p_tank) = 0 */
            double pm = 0.5 * (lo + hi);
            if (hs_pump_flow(par, hs_pump_eps_ss(par, pm, pref), pm - 1e5) > 0.0)
                lo = pm;
            else
                hi = pm;
        }
        CHECK(hs_init(&D.model, &s, W) == 0, "init");
        for (k = 0; k < 1000 && !hs_step(&D.model, &s, W); ++k)
            ;
        CHECK(s.status == 0, "%s runs", type);
        CHECK_CLOSE(s.p[0], lo, 1.0, type);
        printf("  %s dead-headed: %.6f bar (closed form %.6f bar), stroke %.5f\n", type, s.p[0] / 1e5, lo / 1e5,
               s.fs[0]);
    }
}

/* One drawn value: component i's slot set to v in a copy of the loaded model; valid or not,
 * as want_ok says. */
static void drawn(int i, int slot, double v, int want_ok, const char *what)
{
    hs_model m = D.model;
    m.cmp_par[i][slot] = v;
    CHECK(hs_model_values_ok(&m) == want_ok, "%s: %s", what, want_ok ? "valid" : "invalid");
}

/* A drawn value (a sweep's, per instance) meets the same rules as a model file's: the instance
 * is invalid otherwise (hs_model_values_ok), and a relief poppet's tau stays > 0. */
static void test_drawn_rules(void)
{
    if (load(k_closed, "closed circuit")) return;
    CHECK(hs_model_values_ok(&D.model), "the model's own values are valid");
    drawn(1, HS_CP_PU_ETAV, 1.1, 0, "eta_v 1.1");
    drawn(2, HS_CP_RV_DPS, 2.0 * D.model.cmp_par[2][HS_CP_RV_DPOV], 0, "dp_smooth above dp_override");
    drawn(2, HS_CP_RV_TAU, 0.0, 0, "a poppet's tau drawn 0 (the layout keeps its state)");
    drawn(4, HS_CP_AC_N, 2.5, 0, "polytropic index 2.5");
    drawn(0, HS_CP_PU_TAU, 0.2, 1, "a swash plate's tau 0.2 s");
    drawn(5, HS_CP_FC_DPLIM, D.model.cmp_par[5][HS_CP_FC_DPC], 0, "a flow control valve's dp_lim drawn at dp_comp");
    drawn(5, HS_CP_FC_QSET, 0.0, 0, "Q_set drawn 0");
    /* the rules between components, as a model file's (model_validate.c): a relief valve
     * cracking above the guarded pump's p_max, a cut-off band beyond p_max, a precharge at or
     * above the circuit's highest pressure */
    if (load(k_rated, "rated circuit")) return;
    CHECK(hs_model_values_ok(&D.model), "rated circuit: its own values are valid");
    drawn(1, HS_CP_RV_PCR, 260e5, 0, "relief drawn to crack above the pump's p_max");
    drawn(0, HS_CP_PU_PREF, 245e5, 0, "cut-off + band drawn above p_max");
    drawn(2, HS_CP_AC_PPRE, 400e5, 0, "precharge drawn above the circuit's highest pressure");
    drawn(2, HS_CP_AC_PPRE, 150e5, 1, "precharge drawn to 150 bar");
}

typedef struct {
    double pin, pout;
} droop_probe;

static int on_droop(void *ctx, const hs_model *m, const hs_state *s, const hs_obs *o, double E)
{
    droop_probe *q = (droop_probe *)ctx;
    int i;
    (void)o;
    (void)E;
    for (i = 0; i < m->ncmp; ++i)
        if (m->cmp_type[i] == HS_CMP_PUMP) {
            q->pin = hs_node_p(m, s->p, m->cmp_a[i]);
            q->pout = hs_node_p(m, s->p, m->cmp_b[i]);
        }
    return 0;
}

/* A pump whose prime mover droops (models/crane_pump_relief.yaml's, droop 0.08 at p_max 10
 * MPa): its shaft power at the end is its torque D dp / (2 pi eta_hm) times its drooped speed
 * n (1 - droop dp / p_max), the energy audit closes, and its line's pressure settles where the
 * relief valve passes the smaller flow (below the undrooped run's). */
static void test_pump_droop(void)
{
    static hs_model_desc d;
    hs_sim_summary sum;
    droop_probe q;
    double p_end0, dp, P_expect, *par;
    int i, ip = -1;
    if (tu_load_model("models/crane_pump_relief.yaml", &d)) return;
    for (i = 0; i < d.model.ncmp; ++i)
        if (d.model.cmp_type[i] == HS_CMP_PUMP) ip = i;
    CHECK(ip >= 0, "droop: the model's pump");
    if (ip < 0) return;
    par = d.model.cmp_par[ip];
    CHECK(hs_simulate(&d.model, on_droop, &q, &sum) == 0, "droop: the undrooped run");
    p_end0 = q.pout;
    par[HS_CP_PU_DROOP] = 0.08, par[HS_CP_PU_PMAX] = 10e6;
    CHECK(hs_simulate(&d.model, on_droop, &q, &sum) == 0, "droop: the drooped run");
    dp = q.pout - q.pin;
    /* its shaft, and the tank (a source) delivering its inflow at the tank's pressure */
    P_expect = par[HS_CP_PU_D] * dp / (2.0 * HS_PI * par[HS_CP_PU_ETAHM]) * par[HS_CP_PU_N] * (1.0 - 0.08 * dp / 10e6) +
               q.pin * hs_pump_flow(par, 1.0, dp);
    i = d.model.nthr + d.model.ndcv + ip;
    CHECK(fabs(sum.P_el[i * HS_NPW + HS_PW_IN] - P_expect) < 1e-9 * P_expect,
          "droop: power in %.6g W = torque x drooped speed + p_tank Q, %.6g W", sum.P_el[i * HS_NPW + HS_PW_IN], P_expect);
    CHECK(sum.max_abs_audit < 1e-6, "droop: the audit closes (%.2e J)", sum.max_abs_audit);
    CHECK(q.pout < p_end0 && q.pout > p_end0 - 3e5, "droop: the relief's line %.4f MPa, below the undrooped %.4f MPa",
          q.pout / 1e6, p_end0 / 1e6);
    hs_model_desc_free(&d);
}

int main(void)
{
    W = (hs_work *)calloc(1, sizeof *W);
    memset(&D, 0, sizeof D);
    test_laws();
    test_motor_laws();
    test_ls_laws();
    test_flow_sharing();
    test_motor_balance();
    test_conservation();
    test_drawn_rules();
    test_accumulator_discharge();
    test_poppet();
    test_pump_deadhead();
    test_hose();
    test_audit_rates();
    test_audit_closed_form();
    test_pump_droop();
    hs_model_desc_free(&D);
    free(W);
    return tu_report("test_components");
}
