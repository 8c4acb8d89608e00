/* progress.c -- run's progress lines and its SIGINT/SIGTERM handling (host/base/progress.h). */
#define _DEFAULT_SOURCE 1 /* SA_RESTART next to the POSIX 2008 interfaces */
#include "base/progress.h"

#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* a live line is on the terminal without its newline: the signal handler's message starts
 * on a line of its own */
static volatile sig_atomic_t g_midline;

double hs_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---------------------------------------------------------------------------------------
 * progress */

int hs_progress_mode_for(int opt, FILE *f)
{
    if (opt <= 0 || !f) return HS_PROGRESS_NONE;
    if (opt >= 2 || isatty(fileno(f))) return HS_PROGRESS_LIVE;
    return HS_PROGRESS_LINES;
}

/* "3 s", "4 min 05 s", "2 h 07 min" */
static void fmt_span(char *b, size_t n, double s)
{
    long t = (long)(s + 0.5);
    if (!(s >= 0.0) || s > 1e9) snprintf(b, n, "?");
    else if (s < 9.95) snprintf(b, n, "%.1f s", s);
    else if (t < 60) snprintf(b, n, "%ld s", t);
    else if (t < 3600) snprintf(b, n, "%ld min %02ld s", t / 60, t % 60);
    else snprintf(b, n, "%ld h %02ld min", t / 3600, (t % 3600) / 60);
}

static void show(hs_progress *p, double t, int final)
{
    char line[256], el[32], eta[32];
    double dt = t - p->t0, rate = dt > 0.0 ? (double)(p->done - p->start) / dt : 0.0;
    double pct = p->total > 0 ? 100.0 * (double)p->done / (double)p->total : 100.0;
    int len;
    fmt_span(el, sizeof el, dt);
    if (p->done >= p->total) snprintf(eta, sizeof eta, "0 s");
    else if (rate > 0.0) fmt_span(eta, sizeof eta, (double)(p->total - p->done) / rate);
    else snprintf(eta, sizeof eta, "?");
    len = snprintf(line, sizeof line, "run: %ld/%ld instances (%.1f %%), %.*f/s, elapsed %s, ETA %s", p->done,
                   p->total, pct, rate < 100.0 ? 1 : 0, rate, el, eta);
    if (len < 0) return;
    if (len >= (int)sizeof line) len = (int)sizeof line - 1;
    if (p->mode == HS_PROGRESS_LIVE) {
        /* blanks over the rest of a longer previous line */
        fprintf(p->f, "\r%s%*s%s", line, p->width > len ? p->width - len : 0, "", final ? "\n" : "");
        p->width = final ? 0 : len;
        g_midline = !final;
    } else {
        fprintf(p->f, "%s\n", line);
    }
    fflush(p->f);
    p->tlast = t;
    p->shown = p->done;
}

/* a line if one is due at time t */
static void maybe_show(hs_progress *p, double t)
{
    if (p->mode == HS_PROGRESS_LIVE) {
        /* at most five lines a second, and one a second even when nothing finished (the
         * elapsed time and ETA move) */
        if (t - p->tlast >= (p->done != p->shown ? 0.2 : 1.0)) show(p, t, 0);
    } else if (p->mode == HS_PROGRESS_LINES && p->total > 0) {
        int step = (int)((double)p->done * 10.0 / (double)p->total);
        if ((step > p->step && p->done != p->shown) || (t - p->tlast >= 60.0 && p->done < p->total)) {
            if (step > p->step) p->step = step;
            show(p, t, 0);
        }
    }
}

void hs_progress_begin(hs_progress *p, FILE *f, int mode, long total, long done)
{
    memset(p, 0, sizeof *p);
    p->f = f;
    p->mode = f ? mode : HS_PROGRESS_NONE;
    p->total = total;
    p->start = p->base = p->done = p->shown = done;
    p->t0 = p->tlast = hs_now_s();
    p->step = total > 0 ? (int)((double)done * 10.0 / (double)total) : 10;
    if (p->mode == HS_PROGRESS_LIVE) show(p, p->t0, 0);
}

int hs_progress_job(void *ctx, long done)
{
    hs_progress *p = (hs_progress *)ctx;
    long d = p->base + (done > 0 ? done : 0);
    if (d > p->total) d = p->total;
    if (d > p->done) p->done = d;
    if (p->mode != HS_PROGRESS_NONE) maybe_show(p, hs_now_s());
    return hs_interrupted() != 0;
}

void hs_progress_advance(hs_progress *p, long n)
{
    p->base += n;
    if (p->base > p->total) p->base = p->total;
    if (p->base > p->done) p->done = p->base;
    if (p->mode != HS_PROGRESS_NONE) maybe_show(p, hs_now_s());
}

void hs_progress_end(hs_progress *p)
{
    if (p->mode == HS_PROGRESS_LIVE || (p->mode == HS_PROGRESS_LINES && p->done != p->shown))
        show(p, hs_now_s(), 1);
    p->mode = HS_PROGRESS_NONE;
}

/* ---------------------------------------------------------------------------------------
 * SIGINT, SIGTERM */

static volatile sig_atomic_t g_sig;
static struct sigaction g_old_int, g_old_term;
static int g_caught;

static void on_signal(int s)
{
    static const char msg_int[] =
        "hydrosweep: SIGINT: stopping after the instances now running (Ctrl-C again: at once)\n";
    static const char msg_term[] =
        "hydrosweep: SIGTERM: stopping after the instances now running (a second signal: at once)\n";
    ssize_t w = 0;
    if (g_sig) {
        /* the second signal: the default action, now (the .part keeps its written chunks) */
        signal(s, SIG_DFL);
        raise(s);
        return;
    }
    g_sig = s;
    if (g_midline) w = write(2, "\n", 1);
    if (s == SIGINT) w = write(2, msg_int, sizeof msg_int - 1);
    else w = write(2, msg_term, sizeof msg_term - 1);
    (void)w;
}

void hs_interrupt_catch(void)
{
    struct sigaction sa;
    if (g_caught) return;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaddset(&sa.sa_mask, SIGINT);
    sigaddset(&sa.sa_mask, SIGTERM);
    sa.sa_flags = SA_RESTART; /* a write of the results file is not cut short */
    g_sig = 0;
    /* also where SIGINT was ignored (a background job of a shell script): kill -INT must
     * stop a run cleanly, and a stopped run loses nothing (--resume) */
    sigaction(SIGINT, &sa, &g_old_int);
    sigaction(SIGTERM, &sa, &g_old_term);
    g_caught = 1;
}

void hs_interrupt_release(void)
{
    if (!g_caught) return;
    sigaction(SIGINT, &g_old_int, NULL);
    sigaction(SIGTERM, &g_old_term, NULL);
    g_caught = 0; /* (the flag stays: the caller reads it after the run) */
}

int hs_interrupted(void)
{
    return (int)g_sig;
}

/* ---------------------------------------------------------------------------------------
 * the resume command */

/* appends word w to b (length *len, capacity n), quoted for a POSIX shell where needed */
static void add_word(char *b, size_t n, size_t *len, const char *w)
{
    const char *safe = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-./:=+,@%";
    int quote = !*w || strspn(w, safe) != strlen(w);
    const char *c;
#define HS_PUT(ch)                                                                                 \
    do {                                                                                           \
        if (*len + 1 < n) b[*len] = (ch);                                                          \
        ++*len;                                                                                    \
    } while (0)
    if (*len > 0) HS_PUT(' ');
    if (quote) HS_PUT('\'');
    for (c = w; *c; ++c) {
        if (quote && *c == '\'') { /* ' -> '\'' */
            HS_PUT('\'');
            HS_PUT('\\');
            HS_PUT('\'');
            HS_PUT('\'');
        } else {
            HS_PUT(*c);
        }
    }
    if (quote) HS_PUT('\'');
#undef HS_PUT
    if (n > 0) b[*len < n ? *len : n - 1] = '\0';
}

size_t hs_resume_command(char *buf, size_t n, const char *argv0, const char *sweep_path, const hs_run_opts *o,
                         const char *backend)
{
    const char *fixed[] = {argv0 && *argv0 ? argv0 : "hydrosweep", "run", sweep_path, "-o", o->out, "--resume", "-b",
                           backend};
    /* the options that must match, when given: -n, --shard K/N, --threads, --batch */
    const struct { int on; const char *opt; long a, b; } opt[] = {{o->n > 0, "-n", o->n, -1},
                                                                   {o->shard_n > 1, "--shard", o->shard_k, o->shard_n},
                                                                   {o->threads > 0, "--threads", o->threads, -1},
                                                                   {o->batch > 0, "--batch", o->batch, -1}};
    size_t len = 0, k;
    char num[64];
    if (n > 0) buf[0] = '\0';
    for (k = 0; k < sizeof fixed / sizeof fixed[0]; ++k) add_word(buf, n, &len, fixed[k]);
    for (k = 0; k < sizeof opt / sizeof opt[0]; ++k)
        if (opt[k].on) {
            if (opt[k].b < 0) snprintf(num, sizeof num, "%ld", opt[k].a);
            else snprintf(num, sizeof num, "%ld/%ld", opt[k].a, opt[k].b);
            add_word(buf, n, &len, opt[k].opt);
            add_word(buf, n, &len, num);
        }
    return len;
}
