/* cli_linearize.c -- `hydrosweep linearize MODEL`: the Jacobian of the reduced equations of
 * motion about the static equilibrium or a simulated state, its eigenvalues, damping ratios,
 * frequencies and mode labels (seed 001 Sects. 3-4; include/hs/linearize.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "hs/linearize.h"
#include "hs/model_file.h"
#include "engine/simulate.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: hydrosweep linearize MODEL [--set NAME=VALUE ...] [--at equilibrium|t=T]\n"
            "                            [--method exact|fd|conventional] [--fd-step H]\n"
            "                            [--compare] [--fd-sweep] [--json]\n"
            "\n"
            "Linearizes MODEL's equations of motion about a state and prints the eigenvalues\n"
            "(seed 001). The states are the independent coordinates z_a and their rates, the\n"
            "pressures, the friction states and the spools; the dependent coordinates follow\n"
            "from the loop closure (the maximal reduction: a Jacobian of size\n"
            "2(n - m) - l + r + u, no spurious zero eigenvalues but the l of nonholonomic\n"
            "constraints, whose l coordinates z_ad are states without their rates). The\n"
            "independent coordinates come from full-pivot elimination of the constraint\n"
            "Jacobian, held joints first.\n"
            "  --at equilibrium  the static equilibrium at the model's input coordinates\n"
            "                    (default): velocities zero, the pressures from the statics with\n"
            "                    each cylinder's given rod-side pressure (seed 001 eqs. 77-83)\n"
            "  --at t=T          the state of a simulation at the first step at or after T (s)\n"
            "  --method exact    derivatives by forward-mode automatic differentiation of the\n"
            "                    engine's own equations (default)\n"
            "  --method fd       the same reduced Jacobian by central differences\n"
            "  --method conventional  central differences of the index-1 ODE in all coordinates\n"
            "                    (seed 001 eqs. 95-100): size 2n + r + u, 2(m + l) extra zeros\n"
            "  --fd-step H       the differences' step: X_j +- H max(1, |X_j|) (default 1e-6)\n"
            "  --compare         also the fd and conventional eigenvalues, matched to the exact\n"
            "                    ones, with their relative differences\n"
            "  --fd-sweep        the error of the fd Jacobian against the exact one for steps\n"
            "                    1e-1 ... 1e-12 (seed 001 Sect. 4.5)\n"
            "  --json            one JSON object: size, sizes, method, independent,\n"
            "                    rate_dependent (z_ad), states,\n"
            "                    state, rates, jacobian (rows), eigenvalues ([re, im]), damping,\n"
            "                    frequency_hz, mode, participation (by class), zero_tol\n"
            "Damping ratio -Re/|lambda|; frequency |Im|/(2 pi) in Hz; mode: the class of states\n"
            "(mechanical, pressure, friction, spool) with the largest participation factor\n"
            "|left_k right_k| in the mode (and a second class holding at least 0.3). Eigenvalues\n"
            "below 1e-10 of the largest modulus are zeros made inexact by rounding: printed as 0.\n"
            "Method and rules: docs/linearization.md.\n"
            "Exit status: 0 success, 1 usage, 2 bad model or parameter, 3 the point or the\n"
            "linearization failed (no equilibrium, singular matrix).\n");
}

/* The name of state k of a linearization (conventional: every joint). */
static void state_name(const hs_model_desc *d, const hs_linearization *L, int k, char *buf, size_t n)
{
    /* X = (z_ai, zdot_ai, z_ad, p, fs, U): nv independent coordinates, nq - nv = l whose rates
     * the nonholonomic constraints fix (conventional: all coordinates, l = 0 here) */
    int conv = L->method == HS_LIN_CONVENTIONAL, nq = conv ? L->n : L->n - L->m, nv = conv ? nq : nq - L->l;
    int o = nq + nv;
    if (k < nv) snprintf(buf, n, "%s", d->joint_name[conv ? k : L->indep[k]]);
    else if (k < 2 * nv) snprintf(buf, n, "%s_dot", d->joint_name[conv ? k - nv : L->indep[k - nv]]);
    else if (k < o) snprintf(buf, n, "%s", d->joint_name[L->indep[k - nv]]);
    else if (k < o + L->r) snprintf(buf, n, "p_%s", d->vol_name[k - o]);
    else if (k < o + L->r + L->nfs) snprintf(buf, n, "fs%d", k - o - L->r);
    else snprintf(buf, n, "U_%s", d->dcv_name[k - o - L->r - L->nfs]);
}

static const char *method_name(int m)
{
    return m == HS_LIN_EXACT ? "exact" : m == HS_LIN_FD ? "fd" : "conventional";
}

/* |a - b| / max(|b|, floor) for eigenvalues, floor = 1e-9 max |lambda|. For each eigenvalue
 * of b, the nearest unused one of a. b's exact zeros (within its zero_tol) are matched first,
 * each to a's smallest unused one, and measured absolutely with a's extra eigenvalues: a
 * finite-difference Jacobian splits a multiple zero into +-sqrt(its error) (a Jordan block). */
static double match_eigs(const hs_linearization *a, const hs_linearization *b, double *worst_zero)
{
    int used[HS_LIN_MAX] = {0}, zmatch[HS_LIN_MAX] = {0}, i, j;
    double big = 0.0, worst = 0.0;
    for (i = 0; i < b->size; ++i) big = fmax(big, hypot(b->eig_re[i], b->eig_im[i]));
    for (i = 0; i < b->size; ++i) {
        int best = -1;
        if (b->eig_re[i] != 0.0 || b->eig_im[i] != 0.0) continue;
        for (j = 0; j < a->size; ++j)
            if (!used[j] && (best < 0 || hypot(a->eig_re[j], a->eig_im[j]) < hypot(a->eig_re[best], a->eig_im[best])))
                best = j;
        if (best >= 0) used[best] = zmatch[best] = 1;
    }
    for (i = 0; i < b->size; ++i) {
        if (b->eig_re[i] == 0.0 && b->eig_im[i] == 0.0) continue;
        int best = -1;
        double bd = INFINITY, mag = hypot(b->eig_re[i], b->eig_im[i]);
        for (j = 0; j < a->size; ++j) {
            double dd = hypot(a->eig_re[j] - b->eig_re[i], a->eig_im[j] - b->eig_im[i]);
            if (!used[j] && dd < bd) {
                bd = dd;
                best = j;
            }
        }
        if (best < 0) continue;
        used[best] = 1;
        worst = fmax(worst, bd / fmax(mag, 1e-9 * big));
    }
    *worst_zero = 0.0; /* the largest |lambda| of a left unmatched: the extra (near-)zeros */
    for (j = 0; j < a->size; ++j)
        if (!used[j] || zmatch[j]) *worst_zero = fmax(*worst_zero, hypot(a->eig_re[j], a->eig_im[j]));
    return worst;
}

/* The mode label: the class with the largest participation, and the second one too where it
 * holds at least 0.3 (a hydro-mechanical mode), e.g. "pressure+mechanical (0.50/0.50)". */
static void mode_label(const hs_linearization *L, int k, char *buf, size_t n)
{
    int c, b = L->label[k], s = -1;
    for (c = 0; c < HS_LIN_NCLASS; ++c)
        if (c != b && L->part[k][c] >= 0.3 && (s < 0 || L->part[k][c] > L->part[k][s])) s = c;
    if (s < 0) snprintf(buf, n, "%s (%.2f)", hs_lin_class_name(b), L->part[k][b]);
    else snprintf(buf, n, "%s+%s (%.2f/%.2f)", hs_lin_class_name(b), hs_lin_class_name(s), L->part[k][b], L->part[k][s]);
}

static void print_eigs(FILE *f, const hs_linearization *L)
{
    int k;
    char lab[96];
    fprintf(f, "  %3s  %-25s %-25s %-10s %-12s %s\n", "k", "real (1/s)", "imag (rad/s)", "damping", "freq (Hz)",
            "mode (participation)");
    for (k = 0; k < L->size; ++k) {
        double z = hs_lin_damping(L->eig_re[k], L->eig_im[k]);
        char zs[32];
        if (isnan(z)) snprintf(zs, sizeof zs, "-");
        else snprintf(zs, sizeof zs, "%.6f", z);
        mode_label(L, k, lab, sizeof lab);
        fprintf(f, "  %3d  %-25.17g %-25.17g %-10s %-12.6g %s\n", k + 1, L->eig_re[k], L->eig_im[k], zs,
                hs_lin_frequency(L->eig_im[k]), lab);
    }
}

/* The largest |zddot| (which = 0) or |pdot| (1) of the rates at the point. */
static double max_rate(const hs_linearization *L, int which)
{
    int nq = L->method == HS_LIN_CONVENTIONAL ? L->n : L->n - L->m, k;
    int nv = L->method == HS_LIN_CONVENTIONAL ? nq : nq - L->l; /* X = (z_ai, zdot_ai, z_ad, p, ...) */
    double r = 0.0;
    if (which == 0)
        for (k = nv; k < 2 * nv; ++k) r = fmax(r, fabs(L->rates[k]));
    else
        for (k = 0; k < L->r; ++k) r = fmax(r, fabs(L->rates[nq + nv + k]));
    return r;
}

static void json_num(FILE *f, double v)
{
    if (isfinite(v)) fprintf(f, "%.17g", v);
    else fprintf(f, "null");
}

static void print_json(FILE *f, const hs_model_desc *d, const char *at, const hs_lin_point *x,
                       const hs_linearization *L)
{
    int i, j;
    char nm[128];
    fprintf(f, "{\"model\": \"%s\", \"at\": \"%s\", \"t\": %.17g, \"at_rest\": %s, \"method\": \"%s\", "
               "\"fd_step\": ",
            d->path, at, x->t, hs_lin_at_rest(L, x) ? "true" : "false", method_name(L->method));
    json_num(f, L->fd_step);
    fprintf(f, ",\n \"size\": %d, \"sizes\": {\"n\": %d, \"m\": %d, \"ncon\": %d, \"l\": %d, \"r\": %d, \"nfs\": %d, "
               "\"u\": %d},\n \"independent\": [",
            L->size, L->n, L->m, L->ncon, L->l, L->r, L->nfs, L->u);
    for (i = 0; i < L->n - L->m - L->l; ++i) fprintf(f, "%s\"%s\"", i ? ", " : "", d->joint_name[L->indep[i]]);
    fprintf(f, "], \"rate_dependent\": [");
    for (; i < L->n - L->m; ++i)
        fprintf(f, "%s\"%s\"", i > L->n - L->m - L->l ? ", " : "", d->joint_name[L->indep[i]]);
    fprintf(f, "],\n \"states\": [");
    for (i = 0; i < L->size; ++i) {
        state_name(d, L, i, nm, sizeof nm);
        fprintf(f, "%s\"%s\"", i ? ", " : "", nm);
    }
    fprintf(f, "],\n \"state\": [");
    for (i = 0; i < L->size; ++i) {
        fprintf(f, "%s", i ? ", " : "");
        json_num(f, L->X0[i]);
    }
    fprintf(f, "],\n \"rates\": [");
    for (i = 0; i < L->size; ++i) {
        fprintf(f, "%s", i ? ", " : "");
        json_num(f, L->rates[i]);
    }
    fprintf(f, "],\n \"jacobian\": [");
    for (i = 0; i < L->size; ++i) {
        fprintf(f, "%s\n  [", i ? "," : "");
        for (j = 0; j < L->size; ++j) {
            fprintf(f, "%s", j ? ", " : "");
            json_num(f, L->J[i * L->size + j]);
        }
        fprintf(f, "]");
    }
    fprintf(f, "],\n \"eigenvalues\": [");
    for (i = 0; i < L->size; ++i) {
        fprintf(f, "%s[", i ? ", " : "");
        json_num(f, L->eig_re[i]);
        fprintf(f, ", ");
        json_num(f, L->eig_im[i]);
        fprintf(f, "]");
    }
    fprintf(f, "],\n \"damping\": [");
    for (i = 0; i < L->size; ++i) {
        fprintf(f, "%s", i ? ", " : "");
        json_num(f, hs_lin_damping(L->eig_re[i], L->eig_im[i]));
    }
    fprintf(f, "],\n \"frequency_hz\": [");
    for (i = 0; i < L->size; ++i) {
        fprintf(f, "%s", i ? ", " : "");
        json_num(f, hs_lin_frequency(L->eig_im[i]));
    }
    fprintf(f, "],\n \"mode\": [");
    for (i = 0; i < L->size; ++i) fprintf(f, "%s\"%s\"", i ? ", " : "", hs_lin_class_name(L->label[i]));
    fprintf(f, "],\n \"participation\": [");
    for (i = 0; i < L->size; ++i) {
        fprintf(f, "%s{", i ? ", " : "");
        for (j = 0; j < HS_LIN_NCLASS; ++j) fprintf(f, "%s\"%s\": %.6f", j ? ", " : "", hs_lin_class_name(j), L->part[i][j]);
        fprintf(f, "}");
    }
    fprintf(f, "],\n \"zero_tol\": ");
    json_num(f, L->zero_tol);
    fprintf(f, "}\n");
}

static int lin_fail(const char *what, hs_error *err)
{
    char buf[1024];
    hs_error_format(err, buf, sizeof buf);
    fprintf(stderr, "hydrosweep linearize: %s: %s\n", what, buf);
    return 3;
}

int hs_cli_linearize(int argc, char **argv)
{
    const char *model_path = NULL, *at = "equilibrium";
    int method = HS_LIN_EXACT, json = 0, compare = 0, sweep = 0, i, rc = 0, k;
    double fd_step = 1e-6, T = -1.0;
    hs_model_desc d;
    hs_error err;
    hs_lin_point x;
    hs_linearization *L = NULL, *L2 = NULL;

    for (i = 1; i < argc; ++i)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 0;
        }
    for (i = 1; i < argc; ++i) {
        const char *a = argv[i];
        if (!strcmp(a, "--set") || !strcmp(a, "--at") || !strcmp(a, "--method") || !strcmp(a, "--fd-step")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "hydrosweep linearize: option %s needs a value\n", a);
                return 1;
            }
            ++i;
            if (!strcmp(a, "--set") && hs_cli_set_usage("linearize", argv[i])) return 1;
            if (!strcmp(a, "--at")) {
                at = argv[i];
                if (!strncmp(at, "t=", 2)) {
                    char *e;
                    errno = 0;
                    T = strtod(at + 2, &e);
                    if (errno || *e || e == at + 2 || !(T >= 0.0)) {
                        fprintf(stderr, "hydrosweep linearize: --at t=T needs a time T >= 0 in s, got '%s'\n", at);
                        return 1;
                    }
                } else if (strcmp(at, "equilibrium")) {
                    fprintf(stderr, "hydrosweep linearize: --at takes 'equilibrium' or 't=T', got '%s'\n", at);
                    return 1;
                }
            } else if (!strcmp(a, "--method")) {
                const char *v = argv[i];
                if (!strcmp(v, "exact")) method = HS_LIN_EXACT;
                else if (!strcmp(v, "fd")) method = HS_LIN_FD;
                else if (!strcmp(v, "conventional")) method = HS_LIN_CONVENTIONAL;
                else {
                    fprintf(stderr, "hydrosweep linearize: --method takes exact, fd or conventional, got '%s'\n", v);
                    return 1;
                }
            } else if (!strcmp(a, "--fd-step")) {
                char *e;
                errno = 0;
                fd_step = strtod(argv[i], &e);
                if (errno || *e || e == argv[i] || !(fd_step > 0.0 && fd_step < 1.0)) {
                    fprintf(stderr, "hydrosweep linearize: --fd-step needs a number in (0, 1), got '%s'\n", argv[i]);
                    return 1;
                }
            }
        } else if (!strcmp(a, "--json")) {
            json = 1;
        } else if (!strcmp(a, "--compare")) {
            compare = 1;
        } else if (!strcmp(a, "--fd-sweep")) {
            sweep = 1;
        } else if (hs_cli_operand("linearize", "model", a, &model_path)) {
            return 1;
        }
    }
    if (!model_path) {
        usage(stderr);
        return 1;
    }
    if (hs_model_load(model_path, &d, &err)) {
        hs_cli_error(NULL, &err);
        return 2;
    }
    for (i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--set")) {
            if (hs_param_set_string(&d, argv[++i], &err)) {
                hs_cli_error(NULL, &err);
                hs_model_desc_free(&d);
                return 2;
            }
        } else if (!strcmp(argv[i], "--at") || !strcmp(argv[i], "--method") || !strcmp(argv[i], "--fd-step")) {
            ++i;
        }
    }
    hs_cli_warn_implausible("linearize", &d, ""); /* as info and simulate warn of them */
    L = (hs_linearization *)malloc(sizeof *L);
    L2 = (hs_linearization *)malloc(sizeof *L2);
    if (!L || !L2) {
        fprintf(stderr, "hydrosweep linearize: out of memory\n");
        rc = 3;
        goto done;
    }
    if (T >= 0.0 ? hs_lin_point_at(&d.model, T, &x, &err) : hs_lin_point_equilibrium(&d.model, &x, &err)) {
        rc = lin_fail(T >= 0.0 ? "the state at --at" : "the static equilibrium", &err);
        goto done;
    }
    if (hs_linearize(&d.model, &x, method, fd_step, L, &err) || hs_lin_eigen(L, &err)) {
        rc = lin_fail("linearization", &err);
        goto done;
    }
    if (json) {
        print_json(stdout, &d, at, &x, L);
        goto done;
    }
    printf("model: %s\n", d.path);
    if (T >= 0.0) printf("point: the simulated state at t = %.9g s\n", x.t);
    else if (hs_lin_at_rest(L, &x)) printf("point: static equilibrium at the input coordinates (t = 0)\n");
    else
        printf("point: the model's initial state with zero velocities (t = 0), which is NOT a static equilibrium "
               "(the rates below are not zero): the Jacobian is the linearization about this state\n");
    for (k = 0; k < d.model.nz; ++k) printf("  %-20s %.17g\n", d.joint_name[k], x.z[k]);
    for (k = 0; k < d.model.nvol; ++k) printf("  p_%-18s %.17g Pa\n", d.vol_name[k], x.p[k]);
    for (k = 0; k < d.model.ndcv; ++k) printf("  U_%-18s %.17g V\n", d.dcv_name[k], x.U[k]);
    printf("  rates at the point: max |zddot| = %.3g, max |pdot| = %.3g Pa/s\n", max_rate(L, 0), max_rate(L, 1));
    printf("sizes: n = %d coordinates, m = %d independent holonomic constraints (of %d equations), l = %d "
           "nonholonomic, r = %d pressures, %d friction states, u = %d spools\n",
           L->n, L->m, L->ncon - L->l, L->l, L->r, L->nfs, L->u);
    if (L->method == HS_LIN_CONVENTIONAL)
        printf("Jacobian: %d x %d = 2n + r + nfs + u, conventional (index-1 ODE, central differences, step %g)\n",
               L->size, L->size, L->fd_step);
    else
        printf("Jacobian: %d x %d = 2(n - m) - l + r + nfs + u, %s\n", L->size, L->size,
               L->method == HS_LIN_EXACT ? "exact (forward-mode automatic differentiation)" : "central differences");
    if (L->method == HS_LIN_FD) printf("  step %g\n", L->fd_step);
    printf("independent coordinates:");
    for (k = 0; k < L->n - L->m - L->l; ++k) printf(" %s", d.joint_name[L->indep[k]]);
    if (L->l > 0) {
        printf("; rates fixed by the nonholonomic constraints (z_ad, eq. 29):");
        for (; k < L->n - L->m; ++k) printf(" %s", d.joint_name[L->indep[k]]);
    }
    printf("\neigenvalues (LAPACK dgeev), by decreasing real part:\n");
    print_eigs(stdout, L);
    if (compare) {
        int mth;
        for (mth = HS_LIN_EXACT; mth <= HS_LIN_CONVENTIONAL; ++mth) {
            double rel, z;
            if (mth == method) continue;
            if (hs_linearize(&d.model, &x, mth, fd_step, L2, &err) || hs_lin_eigen(L2, &err)) {
                rc = lin_fail("comparison", &err);
                goto done;
            }
            rel = match_eigs(L2, L, &z);
            printf("compare: %s (%d x %d%s): eigenvalues differ from these by at most %.3g relative", method_name(mth),
                   L2->size, L2->size, mth == HS_LIN_EXACT ? "" : ", central differences", rel);
            {
                int nz0 = 0, e;
                for (e = 0; e < L->size; ++e) nz0 += L->eig_re[e] == 0.0 && L->eig_im[e] == 0.0;
                if (L2->size > L->size && nz0 > 0)
                    printf("; its %d extra eigenvalues and its %d matched to these zeros are at most %.3g in modulus",
                           L2->size - L->size, nz0, z);
                else if (L2->size > L->size)
                    printf("; its %d extra eigenvalues are at most %.3g in modulus", L2->size - L->size, z);
                else if (nz0 > 0)
                    printf("; its %d matched to these zeros are at most %.3g in modulus", nz0, z);
            }
            printf("\n");
        }
    }
    if (sweep) {
        double h;
        if (method != HS_LIN_EXACT && hs_linearize(&d.model, &x, HS_LIN_EXACT, 0.0, L, &err)) {
            rc = lin_fail("linearization", &err);
            goto done;
        }
        if (hs_lin_eigen(L, &err)) {
            rc = lin_fail("linearization", &err);
            goto done;
        }
        printf("fd-sweep: central differences of the reduced system against the exact Jacobian\n");
        printf("  %-8s %-14s %-12s %s\n", "step", "max |J - J_ex|", "eigenvalues", "largest at (rate of state)/(state)");
        for (h = 1e-1; h > 0.9e-12; h *= 0.1) {
            double ej = 0.0, jn = 0.0, z;
            int kmax = 0;
            char rn[128], cn[128];
            if (hs_linearize(&d.model, &x, HS_LIN_FD, h, L2, &err) || hs_lin_eigen(L2, &err)) {
                printf("  %-8.0e failed: %s\n", h, err.msg);
                continue;
            }
            for (k = 0; k < L->size * L->size; ++k) {
                if (L->state_class[k % L->size] == HS_LIN_SPOOL && L->X0[k % L->size] == 0.0) continue;
                if (fabs(L2->J[k] - L->J[k]) > ej) {
                    ej = fabs(L2->J[k] - L->J[k]);
                    kmax = k;
                }
                jn = fmax(jn, fabs(L->J[k]));
            }
            state_name(&d, L, kmax / L->size, rn, sizeof rn);
            state_name(&d, L, kmax % L->size, cn, sizeof cn);
            printf("  %-8.0e %-14.3e %-12.3e d(%s)/d(%s)\n", h, ej / (jn > 0.0 ? jn : 1.0), match_eigs(L2, L, &z),
                   rn, cn);
        }
        printf("  (max |J - J_ex| relative to max |J_ex|; eigenvalues: the largest relative difference.\n"
               "   the columns of spools at U = 0 are left out: U = 0 is the valve's kink (P-A opens for U > 0,\n"
               "   A-T for U < 0), where the exact Jacobian takes the U >= 0 side and central differences\n"
               "   the mean of both sides; the eigenvalues do not depend on those columns)\n");
    }
done:
    free(L);
    free(L2);
    hs_model_desc_free(&d);
    return rc;
}
