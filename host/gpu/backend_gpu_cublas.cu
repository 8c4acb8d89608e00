/* backend_gpu_cublas.cu -- the second GPU path (DESIGN.md sect. 5): the Newton systems of all
 * instances solved by batched cuBLAS LU (cublasDgetrfBatched / cublasDgetrsBatched) instead
 * of in-thread, for systems too large for one thread's registers and local memory. Selected
 * with HS_GPU_PATH=cublas (host/gpu/backend_gpu.h); same interface and results as the fused path.
 *
 * The time loop runs on the host, all instances of a sub-batch in lockstep, step k:
 *   begin kernel      hs_step's prologue per instance: spool step, hat terms, predictor
 *   Newton iteration  (repeated while some instance has not converged)
 *     assemble kernel residual, finiteness check, forward-difference tangent, P block, rhs
 *     compaction      CUB DeviceSelect of the instances still iterating (stable order)
 *     cuBLAS          getrfBatched + getrsBatched on their matrices (pointers into hs_work)
 *     update kernel   x += dx, per-class convergence test, multiplier update; a converged
 *                     instance finishes its step in-thread (projections, accept, loads
 *                     jump), observes and records its statistics; a failed one is frozen
 *                     and its outputs are written
 * Initialisation (hs_init, with its small regularised solves) and the projections (nz x nz,
 * factorised once per step) stay in-thread (kernels/hs_linalg.h LU).
 *
 * The per-instance phases (hs_step and hs_run_instance cut at the solve) are in
 * host/gpu/backend_gpu_phases.cuh: the shared stages of kernels/hs_trapezoid.h, hs_newton.h and
 * hs_batch.h themselves (hs_step_begin, hs_newton_assemble, hs_newton_apply, hs_step_finish,
 * ...) under gc_* alias macros, not copies, composed as hs_step composes them; the
 * composition is checked bit for bit against hs_run_instance on the host by
 * tests/test_cublas_phases.cu, and the two GPU paths are compared on a device by
 * tests/test_conformance_gpu.cu.
 *
 * Layout: our matrices are row-major with leading dimension HS_MAX_X, which cuBLAS (column-
 * major) sees as the transpose: getrf factors T^T and getrs with CUBLAS_OP_T solves
 * (T^T)^T dx = T dx = -f, as host/engine/backend_reference.c does with LAPACK. All matrices of a
 * batched call must have one size: instances with fewer unknowns than the sub-batch's
 * largest nx are padded with an identity block (block diagonal: the pivots never leave the
 * leading block, so the factors of that block are those of the unpadded matrix). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cublas_v2.h>
#ifndef HS_GPU_EMULATION /* tests/gpu_emul/hs_cuda_emul.h brings its own host cub::DeviceSelect */
#include <cub/device/device_select.cuh>
#endif
#include <thrust/iterator/counting_iterator.h>

#include "gpu/backend_gpu_phases.cuh"

/* ---------------------------------------------------------------------------------------
 * kernels: one thread per instance of the sub-batch (out.n instances). An instance ends in
 * whichever phase finishes or freezes it (g->done set); that kernel counts it in ctl (the
 * job's progress counter in mapped pinned host memory, or NULL). */

__device__ static inline void gc_count(hs_gpu_ctl *ctl, int was_done, const hs_gc_inst *g)
{
    if (ctl && !was_done && g->done) atomicAdd(&ctl->done, 1ULL);
}

__global__ void __launch_bounds__(HS_GPU_BLOCK)
    gc_init_kernel(const hs_gpu_const *c, const double *values, hs_batch_out out, hs_model *pm,
                   hs_state *ps, hs_work *pw, hs_gc_inst *pg, hs_gpu_ctl *ctl)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= out.n) return;
    gc_init_one(c, values, &out, i, pm + i, ps + i, pw + i, pg + i);
    gc_count(ctl, 0, pg + i); /* (pg[i] is cleared by the init) */
}

/* Largest step count and unknown count of the instances still running (max: deterministic). */
__global__ void gc_extent_kernel(const hs_gc_inst *pg, long cnt, unsigned long long *maxsteps, int *maxnx)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= cnt || pg[i].done) return;
    atomicMax(maxsteps, (unsigned long long)pg[i].nsteps);
    atomicMax(maxnx, pg[i].nx);
}

__global__ void __launch_bounds__(HS_GPU_BLOCK)
    gc_begin_kernel(const hs_gpu_const *c, hs_batch_out out, hs_model *pm, hs_state *ps,
                    hs_work *pw, hs_gc_inst *pg, hs_gpu_ctl *ctl)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    int was;
    if (i >= out.n) return;
    was = pg[i].done;
    gc_begin_one(c, &out, i, pm + i, ps + i, pw + i, pg + i);
    gc_count(ctl, was, pg + i);
}

/* flag[i] = 1: instance i's Newton system is to be solved in this iteration */
__global__ void __launch_bounds__(HS_GPU_BLOCK)
    gc_assemble_kernel(const hs_gpu_const *c, hs_batch_out out, hs_model *pm, hs_state *ps,
                       hs_work *pw, hs_gc_inst *pg, int nmax, char *flag, hs_gpu_ctl *ctl)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    int was;
    if (i >= out.n) return;
    was = pg[i].done;
    flag[i] = (char)gc_assemble_one(c, &out, i, pm + i, ps + i, pw + i, pg + i, nmax);
    gc_count(ctl, was, pg + i);
}

/* cuBLAS pointer arrays of the selected instances. */
__global__ void gc_pointers_kernel(const int *idx, int m, hs_work *pw, double **A, double **B)
{
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= m) return;
    A[k] = pw[idx[k]].lu.T;
    B[k] = pw[idx[k]].dx;
}

/* the k-th selected instance is idx[k]; its factorisation's info is info[k] */
__global__ void __launch_bounds__(HS_GPU_BLOCK)
    gc_update_kernel(const hs_gpu_const *c, hs_batch_out out, const int *idx, int m,
                     const int *info, hs_model *pm, hs_state *ps, hs_work *pw, hs_gc_inst *pg,
                     hs_gpu_ctl *ctl)
{
    int k = blockIdx.x * blockDim.x + threadIdx.x, was;
    long i;
    if (k >= m) return;
    i = idx[k];
    was = pg[i].done;
    gc_update_one(c, &out, i, info[k], pm + i, ps + i, pw + i, pg + i);
    gc_count(ctl, was, pg + i);
}

/* ---------------------------------------------------------------------------------------
 * host driver */

static int gc_cublas_fail(hs_error *err, cublasStatus_t st, const char *what)
{
    (void)cudaGetLastError();
    return hs_error_set(err, st == CUBLAS_STATUS_ALLOC_FAILED ? HS_ERR_IO : HS_ERR_NUMERIC, "", 0, 0,
                        "backend", "gpu cublas: %s: %s", what, cublasGetStatusString(st));
}

#define GC_BLAS(call, what)                                                                        \
    do {                                                                                           \
        cublasStatus_t s_ = (call);                                                                \
        if (s_ != CUBLAS_STATUS_SUCCESS) {                                                         \
            rc = gc_cublas_fail(err, s_, what);                                                    \
            goto done;                                                                             \
        }                                                                                          \
    } while (0)

#define GC_LAUNCH(what)                                                                            \
    do {                                                                                           \
        HS_GPU_TRY(cudaGetLastError(), "launch of " what);                                         \
    } while (0)

/* launch shape (blocks, threads per block) of a one-thread-per-instance kernel over n instances */
#define GC_BLOCKS(n) (unsigned int)(((n) + hs_gpu_block_for((n), sms) - 1) / hs_gpu_block_for((n), sms))
#define GC_THREADS(n) (unsigned int)hs_gpu_block_for((n), sms)

extern "C" int hs_backend_gpu_cublas(const hs_batch_job *job, hs_error *err)
{
    int rc = HS_OK, sms = 0, *d_idx = NULL, *d_nsel = NULL, *d_piv = NULL, *d_info = NULL, *d_maxnx = NULL;
    char *d_flag = NULL;
    double **d_A = NULL, **d_B = NULL, *dv = NULL;
    unsigned long long *d_maxsteps = NULL;
    void *d_tmp = NULL;
    size_t tmp_bytes = 0, stack = 0, per, budget, old_stack = 0;
    cublasHandle_t h = NULL;
    hs_gpu_const *dc = NULL;
    hs_gpu_out o;
    hs_model *pm = NULL;
    hs_state *ps = NULL;
    hs_work *pw = NULL;
    hs_gc_inst *pg = NULL;
    cudaFuncAttributes fa;
    long batch, i0, nov = job->ov->n, cap_batch = hs_gpu_env_long("HS_GPU_BATCH"), solves = 0;
    thrust::counting_iterator<int> first(0);
    hs_gpu_watch wt;
    /* every device block of the call, freed at the end (cudaFree of NULL is a no-op) */
    void **const blocks[] = {&d_tmp, (void **)&dv, (void **)&d_maxnx, (void **)&d_maxsteps, (void **)&d_nsel,
                             (void **)&d_B, (void **)&d_A, (void **)&d_piv, (void **)&d_info, (void **)&d_idx,
                             (void **)&d_flag, (void **)&pg, (void **)&pw, (void **)&ps, (void **)&pm, (void **)&dc};
    memset(&o, 0, sizeof o);
    memset(&wt, 0, sizeof wt);
    if (job->cnt <= 0) return HS_OK;
    if ((rc = hs_gpu_ready(&sms, err))) return rc;
    /* the driver's stack reservation follows the largest frame among the kernels */
    HS_GPU_TRY(cudaFuncGetAttributes(&fa, gc_init_kernel), "cudaFuncGetAttributes");
    stack = fa.localSizeBytes;
    HS_GPU_TRY(cudaFuncGetAttributes(&fa, gc_assemble_kernel), "cudaFuncGetAttributes");
    if (fa.localSizeBytes > stack) stack = fa.localSizeBytes;
    HS_GPU_TRY(cudaFuncGetAttributes(&fa, gc_update_kernel), "cudaFuncGetAttributes");
    if (fa.localSizeBytes > stack) stack = fa.localSizeBytes;
    budget = hs_gpu_budget(stack);
    if ((rc = hs_gpu_stack(stack + 256, &old_stack, err))) goto done;
    /* every instance of a sub-batch keeps its model, state and work arrays between kernels */
    per = sizeof(hs_model) + sizeof(hs_state) + sizeof(hs_work) + sizeof(hs_gc_inst) +
          hs_gpu_out_bytes(job) + 2 * sizeof(double *) + 3 * sizeof(int) + 1 +
          HS_MAX_X * sizeof(int);
    batch = (long)(budget / per);
    if (batch > job->cnt) batch = job->cnt;
    if (cap_batch > 0 && cap_batch < batch) batch = cap_batch;
    if (batch > 0x7fffffffL / HS_MAX_X) batch = 0x7fffffffL / HS_MAX_X; /* cuBLAS/CUB int counts */
    if (batch < 1) {
        rc = hs_error_set(err, HS_ERR_IO, "", 0, 0, "backend",
                          "gpu cublas: not enough free device memory (%.1f MiB usable) for one instance "
                          "(%.1f KiB)", (double)budget / 1048576.0, (double)per / 1024.0);
        goto done;
    }
    if (hs_gpu_verbose())
        fprintf(stderr, "gpu cublas: %ld instances, sub-batches of %ld, %.1f KiB per instance, %zu B stack\n",
                job->cnt, batch, (double)per / 1024.0, stack);
    GC_BLAS(cublasCreate(&h), "cublasCreate");
    if ((rc = hs_gpu_const_upload(job, &dc, err))) goto done;
    if ((rc = hs_gpu_scratch_alloc(batch, &pm, &ps, &pw, err))) goto done;
    HS_GPU_TRY(cudaMalloc((void **)&pg, (size_t)batch * sizeof *pg), "cudaMalloc(runner state)");
    HS_GPU_TRY(cudaMalloc((void **)&d_flag, (size_t)batch), "cudaMalloc(flags)");
    HS_GPU_TRY(cudaMalloc((void **)&d_idx, (size_t)batch * sizeof(int)), "cudaMalloc(index)");
    HS_GPU_TRY(cudaMalloc((void **)&d_info, (size_t)batch * sizeof(int)), "cudaMalloc(info)");
    HS_GPU_TRY(cudaMalloc((void **)&d_piv, (size_t)batch * HS_MAX_X * sizeof(int)), "cudaMalloc(pivots)");
    HS_GPU_TRY(cudaMalloc((void **)&d_A, (size_t)batch * sizeof(double *)), "cudaMalloc(A pointers)");
    HS_GPU_TRY(cudaMalloc((void **)&d_B, (size_t)batch * sizeof(double *)), "cudaMalloc(B pointers)");
    HS_GPU_TRY(cudaMalloc((void **)&d_nsel, sizeof(int)), "cudaMalloc(count)");
    HS_GPU_TRY(cudaMalloc((void **)&d_maxsteps, sizeof *d_maxsteps), "cudaMalloc(extent)");
    HS_GPU_TRY(cudaMalloc((void **)&d_maxnx, sizeof *d_maxnx), "cudaMalloc(extent)");
    if (nov > 0)
        HS_GPU_TRY(cudaMalloc((void **)&dv, (size_t)batch * (size_t)nov * sizeof(double)),
                   "cudaMalloc(values)");
    HS_GPU_TRY(cub::DeviceSelect::Flagged(NULL, tmp_bytes, first, d_flag, d_idx, d_nsel, batch),
               "cub::DeviceSelect (size query)");
    HS_GPU_TRY(cudaMalloc(&d_tmp, tmp_bytes > 0 ? tmp_bytes : 1), "cudaMalloc(CUB temporary)");
    if ((rc = hs_gpu_out_alloc(&o, job, batch, err))) goto done;
    hs_gpu_watch_open(&wt, job);
    hs_gpu_watch_report(&wt, job, 0);

    for (i0 = 0; i0 < job->cnt; i0 += batch) {
        long cnt = job->cnt - i0 < batch ? job->cnt - i0 : batch, K, maxsteps_l;
        unsigned long long maxsteps = 0;
        int nmax = 0;
        if (nov > 0)
            HS_GPU_TRY(cudaMemcpy(dv, job->values + (size_t)i0 * (size_t)nov,
                                  (size_t)cnt * (size_t)nov * sizeof(double), cudaMemcpyHostToDevice),
                       "copy of the sampled values");
        o.d.n = cnt;
        HS_GPU_LAUNCH(gc_init_kernel, GC_BLOCKS(cnt), GC_THREADS(cnt), dc, dv, o.d, pm, ps, pw, pg, wt.d);
        GC_LAUNCH("the init kernel");
        HS_GPU_TRY(cudaMemset(d_maxsteps, 0, sizeof *d_maxsteps), "cudaMemset");
        HS_GPU_TRY(cudaMemset(d_maxnx, 0, sizeof *d_maxnx), "cudaMemset");
        HS_GPU_LAUNCH(gc_extent_kernel, GC_BLOCKS(cnt), GC_THREADS(cnt), pg, cnt, d_maxsteps, d_maxnx);
        GC_LAUNCH("the extent kernel");
        HS_GPU_TRY(cudaMemcpy(&maxsteps, d_maxsteps, sizeof maxsteps, cudaMemcpyDeviceToHost), "init kernel");
        HS_GPU_TRY(cudaMemcpy(&nmax, d_maxnx, sizeof nmax, cudaMemcpyDeviceToHost), "init kernel");
        maxsteps_l = (long)maxsteps;
        /* a step may take sub-steps that land on the signals' knots and test inputs'
         * switches (hs_step_span): at most one more per knot, two per test input */
        for (K = 1; K <= maxsteps_l * (long)(job->base->nknot + 2 * job->base->nsignal + 1); ++K) {
            int running = 0;
            /* the time loop is the host's: progress once per step (the copies of the Newton
             * loop have synchronised), and a stop request ends the job between two steps */
            hs_gpu_watch_report(&wt, job, hs_gpu_watch_count(&wt, i0));
            if (wt.stop) {
                rc = hs_error_set(err, HS_ERR_INTERRUPTED, "", 0, 0, "backend",
                                  "gpu cublas: stopped after %ld of %ld instances", wt.shown, job->cnt);
                goto done;
            }
            HS_GPU_LAUNCH(gc_begin_kernel, GC_BLOCKS(cnt), GC_THREADS(cnt), dc, o.d, pm, ps, pw, pg, wt.d);
            GC_LAUNCH("the step kernel");
            for (;;) {
                int m = 0, one = 0;
                HS_GPU_LAUNCH(gc_assemble_kernel, GC_BLOCKS(cnt), GC_THREADS(cnt), dc, o.d, pm, ps, pw, pg, nmax, d_flag,
                              wt.d);
                GC_LAUNCH("the Newton assembly kernel");
                HS_GPU_TRY(cub::DeviceSelect::Flagged(d_tmp, tmp_bytes, first, d_flag, d_idx, d_nsel, cnt),
                           "cub::DeviceSelect");
                HS_GPU_TRY(cudaMemcpy(&m, d_nsel, sizeof m, cudaMemcpyDeviceToHost), "Newton assembly");
                if (m <= 0) break; /* every instance converged or failed */
                running = 1;
                HS_GPU_LAUNCH(gc_pointers_kernel, GC_BLOCKS(m), GC_THREADS(m), d_idx, m, pw, d_A, d_B);
                GC_LAUNCH("the pointer kernel");
                GC_BLAS(cublasDgetrfBatched(h, nmax, d_A, HS_MAX_X, d_piv, d_info, m), "cublasDgetrfBatched");
                GC_BLAS(cublasDgetrsBatched(h, CUBLAS_OP_T, nmax, 1, d_A, HS_MAX_X, d_piv, d_B, HS_MAX_X,
                                            &one, m),
                        "cublasDgetrsBatched");
                if (one != 0) {
                    rc = hs_error_set(err, HS_ERR_NUMERIC, "", 0, 0, "backend",
                                      "gpu cublas: cublasDgetrsBatched rejected argument %d", -one);
                    goto done;
                }
                HS_GPU_LAUNCH(gc_update_kernel, GC_BLOCKS(m), GC_THREADS(m), dc, o.d, d_idx, m, d_info, pm, ps, pw, pg,
                              wt.d);
                GC_LAUNCH("the Newton update kernel");
                solves += m;
            }
            /* none iterated this step: every instance of the sub-batch has finished */
            if (!running) break;
        }
        HS_GPU_TRY(hs_gpu_wait(&wt, job, i0 + cnt), "cuBLAS path kernels");
        HS_GPU_TRY(cudaDeviceSynchronize(), "cuBLAS path kernels");
        if ((rc = hs_gpu_out_fetch(&o, job, i0, cnt, err))) goto done;
    }
    if (hs_gpu_verbose()) fprintf(stderr, "gpu cublas: %ld batched Newton solves\n", solves);
done:
    hs_gpu_watch_close(&wt);
    if (h) (void)cublasDestroy(h);
    hs_gpu_out_free(&o);
    for (size_t k = 0; k < sizeof blocks / sizeof blocks[0]; ++k) (void)cudaFree(*blocks[k]);
    hs_gpu_stack_restore(old_stack);
    return rc;
}
