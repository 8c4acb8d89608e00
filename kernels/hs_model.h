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

/* What a valve section is (hydraulics.valves[].type): a proportional 4/3 directional valve
 * (seed 000 eqs. 24-26), or a 2/2 or 3/2 seat valve switched on and off (kernels/hs_hydraulics.h
 * hs_valve_flows; docs/model-format.md, Seat valves). */
enum hs_dcv_kind { HS_DCV_DIRECTIONAL = 0, HS_DCV_SEAT_2_2 = 1, HS_DCV_SEAT_3_2 = 2 };

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

/* The members of hs_model, defined once (MuJoCo's mjxmacro): the struct below and the field
 * table of the specialised build (host/engine/kernel_spec.c) both expand it. Each row is
 *   S(type, name)                 a scalar
 *   F(type, name, k)              a fixed array of k
 *   A(type, name, cap, n)         an array of capacity cap, of which the first n are used
 *   R(type, name, cap, k, n)      the same with rows of k values (n x k)
 * where n is the size member that counts the entries. */
#define HS_MODEL_MEMBERS(S, F, A, R) \
    /* ---- sizes ---- */ \
    S(int, nbody) /* bodies = joints = relative coordinates */ \
    S(int, nz) /* relative coordinates (== nbody) */ \
    S(int, nspring) /* joints with a spring or damper (joints[].spring; their k, c, zs below) */ \
    S(int, ncut) /* cut joints */ \
    S(int, ncon) /* scalar constraint equations, nonholonomic ones included */ \
    S(int, nnh) /* of which nonholonomic (HS_CON_NH): seed 001's l; holonomic m = ncon - nnh */ \
    S(int, npoint) /* named points */ \
    S(int, nload) /* external loads */ \
    S(int, npay) /* payloads (point masses switched by a signal) */ \
    S(int, nsignal) /* piecewise-linear signals */ \
    S(int, nknot) /* knots of all signals */ \
    S(int, nx) /* Newton unknowns (nz for a pure mechanism) */ \
    /* ---- bodies (nbody) ---- */ \
    A(int, body_parent, HS_MAX_BODIES, nbody) /* parent body, -1 = ground; parent < child */ \
    A(unsigned int, body_anc, HS_MAX_BODIES, nbody) /* bit k set: body k is on the path root..j \
                                                        (self included) */ \
    A(int, body_shape, HS_MAX_BODIES, nbody) /* enum hs_shape */ \
    A(int, body_com_given, HS_MAX_BODIES, nbody) /* 1: com overrides the shape's */ \
    A(double, body_mass, HS_MAX_BODIES, nbody) /* kg (nbody) */ \
    R(double, body_dim, HS_MAX_BODIES, 3, nbody) /* shape dimensions, m (nbody x 3) */ \
    R(double, body_com, HS_MAX_BODIES, 3, nbody) /* centre of mass, body frame (nbody x 3) */ \
    R(double, body_inertia, HS_MAX_BODIES, 6, nbody) /* about com, body frame: xx yy zz xy xz yz \
                                                         (nbody x 6) */ \
    /* ---- joints, one per body (nbody) ---- */ \
    A(int, joint_type, HS_MAX_BODIES, nbody) /* enum hs_joint_type */ \
    R(double, joint_at_parent, HS_MAX_BODIES, 3, nbody) /* joint point, parent frame (global if \
                                                            ground) (nbody x 3) */ \
    R(double, joint_at_child, HS_MAX_BODIES, 3, nbody) /* joint point, child frame (nbody x 3) */ \
    R(double, joint_axis, HS_MAX_BODIES, 3, nbody) /* axis as given (any length), parent frame */ \
    R(double, joint_u, HS_MAX_BODIES, 3, nbody) /* derived: the unit axis, parent frame */ \
    R(double, joint_rot0, HS_MAX_BODIES, 9, nbody) /* fixed rotation parent -> child, row-major */ \
    A(double, joint_z0, HS_MAX_BODIES, nbody) /* initial coordinate, rad or m */ \
    A(double, joint_zd0, HS_MAX_BODIES, nbody) /* initial velocity, rad/s or m/s */ \
    A(double, joint_k, HS_MAX_BODIES, nbody) /* its spring's stiffness, N m/rad or N/m (nbody) */ \
    A(double, joint_c, HS_MAX_BODIES, nbody) /* its damper's, N m s/rad or N s/m (nbody) */ \
    A(double, joint_zs, HS_MAX_BODIES, nbody) /* the spring's rest coordinate, rad or m (nbody) */ \
    A(int, joint_hold, HS_MAX_BODIES, nbody) /* 1: kept at z0 when the initial loop closure is \
                                                 solved */ \
    /* derived by hs_model_derive, for the kinematics' shorter paths: */ \
    A(int, joint_axis_kind, HS_MAX_BODIES, nbody) /* k + 1 (or -(k + 1)) when the unit axis is \
                                                      exactly the coordinate axis e_k (or -e_k), \
                                                      0 otherwise */ \
    A(int, joint_rot0_id, HS_MAX_BODIES, nbody) /* 1 when rot0 is exactly the identity */ \
    A(int, joint_planar, HS_MAX_BODIES, nbody) /* 1 when joint j and every joint on its path from \
                                                   the root are revolute about +-z with a rot0 \
                                                   that keeps z: the kinematics and dynamics of \
                                                   body j take their planar forms (exact zeros \
                                                   skipped) */ \
    A(int, joint_ball, HS_MAX_BODIES, nbody) /* a ball joint's body k + 1 (k = 0, 1, 2: \
                                                 coordinate phi_k of its rotation vector; 3 is \
                                                 the child), 0 for other joints */ \
    /* ---- cut joints (ncut) and their scalar equations (ncon) ---- */ \
    A(int, cut_type, HS_MAX_CUTS, ncut) /* enum hs_cut_type */ \
    A(int, cut_body_a, HS_MAX_CUTS, ncut) /* -1 = ground */ \
    A(int, cut_body_b, HS_MAX_CUTS, ncut) \
    R(double, cut_at_a, HS_MAX_CUTS, 3, ncut) /* joint point on a, body-a frame (ncut x 3) */ \
    R(double, cut_at_b, HS_MAX_CUTS, 3, ncut) /* joint point on b, body-b frame (ncut x 3) */ \
    R(double, cut_axis_a, HS_MAX_CUTS, 3, ncut) /* rotation axis (revolute) or slide direction, \
                                                    frame a (ncut x 3) */ \
    R(double, cut_axis_b, HS_MAX_CUTS, 3, ncut) /* the same in frame b; planar revolute: plane \
                                                    normal (ncut x 3) */ \
    R(double, cut_normal_a, HS_MAX_CUTS, 3, ncut) /* prismatic: reference normal to the axis, \
                                                      frame a (ncut x 3) */ \
    R(double, cut_normal_b, HS_MAX_CUTS, 3, ncut) /* prismatic: its mate in frame b; planar: \
                                                      plane normal (ncut x 3) */ \
    /* derived by hs_model_derive from the cut_* values above: */ \
    A(int, cut_con0, HS_MAX_CUTS, ncut) /* index of the cut's first equation */ \
    A(int, cut_ncon, HS_MAX_CUTS, ncut) /* equations of the cut */ \
    A(int, con_type, HS_MAX_CON, ncon) /* enum hs_con_type */ \
    A(int, con_body_a, HS_MAX_CON, ncon) /* -1 = ground */ \
    A(int, con_body_b, HS_MAX_CON, ncon) \
    R(double, con_u, HS_MAX_CON, 3, ncon) /* direction fixed in body a (DD) (ncon x 3) */ \
    R(double, con_v, HS_MAX_CON, 3, ncon) /* direction fixed in body b (ncon x 3) */ \
    R(double, con_pa, HS_MAX_CON, 3, ncon) /* point on body a, body-a frame (DP) (ncon x 3) */ \
    R(double, con_pb, HS_MAX_CON, 3, ncon) /* point on body b, body-b frame (DP) (ncon x 3) */ \
    /* ---- named points (npoint) ---- */ \
    A(int, point_body, HS_MAX_POINTS, npoint) /* -1 = ground */ \
    R(double, point_at, HS_MAX_POINTS, 3, npoint) /* body frame (npoint x 3) */ \
    /* ---- external loads (nload): F(t) = force_dir * signal(t) at a point, and a torque ---- */ \
    A(int, load_body, HS_MAX_LOADS, nload) \
    A(int, load_frame, HS_MAX_LOADS, nload) /* enum hs_frame: directions fixed in space or in \
                                                the body */ \
    R(double, load_at, HS_MAX_LOADS, 3, nload) /* application point, body frame (nload x 3) */ \
    R(double, load_force_dir, HS_MAX_LOADS, 3, nload) /* N per unit signal (nload x 3) */ \
    R(double, load_torque_dir, HS_MAX_LOADS, 3, nload) /* N m per unit signal (nload x 3) */ \
    A(int, load_force_sig, HS_MAX_LOADS, nload) /* signal index, -1: constant 1 */ \
    A(int, load_torque_sig, HS_MAX_LOADS, nload) \
    /* ---- payloads (npay): a point mass pay_mass s(t) at pay_at on body pay_body, s the signal \
     * pay_sig (knots, continuous, >= 0): a load picked up and set down (kernels/hs_dynamics.h) */ \
    A(int, pay_body, HS_MAX_PAY, npay) \
    R(double, pay_at, HS_MAX_PAY, 3, npay) /* body frame, m (npay x 3) */ \
    A(double, pay_mass, HS_MAX_PAY, npay) /* kg at s = 1 (npay) */ \
    R(double, pay_inertia, HS_MAX_PAY, 6, npay) /* about its own centre at s = 1, body frame: \
                                                   xx yy zz xy xz yz, kg m^2 (npay x 6) */ \
    A(int, pay_sig, HS_MAX_PAY, npay) \
    /* ---- signals: piecewise linear in t, constant beyond the ends, or a test input ---- */ \
    A(int, sig_start, HS_MAX_SIGNALS, nsignal) /* first knot */ \
    A(int, sig_n, HS_MAX_SIGNALS, nsignal) /* knots; equal times make a jump, right value from \
                                               the jump on */ \
    A(double, knot_t, HS_MAX_KNOTS, nknot) /* s (nknot) */ \
    A(double, knot_v, HS_MAX_KNOTS, nknot) /* (nknot) */ \
    A(int, sig_kind, HS_MAX_SIGNALS, nsignal) /* enum hs_signal_kind (hs_test_input.h): knots or \
                                                  a test (nsignal) */ \
    R(double, sig_test, HS_MAX_SIGNALS, HS_TP_COUNT, nsignal) /* enum hs_test_param, SI \
                                                                  (nsignal x HS_TP_COUNT) */ \
    /* ---- environment ---- */ \
    F(double, gravity, 3) /* m/s^2 */ \
    /* ---- hydraulics (seed 000 Sect. 3; seed 004 Pub. I Sect. 3) ---- \
     * Nodes: 0..nvol-1 are volumes (pressure states), nvol..nvol+nsrc-1 constant sources. */ \
    S(int, nvol) \
    S(int, nsrc) \
    S(int, nthr) \
    S(int, ndcv) \
    S(int, ncyl) \
    S(int, ncmp) /* components of hydraulics.components (kernels/hs_components.h) */ \
    S(int, nfs) /* friction states and the components' states in all (hs_state.fs) */ \
    S(double, B_oil) /* oil bulk modulus, Pa */ \
    S(double, rho) /* oil density, kg/m^3 */ \
    S(double, p_vapour) /* absolute pressure below which the lumped liquid is no longer valid \
                           (cavitation): a warning (HS_ST_CAVITATION), Pa */ \
    S(double, air_fraction) /* entrained air's volume fraction at HS_P_ATM, [0, 1): 0 is the \
                               constant bulk modulus (kernels/hs_fluid.h) */ \
    S(double, air_n) /* its polytropic index, [1, 1.4] */ \
    A(double, vol_V, HS_MAX_VOLS, nvol) /* hose/pipe part of the volume, m^3 (nvol) */ \
    A(double, vol_B, HS_MAX_VOLS, nvol) /* its bulk modulus, Pa (nvol) */ \
    A(double, vol_p0, HS_MAX_VOLS, nvol) /* initial pressure, Pa (nvol) */ \
    A(int, vol_cyl, HS_MAX_VOLS, nvol) /* cylinder whose chamber belongs to the volume, -1: none */ \
    A(int, vol_side, HS_MAX_VOLS, nvol) /* 0: piston side, 1: rod side */ \
    A(int, vol_model, HS_MAX_VOLS, nvol) /* enum hs_vol_model (nvol) */ \
    R(double, vol_gamma, HS_MAX_VOLS, 2, nvol) /* singular perturbation: the flow corrections \
                                                   gamma+ (its valve's U > 0) and gamma- (U < 0) \
                                                   of the throttle flows it exchanges with lumped \
                                                   volumes (seed 004 Pub. II eq. 35) (nvol x 2) */ \
    A(int, vol_dcv, HS_MAX_VOLS, nvol) /* derived: the valve whose port A or B is the volume, -1 */ \
    A(int, vol_thr, HS_MAX_VOLS, nvol) /* derived: the throttle with an end at the volume (the \
                                           last), -1 */ \
    A(double, src_p, HS_MAX_SRCS, nsrc) /* source pressure, Pa (nsrc) */ \
    A(int, thr_a, HS_MAX_THR, nthr) /* nodes; positive flow a -> b */ \
    A(int, thr_b, HS_MAX_THR, nthr) \
    A(double, thr_Cd, HS_MAX_THR, nthr) /* discharge coefficient */ \
    A(double, thr_A, HS_MAX_THR, nthr) /* orifice area, m^2 */ \
    A(double, thr_Cv_given, HS_MAX_THR, nthr) /* semi-empirical coefficient if > 0, \
                                                  m^3/(s sqrt(Pa)) */ \
    A(double, thr_dplim, HS_MAX_THR, nthr) /* laminar band, Pa */ \
    A(double, thr_Cv, HS_MAX_THR, nthr) /* derived: Cv_given or Cd A sqrt(2/rho), eq. (25) */ \
    A(int, dcv_kind, HS_MAX_DCV, ndcv) /* enum hs_dcv_kind */ \
    A(int, dcv_P, HS_MAX_DCV, ndcv) /* nodes of the ports P, T, A, B (a seat valve: B = A; a \
                                        2/2 one: T = P) */ \
    A(int, dcv_T, HS_MAX_DCV, ndcv) \
    A(int, dcv_A, HS_MAX_DCV, ndcv) \
    A(int, dcv_B, HS_MAX_DCV, ndcv) \
    A(double, dcv_Cv, HS_MAX_DCV, ndcv) /* flow coefficient, m^3/(s V sqrt(Pa)) */ \
    R(double, dcv_kpath, HS_MAX_DCV, 4, ndcv) /* factors of Cv for the paths P-A, B-T, P-B, A-T \
                                                  (1) (ndcv x 4) */ \
    A(double, dcv_tau, HS_MAX_DCV, ndcv) /* spool time constant, s (or from f_-45: 1/(2 pi f)) */ \
    A(double, dcv_dplim, HS_MAX_DCV, ndcv) /* laminar band, Pa */ \
    A(double, dcv_U0, HS_MAX_DCV, ndcv) /* initial spool position, V */ \
    A(int, dcv_sig, HS_MAX_DCV, ndcv) /* U_ref signal, -1: constant 0 */ \
    A(double, dcv_dpcomp, HS_MAX_DCV, ndcv) /* a load-sensing section's pressure compensator: the \
                                                drop it holds across the meter-in edge, Pa (0: \
                                                none) */ \
    A(double, dcv_Uls, HS_MAX_DCV, ndcv) /* the spool travel over which its load-sensing port \
                                             opens, V */ \
    A(int, cyl_body_a, HS_MAX_CYLS, ncyl) /* base (a) and rod end (b), -1 ground */ \
    A(int, cyl_body_b, HS_MAX_CYLS, ncyl) \
    R(double, cyl_at_a, HS_MAX_CYLS, 3, ncyl) /* body frames (ncyl x 3) */ \
    R(double, cyl_at_b, HS_MAX_CYLS, 3, ncyl) \
    A(double, cyl_d_piston, HS_MAX_CYLS, ncyl) /* diameters, m */ \
    A(double, cyl_d_rod, HS_MAX_CYLS, ncyl) \
    A(double, cyl_stroke, HS_MAX_CYLS, ncyl) /* l: piston-side + rod-side chamber lengths, m */ \
    A(double, cyl_l_p0, HS_MAX_CYLS, ncyl) /* piston-side chamber length at t = 0, m */ \
    A(double, cyl_B, HS_MAX_CYLS, ncyl) /* cylinder wall bulk modulus, Pa */ \
    A(int, cyl_vol_p, HS_MAX_CYLS, ncyl) /* volumes of the two chambers */ \
    A(int, cyl_vol_r, HS_MAX_CYLS, ncyl) \
    A(int, cyl_fric, HS_MAX_CYLS, ncyl) /* enum hs_friction */ \
    R(double, cyl_fp, HS_MAX_CYLS, HS_MAX_FP, ncyl) /* friction parameters, enum hs_fric_param \
                                                        (ncyl x HS_MAX_FP) */ \
    A(double, cyl_ld, HS_MAX_CYLS, ncyl) /* end dampers (eq. 31 of Pub. III): length, ld = 0: \
                                             none */ \
    A(double, cyl_kd, HS_MAX_CYLS, ncyl) /* stiffness */ \
    A(double, cyl_cd, HS_MAX_CYLS, ncyl) /* damping */ \
    A(int, cyl_init, HS_MAX_CYLS, ncyl) /* enum hs_cyl_init */ \
    A(double, cyl_init_p, HS_MAX_CYLS, ncyl) /* the given chamber pressure, Pa */ \
    A(double, cyl_init_F, HS_MAX_CYLS, ncyl) /* prescribed initial force, N (HS_CYLINIT_FORCE) */ \
    A(double, cyl_Ap, HS_MAX_CYLS, ncyl) /* derived: piston and annulus areas */ \
    A(double, cyl_Ar, HS_MAX_CYLS, ncyl) \
    A(int, cyl_fs0, HS_MAX_CYLS, ncyl) /* derived: first friction state, count */ \
    A(int, cyl_nfs, HS_MAX_CYLS, ncyl) \
    /* the components beyond the seeds (ncmp; kernels/hs_components.h): relief and check \
     * valves, pumps, accumulators */ \
    A(int, cmp_type, HS_MAX_CMP, ncmp) /* enum hs_cmp_type */ \
    A(int, cmp_a, HS_MAX_CMP, ncmp) /* nodes: from (a pump's inlet) and to (its outlet); an \
                                        accumulator's volume in a, b -1 */ \
    A(int, cmp_b, HS_MAX_CMP, ncmp) \
    A(int, cmp_ref, HS_MAX_CMP, ncmp) /* a load-sensing pump's sensed node, a motor's joint (the \
                                          body it turns), a hose's first internal volume, -1 \
                                          otherwise */ \
    A(int, cmp_lsmask, HS_MAX_CMP, ncmp) /* a load-sensing pump's sensed valve sections (bit i: \
                                             valve i; its sense is their highest load \
                                             pressure), 0 otherwise */ \
    A(int, cmp_dyn, HS_MAX_CMP, ncmp) /* its states (hs_cmp_nstates: 1 for a variable pump and a \
                                          relief valve given a poppet time constant, a hose's \
                                          segments), fixed by the model file: a sweep of tau \
                                          cannot change the layout */ \
    R(double, cmp_par, HS_MAX_CMP, HS_CMP_NPAR, ncmp) /* parameters by slot \
                                                          (HS_COMPONENT_PARAMS), SI (ncmp x \
                                                          HS_CMP_NPAR) */ \
    A(int, cmp_fs0, HS_MAX_CMP, ncmp) /* derived: its state's index in fs (after the cylinders' \
                                          friction states), -1: none */ \
    A(int, cmp_mot, HS_MAX_CMP, ncmp) /* derived: a motor's index among the motors (hs_hyd.wm, \
                                          Tm), -1 */ \
    S(int, nmot) /* derived: motors among the components */ \
    /* ---- integrator settings (seed 000 eqs. 32-41; seed 004 Pub. I eqs. 15-28) ---- */ \
    S(double, dt) /* s */ \
    S(double, t_end) /* s */ \
    S(double, tol_z) /* Newton tolerance on position updates, rad or m */ \
    S(double, tol_p) /* ... on pressure updates, Pa */ \
    S(double, tol_fs) /* ... on friction-state updates (m, or 1 for the film h) */ \
    S(double, penalty) /* alpha of the augmented Lagrangian (the least: hs_penalty) */ \
    S(double, penalty_ratio) /* alpha dt^2/4 at least this times the largest mass-matrix \
                                diagonal entry (hs_penalty); 0: alpha as given */ \
    S(double, max_iter) /* Newton iteration limit per step (integer-valued) */ \
    S(double, fd_rel) /* forward-difference increment: fd_rel * max(fd_floor, |x|), eq. (41) */ \
    S(double, fd_floor) \
    S(int, newton) /* enum hs_newton */ \
    S(int, predictor) /* enum hs_predictor (fixed steps; adaptive steps always extrapolate) */ \
    S(int, formulation) /* enum hs_formulation */ \
    /* error-controlled steps (step = HS_STEP_ADAPTIVE; hs_step_adaptive): the local error of \
     * each class of unknowns against atol + rtol |value| in a weighted RMS norm */ \
    S(int, step) /* enum hs_step_control */ \
    S(int, method) /* enum hs_method (adaptive steps; fixed steps are always trapezoidal) */ \
    S(double, rtol) /* relative tolerance of the local error, all classes */ \
    S(double, atol_z) /* absolute tolerances: positions, rad or m */ \
    S(double, atol_zd) /* velocities, rad/s or m/s */ \
    S(double, atol_p) /* pressures, Pa */ \
    S(double, atol_fs) /* friction states */ \
    S(double, atol_U) /* spool positions, V */ \
    S(double, h_init) /* first step, and the step after a signal knot (a restart), s */ \
    S(double, h_min) /* below this a step that fails is the instance's failure, s */ \
    S(double, h_max) /* largest step, s */ \
    /* ---- co-simulation (coupling = HS_COUPLE_COSIM; kernels/hs_cosim.h) ---- */ \
    S(int, coupling) /* enum hs_coupling */ \
    S(int, cosim_mech) /* enum hs_cosim_mech */ \
    S(int, cosim_hyd) /* enum hs_cosim_hyd */ \
    S(int, cosim_exchange) /* enum hs_cosim_exchange */ \
    S(int, cosim_extrap) /* Lagrange order 0..HS_CEXT_MAX_ORDER, or HS_CEXT_INTEGRATE */ \
    S(int, cosim_extrap_mech) /* the mechanics' inputs: Lagrange order 0..HS_CEXT_MAX_ORDER */ \
    S(double, cosim_h_hyd) /* the hydraulics' step, s; dt (= H) a whole multiple of it */ \
    S(double, cosim_i1al_xi) /* i1al's constraint stabilisation (Pub. III eq. 17): damping \
                                ratio xi */ \
    S(double, cosim_i1al_omega) /* and natural frequency omega, rad/s */

#define HS_MODEL_S_(t, nm) t nm;
#define HS_MODEL_F_(t, nm, k) t nm[k];
#define HS_MODEL_A_(t, nm, cap, n) t nm[cap];
#define HS_MODEL_R_(t, nm, cap, k, n) t nm[cap][k];
typedef struct hs_model {
    HS_MODEL_MEMBERS(HS_MODEL_S_, HS_MODEL_F_, HS_MODEL_A_, HS_MODEL_R_)
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
