/* model_parts.c -- a model file's body and joint entries (model_parts.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hs_linalg.h"
#include "model/model_parts.h"

static const char *const k_shapes[] = {"custom", "rod", "beam", "cuboid", "point", NULL};

int hs_parse_body(const yt_ctx *c, const yt_node *y, const char *path, int flags, tbody *b)
{
    static const char *const keys[] = {"name", "shape", "mass", "length", "width",
                                       "height", "com", "inertia", NULL};
    static const char *const dims[3] = {"length", "width", "height"};
    char why[96];
    int rc, k, ndim;
    memset(b, 0, sizeof *b);
    b->map = y;
    if ((rc = yt_need(c, y, YT_MAP, path)) || (rc = yt_check_keys(c, y, path, keys))) return rc;
    if (flags & HS_PART_TEMPLATE) {
        if ((rc = yt_forbid(c, y, path, "name", "a chain names its bodies itself (<chain>_1, <chain>_2, ...)")))
            return rc;
    } else if ((rc = yt_get_str(c, y, path, "name", 1, 1, b->name, sizeof b->name, &b->name_node))) {
        return rc;
    }
    if (!strcmp(b->name, "ground")) {
        char kp[128];
        return yt_fail(c, HS_ERR_VALUE, b->name_node, yt_join(kp, sizeof kp, path, "name"),
                       "'ground' is reserved for the fixed frame");
    }
    if ((rc = yt_get_enum(c, y, path, "shape", 1, k_shapes, 0, &b->shape)) ||
        (rc = yt_get_num(c, y, path, "mass", "kg", 1, 0.0, &b->mass)))
        return rc;
    ndim = b->shape == HS_SHAPE_ROD ? 1
           : (b->shape == HS_SHAPE_BEAM || b->shape == HS_SHAPE_CUBOID) ? 3
                                                                         : 0;
    for (k = 0; k < 3; ++k) {
        if (k < ndim) {
            if ((rc = yt_get_num(c, y, path, dims[k], "m", 1, 0.0, &b->dim[k]))) return rc;
            if (!(b->dim[k] > 0.0)) { /* here, for every loader (an open tree's has no later check) */
                char kp[128];
                snprintf(why, sizeof why, "%s must be > 0", dims[k]);
                return yt_fail(c, HS_ERR_VALUE, yt_map_get(y, dims[k]), yt_join(kp, sizeof kp, path, dims[k]), "%s",
                               why);
            }
        } else {
            snprintf(why, sizeof why, "%s is not used by shape %s", dims[k], k_shapes[b->shape]);
            if ((rc = yt_forbid(c, y, path, dims[k], why))) return rc;
        }
    }
    b->com_given = yt_map_get(y, "com") != NULL;
    if ((rc = yt_get_vec(c, y, path, "com", 3, "m", 0, NULL, b->com))) return rc;
    if (b->shape == HS_SHAPE_CUSTOM) return yt_get_vec(c, y, path, "inertia", 6, "kg m^2", 1, NULL, b->inertia);
    return yt_forbid(c, y, path, "inertia", "inertia is given for shape custom only (other shapes compute it)");
}

/* {axis, angle} at key of y: the unit axis into ax and the angle; absent: angle 0. */
static int axis_angle(const yt_ctx *c, const yt_node *y, const char *path, const char *key, double ax[3],
                      double *ang)
{
    static const char *const rkeys[] = {"axis", "angle", NULL};
    const yt_node *r = yt_map_get(y, key);
    char rpath[160], kp[200];
    double n;
    int rc;
    ax[0] = 1.0;
    ax[1] = ax[2] = 0.0;
    *ang = 0.0;
    if (!r) return HS_OK;
    yt_join(rpath, sizeof rpath, path, key);
    if ((rc = yt_need(c, r, YT_MAP, rpath)) || (rc = yt_check_keys(c, r, rpath, rkeys)) ||
        (rc = yt_get_vec(c, r, rpath, "axis", 3, "", 1, NULL, ax)) ||
        (rc = yt_get_num(c, r, rpath, "angle", "rad", 1, 0.0, ang)))
        return rc;
    n = sqrt(ax[0] * ax[0] + ax[1] * ax[1] + ax[2] * ax[2]);
    if (!(n > 0.0))
        return yt_fail(c, HS_ERR_VALUE, yt_map_get(r, "axis"), yt_join(kp, sizeof kp, rpath, "axis"),
                       "axis must be non-zero");
    ax[0] /= n;
    ax[1] /= n;
    ax[2] /= n;
    return HS_OK;
}

int hs_parse_joint(const yt_ctx *c, const yt_node *y, const char *path, int flags, tjoint *t)
{
    static const char *const keys[] = {"name", "type", "parent", "child", "axis", "at_parent", "at_child",
                                       "rotation0", "z0", "zdot0", "hold", "q0", "w0", "spring", NULL};
    static const char *const types[] = {"revolute", "prismatic", "ball", NULL};
    double ax[3], ang;
    int rc, pr, tmpl = flags & HS_PART_TEMPLATE;
    memset(t, 0, sizeof *t);
    t->map = y;
    if ((rc = yt_need(c, y, YT_MAP, path)) || (rc = yt_check_keys(c, y, path, keys))) return rc;
    if ((flags & HS_PART_TREE) &&
        (rc = yt_forbid(c, y, path, "spring",
                        "integrator.formulation riccati has no joint springs (the penalty and double-step "
                        "formulations have)")))
        return rc;
    if (tmpl) {
        static const char *const gen[] = {"name", "parent", "child", NULL};
        int k;
        for (k = 0; gen[k]; ++k)
            if ((rc = yt_forbid(c, y, path, gen[k],
                                "a chain's joint template is repeated: the chain names and connects its joints")))
                return rc;
    } else if ((rc = yt_get_str(c, y, path, "name", 1, 1, t->name, sizeof t->name, &t->name_node))) {
        return rc;
    }
    if ((rc = yt_get_enum(c, y, path, "type", 1, types, 0, &t->type))) return rc;
    if (!tmpl && ((rc = yt_get_str(c, y, path, "parent", 1, 0, t->parent, sizeof t->parent, &t->parent_node)) ||
                  (rc = yt_get_str(c, y, path, "child", 1, 0, t->child, sizeof t->child, &t->child_node))))
        return rc;
    if (t->type == HS_JOINT_BALL) {
        static const char *const one[] = {"axis", "z0", "zdot0", "hold", NULL};
        int k;
        if ((rc = yt_forbid(c, y, path, "spring",
                            "a ball joint takes no spring (a revolute or prismatic joint does: its one "
                            "coordinate has a rest position)")))
            return rc;
        for (k = 0; one[k]; ++k)
            if ((rc = yt_forbid(c, y, path, one[k],
                                "a ball joint has three rotational freedoms: its initial state is q0 "
                                "{axis, angle} and w0 (rad/s, child frame)")))
                return rc;
        t->axis[0] = 1.0;
    } else if ((rc = yt_get_vec(c, y, path, "axis", 3, "", 1, NULL, t->axis))) {
        return rc;
    }
    if ((rc = yt_get_vec(c, y, path, "at_parent", 3, "m", 0, NULL, t->at_parent)) ||
        (rc = yt_get_vec(c, y, path, "at_child", 3, "m", 0, NULL, t->at_child)))
        return rc;
    if (t->type == HS_JOINT_BALL) {
        if ((rc = axis_angle(c, y, path, "q0", ax, &ang))) return rc;
        t->q0[0] = cos(0.5 * ang);
        t->q0[1] = sin(0.5 * ang) * ax[0];
        t->q0[2] = sin(0.5 * ang) * ax[1];
        t->q0[3] = sin(0.5 * ang) * ax[2];
        if ((rc = yt_get_vec(c, y, path, "w0", 3, "rad/s", 0, NULL, t->w0))) return rc;
    } else {
        static const char *const two[] = {"q0", "w0", NULL};
        int k;
        for (k = 0; two[k]; ++k)
            if ((rc = yt_forbid(c, y, path, two[k], "q0 and w0 are a ball joint's; a revolute or prismatic "
                                                     "joint starts at z0 and zdot0")))
                return rc;
        pr = t->type == HS_JOINT_PRISMATIC;
        if ((rc = yt_get_num(c, y, path, "z0", pr ? "m" : "rad", 0, 0.0, &t->z0)) ||
            (rc = yt_get_num(c, y, path, "zdot0", pr ? "m/s" : "rad/s", 0, 0.0, &t->zd0)) ||
            (rc = yt_get_bool(c, y, path, "hold", &t->hold)))
            return rc;
        if (yt_map_get(y, "spring")) { /* a spring and damper across the joint */
            static const char *const skeys[] = {"k", "c", "z_rest", NULL};
            const yt_node *sp = yt_map_get(y, "spring");
            char sp_path[160], kp[200];
            yt_join(sp_path, sizeof sp_path, path, "spring");
            if ((rc = yt_need(c, sp, YT_MAP, sp_path)) || (rc = yt_check_keys(c, sp, sp_path, skeys)) ||
                (rc = yt_get_num(c, sp, sp_path, "k", pr ? "N/m" : "N m/rad", 0, 0.0, &t->k)) ||
                (rc = yt_get_num(c, sp, sp_path, "c", pr ? "N s/m" : "N m s/rad", 0, 0.0, &t->c)) ||
                (rc = yt_get_num(c, sp, sp_path, "z_rest", pr ? "m" : "rad", 0, t->z0, &t->zs)))
                return rc;
            if (!(t->k >= 0.0))
                return yt_fail(c, HS_ERR_VALUE, yt_map_get(sp, "k"), yt_join(kp, sizeof kp, sp_path, "k"),
                               "k must be >= 0 (the spring's stiffness)");
            if (!(t->c >= 0.0))
                return yt_fail(c, HS_ERR_VALUE, yt_map_get(sp, "c"), yt_join(kp, sizeof kp, sp_path, "c"),
                               "c must be >= 0 (the damper's coefficient)");
            if (!(t->k > 0.0 || t->c > 0.0))
                return yt_fail(c, HS_ERR_VALUE, sp, sp_path, "a spring needs k > 0 or c > 0");
            t->spring = 1;
        }
    }
    t->rot0[0] = t->rot0[4] = t->rot0[8] = 1.0; /* identity unless rotation0 is given */
    if (yt_map_get(y, "rotation0")) {
        if ((rc = axis_angle(c, y, path, "rotation0", ax, &ang))) return rc;
        hs_m3_rot(t->rot0, ax, ang); /* Rodrigues */
    }
    return HS_OK;
}

int hs_parse_every(const yt_ctx *c, const yt_node *y, long def, long *every)
{
    double e = 0;
    int rc = yt_get_num(c, y, "outputs", "every", "", 0, (double)def, &e);
    if (rc) return rc;
    if (!(e >= 1) || e != floor(e) || e > 1e12)
        return yt_fail(c, HS_ERR_VALUE, yt_map_get(y, "every"), "outputs.every",
                       "every must be a whole number of steps >= 1");
    *every = (long)e;
    return HS_OK;
}
