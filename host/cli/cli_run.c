/* cli_run.c -- `hydrosweep run SWEEP` and `hydrosweep validate SWEEP`. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/backend.h"
#include "results/batch_out.h"
#include "cli/cli.h"
#include "base/fileio.h"
#include "hs/results.h"
#include "hs/run.h"
#include "base/progress.h"
#include "run/run_cli.h"
#include "engine/simulate.h"

#ifdef HS_HAVE_MPI
#include <mpi.h>
#endif

static void usage_run(FILE *f)
{
    fprintf(f,
            "usage: hydrosweep run SWEEP [-b cpu|gpu|reference|auto] [-n N] [-o out.h5]\n"
            "                      [--threads T] [--shard K/N] [--resume] [--stop-after K] [--batch N]\n"
            "                      [--progress|--no-progress] [--si]\n"
            "\n"
            "Runs every instance of the sweep file SWEEP and writes out.h5 (HDF5: sampled parameters,\n"
            "status, Newton statistics, per-signal statistics, trajectories, the model and sweep\n"
            "texts) and out.csv (one row per instance). Results are written chunk by chunk to\n"
            "out.h5.part, renamed when complete; --resume continues an interrupted run.\n"
            "  -b BACKEND     cpu (OpenMP, default), gpu (CUDA), reference (one core, LAPACK), auto\n"
            "                 (the GPU when one is usable, else cpu; it says which)\n"
            "  -n N           number of instances (default: the sweep's)\n"
            "  -o FILE        results file (default: the sweep's name with .h5, in the current dir)\n"
            "  --threads T    threads of the cpu backend (default: all cores; at most 4 per core)\n"
            "  --shard K/N    run only the K-th of N equal slices (K = 0..N-1); `hydrosweep merge`\n"
            "                 joins the pieces into the file one run would have written\n"
            "  --resume       continue the interrupted run of out.h5.part (same sweep and options)\n"
            "  --stop-after K write K chunks and stop (out.h5.part stays; continue with --resume),\n"
            "                 e.g. to fit a run into time-limited batch jobs\n"
            "  --batch N      instances handed to the backend at once, in whole chunks (default:\n"
            "                 131072 on the GPU, one chunk on the CPU); results are the same\n"
            "  --progress     progress as a line updated in place even when stderr is not a terminal\n"
            "  --no-progress  no progress at all\n"
            "  --si           the summary table in SI units (default: the units of the field: MPa,\n"
            "                 deg, mm, L/min; the results file and the CSV are SI either way)\n"
            "Under mpirun (mpirun -n R hydrosweep run SWEEP ...; a build with MPI, see --version) rank\n"
            "K runs shard K/R into out.h5.rank<K>-of-<R>.h5 on the GPU of its rank on the node, and\n"
            "rank 0 merges the pieces into out.h5 and removes them; a stopped run keeps the pieces\n"
            "and the same mpirun command with --resume finishes it.\n"
            "Progress (stderr), counted per finished instance: on a terminal one line updated in\n"
            "place at least once a second (instances done, rate, elapsed time, ETA); otherwise a\n"
            "line whenever another 10 %% of the instances have finished or a minute has passed.\n"
            "Ctrl-C (SIGINT) or SIGTERM stops the run after the instances that are running (a\n"
            "second one: at once), keeps every written chunk in out.h5.part and prints the\n"
            "command that continues the run (--resume with the options that must match).\n"
            "Exit status: 0 success (failed instances are flagged in the results, not fatal),\n"
            "1 usage, 2 bad sweep or model file, or an output that cannot be used (a directory,\n"
            "not a regular file, locked by another run writing it), 3 the run could not be\n"
            "completed (e.g. the disk filled up: the message says why), 130 stopped by SIGINT,\n"
            "143 by SIGTERM (resumable).\n");
}

static void usage_validate(FILE *f)
{
    fprintf(f,
            "usage: hydrosweep validate SWEEP [--sample K] [--rtol R] [--iter-rtol Q] [-b gpu|cpu|auto]\n"
            "                           [--threads T]\n"
            "\n"
            "Runs K instances of the sweep (evenly spaced indices i = k * n / K, k = 0..K-1, default\n"
            "K = 16) on the GPU (auto, the default: the cpu batch backend when no GPU is usable; -b\n"
            "picks one) and on the reference backend (one core, LAPACK solves), and compares them.\n"
            "\n"
            "Physical signals: per signal, the largest relative difference of the per-instance\n"
            "statistics (relative to the signal's largest magnitude over the sample; for E_balance,\n"
            "a residual, relative to the largest energy or work recorded, at least 1 J; for t_max\n"
            "relative to t_end, and only where the maxima themselves differ by more than R: a\n"
            "maximum reached twice to rounding has no stable time). Each must be <= R (--rtol,\n"
            "default 1e-6).\n"
            "Status: the status bits of every instance must be equal.\n"
            "Newton iterations are not a result but a cost: a count flips by one where rounding\n"
            "moves a convergence test across its threshold, so they are reported apart (and the\n"
            "statistics of a newton_iters signal are shown, never checked against R). They fail\n"
            "only beyond these bounds, per instance: the mean iterations per step may differ by\n"
            "at most Q times the larger of the two means (--iter-rtol, default 1e-2), the largest\n"
            "iterations of a step by at most 1.\n"
            "Exit status: 0 when all of this holds, 4 otherwise; 1 usage, 2 bad input, 3 the run\n"
            "could not be completed.\n");
}

static int parse_backend(const char *s, int *b)
{
    if (!strcmp(s, "cpu")) *b = HS_BACKEND_CPU;
    else if (!strcmp(s, "gpu")) *b = HS_BACKEND_GPU;
    else if (!strcmp(s, "reference")) *b = HS_BACKEND_REFERENCE;
    else if (!strcmp(s, "auto")) *b = HS_BACKEND_AUTO;
    else return 1;
    return 0;
}

static int parse_long(const char *s, long *v)
{
    char *e;
    errno = 0;
    *v = strtol(s, &e, 10);
    return errno || *e || e == s;
}

/* --threads T: an integer from 1 to hs_max_threads(); 1 (usage) with a message if not. */
static int parse_threads(const char *cmd, const char *s, int *t)
{
    long v;
    int max = hs_max_threads();
    if (parse_long(s, &v) || v < 1) {
        fprintf(stderr, "hydrosweep %s: --threads needs an integer >= 1, got '%s'\n", cmd, s);
        return 1;
    }
    if (v > max) {
        fprintf(stderr,
                "hydrosweep %s: --threads %s is too many: at most %d on this machine (4 per "
                "online CPU, at most 1024)\n",
                cmd, s, max);
        return 1;
    }
    *t = (int)v;
    return 0;
}

/* K/N: two decimal integers and nothing else. */
static int parse_shard(const char *s, int *k, int *n)
{
    char a[32];
    const char *slash = strchr(s, '/');
    long x, y;
    if (!slash || (size_t)(slash - s) >= sizeof a) return 1;
    memcpy(a, s, (size_t)(slash - s));
    a[slash - s] = '\0';
    if (parse_long(a, &x) || parse_long(slash + 1, &y) || x < 0 || y < 1 || x > 2147483647L ||
        y > 2147483647L)
        return 1;
    *k = (int)x;
    *n = (int)y;
    return 0;
}

/* This program's path, for the command printed to resume a run: the binary itself, so that
 * the command works whether it was started through PATH, a relative path or a link. */
static void program_path(char *buf, size_t n)
{
    ssize_t k = readlink("/proc/self/exe", buf, n - 1);
    const char *del = " (deleted)"; /* the binary was replaced while running: the new one */
    size_t l;
    if (k <= 0 || (size_t)k >= n - 1) {
        snprintf(buf, n, "hydrosweep");
        return;
    }
    buf[k] = '\0';
    l = strlen(del);
    if ((size_t)k > l && !strcmp(buf + k - l, del)) buf[k - l] = '\0';
}

static void default_out(const char *sweep, char *buf, size_t n)
{
    const char *b = strrchr(sweep, '/');
    size_t l;
    b = b ? b + 1 : sweep;
    snprintf(buf, n, "%s", b);
    l = strlen(buf);
    if (l > 5 && !strcmp(buf + l - 5, ".yaml")) buf[l - 5] = '\0';
    else if (l > 4 && !strcmp(buf + l - 4, ".yml")) buf[l - 4] = '\0';
    l = strlen(buf);
    snprintf(buf + l, n - l, ".h5");
}

/* Started by an MPI launcher (mpirun, mpiexec, srun with PMI)? Then `run` splits the sweep
 * over the ranks. The launchers' environment says so before MPI_Init, which this program calls
 * only then (a plain run never touches MPI). */
static int mpi_launched(void)
{
    static const char *const vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "MPI_LOCALNRANKS", NULL};
    int i;
    for (i = 0; vars[i]; ++i)
        if (getenv(vars[i])) return 1;
    return 0;
}

/* The rank's index among the ranks of its node, for its GPU (round-robin over the devices
 * the backend sees: HS_GPU_DEVICE_INDEX, host/gpu/backend_gpu.cu); -1 if the launcher does not say. */
static int mpi_local_rank(void)
{
    static const char *const vars[] = {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "SLURM_LOCALID",
                                       "PMI_LOCAL_RANK", NULL};
    int i;
    for (i = 0; vars[i]; ++i)
        if (getenv(vars[i])) return atoi(getenv(vars[i]));
    return -1;
}

static int run_single(const char *sweep, hs_run_opts *o);

/* `mpirun -n R hydrosweep run SWEEP -o OUT.h5 ...`: rank K runs shard K/R into the piece
 * OUT.h5.rank<K>-of-<R>.h5 (with --resume, each continues its own), then rank 0 merges the
 * pieces into OUT.h5, the file one run would have written, and removes them; the summary is
 * rank 0's. A rank that fails leaves every piece in place and the exit status non-zero. */
static int run_mpi(const char *sweep, hs_run_opts *o)
{
#ifdef HS_HAVE_MPI
    int rank = 0, size = 1, rc, worst = 0, lr = mpi_local_rank();
    char piece[600], lrbuf[32];
    FILE *quiet = NULL;
    const char *out = o->out;
    MPI_Init(NULL, NULL);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size == 1) {
        MPI_Finalize();
        return run_single(sweep, o);
    }
    if (o->shard_n > 0) {
        if (rank == 0)
            fprintf(stderr, "hydrosweep run: --shard and mpirun do not mix: under mpirun the %d ranks are the "
                            "shards\n", size);
        MPI_Finalize();
        return 1;
    }
    o->shard_k = rank;
    o->shard_n = size;
    snprintf(piece, sizeof piece, "%s.rank%d-of-%d.h5", out, rank, size);
    o->out = piece;
    if (lr >= 0) {
        snprintf(lrbuf, sizeof lrbuf, "%d", lr);
        setenv("HS_GPU_DEVICE_INDEX", lrbuf, 0);
    }
    if (rank > 0) { /* one summary: rank 0's, and the merged file's */
        quiet = fopen("/dev/null", "w");
        if (quiet) o->report = quiet;
        o->progress = 0;
    }
    rc = run_single(sweep, o);
    MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    {   /* every piece finished (renamed from .part), or some stopped on purpose (--stop-after) */
        int mine = access(piece, F_OK) == 0, all = 0;
        MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
        if (worst == 0 && !all) {
            if (rank == 0)
                printf("run: stopped before the end (--stop-after): the pieces %s.rank<K>-of-%d.h5.part are "
                       "kept; the same mpirun command with --resume continues them and merges\n", out, size);
            if (quiet) fclose(quiet);
            MPI_Finalize();
            return 0;
        }
    }
    if (rank == 0) {
        if (worst == 0) {
            char **args = (char **)calloc((size_t)size + 3, sizeof *args), (*names)[600] = NULL;
            int k;
            names = (char(*)[600])calloc((size_t)size, sizeof *names);
            if (!args || !names) {
                fprintf(stderr, "hydrosweep run: out of memory\n");
                rc = 2;
            } else {
                args[0] = (char *)"merge";
                args[1] = (char *)out;
                for (k = 0; k < size; ++k) {
                    snprintf(names[k], sizeof names[k], "%s.rank%d-of-%d.h5", out, k, size);
                    args[2 + k] = names[k];
                }
                rc = hs_cli_merge(size + 2, args);
                if (rc == 0) {
                    for (k = 0; k < size; ++k) {
                        char csv[620];
                        snprintf(csv, sizeof csv, "%.*s.csv", (int)strlen(names[k]) - 3, names[k]);
                        unlink(names[k]);
                        unlink(csv);
                    }
                    printf("run: %d MPI ranks, their pieces merged into %s\n", size, out);
                }
            }
            free(args);
            free(names);
        } else {
            fprintf(stderr, "hydrosweep run: a rank failed (exit status %d); the pieces %s.rank<K>-of-%d.h5 "
                            "are kept: run the same mpirun command with --resume to continue\n", worst, out, size);
            if (rc == 0) rc = worst;
        }
    }
    if (quiet) fclose(quiet);
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return rc;
#else
    (void)mpi_local_rank;
    fprintf(stderr, "hydrosweep run: started by an MPI launcher, but this hydrosweep was built without MPI "
                    "(Debian: apt-get install libopenmpi-dev and rebuild; scripts/install-deps.sh installs it): "
                    "every rank would run the whole sweep into one file; use --shard K/N and merge instead\n");
    (void)sweep;
    (void)o;
    return 1;
#endif
}

int hs_cli_run(int argc, char **argv)
{
    hs_run_opts o;
    const char *sweep = NULL;
    char outbuf[512];
    int i;
    memset(&o, 0, sizeof o);
    o.backend = HS_BACKEND_CPU;
    o.progress = 1;
    o.report = stdout;
    for (i = 1; i < argc; ++i) {
        const char *a = argv[i];
        int has = i + 1 < argc;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage_run(stdout);
            return 0;
        } else if (!strcmp(a, "-b") && has) {
            if (parse_backend(argv[++i], &o.backend)) {
                fprintf(stderr, "hydrosweep run: unknown backend '%s' (cpu, gpu, reference, auto)\n", argv[i]);
                return 1;
            }
        } else if (!strcmp(a, "-n") && has) {
            if (parse_long(argv[++i], &o.n) || o.n < 1) {
                fprintf(stderr, "hydrosweep run: -n needs an integer >= 1, got '%s'\n", argv[i]);
                return 1;
            }
        } else if (!strcmp(a, "-o") && has) {
            o.out = argv[++i];
        } else if (!strcmp(a, "--threads") && has) {
            if (parse_threads("run", argv[++i], &o.threads)) return 1;
        } else if (!strcmp(a, "--shard") && has) {
            if (parse_shard(argv[++i], &o.shard_k, &o.shard_n) || o.shard_n < 1 ||
                o.shard_k < 0 || o.shard_k >= o.shard_n) {
                fprintf(stderr, "hydrosweep run: --shard needs K/N with 0 <= K < N, got '%s'\n", argv[i]);
                return 1;
            }
        } else if (!strcmp(a, "--resume")) {
            o.resume = 1;
        } else if (!strcmp(a, "--batch") && has) {
            if (parse_long(argv[++i], &o.batch) || o.batch < 1) {
                fprintf(stderr, "hydrosweep run: --batch needs an integer >= 1\n");
                return 1;
            }
        } else if (!strcmp(a, "--stop-after") && has) {
            if (parse_long(argv[++i], &o.stop_after) || o.stop_after < 1) {
                fprintf(stderr, "hydrosweep run: --stop-after needs an integer >= 1\n");
                return 1;
            }
        } else if (!strcmp(a, "--progress")) {
            o.progress = 2;
        } else if (!strcmp(a, "--no-progress")) {
            o.progress = 0;
        } else if (!strcmp(a, "--si")) {
            o.si = 1;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "hydrosweep run: unknown option or missing value '%s' (see --help)\n", a);
            return 1;
        } else if (sweep) {
            fprintf(stderr, "hydrosweep run: more than one sweep given\n");
            return 1;
        } else {
            sweep = a;
        }
    }
    if (!sweep) {
        usage_run(stderr);
        return 1;
    }
    if (!o.out) {
        default_out(sweep, outbuf, sizeof outbuf);
        o.out = outbuf;
    }
    if (mpi_launched()) return run_mpi(sweep, &o);
    return run_single(sweep, &o);
}

/* The run of SWEEP with the options o (hs_cli_run's after parsing; exit status as there). */
static int run_single(const char *sweep, hs_run_opts *op)
{
    hs_run_opts o = *op;
    hs_sweep sw;
    hs_model_desc md;
    hs_error err;
    int rc;
    if (hs_sweep_load(sweep, &sw, &md, &err)) {
        hs_cli_error(NULL, &err);
        return 2;
    }
    /* the base model's; a swept value's shows per instance (status bit implausible) */
    hs_cli_warn_implausible("run", &md, " (the instances carry the warning bit implausible)");
    hs_cli_warn_load_not_held("run", &md);
    {
        char exe[4096];
        program_path(exe, sizeof exe);
        rc = hs_run_cli(&sw, &md, &o, exe, &err);
    }
    hs_sweep_free(&sw);
    hs_model_desc_free(&md);
    /* stopped by SIGINT or SIGTERM, the command that continues it printed: 128 + the signal,
     * as a shell reports a process the signal ended */
    if (rc == HS_ERR_INTERRUPTED) return 128 + (hs_interrupted() > 0 ? hs_interrupted() : 2);
    if (rc) hs_cli_error(NULL, &err);
    /* bad input, options or output path (checked before anything runs): 2; the run failed
     * (a write error such as a full disk, no memory, a GPU fault): 3 */
    return rc == 0 ? 0 : (rc == HS_ERR_IO || rc == HS_ERR_NUMERIC ? 3 : 2);
}

void hs_validate_iterations(const hs_batch_out *a, const hs_batch_out *b, long K,
                            double iter_rtol, hs_iter_cmp *r)
{
    long k;
    memset(r, 0, sizeof *r);
    r->worst_mean_k = r->worst_max_k = -1;
    for (k = 0; k < K; ++k) {
        double x = a->iters_mean[k], y = b->iters_mean[k];
        int both_nan = isnan(x) && isnan(y);
        double d = both_nan ? 0.0 : fabs(x - y);
        double m = both_nan ? 0.0 : (fabs(x) > fabs(y) ? fabs(x) : fabs(y));
        int dm = abs(a->iters_max[k] - b->iters_max[k]);
        if (d != 0.0 || dm != 0) ++r->ndiff;
        /* NaN on one side only: d is NaN and fails both comparisons */
        if (!(d <= iter_rtol * m) || dm > HS_VALIDATE_ITER_MAX_DIFF) ++r->nbad;
        if (!isnan(r->worst_mean) && !(d <= r->worst_mean)) { /* a NaN stays the worst */
            r->worst_mean = d;
            r->worst_mean_rel = m > 0.0 ? d / m : (d > 0.0 ? INFINITY : d);
            r->worst_mean_k = k;
        }
        if (dm > r->worst_max) {
            r->worst_max = dm;
            r->worst_max_k = k;
        }
    }
}

/* Prints the iteration part of validate's report. */
static void print_iterations(const hs_iter_cmp *r, const hs_batch_out *a, const hs_batch_out *b,
                             const long *idx, long K, double iter_rtol)
{
    printf("Newton iterations (a cost, not a result: reported apart, bounded, not checked "
           "against rtol):\n");
    printf("  mean per step  largest difference %.3e (relative %.1e, bound %.1e)", r->worst_mean,
           r->worst_mean_rel, iter_rtol);
    if (r->worst_mean_k >= 0 && r->worst_mean != 0.0)
        printf(" at instance %ld: %.6f vs %.6f (reference)", idx[r->worst_mean_k],
               a->iters_mean[r->worst_mean_k], b->iters_mean[r->worst_mean_k]);
    printf("\n  max per step   largest difference %d (bound %d)", r->worst_max,
           HS_VALIDATE_ITER_MAX_DIFF);
    if (r->worst_max_k >= 0)
        printf(" at instance %ld: %d vs %d (reference)", idx[r->worst_max_k],
               a->iters_max[r->worst_max_k], b->iters_max[r->worst_max_k]);
    printf("\n  instances whose iteration counts differ: %ld of %ld, beyond the bounds: %ld\n",
           r->ndiff, K, r->nbad);
}

int hs_cli_validate(int argc, char **argv)
{
    const char *sweep = NULL;
    long K = 16, k, iter_bad = 0;
    double rtol = 1e-6, iter_rtol = 1e-2;
    int backend = HS_BACKEND_AUTO, threads = 0, i, q, rc = 0, bad = 0, stmis = 0, ties = 0;
    hs_sweep sw;
    hs_model_desc md;
    hs_error err;
    hs_batch_out a, b;
    long *idx;
    char dev[256];
    for (i = 1; i < argc; ++i) {
        const char *s = argv[i];
        int has = i + 1 < argc;
        if (!strcmp(s, "--help") || !strcmp(s, "-h")) {
            usage_validate(stdout);
            return 0;
        } else if (!strcmp(s, "--sample") && has) {
            if (parse_long(argv[++i], &K) || K < 1) {
                fprintf(stderr, "hydrosweep validate: --sample needs an integer >= 1\n");
                return 1;
            }
        } else if ((!strcmp(s, "--rtol") || !strcmp(s, "--iter-rtol")) && has) {
            char *e;
            double v = strtod(argv[++i], &e);
            if (*e || e == argv[i] || !(v >= 0) || isinf(v)) {
                fprintf(stderr, "hydrosweep validate: %s needs a number >= 0\n", s);
                return 1;
            }
            if (!strcmp(s, "--rtol")) rtol = v;
            else iter_rtol = v;
        } else if (!strcmp(s, "-b") && has) {
            if (parse_backend(argv[++i], &backend) || backend == HS_BACKEND_REFERENCE) {
                fprintf(stderr, "hydrosweep validate: -b takes gpu, cpu or auto\n");
                return 1;
            }
        } else if (!strcmp(s, "--threads") && has) {
            if (parse_threads("validate", argv[++i], &threads)) return 1;
        } else if (s[0] == '-' && s[1]) {
            fprintf(stderr, "hydrosweep validate: unknown option or missing value '%s'\n", s);
            return 1;
        } else if (sweep) {
            fprintf(stderr, "hydrosweep validate: more than one sweep given\n");
            return 1;
        } else {
            sweep = s;
        }
    }
    if (!sweep) {
        usage_validate(stderr);
        return 1;
    }
    if (hs_sweep_load(sweep, &sw, &md, &err)) {
        hs_cli_error(NULL, &err);
        return 2;
    }
    if (hs_sweep_apply_simulation(&sw, &md, &err)) {
        hs_cli_error(NULL, &err);
        hs_sweep_free(&sw);
        hs_model_desc_free(&md);
        return 2;
    }
    if (K > sw.n) K = sw.n;
    if (backend == HS_BACKEND_AUTO) backend = hs_gpu_available(dev, sizeof dev) ? HS_BACKEND_GPU : HS_BACKEND_CPU;
    if (backend == HS_BACKEND_CPU) hs_cpu_name(dev, sizeof dev);
    else if (!hs_gpu_available(dev, sizeof dev)) {
        fprintf(stderr, "hydrosweep validate: no GPU backend: %s\n", dev);
        hs_sweep_free(&sw);
        hs_model_desc_free(&md);
        return 2;
    }
    printf("validate: %ld instances of %s on %s (%s) against the reference backend (LAPACK)\n", K,
           sweep, backend == HS_BACKEND_GPU ? "gpu" : "cpu", dev);
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    idx = (long *)malloc((size_t)K * sizeof *idx);
    if (!idx || hs_batch_out_alloc(&a, K, &sw.out, 0) || hs_batch_out_alloc(&b, K, &sw.out, 0)) {
        fprintf(stderr, "hydrosweep validate: out of memory\n");
        free(idx);
        hs_batch_out_free(&a);
        hs_batch_out_free(&b);
        hs_sweep_free(&sw);
        hs_model_desc_free(&md);
        return 3;
    }
    for (k = 0; k < K; ++k) idx[k] = (long)((double)k * (double)sw.n / (double)K);
    {
        hs_output_spec nt = sw.out;
        nt.ntraj = 0; /* statistics only */
        sw.out = nt;
    }
    if (hs_run_range(&sw, &md, backend, threads, idx, K, &a, &err) ||
        hs_run_range(&sw, &md, HS_BACKEND_REFERENCE, 1, idx, K, &b, &err)) {
        hs_cli_error(NULL, &err);
        rc = 3;
    } else {
        double escale = 1.0; /* energy scale for the E_balance residual */
        /* and the length scale of phi_norm, a residual of positions (the double-step
         * formulation keeps it at rounding level, where its own size is no scale): the
         * mechanism's largest joint offset */
        double lscale = 0.0;
        for (k = 0; k < md.model.nbody; ++k) {
            double la = hs_v3_norm(md.model.joint_at_parent[k]), lc = hs_v3_norm(md.model.joint_at_child[k]);
            if (la > lscale) lscale = la;
            if (lc > lscale) lscale = lc;
        }
        if (!(lscale > 0.0)) lscale = 1.0;
        for (q = 0; q < sw.out.nsig; ++q) {
            int kd = sw.out.sig[q].kind;
            if (kd == HS_SIG_W || kd == HS_SIG_EKIN || kd == HS_SIG_EPOT || kd == HS_SIG_WEXT)
                for (k = 0; k < K; ++k) {
                    double v = fabs(b.stats[((long)q * HS_NSTAT + HS_STAT_MAX) * K + k]);
                    double u = fabs(b.stats[((long)q * HS_NSTAT + HS_STAT_MIN) * K + k]);
                    if (isfinite(v) && v > escale) escale = v;
                    if (isfinite(u) && u > escale) escale = u;
                }
        }
        printf("%-24s %14s %10s\n", "signal", "max rel diff", "instance");
        for (q = 0; q < sw.out.nsig; ++q) {
            double scale = 0.0, worst = 0.0;
            long wi = -1;
            int st, iters = sw.out.sig[q].kind == HS_SIG_ITERS;
            char name[112];
            for (k = 0; k < K; ++k)
                for (st = 0; st < HS_NSTAT; ++st) {
                    double v = fabs(b.stats[((long)q * HS_NSTAT + st) * K + k]);
                    if (st != HS_STAT_TMAX && v > scale && isfinite(v)) scale = v;
                }
            if (sw.out.sig[q].kind == HS_SIG_EBAL) scale = escale;
            if (sw.out.sig[q].kind == HS_SIG_PHI) scale = lscale;
            for (k = 0; k < K; ++k)
                for (st = 0; st < HS_NSTAT; ++st) {
                    double x = a.stats[((long)q * HS_NSTAT + st) * K + k];
                    double y = b.stats[((long)q * HS_NSTAT + st) * K + k];
                    double sc = st == HS_STAT_TMAX ? (md.model.t_end > 0 ? md.model.t_end : 1.0) : scale;
                    double d = (isnan(x) && isnan(y)) ? 0.0 : fabs(x - y) / (sc > 0 ? sc : 1.0);
                    if (st == HS_STAT_TMAX && d > rtol && !iters) {
                        /* the time of a maximum attained twice to rounding (a plateau, a
                         * residual that is ~0 throughout) is decided by the last bits: it
                         * counts only where the maxima themselves differ */
                        double mx = a.stats[((long)q * HS_NSTAT + HS_STAT_MAX) * K + k];
                        double my = b.stats[((long)q * HS_NSTAT + HS_STAT_MAX) * K + k];
                        if (fabs(mx - my) <= rtol * (scale > 0 ? scale : 1.0)) {
                            ++ties;
                            continue;
                        }
                    }
                    if (!isnan(worst) && !(d <= worst)) { /* a NaN stays the worst */
                        worst = d;
                        wi = idx[k];
                    }
                }
            hs_output_name(&md, sw.out.sig[q], name, sizeof name);
            if (iters) {
                /* an iteration count, not a physical signal: shown, never checked */
                printf("%-24s %14.3e %10ld  (iterations: reported, not checked)\n", name, worst, wi);
                continue;
            }
            printf("%-24s %14.3e %10ld%s\n", name, worst, wi, worst > rtol ? "  > rtol" : "");
            if (worst > rtol || isnan(worst)) bad = 1;
        }
        for (k = 0; k < K; ++k)
            if (a.status[k] != b.status[k]) ++stmis;
        printf("status mismatches: %d of %ld\n", stmis, K);
        if (ties)
            printf("t_max left out where the maxima agree within rtol but were reached at other times "
                   "(ties to rounding): %d\n", ties);
        hs_iter_cmp ic;
        hs_validate_iterations(&a, &b, K, iter_rtol, &ic);
        print_iterations(&ic, &a, &b, idx, K, iter_rtol);
        iter_bad = ic.nbad;
        if (!bad && !stmis && !iter_bad)
            printf("validate: passed (signals within rtol %.1e, statuses equal, Newton iterations "
                   "within their bounds)\n", rtol);
        else
            printf("validate: FAILED (%s%s%s)\n", bad ? "signals beyond rtol; " : "",
                   stmis ? "statuses differ; " : "",
                   iter_bad ? "Newton iterations beyond their bounds" : "");
        rc = bad || stmis || iter_bad ? 4 : 0;
    }
    free(idx);
    hs_batch_out_free(&a);
    hs_batch_out_free(&b);
    hs_sweep_free(&sw);
    hs_model_desc_free(&md);
    return rc;
}

int hs_cli_merge(int argc, char **argv)
{
    hs_error err;
    int rc, k;
    if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        printf("usage: hydrosweep merge OUT.h5 PIECE.h5 [PIECE.h5 ...]\n"
               "\n"
               "Joins the results of `hydrosweep run --shard K/N` runs of one sweep into OUT.h5,\n"
               "equal in every dataset to the file a single run writes (the pieces must tile all\n"
               "instances without overlap; any order). Writes OUT.csv beside it.\n");
        return 0;
    }
    if (argc < 3) {
        fprintf(stderr, "usage: hydrosweep merge OUT.h5 PIECE.h5 [PIECE.h5 ...]\n");
        return 1;
    }
    /* the pieces' /params re-derived from their stored sweep (hs_results_check_params_file),
     * then merged (which checks every chunk against its checksums) */
    for (k = 2, rc = 0; k < argc && !rc; ++k) rc = hs_results_check_params_file(argv[k], &err);
    if (!rc) rc = hs_results_merge(argv[1], (const char *const *)(argv + 2), argc - 2, &err);
    if (rc) {
        hs_cli_error(NULL, &err);
        return 2;
    }
    printf("merge: %d pieces into %s\n", argc - 2, argv[1]);
    return 0;
}
