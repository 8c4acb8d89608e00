/* yaml_tree.c -- the line/column-annotated YAML tree and its schema helpers (yaml_tree.h),
 * shared by the model loader and the sweep loader. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libfyaml.h>

#include "base/fileio.h"
#include "hs/model_file.h"
#include "base/yaml_tree.h"

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

/* Parses text (valid UTF-8) into *root (NULL for an empty document). */
static int yt_parse_raw(const char *text, const char *file, const char *what, yt_node **root,
                        hs_error *err)
{
    struct fy_diag_cfg dcfg;
    struct fy_parse_cfg pcfg;
    struct fy_diag *diag;
    struct fy_parser *fyp;
    struct fy_event *ev;
    yt_node *stack[YT_MAX_DEPTH];
    int depth = 0, ndoc = 0, rc = HS_OK, last_line = 1, last_col = 1, done = 0;
    size_t len = strlen(text), end_pos = 0;
    int end_line = 0, end_col = 0;

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
    if (!fyp || fy_parser_set_string(fyp, text, len) != 0) {
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
            if (mk) {
                end_pos = mk->input_pos;
                end_line = line;
                end_col = col;
            } else {
                end_pos = len;
            }
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

    /* libfyaml may end the stream early without an error (it did at a byte that is not
     * UTF-8, dropping the rest of the file silently): a stream that ends before the text
     * does, or any error the parser collected, is an error */
    if (rc == HS_OK && done && !fy_parser_get_stream_error(fyp) && !fy_diag_got_error(diag) &&
        end_pos < len)
        rc = hs_error_set(err, HS_ERR_PARSE, file, end_line > 0 ? end_line : last_line,
                          end_line > 0 ? end_col : last_col, "",
                          "the YAML parser stopped here, at byte %lu of %lu, before the end of "
                          "the %s (the rest would be ignored)",
                          (unsigned long)end_pos, (unsigned long)len, what);
    if (rc == HS_OK && (!done || fy_parser_get_stream_error(fyp) || fy_diag_got_error(diag))) {
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

/* Offset of the first byte of text (n bytes) that is not part of a valid UTF-8 sequence
 * (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF) or that starts a
 * character YAML does not allow (its c-printable: no control characters but tab, LF and CR,
 * no DEL, no C1 controls but NEL, no U+FFFE/U+FFFF), or n. */
static size_t utf8_invalid(const unsigned char *s, size_t n, size_t from)
{
    size_t i = from;
    while (i < n) {
        unsigned c = s[i];
        size_t k, len;
        unsigned lo = 0x80, hi = 0xBF;
        if (c < 0x80) {
            if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7F) return i;
            ++i;
            continue;
        }
        if (c == 0xC2 && i + 1 < n && s[i + 1] >= 0x80 && s[i + 1] <= 0x9F && s[i + 1] != 0x85)
            return i; /* U+0080..U+009F */
        if (c == 0xEF && i + 2 < n && s[i + 1] == 0xBF && (s[i + 2] == 0xBE || s[i + 2] == 0xBF))
            return i; /* U+FFFE, U+FFFF */
        if (c >= 0xC2 && c <= 0xDF)
            len = 2;
        else if (c >= 0xE0 && c <= 0xEF) {
            len = 3;
            if (c == 0xE0) lo = 0xA0;
            if (c == 0xED) hi = 0x9F;
        } else if (c >= 0xF0 && c <= 0xF4) {
            len = 4;
            if (c == 0xF0) lo = 0x90;
            if (c == 0xF4) hi = 0x8F;
        } else
            return i;
        if (i + len > n) return i;
        for (k = 1; k < len; ++k) {
            unsigned b = s[i + k];
            if (b < (k == 1 ? lo : 0x80u) || b > (k == 1 ? hi : 0xBFu)) return i;
        }
        i += len;
    }
    return n;
}

/* The dotted key of the last node of y at or before (line, col) on that line, into best
 * (best_line/best_col: its position so far). */
static void path_at(const yt_node *y, const char *path, int line, int col, char *best, size_t bn,
                    int *best_line, int *best_col)
{
    char kp[256];
    int i;
    if (!y) return;
    if (y->line == line && y->col <= col &&
        (y->line > *best_line || (y->line == *best_line && y->col >= *best_col))) {
        snprintf(best, bn, "%s", path);
        *best_line = y->line;
        *best_col = y->col;
    }
    if (y->type == YT_MAP) {
        for (i = 0; i + 1 < y->n; i += 2) {
            const char *k = y->kid[i]->type == YT_SCALAR ? y->kid[i]->text : "?";
            yt_join(kp, sizeof kp, path, k);
            path_at(y->kid[i], kp, line, col, best, bn, best_line, best_col);
            path_at(y->kid[i + 1], kp, line, col, best, bn, best_line, best_col);
        }
    } else if (y->type == YT_SEQ) {
        for (i = 0; i < y->n; ++i) {
            snprintf(kp, sizeof kp, "%s[%d]", path, i);
            path_at(y->kid[i], kp, line, col, best, bn, best_line, best_col);
        }
    }
}

int yt_parse(const char *text, const char *file, const char *what, yt_node **root, hs_error *err)
{
    const unsigned char *s = (const unsigned char *)text;
    size_t n = strlen(text), bad = utf8_invalid(s, n, 0), i, ls = 0;
    int line = 1, col = 1;
    char *fixed, key[256];
    *root = NULL;
    if (bad == n) return yt_parse_raw(text, file, what, root, err);
    /* where: line, and column in characters (as libfyaml counts them) */
    for (i = 0; i < bad; ++i)
        if (s[i] == '\n' || (s[i] == '\r' && s[i + 1] != '\n')) { /* LF, CRLF or CR */
            ++line;
            ls = i + 1;
        }
    for (i = ls; i < bad; ++i)
        if ((s[i] & 0xC0) != 0x80) ++col;
    /* which key: the file parsed with every invalid byte replaced by '?' */
    key[0] = '\0';
    fixed = (char *)malloc(n + 1);
    if (fixed) {
        yt_node *y = NULL;
        int bl = 0, bc = 0;
        size_t j = 0;
        memcpy(fixed, text, n + 1);
        while ((j = utf8_invalid(s, n, j)) < n) fixed[j++] = '?';
        if (yt_parse_raw(fixed, file, what, &y, NULL) == HS_OK)
            path_at(y, "", line, col, key, sizeof key, &bl, &bc);
        yt_free(y);
        free(fixed);
    }
    if (s[bad] < 0x80 ||
        (s[bad] == 0xC2 && bad + 1 < n && s[bad + 1] >= 0x80 && s[bad + 1] <= 0x9F))
        return hs_error_set(err, HS_ERR_PARSE, file, line, col, key,
                            "control character U+%04X is not allowed in a %s (YAML text: "
                            "only tab, line feed and carriage return)",
                            s[bad] < 0x80 ? (unsigned)s[bad] : (unsigned)s[bad + 1], what);
    if (s[bad] == 0xEF && bad + 2 < n && s[bad + 1] == 0xBF && s[bad + 2] >= 0xBE)
        return hs_error_set(err, HS_ERR_PARSE, file, line, col, key,
                            "character U+FFF%c is not allowed in a %s",
                            s[bad + 2] == 0xBE ? 'E' : 'F', what);
    return hs_error_set(err, HS_ERR_PARSE, file, line, col, key,
                        "byte 0x%02X is not valid UTF-8: a %s must be UTF-8 text (was it saved "
                        "in another encoding, e.g. Latin-1?)",
                        (unsigned)s[bad], what);
}

/* ====================================================================================== */

/* ====================================================================================== */
/* reading files                                                                          */
/* ====================================================================================== */

int yt_read_file(const char *path, const char *what, char **text, hs_error *err)
{
    char *buf = NULL;
    size_t len = 0;
    int rc;
    *text = NULL;
    if ((rc = hs_read_input(path, what, HS_MAX_INPUT_BYTES, &buf, &len, err)) != HS_OK) return rc;
    {
        /* text in another Unicode encoding, told by its byte order mark */
        const unsigned char *u = (const unsigned char *)buf;
        const char *enc = NULL;
        if (len >= 4 && u[0] == 0xFF && u[1] == 0xFE && u[2] == 0 && u[3] == 0)
            enc = "UTF-32LE";
        else if (len >= 4 && u[0] == 0 && u[1] == 0 && u[2] == 0xFE && u[3] == 0xFF)
            enc = "UTF-32BE";
        else if (len >= 2 && u[0] == 0xFF && u[1] == 0xFE)
            enc = "UTF-16LE";
        else if (len >= 2 && u[0] == 0xFE && u[1] == 0xFF)
            enc = "UTF-16BE";
        if (enc) {
            free(buf);
            return hs_error_set(err, HS_ERR_PARSE, path, 1, 1, "",
                                "the %s is %s text (byte order mark): it must be UTF-8 (save it "
                                "as UTF-8)",
                                what, enc);
        }
    }
    if (strlen(buf) != len) {
        const char *z = buf + strlen(buf), *p;
        int line = 1, col = 1;
        for (p = buf; p < z; ++p) {
            if (*p == '\n' || (*p == '\r' && p[1] != '\n')) {
                ++line;
                col = 1;
            } else if ((*p & 0xC0) != 0x80) {
                ++col;
            }
        }
        free(buf);
        return hs_error_set(err, HS_ERR_PARSE, path, line, col, "",
                            "the %s contains a NUL byte (0x00): it must be UTF-8 text", what);
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

/* names[0 .. n) (n < 0: up to the NULL) as "a, b, c" into out, as much as fits. Returns out. */
const char *yt_list(char *out, size_t size, const char *const *names, int n)
{
    size_t used = 0;
    int k;
    out[0] = '\0';
    for (k = 0; (n < 0 ? names[k] != NULL : k < n) && used < size; ++k) {
        int w = snprintf(out + used, size - used, "%s%s", k ? ", " : "", names[k]);
        if (w > 0) used += (size_t)w;
    }
    return out;
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

/* 1 if s may be echoed in a message as a key: a name of at most YT_ECHO_MAX characters of
 * letters, digits, '_', '-', '.', '[' and ']'. Anything else (a line of some other file read
 * by mistake, binary bytes) is described, never repeated. */
#define YT_ECHO_MAX 64
static int echoable(const char *s)
{
    size_t k = 0;
    for (; s[k]; ++k) {
        unsigned char ch = (unsigned char)s[k];
        if (k >= YT_ECHO_MAX || !((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                                  (ch >= '0' && ch <= '9') || ch == '_' || ch == '-' || ch == '.' ||
                                  ch == '[' || ch == ']'))
            return 0;
    }
    return k > 0;
}

/* Every key a plain string, known and unique. At the top level (path ""), a mapping none of
 * whose keys is allowed is not the kind of file asked for at all: it is refused as such,
 * without repeating any of its text (a sweep's model: /etc/shadow). */
int yt_check_keys(const yt_ctx *c, const yt_node *m, const char *path, const char *const *allowed)
{
    char kp[128], list[400];
    int i, j, a;
    if (!path[0] && m->n >= 2) {
        int known = 0;
        for (i = 0; i + 1 < m->n && !known; i += 2)
            for (a = 0; allowed[a] && !known; ++a)
                known = m->kid[i]->type == YT_SCALAR && !strcmp(allowed[a], m->kid[i]->text);
        if (!known)
            return yt_fail(c, HS_ERR_SCHEMA, m, "",
                           "not a hydrosweep %s: none of its top-level keys is one a %s has (%s, "
                           "%s, ...); is this the right path?",
                           c->what ? c->what : "file", c->what ? c->what : "file", allowed[0],
                           allowed[0] && allowed[1] ? allowed[1] : "");
    }
    for (i = 0; i + 1 < m->n; i += 2) {
        const yt_node *k = m->kid[i];
        if (k->type != YT_SCALAR)
            return yt_fail(c, HS_ERR_SCHEMA, k, path, "mapping keys must be plain strings");
        for (j = 0; j < i; j += 2)
            if (m->kid[j]->type == YT_SCALAR && !strcmp(m->kid[j]->text, k->text))
                return yt_fail(c, HS_ERR_SCHEMA, k, echoable(k->text) ? yt_join(kp, sizeof kp, path, k->text) : path,
                               "duplicate key (first given at line %d)", m->kid[j]->line);
        for (a = 0; allowed[a]; ++a)
            if (!strcmp(allowed[a], k->text)) break;
        if (!allowed[a]) {
            yt_list(list, sizeof list, allowed, -1);
            if (!echoable(k->text)) /* described, not repeated */
                return yt_fail(c, HS_ERR_SCHEMA, k, path,
                               "unknown key: %lu characters that are not a name (a key is a name of "
                               "at most %d letters, digits, '_', '-' or '.'; allowed here: %s)",
                               (unsigned long)strlen(k->text), YT_ECHO_MAX, list);
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
    return yt_fail(c, HS_ERR_SCHEMA, v, kp, "must be one of: %s", yt_list(list, sizeof list, options, -1));
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
