/* suggest.c -- "did you mean" for an unknown parameter name (--set NAME=VALUE, sweep files'
 * parameter keys): the model's parameter names closest to it by edit distance, or, when none
 * is close, those of the same form (same first and last dotted components: joint.j1.z0 ->
 * joint.crank_angle.z0, ...). */
#include <stdio.h>
#include <string.h>

#include "base/suggest.h"

int hs_edit_distance(const char *a, const char *b)
{
    int row[128], i, j, la = (int)strlen(a), lb = (int)strlen(b);
    if (lb >= 127 || la >= 127) return 1000;
    for (j = 0; j <= lb; ++j) row[j] = j;
    for (i = 1; i <= la; ++i) {
        int diag = row[0], cur;
        row[0] = i;
        for (j = 1; j <= lb; ++j) {
            cur = row[j];
            row[j] = a[i - 1] == b[j - 1] ? diag : 1 + (diag < cur ? diag : cur);
            if (row[j - 1] + 1 < row[j]) row[j] = row[j - 1] + 1;
            diag = cur;
        }
    }
    return row[lb];
}

/* Length of the first dotted component of s, and the start of its last one. */
static size_t first_len(const char *s)
{
    const char *d = strchr(s, '.');
    return d ? (size_t)(d - s) : strlen(s);
}
static const char *last_part(const char *s)
{
    const char *d = strrchr(s, '.');
    return d ? d + 1 : s;
}

#define HS_SUGGEST_MAX 3

/* Appends " (did you mean a, b or c?)" for the n names in list (n >= 1). */
static void did_you_mean(const char (*list)[112], int n, char *buf, size_t size)
{
    size_t used = 0;
    int k, w;
    w = snprintf(buf, size, " (did you mean ");
    if (w < 0 || (size_t)w >= size) return;
    used = (size_t)w;
    for (k = 0; k < n && used < size; ++k) {
        w = snprintf(buf + used, size - used, "%s%s", k == 0 ? "" : (k == n - 1 ? " or " : ", "),
                     list[k]);
        if (w < 0) return;
        used += (size_t)w;
    }
    if (used < size) snprintf(buf + used, size - used, "?)");
}

void hs_param_suggest(const hs_model_desc *d, const char *name, char *buf, size_t size)
{
    char best[HS_SUGGEST_MAX][112];
    int dist[HS_SUGGEST_MAX], n = 0, m, i, k, lim;
    if (size == 0) return;
    buf[0] = '\0';
    if (!d || !name || !name[0]) return;
    /* 1. closest by edit distance: within max(2, len/4) edits, up to 3, within 2 edits of the
     * closest one */
    lim = (int)strlen(name) / 4;
    if (lim < 2) lim = 2;
    for (i = 0; i < d->nparam; ++i) {
        int e = hs_edit_distance(name, d->param[i].name);
        if (e > lim || (n == HS_SUGGEST_MAX && e >= dist[n - 1])) continue;
        for (k = n < HS_SUGGEST_MAX ? n : HS_SUGGEST_MAX - 1; k > 0 && dist[k - 1] > e; --k) {
            dist[k] = dist[k - 1];
            memcpy(best[k], best[k - 1], sizeof best[k]);
        }
        dist[k] = e;
        snprintf(best[k], sizeof best[k], "%s", d->param[i].name);
        if (n < HS_SUGGEST_MAX) ++n;
    }
    m = 0;
    while (m < n && dist[m] <= dist[0] + 2) ++m;
    if (m > 0) {
        did_you_mean((const char(*)[112])best, m, buf, size);
        return;
    }
    /* 2. none close: the names of the same form (first and last components equal, another
     * entity in between), e.g. joint.<name>.z0 for joint.j1.z0 */
    {
        size_t fl = first_len(name);
        const char *last = last_part(name);
        if (last == name) return; /* no dot: no form to match */
        for (i = 0; i < d->nparam && n < HS_SUGGEST_MAX; ++i) {
            const char *p = d->param[i].name;
            if (first_len(p) == fl && !strncmp(p, name, fl) && last_part(p) != p &&
                !strcmp(last_part(p), last))
                snprintf(best[n++], sizeof best[0], "%s", p);
        }
        if (n > 0) did_you_mean((const char(*)[112])best, n, buf, size);
    }
}
