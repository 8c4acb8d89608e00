/* capi_tree.c -- the flat C API of open trees (include/hs/capi.h): the Riccati transfer matrix
 * method for bindings, the Pinocchio cross-check (validation/val_riccati_pinocchio.py) and the
 * scale benchmark (bench/bench_riccati.py). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hs/capi.h"
#include "base/progress.h"
#include "hs/tree.h"
#include "hs_dynamics.h"
#include "hs_tree_rk4.h"

struct hs_capi_tree {
    hs_tree_model m; /* owns the arrays (a made tree fills the same fields) */
    double *w; /* (nbody x HS_TREE_NW) */
    double *y, *scratch; /* RK4 state and stages */
};

/* The arrays of a made tree (hs_tree_model's, which its hs_tree view shares): name, type,
 * values per body. CT_ARGS are hs_capi_tree_make's arguments, copied as given. */
#define CT_ARGS(X) \
    X(parent, int, 1) X(jtype, int, 1) X(mass, double, 1) X(com, double, 3) X(inertia, double, 6) \
    X(at_parent, double, 3) X(at_child, double, 3)
#define CT_VIEW(X) CT_ARGS(X) X(iq, int, 1) X(iv, int, 1) X(axis, double, 3)

static hs_capi_tree *finish(hs_capi_tree *t, char *msg, size_t nmsg)
{
    size_t n = (size_t)(t->m.tree.nq + t->m.tree.nv);
    t->w = (double *)malloc(sizeof(double) * (size_t)t->m.tree.nbody * HS_TREE_NW);
    t->y = (double *)malloc(sizeof(double) * n);
    t->scratch = (double *)malloc(sizeof(double) * HS_TREE_RK4_NSCRATCH * n);
    if (!t->w || !t->y || !t->scratch) {
        if (msg && nmsg) snprintf(msg, nmsg, "out of memory for a tree of %d bodies", t->m.tree.nbody);
        hs_capi_tree_free(t);
        return NULL;
    }
    return t;
}

hs_capi_tree *hs_capi_tree_load(const char *path, char *msg, size_t nmsg)
{
    hs_capi_tree *t = (hs_capi_tree *)calloc(1, sizeof *t);
    hs_error err;
    if (!t) {
        if (msg && nmsg) snprintf(msg, nmsg, "out of memory");
        return NULL;
    }
    if (hs_tree_load(path, &t->m, &err)) {
        if (msg && nmsg) hs_error_format(&err, msg, (unsigned long)nmsg);
        free(t);
        return NULL;
    }
    return finish(t, msg, nmsg);
}

hs_capi_tree *hs_capi_tree_make(int n, const int *parent, const int *jtype, const double *mass, const double *com,
                                const double *inertia, const double *at_parent, const double *at_child,
                                const double *axis, const double *rot0, const double *gravity, char *msg,
                                size_t nmsg)
{
    hs_capi_tree *t;
    hs_tree_model *m;
    int j, k, nq = 0, nv = 0, ok = 1;
    if (n < 1 || n > HS_TREE_MAX_BODIES || !parent || !jtype || !mass || !com || !inertia || !at_parent ||
        !at_child || !axis || !gravity) {
        if (msg && nmsg) snprintf(msg, nmsg, "a tree needs 1 to %d bodies and every array but rot0", HS_TREE_MAX_BODIES);
        return NULL;
    }
    for (j = 0; j < n; ++j) {
        const char *why = parent[j] < -1 || parent[j] >= j ? "parent must be -1 (ground) or an earlier body"
                          : jtype[j] < 0 || jtype[j] > 2  ? "jtype must be 0 (revolute), 1 (prismatic) or 2 (ball)"
                          : !(mass[j] >= 0)               ? "mass must be >= 0"
                                                          : NULL;
        if (!why && jtype[j] != HS_JOINT_BALL &&
            !(axis[3 * j] * axis[3 * j] + axis[3 * j + 1] * axis[3 * j + 1] + axis[3 * j + 2] * axis[3 * j + 2] > 0))
            why = "axis must be non-zero";
        if (why) {
            if (msg && nmsg) snprintf(msg, nmsg, "body %d: %s", j, why);
            return NULL;
        }
    }
    if (!(t = (hs_capi_tree *)calloc(1, sizeof *t))) return NULL;
    m = &t->m;
#define CT_ALLOC_(f, T, w) ok &= (m->f = (T *)malloc(sizeof(T) * (w) * (size_t)n)) != NULL;
    CT_VIEW(CT_ALLOC_) CT_ALLOC_(rot0, double, 9)
    m->q0 = (double *)calloc(4 * (size_t)n, sizeof(double));
    m->v0 = (double *)calloc(3 * (size_t)n, sizeof(double));
    if (!ok || !m->q0 || !m->v0) {
        if (msg && nmsg) snprintf(msg, nmsg, "out of memory for a tree of %d bodies", n);
        hs_capi_tree_free(t);
        return NULL;
    }
#define CT_IN_(f, T, w) memcpy(m->f, f, sizeof(T) * (w) * (size_t)n);
    CT_ARGS(CT_IN_)
    for (j = 0; j < n; ++j) {
        double a = 0;
        for (k = 0; k < 3; ++k) a += axis[3 * j + k] * axis[3 * j + k];
        a = a > 0 ? 1.0 / sqrt(a) : 0.0;
        for (k = 0; k < 3; ++k) m->axis[3 * j + k] = jtype[j] == HS_JOINT_BALL ? (k == 0) : axis[3 * j + k] * a;
        for (k = 0; k < 9; ++k) m->rot0[9 * j + k] = rot0 ? rot0[9 * j + k] : (k % 4 == 0);
        m->iq[j] = nq;
        m->iv[j] = nv;
        if (jtype[j] == HS_JOINT_BALL) m->q0[nq] = 1.0;
        nq += hs_joint_nq(jtype[j]);
        nv += hs_joint_nv(jtype[j]);
        ++m->njoint[jtype[j]];
    }
    m->tree.nbody = n;
    m->tree.nq = nq;
    m->tree.nv = nv;
#define CT_SET_(f, T, w) m->tree.f = m->f;
    CT_VIEW(CT_SET_)
    m->tree.rot0 = hs_tree_rot0_view(m->rot0, n);
    for (k = 0; k < 3; ++k) m->tree.gravity[k] = gravity[k];
    snprintf(m->name, sizeof m->name, "made");
    m->dt = 1e-3;
    m->every = 1;
    return finish(t, msg, nmsg);
}

void hs_capi_tree_free(hs_capi_tree *t)
{
    if (!t) return;
    hs_tree_model_free(&t->m);
    free(t->w);
    free(t->y);
    free(t->scratch);
    free(t);
}

void hs_capi_tree_size(const hs_capi_tree *t, int *nbody, int *nq, int *nv)
{
    *nbody = t->m.tree.nbody;
    *nq = t->m.tree.nq;
    *nv = t->m.tree.nv;
}

void hs_capi_tree_state0(const hs_capi_tree *t, double *q, double *v)
{
    memcpy(q, t->m.q0, sizeof(double) * (size_t)t->m.tree.nq);
    memcpy(v, t->m.v0, sizeof(double) * (size_t)t->m.tree.nv);
}

int hs_capi_tree_accel(hs_capi_tree *t, const double *q, const double *v, double *vd, double *F)
{
    return hs_riccati_accel(&t->m.tree, q, v, (const double *)0, t->w, vd, F);
}

double hs_capi_tree_time_accel(hs_capi_tree *t, const double *q, const double *v, long nrep)
{
    double *vd = t->y, t0; /* nv <= nq + nv */
    long i;
    if (nrep < 1) return -1.0;
    t0 = hs_now_s();
    for (i = 0; i < nrep; ++i)
        if (hs_riccati_accel(&t->m.tree, q, v, (const double *)0, t->w, vd, (double *)0)) return -1.0;
    return (hs_now_s() - t0) / (double)nrep;
}

int hs_capi_tree_rk4(hs_capi_tree *t, double *q, double *v, double dt, long nsteps)
{
    hs_tree *tr = &t->m.tree; /* its time goes with the steps */
    long i;
    int rc = 0;
    memcpy(t->y, q, sizeof(double) * (size_t)tr->nq);
    memcpy(t->y + tr->nq, v, sizeof(double) * (size_t)tr->nv);
    for (i = 0; i < nsteps && !rc; ++i)
        if (!(rc = hs_tree_rk4_step(tr, dt, (const double *)0, t->y, t->w, t->scratch))) tr->time += dt;
    memcpy(q, t->y, sizeof(double) * (size_t)tr->nq);
    memcpy(v, t->y + tr->nq, sizeof(double) * (size_t)tr->nv);
    return rc;
}

void hs_capi_tree_energy(hs_capi_tree *t, const double *q, const double *v, double *Ekin, double *Epot)
{
    hs_tree_kinematics(&t->m.tree, q, v, t->w);
    hs_tree_energy(&t->m.tree, t->w, Ekin, Epot);
}

void hs_capi_tree_arrays(const hs_capi_tree *t, int *parent, int *jtype, double *mass, double *com, double *inertia,
                         double *at_parent, double *at_child, double *axis, double *rot0, double *gravity)
{
    const hs_tree_model *m = &t->m;
    size_t n = (size_t)m->tree.nbody;
#define CT_OUT_(f, T, w) memcpy(f, m->f, sizeof(T) * (w) * n);
    CT_ARGS(CT_OUT_) CT_OUT_(axis, double, 3) CT_OUT_(rot0, double, 9)
    memcpy(gravity, m->tree.gravity, sizeof(double) * 3);
}

double hs_capi_tree_time_semirecursive(hs_capi_tree *t, const double *q, const double *v, long nrep, double *vd)
{
    const hs_tree_model *tm = &t->m;
    hs_model *m;
    hs_kin *k;
    hs_dyn_work *dw;
    double M[HS_MAX_Z * HS_MAX_Z], Q[HS_MAX_Z], z[HS_MAX_Z], zd[HS_MAX_Z], dt = -1.0, t0;
    int piv[HS_MAX_Z];
    long r;
    if (nrep < 1) return -1.0;
    m = (hs_model *)calloc(1, sizeof *m);
    k = (hs_kin *)malloc(sizeof *k);
    dw = (hs_dyn_work *)malloc(sizeof *dw);
    if (!m || !k || !dw || hs_tree_to_model(tm, m, (hs_error *)0)) goto done;
    if (hs_tree_state_to_model(tm, q, v, z, zd) != m->nz) goto done; /* a ball joint: its rotation vector */
    t0 = hs_now_s();
    for (r = 0; r < nrep; ++r) {
        hs_kin_positions(m, z, k);
        hs_kin_velocities(m, zd, k);
        hs_mass_force(m, k, 0.0, M, HS_MAX_Z, Q, dw);
        if (hs_lu_factor(M, m->nz, HS_MAX_Z, piv)) goto done;
        hs_lu_solve(M, m->nz, HS_MAX_Z, piv, Q);
    }
    dt = (hs_now_s() - t0) / (double)nrep;
    if (vd) hs_tree_accel_from_model(tm, z, zd, Q, vd);
done:
    free(m);
    free(k);
    free(dw);
    return dt;
}
