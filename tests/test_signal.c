/* test_signal.c -- kernels/hs_signal.h: interpolation, constant extension, right-continuous
 * jumps, and switching times hit exactly by t = n*dt despite rounding. */
#include "hs_signal.h"
#include "test_util.h"

/* The test inputs of seed 004 Pub. III eqs. 12-15 (kernels/hs_test_input.h): each kind's
 * values and one-sided limits at its switches, where the integrator lands (next_switch), and
 * the rules. Signal 1 (a knots ramp) becomes each test in turn. */
static void test_inputs(hs_model *m)
{
    double *P = m->sig_test[1];
    const double t_s = 0.5, sl = 1e-12;
    CHECK(P[HS_TP_TS] == 0.5 && P[HS_TP_TRISE] == 0.5 && P[HS_TP_D] == 0.4 && P[HS_TP_F] == 1.0 &&
              P[HS_TP_V0] == 0.0 && P[HS_TP_VMAX] == 0.0 && P[HS_TP_A] == 0.0,
          "defaults: Pub. III's t_s 0.5 s, ramp to v_max at 1 s, impulse 0.4 s (Sect. 3.3)");
    P[HS_TP_V0] = -1.0;
    P[HS_TP_VMAX] = 10.0;
    P[HS_TP_A] = 10.0;
    P[HS_TP_F] = 35.0;
    m->sig_kind[1] = HS_SIGK_STEP; /* eq. 12 */
    CHECK(hs_signal_eval(m, 1, 0.25) == -1.0 && hs_signal_eval(m, 1, t_s) == 10.0 &&
              hs_signal_eval_side(m, 1, t_s, -1) == -1.0 && hs_signal_eval(m, 1, 0.9) == 10.0,
          "step: v0 before t_s, v_max from t_s on; the left limit at t_s is v0");
    CHECK(hs_signal_eval(m, 1, 0.5 * (1.0 - 1e-13)) == 10.0, "step: t_s by rounding counts as t_s");
    m->sig_kind[1] = HS_SIGK_RAMP; /* eq. 13 */
    CHECK(hs_signal_eval(m, 1, 0.3) == -1.0 && hs_signal_eval(m, 1, t_s) == -1.0, "ramp: v0 up to t_s");
    CHECK_CLOSE(hs_signal_eval(m, 1, 0.75), -1.0 + 2.0 * (0.75 - 0.5) * 10.0, 1e-14, "ramp: v0 + 2 (t - 0.5) v_max");
    CHECK_CLOSE(hs_signal_eval(m, 1, 1.0), 9.0, 1e-14, "ramp: v0 + v_max at 1 s (t_rise 0.5 s)");
    m->sig_kind[1] = HS_SIGK_IMPULSE; /* eq. 14, d = 0.4 s: [0.3, 0.7) */
    CHECK(hs_signal_eval(m, 1, 0.29) == -1.0 && hs_signal_eval(m, 1, 0.3) == 10.0 &&
              hs_signal_eval_side(m, 1, 0.3, -1) == -1.0 && hs_signal_eval(m, 1, 0.69) == 10.0 &&
              hs_signal_eval(m, 1, 0.7) == -1.0 && hs_signal_eval_side(m, 1, 0.7, -1) == 10.0,
          "impulse: v_max on [t_s - d/2, t_s + d/2), one-sided limits at both ends");
    m->sig_kind[1] = HS_SIGK_SINE; /* eq. 15, omega = 2 pi f */
    CHECK_CLOSE(hs_signal_eval(m, 1, 0.01), -1.0 + 10.0 * sin(2.0 * HS_PI * 35.0 * 0.01), 1e-14,
                "sine: v0 + a sin(2 pi f t)");
    CHECK(hs_signal_eval_side(m, 1, 0.3, -1) == hs_signal_eval(m, 1, 0.3), "sine: no jumps");
    /* where the integrator lands: the test's switches, not the knots of the signal it replaced */
    m->sig_kind[1] = HS_SIGK_IMPULSE;
    CHECK(hs_signal_next_switch(m, 0.0, 0.45, sl) == 0.3 && hs_signal_next_switch(m, 0.3, 0.45, sl) == 0.45 &&
              hs_signal_next_switch(m, 0.55, 2.0, sl) == 0.7 && hs_signal_next_switch(m, 0.8, 1.2, sl) == 1.2,
          "impulse: steps land on t_s - d/2 and t_s + d/2 (and not on the old knot at 1 s)");
    m->sig_kind[1] = HS_SIGK_RAMP;
    CHECK(hs_signal_next_switch(m, 0.0, 0.45, sl) == 0.45 && hs_signal_next_switch(m, 0.45, 0.6, sl) == 0.5,
          "ramp: steps land on its kink at t_s");
    m->sig_kind[1] = HS_SIGK_SINE;
    CHECK(hs_signal_next_switch(m, 0.55, 2.0, sl) == 2.0, "sine: no switch");
    /* the rules (one table, every route): finite levels, t_s >= 0, t_rise, d, f > 0 */
    CHECK(!hs_test_param_broken(HS_TP_V0, -1e300) && hs_test_param_broken(HS_TP_V0, NAN) &&
              hs_test_param_broken(HS_TP_VMAX, INFINITY) && !hs_test_param_broken(HS_TP_TS, 0.0) &&
              hs_test_param_broken(HS_TP_TS, -1e-9) && hs_test_param_broken(HS_TP_TRISE, 0.0) &&
              hs_test_param_broken(HS_TP_D, 0.0) && hs_test_param_broken(HS_TP_F, 0.0) &&
              !hs_test_param_broken(HS_TP_F, 70.0) && hs_test_param_broken(HS_TP_A, -INFINITY),
          "test parameter rules");
    m->sig_kind[1] = HS_SIGK_KNOTS;
}

int main(void)
{
    hs_model m;
    int n;
    tu_model_defaults(&m);
    /* U_ref-like: 0, +10 on [0.5, 2.8), 0, -10 on [4.5, 6), 0 (seed 004 Pub. I eq. 55) */
    {
        double T[8] = {0.5, 0.5, 2.8, 2.8, 4.5, 4.5, 6.0, 6.0};
        double V[8] = {0, 10, 10, 0, 0, -10, -10, 0};
        for (n = 0; n < 8; ++n) {
            m.knot_t[n] = T[n];
            m.knot_v[n] = V[n];
        }
        m.nsignal = 2;
        m.sig_start[0] = 0;
        m.sig_n[0] = 8;
    }
    /* ramp 0 -> 4 on [1, 3] */
    m.knot_t[8] = 1;
    m.knot_v[8] = 0;
    m.knot_t[9] = 3;
    m.knot_v[9] = 4;
    m.sig_start[1] = 8;
    m.sig_n[1] = 2;
    CHECK(hs_signal_eval(&m, -1, 5.0) == 1.0, "no signal = 1");
    CHECK(hs_signal_eval(&m, 0, 0.0) == 0.0, "before first knot");
    CHECK(hs_signal_eval(&m, 0, 0.4999) == 0.0, "just before the jump");
    CHECK(hs_signal_eval(&m, 0, 0.5) == 10.0, "at the jump: value after it");
    CHECK(hs_signal_eval(&m, 0, 1.7) == 10.0, "on the plateau");
    CHECK(hs_signal_eval(&m, 0, 2.8) == 0.0, "closing jump");
    CHECK(hs_signal_eval(&m, 0, 5.0) == -10.0, "negative plateau");
    CHECK(hs_signal_eval(&m, 0, 6.0) == 0.0, "end jump");
    CHECK(hs_signal_eval(&m, 0, 100.0) == 0.0, "after last knot");
    CHECK_CLOSE(hs_signal_eval(&m, 1, 2.0), 2.0, 1e-15, "ramp midpoint");
    CHECK_CLOSE(hs_signal_eval(&m, 1, 1.25), 0.5, 1e-15, "ramp quarter");
    CHECK(hs_signal_eval(&m, 1, 0.0) == 0.0 && hs_signal_eval(&m, 1, 9.0) == 4.0, "ramp ends");
    /* t = n*dt for several dt: the step landing on 2.8 s always sees the switch, whichever
     * way n*dt rounds; the step before never does */
    {
        double dts[4] = {1e-3, 4e-3, 2.5e-4, 1e-4};
        int i;
        for (i = 0; i < 4; ++i) {
            long k = (long)floor(2.8 / dts[i] + 0.5);
            CHECK(hs_signal_eval(&m, 0, (double)k * dts[i]) == 0.0, "switch seen at n*dt, dt %g",
                  dts[i]);
            CHECK(hs_signal_eval(&m, 0, (double)(k - 1) * dts[i]) == 10.0, "not before, dt %g",
                  dts[i]);
        }
    }
    /* left limits: the value before a jump at the jump time; interpolation otherwise */
    CHECK(hs_signal_eval_side(&m, 0, 0.5, -1) == 0.0, "left limit at the opening jump");
    CHECK(hs_signal_eval_side(&m, 0, 2.8, -1) == 10.0, "left limit at the closing jump");
    CHECK(hs_signal_eval_side(&m, 0, 6.0, -1) == -10.0, "left limit at the last jump");
    CHECK(hs_signal_eval_side(&m, 0, 1.7, -1) == 10.0, "left = right off the knots");
    CHECK_CLOSE(hs_signal_eval_side(&m, 1, 2.0, -1), 2.0, 1e-15, "ramp left limit");
    CHECK(hs_signal_eval_side(&m, 1, 3.0, -1) == 4.0 && hs_signal_eval_side(&m, 1, 9.0, -1) == 4.0,
          "ramp end, left");
    CHECK(hs_signal_eval_side(&m, 1, 0.5, -1) == 0.0, "before the ramp, left");
    CHECK(hs_signal_next_switch(&m, 0.0, 10.0, 1e-12) == 0.5 && hs_signal_next_switch(&m, 0.5, 10.0, 1e-12) == 1.0 &&
              hs_signal_next_switch(&m, 4.5, 5.0, 1e-12) == 5.0,
          "the next switch: the first knot inside the span, else its end");
    test_inputs(&m);
    return tu_report("test_signal");
}
