/* params.h -- the named-parameter table of a loaded model (hs_model_desc.param): building it,
 * which unit suffixes a parameter takes, and the changes that go through it (the end time
 * and step together). params.c.
 * Not part of the public API (include/hs/model_file.h is). */
#ifndef HS_HOST_PARAMS_H
#define HS_HOST_PARAMS_H

#include "hs/model_file.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a model that is not the fixed-size hs_model (a riccati tree: host/tree/tree_params.c)
 * does in its place; its loader sets d->ops, so that this layer never calls the one above. */
struct hs_desc_ops {
    void (*free)(hs_model_desc *d);                                   /* what the loader added */
    double (*param_get)(const hs_model_desc *d, int index);           /* hs_param_get */
    int (*param_set)(hs_model_desc *d, int index, double v, hs_error *err); /* hs_param_set */
};

/* (Re)builds d->param, the named-parameter table, from the model's layout (shapes, joint and
 * cut types, which coms were given, signal sizes, throttle variants, optional cylinder parts).
 * Names are stable: sweep files use them. Frees a previous table. Returns HS_OK, or HS_ERR_IO
 * with *err filled when out of memory. */
int hs_params_build(hs_model_desc *d, hs_error *err);

/* 1 if a value whose unit suffix had the SI family `got` ("" = no suffix) may be stored in
 * the parameter `p`: no suffix always fits (SI assumed); signal values take any unit, and
 * integrator.tol_position takes rad or m. */
int hs_param_unit_fits(const hs_param *p, const char *got);

/* 1 if a value of enumeration p may be given by its integer (0 .. n_enum - 1) as well as by its
 * name: not when one of its names is a numeral (cosim.extrapolation: 0, 1, 2, 3, 4,
 * integrate), where 5 would silently mean the sixth name, not an order 5. */
int hs_param_enum_by_index(const hs_param *p);

/* 1 if the model has any hydraulic entity (volumes, sources, throttles, valves, cylinders). */
int hs_model_has_hydraulics(const hs_model *m);

/* Sets the end time and the step together (NAN: keep that one) and validates once, so that
 * neither order matters (t_end = 1e7 s with dt = 1 s is fine, though 1e7 s with the old 1 ms
 * step would break HS_MAX_STEPS); nothing changes on failure. The error's key is
 * integrator.dt or integrator.t_end. */
int hs_model_set_time(hs_model_desc *d, double t_end, double dt, hs_error *err);

/* Number of steps for t_end and dt: t_end/dt rounded, tolerant to rounding of the ratio. */
long hs_nsteps(const hs_model *m);

#ifdef __cplusplus
}
#endif

#endif
