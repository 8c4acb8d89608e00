/* model_validate.h -- the physical rules of a model (model_validate.c) with the location of a broken
 * one, so that the loader can point at the YAML node that set the value.
 * Not part of the public API (include/hs/model_file.h is). */
#ifndef HS_HOST_MODEL_VALIDATE_H
#define HS_HOST_MODEL_VALIDATE_H

#include "hs/model_file.h"

#ifdef __cplusplus
extern "C" {
#endif

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
    HS_WHERE_COMPONENT, /* hydraulics.components */
    HS_WHERE_PAYLOAD, /* payloads */
    HS_WHERE_PARAM /* a parameter value as such (index into d->param): not finite */
};

typedef struct hs_where {
    int kind; /* enum hs_where_kind */
    int index;
    int comp;
    char field[32];
} hs_where;

/* hs_model_validate with the location of the broken rule in *where (may be NULL); the error's
 * key is the parameter-style name (e.g. body.link1.mass), file/line/col are left empty. */
int hs_model_validate_where(const hs_model_desc *d, hs_error *err, hs_where *where);
/* The rules of the loads (on bodies 0 .. nbody - 1) and signals of d->model alone (a riccati
 * model's inputs: host/tree/tree_load.c). */
int hs_model_validate_inputs(const hs_model_desc *d, int nbody, hs_error *err, hs_where *where);

/* 1 if f is one of the integrator keys (dt, t_end, tol_position, tol_pressure, ...). */
int hs_is_integrator_key(const char *f);

#ifdef __cplusplus
}
#endif

#endif
