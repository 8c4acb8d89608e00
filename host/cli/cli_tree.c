/* cli_tree.c -- `hydrosweep simulate` and `hydrosweep info` for the open trees of the Riccati
 * formulation (integrator.formulation: riccati; hs/tree.h): cli_simulate.c and cli_info.c
 * hand such a model file here. One run on one core, RK4 at the model's dt. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_tree.h"
#include "tree/tree_params.h"
#include "base/fileio.h"
#include "hs/tree.h"
#include "base/yaml_tree.h"

/* The summary of a run on f. */
static void tree_summary(FILE *f, const hs_tree_model *tm, const hs_tree_sim_result *res)
{
    fprintf(f,
            "model %s: an open tree of %d bodies (%d revolute, %d prismatic, %d ball joints), %d degrees of "
            "freedom\n"
            "riccati transfer matrix method, RK4 at dt = %g s: %ld steps to t = %g s in %.3f s (%.3g s per "
            "step, %.3g us per body and step)\n"
            "%s %.12g J -> %.12g J (drift %.3g J, %.3g relative)\n",
            tm->name, tm->tree.nbody, tm->njoint[0], tm->njoint[1], tm->njoint[2], tm->tree.nv, tm->dt, res->steps,
            res->t, res->wall_s, res->steps ? res->wall_s / (double)res->steps : 0.0,
            res->steps ? 1e6 * res->wall_s / (double)res->steps / tm->tree.nbody : 0.0,
            tm->tree.ext && tm->tree.ext->nload > 0 ? "energy balance E_kin + E_pot - W_ext" : "energy", res->E0,
            res->E1,
            res->E1 - res->E0, (res->E1 - res->E0) / (res->E0 != 0 ? (res->E0 > 0 ? res->E0 : -res->E0) : 1.0));
}

/* The parameters a sweep may vary (tree_params.c) and the signals it may record. */
static void info_params(const hs_model_desc *d)
{
    int k;
    printf("\nparameters (a sweep's and --set's; a chain's bodies and joints are set together, by the chain's "
           "name):\n");
    for (k = 0; k < d->nparam; ++k)
        printf("  %-40s %14.6g %s\n", d->param[k].name, hs_param_get(d, k), d->param[k].unit);
    printf("\nsignals (a sweep's outputs): <joint> and <joint>_dot (a ball joint's rotation angle and |w|), "
           "<body>.x, .y, .z (its centre of mass), F_<joint> and M_<joint> (|internal force| and |moment|), "
           "E_kin, E_pot, E_balance\n");
}

int hs_cli_tree_instance(const hs_model_desc *d, const hs_override_spec *ov, const double *vals, FILE *out,
                         long every, hs_error *err)
{
    hs_tree_model tm = *d->tree; /* a shallow copy: the sweep's dt and the CSV's row step */
    hs_output_spec none;
    hs_tree_ens e;
    hs_tree t;
    hs_tree_sim_result res;
    double *par = NULL, *y = NULL;
    long nb = tm.tree.nbody;
    int rc;
    memset(&none, 0, sizeof none);
    tm.dt = d->model.dt;
    if (every > 0) tm.every = every;
    if (hs_tree_ens_of(d->tree, d, ov, &none, d->model.t_end, d->model.dt, &e))
        return hs_error_set(err, HS_ERR_VALUE, d->path, 0, 0, "", "a swept parameter is not one of the model's");
    par = (double *)malloc(sizeof(double) * (size_t)(16 * nb));
    y = (double *)malloc(sizeof(double) * (size_t)(tm.tree.nq + tm.tree.nv));
    if (!par || !y) {
        free(par);
        free(y);
        return hs_error_set(err, HS_ERR_IO, d->path, 0, 0, "", "out of memory for a tree of %ld bodies", nb);
    }
    e.own_par = 1;
    if (!hs_tree_instance_setup(&e, vals, &t, par, y)) {
        rc = hs_error_set(err, HS_ERR_VALUE, d->path, 0, 0, "",
                          "the instance's values break a physical rule (a mass or length <= 0, or not a number): "
                          "the run flagged it invalid and ran nothing");
    } else {
        rc = hs_tree_simulate_as(&tm, &t, y, d->model.t_end, out, &res, err);
        tree_summary(out == stdout ? stderr : stdout, &tm, &res);
        if (rc) rc = 3;
    }
    free(par);
    free(y);
    return rc;
}

int hs_cli_info_tree(const hs_model_desc *d)
{
    const hs_tree_model *tm = d->tree;
    int i, depth = 0, nleaf = 0, nmiso = 0;
    int *nchild, *dep;
    nchild = (int *)calloc((size_t)tm->tree.nbody, sizeof *nchild);
    dep = (int *)calloc((size_t)tm->tree.nbody, sizeof *dep);
    if (!nchild || !dep) {
        free(nchild);
        free(dep);
        fprintf(stderr, "hydrosweep info: out of memory\n");
        return 2;
    }
    for (i = 0; i < tm->tree.nbody; ++i) {
        int p = tm->tree.parent[i];
        dep[i] = p >= 0 ? dep[p] + 1 : 1;
        if (dep[i] > depth) depth = dep[i];
        if (p >= 0) ++nchild[p];
    }
    for (i = 0; i < tm->tree.nbody; ++i) {
        nleaf += nchild[i] == 0;
        nmiso += nchild[i] > 1;
    }
    printf("model: %s\nfile: %s\nformulation: riccati (seed 002: an open tree, O(n) accelerations, RK4)\n"
           "bodies: %d (tips %d, multi-input bodies %d, depth %d)\njoints: %d revolute, %d prismatic, %d ball\n"
           "coordinates: %d positions, %d velocities (degrees of freedom)\n"
           "integrator: RK4, dt = %g s, t_end = %g s\nmemory: %.3g MB for the tree and its integration\n",
           tm->name, tm->path, tm->tree.nbody, nleaf, nmiso, depth, tm->njoint[0], tm->njoint[1], tm->njoint[2], tm->tree.nq,
           tm->tree.nv, tm->dt, tm->t_end, (double)tm->tree.nbody * (double)HS_TREE_BYTES_PER_BODY / 1e6);
    if (tm->inputs)
        printf("loads: %d external loads, %d signals (their work W_ext in the energy balance)\n", tm->inputs->nload,
               tm->inputs->nsignal);
    free(nchild);
    free(dep);
    info_params(d);
    return 0;
}
