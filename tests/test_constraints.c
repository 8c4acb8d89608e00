/* test_constraints.c -- kernels/hs_constraints.h and the cut-joint equations of
 * kernels/hs_model_derive.h: Phi_z against central differences of Phi and the velocity
 * product against the second derivative of Phi along z + zd t, for every cut kind; the
 * nonholonomic row B against the contact point's velocity from positions, and its velocity
 * product against the derivative of B zd along z + zd t. */
#include "hs_constraints.h"
#include "test_util.h"

static void phi_at(const hs_model *m, const double *z, double *phi)
{
    hs_kin k;
    hs_kin_positions(m, z, &k);
    hs_constraints_phi(m, &k, phi);
}

static void add_cut(hs_model *m, int type, int a, int b)
{
    int c = m->ncut++;
    m->cut_type[c] = type;
    m->cut_body_a[c] = a;
    m->cut_body_b[c] = b;
    hs_v3_set(m->cut_at_a[c], 0.3, 0.1 * c, -0.2);
    hs_v3_set(m->cut_at_b[c], -0.1, 0.4, 0.05 * c);
    hs_v3_set(m->cut_axis_a[c], 0.1, 0.2, 1.0);
    hs_v3_set(m->cut_axis_b[c], 0.0, -0.3, 1.0);
    /* normals perpendicular to the axes */
    hs_v3_set(m->cut_normal_a[c], 1.0, 0.0, -0.1);
    hs_v3_set(m->cut_normal_b[c], 1.0, 1.0, 0.3);
}

static void test_counts(void)
{
    hs_model m;
    tu_tree3d(&m);
    add_cut(&m, HS_CUT_REVOLUTE, 3, -1);
    add_cut(&m, HS_CUT_REVOLUTE_PLANAR, 4, 2);
    add_cut(&m, HS_CUT_PRISMATIC, 3, 4);
    add_cut(&m, HS_CUT_PRISMATIC_PLANAR, 1, -1);
    hs_model_derive(&m);
    CHECK(m.ncon == 5 + 2 + 5 + 2, "equation count %d", m.ncon);
    CHECK(m.cut_con0[2] == 7 && m.cut_ncon[2] == 5, "prismatic cut rows");
}

/* Random z and zd in [-2, 2] (n entries), their kinematics k and Phi, Phi_z, Phidot_z zd. */
static void random_eval(const hs_model *m, double *z, double *zd, hs_kin *k, double *phi, double *J, double *c)
{
    int i;
    for (i = 0; i < m->nz; ++i) {
        z[i] = tu_rand(-2, 2);
        zd[i] = tu_rand(-2, 2);
    }
    hs_kin_positions(m, z, k);
    hs_kin_velocities(m, zd, k);
    hs_constraints_phi(m, k, phi);
    hs_constraints_jac(m, k, J, HS_MAX_Z);
    hs_constraints_vprod(m, k, c);
}

/* zp, zm = z +- h zd */
static void along(int n, const double *z, const double *zd, double h, double *zp, double *zm)
{
    int i;
    for (i = 0; i < n; ++i) {
        zp[i] = z[i] + h * zd[i];
        zm[i] = z[i] - h * zd[i];
    }
}

static void test_derivatives(void)
{
    hs_model m;
    int trial, e, i, n;
    tu_tree3d(&m);
    add_cut(&m, HS_CUT_REVOLUTE, 3, -1);
    add_cut(&m, HS_CUT_REVOLUTE_PLANAR, 4, 2);
    add_cut(&m, HS_CUT_PRISMATIC, 3, 4);
    add_cut(&m, HS_CUT_PRISMATIC_PLANAR, 1, -1);
    hs_model_derive(&m);
    n = m.nz;
    for (trial = 0; trial < 10; ++trial) {
        double z[HS_MAX_Z] = {0}, zd[HS_MAX_Z] = {0}, zp[HS_MAX_Z] = {0}, zm[HS_MAX_Z] = {0}, J[HS_MAX_CON * HS_MAX_Z];
        double phi[HS_MAX_CON], pp[HS_MAX_CON], pm[HS_MAX_CON], c[HS_MAX_CON], h = 1e-5;
        hs_kin k;
        random_eval(&m, z, zd, &k, phi, J, c);
        for (i = 0; i < n; ++i) {
            double s = z[i];
            z[i] = s + h;
            phi_at(&m, z, pp);
            z[i] = s - h;
            phi_at(&m, z, pm);
            z[i] = s;
            for (e = 0; e < m.ncon; ++e)
                CHECK_CLOSE(J[e * HS_MAX_Z + i], (pp[e] - pm[e]) / (2 * h), 1e-8, "Phi_z");
        }
        h = 1e-4;
        along(n, z, zd, h, zp, zm);
        phi_at(&m, zp, pp);
        phi_at(&m, zm, pm);
        for (e = 0; e < m.ncon; ++e)
            CHECK_CLOSE(c[e], (pp[e] - 2 * phi[e] + pm[e]) / (h * h), 2e-5, "Phidot_z zd");
    }
}

/* A closed planar four-bar (parallelogram of seed 004 Pub. I): Phi = 0 at the reconstructed
 * initial angles -30, 30, 150 deg (model-data.md). */
static void test_fourbar_closure(void)
{
    hs_model m;
    double z[3], phi[HS_MAX_CON];
    int j;
    tu_fourbar(&m); /* its masses, coms and gravity do not enter Phi */
    for (j = 0; j < 3; ++j) z[j] = m.joint_z0[j];
    phi_at(&m, z, phi);
    CHECK(m.ncon == 2, "planar revolute: 2 equations");
    CHECK(fabs(phi[0]) < 1e-15 && fabs(phi[1]) < 1e-15, "closed at z0: %g %g", phi[0], phi[1]);
    z[0] += 0.01;
    phi_at(&m, z, phi);
    CHECK(fabs(phi[0]) + fabs(phi[1]) > 1e-3, "open when the crank alone moves");
}

/* A body-fixed point's global position: body j's point c (body frame). */
static void point_at(const hs_model *m, const double *z, int j, const double c[3], double r[3])
{
    hs_kin k;
    hs_kin_positions(m, z, &k);
    hs_kin_point(&k, j, c, r);
}

/* The nonholonomic row (seed 001 eq. 11): B zd = v . (vel_b(P) - vel_a(P)) with P = r_b(pb),
 * v = A_b v_b, checked against central differences of positions along z + zd t (P's material
 * points on b and on a, each followed as a body-fixed point), and the velocity product
 * against d/dt (B(z + zd t) zd); for a relative to ground and to another moving body. */
static void test_nonholonomic(void)
{
    int trial, ra;
    for (ra = 0; ra < 2; ++ra) {
        hs_model m;
        int a = ra ? 1 : -1, b = 3, e, i, n;
        tu_tree3d(&m);
        add_cut(&m, HS_CUT_REVOLUTE_PLANAR, 4, 2);
        add_cut(&m, HS_CUT_NONHOLONOMIC, a, b);
        hs_model_derive(&m);
        e = m.ncon - 1;
        CHECK(m.ncon == 3 && m.nnh == 1 && m.con_type[e] == HS_CON_NH, "nonholonomic: one equation, nnh %d", m.nnh);
        n = m.nz;
        for (trial = 0; trial < 10; ++trial) {
            double z[HS_MAX_Z] = {0}, zd[HS_MAX_Z] = {0}, zp[HS_MAX_Z] = {0}, zm[HS_MAX_Z] = {0};
            double J[HS_MAX_CON * HS_MAX_Z], Jp[HS_MAX_CON * HS_MAX_Z], Jm[HS_MAX_CON * HS_MAX_Z], phi[HS_MAX_CON],
                c[HS_MAX_CON], h = 1e-5, P[3], ca[3] = {0.0, 0.0, 0.0}, v[3], pp[3], pm[3], qp[3], qm[3], bzd = 0.0,
                fd, bp = 0.0, bm = 0.0;
            hs_kin k;
            random_eval(&m, z, zd, &k, phi, J, c);
            CHECK(phi[e] == 0.0, "no position-level value");
            for (i = 0; i < n; ++i) bzd += J[e * HS_MAX_Z + i] * zd[i];
            /* P on b, its body-a coordinates ca, the direction v */
            hs_kin_point(&k, b, m.con_pb[e], P);
            hs_kin_dir(&k, b, m.con_v[e], v);
            if (a >= 0) { /* ca = A_a^T (P - p_a) */
                double d[3];
                hs_v3_sub(d, P, k.p[a]);
                for (i = 0; i < 3; ++i) ca[i] = k.A[a][0 + i] * d[0] + k.A[a][3 + i] * d[1] + k.A[a][6 + i] * d[2];
            }
            along(n, z, zd, h, zp, zm);
            point_at(&m, zp, b, m.con_pb[e], pp);
            point_at(&m, zm, b, m.con_pb[e], pm);
            if (a >= 0) {
                point_at(&m, zp, a, ca, qp);
                point_at(&m, zm, a, ca, qm);
            } else {
                hs_v3_copy(qp, P);
                hs_v3_copy(qm, P);
            }
            fd = 0.0;
            for (i = 0; i < 3; ++i) fd += v[i] * ((pp[i] - pm[i]) - (qp[i] - qm[i])) / (2 * h);
            CHECK_CLOSE(bzd, fd, 1e-8, a < 0 ? "B zd against the contact point velocity (ground)" : "B zd against the contact point velocity (body)");
            /* vprod = d/dt (B(z + zd t) zd) at t = 0 */
            h = 1e-5;
            along(n, z, zd, h, zp, zm);
            hs_kin_positions(&m, zp, &k);
            hs_constraints_jac(&m, &k, Jp, HS_MAX_Z);
            hs_kin_positions(&m, zm, &k);
            hs_constraints_jac(&m, &k, Jm, HS_MAX_Z);
            for (i = 0; i < n; ++i) {
                bp += Jp[e * HS_MAX_Z + i] * zd[i];
                bm += Jm[e * HS_MAX_Z + i] * zd[i];
            }
            CHECK_CLOSE(c[e], (bp - bm) / (2 * h), 1e-7, a < 0 ? "d/dt (B zd) at zdd = 0 (ground)" : "d/dt (B zd) at zdd = 0 (body)");
        }
    }
}

int main(void)
{
    test_nonholonomic();
    test_counts();
    test_derivatives();
    test_fourbar_closure();
    return tu_report("test_constraints");
}
