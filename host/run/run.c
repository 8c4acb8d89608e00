/* run.c -- the sweep driver: shard range, chunks, sampling, backend, results, progress
 * (host/base/progress.h: per-instance progress on stderr, SIGINT/SIGTERM stop a run resumably). */
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "engine/backend.h"
#include "results/batch_out.h"
#include "run/run_split.h"
#include "hs/linearize.h"
#include "model/params.h"
#include "base/progress.h"
#include "hs/results.h"
#include "hs/run.h"
#include "engine/simulate.h"
#include "model/tree_params.h"

static const char *const method_names[] = {"monte_carlo", "latin_hypercube", "sobol", "grid", "saltelli",
                                            "cosim_search"};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}



static int run_gpu(const hs_batch_job *job, void *ctx, hs_error *err)
{
    (void)ctx;
    return hs_backend_gpu(job, err);
}

/* The GPU runs the engine specialised to one structure: a job that varies it runs in groups
 * (run_split.h); the cpu backend runs such a job with its generic engine at once. */
static int dispatch(int backend, const hs_batch_job *job, int threads, hs_error *err)
{
    switch (backend) {
    case HS_BACKEND_REFERENCE: return hs_backend_reference(job, err);
    case HS_BACKEND_GPU: return job->tree ? hs_backend_gpu_tree(job, err) : hs_run_split(job, run_gpu, NULL, err);
    default: return hs_backend_cpu(job, threads, err);
    }
}

/* A riccati model's job (md->tree): its ensemble model e, which job->tree then points to. */
static int tree_job(const hs_sweep *sw, const hs_model_desc *md, const hs_override_spec *ov, hs_tree_ens *e,
                    hs_batch_job *job, hs_error *err)
{
    if (!md->tree) return HS_OK;
    if (hs_tree_ens_of(md->tree, md, ov, &sw->out, md->model.t_end, md->model.dt, e))
        return hs_error_set(err, HS_ERR_ARG, sw->path, 0, 0, "parameters", "a parameter is not one of model %s's",
                            md->name);
    job->tree = e;
    return HS_OK;
}

/* Sampled values of instances idx[0..cnt) (or i0 + k when idx is NULL), row-major. */
static double *sample_values(const hs_sweep *sw, const long *idx, long i0, long cnt)
{
    double *v = (double *)malloc((size_t)(cnt > 0 ? cnt : 1) * (size_t)(sw->nparam > 0 ? sw->nparam : 1) *
                                 sizeof *v);
    long k;
    int j;
    if (!v) return NULL;
    for (k = 0; k < cnt; ++k)
        for (j = 0; j < sw->nparam; ++j)
            v[k * sw->nparam + j] = hs_sweep_sample(sw, idx ? idx[k] : i0 + k, j);
    return v;
}

int hs_run_range(const hs_sweep *sw, const hs_model_desc *md, int backend, int threads,
                 const long *indices, long cnt, hs_batch_out *out, hs_error *err)
{
    hs_override_spec ov;
    hs_batch_job job;
    hs_tree_ens ens;
    int rc;
    double *v = sample_values(sw, indices, 0, cnt);
    if (!v) return hs_error_set(err, HS_ERR_IO, "", 0, 0, "", "out of memory for the samples");
    hs_sweep_overrides(sw, md, &ov);
    memset(&job, 0, sizeof job); /* no progress reports: validate and the tests stay quiet */
    job.base = &md->model;
    job.ov = &ov;
    job.spec = &sw->out;
    job.cnt = cnt;
    job.values = v;
    job.out = out;
    if (!(rc = tree_job(sw, md, &ov, &ens, &job, err))) rc = dispatch(backend, &job, threads, err);
    free(v);
    return rc;
}

int hs_run(const hs_sweep *sw, hs_model_desc *md, const hs_run_opts *o, hs_error *err)
{
    return hs_run_cli(sw, md, o, NULL, err);
}

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

/* The eigenvalues of instances [0, cnt) of a batch (values: cnt x nparam), each at its own
 * static equilibrium, in parallel over the instances. */
static int eig_batch(const hs_model *base, const hs_override_spec *ov, const double *values, long cnt, int nparam,
                     hs_eig_out *bo)
{
    long i;
    int fail = 0;
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic, 4) reduction(| : fail)
#endif
    for (i = 0; i < cnt; ++i) {
        hs_model *m = (hs_model *)malloc(sizeof *m);
        double *re = bo->re + i * bo->neig, *im = bo->im + i * bo->neig;
        int k;
        if (!m) {
            fail = 1;
            continue;
        }
        if (!hs_instance_model(base, ov, values + i * nparam, m)) {
            for (k = 0; k < bo->neig; ++k) re[k] = im[k] = NAN;
            bo->max_real[i] = bo->min_damping[i] = NAN;
            bo->status[i] = HS_LIN_INVALID;
        } else {
            bo->status[i] = hs_lin_instance(m, bo->neig, re, im, &bo->max_real[i], &bo->min_damping[i]);
        }
        free(m);
    }
    return fail ? HS_ERR_IO : HS_OK;
}

int hs_run_cli(const hs_sweep *sw_in, hs_model_desc *md, const hs_run_opts *o, const char *argv0, hs_error *err)
{
    /* with -n the samples are drawn for that many instances (Latin-hypercube strata) */
    hs_sweep sw_n = *sw_in;
    const hs_sweep *sw = &sw_n;
    hs_results_layout L;
    hs_results_meta meta;
    hs_results *res = NULL;
    hs_override_spec ov;
    char device[256], ver[64];
    const char **pnames = NULL, **punits = NULL, **snames = NULL, **tnames = NULL, **sunits = NULL,
               **tunits = NULL, **jnames = NULL, **jkinds = NULL;
    char (*namebuf)[112] = NULL;
    double *ttime = NULL;
    long n = o->n > 0 ? o->n : sw->n, nsteps, ntime, c, nchunk, done = 0, i_begin, i_end, written = 0, done0 = 0;
    int backend = o->backend, rc = HS_OK, j, stopped = 0, interrupted = 0, neig = 0;
    double t0 = now_s();
    hs_progress pr;
    hs_tree_ens ens;
    int sdims[HS_MAX_SWEEP];
    char senums[HS_MAX_SWEEP][256];
    const char *senum_p[HS_MAX_SWEEP];
    const char *snames_in[64];

    /* the sweep's simulation overrides go into the shared model, validated */
    if ((rc = hs_sweep_apply_simulation(sw, md, err))) return rc;
    if ((sw->method == HS_SAMPLE_GRID || sw->method == HS_SAMPLE_COSIM_SEARCH) && n != sw->n)
        return hs_error_set(err, HS_ERR_ARG, sw->path, 0, 0, "instances",
                            "a %s sweep has exactly %ld instances; -n cannot change that",
                            method_names[sw->method], sw->n);
    sw_n.n = n;
    if (o->shard_n > 1) {
        if (o->shard_k < 0 || o->shard_k >= o->shard_n)
            return hs_error_set(err, HS_ERR_ARG, "", 0, 0, "--shard", "shard K/N needs 0 <= K < N");
        i_begin = (long)((double)n * o->shard_k / o->shard_n);
        i_end = (long)((double)n * (o->shard_k + 1) / o->shard_n);
    } else {
        i_begin = 0;
        i_end = n;
    }
    /* what this run (all instances, -n, or a shard) needs, before anything is created */
    if ((rc = hs_sweep_check_size(sw, md, n, i_end - i_begin, err))) {
        if (err && o->n > 0 && (!strcmp(err->key, "instances") || !strcmp(err->key, "parameters"))) {
            err->line = err->col = 0; /* the count is run -n's, not the file's */
            snprintf(err->key, sizeof err->key, "-n");
        }
        return rc;
    }
    if (backend == HS_BACKEND_AUTO) {
        char gname[200];
        backend = hs_gpu_available(gname, sizeof gname) ? HS_BACKEND_GPU : HS_BACKEND_CPU;
        fprintf(o->report, "backend: auto picked %s (%s)\n", backend == HS_BACKEND_GPU ? "gpu" : "cpu",
                backend == HS_BACKEND_GPU ? gname : "no usable CUDA device");
    }
    if (backend == HS_BACKEND_CPU && (rc = hs_cpu_threads_check(o->threads, err))) return rc;
    {
        const char *in[2];
        in[0] = sw->path;
        in[1] = sw->model_path;
        if ((rc = hs_results_check_inputs(o->out, in, 2, err))) return rc;
    }
    if (backend == HS_BACKEND_GPU) {
        if (!hs_gpu_available(device, sizeof device))
            return hs_error_set(err, HS_ERR_ARG, "", 0, 0, "-b", "no GPU backend: %s", device);
    } else {
        hs_cpu_name(device, sizeof device);
    }
    hs_sweep_overrides(sw, md, &ov);
    if ((rc = eig_size(sw, md, &neig, err))) return rc;
    nsteps = hs_nsteps(&md->model);
    ntime = hs_traj_count(nsteps, sw->out.traj_every);

    /* names for the results layout */
    namebuf = (char (*)[112])calloc((size_t)(sw->out.nsig + sw->out.ntraj + 1), sizeof *namebuf);
    pnames = (const char **)calloc((size_t)sw->nparam + 1, sizeof *pnames);
    punits = (const char **)calloc((size_t)sw->nparam + 1, sizeof *punits);
    snames = (const char **)calloc((size_t)sw->out.nsig + 1, sizeof *snames);
    tnames = (const char **)calloc((size_t)sw->out.ntraj + 1, sizeof *tnames);
    sunits = (const char **)calloc((size_t)sw->out.nsig + 1, sizeof *sunits);
    tunits = (const char **)calloc((size_t)sw->out.ntraj + 1, sizeof *tunits);
    jnames = (const char **)calloc((size_t)md->model.nz + 1, sizeof *jnames);
    jkinds = (const char **)calloc((size_t)md->model.nz + 1, sizeof *jkinds);
    ttime = (double *)calloc((size_t)ntime + 1, sizeof *ttime);
    if (!namebuf || !pnames || !punits || !snames || !tnames || !sunits || !tunits || !jnames || !jkinds ||
        !ttime) {
        rc = hs_error_set(err, HS_ERR_IO, "", 0, 0, "", "out of memory");
        goto done;
    }
    for (j = 0; j < sw->nparam; ++j) {
        pnames[j] = sw->param[j].name;
        punits[j] = md->param[sw->param[j].index].unit;
    }
    for (j = 0; j < sw->out.nsig; ++j) {
        hs_output_name(md, sw->out.sig[j], namebuf[j], sizeof namebuf[j]);
        snames[j] = namebuf[j];
        sunits[j] = hs_output_unit(md, sw->out.sig[j]);
    }
    for (j = 0; j < sw->out.ntraj; ++j) {
        hs_output_name(md, sw->out.traj[j], namebuf[sw->out.nsig + j], sizeof namebuf[0]);
        tnames[j] = namebuf[sw->out.nsig + j];
        tunits[j] = hs_output_unit(md, sw->out.traj[j]);
    }
    for (j = 0; j < md->model.nz; ++j) {
        jnames[j] = md->joint_name[j];
        jkinds[j] = hs_joint_kind_name(md, j);
    }
    for (c = 0; c < ntime; ++c) {
        long k = c * sw->out.traj_every;
        ttime[c] = k < nsteps ? (double)k * md->model.dt : md->model.t_end; /* the last step ends at t_end */
    }
    memset(&L, 0, sizeof L);
    L.n_total = n;
    L.i_begin = i_begin;
    L.i_end = i_end;
    L.chunk = sw->chunk > 0 ? sw->chunk : 1024;
    L.nparam = sw->nparam;
    L.param_names = pnames;
    L.param_units = punits;
    L.nsig = sw->out.nsig;
    L.sig_names = snames;
    L.sig_units = sunits;
    L.stats = sw->out.stats;
    L.ntraj = sw->out.ntraj;
    L.traj_names = tnames;
    L.traj_units = tunits;
    L.ntime = ntime;
    L.traj_time = ttime;
    L.neig = neig;
    snprintf(ver, sizeof ver, "%s", HS_VERSION);
    memset(&meta, 0, sizeof meta);
    meta.model_text = md->text;
    meta.sweep_text = sw->text;
    meta.model_path = md->path;
    meta.sweep_path = sw->path;
    meta.seed = sw->seed;
    meta.method = method_names[sw->method];
    meta.backend = backend == HS_BACKEND_GPU ? "gpu" : backend == HS_BACKEND_REFERENCE ? "reference" : "cpu";
    meta.device = device;
    meta.version = ver;
    meta.commit = HS_GIT_COMMIT;
    meta.model_name = md->name;
    meta.njoint = md->model.nz;
    meta.joint_names = jnames;
    meta.joint_kinds = jkinds;
    if (sw->method == HS_SAMPLE_COSIM_SEARCH) {
        /* analyze cosim: which instance is which configuration, test input and H */
        for (j = 0; j < sw->nparam && j < HS_MAX_SWEEP; ++j) {
            const hs_param *p = &md->param[sw->param[j].index];
            size_t used = 0;
            int k;
            /* its role: H, the hydraulics' step, a test input's, a configuration's */
            sdims[j] = sw->param[j].dim >= sw->search.dim_config     ? 3
                       : sw->param[j].dim == sw->search.dim_input     ? 2
                       : !strcmp(sw->param[j].name, "integrator.dt") ? 0
                                                                      : 1;
            senums[j][0] = '\0';
            for (k = 0; p->type == HS_PARAM_ENUM && k < p->n_enum; ++k) {
                int w = snprintf(senums[j] + used, sizeof senums[j] - used, "%s%s", k ? "," : "", p->enum_names[k]);
                if (w > 0 && (size_t)w < sizeof senums[j] - used) used += (size_t)w;
            }
            senum_p[j] = senums[j];
        }
        meta.search_param_enums = senum_p;
        for (j = 0; j < sw->search.ninput && j < 64; ++j) snames_in[j] = sw->search.input_name[j];
        meta.nsearch_input = sw->search.ninput < 64 ? sw->search.ninput : 64;
        meta.search_inputs = snames_in;
        meta.search_nH = sw->search.nH;
        meta.search_param_roles = sdims;
    }
    rc = o->resume ? hs_results_resume(o->out, &L, &meta, &res, err)
                   : hs_results_create(o->out, &L, &meta, &res, err);
    if (rc) goto done;
    fprintf(o->report, "run: %s, %ld instances [%ld, %ld) of %ld, %s, backend %s on %s, %ld steps each\n",
            sw->path, i_end - i_begin, i_begin, i_end, n, meta.method, meta.backend, device, nsteps);
    nchunk = hs_results_nchunk(res);
    for (c = 0; c < nchunk; ++c)
        if (hs_results_chunk_done(res, c)) done += (c == nchunk - 1) ? (i_end - i_begin) - c * L.chunk : L.chunk;
    if (done > 0) fprintf(o->report, "run: resuming, %ld instances already done\n", done);
    done0 = done; /* the throughput is of what this run computes */
    fflush(o->report); /* before the progress lines on stderr */
    /* progress per finished instance, and SIGINT/SIGTERM stop the run between two chunks
     * with every written chunk kept (host/base/progress.h) */
    hs_progress_begin(&pr, stderr, hs_progress_mode_for(o->progress, stderr), i_end - i_begin, done);
    hs_interrupt_catch();
    /* Chunks are the unit of writing (and of resuming); the backend gets groups of
     * consecutive unfinished chunks so that a GPU sees enough instances per launch
     * (about 2^17), while the CPU backends take one chunk at a time. */
    {
        long group_target = o->batch > 0 ? o->batch : (backend == HS_BACKEND_GPU ? 131072 : 1);
        c = 0;
        while (c < nchunk && !rc) {
            long c0, c1, i0, cnt, k;
            hs_batch_out bo;
            hs_eig_out eo;
            hs_batch_job job;
            double *v;
            if (hs_results_chunk_done(res, c)) {
                ++c;
                continue;
            }
            if (o->stop_after > 0 && written >= o->stop_after) {
                stopped = 1;
                break;
            }
            if (hs_interrupted()) {
                interrupted = 1;
                break;
            }
            /* [c0, c1): unfinished chunks, at most stop_after - written of them */
            c0 = c;
            c1 = c + 1;
            while (c1 < nchunk && !hs_results_chunk_done(res, c1) &&
                   (c1 - c0 + 1) * L.chunk <= group_target &&
                   !(o->stop_after > 0 && written + (c1 - c0) >= o->stop_after))
                ++c1;
            i0 = i_begin + c0 * L.chunk;
            cnt = ((i_begin + c1 * L.chunk) < i_end ? (i_begin + c1 * L.chunk) : i_end) - i0;
            if ((rc = hs_batch_out_alloc(&bo, cnt, &sw->out, ntime))) {
                hs_error_set(err, rc, "", 0, 0, "", "out of memory for %ld instances", cnt);
                break;
            }
            v = sample_values(sw, NULL, i0, cnt);
            if (!v) {
                hs_batch_out_free(&bo);
                rc = hs_error_set(err, HS_ERR_IO, "", 0, 0, "", "out of memory for the samples");
                break;
            }
            memset(&job, 0, sizeof job);
            job.base = &md->model;
            job.ov = &ov;
            job.spec = &sw->out;
            job.cnt = cnt;
            job.values = v;
            job.out = &bo;
            job.progress = hs_progress_job;
            job.progress_ctx = &pr;
            if (!(rc = tree_job(sw, md, &ov, &ens, &job, err))) rc = dispatch(backend, &job, o->threads, err);
            if (rc == HS_ERR_INTERRUPTED) { /* nothing of this call is written */
                free(v);
                hs_batch_out_free(&bo);
                rc = HS_OK;
                interrupted = 1;
                break;
            }
            memset(&eo, 0, sizeof eo);
            if (!rc && neig > 0) {
                if (hs_eig_out_alloc(&eo, cnt, neig) || eig_batch(&md->model, &ov, v, cnt, sw->nparam, &eo))
                    rc = hs_error_set(err, HS_ERR_IO, "", 0, 0, "", "out of memory for the eigenvalues");
            }
            for (k = c0; k < c1 && !rc; ++k) {
                long off = (k - c0) * L.chunk;
                long m = (cnt - off) < L.chunk ? (cnt - off) : L.chunk;
                hs_eig_out ev = hs_eig_out_view(&eo, off, m);
                if (c1 - c0 == 1) {
                    rc = hs_results_write_chunk_eig(res, k, v, &bo, neig > 0 ? &ev : NULL, err);
                } else {
                    hs_batch_out part;
                    if ((rc = hs_batch_out_slice(&bo, off, m, &sw->out, &part))) {
                        hs_error_set(err, rc, "", 0, 0, "", "out of memory for a chunk");
                        break;
                    }
                    rc = hs_results_write_chunk_eig(res, k, v + off * sw->nparam, &part, neig > 0 ? &ev : NULL, err);
                    hs_batch_out_free(&part);
                }
                ++written;
            }
            free(v);
            hs_batch_out_free(&bo);
            hs_eig_out_free(&eo);
            if (!rc) {
                done += cnt;
                hs_progress_advance(&pr, cnt);
            }
            c = c1;
        }
    }
    hs_progress_end(&pr);
    if (!rc && (stopped || interrupted)) {
        char cmd[2048];
        hs_resume_command(cmd, sizeof cmd, argv0, sw->path, o, meta.backend);
        if (interrupted) {
            int s = hs_interrupted();
            const char *sn = s == SIGTERM ? "SIGTERM" : "SIGINT";
            long lost = pr.done - done; /* finished in the call that was stopped: not written */
            fprintf(stderr, "run: interrupted by %s: %s.part keeps %ld of %ld instances", sn, o->out, done,
                    i_end - i_begin);
            if (lost > 0)
                fprintf(stderr, " (written in whole chunks of %ld; the %ld finished in unwritten chunks run "
                        "again)", L.chunk, lost);
            fprintf(stderr, "; to continue the run:\n  %s\n", cmd);
            fflush(stderr);
            rc = hs_error_set(err, HS_ERR_INTERRUPTED, "", 0, 0, "", "interrupted by %s", sn);
        } else {
            fprintf(o->report, "run: stopped after %ld chunks as asked (--stop-after); continue with:\n  %s\n",
                    written, cmd);
        }
    } else if (!rc) {
        double el = now_s() - t0;
        rc = hs_results_finish(res, o->report, err);
        if (!rc) {
            long ran = (i_end - i_begin) - done0; /* a resumed run computed only the rest */
            fprintf(o->report, "run: %ld instances in %.3f s (%.1f instances/s, %.3g instance-steps/s%s); "
                    "results %s\n", ran, el, (double)ran / el, (double)ran * (double)nsteps / el,
                    md->model.step == HS_STEP_ADAPTIVE ? " of the output grid dt: adaptive steps" : "", o->out);
            if (done0 > 0)
                fprintf(o->report, "run: %ld of the %ld instances were computed by the run this one resumed\n",
                        done0, i_end - i_begin);
        }
    }
done:
    hs_interrupt_release();
    if (res) hs_results_close(res);
    free(namebuf);
    free(pnames);
    free(punits);
    free(snames);
    free(tnames);
    free(sunits);
    free(tunits);
    free(jnames);
    free(jkinds);
    free(ttime);
    return rc;
}
