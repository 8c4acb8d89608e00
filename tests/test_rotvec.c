/* test_rotvec.c -- kernels/hs_rotvec.h: the rotation vector of a ball joint in the
 * semi-recursive formulation.
 *  1. R(phi) is a rotation (R R^T = I, det 1) that turns phi's axis by |phi|: it equals the
 *     quaternion (cos t/2, sin t/2 phi/t) rotation (hs_tree.h's hs_quat_to_m3) to 1e-15, on
 *     both sides of the series' switch (t^2 = 1) and up to t = 5/4 pi.
 *  2. J(phi) is the rate map: R' R^T = (J phi')~ by central differences of R along a line
 *     (1e-9), and J' phi' equals central differences of J(phi + s phi') phi' (1e-8), again on
 *     both sides of the switch and at phi = 0.
 *  3. The coefficients' series and closed forms meet at t^2 = 1 to 1e-14 (the closed forms of
 *     a'/t and b'/t cancel to t^4/12 of their terms there).
 *  4. The chart change (hs_rotvec_shadow) leaves the rotation unchanged (1e-14), lands at
 *     2 pi - t, maps the velocity to the same angular velocity (J psi' = J phi', 1e-13) and
 *     the acceleration to the same angular acceleration (d/dt (J phi') by central
 *     differences along a trajectory, 1e-7); it leaves t <= 5/4 pi alone. */
#include <math.h>
#include <stdlib.h>

#include "hs_rotvec.h"
#include "hs_tree.h"
#include "test_util.h"

static double urand(void)
{
    return rand() / (double)RAND_MAX * 2.0 - 1.0;
}

/* a random vector of norm t */
static void rand_vec(double t, double v[3])
{
    double n;
    do {
        v[0] = urand(), v[1] = urand(), v[2] = urand();
        n = hs_v3_norm(v);
    } while (n < 0.1);
    v[0] *= t / n, v[1] *= t / n, v[2] *= t / n;
}

static double max_abs_diff(const double *a, const double *b, int n)
{
    double d = 0;
    int i;
    for (i = 0; i < n; ++i) d = fmax(d, fabs(a[i] - b[i]));
    return d;
}

/* the norms exercised: 0, tiny, around the series' switch (t = 1), large, up to 5/4 pi */
static const double k_norms[] = {0.0, 1e-9, 1e-3, 0.3, 0.5, 0.9999, 1.0, 1.0001, 2.0, 3.0, 3.14159, 3.5, 3.9};
#define NNORM ((int)(sizeof k_norms / sizeof k_norms[0]))

static void test_rotation(void)
{
    double worst_q = 0, worst_o = 0;
    int n, r;
    for (n = 0; n < NNORM; ++n)
        for (r = 0; r < 20; ++r) {
            double phi[3], R[9], Q[9], qq[4], RRt[9], I[9], t = k_norms[n], s;
            int i, c;
            rand_vec(t, phi);
            hs_rotvec_R(phi, R);
            s = t > 0 ? sin(0.5 * t) / t : 0.5;
            qq[0] = cos(0.5 * t), qq[1] = s * phi[0], qq[2] = s * phi[1], qq[3] = s * phi[2];
            hs_quat_to_m3(qq, Q);
            worst_q = fmax(worst_q, max_abs_diff(R, Q, 9));
            for (i = 0; i < 3; ++i)
                for (c = 0; c < 3; ++c)
                    RRt[3 * i + c] = R[3 * i] * R[3 * c] + R[3 * i + 1] * R[3 * c + 1] + R[3 * i + 2] * R[3 * c + 2];
            hs_m3_identity(I);
            worst_o = fmax(worst_o, max_abs_diff(RRt, I, 9));
        }
    printf("R(phi) against the quaternion rotation: %.2e; orthogonality %.2e\n", worst_q, worst_o);
    CHECK(worst_q < 1e-15 * 4, "R(phi) = quaternion rotation: %.3e", worst_q);
    CHECK(worst_o < 1e-15 * 4, "R R^T = I: %.3e", worst_o);
}

static void test_rate_map(void)
{
    double worst_j = 0, worst_jd = 0, h = 1e-5;
    int n, r;
    for (n = 0; n < NNORM; ++n)
        for (r = 0; r < 20; ++r) {
            double phi[3], pd[3], pp[3], pm[3], Rp[9], Rm[9], R[9], Rd[9], W[9], J[9], om[3], om_fd[3];
            double Jp[9], Jm[9], a[3], b[3], jd[3], jd_fd[3];
            int i, c;
            rand_vec(k_norms[n], phi);
            rand_vec(1.0, pd);
            for (i = 0; i < 3; ++i) pp[i] = phi[i] + h * pd[i], pm[i] = phi[i] - h * pd[i];
            hs_rotvec_R(pp, Rp);
            hs_rotvec_R(pm, Rm);
            hs_rotvec_R(phi, R);
            for (i = 0; i < 9; ++i) Rd[i] = (Rp[i] - Rm[i]) / (2 * h);
            /* W = R' R^T, skew: omega = (W32, W13, W21) */
            for (i = 0; i < 3; ++i)
                for (c = 0; c < 3; ++c)
                    W[3 * i + c] = Rd[3 * i] * R[3 * c] + Rd[3 * i + 1] * R[3 * c + 1] + Rd[3 * i + 2] * R[3 * c + 2];
            om_fd[0] = W[7], om_fd[1] = W[2], om_fd[2] = W[3];
            hs_rotvec_J(phi, J);
            hs_m3_mulv(om, J, pd);
            worst_j = fmax(worst_j, max_abs_diff(om, om_fd, 3));
            hs_rotvec_J(pp, Jp);
            hs_rotvec_J(pm, Jm);
            hs_m3_mulv(a, Jp, pd);
            hs_m3_mulv(b, Jm, pd);
            for (i = 0; i < 3; ++i) jd_fd[i] = (a[i] - b[i]) / (2 * h);
            hs_rotvec_Jdot_pd(phi, pd, jd);
            worst_jd = fmax(worst_jd, max_abs_diff(jd, jd_fd, 3));
        }
    printf("J phi' against R' R^T: %.2e; J' phi' against differences: %.2e\n", worst_j, worst_jd);
    CHECK(worst_j < 1e-9, "J phi' = omega: %.3e", worst_j);
    CHECK(worst_jd < 1e-8, "J' phi': %.3e", worst_jd);
}

static void test_switch_continuity(void)
{
    double lo[5], hi[5], d = 0;
    int i;
    hs_rotvec_coef(1.0 - 1e-15, &lo[0], &lo[1], &lo[2], &lo[3], &lo[4]);
    hs_rotvec_coef(1.0, &hi[0], &hi[1], &hi[2], &hi[3], &hi[4]);
    for (i = 0; i < 5; ++i) d = fmax(d, fabs(lo[i] - hi[i]) / fabs(hi[i]));
    printf("series against closed forms at t^2 = 1: %.2e relative\n", d);
    CHECK(d < 1e-14, "the coefficients meet at the switch: %.3e", d);
}

/* the angular velocity and acceleration of a trajectory phi(t) = p0 + p1 t + p2 t^2 / 2 */
static void traj(double p[3][3], double t, double phi[3], double pd[3], double pdd[3])
{
    int i;
    for (i = 0; i < 3; ++i) {
        phi[i] = p[0][i] + p[1][i] * t + 0.5 * p[2][i] * t * t;
        pd[i] = p[1][i] + p[2][i] * t;
        pdd[i] = p[2][i];
    }
}

static void test_shadow(void)
{
    double worst_r = 0, worst_t = 0, worst_w = 0, worst_a = 0, h = 1e-5;
    int r, left = 1;
    for (r = 0; r < 200; ++r) {
        double p[3][3], phi[3], pd[3], pdd[3], s[3], sd[3], sdd[3], R0[9], R1[9], J0[9], J1[9], w0[3], w1[3];
        double a1[3], jd[3], t0, ph[3], pdh[3], pddh[3], wp[3], wm[3], a_fd[3];
        int i;
        double t = 3.95 + 2.3 * (rand() / (double)RAND_MAX); /* beyond 5/4 pi, below 2 pi */
        rand_vec(t, p[0]);
        rand_vec(1.0 + 2.0 * rand() / (double)RAND_MAX, p[1]);
        rand_vec(3.0, p[2]);
        traj(p, 0.0, phi, pd, pdd);
        for (i = 0; i < 3; ++i) s[i] = phi[i], sd[i] = pd[i], sdd[i] = pdd[i];
        CHECK(hs_rotvec_shadow(s, sd, sdd) == 1, "t = %.3f is switched", t);
        t0 = hs_v3_norm(s);
        worst_t = fmax(worst_t, fabs(t0 - (2 * HS_PI - t)));
        hs_rotvec_R(phi, R0);
        hs_rotvec_R(s, R1);
        worst_r = fmax(worst_r, max_abs_diff(R0, R1, 9));
        hs_rotvec_J(phi, J0);
        hs_rotvec_J(s, J1);
        hs_m3_mulv(w0, J0, pd);
        hs_m3_mulv(w1, J1, sd);
        worst_w = fmax(worst_w, max_abs_diff(w0, w1, 3) / hs_v3_norm(w0));
        /* the angular acceleration in the new chart, J psi'' + J' psi', against central
         * differences of the old chart's angular velocity along the trajectory */
        hs_m3_mulv(a1, J1, sdd);
        hs_rotvec_Jdot_pd(s, sd, jd);
        for (i = 0; i < 3; ++i) a1[i] += jd[i];
        traj(p, h, ph, pdh, pddh);
        hs_rotvec_J(ph, J0);
        hs_m3_mulv(wp, J0, pdh);
        traj(p, -h, ph, pdh, pddh);
        hs_rotvec_J(ph, J0);
        hs_m3_mulv(wm, J0, pdh);
        for (i = 0; i < 3; ++i) a_fd[i] = (wp[i] - wm[i]) / (2 * h);
        worst_a = fmax(worst_a, max_abs_diff(a1, a_fd, 3) / fmax(1.0, hs_v3_norm(a_fd)));
    }
    for (r = 0; r < 50; ++r) {
        double phi[3], pd[3], pdd[3], c[9];
        rand_vec(3.9 * rand() / (double)RAND_MAX, phi);
        rand_vec(1.0, pd);
        rand_vec(1.0, pdd);
        c[0] = phi[0], c[1] = pd[1], c[2] = pdd[2];
        left &= hs_rotvec_shadow(phi, pd, pdd) == 0 && c[0] == phi[0] && c[1] == pd[1] && c[2] == pdd[2];
    }
    printf("chart change: rotation %.2e, angle 2 pi - t %.2e, angular velocity %.2e, angular acceleration %.2e\n",
           worst_r, worst_t, worst_w, worst_a);
    CHECK(worst_r < 1e-14, "the same rotation: %.3e", worst_r);
    CHECK(worst_t < 1e-14, "lands at 2 pi - t: %.3e", worst_t);
    CHECK(worst_w < 1e-13, "the same angular velocity: %.3e", worst_w);
    CHECK(worst_a < 1e-7, "the same angular acceleration: %.3e", worst_a);
    CHECK(left, "t <= 5/4 pi is left alone");
}

int main(void)
{
    srand(7);
    test_rotation();
    test_rate_map();
    test_switch_continuity();
    test_shadow();
    return tu_report("test_rotvec");
}
