/* tree_load.c -- model files of open trees for the Riccati transfer matrix method (seed 002),
 * of any size (hs/tree.h).
 *
 * The bodies and joints are read by the same rules as every model file (model_parts.c); a
 * chain repeats a body and a joint template count times. Names are looked up through a
 * sorted index and the tree is ordered depth first from the ground, so a file of 10^5 bodies
 * loads in O(N log N). Everything the size decides is checked before it is allocated: the
 * count against HS_TREE_MAX_BODIES and the bytes against this machine's memory. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hs/tree.h"
#include "hs_model_derive.h"
#include "hs_rotvec.h"
#include "hs_rules.h"
#include "model/model_parts.h"
#include "base/fileio.h"
#include "base/suggest.h"
#include "base/yaml_tree.h"

typedef struct tctx {
    yt_ctx y;
    hs_tree_model *t;
    const yt_node *root;
    tbody *tb; /* (nb) explicit bodies, then the chains' */
    tjoint *tj; /* (nb) one joint per body, the same order once built */
    int nb, nj;
    int nj_listed; /* joints of the joints list (the chains' follow) */
    int *chain; /* (nb) the chain of tb[i], -1: listed in bodies */
    const char *text; /* the file's text (its signals and loads: hs_model_load_inputs) */
} tctx;

#define CHAIN_NAME_MAX 32 /* a chain's name: its bodies are <name>_<k> (k <= 10^7) */

/* hs_tree_model's per-body arrays (member, values per body): those the view hs_tree shares, then its own */
#define TREE_VIEW_ARRAYS(X) X(parent, 1) X(jtype, 1) X(iq, 1) X(iv, 1) X(mass, 1) X(com, 3) X(inertia, 6) \
    X(at_parent, 3) X(at_child, 3) X(axis, 3)
#define TREE_ARRAYS(X) TREE_VIEW_ARRAYS(X) X(rot0, 9) X(body_name, 1) X(joint_name, 1) X(length, 1) X(chain_of, 1)

/* The integrator section: formulation riccati (required), method rk4, dt, t_end. */
static int parse_integrator(tctx *c)
{
    static const char *const keys[] = {"formulation", "method", "dt", "t_end", NULL};
    static const char *const forms[] = {"riccati", NULL};
    static const char *const methods[] = {"rk4", NULL};
    const yt_node *y = yt_map_get(c->root, "integrator");
    int rc, f, m;
    if (!y) return yt_missing(&c->y, c->root, "", "integrator");
    if ((rc = yt_need(&c->y, y, YT_MAP, "integrator")) || (rc = yt_check_keys(&c->y, y, "integrator", keys)) ||
        (rc = yt_get_enum(&c->y, y, "integrator", "formulation", 1, forms, 0, &f)) ||
        (rc = yt_get_enum(&c->y, y, "integrator", "method", 0, methods, 0, &m)) ||
        (rc = yt_get_num(&c->y, y, "integrator", "dt", "s", 0, 1e-3, &c->t->dt)) ||
        (rc = yt_get_num(&c->y, y, "integrator", "t_end", "s", 0, 1.0, &c->t->t_end)))
        return rc;
    if (!(c->t->dt > 0.0) || !isfinite(c->t->dt))
        return yt_fail(&c->y, HS_ERR_VALUE, yt_map_get(y, "dt"), "integrator.dt", "dt must be positive and finite");
    if (!(c->t->t_end >= 0.0) || !isfinite(c->t->t_end))
        return yt_fail(&c->y, HS_ERR_VALUE, yt_map_get(y, "t_end"), "integrator.t_end",
                       "t_end must be >= 0 and finite");
    /* the rules of every model (model_validate.c): one step at least, at most HS_MAX_STEPS */
    if (!(c->t->dt <= c->t->t_end))
        return yt_fail(&c->y, HS_ERR_VALUE, yt_map_get(y, "dt"), "integrator.dt",
                       "dt must be > 0 and <= t_end (dt = %g s, t_end = %g s)", c->t->dt, c->t->t_end);
    if (c->t->t_end / c->t->dt > HS_MAX_STEPS)
        return yt_fail(&c->y, HS_ERR_LIMIT, yt_map_get(y, "t_end"), "integrator.t_end",
                       "t_end / dt must be at most %.0e steps (HS_MAX_STEPS), is %.3g: raise dt or shorten t_end",
                       HS_MAX_STEPS, c->t->t_end / c->t->dt);
    return HS_OK;
}

/* A chain's count, checked against the limit. */
static int chain_count(tctx *c, const yt_node *ch, const char *path, long *n)
{
    double v;
    char kp[96];
    int rc;
    if ((rc = yt_get_num(&c->y, ch, path, "count", "", 1, 0.0, &v))) return rc;
    if (v > (double)HS_TREE_MAX_BODIES)
        return yt_fail(&c->y, HS_ERR_LIMIT, yt_map_get(ch, "count"), yt_join(kp, sizeof kp, path, "count"),
                       "count = %.15g bodies, more than HS_TREE_MAX_BODIES = %d (they would need %.3g GB)", v,
                       HS_TREE_MAX_BODIES, v * (double)HS_TREE_BYTES_PER_BODY / 1e9);
    if (!(v >= 1.0) || v != floor(v))
        return yt_fail(&c->y, HS_ERR_VALUE, yt_map_get(ch, "count"), yt_join(kp, sizeof kp, path, "count"),
                       "count must be a whole number of bodies from 1 to HS_TREE_MAX_BODIES = %d", HS_TREE_MAX_BODIES);
    *n = (long)v;
    return HS_OK;
}

/* The sizes: bodies and joints listed, and the chains' counts; the total against the limit and
 * this machine's memory, before anything is allocated. */
static int count_bodies(tctx *c, const yt_node **bl, const yt_node **jl, const yt_node **cl, long *total)
{
    char path[48];
    const char *who;
    double need, have = hs_mem_available(&who);
    long n = 0, k;
    int rc, i;
    const yt_node *last = NULL;
    if ((rc = yt_get_list_in(&c->y, c->root, "", "bodies", HS_TREE_MAX_BODIES, "HS_TREE_MAX_BODIES", 0, bl)) ||
        (rc = yt_get_list_in(&c->y, c->root, "", "joints", HS_TREE_MAX_BODIES, "HS_TREE_MAX_BODIES", 0, jl)) ||
        (rc = yt_get_list_in(&c->y, c->root, "", "chains", 100000, "100000 chains", 0, cl)))
        return rc;
    n = *bl ? (*bl)->n : 0;
    if (*cl)
        for (i = 0; i < (*cl)->n; ++i) {
            const yt_node *ch = (*cl)->kid[i];
            snprintf(path, sizeof path, "chains[%d]", i);
            if ((rc = yt_need(&c->y, ch, YT_MAP, path)) || (rc = chain_count(c, ch, path, &k))) return rc;
            n += k;
            last = yt_map_get(ch, "count");
            if (n > HS_TREE_MAX_BODIES)
                return yt_fail(&c->y, HS_ERR_LIMIT, last, "chains", "%ld bodies in all, more than HS_TREE_MAX_BODIES = %d",
                               n, HS_TREE_MAX_BODIES);
        }
    if (n == 0) return yt_fail(&c->y, HS_ERR_VALUE, c->root, "bodies", "at least one body is required (bodies or chains)");
    /* the tree, its loader's records and the integrator's work and stages */
    need = (double)n * ((double)HS_TREE_BYTES_PER_BODY + 2.0 * (double)sizeof(tbody) + (double)sizeof(tjoint));
    if (have > 0.0 && need > 0.5 * have)
        return yt_fail(&c->y, HS_ERR_LIMIT, last ? last : *bl, last ? "chains" : "bodies",
                       "%ld bodies need %.3g GB to load and integrate, more than half of what %s (%.3g GB)",
                       n, need / 1e9, who, have / 1e9);
    *total = n;
    return HS_OK;
}

/* The chains' bodies and joints, appended to c->tb, c->tj from index c->nb. */
static int expand_chains(tctx *c, const yt_node *cl)
{
    static const char *const keys[] = {"name", "count", "parent", "body", "joint", "first_joint", NULL};
    char path[48], kp[96], name[CHAIN_NAME_MAX + 1], parent[128];
    int i, rc;
    for (i = 0; cl && i < cl->n; ++i) {
        const yt_node *ch = cl->kid[i], *nn;
        tbody b;
        tjoint jt, jf;
        long n, k;
        snprintf(path, sizeof path, "chains[%d]", i);
        if ((rc = yt_check_keys(&c->y, ch, path, keys)) ||
            (rc = yt_get_str(&c->y, ch, path, "name", 1, 1, name, sizeof name, &nn)) ||
            (rc = chain_count(c, ch, path, &n)) ||
            (rc = yt_get_str(&c->y, ch, path, "parent", 1, 0, parent, sizeof parent, NULL)))
            return rc;
        snprintf(c->t->chain_name[i], HS_NAME_LEN, "%s", name);
        if (strlen(name) >= CHAIN_NAME_MAX)
            return yt_fail(&c->y, HS_ERR_VALUE, nn, yt_join(kp, sizeof kp, path, "name"),
                           "a chain's name has at most %d characters (its bodies are <name>_<k>)", CHAIN_NAME_MAX - 1);
        if (!yt_map_get(ch, "body")) return yt_missing(&c->y, ch, path, "body");
        if (!yt_map_get(ch, "joint")) return yt_missing(&c->y, ch, path, "joint");
        if ((rc = hs_parse_body(&c->y, yt_map_get(ch, "body"), yt_join(kp, sizeof kp, path, "body"), HS_PART_TEMPLATE,
                                &b)) ||
            (rc = hs_parse_joint(&c->y, yt_map_get(ch, "joint"), yt_join(kp, sizeof kp, path, "joint"),
                                 HS_PART_TEMPLATE | HS_PART_TREE, &jt)))
            return rc;
        if (yt_map_get(ch, "first_joint")) {
            if ((rc = hs_parse_joint(&c->y, yt_map_get(ch, "first_joint"), yt_join(kp, sizeof kp, path, "first_joint"),
                                     HS_PART_TEMPLATE | HS_PART_TREE, &jf)))
                return rc;
        } else {
            jf = jt;
        }
        for (k = 1; k <= n; ++k) {
            tbody *bb = &c->tb[c->nb];
            tjoint *jj = &c->tj[c->nj];
            *bb = b;
            *jj = k == 1 ? jf : jt;
            snprintf(bb->name, sizeof bb->name, "%s_%ld", name, k);
            bb->name_node = nn;
            snprintf(jj->name, sizeof jj->name, "%s_j%ld", name, k);
            jj->name_node = jj->parent_node = jj->child_node = k == 1 ? yt_map_get(ch, "parent") : nn;
            if (k == 1) snprintf(jj->parent, sizeof jj->parent, "%s", parent);
            else snprintf(jj->parent, sizeof jj->parent, "%s_%ld", name, k - 1);
            snprintf(jj->child, sizeof jj->child, "%s", bb->name);
            c->chain[c->nb] = i;
            ++c->nb;
            ++c->nj;
        }
    }
    return HS_OK;
}

/* A sorted index of the bodies' names. */
typedef struct name_ix {
    const char *name;
    int i;
} name_ix;

static int cmp_name(const void *a, const void *b)
{
    const name_ix *x = (const name_ix *)a, *y = (const name_ix *)b;
    int r = strcmp(x->name, y->name);
    return r ? r : (x->i > y->i) - (x->i < y->i);
}

static int find_body(const name_ix *ix, int n, const char *name)
{
    int lo = 0, hi = n - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2, r = strcmp(ix[mid].name, name);
        if (!r) return ix[mid].i;
        if (r < 0) lo = mid + 1;
        else hi = mid - 1;
    }
    return -1;
}

/* Orders the bodies depth first from the ground (parents before children, a chain's bodies
 * consecutive) and fills the tree's arrays; idx (n) and w (7 n + 2 ints) are its work. */
static int build_in(tctx *c, name_ix *idx, int *w)
{
    hs_tree_model *t = c->t;
    int n = c->nb, i, j;
    int *cj = w, *par = w + n, *first = w + 2 * n, *next = w + 3 * n + 1, *order = w + 4 * n + 1;
    int *stack = w + 5 * n + 1, *newidx = w + 6 * n + 2; /* first and stack: n + 1 */
    char kp[96];
    for (i = 0; i < n; ++i) {
        idx[i].name = c->tb[i].name;
        idx[i].i = i;
    }
    qsort(idx, (size_t)n, sizeof *idx, cmp_name);
    for (i = 1; i < n; ++i)
        if (!strcmp(idx[i].name, idx[i - 1].name)) {
            int later = idx[i].i; /* the later in file order (ties sort by index) */
            return yt_fail(&c->y, HS_ERR_VALUE, c->tb[later].name_node, "bodies", "duplicate body name '%s'",
                           c->tb[later].name);
        }
    for (i = 0; i < n; ++i) cj[i] = -1;
    for (j = 0; j < c->nj; ++j) {
        const tjoint *q = &c->tj[j];
        int ch = find_body(idx, n, q->child), pa = strcmp(q->parent, "ground") ? find_body(idx, n, q->parent) : -1;
        const char *where = j < c->nj_listed ? "joints" : "chains";
        if (ch < 0 && !strcmp(q->child, "ground"))
            return yt_fail(&c->y, HS_ERR_VALUE, q->child_node, yt_join(kp, sizeof kp, where, "child"),
                           "child must be a body, not ground");
        if (ch < 0 || (pa < 0 && strcmp(q->parent, "ground"))) {
            const char *want = ch < 0 ? q->child : q->parent;
            hs_near L;
            char sug[400];
            memset(&L, 0, sizeof L);
            for (i = 0; i < n; ++i) hs_near_add(&L, want, c->tb[i].name);
            return yt_fail(&c->y, HS_ERR_VALUE, ch < 0 ? q->child_node : q->parent_node,
                           yt_join(kp, sizeof kp, where, ch < 0 ? "child" : "parent"),
                           "%s '%s' is not a body defined in bodies or chains%s%s", ch < 0 ? "child" : "parent", want,
                           ch < 0 ? "" : ", or ground", hs_near_text(&L, sug, sizeof sug));
        }
        if (pa == ch)
            return yt_fail(&c->y, HS_ERR_VALUE, q->parent_node, yt_join(kp, sizeof kp, where, "parent"),
                           "a joint cannot connect body '%s' to itself", q->child);
        if (cj[ch] >= 0)
            return yt_fail(&c->y, HS_ERR_VALUE, q->child_node, yt_join(kp, sizeof kp, where, "child"),
                           "a body must be the child of exactly one joint: '%s' is already the child of joint '%s' "
                           "(an open tree has no loops; cut joints are the penalty formulation's)",
                           q->child, c->tj[cj[ch]].name);
        cj[ch] = j;
        par[ch] = pa;
    }
    for (i = 0; i < n; ++i)
        if (cj[i] < 0)
            return yt_fail(&c->y, HS_ERR_VALUE, c->tb[i].name_node, "bodies",
                           "a body must be the child of exactly one joint: no joint has child '%s'", c->tb[i].name);
    /* children lists (first child, next sibling) in reverse file order; the ground is index n */
    for (i = 0; i <= n; ++i) first[i] = -1;
    for (i = 0; i < n; ++i) newidx[i] = -1;
    for (i = 0; i < n; ++i) {
        int p = par[i] < 0 ? n : par[i];
        next[i] = first[p];
        first[p] = i;
    }
    {
        /* depth first, preorder from the ground: the last child is pushed first, so the first is visited first */
        int sp = 1, no = 0, k, b;
        stack[0] = n;
        while (sp > 0) {
            if ((b = stack[--sp]) < n) {
                order[no] = b;
                newidx[b] = no++;
            }
            for (k = first[b]; k >= 0; k = next[k]) stack[sp++] = k;
        }
        if (no < n) { /* the first body the walk from the ground did not reach */
            for (i = 0; i < n && newidx[i] >= 0; ++i) {
            }
            return yt_fail(&c->y, HS_ERR_VALUE, c->tj[cj[i]].parent_node, "joints",
                           "kinematic loop: body '%s' is not connected to ground through joints (an open tree "
                           "has no loops)",
                           c->tb[i].name);
        }
    }
    /* fill, in the new order */
    for (i = 0; i < n; ++i) {
        const tbody *b = &c->tb[order[i]];
        const tjoint *q = &c->tj[cj[order[i]]];
        int k, custom = b->shape == HS_SHAPE_CUSTOM;
        double com[3], J[6], nrm;
        t->parent[i] = par[order[i]] < 0 ? -1 : newidx[par[order[i]]];
        t->jtype[i] = q->type;
        t->mass[i] = b->mass;
        snprintf(t->body_name[i], HS_NAME_LEN, "%s", b->name);
        snprintf(t->joint_name[i], HS_NAME_LEN, "%s", q->name);
        t->length[i] = b->shape == HS_SHAPE_ROD || b->shape == HS_SHAPE_BEAM ? b->dim[0] : 0.0;
        t->chain_of[i] = c->chain[order[i]];
        if (!custom) hs_shape_inertia(b->shape, b->mass, b->dim, com, J);
        for (k = 0; k < 6; ++k) t->inertia[6L * i + k] = custom ? b->inertia[k] : J[k];
        for (k = 0; k < 3; ++k) t->com[3L * i + k] = custom || b->com_given ? b->com[k] : com[k];
        nrm = sqrt(q->axis[0] * q->axis[0] + q->axis[1] * q->axis[1] + q->axis[2] * q->axis[2]);
        if (!(nrm > 0.0))
            return yt_fail(&c->y, HS_ERR_VALUE, yt_map_get(q->map, "axis") ? yt_map_get(q->map, "axis") : q->map,
                           "joints.axis", "joint '%s': axis must be non-zero", q->name);
        for (k = 0; k < 3; ++k) {
            t->at_parent[3L * i + k] = q->at_parent[k];
            t->at_child[3L * i + k] = q->at_child[k];
            t->axis[3L * i + k] = q->axis[k] / nrm;
        }
        for (k = 0; k < 9; ++k) t->rot0[9L * i + k] = q->rot0[k];
    }
    /* coordinates */
    {
        int nq = 0, nv = 0;
        for (i = 0; i < n; ++i) {
            t->iq[i] = nq;
            t->iv[i] = nv;
            nq += hs_joint_nq(t->jtype[i]);
            nv += hs_joint_nv(t->jtype[i]);
            ++t->njoint[t->jtype[i]];
        }
        t->q0 = (double *)malloc(sizeof(double) * (size_t)nq);
        t->v0 = (double *)malloc(sizeof(double) * (size_t)nv);
        if (!t->q0 || !t->v0) return yt_fail(&c->y, HS_ERR_IO, NULL, "", "out of memory");
        for (i = 0; i < n; ++i) {
            const tjoint *q = &c->tj[cj[order[i]]];
            int k;
            if (q->type == HS_JOINT_BALL) {
                for (k = 0; k < 4; ++k) t->q0[t->iq[i] + k] = q->q0[k];
                for (k = 0; k < 3; ++k) t->v0[t->iv[i] + k] = q->w0[k];
            } else {
                t->q0[t->iq[i]] = q->z0;
                t->v0[t->iv[i]] = q->zd0;
            }
        }
        t->tree.nq = nq;
        t->tree.nv = nv;
    }
    /* a ball joint's body needs inertia about every axis through the joint point */
    for (i = 0; i < n; ++i)
        if (t->jtype[i] == HS_JOINT_BALL &&
            !hs_inertia_full_about(t->mass[i], t->com + 3L * i, t->at_child + 3L * i, t->inertia + 6L * i))
            return yt_fail(&c->y, HS_ERR_VALUE, c->tb[order[i]].map, "bodies",
                           "body '%s' on ball joint '%s' has no inertia about an axis through the joint point (a "
                           "rod's J_xx = 0, as seed 002's rods): the spin about that axis is undetermined and the "
                           "Riccati recursion cannot invert it; give the body a section (shape: beam) or a custom "
                           "inertia, or use a revolute joint",
                           t->body_name[i], c->tj[cj[order[i]]].name);
    return HS_OK;
}

static int build(tctx *c)
{
    name_ix *idx = (name_ix *)malloc(sizeof(name_ix) * (size_t)c->nb);
    int *w = (int *)malloc(sizeof(int) * (7 * (size_t)c->nb + 2)), rc;
    rc = idx && w ? build_in(c, idx, w) : yt_fail(&c->y, HS_ERR_IO, NULL, "", "out of memory");
    free(idx);
    free(w);
    return rc;
}

/* outputs: {bodies: [names], every: steps}. */
static int parse_outputs(tctx *c)
{
    static const char *const keys[] = {"bodies", "every", NULL};
    const yt_node *y = yt_map_get(c->root, "outputs"), *l;
    hs_tree_model *t = c->t;
    long nsteps = lround(t->t_end / t->dt);
    int rc, i;
    t->every = nsteps > 1000 ? nsteps / 1000 : 1;
    if (!y) return HS_OK;
    if ((rc = yt_need(&c->y, y, YT_MAP, "outputs")) || (rc = yt_check_keys(&c->y, y, "outputs", keys)) ||
        (rc = yt_get_list_in(&c->y, y, "outputs", "bodies", 64, "64 bodies", 0, &l)) ||
        (rc = hs_parse_every(&c->y, y, t->every, &t->every)))
        return rc;
    if (!l) return HS_OK;
    t->out_body = (int *)malloc(sizeof(int) * (size_t)(l->n ? l->n : 1));
    if (!t->out_body) return yt_fail(&c->y, HS_ERR_IO, NULL, "", "out of memory");
    for (i = 0; i < l->n; ++i) {
        const yt_node *b = l->kid[i];
        char kp[48];
        snprintf(kp, sizeof kp, "outputs.bodies[%d]", i);
        if (b->type != YT_SCALAR || (t->out_body[i] = hs_tree_body_find(t, b->text)) < 0)
            return yt_fail(&c->y, HS_ERR_VALUE, b, kp, "'%s' is not a body of the tree (a chain's bodies are <chain>_<k>)",
                           b->type == YT_SCALAR ? b->text : "(not a name)");
        t->nout = i + 1;
    }
    return HS_OK;
}

static int alloc_tree(hs_tree_model *t, long n)
{
    int ok = 1;
#define ALLOC_(f, k) ok &= (t->f = malloc(sizeof *t->f * (k) * (size_t)n)) != NULL;
    TREE_ARRAYS(ALLOC_)
#undef ALLOC_
    return ok;
}

static int load_root(tctx *c)
{
    static const char *const keys[] = {"name", "source", "gravity", "bodies", "joints", "chains", "integrator",
                                       "outputs", "cuts", "points", "signals", "loads", "fluid", "hydraulics", "cosim",
                                       NULL};
    static const char *const engine_only[] = {"cuts", "points", "fluid", "hydraulics", "cosim", NULL};
    hs_tree_model *t = c->t;
    const yt_node *bl, *jl, *cl;
    long total = 0;
    int rc, i;
    if (!c->root) return hs_error_set(c->y.err, HS_ERR_SCHEMA, c->y.file, 1, 1, "", "the model file is empty");
    if ((rc = yt_need(&c->y, c->root, YT_MAP, "")) || (rc = yt_check_keys(&c->y, c->root, "", keys)) ||
        (rc = yt_get_str(&c->y, c->root, "", "name", 1, 1, t->name, sizeof t->name, NULL)))
        return rc;
    for (i = 0; engine_only[i]; ++i)
        if (yt_map_key(c->root, engine_only[i])) {
            const char *why = !strcmp(engine_only[i], "cuts") ? "cut joints close loops, and the Riccati method "
                                                                "solves open trees (chains and branches) only"
                              : !strcmp(engine_only[i], "hydraulics") || !strcmp(engine_only[i], "fluid")
                                  ? "hydraulic cylinders on a Riccati tree are not supported yet (they will "
                                    "follow through co-simulation)"
                                  : "points locate cylinders, which a Riccati tree does not have yet (a load "
                                    "gives its own point: at)";
            return yt_fail(&c->y, HS_ERR_VALUE, yt_map_key(c->root, engine_only[i]), engine_only[i],
                           "%s: not with integrator.formulation: riccati (%s); use the penalty or double_step "
                           "formulation for this model",
                           engine_only[i], why);
        }
    if (yt_map_get(c->root, "source") && yt_map_get(c->root, "source")->type != YT_SCALAR)
        return yt_need(&c->y, yt_map_get(c->root, "source"), YT_SCALAR, "source");
    if ((rc = yt_get_vec(&c->y, c->root, "", "gravity", 3, "m/s^2", 0, NULL, t->tree.gravity)) ||
        (rc = parse_integrator(c)) || (rc = count_bodies(c, &bl, &jl, &cl, &total)))
        return rc;
    c->tb = (tbody *)calloc((size_t)total, sizeof *c->tb);
    c->tj = (tjoint *)calloc((size_t)total, sizeof *c->tj);
    c->chain = (int *)malloc(sizeof(int) * (size_t)total);
    t->nchain = cl ? cl->n : 0;
    t->chain_name = (char(*)[HS_NAME_LEN])calloc((size_t)(t->nchain > 0 ? t->nchain : 1), HS_NAME_LEN);
    if (!c->tb || !c->tj || !c->chain || !t->chain_name || !alloc_tree(t, total))
        return yt_fail(&c->y, HS_ERR_IO, NULL, "", "out of memory");
    for (i = 0; i < total; ++i) c->chain[i] = -1;
    for (i = 0; bl && i < bl->n; ++i) {
        char path[32];
        snprintf(path, sizeof path, "bodies[%d]", i);
        if ((rc = hs_parse_body(&c->y, bl->kid[i], path, 0, &c->tb[c->nb++]))) return rc;
    }
    for (i = 0; jl && i < jl->n; ++i) {
        char path[32];
        snprintf(path, sizeof path, "joints[%d]", i);
        if ((rc = hs_parse_joint(&c->y, jl->kid[i], path, HS_PART_TREE, &c->tj[c->nj++]))) return rc;
    }
    c->nj_listed = c->nj;
    if ((rc = expand_chains(c, cl))) return rc;
    if (c->nj != c->nb)
        return yt_fail(&c->y, HS_ERR_VALUE, jl ? jl : c->root, "joints",
                       "%d bodies and %d joints: an open tree has exactly one joint per body (its joint to its "
                       "parent)",
                       c->nb, c->nj);
    t->tree.nbody = c->nb;
    if ((rc = build(c))) return rc;
#define VIEW_(f, k) t->tree.f = t->f;
    TREE_VIEW_ARRAYS(VIEW_)
#undef VIEW_
    t->tree.rot0 = hs_tree_rot0_view(t->rot0, c->nb);
    t->tree.ext = NULL;
    t->tree.time = 0.0;
    if (yt_map_get(c->root, "signals") || yt_map_get(c->root, "loads")) { /* the model loader's rules */
        hs_model_desc *in = (hs_model_desc *)calloc(1, sizeof *in);
        if (!in) return yt_fail(&c->y, HS_ERR_IO, NULL, "", "out of memory");
        rc = hs_model_load_inputs(c->text, c->y.file, (const char(*)[HS_NAME_LEN])t->body_name, t->tree.nbody, in, c->y.err);
        if (rc == HS_OK && (t->inputs = (hs_model *)malloc(sizeof *t->inputs)) == NULL)
            rc = yt_fail(&c->y, HS_ERR_IO, NULL, "", "out of memory");
        if (rc == HS_OK) {
            *t->inputs = in->model;
            t->tree.ext = t->inputs;
        }
        hs_model_desc_free(in);
        free(in);
        if (rc) return rc;
    }
    return parse_outputs(c);
}

int hs_tree_load_text(const char *text, const char *path, hs_tree_model *out, hs_error *err)
{
    tctx c;
    yt_node *root = NULL;
    int rc;
    if (!out) return hs_error_set(err, HS_ERR_ARG, path ? path : "", 0, 0, "", "no output tree");
    memset(out, 0, sizeof *out);
    if (!path) path = "<text>";
    if (!text) return hs_error_set(err, HS_ERR_ARG, path, 0, 0, "", "no model text");
    snprintf(out->path, sizeof out->path, "%s", path);
    if (err) memset(err, 0, sizeof *err);
    if ((rc = yt_parse(text, path, "model file", &root, err)) != HS_OK) return rc;
    memset(&c, 0, sizeof c);
    c.y.file = path;
    c.y.err = err;
    c.y.what = "model file";
    c.t = out;
    c.root = root;
    c.text = text;
    rc = load_root(&c);
    free(c.tb);
    free(c.tj);
    free(c.chain);
    yt_free(root);
    if (rc != HS_OK) hs_tree_model_free(out);
    return rc;
}

int hs_tree_load(const char *path, hs_tree_model *out, hs_error *err)
{
    char *buf = NULL;
    int rc;
    if (out) memset(out, 0, sizeof *out);
    if (!path) return hs_error_set(err, HS_ERR_ARG, "", 0, 0, "", "no model file given");
    if ((rc = yt_read_file(path, "model file", &buf, err)) != HS_OK) return rc;
    rc = hs_tree_load_text(buf, path, out, err);
    free(buf);
    return rc;
}

int hs_tree_text_is_riccati(const char *text)
{
    yt_node *root = NULL;
    const yt_node *in, *f;
    int yes = 0;
    if (!text) return 0;
    if (yt_parse(text, "<model>", "model file", &root, NULL) == HS_OK && root && root->type == YT_MAP &&
        (in = yt_map_get(root, "integrator")) && in->type == YT_MAP && (f = yt_map_get(in, "formulation")) &&
        f->type == YT_SCALAR)
        yes = !strcmp(f->text, "riccati");
    yt_free(root);
    return yes;
}

int hs_tree_file_is_riccati(const char *path)
{
    char *buf = NULL;
    int yes;
    if (!path || yt_read_file(path, "model file", &buf, NULL) != HS_OK) return 0;
    yes = hs_tree_text_is_riccati(buf);
    free(buf);
    return yes;
}

void hs_tree_model_free(hs_tree_model *t)
{
    if (!t) return;
#define FREE_(f, k) free(t->f);
    TREE_ARRAYS(FREE_)
#undef FREE_
    free(t->chain_name);
    free(t->inputs);
    free(t->q0);
    free(t->v0);
    free(t->out_body);
    memset(t, 0, sizeof *t);
}

int hs_tree_body_find(const hs_tree_model *t, const char *name)
{
    int i;
    for (i = 0; i < t->tree.nbody; ++i)
        if (!strcmp(t->body_name[i], name)) return i;
    return -1;
}

int hs_tree_model_body(const hs_tree_model *t, int j)
{
    int i, k = j;
    for (i = 0; i <= j; ++i) k += t->jtype[i] == HS_JOINT_BALL ? 2 : 0;
    return k;
}

int hs_tree_state_to_model(const hs_tree_model *t, const double *q, const double *v, double *z, double *zd)
{
    int j, k = 0;
    for (j = 0; j < t->tree.nbody; ++j) {
        int iq = hs_tree_iq(&t->tree, j), iv = hs_tree_iv(&t->tree, j);
        if (t->jtype[j] != HS_JOINT_BALL) {
            z[k] = q[iq];
            zd[k++] = v[iv];
            continue;
        }
        if (hs_rotvec_state_of(q + iq, &t->rot0[9L * j], v + iv, z + k, zd + k)) return -1;
        k += 3;
    }
    return k;
}

void hs_tree_accel_from_model(const hs_tree_model *t, const double *z, const double *zd, const double *zdd,
                              double *vd)
{
    int j, i, k = 0;
    for (j = 0; j < t->tree.nbody; ++j) {
        int iv = hs_tree_iv(&t->tree, j);
        if (t->jtype[j] != HS_JOINT_BALL) {
            vd[iv] = zdd[k++];
            continue;
        }
        {
            /* nu = rot0^T R^T J phi', so nu' = rot0^T R^T (J phi'' + J' phi'): the term with R'
             * is R^T omega_rel x omega_rel = 0 */
            double R[9], J[9], a[3], b[3], c[3];
            hs_rotvec_R(z + k, R);
            hs_rotvec_J(z + k, J);
            hs_m3_mulv(a, J, zdd + k);
            hs_rotvec_Jdot_pd(z + k, zd + k, b);
            for (i = 0; i < 3; ++i) a[i] += b[i];
            hs_m3_tmulv(c, R, a);
            hs_m3_tmulv(vd + iv, &t->rot0[9L * j], c);
            k += 3;
        }
    }
}

int hs_tree_to_model(const hs_tree_model *t, hs_model *m, hs_error *err)
{
    int j, i, nb = t->tree.nbody + 2 * t->njoint[HS_JOINT_BALL];
    if (nb > HS_MAX_BODIES)
        return hs_error_set(err, HS_ERR_LIMIT, t->path, 0, 0, "",
                            "the tree has %d bodies and %d ball joints: %d bodies of the step's model (a ball joint "
                            "takes three, one per coordinate of its rotation vector), which holds at most "
                            "HS_MAX_BODIES = %d",
                            t->tree.nbody, t->njoint[HS_JOINT_BALL], nb, HS_MAX_BODIES);
    memset(m, 0, sizeof *m);
    hs_irule_defaults(m);
    m->nbody = nb;
    for (j = 0; j < t->tree.nbody; ++j) {
        int c = hs_tree_model_body(t, j), par = t->parent[j] >= 0 ? hs_tree_model_body(t, t->parent[j]) : -1;
        if (t->jtype[j] == HS_JOINT_BALL) {
            int g = c - 2, r;
            /* two massless bodies in the parent's frame at the joint point, then the child */
            for (r = 0; r < 3; ++r) {
                int b = g + r;
                m->body_parent[b] = r == 0 ? par : b - 1;
                m->joint_type[b] = HS_JOINT_BALL;
                m->joint_ball[b] = r + 1;
                m->body_shape[b] = HS_SHAPE_CUSTOM;
                m->joint_axis[b][r] = 1.0; /* e_r: phi_r's axis at phi = 0 (informative) */
                for (i = 0; i < 9; ++i) m->joint_rot0[b][i] = i % 4 == 0 ? 1.0 : 0.0;
            }
            for (i = 0; i < 3; ++i) m->joint_at_parent[g][i] = t->at_parent[3 * j + i];
        } else {
            m->body_parent[c] = par;
            m->joint_type[c] = t->jtype[j];
            m->body_shape[c] = HS_SHAPE_CUSTOM;
            for (i = 0; i < 3; ++i) {
                m->joint_axis[c][i] = t->axis[3 * j + i];
                m->joint_at_parent[c][i] = t->at_parent[3 * j + i];
            }
        }
        m->body_mass[c] = t->mass[j];
        for (i = 0; i < 3; ++i) {
            m->body_com[c][i] = t->com[3 * j + i];
            m->joint_at_child[c][i] = t->at_child[3 * j + i];
        }
        for (i = 0; i < 6; ++i) m->body_inertia[c][i] = t->inertia[6 * j + i];
        for (i = 0; i < 9; ++i) m->joint_rot0[c][i] = t->rot0[9 * j + i];
    }
    if (hs_tree_state_to_model(t, t->q0, t->v0, m->joint_z0, m->joint_zd0) != nb)
        return hs_error_set(err, HS_ERR_VALUE, t->path, 0, 0, "", "an initial ball joint rotation is not finite");
    for (i = 0; i < 3; ++i) m->gravity[i] = t->tree.gravity[i];
    if (t->inputs) { /* the signals and external loads, the same bodies in the same order */
        const hs_model *in = t->inputs;
#define HS_COPY_(f) memcpy(m->f, in->f, sizeof m->f)
        m->nsignal = in->nsignal;
        m->nknot = in->nknot;
        m->nload = in->nload;
        HS_COPY_(load_body);
        HS_COPY_(load_frame);
        HS_COPY_(load_at);
        HS_COPY_(load_force_dir);
        HS_COPY_(load_torque_dir);
        HS_COPY_(load_force_sig);
        HS_COPY_(load_torque_sig);
        HS_COPY_(sig_start);
        HS_COPY_(sig_n);
        HS_COPY_(knot_t);
        HS_COPY_(knot_v);
        HS_COPY_(sig_kind);
        HS_COPY_(sig_test);
#undef HS_COPY_
        for (i = 0; i < m->nload; ++i) m->load_body[i] = hs_tree_model_body(t, in->load_body[i]);
    }
    hs_model_derive(m);
    return HS_OK;
}
