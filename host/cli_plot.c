/* cli_plot.c -- `hydrosweep plot INPUT [options] -o out.png`: pictures with matplotlib; and
 * `hydrosweep analyze sobol RESULTS.h5 ...`: Sobol' indices by SALib (python/hydrosweep/analyze.py),
 * run the same way.
 *
 * The drawing is Python's (python/hydrosweep/plot.py, the package's hydrosweep.plot, which a
 * notebook imports too): this command finds a python3 that has numpy, h5py and matplotlib,
 * puts the package on its path and runs `python3 -m hydrosweep.plot`, passing this program's
 * path so that a fan chart can draw the nominal instance (`hydrosweep simulate --from R
 * --nominal`). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"

#ifndef HS_PYTHON_DIR
#define HS_PYTHON_DIR "python"
#endif

extern char **environ;

static void usage(FILE *f)
{
    fprintf(f,
            "usage: hydrosweep plot RESULTS.h5 [--kind fan|hist|scatter|status|stability] [--signal S]\n"
            "                       [--stat STAT] [--param P] [--nominal CSV | --no-nominal]\n"
            "                       [--what min_damping|max_real] -o out.png\n"
            "       hydrosweep plot SIMULATE.csv [--model MODEL] -o out.png\n"
            "\n"
            "Draws a results file of `hydrosweep run` (or a CSV of `hydrosweep simulate`) as a PNG\n"
            "with matplotlib:\n"
            "  fan       the 5-95 %% and 25-75 %% bands and the median of a trajectory signal over\n"
            "            time across the finished instances, and the nominal instance (the model's\n"
            "            own values, simulated here unless --nominal CSV or --no-nominal is given);\n"
            "            the default when the sweep recorded trajectories\n"
            "  hist      histogram and ECDF of a statistic (--stat, default max) of a signal over the\n"
            "            finished instances, the stored 5/50/95 %% quantiles marked; the default\n"
            "            without trajectories\n"
            "  scatter   that statistic against a swept parameter (--param, default the first)\n"
            "  status    instances per failure and warning bit\n"
            "  stability the stability map of a sweep with outputs.eigenvalues: the smallest\n"
            "            damping ratio (--what max_real: the largest real part) of each instance's\n"
            "            nonzero eigenvalues over two swept parameters (--param X --param Y, default\n"
            "            the first two), with the line where the least damped mode turns oscillatory\n"
            "  simulate  a `hydrosweep simulate` CSV: joints, pressures, energies (the default for\n"
            "            a .csv; --model names the model file, whose revolute joints are drawn in deg)\n"
            "  --signal S  a signal as named in the sweep (default: the first with a trajectory, or\n"
            "            the first recorded)\n"
            "Pressures are drawn in MPa and angles in degrees; every axis names its unit.\n"
            "It runs python3 -m hydrosweep.plot (python/hydrosweep/plot.py; the same functions are\n"
            "hydrosweep.plot.fan(...) etc. in Python) with the first python3 that has numpy, h5py\n"
            "and matplotlib: $HS_PYTHON, /usr/bin/python3, python3 on PATH (Debian 12:\n"
            "apt-get install python3-matplotlib python3-h5py; scripts/install-deps.sh does).\n"
            "Exit status: 0 written, 1 usage, 2 bad input (file, signal, parameter), 4 no python3\n"
            "with numpy, h5py and matplotlib.\n");
}

/* Runs argv (a path) with stdout and stderr to /dev/null; its exit status, -1 if it did not run. */
static int run_quiet(char *const *argv)
{
    posix_spawn_file_actions_t fa;
    pid_t pid;
    int st = 0, rc;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc) return -1;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR) return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The first interpreter that runs `imports` (e.g. "import numpy, h5py, matplotlib"). */
static const char *find_python(const char *imports)
{
    static const char *const cands[] = {"/usr/bin/python3", "python3", NULL};
    const char *e = getenv("HS_PYTHON");
    int i;
    char *argv[4];
    argv[1] = (char *)"-c";
    argv[2] = (char *)imports;
    argv[3] = NULL;
    if (e && *e) {
        argv[0] = (char *)e;
        return run_quiet(argv) == 0 ? e : NULL;
    }
    for (i = 0; cands[i]; ++i) {
        argv[0] = (char *)cands[i];
        if (run_quiet(argv) == 0) return cands[i];
    }
    return NULL;
}

/* Runs `python3 -m module argv[1..]` (replacing this process) with the package directory
 * on PYTHONPATH and the first interpreter that runs `imports`; cmd names the command in
 * messages, need and hint say what is missing and how to get it; with pass_exe this
 * program's path goes along as --hydrosweep PATH. Returns only on failure: 4 (no package
 * directory or interpreter), 2 (no memory). */
static int run_python_module(const char *cmd, const char *module, const char *imports, const char *need,
                             const char *hint, int argc, char **argv, int pass_exe)
{
    const char *py, *pdir = getenv("HS_PYTHONPATH"), *old = getenv("PYTHONPATH");
    char exe[PATH_MAX], inst[PATH_MAX + 64], *pypath, **args;
    ssize_t n;
    int i, k = 0;
    struct stat sb;
    n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) exe[n] = '\0';
    else exe[0] = '\0';
    if (!pdir || !*pdir) { /* an installed program's share/hydrosweep/python, else the source tree's */
        char *slash = strrchr(exe, '/');
        if (slash && (size_t)(slash - exe) + 40 < sizeof inst) {
            snprintf(inst, sizeof inst, "%.*s/../share/hydrosweep/python", (int)(slash - exe), exe);
            if (stat(inst, &sb) == 0 && S_ISDIR(sb.st_mode)) pdir = inst;
        }
    }
    if (!pdir || !*pdir) pdir = HS_PYTHON_DIR;
    if (stat(pdir, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
        fprintf(stderr, "hydrosweep %s: error: the Python package directory %s is missing (set "
                        "HS_PYTHONPATH to the python/ directory of the hydrosweep sources)\n", cmd, pdir);
        return 4;
    }
    if (!(py = find_python(imports))) {
        fprintf(stderr, "hydrosweep %s: error: no python3 with %s (tried %s): %s, or set HS_PYTHON to an "
                        "interpreter that has them\n",
                cmd, need, getenv("HS_PYTHON") && *getenv("HS_PYTHON") ? getenv("HS_PYTHON") : "/usr/bin/python3, python3",
                hint);
        return 4;
    }
    pypath = (char *)malloc(strlen(pdir) + (old ? strlen(old) : 0) + 2);
    args = (char **)calloc((size_t)argc + 8, sizeof *args);
    if (!pypath || !args) {
        free(pypath);
        free(args);
        fprintf(stderr, "hydrosweep %s: error: out of memory\n", cmd);
        return 2;
    }
    sprintf(pypath, "%s%s%s", pdir, old && *old ? ":" : "", old && *old ? old : "");
    setenv("PYTHONPATH", pypath, 1);
    /* matplotlib draws without a display (a terminal, CI) when none is set */
    if (!getenv("DISPLAY") && !getenv("MPLBACKEND")) setenv("MPLBACKEND", "Agg", 1);
    args[k++] = (char *)py;
    args[k++] = (char *)"-m";
    args[k++] = (char *)module;
    for (i = 1; i < argc; ++i) args[k++] = argv[i];
    if (pass_exe && exe[0]) {
        args[k++] = (char *)"--hydrosweep";
        args[k++] = exe;
    }
    args[k] = NULL;
    fflush(stdout);
    execvp(py, args);
    fprintf(stderr, "hydrosweep %s: error: cannot run %s: %s\n", cmd, py, strerror(errno));
    free(pypath);
    free(args);
    return 4;
}

int hs_cli_plot(int argc, char **argv)
{
    int i, have_out = 0, have_input = 0;
    for (i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 0;
        }
        if (!strcmp(argv[i], "-o") || !strcmp(argv[i], "--output")) have_out = 1;
        else if (argv[i][0] != '-') have_input = 1;
    }
    if (argc < 2 || !have_out || !have_input) {
        usage(stderr);
        return 1;
    }
    /* this program goes along, for the nominal instance of a fan chart */
    return run_python_module("plot", "hydrosweep.plot", "import numpy, h5py, matplotlib", "numpy, h5py and matplotlib",
                             "apt-get install python3-numpy python3-h5py python3-matplotlib (Debian 12; "
                             "scripts/install-deps.sh does)",
                             argc, argv, 1);
}

static void usage_analyze(FILE *f)
{
    fprintf(f,
            "usage: hydrosweep analyze sobol RESULTS.h5 --signal S [--stat STAT] [--resamples K]\n"
            "                          [--conf C] [--seed N] [--no-store]\n"
            "\n"
            "First-order and total Sobol' indices, with bootstrap confidence intervals, of one\n"
            "statistic (--stat, default max) of a recorded signal over the swept parameters,\n"
            "computed by SALib (SALib.analyze.sobol) from the results of a sweep with\n"
            "method: saltelli (SALib's Saltelli design; docs/sweep-format.md). Prints the\n"
            "parameters ranked by their total index and stores the indices (and the second-order\n"
            "ones) in the results file under /sobol/<signal>/<stat> (docs/results-format.md).\n"
            "  --resamples K  bootstrap resamples (default 1000)   --conf C  confidence (0.95)\n"
            "  --seed N       the bootstrap's seed (default 1)       --no-store  print only\n"
            "It runs python3 -m hydrosweep.analyze with the first python3 that has numpy, h5py,\n"
            "pandas and SALib: $HS_PYTHON, /usr/bin/python3, python3 on PATH. SALib is not a\n"
            "Debian package: pip install SALib (into a virtual environment made with\n"
            "--system-site-packages, and HS_PYTHON set to its python).\n"
            "Exit status: 0 done, 1 usage, 2 bad input (not a saltelli sweep, failed instances,\n"
            "an unknown signal or statistic), 4 no python3 with those packages.\n");
}

int hs_cli_analyze(int argc, char **argv)
{
    int i;
    for (i = 1; i < argc; ++i)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage_analyze(stdout);
            return 0;
        }
    if (argc < 3 || strcmp(argv[1], "sobol") != 0) {
        usage_analyze(stderr);
        return 1;
    }
    return run_python_module("analyze", "hydrosweep.analyze", "import numpy, h5py, pandas, SALib",
                             "numpy, h5py, pandas and SALib",
                             "pip install SALib (not packaged by Debian 12)", argc, argv, 0);
}
