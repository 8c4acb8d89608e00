/* backend_gpu_phases.cuh -- hs_step and hs_run_instance cut into the phases of the cuBLAS
 * GPU path (host/gpu/backend_gpu_cublas.cu), whose time loop runs on the host with the Newton
 * systems of all instances solved between two kernels:
 *   gc_init_one      local model, hs_init, record of step 0
 *   gc_begin_one     hs_step's prologue (spools, hat terms, predictor)
 *   gc_assemble_one  residual, tangent, right-hand side, padded to the batch's largest nx
 *   (solve)          T dx = -f0 by whoever holds the matrices (cuBLAS on the device)
 *   gc_update_one    Newton update and convergence test; a converged step is finished
 *                    (projections, accept), observed and recorded; failures are frozen
 * Each phase function is HS_HD and handles one instance, so tests/test_cublas_phases.cu runs
 * the same phases on the host and checks them bit for bit against hs_run_instance.
 *
 * hs_step and hs_run_instance are themselves compositions of these shared phases, so the two
 * paths cannot drift apart. */
#ifndef HS_BACKEND_GPU_PHASES_CUH
#define HS_BACKEND_GPU_PHASES_CUH

#include "gpu/backend_gpu_util.cuh"

/* The phases themselves are the shared ones of kernels/hs_trapezoid.h (hs_step_begin,
 * hs_step_finish), kernels/hs_newton.h (hs_newton_assemble, hs_newton_apply, hs_newton_fail)
 * and kernels/hs_batch.h
 * (hs_instance_begin, hs_instance_record, hs_instance_end, hs_inst_run). */
typedef hs_inst_run hs_gc_inst;
#define gc_step_begin hs_step_begin
#define gc_newton_assemble hs_newton_assemble
#define gc_newton_apply hs_newton_apply
#define gc_maxiter hs_newton_fail
#define gc_step_finish hs_step_finish
#define gc_record hs_instance_record
#define gc_finish(spec, g, s, st, i, out) hs_instance_end(spec, g, s, st, 0L, i, out) /* fixed steps only: none rejected */

/* ---------------------------------------------------------------------------------------
 * per-instance phases (HS_HD: the kernels below call them for one instance each; a host loop
 * over them with LAPACK in place of cuBLAS checks the phase logic without a GPU) */

/* Local model, initial state, the record of step 0; instances that end here (invalid
 * values, failed initialisation, t_end reached at 0 steps) are finished. */
HS_HD static inline void gc_init_one(const hs_gpu_const *c, const double *values, hs_batch_out *out, long i,
                              hs_model *m, hs_state *s, hs_work *w, hs_gc_inst *g)
{
    int st;
    if (!hs_instance_model(&c->base, &c->ov, values + i * c->ov.n, m)) {
        hs_instance_begin(&c->spec, 0, 0, g);
        s->step = 0;
        s->iters_total = 0;
        s->iters_max = 0;
        s->warn = 0;
        gc_finish(&c->spec, g, s, HS_ST_INVALID, i, out);
        return;
    }
    hs_instance_begin(&c->spec, hs_instance_steps(m->t_end, m->dt), m->nx, g);
    g->nx = 0;
    st = hs_init(m, s, w);
    s->warn |= hs_model_plausible(m);
    if (st) {
        gc_finish(&c->spec, g, s, st, i, out);
        return;
    }
    gc_record(&c->spec, m, s, w, g, i, out);
    if (g->nsteps <= 0) {
        gc_finish(&c->spec, g, s, 0, i, out);
        return;
    }
    g->nx = m->nx;
}

/* Step prologue of a running instance. */
HS_HD static inline void gc_begin_one(const hs_gpu_const *c, hs_batch_out *out, long i, const hs_model *m,
                               hs_state *s, hs_work *w, hs_gc_inst *g)
{
    if (g->done) return;
    gc_step_begin(m, s, w);
    if (s->status) { /* a ball joint turned too far in one step (hs_ball_rechart) */
        gc_finish(&c->spec, g, s, s->status, i, out);
        return;
    }
    if ((int)m->max_iter < 1) { /* hs_step's Newton loop would not run: not converged */
        gc_maxiter(m, s, w);
        gc_finish(&c->spec, g, s, s->status, i, out);
        return;
    }
    g->it = 1;
    g->newton = 1;
}

/* Residual and tangent of an iterating instance, padded to nmax unknowns with an identity
 * block. Returns 1 if its system is to be solved. */
HS_HD static inline int gc_assemble_one(const hs_gpu_const *c, hs_batch_out *out, long i, const hs_model *m,
                                 hs_state *s, hs_work *w, hs_gc_inst *g, int nmax)
{
    int nx, r, k, st;
    if (g->done || !g->newton) return 0;
    st = gc_newton_assemble(m, s, w);
    if (st) {
        gc_finish(&c->spec, g, s, st, i, out);
        return 0;
    }
    nx = m->nx;
    for (r = 0; r < nmax; ++r)
        for (k = (r < nx ? nx : 0); k < nmax; ++k) w->lu.T[r * HS_MAX_X + k] = (r == k) ? 1.0 : 0.0;
    for (r = nx; r < nmax; ++r) w->dx[r] = 0.0;
    return 1;
}

/* After the solve (info: the factorisation's, 0 = regular): apply the update; finish the
 * step of a converged instance (record, or freeze on failure); flag the iteration limit. */
HS_HD static inline void gc_update_one(const hs_gpu_const *c, hs_batch_out *out, long i, int info,
                                const hs_model *m, hs_state *s, hs_work *w, hs_gc_inst *g)
{
    int conv = 0, st;
    double dn;
    if (info != 0) { /* an exactly zero pivot (LAPACK's info > 0) */
        s->status |= HS_ST_SINGULAR;
        gc_finish(&c->spec, g, s, s->status, i, out);
        return;
    }
    if ((st = gc_newton_apply(m, s, w, g->it, &conv, &dn))) {
        gc_finish(&c->spec, g, s, st, i, out);
        return;
    }
    if (conv) {
        g->newton = 0;
        if ((st = gc_step_finish(m, s, w))) {
            gc_finish(&c->spec, g, s, st, i, out);
            return;
        }
        if (!hs_step_done(w)) return; /* a sub-step to a knot: the next begin goes on */
        gc_record(&c->spec, m, s, w, g, i, out);
        if (s->step >= g->nsteps) gc_finish(&c->spec, g, s, 0, i, out);
        return;
    }
    if (g->it >= (int)m->max_iter) {
        gc_maxiter(m, s, w);
        gc_finish(&c->spec, g, s, s->status, i, out);
        return;
    }
    g->it += 1;
}

#endif
