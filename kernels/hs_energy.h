/* hs_energy.h -- the hydraulic energy audit: at a state, the power the circuit takes in (the
 * constant-pressure sources and the pumps' shafts), the power its elements dissipate, and the
 * power stored in the fluid. Integrated over the run (hs_state.W_hyd: hs_trapezoid.h,
 * hs_esdirk.h, hs_adapt.h), they are the signals W_in, W_loss and E_fluid
 * (docs/model-format.md, "Energy").
 *
 * Every element carries a flow Q from its node a to its node b (a valve's two open edges,
 * a throttle, a component, a hose segment) and absorbs Q (p_a - p_b); a source node delivers
 * p_s Q for the flow leaving it. Each volume stores p (qin - dV/dt) = p C p' (seed 000
 * eq. 22: the compression power of its oil, an accumulator's gas and a hose's half segment
 * included), so with the cylinders' pressure power F_p sdot = sum p dV/dt:
 *
 *   P_in = P_loss + P_store + sum_c F_c sdot_c + sum_j T_j zdot_j,
 *
 * the mechanism receiving the cylinders' net forces F_c (seal friction and end stops are
 * losses: F_p - F_c) and the motors' torques (their losses Q dp - T zdot, never negative).
 * A pump's shaft delivers eps D n (dp + (1/eta_hm - 1)|dp|) / (2 pi) (its torque D dp /
 * (2 pi eta_hm) at its stroke eps), of which Q dp reaches the oil; a hose segment's Q (p_a -
 * p_b) is its oil's kinetic energy rate rho A l v v' (stored) plus its laminar friction. So
 * W_in - W_loss - E_fluid equals the actuators' work sum W_cyl + W_mot to rounding: the
 * mechanical E_balance then closes the whole machine. Not so where a singular-perturbation
 * volume's flow corrections gamma (seed 004 Pub. II eq. 35) scale a throttle's flow on one side
 * only: there the audit takes the flow as it leaves the throttle. */
#ifndef HS_ENERGY_H
#define HS_ENERGY_H

#include "hs_state.h"

#ifdef HS_REAL_IS_DOUBLE /* (not in the linearization's dual-number build) */
/* Flow Q from node a to node b at pressures p: its dissipation into P[HS_PW_LOSS], a source
 * end's delivery into P[HS_PW_IN], and the flow into qin (nvol) as hs_hydraulic_rates puts it.
 * With entrained air the element takes p_a w_a Q and delivers p_b w_b Q (hs_edge_weights):
 * what it absorbs includes the mixture's expansion across it, and the balance still closes. */
HS_HD static inline void hs_audit_flow(const hs_mview *m, const double *p, int a, int b, double Q, double *qin,
                                       double *P)
{
    double pa = hs_node_p(m, p, a), pb = hs_node_p(m, p, b), wa, wb;
    hs_edge_weights(m, pa, pb, Q, &wa, &wb); /* 1 and 1 without entrained air */
    if (hs_air_on(m)) /* it takes wa Q at pa and delivers wb Q at pb (hs_fluid.h) */
        P[HS_PW_LOSS] += wa * Q * pa - wb * Q * pb;
    else
        P[HS_PW_LOSS] += Q * (pa - pb);
    if (a < HS_N(m, nvol)) qin[a] -= wa * Q;
    else P[HS_PW_IN] += pa * (wa * Q);
    if (b < HS_N(m, nvol)) qin[b] += wb * Q;
    else P[HS_PW_IN] -= pb * (wb * Q);
}

/* Throttle i's flow a -> b at pressures p, into the audit (hs_audit_flow); returns it. */
HS_HD static inline double hs_audit_throttle(const hs_mview *m, const double *p, int i, double *qin, double *P)
{
    int a = HS_I(m, thr_a, i), b = HS_I(m, thr_b, i);
    double Q = hs_orifice_flow(HS_D(m, thr_Cv)[i], hs_node_p(m, p, a) - hs_node_p(m, p, b), HS_D(m, thr_dplim)[i]);
    hs_audit_flow(m, p, a, b, Q, qin, P);
    return Q;
}

/* Valve section i's two open edges (P -> A, B -> T or P -> B, A -> T) at spools U, into the
 * audit; its flows into ports A and B into *qA, *qB (hs_valve_flows). */
HS_HD static inline void hs_audit_valve(const hs_mview *m, const double *p, const double *U, int i, double *qin,
                                        double *P, double *qA, double *qB)
{
    int A = HS_I(m, dcv_A, i), B = HS_I(m, dcv_B, i);
    hs_valve_flows(m, i, p, U, qA, qB);
    hs_audit_flow(m, p, HS_I(m, dcv_P, i), U[i] >= 0.0 ? A : B, U[i] >= 0.0 ? *qA : *qB, qin, P);
    hs_audit_flow(m, p, U[i] >= 0.0 ? B : A, HS_I(m, dcv_T, i), U[i] >= 0.0 ? -*qB : -*qA, qin, P);
}

/* Component i at states fs and spools U into the audit (a motor at its joint's rate wm with
 * torque Tm); returns its flow from -> to (a hose's at its from end; a shuttle's into its
 * output from both inputs; an accumulator: 0, its gas is its volume's capacitance). */
HS_HD static inline double hs_audit_component(const hs_mview *m, const double *p, const double *fs, const double *U,
                                              double wm, double Tm, int i, double *qin, double *P)
{
    const double *par = HS_D(m, cmp_par)[i];
    int a = HS_I(m, cmp_a, i), b = HS_I(m, cmp_b, i), k = HS_I(m, cmp_fs0, i), type = HS_I(m, cmp_type, i);
    double rate, Q, Q2, dp = hs_node_p(m, p, a) - hs_node_p(m, p, b);
    (void)wm;
    (void)Tm;
    if (type == HS_CMP_ACCUMULATOR) return 0.0;
    if (type == HS_CMP_HOSE) { /* segment j between nodes j - 1 and j of the line */
        double A = hs_hose_area(par), mass = HS_D(m, rho) * A * hs_hose_seg_length(par); /* per v^2 */
        int j;
        for (j = 1; j <= HS_I(m, cmp_dyn, i); ++j) {
            int na = hs_hose_node(m, i, j - 1), nb = hs_hose_node(m, i, j);
            double vj = fs[k + j - 1];
            double ke = mass * vj * hs_hose_accel(par, HS_D(m, rho), hs_node_p(m, p, na) - hs_node_p(m, p, nb), vj);
            hs_audit_flow(m, p, na, nb, A * vj, qin, P);
            P[HS_PW_LOSS] -= ke; /* the oil's kinetic energy: stored */
            P[HS_PW_STORE] += ke;
        }
        return A * fs[k];
    }
#if HS_MOT_ON
    if (type == HS_CMP_MOTOR) { /* the hydraulic power Q dp in, the joint's T zdot out */
        Q = hs_motor_flow(par, dp, wm);
        hs_audit_flow(m, p, a, b, Q, qin, P);
        P[HS_PW_LOSS] -= Tm * wm;
        return Q;
    }
#endif
    Q = hs_component_flow(m, i, p, fs, U, &rate, &Q2);
    hs_audit_flow(m, p, a, b, Q, qin, P);
    if (type == HS_CMP_SHUTTLE) { /* its second input's seat; its flow: all that enters to */
        hs_audit_flow(m, p, HS_I(m, cmp_ref, i), b, Q2, qin, P);
        return Q + Q2;
    }
    if (hs_cmp_is_pump(type)) { /* the shaft */
        double eps = type == HS_CMP_PUMP ? 1.0 : fs[k];
        double shaft = eps * hs_pump_qgeo(par) * (-dp + (1.0 / par[HS_CP_PU_ETAHM] - 1.0) * fabs(dp));
        if (par[HS_CP_PU_DROOP] > 0.0) shaft *= hs_pump_speed_ratio(par, eps, -dp); /* at its speed */
        P[HS_PW_IN] += shaft;
        P[HS_PW_LOSS] += shaft;
    }
    return Q;
}

/* The audit at pressures p (nvol), component states fs (nfs) and spools U (ndcv), for the
 * geometry, forces and motor rates in o (hs_hydraulics at this state): P[HS_PW_IN, LOSS,
 * STORE], W. Pel (NULL: not wanted; ((nthr + ndcv + ncmp + 2) x HS_NPW)): each element's
 * share, the throttles', valves' and components' rows, then the seals' and end stops' (lost)
 * and the volumes' oil and gas (stored): simulate's energy table. With Pel NULL the sums are
 * taken in the same order as with it absent, so the kernels' results do not change. */
HS_HD static inline void hs_hydraulic_power(const hs_mview *m, const double *p, const double *fs, const double *U,
                                            const hs_hyd *o, double *P, double *Pel)
{
    double qin[HS_CAP_VOLS], dV[HS_CAP_VOLS]; /* (nvol) */
    double *Pe = P;
    int i, v, c, e = 0, ne = HS_N(m, nthr) + HS_N(m, ndcv) + HS_N(m, ncmp);
    P[HS_PW_IN] = P[HS_PW_LOSS] = P[HS_PW_STORE] = 0.0;
    if (Pel)
        for (i = 0; i < (ne + 2) * HS_NPW; ++i) Pel[i] = 0.0;
    HS_UNROLL
    for (v = 0; v < HS_N(m, nvol); ++v) qin[v] = dV[v] = 0.0;
    HS_UNROLL
    for (c = 0; c < HS_N(m, ncyl); ++c) { /* the chambers' growth; seal friction and end stops */
        double loss = (hs_pressure_force(m, p, c) - o->F[c]) * o->sd[c];
        dV[HS_I(m, cyl_vol_p, c)] = HS_D(m, cyl_Ap)[c] * o->sd[c];
        dV[HS_I(m, cyl_vol_r, c)] = -HS_D(m, cyl_Ar)[c] * o->sd[c];
        P[HS_PW_LOSS] += loss;
        if (Pel) Pel[ne * HS_NPW + HS_PW_LOSS] += loss;
    }
    HS_UNROLL
    for (i = 0; i < HS_N(m, nthr); ++i, ++e) {
        if (Pel) Pe = Pel + e * HS_NPW;
        (void)hs_audit_throttle(m, p, i, qin, Pe);
    }
    HS_UNROLL
    for (i = 0; i < HS_N(m, ndcv); ++i, ++e) {
        double qA, qB;
        if (Pel) Pe = Pel + e * HS_NPW;
        hs_audit_valve(m, p, U, i, qin, Pe, &qA, &qB);
    }
    HS_UNROLL
    for (i = 0; i < HS_N(m, ncmp); ++i, ++e) {
        if (Pel) Pe = Pel + e * HS_NPW;
#if HS_MOT_ON
        int mo = HS_I(m, cmp_type, i) == HS_CMP_MOTOR ? HS_I(m, cmp_mot, i) : 0;
        (void)hs_audit_component(m, p, fs, U, o->wm[mo], o->Tm[mo], i, qin, Pe);
#else
        (void)hs_audit_component(m, p, fs, U, 0.0, 0.0, i, qin, Pe);
#endif
    }
    if (Pel) /* the elements' shares make up P */
        for (e = 0; e < ne; ++e)
            for (c = 0; c < HS_NPW; ++c) P[c] += Pel[e * HS_NPW + c];
    HS_UNROLL
    for (v = 0; v < HS_N(m, nvol); ++v) /* p (qin - dV/dt) = p C p' */
        if (HS_I(m, vol_model, v) != HS_VOL_SP) {
            double st = p[v] * (qin[v] - dV[v]);
            P[HS_PW_STORE] += st;
            if (Pel) Pel[(ne + 1) * HS_NPW + HS_PW_STORE] += st;
        }
}

/* One element's flow or dissipated power at state s, as the audit counts it: the signals of
 * docs/sweep-format.md "Flows and losses". what: 0 Q_<throttle> (a -> b), 1 P_loss_<throttle>,
 * 2 Q_<valve>_A, 3 Q_<valve>_B (into the ports; a seat valve's: into A, and from A to T), 4
 * P_loss_<valve> (both open edges), 5
 * Q_<component> (from -> to; a hose's at its from end, a shuttle's into its output), 6
 * P_loss_<component> (a pump's shaft losses included; a motor's the hydraulic power it does not
 * turn into work). */
HS_HD static inline double hs_element_signal(const hs_mview *m, const hs_state *s, int what, int i)
{
    double qin[HS_CAP_VOLS], P[HS_NPW] = {0.0, 0.0, 0.0}, Q = 0.0, qA, qB; /* qin: (nvol), not used */
    int v;
    for (v = 0; v < HS_N(m, nvol); ++v) qin[v] = 0.0;
    if (what <= 1) {
        Q = hs_audit_throttle(m, s->p, i, qin, P);
    } else if (what <= 4) {
        hs_audit_valve(m, s->p, s->U, i, qin, P, &qA, &qB);
        Q = what == 2 ? qA : qB;
        if (HS_I(m, dcv_kind, i) != HS_DCV_DIRECTIONAL) /* a seat valve: into A, and A -> T */
            Q = what == 2 ? qA + qB : s->U[i] >= 0.0 ? -qB : -qA;
    } else {
        double wm = 0.0, Tm = 0.0;
        if (HS_I(m, cmp_type, i) == HS_CMP_MOTOR) { /* its joint's rate: the relative coordinate's */
            wm = s->zd[HS_I(m, cmp_ref, i)];
            Tm = hs_motor_torque(HS_D(m, cmp_par)[i],
                                 hs_node_p(m, s->p, HS_I(m, cmp_a, i)) - hs_node_p(m, s->p, HS_I(m, cmp_b, i)), wm);
        }
        Q = hs_audit_component(m, s->p, s->fs, s->U, wm, Tm, i, qin, P);
    }
    return what == 1 || what == 4 || what == 6 ? P[HS_PW_LOSS] : Q;
}
#endif

#endif
