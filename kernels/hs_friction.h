/* hs_friction.h -- seal friction of a hydraulic cylinder and its end dampers.
 *
 * The friction force opposes the rod velocity v = sdot (positive: extension); the cylinder
 * force on the mechanism is F = p_p A_p - p_r A_r - F_mu + F_d (seed 000 eq. 29, seed 004
 * Pub. III eq. 30). Dynamic models (LuGre, modified LuGre) carry states that the integrator
 * treats like pressures: their derivatives are returned in fsd. */
#ifndef HS_FRICTION_H
#define HS_FRICTION_H

#include "hs_model.h"

HS_HD static inline hs_real hs_sgn(hs_real v)
{
    return v > 0.0 ? 1.0 : (v < 0.0 ? -1.0 : 0.0);
}

/* Brown-McPhee (seed 003 eq. 24, with the tanh(4) viscous factor; model-data.md):
 * F = Fc tanh(4 v/vs) + (Fs - Fc) (v/vs) / (1/4 (v/vs)^2 + 3/4)^2 + sigma2 v tanh(4).
 * sgn(v) tanh(4|v|/vs) = tanh(4 v/vs) and sgn(v) |v| = v make it smooth through v = 0. */
HS_HD static inline hs_real hs_fric_brown_mcphee(hs_real Fc, hs_real Fs, hs_real vs, hs_real s2, hs_real v)
{
    hs_real r = v / vs, d = 0.25 * r * r + 0.75;
    return Fc * tanh(4.0 * r) + (Fs - Fc) * r / (d * d) + s2 * v * tanh(4.0);
}

/* Bengisu-Akay with viscous term (seed 003 eqs. 22-23), as printed: a parabola up to Fs at
 * |v| = vs, then Coulomb + Stribeck decay + sigma2 v. (The viscous term starts at |v| = vs,
 * so the curve steps by sigma2 vs there, as in the paper.) */
HS_HD static inline hs_real hs_fric_bengisu_akay(hs_real Fc, hs_real Fs, hs_real vs, hs_real xi,
                                                hs_real s2, hs_real v)
{
    hs_real a = fabs(v);
    if (a < vs) {
        hs_real d = a - vs;
        return (-Fs / (vs * vs) * d * d + Fs) * hs_sgn(v);
    }
    return (Fc + (Fs - Fc) * exp(-xi * (a - vs))) * hs_sgn(v) + s2 * v;
}

/* LuGre Stribeck curve g(v) (seed 003 eq. 26), with the film factor of eq. (29) for the
 * modified model (h = 0 gives eq. 26). */
HS_HD static inline hs_real hs_fric_g(hs_real Fc, hs_real Fs, hs_real vs, hs_real n, hs_real h, hs_real v)
{
    return Fc + ((1.0 - fabs(h)) * Fs - Fc) * exp(-pow(fabs(v) / vs, n));
}

/* Steady-state film thickness |h_ss| (seed 003 eqs. 32-33). */
HS_HD static inline hs_real hs_fric_hss(hs_real Fc, hs_real Fs, hs_real vb, hs_real v)
{
    hs_real Kf = (1.0 - Fc / Fs) * pow(vb, -2.0 / 3.0);
    hs_real a = fabs(v);
    return Kf * pow(a < vb ? a : vb, 2.0 / 3.0);
}

/* Does cylinder c's friction force depend on its rod velocity alone (not on the pressures,
 * nor on friction states, nor does it give state derivatives)? */
HS_HD static inline int hs_friction_velocity_only(const hs_mview *m, int c)
{
    int f = HS_I(m, cyl_fric, c);
    return f == HS_FRIC_NONE || f == HS_FRIC_VISCOUS || f == HS_FRIC_BROWN_MCPHEE || f == HS_FRIC_BENGISU_AKAY;
}

/* Friction force of cylinder c at rod velocity v with its states fs (cyl_nfs[c] of them) and
 * pressure force Fp = p_p A_p - p_r A_r (efficiency laws); writes the state derivatives. */
HS_HD static inline hs_real hs_friction_force(const hs_mview *m, int c, hs_real v, const hs_real *fs,
                                             hs_real Fp, hs_real *fsd)
{
    const double *P = HS_D(m, cyl_fp)[c];
    double Fc = P[HS_FP_FC], Fs = P[HS_FP_FS], vs = P[HS_FP_VS], s2 = P[HS_FP_SIGMA2];
    switch (HS_I(m, cyl_fric, c)) {
    case HS_FRIC_VISCOUS:
        return P[HS_FP_C] * v;
    case HS_FRIC_BROWN_MCPHEE:
        return hs_fric_brown_mcphee(Fc, Fs, vs, s2, v);
    case HS_FRIC_BENGISU_AKAY: {
        hs_real xi = P[HS_FP_XI] > 0.0 ? P[HS_FP_XI] : 1.0 / vs; /* default xi = 1/vs */
        return hs_fric_bengisu_akay(Fc, Fs, vs, xi, s2, v);
    }
    case HS_FRIC_LUGRE: { /* eqs. (25)-(27) */
        hs_real q = fs[0], g = hs_fric_g(Fc, Fs, vs, P[HS_FP_N], 0.0, v);
        hs_real qd = v - P[HS_FP_SIGMA0] * fabs(v) / g * q;
        fsd[0] = qd;
        return P[HS_FP_SIGMA0] * q + P[HS_FP_SIGMA1] * qd + s2 * v;
    }
    case HS_FRIC_LUGRE_MOD: { /* eqs. (28)-(34): bristles q and lubricant film h */
        hs_real q = fs[0], h = fs[1];
        hs_real vb = P[HS_FP_VB] > 0.0 ? P[HS_FP_VB] : 3.0 * vs; /* default vb = 3 vs */
        hs_real g = hs_fric_g(Fc, Fs, vs, P[HS_FP_N], h, v);
        hs_real qd = v - P[HS_FP_SIGMA0] * fabs(v) / g * q;
        hs_real hss = hs_fric_hss(Fc, Fs, vb, v), tau;
        /* eq. (31): dwell when at rest (|v| below 1e-9 m/s counts as zero in floating point),
         * else acceleration while the film is thinner than its steady state */
        if (fabs(v) < 1e-9) tau = P[HS_FP_TAU_H0];
        else tau = fabs(h) <= hss ? P[HS_FP_TAU_HP] : P[HS_FP_TAU_HN];
        fsd[0] = qd;
        fsd[1] = (hss - h) / tau; /* eq. (30) with h >= 0 */
        return P[HS_FP_SIGMA0] * q + P[HS_FP_SIGMA1] * qd + s2 * v;
    }
    case HS_FRIC_EFFICIENCY_PRINTED: /* seed 004 Pub. II: as printed (units N m/s) */
        return Fp * (1.0 - P[HS_FP_ETA]) * v;
    case HS_FRIC_EFFICIENCY: /* a loss of (1 - eta) of the pressure force, opposing motion */
        return (1.0 - P[HS_FP_ETA]) * fabs(Fp) * tanh(v / P[HS_FP_VEPS]);
    default:
        return 0.0;
    }
}

/* End-damper force (seed 004 Pub. III eq. 31) from the chamber lengths l_p (piston side) and
 * l_r (rod side): a spring-damper that pushes the piston off either end. */
HS_HD static inline hs_real hs_end_damper(const hs_mview *m, int c, hs_real l_p, hs_real l_r, hs_real v)
{
    hs_real ld = HS_D(m, cyl_ld)[c];
    if (ld <= 0.0) return 0.0;
    if (l_p <= ld) return HS_D(m, cyl_kd)[c] * (ld - l_p) - HS_D(m, cyl_cd)[c] * v;
    if (l_r <= ld) return -HS_D(m, cyl_kd)[c] * (ld - l_r) - HS_D(m, cyl_cd)[c] * v;
    return 0.0;
}

#endif
