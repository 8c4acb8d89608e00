/* yaml_tree.c -- the line/column-annotated YAML tree and its schema helpers (yaml_tree.h),
 * shared by the model loader and the sweep loader. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libfyaml.h>

#include "hs/model_file.h"
#include "yaml_tree.h"

/* ====================================================================================== */
/* YAML tree                                                                              */
/* ====================================================================================== */

void yt_free(yt_node *y)
{
    int i;
    if (!y) return;
    for (i = 0; i < y->n; ++i) yt_free(y->kid[i]);
    free(y->kid);
    free(y->text);
    free(y);
}

static int yt_append(yt_node *p, yt_node *k)
{
    if (p->n == p->cap) {
        int cap = p->cap ? 2 * p->cap : 8;
        yt_node **nk = (yt_node **)realloc(p->kid, (size_t)cap * sizeof *nk);
        if (!nk) return -1;
        p->kid = nk;
        p->cap = cap;
    }
    p->kid[p->n++] = k;
    return 0;
}

static void discard_diag(struct fy_diag *diag, void *user, const char *buf, size_t len)
{
    (void)diag;
    (void)user;
    (void)buf;
    (void)len;
}

/* Parses text into *root (NULL for an empty document). */
int yt_parse(const char *text, const char *file, const char *what, yt_node **root,
             hs_error *err)
{
    struct fy_diag_cfg dcfg;
    struct fy_parse_cfg pcfg;
    struct fy_diag *diag;
    struct fy_parser *fyp;
    struct fy_event *ev;
    yt_node *stack[YT_MAX_DEPTH];
    int depth = 0, ndoc = 0, rc = HS_OK, last_line = 1, last_col = 1, done = 0;

    *root = NULL;
    fy_diag_cfg_default(&dcfg);
    dcfg.fp = NULL;
    dcfg.output_fn = discard_diag; /* messages are collected and reported as hs_error */
    diag = fy_diag_create(&dcfg);
    if (!diag) return hs_error_set(err, HS_ERR_IO, file, 0, 0, "", "out of memory");
    fy_diag_set_collect_errors(diag, true);
    memset(&pcfg, 0, sizeof pcfg);
    pcfg.flags = FYPCF_QUIET;
    pcfg.diag = diag;
    fyp = fy_parser_create(&pcfg);
    if (!fyp || fy_parser_set_string(fyp, text, strlen(text)) != 0) {
        if (fyp) fy_parser_destroy(fyp);
        fy_diag_destroy(diag);
        return hs_error_set(err, HS_ERR_IO, file, 0, 0, "", "cannot start the YAML parser");
    }

    while (rc == HS_OK && (ev = fy_parser_parse(fyp)) != NULL) {
        const struct fy_mark *mk = fy_event_start_mark(ev);
        yt_node *y = NULL;
        int line = mk ? mk->line + 1 : 0, col = mk ? mk->column + 1 : 0;
        if (mk) {
            last_line = line;
            last_col = col;
        }
        switch (ev->type) {
        case FYET_STREAM_END:
            done = 1;
            break;
        case FYET_DOCUMENT_START:
            if (++ndoc > 1)
                rc = hs_error_set(err, HS_ERR_PARSE, file, last_line, last_col, "",
                                  "a %s holds exactly one YAML document", what);
            break;
        case FYET_ALIAS:
            rc = hs_error_set(err, HS_ERR_PARSE, file, line, col, "",
                              "YAML aliases (*name) are not supported: write the value out");
            break;
        case FYET_SCALAR:
        case FYET_SEQUENCE_START:
        case FYET_MAPPING_START:
            y = (yt_node *)calloc(1, sizeof *y);
            if (!y) {
                rc = hs_error_set(err, HS_ERR_IO, file, 0, 0, "", "out of memory");
                break;
            }
            y->type = ev->type == FYET_SCALAR ? YT_SCALAR
                      : ev->type == FYET_SEQUENCE_START ? YT_SEQ
                                                        : YT_MAP;
            y->line = line;
            y->col = col;
            if (y->type == YT_SCALAR) {
                size_t len = 0;
                const char *t = fy_token_get_text(ev->scalar.value, &len);
                y->plain = fy_token_scalar_style(ev->scalar.value) == FYSS_PLAIN;
                y->text = (char *)malloc(len + 1);
                if (!y->text) {
                    free(y);
                    rc = hs_error_set(err, HS_ERR_IO, file, 0, 0, "", "out of memory");
                    break;
                }
                if (len) memcpy(y->text, t, len);
                y->text[len] = '\0';
            }
            if (!mk && depth > 0) {
                /* an empty value has no mark: point at its key (or its collection) */
                yt_node *p = stack[depth - 1];
                const yt_node *at = (p->type == YT_MAP && p->n % 2 == 1) ? p->kid[p->n - 1] : p;
                y->line = at->line;
                y->col = at->col;
            }
            if (depth == 0) {
                *root = y;
            } else if (yt_append(stack[depth - 1], y) != 0) {
                yt_free(y);
                rc = hs_error_set(err, HS_ERR_IO, file, 0, 0, "", "out of memory");
                break;
            }
            if (y->type != YT_SCALAR) {
                if (depth == YT_MAX_DEPTH) {
                    rc = hs_error_set(err, HS_ERR_PARSE, file, line, col, "",
                                      "YAML nested deeper than %d levels", YT_MAX_DEPTH);
                    break;
                }
                stack[depth++] = y;
            }
            break;
        case FYET_SEQUENCE_END:
        case FYET_MAPPING_END:
            if (depth > 0) --depth;
            break;
        default:
            break;
        }
        fy_parser_event_free(fyp, ev);
    }

    if (rc == HS_OK && (!done || fy_parser_get_stream_error(fyp))) {
        void *it = NULL;
        struct fy_diag_error *de = fy_diag_errors_iterate(diag, &it);
        if (de)
            rc = hs_error_set(err, HS_ERR_PARSE, file, de->line, de->column, "",
                              "YAML syntax: %s", de->msg ? de->msg : "invalid YAML");
        else
            rc = hs_error_set(err, HS_ERR_PARSE, file, last_line, last_col, "",
                              "YAML syntax error");
    }
    fy_parser_destroy(fyp);
    fy_diag_destroy(diag);
    if (rc != HS_OK) {
        yt_free(*root);
        *root = NULL;
    }
    return rc;
}

/* ====================================================================================== */

/* ====================================================================================== */
/* reading files                                                                          */
/* ====================================================================================== */

int yt_read_file(const char *path, char **text, hs_error *err)
{
    FILE *f;
    char *buf = NULL, *nb;
    size_t len = 0, cap = 0, got;
    *text = NULL;
    f = fopen(path, "rb");
    if (!f) return hs_error_set(err, HS_ERR_IO, path, 0, 0, "", "cannot open: %s", strerror(errno));
    for (;;) {
        if (cap - len < 4096) {
            cap = cap ? 2 * cap : 16384;
            nb = (char *)realloc(buf, cap + 1);
            if (!nb) {
                free(buf);
                fclose(f);
                return hs_error_set(err, HS_ERR_IO, path, 0, 0, "", "out of memory");
            }
            buf = nb;
        }
        got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0) break;
    }
    if (ferror(f)) {
        free(buf);
        fclose(f);
        return hs_error_set(err, HS_ERR_IO, path, 0, 0, "", "read error");
    }
    fclose(f);
    buf[len] = '\0';
    if (strlen(buf) != len) {
        free(buf);
        return hs_error_set(err, HS_ERR_PARSE, path, 0, 0, "", "the file contains NUL bytes");
    }
    *text = buf;
    return HS_OK;
}

/* ====================================================================================== */
/* schema helpers                                                                         */
/* ====================================================================================== */

int yt_fail(const yt_ctx *c, int code, const yt_node *at, const char *key, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return hs_error_set(c->err, code, c->file, at ? at->line : 0, at ? at->col : 0, key, "%s",
                        msg);
}

/* "path.key", or "key" at the top level. */
const char *yt_join(char *out, size_t n, const char *path, const char *key)
{
    snprintf(out, n, "%s%s%s", path, path[0] ? "." : "", key);
    return out;
}

int yt_is_null(const yt_node *y)
{
    return y && y->type == YT_SCALAR && y->plain &&
           (!y->text[0] || !strcmp(y->text, "~") || !strcmp(y->text, "null") ||
            !strcmp(y->text, "Null") || !strcmp(y->text, "NULL"));
}

const yt_node *yt_map_key(const yt_node *m, const char *key)
{
    int i;
    for (i = 0; i + 1 < m->n; i += 2)
        if (m->kid[i]->type == YT_SCALAR && !strcmp(m->kid[i]->text, key)) return m->kid[i];
    return NULL;
}

/* The value of key, NULL when absent or null (an emptied optional key counts as absent). */
const yt_node *yt_map_get(const yt_node *m, const char *key)
{
    int i;
    for (i = 0; i + 1 < m->n; i += 2)
        if (m->kid[i]->type == YT_SCALAR && !strcmp(m->kid[i]->text, key))
            return yt_is_null(m->kid[i + 1]) ? NULL : m->kid[i + 1];
    return NULL;
}

const char *yt_type_name(int t)
{
    return t == YT_MAP ? "a mapping (key: value pairs)" : t == YT_SEQ ? "a list" : "a scalar";
}

int yt_need(const yt_ctx *c, const yt_node *y, int type, const char *path)
{
    if (y->type == type) return HS_OK;
    return yt_fail(c, HS_ERR_SCHEMA, y, path, "must be %s, not %s", yt_type_name(type),
                   yt_type_name(y->type));
}

int yt_missing(const yt_ctx *c, const yt_node *m, const char *path, const char *key)
{
    char kp[128];
    return yt_fail(c, HS_ERR_SCHEMA, m, yt_join(kp, sizeof kp, path, key),
                   "required key is missing or empty");
}

/* Every key a plain string, known and unique. */
int yt_check_keys(const yt_ctx *c, const yt_node *m, const char *path, const char *const *allowed)
{
    char kp[128], list[400];
    int i, j, a;
    for (i = 0; i + 1 < m->n; i += 2) {
        const yt_node *k = m->kid[i];
        if (k->type != YT_SCALAR)
            return yt_fail(c, HS_ERR_SCHEMA, k, path, "mapping keys must be plain strings");
        for (j = 0; j < i; j += 2)
            if (m->kid[j]->type == YT_SCALAR && !strcmp(m->kid[j]->text, k->text))
                return yt_fail(c, HS_ERR_SCHEMA, k, yt_join(kp, sizeof kp, path, k->text),
                               "duplicate key (first given at line %d)", m->kid[j]->line);
        for (a = 0; allowed[a]; ++a)
            if (!strcmp(allowed[a], k->text)) break;
        if (!allowed[a]) {
            size_t used = 0;
            list[0] = '\0';
            for (a = 0; allowed[a] && used < sizeof list; ++a) {
                int w =
                    snprintf(list + used, sizeof list - used, "%s%s", a ? ", " : "", allowed[a]);
                if (w > 0) used += (size_t)w;
            }
            return yt_fail(c, HS_ERR_SCHEMA, k, yt_join(kp, sizeof kp, path, k->text),
                           "unknown key (allowed here: %s)", list);
        }
    }
    return HS_OK;
}

/* A key the current variant does not use is an error rather than silently ignored. */
int yt_forbid(const yt_ctx *c, const yt_node *m, const char *path, const char *key, const char *why)
{
    char kp[128];
    const yt_node *k = yt_map_key(m, key);
    if (!k) return HS_OK;
    return yt_fail(c, HS_ERR_SCHEMA, k, yt_join(kp, sizeof kp, path, key), "%s", why);
}

/* units: '|'-separated SI families the value may carry ("" = dimensionless); NULL: any.
 * A bare number is always accepted and taken as SI. */
int yt_unit_allowed(const char *units, const char *got)
{
    size_t n = strlen(got);
    const char *p = units;
    if (!units || !got[0]) return 1;
    for (;;) {
        const char *bar = strchr(p, '|');
        size_t len = bar ? (size_t)(bar - p) : strlen(p);
        if (len == n && !strncmp(p, got, n)) return 1;
        if (!bar) return 0;
        p = bar + 1;
    }
}

int yt_num_node(const yt_ctx *c, const yt_node *y, const char *kp, const char *units, double *out)
{
    char unit[32];
    if (y->type != YT_SCALAR || yt_is_null(y))
        return yt_fail(c, HS_ERR_SCHEMA, y, kp,
                       "must be a number (optionally with a unit, e.g. 80 mm)");
    if (hs_parse_quantity(y->text, out, unit, sizeof unit) != 0)
        return yt_fail(c, HS_ERR_SCHEMA, y, kp,
                       "'%s' is not a finite number with an optional known unit (e.g. 80 mm)",
                       y->text);
    if (!yt_unit_allowed(units, unit))
        return yt_fail(c, HS_ERR_SCHEMA, y, kp, "'%s' has unit %s, expected %s%s", y->text, unit,
                       units[0] ? units : "no unit",
                       units[0] && units[0] != '|' ? "" : " (dimensionless)");
    return HS_OK;
}

int yt_get_num(const yt_ctx *c, const yt_node *m, const char *path, const char *key,
               const char *units, int required, double def, double *out)
{
    char kp[128];
    const yt_node *v = yt_map_get(m, key);
    if (!v) {
        if (required) return yt_missing(c, m, path, key);
        *out = def;
        return HS_OK;
    }
    return yt_num_node(c, v, yt_join(kp, sizeof kp, path, key), units, out);
}

int yt_vec_node(const yt_ctx *c, const yt_node *y, const char *kp, int n, const char *units,
                double *out)
{
    char ek[160];
    int i, rc;
    if (y->type != YT_SEQ || y->n != n)
        return yt_fail(c, HS_ERR_SCHEMA, y, kp, "must be a list of %d numbers%s", n,
                       n == 3 ? " [x, y, z]" : "");
    for (i = 0; i < n; ++i) {
        snprintf(ek, sizeof ek, "%s[%d]", kp, i);
        if ((rc = yt_num_node(c, y->kid[i], ek, units, &out[i])) != HS_OK) return rc;
    }
    return HS_OK;
}

int yt_get_vec(const yt_ctx *c, const yt_node *m, const char *path, const char *key, int n,
               const char *units, int required, const double *def, double *out)
{
    char kp[128];
    int i;
    const yt_node *v = yt_map_get(m, key);
    if (!v) {
        if (required) return yt_missing(c, m, path, key);
        for (i = 0; i < n; ++i) out[i] = def ? def[i] : 0.0;
        return HS_OK;
    }
    return yt_vec_node(c, v, yt_join(kp, sizeof kp, path, key), n, units, out);
}

/* A string value; is_name additionally requires [A-Za-z0-9_]+ (names form parameter names,
 * so dots, '=' and spaces would make them ambiguous). */
int yt_get_str(const yt_ctx *c, const yt_node *m, const char *path, const char *key, int required,
               int is_name, char *buf, size_t n, const yt_node **node)
{
    char kp[128];
    const yt_node *v = yt_map_get(m, key);
    const char *s;
    yt_join(kp, sizeof kp, path, key);
    buf[0] = '\0';
    if (node) *node = v ? v : m;
    if (!v) return required ? yt_missing(c, m, path, key) : HS_OK;
    if (v->type != YT_SCALAR) return yt_need(c, v, YT_SCALAR, kp);
    if (is_name) {
        for (s = v->text; *s; ++s)
            if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
                  (*s >= '0' && *s <= '9') || *s == '_'))
                break;
        if (*s || !v->text[0] || strlen(v->text) >= HS_NAME_LEN)
            return yt_fail(c, HS_ERR_SCHEMA, v, kp,
                           "'%s' is not a valid name: use letters, digits and '_' (at most %d)",
                           v->text, HS_NAME_LEN - 1);
    }
    snprintf(buf, n, "%s", v->text);
    return HS_OK;
}

/* options: NULL-terminated, the position is the enum value. */
int yt_get_enum(const yt_ctx *c, const yt_node *m, const char *path, const char *key, int required,
                const char *const *options, int def, int *out)
{
    char kp[128], list[200];
    size_t used = 0;
    int i;
    const yt_node *v = yt_map_get(m, key);
    yt_join(kp, sizeof kp, path, key);
    if (!v) {
        if (required) return yt_missing(c, m, path, key);
        *out = def;
        return HS_OK;
    }
    if (v->type == YT_SCALAR)
        for (i = 0; options[i]; ++i)
            if (!strcmp(options[i], v->text)) {
                *out = i;
                return HS_OK;
            }
    list[0] = '\0';
    for (i = 0; options[i] && used < sizeof list; ++i) {
        int w = snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "", options[i]);
        if (w > 0) used += (size_t)w;
    }
    return yt_fail(c, HS_ERR_SCHEMA, v, kp, "must be one of: %s", list);
}

int yt_get_bool(const yt_ctx *c, const yt_node *m, const char *path, const char *key, int *out)
{
    char kp[128];
    const yt_node *v = yt_map_get(m, key);
    *out = 0;
    if (!v) return HS_OK;
    if (v->type == YT_SCALAR && v->plain) {
        if (!strcmp(v->text, "true") || !strcmp(v->text, "True") || !strcmp(v->text, "TRUE")) {
            *out = 1;
            return HS_OK;
        }
        if (!strcmp(v->text, "false") || !strcmp(v->text, "False") || !strcmp(v->text, "FALSE"))
            return HS_OK;
    }
    return yt_fail(c, HS_ERR_SCHEMA, v, yt_join(kp, sizeof kp, path, key), "must be true or false");
}

/* An optional list (absent = empty) with at most max items, in the mapping at path. */
int yt_get_list_in(const yt_ctx *c, const yt_node *map, const char *path, const char *key, int max,
                   const char *maxname, int required, const yt_node **out)
{
    char kp[128], ip[160];
    int rc;
    const yt_node *v = yt_map_get(map, key);
    *out = v;
    if (!v) return required ? yt_missing(c, map, path, key) : HS_OK;
    yt_join(kp, sizeof kp, path, key);
    if ((rc = yt_need(c, v, YT_SEQ, kp)) != HS_OK) return rc;
    if (v->n > max) {
        snprintf(ip, sizeof ip, "%s[%d]", kp, max);
        return yt_fail(c, HS_ERR_LIMIT, v->kid[max], ip, "too many %s: %d (%s is %d)", key, v->n,
                       maxname, max);
    }
    return HS_OK;
}
