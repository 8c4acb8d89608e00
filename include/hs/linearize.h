/* hs/linearize.h -- linearization of a hydraulically actuated multibody model about a state,
 * and its eigenvalues (seed 001 Sects. 3-4).
 *
 * The state X = (z_ai, zdot_ai, z_ad, p, fs, U) (seed 001 eqs. 29, 53-56): the independent
 * coordinates z_ai and their rates (n - m - l of each), the l coordinates z_ad whose rates
 * the nonholonomic constraints B zdot = 0 fix (none without such constraints: X = (z_a,
 * zdot_a, p, fs, U)), the volumes' pressures (r), the friction states and the spools (u). The
 * m dependent coordinates follow from the loop closure Phi(z) = 0, the m + l dependent rates
 * from D zdot = 0, D = [Phi_z; B]: the maximal reduction of seed 001 (Jacobian of size
 * 2(n - m) - l + r + u, eq. 61, with the friction states as further first-order states; l
 * spurious zero eigenvalues). Its Jacobian is exact: the engine's own equations run in
 * forward-mode dual numbers (host/engine/hs_dual.hpp), one pass per column.
 *
 * For comparison, the same Jacobian by central differences, and the conventional
 * counterpart of seed 001 Sect. 4.5 (eqs. 95-100): central differences of the index-1 ODE in
 * all coordinates, X = (z, zdot, p, fs, U), of size 2n + r + u, which has 2(m + l) extra
 * eigenvalues at (about) zero. */
#ifndef HS_LINEARIZE_H
#define HS_LINEARIZE_H

#include "hs/errors.h"
#include "hs/model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Largest Jacobian: the conventional one of the largest model (2 nz + nvol + nfs + ndcv). */
#define HS_LIN_MAX (2 * HS_MAX_Z + HS_MAX_VOLS + HS_MAX_FS + HS_MAX_DCV)

/* A state to linearize about (one instance's, e.g. hs_state's after hs_init). */
typedef struct hs_lin_point {
    double t; /* time: the inputs' values (signals) are taken at t, right limits */
    double z[HS_MAX_Z], zd[HS_MAX_Z]; /* coordinates and velocities (nz); z closes the loops */
    double p[HS_MAX_VOLS]; /* pressures, Pa (nvol) */
    double fs[HS_MAX_FS]; /* friction states (nfs) */
    double U[HS_MAX_DCV]; /* spool positions, V (ndcv) */
    double s0[HS_MAX_CYLS]; /* cylinder lengths at t = 0 (ncyl): the chamber-length origin */
} hs_lin_point;

enum hs_lin_method {
    HS_LIN_EXACT = 0, /* reduced, forward-mode automatic differentiation */
    HS_LIN_FD = 1, /* reduced, central differences with step fd_step */
    HS_LIN_CONVENTIONAL = 2 /* all coordinates, index-1 ODE, central differences (eq. 99) */
};

/* Eigenvalues below this fraction of the spectral radius are zeros made inexact by rounding
 * (dgeev's backward error is about size * eps * |J|): they are reported as 0. */
#define HS_LIN_ZERO_REL 1e-10

/* Classes of states, for the mode labels. */
enum hs_lin_class { HS_LIN_MECH = 0, HS_LIN_PRESSURE = 1, HS_LIN_FRICTION = 2, HS_LIN_SPOOL = 3 };
#define HS_LIN_NCLASS 4

typedef struct hs_linearization {
    int method; /* enum hs_lin_method */
    double fd_step; /* central differences: X_j +- fd_step * max(1, |X_j|) */
    int n; /* coordinates */
    int m; /* independent holonomic constraints: the rank of Phi_z */
    int ncon; /* constraint equations (ncon - m redundant ones) */
    int l; /* nonholonomic constraints */
    int r; /* pressures */
    int nfs; /* friction states */
    int u; /* spools */
    int size; /* Jacobian size */
    int indep[HS_MAX_Z]; /* the admissible coordinates, joint indices (n - m): z_ai (n - m - l),
                            then z_ad (l) */
    int state_class[HS_LIN_MAX]; /* enum hs_lin_class of each state (size) */
    double X0[HS_LIN_MAX]; /* the state (size) */
    double rates[HS_LIN_MAX]; /* its rates F(X0): zero at an equilibrium (size) */
    double J[HS_LIN_MAX * HS_LIN_MAX]; /* dF/dX, row-major (size x size) */
    /* hs_lin_eigen: */
    double eig_re[HS_LIN_MAX], eig_im[HS_LIN_MAX]; /* by decreasing real part (size) */
    double part[HS_LIN_MAX][HS_LIN_NCLASS]; /* each mode's participation by class, summing
                                               to 1 (|left_k right_k|, scale-free) (size x 4) */
    int label[HS_LIN_MAX]; /* the class with the largest participation (size) */
    double zero_tol; /* eigenvalues of modulus below this are reported as exactly 0:
                        HS_LIN_ZERO_REL times the largest modulus */
} hs_linearization;

/* Linearizes m about x. The independent coordinates are chosen by full-pivot Gaussian
 * elimination of Phi_z (seed 000 Sect. 3), preferring the joints that the model holds
 * (joints[].hold), so that a held input joint is the independent coordinate. Returns 0, or
 * an hs_errcode with err set (a loop-closure Jacobian without full row rank in its dependent
 * columns, a singular reduced mass matrix, a non-finite value). */
int hs_linearize(const hs_model *m, const hs_lin_point *x, int method, double fd_step, hs_linearization *lin,
                 hs_error *err);

/* Eigenvalues of lin->J (LAPACK dgeev, with left and right eigenvectors for the
 * participation factors), sorted by decreasing real part; those of modulus at most
 * lin->zero_tol (HS_LIN_ZERO_REL of the largest) are set to exactly 0. */
int hs_lin_eigen(hs_linearization *lin, hs_error *err);

/* The model's static equilibrium at its input coordinates (seed 001 eqs. 77-83): every joint
 * velocity zero, the loop closed with the held joints at z0, and the pressures from the
 * dynamic equilibrium with each cylinder's given chamber pressure (cylinders initialised
 * with `pressures` take their rod volume's p0 as the given rod-side pressure), then volumes
 * joined by throttles at equal pressure (hs_init). Returns 0, or HS_ERR_NUMERIC when the
 * loop does not close or the cylinders cannot hold the mechanism. */
int hs_lin_point_equilibrium(const hs_model *m, hs_lin_point *x, hs_error *err);

/* The state of a simulation of m (CPU reference path) at the first step at or after t = T
 * (x->t says which). Returns 0, or HS_ERR_NUMERIC when the integration fails before. */
int hs_lin_point_at(const hs_model *m, double T, hs_lin_point *x, hs_error *err);

/* Is the point at rest: the rates F(X0) of lin show no acceleration above 1e-6 (rad or m)/s^2
 * and no pressure rate above 1e-6 of the largest pressure per second (hs_init's statics leave
 * about 1e-11)? A linearization about a point that is not at rest is about a moment of a
 * motion, not an equilibrium. */
int hs_lin_at_rest(const hs_linearization *lin, const hs_lin_point *x);

/* What hs_lin_instance found for one instance (/eig/status of a results file). */
enum hs_lin_status {
    HS_LIN_OK = 0,
    HS_LIN_NO_EQUILIBRIUM = 1, /* no static equilibrium (loop closure or statics failed, or the
                                  state found is not at rest: hs_lin_at_rest) */
    HS_LIN_FAILED = 2, /* a singular matrix, a non-finite value, dgeev did not converge */
    HS_LIN_SIZE = 3, /* the instance's Jacobian has another size than the run's (a swept
                        friction model with other states) */
    HS_LIN_INVALID = 4 /* the instance's parameter values broke a rule (not linearized) */
};

/* One instance of a stability map: m linearized at its static equilibrium (exact Jacobian),
 * its neig eigenvalues by decreasing real part into re, im (neig), the largest real part and
 * the smallest damping ratio of its nonzero eigenvalues (the exact zeros are conserved
 * combinations of states, seed 001 Sect. 4.4, which no parameter moves: they would hide the
 * mode that decides stability) into *max_real and *min_damping. On failure everything is NaN.
 * Returns enum hs_lin_status. */
int hs_lin_instance(const hs_model *m, int neig, double *re, double *im, double *max_real, double *min_damping);

/* Damping ratio -Re/|lambda| (NaN for lambda = 0) and damped frequency |Im|/(2 pi), Hz. */
double hs_lin_damping(double re, double im);
double hs_lin_frequency(double im);

/* "mechanical", "pressure", "friction", "spool". */
const char *hs_lin_class_name(int c);

#ifdef __cplusplus
}
#endif

#endif
