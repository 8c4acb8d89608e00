/* hs_state.h -- what one instance's time integration keeps and works in: the per-instance
 * state (hs_state: positions, velocities, accelerations, multipliers, pressures, friction
 * states, spools, works, counters and status bits), the adaptive controller's data (hs_ctrl,
 * hs_hist), the scratch of a step (hs_work), the observables of a state (hs_obs), the linear
 * solver every stage calls (HS_LU_*), and which scheme a model selects (formulation, method).
 *
 * The integrator's stages, one header each, in the order they include one another:
 *   hs_state.h       data, status bits (hs_status.h), scratch, observables
 *   hs_residual.h    the residual of the trapezoidal rule and its tangent
 *   hs_double_step.h the double-step formulation's residual and tangent
 *   hs_newton.h      the Newton iteration: full and modified, convergence, failure diagnosis
 *   hs_trapezoid.h   one step of the seeds' scheme: spans, predictor, projections, finish
 *   hs_esdirk.h      the ESDIRK tables and one attempt of an ESDIRK step
 *   hs_adapt.h       error norms, the step-size controller, one adaptive step, dense output
 *   hs_i1al.h        the co-simulation's index-1 augmented Lagrangian mechanical step
 *   hs_cosim.h       co-simulation of the mechanism and the hydraulics; hs_step
 *   hs_init.h        the consistent initial state
 *   hs_integrator.h  all of them
 *
 * Everything here is HS_HD: the CPU reference, the OpenMP batch and the CUDA kernel run this
 * code. No allocation: the caller owns hs_state (the per-instance data) and hs_work (scratch).
 * A step that fails (iteration limit, NaN/Inf, singular matrix, constraint blow-up) leaves
 * the state at the last good step and sets a status bit; the caller freezes the instance. */
#ifndef HS_STATE_H
#define HS_STATE_H

#include "hs_dynamics.h"
#include "hs_constraints.h"
#include "hs_hydraulics.h"
#include "hs_status.h"

/* The dense LU of the Newton, projection, acceleration and loop-closure systems. A
 * translation unit may define HS_LU_FACTOR, HS_LU_SOLVE, HS_LU_SOLVE_T and HS_LU_PIVOT before
 * including this header to solve with another library (the reference backend uses LAPACK's
 * dgetrf/dgetrs: host/engine/backend_reference.c, which so cross-checks hs_linalg.h). Same
 * signatures as hs_lu_factor / hs_lu_solve / hs_lu_solve_t of hs_linalg.h; HS_LU_PIVOT(LU,
 * lda, k) is the k-th pivot u_kk of a factorisation (hs_lu_factor keeps 1/u_kk). */
#ifndef HS_LU_FACTOR
#define HS_LU_FACTOR hs_lu_factor
#define HS_LU_SOLVE hs_lu_solve
#define HS_LU_SOLVE_T hs_lu_solve_t
#define HS_LU_PIVOT(LU, lda, k) (1.0 / (LU)[(k) * (lda) + (k)])
/* Modified Newton's tangent, solved with at every iteration of many steps, is inverted once
 * (hs_lu_invert) and multiplied by: a product with the inverse has no dependency chain
 * through the unknowns, which a back substitution has (bench/results: the seed 003 cycle with
 * modified Newton ran faster on one core). (The projection matrix, solved with about five
 * times per step, gained nothing measurable.) A translation unit with another library's LU
 * (the reference backend: LAPACK) solves with its factors. */
#define HS_LU_INVERSE 1
#else
#define HS_LU_INVERSE 0
#endif

/* Constraint violation (max |Phi|, m or rad) beyond which an instance is flagged: the
 * penalty method keeps Phi near rounding level, so this only trips on a real failure. */
#define HS_PHI_BLOWUP 1e-3

/* The hydraulic energy audit's three works (hs_state.W_hyd, kernels/hs_energy.h): energy taken
 * in, dissipated, stored in the fluid. */
enum { HS_PW_IN = 0, HS_PW_LOSS = 1, HS_PW_STORE = 2, HS_NPW = 3 };

/* The double-step partition's bit masks (hs_double_step.h), as narrow as the build's sizes
 * allow: a seed model's (nz <= 16, ncon <= 32) stay 4 + 2 B, as before the sizes grew. */
#if HS_CAP_CON <= 32 && HS_CAP_Z <= 32
typedef unsigned int hs_ds_mask;
#else
typedef unsigned long long hs_ds_mask;
#endif
#if HS_CAP_Z <= 16
typedef unsigned short hs_ds_zmask;
#else
typedef unsigned int hs_ds_zmask;
#endif

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
#if HS_MOT_ON
    double W_mot; /* work of all hydraulic motors on the mechanism since t = 0, J */
    double P_mot; /* their power sum T_j zdot_j at t, W */
#endif
#if HS_AUDIT_ON
    double W_hyd[HS_NPW]; /* the hydraulic energy audit since t = 0 (hs_energy.h): energy taken in
                        (sources, pump shafts), dissipated, stored in the fluid, J */
    double P_hyd[HS_NPW]; /* their powers at t, W */
#endif
    int status; /* enum hs_status_bits, 0 = fine (failures: the instance stops) */
    int warn; /* warning bits (HS_ST_WARNINGS): the instance goes on */
    int iters; /* Newton iterations of the last step (all its sub-steps) */
    int iters_max; /* largest per-step count so far */
    long iters_total; /* sum over all steps (and, with adaptive steps, their rejected attempts) */
    /* the double-step formulation's partition (hs_double_step.h; 0 with the penalty one), in 8 B:
     * the seed 003 four-bar's state then stays within the 256 B per thread that the specialised
     * GPU kernel keeps in shared memory (hs_spec_entry.h) */
    hs_ds_mask ds_row; /* bit e set when constraint row e fixes the dependent coordinates */
    hs_ds_zmask ds_dep; /* bit i set when z_i is a dependent coordinate */
    unsigned short ds_repart; /* partitions chosen again since t = 0 (saturates at 65535) */
} hs_state;
typedef char hs_check_ds_dep[HS_CAP_Z <= 32 && HS_CAP_CON <= 64 ? 1 : -1];

/* A co-simulated instance's exchange data (kernels/hs_cosim.h): the communicated history of
 * the mechanics' outputs that the hydraulics extrapolates, the inputs each side holds over the
 * current communication step, and the energy residuals of the power bonds (one per cylinder:
 * force and rod rate; Pub. III Sects. 2.2-2.3). Present in every generic build and in a
 * specialised one whose sweep co-simulates (HS_SPEC_COSIM): 440 B for two cylinders. */
#if !defined(HS_SPEC) || defined(HS_SPEC_COSIM)
#define HS_COSIM_ON 1
#else
#define HS_COSIM_ON 0
#endif
#define HS_CEXT_NHIST (HS_CEXT_MAX_ORDER + 1)
typedef struct hs_cosim {
    int hold; /* during the mechanical step: 1 pressures and friction states held (their rates
                 0), 2 the cylinder forces F_in as well; 0 otherwise (hs_cosim_hold) */
    int nh; /* communication points in the history (<= HS_CEXT_NHIST) */
    double th[HS_CEXT_NHIST]; /* their times, the newest first, s (nhist) */
    double sh[HS_CEXT_NHIST][HS_CAP_CYLS]; /* the mechanics' s there, m (nhist x ncyl) */
    double sdh[HS_CEXT_NHIST][HS_CAP_CYLS]; /* and sdot, m/s (nhist x ncyl) */
    double sdd[HS_CAP_CYLS]; /* sddot at the newest point, for I2 (ncyl) */
    double uh[HS_CEXT_NHIST][HS_CAP_VOLS + HS_CAP_FS]; /* the hydraulics' outputs there: the
                                 cylinder forces (ncyl) or the pressures and friction states
                                 (nvol + nfs) with the pressures exchanged (nhist x nu) */
    double F_in[HS_CAP_CYLS]; /* the force the mechanics holds at the end of the step: the
                                 cylinder force, or the pressure force p1 A1 - p2 A2 (exchange
                                 pressures), extrapolated, N (ncyl) */
    double P_res[HS_CAP_CYLS]; /* residual power of each bond at the newest point, W (ncyl) */
    double E_res[HS_CAP_CYLS]; /* sum over the steps of |delta E| of each bond, J (ncyl) */
} hs_cosim;

/* The rates at the start of the last accepted step and its size: the history that the
 * predictor one Taylor degree higher (hs_step_prologue) and the adaptive local error estimate
 * (hs_local_error) need. */
typedef struct hs_hist {
    double h; /* the last accepted step, 0 after a (re)start: no rate history yet */
    double zdd[HS_CAP_Z], pd[HS_CAP_VOLS], fsd[HS_CAP_FS]; /* (nz), (nvol), (nfs) */
} hs_hist;

/* Before a step: each ball joint's rotation vector (hs_rotvec.h) beyond 5/4 pi changes its
 * chart, with its rate and acceleration, so that no step nears the map's singularity at 2 pi.
 * At the start of a step, not the end of the last: a step's two ends (an adaptive step's
 * dense output interpolates between them) are in one chart. A rate history (hs_hist) of the
 * old chart is forgotten. A rotation vector beyond 7/4 pi means the last step turned the joint
 * by more than pi/2 from at most 5/4 pi, close to the singularity: the instance fails with
 * HS_ST_SINGULAR_CONFIG (a smaller dt passes). Returns 1 when a chart changed. */
HS_HD static inline int hs_ball_rechart(const hs_mview *m, hs_state *s, hs_hist *hist)
{
    int changed = 0;
#if HS_CAP_BALL
    int j;
    HS_UNROLL
    for (j = 0; j < HS_N(m, nbody); ++j)
        if (HS_I(m, joint_ball, j) == 1) {
            const double *p = s->z + j, lim = 1.75 * HS_PI;
            if (p[0] * p[0] + p[1] * p[1] + p[2] * p[2] > lim * lim) {
                s->status |= HS_ST_SINGULAR_CONFIG;
                return 0;
            }
            changed |= hs_rotvec_shadow(s->z + j, s->zd + j, s->zdd + j);
        }
    if (changed && hist) hist->h = 0.0;
#else
    (void)m;
    (void)s;
    (void)hist;
#endif
    return changed;
}

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
#if HS_COSIM_ON
    hs_cosim cs; /* co-simulation (hs_cosim.h) */
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
    double W_cyl; /* sum of the actuators' work (cylinders and motors), J */
    double s[HS_CAP_CYLS], sd[HS_CAP_CYLS], F[HS_CAP_CYLS], Ffric[HS_CAP_CYLS]; /* (ncyl) */
#if HS_COSIM_ON
    double P_res[HS_CAP_CYLS], E_res[HS_CAP_CYLS]; /* co-simulation's residuals, W and J (ncyl) */
#endif
} hs_obs;

HS_HD static inline int hs_isfinite(double v)
{
    return v == v && v - v == 0.0;
}

/* The co-simulation's mechanical step holds the hydraulics (hs_cosim.h): after an evaluation of
 * the hydraulics into w->hyd, the pressure and friction-state rates are zeroed (the trapezoidal
 * rule then keeps the held values: x = p) and, with the force exchanged, the cylinder forces
 * are the held input. Nothing otherwise. */
HS_HD static inline void hs_cosim_hold(const hs_mview *m, hs_work *w)
{
#if HS_COSIM_ON
    int i;
    if (!w->cs.hold) return;
    for (i = 0; i < HS_N(m, nvol); ++i) w->hyd.h[i] = 0.0;
    for (i = 0; i < HS_N(m, nfs); ++i) w->hyd.fsd[i] = 0.0;
    if (w->cs.hold == 2)
        for (i = 0; i < HS_N(m, ncyl); ++i) w->hyd.F[i] = w->cs.F_in[i];
#else
    (void)m;
    (void)w;
#endif
}

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

/* Observables of the state s from what w holds for it (kinematics with velocities, Phi,
 * Phi_z, hydraulics), as hs_init and an accepted hs_step leave it: nothing is recomputed
 * but the energies and the norms. */
HS_HD static inline void hs_observe_current(const hs_mview *m, const hs_state *s, const hs_work *w, hs_obs *o)
{
    int e, i;
    double p2 = 0.0, v2 = 0.0;
    hs_energy(m, &w->kin, s->t, &o->Ekin, &o->Epot);
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
#if HS_COSIM_ON
        o->P_res[i] = w->cs.P_res[i]; /* zero unless co-simulated (hs_init) */
        o->E_res[i] = w->cs.E_res[i];
#endif
    }
#if HS_MOT_ON
    o->W_cyl += s->W_mot;
#endif
}

/* Energies and constraint violation of any state s: its kinematics, Phi, Phi_z and
 * hydraulics recomputed into w, then hs_observe_current. */
HS_HD static inline void hs_observe(const hs_mview *m, const hs_state *s, hs_work *w, hs_obs *o)
{
    hs_kin_positions(m, s->z, &w->kin);
    hs_kin_velocities(m, s->zd, &w->kin);
    hs_constraints_phi(m, &w->kin, w->phi);
    hs_constraints_jac(m, &w->kin, w->J, HS_CAP_Z);
    if (HS_N(m, ncyl) > 0 || HS_N(m, nmot) > 0) hs_hydraulics(m, &w->kin, s->p, s->fs, s->U, s->s0, &w->hyd);
    hs_observe_current(m, s, w, o);
}

#endif
