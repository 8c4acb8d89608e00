/* backend_reference.c -- the reference backend: one instance at a time on one core, with the
 * Newton, projection and acceleration systems solved by LAPACK (dgetrf/dgetrs) instead of
 * the shared LU, so that comparing it with the cpu/gpu backends also checks hs_linalg.h.
 * HS_LU_FACTOR, HS_LU_SOLVE, HS_LU_SOLVE_T and HS_LU_PIVOT are defined before any engine
 * header is included (see kernels/hs_state.h): every dense system of a step, the double-step
 * formulation's loop closure included, goes through LAPACK here. */

/* Row-major A with leading dimension lda is the column-major A^T: dgetrf factors A^T, and
 * dgetrs with 'T' then solves (A^T)^T x = A x = b. */
extern void dgetrf_(const int *m, const int *n, double *a, const int *lda, int *ipiv, int *info);
extern void dgetrs_(const char *trans, const int *n, const int *nrhs, const double *a,
                    const int *lda, const int *ipiv, double *b, const int *ldb, int *info);

static inline int hs_lapack_lu_factor(double *A, int n, int lda, int *piv)
{
    int info = 0;
    if (n == 0) return 0;
    dgetrf_(&n, &n, A, &lda, piv, &info);
    return info != 0 ? (info > 0 ? info : 1) : 0;
}

static inline void hs_lapack_lu_solve(const double *LU, int n, int lda, const int *piv, double *b)
{
    int one = 1, info = 0;
    char t = 'T';
    if (n == 0) return;
    dgetrs_(&t, &n, &one, LU, &lda, piv, b, &n, &info);
}

/* A^T x = b: dgetrs with 'N' solves (A^T) x = b for the column-major A^T that dgetrf factored. */
static inline void hs_lapack_lu_solve_t(const double *LU, int n, int lda, const int *piv, double *b)
{
    int one = 1, info = 0;
    char t = 'N';
    if (n == 0) return;
    dgetrs_(&t, &n, &one, LU, &lda, piv, b, &n, &info);
}

#define HS_LU_FACTOR hs_lapack_lu_factor
#define HS_LU_SOLVE hs_lapack_lu_solve
#define HS_LU_SOLVE_T hs_lapack_lu_solve_t
/* dgetrf keeps U's diagonal itself (of A^T: the same pivots' magnitudes' product) */
#define HS_LU_PIVOT(LU, lda, k) ((LU)[(k) * (lda) + (k)])

#include <stdlib.h>

#include "engine/backend.h"

/* A tree ensemble (job->tree) runs the same instances one after another, in one block. The
 * Riccati recursion solves no dense system (its 3 x 3 and scalar pivots are inverted in
 * place), so there the reference differs from the cpu backend only in running alone. */
int hs_backend_reference(const hs_batch_job *job, hs_error *err)
{
    const hs_tree_ens *tr = job->tree;
    hs_model *ml = tr ? NULL : (hs_model *)malloc(sizeof *ml);
    hs_state *s = tr ? NULL : (hs_state *)malloc(sizeof *s);
    hs_work *w = tr ? NULL : (hs_work *)calloc(1, sizeof *w);
    double *blk = tr ? (double *)malloc(sizeof(double) * (size_t)hs_tree_inst_doubles(tr)) : NULL;
    long i = 0;
    int stop = 0;
    if (tr ? !blk : (!ml || !s || !w)) {
        free(ml);
        free(s);
        free(w);
        return hs_error_set(err, HS_ERR_IO, "", 0, 0, "", "out of memory for the work arrays");
    }
    /* progress after every instance (host/engine/backend.h); a stop request ends the loop */
    if (job->progress && job->progress(job->progress_ctx, 0)) stop = 1;
    for (i = 0; i < job->cnt && !stop; ++i) {
        if (tr)
            hs_tree_run_instance(tr, job->values + (size_t)i * (size_t)tr->nov, job->spec, i, job->out, blk);
        else
            hs_run_instance(job->base, job->ov, job->values + (size_t)i * (size_t)job->ov->n, job->spec, i,
                            job->out, ml, s, w);
        if (job->progress && job->progress(job->progress_ctx, i + 1)) stop = 1;
    }
    free(ml);
    free(s);
    free(w);
    free(blk);
    if (i < job->cnt)
        return hs_error_set(err, HS_ERR_INTERRUPTED, "", 0, 0, "", "stopped after %ld of %ld instances", i,
                            job->cnt);
    return HS_OK;
}
