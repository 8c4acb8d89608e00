/* batch_out.h -- the SoA output buffers of a batch (hs_batch_out of kernels/hs_batch.h), owned
 * by the results layer: allocated for a chunk by the run pipeline, filled by a backend, read by
 * the results writer. batch_out.c. */
#ifndef HS_RESULTS_BATCH_OUT_H
#define HS_RESULTS_BATCH_OUT_H

#include "hs/errors.h"
#include "hs_batch.h"

#ifdef __cplusplus
extern "C" {
#endif

/* SoA output arrays for cnt instances (traj when ntraj > 0); free with hs_batch_out_free. */
int hs_batch_out_alloc(hs_batch_out *o, long cnt, const hs_output_spec *spec, long ntime);
void hs_batch_out_free(hs_batch_out *o);
/* A copy of instances [off, off + m) of b as a batch of its own. */
int hs_batch_out_slice(const hs_batch_out *b, long off, long m, const hs_output_spec *spec,
                       hs_batch_out *part);
/* Row i of src into row idx[i] of dst, for i < src->n (both for spec, the same ntime): the
 * results of a group of instances back into their places in the whole batch. */
void hs_batch_out_scatter(hs_batch_out *dst, const hs_batch_out *src, const long *idx, const hs_output_spec *spec);

#ifdef __cplusplus
}
#endif

#endif
