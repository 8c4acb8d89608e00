/* cli_circuit.c -- `hydrosweep circuit MODEL`: the model's hydraulic circuit as a Graphviz
 * graph (DOT; SVG or PNG through Graphviz's dot when it is installed), so that a user can check
 * the wiring of a circuit without sketching it: every node (volume or source) with its
 * pressure, every element between nodes (throttles, 4/3 valves with their ports, cylinders with
 * their chambers and bodies, the components of hydraulics.components with their type and
 * main setting), a load-sensing line dashed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "base/fileio.h"
#include "hs/model_file.h"
#include "model/model_names.h"
#include "model/params.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: hydrosweep circuit MODEL [--set NAME=VALUE ...] [-o out.dot|out.svg|out.png]\n"
            "\n"
            "Draws the hydraulic circuit of MODEL (a YAML model file) as a Graphviz graph:\n"
            "  nodes     volumes (ellipses: name, V, p0) and sources (boxes: name, p)\n"
            "  elements  throttles (edges from -> to), 4/3 valves (their ports P, T, A, B), cylinders\n"
            "            (their piston and rod chambers, the bodies they push), and the components\n"
            "            of hydraulics.components (type and main setting; a pump's flow runs from\n"
            "            inlet to outlet; a load-sensing line is dashed)\n"
            "  -o FILE   .dot: the graph's text; .svg or .png: rendered by Graphviz's `dot`\n"
            "            (Debian: apt-get install graphviz); default: the DOT text on standard output\n"
            "Exit status: 0 written, 1 usage, 2 bad model, parameter or output path, 4 no `dot`\n"
            "for an .svg or .png.\n");
}

/* A node's DOT id: v<index> for volumes, s<index> for sources. */
static const char *node_id(const hs_model *m, int k, char *buf, size_t n)
{
    snprintf(buf, n, "%s%d", k < m->nvol ? "v" : "s", k < m->nvol ? k : k - m->nvol);
    return buf;
}

static const char *node_name(const hs_model_desc *d, int k)
{
    return k < d->model.nvol ? d->vol_name[k] : d->src_name[k - d->model.nvol];
}

/* The circuit of d in DOT into f. */
static void write_dot(const hs_model_desc *d, FILE *f)
{
    static const char *const port[4] = {"P", "T", "A", "B"};
    const hs_model *m = &d->model;
    char a[16], b[16];
    int i, k;
    fprintf(f, "digraph \"%s\" {\n", d->name);
    fprintf(f, "  graph [rankdir=LR, fontname=\"Helvetica\", label=\"hydraulic circuit of %s\", labelloc=t];\n",
            d->name);
    fprintf(f, "  node [fontname=\"Helvetica\", fontsize=10];\n  edge [fontname=\"Helvetica\", fontsize=9];\n");
    for (i = 0; i < m->nsrc; ++i)
        fprintf(f, "  s%d [shape=box, style=bold, label=\"%s\\nsource %.4g bar\"];\n", i, d->src_name[i],
                m->src_p[i] / 1e5);
    for (i = 0; i < m->nvol; ++i)
        if (hs_vol_hose(m, i) < 0) /* a hose's internal volumes are drawn as the hose */
            fprintf(f, "  v%d [shape=ellipse, label=\"%s\\nV %.4g L, p0 %.4g bar%s\"];\n", i, d->vol_name[i],
                m->vol_V[i] * 1e3, m->vol_p0[i] / 1e5, m->vol_cyl[i] >= 0 ? (m->vol_side[i] ? "\\nrod chamber" : "\\npiston chamber") : "");
    for (i = 0; i < m->nthr; ++i)
        fprintf(f, "  %s -> %s [label=\"throttle %s\\nCv %.3g\", dir=both, arrowtail=none];\n",
                node_id(m, m->thr_a[i], a, sizeof a), node_id(m, m->thr_b[i], b, sizeof b), d->thr_name[i],
                m->thr_Cv[i]);
    for (i = 0; i < m->ndcv; ++i) {
        const int nd[4] = {m->dcv_P[i], m->dcv_T[i], m->dcv_A[i], m->dcv_B[i]};
        if (m->dcv_kind[i] != HS_DCV_DIRECTIONAL) { /* a seat valve: P, A (and T) */
            static const int ord[3] = {0, 2, 1}; /* P, A, T of nd and port */
            int three = m->dcv_kind[i] == HS_DCV_SEAT_3_2;
            fprintf(f, "  d%d [shape=record, label=\"{%s seat valve %s|{<P>P|<A>A%s}}\"];\n", i, three ? "3/2" : "2/2",
                    d->dcv_name[i], three ? "|<T>T" : "");
            for (k = 0; k < 2 + three; ++k)
                fprintf(f, "  %s -> d%d:%s [dir=none, label=\"%s\"];\n", node_id(m, nd[ord[k]], a, sizeof a), i,
                        port[ord[k]], port[ord[k]]);
            continue;
        }
        if (m->dcv_dpcomp[i] > 0.0)
            fprintf(f, "  d%d [shape=record, label=\"{4/3 valve %s, compensated %.4g bar|{<P>P|<T>T|<A>A|<B>B}}\"];\n",
                    i, d->dcv_name[i], m->dcv_dpcomp[i] / 1e5);
        else
            fprintf(f, "  d%d [shape=record, label=\"{4/3 valve %s|{<P>P|<T>T|<A>A|<B>B}}\"];\n", i, d->dcv_name[i]);
        for (k = 0; k < 4; ++k)
            fprintf(f, "  %s -> d%d:%s [dir=none, label=\"%s\"];\n", node_id(m, nd[k], a, sizeof a), i, port[k],
                    port[k]);
    }
    for (i = 0; i < m->ncyl; ++i) {
        int ba = m->cyl_body_a[i], bb = m->cyl_body_b[i];
        fprintf(f, "  c%d [shape=record, style=filled, fillcolor=\"#e8eef7\", label=\"{cylinder %s|%.4g / %.4g mm, "
                   "stroke %.4g m|{<p>piston|<r>rod}}|%s - %s\"];\n",
                i, d->cyl_name[i], m->cyl_d_piston[i] * 1e3, m->cyl_d_rod[i] * 1e3, m->cyl_stroke[i],
                ba >= 0 ? d->body_name[ba] : "ground", bb >= 0 ? d->body_name[bb] : "ground");
        fprintf(f, "  v%d -> c%d:p [dir=none];\n  v%d -> c%d:r [dir=none];\n", m->cyl_vol_p[i], i, m->cyl_vol_r[i], i);
    }
    for (i = 0; i < m->ncmp; ++i) {
        const double *par = m->cmp_par[i];
        int ty = m->cmp_type[i];
        char set[96];
        const char *shape = "box";
        switch (ty) {
        case HS_CMP_RELIEF:
            snprintf(set, sizeof set, "cracks at %.4g bar%s", par[HS_CP_RV_PCR] / 1e5,
                     m->cmp_fs0[i] >= 0 ? ", poppet" : "");
            shape = "octagon";
            break;
        case HS_CMP_CHECK:
            snprintf(set, sizeof set, "cracks at %.4g bar", par[HS_CP_CK_PCR] / 1e5);
            shape = "invtriangle";
            break;
        case HS_CMP_FLOW_CONTROL:
            snprintf(set, sizeof set, "%.4g L/min from %.4g bar", par[HS_CP_FC_QSET] * 6e4, par[HS_CP_FC_DPC] / 1e5);
            shape = "diamond";
            break;
        case HS_CMP_ACCUMULATOR:
            snprintf(set, sizeof set, "%.4g L, precharge %.4g bar", par[HS_CP_AC_V0] * 1e3, par[HS_CP_AC_PPRE] / 1e5);
            shape = "cylinder";
            break;
        case HS_CMP_MOTOR:
            snprintf(set, sizeof set, "%.4g cm3/rev, ratio %.4g, turns %s", par[HS_CP_MO_D] * 1e6,
                     par[HS_CP_MO_RATIO], d->body_name[m->cmp_ref[i]]);
            shape = "circle";
            break;
        case HS_CMP_HOSE:
            snprintf(set, sizeof set, "%.4g m, %.4g mm, %d segment%s (%.4g m/s waves)", par[HS_CP_HO_L],
                     par[HS_CP_HO_D] * 1e3, m->cmp_dyn[i], m->cmp_dyn[i] > 1 ? "s" : "",
                     hs_hose_wave_speed(par, m->B_oil, m->rho));
            shape = "cds";
            break;
        case HS_CMP_COUNTERBALANCE:
            snprintf(set, sizeof set, "set %.4g bar, pilot %.4g:1", par[HS_CP_CB_PSET] / 1e5, par[HS_CP_CB_RATIO]);
            shape = "house";
            break;
        case HS_CMP_PILOT_CHECK:
            snprintf(set, sizeof set, "pilot %.4g:1", par[HS_CP_PO_RATIO]);
            shape = "invhouse";
            break;
        case HS_CMP_REDUCING:
            snprintf(set, sizeof set, "reduces to %.4g bar", par[HS_CP_PR_PSET] / 1e5);
            break;
        case HS_CMP_SEQUENCE:
            snprintf(set, sizeof set, "opens at %.4g bar", par[HS_CP_SQ_PSET] / 1e5);
            break;
        case HS_CMP_SHUTTLE:
            snprintf(set, sizeof set, "the higher input");
            shape = "triangle";
            break;
        default:
            snprintf(set, sizeof set, "%.4g cm3/rev, %.4g L/min%s", par[HS_CP_PU_D] * 1e6,
                     hs_pump_qgeo(par) * 6e4,
                     ty == HS_CMP_PUMP_PC ? ", cut-off" : ty == HS_CMP_PUMP_LS ? ", load sensing" : "");
            shape = "oval, peripheries=2";
            if (ty == HS_CMP_PUMP_PC)
                snprintf(set + strlen(set), sizeof set - strlen(set), " %.4g bar", par[HS_CP_PU_PREF] / 1e5);
            break;
        }
        fprintf(f, "  k%d [shape=%s, style=filled, fillcolor=\"#f4efe1\", label=\"%s\\n%s\\n%s\"];\n", i, shape,
                d->cmp_name[i], hs_cmp_type_names[ty], set);
        if (hs_cmp_ports(ty) == 1) {
            fprintf(f, "  v%d -> k%d [dir=none];\n", m->cmp_a[i], i);
            continue;
        }
        fprintf(f, "  %s -> k%d [label=\"%s\"];\n  k%d -> %s;\n", node_id(m, m->cmp_a[i], a, sizeof a), i,
                hs_cmp_is_pump(ty) ? "inlet" : "", i,
                node_id(m, m->cmp_b[i], b, sizeof b));
        if (hs_cmp_ports(ty) == HS_PORTS_INPUTS)
            fprintf(f, "  %s -> k%d;\n", node_id(m, m->cmp_ref[i], a, sizeof a), i);
        else if (hs_cmp_ports(ty) >= HS_PORTS_PILOT && m->cmp_ref[i] >= 0)
            fprintf(f, "  %s -> k%d [style=dashed, label=\"pilot\"];\n", node_id(m, m->cmp_ref[i], a, sizeof a), i);
        if (ty == HS_CMP_PUMP_LS && m->cmp_lsmask[i] == 0)
            fprintf(f, "  %s -> k%d [style=dashed, label=\"load sensing (%s)\"];\n",
                    node_id(m, m->cmp_ref[i], a, sizeof a), i, node_name(d, m->cmp_ref[i]));
        for (k = 0; ty == HS_CMP_PUMP_LS && k < m->ndcv; ++k) /* sensed sections: their shuttle network */
            if ((m->cmp_lsmask[i] >> k) & 1)
                fprintf(f, "  d%d -> k%d [style=dashed, label=\"load sensing\"];\n", k, i);
    }
    fprintf(f, "}\n");
}

/* How long dot may take (HS_DOT_TIMEOUT_S, default 60 s): a hung dot is killed, not waited
 * for forever. */
static double dot_timeout_s(void)
{
    const char *s = getenv("HS_DOT_TIMEOUT_S");
    double v = s && *s ? atof(s) : 60.0;
    return v > 0.0 ? v : 60.0;
}

/* dot renders the DOT text (on its standard input, through a pipe) into o->f (its standard
 * output, a file this process opened by the output rule). 0 done, 2 failed, 3 killed after
 * dot_timeout_s. */
static int render(const char *dot, int fmt, const hs_model_desc *d, hs_output *o)
{
    int pfd[2], st = 0;
    double left = dot_timeout_s();
    pid_t pid, got = 0;
    fflush(o->f);
    if (pipe(pfd) != 0 || (pid = fork()) < 0) return 2;
    if (pid == 0) {
        dup2(pfd[0], 0);
        dup2(fileno(o->f), 1);
        close(pfd[0]);
        close(pfd[1]);
        execl(dot, "dot", fmt == 1 ? "-Tsvg" : "-Tpng", (char *)NULL);
        _exit(127);
    }
    close(pfd[0]);
    {
        /* (the text is a few KiB: it fits the pipe even if dot never reads it) */
        FILE *w = fdopen(pfd[1], "w");
        if (w) {
            write_dot(d, w);
            fclose(w);
        } else {
            close(pfd[1]);
        }
    }
    while ((got = waitpid(pid, &st, WNOHANG)) == 0 && left > 0.0) {
        struct timespec ts = {0, 20000000L};
        nanosleep(&ts, NULL);
        left -= 0.02;
    }
    if (got == 0) {
        kill(pid, SIGKILL);
        waitpid(pid, &st, 0);
        return 3;
    }
    return got == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : 2;
}

/* The first executable dot on PATH into buf; 0 if found. */
static int find_dot(char *buf, size_t n)
{
    const char *path = getenv("PATH");
    char dir[1024];
    if (!path) path = "/usr/bin:/bin";
    while (*path) {
        size_t len = strcspn(path, ":");
        if (len > 0 && len < sizeof dir) {
            memcpy(dir, path, len);
            dir[len] = '\0';
            if ((size_t)snprintf(buf, n, "%s/dot", dir) < n && access(buf, X_OK) == 0) return 0;
        }
        path += len;
        if (*path == ':') ++path;
    }
    return -1;
}

int hs_cli_circuit(int argc, char **argv)
{
    const char *path = NULL, *out = NULL;
    hs_model_desc *d;
    hs_error err;
    int i, rc, fmt = 0; /* 0 DOT, 1 svg, 2 png */
    for (i = 1; i < argc; ++i) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        }
        if (!strcmp(a, "-o")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "hydrosweep circuit: option -o needs a file name\n");
                return 1;
            }
            out = argv[++i];
        } else if (!strcmp(a, "--set")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "hydrosweep circuit: option --set needs NAME=VALUE\n");
                return 1;
            }
            ++i;
        } else if (hs_cli_operand("circuit", "model", a, &path)) {
            return 1;
        }
    }
    if (!path) {
        fprintf(stderr, "hydrosweep circuit: no model file given\n");
        usage(stderr);
        return 1;
    }
    if (out) {
        size_t n = strlen(out);
        if (n > 4 && !strcmp(out + n - 4, ".svg"))
            fmt = 1;
        else if (n > 4 && !strcmp(out + n - 4, ".png"))
            fmt = 2;
        else if (!(n > 4 && !strcmp(out + n - 4, ".dot")) && !(n > 3 && !strcmp(out + n - 3, ".gv"))) {
            fprintf(stderr, "hydrosweep circuit: -o %s: the output must end in .dot, .gv, .svg or .png\n", out);
            return 1;
        }
    }
    d = (hs_model_desc *)calloc(1, sizeof *d);
    if (!d) {
        fprintf(stderr, "hydrosweep circuit: out of memory\n");
        return 2;
    }
    rc = hs_model_load(path, d, &err);
    for (i = 1; rc == HS_OK && i < argc; ++i)
        if (!strcmp(argv[i], "--set")) rc = hs_param_set_string(d, argv[++i], &err);
    if (rc == HS_OK && d->tree) {
        rc = hs_error_set(&err, HS_ERR_VALUE, path, 0, 0, "integrator.formulation",
                          "a riccati model (an open tree) has no hydraulic circuit");
    }
    if (rc == HS_OK && !hs_model_has_hydraulics(&d->model))
        rc = hs_error_set(&err, HS_ERR_VALUE, path, 0, 0, "hydraulics", "the model has no hydraulic circuit");
    if (rc != HS_OK) {
        hs_cli_error("circuit", &err);
        rc = 2;
    } else if (!out) {
        write_dot(d, stdout);
        rc = 0;
    } else if (fmt == 0) {
        hs_output o;
        rc = 2;
        if (!hs_output_begin(&o, out, "circuit output (-o)", &err)) {
            write_dot(d, o.f);
            if (hs_output_commit(&o, 0, &err) == HS_OK) rc = 0;
        }
        if (rc) hs_cli_error("circuit", &err);
    } else {
        char dot[1100];
        hs_output o;
        if (find_dot(dot, sizeof dot)) {
            fprintf(stderr, "hydrosweep circuit: Graphviz's dot is not on PATH: an .svg or .png needs it (Debian: "
                            "apt-get install graphviz); -o FILE.dot writes the graph's text\n");
            rc = 4;
        } else if (hs_output_begin(&o, out, "circuit output (-o)", &err)) {
            hs_cli_error("circuit", &err);
            rc = 2;
        } else if ((rc = render(dot, fmt, d, &o)) == 0 && hs_output_commit(&o, 0, &err) != HS_OK) {
            hs_cli_error("circuit", &err);
            rc = 2;
        } else if (rc) {
            hs_output_abandon(&o); /* an existing file at out stays as it was */
            fprintf(stderr, "hydrosweep circuit: %s %s rendering %s (nothing written)\n", dot,
                    rc == 3 ? "did not finish" : "failed", out);
            rc = 2;
        }
    }
    hs_model_desc_free(d);
    free(d);
    return rc;
}
