/* hs_hydraulics.h -- lumped-fluid circuits coupled to the mechanism (seed 000 Sect. 3;
 * seed 004 Pub. I Sects. 3 and 5): pressure derivatives of the volumes, valve and throttle
 * flows with a laminar band, cylinder lengths and rates from the joint coordinates, and the
 * cylinder forces applied to both attachment bodies. */
#ifndef HS_HYDRAULICS_H
#define HS_HYDRAULICS_H

#include "hs_components.h"
#include "hs_fluid.h"
#include "hs_pilot_valves.h"
#include "hs_friction.h"
#include "hs_kinematics.h"
#include "hs_signal.h"

typedef struct hs_hyd {
    hs_real s[HS_CAP_CYLS]; /* cylinder length |r_b - r_a|, m (ncyl) */
    hs_real sd[HS_CAP_CYLS]; /* its rate, m/s (ncyl) */
    hs_real e[HS_CAP_CYLS][3]; /* unit vector a -> b (ncyl x 3) */
    hs_real ra[HS_CAP_CYLS][3], rb[HS_CAP_CYLS][3]; /* attachment points, global (ncyl x 3) */
    hs_real lp[HS_CAP_CYLS], lr[HS_CAP_CYLS]; /* chamber lengths, m (ncyl) */
    hs_real F[HS_CAP_CYLS]; /* net force pushing the ends apart, N (ncyl) */
    hs_real Ffric[HS_CAP_CYLS]; /* seal friction, N (ncyl) */
    hs_real h[HS_CAP_VOLS]; /* pressure derivatives, Pa/s; of a singular-perturbation volume
                               its quasi-static pressure, Pa (hs_sp_pressure) (nvol) */
    hs_real fsd[HS_CAP_FS]; /* friction-state derivatives (nfs) */
#if HS_MOT_ON /* (a specialised build without motors: not in its frame) */
    hs_real wm[HS_CAP_MOT]; /* each motor's joint rate zdot_j, rad/s (nmot) */
    hs_real Tm[HS_CAP_MOT]; /* the torque it applies to that joint, N m (nmot) */
#endif
    int stroke_out; /* a chamber length left [0, stroke]: the instance is invalid */
} hs_hyd;

HS_HD static inline hs_real hs_node_p(const hs_mview *m, const hs_real *p, int node)
{
    return node < HS_N(m, nvol) ? p[node] : HS_D(m, src_p)[node - HS_N(m, nvol)];
}

/* Spool position after one trapezoidal step of U' = (U_ref - U)/tau (seed 000 eq. 27),
 * solved in closed form (the equation is linear and driven only by U_ref):
 * U1 = (U0 (1 - dt/(2 tau)) + dt/(2 tau) (Uref0 + Uref1)) / (1 + dt/(2 tau)). */
HS_HD static inline hs_real hs_spool_step(hs_real U0, hs_real Uref0, hs_real Uref1, hs_real dt, hs_real tau)
{
    hs_real a = 0.5 * dt / tau;
    return (U0 * (1.0 - a) + a * (Uref0 + Uref1)) / (1.0 + a);
}

/* Spool i of valve position U after the trapezoidal step of h from t0 to t1 (hs_spool_step),
 * U_ref's right limit at t0 and left limit at t1. */
HS_HD static inline hs_real hs_spool_advance(const hs_mview *m, int i, hs_real U, double t0, double t1, double h)
{
    int d = HS_I(m, dcv_sig, i);
    return hs_spool_step(U, d >= 0 ? hs_signal_eval_side(m, d, t0, 1) : 0.0,
                         d >= 0 ? hs_signal_eval_side(m, d, t1, -1) : 0.0, h, HS_D(m, dcv_tau)[i]);
}

/* The spool rate (U_ref - U) / tau of valve i at time t (U_ref's left limit if side < 0):
 * seed 001 eq. (4). */
HS_HD static inline hs_real hs_spool_rate(const hs_mview *m, int i, hs_real U, double t, int side)
{
    double r = HS_I(m, dcv_sig, i) >= 0 ? hs_signal_eval_side(m, HS_I(m, dcv_sig, i), t, side) : 0.0;
    return (r - U) / HS_D(m, dcv_tau)[i];
}

/* Cylinder geometry: length, rate and direction from the body kinematics (seed 004 Pub. I
 * eqs. 47-48). Needs hs_kin_positions (and hs_kin_velocities for the rate). */
HS_HD static inline void hs_cylinder_geometry(const hs_mview *m, const hs_kin *k, int c, hs_hyd *o)
{
    hs_real d[3], va[3], vb[3], s;
    int q;
    hs_kin_point(k, HS_I(m, cyl_body_a, c), HS_D(m, cyl_at_a)[c], o->ra[c]);
    hs_kin_point(k, HS_I(m, cyl_body_b, c), HS_D(m, cyl_at_b)[c], o->rb[c]);
    hs_v3_sub(d, o->rb[c], o->ra[c]);
    s = hs_v3_norm(d);
    o->s[c] = s;
    for (q = 0; q < 3; ++q) o->e[c][q] = s > 0.0 ? d[q] / s : 0.0;
    hs_kin_point_vel(k, HS_I(m, cyl_body_a, c), o->ra[c], va);
    hs_kin_point_vel(k, HS_I(m, cyl_body_b, c), o->rb[c], vb);
    hs_v3_sub(d, vb, va);
    o->sd[c] = hs_v3_dot(o->e[c], d);
}

/* The flow correction of seed 004 Pub. II eq. (35) that node k applies to the throttle flows
 * it exchanges: gamma+ or gamma- of a singular-perturbation volume by the sign of its valve's
 * spool, 1 otherwise (a lumped volume, a source, a closed or absent valve). */
HS_HD static inline hs_real hs_sp_gamma(const hs_mview *m, int k, const hs_real *U)
{
    int d;
    if (k >= HS_N(m, nvol) || HS_I(m, vol_model, k) != HS_VOL_SP) return 1.0;
    d = HS_I(m, vol_dcv, k);
    if (d < 0 || U[d] == 0.0) return 1.0;
    return U[d] > 0.0 ? HS_D(m, vol_gamma)[k][0] : HS_D(m, vol_gamma)[k][1];
}

/* The quasi-static pressure of singular-perturbation volume v (seed 004 Pub. II eqs. 33-34):
 * with turbulent flows through its valve path (coefficient Cv k |U|, from the source pressure
 * p_s: pump or tank by the sign of U and the port) and its throttle (C_t, to the volume at
 * p_o), 0 = inflows gives p = (p_o + a p_s) / (1 + a), a = (Cv k |U| / C_t)^2. A closed valve
 * (U = 0) gives p = p_o, as the paper's formula does. The loader checks the topology: a port
 * of one valve and an end of one throttle. */
HS_HD static inline hs_real hs_sp_pressure(const hs_mview *m, int v, const hs_real *p, const hs_real *U)
{
    int d = HS_I(m, vol_dcv, v), k = HS_I(m, vol_thr, v), o, portA, src, path;
    hs_real u, a, r;
    if (d < 0 || k < 0) return p[v];
    o = HS_I(m, thr_a, k) == v ? HS_I(m, thr_b, k) : HS_I(m, thr_a, k);
    portA = HS_I(m, dcv_A, d) == v;
    u = U[d];
    /* U > 0: P -> A, B -> T; U < 0: P -> B, A -> T (kpath: P-A, B-T, P-B, A-T) */
    if (u >= 0.0) {
        src = portA ? HS_I(m, dcv_P, d) : HS_I(m, dcv_T, d);
        path = portA ? 0 : 1;
    } else {
        src = portA ? HS_I(m, dcv_T, d) : HS_I(m, dcv_P, d);
        path = portA ? 3 : 2;
        u = -u;
    }
    r = HS_D(m, dcv_Cv)[d] * HS_D(m, dcv_kpath)[d][path] * u / HS_D(m, thr_Cv)[k];
    a = r * r;
    return (hs_node_p(m, p, o) + a * hs_node_p(m, p, src)) / (1.0 + a);
}

/* The chamber lengths of cylinder c at its length o->s[c], with the consistent sign
 * l_p = l_p0 + (s - s0), l_r = l - l_p (model-data.md); 1 when one is <= 0 (the stroke left). */
HS_HD static inline int hs_chambers(const hs_mview *m, const hs_real *s0, int c, hs_hyd *o)
{
    o->lp[c] = HS_D(m, cyl_l_p0)[c] + (o->s[c] - s0[c]);
    o->lr[c] = HS_D(m, cyl_stroke)[c] - o->lp[c];
    return o->lp[c] <= 0.0 || o->lr[c] <= 0.0;
}

/* The pressure force p1 A1 - p2 A2 of cylinder c at pressures p (nvol) (seed 004 Pub. III
 * eq. 30 without friction and end dampers). */
HS_HD static inline hs_real hs_pressure_force(const hs_mview *m, const hs_real *p, int c)
{
    return p[HS_I(m, cyl_vol_p, c)] * HS_D(m, cyl_Ap)[c] - p[HS_I(m, cyl_vol_r, c)] * HS_D(m, cyl_Ar)[c];
}

/* The rate zdot_j of revolute joint j from the body velocities: u . (w_j - w_parent), u the
 * joint's global axis (eq. 2: Z_j = Z_parent + b_j zdot_j, b_j's w part the unit axis). */
HS_HD static inline hs_real hs_joint_rate(const hs_mview *m, const hs_kin *k, int j)
{
    int par = HS_I(m, body_parent, j), q;
    hs_real r = 0.0, d;
    for (q = 0; q < 3; ++q) {
        d = k->Z[j][3 + q];
        if (par >= 0) d = d - k->Z[par][3 + q];
        r += k->b[j][3 + q] * d;
    }
    return r;
}

/* Geometry of every cylinder (length, rate, direction, attachment points) and its chamber
 * lengths with the consistent sign l_p = l_p0 + (s - s0), l_r = l - l_p (model-data.md);
 * o->stroke_out flags a chamber length outside (0, l). s0 (ncyl): the lengths at t = 0. And
 * every motor's joint rate (o->wm). Needs hs_kin_positions and hs_kin_velocities. */
HS_HD static inline void hs_cylinders(const hs_mview *m, const hs_kin *k, const hs_real *s0, hs_hyd *o)
{
    int c;
    o->stroke_out = 0;
    HS_UNROLL
    for (c = 0; c < HS_N(m, ncyl); ++c) {
        hs_cylinder_geometry(m, k, c, o);
        if (hs_chambers(m, s0, c, o)) o->stroke_out = 1;
    }
#if HS_MOT_ON
    HS_UNROLL
    for (c = 0; c < HS_N(m, ncmp); ++c)
        if (HS_I(m, cmp_type, c) == HS_CMP_MOTOR) o->wm[HS_I(m, cmp_mot, c)] = hs_joint_rate(m, k, HS_I(m, cmp_ref, c));
#endif
}

/* The load-sensing pressure of the valve sections in mask (bit i: valve i), as their shuttle
 * valves pass it to a pump: the highest of their sensed pressures (rounded over
 * HS_LS_MAX_SMOOTH, C1), each section's the pressure of the port it feeds (A for U > 0, B for
 * U < 0) as its sensing port opens over the travel U_ls, the tank's at the centre (the sense
 * line drained: the pump then stands by at its margin). */
HS_HD static inline hs_real hs_ls_pressure(const hs_mview *m, const hs_real *p, const hs_real *U, unsigned int mask)
{
    hs_real best = 0.0, ps;
    int i, first = 1;
    HS_UNROLL
    for (i = 0; i < HS_N(m, ndcv); ++i) {
        hs_real u = U[i], pT, pw;
        if (!((mask >> i) & 1u)) continue;
        pT = hs_node_p(m, p, HS_I(m, dcv_T, i));
        pw = u >= 0.0 ? p[HS_I(m, dcv_A, i)] : p[HS_I(m, dcv_B, i)];
        ps = pT + hs_ls_open(u / HS_D(m, dcv_Uls)[i]) * (pw - pT);
        best = first ? ps : hs_smooth_max(best, ps, HS_LS_MAX_SMOOTH);
        first = 0;
    }
    return best;
}

/* The pilot pressure of component i at pressures p (nvol): its pilot node's (cmp_ref; a
 * shuttle's second input), or pa, its from node's, where it has none (an internally piloted
 * sequence valve). */
HS_HD static inline hs_real hs_cmp_pilot_p(const hs_mview *m, int i, const hs_real *p, hs_real pa)
{
    return HS_I(m, cmp_ref, i) >= 0 ? hs_node_p(m, p, HS_I(m, cmp_ref, i)) : pa;
}

/* The static value of component i's state at the pressures pa, pb of its nodes (p: all, and
 * the spools U, for a load-sensing pump's sense): a relief valve's opening x_ss, a pilot
 * valve's spool opening (hs_pilot_valves.h), a variable pump's displacement fraction eps_ss. */
HS_HD static inline hs_real hs_component_target(const hs_mview *m, int i, const hs_real *p, const hs_real *U,
                                                hs_real pa, hs_real pb)
{
    const double *par = HS_D(m, cmp_par)[i];
    hs_real ref;
    if (HS_I(m, cmp_type, i) == HS_CMP_RELIEF) return hs_relief_opening(par, pa - pb);
    if (hs_cmp_is_pilot_valve(HS_I(m, cmp_type, i)))
        return hs_pilot_opening(HS_I(m, cmp_type, i), par, pa, pb, hs_cmp_pilot_p(m, i, p, pa));
    if (HS_I(m, cmp_type, i) != HS_CMP_PUMP_LS)
        ref = par[HS_CP_PU_PREF] + 0.0 * pb;
    else if (HS_I(m, cmp_lsmask, i))
        ref = hs_ls_pressure(m, p, U, (unsigned int)HS_I(m, cmp_lsmask, i)) + par[HS_CP_PU_PREF];
    else
        ref = hs_node_p(m, p, HS_I(m, cmp_ref, i)) + par[HS_CP_PU_PREF];
    return hs_pump_eps_ss(par, pb, ref);
}

/* Flow of component i (kernels/hs_components.h) from its node a to its node b at pressures
 * p (nvol) and states fs (nfs); the rate of its state, (target - state) / tau, into *rate
 * (untouched without one); a shuttle's second input's flow to its output (cmp_ref -> b) into
 * *Q2 (0 for the others). An accumulator has no flow of its own (its volume's capacitance)
 * and a motor's depends on its joint's rate: both are hs_component_flows'. */
HS_HD static inline hs_real hs_component_flow(const hs_mview *m, int i, const hs_real *p, const hs_real *fs,
                                              const hs_real *U, hs_real *rate, hs_real *Q2)
{
    const double *par = HS_D(m, cmp_par)[i];
    int type = HS_I(m, cmp_type, i), k = HS_I(m, cmp_fs0, i), ts;
    hs_real pa, pb, x;
    *Q2 = 0.0;
    if (type == HS_CMP_ACCUMULATOR || type == HS_CMP_MOTOR || type == HS_CMP_HOSE) return 0.0; /* hs_component_flows */
    pa = hs_node_p(m, p, HS_I(m, cmp_a, i));
    pb = hs_node_p(m, p, HS_I(m, cmp_b, i));
    if (type == HS_CMP_CHECK) return hs_check_flow(par, pa - pb);
    if (type == HS_CMP_FLOW_CONTROL) return hs_flow_control_flow(par, pa - pb);
    if (type == HS_CMP_PUMP) return hs_pump_flow(par, 1.0, pb - pa);
    x = hs_component_target(m, i, p, U, pa, pb);
    if (k >= 0) { /* the first-order poppet, spool or swash plate */
        ts = hs_cmp_tau_slot(type);
        *rate = (x - fs[k]) / par[ts >= 0 ? ts : HS_CP_PU_TAU];
        x = fs[k];
    }
    if (type == HS_CMP_RELIEF) return par[HS_CP_RV_QNOM] * x + par[HS_CP_RV_GL] * (pa - pb);
    if (hs_cmp_is_pilot_valve(type)) return hs_pilot_flow(type, par, x, pa, pb, hs_cmp_pilot_p(m, i, p, pa), Q2);
    return hs_pump_flow(par, x, pb - pa); /* a variable pump: x is its stroke */
}

#ifdef HS_REAL_IS_DOUBLE
/* The static value of component i's state at pressures p (nvol) and spools U (ndcv): the
 * start of a run at rest (hs_init). */
HS_HD static inline double hs_component_state_ss(const hs_mview *m, int i, const double *p, const double *U)
{
    return hs_component_target(m, i, p, U, hs_node_p(m, p, HS_I(m, cmp_a, i)), hs_node_p(m, p, HS_I(m, cmp_b, i)));
}
#endif

/* Valve section i's flows at spool U (ndcv) and pressures p (nvol): *qA into port A, *qB into
 * port B (seed 000 eqs. 24-26; model-data.md): U > 0 opens P -> A and B -> T, U < 0 P -> B
 * and A -> T; a load-sensing section's meter-in edge lies behind its compensator (dp_comp >
 * 0). What enters A or B leaves P, what leaves them enters T. A seat valve (dcv_kind) opens P
 * -> A by U in [0, 1] (its port B is A) and, a 3/2 one, A -> T by 1 - U: on/off valves whose
 * switching time is the spool's lag tau. */
HS_HD static inline void hs_valve_flows(const hs_mview *m, int i, const hs_real *p, const hs_real *U, hs_real *qA,
                                        hs_real *qB)
{
    hs_real u = U[i], Cv = HS_D(m, dcv_Cv)[i], lim = HS_D(m, dcv_dplim)[i];
    hs_real pP = hs_node_p(m, p, HS_I(m, dcv_P, i)), pT = hs_node_p(m, p, HS_I(m, dcv_T, i));
    hs_real pA = hs_node_p(m, p, HS_I(m, dcv_A, i)), pB = hs_node_p(m, p, HS_I(m, dcv_B, i));
    double dpc = HS_D(m, dcv_dpcomp)[i];
    if (HS_I(m, dcv_kind, i) != HS_DCV_DIRECTIONAL) {
        /* a seat valve (B = A): open x = U clamped to [0, 1] from P to A, and (3/2) 1 - x from A
         * to T. Returned as the edges of the 4/3 valve at U's sign (qA the edge from P, qB minus
         * the edge to T, swapped for U < 0), so that its callers book P, T and A alike */
        hs_real x = u > 0.0 ? (u < 1.0 ? u : 1.0 + 0.0 * u) : 0.0 * u, qpa, qat;
        qpa = hs_orifice_flow(Cv * x, pP - pA, lim);
        qat = HS_I(m, dcv_kind, i) == HS_DCV_SEAT_3_2 ? hs_orifice_flow(Cv * (1.0 - x), pA - pT, lim) : 0.0 * x;
        *qA = u >= 0.0 ? qpa : -qat;
        *qB = u >= 0.0 ? -qat : qpa;
        return;
    }
    if (u >= 0.0) {
        *qA = dpc > 0.0 ? hs_compensated_edge(Cv * HS_D(m, dcv_kpath)[i][0] * u, dpc, lim, pP - pA)
                        : hs_orifice_flow(Cv * HS_D(m, dcv_kpath)[i][0] * u, pP - pA, lim);
        *qB = -hs_orifice_flow(Cv * HS_D(m, dcv_kpath)[i][1] * u, pB - pT, lim);
    } else {
        *qB = dpc > 0.0 ? hs_compensated_edge(-Cv * HS_D(m, dcv_kpath)[i][2] * u, dpc, lim, pP - pB)
                        : hs_orifice_flow(-Cv * HS_D(m, dcv_kpath)[i][2] * u, pP - pB, lim);
        *qA = -hs_orifice_flow(-Cv * HS_D(m, dcv_kpath)[i][3] * u, pA - pT, lim);
    }
}

/* The factors (hs_edge_weights) of valve section i's flows qA, qB (hs_valve_flows) at ports
 * (P, A, B, T), into w (4): its open edges P -> A and B -> T at U >= 0, P -> B and A -> T
 * below. All 1 without entrained air. */
HS_HD static inline void hs_valve_weights(const hs_mview *m, int i, const hs_real *p, const hs_real *U, hs_real qA,
                                          hs_real qB, hs_real *w)
{
    w[0] = w[1] = w[2] = w[3] = 1.0;
    if (hs_air_on(m)) {
        int fwd = U[i] >= 0.0, x1 = fwd ? HS_I(m, dcv_A, i) : HS_I(m, dcv_B, i);
        int x2 = fwd ? HS_I(m, dcv_B, i) : HS_I(m, dcv_A, i);
        hs_real w1, w2;
        hs_edge_weights(m, hs_node_p(m, p, HS_I(m, dcv_P, i)), hs_node_p(m, p, x1), fwd ? qA : qB, &w[0], &w1);
        hs_edge_weights(m, hs_node_p(m, p, x2), hs_node_p(m, p, HS_I(m, dcv_T, i)), fwd ? -qB : -qA, &w2, &w[3]);
        w[1] = fwd ? w1 : w2;
        w[2] = fwd ? w2 : w1;
    }
}

/* The capacitance V / Be of lumped volume v at its pressure pv, dV_oil/dp, m^3/Pa: its oil V =
 * V_hose + Vch (the chamber's Vch) at B_oil (with entrained air: V kappa(pv), hs_fluid.h), its
 * hose's and chamber's walls (seed 000 eq. 23, model-data.md) and what the components add
 * there, Cacc (hs_component_capacitance). */
HS_HD static inline hs_real hs_volume_capacitance(const hs_mview *m, int v, hs_real pv, hs_real Vch, hs_real Cacc)
{
    hs_real V = HS_D(m, vol_V)[v] + Vch, c, kap;
    if (hs_air_on(m)) {
        (void)hs_fluid_volume(m, pv, &kap);
        c = V * kap;
    } else {
        c = V / HS_D(m, B_oil);
    }
    c += HS_D(m, vol_V)[v] / HS_D(m, vol_B)[v];
    if (HS_I(m, vol_cyl, v) >= 0) c += Vch / HS_D(m, cyl_B)[HS_I(m, vol_cyl, v)];
    if (HS_N(m, ncmp) > 0) c += Cacc; /* (a constant test when specialised) */
    return c;
}

/* What the components add to their volumes' capacitance at pressures p (nvol), into Cacc
 * (nvol, zeroed by the caller): an accumulator's gas and the oil it holds, half a hose
 * segment's oil at each end of a hose (that oil at its node's kappa with entrained air). */
HS_HD static inline void hs_component_capacitance(const hs_mview *m, const hs_real *p, hs_real *Cacc)
{
    int i;
    HS_UNROLL
    for (i = 0; i < HS_N(m, ncmp); ++i) {
        int a = HS_I(m, cmp_a, i), b = HS_I(m, cmp_b, i);
        hs_real Vg;
        const double *par = HS_D(m, cmp_par)[i];
        if (HS_I(m, cmp_type, i) == HS_CMP_ACCUMULATOR) {
            Cacc[a] += hs_accumulator_capacitance(par, HS_D(m, B_oil), p[a], &Vg);
            if (hs_air_on(m)) { /* its oil at the mixture's kappa, not 1/B_oil */
                hs_real kap;
                (void)hs_fluid_volume(m, p[a], &kap);
                Cacc[a] += (par[HS_CP_AC_V0] - Vg) * (kap - 1.0 / HS_D(m, B_oil));
            }
        } else if (HS_I(m, cmp_type, i) == HS_CMP_HOSE) {
            double Ch;
            if (hs_air_on(m)) { /* A l / 2 (kappa(p) + 1/B_wall) at each end */
                double Vh = 0.5 * hs_hose_area(par) * hs_hose_seg_length(par);
                hs_real kap;
                if (a < HS_N(m, nvol)) {
                    (void)hs_fluid_volume(m, p[a], &kap);
                    Cacc[a] += Vh * (kap + 1.0 / par[HS_CP_HO_BW]);
                }
                if (b < HS_N(m, nvol)) {
                    (void)hs_fluid_volume(m, p[b], &kap);
                    Cacc[b] += Vh * (kap + 1.0 / par[HS_CP_HO_BW]);
                }
                continue;
            }
            Ch = 0.5 * hs_hose_seg_capacitance(par, HS_D(m, B_oil));
            if (a < HS_N(m, nvol)) Cacc[a] += Ch;
            if (b < HS_N(m, nvol)) Cacc[b] += Ch;
        }
    }
}

/* Node j of hose i's line (j = 0 .. N): its from, its internal volumes cmp_ref .. cmp_ref + N - 2,
 * its to. Segment j (1 .. N) runs from node j - 1 to node j. */
HS_HD static inline int hs_hose_node(const hs_mview *m, int i, int j)
{
    return j == 0 ? HS_I(m, cmp_a, i) : j == HS_I(m, cmp_dyn, i) ? HS_I(m, cmp_b, i) : HS_I(m, cmp_ref, i) + j - 1;
}

/* Hose i (hs_components.h): its segments' flows into qin (nvol), their velocities' rates into
 * fsd (its cmp_dyn states from cmp_fs0), segment j + 1 between nodes j and j + 1 of the line
 * (hs_hose_node). Its ends' share of its oil: hs_component_capacitance. */
HS_HD static inline void hs_hose_flows(const hs_mview *m, int i, const hs_real *p, const hs_real *fs, hs_real *qin,
                                       hs_real *fsd)
{
    const double *par = HS_D(m, cmp_par)[i];
    int k0 = HS_I(m, cmp_fs0, i), nseg = HS_I(m, cmp_dyn, i), j, na = hs_hose_node(m, i, 0);
    double A = hs_hose_area(par);
    hs_real pa = hs_node_p(m, p, na);
    for (j = 0; j < nseg; ++j) {
        int nb = hs_hose_node(m, i, j + 1);
        hs_real pb = hs_node_p(m, p, nb), v = fs[k0 + j], wa, wb;
        fsd[k0 + j] = hs_hose_accel(par, HS_D(m, rho), pa - pb, v);
        hs_edge_weights(m, pa, pb, v, &wa, &wb); /* (its mass: hs_fluid.h) */
        if (na < HS_N(m, nvol)) qin[na] -= wa * (A * v);
        if (nb < HS_N(m, nvol)) qin[nb] += wb * (A * v);
        na = nb;
        pa = pb;
    }
}

#ifdef HS_REAL_IS_DOUBLE
/* Hose i at rest between its end pressures (p, nvol): its internal pressures p on the straight
 * line between them and every segment's velocity the laminar flow that drop drives
 * (hs_hose_accel = 0), into p and fs: a steady line, not a pressure wave at t = 0. */
HS_HD static inline void hs_hose_rest(const hs_mview *m, int i, double *p, double *fs)
{
    const double *par = HS_D(m, cmp_par)[i];
    int nseg = HS_I(m, cmp_dyn, i), j;
    double pa = hs_node_p(m, p, HS_I(m, cmp_a, i)), pb = hs_node_p(m, p, HS_I(m, cmp_b, i));
    double v = hs_hose_accel(par, HS_D(m, rho), (pa - pb) / nseg, 0.0) / hs_hose_friction(par);
    for (j = 0; j < nseg; ++j) {
        fs[HS_I(m, cmp_fs0, i) + j] = v;
        if (j + 1 < nseg) p[hs_hose_node(m, i, j + 1)] = pa + (pb - pa) * (j + 1) / nseg;
    }
}
#endif

/* Every component's flow into the inflows qin (nvol), its state's rate into o->fsd, and the
 * motors' torques into o->Tm at the joint rates o->wm (hs_cylinders). (An accumulator's is its
 * capacitance: hs_component_capacitance.) */
HS_HD static inline void hs_component_flows(const hs_mview *m, const hs_real *p, const hs_real *fs, const hs_real *U,
                                            hs_real *qin, hs_hyd *o)
{
    int i;
    HS_UNROLL
    for (i = 0; i < HS_N(m, ncmp); ++i) {
        int a = HS_I(m, cmp_a, i), b = HS_I(m, cmp_b, i), k = HS_I(m, cmp_fs0, i);
        hs_real Q, rate = 0.0, Q2 = 0.0, wa, wb, wr = 1.0, w2 = 1.0;
        if (HS_I(m, cmp_type, i) == HS_CMP_ACCUMULATOR) continue;
        if (HS_I(m, cmp_type, i) == HS_CMP_HOSE) {
            hs_hose_flows(m, i, p, fs, qin, o->fsd);
            continue;
        }
#if HS_MOT_ON
        if (HS_I(m, cmp_type, i) == HS_CMP_MOTOR) { /* its joint's rate from hs_cylinders */
            int mo = HS_I(m, cmp_mot, i);
            hs_real dp = hs_node_p(m, p, a) - hs_node_p(m, p, b);
            Q = hs_motor_flow(HS_D(m, cmp_par)[i], dp, o->wm[mo]);
            o->Tm[mo] = hs_motor_torque(HS_D(m, cmp_par)[i], dp, o->wm[mo]);
        } else
#endif
            Q = hs_component_flow(m, i, p, fs, U, &rate, &Q2);
        /* (the flows' mass: hs_fluid.h) */
        hs_edge_weights(m, hs_node_p(m, p, a), hs_node_p(m, p, b), Q, &wa, &wb);
        if (HS_I(m, cmp_type, i) == HS_CMP_SHUTTLE)
            hs_edge_weights(m, hs_node_p(m, p, HS_I(m, cmp_ref, i)), hs_node_p(m, p, b), Q2, &wr, &w2);
        if (a < HS_N(m, nvol)) qin[a] -= wa * Q;
        if (b < HS_N(m, nvol)) qin[b] += wb * Q + w2 * Q2;
        if (HS_I(m, cmp_type, i) == HS_CMP_SHUTTLE && HS_I(m, cmp_ref, i) < HS_N(m, nvol))
            qin[HS_I(m, cmp_ref, i)] -= wr * Q2; /* its second input */
        if (k >= 0) o->fsd[k] = rate;
    }
}

/* The hydraulics at pressures p (nvol), friction states fs (nfs) and spool positions U (ndcv)
 * for the cylinder geometry already in o (hs_cylinders): cylinder forces, friction and its
 * state derivatives, and the pressure derivatives
 *   p'_k = Be_k / V_k * (sum of inflows - dV_k/dt)          (seed 000 eq. 22)
 *   1/Be_k = 1/B_oil + V_hose/(V_k B_hose) + A l/(V_k B_wall)  (eq. 23, model-data.md),
 * evaluated as (inflows - dV_k/dt) / (V_k/B_oil + V_hose/B_hose + A l/B_wall), the same
 * value with four divisions instead of six. A change of p, fs or U alone (the tangent's
 * hydraulic columns) needs only this, not the kinematics. keep_fric: o->Ffric holds the
 * friction at this geometry already (the rod velocities have not changed since it was
 * computed), so a friction force that depends on the rod velocity alone is kept, not
 * evaluated again (hs_friction_velocity_only: the same value; its tanh and exp are a few per
 * cent of a CPU step). */
HS_HD HS_NOINLINE static inline void hs_hydraulic_rates_f(const hs_mview *m, const hs_real *p, const hs_real *fs,
                                                          const hs_real *U, hs_hyd *o, int keep_fric)
{
    hs_real qin[HS_CAP_VOLS], Vch[HS_CAP_VOLS], dVch[HS_CAP_VOLS], Cacc[HS_CAP_VOLS]; /* (nvol) */
    int c, v, i;
    HS_UNROLL
    for (v = 0; v < HS_N(m, nvol); ++v) qin[v] = Vch[v] = dVch[v] = Cacc[v] = 0.0;
    HS_UNROLL
    for (c = 0; c < HS_N(m, ncyl); ++c) {
        hs_real Fp, Ap = HS_D(m, cyl_Ap)[c], Ar = HS_D(m, cyl_Ar)[c];
        int vp = HS_I(m, cyl_vol_p, c), vr = HS_I(m, cyl_vol_r, c);
        Vch[vp] = Ap * o->lp[c];
        Vch[vr] = Ar * o->lr[c];
        dVch[vp] = Ap * o->sd[c]; /* the piston side grows on extension */
        dVch[vr] = -Ar * o->sd[c];
        Fp = hs_pressure_force(m, p, c);
        if (!(keep_fric && hs_friction_velocity_only(m, c)))
            o->Ffric[c] = hs_friction_force(m, c, o->sd[c], fs + HS_I(m, cyl_fs0, c), Fp,
                                            o->fsd + HS_I(m, cyl_fs0, c));
        o->F[c] = Fp - o->Ffric[c] + hs_end_damper(m, c, o->lp[c], o->lr[c], o->sd[c]);
    }
    HS_UNROLL
    for (i = 0; i < HS_N(m, nthr); ++i) {
        int a = HS_I(m, thr_a, i), b = HS_I(m, thr_b, i);
        hs_real pa = hs_node_p(m, p, a), pb = hs_node_p(m, p, b), wa, wb;
        hs_real Q = hs_orifice_flow(HS_D(m, thr_Cv)[i], pa - pb, HS_D(m, thr_dplim)[i]);
        /* a singular-perturbation volume balances the uncorrected flow; the lumped volume on
         * the other side receives gamma+- times it (seed 004 Pub. II eq. 35). (Its mass:
         * hs_fluid.h; the loader allows no entrained air with such volumes.) */
        hs_real ga = hs_sp_gamma(m, a, U), gb = hs_sp_gamma(m, b, U);
        hs_edge_weights(m, pa, pb, Q, &wa, &wb);
        if (a < HS_N(m, nvol)) qin[a] -= gb * (wa * Q);
        if (b < HS_N(m, nvol)) qin[b] += ga * (wb * Q);
    }
    HS_UNROLL
    for (i = 0; i < HS_N(m, ndcv); ++i) {
        hs_real qA, qB, w[4]; /* (P, A, B, T) */
        hs_valve_flows(m, i, p, U, &qA, &qB);
        hs_valve_weights(m, i, p, U, qA, qB, w);
        qin[HS_I(m, dcv_A, i)] += w[1] * qA; /* A and B are volumes (checked by the loader) */
        qin[HS_I(m, dcv_B, i)] += w[2] * qB;
        /* what enters A or B leaves P, what leaves them enters T: a volume at P or T (a pump
         * line, a return line) balances the same flows */
        if (HS_I(m, dcv_P, i) < HS_N(m, nvol)) qin[HS_I(m, dcv_P, i)] -= w[0] * (U[i] >= 0.0 ? qA : qB);
        if (HS_I(m, dcv_T, i) < HS_N(m, nvol)) qin[HS_I(m, dcv_T, i)] -= w[3] * (U[i] >= 0.0 ? qB : qA);
    }
    hs_component_flows(m, p, fs, U, qin, o);
    hs_component_capacitance(m, p, Cacc);
    HS_UNROLL
    for (v = 0; v < HS_N(m, nvol); ++v)
        o->h[v] = HS_I(m, vol_model, v) == HS_VOL_SP ? hs_sp_pressure(m, v, p, U)
                                                     : (qin[v] - dVch[v]) / hs_volume_capacitance(m, v, p[v], Vch[v], Cacc[v]);
}

/* The same, every friction force evaluated. */
HS_HD static inline void hs_hydraulic_rates(const hs_mview *m, const hs_real *p, const hs_real *fs, const hs_real *U,
                                            hs_hyd *o)
{
    hs_hydraulic_rates_f(m, p, fs, U, o, 0);
}

/* Everything hydraulic at one state: hs_cylinders, then hs_hydraulic_rates. */
HS_HD static inline void hs_hydraulics(const hs_mview *m, const hs_kin *k, const hs_real *p,
                                       const hs_real *fs, const hs_real *U, const hs_real *s0,
                                       hs_hyd *o)
{
    hs_cylinders(m, k, s0, o);
    hs_hydraulic_rates(m, p, fs, U, o);
}

/* ds_c/dz (nz): the cylinder's generalised-force direction, e . (dr_b/dz_k - dr_a/dz_k) with
 * dr/dz_k = b_k^s + w_k x r for joints on the body's path. Needs hs_cylinder_geometry. */
HS_HD static inline void hs_cylinder_jac(const hs_mview *m, const hs_kin *k, const hs_hyd *o, int c,
                                         hs_real *js)
{
    int q;
    HS_UNROLL
    for (q = 0; q < HS_N(m, nz); ++q) {
        hs_real d[3] = {0.0, 0.0, 0.0}, t[3];
        int a = HS_I(m, cyl_body_a, c), b = HS_I(m, cyl_body_b, c);
        if (b >= 0 && ((HS_I(m, body_anc, b) >> q) & 1u)) {
            hs_v3_cross(t, k->b[q] + 3, o->rb[c]);
            d[0] += k->b[q][0] + t[0];
            d[1] += k->b[q][1] + t[1];
            d[2] += k->b[q][2] + t[2];
        }
        if (a >= 0 && ((HS_I(m, body_anc, a) >> q) & 1u)) {
            hs_v3_cross(t, k->b[q] + 3, o->ra[c]);
            d[0] -= k->b[q][0] + t[0];
            d[1] -= k->b[q][1] + t[1];
            d[2] -= k->b[q][2] + t[2];
        }
        js[q] = hs_v3_dot(o->e[c], d);
    }
}

#endif
