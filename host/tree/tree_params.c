/* tree_params.c -- a riccati model (hs/tree.h) as the model of a sweep: its tree behind an
 * hs_model_desc (desc->tree), the named parameters a sweep may vary (what each sets:
 * desc->tree_ov, hs_tree_batch.h) and the signals it may record.
 *
 * A tree of 33 334 bodies would have a quarter of a million per-body parameters, so the
 * bodies of a chain are swept together, by the chain's name (chain.<name>.mass ...), and the
 * bodies listed in bodies: one by one. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hs/sweep.h"
#include "hs/tree.h"
#include "hs_tree_batch.h"
#include "model/params.h"
#include "tree/tree_params.h"
#include "base/yaml_tree.h"

typedef struct ptab {
    hs_model_desc *d;
    int cap;
    int oom;
} ptab;

static void add(ptab *t, const char *unit, int field, int comp, int b0, int b1, int chain, const char *fmt, ...)
{
    hs_param *p;
    hs_tree_ov *o;
    va_list ap;
    if (t->oom) return;
    if (t->d->nparam == t->cap) {
        int cap = t->cap ? 2 * t->cap : 64;
        hs_param *np = (hs_param *)realloc(t->d->param, sizeof *np * (size_t)cap);
        hs_tree_ov *no = NULL;
        if (np) t->d->param = np; /* grown (a failure keeps the old one) */
        if (!np || !(no = (hs_tree_ov *)realloc(t->d->tree_ov, sizeof *no * (size_t)cap))) {
            t->oom = 1;
            return;
        }
        t->d->tree_ov = no;
        t->cap = cap;
    }
    p = &t->d->param[t->d->nparam];
    o = &t->d->tree_ov[t->d->nparam];
    memset(p, 0, sizeof *p);
    va_start(ap, fmt);
    vsnprintf(p->name, sizeof p->name, fmt, ap);
    va_end(ap);
    snprintf(p->unit, sizeof p->unit, "%s", unit);
    p->offset = (size_t)t->d->nparam; /* into tree_ov */
    p->type = HS_PARAM_DOUBLE;
    o->field = field;
    o->comp = comp;
    o->b0 = b0;
    o->b1 = b1;
    o->chain = chain;
    t->d->nparam += 1;
}

static const char *const k_xyz[3] = {"x", "y", "z"};

/* The parameters of one body (or every body of a chain: b0..b1 its range, chain its index). */
static void body_params(ptab *t, const char *kind, const char *name, int b0, int b1, int chain, int len)
{
    int k;
    add(t, "kg", HS_TF_MASS, 0, b0, b1, chain, "%s.%s.mass", kind, name);
    if (len) add(t, "m", HS_TF_LENGTH, 0, b0, b1, chain, "%s.%s.length", kind, name);
    for (k = 0; k < 3; ++k) add(t, "m", HS_TF_COM, k, b0, b1, chain, "%s.%s.com.%s", kind, name, k_xyz[k]);
}

static void joint_params(ptab *t, const char *kind, const char *name, int b0, int b1, int chain, int ball, int pr)
{
    int k;
    if (ball) {
        for (k = 0; k < 3; ++k) add(t, "rad/s", HS_TF_ZD0, k, b0, b1, chain, "%s.%s.w0.%s", kind, name, k_xyz[k]);
        return;
    }
    add(t, pr ? "m" : "rad", HS_TF_Z0, 0, b0, b1, chain, "%s.%s.z0", kind, name);
    add(t, pr ? "m/s" : "rad/s", HS_TF_ZD0, 0, b0, b1, chain, "%s.%s.zdot0", kind, name);
}

/* The table: gravity, then each listed body and its joint, then each chain. A chain's joint
 * parameters exist when its joints are all of one kind (z0 and zdot0 for revolute and
 * prismatic ones, w0 for ball joints); its length when every body has one. */
static int build_params(hs_model_desc *d, hs_error *err)
{
    const hs_tree_model *tm = d->tree;
    const hs_tree *tr = &tm->tree;
    ptab t;
    int j, c, k;
    memset(&t, 0, sizeof t);
    t.d = d;
    for (k = 0; k < 3; ++k) add(&t, "m/s^2", HS_TF_GRAVITY, k, 0, 0, -1, "gravity.%s", k_xyz[k]);
    for (j = 0; j < tr->nbody; ++j) {
        int ball = tr->jtype[j] == HS_JOINT_BALL, pr = tr->jtype[j] == HS_JOINT_PRISMATIC;
        if (tm->chain_of[j] >= 0) continue;
        body_params(&t, "body", tm->body_name[j], j, j + 1, -1, tm->length[j] > 0.0);
        joint_params(&t, "joint", tm->joint_name[j], j, j + 1, -1, ball, pr);
    }
    for (c = 0; c < tm->nchain; ++c) {
        int b0 = -1, b1 = 0, nball = 0, npr = 0, nrev = 0, nlen = 0, nb = 0;
        for (j = 0; j < tr->nbody; ++j) {
            if (tm->chain_of[j] != c) continue;
            if (b0 < 0) b0 = j;
            b1 = j + 1;
            ++nb;
            nball += tr->jtype[j] == HS_JOINT_BALL;
            npr += tr->jtype[j] == HS_JOINT_PRISMATIC;
            nrev += tr->jtype[j] == HS_JOINT_REVOLUTE;
            nlen += tm->length[j] > 0.0;
        }
        if (nb == 0) continue;
        body_params(&t, "chain", tm->chain_name[c], b0, b1, c, nlen == nb);
        if (nball == nb || npr == nb || nrev == nb) joint_params(&t, "chain", tm->chain_name[c], b0, b1, c, nball == nb, npr == nb);
    }
    if (t.oom) return hs_error_set(err, HS_ERR_IO, d->path, 0, 0, "", "out of memory for the parameter table");
    return HS_OK;
}

static double tree_param_get(const hs_model_desc *d, int index)
{
    const hs_tree_model *tm = d->tree;
    const hs_tree *tr = &tm->tree;
    const hs_tree_ov *o = &d->tree_ov[index];
    int j = o->b0;
    if (o->field == HS_TF_GRAVITY) return tr->gravity[o->comp];
    if (j < 0 || j >= tr->nbody) return NAN;
    switch (o->field) {
    case HS_TF_MASS: return tr->mass[j];
    case HS_TF_LENGTH: return tm->length[j];
    case HS_TF_COM: return tr->com[3L * j + o->comp];
    case HS_TF_Z0: return tm->q0[hs_tree_iq(tr, j)];
    case HS_TF_ZD0: return tm->v0[hs_tree_iv(tr, j) + (tr->jtype[j] == HS_JOINT_BALL ? o->comp : 0)];
    default: return NAN;
    }
}

static void tree_desc_free(hs_model_desc *d);
static int tree_param_set(hs_model_desc *d, int index, double v, hs_error *err);
/* What hs_model_desc_free, hs_param_get and hs_param_set do for a tree (host/model/params.h). */
static const struct hs_desc_ops tree_ops = {tree_desc_free, tree_param_get, tree_param_set};

int hs_tree_desc_load_text(const char *text, const char *path, hs_model_desc *d, hs_error *err)
{
    hs_tree_model *tm = (hs_tree_model *)calloc(1, sizeof *tm);
    size_t n = strlen(text);
    int rc;
    memset(d, 0, sizeof *d);
    if (!tm) return hs_error_set(err, HS_ERR_IO, path, 0, 0, "", "out of memory");
    if ((rc = hs_tree_load_text(text, path, tm, err)) != HS_OK) {
        free(tm);
        return rc;
    }
    d->tree = tm;
    d->ops = &tree_ops;
    snprintf(d->name, sizeof d->name, "%s", tm->name);
    snprintf(d->path, sizeof d->path, "%s", path);
    d->text = (char *)malloc(n + 1);
    if (!d->text) {
        hs_model_desc_free(d);
        return hs_error_set(err, HS_ERR_IO, path, 0, 0, "", "out of memory");
    }
    memcpy(d->text, text, n + 1);
    /* the step's model only carries the times: the sweep's simulation: overrides them */
    d->model.t_end = tm->t_end;
    d->model.dt = tm->dt;
    if ((rc = build_params(d, err)) != HS_OK) hs_model_desc_free(d);
    return rc;
}

int hs_tree_desc_load(const char *path, hs_model_desc *d, hs_error *err)
{
    char *text = NULL;
    int rc;
    memset(d, 0, sizeof *d);
    if ((rc = yt_read_file(path, "model file", &text, err)) == HS_OK) rc = hs_tree_desc_load_text(text, path, d, err);
    free(text);
    return rc;
}

static void tree_desc_free(hs_model_desc *d)
{
    if (d->tree) hs_tree_model_free(d->tree);
    free(d->tree);
    free(d->tree_ov);
    d->tree = NULL;
    d->tree_ov = NULL;
    d->ops = NULL;
}

/* ====================================================================================== */
/* signals: <joint>, <joint>_dot, <body>.x/.y/.z, F_<joint>, M_<joint>, E_kin, E_pot,     */
/* E_balance, W_ext (with loads)                                                          */
/* ====================================================================================== */

/* 1 if the tree has external loads (a W_ext signal). */
static int tree_loads(const hs_tree_model *tm)
{
    return tm->tree.ext && tm->tree.ext->nload > 0;
}

static int joint_find(const hs_tree_model *tm, const char *name)
{
    int i;
    for (i = 0; i < tm->tree.nbody; ++i)
        if (!strcmp(tm->joint_name[i], name)) return i;
    return -1;
}

int hs_tree_output_find(const hs_model_desc *d, const char *name, hs_signal_ref *ref)
{
    const hs_tree_model *tm = d->tree;
    char buf[HS_NAME_LEN + 16];
    size_t n = strlen(name);
    hs_signal_ref r;
    int j;
    r.index = 0;
    if (!strcmp(name, "E_kin")) r.kind = HS_SIG_EKIN;
    else if (!strcmp(name, "E_pot")) r.kind = HS_SIG_EPOT;
    else if (!strcmp(name, "W_ext") && tree_loads(tm)) r.kind = HS_SIG_WEXT;
    else if (!strcmp(name, "E_balance")) r.kind = HS_SIG_EBAL;
    else if ((!strncmp(name, "F_", 2) || !strncmp(name, "M_", 2)) && (j = joint_find(tm, name + 2)) >= 0) {
        r.kind = name[0] == 'F' ? HS_SIG_FJ : HS_SIG_MJ;
        r.index = j;
    } else if ((j = joint_find(tm, name)) >= 0) {
        r.kind = HS_SIG_Z;
        r.index = j;
    } else if (n > 4 && !strcmp(name + n - 4, "_dot") && n - 4 < sizeof buf) {
        memcpy(buf, name, n - 4);
        buf[n - 4] = '\0';
        if ((j = joint_find(tm, buf)) < 0) return -1;
        r.kind = HS_SIG_ZD;
        r.index = j;
    } else if (n > 2 && name[n - 2] == '.' && (name[n - 1] == 'x' || name[n - 1] == 'y' || name[n - 1] == 'z') &&
               n - 2 < sizeof buf) {
        memcpy(buf, name, n - 2);
        buf[n - 2] = '\0';
        if ((j = hs_tree_body_find(tm, buf)) < 0) return -1;
        r.kind = HS_SIG_CX + (name[n - 1] - 'x');
        r.index = j;
    } else {
        return -1;
    }
    if (ref) *ref = r;
    return 0;
}

void hs_tree_output_name(const hs_model_desc *d, hs_signal_ref ref, char *buf, size_t n)
{
    const hs_tree_model *tm = d->tree;
    int i = ref.index, ok = i >= 0 && i < tm->tree.nbody;
    buf[0] = '\0';
    switch (ref.kind) {
    case HS_SIG_Z:
        if (ok) snprintf(buf, n, "%s", tm->joint_name[i]);
        break;
    case HS_SIG_ZD:
        if (ok) snprintf(buf, n, "%s_dot", tm->joint_name[i]);
        break;
    case HS_SIG_CX:
    case HS_SIG_CY:
    case HS_SIG_CZ:
        if (ok) snprintf(buf, n, "%s.%s", tm->body_name[i], k_xyz[ref.kind - HS_SIG_CX]);
        break;
    case HS_SIG_FJ:
    case HS_SIG_MJ:
        if (ok) snprintf(buf, n, "%s_%s", ref.kind == HS_SIG_FJ ? "F" : "M", tm->joint_name[i]);
        break;
    case HS_SIG_EKIN: snprintf(buf, n, "E_kin"); break;
    case HS_SIG_EPOT: snprintf(buf, n, "E_pot"); break;
    case HS_SIG_WEXT: snprintf(buf, n, "W_ext"); break;
    case HS_SIG_EBAL: snprintf(buf, n, "E_balance"); break;
    default: break;
    }
    if (!buf[0]) snprintf(buf, n, "unknown_signal");
}

const char *hs_tree_output_unit(const hs_model_desc *d, hs_signal_ref ref)
{
    const hs_tree_model *tm = d->tree;
    int i = ref.index, pr = i >= 0 && i < tm->tree.nbody && tm->tree.jtype[i] == HS_JOINT_PRISMATIC;
    switch (ref.kind) {
    case HS_SIG_Z: return pr ? "m" : "rad";
    case HS_SIG_ZD: return pr ? "m/s" : "rad/s";
    case HS_SIG_CX:
    case HS_SIG_CY:
    case HS_SIG_CZ: return "m";
    case HS_SIG_FJ: return "N";
    case HS_SIG_MJ: return "N m";
    case HS_SIG_EKIN:
    case HS_SIG_EPOT:
    case HS_SIG_WEXT:
    case HS_SIG_EBAL: return "J";
    default: return "";
    }
}

/* Listing order: per body its joint's coordinate and velocity, its centre of mass, its joint's
 * force and moment; then the energies. */
int hs_tree_output_count(const hs_model_desc *d)
{
    return 7 * d->tree->tree.nbody + 3 + tree_loads(d->tree);
}

hs_signal_ref hs_tree_output_at(const hs_model_desc *d, int k)
{
    static const int per_body[7] = {HS_SIG_Z, HS_SIG_ZD, HS_SIG_CX, HS_SIG_CY, HS_SIG_CZ, HS_SIG_FJ, HS_SIG_MJ};
    static const int tail[4] = {HS_SIG_EKIN, HS_SIG_EPOT, HS_SIG_EBAL, HS_SIG_WEXT};
    int nb = d->tree->tree.nbody;
    hs_signal_ref r;
    r.kind = HS_SIG_COUNT;
    r.index = 0;
    if (k >= 0 && k < 7 * nb) {
        r.kind = per_body[k % 7];
        r.index = k / 7;
    } else if (k >= 7 * nb && k < 7 * nb + 3 + tree_loads(d->tree)) {
        r.kind = tail[k - 7 * nb];
    }
    return r;
}

/* A value set by name (--set) becomes the tree's own: the instance that a sweep would make of it
 * (hs_tree_instance_setup, the one code of what a parameter means: a mass scales the inertia, a
 * length the body's frame) is copied into the loaded arrays. A length then is the loaded one, so
 * that later sets and sweeps scale from it. */
static int tree_param_set(hs_model_desc *d, int index, double v, hs_error *err)
{
    hs_tree_model *tm = d->tree;
    const char *name = d->param[index].name;
    hs_override_spec ov;
    hs_output_spec none;
    hs_tree_ens e;
    hs_tree t;
    long nb = tm->tree.nbody, j;
    double *par, *y;
    int ok;
    if (!isfinite(v)) return hs_error_set(err, HS_ERR_VALUE, d->path, 0, 0, name, "must be finite, not %g", v);
    memset(&ov, 0, sizeof ov);
    memset(&none, 0, sizeof none);
    ov.n = 1;
    ov.offset[0] = (unsigned long)index;
    if (hs_tree_ens_of(tm, d, &ov, &none, d->model.t_end, d->model.dt, &e))
        return hs_error_set(err, HS_ERR_ARG, d->path, 0, 0, name, "not a parameter of this tree");
    e.own_par = 1;
    par = (double *)malloc(sizeof(double) * (size_t)(16 * nb));
    y = (double *)malloc(sizeof(double) * (size_t)(tm->tree.nq + tm->tree.nv));
    if (!par || !y) {
        free(par);
        free(y);
        return hs_error_set(err, HS_ERR_IO, d->path, 0, 0, name, "out of memory for a tree of %ld bodies", nb);
    }
    ok = hs_tree_instance_setup(&e, &v, &t, par, y);
    if (ok) {
        memcpy(tm->mass, t.mass, sizeof(double) * (size_t)nb);
        memcpy(tm->com, t.com, sizeof(double) * (size_t)(3 * nb));
        memcpy(tm->inertia, t.inertia, sizeof(double) * (size_t)(6 * nb));
        memcpy(tm->at_parent, t.at_parent, sizeof(double) * (size_t)(3 * nb));
        memcpy(tm->at_child, t.at_child, sizeof(double) * (size_t)(3 * nb));
        memcpy(tm->tree.gravity, t.gravity, sizeof t.gravity);
        memcpy(tm->q0, y, sizeof(double) * (size_t)tm->tree.nq);
        memcpy(tm->v0, y + tm->tree.nq, sizeof(double) * (size_t)tm->tree.nv);
        if (d->tree_ov[index].field == HS_TF_LENGTH)
            for (j = d->tree_ov[index].b0; j < d->tree_ov[index].b1; ++j)
                if (d->tree_ov[index].chain < 0 || tm->chain_of[j] == d->tree_ov[index].chain) tm->length[j] = v;
    }
    free(par);
    free(y);
    if (!ok)
        return hs_error_set(err, HS_ERR_VALUE, d->path, 0, 0, name,
                            "%g breaks a rule of the tree: a mass and a length are > 0 (the model keeps its value)", v);
    return HS_OK;
}

int hs_tree_ens_of(const hs_tree_model *tm, const hs_model_desc *d, const hs_override_spec *ov,
                   const hs_output_spec *spec, double t_end, double dt, hs_tree_ens *e)
{
    int j, q;
    memset(e, 0, sizeof *e);
    e->base = tm->tree;
    e->length = tm->length;
    e->chain_of = tm->chain_of;
    e->q0 = tm->q0;
    e->v0 = tm->v0;
    e->t_end = t_end;
    e->dt = dt;
    e->nov = ov ? ov->n : 0;
    for (j = 0; j < e->nov; ++j) {
        size_t k = (size_t)ov->offset[j];
        if (!d || k >= (size_t)d->nparam) return -1;
        e->ov[j] = d->tree_ov[k];
        if (e->ov[j].field == HS_TF_MASS || e->ov[j].field == HS_TF_LENGTH || e->ov[j].field == HS_TF_COM)
            e->own_par = 1;
    }
    for (q = 0; q < spec->nsig + spec->ntraj; ++q) {
        int kind = q < spec->nsig ? spec->sig[q].kind : spec->traj[q - spec->nsig].kind;
        if (kind == HS_SIG_FJ || kind == HS_SIG_MJ) e->forces = e->kin = 1;
        if (kind != HS_SIG_Z && kind != HS_SIG_ZD && kind != HS_SIG_WEXT) e->kin = 1;
        if (kind == HS_SIG_EKIN || kind == HS_SIG_EPOT || kind == HS_SIG_EBAL) e->energy = 1;
    }
    return 0;
}
