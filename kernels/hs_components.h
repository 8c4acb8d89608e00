/* hs_components.h -- the hydraulic components beyond the seeds' circuit: relief, check and
 * flow control valves, fixed and variable displacement pumps, gas-charged accumulators. Each is an entry of
 * one table (hydraulics.components in a model file; hs_model.cmp_*): its type, its nodes, its
 * state if it has one (a relief valve's poppet, a variable pump's swash plate; kept with the
 * friction states in hs_state.fs, so every integrator, the co-simulation's hydraulic step and
 * the linearization carry it), and its parameters cmp_par[i][slot] by the table below.
 *
 * The laws (docs/model-format.md, "hydraulics.components[]"):
 *  - relief valve (direct-acting; the static characteristic of Merritt, Hydraulic Control
 *    Systems, 1967, on hydraulic power supplies, in its data-sheet form): no flow below the
 *    cracking pressure, then Q = Q_nom (dp - p_crack) / dp_override, the pressure override
 *    dp_override at the nominal flow Q_nom. The corner at p_crack is rounded over dp_smooth (a
 *    C1 quadratic: Newton's tangent is continuous), so the valve passes Q_nom at p_crack +
 *    dp_override + dp_smooth / 2. With a poppet (tau > 0) the opening x = Q / Q_nom lags its static value by
 *    x' = (x_ss - x) / tau (the first-order poppet of Watton, Fundamentals of Fluid Power
 *    Control, 2009, its mass neglected). Plus a laminar leakage G_l dp.
 *  - check valve: the opening fraction rises from 0 at the cracking pressure to 1 at p_crack +
 *    dp_open along the C1 cubic 3u^2 - 2u^3 (no jump in flow or tangent: no chattering), times
 *    the orifice flow of the open valve Cv sgn(dp) sqrt|dp| with its laminar band (seed 000
 *    eqs. 24, 26); plus a laminar leakage G_l dp in both directions. Hopsan's pre-loaded check
 *    valve (HydraulicCheckValvePreLoaded) is the same turbulent orifice beyond the pre-load and
 *    closed below it, with a jump of K_s sqrt(F_s) at cracking; the opening over dp_open removes
 *    that jump (as OpenHydraulics' CheckValve opens over its dp_open).
 *  - pump (Merritt on pumps and motors; Jelali and Kroll, Hydraulic Servo-systems, 2003):
 *    Q = eps D n / (2 pi) - C_l (p_out - p_in) from inlet to outlet, the leakage coefficient
 *    C_l = (1 - eta_v) D n / (2 pi dp_rated) from the volumetric efficiency eta_v at the
 *    rated pressure rise; shaft torque D dp / (2 pi eta_hm). A fixed pump has eps = 1. A
 *    variable pump's displacement fraction eps follows eps' = (eps_ss - eps) / tau (its swash
 *    plate and control valve as one first-order lag), eps_ss
 *    falling from 1 to 0 as the outlet pressure rises from p_ref to p_ref + dp_band: p_ref =
 *    p_set for pressure compensation, and p_LS + dp_margin for load sensing (the pump keeps its
 *    outlet dp_margin above the load-sensing node's pressure). Its corners are rounded (C1).
 *  - flow control valve (pressure compensated, 2-way; Merritt on flow control and Watton on
 *    pressure-compensated flow control valves, in the data-sheet form Q(dp)): the compensator
 *    holds the set flow Q_set once the drop across the valve exceeds the compensator's spring
 *    pressure dp_comp; below it the metering orifice, sized to pass Q_set at dp_comp, sets the
 *    flow (hs_flow_control_flow).
 *  - motor (Merritt on hydraulic motors; Hopsan's HydraulicMotorQ for the viscous term) on a
 *    revolute joint through a gear of ratio i (shaft speed w = i zdot_j): flow from -> to
 *    Q = D w / (2 pi) + G_l dp, dp = p_from - p_to; shaft torque
 *    T = D / (2 pi) (dp - (1 - eta_hm) |dp|_s tanh(w / omega_s)) - c_v w,
 *    the hydro-mechanical loss a torque against the motion proportional to the load pressure
 *    (as a pressure-dependent Coulomb friction: the loss T_l w >= 0 whether the motor drives
 *    or is driven, which a factor eta_hm on D dp / (2 pi) would not give), |dp|_s the rounded
 *    |dp| (C1 over HS_MOTOR_DP_SMOOTH); at speeds well above omega_s a driving motor gives
 *    eta_hm D dp / (2 pi). The joint receives i T (hs_hyd.Tm: its generalised force).
 *  - accumulator (Merritt on accumulators; the polytropic gas law p V^n = p_pre V0^n): above the
 *    precharge the gas volume is V_g = V0 (p_pre / p)^(1/n), and the oil taken in, V0 - V_g,
 *    adds the capacitance -dV_g/dp = V_g / (n p) (plus its own compressibility) to its volume's
 *    p' = Q / C (seed 000 eq. 22); at or below the precharge the gas fills the shell and
 *    the accumulator adds nothing. n = 1 is isothermal, n = 1.4 adiabatic (nitrogen).
 *  - hose (a line of lumped segments, the lumped approximation of a transmission line of
 *    Watton, Fundamentals of Fluid Power Control, 2009, ch. on line dynamics, and of Merritt
 *    on hydraulic lines; Hopsan's lumped-parameter lines): length L, inner diameter d, N
 *    segments of l = L / N. Each segment's oil is a mass rho A l moved by the pressure
 *    difference across it, rho l v_j' = p_(j-1) - p_j - 32 mu l v_j / d^2 (its laminar
 *    Hagen-Poiseuille friction, mu = rho nu; the frequency-dependent friction of a
 *    distributed line is neglected), and carries Q_j = A v_j. Between segments lie N - 1
 *    internal volumes of A l each (generated volumes named NAME_1 .. NAME_(N-1), with the
 *    wall modulus B_wall: seed 000 eq. 23's effective bulk modulus); each end node gets half a
 *    segment's capacitance. The wave speed is c = sqrt(Be / rho), 1/Be = 1/B_oil + 1/B_wall;
 *    the lossless chain between fixed pressures rings at w_k = (2 c / l) sin(k pi / (2 N)),
 *    k = 1 .. N - 1, which tends to the line's k pi c / L as N grows. */
#ifndef HS_COMPONENTS_H
#define HS_COMPONENTS_H

#include "hs_hd.h"

/* X(ID, YAML type, ports, may have a state): the component types, in the order of enum
 * hs_cmp_type. Ports (enum hs_cmp_port_kind): 1 at; 2 from, to; 3 from, to and a pilot node;
 * 4 from, to and an optional pilot (default: from); 5 two inputs and to (a shuttle). The
 * pilot or the second input is hs_model.cmp_ref. The pilot-operated valves' laws:
 * kernels/hs_pilot_valves.h. */
#define HS_COMPONENT_TYPES(X)                     \
    X(RELIEF, "relief_valve", 2, 0)               \
    X(CHECK, "check_valve", 2, 0)                 \
    X(PUMP, "pump", 2, 0)                         \
    X(PUMP_PC, "pressure_compensated_pump", 2, 1) \
    X(PUMP_LS, "load_sensing_pump", 2, 1)         \
    X(ACCUMULATOR, "accumulator", 1, 0)           \
    X(FLOW_CONTROL, "flow_control_valve", 2, 0)   \
    X(MOTOR, "motor", 2, 0)                       \
    X(HOSE, "hose", 2, 1)                         \
    X(COUNTERBALANCE, "counterbalance_valve", 3, 1) \
    X(PILOT_CHECK, "pilot_check_valve", 3, 0)     \
    X(REDUCING, "pressure_reducing_valve", 2, 1)  \
    X(SEQUENCE, "sequence_valve", 4, 1)           \
    X(SHUTTLE, "shuttle_valve", 5, 0)

#define HS_CMP_ENUM_(ID, name, ports, state) HS_CMP_##ID,
enum hs_cmp_type { HS_COMPONENT_TYPES(HS_CMP_ENUM_) HS_CMP_COUNT };
#undef HS_CMP_ENUM_

enum hs_cmp_port_kind { HS_PORTS_AT = 1, HS_PORTS_FROM_TO = 2, HS_PORTS_PILOT = 3, HS_PORTS_PILOT_OPT = 4, HS_PORTS_INPUTS = 5 };

#define HS_CMP_NPAR 10 /* parameter slots per component */
#define HS_HOSE_MAX_SEG 8 /* a hose's most segments (its states: the segments' flow velocities) */
#define HS_STR_(x) #x
#define HS_STR(x) HS_STR_(x)
#define HS_CMP_REQUIRED (-1.0e308) /* default of a required parameter */
#define HS_CMP_NOLIMIT 1.79769313486231570e308

/* X(type ID, slot, key, unit (the model file's SI family), default (HS_CMP_REQUIRED: none),
 * lowest, lowest open, highest, text of the rule): each type's parameters in its slots. A
 * value must be finite and within [lowest, highest] ((lowest, highest] if open); the rules
 * between parameters (dp_smooth <= dp_override, ...) are hs_cmp_rule_broken's. */
#define HS_COMPONENT_PARAMS(X)                                                                                   \
    X(RELIEF, 0, "p_crack", "Pa", HS_CMP_REQUIRED, 0.0, 1, HS_CMP_NOLIMIT, "p_crack must be > 0")                \
    X(RELIEF, 1, "Q_nom", "m^3/s", HS_CMP_REQUIRED, 0.0, 1, HS_CMP_NOLIMIT, "Q_nom must be > 0")                 \
    X(RELIEF, 2, "dp_override", "Pa", HS_CMP_REQUIRED, 0.0, 1, HS_CMP_NOLIMIT, "dp_override must be > 0")       \
    X(RELIEF, 3, "dp_smooth", "Pa", 1e5, 0.0, 1, HS_CMP_NOLIMIT,                                                 \
      "dp_smooth must be > 0 and <= dp_override")                                                               \
    X(RELIEF, 4, "tau", "s", 0.0, 0.0, 0, HS_CMP_NOLIMIT, "tau must be >= 0 (0: no poppet dynamics)")           \
    X(RELIEF, 5, "leakage", "m^3/(s Pa)", 0.0, 0.0, 0, HS_CMP_NOLIMIT, "leakage must be >= 0")                   \
    X(CHECK, 0, "p_crack", "Pa", 0.0, 0.0, 0, HS_CMP_NOLIMIT, "p_crack must be >= 0")                            \
    X(CHECK, 1, "dp_open", "Pa", 1e5, 0.0, 1, HS_CMP_NOLIMIT, "dp_open must be > 0")                             \
    X(CHECK, 2, "Cv", "m^3/(s sqrt(Pa))", HS_CMP_REQUIRED, 0.0, 1, HS_CMP_NOLIMIT, "Cv must be > 0")             \
    X(CHECK, 3, "dp_lim", "Pa", 2e5, 0.0, 1, HS_CMP_NOLIMIT, "dp_lim must be > 0")                               \
    X(CHECK, 4, "leakage", "m^3/(s Pa)", 0.0, 0.0, 0, HS_CMP_NOLIMIT, "leakage must be >= 0")                    \
    HS_PUMP_PARAMS_(X, PUMP)                                                                                     \
    HS_PUMP_PARAMS_(X, PUMP_PC)                                                                                  \
    X(PUMP_PC, 6, "p_set", "Pa", HS_CMP_REQUIRED, 0.0, 1, HS_CMP_NOLIMIT, "p_set must be > 0")                   \
    X(PUMP_PC, 7, "dp_band", "Pa", 5e5, 0.0, 1, HS_CMP_NOLIMIT, "dp_band must be > 0")                           \
    X(PUMP_PC, 8, "tau", "s", 0.05, 0.0, 1, HS_CMP_NOLIMIT, "tau must be > 0")                                   \
    HS_PUMP_PARAMS_(X, PUMP_LS)                                                                                  \
    X(PUMP_LS, 6, "dp_margin", "Pa", 20e5, 0.0, 1, HS_CMP_NOLIMIT, "dp_margin must be > 0")                      \
    X(PUMP_LS, 7, "dp_band", "Pa", 5e5, 0.0, 1, HS_CMP_NOLIMIT, "dp_band must be > 0")                           \
    X(PUMP_LS, 8, "tau", "s", 0.05, 0.0, 1, HS_CMP_NOLIMIT, "tau must be > 0")                                   \
    X(ACCUMULATOR, 0, "V0", "m^3", HS_CMP_REQUIRED, 0.0, 1, HS_CMP_NOLIMIT, "V0 must be > 0")                    \
    X(ACCUMULATOR, 1, "p_pre", "Pa", HS_CMP_REQUIRED, 0.0, 1, HS_CMP_NOLIMIT,                                   \
      "p_pre must be > 0 (absolute)")                                                                           \
    X(ACCUMULATOR, 2, "n", "", 1.4, 1.0, 0, 2.0, "n must be in [1, 2] (1 isothermal, 1.4 adiabatic nitrogen)") \
    X(FLOW_CONTROL, 0, "Q_set", "m^3/s", HS_CMP_REQUIRED, 0.0, 1, HS_CMP_NOLIMIT, "Q_set must be > 0")          \
    X(FLOW_CONTROL, 1, "dp_comp", "Pa", 10e5, 0.0, 1, HS_CMP_NOLIMIT,                                            \
      "dp_comp must be > 0 (the pressure drop from which the compensator holds Q_set)")                          \
    X(FLOW_CONTROL, 2, "dp_lim", "Pa", 1e5, 0.0, 1, HS_CMP_NOLIMIT, "dp_lim must be > 0 and < dp_comp")          \
    X(FLOW_CONTROL, 3, "leakage", "m^3/(s Pa)", 0.0, 0.0, 0, HS_CMP_NOLIMIT, "leakage must be >= 0")          \
    X(MOTOR, 0, "D", "m^3/rev", HS_CMP_REQUIRED, 0.0, 1, HS_CMP_NOLIMIT, "D must be > 0")                        \
    X(MOTOR, 1, "ratio", "", 1.0, 0.0, 1, HS_CMP_NOLIMIT,                                                        \
      "ratio must be > 0 (motor shaft turns per turn of the joint: a gear reduction)")                         \
    X(MOTOR, 2, "eta_hm", "", 1.0, 0.0, 1, 1.0, "eta_hm must be in (0, 1]")                                      \
    X(MOTOR, 3, "leakage", "m^3/(s Pa)", 0.0, 0.0, 0, HS_CMP_NOLIMIT, "leakage must be >= 0")                    \
    X(MOTOR, 4, "omega_s", "rad/s", 1.0, 0.0, 1, HS_CMP_NOLIMIT,                                                 \
      "omega_s must be > 0 (the shaft speed over which the torque loss changes sign)")                        \
    X(MOTOR, 5, "damping", "N m s/rad", 0.0, 0.0, 0, HS_CMP_NOLIMIT,                                             \
      "damping must be >= 0 (viscous torque per shaft speed)")                                                \
    X(HOSE, 0, "L", "m", HS_CMP_REQUIRED, 0.0, 1, HS_CMP_NOLIMIT, "L must be > 0 (the hose's length)")           \
    X(HOSE, 1, "d", "m", HS_CMP_REQUIRED, 0.0, 1, HS_CMP_NOLIMIT, "d must be > 0 (the inner diameter)")          \
    X(HOSE, 2, "segments", "", 2.0, 1.0, 0, HS_HOSE_MAX_SEG,                                                     \
      "segments must be an integer from 1 to " HS_STR(HS_HOSE_MAX_SEG))                                         \
    X(HOSE, 3, "B_wall", "Pa", HS_CMP_REQUIRED, 0.0, 1, HS_CMP_NOLIMIT,                                          \
      "B_wall must be > 0 (the hose wall's share of the effective bulk modulus)")                               \
    X(HOSE, 4, "nu", "m^2/s", 46e-6, 0.0, 1, HS_CMP_NOLIMIT,                                                     \
      "nu must be > 0 (the oil's kinematic viscosity: 46e-6 for ISO VG 46 at 40 C)")                      \
    HS_PILOT_VALVE_PARAMS_(X)

/* The pilot-operated valves (kernels/hs_pilot_valves.h; catalogue forms: a counterbalance
 * valve's setting and pilot ratio, a pilot-operated check valve's pilot ratio). */
#define HS_PILOT_VALVE_PARAMS_(X)                                                                              \
    X(COUNTERBALANCE, 0, "p_set", "Pa", HS_CMP_REQUIRED, 0.0, 1, HS_CMP_NOLIMIT,                               \
      "p_set must be > 0 (the load pressure that opens the valve unpiloted)")                                 \
    X(COUNTERBALANCE, 1, "ratio", "", HS_CMP_REQUIRED, 0.0, 1, 100.0,                                          \
      "ratio must be > 0 and <= 100 (the pilot ratio: pilot area / load area, 3 for 3:1)")                    \
    X(COUNTERBALANCE, 2, "dp_open", "Pa", 20e5, 0.0, 1, HS_CMP_NOLIMIT,                                        \
      "dp_open must be > 0 (the rise of p_load + ratio p_pilot over p_set that opens it fully)")             \
    X(COUNTERBALANCE, 3, "Cv", "m^3/(s sqrt(Pa))", HS_CMP_REQUIRED, 0.0, 1, HS_CMP_NOLIMIT, "Cv must be > 0")   \
    X(COUNTERBALANCE, 4, "Cv_check", "m^3/(s sqrt(Pa))", HS_CMP_REQUIRED, 0.0, 1, HS_CMP_NOLIMIT,             \
      "Cv_check must be > 0 (the bypass check valve, valve port -> load port)")                              \
    X(COUNTERBALANCE, 5, "p_check", "Pa", 1e5, 0.0, 0, HS_CMP_NOLIMIT, "p_check must be >= 0")                  \
    X(COUNTERBALANCE, 6, "dp_lim", "Pa", 2e5, 0.0, 1, HS_CMP_NOLIMIT, "dp_lim must be > 0")                     \
    X(COUNTERBALANCE, 7, "tau", "s", 0.0, 0.0, 0, HS_CMP_NOLIMIT, "tau must be >= 0 (0: no spool dynamics)")   \
    X(COUNTERBALANCE, 8, "leakage", "m^3/(s Pa)", 0.0, 0.0, 0, HS_CMP_NOLIMIT, "leakage must be >= 0")          \
    X(COUNTERBALANCE, 9, "vented", "", 0.0, 0.0, 0, 1.0,                                                       \
      "vented must be 0 (spring chamber drained to the valve port) or 1 (vented to atmosphere)")             \
    X(PILOT_CHECK, 0, "p_crack", "Pa", 1e5, 0.0, 0, HS_CMP_NOLIMIT, "p_crack must be >= 0")                     \
    X(PILOT_CHECK, 1, "dp_open", "Pa", 2e5, 0.0, 1, HS_CMP_NOLIMIT, "dp_open must be > 0")                      \
    X(PILOT_CHECK, 2, "Cv", "m^3/(s sqrt(Pa))", HS_CMP_REQUIRED, 0.0, 1, HS_CMP_NOLIMIT, "Cv must be > 0")      \
    X(PILOT_CHECK, 3, "ratio", "", HS_CMP_REQUIRED, 0.0, 1, 100.0,                                             \
      "ratio must be > 0 and <= 100 (the pilot ratio: pilot piston area / seat area)")                      \
    X(PILOT_CHECK, 4, "ratio_dec", "", 0.0, 0.0, 0, 1000.0,                                                    \
      "ratio_dec must be 0 (no decompression poppet) or above ratio, <= 1000")                              \
    X(PILOT_CHECK, 5, "Cv_dec", "m^3/(s sqrt(Pa))", 0.0, 0.0, 0, HS_CMP_NOLIMIT,                               \
      "Cv_dec must be >= 0 (the decompression poppet's orifice)")                                           \
    X(PILOT_CHECK, 6, "dp_lim", "Pa", 2e5, 0.0, 1, HS_CMP_NOLIMIT, "dp_lim must be > 0")                        \
    X(PILOT_CHECK, 7, "leakage", "m^3/(s Pa)", 0.0, 0.0, 0, HS_CMP_NOLIMIT, "leakage must be >= 0")             \
    X(REDUCING, 0, "p_set", "Pa", HS_CMP_REQUIRED, 0.0, 1, HS_CMP_NOLIMIT,                                     \
      "p_set must be > 0 (the outlet pressure at which it closes)")                                          \
    X(REDUCING, 1, "dp_band", "Pa", 5e5, 0.0, 1, HS_CMP_NOLIMIT,                                               \
      "dp_band must be > 0 (the fall of the outlet pressure below p_set that opens it fully)")               \
    X(REDUCING, 2, "Cv", "m^3/(s sqrt(Pa))", HS_CMP_REQUIRED, 0.0, 1, HS_CMP_NOLIMIT, "Cv must be > 0")         \
    X(REDUCING, 3, "dp_lim", "Pa", 2e5, 0.0, 1, HS_CMP_NOLIMIT, "dp_lim must be > 0")                           \
    X(REDUCING, 4, "tau", "s", 0.0, 0.0, 0, HS_CMP_NOLIMIT, "tau must be >= 0 (0: no spool dynamics)")         \
    X(REDUCING, 5, "leakage", "m^3/(s Pa)", 0.0, 0.0, 0, HS_CMP_NOLIMIT, "leakage must be >= 0")                \
    X(SEQUENCE, 0, "p_set", "Pa", HS_CMP_REQUIRED, 0.0, 1, HS_CMP_NOLIMIT,                                     \
      "p_set must be > 0 (the pilot pressure at which it opens)")                                            \
    X(SEQUENCE, 1, "dp_open", "Pa", 10e5, 0.0, 1, HS_CMP_NOLIMIT,                                              \
      "dp_open must be > 0 (the rise of the pilot pressure over p_set that opens it fully)")                 \
    X(SEQUENCE, 2, "Cv", "m^3/(s sqrt(Pa))", HS_CMP_REQUIRED, 0.0, 1, HS_CMP_NOLIMIT, "Cv must be > 0")         \
    X(SEQUENCE, 3, "dp_lim", "Pa", 2e5, 0.0, 1, HS_CMP_NOLIMIT, "dp_lim must be > 0")                           \
    X(SEQUENCE, 4, "Cv_check", "m^3/(s sqrt(Pa))", 0.0, 0.0, 0, HS_CMP_NOLIMIT,                                \
      "Cv_check must be >= 0 (the reverse check valve, to -> from; 0: none)")                                \
    X(SEQUENCE, 5, "tau", "s", 0.0, 0.0, 0, HS_CMP_NOLIMIT, "tau must be >= 0 (0: no spool dynamics)")         \
    X(SEQUENCE, 6, "leakage", "m^3/(s Pa)", 0.0, 0.0, 0, HS_CMP_NOLIMIT, "leakage must be >= 0")                \
    X(SHUTTLE, 0, "Cv", "m^3/(s sqrt(Pa))", HS_CMP_REQUIRED, 0.0, 1, HS_CMP_NOLIMIT,                           \
      "Cv must be > 0 (each seat's open orifice)")                                                           \
    X(SHUTTLE, 1, "dp_switch", "Pa", 1e5, 0.0, 1, HS_CMP_NOLIMIT,                                              \
      "dp_switch must be > 0 (the input pressure difference over which the ball shifts)")                    \
    X(SHUTTLE, 2, "dp_lim", "Pa", 2e5, 0.0, 1, HS_CMP_NOLIMIT, "dp_lim must be > 0")

/* Every pump's first six slots: displacement per revolution, shaft speed, efficiencies and
 * the pressures they are rated at; and slot 9, its prime mover's speed droop. */
#define HS_PUMP_PARAMS_(X, T)                                                                                    \
    X(T, 0, "D", "m^3/rev", HS_CMP_REQUIRED, 0.0, 1, HS_CMP_NOLIMIT, "D must be > 0")                            \
    X(T, 1, "speed", "rad/s", HS_CMP_REQUIRED, 0.0, 0, HS_CMP_NOLIMIT, "speed must be >= 0")                     \
    X(T, 2, "eta_v", "", 1.0, 0.0, 1, 1.0, "eta_v must be in (0, 1]")                                            \
    X(T, 3, "dp_rated", "Pa", 200e5, 0.0, 1, HS_CMP_NOLIMIT, "dp_rated must be > 0")                             \
    X(T, 4, "eta_hm", "", 1.0, 0.0, 1, 1.0, "eta_hm must be in (0, 1]")                                          \
    X(T, 5, "p_max", "Pa", 0.0, 0.0, 0, HS_CMP_NOLIMIT,                                                         \
      "p_max must be >= 0 (the rated maximum outlet pressure; 0: not rated)")                                  \
    X(T, 9, "droop", "", 0.0, 0.0, 0, 0.5,                                                                       \
      "droop must be in [0, 0.5] (the prime mover's speed lost at the pump's full torque, a fraction)")

/* slot names used by the laws below */
enum {
    HS_CP_RV_PCR = 0, HS_CP_RV_QNOM = 1, HS_CP_RV_DPOV = 2, HS_CP_RV_DPS = 3, HS_CP_RV_TAU = 4, HS_CP_RV_GL = 5,
    HS_CP_CK_PCR = 0, HS_CP_CK_DPO = 1, HS_CP_CK_CV = 2, HS_CP_CK_DPLIM = 3, HS_CP_CK_GL = 4,
    HS_CP_PU_D = 0, HS_CP_PU_N = 1, HS_CP_PU_ETAV = 2, HS_CP_PU_DPR = 3, HS_CP_PU_ETAHM = 4, HS_CP_PU_PMAX = 5,
    HS_CP_PU_PREF = 6, HS_CP_PU_BAND = 7, HS_CP_PU_TAU = 8, HS_CP_PU_DROOP = 9,
    HS_CP_AC_V0 = 0, HS_CP_AC_PPRE = 1, HS_CP_AC_N = 2,
    HS_CP_FC_QSET = 0, HS_CP_FC_DPC = 1, HS_CP_FC_DPLIM = 2, HS_CP_FC_GL = 3,
    HS_CP_MO_D = 0, HS_CP_MO_RATIO = 1, HS_CP_MO_ETAHM = 2, HS_CP_MO_GL = 3, HS_CP_MO_WS = 4, HS_CP_MO_CV = 5,
    HS_CP_HO_L = 0, HS_CP_HO_D = 1, HS_CP_HO_NSEG = 2, HS_CP_HO_BW = 3, HS_CP_HO_NU = 4,
    HS_CP_CB_PSET = 0, HS_CP_CB_RATIO = 1, HS_CP_CB_DPO = 2, HS_CP_CB_CV = 3, HS_CP_CB_CVCK = 4, HS_CP_CB_PCK = 5,
    HS_CP_CB_DPLIM = 6, HS_CP_CB_TAU = 7, HS_CP_CB_GL = 8, HS_CP_CB_VENT = 9,
    HS_CP_PO_PCR = 0, HS_CP_PO_DPO = 1, HS_CP_PO_CV = 2, HS_CP_PO_RATIO = 3, HS_CP_PO_RDEC = 4, HS_CP_PO_CVDEC = 5,
    HS_CP_PO_DPLIM = 6, HS_CP_PO_GL = 7,
    HS_CP_PR_PSET = 0, HS_CP_PR_BAND = 1, HS_CP_PR_CV = 2, HS_CP_PR_DPLIM = 3, HS_CP_PR_TAU = 4, HS_CP_PR_GL = 5,
    HS_CP_SQ_PSET = 0, HS_CP_SQ_DPO = 1, HS_CP_SQ_CV = 2, HS_CP_SQ_DPLIM = 3, HS_CP_SQ_CVCK = 4, HS_CP_SQ_TAU = 5,
    HS_CP_SQ_GL = 6,
    HS_CP_SH_CV = 0, HS_CP_SH_DPSW = 1, HS_CP_SH_DPLIM = 2
};

/* Ports and whether a type has a state. */
HS_HD static inline int hs_cmp_ports(int type)
{
    switch (type) {
#define HS_CMP_PORTS_(ID, name, ports, state) \
    case HS_CMP_##ID: return ports;
        HS_COMPONENT_TYPES(HS_CMP_PORTS_)
#undef HS_CMP_PORTS_
    default: return 0;
    }
}

/* Is a component of type `type` a pump (fixed or variable: the first six slots
 * HS_PUMP_PARAMS_, a shaft)? */
HS_HD static inline int hs_cmp_is_pump(int type)
{
    return type == HS_CMP_PUMP || type == HS_CMP_PUMP_PC || type == HS_CMP_PUMP_LS;
}

/* The slot of a valve's optional time constant (a poppet's or a spool's first-order lag: one
 * state when > 0, fixed by the model file's layout), -1 for the other types. */
HS_HD static inline int hs_cmp_tau_slot(int type)
{
    switch (type) {
    case HS_CMP_RELIEF: return HS_CP_RV_TAU;
    case HS_CMP_COUNTERBALANCE: return HS_CP_CB_TAU;
    case HS_CMP_REDUCING: return HS_CP_PR_TAU;
    case HS_CMP_SEQUENCE: return HS_CP_SQ_TAU;
    default: return -1;
    }
}

/* How many states a component of type `type` with parameters par carries (hs_model.cmp_dyn):
 * a valve with a poppet or spool time constant one, a variable pump its swash plate, a hose
 * its segments' flow velocities. */
HS_HD static inline int hs_cmp_nstates(int type, const double *par)
{
    if (hs_cmp_tau_slot(type) >= 0) return par[hs_cmp_tau_slot(type)] > 0.0;
    if (type == HS_CMP_HOSE) return (int)par[HS_CP_HO_NSEG];
    return type == HS_CMP_PUMP_PC || type == HS_CMP_PUMP_LS;
}

/* Does value v break the one-parameter rule of slot k of a type? Returns the rule's index in
 * HS_COMPONENT_PARAMS + 1, 0 when it holds or the slot is unused. */
HS_HD static inline int hs_cmp_param_broken(int type, int k, double v)
{
    int r = 0;
#define HS_CMP_RULE_(T, slot, key, unit, def, lo, open, hi, text)                                              \
    ++r;                                                                                                        \
    if (type == HS_CMP_##T && k == (slot) &&                                                                    \
        !(v <= HS_CMP_NOLIMIT && v >= -HS_CMP_NOLIMIT && ((open) ? v > (lo) : v >= (lo)) && v <= (hi)))         \
        return r;
    HS_COMPONENT_PARAMS(HS_CMP_RULE_)
#undef HS_CMP_RULE_
    return 0;
}

/* The largest plausible magnitude of a component parameter in unit u (the X-macro's unit
 * strings), beyond any machine of the field: 1e9 Pa (10 kbar), 1 m^3/s (60 000 L/min),
 * 0.01 m^3/rev, 1e4 rad/s (95 000 rpm), 10 m^3, 1e3 s, 1e3 m, 1e-6 m^3/(s Pa), 0.01 m^2/s,
 * 1e6 N m s/rad, 0.01 m^3/(s sqrt(Pa)). A value beyond it is legal (hs_cmp_param_broken) but
 * makes the instance implausible (hs_model_plausible): a pump speed of 1e300 rad/s turns into
 * NaN at the first step, and info says why first. */
HS_HD static inline double hs_cmp_unit_plausible(const char *u)
{
    static const char *const unit[] = {"Pa", "m^3/s", "m^3/rev", "rad/s", "m^3", "s", "m", "m^3/(s Pa)",
                                       "m^2/s", "N m s/rad", "m^3/(s sqrt(Pa))"};
    static const double most[] = {1e9, 1.0, 0.01, 1e4, 10.0, 1e3, 1e3, 1e-6, 0.01, 1e6, 0.01};
    int k, i;
    for (k = 0; k < (int)(sizeof most / sizeof most[0]); ++k) {
        for (i = 0; u[i] && u[i] == unit[k][i]; ++i) {
        }
        if (u[i] == unit[k][i]) return most[k];
    }
    return HS_CMP_NOLIMIT; /* a ratio, a count */
}

/* The largest plausible magnitude of slot k of a type (HS_CMP_NOLIMIT: an unused slot). */
HS_HD static inline double hs_cmp_param_plausible(int type, int k)
{
#define HS_CMP_PLAUS_(T, slot, key, unit, def, lo, open, hi, text)                                             \
    if (type == HS_CMP_##T && k == (slot)) return hs_cmp_unit_plausible(unit);
    HS_COMPONENT_PARAMS(HS_CMP_PLAUS_)
#undef HS_CMP_PLAUS_
    return HS_CMP_NOLIMIT;
}

/* ---- the laws ---- */

/* Flow through an orifice with coefficient C (for a valve: C = Cv U) at pressure drop dp
 * (seed 000 eqs. 24, 26): turbulent C sgn(dp) sqrt|dp|, and laminar C dp / sqrt(dp_lim)
 * below dp_lim, continuous at dp_lim (seed 001 eq. 6). */
HS_HD static inline hs_real hs_orifice_flow(hs_real C, hs_real dp, hs_real dplim)
{
    hs_real a = fabs(dp);
    if (a < dplim) return C * dp / sqrt(dplim);
    return dp > 0.0 ? C * sqrt(a) : -C * sqrt(a);
}

/* The rounded ramp: 0 for x <= 0, x^2 / (2 d) for 0 < x < d, x - d / 2 beyond (C1). */
HS_HD static inline hs_real hs_cmp_ramp(hs_real x, double d)
{
    if (x <= 0.0) return 0.0 * x;
    if (x < d) return x * x / (2.0 * d);
    return x - 0.5 * d;
}

/* The rounded clamp of u to [0, 1]: linear inside, corners rounded over w (C1, w <= 1/2):
 * hs_cmp_ramp(u + w/2) - hs_cmp_ramp(u - 1 + w/2). */
HS_HD static inline hs_real hs_cmp_clamp01(hs_real u, double w)
{
    return hs_cmp_ramp(u + 0.5 * w, w) - hs_cmp_ramp(u - 1.0 + 0.5 * w, w);
}

/* Relief valve: the static opening x_ss = ramp(dp - p_crack) / dp_override (x = Q / Q_nom). */
HS_HD static inline hs_real hs_relief_opening(const double *par, hs_real dp)
{
    return hs_cmp_ramp(dp - par[HS_CP_RV_PCR], par[HS_CP_RV_DPS]) / par[HS_CP_RV_DPOV];
}

/* The smooth opening of a check valve or a sensing port: 0 for u <= 0, 1 for u >= 1,
 * 3u^2 - 2u^3 between (C1: no jump of value or slope). */
HS_HD static inline hs_real hs_cmp_step01(hs_real u)
{
    if (u <= 0.0) return 0.0 * u;
    if (u >= 1.0) return 1.0 + 0.0 * u;
    return u * u * (3.0 - 2.0 * u);
}

/* Check valve: flow from -> to at dp = p_from - p_to. */
HS_HD static inline hs_real hs_check_flow(const double *par, hs_real dp)
{
    hs_real x = hs_cmp_step01((dp - par[HS_CP_CK_PCR]) / par[HS_CP_CK_DPO]);
    return x * hs_orifice_flow(par[HS_CP_CK_CV], dp, par[HS_CP_CK_DPLIM]) + par[HS_CP_CK_GL] * dp;
}

/* Pressure-compensated flow control valve: flow from -> to at dp = p_from - p_to. With
 * r = |dp| / dp_comp, below r = 1 the compensator is wide open and the metering orifice alone
 * passes Q_set o(r) (3 - r) / 2, o the orifice's shape sgn(dp) sqrt(r) with its laminar band;
 * from r = 1 on the compensator holds Q_set sgn(dp). The factor (3 - r) / 2 makes the two
 * meet with equal value and slope (C1: d/dr [sqrt(r) (3 - r) / 2] = 3 (1 - r) / (4 sqrt(r)),
 * zero at 1 and positive below); both directions are regulated, as by a flow regulator in a
 * bridge of check valves. Plus a laminar leakage G_l dp. */
/* The compensated law of both: set flow Qset, held drop dpc, laminar band dplim. */
HS_HD static inline hs_real hs_compensated_flow(hs_real Qset, double dpc, hs_real dplim, hs_real dp)
{
    hs_real r = fabs(dp) / dpc, g;
    if (r >= 1.0)
        g = (dp > 0.0 ? 1.0 : -1.0) + 0.0 * dp;
    else
        g = hs_orifice_flow(1.0 / sqrt(dpc), dp, dplim) * (3.0 - r) * 0.5;
    return Qset * g;
}

HS_HD static inline hs_real hs_flow_control_flow(const double *par, hs_real dp)
{
    return hs_compensated_flow(par[HS_CP_FC_QSET], par[HS_CP_FC_DPC], par[HS_CP_FC_DPLIM], dp) +
           par[HS_CP_FC_GL] * dp;
}

/* A load-sensing valve section's meter-in edge (P -> A, or P -> B) at opening coefficient
 * C = Cv k |U| and drop dp = p_P - p_port, behind its pressure compensator (an individual
 * pre-compensator) holding dp_comp across the edge: the flow control valve's law with the
 * set flow C sqrt(dp_comp) (the edge's flow at the held drop, whatever the load), the
 * compensator wide open below it; no reverse flow (the section's load-holding check valve),
 * the check opening over the laminar band dp_lim along 3u^2 - 2u^3 (C1 at dp = 0, as the
 * check valve's opening: no jump of the slope when a load is first lifted). */
HS_HD static inline hs_real hs_compensated_edge(hs_real C, double dpc, hs_real dplim, hs_real dp)
{
    if (!(dp > 0.0)) return 0.0 * dp * C;
    return hs_compensated_flow(C * sqrt(dpc), dpc, dplim, dp) * hs_cmp_step01(dp / dplim);
}

/* How far a load-sensing section's sensing port is open at spool travel |U| / U_ls: 0 at
 * the centre (the sense line drained), 1 from U_ls on, 3u^2 - 2u^3 between (C1). */
HS_HD static inline hs_real hs_ls_open(hs_real u)
{
    return hs_cmp_step01(fabs(u));
}

/* The larger of a and b, the corner rounded over d (C1): a + ramp(b - a + d/2). */
HS_HD static inline hs_real hs_smooth_max(hs_real a, hs_real b, double d)
{
    return a + hs_cmp_ramp(b - a + 0.5 * d, d);
}

/* The rounding of the load-sensing shuttle network's maximum, Pa. */
#define HS_LS_MAX_SMOOTH 5e5

/* A motor's rounded |dp| (hs_motor_torque): the C1 parabola below this pressure, Pa. Its
 * least value, at dp = 0, is half of it: a loss torque of (1 - eta_hm) D 0.5e5 / (2 pi), about
 * 0.1 % of the torque at 25 MPa. */
#define HS_MOTOR_DP_SMOOTH 1e5

/* A motor's flow from -> to at dp = p_from - p_to and joint rate zd (shaft speed ratio zd). */
HS_HD static inline hs_real hs_motor_flow(const double *par, hs_real dp, hs_real zd)
{
    return par[HS_CP_MO_D] / (2.0 * HS_PI) * par[HS_CP_MO_RATIO] * zd + par[HS_CP_MO_GL] * dp;
}

/* The torque a motor applies to its joint (its generalised force), N m: the gear ratio times
 * the shaft torque of the law above (HS_COMPONENT_TYPES' comment). */
HS_HD static inline hs_real hs_motor_torque(const double *par, hs_real dp, hs_real zd)
{
    double i = par[HS_CP_MO_RATIO], d = HS_MOTOR_DP_SMOOTH;
    hs_real w = i * zd, a = fabs(dp), as = a < d ? 0.5 * (dp * dp / d + d) : a;
    hs_real T = par[HS_CP_MO_D] / (2.0 * HS_PI) * (dp - (1.0 - par[HS_CP_MO_ETAHM]) * as * tanh(w / par[HS_CP_MO_WS])) -
                par[HS_CP_MO_CV] * w;
    return i * T;
}

/* A pump's geometric flow at full displacement, D n / (2 pi), m^3/s. */
HS_HD static inline double hs_pump_qgeo(const double *par)
{
    return par[HS_CP_PU_D] * par[HS_CP_PU_N] / (2.0 * HS_PI);
}

/* The shaft speed of a pump driven by a prime mover with speed droop (a diesel engine's
 * governor: its speed falls in proportion to the torque it delivers), relative to its speed
 * at no load: 1 - droop T / T_full, T = eps D dp / (2 pi eta_hm) the pump's torque at
 * displacement fraction eps and pressure rise dp, T_full the torque at full displacement and
 * p_max; so 1 - droop eps dp / p_max (never below 0). 1 without droop. */
HS_HD static inline hs_real hs_pump_speed_ratio(const double *par, hs_real eps, hs_real dp)
{
    hs_real r;
    if (!(par[HS_CP_PU_DROOP] > 0.0)) return 1.0 + 0.0 * dp;
    r = 1.0 - par[HS_CP_PU_DROOP] * eps * dp / par[HS_CP_PU_PMAX];
    return r > 0.0 ? r : 0.0 * r;
}

/* A pump's flow inlet -> outlet at displacement fraction eps and pressure rise dp: eps D n r
 * (r: hs_pump_speed_ratio) less its laminar leakage. */
HS_HD static inline hs_real hs_pump_flow(const double *par, hs_real eps, hs_real dp)
{
    double qg = hs_pump_qgeo(par);
    double Cl = (1.0 - par[HS_CP_PU_ETAV]) * qg / par[HS_CP_PU_DPR];
    if (par[HS_CP_PU_DROOP] > 0.0) return eps * qg * hs_pump_speed_ratio(par, eps, dp) - Cl * dp;
    return eps * qg - Cl * dp;
}

/* A variable pump's static displacement fraction at outlet pressure p_out and reference
 * p_ref (p_set, or p_LS + dp_margin): 1 up to p_ref, 0 from p_ref + dp_band, the corners
 * rounded over a tenth of the band. */
HS_HD static inline hs_real hs_pump_eps_ss(const double *par, hs_real p_out, hs_real p_ref)
{
    return hs_cmp_clamp01((p_ref + par[HS_CP_PU_BAND] - p_out) / par[HS_CP_PU_BAND], 0.1);
}

/* The band over which an accumulator's bladder lifts off its seat, Pa: the gas's pressure is
 * the oil's p rounded up to the precharge, p_g = p_pre + ramp(p - p_pre + d/2, d) (C1), so
 * that its capacitance rises continuously from zero over p_pre -+ d/2 instead of jumping to
 * V0 / (n p_pre) (a hundred times a line's: Newton's iteration stalls on such a jump when the
 * oil charges it through its precharge). Beyond p_pre + d/2 the gas is at the oil's pressure. */
#define HS_ACC_SMOOTH 1e5

/* Accumulator at pressure p: the capacitance dV_oil/dp it adds to its volume, m^3/Pa (the
 * gas's V_g / (n p_g) dp_g/dp plus the oil it holds, (V0 - V_g) / B_oil), and the gas volume
 * V_g = V0 (p_pre / p_g)^(1/n) (HS_ACC_SMOOTH for p_g). */
HS_HD static inline hs_real hs_accumulator_capacitance(const double *par, double B_oil, hs_real p, hs_real *Vg)
{
    double V0 = par[HS_CP_AC_V0], pp = par[HS_CP_AC_PPRE], n = par[HS_CP_AC_N], d = HS_ACC_SMOOTH;
    hs_real x = p - pp + 0.5 * d, pg, slope;
    if (!(x > 0.0)) {
        *Vg = V0 + 0.0 * p;
        return 0.0 * p;
    }
    pg = pp + hs_cmp_ramp(x, d);
    slope = x < d ? x / d : 1.0 + 0.0 * x; /* dp_g/dp */
    *Vg = V0 * pow(pp / pg, 1.0 / n);
    return *Vg / (n * pg) * slope + (V0 - *Vg) / B_oil;
}

/* The energy stored in an accumulator's gas at oil pressure p, relative to its precharge
 * state: the work of compressing it from V0 to V_g at its pressure p_g
 * (hs_accumulator_capacitance), (p_g V_g - p_pre V0) / (n - 1), or p_pre V0 ln(V0 / V_g) when
 * n = 1, J. */
HS_HD static inline double hs_accumulator_energy(const double *par, double p)
{
    double V0 = par[HS_CP_AC_V0], pp = par[HS_CP_AC_PPRE], n = par[HS_CP_AC_N], d = HS_ACC_SMOOTH;
    double x = p - pp + 0.5 * d, Vg, pg;
    if (!(x > 0.0)) return 0.0;
    pg = pp + (x < d ? x * x / (2.0 * d) : x - 0.5 * d); /* hs_cmp_ramp, in double */
    Vg = V0 * pow(pp / pg, 1.0 / n);
    if (n - 1.0 < 1e-9) return pp * V0 * log(V0 / Vg);
    return (pg * Vg - pp * V0) / (n - 1.0);
}

/* ---- the hose (a lumped line) ---- */

/* A hose's flow area pi d^2 / 4, m^2. */
HS_HD static inline double hs_hose_area(const double *par)
{
    return 0.25 * HS_PI * par[HS_CP_HO_D] * par[HS_CP_HO_D];
}

/* A segment's length l = L / N, m. */
HS_HD static inline double hs_hose_seg_length(const double *par)
{
    return par[HS_CP_HO_L] / par[HS_CP_HO_NSEG];
}

/* The capacitance of one segment, A l (1/B_oil + 1/B_wall), m^3/Pa: half of it at each end
 * node, the whole at each internal node (the volume hs_model_derive gives it). */
HS_HD static inline double hs_hose_seg_capacitance(const double *par, double B_oil)
{
    return hs_hose_area(par) * hs_hose_seg_length(par) * (1.0 / B_oil + 1.0 / par[HS_CP_HO_BW]);
}

/* The wave speed of the line, sqrt(Be / rho) with 1/Be = 1/B_oil + 1/B_wall, m/s. */
HS_HD static inline double hs_hose_wave_speed(const double *par, double B_oil, double rho)
{
    return 1.0 / sqrt(rho * (1.0 / B_oil + 1.0 / par[HS_CP_HO_BW]));
}

/* The laminar friction's rate a = 32 nu / d^2 (Hagen-Poiseuille: 32 mu l v / d^2 over the
 * oil's mass per area rho l), 1/s: each mode of the line decays at a / 2. */
HS_HD static inline double hs_hose_friction(const double *par)
{
    return 32.0 * par[HS_CP_HO_NU] / (par[HS_CP_HO_D] * par[HS_CP_HO_D]);
}

/* The rate of one segment's mean flow velocity v (m/s) under the pressure difference dp
 * between its ends: the momentum balance of the oil in it, rho l v' = dp - 32 mu l v / d^2
 * (Hagen-Poiseuille's laminar friction, mu = rho nu), m/s^2. */
HS_HD static inline hs_real hs_hose_accel(const double *par, double rho, hs_real dp, hs_real v)
{
    return dp / (rho * hs_hose_seg_length(par)) - hs_hose_friction(par) * v;
}

#endif
