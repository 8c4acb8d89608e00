/* hs_model_derive.h -- derived model quantities from the primary (named) parameter values.
 * Shared by the loader (once) and by batch backends (after per-instance parameter overrides). */
#ifndef HS_MODEL_DERIVE_H
#define HS_MODEL_DERIVE_H

#include "hs_model.h"

/* Centre of mass and inertia about it (body frame) of the standard shapes. */
HS_HD static inline void hs_shape_inertia(int shape, double m, const double dim[3], double com[3],
                                          double J[6])
{
    double L = dim[0], w = dim[1], h = dim[2];
    int k;
    for (k = 0; k < 6; ++k) J[k] = 0.0;
    com[0] = com[1] = com[2] = 0.0;
    switch (shape) {
    case HS_SHAPE_ROD: /* slender rod along x from the origin */
        com[0] = 0.5 * L;
        J[1] = J[2] = m * L * L / 12.0;
        break;
    case HS_SHAPE_BEAM: /* rectangular beam L x w x h along x from the origin */
        com[0] = 0.5 * L;
        J[0] = m * (w * w + h * h) / 12.0;
        J[1] = m * (L * L + h * h) / 12.0;
        J[2] = m * (L * L + w * w) / 12.0;
        break;
    case HS_SHAPE_CUBOID: /* box centred at the origin */
        J[0] = m * (w * w + h * h) / 12.0;
        J[1] = m * (L * L + h * h) / 12.0;
        J[2] = m * (L * L + w * w) / 12.0;
        break;
    default: /* point mass, custom: nothing to derive */
        break;
    }
}

/* The hose whose internal volume v is (hs_components.h), -1 for a volume of the file's. */
HS_HD static inline int hs_vol_hose(const hs_model *m, int v)
{
    int i;
    for (i = 0; i < m->ncmp; ++i)
        if (m->cmp_type[i] == HS_CMP_HOSE && m->cmp_ref[i] >= 0 && v >= m->cmp_ref[i] &&
            v < m->cmp_ref[i] + m->cmp_dyn[i] - 1)
            return i;
    return -1;
}

static inline HS_HD void hs_normalize3(double v[3])
{
    double n = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (n > 0.0) {
        v[0] /= n;
        v[1] /= n;
        v[2] /= n;
    }
}

/* k + 1 (-(k + 1)) if the unit vector u is exactly e_k (-e_k), else 0. */
HS_HD static inline int hs_axis_kind(const double u[3])
{
    int k;
    for (k = 0; k < 3; ++k)
        if ((u[k] == 1.0 || u[k] == -1.0) && u[(k + 1) % 3] == 0.0 && u[(k + 2) % 3] == 0.0)
            return u[k] > 0.0 ? k + 1 : -(k + 1);
    return 0;
}

/* 1 if the row-major 3x3 R maps e_z to e_z exactly (the identity, a rotation about z). */
HS_HD static inline int hs_keeps_z(const double R[9])
{
    return R[2] == 0.0 && R[5] == 0.0 && R[6] == 0.0 && R[7] == 0.0 && R[8] == 1.0;
}

/* 1 if the row-major 3x3 R is exactly the identity. */
HS_HD static inline int hs_is_identity(const double R[9])
{
    int k;
    for (k = 0; k < 9; ++k)
        if (R[k] != (k % 4 == 0 ? 1.0 : 0.0)) return 0;
    return 1;
}

/* Two unit vectors completing the unit vector a to an orthonormal basis (deterministic). */
HS_HD static inline void hs_perp_pair(const double a[3], double p1[3], double p2[3])
{
    double e[3] = {0.0, 0.0, 0.0};
    double fa0 = fabs(a[0]), fa1 = fabs(a[1]), fa2 = fabs(a[2]);
    /* the coordinate axis least aligned with a */
    if (fa0 <= fa1 && fa0 <= fa2) e[0] = 1.0;
    else if (fa1 <= fa2) e[1] = 1.0;
    else e[2] = 1.0;
    p1[0] = a[1] * e[2] - a[2] * e[1];
    p1[1] = a[2] * e[0] - a[0] * e[2];
    p1[2] = a[0] * e[1] - a[1] * e[0];
    hs_normalize3(p1);
    p2[0] = a[1] * p1[2] - a[2] * p1[1];
    p2[1] = a[2] * p1[0] - a[0] * p1[2];
    p2[2] = a[0] * p1[1] - a[1] * p1[0];
}

HS_HD static inline void hs_con_add(hs_model *m, int type, int c, const double u[3],
                                    const double v[3])
{
    int e = m->ncon, k;
    if (e >= HS_MAX_CON) return; /* the loader rejects such models before deriving */
    m->con_type[e] = type;
    m->con_body_a[e] = m->cut_body_a[c];
    m->con_body_b[e] = m->cut_body_b[c];
    for (k = 0; k < 3; ++k) {
        m->con_u[e][k] = u[k];
        m->con_v[e][k] = v[k];
        m->con_pa[e][k] = m->cut_at_a[c][k];
        m->con_pb[e][k] = m->cut_at_b[c][k];
    }
    m->ncon = e + 1;
}

/* Scalar equations of each cut joint (seed 000 Sect. 2.2: loop closure at the cut).
 * Revolute: the two joint points coincide (3 DP rows along body b's axes) and axis_a is
 * normal to two vectors perpendicular to axis_b (2 DD rows). Planar revolute keeps the two
 * in-plane point rows only: in a planar mechanism the other three are identically zero. */
HS_HD static inline void hs_cut_equations(hs_model *m)
{
    int c;
    m->ncon = 0;
    m->nnh = 0;
    for (c = 0; c < m->ncut; ++c) {
        double p1[3], p2[3], ex[3] = {1.0, 0.0, 0.0}, ey[3] = {0.0, 1.0, 0.0},
                             ez[3] = {0.0, 0.0, 1.0}, w[3], nb[3];
        /* unit copies: the given values stay as named parameters */
        double aa[3], ab[3], na[3], nbr[3];
        int k;
        for (k = 0; k < 3; ++k) {
            aa[k] = m->cut_axis_a[c][k];
            ab[k] = m->cut_axis_b[c][k];
            na[k] = m->cut_normal_a[c][k];
            nbr[k] = m->cut_normal_b[c][k];
        }
        hs_normalize3(aa);
        hs_normalize3(ab);
        m->cut_con0[c] = m->ncon;
        switch (m->cut_type[c]) {
        case HS_CUT_REVOLUTE:
            hs_perp_pair(ab, p1, p2);
            hs_con_add(m, HS_CON_DP, c, ex, ex);
            hs_con_add(m, HS_CON_DP, c, ey, ey);
            hs_con_add(m, HS_CON_DP, c, ez, ez);
            hs_con_add(m, HS_CON_DD, c, aa, p1);
            hs_con_add(m, HS_CON_DD, c, aa, p2);
            break;
        case HS_CUT_REVOLUTE_PLANAR:
            hs_perp_pair(ab, p1, p2);
            hs_con_add(m, HS_CON_DP, c, p1, p1);
            hs_con_add(m, HS_CON_DP, c, p2, p2);
            break;
        case HS_CUT_PRISMATIC: /* point of a on b's line, axes parallel, no roll */
            hs_normalize3(na);
            hs_normalize3(nbr);
            w[0] = ab[1] * nbr[2] - ab[2] * nbr[1];
            w[1] = ab[2] * nbr[0] - ab[0] * nbr[2];
            w[2] = ab[0] * nbr[1] - ab[1] * nbr[0];
            hs_con_add(m, HS_CON_DP, c, nbr, nbr);
            hs_con_add(m, HS_CON_DP, c, w, w);
            hs_con_add(m, HS_CON_DD, c, aa, nbr);
            hs_con_add(m, HS_CON_DD, c, aa, w);
            hs_con_add(m, HS_CON_DD, c, na, w);
            break;
        case HS_CUT_NONHOLONOMIC: /* seed 001 eq. 11: the velocity of at_b along axis_b */
            hs_con_add(m, HS_CON_NH, c, ab, ab);
            m->nnh++;
            break;
        default: /* HS_CUT_PRISMATIC_PLANAR: normal_b is the plane normal */
            hs_normalize3(nbr);
            nb[0] = nbr[1] * ab[2] - nbr[2] * ab[1];
            nb[1] = nbr[2] * ab[0] - nbr[0] * ab[2];
            nb[2] = nbr[0] * ab[1] - nbr[1] * ab[0];
            hs_normalize3(nb);
            hs_con_add(m, HS_CON_DD, c, aa, nb);
            hs_con_add(m, HS_CON_DP, c, nb, nb);
            break;
        }
        m->cut_ncon[c] = m->ncon - m->cut_con0[c];
    }
}

/* Recomputes every derived quantity (centre of mass and inertia from shapes, ancestor masks,
 * unit axes) from the primary values. Call after loading and after changing a parameter. */
HS_HD static inline void hs_model_derive(hs_model *m)
{
    int j;
    hs_cut_equations(m);
    for (j = 0; j < m->nbody; ++j) {
        int p = m->body_parent[j];
        double com[3];
        m->body_anc[j] = (p >= 0 ? m->body_anc[p] : 0u) | (1u << j);
        m->joint_u[j][0] = m->joint_axis[j][0];
        m->joint_u[j][1] = m->joint_axis[j][1];
        m->joint_u[j][2] = m->joint_axis[j][2];
        hs_normalize3(m->joint_u[j]);
        m->joint_axis_kind[j] = hs_axis_kind(m->joint_u[j]);
        m->joint_rot0_id[j] = hs_is_identity(m->joint_rot0[j]);
        /* every joint from the root to body j revolute about +-z, keeping z in its rot0: the
         * rotation matrices of the path have exact zeros where a rotation about z has them
         * (hs_m3_mul_zrot_cs), the angular velocities and accelerations are (0, 0, w),
         * the joint vectors b = [bx, by, 0; 0, 0, +-1]: the planar forms of the kinematics and
         * dynamics rely on these zeros (ground, the root's parent, is the identity) */
        m->joint_planar[j] = (p < 0 || m->joint_planar[p]) && hs_keeps_z(m->joint_rot0[j]) &&
                             m->joint_type[j] == HS_JOINT_REVOLUTE &&
                             (m->joint_axis_kind[j] == 3 || m->joint_axis_kind[j] == -3);
        if (m->body_shape[j] != HS_SHAPE_CUSTOM) {
            hs_shape_inertia(m->body_shape[j], m->body_mass[j], m->body_dim[j], com,
                             m->body_inertia[j]);
            if (!m->body_com_given[j]) {
                m->body_com[j][0] = com[0];
                m->body_com[j][1] = com[1];
                m->body_com[j][2] = com[2];
            }
        }
    }
    m->nz = m->nbody;
    /* hydraulics: areas, throttle coefficients (seed 000 eq. 25), friction state layout */
    m->nfs = 0;
    for (j = 0; j < m->ncyl; ++j) {
        double dp = m->cyl_d_piston[j], dr = m->cyl_d_rod[j];
        int f = m->cyl_fric[j];
        m->cyl_Ap[j] = 0.25 * HS_PI * dp * dp;
        m->cyl_Ar[j] = 0.25 * HS_PI * (dp * dp - dr * dr);
        m->cyl_fs0[j] = m->nfs;
        m->cyl_nfs[j] = f == HS_FRIC_LUGRE ? 1 : f == HS_FRIC_LUGRE_MOD ? 2 : 0;
        m->nfs += m->cyl_nfs[j];
    }
    m->nmot = 0;
    for (j = 0; j < m->ncmp; ++j) { /* the components' states follow the friction states */
        m->cmp_fs0[j] = m->cmp_dyn[j] ? m->nfs : -1;
        m->nfs += m->cmp_dyn[j];
        m->cmp_mot[j] = m->cmp_type[j] == HS_CMP_MOTOR ? m->nmot++ : -1;
        if (m->cmp_type[j] == HS_CMP_HOSE) { /* its internal volumes: a segment's oil each */
            const double *par = m->cmp_par[j];
            int k;
            for (k = 0; k + 1 < m->cmp_dyn[j]; ++k) {
                int v = m->cmp_ref[j] + k;
                if (v < 0 || v >= m->nvol) break;
                m->vol_V[v] = hs_hose_area(par) * hs_hose_seg_length(par);
                m->vol_B[v] = par[HS_CP_HO_BW];
            }
        }
    }
    for (j = 0; j < m->nthr; ++j)
        m->thr_Cv[j] = m->thr_Cv_given[j] > 0.0 ? m->thr_Cv_given[j]
                                                : m->thr_Cd[j] * m->thr_A[j] * sqrt(2.0 / m->rho);
    for (j = 0; j < m->nvol; ++j) { /* the valve feeding each volume: its U picks gamma+- */
        int i;
        m->vol_dcv[j] = m->vol_thr[j] = -1;
        for (i = m->ndcv - 1; i >= 0; --i)
            if (m->dcv_A[i] == j || m->dcv_B[i] == j) m->vol_dcv[j] = i;
        for (i = 0; i < m->nthr; ++i)
            if (m->thr_a[i] == j || m->thr_b[i] == j) m->vol_thr[j] = i;
    }
    m->nx = m->nz + m->nvol + m->nfs;
}

/* Does a load-sensing pump sense valve section i (its U_ls then matters)? */
HS_HD static inline int hs_dcv_sensed(const hs_model *m, int i)
{
    int k;
    for (k = 0; k < m->ncmp; ++k)
        if (m->cmp_type[k] == HS_CMP_PUMP_LS && ((m->cmp_lsmask[k] >> i) & 1)) return 1;
    return 0;
}

#endif
