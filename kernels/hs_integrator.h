/* hs_integrator.h -- one instance's time integration: implicit trapezoidal rule with the
 * positions as primary variables, index-3 penalty augmented Lagrangian with iterated
 * multipliers, Newton-Raphson on the scaled residual with a forward-difference tangent, and
 * mass-damping-stiffness-orthogonal projections of velocities and accelerations
 * (seed 000 eqs. 18-21 and 32-41; seed 004 Pub. I eqs. 15-28 and 43-45).
 *
 * Everything here is HS_HD: the CPU reference, the OpenMP batch and the CUDA kernel run this
 * code. No allocation: the caller owns hs_state (the per-instance data) and hs_work (scratch).
 * A step that fails (iteration limit, NaN/Inf, singular matrix, constraint blow-up) leaves
 * the state at the last good step and sets a status bit; the caller freezes the instance. */
#ifndef HS_INTEGRATOR_H
#define HS_INTEGRATOR_H

#include "hs_dynamics.h"
#include "hs_constraints.h"
#include "hs_hydraulics.h"

/* The dense LU used for the Newton, projection and acceleration systems. A translation unit
 * may define both before including this header to solve with another library (the reference
 * backend uses LAPACK's dgetrf/dgetrs: host/backend_reference.c). Same signatures as
 * hs_lu_factor / hs_lu_solve of hs_linalg.h. */
#ifndef HS_LU_FACTOR
#define HS_LU_FACTOR hs_lu_factor
#define HS_LU_SOLVE hs_lu_solve
/* Modified Newton's tangent, solved with at every iteration of many steps, is inverted once
 * (hs_lu_invert) and multiplied by: a product with the inverse has no dependency chain
 * through the unknowns, which a back substitution has (the seed 003 cycle with modified
 * Newton: 9.2 -> 8.6 ms on one core). (The projection matrix, solved with about five times
 * per step, gained nothing measurable.) A translation unit with another library's LU (the
 * reference backend: LAPACK) solves with its factors. */
#define HS_LU_INVERSE 1
#else
#define HS_LU_INVERSE 0
#endif

enum hs_status_bits {
    HS_ST_MAXITER = 1, /* Newton hit the iteration limit: the step is not accepted */
    HS_ST_NONFINITE = 2, /* NaN or Inf in the residual or the state */
    HS_ST_SINGULAR = 4, /* singular Newton or projection matrix */
    HS_ST_CONSTRAINT = 8, /* constraint violation above HS_PHI_BLOWUP */
    HS_ST_GEOMETRY = 16, /* the initial loop closure has no solution near z0 */
    HS_ST_STROKE = 32, /* a cylinder left its stroke (a chamber length <= 0) */
    HS_ST_EQUILIBRIUM = 64, /* the cylinders cannot hold the initial configuration statically */
    /* 128 is HS_ST_INVALID (hs_batch.h) */
    HS_ST_SINGULAR_CONFIG = 256, /* with MAXITER: the loop-closure Jacobian lost rank (a
                                   singular position, e.g. a parallelogram folding flat) */
    /* warnings: the instance ran on, its results stand, but one of its assumptions failed */
    HS_ST_CAVITATION = 512, /* a volume's pressure fell below fluid.p_vapour at some step: the
                               lumped liquid model does not hold there (hs_state.warn) */
    HS_ST_IMPLAUSIBLE = 1024, /* a parameter value outside its plausible range
                                (hs_model_plausible) */
    /* a failure again */
    HS_ST_STEPSIZE = 2048 /* adaptive steps: the error tolerance not met at the smallest step
                             allowed (integrator.h_min) */
};
#define HS_ST_WARNINGS (HS_ST_CAVITATION | HS_ST_IMPLAUSIBLE)

/* Constraint violation (max |Phi|, m or rad) beyond which an instance is flagged: the
 * penalty method keeps Phi near rounding level, so this only trips on a real failure. */
#define HS_PHI_BLOWUP 1e-3

typedef struct hs_state {
    double t; /* time reached: step * dt, t_end, or a signal knot inside a step (hs_step_span);
                 never accumulated, so switching times are exact */
    long step; /* steps of dt taken (the last one may end early at t_end) */
    double z[HS_CAP_Z]; /* relative coordinates (nz) */
    double zd[HS_CAP_Z]; /* velocities after projection (nz) */
    double zdd[HS_CAP_Z]; /* accelerations after projection (nz) */
    double lambda[HS_CAP_CON]; /* iterated multipliers (ncon) */
    double W_ext; /* work of the external loads since t = 0, J (trapezoidal) */
    double P_ext; /* their power at t, W */
    double p[HS_CAP_VOLS], pd[HS_CAP_VOLS]; /* pressures and their rates (nvol) */
    double fs[HS_CAP_FS], fsd[HS_CAP_FS]; /* friction states and rates (nfs) */
    double U[HS_CAP_DCV]; /* spool positions, V (ndcv) */
    double s0[HS_CAP_CYLS]; /* cylinder lengths at t = 0 (ncyl) */
    double W_cyl[HS_CAP_CYLS]; /* work of each cylinder on the mechanism since t = 0, J */
    double P_cyl[HS_CAP_CYLS]; /* its power F sdot at t, W */
    int status; /* enum hs_status_bits, 0 = fine (failures: the instance stops) */
    int warn; /* warning bits (HS_ST_WARNINGS): the instance goes on */
    int iters; /* Newton iterations of the last step (all its sub-steps) */
    int iters_max; /* largest per-step count so far */
    long iters_total; /* sum over all steps (and, with adaptive steps, their rejected attempts) */
    /* the double-step formulation's partition (hs_double_step.h; 0 with the penalty one), in 8 B:
     * the seed 003 four-bar's state then stays within the 256 B per thread that the specialised
     * GPU kernel keeps in shared memory (hs_spec_entry.h) */
    unsigned int ds_row; /* bit e set when constraint row e fixes the dependent coordinates */
    unsigned short ds_dep; /* bit i set when z_i is a dependent coordinate (HS_MAX_Z <= 16) */
    unsigned short ds_repart; /* partitions chosen again since t = 0 (saturates at 65535) */
} hs_state;
typedef char hs_check_ds_dep[HS_MAX_Z <= 16 ? 1 : -1];

/* The rates at the start of the last accepted step and its size: the history that the
 * predictor one Taylor degree higher (hs_step_prologue) and the adaptive local error estimate
 * (hs_local_error) need. */
typedef struct hs_hist {
    double h; /* the last accepted step, 0 after a (re)start: no rate history yet */
    double zdd[HS_CAP_Z], pd[HS_CAP_VOLS], fsd[HS_CAP_FS]; /* (nz), (nvol), (nfs) */
} hs_hist;

/* The step-size controller of an instance with adaptive steps (hs_step_adaptive): kept apart
 * from hs_state so that fixed-step runs carry none of it (the specialised GPU kernel keeps
 * every thread's hs_state in shared memory). */
typedef struct hs_ctrl {
    double h; /* the next step, s */
    double err_prev; /* the last accepted step's error norm (PI controller), 0 after a (re)start */
    long rejected; /* attempts rejected: error above tolerance or Newton failure */
    hs_hist hist; /* rates at the start of the last accepted step */
    double Ud_m[HS_CAP_DCV]; /* and the spools' (ndcv): for the local error estimate */
} hs_ctrl;

/* Fixed steps with the extrapolated predictor (integrator.predictor; by default with modified
 * Newton) predict one Taylor degree higher too (hs_step), which needs the rate history in
 * hs_work; a specialised build with the seeds' predictor leaves it out, which keeps its GPU
 * frame 56 B smaller for the seed 003 four-bar. (An enumerator cannot be compared in #if:
 * hence the numbers, checked below.) */
#if !defined(HS_SPEC) || HS_SPEC_N_predictor == 1 || (HS_SPEC_N_predictor == 2 && HS_SPEC_N_newton == 1)
#define HS_WORK_HIST 1
#else
#define HS_WORK_HIST 0
#endif
typedef char hs_check_newton_modified[HS_NEWTON_MODIFIED == 1 && HS_NEWTON_AUTO == 2 ? 1 : -1];
typedef char hs_check_predictor[HS_PRED_EXTRAPOLATED == 1 && HS_PRED_AUTO == 2 ? 1 : -1];

/* hs_work keeps each body's Mbar Zdot - Qbar of the last residual, so that a tangent column
 * recomputes only the bodies its coordinate moves (hs_residual_sub), where a thread's frame
 * is not the limit: on a CPU. A GPU thread recomputes every body: 144 B less of local memory
 * per thread for the seed 003 four-bar, whose specialised kernel stays within 2 KiB. The
 * values are the same either way, to the bit. */
#if defined(__CUDACC__)
#define HS_WORK_FB 0
#else
#define HS_WORK_FB 1
#endif

typedef struct hs_work {
    hs_kin kin;
#if HS_TRIG_CACHE
    hs_trig trig; /* cos and sin of the joints' last coordinates (hs_kin_cos_sin) */
#endif
#if HS_WORK_FB
    hs_real fb[HS_CAP_BODIES][6]; /* each body's Mbar Zdot - Qbar at the last residual
                                     (hs_inverse_dynamics_side) (nbody x 6) */
#endif
    double phi[HS_CAP_CON]; /* (ncon) */
    double J[HS_CAP_CON * HS_CAP_Z]; /* Phi_z (ncon x nz, ld HS_CAP_Z) */
#define HS_CAP_G (HS_CAP_CON + HS_CAP_CYLS)
    union {
        double T[HS_CAP_X * HS_CAP_X]; /* tangent, then its LU (nx x nx, ld HS_CAP_X) */
        double G[HS_CAP_G * HS_CAP_G]; /* small Gram / normal matrices of the initialisation
                                          and of the failure diagnosis: no tangent is kept
                                          across either */
    } lu;
    double P[HS_CAP_Z * HS_CAP_Z]; /* projection weight P = M + dt/2 C + dt^2/4 K (eq. 43) of
                                      the last tangent (nz x nz, ld HS_CAP_Z) */
    double L[HS_CAP_Z * HS_CAP_Z]; /* projection / acceleration matrix, then its LU */
    hs_hyd hyd; /* hydraulic quantities of the last evaluated state */
    double U1[HS_CAP_DCV]; /* spool positions at the end of the step (ndcv) */
    double js[HS_CAP_CYLS][HS_CAP_Z]; /* ds_c/dz of the cylinders (ncyl x nz) */
    double rm[HS_CAP_Z]; /* z rows before the cylinder forces: M zdd + Phi_z^T (alpha Phi +
                            lam) - Q (nz) */
    int piv[HS_CAP_X], pivL[HS_CAP_Z];
    int tan_ok; /* T holds the LU of a tangent that may be reused (modified Newton) */
    int kin_x; /* kin holds the positions of x (hs_newton_apply made them): the next
                  hs_residual starts from them instead of computing them again */
    double tan_h; /* the step size that tangent was formed for */
    double alpha; /* the penalty factor of this instance (hs_penalty); with adaptive steps
                     that of the current step (hs_step_span_adaptive) */
    double alpha_m; /* penalty_ratio times the largest mass-matrix diagonal entry at the
                       start (hs_penalty): alpha h^2/4 is kept at least this */
    double h, t0, t1, tg; /* the (sub-)step being taken: from t0 to t1, h = t1 - t0; tg the end
                             of its step of dt (hs_step_span) */
    int it_step; /* Newton iterations of the finished sub-steps of the current step */
#define HS_CAP_XC (HS_CAP_X > HS_CAP_CON ? HS_CAP_X : HS_CAP_CON)
    union { /* f0 in the Newton iteration, y after it (projections) and in the initialisation */
        double f0[HS_CAP_X]; /* residual (nx) */
        double y[HS_CAP_G]; /* multipliers of a projection (ncon), of the initialisation
                               (ncon + ncyl) */
    };
    union { /* f1 in the Newton iteration and the projections, r in the initialisation */
        double f1[HS_CAP_X]; /* a residual of the tangent (nx), P v* in a projection (nz) */
        double r[HS_CAP_XC]; /* right-hand sides of the initialisation: Phi_z zdot (ncon), the
                                generalised force (nz) */
    };
    double x[HS_CAP_X], dx[HS_CAP_X]; /* Newton iterate, update */
    double zd[HS_CAP_Z], zdd[HS_CAP_Z]; /* velocities/accelerations of the iterate */
    double lam[HS_CAP_CON]; /* multipliers being iterated */
#if HS_WORK_HIST
    hs_hist hist; /* fixed steps with modified Newton: the predictor's rate history (hs_step) */
#endif
} hs_work;

#if HS_TRIG_CACHE
#define HS_WORK_TRIG(w) (&(w)->trig)
#else
#define HS_WORK_TRIG(w) ((hs_trig *)NULL)
#endif

/* Observables of a state (for output): energies, constraint violation, cylinders. */
typedef struct hs_obs {
    double Ekin, Epot; /* J */
    double phi_norm; /* ||Phi||_2, m or rad */
    double phid_norm; /* ||Phi_z zdot||_2 */
    double W_cyl; /* sum of the cylinders' work, J */
    double s[HS_CAP_CYLS], sd[HS_CAP_CYLS], F[HS_CAP_CYLS], Ffric[HS_CAP_CYLS]; /* (ncyl) */
} hs_obs;

HS_HD static inline int hs_isfinite(double v)
{
    return v == v && v - v == 0.0;
}

/* The hat terms of the trapezoidal rule (seed 000 eq. 34) from the state s at the start of the
 * step, c1 = 2/h, c2 = 4/h^2: zdot = c1 z + hat_d, zddot = c2 z + hat_dd, xdot = c1 x + hat_x
 * for the pressures and friction states (x index i >= nz). Computed where needed, not kept:
 * a few flops against 144 B more per GPU thread. */
HS_HD static inline double hs_hat_d(const hs_state *s, double c1, int i)
{
    return -(c1 * s->z[i] + s->zd[i]);
}

HS_HD static inline double hs_hat_dd(const hs_state *s, double c1, double c2, int i)
{
    return -(c2 * s->z[i] + 2.0 * c1 * s->zd[i] + s->zdd[i]);
}

HS_HD static inline double hs_hat_x(const hs_mview *m, const hs_state *s, double c1, int i)
{
    int v = i - HS_N(m, nz);
    double xv = v < HS_N(m, nvol) ? s->p[v] : s->fs[v - HS_N(m, nvol)];
    double xr = v < HS_N(m, nvol) ? s->pd[v] : s->fsd[v - HS_N(m, nvol)];
    return -(c1 * xv + xr);
}

/* The penalty factor alpha of the augmented Lagrangian (seed 000 eq. 18): integrator.penalty,
 * raised where needed so that alpha dt^2/4 is at least penalty_ratio times the largest
 * diagonal entry of the mass matrix (at the state in w->kin: the initial one). The multiplier
 * iteration then contracts by at least 1/(1 + penalty_ratio) per Newton iteration and the
 * penalty's error falls like dt^2 with the step: a fixed alpha leaves an error floor and slow
 * multipliers at small dt (validation/README.md; Pub. I four-bar over its 7 s cycle: second
 * order down to dt = 31 us with ratio 4, a floor and a failure at 31 us with alpha = 1e11).
 * penalty_ratio = 0: alpha as given. */
HS_HD static inline double hs_penalty(const hs_mview *m, hs_work *w)
{
    double a = HS_D(m, penalty), dmax = 0.0, dt = HS_D(m, dt), need;
    int i;
    hs_dyn_work dyn;
    double M[HS_CAP_Z * HS_CAP_Z], Q[HS_CAP_Z];
    w->alpha_m = 0.0;
    if (!(HS_D(m, penalty_ratio) > 0.0) || HS_N(m, ncon) == 0) return a;
    hs_mass_force(m, &w->kin, 0.0, M, HS_CAP_Z, Q, &dyn);
    for (i = 0; i < HS_N(m, nz); ++i)
        if (M[i * HS_CAP_Z + i] > dmax) dmax = M[i * HS_CAP_Z + i];
    w->alpha_m = HS_D(m, penalty_ratio) * dmax;
    need = w->alpha_m / (0.25 * dt * dt);
    return need > a ? need : a;
}

/* The kinematics and the hydraulics at positions z, velocities zd, pressures p, friction
 * states fs and spools U into w: the positions of the bodies in pmask and the velocities of
 * those in vmask (the rest as w holds them), the hydraulics and every cylinder's ds/dz if
 * hyd. */
HS_HD static inline void hs_evaluate_kin_hyd(const hs_mview *m, const hs_state *s, const double *z,
                                             const double *zd, const double *p, const double *fs,
                                             const double *U, hs_work *w, unsigned int pmask,
                                             unsigned int vmask, int hyd)
{
    int c;
    hs_kin_positions_tc(m, z, &w->kin, pmask, HS_WORK_TRIG(w));
    hs_kin_velocities_sub(m, zd, &w->kin, vmask);
    if (hyd && (HS_N(m, ncyl) > 0 || HS_N(m, nvol) > 0)) {
        hs_hydraulics(m, &w->kin, p, fs, U, s->s0, &w->hyd);
        HS_UNROLL
        for (c = 0; c < HS_N(m, ncyl); ++c) hs_cylinder_jac(m, &w->kin, &w->hyd, c, w->js[c]);
    }
}

/* The mechanism and the hydraulics at positions z, velocities zd, pressures p, friction
 * states fs and spools U, at time t (inputs' left limits if side < 0, right limits
 * otherwise): kinematics, hydraulics and every cylinder's ds/dz into w (hs_evaluate_kin_hyd);
 * M (nz x nz, ld HS_CAP_Z) and Q (nz, without the cylinders) into the caller's arrays (locals
 * of the phase that uses them: not kept in hs_work). The cylinders' generalised forces are
 * F_c ds_c/dz (virtual work: F_c e . (dr_b - dr_a) = F_c ds_c), added by whoever needs the
 * whole Q (hs_residual_rows, hs_q_total). */
HS_HD static inline void hs_evaluate(const hs_mview *m, const hs_state *s, double t, int side, const double *z,
                                     const double *zd, const double *p, const double *fs, const double *U,
                                     hs_work *w, double *M, double *Q)
{
    hs_dyn_work dyn; /* only here: the composite bodies of the backward accumulation */
    hs_evaluate_kin_hyd(m, s, z, zd, p, fs, U, w, ~0u, ~0u, 1);
    hs_mass_force_side(m, &w->kin, t, side, M, HS_CAP_Z, Q, &dyn);
}

/* The whole generalised force: Q0 of hs_evaluate plus the cylinders' F_c ds_c/dz (nz). */
HS_HD static inline void hs_q_total(const hs_mview *m, const hs_work *w, const double *Q0, double *Q)
{
    int i, c;
    HS_UNROLL
    for (i = 0; i < HS_N(m, nz); ++i) {
        double q = Q0[i];
        HS_UNROLL
        for (c = 0; c < HS_N(m, ncyl); ++c) q += w->hyd.F[c] * w->js[c][i];
        Q[i] = q;
    }
}

/* The rows of the residual from the z rows' mechanical part w->rm, the cylinder forces and
 * the hydraulic rates in w->hyd (hs_residual, hs_residual_hyd). */
HS_HD static inline void hs_residual_rows(const hs_mview *m, const hs_state *s, const double *x, hs_work *w,
                                          double *f)
{
    int n = HS_N(m, nz), nx = HS_N(m, nx), i, c;
    double h = w->h, c1 = 2.0 / h, sc = 0.25 * h * h;
    HS_UNROLL
    for (i = 0; i < n; ++i) {
        double r = w->rm[i];
        HS_UNROLL
        for (c = 0; c < HS_N(m, ncyl); ++c) r -= w->hyd.F[c] * w->js[c][i];
        f[i] = sc * r;
    }
    HS_UNROLL
    for (i = n; i < nx; ++i) {
        int v = i - n;
        double rate = v < HS_N(m, nvol) ? w->hyd.h[v] : w->hyd.fsd[v - HS_N(m, nvol)];
        if (v < HS_N(m, nvol) && HS_I(m, vol_model, v) == HS_VOL_SP)
            f[i] = sc * c1 * (x[i] - rate); /* algebraic: p = the quasi-static pressure (Pub. II
                                               eq. 33), scaled as the c1 p term of a lumped row */
        else
            f[i] = sc * (c1 * x[i] + hs_hat_x(m, s, c1, i) - rate);
    }
}

/* The nonholonomic rows' values (seed 001 eq. 11), B zdot with Phi_z's rows B in J (ld
 * HS_CAP_Z), scaled by h/2 into phi: the trapezoidal rule's zdot = 2/h z + ... makes h/2 B zdot
 * a position-like increment, which the penalty alpha and the multiplier update weigh as they
 * weigh the holonomic rows (the index-3 augmented Lagrangian, seed 000 eqs. 32-35, with
 * velocity constraints in its index-2 penalty form). */
HS_HD static inline void hs_phi_nh(const hs_mview *m, const double *J, const double *zd, double h, double *phi)
{
    int e, i;
    if (HS_N(m, nnh) == 0) return;
    HS_UNROLL
    for (e = 0; e < HS_N(m, ncon); ++e)
        if (HS_I(m, con_type, e) == HS_CON_NH) {
            double q = 0.0;
            HS_UNROLL
            for (i = 0; i < HS_N(m, nz); ++i) q += J[e * HS_CAP_Z + i] * zd[i];
            phi[e] = 0.5 * h * q;
        }
}

/* Scaled residual of the monolithic system (seed 004 Pub. I eq. 41; seed 000 eq. 39) at the
 * iterate x = [z, p, fs] with multipliers lam:
 *   z rows:  dt^2/4 (M zdd + Phi_z^T (alpha Phi + lam) - Q(z, zd, p, fs))
 *   p rows:  dt^2/4 (pdot - h(p, z, zd))        fs rows: dt^2/4 (fsdot - g(fs, sdot))
 * with zd, zdd, pdot and fsdot from the trapezoidal rule (eqs. 33-34, 38). The spool
 * positions w->U1 are those of the end of the step. Leaves the state's kinematics,
 * Phi, Phi_z, hydraulics and the z rows' mechanical part in w. The positions are those
 * hs_newton_apply left when it flagged them (w->kin_x: x is then its iterate, unchanged),
 * which saves one kinematic pass per Newton iteration after the first.
 * M zdd - Q comes from the inverse dynamics (hs_inverse_dynamics_side), without forming M.
 * hs_residual_sub recomputes the positions of the bodies in pmask, the velocities of those in
 * vmask, the dynamics of both and the hydraulics if hyd, and takes the rest from w
 * (hs_tangent's columns). */
HS_HD HS_NOINLINE static inline void hs_residual_sub(const hs_mview *m, const hs_state *s, double t,
                                                     const double *x, const double *lam, hs_work *w, double *f,
                                                     unsigned int pmask, unsigned int vmask, int hyd)
{
    int n = HS_N(m, nz), i, e;
    double h = w->h, c1 = 2.0 / h, c2 = 4.0 / (h * h), a = w->alpha, tau[HS_CAP_Z];
    HS_UNROLL
    for (i = 0; i < n; ++i) {
        w->zd[i] = c1 * x[i] + hs_hat_d(s, c1, i);
        w->zdd[i] = c2 * x[i] + hs_hat_dd(s, c1, c2, i);
    }
    hs_evaluate_kin_hyd(m, s, x, w->zd, x + n, x + n + HS_N(m, nvol), w->U1, w, pmask, vmask, hyd);
    /* M zdd - Q at the end of the step (the inputs' left limits), of the bodies whose
       positions or velocities changed (the rest as the last call left them in w->fb) */
#if HS_WORK_FB
    hs_inverse_dynamics_side(m, &w->kin, t, -1, w->zdd, pmask | vmask, w->fb, tau);
#else
    {
        hs_real fb[HS_CAP_BODIES][6];
        hs_inverse_dynamics_side(m, &w->kin, t, -1, w->zdd, ~0u, fb, tau);
    }
#endif
    hs_constraints_phi(m, &w->kin, w->phi);
    hs_constraints_jac(m, &w->kin, w->J, HS_CAP_Z);
    hs_phi_nh(m, w->J, w->zd, h, w->phi);
    HS_UNROLL
    for (i = 0; i < n; ++i) {
        double r = tau[i];
        HS_UNROLL
        for (e = 0; e < HS_N(m, ncon); ++e) r += w->J[e * HS_CAP_Z + i] * (a * w->phi[e] + lam[e]);
        w->rm[i] = r;
    }
    hs_residual_rows(m, s, x, w, f);
}

HS_HD static inline void hs_residual(const hs_mview *m, const hs_state *s, double t, const double *x,
                                     const double *lam, hs_work *w, double *f)
{
    unsigned int pmask = w->kin_x ? 0u : ~0u;
    w->kin_x = 0;
    hs_residual_sub(m, s, t, x, lam, w, f, pmask, ~0u, 1);
}

/* The residual at x whose coordinates z (x[0..nz)) are those of the last hs_residual call,
 * only the hydraulic unknowns p, fs changed: the kinematics, the cylinder geometry and the
 * z rows' mechanical part that call left in w are reused, only the hydraulic rates and the
 * cylinder forces re-evaluated (hs_hydraulic_rates_f; a friction force of the rod velocity
 * alone kept), the same operations on the same values as hs_residual(x) performs for them:
 * equal to the bit. */
HS_HD static inline void hs_residual_hyd(const hs_mview *m, const hs_state *s, const double *x, hs_work *w,
                                         double *f)
{
    int n = HS_N(m, nz);
    hs_hydraulic_rates_f(m, x + n, x + n + HS_N(m, nvol), w->U1, &w->hyd, 1);
    hs_residual_rows(m, s, x, w, f);
}

/* The point x0 + eps of a forward difference (eqs. 40-41): eps = fd_rel max(fd_floor, |x0|);
 * the caller divides by the representable difference (x0 + eps) - x0. */
HS_HD static inline double hs_fd_point(const hs_mview *m, double x0)
{
    double ax = fabs(x0);
    return x0 + HS_D(m, fd_rel) * (ax > HS_D(m, fd_floor) ? ax : HS_D(m, fd_floor));
}

/* Forward-difference tangent of the residual at x (eqs. 40-41), given f0 = f(x) just computed
 * by hs_residual (its kinematics still in w). Column i uses the increment
 * fd_rel * max(fd_floor, |x_i|), taken as the representable difference (x_i + eps) - x_i;
 * x_i is perturbed in place and restored. The hydraulic columns (p, fs) come first, through
 * hs_residual_hyd on f0's kinematics. The coordinate columns follow, from the last to the
 * first (leaves before their ancestors): column z_i recomputes the kinematics of joint i's
 * subtree and of the bodies an earlier column left perturbed (for a chain, none: each subtree
 * holds the previous one), and the hydraulics only when a cylinder's body is among them or an
 * earlier column left them perturbed; the rest are f0's values, so each column equals a full
 * hs_residual at its point to the bit (tests/test_integrator.c). */
HS_HD static inline void hs_tangent(const hs_mview *m, const hs_state *s, double t, double *x, const double *lam,
                                    const double *f0, hs_work *w)
{
    int n = HS_N(m, nx), nh = n - HS_N(m, nz), i, k, r, hyd_dirty = 0;
    unsigned int dirty = 0u;
#if HS_WORK_FB
    /* f0's hydraulics, put back after the hydraulic columns for the columns that keep them
     * (a GPU thread evaluates its rates again instead: a copy would take room in its frame) */
    hs_hyd f0h = w->hyd;
#endif
    HS_NOUNROLL
    for (k = 0; k < n; ++k) {
        int hyd = k < nh;
        double xi, x0, ie;
        i = hyd ? HS_N(m, nz) + k : n - 1 - k; /* p, fs first, then z from the last */
        if (k == nh && nh > 0) { /* f0's hydraulic rates again, for the columns that keep them */
#if HS_WORK_FB
            w->hyd = f0h;
#else
            hs_hydraulic_rates_f(m, x + HS_N(m, nz), x + HS_N(m, nz) + HS_N(m, nvol), w->U1, &w->hyd, 1);
#endif
        }
        x0 = x[i];
        xi = hs_fd_point(m, x0);
        ie = 1.0 / (xi - x0);
        x[i] = xi;
        if (hyd) {
            hs_residual_hyd(m, s, x, w, w->f1);
        } else {
            unsigned int sub = hs_subtree(m, i) | dirty;
            int c, hc = hyd_dirty;
            HS_UNROLL
            for (c = 0; c < HS_N(m, ncyl); ++c) {
                int ba = HS_I(m, cyl_body_a, c), bb = HS_I(m, cyl_body_b, c);
                if ((ba >= 0 && ((sub >> ba) & 1u)) || (bb >= 0 && ((sub >> bb) & 1u))) hc = 1;
            }
            w->kin_x = 0;
            hs_residual_sub(m, s, t, x, lam, w, w->f1, sub, sub, hc);
            dirty = sub;
            hyd_dirty = hc;
        }
        HS_UNROLL
        for (r = 0; r < n; ++r) w->lu.T[r * HS_CAP_X + i] = (w->f1[r] - f0[r]) * ie;
        x[i] = x0;
    }
}

#include "hs_double_step.h"

/* Is the model integrated by the double-step formulation (integrator.formulation)? */
HS_HD static inline int hs_double_step(const hs_mview *m)
{
    return HS_B(m, formulation) == HS_FORM_DOUBLE_STEP && HS_N(m, ncon) > 0;
}

/* The integration formula of an adaptive step (integrator.method): auto is esdirk4 unless the
 * double-step formulation integrates the model, which takes trapezoidal steps only. Fixed
 * steps (hs_step) are always the trapezoidal rule. */
HS_HD static inline int hs_method(const hs_mview *m)
{
    int k = HS_N(m, method);
    if (k == HS_METHOD_AUTO) k = hs_double_step(m) ? HS_METHOD_TRAPEZOIDAL : HS_METHOD_ESDIRK4;
    return k;
}

/* With adaptive steps and a reused tangent, the error a converged Newton iteration may leave, as
 * a fraction of the Newton tolerances (hs_newton_solve). */
#define HS_NEWTON_KAPPA 0.1

/* Does Newton reuse its factorised tangent (integrator.newton: modified; auto: with ESDIRK
 * steps)? An ESDIRK step's stages share one tangent anyway; reused across steps too it takes
 * about half the time at matched accuracy (bench/results/2026-11-27-precision-cpu-22d4ab9.md) and the
 * error control bounds what the slower contraction leaves. Fixed steps keep the seeds' full
 * Newton, and so do adaptive trapezoidal steps: their many steps make the iteration's error
 * floor (HS_NEWTON_KAPPA) show at tolerances below 1e-5. */
HS_HD static inline int hs_newton_reuse(const hs_mview *m)
{
    int n = HS_N(m, newton);
    return n == HS_NEWTON_MODIFIED ||
           (n == HS_NEWTON_AUTO && HS_N(m, step) == HS_STEP_ADAPTIVE && hs_method(m) != HS_METHOD_TRAPEZOIDAL);
}

/* Does a fixed step start from the extrapolated predictor (integrator.predictor)? */
HS_HD static inline int hs_pred_extrapolated(const hs_mview *m)
{
    int p = HS_N(m, predictor);
    return p == HS_PRED_EXTRAPOLATED || (p == HS_PRED_AUTO && hs_newton_reuse(m));
}

/* Factorises L = P + dt^2/4 alpha J^T J (nz x nz, ld HS_CAP_Z) into w->L. */
HS_HD static inline int hs_projection_matrix(const hs_mview *m, hs_work *w)
{
    int n = HS_N(m, nz), i, j, e;
    double sa = 0.25 * w->h * w->h * w->alpha;
    HS_UNROLL
    for (i = 0; i < n; ++i)
        HS_UNROLL
        for (j = 0; j < n; ++j) {
            double s = w->P[i * HS_CAP_Z + j];
            HS_UNROLL
            for (e = 0; e < HS_N(m, ncon); ++e) s += sa * w->J[e * HS_CAP_Z + i] * w->J[e * HS_CAP_Z + j];
            w->L[i * HS_CAP_Z + j] = s;
        }
    return HS_LU_FACTOR(w->L, n, HS_CAP_Z, w->pivL);
}

/* Mass-damping-stiffness-orthogonal projection (eqs. 20-21 / 27-28), in place on v (nz):
 *   (P + dt^2/4 alpha J^T J) v = P v* - dt^2/4 alpha J^T (c + sigma),
 * with c = 0 for velocities and c = Phidot_z zd for accelerations. One solve leaves a residual
 * J v + c of order |P| / (dt^2/4 alpha |J|^2) times the initial one (not small for
 * alpha = 1e9 at dt = 1 ms), so the multiplier sigma is iterated, sigma += J v + c, until
 * |J v + c| is at rounding level: the fixed point is the exact P-weighted projection. The
 * factorised matrix (w->L from hs_projection_matrix) is reused by every pass. */
HS_HD static inline void hs_project(const hs_mview *m, hs_work *w, double *v, const double *c)
{
    int n = HS_N(m, nz), nc = HS_N(m, ncon), i, j, e, it;
    double sa = 0.25 * w->h * w->h * w->alpha, vmax = 0.0;
    HS_UNROLL
    for (i = 0; i < n; ++i) {
        double q = 0.0;
        HS_UNROLL
        for (j = 0; j < n; ++j) q += w->P[i * HS_CAP_Z + j] * v[j];
        w->f1[i] = q; /* P v*, kept for every pass */
        if (fabs(v[i]) > vmax) vmax = fabs(v[i]);
    }
    HS_UNROLL
    for (e = 0; e < nc; ++e) w->y[e] = c ? c[e] : 0.0; /* c + sigma */
    for (it = 0; it < 30; ++it) {
        double rmax = 0.0;
        HS_UNROLL
        for (i = 0; i < n; ++i) {
            double q = w->f1[i];
            HS_UNROLL
            for (e = 0; e < nc; ++e) q -= sa * w->J[e * HS_CAP_Z + i] * w->y[e];
            v[i] = q;
        }
        HS_LU_SOLVE(w->L, n, HS_CAP_Z, w->pivL, v);
        HS_UNROLL
        for (e = 0; e < nc; ++e) {
            double q = c ? c[e] : 0.0;
            HS_UNROLL
            for (i = 0; i < n; ++i) q += w->J[e * HS_CAP_Z + i] * v[i];
            w->y[e] += q;
            if (fabs(q) > rmax) rmax = fabs(q);
        }
        if (rmax <= 1e-14 * (1.0 + vmax)) break;
    }
}

/* Is the loop-closure Jacobian at the positions in w->kin (nearly) rank deficient? The Gram
 * matrix J J^T (ncon x ncon) is factorised; a smallest-to-largest pivot ratio below 1e-4
 * (singular values ~1 % apart) marks the neighbourhood of a singular position, where the
 * cut-joint equations stop fixing the dependent coordinates and Newton stalls. Used only to
 * explain a failure. (Pub. I four-bar: 8e-2 at its start, -30 deg; 7.6e-5 at 1 deg from
 * folding flat, where its Newton iteration fails.) */
HS_HD static inline int hs_loop_singular(const hs_mview *m, hs_work *w)
{
    int nc = HS_N(m, ncon), a, b, i;
    double pmin = 1e300, pmax = 0.0;
    if (nc == 0) return 0;
    hs_constraints_jac(m, &w->kin, w->J, HS_CAP_Z);
    for (a = 0; a < nc; ++a)
        for (b = 0; b < nc; ++b) {
            double g = 0.0;
            for (i = 0; i < HS_N(m, nz); ++i) g += w->J[a * HS_CAP_Z + i] * w->J[b * HS_CAP_Z + i];
            w->lu.G[a * HS_CAP_G + b] = g;
        }
    if (hs_lu_factor(w->lu.G, nc, HS_CAP_G, w->piv)) return 1;
    for (a = 0; a < nc; ++a) {
        double d = 1.0 / fabs(w->lu.G[a * HS_CAP_G + a]); /* hs_lu_factor keeps 1/u_aa */
        if (d < pmin) pmin = d;
        if (d > pmax) pmax = d;
    }
    return pmin < 1e-4 * pmax;
}

/* The cavitation warning: a volume's absolute pressure below fluid.p_vapour. */
HS_HD static inline void hs_cavitation_check(const hs_mview *m, hs_state *s)
{
    int v;
    HS_UNROLL
    for (v = 0; v < HS_N(m, nvol); ++v)
        if (s->p[v] < HS_D(m, p_vapour)) s->warn |= HS_ST_CAVITATION;
}

/* Cylinder powers F sdot of the state in w->hyd (ncyl). */
HS_HD static inline void hs_cylinder_power(const hs_mview *m, const hs_work *w, double *P)
{
    int c;
    for (c = 0; c < HS_N(m, ncyl); ++c) P[c] = w->hyd.F[c] * w->hyd.sd[c];
}

/* Rates consistent with the state s at time t (inputs' right limits): accelerations and
 * multipliers from the acceleration-level augmented Lagrangian iteration
 *   (M + alpha J^T J) zdd = Q - J^T (lam + alpha c),  lam += alpha (J zdd + c),
 * (c = Phidot_z zd), which tolerates redundant constraints; pressure and friction-state
 * rates; cylinder and load powers. Used at t = 0 and after a load jumps on a step boundary.
 * Leaves w describing s (kinematics, Phi_z, hydraulics). Returns s->status. */
HS_HD HS_NOINLINE static inline int hs_consistent_rates(const hs_mview *m, hs_state *s, hs_work *w, double t)
{
    int n = HS_N(m, nz), nc = HS_N(m, ncon), i, j, e, it;
    double a = w->alpha, M[HS_CAP_Z * HS_CAP_Z], Q0[HS_CAP_Z], vp[HS_CAP_CON]; /* vp: Phidot_z zdot */
    hs_evaluate(m, s, t, 1, s->z, s->zd, s->p, s->fs, s->U, w, M, Q0);
    hs_q_total(m, w, Q0, w->r);
    for (i = 0; i < HS_N(m, nvol); ++i) s->pd[i] = HS_I(m, vol_model, i) == HS_VOL_SP ? 0.0 : w->hyd.h[i];
    for (i = 0; i < HS_N(m, nfs); ++i) s->fsd[i] = w->hyd.fsd[i];
    hs_cylinder_power(m, w, s->P_cyl);
    hs_constraints_jac(m, &w->kin, w->J, HS_CAP_Z);
    hs_constraints_vprod(m, &w->kin, vp);
    for (i = 0; i < n; ++i)
        for (j = 0; j < n; ++j) {
            double q = M[i * HS_CAP_Z + j];
            for (e = 0; e < nc; ++e) q += a * w->J[e * HS_CAP_Z + i] * w->J[e * HS_CAP_Z + j];
            w->L[i * HS_CAP_Z + j] = q;
        }
    if (HS_LU_FACTOR(w->L, n, HS_CAP_Z, w->pivL)) {
        s->status |= HS_ST_SINGULAR;
        return s->status;
    }
    for (it = 0; it < 100; ++it) {
        double rmax = 0.0, cmax = 0.0;
        for (i = 0; i < n; ++i) {
            double q = w->r[i];
            for (e = 0; e < nc; ++e) q -= w->J[e * HS_CAP_Z + i] * (s->lambda[e] + a * vp[e]);
            s->zdd[i] = q;
        }
        HS_LU_SOLVE(w->L, n, HS_CAP_Z, w->pivL, s->zdd);
        for (e = 0; e < nc; ++e) {
            double q = vp[e];
            for (i = 0; i < n; ++i) q += w->J[e * HS_CAP_Z + i] * s->zdd[i];
            s->lambda[e] += a * q;
            if (fabs(q) > rmax) rmax = fabs(q);
            if (fabs(vp[e]) > cmax) cmax = fabs(vp[e]);
        }
        if (rmax <= 1e-13 * (1.0 + cmax)) break;
    }
    for (i = 0; i < n; ++i)
        if (!hs_isfinite(s->z[i]) || !hs_isfinite(s->zd[i]) || !hs_isfinite(s->zdd[i])) {
            s->status |= HS_ST_NONFINITE;
            return s->status;
        }
    s->P_ext = hs_external_power(m, &w->kin, t, 1);
    return s->status;
}

/* hs_step in phases. The CUDA cuBLAS path (host/backend_gpu_cublas.cu) runs the same phases
 * with the Newton systems of all instances solved in one batched call between two kernels. */

/* The first signal knot strictly inside (t0, t1) (by more than sl), else t1. */
HS_HD static inline double hs_next_knot(const hs_mview *m, double t0, double t1, double sl)
{
    int k;
    for (k = 0; k < HS_N(m, nknot); ++k) {
        double tk = HS_D(m, knot_t)[k];
        if (tk > t0 + sl && tk < t1 - sl) t1 = tk;
    }
    return t1;
}

/* The next (sub-)step from s->t into w: its end t1 is the end tg of the current step of dt
 * ((step + 1) dt, or t_end for a last step that would pass it), or the first signal knot
 * before tg: a step never steps over a switch or a kink of an input, it is shortened to land
 * on it (the left limit at its end, the right limit at the next one's start: hs_signal.h),
 * which keeps the trapezoidal rule second order whatever dt. A whole step of dt keeps
 * h = dt exactly. Times within 1e-12 (relative) of tg count as tg. */
HS_HD static inline void hs_step_span(const hs_mview *m, const hs_state *s, hs_work *w)
{
    double dt = HS_D(m, dt), t0 = s->t, tg = (double)(s->step + 1) * dt, te = HS_D(m, t_end), t1, sl;
    sl = 1e-12 * (fabs(tg) > 1.0 ? fabs(tg) : 1.0);
    if (tg > te + sl) tg = te; /* the last step ends at t_end */
    t1 = hs_next_knot(m, t0, tg, sl);
    w->t0 = t0;
    w->t1 = t1;
    w->tg = tg;
    w->h = (t1 == tg && t0 == (double)s->step * dt && tg == (double)(s->step + 1) * dt) ? dt : t1 - t0;
    if (t0 == (double)s->step * dt) w->it_step = 0; /* a new step of dt begins */
}

/* The penalty of an adaptive (sub-)step whose trapezoidal form has the step hp (an ESDIRK
 * stage's: 2 gamma h): it follows the step as hs_penalty makes it follow dt, alpha hp^2/4 at
 * least HS_PENALTY_GAIN_ADAPTIVE penalty_ratio times the largest mass-matrix entry (a step far
 * below dt with the alpha of dt loses the loop closure: the Pub. I four-bar at its valve
 * closing did). The gain: the multiplier iteration contracts by about 1/(1 + that factor) per
 * Newton iteration, and a tight tolerance needs many contractions; on the Pub. I cycle at
 * rtol 1e-8 the gain 16 (the default ratio 4 -> 64) cut ESDIRK4's Newton iterations per step
 * from 26 to 13 and the trapezoidal rule's from 2.7 to 2.0, at the same errors. */
#define HS_PENALTY_GAIN_ADAPTIVE 16.0
HS_HD static inline void hs_penalty_adaptive(const hs_mview *m, hs_work *w, double hp)
{
    w->alpha = HS_PENALTY_GAIN_ADAPTIVE * w->alpha_m / (0.25 * hp * hp);
    if (w->alpha < HS_D(m, penalty)) w->alpha = HS_D(m, penalty);
}

/* The span of an adaptive step of the controller's size c->h (at most h_max) from s->t into
 * w, by the same rule as hs_step_span: it ends exactly on the next signal knot or on t_end
 * when either lies within 1.1 h (stretched a little rather than leaving a sliver), at the
 * midpoint when it lies within 2 h (two equal steps rather than a full and a tiny one),
 * else at s->t + h. Every adaptive step is a whole step (tg = t1). Sets the step's penalty. */
HS_HD static inline void hs_step_span_adaptive(const hs_mview *m, const hs_state *s, const hs_ctrl *c,
                                               hs_work *w)
{
    double t0 = s->t, te = HS_D(m, t_end), h = c->h, sl, tk, d, t1;
    if (h > HS_D(m, h_max)) h = HS_D(m, h_max);
    sl = 1e-12 * (fabs(te) > 1.0 ? fabs(te) : 1.0);
    tk = hs_next_knot(m, t0, te, sl);
    d = tk - t0;
    if (d <= 1.1 * h) t1 = tk;
    else if (d < 2.0 * h) t1 = t0 + 0.5 * d;
    else t1 = t0 + h;
    w->t0 = t0;
    w->t1 = t1;
    w->tg = t1;
    w->h = t1 - t0;
    w->it_step = 0;
    hs_penalty_adaptive(m, w, w->h);
}

/* The history of a step of h from the state s (its rates at the start). */
HS_HD static inline void hs_hist_take(const hs_mview *m, const hs_state *s, double h, hs_hist *hist)
{
    int i;
    hist->h = h;
    HS_UNROLL
    for (i = 0; i < HS_N(m, nz); ++i) hist->zdd[i] = s->zdd[i];
    HS_UNROLL
    for (i = 0; i < HS_N(m, nvol); ++i) hist->pd[i] = s->pd[i];
    HS_UNROLL
    for (i = 0; i < HS_N(m, nfs); ++i) hist->fsd[i] = s->fsd[i];
}

/* Does the (sub-)step whose span is in w end on a signal knot before t_end? An input may
 * switch or kink there, so no rate history reaches across it. */
HS_HD static inline int hs_span_ends_on_knot(const hs_mview *m, const hs_work *w)
{
    return w->t1 < HS_D(m, t_end) && hs_next_knot(m, w->t0, w->t1 + w->h, 0.0) == w->t1;
}

/* Prologue of a (sub-)step whose span is in w: spools first (closed-form trapezoidal step),
 * the predictors, the multipliers to iterate. The predictors are the Taylor polynomials of
 * the state: z + h zd + h^2/2 zdd, x + h xdot (the seeds'); given a rate history hist
 * (adaptive steps, and fixed ones with integrator.predictor = extrapolated) one degree
 * higher, the next derivative being the rates' divided difference over the previous step: a
 * step starts closer to its solution (fewer Newton iterations on the seed 003 cycle: 1.36
 * instead of 1.68 per step with modified Newton, 1.26 instead of 1.43 with full Newton). */
HS_HD static inline void hs_step_prologue(const hs_mview *m, const hs_state *s, hs_work *w, const hs_hist *hist)
{
    int n = HS_N(m, nz), nx = HS_N(m, nx), i, e;
    double h, t0, t1;
    w->kin_x = 0;
    h = w->h;
    t0 = w->t0;
    t1 = w->t1;
    HS_UNROLL
    for (i = 0; i < HS_N(m, ndcv); ++i)
        w->U1[i] = hs_spool_step(
            s->U[i], HS_I(m, dcv_sig, i) >= 0 ? hs_signal_eval_side(m, HS_I(m, dcv_sig, i), t0, 1) : 0.0,
            HS_I(m, dcv_sig, i) >= 0 ? hs_signal_eval_side(m, HS_I(m, dcv_sig, i), t1, -1) : 0.0, h,
            HS_D(m, dcv_tau)[i]);
    HS_UNROLL
    for (i = 0; i < n; ++i) w->x[i] = s->z[i] + h * s->zd[i] + 0.5 * h * h * s->zdd[i];
    HS_UNROLL
    for (i = n; i < nx; ++i) {
        int v = i - n;
        double xv = v < HS_N(m, nvol) ? s->p[v] : s->fs[v - HS_N(m, nvol)];
        double xr = v < HS_N(m, nvol) ? s->pd[v] : s->fsd[v - HS_N(m, nvol)];
        w->x[i] = xv + h * xr;
    }
    if (hist && hist->h > 0.0) {
        double c = h * h / hist->h;
        HS_UNROLL
        for (i = 0; i < n; ++i) w->x[i] += c * h * (s->zdd[i] - hist->zdd[i]) / 6.0;
        HS_UNROLL
        for (i = n; i < nx; ++i) {
            int v = i - n;
            double xr = v < HS_N(m, nvol) ? s->pd[v] : s->fsd[v - HS_N(m, nvol)];
            double xm = v < HS_N(m, nvol) ? hist->pd[v] : hist->fsd[v - HS_N(m, nvol)];
            w->x[i] += 0.5 * c * (xr - xm);
        }
    }
    HS_UNROLL
    for (e = 0; e < HS_N(m, ncon); ++e) w->lam[e] = s->lambda[e];
}

/* Prologue of the next fixed (sub-)step: its span (hs_step_span), then hs_step_prologue. */
HS_HD static inline void hs_step_begin(const hs_mview *m, hs_state *s, hs_work *w)
{
    hs_step_span(m, s, w);
    hs_step_prologue(m, s, w, NULL);
}

/* Residual f0 at the iterate (it must be finite) and the right-hand side -f0 in w->dx. */
HS_HD static inline int hs_newton_residual(const hs_mview *m, hs_state *s, hs_work *w)
{
    int nx = HS_N(m, nx), i;
    if (hs_double_step(m)) {
        if (hs_ds_residual(m, s, w->t1, w->x, w, w->f0)) { /* the loop closure failed */
            s->status |= HS_ST_MAXITER | HS_ST_SINGULAR_CONFIG;
            return s->status;
        }
    } else {
        hs_residual(m, s, w->t1, w->x, w->lam, w, w->f0);
    }
    HS_UNROLL
    for (i = 0; i < nx; ++i) {
        if (!hs_isfinite(w->f0[i])) {
            s->status |= HS_ST_NONFINITE;
            return s->status;
        }
        w->dx[i] = -w->f0[i];
    }
    return 0;
}

/* Tangent at the iterate into w->lu.T (after hs_newton_residual, whose kinematics it starts
 * from), and the projection weight P of eq. (43): its z block less the penalty part
 * dt^2/4 alpha J^T J, with J at the same point. The double-step formulation has no
 * projections: its tangent only (hs_ds_tangent). */
HS_HD static inline int hs_newton_tangent(const hs_mview *m, hs_state *s, hs_work *w)
{
    int n = HS_N(m, nz), nx = HS_N(m, nx), i, j, e, ds = hs_double_step(m);
    double t1 = w->t1, sa = 0.25 * w->h * w->h * w->alpha;
    if (ds) {
        if (hs_ds_tangent(m, s, t1, w->x, w->f0, w)) {
            s->status |= HS_ST_MAXITER | HS_ST_SINGULAR_CONFIG;
            return s->status;
        }
    } else {
        HS_UNROLL
        for (i = 0; i < n; ++i)
            HS_UNROLL
            for (j = 0; j < n; ++j) {
                double q = 0.0;
                HS_UNROLL
                for (e = 0; e < HS_N(m, ncon); ++e) q += w->J[e * HS_CAP_Z + i] * w->J[e * HS_CAP_Z + j];
                w->P[i * HS_CAP_Z + j] = -(sa * q);
            }
        hs_tangent(m, s, t1, w->x, w->lam, w->f0, w);
    }
    w->tan_h = w->h;
    /* a non-finite tangent is flagged here, not left to the factorisation: LU pivoting
     * treats NaN differently in kernels/hs_linalg.h, LAPACK and cuBLAS */
    HS_UNROLL
    for (i = 0; i < nx; ++i)
        HS_UNROLL
        for (j = 0; j < nx; ++j)
            if (!hs_isfinite(w->lu.T[i * HS_CAP_X + j])) {
                s->status |= HS_ST_NONFINITE;
                return s->status;
            }
    if (ds) return 0; /* no projections */
    HS_UNROLL
    for (i = 0; i < n; ++i)
        HS_UNROLL
        for (j = 0; j < n; ++j) w->P[i * HS_CAP_Z + j] += w->lu.T[i * HS_CAP_X + j];
    return 0;
}

/* First half of a full Newton iteration (the cuBLAS path's): residual, tangent into w->lu.T,
 * the right-hand side -f0 into w->dx. */
HS_HD static inline int hs_newton_assemble(const hs_mview *m, hs_state *s, hs_work *w)
{
    if (hs_newton_residual(m, s, w)) return s->status;
    return hs_newton_tangent(m, s, w);
}

/* The Newton tolerances of the classes (positions, pressures, friction states): the model's
 * (tol_position, tol_pressure, tol_friction: the seeds'), and with adaptive steps at most the
 * class's absolute error tolerance as well, so that an error tolerance below the seeds' Newton
 * tolerance is met rather than stopped by the iteration's own error: the Pub. I cycle's
 * tol_pressure of 100 Pa held its crank angle error near 5e-6 rad whatever rtol. The defaults
 * (atol: 1e-4 rad, 100 Pa, 1e-7) leave the shipped models' tolerances as they are. */
HS_HD static inline double hs_newton_tol(const hs_mview *m, int cls)
{
    double t = cls == 0 ? HS_D(m, tol_z) : cls == 1 ? HS_D(m, tol_p) : HS_D(m, tol_fs);
    if (HS_N(m, step) == HS_STEP_ADAPTIVE) {
        double a = cls == 0 ? HS_D(m, atol_z) : cls == 1 ? HS_D(m, atol_p) : HS_D(m, atol_fs);
        if (a < t) t = a;
    }
    return t;
}

/* Second half, after the solve left dx in w->dx: update, per-class convergence test,
 * multiplier update with the new positions (eq. 19). *dn gets max_i |dx_i| / tol_i, the
 * update measured in its tolerances (modified Newton watches how fast it falls). The
 * double-step formulation updates the independent unknowns only (a dependent coordinate's
 * update is 0 by the tangent's unit rows; set so whatever the solver's rounding). */
HS_HD HS_NOINLINE static inline int hs_newton_apply(const hs_mview *m, hs_state *s, hs_work *w, int it, int *conv,
                                        double *dn)
{
    int n = HS_N(m, nz), nx = HS_N(m, nx), i, e;
    double tz = hs_newton_tol(m, 0), tp = hs_newton_tol(m, 1), tf = hs_newton_tol(m, 2);
    double d = 0.0, itz = 1.0 / tz, itp = 1.0 / tp, itf = 1.0 / tf;
    *conv = 1;
    if (hs_double_step(m))
        for (i = 0; i < n; ++i)
            if ((s->ds_dep >> i) & 1u) w->dx[i] = 0.0;
    HS_UNROLL
    for (i = 0; i < nx; ++i) {
        double tol = i < n ? tz : (i < n + HS_N(m, nvol) ? tp : tf);
        double a = fabs(w->dx[i]) * (i < n ? itz : (i < n + HS_N(m, nvol) ? itp : itf));
        w->x[i] += w->dx[i];
        if (!(fabs(w->dx[i]) <= tol)) *conv = 0;
        if (!hs_isfinite(w->dx[i])) {
            s->status |= HS_ST_NONFINITE;
            return s->status;
        }
        if (a > d) d = a;
    }
    *dn = d;
    if (hs_double_step(m)) { /* no multipliers: the next residual closes the loop at x */
        w->kin_x = 0;
        s->iters = it;
        return 0;
    }
    hs_kin_positions_tc(m, w->x, &w->kin, ~0u, HS_WORK_TRIG(w));
    w->kin_x = 1;
    hs_constraints_phi(m, &w->kin, w->phi);
    if (HS_N(m, nnh) > 0) { /* B at the last residual's positions: equal at convergence. w->zd
                               is rewritten by the next residual and by hs_step_finish */
        double c1 = 2.0 / w->h;
        HS_UNROLL
        for (i = 0; i < n; ++i) w->zd[i] = c1 * w->x[i] + hs_hat_d(s, c1, i);
        hs_phi_nh(m, w->J, w->zd, w->h, w->phi);
    }
    HS_UNROLL
    for (e = 0; e < HS_N(m, ncon); ++e) w->lam[e] += w->alpha * w->phi[e];
    s->iters = it;
    return 0;
}

/* Newton did not converge within max_iter: hs_step's verdict, with the singular-position
 * diagnosis at the last iterate's positions (w->kin). */
HS_HD HS_NOINLINE static inline void hs_newton_fail(const hs_mview *m, hs_state *s, hs_work *w)
{
    s->status |= HS_ST_MAXITER;
    if (hs_loop_singular(m, w)) s->status |= HS_ST_SINGULAR_CONFIG;
}

/* Velocities and accelerations of the converged penalty iterate w->x into w->zd, w->zdd:
 * the trapezoidal rule's, then their mass-damping-stiffness-orthogonal projections (eqs.
 * 20-21 / 27-28); the kinematics' velocities follow. Returns s->status. */
HS_HD static inline int hs_projected_rates(const hs_mview *m, hs_state *s, hs_work *w)
{
    int n = HS_N(m, nz), i;
    double c1 = 2.0 / w->h, c2 = 4.0 / (w->h * w->h);
    hs_constraints_jac(m, &w->kin, w->J, HS_CAP_Z);
    HS_UNROLL
    for (i = 0; i < n; ++i) {
        w->zd[i] = c1 * w->x[i] + hs_hat_d(s, c1, i);
        w->zdd[i] = c2 * w->x[i] + hs_hat_dd(s, c1, c2, i);
    }
    if (HS_N(m, ncon) > 0) {
        double vp[HS_CAP_CON]; /* Phidot_z zdot */
        if (hs_projection_matrix(m, w)) {
            s->status |= HS_ST_SINGULAR;
            return s->status;
        }
        hs_project(m, w, w->zd, NULL);
        hs_kin_velocities(m, w->zd, &w->kin);
        hs_constraints_vprod(m, &w->kin, vp);
        hs_project(m, w, w->zdd, vp);
    } else {
        hs_kin_velocities(m, w->zd, &w->kin);
    }
    return 0;
}

/* Epilogue of a converged (sub-)step: projections (eqs. 20-21 / 27-28), checks, accept,
 * energies, the right-limit rates after a load jump. At the end of a step of dt (w->t1 ==
 * w->tg) the step and its iterations are counted; hs_step_done tells. Leaves w describing the
 * new state (kinematics, Phi, Phi_z, hydraulics: what hs_observe_current reads). Returns
 * s->status (0: accepted). */
HS_HD HS_NOINLINE static inline int hs_step_finish(const hs_mview *m, hs_state *s, hs_work *w)
{
    int n = HS_N(m, nz), nx = HS_N(m, nx), i, e;
    double dt = w->h, c1 = 2.0 / dt;
    double t1 = w->t1;
    if (hs_double_step(m)) {
        /* the last update moved the independent coordinates: the loop closed at them, the
         * dependent rates from eqs. 13 and 15 (Phi = 0, Phi_z zd = 0 and its derivative hold
         * to rounding: no projection) */
        if (hs_ds_close(m, s, w->x, w)) {
            s->status |= HS_ST_MAXITER | HS_ST_SINGULAR_CONFIG;
            return s->status;
        }
        hs_ds_rates(m, s, w->x, w);
    } else if (hs_projected_rates(m, s, w)) {
        return s->status;
    }
    HS_UNROLL
    for (i = 0; i < n; ++i)
        if (!hs_isfinite(w->zd[i]) || !hs_isfinite(w->zdd[i])) {
            s->status |= HS_ST_NONFINITE;
            return s->status;
        }
    HS_UNROLL
    for (e = 0; e < HS_N(m, ncon); ++e)
        if (fabs(w->phi[e]) > HS_PHI_BLOWUP) {
            s->status |= HS_ST_CONSTRAINT;
            return s->status;
        }
    if (HS_N(m, ncyl) > 0 || HS_N(m, nvol) > 0) {
        hs_hydraulics(m, &w->kin, w->x + n, w->x + n + HS_N(m, nvol), w->U1, s->s0, &w->hyd);
        if (w->hyd.stroke_out) {
            s->status |= HS_ST_STROKE;
            return s->status;
        }
    }
    HS_UNROLL
    for (i = 0; i < n; ++i) {
        s->z[i] = w->x[i];
        s->zd[i] = w->zd[i];
        s->zdd[i] = w->zdd[i];
    }
    HS_UNROLL
    for (i = n; i < nx; ++i) {
        int v = i - n;
        double rate = c1 * w->x[i] + hs_hat_x(m, s, c1, i);
        if (v < HS_N(m, nvol)) {
            /* an algebraic pressure has no trapezoidal rate: its backward difference, for the
             * predictor and the dense output (the secant recursion would oscillate) */
            if (HS_I(m, vol_model, v) == HS_VOL_SP) rate = (w->x[i] - s->p[v]) / dt;
            s->p[v] = w->x[i];
            s->pd[v] = rate;
        } else {
            s->fs[v - HS_N(m, nvol)] = w->x[i];
            s->fsd[v - HS_N(m, nvol)] = rate;
        }
    }
    HS_UNROLL
    for (i = 0; i < HS_N(m, ndcv); ++i) s->U[i] = w->U1[i];
    HS_UNROLL
    for (e = 0; e < HS_N(m, ncon); ++e) s->lambda[e] = w->lam[e];
    {
        double P1 = hs_external_power(m, &w->kin, t1, -1), Pc[HS_CAP_CYLS];
        int c;
        s->W_ext += 0.5 * dt * (s->P_ext + P1);
        s->P_ext = P1;
        hs_cylinder_power(m, w, Pc);
        HS_UNROLL
        for (c = 0; c < HS_N(m, ncyl); ++c) {
            s->W_cyl[c] += 0.5 * dt * (s->P_cyl[c] + Pc[c]);
            s->P_cyl[c] = Pc[c];
        }
    }
    s->t = t1;
    hs_cavitation_check(m, s);
    if (hs_double_step(m) && hs_ds_partition(m, s, w, 0)) w->tan_ok = 0;
    w->it_step += s->iters;
    if (t1 == w->tg) { /* a step of dt done: its iterations are those of all its sub-steps */
        s->step += 1;
        s->iters = w->it_step;
        s->iters_total += s->iters;
        if (s->iters > s->iters_max) s->iters_max = s->iters;
    }
    if (hs_loads_jump(m, t1)) return hs_consistent_rates(m, s, w, t1);
    return 0;
}

/* 1 when the last hs_step_finish completed a step of dt (not only a sub-step to a knot). */
HS_HD static inline int hs_step_done(const hs_work *w)
{
    return w->t1 == w->tg;
}

/* The Newton iteration of one step from the predictor of hs_step_begin. reuse = 0: a new
 * tangent every iteration (full Newton-Raphson, the seeds'). reuse = 1 (modified Newton):
 * the factorised tangent in w->lu.T is kept across iterations and steps while it still
 * contracts, i.e. a new one is made at the next iteration when an update is more than half
 * the previous one, or when three iterations on an old tangent have not converged. it0
 * iterations were spent before (a first attempt). Returns 1 if converged, 0 if not (max_iter),
 * -1 on a failure already flagged in s->status. */
HS_HD static inline int hs_newton_solve(const hs_mview *m, hs_state *s, hs_work *w, int reuse, int it0)
{
    int it, nx = HS_N(m, nx), maxit = (int)HS_D(m, max_iter), conv = 0, fresh = 0;
    /* with modified Newton every tangent (also the full-Newton retry's, which the next step
     * may reuse) is kept as its inverse */
    const int inv = HS_LU_INVERSE && hs_newton_reuse(m);
    double dn = 0.0, dprev = 0.0;
    for (it = 1; it <= maxit; ++it) {
        s->iters = it0 + it;
        if (hs_newton_residual(m, s, w)) return -1;
        if (!reuse || !w->tan_ok || w->tan_h != w->h) { /* the tangent depends on h */
            w->tan_ok = 0;
            if (hs_newton_tangent(m, s, w)) return -1;
            if (HS_LU_FACTOR(w->lu.T, nx, HS_CAP_X, w->piv)) {
                s->status |= HS_ST_SINGULAR;
                return -1;
            }
            if (inv) hs_lu_invert(w->lu.T, nx, HS_CAP_X, w->piv, w->f1);
            w->tan_ok = 1;
            fresh = 1;
        }
        if (inv) hs_inverse_apply(w->lu.T, nx, HS_CAP_X, w->dx, w->f1);
        else HS_LU_SOLVE(w->lu.T, nx, HS_CAP_X, w->piv, w->dx);
        if (hs_newton_apply(m, s, w, it0 + it, &conv, &dn)) return -1;
        if (HS_N(m, step) == HS_STEP_ADAPTIVE) {
            /* adaptive steps: converged too when the error left after this update, estimated
             * from the contraction rate r = dn / dprev as r / (1 - r) dn, is within the
             * tolerances (IDA's test; Hairer & Wanner IV.8): the update itself need not be.
             * A reused tangent contracts linearly (r up to 1/2), so an update within the
             * tolerances may leave about as much behind: there the estimate must be within
             * HS_NEWTON_KAPPA of them (at the first iteration, with r unknown, the update),
             * or the iteration's error, not the step's, sets the global error's floor */
            const double kap = reuse ? HS_NEWTON_KAPPA : 1.0;
            if (reuse && conv && !(it > 1 ? dn < dprev && dn * dn <= kap * (dprev - dn) : dn <= kap))
                conv = 0;
            if (!conv && it > 1 && dn < dprev && dn * dn <= kap * (dprev - dn)) conv = 1;
        }
        if (conv) return 1;
        if (reuse && ((it > 1 && dn > 0.5 * dprev) || (!fresh && it >= 3))) w->tan_ok = 0;
        dprev = dn;
    }
    return 0;
}

/* The Newton iteration of the (sub-)step whose span is in w, from its predictor
 * (hs_step_prologue; hist as there). With integrator.newton = modified a failed attempt
 * (iteration limit, non-finite or singular) is taken again from the predictor with full
 * Newton, so modified Newton never fails a step that full Newton would pass; s->iters counts
 * the iterations of both attempts. Returns as hs_newton_solve. */
HS_HD static inline int hs_step_solve(const hs_mview *m, hs_state *s, hs_work *w, const hs_hist *hist)
{
    int r, reuse = hs_newton_reuse(m);
    hs_step_prologue(m, s, w, hist);
    r = hs_newton_solve(m, s, w, reuse, 0);
    if (r != 1 && reuse) {
        int spent = s->iters;
        s->status = 0;
        w->tan_ok = 0;
        hs_step_prologue(m, s, w, hist);
        r = hs_newton_solve(m, s, w, 0, spent);
    }
    return r;
}

/* Advances the state by one step of m->dt (to t_end for a last, shorter one), in sub-steps
 * that land on the signals' knots inside it (hs_step_span). Returns s->status (0: accepted).
 * With integrator.newton = modified a (sub-)step whose modified Newton iteration fails
 * (iteration limit, non-finite or singular) is taken again from its predictor with full
 * Newton, so modified Newton never fails a step that full Newton would pass; s->iters counts
 * the iterations of every attempt and sub-step. With integrator.predictor = extrapolated (by
 * default with modified Newton) a step is predicted one Taylor degree higher from the rates of
 * the previous (sub-)step (w->hist); by default full Newton keeps the seeds' predictor, whose
 * iteration counts the papers quote. */
HS_HD static inline int hs_step(const hs_mview *m, hs_state *s, hs_work *w)
{
    int r;
    if (s->status) return s->status;
    do {
        hs_step_span(m, s, w);
#if HS_WORK_HIST
        if (hs_pred_extrapolated(m)) {
            hs_hist h0; /* this step's history for the next */
            hs_hist_take(m, s, w->h, &h0);
            r = hs_step_solve(m, s, w, &w->hist);
            if (hs_span_ends_on_knot(m, w)) h0.h = 0.0;
            w->hist = h0;
        } else
#endif
            r = hs_step_solve(m, s, w, NULL);
        if (r == 0) {
            hs_newton_fail(m, s, w);
            return s->status;
        }
        if (r < 0 || hs_step_finish(m, s, w)) return s->status;
    } while (!hs_step_done(w));
    return 0;
}

/* ---- error-controlled steps ---- */

/* One component's estimated local error of the trapezoidal rule over a step of h from a
 * value with rate f0 to one with rate f1, fm the rate at the start of the previous step of
 * hp: -(h^3/12) y3, the rule's leading error term, with the third derivative y3 = f'' taken
 * as twice the second divided difference of the rates at the three times. Without history
 * (hp = 0: the first step, or the first after a signal knot, where rates may jump) it is
 * (h/2) (f1 - f0), the error of an explicit Euler step from the same point: larger than the
 * rule's by about 6 / (h |f''/f'|), so a restart takes small steps until the history exists. */
HS_HD static inline double hs_lte(double fm, double f0, double f1, double h, double hp)
{
    if (hp > 0.0) {
        double dd = ((f1 - f0) / h - (f0 - fm) / hp) / (h + hp);
        return h * h * h * dd / 6.0;
    }
    return 0.5 * h * (f1 - f0);
}

/* The weighted RMS norm of the estimated local error of the step from a to b (b the
 * candidate at its end, a the state at its start, c the controller, whose hist.h says whether
 * its rate history exists), each component against atol_class + rtol max(|y_a|, |y_b|):
 *   positions: -(h^3/12) z3 with z3 = (zdd_b - zdd_a) / h, from this step alone;
 *   velocities, pressures, friction states, spools: hs_lte of their rates.
 * The cubic through the two ends' values and rates has no cubic term for a trapezoidal step
 * (the rule makes it vanish), so a third derivative of a first-order unknown needs the
 * previous step as well. 0 for a model without unknowns. (No weight is below the Newton
 * tolerance of its class, which hs_newton_tol keeps at most atol: the controller does not
 * chase the iteration's noise.) */
HS_HD static inline double hs_local_error(const hs_mview *m, const hs_state *a, const hs_state *b,
                                          const hs_ctrl *c, double h)
{
    double sum = 0.0, rt = HS_D(m, rtol), hp = c->hist.h, e, wgt;
    int i, n = 0;
    HS_UNROLL
    for (i = 0; i < HS_N(m, nz); ++i) {
        double za = fabs(a->z[i]), zb = fabs(b->z[i]), va = fabs(a->zd[i]), vb = fabs(b->zd[i]);
        e = h * h * (b->zdd[i] - a->zdd[i]) / 12.0;
        wgt = HS_D(m, atol_z) + rt * (za > zb ? za : zb);
        sum += (e / wgt) * (e / wgt);
        e = hs_lte(c->hist.zdd[i], a->zdd[i], b->zdd[i], h, hp);
        wgt = HS_D(m, atol_zd) + rt * (va > vb ? va : vb);
        sum += (e / wgt) * (e / wgt);
        n += 2;
    }
    HS_UNROLL
    for (i = 0; i < HS_N(m, nvol); ++i) {
        double pa = fabs(a->p[i]), pb = fabs(b->p[i]);
        if (HS_I(m, vol_model, i) == HS_VOL_SP) continue; /* algebraic: no integration error */
        e = hs_lte(c->hist.pd[i], a->pd[i], b->pd[i], h, hp);
        wgt = HS_D(m, atol_p) + rt * (pa > pb ? pa : pb);
        sum += (e / wgt) * (e / wgt);
        ++n;
    }
    HS_UNROLL
    for (i = 0; i < HS_N(m, nfs); ++i) {
        double fa = fabs(a->fs[i]), fb = fabs(b->fs[i]);
        e = hs_lte(c->hist.fsd[i], a->fsd[i], b->fsd[i], h, hp);
        wgt = HS_D(m, atol_fs) + rt * (fa > fb ? fa : fb);
        sum += (e / wgt) * (e / wgt);
        ++n;
    }
    HS_UNROLL
    for (i = 0; i < HS_N(m, ndcv); ++i) {
        double ua = fabs(a->U[i]), ub = fabs(b->U[i]);
        double ra = hs_spool_rate(m, i, a->U[i], a->t, 1), rb = hs_spool_rate(m, i, b->U[i], b->t, -1);
        e = hs_lte(c->Ud_m[i], ra, rb, h, hp);
        wgt = HS_D(m, atol_U) + rt * (ua > ub ? ua : ub);
        sum += (e / wgt) * (e / wgt);
        ++n;
    }
    return n > 0 ? sqrt(sum / (double)n) : 0.0;
}

/* The controller's factor for the next step after an error norm err: PI control
 * (Gustafsson; as in Hairer & Wanner's codes), fac = 0.9 err^(-0.7/k) err_prev^(0.4/k), k the
 * power of h the estimate falls with (hs_error_power), between 0.2 and 5. A rejected step, or
 * one without a previous error, uses 0.9 err^(-1/k). */
HS_HD static inline double hs_step_factor(double err, double err_prev, double k, int accepted)
{
    double fac;
    int pi = accepted && err_prev > 0.0;
    if (!(err > 1e-10)) err = 1e-10;
    fac = 0.9 * pow(err, -(pi ? 0.7 : 1.0) / k);
    if (pi) fac *= pow(err_prev, 0.4 / k);
    if (fac < 0.2) fac = 0.2;
    if (fac > 5.0) fac = 5.0;
    return fac;
}

/* The power of the step the local error estimate falls with: the embedded estimate of an
 * ESDIRK method of order q is of order q - 1, so h^q; the trapezoidal rule's h^3 with its rate
 * history, h^2 for the Euler estimate of a restart (hs_lte). */
HS_HD static inline double hs_error_power(const hs_mview *m, const hs_ctrl *c)
{
    if (hs_method(m) == HS_METHOD_ESDIRK3) return 3.0;
    if (hs_method(m) == HS_METHOD_ESDIRK4) return 4.0;
    return c->hist.h > 0.0 ? 3.0 : 2.0;
}

/* h rounded down to a quarter-octave value m 2^e, m in {1, 1.25, 1.5, 1.75}: the steps the
 * controller proposes come from error norms that backends compute with different rounding
 * (LAPACK against the built-in LU, FMA on a GPU); rounded to this coarse set they are equal
 * unless a norm falls within rounding of a boundary, so the step sequence does not depend on
 * the backend. It also repeats step sizes, which a reused tangent needs (modified Newton). */
HS_HD static inline double hs_step_quantize(double h)
{
    int e;
    double f = frexp(h, &e); /* h = f 2^e, f in [0.5, 1) */
    return ldexp(floor(f * 8.0) / 8.0, e);
}

/* Restarts the controller (t = 0, or after a signal knot): no rate history, the next step at
 * most h_init. */
HS_HD static inline void hs_step_restart(const hs_mview *m, hs_ctrl *c)
{
    if (!(c->h > 0.0) || c->h > HS_D(m, h_init)) c->h = HS_D(m, h_init);
    c->hist.h = 0.0;
    c->err_prev = 0.0;
}

/* A controller for a run from t = 0: nothing rejected, no history, the first step h_init. */
HS_HD static inline void hs_ctrl_start(const hs_mview *m, hs_ctrl *c)
{
    int i;
    c->h = 0.0;
    c->rejected = 0;
    hs_step_restart(m, c);
    for (i = 0; i < HS_CAP_Z; ++i) c->hist.zdd[i] = 0.0;
    for (i = 0; i < HS_CAP_VOLS; ++i) c->hist.pd[i] = 0.0;
    for (i = 0; i < HS_CAP_FS; ++i) c->hist.fsd[i] = 0.0;
    for (i = 0; i < HS_CAP_DCV; ++i) c->Ud_m[i] = 0.0;
}

/* ---- ESDIRK methods (integrator.method) ----
 * Kennedy & Carpenter, Additive Runge-Kutta schemes for convection-diffusion-reaction
 * equations, Appl. Numer. Math. 44 (2003): the implicit tables of ARK3(2)4L[2]SA and
 * ARK4(3)6L[2]SA, as SUNDIALS ARKODE ships them (ARKODE_ARK324L2SA_DIRK_4_2_3,
 * ARKODE_ARK436L2SA_DIRK_6_3_4). Explicit first stage (the state at the start of the step),
 * equal diagonal gamma, stiffly accurate (b = the last row of A: the last stage is the
 * solution, a state solved and projected like a trapezoidal step's end), L-stable.
 *
 * Stage i solves, with the known parts Z_i = z_n + h sum_{j<i} a_ij zd_j,
 * V_i = zd_n + h sum_{j<i} a_ij zdd_j, X_i = x_n + h sum_{j<i} a_ij xd_j:
 *   z_i = Z_i + gamma h zd_i,  zd_i = V_i + gamma h zdd_i,  x_i = X_i + gamma h xd_i,
 * which is a trapezoidal step (seed 000 eq. 34: zd = c1 z + hat_d, zdd = c2 z + hat_dd,
 * xd = c1 x + hat_x) of h' = 2 gamma h from a start state with z = Z_i, zd = 0,
 * zdd = V_i / (gamma h), x = X_i, xd = 0: c1 = 1/(gamma h), c2 = c1^2, hat_d = -c1 Z_i,
 * hat_dd = -(c2 Z_i + c1 V_i), hat_x = -c1 X_i. So every stage runs the trapezoidal step's
 * residual, tangent, Newton iteration, projections (P = M + gamma h C + (gamma h)^2 K) and
 * checks unchanged, and all stages of a step share one tangent (same h'), which modified
 * Newton reuses. */
#define HS_ESDIRK_MAXS 6

/* Stages of a method (1 for the trapezoidal rule, which has no table here). */
HS_HD static inline int hs_esdirk_stages(int method)
{
    return method == HS_METHOD_ESDIRK3 ? 4 : method == HS_METHOD_ESDIRK4 ? 6 : 1;
}

/* a_ij (i > j; the diagonal is gamma: hs_esdirk_gamma), c_i, and e_j = b_j - bhat_j, the
 * weights of the embedded error estimate. */
HS_HD static inline double hs_esdirk_a(int method, int i, int j)
{
    const double a3[4][3] = {{0.0, 0.0, 0.0},
                             {0.435866521508459, 0.0, 0.0},
                             {0.25764824606642722, -0.093514767574886248, 0.0},
                             {0.18764102434672383, -0.59529747357695495, 0.97178992772177208}};
    const double a4[6][5] = {{0.0, 0.0, 0.0, 0.0, 0.0},
                             {0.25, 0.0, 0.0, 0.0, 0.0},
                             {0.137776, -0.055776, 0.0, 0.0, 0.0},
                             {0.14463686602698217, -0.22393190761334475, 0.44929504158636258, 0.0, 0.0},
                             {0.098258783283564771, -0.59154424281967044, 0.81012105382829958,
                              0.28316440570780599, 0.0},
                             {0.15791629516167136, 0.0, 0.18675894052400077, 0.68056529530933463,
                              -0.27524053099500667}};
    return method == HS_METHOD_ESDIRK3 ? a3[i][j] : a4[i][j];
}

HS_HD static inline double hs_esdirk_gamma(int method)
{
    return method == HS_METHOD_ESDIRK3 ? 0.435866521508459 : 0.25;
}

HS_HD static inline double hs_esdirk_c(int method, int i)
{
    const double c3[4] = {0.0, 0.87173304301691801, 0.6, 1.0};
    const double c4[6] = {0.0, 0.5, 0.332, 0.62, 0.85, 1.0};
    return method == HS_METHOD_ESDIRK3 ? c3[i] : c4[i];
}

HS_HD static inline double hs_esdirk_b(int method, int j)
{
    int s = hs_esdirk_stages(method);
    return j == s - 1 ? hs_esdirk_gamma(method) : hs_esdirk_a(method, s - 1, j);
}

HS_HD static inline double hs_esdirk_e(int method, int j)
{
    const double d3[4] = {0.21474028622338914, -0.4851622638849391, 0.86872500252038753, 0.40169697514116243};
    const double d4[6] = {0.15471180076321217, 0.0, 0.18920519166068023, 0.70204537122892186,
                          -0.31918739906357912, 0.27322503541076487};
    return hs_esdirk_b(method, j) - (method == HS_METHOD_ESDIRK3 ? d3[j] : d4[j]);
}

/* The stages' rates: what the later stages' known parts and the error estimate sum. */
typedef struct hs_esdirk_k {
    double zd[HS_ESDIRK_MAXS][HS_CAP_Z], zdd[HS_ESDIRK_MAXS][HS_CAP_Z]; /* (nstage x nz) */
    double xd[HS_ESDIRK_MAXS][HS_CAP_VOLS + HS_CAP_FS]; /* pressures', friction states' (nstage x
                                                            (nvol + nfs)) */
    double Ud[HS_ESDIRK_MAXS][HS_CAP_DCV]; /* spools' (nstage x ndcv) */
    double P[HS_ESDIRK_MAXS][HS_CAP_CYLS + 1]; /* the cylinders' powers, then the external
                                                  loads' (nstage x (ncyl + 1)) */
} hs_esdirk_k;

/* Stage j's rates from the state st (solved at stage j, or the step's start for j = 0). */
HS_HD static inline void hs_esdirk_take(const hs_mview *m, const hs_state *st, int j, hs_esdirk_k *k)
{
    int i, nv = HS_N(m, nvol);
    HS_UNROLL
    for (i = 0; i < HS_N(m, nz); ++i) {
        k->zd[j][i] = st->zd[i];
        k->zdd[j][i] = st->zdd[i];
    }
    HS_UNROLL
    for (i = 0; i < nv; ++i) k->xd[j][i] = st->pd[i];
    HS_UNROLL
    for (i = 0; i < HS_N(m, nfs); ++i) k->xd[j][nv + i] = st->fsd[i];
    HS_UNROLL
    for (i = 0; i < HS_N(m, ndcv); ++i) k->Ud[j][i] = hs_spool_rate(m, i, st->U[i], st->t, j == 0 ? 1 : -1);
    HS_UNROLL
    for (i = 0; i < HS_N(m, ncyl); ++i) k->P[j][i] = st->P_cyl[i];
    k->P[j][HS_N(m, ncyl)] = st->P_ext;
}

/* sum_{j<i} a_ij r_j: the known part's increment, per unit h. */
#define HS_ESDIRK_SUM(meth, i, arr, col, out)                                                        \
    do {                                                                                         \
        int j_;                                                                                  \
        (out) = 0.0;                                                                             \
        for (j_ = 0; j_ < (i); ++j_) (out) += hs_esdirk_a((meth), (i), j_) * (arr)[j_][col];       \
    } while (0)

/* The weighted RMS norm of the embedded error estimate h sum_j e_j (rates of stage j) of the
 * step from a to b, each component against atol_class + rtol max(|y_a|, |y_b|), as
 * hs_local_error weighs the trapezoidal rule's. */
HS_HD static inline double hs_esdirk_error(const hs_mview *m, const hs_state *a, const hs_state *b,
                                           const hs_esdirk_k *k, double h)
{
    int meth = hs_method(m), ns = hs_esdirk_stages(meth), i, j, n = 0, nv = HS_N(m, nvol);
    double sum = 0.0, rt = HS_D(m, rtol), e, wgt;
    HS_UNROLL
    for (i = 0; i < HS_N(m, nz); ++i) {
        double za = fabs(a->z[i]), zb = fabs(b->z[i]), va = fabs(a->zd[i]), vb = fabs(b->zd[i]), ez = 0.0,
               ev = 0.0;
        for (j = 0; j < ns; ++j) {
            ez += hs_esdirk_e(meth, j) * k->zd[j][i];
            ev += hs_esdirk_e(meth, j) * k->zdd[j][i];
        }
        e = h * ez;
        wgt = HS_D(m, atol_z) + rt * (za > zb ? za : zb);
        sum += (e / wgt) * (e / wgt);
        e = h * ev;
        wgt = HS_D(m, atol_zd) + rt * (va > vb ? va : vb);
        sum += (e / wgt) * (e / wgt);
        n += 2;
    }
    HS_UNROLL
    for (i = 0; i < nv + HS_N(m, nfs); ++i) {
        int vol = i < nv;
        double xa = fabs(vol ? a->p[i] : a->fs[i - nv]), xb = fabs(vol ? b->p[i] : b->fs[i - nv]);
        if (vol && HS_I(m, vol_model, i) == HS_VOL_SP) continue; /* algebraic */
        e = 0.0;
        for (j = 0; j < ns; ++j) e += hs_esdirk_e(meth, j) * k->xd[j][i];
        e *= h;
        wgt = vol ? HS_D(m, atol_p) + rt * (xa > xb ? xa : xb)
                  : HS_D(m, atol_fs) + rt * (xa > xb ? xa : xb);
        sum += (e / wgt) * (e / wgt);
        ++n;
    }
    HS_UNROLL
    for (i = 0; i < HS_N(m, ndcv); ++i) {
        double ua = fabs(a->U[i]), ub = fabs(b->U[i]);
        e = 0.0;
        for (j = 0; j < ns; ++j) e += hs_esdirk_e(meth, j) * k->Ud[j][i];
        e *= h;
        wgt = HS_D(m, atol_U) + rt * (ua > ub ? ua : ub);
        sum += (e / wgt) * (e / wgt);
        ++n;
    }
    return n > 0 ? sqrt(sum / (double)n) : 0.0;
}

/* The predictor of a stage at ti after the first implicit one: the cubic Hermite polynomial
 * through the values and rates at the step's start a and at the last stage b, at ti (mostly
 * inside: the stages' times are not monotone), for the positions and the pressures and
 * friction states (nx). */
HS_HD static inline void hs_esdirk_predict(const hs_mview *m, const hs_state *a, const hs_state *b, double ti,
                                           double *xp)
{
    double hb = b->t - a->t, th = (ti - a->t) / hb, th2 = th * th, th3 = th2 * th;
    double h00 = 2.0 * th3 - 3.0 * th2 + 1.0, h10 = (th3 - 2.0 * th2 + th) * hb, h01 = -2.0 * th3 + 3.0 * th2,
           h11 = (th3 - th2) * hb;
    int i, n = HS_N(m, nz), nv = HS_N(m, nvol);
    HS_UNROLL
    for (i = 0; i < n; ++i) xp[i] = h00 * a->z[i] + h10 * a->zd[i] + h01 * b->z[i] + h11 * b->zd[i];
    HS_UNROLL
    for (i = 0; i < nv; ++i) xp[n + i] = h00 * a->p[i] + h10 * a->pd[i] + h01 * b->p[i] + h11 * b->pd[i];
    HS_UNROLL
    for (i = 0; i < HS_N(m, nfs); ++i)
        xp[n + nv + i] = h00 * a->fs[i] + h10 * a->fsd[i] + h01 * b->fs[i] + h11 * b->fsd[i];
}

/* One attempt of an ESDIRK step (integrator.method) over the span in w (hs_step_span_adaptive)
 * from s0 into s, stage by stage (see above). Each stage's Newton iteration starts from the
 * Taylor predictor of the step's start to the stage's time (hs_step_prologue, with the rate
 * history); with modified Newton a stage that fails is taken again with full Newton, as
 * hs_step_solve does. The spools' linear equation is solved per stage in closed form:
 * U_i = (U_n + h sum a_ij Ud_j + (gamma h / tau) U_ref(t_i)) / (1 + gamma h / tau). The works
 * W_ext and W_cyl integrate the stages' powers with the weights b. An algebraic pressure's rate
 * is its backward difference from the step's start, as a trapezoidal step makes it. On success
 * (returns 1) s is the last stage's state, counted as one step of the sum of the stages'
 * iterations, *err the embedded estimate's norm (hs_esdirk_error), and w describes s with its
 * span restored (t0, t1, h of the whole step); on failure (returns 0) s carries the failing
 * stage's status. */
HS_HD HS_NOINLINE static inline int hs_esdirk_attempt(const hs_mview *m, const hs_state *s0, hs_state *s,
                                                      const hs_ctrl *c, hs_work *w, double *err)
{
    int meth = hs_method(m), ns = hs_esdirk_stages(meth), st, i, nv = HS_N(m, nvol), n = HS_N(m, nz);
    int reuse = hs_newton_reuse(m);
    double h = w->h, t0 = w->t0, t1 = w->t1, g = hs_esdirk_gamma(meth), gh = g * h, hp = 2.0 * gh;
    hs_esdirk_k k;
    hs_esdirk_take(m, s0, 0, &k);
    *s = *s0;
    w->it_step = 0;
    for (st = 1; st < ns; ++st) {
        double ti = st == ns - 1 ? t1 : t0 + hs_esdirk_c(meth, st) * h, lam[HS_CAP_CON], xp[HS_CAP_X], sum;
        int r, e;
        HS_UNROLL
        for (e = 0; e < HS_N(m, ncon); ++e) lam[e] = s->lambda[e]; /* the last stage's */
        if (st > 1) hs_esdirk_predict(m, s0, s, ti, xp);
        /* the start state of the stage's trapezoidal form */
        HS_UNROLL
        for (i = 0; i < n; ++i) {
            double zk, vk;
            HS_ESDIRK_SUM(meth, st, k.zd, i, sum);
            zk = s0->z[i] + h * sum;
            HS_ESDIRK_SUM(meth, st, k.zdd, i, sum);
            vk = s0->zd[i] + h * sum;
            s->z[i] = zk;
            s->zd[i] = 0.0;
            s->zdd[i] = vk / gh;
        }
        HS_UNROLL
        for (i = 0; i < nv + HS_N(m, nfs); ++i) {
            HS_ESDIRK_SUM(meth, st, k.xd, i, sum);
            if (i < nv) {
                s->p[i] = s0->p[i] + h * sum;
                s->pd[i] = 0.0;
            } else {
                s->fs[i - nv] = s0->fs[i - nv] + h * sum;
                s->fsd[i - nv] = 0.0;
            }
        }
        /* the predictor: the trapezoidal prologue from s0 over c_i h (spools overwritten) */
        w->t0 = t0;
        w->t1 = ti;
        w->tg = t1; /* only the last stage ends the step (hs_step_finish counts it) */
        w->h = ti - t0;
        for (r = 0; r < 2; ++r) { /* r = 1: the full-Newton retry of a failed modified one */
            int spent = r ? s->iters : 0, res;
            hs_step_prologue(m, s0, w, &c->hist);
            if (st > 1) {
                HS_UNROLL
                for (i = 0; i < HS_N(m, nx); ++i) w->x[i] = xp[i];
            }
            HS_UNROLL
            for (e = 0; e < HS_N(m, ncon); ++e) w->lam[e] = lam[e];
            HS_UNROLL
            for (i = 0; i < HS_N(m, ndcv); ++i) {
                double a = gh / HS_D(m, dcv_tau)[i], uref;
                HS_ESDIRK_SUM(meth, st, k.Ud, i, sum);
                uref = HS_I(m, dcv_sig, i) >= 0 ? hs_signal_eval_side(m, HS_I(m, dcv_sig, i), ti, -1) : 0.0;
                w->U1[i] = (s0->U[i] + h * sum + a * uref) / (1.0 + a);
            }
            w->h = hp;
            hs_penalty_adaptive(m, w, hp);
            if (r) {
                s->status = 0;
                w->tan_ok = 0;
            }
            res = hs_newton_solve(m, s, w, reuse && !r, spent);
            if (res == 1) break;
            if (!(reuse && !r)) { /* failed: the caller retries a smaller step */
                s->iters += w->it_step;
                w->t0 = t0;
                w->t1 = t1;
                w->h = h;
                return 0;
            }
            w->h = ti - t0; /* the predictor's span again */
        }
        {
            double tw = s->W_ext;
            if (hs_step_finish(m, s, w)) {
                s->iters += w->it_step;
                w->t0 = t0;
                w->t1 = t1;
                w->h = h;
                return 0;
            }
            s->W_ext = tw;
        }
        HS_UNROLL
        for (i = 0; i < nv; ++i) /* an algebraic pressure's rate: its backward difference */
            if (HS_I(m, vol_model, i) == HS_VOL_SP) s->pd[i] = (s->p[i] - s0->p[i]) / (ti - t0);
        hs_esdirk_take(m, s, st, &k);
    }
    *err = hs_esdirk_error(m, s0, s, &k, h);
    { /* the works: sum_j b_j P_j */
        int cc;
        double sum;
        HS_UNROLL
        for (cc = 0; cc <= HS_N(m, ncyl); ++cc) {
            int j;
            sum = 0.0;
            for (j = 0; j < ns; ++j) sum += hs_esdirk_b(meth, j) * k.P[j][cc];
            if (cc < HS_N(m, ncyl)) s->W_cyl[cc] = s0->W_cyl[cc] + h * sum;
            else s->W_ext = s0->W_ext + h * sum;
        }
    }
    w->t0 = t0;
    w->t1 = t1;
    w->tg = t1;
    w->h = h;
    return 1;
}
#undef HS_ESDIRK_SUM

/* One accepted adaptive step from s (integrator.step = adaptive) of the controller's size
 * c->h, cut to land on signal knots and t_end (hs_step_span_adaptive). An attempt whose Newton
 * iteration fails (iteration limit, NaN/Inf, singular matrix; with modified Newton after its
 * full-Newton retry) or whose epilogue fails is taken again at a quarter of the step; one
 * whose local error norm (hs_local_error) exceeds 1, at the size the controller gives. A
 * failed attempt at h_min is the instance's failure, with that attempt's status; an attempt
 * at h_min whose error still exceeds the tolerance fails it with HS_ST_STEPSIZE (the state
 * stays the last accepted one). On return s0 holds the state at the start of the
 * accepted step (the dense output's left end: hs_dense_state) and w describes s. s->step
 * counts accepted steps, c->rejected the attempts thrown away, whose Newton iterations count
 * in s->iters_total. After a step that ends on a signal knot the controller restarts
 * (hs_step_restart): an input switches or kinks there. Returns s->status (0: accepted). */
HS_HD HS_NOINLINE static inline int hs_step_adaptive(const hs_mview *m, hs_state *s, hs_ctrl *c, hs_work *w,
                                                     hs_state *s0)
{
    int rejected = 0, r, i;
    long spent = 0;
    double err = 0.0;
    if (s->status) return s->status;
    *s0 = *s;
    (void)r;
    for (;;) {
        int ok;
        hs_step_span_adaptive(m, s, c, w);
        if (hs_method(m) != HS_METHOD_TRAPEZOIDAL) {
            ok = hs_esdirk_attempt(m, s0, s, c, w, &err);
        } else {
            r = hs_step_solve(m, s, w, &c->hist);
            ok = r == 1 && !hs_step_finish(m, s, w);
            if (ok) err = hs_local_error(m, s0, s, c, w->h);
        }
        if (ok && err <= 1.0) break;
        /* at h_min (the controller's size: the span may stretch a step to a knot) */
        if (ok && c->h <= HS_D(m, h_min)) { /* the tolerance cannot be met: a failure */
            *s = *s0;
            s->status |= HS_ST_STEPSIZE;
            c->rejected += rejected + 1;
            s->iters_total += spent;
            return s->status;
        }
        { /* rejected: back to the start, a smaller step */
            int st = s->status, its = s->iters;
            double h = w->h, fac = ok ? hs_step_factor(err, 0.0, hs_error_power(m, c), 0) : 0.25;
            spent += its;
            *s = *s0;
            w->tan_ok = 0;
            ++rejected;
            if (!ok && c->h <= HS_D(m, h_min)) {
                s->status = st ? st : HS_ST_MAXITER;
                c->rejected += rejected;
                s->iters_total += spent;
                if (s->status & HS_ST_MAXITER) hs_newton_fail(m, s, w);
                return s->status;
            }
            h = hs_step_quantize(h * fac);
            c->h = h > HS_D(m, h_min) ? h : HS_D(m, h_min);
        }
    }
    { /* accepted: the controller's next step and the rate history */
        double h = w->h, fac = hs_step_factor(err, c->err_prev, hs_error_power(m, c), 1);
        int knot = hs_span_ends_on_knot(m, w);
        if (rejected && fac > 1.0) fac = 1.0; /* no growth right after a rejection */
        if (fac >= 1.0 && fac <= 1.2) fac = 1.0; /* keep h, and so a reusable tangent */
        h = hs_step_quantize(fac == 1.0 ? c->h : h * fac);
        if (h > HS_D(m, h_max)) h = HS_D(m, h_max);
        if (h < HS_D(m, h_min)) h = HS_D(m, h_min);
        c->h = h;
        c->rejected += rejected;
        s->iters_total += spent;
        c->err_prev = err > 1e-4 ? err : 1e-4;
        hs_hist_take(m, s0, w->h, &c->hist);
        HS_UNROLL
        for (i = 0; i < HS_N(m, ndcv); ++i) c->Ud_m[i] = hs_spool_rate(m, i, s0->U[i], s0->t, 1);
        if (knot) hs_step_restart(m, c);
    }
    return 0;
}

/* The cubic Hermite basis at time t of a step from ta to tb (th = (t - ta) / h), for the dense
 * output (hs_dense_state, and the state signals' grid samples of hs_instance_adaptive, which
 * must be the same numbers): y(t) = h00 ya + h10 fa + h01 yb + h11 fb for the values y and rates
 * f at the ends. */
typedef struct hs_hermite {
    double th, h00, h10, h01, h11;
} hs_hermite;

HS_HD static inline hs_hermite hs_hermite_at(double ta, double tb, double t)
{
    hs_hermite b;
    double h = tb - ta, th = h > 0.0 ? (t - ta) / h : 1.0, th2 = th * th, th3 = th2 * th;
    b.th = th;
    b.h00 = 2.0 * th3 - 3.0 * th2 + 1.0;
    b.h10 = (th3 - 2.0 * th2 + th) * h;
    b.h01 = -2.0 * th3 + 3.0 * th2;
    b.h11 = (th3 - th2) * h;
    return b;
}
#define HS_HERMITE_EVAL(b, ya, fa, yb, fb) ((b).h00 * (ya) + (b).h10 * (fa) + (b).h01 * (yb) + (b).h11 * (fb))

/* Dense output: the state at time t of the accepted step from a to b (a->t <= t <= b->t), by
 * the cubic Hermite interpolant of each unknown between its values and rates at the two ends
 * (positions with velocities, velocities with accelerations, pressures, friction states,
 * spools and works with their rates): third-order accurate, one order above the rule's local
 * error, so the interpolation adds no larger error. Multipliers, accelerations and rates are
 * linear. The rest (counters, status, the cylinders' reference lengths) is b's. */
HS_HD static inline void hs_dense_state(const hs_mview *m, const hs_state *a, const hs_state *b, double t,
                                        hs_state *o)
{
    const hs_hermite hb = hs_hermite_at(a->t, b->t, t);
    double th = hb.th;
    int i;
#define HS_HERMITE(ya, fa, yb, fb) HS_HERMITE_EVAL(hb, ya, fa, yb, fb)
    *o = *b;
    o->t = t;
    HS_UNROLL
    for (i = 0; i < HS_N(m, nz); ++i) {
        o->z[i] = HS_HERMITE(a->z[i], a->zd[i], b->z[i], b->zd[i]);
        o->zd[i] = HS_HERMITE(a->zd[i], a->zdd[i], b->zd[i], b->zdd[i]);
        o->zdd[i] = (1.0 - th) * a->zdd[i] + th * b->zdd[i];
    }
    HS_UNROLL
    for (i = 0; i < HS_N(m, ncon); ++i) o->lambda[i] = (1.0 - th) * a->lambda[i] + th * b->lambda[i];
    HS_UNROLL
    for (i = 0; i < HS_N(m, nvol); ++i) {
        o->p[i] = HS_HERMITE(a->p[i], a->pd[i], b->p[i], b->pd[i]);
        o->pd[i] = (1.0 - th) * a->pd[i] + th * b->pd[i];
    }
    HS_UNROLL
    for (i = 0; i < HS_N(m, nfs); ++i) {
        o->fs[i] = HS_HERMITE(a->fs[i], a->fsd[i], b->fs[i], b->fsd[i]);
        o->fsd[i] = (1.0 - th) * a->fsd[i] + th * b->fsd[i];
    }
    HS_UNROLL
    for (i = 0; i < HS_N(m, ndcv); ++i)
        o->U[i] = HS_HERMITE(a->U[i], hs_spool_rate(m, i, a->U[i], a->t, 1), b->U[i],
                             hs_spool_rate(m, i, b->U[i], b->t, -1));
    HS_UNROLL
    for (i = 0; i < HS_N(m, ncyl); ++i) {
        o->W_cyl[i] = HS_HERMITE(a->W_cyl[i], a->P_cyl[i], b->W_cyl[i], b->P_cyl[i]);
        o->P_cyl[i] = (1.0 - th) * a->P_cyl[i] + th * b->P_cyl[i];
    }
    o->W_ext = HS_HERMITE(a->W_ext, a->P_ext, b->W_ext, b->P_ext);
    o->P_ext = (1.0 - th) * a->P_ext + th * b->P_ext;
#undef HS_HERMITE
}

/* Solves Jf Jf^T y = r (ncon), Jf = Phi_z with the held columns removed, then dz = -Jf^T y:
 * the minimum-norm change of the free coordinates that cancels r to first order. A relative
 * regularisation of 1e-14 keeps redundant constraints (rank-deficient Jf) solvable. */
HS_HD static inline int hs_min_norm_correction(const hs_mview *m, hs_work *w, const double *r,
                                               double *dz)
{
    int nc = HS_N(m, ncon), n = HS_N(m, nz), a, b, i;
    double dmax = 0.0;
    for (a = 0; a < nc; ++a)
        for (b = 0; b < nc; ++b) {
            double s = 0.0;
            for (i = 0; i < n; ++i)
                if (!HS_I(m, joint_hold, i)) s += w->J[a * HS_CAP_Z + i] * w->J[b * HS_CAP_Z + i];
            w->lu.G[a * HS_CAP_G + b] = s;
        }
    for (a = 0; a < nc; ++a) {
        if (w->lu.G[a * HS_CAP_G + a] > dmax) dmax = w->lu.G[a * HS_CAP_G + a];
        w->y[a] = r[a];
    }
    if (!(dmax > 0.0)) return 1;
    if (hs_solve_regularised(w->lu.G, nc, HS_CAP_G, w->piv, w->y, 1e-14 * dmax)) return 1;
    for (i = 0; i < n; ++i) {
        double s = 0.0;
        if (!HS_I(m, joint_hold, i))
            for (a = 0; a < nc; ++a) s += w->J[a * HS_CAP_Z + i] * w->y[a];
        dz[i] = -s;
    }
    return 0;
}

/* Static equilibrium at the initial configuration (seed 004 Pub. I eqs. 53-54, seed 000 text
 * after eq. 45, done generically): with the mechanism at rest, the forces F_c of the cylinders
 * initialised "at equilibrium" and the multipliers lam satisfy
 *   Q0 + sum_c (ds_c/dz)^T F_c - Phi_z^T lam = 0      (nz equations),
 * Q0 being gravity, loads and the other cylinders. Solved in the least-squares sense
 * (normal equations, a relative 1e-14 regularisation for redundant constraints); a residual
 * above 1e-8 |Q0| means the cylinders cannot hold the mechanism and is flagged. Then each
 * cylinder's missing chamber pressure follows from F = p_p A_p - p_r A_r + F_d (friction is
 * zero at rest), and volumes joined by throttles (no flow at rest) share their pressure. */
HS_HD HS_NOINLINE static inline int hs_init_pressures(const hs_mview *m, hs_state *s, hs_work *w)
{
    int n = HS_N(m, nz), nc = HS_N(m, ncon), ne = 0, c, i, a, b, it, ceq[HS_CAP_CYLS], set[HS_CAP_VOLS];
    double F[HS_CAP_CYLS], M[HS_CAP_Z * HS_CAP_Z], Q0[HS_CAP_Z];
    for (c = 0; c < HS_N(m, ncyl); ++c) {
        F[c] = HS_D(m, cyl_init_F)[c];
        if (HS_I(m, cyl_init, c) == HS_CYLINIT_EQ_PROD || HS_I(m, cyl_init, c) == HS_CYLINIT_EQ_PPISTON)
            ceq[ne++] = c;
    }
    for (i = 0; i < HS_N(m, nvol); ++i) set[i] = 0;
    if (ne > 0) {
        int nu = ne + nc;
        double dmax = 0.0, rmax = 0.0, qmax = 0.0;
        /* Q0 (into w->r): gravity, loads and the cylinders not being solved for */
        hs_evaluate(m, s, 0.0, 1, s->z, s->zd, s->p, s->fs, s->U, w, M, Q0);
        for (i = 0; i < ne; ++i) w->hyd.F[ceq[i]] = 0.0;
        hs_q_total(m, w, Q0, w->r);
        hs_constraints_jac(m, &w->kin, w->J, HS_CAP_Z);
        /* A = [js^T | -J^T] (nz x nu): column u of A at row k */
#define HS_ACOL(u, k) ((u) < ne ? w->js[ceq[u]][(k)] : -w->J[((u) - ne) * HS_CAP_Z + (k)])
        for (a = 0; a < nu; ++a) {
            double r = 0.0;
            for (b = 0; b < nu; ++b) {
                double g = 0.0;
                for (i = 0; i < n; ++i) g += HS_ACOL(a, i) * HS_ACOL(b, i);
                w->lu.G[a * HS_CAP_G + b] = g;
            }
            for (i = 0; i < n; ++i) r -= HS_ACOL(a, i) * w->r[i];
            w->y[a] = r;
            if (w->lu.G[a * HS_CAP_G + a] > dmax) dmax = w->lu.G[a * HS_CAP_G + a];
        }
        if (!(dmax > 0.0) || hs_solve_regularised(w->lu.G, nu, HS_CAP_G, w->piv, w->y, 1e-14 * dmax)) {
            s->status |= HS_ST_EQUILIBRIUM;
            return s->status;
        }
        for (i = 0; i < n; ++i) {
            double r = w->r[i];
            for (a = 0; a < nu; ++a) r += HS_ACOL(a, i) * w->y[a];
            if (fabs(r) > rmax) rmax = fabs(r);
            if (fabs(w->r[i]) > qmax) qmax = fabs(w->r[i]);
        }
#undef HS_ACOL
        if (!(rmax <= 1e-8 * (1.0 + qmax))) {
            s->status |= HS_ST_EQUILIBRIUM;
            return s->status;
        }
        for (i = 0; i < ne; ++i) F[ceq[i]] = w->y[i];
    }
    for (c = 0; c < HS_N(m, ncyl); ++c) {
        int vp = HS_I(m, cyl_vol_p, c), vr = HS_I(m, cyl_vol_r, c), mode = HS_I(m, cyl_init, c);
        double Ap = HS_D(m, cyl_Ap)[c], Ar = HS_D(m, cyl_Ar)[c];
        double Fd = hs_end_damper(m, c, HS_D(m, cyl_l_p0)[c], HS_D(m, cyl_stroke)[c] - HS_D(m, cyl_l_p0)[c], 0.0);
        if (mode == HS_CYLINIT_PRESSURES) continue;
        if (mode == HS_CYLINIT_EQ_PPISTON) {
            s->p[vp] = HS_D(m, cyl_init_p)[c];
            s->p[vr] = (s->p[vp] * Ap - F[c] + Fd) / Ar;
        } else { /* rod-side pressure given: equilibrium or prescribed force */
            s->p[vr] = HS_D(m, cyl_init_p)[c];
            s->p[vp] = (F[c] + s->p[vr] * Ar - Fd) / Ap;
        }
        if (!(s->p[vp] >= 0.0) || !(s->p[vr] >= 0.0)) {
            s->status |= HS_ST_EQUILIBRIUM; /* holding it would need a negative pressure */
            return s->status;
        }
        set[vp] = set[vr] = 1;
    }
    for (it = 0; it < HS_N(m, nvol); ++it) /* throttles carry no flow at rest: equal pressures */
        for (i = 0; i < HS_N(m, nthr); ++i) {
            a = HS_I(m, thr_a, i);
            b = HS_I(m, thr_b, i);
            if (a >= HS_N(m, nvol) || b >= HS_N(m, nvol) || set[a] == set[b]) continue;
            if (set[a]) s->p[b] = s->p[a];
            else s->p[a] = s->p[b];
            set[a] = set[b] = 1;
        }
    return 0;
}

/* Initial state: z0 with the loop closure solved to rounding level (held joints stay at z0),
 * velocities made consistent (Phi_z zd = 0) the same way, and accelerations and multipliers
 * from the acceleration-level augmented Lagrangian iteration
 *   (M + alpha J^T J) zdd = Q - J^T (lam + alpha c),  lam += alpha (J zdd + c),
 * which also tolerates redundant constraints. Returns s->status. */
HS_HD HS_NOINLINE static inline int hs_init(const hs_mview *m, hs_state *s, hs_work *w)
{
    int n = HS_N(m, nz), nc = HS_N(m, ncon), i, e, it;
    s->t = 0.0;
    s->step = 0;
    s->status = 0;
    s->warn = 0;
    s->iters = s->iters_max = 0;
    s->iters_total = 0;
    s->W_ext = 0.0;
    w->tan_ok = 0;
    w->kin_x = 0;
    w->tan_h = 0.0;
    w->it_step = 0;
#if HS_TRIG_CACHE
    hs_trig_start(&w->trig);
#endif
#if HS_WORK_HIST
    w->hist.h = 0.0; /* no rate history before the first step */
#endif
    for (i = 0; i < n; ++i) {
        s->z[i] = HS_D(m, joint_z0)[i];
        s->zd[i] = HS_D(m, joint_zd0)[i];
        s->zdd[i] = 0.0;
    }
    for (e = 0; e < nc; ++e) s->lambda[e] = 0.0;
    if (nc > 0) {
        double best = 1e300;
        for (it = 0; it < 60; ++it) {
            double pm = 0.0;
            hs_kin_positions(m, s->z, &w->kin);
            hs_constraints_phi(m, &w->kin, w->phi);
            for (e = 0; e < nc; ++e)
                if (fabs(w->phi[e]) > pm) pm = fabs(w->phi[e]);
            if (!(pm == pm)) break;
            /* stop at rounding level: no further decrease */
            if (pm == 0.0 || (pm >= 0.5 * best && pm < 1e-12)) {
                best = pm < best ? pm : best;
                break;
            }
            if (pm < best) best = pm;
            hs_constraints_jac(m, &w->kin, w->J, HS_CAP_Z);
            if (hs_min_norm_correction(m, w, w->phi, w->dx)) break;
            for (i = 0; i < n; ++i) s->z[i] += w->dx[i];
        }
        if (!(best <= 1e-9)) {
            s->status |= HS_ST_GEOMETRY;
            return s->status;
        }
        hs_kin_positions(m, s->z, &w->kin);
        hs_constraints_jac(m, &w->kin, w->J, HS_CAP_Z);
        for (it = 0; it < 3; ++it) { /* consistent velocities, with one refinement */
            for (e = 0; e < nc; ++e) {
                double q = 0.0;
                for (i = 0; i < n; ++i) q += w->J[e * HS_CAP_Z + i] * s->zd[i];
                w->r[e] = q;
            }
            if (hs_min_norm_correction(m, w, w->r, w->dx)) {
                s->status |= HS_ST_GEOMETRY;
                return s->status;
            }
            for (i = 0; i < n; ++i) s->zd[i] += w->dx[i];
        }
    }
    /* hydraulic states: spools, friction states, cylinder reference lengths, pressures */
    hs_kin_positions(m, s->z, &w->kin);
    hs_kin_velocities(m, s->zd, &w->kin);
    w->alpha = hs_penalty(m, w);
    for (i = 0; i < HS_N(m, ndcv); ++i) s->U[i] = HS_D(m, dcv_U0)[i];
    for (i = 0; i < HS_N(m, nfs); ++i) s->fs[i] = s->fsd[i] = 0.0;
    for (i = 0; i < HS_N(m, nvol); ++i) s->p[i] = HS_D(m, vol_p0)[i];
    for (i = 0; i < HS_N(m, ncyl); ++i) {
        hs_cylinder_geometry(m, &w->kin, i, &w->hyd);
        s->s0[i] = w->hyd.s[i];
        s->W_cyl[i] = 0.0;
    }
    if (HS_N(m, ncyl) > 0 && hs_init_pressures(m, s, w)) return s->status;
    if (hs_consistent_rates(m, s, w, 0.0)) return s->status;
    hs_constraints_phi(m, &w->kin, w->phi); /* w now describes s: hs_observe_current */
    hs_cavitation_check(m, s);
    s->ds_dep = 0;
    s->ds_row = 0u;
    s->ds_repart = 0;
    if (hs_double_step(m) && hs_ds_partition(m, s, w, 1)) {
        s->status |= HS_ST_GEOMETRY;
        return s->status;
    }
    return 0;
}

/* Observables of the state s from what w holds for it (kinematics with velocities, Phi,
 * Phi_z, hydraulics), as hs_init and an accepted hs_step leave it: nothing is recomputed
 * but the energies and the norms. */
HS_HD static inline void hs_observe_current(const hs_mview *m, const hs_state *s, const hs_work *w, hs_obs *o)
{
    int e, i;
    double p2 = 0.0, v2 = 0.0;
    hs_energy(m, &w->kin, &o->Ekin, &o->Epot);
    HS_UNROLL
    for (e = 0; e < HS_N(m, ncon); ++e) {
        double q = 0.0;
        HS_UNROLL
        for (i = 0; i < HS_N(m, nz); ++i) q += w->J[e * HS_CAP_Z + i] * s->zd[i];
        p2 += w->phi[e] * w->phi[e];
        v2 += q * q;
    }
    o->phi_norm = sqrt(p2);
    o->phid_norm = sqrt(v2);
    o->W_cyl = 0.0;
    HS_UNROLL
    for (i = 0; i < HS_N(m, ncyl); ++i) {
        o->s[i] = w->hyd.s[i];
        o->sd[i] = w->hyd.sd[i];
        o->F[i] = w->hyd.F[i];
        o->Ffric[i] = w->hyd.Ffric[i];
        o->W_cyl += s->W_cyl[i];
    }
}

/* Energies and constraint violation of any state s: its kinematics, Phi, Phi_z and
 * hydraulics recomputed into w, then hs_observe_current. */
HS_HD static inline void hs_observe(const hs_mview *m, const hs_state *s, hs_work *w, hs_obs *o)
{
    hs_kin_positions(m, s->z, &w->kin);
    hs_kin_velocities(m, s->zd, &w->kin);
    hs_constraints_phi(m, &w->kin, w->phi);
    hs_constraints_jac(m, &w->kin, w->J, HS_CAP_Z);
    if (HS_N(m, ncyl) > 0) hs_hydraulics(m, &w->kin, s->p, s->fs, s->U, s->s0, &w->hyd);
    hs_observe_current(m, s, w, o);
}

#endif
