/* kernel_spec.c -- the source of the engine specialised to one model structure
 * (kernel_spec.h): the field table of hs_model, what varies per instance, the generated
 * translation unit, the per-instance varying values and the cache key. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/kernel_spec.h"

/* ---------------------------------------------------------------------------------------
 * the members of hs_model, from its one list (kernels/hs_model.h: HS_MODEL_MEMBERS) */

#define FT_OF(t) _Generic((t)0, double: HS_FT_DOUBLE, unsigned int: HS_FT_UINT, default: HS_FT_INT)
#define FIELD_S(t, nm) {#nm, offsetof(hs_model, nm), FT_OF(t), 0, 0, 1, 1, 0},
#define FIELD_F(t, nm, k) {#nm, offsetof(hs_model, nm), FT_OF(t), 0, 0, k, 1, 1},
#define FIELD_A(t, nm, cap, n) {#nm, offsetof(hs_model, nm), FT_OF(t), 1, offsetof(hs_model, n), 0, 1, 1},
#define FIELD_R(t, nm, cap, k, n) {#nm, offsetof(hs_model, nm), FT_OF(t), 1, offsetof(hs_model, n), 0, k, 1},

const hs_field hs_model_fields[] = {HS_MODEL_MEMBERS(FIELD_S, FIELD_F, FIELD_A, FIELD_R){NULL, 0, 0, 0, 0, 0, 0, 0}};

int hs_field_at(size_t off)
{
    int i;
    for (i = 0; hs_model_fields[i].name; ++i) {
        const hs_field *f = &hs_model_fields[i];
        size_t el = f->type == HS_FT_DOUBLE ? sizeof(double) : sizeof(int), cap;
        /* a counted array spans its HS_MAX_* capacity: the next member's offset bounds it */
        cap = hs_model_fields[i + 1].name ? hs_model_fields[i + 1].offset : sizeof(hs_model);
        if (!f->counted) cap = f->offset + el * (size_t)f->fixed * (size_t)f->inner;
        if (off >= f->offset && off < cap) return i;
    }
    return -1;
}

int hs_field_count(const hs_field *f, const hs_model *m)
{
    int n;
    if (!f->counted) return f->fixed;
    memcpy(&n, (const char *)m + f->size_off, sizeof n);
    return n;
}

/* Derived members (hs_model_derive) and the primary ones they follow: when a sweep varies a
 * source, the targets vary too (a floating-point target per instance; an integer target, a
 * shortcut the kernels may take, is set to its general value 0 for all). tests/
 * test_kernel_spec.c checks this against hs_model_derive by perturbing every parameter of
 * every shipped model. */
static const char *const derive_rules[][8] = {
    /* targets ... NULL, sources ... NULL */
    {"body_com", NULL, "body_dim", "body_com", NULL},
    {"body_inertia", NULL, "body_mass", "body_dim", "body_inertia", NULL},
    {"joint_u", "joint_axis_kind", "joint_planar", NULL, "joint_axis", NULL},
    {"con_u", "con_v", "con_pa", "con_pb", NULL, "cut_at_a", "cut_at_b", NULL},
    {"con_u", "con_v", "con_pa", "con_pb", NULL, "cut_axis_a", "cut_axis_b", NULL},
    {"con_u", "con_v", "con_pa", "con_pb", NULL, "cut_normal_a", "cut_normal_b", NULL},
    {"cyl_Ap", "cyl_Ar", NULL, "cyl_d_piston", "cyl_d_rod", NULL},
    {"thr_Cv", NULL, "thr_Cv_given", "thr_Cd", "thr_A", "rho", NULL},
};

static int field_index(const char *name)
{
    int i;
    for (i = 0; hs_model_fields[i].name; ++i)
        if (!strcmp(hs_model_fields[i].name, name)) return i;
    return -1;
}

/* Integer members that select a branch only (no size, no layout follows from them): a sweep
 * may vary them per instance like a double. A volume's formulation (lumped or singular
 * perturbation) and the integrator's (penalty or double-step; a scalar, read through HS_B) are
 * such; a friction model is not (it sets the friction states, nfs). */
static int branch_int(int fi)
{
    /* a signal's kind too: a search over test inputs stays on one specialised kernel */
    /* and the co-simulation's configuration: a search over configurations too (hs_cosim.h) */
    static const char *const names[] = {"vol_model", "formulation", "sig_kind", "coupling", "cosim_mech",
                                        "cosim_hyd", "cosim_exchange", "cosim_extrap", "cosim_extrap_mech", NULL};
    int k;
    for (k = 0; names[k]; ++k)
        if (fi >= 0 && !strcmp(hs_model_fields[fi].name, names[k])) return 1;
    return 0;
}

int hs_spec_structural(const hs_override_spec *ov, int j)
{
    int fi = hs_field_at((size_t)ov->offset[j]);
    if (branch_int(fi)) return 0;
    return fi < 0 || hs_model_fields[fi].type != HS_FT_DOUBLE || ov->is_int[j];
}

int hs_spec_drop_structural(const hs_override_spec *ov, hs_override_spec *own, char *names, size_t n)
{
    int j, left = 0;
    size_t used = 0;
    memset(own, 0, sizeof *own);
    if (names && n) names[0] = '\0';
    for (j = 0; ov && j < ov->n; ++j) {
        int fi = hs_field_at((size_t)ov->offset[j]);
        if (!hs_spec_structural(ov, j)) {
            own->offset[own->n] = ov->offset[j];
            own->is_int[own->n++] = ov->is_int[j];
            continue;
        }
        ++left;
        if (names && used < n) {
            int w = snprintf(names + used, n - used, "%s%s", used ? ", " : "", fi >= 0 ? hs_model_fields[fi].name : "?");
            if (w > 0) used += (size_t)w;
        }
    }
    return left;
}

/* ---------------------------------------------------------------------------------------
 * a growing text buffer */

typedef struct sbuf {
    char *p;
    size_t n, cap;
    int oom;
    size_t cbytes; /* bytes of the constant tables emitted (HS_SPEC_CONST) */
} sbuf;

static void sb_printf(sbuf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void sb_printf(sbuf *b, const char *fmt, ...)
{
    va_list ap;
    int k;
    if (b->oom) return;
    for (;;) {
        size_t room = b->cap - b->n;
        va_start(ap, fmt);
        k = vsnprintf(b->p ? b->p + b->n : NULL, b->p ? room : 0, fmt, ap);
        va_end(ap);
        if (k < 0) {
            b->oom = 1;
            return;
        }
        if (b->p && (size_t)k < room) {
            b->n += (size_t)k;
            return;
        }
        {
            size_t nc = (b->cap ? 2 * b->cap : 16384) + (size_t)k;
            char *q = (char *)realloc(b->p, nc);
            if (!q) {
                b->oom = 1;
                return;
            }
            b->p = q;
            b->cap = nc;
        }
    }
}

/* 1 when the model has a ball joint (hs_model.h: joint_ball), for HS_CAP_BALL. */
static int has_ball(const hs_model *m)
{
    int j;
    for (j = 0; j < m->nbody; ++j)
        if (m->joint_type[j] == HS_JOINT_BALL) return 1;
    return 0;
}

static int max1(int n)
{
    return n > 0 ? n : 1;
}

/* ---------------------------------------------------------------------------------------
 * the generated translation unit */

static void emit_int_array(sbuf *b, const hs_field *f, const hs_model *m, int general)
{
    int n = hs_field_count(f, m), k;
    const char *sfx = f->type == HS_FT_UINT ? "u" : "";
    sb_printf(b, "#define HS_SPEC_I_%s(m, i) (", f->name);
    if (n <= 0 || general) {
        sb_printf(b, "0%s)\n", sfx);
        return;
    }
    for (k = 0; k < n; ++k) {
        const char *at = (const char *)m + f->offset + (size_t)k * sizeof(int);
        long v;
        if (f->type == HS_FT_UINT) {
            unsigned int u;
            memcpy(&u, at, sizeof u);
            v = (long)u;
        } else {
            int s;
            memcpy(&s, at, sizeof s);
            v = s;
        }
        if (k < n - 1) sb_printf(b, "(i) == %d ? %ld%s : ", k, v, sfx);
        else sb_printf(b, "%ld%s", v, sfx);
    }
    sb_printf(b, ")\n");
}

/* A double as a C literal of the same value to the bit (17 significant digits round-trip),
 * always of type double ("16" would be an int: 1 / 16 is 0). */
static void emit_double(sbuf *b, double v)
{
    char t[40];
    snprintf(t, sizeof t, "%.17g", v);
    sb_printf(b, "%s%s", t, strpbrk(t, ".e") ? "" : ".0");
}

/* A member of the shared model that no instance varies, as a compile-time constant: the
 * compiler then folds what follows from it (a joint axis (0, 0, 1) turns rotations into a
 * few products; on a GPU no load from constant memory is left). Folding is exact (IEEE
 * round to nearest, no contraction on the CPU), so the results equal those of the generic
 * engine to the bit. Arrays are static const (__constant__ on a GPU, where the compiler
 * folds them too). Non-finite values stay in hs_spec_base. */
static void emit_double_const(sbuf *b, const hs_field *f, const hs_model *m)
{
    int n = f->is_array ? hs_field_count(f, m) : 1, nv, k;
    const double *v = (const double *)((const char *)m + f->offset);
    nv = n * f->inner;
    for (k = 0; k < nv; ++k)
        if (!isfinite(v[k])) n = 0;
    if (n <= 0) {
        sb_printf(b, "#define HS_SPEC_D_%s(m) (hs_spec_base.%s)\n", f->name, f->name);
        return;
    }
    if (!f->is_array) {
        sb_printf(b, "#define HS_SPEC_D_%s(m) (", f->name);
        emit_double(b, v[0]);
        sb_printf(b, ")\n");
        return;
    }
    b->cbytes += (size_t)n * (size_t)(f->inner > 1 ? f->inner : 1) * sizeof(double);
    sb_printf(b, "static HS_SPEC_CONST double hs_spec_c_%s[%d]", f->name, n);
    if (f->inner > 1) sb_printf(b, "[%d]", f->inner);
    sb_printf(b, " = {");
    for (k = 0; k < nv; ++k) {
        if (f->inner > 1 && k % f->inner == 0) sb_printf(b, "%s{", k ? ", " : "");
        else if (k) sb_printf(b, ", ");
        emit_double(b, v[k]);
        if (f->inner > 1 && k % f->inner == f->inner - 1) sb_printf(b, "}");
    }
    sb_printf(b, "};\n#define HS_SPEC_D_%s(m) (hs_spec_c_%s)\n", f->name, f->name);
}

/* Does out record a signal of the hydraulic energy audit (W_in, W_loss, E_fluid)? */
/* 1 when a recorded signal's kind is in [k0, k1] (the audit's, the elements' flows) */
static int wants_kinds(const hs_output_spec *out, int k0, int k1)
{
    int k;
    for (k = 0; out && k < out->nsig + out->ntraj; ++k) {
        int kind = k < out->nsig ? out->sig[k].kind : out->traj[k - out->nsig].kind;
        if (kind >= k0 && kind <= k1) return 1;
    }
    return 0;
}

int hs_spec_build(const hs_model *m, const hs_override_spec *ov, const hs_output_spec *out, hs_spec *sp,
                  hs_error *err)
{
    char var[256];
    sbuf b;
    int i, j, k, r, off;
    memset(sp, 0, sizeof *sp);
    memset(var, 0, sizeof var);
    /* what varies: the swept members, then what hs_model_derive makes of them */
    for (j = 0; ov && j < ov->n; ++j) {
        int fi = hs_field_at((size_t)ov->offset[j]);
        if (branch_int(fi)) {
            var[fi] = 1;
            continue;
        }
        if (hs_spec_structural(ov, j)) {
            snprintf(sp->why, sizeof sp->why,
                     "the sweep varies %s, an integer that shapes the model (its structure "
                     "differs between instances)",
                     fi >= 0 ? hs_model_fields[fi].name : "a member of no known field");
            return HS_OK;
        }
        var[fi] = 1;
    }
    for (r = 0; r < (int)(sizeof derive_rules / sizeof derive_rules[0]); ++r) {
        int hit = 0, s0 = 0;
        while (derive_rules[r][s0]) ++s0;
        for (k = s0 + 1; derive_rules[r][k]; ++k)
            if (var[field_index(derive_rules[r][k])]) hit = 1;
        for (k = 0; hit && k < s0; ++k) var[field_index(derive_rules[r][k])] = 1;
    }
    /* a hose's internal volumes follow its parameters (hs_model_derive): only a model with one
     * lets a component sweep vary the volumes */
    for (k = 0; var[field_index("cmp_par")] && k < m->ncmp; ++k)
        if (m->cmp_type[k] == HS_CMP_HOSE) var[field_index("vol_V")] = var[field_index("vol_B")] = 1;
    /* an integer that follows swept values: its general value for every instance */
    for (i = 0; hs_model_fields[i].name; ++i)
        if (var[i] && hs_model_fields[i].type != HS_FT_DOUBLE && !branch_int(i)) {
            var[i] = 0;
            if (sp->nintg < HS_SPEC_MAX_VAR) sp->intg[sp->nintg++] = i;
        }
    for (i = 0; hs_model_fields[i].name; ++i) {
        const hs_field *f = &hs_model_fields[i];
        if (!var[i]) continue;
        if (sp->nvarf == HS_SPEC_MAX_VAR) {
            snprintf(sp->why, sizeof sp->why, "the sweep varies more than %d members of the model",
                     HS_SPEC_MAX_VAR);
            return HS_OK;
        }
        sp->varf[sp->nvarf] = i;
        sp->varn[sp->nvarf] = hs_field_count(f, m) * f->inner;
        sp->nvar += sp->varn[sp->nvarf];
        sp->nvarf++;
    }

    memset(&b, 0, sizeof b);
    sb_printf(&b,
              "/* The hydrosweep engine specialised to one model structure: generated by\n"
              " * host/engine/kernel_spec.c (hydrosweep %s); sizes, topology and the values no instance\n"
              " * varies are constants, hs_mview holds what varies per instance. */\n",
              HS_VERSION);
    sb_printf(&b, "#define HS_SPEC 1\n#define HS_SPEC_BLOCK %d\n", HS_SPEC_BLOCK);
    sb_printf(&b,
              "#define HS_CAP_BODIES %d\n#define HS_CAP_Z %d\n#define HS_CAP_CON %d\n#define HS_CAP_VOLS %d\n"
              "#define HS_CAP_DCV %d\n#define HS_CAP_CYLS %d\n#define HS_CAP_FS %d\n#define HS_CAP_X %d\n"
              "#define HS_CAP_OUT %d\n#define HS_CAP_BALL %d\n#define HS_CAP_MOT %d\n",
              max1(m->nbody), max1(m->nz), max1(m->ncon), max1(m->nvol), max1(m->ndcv), max1(m->ncyl),
              max1(m->nfs), max1(m->nx), max1(out->nsig), has_ball(m), m->nmot);
    /* a large model's loops are not unrolled whole (kernels/hs_hd.h, HS_UNROLL) */
    if (m->nx > HS_SPEC_UNROLL_MAX_X) sb_printf(&b, "#define HS_SPEC_ROLLED 1\n");
    /* the hydraulic energy audit (kernels/hs_energy.h) only where a signal records it */
    sb_printf(&b, "#define HS_AUDIT_ON %d\n", wants_kinds(out, HS_SIG_WIN, HS_SIG_EFLUID));
    /* the elements' flows and losses (kernels/hs_energy.h) likewise */
    sb_printf(&b, "#define HS_FLOWS_ON %d\n", wants_kinds(out, HS_SIG_QTHR, HS_SIG_PCMP));
    /* the entrained air's mixture (kernels/hs_fluid.h) only where the model or its sweep has air */
    sb_printf(&b, "#define HS_AIR_ON %d\n", m->air_fraction > 0.0 || var[field_index("air_fraction")]);
    sb_printf(&b, "#include \"hs_model.h\"\n\n/* sizes and other structural integers */\n");
    for (i = 0; hs_model_fields[i].name; ++i) {
        const hs_field *f = &hs_model_fields[i];
        int v;
        if (f->type == HS_FT_DOUBLE || f->is_array) continue;
        memcpy(&v, (const char *)m + f->offset, sizeof v);
        sb_printf(&b, "#define HS_SPEC_N_%s %d\n", f->name, v);
        if (branch_int(i)) { /* HS_B: per instance when swept */
            if (var[i]) sb_printf(&b, "#define HS_SPEC_B_%s(m) ((int)(m)->%s)\n", f->name, f->name);
            else sb_printf(&b, "#define HS_SPEC_B_%s(m) (%d)\n", f->name, v);
        }
    }
    /* the co-simulation's data (hs_cosim in hs_work: kernels/hs_state.h) only where an instance
     * co-simulates */
    if (m->coupling == HS_COUPLE_COSIM || var[field_index("coupling")])
        sb_printf(&b, "#define HS_SPEC_COSIM 1\n");
    sb_printf(&b, "\n/* topology */\n");
    for (i = 0; hs_model_fields[i].name; ++i)
        if (var[i] && hs_model_fields[i].type != HS_FT_DOUBLE && hs_model_fields[i].is_array) /* a swept branch
                                                                                              selector */
            sb_printf(&b, "#define HS_SPEC_I_%s(m, i) ((int)(m)->%s[i])\n", hs_model_fields[i].name,
                      hs_model_fields[i].name);
        else if (hs_model_fields[i].type != HS_FT_DOUBLE && hs_model_fields[i].is_array) {
            int general = 0;
            for (k = 0; k < sp->nintg; ++k)
                if (sp->intg[k] == i) general = 1;
            emit_int_array(&b, &hs_model_fields[i], m, general);
        }
    sb_printf(&b, "\n/* what varies per instance (%d values) */\ntypedef struct hs_mview {\n", sp->nvar);
    for (k = 0; k < sp->nvarf; ++k) {
        const hs_field *f = &hs_model_fields[sp->varf[k]];
        sb_printf(&b, "    double %s", f->name);
        if (f->is_array) sb_printf(&b, "[%d]", max1(hs_field_count(f, m)));
        if (f->inner > 1) sb_printf(&b, "[%d]", f->inner);
        sb_printf(&b, ";\n");
    }
    if (sp->nvarf == 0) sb_printf(&b, "    char hs_none;\n");
    sb_printf(&b, "} hs_mview;\n\n#define HS_N(m, f) HS_SPEC_N_##f\n#define HS_I(m, f, i) HS_SPEC_I_##f(m, i)\n"
                  "#define HS_B(m, f) HS_SPEC_B_##f(m)\n"
                  "#define HS_D(m, f) HS_SPEC_D_##f(m)\n\n"
                  "/* the shared values: constants, except non-finite ones (hs_spec_base) */\n"
                  "#if defined(__CUDACC__) || defined(HS_SPEC_EMUL)\n#define HS_SPEC_CONST __constant__ const\n"
                  "#else\n#define HS_SPEC_CONST const\n#endif\n");
    for (i = 0; hs_model_fields[i].name; ++i) {
        const hs_field *f = &hs_model_fields[i];
        if (f->type != HS_FT_DOUBLE) continue;
        if (var[i]) sb_printf(&b, "#define HS_SPEC_D_%s(m) ((m)->%s)\n", f->name, f->name);
        else emit_double_const(&b, f, m);
    }
    sb_printf(&b, "\n/* instance i's varying values from the SoA var (stride n) */\n"
                  "HS_HD static inline void hs_spec_view_load(const double *var, long n, long i, hs_mview *m)\n"
                  "{\n");
    for (k = 0, off = 0; k < sp->nvarf; ++k) {
        const hs_field *f = &hs_model_fields[sp->varf[k]];
        sb_printf(&b, "    {\n        double *d = (double *)&m->%s;\n        int k;\n", f->name);
        sb_printf(&b, "        for (k = 0; k < %d; ++k) d[k] = var[(long)(%d + k) * n + i];\n    }\n",
                  sp->varn[k], off);
        off += sp->varn[k];
    }
    /* the model block beside the tables in the GPU's 64 KiB of constant memory, or, for a
     * large model whose tables fill it, in global memory (kernels/hs_spec_entry.h) */
    if (b.cbytes + sizeof(hs_model) + sizeof(hs_output_spec) > HS_SPEC_CONST_BUDGET)
        sb_printf(&b, "#define HS_SPEC_BASE_GLOBAL 1 /* %zu B of tables */\n", b.cbytes);
    sb_printf(&b, "    (void)var;\n    (void)n;\n    (void)i;\n    (void)m;\n}\n\n#include \"hs_spec_entry.h\"\n");
    if (b.oom) {
        free(b.p);
        return hs_error_set(err, HS_ERR_IO, "", 0, 0, "", "out of memory for the specialised source");
    }
    sp->source = b.p;
    sp->len = b.n;
    return HS_OK;
}

void hs_spec_free(hs_spec *sp)
{
    free(sp->source);
    memset(sp, 0, sizeof *sp);
}

/* ---------------------------------------------------------------------------------------
 * per-instance values */

int hs_spec_values(const hs_spec *sp, const hs_model *base, const hs_override_spec *ov, const double *values,
                   long cnt, double *var, int *pre, hs_error *err)
{
    int fail = 0;
#ifdef _OPENMP
#pragma omp parallel reduction(| : fail)
#endif
    {
        hs_model *m = (hs_model *)malloc(sizeof *m);
        long i;
        if (!m) {
            fail = 1;
        } else {
            *m = *base;
#ifdef _OPENMP
#pragma omp for schedule(static)
#endif
            for (i = 0; i < cnt; ++i) {
                int k, q, off = 0;
                /* hs_instance_model's verdict without its copy of the whole model: only the
                 * overrides touch m, and hs_model_derive recomputes what follows from them */
                pre[i] = hs_model_override(m, ov, values + (size_t)i * (size_t)ov->n) ? hs_model_plausible(m)
                                                                                        : HS_ST_INVALID;
                for (k = 0; k < sp->nvarf; ++k) {
                    const hs_field *fl = &hs_model_fields[sp->varf[k]];
                    const char *src = (const char *)m + fl->offset;
                    for (q = 0; q < sp->varn[k]; ++q) {
                        double x;
                        if (fl->type == HS_FT_DOUBLE) {
                            memcpy(&x, src + (size_t)q * sizeof(double), sizeof x);
                        } else { /* a branch selector, carried as a double (exact) */
                            int iv;
                            memcpy(&iv, src + (size_t)q * sizeof(int), sizeof iv);
                            x = (double)iv;
                        }
                        var[(size_t)(off + q) * (size_t)cnt + (size_t)i] = x;
                    }
                    off += sp->varn[k];
                }
            }
        }
        free(m);
    }
    if (fail) return hs_error_set(err, HS_ERR_IO, "", 0, 0, "", "out of memory for the instances' values");
    return HS_OK;
}

/* ---------------------------------------------------------------------------------------
 * cache key */

static unsigned long long fnv(unsigned long long h, const char *s)
{
    for (; *s; ++s) {
        h ^= (unsigned char)*s;
        h *= 1099511628211ULL;
    }
    return h ^ 0xff; /* a separator: "ab" + "c" differs from "a" + "bc" */
}

unsigned long long hs_spec_key(const char *source, const char *options)
{
    unsigned long long h = 14695981039346656037ULL;
    int i;
    h = fnv(h, source);
    for (i = 0; i < hs_embedded_header_count; ++i) {
        h = fnv(h, hs_embedded_header_names[i]);
        h = fnv(h, hs_embedded_header_texts[i]);
    }
    h = fnv(h, options);
    return fnv(h, HS_VERSION);
}
