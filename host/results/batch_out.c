/* batch_out.c -- the SoA output buffers of a batch of instances (kernels/hs_batch.h's
 * hs_batch_out): what the backends fill and the results writer reads (results/batch_out.h). */
#include <stdlib.h>
#include <string.h>

#include "engine/backend.h"
#include "results/batch_out.h"

int hs_batch_out_alloc(hs_batch_out *o, long cnt, const hs_output_spec *spec, long ntime)
{
    int ok = 1;
    memset(o, 0, sizeof *o);
    o->n = cnt;
    o->ntime = spec->ntraj > 0 ? ntime : 0;
#define HS_BO_ALLOC_(f, T) ok &= (o->f = (T *)calloc((size_t)cnt, sizeof(T))) != NULL;
    HS_BATCH_OUT_ROWS(HS_BO_ALLOC_)
    o->stats = (double *)calloc((size_t)cnt * (size_t)(spec->nsig > 0 ? spec->nsig : 1) * HS_NSTAT,
                                sizeof *o->stats);
    if (o->ntime > 0)
        o->traj = (double *)calloc((size_t)cnt * (size_t)spec->ntraj * (size_t)o->ntime,
                                   sizeof *o->traj);
    if (!ok || !o->stats || (o->ntime > 0 && !o->traj)) {
        hs_batch_out_free(o);
        return HS_ERR_IO;
    }
    return HS_OK;
}

void hs_batch_out_free(hs_batch_out *o)
{
#define HS_BO_FREE_(f, T) free(o->f);
    HS_BATCH_OUT_ROWS(HS_BO_FREE_)
    free(o->stats);
    free(o->traj);
    memset(o, 0, sizeof *o);
}

/* Row si of src into row di of dst (both for spec; dst->ntime == src->ntime): every per-instance
 * value, the statistics' and trajectories' rows strided by each batch's own n. */
static void copy_row(hs_batch_out *dst, long di, const hs_batch_out *src, long si, const hs_output_spec *spec)
{
    long k, nrow = (long)(spec->nsig > 0 ? spec->nsig : 1) * HS_NSTAT;
    dst->status[di] = src->status[si];
    dst->steps[di] = src->steps[si];
    if (dst->rejected) dst->rejected[di] = src->rejected ? src->rejected[si] : 0;
    dst->iters_mean[di] = src->iters_mean[si];
    dst->iters_max[di] = src->iters_max[si];
    for (k = 0; k < nrow; ++k) dst->stats[k * dst->n + di] = src->stats[k * src->n + si];
    if (dst->traj && src->traj)
        for (k = 0; k < (long)spec->ntraj * src->ntime; ++k) dst->traj[k * dst->n + di] = src->traj[k * src->n + si];
}

int hs_batch_out_slice(const hs_batch_out *b, long off, long m, const hs_output_spec *spec,
                       hs_batch_out *part)
{
    long i;
    if (hs_batch_out_alloc(part, m, spec, b->ntime)) return HS_ERR_IO;
    for (i = 0; i < m; ++i) copy_row(part, i, b, off + i, spec);
    return HS_OK;
}

void hs_batch_out_scatter(hs_batch_out *dst, const hs_batch_out *src, const long *idx, const hs_output_spec *spec)
{
    long i;
    for (i = 0; i < src->n; ++i) copy_row(dst, idx[i], src, i, spec);
}
