/* backend_gpu_phases.cuh -- hs_step and hs_run_instance cut into the phases of the cuBLAS
 * GPU path (host/backend_gpu_cublas.cu), whose time loop runs on the host with the Newton
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
 * hs_step (kernels/hs_integrator.h) and hs_run_instance (kernels/hs_batch.h) are single
 * functions; gc_step_begin / gc_newton_assemble / gc_newton_apply / gc_step_finish and
 * gc_record / gc_finish re-state their lines verbatim, calling the same HS_HD pieces. A change
 * to either must be mirrored here: test_cublas_phases fails until it is. */
#ifndef HS_BACKEND_GPU_PHASES_CUH
#define HS_BACKEND_GPU_PHASES_CUH

#include "backend_gpu_util.cuh"

/* Per-instance runner state between kernels (what hs_run_instance keeps in locals). */
typedef struct hs_gc_inst {
    hs_acc acc[HS_MAX_OUT];
    double E0; /* initial energy, for E_balance */
    long nsteps; /* steps to t_end of this instance's model */
    long j; /* trajectory samples written */
    int done; /* outputs written: finished or failed */
    int newton; /* iterating the current step */
    int it; /* current Newton iteration (1-based) */
    int nx; /* unknowns (0 once done) */
} hs_gc_inst;

/* ---------------------------------------------------------------------------------------
 * hs_step in phases (verbatim from kernels/hs_integrator.h) */

/* Prologue: spools first (closed-form trapezoidal step), hat terms and predictors, the
 * multipliers to iterate. */
HS_HD static inline void gc_step_begin(const hs_model *m, hs_state *s, hs_work *w)
{
    int n = m->nz, nx = m->nx, i, e;
    double dt = m->dt, c1 = 2.0 / dt, c2 = 4.0 / (dt * dt);
    double t0 = (double)s->step * dt, t1 = (double)(s->step + 1) * dt;
    for (i = 0; i < m->ndcv; ++i)
        w->U1[i] = hs_spool_step(
            s->U[i], m->dcv_sig[i] >= 0 ? hs_signal_eval_side(m, m->dcv_sig[i], t0, 1) : 0.0,
            m->dcv_sig[i] >= 0 ? hs_signal_eval_side(m, m->dcv_sig[i], t1, -1) : 0.0, dt,
            m->dcv_tau[i]);
    for (i = 0; i < n; ++i) {
        w->hd[i] = -(c1 * s->z[i] + s->zd[i]);
        w->hdd[i] = -(c2 * s->z[i] + 2.0 * c1 * s->zd[i] + s->zdd[i]);
        w->x[i] = s->z[i] + dt * s->zd[i] + 0.5 * dt * dt * s->zdd[i];
    }
    for (i = n; i < nx; ++i) {
        int v = i - n;
        double xv = v < m->nvol ? s->p[v] : s->fs[v - m->nvol];
        double xr = v < m->nvol ? s->pd[v] : s->fsd[v - m->nvol];
        w->hx[i] = -(c1 * xv + xr);
        w->x[i] = xv + dt * xr;
    }
    for (e = 0; e < m->ncon; ++e) w->lam[e] = s->lambda[e];
}

/* First half of a Newton iteration: residual f0 (must be finite), Phi_z at the base point,
 * tangent into w->T, its z block into w->P, right-hand side -f0 into w->dx. */
HS_HD static inline int gc_newton_assemble(const hs_model *m, hs_state *s, hs_work *w)
{
    int n = m->nz, nx = m->nx, i, j;
    double t1 = (double)(s->step + 1) * m->dt;
    hs_residual(m, s, t1, w->x, w->lam, w, w->f0);
    for (i = 0; i < nx; ++i)
        if (!hs_isfinite(w->f0[i])) {
            s->status |= HS_ST_NONFINITE;
            return s->status;
        }
    for (i = 0; i < m->ncon * HS_MAX_Z; ++i) w->Jb[i] = w->J[i];
    hs_tangent(m, s, t1, w->x, w->lam, w->f0, w);
    for (i = 0; i < n; ++i)
        for (j = 0; j < n; ++j) w->P[i * HS_MAX_X + j] = w->T[i * HS_MAX_X + j];
    for (i = 0; i < nx; ++i) w->dx[i] = -w->f0[i];
    return 0;
}

/* Second half, after the solve left dx in w->dx: update, per-class convergence test,
 * multiplier update with the new positions (eq. 19). */
HS_HD static inline int gc_newton_apply(const hs_model *m, hs_state *s, hs_work *w, int it, int *conv)
{
    int n = m->nz, nx = m->nx, i, e;
    *conv = 1;
    for (i = 0; i < nx; ++i) {
        double tol = i < n ? m->tol_z : (i < n + m->nvol ? m->tol_p : m->tol_fs);
        w->x[i] += w->dx[i];
        if (!(fabs(w->dx[i]) <= tol)) *conv = 0;
        if (!hs_isfinite(w->dx[i])) {
            s->status |= HS_ST_NONFINITE;
            return s->status;
        }
    }
    hs_kin_positions(m, w->x, &w->kin);
    hs_constraints_phi(m, &w->kin, w->phi);
    for (e = 0; e < m->ncon; ++e) w->lam[e] += m->penalty * w->phi[e];
    s->iters = it;
    return 0;
}

/* Newton did not converge within max_iter: hs_step's verdict, with the singular-position
 * diagnosis at the last iterate's positions (w->kin). */
HS_HD static inline void gc_maxiter(const hs_model *m, hs_state *s, hs_work *w)
{
    s->status |= HS_ST_MAXITER;
    if (hs_loop_singular(m, w)) s->status |= HS_ST_SINGULAR_CONFIG;
}

/* Epilogue of a converged step: projections (eqs. 20-21 / 27-28), checks, accept, energies,
 * the right-limit rates after a load jump. Returns s->status (0: accepted). */
HS_HD static inline int gc_step_finish(const hs_model *m, hs_state *s, hs_work *w)
{
    int n = m->nz, nx = m->nx, i, j, e;
    double dt = m->dt, c1 = 2.0 / dt, c2 = 4.0 / (dt * dt), sa = 0.25 * dt * dt * m->penalty;
    double t1 = (double)(s->step + 1) * dt;
    for (i = 0; i < n; ++i)
        for (j = 0; j < n; ++j) {
            double q = 0.0;
            for (e = 0; e < m->ncon; ++e) q += w->Jb[e * HS_MAX_Z + i] * w->Jb[e * HS_MAX_Z + j];
            w->P[i * HS_MAX_X + j] -= sa * q;
        }
    hs_constraints_jac(m, &w->kin, w->J, HS_MAX_Z);
    for (i = 0; i < n; ++i) {
        w->zd[i] = c1 * w->x[i] + w->hd[i];
        w->zdd[i] = c2 * w->x[i] + w->hdd[i];
    }
    if (m->ncon > 0) {
        if (hs_projection_matrix(m, w)) {
            s->status |= HS_ST_SINGULAR;
            return s->status;
        }
        hs_project(m, w, w->zd, NULL);
        hs_kin_velocities(m, w->zd, &w->kin);
        hs_constraints_vprod(m, &w->kin, w->vp);
        hs_project(m, w, w->zdd, w->vp);
    } else {
        hs_kin_velocities(m, w->zd, &w->kin);
    }
    for (i = 0; i < n; ++i)
        if (!hs_isfinite(w->zd[i]) || !hs_isfinite(w->zdd[i])) {
            s->status |= HS_ST_NONFINITE;
            return s->status;
        }
    for (e = 0; e < m->ncon; ++e)
        if (fabs(w->phi[e]) > HS_PHI_BLOWUP) {
            s->status |= HS_ST_CONSTRAINT;
            return s->status;
        }
    if (m->ncyl > 0 || m->nvol > 0) {
        hs_hydraulics(m, &w->kin, w->x + n, w->x + n + m->nvol, w->U1, s->s0, &w->hyd);
        if (w->hyd.stroke_out) {
            s->status |= HS_ST_STROKE;
            return s->status;
        }
    }
    for (i = 0; i < n; ++i) {
        s->z[i] = w->x[i];
        s->zd[i] = w->zd[i];
        s->zdd[i] = w->zdd[i];
    }
    for (i = n; i < nx; ++i) {
        int v = i - n;
        double rate = c1 * w->x[i] + w->hx[i];
        if (v < m->nvol) {
            s->p[v] = w->x[i];
            s->pd[v] = rate;
        } else {
            s->fs[v - m->nvol] = w->x[i];
            s->fsd[v - m->nvol] = rate;
        }
    }
    for (i = 0; i < m->ndcv; ++i) s->U[i] = w->U1[i];
    for (e = 0; e < m->ncon; ++e) s->lambda[e] = w->lam[e];
    {
        double P1 = hs_external_power(m, &w->kin, t1, -1), Pc[HS_MAX_CYLS];
        int c;
        s->W_ext += 0.5 * dt * (s->P_ext + P1);
        s->P_ext = P1;
        hs_cylinder_power(m, w, Pc);
        for (c = 0; c < m->ncyl; ++c) {
            s->W_cyl[c] += 0.5 * dt * (s->P_cyl[c] + Pc[c]);
            s->P_cyl[c] = Pc[c];
        }
    }
    s->step += 1;
    s->t = t1;
    s->iters_total += s->iters;
    if (s->iters > s->iters_max) s->iters_max = s->iters;
    if (hs_loads_jump(m, t1)) return hs_consistent_rates(m, s, w, t1);
    return 0;
}

/* ---------------------------------------------------------------------------------------
 * hs_run_instance in phases (verbatim from kernels/hs_batch.h) */

/* Observe the accepted state (step k = s->step) and add it to the statistics and trajectory. */
HS_HD static inline void gc_record(const hs_output_spec *spec, const hs_model *m, const hs_state *s,
                                 hs_work *w, hs_gc_inst *g, long i, hs_batch_out *out)
{
    hs_obs o;
    long k = s->step, n = out->n;
    int q;
    hs_observe(m, s, w, &o);
    if (k == 0) g->E0 = o.Ekin + o.Epot - s->W_ext - o.W_cyl;
    for (q = 0; q < spec->nsig; ++q)
        hs_acc_add(&g->acc[q], hs_signal_value(m, s, &o, g->E0, spec->sig[q]), s->t);
    if (out->traj && spec->traj_every > 0 && (k % spec->traj_every == 0 || k == g->nsteps) &&
        g->j < out->ntime) {
        for (q = 0; q < spec->ntraj; ++q)
            out->traj[((long)q * out->ntime + g->j) * n + i] =
                hs_signal_value(m, s, &o, g->E0, spec->traj[q]);
        ++g->j;
    }
}

/* Outputs of instance slot i with final status st; the instance is frozen. */
HS_HD static inline void gc_finish(const hs_output_spec *spec, hs_gc_inst *g, const hs_state *s,
                                 int st, long i, hs_batch_out *out)
{
    long n = out->n, j;
    int q;
    if (out->traj)
        for (j = g->j; j < out->ntime; ++j)
            for (q = 0; q < spec->ntraj; ++q) out->traj[((long)q * out->ntime + j) * n + i] = NAN;
    out->status[i] = st;
    out->steps[i] = s->step;
    out->iters_mean[i] = s->step > 0 ? (double)s->iters_total / (double)s->step : 0.0;
    out->iters_max[i] = s->iters_max;
    for (q = 0; q < spec->nsig; ++q) {
        double *S = out->stats + (long)q * HS_NSTAT * n + i;
        const hs_acc *a = &g->acc[q];
        double cnt = a->n > 0 ? (double)a->n : NAN;
        S[HS_STAT_MIN * n] = a->n ? a->min : NAN;
        S[HS_STAT_MAX * n] = a->n ? a->max : NAN;
        S[HS_STAT_FINAL * n] = a->n ? a->last : NAN;
        S[HS_STAT_MEAN * n] = a->sum / cnt;
        S[HS_STAT_RMS * n] = sqrt(a->sumsq / cnt);
        S[HS_STAT_TMAX * n] = a->n ? a->tmax : NAN;
    }
    g->done = 1;
    g->newton = 0;
    g->nx = 0;
}

/* ---------------------------------------------------------------------------------------
 * per-instance phases (HS_HD: the kernels below call them for one instance each; a host loop
 * over them with LAPACK in place of cuBLAS checks the phase logic without a GPU) */

/* Local model, initial state, the record of step 0; instances that end here (invalid
 * values, failed initialisation, t_end reached at 0 steps) are finished. */
HS_HD static inline void gc_init_one(const hs_gpu_const *c, const double *values, hs_batch_out *out, long i,
                              hs_model *m, hs_state *s, hs_work *w, hs_gc_inst *g)
{
    int q, st;
    for (q = 0; q < c->spec.nsig; ++q) {
        g->acc[q].n = 0;
        g->acc[q].sum = g->acc[q].sumsq = g->acc[q].min = g->acc[q].max = g->acc[q].last =
            g->acc[q].tmax = 0.0;
    }
    g->E0 = 0.0;
    g->j = 0;
    g->done = g->newton = g->it = 0;
    g->nsteps = 0;
    g->nx = 0;
    if (!hs_instance_model(&c->base, &c->ov, values + i * c->ov.n, m)) {
        s->step = 0;
        s->iters_total = 0;
        s->iters_max = 0;
        gc_finish(&c->spec, g, s, HS_ST_INVALID, i, out);
        return;
    }
    {
        double r = m->t_end / m->dt;
        long nsteps = (long)floor(r + 0.5);
        if (fabs(r - (double)nsteps) > 1e-9 * (r > 1.0 ? r : 1.0) && (double)nsteps < r) ++nsteps;
        g->nsteps = nsteps;
    }
    st = hs_init(m, s, w);
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
        for (k = (r < nx ? nx : 0); k < nmax; ++k) w->T[r * HS_MAX_X + k] = (r == k) ? 1.0 : 0.0;
    for (r = nx; r < nmax; ++r) w->dx[r] = 0.0;
    return 1;
}

/* After the solve (info: the factorisation's, 0 = regular): apply the update; finish the
 * step of a converged instance (record, or freeze on failure); flag the iteration limit. */
HS_HD static inline void gc_update_one(const hs_gpu_const *c, hs_batch_out *out, long i, int info,
                                const hs_model *m, hs_state *s, hs_work *w, hs_gc_inst *g)
{
    int conv = 0, st;
    if (info != 0) { /* an exactly zero pivot (LAPACK's info > 0) */
        s->status |= HS_ST_SINGULAR;
        gc_finish(&c->spec, g, s, s->status, i, out);
        return;
    }
    if ((st = gc_newton_apply(m, s, w, g->it, &conv))) {
        gc_finish(&c->spec, g, s, st, i, out);
        return;
    }
    if (conv) {
        g->newton = 0;
        if ((st = gc_step_finish(m, s, w))) {
            gc_finish(&c->spec, g, s, st, i, out);
            return;
        }
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
