/* shared_headers_body.h -- the one test body of test_shared_headers.c (gcc, C11) and
 * test_shared_headers.cu (nvcc, C++17), DESIGN.md sect. 3: every kernels/ header is compiled
 * by both compilers, and the same HS_HD code gives the same hand-computed numbers under both.
 *
 * Written in the common subset of C11 and C++: no designated initialisers, no compound
 * literals, no VLAs, explicit casts from void *. The shb_* functions marked HS_HD are also
 * called from a __global__ kernel in the .cu file (compiled for the device, never launched:
 * there is no GPU here); the checks run on the host.
 *
 * Expectations are worked out by hand in the comments, never taken from the code under test:
 *  1. hs_model_derive on a two-body model with one cut joint of each kind (shapes, ancestor
 *     masks, unit axes, the 14 scalar constraint equations).
 *  2. hs_lu_factor / hs_lu_solve on a 5x5 row-permuted, column diagonally dominant system
 *     (so the pivot sequence is known in advance).
 *  3. hs_signal_eval on a signal with a jump.
 *  4. Kinematics, mass matrix, forces, energies and constraints of a planar double pendulum
 *     (rods 0.5 m / 2 kg and 0.4 m / 3 kg) at z = (90 deg, -90 deg), zd = (1, 0), whose tip is
 *     pinned to ground by a planar revolute cut (a locked structure).
 *  5. hs_init and hs_step on that locked structure: the static reaction at the tip, and
 *     positions that do not move.
 *  6. Scalar hydraulic laws: orifice flow with its laminar band, the closed-form spool step,
 *     the Bengisu-Akay parabola below the Stribeck velocity.
 *  7. Batch helpers: trajectory sample counts and the running statistics of a signal.
 *  8. Sampling: Philox4x32-10 against Random123's known-answer vectors (tests/kat_vectors of
 *     the Random123 distribution), the uniform built from it, the normal quantile.
 *  9. The Riccati transfer matrix method (hs_riccati.h, hs_tree_rk4.h) on seed 002's
 *     demonstration pendulum: theta_7'' = -0.6 g, the hanging rods 0, and one RK4 step. */
#ifndef SHARED_HEADERS_BODY_H
#define SHARED_HEADERS_BODY_H

#include <math.h>
#include <stdio.h>

#include "hs/model.h"
#include "hs_hd.h"
#include "hs_linalg.h"
#include "hs_model_derive.h"
#include "hs_signal.h"
#include "hs_kinematics.h"
#include "hs_constraints.h"
#include "hs_dynamics.h"
#include "hs_friction.h"
#include "hs_hydraulics.h"
#include "hs_integrator.h"
#include "hs_batch.h"
#include "hs_sample.h"
#include "hs_tree_rk4.h"

/* ------------------------------------------------------------------------------------------
 * Computations (HS_HD: host and device)
 * ---------------------------------------------------------------------------------------- */

/* All zero, with identity fixed rotations. */
HS_HD static inline void shb_model_clear(hs_model *m)
{
    unsigned char *p = (unsigned char *)m;
    unsigned long i;
    int j;
    for (i = 0; i < (unsigned long)sizeof(hs_model); ++i) p[i] = 0;
    for (j = 0; j < HS_MAX_BODIES; ++j) hs_m3_identity(m->joint_rot0[j]);
}

/* Model 1: two bodies, four cuts (one of each kind); axes deliberately not unit length. */
HS_HD static inline void shb_build_derive_model(hs_model *m)
{
    int c;
    shb_model_clear(m);
    m->nbody = 2;
    m->body_parent[0] = -1;
    m->body_parent[1] = 0;
    m->body_shape[0] = HS_SHAPE_ROD;
    m->body_mass[0] = 2.0;
    hs_v3_set(m->body_dim[0], 0.5, 0.0, 0.0);
    m->body_shape[1] = HS_SHAPE_BEAM;
    m->body_mass[1] = 3.0;
    hs_v3_set(m->body_dim[1], 0.4, 0.02, 0.04);
    m->body_com_given[1] = 1;
    hs_v3_set(m->body_com[1], 0.1, 0.2, 0.3);
    m->joint_type[0] = HS_JOINT_REVOLUTE;
    m->joint_type[1] = HS_JOINT_REVOLUTE;
    hs_v3_set(m->joint_axis[0], 0.0, 0.0, 2.0);
    hs_v3_set(m->joint_axis[1], 0.0, 3.0, 4.0);

    m->ncut = 4;
    m->cut_type[0] = HS_CUT_REVOLUTE_PLANAR;
    m->cut_body_a[0] = 1;
    m->cut_body_b[0] = -1;
    hs_v3_set(m->cut_axis_a[0], 0.0, 0.0, 1.0);
    hs_v3_set(m->cut_axis_b[0], 0.0, 0.0, 3.0);

    m->cut_type[1] = HS_CUT_REVOLUTE;
    m->cut_body_a[1] = 0;
    m->cut_body_b[1] = 1;
    hs_v3_set(m->cut_axis_a[1], 2.0, 0.0, 0.0);
    hs_v3_set(m->cut_axis_b[1], 1.0, 0.0, 0.0);

    m->cut_type[2] = HS_CUT_PRISMATIC;
    m->cut_body_a[2] = -1;
    m->cut_body_b[2] = 1;
    hs_v3_set(m->cut_axis_a[2], 2.0, 0.0, 0.0);
    hs_v3_set(m->cut_axis_b[2], 1.0, 0.0, 0.0);
    hs_v3_set(m->cut_normal_a[2], 0.0, 3.0, 0.0);
    hs_v3_set(m->cut_normal_b[2], 0.0, 2.0, 0.0);

    m->cut_type[3] = HS_CUT_PRISMATIC_PLANAR;
    m->cut_body_a[3] = 0;
    m->cut_body_b[3] = 1;
    hs_v3_set(m->cut_axis_a[3], 4.0, 0.0, 0.0);
    hs_v3_set(m->cut_axis_b[3], 1.0, 0.0, 0.0);
    hs_v3_set(m->cut_normal_b[3], 0.0, 0.0, 1.0);

    for (c = 0; c < 4; ++c) {
        hs_v3_set(m->cut_at_a[c], 0.1 * (c + 1), 0.0, 0.0);
        hs_v3_set(m->cut_at_b[c], 0.0, 0.2 * (c + 1), 0.0);
    }
}

/* Model 2: planar double pendulum in the xy plane, gravity -y, the tip of body 1 pinned to
 * the ground point (0.4, 0.5, 0) by a planar revolute cut; one signal with a jump. */
HS_HD static inline void shb_build_pendulum(hs_model *m)
{
    shb_model_clear(m);
    m->nbody = 2;
    m->body_parent[0] = -1;
    m->body_parent[1] = 0;
    m->body_shape[0] = HS_SHAPE_ROD;
    m->body_mass[0] = 2.0;
    hs_v3_set(m->body_dim[0], 0.5, 0.0, 0.0);
    m->body_shape[1] = HS_SHAPE_ROD;
    m->body_mass[1] = 3.0;
    hs_v3_set(m->body_dim[1], 0.4, 0.0, 0.0);
    m->joint_type[0] = HS_JOINT_REVOLUTE;
    m->joint_type[1] = HS_JOINT_REVOLUTE;
    hs_v3_set(m->joint_axis[0], 0.0, 0.0, 1.0);
    hs_v3_set(m->joint_axis[1], 0.0, 0.0, 1.0);
    hs_v3_set(m->joint_at_parent[1], 0.5, 0.0, 0.0);
    m->joint_z0[0] = 0.5 * HS_PI;
    m->joint_z0[1] = -0.5 * HS_PI;

    m->ncut = 1;
    m->cut_type[0] = HS_CUT_REVOLUTE_PLANAR;
    m->cut_body_a[0] = 1;
    m->cut_body_b[0] = -1;
    hs_v3_set(m->cut_at_a[0], 0.4, 0.0, 0.0);
    hs_v3_set(m->cut_at_b[0], 0.4, 0.5, 0.0);
    hs_v3_set(m->cut_axis_a[0], 0.0, 0.0, 1.0);
    hs_v3_set(m->cut_axis_b[0], 0.0, 0.0, 1.0);

    /* signal 0: (0, 0) (1, 2) (1, 5) (3, 1) */
    m->nsignal = 1;
    m->sig_start[0] = 0;
    m->sig_n[0] = 4;
    m->nknot = 4;
    m->knot_t[0] = 0.0;
    m->knot_v[0] = 0.0;
    m->knot_t[1] = 1.0;
    m->knot_v[1] = 2.0;
    m->knot_t[2] = 1.0;
    m->knot_v[2] = 5.0;
    m->knot_t[3] = 3.0;
    m->knot_v[3] = 1.0;

    hs_v3_set(m->gravity, 0.0, -9.81, 0.0);
    m->dt = 1e-3;
    m->t_end = 1.0;
    m->tol_z = 1e-10;
    m->penalty = 1e8;
    m->max_iter = 20.0;
    m->fd_rel = 1e-8;
    m->fd_floor = 1e-2;
}

/* The 5x5 system: rows of D (column diagonally dominant) in the order D3 D0 D4 D1 D2.
 * Writes A (row-major, lda 5) and b = A (1, -2, 3, -4, 5). */
HS_HD static inline void shb_lu5_system(double A[25], double b[5])
{
    const double D[25] = {10, 1, 2, 0, 1, /* D0 */
                          1, 12, 0, 3, 2, /* D1 */
                          2, 1, 9, 1, 0, /* D2 */
                          0, 3, 1, 11, 2, /* D3 */
                          1, 2, 1, 0, 8}; /* D4 */
    const int order[5] = {3, 0, 4, 1, 2};
    /* D x by hand: D0 10-2+6+0+5 = 19, D1 1-24+0-12+10 = -25, D2 2-2+27-4+0 = 23,
     * D3 0-6+3-44+10 = -37, D4 1-4+3+0+40 = 40 */
    const double Dx[5] = {19, -25, 23, -37, 40};
    int i, j;
    for (i = 0; i < 5; ++i) {
        for (j = 0; j < 5; ++j) A[5 * i + j] = D[5 * order[i] + j];
        b[i] = Dx[order[i]];
    }
}

/* Factor and solve; b becomes x. Returns hs_lu_factor's result. */
HS_HD static inline int shb_lu5(double A[25], int piv[5], double b[5])
{
    int info;
    shb_lu5_system(A, b);
    info = hs_lu_factor(A, 5, 5, piv);
    if (info == 0) hs_lu_solve(A, 5, 5, piv, b);
    return info;
}

/* Everything of model 2 at z = z0, zd = (1, 0): M, Q (t = 0), Phi, Phi_z, the velocity
 * product and the energies; kinematics are left in k. */
HS_HD static inline void shb_pendulum_eval(const hs_model *m, hs_kin *k, hs_dyn_work *w,
                                           double M[4], double Q[2], double phi[2],
                                           double J[4], double c[2], double E[2])
{
    double z[2], zd[2];
    z[0] = m->joint_z0[0];
    z[1] = m->joint_z0[1];
    zd[0] = 1.0;
    zd[1] = 0.0;
    hs_kin_positions(m, z, k);
    hs_kin_velocities(m, zd, k);
    hs_mass_force(m, k, 0.0, M, 2, Q, w);
    hs_constraints_phi(m, k, phi);
    hs_constraints_jac(m, k, J, 2);
    hs_constraints_vprod(m, k, c);
    hs_energy(m, k, 0.0, &E[0], &E[1]);
}

/* hs_init and nsteps steps of model 2 from rest. Returns the state's status. */
HS_HD static inline int shb_pendulum_steps(const hs_model *m, hs_state *s, hs_work *w,
                                           int nsteps)
{
    int i, st = hs_init(m, s, w);
    for (i = 0; i < nsteps && !st; ++i) st = hs_step(m, s, w);
    return st;
}

/* Scalar hydraulic laws at fixed arguments (out: 8 values). */
HS_HD static inline void shb_hydraulic_scalars(double out[8])
{
    out[0] = hs_orifice_flow(2.0, 4e5, 1e5); /* turbulent */
    out[1] = hs_orifice_flow(2.0, -4e5, 1e5);
    out[2] = hs_orifice_flow(2.0, 2.5e4, 1e5); /* laminar */
    out[3] = hs_orifice_flow(2.0, 1e5, 1e5); /* at the band edge */
    out[4] = hs_spool_step(0.0, 1.0, 1.0, 0.01, 0.01);
    out[5] = hs_fric_bengisu_akay(100.0, 150.0, 0.02, 50.0, 0.0, 0.01);
    out[6] = hs_fric_bengisu_akay(100.0, 150.0, 0.02, 50.0, 0.0, -0.01);
    out[7] = hs_sgn(-3.0) + 10.0 * hs_sgn(0.0);
}

/* Batch helpers (out: 9 values): sample counts and statistics of 2, -1, 3 at t = 0, 1, 2. */
HS_HD static inline void shb_batch_scalars(double out[9])
{
    double a[HS_NACC] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
    out[0] = (double)hs_traj_count(10, 3);
    out[1] = (double)hs_traj_count(9, 3);
    out[2] = (double)hs_traj_count(9, 0);
    hs_acc_add(a, 2.0, 0.0, 0);
    hs_acc_add(a, -1.0, 1.0, 1);
    hs_acc_add(a, 3.0, 2.0, 2);
    out[3] = a[HS_ACC_MIN];
    out[4] = a[HS_ACC_MAX];
    out[5] = a[HS_ACC_TMAX];
    out[6] = a[HS_ACC_LAST];
    out[7] = a[HS_ACC_SUM];
    out[8] = a[HS_ACC_SUMSQ] + 300.0;
}

/* Philox words for the three philox4x32-10 known-answer counters/keys (w: 12 words) and a
 * few derived values (out: 4). */
HS_HD static inline void shb_sample_values(uint32_t w[12], double out[4])
{
    hs_philox(0u, 0u, 0u, 0u, w);
    hs_philox(0xffffffffffffffffull, 0xffffffffffffffffull, 0xffffffffu, 0xffffffffu, w + 4);
    hs_philox(0x299f31d0a4093822ull, 0x85a308d3243f6a88ull, 0x13198a2eu, 0x03707344u, w + 8);
    out[0] = hs_uniform(0u, 0u, 0u, 0u);
    out[1] = hs_norm_quantile(0.975);
    out[2] = hs_norm_quantile(0.5);
    out[3] = hs_q_uniform(2.0, 6.0, 0.25);
}

/* Seed 002's demonstration pendulum (models/branch_pendulum_rui2020.yaml) as an hs_tree in the
 * caller's arrays, its accelerations at the initial state by the Riccati recursion into
 * out[0..3] (theta_7'' = -0.6 g, worked out in the model file; the hanging rods' absolute
 * accelerations 0), and one RK4 step of 1 ms: rod 7's angle into out[4]
 * (-0.3 g (1 ms)^2 to O(dt^4)). w: 4 x HS_TREE_NW, scratch: 40. Returns the recursion's code. */
HS_HD static inline int shb_riccati_demo(double *w, double *scratch, double out[5])
{
    int par[4], jt[4], rc, i;
    double mass[4], com[12], J[24], atp[12], atc[12], ax[12], y[8];
    hs_tree t;
    for (i = 0; i < 4; ++i) {
        par[i] = i == 0 ? -1 : i == 3 ? 2 : 0;
        jt[i] = HS_JOINT_REVOLUTE;
        mass[i] = 1.0;
        com[3 * i] = 0.5;
        com[3 * i + 1] = com[3 * i + 2] = 0.0;
        J[6 * i] = J[6 * i + 3] = J[6 * i + 4] = J[6 * i + 5] = 0.0;
        J[6 * i + 1] = J[6 * i + 2] = 1.0 / 12.0;
        atp[3 * i] = i == 2 ? 1.0 : 0.0;
        atc[3 * i] = i == 0 ? 0.5 : 1.0;
        atp[3 * i + 1] = atp[3 * i + 2] = atc[3 * i + 1] = atc[3 * i + 2] = 0.0;
        ax[3 * i] = ax[3 * i + 1] = 0.0;
        ax[3 * i + 2] = 1.0;
        y[i] = (i == 1 || i == 2) ? 0.5 * HS_PI : 0.0;
        y[4 + i] = 0.0;
    }
    t.nbody = 4;
    t.nq = t.nv = 4;
    t.parent = par;
    t.jtype = jt;
    t.iq = t.iv = (const int *)0;
    t.mass = mass;
    t.com = com;
    t.inertia = J;
    t.at_parent = atp;
    t.at_child = atc;
    t.axis = ax;
    t.rot0 = (const double *)0;
    t.gravity[0] = t.gravity[2] = 0.0;
    t.gravity[1] = -9.81;
    t.ext = 0; /* gravity only */
    t.time = 0.0;
    if ((rc = hs_riccati_accel(&t, y, y + 4, (const double *)0, w, out, (double *)0))) return rc;
    out[1] += out[0]; /* absolute: rod 1 */
    out[2] += out[0]; /* rod 5 */
    out[3] += out[2]; /* rod 3 on rod 5 */
    rc = hs_tree_rk4_step(&t, 1e-3, (const double *)0, y, w, scratch);
    out[4] = y[0];
    return rc;
}

/* ------------------------------------------------------------------------------------------
 * Host checks
 * ---------------------------------------------------------------------------------------- */

static int shb_pass, shb_fail;

static void shb_check(int ok, const char *what, double got, double want, int line)
{
    if (ok) {
        ++shb_pass;
    } else {
        ++shb_fail;
        printf("FAIL shared_headers_body.h:%d: %s = %.17g, expected %.17g\n", line, what, got,
               want);
    }
}

/* |got - want| <= tol * max(1, |want|) */
#define SHB_NEAR(got, want, tol)                                                             \
    shb_check(fabs((double)(got) - (double)(want)) <=                                        \
                  (tol) * (fabs((double)(want)) > 1.0 ? fabs((double)(want)) : 1.0),         \
              #got, (double)(got), (double)(want), __LINE__)
#define SHB_EQ(got, want)                                                                    \
    shb_check((got) == (want), #got, (double)(got), (double)(want), __LINE__)

/* Statics: hs_model, hs_kin and hs_work are tens of kB each. */
static hs_model shb_m;
static hs_kin shb_k;
static hs_dyn_work shb_dw;
static hs_state shb_s;
static hs_work shb_w;

/* Model 1 after hs_model_derive, by hand:
 *  body 0: rod 2 kg, L 0.5: com (0.25, 0, 0), Iyy = Izz = 2 * 0.25 / 12 = 1/24, Ixx = 0.
 *  body 1: beam 3 kg, 0.4 x 0.02 x 0.04: Ixx = 3 (0.0004 + 0.0016) / 12 = 0.0005,
 *          Iyy = 3 (0.16 + 0.0016) / 12 = 0.0404, Izz = 3 (0.16 + 0.0004) / 12 = 0.0401;
 *          com given (0.1, 0.2, 0.3) is kept.
 *  ancestor masks 1 and 3; joint axes (0,0,1) and (0,0.6,0.8); nz = nx = 2.
 *  Cut equations (hs_perp_pair picks the coordinate axis least aligned with the axis, first
 *  of equals, and p1 = a x e, p2 = a x p1):
 *   cut 0 planar revolute, axis_b z: e = x, p1 = (0,1,0), p2 = (-1,0,0): 2 DP rows u = v = p.
 *   cut 1 revolute, axis_b x: 3 DP rows along x, y, z; e = y, p1 = (0,0,1), p2 = (0,-1,0):
 *          2 DD rows u = axis_a = (1,0,0), v = p1, p2.
 *   cut 2 prismatic: n_b = (0,1,0), w = axis_b x n_b = (0,0,1): DP n_b, DP w,
 *          DD (axis_a, n_b), DD (axis_a, w), DD (n_a = (0,1,0), w).
 *   cut 3 planar prismatic: n = normal_b x axis_b = z x x = (0,1,0): DD (axis_a, n), DP n.
 *  14 rows, first rows 0 2 7 12. */
static void shb_test_derive(void)
{
    static const int type[14] = {HS_CON_DP, HS_CON_DP, HS_CON_DP, HS_CON_DP, HS_CON_DP,
                                 HS_CON_DD, HS_CON_DD, HS_CON_DP, HS_CON_DP, HS_CON_DD,
                                 HS_CON_DD, HS_CON_DD, HS_CON_DD, HS_CON_DP};
    static const int cut[14] = {0, 0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3};
    static const int body_a[4] = {1, 0, -1, 0}, body_b[4] = {-1, 1, 1, 1};
    static const int con0[4] = {0, 2, 7, 12}, ncon[4] = {2, 5, 5, 2};
    static const double u[14][3] = {{0, 1, 0}, {-1, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1},
                                    {1, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 0},
                                    {1, 0, 0}, {0, 1, 0}, {1, 0, 0}, {0, 1, 0}};
    static const double v[14][3] = {{0, 1, 0}, {-1, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1},
                                    {0, 0, 1}, {0, -1, 0}, {0, 1, 0}, {0, 0, 1}, {0, 1, 0},
                                    {0, 0, 1}, {0, 0, 1}, {0, 1, 0}, {0, 1, 0}};
    hs_model *m = &shb_m;
    int e, q, c;
    shb_build_derive_model(m);
    hs_model_derive(m);

    SHB_EQ(m->nz, 2);
    SHB_EQ(m->nx, 2);
    SHB_EQ(m->body_anc[0], 1u);
    SHB_EQ(m->body_anc[1], 3u);
    SHB_NEAR(m->body_com[0][0], 0.25, 1e-15);
    SHB_NEAR(m->body_com[0][1], 0.0, 0.0);
    SHB_NEAR(m->body_inertia[0][0], 0.0, 0.0);
    SHB_NEAR(m->body_inertia[0][1], 2.0 * 0.25 / 12.0, 1e-15);
    SHB_NEAR(m->body_inertia[0][2], 1.0 / 24.0, 1e-15);
    SHB_NEAR(m->body_com[1][0], 0.1, 0.0);
    SHB_NEAR(m->body_com[1][1], 0.2, 0.0);
    SHB_NEAR(m->body_com[1][2], 0.3, 0.0);
    SHB_NEAR(m->body_inertia[1][0], 0.0005, 1e-14);
    SHB_NEAR(m->body_inertia[1][1], 0.0404, 1e-14);
    SHB_NEAR(m->body_inertia[1][2], 0.0401, 1e-14);
    for (q = 3; q < 6; ++q) {
        SHB_NEAR(m->body_inertia[0][q], 0.0, 0.0);
        SHB_NEAR(m->body_inertia[1][q], 0.0, 0.0);
    }
    SHB_NEAR(m->joint_u[0][2], 1.0, 1e-15);
    SHB_NEAR(m->joint_u[1][0], 0.0, 0.0);
    SHB_NEAR(m->joint_u[1][1], 0.6, 1e-15);
    SHB_NEAR(m->joint_u[1][2], 0.8, 1e-15);

    SHB_EQ(m->ncon, 14);
    for (c = 0; c < 4; ++c) {
        SHB_EQ(m->cut_con0[c], con0[c]);
        SHB_EQ(m->cut_ncon[c], ncon[c]);
    }
    for (e = 0; e < 14 && e < m->ncon; ++e) {
        c = cut[e];
        SHB_EQ(m->con_type[e], type[e]);
        SHB_EQ(m->con_body_a[e], body_a[c]);
        SHB_EQ(m->con_body_b[e], body_b[c]);
        for (q = 0; q < 3; ++q) {
            SHB_NEAR(m->con_u[e][q], u[e][q], 1e-15);
            SHB_NEAR(m->con_v[e][q], v[e][q], 1e-15);
        }
        SHB_NEAR(m->con_pa[e][0], 0.1 * (c + 1), 0.0);
        SHB_NEAR(m->con_pa[e][1], 0.0, 0.0);
        SHB_NEAR(m->con_pb[e][0], 0.0, 0.0);
        SHB_NEAR(m->con_pb[e][1], 0.2 * (c + 1), 0.0);
    }

    /* deriving twice changes nothing (unit axes and rows are rebuilt from the given values) */
    hs_model_derive(m);
    SHB_EQ(m->ncon, 14);
    SHB_NEAR(m->con_v[6][1], -1.0, 1e-15);
    SHB_NEAR(m->joint_u[1][2], 0.8, 1e-15);
}

/* 5x5: D is column diagonally dominant, so partial pivoting always picks the row holding the
 * next diagonal element of D: step 0 finds D0 at row 1 (swap -> D0 D3 D4 D1 D2), step 1 D1
 * at row 3 (-> D0 D1 D4 D3 D2), step 2 D2 at row 4 (-> D0 D1 D2 D3 D4), then no swaps:
 * piv = {1, 3, 4, 3, 4}. x = (1, -2, 3, -4, 5). */
static void shb_test_lu5(void)
{
    double A[25], b[5];
    int piv[5], k;
    const int pe[5] = {1, 3, 4, 3, 4};
    const double xe[5] = {1, -2, 3, -4, 5};
    SHB_EQ(shb_lu5(A, piv, b), 0);
    for (k = 0; k < 5; ++k) SHB_EQ(piv[k], pe[k]);
    for (k = 0; k < 5; ++k) SHB_NEAR(b[k], xe[k], 1e-14);
    /* U's first row is D0 itself (no elimination touches it; the diagonal holds 1/u_00) */
    SHB_NEAR(A[0], 1.0 / 10.0, 0.0);
    SHB_NEAR(A[4], 1.0, 0.0);
    /* singular: column 2 zeroed stays exactly zero under elimination -> first zero pivot in
     * column 2, reported as 3 */
    shb_lu5_system(A, b);
    for (k = 0; k < 5; ++k) A[5 * k + 2] = 0.0;
    SHB_EQ(hs_lu_factor(A, 5, 5, piv), 3);
}

/* Signal (0,0) (1,2) (1,5) (3,1): before the start the first value, linear inside, the
 * right value at the jump, constant after the end; sig -1 is the constant 1. */
static void shb_test_signal(void)
{
    hs_model *m = &shb_m;
    shb_build_pendulum(m);
    SHB_NEAR(hs_signal_eval(m, 0, -1.0), 0.0, 0.0);
    SHB_NEAR(hs_signal_eval(m, 0, 0.5), 1.0, 1e-15);
    SHB_NEAR(hs_signal_eval(m, 0, 1.0), 5.0, 1e-15);
    SHB_NEAR(hs_signal_eval(m, 0, 2.0), 3.0, 1e-15);
    SHB_NEAR(hs_signal_eval(m, 0, 2.5), 2.0, 1e-15);
    SHB_NEAR(hs_signal_eval(m, 0, 4.0), 1.0, 0.0);
    SHB_NEAR(hs_signal_eval(m, -1, 0.7), 1.0, 0.0);
}

/* Double pendulum at z = (90, -90) deg, zd = (1, 0), by hand:
 *  body 0 points along +y: A0 = Rz(90), com g0 = (0, 0.25, 0); joint 1 at o1 = (0, 0.5, 0);
 *  body 1 points along +x: A1 = I, p1 = (0, 0.5, 0), g1 = (0.2, 0.5, 0).
 *  b_0 = [0 x z; z] = (0,0,0, 0,0,1), b_1 = [o1 x z; z] = (0.5,0,0, 0,0,1).
 *  Mass matrix (rods about their centres: 2*0.25/12 = 1/24 and 3*0.16/12 = 0.04):
 *   M00 = 1/24 + 2*0.25^2 + 0.04 + 3*(0.2^2 + 0.5^2) = 1/24 + 0.125 + 0.04 + 0.87
 *   M01 = 0.04 + 3 * (g1 - o1).(g1 - 0) = 0.04 + 3 * 0.04 = 0.16
 *   M11 = 0.04 + 3 * 0.2^2 = 0.16
 *  Forces: gravity -dV/dz with V = 9.81 (2 * 0.25 sin z0 + 3 (0.5 sin z0 + 0.2 sin(z0+z1))):
 *   -3 * 9.81 * 0.2 = -5.886 for both; centrifugal (whole system turning at 1 rad/s about
 *   the origin) on body 1 about o1: r = (0.2, 0), F = 3 * (0.2, 0.5): +0.3 on Q1.
 *   Q = (-5.886, -5.586).
 *  Energies: E_kin = M00 / 2, E_pot = 9.81 (2 * 0.25 + 3 * 0.5) = 19.62.
 *  Tip r = (0.4, 0.5, 0) = ground point: Phi = 0. Rows v = (0,1,0), (-1,0,0);
 *   dr/dz0 = z x (0.4, 0.5) = (-0.5, 0.4), dr/dz1 = z x (0.4, 0) = (0, 0.4):
 *   Phi_z = [0.4 0.4; 0.5 0]; tip acceleration at zdd = 0 is -(0.4, 0.5):
 *   velocity product (-0.5, 0.4). */
static void shb_test_pendulum(void)
{
    hs_model *m = &shb_m;
    hs_kin *k = &shb_k;
    double M[4], Q[2], phi[2], J[4], c[2], E[2];
    const double M00 = 1.0 / 24.0 + 0.125 + 0.04 + 0.87;
    shb_build_pendulum(m);
    hs_model_derive(m);
    SHB_EQ(m->ncon, 2);
    shb_pendulum_eval(m, k, &shb_dw, M, Q, phi, J, c, E);

    SHB_NEAR(k->A[0][0], 0.0, 1e-15);
    SHB_NEAR(k->A[0][1], -1.0, 1e-15);
    SHB_NEAR(k->A[0][3], 1.0, 1e-15);
    SHB_NEAR(k->A[1][0], 1.0, 1e-15);
    SHB_NEAR(k->A[1][1], 0.0, 1e-15);
    {
        double g0[3], g1[3], o1[3];
        hs_kin_com(m, k, 0, g0);
        hs_kin_com(m, k, 1, g1);
        hs_kin_joint_point(m, k, 1, o1);
        SHB_NEAR(g0[0], 0.0, 1e-15);
        SHB_NEAR(g0[1], 0.25, 1e-15);
        SHB_NEAR(o1[0], 0.0, 1e-15);
        SHB_NEAR(o1[1], 0.5, 1e-15);
        SHB_NEAR(g1[0], 0.2, 1e-15);
        SHB_NEAR(g1[1], 0.5, 1e-15);
    }
    SHB_NEAR(k->p[1][1], 0.5, 1e-15);
    SHB_NEAR(k->b[1][0], 0.5, 1e-15);
    SHB_NEAR(k->b[1][5], 1.0, 1e-15);
    SHB_NEAR(k->Z[1][5], 1.0, 1e-15); /* w1 = w0 + 0 */

    SHB_NEAR(M[0], M00, 1e-14);
    SHB_NEAR(M[1], 0.16, 1e-14);
    SHB_NEAR(M[2], 0.16, 1e-14);
    SHB_NEAR(M[3], 0.16, 1e-14);
    SHB_NEAR(Q[0], -5.886, 1e-13);
    SHB_NEAR(Q[1], -5.586, 1e-13);
    SHB_NEAR(E[0], 0.5 * M00, 1e-14);
    SHB_NEAR(E[1], 19.62, 1e-14);

    SHB_NEAR(phi[0], 0.0, 1e-15);
    SHB_NEAR(phi[1], 0.0, 1e-15);
    SHB_NEAR(J[0], 0.4, 1e-15);
    SHB_NEAR(J[1], 0.4, 1e-15);
    SHB_NEAR(J[2], 0.5, 1e-15);
    SHB_NEAR(J[3], 0.0, 1e-15);
    SHB_NEAR(c[0], -0.5, 1e-14);
    SHB_NEAR(c[1], 0.4, 1e-14);
}

/* Locked structure from rest: zdd = 0 and Phi_z^T lambda = Q (gravity only):
 *  0.4 l0 = -5.886 (second column) -> l0 = -14.715: the pin pushes the tip up with
 *  14.715 N, half of body 1's weight 29.43 N; 0.4 l0 + 0.5 l1 = -5.886 -> l1 = 0.
 * After 5 steps nothing has moved. */
static void shb_test_integrator(void)
{
    hs_model *m = &shb_m;
    hs_state *s = &shb_s;
    int st;
    shb_build_pendulum(m);
    hs_model_derive(m);
    st = hs_init(m, s, &shb_w);
    SHB_EQ(st, 0);
    SHB_NEAR(s->z[0], 0.5 * HS_PI, 1e-12);
    SHB_NEAR(s->z[1], -0.5 * HS_PI, 1e-12);
    SHB_NEAR(s->zdd[0], 0.0, 1e-9);
    SHB_NEAR(s->zdd[1], 0.0, 1e-9);
    SHB_NEAR(s->lambda[0], -14.715, 1e-9);
    SHB_NEAR(s->lambda[1], 0.0, 1e-9);

    st = shb_pendulum_steps(m, s, &shb_w, 5);
    SHB_EQ(st, 0);
    SHB_EQ(s->step, 5);
    SHB_NEAR(s->t, 5e-3, 1e-15);
    SHB_NEAR(s->z[0], 0.5 * HS_PI, 1e-9);
    SHB_NEAR(s->z[1], -0.5 * HS_PI, 1e-9);
    SHB_NEAR(s->zd[0], 0.0, 1e-7);
    SHB_NEAR(s->zd[1], 0.0, 1e-7);
    SHB_NEAR(s->lambda[0], -14.715, 1e-6);
    SHB_NEAR(s->W_ext, 0.0, 0.0); /* no external loads */
}

/* By hand: turbulent 2 sqrt(4e5) = 1264.9110640673518 (and its negative); laminar
 * 2 * 2.5e4 / sqrt(1e5) = 158.11388300841895; at the band edge both laws give
 * 2 sqrt(1e5) = 632.4555320336759. Spool: a = dt/(2 tau) = 0.5, U1 = (0 + 0.5 * 2) / 1.5
 * = 2/3. Bengisu-Akay at |v| = vs/2: -Fs/vs^2 (vs/2)^2 + Fs = 0.75 Fs = 112.5, odd in v. */
static void shb_test_hydraulic_scalars(void)
{
    double o[8];
    shb_hydraulic_scalars(o);
    SHB_NEAR(o[0], 1264.9110640673518, 1e-15);
    SHB_NEAR(o[1], -1264.9110640673518, 1e-15);
    SHB_NEAR(o[2], 158.11388300841895, 1e-15);
    SHB_NEAR(o[3], 632.4555320336759, 1e-15);
    SHB_NEAR(o[4], 2.0 / 3.0, 1e-15);
    SHB_NEAR(o[5], 112.5, 1e-14);
    SHB_NEAR(o[6], -112.5, 1e-14);
    SHB_NEAR(o[7], -1.0, 0.0);
}

/* By hand: every 3rd of 10 steps keeps steps 0 3 6 9 and the last, 10: 5 samples; of 9
 * steps 0 3 6 9: 4; every 0: none. Statistics of 2, -1, 3: min -1, max 3 (first reached at
 * t = 2), last 3, sum 4, sum of squares 14, count 3. */
static void shb_test_batch_scalars(void)
{
    double o[9];
    shb_batch_scalars(o);
    SHB_NEAR(o[0], 5.0, 0.0);
    SHB_NEAR(o[1], 4.0, 0.0);
    SHB_NEAR(o[2], 0.0, 0.0);
    SHB_NEAR(o[3], -1.0, 0.0);
    SHB_NEAR(o[4], 3.0, 0.0);
    SHB_NEAR(o[5], 2.0, 0.0);
    SHB_NEAR(o[6], 3.0, 0.0);
    SHB_NEAR(o[7], 4.0, 0.0);
    SHB_NEAR(o[8], 314.0, 0.0);
}

/* Random123 tests/kat_vectors, "philox4x32 10" lines (counter words, key words, result):
 *   0 0 0 0 | 0 0 -> 6627e8d5 e169c58d bc57ac4c 9b00dbd8
 *   ffffffff x4 | ffffffff x2 -> 408f276d 41c83b0e a20bc7c6 6d5451fd
 *   243f6a88 85a308d3 13198a2e 03707344 | a4093822 299f31d0
 *     -> d16cfe09 94fdcceb 5001e420 24126ea1
 * hs_philox's counter is (i low, i high, j, stream) and its key (seed low, seed high).
 * hs_uniform(0, 0, 0, 0) = (0xe169c58d6627e8d5 >> 11) * 2^-53 = 0.8805201978886142.
 * Phi^-1(0.975) = 1.959963984540054, Phi^-1(0.5) = 0; uniform on [2, 6] at 0.25: 3. */
static void shb_test_sample(void)
{
    static const uint32_t kat[12] = {0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u,
                                     0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu,
                                     0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u};
    uint32_t w[12];
    double o[4];
    int q;
    shb_sample_values(w, o);
    for (q = 0; q < 12; ++q) SHB_EQ(w[q], kat[q]);
    SHB_NEAR(o[0], 0.8805201978886142, 1e-16);
    SHB_NEAR(o[1], 1.959963984540054, 1e-15);
    SHB_NEAR(o[2], 0.0, 0.0);
    SHB_NEAR(o[3], 3.0, 0.0);
}

/* Runs every check; prints "N passed, M failed"; returns the exit status. */
static void shb_test_riccati(void)
{
    static double w[4 * HS_TREE_NW], scratch[40];
    double out[5], g = 9.81;
    SHB_EQ(shb_riccati_demo(w, scratch, out), 0);
    SHB_NEAR(out[0], -0.6 * g, 1e-13);
    SHB_NEAR(out[1], 0.0, 1e-13);
    SHB_NEAR(out[2], 0.0, 1e-13);
    SHB_NEAR(out[3], 0.0, 1e-13);
    SHB_NEAR(out[4], -0.3 * g * 1e-6, 1e-10);
}

static int shb_run(const char *compiler)
{
    printf("shared headers compiled by %s\n", compiler);
    shb_test_derive();
    shb_test_lu5();
    shb_test_signal();
    shb_test_pendulum();
    shb_test_integrator();
    shb_test_hydraulic_scalars();
    shb_test_batch_scalars();
    shb_test_sample();
    shb_test_riccati();
    printf("%d passed, %d failed\n", shb_pass, shb_fail);
    return shb_fail ? 1 : 0;
}

#endif
