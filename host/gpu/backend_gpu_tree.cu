/* backend_gpu_tree.cu -- the GPU backend of a tree ensemble (job->tree: a riccati model, seed
 * 002; kernels/hs_tree_batch.h): one thread per instance runs hs_tree_run_instance, the same
 * HS_HD code as the cpu and reference backends, in ONE launch of hs_tree_kernel
 * (kernels/hs_tree_kernel.cuh) per sub-batch.
 *
 *  - The tree's arrays (the hs_tree view's and hs_tree_ens's: per body, per coordinate) go
 *    to the device once per call, in one block; the kernel gets a copy of hs_tree_ens whose
 *    pointers are the device's, by value, and the output spec by value.
 *  - Each thread's instance block (hs_tree_inst_doubles doubles: state, RK4 stages, Riccati
 *    work, the bodies' numbers when a per-body field is swept) is a slot of a pool in global
 *    memory, sized for the resident threads, not for the instances: a grid-stride loop hands
 *    each thread instance after instance. The pool shrinks to what cudaMemGetInfo allows
 *    (half of the budget at most); a device that cannot hold one block is a clear error.
 *  - A job larger than device memory is split into sub-batches; each one's SoA outputs are
 *    copied back into its slice of job->out (strided rows), as host/gpu/backend_gpu.cu does.
 *  - Progress: the threads count finished instances in mapped pinned memory, which the host
 *    reads while it polls the launch (hs_gpu_wait); a stop request skips what has not begun.
 *  - Every CUDA call is checked; everything is freed on every path.
 *
 * HS_GPU_THREADS, HS_GPU_BATCH and HS_GPU_VERBOSE are those of host/gpu/backend_gpu.h; HS_GPU_PATH
 * does not apply (a tree has this one path: no specialised build, no cuBLAS). What each thread
 * touches lies in its own block (consecutive addresses per thread, not interleaved across a
 * warp as local memory is): kernels/hs_tree_batch.h indexes the block with a unit stride. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the kernel, and the shared headers with C++ linkage, before backend_gpu_util.cuh's
 * extern "C" include of backend.h */
#define HS_TREE_KERNEL_DEFINE
#include "hs_tree_kernel.cuh"

#include "gpu/backend_gpu_util.cuh"

/* The tree's arrays, those of the hs_tree view (base) and of hs_tree_ens, in the order of the
 * device block: member of hs_tree_ens, element type, elements (nb bodies, nq, nv). */
#define HS_TREE_ARRAYS(X)                                                                          \
    X(base.mass, double, nb) X(base.com, double, 3 * nb) X(base.inertia, double, 6 * nb)           \
    X(base.at_parent, double, 3 * nb) X(base.at_child, double, 3 * nb) X(base.axis, double, 3 * nb) \
    X(base.rot0, double, 9 * nb) X(length, double, nb) X(q0, double, nq) X(v0, double, nv)          \
    X(base.parent, int, nb) X(base.jtype, int, nb) X(base.iq, int, nb) X(base.iv, int, nb)          \
    X(chain_of, int, nb)                                                                           \
    X(base.ext, hs_model, 1) /* the external loads and their signals (hs_tree.ext: an hs_model, ~21 KB) */
#define HS_TA_ONE_(f, T, n) +1
enum { HS_TA_N = 0 HS_TREE_ARRAYS(HS_TA_ONE_) };

/* Host address and bytes of each array of e (a NULL one, as iq, iv and rot0 may be: 0 bytes);
 * returns the bytes of their device block, every array at an 8-byte boundary. */
static size_t hs_tree_arrays(const hs_tree_ens *e, const void *h[HS_TA_N], size_t bytes[HS_TA_N])
{
    size_t nb = (size_t)e->base.nbody, nq = (size_t)(e->base.nq > 0 ? e->base.nq : 0),
           nv = (size_t)(e->base.nv > 0 ? e->base.nv : 0), tot = 0;
    int k = 0;
#define HS_TA_HOST_(f, T, n) h[k] = e->f, bytes[k++] = (n) * sizeof(T);
    HS_TREE_ARRAYS(HS_TA_HOST_)
    for (k = 0; k < HS_TA_N; ++k) {
        if (!h[k]) bytes[k] = 0;
        tot += (bytes[k] + 7) / 8 * 8;
    }
    return tot;
}

/* The tree's arrays copied into the device block blk; d (a copy of the host's hs_tree_ens)
 * then points to them (NULL where the host's array is NULL or empty). */
static int hs_tree_upload(const void *const h[HS_TA_N], const size_t bytes[HS_TA_N], char *blk, hs_tree_ens *d,
                          hs_error *err)
{
    const void *dp[HS_TA_N];
    int rc = HS_OK, k;
    size_t off = 0;
    for (k = 0; k < HS_TA_N; ++k) {
        dp[k] = NULL;
        if (!h[k] || bytes[k] == 0) continue;
        HS_GPU_TRY(cudaMemcpy(blk + off, h[k], bytes[k], cudaMemcpyHostToDevice), "copy of the tree");
        dp[k] = blk + off;
        off += (bytes[k] + 7) / 8 * 8;
    }
    k = 0;
#define HS_TA_DEVICE_(f, T, n) d->f = (const T *)dp[k++];
    HS_TREE_ARRAYS(HS_TA_DEVICE_)
done:
    return rc;
}

int hs_backend_gpu_tree(const hs_batch_job *job, hs_error *err)
{
    int rc = HS_OK, sms = 0, occ = 0, nov;
    const hs_tree_ens *he = job->tree;
    hs_tree_ens de;
    const void *harr[HS_TA_N];
    size_t barr[HS_TA_N];
    hs_gpu_out o;
    hs_gpu_watch wt;
    cudaFuncAttributes fa;
    char *dtree = NULL;
    double *pool = NULL, *dv = NULL;
    size_t blk_bytes, per, tb, budget, avail, old_stack = 0;
    long nthr, batch, i0, blk, ntime, cap_thr = hs_gpu_env_long("HS_GPU_THREADS"),
                                     cap_batch = hs_gpu_env_long("HS_GPU_BATCH");
    memset(&o, 0, sizeof o);
    memset(&wt, 0, sizeof wt);
    if (!he) return hs_error_set(err, HS_ERR_ARG, "", 0, 0, "backend", "gpu: a tree job without its tree");
    if (job->cnt <= 0) return HS_OK;
    if ((rc = hs_gpu_ready(&sms, err))) return rc;
    nov = he->nov;
    blk = hs_tree_inst_doubles(he);
    blk_bytes = sizeof(double) * (size_t)blk;
    ntime = job->out->traj ? job->out->ntime : 0;
    per = hs_gpu_tree_out_bytes(job->spec, ntime, nov);
    de = *he; /* its pointers become the device's (hs_tree_upload) */
    tb = hs_tree_arrays(he, harr, barr);
    HS_GPU_TRY(cudaFuncGetAttributes(&fa, hs_tree_kernel), "cudaFuncGetAttributes(hs_tree_kernel)");
    HS_GPU_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, hs_tree_kernel, HS_GPU_BLOCK, 0),
               "occupancy query");
    if (occ < 1) occ = 1;
    /* resident threads: one persistent wave, never more than there are instances,
     * HS_GPU_THREADS as a cap */
    nthr = (long)sms * occ * HS_GPU_BLOCK;
    if (cap_thr > 0 && cap_thr < nthr) nthr = cap_thr;
    if (job->cnt < nthr) nthr = job->cnt;
    budget = hs_gpu_budget(fa.localSizeBytes);
    if ((rc = hs_gpu_stack(fa.localSizeBytes + 256, &old_stack, err))) goto done;
    if (budget < tb + blk_bytes + per) {
        rc = hs_error_set(err, HS_ERR_IO, "", 0, 0, "backend",
                          "gpu: not enough free device memory (%.1f MiB usable) for one instance of the tree "
                          "(%d bodies): its block of %zu bytes (%ld doubles) in global memory, %zu bytes of "
                          "outputs and the tree's %zu bytes",
                          (double)budget / 1048576.0, he->base.nbody, blk_bytes, blk, per, tb);
        goto done;
    }
    avail = budget - tb;
    /* the pool may take at most half of what is left; the rest holds the sub-batch's
     * outputs (one slot at least: the check above leaves room for it) */
    if ((size_t)nthr * blk_bytes > avail / 2) {
        size_t m = avail / 2 / blk_bytes;
        nthr = m >= 1 ? (long)m : 1;
    }
    batch = (long)((avail - (size_t)nthr * blk_bytes) / per);
    if (batch > job->cnt) batch = job->cnt;
    if (cap_batch > 0 && cap_batch < batch) batch = cap_batch;
    if (batch < nthr) nthr = batch; /* threads beyond the sub-batch would only idle */
    if (hs_gpu_verbose())
        fprintf(stderr,
                "gpu tree: %ld instances of %d bodies, sub-batches of %ld, %ld threads (%d SMs x %d blocks of %d), "
                "%d registers, %zu B stack, %.1f KiB block per thread, %zu B of tree\n",
                job->cnt, he->base.nbody, batch, nthr, sms, occ, HS_GPU_BLOCK, fa.numRegs, fa.localSizeBytes,
                (double)blk_bytes / 1024.0, tb);
    if (tb > 0) HS_GPU_TRY(cudaMalloc((void **)&dtree, tb), "cudaMalloc(tree)");
    if ((rc = hs_tree_upload(harr, barr, dtree, &de, err))) goto done;
    HS_GPU_TRY(cudaMalloc((void **)&pool, (size_t)nthr * blk_bytes), "cudaMalloc(instance blocks)");
    if (nov > 0)
        HS_GPU_TRY(cudaMalloc((void **)&dv, (size_t)batch * (size_t)nov * sizeof(double)), "cudaMalloc(values)");
    if ((rc = hs_gpu_out_alloc(&o, job, batch, err))) goto done;
    hs_gpu_watch_open(&wt, job);
    hs_gpu_watch_report(&wt, job, 0);
    for (i0 = 0; i0 < job->cnt; i0 += batch) {
        long cnt = job->cnt - i0 < batch ? job->cnt - i0 : batch;
        long thr = cnt < nthr ? cnt : nthr, bd = hs_gpu_block_for(thr, sms);
        unsigned int blocks = (unsigned int)((thr + bd - 1) / bd);
        if (wt.stop) {
            rc = hs_error_set(err, HS_ERR_INTERRUPTED, "", 0, 0, "backend", "gpu: stopped after %ld of %ld instances",
                              wt.shown, job->cnt);
            goto done;
        }
        if (nov > 0)
            HS_GPU_TRY(cudaMemcpy(dv, job->values + (size_t)i0 * (size_t)nov, (size_t)cnt * (size_t)nov * sizeof(double),
                                  cudaMemcpyHostToDevice),
                       "copy of the sampled values");
        o.d.n = cnt;
        HS_GPU_LAUNCH(hs_tree_kernel, blocks, (unsigned int)bd, de, *job->spec, (const double *)dv, o.d, thr, pool,
                      blk, wt.d);
        HS_GPU_TRY(cudaGetLastError(), "launch of the tree kernel");
        if ((rc = hs_gpu_sub_batch_finish(&wt, job, &o, i0, cnt, "tree kernel", err))) goto done;
    }
done:
    hs_gpu_watch_close(&wt);
    hs_gpu_out_free(&o);
    (void)cudaFree(dv);
    (void)cudaFree(pool);
    (void)cudaFree(dtree);
    hs_gpu_stack_restore(old_stack);
    return rc;
}
