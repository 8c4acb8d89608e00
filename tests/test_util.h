/* test_util.h -- tiny assertion helpers and hand-built models shared by the unit tests. */
#ifndef HS_TEST_UTIL_H
#define HS_TEST_UTIL_H

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hs/model.h"
#include "hs_linalg.h"
#include "hs_rules.h"
#include "hs_signal.h"

static int tu_pass = 0, tu_fail = 0;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (cond) {                                                                                \
            ++tu_pass;                                                                             \
        } else {                                                                                   \
            ++tu_fail;                                                                             \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);                                           \
            printf(__VA_ARGS__);                                                                   \
            printf("\n");                                                                          \
        }                                                                                          \
    } while (0)

/* |a - b| <= tol * max(1, |b|) */
#define CHECK_CLOSE(a, b, tol, what)                                                               \
    do {                                                                                           \
        double ca_ = (a), cb_ = (b);                                                               \
        double sc_ = fabs(cb_) > 1.0 ? fabs(cb_) : 1.0;                                           \
        CHECK(fabs(ca_ - cb_) <= (tol) * sc_, "%s: got %.17g, want %.17g (tol %.1e)", what, ca_,   \
              cb_, (double)(tol));                                                                 \
    } while (0)

static inline int tu_report(const char *name)
{
    printf("%s: %d passed, %d failed\n", name, tu_pass, tu_fail);
    return tu_fail ? 1 : 0;
}

/* deterministic uniform numbers in [lo, hi) (xorshift64) */
static unsigned long long tu_rng = 88172645463325252ULL;
static inline double tu_rand(double lo, double hi)
{
    tu_rng ^= tu_rng << 13;
    tu_rng ^= tu_rng >> 7;
    tu_rng ^= tu_rng << 17;
    return lo + (hi - lo) * (double)(tu_rng >> 11) / 9007199254740992.0;
}

static inline void tu_model_defaults(hs_model *m)
{
    int j;
    memset(m, 0, sizeof *m);
    for (j = 0; j < HS_MAX_BODIES; ++j) hs_m3_identity(m->joint_rot0[j]);
    hs_irule_defaults(m); /* every integrator setting valid (kernels/hs_rules.h), then the tests' */
    hs_signal_defaults(m); /* signals of knots, test parameters valid (kernels/hs_signal.h) */
    m->dt = 1e-3;
    m->t_end = 1.0;
    m->tol_z = 1e-10;
    m->penalty = 1e9;
    m->penalty_ratio = 0.0;
    m->max_iter = 20;
    m->fd_rel = 1e-8;
    m->fd_floor = 1e-2;
}

/* A row of a table of texts that must fail to load: what names the case in the failure messages;
 * the error's code, line:col and key, and a part of its message. */
typedef struct {
    const char *what, *text;
    int code, line, col;
    const char *key, *msg;
} tu_err_case;

#ifdef HS_MODEL_FILE_H /* for the tests that load model files (include hs/model_file.h first) */
/* A load that had to fail returned rc and e: its code, file, line:col, key and a part of its
 * message must be these; what names the case. */
static inline void tu_check_error(const char *what, int rc, const hs_error *e, int code, const char *file,
                                  int line, int col, const char *key, const char *msg)
{
    CHECK(rc == code, "%s: code %d, want %d (%s: %s)", what, rc, code, e->key, e->msg);
    CHECK(!strcmp(e->file, file), "%s: file '%s'", what, e->file);
    CHECK(e->line == line && e->col == col, "%s: at %d:%d, want %d:%d (%s)", what, e->line, e->col, line, col,
          e->msg);
    CHECK(!strcmp(e->key, key), "%s: key '%s', want '%s' (%s)", what, e->key, key, e->msg);
    CHECK(strstr(e->msg, msg) != NULL, "%s: message '%s' lacks '%s'", what, e->msg, msg);
}

/* Loads the model file path into d (0), or fails a check naming it (-1). */
static inline int tu_load_model(const char *path, hs_model_desc *d)
{
    hs_error e;
    if (!hs_model_load(path, d, &e)) return 0;
    CHECK(0, "%s loads: %s", path, e.msg);
    return -1;
}

/* The same of a model's text; what names it in the failed check (and in messages). */
static inline int tu_load_text(const char *text, const char *what, hs_model_desc *d)
{
    hs_error e;
    if (!hs_model_load_text(text, what, d, &e)) return 0;
    CHECK(0, "%s loads: %s (line %d, key %s)", what, e.msg, e.line, e.key);
    return -1;
}
#endif

/* One load on body b in the global frame: at (ax, 0, 0), force (0, fy, 0), torque (0, 0, tz);
 * signal 0 of the nk knots (t, v) in tv scales its force, or its torque if on_torque (the other
 * one constant). Call after hs_model_derive (loads and signals derive nothing). */
static inline void tu_signal_load(hs_model *m, int b, double ax, double fy, double tz, int on_torque, int nk,
                                  const double *tv)
{
    int k;
    m->nload = 1;
    m->load_body[0] = b;
    m->load_frame[0] = HS_FRAME_GLOBAL;
    hs_v3_set(m->load_at[0], ax, 0, 0);
    hs_v3_set(m->load_force_dir[0], 0, fy, 0);
    hs_v3_set(m->load_torque_dir[0], 0, 0, tz);
    m->load_force_sig[0] = on_torque ? -1 : 0;
    m->load_torque_sig[0] = on_torque ? 0 : -1;
    m->nsignal = 1;
    m->sig_start[0] = 0;
    m->sig_n[0] = m->nknot = nk;
    for (k = 0; k < nk; ++k) {
        m->knot_t[k] = tv[2 * k];
        m->knot_v[k] = tv[2 * k + 1];
    }
}

/* Planar double pendulum of two rods (mass mi, length Li), hinged at the origin and at the
 * first rod's tip, axes along z, gravity -g y. */
static inline void tu_double_pendulum(hs_model *m, double m1, double L1, double m2, double L2, double g)
{
    int j;
    tu_model_defaults(m);
    m->nbody = 2;
    m->body_parent[0] = -1;
    m->body_parent[1] = 0;
    m->body_mass[0] = m1;
    m->body_mass[1] = m2;
    m->body_dim[0][0] = L1;
    m->body_dim[1][0] = L2;
    for (j = 0; j < 2; ++j) {
        m->body_shape[j] = HS_SHAPE_ROD;
        m->joint_type[j] = HS_JOINT_REVOLUTE;
        hs_v3_set(m->joint_axis[j], 0, 0, 1);
    }
    hs_v3_set(m->joint_at_parent[1], L1, 0, 0);
    hs_v3_set(m->gravity, 0, -g, 0);
    hs_model_derive(m);
}

/* A 3D tree with branching, prismatic joints, tilted axes, offsets and fixed rotations:
 *   0 <- ground (revolute about a tilted axis), 1 <- 0 (prismatic), 2 <- 0 (revolute),
 *   3 <- 2 (revolute), 4 <- 1 (revolute with rot0). Custom inertias, off-axis com. */
static inline void tu_tree3d(hs_model *m)
{
    int j;
    double ax[5][3] = {{0.2, 0.3, 1.0}, {1.0, 0.1, 0.0}, {0.0, 1.0, 0.4}, {0.3, -0.5, 0.8}, {1, 1, 1}};
    int par[5] = {-1, 0, 0, 2, 1};
    int typ[5] = {HS_JOINT_REVOLUTE, HS_JOINT_PRISMATIC, HS_JOINT_REVOLUTE, HS_JOINT_REVOLUTE,
                  HS_JOINT_REVOLUTE};
    tu_model_defaults(m);
    m->nbody = 5;
    for (j = 0; j < 5; ++j) {
        double u[3] = {0.3, -0.2, 0.9};
        m->body_parent[j] = par[j];
        m->joint_type[j] = typ[j];
        hs_v3_copy(m->joint_axis[j], ax[j]);
        m->body_shape[j] = HS_SHAPE_CUSTOM;
        m->body_mass[j] = 1.0 + j;
        hs_v3_set(m->body_com[j], 0.3 + 0.1 * j, -0.05 * j, 0.02 * j);
        m->body_inertia[j][0] = 0.5 + 0.1 * j;
        m->body_inertia[j][1] = 0.6 + 0.05 * j;
        m->body_inertia[j][2] = 0.7;
        m->body_inertia[j][3] = 0.01 * j;
        m->body_inertia[j][4] = -0.02;
        m->body_inertia[j][5] = 0.015;
        hs_v3_set(m->joint_at_parent[j], 0.5 + 0.1 * j, 0.1 * j, -0.05 * j);
        hs_v3_set(m->joint_at_child[j], -0.1 * j, 0.05, 0.0);
        hs_normalize3(u);
        if (j == 4) hs_m3_rot(m->joint_rot0[j], u, 0.7);
    }
    hs_v3_set(m->gravity, 0.5, -9.81, 1.0);
    hs_model_derive(m);
}

/* The parallelogram four-bar of seed 004 Pub. I (model-data.md): beams 1, 1, 2.5 m with a
 * 0.05 m square section, 50, 50, 250 kg; crank at the origin, coupler at its tip, boom hinged
 * at the coupler's tip B and closed by a planar revolute cut to ground at its end C = (1, 0, 0),
 * 1 m from B; its centre of mass 1.25 m from C on the B side (Pub. I eq. 53);
 * z0 = -30, 30, 150 deg; gravity -9.81 y. */
static inline void tu_fourbar(hs_model *m)
{
    int j;
    double d = HS_PI / 180;
    tu_model_defaults(m);
    m->nbody = 3;
    for (j = 0; j < 3; ++j) {
        m->body_parent[j] = j - 1;
        m->joint_type[j] = HS_JOINT_REVOLUTE;
        hs_v3_set(m->joint_axis[j], 0, 0, 1);
        m->body_shape[j] = HS_SHAPE_BEAM;
        m->body_mass[j] = 50;
        hs_v3_set(m->body_dim[j], 1, 0.05, 0.05);
    }
    m->body_mass[2] = 250;
    m->body_dim[2][0] = 2.5;
    m->body_com_given[2] = 1; /* boom from C through B: com 1.25 m from C on the B side */
    hs_v3_set(m->body_com[2], -0.25, 0, 0);
    hs_v3_set(m->joint_at_parent[1], 1, 0, 0);
    hs_v3_set(m->joint_at_parent[2], 1, 0, 0);
    m->joint_z0[0] = -30 * d;
    m->joint_z0[1] = 30 * d;
    m->joint_z0[2] = 150 * d;
    m->ncut = 1;
    m->cut_type[0] = HS_CUT_REVOLUTE_PLANAR;
    m->cut_body_a[0] = 2;
    m->cut_body_b[0] = -1;
    hs_v3_set(m->cut_at_a[0], 1, 0, 0);
    hs_v3_set(m->cut_at_b[0], 1, 0, 0);
    hs_v3_set(m->cut_axis_a[0], 0, 0, 1);
    hs_v3_set(m->cut_axis_b[0], 0, 0, 1);
    hs_v3_set(m->gravity, 0, -9.81, 0);
    hs_model_derive(m);
}

/* The hydraulically actuated four-bar of seed 004 Pub. I (Table 1, model-data.md): the
 * four-bar above plus a cylinder from D = (0, -1, 0) to the crank's midpoint, volumes
 * valve / piston / rod, a throttle valve -> piston (Cd 0.8, A_t 2.83e-5), a 4/3 valve with
 * P = pump (7.6 MPa), T = tank (0.1 MPa), A = valve volume, B = rod side, and U_ref of
 * eq. (55) as signal 0. Friction: none. Initial pressures from static equilibrium with
 * p_rod = 3.5 MPa (eq. 54). */
static inline void tu_fourbar_pub1(hs_model *m)
{
    static const double T[8] = {0.5, 0.5, 2.8, 2.8, 4.5, 4.5, 6.0, 6.0};
    static const double V[8] = {0, 10, 10, 0, 0, -10, -10, 0};
    int k;
    tu_fourbar(m);
    m->penalty = 1e11;
    m->tol_z = 1e-7;
    m->tol_p = 1e2;
    m->tol_fs = 1e-7;
    m->B_oil = 1500e6;
    m->rho = 850;
    m->nvol = 3; /* 0 valve, 1 piston, 2 rod */
    m->nsrc = 2; /* nodes 3 pump, 4 tank */
    m->src_p[0] = 7.6e6;
    m->src_p[1] = 0.1e6;
    m->vol_V[0] = 4.71e-5;
    m->vol_V[1] = 3.14e-5;
    m->vol_V[2] = 7.85e-5;
    for (k = 0; k < 3; ++k) {
        m->vol_B[k] = 550e6;
        m->vol_p0[k] = 1e5;
        m->vol_cyl[k] = -1;
    }
    m->vol_cyl[1] = m->vol_cyl[2] = 0;
    m->vol_side[1] = 0;
    m->vol_side[2] = 1;
    m->nthr = 1;
    m->thr_a[0] = 0;
    m->thr_b[0] = 1;
    m->thr_Cd[0] = 0.8;
    m->thr_A[0] = 2.83e-5;
    m->thr_dplim[0] = 2e5;
    m->ndcv = 1;
    m->dcv_P[0] = 3;
    m->dcv_T[0] = 4;
    m->dcv_A[0] = 0;
    m->dcv_B[0] = 2;
    m->dcv_Cv[0] = 2.138e-8;
    for (k = 0; k < 4; ++k) m->dcv_kpath[0][k] = 1.0;
    m->dcv_tau[0] = 1.0 / (2 * HS_PI * 35.0);
    m->dcv_dplim[0] = 2e5;
    m->dcv_sig[0] = 0;
    m->nsignal = 1;
    m->sig_start[0] = 0;
    m->sig_n[0] = 8;
    m->nknot = 8;
    for (k = 0; k < 8; ++k) {
        m->knot_t[k] = T[k];
        m->knot_v[k] = V[k];
    }
    m->ncyl = 1;
    m->cyl_body_a[0] = -1;
    hs_v3_set(m->cyl_at_a[0], 0, -1, 0);
    m->cyl_body_b[0] = 0;
    hs_v3_set(m->cyl_at_b[0], 0.5, 0, 0);
    m->cyl_d_piston[0] = 0.080;
    m->cyl_d_rod[0] = 0.035;
    m->cyl_stroke[0] = 0.7;
    m->cyl_l_p0[0] = 0.2;
    m->cyl_B[0] = 31500e6;
    m->cyl_vol_p[0] = 1;
    m->cyl_vol_r[0] = 2;
    m->cyl_fric[0] = HS_FRIC_NONE;
    m->cyl_init[0] = HS_CYLINIT_EQ_PROD;
    m->cyl_init_p[0] = 3.5e6;
    m->t_end = 7.0;
    hs_model_derive(m);
}

#endif
