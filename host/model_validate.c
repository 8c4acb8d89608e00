/* model_validate.c -- the physical rules of a model (hs_model_validate).
 *
 * One rule set for the loader and for hs_param_set: each broken rule reports what it was
 * about (hs_where), so the loader can point at the YAML node and parameter changes can name
 * the parameter. Call on a derived model (hs_model_derive). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "params.h"

int hs_is_integrator_key(const char *f)
{
    static const char *const k[] = {"dt", "t_end", "tol_position", "penalty", "max_iter",
                                    "fd_rel", "fd_floor", NULL};
    int i;
    for (i = 0; k[i]; ++i)
        if (!strcmp(k[i], f)) return 1;
    return 0;
}

static const char *const k_kind_prefix[] = {"", "body", "joint", "cut", "point", "load", "signal"};

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
    switch (kind) {
    case HS_WHERE_BODY: nm = d->body_name[index]; break;
    case HS_WHERE_JOINT: nm = d->joint_name[index]; break;
    case HS_WHERE_CUT: nm = d->cut_name[index]; break;
    case HS_WHERE_POINT: nm = d->point_name[index]; break;
    case HS_WHERE_LOAD: nm = d->load_name[index]; break;
    case HS_WHERE_SIGNAL: nm = d->signal_name[index]; break;
    default: break;
    }
    if (kind == HS_WHERE_PARAM)
        snprintf(key, sizeof key, "%s", d->param[index].name);
    else if (kind == HS_WHERE_MODEL)
        snprintf(key, sizeof key, "%s%s", hs_is_integrator_key(field) ? "integrator." : "", field);
    else if (kind == HS_WHERE_SIGNAL && comp >= 0)
        snprintf(key, sizeof key, "signal.%s.t.%d", nm, comp);
    else
        snprintf(key, sizeof key, "%s.%s.%s", k_kind_prefix[kind], nm, field);
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return hs_error_set(err, code, "", 0, 0, key, "%s", msg);
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
    if (m->nz != m->nbody || m->nx > HS_MAX_X || m->nx < m->nz)
        return vfail(d, err, w, HS_WHERE_MODEL, 0, "bodies", -1, HS_ERR_LIMIT,
                     "inconsistent sizes: nz = %d, nx = %d (HS_MAX_X is %d)", m->nz, m->nx,
                     HS_MAX_X);
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
            return vfail(d, err, w, HS_WHERE_JOINT, j, "parent", -1, HS_ERR_VALUE,
                         "the parent must precede the child (the loader sorts bodies)");
        if (sh < HS_SHAPE_CUSTOM || sh > HS_SHAPE_POINT)
            return vfail(d, err, w, HS_WHERE_BODY, j, "shape", -1, HS_ERR_VALUE,
                         "unknown shape %d", sh);
        if (!(m->body_mass[j] > 0.0))
            return vfail(d, err, w, HS_WHERE_BODY, j, "mass", -1, HS_ERR_VALUE,
                         "mass must be > 0");
        ndim = sh == HS_SHAPE_ROD ? 1 : (sh == HS_SHAPE_BEAM || sh == HS_SHAPE_CUBOID) ? 3 : 0;
        for (k = 0; k < ndim; ++k)
            if (!(m->body_dim[j][k] > 0.0))
                return vfail(d, err, w, HS_WHERE_BODY, j, dims[k], -1, HS_ERR_VALUE,
                             "%s must be > 0", dims[k]);
        if (sh == HS_SHAPE_CUSTOM) {
            double lam[3], s, tol;
            principal_moments(m->body_inertia[j], lam);
            s = lam[0] + lam[1] + lam[2];
            tol = 1e-12 * fabs(s);
            if (!(lam[0] > 0.0 && lam[1] > 0.0 && lam[2] > 0.0) ||
                lam[0] + lam[1] < lam[2] - tol || lam[0] + lam[2] < lam[1] - tol ||
                lam[1] + lam[2] < lam[0] - tol)
                return vfail(d, err, w, HS_WHERE_BODY, j, "inertia", -1, HS_ERR_VALUE,
                             "inertia must be positive definite and satisfy the triangle "
                             "inequality (principal moments %.6g, %.6g, %.6g kg m^2)",
                             lam[0], lam[1], lam[2]);
        }
        if (m->joint_type[j] != HS_JOINT_REVOLUTE && m->joint_type[j] != HS_JOINT_PRISMATIC)
            return vfail(d, err, w, HS_WHERE_JOINT, j, "type", -1, HS_ERR_VALUE,
                         "unknown joint type %d", m->joint_type[j]);
        if (!(norm3(m->joint_axis[j]) > 0.0))
            return vfail(d, err, w, HS_WHERE_JOINT, j, "axis", -1, HS_ERR_VALUE,
                         "axis must be non-zero");
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
                return vfail(d, err, w, HS_WHERE_JOINT, j, "rotation0", -1, HS_ERR_VALUE,
                             "rotation0 must be a proper rotation matrix");
        }
    }
    return HS_OK;
}

static int check_cuts(const hs_model_desc *d, hs_error *err, hs_where *w)
{
    const hs_model *m = &d->model;
    int c;
    for (c = 0; c < m->ncut; ++c) {
        int ty = m->cut_type[c];
        if (ty < HS_CUT_REVOLUTE || ty > HS_CUT_PRISMATIC_PLANAR)
            return vfail(d, err, w, HS_WHERE_CUT, c, "type", -1, HS_ERR_VALUE,
                         "unknown cut type %d", ty);
        if (m->cut_body_a[c] < -1 || m->cut_body_a[c] >= m->nbody || m->cut_body_b[c] < -1 ||
            m->cut_body_b[c] >= m->nbody)
            return vfail(d, err, w, HS_WHERE_CUT, c, "body_a", -1, HS_ERR_VALUE,
                         "body index out of range");
        if (m->cut_body_a[c] == m->cut_body_b[c])
            return vfail(d, err, w, HS_WHERE_CUT, c, "body_b", -1, HS_ERR_VALUE,
                         "body_a and body_b must differ");
        if (ty != HS_CUT_REVOLUTE_PLANAR && !(norm3(m->cut_axis_a[c]) > 0.0))
            return vfail(d, err, w, HS_WHERE_CUT, c, "axis_a", -1, HS_ERR_VALUE,
                         "axis_a must be non-zero");
        if (!(norm3(m->cut_axis_b[c]) > 0.0))
            return vfail(d, err, w, HS_WHERE_CUT, c, "axis_b", -1, HS_ERR_VALUE,
                         "axis_b must be non-zero");
        if (ty == HS_CUT_PRISMATIC) {
            if (!(norm3(m->cut_normal_a[c]) > 0.0) ||
                !(cos_abs(m->cut_normal_a[c], m->cut_axis_a[c]) <= 1e-9))
                return vfail(d, err, w, HS_WHERE_CUT, c, "normal_a", -1, HS_ERR_VALUE,
                             "normal_a must be non-zero and perpendicular to axis_a");
        }
        if (ty == HS_CUT_PRISMATIC || ty == HS_CUT_PRISMATIC_PLANAR) {
            if (!(norm3(m->cut_normal_b[c]) > 0.0) ||
                !(cos_abs(m->cut_normal_b[c], m->cut_axis_b[c]) <= 1e-9))
                return vfail(d, err, w, HS_WHERE_CUT, c, "normal_b", -1, HS_ERR_VALUE,
                             "normal_b must be non-zero and perpendicular to axis_b");
        }
    }
    return HS_OK;
}

static int check_rest(const hs_model_desc *d, hs_error *err, hs_where *w)
{
    const hs_model *m = &d->model;
    int i, k;
    for (i = 0; i < m->npoint; ++i)
        if (m->point_body[i] < -1 || m->point_body[i] >= m->nbody)
            return vfail(d, err, w, HS_WHERE_POINT, i, "body", -1, HS_ERR_VALUE,
                         "body index out of range");
    for (i = 0; i < m->nload; ++i) {
        if (m->load_body[i] < 0 || m->load_body[i] >= m->nbody)
            return vfail(d, err, w, HS_WHERE_LOAD, i, "body", -1, HS_ERR_VALUE,
                         "body index out of range");
        if (m->load_frame[i] != HS_FRAME_GLOBAL && m->load_frame[i] != HS_FRAME_BODY)
            return vfail(d, err, w, HS_WHERE_LOAD, i, "frame", -1, HS_ERR_VALUE,
                         "unknown frame %d", m->load_frame[i]);
        if (m->load_force_sig[i] < -1 || m->load_force_sig[i] >= m->nsignal ||
            m->load_torque_sig[i] < -1 || m->load_torque_sig[i] >= m->nsignal)
            return vfail(d, err, w, HS_WHERE_LOAD, i, "force_signal", -1, HS_ERR_VALUE,
                         "signal index out of range");
    }
    for (i = 0; i < m->nsignal; ++i) {
        const double *t = m->knot_t + m->sig_start[i];
        int n = m->sig_n[i];
        if (n < 1 || m->sig_start[i] < 0 || m->sig_start[i] + n > m->nknot)
            return vfail(d, err, w, HS_WHERE_SIGNAL, i, "knots", -1, HS_ERR_VALUE,
                         "a signal needs at least one knot inside the knot table");
        for (k = 1; k < n; ++k) {
            if (t[k] < t[k - 1])
                return vfail(d, err, w, HS_WHERE_SIGNAL, i, "knots", k, HS_ERR_VALUE,
                             "knot times must be non-decreasing (%.10g after %.10g)", t[k],
                             t[k - 1]);
            if (k >= 2 && t[k] == t[k - 1] && t[k] == t[k - 2])
                return vfail(d, err, w, HS_WHERE_SIGNAL, i, "knots", k, HS_ERR_VALUE,
                             "at most two knots may share a time (a jump)");
        }
    }
    if (!(m->dt > 0.0 && m->dt <= m->t_end))
        return vfail(d, err, w, HS_WHERE_MODEL, 0, "dt", -1, HS_ERR_VALUE,
                     "dt must be > 0 and <= t_end (dt = %g s, t_end = %g s)", m->dt, m->t_end);
    if (!(m->tol_z > 0.0))
        return vfail(d, err, w, HS_WHERE_MODEL, 0, "tol_position", -1, HS_ERR_VALUE,
                     "tol_position must be > 0");
    if (!(m->penalty > 0.0))
        return vfail(d, err, w, HS_WHERE_MODEL, 0, "penalty", -1, HS_ERR_VALUE,
                     "penalty must be > 0");
    if (!(m->max_iter >= 1.0 && m->max_iter <= 1e6 && m->max_iter == floor(m->max_iter)))
        return vfail(d, err, w, HS_WHERE_MODEL, 0, "max_iter", -1, HS_ERR_VALUE,
                     "max_iter must be an integer >= 1");
    if (!(m->fd_rel > 0.0))
        return vfail(d, err, w, HS_WHERE_MODEL, 0, "fd_rel", -1, HS_ERR_VALUE,
                     "fd_rel must be > 0");
    if (!(m->fd_floor > 0.0))
        return vfail(d, err, w, HS_WHERE_MODEL, 0, "fd_floor", -1, HS_ERR_VALUE,
                     "fd_floor must be > 0");
    return HS_OK;
}

int hs_model_validate_where(const hs_model_desc *d, hs_error *err, hs_where *w)
{
    int rc, i;
    if (!d) return hs_error_set(err, HS_ERR_ARG, "", 0, 0, "", "no model");
    if (w) memset(w, 0, sizeof *w);
    if ((rc = check_limits(d, err, w)) != HS_OK) return rc;
    for (i = 0; i < d->nparam; ++i)
        if (!isfinite(hs_param_get(d, i)))
            return vfail(d, err, w, HS_WHERE_PARAM, i, d->param[i].name, -1, HS_ERR_VALUE,
                         "value must be finite");
    if ((rc = check_bodies_joints(d, err, w)) != HS_OK || (rc = check_cuts(d, err, w)) != HS_OK ||
        (rc = check_rest(d, err, w)) != HS_OK)
        return rc;
    return HS_OK;
}

int hs_model_validate(const hs_model_desc *d, hs_error *err)
{
    return hs_model_validate_where(d, err, NULL);
}
