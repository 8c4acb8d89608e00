/* test_model_load.c -- YAML model loading: values, unit suffixes, body ordering, and that
 * every class of error names the right line, column and key. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hs/model_file.h"
#include "test_util.h"

static hs_model_desc *g_d; /* one heap descriptor (it is tens of kB) reused by every test */

static int load(const char *text, hs_error *e)
{
    hs_model_desc_free(g_d);
    return hs_model_load_text(text, "t.yaml", g_d, e);
}

/* Loading must fail with this code at this line:col and key, the message containing msg. */
static void expect_error(const char *what, const char *text, int code, int line, int col,
                         const char *key, const char *msg)
{
    hs_error e;
    tu_check_error(what, load(text, &e), &e, code, "t.yaml", line, col, key, msg);
    CHECK(e.code == code, "%s: e.code %d", what, e.code);
}

/* The error cases of one topic, a table. */
static void expect_errors(const tu_err_case *c, size_t n)
{
    for (; n--; ++c) expect_error(c->what, c->text, c->code, c->line, c->col, c->key, c->msg);
}

/* The YAML the texts repeat: a point body, a revolute joint about z (list items), and the
 * joints of a model of one body a. */
#define PT(name, mass) "  - {name: " #name ", shape: point, mass: " #mass "}\n"
#define REV(name, parent, child)                                                                              \
    "  - {name: " #name ", type: revolute, parent: " #parent ", child: " #child ", axis: [0, 0, 1]}\n"
#define J2 "joints:\n" REV(ja, ground, a)

static void test_valid_pendulum(void)
{
    const char *text = "name: dp\n"
                       "source: \"a test\"\n"
                       "gravity: [0, -9.81, 0]\n"
                       "bodies:\n"
                       "  - {name: link1, shape: rod, mass: 1 kg, length: 1 m}\n"
                       "  - {name: link2, shape: rod, mass: 500 g, length: 800 mm}\n"
                       "joints:\n"
                       "  - name: j1\n"
                       "    type: revolute\n"
                       "    parent: ground\n"
                       "    child: link1\n"
                       "    axis: [0, 0, 2]\n"
                       "    z0: -30 deg\n"
                       "  - name: j2\n"
                       "    type: revolute\n"
                       "    parent: link1\n"
                       "    child: link2\n"
                       "    axis: [0, 0, 1]\n"
                       "    at_parent: [1000 mm, 0, 0]\n"
                       "    zdot0: 0.5\n"
                       "    hold: true\n";
    hs_error e;
    const hs_model *m = &g_d->model;
    int rc = load(text, &e);
    CHECK(rc == HS_OK, "valid pendulum: %s", e.msg);
    if (rc != HS_OK) return;
    CHECK(!strcmp(g_d->name, "dp"), "name");
    CHECK(m->nbody == 2 && m->nz == 2 && m->nx == 2 && m->ncut == 0 && m->ncon == 0, "sizes");
    CHECK(!strcmp(g_d->body_name[0], "link1") && !strcmp(g_d->body_name[1], "link2"), "names");
    CHECK(m->body_parent[0] == -1 && m->body_parent[1] == 0, "parents");
    CHECK_CLOSE(m->body_mass[0], 1.0, 1e-15, "mass1");
    CHECK_CLOSE(m->body_mass[1], 0.5, 1e-15, "mass2 (500 g)");
    CHECK_CLOSE(m->body_dim[1][0], 0.8, 1e-15, "length2 (800 mm)");
    CHECK_CLOSE(m->body_com[0][0], 0.5, 1e-15, "com1");
    CHECK_CLOSE(m->body_com[1][0], 0.4, 1e-15, "com2");
    CHECK(m->body_com[1][1] == 0.0 && m->body_com[1][2] == 0.0, "com2 y z");
    CHECK(m->body_inertia[0][0] == 0.0, "rod Ixx = 0");
    CHECK_CLOSE(m->body_inertia[0][1], 1.0 / 12.0, 1e-15, "rod1 Iyy");
    CHECK_CLOSE(m->body_inertia[0][2], 1.0 / 12.0, 1e-15, "rod1 Izz");
    CHECK_CLOSE(m->body_inertia[1][2], 0.5 * 0.64 / 12.0, 1e-15, "rod2 Izz");
    CHECK_CLOSE(m->joint_u[0][2], 1.0, 1e-15, "unit axis derived");
    CHECK_CLOSE(m->joint_z0[0], -30.0 * HS_PI / 180.0, 1e-15, "z0 -30 deg");
    CHECK_CLOSE(m->joint_zd0[1], 0.5, 1e-15, "zdot0");
    CHECK_CLOSE(m->joint_at_parent[1][0], 1.0, 1e-15, "at_parent 1000 mm");
    CHECK(m->joint_hold[0] == 0 && m->joint_hold[1] == 1, "hold");
    CHECK(m->joint_rot0[0][0] == 1.0 && m->joint_rot0[0][4] == 1.0 && m->joint_rot0[0][8] == 1.0 &&
              m->joint_rot0[0][1] == 0.0,
          "rot0 identity");
    CHECK_CLOSE(m->gravity[1], -9.81, 1e-15, "gravity");
    CHECK(m->dt == 1e-3 && m->t_end == 1.0 && m->tol_z == 1e-7 && m->penalty == 1e9 &&
              m->max_iter == 20.0 && m->fd_rel == 1e-8 && m->fd_floor == 1e-2 &&
              m->tol_p == 1e-2 && m->tol_fs == 1e-7,
          "integrator defaults");
    CHECK(m->nvol == 0 && m->nsrc == 0 && m->nthr == 0 && m->ndcv == 0 && m->ncyl == 0 &&
              m->nfs == 0,
          "no hydraulics");
    CHECK(m->body_anc[1] == 3u && m->body_anc[0] == 1u, "ancestor masks");
    CHECK(hs_body_find(g_d, "link2") == 1 && hs_body_find(g_d, "ground") == -1 &&
              hs_body_find(g_d, "nope") == -1,
          "hs_body_find");
    CHECK(g_d->text && strstr(g_d->text, "name: dp") == g_d->text, "text kept");
    CHECK(!strcmp(g_d->path, "t.yaml"), "path");
}

static void test_shapes(void)
{
    const char *text = "name: shapes\n"
                       "bodies:\n"
                       "  - {name: bm, shape: beam, mass: 2, length: 1.5, width: 0.1, height: 0.05}\n"
                       "  - {name: cb, shape: cuboid, mass: 3, length: 0.2, width: 0.4, height: 0.6}\n"
                       "  - {name: pt, shape: point, mass: 4, com: [0.1, 0.2, 0.3]}\n"
                       "  - name: cu\n"
                       "    shape: custom\n"
                       "    mass: 5\n"
                       "    com: [0.5, 0, 0]\n"
                       "    inertia: [1, 2, 2.5, 0.1, 0, 0]\n"
                       "  - {name: rc, shape: rod, mass: 1, length: 2, com: [0.3, 0, 0]}\n"
                       "joints:\n" REV(j1, ground, bm)
                       "  - {name: j2, type: prismatic, parent: bm, child: cb, axis: [1, 0, 0], z0: 50 mm}\n"
                       "  - name: j3\n"
                       "    type: revolute\n"
                       "    parent: cb\n"
                       "    child: pt\n"
                       "    axis: [0, 1, 0]\n"
                       "    rotation0: {axis: [0, 0, 1], angle: 90 deg}\n"
                       REV(j4, pt, cu) REV(j5, cu, rc);
    hs_error e;
    const hs_model *m = &g_d->model;
    const double *R;
    int rc = load(text, &e);
    CHECK(rc == HS_OK, "shapes: %s", e.msg);
    if (rc != HS_OK) return;
    /* beam L x w x h along x: com at L/2, I = m/12 (w^2+h^2, L^2+h^2, L^2+w^2) */
    CHECK_CLOSE(m->body_com[0][0], 0.75, 1e-15, "beam com");
    CHECK_CLOSE(m->body_inertia[0][0], 2.0 * (0.01 + 0.0025) / 12.0, 1e-14, "beam Ixx");
    CHECK_CLOSE(m->body_inertia[0][1], 2.0 * (2.25 + 0.0025) / 12.0, 1e-14, "beam Iyy");
    CHECK_CLOSE(m->body_inertia[0][2], 2.0 * (2.25 + 0.01) / 12.0, 1e-14, "beam Izz");
    CHECK(m->body_com[1][0] == 0.0, "cuboid centred");
    CHECK_CLOSE(m->body_inertia[1][0], 3.0 * (0.16 + 0.36) / 12.0, 1e-14, "cuboid Ixx");
    CHECK_CLOSE(m->body_com[2][2], 0.3, 1e-15, "point com");
    CHECK(m->body_inertia[2][0] == 0.0 && m->body_inertia[2][2] == 0.0, "point inertia 0");
    CHECK(m->body_shape[3] == HS_SHAPE_CUSTOM && m->body_inertia[3][3] == 0.1 &&
              m->body_inertia[3][2] == 2.5 && m->body_com[3][0] == 0.5,
          "custom inertia and com");
    CHECK(m->body_com_given[4] == 1 && m->body_com[4][0] == 0.3, "rod com override");
    CHECK_CLOSE(m->body_inertia[4][2], 4.0 / 12.0, 1e-15, "rod with com override: inertia");
    CHECK(m->joint_type[1] == HS_JOINT_PRISMATIC && fabs(m->joint_z0[1] - 0.05) < 1e-15,
          "prismatic z0 50 mm");
    R = m->joint_rot0[2]; /* Rz(90 deg): x -> y */
    CHECK(fabs(R[0]) < 1e-15 && fabs(R[1] + 1.0) < 1e-15 && fabs(R[3] - 1.0) < 1e-15 &&
              fabs(R[8] - 1.0) < 1e-15,
          "rotation0 Rz(90 deg)");
}

/* Children listed before parents: bodies and joints are reordered parent-first, and the
 * names and parameters follow. */
static void test_sorting(void)
{
    const char *text = "name: sorted\nbodies:\n" PT(c, 3) PT(b, 2) PT(a, 1) "joints:\n" REV(jc, b, c) REV(jb, a, b)
                       "  - {name: ja, type: revolute, parent: ground, child: a, axis: [0, 0, 1], "
                       "z0: 10 deg}\n";
    const char *branch = "name: branch\nbodies:\n" PT(x, 1) PT(y, 2) PT(z, 3)
                         "joints:\n" REV(jz, ground, z) REV(jx, y, x) REV(jy, ground, y);
    hs_error e;
    const hs_model *m = &g_d->model;
    int rc = load(text, &e), i;
    CHECK(rc == HS_OK, "sorted: %s", e.msg);
    if (rc == HS_OK) {
        CHECK(!strcmp(g_d->body_name[0], "a") && !strcmp(g_d->body_name[1], "b") &&
                  !strcmp(g_d->body_name[2], "c"),
              "body order a b c");
        CHECK(!strcmp(g_d->joint_name[0], "ja") && !strcmp(g_d->joint_name[1], "jb") &&
                  !strcmp(g_d->joint_name[2], "jc"),
              "joint order ja jb jc");
        CHECK(m->body_parent[0] == -1 && m->body_parent[1] == 0 && m->body_parent[2] == 1,
              "parents");
        CHECK(m->body_mass[0] == 1 && m->body_mass[1] == 2 && m->body_mass[2] == 3, "masses");
        CHECK_CLOSE(m->joint_z0[0], 10 * HS_PI / 180, 1e-15, "z0 follows its joint");
        i = hs_param_find(g_d, "body.a.mass");
        CHECK(i >= 0 && g_d->param[i].offset == offsetof(hs_model, body_mass) &&
                  hs_param_get(g_d, i) == 1.0,
              "body.a.mass is body_mass[0]");
        i = hs_param_find(g_d, "body.c.mass");
        CHECK(i >= 0 && hs_param_get(g_d, i) == 3.0 &&
                  g_d->param[i].offset == offsetof(hs_model, body_mass) + 2 * sizeof(double),
              "body.c.mass is body_mass[2]");
        i = hs_param_find(g_d, "joint.ja.z0");
        CHECK(i >= 0 && g_d->param[i].offset == offsetof(hs_model, joint_z0), "joint.ja.z0");
    }
    /* ready bodies are taken in file order: y (ground), then x (on y), then z */
    rc = load(branch, &e);
    CHECK(rc == HS_OK, "branch: %s", e.msg);
    if (rc == HS_OK) {
        CHECK(!strcmp(g_d->body_name[0], "y") && !strcmp(g_d->body_name[1], "x") &&
                  !strcmp(g_d->body_name[2], "z"),
              "branch order y x z, got %s %s %s", g_d->body_name[0], g_d->body_name[1],
              g_d->body_name[2]);
        CHECK(m->body_parent[1] == 0 && m->body_parent[2] == -1, "branch parents");
        CHECK(!strcmp(g_d->joint_name[1], "jx"), "branch joints");
    }
}

static void test_sections(void)
{
    const char *text = "name: full\n"
                       "bodies:\n"
                       "  - {name: a, shape: rod, mass: 1, length: 1}\n"
                       "  - {name: b, shape: rod, mass: 1, length: 1}\n"
                       "joints:\n"
                       REV(ja, ground, a)
                       "  - {name: jb, type: revolute, parent: a, child: b, axis: [0, 0, 1], "
                       "at_parent: [1, 0, 0]}\n"
                       "cuts:\n"
                       "  - {name: C, type: revolute_planar, body_a: b, at_a: [1, 0, 0], "
                       "body_b: ground, at_b: [1, 0, 0]}\n"
                       "  - {name: P, type: prismatic, body_a: a, body_b: b, axis_a: [1, 0, 0], "
                       "axis_b: [1, 0, 0], normal_a: [0, 1, 0], normal_b: [0, 0, 1]}\n"
                       "points:\n"
                       "  - {name: tip, body: b, at: [1, 0, 0]}\n"
                       "  - {name: O, body: ground}\n"
                       "signals:\n"
                       "  - name: push\n"
                       "    knots: [[0, 0], [1 s, 100], [1 s, 0], [2500 ms, 2 bar]]\n"
                       "loads:\n"
                       "  - {name: F, body: b, at: [1, 0, 0], frame: body, force: [0, -10, 0], "
                       "force_signal: push, torque: [0, 0, 1]}\n"
                       "integrator: {dt: 0.5 ms, t_end: 2 s, max_iter: 7, fd_floor: 0.1,\n"
                       "             tol_pressure: 50 Pa, tol_friction: 1e-9 m}\n";
    hs_error e;
    const hs_model *m = &g_d->model;
    int rc = load(text, &e);
    CHECK(rc == HS_OK, "sections: %s", e.msg);
    if (rc != HS_OK) return;
    CHECK(m->ncut == 2 && m->cut_type[0] == HS_CUT_REVOLUTE_PLANAR &&
              m->cut_type[1] == HS_CUT_PRISMATIC,
          "cut types");
    CHECK(m->cut_body_a[0] == 1 && m->cut_body_b[0] == -1, "cut bodies");
    CHECK(m->cut_axis_a[0][2] == 1.0 && m->cut_axis_b[0][2] == 1.0, "cut axis default z");
    CHECK(m->ncon == 7 && m->cut_con0[1] == 2 && m->cut_ncon[1] == 5, "constraint equations");
    CHECK(m->npoint == 2 && m->point_body[1] == -1 && m->point_at[0][0] == 1.0 &&
              hs_point_find(g_d, "O") == 1,
          "points");
    CHECK(m->nsignal == 1 && m->nknot == 4 && m->sig_start[0] == 0 && m->sig_n[0] == 4, "signal");
    CHECK(m->knot_t[3] == 2.5 && m->knot_v[1] == 100.0 && m->knot_v[3] == 2e5,
          "knots with units");
    CHECK(m->nload == 1 && m->load_body[0] == 1 && m->load_frame[0] == HS_FRAME_BODY &&
              m->load_force_sig[0] == 0 && m->load_torque_sig[0] == -1 &&
              m->load_force_dir[0][1] == -10.0 && m->load_torque_dir[0][2] == 1.0,
          "load");
    CHECK(m->dt == 5e-4 && m->t_end == 2.0 && m->max_iter == 7.0 && m->fd_floor == 0.1 &&
              m->penalty == 1e9 && m->tol_p == 50.0 && m->tol_fs == 1e-9,
          "integrator");
}

static void test_model_files(void)
{
    hs_error e;
    const hs_model *m = &g_d->model;
    int rc;
    hs_model_desc_free(g_d);
    rc = hs_model_load("models/double_pendulum.yaml", g_d, &e);
    CHECK(rc == HS_OK, "models/double_pendulum.yaml: %s:%d:%d %s %s", e.file, e.line, e.col,
          e.key, e.msg);
    if (rc == HS_OK) {
        CHECK(!strcmp(g_d->name, "double_pendulum"), "file name");
        CHECK(m->nbody == 2 && m->body_parent[1] == 0, "file tree");
        CHECK(m->body_mass[0] == 1.0 && m->body_mass[1] == 1.0, "file masses");
        CHECK_CLOSE(m->body_inertia[1][2], 1.0 / 12.0, 1e-15, "file inertia");
        CHECK_CLOSE(m->joint_z0[0], -HS_PI / 4, 1e-15, "file z0 link1");
        CHECK_CLOSE(m->joint_z0[1], HS_PI / 6, 1e-15, "file z0 link2");
        CHECK(m->joint_at_parent[1][0] == 1.0 && m->gravity[1] == -9.81, "file geometry");
        CHECK(m->dt == 1e-3 && m->t_end == 10.0 && m->tol_z == 1e-10 && m->penalty == 1e9 &&
                  m->max_iter == 20.0,
              "file integrator");
    }
    hs_model_desc_free(g_d);
    rc = hs_model_load("models/does_not_exist.yaml", g_d, &e);
    CHECK(rc == HS_ERR_IO && !strcmp(e.file, "models/does_not_exist.yaml"), "missing file");
    hs_model_desc_free(g_d);
}

static void test_errors(void)
{
#define B1 "name: m\nbodies: [{name: a, shape: " /* one body a ... */
#define A1 B1 "point, mass: 1}]\n" J2               /* ... a point on joint ja */
    static const tu_err_case cases[] = {
        {"unknown key", "name: m\nbodies:\n  - name: a\n    shape: point\n    mass: 1\n    colour: red\n" J2,
         HS_ERR_SCHEMA, 6, 5, "bodies[0].colour", "unknown key (allowed here: name, shape"},
        {"unknown top-level key", "name: m\nbodys: []\n", HS_ERR_SCHEMA, 2, 1, "bodys", "unknown key"},
        {"missing mass", "name: m\nbodies:\n  - name: a\n    shape: point\n" J2, HS_ERR_SCHEMA, 3, 5, "bodies[0].mass",
         "required key is missing"},
        {"missing bodies", "name: m\njoints: []\n", HS_ERR_SCHEMA, 1, 1, "bodies", "required"},
        /* the negative-mass body is listed first but sorted second: the key is still its own */
        {"negative mass",
         "name: m\nbodies:\n  - {name: b, shape: point, mass: 2}\n  - name: a\n    shape: rod\n    length: 1\n"
         "    mass: -1 kg\njoints:\n" REV(jb, a, b) REV(ja, ground, a),
         HS_ERR_VALUE, 7, 11, "bodies[1].mass", "mass must be > 0"},
        {"bad parent",
         "name: m\nbodies: [{name: a, shape: point, mass: 1}]\njoints:\n  - name: ja\n    type: revolute\n"
         "    parent: nobody\n    child: a\n    axis: [0, 0, 1]\n",
         HS_ERR_VALUE, 6, 13, "joints[0].parent", "parent 'nobody' is not a body defined in bodies or ground"},
        {"duplicate name", "name: m\nbodies:\n" PT(a, 1) PT(a, 1) J2, HS_ERR_VALUE, 4, 12, "bodies[1].name",
         "duplicate body name 'a'"},
        {"zero axis",
         "name: m\nbodies: [{name: a, shape: point, mass: 1}]\njoints:\n  - name: ja\n    type: revolute\n"
         "    parent: ground\n    child: a\n    axis: [0, 0, 0]\n",
         HS_ERR_VALUE, 8, 11, "joints[0].axis", "axis must be non-zero"},
        {"malformed YAML", "name: x\nbodies: [1, 2]]\n", HS_ERR_PARSE, 2, 15, "", "YAML syntax"},
        {"duplicate key", "name: x\nname: y\n", HS_ERR_SCHEMA, 2, 1, "name", "duplicate key"},
        {"wrong type", B1 "point, mass: [1, 2]}]\n" J2, HS_ERR_SCHEMA, 2, 40, "bodies[0].mass", "must be a number"},
        {"wrong unit", B1 "point, mass: 1 m}]\n" J2, HS_ERR_SCHEMA, 2, 40, "bodies[0].mass", "has unit m, expected kg"},
        {"unknown unit", B1 "point, mass: 1 lb}]\n" J2, HS_ERR_SCHEMA, 2, 40, "bodies[0].mass", "not a finite number"},
        {"bad shape", B1 "ball, mass: 1}]\n" J2, HS_ERR_SCHEMA, 2, 27, "bodies[0].shape",
         "must be one of: custom, rod"},
        {"width on a rod", B1 "rod, mass: 1, length: 1, width: 1}]\n" J2, HS_ERR_SCHEMA, 2, 52, "bodies[0].width",
         "not used by shape rod"},
        {"inertia on a rod", B1 "rod, mass: 1, length: 1, inertia: [1, 1, 1, 0, 0, 0]}]\n" J2, HS_ERR_SCHEMA, 2, 52,
         "bodies[0].inertia", "custom only"},
        {"bad custom inertia", "name: m\nbodies:\n  - {name: a, shape: custom, mass: 1, inertia: [1, 1, 3, 0, 0, 0]}\n"
         J2, HS_ERR_VALUE, 3, 48, "bodies[0].inertia", "triangle inequality"},
        {"zero length", B1 "rod, mass: 1, length: 0 mm}]\n" J2, HS_ERR_VALUE, 2, 49,
         "bodies[0].length", "length must be > 0"},
        {"ground body", "name: m\nbodies: [{name: ground, shape: point, mass: 1}]\n" J2, HS_ERR_VALUE, 2, 17,
         "bodies[0].name", "reserved"},
        {"bad name", "name: my model\n", HS_ERR_SCHEMA, 1, 7, "name", "not a valid name"},
        {"orphan body", "name: m\nbodies:\n" PT(a, 1) PT(b, 1) J2, HS_ERR_VALUE, 4, 12, "bodies[1].name",
         "a body must be the child of exactly one joint"},
        {"two joints on one body", A1 REV(jb, ground, a), HS_ERR_VALUE, 5, 55, "joints[1].child",
         "already the child of joint 'ja'"},
        {"kinematic loop", "name: m\nbodies:\n" PT(a, 1) PT(b, 1) "joints:\n" REV(ja, b, a) REV(jb, a, b),
         HS_ERR_VALUE, 6, 40, "joints[0].parent", "kinematic loop in joints: use a cut joint"},
        {"dt > t_end", A1 "integrator:\n  t_end: 1 ms\n  dt: 2 ms\n", HS_ERR_VALUE, 7, 7, "integrator.dt",
         "dt must be > 0 and <= t_end"},
        {"max_iter not integer", A1 "integrator: {max_iter: 2.5}\n", HS_ERR_VALUE, 5, 24, "integrator.max_iter",
         "integer"},
        {"prismatic cut normal",
         A1 "cuts:\n  - name: P\n    type: prismatic\n    body_a: a\n    body_b: ground\n    axis_a: [1, 0, 0]\n"
            "    axis_b: [1, 0, 0]\n    normal_a: [1, 1, 0]\n    normal_b: [0, 1, 0]\n",
         HS_ERR_VALUE, 12, 15, "cuts[0].normal_a", "perpendicular to axis_a"},
        {"normal on a revolute cut", A1 "cuts:\n  - {name: C, type: revolute, body_a: a, body_b: ground, "
         "normal_b: [0, 1, 0]}\n", HS_ERR_SCHEMA, 6, 58, "cuts[0].normal_b", "prismatic cuts only"},
        {"knots out of order", A1 "signals:\n  - {name: s, knots: [[0, 0], [2, 1], [1, 0]]}\n", HS_ERR_VALUE, 6, 39,
         "signals[0].knots[2]", "non-decreasing"},
        {"unknown signal", A1 "loads:\n  - {name: F, body: a, force: [1, 0, 0], force_signal: nope}\n", HS_ERR_VALUE,
         6, 56, "loads[0].force_signal", "not a signal defined"},
        {"vector length", "name: m\ngravity: [0, -9.81]\n", HS_ERR_SCHEMA, 2, 10, "gravity", "list of 3 numbers"},
        {"alias", "name: &n m\nsource: *n\n", HS_ERR_PARSE, 2, 10, "", "aliases"},
        {"two documents", "name: m\n---\nname: n\n", HS_ERR_PARSE, 2, 1, "", "exactly one YAML document"},
        {"empty", "", HS_ERR_SCHEMA, 1, 1, "", "empty"},
        {"not a mapping", "- 1\n- 2\n", HS_ERR_SCHEMA, 1, 1, "", "must be a mapping"}};
    char *big;
    size_t used = 0;
    int k;
    hs_error e;
    char buf[1024];

    expect_errors(cases, sizeof cases / sizeof cases[0]);

    /* limits: the first item beyond HS_MAX_BODIES is the one reported */
    big = (char *)malloc(8192);
    if (!big) return;
    used += (size_t)sprintf(big + used, "name: big\nbodies:\n");
    for (k = 0; k <= HS_MAX_BODIES; ++k)
        used += (size_t)sprintf(big + used, "  - {name: b%d, shape: point, mass: 1}\n", k);
    sprintf(big + used, "joints: []\n");
    {
        char key[32], msg[80];
        snprintf(key, sizeof key, "bodies[%d]", HS_MAX_BODIES);
        snprintf(msg, sizeof msg, "too many bodies: %d (HS_MAX_BODIES is %d)", HS_MAX_BODIES + 1, HS_MAX_BODIES);
        expect_error("too many bodies", big, HS_ERR_LIMIT, 3 + HS_MAX_BODIES, 5, key, msg);
        /* HS_MAX_CON / 5 + 1 revolute cuts (5 equations each) need more than HS_MAX_CON: the
         * last is reported */
        used = (size_t)sprintf(big, A1 "cuts:\n");
        for (k = 0; k <= HS_MAX_CON / 5; ++k)
            used += (size_t)sprintf(big + used,
                                    "  - {name: c%d, type: revolute, body_a: a, body_b: ground}\n", k);
        snprintf(key, sizeof key, "cuts[%d]", HS_MAX_CON / 5);
        snprintf(msg, sizeof msg, "HS_MAX_CON is %d", HS_MAX_CON);
        expect_error("too many equations", big, HS_ERR_LIMIT, 6 + HS_MAX_CON / 5, 5, key, msg);
    }
    free(big);

    /* the formatted message */
    load("name: m\nbodies: [{name: a, shape: point, mass: -2}]\n" J2, &e);
    hs_error_format(&e, buf, sizeof buf);
    CHECK(!strcmp(buf, "t.yaml:2:40: error: key 'bodies[0].mass': mass must be > 0"),
          "format: '%s'", buf);
    /* a failed load leaves a descriptor that can be freed (and nothing to free) */
    CHECK(g_d->param == NULL && g_d->text == NULL, "failed load holds no memory");
#undef A1
#undef B1
}

/* The text must be UTF-8 YAML text: the first byte that is not, or a control character, is
 * an error at its line and column (in characters) with the key on that line, comments
 * included, before libfyaml can drop the rest of the file; the step count is bounded. */
static void test_text_and_steps(void)
{
#define P1 "name: p\nbodies:\n  - {name: a, shape: point, mass: 1 kg}\n" J2
    static const tu_err_case cases[] = {
        {"0xFF in a comment", P1 "integrator:\n  dt: 1 ms  # \xff\n  t_end: 10 s\n", HS_ERR_PARSE, 7, 15,
         "integrator.dt", "byte 0xFF is not valid UTF-8"},
        {"Latin-1 in a value", P1 "integrator: {penalty: 1e1\xe9}\n", HS_ERR_PARSE, 6, 26, "integrator.penalty",
         "byte 0xE9"},
        {"a column in characters", "name: \xc3\xa9t\xc3\xa9 \xff\n", HS_ERR_PARSE, 1, 11, "name", "byte 0xFF"},
        {"truncated sequence at the end", P1 "# \xe2\x82", HS_ERR_PARSE, 6, 3, "", "byte 0xE2"},
        {"overlong", P1 "# \xc0\xaf\n", HS_ERR_PARSE, 6, 3, "", "byte 0xC0"},
        {"surrogate", P1 "# \xed\xa0\x80\n", HS_ERR_PARSE, 6, 3, "", "byte 0xED"},
        {"above U+10FFFF", P1 "# \xf4\x90\x80\x80\n", HS_ERR_PARSE, 6, 3, "", "byte 0xF4"},
        {"escape", P1 "# \x1b[1m\n", HS_ERR_PARSE, 6, 3, "", "control character U+001B"},
        {"DEL", "name: p\x7f\n", HS_ERR_PARSE, 1, 8, "name", "U+007F"},
        {"C1", "name: p # \xc2\x9b\n", HS_ERR_PARSE, 1, 11, "name", "U+009B"},
        {"U+FFFE", "name: p # \xef\xbf\xbe\n", HS_ERR_PARSE, 1, 11, "name", "U+FFFE"},
        /* t_end / dt at most HS_MAX_STEPS, named after the key given (or the one off its usual size) */
        {"dt 1e-300", P1 "integrator:\n  dt: 1e-300 s\n", HS_ERR_LIMIT, 7, 7, "integrator.dt", "at most 1e+09 steps"},
        {"t_end 1e300", P1 "integrator:\n  t_end: 1e300 s\n", HS_ERR_LIMIT, 7, 10, "integrator.t_end",
         "at most 1e+09 steps"},
        {"t_end 1e9 with dt", P1 "integrator:\n  dt: 1 ms\n  t_end: 1e9 s\n", HS_ERR_LIMIT, 8, 10, "integrator.t_end",
         "at most 1e+09 steps"},
        {"max_iter 2.0003", P1 "integrator: {max_iter: 2.0003}\n", HS_ERR_VALUE, 6, 24, "integrator.max_iter",
         "integer"}};
    hs_error e;
    char buf[4096];
    expect_errors(cases, sizeof cases / sizeof cases[0]);
    /* valid UTF-8 passes: multi-byte characters in comments and strings, a BOM, CRLF, tabs */
    snprintf(buf, sizeof buf,
             "\xef\xbb\xbfname: p  # \xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\r\n"
             "source: \"\xc2\xb5s \xe2\x80\x94\tok\"\r\n%s",
             "bodies:\n  - {name: a, shape: point, mass: 1 kg}\n" J2);
    CHECK(load(buf, &e) == HS_OK, "valid UTF-8, BOM, CRLF, tab: %s", e.msg);
    CHECK(load(P1 "integrator:\n  dt: 1 ms\n  t_end: 1e6 s\n", &e) == HS_OK, "exactly 1e9 steps: %s", e.msg);
#undef P1
}

int main(void)
{
    g_d = (hs_model_desc *)calloc(1, sizeof *g_d);
    if (!g_d) return 1;
    test_valid_pendulum();
    test_shapes();
    test_sorting();
    test_sections();
    test_model_files();
    test_errors();
    test_text_and_steps();
    hs_model_desc_free(g_d);
    free(g_d);
    return tu_report("test_model_load");
}
