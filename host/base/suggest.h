/* suggest.h -- "did you mean" for a mistyped name (suggest.c): the edit distance, and the
 * parameter names closest to an unknown one.
 * Not part of the public API (include/hs/model_file.h is). */
#ifndef HS_HOST_SUGGEST_H
#define HS_HOST_SUGGEST_H

#include <stddef.h>

#include "hs/model_file.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Levenshtein distance of a and b (names are < 127 characters; longer ones count as far:
 * 1000). */
int hs_edit_distance(const char *a, const char *b);

/* " (did you mean a, b or c?)" for an unknown parameter name, into buf ("" if nothing fits):
 * the names closest by edit distance (within max(2, len/4) edits), else those of the same form
 * (the same first and last dotted components: joint.j1.z0 -> joint.crank_angle.z0).
 * host/base/suggest.c; used by --set and by sweep files' parameter keys. */
/* Up to three names closest to one asked for (edit distance <= max(2, len/4)), closest
 * first: hs_near_add offers each candidate (zero L first), hs_near_text gives those within 2
 * edits of the closest as " (did you mean a, b or c?)", "" when none. */
typedef struct hs_near {
    char name[3][112];
    int dist[3], n;
} hs_near;
void hs_near_add(hs_near *L, const char *want, const char *cand);
const char *hs_near_text(const hs_near *L, char *buf, size_t n);

void hs_param_suggest(const hs_model_desc *d, const char *name, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif
