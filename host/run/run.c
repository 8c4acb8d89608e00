/* run.c -- the sweep pipeline hs_run_cli (run_stages.h): plan (run_plan.c), layout and results
 * file (run_layout.c), chunks of sample-integrate-write, finish; per-instance progress on stderr
 * and SIGINT/SIGTERM stopping a run resumably (host/base/progress.h). Also hs_run_range: the
 * integrate stage alone, on chosen instances (validate, the tests). */
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/backend.h"
#include "results/batch_out.h"
#include "run/run_split.h"
#include "hs/linearize.h"
#include "model/params.h"
#include "base/progress.h"
#include "run/run_cli.h"
#include "hs/results.h"
#include "hs/run.h"
#include "engine/simulate.h"
#include "tree/tree_params.h"
#include "run/run_stages.h"



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

/* Where the chunk loop stands (the chunks stage's own data). */
typedef struct run_state {
    long done; /* instances finished, written ones and those a resumed run had */
    long done0; /* ... of them by the run this one resumed */
    long written; /* chunks written by this run */
    int stopped; /* --stop-after reached */
    int interrupted; /* SIGINT/SIGTERM, or a backend stopped by one */
    hs_progress pr;
    hs_tree_ens ens; /* a riccati model's ensemble (tree_job) */
} run_state;

/* The instances a resumed run had finished, said on o->report. */
static void count_done(const hs_run_plan *p, const hs_run_layout *y, hs_results *res, const hs_run_opts *o,
                       run_state *st)
{
    long c, nchunk = hs_results_nchunk(res);
    for (c = 0; c < nchunk; ++c)
        if (hs_results_chunk_done(res, c))
            st->done += (c == nchunk - 1) ? (p->i_end - p->i_begin) - c * y->L.chunk : y->L.chunk;
    if (st->done > 0) fprintf(o->report, "run: resuming, %ld instances already done\n", st->done);
    st->done0 = st->done; /* the throughput is of what this run computes */
}

/* Integrates instances [i0, i0 + cnt) with their sampled values v: the backend (with a riccati
 * model's ensemble), then the eigenvalues the sweep asks for. HS_ERR_INTERRUPTED passes through. */
static int chunk_integrate(const hs_run_plan *p, const hs_model_desc *md, const hs_run_opts *o, run_state *st,
                           const double *v, long cnt, hs_batch_out *bo, hs_eig_out *eo, hs_error *err)
{
    hs_batch_job job;
    int rc;
    memset(&job, 0, sizeof job);
    job.base = &md->model;
    job.ov = &p->ov;
    job.spec = &p->sw.out;
    job.cnt = cnt;
    job.values = v;
    job.out = bo;
    job.progress = hs_progress_job;
    job.progress_ctx = &st->pr;
    if ((rc = tree_job(&p->sw, md, &p->ov, &st->ens, &job, err)) || (rc = dispatch(p->backend, &job, o->threads, err)))
        return rc;
    if (p->neig > 0 && (hs_eig_out_alloc(eo, cnt, p->neig) || eig_batch(&md->model, &p->ov, v, cnt, p->sw.nparam, eo)))
        return hs_error_set(err, HS_ERR_IO, "", 0, 0, "", "out of memory for the eigenvalues");
    return HS_OK;
}

/* Writes chunks [c0, c1) from the group's outputs (bo, eo: their instances in order, values v). */
static int chunk_write(const hs_run_plan *p, const hs_run_layout *y, hs_results *res, long c0, long c1,
                       const double *v, long cnt, const hs_batch_out *bo, const hs_eig_out *eo, run_state *st,
                       hs_error *err)
{
    long k, chunk = y->L.chunk;
    int rc = HS_OK;
    for (k = c0; k < c1 && !rc; ++k) {
        long off = (k - c0) * chunk, m = (cnt - off) < chunk ? (cnt - off) : chunk;
        hs_eig_out ev = hs_eig_out_view(eo, off, m);
        if (c1 - c0 == 1) {
            rc = hs_results_write_chunk_eig(res, k, v, bo, p->neig > 0 ? &ev : NULL, err);
        } else {
            hs_batch_out part;
            if ((rc = hs_batch_out_slice(bo, off, m, &p->sw.out, &part)))
                return hs_error_set(err, rc, "", 0, 0, "", "out of memory for a chunk");
            rc = hs_results_write_chunk_eig(res, k, v + off * p->sw.nparam, &part, p->neig > 0 ? &ev : NULL, err);
            hs_batch_out_free(&part);
        }
        ++st->written;
    }
    return rc;
}

/* The chunks stage. Chunks are the unit of writing (and of resuming); the backend gets groups
 * of consecutive unfinished chunks so that a GPU sees enough instances per launch (about
 * 2^17), while the CPU backends take one chunk at a time. Each group: sample, integrate,
 * write. Stops between two groups at --stop-after or on a signal (st says which). */
static int run_chunks(const hs_run_plan *p, const hs_model_desc *md, const hs_run_opts *o, const hs_run_layout *y,
                      hs_results *res, run_state *st, hs_error *err)
{
    long group_target = o->batch > 0 ? o->batch : (p->backend == HS_BACKEND_GPU ? 131072 : 1);
    long c = 0, nchunk = hs_results_nchunk(res), chunk = y->L.chunk;
    int rc = HS_OK;
    while (c < nchunk && !rc) {
        long c0, c1, i0, cnt;
        hs_batch_out bo;
        hs_eig_out eo;
        double *v;
        if (hs_results_chunk_done(res, c)) {
            ++c;
            continue;
        }
        if (o->stop_after > 0 && st->written >= o->stop_after) {
            st->stopped = 1;
            break;
        }
        if (hs_interrupted()) {
            st->interrupted = 1;
            break;
        }
        /* [c0, c1): unfinished chunks, at most stop_after - written of them */
        c0 = c;
        c1 = c + 1;
        while (c1 < nchunk && !hs_results_chunk_done(res, c1) && (c1 - c0 + 1) * chunk <= group_target &&
               !(o->stop_after > 0 && st->written + (c1 - c0) >= o->stop_after))
            ++c1;
        i0 = p->i_begin + c0 * chunk;
        cnt = ((p->i_begin + c1 * chunk) < p->i_end ? (p->i_begin + c1 * chunk) : p->i_end) - i0;
        if ((rc = hs_batch_out_alloc(&bo, cnt, &p->sw.out, p->ntime)))
            return hs_error_set(err, rc, "", 0, 0, "", "out of memory for %ld instances", cnt);
        if (!(v = sample_values(&p->sw, NULL, i0, cnt))) {
            hs_batch_out_free(&bo);
            return hs_error_set(err, HS_ERR_IO, "", 0, 0, "", "out of memory for the samples");
        }
        memset(&eo, 0, sizeof eo);
        rc = chunk_integrate(p, md, o, st, v, cnt, &bo, &eo, err);
        if (rc == HS_ERR_INTERRUPTED) { /* nothing of this call is written */
            rc = HS_OK;
            st->interrupted = 1;
        } else if (!rc) {
            rc = chunk_write(p, y, res, c0, c1, v, cnt, &bo, &eo, st, err);
        }
        free(v);
        hs_batch_out_free(&bo);
        hs_eig_out_free(&eo);
        if (st->interrupted) break;
        if (!rc) {
            st->done += cnt;
            hs_progress_advance(&st->pr, cnt);
        }
        c = c1;
    }
    return rc;
}

/* The finish stage: a stopped run says how to continue it; a complete one finishes the file
 * and reports its rate. */
static int run_finish(const hs_run_plan *p, const hs_model_desc *md, const hs_run_opts *o, const char *argv0,
                      const hs_run_layout *y, hs_results *res, const run_state *st, double t0, hs_error *err)
{
    int rc = HS_OK;
    long nrun = p->i_end - p->i_begin;
    if (st->stopped || st->interrupted) {
        char cmd[2048];
        hs_resume_command(cmd, sizeof cmd, argv0, p->sw.path, o, y->meta.backend);
        if (st->interrupted) {
            int s = hs_interrupted();
            const char *sn = s == SIGTERM ? "SIGTERM" : "SIGINT";
            long lost = st->pr.done - st->done; /* finished in the call that was stopped: not written */
            fprintf(stderr, "run: interrupted by %s: %s.part keeps %ld of %ld instances", sn, o->out, st->done, nrun);
            if (lost > 0)
                fprintf(stderr, " (written in whole chunks of %ld; the %ld finished in unwritten chunks run "
                        "again)", y->L.chunk, lost);
            fprintf(stderr, "; to continue the run:\n  %s\n", cmd);
            fflush(stderr);
            return hs_error_set(err, HS_ERR_INTERRUPTED, "", 0, 0, "", "interrupted by %s", sn);
        }
        fprintf(o->report, "run: stopped after %ld chunks as asked (--stop-after); continue with:\n  %s\n",
                st->written, cmd);
        return HS_OK;
    }
    {
        double el = hs_now_s() - t0;
        hs_results_report_si(res, o->si);
        rc = hs_results_finish(res, o->report, err);
        if (!rc) {
            long ran = nrun - st->done0; /* a resumed run computed only the rest */
            fprintf(o->report, "run: %ld instances in %.3f s (%.1f instances/s, %.3g instance-steps/s%s); "
                    "results %s\n", ran, el, (double)ran / el, (double)ran * (double)p->nsteps / el,
                    md->model.step == HS_STEP_ADAPTIVE ? " of the output grid dt: adaptive steps" : "", o->out);
            if (st->done0 > 0)
                fprintf(o->report, "run: %ld of the %ld instances were computed by the run this one resumed\n",
                        st->done0, nrun);
        }
    }
    return rc;
}

/* The pipeline (run_stages.h): plan; layout and the results file (created, or resumed);
 * chunks of sample-integrate-write with progress, SIGINT/SIGTERM stopping between two; finish. */
int hs_run_cli(const hs_sweep *sw_in, hs_model_desc *md, const hs_run_opts *o, const char *argv0, hs_error *err)
{
    hs_run_plan p;
    hs_run_layout y;
    hs_results *res = NULL;
    run_state st;
    double t0 = hs_now_s();
    int rc;
    memset(&st, 0, sizeof st);
    if ((rc = hs_run_plan_make(sw_in, md, o, &p, err))) return rc;
    if ((rc = hs_run_layout_make(&p, md, &y, err))) return rc;
    rc = o->resume ? hs_results_resume(o->out, &y.L, &y.meta, &res, err)
                   : hs_results_create(o->out, &y.L, &y.meta, &res, err);
    if (!rc && o->resume) rc = hs_results_check_params(res, err); /* its finished /params re-derived */
    if (rc) {
        hs_results_close(res);
        hs_run_layout_free(&y);
        return rc;
    }
    fprintf(o->report, "run: %s, %ld instances [%ld, %ld) of %ld, %s, backend %s on %s, %ld steps each\n",
            p.sw.path, p.i_end - p.i_begin, p.i_begin, p.i_end, p.n, y.meta.method, y.meta.backend, p.device,
            p.nsteps);
    count_done(&p, &y, res, o, &st);
    fflush(o->report); /* before the progress lines on stderr */
    /* progress per finished instance, and SIGINT/SIGTERM stop the run between two chunks
     * with every written chunk kept (host/base/progress.h) */
    hs_progress_begin(&st.pr, stderr, hs_progress_mode_for(o->progress, stderr), p.i_end - p.i_begin, st.done);
    hs_interrupt_catch();
    rc = run_chunks(&p, md, o, &y, res, &st, err);
    hs_progress_end(&st.pr);
    if (!rc) rc = run_finish(&p, md, o, argv0, &y, res, &st, t0, err);
    hs_interrupt_release();
    hs_results_close(res);
    hs_run_layout_free(&y);
    return rc;
}
