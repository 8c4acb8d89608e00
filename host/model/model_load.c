/* model_load.c -- reading model files (YAML) into the flat hs_model, and the physical rules.
 *
 * The YAML is read into the small line/column-annotated tree of yaml_tree.h (shared with the
 * sweep loader): every error here names the line and column of the offending node, mappings
 * and sequences included. The loader checks the schema (types, unknown, missing and
 * duplicate keys, references, limits); the physical rules live in model_validate.c (shared
 * with hs_param_set), and a broken rule is mapped back to the YAML node that set the value.
 * Sections: the mechanism (bodies, joints, cuts, points, signals, loads), fluid and
 * hydraulics (sources, volumes, throttles, valves, cylinders), and the integrator settings. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hs/tree.h"
#include "hs_rotvec.h"
#include "model/model_names.h"
#include "model/model_parts.h"
#include "model/model_validate.h"
#include "model/params.h"
#include "base/suggest.h"
#include "base/yaml_tree.h"

/* ====================================================================================== */
/* loader context                                                                         */
/* ====================================================================================== */

typedef struct ctx {
    yt_ctx y; /* file and error sink of the YAML helpers */
    hs_model_desc *d;
    const yt_node *root;
    const yt_node *integ; /* integrator mapping or NULL */
    const yt_node *cosim; /* cosim mapping or NULL */
    /* YAML node and list index of each entity, by model index (bodies and joints sorted) */
    const yt_node *body_map[HS_MAX_BODIES], *joint_map[HS_MAX_BODIES];
    int body_y[HS_MAX_BODIES], joint_y[HS_MAX_BODIES];
    const yt_node *cut_map[HS_MAX_CUTS], *point_map[HS_MAX_POINTS], *load_map[HS_MAX_LOADS];
    const yt_node *pay_map[HS_MAX_PAY];
    const yt_node *signal_map[HS_MAX_SIGNALS];
    const yt_node *fluid; /* fluid mapping or NULL */
    const yt_node *src_map[HS_MAX_SRCS], *vol_map[HS_MAX_VOLS], *thr_map[HS_MAX_THR];
    const yt_node *dcv_map[HS_MAX_DCV], *cyl_map[HS_MAX_CYLS], *cmp_map[HS_MAX_CMP];
    int hose_v0[HS_MAX_CMP]; /* a hose's first internal volume (hose_volumes), -1 */
    /* hs_model_load_inputs: loads name these bodies of a tree (host/tree/), tbody_name NULL else */
    const char (*tbody_name)[HS_NAME_LEN]; /* (ntbody) */
    int ntbody;
} ctx;

static int get_list(ctx *c, const yt_node *root, const char *key, int max, const char *maxname,
                    int required, const yt_node **out)
{
    return yt_get_list_in(&c->y, root, "", key, max, maxname, required, out);
}

static int find_name(const char (*names)[HS_NAME_LEN], int n, const char *s)
{
    int i;
    for (i = 0; i < n; ++i)
        if (!strcmp(names[i], s)) return i;
    return -1;
}

/* An entry of a named list at path (e.g. "cuts[2]"): a mapping of the keys allowed, and its
 * required name into name (HS_NAME_LEN), its node into *nn. */
static int list_item(ctx *c, const yt_node *y, const char *path, const char *const *keys, char *name,
                     const yt_node **nn)
{
    int rc;
    if ((rc = yt_need(&c->y, y, YT_MAP, path)) || (keys && (rc = yt_check_keys(&c->y, y, path, keys)))) return rc;
    return yt_get_str(&c->y, y, path, "name", 1, 1, name, HS_NAME_LEN, nn);
}

/* " (did you mean a, b or c?)" for an unknown name among the n names (stride bytes apart,
 * from first), "" when none is near (base/suggest.h). */
static const char *near(const char *want, const char *first, int n, size_t stride, char *buf, size_t size)
{
    hs_near L;
    int i;
    memset(&L, 0, sizeof L);
    for (i = 0; i < n; ++i) hs_near_add(&L, want, first + (size_t)i * stride);
    return hs_near_text(&L, buf, size);
}
#define NEAR(want, names, n, buf) near(want, (const char *)(names), n, sizeof *(names), buf, sizeof buf)

/* A reference to a body, or ground (-1) when allow_ground. */
static int body_ref(ctx *c, const yt_node *m, const char *path, const char *key, int allow_ground,
                    int *out)
{
    char name[128], kp[128], sug[400];
    const yt_node *node;
    int rc = yt_get_str(&c->y, m, path, key, 1, 0, name, sizeof name, &node);
    if (rc != HS_OK) return rc;
    yt_join(kp, sizeof kp, path, key);
    if (!strcmp(name, "ground")) {
        if (allow_ground) {
            *out = -1;
            return HS_OK;
        }
        return yt_fail(&c->y, HS_ERR_VALUE, node, kp, "must be a body, not ground");
    }
    *out = c->tbody_name ? find_name(c->tbody_name, c->ntbody, name) : hs_body_find(c->d, name);
    if (*out >= 0) return HS_OK;
    return yt_fail(&c->y, HS_ERR_VALUE, node, kp, "%s '%s' is not a body defined in bodies%s%s%s", key,
                   name, c->tbody_name ? " or chains (a chain's bodies are <chain>_1 .. <chain>_<count>)" : "",
                   allow_ground ? " or ground" : "",
                   c->tbody_name ? NEAR(name, c->tbody_name, c->ntbody, sug)
                                 : NEAR(name, c->d->body_name, c->d->model.nbody, sug));
}

/* Duplicate names in one list: report the second one. */
static int check_unique(ctx *c, const char (*names)[HS_NAME_LEN], int n,
                        const yt_node *const *nodes, const char *list, const char *what)
{
    int i, j;
    char kp[128];
    for (i = 0; i < n; ++i)
        for (j = 0; j < i; ++j)
            if (!strcmp(names[i], names[j])) {
                snprintf(kp, sizeof kp, "%s[%d].name", list, i);
                return yt_fail(&c->y, HS_ERR_VALUE, nodes[i], kp,
                               "duplicate %s name '%s' (first defined at line %d)", what, names[i],
                               nodes[j]->line);
            }
    return HS_OK;
}

/* A list of named entries at where.key (e.g. "hydraulics.throttles"), each a mapping of keys whose
 * name goes to names[i] and the rest is read by item; map[i] its node, *count the entries; then
 * the names checked unique (what: "throttle"). Absent: nothing. */
typedef int (*item_fn)(ctx *c, const yt_node *y, const char *path, int i);
static int named_list(ctx *c, const yt_node *in, const char *where, const char *key, int max, const char *maxname,
                      const char *const *keys, const char *what, int each, char (*names)[HS_NAME_LEN],
                      const yt_node **map, int *count, item_fn item)
{
    const yt_node *l, *nn[64]; /* (max) the name nodes */
    char list[48], path[64];
    int rc, i;
    if (max > (int)(sizeof nn / sizeof nn[0])) return yt_fail(&c->y, HS_ERR_LIMIT, in, key, "list limit %s too large", maxname);
    if ((rc = yt_get_list_in(&c->y, in, where, key, max, maxname, 0, &l)) || !l) return rc;
    yt_join(list, sizeof list, where, key);
    for (i = 0; i < l->n; ++i) {
        snprintf(path, sizeof path, "%s[%d]", list, i);
        if ((rc = list_item(c, l->kid[i], path, keys, names[i], &nn[i])) ||
            (each && (rc = check_unique(c, (const char(*)[HS_NAME_LEN])names, i + 1, nn, list, what))) ||
            (rc = item(c, l->kid[i], path, i)))
            return rc;
        map[i] = l->kid[i];
    }
    *count = l->n;
    return each ? HS_OK : check_unique(c, (const char(*)[HS_NAME_LEN])names, l->n, nn, list, what);
}

/* ====================================================================================== */
/* sections                                                                               */
/* ====================================================================================== */

/* Checks the tree (each body the child of exactly one joint, parents known, no loops) and
 * fills bodies and joints in an order where parents precede children; among the bodies
 * ready at each step the one listed first in the file goes first. */
static int build_tree(ctx *c, const tbody *tb, int nb, const tjoint *tj, int nj)
{
    hs_model *m = &c->d->model;
    int child_joint[HS_MAX_BODIES], parent_of[HS_MAX_BODIES], newidx[HS_MAX_BODIES];
    int placed[HS_MAX_BODIES];
    char kp[128], sug[400];
    int i, j, b, n, mi = 0; /* mi: the model's next body (a ball joint takes three) */
    /* get_list caps both lists; said again here so that the compiler sees the bound of every
     * index below (gcc 13 warned of reads past tb otherwise, -Wstringop-overread) */
    if (nb > HS_MAX_BODIES || nj > HS_MAX_BODIES)
        return yt_fail(&c->y, HS_ERR_LIMIT, NULL, "bodies",
                       "more than HS_MAX_BODIES (%d) bodies or joints", HS_MAX_BODIES);
    for (b = 0; b < nb; ++b) {
        child_joint[b] = -1;
        placed[b] = 0;
    }
    for (i = 0; i < nj; ++i) {
        const tjoint *t = &tj[i];
        int ch = -1, pa = -1;
        /* bounded by the body name's array (t->child/parent are longer arrays) */
        for (b = 0; b < nb; ++b)
            if (!strncmp(tb[b].name, t->child, sizeof tb[b].name)) ch = b;
        for (b = 0; b < nb; ++b)
            if (!strncmp(tb[b].name, t->parent, sizeof tb[b].name)) pa = b;
        if (ch < 0) {
            snprintf(kp, sizeof kp, "joints[%d].child", i);
            if (!strcmp(t->child, "ground"))
                return yt_fail(&c->y, HS_ERR_VALUE, t->child_node, kp,
                               "child must be a body, not ground");
            return yt_fail(&c->y, HS_ERR_VALUE, t->child_node, kp, "child '%s' is not a body defined in bodies%s",
                           t->child, near(t->child, tb[0].name, nb, sizeof *tb, sug, sizeof sug));
        }
        if (pa < 0 && strcmp(t->parent, "ground") != 0) {
            snprintf(kp, sizeof kp, "joints[%d].parent", i);
            return yt_fail(&c->y, HS_ERR_VALUE, t->parent_node, kp, "parent '%s' is not a body defined in bodies or ground%s",
                           t->parent, near(t->parent, tb[0].name, nb, sizeof *tb, sug, sizeof sug));
        }
        if (pa == ch) {
            snprintf(kp, sizeof kp, "joints[%d].parent", i);
            return yt_fail(&c->y, HS_ERR_VALUE, t->parent_node, kp,
                           "a joint cannot connect body '%s' to itself", t->child);
        }
        if (child_joint[ch] >= 0) {
            snprintf(kp, sizeof kp, "joints[%d].child", i);
            return yt_fail(&c->y, HS_ERR_VALUE, t->child_node, kp,
                           "a body must be the child of exactly one joint: '%s' is already the "
                           "child of joint '%s'",
                           t->child, tj[child_joint[ch]].name);
        }
        child_joint[ch] = i;
        parent_of[ch] = pa;
    }
    for (b = 0; b < nb; ++b)
        if (child_joint[b] < 0) {
            snprintf(kp, sizeof kp, "bodies[%d].name", b);
            return yt_fail(&c->y, HS_ERR_VALUE, tb[b].name_node, kp,
                           "a body must be the child of exactly one joint: no joint has child '%s'",
                           tb[b].name);
        }
    for (n = 0; n < nb; ++n) {
        for (b = 0; b < nb; ++b)
            if (!placed[b] && (parent_of[b] < 0 || placed[parent_of[b]])) break;
        if (b == nb) { /* the rest hang on each other, not on ground */
            for (b = 0; b < nb && placed[b]; ++b) {
            }
            i = child_joint[b];
            snprintf(kp, sizeof kp, "joints[%d].parent", i);
            return yt_fail(&c->y, HS_ERR_VALUE, tj[i].parent_node, kp,
                           "kinematic loop in joints: use a cut joint (body '%s' is not connected "
                           "to ground through joints)",
                           tb[b].name);
        }
        placed[b] = 1;
        {
            const tbody *s = &tb[b];
            const tjoint *t = &tj[child_joint[b]];
            int ball = t->type == HS_JOINT_BALL, r;
            double phi[3], pd[3];
            if (mi + (ball ? 3 : 1) > HS_MAX_BODIES) {
                i = child_joint[b];
                snprintf(kp, sizeof kp, "joints[%d].type", i);
                return yt_fail(&c->y, HS_ERR_LIMIT, tj[i].map, kp,
                               "the model needs more than HS_MAX_BODIES = %d bodies: a ball joint takes three (one "
                               "per coordinate of its rotation vector; integrator.formulation: riccati has no such "
                               "limit)",
                               HS_MAX_BODIES);
            }
            if (ball && strlen(t->name) + 2 >= HS_NAME_LEN) {
                snprintf(kp, sizeof kp, "joints[%d].name", child_joint[b]);
                return yt_fail(&c->y, HS_ERR_VALUE, t->name_node, kp,
                               "a ball joint's name must have fewer than %d characters (its coordinates are "
                               "<name>.x, .y and .z)",
                               HS_NAME_LEN - 2);
            }
            if (ball && hs_rotvec_state_of(t->q0, t->rot0, t->w0, phi, pd)) {
                snprintf(kp, sizeof kp, "joints[%d].q0", child_joint[b]);
                return yt_fail(&c->y, HS_ERR_VALUE, t->map, kp, "the initial rotation has no rotation vector");
            }
            /* a ball joint: two massless bodies in the parent's frame at the joint point, then the
             * child, one coordinate of the rotation vector each (hs_model.h, kernels/hs_rotvec.h);
             * the initial state from q0 and w0 */
            for (r = 0; r < (ball ? 3 : 1); ++r) {
                j = mi++;
                m->body_parent[j] = r ? j - 1 : parent_of[b] < 0 ? -1 : newidx[parent_of[b]];
                m->joint_type[j] = t->type;
                m->joint_hold[j] = t->hold;
                if (r == 0) memcpy(m->joint_at_parent[j], t->at_parent, sizeof t->at_parent);
                if (ball) {
                    m->joint_ball[j] = r + 1;
                    m->joint_axis[j][r] = 1.0; /* e_r: phi_r's axis at phi = 0 (informative) */
                    m->joint_z0[j] = phi[r];
                    m->joint_zd0[j] = pd[r];
                    snprintf(c->d->joint_name[j], HS_NAME_LEN, "%.*s.%c", HS_NAME_LEN - 3, t->name, "xyz"[r]);
                } else {
                    memcpy(m->joint_axis[j], t->axis, sizeof t->axis);
                    m->joint_z0[j] = t->z0;
                    m->joint_zd0[j] = t->zd0;
                    if (t->spring) {
                        m->joint_k[j] = t->k;
                        m->joint_c[j] = t->c;
                        m->joint_zs[j] = t->zs;
                        m->nspring++;
                    }
                    snprintf(c->d->joint_name[j], HS_NAME_LEN, "%s", t->name);
                }
                c->body_map[j] = s->map;
                c->body_y[j] = b;
                c->joint_map[j] = t->map;
                c->joint_y[j] = child_joint[b];
                if (ball && r < 2) { /* no name: nothing can be attached to it */
                    m->body_shape[j] = HS_SHAPE_CUSTOM;
                    m->joint_rot0[j][0] = m->joint_rot0[j][4] = m->joint_rot0[j][8] = 1.0;
                    continue;
                }
                newidx[b] = j;
                m->body_shape[j] = s->shape;
                m->body_com_given[j] = s->com_given;
                m->body_mass[j] = s->mass;
                memcpy(m->body_dim[j], s->dim, sizeof s->dim);
                memcpy(m->body_com[j], s->com, sizeof s->com);
                memcpy(m->body_inertia[j], s->inertia, sizeof s->inertia);
                memcpy(m->joint_at_child[j], t->at_child, sizeof t->at_child);
                memcpy(m->joint_rot0[j], t->rot0, sizeof t->rot0);
                snprintf(c->d->body_name[j], HS_NAME_LEN, "%s", s->name);
            }
        }
    }
    m->nbody = mi;
    m->nz = mi;
    return HS_OK;
}

static int parse_bodies_joints(ctx *c)
{
    const yt_node *bl, *jl = NULL;
    const yt_node *names[HS_MAX_BODIES];
    char bn[HS_MAX_BODIES][HS_NAME_LEN], jn[HS_MAX_BODIES][HS_NAME_LEN];
    tbody *tb;
    tjoint *tj;
    int rc, i, nb, nj;
    /* bodies are checked before the joints list is required: the first error in the file
     * is the most useful one to report */
    if ((rc = get_list(c, c->root, "bodies", HS_MAX_BODIES, "HS_MAX_BODIES", 1, &bl))) return rc;
    if (bl->n == 0)
        return yt_fail(&c->y, HS_ERR_VALUE, bl, "bodies", "at least one body is required");
    nb = bl->n;
    tb = (tbody *)calloc(HS_MAX_BODIES, sizeof *tb);
    tj = (tjoint *)calloc(HS_MAX_BODIES, sizeof *tj);
    if (!tb || !tj) {
        free(tb);
        free(tj);
        return yt_fail(&c->y, HS_ERR_IO, NULL, "", "out of memory");
    }
    for (i = 0; i < nb && rc == HS_OK; ++i) {
        char path[32];
        snprintf(path, sizeof path, "bodies[%d]", i);
        rc = hs_parse_body(&c->y, bl->kid[i], path, 0, &tb[i]);
        memcpy(bn[i], tb[i].name, HS_NAME_LEN);
        names[i] = tb[i].name_node;
    }
    if (rc == HS_OK)
        rc = check_unique(c, (const char(*)[HS_NAME_LEN])bn, nb, names, "bodies", "body");
    if (rc == HS_OK)
        rc = get_list(c, c->root, "joints", HS_MAX_BODIES, "HS_MAX_BODIES", 1,
                      &jl);
    nj = rc == HS_OK ? jl->n : 0;
    for (i = 0; i < nj && rc == HS_OK; ++i) {
        char path[32];
        snprintf(path, sizeof path, "joints[%d]", i);
        rc = hs_parse_joint(&c->y, jl->kid[i], path, 0, &tj[i]);
        memcpy(jn[i], tj[i].name, HS_NAME_LEN);
        names[i] = tj[i].name_node;
    }
    if (rc == HS_OK)
        rc = check_unique(c, (const char(*)[HS_NAME_LEN])jn, nj, names, "joints", "joint");
    if (rc == HS_OK) rc = build_tree(c, tb, nb, tj, nj);
    free(tb);
    free(tj);
    return rc;
}

static int cut_item(ctx *c, const yt_node *y, const char *path, int i)
{
    static const char *const types[] = {"revolute", "revolute_planar", "prismatic",
                                        "prismatic_planar", "nonholonomic", NULL};
    static const int neq[5] = {5, 2, 5, 2, 1}; /* equations per cut type (hs_cut_equations) */
    static const double ez[3] = {0.0, 0.0, 1.0};
    hs_model *m = &c->d->model;
    int rc, ty, k, ncon = 0;
    if ((rc = yt_get_enum(&c->y, y, path, "type", 1, types, 0, &m->cut_type[i])) ||
        (rc = body_ref(c, y, path, "body_a", 1, &m->cut_body_a[i])) ||
        (rc = body_ref(c, y, path, "body_b", 1, &m->cut_body_b[i])) ||
        (rc = yt_get_vec(&c->y, y, path, "at_a", 3, "m", 0, NULL, m->cut_at_a[i])) ||
        (rc = yt_get_vec(&c->y, y, path, "at_b", 3, "m", 0, NULL, m->cut_at_b[i])))
        return rc;
    ty = m->cut_type[i];
    if (ty == HS_CUT_NONHOLONOMIC) { /* a velocity of at_b along axis_b: nothing of a's */
        static const char *const only_b[] = {"at_a", "axis_a", "normal_a", "normal_b", NULL};
        for (k = 0; only_b[k]; ++k)
            if ((rc = yt_forbid(&c->y, y, path, only_b[k],
                                "a nonholonomic cut takes body_a, body_b, at_b and axis_b only")))
                return rc;
        if ((rc = yt_get_vec(&c->y, y, path, "axis_b", 3, "", 1, NULL, m->cut_axis_b[i])))
            return rc;
        m->cut_axis_a[i][0] = m->cut_axis_a[i][1] = m->cut_axis_a[i][2] = 0.0;
        goto counted;
    }
    /* revolute axes default to z (planar mechanisms); a slide direction has no default */
    if ((rc = yt_get_vec(&c->y, y, path, "axis_a", 3, "", ty >= HS_CUT_PRISMATIC, ez,
                         m->cut_axis_a[i])) ||
        (rc = yt_get_vec(&c->y, y, path, "axis_b", 3, "", ty >= HS_CUT_PRISMATIC, ez,
                         m->cut_axis_b[i])))
        return rc;
    if (ty == HS_CUT_PRISMATIC) {
        if ((rc = yt_get_vec(&c->y, y, path, "normal_a", 3, "", 1, NULL, m->cut_normal_a[i])) ||
            (rc = yt_get_vec(&c->y, y, path, "normal_b", 3, "", 1, NULL, m->cut_normal_b[i])))
            return rc;
    } else if (ty == HS_CUT_PRISMATIC_PLANAR) {
        if ((rc = yt_forbid(&c->y, y, path, "normal_a",
                            "normal_a is used by prismatic cuts only")) ||
            (rc = yt_get_vec(&c->y, y, path, "normal_b", 3, "", 0, ez, m->cut_normal_b[i])))
            return rc;
    } else if ((rc = yt_forbid(&c->y, y, path, "normal_a",
                               "normal_a is used by prismatic cuts only")) ||
               (rc = yt_forbid(&c->y, y, path, "normal_b",
                               "normal_b is used by prismatic cuts only"))) {
        return rc;
    }
counted:
    for (k = 0; k <= i; ++k) ncon += neq[m->cut_type[k]];
    if (ncon > HS_MAX_CON)
        return yt_fail(&c->y, HS_ERR_LIMIT, y, path,
                       "the cuts need %d constraint equations up to here (HS_MAX_CON is %d)",
                       ncon, HS_MAX_CON);
    return HS_OK;
}

static int parse_cuts(ctx *c)
{
    static const char *const keys[] = {"name", "type", "body_a", "at_a", "body_b", "at_b",
                                       "axis_a", "axis_b", "normal_a", "normal_b", NULL};
    return named_list(c, c->root, "", "cuts", HS_MAX_CUTS, "HS_MAX_CUTS", keys, "cut", 0, c->d->cut_name, c->cut_map,
                      &c->d->model.ncut, cut_item);
}

static int point_item(ctx *c, const yt_node *y, const char *path, int i)
{
    hs_model *m = &c->d->model;
    int rc = body_ref(c, y, path, "body", 1, &m->point_body[i]);
    return rc ? rc : yt_get_vec(&c->y, y, path, "at", 3, "m", 0, NULL, m->point_at[i]);
}

static int parse_points(ctx *c)
{
    static const char *const keys[] = {"name", "body", "at", NULL};
    return named_list(c, c->root, "", "points", HS_MAX_POINTS, "HS_MAX_POINTS", keys, "point", 0, c->d->point_name,
                      c->point_map, &c->d->model.npoint, point_item);
}

/* A signal's kind and its test parameters (kernels/hs_test_input.h): kind knots when
 * absent; every parameter its default when absent, whatever the kind, so that a sweep may
 * switch the kind per instance. */
static int parse_signal_test(ctx *c, const yt_node *y, const char *path, int i)
{
    hs_model *m = &c->d->model;
    int rc, k;
    if ((rc = yt_get_enum(&c->y, y, path, "kind", 0, hs_signal_kind_names, HS_SIGK_KNOTS, &m->sig_kind[i])))
        return rc;
    for (k = 0; k < HS_TP_COUNT; ++k)
        if ((rc = yt_get_num(&c->y, y, path, hs_test_param_keys[k],
                             hs_test_param_units[k][0] ? hs_test_param_units[k] : NULL, 0,
                             hs_test_param_defaults[k], &m->sig_test[i][k])))
            return rc;
    return HS_OK;
}

static int signal_item(ctx *c, const yt_node *y, const char *path, int i)
{
    hs_model *m = &c->d->model;
    const yt_node *kn = yt_map_get(y, "knots");
    char kp[128];
    int rc, k;
    if ((rc = parse_signal_test(c, y, path, i))) return rc;
    yt_join(kp, sizeof kp, path, "knots");
    m->sig_start[i] = m->nknot;
    m->sig_n[i] = 0;
    if (!kn && m->sig_kind[i] != HS_SIGK_KNOTS) return HS_OK; /* a test input alone */
    if (!kn)
        return yt_fail(&c->y, HS_ERR_SCHEMA, y, kp,
                       "required key is missing: a signal is its knots, or a test input "
                       "(kind: step, ramp, impulse or sine)");
    if ((rc = yt_need(&c->y, kn, YT_SEQ, kp))) return rc;
    if (kn->n == 0)
        return yt_fail(&c->y, HS_ERR_VALUE, kn, kp, "a signal needs at least one knot");
    m->sig_n[i] = kn->n;
    for (k = 0; k < kn->n; ++k) {
        const yt_node *p = kn->kid[k];
        double tv[2];
        snprintf(kp, sizeof kp, "%s.knots[%d]", path, k);
        if (m->nknot == HS_MAX_KNOTS)
            return yt_fail(&c->y, HS_ERR_LIMIT, p, kp,
                           "too many knots in all signals together (HS_MAX_KNOTS is %d)",
                           HS_MAX_KNOTS);
        if (p->type != YT_SEQ || p->n != 2)
            return yt_fail(&c->y, HS_ERR_SCHEMA, p, kp, "a knot is a list [t, value]");
        if ((rc = yt_num_node(&c->y, p->kid[0], kp, "s", &tv[0])) ||
            (rc = yt_num_node(&c->y, p->kid[1], kp, NULL, &tv[1])))
            return rc;
        m->knot_t[m->nknot] = tv[0];
        m->knot_v[m->nknot] = tv[1];
        ++m->nknot;
    }
    return HS_OK;
}

static int parse_signals(ctx *c)
{
    const char *keys[3 + HS_TP_COUNT + 1];
    int k;
    keys[0] = "name";
    keys[1] = "knots";
    keys[2] = "kind";
    for (k = 0; k <= HS_TP_COUNT; ++k) keys[3 + k] = hs_test_param_keys[k]; /* NULL last */
    c->d->model.nknot = 0;
    return named_list(c, c->root, "", "signals", HS_MAX_SIGNALS, "HS_MAX_SIGNALS", keys, "signal", 0, c->d->signal_name,
                      c->signal_map, &c->d->model.nsignal, signal_item);
}

static int signal_ref(ctx *c, const yt_node *y, const char *path, const char *key, int *out)
{
    char name[128], kp[128], sug[400];
    const yt_node *node;
    int rc = yt_get_str(&c->y, y, path, key, 0, 0, name, sizeof name, &node);
    *out = -1;
    if (rc != HS_OK || !name[0]) return rc;
    *out = find_name((const char(*)[HS_NAME_LEN])c->d->signal_name, c->d->model.nsignal, name);
    if (*out >= 0) return HS_OK;
    return yt_fail(&c->y, HS_ERR_VALUE, node, yt_join(kp, sizeof kp, path, key),
                   "%s '%s' is not a signal defined in signals%s", key, name,
                   NEAR(name, c->d->signal_name, c->d->model.nsignal, sug));
}

static int load_item(ctx *c, const yt_node *y, const char *path, int i)
{
    static const char *const frames[] = {"global", "body", NULL};
    hs_model *m = &c->d->model;
    int rc;
    if ((rc = body_ref(c, y, path, "body", 0, &m->load_body[i])) ||
        (rc = yt_get_vec(&c->y, y, path, "at", 3, "m", 0, NULL, m->load_at[i])) ||
        (rc = yt_get_enum(&c->y, y, path, "frame", 0, frames, HS_FRAME_GLOBAL,
                          &m->load_frame[i])) ||
        (rc = yt_get_vec(&c->y, y, path, "force", 3, "N", 0, NULL, m->load_force_dir[i])) ||
        (rc = yt_get_vec(&c->y, y, path, "torque", 3, "N m", 0, NULL, m->load_torque_dir[i])) ||
        (rc = signal_ref(c, y, path, "force_signal", &m->load_force_sig[i])))
        return rc;
    return signal_ref(c, y, path, "torque_signal", &m->load_torque_sig[i]);
}

static int parse_loads(ctx *c)
{
    static const char *const keys[] = {"name", "body", "at", "frame", "force", "torque",
                                       "force_signal", "torque_signal", NULL};
    return named_list(c, c->root, "", "loads", HS_MAX_LOADS, "HS_MAX_LOADS", keys, "load", 0, c->d->load_name,
                      c->load_map, &c->d->model.nload, load_item);
}

/* A payload: a point mass `mass` s(t) at `at` (body frame) on `body`, s the knot signal
 * `signal`, continuous (no jump: a mass does not appear at once) and >= 0 (kernels/hs_dynamics.h,
 * hs_payloads_add). */
static int pay_item(ctx *c, const yt_node *y, const char *path, int i)
{
    hs_model *m = &c->d->model;
    char kp[160];
    int rc, k, n, k0;
    if ((rc = body_ref(c, y, path, "body", 0, &m->pay_body[i])) ||
        (rc = yt_get_vec(&c->y, y, path, "at", 3, "m", 0, NULL, m->pay_at[i])) ||
        (rc = yt_get_num(&c->y, y, path, "mass", "kg", 1, 0.0, &m->pay_mass[i])) ||
        (rc = yt_get_vec(&c->y, y, path, "inertia", 6, "kg m^2", 0, NULL, m->pay_inertia[i])) ||
        (rc = signal_ref(c, y, path, "signal", &m->pay_sig[i])))
        return rc;
    if (!(m->pay_mass[i] > 0.0))
        return yt_fail(&c->y, HS_ERR_VALUE, yt_map_get(y, "mass"), yt_join(kp, sizeof kp, path, "mass"),
                       "mass must be > 0");
    if (m->pay_sig[i] < 0) return yt_missing(&c->y, y, path, "signal");
    k = m->pay_sig[i];
    if (m->sig_kind[k] != HS_SIGK_KNOTS)
        return yt_fail(&c->y, HS_ERR_VALUE, yt_map_get(y, "signal"), yt_join(kp, sizeof kp, path, "signal"),
                       "a payload's signal must be given by knots (its value scales the mass: 0 not held, 1 held)");
    k0 = m->sig_start[k];
    n = m->sig_n[k];
    for (k = 0; k < n; ++k) {
        if (!(m->knot_v[k0 + k] >= 0.0))
            return yt_fail(&c->y, HS_ERR_VALUE, yt_map_get(y, "signal"), yt_join(kp, sizeof kp, path, "signal"),
                           "signal '%s' takes the value %g at knot %d: a payload's signal scales its mass, "
                           "so it must be >= 0", c->d->signal_name[m->pay_sig[i]], m->knot_v[k0 + k], k);
        if (k > 0 && m->knot_t[k0 + k] == m->knot_t[k0 + k - 1] && m->knot_v[k0 + k] != m->knot_v[k0 + k - 1])
            return yt_fail(&c->y, HS_ERR_VALUE, yt_map_get(y, "signal"), yt_join(kp, sizeof kp, path, "signal"),
                           "signal '%s' jumps at t = %g s: a payload is picked up or set down over a time "
                           "(ramp its signal, e.g. over 0.2 s), its mass cannot appear at once",
                           c->d->signal_name[m->pay_sig[i]], m->knot_t[k0 + k]);
    }
    return HS_OK;
}

static int parse_payloads(ctx *c)
{
    static const char *const keys[] = {"name", "body", "at", "mass", "inertia", "signal", NULL};
    return named_list(c, c->root, "", "payloads", HS_MAX_PAY, "HS_MAX_PAY", keys, "payload", 0, c->d->pay_name,
                      c->pay_map, &c->d->model.npay, pay_item);
}

static int parse_integrator(ctx *c)
{
    hs_model *m = &c->d->model;
    const yt_node *y = yt_map_get(c->root, "integrator");
    const char *p = "integrator";
    int rc, r;
    c->integ = y;
    hs_irule_defaults(m); /* every numeric setting: kernels/hs_rules.h */
    m->newton = HS_NEWTON_AUTO;
    m->predictor = HS_PRED_AUTO;
    m->formulation = HS_FORM_PENALTY;
    m->step = HS_STEP_FIXED;
    m->method = HS_METHOD_AUTO;
    m->coupling = HS_COUPLE_MONOLITHIC;
    if (!y) return HS_OK;
    if ((rc = yt_need(&c->y, y, YT_MAP, p)) || (rc = yt_check_keys(&c->y, y, p, hs_integrator_keys))) return rc;
    for (r = 0; r < HS_IR_COUNT; ++r) {
        double *v = hs_irule_ptr(m, r);
        if ((rc = yt_get_num(&c->y, y, p, hs_irules[r].key, hs_irules[r].file_units, 0, *v, v))) return rc;
    }
    if ((rc = yt_get_enum(&c->y, y, p, "newton", 0, hs_newton_names, HS_NEWTON_AUTO, &m->newton)) ||
        (rc = yt_get_enum(&c->y, y, p, "predictor", 0, hs_predictor_names, HS_PRED_AUTO, &m->predictor)) ||
        (rc = yt_get_enum(&c->y, y, p, "formulation", 0, hs_formulation_names, HS_FORM_PENALTY,
                          &m->formulation)) ||
        (rc = yt_get_enum(&c->y, y, p, "step", 0, hs_step_names, HS_STEP_FIXED, &m->step)) ||
        (rc = yt_get_enum(&c->y, y, p, "method", 0, hs_method_names, HS_METHOD_AUTO, &m->method)) ||
        (rc = yt_get_enum(&c->y, y, p, "coupling", 0, hs_coupling_names, HS_COUPLE_MONOLITHIC, &m->coupling)))
        return rc;
    return HS_OK;
}

/* The cosim section: the co-simulation's configuration (kernels/hs_cosim.h; seed 004 Pub. III
 * Table 3), used when integrator.coupling is cosim. Defaults: i3al_p (i1al's stabilisation:
 * xi = 1, critical damping, omega = 10 rad/s: kernels/hs_i1al.h), the trapezoidal rule
 * (A-stable: the explicit methods need h_hyd below the stiffest volume's limit, which the
 * cranes' small valve volume breaks at 0.1 ms; Pub. III chose Euler for its circuit), the force
 * exchanged, Lagrange order 2 for the hydraulics' inputs (the choice of every row of Pub. III
 * Table 4 but one) and 0 for the mechanics' (Table 3), h_hyd = 0.1 ms (Table 3). The
 * integrate choice is the hydraulics' only: "integrate" as mechanics_extrapolation is refused
 * by the rules (kernels/hs_rules.h). On a model without cylinders there is nothing to co-simulate. */
static int parse_cosim(ctx *c)
{
    static const char *const keys[] = {"mechanics", "hydraulics", "exchange", "extrapolation",
                                       "mechanics_extrapolation", "h_hyd", "i1al_xi", "i1al_omega", NULL};
    hs_model *m = &c->d->model;
    const yt_node *y = yt_map_get(c->root, "cosim");
    const char *p = "cosim";
    int rc;
    c->cosim = y;
    m->cosim_mech = HS_CMECH_I3AL_P;
    m->cosim_hyd = HS_CHYD_TRAPEZOIDAL;
    m->cosim_exchange = HS_CEX_FORCE;
    m->cosim_extrap = 2;
    m->cosim_extrap_mech = 0;
    m->cosim_h_hyd = 1e-4;
    m->cosim_i1al_xi = 1.0;
    m->cosim_i1al_omega = 10.0;
    if (!y) return HS_OK;
    if (m->ncyl == 0)
        return yt_fail(&c->y, HS_ERR_SCHEMA, yt_map_key(c->root, "cosim"), "cosim",
                       "the model has no hydraulic cylinder: co-simulation couples a mechanism and "
                       "its cylinders' hydraulics (hydraulics.cylinders), so a cosim section needs one");
    if ((rc = yt_need(&c->y, y, YT_MAP, p)) || (rc = yt_check_keys(&c->y, y, p, keys)) ||
        (rc = yt_get_enum(&c->y, y, p, "mechanics", 0, hs_cosim_mech_names, HS_CMECH_I3AL_P, &m->cosim_mech)) ||
        (rc = yt_get_enum(&c->y, y, p, "hydraulics", 0, hs_cosim_hyd_names, HS_CHYD_TRAPEZOIDAL, &m->cosim_hyd)) ||
        (rc = yt_get_enum(&c->y, y, p, "exchange", 0, hs_cosim_exchange_names, HS_CEX_FORCE, &m->cosim_exchange)) ||
        (rc = yt_get_enum(&c->y, y, p, "extrapolation", 0, hs_cosim_extrap_names, 2, &m->cosim_extrap)) ||
        (rc = yt_get_enum(&c->y, y, p, "mechanics_extrapolation", 0, hs_cosim_extrap_names, 0,
                          &m->cosim_extrap_mech)) ||
        (rc = yt_get_num(&c->y, y, p, "h_hyd", "s", 0, 1e-4, &m->cosim_h_hyd)) ||
        (rc = yt_get_num(&c->y, y, p, "i1al_xi", "", 0, 1.0, &m->cosim_i1al_xi)) ||
        (rc = yt_get_num(&c->y, y, p, "i1al_omega", "rad/s", 0, 10.0, &m->cosim_i1al_omega)))
        return rc;
    return HS_OK;
}

/* ---- hydraulics ---- */

/* The fluid section; required when hydraulics is given. B_oil and rho are checked > 0 here as
 * well as in model_validate.c: without hydraulics a 0 would make no fluid parameters and so
 * escape the validator. */
static int parse_fluid(ctx *c)
{
    static const char *const keys[] = {"B_oil", "rho", "p_vapour", "air_fraction", "polytropic_index", NULL};
    hs_model *m = &c->d->model;
    const yt_node *y = yt_map_get(c->root, "fluid");
    const char *p = "fluid";
    char kp[128];
    int rc;
    c->fluid = y;
    m->p_vapour = HS_P_VAPOUR_DEFAULT;
    m->air_fraction = 0.0;
    m->air_n = 1.0;
    if (!y) {
        const yt_node *h = yt_map_get(c->root, "hydraulics");
        if (h)
            return yt_fail(&c->y, HS_ERR_SCHEMA, yt_map_key(c->root, "hydraulics"), "fluid",
                           "a fluid section (B_oil, rho) is required when hydraulics is given");
        return HS_OK;
    }
    if ((rc = yt_need(&c->y, y, YT_MAP, p)) || (rc = yt_check_keys(&c->y, y, p, keys)) ||
        (rc = yt_get_num(&c->y, y, p, "B_oil", "Pa", 1, 0.0, &m->B_oil)) ||
        (rc = yt_get_num(&c->y, y, p, "rho", "kg/m^3", 1, 0.0, &m->rho)) ||
        (rc = yt_get_num(&c->y, y, p, "p_vapour", "Pa", 0, HS_P_VAPOUR_DEFAULT, &m->p_vapour)) ||
        (rc = yt_get_num(&c->y, y, p, "air_fraction", "", 0, 0.0, &m->air_fraction)) ||
        (rc = yt_get_num(&c->y, y, p, "polytropic_index", "", 0, 1.0, &m->air_n)))
        return rc;
    if (!(m->B_oil > 0.0))
        return yt_fail(&c->y, HS_ERR_VALUE, yt_map_get(y, "B_oil"),
                       yt_join(kp, sizeof kp, p, "B_oil"), "B_oil must be > 0");
    if (!(m->rho > 0.0))
        return yt_fail(&c->y, HS_ERR_VALUE, yt_map_get(y, "rho"), yt_join(kp, sizeof kp, p, "rho"),
                       "rho must be > 0");
    return HS_OK;
}

/* A node name: volume v -> v, source s -> nvol + s. vol_only: the node must be a volume. */
static int node_name(ctx *c, const char *name, const yt_node *node, const char *kp, const char *key, int vol_only,
                     int *out);

static int node_ref(ctx *c, const yt_node *y, const char *path, const char *key, int vol_only,
                    int *out, const yt_node **node)
{
    char name[128], kp[128];
    int rc = yt_get_str(&c->y, y, path, key, 1, 0, name, sizeof name, node);
    if (rc != HS_OK) return rc;
    yt_join(kp, sizeof kp, path, key);
    return node_name(c, name, *node, kp, key, vol_only, out);
}

/* The node called name (its YAML node, key path kp, the key's name for the message): a volume,
 * or (unless vol_only) a source, into *out. */
static int node_name(ctx *c, const char *name, const yt_node *node, const char *kp, const char *key, int vol_only,
                     int *out)
{
    char sug[400];
    const hs_model_desc *d = c->d;
    int s;
    *out = find_name((const char(*)[HS_NAME_LEN])d->vol_name, d->model.nvol, name);
    if (*out >= 0) return HS_OK;
    s = find_name((const char(*)[HS_NAME_LEN])d->src_name, d->model.nsrc, name);
    if (s >= 0 && vol_only)
        return yt_fail(&c->y, HS_ERR_VALUE, node, kp,
                       "'%s' is a source: %s must be a volume (hydraulics.volumes)", name, key);
    if (s >= 0) {
        *out = d->model.nvol + s;
        return HS_OK;
    }
    {
        hs_near L;
        memset(&L, 0, sizeof L);
        for (s = 0; s < d->model.nvol + (vol_only ? 0 : d->model.nsrc); ++s)
            hs_near_add(&L, name, s < d->model.nvol ? d->vol_name[s] : d->src_name[s - d->model.nvol]);
        return yt_fail(&c->y, HS_ERR_VALUE, node, kp, "%s '%s' is not a %s defined in hydraulics%s", key, name,
                       vol_only ? "volume" : "node (a volume or source)", hs_near_text(&L, sug, sizeof sug));
    }
}

/* Volumes and sources are both nodes: one name space. The later definition is reported. */
static int check_nodes_unique(ctx *c, const yt_node *const *vnames, const yt_node *const *snames)
{
    const hs_model_desc *d = c->d;
    int nv = d->model.nvol, n = nv + d->model.nsrc, i, j;
    char kp[128];
    for (i = 0; i < n; ++i)
        for (j = 0; j < i; ++j) {
            const char *a = i < nv ? d->vol_name[i] : d->src_name[i - nv];
            const char *b = j < nv ? d->vol_name[j] : d->src_name[j - nv];
            const yt_node *na = i < nv ? vnames[i] : snames[i - nv];
            const yt_node *nb = j < nv ? vnames[j] : snames[j - nv];
            int ia = i < nv ? i : i - nv, ib = j < nv ? j : j - nv;
            const char *la = i < nv ? "volumes" : "sources", *lb = j < nv ? "volumes" : "sources";
            if (strcmp(a, b) != 0) continue;
            if (na->line < nb->line || (na->line == nb->line && na->col < nb->col)) {
                const yt_node *t = na;
                const char *tl = la;
                int ti = ia;
                na = nb, nb = t, la = lb, lb = tl, ia = ib, ib = ti;
            }
            snprintf(kp, sizeof kp, "hydraulics.%s[%d].name", la, ia);
            return yt_fail(&c->y, HS_ERR_VALUE, na, kp,
                           "duplicate node name '%s' (first defined at line %d in hydraulics.%s; "
                           "volumes and sources share one name space)",
                           a, nb->line, lb);
        }
    return HS_OK;
}

/* The internal volumes of the hoses of hydraulics.components, appended to the volumes before
 * any node is referenced (a source's node number follows the volumes): hose NAME of N segments
 * gets NAME_1 .. NAME_(N-1), each a segment's oil (vol_V and vol_B follow from the hose's
 * parameters in hs_model_derive). Its segments are read and checked here, with their error. */
static int hose_volumes(ctx *c, const yt_node *h, const yt_node **vnames)
{
    hs_model *m = &c->d->model;
    const yt_node *l = yt_map_get(h, "components");
    char path[64], kp[96];
    int i, k, rc;
    for (i = 0; l && l->type == YT_SEQ && i < l->n && i < HS_MAX_CMP; ++i) {
        const yt_node *y = l->kid[i], *t = y->type == YT_MAP ? yt_map_get(y, "type") : NULL, *nm;
        char name[HS_NAME_LEN];
        double ns;
        c->hose_v0[i] = -1;
        if (!t || t->type != YT_SCALAR || !t->text || strcmp(t->text, "hose") != 0) continue;
        snprintf(path, sizeof path, "hydraulics.components[%d]", i);
        if ((rc = yt_get_str(&c->y, y, path, "name", 1, 1, name, sizeof name, &nm)) ||
            (rc = yt_get_num(&c->y, y, path, "segments", "", 0, 2.0, &ns)))
            return rc;
        yt_join(kp, sizeof kp, path, "segments");
        if (!(ns >= 1.0 && ns <= HS_HOSE_MAX_SEG && ns == floor(ns)))
            return yt_fail(&c->y, HS_ERR_VALUE, yt_map_get(y, "segments"), kp,
                           "segments must be an integer from 1 to %d (the lumped segments of the line), not %g",
                           HS_HOSE_MAX_SEG, ns);
        if (m->nvol + (int)ns - 1 > HS_MAX_VOLS)
            return yt_fail(&c->y, HS_ERR_VALUE, yt_map_get(y, "segments"), kp,
                           "hose '%s' of %d segments has %d internal volumes, and with the others they are %d, "
                           "more than HS_MAX_VOLS = %d: fewer segments",
                           name, (int)ns, (int)ns - 1, m->nvol + (int)ns - 1, HS_MAX_VOLS);
        c->hose_v0[i] = ns > 1.0 ? m->nvol : -1;
        for (k = 1; k < (int)ns; ++k) {
            int v = m->nvol, n = snprintf(c->d->vol_name[v], HS_NAME_LEN, "%s_%d", name, k);
            if (n < 0 || n >= HS_NAME_LEN)
                return yt_fail(&c->y, HS_ERR_VALUE, nm, yt_join(kp, sizeof kp, path, "name"),
                               "hose name '%s' is too long to name its internal volumes %s_1 .. (at most %d "
                               "characters in all)",
                               name, name, HS_NAME_LEN - 1);
            if (find_name((const char(*)[HS_NAME_LEN])c->d->vol_name, v, c->d->vol_name[v]) >= 0 ||
                find_name((const char(*)[HS_NAME_LEN])c->d->src_name, m->nsrc, c->d->vol_name[v]) >= 0)
                return yt_fail(&c->y, HS_ERR_VALUE, nm, yt_join(kp, sizeof kp, path, "name"),
                               "hose '%s' names its internal volumes %s_1 .. %s_%d, and '%s' is a node already: "
                               "rename the hose or that node",
                               name, name, name, (int)ns - 1, c->d->vol_name[v]);
            m->vol_V[v] = 0.0; /* hs_model_derive */
            m->vol_B[v] = 1.0;
            m->vol_p0[v] = 1e5; /* hs_init sets the line at rest between its ends */
            m->vol_model[v] = HS_VOL_LUMPED;
            m->vol_gamma[v][0] = m->vol_gamma[v][1] = 1.0;
            m->vol_cyl[v] = -1;
            m->vol_side[v] = 0;
            c->vol_map[v] = y;
            vnames[v] = nm;
            m->nvol++;
        }
    }
    return HS_OK;
}

static int parse_sources_volumes(ctx *c, const yt_node *h)
{
    static const char *const skeys[] = {"name", "p", NULL};
    static const char *const vkeys[] = {"name", "V", "B", "p0", "model", "gamma_plus", "gamma_minus", NULL};
    hs_model *m = &c->d->model;
    const yt_node *sl, *vl, *snames[HS_MAX_SRCS], *vnames[HS_MAX_VOLS];
    char path[64];
    int rc, i;
    if ((rc = yt_get_list_in(&c->y, h, "hydraulics", "sources", HS_MAX_SRCS, "HS_MAX_SRCS", 0,
                             &sl)) ||
        (rc =
             yt_get_list_in(&c->y, h, "hydraulics", "volumes", HS_MAX_VOLS, "HS_MAX_VOLS", 0, &vl)))
        return rc;
    for (i = 0; sl && i < sl->n; ++i) {
        const yt_node *y = sl->kid[i];
        snprintf(path, sizeof path, "hydraulics.sources[%d]", i);
        if ((rc = list_item(c, y, path, skeys, c->d->src_name[i], &snames[i])) ||
            (rc = yt_get_num(&c->y, y, path, "p", "Pa", 1, 0.0, &m->src_p[i])))
            return rc;
        c->src_map[i] = y;
    }
    m->nsrc = sl ? sl->n : 0;
    for (i = 0; vl && i < vl->n; ++i) {
        const yt_node *y = vl->kid[i];
        snprintf(path, sizeof path, "hydraulics.volumes[%d]", i);
        if ((rc = list_item(c, y, path, vkeys, c->d->vol_name[i], &vnames[i])) ||
            (rc = yt_get_num(&c->y, y, path, "V", "m^3", 1, 0.0, &m->vol_V[i])) ||
            (rc = yt_get_num(&c->y, y, path, "B", "Pa", 1, 0.0, &m->vol_B[i])) ||
            (rc = yt_get_num(&c->y, y, path, "p0", "Pa", 0, 1e5, &m->vol_p0[i])) ||
            (rc = yt_get_enum(&c->y, y, path, "model", 0, hs_vol_model_names, HS_VOL_LUMPED, &m->vol_model[i])) ||
            (rc = yt_get_num(&c->y, y, path, "gamma_plus", "", 0, 1.0, &m->vol_gamma[i][0])) ||
            (rc = yt_get_num(&c->y, y, path, "gamma_minus", "", 0, 1.0, &m->vol_gamma[i][1])))
            return rc;
        m->vol_cyl[i] = -1; /* set by the cylinder whose chamber it is */
        m->vol_side[i] = 0;
        c->vol_map[i] = y;
    }
    m->nvol = vl ? vl->n : 0;
    if ((rc = hose_volumes(c, h, vnames))) return rc;
    return check_nodes_unique(c, vnames, snames);
}

static int throttle_item(ctx *c, const yt_node *y, const char *path, int i)
{
    hs_model *m = &c->d->model;
    const yt_node *node;
    int rc;
    if ((rc = node_ref(c, y, path, "from", 0, &m->thr_a[i], &node)) ||
        (rc = node_ref(c, y, path, "to", 0, &m->thr_b[i], &node)))
        return rc;
    m->thr_Cd[i] = m->thr_A[i] = m->thr_Cv_given[i] = 0.0;
    if (yt_map_get(y, "Cv")) {
        if ((rc = yt_forbid(&c->y, y, path, "Cd", "give either Cv or Cd and A, not both")) ||
            (rc = yt_forbid(&c->y, y, path, "A", "give either Cv or Cd and A, not both")) ||
            (rc = yt_get_num(&c->y, y, path, "Cv", "m^3/(s sqrt(Pa))", 1, 0.0,
                             &m->thr_Cv_given[i])))
            return rc;
    } else if ((rc = yt_get_num(&c->y, y, path, "Cd", "", 1, 0.0, &m->thr_Cd[i])) ||
               (rc = yt_get_num(&c->y, y, path, "A", "m^2", 1, 0.0, &m->thr_A[i]))) {
        return rc;
    }
    return yt_get_num(&c->y, y, path, "dp_lim", "Pa", 0, 2e5, &m->thr_dplim[i]);
}

static int parse_throttles(ctx *c, const yt_node *h)
{
    static const char *const keys[] = {"name", "from", "to", "Cd", "A", "Cv", "dp_lim", NULL};
    return named_list(c, h, "hydraulics", "throttles", HS_MAX_THR, "HS_MAX_THR", keys, "throttle", 0, c->d->thr_name,
                      c->thr_map, &c->d->model.nthr, throttle_item);
}

/* Exactly one of keys a and b; the later one is reported when both are given. */
static int one_of(ctx *c, const yt_node *y, const char *path, const char *a, const char *b,
                  const char *what)
{
    const yt_node *ka = yt_map_get(y, a) ? yt_map_key(y, a) : NULL;
    const yt_node *kb = yt_map_get(y, b) ? yt_map_key(y, b) : NULL;
    char kp[128];
    if (ka && kb) {
        const yt_node *later =
            kb->line > ka->line || (kb->line == ka->line && kb->col > ka->col) ? kb : ka;
        return yt_fail(&c->y, HS_ERR_SCHEMA, later, yt_join(kp, sizeof kp, path, later->text),
                       "give either %s or %s, not both (%s)", a, b, what);
    }
    if (!ka && !kb)
        return yt_fail(&c->y, HS_ERR_SCHEMA, y, yt_join(kp, sizeof kp, path, a),
                       "one of %s or %s is required (%s)", a, b, what);
    return HS_OK;
}

static int valve_item(ctx *c, const yt_node *y, const char *path, int i)
{
    static const char *const kpath[4] = {"k_PA", "k_BT", "k_PB", "k_AT"};
    hs_model *m = &c->d->model;
    const yt_node *node;
    char kp[128];
    static const char *const not_seat[] = {"B", "k_PA", "k_BT", "k_PB", "k_AT", "dp_comp", "U_ls", NULL};
    int rc, k, kind;
    if ((rc = yt_get_enum(&c->y, y, path, "type", 0, hs_dcv_kind_names, HS_DCV_DIRECTIONAL, &kind))) return rc;
    m->dcv_kind[i] = kind;
    if (kind != HS_DCV_DIRECTIONAL) { /* a seat valve: ports P, A (and T); on/off by U in [0, 1] */
        const char *bad = NULL;
        for (k = 0; not_seat[k] && !bad; ++k)
            if (yt_map_get(y, not_seat[k])) bad = not_seat[k];
        if (!bad && kind == HS_DCV_SEAT_2_2 && yt_map_get(y, "T")) bad = "T";
        if (bad)
            return yt_fail(&c->y, HS_ERR_SCHEMA, yt_map_key(y, bad), yt_join(kp, sizeof kp, path, bad),
                           "a %s valve has no %s (its ports: P, A%s; opened by U_ref from 0 to 1)",
                           hs_dcv_kind_names[kind], bad, kind == HS_DCV_SEAT_3_2 ? " and T" : "");
    }
    if ((rc = node_ref(c, y, path, "P", 0, &m->dcv_P[i], &node)) ||
        (rc = node_ref(c, y, path, "A", 1, &m->dcv_A[i], &node)))
        return rc;
    if (kind == HS_DCV_SEAT_2_2) {
        m->dcv_T[i] = m->dcv_P[i];
        m->dcv_B[i] = m->dcv_A[i];
    } else if ((rc = node_ref(c, y, path, "T", 0, &m->dcv_T[i], &node))) {
        return rc;
    } else if (kind == HS_DCV_SEAT_3_2) {
        m->dcv_B[i] = m->dcv_A[i];
    } else if ((rc = node_ref(c, y, path, "B", 1, &m->dcv_B[i], &node))) {
        return rc;
    }
    if ((rc = yt_get_num(&c->y, y, path, "Cv", kind ? "m^3/(s sqrt(Pa))" : "m^3/(s V sqrt(Pa))", 1, 0.0,
                         &m->dcv_Cv[i])))
        return rc;
    for (k = 0; k < 4; ++k)
        if ((rc = yt_get_num(&c->y, y, path, kpath[k], "", 0, 1.0, &m->dcv_kpath[i][k])))
            return rc;
    if ((rc = one_of(c, y, path, "tau", "f45",
                     "the spool time constant, or the -45 degree frequency")))
        return rc;
    if (yt_map_get(y, "tau")) {
        if ((rc = yt_get_num(&c->y, y, path, "tau", "s", 1, 0.0, &m->dcv_tau[i]))) return rc;
    } else {
        double f45;
        if ((rc = yt_get_num(&c->y, y, path, "f45", "Hz", 1, 0.0, &f45))) return rc;
        if (!(f45 > 0.0))
            return yt_fail(&c->y, HS_ERR_VALUE, yt_map_get(y, "f45"),
                           yt_join(kp, sizeof kp, path, "f45"), "f45 must be > 0");
        m->dcv_tau[i] = 1.0 / (2.0 * HS_PI * f45);
    }
    if ((rc = yt_get_num(&c->y, y, path, "dp_lim", "Pa", 0, 2e5, &m->dcv_dplim[i])) ||
        (rc = yt_get_num(&c->y, y, path, "U0", "V", 0, 0.0, &m->dcv_U0[i])) ||
        (rc = signal_ref(c, y, path, "U_ref", &m->dcv_sig[i])) ||
        (rc = yt_get_num(&c->y, y, path, "dp_comp", "Pa", 0, 0.0, &m->dcv_dpcomp[i])))
        return rc;
    return yt_get_num(&c->y, y, path, "U_ls", "V", 0, 0.5, &m->dcv_Uls[i]);
}

static int parse_valves(ctx *c, const yt_node *h)
{
    static const char *const keys[] = {"name", "type", "P", "T", "A", "B", "Cv", "k_PA", "k_BT",
                                       "k_PB", "k_AT", "tau", "f45", "dp_lim", "U0", "U_ref",
                                       "dp_comp", "U_ls", NULL};
    return named_list(c, h, "hydraulics", "valves", HS_MAX_DCV, "HS_MAX_DCV", keys, "valve", 0, c->d->dcv_name,
                      c->dcv_map, &c->d->model.ndcv, valve_item);
}

/* A chamber volume of cylinder i (side 0 piston, 1 rod): a volume no other side uses. */
static int chamber_ref(ctx *c, const yt_node *y, const char *path, int i, int side)
{
    static const char *const key[2] = {"piston_volume", "rod_volume"};
    static const char *const sname[2] = {"piston", "rod"};
    hs_model *m = &c->d->model;
    const yt_node *node;
    char kp[128];
    int v, rc = node_ref(c, y, path, key[side], 1, &v, &node);
    if (rc != HS_OK) return rc;
    yt_join(kp, sizeof kp, path, key[side]);
    if (side == 1 && v == m->cyl_vol_p[i])
        return yt_fail(&c->y, HS_ERR_VALUE, node, kp,
                       "piston_volume and rod_volume must be different volumes");
    if (m->vol_cyl[v] >= 0)
        return yt_fail(&c->y, HS_ERR_VALUE, node, kp,
                       "volume '%s' is already the %s-side chamber of cylinder '%s' (a volume is "
                       "the chamber of at most one cylinder side)",
                       c->d->vol_name[v], sname[m->vol_side[v]], c->d->cyl_name[m->vol_cyl[v]]);
    m->vol_cyl[v] = i;
    m->vol_side[v] = side;
    if (side == 0)
        m->cyl_vol_p[i] = v;
    else
        m->cyl_vol_r[i] = v;
    return HS_OK;
}

static int parse_cyl_friction(ctx *c, const yt_node *y, const char *path, int i)
{
    const char *keys[HS_FP_COUNT + 2];
    hs_model *m = &c->d->model;
    const yt_node *f = yt_map_get(y, "friction");
    char fp[96];
    int rc, k;
    m->cyl_fric[i] = HS_FRIC_NONE;
    for (k = 0; k < HS_FP_COUNT; ++k) m->cyl_fp[i][k] = hs_fric_param_defaults[k];
    for (; k < HS_MAX_FP; ++k) m->cyl_fp[i][k] = 0.0;
    if (!f) return HS_OK;
    keys[0] = "model";
    for (k = 0; k <= HS_FP_COUNT; ++k) keys[k + 1] = hs_fric_param_keys[k]; /* NULL last */
    yt_join(fp, sizeof fp, path, "friction");
    if ((rc = yt_need(&c->y, f, YT_MAP, fp)) || (rc = yt_check_keys(&c->y, f, fp, keys)) ||
        (rc = yt_get_enum(&c->y, f, fp, "model", 0, hs_friction_names, HS_FRIC_NONE,
                          &m->cyl_fric[i])))
        return rc;
    for (k = 0; k < HS_FP_COUNT; ++k)
        if ((rc = yt_get_num(&c->y, f, fp, hs_fric_param_keys[k], hs_fric_param_units[k], 0,
                             hs_fric_param_defaults[k], &m->cyl_fp[i][k])))
            return rc;
    return HS_OK;
}

static int parse_cyl_dampers_init(ctx *c, const yt_node *y, const char *path, int i)
{
    static const char *const dkeys[] = {"l_d", "k_d", "c_d", NULL};
    static const char *const ikeys[] = {"mode", "p_rod", "p_piston", "F", NULL};
    static const char *const modes[] = {"pressures", "equilibrium", "force", NULL};
    hs_model *m = &c->d->model;
    const yt_node *dm = yt_map_get(y, "end_dampers"), *im = yt_map_get(y, "init");
    char sp[96], kp[128];
    int rc, mode;
    m->cyl_ld[i] = m->cyl_kd[i] = m->cyl_cd[i] = 0.0;
    m->cyl_init[i] = HS_CYLINIT_PRESSURES;
    m->cyl_init_p[i] = m->cyl_init_F[i] = 0.0;
    if (dm) {
        yt_join(sp, sizeof sp, path, "end_dampers");
        if ((rc = yt_need(&c->y, dm, YT_MAP, sp)) || (rc = yt_check_keys(&c->y, dm, sp, dkeys)) ||
            (rc = yt_get_num(&c->y, dm, sp, "l_d", "m", 1, 0.0, &m->cyl_ld[i])) ||
            (rc = yt_get_num(&c->y, dm, sp, "k_d", "N/m", 1, 0.0, &m->cyl_kd[i])) ||
            (rc = yt_get_num(&c->y, dm, sp, "c_d", "N s/m", 1, 0.0, &m->cyl_cd[i])))
            return rc;
        /* l_d = 0 would mean "no dampers" and drop their parameters: refuse it here */
        if (!(m->cyl_ld[i] > 0.0))
            return yt_fail(&c->y, HS_ERR_VALUE, yt_map_get(dm, "l_d"),
                           yt_join(kp, sizeof kp, sp, "l_d"),
                           "l_d must be > 0 (leave end_dampers out for none)");
    }
    if (!im) return HS_OK;
    yt_join(sp, sizeof sp, path, "init");
    if ((rc = yt_need(&c->y, im, YT_MAP, sp)) || (rc = yt_check_keys(&c->y, im, sp, ikeys)) ||
        (rc = yt_get_enum(&c->y, im, sp, "mode", 0, modes, 0, &mode)))
        return rc;
    if (mode == 0) {
        m->cyl_init[i] = HS_CYLINIT_PRESSURES;
        if ((rc = yt_forbid(&c->y, im, sp, "p_rod", "mode pressures uses the volumes' p0 only")) ||
            (rc = yt_forbid(&c->y, im, sp, "p_piston",
                            "mode pressures uses the volumes' p0 only")) ||
            (rc = yt_forbid(&c->y, im, sp, "F", "F is used by mode force only")))
            return rc;
    } else if (mode == 1) {
        if ((rc = yt_forbid(&c->y, im, sp, "F", "F is used by mode force only")) ||
            (rc = one_of(c, im, sp, "p_rod", "p_piston",
                         "mode equilibrium takes the pressure of one chamber")))
            return rc;
        m->cyl_init[i] = yt_map_get(im, "p_rod") ? HS_CYLINIT_EQ_PROD : HS_CYLINIT_EQ_PPISTON;
        if ((rc = yt_get_num(&c->y, im, sp, m->cyl_init[i] == HS_CYLINIT_EQ_PROD ? "p_rod" : "p_piston", "Pa", 1,
                             0.0, &m->cyl_init_p[i])))
            return rc;
    } else {
        m->cyl_init[i] = HS_CYLINIT_FORCE;
        if ((rc = yt_forbid(&c->y, im, sp, "p_piston", "mode force takes F and p_rod")) ||
            (rc = yt_get_num(&c->y, im, sp, "F", "N", 1, 0.0, &m->cyl_init_F[i])) ||
            (rc = yt_get_num(&c->y, im, sp, "p_rod", "Pa", 1, 0.0, &m->cyl_init_p[i])))
            return rc;
    }
    return HS_OK;
}

static int cylinder_item(ctx *c, const yt_node *y, const char *path, int i)
{
    hs_model *m = &c->d->model;
    int rc;
    if ((rc = body_ref(c, y, path, "body_a", 1, &m->cyl_body_a[i])) ||
        (rc = yt_get_vec(&c->y, y, path, "at_a", 3, "m", 0, NULL, m->cyl_at_a[i])) ||
        (rc = body_ref(c, y, path, "body_b", 1, &m->cyl_body_b[i])) ||
        (rc = yt_get_vec(&c->y, y, path, "at_b", 3, "m", 0, NULL, m->cyl_at_b[i])) ||
        (rc = yt_get_num(&c->y, y, path, "d_piston", "m", 1, 0.0, &m->cyl_d_piston[i])) ||
        (rc = yt_get_num(&c->y, y, path, "d_rod", "m", 1, 0.0, &m->cyl_d_rod[i])) ||
        (rc = yt_get_num(&c->y, y, path, "stroke", "m", 1, 0.0, &m->cyl_stroke[i])) ||
        (rc = yt_get_num(&c->y, y, path, "l_piston0", "m", 1, 0.0, &m->cyl_l_p0[i])) ||
        (rc = yt_get_num(&c->y, y, path, "B_wall", "Pa", 1, 0.0, &m->cyl_B[i])) ||
        (rc = chamber_ref(c, y, path, i, 0)) || (rc = chamber_ref(c, y, path, i, 1)) ||
        (rc = parse_cyl_friction(c, y, path, i)))
        return rc;
    return parse_cyl_dampers_init(c, y, path, i);
}

static int parse_cylinders(ctx *c, const yt_node *h)
{
    static const char *const keys[] = {"name", "body_a", "at_a", "body_b", "at_b",
                                       "d_piston", "d_rod", "stroke", "l_piston0", "B_wall",
                                       "piston_volume", "rod_volume", "friction",
                                       "end_dampers", "init", NULL};
    return named_list(c, h, "hydraulics", "cylinders", HS_MAX_CYLS, "HS_MAX_CYLS", keys, "cylinder", 1,
                      c->d->cyl_name, c->cyl_map, &c->d->model.ncyl, cylinder_item);
}

/* A load-sensing pump's sense: a node (its pressure), or a list of valve sections (their
 * highest load pressure through the shuttle valves: hs_ls_pressure). */
static int ls_sense(ctx *c, const yt_node *y, const char *path, int i)
{
    hs_model *m = &c->d->model;
    const yt_node *s = yt_map_get(y, "sense"), *node;
    char kp[128], name[128];
    int k, rc, v;
    yt_join(kp, sizeof kp, path, "sense");
    if (s && s->type == YT_SCALAR && s->text &&
        find_name((const char(*)[HS_NAME_LEN])c->d->dcv_name, m->ndcv, s->text) >= 0 &&
        find_name((const char(*)[HS_NAME_LEN])c->d->vol_name, m->nvol, s->text) < 0 &&
        find_name((const char(*)[HS_NAME_LEN])c->d->src_name, m->nsrc, s->text) < 0)
        return yt_fail(&c->y, HS_ERR_VALUE, s, kp,
                       "'%s' is a valve section: list it (sense: [%s]) to sense its load pressure", s->text,
                       s->text);
    if (!s || s->type != YT_SEQ) return node_ref(c, y, path, "sense", 0, &m->cmp_ref[i], &node);
    if (s->n < 1)
        return yt_fail(&c->y, HS_ERR_VALUE, s, kp, "sense must name a node, or list one or more valve sections");
    for (k = 0; k < s->n; ++k) {
        const yt_node *e = s->kid[k];
        char ek[160], sug[400];
        snprintf(ek, sizeof ek, "%s[%d]", kp, k);
        if (e->type != YT_SCALAR || !e->text || (rc = (int)strlen(e->text)) >= (int)sizeof name)
            return yt_fail(&c->y, HS_ERR_SCHEMA, e, ek, "a valve section's name (hydraulics.valves)");
        snprintf(name, sizeof name, "%s", e->text);
        v = find_name((const char(*)[HS_NAME_LEN])c->d->dcv_name, m->ndcv, name);
        if (v < 0)
            return yt_fail(&c->y, HS_ERR_VALUE, e, ek, "'%s' is not a valve of hydraulics.valves%s", name,
                           NEAR(name, c->d->dcv_name, m->ndcv, sug));
        if ((m->cmp_lsmask[i] >> v) & 1)
            return yt_fail(&c->y, HS_ERR_VALUE, e, ek, "valve '%s' is listed twice", name);
        m->cmp_lsmask[i] |= 1 << v;
    }
    return HS_OK;
}

/* A shuttle valve's inputs: a list of two nodes, into cmp_a and cmp_ref. */
static int shuttle_inputs(ctx *c, const yt_node *y, const char *path, int i)
{
    hs_model *m = &c->d->model;
    const yt_node *s = yt_map_get(y, "inputs");
    char kp[128], ek[160];
    int k, rc, *out[2];
    out[0] = &m->cmp_a[i];
    out[1] = &m->cmp_ref[i];
    yt_join(kp, sizeof kp, path, "inputs");
    if (!s) return yt_fail(&c->y, HS_ERR_SCHEMA, y, kp, "a shuttle valve needs inputs: [NODE, NODE] (its two inputs)");
    if (s->type != YT_SEQ || s->n != 2)
        return yt_fail(&c->y, HS_ERR_VALUE, s, kp,
                       "a shuttle valve has two inputs, not %d: inputs: [NODE, NODE] (chain shuttle valves "
                       "through small volumes to select among more)",
                       s->type == YT_SEQ ? s->n : 1);
    for (k = 0; k < 2; ++k) {
        const yt_node *e = s->kid[k];
        snprintf(ek, sizeof ek, "%s[%d]", kp, k);
        if (e->type != YT_SCALAR || !e->text)
            return yt_fail(&c->y, HS_ERR_SCHEMA, e, ek, "an input's node name (a volume or source)");
        if ((rc = node_name(c, e->text, e, ek, "input", 0, out[k]))) return rc;
    }
    if (m->cmp_a[i] == m->cmp_ref[i])
        return yt_fail(&c->y, HS_ERR_VALUE, s, kp, "a shuttle valve's two inputs must be different nodes");
    return HS_OK;
}

/* hydraulics.components (kernels/hs_components.h): each a type, its nodes (from and to, or
 * at; a pilot valve's pilot, a shuttle's inputs), a load-sensing pump's sensed node, a
 * motor's joint (by its body's name), and its type's parameters (hs_cmp_params). */
static int parse_component(ctx *c, const yt_node *y, const char *path, int i)
{
    const char *keys[8 + HS_CMP_NPAR];
    hs_model *m = &c->d->model;
    const yt_node *node;
    int rc, type, nk = 0, k;
    if ((rc = yt_need(&c->y, y, YT_MAP, path)) ||
        (rc = yt_get_enum(&c->y, y, path, "type", 1, hs_cmp_type_names, 0, &type)))
        return rc;
    keys[nk++] = "name";
    keys[nk++] = "type";
    if (hs_cmp_ports(type) == HS_PORTS_AT) {
        keys[nk++] = "at";
    } else {
        keys[nk++] = hs_cmp_ports(type) == HS_PORTS_INPUTS ? "inputs" : "from";
        keys[nk++] = "to";
    }
    if (hs_cmp_ports(type) == HS_PORTS_PILOT || hs_cmp_ports(type) == HS_PORTS_PILOT_OPT) keys[nk++] = "pilot";
    if (type == HS_CMP_PUMP_LS) keys[nk++] = "sense";
    if (type == HS_CMP_MOTOR) keys[nk++] = "joint";
    for (k = 0; k < hs_ncmp_params; ++k)
        if (hs_cmp_params[k].type == type) keys[nk++] = hs_cmp_params[k].key;
    keys[nk] = NULL;
    m->cmp_type[i] = type;
    m->cmp_ref[i] = m->cmp_b[i] = -1;
    for (k = 0; k < HS_CMP_NPAR; ++k) m->cmp_par[i][k] = 0.0;
    if ((rc = yt_check_keys(&c->y, y, path, keys))) return rc;
    if (hs_cmp_ports(type) == HS_PORTS_AT) {
        if ((rc = node_ref(c, y, path, "at", 1, &m->cmp_a[i], &node))) return rc;
    } else if (hs_cmp_ports(type) == HS_PORTS_INPUTS) {
        if ((rc = shuttle_inputs(c, y, path, i)) || (rc = node_ref(c, y, path, "to", 0, &m->cmp_b[i], &node)))
            return rc;
    } else if ((rc = node_ref(c, y, path, "from", 0, &m->cmp_a[i], &node)) ||
               (rc = node_ref(c, y, path, "to", 0, &m->cmp_b[i], &node))) {
        return rc;
    }
    if ((hs_cmp_ports(type) == HS_PORTS_PILOT || (hs_cmp_ports(type) == HS_PORTS_PILOT_OPT && yt_map_get(y, "pilot"))) &&
        (rc = node_ref(c, y, path, "pilot", 0, &m->cmp_ref[i], &node)))
        return rc;
    m->cmp_lsmask[i] = 0;
    if (type == HS_CMP_PUMP_LS && (rc = ls_sense(c, y, path, i))) return rc;
    if (type == HS_CMP_MOTOR && (rc = body_ref(c, y, path, "joint", 0, &m->cmp_ref[i]))) return rc;
    if (type == HS_CMP_HOSE) m->cmp_ref[i] = c->hose_v0[i];
    for (k = 0; k < hs_ncmp_params; ++k) {
        const hs_cmp_param_def *pd = &hs_cmp_params[k];
        if (pd->type != type) continue;
        if ((rc = yt_get_num(&c->y, y, path, pd->key, pd->unit, pd->def == HS_CMP_REQUIRED,
                             pd->def == HS_CMP_REQUIRED ? 0.0 : pd->def, &m->cmp_par[i][pd->slot])))
            return rc;
    }
    m->cmp_dyn[i] = hs_cmp_nstates(type, m->cmp_par[i]);
    c->cmp_map[i] = y;
    return HS_OK;
}

static int parse_components(ctx *c, const yt_node *h)
{
    c->d->model.ncmp = 0;
    /* the keys depend on the type: parse_component checks them */
    return named_list(c, h, "hydraulics", "components", HS_MAX_CMP, "HS_MAX_CMP", NULL, "component", 1,
                      c->d->cmp_name, c->cmp_map, &c->d->model.ncmp, parse_component);
}

static int parse_hydraulics(ctx *c)
{
    static const char *const keys[] = {"sources", "volumes", "throttles", "valves",
                                       "cylinders", "components", NULL};
    const yt_node *h;
    int rc;
    if ((rc = parse_fluid(c))) return rc;
    h = yt_map_get(c->root, "hydraulics");
    if (!h) return HS_OK;
    if ((rc = yt_need(&c->y, h, YT_MAP, "hydraulics")) ||
        (rc = yt_check_keys(&c->y, h, "hydraulics", keys)) || (rc = parse_sources_volumes(c, h)) ||
        (rc = parse_throttles(c, h)) || (rc = parse_valves(c, h)) || (rc = parse_cylinders(c, h)) ||
        (rc = parse_components(c, h)))
        return rc;
    return HS_OK;
}

/* The YAML node a validation rule points at, and its dotted YAML key. */
/* The node of a (possibly dotted) field inside map, trying the YAML spellings of a model
 * field that has more than one (a valve's tau may be given as f45, a cylinder's init.p as
 * init.p_rod or init.p_piston, a throttle's Cd and A instead of Cv). *yk receives the key
 * found; NULL if none, with *yk the deepest mapping reached (or ""). */
static const yt_node *field_node(const yt_node *map, const char *field, char *yk, size_t n,
                                 const yt_node **deepest)
{
    static const char *const alias[][2] = {{"tau", "f45"},
                                           {"init.p", "init.p_rod"},
                                           {"init.p", "init.p_piston"},
                                           {"Cv", "Cd"}};
    size_t a;
    int pass;
    *deepest = map;
    yk[0] = '\0';
    for (pass = 0; pass < 2; ++pass)
        for (a = 0; a < (pass ? sizeof alias / sizeof alias[0] : 1); ++a) {
            const char *f = pass ? alias[a][1] : field, *dot;
            const yt_node *sub = map, *v;
            if (pass && strcmp(alias[a][0], field) != 0) continue;
            dot = strchr(f, '.');
            if (dot) {
                char head[32];
                size_t hl = (size_t)(dot - f);
                if (hl >= sizeof head) continue;
                memcpy(head, f, hl);
                head[hl] = '\0';
                sub = yt_map_get(map, head);
                if (!sub || sub->type != YT_MAP) continue;
                if (!pass) *deepest = sub;
                f = dot + 1;
            }
            v = yt_map_get(sub, f);
            if (v) {
                snprintf(yk, n, "%s", pass ? alias[a][1] : field);
                return v;
            }
        }
    return NULL;
}

static const yt_node *where_node(const ctx *c, const hs_where *w, char *key, size_t n)
{
    const yt_node *map = NULL, *v, *deep;
    const char *list = "";
    char yk[48];
    int y = w->index;
    switch (w->kind) {
    case HS_WHERE_FLUID:
        snprintf(key, n, "fluid.%s", w->field);
        v = c->fluid ? yt_map_get(c->fluid, w->field) : NULL;
        return v ? v : c->fluid ? c->fluid : c->root;
    case HS_WHERE_SOURCE: map = c->src_map[w->index]; list = "hydraulics.sources"; break;
    case HS_WHERE_VOLUME: map = c->vol_map[w->index]; list = "hydraulics.volumes"; break;
    case HS_WHERE_THROTTLE: map = c->thr_map[w->index]; list = "hydraulics.throttles"; break;
    case HS_WHERE_VALVE: map = c->dcv_map[w->index]; list = "hydraulics.valves"; break;
    case HS_WHERE_CYLINDER: map = c->cyl_map[w->index]; list = "hydraulics.cylinders"; break;
    case HS_WHERE_COMPONENT: map = c->cmp_map[w->index]; list = "hydraulics.components"; break;
    case HS_WHERE_BODY: map = c->body_map[w->index]; list = "bodies"; y = c->body_y[w->index]; break;
    case HS_WHERE_JOINT: map = c->joint_map[w->index]; list = "joints"; y = c->joint_y[w->index]; break;
    case HS_WHERE_CUT: map = c->cut_map[w->index]; list = "cuts"; break;
    case HS_WHERE_POINT: map = c->point_map[w->index]; list = "points"; break;
    case HS_WHERE_LOAD: map = c->load_map[w->index]; list = "loads"; break;
    case HS_WHERE_PAYLOAD: map = c->pay_map[w->index]; list = "payloads"; break;
    case HS_WHERE_SIGNAL: map = c->signal_map[w->index]; list = "signals"; break;
    case HS_WHERE_MODEL:
        /* the rules on dt and t_end (dt <= t_end, t_end / dt <= HS_MAX_STEPS) are about
         * both: point at the other where only that one was given */
        if ((!strcmp(w->field, "dt") || !strcmp(w->field, "t_end")) && c->integ &&
            !yt_map_get(c->integ, w->field)) {
            const char *other = !strcmp(w->field, "dt") ? "t_end" : "dt";
            if (yt_map_get(c->integ, other)) {
                snprintf(key, n, "integrator.%s", other);
                return yt_map_get(c->integ, other);
            }
        }
        if (!strncmp(w->field, "cosim.", 6)) {
            snprintf(key, n, "%s", w->field);
            v = c->cosim ? yt_map_get(c->cosim, w->field + 6) : NULL;
            return v ? v : c->cosim ? c->cosim : c->integ ? c->integ : c->root;
        }
        if (hs_is_integrator_key(w->field)) {
            snprintf(key, n, "integrator.%s", w->field);
            v = c->integ ? yt_map_get(c->integ, w->field) : NULL;
            return v ? v : c->integ ? c->integ : c->root;
        }
        snprintf(key, n, "%s", w->field);
        v = w->field[0] ? yt_map_get(c->root, w->field) : NULL;
        return v ? v : c->root;
    default: /* a parameter as such: the loader never produces non-finite values */
        snprintf(key, n, "%s", w->field);
        return c->root;
    }
    if (!map) {
        key[0] = '\0';
        return c->root;
    }
    if (w->kind >= HS_WHERE_SOURCE && w->kind <= HS_WHERE_COMPONENT) {
        v = field_node(map, w->field, yk, sizeof yk, &deep);
        snprintf(key, n, "%s[%d].%s", list, y, v ? yk : w->field);
        return v ? v : deep;
    }
    v = yt_map_get(map, w->field);
    if (v && w->comp >= 0 && v->type == YT_SEQ && w->comp < v->n) {
        snprintf(key, n, "%s[%d].%s[%d]", list, y, w->field, w->comp);
        return v->kid[w->comp];
    }
    snprintf(key, n, "%s[%d].%s", list, y, w->field);
    return v ? v : map;
}

/* outputs: {every: K} (a tree's outputs also name bodies: host/tree/tree_load.c). */
static int parse_outputs(ctx *c)
{
    static const char *const keys[] = {"every", NULL};
    const yt_node *y = yt_map_get(c->root, "outputs");
    int rc;
    if (!y) return HS_OK;
    if ((rc = yt_need(&c->y, y, YT_MAP, "outputs")) || (rc = yt_check_keys(&c->y, y, "outputs", keys))) return rc;
    return hs_parse_every(&c->y, y, 1, &c->d->out_every);
}

static int load_root(ctx *c)
{
    static const char *const keys[] = {"name", "source", "gravity", "bodies", "joints",
                                       "cuts", "points", "signals", "loads", "payloads", "fluid",
                                       "hydraulics", "integrator", "cosim", "outputs", NULL};
    hs_model_desc *d = c->d;
    hs_where w;
    hs_error verr;
    int rc;
    if (!c->root)
        return hs_error_set(c->y.err, HS_ERR_SCHEMA, c->y.file, 1, 1, "",
                            "the model file is empty");
    if ((rc = yt_need(&c->y, c->root, YT_MAP, ""))) return rc;
    {
        /* an open tree of the Riccati method (any size, ball joints): host/tree/tree_load.c */
        const yt_node *in = yt_map_get(c->root, "integrator"), *f = in && in->type == YT_MAP ? yt_map_get(in, "formulation") : NULL;
        if (f && f->type == YT_SCALAR && !strcmp(f->text, "riccati"))
            return yt_fail(&c->y, HS_ERR_VALUE, f, "integrator.formulation",
                           "riccati models (open trees of any size, seed 002) run with `hydrosweep simulate`, "
                           "`info`, `run` and `validate` (sweeps) and `kernel`; linearize, circuit and the "
                           "Python model API take the formulations penalty and double_step only, for now");
    }
    if ((rc = yt_check_keys(&c->y, c->root, "", keys)) ||
        (rc = yt_get_str(&c->y, c->root, "", "name", 1, 1, d->name, sizeof d->name, NULL)))
        return rc;
    if (yt_map_get(c->root, "source") && yt_map_get(c->root, "source")->type != YT_SCALAR)
        return yt_need(&c->y, yt_map_get(c->root, "source"), YT_SCALAR, "source");
    if ((rc = yt_get_vec(&c->y, c->root, "", "gravity", 3, "m/s^2", 0, NULL, d->model.gravity)) ||
        (rc = parse_bodies_joints(c)) || (rc = parse_cuts(c)) || (rc = parse_points(c)) ||
        (rc = parse_signals(c)) || (rc = parse_loads(c)) || (rc = parse_payloads(c)) || (rc = parse_hydraulics(c)) ||
        (rc = parse_integrator(c)) || (rc = parse_cosim(c)) || (rc = parse_outputs(c)))
        return rc;
    hs_model_derive(&d->model);
    if ((rc = hs_params_build(d, c->y.err)) != HS_OK) return rc;
    rc = hs_model_validate_where(d, &verr, &w);
    if (rc != HS_OK) {
        char key[128];
        const yt_node *at = where_node(c, &w, key, sizeof key);
        return hs_error_set(c->y.err, rc, c->y.file, at->line, at->col, key, "%s", verr.msg);
    }
    return HS_OK;
}

/* ====================================================================================== */
/* public API                                                                             */
/* ====================================================================================== */

/* A loader's context for the parsed file root. */
static void ctx_begin(ctx *c, const char *path, hs_error *err, hs_model_desc *out, const yt_node *root)
{
    memset(c, 0, sizeof *c);
    c->y.file = path;
    c->y.err = err;
    c->y.what = "model file";
    c->d = out;
    c->root = root;
}

int hs_model_load_inputs(const char *text, const char *path, const char (*body_name)[HS_NAME_LEN], int nbody,
                         hs_model_desc *out, hs_error *err)
{
    ctx c;
    yt_node *root = NULL;
    hs_where w;
    hs_error verr;
    int rc;
    memset(out, 0, sizeof *out);
    snprintf(out->path, sizeof out->path, "%s", path);
    if ((rc = yt_parse(text, path, "model file", &root, err)) != HS_OK) return rc;
    ctx_begin(&c, path, err, out, root);
    c.tbody_name = body_name;
    c.ntbody = nbody;
    /* the tree loader checked the file's keys and reads the rest */
    rc = parse_signals(&c);
    if (!rc) rc = parse_loads(&c);
    if (!rc && (rc = hs_model_validate_inputs(out, nbody, &verr, &w)) != HS_OK) {
        char key[128];
        const yt_node *at = where_node(&c, &w, key, sizeof key);
        rc = hs_error_set(err, rc, path, at->line, at->col, key, "%s", verr.msg);
    }
    yt_free(root);
    return rc;
}

int hs_model_load_text(const char *text, const char *path, hs_model_desc *out, hs_error *err)
{
    ctx c;
    yt_node *root = NULL;
    size_t len;
    int rc;
    if (!out) return hs_error_set(err, HS_ERR_ARG, path, 0, 0, "", "no output descriptor");
    memset(out, 0, sizeof *out);
    if (!path) path = "<text>";
    if (!text) return hs_error_set(err, HS_ERR_ARG, path, 0, 0, "", "no model text");
    if (strlen(path) >= sizeof out->path) /* kept whole, or messages would name another file */
        return hs_error_set(err, HS_ERR_LIMIT, "", 0, 0, "", "the model file's path has %lu characters, more than the %d a path may have: %.60s...",
                            (unsigned long)strlen(path), (int)sizeof out->path - 1, path);
    snprintf(out->path, sizeof out->path, "%s", path);
    if (err) memset(err, 0, sizeof *err);
    rc = yt_parse(text, path, "model file", &root, err);
    if (rc != HS_OK) return rc;
    ctx_begin(&c, path, err, out, root);
    rc = load_root(&c);
    yt_free(root);
    if (rc == HS_OK) {
        len = strlen(text);
        out->text = (char *)malloc(len + 1);
        if (!out->text)
            rc = hs_error_set(err, HS_ERR_IO, path, 0, 0, "", "out of memory");
        else
            memcpy(out->text, text, len + 1);
    }
    if (rc != HS_OK) {
        hs_model_desc_free(out);
        memset(out, 0, sizeof *out);
        snprintf(out->path, sizeof out->path, "%s", path);
    }
    return rc;
}

int hs_model_load(const char *path, hs_model_desc *out, hs_error *err)
{
    char *buf = NULL;
    int rc;
    if (out) memset(out, 0, sizeof *out);
    if (!path) return hs_error_set(err, HS_ERR_ARG, "", 0, 0, "", "no model file given");
    if ((rc = yt_read_file(path, "model file", &buf, err)) != HS_OK) return rc;
    rc = hs_model_load_text(buf, path, out, err);
    free(buf);
    return rc;
}

void hs_model_desc_free(hs_model_desc *d)
{
    if (!d) return;
    if (d->ops) d->ops->free(d);
    free(d->text);
    free(d->param);
    d->text = NULL;
    d->param = NULL;
    d->nparam = 0;
}

int hs_body_find(const hs_model_desc *d, const char *name)
{
    if (!d || !name) return -1;
    return find_name((const char(*)[HS_NAME_LEN])d->body_name, d->model.nbody, name);
}

int hs_point_find(const hs_model_desc *d, const char *name)
{
    if (!d || !name) return -1;
    return find_name((const char(*)[HS_NAME_LEN])d->point_name, d->model.npoint, name);
}

int hs_model_source(const hs_model_desc *d, char *buf, size_t n)
{
    yt_node *root = NULL;
    const yt_node *v;
    if (!buf || n == 0) return -1;
    buf[0] = '\0';
    if (!d || !d->text || yt_parse(d->text, d->path, "model file", &root, NULL) != HS_OK) return -1;
    v = root && root->type == YT_MAP ? yt_map_get(root, "source") : NULL;
    if (v && v->type == YT_SCALAR) snprintf(buf, n, "%s", v->text);
    yt_free(root);
    return 0;
}
