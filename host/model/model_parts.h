/* model_parts.h -- the body and joint entries of a model file, read into plain records: shared
 * by the model loader (model_load.c, the step's fixed-size hs_model) and the tree loader
 * (tree_load.c, open trees of any size for the Riccati method), so that both read a body or a
 * joint by the same rules and messages; and their signals and loads. Host-internal. */
#ifndef HS_HOST_MODEL_PARTS_H
#define HS_HOST_MODEL_PARTS_H

#include "hs/model_file.h"
#include "base/yaml_tree.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tbody {
    const yt_node *map, *name_node;
    char name[HS_NAME_LEN];
    int shape, com_given;
    double mass, dim[3], com[3], inertia[6];
} tbody;

typedef struct tjoint {
    const yt_node *map, *name_node, *parent_node, *child_node;
    char name[HS_NAME_LEN], parent[128], child[128];
    int type, hold;
    double axis[3], at_parent[3], at_child[3], rot0[9], z0, zd0;
    int spring; /* a spring mapping given: k, c, z_rest below */
    double k, c, zs;
    double q0[4], w0[3]; /* ball joints: initial relative rotation (unit quaternion w, x, y, z)
                            and relative angular velocity in the child's frame, rad/s */
} tjoint;

/* Flags of hs_parse_joint / hs_parse_body. */
enum {
    HS_PART_TEMPLATE = 2, /* a chain's template: no name, parent or child (generated) */
    HS_PART_TREE = 4 /* a riccati model's joint (host/tree/): no spring */
};

/* The body at y (path names it in messages, e.g. "bodies[3]"). */
int hs_parse_body(const yt_ctx *c, const yt_node *y, const char *path, int flags, tbody *b);
/* The joint at y. */
int hs_parse_joint(const yt_ctx *c, const yt_node *y, const char *path, int flags, tjoint *t);

/* outputs.every of the mapping y (outputs, in every model file): the steps between the rows of
 * simulate's CSV, a whole number >= 1 (def when not given). */
int hs_parse_every(const yt_ctx *c, const yt_node *y, long def, long *every);

/* A riccati file's signals and loads (on the tree's bodies body_name, nbody) into out->model
 * (nsignal, knots, nload, load_*), by the rules and messages of every model file
 * (model_load.c); the rest of out->model is zero. */
int hs_model_load_inputs(const char *text, const char *path, const char (*body_name)[HS_NAME_LEN], int nbody,
                         hs_model_desc *out, hs_error *err);

#ifdef __cplusplus
}
#endif

#endif
