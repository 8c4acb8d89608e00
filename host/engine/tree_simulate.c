/* tree_simulate.c -- one run of an open tree by RK4 with the Riccati accelerations
 * (hs/tree.h; kernels/hs_tree_rk4.h), on one core, writing a CSV as it goes. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hs/tree.h"
#include "hs_batch.h"
#include "hs_tree_rk4.h"
#include "base/progress.h"

/* A CSV row at time t: energies (and the loads' work W when loads), the recorded bodies (w
 * holds the kinematics at y). */
static void csv_row(const hs_tree_model *tm, const hs_tree *tr, FILE *csv, double t, const double *w, double Ek,
                    double Ep, int loads, double W)
{
    int k;
    fprintf(csv, "%.9g,%.17g,%.17g,%.17g", t, Ek, Ep, Ek + Ep);
    if (loads) fprintf(csv, ",%.17g", W);
    for (k = 0; k < tm->nout; ++k) {
        const double *wj = w + (long)tm->out_body[k] * HS_TREE_NW;
        double c[3];
        hs_tree_com(tr, tm->out_body[k], wj, c); /* the tree integrated: its own frames */
        fprintf(csv, ",%.17g,%.17g,%.17g,%.17g", atan2(wj[HS_TW_A + 3], wj[HS_TW_A]), c[0], c[1], c[2]);
    }
    fputc('\n', csv);
    fflush(csv); /* an interrupted run keeps every row written */
}

int hs_tree_simulate(const hs_tree_model *tm, double t_end, FILE *csv, hs_tree_sim_result *res, hs_error *err)
{
    return hs_tree_simulate_as(tm, &tm->tree, NULL, t_end, csv, res, err);
}

int hs_tree_simulate_as(const hs_tree_model *tm, const hs_tree *view, const double *y0, double t_end, FILE *csv,
                        hs_tree_sim_result *res, hs_error *err)
{
    hs_tree tv = *view; /* its time goes with the steps (the loads' signals) */
    const hs_tree *t = &tv;
    int loads = tv.ext && tv.ext->nload > 0;
    double W = 0.0; /* the external loads' work */
    size_t n = (size_t)(t->nq + t->nv);
    double *y = (double *)malloc(sizeof(double) * n), *scratch = (double *)malloc(sizeof(double) * HS_TREE_RK4_NSCRATCH * n);
    double *w = (double *)malloc(sizeof(double) * (size_t)t->nbody * HS_TREE_NW);
    double Ek, Ep, t0 = hs_now_s();
    long nsteps, i;
    int k, rc = HS_OK;
    memset(res, 0, sizeof *res);
    if (!y || !scratch || !w) {
        rc = hs_error_set(err, HS_ERR_IO, tm->path, 0, 0, "", "out of memory for a tree of %d bodies", t->nbody);
        goto done;
    }
    if (t_end < 0) t_end = tm->t_end;
    nsteps = hs_instance_steps(t_end, tm->dt); /* as a sweep's runner (hs_tree_batch.h): the last step ends at t_end */
    if (y0) {
        memcpy(y, y0, sizeof(double) * n);
    } else {
        memcpy(y, tm->q0, sizeof(double) * (size_t)t->nq);
        memcpy(y + t->nq, tm->v0, sizeof(double) * (size_t)t->nv);
    }
    hs_tree_normalise(t, y);
    hs_tree_kinematics(t, y, y + t->nq, w);
    hs_tree_energy(t, w, &Ek, &Ep);
    res->E0 = res->E1 = Ek + Ep;
    if (csv) {
        fprintf(csv, "t,E_kin,E_pot,E_total%s", loads ? ",W_ext" : "");
        for (k = 0; k < tm->nout; ++k) {
            const char *b = tm->body_name[tm->out_body[k]];
            fprintf(csv, ",%s.angle_z,%s.x,%s.y,%s.z", b, b, b, b);
        }
        fputc('\n', csv);
        csv_row(tm, t, csv, 0.0, w, Ek, Ep, loads, 0.0);
    }
    for (i = 1; i <= nsteps; ++i) {
        double ti = i == nsteps ? t_end : (double)i * tm->dt;
        tv.time = (double)(i - 1) * tm->dt;
        if ((res->status = hs_tree_rk4_step_w(t, ti - tv.time, (const double *)0, y, w, scratch, &W))) {
            rc = hs_error_set(err, HS_ERR_NUMERIC, tm->path, 0, 0, "",
                              "at t = %g s the articulated inertia at joint of body '%s' became singular",
                              (double)(i - 1) * tm->dt, tm->body_name[res->status - 1]);
            break;
        }
        res->steps = i;
        res->t = ti;
        if (i % tm->every == 0 || i == nsteps) {
            hs_tree_kinematics(t, y, y + t->nq, w);
            hs_tree_energy(t, w, &Ek, &Ep);
            res->E1 = Ek + Ep - W;
            res->W = W;
            if (csv) csv_row(tm, t, csv, res->t, w, Ek, Ep, loads, W);
        }
    }
done:
    res->wall_s = hs_now_s() - t0;
    free(y);
    free(scratch);
    free(w);
    return rc;
}
