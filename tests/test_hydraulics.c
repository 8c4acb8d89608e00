/* test_hydraulics.c -- kernels/hs_hydraulics.h and its coupling in hs_integrator.h:
 * orifice law (continuity and slope at dp_lim), spool step, effective bulk modulus and a
 * closed chamber compressed by a prescribed piston motion (p = p0 - Be ln(V/V0)), the static
 * start of seed 004 Pub. I (4.14 MPa, Table 2) and energy consistency of the coupled model. */
#include <stdlib.h>
#include <string.h>

#include "hs_integrator.h"
#include "test_util.h"

static hs_work *W;

static void test_orifice(void)
{
    double C = 2.0e-8, lim = 2e5, h = 1e-3;
    CHECK_CLOSE(hs_orifice_flow(C, lim, lim), C * sqrt(lim), 1e-15, "continuous at +dp_lim");
    CHECK_CLOSE(hs_orifice_flow(C, lim * (1 - 1e-12), lim), C * sqrt(lim), 1e-10, "from below");
    CHECK_CLOSE(hs_orifice_flow(C, -lim, lim), -C * sqrt(lim), 1e-15, "continuous at -dp_lim");
    /* laminar slope C / sqrt(dp_lim) (seed 001 eq. 6: gamma1 = gamma2 sqrt(dp_lim)/dp_lim) */
    CHECK_CLOSE((hs_orifice_flow(C, h, lim) - hs_orifice_flow(C, -h, lim)) / (2 * h) / (C / sqrt(lim)),
                1.0, 1e-9, "laminar slope");
    CHECK_CLOSE(hs_orifice_flow(C, 3.5e6, lim), C * sqrt(3.5e6), 1e-15, "turbulent");
    CHECK(hs_orifice_flow(C, 0.0, lim) == 0.0, "no flow without a pressure drop");
}

/* trapezoidal spool step: exact for the linear ODE up to O(dt^2) */
static void test_spool(void)
{
    double tau = 4.547e-3, e[2];
    int r;
    for (r = 0; r < 2; ++r) {
        double dt = r ? 5e-4 : 1e-3, U = 0.0;
        int k, n = (int)(0.02 / dt + 0.5);
        for (k = 0; k < n; ++k) U = hs_spool_step(U, 10.0, 10.0, dt, tau);
        e[r] = fabs(U - 10.0 * (1 - exp(-0.02 / tau)));
    }
    CHECK(e[0] / e[1] > 3.8 && e[0] / e[1] < 4.2, "spool step second order: ratio %.3f",
          e[0] / e[1]);
}

/* one prismatic slider driven along x; a cylinder from ground to it with closed chambers */
static void closed_cylinder(hs_model *m)
{
    tu_model_defaults(m);
    m->nbody = 1;
    m->body_parent[0] = -1;
    m->joint_type[0] = HS_JOINT_PRISMATIC;
    hs_v3_set(m->joint_axis[0], 1, 0, 0);
    m->body_shape[0] = HS_SHAPE_POINT;
    m->body_mass[0] = 10;
    m->B_oil = 1500e6;
    m->nvol = 2;
    m->vol_V[0] = 1e-5;
    m->vol_V[1] = 2e-5;
    m->vol_B[0] = m->vol_B[1] = 5000e6;
    m->vol_cyl[0] = m->vol_cyl[1] = 0;
    m->vol_side[1] = 1;
    m->ncyl = 1;
    m->cyl_body_a[0] = -1;
    hs_v3_set(m->cyl_at_a[0], -1, 0, 0);
    m->cyl_body_b[0] = 0;
    m->cyl_d_piston[0] = 0.05;
    m->cyl_d_rod[0] = 0.03;
    m->cyl_stroke[0] = 0.5;
    m->cyl_l_p0[0] = 0.25;
    m->cyl_B[0] = 5000e6; /* = hose modulus: Be is then constant (1/Be = 1/B_oil + 1/5000e6) */
    m->cyl_vol_p[0] = 0;
    m->cyl_vol_r[0] = 1;
    m->rho = 850;
    hs_model_derive(m);
}

static void test_closed_chamber(void)
{
    hs_model m;
    hs_kin k;
    hs_hyd o;
    double p[2] = {2e6, 2e6}, fs[1] = {0}, s0[1] = {1.0}, Be, V0, V1;
    double z = 0.0, zd = -0.4, dt = 1e-4, Ap, Ar;
    int i;
    closed_cylinder(&m);
    Ap = m.cyl_Ap[0];
    Ar = m.cyl_Ar[0];
    Be = 1.0 / (1.0 / 1500e6 + 1.0 / 5000e6);
    /* the piston moves in at 0.4 m/s for 0.2 s: integrate p' = h with RK4 along z(t) */
    for (i = 0; i < 2000; ++i) {
        double kq[4][2], pt[2], zt;
        int st, q;
        for (st = 0; st < 4; ++st) {
            double a = st == 0 ? 0 : (st == 3 ? 1.0 : 0.5);
            zt = z + a * dt * zd;
            for (q = 0; q < 2; ++q) pt[q] = p[q] + (st ? a * dt * kq[st - 1][q] : 0.0);
            hs_kin_positions(&m, &zt, &k);
            hs_kin_velocities(&m, &zd, &k);
            hs_hydraulics(&m, &k, pt, fs, NULL, s0, &o);
            kq[st][0] = o.h[0];
            kq[st][1] = o.h[1];
        }
        for (q = 0; q < 2; ++q) p[q] += dt / 6 * (kq[0][q] + 2 * kq[1][q] + 2 * kq[2][q] + kq[3][q]);
        z += dt * zd;
    }
    V0 = 1e-5 + Ap * 0.25;
    V1 = 1e-5 + Ap * (0.25 - 0.08);
    CHECK_CLOSE(p[0], 2e6 - Be * log(V1 / V0), 1e-9, "piston side: p0 - Be ln(V/V0)");
    V0 = 2e-5 + Ar * 0.25;
    V1 = 2e-5 + Ar * (0.25 + 0.08);
    CHECK_CLOSE(p[1], 2e6 - Be * log(V1 / V0), 1e-9, "rod side expands");
    /* small-motion form dp = -Be dV / V at the start */
    hs_kin_positions(&m, &z, &k);
    {
        double z0 = 0.0, p0[2] = {2e6, 2e6};
        hs_kin_positions(&m, &z0, &k);
        hs_kin_velocities(&m, &zd, &k);
        hs_hydraulics(&m, &k, p0, fs, NULL, s0, &o);
        CHECK_CLOSE(o.h[0], -Be * Ap * zd / (1e-5 + Ap * 0.25), 1e-12, "p' = -Be/V dV/dt");
        /* cylinder force along e = +x on the slider: p_p A_p - p_r A_r */
        CHECK_CLOSE(o.F[0], 2e6 * (Ap - Ar), 1e-12, "cylinder force");
        CHECK_CLOSE(o.sd[0], zd, 1e-15, "rod velocity");
    }
}

/* Pub. I static start: p_piston = p_valve = 4.14 MPa with p_rod = 3.5 MPa (Table 2) */
static void test_pub1_static(void)
{
    hs_model m;
    hs_state s;
    double F0;
    int k;
    tu_fourbar_pub1(&m);
    CHECK(hs_init(&m, &s, W) == 0, "init");
    F0 = sqrt(3.0) / 2 * 9.81 * (50 + 2 * 50 + 2.5 / 1.0 * 250); /* eq. (53) */
    printf("  Pub. I static start: p_piston %.6g Pa, p_valve %.6g Pa, p_rod %.6g Pa "
           "(eq. 54: %.6g Pa)\n", s.p[1], s.p[0], s.p[2], (F0 + m.cyl_Ar[0] * 3.5e6) / m.cyl_Ap[0]);
    CHECK_CLOSE(s.p[1], (F0 + m.cyl_Ar[0] * 3.5e6) / m.cyl_Ap[0], 1e-9, "eq. 54 exactly");
    CHECK(fabs(s.p[1] - 4.14e6) < 0.005e6, "p_piston = 4.14 MPa to 3 digits");
    CHECK(s.p[0] == s.p[1], "p_valve = p_piston");
    CHECK(s.p[2] == 3.5e6, "p_rod as given");
    CHECK_CLOSE(s.s0[0], sqrt(0.75), 1e-12, "s0 = 0.866 m");
    for (k = 0; k < 3; ++k) CHECK(fabs(s.zdd[k]) < 1e-6, "at rest: zdd %g", s.zdd[k]);
    /* it stays put until the valve opens at 0.5 s */
    for (k = 0; k < 450; ++k) CHECK(hs_step(&m, &s, W) == 0, "step %d", k);
    CHECK(fabs(s.z[0] + HS_PI / 6) < 1e-7, "crank still at -30 deg after 0.45 s: %.3e",
          s.z[0] + HS_PI / 6);
}

/* valves closed, no friction: the hydraulic spring; the balance E_kin + E_pot - W_cyl
 * shrinks ~4x per step halving (trapezoidal work vs energy consistency) */
static void test_coupled_energy(void)
{
    hs_model m;
    double e[3];
    int r;
    for (r = 0; r < 3; ++r) {
        hs_state s;
        hs_obs o;
        double E0, emax = 0.0;
        long k, n;
        tu_fourbar_pub1(&m);
        m.dcv_sig[0] = -1; /* valve closed */
        m.joint_zd0[0] = 0.3; /* a push */
        m.tol_z = 1e-11;
        m.tol_p = 1e-3;
        m.dt = 2e-3 / (1 << r);
        n = (long)(1.0 / m.dt + 0.5);
        hs_model_derive(&m);
        CHECK(hs_init(&m, &s, W) == 0, "init");
        hs_observe(&m, &s, W, &o);
        E0 = o.Ekin + o.Epot;
        for (k = 0; k < n; ++k) {
            double Eb;
            if (hs_step(&m, &s, W)) break;
            hs_observe(&m, &s, W, &o);
            Eb = fabs(o.Ekin + o.Epot - o.W_cyl - E0);
            if (Eb > emax) emax = Eb;
        }
        CHECK(s.step == n, "ran 1 s at dt %g", m.dt);
        e[r] = emax;
        printf("  closed circuit, dt %.1e: max |E_balance| %.3e J\n", m.dt, emax);
    }
    CHECK(e[0] / e[1] > 3.4 && e[0] / e[1] < 4.6, "ratio %.2f ~ 4", e[0] / e[1]);
    CHECK(e[1] / e[2] > 3.4 && e[1] / e[2] < 4.6, "ratio %.2f ~ 4", e[1] / e[2]);
}

/* Singular perturbation (seed 004 Pub. II eqs. 33-35) on the Pub. I circuit's valve volume
 * (between the valve's port A and the throttle to the piston side): the quasi-static pressure
 * balances the turbulent valve flow against the turbulent throttle flow (P -> A for U > 0,
 * A -> T for U < 0), equals the volume beyond the throttle when the valve is closed, is what
 * hs_hydraulic_rates reports for the volume, and the piston side receives gamma+- times the
 * throttle flow. */
static void test_singular_perturbation(void)
{
    hs_model m;
    hs_hyd o;
    int trial;
    double Ct, Cv;
    tu_fourbar_pub1(&m);
    m.vol_model[0] = HS_VOL_SP;
    m.vol_gamma[0][0] = 1.16;
    m.vol_gamma[0][1] = 1.05;
    hs_model_derive(&m);
    CHECK(m.vol_dcv[0] == 0 && m.vol_thr[0] == 0 && m.vol_dcv[1] < 0, "valve volume: valve 0, throttle 0");
    Ct = m.thr_Cv[0];
    Cv = m.dcv_Cv[0];
    for (trial = 0; trial < 40; ++trial) {
        double p[HS_MAX_VOLS] = {0}, U[HS_MAX_DCV] = {0}, ps, pP = m.src_p[0], pT = m.src_p[1], qv, qt, h1, h1g;
        p[1] = tu_rand(0.3e6, 7e6);
        p[2] = tu_rand(0.3e6, 7e6);
        U[0] = trial == 0 ? 0.0 : (trial % 2 ? 1.0 : -1.0) * tu_rand(0.01, 10.0);
        ps = hs_sp_pressure(&m, 0, p, U);
        if (U[0] == 0.0) {
            CHECK(ps == p[1], "closed valve: the pressure beyond the throttle");
            continue;
        }
        if (U[0] > 0.0) { /* P -> A -> throttle -> piston */
            qv = Cv * U[0] * sqrt(fabs(pP - ps));
            CHECK(pP >= ps && ps >= p[1], "U > 0: p_P >= p >= p_piston");
        } else { /* piston -> throttle -> A -> T */
            qv = Cv * -U[0] * sqrt(fabs(ps - pT));
            CHECK(p[1] >= ps && ps >= pT, "U < 0: p_piston >= p >= p_T");
        }
        qt = Ct * sqrt(fabs(ps - p[1]));
        CHECK(fabs(qv - qt) <= 1e-10 * qt, "eq. 33 balances the turbulent flows: %.17g vs %.17g", qv, qt);
        /* the rates: the volume's entry is its pressure; at rest the piston side gains only the
         * throttle flow, gamma times the uncorrected one */
        memset(&o, 0, sizeof o);
        o.lp[0] = 0.3;
        o.lr[0] = 0.4;
        p[0] = ps;
        hs_hydraulic_rates(&m, p, NULL, U, &o);
        CHECK(o.h[0] == ps, "rates: the quasi-static pressure");
        h1g = o.h[1];
        m.vol_gamma[0][0] = m.vol_gamma[0][1] = 1.0;
        hs_hydraulic_rates(&m, p, NULL, U, &o);
        h1 = o.h[1];
        m.vol_gamma[0][0] = 1.16;
        m.vol_gamma[0][1] = 1.05;
        CHECK(fabs(h1g - (U[0] > 0.0 ? 1.16 : 1.05) * h1) <= 1e-12 * fabs(h1), "gamma%c: %.17g vs %.17g",
              U[0] > 0.0 ? '+' : '-', h1g, h1);
    }
}

int main(void)
{
    W = (hs_work *)calloc(1, sizeof *W);
    test_orifice();
    test_spool();
    test_closed_chamber();
    test_pub1_static();
    test_coupled_energy();
    test_singular_perturbation();
    free(W);
    return tu_report("test_hydraulics");
}
