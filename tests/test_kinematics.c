/* test_kinematics.c -- kernels/hs_kinematics.h: positions against hand computation,
 * velocities and zero-zddot accelerations against finite differences of positions on a 3D
 * tree with prismatic joints, tilted axes and fixed rotations. */
#include <string.h>

#include "hs_kinematics.h"
#include "test_util.h"

/* position of body-frame point c of body j at z */
static void point_at(const hs_model *m, const double *z, int j, const double c[3], double r[3])
{
    hs_kin k;
    hs_kin_positions(m, z, &k);
    hs_kin_point(&k, j, c, r);
}

static void test_planar_positions(void)
{
    hs_model m;
    hs_kin k;
    double z[2] = {0.3, -0.8}, r[3], tip[3] = {0.7, 0, 0}, g0[3], g1[3];
    tu_double_pendulum(&m, 1.0, 1.0, 2.0, 0.7, 9.81);
    hs_kin_positions(&m, z, &k);
    hs_kin_com(&m, &k, 0, g0);
    hs_kin_com(&m, &k, 1, g1);
    /* com of rod 2: tip of rod 1 plus half of rod 2 at the absolute angle z1 + z2 */
    CHECK_CLOSE(g1[0], cos(0.3) + 0.35 * cos(-0.5), 1e-15, "g2.x");
    CHECK_CLOSE(g1[1], sin(0.3) + 0.35 * sin(-0.5), 1e-15, "g2.y");
    CHECK_CLOSE(g0[0], 0.5 * cos(0.3), 1e-15, "g1.x");
    hs_kin_point(&k, 1, tip, r);
    CHECK_CLOSE(r[0], cos(0.3) + 0.7 * cos(-0.5), 1e-15, "tip.x");
    CHECK_CLOSE(r[1], sin(0.3) + 0.7 * sin(-0.5), 1e-15, "tip.y");
    CHECK_CLOSE(r[2], 0.0, 1e-15, "tip.z");
    /* b of joint 2 = [o x u; u] with o the first rod's tip */
    CHECK_CLOSE(k.b[1][0], sin(0.3), 1e-15, "b2.sx");
    CHECK_CLOSE(k.b[1][1], -cos(0.3), 1e-15, "b2.sy");
    CHECK_CLOSE(k.b[1][5], 1.0, 1e-15, "b2.wz");
}

static void test_prismatic_position(void)
{
    hs_model m;
    hs_kin k;
    double z[5] = {0.4, 0.25, -0.3, 0.9, 0.2}, r[3], r0[3], c[3] = {0, 0, 0};
    tu_tree3d(&m);
    /* the prismatic joint 1 moves body 1's frame along joint 0's rotated axis by dz */
    point_at(&m, z, 1, c, r0);
    z[1] += 0.1;
    hs_kin_positions(&m, z, &k);
    hs_kin_point(&k, 1, c, r);
    {
        double d[3];
        hs_v3_sub(d, r, r0);
        CHECK_CLOSE(hs_v3_norm(d), 0.1, 1e-14, "prismatic displacement");
        CHECK_CLOSE(hs_v3_dot(d, k.b[1]) / 0.1, 1.0, 1e-14, "along the axis (b = [u; 0])");
    }
}

/* velocities and accelerations of body points vs central differences along
 * z(t) = z + zd t + zdd t^2 / 2 */
static void test_fd_velocity_acceleration(void)
{
    hs_model m;
    hs_kin k;
    int trial, j, q, i;
    tu_tree3d(&m);
    for (trial = 0; trial < 5; ++trial) {
        double z[5], zd[5], zdd[5], zp[5], zm[5], h = 1e-4;
        for (i = 0; i < 5; ++i) {
            z[i] = tu_rand(-1.5, 1.5);
            zd[i] = tu_rand(-2, 2);
            zdd[i] = tu_rand(-3, 3);
        }
        hs_kin_positions(&m, z, &k);
        hs_kin_velocities(&m, zd, &k);
        for (j = 0; j < 5; ++j) {
            double c[3] = {0.2, -0.3, 0.4}, r[3], rp[3], rm[3], v[3], a[3], w[3], al[3], t1[3],
                   t2[3];
            double Zd[6];
            hs_kin_point(&k, j, c, r);
            hs_kin_point_vel(&k, j, r, v);
            /* full acceleration = Zd0 + sum over the path of b_k zdd_k */
            for (q = 0; q < 6; ++q) Zd[q] = k.Zd0[j][q];
            for (i = 0; i < 5; ++i)
                if ((m.body_anc[j] >> i) & 1u)
                    for (q = 0; q < 6; ++q) Zd[q] += k.b[i][q] * zdd[i];
            hs_v3_copy(w, k.Z[j] + 3);
            hs_v3_copy(al, Zd + 3);
            hs_v3_cross(t1, al, r);
            hs_v3_cross2(t2, w, r);
            for (q = 0; q < 3; ++q) a[q] = Zd[q] + t1[q] + t2[q];
            for (i = 0; i < 5; ++i) {
                zp[i] = z[i] + zd[i] * h + 0.5 * zdd[i] * h * h;
                zm[i] = z[i] - zd[i] * h + 0.5 * zdd[i] * h * h;
            }
            point_at(&m, zp, j, c, rp);
            point_at(&m, zm, j, c, rm);
            for (q = 0; q < 3; ++q) {
                CHECK_CLOSE(v[q], (rp[q] - rm[q]) / (2 * h), 1e-7, "point velocity");
                CHECK_CLOSE(a[q], (rp[q] - 2 * r[q] + rm[q]) / (h * h), 2e-5, "point acceleration");
            }
        }
        /* angular velocity vs the rotation rate: A(t+h) A(t-h)^T ~ I + 2h w~ */
        {
            hs_kin kp, km;
            for (i = 0; i < 5; ++i) {
                zp[i] = z[i] + zd[i] * h;
                zm[i] = z[i] - zd[i] * h;
            }
            hs_kin_positions(&m, zp, &kp);
            hs_kin_positions(&m, zm, &km);
            for (j = 0; j < 5; ++j) {
                double W[9];
                int r, c2;
                for (r = 0; r < 3; ++r)
                    for (c2 = 0; c2 < 3; ++c2) {
                        double s = 0;
                        for (q = 0; q < 3; ++q) s += kp.A[j][3 * r + q] * km.A[j][3 * c2 + q];
                        W[3 * r + c2] = s;
                    }
                CHECK_CLOSE((W[7] - W[5]) / (4 * h), k.Z[j][3], 1e-7, "w.x");
                CHECK_CLOSE((W[2] - W[6]) / (4 * h), k.Z[j][4], 1e-7, "w.y");
                CHECK_CLOSE((W[3] - W[1]) / (4 * h), k.Z[j][5], 1e-7, "w.z");
            }
        }
    }
}

/* The cache of cos and sin (hs_kin_cos_sin): every answer has the bits of cos and sin of
 * its argument, on a miss, on a hit of either entry, for -0 after +0 (equal as values, not as
 * bits) and for NaN; and positions made through it equal those made without it, over a
 * sequence that alternates two values per joint (as a tangent's columns do). */
static void test_trig_cache(void)
{
#if HS_TRIG_CACHE
    static hs_trig t;
    static const double q[] = {0.3, 0.3, 1e-9, 0.3, 1e-9, 0.0, -0.0, 0.0, -0.0, -2.5, 0.3, -2.5, 7.0, 1e-9};
    int i, bad = 0, n = (int)(sizeof q / sizeof q[0]);
    double c, sn, nan = NAN;
    hs_trig_start(&t);
    for (i = 0; i < n; ++i) {
        double cr = cos(q[i]), sr = sin(q[i]);
        hs_kin_cos_sin(&t, 1, q[i], &c, &sn);
        if (memcmp(&c, &cr, sizeof c) || memcmp(&sn, &sr, sizeof sn)) ++bad;
    }
    CHECK(bad == 0, "cached cos, sin have the bits of cos, sin (%d of %d differ)", bad, n);
    hs_kin_cos_sin(&t, 1, -0.0, &c, &sn);
    CHECK(signbit(sn), "sin(-0) = -0 after +0 was cached");
    hs_kin_cos_sin(&t, 1, nan, &c, &sn);
    CHECK(c != c && sn != sn, "NaN in, NaN out");
    hs_kin_cos_sin(&t, 1, nan, &c, &sn);
    CHECK(c != c && sn != sn, "NaN again: still computed");
    {
        hs_model m;
        static hs_kin a, b;
        double z[2] = {0.3, -0.8};
        int k, j, diff = 0;
        tu_double_pendulum(&m, 1.0, 1.0, 2.0, 0.7, 9.81);
        hs_trig_start(&t);
        for (k = 0; k < 12; ++k) {
            z[k % 2] += (k % 4 < 2 ? 1e-8 : -1e-8); /* moves one joint, then moves it back */
            hs_kin_positions_tc(&m, z, &a, ~0u, &t);
            hs_kin_positions(&m, z, &b);
            for (j = 0; j < m.nbody; ++j)
                if (memcmp(a.A[j], b.A[j], sizeof a.A[j]) || memcmp(a.p[j], b.p[j], sizeof a.p[j]) ||
                    memcmp(a.b[j], b.b[j], sizeof a.b[j]))
                    ++diff;
        }
        CHECK(diff == 0, "positions through the cache == without it, to the bit (%d bodies differ)", diff);
    }
#else
    CHECK(1, "no cos/sin cache in this build");
#endif
}

int main(void)
{
    test_trig_cache();
    test_planar_positions();
    test_prismatic_position();
    test_fd_velocity_acceleration();
    return tu_report("test_kinematics");
}
