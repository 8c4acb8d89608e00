/* test_params.c -- unit suffixes, the named-parameter table, and changing parameters
 * (re-derivation, rejection of invalid values with the old value kept, NAME=VALUE strings). */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hs/model_file.h"
#include "hs_batch.h"
#include "model/params.h"
#include "base/suggest.h"
#include "test_util.h"

static const char *k_model =
    "name: pm\n"
    "bodies:\n"
    "  - {name: link1, shape: rod, mass: 1 kg, length: 1 m}\n"
    "  - {name: slider, shape: beam, mass: 2, length: 0.5, width: 0.1, height: 0.1}\n"
    "  - name: box\n"
    "    shape: custom\n"
    "    mass: 3\n"
    "    com: [0.1, 0, 0]\n"
    "    inertia: [1, 1.5, 2, 0, 0, 0]\n"
    "  - {name: tip, shape: point, mass: 0.5}\n"
    "joints:\n"
    "  - {name: j1, type: revolute, parent: ground, child: link1, axis: [0, 0, 1], z0: -45 deg}\n"
    "  - {name: js, type: prismatic, parent: link1, child: slider, axis: [1, 0, 0]}\n"
    "  - {name: jb, type: revolute, parent: slider, child: box, axis: [0, 0, 1]}\n"
    "  - {name: jt, type: revolute, parent: box, child: tip, axis: [0, 0, 1]}\n"
    "cuts:\n"
    "  - {name: P, type: prismatic, body_a: box, body_b: ground, axis_a: [1, 0, 0],\n"
    "     axis_b: [1, 0, 0], normal_a: [0, 1, 0], normal_b: [0, 1, 0]}\n"
    "  - {name: R, type: revolute_planar, body_a: tip, body_b: ground}\n"
    "points:\n"
    "  - {name: O, body: ground, at: [1, 2, 3]}\n"
    "signals:\n"
    "  - {name: s, knots: [[0, 0], [1, 5], [2, 5]]}\n"
    "loads:\n"
    "  - {name: F, body: tip, force: [0, -1, 0], force_signal: s}\n"
    "integrator: {dt: 1 ms, t_end: 2 s}\n";

static double Q(const char *s, char *unit)
{
    double v = NAN;
    if (hs_parse_quantity(s, &v, unit, 16) != 0) return NAN;
    return v;
}

static void test_quantities(void)
{
    char u[16];
    double v;
    CHECK(Q("-30 deg", u) == -30 * HS_PI / 180 && !strcmp(u, "rad"), "-30 deg");
    CHECK(Q("-30deg", u) == -30 * HS_PI / 180, "-30deg without space");
    CHECK(fabs(Q("80 mm", u) - 0.08) < 1e-17 && !strcmp(u, "m"), "80 mm");
    CHECK(Q("7.6 MPa", u) == 7.6e6 && !strcmp(u, "Pa"), "7.6 MPa");
    CHECK(Q("2 bar", u) == 2e5 && !strcmp(u, "Pa"), "2 bar");
    CHECK(Q("1.5", u) == 1.5 && u[0] == '\0', "plain number, no unit");
    CHECK(Q("  3 kg  ", u) == 3.0 && !strcmp(u, "kg"), "spaces around");
    CHECK(Q("1e-3 s", u) == 1e-3 && !strcmp(u, "s"), "exponent then unit");
    CHECK(Q("2e3", u) == 2000.0, "exponent");
    CHECK(Q(".5 ms", u) == 5e-4, "leading dot");
    CHECK(Q("+4 kN", u) == 4000.0 && !strcmp(u, "N"), "kN");
    CHECK(Q("500 g", u) == 0.5 && !strcmp(u, "kg"), "g");
    CHECK(Q("1 GPa", u) == 1e9, "GPa");
    CHECK(Q("3 kPa", u) == 3e3, "kPa");
    CHECK(Q("50 Hz", u) == 50 && !strcmp(u, "Hz"), "Hz");
    CHECK(Q("2 m/s", u) == 2 && !strcmp(u, "m/s"), "m/s");
    CHECK(Q("9.81 m/s^2", u) == 9.81 && !strcmp(u, "m/s^2"), "m/s^2");
    CHECK(Q("1e5 N/m", u) == 1e5 && !strcmp(u, "N/m"), "N/m");
    CHECK(Q("300 Ns/m", u) == 300 && !strcmp(u, "N s/m"), "Ns/m");
    CHECK(Q("2 L", u) == 2e-3 && !strcmp(u, "m^3"), "L");
    CHECK(fabs(Q("28 cm^3", u) - 28e-6) < 1e-20 && !strcmp(u, "m^3"), "cm^3");
    CHECK(Q("1 m^3", u) == 1.0, "m^3");
    CHECK(fabs(Q("314 mm^2", u) - 314e-6) < 1e-18 && !strcmp(u, "m^2"), "mm^2");
    CHECK(Q("0.1 m^2", u) == 0.1, "m^2");
    CHECK(Q("2 kg m^2", u) == 2 && !strcmp(u, "kg m^2"), "kg m^2");
    CHECK(Q("25 cm", u) == 0.25, "cm");
    CHECK(Q("10 ms", u) == 0.01, "ms is not m");
    CHECK(Q("1 rad", u) == 1 && !strcmp(u, "rad"), "rad");
    CHECK(Q("850 kg/m^3", u) == 850 && !strcmp(u, "kg/m^3"), "kg/m^3");
    CHECK(Q("80 s/m", u) == 80 && !strcmp(u, "s/m"), "s/m");
    CHECK(Q("-2.5 V", u) == -2.5 && !strcmp(u, "V"), "V");
    {
        char lu[32];
        CHECK(hs_parse_quantity("2.138e-8 m^3/(s V sqrt(Pa))", &v, lu, sizeof lu) == 0 &&
                  v == 2.138e-8 && !strcmp(lu, "m^3/(s V sqrt(Pa))"),
              "valve flow coefficient unit");
        CHECK(hs_parse_quantity("3e-9 m^3/(s sqrt(Pa))", &v, lu, sizeof lu) == 0 && v == 3e-9 &&
                  !strcmp(lu, "m^3/(s sqrt(Pa))"),
              "throttle flow coefficient unit");
    }
    /* rejected */
    CHECK(isnan(Q("abc", u)), "not a number");
    CHECK(isnan(Q("", u)), "empty");
    CHECK(isnan(Q("3 furlongs", u)), "unknown unit");
    CHECK(isnan(Q("3 mmm", u)), "unknown unit mmm");
    CHECK(isnan(Q("3 km", u)), "km is not a unit here");
    CHECK(isnan(Q("nan", u)) && isnan(Q("inf", u)) && isnan(Q("1e999", u)), "non-finite");
    CHECK(isnan(Q("0x10", u)), "hex");
    CHECK(isnan(Q("1 2", u)), "two numbers");
    CHECK(hs_parse_quantity("5 kg", &v, NULL, 0) == 0 && v == 5.0, "unit_out may be NULL");
}

static void test_table(hs_model_desc *d)
{
    int i, k;
    const hs_model *m = &d->model;
    static const char *const present[] = {
        "gravity.x", "gravity.z", "body.link1.mass", "body.link1.length", "body.slider.width",
        "body.slider.height", "body.box.com.x", "body.box.inertia.xx", "body.box.inertia.yz",
        "joint.j1.z0", "joint.js.zdot0", "joint.jb.axis.y", "joint.jt.at_parent.x",
        "joint.jt.at_child.z", "cut.P.at_a.x", "cut.P.at_b.z", "cut.P.axis_a.x",
        "cut.P.axis_b.y", "cut.P.normal_a.y", "cut.P.normal_b.z", "cut.R.axis_b.z",
        "point.O.at.y", "load.F.at.x", "load.F.force.y", "load.F.torque.z", "signal.s.t.0",
        "signal.s.t.2", "signal.s.v.1", "integrator.dt", "integrator.t_end",
        "integrator.tol_position", "integrator.penalty", "integrator.max_iter",
        "integrator.fd_rel", "integrator.fd_floor", "integrator.tol_pressure",
        "integrator.tol_friction", NULL};
    static const char *const absent[] = {
        "body.link1.width", "body.link1.com.x", "body.link1.inertia.xx", "body.tip.length",
        "body.tip.com.x", "body.slider.inertia.zz", "cut.R.normal_a.x", "cut.R.normal_b.x",
        "cut.R.axis_a.x", "signal.s.t.3", "body.nobody.mass", "fluid.B_oil", "fluid.rho",
        NULL};
    for (i = 0; present[i]; ++i) CHECK(hs_param_find(d, present[i]) >= 0, "param %s", present[i]);
    for (i = 0; absent[i]; ++i) CHECK(hs_param_find(d, absent[i]) < 0, "no param %s", absent[i]);
    /* every parameter reads the double it names */
    i = hs_param_find(d, "joint.j1.z0");
    CHECK(i >= 0 && hs_param_get(d, i) == m->joint_z0[0] && !strcmp(d->param[i].unit, "rad"),
          "joint.j1.z0 value and unit");
    i = hs_param_find(d, "joint.js.z0");
    CHECK(i >= 0 && !strcmp(d->param[i].unit, "m"), "prismatic z0 in m");
    i = hs_param_find(d, "joint.js.zdot0");
    CHECK(i >= 0 && !strcmp(d->param[i].unit, "m/s"), "prismatic zdot0 in m/s");
    i = hs_param_find(d, "body.box.inertia.zz");
    CHECK(i >= 0 && hs_param_get(d, i) == 2.0 && !strcmp(d->param[i].unit, "kg m^2"),
          "inertia.zz");
    i = hs_param_find(d, "point.O.at.y");
    CHECK(i >= 0 && hs_param_get(d, i) == 2.0, "point.O.at.y");
    i = hs_param_find(d, "signal.s.v.1");
    CHECK(i >= 0 && hs_param_get(d, i) == 5.0, "signal.s.v.1");
    i = hs_param_find(d, "load.F.torque.z");
    CHECK(i >= 0 && !strcmp(d->param[i].unit, "N m"), "torque unit");
    i = hs_param_find(d, "integrator.t_end");
    CHECK(i >= 0 && hs_param_get(d, i) == 2.0 && !strcmp(d->param[i].unit, "s"), "t_end");
    /* an enumeration (the integrator's five, a signal's kind) is an int with a value name;
     * every other parameter a double */
    for (i = 0; i < d->nparam; ++i)
        if (d->param[i].type == HS_PARAM_ENUM)
            CHECK(d->param[i].offset + sizeof(int) <= sizeof(hs_model) && d->param[i].offset % sizeof(int) == 0 &&
                      hs_param_value_name(d, i) != NULL,
                  "offset and value name of the enumeration %s", d->param[i].name);
        else
            CHECK(d->param[i].offset + sizeof(double) <= sizeof(hs_model) &&
                      d->param[i].offset % sizeof(double) == 0 &&
                      d->param[i].type == HS_PARAM_DOUBLE && hs_param_value_name(d, i) == NULL,
                  "offset and type of %s", d->param[i].name);
    { /* the enumerations: where each lives in hs_model, and its default */
        static const struct { const char *name, *member, *dflt; size_t off; } E[] = {
            {"signal.s.kind", "sig_kind[0]", "knots", offsetof(hs_model, sig_kind)},
            {"integrator.formulation", "formulation", "penalty", offsetof(hs_model, formulation)},
            {"integrator.newton", "newton", "auto", offsetof(hs_model, newton)},
            {"integrator.predictor", "predictor", "auto", offsetof(hs_model, predictor)},
            {"integrator.method", "method", "auto", offsetof(hs_model, method)},
        };
        for (k = 0; k < (int)(sizeof E / sizeof E[0]); ++k) {
            i = hs_param_find(d, E[k].name);
            CHECK(i >= 0 && d->param[i].type == HS_PARAM_ENUM && d->param[i].offset == E[k].off &&
                      !strcmp(hs_param_value_name(d, i), E[k].dflt),
                  "%s: an enum at hs_model.%s, %s by default", E[k].name, E[k].member, E[k].dflt);
        }
    }
    i = hs_param_find(d, "signal.s.f");
    CHECK(i >= 0 && hs_param_get(d, i) == 1.0 && !strcmp(d->param[i].unit, "Hz") &&
              d->param[i].offset == offsetof(hs_model, sig_test) + HS_TP_F * sizeof(double),
          "signal.s.f: the sine's frequency, 1 Hz by default");
    i = hs_param_find(d, "integrator.tol_pressure");
    CHECK(i >= 0 && hs_param_get(d, i) == 1e-2 && !strcmp(d->param[i].unit, "Pa"),
          "tol_pressure default and unit");
    i = hs_param_find(d, "integrator.tol_friction");
    CHECK(i >= 0 && hs_param_get(d, i) == 1e-7, "tol_friction default");
    CHECK(isnan(hs_param_get(d, -1)) && isnan(hs_param_get(d, d->nparam)), "get out of range");
}

static void test_set(hs_model_desc *d)
{
    hs_error e;
    const hs_model *m = &d->model;
    double v;
    int rc;

    /* mass and length re-derive inertia and com */
    rc = hs_param_set(d, "body.link1.mass", 2.0, &e);
    CHECK(rc == HS_OK, "set mass: %s", e.msg);
    CHECK(m->body_mass[0] == 2.0, "mass set");
    CHECK_CLOSE(m->body_inertia[0][2], 2.0 / 12.0, 1e-15, "rod inertia re-derived");
    rc = hs_param_set(d, "body.link1.length", 2.0, &e);
    CHECK(rc == HS_OK && m->body_com[0][0] == 1.0, "length moves com");
    CHECK_CLOSE(m->body_inertia[0][1], 2.0 * 4.0 / 12.0, 1e-15, "length re-derives inertia");
    rc = hs_param_set(d, "body.slider.width", 0.2, &e);
    CHECK(rc == HS_OK, "beam width");
    CHECK_CLOSE(m->body_inertia[1][0], 2.0 * (0.04 + 0.01) / 12.0, 1e-15, "beam Ixx");

    /* invalid values are rejected and the old value (and derived ones) kept */
    rc = hs_param_set(d, "body.link1.mass", -1.0, &e);
    CHECK(rc == HS_ERR_VALUE && !strcmp(e.key, "body.link1.mass") &&
              strstr(e.msg, "mass must be > 0"),
          "negative mass rejected: %d %s %s", rc, e.key, e.msg);
    CHECK(m->body_mass[0] == 2.0, "old mass kept");
    CHECK_CLOSE(m->body_inertia[0][2], 2.0 * 4.0 / 12.0, 1e-15, "old inertia kept");
    rc = hs_param_set(d, "body.link1.length", NAN, &e);
    CHECK(rc == HS_ERR_VALUE && strstr(e.msg, "finite"), "NaN rejected: %s", e.msg);
    CHECK(m->body_dim[0][0] == 2.0 && m->body_com[0][0] == 1.0, "length kept after NaN");
    rc = hs_param_set(d, "body.box.inertia.zz", 3.0, &e); /* 1 + 1.5 < 3 */
    CHECK(rc == HS_ERR_VALUE && !strcmp(e.key, "body.box.inertia") &&
              strstr(e.msg, "triangle"),
          "triangle inequality: %s %s", e.key, e.msg);
    CHECK(m->body_inertia[2][2] == 2.0, "inertia kept");
    rc = hs_param_set(d, "body.box.inertia.xy", 1.3, &e); /* not positive definite */
    CHECK(rc == HS_ERR_VALUE && strstr(e.msg, "positive definite"), "indefinite inertia");
    CHECK(m->body_inertia[2][3] == 0.0, "xy kept");
    rc = hs_param_set(d, "body.box.inertia.xy", 0.2, &e);
    CHECK(rc == HS_OK && m->body_inertia[2][3] == 0.2, "valid product of inertia");

    /* an axis component: the given value is kept, the unit axis re-derived; zero is refused */
    rc = hs_param_set(d, "joint.jb.axis.z", 0.0, &e);
    CHECK(rc == HS_ERR_VALUE && strstr(e.msg, "axis must be non-zero") &&
              !strcmp(e.key, "joint.jb.axis"),
          "zero axis rejected: %s %s", e.key, e.msg);
    CHECK(m->joint_axis[2][2] == 1.0 && m->joint_axis[2][0] == 0.0, "axis restored");
    rc = hs_param_set(d, "joint.jb.axis.x", 1.0, &e);
    CHECK(rc == HS_OK && m->joint_axis[2][0] == 1.0 && m->joint_axis[2][2] == 1.0 &&
              fabs(m->joint_u[2][0] - sqrt(0.5)) < 1e-15 && fabs(m->joint_u[2][2] - sqrt(0.5)) < 1e-15,
          "axis kept as given, its unit copy re-derived after a component change");

    /* cut normal must stay perpendicular to its axis */
    rc = hs_param_set(d, "cut.P.normal_a.x", 0.5, &e);
    CHECK(rc == HS_ERR_VALUE && !strcmp(e.key, "cut.P.normal_a"), "normal_a: %s", e.msg);
    CHECK(m->cut_normal_a[0][0] == 0.0 && m->cut_normal_a[0][1] == 1.0, "normal_a kept");

    /* integrator rules */
    rc = hs_param_set(d, "integrator.dt", 3.0, &e);
    CHECK(rc == HS_ERR_VALUE && !strcmp(e.key, "integrator.dt") && strstr(e.msg, "<= t_end"),
          "dt > t_end rejected: %s", e.msg);
    CHECK(m->dt == 1e-3, "dt kept");
    rc = hs_param_set(d, "integrator.t_end", 1e-4, &e);
    CHECK(rc == HS_ERR_VALUE && m->t_end == 2.0, "t_end < dt rejected");
    rc = hs_param_set(d, "integrator.max_iter", 2.5, &e);
    CHECK(rc == HS_ERR_VALUE && strstr(e.msg, "integer") && m->max_iter == 20.0, "max_iter");
    rc = hs_param_set(d, "integrator.max_iter", 50, &e);
    CHECK(rc == HS_OK && m->max_iter == 50.0, "max_iter 50");

    /* signal knot times stay ordered */
    rc = hs_param_set(d, "signal.s.t.1", 3.0, &e);
    CHECK(rc == HS_ERR_VALUE && !strcmp(e.key, "signal.s.t.2") && m->knot_t[1] == 1.0,
          "knot order: %s %s", e.key, e.msg);
    rc = hs_param_set(d, "signal.s.t.1", 2.0, &e); /* a jump at t = 2 */
    CHECK(rc == HS_OK && m->knot_t[1] == 2.0, "jump allowed");
    rc = hs_param_set(d, "signal.s.t.0", 2.0, &e); /* three equal times */
    CHECK(rc == HS_ERR_VALUE && strstr(e.msg, "at most two"), "three equal times: %s", e.msg);
    { /* the same values drawn per instance (a sweep writes them in place): the instance is invalid */
        hs_model dm = *m;
        CHECK(hs_model_values_ok(&dm), "the knots as set: a valid instance");
        dm.knot_t[1] = 3.0;
        CHECK(!hs_model_values_ok(&dm), "a drawn knot time out of order: an invalid instance");
        dm.knot_t[1] = dm.knot_t[0] = 2.0;
        CHECK(!hs_model_values_ok(&dm), "three drawn knots at one time: an invalid instance");
        dm.knot_t[0] = NAN;
        CHECK(!hs_model_values_ok(&dm), "a drawn knot time NaN: an invalid instance");
    }

    rc = hs_param_set(d, "body.nobody.mass", 1.0, &e);
    CHECK(rc == HS_ERR_ARG && !strcmp(e.key, "body.nobody.mass"), "unknown parameter");

    /* NAME=VALUE strings with units */
    rc = hs_param_set_string(d, "body.link1.mass=3kg", &e);
    CHECK(rc == HS_OK && m->body_mass[0] == 3.0, "mass=3kg: %s", e.msg);
    rc = hs_param_set_string(d, "joint.j1.z0=-30 deg", &e);
    CHECK(rc == HS_OK && m->joint_z0[0] == -30 * HS_PI / 180, "z0=-30 deg");
    rc = hs_param_set_string(d, " body.link1.length = 800 mm ", &e);
    CHECK(rc == HS_OK && fabs(m->body_dim[0][0] - 0.8) < 1e-15, "spaces and mm: %s", e.msg);
    rc = hs_param_set_string(d, "integrator.dt=0.5ms", &e);
    CHECK(rc == HS_OK && m->dt == 5e-4, "dt=0.5ms");
    rc = hs_param_set_string(d, "joint.js.z0=25mm", &e);
    CHECK(rc == HS_OK && m->joint_z0[1] == 0.025, "prismatic z0=25mm");
    rc = hs_param_set_string(d, "signal.s.v.2=2 bar", &e);
    CHECK(rc == HS_OK && m->knot_v[2] == 2e5, "signal value with any unit");
    rc = hs_param_set_string(d, "gravity.y=-9.81 m/s^2", &e);
    CHECK(rc == HS_OK && m->gravity[1] == -9.81, "gravity with unit");
    rc = hs_param_set_string(d, "integrator.tol_position=1e-9 rad", &e);
    CHECK(rc == HS_OK && m->tol_z == 1e-9, "tol_position in rad: %s", e.msg);
    rc = hs_param_set_string(d, "body.link1.mass=1 m", &e);
    CHECK(rc == HS_ERR_ARG && strstr(e.msg, "kg") && m->body_mass[0] == 3.0, "unit mismatch: %s",
          e.msg);
    rc = hs_param_set_string(d, "integrator.penalty=3 mm", &e);
    CHECK(rc == HS_ERR_ARG && strstr(e.msg, "dimensionless"), "unit on dimensionless: %s", e.msg);
    rc = hs_param_set_string(d, "body.link1.mass", &e);
    CHECK(rc == HS_ERR_ARG && strstr(e.msg, "NAME=VALUE"), "no '='");
    rc = hs_param_set_string(d, "=3", &e);
    CHECK(rc == HS_ERR_ARG, "no name");
    rc = hs_param_set_string(d, "body.link1.mass=heavy", &e);
    CHECK(rc == HS_ERR_ARG && strstr(e.msg, "not a number"), "not a number");
    rc = hs_param_set_string(d, "body.x.mass=1", &e);
    CHECK(rc == HS_ERR_ARG && strstr(e.msg, "unknown parameter"), "unknown name");
    /* unknown names suggest the closest ones (edit distance), or those of the same form */
    rc = hs_param_set_string(d, "body.link1.mas=1", &e);
    CHECK(rc == HS_ERR_ARG && strstr(e.msg, "unknown parameter of model pm (did you mean "
                                            "body.link1.mass?) ('hydrosweep info pm.yaml' lists"),
          "one close name: %s", e.msg);
    rc = hs_param_set_string(d, "joint.j2.z0=1", &e);
    CHECK(rc == HS_ERR_ARG &&
              strstr(e.msg, "(did you mean joint.j1.z0, joint.js.z0 or joint.jb.z0?)"),
          "three names one edit away, in table order: %s", e.msg);
    rc = hs_param_set(d, "joint.knee.z0", 1.0, &e);
    CHECK(rc == HS_ERR_ARG && strstr(e.msg, "(did you mean joint.j1.z0, joint.js.z0 or joint.jb.z0?)"),
          "none close: the names of the same form joint.*.z0: %s", e.msg);
    rc = hs_param_set_string(d, "nothing=1", &e);
    CHECK(rc == HS_ERR_ARG && !strstr(e.msg, "did you mean"), "nothing near: %s", e.msg);
    {
        char buf[400], small[24];
        hs_param_suggest(d, "integrator.max_iters", buf, sizeof buf);
        CHECK(!strcmp(buf, " (did you mean integrator.max_iter?)"), "suggest: '%s'", buf);
        hs_param_suggest(d, "gravity.w", buf, sizeof buf);
        CHECK(strstr(buf, "gravity.x") && strstr(buf, "gravity.y") && strstr(buf, "gravity.z"),
              "suggest gravity.w: '%s'", buf);
        hs_param_suggest(d, "joint.j1.z0", small, sizeof small); /* truncated, terminated */
        CHECK(strlen(small) == sizeof small - 1 && !strncmp(small, " (did you mean joint.j1", 23),
              "small buffer: '%s'", small);
        hs_param_suggest(d, "", buf, sizeof buf);
        CHECK(buf[0] == '\0', "empty name: '%s'", buf);
    }
    rc = hs_param_set_string(d, "body.link1.mass=-1kg", &e);
    CHECK(rc == HS_ERR_VALUE && m->body_mass[0] == 3.0, "invalid value via string");
    v = hs_param_get(d, hs_param_find(d, "body.link1.mass"));
    CHECK(v == 3.0, "get after set");
}

/* Integer-valued parameters take integers in their range only; t_end and dt are bounded
 * (t_end / dt <= HS_MAX_STEPS) and set together by hs_model_set_time in either order. */
static void test_integers_and_steps(hs_model_desc *d)
{
    hs_error e;
    int i = hs_param_find(d, "integrator.max_iter"), rc;
    double t0 = d->model.t_end, d0 = d->model.dt;
    hs_param_set(d, "integrator.max_iter", 20.0, &e);
    CHECK(i >= 0 && d->param[i].integer && d->param[i].lo == 1.0 && d->param[i].hi == 1e6 &&
              d->param[i].type == HS_PARAM_DOUBLE,
          "max_iter is an integer parameter");
    CHECK(!d->param[hs_param_find(d, "body.link1.mass")].integer, "a mass is not");
    rc = hs_param_set(d, "integrator.max_iter", 2.0003, &e);
    CHECK(rc == HS_ERR_VALUE && !strcmp(e.key, "integrator.max_iter") && strstr(e.msg, "integer") &&
              d->model.max_iter == 20.0,
          "max_iter 2.0003 refused, old value kept: %s", e.msg);
    CHECK(hs_param_set_string(d, "integrator.max_iter=1e300", &e) == HS_ERR_VALUE &&
              d->model.max_iter == 20.0,
          "max_iter 1e300 refused: %s", e.msg);
    CHECK(hs_param_set_string(d, "integrator.max_iter=0", &e) == HS_ERR_VALUE, "max_iter 0");
    CHECK(hs_param_set_string(d, "integrator.max_iter=7", &e) == HS_OK && d->model.max_iter == 7.0,
          "max_iter 7: %s", e.msg);
    hs_param_set(d, "integrator.max_iter", 20.0, &e);

    rc = hs_param_set_string(d, "integrator.t_end=1e300", &e);
    CHECK(rc == HS_ERR_LIMIT && !strcmp(e.key, "integrator.t_end") &&
              strstr(e.msg, "HS_MAX_STEPS") && d->model.t_end == t0,
          "t_end 1e300: %d %s %s", rc, e.key, e.msg);
    rc = hs_param_set_string(d, "integrator.dt=1e-300 s", &e);
    CHECK(rc == HS_ERR_LIMIT && !strcmp(e.key, "integrator.dt") && d->model.dt == d0,
          "dt 1e-300: %d %s %s", rc, e.key, e.msg);
    /* 1e7 s at the old 1 ms step would be 1e10 steps, at 1 s it is 1e7: together it is fine */
    CHECK(hs_param_set(d, "integrator.t_end", 1e7, &e) == HS_ERR_LIMIT, "t_end alone refused");
    CHECK(hs_model_set_time(d, 1e7, 1.0, &e) == HS_OK && d->model.t_end == 1e7 &&
              d->model.dt == 1.0,
          "t_end and dt together: %s", e.msg);
    rc = hs_model_set_time(d, NAN, 1e-300, &e);
    CHECK(rc == HS_ERR_LIMIT && !strcmp(e.key, "integrator.dt") && d->model.dt == 1.0,
          "dt alone named: %s", e.key);
    rc = hs_model_set_time(d, 1e300, NAN, &e);
    CHECK(rc == HS_ERR_LIMIT && !strcmp(e.key, "integrator.t_end") && d->model.t_end == 1e7,
          "t_end alone named: %s", e.key);
    CHECK(hs_model_set_time(d, t0, d0, &e) == HS_OK && d->model.t_end == t0 && d->model.dt == d0,
          "restored");
}

/* An enumeration with numerals among its names takes its names only: cosim.extrapolation's
 * "5" is no order (its sixth name is integrate), and is refused, as in a sweep's values
 * (tests/bad_inputs/sweep_cosim_search_extrapolation.yaml); other enumerations take their
 * integers too. */
static void test_numeral_enums(void)
{
    hs_model_desc *d = (hs_model_desc *)calloc(1, sizeof *d);
    hs_error e;
    int rc, pi;
    if (!d) return;
    rc = hs_model_load("models/crane_rahikainen2020_single.yaml", d, &e);
    CHECK(rc == HS_OK, "crane loads (%s)", e.msg);
    if (rc == HS_OK) {
        pi = hs_param_find(d, "cosim.extrapolation");
        CHECK(pi >= 0 && !hs_param_enum_by_index(&d->param[pi]), "cosim.extrapolation: names only");
        rc = hs_param_set_string(d, "cosim.extrapolation=5", &e);
        CHECK(rc == HS_ERR_ARG && strstr(e.msg, "one of: 0, 1, 2, 3, 4, integrate") && !strstr(e.msg, "(5)"),
              "cosim.extrapolation=5 refused, the names listed without integers: %s", e.msg);
        rc = hs_param_set_string(d, "cosim.extrapolation=3", &e);
        CHECK(rc == HS_OK && d->model.cosim_extrap == 3, "cosim.extrapolation=3 is order 3");
        rc = hs_param_set_string(d, "cosim.extrapolation=integrate", &e);
        CHECK(rc == HS_OK && d->model.cosim_extrap == 5, "integrate by its name");
        pi = hs_param_find(d, "cosim.hydraulics");
        CHECK(pi >= 0 && hs_param_enum_by_index(&d->param[pi]), "cosim.hydraulics: names or integers");
        rc = hs_param_set_string(d, "cosim.hydraulics=2", &e);
        CHECK(rc == HS_OK && d->model.cosim_hyd == 2, "cosim.hydraulics=2 (rk4)");
    }
    hs_model_desc_free(d);
    free(d);
}

int main(void)
{
    hs_model_desc *d = (hs_model_desc *)calloc(1, sizeof *d);
    hs_error e;
    int rc;
    if (!d) return 1;
    test_quantities();
    test_numeral_enums();
    rc = hs_model_load_text(k_model, "pm.yaml", d, &e);
    CHECK(rc == HS_OK, "load: %d:%d %s %s", e.line, e.col, e.key, e.msg);
    if (rc == HS_OK) {
        test_table(d);
        test_set(d);
        test_integers_and_steps(d);
    }
    hs_model_desc_free(d);
    free(d);
    return tu_report("test_params");
}
