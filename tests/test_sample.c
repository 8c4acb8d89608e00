/* test_sample.c -- kernels/hs_sample.h: Philox4x32-10 known answers, uniforms in (0, 1),
 * determinism and independence, the AS241 normal quantile, the moments of the samplers,
 * Latin hypercube strata, Sobol' points and their stratification, grid digits. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hs_sample.h"
#include "test_util.h"

/* Random123 1.14.0, tests/kat_vectors, the three "philox4x32 10" lines (counter[4] key[2] ->
 * result[4]). The file is not shipped by Debian's librandom123-dev; the lines are quoted
 * verbatim from github.com/DEShawResearch/random123 (tests/kat_vectors) by several public
 * ports (Rust, Go, Python) and agree among them. hs_philox maps (seed, i, j, stream) to
 * key = (seed low, seed high), counter = (i low, i high, j, stream). */
static void test_philox_kat(void)
{
    static const uint32_t kat[3][10] = {
        {0x00000000u, 0x00000000u, 0x00000000u, 0x00000000u, 0x00000000u, 0x00000000u, 0x6627e8d5u,
         0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u},
        {0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0x408f276du,
         0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu},
        {0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u, 0xa4093822u, 0x299f31d0u, 0xd16cfe09u,
         0x94fdccebu, 0x5001e420u, 0x24126ea1u}};
    int t, k;
    for (t = 0; t < 3; ++t) {
        const uint32_t *v = kat[t];
        uint64_t seed = ((uint64_t)v[5] << 32) | v[4], i = ((uint64_t)v[1] << 32) | v[0];
        uint32_t out[4];
        hs_philox(seed, i, v[2], v[3], out);
        for (k = 0; k < 4; ++k)
            CHECK(out[k] == v[6 + k], "philox4x32-10 KAT %d word %d: %08x, want %08x", t, k, out[k],
                  v[6 + k]);
    }
}

static void test_uniform(void)
{
    const long n = 1000000;
    double sum = 0.0, lo = 1.0, hi = 0.0, u;
    long i;
    int bad = 0;
    CHECK(hs_u01_bits(0) == ldexp(1.0, -54), "k = 0 -> 2^-54");
    CHECK(hs_u01_bits(UINT64_MAX) == 1.0 - ldexp(1.0, -53), "max -> 1 - 2^-53");
    CHECK(hs_u01_bits((uint64_t)1 << 11) == ldexp(1.0, -53), "k = 1 -> 2^-53");
    CHECK(hs_u01_bits((uint64_t)1 << 63) == 0.5, "top bit -> 1/2");
    for (i = 0; i < n; ++i) {
        u = hs_uniform(20261121u, (uint64_t)i, 3, HS_STREAM_MC);
        if (!(u > 0.0 && u < 1.0)) ++bad;
        sum += u;
        if (u < lo) lo = u;
        if (u > hi) hi = u;
    }
    CHECK(bad == 0, "%d uniforms outside (0, 1)", bad);
    /* mean 1/2, sd of the mean sqrt(1/12/n) */
    CHECK(fabs(sum / n - 0.5) < 4.0 * sqrt(1.0 / 12.0 / n), "uniform mean %.6f", sum / n);
    CHECK(lo < 1e-5 && hi > 1.0 - 1e-5, "range [%g, %g]", lo, 1.0 - hi);
}

/* Same (seed, i, j) -> same value; different j, i, seed or stream -> different values, and
 * the draws of two parameters are uncorrelated. */
static void test_determinism(void)
{
    const long n = 200000;
    double sx = 0, sy = 0, sxx = 0, syy = 0, sxy = 0, r;
    long i;
    int same = 1, diff = 0;
    for (i = 0; i < 1000; ++i) {
        double a = hs_uniform(7, (uint64_t)i, 2, HS_STREAM_MC);
        double b = hs_uniform(7, (uint64_t)i, 2, HS_STREAM_MC);
        same &= a == b;
        diff += a != hs_uniform(7, (uint64_t)i, 3, HS_STREAM_MC);
        diff += a != hs_uniform(8, (uint64_t)i, 2, HS_STREAM_MC);
        diff += a != hs_uniform(7, (uint64_t)i + 1, 2, HS_STREAM_MC);
        diff += a != hs_uniform(7, (uint64_t)i, 2, HS_STREAM_LHS);
        diff += a != hs_uniform(7, (uint64_t)i + ((uint64_t)1 << 32), 2, HS_STREAM_MC);
    }
    CHECK(same, "same (seed, i, j, stream) gives the same value");
    CHECK(diff == 5000, "changing seed, i (low or high word), j or stream changes it (%d)", diff);
    for (i = 0; i < n; ++i) {
        double x = hs_uniform(11, (uint64_t)i, 0, HS_STREAM_MC) - 0.5;
        double y = hs_uniform(11, (uint64_t)i, 1, HS_STREAM_MC) - 0.5;
        sx += x, sy += y, sxx += x * x, syy += y * y, sxy += x * y;
    }
    r = (sxy / n - sx / n * sy / n) /
        sqrt((sxx / n - sx / n * sx / n) * (syy / n - sy / n * sy / n));
    CHECK(fabs(r) < 4.0 / sqrt((double)n), "correlation of j = 0 and j = 1: %.2e", r);
}

/* Reference quantiles from mpmath (60 digits; Phi(z) = p solved through erfc) at the exact
 * double value of each p (0.999999 as a double is 1 - 1.0000000000028756e-06). */
static void test_norm_quantile(void)
{
    static const double ref[][2] = {
        {0.975, 1.9599639845400538556},    {1e-10, -6.3613409024040561991},
        {0.3, -0.52440051270804081597},    {0.45, -0.12566134685507400616},
        {0.02425, -1.9729610513118848376}, {0.999999, 4.7534243088170877657},
        {1e-20, -9.2623400897984075796},   {1e-300, -37.047096299361199237}};
    double p, worst = 0.0;
    size_t k;
    CHECK_CLOSE(hs_norm_quantile(0.975), 1.959963984540054, 1e-14, "Phi^-1(0.975)");
    CHECK_CLOSE(hs_norm_quantile(1e-10), -6.361340902404056, 1e-14, "Phi^-1(1e-10)");
    for (k = 0; k < sizeof ref / sizeof ref[0]; ++k) {
        double z = hs_norm_quantile(ref[k][0]);
        CHECK(fabs(z - ref[k][1]) <= 1e-14 * fabs(ref[k][1]), "Phi^-1(%g) = %.17g, want %.17g",
              ref[k][0], z, ref[k][1]);
    }
    CHECK(hs_norm_quantile(0.5) == 0.0, "Phi^-1(1/2) = 0");
    CHECK(fabs(hs_norm_quantile(1.0 - ldexp(1.0, -53)) - 8.2095361516013868556) < 1e-13,
          "largest uniform -> 8.2095...");
    CHECK(fabs(hs_norm_quantile(ldexp(1.0, -54)) + 8.2923610758135955382) < 1e-13,
          "smallest uniform -> -8.2924...");
    CHECK(isinf(hs_norm_quantile(0.0)) && hs_norm_quantile(0.0) < 0, "Phi^-1(0) = -inf");
    CHECK(isinf(hs_norm_quantile(1.0)) && hs_norm_quantile(1.0) > 0, "Phi^-1(1) = +inf");
    CHECK(isnan(hs_norm_quantile(NAN)), "NaN in, NaN out");
    /* symmetry and the round trip through Phi (erfc) on a grid over all three branches */
    for (p = 1e-12; p < 0.5; p *= 1.37) {
        double z = hs_norm_quantile(p), back = hs_norm_cdf(z);
        if (fabs(back - p) / p > worst) worst = fabs(back - p) / p;
        CHECK(hs_norm_quantile(1.0 - p) == -z ||
                  fabs(hs_norm_quantile(1.0 - p) + z) < 1e-15 * fabs(z) / p,
              "symmetry at p = %g", p);
    }
    CHECK(worst < 1e-13, "Phi(Phi^-1(p)) / p - 1 up to %.2e", worst);
}

static void moments(double (*draw)(long i, void *ctx), void *ctx, long n, double *mean, double *var)
{
    double s = 0.0, ss = 0.0, x;
    long i;
    for (i = 0; i < n; ++i) {
        x = draw(i, ctx);
        s += x;
        ss += x * x;
    }
    *mean = s / n;
    *var = ss / n - *mean * *mean;
}

static double draw_normal(long i, void *ctx)
{
    (void)ctx;
    return hs_q_normal(0.0, 1.0, hs_uniform(99, (uint64_t)i, 0, HS_STREAM_MC));
}

static void test_normal_moments(void)
{
    const long n = 1000000;
    double m, v;
    moments(draw_normal, NULL, n, &m, &v);
    CHECK(fabs(m) < 4.0 / sqrt((double)n), "normal mean %.2e", m);
    CHECK(fabs(v - 1.0) < 4.0 * sqrt(2.0 / n), "normal variance %.6f", v);
    CHECK(hs_q_normal(3.0, 2.0, 0.975) == 3.0 + 2.0 * hs_norm_quantile(0.975), "mu + sd z");
}

typedef struct tn_case {
    double mu, sd, lo, hi, mean, var; /* analytic moments (mpmath, 60 digits) */
} tn_case;

static double draw_tn(long i, void *ctx)
{
    const tn_case *t = (const tn_case *)ctx;
    return hs_q_truncnormal(t->mu, t->sd, t->lo, t->hi,
                            hs_uniform(5, (uint64_t)i, 1, HS_STREAM_MC));
}

/* Truncated normal: every draw inside [lo, hi]; the sample mean against the truncated mean
 * mu + sd (phi(a) - phi(b)) / (Phi(b) - Phi(a)) within 4 standard errors. Cases: two-sided
 * (the sweep format's example), upper and lower tail, far tail (erfc underflow: exponential
 * limit), asymmetric. */
static void test_truncnormal(void)
{
    static const tn_case cases[] = {
        {550e6, 100e6, 300e6, 800e6, 550e6, 9112563609353919.348},
        {0.0, 1.0, 2.0, 3.0, 2.3158213267437818381, 0.061520779574489969895},
        {0.0, 1.0, -3.0, -2.0, -2.3158213267437818381, 0.061520779574489969895},
        {0.0, 1.0, 8.0, 9.0, 8.1211889929797971226, 0.014148542782748111039},
        {0.0, 1.0, 40.0, 41.0, 40.024968847207263721, 0.00062266837859138626264},
        {1.0, 2.0, -1.0, 0.5, -0.19269975508200127522, 0.18207261456360262623}};
    const long n = 200000;
    size_t c;
    for (c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        tn_case t = cases[c];
        double m, v, x;
        long i;
        int out = 0;
        for (i = 0; i < 20000; ++i) {
            x = draw_tn(i, &t);
            out += !(x >= t.lo && x <= t.hi);
        }
        CHECK(out == 0, "case %d: %d draws outside [lo, hi]", (int)c, out);
        moments(draw_tn, &t, n, &m, &v);
        /* the far-tail case uses the exponential limit: its mean is off by O(1/alpha^3) */
        CHECK(fabs(m - t.mean) < 4.0 * sqrt(t.var / n) + (t.lo >= 40.0 ? 2e-5 : 0.0),
              "case %d: mean %.10g, want %.10g (4 se %.2g)", (int)c, m, t.mean,
              4.0 * sqrt(t.var / n));
        CHECK(fabs(v / t.var - 1.0) < 0.03, "case %d: variance %.6g, want %.6g", (int)c, v, t.var);
        CHECK(hs_q_truncnormal(t.mu, t.sd, t.lo, t.hi, ldexp(1.0, -54)) >= t.lo &&
                  hs_q_truncnormal(t.mu, t.sd, t.lo, t.hi, 1.0 - ldexp(1.0, -53)) <= t.hi,
              "case %d: extremes inside", (int)c);
        CHECK(hs_q_truncnormal(t.mu, t.sd, t.lo, t.hi, 0.3) <
                  hs_q_truncnormal(t.mu, t.sd, t.lo, t.hi, 0.7),
              "case %d: increasing in u", (int)c);
    }
    /* the two-sided case is symmetric: its median is the mean */
    CHECK_CLOSE(hs_q_truncnormal(550e6, 100e6, 300e6, 800e6, 0.5), 550e6, 1e-15, "median");
}

static void test_lognormal(void)
{
    const long n = 400000;
    long i, below = 0;
    double s = 0.0;
    CHECK(hs_q_lognormal(1500e6, 0.15, 0.5) == 1500e6, "u = 1/2 gives the median exactly");
    for (i = 0; i < n; ++i) {
        double x = hs_q_lognormal(1500e6, 0.15, hs_uniform(3, (uint64_t)i, 0, HS_STREAM_MC));
        below += x < 1500e6;
        s += log(x / 1500e6);
    }
    CHECK(fabs((double)below / n - 0.5) < 4.0 * 0.5 / sqrt((double)n), "fraction below median %.5f",
          (double)below / n);
    CHECK(fabs(s / n) < 4.0 * 0.15 / sqrt((double)n), "mean of ln(x/median) %.2e", s / n);
    CHECK_CLOSE(hs_q_lognormal(2.0, 0.5, 0.975), 2.0 * exp(0.5 * hs_norm_quantile(0.975)), 1e-15,
                "median exp(sigma z)");
}

static void test_uniform_quantile(void)
{
    CHECK(hs_q_uniform(168.0, 252.0, 0.5) == 210.0, "midpoint");
    CHECK(hs_q_uniform(-1.0, 3.0, 0.25) == 0.0, "a + (b - a) u");
}

/* Each of the n strata [k/n, (k+1)/n) hit exactly once per parameter, in every block of n
 * consecutive instances; the permutations differ between parameters and seeds. */
static void test_lhs(void)
{
    static const long ns[] = {1000, 1, 7, 2, 4096, 5000};
    size_t t;
    for (t = 0; t < sizeof ns / sizeof ns[0]; ++t) {
        long n = ns[t], i, b;
        int *hit = (int *)calloc((size_t)n, sizeof *hit);
        uint32_t j;
        int ok = 1, inside = 1, differ = n < 3;
        for (j = 0; j < 5; ++j)
            for (b = 0; b < 2; ++b) {
                memset(hit, 0, (size_t)n * sizeof *hit);
                for (i = b * n; i < (b + 1) * n; ++i) {
                    double u = hs_lhs_u(42, (uint64_t)i, j, (uint64_t)n);
                    long s = (long)floor(u * (double)n);
                    inside &= u > 0.0 && u < 1.0;
                    if (s >= 0 && s < n) ++hit[s];
                }
                for (i = 0; i < n; ++i) ok &= hit[i] == 1;
            }
        for (i = 0; i < n && !differ; ++i)
            differ = hs_lhs_perm(42, 0, 0, (uint64_t)n, (uint64_t)i) !=
                         hs_lhs_perm(42, 0, 1, (uint64_t)n, (uint64_t)i) ||
                     hs_lhs_perm(42, 0, 0, (uint64_t)n, (uint64_t)i) !=
                         hs_lhs_perm(43, 0, 0, (uint64_t)n, (uint64_t)i);
        CHECK(ok, "n = %ld: every stratum exactly once per parameter and block", n);
        CHECK(inside, "n = %ld: u in (0, 1)", n);
        CHECK(differ, "n = %ld: permutations differ across parameters and seeds", n);
        free(hit);
    }
    /* strata stay exact where the jitter is extreme: u at the ends of the last stratum */
    {
        const uint64_t n = (uint64_t)1 << 40;
        uint64_t i;
        int ok = 1;
        for (i = n - 50; i < n; ++i) {
            double u = hs_lhs_u(9, i, 0, n);
            uint64_t p = hs_lhs_perm(9, 0, 0, n, i);
            ok &= (uint64_t)floor(u * (double)n) == p && u < 1.0;
        }
        CHECK(ok, "n = 2^40: floor(u n) is the stratum");
    }
}

/* Sobol' points against the known unshifted sequence and against reference integers; the
 * shifted points' stratification. */
static void test_sobol(void)
{
    /* points 1..7 of dimensions 1-3 (Joe & Kuo; e.g. scipy.stats.qmc.Sobol(scramble=False)) */
    static const double first[8][3] = {{0, 0, 0},
                                       {0.5, 0.5, 0.5},
                                       {0.75, 0.25, 0.25},
                                       {0.25, 0.75, 0.75},
                                       {0.375, 0.375, 0.625},
                                       {0.875, 0.875, 0.125},
                                       {0.625, 0.125, 0.875},
                                       {0.125, 0.625, 0.375}};
    /* unshifted 32-bit integers of points 1000, 65535, 199999 in dimensions 1, 2, 3, 5, 17, 32
     * (from an independent Gray-code-recursion implementation after Joe & Kuo's sobol.cc, and
     * equal to scipy 1.17.1's unscrambled Sobol' for all 32 dimensions, points 0..16383) */
    static const int dims[6] = {0, 1, 2, 4, 16, 31};
    static const uint32_t ref[3][7] = {
        {1000, 0x38400000u, 0x18c00000u, 0x84c00000u, 0x47c00000u, 0xb8400000u, 0x25400000u},
        {65535, 0x00010000u, 0xffff0000u, 0x90550000u, 0x40bb0000u, 0x28fb0000u, 0x824f0000u},
        {199999, 0x05d14000u, 0xbc4fc000u, 0xf445c000u, 0x3782c000u, 0x80714000u, 0x77c0c000u}};
    const int m = 8; /* 256 points */
    const uint32_t N = 1u << m;
    int i, d, k, a, ok;
    for (i = 0; i < 8; ++i)
        for (d = 0; d < 3; ++d)
            CHECK(hs_sobol_int((uint32_t)i, d) == (uint32_t)(first[i][d] * 4294967296.0),
                  "point %d dim %d", i, d + 1);
    for (i = 0; i < 3; ++i)
        for (d = 0; d < 6; ++d)
            CHECK(hs_sobol_int(ref[i][0], dims[d]) == ref[i][1 + d],
                  "point %u dim %d: %08x, want %08x", ref[i][0], dims[d] + 1,
                  hs_sobol_int(ref[i][0], dims[d]), ref[i][1 + d]);
    /* instance i is point i + 1: instances 0, 1, 2 of dim 1, unshifted values 0.5, 0.75,
     * 0.25, are XOR-shifted and centred */
    for (i = 0; i < 3; ++i) {
        uint32_t x = hs_sobol_int((uint32_t)i + 1, 0) ^ hs_sobol_shift(77, 0);
        CHECK(hs_sobol_u(77, (uint64_t)i, 0) == ((double)x + 0.5) / 4294967296.0,
              "instance %d = point %d, shifted", i, i + 1);
    }
    CHECK(hs_sobol_shift(77, 0) != hs_sobol_shift(77, 1) &&
              hs_sobol_shift(77, 0) != hs_sobol_shift(78, 0),
          "shifts differ per dimension and seed");
    /* 1D: in every dimension the aligned block of points N .. 2N-1 (instances N-1 .. 2N-2)
     * has one point in each interval [k/N, (k+1)/N), with the shift */
    ok = 1;
    for (d = 0; d < HS_SOBOL_MAX_DIM; ++d) {
        int hit[256];
        memset(hit, 0, sizeof hit);
        for (i = (int)N - 1; i < 2 * (int)N - 1; ++i) {
            double u = hs_sobol_u(2026, (uint64_t)i, (uint32_t)d);
            ok &= u > 0.0 && u < 1.0;
            ++hit[(int)(u * N)];
        }
        for (k = 0; k < (int)N; ++k) ok &= hit[k] == 1;
    }
    CHECK(ok, "1D stratification of every dimension (shifted)");
    /* 2D: dimensions 1 and 2 form a (0, m, 2)-net: every elementary box of area 1/N,
     * [k1/2^a, (k1+1)/2^a) x [k2/2^(m-a), (k2+1)/2^(m-a)), holds exactly one point */
    ok = 1;
    for (a = 0; a <= m; ++a) {
        int hit[256];
        memset(hit, 0, sizeof hit);
        for (i = (int)N - 1; i < 2 * (int)N - 1; ++i) {
            double u = hs_sobol_u(2026, (uint64_t)i, 0), v = hs_sobol_u(2026, (uint64_t)i, 1);
            int k1 = (int)(u * (1 << a)), k2 = (int)(v * (1 << (m - a)));
            ++hit[k1 * (1 << (m - a)) + k2];
        }
        for (k = 0; k < (int)N; ++k) ok &= hit[k] == 1;
    }
    CHECK(ok, "2D stratification of dimensions 1-2 in all %d box shapes (shifted)", m + 1);
    CHECK(hs_sobol_int(5, -1) == 0 && hs_sobol_int(5, HS_SOBOL_MAX_DIM) == 0, "dim out of range");
}

/* Saltelli's design (hs_saltelli_u): D = 2, N = 4 base points, so skip = 4 and the base
 * points are scipy's unscrambled Sobol' points 4..7 of 4 dimensions (qmc.Sobol(d=4,
 * scramble=False), fast_forward(4), random(4): A = columns 0-1, B = columns 2-3), in SALib's
 * row order A, AB^0, AB^1, BA^0, BA^1, B per base point. */
static void test_saltelli(void)
{
    static const double pts[4][4] = {{0.375, 0.375, 0.625, 0.875},
                                     {0.875, 0.875, 0.125, 0.375},
                                     {0.625, 0.125, 0.875, 0.625},
                                     {0.125, 0.625, 0.375, 0.125}};
    /* for row r of a block: the column of pts each parameter takes (j: A, j + 2: B) */
    static const int src[6][2] = {{0, 1}, {2, 1}, {0, 3}, {0, 3}, {2, 1}, {2, 3}};
    uint64_t b, r;
    int j, bad = 0;
    CHECK(hs_saltelli_skip(4) == 4 && hs_saltelli_skip(5) == 8 && hs_saltelli_skip(1) == 1 && hs_saltelli_skip(0) == 1,
          "saltelli skip: N rounded up to a power of 2");
    for (b = 0; b < 4; ++b)
        for (r = 0; r < 6; ++r)
            for (j = 0; j < 2; ++j) {
                double u = hs_saltelli_u(b * 6 + r, (uint32_t)j, 2, 4), want = pts[b][src[r][j]];
                if (u != want) {
                    if (bad++ < 5) printf("saltelli: block %d row %d param %d: %.17g, want %.17g\n", (int)b, (int)r, j, u, want);
                }
            }
    CHECK(bad == 0, "saltelli design equals SALib's layout of scipy's Sobol' points (%d differences)", bad);
}

static void test_grid(void)
{
    static const int counts[3] = {3, 5, 2};
    int seen[30], i, d0, d1, d2, ok = 1;
    memset(seen, 0, sizeof seen);
    for (i = 0; i < 30; ++i) {
        d0 = (int)hs_grid_digit((uint64_t)i, 0, counts);
        d1 = (int)hs_grid_digit((uint64_t)i, 1, counts);
        d2 = (int)hs_grid_digit((uint64_t)i, 2, counts);
        ok &= d0 >= 0 && d0 < 3 && d1 >= 0 && d1 < 5 && d2 >= 0 && d2 < 2;
        ok &= i == d0 + 3 * (d1 + 5 * d2);
        if (ok) ++seen[d0 + 3 * (d1 + 5 * d2)];
    }
    for (i = 0; i < 30; ++i) ok &= seen[i] == 1;
    CHECK(ok, "mixed radix, first parameter fastest, every combination once");
    CHECK(hs_grid_digit(1, 0, counts) == 1 && hs_grid_digit(3, 1, counts) == 1 &&
              hs_grid_digit(15, 2, counts) == 1 && hs_grid_digit(30, 0, counts) == 0,
          "digits of 1, 3, 15, 30");
}

/* Values printed for tests/test_sample.cu (the nvcc build must give the same bits). */
static void test_fixed_values(void)
{
    CHECK(hs_uniform(20261121u, 12345, 2, HS_STREAM_MC) == 0x1.0348e3a7b0548p-3, "uniform %a",
          hs_uniform(20261121u, 12345, 2, HS_STREAM_MC));
    CHECK(hs_q_normal(830.0, 83.0, hs_uniform(20261121u, 7, 1, HS_STREAM_MC)) ==
              0x1.59517f05e7f6dp+9,
          "normal %a", hs_q_normal(830.0, 83.0, hs_uniform(20261121u, 7, 1, HS_STREAM_MC)));
    CHECK(hs_q_truncnormal(550e6, 100e6, 300e6, 800e6, 0.123) == 0x1.a00c625058914p+28,
          "truncated normal %a", hs_q_truncnormal(550e6, 100e6, 300e6, 800e6, 0.123));
    CHECK(hs_q_lognormal(1500e6, 0.15, 0.9) == 0x1.b16d91d64cc51p+30, "lognormal %a",
          hs_q_lognormal(1500e6, 0.15, 0.9));
    CHECK(hs_lhs_u(1, 500, 3, 1000) == 0x1.49ec3f4d6ed3bp-3, "lhs %a", hs_lhs_u(1, 500, 3, 1000));
    CHECK(hs_sobol_u(1, 1000, 17) == 0x1.201cd46p-6, "sobol %a", hs_sobol_u(1, 1000, 17));
}

int main(void)
{
    test_philox_kat();
    test_uniform();
    test_determinism();
    test_norm_quantile();
    test_normal_moments();
    test_truncnormal();
    test_lognormal();
    test_uniform_quantile();
    test_lhs();
    test_sobol();
    test_saltelli();
    test_grid();
    test_fixed_values();
    return tu_report("test_sample");
}
