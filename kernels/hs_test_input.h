/* hs_test_input.h -- what a signal is: its knots (piecewise linear in t), or one of the test
 * inputs of seed 004 Pub. III Sect. 2.4.2, with which a configuration is tried when the real
 * inputs are not known:
 *   step     w1 = v0 for t < t_s, v_max from t_s on                          (eq. 12)
 *   ramp     w2 = v0 for t < t_s, v0 + (t - t_s) v_max / t_rise from t_s on  (eq. 13)
 *   impulse  w3 = v_max for t_s - d/2 <= t < t_s + d/2, v0 otherwise         (eq. 14)
 *   sine     w4 = v0 + a sin(2 pi f t)                                       (eq. 15)
 * The paper's tests last 1 s with t_s = 0.5 s; its ramp, 2 (t - 0.5) v_max, is t_rise = 0.5 s
 * (v_max reached at 1 s, and the ramp goes on, as eq. 13 does); its impulse is 0.4 s wide
 * (Sect. 3.3); its sine's omega is 2 pi f. Both tables are defined once here: the model file's
 * keys, the named parameters signal.S.kind and signal.S.<key>, the rules every route applies
 * (model file, --set, sweep, Python) and the evaluation (hs_signal.h) all expand them. */
#ifndef HS_TEST_INPUT_H
#define HS_TEST_INPUT_H

#include "hs_hd.h"

/* X(ID, name): the kinds of a signal, in the order of enum hs_signal_kind. */
#define HS_SIGNAL_KINDS(X) \
    X(KNOTS, "knots")      \
    X(STEP, "step")        \
    X(RAMP, "ramp")        \
    X(IMPULSE, "impulse")  \
    X(SINE, "sine")

#define HS_SIGK_ENUM_(ID, name) HS_SIGK_##ID,
enum hs_signal_kind { HS_SIGNAL_KINDS(HS_SIGK_ENUM_) HS_SIGK_COUNT };
#undef HS_SIGK_ENUM_

/* X(ID, key, unit, default, lowest, open, text): the test inputs' parameters. unit "" is the
 * signal's own (that of its use: V for a valve's U_ref, N for a load); a value must be finite,
 * and >= lowest (open 0) or > lowest (open 1) where lowest is not -HUGE_VAL; text says the
 * rule in the words of an error message. */
#define HS_TEST_PARAMS(X)                                                                          \
    X(V0, "v0", "", 0.0, -HS_TP_NOLIMIT, 0, "v0 must be a finite number")                            \
    X(VMAX, "v_max", "", 0.0, -HS_TP_NOLIMIT, 0, "v_max must be a finite number")                    \
    X(TS, "t_s", "s", 0.5, 0.0, 0, "t_s must be a finite time >= 0 s")                               \
    X(TRISE, "t_rise", "s", 0.5, 0.0, 1, "t_rise must be a finite time > 0 s")                       \
    X(D, "d", "s", 0.4, 0.0, 1, "d (the impulse's width) must be a finite time > 0 s")               \
    X(A, "a", "", 0.0, -HS_TP_NOLIMIT, 0, "a (the sine's amplitude) must be a finite number")        \
    X(F, "f", "Hz", 1.0, 0.0, 1, "f (the sine's frequency) must be a finite frequency > 0 Hz")

#define HS_TP_NOLIMIT 1.79769313486231570e308 /* DBL_MAX: no bound but finiteness */

#define HS_TP_ENUM_(ID, key, unit, def, lo, open, text) HS_TP_##ID,
enum hs_test_param { HS_TEST_PARAMS(HS_TP_ENUM_) HS_TP_COUNT };
#undef HS_TP_ENUM_

/* Does value v break the rule of test parameter k? (NaN and infinities break every rule.) */
HS_HD static inline int hs_test_param_broken(int k, double v)
{
    if (!(v >= -HS_TP_NOLIMIT && v <= HS_TP_NOLIMIT)) return 1;
    switch (k) {
#define HS_TP_CASE_(ID, key, unit, def, lo, open, text) \
    case HS_TP_##ID: return (open) ? !(v > (lo)) : !(v >= (lo));
        HS_TEST_PARAMS(HS_TP_CASE_)
#undef HS_TP_CASE_
    default: return 1;
    }
}

#endif
