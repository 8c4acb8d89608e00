/* hs_rules.h -- the rules of the integrator's settings, defined once. A value reaches a model
 * by five routes: the model file, `--set NAME=VALUE`, a sweep's `simulation:`, a sweep's
 * `parameters:` (drawn per instance) and Python's Model.set. The first three and Python are
 * refused at once with the rule (host/model/model_validate.c reports the first rule broken by
 * hs_irule_broken); a drawn value that breaks a rule makes its instance invalid (status
 * HS_ST_INVALID: hs_model_values_ok, hs_batch.h), as a drawn negative mass does. All of them
 * evaluate this one table, so no route can accept what another refuses.
 *
 * Each rule bounds one setting by an interval that may depend on the others (dt <= t_end,
 * h_min <= h_init <= h_max), so that the bounds of a swept setting follow from the model it
 * is swept in (the sweep loader refuses a distribution whose draws would all or mostly break
 * them only where they are the run's size, t_end / dt: host/sweep/sweep_load.c). */
#ifndef HS_RULES_H
#define HS_RULES_H

#include "hs_model.h"

/* The most steps (t_end / dt) an integration may take: an instance of 10^9 steps already runs
 * for hours, and more would overflow the step counters of the trajectories and statistics. */
#ifndef HS_MAX_STEPS
#define HS_MAX_STEPS 1e9
#endif

/* The largest finite double: an upper bound that only Inf and NaN break. */
#define HS_RULE_INF 1.7976931348623157e308

/* X(ID, key of the integrator mapping, member of hs_model, the parameter's unit (`info`), the
 * unit suffixes a model file takes for it (host/base/yaml_tree.h yt_get_num: "" none, "|rad|m" none,
 * rad or m), its default, what its rule says). The order is that of `hydrosweep info`'s list;
 * the bounds are in hs_irule_bounds. */
#define HS_INTEGRATOR_RULES(X)                                                                        \
    X(DT, "dt", dt, "s", "s", 1e-3, "dt must be > 0 and <= t_end, and t_end / dt at most HS_MAX_STEPS") \
    X(T_END, "t_end", t_end, "s", "s", 1.0, "t_end must be >= dt and at most HS_MAX_STEPS steps of dt")  \
    X(TOL_POSITION, "tol_position", tol_z, "", "|rad|m", 1e-7, "tol_position must be > 0 and finite")   \
    X(PENALTY, "penalty", penalty, "", "", 1e9, "penalty must be > 0 and finite")                        \
    X(PENALTY_RATIO, "penalty_ratio", penalty_ratio, "", "", 4.0,                                        \
      "penalty_ratio must be in [0, 1e12] (0: the penalty as given)")                                 \
    X(MAX_ITER, "max_iter", max_iter, "", "", 20.0, "max_iter must be an integer in [1, 1000000]")       \
    X(FD_REL, "fd_rel", fd_rel, "", "", 1e-8, "fd_rel must be > 0 and finite")                           \
    X(FD_FLOOR, "fd_floor", fd_floor, "", "", 1e-2, "fd_floor must be > 0 and finite")                   \
    X(TOL_PRESSURE, "tol_pressure", tol_p, "Pa", "Pa", 1e-2, "tol_pressure must be > 0 and finite")      \
    X(TOL_FRICTION, "tol_friction", tol_fs, "", "|m", 1e-7, "tol_friction must be > 0 and finite")       \
    HS_INTEGRATOR_RULES_ADAPTIVE(X)

/* The error-controlled steps' settings (listed after the integrator's enumerations). rtol =
 * atol = 1e-4 in the units of each class (pressures: of 1 MPa, friction states: of 1 mm)
 * reach about the accuracy of fixed 1 ms steps on the seed 003 cycle with a quarter of their
 * Newton iterations (docs/model-format.md). */
#define HS_INTEGRATOR_RULES_ADAPTIVE(X)                                                               \
    X(RTOL, "rtol", rtol, "", "", 1e-4, "rtol must be in [1e-14, 1]")                                   \
    X(ATOL_POSITION, "atol_position", atol_z, "", "|rad|m", 1e-4,                                       \
      "atol_position must be > 0 and finite: a zero would divide the error of a zero value by zero")  \
    X(ATOL_VELOCITY, "atol_velocity", atol_zd, "", "|rad/s|m/s", 1e-4,                                  \
      "atol_velocity must be > 0 and finite: a zero would divide the error of a zero value by zero")  \
    X(ATOL_PRESSURE, "atol_pressure", atol_p, "Pa", "Pa", 100.0,                                        \
      "atol_pressure must be > 0 and finite: a zero would divide the error of a zero value by zero")  \
    X(ATOL_FRICTION, "atol_friction", atol_fs, "", "|m", 1e-7,                                          \
      "atol_friction must be > 0 and finite: a zero would divide the error of a zero value by zero")  \
    X(ATOL_SPOOL, "atol_spool", atol_U, "V", "V", 1e-3,                                                 \
      "atol_spool must be > 0 and finite: a zero would divide the error of a zero value by zero")     \
    X(H_INIT, "h_init", h_init, "s", "s", 1e-4, "the steps must satisfy 0 < h_min <= h_init <= h_max")  \
    X(H_MIN, "h_min", h_min, "s", "s", 1e-8, "the steps must satisfy 0 < h_min <= h_init <= h_max")     \
    X(H_MAX, "h_max", h_max, "s", "s", 0.05, "the steps must satisfy 0 < h_min <= h_init <= h_max")

#define HS_IRULE_ENUM_(ID, key, member, unit, units, def, text) HS_IR_##ID,
enum hs_irule { HS_INTEGRATOR_RULES(HS_IRULE_ENUM_) HS_IR_COUNT };
#undef HS_IRULE_ENUM_

/* The value rule r bounds. */
HS_HD static inline double hs_irule_value(const hs_model *m, int r)
{
    switch (r) {
#define HS_IRULE_CASE_(ID, key, member, unit, units, def, text)                                                        \
    case HS_IR_##ID: return m->member;
        HS_INTEGRATOR_RULES(HS_IRULE_CASE_)
#undef HS_IRULE_CASE_
    default: return 0.0;
    }
}

/* Every setting of the table at its default (a model file's integrator: mapping without it). */
HS_HD static inline void hs_irule_defaults(hs_model *m)
{
#define HS_IRULE_DEF_(ID, key, member, unit, units, def, text) m->member = (def);
    HS_INTEGRATOR_RULES(HS_IRULE_DEF_)
#undef HS_IRULE_DEF_
}

/* Where rule r's value is stored in m (the loader reads it into there). */
HS_HD static inline double *hs_irule_ptr(hs_model *m, int r)
{
    switch (r) {
#define HS_IRULE_PTR_(ID, key, member, unit, units, def, text)                                         \
    case HS_IR_##ID: return &m->member;
        HS_INTEGRATOR_RULES(HS_IRULE_PTR_)
#undef HS_IRULE_PTR_
    default: return (double *)0;
    }
}

/* Rule r's interval for its value, given the other settings of m: [lo, hi], lo excluded when
 * *lo_open; *integer when only integers are allowed. */
HS_HD static inline void hs_irule_bounds(const hs_model *m, int r, double *lo, double *hi, int *lo_open,
                                         int *integer)
{
    *lo = 0.0;
    *hi = HS_RULE_INF;
    *lo_open = 1;
    *integer = 0;
    switch (r) {
    case HS_IR_DT: /* (0, t_end], and t_end / dt <= HS_MAX_STEPS */
        if (m->t_end / HS_MAX_STEPS > 0.0) {
            *lo = m->t_end / HS_MAX_STEPS;
            *lo_open = 0;
        }
        *hi = m->t_end;
        return;
    case HS_IR_T_END: /* [dt, HS_MAX_STEPS dt], and > 0 */
        if (m->dt > 0.0) {
            *lo = m->dt;
            *lo_open = 0;
        }
        *hi = m->dt * HS_MAX_STEPS;
        return;
    case HS_IR_PENALTY_RATIO:
        *lo_open = 0;
        *hi = 1e12;
        return;
    case HS_IR_MAX_ITER:
        *lo = 1.0;
        *lo_open = 0;
        *hi = 1e6;
        *integer = 1;
        return;
    case HS_IR_RTOL:
        *lo = 1e-14;
        *lo_open = 0;
        *hi = 1.0;
        return;
    case HS_IR_H_MIN: /* (0, h_init] */
        *hi = m->h_init;
        return;
    case HS_IR_H_INIT: /* [h_min, h_max] */
        *lo = m->h_min;
        *lo_open = !(m->h_min > 0.0);
        if (*lo_open) *lo = 0.0;
        *hi = m->h_max;
        return;
    case HS_IR_H_MAX: /* [h_init, inf) */
        if (m->h_init > 0.0) {
            *lo = m->h_init;
            *lo_open = 0;
        }
        return;
    default: /* tolerances, penalty, increments: (0, inf) */
        return;
    }
}

/* 1 if the value v satisfies rule r in the model m (the other settings as m has them). */
HS_HD static inline int hs_irule_admits(const hs_model *m, int r, double v)
{
    double lo, hi;
    int lo_open, integer;
    hs_irule_bounds(m, r, &lo, &hi, &lo_open, &integer);
    if (!(lo_open ? v > lo : v >= lo) || !(v <= hi)) return 0; /* NaN breaks both */
    return !integer || v == (double)(long)v;
}

/* The first rule the settings of m break, or -1 when they keep every one. */
HS_HD static inline int hs_irule_broken(const hs_model *m)
{
    int r;
    for (r = 0; r < HS_IR_COUNT; ++r)
        if (!hs_irule_admits(m, r, hs_irule_value(m, r))) return r;
    return -1;
}

/* The co-simulation's rules (integrator.coupling and the cosim section: kernels/hs_cosim.h),
 * defined once like the integrator's: X(ID, the key it is about, what it says). The loader
 * reports the first one broken (host/model/model_validate.c); a drawn value that breaks one makes
 * its instance invalid (hs_model_values_ok). */
#define HS_COSIM_RULES(X)                                                                              \
    X(COUPLING, "coupling", "coupling must be monolithic or cosim")                                    \
    X(MECHANICS, "cosim.mechanics", "cosim.mechanics must be i3al_p or i1al")                          \
    X(HYDRAULICS, "cosim.hydraulics", "cosim.hydraulics must be euler, trapezoidal or rk4")            \
    X(EXCHANGE, "cosim.exchange", "cosim.exchange must be force or pressures")                         \
    X(EXTRAPOLATION, "cosim.extrapolation",                                                            \
      "cosim.extrapolation must be a Lagrange order 0, 1, 2, 3 or 4, or integrate")                    \
    X(EXTRAPOLATION_MECH, "cosim.mechanics_extrapolation",                                            \
      "cosim.mechanics_extrapolation must be a Lagrange order 0, 1, 2, 3 or 4")                        \
    X(H_HYD, "cosim.h_hyd",                                                                            \
      "cosim.h_hyd must be > 0 and divide the communication step integrator.dt a whole number of "     \
      "times (to 1e-9 relative)")                                                                     \
    X(H_HYD_STEPS, "cosim.h_hyd",                                                                      \
      "cosim.h_hyd must give at most HS_MAX_STEPS (1e9) hydraulic steps to t_end")                     \
    X(I1AL_XI, "cosim.i1al_xi",                                                                        \
      "cosim.i1al_xi (the damping ratio of i1al's constraint stabilisation, Pub. III eq. 17) must be " \
      ">= 0 and finite")                                                                              \
    X(I1AL_OMEGA, "cosim.i1al_omega",                                                                  \
      "cosim.i1al_omega (the natural frequency of i1al's constraint stabilisation, Pub. III eq. 17) "  \
      "must be >= 0 rad/s and finite")                                                                \
    X(CYLINDERS, "coupling",                                                                           \
      "coupling cosim needs hydraulics with at least one cylinder: the cylinders are the power "       \
      "bonds between the two subsystems")                                                             \
    X(VOLUME_SP, "coupling",                                                                           \
      "coupling cosim needs lumped volumes: a singular_perturbation volume's pressure is an "          \
      "algebraic equation that the hydraulic subsystem's explicit steps do not solve")               \
    X(STEP, "coupling",                                                                                \
      "coupling cosim takes fixed steps: the communication step H is integrator.dt (step: adaptive "   \
      "is for monolithic coupling)")                                                                  \
    X(FORMULATION, "coupling",                                                                         \
      "coupling cosim's mechanical methods i3al_p and i1al are augmented Lagrangians (the penalty "     \
      "formulation): formulation double_step is for monolithic coupling")                             \
    X(MOTOR, "coupling",                                                                               \
      "coupling cosim exchanges cylinder forces and rod rates: a hydraulic motor (its torque and "    \
      "joint rate) is not one of its power bonds yet; use coupling: monolithic")

#define HS_CRULE_ENUM_(ID, key, text) HS_CR_##ID,
enum hs_crule { HS_COSIM_RULES(HS_CRULE_ENUM_) HS_CR_COUNT };
#undef HS_CRULE_ENUM_

/* Does the hydraulic step h divide the communication step dt a whole number of times (to 1e-9
 * relative)? The rule cosim.h_hyd keeps, here and in the sweep loader's checks of listed values
 * (host/sweep/sweep_load.c); how many steps that makes is rule H_HYD_STEPS (hs_cosim_steps_ok). */
HS_HD static inline int hs_cosim_h_hyd_ok(double dt, double h)
{
    double r = dt / h;
    return h > 0.0 && r >= 1.0 - 1e-9 && fabs(r - floor(r + 0.5)) <= 1e-9 * r;
}

/* At most HS_MAX_STEPS hydraulic steps h to t_end (a step of 1e-12 s would run for days)? */
HS_HD static inline int hs_cosim_steps_ok(double t_end, double h)
{
    return !(h > 0.0) || t_end / h <= HS_MAX_STEPS;
}

/* The knots' rule (kernels/hs_signal.h): times non-decreasing, at most two at one time (a jump).
 * The first knot k (1 .. n-1) of the n times t that breaks it (*triple: it is the third at one
 * time), or -1. A model file's signals (host/model/model_validate.c) and every drawn instance
 * (hs_model_values_ok) keep it, so a swept knot time is checked as a --set one. */
HS_HD static inline int hs_knots_broken(const double *t, int n, int *triple)
{
    int k;
    for (k = 1; k < n; ++k) {
        *triple = k >= 2 && t[k] == t[k - 1] && t[k] == t[k - 2];
        if (!(t[k] >= t[k - 1]) || *triple) return k;
    }
    return -1;
}

/* The first co-simulation rule the model breaks, or -1. A monolithic model keeps them all
 * (its cosim values are not used), except that its coupling must be one of the two. */
HS_HD static inline int hs_crule_broken(const hs_model *m)
{
    int v;
    if (m->coupling != HS_COUPLE_MONOLITHIC && m->coupling != HS_COUPLE_COSIM) return HS_CR_COUPLING;
    if (m->coupling == HS_COUPLE_MONOLITHIC) return -1;
    if (m->cosim_mech != HS_CMECH_I3AL_P && m->cosim_mech != HS_CMECH_I1AL) return HS_CR_MECHANICS;
    if (m->cosim_hyd < HS_CHYD_EULER || m->cosim_hyd > HS_CHYD_RK4) return HS_CR_HYDRAULICS;
    if (m->cosim_exchange != HS_CEX_FORCE && m->cosim_exchange != HS_CEX_PRESSURES) return HS_CR_EXCHANGE;
    if (m->cosim_extrap < 0 || m->cosim_extrap > HS_CEXT_INTEGRATE) return HS_CR_EXTRAPOLATION;
    if (m->cosim_extrap_mech < 0 || m->cosim_extrap_mech > HS_CEXT_MAX_ORDER) return HS_CR_EXTRAPOLATION_MECH;
    if (!hs_cosim_steps_ok(m->t_end, m->cosim_h_hyd)) return HS_CR_H_HYD_STEPS;
    if (!hs_cosim_h_hyd_ok(m->dt, m->cosim_h_hyd)) return HS_CR_H_HYD;
    if (!(m->cosim_i1al_xi >= 0.0 && m->cosim_i1al_xi <= HS_RULE_INF)) return HS_CR_I1AL_XI;
    if (!(m->cosim_i1al_omega >= 0.0 && m->cosim_i1al_omega <= HS_RULE_INF)) return HS_CR_I1AL_OMEGA;
    if (m->ncyl < 1) return HS_CR_CYLINDERS;
    for (v = 0; v < m->nvol; ++v)
        if (m->vol_model[v] != HS_VOL_LUMPED) return HS_CR_VOLUME_SP;
    if (m->step != HS_STEP_FIXED) return HS_CR_STEP;
    if (m->formulation != HS_FORM_PENALTY) return HS_CR_FORMULATION;
    if (m->nmot > 0) return HS_CR_MOTOR;
    return -1;
}

/* The rules between a component's parameters and between components (docs/model-format.md,
 * hydraulics.components[]), checked once for a model file (host/model/model_validate.c, with the messages) and for every drawn instance
 * (hs_model_values_ok): a drawn value that breaks one makes its instance invalid. */
enum hs_cmp_pair_rule {
    HS_CPR_OK = 0,
    HS_CPR_RELIEF_SMOOTH, /* a relief valve: dp_smooth <= dp_override */
    HS_CPR_FC_LAMINAR, /* a flow control valve: dp_lim < dp_comp */
    HS_CPR_RELIEF_POPPET, /* a valve keeps the model's layout: tau > 0 iff it has a poppet or spool state */
    HS_CPR_PC_BAND, /* a pressure-compensated pump: p_set + dp_band <= p_max (if rated) */
    HS_CPR_RELIEF_PMAX, /* a relief valve on a pump's outlet cracks at most at its p_max */
    HS_CPR_PRECHARGE, /* an accumulator's precharge below the circuit's highest pressure there */
    HS_CPR_POCV_DEC, /* a pilot-operated check valve: ratio_dec 0, or above ratio with Cv_dec > 0 */
    HS_CPR_VENTED, /* a counterbalance valve: vented is 0 or 1 */
    HS_CPR_DROOP_PMAX /* a pump with speed droop is rated (p_max > 0): its full torque */
};

/* The highest pressure the circuit of m reaches at node v: a source's own; for a volume the
 * sources, the initial pressures, the relief valves' cracking pressures plus override (above
 * the pressure of the source they drain to) and the pressure-compensated pumps' cut-offs. */
HS_HD static inline double hs_circuit_p_max(const hs_model *m, int v)
{
    double pm = 0.0;
    int i;
    if (v >= m->nvol) return m->src_p[v - m->nvol];
    for (i = 0; i < m->nsrc; ++i) pm = fmax(pm, m->src_p[i]);
    for (i = 0; i < m->nvol; ++i) pm = fmax(pm, m->vol_p0[i]);
    for (i = 0; i < m->ncmp; ++i) {
        const double *par = m->cmp_par[i];
        if (m->cmp_type[i] == HS_CMP_RELIEF)
            pm = fmax(pm, par[HS_CP_RV_PCR] + par[HS_CP_RV_DPOV] +
                              (m->cmp_b[i] >= m->nvol ? m->src_p[m->cmp_b[i] - m->nvol] : 0.0));
        if (m->cmp_type[i] == HS_CMP_PUMP_PC) pm = fmax(pm, par[HS_CP_PU_PREF] + par[HS_CP_PU_BAND]);
    }
    return pm;
}

/* The rule between component i and the others that m breaks (HS_CPR_OK when none), and in *j
 * the other component where there is one (the pump a relief valve guards), else -1. */
HS_HD static inline int hs_cmp_pair_broken(const hs_model *m, int i, int *j)
{
    const double *par = m->cmp_par[i];
    int type = m->cmp_type[i], k;
    *j = -1;
    if (type == HS_CMP_RELIEF && !(par[HS_CP_RV_DPS] <= par[HS_CP_RV_DPOV])) return HS_CPR_RELIEF_SMOOTH;
    if (type == HS_CMP_FLOW_CONTROL && !(par[HS_CP_FC_DPLIM] < par[HS_CP_FC_DPC])) return HS_CPR_FC_LAMINAR;
    if (hs_cmp_tau_slot(type) >= 0 && (m->cmp_dyn[i] != 0) != (par[hs_cmp_tau_slot(type)] > 0.0))
        return HS_CPR_RELIEF_POPPET;
    if (type == HS_CMP_PILOT_CHECK && par[HS_CP_PO_RDEC] != 0.0 &&
        !(par[HS_CP_PO_RDEC] > par[HS_CP_PO_RATIO] && par[HS_CP_PO_CVDEC] > 0.0))
        return HS_CPR_POCV_DEC;
    if (type == HS_CMP_COUNTERBALANCE && par[HS_CP_CB_VENT] != 0.0 && par[HS_CP_CB_VENT] != 1.0) return HS_CPR_VENTED;
    if (hs_cmp_is_pump(type) && par[HS_CP_PU_DROOP] > 0.0 && !(par[HS_CP_PU_PMAX] > 0.0)) return HS_CPR_DROOP_PMAX;
    if (type == HS_CMP_PUMP_PC && par[HS_CP_PU_PMAX] > 0.0 &&
        !(par[HS_CP_PU_PREF] + par[HS_CP_PU_BAND] <= par[HS_CP_PU_PMAX]))
        return HS_CPR_PC_BAND;
    if (type == HS_CMP_RELIEF)
        for (k = 0; k < m->ncmp; ++k) {
            int tk = m->cmp_type[k];
            if (hs_cmp_is_pump(tk) && m->cmp_b[k] == m->cmp_a[i] &&
                m->cmp_par[k][HS_CP_PU_PMAX] > 0.0 && par[HS_CP_RV_PCR] > m->cmp_par[k][HS_CP_PU_PMAX]) {
                *j = k;
                return HS_CPR_RELIEF_PMAX;
            }
        }
    if (type == HS_CMP_ACCUMULATOR && !(par[HS_CP_AC_PPRE] < hs_circuit_p_max(m, m->cmp_a[i])))
        return HS_CPR_PRECHARGE;
    return HS_CPR_OK;
}

#endif
