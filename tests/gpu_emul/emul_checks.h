/* emul_checks.h -- what the emulated-device tests check of a run: outputs equal to the bit,
 * nothing misused or left allocated, and what a progress callback was told. Include after
 * the header that defines CHECK (test_util.h). */
#ifndef HS_EMUL_CHECKS_H
#define HS_EMUL_CHECKS_H

#include <pthread.h>
#include <string.h>

#include "hs_cuda_emul.h"
#include "results/batch_out.h"

/* What a job's progress callback was told. */
typedef struct prog_rec {
    long n, seen[1 << 16]; /* the counts reported, in order */
    long stop_at; /* > 0: ask to stop once a count reaches it */
    int not_host; /* a report from another thread than the one that called the backend */
    pthread_t caller;
} prog_rec;

static int prog_cb(void *ctx, long done)
{
    prog_rec *r = (prog_rec *)ctx;
    if (!pthread_equal(pthread_self(), r->caller)) r->not_host = 1;
    if (r->n < (long)(sizeof r->seen / sizeof r->seen[0])) r->seen[r->n++] = done;
    if (r->stop_at > 0 && done >= r->stop_at) {
        hs_emul_stop_asked(); /* the threads hs_emul.hold_after holds go on at the next poll */
        return 1;
    }
    return 0;
}

/* a and b equal to the bit (statistics of nsig signals, trajectories of ntraj, counters) */
static int emul_same(const hs_batch_out *a, const hs_batch_out *b, int nsig, int ntraj)
{
    size_t n = (size_t)a->n;
    return a->n == b->n && a->ntime == b->ntime && !memcmp(a->status, b->status, n * sizeof *a->status) &&
           !memcmp(a->steps, b->steps, n * sizeof *a->steps) &&
           !memcmp(a->iters_mean, b->iters_mean, n * sizeof *a->iters_mean) &&
           !memcmp(a->iters_max, b->iters_max, n * sizeof *a->iters_max) &&
           !memcmp(a->stats, b->stats, n * (size_t)nsig * HS_NSTAT * sizeof *a->stats) &&
           (!a->traj || !memcmp(a->traj, b->traj, n * (size_t)ntraj * (size_t)a->ntime * sizeof *a->traj));
}

/* no misuse, nothing left allocated, the stack limit given back */
static void clean(const char *what)
{
    size_t lim = 0;
    /* (a faulted context keeps whatever limit it had: nothing to give back there) */
    if (!hs_emul_faulted())
        CHECK(cudaDeviceGetLimit(&lim, cudaLimitStackSize) == cudaSuccess && lim == 1024,
              "%s: the stack limit given back (%zu)", what, lim);
    CHECK(hs_emul_count.violations == 0, "%s: no misuse of the device (%ld: %s)", what, hs_emul_count.violations,
          hs_emul_count.what);
    CHECK(hs_emul_count.live == 0, "%s: every device block freed (%ld left)", what, hs_emul_count.live);
    CHECK(hs_emul_count.host_live == 0, "%s: every pinned host block freed (%ld left)", what,
          hs_emul_count.host_live);
}

#endif
