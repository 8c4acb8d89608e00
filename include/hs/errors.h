/* hs/errors.h -- error reports of the host API: where (file, line, column, key) and what rule. */
#ifndef HS_ERRORS_H
#define HS_ERRORS_H

#ifdef __cplusplus
extern "C" {
#endif

enum hs_errcode {
    HS_OK = 0,
    HS_ERR_IO = 1, /* file cannot be read or written */
    HS_ERR_PARSE = 2, /* YAML syntax */
    HS_ERR_SCHEMA = 3, /* unknown key, missing key, wrong type */
    HS_ERR_VALUE = 4, /* physically invalid value (rule in msg) */
    HS_ERR_LIMIT = 5, /* a size exceeds an HS_MAX_* limit */
    HS_ERR_ARG = 6, /* bad command-line or API argument */
    HS_ERR_NUMERIC = 7 /* a numerical procedure failed (loop closure, singular matrix) */
};

typedef struct hs_error {
    int code; /* enum hs_errcode */
    char file[256]; /* source file, "" if none */
    int line, col; /* 1-based; 0 if unknown */
    char key[128]; /* dotted key path, e.g. bodies[2].mass */
    char msg[512]; /* the rule that was broken */
} hs_error;

/* Sets *e (if e != NULL) and returns code. fmt is printf-style. */
int hs_error_set(hs_error *e, int code, const char *file, int line, int col, const char *key,
                 const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 7, 8)))
#endif
    ;

/* "file:line:col: error: key 'k': msg" into buf. */
void hs_error_format(const hs_error *e, char *buf, unsigned long n);

#ifdef __cplusplus
}
#endif

#endif
