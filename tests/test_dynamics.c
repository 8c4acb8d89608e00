/* test_dynamics.c -- kernels/hs_dynamics.h: M and Q of the planar double pendulum against the
 * closed-form Lagrangian (1e-12), M symmetric positive definite on random configurations of
 * a 3D tree, 1/2 zd^T M zd equal to the body-wise kinetic energy, Q's velocity terms
 * against the Lagrangian identity Q_v = -(Mdot zd - dT/dz), and the inverse dynamics
 * (hs_inverse_dynamics_side) against M zdd - Q, with its kept bodies equal to the bit to a
 * full pass; the planar forms (hs_model's joint_planar) equal to the general ones in value. */
#include "hs_dynamics.h"
#include "test_util.h"

static void mass_force(const hs_model *m, const double *z, const double *zd, double *M,
                       double *Q)
{
    hs_kin k;
    hs_dyn_work w;
    hs_kin_positions(m, z, &k);
    hs_kin_velocities(m, zd, &k);
    hs_mass_force(m, &k, 0.0, M, HS_MAX_Z, Q, &w);
}

static void test_double_pendulum_closed_form(void)
{
    hs_model m;
    int trial;
    double m1 = 1.3, L1 = 1.1, m2 = 0.7, L2 = 0.9, g = 9.81;
    double c1 = L1 / 2, c2 = L2 / 2, I1 = m1 * L1 * L1 / 12, I2 = m2 * L2 * L2 / 12;
    tu_double_pendulum(&m, m1, L1, m2, L2, g);
    for (trial = 0; trial < 20; ++trial) {
        double z[2], zd[2], M[HS_MAX_Z * HS_MAX_Z], Q[HS_MAX_Z];
        double th1, th2, w1, w2, Ma[2][2], Qa[2], Mr[2][2], Qr[2];
        z[0] = tu_rand(-3, 3);
        z[1] = tu_rand(-3, 3);
        zd[0] = tu_rand(-4, 4);
        zd[1] = tu_rand(-4, 4);
        mass_force(&m, z, zd, M, Q);
        /* absolute angles th = S z, S = [1 0; 1 1] */
        th1 = z[0];
        th2 = z[0] + z[1];
        w1 = zd[0];
        w2 = zd[0] + zd[1];
        Ma[0][0] = I1 + m1 * c1 * c1 + m2 * L1 * L1;
        Ma[0][1] = Ma[1][0] = m2 * L1 * c2 * cos(th1 - th2);
        Ma[1][1] = I2 + m2 * c2 * c2;
        Qa[0] = -m2 * L1 * c2 * sin(th1 - th2) * w2 * w2 - (m1 * c1 + m2 * L1) * g * cos(th1);
        Qa[1] = m2 * L1 * c2 * sin(th1 - th2) * w1 * w1 - m2 * g * c2 * cos(th2);
        /* relative coordinates: M = S^T Ma S, Q = S^T Qa */
        Mr[0][0] = Ma[0][0] + 2 * Ma[0][1] + Ma[1][1];
        Mr[0][1] = Mr[1][0] = Ma[0][1] + Ma[1][1];
        Mr[1][1] = Ma[1][1];
        Qr[0] = Qa[0] + Qa[1];
        Qr[1] = Qa[1];
        CHECK_CLOSE(M[0], Mr[0][0], 1e-12, "M11");
        CHECK_CLOSE(M[1], Mr[0][1], 1e-12, "M12");
        CHECK_CLOSE(M[HS_MAX_Z], Mr[1][0], 1e-12, "M21");
        CHECK_CLOSE(M[HS_MAX_Z + 1], Mr[1][1], 1e-12, "M22");
        CHECK_CLOSE(Q[0], Qr[0], 1e-12, "Q1");
        CHECK_CLOSE(Q[1], Qr[1], 1e-12, "Q2");
    }
}

static void test_tree_spd_and_energy(void)
{
    hs_model m;
    int trial, i, j, n;
    tu_tree3d(&m);
    n = m.nz;
    for (trial = 0; trial < 20; ++trial) {
        double z[HS_MAX_Z] = {0}, zd[HS_MAX_Z] = {0}, M[HS_MAX_Z * HS_MAX_Z], Q[HS_MAX_Z], L[HS_MAX_Z * HS_MAX_Z];
        double T = 0, Ek, Ep;
        int piv[HS_MAX_Z], ok = 1;
        hs_kin k;
        for (i = 0; i < n; ++i) {
            z[i] = tu_rand(-2, 2);
            zd[i] = tu_rand(-2, 2);
        }
        mass_force(&m, z, zd, M, Q);
        for (i = 0; i < n; ++i)
            for (j = 0; j < n; ++j) {
                CHECK(M[i * HS_MAX_Z + j] == M[j * HS_MAX_Z + i], "M symmetric (%d,%d)", i, j);
                T += 0.5 * zd[i] * M[i * HS_MAX_Z + j] * zd[j];
            }
        /* positive definite: Cholesky succeeds */
        for (i = 0; i < n * HS_MAX_Z; ++i) L[i] = M[i];
        for (j = 0; j < n && ok; ++j) {
            double s = L[j * HS_MAX_Z + j];
            int q;
            for (q = 0; q < j; ++q) s -= L[j * HS_MAX_Z + q] * L[j * HS_MAX_Z + q];
            if (!(s > 0)) {
                ok = 0;
                break;
            }
            L[j * HS_MAX_Z + j] = sqrt(s);
            for (i = j + 1; i < n; ++i) {
                double t = L[i * HS_MAX_Z + j];
                for (q = 0; q < j; ++q) t -= L[i * HS_MAX_Z + q] * L[j * HS_MAX_Z + q];
                L[i * HS_MAX_Z + j] = t / L[j * HS_MAX_Z + j];
            }
        }
        CHECK(ok, "M positive definite (trial %d)", trial);
        (void)piv;
        hs_kin_positions(&m, z, &k);
        hs_kin_velocities(&m, zd, &k);
        hs_energy(&m, &k, 0.0, &Ek, &Ep);
        CHECK_CLOSE(T, Ek, 1e-12, "1/2 zd^T M zd == body kinetic energy");
    }
}

/* Lagrange: with no applied forces, Q(z, zd) = dT/dz - Mdot zd, where T = 1/2 zd^T M(z) zd.
 * Both terms by central differences of M (an independent check of the velocity terms). */
static void test_tree_velocity_terms(void)
{
    hs_model m;
    int trial, i, j, q, n;
    tu_tree3d(&m);
    hs_v3_set(m.gravity, 0, 0, 0);
    n = m.nz;
    for (trial = 0; trial < 5; ++trial) {
        double z[HS_MAX_Z] = {0}, zd[HS_MAX_Z] = {0}, zero[HS_MAX_Z] = {0}, M[HS_MAX_Z * HS_MAX_Z], Q[HS_MAX_Z];
        double Mp[HS_MAX_Z * HS_MAX_Z], Mm[HS_MAX_Z * HS_MAX_Z], Qd[HS_MAX_Z], zp[HS_MAX_Z] = {0},
            zm[HS_MAX_Z] = {0}, h = 1e-5;
        for (i = 0; i < n; ++i) {
            z[i] = tu_rand(-2, 2);
            zd[i] = tu_rand(-2, 2);
            zero[i] = 0;
        }
        mass_force(&m, z, zd, M, Q);
        for (i = 0; i < n; ++i) Qd[i] = 0;
        /* -Mdot zd: Mdot = sum_q dM/dz_q zd_q */
        for (i = 0; i < n; ++i) {
            zp[i] = z[i] + h * zd[i];
            zm[i] = z[i] - h * zd[i];
        }
        mass_force(&m, zp, zero, Mp, Qd);
        mass_force(&m, zm, zero, Mm, Qd);
        for (i = 0; i < n; ++i) {
            double s = 0;
            for (j = 0; j < n; ++j) s -= (Mp[i * HS_MAX_Z + j] - Mm[i * HS_MAX_Z + j]) / (2 * h) * zd[j];
            Qd[i] = s;
        }
        /* + dT/dz_q */
        for (q = 0; q < n; ++q) {
            double Tp = 0, Tm = 0, sv = z[q];
            z[q] = sv + h;
            mass_force(&m, z, zero, Mp, Q);
            z[q] = sv - h;
            mass_force(&m, z, zero, Mm, Q);
            z[q] = sv;
            for (i = 0; i < n; ++i)
                for (j = 0; j < n; ++j) {
                    Tp += 0.5 * zd[i] * Mp[i * HS_MAX_Z + j] * zd[j];
                    Tm += 0.5 * zd[i] * Mm[i * HS_MAX_Z + j] * zd[j];
                }
            Qd[q] += (Tp - Tm) / (2 * h);
        }
        mass_force(&m, z, zd, M, Q);
        for (i = 0; i < n; ++i) CHECK_CLOSE(Q[i], Qd[i], 1e-7, "velocity terms of Q vs Lagrange");
    }
}

/* Gravity part of Q equals -dV/dz (V from hs_energy) */
static void test_tree_gravity(void)
{
    hs_model m;
    int i, q, n;
    double z[HS_MAX_Z] = {0}, zero[HS_MAX_Z] = {0}, M[HS_MAX_Z * HS_MAX_Z], Q[HS_MAX_Z], h = 1e-6;
    tu_tree3d(&m);
    n = m.nz;
    for (i = 0; i < n; ++i) {
        z[i] = tu_rand(-2, 2);
        zero[i] = 0;
    }
    mass_force(&m, z, zero, M, Q);
    for (q = 0; q < n; ++q) {
        hs_kin k;
        double Ek, Vp, Vm, sv = z[q];
        z[q] = sv + h;
        hs_kin_positions(&m, z, &k);
        hs_kin_velocities(&m, zero, &k);
        hs_energy(&m, &k, 0.0, &Ek, &Vp);
        z[q] = sv - h;
        hs_kin_positions(&m, z, &k);
        hs_kin_velocities(&m, zero, &k);
        hs_energy(&m, &k, 0.0, &Ek, &Vm);
        z[q] = sv;
        CHECK_CLOSE(Q[q], -(Vp - Vm) / (2 * h), 1e-7, "gravity force = -dV/dz");
    }
}

/* hs_inverse_dynamics_side: tau = M zdd - Q of hs_mass_force (to 1e-13 of the terms' size) on
 * random states of the 3D tree (branches, a prismatic joint, full inertia tensors, a joint
 * frame rotation) with two external loads, one in body axes; then, as a tangent column does,
 * a change of one coordinate recomputed for its subtree only, the other bodies from the kept
 * fb: equal to the bit to a full pass at the changed point. */
static void test_inverse_dynamics(void)
{
    hs_model m;
    int trial, i, j, n;
    tu_tree3d(&m);
    m.nload = 2;
    m.load_body[0] = 3;
    m.load_frame[0] = HS_FRAME_GLOBAL;
    m.load_body[1] = 4;
    m.load_frame[1] = HS_FRAME_BODY;
    for (i = 0; i < 2; ++i) {
        hs_v3_set(m.load_at[i], 0.2, -0.1 * i, 0.3);
        hs_v3_set(m.load_force_dir[i], 3.0, -2.0 + i, 5.0);
        hs_v3_set(m.load_torque_dir[i], 0.5, 1.5, -1.0 * i);
        m.load_force_sig[i] = m.load_torque_sig[i] = -1;
    }
    hs_model_derive(&m);
    n = m.nz;
    for (trial = 0; trial < 20; ++trial) {
        double z[HS_MAX_Z] = {0}, zd[HS_MAX_Z] = {0}, zdd[HS_MAX_Z] = {0}, M[HS_MAX_Z * HS_MAX_Z], Q[HS_MAX_Z];
        double tau[HS_MAX_Z], tau2[HS_MAX_Z], fb[HS_MAX_BODIES][6], fb2[HS_MAX_BODIES][6];
        hs_kin k, k2;
        hs_dyn_work dw;
        for (i = 0; i < n; ++i) {
            z[i] = tu_rand(-2, 2);
            zd[i] = tu_rand(-2, 2);
            zdd[i] = tu_rand(-5, 5);
        }
        hs_kin_positions(&m, z, &k);
        hs_kin_velocities(&m, zd, &k);
        hs_mass_force(&m, &k, 0.0, M, HS_MAX_Z, Q, &dw);
        hs_inverse_dynamics_side(&m, &k, 0.0, 1, zdd, ~0u, fb, tau);
        for (i = 0; i < n; ++i) {
            double r = -Q[i], size = fabs(Q[i]);
            for (j = 0; j < n; ++j) {
                r += M[i * HS_MAX_Z + j] * zdd[j];
                size += fabs(M[i * HS_MAX_Z + j] * zdd[j]);
            }
            CHECK(fabs(tau[i] - r) <= 1e-13 * size, "tau_%d = %.17g, M zdd - Q = %.17g (trial %d)", i, tau[i], r,
                  trial);
        }
        /* coordinate i changed: its subtree recomputed, the rest from fb */
        i = trial % n;
        z[i] += 1e-3;
        zd[i] -= 2e-3;
        zdd[i] += 0.1;
        k2 = k;
        hs_kin_positions_sub(&m, z, &k2, hs_subtree(&m, i));
        hs_kin_velocities_sub(&m, zd, &k2, hs_subtree(&m, i));
        hs_inverse_dynamics_side(&m, &k2, 0.0, 1, zdd, hs_subtree(&m, i), fb, tau);
        hs_kin_positions(&m, z, &k);
        hs_kin_velocities(&m, zd, &k);
        hs_inverse_dynamics_side(&m, &k, 0.0, 1, zdd, ~0u, fb2, tau2);
        for (j = 0; j < n; ++j)
            CHECK(tau[j] == tau2[j], "z_%d changed, subtree only: tau_%d %.17g, full pass %.17g", i, j, tau[j],
                  tau2[j]);
    }
}

/* A tree whose joints all turn about +-z (one rot0 a quarter turn about z), with out-of-plane
 * offsets, centres of mass and gravity (the planar forms assume the rotations only), three
 * shapes (diagonal inertias) and one custom body (the general inertia), and a load on body 3:
 * positions, velocities, M, Q, the inverse dynamics and the energies with joint_planar as
 * derived equal those with every flag cleared (the general forms), value for value (a zero
 * may differ in sign: compared with ==). Then the derivation: an x axis ends the planar
 * forms for its joint's subtree only. */
static void test_planar_forms(void)
{
    hs_model m, g;
    int trial, i, j, n, par[6] = {-1, 0, 1, 0, 3, 1};
    double ax[6][3] = {{0, 0, 1}, {0, 0, -1}, {0, 0, 2}, {0, 0, 1}, {0, 0, 1}, {0, 0, 1}};
    tu_model_defaults(&m);
    m.nbody = 6;
    for (j = 0; j < 6; ++j) {
        m.body_parent[j] = par[j];
        m.joint_type[j] = HS_JOINT_REVOLUTE;
        hs_v3_copy(m.joint_axis[j], ax[j]);
        m.body_shape[j] = j == 4 ? HS_SHAPE_CUSTOM : HS_SHAPE_ROD + (j % 2);
        m.body_mass[j] = 2.0 + j;
        hs_v3_set(m.body_dim[j], 1.0 + 0.2 * j, 0.1, 0.05);
        hs_v3_set(m.body_com[j], 0.4 + 0.1 * j, -0.05 * j, 0.03 * j);
        m.body_com_given[j] = j % 3 == 0;
        m.body_inertia[j][0] = 0.5 + 0.1 * j;
        m.body_inertia[j][1] = 0.6 + 0.05 * j;
        m.body_inertia[j][2] = 0.7;
        m.body_inertia[j][3] = 0.01 * j;
        m.body_inertia[j][4] = 0.0;
        m.body_inertia[j][5] = 0.0;
        hs_v3_set(m.joint_at_parent[j], 0.5 + 0.1 * j, 0.1 * j, -0.05 * j);
        hs_v3_set(m.joint_at_child[j], -0.1 * j, 0.05, 0.02 * j);
    }
    m.joint_rot0[2][0] = m.joint_rot0[2][4] = 0.0;
    m.joint_rot0[2][1] = -1.0;
    m.joint_rot0[2][3] = 1.0;
    hs_v3_set(m.gravity, 0.5, -9.81, 1.0);
    m.nload = 1;
    m.load_body[0] = 3;
    m.load_frame[0] = HS_FRAME_BODY;
    hs_v3_set(m.load_at[0], 0.2, -0.1, 0.3);
    hs_v3_set(m.load_force_dir[0], 3.0, -2.0, 5.0);
    hs_v3_set(m.load_torque_dir[0], 0.5, 1.5, -1.0);
    m.load_force_sig[0] = m.load_torque_sig[0] = -1;
    hs_model_derive(&m);
    n = m.nz;
    for (j = 0; j < n; ++j) CHECK(m.joint_planar[j] == 1, "planar tree: joint %d planar", j);
    g = m;
    for (j = 0; j < n; ++j) g.joint_planar[j] = 0;
    for (trial = 0; trial < 50; ++trial) {
        double z[HS_MAX_Z] = {0}, zd[HS_MAX_Z] = {0}, zdd[HS_MAX_Z] = {0};
        double M[HS_MAX_Z * HS_MAX_Z], Q[HS_MAX_Z], Mg[HS_MAX_Z * HS_MAX_Z], Qg[HS_MAX_Z];
        double tau[HS_MAX_Z], taug[HS_MAX_Z], fb[HS_MAX_BODIES][6], fbg[HS_MAX_BODIES][6];
        double T, V, Tg, Vg;
        hs_kin k, kg;
        hs_dyn_work dw;
        int bad = 0;
        for (i = 0; i < n; ++i) {
            z[i] = tu_rand(-3, 3);
            zd[i] = trial == 0 ? 0.0 : tu_rand(-2, 2); /* at rest first: the zeros of a start */
            zdd[i] = tu_rand(-5, 5);
        }
        hs_kin_positions(&m, z, &k);
        hs_kin_velocities(&m, zd, &k);
        hs_kin_positions(&g, z, &kg);
        hs_kin_velocities(&g, zd, &kg);
        for (j = 0; j < n; ++j)
            for (i = 0; i < 9; ++i) {
                if (i < 3) bad += k.p[j][i] != kg.p[j][i];
                if (i < 6) bad += k.b[j][i] != kg.b[j][i] || k.Z[j][i] != kg.Z[j][i] || k.Zd0[j][i] != kg.Zd0[j][i];
                bad += k.A[j][i] != kg.A[j][i];
            }
        CHECK(bad == 0, "planar kinematics equal the general (trial %d: %d values differ)", trial, bad);
        hs_mass_force(&m, &k, 0.3, M, HS_MAX_Z, Q, &dw);
        hs_mass_force(&g, &kg, 0.3, Mg, HS_MAX_Z, Qg, &dw);
        hs_inverse_dynamics_side(&m, &k, 0.3, 1, zdd, ~0u, fb, tau);
        hs_inverse_dynamics_side(&g, &kg, 0.3, 1, zdd, ~0u, fbg, taug);
        hs_energy(&m, &k, 0.0, &T, &V);
        hs_energy(&g, &kg, 0.0, &Tg, &Vg);
        for (i = 0; i < n; ++i) {
            CHECK(Q[i] == Qg[i] && tau[i] == taug[i], "trial %d: Q_%d %.17g / %.17g, tau %.17g / %.17g", trial, i,
                  Q[i], Qg[i], tau[i], taug[i]);
            for (j = 0; j < n; ++j)
                CHECK(M[i * HS_MAX_Z + j] == Mg[i * HS_MAX_Z + j], "trial %d: M_%d%d %.17g / %.17g", trial, i, j,
                      M[i * HS_MAX_Z + j], Mg[i * HS_MAX_Z + j]);
        }
        CHECK(T == Tg && V == Vg, "trial %d: energies %.17g %.17g / %.17g %.17g", trial, T, V, Tg, Vg);
        for (bad = 0, j = 0; j < n; ++j) /* every body force, also the moments b does not see */
            for (i = 0; i < 6; ++i) bad += fb[j][i] != fbg[j][i];
        CHECK(bad == 0, "trial %d: %d body forces differ", trial, bad);
    }
    /* an x axis at joint 3: joints 3 and 4 (its subtree) general, the others planar */
    hs_v3_set(m.joint_axis[3], 1.0, 0.0, 0.0);
    hs_model_derive(&m);
    for (j = 0; j < n; ++j)
        CHECK(m.joint_planar[j] == (j != 3 && j != 4), "x axis at joint 3: joint %d planar %d", j, m.joint_planar[j]);
    /* a rot0 tilting z ends them too; a prismatic joint is never planar */
    hs_v3_set(m.joint_axis[3], 0.0, 0.0, 1.0);
    m.joint_rot0[1][8] = 0.5;
    m.joint_type[4] = HS_JOINT_PRISMATIC;
    hs_model_derive(&m);
    for (j = 0; j < n; ++j)
        CHECK(m.joint_planar[j] == (j == 0 || j == 3), "tilted rot0 at 1, prismatic 4: joint %d planar %d", j,
              m.joint_planar[j]);
}

int main(void)
{
    test_double_pendulum_closed_form();
    test_tree_spd_and_energy();
    test_tree_velocity_terms();
    test_tree_gravity();
    test_inverse_dynamics();
    test_planar_forms();
    return tu_report("test_dynamics");
}
