/* test_signal.c -- kernels/hs_signal.h: interpolation, constant extension, right-continuous
 * jumps, and switching times hit exactly by t = n*dt despite rounding. */
#include "hs_signal.h"
#include "test_util.h"

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
    return tu_report("test_signal");
}
