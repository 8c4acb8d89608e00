/* progress.h -- what `hydrosweep run` shows while it runs, and how it stops when asked.
 *
 * Progress (stderr), counted per finished instance: the backends report through the batch
 * job's callback (host/engine/backend.h, hs_progress_fn), which hs_progress_job implements.
 *   live   a terminal (or run --progress): one line rewritten in place (\r) at least once a
 *          second while instances finish, at most five times a second: instances done of the
 *          run's total, percentage, rate, elapsed time, ETA; ended with a newline
 *   lines  anything else (a file, a pipe): a line whenever another 10 % of the instances have
 *          finished, or a minute has passed since the last line; each ends in a newline and
 *          is flushed
 *   none   run --no-progress, and every caller without a progress object (validate, tests)
 *
 * Interruption: hs_interrupt_catch makes SIGINT and SIGTERM set a flag (first signal) that
 * hs_progress_job returns to the backend, which then skips the instances it has not started;
 * `run` writes nothing more, keeps the chunks already in OUT.part, prints the command that
 * continues the run (hs_resume_command) and exits 128 + the signal number. A second signal
 * ends the process at once (the default action): the .part file keeps every chunk written
 * before, as after a SIGKILL. */
#ifndef HS_PROGRESS_H
#define HS_PROGRESS_H

#include <stddef.h>
#include <stdio.h>

#include "hs/run.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Seconds on the monotonic clock (for intervals: rates, compile and wall times). */
double hs_now_s(void);

enum hs_progress_mode { HS_PROGRESS_NONE = 0, HS_PROGRESS_LIVE, HS_PROGRESS_LINES };

typedef struct hs_progress {
    FILE *f;
    int mode; /* enum hs_progress_mode */
    long total; /* instances of the run (a shard's) */
    long start; /* finished before this process began (a resumed run) */
    long base; /* finished before the current backend call */
    long done; /* the latest count */
    long shown; /* the count of the latest line */
    double t0, tlast; /* CLOCK_MONOTONIC seconds: the start, the latest line */
    int step; /* lines: the latest 10 % step shown */
    int width; /* live: the length of the line on screen */
} hs_progress;

/* The mode for run's progress option (0 never, 1 by the stream, 2 always live) on f. */
int hs_progress_mode_for(int opt, FILE *f);
/* A run of total instances, done of them finished before (resume); live mode shows its first
 * line at once. */
void hs_progress_begin(hs_progress *p, FILE *f, int mode, long total, long done);
/* hs_progress_fn (ctx: an hs_progress) for a backend call whose instances follow the p->base
 * finished ones: notes base + done, shows a line when one is due; returns 1 once SIGINT or
 * SIGTERM was caught (hs_interrupted), which stops the backend. */
int hs_progress_job(void *ctx, long done);
/* n more instances finished and written (a backend call's). */
void hs_progress_advance(hs_progress *p, long n);
/* The final line (the count reached); a live line ends with its newline. */
void hs_progress_end(hs_progress *p);

/* SIGINT and SIGTERM set the interrupt flag (and say on stderr that the run is stopping); a
 * second one ends the process with the default action. hs_interrupt_release puts the
 * previous handlers back and clears the flag. */
void hs_interrupt_catch(void);
void hs_interrupt_release(void);
/* The signal caught since hs_interrupt_catch (SIGINT, SIGTERM), 0 if none. */
int hs_interrupted(void);

/* The command that continues run o of the sweep file sweep_path on backend ("cpu", "gpu",
 * "reference"; the one the run used, so that auto is resolved): argv0 run SWEEP -o OUT
 * --resume -b BACKEND, then -n, --shard, --threads and --batch when o sets them. -n, -b and
 * --shard must match the .part file (hs_results_resume checks them); --threads and --batch
 * do not change the results and are kept as given. Words are quoted for a POSIX shell where
 * needed. Truncated to n bytes (returns the length it needed, like snprintf). */
size_t hs_resume_command(char *buf, size_t n, const char *argv0, const char *sweep_path, const hs_run_opts *o,
                         const char *backend);

#ifdef __cplusplus
}
#endif

#endif
