/* run_plan.c -- the first stage of a run (run_stages.h): what to run, decided and checked
 * before any file is created. */
#include <stdlib.h>
#include <string.h>

#include "engine/backend.h"
#include "hs/linearize.h"
#include "model/params.h"
#include "run/run_stages.h"

const char *const hs_run_method_names[] = {"monte_carlo", "latin_hypercube", "sobol", "grid", "saltelli",
                                           "cosim_search"};

/* outputs.eigenvalues: the Jacobian size of the run, from the model's own values (each
 * instance's must match: hs_lin_instance). */
static int eig_size(const hs_sweep *sw, const hs_model_desc *md, int *neig, hs_error *err)
{
    hs_lin_point x;
    hs_linearization *L;
    hs_error e;
    int rc = 0;
    *neig = 0;
    if (!sw->eig) return HS_OK;
    if (!(L = (hs_linearization *)malloc(sizeof *L))) return hs_error_set(err, HS_ERR_IO, "", 0, 0, "", "out of memory");
    if (hs_lin_point_equilibrium(&md->model, &x, &e) || hs_linearize(&md->model, &x, HS_LIN_EXACT, 0.0, L, &e))
        rc = hs_error_set(err, HS_ERR_VALUE, sw->path, sw->eig_line, sw->eig_col, "outputs.eigenvalues",
                          "the model %s with its own values cannot be linearized at a static equilibrium "
                          "(%s): eigenvalues need one",
                          md->path, e.msg);
    else if (!hs_lin_at_rest(L, &x))
        rc = hs_error_set(err, HS_ERR_VALUE, sw->path, sw->eig_line, sw->eig_col, "outputs.eigenvalues",
                          "the model %s with its own values is not at rest at its input coordinates (no "
                          "static equilibrium: `hydrosweep linearize` shows its rates): eigenvalues need one",
                          md->path);
    else
        *neig = L->size;
    free(L);
    return rc;
}

int hs_run_plan_make(const hs_sweep *sw_in, hs_model_desc *md, const hs_run_opts *o, hs_run_plan *p,
                     hs_error *err)
{
    const hs_sweep *sw = &p->sw;
    int rc;
    memset(p, 0, sizeof *p);
    /* with -n the samples are drawn for that many instances (Latin-hypercube strata) */
    p->sw = *sw_in;
    p->n = o->n > 0 ? o->n : sw->n;
    p->backend = o->backend;
    /* the sweep's simulation overrides go into the shared model, validated */
    if ((rc = hs_sweep_apply_simulation(sw, md, err))) return rc;
    if ((sw->method == HS_SAMPLE_GRID || sw->method == HS_SAMPLE_COSIM_SEARCH) && p->n != sw->n)
        return hs_error_set(err, HS_ERR_ARG, sw->path, 0, 0, "instances",
                            "a %s sweep has exactly %ld instances; -n cannot change that",
                            hs_run_method_names[sw->method], sw->n);
    p->sw.n = p->n;
    if (o->shard_n > 1) {
        if (o->shard_k < 0 || o->shard_k >= o->shard_n)
            return hs_error_set(err, HS_ERR_ARG, "", 0, 0, "--shard", "shard K/N needs 0 <= K < N");
        p->i_begin = (long)((double)p->n * o->shard_k / o->shard_n);
        p->i_end = (long)((double)p->n * (o->shard_k + 1) / o->shard_n);
    } else {
        p->i_begin = 0;
        p->i_end = p->n;
    }
    /* what this run (all instances, -n, or a shard) needs, before anything is created */
    if ((rc = hs_sweep_check_size(sw, md, p->n, p->i_end - p->i_begin, err))) {
        if (err && o->n > 0 && (!strcmp(err->key, "instances") || !strcmp(err->key, "parameters"))) {
            err->line = err->col = 0; /* the count is run -n's, not the file's */
            snprintf(err->key, sizeof err->key, "-n");
        }
        return rc;
    }
    if (p->backend == HS_BACKEND_AUTO) {
        char gname[200];
        p->backend = hs_gpu_available(gname, sizeof gname) ? HS_BACKEND_GPU : HS_BACKEND_CPU;
        fprintf(o->report, "backend: auto picked %s (%s)\n", p->backend == HS_BACKEND_GPU ? "gpu" : "cpu",
                p->backend == HS_BACKEND_GPU ? gname : "no usable CUDA device");
    }
    if (p->backend == HS_BACKEND_CPU && (rc = hs_cpu_threads_check(o->threads, err))) return rc;
    {
        const char *in[2];
        in[0] = sw->path;
        in[1] = sw->model_path;
        if ((rc = hs_results_check_inputs(o->out, in, 2, err))) return rc;
    }
    if (p->backend == HS_BACKEND_GPU) {
        if (!hs_gpu_available(p->device, sizeof p->device))
            return hs_error_set(err, HS_ERR_ARG, "", 0, 0, "-b", "no GPU backend: %s", p->device);
    } else {
        hs_cpu_name(p->device, sizeof p->device);
    }
    hs_sweep_overrides(sw, md, &p->ov);
    if ((rc = eig_size(sw, md, &p->neig, err))) return rc;
    p->nsteps = hs_nsteps(&md->model);
    p->ntime = hs_traj_count(p->nsteps, sw->out.traj_every);
    return HS_OK;
}
