/* hs_rotvec.h -- the rotation vector of a ball joint in the semi-recursive formulation.
 *
 * The semi-recursive formulation (seed 000) integrates one velocity per coordinate, z' = zd,
 * with implicit methods that differentiate the coordinates. A ball joint there has three
 * coordinates, the rotation vector phi of its relative rotation R = exp(phi~) (parent -> child,
 * before rot0), so that nq = nv and every integrator, Newton iteration, projection and
 * linearization works unchanged. Its velocity map is the left Jacobian,
 *     omega_rel = J(phi) phi'   (the relative angular velocity in the parent's axes),
 *     J(phi) = I + a phi~ + b phi~^2,  a = (1 - cos t)/t^2,  b = (t - sin t)/t^3,  t = |phi|,
 * which is singular only at t = 2 pi k, k >= 1. The step therefore changes the chart after a
 * step that ends beyond t = 5/4 pi (hs_rotvec_shadow): phi -> phi (1 - 2 pi / t), the same
 * rotation, |phi| = 2 pi - t < 3/4 pi, with the velocity and acceleration mapped by the chart
 * change's derivatives. A run never meets the singularity, whatever the body turns; the
 * hysteresis (switch at 5/4 pi, land below 3/4 pi) keeps a body that turns near t = pi from
 * switching at every step. (A quaternion needs nq = 4 != nv = 3 through the integrators; the
 * Riccati formulation, explicit, uses one: kernels/hs_tree.h.)
 *
 * Near t = 0 the closed forms cancel; there a, b, c = sin t / t and the derivatives a'/t, b'/t
 * are their Taylor series in x = t^2 (exact to rounding for x < 1), which also keeps the dual
 * numbers of host/engine/linearize.cpp away from sqrt(0). */
#ifndef HS_ROTVEC_H
#define HS_ROTVEC_H

#include "hs_linalg.h"

/* The chart change's thresholds (see above): switch beyond 5/4 pi. */
#define HS_ROTVEC_SWITCH 3.9269908169872414 /* 5 pi / 4 */
#define HS_TWO_PI 6.283185307179586

/* c = sin t / t, a = (1 - cos t) / t^2, b = (t - sin t) / t^3 and, if da is not NULL,
 * da = a'(t) / t, db = b'(t) / t, at x = t^2. */
HS_HD static inline void hs_rotvec_coef(hs_real x, hs_real *c, hs_real *a, hs_real *b, hs_real *da, hs_real *db)
{
    if (x < 1.0) {
        /* sum_n (-x)^n / (2n+1)!, / (2n+2)!, / (2n+3)!, and 2n c_n x^(n-1) for a and b: to x^8
         * (the next terms are below 1e-16 of the first at x = 1; the closed forms of a'/t and
         * b'/t, which cancel to t^4/12 of their terms, lose no more than that above it) */
        *c = 1.0 + x * (-1.0 / 6 + x * (1.0 / 120 + x * (-1.0 / 5040 + x * (1.0 / 362880 + x * (-1.0 / 39916800 + x * (1.0 / 6227020800.0 + x * (-1.0 / 1307674368000.0 + x * (1.0 / 355687428096000.0))))))));
        *a = 0.5 + x * (-1.0 / 24 + x * (1.0 / 720 + x * (-1.0 / 40320 + x * (1.0 / 3628800 + x * (-1.0 / 479001600.0 + x * (1.0 / 87178291200.0 + x * (-1.0 / 20922789888000.0 + x * (1.0 / 6402373705728000.0))))))));
        *b = 1.0 / 6 + x * (-1.0 / 120 + x * (1.0 / 5040 + x * (-1.0 / 362880 + x * (1.0 / 39916800 + x * (-1.0 / 6227020800.0 + x * (1.0 / 1307674368000.0 + x * (-1.0 / 355687428096000.0 + x * (1.0 / 121645100408832000.0))))))));
        if (da) {
            *da = -2.0 / 24 + x * (4.0 / 720 + x * (-6.0 / 40320 + x * (8.0 / 3628800 + x * (-10.0 / 479001600.0 + x * (12.0 / 87178291200.0 + x * (-14.0 / 20922789888000.0 + x * (16.0 / 6402373705728000.0)))))));
            *db = -2.0 / 120 + x * (4.0 / 5040 + x * (-6.0 / 362880 + x * (8.0 / 39916800 + x * (-10.0 / 6227020800.0 + x * (12.0 / 1307674368000.0 + x * (-14.0 / 355687428096000.0 + x * (16.0 / 121645100408832000.0)))))));
        }
    } else {
        hs_real t = sqrt(x), s = sin(t), co = cos(t);
        *c = s / t;
        *a = (1.0 - co) / x;
        *b = (t - s) / (x * t);
        if (da) {
            /* a' = (t sin t - 2 (1 - cos t)) / t^3, b' = ((1 - cos t) t - 3 (t - sin t)) / t^4 */
            *da = (t * s - 2.0 * (1.0 - co)) / (x * x);
            *db = ((1.0 - co) * t - 3.0 * (t - s)) / (x * x * t);
        }
    }
}

/* M = I + p phi~ + q phi~^2, row-major (phi~^2 = phi phi^T - |phi|^2 I): R and J's form. */
HS_HD static inline void hs_rotvec_form(const hs_real phi[3], hs_real p, hs_real q, hs_real M[9])
{
    M[0] = 1.0 - q * (phi[1] * phi[1] + phi[2] * phi[2]);
    M[4] = 1.0 - q * (phi[0] * phi[0] + phi[2] * phi[2]);
    M[8] = 1.0 - q * (phi[0] * phi[0] + phi[1] * phi[1]);
    M[1] = q * phi[0] * phi[1] - p * phi[2];
    M[3] = q * phi[0] * phi[1] + p * phi[2];
    M[2] = q * phi[0] * phi[2] + p * phi[1];
    M[6] = q * phi[0] * phi[2] - p * phi[1];
    M[5] = q * phi[1] * phi[2] - p * phi[0];
    M[7] = q * phi[1] * phi[2] + p * phi[0];
}

/* R = exp(phi~) = I + c phi~ + a phi~^2 (Rodrigues), row-major. */
HS_HD static inline void hs_rotvec_R(const hs_real phi[3], hs_real R[9])
{
    hs_real c, a, b;
    hs_rotvec_coef(hs_v3_dot(phi, phi), &c, &a, &b, (hs_real *)0, (hs_real *)0);
    hs_rotvec_form(phi, c, a, R);
}

/* J(phi) = I + a phi~ + b phi~^2, row-major: omega_rel = J phi' (parent axes). */
HS_HD static inline void hs_rotvec_J(const hs_real phi[3], hs_real J[9])
{
    hs_real c, a, b;
    hs_rotvec_coef(hs_v3_dot(phi, phi), &c, &a, &b, (hs_real *)0, (hs_real *)0);
    hs_rotvec_form(phi, a, b, J);
}

/* (d/dt J(phi)) phi' at phi' = pd: the velocity-product part of omega_rel' = J phi'' + r.
 * J' pd = a' t' phi x pd + b' t' phi x (phi x pd) + b pd x (phi x pd) (pd~ pd = 0), with
 * a' t' = (a'/t)(phi . pd). */
HS_HD static inline void hs_rotvec_Jdot_pd(const hs_real phi[3], const hs_real pd[3], hs_real r[3])
{
    hs_real c, a, b, da, db, x = hs_v3_dot(phi, phi), s = hs_v3_dot(phi, pd);
    hs_real u[3], v[3], w[3];
    int i;
    hs_rotvec_coef(x, &c, &a, &b, &da, &db);
    hs_v3_cross(u, phi, pd);
    hs_v3_cross(v, phi, u);
    hs_v3_cross(w, pd, u);
    for (i = 0; i < 3; ++i) r[i] = da * s * u[i] + db * s * v[i] + b * w[i];
}

/* The rotation vector phi (angle in [0, pi]) of the unit quaternion q = (w, x, y, z), normalised
 * here. */
HS_HD static inline void hs_rotvec_of_quat(const hs_real q[4], hs_real phi[3])
{
    hs_real n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]), w, s, f;
    if (q[0] < 0.0) n = -n; /* q and -q: the same rotation; w >= 0 gives the angle <= pi */
    w = q[0] / n;
    s = sqrt(q[1] * q[1] + q[2] * q[2] + q[3] * q[3]) / fabs(n);
    f = s > 1e-150 ? 2.0 * atan2(s, w) / s : 2.0 / w;
    phi[0] = f * q[1] / n;
    phi[1] = f * q[2] / n;
    phi[2] = f * q[3] / n;
}

/* The rate phi' with J(phi) phi' = w (w: the relative angular velocity in the parent's axes),
 * by Cramer's rule; 0, or -1 when J is singular (|phi| = 2 pi k). */
HS_HD static inline int hs_rotvec_rate_of(const hs_real phi[3], const hs_real w[3], hs_real pd[3])
{
    hs_real J[9], c0, c1, c2, det;
    hs_rotvec_J(phi, J);
    c0 = J[4] * J[8] - J[5] * J[7];
    c1 = J[5] * J[6] - J[3] * J[8];
    c2 = J[3] * J[7] - J[4] * J[6];
    det = J[0] * c0 + J[1] * c1 + J[2] * c2;
    if (!(fabs(det) > 1e-300)) return -1;
    pd[0] = (c0 * w[0] + (J[2] * J[7] - J[1] * J[8]) * w[1] + (J[1] * J[5] - J[2] * J[4]) * w[2]) / det;
    pd[1] = (c1 * w[0] + (J[0] * J[8] - J[2] * J[6]) * w[1] + (J[2] * J[3] - J[0] * J[5]) * w[2]) / det;
    pd[2] = (c2 * w[0] + (J[1] * J[6] - J[0] * J[7]) * w[1] + (J[0] * J[4] - J[1] * J[3]) * w[2]) / det;
    return 0;
}

/* A ball joint's initial state in the semi-recursive formulation: the rotation vector phi of
 * its quaternion q (parent -> child before rot0) and the rate phi' of its relative angular
 * velocity nu in the child's axes (omega_rel = R rot0 nu in the parent's). 0 or -1. */
HS_HD static inline int hs_rotvec_state_of(const hs_real q[4], const double rot0[9], const hs_real nu[3], hs_real phi[3],
                                           hs_real pd[3])
{
    hs_real R[9], a[3], b[3];
    int i;
    hs_rotvec_of_quat(q, phi);
    hs_rotvec_R(phi, R);
    for (i = 0; i < 3; ++i) a[i] = rot0[3 * i] * nu[0] + rot0[3 * i + 1] * nu[1] + rot0[3 * i + 2] * nu[2];
    hs_m3_mulv(b, R, a);
    return hs_rotvec_rate_of(phi, b, pd);
}

/* The chart change of a rotation vector beyond HS_ROTVEC_SWITCH: phi, its rate pd and its
 * second derivative pdd (each 3, in place) -> psi = phi (1 - 2 pi / t), psi' = D pd,
 * psi'' = D pdd + D' pd, D = (1 - 2 pi / t) I + 2 pi phi phi^T / t^3. Returns 1 when it
 * changed them, 0 when t <= HS_ROTVEC_SWITCH. Of a state, so in double (never differentiated). */
HS_HD static inline int hs_rotvec_shadow(double phi[3], double pd[3], double pdd[3])
{
    double x = phi[0] * phi[0] + phi[1] * phi[1] + phi[2] * phi[2], t, k, s, f, pp, ppd, u[3], v[3];
    int i;
    if (!(x > HS_ROTVEC_SWITCH * HS_ROTVEC_SWITCH)) return 0;
    t = sqrt(x);
    k = 1.0 - HS_TWO_PI / t;
    s = phi[0] * pd[0] + phi[1] * pd[1] + phi[2] * pd[2]; /* t t' */
    pp = pd[0] * pd[0] + pd[1] * pd[1] + pd[2] * pd[2];
    ppd = phi[0] * pdd[0] + phi[1] * pdd[1] + phi[2] * pdd[2];
    f = HS_TWO_PI / (x * t); /* D v = k v + f (phi . v) phi */
    for (i = 0; i < 3; ++i) {
        u[i] = k * pd[i] + f * s * phi[i];
        /* D' pd = 2 f s pd + f (pd . pd) phi - 3 f s^2 phi / t^2 (k' = f s) */
        v[i] = k * pdd[i] + f * ppd * phi[i] + 2.0 * f * s * pd[i] + f * pp * phi[i] - 3.0 * f * s * s * phi[i] / x;
    }
    for (i = 0; i < 3; ++i) {
        phi[i] *= k;
        pd[i] = u[i];
        pdd[i] = v[i];
    }
    return 1;
}

#endif
