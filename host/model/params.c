/* params.c -- quantities with unit suffixes and the table of named model parameters.
 *
 * A parameter is a double inside the flat hs_model addressed by its byte offset, so batch
 * backends can override it per instance without knowing names; enum parameters (a cylinder's
 * friction model) are ints there instead, with a table of value names (hs_param.type). The
 * names are a stable interface (sweep files rely on them); docs/model-format.md lists them. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model_names.h"
#include "model/params.h"
#include "base/suggest.h"

/* ---- hydraulic name tables (shared with the loader) ---- */

const char *const hs_dcv_kind_names[4] = {"directional", "seat_2_2", "seat_3_2", NULL};
#define HS_CMP_NAME_(ID, name, ports, state) name,
const char *const hs_cmp_type_names[HS_CMP_COUNT + 1] = {HS_COMPONENT_TYPES(HS_CMP_NAME_) NULL};
#undef HS_CMP_NAME_
#define HS_CMP_PDEF_(T, slot, key, unit, def, lo, open, hi, text) {HS_CMP_##T, slot, key, unit, def, text},
const hs_cmp_param_def hs_cmp_params[] = {HS_COMPONENT_PARAMS(HS_CMP_PDEF_)};
#undef HS_CMP_PDEF_
const int hs_ncmp_params = (int)(sizeof hs_cmp_params / sizeof hs_cmp_params[0]);

const char *const hs_newton_names[4] = {"full", "modified", "auto", NULL};

const char *const hs_predictor_names[4] = {"seeds", "extrapolated", "auto", NULL};
const char *const hs_vol_model_names[3] = {"lumped", "singular_perturbation", NULL};

const char *const hs_step_names[3] = {"fixed", "adaptive", NULL};
#define HS_IRULE_INFO_(ID, key, member, unit, units, def, text) {key, unit, units, text},
const hs_irule_info hs_irules[HS_IR_COUNT] = {HS_INTEGRATOR_RULES(HS_IRULE_INFO_)};
#undef HS_IRULE_INFO_
const char *const hs_integrator_keys[] = {"dt", "t_end", "tol_position", "tol_pressure", "tol_friction", "penalty",
                                          "penalty_ratio", "max_iter", "fd_rel", "fd_floor", "newton", "predictor",
                                          "formulation", "step", "method", "rtol", "atol_position", "atol_velocity",
                                          "atol_pressure", "atol_friction", "atol_spool", "h_init", "h_min", "h_max",
                                          "coupling", NULL};
const char *const hs_method_names[5] = {"trapezoidal", "esdirk3", "esdirk4", "auto", NULL};
const char *const hs_formulation_names[3] = {"penalty", "double_step", NULL};
const char *const hs_coupling_names[3] = {"monolithic", "cosim", NULL};
const char *const hs_cosim_mech_names[3] = {"i3al_p", "i1al", NULL};
const char *const hs_cosim_hyd_names[4] = {"euler", "trapezoidal", "rk4", NULL};
const char *const hs_cosim_exchange_names[3] = {"force", "pressures", NULL};
const char *const hs_cosim_extrap_names[HS_CEXT_INTEGRATE + 2] = {"0", "1", "2", "3", "4", "integrate", NULL};
typedef char hs_check_extrap_names[HS_CEXT_INTEGRATE == HS_CEXT_MAX_ORDER + 1 ? 1 : -1];

const char *const hs_friction_names[HS_FRICTION_COUNT + 1] = {
    "none", "viscous", "brown_mcphee", "bengisu_akay", "lugre", "lugre_modified",
    "efficiency_as_printed", "efficiency", NULL};

const char *const hs_fric_param_keys[HS_FP_COUNT + 1] = {
    "Fc", "Fs", "vs", "sigma0", "sigma1", "sigma2", "xi", "n", "vb", "tau_hp", "tau_hn",
    "tau_h0", "eta", "c", "v_eps", NULL};

const char *const hs_fric_param_units[HS_FP_COUNT] = {
    "N", "N", "m/s", "N/m", "N s/m", "N s/m", "s/m", "", "m/s", "s", "s", "s", "", "N s/m",
    "m/s"};

const double hs_fric_param_defaults[HS_FP_COUNT] = {
    0.0, 0.0, 0.01, 1e7, 1e3, 0.0, 0.0, 2.0, 0.0, 0.1, 0.05, 1.0, 1.0, 0.0, 1e-3};

/* the signals' kinds and the test inputs' parameters: kernels/hs_test_input.h's tables */
#define HS_SIGK_NAME_(ID, name) name,
const char *const hs_signal_kind_names[HS_SIGK_COUNT + 1] = {HS_SIGNAL_KINDS(HS_SIGK_NAME_) NULL};
#undef HS_SIGK_NAME_
#define HS_TP_KEY_(ID, key, unit, def, lo, open, text) key,
#define HS_TP_UNIT_(ID, key, unit, def, lo, open, text) unit,
#define HS_TP_DEF_(ID, key, unit, def, lo, open, text) def,
#define HS_TP_TEXT_(ID, key, unit, def, lo, open, text) text,
const char *const hs_test_param_keys[HS_TP_COUNT + 1] = {HS_TEST_PARAMS(HS_TP_KEY_) NULL};
const char *const hs_test_param_units[HS_TP_COUNT] = {HS_TEST_PARAMS(HS_TP_UNIT_)};
const double hs_test_param_defaults[HS_TP_COUNT] = {HS_TEST_PARAMS(HS_TP_DEF_)};
const char *const hs_test_param_rules[HS_TP_COUNT] = {HS_TEST_PARAMS(HS_TP_TEXT_)};
#undef HS_TP_KEY_
#undef HS_TP_UNIT_
#undef HS_TP_DEF_
#undef HS_TP_TEXT_

/* Signal values are the only parameters whose unit depends on what uses them: the knots'
 * values and the test inputs' levels (signal.S.v.K, signal.S.v0, .v_max, .a). */
static int is_signal_value(const char *name)
{
    const char *d;
    int k;
    if (strncmp(name, "signal.", 7) != 0) return 0;
    if (strstr(name, ".v.") != NULL) return 1;
    if (!(d = strrchr(name, '.'))) return 0;
    for (k = 0; k < HS_TP_COUNT; ++k)
        if (!hs_test_param_units[k][0] && !strcmp(d + 1, hs_test_param_keys[k])) return 1;
    return 0;
}

int hs_param_unit_fits(const hs_param *p, const char *got)
{
    if (!got || !got[0]) return 1;
    if (is_signal_value(p->name)) return 1;
    /* the Newton tolerance applies to angles and lengths alike (as in the model file); the
     * friction-state one to bristle deflections (m) and the dimensionless film */
    if (!strcmp(p->name, "integrator.tol_position")) return !strcmp(got, "rad") || !strcmp(got, "m");
    if (!strcmp(p->name, "integrator.tol_friction")) return !strcmp(got, "m");
    return strcmp(p->unit, got) == 0;
}

/* ---- the parameter table ---- */

typedef struct table {
    hs_param *p;
    int n, cap;
    int oom;
} table;

static void add(table *t, const char *unit, size_t offset, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static void add(table *t, const char *unit, size_t offset, const char *fmt, ...)
{
    va_list ap;
    hs_param *q;
    if (t->oom) return;
    if (t->n == t->cap) {
        int cap = t->cap ? 2 * t->cap : 64;
        hs_param *np = (hs_param *)realloc(t->p, (size_t)cap * sizeof *np);
        if (!np) {
            t->oom = 1;
            return;
        }
        t->p = np;
        t->cap = cap;
    }
    q = &t->p[t->n++];
    memset(q, 0, sizeof *q);
    va_start(ap, fmt);
    vsnprintf(q->name, sizeof q->name, fmt, ap);
    va_end(ap);
    snprintf(q->unit, sizeof q->unit, "%s", unit);
    q->offset = offset;
}

/* Offsets of element [i] of a double array member, and of [i][k] of a double[][n] member:
 * the arrays are contiguous, so plain element arithmetic from offsetof is exact. */
#define OFF1(member, i) (offsetof(hs_model, member) + (size_t)(i) * sizeof(double))
#define OFF2(member, i, k, n) \
    (offsetof(hs_model, member) + ((size_t)(i) * (n) + (size_t)(k)) * sizeof(double))

/* ... and of element [i] of an int array member (enum parameters). */
#define OFFI(member, i) (offsetof(hs_model, member) + (size_t)(i) * sizeof(int))

static const char *const k_xyz[3] = {"x", "y", "z"};

static void add_vec(table *t, const char *unit, size_t off0, const char *prefix, const char *nm,
                    const char *field)
{
    int k;
    for (k = 0; k < 3; ++k)
        add(t, unit, off0 + (size_t)k * sizeof(double), "%s.%s.%s.%s", prefix, nm, field,
            k_xyz[k]);
}

/* The parameter added last takes integer values in [lo, hi] only. */
static void make_integer(table *t, double lo, double hi)
{
    if (t->oom || t->n == 0) return;
    t->p[t->n - 1].integer = 1;
    t->p[t->n - 1].lo = lo;
    t->p[t->n - 1].hi = hi;
}

/* The parameter added last becomes an enum parameter with these value names. */
static void make_enum(table *t, const char *const *names, int n)
{
    make_integer(t, 0.0, (double)(n - 1));
    if (t->oom || t->n == 0) return;
    t->p[t->n - 1].type = HS_PARAM_ENUM;
    t->p[t->n - 1].n_enum = n;
    t->p[t->n - 1].enum_names = names;
}

/* The enumerations among the integrator's settings and the co-simulation's: parameter name,
 * member of hs_model (an int), value names, how many. */
typedef struct enum_param {
    const char *name;
    size_t offset;
    const char *const *names;
    int n;
} enum_param;
static const enum_param integ_enums[] = {
    {"integrator.newton", offsetof(hs_model, newton), hs_newton_names, 3},
    {"integrator.predictor", offsetof(hs_model, predictor), hs_predictor_names, 3},
    {"integrator.formulation", offsetof(hs_model, formulation), hs_formulation_names, 2},
    {"integrator.step", offsetof(hs_model, step), hs_step_names, 2},
    {"integrator.method", offsetof(hs_model, method), hs_method_names, 4},
};
static const enum_param cosim_enums[] = {
    {"integrator.coupling", offsetof(hs_model, coupling), hs_coupling_names, 2},
    {"cosim.mechanics", offsetof(hs_model, cosim_mech), hs_cosim_mech_names, 2},
    {"cosim.hydraulics", offsetof(hs_model, cosim_hyd), hs_cosim_hyd_names, 3},
    {"cosim.exchange", offsetof(hs_model, cosim_exchange), hs_cosim_exchange_names, 2},
    {"cosim.extrapolation", offsetof(hs_model, cosim_extrap), hs_cosim_extrap_names, HS_CEXT_INTEGRATE + 1},
    {"cosim.mechanics_extrapolation", offsetof(hs_model, cosim_extrap_mech), hs_cosim_extrap_names,
     HS_CEXT_MAX_ORDER + 1},
};

static void add_enums(table *t, const enum_param *e, int n)
{
    int k;
    for (k = 0; k < n; ++k) {
        add(t, "", e[k].offset, "%s", e[k].name);
        make_enum(t, e[k].names, e[k].n);
    }
}

/* The integrator's settings r0 .. r1-1 of the one table (kernels/hs_rules.h): names, units,
 * and the integer rule of max_iter. */
static void add_irules(table *t, int r0, int r1)
{
    hs_model probe;
    int r;
    memset(&probe, 0, sizeof probe);
    for (r = r0; r < r1; ++r) {
        double lo, hi;
        int lo_open, integer;
        add(t, hs_irules[r].unit, (size_t)((char *)hs_irule_ptr(&probe, r) - (char *)&probe), "integrator.%s",
            hs_irules[r].key);
        hs_irule_bounds(&probe, r, &lo, &hi, &lo_open, &integer);
        if (integer) make_integer(t, lo, hi); /* max_iter: values lists only in a sweep */
    }
}

int hs_model_has_hydraulics(const hs_model *m)
{
    return m->nvol > 0 || m->nsrc > 0 || m->nthr > 0 || m->ndcv > 0 || m->ncyl > 0 || m->ncmp > 0;
}

/* Hydraulic parameters (docs/model-format.md), after the mechanism's. */
static void add_hydraulics(table *t, const hs_model_desc *d)
{
    static const char *const kpath[4] = {"k_PA", "k_BT", "k_PB", "k_AT"};
    const hs_model *m = &d->model;
    int i, k;
    if (hs_model_has_hydraulics(m) || m->B_oil > 0.0) {
        add(t, "Pa", offsetof(hs_model, B_oil), "fluid.B_oil");
        add(t, "kg/m^3", offsetof(hs_model, rho), "fluid.rho");
        add(t, "Pa", offsetof(hs_model, p_vapour), "fluid.p_vapour");
        add(t, "", offsetof(hs_model, air_fraction), "fluid.air_fraction");
        add(t, "", offsetof(hs_model, air_n), "fluid.polytropic_index");
    }
    for (i = 0; i < m->nsrc; ++i) add(t, "Pa", OFF1(src_p, i), "source.%s.p", d->src_name[i]);
    for (i = 0; i < m->nvol; ++i) {
        const char *n = d->vol_name[i];
        if (hs_vol_hose(m, i) >= 0) continue; /* a hose's: its parameters are the hose's */
        add(t, "m^3", OFF1(vol_V, i), "volume.%s.V", n);
        add(t, "Pa", OFF1(vol_B, i), "volume.%s.B", n);
        add(t, "Pa", OFF1(vol_p0, i), "volume.%s.p0", n);
        add(t, "", OFFI(vol_model, i), "volume.%s.model", n);
        make_enum(t, hs_vol_model_names, 2);
        add(t, "", OFF2(vol_gamma, i, 0, 2), "volume.%s.gamma_plus", n);
        add(t, "", OFF2(vol_gamma, i, 1, 2), "volume.%s.gamma_minus", n);
    }
    for (i = 0; i < m->nthr; ++i) {
        const char *n = d->thr_name[i];
        if (m->thr_Cv_given[i] > 0.0) {
            add(t, "m^3/(s sqrt(Pa))", OFF1(thr_Cv_given, i), "throttle.%s.Cv", n);
        } else {
            add(t, "", OFF1(thr_Cd, i), "throttle.%s.Cd", n);
            add(t, "m^2", OFF1(thr_A, i), "throttle.%s.A", n);
        }
        add(t, "Pa", OFF1(thr_dplim, i), "throttle.%s.dp_lim", n);
    }
    for (i = 0; i < m->ndcv; ++i) {
        const char *n = d->dcv_name[i];
        int seat = m->dcv_kind[i] != HS_DCV_DIRECTIONAL; /* an on/off seat valve: no path factors */
        add(t, seat ? "m^3/(s sqrt(Pa))" : "m^3/(s V sqrt(Pa))", OFF1(dcv_Cv, i), "valve.%s.Cv", n);
        for (k = 0; k < 4 && !seat; ++k) add(t, "", OFF2(dcv_kpath, i, k, 4), "valve.%s.%s", n, kpath[k]);
        add(t, "s", OFF1(dcv_tau, i), "valve.%s.tau", n);
        add(t, "Pa", OFF1(dcv_dplim, i), "valve.%s.dp_lim", n);
        add(t, seat ? "" : "V", OFF1(dcv_U0, i), "valve.%s.U0", n);
        if (m->dcv_dpcomp[i] > 0.0) { /* a load-sensing section's compensator */
            add(t, "Pa", OFF1(dcv_dpcomp, i), "valve.%s.dp_comp", n);
            add(t, "V", OFF1(dcv_Uls, i), "valve.%s.U_ls", n);
        }
    }
    for (i = 0; i < m->ncyl; ++i) {
        const char *n = d->cyl_name[i];
        int mode = m->cyl_init[i];
        add_vec(t, "m", OFF2(cyl_at_a, i, 0, 3), "cylinder", n, "at_a");
        add_vec(t, "m", OFF2(cyl_at_b, i, 0, 3), "cylinder", n, "at_b");
        add(t, "m", OFF1(cyl_d_piston, i), "cylinder.%s.d_piston", n);
        add(t, "m", OFF1(cyl_d_rod, i), "cylinder.%s.d_rod", n);
        add(t, "m", OFF1(cyl_stroke, i), "cylinder.%s.stroke", n);
        add(t, "m", OFF1(cyl_l_p0, i), "cylinder.%s.l_piston0", n);
        add(t, "Pa", OFF1(cyl_B, i), "cylinder.%s.B_wall", n);
        add(t, "", OFFI(cyl_fric, i), "cylinder.%s.friction.model", n);
        make_enum(t, hs_friction_names, HS_FRICTION_COUNT);
        /* every friction parameter, whatever the model, so that the model can be switched */
        for (k = 0; k < HS_FP_COUNT; ++k)
            add(t, hs_fric_param_units[k], OFF2(cyl_fp, i, k, HS_MAX_FP),
                "cylinder.%s.friction.%s", n, hs_fric_param_keys[k]);
        if (m->cyl_ld[i] > 0.0) {
            add(t, "m", OFF1(cyl_ld, i), "cylinder.%s.end_dampers.l_d", n);
            add(t, "N/m", OFF1(cyl_kd, i), "cylinder.%s.end_dampers.k_d", n);
            add(t, "N s/m", OFF1(cyl_cd, i), "cylinder.%s.end_dampers.c_d", n);
        }
        if (mode == HS_CYLINIT_EQ_PROD || mode == HS_CYLINIT_EQ_PPISTON ||
            mode == HS_CYLINIT_FORCE)
            add(t, "Pa", OFF1(cyl_init_p, i), "cylinder.%s.init.p", n);
        if (mode == HS_CYLINIT_FORCE) add(t, "N", OFF1(cyl_init_F, i), "cylinder.%s.init.F", n);
    }
    for (i = 0; i < m->ncmp; ++i)
        for (k = 0; k < hs_ncmp_params; ++k) {
            const hs_cmp_param_def *pd = &hs_cmp_params[k];
            if (pd->type != m->cmp_type[i]) continue;
            /* a valve's poppet or spool is a state: its tau is a parameter only where it has one */
            if (pd->slot == hs_cmp_tau_slot(pd->type) && !m->cmp_dyn[i]) continue;
            /* a hose's segments are its layout (its states and internal volumes) */
            if (pd->type == HS_CMP_HOSE && pd->slot == HS_CP_HO_NSEG) continue;
            /* a counterbalance valve's venting is its construction, not a value */
            if (pd->type == HS_CMP_COUNTERBALANCE && pd->slot == HS_CP_CB_VENT) continue;
            add(t, pd->unit, OFF2(cmp_par, i, pd->slot, HS_CMP_NPAR), "component.%s.%s", d->cmp_name[i], pd->key);
        }
}

int hs_params_build(hs_model_desc *d, hs_error *err)
{
    static const char *const inertia_names[6] = {"xx", "yy", "zz", "xy", "xz", "yz"};
    const hs_model *m = &d->model;
    table t;
    int j, k, c, s;
    memset(&t, 0, sizeof t);
    free(d->param);
    d->param = NULL;
    d->nparam = 0;

    for (k = 0; k < 3; ++k) add(&t, "m/s^2", OFF1(gravity, k), "gravity.%s", k_xyz[k]);

    for (j = 0; j < m->nbody; ++j) {
        const char *b = d->body_name[j];
        int sh = m->body_shape[j];
        if (m->joint_ball[j] == 1 || m->joint_ball[j] == 2) continue; /* a ball joint's massless bodies */
        add(&t, "kg", OFF1(body_mass, j), "body.%s.mass", b);
        if (sh == HS_SHAPE_ROD || sh == HS_SHAPE_BEAM || sh == HS_SHAPE_CUBOID)
            add(&t, "m", OFF2(body_dim, j, 0, 3), "body.%s.length", b);
        if (sh == HS_SHAPE_BEAM || sh == HS_SHAPE_CUBOID) {
            add(&t, "m", OFF2(body_dim, j, 1, 3), "body.%s.width", b);
            add(&t, "m", OFF2(body_dim, j, 2, 3), "body.%s.height", b);
        }
        if (m->body_com_given[j] || sh == HS_SHAPE_CUSTOM)
            add_vec(&t, "m", OFF2(body_com, j, 0, 3), "body", b, "com");
        if (sh == HS_SHAPE_CUSTOM)
            for (k = 0; k < 6; ++k)
                add(&t, "kg m^2", OFF2(body_inertia, j, k, 6), "body.%s.inertia.%s", b,
                    inertia_names[k]);
    }

    for (j = 0; j < m->nbody; ++j) {
        const char *n = d->joint_name[j];
        int pr = m->joint_type[j] == HS_JOINT_PRISMATIC;
        if (m->joint_ball[j] == 1) {
            /* a ball joint (its coordinates named <joint>.x, .y, .z): the rotation vector phi
             * (kernels/hs_rotvec.h) and its rate, as joint.<joint>.z0.x ...; its point on the
             * parent; at_child is its child's (below) */
            char base[HS_NAME_LEN];
            snprintf(base, sizeof base, "%.*s", (int)strlen(n) - 2, n);
            for (k = 0; k < 3; ++k) add(&t, "rad", OFF1(joint_z0, j + k), "joint.%s.z0.%s", base, k_xyz[k]);
            for (k = 0; k < 3; ++k) add(&t, "rad/s", OFF1(joint_zd0, j + k), "joint.%s.zdot0.%s", base, k_xyz[k]);
            add_vec(&t, "m", OFF2(joint_at_parent, j, 0, 3), "joint", base, "at_parent");
            continue;
        }
        if (m->joint_ball[j] == 2) continue;
        if (m->joint_ball[j] == 3) {
            char base[HS_NAME_LEN];
            snprintf(base, sizeof base, "%.*s", (int)strlen(n) - 2, n);
            add_vec(&t, "m", OFF2(joint_at_child, j, 0, 3), "joint", base, "at_child");
            continue;
        }
        add(&t, pr ? "m" : "rad", OFF1(joint_z0, j), "joint.%s.z0", n);
        add(&t, pr ? "m/s" : "rad/s", OFF1(joint_zd0, j), "joint.%s.zdot0", n);
        if (m->joint_k[j] > 0.0 || m->joint_c[j] > 0.0) { /* a joint with a spring (joints[].spring) */
            add(&t, pr ? "N/m" : "N m/rad", OFF1(joint_k, j), "joint.%s.spring.k", n);
            add(&t, pr ? "N s/m" : "N m s/rad", OFF1(joint_c, j), "joint.%s.spring.c", n);
            add(&t, pr ? "m" : "rad", OFF1(joint_zs, j), "joint.%s.spring.z_rest", n);
        }
        add_vec(&t, "", OFF2(joint_axis, j, 0, 3), "joint", n, "axis");
        add_vec(&t, "m", OFF2(joint_at_parent, j, 0, 3), "joint", n, "at_parent");
        add_vec(&t, "m", OFF2(joint_at_child, j, 0, 3), "joint", n, "at_child");
    }

    for (c = 0; c < m->ncut; ++c) {
        const char *n = d->cut_name[c];
        int ty = m->cut_type[c];
        if (ty != HS_CUT_NONHOLONOMIC) add_vec(&t, "m", OFF2(cut_at_a, c, 0, 3), "cut", n, "at_a");
        add_vec(&t, "m", OFF2(cut_at_b, c, 0, 3), "cut", n, "at_b");
        /* "where used": the planar revolute cut only needs b's axis (its plane normal), the
         * nonholonomic one its direction axis_b */
        if (ty != HS_CUT_REVOLUTE_PLANAR && ty != HS_CUT_NONHOLONOMIC)
            add_vec(&t, "", OFF2(cut_axis_a, c, 0, 3), "cut", n, "axis_a");
        add_vec(&t, "", OFF2(cut_axis_b, c, 0, 3), "cut", n, "axis_b");
        if (ty == HS_CUT_PRISMATIC)
            add_vec(&t, "", OFF2(cut_normal_a, c, 0, 3), "cut", n, "normal_a");
        if (ty == HS_CUT_PRISMATIC || ty == HS_CUT_PRISMATIC_PLANAR)
            add_vec(&t, "", OFF2(cut_normal_b, c, 0, 3), "cut", n, "normal_b");
    }

    for (j = 0; j < m->npoint; ++j)
        add_vec(&t, "m", OFF2(point_at, j, 0, 3), "point", d->point_name[j], "at");

    for (j = 0; j < m->nload; ++j) {
        const char *n = d->load_name[j];
        add_vec(&t, "m", OFF2(load_at, j, 0, 3), "load", n, "at");
        add_vec(&t, "N", OFF2(load_force_dir, j, 0, 3), "load", n, "force");
        add_vec(&t, "N m", OFF2(load_torque_dir, j, 0, 3), "load", n, "torque");
    }

    for (j = 0; j < m->npay; ++j) { /* payloads */
        add(&t, "kg", OFF1(pay_mass, j), "payload.%s.mass", d->pay_name[j]);
        add_vec(&t, "m", OFF2(pay_at, j, 0, 3), "payload", d->pay_name[j], "at");
        for (k = 0; k < 6; ++k)
            add(&t, "kg m^2", OFF2(pay_inertia, j, k, 6), "payload.%s.inertia.%s", d->pay_name[j], inertia_names[k]);
    }

    for (s = 0; s < m->nsignal; ++s) {
        for (k = 0; k < m->sig_n[s]; ++k)
            add(&t, "s", OFF1(knot_t, m->sig_start[s] + k), "signal.%s.t.%d", d->signal_name[s],
                k);
        for (k = 0; k < m->sig_n[s]; ++k)
            add(&t, "", OFF1(knot_v, m->sig_start[s] + k), "signal.%s.v.%d", d->signal_name[s],
                k);
        /* every signal may be switched to a test input (seed 004 Pub. III eqs. 12-15), per
         * instance: its kind and every test parameter, whatever its kind in the file */
        add(&t, "", OFFI(sig_kind, s), "signal.%s.kind", d->signal_name[s]);
        make_enum(&t, hs_signal_kind_names, HS_SIGK_COUNT);
        for (k = 0; k < HS_TP_COUNT; ++k)
            add(&t, hs_test_param_units[k], OFF2(sig_test, s, k, HS_TP_COUNT), "signal.%s.%s",
                d->signal_name[s], hs_test_param_keys[k]);
    }

    add_hydraulics(&t, d);

    add_irules(&t, HS_IR_DT, HS_IR_RTOL); /* kernels/hs_rules.h, up to the adaptive ones */
    add_enums(&t, integ_enums, (int)(sizeof integ_enums / sizeof integ_enums[0]));
    add_irules(&t, HS_IR_RTOL, HS_IR_COUNT);
    if (m->ncyl > 0) { /* co-simulation: the cylinders are its power bonds (kernels/hs_cosim.h) */
        add_enums(&t, cosim_enums, (int)(sizeof cosim_enums / sizeof cosim_enums[0]));
        add(&t, "s", offsetof(hs_model, cosim_h_hyd), "cosim.h_hyd");
        add(&t, "", offsetof(hs_model, cosim_i1al_xi), "cosim.i1al_xi");
        add(&t, "rad/s", offsetof(hs_model, cosim_i1al_omega), "cosim.i1al_omega");
    }

    if (t.oom) {
        free(t.p);
        return hs_error_set(err, HS_ERR_IO, d->path, 0, 0, "", "out of memory");
    }
    d->param = t.p;
    d->nparam = t.n;
    return HS_OK;
}

int hs_param_find(const hs_model_desc *d, const char *name)
{
    int i;
    if (!d || !name) return -1;
    for (i = 0; i < d->nparam; ++i)
        if (strcmp(d->param[i].name, name) == 0) return i;
    return -1;
}

double hs_param_get(const hs_model_desc *d, int index)
{
    double v;
    if (!d || index < 0 || index >= d->nparam) return NAN;
    if (d->ops) return d->ops->param_get(d, index);
    if (d->param[index].type == HS_PARAM_ENUM) {
        int e;
        memcpy(&e, (const char *)&d->model + d->param[index].offset, sizeof e);
        return (double)e;
    }
    memcpy(&v, (const char *)&d->model + d->param[index].offset, sizeof v);
    return v;
}

const char *hs_param_value_name(const hs_model_desc *d, int index)
{
    const hs_param *p;
    int e;
    if (!d || index < 0 || index >= d->nparam) return NULL;
    p = &d->param[index];
    if (p->type != HS_PARAM_ENUM || !p->enum_names) return NULL;
    memcpy(&e, (const char *)&d->model + p->offset, sizeof e);
    return e >= 0 && e < p->n_enum ? p->enum_names[e] : NULL;
}

/* "a (0), b (1), ...", or "0, 1, ..., integrate" where the integers are not values
 * (hs_param_enum_by_index) */
static void enum_list(const hs_param *p, char *buf, size_t n)
{
    size_t used = 0;
    int k, idx = hs_param_enum_by_index(p);
    buf[0] = '\0';
    for (k = 0; k < p->n_enum && used < n; ++k) {
        int w = idx ? snprintf(buf + used, n - used, "%s%s (%d)", k ? ", " : "", p->enum_names[k], k)
                    : snprintf(buf + used, n - used, "%s%s", k ? ", " : "", p->enum_names[k]);
        if (w > 0) used += (size_t)w;
    }
}

/* The error for a name that is not a parameter of d, with the closest names. */
static int unknown_param(const hs_model_desc *d, const char *name, hs_error *err)
{
    char near[400];
    hs_param_suggest(d, name, near, sizeof near);
    return hs_error_set(err, HS_ERR_ARG, "", 0, 0, name,
                        "unknown parameter of model %s%s ('hydrosweep info %s' lists them)",
                        d->name[0] ? d->name : "?", near, d->path[0] ? d->path : "MODEL");
}

int hs_param_enum_by_index(const hs_param *p)
{
    int k;
    for (k = 0; k < p->n_enum; ++k)
        if (p->enum_names[k][0] >= '0' && p->enum_names[k][0] <= '9') return 0;
    return 1;
}

int hs_param_set(hs_model_desc *d, const char *name, double value, hs_error *err)
{
    hs_model *saved;
    int i, rc;
    if (!d || !name) return hs_error_set(err, HS_ERR_ARG, "", 0, 0, "", "no model or name");
    i = hs_param_find(d, name);
    if (i < 0) return unknown_param(d, name, err);
    if (d->ops) return d->ops->param_set(d, i, value, err);
    if (d->param[i].type == HS_PARAM_ENUM &&
        !(value >= 0.0 && value < d->param[i].n_enum && value == floor(value))) {
        char list[400];
        enum_list(&d->param[i], list, sizeof list);
        return hs_error_set(err, HS_ERR_VALUE, "", 0, 0, name, "must be one of: %s", list);
    }
    if (d->param[i].integer &&
        !(value == floor(value) && value >= d->param[i].lo && value <= d->param[i].hi))
        return hs_error_set(err, HS_ERR_VALUE, "", 0, 0, name,
                            "takes integer values in [%.17g, %.17g] only, not %.17g",
                            d->param[i].lo, d->param[i].hi, value);
    /* Deriving normalises axes in place and recomputes inertia, so restoring the one value
     * would not undo a failed change: keep the whole model. */
    saved = (hs_model *)malloc(sizeof *saved);
    if (!saved) return hs_error_set(err, HS_ERR_IO, "", 0, 0, name, "out of memory");
    memcpy(saved, &d->model, sizeof *saved);
    if (d->param[i].type == HS_PARAM_ENUM) {
        int e = (int)value;
        memcpy((char *)&d->model + d->param[i].offset, &e, sizeof e);
    } else {
        memcpy((char *)&d->model + d->param[i].offset, &value, sizeof value);
    }
    /* re-derives sizes too: a friction model switch changes nfs and nx */
    hs_model_derive(&d->model);
    rc = hs_model_validate(d, err);
    if (rc != HS_OK) memcpy(&d->model, saved, sizeof *saved);
    /* the rules on dt and t_end are about both: name the one that was set */
    if (rc != HS_OK && err &&
        ((!strcmp(name, "integrator.t_end") && !strcmp(err->key, "integrator.dt")) ||
         (!strcmp(name, "integrator.dt") && !strcmp(err->key, "integrator.t_end"))))
        snprintf(err->key, sizeof err->key, "%s", name);
    free(saved);
    return rc;
}

int hs_model_set_time(hs_model_desc *d, double t_end, double dt, hs_error *err)
{
    double t0, d0;
    int rc;
    if (!d) return hs_error_set(err, HS_ERR_ARG, "", 0, 0, "", "no model");
    if (isnan(t_end) && isnan(dt)) return HS_OK;
    t0 = d->model.t_end;
    d0 = d->model.dt;
    if (!isnan(t_end)) d->model.t_end = t_end;
    if (!isnan(dt)) d->model.dt = dt;
    rc = hs_model_validate(d, err); /* t_end and dt derive nothing: the rest stays valid */
    if (rc != HS_OK) {
        d->model.t_end = t0;
        d->model.dt = d0;
        if (err && isnan(dt) && !strcmp(err->key, "integrator.dt"))
            snprintf(err->key, sizeof err->key, "integrator.t_end");
        if (err && isnan(t_end) && !strcmp(err->key, "integrator.t_end"))
            snprintf(err->key, sizeof err->key, "integrator.dt");
    }
    return rc;
}

int hs_param_set_string(hs_model_desc *d, const char *assignment, hs_error *err)
{
    char name[sizeof(((hs_param *)0)->name)], unit[32];
    const char *eq, *a, *b;
    double v;
    int i;
    if (!d || !assignment) return hs_error_set(err, HS_ERR_ARG, "", 0, 0, "", "no assignment");
    eq = strchr(assignment, '=');
    if (!eq)
        return hs_error_set(err, HS_ERR_ARG, "", 0, 0, "",
                            "'%s': expected NAME=VALUE (e.g. body.link1.mass=2kg)", assignment);
    a = assignment;
    b = eq;
    while (a < b && isspace((unsigned char)*a)) ++a;
    while (b > a && isspace((unsigned char)b[-1])) --b;
    if (b == a || (size_t)(b - a) >= sizeof name)
        return hs_error_set(err, HS_ERR_ARG, "", 0, 0, "",
                            "'%s': expected NAME=VALUE with a parameter name", assignment);
    memcpy(name, a, (size_t)(b - a));
    name[b - a] = '\0';
    i = hs_param_find(d, name);
    if (i < 0 && d->tree && (!strcmp(name, "integrator.t_end") || !strcmp(name, "integrator.dt"))) {
        /* a tree's time settings (its parameters are its bodies' and joints'): as --t-end, --dt */
        int is_dt = name[11] == 'd';
        if (hs_parse_quantity(eq + 1, &v, unit, sizeof unit) != 0 || (unit[0] && strcmp(unit, "s")))
            return hs_error_set(err, HS_ERR_ARG, "", 0, 0, name, "'%s' is not a time (a number, optionally in s)",
                                eq + 1);
        return hs_model_set_time(d, is_dt ? NAN : v, is_dt ? v : NAN, err);
    }
    if (i < 0) return unknown_param(d, name, err);
    if (d->param[i].type == HS_PARAM_ENUM) {
        /* a value name, or its integer */
        const hs_param *p = &d->param[i];
        const char *s = eq + 1, *e;
        char list[400];
        int k;
        while (isspace((unsigned char)*s)) ++s;
        e = s + strlen(s);
        while (e > s && isspace((unsigned char)e[-1])) --e;
        for (k = 0; k < p->n_enum; ++k)
            if (strlen(p->enum_names[k]) == (size_t)(e - s) &&
                !strncmp(p->enum_names[k], s, (size_t)(e - s)))
                return hs_param_set(d, name, (double)k, err);
        if (hs_param_enum_by_index(p) && hs_parse_quantity(eq + 1, &v, unit, sizeof unit) == 0 && !unit[0] &&
            v == floor(v) && v >= 0.0 && v < p->n_enum)
            return hs_param_set(d, name, v, err);
        enum_list(p, list, sizeof list);
        return hs_error_set(err, HS_ERR_ARG, "", 0, 0, name, "'%s' is not one of: %s", eq + 1,
                            list);
    }
    if (hs_parse_quantity(eq + 1, &v, unit, sizeof unit) != 0)
        return hs_error_set(err, HS_ERR_ARG, "", 0, 0, name,
                            "'%s' is not a number with an optional unit suffix", eq + 1);
    if (!hs_param_unit_fits(&d->param[i], unit))
        return hs_error_set(err, HS_ERR_ARG, "", 0, 0, name,
                            "unit of '%s' is %s, but the parameter is in %s", eq + 1, unit,
                            d->param[i].unit[0] ? d->param[i].unit : "no unit (dimensionless)");
    return hs_param_set(d, name, v, err);
}

long hs_nsteps(const hs_model *m)
{
    double r = m->t_end / m->dt;
    long n;
    /* validated models have at most HS_MAX_STEPS; anything else (NaN, a ratio beyond long)
     * must not reach the conversion, whose result would be undefined */
    if (!(r >= 0.0)) return 0;
    if (r > 2.0 * HS_MAX_STEPS) return (long)(2.0 * HS_MAX_STEPS);
    n = (long)floor(r + 0.5);
    /* t_end not a multiple of dt: cover it (the last step ends past t_end) */
    if (fabs(r - (double)n) > 1e-9 * (r > 1.0 ? r : 1.0) && (double)n < r) ++n;
    return n;
}
