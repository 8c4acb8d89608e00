/* hs_sample.h -- counter-based sampling of sweep parameters: every value is a pure function
 * of (seed, instance i, parameter j), so any instance can be (re)computed alone, in any
 * order, on any thread, by a shard of a sweep or by `simulate --instance`.
 *
 * Building blocks (composed per method and distribution by hs_sweep_sample, sweep_load.c):
 *   - Philox4x32-10 (Salmon, Moraes, Dror, Shaw 2011, "Parallel random numbers: as easy as
 *     1, 2, 3", SC'11), from Random123 <Random123/philox.h>: key = the 64-bit seed as two
 *     words (low, high), counter = (i low, i high, j, stream); a uniform in (0, 1) from 53
 *     bits of the output.
 *   - the standard normal quantile by Wichura's AS241 PPND16 (Appl. Statist. 37 (1988)
 *     477-484; relative accuracy about 1e-16) and the inverse CDFs of the uniform, normal,
 *     truncated normal and lognormal distributions;
 *   - Latin hypercube strata from a keyed Feistel permutation (cycle walking into [0, n));
 *   - Sobol' points with the direction numbers of Joe & Kuo (2008, "Constructing Sobol'
 *     sequences with better two-dimensional projections", SIAM J. Sci. Comput. 30, 2635-2654;
 *     file new-joe-kuo-6.21201) for 32 dimensions, Gray-code order, with a random digital
 *     shift per dimension;
 *   - mixed-radix digits of a full-factorial grid.
 *
 * Common subset of C11 and CUDA C++ (hs_hd.h): the functions compile for the device, but
 * sweeps sample on the host (run.c), so the values never depend on the device's libm. */
#ifndef HS_SAMPLE_H
#define HS_SAMPLE_H

#include <stdint.h>

#include <Random123/philox.h>

#include "hs_hd.h"

/* Streams: the fourth counter word keeps the uses of one (seed, i, j) independent. */
#define HS_STREAM_MC 0u /* Monte Carlo draw of parameter j for instance i */
#define HS_STREAM_LHS 1u /* Latin hypercube: position inside the stratum */
#define HS_STREAM_LHS_PERM 2u /* Latin hypercube: Feistel keys of block i (i = instance / n) */
#define HS_STREAM_SOBOL 3u /* Sobol': digital shift of dimension j (i = 0) */

#define HS_SOBOL_MAX_DIM 32 /* dimensions with embedded direction numbers */

/* ---------------------------------------------------------------------------------------- */
/* Philox4x32-10 and uniforms                                                               */
/* ---------------------------------------------------------------------------------------- */

/* The four 32-bit words of Philox4x32-10 for key seed and counter (i, j, stream). */
HS_HD static inline void hs_philox(uint64_t seed, uint64_t i, uint32_t j, uint32_t stream,
                                   uint32_t out[4])
{
    philox4x32_ctr_t c;
    philox4x32_key_t k;
    philox4x32_ctr_t r;
    c.v[0] = (uint32_t)i;
    c.v[1] = (uint32_t)(i >> 32);
    c.v[2] = j;
    c.v[3] = stream;
    k.v[0] = (uint32_t)seed;
    k.v[1] = (uint32_t)(seed >> 32);
    r = philox4x32_R(10, c, k);
    out[0] = r.v[0];
    out[1] = r.v[1];
    out[2] = r.v[2];
    out[3] = r.v[3];
}

/* A uniform in the open interval (0, 1) from the top 53 bits of x: k * 2^-53 for
 * k = 1 .. 2^53 - 1 (every value exact), and 2^-54 for k = 0. Extremes 2^-54, 1 - 2^-53. */
HS_HD static inline double hs_u01_bits(uint64_t x)
{
    uint64_t k = x >> 11;
    return (k ? (double)k : 0.5) * (1.0 / 9007199254740992.0);
}

/* The uniform of (seed, i, j, stream): 53 bits of Philox words 1 (high) and 0 (low). */
HS_HD static inline double hs_uniform(uint64_t seed, uint64_t i, uint32_t j, uint32_t stream)
{
    uint32_t w[4];
    hs_philox(seed, i, j, stream, w);
    return hs_u01_bits(((uint64_t)w[1] << 32) | (uint64_t)w[0]);
}

/* ---------------------------------------------------------------------------------------- */
/* inverse CDFs                                                                             */
/* ---------------------------------------------------------------------------------------- */

/* Standard normal quantile Phi^-1(p): Wichura (1988), Algorithm AS241 PPND16, three rational
 * approximations (|p - 1/2| <= 0.425; r = sqrt(-ln min(p, 1-p)) <= 5; beyond). -inf at
 * p <= 0, +inf at p >= 1, NaN for NaN. */
HS_HD static inline double hs_norm_quantile(double p)
{
    double q, r, z;
    if (p != p) return p;
    if (p <= 0.0) return -HUGE_VAL;
    if (p >= 1.0) return HUGE_VAL;
    q = p - 0.5;
    if (fabs(q) <= 0.425) {
        r = 0.180625 - q * q;
        return q *
               (((((((2.5090809287301226727e+3 * r + 3.3430575583588128105e+4) * r +
                     6.7265770927008700853e+4) * r + 4.5921953931549871457e+4) * r +
                   1.3731693765509461125e+4) * r + 1.9715909503065514427e+3) * r +
                 1.3314166789178437745e+2) * r + 3.3871328727963666080e+0) /
               (((((((5.2264952788528545610e+3 * r + 2.8729085735721942674e+4) * r +
                     3.9307895800092710610e+4) * r + 2.1213794301586595867e+4) * r +
                   5.3941960214247511077e+3) * r + 6.8718700749205790830e+2) * r +
                 4.2313330701600911252e+1) * r + 1.0);
    }
    r = sqrt(-log(q < 0.0 ? p : 1.0 - p)); /* 1 - p is exact for p >= 0.5 (Sterbenz) */
    if (r <= 5.0) {
        r -= 1.6;
        z = (((((((7.74545014278341407640e-4 * r + 2.27238449892691845833e-2) * r +
                  2.41780725177450611770e-1) * r + 1.27045825245236838258e+0) * r +
                3.64784832476320460504e+0) * r + 5.76949722146069140550e+0) * r +
              4.63033784615654529590e+0) * r + 1.42343711074968357734e+0) /
            (((((((1.05075007164441684324e-9 * r + 5.47593808499534494600e-4) * r +
                  1.51986665636164571966e-2) * r + 1.48103976427480074590e-1) * r +
                6.89767334985100004550e-1) * r + 1.67638483018380384940e+0) * r +
              2.05319162663775882187e+0) * r + 1.0);
    } else {
        r -= 5.0;
        z = (((((((2.01033439929228813265e-7 * r + 2.71155556874348757815e-5) * r +
                  1.24266094738807843860e-3) * r + 2.65321895265761230930e-2) * r +
                2.96560571828504891230e-1) * r + 1.78482653991729133580e+0) * r +
              5.46378491116411436990e+0) * r + 6.65790464350110377720e+0) /
            (((((((2.04426310338993978564e-15 * r + 1.42151175831644588870e-7) * r +
                  1.84631831751005468180e-5) * r + 7.86869131145613259100e-4) * r +
                1.48753612908506148525e-2) * r + 1.36929880922735805310e-1) * r +
              5.99832206555887937690e-1) * r + 1.0);
    }
    return q < 0.0 ? -z : z;
}

/* Phi(x) and its complement Q(x) = 1 - Phi(x) through erfc: accurate in both tails. */
HS_HD static inline double hs_norm_cdf(double x)
{
    return 0.5 * erfc(-x * 0.70710678118654752440);
}

HS_HD static inline double hs_norm_ccdf(double x)
{
    return 0.5 * erfc(x * 0.70710678118654752440);
}

/* Uniform on [a, b]: a + (b - a) u. */
HS_HD static inline double hs_q_uniform(double a, double b, double u)
{
    return a + (b - a) * u;
}

/* Normal with mean mu and standard deviation sd. */
HS_HD static inline double hs_q_normal(double mu, double sd, double u)
{
    return mu + sd * hs_norm_quantile(u);
}

/* Lognormal: median exp(sigma z) (sigma: standard deviation of ln x). */
HS_HD static inline double hs_q_lognormal(double median, double sigma, double u)
{
    return median * exp(sigma * hs_norm_quantile(u));
}

/* Normal (mu, sd) truncated to [lo, hi] (sd > 0, lo < hi) by the inverse CDF restricted to
 * [Phi(alpha), Phi(beta)], alpha = (lo - mu)/sd, beta = (hi - mu)/sd. An interval entirely on
 * one side of the mean is mapped through the tail probability of that side (Q = 1 - Phi
 * above, Phi below, both by erfc) so that it keeps full relative precision; where even that
 * underflows (distance > ~36 sd) the tail is its exponential limit: with a < b the interval's
 * distances from the mean and w the fraction from a, z = a - ln(1 - w (1 - e^(-a (b - a)))) / a.
 * The result is clamped to [lo, hi] against rounding. Increasing in u. */
HS_HD static inline double hs_q_truncnormal(double mu, double sd, double lo, double hi, double u)
{
    double al = (lo - mu) / sd, be = (hi - mu) / sd, z, x;
    if (al >= 0.0 || be <= 0.0) {
        /* one-sided: in mirrored coordinates z' (z' = z above the mean, -z below) the
         * interval is [a, b] with 0 <= a < b and Q(z') = Q(b) + t (Q(a) - Q(b)) */
        int up = al >= 0.0;
        double a = up ? al : -be, b = up ? be : -al;
        double qa = hs_norm_ccdf(a), qb = hs_norm_ccdf(b), mass = qa - qb;
        if (mass > 1e-290) {
            z = -hs_norm_quantile(up ? qa - u * mass : qb + u * mass);
        } else {
            double w = up ? u : 1.0 - u;
            z = a - log1p(-w * -expm1(-a * (b - a))) / a;
        }
        if (z < a) z = a;
        if (z > b) z = b;
        if (!up) z = -z;
    } else {
        double pa = hs_norm_cdf(al), pb = hs_norm_cdf(be);
        z = hs_norm_quantile(pa + u * (pb - pa));
    }
    x = mu + sd * z;
    if (x < lo) x = lo;
    if (x > hi) x = hi;
    return x;
}

/* ---------------------------------------------------------------------------------------- */
/* Latin hypercube                                                                          */
/* ---------------------------------------------------------------------------------------- */

/* Round function of the Feistel network: the MurmurHash3 32-bit finaliser (fmix32) of the
 * half block mixed with the round key. */
HS_HD static inline uint32_t hs_feistel_f(uint32_t x, uint32_t key)
{
    uint32_t h = x ^ key;
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    h ^= h >> 16;
    return h + key;
}

/* perm(r): a pseudo-random permutation of {0, ..., n-1} (n >= 1) evaluated at r < n, a pure
 * function of (seed, block, j). A balanced 4-round Feistel network (Luby-Rackoff) on k-bit
 * integers, k the smallest even number >= 2 with 2^k >= n, is a bijection of [0, 2^k); cycle
 * walking (apply it again while the image is >= n) restricts it to a bijection of [0, n)
 * (Black & Rogaway 2002), with fewer than 4 applications on average. The round keys are the
 * four Philox words of (seed, block, j, HS_STREAM_LHS_PERM). */
HS_HD static inline uint64_t hs_lhs_perm(uint64_t seed, uint64_t block, uint32_t j, uint64_t n,
                                         uint64_t r)
{
    uint32_t key[4];
    uint64_t x = r;
    uint32_t mask;
    int half = 1, round;
    while (half < 32 && ((uint64_t)1 << (2 * half)) < n) ++half;
    mask = (uint32_t)(((uint64_t)1 << half) - 1u);
    hs_philox(seed, block, j, HS_STREAM_LHS_PERM, key);
    do {
        uint32_t L = (uint32_t)(x >> half) & mask, R = (uint32_t)x & mask;
        for (round = 0; round < 4; ++round) {
            uint32_t t = L ^ (hs_feistel_f(R, key[round]) & mask);
            L = R;
            R = t;
        }
        x = ((uint64_t)L << half) | (uint64_t)R;
    } while (x >= n);
    return x;
}

/* The Latin hypercube uniform of instance i, parameter j, with n strata (n >= 1, at most
 * 2^40): instances form blocks of n (b = i / n, r = i mod n), each its own Latin hypercube:
 * u = (perm_{b,j}(r) + U) / n, U the uniform of (seed, i, j, HS_STREAM_LHS). U is kept
 * 4 (p + 1) 2^-53 away from 0 and 1 so that rounding never moves u out of its stratum p:
 * floor(u n) == p exactly, and 0 < u < 1. */
HS_HD static inline double hs_lhs_u(uint64_t seed, uint64_t i, uint32_t j, uint64_t n)
{
    uint64_t p = hs_lhs_perm(seed, i / n, j, n, i % n);
    double U = hs_uniform(seed, i, j, HS_STREAM_LHS);
    double eps = 4.0 * ((double)p + 1.0) * (1.0 / 9007199254740992.0);
    if (U < eps) U = eps;
    if (U > 1.0 - eps) U = 1.0 - eps;
    return ((double)p + U) / (double)n;
}

/* ---------------------------------------------------------------------------------------- */
/* Sobol'                                                                                   */
/* ---------------------------------------------------------------------------------------- */

/* Direction numbers of Sobol' dimensions 2 .. 32 from Joe & Kuo's new-joe-kuo-6.21201
 * (https://web.maths.unsw.edu.au/~fkuo/sobol/): per row the degree s of the primitive
 * polynomial, its coefficient word a, and the initial m_1 .. m_s. Dimension 1 is the van der
 * Corput sequence (all m_k = 1). */
HS_HD static inline const unsigned char *hs_sobol_joe_kuo(int d)
{
    static const unsigned char t[HS_SOBOL_MAX_DIM - 1][9] = {
        /* d   s  a   m_1 .. m_s */
        /* 2 */ {1, 0, 1},
        /* 3 */ {2, 1, 1, 3},
        /* 4 */ {3, 1, 1, 3, 1},
        /* 5 */ {3, 2, 1, 1, 1},
        /* 6 */ {4, 1, 1, 1, 3, 3},
        /* 7 */ {4, 4, 1, 3, 5, 13},
        /* 8 */ {5, 2, 1, 1, 5, 5, 17},
        /* 9 */ {5, 4, 1, 1, 5, 5, 5},
        /* 10 */ {5, 7, 1, 1, 7, 11, 19},
        /* 11 */ {5, 11, 1, 1, 5, 1, 1},
        /* 12 */ {5, 13, 1, 1, 1, 3, 11},
        /* 13 */ {5, 14, 1, 3, 5, 5, 31},
        /* 14 */ {6, 1, 1, 3, 3, 9, 7, 49},
        /* 15 */ {6, 13, 1, 1, 1, 15, 21, 21},
        /* 16 */ {6, 16, 1, 3, 1, 13, 27, 49},
        /* 17 */ {6, 19, 1, 1, 1, 15, 7, 5},
        /* 18 */ {6, 22, 1, 3, 1, 15, 13, 25},
        /* 19 */ {6, 25, 1, 1, 5, 5, 19, 61},
        /* 20 */ {7, 1, 1, 3, 7, 11, 23, 15, 103},
        /* 21 */ {7, 4, 1, 3, 7, 13, 13, 15, 69},
        /* 22 */ {7, 7, 1, 1, 3, 13, 7, 35, 63},
        /* 23 */ {7, 8, 1, 3, 5, 9, 1, 25, 53},
        /* 24 */ {7, 14, 1, 3, 1, 13, 9, 35, 107},
        /* 25 */ {7, 19, 1, 3, 1, 5, 27, 61, 31},
        /* 26 */ {7, 21, 1, 1, 5, 11, 19, 41, 61},
        /* 27 */ {7, 28, 1, 3, 5, 3, 3, 13, 69},
        /* 28 */ {7, 31, 1, 1, 7, 13, 1, 19, 1},
        /* 29 */ {7, 32, 1, 3, 7, 5, 13, 19, 59},
        /* 30 */ {7, 37, 1, 1, 3, 9, 25, 29, 41},
        /* 31 */ {7, 41, 1, 3, 5, 13, 23, 1, 55},
        /* 32 */ {7, 42, 1, 3, 7, 3, 13, 59, 17}};
    return t[d - 1];
}

/* The unshifted 32-bit Sobol' integer of point `index` in dimension dim (0-based, < 32), in
 * Gray-code order (Antonov & Saleev): x = XOR of the direction numbers V_k over the set bits
 * k of index ^ (index >> 1). V_k = m_k 2^(32-k) for k <= s, then Bratley & Fox's recurrence
 * V_k = V_{k-s} ^ (V_{k-s} >> s) ^ XOR_{l=1}^{s-1} a_l V_{k-l}, a_l bit s-1-l of a.
 * Point 0 is the origin; the points 0 .. 2^m - 1 (and every aligned block of 2^m) form a
 * (t, m, s)-net. Returns 0 for dim out of range. */
HS_HD static inline uint32_t hs_sobol_int(uint32_t index, int dim)
{
    uint32_t g = index ^ (index >> 1), x = 0, V[32];
    const unsigned char *row;
    int k, l, s, a;
    if (dim < 0 || dim >= HS_SOBOL_MAX_DIM) return 0;
    if (dim == 0) {
        for (k = 0; k < 32; ++k)
            if (g >> k & 1u) x ^= (uint32_t)1 << (31 - k);
        return x;
    }
    row = hs_sobol_joe_kuo(dim);
    s = row[0];
    a = row[1];
    for (k = 0; k < 32 && (g >> k) != 0; ++k) { /* V[k] is V_{k+1} */
        if (k < s) {
            V[k] = (uint32_t)row[2 + k] << (31 - k);
        } else {
            V[k] = V[k - s] ^ (V[k - s] >> s);
            for (l = 1; l < s; ++l)
                if (a >> (s - 1 - l) & 1) V[k] ^= V[k - l];
        }
        if (g >> k & 1u) x ^= V[k];
    }
    return x;
}

/* The random digital shift of dimension j: Philox word 0 of (seed, 0, j, HS_STREAM_SOBOL). */
HS_HD static inline uint32_t hs_sobol_shift(uint64_t seed, uint32_t j)
{
    uint32_t w[4];
    hs_philox(seed, 0, j, HS_STREAM_SOBOL, w);
    return w[0];
}

/* The Sobol' uniform of instance i, dimension j (< 32): point i + 1 (the origin, point 0, is
 * skipped), XOR-shifted by hs_sobol_shift, centred in its 2^-32 cell: u = (x + 1/2) / 2^32,
 * never 0 or 1. Instances 0 .. 2^32 - 2. */
HS_HD static inline double hs_sobol_u(uint64_t seed, uint64_t i, uint32_t j)
{
    uint32_t x = hs_sobol_int((uint32_t)(i + 1), (int)j) ^ hs_sobol_shift(seed, j);
    return ((double)x + 0.5) * (1.0 / 4294967296.0);
}

/* Saltelli's design for Sobol' sensitivity indices (Saltelli 2002; Saltelli et al. 2010), as
 * SALib makes it (SALib.sample.sobol.sample(problem, N, calc_second_order=True,
 * scramble=False, skip_values=skip)): the Sobol' points skip, skip + 1, ... of 2D dimensions
 * (unscrambled, x / 2^32: the same values as scipy.stats.qmc.Sobol's), the first D columns
 * the matrix A and the last D the matrix B; each base point b gives 2D + 2 instances in
 * SALib's order: A_b, then AB_b^k (A with column k from B) for k = 0 .. D-1, then BA_b^k (B
 * with column k from A), then B_b. The uniform of instance i, parameter j: a pure function
 * of (i, j), no seed. */
HS_HD static inline double hs_saltelli_u(uint64_t i, uint32_t j, uint32_t D, uint64_t skip)
{
    uint64_t rows = 2u * (uint64_t)D + 2u, b = i / rows, r = i % rows;
    uint32_t col; /* j: from A, j + D: from B */
    if (r == 0) col = j;
    else if (r <= D) col = (r - 1 == j) ? j + D : j;
    else if (r <= 2u * (uint64_t)D) col = (r - 1 - D == j) ? j : j + D;
    else col = j + D;
    return (double)hs_sobol_int((uint32_t)(skip + b), (int)col) * (1.0 / 4294967296.0);
}

/* The points skipped before Saltelli's design of N base points: N rounded up to a power of 2
 * (at least 1), which leaves out the origin (a 0 in every column: an infinite quantile of an
 * unbounded distribution) and starts the design on an aligned block of the sequence, where
 * its points are a (t, m, s)-net (SALib recommends a power of 2). */
HS_HD static inline uint64_t hs_saltelli_skip(uint64_t N)
{
    uint64_t s = 1;
    while (s < N) s <<= 1;
    return s;
}

/* ---------------------------------------------------------------------------------------- */
/* grid                                                                                     */
/* ---------------------------------------------------------------------------------------- */

/* Digit j of instance i in the mixed radix of the value counts (first parameter fastest):
 * (i / (count_0 ... count_{j-1})) mod count_j. Counts must be >= 1. */
HS_HD static inline long hs_grid_digit(uint64_t i, int j, const int *counts)
{
    int k;
    for (k = 0; k < j; ++k) i /= (uint64_t)counts[k];
    return (long)(i % (uint64_t)counts[j]);
}

#endif
