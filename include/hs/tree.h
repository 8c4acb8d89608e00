/* hs/tree.h -- open trees of any size for the Riccati transfer matrix method (seed 002): the
 * model files that say integrator.formulation: riccati, loaded into heap arrays that an
 * hs_tree (kernels/hs_tree.h) views, and their simulation by RK4 (kernels/hs_tree_rk4.h).
 *
 * Such a file has the bodies and joints of any model file (revolute, prismatic and ball
 * joints; no cut joints, no hydraulics) and may add chains: a body and a joint template
 * repeated count times, so that a file of a few lines describes a tree of 10^5 bodies
 * (docs/model-format.md, "Open trees: the Riccati formulation"). */
#ifndef HS_TREE_API_H
#define HS_TREE_API_H

#include <stdio.h>

#include "errors.h"
#include "model.h"
#include "model_file.h"
#include "../../kernels/hs_tree.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The most bodies a tree file may describe (a chain's count included). Before anything is
 * allocated the loader also checks that the tree and its integrator's work fit in this
 * machine's physical memory. */
#define HS_TREE_MAX_BODIES 10000000

/* Bytes per body of a loaded tree and its RK4 integration (arrays, work, initial state, state,
 * stages and the state written: 7 doubles each for a ball joint). */
#define HS_TREE_BYTES_PER_BODY                                                                   \
    (sizeof(double) * (1 + 1 + 3 + 6 + 3 + 3 + 3 + 9 + HS_TREE_NW + (3 + HS_TREE_RK4_NSCRATCH) * 7) + sizeof(int) * 5 + \
     2 * HS_NAME_LEN)

typedef struct hs_tree_model {
    hs_tree tree; /* the view over the arrays below */
    char name[HS_NAME_LEN];
    char path[256];
    int *parent, *jtype, *iq, *iv; /* (nbody) */
    double *mass; /* (nbody) */
    double *com, *at_parent, *at_child, *axis; /* (nbody x 3) */
    double *inertia; /* (nbody x 6) */
    double *rot0; /* (nbody x 9) */
    char (*body_name)[HS_NAME_LEN]; /* (nbody) */
    char (*joint_name)[HS_NAME_LEN]; /* the joint whose child is body j (nbody) */
    double *length; /* length of a rod or beam body (its x size), m; 0: none (nbody) */
    int *chain_of; /* the chain body j belongs to, -1: listed in bodies (nbody) */
    int nchain;
    char (*chain_name)[HS_NAME_LEN]; /* (nchain) */
    hs_model *inputs; /* the file's signals and external loads (tree.ext points here), NULL: none */
    double *q0, *v0; /* initial positions (nq) and velocities (nv) */
    int njoint[3]; /* joints by type: revolute, prismatic, ball */
    double dt, t_end; /* RK4 step and end time, s */
    int nout; /* bodies recorded in the CSV */
    int *out_body; /* (nout) */
    long every; /* steps between CSV rows */
} hs_tree_model;

/* Does the model file at path ask for integrator.formulation: riccati? 1 yes, 0 no (or not
 * readable: hs_model_load then reports why). */
int hs_tree_file_is_riccati(const char *path);
/* The same of a model file's text. */
int hs_tree_text_is_riccati(const char *text);
/* Loads a riccati model file; on failure an hs_errcode with *err filled (file, line, key). */
int hs_tree_load(const char *path, hs_tree_model *out, hs_error *err);
int hs_tree_load_text(const char *text, const char *path, hs_tree_model *out, hs_error *err);
void hs_tree_model_free(hs_tree_model *t);
/* Index of the body named name, -1 if none. */
int hs_tree_body_find(const hs_tree_model *t, const char *name);

/* The step's model index of tree body j: a ball joint takes three bodies (hs_model.h), its
 * child the last. */
int hs_tree_model_body(const hs_tree_model *t, int j);
/* A tree state (q: nq, with unit quaternions; v: nv, a ball joint's nu in the child's axes) as
 * the step's model's coordinates z and velocities zd (its nbody each): a ball joint's rotation
 * vector (angle in [0, pi]) and its rate. Returns the model's nbody, or -1 (a zero quaternion,
 * or a singular rate map). */
int hs_tree_state_to_model(const hs_tree_model *t, const double *q, const double *v, double *z, double *zd);
/* The step's model's accelerations zdd at (z, zd) as the tree's (vd: nv; a ball joint's nu'). */
void hs_tree_accel_from_model(const hs_tree_model *t, const double *z, const double *zd, const double *zdd,
                              double *vd);

/* The step's model (hs_model: the semi-recursive formulation) of a tree that fits it: at most
 * HS_MAX_BODIES bodies of the model, where a ball joint takes three (hs_tree_model_body);
 * gravity, loads and signals; z0 and zd0 from q0 and v0 (hs_tree_state_to_model). HS_OK, or
 * HS_ERR_LIMIT with *err saying which rule the tree breaks. For comparisons of the two. */
int hs_tree_to_model(const hs_tree_model *t, hs_model *m, hs_error *err);

/* What a run measured. */
typedef struct hs_tree_sim_result {
    long steps;
    double t; /* time reached, s */
    double E0, E1; /* E_kin + E_pot - W_ext at the start and the end, J */
    double W; /* W_ext: the external loads' work to the end, J */
    double wall_s; /* seconds the integration took (the CSV's writing included) */
    int status; /* 0, or the joint + 1 whose articulated inertia became singular */
} hs_tree_sim_result;

/* Integrates the tree from its initial state to t_end (t_end < 0: the model's) with RK4 at
 * its dt, writing a CSV row every `every` steps to csv (NULL: none): t, E_kin, E_pot,
 * E_total (E_kin + E_pot), W_ext (the external loads' work, when the model has loads) and, per
 * recorded body, its rotation about z and its centre of mass. */
int hs_tree_simulate(const hs_tree_model *t, double t_end, FILE *csv, hs_tree_sim_result *res, hs_error *err);
/* The same for a variant of tm's tree: view (tm's names, outputs and dt, another tree's numbers:
 * a sweep's instance, kernels/hs_tree_batch.h's hs_tree_instance_setup) from the state y0
 * (nq + nv; NULL: tm's initial state). */
int hs_tree_simulate_as(const hs_tree_model *tm, const hs_tree *view, const double *y0, double t_end, FILE *csv,
                        hs_tree_sim_result *res, hs_error *err);

#ifdef __cplusplus
}
#endif

#endif
