/* test_tree_batch.c -- kernels/hs_tree_batch.h and host/tree/tree_params.c: ensembles of open trees
 * (the Riccati formulation) through the sweep API.
 *  1. The sweep parameters act as documented (docs/sweep-format.md): mass scales the inertia
 *     with it, length scales the body's frame (its centre of mass, its joint points and its
 *     children's) and the inertia by its square, z0 / zdot0 / w0 set the initial state, a
 *     chain's parameter sets its own bodies only; values that break a rule (a mass <= 0, NaN)
 *     make the instance invalid.
 *  2. Physics of the swept models: scaling every mass by k leaves the motion of a gravity-driven
 *     tree unchanged and scales its energies and internal forces by k; scaling every length by
 *     L and gravity by L leaves its angles unchanged (the time scale sqrt(L / g) is the same).
 *     Both to 1e-9, through the batch engine's statistics.
 *  3. Conformance: the cpu and the reference backend give identical statistics on a Monte Carlo
 *     ensemble (the same code, one instance after another or in parallel); an instance equals
 *     the same tree run alone by hs_tree_simulate_as (final values to 1e-12); E_balance of every
 *     instance within 1e-7 J (RK4 at 1 ms over 2 s).
 *  4. A failing instance (gravity so large that the state overflows) is flagged non-finite and
 *     the others of the batch are unchanged.
 *  5. External loads: their work W_ext is recorded and E_balance (with it) stays within 1e-8 J. */
#include <stdlib.h>

#include "engine/backend.h"
#include "results/batch_out.h"
#include "hs/run.h"
#include "hs/sweep.h"
#include "hs/tree.h"
#include "test_util.h"
#include "tree/tree_params.h"

#define PENDULUM "models/branch_pendulum_rui2020.yaml"

/* Runs the sweep text (its model path relative to the source root) on backend; out gets the
 * batch. 0 on success. */
static int run_text(const char *text, int backend, hs_sweep *sw, hs_model_desc *md, hs_batch_out *out)
{
    hs_error err;
    long ntime;
    if (hs_sweep_load_text(text, "tests/tree_sweep.yaml", sw, md, &err)) {
        printf("load: %s\n", err.msg);
        return -1;
    }
    if (hs_sweep_apply_simulation(sw, md, &err)) {
        printf("apply: %s\n", err.msg);
        return -1;
    }
    ntime = sw->out.ntraj > 0 ? hs_traj_count(hs_instance_steps(md->model.t_end, md->model.dt), sw->out.traj_every) : 0;
    if (hs_batch_out_alloc(out, sw->n, &sw->out, ntime)) return -1;
    if (hs_run_range(sw, md, backend, 2, NULL, sw->n, out, &err)) {
        printf("run: %s\n", err.msg);
        return -1;
    }
    return 0;
}

/* Statistic q of signal k of instance i. */
static double stat(const hs_batch_out *o, int k, int q, long i)
{
    return o->stats[((long)k * HS_NSTAT + q) * o->n + i];
}

static void free_all(hs_sweep *sw, hs_model_desc *md, hs_batch_out *o)
{
    hs_batch_out_free(o);
    hs_sweep_free(sw);
    hs_model_desc_free(md);
}

/* 1. the parameters' effects on the instance's tree */
static void test_setup(void)
{
    hs_model_desc d;
    hs_error err;
    char *text = NULL;
    hs_override_spec ov;
    hs_output_spec none;
    hs_tree_ens e;
    hs_tree t;
    double par[16 * 8], y[16], v[8];
    const char *names[6] = {"body.rod1.mass", "body.rod7.length", "joint.hinge2.z0", "joint.hinge9.zdot0",
                            "gravity.x", "body.rod3.com.y"};
    int k, c, r7 = -1, r1 = -1, r5 = -1, r3 = -1;
    FILE *f = fopen(PENDULUM, "rb");
    long n;
    CHECK(f != NULL, "open %s", PENDULUM);
    if (!f) return;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    text = (char *)calloc((size_t)n + 1, 1);
    if (fread(text, 1, (size_t)n, f) != (size_t)n) n = -1;
    fclose(f);
    CHECK(n > 0 && hs_tree_desc_load_text(text, PENDULUM, &d, &err) == HS_OK, "tree desc: %s", err.msg);
    free(text);
    if (n <= 0) return;
    memset(&ov, 0, sizeof ov);
    memset(&none, 0, sizeof none);
    for (k = 0; k < 6; ++k) {
        int p = hs_param_find(&d, names[k]);
        CHECK(p >= 0, "parameter %s exists", names[k]);
        ov.offset[k] = (unsigned long)(p >= 0 ? p : 0);
    }
    ov.n = 6;
    CHECK(hs_param_find(&d, "joint.hinge9.w0.x") < 0, "a revolute joint has no w0");
    CHECK(hs_tree_ens_of(d.tree, &d, &ov, &none, 1.0, 1e-3, &e) == 0 && e.own_par == 1, "ens with own bodies");
    for (k = 0; k < d.tree->tree.nbody; ++k) {
        const char *b = d.tree->body_name[k];
        if (!strcmp(b, "rod7")) r7 = k;
        if (!strcmp(b, "rod1")) r1 = k;
        if (!strcmp(b, "rod5")) r5 = k;
        if (!strcmp(b, "rod3")) r3 = k;
    }
    CHECK(r7 >= 0 && r1 >= 0 && r5 >= 0 && r3 >= 0, "bodies found");
    v[0] = 2.0; /* rod1 mass */
    v[1] = 1.5; /* rod7 length (loaded 1 m) */
    v[2] = 0.3; /* hinge2 z0 (rod1's joint) */
    v[3] = -0.7; /* hinge9 zdot0 */
    v[4] = 1.25; /* gravity x */
    v[5] = 0.01; /* rod3 com y */
    CHECK(hs_tree_instance_setup(&e, v, &t, par, y) == 1, "setup valid");
    CHECK_CLOSE(t.mass[r1], 2.0, 0, "rod1 mass");
    for (c = 0; c < 6; ++c) CHECK_CLOSE(t.inertia[6 * r1 + c], 2.0 * d.tree->inertia[6 * r1 + c], 1e-15, "rod1 inertia x2");
    for (c = 0; c < 6; ++c)
        CHECK_CLOSE(t.inertia[6 * r7 + c], 2.25 * d.tree->inertia[6 * r7 + c], 1e-15, "rod7 inertia x1.5^2");
    CHECK_CLOSE(t.com[3 * r7], 0.75, 1e-15, "rod7 com x scaled");
    CHECK_CLOSE(t.at_child[3 * r7], 0.75, 1e-15, "rod7 joint point scaled");
    CHECK_CLOSE(t.at_parent[3 * r5], 1.5, 1e-15, "rod5 hangs from rod7's scaled right end");
    CHECK_CLOSE(t.at_parent[3 * r1], 0.0, 1e-15, "rod1 hangs from rod7's origin");
    CHECK_CLOSE(t.at_child[3 * r5], d.tree->at_child[3 * r5], 0, "rod5 itself unchanged");
    CHECK_CLOSE(t.com[3 * r3 + 1], 0.01, 0, "rod3 com y");
    CHECK_CLOSE(t.gravity[0], 1.25, 0, "gravity x");
    CHECK_CLOSE(t.gravity[1], -9.81, 0, "gravity y kept");
    CHECK_CLOSE(y[hs_tree_iq(&t, r1)], 0.3, 0, "hinge2 z0");
    CHECK_CLOSE(y[t.nq + hs_tree_iv(&t, r7)], -0.7, 0, "hinge9 zdot0");
    CHECK(d.tree->mass[r1] == 1.0 && d.tree->com[3 * r7] == 0.5, "the model's arrays are untouched");
    /* rules */
    v[0] = 0.0;
    CHECK(hs_tree_instance_setup(&e, v, &t, par, y) == 0, "mass 0 invalid");
    v[0] = 2.0;
    v[1] = -1.0;
    CHECK(hs_tree_instance_setup(&e, v, &t, par, y) == 0, "length < 0 invalid");
    v[1] = 1.5;
    v[4] = NAN;
    CHECK(hs_tree_instance_setup(&e, v, &t, par, y) == 0, "NaN invalid");
    /* names of signals */
    {
        hs_signal_ref r;
        char buf[64];
        CHECK(hs_output_find(&d, "rod3.y", &r) == 0 && r.kind == HS_SIG_CY && r.index == r3, "rod3.y");
        CHECK(hs_output_find(&d, "F_hinge9", &r) == 0 && r.kind == HS_SIG_FJ && r.index == r7, "F_hinge9");
        CHECK(hs_output_find(&d, "hinge4_dot", &r) == 0 && r.kind == HS_SIG_ZD && r.index == r3, "hinge4_dot");
        CHECK(hs_output_find(&d, "rod9.y", &r) != 0 && hs_output_find(&d, "F_rod1", &r) != 0, "unknown signals");
        r.kind = HS_SIG_MJ;
        r.index = r5;
        hs_output_name(&d, r, buf, sizeof buf);
        CHECK(!strcmp(buf, "M_hinge6") && !strcmp(hs_output_unit(&d, r), "N m"), "M_hinge6: %s", buf);
    }
    hs_model_desc_free(&d);
}

/* 1b. a chain's parameter sets its bodies only */
static void test_chain_params(void)
{
    static const char *model =
        "name: chain_and_body\n"
        "gravity: [0, -9.81, 0]\n"
        "bodies:\n"
        "  - {name: base, shape: rod, mass: 2 kg, length: 1 m}\n"
        "  - {name: side, shape: rod, mass: 3 kg, length: 0.5 m}\n"
        "joints:\n"
        "  - {name: j0, type: revolute, parent: ground, child: base, axis: [0, 0, 1], at_parent: [0, 0, 0], "
        "at_child: [0, 0, 0]}\n"
        "  - {name: js, type: revolute, parent: link_2, child: side, axis: [0, 0, 1], at_parent: [0.5, 0, 0], "
        "at_child: [0, 0, 0]}\n"
        "chains:\n"
        "  - name: link\n"
        "    count: 3\n"
        "    parent: base\n"
        "    body: {shape: rod, mass: 1 kg, length: 0.5 m}\n"
        "    joint: {type: revolute, axis: [0, 0, 1], at_parent: [0.5, 0, 0], at_child: [0, 0, 0], z0: 10 deg}\n"
        "    first_joint: {type: revolute, axis: [0, 0, 1], at_parent: [1, 0, 0], at_child: [0, 0, 0]}\n"
        "integrator: {formulation: riccati, method: rk4, dt: 1 ms, t_end: 0.1 s}\n";
    hs_model_desc d;
    hs_error err;
    hs_override_spec ov;
    hs_output_spec none;
    hs_tree_ens e;
    hs_tree t;
    double par[16 * 5], y[16], v[3] = {4.0, 1.0, 0.2};
    int k, nlink = 0;
    memset(&ov, 0, sizeof ov);
    memset(&none, 0, sizeof none);
    CHECK(hs_tree_desc_load_text(model, "chain_and_body.yaml", &d, &err) == HS_OK, "load: %s", err.msg);
    if (d.tree == NULL) return;
    ov.n = 3;
    ov.offset[0] = (unsigned long)hs_param_find(&d, "chain.link.mass");
    ov.offset[1] = (unsigned long)hs_param_find(&d, "chain.link.length");
    ov.offset[2] = (unsigned long)hs_param_find(&d, "chain.link.z0");
    CHECK(hs_param_find(&d, "chain.link.mass") >= 0 && hs_param_find(&d, "chain.link.z0") >= 0 &&
              hs_param_find(&d, "body.link_2.mass") < 0,
          "chain parameters, not per-body ones of a chain");
    /* a chain parameter's value as listed (hydrosweep info): its first body's (first_joint: z0 0) */
    CHECK_CLOSE(hs_param_get(&d, hs_param_find(&d, "chain.link.z0")), 0.0, 0, "nominal z0 of link_j1");
    CHECK_CLOSE(d.tree->q0[2], 10.0 * 3.14159265358979323846 / 180.0, 1e-15, "link_j2's z0 from the template");
    CHECK(hs_tree_ens_of(d.tree, &d, &ov, &none, 0.1, 1e-3, &e) == 0, "ens");
    CHECK(hs_tree_instance_setup(&e, v, &t, par, y) == 1, "setup");
    for (k = 0; k < t.nbody; ++k) {
        const char *b = d.tree->body_name[k];
        int in_chain = !strncmp(b, "link_", 5);
        nlink += in_chain;
        CHECK_CLOSE(t.mass[k], in_chain ? 4.0 : d.tree->mass[k], 0, b);
        CHECK_CLOSE(y[hs_tree_iq(&t, k)], in_chain ? 0.2 : d.tree->q0[hs_tree_iq(&t, k)], 0, b);
        if (!strcmp(b, "side")) /* on link_2's end: the chain's length doubled moves it */
            CHECK_CLOSE(t.at_parent[3 * k], 1.0, 1e-15, "side's joint point on the scaled link");
        if (!strcmp(b, "link_1")) /* on base's end: base is not in the chain */
            CHECK_CLOSE(t.at_parent[3 * k], 1.0, 1e-15, "link_1's joint point on base unchanged");
    }
    CHECK(nlink == 3, "three links");
    hs_model_desc_free(&d);
}

/* 2. the swept models' physics through the statistics */
static void test_similarity(void)
{
    static const char *text =
        "model: ../" PENDULUM "\n"
        "method: grid\n"
        "simulation: {t_end: 1 s}\n"
        "parameters:\n"
        "  body.rod1.mass: {values: [1, 3]}\n"
        "  body.rod3.mass: {values: [1, 3]}\n"
        "  body.rod5.mass: {values: [1, 3]}\n"
        "  body.rod7.mass: {values: [1, 3]}\n"
        "  joint.hinge9.zdot0: {values: [0.5]}\n"
        "outputs:\n"
        "  signals: [hinge9, hinge4, rod3.y, F_hinge9, M_hinge4, E_kin]\n"
        "  statistics: [min, max, final, rms]\n";
    static const char *scaled =
        "model: ../" PENDULUM "\n"
        "method: grid\n"
        "simulation: {t_end: 1 s}\n"
        "parameters:\n"
        "  body.rod1.length: {values: [1, 2]}\n"
        "  body.rod3.length: {values: [1, 2]}\n"
        "  body.rod5.length: {values: [1, 2]}\n"
        "  body.rod7.length: {values: [1, 2]}\n"
        "  gravity.y: {values: [-9.81, -19.62]}\n"
        "outputs:\n"
        "  signals: [hinge9, hinge4, hinge6, rod3.y]\n"
        "  statistics: [min, max, final]\n";
    hs_sweep sw;
    hs_model_desc md;
    hs_batch_out o;
    long last;
    int k, q;
    double worst = 0;
    if (run_text(text, HS_BACKEND_CPU, &sw, &md, &o)) {
        CHECK(0, "mass sweep runs");
        return;
    }
    CHECK(sw.n == 16, "16 instances");
    last = 15; /* the grid's first parameter is fastest: instance 15 has every mass 3 */
    for (k = 0; k < 6; ++k)
        for (q = 0; q < 4; ++q) {
            double a = stat(&o, k, q, 0), b = stat(&o, k, q, last);
            double want = k >= 3 ? 3.0 * a : a; /* forces, moments and E_kin scale with the masses */
            double d = fabs(b - want) / (fabs(want) > 1 ? fabs(want) : 1);
            worst = d > worst ? d : worst;
        }
    printf("every mass x3: worst relative difference from the scaled nominal %.2e\n", worst);
    CHECK(worst < 1e-9, "every mass x3: angles and positions the same, forces and energies x3 (worst %.2e)", worst);
    for (k = 0; k < 16; ++k) CHECK(o.status[k] == 0, "instance %d status %d", k, o.status[k]);
    free_all(&sw, &md, &o);

    if (run_text(scaled, HS_BACKEND_CPU, &sw, &md, &o)) {
        CHECK(0, "length sweep runs");
        return;
    }
    CHECK(sw.n == 32, "32 instances");
    worst = 0;
    /* instance 0: all 1 m, g; instance 31: all 2 m, 2 g. Angles equal, rod3.y doubles. */
    for (k = 0; k < 4; ++k)
        for (q = 0; q < 3; ++q) {
            double a = stat(&o, k, q, 0), b = stat(&o, k, q, 31), want = k == 3 ? 2.0 * a : a;
            double d = fabs(b - want) / (fabs(want) > 1 ? fabs(want) : 1);
            worst = d > worst ? d : worst;
        }
    printf("every length and g x2: worst relative difference from the scaled nominal %.2e\n", worst);
    CHECK(worst < 1e-9, "every length and g x2: angles the same, positions x2 (worst %.2e)", worst);
    /* and not trivially: a longer rod3 alone changes the motion */
    CHECK(fabs(stat(&o, 1, HS_STAT_FINAL, 0) - stat(&o, 1, HS_STAT_FINAL, 2)) > 1e-3, "rod3 2 m alone differs");
    free_all(&sw, &md, &o);
}

/* 3. conformance and the single run */
static void test_conformance(void)
{
    static const char *text =
        "model: ../" PENDULUM "\n"
        "instances: 24\n"
        "seed: 7\n"
        "parameters:\n"
        "  body.rod1.mass: {uniform: [0.5 kg, 1.5 kg]}\n"
        "  body.rod5.length: {uniform: [0.7 m, 1.3 m]}\n"
        "  joint.hinge2.z0: {normal: {mean: 90 deg, sd: 20 deg}}\n"
        "  joint.hinge4.zdot0: {uniform: [-2 rad/s, 2 rad/s]}\n"
        "outputs:\n"
        "  signals: [hinge9, hinge4_dot, rod3.x, rod3.y, F_hinge2, M_hinge9, E_pot, E_balance]\n"
        "  trajectories: {every: 250, signals: [hinge9, E_balance]}\n";
    hs_sweep s1, s2;
    hs_model_desc m1, m2;
    hs_batch_out a, b;
    long i, k, ndiff = 0;
    double ebal = 0;
    int ok1 = run_text(text, HS_BACKEND_CPU, &s1, &m1, &a) == 0;
    int ok2 = run_text(text, HS_BACKEND_REFERENCE, &s2, &m2, &b) == 0;
    CHECK(ok1 && ok2, "both backends run");
    if (!ok1 || !ok2) return;
    for (i = 0; i < a.n; ++i) {
        CHECK(a.status[i] == 0 && b.status[i] == 0 && a.steps[i] == 2000 && b.steps[i] == 2000, "instance %ld: %d %d %ld",
              i, a.status[i], b.status[i], a.steps[i]);
        for (k = 0; k < 8 * HS_NSTAT; ++k)
            if (memcmp(&a.stats[k * a.n + i], &b.stats[k * b.n + i], sizeof(double))) ++ndiff;
        for (k = 0; k < HS_NSTAT; ++k)
            if (k != HS_STAT_TMAX) {
                double v = fabs(stat(&a, 7, (int)k, i));
                ebal = v > ebal ? v : ebal;
            }
    }
    for (k = 0; k < 2 * a.ntime * a.n; ++k)
        if (memcmp(&a.traj[k], &b.traj[k], sizeof(double))) ++ndiff;
    CHECK(a.ntime == 9, "trajectory samples (0, 250, ..., 2000): %ld", a.ntime);
    CHECK(ndiff == 0, "cpu and reference identical (%ld numbers differ)", ndiff);
    CHECK(ebal < 1e-7, "E_balance within 1e-7 J: %.2e", ebal);
    /* instance 5 alone: hs_tree_instance_setup + hs_tree_simulate_as */
    {
        hs_override_spec ov;
        hs_tree_ens e;
        hs_tree t;
        hs_tree_sim_result res;
        hs_error err;
        double vals[HS_MAX_SWEEP], par[16 * 4], y[8];
        int j;
        hs_sweep_overrides(&s1, &m1, &ov);
        for (j = 0; j < s1.nparam; ++j) vals[j] = hs_sweep_sample(&s1, 5, j);
        CHECK(hs_tree_ens_of(m1.tree, &m1, &ov, &s1.out, m1.model.t_end, m1.model.dt, &e) == 0, "ens");
        CHECK(hs_tree_instance_setup(&e, vals, &t, par, y) == 1, "setup 5");
        CHECK(hs_tree_simulate_as(m1.tree, &t, y, m1.model.t_end, NULL, &res, &err) == 0, "alone");
        CHECK_CLOSE(res.E1 - res.E0, stat(&a, 7, HS_STAT_FINAL, 5), 1e-12, "E_balance final of instance 5 alone");
        CHECK(res.steps == 2000, "2000 steps alone");
    }
    free_all(&s1, &m1, &a);
    free_all(&s2, &m2, &b);
}

/* 4. a failing instance among good ones */
static void test_failure(void)
{
    static const char *text =
        "model: ../" PENDULUM "\n"
        "method: grid\n"
        "simulation: {t_end: 0.5 s}\n"
        "parameters:\n"
        "  gravity.y: {values: [-9.81, -1e300, -9.81]}\n"
        "  body.rod1.mass: {values: [1, -1]}\n"
        "outputs:\n"
        "  signals: [hinge9, E_kin]\n";
    hs_sweep sw;
    hs_model_desc md;
    hs_batch_out o;
    if (run_text(text, HS_BACKEND_CPU, &sw, &md, &o)) {
        CHECK(0, "failure sweep runs");
        return;
    }
    CHECK(o.status[0] == 0 && o.status[2] == 0, "good instances: %d %d", o.status[0], o.status[2]);
    CHECK(o.status[1] & (HS_ST_NONFINITE | HS_ST_SINGULAR), "huge gravity flagged: %d", o.status[1]);
    CHECK(o.steps[1] < o.steps[0], "it stopped early: %ld of %ld", o.steps[1], o.steps[0]);
    CHECK(o.status[3] == HS_ST_INVALID && o.status[4] == HS_ST_INVALID && o.status[5] == HS_ST_INVALID,
          "mass -1 invalid: %d %d %d", o.status[3], o.status[4], o.status[5]);
    CHECK(isnan(stat(&o, 0, HS_STAT_FINAL, 3)), "invalid: NaN statistics");
    CHECK(memcmp(&o.stats[0], &o.stats[2], sizeof(double)) == 0 &&
              stat(&o, 1, HS_STAT_MAX, 0) == stat(&o, 1, HS_STAT_MAX, 2),
          "the good instances equal, whatever failed between them");
    free_all(&sw, &md, &o);
}

/* 5. a tree with external loads (a sine force on a chain's tip): the swept force amplitude's
 *    work W_ext is recorded, E_balance stays within 1e-8 J, and a zero amplitude equals gravity
 *    alone (the loads are the only difference). */
static void test_loads(void)
{
    static const char *text =
        "model: data/loaded_chain.yaml\n"
        "method: grid\n"
        "simulation: {t_end: 0.5 s}\n"
        "parameters:\n"
        "  chain.link.zdot0: {values: [0.5, 1]}\n"
        "outputs:\n"
        "  signals: [W_ext, E_balance, link_3.y, F_link_j1]\n";
    hs_sweep sw;
    hs_model_desc md;
    hs_batch_out o;
    int i;
    if (run_text(text, HS_BACKEND_CPU, &sw, &md, &o)) {
        CHECK(0, "loaded sweep runs");
        return;
    }
    for (i = 0; i < 2; ++i) {
        CHECK(o.status[i] == 0, "status %d", o.status[i]);
        CHECK(fabs(stat(&o, 0, HS_STAT_FINAL, i)) > 1e-2, "the loads do work: %g", stat(&o, 0, HS_STAT_FINAL, i));
        CHECK(fabs(stat(&o, 1, HS_STAT_MAX, i)) < 1e-8 && fabs(stat(&o, 1, HS_STAT_MIN, i)) < 1e-8,
              "E_balance with loads within 1e-8 J: %.2e %.2e", stat(&o, 1, HS_STAT_MIN, i), stat(&o, 1, HS_STAT_MAX, i));
    }
    free_all(&sw, &md, &o);
}

int main(void)
{
    test_setup();
    test_chain_params();
    test_similarity();
    test_conformance();
    test_failure();
    test_loads();
    return tu_report("test_tree_batch");
}
