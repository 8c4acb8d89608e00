/* backend_cpu.c -- CPU batch backend: OpenMP over instances. By default the engine
 * specialised to the model structure (host/kernel_spec.h, built by the host compiler at run
 * time and cached: host/kernel_build.h); HS_CPU_ENGINE=generic, or a model or sweep that
 * cannot be specialised (the reason is printed once), runs the generic engine, each thread
 * with its own local model, state and work arrays (allocated once per thread). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "backend.h"
#include "fileio.h"
#include "kernel_build.h"
#include "kernel_spec.h"

/* HS_CPU_VERBOSE set and not "0": build times and engine choices on stderr. */
static int hs_cpu_verbose(void)
{
    const char *s = getenv("HS_CPU_VERBOSE");
    return s && *s && strcmp(s, "0") != 0;
}

int hs_batch_out_alloc(hs_batch_out *o, long cnt, const hs_output_spec *spec, long ntime)
{
    memset(o, 0, sizeof *o);
    o->n = cnt;
    o->ntime = spec->ntraj > 0 ? ntime : 0;
    o->status = (int *)calloc((size_t)cnt, sizeof *o->status);
    o->steps = (long *)calloc((size_t)cnt, sizeof *o->steps);
    o->iters_mean = (double *)calloc((size_t)cnt, sizeof *o->iters_mean);
    o->iters_max = (int *)calloc((size_t)cnt, sizeof *o->iters_max);
    o->stats = (double *)calloc((size_t)cnt * (size_t)(spec->nsig > 0 ? spec->nsig : 1) * HS_NSTAT,
                                sizeof *o->stats);
    if (o->ntime > 0)
        o->traj = (double *)calloc((size_t)cnt * (size_t)spec->ntraj * (size_t)o->ntime,
                                   sizeof *o->traj);
    if (!o->status || !o->steps || !o->iters_mean || !o->iters_max || !o->stats ||
        (o->ntime > 0 && !o->traj)) {
        hs_batch_out_free(o);
        return HS_ERR_IO;
    }
    return HS_OK;
}

void hs_batch_out_free(hs_batch_out *o)
{
    free(o->status);
    free(o->steps);
    free(o->iters_mean);
    free(o->iters_max);
    free(o->stats);
    free(o->traj);
    memset(o, 0, sizeof *o);
}

int hs_batch_out_slice(const hs_batch_out *b, long off, long m, const hs_output_spec *spec,
                       hs_batch_out *part)
{
    long i, k, n = b->n, nrow = (long)(spec->nsig > 0 ? spec->nsig : 1) * HS_NSTAT;
    if (hs_batch_out_alloc(part, m, spec, b->ntime)) return HS_ERR_IO;
    for (i = 0; i < m; ++i) {
        part->status[i] = b->status[off + i];
        part->steps[i] = b->steps[off + i];
        part->iters_mean[i] = b->iters_mean[off + i];
        part->iters_max[i] = b->iters_max[off + i];
    }
    for (k = 0; k < nrow; ++k)
        for (i = 0; i < m; ++i) part->stats[k * m + i] = b->stats[k * n + off + i];
    if (part->traj)
        for (k = 0; k < (long)spec->ntraj * b->ntime; ++k)
            for (i = 0; i < m; ++i) part->traj[k * m + i] = b->traj[k * n + off + i];
    return HS_OK;
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

/* The generic engine: each thread with its own local model, state and work arrays. */
static int cpu_generic(const hs_batch_job *job, hs_error *err)
{
    int fail = 0;
    long i;
#ifdef _OPENMP
#pragma omp parallel private(i) reduction(| : fail)
#endif
    {
        hs_model *ml = (hs_model *)malloc(sizeof *ml);
        hs_state *s = (hs_state *)malloc(sizeof *s);
        hs_work *w = (hs_work *)calloc(1, sizeof *w);
        if (!ml || !s || !w) {
            fail = 1;
        } else {
            /* dynamic: instances that fail early or converge fast do not stall a thread */
#ifdef _OPENMP
#pragma omp for schedule(dynamic, 4)
#endif
            for (i = 0; i < job->cnt; ++i)
                hs_run_instance(job->base, job->ov, job->values + (size_t)i * (size_t)job->ov->n,
                                job->spec, i, job->out, ml, s, w);
        }
        free(ml);
        free(s);
        free(w);
    }
    if (fail) return hs_error_set(err, HS_ERR_IO, "", 0, 0, "", "out of memory for the work arrays");
    return HS_OK;
}

/* The engine specialised to the job's model structure (host/kernel_spec.h), compiled by the
 * host compiler. Returns HS_OK; *used = 0 when it cannot be had (why in *why), and the caller
 * runs the generic engine. */
static int cpu_specialised(const hs_batch_job *job, int *used, char *why, size_t nwhy, hs_error *err)
{
    hs_spec sp;
    hs_cpu_spec cs;
    hs_error e2;
    double *var = NULL;
    int *pre = NULL, rc;
    long i;
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
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic, 4)
#endif
    for (i = 0; i < job->cnt; ++i) cs.run(var, pre, i, i + 1, job->out);
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
