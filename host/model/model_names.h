/* model_names.h -- the words of a model file: the names of its enumerations (friction models, Newton
 * variants, predictors, volume models, step control, methods, formulations), the friction
 * parameters' keys, units and defaults, and the defaults of the error-controlled steps
 * (defined in params.c).
 * Not part of the public API (include/hs/model_file.h is). */
#ifndef HS_HOST_MODEL_NAMES_H
#define HS_HOST_MODEL_NAMES_H

#include "hs/model_file.h"
#include "hs_rules.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Names of enum hs_friction (the YAML values of friction.model and of the enum parameter
 * cylinder.C.friction.model), NULL-terminated; HS_FRICTION_COUNT of them. */
#define HS_FRICTION_COUNT 8
extern const char *const hs_friction_names[HS_FRICTION_COUNT + 1];

/* The integrator's numeric settings by rule (kernels/hs_rules.h, HS_INTEGRATOR_RULES): key,
 * unit (`info`), the unit suffixes a model file takes, what the rule says (each HS_IR_COUNT). */
typedef struct hs_irule_info {
    const char *key, *unit, *file_units, *text;
} hs_irule_info;
extern const hs_irule_info hs_irules[HS_IR_COUNT];

/* Every key of the integrator mapping, NULL-terminated. */
extern const char *const hs_integrator_keys[];

/* Names of enum hs_newton (integrator.newton: full, modified, auto), NULL-terminated. */
extern const char *const hs_newton_names[4];

/* Names of enum hs_predictor (integrator.predictor: seeds, extrapolated, auto), NULL-terminated. */
extern const char *const hs_predictor_names[4];
extern const char *const hs_vol_model_names[3]; /* enum hs_vol_model */
extern const char *const hs_dcv_kind_names[4]; /* enum hs_dcv_kind (hydraulics.valves[].type) */

/* Names of enum hs_step_control (integrator.step: fixed, adaptive), NULL-terminated. */
extern const char *const hs_step_names[3];

/* Names of enum hs_method (integrator.method: trapezoidal, esdirk3, esdirk4, auto), NULL-terminated. */
extern const char *const hs_method_names[5];

/* Names of enum hs_formulation (integrator.formulation: penalty, double_step), NULL-terminated. */
extern const char *const hs_formulation_names[3];

/* Names of the co-simulation's enumerations (kernels/hs_model.h), NULL-terminated:
 * integrator.coupling (monolithic, cosim), cosim.mechanics (i3al_p, i1al), cosim.hydraulics
 * (euler, trapezoidal, rk4), cosim.exchange (force, pressures), cosim.extrapolation (0, 1, 2,
 * 3, 4, integrate: the Lagrange orders, then HS_CEXT_INTEGRATE). */
extern const char *const hs_coupling_names[3];
extern const char *const hs_cosim_mech_names[3];
extern const char *const hs_cosim_hyd_names[4];
extern const char *const hs_cosim_exchange_names[3];
extern const char *const hs_cosim_extrap_names[HS_CEXT_INTEGRATE + 2];

/* YAML keys of the friction parameters, indexed by enum hs_fric_param (HS_FP_COUNT of them),
 * with their units, and their defaults. */
extern const char *const hs_fric_param_keys[HS_FP_COUNT + 1];
extern const char *const hs_fric_param_units[HS_FP_COUNT];
extern const double hs_fric_param_defaults[HS_FP_COUNT];

/* Names of enum hs_signal_kind (signals[].kind and the enum parameter signal.S.kind: knots,
 * step, ramp, impulse, sine), NULL-terminated; and the test inputs' parameters: YAML keys
 * (NULL-terminated), units ("" the signal's own), defaults and rules in words
 * (kernels/hs_test_input.h). */
extern const char *const hs_signal_kind_names[HS_SIGK_COUNT + 1];
extern const char *const hs_test_param_keys[HS_TP_COUNT + 1];
extern const char *const hs_test_param_units[HS_TP_COUNT];
extern const double hs_test_param_defaults[HS_TP_COUNT];
extern const char *const hs_test_param_rules[HS_TP_COUNT];

/* The components of hydraulics.components (kernels/hs_components.h): the names of enum
 * hs_cmp_type (NULL-terminated), and every type's parameters (HS_COMPONENT_PARAMS) in one
 * table of hs_ncmp_params entries. */
extern const char *const hs_cmp_type_names[HS_CMP_COUNT + 1];
typedef struct hs_cmp_param_def {
    int type, slot; /* enum hs_cmp_type, its slot in cmp_par */
    const char *key, *unit; /* YAML key, SI unit */
    double def; /* default, HS_CMP_REQUIRED: required */
    const char *rule; /* the rule in words */
} hs_cmp_param_def;
extern const hs_cmp_param_def hs_cmp_params[];
extern const int hs_ncmp_params;

#ifdef __cplusplus
}
#endif

#endif
