/* hs/model_file.h -- loading model files (YAML) and the named-parameter table (host only). */
#ifndef HS_MODEL_FILE_H
#define HS_MODEL_FILE_H

#include <stddef.h>
#include "model.h"
#include "errors.h"

#ifdef __cplusplus
extern "C" {
#endif

/* HS_MAX_STEPS, the most steps (t_end / dt) an integration may take, and the other rules of
 * the integrator's settings: kernels/hs_rules.h, checked by hs_model_validate (model files,
 * --set, --t-end, --dt, sweep simulation overrides), per drawn instance (hs_model_values_ok)
 * and by the sweep loader for swept integrator.dt / integrator.t_end. */
#include "../../kernels/hs_rules.h"

/* How a parameter is stored in hs_model. */
enum hs_param_type {
    HS_PARAM_DOUBLE = 0, /* a double at the offset */
    HS_PARAM_ENUM = 1 /* an int at the offset holding 0..n_enum-1, named by enum_names */
};

/* One named value of the model at (char *)&desc->model + offset. hs_param_get returns it as a
 * double either way; anything writing by offset (batch overrides) must honour type. */
typedef struct hs_param {
    char name[112]; /* stable dotted name, e.g. body.crank.mass, joint.j1.z0 */
    char unit[32]; /* SI unit, e.g. kg, m, rad, N, "" for dimensionless (and for enums) */
    size_t offset; /* byte offset of the value inside hs_model */
    int type; /* enum hs_param_type */
    int n_enum; /* HS_PARAM_ENUM: number of values */
    const char *const *enum_names; /* HS_PARAM_ENUM: value names (static storage), else NULL */
    int integer; /* integer values only, in [lo, hi]: enums (0 .. n_enum - 1) and integer-valued
                    doubles (integrator.max_iter); a sweep gives them value lists only */
    double lo, hi; /* integer: the allowed values */
} hs_param;

/* A loaded model: the flat hs_model plus host-side names, parameters and source text. */
typedef struct hs_model_desc {
    hs_model model;
    char name[HS_NAME_LEN]; /* model name */
    char path[256]; /* file it came from */
    char *text; /* the file's text (heap) */
    long out_every; /* outputs.every: steps between the rows of simulate's CSV, 0: not given */
    char body_name[HS_MAX_BODIES][HS_NAME_LEN];
    char joint_name[HS_MAX_BODIES][HS_NAME_LEN];
    char cut_name[HS_MAX_CUTS][HS_NAME_LEN];
    char point_name[HS_MAX_POINTS][HS_NAME_LEN];
    char load_name[HS_MAX_LOADS][HS_NAME_LEN];
    char pay_name[HS_MAX_PAY][HS_NAME_LEN];
    char signal_name[HS_MAX_SIGNALS][HS_NAME_LEN];
    char vol_name[HS_MAX_VOLS][HS_NAME_LEN];
    char src_name[HS_MAX_SRCS][HS_NAME_LEN];
    char thr_name[HS_MAX_THR][HS_NAME_LEN];
    char dcv_name[HS_MAX_DCV][HS_NAME_LEN];
    char cyl_name[HS_MAX_CYLS][HS_NAME_LEN];
    char cmp_name[HS_MAX_CMP][HS_NAME_LEN];
    int nparam;
    hs_param *param; /* (nparam) heap */
    /* A riccati model (integrator.formulation: riccati) as a sweep's model (host/tree/tree_params.h):
     * its tree (heap), and what each parameter sets (nparam, heap; param[k].offset indexes it).
     * model then holds only the integrator's t_end and dt. NULL for every other model. */
    struct hs_tree_model *tree;
    struct hs_tree_ov *tree_ov;
    /* What such a model does in place of the fixed-size one (its loader sets it: free, get and
     * set a parameter; host/model/params.h); NULL for every other model. */
    const struct hs_desc_ops *ops;
} hs_model_desc;

/* Loads and validates a model file; on failure returns an hs_errcode and fills *err. */
int hs_model_load(const char *path, hs_model_desc *out, hs_error *err);
/* The same from text in memory (path is used in messages only). */
int hs_model_load_text(const char *text, const char *path, hs_model_desc *out, hs_error *err);
void hs_model_desc_free(hs_model_desc *d);

/* The model file's top-level "source" text into buf ("" if none); 0, or -1 if d has no text.
 * (hs_model_desc keeps no copy of it, so it is read back from d->text.) */
int hs_model_source(const hs_model_desc *d, char *buf, size_t n);

/* Index of a parameter by name, -1 if none. */
int hs_param_find(const hs_model_desc *d, const char *name);
/* Sets a parameter by name, re-derives and re-validates the model. */
int hs_param_set(hs_model_desc *d, const char *name, double value, hs_error *err);
/* "NAME=VALUE" (VALUE may carry a unit suffix, e.g. 30deg, 2bar; an enum parameter takes a
 * value name or its integer, e.g. cylinder.lift.friction.model=lugre). */
int hs_param_set_string(hs_model_desc *d, const char *assignment, hs_error *err);
/* A parameter's value as a double (an enum parameter's integer value), NAN if no such index. */
double hs_param_get(const hs_model_desc *d, int index);
/* The name of an enum parameter's current value (e.g. "lugre"); NULL for other parameters. */
const char *hs_param_value_name(const hs_model_desc *d, int index);

/* Parses "1.5", "-30 deg", "80mm", "7.6 MPa" to SI; returns 0 on success. */
int hs_parse_quantity(const char *s, double *value, char *unit_out, size_t unit_n);

/* Checks the physical rules (positive masses, unit axes, limits, dt > 0 ...). */
int hs_model_validate(const hs_model_desc *d, hs_error *err);

/* Index of a body / joint / point by name, -1 if none ("ground" is -1 too: check separately). */
int hs_body_find(const hs_model_desc *d, const char *name);
int hs_point_find(const hs_model_desc *d, const char *name);

#ifdef __cplusplus
}
#endif

#endif
