/* backend_cpu.c -- CPU batch backend: OpenMP over instances. By default the engine
 * specialised to the model structure (host/engine/kernel_spec.h, built by the host compiler at run
 * time and cached: host/engine/kernel_build.h); HS_CPU_ENGINE=generic, or a model or sweep that
 * cannot be specialised (the reason is printed once), runs the generic engine, each thread
 * with its own local model, state and work arrays (allocated once per thread).
 *
 * Progress (host/engine/backend.h, job->progress): the workers count every finished instance in an
 * atomic counter; with OpenMP one more thread of the team, the calling thread, only reports
 * (it sleeps on a condition variable, wakes every 50 ms or when the last worker is done, and
 * calls the callback), so reports keep coming while every worker is inside a long instance.
 * A stop request from the callback makes the workers take no further instance. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "engine/backend.h"
#include "base/fileio.h"
#include "engine/kernel_build.h"
#include "engine/kernel_spec.h"

/* HS_CPU_VERBOSE set and not "0": build times and engine choices on stderr. */
static int hs_cpu_verbose(void)
{
    const char *s = getenv("HS_CPU_VERBOSE");
    return s && *s && strcmp(s, "0") != 0;
}

void hs_cpu_name(char *buf, size_t n)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[512];
    int cores = 1;
    snprintf(buf, n, "unknown CPU");
    if (f) {
        while (fgets(line, sizeof line, f)) {
            if (!strncmp(line, "model name", 10)) {
                char *c = strchr(line, ':');
                if (c) {
                    size_t k;
                    ++c;
                    while (*c == ' ') ++c;
                    k = strcspn(c, "\n");
                    c[k] = '\0';
                    snprintf(buf, n, "%s", c);
                }
                break;
            }
        }
        fclose(f);
    }
#ifdef _OPENMP
    cores = omp_get_num_procs();
#endif
    {
        size_t l = strlen(buf);
        if (l + 24 < n) snprintf(buf + l, n - l, " (%d cores)", cores);
    }
}

int hs_cpu_threads_check(int threads, hs_error *err)
{
    int tmax = hs_max_threads();
    /* far more threads than cores only cost memory, and libgomp crashes when it cannot
     * create them: a clear error instead */
    if (threads > tmax)
        return hs_error_set(err, HS_ERR_ARG, "", 0, 0, "--threads",
                            "%d threads asked for, at most %d on this machine (4 per online CPU, "
                            "at most 1024)",
                            threads, tmax);
#ifdef _OPENMP
    if (threads <= 0 && omp_get_max_threads() > tmax)
        return hs_error_set(err, HS_ERR_ARG, "", 0, 0, "OMP_NUM_THREADS",
                            "%d threads asked for, at most %d on this machine (4 per online CPU, "
                            "at most 1024)",
                            omp_get_max_threads(), tmax);
#endif
    return HS_OK;
}

/* ---------------------------------------------------------------------------------------
 * the loop over a job's instances, shared by both engines */

typedef struct cpu_team {
    const hs_batch_job *job;
    const hs_cpu_spec *cs; /* the specialised engine, or NULL: the generic one */
    const double *var; /* the specialised engine's varying values and validity */
    const int *pre;
    atomic_long next; /* the next instance to hand out */
    atomic_long finished; /* instances finished */
    atomic_int stop; /* the callback asked to stop: hand out no more */
    atomic_int fail; /* a worker had no memory for its scratch */
    int workers; /* workers still running (under mu) */
    pthread_mutex_t mu;
    pthread_cond_t cv; /* signalled when the last worker is done */
} cpu_team;

/* One worker: instances in groups of 4 from the shared counter (dynamic scheduling: instances
 * that fail early or converge fast do not stall a thread); with report set (no reporting
 * thread: a team of one) it calls the callback itself after every instance. */
static void cpu_worker(cpu_team *t, int report)
{
    const hs_batch_job *job = t->job;
    hs_model *ml = NULL;
    hs_state *s = NULL;
    hs_work *w = NULL;
    double *blk = NULL;
    long i, i0, i1;
    if (job->tree) { /* an open tree: one instance block per thread (hs_tree_batch.h) */
        blk = (double *)malloc(sizeof(double) * (size_t)hs_tree_inst_doubles(job->tree));
        if (!blk) {
            atomic_store(&t->fail, 1);
            atomic_store(&t->stop, 1);
        }
    } else if (!t->cs) {
        ml = (hs_model *)malloc(sizeof *ml);
        s = (hs_state *)malloc(sizeof *s);
        w = (hs_work *)calloc(1, sizeof *w);
        if (!ml || !s || !w) {
            atomic_store(&t->fail, 1);
            atomic_store(&t->stop, 1);
        }
    }
    while (!atomic_load_explicit(&t->stop, memory_order_relaxed)) {
        i0 = atomic_fetch_add_explicit(&t->next, 4, memory_order_relaxed);
        if (i0 >= job->cnt) break;
        i1 = i0 + 4 < job->cnt ? i0 + 4 : job->cnt;
        for (i = i0; i < i1; ++i) {
            long f;
            if (atomic_load_explicit(&t->stop, memory_order_relaxed)) break;
            if (job->tree)
                hs_tree_run_instance(job->tree, job->values + (size_t)i * (size_t)job->tree->nov, job->spec, i,
                                     job->out, blk);
            else if (t->cs)
                t->cs->run(t->var, t->pre, i, i + 1, job->out);
            else
                hs_run_instance(job->base, job->ov, job->values + (size_t)i * (size_t)job->ov->n, job->spec, i,
                                job->out, ml, s, w);
            f = atomic_fetch_add_explicit(&t->finished, 1, memory_order_relaxed) + 1;
            if (report && job->progress(job->progress_ctx, f)) atomic_store(&t->stop, 1);
        }
    }
    free(ml);
    free(s);
    free(w);
    free(blk);
}

#ifdef _OPENMP
/* The reporting thread: the callback every 50 ms until the last worker is done. */
static void cpu_reporter(cpu_team *t)
{
    const hs_batch_job *job = t->job;
    pthread_mutex_lock(&t->mu);
    while (t->workers > 0) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        ts.tv_nsec += 50000000L;
        if (ts.tv_nsec >= 1000000000L) {
            ts.tv_nsec -= 1000000000L;
            ts.tv_sec += 1;
        }
        (void)pthread_cond_timedwait(&t->cv, &t->mu, &ts);
        if (t->workers == 0) break;
        pthread_mutex_unlock(&t->mu);
        if (job->progress(job->progress_ctx, atomic_load(&t->finished))) atomic_store(&t->stop, 1);
        pthread_mutex_lock(&t->mu);
    }
    pthread_mutex_unlock(&t->mu);
}

static void cpu_worker_done(cpu_team *t)
{
    pthread_mutex_lock(&t->mu);
    if (--t->workers == 0) pthread_cond_signal(&t->cv);
    pthread_mutex_unlock(&t->mu);
}
#endif

/* Runs the job's instances on the OpenMP team (the engine as t->cs says); HS_OK, or
 * HS_ERR_INTERRUPTED when the callback stopped it before every instance had finished. */
static int cpu_drive(const hs_batch_job *job, const hs_cpu_spec *cs, const double *var, const int *pre,
                     hs_error *err)
{
    cpu_team t;
    pthread_condattr_t ca;
    int report = job->progress != NULL;
    long finished;
    memset(&t, 0, sizeof t);
    t.job = job;
    t.cs = cs;
    t.var = var;
    t.pre = pre;
    atomic_init(&t.next, 0);
    atomic_init(&t.finished, 0);
    atomic_init(&t.stop, 0);
    atomic_init(&t.fail, 0);
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_mutex_init(&t.mu, NULL);
    pthread_cond_init(&t.cv, &ca);
    pthread_condattr_destroy(&ca);
    if (report && job->progress(job->progress_ctx, 0)) atomic_store(&t.stop, 1);
#ifdef _OPENMP
    {
        /* the workers OpenMP would run, plus the calling thread to report */
        int nthr = omp_get_max_threads() + (report ? 1 : 0);
#pragma omp parallel num_threads(nthr)
        {
            int me = omp_get_thread_num(), team = omp_get_num_threads();
            /* a reporter only where there is a worker beside it */
            int reporter = report && team > 1 && me == 0;
#pragma omp single
            t.workers = report && team > 1 ? team - 1 : team;
            /* (the implicit barrier of single: workers counted before anyone is done) */
            if (reporter) {
                cpu_reporter(&t);
            } else {
                cpu_worker(&t, report && team == 1);
                cpu_worker_done(&t);
            }
        }
    }
#else
    t.workers = 1;
    cpu_worker(&t, report);
#endif
    pthread_cond_destroy(&t.cv);
    pthread_mutex_destroy(&t.mu);
    finished = atomic_load(&t.finished);
    if (atomic_load(&t.fail)) return hs_error_set(err, HS_ERR_IO, "", 0, 0, "", "out of memory for the work arrays");
    if (report) (void)job->progress(job->progress_ctx, finished);
    if (finished < job->cnt)
        return hs_error_set(err, HS_ERR_INTERRUPTED, "", 0, 0, "", "stopped after %ld of %ld instances", finished,
                            job->cnt);
    return HS_OK;
}

/* The generic engine: each thread with its own local model, state and work arrays. */
static int cpu_generic(const hs_batch_job *job, hs_error *err)
{
    return cpu_drive(job, NULL, NULL, NULL, err);
}

/* The engine specialised to the job's model structure (host/engine/kernel_spec.h), compiled by the
 * host compiler. Returns HS_OK; *used = 0 when it cannot be had (why in *why), and the caller
 * runs the generic engine. */
static int cpu_specialised(const hs_batch_job *job, int *used, char *why, size_t nwhy, hs_error *err)
{
    hs_spec sp;
    hs_cpu_spec cs;
    hs_error e2;
    double *var = NULL;
    int *pre = NULL, rc;
    *used = 0;
    if ((rc = hs_spec_build(job->base, job->ov, job->spec, &sp, err))) return rc;
    if (!sp.source) {
        snprintf(why, nwhy, "%s", sp.why);
        return HS_OK;
    }
    if (hs_cpu_spec_get(sp.source, &cs, &e2)) {
        snprintf(why, nwhy, "%s", e2.msg);
        hs_spec_free(&sp);
        return HS_OK;
    }
    if (cs.build_s > 0.0 && hs_cpu_verbose())
        fprintf(stderr, "cpu: specialised engine built in %.1f s\n", cs.build_s);
    var = (double *)malloc((size_t)(sp.nvar > 0 ? sp.nvar : 1) * (size_t)job->cnt * sizeof *var);
    pre = (int *)malloc((size_t)job->cnt * sizeof *pre);
    if (!var || !pre) {
        rc = hs_error_set(err, HS_ERR_IO, "", 0, 0, "", "out of memory for %ld instances", job->cnt);
        goto done;
    }
    if ((rc = hs_spec_values(&sp, job->base, job->ov, job->values, job->cnt, var, pre, err))) goto done;
    cs.set(job->base, job->spec);
    *used = 1;
    rc = cpu_drive(job, &cs, var, pre, err);
done:
    free(var);
    free(pre);
    hs_spec_free(&sp);
    return rc;
}

int hs_backend_cpu(const hs_batch_job *job, int threads, hs_error *err)
{
    const char *eng = getenv("HS_CPU_ENGINE");
    static int warned;
    int rc;
    if (threads <= 0) threads = 0;
    if ((rc = hs_cpu_threads_check(threads, err)) != HS_OK) return rc;
#ifdef _OPENMP
    if (threads > 0) omp_set_num_threads(threads);
#endif
    if (job->cnt <= 0) return HS_OK;
    if (job->tree) return cpu_generic(job, err); /* a tree's engine is one, for any tree */
    if (eng && *eng && strcmp(eng, "generic") && strcmp(eng, "specialised"))
        return hs_error_set(err, HS_ERR_ARG, "", 0, 0, "HS_CPU_ENGINE",
                            "unknown CPU engine '%s' (specialised or generic)", eng);
    if (!eng || !*eng || !strcmp(eng, "specialised")) {
        char why[512] = "";
        int used = 0;
        rc = cpu_specialised(job, &used, why, sizeof why, err);
        if (rc || used) return rc;
        if (!warned || hs_cpu_verbose())
            fprintf(stderr, "cpu: using the generic engine: %s\n", why);
        warned = 1;
    }
    return cpu_generic(job, err);
}
