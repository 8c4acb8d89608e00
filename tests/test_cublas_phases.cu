/* test_cublas_phases.cu -- host/gpu/backend_gpu_phases.cuh (the cuBLAS GPU path's per-instance
 * phases), on the host: no GPU needed, label unit. The phases are driven by a host loop shaped
 * like hs_backend_gpu_cublas (all instances in lockstep, Newton systems of the unconverged
 * ones solved between assemble and update, padded to the largest nx) with hs_lu_factor /
 * hs_lu_solve as the solver: the padding is an identity block, so every pivot and every
 * operation is that of the unpadded in-thread solve, and the results must equal
 * hs_run_instance's (the fused/CPU paths) BIT FOR BIT. This catches a phase re-stated from
 * hs_step / hs_run_instance that no longer matches them. Two ensembles:
 *  1. the 12 instances of tests/test_backends.c (oil and seal overrides, one invalid) and
 *     two with an iteration limit of 1 and 0 (Newton failures: hs_step's MAXITER verdict);
 *  2. the friction law swept as an enumeration (none / Brown-McPhee / LuGre): instances with
 *     6 and 7 Newton unknowns in one batch (padding). */
#include <stddef.h>
#include <stdlib.h>

#include "gpu/backend_gpu_phases.cuh"
#include "test_util.h"

#define NI 12

static hs_gpu_const C;
#define NP 4 /* overrides per instance */
static double vals[NI * NP];

static void setup(int sweep_law)
{
    int i;
    hs_model *b = &C.base;
    tu_fourbar_pub1(b);
    b->t_end = sweep_law ? 0.8 : 1.2; /* the valve opens at 0.5 s */
    b->cyl_fric[0] = HS_FRIC_BROWN_MCPHEE;
    b->cyl_fp[0][HS_FP_FC] = 210;
    b->cyl_fp[0][HS_FP_FS] = 830;
    b->cyl_fp[0][HS_FP_VS] = 0.0125;
    b->cyl_fp[0][HS_FP_SIGMA2] = 330;
    b->cyl_fp[0][HS_FP_SIGMA0] = 1e7; /* LuGre bristles, for ensemble 2 */
    b->cyl_fp[0][HS_FP_SIGMA1] = 1e3;
    b->cyl_fp[0][HS_FP_N] = 1;
    hs_model_derive(b);
    memset(&C.ov, 0, sizeof C.ov);
    C.ov.n = NP;
    C.ov.offset[0] = offsetof(hs_model, B_oil);
    C.ov.offset[1] = offsetof(hs_model, cyl_fp) + HS_FP_FC * sizeof(double);
    C.ov.offset[2] = offsetof(hs_model, vol_B) + 1 * sizeof(double);
    C.ov.offset[3] = offsetof(hs_model, max_iter);
    if (sweep_law) {
        C.ov.offset[2] = offsetof(hs_model, cyl_fric);
        C.ov.is_int[2] = 1;
    }
    for (i = 0; i < NI; ++i) {
        static const int law[3] = {HS_FRIC_LUGRE, HS_FRIC_NONE, HS_FRIC_BROWN_MCPHEE};
        vals[NP * i + 0] = 1200e6 + 50e6 * i;
        vals[NP * i + 1] = 150 + 10 * i;
        vals[NP * i + 2] = sweep_law ? (double)law[i % 3] : 400e6 + 30e6 * i;
        vals[NP * i + 3] = 20;
    }
    vals[NP * 5 + 0] = -1500e6; /* instance 5: invalid */
    vals[NP * 9 + 3] = 1; /* instance 9: the first step needing 2 Newton iterations fails */
    vals[NP * 10 + 3] = 0; /* instance 10: no iteration allowed at all */
    memset(&C.spec, 0, sizeof C.spec);
    C.spec.nsig = 6;
    C.spec.sig[0].kind = HS_SIG_Z;
    C.spec.sig[1].kind = HS_SIG_P;
    C.spec.sig[1].index = 1;
    C.spec.sig[2].kind = HS_SIG_F;
    C.spec.sig[3].kind = HS_SIG_W;
    C.spec.sig[4].kind = HS_SIG_EBAL;
    C.spec.sig[5].kind = HS_SIG_ITERS;
    C.spec.stats = (1u << HS_NSTAT) - 1;
    C.spec.traj_every = 100;
    C.spec.ntraj = 1;
    C.spec.traj[0].kind = HS_SIG_P;
    C.spec.traj[0].index = 1;
}

static void out_alloc(hs_batch_out *o, long n, long ntime)
{
    memset(o, 0, sizeof *o);
    o->n = n;
    o->ntime = ntime;
    o->status = (int *)calloc((size_t)n, sizeof(int));
    o->steps = (long *)calloc((size_t)n, sizeof(long));
    o->iters_mean = (double *)calloc((size_t)n, sizeof(double));
    o->iters_max = (int *)calloc((size_t)n, sizeof(int));
    o->stats = (double *)calloc((size_t)n * C.spec.nsig * HS_NSTAT, sizeof(double));
    o->traj = (double *)calloc((size_t)n * C.spec.ntraj * (size_t)ntime, sizeof(double));
}

static void out_free(hs_batch_out *o)
{
    free(o->status);
    free(o->steps);
    free(o->iters_mean);
    free(o->iters_max);
    free(o->stats);
    free(o->traj);
}

/* bitwise equality that also holds for NaN == NaN (the invalid instance's statistics) */
static int same_bits(const double *a, const double *b, size_t n)
{
    return !memcmp(a, b, n * sizeof(double));
}

static void ensemble(int sweep_law)
{
    const char *name = sweep_law ? "friction law swept" : "oil and seal swept";
    long n = NI, i, K, maxsteps = 0, solves = 0, ntime;
    int nmax = 0, nxmin = HS_MAX_X, nxmax = 0;
    hs_batch_out ref, ph;
    hs_model *ml = (hs_model *)calloc(1, sizeof *ml), *pm = (hs_model *)calloc((size_t)n, sizeof *pm);
    hs_state *s = (hs_state *)calloc(1, sizeof *s), *ps = (hs_state *)calloc((size_t)n, sizeof *ps);
    hs_work *w = (hs_work *)calloc(1, sizeof *w), *pw = (hs_work *)calloc((size_t)n, sizeof *pw);
    hs_gc_inst *pg = (hs_gc_inst *)calloc((size_t)n, sizeof *pg);
    int *sel = (int *)calloc((size_t)n, sizeof(int)), piv[HS_MAX_X];
    setup(sweep_law);
    ntime = hs_traj_count((long)floor(C.base.t_end / C.base.dt + 0.5), C.spec.traj_every);
    out_alloc(&ref, n, ntime);
    out_alloc(&ph, n, ntime);
    for (i = 0; i < n; ++i)
        hs_run_instance(&C.base, &C.ov, vals + NP * i, &C.spec, i, &ref, ml, s, w);
    /* the driver of hs_backend_gpu_cublas, one sub-batch, solves by hs_lu on the padded T */
    for (i = 0; i < n; ++i) gc_init_one(&C, vals, &ph, i, pm + i, ps + i, pw + i, pg + i);
    for (i = 0; i < n; ++i)
        if (!pg[i].done) {
            if (pg[i].nsteps > maxsteps) maxsteps = pg[i].nsteps;
            if (pg[i].nx > nmax) nmax = pg[i].nx;
            if (pg[i].nx < nxmin) nxmin = pg[i].nx;
            if (pg[i].nx > nxmax) nxmax = pg[i].nx;
        }
    for (K = 1; K <= maxsteps; ++K) {
        for (i = 0; i < n; ++i) gc_begin_one(&C, &ph, i, pm + i, ps + i, pw + i, pg + i);
        for (;;) {
            int m = 0, k;
            for (i = 0; i < n; ++i)
                if (gc_assemble_one(&C, &ph, i, pm + i, ps + i, pw + i, pg + i, nmax)) sel[m++] = (int)i;
            if (m == 0) break;
            for (k = 0; k < m; ++k) {
                hs_work *ww = pw + sel[k];
                int info = hs_lu_factor(ww->lu.T, nmax, HS_MAX_X, piv);
                if (!info) hs_lu_solve(ww->lu.T, nmax, HS_MAX_X, piv, ww->dx);
                gc_update_one(&C, &ph, sel[k], info, pm + sel[k], ps + sel[k], pw + sel[k], pg + sel[k]);
            }
            solves += m;
        }
    }
    printf("  %s: %ld steps, %ld Newton solves, nx %d..%d (padded to %d)\n", name, maxsteps, solves,
           nxmin, nxmax, nmax);
    if (sweep_law) CHECK(nxmin < nxmax, "%s: the batch mixes Newton sizes", name);
    for (i = 0; i < n; ++i) {
        CHECK(pg[i].done, "%s: instance %ld finished", name, i);
        CHECK(ph.status[i] == ref.status[i] && ph.steps[i] == ref.steps[i] &&
                  ph.iters_mean[i] == ref.iters_mean[i] && ph.iters_max[i] == ref.iters_max[i],
              "%s: instance %ld: status %d/%d, steps %ld/%ld, Newton %.6f/%.6f", name, i, ph.status[i],
              ref.status[i], ph.steps[i], ref.steps[i], ph.iters_mean[i], ref.iters_mean[i]);
        if (i != 5 && i != 9 && i != 10)
            CHECK(ref.status[i] == 0, "%s: instance %ld completes (status %d)", name, i, ref.status[i]);
    }
    CHECK(ref.status[5] == HS_ST_INVALID, "%s: the invalid instance is flagged", name);
    CHECK((ref.status[9] & HS_ST_MAXITER) && ref.steps[9] > 0, "%s: max_iter 1 fails later (status %d, %ld steps)",
          name, ref.status[9], ref.steps[9]);
    /* max_iter 0 breaks the rule max_iter >= 1 (kernels/hs_rules.h): flagged, never stepped */
    CHECK(ref.status[10] == HS_ST_INVALID && ref.steps[10] == 0, "%s: max_iter 0 is flagged invalid (status %d)",
          name, ref.status[10]);
    CHECK(same_bits(ph.stats, ref.stats, (size_t)n * C.spec.nsig * HS_NSTAT),
          "%s: statistics bit-identical to hs_run_instance", name);
    CHECK(same_bits(ph.traj, ref.traj, (size_t)n * C.spec.ntraj * (size_t)ntime),
          "%s: trajectories bit-identical to hs_run_instance", name);
    out_free(&ref);
    out_free(&ph);
    free(ml);
    free(pm);
    free(s);
    free(ps);
    free(w);
    free(pw);
    free(pg);
    free(sel);
}

int main(void)
{
    ensemble(0);
    ensemble(1);
    return tu_report("test_cublas_phases");
}
