/* errors.c -- filling and formatting hs_error reports. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "hs/errors.h"

/* A key as messages echo it: at most 96 characters, each byte outside printable ASCII as '?',
 * "..." when cut. Keys come from input files, which may be anything (a binary file, another
 * program's configuration): a message repeats a bounded, printable prefix only. */
static void copy_key(char *dst, size_t n, const char *src)
{
    size_t k, max = n > 100 ? 96 : (n > 4 ? n - 4 : 0);
    if (n == 0) return;
    if (!src) src = "";
    for (k = 0; src[k] && k < max; ++k) {
        unsigned char ch = (unsigned char)src[k];
        dst[k] = ch >= 0x20 && ch < 0x7f ? (char)ch : '?';
    }
    if (src[k] && n >= 4) {
        memcpy(dst + k, "...", 3);
        k += 3;
    }
    dst[k] = '\0';
}

int hs_error_set(hs_error *e, int code, const char *file, int line, int col, const char *key,
                 const char *fmt, ...)
{
    va_list ap;
    if (!e) return code;
    memset(e, 0, sizeof *e);
    e->code = code;
    snprintf(e->file, sizeof e->file, "%s", file ? file : "");
    e->line = line > 0 ? line : 0;
    e->col = col > 0 ? col : 0;
    copy_key(e->key, sizeof e->key, key);
    if (fmt) {
        va_start(ap, fmt);
        vsnprintf(e->msg, sizeof e->msg, fmt, ap);
        va_end(ap);
    }
    return code;
}

/* "FILE:LINE:COL: error: key 'KEY': MSG"; the location parts and the key are left out when
 * unknown, so API-level errors (no file) still read naturally. */
void hs_error_format(const hs_error *e, char *buf, unsigned long n)
{
    size_t used = 0;
    int w;
    if (!buf || n == 0) return;
    buf[0] = '\0';
    if (!e) return;
#define HS_APPEND(...)                                                                     \
    do {                                                                                   \
        if (used < n) {                                                                    \
            w = snprintf(buf + used, n - used, __VA_ARGS__);                               \
            if (w > 0) used += (size_t)w;                                                  \
        }                                                                                  \
    } while (0)
    if (e->file[0]) {
        HS_APPEND("%s:", e->file);
        if (e->line > 0) {
            HS_APPEND("%d:", e->line);
            if (e->col > 0) HS_APPEND("%d:", e->col);
        }
        HS_APPEND(" ");
    } else if (e->line > 0) {
        HS_APPEND("%d:", e->line);
        if (e->col > 0) HS_APPEND("%d:", e->col);
        HS_APPEND(" ");
    }
    HS_APPEND("error: ");
    if (e->key[0]) HS_APPEND("key '%s': ", e->key);
    HS_APPEND("%s", e->msg[0] ? e->msg : "unknown error");
#undef HS_APPEND
}
