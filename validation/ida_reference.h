/* ida_reference.h -- an independent reference solution for planar models: SUNDIALS IDA on
 * the textbook index-1 DAE of the mechanism in ABSOLUTE planar coordinates (one
 * q_j = (x_j, y_j, theta_j) of centre of mass and absolute angle per body, constant mass
 * matrix, joints as holonomic constraints with multipliers; e.g. Nikravesh, Computer-Aided
 * Analysis of Mechanical Systems, 1988, ch. 6 and 13; Haug, Computer Aided Kinematics and
 * Dynamics of Mechanical Systems, 1989, ch. 6).
 *
 * It shares none of our kinematics, dynamics or constraint code (kernels/hs_kinematics.h,
 * hs_dynamics.h, hs_constraints.h): the model is read from the flat hs_model and rebuilt with
 * plain planar trigonometry in ida_reference.c. Only two things are taken from the engine,
 * on purpose: the consistent initial joint coordinates and velocities of hs_init (so both
 * solvers start from the same state: for closed loops hs_init solves the loop closure), and
 * hs_signal_eval (the definition of a load signal, not a numerical method).
 *
 * Hydraulics (seed 000 Sect. 3; seed 004 Pub. I): volumes (pressure states), constant
 * sources, throttles, 4/3 directional valves (spool position U as an ODE state
 * U' = (U_ref - U)/tau), double-acting cylinders between two bodies (or a body and ground)
 * with any friction model of enum hs_friction (dynamic friction states as differential
 * states) and end dampers, and the components of hydraulics.components (relief and check
 * valves, pumps, accumulators; kernels/hs_components.h). The circuit, the cylinder geometry
 * from the absolute coordinates, the pressure equations and the force application are
 * written in ida_reference.c; the component laws (hs_orifice_flow, hs_friction_force,
 * hs_end_damper, those of hs_components.h) and hs_init's initial hydraulic state (p, U, fs,
 * s0: the static-equilibrium start) come from the engine.
 *
 * Scope: planar models only -- every revolute joint axis and every cut axis parallel to the
 * global z axis once rotated, every rot0 a rotation about z, every prismatic axis in the
 * plane; revolute and prismatic tree joints; revolute_planar and prismatic_planar cuts;
 * gravity; external loads (force and torque, global or body frame) with piecewise-linear
 * signals. Anything else is rejected with a message. Out-of-plane components (gravity or
 * load forces along z, torques about x or y) are taken by the out-of-plane reactions, do no
 * work and are ignored, as in any planar analysis (a cylinder whose ends sit at different z
 * keeps that constant offset in its length; the z part of its force is dropped likewise).
 *
 * The validation programs' harness helpers (running OUR integrator and sampling it at fixed
 * output times, error norms) are declared at the end; they are not part of the reference. */
#ifndef HS_IDA_REFERENCE_H
#define HS_IDA_REFERENCE_H

#include <stddef.h>

#include "hs/model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Options of the reference solve (hs_ida_opts_default fills the defaults). */
typedef struct hs_ida_opts {
    double rtol; /* IDA relative tolerance (default 1e-11) */
    double atol_q; /* absolute tolerance on positions and angles, m or rad (default 1e-13) */
    double atol_v; /* absolute tolerance on velocities, m/s or rad/s (default 1e-12) */
    long max_steps; /* IDASetMaxNumSteps per output interval (default 1e7) */
    double atol_p; /* absolute tolerance on pressures, Pa (default 1e-3) */
    double atol_U; /* ... on spool positions, V (default 1e-10) */
    double atol_fs; /* ... on friction states (default 1e-13) */
} hs_ida_opts;

/* What the reference solve measured. */
typedef struct hs_ida_stats {
    double phi_max; /* max |Phi| over the output times, all constraints (m or rad) */
    double phid_max; /* max |Phi_q v| over the output times (m/s or rad/s) */
    double E0; /* E_kin + E_pot at t = 0, J (E_pot = -sum m g . x_com) */
    double dE_max; /* max |E_kin + E_pot - W_ext - E0| over the output times, J */
    long nsteps; /* IDA steps */
    long nres; /* residual evaluations */
    int nsegments; /* restarts at signal knots + 1 */
    int ncoord; /* absolute coordinates 3 nbody */
    int ncon; /* constraint equations of the absolute formulation */
    int nhyd; /* hydraulic unknowns: nvol + ndcv + nfs + 1 (W_cyl), 0 for a pure mechanism */
    double s0_mismatch; /* max |s(t = 0) - hs_init's s0| over the cylinders, m (geometry) */
    double p_min, p_max; /* extreme pressures over the output times, Pa */
    double acc0_max; /* max |v'| at t = 0 over the absolute coordinates (m/s^2, rad/s^2): ~0
                      * for a start at static equilibrium */
} hs_ida_stats;

/* Outputs of hs_ida_planar_hyd_solve at the output times, row-major (ntimes rows); any
 * pointer may be NULL. */
typedef struct hs_ida_out {
    double *z, *zd; /* relative joint coordinates and rates (ntimes x nz), as hs_state.z */
    double *p; /* volume pressures, Pa (ntimes x nvol) */
    double *U; /* spool positions, V (ntimes x ndcv) */
    double *s, *sd; /* cylinder lengths |r_b - r_a|, m, and rates, m/s (ntimes x ncyl) */
    double *F; /* net cylinder forces pushing the ends apart, N (ntimes x ncyl) */
    double *fs; /* friction states (ntimes x nfs) */
    double *W_cyl; /* work of all cylinders on the mechanism since t = 0, J (ntimes) */
    double *E; /* E_kin + E_pot - W_ext - W_cyl (constant for an exact solution), J (ntimes) */
} hs_ida_out;

void hs_ida_opts_default(hs_ida_opts *o);

/* 0 when the model is planar in the sense above and uses only supported elements, else 1
 * with the reason in errmsg (n bytes). */
int hs_ida_planar_check(const hs_model *m, char *errmsg, size_t n);

/* Integrates the model from t = 0 (initial state: hs_init's z and zd, mapped to absolute
 * coordinates) and samples it at times[0..ntimes) (non-decreasing, >= 0).
 *   z_out   (ntimes x nz, row-major): the RELATIVE joint coordinates recovered from the
 *           absolute solution (the same z as hs_state.z), or NULL;
 *   zd_out  (ntimes x nz): their rates, or NULL;
 *   E_out   (ntimes): E_kin + E_pot - W_ext - W_cyl (constant for an exact solution), or NULL;
 *   opts    NULL for the defaults; stats may be NULL.
 * Returns 0 on success, else 1 with the reason in errmsg. */
int hs_ida_planar_solve_ex(const hs_model *m, const hs_ida_opts *opts, const double *times,
                           int ntimes, double *z_out, double *zd_out, double *E_out,
                           hs_ida_stats *stats, char *errmsg, size_t n);

/* The same for models with hydraulics (and without): outputs as described at hs_ida_out
 * (out may be NULL); stats.dE_max then measures E_kin + E_pot - W_ext - W_cyl. Returns 0 on
 * success, else 1 with the reason in errmsg. hs_ida_planar_solve_ex is this with z, zd, E. */
int hs_ida_planar_hyd_solve(const hs_model *m, const hs_ida_opts *opts, const double *times,
                            int ntimes, const hs_ida_out *out, hs_ida_stats *stats,
                            char *errmsg, size_t n);

/* The short form: default options, z_out as above, *phi_max_out = max |Phi| (may be NULL). */
int hs_ida_planar_solve(const hs_model *m, const double *times, int ntimes, double *z_out,
                        double *phi_max_out, char *errmsg, size_t n);

/* ---- validation harness (OUR engine side; not part of the reference) ---- */

/* Runs our integrator (hs_simulate, CPU reference path) with the model's dt and t_end and
 * samples z at t = k * out_dt, k = 0..nout-1 (out_dt must be a multiple of dt) into z_out
 * (nout x nz). Returns 0 when all nout samples were taken, else 1 with the reason. Optional
 * *phi_max: max ||Phi||_2 of the run. */
int hs_val_run_engine(const hs_model *m, double out_dt, int nout, double *z_out,
                      double *phi_max, char *errmsg, size_t n);

/* Samples of our engine's run (row-major, nout rows; any pointer may be NULL). */
typedef struct hs_val_out {
    double *z, *zd; /* (nout x nz) */
    double *p; /* pressures, Pa (nout x nvol) */
    double *U; /* spool positions, V (nout x ndcv) */
    double *s; /* cylinder lengths, m (nout x ncyl) */
    double *W_cyl; /* sum of the cylinders' work, J (nout) */
} hs_val_out;

typedef struct hs_val_stats {
    double phi_max; /* max ||Phi||_2 of the run */
    double mean_iters; /* Newton iterations per step */
    int max_iters;
    long steps;
    long rejected; /* adaptive steps: attempts rejected */
} hs_val_stats;

/* hs_val_run_engine with every sampled quantity of hs_val_out; st may be NULL. */
int hs_val_run_engine_hyd(const hs_model *m, double out_dt, int nout, const hs_val_out *o,
                          hs_val_stats *st, char *errmsg, size_t n);

/* max over k in [k0, k1) of |a[k*stride + col] - b[k*stride + col]| */
double hs_val_max_abs_diff(const double *a, const double *b, int stride, int col, int k0,
                           int k1);

#ifdef __cplusplus
}
#endif

#endif
