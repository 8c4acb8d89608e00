/* hs_constraints.h -- loop-closure constraints of the cut joints: Phi(z), the Jacobian Phi_z
 * and the velocity-product term (Phidot_z zdot), all analytic (seed 000 eqs. 13-21).
 *
 * Every equation is a dot product of body-fixed vectors (see include/hs/model.h):
 *   DD: phi = u . v            u = A_a u_a,  v = A_b v_b
 *   DP: phi = v . (ra - rb)    ra = r_a(pa), rb = r_b(pb)
 * A body-fixed vector x of body j changes with joint k (on the path root..j) as
 * dx/dz_k = w_k x x, and a body point as dr/dz_k = b_k^s + w_k x r, where [b_k^s; w_k] = b_k
 * (the velocity of the body for a unit joint rate, eq. 2). The velocity product is phi's
 * second time derivative at zddot = 0, from the Zd0 accelerations.
 *
 * A nonholonomic row (HS_CON_NH, seed 001 eqs. 11 and 14) is B zdot = v . (vel_b(r) - vel_a(r))
 * at r = r_b(pb), v = A_b v_b: its Jacobian row is B, its velocity product d/dt (B zdot) at
 * zddot = 0, and it has no position-level value (hs_constraints_phi gives 0: the integrator
 * supplies its velocity-level value, hs_integrator.h). */
#ifndef HS_CONSTRAINTS_H
#define HS_CONSTRAINTS_H

#include "hs_kinematics.h"

/* Is joint k on the path root..j?  (j = -1: ground has no joints) */
HS_HD static inline int hs_on_path(const hs_mview *m, int j, int k)
{
    return j >= 0 && ((HS_I(m, body_anc, j) >> k) & 1u);
}

/* Phi (ncon). Needs hs_kin_positions. */
HS_HD static inline void hs_constraints_phi(const hs_mview *m, const hs_kin *k, hs_real *phi)
{
    int e;
    for (e = 0; e < HS_N(m, ncon); ++e) {
        int a = HS_I(m, con_body_a, e), b = HS_I(m, con_body_b, e);
        hs_real v[3];
        if (HS_I(m, con_type, e) == HS_CON_NH) { /* velocity level: no position value */
            phi[e] = 0.0;
            continue;
        }
        hs_kin_dir(k, b, HS_D(m, con_v)[e], v);
        if (HS_I(m, con_type, e) == HS_CON_DD) {
            hs_real u[3];
            hs_kin_dir(k, a, HS_D(m, con_u)[e], u);
            phi[e] = hs_v3_dot(u, v);
        } else {
            hs_real ra[3], rb[3], d[3];
            hs_kin_point(k, a, HS_D(m, con_pa)[e], ra);
            hs_kin_point(k, b, HS_D(m, con_pb)[e], rb);
            hs_v3_sub(d, ra, rb);
            phi[e] = hs_v3_dot(v, d);
        }
    }
}

/* Jacobian Phi_z (ncon x nz, row-major, leading dimension ldj). Needs hs_kin_positions. */
HS_HD static inline void hs_constraints_jac(const hs_mview *m, const hs_kin *k, hs_real *J, int ldj)
{
    int e, q;
    for (e = 0; e < HS_N(m, ncon); ++e) {
        int a = HS_I(m, con_body_a, e), b = HS_I(m, con_body_b, e);
        /* zeroed: each is set and used in one branch only, which gcc 13 cannot follow */
        hs_real v[3], u[3] = {0.0, 0.0, 0.0}, ra[3] = {0.0, 0.0, 0.0}, rb[3] = {0.0, 0.0, 0.0},
               d[3] = {0.0, 0.0, 0.0};
        hs_kin_dir(k, b, HS_D(m, con_v)[e], v);
        if (HS_I(m, con_type, e) == HS_CON_DD) {
            hs_kin_dir(k, a, HS_D(m, con_u)[e], u);
        } else {
            hs_kin_point(k, b, HS_D(m, con_pb)[e], rb);
            if (HS_I(m, con_type, e) == HS_CON_DP) {
                hs_kin_point(k, a, HS_D(m, con_pa)[e], ra);
                hs_v3_sub(d, ra, rb);
            }
        }
        for (q = 0; q < HS_N(m, nz); ++q) {
            const hs_real *bs = k->b[q], *wk = k->b[q] + 3;
            int ina = hs_on_path(m, a, q), inb = hs_on_path(m, b, q);
            hs_real s = 0.0, t[3], dr[3];
            if (HS_I(m, con_type, e) == HS_CON_DD) {
                if (ina) {
                    hs_v3_cross(t, wk, u);
                    s += hs_v3_dot(t, v);
                }
                if (inb) {
                    hs_v3_cross(t, wk, v);
                    s += hs_v3_dot(u, t);
                }
            } else if (HS_I(m, con_type, e) == HS_CON_NH) {
                /* B's entry: the velocity of the material points of b and a at rb per unit
                 * rate of joint q (a joint on both paths moves both alike: no entry) */
                if (ina != inb) {
                    hs_v3_cross(t, wk, rb);
                    hs_v3_axpy(dr, bs, 1.0, t);
                    s = (inb ? 1.0 : -1.0) * hs_v3_dot(v, dr);
                }
            } else {
                hs_v3_set(dr, 0.0, 0.0, 0.0);
                if (ina) {
                    hs_v3_cross(t, wk, ra);
                    dr[0] += bs[0] + t[0];
                    dr[1] += bs[1] + t[1];
                    dr[2] += bs[2] + t[2];
                }
                if (inb) {
                    hs_v3_cross(t, wk, rb);
                    dr[0] -= bs[0] + t[0];
                    dr[1] -= bs[1] + t[1];
                    dr[2] -= bs[2] + t[2];
                    hs_v3_cross(t, wk, v);
                    s += hs_v3_dot(t, d);
                }
                s += hs_v3_dot(v, dr);
            }
            J[e * ldj + q] = s;
        }
    }
}

/* Velocity product c = Phidot_z zdot (ncon): phi's second derivative with zddot = 0.
 * Needs hs_kin_positions and hs_kin_velocities at the same state. */
HS_HD static inline void hs_constraints_vprod(const hs_mview *m, const hs_kin *k, hs_real *c)
{
    int e;
    for (e = 0; e < HS_N(m, ncon); ++e) {
        int a = HS_I(m, con_body_a, e), b = HS_I(m, con_body_b, e);
        hs_real v[3], vd[3], vdd[3], wb[3], ab[3], t[3];
        int q;
        hs_kin_dir(k, b, HS_D(m, con_v)[e], v);
        /* vdot = w_b x v, vddot = alpha0_b x v + w_b x (w_b x v) */
        if (b >= 0) {
            hs_v3_copy(wb, k->Z[b] + 3);
            hs_v3_copy(ab, k->Zd0[b] + 3);
        } else {
            hs_v3_set(wb, 0.0, 0.0, 0.0);
            hs_v3_set(ab, 0.0, 0.0, 0.0);
        }
        hs_v3_cross(vd, wb, v);
        hs_v3_cross(vdd, ab, v);
        hs_v3_cross2(t, wb, v);
        for (q = 0; q < 3; ++q) vdd[q] += t[q];
        if (HS_I(m, con_type, e) == HS_CON_NH) {
            /* d/dt [v . (vel_b(r) - vel_a(r))] at zddot = 0, r = r_b(pb) moving with b:
             * vdot . dv + v . (acc0_b(r) - acc0_a(r) - w_a x dv), dv = vel_b(r) - vel_a(r)
             * (the field of a at the moving point: d/dt vel_a(r) = acc0_a(r) + w_a x rdot') */
            hs_real rb[3], va[3], vb[3], dv[3], aa0[3], ab0[3], wa[3], wdv[3];
            hs_kin_point(k, b, HS_D(m, con_pb)[e], rb);
            hs_kin_point_vel(k, a, rb, va);
            hs_kin_point_vel(k, b, rb, vb);
            hs_v3_sub(dv, vb, va);
            hs_kin_point_acc0(k, a, rb, aa0);
            hs_kin_point_acc0(k, b, rb, ab0);
            if (a >= 0) hs_v3_copy(wa, k->Z[a] + 3);
            else hs_v3_set(wa, 0.0, 0.0, 0.0);
            hs_v3_cross(wdv, wa, dv);
            for (q = 0; q < 3; ++q) ab0[q] -= aa0[q] + wdv[q];
            c[e] = hs_v3_dot(vd, dv) + hs_v3_dot(v, ab0);
        } else if (HS_I(m, con_type, e) == HS_CON_DD) {
            hs_real u[3], ud[3], udd[3], wa[3], aa[3];
            hs_kin_dir(k, a, HS_D(m, con_u)[e], u);
            if (a >= 0) {
                hs_v3_copy(wa, k->Z[a] + 3);
                hs_v3_copy(aa, k->Zd0[a] + 3);
            } else {
                hs_v3_set(wa, 0.0, 0.0, 0.0);
                hs_v3_set(aa, 0.0, 0.0, 0.0);
            }
            hs_v3_cross(ud, wa, u);
            hs_v3_cross(udd, aa, u);
            hs_v3_cross2(t, wa, u);
            for (q = 0; q < 3; ++q) udd[q] += t[q];
            c[e] = hs_v3_dot(udd, v) + 2.0 * hs_v3_dot(ud, vd) + hs_v3_dot(u, vdd);
        } else {
            hs_real ra[3], rb[3], d[3], va[3], vb[3], dd[3], aa0[3], ab0[3], ddd[3];
            hs_kin_point(k, a, HS_D(m, con_pa)[e], ra);
            hs_kin_point(k, b, HS_D(m, con_pb)[e], rb);
            hs_v3_sub(d, ra, rb);
            hs_kin_point_vel(k, a, ra, va);
            hs_kin_point_vel(k, b, rb, vb);
            hs_v3_sub(dd, va, vb);
            hs_kin_point_acc0(k, a, ra, aa0);
            hs_kin_point_acc0(k, b, rb, ab0);
            hs_v3_sub(ddd, aa0, ab0);
            c[e] = hs_v3_dot(vdd, d) + 2.0 * hs_v3_dot(vd, dd) + hs_v3_dot(v, ddd);
        }
    }
}

#endif
