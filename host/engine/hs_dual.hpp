/* hs_dual.hpp -- forward-mode automatic differentiation by dual numbers, for running the
 * engine's physics (kernels/, written over hs_real) with exact first derivatives: a value v
 * and one directional derivative d, with the chain rule in every operation.
 *
 * Used by host/engine/linearize.cpp only (C++; the engine itself stays C11 + CUDA). One direction
 * per pass: a linearization of size N makes N passes over the model's equations, which on
 * the host costs microseconds per pass. Comparisons and branches see the value alone, so a
 * piecewise function (the laminar band of an orifice, a friction law's |v|) gets the
 * derivative of the piece its value lies in. */
#ifndef HS_DUAL_HPP
#define HS_DUAL_HPP

#include <cmath>

struct hs_dual {
    double v; /* value */
    double d; /* derivative along the pass's direction */
    hs_dual() : v(0.0), d(0.0) {}
    hs_dual(double x) : v(x), d(0.0) {} /* NOLINT: constants convert implicitly */
    hs_dual(double x, double dx) : v(x), d(dx) {}
    hs_dual &operator+=(const hs_dual &b) { v += b.v; d += b.d; return *this; }
    hs_dual &operator-=(const hs_dual &b) { v -= b.v; d -= b.d; return *this; }
    hs_dual &operator*=(const hs_dual &b) { d = d * b.v + v * b.d; v *= b.v; return *this; }
    hs_dual &operator/=(const hs_dual &b) { *this = hs_dual(v / b.v, (d * b.v - v * b.d) / (b.v * b.v)); return *this; }
};

static inline hs_dual operator+(const hs_dual &a) { return a; }
static inline hs_dual operator-(const hs_dual &a) { return hs_dual(-a.v, -a.d); }
static inline hs_dual operator+(const hs_dual &a, const hs_dual &b) { return hs_dual(a.v + b.v, a.d + b.d); }
static inline hs_dual operator-(const hs_dual &a, const hs_dual &b) { return hs_dual(a.v - b.v, a.d - b.d); }
static inline hs_dual operator*(const hs_dual &a, const hs_dual &b) { return hs_dual(a.v * b.v, a.d * b.v + a.v * b.d); }
static inline hs_dual operator/(const hs_dual &a, const hs_dual &b)
{
    double q = a.v / b.v;
    return hs_dual(q, (a.d - q * b.d) / b.v);
}
static inline bool operator<(const hs_dual &a, const hs_dual &b) { return a.v < b.v; }
static inline bool operator>(const hs_dual &a, const hs_dual &b) { return a.v > b.v; }
static inline bool operator<=(const hs_dual &a, const hs_dual &b) { return a.v <= b.v; }
static inline bool operator>=(const hs_dual &a, const hs_dual &b) { return a.v >= b.v; }
static inline bool operator==(const hs_dual &a, const hs_dual &b) { return a.v == b.v; }
static inline bool operator!=(const hs_dual &a, const hs_dual &b) { return a.v != b.v; }

static inline hs_dual sqrt(const hs_dual &a)
{
    double r = std::sqrt(a.v);
    return hs_dual(r, a.d / (2.0 * r));
}
static inline hs_dual sin(const hs_dual &a) { return hs_dual(std::sin(a.v), a.d * std::cos(a.v)); }
static inline hs_dual cos(const hs_dual &a) { return hs_dual(std::cos(a.v), -a.d * std::sin(a.v)); }
static inline void sincos(const hs_dual &a, hs_dual *s, hs_dual *c)
{
    double sv = std::sin(a.v), cv = std::cos(a.v);
    *s = hs_dual(sv, a.d * cv);
    *c = hs_dual(cv, -a.d * sv);
}
static inline hs_dual tanh(const hs_dual &a)
{
    double t = std::tanh(a.v);
    return hs_dual(t, a.d * (1.0 - t * t));
}
static inline hs_dual exp(const hs_dual &a)
{
    double e = std::exp(a.v);
    return hs_dual(e, a.d * e);
}
static inline hs_dual log(const hs_dual &a) { return hs_dual(std::log(a.v), a.d / a.v); }
/* |a|: the derivative of the side a lies on (at 0: +1, as copysign(1, +0)) */
static inline hs_dual fabs(const hs_dual &a) { return a.v < 0.0 ? -a : a; }
static inline hs_dual pow(const hs_dual &a, double e)
{
    double p = std::pow(a.v, e);
    return hs_dual(p, a.v != 0.0 ? a.d * e * p / a.v : (e == 1.0 ? a.d : 0.0));
}
static inline hs_dual fmax(const hs_dual &a, const hs_dual &b) { return a.v >= b.v ? a : b; }
static inline hs_dual fmin(const hs_dual &a, const hs_dual &b) { return a.v <= b.v ? a : b; }
static inline hs_dual copysign(const hs_dual &a, const hs_dual &b)
{
    return std::signbit(a.v) == std::signbit(b.v) ? a : -a;
}
static inline hs_dual atan2(const hs_dual &y, const hs_dual &x)
{
    double r2 = x.v * x.v + y.v * y.v;
    return hs_dual(std::atan2(y.v, x.v), (x.v * y.d - y.v * x.d) / r2);
}
static inline bool isfinite(const hs_dual &a) { return std::isfinite(a.v) && std::isfinite(a.d); }

#endif
