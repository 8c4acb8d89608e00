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

void hs_near_add(hs_near *L, const char *want, const char *cand)
{
    int d = hs_edit_distance(want, cand), lim = (int)strlen(want) / 4, k;
    if (lim < 2) lim = 2;
    if (d > lim || (L->n == 3 && d >= L->dist[2])) return;
    for (k = L->n < 3 ? L->n : 2; k > 0 && L->dist[k - 1] > d; --k) {
        L->dist[k] = L->dist[k - 1];
        memcpy(L->name[k], L->name[k - 1], sizeof L->name[k]);
    }
    L->dist[k] = d;
    snprintf(L->name[k], sizeof L->name[k], "%s", cand);
    if (L->n < 3) ++L->n;
}

const char *hs_near_text(const hs_near *L, char *buf, size_t n)
{
    int m = 0;
    while (m < L->n && L->dist[m] <= L->dist[0] + 2) ++m;
    if (m == 0)
        snprintf(buf, n, "%s", "");
    else if (m == 1)
        snprintf(buf, n, " (did you mean %s?)", L->name[0]);
    else if (m == 2)
        snprintf(buf, n, " (did you mean %s or %s?)", L->name[0], L->name[1]);
    else
        snprintf(buf, n, " (did you mean %s, %s or %s?)", L->name[0], L->name[1], L->name[2]);
    return buf;
}

void hs_param_suggest(const hs_model_desc *d, const char *name, char *buf, size_t size)
{
    hs_near L;
    int i;
    if (size == 0) return;
    buf[0] = '\0';
    if (!d || !name || !name[0]) return;
    memset(&L, 0, sizeof L);
    /* 1. closest by edit distance */
    for (i = 0; i < d->nparam; ++i) hs_near_add(&L, name, d->param[i].name);
    /* 2. none close: the names of the same form (first and last components equal, another
     * entity in between), e.g. joint.<name>.z0 for joint.j1.z0 */
    if (L.n == 0) {
        size_t fl = first_len(name);
        const char *last = last_part(name);
        if (last == name) return; /* no dot: no form to match */
        for (i = 0; i < d->nparam && L.n < 3; ++i) {
            const char *p = d->param[i].name;
            if (first_len(p) == fl && !strncmp(p, name, fl) && last_part(p) != p &&
                !strcmp(last_part(p), last))
                snprintf(L.name[L.n++], sizeof L.name[0], "%s", p); /* dist 0: all listed */
        }
    }
    hs_near_text(&L, buf, size);
}
