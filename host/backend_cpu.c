/* backend_cpu.c -- CPU batch backend: OpenMP over instances, each thread with its own local
 * model, state and work arrays (allocated once per thread, outside the engine). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "backend.h"
#include "fileio.h"

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

int hs_backend_cpu(const hs_batch_job *job, int threads, hs_error *err)
{
    int fail = 0, rc;
    long i;
    if (threads <= 0) threads = 0;
    if ((rc = hs_cpu_threads_check(threads, err)) != HS_OK) return rc;
#ifdef _OPENMP
    if (threads > 0) omp_set_num_threads(threads);
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
