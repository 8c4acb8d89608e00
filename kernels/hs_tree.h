/* hs_tree.h -- an open tree of rigid bodies of any size, and its kinematics (seed 002).
 *
 * The step's formulations hold a model's bodies in hs_model's fixed arrays, sized for one GPU
 * thread (HS_MAX_BODIES). A chain of 33 334 bodies (seed 002 Sect. 5.2) does not fit them, so
 * the Riccati transfer matrix method (hs_riccati.h) reads its tree through this view: the
 * same per-body data as hs_model's (frames, joints, inertias, in the same layout), as
 * pointers into arrays of any length that the caller owns. A model's own tree is a view of
 * its arrays (hs_tree_of_model); a generated chain brings its own (host/tree_gen.c).
 *
 * Joints: revolute and prismatic as hs_model's (one coordinate), and ball joints (seed 002
 * Sect. 2.2 (3)): three rotational degrees of freedom, the relative rotation held as a unit
 * quaternion (w, x, y, z) and the velocity as the relative angular velocity in the child's
 * frame (Pinocchio's convention). A quaternion has no singular orientation, unlike any
 * three-angle set (gimbal lock at 90 deg), so a run never meets one; hs_tree_rk4.h
 * renormalises it after each step, which bounds its drift to the integrator's error.
 *
 * Everything here is HS_HD and allocates nothing: the caller passes a work array of
 * HS_TREE_NW doubles per body. */
#ifndef HS_TREE_H
#define HS_TREE_H

#include "hs_linalg.h"
#include "hs_model.h"

typedef struct hs_tree {
    int nbody;
    int nq, nv; /* position and velocity coordinates (hs_tree_count) */
    const int *parent; /* -1: ground; parent < child (nbody) */
    const int *jtype; /* enum hs_joint_type (nbody) */
    const int *iq; /* first position coordinate of joint j; NULL: j (nbody) */
    const int *iv; /* first velocity coordinate of joint j; NULL: j (nbody) */
    const double *mass; /* kg (nbody) */
    const double *com; /* centre of mass, body frame (nbody x 3) */
    const double *inertia; /* about the com, body frame: xx yy zz xy xz yz (nbody x 6) */
    const double *at_parent; /* joint point, parent frame (global if ground) (nbody x 3) */
    const double *at_child; /* joint point, child frame (nbody x 3) */
    const double *axis; /* unit axis, parent frame: revolute, prismatic (nbody x 3) */
    const double *rot0; /* fixed rotation parent -> child, row-major; NULL: identity (nbody x 9) */
    double gravity[3]; /* m/s^2 */
    const hs_model *ext; /* the external loads and their signals (nload, load_*, nsignal,
                            knots, sig_*; load_body indexes this tree; nothing else of it is
                            read); NULL: gravity only */
    hs_real time; /* s: the time of the state evaluated (the loads' signals) */
} hs_tree;

/* Per-body work (doubles): kinematics, then the Riccati coefficients and accelerations. 78
 * doubles (624 B) per body: a chain of 33 334 bodies streams its work through the caches four
 * times per evaluation, so what can be recomputed cheaply (the centre of mass: hs_tree_com)
 * or has structural zeros (zeta's other half, K's other columns) is not stored. */
enum {
    HS_TW_A = 0, /* rotation body -> global, row-major (9) */
    HS_TW_O = 9, /* the joint point, global (3) */
    HS_TW_W = 12, /* angular velocity, global (3) */
    HS_TW_V = 15, /* velocity of the joint point as a point of the body (3) */
    HS_TW_ZETA = 18, /* the joint's velocity-product accelerations: the Omega' half of [r''; Omega']
                        (revolute, ball) or the r'' half (prismatic), the other half 0 (3) */
    HS_TW_S = 21, /* Riccati matrix S at the joint, body side, row-major (6 x 6) */
    HS_TW_E = 57, /* Riccati vector e (6) */
    HS_TW_ACC = 63, /* accelerations [r''; Omega'] of the body at its joint point (6) */
    HS_TW_K = 69, /* the hinge's gain: theta'' = -K (S (a_parent + zeta) + e)_rows, K (k x 3) on the
                     moment rows (revolute, ball) or the force rows (prismatic), k <= 3 (9) */
    HS_TREE_NW = 78
};

/* Scratch of an RK4 step (hs_tree_rk4.h), in multiples of nq + nv: the stage's state, its rate
 * and the weighted sum of the rates (the classical tableau's four rates are never needed at
 * once). */
#define HS_TREE_RK4_NSCRATCH 3

/* The half of [r''; Omega'] (and of [m; q]) that joint type ty's zeta and K act on: 3 for the
 * rotational half (revolute, ball), 0 for the translational one (prismatic). */
HS_HD static inline int hs_tree_zeta_at(int ty)
{
    return ty == HS_JOINT_PRISMATIC ? 0 : 3;
}

/* Position and velocity coordinates of a joint of type t. */
HS_HD static inline int hs_joint_nq(int t)
{
    return t == HS_JOINT_BALL ? 4 : 1;
}
HS_HD static inline int hs_joint_nv(int t)
{
    return t == HS_JOINT_BALL ? 3 : 1;
}

/* Joint j's first position / velocity coordinate. */
HS_HD static inline int hs_tree_iq(const hs_tree *t, int j)
{
    return t->iq ? t->iq[j] : j;
}
HS_HD static inline int hs_tree_iv(const hs_tree *t, int j)
{
    return t->iv ? t->iv[j] : j;
}

/* The tree of a model's spanning tree: a view of its arrays (revolute and prismatic joints,
 * one coordinate each, so iq = iv = j). */
HS_HD static inline void hs_tree_of_model(const hs_model *m, hs_tree *t)
{
    t->nbody = m->nbody;
    t->nq = t->nv = m->nbody;
    t->parent = m->body_parent;
    t->jtype = m->joint_type;
    t->iq = t->iv = (const int *)0;
    t->mass = m->body_mass;
    t->com = &m->body_com[0][0];
    t->inertia = &m->body_inertia[0][0];
    t->at_parent = &m->joint_at_parent[0][0];
    t->at_child = &m->joint_at_child[0][0];
    t->axis = &m->joint_u[0][0];
    t->rot0 = &m->joint_rot0[0][0];
    t->gravity[0] = m->gravity[0];
    t->gravity[1] = m->gravity[1];
    t->gravity[2] = m->gravity[2];
    t->ext = m;
    t->time = 0.0;
}

/* rot0 (nbody x 9) for a tree's view: NULL when every joint's is exactly the identity, so that
 * the step reads no 72 B per body and evaluation that it does not need. */
HS_HD static inline const double *hs_tree_rot0_view(const double *rot0, long nbody)
{
    long j;
    int k;
    for (j = 0; j < nbody; ++j)
        for (k = 0; k < 9; ++k)
            if (rot0[9 * j + k] != (k % 4 == 0 ? 1.0 : 0.0)) return rot0;
    return (const double *)0;
}

/* Rotation matrix (row-major) of the quaternion (w, x, y, z), normalised here. */
HS_HD static inline void hs_quat_to_m3(const hs_real *q, hs_real R[9])
{
    hs_real n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    hs_real w = q[0] / n, x = q[1] / n, y = q[2] / n, z = q[3] / n;
    R[0] = 1 - 2 * (y * y + z * z);
    R[1] = 2 * (x * y - w * z);
    R[2] = 2 * (x * z + w * y);
    R[3] = 2 * (x * y + w * z);
    R[4] = 1 - 2 * (x * x + z * z);
    R[5] = 2 * (y * z - w * x);
    R[6] = 2 * (x * z - w * y);
    R[7] = 2 * (y * z + w * x);
    R[8] = 1 - 2 * (x * x + y * y);
}

/* r = A^T a. */
HS_HD static inline void hs_m3_tmulv(hs_real r[3], const hs_real A[9], const hs_real a[3])
{
    int i;
    for (i = 0; i < 3; ++i) r[i] = A[i] * a[0] + A[3 + i] * a[1] + A[6 + i] * a[2];
}

/* The centre of mass of body j, global, from its work wj: o - A at_child + A com. */
HS_HD static inline void hs_tree_com(const hs_tree *t, int j, const hs_real *wj, hs_real c[3])
{
    hs_real d[3], x[3];
    int i;
    for (i = 0; i < 3; ++i) d[i] = t->com[3L * j + i] - t->at_child[3L * j + i];
    hs_m3_mulv(x, wj + HS_TW_A, d);
    hs_v3_axpy(c, wj + HS_TW_O, 1.0, x);
}

/* Positions, velocities and the velocity-product accelerations zeta of every body, root to
 * tip, into w (nbody x HS_TREE_NW). Joint j moves its child relative to the parent:
 *   revolute:  A_j = A_p Rot(u, q) rot0, Omega_j = Omega_p + u_g q', zeta = [0; Omega_p x u_g q']
 *              (the joint point is one point of both bodies: no translational term);
 *   prismatic: A_j = A_p rot0, the point slides along u_g: zeta = [2 Omega_p x u_g q'; 0];
 *   ball:      A_j = A_p R(quat) rot0, Omega_j = Omega_p + A_j nu,
 *              zeta = [0; Omega_p x A_j nu] (d/dt (A_j nu) = A_j nu' + Omega_j x A_j nu).
 * Each body's S and e are zeroed here too (a free tip, eq. 34, before hs_riccati_forward adds
 * to them): one pass over the work fewer than a separate loop. */
HS_HD static inline void hs_tree_kinematics(const hs_tree *t, const hs_real *q, const hs_real *v, hs_real *w)
{
    int j, i;
    for (j = 0; j < t->nbody; ++j) {
        hs_real *wj = w + (long)j * HS_TREE_NW;
        hs_real *A = wj + HS_TW_A, *o = wj + HS_TW_O, *om = wj + HS_TW_W, *vo = wj + HS_TW_V, *ze = wj + HS_TW_ZETA;
        int par = t->parent[j], ty = t->jtype[j], k = hs_tree_iq(t, j), kv = hs_tree_iv(t, j);
        hs_real Ap[9], op[3], wp[3], vp[3], R[9], T[9], loc[3], ug[3], d[3], x[3], R0[9], zf[3];
        const double *rot0 = t->rot0 ? t->rot0 + 9L * j : (const double *)0;
        if (par >= 0) {
            const hs_real *wpj = w + (long)par * HS_TREE_NW;
            for (i = 0; i < 9; ++i) Ap[i] = wpj[HS_TW_A + i];
            hs_v3_copy(op, wpj + HS_TW_O);
            hs_v3_copy(wp, wpj + HS_TW_W);
            hs_v3_copy(vp, wpj + HS_TW_V);
        } else {
            hs_m3_identity(Ap);
            hs_v3_set(op, 0.0, 0.0, 0.0);
            hs_v3_set(wp, 0.0, 0.0, 0.0);
            hs_v3_set(vp, 0.0, 0.0, 0.0);
        }
        /* the parent's origin: its joint point minus its at_child (ground: the origin) */
        if (par >= 0) {
            hs_m3_mulv(x, Ap, t->at_child + 3L * par);
            hs_v3_sub(op, op, x);
        }
        for (i = 0; i < 3; ++i) loc[i] = t->at_parent[3L * j + i];
        if (ty == HS_JOINT_PRISMATIC)
            for (i = 0; i < 3; ++i) loc[i] += q[k] * t->axis[3L * j + i];
        hs_m3_mulv(x, Ap, loc);
        hs_v3_axpy(o, op, 1.0, x);
        if (ty == HS_JOINT_REVOLUTE) {
            hs_real u[3];
            for (i = 0; i < 3; ++i) u[i] = t->axis[3L * j + i];
            hs_m3_rot(R, u, q[k]);
            hs_m3_mul(T, Ap, R);
        } else if (ty == HS_JOINT_BALL) {
            hs_quat_to_m3(q + k, R);
            hs_m3_mul(T, Ap, R);
        } else {
            hs_m3_copy(T, Ap);
        }
        if (rot0) {
            for (i = 0; i < 9; ++i) R0[i] = rot0[i];
            hs_m3_mul(A, T, R0);
        } else {
            hs_m3_copy(A, T);
        }
        /* the parent's velocity at o (as a point of the parent): v_p + w_p x (o - o_p) */
        if (par >= 0) {
            hs_real opj[3];
            hs_v3_copy(opj, w + (long)par * HS_TREE_NW + HS_TW_O);
            hs_v3_sub(d, o, opj);
            hs_v3_cross(x, wp, d);
            hs_v3_axpy(vo, vp, 1.0, x);
        } else {
            hs_v3_set(vo, 0.0, 0.0, 0.0);
        }
        if (ty == HS_JOINT_REVOLUTE) {
            hs_m3_mulv(ug, Ap, t->axis + 3L * j);
            hs_v3_axpy(om, wp, v[kv], ug);
            hs_v3_cross(x, wp, ug);
            for (i = 0; i < 3; ++i) zf[i] = x[i] * v[kv];
        } else if (ty == HS_JOINT_BALL) {
            hs_real wr[3];
            hs_m3_mulv(wr, A, v + kv);
            hs_v3_axpy(om, wp, 1.0, wr);
            hs_v3_cross(zf, wp, wr);
        } else {
            hs_m3_mulv(ug, Ap, t->axis + 3L * j);
            hs_v3_copy(om, wp);
            hs_v3_axpy(vo, vo, v[kv], ug);
            hs_v3_cross(x, wp, ug);
            for (i = 0; i < 3; ++i) zf[i] = 2.0 * x[i] * v[kv];
        }
        hs_v3_copy(ze, zf);
        for (i = 0; i < 42; ++i) wj[HS_TW_S + i] = 0.0; /* S and e: a free tip (eq. 34) */
    }
}

/* Kinetic and potential energy (E_pot = -sum m g . c) at the state hs_tree_kinematics left
 * in w. */
HS_HD static inline void hs_tree_energy(const hs_tree *t, const hs_real *w, hs_real *Ekin, hs_real *Epot)
{
    hs_real T = 0.0, V = 0.0;
    int j, i;
    for (j = 0; j < t->nbody; ++j) {
        const hs_real *wj = w + (long)j * HS_TREE_NW;
        hs_real d[3], vc[3], x[3], J[9], Jw[3], Jb[6], c[3];
        double mj = t->mass[j];
        hs_tree_com(t, j, wj, c);
        hs_v3_sub(d, c, wj + HS_TW_O);
        hs_v3_cross(x, wj + HS_TW_W, d);
        hs_v3_axpy(vc, wj + HS_TW_V, 1.0, x);
        for (i = 0; i < 6; ++i) Jb[i] = t->inertia[6L * j + i];
        hs_m3_inertia_global(J, wj + HS_TW_A, Jb);
        hs_m3_mulv(Jw, J, wj + HS_TW_W);
        T += 0.5 * mj * hs_v3_dot(vc, vc) + 0.5 * hs_v3_dot(wj + HS_TW_W, Jw);
        V -= mj * (t->gravity[0] * c[0] + t->gravity[1] * c[1] + t->gravity[2] * c[2]);
    }
    *Ekin = T;
    *Epot = V;
}

#endif
