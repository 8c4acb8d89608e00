/* hs_fluid.h -- the oil's compressibility: a constant bulk modulus (the default, seed 000
 * eq. 22), or oil with entrained air and a vapour-pressure floor (fluid.air_fraction > 0,
 * issue 48; docs/model-format.md, "Entrained air and cavitation").
 *
 * The mixture's specific volume relative to its value at atmospheric pressure p_atm (the
 * constant-entrained-air form of Simscape's isothermal liquid, MathWorks "Isothermal Liquid
 * Modeling Options"; Gholizadeh, Burton and Schoenau 2011, Sect. 3):
 *
 *   v(p) = (1 - a) exp(-(p - p_atm) / B) + a g(p),   g(p) = ((p_atm - p_v) / (p - p_v))^(1/n),
 *
 * a the undissolved air's volume fraction at p_atm, B the liquid's bulk modulus, n the air's
 * polytropic index. The gas pockets hold air and the oil's vapour at its vapour pressure p_v
 * (Dalton's law), so the air is compressed by p - p_v: a volume that expands at constant oil
 * mass tends to p_v and never crosses it, however far it expands (the floor). Below x_c =
 * HS_AIR_XC (p_atm - p_v) above p_v, g continues as its tangent, so a Newton iterate below
 * p_v stays finite: a real pressure gets there only when the gas fills 1000^(1/n) times the
 * volume a takes at p_atm.
 *
 * The pressure equation of a volume V at constant oil mass (mass M = V / v, Simscape's
 * "Constant Volume Chamber (IL)"):  (V kappa(p)) p' = sum of inflows - V',  with the
 * compressibility kappa = -v'/v (1/B at a = 0: the constant modulus exactly). Every flow
 * carries its mass: an element's law gives its volume flow at its upstream node's pressure,
 * and at the other node it fills v(p)/v(p_up) times that (hs_edge_weights). */
#ifndef HS_FLUID_H
#define HS_FLUID_H

#include "hs_model.h"

/* Where the gas law turns linear, relative to p_atm - p_v (see the header). */
#define HS_AIR_XC 1e-9

/* 1: the engine has the mixture's code; a specialised build of a model without entrained air
 * (and no sweep of fluid.air_fraction) sets 0 and keeps it out of its kernel. */
#ifndef HS_AIR_ON
#define HS_AIR_ON 1
#endif

/* The mixture's relative specific volume v(p) (see the header) and, into *kappa, its
 * compressibility -v'/v, 1/Pa; a: air fraction, n: polytropic index, B: the liquid's modulus,
 * pv: the vapour pressure (absolute, below HS_P_ATM). */
HS_HD static inline hs_real hs_mix_volume(double a, double n, double B, double pv, hs_real p, hs_real *kappa)
{
    double x0 = HS_P_ATM - pv, xc = HS_AIR_XC * x0;
    hs_real x = p - pv, eL = exp(-(p - HS_P_ATM) / B), g, dg, v;
    if (x >= xc) {
        g = pow(x0 / x, 1.0 / n);
        dg = -g / (n * x);
    } else { /* the tangent at x_c */
        hs_real gc = pow(1.0 / HS_AIR_XC + 0.0 * x, 1.0 / n), dgc = -gc / (n * xc);
        g = gc + dgc * (x - xc);
        dg = dgc;
    }
    v = (1.0 - a) * eL + a * g;
    *kappa = ((1.0 - a) * eL / B - a * dg) / v;
    return v;
}

/* 1: the model's oil carries entrained air (the mixture of the header applies). */
HS_HD static inline int hs_air_on(const hs_mview *m)
{
#if HS_AIR_ON
    return HS_D(m, air_fraction) > 0.0;
#else
    (void)m;
    return 0;
#endif
}

/* The model's mixture at pressure p: v(p), and kappa (hs_mix_volume). */
HS_HD static inline hs_real hs_fluid_volume(const hs_mview *m, hs_real p, hs_real *kappa)
{
    return hs_mix_volume(HS_D(m, air_fraction), HS_D(m, air_n), HS_D(m, B_oil), HS_D(m, p_vapour), p, kappa);
}

/* The factors by which a flow Q from node a to node b (at pressures pa, pb), as its element's
 * law gives it, leaves a (*wa) and fills b (*wb): 1 and v(pb)/v(pa) for Q >= 0 (a upstream),
 * v(pa)/v(pb) and 1 for Q < 0, so that its mass is conserved. Both 1 without entrained air. */
HS_HD static inline void hs_edge_weights(const hs_mview *m, hs_real pa, hs_real pb, hs_real Q, hs_real *wa,
                                         hs_real *wb)
{
    *wa = 1.0;
    *wb = 1.0;
#if HS_AIR_ON
    if (hs_air_on(m)) {
        hs_real k, va = hs_fluid_volume(m, pa, &k), vb = hs_fluid_volume(m, pb, &k);
        if (Q >= 0.0) *wb = vb / va;
        else *wa = va / vb;
    }
#else
    (void)m;
    (void)pa;
    (void)pb;
#endif
}

#endif
