/* cli_kernel.c -- `hydrosweep kernel FILE [--arch sm_XY] [--json] [--set NAME=VALUE ...]`:
 * the GPU resources of the engine specialised to a model (and a sweep's varying parameters
 * and outputs), as ptxas reports them through NVRTC. No GPU is needed: this is how the kernel
 * figures are checked in CI. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/backend_gpu.h"
#include "cli/cli.h"
#include "hs/model_file.h"
#include "hs/run.h"
#include "hs/sweep.h"
#include "hs/tree.h"
#include "engine/kernel_spec.h"
#include "tree/tree_params.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: hydrosweep kernel FILE [--arch sm_XY] [--json] [--set NAME=VALUE ...] [--source]\n"
            "\n"
            "Compiles, with NVRTC and without running anything (no GPU needed), the GPU kernel\n"
            "of the engine specialised to FILE's model structure (the GPU engine of\n"
            "`hydrosweep run -b gpu`), and prints what ptxas reports: registers per thread,\n"
            "stack frame and spill bytes.\n"
            "FILE is a model file, or a sweep file (then its model, the parameters it varies and\n"
            "the signals it records shape the kernel, as in a run of it). A sweep of an integer\n"
            "that shapes the model (a friction law) runs one kernel per structure: the kernel of\n"
            "the model's own structure is reported, with a note naming what was left out.\n"
            "  --arch sm_XY       target architecture (default sm_90, the H100); one of those\n"
            "                     this NVRTC lists (checked before compiling)\n"
            "  --json             one JSON object: {\"specialised\": {...}, ...}, the kernel with\n"
            "                     registers, stack_bytes, spill_store_bytes, spill_load_bytes,\n"
            "                     cubin_bytes, compile_s; \"structural\": the swept members left out\n"
            "  --set NAME=VALUE   override a model parameter first (as in `hydrosweep info`)\n"
            "  --source           print the generated source of the specialised engine instead\n"
            "                     (it includes the engine headers of kernels/)\n"
            "A riccati model (integrator.formulation: riccati, an open tree; or a sweep of one) runs\n"
            "one kernel for every tree, hs_tree_kernel (kernels/hs_tree_kernel.cuh): its figures\n"
            "are printed (\"tree\" in --json), with the tree's bodies and\n"
            "coordinates and the device memory of one instance: its block in global memory (state,\n"
            "RK4 stages, Riccati work; with a private copy of the bodies' numbers when a sweep varies\n"
            "a mass, length or centre of mass, and without), and its outputs.\n"
            "Exit status: 0 success, 1 usage, 2 bad input, 3 compilation failed (or no CUDA).\n");
}

/* 1 if the YAML file at path has a top-level `model:` key (a sweep file). */
static int is_sweep_file(const char *path)
{
    FILE *f = fopen(path, "r");
    char line[512];
    int sweep = 0;
    if (!f) return 0;
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, "model:", 6)) {
            sweep = 1;
            break;
        }
    fclose(f);
    return sweep;
}

static void json_fig(const char *key, const hs_kernel_fig *k, int last)
{
    printf("  \"%s\": {\"registers\": %d, \"stack_bytes\": %ld, \"spill_store_bytes\": %ld, "
           "\"spill_load_bytes\": %ld, \"cubin_bytes\": %ld, \"compile_s\": %.2f}%s\n",
           key, k->registers, k->stack_bytes, k->spill_store_bytes, k->spill_load_bytes, k->cubin_bytes,
           k->compile_s, last ? "" : ",");
}

static void json_str(const char *s)
{
    putchar('"');
    for (; *s; ++s) {
        if (*s == '"' || *s == '\\') printf("\\%c", *s);
        else if ((unsigned char)*s < 0x20) printf("\\u%04x", (unsigned char)*s);
        else putchar(*s);
    }
    putchar('"');
}

/* A riccati model's kernel (the tree kernel, one for every tree): its figures for arch and
 * what one instance of this job takes in device memory. Returns the exit status. */
static int kernel_tree(const hs_model_desc *d, const hs_sweep *sw, const hs_override_spec *ov, const char *arch,
                       int json, int source)
{
    const hs_tree_model *tm = d->tree;
    hs_tree_ens e;
    hs_kernel_fig kf;
    hs_error err;
    long nsteps, ntime, b_job, b_shared, b_own;
    size_t b_out;
    memset(&kf, 0, sizeof kf);
    if (source) {
        fprintf(stderr,
                "hydrosweep kernel: cannot be specialised: model %s uses integrator.formulation: riccati, whose one "
                "kernel (hs_tree_kernel, kernels/hs_tree_kernel.cuh) runs every tree\n",
                d->name);
        return 3;
    }
    if (hs_tree_ens_of(tm, d, ov, &sw->out, d->model.t_end, d->model.dt, &e)) {
        hs_error_set(&err, HS_ERR_ARG, sw->path, 0, 0, "parameters", "a parameter is not one of model %s's", d->name);
        hs_cli_error("kernel", &err);
        return 2;
    }
    /* the instance's block as this job has it, and with and without a private copy of the
     * bodies' numbers (what a sweep of a mass, length or centre of mass adds) */
    b_job = 8 * hs_tree_inst_doubles(&e);
    {
        hs_tree_ens x = e;
        x.own_par = 0;
        b_shared = 8 * hs_tree_inst_doubles(&x);
        x.own_par = 1;
        b_own = 8 * hs_tree_inst_doubles(&x);
    }
    nsteps = hs_instance_steps(e.t_end, e.dt);
    ntime = hs_traj_count(nsteps, sw->out.traj_every);
    b_out = hs_gpu_tree_out_bytes(&sw->out, ntime, e.nov);
    if (hs_kernel_figures_tree(arch, &kf, &err)) {
        hs_cli_error("kernel", &err);
        return 3;
    }
    if (json) {
        printf("{\n  \"model\": ");
        json_str(d->name);
        printf(",\n  \"arch\": \"%s\",\n", arch);
        printf("  \"formulation\": \"riccati\",\n  \"bodies\": %d,\n  \"nq\": %d,\n  \"nv\": %d,\n", e.base.nbody,
               e.base.nq, e.base.nv);
        printf("  \"specialised\": null,\n"
               "  \"why\": \"a riccati model runs one kernel for every tree: hs_tree_kernel\",\n");
        json_fig("tree", &kf, 0);
        printf("  \"bytes_per_instance\": %ld,\n  \"bytes_per_instance_shared\": %ld,\n"
               "  \"bytes_per_instance_own\": %ld,\n  \"own_par\": %s,\n  \"forces\": %s,\n"
               "  \"output_bytes_per_instance\": %zu\n}\n",
               b_job, b_shared, b_own, e.own_par ? "true" : "false", e.forces ? "true" : "false", b_out);
    } else {
        printf("model:        %s (%s)\n", d->name, d->path);
        printf("architecture: %s\n", arch);
        printf("formulation:  riccati (an open tree): %d bodies (%d revolute, %d prismatic, %d ball joints), %d "
               "position and %d velocity coordinates (%d degrees of freedom)\n",
               e.base.nbody, tm->njoint[0], tm->njoint[1], tm->njoint[2], e.base.nq, e.base.nv, e.base.nv);
        printf("%-12s  %9s  %11s  %11s  %11s  %11s  %9s\n", "kernel", "registers", "stack (B)", "spill st (B)",
               "spill ld (B)", "cubin (B)", "compile");
        printf("%-12s  %9d  %11ld  %11ld  %11ld  %11ld  %7.1f s\n", "tree", kf.registers, kf.stack_bytes,
               kf.spill_store_bytes, kf.spill_load_bytes, kf.cubin_bytes, kf.compile_s);
        printf("bytes per instance in global memory (its block: state, RK4 stages, Riccati work%s):\n",
               e.forces ? ", joint loads" : "");
        printf("  %-32s %10ld B\n", "bodies' numbers shared:", b_shared);
        printf("  %-32s %10ld B  (a sweep of a mass, length or centre of mass)\n", "own copy of the bodies' numbers:",
               b_own);
        printf("  %-32s %10ld B  (%s)\n", "this job:", b_job, e.own_par ? "own copy" : "shared");
        printf("%-34s %10zu B  (%d signals x %d statistics, %ld trajectory samples of %d signals, %d sampled "
               "values)\n",
               "output bytes per instance:", b_out, sw->out.nsig, HS_NSTAT, ntime, sw->out.ntraj, e.nov);
    }
    return 0;
}

int hs_cli_kernel(int argc, char **argv)
{
    const char *path = NULL, *arch = "sm_90";
    hs_model_desc *d = NULL;
    hs_sweep *sw = NULL;
    hs_override_spec ov;
    hs_override_spec own;
    hs_kernel_fig ks = {0};
    hs_error err;
    char why[512], abspath[PATH_MAX], text[PATH_MAX + 64];
    int i, json = 0, source = 0, rc, ret = 0;
    for (i = 1; i < argc; ++i) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "--json")) {
            json = 1;
        } else if (!strcmp(a, "--source")) {
            source = 1;
        } else if (!strcmp(a, "--arch") || !strcmp(a, "--set")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "hydrosweep kernel: option %s needs a value\n", a);
                return 1;
            }
            if (!strcmp(a, "--arch")) arch = argv[i + 1];
            if (!strcmp(a, "--set") && hs_cli_set_usage("kernel", argv[i + 1])) return 1;
            ++i;
        } else if (hs_cli_operand("kernel", "file", a, &path)) {
            return 1;
        }
    }
    if (!path) {
        fprintf(stderr, "hydrosweep kernel: no model or sweep file given\n");
        usage(stderr);
        return 1;
    }
    {
        char why[600];
        if (!hs_gpu_arch_supported(arch, why, sizeof why)) {
            fprintf(stderr, "hydrosweep kernel: --arch '%.40s': not an architecture this NVRTC compiles for: %s\n",
                    arch, why);
            return 1;
        }
    }
    d = (hs_model_desc *)calloc(1, sizeof *d);
    sw = (hs_sweep *)calloc(1, sizeof *sw);
    if (!d || !sw) {
        fprintf(stderr, "hydrosweep kernel: out of memory\n");
        free(d);
        free(sw);
        return 2;
    }
    /* a model alone: a sweep of one instance over it, for the default outputs */
    if (is_sweep_file(path)) {
        rc = hs_sweep_load(path, sw, d, &err);
    } else if (!realpath(path, abspath)) {
        rc = hs_error_set(&err, HS_ERR_IO, path, 0, 0, "", "cannot read the file");
    } else {
        snprintf(text, sizeof text, "model: \"%s\"\ninstances: 1\n", abspath);
        rc = hs_sweep_load_text(text, path, sw, d, &err);
    }
    for (i = 1; !rc && i < argc; ++i)
        if (!strcmp(argv[i], "--set")) rc = hs_param_set_string(d, argv[++i], &err);
        else if (!strcmp(argv[i], "--arch")) ++i;
    if (!rc) rc = hs_sweep_apply_simulation(sw, d, &err);
    if (rc) {
        hs_cli_error("kernel", &err);
        ret = 2;
        goto done;
    }
    hs_sweep_overrides(sw, d, &ov);
    if (d->tree) { /* a riccati model: the tree kernel */
        ret = kernel_tree(d, sw, &ov, arch, json, source);
        goto done;
    }
    if (source) {
        hs_spec sp;
        (void)hs_spec_drop_structural(&ov, &own, why, sizeof why);
        if (why[0]) fprintf(stderr, "hydrosweep kernel: the model's own structure (a run builds one per value of %s)\n", why);
        if ((rc = hs_spec_build(&d->model, &own, &sw->out, &sp, &err))) {
            hs_cli_error("kernel", &err);
            ret = 2;
        } else if (!sp.source) {
            fprintf(stderr, "hydrosweep kernel: cannot be specialised: %s\n", sp.why);
            ret = 3;
        } else {
            fputs(sp.source, stdout);
            hs_spec_free(&sp);
        }
        goto done;
    }
    rc = hs_kernel_figures(&d->model, &ov, &sw->out, arch, &ks, why, sizeof why, &err);
    if (rc) {
        hs_cli_error("kernel", &err);
        ret = 3;
        goto done;
    }
    if (json) {
        printf("{\n  \"model\": ");
        json_str(d->name);
        printf(",\n  \"arch\": \"%s\",\n  \"structural\": ", arch);
        json_str(why);
        printf(",\n");
        json_fig("specialised", &ks, 1);
        printf("}\n");
    } else {
        printf("model:        %s (%s)\n", d->name, d->path);
        printf("architecture: %s\n", arch);
        if (why[0]) printf("structure:    the model's own (the sweep varies %s: a run builds one kernel per value)\n", why);
        printf("%-12s  %9s  %11s  %11s  %11s  %11s  %9s\n", "kernel", "registers", "stack (B)", "spill st (B)",
               "spill ld (B)", "cubin (B)", "compile");
        printf("%-12s  %9d  %11ld  %11ld  %11ld  %11ld  %7.1f s\n", "specialised", ks.registers, ks.stack_bytes,
               ks.spill_store_bytes, ks.spill_load_bytes, ks.cubin_bytes, ks.compile_s);
    }
done:
    hs_sweep_free(sw);
    hs_model_desc_free(d);
    free(sw);
    free(d);
    return ret;
}
