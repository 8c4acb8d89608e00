/* test_linalg.c -- kernels/hs_linalg.h against LAPACK (dgetrf/dgetrs/dgecon) and against
 * hand computations.
 *
 * LU: random matrices n = 1..40 (fixed-seed xorshift64*), row-major for hs_lu_*, transposed
 * copies (column-major) for LAPACK. Checked per matrix:
 *  - pivot sequence: piv[k] == ipiv[k] - 1 (both pick the first largest |a_ik|),
 *  - solution vs LAPACK's: |x - x_lapack|_inf / |x_lapack|_inf <= 1e-13 * kappa_1(A)
 *    (both are backward stable; the forward difference is bounded by kappa * O(n eps)),
 *  - solution vs the known exact x: the same bound,
 *  - backward error |A x - b|_inf / (|A|_inf |x|_inf) <= 1e-14 (independent of kappa),
 *  - padding of a leading dimension lda > n is never touched.
 * Singular matrices: info == k+1 for the first zero pivot column, the same as LAPACK's. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

extern void dgetrf_(const int *m, const int *n, double *a, const int *lda, int *ipiv, int *info);
extern void dgetrs_(const char *trans, const int *n, const int *nrhs, const double *a,
                    const int *lda, const int *ipiv, double *b, const int *ldb, int *info);
extern void dgetri_(const int *n, double *a, const int *lda, const int *ipiv, double *work, const int *lwork,
                    int *info);
extern void dgecon_(const char *norm, const int *n, const double *a, const int *lda,
                    const double *anorm, double *rcond, double *work, int *iwork, int *info);

#define CHECK_NEAR(a, b, tol) CHECK_CLOSE(a, b, tol, #a) /* |a - b| <= tol * max(1, |b|) */

/* ---- fixed-seed generator (xorshift64*) ---- */
static unsigned long long g_rng = 0x9E3779B97F4A7C15ull;
static double rnd(void) /* uniform in [-1, 1) */
{
    g_rng ^= g_rng >> 12;
    g_rng ^= g_rng << 25;
    g_rng ^= g_rng >> 27;
    return (double)((g_rng * 0x2545F4914F6CDD1Dull) >> 11) * (2.0 / 9007199254740992.0) - 1.0;
}

#define NMAX 40
#define PAD 3 /* extra columns of the row-major copy: lda = n + PAD */
/* padding value of element (i, j >= n): distinct per row, so a swap of padding shows */
#define SENTINEL(i, j) (1000.0 + (double)(i) * 100.0 + (double)(j))

static double inf_norm_vec(const double *x, int n)
{
    double s = 0.0;
    int i;
    for (i = 0; i < n; ++i)
        if (fabs(x[i]) > s) s = fabs(x[i]);
    return s;
}

/* max ratios seen, printed at the end so the tolerances can be judged */
static double g_worst_fwd, g_worst_true, g_worst_bwd;

/* One random system of size n; returns 1 when kappa was too large to count as
 * well-conditioned (the matrix is then redrawn). */
static int lu_random_case(int n)
{
    int lda = n + PAD, i, j, info, nrhs = 1, iwork[NMAX], piv[NMAX], ipiv[NMAX];
    double A[NMAX * (NMAX + PAD)], LU[NMAX * (NMAX + PAD)], Ac[NMAX * NMAX];
    double xt[NMAX], b[NMAX], x[NMAX], xl[NMAX], r[NMAX], work[4 * NMAX];
    double anorm1 = 0.0, anorminf = 0.0, rcond = 0.0, kappa, d, e;

    for (i = 0; i < n; ++i)
        for (j = 0; j < lda; ++j) A[i * lda + j] = j < n ? rnd() : SENTINEL(i, j);
    for (i = 0; i < n; ++i) xt[i] = rnd() + (i % 2 ? 2.0 : -2.0);
    for (i = 0; i < n; ++i) {
        double s = 0.0, rs = 0.0;
        for (j = 0; j < n; ++j) {
            s += A[i * lda + j] * xt[j];
            rs += fabs(A[i * lda + j]);
        }
        b[i] = s;
        if (rs > anorminf) anorminf = rs;
    }
    for (j = 0; j < n; ++j) {
        double cs = 0.0;
        for (i = 0; i < n; ++i) {
            Ac[j * n + i] = A[i * lda + j]; /* column-major copy of the same matrix */
            cs += fabs(A[i * lda + j]);
        }
        if (cs > anorm1) anorm1 = cs;
    }

    /* LAPACK */
    dgetrf_(&n, &n, Ac, &n, ipiv, &info);
    CHECK(info == 0, "n=%d: dgetrf info %d", n, info);
    dgecon_("1", &n, Ac, &n, &anorm1, &rcond, work, iwork, &info);
    CHECK(info == 0 && rcond > 0.0, "n=%d: dgecon info %d rcond %g", n, info, rcond);
    kappa = 1.0 / rcond;
    if (kappa > 1e6) return 1;
    memcpy(xl, b, sizeof(double) * (size_t)n);
    dgetrs_("N", &n, &nrhs, Ac, &n, ipiv, xl, &n, &info);
    CHECK(info == 0, "n=%d: dgetrs info %d", n, info);

    /* ours */
    memcpy(LU, A, sizeof(double) * (size_t)(n * lda));
    memcpy(x, b, sizeof(double) * (size_t)n);
    info = hs_lu_factor(LU, n, lda, piv);
    CHECK(info == 0, "n=%d: hs_lu_factor returned %d on a regular matrix", n, info);
    hs_lu_solve(LU, n, lda, piv, x);

    for (i = 0; i < n; ++i)
        CHECK(piv[i] == ipiv[i] - 1, "n=%d: piv[%d] = %d, LAPACK ipiv-1 = %d", n, i, piv[i],
              ipiv[i] - 1);
    for (i = 0; i < n; ++i)
        for (j = n; j < lda; ++j)
            if (LU[i * lda + j] != SENTINEL(i, j)) {
                CHECK(LU[i * lda + j] == SENTINEL(i, j), "n=%d: padding (%d,%d) overwritten", n,
                      i, j);
                i = n;
                break;
            }
    /* the factors themselves: same pivots, so L and U agree with LAPACK's to rounding (ours
     * holds the reciprocals of U's diagonal) */
    e = 0.0;
    for (i = 0; i < n; ++i)
        for (j = 0; j < n; ++j) {
            d = fabs((i == j ? 1.0 / LU[i * lda + j] : LU[i * lda + j]) - Ac[j * n + i]);
            if (d > e) e = d;
        }
    CHECK(e <= 1e-13 * kappa, "n=%d: max |LU - LAPACK LU| = %g (kappa %g)", n, e, kappa);

    for (i = 0; i < n; ++i) r[i] = x[i] - xl[i];
    d = inf_norm_vec(r, n) / inf_norm_vec(xl, n);
    if (d / kappa > g_worst_fwd) g_worst_fwd = d / kappa;
    CHECK(d <= 1e-13 * kappa, "n=%d: |x - x_lapack|/|x_lapack| = %g, kappa %g", n, d, kappa);

    for (i = 0; i < n; ++i) r[i] = x[i] - xt[i];
    d = inf_norm_vec(r, n) / inf_norm_vec(xt, n);
    if (d / kappa > g_worst_true) g_worst_true = d / kappa;
    CHECK(d <= 1e-13 * kappa, "n=%d: |x - x_true|/|x_true| = %g, kappa %g", n, d, kappa);

    for (i = 0; i < n; ++i) {
        double s = -b[i];
        for (j = 0; j < n; ++j) s += A[i * lda + j] * x[j];
        r[i] = s;
    }
    d = inf_norm_vec(r, n) / (anorminf * inf_norm_vec(x, n));
    if (d > g_worst_bwd) g_worst_bwd = d;
    CHECK(d <= 1e-14, "n=%d: backward error %g", n, d);

    /* the transposed solve A^T y = b (hs_lu_solve_t) with the same factors, against LAPACK's
     * dgetrs "T" and by its backward error (A^T's infinity norm is A's 1-norm) */
    memcpy(xl, b, sizeof(double) * (size_t)n);
    dgetrs_("T", &n, &nrhs, Ac, &n, ipiv, xl, &n, &info);
    memcpy(x, b, sizeof(double) * (size_t)n);
    hs_lu_solve_t(LU, n, lda, piv, x);
    for (i = 0; i < n; ++i) r[i] = x[i] - xl[i];
    d = inf_norm_vec(r, n) / inf_norm_vec(xl, n);
    CHECK(info == 0 && d <= 1e-13 * kappa, "n=%d: transposed |y - y_lapack|/|y_lapack| = %g, kappa %g", n, d, kappa);
    for (i = 0; i < n; ++i) {
        double s = -b[i];
        for (j = 0; j < n; ++j) s += A[j * lda + i] * x[j];
        r[i] = s;
    }
    d = inf_norm_vec(r, n) / (anorm1 * inf_norm_vec(x, n));
    CHECK(d <= 1e-14, "n=%d: transposed backward error %g", n, d);
    return 0;
}

static void test_lu_random(void)
{
    int n, t, redrawn = 0;
    for (n = 1; n <= NMAX; ++n)
        for (t = 0; t < 3; ++t)
            while (lu_random_case(n)) ++redrawn;
    printf("lu random: worst |x-x_lapack|/kappa %.3g, |x-x_true|/kappa %.3g, backward %.3g, "
           "%d ill-conditioned draws redrawn\n",
           g_worst_fwd, g_worst_true, g_worst_bwd, redrawn);
    /* the loop must really have exercised pivoting: see test_lu_pivoting_happens */
}

/* Random matrices force row exchanges; make sure the comparison above was not vacuous. */
static void test_lu_pivoting_happens(void)
{
    double A[8 * 8];
    int piv[8], i, swaps = 0;
    for (i = 0; i < 64; ++i) A[i] = rnd();
    CHECK(hs_lu_factor(A, 8, 8, piv) == 0, "regular 8x8");
    for (i = 0; i < 8; ++i) swaps += piv[i] != i;
    CHECK(swaps > 0, "no row exchange on a random 8x8 matrix");
}

/* Hand computation:
 * A = [1 2 0; 3 4 4; 5 6 3]; step 0 pivots row 2 (5): l = 0.6, 0.2; rows become
 * [0.4 2.2] and [0.8 -0.6]; step 1 pivots 0.8 (row 2): l = 0.5; u22 = 2.2 + 0.5*0.6 = 2.5.
 * U = [5 6 3; . 0.8 -0.6; . . 2.5] (stored with 1/u_kk on the diagonal), L = [. . .; 0.2 . .;
 * 0.6 0.5 .], piv = {2, 2, 2}, det = 5*0.8*2.5 = 10.
 * x = (1, -1, 2) gives b = (-1, 7, 5). */
static void test_lu_hand_3x3(void)
{
    double A[9] = {1, 2, 0, 3, 4, 4, 5, 6, 3};
    const double LUe[9] = {1 / 5.0, 6, 3, 0.2, 1 / 0.8, -0.6, 0.6, 0.5, 1 / 2.5}; /* 1/u_kk on the diagonal */
    double b[3] = {-1, 7, 5};
    int piv[3] = {-1, -1, -1}, k;
    CHECK(hs_lu_factor(A, 3, 3, piv) == 0, "hand 3x3 is regular");
    CHECK(piv[0] == 2 && piv[1] == 2 && piv[2] == 2, "piv = {%d,%d,%d}, expected {2,2,2}",
          piv[0], piv[1], piv[2]);
    for (k = 0; k < 9; ++k) CHECK_NEAR(A[k], LUe[k], 1e-15);
    CHECK_NEAR(1.0 / (A[0] * A[4] * A[8]), 10.0, 1e-14);
    hs_lu_solve(A, 3, 3, piv, b);
    CHECK_NEAR(b[0], 1.0, 1e-14);
    CHECK_NEAR(b[1], -1.0, 1e-14);
    CHECK_NEAR(b[2], 2.0, 1e-14);
}

/* dgetrf on a row-major n x n matrix (copied); ipiv_out (1-based) may be NULL. */
static int lapack_getrf(const double *A, int n, int *ipiv_out)
{
    double Ac[NMAX * NMAX];
    int ipiv[NMAX], info, i, j;
    for (i = 0; i < n; ++i)
        for (j = 0; j < n; ++j) Ac[j * n + i] = A[i * n + j];
    dgetrf_(&n, &n, Ac, &n, ipiv, &info);
    if (ipiv_out)
        for (i = 0; i < n; ++i) ipiv_out[i] = ipiv[i];
    return info;
}

static int lapack_info(const double *A, int n)
{
    return lapack_getrf(A, n, NULL);
}

/* Ties in |a_ik|: the first row wins, as in LAPACK (idamax). [1 2; -1 3]: no exchange,
 * l = -1, u11 = 3 + 2 = 5. [0 1 0; 2 0 1; -2 1 1]: rows 1 and 2 tie, row 1 wins (piv[0] = 1). */
static void test_lu_ties(void)
{
    double A[4] = {1, 2, -1, 3}, T[9] = {0, 1, 0, 2, 0, 1, -2, 1, 1}, b[3];
    int piv[3], ipiv[3];
    CHECK(lapack_getrf(A, 2, ipiv) == 0 && ipiv[0] == 1 && ipiv[1] == 2, "LAPACK 2x2 tie");
    CHECK(lapack_getrf(T, 3, ipiv) == 0 && ipiv[0] == 2 && ipiv[1] == 2 && ipiv[2] == 3,
          "LAPACK 3x3 tie: ipiv {%d,%d,%d}", ipiv[0], ipiv[1], ipiv[2]);
    CHECK(hs_lu_factor(A, 2, 2, piv) == 0, "2x2 tie regular");
    CHECK(piv[0] == 0 && piv[1] == 1, "2x2 tie: piv {%d,%d}, expected {0,1}", piv[0], piv[1]);
    CHECK(A[2] == -1.0 && A[3] == 1 / 5.0, "2x2 tie: l = %g, 1/u11 = %g", A[2], A[3]);
    /* 3x3: after step 0 (row 1 = [2 0 1] pivot) rows are [0 | 1 0] (l = 0) and
     * [-1 | 1 2] (l = -1); step 1 ties |1| = |1| again: first (row 1) wins, piv[1] = 1;
     * l = 1, u22 = 2 - 0 = 2. det = -(2 * 1 * 2) = -4 (one exchange).
     * x = (1, 2, 3): b = (2, 5, 3). */
    CHECK(hs_lu_factor(T, 3, 3, piv) == 0, "3x3 tie regular");
    CHECK(piv[0] == 1 && piv[1] == 1 && piv[2] == 2, "3x3 tie: piv {%d,%d,%d}, expected {1,1,2}",
          piv[0], piv[1], piv[2]);
    CHECK_NEAR(1.0 / (T[0] * T[4] * T[8]), 4.0, 0);
    b[0] = 2; b[1] = 5; b[2] = 3;
    hs_lu_solve(T, 3, 3, piv, b);
    CHECK_NEAR(b[0], 1.0, 1e-15);
    CHECK_NEAR(b[1], 2.0, 1e-15);
    CHECK_NEAR(b[2], 3.0, 1e-15);
}


static void test_lu_singular(void)
{
    int piv[NMAX], info, i, n, k;
    double A[NMAX * NMAX], B[NMAX * NMAX];

    /* 1x1 zero */
    A[0] = 0.0;
    CHECK(hs_lu_factor(A, 1, 1, piv) == 1, "1x1 zero matrix");

    /* the all-zero matrix: first zero pivot in column 0 */
    for (i = 0; i < 25; ++i) A[i] = 0.0;
    CHECK(hs_lu_factor(A, 5, 5, piv) == 1, "5x5 zero matrix");

    /* row 1 = 2 * row 0 (exact after elimination with l = 0.5):
     * [1 2 3; 2 4 6; 1 1 1] -> piv {1, 2, 2}, zero pivot in column 2 -> 3 */
    {
        double S[9] = {1, 2, 3, 2, 4, 6, 1, 1, 1};
        CHECK(lapack_info(S, 3) == 3, "LAPACK info on the hand singular 3x3");
        info = hs_lu_factor(S, 3, 3, piv);
        CHECK(info == 3, "hand singular 3x3: info %d, expected 3", info);
        CHECK(piv[0] == 1 && piv[1] == 2, "hand singular 3x3: piv {%d,%d}", piv[0], piv[1]);
        for (i = 0; i < 9; ++i) CHECK(isfinite(S[i]), "hand singular 3x3: factor %d = %g", i, S[i]);
    }

    /* random matrices with column k zeroed: info k+1 (the column stays exactly zero), as
     * LAPACK's; a second zero column later does not change it (first one is reported) */
    for (n = 2; n <= 12; ++n)
        for (k = 0; k < n; ++k) {
            for (i = 0; i < n * n; ++i) A[i] = rnd();
            for (i = 0; i < n; ++i) A[i * n + k] = 0.0;
            if (k + 2 < n)
                for (i = 0; i < n; ++i) A[i * n + k + 2] = 0.0;
            memcpy(B, A, sizeof(double) * (size_t)(n * n));
            info = hs_lu_factor(B, n, n, piv);
            CHECK(info == k + 1, "n=%d zero column %d: info %d", n, k, info);
            CHECK(info == lapack_info(A, n), "n=%d zero column %d: info %d, LAPACK %d", n, k,
                  info, lapack_info(A, n));
            for (i = 0; i < n * n; ++i)
                if (!isfinite(B[i])) {
                    CHECK(isfinite(B[i]), "n=%d zero column %d: non-finite factor", n, k);
                    break;
                }
        }

    /* a NaN column is reported as singular, not silently factorised */
    {
        double N3[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
        N3[1] = N3[4] = N3[7] = NAN;
        info = hs_lu_factor(N3, 3, 3, piv);
        CHECK(info == 2, "NaN column 1: info %d, expected 2", info);
    }
}

static void test_solve_regularised(void)
{
    double A[4], b[2];
    int piv[2];
    /* [2 1; 1 2] + 1*I = [3 1; 1 3], b = (4, 4) -> x = (1, 1) */
    A[0] = 2; A[1] = 1; A[2] = 1; A[3] = 2;
    b[0] = 4; b[1] = 4;
    CHECK(hs_solve_regularised(A, 2, 2, piv, b, 1.0) == 0, "regularised SPD");
    CHECK_NEAR(b[0], 1.0, 1e-15);
    CHECK_NEAR(b[1], 1.0, 1e-15);
    /* [1 1; 1 1] singular without regularisation, [2 1; 1 2] with delta = 1: b = (3,3) */
    A[0] = A[1] = A[2] = A[3] = 1.0;
    b[0] = b[1] = 3.0;
    CHECK(hs_solve_regularised(A, 2, 2, piv, b, 0.0) == 1, "singular, delta 0");
    A[0] = A[1] = A[2] = A[3] = 1.0;
    b[0] = b[1] = 3.0;
    CHECK(hs_solve_regularised(A, 2, 2, piv, b, 1.0) == 0, "singular + delta 1");
    CHECK_NEAR(b[0], 1.0, 1e-15);
    CHECK_NEAR(b[1], 1.0, 1e-15);
}

static void test_vec3(void)
{
    double a[3], b[3], r[3], w[3];
    hs_v3_set(a, 1, 2, 3);
    hs_v3_set(b, -4, 5, 0.5);
    CHECK_NEAR(hs_v3_dot(a, b), -4 + 10 + 1.5, 0);
    hs_v3_cross(r, a, b); /* (2*0.5 - 3*5, 3*(-4) - 1*0.5, 1*5 - 2*(-4)) */
    CHECK_NEAR(r[0], -14.0, 0);
    CHECK_NEAR(r[1], -12.5, 0);
    CHECK_NEAR(r[2], 13.0, 0);
    CHECK_NEAR(hs_v3_dot(r, a), 0.0, 1e-14);
    CHECK_NEAR(hs_v3_dot(r, b), 0.0, 1e-14);
    hs_v3_axpy(r, a, -2.0, b); /* a - 2b */
    CHECK(r[0] == 9.0 && r[1] == -8.0 && r[2] == 2.0, "axpy (%g %g %g)", r[0], r[1], r[2]);
    hs_v3_copy(r, a);
    hs_v3_axpy(r, r, 0.5, b); /* aliasing r = a */
    CHECK(r[0] == -1.0 && r[1] == 4.5 && r[2] == 3.25, "axpy aliased (%g %g %g)", r[0], r[1],
          r[2]);
    hs_v3_sub(r, a, b);
    CHECK(r[0] == 5.0 && r[1] == -3.0 && r[2] == 2.5, "sub (%g %g %g)", r[0], r[1], r[2]);
    hs_v3_set(r, 3, 4, 12);
    CHECK_NEAR(hs_v3_norm(r), 13.0, 1e-15);
    /* w x (w x a) with w = (0,0,2), a = (1,2,3): w x a = (-4, 2, 0), w x that = (-4, -8, 0)
     * = -|w|^2 * (in-plane part of a) */
    hs_v3_set(w, 0, 0, 2);
    hs_v3_cross2(r, w, a);
    CHECK(r[0] == -4.0 && r[1] == -8.0 && r[2] == 0.0, "cross2 (%g %g %g)", r[0], r[1], r[2]);
}

static void test_mat3(void)
{
    double I[9], R[9], R2[9], C[9], G[9], u[3], v[3], r[3];
    const double A[9] = {1, 2, 3, 4, 5, 6, 7, 8, 10};
    const double B[9] = {0, 1, 0, -1, 0, 2, 1, 1, 1};
    /* A*B by hand: row0 (0-2+3, 1+0+3, 0+4+3) = (1,4,7); row1 (0-5+6, 4+0+6, 0+10+6) =
     * (1,10,16); row2 (0-8+10, 7+0+10, 0+16+10) = (2,17,26) */
    const double AB[9] = {1, 4, 7, 1, 10, 16, 2, 17, 26};
    const double J[6] = {1.0, 2.0, 3.0, 0.1, 0.2, 0.3}; /* xx yy zz xy xz yz */
    int k;

    hs_m3_identity(I);
    for (k = 0; k < 9; ++k) CHECK(I[k] == (k % 4 == 0 ? 1.0 : 0.0), "identity[%d]", k);
    hs_m3_mul(C, A, B);
    for (k = 0; k < 9; ++k) CHECK_NEAR(C[k], AB[k], 0);
    hs_v3_set(u, 1, -1, 2);
    hs_m3_mulv(r, A, u); /* (1-2+6, 4-5+12, 7-8+20) */
    CHECK(r[0] == 5.0 && r[1] == 11.0 && r[2] == 19.0, "mulv (%g %g %g)", r[0], r[1], r[2]);

    /* Rot(z, 90 deg) maps x to y */
    hs_v3_set(u, 0, 0, 1);
    hs_m3_rot(R, u, 0.5 * HS_PI);
    hs_v3_set(v, 1, 0, 0);
    hs_m3_mulv(r, R, v);
    CHECK_NEAR(r[0], 0.0, 1e-15);
    CHECK_NEAR(r[1], 1.0, 1e-15);
    CHECK_NEAR(r[2], 0.0, 1e-15);
    /* Rot((1,1,1)/sqrt3, 120 deg) permutes the axes x -> y -> z -> x */
    hs_v3_set(u, 1 / sqrt(3.0), 1 / sqrt(3.0), 1 / sqrt(3.0));
    hs_m3_rot(R2, u, 2.0 * HS_PI / 3.0);
    {
        const double P[9] = {0, 0, 1, 1, 0, 0, 0, 1, 0};
        for (k = 0; k < 9; ++k) CHECK_NEAR(R2[k], P[k], 1e-15);
    }

    /* inertia rotated by Rot(z, 90): with J = [a d e; d b f; e f c] the global tensor is
     * [b -d -f; -d a e; -f e c] */
    hs_m3_rot(R, u, 0.0); /* identity rotation first: G == J */
    hs_m3_inertia_global(G, R, J);
    {
        const double Jf[9] = {1.0, 0.1, 0.2, 0.1, 2.0, 0.3, 0.2, 0.3, 3.0};
        for (k = 0; k < 9; ++k) CHECK_NEAR(G[k], Jf[k], 1e-15);
    }
    hs_v3_set(u, 0, 0, 1);
    hs_m3_rot(R, u, 0.5 * HS_PI);
    hs_m3_inertia_global(G, R, J);
    {
        const double Ge[9] = {2.0, -0.1, -0.3, -0.1, 1.0, 0.2, -0.3, 0.2, 3.0};
        for (k = 0; k < 9; ++k) CHECK_NEAR(G[k], Ge[k], 1e-15);
    }
}

/* hs_lu_invert against LAPACK's dgetri on random matrices n = 1..NMAX (row-major with
 * padding, which stays untouched): both inverses of the same factors, so they agree to
 * rounding times the condition; inv(A) A = I; and hs_inverse_apply equals hs_lu_solve's
 * solution to rounding. The hand 3x3 (test_lu_hand_3x3) has an exact inverse. */
static void test_lu_invert(void)
{
    int n, draw;
    double worst = 0.0;
    for (n = 1; n <= NMAX; ++n)
        for (draw = 0; draw < 20; ++draw) {
            int lda = n + PAD, i, j, k, info, piv[NMAX], ipiv[NMAX], lwork = NMAX;
            double A[NMAX * (NMAX + PAD)], X[NMAX * (NMAX + PAD)], Ac[NMAX * NMAX], wk[NMAX], b[NMAX], x[NMAX];
            double e = 0.0, ei = 0.0, nx = 0.0, eb = 0.0;
            for (i = 0; i < n; ++i)
                for (j = 0; j < lda; ++j) A[i * lda + j] = j < n ? rnd() + (i == j ? 2.0 : 0.0) : SENTINEL(i, j);
            memcpy(X, A, sizeof(double) * (size_t)(n * lda));
            CHECK(hs_lu_factor(X, n, lda, piv) == 0, "invert n=%d: regular", n);
            hs_lu_invert(X, n, lda, piv, wk);
            for (i = 0; i < n; ++i)
                for (j = 0; j < n; ++j) Ac[j * n + i] = A[i * lda + j];
            dgetrf_(&n, &n, Ac, &n, ipiv, &info);
            dgetri_(&n, Ac, &n, ipiv, wk, &lwork, &info);
            CHECK(info == 0, "dgetri n=%d info %d", n, info);
            for (i = 0; i < n; ++i) {
                for (j = 0; j < n; ++j) {
                    double r = 0.0;
                    for (k = 0; k < n; ++k) r += X[i * lda + k] * A[k * lda + j];
                    if (fabs(r - (i == j)) > ei) ei = fabs(r - (i == j));
                    if (fabs(X[i * lda + j] - Ac[j * n + i]) > e) e = fabs(X[i * lda + j] - Ac[j * n + i]);
                    if (fabs(X[i * lda + j]) > nx) nx = fabs(X[i * lda + j]);
                }
                for (j = n; j < lda; ++j) CHECK(X[i * lda + j] == SENTINEL(i, j), "invert n=%d: padding kept", n);
            }
            CHECK(e <= 1e-13 * nx, "n=%d: max |inv - dgetri| %.3e of %.3e", n, e, nx);
            CHECK(ei <= 1e-13 * nx, "n=%d: max |inv(A) A - I| %.3e", n, ei);
            if (e / nx > worst) worst = e / nx;
            for (i = 0; i < n; ++i) b[i] = x[i] = rnd();
            hs_inverse_apply(X, n, lda, b, wk);
            memcpy(X, A, sizeof(double) * (size_t)(n * lda));
            hs_lu_factor(X, n, lda, piv);
            hs_lu_solve(X, n, lda, piv, x);
            for (i = 0; i < n; ++i)
                if (fabs(b[i] - x[i]) > eb) eb = fabs(b[i] - x[i]);
            CHECK(eb <= 1e-13 * nx * inf_norm_vec(x, n), "n=%d: inverse apply vs LU solve %.3e", n, eb);
        }
    printf("lu invert: worst |inv - dgetri| / |inv| %.2e\n", worst);
    {
        double A[9] = {1, 2, 0, 3, 4, 4, 5, 6, 3}, wk[3];
        /* inv([1 2 0; 3 4 4; 5 6 3]) = [-12 -6 8; 11 3 -4; -2 4 -2] / 10 (det 10) */
        const double Xe[9] = {-1.2, -0.6, 0.8, 1.1, 0.3, -0.4, -0.2, 0.4, -0.2};
        int piv[3], k;
        CHECK(hs_lu_factor(A, 3, 3, piv) == 0, "hand 3x3 for the inverse");
        hs_lu_invert(A, 3, 3, piv, wk);
        for (k = 0; k < 9; ++k) CHECK_NEAR(A[k], Xe[k], 1e-15);
    }
}

int main(void)
{
    test_vec3();
    test_mat3();
    test_lu_hand_3x3();
    test_lu_ties();
    test_lu_random();
    test_lu_pivoting_happens();
    test_lu_singular();
    test_solve_regularised();
    test_lu_invert();
    return tu_report("test_linalg");
}
