/* test_kernel_spec.c -- host/engine/kernel_spec.c and host/engine/kernel_build.c: the engine specialised to
 * a model structure.
 *  - the field table describes every byte of hs_model (a member added to the model without
 *    the table fails here);
 *  - what varies per instance: for every double parameter of every shipped model, what
 *    hs_model_derive changes when it changes lies within the members the specialised build
 *    gives each instance (derive_rules of kernel_spec.c);
 *  - the values no instance varies are constants of the generated source;
 *  - the CPU build of the specialised engine (the host compiler, at run time) equals the
 *    generic engine to the bit (its constants folded exactly): on a sweep that varies every double parameter of the Pub. I
 *    model and of the seed 003 four-bar at once (each instance a different random
 *    combination, invalid ones among them), for every shipped model with its defaults, and
 *    with modified Newton;
 *  - a swept enumeration cannot be specialised, and says so;
 *  - the cache: a second build is found there; a compiler that fails is reported;
 *  - a compiler that refuses -march=native gets a baseline build; HS_CPU_NATIVE=0 asks for it. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/backend.h"
#include "results/batch_out.h"
#include "hs/model_file.h"
#include "engine/kernel_build.h"
#include "engine/kernel_spec.h"
#include "test_util.h"

static const char *const models[] = {
    "models/crane_rahikainen2020_single.yaml", "models/double_pendulum.yaml", "models/fourbar_jaiswal2021.yaml",
    "models/fourbar_jaiswal2021_friction.yaml", "models/fourbar_rahikainen2018.yaml",
    "models/fourbar_rahikainen2018_mech.yaml", "models/fourbar_rahikainen2018_smallvalve.yaml",
    "models/quickreturn_jaiswal2021.yaml", "models/fourbar3d_agundez2023.yaml", "models/knife_edge_pendulum.yaml",
    "models/crane_rahikainen2020_double.yaml", "models/crane_pump_relief.yaml", "tests/data/crane_ls.yaml",
    "tests/data/crane_hose.yaml", NULL};

static void test_field_table(void)
{
    static unsigned char owner[sizeof(hs_model)];
    int i, gaps = 0, overlaps = 0;
    size_t b;
    memset(owner, 0, sizeof owner);
    for (i = 0; hs_model_fields[i].name; ++i) {
        const hs_field *f = &hs_model_fields[i];
        size_t el = f->type == HS_FT_DOUBLE ? sizeof(double) : sizeof(int), n, end;
        n = f->counted ? 0 : (size_t)f->fixed * (size_t)f->inner;
        if (f->counted) /* up to the next member: the HS_MAX_* capacity */
            end = hs_model_fields[i + 1].name ? hs_model_fields[i + 1].offset : sizeof(hs_model);
        else
            end = f->offset + el * n;
        for (b = f->offset; b < end && b < sizeof owner; ++b) {
            if (owner[b]) ++overlaps;
            owner[b] = 1;
        }
        CHECK(hs_field_at(f->offset) == i, "hs_field_at finds %s", f->name);
    }
    /* padding: at most 4 bytes after an int before a double */
    for (b = 0; b < sizeof owner; ++b)
        if (!owner[b]) {
            size_t e = b;
            while (e < sizeof owner && !owner[e]) ++e;
            if (e - b > 4) ++gaps;
            b = e;
        }
    CHECK(overlaps == 0 && gaps == 0, "the field table tiles hs_model (%d overlaps, %d gaps over 4 bytes)", overlaps,
          gaps);
    CHECK(hs_field_at(offsetof(hs_model, cyl_fp) + (HS_MAX_FP + HS_FP_FS) * sizeof(double)) ==
              hs_field_at(offsetof(hs_model, cyl_fp)),
          "an element of cyl_fp belongs to cyl_fp");
}

/* Every double parameter of every shipped model: the members hs_model_derive changes are among
 * those the specialised build lets vary when that parameter is swept. */
static void test_varying_closure(void)
{
    static hs_model_desc d;
    static hs_model a, b;
    int f;
    for (f = 0; models[f]; ++f) {
        hs_error e;
        int p, bad = 0, checked = 0;
        if (tu_load_model(models[f], &d)) continue;
        for (p = 0; p < d.nparam; ++p) {
            hs_override_spec ov;
            hs_output_spec out;
            hs_spec sp;
            double v;
            int fi;
            if (d.param[p].type != HS_PARAM_DOUBLE) continue;
            memset(&ov, 0, sizeof ov);
            memset(&out, 0, sizeof out);
            out.nsig = 1;
            ov.n = 1;
            ov.offset[0] = d.param[p].offset;
            a = d.model;
            memcpy(&v, (char *)&a + d.param[p].offset, sizeof v);
            v = v * 1.1 + 0.01;
            b = a;
            memcpy((char *)&b + d.param[p].offset, &v, sizeof v);
            hs_model_derive(&b);
            if (hs_spec_build(&a, &ov, &out, &sp, &e) || !sp.source) {
                CHECK(0, "%s: %s specialises", models[f], d.param[p].name);
                continue;
            }
            for (fi = 0; hs_model_fields[fi].name; ++fi) {
                const hs_field *fl = &hs_model_fields[fi];
                size_t el = fl->type == HS_FT_DOUBLE ? sizeof(double) : sizeof(int);
                size_t n = (size_t)hs_field_count(fl, &a) * (size_t)fl->inner * el;
                int k, var = 0;
                if (memcmp((char *)&a + fl->offset, (char *)&b + fl->offset, n) == 0) continue;
                for (k = 0; k < sp.nvarf; ++k)
                    if (sp.varf[k] == fi) var = 1;
                for (k = 0; k < sp.nintg; ++k) /* an integer shortcut: compiled as its general value */
                    if (sp.intg[k] == fi) var = 1;
                if (!var) {
                    ++bad;
                    printf("  %s: sweeping %s changes %s, which the specialised build does not vary\n", models[f],
                           d.param[p].name, fl->name);
                }
            }
            ++checked;
            hs_spec_free(&sp);
        }
        CHECK(bad == 0 && checked > 20, "%s: %d parameters, what each changes varies per instance (%d missed)",
              models[f], checked, bad);
        hs_model_desc_free(&d);
    }
}

static int same(const hs_batch_out *a, const hs_batch_out *b, const hs_output_spec *sp)
{
    size_t n = (size_t)a->n;
    return a->n == b->n && !memcmp(a->status, b->status, n * sizeof *a->status) &&
           !memcmp(a->steps, b->steps, n * sizeof *a->steps) &&
           !memcmp(a->iters_mean, b->iters_mean, n * sizeof *a->iters_mean) &&
           !memcmp(a->iters_max, b->iters_max, n * sizeof *a->iters_max) &&
           !memcmp(a->stats, b->stats, n * (size_t)sp->nsig * HS_NSTAT * sizeof *a->stats) &&
           (!a->traj || !memcmp(a->traj, b->traj, n * (size_t)sp->ntraj * (size_t)a->ntime * sizeof *a->traj));
}

static void run_compare(const char *what, const hs_model *m, const hs_override_spec *ov, long cnt, const double *v);

/* cnt instances of model m, each overriding every parameter in ov with a random change of
 * +-rel (some instances invalid); the specialised and the generic CPU engine: equal bits. */
static void compare_engines(const char *what, const hs_model *m, const hs_override_spec *ov, long cnt,
                            double rel)
{
    static double v[HS_MAX_SWEEP * 64];
    long i;
    int j;
    for (i = 0; i < cnt; ++i)
        for (j = 0; j < ov->n; ++j) {
            double x;
            memcpy(&x, (const char *)m + ov->offset[j], sizeof x);
            /* zeros move too (by 1e-3 absolute) when rel >= 1e-2: a planar model then tilts */
            v[i * ov->n + j] = i == 0 ? x
                                      : x * (1.0 + tu_rand(-rel, rel)) +
                                            (x == 0.0 && rel >= 1e-2 ? tu_rand(-1e-3, 1e-3) : 0.0);
            if (i == 5 && ov->offset[j] == offsetof(hs_model, B_oil)) v[i * ov->n + j] = -1.0; /* invalid */
        }
    run_compare(what, m, ov, cnt, v);
}

/* The instances of model m with the sampled values v (cnt x ov->n) on the specialised and the
 * generic CPU engine: equal bits. */
static void run_compare(const char *what, const hs_model *m, const hs_override_spec *ov, long cnt, const double *v)
{
    hs_output_spec out;
    hs_batch_out og, os;
    hs_batch_job job;
    hs_error e;
    long i, nsteps = hs_instance_steps(m->t_end, m->dt), ninvalid = 0, nstep = 0;
    int rc1, rc2;
    memset(&out, 0, sizeof out);
    out.nsig = 5;
    out.sig[0].kind = HS_SIG_Z;
    out.sig[1].kind = HS_SIG_EBAL;
    out.sig[2].kind = HS_SIG_PHI;
    out.sig[3].kind = HS_SIG_ITERS;
    out.sig[4].kind = m->ncyl > 0 ? HS_SIG_F : HS_SIG_ZD;
    if (m->nvol > 0) { /* a circuit's energy audit: the specialised build compiles it in for these */
        out.sig[5].kind = HS_SIG_WIN;
        out.sig[6].kind = HS_SIG_WLOSS;
        out.sig[7].kind = HS_SIG_EFLUID;
        out.nsig = 8;
    }
    out.stats = (1u << HS_NSTAT) - 1;
    out.traj_every = 25;
    out.ntraj = 1;
    out.traj[0].kind = m->nvol > 0 ? HS_SIG_P : HS_SIG_Z;
    memset(&job, 0, sizeof job);
    job.base = m;
    job.ov = ov;
    job.spec = &out;
    job.cnt = cnt;
    job.values = v;
    job.out = &og;
    hs_batch_out_alloc(&og, cnt, &out, hs_traj_count(nsteps, out.traj_every));
    hs_batch_out_alloc(&os, cnt, &out, hs_traj_count(nsteps, out.traj_every));
    setenv("HS_CPU_ENGINE", "generic", 1);
    rc1 = hs_backend_cpu(&job, 1, &e);
    job.out = &os;
    setenv("HS_CPU_ENGINE", "specialised", 1);
    rc2 = hs_backend_cpu(&job, 2, &e);
    unsetenv("HS_CPU_ENGINE");
    for (i = 0; i < cnt; ++i) {
        ninvalid += og.status[i] == HS_ST_INVALID;
        nstep += og.steps[i];
    }
    printf("  %s: %ld instances (%ld invalid), %ld steps in all\n", what, cnt, ninvalid, nstep);
    /* adaptive steps: far fewer than t_end / dt (about 200 per instance here) */
    CHECK(nstep >= (cnt - ninvalid) * (m->step == HS_STEP_ADAPTIVE ? 50 : nsteps / 2),
          "%s: the valid instances ran (%ld steps)", what, nstep);
    CHECK(rc1 == 0 && rc2 == 0 && same(&og, &os, &out),
          "%s: the specialised CPU engine equals the generic one to the bit (%ld instances, %d parameters, %ld "
          "invalid; %s)",
          what, cnt, ov->n, ninvalid, rc2 ? e.msg : "");
    hs_batch_out_free(&og);
    hs_batch_out_free(&os);
}

/* Sweeps that vary every double parameter of the model, HS_MAX_SWEEP at a time (each pass a
 * separate specialised build), the oil bulk modulus always among them and negative in
 * instance 5 (invalid: flagged on the host, never run). */
static void test_every_parameter(const char *file, double t_end, int newton, int step, double rel, const char *skip)
{
    static hs_model_desc d;
    hs_override_spec ov;
    int p = 0, k, pass = 0;
    char what[200];
    if (tu_load_model(file, &d)) return;
    d.model.t_end = t_end;
    d.model.newton = newton;
    d.model.step = step;
    while (p < d.nparam) {
        memset(&ov, 0, sizeof ov);
        ov.offset[0] = offsetof(hs_model, B_oil);
        for (k = 1; p < d.nparam && k < 32; ++p) /* passes of 32, each its own comparison */
            /* integer parameters (max_iter) take integers only: a fraction would make the
             * instance invalid (kernels/hs_rules.h) and leave the pass nothing to compare */
            if (d.param[p].type == HS_PARAM_DOUBLE && !d.param[p].integer && d.param[p].offset != offsetof(hs_model, B_oil) &&
                !(skip && strstr(d.param[p].name, skip)))
                ov.offset[k++] = d.param[p].offset;
        ov.n = k;
        snprintf(what, sizeof what, "%s, pass %d: %d parameters swept (up to %d of %d)%s%s", file, pass + 1, k, p,
                 d.nparam, newton ? ", modified Newton" : "", step ? ", adaptive steps" : "");
        compare_engines(what, &d.model, &ov, 12, rel);
        ++pass;
    }
    CHECK(pass >= 4, "%s: %d passes over the parameters", file, pass);
    hs_model_desc_free(&d);
}

/* Adaptive steps: the engines agree with the integrator's settings (the controller's among
 * them) and the fluid's swept: one specialised build (a pass over every parameter, as above,
 * cost five builds and a fifth of the CI time under the sanitizers). */
static void test_adaptive_engines(void)
{
    static hs_model_desc d;
    hs_override_spec ov;
    int p, k = 0;
    if (tu_load_model("models/fourbar_jaiswal2021_friction.yaml", &d)) return;
    d.model.t_end = 1.2;
    d.model.step = HS_STEP_ADAPTIVE;
    memset(&ov, 0, sizeof ov);
    for (p = 0; p < d.nparam && k < HS_MAX_SWEEP; ++p)
        if (d.param[p].type == HS_PARAM_DOUBLE &&
            (!strncmp(d.param[p].name, "integrator.", 11) || !strncmp(d.param[p].name, "fluid.", 6)))
            ov.offset[k++] = d.param[p].offset;
    ov.n = k;
    CHECK(k >= 15, "%d integrator and fluid parameters", k);
    compare_engines("models/fourbar_jaiswal2021_friction.yaml, adaptive steps, integrator and fluid swept", &d.model,
                    &ov, 12, 0.02);
    hs_model_desc_free(&d);
}

static void test_every_model(void)
{
    static hs_model_desc d;
    hs_override_spec ov;
    int f;
    memset(&ov, 0, sizeof ov);
    for (f = 0; models[f]; ++f) {
        if (tu_load_model(models[f], &d)) continue;
        if (d.model.t_end > 0.5) d.model.t_end = 0.5;
        compare_engines(models[f], &d.model, &ov, 2, 0.0);
        hs_model_desc_free(&d);
    }
}

/* The components of kernels/hs_components.h specialised: the crane with a pump, relief valve
 * and accumulator, its load-sensing variant (a swash plate, a poppet, a check valve) and its
 * meter-in variant (a flow control valve), over the valve's opening (1.2 s), the excavator (a
 * pressure-compensated pump feeding three valve sections) over its dig and the start of its
 * lift (3 s), the slewing drive (a motor on its joint, cross-port relief and make-up check
 * valves) through its acceleration (1 s), and the two-cylinder crane on load-sensing valve
 * sections (compensators, the shuttle network's maximum) while both move (1.2 s), and the crane
 * with a rod-side hose of 3 lumped segments (its velocities, its internal volumes) over the
 * valve's opening (1.2 s); every
 * component parameter (and the sections' dp_comp and U_ls) swept by 20 %: the engines equal
 * to the bit. */
static void test_component_engines(void)
{
    static const char *const files[7] = {"models/crane_pump_relief.yaml", "tests/data/crane_ls.yaml",
                                         "tests/data/crane_fcv.yaml", "models/excavator_front.yaml",
                                         "tests/data/slew_motor.yaml", "tests/data/crane_ls2.yaml",
                                         "tests/data/crane_hose.yaml"};
    static const double t_end[7] = {1.2, 1.2, 1.2, 3.0, 1.0, 1.2, 1.2};
    static hs_model_desc d;
    hs_override_spec ov;
    int f, p, k;
    for (f = 0; f < 7; ++f) {
        char what[160];
        if (tu_load_model(files[f], &d)) continue;
        d.model.t_end = t_end[f];
        memset(&ov, 0, sizeof ov);
        ov.offset[0] = offsetof(hs_model, B_oil);
        for (p = 0, k = 1; p < d.nparam && k < HS_MAX_SWEEP; ++p)
            if (!strncmp(d.param[p].name, "component.", 10) || strstr(d.param[p].name, ".dp_comp") ||
                strstr(d.param[p].name, ".U_ls"))
                ov.offset[k++] = d.param[p].offset;
        ov.n = k;
        CHECK(k >= 15, "%s: %d component parameters", files[f], k - 1);
        snprintf(what, sizeof what, "%s: %d component parameters swept", files[f], k - 1);
        compare_engines(what, &d.model, &ov, 12, 0.009);
        hs_model_desc_free(&d);
    }
}

/* The engine is built with -march=native (host/engine/kernel_build.c); a compiler that refuses it
 * gets a second build for the baseline instruction set, and HS_CPU_NATIVE=0 asks for that
 * one directly. Here the compiler is a script that fails on -march=native and logs each
 * call. (That the native build gives the generic engine's bits: compare_engines.) */
/* The compiler calls logged in file log (one line each), and those with -march=native. */
static void count_calls(const char *log, long *calls, long *native)
{
    FILE *f = fopen(log, "r");
    char line[4096];
    *calls = *native = 0;
    if (!f) return;
    while (fgets(line, sizeof line, f)) {
        ++*calls;
        *native += strstr(line, "-march=native") != NULL;
    }
    fclose(f);
}

static void test_native_fallback(const char *source0)
{
    char dir[] = "/tmp/hs-native-XXXXXX", cc[200], log[200], *src = NULL;
    hs_cpu_spec cs;
    hs_error e;
    FILE *f;
    long calls, native;
    size_t n = strlen(source0);
    int ok;
    if (!mkdtemp(dir)) {
        CHECK(0, "a temporary directory");
        return;
    }
    snprintf(cc, sizeof cc, "%s/cc", dir);
    snprintf(log, sizeof log, "%s/log", dir);
    f = fopen(cc, "w");
    CHECK(f != NULL, "writes %s", cc);
    if (!f) return;
    fprintf(f, "#!/bin/sh\necho \"$*\" >> %s\nfor a in \"$@\"; do [ \"$a\" = -march=native ] && exit 1; done\n"
               "exec %s \"$@\"\n", log, hs_host_cc());
    fclose(f);
    chmod(cc, 0755);
    src = (char *)malloc(n + 64);
    if (!src) return;
    snprintf(src, n + 64, "%s/* %s */\n", source0, dir); /* a source no cache holds */
    setenv("HS_CC", cc, 1);
    ok = hs_cpu_spec_get(src, &cs, &e) == 0;
    unsetenv("HS_CC");
    count_calls(log, &calls, &native);
    CHECK(ok && calls == 2 && native == 1,
          "a compiler without -march=native: the baseline build (%ld calls, %ld native; %s)", calls, native,
          ok ? "built" : e.msg);
    remove(log);
    snprintf(src, n + 64, "%s/* %s, baseline */\n", source0, dir);
    setenv("HS_CC", cc, 1);
    setenv("HS_CPU_NATIVE", "0", 1);
    ok = hs_cpu_spec_get(src, &cs, &e) == 0;
    unsetenv("HS_CPU_NATIVE");
    unsetenv("HS_CC");
    count_calls(log, &calls, &native);
    CHECK(ok && calls == 1 && native == 0, "HS_CPU_NATIVE=0: one baseline build (%ld calls, %ld native)", calls,
          native);
    remove(log);
    remove(cc);
    rmdir(dir);
    free(src);
}

/* A swept branch selector (a volume's formulation: lumped or singular perturbation, seed 004
 * Pub. II) stays specialised: carried per instance, the engines equal to the bit over a grid
 * of it and dt (sweeps/formulation_dt.yaml's kind), and the friction model, which sets the
 * friction states, is still refused. */
static void test_branch_selector(void)
{
    static hs_model_desc d;
    hs_override_spec ov;
    hs_output_spec out;
    hs_spec sp;
    hs_error e;
    double v[4 * 2];
    int k;
    if (tu_load_model("models/fourbar_rahikainen2018_smallvalve.yaml", &d)) return;
    d.model.t_end = 1.0; /* the valve opens at 0.5 s: the formulations differ from there */
    memset(&ov, 0, sizeof ov);
    memset(&out, 0, sizeof out);
    out.nsig = 1;
    ov.n = 2;
    ov.offset[0] = offsetof(hs_model, dt);
    ov.offset[1] = offsetof(hs_model, vol_model); /* volume 0, the valve volume */
    ov.is_int[1] = 1;
    CHECK(hs_spec_build(&d.model, &ov, &out, &sp, &e) == 0 && sp.source, "a swept volume formulation: specialised (%s)",
          sp.why);
    CHECK(sp.source && strstr(sp.source, "#define HS_SPEC_I_vol_model(m, i) ((int)(m)->vol_model[i])"),
          "the formulation is read per instance");
    hs_spec_free(&sp);
    for (k = 0; k < 4; ++k) {
        v[2 * k] = (k % 2 + 1) * 1e-3;
        v[2 * k + 1] = k / 2;
    }
    run_compare("Pub. II, dt x valve-volume formulation", &d.model, &ov, 4, v);
    ov.offset[1] = offsetof(hs_model, cyl_fric);
    CHECK(hs_spec_build(&d.model, &ov, &out, &sp, &e) == 0 && !sp.source && strstr(sp.why, "cyl_fric"),
          "a swept friction model: still not specialised");
    hs_model_desc_free(&d);
}

/* A signal's kind (knots or one of seed 004 Pub. III's test inputs, eqs. 12-15) is a branch
 * selector too: a sweep over the kinds and the sine's frequency stays specialised, reads the
 * kind per instance, and equals the generic engine to the bit (the crane's valve command over
 * the paper's 1 s test, every kind twice). */
static void test_signal_kind_selector(void)
{
    static hs_model_desc d;
    hs_override_spec ov;
    hs_output_spec out;
    hs_spec sp;
    hs_error e;
    double v[10 * 3];
    int k;
    if (tu_load_model("models/crane_rahikainen2020_single.yaml", &d)) return;
    d.model.t_end = 1.0;
    d.model.sig_test[0][HS_TP_VMAX] = 10.0;
    d.model.sig_test[0][HS_TP_A] = 10.0;
    memset(&ov, 0, sizeof ov);
    memset(&out, 0, sizeof out);
    out.nsig = 1;
    ov.n = 3;
    ov.offset[0] = offsetof(hs_model, sig_kind); /* signal 0, U_ref */
    ov.is_int[0] = 1;
    ov.offset[1] = offsetof(hs_model, sig_test) + HS_TP_F * sizeof(double);
    ov.offset[2] = offsetof(hs_model, sig_test) + HS_TP_D * sizeof(double);
    CHECK(hs_spec_build(&d.model, &ov, &out, &sp, &e) == 0 && sp.source, "swept test inputs: specialised (%s)", sp.why);
    CHECK(sp.source && strstr(sp.source, "#define HS_SPEC_I_sig_kind(m, i) ((int)(m)->sig_kind[i])"),
          "the signal's kind is read per instance");
    hs_spec_free(&sp);
    for (k = 0; k < 10; ++k) {
        v[3 * k] = k % HS_SIGK_COUNT;
        v[3 * k + 1] = k < 5 ? 35.0 : 70.0;
        v[3 * k + 2] = k < 5 ? 0.4 : 0.2;
    }
    run_compare("crane, U_ref's kind x sine frequency x impulse width", &d.model, &ov, 10, v);
    hs_model_desc_free(&d);
}

/* The double-step formulation (integrator.formulation = double_step) specialised: seed 000's
 * four-bar with the fluid's and two Newton parameters swept, and the quick-return (two cuts,
 * four dependent coordinates) with the formulation itself swept: the engines equal to the bit
 * over the valve's opening. */
static void test_double_step_engines(void)
{
    static hs_model_desc d;
    hs_override_spec ov;
    hs_error e;
    int p, k = 0;
    if (tu_load_model("models/fourbar_jaiswal2021.yaml", &d)) return;
    d.model.t_end = 1.2; /* the valve opens at 1 s */
    d.model.formulation = HS_FORM_DOUBLE_STEP;
    memset(&ov, 0, sizeof ov);
    for (p = 0; p < d.nparam && k < 8; ++p)
        if (d.param[p].type == HS_PARAM_DOUBLE &&
            (!strncmp(d.param[p].name, "fluid.", 6) || !strcmp(d.param[p].name, "integrator.tol_position") ||
             !strcmp(d.param[p].name, "integrator.fd_rel")))
            ov.offset[k++] = d.param[p].offset;
    ov.n = k;
    compare_engines("models/fourbar_jaiswal2021.yaml, double-step, fluid and Newton parameters swept", &d.model, &ov,
                    6, 0.02);
    hs_model_desc_free(&d);
    if (tu_load_model("models/quickreturn_jaiswal2021.yaml", &d)) return;
    d.model.t_end = 1.2;
    memset(&ov, 0, sizeof ov);
    /* the formulation swept (sweeps/seed000_formulations.yaml's kind): a branch selector read
     * per instance (HS_B), the engines equal over a grid of it and dt (two instances of each
     * formulation; one specialised build) */
    {
        hs_output_spec out;
        hs_spec sp;
        double v[4 * 2];
        int q;
        d.model.formulation = HS_FORM_PENALTY;
        memset(&out, 0, sizeof out);
        out.nsig = 1;
        ov.n = 2;
        ov.offset[0] = offsetof(hs_model, dt);
        ov.offset[1] = offsetof(hs_model, formulation);
        ov.is_int[1] = 1;
        CHECK(hs_spec_build(&d.model, &ov, &out, &sp, &e) == 0 && sp.source &&
                  strstr(sp.source, "#define HS_SPEC_B_formulation(m) ((int)(m)->formulation)"),
              "a swept integrator.formulation: specialised, read per instance (%s)", sp.why);
        hs_spec_free(&sp);
        for (q = 0; q < 4; ++q) {
            v[2 * q] = (q % 2 + 1) * 1e-3;
            v[2 * q + 1] = q / 2;
        }
        run_compare("quick-return, dt x formulation", &d.model, &ov, 4, v);
    }
    hs_model_desc_free(&d);
}

static void test_refusals_and_cache(void)
{
    hs_model m;
    hs_override_spec ov;
    hs_output_spec out;
    hs_spec sp;
    hs_error e;
    hs_cpu_spec cs;
    char path[1400];
    int cached = -1;
    static const char *const args[] = {"-std=c11", "-fPIC", "-shared", NULL};
    tu_fourbar_pub1(&m);
    memset(&ov, 0, sizeof ov);
    memset(&out, 0, sizeof out);
    out.nsig = 1;
    ov.n = 1;
    ov.offset[0] = offsetof(hs_model, cyl_fric);
    ov.is_int[0] = 1;
    CHECK(hs_spec_build(&m, &ov, &out, &sp, &e) == 0 && !sp.source && strstr(sp.why, "cyl_fric") &&
              strstr(sp.why, "structure"),
          "a swept friction model: not specialised, and why: %s", sp.why);
    ov.is_int[0] = 0;
    ov.offset[0] = offsetof(hs_model, newton);
    CHECK(hs_spec_build(&m, &ov, &out, &sp, &e) == 0 && !sp.source && strstr(sp.why, "newton"),
          "a swept integrator.newton: not specialised: %s", sp.why);
    ov.n = 0;
    CHECK(hs_spec_build(&m, &ov, &out, &sp, &e) == 0 && sp.source && sp.nvar == 0, "nothing swept: specialised");
    /* the shared values are constants of the source (the engines' bit-identity above checks
     * their values), doubles even where integral: the Pub. I crank weighs 50 kg, and a literal
     * "50" would make 1 / m an integer division */
    CHECK(sp.source && strstr(sp.source, "#define HS_SPEC_D_dt(m) (0.001)") &&
              strstr(sp.source, "hs_spec_c_body_mass[3] = {") && !strstr(sp.source, "hs_spec_base.body_mass") &&
              !strstr(sp.source, "hs_spec_base.dt"),
          "the shared values are constants of the specialised source");
    {
        const char *bm = sp.source ? strstr(sp.source, "hs_spec_c_body_mass[3] = {") : NULL;
        CHECK(bm && bm[strcspn(bm, ",}") - 1] != '{' && strchr("0123456789", bm[strcspn(bm, ",}") - 1]) &&
                  memchr(bm, '.', strcspn(bm, ",}")),
              "a mass is written as a double literal: %.60s", bm ? bm : "(none)");
    }
    /* built once (by the engine test above or now), then from the cache */
    CHECK(hs_cc_shared(sp.source, NULL, args, ".c", NULL, path, sizeof path, &cached, &e) == 0, "a build: %s", e.msg);
    CHECK(hs_cc_shared(sp.source, NULL, args, ".c", NULL, path, sizeof path, &cached, &e) == 0 && cached == 1,
          "the second one is found in the cache (%s)", path);
    test_native_fallback(sp.source);
    setenv("HS_CC", "/nonexistent/cc", 1);
    sp.source[sp.len - 2] = ' '; /* another source: no cached build */
    CHECK(hs_cpu_spec_get(sp.source, &cs, &e) != 0 && strstr(e.msg, "/nonexistent/cc"),
          "a missing compiler is reported: %s", e.msg);
    unsetenv("HS_CC");
    hs_spec_free(&sp);
}

int main(void)
{
    test_field_table();
    test_varying_closure();
    test_every_parameter("models/fourbar_rahikainen2018.yaml", 0.7, HS_NEWTON_FULL, HS_STEP_FIXED, 0.02, NULL);
    test_every_parameter("models/fourbar_jaiswal2021_friction.yaml", 1.2, HS_NEWTON_FULL, HS_STEP_FIXED, 0.02, NULL);
    test_adaptive_engines();
    /* its planar loop closes only for small changes of the geometry, in the plane, and at the
     * initial angles it holds (z0) */
    test_every_parameter("models/crane_rahikainen2020_single.yaml", 0.3, HS_NEWTON_FULL, HS_STEP_FIXED, 2e-4, ".z0");
    test_every_parameter("models/fourbar_jaiswal2021_friction.yaml", 1.2, HS_NEWTON_MODIFIED, HS_STEP_FIXED, 0.02,
                         NULL);
    test_every_model();
    test_branch_selector();
    test_signal_kind_selector();
    test_double_step_engines();
    test_component_engines();
    test_refusals_and_cache();
    return tu_report("test_kernel_spec");
}
