/* run_layout.c -- the second stage of a run (run_stages.h): the results file's layout (names
 * and units of the parameters and signals, the trajectories' time grid) and metadata (the
 * texts, seed, method, backend, device, version, the joints; a configuration search's roles). */
#include <stdlib.h>
#include <string.h>

#include "engine/backend.h"
#include "run/run_stages.h"

/* The layout's arrays and their lengths (less the one more each has; the lengths only in
 * hs_run_layout_make, where sw, md and p are in scope). */
#define LAYOUT_ARRAYS(X)                                                                                 \
    X(namebuf, sw->out.nsig + sw->out.ntraj) X(pnames, sw->nparam) X(punits, sw->nparam)                 \
    X(snames, sw->out.nsig) X(tnames, sw->out.ntraj) X(sunits, sw->out.nsig) X(tunits, sw->out.ntraj)   \
    X(jnames, md->model.nz) X(jkinds, md->model.nz) X(ttime, p->ntime)

void hs_run_layout_free(hs_run_layout *y)
{
#define FREE_ARRAY(a, n) free(y->a);
    LAYOUT_ARRAYS(FREE_ARRAY)
    memset(y, 0, sizeof *y);
}

/* method cosim_search: which instance is which configuration, test input and H, for
 * `hydrosweep analyze cosim` */
static void search_meta(const hs_sweep *sw, const hs_model_desc *md, hs_run_layout *y)
{
    int j;
    for (j = 0; j < sw->nparam && j < HS_MAX_SWEEP; ++j) {
        const hs_param *p = &md->param[sw->param[j].index];
        size_t used = 0;
        int k;
        /* its role: H, the hydraulics' step, a test input's, a configuration's */
        y->sdims[j] = sw->param[j].dim >= sw->search.dim_config     ? 3
                      : sw->param[j].dim == sw->search.dim_input     ? 2
                      : !strcmp(sw->param[j].name, "integrator.dt") ? 0
                                                                     : 1;
        y->senums[j][0] = '\0';
        for (k = 0; p->type == HS_PARAM_ENUM && k < p->n_enum; ++k) {
            int w = snprintf(y->senums[j] + used, sizeof y->senums[j] - used, "%s%s", k ? "," : "", p->enum_names[k]);
            if (w > 0 && (size_t)w < sizeof y->senums[j] - used) used += (size_t)w;
        }
        y->senum_p[j] = y->senums[j];
    }
    y->meta.search_param_enums = y->senum_p;
    for (j = 0; j < sw->search.ninput && j < 64; ++j) y->snames_in[j] = sw->search.input_name[j];
    y->meta.nsearch_input = sw->search.ninput < 64 ? sw->search.ninput : 64;
    y->meta.search_inputs = y->snames_in;
    y->meta.search_nH = sw->search.nH;
    y->meta.search_param_roles = y->sdims;
}

int hs_run_layout_make(const hs_run_plan *p, const hs_model_desc *md, hs_run_layout *y, hs_error *err)
{
    const hs_sweep *sw = &p->sw;
    hs_results_layout *L = &y->L;
    hs_results_meta *meta = &y->meta;
    long c;
    int j, ok = 1;
    memset(y, 0, sizeof *y);
#define ALLOC_ARRAY(a, n) ok &= (y->a = calloc((size_t)(n) + 1, sizeof *y->a)) != NULL;
    LAYOUT_ARRAYS(ALLOC_ARRAY)
    if (!ok) {
        hs_run_layout_free(y);
        return hs_error_set(err, HS_ERR_IO, "", 0, 0, "", "out of memory");
    }
    for (j = 0; j < sw->nparam; ++j) {
        y->pnames[j] = sw->param[j].name;
        y->punits[j] = md->param[sw->param[j].index].unit;
    }
    for (j = 0; j < sw->out.nsig; ++j) {
        hs_output_name(md, sw->out.sig[j], y->namebuf[j], sizeof y->namebuf[j]);
        y->snames[j] = y->namebuf[j];
        y->sunits[j] = hs_output_unit(md, sw->out.sig[j]);
    }
    for (j = 0; j < sw->out.ntraj; ++j) {
        hs_output_name(md, sw->out.traj[j], y->namebuf[sw->out.nsig + j], sizeof y->namebuf[0]);
        y->tnames[j] = y->namebuf[sw->out.nsig + j];
        y->tunits[j] = hs_output_unit(md, sw->out.traj[j]);
    }
    for (j = 0; j < md->model.nz; ++j) {
        y->jnames[j] = md->joint_name[j];
        y->jkinds[j] = hs_joint_kind_name(md, j);
    }
    for (c = 0; c < p->ntime; ++c) {
        long k = c * sw->out.traj_every;
        /* the last step ends at t_end */
        y->ttime[c] = k < p->nsteps ? (double)k * md->model.dt : md->model.t_end;
    }
    L->n_total = p->n;
    L->i_begin = p->i_begin;
    L->i_end = p->i_end;
    L->chunk = sw->chunk > 0 ? sw->chunk : 1024;
    L->nparam = sw->nparam;
    L->param_names = y->pnames;
    L->param_units = y->punits;
    L->nsig = sw->out.nsig;
    L->sig_names = y->snames;
    L->sig_units = y->sunits;
    L->stats = sw->out.stats;
    L->ntraj = sw->out.ntraj;
    L->traj_names = y->tnames;
    L->traj_units = y->tunits;
    L->ntime = p->ntime;
    L->traj_time = y->ttime;
    L->neig = p->neig;
    snprintf(y->ver, sizeof y->ver, "%s", HS_VERSION);
    meta->model_text = md->text;
    meta->sweep_text = sw->text;
    meta->model_path = md->path;
    meta->sweep_path = sw->path;
    meta->seed = sw->seed;
    meta->method = hs_run_method_names[sw->method];
    meta->backend = p->backend == HS_BACKEND_GPU ? "gpu" : p->backend == HS_BACKEND_REFERENCE ? "reference" : "cpu";
    meta->device = p->device;
    meta->version = y->ver;
    meta->commit = HS_GIT_COMMIT;
    meta->model_name = md->name;
    meta->njoint = md->model.nz;
    meta->joint_names = y->jnames;
    meta->joint_kinds = y->jkinds;
    if (sw->method == HS_SAMPLE_COSIM_SEARCH) search_meta(sw, md, y);
    return HS_OK;
}
