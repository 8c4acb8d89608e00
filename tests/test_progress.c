/* test_progress.c -- host/base/progress.c and the progress callback of the CPU backends
 * (host/engine/backend.h): per-instance counts from the calling thread only, rising to the job's
 * size; a stop request ends a job early (HS_ERR_INTERRUPTED) on both backends; the lines on a
 * stream that is not a terminal (one per 10 %, each ending in a newline) and the live line;
 * SIGINT caught and turned into a stop; the resume command quoted for a shell. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/backend.h"
#include "results/batch_out.h"
#include "conformance_setup.h"
#include "base/progress.h"

typedef struct rec {
    long n, seen[4096];
    long stop_at; /* > 0: ask to stop once a count reaches it */
    long stop_call; /* > 0: ask to stop at this call (1: the first) */
    int other_thread; /* a report from a thread other than the caller's */
    pthread_t caller;
} rec;

static int cb(void *ctx, long done)
{
    rec *r = (rec *)ctx;
    if (!pthread_equal(pthread_self(), r->caller)) r->other_thread = 1;
    if (r->n < 4096) r->seen[r->n++] = done;
    return (r->stop_at > 0 && done >= r->stop_at) || (r->stop_call > 0 && r->n >= r->stop_call);
}

/* cnt instances (the conformance values repeated) on backend with callback fn/ctx */
static int run_job(int backend, int threads, long cnt, hs_progress_fn fn, void *ctx, hs_batch_out *o, hs_error *err)
{
    static double v[3 * 512];
    hs_batch_job job;
    long i;
    for (i = 0; i < 3 * cnt; ++i) v[i] = vals[i % (3 * NI)];
    if (conf_job(&job, v, cnt, o)) return -1;
    job.progress = fn;
    job.progress_ctx = ctx;
    return backend == HS_BACKEND_CPU ? hs_backend_cpu(&job, threads, err) : hs_backend_reference(&job, err);
}

static int monotonic(const rec *r, long cnt)
{
    long k;
    for (k = 0; k < r->n; ++k)
        if (r->seen[k] < 0 || r->seen[k] > cnt || (k > 0 && r->seen[k] < r->seen[k - 1])) return 0;
    return 1;
}

static void check_backends(void)
{
    static rec r;
    hs_batch_out o, plain;
    hs_error err;
    long cnt = 40, k, distinct = 0;
    int rc;
    /* the results do not depend on the callback */
    CHECK(run_job(HS_BACKEND_CPU, 2, cnt, NULL, NULL, &plain, &err) == 0, "cpu: a run without progress");
    memset(&r, 0, sizeof r);
    r.caller = pthread_self();
    rc = run_job(HS_BACKEND_CPU, 2, cnt, cb, &r, &o, &err);
    CHECK(rc == 0, "cpu: a run with progress (%s)", err.msg);
    CHECK(!memcmp(o.stats, plain.stats, (size_t)cnt * (size_t)spec.nsig * HS_NSTAT * sizeof *o.stats) &&
              !memcmp(o.status, plain.status, (size_t)cnt * sizeof *o.status),
          "cpu: the same results with progress");
    for (k = 1; k < r.n; ++k)
        if (r.seen[k] != r.seen[k - 1]) ++distinct;
    CHECK(r.n >= 2 && r.seen[0] == 0 && r.seen[r.n - 1] == cnt && monotonic(&r, cnt),
          "cpu: counts from 0 to %ld, never down (%ld reports)", cnt, r.n);
    CHECK(!r.other_thread, "cpu: every report from the calling thread");
    printf("  cpu, 2 threads: %ld reports, %ld distinct counts for %ld instances\n", r.n, distinct + 1, cnt);
    hs_batch_out_free(&o);
    /* one thread: the team has a worker and the reporting thread */
    memset(&r, 0, sizeof r);
    r.caller = pthread_self();
    CHECK(run_job(HS_BACKEND_CPU, 1, cnt, cb, &r, &o, &err) == 0 && r.seen[r.n - 1] == cnt && !r.other_thread,
          "cpu, one thread: counts to %ld from the calling thread", cnt);
    hs_batch_out_free(&o);
    /* stop requests: at the first report (nothing runs), and in the middle of a job of a few
     * hundred milliseconds (reports every 50 ms) */
    memset(&r, 0, sizeof r);
    r.caller = pthread_self();
    r.stop_call = 1;
    rc = run_job(HS_BACKEND_CPU, 2, cnt, cb, &r, &o, &err);
    CHECK(rc == HS_ERR_INTERRUPTED && r.seen[r.n - 1] == 0 && strstr(err.msg, "stopped"),
          "cpu: a stop request at the start: nothing runs (%d, %ld of %ld: %s)", rc, r.n ? r.seen[r.n - 1] : -1L,
          cnt, err.msg);
    hs_batch_out_free(&o);
    memset(&r, 0, sizeof r);
    r.caller = pthread_self();
    r.stop_call = 3;
    {
        double t_end = base.t_end;
        base.t_end = 1.0;
        rc = run_job(HS_BACKEND_CPU, 2, 400, cb, &r, &o, &err);
        base.t_end = t_end;
    }
    CHECK(rc == HS_ERR_INTERRUPTED && r.seen[r.n - 1] > 0 && r.seen[r.n - 1] < 400,
          "cpu: a stop request in the middle: the workers take no more instances (%d, %ld of 400)", rc,
          r.n ? r.seen[r.n - 1] : -1L);
    hs_batch_out_free(&o);
    memset(&r, 0, sizeof r);
    r.caller = pthread_self();
    r.stop_at = 0;
    /* the reference backend: one report per instance */
    rc = run_job(HS_BACKEND_REFERENCE, 1, 12, cb, &r, &o, &err);
    CHECK(rc == 0 && r.n == 13 && monotonic(&r, 12) && r.seen[12] == 12, "reference: counts 0, 1, ..., 12 (%ld)",
          r.n);
    hs_batch_out_free(&o);
    memset(&r, 0, sizeof r);
    r.caller = pthread_self();
    r.stop_at = 5;
    rc = run_job(HS_BACKEND_REFERENCE, 1, 12, cb, &r, &o, &err);
    CHECK(rc == HS_ERR_INTERRUPTED && r.seen[r.n - 1] == 5, "reference: stopped after 5 of 12 (%d)", rc);
    hs_batch_out_free(&o);
    hs_batch_out_free(&plain);
}

/* the whole text written to f */
static char *slurp(FILE *f)
{
    long n;
    char *b;
    fflush(f);
    n = ftell(f);
    b = (char *)calloc((size_t)n + 1, 1);
    rewind(f);
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) b[0] = '\0';
    fseek(f, 0, SEEK_END);
    return b;
}

static long count_char(const char *s, char c)
{
    long k = 0;
    for (; *s; ++s) k += *s == c;
    return k;
}

static void check_lines(void)
{
    hs_progress p;
    FILE *f = tmpfile();
    char *t, *l;
    long d, nl;
    int ok = 1, k = 0;
    if (!f) {
        CHECK(0, "tmpfile");
        return;
    }
    CHECK(hs_progress_mode_for(1, f) == HS_PROGRESS_LINES && hs_progress_mode_for(2, f) == HS_PROGRESS_LIVE &&
              hs_progress_mode_for(0, f) == HS_PROGRESS_NONE,
          "modes: lines on a file, live with --progress, none with --no-progress");
    /* two backend calls of 500 instances, counted one by one */
    hs_progress_begin(&p, f, HS_PROGRESS_LINES, 1000, 0);
    for (d = 0; d <= 500; ++d) hs_progress_job(&p, d);
    hs_progress_advance(&p, 500);
    for (d = 0; d <= 500; ++d) hs_progress_job(&p, d);
    hs_progress_advance(&p, 500);
    hs_progress_end(&p);
    t = slurp(f);
    nl = count_char(t, '\n');
    CHECK(nl == 10 && !strchr(t, '\r') && t[strlen(t) - 1] == '\n', "lines: 10 lines (every 10 %%), no \\r: %ld\n%s",
          nl, t);
    for (l = t; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        long x = -1, y = -1;
        ++k;
        if (sscanf(l, "run: %ld/%ld instances", &x, &y) != 2 || y != 1000 || x != 100L * k) ok = 0;
    }
    CHECK(ok && strstr(t, "1000/1000 instances (100.0 %)") && strstr(t, "ETA"), "lines: 100/1000, 200/1000, ...");
    free(t);
    fclose(f);
    /* a resumed run (300 done before): the next line at 40 % */
    f = tmpfile();
    hs_progress_begin(&p, f, HS_PROGRESS_LINES, 1000, 300);
    for (d = 0; d <= 700; ++d) hs_progress_job(&p, d);
    hs_progress_advance(&p, 700);
    hs_progress_end(&p);
    t = slurp(f);
    CHECK(!strncmp(t, "run: 400/1000", 13) && count_char(t, '\n') == 7, "lines, resumed at 30 %%: from 40 %%:\n%s", t);
    free(t);
    fclose(f);
    /* live: a line at once, then at most five a second, a newline at the end */
    f = tmpfile();
    hs_progress_begin(&p, f, HS_PROGRESS_LIVE, 50, 0);
    for (d = 0; d <= 20; ++d) hs_progress_job(&p, d);
    t = slurp(f);
    CHECK(count_char(t, '\r') == 1 && strstr(t, "run: 0/50") && !strchr(t, '\n'), "live: the first line at once: %s",
          t);
    free(t);
    {
        struct timespec ts = {0, 260000000L};
        nanosleep(&ts, NULL);
    }
    hs_progress_job(&p, 21);
    hs_progress_advance(&p, 50);
    hs_progress_end(&p);
    t = slurp(f);
    CHECK(count_char(t, '\r') == 3 && strstr(t, "\rrun: 21/50") && strstr(t, "\rrun: 50/50") &&
              t[strlen(t) - 1] == '\n' && count_char(t, '\n') == 1,
          "live: rewritten in place, ended with a newline: %s", t);
    free(t);
    fclose(f);
}

static void check_signals(void)
{
    hs_progress p;
    hs_batch_out o;
    hs_error err;
    int rc;
    hs_interrupt_catch();
    CHECK(hs_interrupted() == 0, "no signal yet");
    hs_progress_begin(&p, NULL, HS_PROGRESS_NONE, 10, 0);
    CHECK(hs_progress_job(&p, 1) == 0, "no stop request without a signal");
    raise(SIGINT); /* caught: the process goes on */
    CHECK(hs_interrupted() == SIGINT, "SIGINT caught (%d)", hs_interrupted());
    CHECK(hs_progress_job(&p, 2) == 1, "after SIGINT the progress callback asks to stop");
    /* a backend given that callback stops at once */
    rc = run_job(HS_BACKEND_CPU, 2, 40, hs_progress_job, &p, &o, &err);
    CHECK(rc == HS_ERR_INTERRUPTED, "cpu backend stopped by SIGINT (%d)", rc);
    hs_batch_out_free(&o);
    hs_interrupt_release();
    CHECK(hs_interrupted() == SIGINT, "the signal stays readable after the release");
    hs_interrupt_catch();
    CHECK(hs_interrupted() == 0, "a new catch starts afresh");
    raise(SIGTERM);
    CHECK(hs_interrupted() == SIGTERM, "SIGTERM caught");
    hs_interrupt_release();
}

static void check_resume_command(void)
{
    hs_run_opts o;
    char cmd[1024], line[1024], sh[1200];
    FILE *p;
    size_t n;
    memset(&o, 0, sizeof o);
    o.out = "out.h5";
    hs_resume_command(cmd, sizeof cmd, "/opt/hs/bin/hydrosweep", "sweeps/a.yaml", &o, "cpu");
    CHECK(!strcmp(cmd, "/opt/hs/bin/hydrosweep run sweeps/a.yaml -o out.h5 --resume -b cpu"), "plain: %s", cmd);
    o.out = "my results/x.h5";
    o.n = 30;
    o.shard_k = 1;
    o.shard_n = 3;
    o.threads = 4;
    o.batch = 64;
    hs_resume_command(cmd, sizeof cmd, "f", "it's.yaml", &o, "gpu");
    CHECK(!strcmp(cmd, "f run 'it'\\''s.yaml' -o 'my results/x.h5' --resume -b gpu -n 30 --shard 1/3 --threads 4 "
                       "--batch 64"),
          "every option that must match, quoted: %s", cmd);
    /* what a shell makes of it */
    snprintf(sh, sizeof sh, "f() { for a do printf '<%%s>' \"$a\"; done; }; %s", cmd);
    p = popen(sh, "r");
    line[0] = '\0';
    if (p) {
        if (!fgets(line, sizeof line, p)) line[0] = '\0';
        pclose(p);
    }
    CHECK(!strcmp(line, "<run><it's.yaml><-o><my results/x.h5><--resume><-b><gpu><-n><30><--shard><1/3><--threads>"
                        "<4><--batch><64>"),
          "a shell reads the words back: %s", line);
    n = hs_resume_command(cmd, 16, "hydrosweep", "a.yaml", &o, "cpu");
    CHECK(strlen(cmd) == 15 && n > 16, "truncated like snprintf (%zu)", n);
    CHECK(hs_resume_command(cmd, sizeof cmd, NULL, "a.yaml", &o, "cpu") > 0 && !strncmp(cmd, "hydrosweep run", 14),
          "no program name: hydrosweep");
}

int main(void)
{
    setup();
    base.t_end = 0.3;
    check_backends();
    check_lines();
    check_signals();
    check_resume_command();
    return tu_report("test_progress");
}
