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
 * end's delivery into P[HS_PW_IN], and the flow into qin (nvol) as hs_hydraulic_rates puts it. */
HS_HD static inline void hs_audit_flow(const hs_mview *m, const double *p, int a, int b, double Q, double *qin,
                                       double *P)
{
    double pa = hs_node_p(m, p, a), pb = hs_node_p(m, p, b);
    P[HS_PW_LOSS] += Q * (pa - pb);
    if (a < HS_N(m, nvol)) qin[a] -= Q;
    else P[HS_PW_IN] += pa * Q;
    if (b < HS_N(m, nvol)) qin[b] += Q;
    else P[HS_PW_IN] -= pb * Q;
}

/* The audit at pressures p (nvol), component states fs (nfs) and spools U (ndcv), for the
 * geometry, forces and motor rates in o (hs_hydraulics at this state): P[HS_PW_IN, LOSS,
 * STORE], W. */
HS_HD static inline void hs_hydraulic_power(const hs_mview *m, const double *p, const double *fs, const double *U,
                                            const hs_hyd *o, double *P)
{
    double qin[HS_CAP_VOLS], dV[HS_CAP_VOLS]; /* (nvol) */
    int i, v, c;
    P[HS_PW_IN] = P[HS_PW_LOSS] = P[HS_PW_STORE] = 0.0;
    HS_UNROLL
    for (v = 0; v < HS_N(m, nvol); ++v) qin[v] = dV[v] = 0.0;
    HS_UNROLL
    for (c = 0; c < HS_N(m, ncyl); ++c) { /* the chambers' growth; seal friction and end stops */
        dV[HS_I(m, cyl_vol_p, c)] = HS_D(m, cyl_Ap)[c] * o->sd[c];
        dV[HS_I(m, cyl_vol_r, c)] = -HS_D(m, cyl_Ar)[c] * o->sd[c];
        P[HS_PW_LOSS] += (hs_pressure_force(m, p, c) - o->F[c]) * o->sd[c];
    }
    HS_UNROLL
    for (i = 0; i < HS_N(m, nthr); ++i)
        hs_audit_flow(m, p, HS_I(m, thr_a, i), HS_I(m, thr_b, i),
                      hs_orifice_flow(HS_D(m, thr_Cv)[i],
                                      hs_node_p(m, p, HS_I(m, thr_a, i)) - hs_node_p(m, p, HS_I(m, thr_b, i)),
                                      HS_D(m, thr_dplim)[i]),
                      qin, P);
    HS_UNROLL
    for (i = 0; i < HS_N(m, ndcv); ++i) { /* the two open edges: P -> A, B -> T or P -> B, A -> T */
        double qA, qB;
        int A = HS_I(m, dcv_A, i), B = HS_I(m, dcv_B, i);
        hs_valve_flows(m, i, p, U, &qA, &qB);
        hs_audit_flow(m, p, HS_I(m, dcv_P, i), U[i] >= 0.0 ? A : B, U[i] >= 0.0 ? qA : qB, qin, P);
        hs_audit_flow(m, p, U[i] >= 0.0 ? B : A, HS_I(m, dcv_T, i), U[i] >= 0.0 ? -qB : -qA, qin, P);
    }
    HS_UNROLL
    for (i = 0; i < HS_N(m, ncmp); ++i) {
        const double *par = HS_D(m, cmp_par)[i];
        int a = HS_I(m, cmp_a, i), b = HS_I(m, cmp_b, i), k = HS_I(m, cmp_fs0, i), type = HS_I(m, cmp_type, i);
        double rate, dp = hs_node_p(m, p, a) - hs_node_p(m, p, b);
        if (type == HS_CMP_ACCUMULATOR) continue; /* its gas: its volume's capacitance */
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
            continue;
        }
#if HS_MOT_ON
        if (type == HS_CMP_MOTOR) { /* the hydraulic power Q dp in, the joint's T zdot out */
            int mo = HS_I(m, cmp_mot, i);
            hs_audit_flow(m, p, a, b, hs_motor_flow(par, dp, o->wm[mo]), qin, P);
            P[HS_PW_LOSS] -= o->Tm[mo] * o->wm[mo];
            continue;
        }
#endif
        hs_audit_flow(m, p, a, b, hs_component_flow(m, i, p, fs, U, &rate), qin, P);
        if (hs_cmp_is_pump(type)) { /* the shaft */
            double eps = type == HS_CMP_PUMP ? 1.0 : fs[k];
            double shaft = eps * hs_pump_qgeo(par) * (-dp + (1.0 / par[HS_CP_PU_ETAHM] - 1.0) * fabs(dp));
            P[HS_PW_IN] += shaft;
            P[HS_PW_LOSS] += shaft;
        }
    }
    HS_UNROLL
    for (v = 0; v < HS_N(m, nvol); ++v) /* p (qin - dV/dt) = p C p' */
        if (HS_I(m, vol_model, v) != HS_VOL_SP) P[HS_PW_STORE] += p[v] * (qin[v] - dV[v]);
}
#endif

#endif
