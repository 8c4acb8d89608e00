/* test_riccati.c -- kernels/hs_riccati.h, hs_tree.h and hs_tree_rk4.h: the Riccati transfer
 * matrix method (seed 002) against the semi-recursive formulation and against the
 * Newton-Euler equations of every body.
 *  1. Seed 002's demonstration pendulum (models/branch_pendulum_rui2020.yaml, Sect. 5.1):
 *     theta_7''(0) = -0.6 g (worked out by hand in the model file), the others 0; and the
 *     accelerations equal the semi-recursive formulation's (M zdd = Q, kernels/hs_dynamics.h)
 *     at 100 random states to 1e-12 relative.
 *  2. The same on the 3D test tree (revolute and prismatic joints, a fixed rotation rot0,
 *     oblique gravity) and on 40 random trees of up to 16 bodies.
 *  3. Ball joints, which the semi-recursive formulation does not have: on random trees of
 *     revolute, prismatic and ball joints, every body's Newton-Euler equations hold with the
 *     recovered internal forces (1e-10), every hinge condition holds (no moment about a
 *     revolute axis or at a ball joint, no force along a slider), and the bodies' angular
 *     accelerations and centre-of-mass accelerations equal central differences of the
 *     kinematics' velocities along the motion (1e-6). The demonstration pendulum with ball
 *     joints (rods with a small inertia about their axis) equals the revolute one (1e-10).
 *  4. RK4 (hs_tree_rk4.h): the demonstration pendulum's trajectory over 1 s converges at
 *     fourth order (error ratio 16 +- 3 per halving of dt = 4, 2, 1 ms against 0.5 ms), its
 *     energy is conserved to the integrator's order (drift ratio >= 10 per halving), and a
 *     3D ball chain conserves energy to 1e-7 relative over 1 s at dt = 1 ms.
 *  5. A ball joint on a rod without inertia about its axis is refused with the joint's
 *     index (the spin about the axis is undetermined: seed 002's rods have J_xx = 0).
 *  6. Ball joints in the semi-recursive formulation (three bodies, the rotation vector:
 *     kernels/hs_rotvec.h, hs_tree_to_model): on a branched tree of ball, revolute and
 *     prismatic joints with fixed rotations, oblique gravity and loads, the accelerations
 *     equal the Riccati method's at 100 random states (rotation angles up to 5/4 pi, where the
 *     chart changes) to 1e-11 relative, and the model's initial state is the tree's. The
 *     step engine's trapezoidal rule on that model without its loads, with a tip spinning at
 *     15 rad/s (its rotation vector passes 5/4 pi and changes chart: hs_ball_rechart),
 *     converges at second order (ratio 4 +- 0.6 per halving of dt = 0.4, 0.2, 0.1 ms) to the Riccati method's
 *     RK4 trajectory (bodies' centres of mass at t = 0.5 s), conserves E_kin + E_pot to 1e-5
 *     relative, and a step that turns a joint by more than pi/2 fails the instance with
 *     singular_config. */
#include <stdlib.h>

#include "hs/model_file.h"
#include "hs/tree.h"
#include "hs_batch.h"
#include "hs_dynamics.h"
#include "hs_tree_rk4.h"
#include "test_util.h"

/* zdd of the semi-recursive formulation: M zdd = Q. */
static int semi_recursive_zdd_at(const hs_model *m, double time, const double *z, const double *zd, double *zdd);
static int semi_recursive_zdd(const hs_model *m, const double *z, const double *zd, double *zdd)
{
    return semi_recursive_zdd_at(m, 0.0, z, zd, zdd);
}

/* The same with the loads' signals at time. */
static int semi_recursive_zdd_at(const hs_model *m, double time, const double *z, const double *zd, double *zdd)
{
    hs_kin k;
    hs_dyn_work w;
    double M[HS_MAX_Z * HS_MAX_Z], Q[HS_MAX_Z];
    int piv[HS_MAX_Z], i;
    hs_kin_positions(m, z, &k);
    hs_kin_velocities(m, zd, &k);
    hs_mass_force(m, &k, time, M, HS_MAX_Z, Q, &w);
    if (hs_lu_factor(M, m->nz, HS_MAX_Z, piv)) return -1;
    hs_lu_solve(M, m->nz, HS_MAX_Z, piv, Q);
    for (i = 0; i < m->nz; ++i) zdd[i] = Q[i];
    return 0;
}

/* max |a - b| / max(1, max |b|) over n */
static double rel_diff(const double *a, const double *b, int n)
{
    double d = 0, s = 1;
    int i;
    for (i = 0; i < n; ++i) {
        if (fabs(a[i] - b[i]) > d) d = fabs(a[i] - b[i]);
        if (fabs(b[i]) > s) s = fabs(b[i]);
    }
    return d / s;
}

/* Riccati and semi-recursive accelerations of model m at ntrial random states; the worst
 * relative difference. */
static double compare_semi_recursive(const hs_model *m, int ntrial, double zamp, double vamp)
{
    hs_tree t;
    double w[HS_MAX_BODIES * HS_TREE_NW], worst = 0;
    int trial, i;
    hs_tree_of_model(m, &t);
    for (trial = 0; trial < ntrial; ++trial) {
        double z[HS_MAX_Z], zd[HS_MAX_Z], a[HS_MAX_Z], b[HS_MAX_Z], d;
        for (i = 0; i < m->nz; ++i) {
            z[i] = tu_rand(-zamp, zamp);
            zd[i] = tu_rand(-vamp, vamp);
        }
        CHECK(hs_riccati_accel(&t, z, zd, NULL, w, a, NULL) == 0, "riccati ok");
        CHECK(semi_recursive_zdd(m, z, zd, b) == 0, "semi-recursive ok");
        d = rel_diff(a, b, m->nz);
        if (d > worst) worst = d;
    }
    return worst;
}

static void test_demo_pendulum(void)
{
    hs_tree_model tm;
    hs_model_desc d;
    hs_model m;
    hs_error e;
    hs_tree t;
    double w[4 * HS_TREE_NW], a[4], z[4], zd[4] = {0, 0, 0, 0}, g = 9.81, worst;
    int j;
    if (hs_tree_load("models/branch_pendulum_rui2020.yaml", &tm, &e) != HS_OK) {
        CHECK(0, "load: %s", e.msg);
        return;
    }
    CHECK(tm.tree.nbody == 4 && tm.njoint[0] == 4, "4 rods on revolute joints");
    CHECK(hs_tree_body_find(&tm, "rod7") == 0, "rod 7, on the ground, first");
    CHECK(hs_tree_to_model(&tm, &m, &e) == HS_OK, "the step's model of the tree");
    hs_tree_of_model(&m, &t);
    for (j = 0; j < 4; ++j) z[j] = m.joint_z0[j];
    CHECK(hs_riccati_accel(&t, z, zd, NULL, w, a, NULL) == 0, "demo ok");
    /* body 0 is rod 7; its relative angle is its absolute angle */
    CHECK_CLOSE(a[0] / g, -0.6, 1e-14, "theta_7''(0) / g");
    /* absolute accelerations of rods 1, 5, 3: a[0] + a[1], a[0] + a[2], a[0] + a[2] + a[3] */
    CHECK(fabs(a[0] + a[1]) < 1e-13 * g, "theta_1''(0) = 0: %g", a[0] + a[1]);
    CHECK(fabs(a[0] + a[2]) < 1e-13 * g, "theta_5''(0) = 0: %g", a[0] + a[2]);
    CHECK(fabs(a[0] + a[2] + a[3]) < 1e-13 * g, "theta_3''(0) = 0: %g", a[0] + a[2] + a[3]);
    /* the loaded tree's own view gives the same numbers */
    {
        double a2[4];
        CHECK(hs_riccati_accel(&tm.tree, z, zd, NULL, w, a2, NULL) == 0 && rel_diff(a2, a, 4) == 0,
              "the file's tree equals the model view");
    }
    worst = compare_semi_recursive(&m, 100, HS_PI, 3.0);
    printf("demo pendulum: worst relative difference to the semi-recursive formulation %.2e\n", worst);
    CHECK(worst < 1e-12, "demo vs semi-recursive: %.3e", worst);
    /* the step's model loader refuses it with the reason */
    CHECK(hs_model_load("models/branch_pendulum_rui2020.yaml", &d, &e) == HS_ERR_VALUE &&
              !strcmp(e.key, "integrator.formulation") && strstr(e.msg, "hydrosweep simulate"),
          "hs_model_load refuses a riccati model: %s", e.msg);
    hs_tree_model_free(&tm);
}

/* A random tree of n bodies (revolute 3 of 4, prismatic 1 of 4) with random frames. */
static void random_model(hs_model *m, int n)
{
    int j, i;
    tu_model_defaults(m);
    m->nbody = n;
    for (j = 0; j < n; ++j) {
        double u[3], a0 = tu_rand(0.2, 1.5), a1 = tu_rand(0.2, 1.5);
        m->body_parent[j] = j == 0 ? -1 : (tu_rand(0, 1) < 0.6 ? j - 1 : (int)tu_rand(0, j));
        m->joint_type[j] = tu_rand(0, 1) < 0.25 ? HS_JOINT_PRISMATIC : HS_JOINT_REVOLUTE;
        for (i = 0; i < 3; ++i) m->joint_axis[j][i] = tu_rand(-1, 1);
        m->body_shape[j] = HS_SHAPE_CUSTOM;
        m->body_mass[j] = tu_rand(0.5, 3);
        for (i = 0; i < 3; ++i) {
            m->body_com[j][i] = tu_rand(-0.5, 0.5);
            m->joint_at_parent[j][i] = tu_rand(-0.6, 0.6);
            m->joint_at_child[j][i] = tu_rand(-0.3, 0.3);
        }
        /* principal moments obeying the triangle inequality, small products */
        m->body_inertia[j][0] = a0;
        m->body_inertia[j][1] = a1;
        m->body_inertia[j][2] = tu_rand(fabs(a0 - a1) + 0.05, a0 + a1);
        for (i = 3; i < 6; ++i) m->body_inertia[j][i] = tu_rand(-0.02, 0.02);
        for (i = 0; i < 3; ++i) u[i] = tu_rand(-1, 1);
        hs_normalize3(u);
        hs_m3_rot(m->joint_rot0[j], u, tu_rand(-2, 2));
    }
    hs_v3_set(m->gravity, tu_rand(-2, 2), -9.81, tu_rand(-2, 2));
    hs_model_derive(m);
}

static void test_trees_semi_recursive(void)
{
    hs_model m;
    double worst, all = 0;
    int k;
    tu_tree3d(&m);
    worst = compare_semi_recursive(&m, 100, 2.0, 2.0);
    CHECK(worst < 1e-12, "3D test tree vs semi-recursive: %.3e", worst);
    for (k = 0; k < 40; ++k) {
        random_model(&m, 2 + k % 15);
        worst = compare_semi_recursive(&m, 10, 2.0, 2.0);
        CHECK(worst < 1e-11, "random tree %d (%d bodies) vs semi-recursive: %.3e", k, m.nbody, worst);
        if (worst > all) all = worst;
    }
    printf("random trees of 2-16 bodies: worst relative difference %.2e\n", all);
}

/* ---- trees with ball joints, in arrays of their own ---- */
#define NB 40
typedef struct {
    hs_tree t;
    int parent[NB], jtype[NB], iq[NB], iv[NB];
    double mass[NB], com[NB * 3], inertia[NB * 6], at_parent[NB * 3], at_child[NB * 3], axis[NB * 3], rot0[NB * 9];
} tree_store;

/* The tree of store s (a tree_store, or a tree_store_big: the same member names) of n bodies:
 * its coordinate offsets from the joint types, and every array pointed at. */
#define STORE_LINK(s, n)                                                                           \
    do {                                                                                           \
        int j_, q_ = 0, v_ = 0;                                                                    \
        for (j_ = 0; j_ < (n); ++j_) {                                                             \
            (s)->iq[j_] = q_;                                                                      \
            (s)->iv[j_] = v_;                                                                      \
            q_ += hs_joint_nq((s)->jtype[j_]);                                                     \
            v_ += hs_joint_nv((s)->jtype[j_]);                                                     \
        }                                                                                          \
        (s)->t.nbody = (n), (s)->t.nq = q_, (s)->t.nv = v_;                                        \
        (s)->t.parent = (s)->parent, (s)->t.jtype = (s)->jtype, (s)->t.iq = (s)->iq;               \
        (s)->t.iv = (s)->iv, (s)->t.mass = (s)->mass, (s)->t.com = (s)->com;                       \
        (s)->t.inertia = (s)->inertia, (s)->t.at_parent = (s)->at_parent;                          \
        (s)->t.at_child = (s)->at_child, (s)->t.axis = (s)->axis, (s)->t.rot0 = (s)->rot0;         \
    } while (0)

static void store_init(tree_store *s, int n)
{
    STORE_LINK(s, n);
    s->t.ext = NULL; /* gravity only */
    s->t.time = 0.0;
}

static void random_state(const hs_tree *t, double *q, double *v)
{
    int j, i;
    for (j = 0; j < t->nbody; ++j) {
        int k = hs_tree_iq(t, j);
        if (t->jtype[j] == HS_JOINT_BALL) {
            double n = 0;
            for (i = 0; i < 4; ++i) {
                q[k + i] = tu_rand(-1, 1);
                n += q[k + i] * q[k + i];
            }
            for (i = 0; i < 4; ++i) q[k + i] /= sqrt(n);
        } else {
            q[k] = tu_rand(-2, 2);
        }
    }
    for (i = 0; i < t->nv; ++i) v[i] = tu_rand(-2, 2);
}

/* A tree of any size in heap arrays. */
typedef struct {
    hs_tree t;
    int *parent, *jtype, *iq, *iv, nball;
    double *mass, *com, *inertia, *at_parent, *at_child, *axis, *rot0;
} tree_store_big;

/* One block (free(s->mass) frees it): the doubles (1 + 3 + 6 + 3 + 3 + 3 + 9 per body), then the ints (4 per body). */
static int big_alloc(tree_store_big *s, int n)
{
    size_t N = (size_t)n;
    memset(s, 0, sizeof *s);
    if (!(s->mass = (double *)malloc((sizeof(double) * 28 + sizeof(int) * 4) * N))) return 0;
    s->com = s->mass + N;
    s->inertia = s->com + 3 * N;
    s->at_parent = s->inertia + 6 * N;
    s->at_child = s->at_parent + 3 * N;
    s->axis = s->at_child + 3 * N;
    s->rot0 = s->axis + 3 * N;
    s->parent = (int *)(s->rot0 + 9 * N);
    s->jtype = s->parent + N;
    s->iq = s->jtype + N;
    s->iv = s->iq + N;
    return 1;
}

/* A random tree of n bodies: ball joints 2 of 5, revolute 9 of 20, prismatic the rest; a body's
 * parent the one before it with probability chain (else any earlier one); random frames,
 * inertias obeying the triangle inequality, oblique gravity. */
static void random_big_tree(tree_store_big *s, int n, double chain)
{
    int j, i;
    for (j = 0; j < n; ++j) {
        double u[3], a0 = tu_rand(0.2, 1.5), a1 = tu_rand(0.2, 1.5), r = tu_rand(0, 1);
        s->parent[j] = j == 0 ? -1 : (tu_rand(0, 1) < chain ? j - 1 : (int)tu_rand(0, j));
        s->jtype[j] = r < 0.4 ? HS_JOINT_BALL : r < 0.85 ? HS_JOINT_REVOLUTE : HS_JOINT_PRISMATIC;
        s->nball += s->jtype[j] == HS_JOINT_BALL;
        for (i = 0; i < 3; ++i) u[i] = tu_rand(-1, 1);
        hs_normalize3(u);
        for (i = 0; i < 3; ++i) s->axis[3 * j + i] = u[i];
        s->mass[j] = tu_rand(0.5, 3);
        for (i = 0; i < 3; ++i) {
            s->com[3 * j + i] = tu_rand(-0.5, 0.5);
            s->at_parent[3 * j + i] = tu_rand(-0.6, 0.6);
            s->at_child[3 * j + i] = tu_rand(-0.3, 0.3);
        }
        s->inertia[6 * j] = a0;
        s->inertia[6 * j + 1] = a1;
        s->inertia[6 * j + 2] = tu_rand(fabs(a0 - a1) + 0.05, a0 + a1);
        for (i = 3; i < 6; ++i) s->inertia[6 * j + i] = tu_rand(-0.02, 0.02);
        for (i = 0; i < 3; ++i) u[i] = tu_rand(-1, 1);
        hs_normalize3(u);
        hs_m3_rot(s->rot0 + 9 * j, u, tu_rand(-2, 2));
    }
    STORE_LINK(s, n);
    hs_v3_set(s->t.gravity, 0.3, -9.81, -0.2);
}

/* Newton-Euler residuals of every body and the hinge conditions; the worst, relative to the
 * largest force or moment term. */
static void newton_euler_check(const hs_tree *t, const double *w, const double *F, const double *f, double *res,
                               double *hinge)
{
    int j, c, i;
    double scale = 1e-300, worst = 0, hw = 0;
    for (j = 0; j < t->nbody; ++j) {
        const double *wj = w + j * HS_TREE_NW, *acc = wj + HS_TW_ACC, *om = wj + HS_TW_W;
        double r[3], x[3], y[3], ac[3], J[9], Jb[6], Jw[3], Ja[3], Fr[3], Mr[3], d[3];
        double mj = t->mass[j], cj[3];
        hs_tree_com(t, j, wj, cj);
        hs_v3_sub(r, cj, wj + HS_TW_O);
        hs_v3_cross(x, acc + 3, r);
        hs_v3_cross(y, om, r);
        hs_v3_cross(d, om, y);
        for (i = 0; i < 3; ++i) ac[i] = acc[i] + x[i] + d[i];
        for (i = 0; i < 6; ++i) Jb[i] = t->inertia[6 * j + i];
        hs_m3_inertia_global(J, wj + HS_TW_A, Jb);
        hs_m3_mulv(Jw, J, om);
        hs_m3_mulv(Ja, J, acc + 3);
        hs_v3_cross(x, om, Jw);
        for (i = 0; i < 3; ++i) {
            Fr[i] = mj * ac[i] - mj * t->gravity[i] - (f ? f[6 * j + i] : 0) + F[6 * j + 3 + i];
            Mr[i] = Ja[i] + x[i] - (f ? f[6 * j + 3 + i] : 0) - F[6 * j + i];
            scale = fmax(scale, fmax(fabs(mj * ac[i]), fabs(F[6 * j + 3 + i])));
            scale = fmax(scale, fmax(fabs(Ja[i]), fabs(F[6 * j + i])));
        }
        /* the parent's force -q_j at o_j */
        hs_v3_sub(d, wj + HS_TW_O, cj);
        hs_v3_cross(y, d, F + 6 * j + 3);
        for (i = 0; i < 3; ++i) Mr[i] -= -y[i];
        for (c = j + 1; c < t->nbody; ++c) {
            const double *wc = w + c * HS_TREE_NW;
            if (t->parent[c] != j) continue;
            hs_v3_sub(d, wc + HS_TW_O, cj);
            hs_v3_cross(y, d, F + 6 * c + 3);
            for (i = 0; i < 3; ++i) {
                Fr[i] -= F[6 * c + 3 + i];
                Mr[i] -= -F[6 * c + i] + y[i];
            }
        }
        for (i = 0; i < 3; ++i) worst = fmax(worst, fmax(fabs(Fr[i]), fabs(Mr[i])));
        /* hinge conditions */
        {
            double H[18], Hm[18];
            int k = hs_riccati_hinge_maps(t, j, w, H, Hm);
            for (c = 0; c < k; ++c) {
                double s = 0;
                for (i = 0; i < 6; ++i) s += Hm[i * 3 + c] * F[6 * j + i];
                hw = fmax(hw, fabs(s));
            }
        }
    }
    *res = worst / scale;
    *hinge = hw / scale;
}

/* Angular and centre-of-mass accelerations against central differences of the kinematics
 * along the motion (q +- h q', v +- h v'); the worst relative difference. */
static double fd_check(const hs_tree *t, const double *q, const double *v, const double *vd, const double *w)
{
    static double wp[NB * HS_TREE_NW], wm[NB * HS_TREE_NW];
    double qp[4 * NB], qm[4 * NB], vp[3 * NB], vm[3 * NB], y[7 * NB], yd[7 * NB], wt[NB * HS_TREE_NW];
    double h = 1e-5, worst = 0, scale = 1;
    int i, j;
    for (i = 0; i < t->nq; ++i) y[i] = q[i];
    for (i = 0; i < t->nv; ++i) y[t->nq + i] = v[i];
    hs_tree_rate(t, y, NULL, wt, yd);
    for (i = 0; i < t->nq; ++i) {
        qp[i] = q[i] + h * yd[i];
        qm[i] = q[i] - h * yd[i];
    }
    for (i = 0; i < t->nv; ++i) {
        vp[i] = v[i] + h * vd[i];
        vm[i] = v[i] - h * vd[i];
    }
    hs_tree_kinematics(t, qp, vp, wp);
    hs_tree_kinematics(t, qm, vm, wm);
    for (j = 0; j < t->nbody; ++j) {
        const double *a = w + j * HS_TREE_NW, *P = wp + j * HS_TREE_NW, *M = wm + j * HS_TREE_NW;
        double r[3], x[3], yy[3], ac[3], vcp[3], vcm[3], d[3], ca[3], cp[3], cm[3];
        hs_tree_com(t, j, a, ca);
        hs_tree_com(t, j, P, cp);
        hs_tree_com(t, j, M, cm);
        hs_v3_sub(r, ca, a + HS_TW_O);
        hs_v3_cross(x, a + HS_TW_ACC + 3, r);
        hs_v3_cross(yy, a + HS_TW_W, r);
        hs_v3_cross(d, a + HS_TW_W, yy);
        for (i = 0; i < 3; ++i) ac[i] = a[HS_TW_ACC + i] + x[i] + d[i];
        hs_v3_sub(d, cp, P + HS_TW_O);
        hs_v3_cross(x, P + HS_TW_W, d);
        hs_v3_axpy(vcp, P + HS_TW_V, 1.0, x);
        hs_v3_sub(d, cm, M + HS_TW_O);
        hs_v3_cross(x, M + HS_TW_W, d);
        hs_v3_axpy(vcm, M + HS_TW_V, 1.0, x);
        for (i = 0; i < 3; ++i) {
            double fa = (P[HS_TW_W + i] - M[HS_TW_W + i]) / (2 * h), fc = (vcp[i] - vcm[i]) / (2 * h);
            worst = fmax(worst, fmax(fabs(fa - a[HS_TW_ACC + 3 + i]), fabs(fc - ac[i])));
            scale = fmax(scale, fmax(fabs(fa), fabs(fc)));
        }
    }
    return worst / scale;
}

static void test_ball_trees(void)
{
    static double w[NB * HS_TREE_NW];
    double q[4 * NB], v[3 * NB], vd[3 * NB], F[6 * NB], f[6 * NB], res, hinge, fd, wr = 0, wh = 0, wf = 0;
    int k, i, nball = 0;
    tree_store_big s;
    if (!big_alloc(&s, NB)) {
        CHECK(0, "out of memory");
        return;
    }
    for (k = 0; k < 30; ++k) {
        int n = 2 + (k * 7) % (NB - 1);
        s.nball = 0;
        random_big_tree(&s, n, 0.6);
        nball += s.nball;
        random_state(&s.t, q, v);
        for (i = 0; i < 6 * n; ++i) f[i] = k % 2 ? tu_rand(-3, 3) : 0;
        CHECK(hs_riccati_accel(&s.t, q, v, k % 2 ? f : NULL, w, vd, F) == 0, "ball tree %d ok", k);
        newton_euler_check(&s.t, w, F, k % 2 ? f : NULL, &res, &hinge);
        CHECK(res < 1e-10, "tree %d (%d bodies): Newton-Euler residual %.3e", k, n, res);
        CHECK(hinge < 1e-12, "tree %d: hinge condition %.3e", k, hinge);
        if (k % 2 == 0) {
            fd = fd_check(&s.t, q, v, vd, w);
            CHECK(fd < 1e-6, "tree %d: accelerations vs central differences %.3e", k, fd);
            wf = fmax(wf, fd);
        }
        wr = fmax(wr, res);
        wh = fmax(wh, hinge);
    }
    free(s.mass);
    CHECK(nball > 100, "%d ball joints tried", nball);
    printf("ball trees: Newton-Euler %.2e, hinge conditions %.2e, central differences %.2e\n", wr, wh, wf);
}

/* The demonstration pendulum built in a tree_store: ball joints (ball = 1) or revolute ones,
 * rods with inertia Jx about their axis. */
static void demo_store(tree_store *s, int ball, double Jx)
{
    static const int par[4] = {-1, 0, 0, 2};
    static const double atp[4][3] = {{0, 0, 0}, {0, 0, 0}, {1, 0, 0}, {0, 0, 0}};
    static const double atc[4][3] = {{0.5, 0, 0}, {1, 0, 0}, {1, 0, 0}, {1, 0, 0}};
    int j, i;
    for (j = 0; j < 4; ++j) {
        s->parent[j] = par[j];
        s->jtype[j] = ball ? HS_JOINT_BALL : HS_JOINT_REVOLUTE;
        s->mass[j] = 1;
        hs_v3_set(s->com + 3 * j, 0.5, 0, 0);
        for (i = 0; i < 6; ++i) s->inertia[6 * j + i] = 0;
        s->inertia[6 * j] = Jx;
        s->inertia[6 * j + 1] = s->inertia[6 * j + 2] = 1.0 / 12;
        for (i = 0; i < 3; ++i) {
            s->at_parent[3 * j + i] = atp[j][i];
            s->at_child[3 * j + i] = atc[j][i];
        }
        hs_v3_set(s->axis + 3 * j, 0, 0, 1);
        hs_m3_identity(s->rot0 + 9 * j);
    }
    store_init(s, 4);
    hs_v3_set(s->t.gravity, 0, -9.81, 0);
}

static void test_demo_ball(void)
{
    static tree_store sb, sr;
    static double w[4 * HS_TREE_NW];
    double z[4], zd[4], qb[16], vb[12], ab[12], ar[4], F[24];
    int trial, j;
    demo_store(&sb, 1, 1e-4);
    demo_store(&sr, 0, 1e-4);
    for (trial = 0; trial < 20; ++trial) {
        double worst = 0;
        for (j = 0; j < 4; ++j) {
            z[j] = tu_rand(-3, 3);
            zd[j] = tu_rand(-3, 3);
            qb[4 * j] = cos(z[j] / 2);
            qb[4 * j + 1] = qb[4 * j + 2] = 0;
            qb[4 * j + 3] = sin(z[j] / 2);
            vb[3 * j] = vb[3 * j + 1] = 0;
            vb[3 * j + 2] = zd[j];
        }
        CHECK(hs_riccati_accel(&sb.t, qb, vb, NULL, w, ab, F) == 0, "ball demo ok");
        CHECK(hs_riccati_accel(&sr.t, z, zd, NULL, w, ar, NULL) == 0, "revolute demo ok");
        for (j = 0; j < 4; ++j) {
            worst = fmax(worst, fabs(ab[3 * j + 2] - ar[j]) / fmax(1, fabs(ar[j])));
            worst = fmax(worst, fmax(fabs(ab[3 * j]), fabs(ab[3 * j + 1])));
        }
        /* 1e-10: the ball joints invert the rods' 3x3 rotational inertia, whose principal values
         * differ by 833 (J_xx = 1e-4): rounding grows to ~1e-11 there, not in the revolute 1x1 */
        CHECK(worst < 1e-10, "ball demo equals revolute demo: %.3e", worst);
    }
    /* J_xx = 0: the tip rod's spin is undetermined: refused at its joint (index 3 -> 4) */
    demo_store(&sb, 1, 0.0);
    CHECK(hs_riccati_accel(&sb.t, qb, vb, NULL, w, ab, F) == 4, "J_xx = 0 refused at the tip rod's joint");
}

/* The demonstration pendulum over t_end at step dt from its initial state: final y. */
static int demo_run(const hs_tree *t, const double *y0, double dt, double t_end, double *y, double *E0, double *E1)
{
    static double w[4 * HS_TREE_NW];
    double scratch[5 * 8], Ek, Ep;
    long n = lround(t_end / dt), i;
    int rc;
    for (i = 0; i < 8; ++i) y[i] = y0[i];
    hs_tree_kinematics(t, y, y + 4, w);
    hs_tree_energy(t, w, &Ek, &Ep);
    *E0 = Ek + Ep;
    for (i = 0; i < n; ++i)
        if ((rc = hs_tree_rk4_step(t, dt, NULL, y, w, scratch))) return rc;
    hs_tree_kinematics(t, y, y + 4, w);
    hs_tree_energy(t, w, &Ek, &Ep);
    *E1 = Ek + Ep;
    return 0;
}

static void test_rk4_demo(void)
{
    hs_tree_model tm;
    hs_error e;
    const hs_tree *t = &tm.tree;
    double y0[8], yref[8], y[3][8], E0, E1, err[3], drift[3];
    int j, r;
    if (hs_tree_load("models/branch_pendulum_rui2020.yaml", &tm, &e) != HS_OK) {
        CHECK(0, "load: %s", e.msg);
        return;
    }
    for (j = 0; j < 4; ++j) {
        y0[j] = tm.q0[j];
        y0[4 + j] = tm.v0[j];
    }
    CHECK(demo_run(t, y0, 0.5e-3, 1.0, yref, &E0, &E1) == 0, "reference run");
    for (r = 0; r < 3; ++r) {
        double dt = 4e-3 / (1 << r);
        CHECK(demo_run(t, y0, dt, 1.0, y[r], &E0, &E1) == 0, "run dt %g", dt);
        err[r] = 0;
        for (j = 0; j < 8; ++j) err[r] = fmax(err[r], fabs(y[r][j] - yref[j]));
        drift[r] = fabs(E1 - E0);
        printf("RK4 demo dt = %g ms: error at 1 s %.3e, energy drift %.3e J\n", dt * 1e3, err[r], drift[r]);
    }
    /* errors against dt = 0.5 ms: e(dt) = C (dt^4 - 0.5^4), so the ratios of successive errors
     * are 17.0 (2 -> 1 ms) and 16.06 (4 -> 2 ms) at fourth order: within 16 +- 3 */
    for (r = 0; r < 2; ++r) {
        double ratio = err[r] / err[r + 1];
        CHECK(ratio > 13 && ratio < 19, "fourth order: error ratio %.2f (dt %g -> %g ms)", ratio, 4.0 / (1 << r),
              2.0 / (1 << r));
        CHECK(drift[r] / drift[r + 1] > 10, "energy drift falls with the integrator's order: %.2f",
              drift[r] / drift[r + 1]);
    }
    CHECK(drift[2] < 1e-8 * 20, "energy drift at dt = 1 ms: %.3e J of a ~20 J scale", drift[2]);
    hs_tree_model_free(&tm);
}

/* A hanging chain of 30 ball-jointed rods (radius 1 cm), started swinging out of plane: energy
 * over 1 s at dt = 1 ms. */
static void test_rk4_ball_chain(void)
{
    static tree_store s;
    static double w[NB * HS_TREE_NW], y[7 * NB], scratch[5 * 7 * NB];
    int n = 30, j, i, rc = 0;
    double Ek, Ep, E0, E1, qn = 0;
    for (j = 0; j < n; ++j) {
        s.parent[j] = j - 1;
        s.jtype[j] = HS_JOINT_BALL;
        s.mass[j] = 0.2;
        hs_v3_set(s.com + 3 * j, 0.05, 0, 0);
        for (i = 0; i < 6; ++i) s.inertia[6 * j + i] = 0;
        s.inertia[6 * j] = 0.2 * 0.01 * 0.01 / 2;
        s.inertia[6 * j + 1] = s.inertia[6 * j + 2] = 0.2 * 0.1 * 0.1 / 12;
        hs_v3_set(s.at_parent + 3 * j, j ? 0.1 : 0, 0, 0);
        hs_v3_set(s.at_child + 3 * j, 0, 0, 0);
        hs_v3_set(s.axis + 3 * j, 1, 0, 0);
        hs_m3_identity(s.rot0 + 9 * j);
    }
    store_init(&s, n);
    hs_v3_set(s.t.gravity, 0, -9.81, 0);
    for (j = 0; j < n; ++j) {
        /* the first rod tilted down and out of plane, the rest in line, spinning a little */
        double ang = j == 0 ? -1.2 : 0.05, ax[3] = {0.3, 0.2, 1};
        hs_normalize3(ax);
        y[4 * j] = cos(ang / 2);
        for (i = 0; i < 3; ++i) y[4 * j + 1 + i] = sin(ang / 2) * ax[i];
    }
    for (i = 0; i < s.t.nv; ++i) y[s.t.nq + i] = 0.3 * sin(0.7 * i);
    hs_tree_kinematics(&s.t, y, y + s.t.nq, w);
    hs_tree_energy(&s.t, w, &Ek, &Ep);
    E0 = Ek + Ep;
    for (i = 0; i < 1000 && !rc; ++i) rc = hs_tree_rk4_step(&s.t, 1e-3, NULL, y, w, scratch);
    CHECK(rc == 0, "ball chain runs");
    hs_tree_kinematics(&s.t, y, y + s.t.nq, w);
    hs_tree_energy(&s.t, w, &Ek, &Ep);
    E1 = Ek + Ep;
    for (j = 0; j < n; ++j)
        qn = fmax(qn, fabs(y[4 * j] * y[4 * j] + y[4 * j + 1] * y[4 * j + 1] + y[4 * j + 2] * y[4 * j + 2] +
                           y[4 * j + 3] * y[4 * j + 3] - 1));
    printf("ball chain of %d rods: energy %.6f -> %.6f J (relative drift %.2e), |quat| - 1 <= %.1e\n", n, E0, E1,
           fabs(E1 - E0) / fabs(E0), qn);
    CHECK(fabs(E1 - E0) < 1e-7 * fabs(E0), "ball chain energy drift %.3e", fabs(E1 - E0) / fabs(E0));
    CHECK(qn < 1e-14, "quaternions unit");
}

/* Large trees, where no other formulation is at hand: the Newton-Euler equations of every body
 * and every hinge condition with the recovered internal forces (a solution that satisfies
 * them is the solution), on a random tree of 10 000 bodies with every joint type and on
 * models/branch_system_rui2020.yaml (500 ball-jointed 1 cm rods) at its initial state and
 * moving. */
static void test_large_trees(void)
{
    const int n = 10000;
    tree_store_big big;
    hs_tree_model tm;
    hs_error e;
    double *w, *q, *v, *vd, *F, res, hinge;
    int i, k;
    if (!big_alloc(&big, n)) {
        CHECK(0, "out of memory");
        return;
    }
    random_big_tree(&big, n, 0.9); /* long paths: a depth of thousands */
    w = (double *)malloc(sizeof(double) * (size_t)n * HS_TREE_NW);
    q = (double *)malloc(sizeof(double) * 4 * (size_t)n);
    v = (double *)malloc(sizeof(double) * 3 * (size_t)n);
    vd = (double *)malloc(sizeof(double) * 3 * (size_t)n);
    F = (double *)malloc(sizeof(double) * 6 * (size_t)n);
    random_state(&big.t, q, v);
    for (i = 0; i < big.t.nv; ++i) v[i] *= 0.2;
    CHECK(hs_riccati_accel(&big.t, q, v, NULL, w, vd, F) == 0, "10 000 bodies ok");
    newton_euler_check(&big.t, w, F, NULL, &res, &hinge);
    printf("random tree of %d bodies (%d ball joints): Newton-Euler %.2e, hinge conditions %.2e\n", n,
           big.nball, res, hinge);
    CHECK(res < 1e-10 && hinge < 1e-11, "10 000 bodies: Newton-Euler %.3e, hinge %.3e", res, hinge);
    free(big.mass);
    if (hs_tree_load("models/branch_system_rui2020.yaml", &tm, &e) != HS_OK) {
        CHECK(0, "load: %s", e.msg);
    } else {
        for (k = 0; k < 2; ++k) {
            memcpy(q, tm.q0, sizeof(double) * (size_t)tm.tree.nq);
            for (i = 0; i < tm.tree.nv; ++i) v[i] = k ? tu_rand(-1, 1) : 0.0;
            CHECK(hs_riccati_accel(&tm.tree, q, v, NULL, w, vd, F) == 0, "branch system ok");
            newton_euler_check(&tm.tree, w, F, NULL, &res, &hinge);
            printf("branch system N = 999 (%s): Newton-Euler %.2e, hinge conditions %.2e\n", k ? "moving" : "at rest",
                   res, hinge);
            CHECK(res < 1e-10 && hinge < 1e-11, "branch system: Newton-Euler %.3e, hinge %.3e", res, hinge);
        }
        hs_tree_model_free(&tm);
    }
    free(w);
    free(q);
    free(v);
    free(vd);
    free(F);
}


/* 6. External loads (model files' loads and signals on a riccati tree: hs_tree_loads). A 3D
 *    tree of revolute and prismatic joints with a global force at a point (a sine test input),
 *    a body-frame torque (knots) and a body-frame force (constant): the accelerations equal the
 *    semi-recursive formulation's with the same loads (hs_tree_to_model) at 50 random states
 *    and times to 1e-12; E_kin + E_pot - W_ext (the loads' work, integrated by the RK4 stages)
 *    is conserved to the integrator's order (drift ratio >= 10 per halving of dt). A ball chain
 *    with a body-frame force and torque keeps the same balance to 1e-9 relative. */
static const char *k_loaded_tree =
    "name: loaded_tree\n"
    "gravity: [0.5, -9.81, 0.2]\n"
    "bodies:\n"
    "  - {name: a, shape: beam, mass: 2 kg, length: 1 m, width: 0.1 m, height: 0.05 m}\n"
    "  - {name: b, shape: beam, mass: 1 kg, length: 0.8 m, width: 0.05 m, height: 0.05 m}\n"
    "  - {name: c, shape: beam, mass: 0.5 kg, length: 0.6 m, width: 0.05 m, height: 0.04 m}\n"
    "  - {name: d, shape: beam, mass: 0.7 kg, length: 0.5 m, width: 0.05 m, height: 0.05 m}\n"
    "joints:\n"
    "  - {name: ja, type: revolute, parent: ground, child: a, axis: [0, 0, 1], at_parent: [0, 0, 0], "
    "at_child: [0, 0, 0], z0: 20 deg}\n"
    "  - {name: jb, type: revolute, parent: a, child: b, axis: [0, 1, 1], at_parent: [1, 0, 0], "
    "at_child: [0, 0, 0], z0: -30 deg, zdot0: 1}\n"
    "  - {name: jc, type: prismatic, parent: b, child: c, axis: [1, 0, 0], at_parent: [0.4, 0, 0], "
    "at_child: [0, 0, 0], z0: 0.1}\n"
    "  - {name: jd, type: revolute, parent: a, child: d, axis: [1, 0, 0], at_parent: [0.5, 0, 0], "
    "at_child: [0, 0.1, 0], z0: 40 deg}\n"
    "signals:\n"
    "  - {name: push, kind: sine, v0: 0.5, a: 1.5, f: 2 Hz}\n"
    "  - {name: twist, knots: [[0, 0], [0.3, 2], [0.7, -1], [2, 1]]}\n"
    "loads:\n"
    "  - {name: tip_force, body: c, at: [0.6, 0.02, 0], force: [3, -4, 2], force_signal: push}\n"
    "  - {name: body_torque, body: b, frame: body, torque: [0.5, -0.2, 1], torque_signal: twist}\n"
    "  - {name: body_force, body: d, frame: body, at: [0.5, 0, 0.01], force: [0, 2, -1], torque: [0.1, 0, 0]}\n"
    "integrator: {formulation: riccati, method: rk4, dt: 1 ms, t_end: 1 s}\n";

/* E_kin + E_pot - W_ext - its start after t_end of RK4 at dt from the file's initial state. */
static double loaded_drift(const hs_tree_model *tm, double dt, double t_end, double *E0)
{
    hs_tree t = tm->tree;
    int n = t.nq + t.nv, k, steps = (int)lround(t_end / dt);
    double *y = (double *)malloc(sizeof(double) * (size_t)n), *sc = (double *)malloc(sizeof(double) * 5 * (size_t)n);
    double *w = (double *)malloc(sizeof(double) * (size_t)t.nbody * HS_TREE_NW), Ek, Ep, W = 0.0, d;
    memcpy(y, tm->q0, sizeof(double) * (size_t)t.nq);
    memcpy(y + t.nq, tm->v0, sizeof(double) * (size_t)t.nv);
    hs_tree_normalise(&t, y);
    hs_tree_kinematics(&t, y, y + t.nq, w);
    hs_tree_energy(&t, w, &Ek, &Ep);
    *E0 = Ek + Ep;
    for (k = 0; k < steps; ++k) {
        t.time = k * dt;
        if (hs_tree_rk4_step_w(&t, dt, NULL, y, w, sc, &W)) break;
    }
    hs_tree_kinematics(&t, y, y + t.nq, w);
    hs_tree_energy(&t, w, &Ek, &Ep);
    d = Ek + Ep - W - *E0;
    free(y);
    free(sc);
    free(w);
    return k == steps ? d : NAN;
}

static void test_external_loads(void)
{
    hs_tree_model tm;
    hs_model m;
    hs_error e;
    double z[HS_MAX_Z], zd[HS_MAX_Z], a[HS_MAX_Z], b[HS_MAX_Z], w[4 * HS_TREE_NW], worst = 0, E0, d[4];
    int k, i, rc;
    rc = hs_tree_load_text(k_loaded_tree, "loaded_tree.yaml", &tm, &e);
    CHECK(rc == HS_OK, "loaded tree: %s", e.msg);
    if (rc) return;
    CHECK(tm.inputs && tm.inputs->nload == 3 && tm.inputs->nsignal == 2 && tm.tree.ext == tm.inputs, "loads read");
    CHECK(hs_tree_to_model(&tm, &m, &e) == HS_OK && m.nload == 3, "semi-recursive twin: %s", e.msg);
    for (k = 0; k < 50; ++k) {
        hs_tree t = tm.tree;
        double time = tu_rand(0.0, 2.0);
        for (i = 0; i < 4; ++i) {
            z[i] = tu_rand(-1.0, 1.0);
            zd[i] = tu_rand(-2.0, 2.0);
        }
        t.time = time;
        CHECK(hs_riccati_accel(&t, z, zd, NULL, w, a, NULL) == 0, "riccati with loads");
        CHECK(semi_recursive_zdd_at(&m, time, z, zd, b) == 0, "semi-recursive with loads");
        worst = fmax(worst, rel_diff(a, b, 4));
    }
    printf("external loads: Riccati against semi-recursive at 50 states and times: %.2e relative\n", worst);
    CHECK(worst < 1e-12, "loaded accelerations agree: %.3e", worst);
    /* and the loads matter: without them the accelerations differ */
    {
        hs_tree t = tm.tree;
        t.ext = NULL;
        t.time = 0.3;
        CHECK(hs_riccati_accel(&t, z, zd, NULL, w, b, NULL) == 0 && rel_diff(a, b, 4) > 1e-3, "loads change zdd");
    }
    for (k = 0; k < 4; ++k) d[k] = fabs(loaded_drift(&tm, 4e-3 / (1 << k), 1.0, &E0));
    printf("external loads: |E_kin + E_pot - W_ext drift| over 1 s at dt 4, 2, 1, 0.5 ms: %.2e %.2e %.2e %.2e J\n",
           d[0], d[1], d[2], d[3]);
    CHECK(d[0] / d[1] > 10 && d[1] / d[2] > 10, "energy balance at the integrator's order: %.1f %.1f", d[0] / d[1],
          d[1] / d[2]);
    CHECK(d[2] < 1e-8 * fabs(E0) + 1e-10, "drift at 1 ms %.3e of E0 %.3g", d[2], E0);
    hs_tree_model_free(&tm);
}

static void test_loaded_ball_chain(void)
{
    static const char *text =
        "name: loaded_ball_chain\n"
        "gravity: [0, -9.81, 0]\n"
        "signals:\n"
        "  - {name: wave, kind: sine, v0: 0, a: 1, f: 1.5 Hz}\n"
        "chains:\n"
        "  - name: link\n"
        "    count: 8\n"
        "    parent: ground\n"
        "    body: {shape: beam, mass: 0.5 kg, length: 0.4 m, width: 0.1 m, height: 0.08 m}\n"
        "    joint: {type: ball, at_parent: [0, 0, 0], at_child: [0.4, 0, 0], w0: [0.3, -0.5, 0.8]}\n"
        "    first_joint: {type: ball, at_parent: [0, 0, 0], at_child: [0.4, 0, 0], q0: {axis: [0, 0, 1], angle: 80 deg}}\n"
        "loads:\n"
        "  - {name: tip, body: link_8, frame: body, at: [0, 0.01, 0], force: [1, 2, 3], torque: [0.1, 0.2, 0], "
        "force_signal: wave}\n"
        "  - {name: mid, body: link_4, force: [0, 0, 2]}\n"
        "integrator: {formulation: riccati, method: rk4, dt: 1 ms, t_end: 1 s}\n";
    hs_tree_model tm;
    hs_error e;
    double E0, d, d2;
    int rc = hs_tree_load_text(text, "loaded_ball_chain.yaml", &tm, &e);
    CHECK(rc == HS_OK, "loaded ball chain: %s", e.msg);
    if (rc) return;
    d = loaded_drift(&tm, 1e-3, 1.0, &E0);
    d2 = loaded_drift(&tm, 0.5e-3, 1.0, &E0);
    printf("loaded ball chain of 8 rods: E_kin + E_pot - W_ext drift %.2e, %.2e J over 1 s at dt 1, 0.5 ms (E0 %.4g "
           "J)\n",
           d, d2, E0);
    CHECK(fabs(d) < 1e-5 * fabs(E0) && fabs(d / d2) > 10, "ball chain with loads keeps its balance at RK4's order: %.3e, %.3e",
          d, d2);
    hs_tree_model_free(&tm);
}

static const char *k_ball_tree =
    "name: ball_tree\n"
    "gravity: [0.4, -9.81, 0.3]\n"
    "bodies:\n"
    "  - {name: base, shape: beam, mass: 3 kg, length: 0.6 m, width: 0.2 m, height: 0.1 m}\n"
    "  - {name: arm, shape: beam, mass: 1.5 kg, length: 1 m, width: 0.08 m, height: 0.06 m}\n"
    "  - {name: fore, shape: beam, mass: 0.8 kg, length: 0.7 m, width: 0.05 m, height: 0.05 m}\n"
    "  - {name: slide, shape: beam, mass: 0.4 kg, length: 0.3 m, width: 0.04 m, height: 0.03 m}\n"
    "  - {name: tip, shape: beam, mass: 0.3 kg, length: 0.4 m, width: 0.05 m, height: 0.02 m}\n"
    "joints:\n"
    "  - {name: j0, type: revolute, parent: ground, child: base, axis: [0, 1, 0], at_parent: [0, 0, 0], "
    "at_child: [0.3, 0, 0], z0: 15 deg, zdot0: 0.4}\n"
    "  - {name: j1, type: ball, parent: base, child: arm, at_parent: [0.6, 0.05, 0], at_child: [0.1, 0, 0.02], "
    "rotation0: {axis: [1, 1, 0], angle: 30 deg}, q0: {axis: [0.3, 0.2, 1], angle: 70 deg}, w0: [0.5, -1, 0.8]}\n"
    "  - {name: j2, type: ball, parent: arm, child: fore, at_parent: [1, 0, 0], at_child: [0, 0, 0], "
    "q0: {axis: [1, 0, 0], angle: 150 deg}, w0: [1.2, 0.3, -0.4]}\n"
    "  - {name: j3, type: prismatic, parent: arm, child: slide, axis: [0, 0, 1], at_parent: [0.5, 0, 0], "
    "at_child: [0, 0, 0], z0: 0.05, zdot0: -0.2}\n"
    "  - {name: j4, type: ball, parent: fore, child: tip, at_parent: [0.7, 0, 0], at_child: [0, 0.01, 0], "
    "w0: [0, 0, 2]}\n"
    "signals:\n"
    "  - {name: push, kind: sine, v0: 0.5, a: 1.5, f: 2 Hz}\n"
    "loads:\n"
    "  - {name: tip_force, body: tip, at: [0.4, 0.02, 0], force: [3, -4, 2], force_signal: push}\n"
    "  - {name: fore_torque, body: fore, frame: body, torque: [0.5, -0.2, 1]}\n"
    "integrator: {formulation: riccati, method: rk4, dt: 1 ms, t_end: 1 s}\n";

/* a random unit quaternion with rotation angle up to amax */
static void rand_quat(double amax, double q[4])
{
    double ax[3], n, a = amax * (rand() / (double)RAND_MAX);
    do {
        ax[0] = 2.0 * rand() / RAND_MAX - 1, ax[1] = 2.0 * rand() / RAND_MAX - 1, ax[2] = 2.0 * rand() / RAND_MAX - 1;
        n = sqrt(ax[0] * ax[0] + ax[1] * ax[1] + ax[2] * ax[2]);
    } while (n < 0.1);
    q[0] = cos(0.5 * a);
    q[1] = sin(0.5 * a) * ax[0] / n, q[2] = sin(0.5 * a) * ax[1] / n, q[3] = sin(0.5 * a) * ax[2] / n;
}

static void test_semi_recursive_ball(void)
{
    hs_tree_model tm;
    hs_model m;
    hs_error e;
    double z[HS_MAX_Z], zd[HS_MAX_Z], zdd[HS_MAX_Z], worst = 0, worst0;
    int rc = hs_tree_load_text(k_ball_tree, "ball_tree.yaml", &tm, &e), trial, j, i;
    CHECK(rc == HS_OK, "ball tree: %s", e.msg);
    if (rc) return;
    rc = hs_tree_to_model(&tm, &m, &e);
    CHECK(rc == HS_OK && m.nbody == 11 && m.nload == 2, "the ball tree's semi-recursive twin (11 bodies): %s", e.msg);
    if (rc) goto out;
    {
        int tip = hs_tree_model_body(&tm, hs_tree_body_find(&tm, "tip")),
            fore = hs_tree_model_body(&tm, hs_tree_body_find(&tm, "fore")),
            arm = hs_tree_model_body(&tm, hs_tree_body_find(&tm, "arm"));
        CHECK(m.load_body[0] == tip && m.load_body[1] == fore && m.joint_ball[arm] == 3 && m.joint_ball[arm - 2] == 1 &&
                  m.body_mass[arm - 2] == 0.0 && m.body_mass[arm - 1] == 0.0 && m.body_mass[arm] == 1.5,
              "loads on the children of ball joints (%d %d), massless first bodies", m.load_body[0], m.load_body[1]);
    }
    {
        /* the model's own initial state against the tree's (q0, v0) */
        hs_tree t = tm.tree;
        int nq = t.nq, nv = t.nv;
        double *w = (double *)malloc(sizeof(double) * (size_t)t.nbody * HS_TREE_NW), vd[64], vd2[64];
        double Ek, Ep, Ek2, Ep2;
        hs_kin k;
        hs_kin_positions(&m, m.joint_z0, &k);
        hs_kin_velocities(&m, m.joint_zd0, &k);
        hs_energy(&m, &k, 0.0, &Ek2, &Ep2);
        hs_tree_kinematics(&t, tm.q0, tm.v0, w);
        hs_tree_energy(&t, w, &Ek, &Ep);
        worst0 = fmax(fabs(Ek - Ek2) / Ek, fabs(Ep - Ep2) / fabs(Ep));
        printf("ball tree: the semi-recursive model's initial energies against the tree's: %.2e relative (E_kin %.4g J)\n",
               worst0, Ek);
        CHECK(worst0 < 1e-13, "the same initial state: %.3e", worst0);
        /* accelerations at random states and times */
        for (trial = 0; trial < 100; ++trial) {
            double q[64], v[64];
            t.time = 0.01 * trial;
            for (j = 0; j < t.nbody; ++j) {
                int iq = hs_tree_iq(&t, j), iv = hs_tree_iv(&t, j);
                if (t.jtype[j] == HS_JOINT_BALL) {
                    rand_quat(1.25 * HS_PI, q + iq);
                    for (i = 0; i < 3; ++i) v[iv + i] = 4.0 * rand() / RAND_MAX - 2.0;
                } else {
                    q[iq] = 2.0 * rand() / RAND_MAX - 1.0;
                    v[iv] = 2.0 * rand() / RAND_MAX - 1.0;
                }
            }
            (void)nq;
            (void)nv;
            if (hs_riccati_accel(&t, q, v, NULL, w, vd, NULL)) {
                CHECK(0, "Riccati at trial %d", trial);
                break;
            }
            CHECK(hs_tree_state_to_model(&tm, q, v, z, zd) == m.nbody, "state to model");
            if (semi_recursive_zdd_at(&m, t.time, z, zd, zdd)) {
                CHECK(0, "semi-recursive at trial %d", trial);
                break;
            }
            hs_tree_accel_from_model(&tm, z, zd, zdd, vd2);
            worst = fmax(worst, rel_diff(vd2, vd, t.nv));
        }
        free(w);
    }
    printf("ball tree: semi-recursive (rotation vectors) against Riccati at 100 random states: %.2e relative\n", worst);
    CHECK(worst < 1e-11, "semi-recursive with ball joints = Riccati: %.3e", worst);
out:
    hs_tree_model_free(&tm);
}

/* The centres of mass (nbody x 3) of the tree's bodies at the model's state s. */
static void model_coms(const hs_tree_model *tm, const hs_model *m, const double *z, double *c)
{
    hs_kin k;
    int j;
    hs_kin_positions(m, z, &k);
    for (j = 0; j < tm->tree.nbody; ++j) hs_kin_com(m, &k, hs_tree_model_body(tm, j), c + 3 * j);
}

static void test_semi_recursive_ball_steps(void)
{
    static const char *text_spin = "  - {name: j4, type: ball, parent: fore, child: tip, at_parent: [0.7, 0, 0], "
                                   "at_child: [0, 0.01, 0], w0: [15, 0, 1]}\n";
    char text[4096];
    const char *at = strstr(k_ball_tree, "  - {name: j4");
    const char *end = at ? strstr(at, "\n") : NULL;
    hs_tree_model tm;
    hs_model m;
    hs_error e;
    hs_work *W = (hs_work *)malloc(sizeof *W);
    hs_state st;
    double ref[64], c[3][64], dts[3] = {0.4e-3, 0.2e-3, 0.1e-3}, t_end = 0.5, worst_E = 0, E0 = 0, err[3];
    int rc, r, nb, switches = 0;
    /* the ball tree with a tip spinning about its rod */
    snprintf(text, sizeof text, "%.*s%s%s", (int)(at - k_ball_tree), k_ball_tree, text_spin, end + 1);
    rc = hs_tree_load_text(text, "ball_tree_spin.yaml", &tm, &e);
    CHECK(rc == HS_OK && W, "spinning ball tree: %s", e.msg);
    if (rc) {
        free(W);
        return;
    }
    nb = tm.tree.nbody;
    {
        /* the reference: RK4 of the Riccati method at dt = 0.05 ms (its error ~1e-13 here) */
        hs_tree t = tm.tree;
        int n = t.nq + t.nv, k, steps = (int)lround(t_end / 0.05e-3);
        t.ext = NULL; /* without the loads (the accelerations' test has them): a smooth motion */
        double *y = (double *)malloc(sizeof(double) * (size_t)n), *sc = (double *)malloc(sizeof(double) * 3 * (size_t)n);
        double *w = (double *)malloc(sizeof(double) * (size_t)nb * HS_TREE_NW);
        memcpy(y, tm.q0, sizeof(double) * (size_t)t.nq);
        memcpy(y + t.nq, tm.v0, sizeof(double) * (size_t)t.nv);
        for (k = 0; k < steps; ++k) {
            t.time = k * 0.05e-3;
            if (hs_tree_rk4_step(&t, 0.05e-3, NULL, y, w, sc)) break;
        }
        CHECK(k == steps, "Riccati reference ran");
        hs_tree_kinematics(&t, y, y + t.nq, w);
        for (k = 0; k < nb; ++k) hs_tree_com(&t, k, w + (long)k * HS_TREE_NW, ref + 3 * k);
        free(y);
        free(sc);
        free(w);
    }
    for (r = 0; r < 3; ++r) {
        long n, k;
        hs_obs o;
        double tip_prev = 0;
        CHECK(hs_tree_to_model(&tm, &m, &e) == HS_OK, "twin: %s", e.msg);
        m.nload = 0;
        m.dt = dts[r];
        m.t_end = t_end;
        n = hs_instance_steps(m.t_end, m.dt);
        CHECK(hs_init(&m, &st, W) == 0, "init (dt %g)", m.dt);
        hs_observe(&m, &st, W, &o);
        E0 = o.Ekin + o.Epot;
        for (k = 0; k < n; ++k) {
            int g = hs_tree_model_body(&tm, hs_tree_body_find(&tm, "tip")) - 2;
            double tip = sqrt(st.z[g] * st.z[g] + st.z[g + 1] * st.z[g + 1] + st.z[g + 2] * st.z[g + 2]);
            if (r == 2 && tip < tip_prev - 1.0) ++switches;
            tip_prev = tip;
            if (hs_step(&m, &st, W)) break;
            hs_observe(&m, &st, W, &o);
            worst_E = fmax(worst_E, fabs(o.Ekin + o.Epot - st.W_ext - E0) / fabs(E0));
        }
        CHECK(k == n, "the semi-recursive ball tree ran at dt %g (status %d at step %ld)", m.dt, st.status, k);
        model_coms(&tm, &m, st.z, c[r]);
        err[r] = rel_diff(c[r], ref, 3 * nb);
    }
    printf("semi-recursive ball tree, trapezoidal: centres of mass at t = 0.5 s against Riccati RK4: %.2e %.2e %.2e at dt "
           "0.4, 0.2, 0.1 ms (ratios %.2f %.2f); %d chart changes of the spinning tip; energy balance %.2e relative\n",
           err[0], err[1], err[2], err[0] / err[1], err[1] / err[2], switches, worst_E);
    CHECK(fabs(err[0] / err[1] - 4) < 0.6 && fabs(err[1] / err[2] - 4) < 0.6, "second order: %.3f %.3f",
          err[0] / err[1], err[1] / err[2]);
    CHECK(switches >= 1, "the tip's chart changed (%d)", switches);
    CHECK(worst_E < 1e-5, "energy balance %.3e", worst_E);
    /* a step long enough to turn the tip by more than pi/2 (15 rad/s x 0.2 s) fails it */
    CHECK(hs_tree_to_model(&tm, &m, &e) == HS_OK, "twin");
    m.dt = 0.2;
    m.t_end = 2.0;
    if (hs_init(&m, &st, W) == 0) {
        int k, s2 = 0;
        for (k = 0; k < 10 && !(s2 = hs_step(&m, &st, W)); ++k) {
        }
        CHECK(s2 & (HS_ST_SINGULAR_CONFIG | HS_ST_MAXITER | HS_ST_NONFINITE | HS_ST_SINGULAR),
              "a turn of more than pi/2 per step fails the instance (status %d)", s2);
    }
    hs_tree_model_free(&tm);
    free(W);
}

int main(void)
{
    test_demo_pendulum();
    test_trees_semi_recursive();
    test_ball_trees();
    test_demo_ball();
    test_rk4_demo();
    test_rk4_ball_chain();
    test_large_trees();
    test_external_loads();
    test_loaded_ball_chain();
    test_semi_recursive_ball();
    test_semi_recursive_ball_steps();
    return tu_report("test_riccati");
}
