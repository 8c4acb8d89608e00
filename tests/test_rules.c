/* test_rules.c -- kernels/hs_rules.h: every rule of the integrator's settings through every
 * route a value can take into a model. For each rule of the table HS_INTEGRATOR_RULES and
 * each value that breaks it (below or at an open lower bound, above the upper bound, a
 * non-integer for max_iter, NaN), the value is refused
 *   - in a model file (hs_model_load_text), naming the integrator's key,
 *   - by --set and Python's Model.set (both hs_param_set_string), keeping the old value,
 *   - in a sweep's simulation: (rtol, dt, t_end: the keys it takes), at that key,
 * and a drawn value (a sweep's parameters:, hs_instance_model, the path of every backend)
 * makes its instance invalid, while the model's own value passes every route. The values that
 * break a rule are derived from the table's bounds, not listed by hand, so a rule added to the
 * table is tested here without a change. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hs/model_file.h"
#include "hs/sweep.h"
#include "hs_batch.h"
#include "test_util.h"

/* an adaptive model, so that every setting is in use */
static const char *k_model = "name: rules\n"
                             "bodies:\n"
                             "  - {name: link1, shape: rod, mass: 1 kg, length: 1 m}\n"
                             "joints:\n"
                             "  - {name: j1, type: revolute, parent: ground, child: link1, axis: [0, 0, 1],"
                             " z0: -45 deg}\n"
                             "integrator: {dt: 1 ms, t_end: 0.5 s, step: adaptive}\n";

#define HS_IRULE_KEY_(ID, key, member, unit, units, def, text) key,
static const char *const k_keys[HS_IR_COUNT] = {HS_INTEGRATOR_RULES(HS_IRULE_KEY_)};
#undef HS_IRULE_KEY_

/* The keys a broken rule may be reported at: the rule's own, or (for rules tying settings
 * together) the others of its group. */
static int key_ok(int r, const char *key)
{
    char want[64];
    snprintf(want, sizeof want, "integrator.%s", k_keys[r]);
    if (!strcmp(key, want)) return 1;
    if (r == HS_IR_DT || r == HS_IR_T_END)
        return !strcmp(key, "integrator.dt") || !strcmp(key, "integrator.t_end");
    if (r == HS_IR_H_MIN || r == HS_IR_H_INIT || r == HS_IR_H_MAX)
        return !strcmp(key, "integrator.h_min") || !strcmp(key, "integrator.h_init") ||
               !strcmp(key, "integrator.h_max");
    return 0;
}

/* Values breaking rule r in m, from its bounds, into bad (at most 6); returns their count. */
static int bad_values(const hs_model *m, int r, double *bad)
{
    double lo, hi;
    int lo_open, integer, n = 0;
    hs_irule_bounds(m, r, &lo, &hi, &lo_open, &integer);
    bad[n++] = lo_open ? lo : (lo > 0.0 ? 0.5 * lo : lo - 1.0); /* at or below the lower bound */
    bad[n++] = -1.0;
    if (hi < 1e300) bad[n++] = hi > 0.0 ? 2.0 * hi : hi + 1.0; /* above the upper bound */
    if (integer) bad[n++] = lo + 0.5;
    bad[n++] = NAN;
    return n;
}

/* the model text with "integrator: {... key: v}" */
static void model_with(char *buf, size_t n, const char *key, double v)
{
    char val[64];
    const char *end = strstr(k_model, "step: adaptive}");
    if (isnan(v)) snprintf(val, sizeof val, ".nan");
    else snprintf(val, sizeof val, "%.17g", v);
    snprintf(buf, n, "%.*sstep: adaptive, %s: %s}\n", (int)(end - k_model), k_model, key, val);
}

int main(void)
{
    hs_model_desc *d = (hs_model_desc *)calloc(1, sizeof *d), *d2 = (hs_model_desc *)calloc(1, sizeof *d2);
    hs_model *loc = (hs_model *)malloc(sizeof *loc);
    hs_error e;
    int r, k, rc, nroute[4] = {0, 0, 0, 0};
    char dir[] = "/tmp/test_rules_XXXXXX";
    if (!d || !d2 || !loc || !mkdtemp(dir)) return 1;
    rc = hs_model_load_text(k_model, "rules.yaml", d, &e);
    CHECK(rc == HS_OK, "the base model loads: %s", e.msg);
    if (rc) return tu_report("test_rules");
    CHECK(hs_irule_broken(&d->model) == -1, "the base model keeps every rule");
    for (r = 0; r < HS_IR_COUNT; ++r) {
        double bad[8], good = hs_irule_value(&d->model, r);
        int nb = bad_values(&d->model, r, bad), pi;
        char name[64], text[1024], assign[128];
        hs_override_spec ov;
        snprintf(name, sizeof name, "integrator.%s", k_keys[r]);
        pi = hs_param_find(d, name);
        CHECK(pi >= 0, "%s is a named parameter", name);
        if (pi < 0) continue;
        CHECK(hs_irule_admits(&d->model, r, good), "%s: the model's own value %g passes", name, good);
        memset(&ov, 0, sizeof ov);
        ov.n = 1;
        ov.offset[0] = (unsigned long)d->param[pi].offset;
        /* a drawn value equal to the model's own: the instance runs */
        CHECK(hs_instance_model(&d->model, &ov, &good, loc), "%s: drawn %g is valid", name, good);
        for (k = 0; k < nb; ++k) {
            double v = bad[k];
            /* 1. a model file */
            model_with(text, sizeof text, k_keys[r], v);
            rc = hs_model_load_text(text, "bad.yaml", d2, &e);
            CHECK(rc != HS_OK && key_ok(r, e.key), "file: %s = %g accepted or reported at '%s': %s", name, v,
                  e.key, e.msg);
            hs_model_desc_free(d2);
            memset(d2, 0, sizeof *d2);
            ++nroute[0];
            /* 2. --set and Python's Model.set (the same function), the old value kept */
            if (isnan(v)) snprintf(assign, sizeof assign, "%s=nan", name);
            else snprintf(assign, sizeof assign, "%s=%.17g", name, v);
            rc = hs_param_set_string(d, assign, &e);
            CHECK(rc != HS_OK && hs_param_get(d, pi) == good, "--set %s accepted (%s)", assign, e.msg);
            ++nroute[1];
            /* 3. a drawn value: its instance is invalid */
            CHECK(!hs_instance_model(&d->model, &ov, &v, loc), "drawn %s = %g runs", name, v);
            ++nroute[2];
            /* 4. a sweep's simulation: for the keys it takes */
            if (r == HS_IR_RTOL || r == HS_IR_DT || r == HS_IR_T_END) {
                hs_sweep *sw = (hs_sweep *)calloc(1, sizeof *sw);
                hs_model_desc *md = (hs_model_desc *)calloc(1, sizeof *md);
                char mpath[128];
                FILE *f;
                snprintf(mpath, sizeof mpath, "%s/model.yaml", dir);
                f = fopen(mpath, "w");
                char st[512], val[64];
                if (!sw || !md || !f) return 1;
                fputs(k_model, f);
                fclose(f);
                if (isnan(v)) snprintf(val, sizeof val, ".nan");
                else snprintf(val, sizeof val, "%.17g", v);
                snprintf(st, sizeof st,
                         "model: %s\ninstances: 2\nsimulation: {%s: %s}\n"
                         "outputs: {signals: [j1]}\n",
                         mpath, k_keys[r], val);
                rc = hs_sweep_load_text(st, "s.yaml", sw, md, &e);
                {
                    char want[64];
                    snprintf(want, sizeof want, "simulation.%s", k_keys[r]);
                    CHECK(rc != HS_OK && (!strcmp(e.key, want) || !strncmp(e.key, "simulation.", 11)),
                          "simulation: %s = %g accepted or at '%s': %s", k_keys[r], v, e.key, e.msg);
                }
                if (rc == HS_OK) hs_sweep_free(sw);
                hs_model_desc_free(md);
                free(md);
                free(sw);
                remove(mpath);
                ++nroute[3];
            }
        }
    }
    printf("test_rules: %d rules; values refused: %d in model files, %d by --set, %d drawn, %d in simulation:\n",
           HS_IR_COUNT, nroute[0], nroute[1], nroute[2], nroute[3]);
    CHECK(HS_IR_COUNT >= 19 && nroute[0] >= 3 * HS_IR_COUNT && nroute[3] >= 9, "coverage");
    hs_model_desc_free(d);
    free(d);
    free(d2);
    free(loc);
    rmdir(dir);
    return tu_report("test_rules");
}
