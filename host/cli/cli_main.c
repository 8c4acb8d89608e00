/* cli_main.c -- `hydrosweep <subcommand> ...`: dispatch and top-level help. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: hydrosweep <command> [options]\n"
            "\n"
            "commands:\n"
            "  simulate MODEL   integrate one instance of a model, write a CSV trajectory\n"
            "  info MODEL       list sizes and every named parameter with value and unit\n"
            "  run SWEEP        run every instance of a sweep file, write HDF5 + CSV results\n"
            "  validate SWEEP   compare a sample of instances with the reference backend\n"
            "  merge OUT PIECES join the results of --shard runs into one file\n"
            "  kernel FILE      GPU kernel resources (registers, stack, spills) of a model, no GPU needed\n"
            "  plot RESULTS     fan chart, histogram, scatter, status counts or stability map of a results\n"
            "                   file, or the trajectories of a simulate CSV (PNG)\n"
            "  linearize MODEL  Jacobian and eigenvalues about the static equilibrium or a state (seed 001)\n"
            "  circuit MODEL    the model's hydraulic circuit as a Graphviz graph (DOT, SVG or PNG)\n"
            "  analyze sobol R  Sobol' sensitivity indices (SALib) of a saltelli sweep's results\n"
            "  analyze cosim R  each co-simulation configuration's largest stable step H (Pub. III Table 4)\n"
            "\n"
            "hydrosweep <command> --help shows the options of a command.\n"
            "hydrosweep --version prints the version and commit.\n");
}

/* The exit status of a command whose standard output may not have been written: a report
 * or CSV lost to a full disk (or a closed pipe) is an error, never a silent success. */
static int finish(int rc)
{
    int e;
    errno = 0;
    if (fflush(stdout) == 0 && !ferror(stdout)) return rc;
    if (rc) return rc; /* the command has failed and said why */
    e = errno;
    fprintf(stderr, "hydrosweep: error: cannot write standard output: %s\n",
            e ? strerror(e) : "write error");
    return rc ? rc : 2;
}

static int dispatch(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 1;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("hydrosweep %s (commit %s)\n", HS_VERSION, HS_GIT_COMMIT);
        /* what this build can do: the GPU backends, and mpirun (`hydrosweep run` over MPI ranks) */
#ifdef HS_HAVE_CUDA
        printf("cuda: yes\n");
#else
        printf("cuda: no\n");
#endif
#ifdef HS_HAVE_MPI
        printf("mpi: yes\n");
#else
        printf("mpi: no\n");
#endif
        return 0;
    }
    if (!strcmp(argv[1], "simulate")) return hs_cli_simulate(argc - 1, argv + 1);
    if (!strcmp(argv[1], "info")) return hs_cli_info(argc - 1, argv + 1);
    if (!strcmp(argv[1], "run")) return hs_cli_run(argc - 1, argv + 1);
    if (!strcmp(argv[1], "validate")) return hs_cli_validate(argc - 1, argv + 1);
    if (!strcmp(argv[1], "merge")) return hs_cli_merge(argc - 1, argv + 1);
    if (!strcmp(argv[1], "kernel")) return hs_cli_kernel(argc - 1, argv + 1);
    if (!strcmp(argv[1], "plot")) return hs_cli_plot(argc - 1, argv + 1);
    if (!strcmp(argv[1], "linearize")) return hs_cli_linearize(argc - 1, argv + 1);
    if (!strcmp(argv[1], "analyze")) return hs_cli_analyze(argc - 1, argv + 1);
    if (!strcmp(argv[1], "circuit")) return hs_cli_circuit(argc - 1, argv + 1);
    fprintf(stderr, "hydrosweep: unknown command '%s'\n\n", argv[1]);
    usage(stderr);
    return 1;
}

int main(int argc, char **argv)
{
    return finish(dispatch(argc, argv));
}
