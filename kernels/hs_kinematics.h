/* hs_kinematics.h -- semi-recursive kinematics of the spanning tree in relative coordinates
 * (seed 000 Sect. 2.1, eqs. 1-7; seed 004 Pub. I eqs. 1-6).
 *
 * Body velocities are Z_j = [sdot_j; w_j] (eq. 1): sdot_j is the velocity of the body-j point
 * that momentarily coincides with the global origin, w_j the angular velocity. The recursion
 * from the root outwards is Z_j = Z_parent + b_j zdot_j (eq. 2) and
 * Zdot_j = Zdot_parent + b_j zddot_j + d_j (eq. 3), where Zdot_j = [sddot_j; wdot_j] holds the
 * material acceleration of the point at the origin (that is what makes eq. 7 hold with
 * e_j = [w~ w~ g; 0]). We store Zd0_j, the body accelerations with zddot = 0, i.e. the
 * accumulated d terms (the product Rdot zdot of eq. 5). */
#ifndef HS_KINEMATICS_H
#define HS_KINEMATICS_H

#include "hs_linalg.h"
#include "hs_model.h"
#include "hs_rotvec.h"

typedef struct hs_kin {
    hs_real A[HS_CAP_BODIES][9]; /* rotation body -> global, row-major (nbody x 9) */
    hs_real p[HS_CAP_BODIES][3]; /* body-frame origin, global (nbody x 3) */
    /* the centre of mass and the joint point are computed where they are used (hs_kin_com,
     * hs_kin_joint_point): 48 B less per body in a GPU thread's local memory */
    hs_real b[HS_CAP_BODIES][6]; /* joint vectors b_j = [s part; w part] of eq. (2) (nbody x 6) */
    hs_real Z[HS_CAP_BODIES][6]; /* body velocities [sdot; w] (nbody x 6) */
    hs_real Zd0[HS_CAP_BODIES][6]; /* body accelerations at zddot = 0 (nbody x 6) */
#if HS_CAP_BALL
    hs_real zb[HS_CAP_BODIES]; /* a ball joint's bodies: their coordinates, phi_k, as the positions
                                  were computed at, for the velocities' d term (nbody) */
#endif
} hs_kin;

/* Each joint's last two (z, cos z, sin z) (nbody x 2 x 3), kept by a CPU build's integrator
 * (hs_work) when on is set (hs_trig_start): a tangent column (hs_tangent) moves one
 * coordinate and restores it, so the bodies below it are recomputed at coordinates they had
 * one column before, and two entries answer most of sin and cos, which take about a tenth of
 * a step's time on a CPU. Entries match by their bits (cos and sin are functions of them:
 * the same values as computing them again). Not on a GPU (local memory per thread), nor for
 * other hs_real types (host/engine/linearize.cpp's dual numbers carry derivatives). */
#if defined(HS_REAL_IS_DOUBLE) && !defined(__CUDACC__)
#define HS_TRIG_CACHE 1
typedef struct hs_trig {
    int on;
    double e[HS_CAP_BODIES][2][3]; /* (nbody x 2 x (z, cos z, sin z)), the newer first */
} hs_trig;

/* Empties the cache (NaN matches no coordinate) and turns it on. */
static inline void hs_trig_start(hs_trig *t)
{
    int j, r;
    for (j = 0; j < HS_CAP_BODIES; ++j)
        for (r = 0; r < 2; ++r) t->e[j][r][0] = t->e[j][r][1] = t->e[j][r][2] = NAN;
    t->on = 1;
}

/* a and b have the same bits (NaN is never the same: a NaN coordinate is computed anew).
 * Compared as values, not through memory, so that gcc still makes one sincos call of the
 * cos and sin that follow a miss. */
static inline int hs_same_bits(double a, double b)
{
    return a == b && !signbit(a) == !signbit(b);
}
#else
#define HS_TRIG_CACHE 0
typedef struct hs_trig {
    int on;
} hs_trig;
#endif

/* cos q and sin q of joint j's coordinate q, from the cache t if it is on and holds them. */
HS_HD static inline void hs_kin_cos_sin(hs_trig *t, int j, hs_real q, hs_real *c, hs_real *s)
{
#if HS_TRIG_CACHE
    if (t && t->on) {
        double(*e)[3] = t->e[j];
        int r;
        if (hs_same_bits(e[0][0], q)) {
            *c = e[0][1];
            *s = e[0][2];
            return;
        }
        if (hs_same_bits(e[1][0], q)) {
            *c = e[1][1];
            *s = e[1][2];
            return;
        }
        {
            hs_real cq = cos(q), sq = sin(q);
            for (r = 0; r < 3; ++r) e[1][r] = e[0][r];
            e[0][0] = q;
            e[0][1] = *c = cq;
            e[0][2] = *s = sq;
        }
        return;
    }
#else
    (void)t;
    (void)j;
#endif
    *c = cos(q);
    *s = sin(q);
}

/* The point of revolute joint j, global: at_parent in its parent's frame (whose positions k
 * holds). hs_kin_positions computes it the same way, so the two agree to the bit. */
HS_HD static inline void hs_kin_joint_point(const hs_mview *m, const hs_kin *k, int j, hs_real o[3])
{
    int par = HS_I(m, body_parent, j);
    hs_real c[3];
    if (par >= 0) {
        if (HS_I(m, joint_planar, j)) hs_m3_mulv_z(c, k->A[par], HS_D(m, joint_at_parent)[j]);
        else hs_m3_mulv(c, k->A[par], HS_D(m, joint_at_parent)[j]);
        hs_v3_axpy(o, k->p[par], 1.0, c);
    } else {
        hs_real I[9], z0[3];
        hs_m3_identity(I);
        hs_v3_set(z0, 0.0, 0.0, 0.0);
        hs_m3_mulv(c, I, HS_D(m, joint_at_parent)[j]);
        hs_v3_axpy(o, z0, 1.0, c);
    }
}

/* The centre of mass of body j, global. */
HS_HD static inline void hs_kin_com(const hs_mview *m, const hs_kin *k, int j, hs_real g[3])
{
    hs_real c[3];
    if (HS_I(m, joint_planar, j)) hs_m3_mulv_z(c, k->A[j], HS_D(m, body_com)[j]);
    else hs_m3_mulv(c, k->A[j], HS_D(m, body_com)[j]);
    hs_v3_axpy(g, k->p[j], 1.0, c);
}

/* Positions, orientations and joint vectors b_j from the coordinates z (nz), of the bodies
 * whose bit is set in mask (bit j: body j); the others keep what k holds. A body's values
 * depend on its own coordinate and its ancestors' only, so after a change of z_i the bodies
 * of joint i's subtree (hs_subtree) are all that must be recomputed. tc: the integrator's
 * cache of cos and sin (hs_trig), or NULL. */
HS_HD static inline void hs_kin_positions_tc(const hs_mview *m, const hs_real *z, hs_kin *k, unsigned int mask,
                                             hs_trig *tc)
{
    int j;
    HS_UNROLL
    for (j = 0; j < HS_N(m, nbody); ++j) {
        int par = HS_I(m, body_parent, j);
        hs_real Ap[9], pp[3], R[9], T[9], loc[3], c[3], o[3];
        if (!((mask >> j) & 1u)) continue;
        if (par >= 0) {
            int q;
            for (q = 0; q < 9; ++q) Ap[q] = k->A[par][q];
            hs_v3_copy(pp, k->p[par]);
        } else {
            hs_m3_identity(Ap);
            hs_v3_set(pp, 0.0, 0.0, 0.0);
        }
        if (HS_I(m, joint_type, j) == HS_JOINT_REVOLUTE) {
            int ak = HS_I(m, joint_axis_kind, j);
            if (ak != 0) {
                hs_real cz, sz;
                hs_kin_cos_sin(tc, j, z[j], &cz, &sz);
                if (HS_I(m, joint_planar, j)) hs_m3_mul_zrot_cs(T, Ap, ak, cz, sz);
                else hs_m3_mul_axisrot_cs(T, Ap, ak, cz, sz);
            } else {
                hs_m3_rot(R, HS_D(m, joint_u)[j], z[j]);
                hs_m3_mul(T, Ap, R);
            }
            if (HS_I(m, joint_rot0_id, j)) hs_m3_copy(k->A[j], T);
            else hs_m3_mul(k->A[j], T, HS_D(m, joint_rot0)[j]);
            hs_kin_joint_point(m, k, j, o);
            /* b = [o x u; u]: a unit rotation about u through o moves the origin point by
             * u x (0 - o) = o x u */
            if (HS_I(m, joint_planar, j)) { /* u = (0, 0, uz): o x u as hs_v3_cross gives it */
                hs_real uz;
                hs_m3_mulv_z(k->b[j] + 3, Ap, HS_D(m, joint_u)[j]); /* the axis u, global */
                uz = k->b[j][5];
                k->b[j][0] = o[1] * uz;
                k->b[j][1] = -(o[0] * uz);
                k->b[j][2] = 0.0;
            } else {
                hs_m3_mulv(k->b[j] + 3, Ap, HS_D(m, joint_u)[j]); /* the axis u, global */
                hs_v3_cross(k->b[j], o, k->b[j] + 3);
            }
#if HS_CAP_BALL
        } else if (HS_I(m, joint_type, j) == HS_JOINT_BALL) {
            /* body cb of a ball joint (hs_model.h): the rotation vector phi = z[g..g+2]. Its
             * column b = [o x t; t], t = A_P J(phi) e_cb (omega_rel = A_P J phi', hs_rotvec.h),
             * A_P the parent's rotation, which the two massless bodies keep; the child turns by
             * R(phi) rot0 about the joint point o */
            int cb = HS_I(m, joint_ball, j) - 1, g = j - cb, q;
            hs_real phi[3], J[9], tl[3];
            for (q = 0; q < 3; ++q) phi[q] = z[g + q];
            k->zb[j] = z[j];
            hs_kin_joint_point(m, k, j, o);
            hs_rotvec_J(phi, J);
            hs_v3_set(tl, J[cb], J[3 + cb], J[6 + cb]);
            hs_m3_mulv(k->b[j] + 3, Ap, tl);
            hs_v3_cross(k->b[j], o, k->b[j] + 3);
            if (cb < 2) {
                hs_m3_copy(k->A[j], Ap);
            } else {
                hs_rotvec_R(phi, R);
                hs_m3_mul(T, Ap, R);
                if (HS_I(m, joint_rot0_id, j)) hs_m3_copy(k->A[j], T);
                else hs_m3_mul(k->A[j], T, HS_D(m, joint_rot0)[j]);
            }
#endif
        } else {
            if (HS_I(m, joint_rot0_id, j)) hs_m3_copy(k->A[j], Ap);
            else hs_m3_mul(k->A[j], Ap, HS_D(m, joint_rot0)[j]);
            hs_v3_axpy(loc, HS_D(m, joint_at_parent)[j], z[j], HS_D(m, joint_u)[j]);
            hs_m3_mulv(c, Ap, loc);
            hs_v3_axpy(o, pp, 1.0, c);
            hs_m3_mulv(k->b[j], Ap, HS_D(m, joint_u)[j]); /* the axis u, global */
            hs_v3_set(k->b[j] + 3, 0.0, 0.0, 0.0);
        }
        if (HS_I(m, joint_planar, j)) hs_m3_mulv_z(c, k->A[j], HS_D(m, joint_at_child)[j]);
        else hs_m3_mulv(c, k->A[j], HS_D(m, joint_at_child)[j]);
        hs_v3_sub(k->p[j], o, c);
    }
}

/* The same without a cache. */
HS_HD static inline void hs_kin_positions_sub(const hs_mview *m, const hs_real *z, hs_kin *k, unsigned int mask)
{
    hs_kin_positions_tc(m, z, k, mask, (hs_trig *)0);
}

/* The bodies of joint i's subtree (bit j: body j, joint j's child; the joint's own body
 * included): those whose kinematics depend on z_i and zdot_i. A ball joint's coordinates move
 * the columns b of all three of its bodies: the subtree of its first. */
HS_HD static inline unsigned int hs_subtree(const hs_mview *m, int i)
{
    unsigned int s = 0u;
    int j;
#if HS_CAP_BALL
    if (HS_I(m, joint_ball, i)) i -= HS_I(m, joint_ball, i) - 1;
#endif
    HS_UNROLL
    for (j = 0; j < HS_N(m, nbody); ++j)
        if ((HS_I(m, body_anc, j) >> i) & 1u) s |= 1u << j;
    return s;
}

/* All bodies. */
HS_HD static inline void hs_kin_positions(const hs_mview *m, const hs_real *z, hs_kin *k)
{
    hs_kin_positions_sub(m, z, k, ~0u);
}

/* Velocities Z_j (eq. 2) and the zero-zddot accelerations Zd0_j (eq. 3, the d_j terms) of the
 * bodies in mask (as hs_kin_positions_sub). Requires hs_kin_positions at the same z. */
HS_HD static inline void hs_kin_velocities_sub(const hs_mview *m, const hs_real *zd, hs_kin *k, unsigned int mask)
{
    int j, q;
    HS_UNROLL
    for (j = 0; j < HS_N(m, nbody); ++j) {
        int par = HS_I(m, body_parent, j);
        hs_real wp[3], t1[3], t2[3], t3[3], o[3];
        hs_real *Z = k->Z[j], *D = k->Zd0[j];
        const hs_real *b = k->b[j];
        /* the joint axis, global: b = [o x u; u] for a revolute joint, [u; 0] for a prismatic */
        const hs_real *u = HS_I(m, joint_type, j) == HS_JOINT_REVOLUTE ? b + 3 : b;
        if (!((mask >> j) & 1u)) continue;
        if (par >= 0) {
            for (q = 0; q < 6; ++q) {
                Z[q] = k->Z[par][q];
                D[q] = k->Zd0[par][q];
            }
        } else {
            for (q = 0; q < 6; ++q) Z[q] = D[q] = 0.0;
        }
        hs_v3_copy(wp, Z + 3);
        if (HS_I(m, joint_planar, j)) {
            /* A revolute joint about +-z whose path turns about z only (hs_model_derive):
             * b = [bx, by, 0; 0, 0, +-1] and w_p = (0, 0, W_p), exact zeros. The terms below
             * are those of the general form that are not products with them: w_p x u = 0,
             * and w x (w x o) = -W^2 (ox, oy, 0), evaluated in the general form's order (the
             * same values; a zero may differ in sign), about a third of its flops. */
            hs_real Wp = wp[2], W;
            Z[0] += b[0] * zd[j];
            Z[1] += b[1] * zd[j];
            Z[5] += b[5] * zd[j];
            W = Z[5];
            hs_kin_joint_point(m, k, j, o);
            D[0] += (-(Wp * (Wp * o[0]))) - (-(W * (W * o[0])));
            D[1] += (-(Wp * (Wp * o[1]))) - (-(W * (W * o[1])));
            continue;
        }
        for (q = 0; q < 6; ++q) Z[q] += b[q] * zd[j];
#if HS_CAP_BALL
        if (HS_I(m, joint_type, j) == HS_JOINT_BALL) {
            /* the child of a ball joint (its two massless bodies add no d term): with
             * omega_rel = A_P J phi' (Z[3..5] - w_P now), its time derivative at phi'' = 0 is
             * w_P x omega_rel + A_P J' phi' (hs_rotvec_Jdot_pd), and the joint point's one
             * acceleration in both bodies gives the translational part as for a revolute
             * joint: o x wdot_rel + w_P x (w_P x o) - w_j x (w_j x o) */
            if (HS_I(m, joint_ball, j) == 3) {
                int g = j - 2, pg = HS_I(m, body_parent, j - 2);
                hs_real phi[3], pd[3], jd[3], wr[3], wP[3];
                for (q = 0; q < 3; ++q) {
                    phi[q] = k->zb[g + q];
                    pd[q] = zd[g + q];
                    wP[q] = pg >= 0 ? k->Z[pg][3 + q] : 0.0;
                    wr[q] = Z[3 + q] - wP[q];
                }
                hs_rotvec_Jdot_pd(phi, pd, t1);
                hs_m3_mulv(jd, k->A[g], t1); /* A_P: the massless bodies' frame */
                hs_v3_cross(t2, wP, wr);
                for (q = 0; q < 3; ++q) t1[q] = t2[q] + jd[q];
                for (q = 0; q < 3; ++q) D[3 + q] += t1[q];
                hs_kin_joint_point(m, k, j, o);
                hs_v3_cross(t2, o, t1);
                for (q = 0; q < 3; ++q) D[q] += t2[q];
                hs_v3_cross2(t2, wP, o);
                hs_v3_cross2(t3, Z + 3, o);
                for (q = 0; q < 3; ++q) D[q] += t2[q] - t3[q];
            }
            continue;
        }
#endif
        if (HS_I(m, joint_type, j) == HS_JOINT_REVOLUTE) {
            /* wdot_j = wdot_p + u zdd + (w_p x u) zd: the axis turns with the parent.
             * The joint point has one acceleration in both bodies, which gives
             * sdd_j = sdd_p + (o x u) zdd - (w_p x u zd) x o + w_p x (w_p x o)
             *         - w_j x (w_j x o). */
            hs_kin_joint_point(m, k, j, o);
            hs_v3_cross(t1, wp, u);
            for (q = 0; q < 3; ++q) t1[q] *= zd[j];
            for (q = 0; q < 3; ++q) D[3 + q] += t1[q];
            hs_v3_cross(t2, t1, o);
            for (q = 0; q < 3; ++q) D[q] -= t2[q];
            hs_v3_cross2(t2, wp, o);
            hs_v3_cross2(t3, Z + 3, o);
            for (q = 0; q < 3; ++q) D[q] += t2[q] - t3[q];
        } else {
            /* sliding along an axis fixed in the parent: Coriolis term 2 w_p x u zd */
            hs_v3_cross(t1, wp, u);
            for (q = 0; q < 3; ++q) D[q] += 2.0 * t1[q] * zd[j];
        }
    }
}

/* All bodies. */
HS_HD static inline void hs_kin_velocities(const hs_mview *m, const hs_real *zd, hs_kin *k)
{
    hs_kin_velocities_sub(m, zd, k, ~0u);
}

/* Global position of the body-frame point c of body j (-1: ground). */
HS_HD static inline void hs_kin_point(const hs_kin *k, int j, const double c[3], hs_real r[3])
{
    if (j < 0) {
        hs_v3_copy(r, c);
    } else {
        hs_real t[3];
        hs_m3_mulv(t, k->A[j], c);
        hs_v3_axpy(r, k->p[j], 1.0, t);
    }
}

/* Global direction of the body-frame vector c of body j. */
HS_HD static inline void hs_kin_dir(const hs_kin *k, int j, const double c[3], hs_real r[3])
{
    if (j < 0) hs_v3_copy(r, c);
    else hs_m3_mulv(r, k->A[j], c);
}

/* Velocity of the body-j material point at global position r: sdot + w x r. */
HS_HD static inline void hs_kin_point_vel(const hs_kin *k, int j, const hs_real r[3], hs_real v[3])
{
    if (j < 0) {
        hs_v3_set(v, 0.0, 0.0, 0.0);
    } else {
        hs_real t[3];
        hs_v3_cross(t, k->Z[j] + 3, r);
        hs_v3_axpy(v, k->Z[j], 1.0, t);
    }
}

/* Acceleration at zddot = 0 of the body-j material point at r: sdd0 + wd0 x r + w x (w x r). */
HS_HD static inline void hs_kin_point_acc0(const hs_kin *k, int j, const hs_real r[3], hs_real a[3])
{
    if (j < 0) {
        hs_v3_set(a, 0.0, 0.0, 0.0);
    } else {
        hs_real t[3], s[3];
        hs_v3_cross(t, k->Zd0[j] + 3, r);
        hs_v3_cross2(s, k->Z[j] + 3, r);
        a[0] = k->Zd0[j][0] + t[0] + s[0];
        a[1] = k->Zd0[j][1] + t[1] + s[1];
        a[2] = k->Zd0[j][2] + t[2] + s[2];
    }
}

#endif
