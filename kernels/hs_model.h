/* hs_model.h -- the immutable model shared by every instance of a run (the public API
 * exposes it as include/hs/model.h).
 *
 * A model is one flat, pointer-free block (so it is copied to the device with one memcpy):
 * sizes, tree topology, body inertia, joints, cut-joint constraint equations, named points,
 * external loads, piecewise-linear signals and integrator settings. Arrays are sized by the
 * HS_MAX_* limits of kernels/hs_hd.h; only the first n<thing> entries are meaningful.
 *
 * Conventions (docs/model-format.md):
 *  - Body j has a frame with rotation A_j (body -> global) and origin p_j (global); a point
 *    with body coordinates c is at p_j + A_j c.
 *  - Bodies are numbered so that a parent precedes its children (the loader sorts them).
 *    Joint j connects body j to body_parent[j] (-1: ground) and has coordinate z_j.
 *  - Revolute joint: A_j = A_parent * Rot(axis, z_j) * rot0, and the joint point at_parent
 *    (parent frame) coincides with at_child (child frame).
 *    Prismatic joint: A_j = A_parent * rot0, and at_child sits at at_parent + axis * z_j.
 *  - Cut joints are stored as scalar constraint equations of two kinds (seed 000 Sect. 2.2):
 *      HS_CON_DD: phi = (A_a u) . (A_b v)                   (direction vs direction)
 *      HS_CON_DP: phi = (A_b v) . (r_a(pa) - r_b(pb))        (direction vs point offset)
 *    and a nonholonomic cut is one equation linear in the velocities (seed 001 eq. 11):
 *      HS_CON_NH: B zdot = (A_b v) . (vel_b(r_b(pb)) - vel_a(r_b(pb))) = 0
 *    (the point pb of body b does not slide along v relative to body a: a knife edge).
 *    Body index -1 is ground (identity frame). hs_model_derive maps every cut kind onto these.
 *  - All values are SI (m, kg, s, rad, N, Pa); the loader converts unit suffixes.
 */
#ifndef HS_MODEL_H
#define HS_MODEL_H

#include "hs_hd.h"
#include "hs_test_input.h"
#include "hs_components.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Ball joints (3 rotational degrees of freedom): in hs_tree (kernels/hs_tree.h) one joint with a
 * quaternion, for the Riccati method; in a model's spanning tree (the semi-recursive
 * formulation) three consecutive bodies of type HS_JOINT_BALL, each with one coordinate of the
 * rotation vector (kernels/hs_rotvec.h): two massless bodies in the parent's frame and the
 * child, which carries the rotation (joint_ball, hs_kin_positions_tc). One coordinate per body
 * keeps the formulation's one-coordinate-per-joint structure: the velocity columns b, the
 * composite inertias and the integrators see three joints. */
enum hs_joint_type { HS_JOINT_REVOLUTE = 0, HS_JOINT_PRISMATIC = 1, HS_JOINT_BALL = 2 };

/* How a body's centre of mass and inertia are obtained (hs_model_derive). Shapes lie along
 * the body's local x axis starting at the body origin, except cuboid and point, which are
 * centred at the origin. */
enum hs_shape {
    HS_SHAPE_CUSTOM = 0, /* com and inertia given explicitly */
    HS_SHAPE_ROD = 1, /* slender rod, length dim[0]: I = m L^2/12 about y and z */
    HS_SHAPE_BEAM = 2, /* rectangular beam, length dim[0], section dim[1] x dim[2] */
    HS_SHAPE_CUBOID = 3, /* box dim[0] x dim[1] x dim[2] centred at the origin */
    HS_SHAPE_POINT = 4 /* point mass at com */
};

/* HS_CON_NH rows hold the velocity-level constraints: Phi_z's row is then B (seed 001 eq. 14)
 * and the position-level code (loop closure, statics of positions) skips them. */
enum hs_con_type { HS_CON_DD = 0, HS_CON_DP = 1, HS_CON_NH = 2 };

enum hs_cut_type {
    HS_CUT_REVOLUTE = 0, /* 3 point + 2 axis equations */
    HS_CUT_REVOLUTE_PLANAR = 1, /* 2 in-plane point equations */
    HS_CUT_PRISMATIC = 2, /* 2 line + 2 axis + 1 roll equations */
    HS_CUT_PRISMATIC_PLANAR = 3, /* 1 line + 1 direction equation */
    HS_CUT_NONHOLONOMIC = 4 /* 1 velocity equation: no sliding of at_b along axis_b */
};

enum hs_frame { HS_FRAME_GLOBAL = 0, HS_FRAME_BODY = 1 };

/* How a volume's pressure is computed (seed 004 Pub. II Sect. 3.2). */
enum hs_vol_model {
    HS_VOL_LUMPED = 0, /* p' = Be/V (inflows - dV/dt) (seed 000 eq. 22, Pub. II eqs. 27-29) */
    HS_VOL_SP = 1 /* singular perturbation: the limit V/Be -> 0 of the same equation (Pub. II
                     eq. 32), 0 = inflows, solved for p in the closed form of eqs. 33-34 (the
                     volume between a valve port and a throttle, turbulent flows) */
};

/* Seal friction models of a cylinder (seed 003 Sect. 3; seed 004 Pubs. II-III). */
enum hs_friction {
    HS_FRIC_NONE = 0,
    HS_FRIC_VISCOUS = 1, /* c sdot */
    HS_FRIC_BROWN_MCPHEE = 2, /* seed 003 eq. (24) */
    HS_FRIC_BENGISU_AKAY = 3, /* seed 003 eqs. (22)-(23), as printed */
    HS_FRIC_LUGRE = 4, /* seed 003 eqs. (25)-(27): bristle state q */
    HS_FRIC_LUGRE_MOD = 5, /* seed 003 eqs. (28)-(34): states q and film h */
    HS_FRIC_EFFICIENCY_PRINTED = 6, /* seed 004 Pub. II: (p1 A1 - p2 A2)(1 - eta) sdot, N m/s */
    HS_FRIC_EFFICIENCY = 7 /* physical: (1 - eta) |p1 A1 - p2 A2| tanh(sdot / v_eps) */
};

/* Indices into cyl_fp[c][.]: the named friction parameters. */
enum hs_fric_param {
    HS_FP_FC = 0, /* Coulomb force, N */
    HS_FP_FS, /* static force, N */
    HS_FP_VS, /* Stribeck velocity, m/s */
    HS_FP_SIGMA0, /* bristle stiffness, N/m */
    HS_FP_SIGMA1, /* bristle damping, N s/m */
    HS_FP_SIGMA2, /* viscous coefficient, N s/m */
    HS_FP_XI, /* Bengisu-Akay decay, s/m */
    HS_FP_N, /* LuGre Stribeck exponent */
    HS_FP_VB, /* modified LuGre: velocity of minimum friction, m/s */
    HS_FP_TAU_HP, /* film time constants: acceleration, deceleration, dwell, s */
    HS_FP_TAU_HN,
    HS_FP_TAU_H0,
    HS_FP_ETA, /* efficiency */
    HS_FP_C, /* viscous coefficient of the viscous model, N s/m */
    HS_FP_VEPS, /* velocity scale of the physical efficiency law, m/s */
    HS_FP_COUNT
};

/* How a cylinder's initial chamber pressures are set (hs_init). */
enum hs_cyl_init {
    HS_CYLINIT_PRESSURES = 0, /* the volumes' p0 as given */
    HS_CYLINIT_EQ_PROD = 1, /* static equilibrium, rod-side pressure given (cyl_init_value) */
    HS_CYLINIT_EQ_PPISTON = 2, /* static equilibrium, piston-side pressure given */
    HS_CYLINIT_FORCE = 3 /* prescribed initial force; rod-side pressure from cyl_init_p */
};

/* How hs_step solves the nonlinear system of each step (integrator.newton). */
enum hs_newton {
    HS_NEWTON_FULL = 0, /* a new tangent at every iteration: the seeds' Newton-Raphson */
    HS_NEWTON_MODIFIED = 1, /* the factorised tangent reused across iterations and steps while
                               it still contracts (hs_newton_solve) */
    HS_NEWTON_AUTO = 2 /* modified with adaptive ESDIRK steps, otherwise full (the seeds'
                          method and iteration counts; hs_newton_reuse) */
};

/* Where hs_step's Newton iteration of a fixed step starts (integrator.predictor). */
enum hs_predictor {
    HS_PRED_SEEDS = 0, /* the seeds' predictor: positions and velocities from the last step's
                          accelerations, pressures and friction states kept (seed 000 eq. 36;
                          the papers' iteration counts are for it) */
    HS_PRED_EXTRAPOLATED = 1, /* one Taylor degree higher, from the rates of the last two steps
                                 (hs_hist; fewer iterations on smooth stretches) */
    HS_PRED_AUTO = 2 /* extrapolated with modified Newton, the seeds' with full Newton */
};

/* How the loop closure enters the equations of motion (integrator.formulation; seed 000
 * Sect. 2). Both share the kinematics, dynamics and hydraulics stages and the trapezoidal
 * rule; they differ in the unknowns of the Newton iteration and in how the constraints hold. */
enum hs_formulation {
    HS_FORM_PENALTY = 0, /* index-3 augmented Lagrangian with projections (eqs. 18-21, 36):
                            every coordinate an unknown, the constraints held by the penalty */
    HS_FORM_DOUBLE_STEP = 1 /* coordinate partitioning (eqs. 13-17, 35): the independent
                               coordinates (full-pivot elimination on Phi_z) are the unknowns,
                               the dependent ones solved from Phi = 0 by an inner Newton
                               iteration (hs_double_step.h) */
};

/* How hs_step chooses its steps (integrator.step). */
enum hs_step_control {
    HS_STEP_FIXED = 0, /* steps of dt (sub-steps only at signal knots): the seeds' scheme */
    HS_STEP_ADAPTIVE = 1 /* per-instance steps under a local error estimate and a PI controller
                            (hs_step_adaptive); dt is then the output grid */
};

/* The integration formula of adaptive steps (integrator.method). Each is solved stage by
 * stage with the trapezoidal step's Newton iteration: an implicit stage of an ESDIRK method
 * has the trapezoidal rule's form with gamma h in place of h/2 and its own known terms
 * (hs_esdirk_attempt). */
enum hs_method {
    HS_METHOD_TRAPEZOIDAL = 0, /* the seeds' implicit trapezoidal rule (order 2) */
    HS_METHOD_ESDIRK3 = 1, /* Kennedy & Carpenter's ESDIRK3(2)4L[2]SA: 3 implicit stages,
                              order 3, embedded order 2, L-stable, stiffly accurate */
    HS_METHOD_ESDIRK4 = 2, /* their ESDIRK4(3)6L[2]SA: 5 implicit stages, order 4 */
    HS_METHOD_AUTO = 3 /* esdirk4 for adaptive steps of the penalty formulation, else the
                          trapezoidal rule (hs_method) */
};

/* How the mechanism and the hydraulics are integrated together (integrator.coupling; seed
 * 004 Pub. III Sect. 2, dissertation Sects. 2.3-2.4). */
enum hs_coupling {
    HS_COUPLE_MONOLITHIC = 0, /* one implicit system, one step (seed 004 Pub. I) */
    HS_COUPLE_COSIM = 1 /* two subsystems, each with its own integrator, exchanging values every
                           communication step H = dt in a non-iterative Jacobi scheme
                           (Pub. III Sects. 2.2-2.3; kernels/hs_cosim.h) */
};

/* The co-simulated mechanical subsystem's method (cosim.mechanics; Pub. III Sect. 3.1.3). */
enum hs_cosim_mech {
    HS_CMECH_I3AL_P = 0, /* the engine's index-3 augmented Lagrangian with projections and the
                            trapezoidal rule, one step of H (Pub. III eqs. 18-19) */
    HS_CMECH_I1AL = 1 /* the index-1 augmented Lagrangian with the accelerations as unknowns
                         (Pub. III eqs. 17a-17b) and the trapezoidal rule, one step of H, no
                         projections (kernels/hs_i1al.h) */
};

/* The co-simulated hydraulic subsystem's integrator (cosim.hydraulics), steps of h_hyd. */
enum hs_cosim_hyd {
    HS_CHYD_EULER = 0, /* forward Euler (Pub. III Table 3: FWE) */
    HS_CHYD_TRAPEZOIDAL = 1, /* the implicit trapezoidal rule (Table 3: TR), Newton iteration */
    HS_CHYD_RK4 = 2 /* the classical explicit Runge-Kutta method of order 4 */
};

/* What the hydraulics sends to the mechanics (cosim.exchange; dissertation Sect. 3.2). */
enum hs_cosim_exchange {
    HS_CEX_FORCE = 0, /* the cylinder force F (Pub. III eq. 30): evaluated by the hydraulics
                         with its extrapolated rod rate, a direct feed-through */
    HS_CEX_PRESSURES = 1 /* the chamber pressures p1, p2 (and friction states): the mechanics
                            evaluates eq. 30 with its own s, sdot (Pub. IV) */
};

/* How the hydraulics extrapolates its inputs s, sdot over a communication step
 * (cosim.extrapolation; Pub. III Sect. 3.3): Lagrange polynomials of order 0-4 through the
 * last m + 1 communicated values, or integration of the exchanged acceleration (I2). The
 * mechanics extrapolates its inputs (forces or pressures) to the end of its step by a
 * Lagrange polynomial of order cosim.mechanics_extrapolation, 0-4 (Pub. III Table 3: 0). */
#define HS_CEXT_INTEGRATE 5
#define HS_CEXT_MAX_ORDER 4

#define HS_NAME_LEN 48

typedef struct hs_model {
    /* ---- sizes ---- */
    int nbody; /* bodies = joints = relative coordinates */
    int nz; /* relative coordinates (== nbody) */
    int ncut; /* cut joints */
    int ncon; /* scalar constraint equations, nonholonomic ones included */
    int nnh; /* of which nonholonomic (HS_CON_NH): seed 001's l; holonomic m = ncon - nnh */
    int npoint; /* named points */
    int nload; /* external loads */
    int nsignal; /* piecewise-linear signals */
    int nknot; /* knots of all signals */
    int nx; /* Newton unknowns (nz for a pure mechanism) */

    /* ---- bodies (nbody) ---- */
    int body_parent[HS_MAX_BODIES]; /* parent body, -1 = ground; parent < child */
    unsigned int body_anc[HS_MAX_BODIES]; /* bit k set: body k is on the path root..j (self included) */
    int body_shape[HS_MAX_BODIES]; /* enum hs_shape */
    int body_com_given[HS_MAX_BODIES]; /* 1: com overrides the shape's */
    double body_mass[HS_MAX_BODIES]; /* kg (nbody) */
    double body_dim[HS_MAX_BODIES][3]; /* shape dimensions, m (nbody x 3) */
    double body_com[HS_MAX_BODIES][3]; /* centre of mass, body frame (nbody x 3) */
    double body_inertia[HS_MAX_BODIES][6]; /* about com, body frame: xx yy zz xy xz yz (nbody x 6) */

    /* ---- joints, one per body (nbody) ---- */
    int joint_type[HS_MAX_BODIES]; /* enum hs_joint_type */
    double joint_at_parent[HS_MAX_BODIES][3]; /* joint point, parent frame (global if ground) */
    double joint_at_child[HS_MAX_BODIES][3]; /* joint point, child frame */
    double joint_axis[HS_MAX_BODIES][3]; /* axis as given (any length), parent frame */
    double joint_u[HS_MAX_BODIES][3]; /* derived: the unit axis, parent frame */
    double joint_rot0[HS_MAX_BODIES][9]; /* fixed rotation parent -> child, row-major */
    double joint_z0[HS_MAX_BODIES]; /* initial coordinate, rad or m */
    double joint_zd0[HS_MAX_BODIES]; /* initial velocity, rad/s or m/s */
    int joint_hold[HS_MAX_BODIES]; /* 1: kept at z0 when the initial loop closure is solved */
    /* derived by hs_model_derive, for the kinematics' shorter paths: */
    int joint_axis_kind[HS_MAX_BODIES]; /* k + 1 (or -(k + 1)) when the unit axis is exactly the
                                           coordinate axis e_k (or -e_k), 0 otherwise */
    int joint_rot0_id[HS_MAX_BODIES]; /* 1 when rot0 is exactly the identity */
    int joint_planar[HS_MAX_BODIES]; /* 1 when joint j and every joint on its path from the
                                        root are revolute about +-z with a rot0 that keeps z:
                                        the kinematics and dynamics of body j take their
                                        planar forms (exact zeros skipped) */
    int joint_ball[HS_MAX_BODIES]; /* a ball joint's body k + 1 (k = 0, 1, 2: coordinate phi_k of
                                      its rotation vector; 3 is the child), 0 for other joints */

    /* ---- cut joints (ncut) and their scalar equations (ncon) ---- */
    int cut_type[HS_MAX_CUTS]; /* enum hs_cut_type */
    int cut_body_a[HS_MAX_CUTS]; /* -1 = ground */
    int cut_body_b[HS_MAX_CUTS];
    double cut_at_a[HS_MAX_CUTS][3]; /* joint point on a, body-a frame (ncut x 3) */
    double cut_at_b[HS_MAX_CUTS][3]; /* joint point on b, body-b frame (ncut x 3) */
    double cut_axis_a[HS_MAX_CUTS][3]; /* rotation axis (revolute) or slide direction, frame a */
    double cut_axis_b[HS_MAX_CUTS][3]; /* the same in frame b; planar revolute: plane normal */
    double cut_normal_a[HS_MAX_CUTS][3]; /* prismatic: reference normal to the axis, frame a */
    double cut_normal_b[HS_MAX_CUTS][3]; /* prismatic: its mate in frame b; planar: plane normal */
    /* derived by hs_model_derive from the cut_* values above: */
    int cut_con0[HS_MAX_CUTS]; /* index of the cut's first equation */
    int cut_ncon[HS_MAX_CUTS]; /* equations of the cut */
    int con_type[HS_MAX_CON]; /* enum hs_con_type */
    int con_body_a[HS_MAX_CON]; /* -1 = ground */
    int con_body_b[HS_MAX_CON];
    double con_u[HS_MAX_CON][3]; /* direction fixed in body a (DD) (ncon x 3) */
    double con_v[HS_MAX_CON][3]; /* direction fixed in body b (ncon x 3) */
    double con_pa[HS_MAX_CON][3]; /* point on body a, body-a frame (DP) (ncon x 3) */
    double con_pb[HS_MAX_CON][3]; /* point on body b, body-b frame (DP) (ncon x 3) */

    /* ---- named points (npoint) ---- */
    int point_body[HS_MAX_POINTS]; /* -1 = ground */
    double point_at[HS_MAX_POINTS][3]; /* body frame (npoint x 3) */

    /* ---- external loads (nload): F(t) = force_dir * signal(t) at a point, and a torque ---- */
    int load_body[HS_MAX_LOADS];
    int load_frame[HS_MAX_LOADS]; /* enum hs_frame: directions fixed in space or in the body */
    double load_at[HS_MAX_LOADS][3]; /* application point, body frame (nload x 3) */
    double load_force_dir[HS_MAX_LOADS][3]; /* N per unit signal (nload x 3) */
    double load_torque_dir[HS_MAX_LOADS][3]; /* N m per unit signal (nload x 3) */
    int load_force_sig[HS_MAX_LOADS]; /* signal index, -1: constant 1 */
    int load_torque_sig[HS_MAX_LOADS];

    /* ---- signals: piecewise linear in t, constant beyond the ends, or a test input ---- */
    int sig_start[HS_MAX_SIGNALS]; /* first knot */
    int sig_n[HS_MAX_SIGNALS]; /* knots; equal times make a jump, right value from the jump on */
    double knot_t[HS_MAX_KNOTS]; /* s (nknot) */
    double knot_v[HS_MAX_KNOTS]; /* (nknot) */
    int sig_kind[HS_MAX_SIGNALS]; /* enum hs_signal_kind (hs_test_input.h): knots or a test (nsignal) */
    double sig_test[HS_MAX_SIGNALS][HS_TP_COUNT]; /* enum hs_test_param, SI (nsignal x HS_TP_COUNT) */

    /* ---- environment ---- */
    double gravity[3]; /* m/s^2 */

    /* ---- hydraulics (seed 000 Sect. 3; seed 004 Pub. I Sect. 3) ----
     * Nodes: 0..nvol-1 are volumes (pressure states), nvol..nvol+nsrc-1 constant sources. */
    int nvol, nsrc, nthr, ndcv, ncyl;
    int ncmp; /* components of hydraulics.components (kernels/hs_components.h) */
    int nfs; /* friction states and the components' states in all (hs_state.fs) */
    double B_oil; /* oil bulk modulus, Pa */
    double rho; /* oil density, kg/m^3 */
    double p_vapour; /* absolute pressure below which the lumped liquid is no longer valid
                        (cavitation): a warning (HS_ST_CAVITATION), Pa */
    double vol_V[HS_MAX_VOLS]; /* hose/pipe part of the volume, m^3 (nvol) */
    double vol_B[HS_MAX_VOLS]; /* its bulk modulus, Pa (nvol) */
    double vol_p0[HS_MAX_VOLS]; /* initial pressure, Pa (nvol) */
    int vol_cyl[HS_MAX_VOLS]; /* cylinder whose chamber belongs to the volume, -1: none */
    int vol_side[HS_MAX_VOLS]; /* 0: piston side, 1: rod side */
    int vol_model[HS_MAX_VOLS]; /* enum hs_vol_model (nvol) */
    double vol_gamma[HS_MAX_VOLS][2]; /* singular perturbation: the flow corrections gamma+
                                         (its valve's U > 0) and gamma- (U < 0) of the throttle
                                         flows it exchanges with lumped volumes (seed 004 Pub.
                                         II eq. 35) (nvol x 2) */
    int vol_dcv[HS_MAX_VOLS]; /* derived: the valve whose port A or B is the volume, -1 */
    int vol_thr[HS_MAX_VOLS]; /* derived: the throttle with an end at the volume (the last), -1 */
    double src_p[HS_MAX_SRCS]; /* source pressure, Pa (nsrc) */
    int thr_a[HS_MAX_THR], thr_b[HS_MAX_THR]; /* nodes; positive flow a -> b */
    double thr_Cd[HS_MAX_THR]; /* discharge coefficient */
    double thr_A[HS_MAX_THR]; /* orifice area, m^2 */
    double thr_Cv_given[HS_MAX_THR]; /* semi-empirical coefficient if > 0, m^3/(s sqrt(Pa)) */
    double thr_dplim[HS_MAX_THR]; /* laminar band, Pa */
    double thr_Cv[HS_MAX_THR]; /* derived: Cv_given or Cd A sqrt(2/rho), eq. (25) */
    int dcv_P[HS_MAX_DCV], dcv_T[HS_MAX_DCV], dcv_A[HS_MAX_DCV], dcv_B[HS_MAX_DCV]; /* nodes */
    double dcv_Cv[HS_MAX_DCV]; /* flow coefficient, m^3/(s V sqrt(Pa)) */
    double dcv_kpath[HS_MAX_DCV][4]; /* factors of Cv for the paths P-A, B-T, P-B, A-T (1) */
    double dcv_tau[HS_MAX_DCV]; /* spool time constant, s (or from f_-45: 1/(2 pi f)) */
    double dcv_dplim[HS_MAX_DCV]; /* laminar band, Pa */
    double dcv_U0[HS_MAX_DCV]; /* initial spool position, V */
    int dcv_sig[HS_MAX_DCV]; /* U_ref signal, -1: constant 0 */
    double dcv_dpcomp[HS_MAX_DCV]; /* a load-sensing section's pressure compensator: the drop it
                                      holds across the meter-in edge, Pa (0: none) */
    double dcv_Uls[HS_MAX_DCV]; /* the spool travel over which its load-sensing port opens, V */
    int cyl_body_a[HS_MAX_CYLS], cyl_body_b[HS_MAX_CYLS]; /* base (a) and rod end (b), -1 ground */
    double cyl_at_a[HS_MAX_CYLS][3], cyl_at_b[HS_MAX_CYLS][3]; /* body frames (ncyl x 3) */
    double cyl_d_piston[HS_MAX_CYLS], cyl_d_rod[HS_MAX_CYLS]; /* diameters, m */
    double cyl_stroke[HS_MAX_CYLS]; /* l: piston-side + rod-side chamber lengths, m */
    double cyl_l_p0[HS_MAX_CYLS]; /* piston-side chamber length at t = 0, m */
    double cyl_B[HS_MAX_CYLS]; /* cylinder wall bulk modulus, Pa */
    int cyl_vol_p[HS_MAX_CYLS], cyl_vol_r[HS_MAX_CYLS]; /* volumes of the two chambers */
    int cyl_fric[HS_MAX_CYLS]; /* enum hs_friction */
    double cyl_fp[HS_MAX_CYLS][HS_MAX_FP]; /* friction parameters, enum hs_fric_param */
    double cyl_ld[HS_MAX_CYLS], cyl_kd[HS_MAX_CYLS], cyl_cd[HS_MAX_CYLS]; /* end dampers
                                                   (eq. 31 of Pub. III); ld = 0: none */
    int cyl_init[HS_MAX_CYLS]; /* enum hs_cyl_init */
    double cyl_init_p[HS_MAX_CYLS]; /* the given chamber pressure, Pa */
    double cyl_init_F[HS_MAX_CYLS]; /* prescribed initial force, N (HS_CYLINIT_FORCE) */
    double cyl_Ap[HS_MAX_CYLS], cyl_Ar[HS_MAX_CYLS]; /* derived: piston and annulus areas */
    int cyl_fs0[HS_MAX_CYLS], cyl_nfs[HS_MAX_CYLS]; /* derived: first friction state, count */
    /* the components beyond the seeds (ncmp; kernels/hs_components.h): relief and check
     * valves, pumps, accumulators */
    int cmp_type[HS_MAX_CMP]; /* enum hs_cmp_type */
    int cmp_a[HS_MAX_CMP], cmp_b[HS_MAX_CMP]; /* nodes: from (a pump's inlet) and to (its
                                                 outlet); an accumulator's volume in a, b -1 */
    int cmp_ref[HS_MAX_CMP]; /* a load-sensing pump's sensed node, a motor's joint (the body
                                 it turns), a hose's first internal volume, -1 otherwise */
    int cmp_lsmask[HS_MAX_CMP]; /* a load-sensing pump's sensed valve sections (bit i: valve i;
                                   its sense is their highest load pressure), 0 otherwise */
    int cmp_dyn[HS_MAX_CMP]; /* its states (hs_cmp_nstates: 1 for a variable pump and a relief
                                valve given a poppet time constant, a hose's segments), fixed
                                by the model file: a sweep of tau cannot change the layout */
    double cmp_par[HS_MAX_CMP][HS_CMP_NPAR]; /* parameters by slot (HS_COMPONENT_PARAMS), SI
                                                (ncmp x HS_CMP_NPAR) */
    int cmp_fs0[HS_MAX_CMP]; /* derived: its state's index in fs (after the cylinders'
                                friction states), -1: none */
    int cmp_mot[HS_MAX_CMP]; /* derived: a motor's index among the motors (hs_hyd.wm, Tm), -1 */
    int nmot; /* derived: motors among the components */

    /* ---- integrator settings (seed 000 eqs. 32-41; seed 004 Pub. I eqs. 15-28) ---- */
    double dt; /* s */
    double t_end; /* s */
    double tol_z; /* Newton tolerance on position updates, rad or m */
    double tol_p; /* ... on pressure updates, Pa */
    double tol_fs; /* ... on friction-state updates (m, or 1 for the film h) */
    double penalty; /* alpha of the augmented Lagrangian (the least: hs_penalty) */
    double penalty_ratio; /* alpha dt^2/4 at least this times the largest mass-matrix
                             diagonal entry (hs_penalty); 0: alpha as given */
    double max_iter; /* Newton iteration limit per step (integer-valued) */
    double fd_rel; /* forward-difference increment: fd_rel * max(fd_floor, |x|), eq. (41) */
    double fd_floor;
    int newton; /* enum hs_newton */
    int predictor; /* enum hs_predictor (fixed steps; adaptive steps always extrapolate) */
    int formulation; /* enum hs_formulation */
    /* error-controlled steps (step = HS_STEP_ADAPTIVE; hs_step_adaptive): the local error of
     * each class of unknowns against atol + rtol |value| in a weighted RMS norm */
    int step; /* enum hs_step_control */
    int method; /* enum hs_method (adaptive steps; fixed steps are always trapezoidal) */
    double rtol; /* relative tolerance of the local error, all classes */
    double atol_z; /* absolute tolerances: positions, rad or m */
    double atol_zd; /* velocities, rad/s or m/s */
    double atol_p; /* pressures, Pa */
    double atol_fs; /* friction states */
    double atol_U; /* spool positions, V */
    double h_init; /* first step, and the step after a signal knot (a restart), s */
    double h_min; /* below this a step that fails is the instance's failure, s */
    double h_max; /* largest step, s */

    /* ---- co-simulation (coupling = HS_COUPLE_COSIM; kernels/hs_cosim.h) ---- */
    int coupling; /* enum hs_coupling */
    int cosim_mech; /* enum hs_cosim_mech */
    int cosim_hyd; /* enum hs_cosim_hyd */
    int cosim_exchange; /* enum hs_cosim_exchange */
    int cosim_extrap; /* Lagrange order 0..HS_CEXT_MAX_ORDER, or HS_CEXT_INTEGRATE */
    int cosim_extrap_mech; /* the mechanics' inputs: Lagrange order 0..HS_CEXT_MAX_ORDER */
    double cosim_h_hyd; /* the hydraulics' step, s; dt (= H) a whole multiple of it */
    double cosim_i1al_xi; /* i1al's constraint stabilisation (Pub. III eq. 17): damping ratio xi */
    double cosim_i1al_omega; /* and natural frequency omega, rad/s */
} hs_model;

/* ---- how the engine reads the model ----
 * Engine code (kernels/) reads the model only through these four, so that one text serves
 * two builds:
 *   HS_N(m, f)     a size (nbody, nz, ncon, nvol, ...) or another structural integer
 *                  (newton, predictor)
 *   HS_I(m, f, i)  element i of an integer (topology) array: body_parent, con_type, ...
 *   HS_D(m, f)     a floating-point field, scalar or array: body_mass, cyl_fp, dt, ...
 *   HS_B(m, f)     a scalar integer that selects a branch only (formulation): a sweep may
 *                  vary it per instance in a specialised build too
 * and engine functions take a `const hs_mview *`. In the ordinary build hs_mview is hs_model
 * and the macros are plain member accesses. A specialised build (HS_SPEC, generated by
 * host/engine/kernel_spec.c for one model structure) defines them itself: sizes and topology become
 * compile-time constants, and hs_mview is the shared model plus the instance's own copies of
 * the fields its sweep varies. */
#ifndef HS_SPEC
typedef hs_model hs_mview;
#define HS_N(m, f) ((m)->f)
#define HS_I(m, f, i) ((m)->f[i])
#define HS_D(m, f) ((m)->f)
#define HS_B(m, f) ((m)->f)
#endif

#ifdef __cplusplus
}
#endif

#endif
