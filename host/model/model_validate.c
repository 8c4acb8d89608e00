/* model_validate.c -- the physical rules of a model (hs_model_validate).
 *
 * One rule set for the loader and for hs_param_set: each broken rule reports what it was
 * about (hs_where), so the loader can point at the YAML node and parameter changes can name
 * the parameter. Call on a derived model (hs_model_derive). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "hs_linalg.h"
#include "model/model_names.h"
#include "model/model_validate.h"
#include "model/params.h"

int hs_is_integrator_key(const char *f)
{
    int i;
    for (i = 0; hs_integrator_keys[i]; ++i)
        if (!strcmp(hs_integrator_keys[i], f)) return 1;
    return 0;
}

static const char *const k_kind_prefix[] = {"", "body", "joint", "cut", "point", "load",
                                            "signal", "fluid", "source", "volume", "throttle",
                                            "valve", "cylinder", "component", "payload"};

static int vfail(const hs_model_desc *d, hs_error *err, hs_where *w, int kind, int index,
                 const char *field, int comp, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 9, 10)))
#endif
    ;

static int vfail(const hs_model_desc *d, hs_error *err, hs_where *w, int kind, int index,
                 const char *field, int comp, int code, const char *fmt, ...)
{
    char key[128], msg[512];
    const char *nm = "";
    va_list ap;
    if (w) {
        w->kind = kind;
        w->index = index;
        w->comp = comp;
        snprintf(w->field, sizeof w->field, "%s", field);
    }
    { /* the entry's name, by kind (HS_WHERE_*: those with names) */
        const char(*const names[])[HS_NAME_LEN] = {NULL,          d->body_name, d->joint_name, d->cut_name,
                                                   d->point_name, d->load_name, d->signal_name, NULL,
                                                   d->src_name,   d->vol_name,  d->thr_name,    d->dcv_name,
                                                   d->cyl_name,   d->cmp_name,  d->pay_name};
        if (kind >= 0 && kind < (int)(sizeof names / sizeof names[0]) && names[kind]) nm = names[kind][index];
    }
    if (kind == HS_WHERE_PARAM)
        snprintf(key, sizeof key, "%s", d->param[index].name);
    else if (kind == HS_WHERE_MODEL)
        snprintf(key, sizeof key, "%s%s", hs_is_integrator_key(field) ? "integrator." : "", field);
    else if (kind == HS_WHERE_FLUID)
        snprintf(key, sizeof key, "fluid.%s", field);
    else if (kind == HS_WHERE_SIGNAL && comp >= 0)
        snprintf(key, sizeof key, "signal.%s.t.%d", nm, comp);
    else
        snprintf(key, sizeof key, "%s.%s.%s", k_kind_prefix[kind], nm, field);
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return hs_error_set(err, code, "", 0, 0, key, "%s", msg);
}

/* The usual broken rule: a value (HS_ERR_VALUE) of the whole field (comp -1), in a function of d, err and w. */
#define VF(kind, index, field, ...) vfail(d, err, w, kind, index, field, -1, HS_ERR_VALUE, __VA_ARGS__)

/* The two bodies (-1: ground) that a cut or a cylinder joins: in range, and not one. */
static int check_ends(const hs_model_desc *d, hs_error *err, hs_where *w, int kind, int i, int a, int b)
{
    if (a < -1 || a >= d->model.nbody || b < -1 || b >= d->model.nbody)
        return VF(kind, i, "body_a", "body index out of range");
    if (a == b) return VF(kind, i, "body_b", "body_a and body_b must differ");
    return HS_OK;
}

/* The rule broken when a field that must be positive is not ("<field> must be > 0"). */
static int need_pos(const hs_model_desc *d, hs_error *err, hs_where *w, int kind, int index, const char *field)
{
    return VF(kind, index, field, "%s must be > 0", field);
}

static double norm3(const double v[3])
{
    return sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
}

/* |cos| of the angle between two non-zero vectors. */
static double cos_abs(const double a[3], const double b[3])
{
    return fabs(a[0] * b[0] + a[1] * b[1] + a[2] * b[2]) / (norm3(a) * norm3(b));
}

/* The integrator's settings against their one table of rules (kernels/hs_rules.h), which
 * sweeps' drawn values meet too (hs_model_values_ok): the first rule broken, named by its key
 * (the step count after the one further from its usual size; the steps' order after the one
 * that moved from its default), with the values involved. */
static int integrator_rules(const hs_model_desc *d, hs_error *err, hs_where *w)
{
    const hs_model *m = &d->model;
    int r = hs_irule_broken(m);
    if (r < 0) return HS_OK;
    if (r == HS_IR_DT || r == HS_IR_T_END) {
        if (!(m->dt > 0.0 && m->dt <= m->t_end))
            return VF(HS_WHERE_MODEL, 0, "dt", "dt must be > 0 and <= t_end (dt = %g s, t_end = %g "
                      "s)", m->dt, m->t_end);
        /* named after the one further from its usual size (t_end ~ 1 s, dt ~ 1 ms) */
        return vfail(d, err, w, HS_WHERE_MODEL, 0, m->t_end * m->dt > 1e-3 ? "t_end" : "dt", -1,
                     HS_ERR_LIMIT,
                     "t_end / dt must be at most %.0e steps (HS_MAX_STEPS), is %.3g (t_end = %g "
                     "s, dt = %g s): raise dt or shorten t_end",
                     HS_MAX_STEPS, m->t_end / m->dt, m->t_end, m->dt);
    }
    if (r == HS_IR_H_MIN || r == HS_IR_H_INIT || r == HS_IR_H_MAX)
        return vfail(d, err, w, HS_WHERE_MODEL, 0,
                     /* named after the one that moved from its default (h_init 1e-4 s) */
                     !(m->h_min > 0.0)        ? "h_min"
                     : m->h_init < m->h_min ? (m->h_init == 1e-4 ? "h_min" : "h_init")
                                            : (m->h_init == 1e-4 ? "h_max" : "h_init"),
                     -1, HS_ERR_VALUE,
                     "the steps must satisfy 0 < h_min <= h_init <= h_max (h_min = %g s, h_init = %g s, "
                     "h_max = %g s)",
                     m->h_min, m->h_init, m->h_max);
    return VF(HS_WHERE_MODEL, 0, hs_irules[r].key, "%s (is %.17g)", hs_irules[r].text,
              hs_irule_value(m, r));
}

/* Eigenvalues of the symmetric inertia matrix (xx yy zz xy xz yz) by cyclic Jacobi. */
static void principal_moments(const double J[6], double lam[3])
{
    double A[3][3];
    int sweep, p, q, k;
    A[0][0] = J[0];
    A[1][1] = J[1];
    A[2][2] = J[2];
    A[0][1] = A[1][0] = J[3];
    A[0][2] = A[2][0] = J[4];
    A[1][2] = A[2][1] = J[5];
    for (sweep = 0; sweep < 50; ++sweep) {
        double off = fabs(A[0][1]) + fabs(A[0][2]) + fabs(A[1][2]);
        if (off <= 1e-300) break;
        for (p = 0; p < 2; ++p)
            for (q = p + 1; q < 3; ++q) {
                double th, t, cs, sn;
                if (A[p][q] == 0.0) continue;
                th = (A[q][q] - A[p][p]) / (2.0 * A[p][q]);
                t = (th >= 0 ? 1.0 : -1.0) / (fabs(th) + sqrt(th * th + 1.0));
                cs = 1.0 / sqrt(t * t + 1.0);
                sn = t * cs;
                for (k = 0; k < 3; ++k) { /* A <- A G (columns p, q) */
                    double akp = A[k][p], akq = A[k][q];
                    A[k][p] = cs * akp - sn * akq;
                    A[k][q] = sn * akp + cs * akq;
                }
                for (k = 0; k < 3; ++k) { /* A <- G^T A (rows p, q) */
                    double apk = A[p][k], aqk = A[q][k];
                    A[p][k] = cs * apk - sn * aqk;
                    A[q][k] = sn * apk + cs * aqk;
                }
            }
    }
    lam[0] = A[0][0];
    lam[1] = A[1][1];
    lam[2] = A[2][2];
}

static int check_limits(const hs_model_desc *d, hs_error *err, hs_where *w)
{
    const hs_model *m = &d->model;
    if (m->nbody < 1 || m->nbody > HS_MAX_BODIES)
        return vfail(d, err, w, HS_WHERE_MODEL, 0, "bodies", -1, HS_ERR_LIMIT,
                     "a model needs 1 to HS_MAX_BODIES = %d bodies, has %d", HS_MAX_BODIES,
                     m->nbody);
    if (m->nvol < 0 || m->nvol > HS_MAX_VOLS || m->nsrc < 0 || m->nsrc > HS_MAX_SRCS ||
        m->nthr < 0 || m->nthr > HS_MAX_THR || m->ndcv < 0 || m->ndcv > HS_MAX_DCV ||
        m->ncyl < 0 || m->ncyl > HS_MAX_CYLS || m->ncmp < 0 || m->ncmp > HS_MAX_CMP || m->nfs < 0 ||
        m->nfs > HS_MAX_FS || m->nmot < 0 || m->nmot > HS_MAX_MOT)
        return vfail(d, err, w, HS_WHERE_MODEL, 0, "hydraulics", -1, HS_ERR_LIMIT,
                     "a hydraulic size exceeds its limit (volumes %d of HS_MAX_VOLS = %d, "
                     "sources %d of HS_MAX_SRCS = %d, throttles %d of HS_MAX_THR = %d, valves "
                     "%d of HS_MAX_DCV = %d, cylinders %d of HS_MAX_CYLS = %d, components %d of "
                     "HS_MAX_CMP = %d, friction and component states %d of HS_MAX_FS = %d, motors %d of "
                     "HS_MAX_MOT = %d)",
                     m->nvol, HS_MAX_VOLS, m->nsrc, HS_MAX_SRCS, m->nthr, HS_MAX_THR, m->ndcv,
                     HS_MAX_DCV, m->ncyl, HS_MAX_CYLS, m->ncmp, HS_MAX_CMP, m->nfs, HS_MAX_FS, m->nmot,
                     HS_MAX_MOT);
    if (m->nz != m->nbody || m->nx != m->nz + m->nvol + m->nfs)
        return vfail(d, err, w, HS_WHERE_MODEL, 0, "bodies", -1, HS_ERR_LIMIT,
                     "inconsistent sizes: nz = %d, nvol = %d, nfs = %d, nx = %d (call "
                     "hs_model_derive)",
                     m->nz, m->nvol, m->nfs, m->nx);
    if (m->nx > HS_MAX_X)
        return vfail(d, err, w, HS_WHERE_MODEL, 0, m->nfs > 0 ? "hydraulics" : "bodies", -1,
                     HS_ERR_LIMIT,
                     "too many Newton unknowns: nx = nz + nvol + nfs = %d + %d + %d = %d "
                     "(HS_MAX_X is %d)",
                     m->nz, m->nvol, m->nfs, m->nx, HS_MAX_X);
    if (m->ncut < 0 || m->ncut > HS_MAX_CUTS || m->ncon < 0 || m->ncon > HS_MAX_CON ||
        m->npoint < 0 || m->npoint > HS_MAX_POINTS || m->nload < 0 ||
        m->nload > HS_MAX_LOADS || m->nsignal < 0 || m->nsignal > HS_MAX_SIGNALS ||
        m->nknot < 0 || m->nknot > HS_MAX_KNOTS)
        return vfail(d, err, w, HS_WHERE_MODEL, 0, "", -1, HS_ERR_LIMIT,
                     "a size exceeds its HS_MAX_* limit (cuts %d, equations %d, points %d, "
                     "loads %d, signals %d, knots %d)",
                     m->ncut, m->ncon, m->npoint, m->nload, m->nsignal, m->nknot);
    return HS_OK;
}

static int check_bodies_joints(const hs_model_desc *d, hs_error *err, hs_where *w)
{
    static const char *const dims[3] = {"length", "width", "height"};
    const hs_model *m = &d->model;
    int j, k;
    for (j = 0; j < m->nbody; ++j) {
        int sh = m->body_shape[j], ndim;
        if (m->body_parent[j] < -1 || m->body_parent[j] >= j)
            return VF(HS_WHERE_JOINT, j, "parent", "the parent must precede the child (the loader "
                      "sorts bodies)");
        if (sh < HS_SHAPE_CUSTOM || sh > HS_SHAPE_POINT)
            return VF(HS_WHERE_BODY, j, "shape", "unknown shape %d", sh);
        if (m->joint_ball[j] < 0 || m->joint_ball[j] > 3 ||
            (m->joint_ball[j] != 0) != (m->joint_type[j] == HS_JOINT_BALL) ||
            (m->joint_ball[j] > 1 && (m->joint_ball[j - 1] != m->joint_ball[j] - 1 || m->body_parent[j] != j - 1)))
            return VF(HS_WHERE_JOINT, j, "type", "a ball joint is three consecutive bodies, each "
                      "the parent of the next");
        if (m->joint_type[j] == HS_JOINT_BALL && m->joint_ball[j] < 3) {
            /* a ball joint's first two bodies: massless, in the parent's frame */
            if (m->body_mass[j] != 0.0 || m->body_shape[j] != HS_SHAPE_CUSTOM)
                return VF(HS_WHERE_JOINT, j, "type", "a ball joint's first two bodies are massless");
            continue;
        }
        if (m->joint_ball[j] == 3) {
            /* the child of a ball joint needs inertia about every axis through the joint point:
             * its spin about an axis without is undetermined (M is singular) */
            if (!hs_inertia_full_about(m->body_mass[j], m->body_com[j], m->joint_at_child[j], m->body_inertia[j]))
                return VF(HS_WHERE_BODY, j, "shape", "the body on ball joint '%.*s' has no inertia "
                          "about an axis through the joint point (a rod's J_xx = 0): its spin "
                          "about that axis is undetermined; give it a section (shape: beam) or a "
                          "custom inertia, or use a revolute joint",
                          (int)strlen(d->joint_name[j]) - 2, d->joint_name[j]); /* <joint>.z */
        }
        if (!(m->body_mass[j] > 0.0)) return need_pos(d, err, w, HS_WHERE_BODY, j, "mass");
        ndim = sh == HS_SHAPE_ROD ? 1 : (sh == HS_SHAPE_BEAM || sh == HS_SHAPE_CUBOID) ? 3 : 0;
        for (k = 0; k < ndim; ++k)
            if (!(m->body_dim[j][k] > 0.0)) return need_pos(d, err, w, HS_WHERE_BODY, j, dims[k]);
        if (sh == HS_SHAPE_CUSTOM) {
            double lam[3], s, tol;
            principal_moments(m->body_inertia[j], lam);
            s = lam[0] + lam[1] + lam[2];
            tol = 1e-12 * fabs(s);
            if (!(lam[0] > 0.0 && lam[1] > 0.0 && lam[2] > 0.0) ||
                lam[0] + lam[1] < lam[2] - tol || lam[0] + lam[2] < lam[1] - tol ||
                lam[1] + lam[2] < lam[0] - tol)
                return VF(HS_WHERE_BODY, j, "inertia", "inertia must be positive definite and "
                          "satisfy the triangle inequality (principal moments %.6g, %.6g, %.6g kg "
                          "m^2)", lam[0], lam[1], lam[2]);
        }
        if (m->joint_type[j] != HS_JOINT_REVOLUTE && m->joint_type[j] != HS_JOINT_PRISMATIC &&
            m->joint_type[j] != HS_JOINT_BALL)
            return VF(HS_WHERE_JOINT, j, "type", "unknown joint type %d", m->joint_type[j]);
        if (!(norm3(m->joint_axis[j]) > 0.0))
            return VF(HS_WHERE_JOINT, j, "axis", "axis must be non-zero");
        {
            /* rot0 comes from Rodrigues; a hand-made model could hold anything */
            const double *R = m->joint_rot0[j];
            double dev = 0.0, det;
            int a, b, e;
            for (a = 0; a < 3; ++a)
                for (b = 0; b < 3; ++b) {
                    double s = 0.0;
                    for (e = 0; e < 3; ++e) s += R[3 * a + e] * R[3 * b + e];
                    dev = fmax(dev, fabs(s - (a == b ? 1.0 : 0.0)));
                }
            det = R[0] * (R[4] * R[8] - R[5] * R[7]) - R[1] * (R[3] * R[8] - R[5] * R[6]) +
                  R[2] * (R[3] * R[7] - R[4] * R[6]);
            if (!(dev < 1e-9) || !(det > 0.0))
                return VF(HS_WHERE_JOINT, j, "rotation0", "rotation0 must be a proper rotation "
                          "matrix");
        }
    }
    return HS_OK;
}

static int check_cuts(const hs_model_desc *d, hs_error *err, hs_where *w)
{
    const hs_model *m = &d->model;
    int c, rc;
    for (c = 0; c < m->ncut; ++c) {
        int ty = m->cut_type[c];
        if (ty < HS_CUT_REVOLUTE || ty > HS_CUT_NONHOLONOMIC)
            return VF(HS_WHERE_CUT, c, "type", "unknown cut type %d", ty);
        if ((rc = check_ends(d, err, w, HS_WHERE_CUT, c, m->cut_body_a[c], m->cut_body_b[c]))) return rc;
        if (ty != HS_CUT_REVOLUTE_PLANAR && ty != HS_CUT_NONHOLONOMIC && !(norm3(m->cut_axis_a[c]) > 0.0))
            return VF(HS_WHERE_CUT, c, "axis_a", "axis_a must be non-zero");
        if (!(norm3(m->cut_axis_b[c]) > 0.0))
            return VF(HS_WHERE_CUT, c, "axis_b", "axis_b must be non-zero");
        if (ty == HS_CUT_PRISMATIC) {
            if (!(norm3(m->cut_normal_a[c]) > 0.0) ||
                !(cos_abs(m->cut_normal_a[c], m->cut_axis_a[c]) <= 1e-9))
                return VF(HS_WHERE_CUT, c, "normal_a", "normal_a must be non-zero and "
                          "perpendicular to axis_a");
        }
        if (ty == HS_CUT_PRISMATIC || ty == HS_CUT_PRISMATIC_PLANAR) {
            if (!(norm3(m->cut_normal_b[c]) > 0.0) ||
                !(cos_abs(m->cut_normal_b[c], m->cut_axis_b[c]) <= 1e-9))
                return VF(HS_WHERE_CUT, c, "normal_b", "normal_b must be non-zero and "
                          "perpendicular to axis_b");
        }
    }
    return HS_OK;
}

/* The loads (on bodies 0 .. nbody - 1) and the signals. */
static int check_inputs(const hs_model_desc *d, int nbody, hs_error *err, hs_where *w)
{
    const hs_model *m = &d->model;
    int i, k, triple;
    for (i = 0; i < m->nload; ++i) {
        if (m->load_body[i] < 0 || m->load_body[i] >= nbody)
            return VF(HS_WHERE_LOAD, i, "body", "body index out of range");
        if (m->load_frame[i] != HS_FRAME_GLOBAL && m->load_frame[i] != HS_FRAME_BODY)
            return VF(HS_WHERE_LOAD, i, "frame", "unknown frame %d", m->load_frame[i]);
        if (m->load_force_sig[i] < -1 || m->load_force_sig[i] >= m->nsignal ||
            m->load_torque_sig[i] < -1 || m->load_torque_sig[i] >= m->nsignal)
            return VF(HS_WHERE_LOAD, i, "force_signal", "signal index out of range");
    }
    for (i = 0; i < m->nsignal; ++i) {
        const double *t = m->knot_t + m->sig_start[i];
        int n = m->sig_n[i], kind = m->sig_kind[i];
        /* the test inputs' rules, whatever the kind (a sweep may switch it): hs_test_input.h */
        if (kind < 0 || kind >= HS_SIGK_COUNT)
            return VF(HS_WHERE_SIGNAL, i, "kind", "unknown signal kind %d", kind);
        for (k = 0; k < HS_TP_COUNT; ++k)
            if (hs_test_param_broken(k, m->sig_test[i][k]))
                return VF(HS_WHERE_SIGNAL, i, hs_test_param_keys[k], "%s (got %.10g)",
                          hs_test_param_rules[k], m->sig_test[i][k]);
        if (n < 0 || m->sig_start[i] < 0 || m->sig_start[i] + n > m->nknot ||
            (n < 1 && kind == HS_SIGK_KNOTS))
            return VF(HS_WHERE_SIGNAL, i, "knots", "a signal of kind knots needs at least one knot "
                      "inside the knot table");
        if ((k = hs_knots_broken(t, n, &triple)) >= 0)
            return triple ? vfail(d, err, w, HS_WHERE_SIGNAL, i, "knots", k, HS_ERR_VALUE,
                                  "at most two knots may share a time (a jump)")
                          : vfail(d, err, w, HS_WHERE_SIGNAL, i, "knots", k, HS_ERR_VALUE,
                                  "knot times must be non-decreasing (%.10g after %.10g)", t[k], t[k - 1]);
    }
    return HS_OK;
}

int hs_model_validate_inputs(const hs_model_desc *d, int nbody, hs_error *err, hs_where *w)
{
    if (w) memset(w, 0, sizeof *w);
    if (d->model.nload < 0 || d->model.nload > HS_MAX_LOADS || d->model.nsignal < 0 ||
        d->model.nsignal > HS_MAX_SIGNALS || d->model.nknot < 0 || d->model.nknot > HS_MAX_KNOTS)
        return vfail(d, err, w, HS_WHERE_MODEL, 0, "", -1, HS_ERR_LIMIT, "a size exceeds its HS_MAX_* limit");
    return check_inputs(d, nbody, err, w);
}

static int check_rest(const hs_model_desc *d, hs_error *err, hs_where *w)
{
    const hs_model *m = &d->model;
    int i, rc;
    for (i = 0; i < m->npay; ++i) { /* payloads (the loader checks their signals) */
        if (m->pay_body[i] < 0 || m->pay_body[i] >= m->nbody)
            return VF(HS_WHERE_PAYLOAD, i, "body", "body index out of range");
        if (!(m->pay_mass[i] > 0.0)) return VF(HS_WHERE_PAYLOAD, i, "mass", "mass must be > 0");
        if (!(m->pay_inertia[i][0] >= 0.0 && m->pay_inertia[i][1] >= 0.0 && m->pay_inertia[i][2] >= 0.0))
            return VF(HS_WHERE_PAYLOAD, i, "inertia", "the moments of inertia (xx, yy, zz) must be >= 0");
    }
    for (i = 0; i < m->npoint; ++i)
        if (m->point_body[i] < -1 || m->point_body[i] >= m->nbody)
            return VF(HS_WHERE_POINT, i, "body", "body index out of range");
    if ((rc = check_inputs(d, m->nbody, err, w))) return rc;
    if ((rc = integrator_rules(d, err, w))) return rc;
    if (m->formulation != HS_FORM_PENALTY && m->formulation != HS_FORM_DOUBLE_STEP)
        return VF(HS_WHERE_MODEL, 0, "formulation", "formulation must be penalty or double_step");
    if (m->formulation == HS_FORM_DOUBLE_STEP && m->nnh > 0) {
        int c, cn = 0;
        for (c = 0; c < m->ncut; ++c)
            if (m->cut_type[c] == HS_CUT_NONHOLONOMIC) cn = c;
        /* seed 000's coordinate partitioning solves Phi(z) = 0 for the dependent
         * coordinates: a constraint on velocities only has no position equation to solve */
        return VF(HS_WHERE_MODEL, 0, "formulation", "formulation double_step handles holonomic "
                  "cuts only; cut '%s' is nonholonomic: use formulation penalty", d->cut_name[cn]);
    }
    if (m->step != HS_STEP_FIXED && m->step != HS_STEP_ADAPTIVE)
        return VF(HS_WHERE_MODEL, 0, "step", "step must be fixed or adaptive");
    if (m->method < HS_METHOD_TRAPEZOIDAL || m->method > HS_METHOD_AUTO)
        return VF(HS_WHERE_MODEL, 0, "method", "method must be trapezoidal, esdirk3, esdirk4 or "
                  "auto");
    if ((m->method == HS_METHOD_ESDIRK3 || m->method == HS_METHOD_ESDIRK4) && m->step != HS_STEP_ADAPTIVE)
        return VF(HS_WHERE_MODEL, 0, "method", "method %s needs step: adaptive (fixed steps are "
                  "the seeds' trapezoidal rule)",
                  m->method == HS_METHOD_ESDIRK3 ? "esdirk3" : "esdirk4");
    if ((m->method == HS_METHOD_ESDIRK3 || m->method == HS_METHOD_ESDIRK4) && m->formulation != HS_FORM_PENALTY)
        return VF(HS_WHERE_MODEL, 0, "method", "method %s needs formulation: penalty (the "
                  "double-step formulation takes trapezoidal steps only)",
                  m->method == HS_METHOD_ESDIRK3 ? "esdirk3" : "esdirk4");
    {
        /* the co-simulation's rules: kernels/hs_rules.h */
#define HS_CRULE_KEY_(ID, key, text) key,
#define HS_CRULE_TEXT_(ID, key, text) text,
        static const char *const ck[HS_CR_COUNT] = {HS_COSIM_RULES(HS_CRULE_KEY_)};
        static const char *const ct[HS_CR_COUNT] = {HS_COSIM_RULES(HS_CRULE_TEXT_)};
#undef HS_CRULE_KEY_
#undef HS_CRULE_TEXT_
        int r = hs_crule_broken(m);
        if (r == HS_CR_H_HYD_STEPS)
            return vfail(d, err, w, HS_WHERE_MODEL, 0, ck[r], -1, HS_ERR_LIMIT,
                         "%s: t_end / h_hyd = %.3g steps (t_end = %g s, h_hyd = %g s)", ct[r],
                         m->t_end / m->cosim_h_hyd, m->t_end, m->cosim_h_hyd);
        if (r >= 0) return VF(HS_WHERE_MODEL, 0, ck[r], "%s", ct[r]);
    }
    return HS_OK;
}

/* ---- hydraulics ---- */

/* 1 if the parameter named by the printf-style arguments exists (an optional part was given). */
static int has_param(const hs_model_desc *d, const char *fmt, const char *name, const char *tail)
{
    char buf[sizeof(((hs_param *)0)->name)];
    snprintf(buf, sizeof buf, fmt, name, tail);
    return hs_param_find(d, buf) >= 0;
}

/* A friction rule of cylinder c, about parameter k. */
static int ffail(const hs_model_desc *d, hs_error *err, hs_where *w, int c, int k,
                 const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;

static int ffail(const hs_model_desc *d, hs_error *err, hs_where *w, int c, int k,
                 const char *fmt, ...)
{
    char field[32], msg[400];
    va_list ap;
    snprintf(field, sizeof field, "friction.%s", hs_fric_param_keys[k]);
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return VF(HS_WHERE_CYLINDER, c, field, "%s", msg);
}

/* The parameter rules of each friction model (docs/model-format.md lists what each uses). */
static int check_friction(const hs_model_desc *d, hs_error *err, hs_where *w, int c)
{
    const hs_model *m = &d->model;
    const double *fp = m->cyl_fp[c];
    int f = m->cyl_fric[c], k;
    const char *mn;
    if (f < 0 || f >= HS_FRICTION_COUNT)
        return VF(HS_WHERE_CYLINDER, c, "friction.model", "unknown friction model %d", f);
    mn = hs_friction_names[f];
    if (!(fp[HS_FP_SIGMA2] >= 0.0))
        return ffail(d, err, w, c, HS_FP_SIGMA2, "sigma2 must be >= 0");
    if (f == HS_FRIC_BROWN_MCPHEE || f == HS_FRIC_BENGISU_AKAY || f == HS_FRIC_LUGRE ||
        f == HS_FRIC_LUGRE_MOD) {
        if (!(fp[HS_FP_VS] > 0.0))
            return ffail(d, err, w, c, HS_FP_VS, "vs must be > 0 (friction model %s uses it)",
                         mn);
        if (!(fp[HS_FP_FC] >= 0.0 && fp[HS_FP_FC] <= fp[HS_FP_FS]))
            return ffail(d, err, w, c, HS_FP_FC,
                         "Stribeck models (here %s) need 0 <= Fc <= Fs (Fc = %g N, Fs = %g N)",
                         mn, fp[HS_FP_FC], fp[HS_FP_FS]);
    }
    if (f == HS_FRIC_BENGISU_AKAY && !(fp[HS_FP_XI] >= 0.0))
        return ffail(d, err, w, c, HS_FP_XI, "xi must be >= 0 (0: use 1/vs)");
    if (f == HS_FRIC_LUGRE || f == HS_FRIC_LUGRE_MOD) {
        if (!(fp[HS_FP_SIGMA0] > 0.0))
            return ffail(d, err, w, c, HS_FP_SIGMA0, "sigma0 must be > 0 (friction model %s)",
                         mn);
        if (!(fp[HS_FP_SIGMA1] >= 0.0))
            return ffail(d, err, w, c, HS_FP_SIGMA1, "sigma1 must be >= 0 (friction model %s)",
                         mn);
        if (!(fp[HS_FP_N] > 0.0))
            return ffail(d, err, w, c, HS_FP_N, "n must be > 0 (friction model %s)", mn);
    }
    if (f == HS_FRIC_LUGRE_MOD) {
        if (!(fp[HS_FP_FS] > 0.0))
            return ffail(d, err, w, c, HS_FP_FS, "Fs must be > 0 (friction model %s)", mn);
        if (!(fp[HS_FP_VB] >= 0.0))
            return ffail(d, err, w, c, HS_FP_VB, "vb must be >= 0 (0: use 3 vs)");
        for (k = HS_FP_TAU_HP; k <= HS_FP_TAU_H0; ++k)
            if (!(fp[k] > 0.0))
                return ffail(d, err, w, c, k, "%s must be > 0 (friction model %s)",
                             hs_fric_param_keys[k], mn);
    }
    if (f == HS_FRIC_EFFICIENCY_PRINTED || f == HS_FRIC_EFFICIENCY) {
        if (!(fp[HS_FP_ETA] > 0.0 && fp[HS_FP_ETA] <= 1.0))
            return ffail(d, err, w, c, HS_FP_ETA, "eta must satisfy 0 < eta <= 1 (got %g)",
                         fp[HS_FP_ETA]);
    }
    if (f == HS_FRIC_EFFICIENCY && !(fp[HS_FP_VEPS] > 0.0))
        return ffail(d, err, w, c, HS_FP_VEPS, "v_eps must be > 0 (friction model %s)", mn);
    if (f == HS_FRIC_VISCOUS && !(fp[HS_FP_C] >= 0.0))
        return ffail(d, err, w, c, HS_FP_C, "c must be >= 0");
    return HS_OK;
}

static int check_cylinders(const hs_model_desc *d, hs_error *err, hs_where *w)
{
    const hs_model *m = &d->model;
    int c, rc;
    for (c = 0; c < m->ncyl; ++c) {
        int vp = m->cyl_vol_p[c], vr = m->cyl_vol_r[c], mode = m->cyl_init[c];
        if ((rc = check_ends(d, err, w, HS_WHERE_CYLINDER, c, m->cyl_body_a[c], m->cyl_body_b[c]))) return rc;
        if (!(m->cyl_d_piston[c] > 0.0)) return need_pos(d, err, w, HS_WHERE_CYLINDER, c, "d_piston");
        if (!(m->cyl_d_rod[c] > 0.0 && m->cyl_d_rod[c] < m->cyl_d_piston[c]))
            return VF(HS_WHERE_CYLINDER, c, "d_rod", "d_rod must be > 0 and < d_piston (d_rod = %g "
                      "m, d_piston = %g m)", m->cyl_d_rod[c], m->cyl_d_piston[c]);
        if (!(m->cyl_stroke[c] > 0.0)) return need_pos(d, err, w, HS_WHERE_CYLINDER, c, "stroke");
        if (!(m->cyl_l_p0[c] > 0.0 && m->cyl_l_p0[c] < m->cyl_stroke[c]))
            return VF(HS_WHERE_CYLINDER, c, "l_piston0", "l_piston0 must satisfy 0 < l_piston0 < "
                      "stroke (l_piston0 = %g m, stroke = %g m)", m->cyl_l_p0[c], m->cyl_stroke[c]);
        if (!(m->cyl_B[c] > 0.0)) return need_pos(d, err, w, HS_WHERE_CYLINDER, c, "B_wall");
        if (vp < 0 || vp >= m->nvol || m->vol_cyl[vp] != c || m->vol_side[vp] != 0)
            return VF(HS_WHERE_CYLINDER, c, "piston_volume", "the piston-side volume must be a "
                      "volume marked as this cylinder's piston chamber (vol_cyl, vol_side)");
        if (vr < 0 || vr >= m->nvol || vr == vp || m->vol_cyl[vr] != c || m->vol_side[vr] != 1)
            return VF(HS_WHERE_CYLINDER, c, "rod_volume", "the rod-side volume must be another "
                      "volume marked as this cylinder's rod chamber (vol_cyl, vol_side)");
        if ((rc = check_friction(d, err, w, c)) != HS_OK) return rc;
        if (m->cyl_ld[c] < 0.0 ||
            (m->cyl_ld[c] == 0.0 && has_param(d, "cylinder.%s.%s", d->cyl_name[c],
                                              "end_dampers.l_d")))
            return VF(HS_WHERE_CYLINDER, c, "end_dampers.l_d", "l_d must be > 0");
        if (!(m->cyl_kd[c] >= 0.0))
            return VF(HS_WHERE_CYLINDER, c, "end_dampers.k_d", "k_d must be >= 0");
        if (!(m->cyl_cd[c] >= 0.0))
            return VF(HS_WHERE_CYLINDER, c, "end_dampers.c_d", "c_d must be >= 0");
        if (mode < HS_CYLINIT_PRESSURES || mode > HS_CYLINIT_FORCE)
            return VF(HS_WHERE_CYLINDER, c, "init.mode", "unknown init mode %d", mode);
        if (mode != HS_CYLINIT_PRESSURES && !(m->cyl_init_p[c] >= 0.0))
            return VF(HS_WHERE_CYLINDER, c, "init.p", "the initial chamber pressure must be >= 0 "
                      "(absolute)");
    }
    return HS_OK;
}

/* hydraulics.components: nodes, each parameter's rule (HS_COMPONENT_PARAMS), and the rules
 * between parameters and components. */
static int check_components(const hs_model_desc *d, hs_error *err, hs_where *w)
{
    const hs_model *m = &d->model;
    int nnode = m->nvol + m->nsrc, i, k, j;
    for (i = 0; i < m->ncmp; ++i) {
        int type = m->cmp_type[i], a = m->cmp_a[i], b = m->cmp_b[i];
        const double *par = m->cmp_par[i];
        if (type == HS_CMP_HOSE && !(par[HS_CP_HO_NSEG] >= 1.0 && par[HS_CP_HO_NSEG] <= HS_HOSE_MAX_SEG &&
                                     par[HS_CP_HO_NSEG] == floor(par[HS_CP_HO_NSEG])))
            return VF(HS_WHERE_COMPONENT, i, "segments", "segments must be an integer from 1 to "
                      "%d, not %g", HS_HOSE_MAX_SEG, par[HS_CP_HO_NSEG]);
        if (m->cmp_dyn[i] != hs_cmp_nstates(type, par) && hs_cmp_tau_slot(type) < 0)
            return VF(HS_WHERE_COMPONENT, i, "type", "cmp_dyn must be %d for this type",
                      hs_cmp_nstates(type, par));
        if (type == HS_CMP_HOSE) { /* its internal volumes (the loader's) and its ends */
            int n = m->cmp_dyn[i], r = m->cmp_ref[i];
            if (n > 1 ? r < 0 || r + n - 1 > m->nvol : r != -1)
                return VF(HS_WHERE_COMPONENT, i, "segments", "a hose of %d segments needs its %d "
                          "internal volumes (cmp_ref %d)", n, n - 1, r);
            if ((a < m->nvol && m->vol_model[a] == HS_VOL_SP) || (b >= 0 && b < m->nvol && m->vol_model[b] == HS_VOL_SP))
                return VF(HS_WHERE_COMPONENT, i,
                          a < m->nvol && m->vol_model[a] == HS_VOL_SP ? "from" : "to", "a hose may "
                          "not end at a singular-perturbation volume (its pressure is algebraic: "
                          "the line's oil needs a lumped volume at each end)");
        }
        if (type < 0 || type >= HS_CMP_COUNT)
            return VF(HS_WHERE_COMPONENT, i, "type", "unknown component type %d", type);
        if (hs_cmp_ports(type) == HS_PORTS_AT) {
            if (a < 0 || a >= m->nvol)
                return VF(HS_WHERE_COMPONENT, i, "at", "at must be a volume");
        } else {
            const char *from = hs_cmp_ports(type) == HS_PORTS_INPUTS ? "inputs" : "from";
            int r = m->cmp_ref[i], pt = hs_cmp_ports(type);
            if (a < 0 || a >= nnode)
                return VF(HS_WHERE_COMPONENT, i, from, "%s must be a node (volume or source)", from);
            if ((pt == HS_PORTS_PILOT || pt == HS_PORTS_INPUTS || (pt == HS_PORTS_PILOT_OPT && r != -1)) &&
                (r < 0 || r >= nnode || r == b || (r == a && pt != HS_PORTS_PILOT_OPT)))
                return VF(HS_WHERE_COMPONENT, i, pt == HS_PORTS_INPUTS ? "inputs" : "pilot",
                          pt == HS_PORTS_INPUTS ? "a shuttle valve's two inputs must be two nodes other than its "
                                                  "output (to)"
                                                : "the pilot must be a node other than the valve's from and to (a "
                                                  "counterbalance valve's: the opposite line)");
            if (type == HS_CMP_SHUTTLE && r >= m->nvol && a >= m->nvol && b >= m->nvol)
                return VF(HS_WHERE_COMPONENT, i, "to", "a shuttle valve between sources only needs a volume");
            if (b < 0 || b >= nnode || b == a)
                return VF(HS_WHERE_COMPONENT, i, "to", "to must be a node (volume or source) other "
                          "than from");
            if (a >= m->nvol && b >= m->nvol && !(type == HS_CMP_HOSE && m->cmp_dyn[i] > 1))
                return VF(HS_WHERE_COMPONENT, i, "to", "at least one of from and to must be a "
                          "volume (both are sources; a hose between two sources needs 2 or more "
                          "segments)");
        }
        if (type == HS_CMP_PUMP_LS && m->cmp_lsmask[i] != 0 &&
            (m->cmp_ref[i] != -1 || m->cmp_lsmask[i] < 0 || m->cmp_lsmask[i] >= (1 << m->ndcv)))
            return VF(HS_WHERE_COMPONENT, i, "sense", "sense lists valve sections "
                      "(hydraulics.valves) or names one node, not both");
        if (type != HS_CMP_PUMP_LS && m->cmp_lsmask[i] != 0)
            return VF(HS_WHERE_COMPONENT, i, "type", "only a load-sensing pump senses valve "
                      "sections");
        if (type == HS_CMP_PUMP_LS && m->cmp_lsmask[i] == 0 &&
            (m->cmp_ref[i] < 0 || m->cmp_ref[i] >= nnode || m->cmp_ref[i] == b))
            return VF(HS_WHERE_COMPONENT, i, "sense", "sense must be a node other than the pump's "
                      "outlet (the load-sensing line)");
        if (type == HS_CMP_MOTOR) {
            int j = m->cmp_ref[i];
            if (j < 0 || j >= m->nbody)
                return VF(HS_WHERE_COMPONENT, i, "joint", "joint must name a body (the motor turns "
                          "that body's joint)");
            if (m->joint_type[j] != HS_JOINT_REVOLUTE)
                return VF(HS_WHERE_COMPONENT, i, "joint", "a motor drives a revolute joint, and "
                          "the joint of body '%s' is %s: a linear actuator is a cylinder",
                          d->body_name[j],
                          m->joint_type[j] == HS_JOINT_PRISMATIC ? "prismatic" : "a ball joint");
            for (k = 0; k < i; ++k)
                if (m->cmp_type[k] == HS_CMP_MOTOR && m->cmp_ref[k] == j)
                    return VF(HS_WHERE_COMPONENT, i, "joint", "the joint of body '%s' is driven by "
                              "motor '%s' already: one motor per joint (two in parallel are one of "
                              "their summed displacement)", d->body_name[j], d->cmp_name[k]);
        }
        for (k = 0; k < hs_ncmp_params; ++k) {
            const hs_cmp_param_def *pd = &hs_cmp_params[k];
            if (pd->type == type && hs_cmp_param_broken(type, pd->slot, par[pd->slot]))
                return VF(HS_WHERE_COMPONENT, i, pd->key, "%s, not %g", pd->rule, par[pd->slot]);
        }
        switch (hs_cmp_pair_broken(m, i, &j)) { /* the rules between parameters (hs_rules.h) */
        case HS_CPR_RELIEF_SMOOTH:
            return VF(HS_WHERE_COMPONENT, i, "dp_smooth", "dp_smooth (%g Pa) must be <= "
                      "dp_override (%g Pa): the rounding of the opening lies within the override",
                      par[HS_CP_RV_DPS], par[HS_CP_RV_DPOV]);
        case HS_CPR_FC_LAMINAR:
            return VF(HS_WHERE_COMPONENT, i, "dp_lim", "dp_lim (%g Pa) must be < dp_comp (%g Pa): "
                      "the orifice's laminar band lies below the drop at which the compensator "
                      "takes over", par[HS_CP_FC_DPLIM], par[HS_CP_FC_DPC]);
        case HS_CPR_RELIEF_POPPET:
            return VF(HS_WHERE_COMPONENT, i, "tau", "tau must stay > 0 when the model has a "
                      "poppet or spool state, 0 when it has none (the state is part of the model's layout)");
        case HS_CPR_POCV_DEC:
            return VF(HS_WHERE_COMPONENT, i, "ratio_dec", "ratio_dec (%g) must be 0 (no decompression "
                      "poppet) or above ratio (%g) with Cv_dec > 0 (%g): the decompression poppet opens "
                      "first, at a lower pilot pressure", par[HS_CP_PO_RDEC], par[HS_CP_PO_RATIO],
                      par[HS_CP_PO_CVDEC]);
        case HS_CPR_VENTED:
            return VF(HS_WHERE_COMPONENT, i, "vented", "vented must be 0 (the spring chamber drains to the "
                      "valve port) or 1 (vented to atmosphere), not %g", par[HS_CP_CB_VENT]);
        case HS_CPR_DROOP_PMAX:
            return VF(HS_WHERE_COMPONENT, i, "droop", "a speed droop (%g) needs the pump's rated maximum "
                      "pressure p_max > 0: the droop is the speed lost at full displacement and p_max",
                      par[HS_CP_PU_DROOP]);
        case HS_CPR_PC_BAND:
            return VF(HS_WHERE_COMPONENT, i, "p_set", "p_set + dp_band (%g Pa) must not exceed the "
                      "pump's rated maximum p_max (%g Pa)", par[HS_CP_PU_PREF] + par[HS_CP_PU_BAND],
                      par[HS_CP_PU_PMAX]);
        case HS_CPR_RELIEF_PMAX:
            return VF(HS_WHERE_COMPONENT, i, "p_crack", "the cracking pressure (%g Pa) is above "
                      "the maximum pressure of pump '%s' (p_max %g Pa) whose outlet it guards: the "
                      "pump would be driven beyond its rating before the valve opens",
                      par[HS_CP_RV_PCR], d->cmp_name[j], m->cmp_par[j][HS_CP_PU_PMAX]);
        case HS_CPR_PRECHARGE:
            return VF(HS_WHERE_COMPONENT, i, "p_pre", "the precharge (%g Pa) must be below the "
                      "highest working pressure the circuit reaches at '%s' (%g Pa: its sources, "
                      "relief settings, pump cut-offs and initial pressures): above it the "
                      "accumulator never takes oil", par[HS_CP_AC_PPRE], d->vol_name[a],
                      hs_circuit_p_max(m, a));
        default: break;
        }
    }
    return HS_OK;
}

static int check_hydraulics(const hs_model_desc *d, hs_error *err, hs_where *w)
{
    static const char *const port[4] = {"P", "T", "A", "B"};
    static const char *const kpath[4] = {"k_PA", "k_BT", "k_PB", "k_AT"};
    const hs_model *m = &d->model;
    int nnode = m->nvol + m->nsrc, i, k, l, rc;
    if (hs_model_has_hydraulics(m) || hs_param_find(d, "fluid.B_oil") >= 0) {
        if (!(m->B_oil > 0.0)) return need_pos(d, err, w, HS_WHERE_FLUID, 0, "B_oil");
        if (!(m->rho > 0.0)) return need_pos(d, err, w, HS_WHERE_FLUID, 0, "rho");
        if (!(m->p_vapour >= 0.0 && m->p_vapour < 1e6))
            return VF(HS_WHERE_FLUID, 0, "p_vapour", "p_vapour must be in [0, 1 MPa) (an absolute "
                      "pressure)");
        if (!(m->air_fraction >= 0.0 && m->air_fraction < 1.0))
            return VF(HS_WHERE_FLUID, 0, "air_fraction", "air_fraction (%g) must be in [0, 1): the volume "
                      "fraction of undissolved air at atmospheric pressure (0: none, the constant bulk "
                      "modulus)", m->air_fraction);
        if (m->air_fraction > 0.0 && !(m->air_n >= 1.0 && m->air_n <= 1.4))
            return VF(HS_WHERE_FLUID, 0, "polytropic_index", "polytropic_index (%g) must be in [1, 1.4]: "
                      "the entrained air's, between isothermal (1) and adiabatic (1.4)", m->air_n);
        if (m->air_fraction > 0.0 && !(m->p_vapour < HS_P_ATM))
            return VF(HS_WHERE_FLUID, 0, "p_vapour", "with entrained air (air_fraction %g) p_vapour (%g Pa) "
                      "must be below atmospheric pressure (%g Pa): the air's fraction is given there, "
                      "and its pressure is p - p_vapour", m->air_fraction, m->p_vapour, HS_P_ATM);
    }
    for (i = 0; i < m->nsrc; ++i)
        if (!(m->src_p[i] >= 0.0))
            return VF(HS_WHERE_SOURCE, i, "p", "p must be >= 0 (absolute pressure)");
    for (i = 0; i < m->nvol; ++i) {
        if (m->vol_cyl[i] < -1 || m->vol_cyl[i] >= m->ncyl ||
            (m->vol_cyl[i] >= 0 && m->vol_side[i] != 0 && m->vol_side[i] != 1))
            return VF(HS_WHERE_VOLUME, i, "name", "cylinder index or side out of range");
        if (!(m->vol_V[i] >= 0.0) || (m->vol_cyl[i] < 0 && !(m->vol_V[i] > 0.0)))
            return VF(HS_WHERE_VOLUME, i, "V", "V must be > 0 (only a cylinder chamber may have V "
                      "= 0: the chamber adds its own volume)");
        if (!(m->vol_B[i] > 0.0)) return need_pos(d, err, w, HS_WHERE_VOLUME, i, "B");
        if (!(m->vol_p0[i] >= 0.0))
            return VF(HS_WHERE_VOLUME, i, "p0", "p0 must be >= 0 (absolute pressure)");
        if (m->vol_model[i] != HS_VOL_LUMPED && m->vol_model[i] != HS_VOL_SP)
            return VF(HS_WHERE_VOLUME, i, "model", "model must be lumped or singular_perturbation");
        if (m->vol_model[i] == HS_VOL_SP && m->air_fraction > 0.0)
            return VF(HS_WHERE_VOLUME, i, "model", "a singular_perturbation volume takes the constant bulk "
                      "modulus (seed 004 Pub. II eq. 33), not fluid.air_fraction %g: make it lumped, or "
                      "give the fluid no entrained air", m->air_fraction);
        if (m->vol_model[i] == HS_VOL_SP) {
            /* eq. 33's closed form: the volume between one valve port and one throttle */
            int k, ports = 0, thr = 0;
            for (k = 0; k < m->ndcv; ++k) ports += (m->dcv_A[k] == i) + (m->dcv_B[k] == i);
            for (k = 0; k < m->nthr; ++k) thr += (m->thr_a[k] == i) + (m->thr_b[k] == i);
            if (ports != 1 || thr != 1 || m->vol_cyl[i] >= 0)
                return VF(HS_WHERE_VOLUME, i, "model", "singular_perturbation needs a volume "
                          "between one valve port and one throttle, not a cylinder chamber (seed "
                          "004 Pub. II eqs. 33-34); this one has %d valve port(s), %d throttle "
                          "end(s)%s", ports, thr,
                          m->vol_cyl[i] >= 0 ? " and is a cylinder chamber" : "");
        }
        if (m->vol_model[i] == HS_VOL_SP && !(m->vol_gamma[i][0] > 0.0 && m->vol_gamma[i][0] < 1e3))
            return VF(HS_WHERE_VOLUME, i, "gamma_plus", "gamma_plus must be in (0, 1000): a factor "
                      "on a flow (seed 004 Pub. II eq. 35)");
        if (m->vol_model[i] == HS_VOL_SP && !(m->vol_gamma[i][1] > 0.0 && m->vol_gamma[i][1] < 1e3))
            return VF(HS_WHERE_VOLUME, i, "gamma_minus", "gamma_minus must be in (0, 1000): a "
                      "factor on a flow (seed 004 Pub. II eq. 35)");
    }
    for (i = 0; i < m->nthr; ++i) {
        int a = m->thr_a[i], b = m->thr_b[i];
        if (a < 0 || a >= nnode || b < 0 || b >= nnode)
            return VF(HS_WHERE_THROTTLE, i, "from", "node index out of range");
        if (a == b)
            return VF(HS_WHERE_THROTTLE, i, "to", "from and to must be different nodes");
        if (a >= m->nvol && b >= m->nvol)
            return VF(HS_WHERE_THROTTLE, i, "to", "at least one of from and to must be a volume "
                      "(both are sources)");
        if (m->thr_Cd[i] == 0.0 && m->thr_A[i] == 0.0) { /* given as Cv */
            if (!(m->thr_Cv_given[i] > 0.0)) return need_pos(d, err, w, HS_WHERE_THROTTLE, i, "Cv");
        } else {
            if (!(m->thr_Cd[i] > 0.0)) return need_pos(d, err, w, HS_WHERE_THROTTLE, i, "Cd");
            if (!(m->thr_A[i] > 0.0)) return need_pos(d, err, w, HS_WHERE_THROTTLE, i, "A");
            if (m->thr_Cv_given[i] != 0.0)
                return VF(HS_WHERE_THROTTLE, i, "Cv", "give either Cv or Cd and A, not both");
        }
        if (!(m->thr_dplim[i] > 0.0)) return need_pos(d, err, w, HS_WHERE_THROTTLE, i, "dp_lim");
    }
    for (i = 0; i < m->ndcv; ++i) {
        const int nd[4] = {m->dcv_P[i], m->dcv_T[i], m->dcv_A[i], m->dcv_B[i]}, kind = m->dcv_kind[i];
        if (kind < HS_DCV_DIRECTIONAL || kind > HS_DCV_SEAT_3_2)
            return VF(HS_WHERE_VALVE, i, "type", "unknown valve type %d", kind);
        if (kind != HS_DCV_DIRECTIONAL) { /* a seat valve: P, A (and T): B is A, a 2/2's T is P */
            if (nd[0] < 0 || nd[0] >= nnode) return VF(HS_WHERE_VALVE, i, "P", "P must be a node (volume or source)");
            if (nd[2] < 0 || nd[2] >= m->nvol || nd[2] == nd[0])
                return VF(HS_WHERE_VALVE, i, "A", "A must be a volume other than P");
            if (nd[3] != nd[2] || (kind == HS_DCV_SEAT_2_2 ? nd[1] != nd[0] : (nd[1] < 0 || nd[1] >= nnode)))
                return VF(HS_WHERE_VALVE, i, "T", "a seat valve's ports: P, A and (3/2) T, B the same node as A");
            if (kind == HS_DCV_SEAT_3_2 && (nd[1] == nd[0] || nd[1] == nd[2]))
                return VF(HS_WHERE_VALVE, i, "T", "T must be a node other than P and A");
            if (m->dcv_dpcomp[i] != 0.0 || hs_dcv_sensed(m, i))
                return VF(HS_WHERE_VALVE, i, "type", "a seat valve has no pressure compensator and no load-sensing "
                          "port (a load-sensing pump senses directional sections)");
            for (k = 0; k < m->nvol; ++k)
                if (m->vol_model[k] == HS_VOL_SP && m->vol_dcv[k] == i)
                    return VF(HS_WHERE_VALVE, i, "type", "a seat valve cannot feed a singular_perturbation "
                              "volume ('%s')", d->vol_name[k]);
        }
        for (k = 0; k < 4 && kind == HS_DCV_DIRECTIONAL; ++k) {
            if (nd[k] < 0 || nd[k] >= nnode || (k >= 2 && nd[k] >= m->nvol))
                return VF(HS_WHERE_VALVE, i, port[k], "%s must be %s", port[k],
                          k >= 2 ? "a volume" : "a node (volume or source)");
            for (l = 0; l < k; ++l)
                if (nd[l] == nd[k])
                    return VF(HS_WHERE_VALVE, i, port[k], "P, T, A and B must be four different "
                              "nodes (%s is %s too)", port[k], port[l]);
        }
        if (!(m->dcv_Cv[i] > 0.0)) return need_pos(d, err, w, HS_WHERE_VALVE, i, "Cv");
        for (k = 0; k < 4; ++k)
            if (!(m->dcv_kpath[i][k] >= 0.0))
                return VF(HS_WHERE_VALVE, i, kpath[k], "%s must be >= 0", kpath[k]);
        if (!(m->dcv_tau[i] > 0.0)) return need_pos(d, err, w, HS_WHERE_VALVE, i, "tau");
        if (!(m->dcv_dplim[i] > 0.0)) return need_pos(d, err, w, HS_WHERE_VALVE, i, "dp_lim");
        if (m->dcv_sig[i] < -1 || m->dcv_sig[i] >= m->nsignal)
            return VF(HS_WHERE_VALVE, i, "U_ref", "signal index out of range");
        if (!(m->dcv_dpcomp[i] == 0.0 || (m->dcv_dpcomp[i] > m->dcv_dplim[i] && m->dcv_dpcomp[i] <= HS_CMP_NOLIMIT)))
            return VF(HS_WHERE_VALVE, i, "dp_comp", "dp_comp (%g Pa) must be 0 (no compensator) or "
                      "above dp_lim (%g Pa): the meter-in edge's laminar band lies below the drop "
                      "its compensator holds", m->dcv_dpcomp[i], m->dcv_dplim[i]);
        if (hs_dcv_sensed(m, i) && !(m->dcv_Uls[i] > 0.0 && m->dcv_Uls[i] <= HS_CMP_NOLIMIT))
            return VF(HS_WHERE_VALVE, i, "U_ls", "U_ls must be > 0 (the spool travel over which "
                      "the load-sensing port opens)");
        if (m->dcv_dpcomp[i] > 0.0)
            for (k = 0; k < m->nvol; ++k)
                if (m->vol_model[k] == HS_VOL_SP && m->vol_dcv[k] == i)
                    return VF(HS_WHERE_VALVE, i, "dp_comp", "a compensated section cannot feed a "
                              "singular_perturbation volume ('%s'): its quasi-static pressure "
                              "assumes a turbulent valve path", d->vol_name[k]);
    }
    if ((rc = check_cylinders(d, err, w)) != HS_OK) return rc;
    return check_components(d, err, w);
}

int hs_model_validate_where(const hs_model_desc *d, hs_error *err, hs_where *w)
{
    int rc, i;
    if (!d) return hs_error_set(err, HS_ERR_ARG, "", 0, 0, "", "no model");
    if (w) memset(w, 0, sizeof *w);
    if (d->tree) { /* a riccati model (tree_params.h): its loader checked the tree; the times here */
        const hs_model *m = &d->model;
        if (!(m->t_end > 0.0 && m->t_end < 1e300))
            return hs_error_set(err, HS_ERR_VALUE, d->path, 0, 0, "integrator.t_end", "t_end must be > 0 s, not %g",
                                m->t_end);
        if (!(m->dt > 0.0 && m->dt <= m->t_end && m->t_end / m->dt <= HS_MAX_STEPS))
            return hs_error_set(err, HS_ERR_VALUE, d->path, 0, 0, "integrator.dt",
                                "dt must be > 0 and <= t_end, and t_end / dt at most HS_MAX_STEPS (%g), not dt = %g s "
                                "with t_end = %g s",
                                (double)HS_MAX_STEPS, m->dt, m->t_end);
        return HS_OK;
    }
    if ((rc = check_limits(d, err, w)) != HS_OK) return rc;
    for (i = 0; i < d->nparam; ++i)
        if (!isfinite(hs_param_get(d, i)))
            return VF(HS_WHERE_PARAM, i, d->param[i].name, "value must be finite");
    if ((rc = check_bodies_joints(d, err, w)) != HS_OK || (rc = check_cuts(d, err, w)) != HS_OK ||
        (rc = check_rest(d, err, w)) != HS_OK || (rc = check_hydraulics(d, err, w)) != HS_OK)
        return rc;
    return HS_OK;
}

int hs_model_validate(const hs_model_desc *d, hs_error *err)
{
    return hs_model_validate_where(d, err, NULL);
}
