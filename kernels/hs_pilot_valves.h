/* hs_pilot_valves.h -- the valves whose opening is set by a pressure other than the drop
 * across them: counterbalance (over-centre) and pilot-operated check valves that hold a load,
 * pressure-reducing and sequence valves, and the shuttle valve that selects the higher of two
 * pressures (the load-sensing signal of many sections). Entries of the components table
 * (hs_components.h: their parameters in HS_PILOT_VALVE_PARAMS_, their pilot node or second
 * input in hs_model.cmp_ref); the laws below are each valve's static characteristic in the
 * catalogue form, the pilot flow neglected (docs/model-format.md, "Pilot-operated valves").
 *
 * A spool's opening x follows a force balance on it in pressure units of its main area: the
 * spring preload is the setting, and the balance's excess u over a stated band dp_open opens
 * it from 0 to 1 (hs_valve_open01; Merritt, Hydraulic Control Systems, 1967, ch. 3 on the
 * static characteristics of spool and poppet valves; Watton, Fundamentals of Fluid Power
 * Control, 2009, ch. 5 on pressure control valves). Open, the valve is an orifice Cv x with the
 * project's laminar band (seed 000 eqs. 24, 26). With a time constant tau > 0 the opening lags
 * its static value, x' = (x_ss - x) / tau (the spool's first-order dynamics, its mass
 * neglected, as the relief valve's poppet): the state that a counterbalance valve's
 * instability needs.
 *
 *  - counterbalance valve (from: the load port, to: the valve port, pilot: the opposite line).
 *    Load pressure on the load area, pilot pressure on ratio times it, the spring chamber's
 *    pressure p_d on (1 + ratio) times it (drained to the valve port, p_d = p_valve, or vented
 *    to atmosphere, p_d = HS_P_ATM):
 *      u = ((p_load - p_d) + R (p_pilot - p_d) - p_set) / dp_open,
 *    so the valve opens at the catalogue's pilot pressure (p_set - p_load) / R (gauge, the
 *    valve port at the drain's pressure) and holds any load below p_set unpiloted. The bypass check valve
 *    passes free flow valve -> load from p_check on (opening over HS_CHECK_BAND, C1).
 *  - pilot-operated check valve (from: the valve side, to: the load). Free flow from -> to as a
 *    check valve cracking at p_crack; reverse flow once the pilot piston (ratio R times the
 *    seat area, its back at the inlet pressure) lifts the poppet against the load:
 *      u_pilot = (R (p_pilot - p_from) - (p_to - p_from) - p_crack) / dp_open,
 *    the catalogue's pilot pressure p_from + (p_to - p_from + p_crack) / R. A decompression
 *    poppet (ratio_dec > R, its orifice Cv_dec) opens first at the lower pilot pressure: the
 *    load is relieved before the main poppet lifts. Both openings along 3u^2 - 2u^3; the main
 *    poppet's x = x_f + x_p - x_f x_p (open when either opens it).
 *  - pressure-reducing valve (2-way, direct, normally open; from: the supply, to: the reduced
 *    line): u = (p_set - p_to) / dp_band, closed at p_to >= p_set (p_to gauge).
 *  - sequence valve (from: primary, to: secondary, pilot: from unless given): u = (p_pilot -
 *    p_set) / dp_open (p_pilot gauge), the primary held near p_set while the secondary takes
 *    flow (its spring chamber drained apart: p_to does not act); an optional reverse check
 *    (Cv_check > 0).
 *  - shuttle valve (inputs a and cmp_ref, out: to): the ball's position s = 3v^2 - 2v^3 of
 *    v = (p_a - p_ref) / dp_switch + 1/2 (at equal inputs both seats half open), flows
 *    s Cv o(p_a - p_to) and (1 - s) Cv o(p_ref - p_to) into the output, either way: the
 *    output drains back to the higher input when that falls. */
#ifndef HS_PILOT_VALVES_H
#define HS_PILOT_VALVES_H

#include "hs_components.h"

/* The band, Pa, over which a counterbalance or sequence valve's bypass check opens beyond
 * its cracking pressure. */
#define HS_CHECK_BAND 1e5

/* Is type one of this header's valves? */
HS_HD static inline int hs_cmp_is_pilot_valve(int type)
{
    return type == HS_CMP_COUNTERBALANCE || type == HS_CMP_PILOT_CHECK || type == HS_CMP_REDUCING ||
           type == HS_CMP_SEQUENCE || type == HS_CMP_SHUTTLE;
}

/* A spool's opening from its balance u (0 at the setting, 1 at dp_open beyond it): 0 for
 * u <= 0 (closed at and below the setting: a load is held), u - 0.05 from 0.1 to 1, 1 from
 * 1.1; the corners rounded over 0.1 (C1: Newton's tangent is continuous). */
HS_HD static inline hs_real hs_valve_open01(hs_real u)
{
    return hs_cmp_clamp01(u - 0.05, 0.1);
}

/* A bypass check's flow from its inlet at drop dp (>= its cracking pc): the check valve's law
 * without leakage, opening over HS_CHECK_BAND. */
HS_HD static inline hs_real hs_bypass_check(double Cv, double pc, double dplim, hs_real dp)
{
    if (!(Cv > 0.0)) return 0.0 * dp;
    return hs_cmp_step01((dp - pc) / HS_CHECK_BAND) * hs_orifice_flow(Cv, dp, dplim);
}

/* Counterbalance valve: the static opening at load, valve and pilot pressures (absolute). The
 * spring chamber's pressure p_d is the valve port's, or the atmosphere's when vented. */
HS_HD static inline hs_real hs_cbv_opening(const double *par, hs_real pl, hs_real pv, hs_real px)
{
    double R = par[HS_CP_CB_RATIO], ve = par[HS_CP_CB_VENT];
    hs_real pd = (1.0 - ve) * pv + ve * HS_P_ATM;
    return hs_valve_open01((pl - pd + R * (px - pd) - par[HS_CP_CB_PSET]) / par[HS_CP_CB_DPO]);
}

/* The pilot pressure (absolute) that starts to open a counterbalance valve at load pressure
 * pl and valve-port pressure pv: p_d + (p_set - (p_load - p_d)) / R, the catalogue's
 * (p_set - p_load) / R in gauge pressures with the valve port at the drain's pressure. */
HS_HD static inline double hs_cbv_pilot_to_open(const double *par, double pl, double pv)
{
    double R = par[HS_CP_CB_RATIO], ve = par[HS_CP_CB_VENT], pd = (1.0 - ve) * pv + ve * HS_P_ATM;
    return pd + (par[HS_CP_CB_PSET] - (pl - pd)) / R;
}

/* Counterbalance valve: flow load -> valve port at spool opening x (static or its state). */
HS_HD static inline hs_real hs_cbv_flow(const double *par, hs_real x, hs_real pl, hs_real pv)
{
    hs_real dp = pl - pv;
    return hs_orifice_flow(par[HS_CP_CB_CV] * x, dp, par[HS_CP_CB_DPLIM]) -
           hs_bypass_check(par[HS_CP_CB_CVCK], par[HS_CP_CB_PCK], par[HS_CP_CB_DPLIM], -dp) + par[HS_CP_CB_GL] * dp;
}

/* Pilot-operated check valve: flow from -> to (valve side -> load) at pilot pressure px. */
HS_HD static inline hs_real hs_pocv_flow(const double *par, hs_real pa, hs_real pb, hs_real px)
{
    double pc = par[HS_CP_PO_PCR], dpo = par[HS_CP_PO_DPO], lim = par[HS_CP_PO_DPLIM];
    hs_real dp = pa - pb;
    hs_real xf = hs_cmp_step01((dp - pc) / dpo);
    hs_real xp = hs_cmp_step01((par[HS_CP_PO_RATIO] * (px - pa) + dp - pc) / dpo);
    hs_real Q = hs_orifice_flow(par[HS_CP_PO_CV] * (xf + xp - xf * xp), dp, lim) + par[HS_CP_PO_GL] * dp;
    if (par[HS_CP_PO_RDEC] > 0.0)
        Q += hs_orifice_flow(par[HS_CP_PO_CVDEC] * hs_cmp_step01((par[HS_CP_PO_RDEC] * (px - pa) + dp - pc) / dpo), dp,
                             lim);
    return Q;
}

/* Pressure-reducing valve: the static opening at outlet pressure pb (absolute; its setting a
 * gauge pressure: the spring chamber drains to atmosphere). */
HS_HD static inline hs_real hs_prv_opening(const double *par, hs_real pb)
{
    return hs_valve_open01((par[HS_CP_PR_PSET] - (pb - HS_P_ATM)) / par[HS_CP_PR_BAND]);
}

/* Sequence valve: the static opening at pilot pressure px (its inlet's when internal;
 * absolute, the setting gauge: its spring chamber drains to atmosphere). */
HS_HD static inline hs_real hs_sequence_opening(const double *par, hs_real px)
{
    return hs_valve_open01((px - HS_P_ATM - par[HS_CP_SQ_PSET]) / par[HS_CP_SQ_DPO]);
}

/* The shuttle's ball: the share s of the seat of input a open to the output (1 - s: of the
 * other input's). */
HS_HD static inline hs_real hs_shuttle_share(const double *par, hs_real pa, hs_real pr)
{
    return hs_cmp_step01((pa - pr) / par[HS_CP_SH_DPSW] + 0.5);
}

/* The static opening of a pilot valve of type with a spool (counterbalance, reducing,
 * sequence) at from, to and pilot pressures pa, pb, px; 0 for the others. */
HS_HD static inline hs_real hs_pilot_opening(int type, const double *par, hs_real pa, hs_real pb, hs_real px)
{
    if (type == HS_CMP_COUNTERBALANCE) return hs_cbv_opening(par, pa, pb, px);
    if (type == HS_CMP_REDUCING) return hs_prv_opening(par, pb);
    if (type == HS_CMP_SEQUENCE) return hs_sequence_opening(par, px);
    return 0.0 * pa;
}

/* A pilot valve's flow from -> to at opening x (hs_pilot_opening, or its state) and the
 * pressures of its nodes; a shuttle's second input's flow to the output into *Q2 (0 for the
 * others). */
HS_HD static inline hs_real hs_pilot_flow(int type, const double *par, hs_real x, hs_real pa, hs_real pb, hs_real px,
                                          hs_real *Q2)
{
    hs_real dp = pa - pb, s;
    *Q2 = 0.0 * dp;
    switch (type) {
    case HS_CMP_COUNTERBALANCE: return hs_cbv_flow(par, x, pa, pb);
    case HS_CMP_PILOT_CHECK: return hs_pocv_flow(par, pa, pb, px);
    case HS_CMP_REDUCING:
        return hs_orifice_flow(par[HS_CP_PR_CV] * x, dp, par[HS_CP_PR_DPLIM]) + par[HS_CP_PR_GL] * dp;
    case HS_CMP_SEQUENCE:
        return hs_orifice_flow(par[HS_CP_SQ_CV] * x, dp, par[HS_CP_SQ_DPLIM]) -
               hs_bypass_check(par[HS_CP_SQ_CVCK], 0.0, par[HS_CP_SQ_DPLIM], -dp) + par[HS_CP_SQ_GL] * dp;
    default: /* the shuttle */
        s = hs_shuttle_share(par, pa, px);
        *Q2 = hs_orifice_flow(par[HS_CP_SH_CV] * (1.0 - s), px - pb, par[HS_CP_SH_DPLIM]);
        return hs_orifice_flow(par[HS_CP_SH_CV] * s, dp, par[HS_CP_SH_DPLIM]);
    }
}

#endif
