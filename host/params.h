/* params.h -- host-internal helpers shared by the loader, the parameter table and the CLI.
 * Not part of the public API (include/hs/model_file.h is). */
#ifndef HS_HOST_PARAMS_H
#define HS_HOST_PARAMS_H

#include <stddef.h>

#include "hs/model_file.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Names of enum hs_friction (the YAML values of friction.model and of the enum parameter
 * cylinder.C.friction.model), NULL-terminated; HS_FRICTION_COUNT of them. */
#define HS_FRICTION_COUNT 8
extern const char *const hs_friction_names[HS_FRICTION_COUNT + 1];

/* Names of enum hs_newton (integrator.newton: full, modified, auto), NULL-terminated. */
extern const char *const hs_newton_names[4];

/* Names of enum hs_predictor (integrator.predictor: seeds, extrapolated, auto), NULL-terminated. */
extern const char *const hs_predictor_names[4];
extern const char *const hs_vol_model_names[3]; /* enum hs_vol_model */

/* Names of enum hs_step_control (integrator.step: fixed, adaptive), NULL-terminated. */
extern const char *const hs_step_names[3];

/* Names of enum hs_method (integrator.method: trapezoidal, esdirk3, esdirk4, auto), NULL-terminated. */
extern const char *const hs_method_names[5];

/* Names of enum hs_formulation (integrator.formulation: penalty, double_step), NULL-terminated. */
extern const char *const hs_formulation_names[3];

/* The documented defaults of the error-controlled steps (docs/model-format.md): step fixed,
 * method auto, rtol, the absolute tolerances per class, h_init, h_min, h_max. */
void hs_step_defaults(hs_model *m);

/* YAML keys of the friction parameters, indexed by enum hs_fric_param (HS_FP_COUNT of them),
 * with their units, and their defaults. */
extern const char *const hs_fric_param_keys[HS_FP_COUNT + 1];
extern const char *const hs_fric_param_units[HS_FP_COUNT];
extern const double hs_fric_param_defaults[HS_FP_COUNT];

/* (Re)builds d->param, the named-parameter table, from the model's layout (shapes, joint and
 * cut types, which coms were given, signal sizes, throttle variants, optional cylinder parts).
 * Names are stable: sweep files use them. Frees a previous table. Returns HS_OK, or HS_ERR_IO
 * with *err filled when out of memory. */
int hs_params_build(hs_model_desc *d, hs_error *err);

/* 1 if a value whose unit suffix had the SI family `got` ("" = no suffix) may be stored in
 * the parameter `p`: no suffix always fits (SI assumed); signal values take any unit, and
 * integrator.tol_position takes rad or m. */
int hs_param_unit_fits(const hs_param *p, const char *got);

/* What a validation rule was about, so that the loader can point at the YAML node that set
 * the value and hs_model_validate can name the parameter. index is the model's (sorted)
 * index; field is a YAML key of that entity ("mass", "axis", "knots", "dt", ...); comp is an
 * element index inside the field (knot number), or -1. */
enum hs_where_kind {
    HS_WHERE_MODEL = 0, /* sizes, gravity, integrator.* (field names the key) */
    HS_WHERE_BODY,
    HS_WHERE_JOINT,
    HS_WHERE_CUT,
    HS_WHERE_POINT,
    HS_WHERE_LOAD,
    HS_WHERE_SIGNAL,
    HS_WHERE_FLUID, /* field: B_oil, rho */
    HS_WHERE_SOURCE,
    HS_WHERE_VOLUME,
    HS_WHERE_THROTTLE,
    HS_WHERE_VALVE,
    HS_WHERE_CYLINDER, /* field may be dotted: friction.Fc, end_dampers.l_d, init.p */
    HS_WHERE_PARAM /* a parameter value as such (index into d->param): not finite */
};

typedef struct hs_where {
    int kind; /* enum hs_where_kind */
    int index;
    int comp;
    char field[32];
} hs_where;

/* 1 if the model has any hydraulic entity (volumes, sources, throttles, valves, cylinders). */
int hs_model_has_hydraulics(const hs_model *m);

/* hs_model_validate with the location of the broken rule in *where (may be NULL); the error's
 * key is the parameter-style name (e.g. body.link1.mass), file/line/col are left empty. */
int hs_model_validate_where(const hs_model_desc *d, hs_error *err, hs_where *where);

/* Sets the end time and the step together (NAN: keep that one) and validates once, so that
 * neither order matters (t_end = 1e7 s with dt = 1 s is fine, though 1e7 s with the old 1 ms
 * step would break HS_MAX_STEPS); nothing changes on failure. The error's key is
 * integrator.dt or integrator.t_end. */
int hs_model_set_time(hs_model_desc *d, double t_end, double dt, hs_error *err);

/* 1 if f is one of the integrator keys (dt, t_end, tol_position, tol_pressure, ...). */
int hs_is_integrator_key(const char *f);

/* The model file's top-level "source" text into buf ("" if none); 0, or -1 if d has no text.
 * (hs_model_desc keeps no copy of it, so it is read back from d->text.) */
int hs_model_source(const hs_model_desc *d, char *buf, size_t n);

/* " (did you mean a, b or c?)" for an unknown parameter name, into buf ("" if nothing fits):
 * the names closest by edit distance (within max(2, len/4) edits), else those of the same form
 * (the same first and last dotted components: joint.j1.z0 -> joint.crank_angle.z0).
 * host/suggest.c; used by --set and by sweep files' parameter keys. */
void hs_param_suggest(const hs_model_desc *d, const char *name, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif
