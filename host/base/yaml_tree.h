/* yaml_tree.h -- the YAML reader shared by the model loader (model_load.c) and the sweep
 * loader (sweep_load.c): a small tree with the line and column of every node, lookup helpers,
 * typed getters with unit suffixes, and error helpers that report file, line, column, dotted
 * key and the rule that was broken. Host-internal (not part of include/hs/).
 *
 * The tree is built from libfyaml's event parser rather than its document API: libfyaml 0.7
 * exposes source marks for scalar tokens only, and every error must name the line and column
 * of the offending node, mappings and sequences included. */
#ifndef HS_HOST_YAML_TREE_H
#define HS_HOST_YAML_TREE_H

#include <stddef.h>

#include "hs/errors.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { YT_SCALAR = 0, YT_SEQ = 1, YT_MAP = 2 };
#define YT_MAX_DEPTH 64

typedef struct yt_node {
    int type; /* YT_SCALAR, YT_SEQ, YT_MAP */
    int line, col; /* 1-based */
    int plain; /* plain (unquoted) scalar: only those can be null or booleans */
    char *text; /* scalar text */
    int n, cap;
    struct yt_node **kid; /* sequence items, or mapping key0, value0, key1, value1, ... */
} yt_node;

/* Where errors go: the file named in messages and the error sink (may be NULL). */
typedef struct yt_ctx {
    const char *file;
    hs_error *err;
    const char *what; /* "model file", "sweep file": in messages (NULL: "file") */
} yt_ctx;

/* Parses text into *root (NULL for an empty document). what names the kind of file in
 * messages ("model file", "sweep file"): such a file holds exactly one YAML document. Aliases
 * are refused (anchors are allowed). The text must be valid UTF-8 (the first invalid byte is
 * reported with its line, column and the key on that line), and the parser must read all of
 * it: libfyaml errors are never dropped. err may be NULL. */
int yt_parse(const char *text, const char *file, const char *what, yt_node **root, hs_error *err);
void yt_free(yt_node *y);

/* Reads a whole file into a NUL-terminated heap buffer (*text, freed by the caller); what
 * names it in messages ("model file"). Only regular files of at most HS_MAX_INPUT_BYTES are
 * read (fileio.h: FIFOs, devices and directories are refused without blocking); a file
 * containing NUL bytes is refused. */
int yt_read_file(const char *path, const char *what, char **text, hs_error *err);

/* Sets c->err at node at (line and column; NULL: unknown) with the dotted key; returns code. */
int yt_fail(const yt_ctx *c, int code, const yt_node *at, const char *key, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

/* names[0 .. n) (n < 0: up to the NULL) as "a, b, c" into out, cut to fit. Returns out. */
const char *yt_list(char *out, size_t size, const char *const *names, int n);
/* "path.key", or "key" at the top level. Returns out. */
const char *yt_join(char *out, size_t n, const char *path, const char *key);
/* A plain empty, ~ or null scalar. */
int yt_is_null(const yt_node *y);
/* The key node of key in mapping m, NULL if absent. */
const yt_node *yt_map_key(const yt_node *m, const char *key);
/* The value of key, NULL when absent or null (an emptied optional key counts as absent). */
const yt_node *yt_map_get(const yt_node *m, const char *key);
/* "a mapping (key: value pairs)", "a list", "a scalar". */
const char *yt_type_name(int t);

/* y must be of type (YT_*); path is its dotted key. */
int yt_need(const yt_ctx *c, const yt_node *y, int type, const char *path);
/* "required key is missing or empty", reported at the mapping m. */
int yt_missing(const yt_ctx *c, const yt_node *m, const char *path, const char *key);
/* Every key of m a plain string, known (in the NULL-terminated allowed) and unique. */
int yt_check_keys(const yt_ctx *c, const yt_node *m, const char *path, const char *const *allowed);
/* A key the current variant does not use is an error (why) rather than silently ignored. */
int yt_forbid(const yt_ctx *c, const yt_node *m, const char *path, const char *key,
              const char *why);

/* units: '|'-separated SI families a value may carry ("" = dimensionless); NULL: any. A bare
 * number is always accepted and taken as SI. */
int yt_unit_allowed(const char *units, const char *got);
/* A number with an optional unit suffix (hs_parse_quantity) whose family is in units. */
int yt_num_node(const yt_ctx *c, const yt_node *y, const char *kp, const char *units, double *out);
/* The number at key (def when absent and not required). */
int yt_get_num(const yt_ctx *c, const yt_node *m, const char *path, const char *key,
               const char *units, int required, double def, double *out);
/* A list of exactly n numbers. */
int yt_vec_node(const yt_ctx *c, const yt_node *y, const char *kp, int n, const char *units,
                double *out);
int yt_get_vec(const yt_ctx *c, const yt_node *m, const char *path, const char *key, int n,
               const char *units, int required, const double *def, double *out);
/* A string value; is_name additionally requires [A-Za-z0-9_]+ shorter than HS_NAME_LEN.
 * *node (if node) receives the value node, or m when absent. */
int yt_get_str(const yt_ctx *c, const yt_node *m, const char *path, const char *key, int required,
               int is_name, char *buf, size_t n, const yt_node **node);
/* One of the NULL-terminated options; the position is the value. */
int yt_get_enum(const yt_ctx *c, const yt_node *m, const char *path, const char *key, int required,
                const char *const *options, int def, int *out);
/* true / false (absent: false). */
int yt_get_bool(const yt_ctx *c, const yt_node *m, const char *path, const char *key, int *out);
/* A list (absent: *out = NULL, an error if required) with at most max items (maxname names
 * the limit in the message). */
int yt_get_list_in(const yt_ctx *c, const yt_node *map, const char *path, const char *key, int max,
                   const char *maxname, int required, const yt_node **out);

#ifdef __cplusplus
}
#endif

#endif
