/* linearize_point.c -- the states that `hydrosweep linearize` linearizes about: the static
 * equilibrium (seed 001 eqs. 77-83, through hs_init) and a simulation's state at a time. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hs/linearize.h"
#include "hs_integrator.h"
#include "engine/simulate.h"

static void point_from_state(const hs_model *m, const hs_state *s, hs_lin_point *x)
{
    memset(x, 0, sizeof *x);
    x->t = s->t;
    memcpy(x->z, s->z, sizeof(double) * (size_t)m->nz);
    memcpy(x->zd, s->zd, sizeof(double) * (size_t)m->nz);
    memcpy(x->p, s->p, sizeof(double) * (size_t)m->nvol);
    memcpy(x->fs, s->fs, sizeof(double) * (size_t)m->nfs);
    memcpy(x->U, s->U, sizeof(double) * (size_t)m->ndcv);
    memcpy(x->s0, s->s0, sizeof(double) * (size_t)m->ncyl);
}

int hs_lin_point_equilibrium(const hs_model *m0, hs_lin_point *x, hs_error *err)
{
    hs_model *m = (hs_model *)malloc(sizeof *m);
    hs_state *s = (hs_state *)calloc(1, sizeof *s);
    hs_work *w = (hs_work *)calloc(1, sizeof *w);
    int i, st, rc = 0;
    if (!m || !s || !w) {
        rc = hs_error_set(err, HS_ERR_IO, "", 0, 0, "", "out of memory");
        goto done;
    }
    *m = *m0;
    for (i = 0; i < m->nz; ++i) m->joint_zd0[i] = 0.0;
    for (i = 0; i < m->ncyl; ++i)
        if (m->cyl_init[i] == HS_CYLINIT_PRESSURES) {
            m->cyl_init[i] = HS_CYLINIT_EQ_PROD;
            m->cyl_init_p[i] = m->vol_p0[m->cyl_vol_r[i]];
        }
    st = hs_init(m, s, w);
    if (st) {
        rc = hs_error_set(err, HS_ERR_NUMERIC, "", 0, 0, "",
                          "no static equilibrium at the model's input coordinates: %s", hs_status_string(st));
        goto done;
    }
    point_from_state(m, s, x);
done:
    free(m);
    free(s);
    free(w);
    return rc;
}

typedef struct at_ctx {
    double T;
    int found;
    hs_lin_point *x;
} at_ctx;

static int at_step(void *ctx, const hs_model *m, const hs_state *s, const hs_obs *o, double E_balance)
{
    at_ctx *c = (at_ctx *)ctx;
    (void)o;
    (void)E_balance;
    if (s->t < c->T * (1.0 - 1e-12)) return 0;
    point_from_state(m, s, c->x);
    c->found = 1;
    return 1;
}

int hs_lin_point_at(const hs_model *m0, double T, hs_lin_point *x, hs_error *err)
{
    hs_model *m = (hs_model *)malloc(sizeof *m);
    hs_sim_summary sum;
    at_ctx c;
    int rc = 0;
    if (!m) return hs_error_set(err, HS_ERR_IO, "", 0, 0, "", "out of memory");
    *m = *m0;
    if (!(T >= 0.0) || T > m->t_end) {
        free(m);
        return hs_error_set(err, HS_ERR_ARG, "", 0, 0, "--at", "t = %g s is outside the simulated span [0, %g] s", T,
                            m0->t_end);
    }
    c.T = T;
    c.found = 0;
    c.x = x;
    hs_simulate(m, at_step, &c, &sum);
    if (!c.found)
        rc = hs_error_set(err, HS_ERR_NUMERIC, "", 0, 0, "", "the simulation failed at t = %.6g s, before t = %g s: %s",
                          sum.t_final, T, hs_status_string(sum.status));
    free(m);
    return rc;
}

int hs_lin_at_rest(const hs_linearization *L, const hs_lin_point *x)
{
    int nq = L->method == HS_LIN_CONVENTIONAL ? L->n : L->n - L->m, k;
    int nv = L->method == HS_LIN_CONVENTIONAL ? nq : nq - L->l; /* X = (z_ai, zdot_ai, z_ad, p, ...) */
    double ps = 1.0, acc = 0.0, pd = 0.0;
    for (k = nv; k < 2 * nv; ++k) acc = fmax(acc, fabs(L->rates[k]));
    for (k = 0; k < L->r; ++k) {
        pd = fmax(pd, fabs(L->rates[nq + nv + k]));
        ps = fmax(ps, fabs(x->p[k]));
    }
    return acc <= 1e-6 && pd <= 1e-6 * ps;
}

int hs_lin_instance(const hs_model *m, int neig, double *re, double *im, double *max_real, double *min_damping)
{
    hs_lin_point x;
    hs_linearization *L = (hs_linearization *)malloc(sizeof *L);
    hs_error err;
    int k, st = HS_LIN_OK;
    for (k = 0; k < neig; ++k) re[k] = im[k] = NAN;
    *max_real = *min_damping = NAN;
    if (!L) return HS_LIN_FAILED;
    if (hs_lin_point_equilibrium(m, &x, &err)) st = HS_LIN_NO_EQUILIBRIUM;
    else if (hs_linearize(m, &x, HS_LIN_EXACT, 0.0, L, &err) || hs_lin_eigen(L, &err)) st = HS_LIN_FAILED;
    else if (!hs_lin_at_rest(L, &x)) st = HS_LIN_NO_EQUILIBRIUM;
    else if (L->size != neig) st = HS_LIN_SIZE;
    if (st == HS_LIN_OK) {
        double mr = -INFINITY, md = INFINITY;
        for (k = 0; k < neig; ++k) {
            re[k] = L->eig_re[k];
            im[k] = L->eig_im[k];
            if (re[k] == 0.0 && im[k] == 0.0) continue;
            if (re[k] > mr) mr = re[k];
            if (hs_lin_damping(re[k], im[k]) < md) md = hs_lin_damping(re[k], im[k]);
        }
        *max_real = isfinite(mr) ? mr : NAN;
        *min_damping = isfinite(md) ? md : NAN;
    }
    free(L);
    return st;
}
