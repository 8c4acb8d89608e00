/* cli_info.c -- `hydrosweep info MODEL [--set NAME=VALUE ...]`: sizes and the table of named
 * parameters (the names sweep files use), after the overrides. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_tree.h"
#include "tree/tree_params.h"
#include "hs/tree.h"
#include "hs/model_file.h"
#include "hs/sweep.h"
#include "model/model_names.h"
#include "model/params.h"
#include "engine/simulate.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: hydrosweep info MODEL [--set NAME=VALUE ...] [--columns]\n"
            "\n"
            "Loads and checks MODEL (a YAML model file) and prints its name, source, sizes and\n"
            "every named parameter as NAME VALUE UNIT (SI units; the names are those accepted\n"
            "by --set and by sweep files).\n"
            "  --set NAME=VALUE  override a parameter first; VALUE may carry a unit suffix,\n"
            "                    e.g. --set joint.j1.z0=-30deg --set body.link1.mass=2kg\n"
            "                    (models/double_pendulum.yaml);\n"
            "                    an enum parameter takes a name, e.g.\n"
            "                    --set cylinder.lift.friction.model=lugre\n"
            "  --columns         print only the columns of `hydrosweep simulate`'s CSV (also the\n"
            "                    signal names sweeps record), one per line: NAME UNIT (SI)\n"
            "Exit status: 0 success, 1 usage, 2 bad model or parameter.\n");
}


static unsigned int info_dep; /* the double-step partition at t = 0 (print_formulation) */
static int info_dep_ok;

/* The number of dependent coordinates of the partition print_formulation found. */
static int info_ndep(const hs_model *m)
{
    int i, k = 0;
    for (i = 0; i < m->nz; ++i) k += info_dep_ok && ((info_dep >> i) & 1u);
    return k;
}

/* The formulation line: for double_step, the partition at t = 0 (hs_init: the full-pivot
 * elimination on Phi_z at the initial configuration; seed 000 Sect. 2.3). */
static void print_formulation(const hs_model_desc *d)
{
    const hs_model *m = &d->model;
    hs_state *s;
    hs_work *w;
    char a[256], b[256];
    int i, k = 0;
    info_dep_ok = 0;
    if (m->formulation != HS_FORM_DOUBLE_STEP || m->ncon == 0) {
        printf("formulation:      %s%s\n", hs_formulation_names[m->formulation == HS_FORM_DOUBLE_STEP],
               m->ncon > 0 ? " (index-3 augmented Lagrangian with projections: every coordinate a Newton unknown)"
                           : "");
        return;
    }
    s = (hs_state *)calloc(1, sizeof *s);
    w = (hs_work *)calloc(1, sizeof *w);
    if (!s || !w || hs_init(m, s, w)) {
        printf("formulation:      double_step (no partition: the initial state failed: %s)\n",
               s && w ? hs_status_string(s->status) : "out of memory");
        free(s);
        free(w);
        return;
    }
    info_dep = s->ds_dep;
    info_dep_ok = 1;
    hs_independent_names(d, s->ds_dep, a, sizeof a);
    b[0] = '\0';
    for (i = 0; i < m->nz; ++i)
        if ((s->ds_dep >> i) & 1u) {
            int n = snprintf(b + k, sizeof b - (size_t)k, "%s%s", k ? ", " : "", d->joint_name[i]);
            if (n < 0 || (size_t)(k + n) >= sizeof b) break;
            k += n;
        }
    printf("formulation:      double_step (independent coordinates at t = 0: %s; dependent, from the loop "
           "closure: %s)\n",
           a, b);
    free(s);
    free(w);
}

int hs_cli_info(int argc, char **argv)
{
    const char *path = NULL;
    hs_model_desc *d;
    hs_error err;
    const hs_model *m;
    char source[512];
    int i, w = 4, rc, columns = 0;

    /* argv[0] is the subcommand ("info") */
    for (i = 1; i < argc; ++i) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        }
    }
    for (i = 1; i < argc; ++i) {
        const char *a = argv[i];
        if (!strcmp(a, "--set")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "hydrosweep info: option --set needs NAME=VALUE\n");
                return 1;
            }
            ++i;
            if (hs_cli_set_usage("info", argv[i])) return 1;
        } else if (!strncmp(a, "--set=", 6)) {
            if (hs_cli_set_usage("info", a + 6)) return 1;
            continue;
        } else if (!strcmp(a, "--columns")) {
            columns = 1;
        } else if (hs_cli_operand("info", "model", a, &path)) {
            return 1;
        }
    }
    if (!path) {
        fprintf(stderr, "hydrosweep info: no model file given\n");
        usage(stderr);
        return 1;
    }

    if (columns && hs_tree_file_is_riccati(path)) {
        fprintf(stderr, "hydrosweep info: %s is a riccati model (an open tree): --columns is not available for it "
                        "yet (its CSV's columns: t, E_kin, E_pot, E_total, then outputs.bodies' angle_z, x, y, z)\n",
                path);
        return 1;
    }
    /* hs_model_desc is large (tens of kB): keep it off the stack */
    d = (hs_model_desc *)calloc(1, sizeof *d);
    if (!d) {
        fprintf(stderr, "hydrosweep info: out of memory\n");
        return 2;
    }
    rc = hs_tree_file_is_riccati(path) ? hs_tree_desc_load(path, d, &err) : hs_model_load(path, d, &err);
    if (rc != HS_OK) {
        hs_cli_error("info", &err);
        rc = 2;
        goto done;
    }
    for (i = 1; i < argc; ++i) {
        const char *as = NULL;
        if (!strcmp(argv[i], "--set"))
            as = argv[++i];
        else if (!strncmp(argv[i], "--set=", 6))
            as = argv[i] + 6;
        if (as && (rc = hs_param_set_string(d, as, &err)) != HS_OK) {
            hs_cli_error("info", &err);
            rc = 2;
            goto done;
        }
    }

    if (d->tree) {
        rc = hs_cli_info_tree(d);
        goto done;
    }
    m = &d->model;
    if (columns) { /* the CSV's columns and their units: what a plot of it needs */
        char name[HS_NAME_LEN + 16];
        printf("t s\n");
        for (i = 0; i < hs_output_count(d); ++i) {
            hs_signal_ref r = hs_output_at(d, i);
            hs_output_name(d, r, name, sizeof name);
            printf("%s %s\n", name, hs_output_unit(d, r));
        }
        rc = 0;
        goto done;
    }
    if (hs_model_source(d, source, sizeof source) != 0) source[0] = '\0';
    printf("model:            %s\n", d->name);
    printf("source:           %s\n", source[0] ? source : "-");
    printf("file:             %s\n", d->path);
    {
        int j, nball = 0;
        for (j = 0; j < m->nbody; ++j) nball += m->joint_ball[j] == 1;
        printf("bodies:           %d\n", m->nbody - 2 * nball);
        if (nball)
            printf("joints:           %d, %d of them ball joints (coordinates: %d; a ball joint's are its rotation "
                   "vector, <joint>.x, .y, .z)\n",
                   m->nbody - 2 * nball, nball, m->nz);
        else
            printf("joints:           %d (coordinates: %d)\n", m->nbody, m->nz);
    }
    if (m->nnh > 0)
        printf("cuts:             %d (constraint equations: %d, of which nonholonomic: %d)\n", m->ncut, m->ncon,
               m->nnh);
    else
        printf("cuts:             %d (constraint equations: %d)\n", m->ncut, m->ncon);
    printf("points:           %d\n", m->npoint);
    printf("loads:            %d\n", m->nload);
    printf("signals:          %d (knots: %d)", m->nsignal, m->nknot);
    { /* the test inputs (seed 004 Pub. III eqs. 12-15) by name */
        int k, first = 1;
        for (k = 0; k < m->nsignal; ++k)
            if (m->sig_kind[k] != HS_SIGK_KNOTS) {
                printf("%s%s %s", first ? "; test inputs: " : ", ", d->signal_name[k],
                       hs_signal_kind_names[m->sig_kind[k]]);
                first = 0;
            }
    }
    putchar('\n');
    if (hs_model_has_hydraulics(m)) {
        printf("volumes:          %d (sources: %d)\n", m->nvol, m->nsrc);
        printf("throttles:        %d\n", m->nthr);
        {
            int nseat = 0;
            for (i = 0; i < m->ndcv; ++i) nseat += m->dcv_kind[i] != HS_DCV_DIRECTIONAL;
            printf("valves:           %d", m->ndcv);
            if (nseat) { /* which are seat valves */
                printf(" (");
                for (i = 0; i < m->ndcv; ++i)
                    printf("%s%s %s", i ? ", " : "", d->dcv_name[i], hs_dcv_kind_names[m->dcv_kind[i]]);
                printf(")");
            }
            printf("\n");
        }
        int k, nf = 0, ns = 0;
        for (k = 0; k < m->ncyl; ++k) nf += m->cyl_nfs[k];
        printf("cylinders:        %d (friction states: %d)\n", m->ncyl, nf);
        if (m->ncmp > 0) {
            printf("components:       %d (", m->ncmp);
            for (k = 0; k < m->ncmp; ++k) ns += m->cmp_dyn[k];
            if (m->ncmp <= 8) /* by name; a machine's many by type */
                for (k = 0; k < m->ncmp; ++k)
                    printf("%s%s %s", k ? ", " : "", d->cmp_name[k], hs_cmp_type_names[m->cmp_type[k]]);
            else
                for (int t = 0, first = 1; t < HS_CMP_COUNT; ++t) {
                    int c = 0;
                    for (k = 0; k < m->ncmp; ++k) c += m->cmp_type[k] == t;
                    if (c) printf("%s%d %s", first ? "" : ", ", c, hs_cmp_type_names[t]);
                    first &= !c;
                }
            printf("; states: %d)\n", ns);
        }
    }
    print_formulation(d);
    if (m->coupling == HS_COUPLE_COSIM) /* seed 004 Pub. III: kernels/hs_cosim.h */
        printf("coupling:         cosim (H = dt = %g s; mechanics %s, extrapolation %s; hydraulics %s, h_hyd %g s, "
               "extrapolation %s; %s exchanged)\n",
               m->dt, hs_cosim_mech_names[m->cosim_mech], hs_cosim_extrap_names[m->cosim_extrap_mech],
               hs_cosim_hyd_names[m->cosim_hyd], m->cosim_h_hyd, hs_cosim_extrap_names[m->cosim_extrap],
               m->cosim_exchange == HS_CEX_FORCE ? "forces" : "pressures");
    {
        int v, nsp = 0;
        for (v = 0; v < m->nvol; ++v) nsp += m->vol_model[v] == HS_VOL_SP;
        if (m->formulation == HS_FORM_DOUBLE_STEP && m->ncon > 0) {
            /* the dependent coordinates' rows of the Newton system are unit rows (the tangent
             * keeps its size): the unknowns are the others */
            printf("Newton unknowns:  %d of the system's %d (the dependent coordinates follow from the loop "
                   "closure)\n",
                   m->nx - info_ndep(m), m->nx);
        } else if (nsp == 0) {
            printf("Newton unknowns:  %d\n", m->nx);
        } else {
            /* the quasi-static pressures stay unknowns of the Newton system, each with an
             * algebraic row (its closed form, Pub. II eq. 33): no integrated state */
            printf("Newton unknowns:  %d (%d integrated, %d algebraic: the singular-perturbation pressure%s of", m->nx,
                   m->nx - nsp, nsp, nsp > 1 ? "s" : "");
            for (v = 0; v < m->nvol; ++v)
                if (m->vol_model[v] == HS_VOL_SP) printf(" %s", d->vol_name[v]);
            printf(")\n");
        }
    }
    /* the sizes against the model block's layout (kernels/hs_hd.h); the per-instance frame of
     * the specialised engine follows the model itself (`hydrosweep kernel` reports it) */
    printf("limits:           bodies %d/%d, volumes %d/%d, sources %d/%d, throttles %d/%d, valves %d/%d, "
           "cylinders %d/%d, components %d/%d, signals %d/%d, knots %d/%d, unknowns %d/%d (HS_MAX_*)\n",
           m->nbody, HS_MAX_BODIES, m->nvol, HS_MAX_VOLS, m->nsrc, HS_MAX_SRCS, m->nthr, HS_MAX_THR, m->ndcv,
           HS_MAX_DCV, m->ncyl, HS_MAX_CYLS, m->ncmp, HS_MAX_CMP, m->nsignal, HS_MAX_SIGNALS, m->nknot,
           HS_MAX_KNOTS, m->nx, HS_MAX_X);
    printf("parameters:       %d\n\n", d->nparam);
    hs_cli_warn_implausible("info", d, "");
    hs_cli_warn_load_not_held("info", d);

    for (i = 0; i < d->nparam; ++i) {
        int n = (int)strlen(d->param[i].name);
        if (n > w) w = n;
    }
    printf("%-*s  %-17s  %s\n", w, "NAME", "VALUE", "UNIT");
    for (i = 0; i < d->nparam; ++i) {
        const char *vn = hs_param_value_name(d, i); /* enum parameters print their name */
        if (vn)
            printf("%-*s  %-17s  %s\n", w, d->param[i].name, vn, "-");
        else
            printf("%-*s  %-17.10g  %s\n", w, d->param[i].name, hs_param_get(d, i),
                   d->param[i].unit[0] ? d->param[i].unit : "-");
    }
    rc = 0;
done:
    hs_model_desc_free(d);
    free(d);
    return rc;
}
