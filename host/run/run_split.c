/* run_split.c -- a job whose sweep varies an integer that shapes the model (a cylinder's
 * friction law sets its friction states; hs_spec_structural): one specialised build holds one
 * structure, so the job's instances are grouped by those integers' values and each group runs
 * as a job of its own, the integers set in its base model (derived again), the other overrides
 * as they were; each group's outputs go back to its instances' places. The GPU runs only the
 * specialised engine, so its jobs take this way (host/run/run.c, dispatch). */
#include <stdlib.h>
#include <string.h>

#include "engine/kernel_spec.h"
#include "hs_model_derive.h"
#include "results/batch_out.h"
#include "run/run_split.h"

/* What one group's progress adds to the instances of the groups before it. */
typedef struct split_prog {
    const hs_batch_job *job;
    long before;
} split_prog;

static int split_progress(void *ctx, long done)
{
    split_prog *p = (split_prog *)ctx;
    return p->job->progress(p->job->progress_ctx, p->before + done);
}

/* 1 if instances a and b of job have the same values in the structural columns cols (ncol). */
static int same_structure(const hs_batch_job *job, const int *cols, int ncol, long a, long b)
{
    int k, nov = job->ov->n;
    for (k = 0; k < ncol; ++k)
        if (job->values[a * nov + cols[k]] != job->values[b * nov + cols[k]]) return 0;
    return 1;
}

/* Runs the instances idx[0..cnt) of job, whose structural columns cols (ncol) all equal those
 * of instance idx[0], as one job. */
static int run_group(const hs_batch_job *job, const int *cols, int ncol, const long *idx, long cnt, long before,
                     hs_split_run_fn run, void *ctx, hs_error *err)
{
    hs_model *m = (hs_model *)malloc(sizeof *m);
    hs_override_spec ov;
    hs_batch_out out;
    hs_batch_job sub;
    split_prog sp;
    double *v;
    long i;
    int j, k, c, rc, nov = job->ov->n;
    memset(&out, 0, sizeof out);
    memset(&ov, 0, sizeof ov);
    v = (double *)malloc((size_t)(cnt > 0 ? cnt : 1) * (size_t)(nov > 0 ? nov : 1) * sizeof *v);
    if (!m || !v || hs_batch_out_alloc(&out, cnt, job->spec, job->out->ntime)) {
        free(m);
        free(v);
        hs_batch_out_free(&out);
        return hs_error_set(err, HS_ERR_IO, "", 0, 0, "backend", "out of memory for a group of instances");
    }
    *m = *job->base;
    for (k = 0; k < ncol; ++k) { /* the group's integers into its model (hs_instance_model's rule) */
        int iv = (int)job->values[idx[0] * nov + cols[k]];
        memcpy((char *)m + job->ov->offset[cols[k]], &iv, sizeof iv);
    }
    hs_model_derive(m);
    for (j = 0, c = 0; j < nov; ++j) {
        for (k = 0; k < ncol && cols[k] != j; ++k) {}
        if (k < ncol) continue;
        ov.offset[ov.n] = job->ov->offset[j];
        ov.is_int[ov.n] = job->ov->is_int[j];
        for (i = 0; i < cnt; ++i) v[i * (nov - ncol) + c] = job->values[idx[i] * nov + j];
        ++ov.n;
        ++c;
    }
    sub = *job;
    sub.base = m;
    sub.ov = &ov;
    sub.cnt = cnt;
    sub.values = v;
    sub.out = &out;
    sp.job = job;
    sp.before = before;
    if (job->progress) {
        sub.progress = split_progress;
        sub.progress_ctx = &sp;
    }
    rc = run(&sub, ctx, err);
    if (!rc) hs_batch_out_scatter(job->out, &out, idx, job->spec);
    hs_batch_out_free(&out);
    free(v);
    free(m);
    return rc;
}

int hs_run_split(const hs_batch_job *job, hs_split_run_fn run, void *ctx, hs_error *err)
{
    int cols[HS_MAX_SWEEP], ncol = 0, j, ng = 0, rc = HS_OK;
    long *first = NULL, *group = NULL, *idx = NULL, i, before = 0;
    for (j = 0; job->ov && j < job->ov->n; ++j)
        if (hs_spec_structural(job->ov, j)) cols[ncol++] = j;
    if (ncol == 0 || job->cnt <= 0) return run(job, ctx, err);
    first = (long *)malloc(HS_SPLIT_MAX * sizeof *first);
    group = (long *)malloc((size_t)job->cnt * sizeof *group);
    idx = (long *)malloc((size_t)job->cnt * sizeof *idx);
    if (!first || !group || !idx) {
        rc = hs_error_set(err, HS_ERR_IO, "", 0, 0, "backend", "out of memory for the instances' groups");
        goto done;
    }
    for (i = 0; i < job->cnt; ++i) {
        int g, k;
        /* (the loader admits an enumeration's own values only: anything else is a defect) */
        for (k = 0; k < ncol; ++k) {
            double x = job->values[i * job->ov->n + cols[k]];
            if (!(x >= -2147483648.0 && x <= 2147483647.0 && x == (double)(int)x)) {
                rc = hs_error_set(err, HS_ERR_VALUE, "", 0, 0, "sweep",
                                  "instance %ld: %g is no value of the integer parameter it is drawn for", i, x);
                goto done;
            }
        }
        for (g = 0; g < ng && !same_structure(job, cols, ncol, first[g], i); ++g) {}
        if (g == ng) {
            if (ng == HS_SPLIT_MAX) {
                rc = hs_error_set(err, HS_ERR_ARG, "", 0, 0, "sweep",
                                  "the sweep's integer parameters (a friction law, ...) make more than %d model "
                                  "structures in one chunk, each its own build of the specialised engine: sweep "
                                  "fewer combinations, or run them on the cpu backend (-b cpu)",
                                  HS_SPLIT_MAX);
                goto done;
            }
            first[ng++] = i;
        }
        group[i] = g;
    }
    for (j = 0; j < ng && !rc; ++j) {
        long cnt = 0;
        for (i = 0; i < job->cnt; ++i)
            if (group[i] == j) idx[cnt++] = i;
        rc = run_group(job, cols, ncol, idx, cnt, before, run, ctx, err);
        before += cnt;
    }
done:
    free(idx);
    free(group);
    free(first);
    return rc;
}
