/* test_run_split.c -- host/run/run_split.c: a job that varies the model's structure (the
 * cylinder's friction law, interleaved over the instances) run as one job per structure,
 * each through the cpu backend's generic engine (HS_CPU_ENGINE=generic: the split is tested,
 * not the builds; tests/gpu_emul/test_gpu_emul.cpp runs it on the specialised GPU path):
 *  - every instance's outputs equal to the bit to the whole job run at once (the backend
 *    applies the law per instance), the invalid instance still flagged;
 *  - the run function sees one job per law, each of one structure: no structural override
 *    left, the law in its base model, its instances' other values in order;
 *  - progress counts over the groups in turn, rising to the job's size;
 *  - a job without a structural override is passed through whole;
 *  - more than HS_SPLIT_MAX structures, and a value that is no integer: clear errors;
 *  - a run function's error (a stop) is returned as it is. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/backend.h"
#include "results/batch_out.h"
#include "run/run_split.h"
#include "conformance_setup.h"

typedef struct seen {
    int calls, nstruct_left, laws[8];
    long cnt[8];
    int fail_at; /* > 0: the fail_at-th call returns HS_ERR_INTERRUPTED */
} seen;

static int run_cpu(const hs_batch_job *job, void *ctx, hs_error *err)
{
    seen *s = (seen *)ctx;
    int j;
    if (s) {
        for (j = 0; j < job->ov->n; ++j) s->nstruct_left += job->ov->is_int[j];
        if (s->calls < 8) {
            s->laws[s->calls] = job->base->cyl_fric[0];
            s->cnt[s->calls] = job->cnt;
        }
        if (++s->calls == s->fail_at) return hs_error_set(err, HS_ERR_INTERRUPTED, "", 0, 0, "", "stopped");
    }
    return hs_backend_cpu(job, 1, err);
}

static long g_last, g_reports, g_down;
static int prog(void *ctx, long done)
{
    (void)ctx;
    if (done < g_last) ++g_down;
    g_last = done;
    ++g_reports;
    return 0;
}

static int same(const hs_batch_out *a, const hs_batch_out *b)
{
    size_t n = (size_t)a->n;
    return !memcmp(a->status, b->status, n * sizeof *a->status) && !memcmp(a->steps, b->steps, n * sizeof *a->steps) &&
           !memcmp(a->iters_max, b->iters_max, n * sizeof *a->iters_max) &&
           !memcmp(a->stats, b->stats, n * (size_t)spec.nsig * HS_NSTAT * sizeof *a->stats) &&
           !memcmp(a->traj, b->traj, n * (size_t)a->ntime * sizeof *a->traj);
}

int main(void)
{
    static double v[3 * NI], w[3 * 100];
    static const int laws[3] = {HS_FRIC_BROWN_MCPHEE, HS_FRIC_LUGRE, HS_FRIC_BENGISU_AKAY};
    hs_batch_out whole, parts;
    hs_batch_job job;
    hs_error err;
    seen s;
    long i;
    int rc, k;
    setenv("HS_CPU_ENGINE", "generic", 1);
    setup();
    base.t_end = 0.6;
    ov.is_int[1] = 1; /* the second swept value: the friction law */
    ov.offset[1] = offsetof(hs_model, cyl_fric);
    for (i = 0; i < 3 * NI; ++i) v[i] = vals[i];
    for (i = 0; i < NI; ++i) v[3 * i + 1] = (double)laws[i % 3];
    conf_job(&job, v, NI, &whole);
    CHECK(hs_backend_cpu(&job, 1, &err) == 0, "the whole job at once: %s", err.msg);
    conf_job(&job, v, NI, &parts);
    job.progress = prog;
    memset(&s, 0, sizeof s);
    rc = hs_run_split(&job, run_cpu, &s, &err);
    CHECK(rc == 0 && same(&whole, &parts), "split by law: every instance equal to the bit (%s)", err.msg);
    CHECK(parts.status[5] == HS_ST_INVALID, "the invalid instance flagged in its group");
    CHECK(s.calls == 3 && s.nstruct_left == 0, "one job per law (%d), no structural override left (%d)", s.calls,
          s.nstruct_left);
    for (k = 0; k < 3 && k < s.calls; ++k)
        CHECK(s.laws[k] == laws[k] && s.cnt[k] == NI / 3, "group %d: law %d in its base, %ld instances", k, s.laws[k],
              s.cnt[k]);
    CHECK(g_reports > 0 && g_down == 0 && g_last == NI, "progress over the groups: %ld reports up to %ld", g_reports,
          g_last);
    hs_batch_out_free(&parts);
    /* a stop in the second group: returned as it is */
    conf_job(&job, v, NI, &parts);
    memset(&s, 0, sizeof s);
    s.fail_at = 2;
    CHECK(hs_run_split(&job, run_cpu, &s, &err) == HS_ERR_INTERRUPTED && s.calls == 2,
          "a stop in the second group is returned (%d calls)", s.calls);
    hs_batch_out_free(&parts);
    /* a value that is no integer */
    v[3 * 4 + 1] = 0.5;
    conf_job(&job, v, NI, &parts);
    rc = hs_run_split(&job, run_cpu, NULL, &err);
    CHECK(rc == HS_ERR_VALUE && strstr(err.msg, "instance 4"), "a law of 0.5: refused, naming the instance: %s",
          err.msg);
    hs_batch_out_free(&parts);
    /* more structures than HS_SPLIT_MAX (an integer member swept over 100 values) */
    for (i = 0; i < 100; ++i) {
        w[3 * i + 0] = vals[0];
        w[3 * i + 1] = (double)i;
        w[3 * i + 2] = vals[2];
    }
    conf_job(&job, w, 100, &parts);
    rc = hs_run_split(&job, run_cpu, NULL, &err);
    CHECK(rc == HS_ERR_ARG && strstr(err.msg, "more than 64 model structures"), "100 structures: refused: %s",
          err.msg);
    hs_batch_out_free(&parts);
    /* no structural override: one call with the job as it is */
    ov.is_int[1] = 0;
    ov.offset[1] = offsetof(hs_model, cyl_fp) + HS_FP_FC * sizeof(double);
    conf_job(&job, vals, NI, &parts);
    memset(&s, 0, sizeof s);
    CHECK(hs_run_split(&job, run_cpu, &s, &err) == 0 && s.calls == 1 && s.cnt[0] == NI,
          "no structural override: the job whole (%d calls)", s.calls);
    hs_batch_out_free(&parts);
    hs_batch_out_free(&whole);
    return tu_report("test_run_split");
}
