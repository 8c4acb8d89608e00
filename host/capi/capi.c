/* capi.c -- the flat C API of bindings (include/hs/capi.h): thin wrappers over the library's
 * model loading, parameters, single-instance simulation and sweep runs, which turn an
 * hs_error into the caller's message buffer. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/backend.h"
#include "base/fileio.h"
#include "hs/capi.h"
#include "hs/model_file.h"
#include "hs/run.h"
#include "hs/sweep.h"
#include "base/progress.h"
#include "run/run_cli.h"
#include "engine/simulate.h"
#include "hs/tree.h"
#include "model/model_names.h"

/* err's message (put_msg) or the text s (put_text) into the caller's buffer; returns rc. */
static int put_msg(const hs_error *err, char *msg, size_t nmsg, int rc)
{
    if (msg && nmsg > 0) hs_error_format(err, msg, (unsigned long)nmsg);
    return rc;
}

static int put_text(const char *s, char *msg, size_t nmsg, int rc)
{
    if (msg && nmsg > 0) snprintf(msg, nmsg, "%s", s);
    return rc;
}

/* A new model from its text (path: where it came from) or, text NULL, from the file path; NULL
 * with the message in msg. */
static hs_model_desc *model_new(const char *text, const char *path, char *msg, size_t nmsg)
{
    hs_model_desc *d = (hs_model_desc *)calloc(1, sizeof *d);
    hs_error err;
    if (!d) {
        put_text("out of memory", msg, nmsg, 0);
    } else if (text ? hs_model_load_text(text, path, d, &err) : hs_model_load(path, d, &err)) {
        put_msg(&err, msg, nmsg, 0);
        free(d);
        d = NULL;
    }
    return d;
}

const char *hs_capi_version(void)
{
    return HS_VERSION " (commit " HS_GIT_COMMIT ")";
}

hs_capi_model *hs_capi_model_load(const char *path, char *msg, size_t nmsg)
{
    if (!path) {
        put_text("no model path", msg, nmsg, 0);
        return NULL;
    }
    return model_new(NULL, path, msg, nmsg);
}

hs_capi_model *hs_capi_model_copy(const hs_capi_model *src, char *msg, size_t nmsg)
{
    hs_model_desc *d;
    if (!src || !src->text) {
        put_text("no model to copy", msg, nmsg, 0);
        return NULL;
    }
    /* the text as it was loaded, then every parameter's current value: the model in memory,
     * whatever has happened to its file since; the same text gives the same layout: the
     * values are the source's (its sets included) */
    if ((d = model_new(src->text, src->path, msg, nmsg))) d->model = src->model;
    return d;
}

void hs_capi_model_free(hs_capi_model *m)
{
    if (!m) return;
    hs_model_desc_free(m);
    free(m);
}

const char *hs_capi_model_name(const hs_capi_model *m)
{
    return m ? m->name : "";
}

void hs_capi_model_sizes(const hs_capi_model *m, char *buf, size_t n)
{
    const hs_model *o = m ? &m->model : NULL;
    size_t u;
    int i;
    if (!buf || n == 0) return;
    buf[0] = '\0';
    if (!o) return;
    if (m->tree) {
        snprintf(buf, n, "an open tree of %d bodies (riccati)", m->tree->tree.nbody);
        return;
    }
    u = (size_t)snprintf(buf, n, "%d bodies, %d joint coordinates, %d cuts, %d volumes, %d sources, %d throttles, %d valves, "
                                 "%d cylinders, %d components", o->nbody, o->nz, o->ncut, o->nvol, o->nsrc, o->nthr,
                         o->ndcv, o->ncyl, o->ncmp);
    for (i = 0; i < o->ncmp && u < n; ++i)
        u += (size_t)snprintf(buf + u, n - u, "%s%s (%s)", i ? ", " : ": ", m->cmp_name[i],
                              hs_cmp_type_names[o->cmp_type[i]]);
}

int hs_capi_param_count(const hs_capi_model *m)
{
    return m ? m->nparam : 0;
}

const char *hs_capi_param_name(const hs_capi_model *m, int i)
{
    return m && i >= 0 && i < m->nparam ? m->param[i].name : NULL;
}

const char *hs_capi_param_unit(const hs_capi_model *m, int i)
{
    return m && i >= 0 && i < m->nparam ? m->param[i].unit : NULL;
}

double hs_capi_param_value(const hs_capi_model *m, int i)
{
    return hs_param_get(m, i);
}

const char *hs_capi_param_value_name(const hs_capi_model *m, int i)
{
    return m && i >= 0 && i < m->nparam ? hs_param_value_name(m, i) : NULL;
}

int hs_capi_param_set(hs_capi_model *m, const char *assignment, char *msg, size_t nmsg)
{
    hs_error err;
    if (!m || !assignment) return put_text("no model or no assignment", msg, nmsg, 1);
    return hs_param_set_string(m, assignment, &err) ? put_msg(&err, msg, nmsg, 1) : 0;
}

int hs_capi_column_count(const hs_capi_model *m)
{
    return m ? hs_output_count(m) + 1 : 0;
}

void hs_capi_column(const hs_capi_model *m, int i, char *name, size_t nname, char *unit, size_t nunit)
{
    hs_signal_ref r;
    char nm[HS_NAME_LEN + 16] = "";
    const char *u = "";
    if (m && i == 0) {
        snprintf(nm, sizeof nm, "t");
        u = "s";
    } else if (m && i > 0 && i <= hs_output_count(m)) {
        r = hs_output_at(m, i - 1);
        hs_output_name(m, r, nm, sizeof nm);
        u = hs_output_unit(m, r);
    }
    put_text(nm, name, nname, 0);
    put_text(u, unit, nunit, 0);
}

int hs_capi_simulate_csv(const hs_capi_model *m, const char *csv_path, long every, char *msg, size_t nmsg)
{
    hs_error err;
    hs_sim_summary sum;
    FILE *out;
    int rc;
    if (!m || !csv_path || every < 0)
        return put_text("simulate: a model, an output path and every >= 1 (0: the model's outputs.every) are "
                        "needed", msg, nmsg, 1);
    if (every == 0) every = m->out_every > 0 ? m->out_every : 1;
    if (!(out = hs_open_output(csv_path, "CSV", &err))) return put_msg(&err, msg, nmsg, 1);
    rc = hs_simulate_csv(m, out, every, &sum);
    if (hs_close_output(out, csv_path, sum.write_errno, &err)) return put_msg(&err, msg, nmsg, 1);
    if (rc) {
        if (msg && nmsg > 0)
            snprintf(msg, nmsg, "%s: the integration failed in the step after t = %.9g s: %s (the CSV holds every step up to it)",
                     m->path, sum.t_final, hs_status_string(sum.status));
        return 3;
    }
    return 0;
}

int hs_capi_run(const char *sweep_path, const char *backend, long n, const char *out, int threads, int progress,
                char *msg, size_t nmsg)
{
    hs_run_opts o;
    hs_sweep sw;
    hs_model_desc md;
    hs_error err;
    int rc;
    memset(&o, 0, sizeof o);
    if (!sweep_path || !out || !out[0]) return put_text("run: a sweep and an output path are needed", msg, nmsg, 2);
    if (!backend || !strcmp(backend, "cpu")) o.backend = HS_BACKEND_CPU;
    else if (!strcmp(backend, "gpu")) o.backend = HS_BACKEND_GPU;
    else if (!strcmp(backend, "reference")) o.backend = HS_BACKEND_REFERENCE;
    else if (!strcmp(backend, "auto")) o.backend = HS_BACKEND_AUTO;
    else {
        if (msg && nmsg > 0) snprintf(msg, nmsg, "run: unknown backend '%s' (cpu, gpu, reference, auto)", backend);
        return 2;
    }
    if (n < 0 || threads < 0 || progress < 0 || (progress & 3) > 2 || progress > 7)
        return put_text("run: n and threads must be >= 0, progress 0, 1 or 2 (+ 4: no report)", msg, nmsg, 2);
    o.n = n;
    o.out = out;
    o.threads = threads;
    o.progress = progress & 3;
    /* without progress (or with the flag 4: the caller prints it) no report (the ensemble table) */
    o.report = progress & 3 && !(progress & 4) ? stdout : fopen("/dev/null", "w");
    if (!o.report) o.report = stdout;
    if (hs_sweep_load(sweep_path, &sw, &md, &err)) {
        if (o.report != stdout) fclose(o.report);
        return put_msg(&err, msg, nmsg, 2);
    }
    rc = hs_run_cli(&sw, &md, &o, "hydrosweep", &err);
    fflush(stdout);
    if (o.report != stdout) fclose(o.report);
    hs_sweep_free(&sw);
    hs_model_desc_free(&md);
    if (rc) put_msg(&err, msg, nmsg, 0);
    return rc == 0 ? 0 : (rc == HS_ERR_IO || rc == HS_ERR_NUMERIC || rc == HS_ERR_INTERRUPTED ? 3 : 2);
}
