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

#include "cli/cli.h"

#ifndef HS_PYTHON_DIR
#define HS_PYTHON_DIR "python"
#endif

extern char **environ;

static void usage(FILE *f)
{
    fprintf(f,
            "usage: hydrosweep plot RESULTS.h5 [--kind fan|hist|scatter|status|stability|cosim]\n"
            "                       [--signal S] [--stat STAT] [--param P] [--nominal CSV | --no-nominal]\n"
            "                       [--what min_damping|max_real] [--input NAME] -o out.png\n"
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
            "  cosim     a cosim_search's accumulated energy residual E_res against the communication\n"
            "            step H, one line per configuration, for one test input (--input NAME,\n"
            "            default the first): Pub. III Fig. 3, each configuration's largest stable H\n"
            "            (hydrosweep analyze cosim) circled, its first failed run crossed\n"
            "  simulate  a `hydrosweep simulate` CSV: joints, pressures, energies (the default for\n"
            "            a .csv; --model names the model file, whose revolute joints are drawn in deg)\n"
            "  --signal S  a signal as named in the sweep (default: the first with a trajectory, or\n"
            "            the first recorded)\n"
            "Pressures are drawn in MPa and angles in degrees; every axis names its unit.\n"
            "It runs python3 -m hydrosweep.plot (python/hydrosweep/plot.py; the same functions are\n"
            "hydrosweep.plot.fan(...) etc. in Python) with the first python3 that imports numpy,\n"
            "h5py and matplotlib: $HS_PYTHON alone when it is set; else the interpreter of a\n"
            "pip-installed hydrosweep, /usr/bin/python3, python3 on PATH, in this order (one that\n"
            "fails an import is passed over; when none works, the error names each and its failed\n"
            "import). Debian 12: apt-get install python3-matplotlib python3-h5py (scripts/\n"
            "install-deps.sh does); a pip-installed hydrosweep: pip install 'hydrosweep[plot]'.\n"
            "Exit status: 0 written, 1 usage, 2 bad input (file, signal, parameter), 4 no python3\n"
            "with numpy, h5py and matplotlib.\n");
}

/* The interpreter that runs the module: the first of the candidates below that imports every
 * module the command needs (probe_python), with the package directory on PYTHONPATH:
 *   $HS_PYTHON alone when it is set: an explicit choice is never replaced by another
 *     interpreter; when it fails, the error says which import failed and why;
 *   else $HS_PACKAGE_PYTHON (the interpreter the package is installed in: the pip-installed
 *     `hydrosweep` command and `python -m hydrosweep` set it, python/hydrosweep/_cli.py),
 *     /usr/bin/python3 (Debian's, with python3-numpy etc.) and python3 on PATH, in this order:
 *     one that fails is passed over for the next, and when none works the error names each
 *     one tried and the import that failed in it. */
#define HS_PY_MAXMODS 8
#define HS_PY_WHY 200

/* What the probe runs: imports the modules named by its arguments one at a time and, at the
 * first that fails, prints "hydrosweep-probe: import M failed: ..." (which and the exception's
 * first line) and exits 3; else prints "hydrosweep-probe ok". Neither line is in the program's
 * text, so that a program that echoes its arguments is no Python that passed. */
static const char py_probe[] =
    "import sys\n"
    "for m in sys.argv[1:]:\n"
    "    try:\n"
    "        __import__(m)\n"
    "    except BaseException as e:\n"
    "        t = [l.strip() for l in str(e).splitlines() if l.strip()]\n"
    "        print('hydrosweep-probe' + ': import %s failed: %s%s' % (m, type(e).__name__, ': ' + t[0] if t else ''))\n"
    "        sys.exit(3)\n"
    "print('hydrosweep-probe', 'ok')\n";

/* Copies the line at s (up to a newline) into why, printable characters only, cut to fit. */
static void copy_line(char *why, size_t nwhy, const char *s)
{
    size_t k = 0;
    while (*s == ' ' || *s == '\t') ++s;
    for (; *s && *s != '\n' && k + 1 < nwhy; ++s)
        why[k++] = ((unsigned char)*s >= ' ' && *s != 127) ? *s : ' '; /* UTF-8 kept, controls not */
    while (k > 0 && why[k - 1] == ' ') --k;
    why[k] = '\0';
}

/* Runs `py -c <py_probe> mods...` with stdin from /dev/null and stdout and stderr into a pipe.
 * 0 when every import works; else -1 with the reason in why: the probe's line ("import h5py
 * failed: ImportError: ..."), else the last line the interpreter printed (one that is no
 * Python, or a crash), else how it ended. */
static int probe_python(const char *py, const char *const *mods, char *why, size_t nwhy)
{
    char *argv[HS_PY_MAXMODS + 4], buf[8192], chunk[2048];
    size_t len = 0;
    int fd[2], rc, st = 0, i, k = 0;
    pid_t pid;
    ssize_t n;
    posix_spawn_file_actions_t fa;
    const char *mark, *p, *line;
    argv[k++] = (char *)py;
    argv[k++] = (char *)"-c";
    argv[k++] = (char *)py_probe;
    for (i = 0; mods[i] && i < HS_PY_MAXMODS; ++i) argv[k++] = (char *)mods[i];
    argv[k] = NULL;
    if (pipe(fd) != 0) {
        snprintf(why, nwhy, "cannot make a pipe: %s", strerror(errno));
        return -1;
    }
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, fd[1], 1);
    posix_spawn_file_actions_adddup2(&fa, fd[1], 2);
    posix_spawn_file_actions_addclose(&fa, fd[0]);
    posix_spawn_file_actions_addclose(&fa, fd[1]);
    rc = posix_spawnp(&pid, py, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(fd[1]);
    if (rc) {
        close(fd[0]);
        snprintf(why, nwhy, "%s", rc == ENOENT ? "not found" : strerror(rc));
        return -1;
    }
    /* everything it prints, the last sizeof buf - 1 bytes kept */
    for (;;) {
        n = read(fd[0], chunk, sizeof chunk);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        if (len + (size_t)n > sizeof buf - 1) {
            size_t drop = len + (size_t)n - (sizeof buf - 1);
            memmove(buf, buf + drop, len - drop);
            len -= drop;
        }
        memcpy(buf + len, chunk, (size_t)n);
        len += (size_t)n;
    }
    buf[len] = '\0';
    close(fd[0]);
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR) {
            snprintf(why, nwhy, "cannot wait for it: %s", strerror(errno));
            return -1;
        }
    if (WIFEXITED(st) && WEXITSTATUS(st) == 0 && strstr(buf, "hydrosweep-probe ok")) return 0;
    /* the probe's own line (the last one, should an import print a line like it) */
    line = NULL;
    for (p = buf; (mark = strstr(p, "hydrosweep-probe: ")) != NULL; p = mark + 1) line = mark + 18;
    if (!line) { /* else the last line with something on it */
        size_t e = len;
        while (e > 0 && (buf[e - 1] == '\n' || buf[e - 1] == '\r' || buf[e - 1] == ' ')) --e;
        buf[e] = '\0';
        if (e > 0) {
            line = strrchr(buf, '\n');
            line = line ? line + 1 : buf;
        }
    }
    if (line && *line) {
        char tmp[HS_PY_WHY - 40];
        copy_line(tmp, sizeof tmp, line);
        if (WIFEXITED(st) && WEXITSTATUS(st) == 3 && !strncmp(tmp, "import ", 7)) snprintf(why, nwhy, "%s", tmp);
        else if (WIFEXITED(st) && WEXITSTATUS(st) == 0) snprintf(why, nwhy, "not a Python interpreter? it printed: %s", tmp);
        else if (WIFEXITED(st)) snprintf(why, nwhy, "exit status %d: %s", WEXITSTATUS(st), tmp);
        else snprintf(why, nwhy, "killed by signal %d: %s", WIFSIGNALED(st) ? WTERMSIG(st) : 0, tmp);
    } else if (WIFEXITED(st)) {
        snprintf(why, nwhy, "exit status %d, nothing printed%s", WEXITSTATUS(st),
                 WEXITSTATUS(st) == 0 ? " (not a Python interpreter?)" : "");
    } else {
        snprintf(why, nwhy, "killed by signal %d", WIFSIGNALED(st) ? WTERMSIG(st) : 0);
    }
    return -1;
}

/* The first executable file `name` in the directories of PATH (confstr's default path when
 * PATH is unset), as posix_spawnp would find it; 0 when there is none. */
static int path_lookup(const char *name, char *out, size_t nout)
{
    const char *path = getenv("PATH"), *p, *colon;
    char def[256];
    struct stat sb;
    if (!path) {
        size_t m = confstr(_CS_PATH, def, sizeof def);
        path = (m > 0 && m <= sizeof def) ? def : "/bin:/usr/bin";
    }
    for (p = path;; p = colon + 1) {
        size_t dl;
        colon = strchr(p, ':');
        dl = colon ? (size_t)(colon - p) : strlen(p);
        if (dl == 0) snprintf(out, nout, "%s", name); /* an empty entry: the working directory */
        else if (dl + strlen(name) + 2 <= nout) snprintf(out, nout, "%.*s/%s", (int)dl, p, name);
        else out[0] = '\0';
        if (out[0] && stat(out, &sb) == 0 && S_ISREG(sb.st_mode) && access(out, X_OK) == 0) return 1;
        if (!colon) break;
    }
    out[0] = '\0';
    return 0;
}

/* Appends "  LINE\n" to the list of interpreters tried (cut when it is full). */
static void tried_add(char *tried, size_t ntried, const char *who, const char *why)
{
    size_t l = strlen(tried);
    if (l + 1 < ntried) snprintf(tried + l, ntried - l, "  %.400s: %.200s\n", who, why);
}

/* The interpreter to run (see above): its path, or NULL with each interpreter tried and why it
 * failed in `tried`, one indented line each. */
static const char *find_python(const char *const *mods, char *tried, size_t ntried)
{
    static char found[PATH_MAX];
    const char *e = getenv("HS_PYTHON"), *pkg = getenv("HS_PACKAGE_PYTHON");
    const char *cands[3], *labels[3];
    char onpath[PATH_MAX], why[HS_PY_WHY], who[PATH_MAX + 64];
    int nc = 0, i, j, dup;
    tried[0] = '\0';
    if (e && *e) {
        cands[nc] = e;
        labels[nc++] = "HS_PYTHON";
    } else {
        if (pkg && *pkg) {
            cands[nc] = pkg;
            labels[nc++] = "the package's interpreter, HS_PACKAGE_PYTHON";
        }
        cands[nc] = "/usr/bin/python3";
        labels[nc++] = NULL;
        if (path_lookup("python3", onpath, sizeof onpath)) {
            cands[nc] = onpath;
            labels[nc++] = "python3 on PATH";
        } else {
            tried_add(tried, ntried, "python3 on PATH", "not found");
        }
    }
    for (i = 0; i < nc; ++i) {
        for (dup = 0, j = 0; j < i; ++j) dup |= !strcmp(cands[i], cands[j]);
        if (dup) continue;
        if (probe_python(cands[i], mods, why, sizeof why) == 0) {
            snprintf(found, sizeof found, "%s", cands[i]);
            return found;
        }
        if (labels[i]) snprintf(who, sizeof who, "%s (%s)", cands[i], labels[i]);
        else snprintf(who, sizeof who, "%s", cands[i]);
        tried_add(tried, ntried, who, why);
    }
    return NULL;
}

/* Runs `python3 -m module argv[1..]` (replacing this process) with the package directory
 * on PYTHONPATH and the first interpreter that imports `mods` (find_python); cmd names the
 * command in messages, need and hint say what is missing and how to get it; with pass_exe
 * this program's path goes along as --hydrosweep PATH. Returns only on failure: 4 (no package
 * directory or interpreter), 2 (no memory). */
static int run_python_module(const char *cmd, const char *module, const char *const *mods, const char *need,
                             const char *hint, int argc, char **argv, int pass_exe)
{
    const char *py, *pdir = getenv("HS_PYTHONPATH"), *old = getenv("PYTHONPATH");
    char exe[PATH_MAX], inst[PATH_MAX + 64], tried[4096], *pypath, **args;
    ssize_t n;
    int i, k = 0;
    struct stat sb;
    n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) exe[n] = '\0';
    else exe[0] = '\0';
    if (!pdir || !*pdir) {
        /* an installed program's share/hydrosweep/python; the program inside a pip-installed
         * package (site-packages/hydrosweep/_bin/hydrosweep): the directory holding the
         * package; else the source tree's python/ */
        char *slash = strrchr(exe, '/');
        if (slash && (size_t)(slash - exe) + 40 < sizeof inst) {
            snprintf(inst, sizeof inst, "%.*s/../share/hydrosweep/python", (int)(slash - exe), exe);
            if (stat(inst, &sb) == 0 && S_ISDIR(sb.st_mode)) pdir = inst;
            if (!pdir || !*pdir) {
                snprintf(inst, sizeof inst, "%.*s/../../hydrosweep/__init__.py", (int)(slash - exe), exe);
                if (stat(inst, &sb) == 0 && S_ISREG(sb.st_mode)) {
                    inst[strlen(inst) - strlen("/hydrosweep/__init__.py")] = '\0';
                    pdir = inst;
                }
            }
        }
    }
    if (!pdir || !*pdir) pdir = HS_PYTHON_DIR;
    if (stat(pdir, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
        fprintf(stderr, "hydrosweep %s: error: the Python package directory %s is missing (set "
                        "HS_PYTHONPATH to the python/ directory of the hydrosweep sources)\n", cmd, pdir);
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
    /* the probes see the package as the module will */
    sprintf(pypath, "%s%s%s", pdir, old && *old ? ":" : "", old && *old ? old : "");
    setenv("PYTHONPATH", pypath, 1);
    /* matplotlib draws without a display (a terminal, CI) when none is set */
    if (!getenv("DISPLAY") && !getenv("MPLBACKEND")) setenv("MPLBACKEND", "Agg", 1);
    if (!(py = find_python(mods, tried, sizeof tried))) {
        const char *e = getenv("HS_PYTHON");
        fprintf(stderr, "hydrosweep %s: error: no python3 with %s; tried:\n%s%s, or set HS_PYTHON to an "
                        "interpreter that has them%s\n",
                cmd, need, tried, hint,
                e && *e ? " (HS_PYTHON, when set, is the only interpreter tried: unset it to try the package's, "
                          "/usr/bin/python3 and python3 on PATH)"
                        : "");
        free(pypath);
        free(args);
        return 4;
    }
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
    static const char *const mods[] = {"numpy", "h5py", "matplotlib", NULL};
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
    return run_python_module("plot", "hydrosweep.plot", mods, "numpy, h5py and matplotlib",
                             "apt-get install python3-numpy python3-h5py python3-matplotlib (Debian 12; "
                             "scripts/install-deps.sh does), or pip install 'hydrosweep[plot]' (pip install "
                             "matplotlib) in the environment of a pip-installed hydrosweep",
                             argc, argv, 1);
}

static void usage_analyze(FILE *f)
{
    fprintf(f,
            "usage: hydrosweep analyze sobol RESULTS.h5 --signal S [--stat STAT] [--resamples K]\n"
            "                          [--conf C] [--seed N] [--no-store]\n"
            "       hydrosweep analyze cosim RESULTS.h5 [--json] [--max-order P] [--floor E]\n"
            "\n"
            "cosim: seed 004 Pub. III's configuration search applied to the results of a sweep with\n"
            "method: cosim_search (docs/sweep-format.md): per test input the configuration with the\n"
            "largest stable communication step H (Table 4's form), every configuration's largest\n"
            "stable H, and the one stable under every input up to the largest H. Stable: below the\n"
            "first failed run and the first whose accumulated residual E_res grows faster than H^P\n"
            "over one increment of H (local order ln(E_k/E_k-1) / ln(H_k/H_k-1) > P, default 6;\n"
            "residuals at most E, default 1e-9 J, always pass). --json prints everything, with E_res\n"
            "and the local order of every run. Needs numpy and h5py. hydrosweep plot RESULTS --kind\n"
            "cosim draws E_res against H (Pub. III Fig. 3).\n"
            "\n"
            "sobol:\n"
            "First-order and total Sobol' indices, with bootstrap confidence intervals, of one\n"
            "statistic (--stat, default max) of a recorded signal over the swept parameters,\n"
            "computed by SALib (SALib.analyze.sobol) from the results of a sweep with\n"
            "method: saltelli (SALib's Saltelli design; docs/sweep-format.md). Prints the\n"
            "parameters ranked by their total index and stores the indices (and the second-order\n"
            "ones) in the results file under /sobol/<signal>/<stat> (docs/results-format.md).\n"
            "  --resamples K  bootstrap resamples (default 1000)   --conf C  confidence (0.95)\n"
            "  --seed N       the bootstrap's seed (default 1)       --no-store  print only\n"
            "  K: 2 .. 1000000; C: strictly between 0 and 1; N: 1 .. 2^32 - 1 (SALib takes 0\n"
            "  as no seed). A warning says when the intervals are wide against the indices: too\n"
            "  few base points N (instances = N x (2D + 2)); raise instances in the sweep.\n"
            "It runs python3 -m hydrosweep.analyze with the first python3 that imports numpy,\n"
            "h5py, pandas and SALib: $HS_PYTHON alone when it is set; else the interpreter of a\n"
            "pip-installed hydrosweep, /usr/bin/python3, python3 on PATH, in this order (one that\n"
            "fails an import is passed over; when none works, the error names each and its failed\n"
            "import). SALib is not a Debian package; with Debian's numpy, h5py, pandas, scipy:\n"
            "  /usr/bin/python3 -m venv --system-site-packages V\n"
            "  V/bin/pip install --no-deps SALib multiprocess dill\n"
            "  HS_PYTHON=V/bin/python hydrosweep analyze sobol ...\n"
            "(--no-deps: without it pip installs a newer numpy into V, which Debian's h5py cannot\n"
            "import). In a venv where hydrosweep itself was installed by pip: pip install SALib.\n"
            "Exit status: 0 done, 1 usage, 2 bad input (not a saltelli sweep, failed instances,\n"
            "an unknown signal or statistic, K, C or N out of range), 4 no python3 with those\n"
            "packages.\n");
}

int hs_cli_analyze(int argc, char **argv)
{
    static const char *const mods[] = {"numpy", "h5py", "pandas", "SALib", NULL};
    int i;
    for (i = 1; i < argc; ++i)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage_analyze(stdout);
            return 0;
        }
    if (argc < 3 || (strcmp(argv[1], "sobol") != 0 && strcmp(argv[1], "cosim") != 0)) {
        usage_analyze(stderr);
        return 1;
    }
    if (!strcmp(argv[1], "cosim")) {
        static const char *const cmods[] = {"numpy", "h5py", NULL};
        return run_python_module("analyze", "hydrosweep.analyze", cmods, "numpy and h5py",
                                 "apt-get install python3-numpy python3-h5py (Debian 12; scripts/install-deps.sh "
                                 "does), or pip install hydrosweep in a venv",
                                 argc, argv, 0);
    }
    return run_python_module("analyze", "hydrosweep.analyze", mods, "numpy, h5py, pandas and SALib",
                             "SALib is not packaged by Debian 12: /usr/bin/python3 -m venv --system-site-packages V "
                             "&& V/bin/pip install --no-deps SALib multiprocess dill, then HS_PYTHON=V/bin/python "
                             "(--no-deps: a plain pip install SALib there installs a newer numpy that Debian's "
                             "h5py cannot import)",
                             argc, argv, 0);
}
