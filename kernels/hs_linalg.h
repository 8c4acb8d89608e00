/* hs_linalg.h -- small dense linear algebra for one instance: 3-vectors, 3x3 rotations and
 * 6x6 spatial blocks, and LU factorisation with partial pivoting for the Newton matrix.
 * Row-major throughout. Tested against LAPACK dgetrf/dgetrs in tests/test_linalg.c. */
#ifndef HS_LINALG_H
#define HS_LINALG_H

#include "hs_hd.h"

/* ---- 3-vectors ---- */
HS_HD static inline void hs_v3_set(hs_real r[3], hs_real x, hs_real y, hs_real z)
{
    r[0] = x;
    r[1] = y;
    r[2] = z;
}
HS_HD static inline void hs_v3_copy(hs_real r[3], const hs_real a[3])
{
    r[0] = a[0];
    r[1] = a[1];
    r[2] = a[2];
}
HS_HD static inline hs_real hs_v3_dot(const hs_real a[3], const hs_real b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
/* r = a x b (r may alias neither a nor b) */
HS_HD static inline void hs_v3_cross(hs_real r[3], const hs_real a[3], const hs_real b[3])
{
    r[0] = a[1] * b[2] - a[2] * b[1];
    r[1] = a[2] * b[0] - a[0] * b[2];
    r[2] = a[0] * b[1] - a[1] * b[0];
}
/* r = a + s b (r may alias a) */
HS_HD static inline void hs_v3_axpy(hs_real r[3], const hs_real a[3], hs_real s, const hs_real b[3])
{
    r[0] = a[0] + s * b[0];
    r[1] = a[1] + s * b[1];
    r[2] = a[2] + s * b[2];
}
HS_HD static inline void hs_v3_sub(hs_real r[3], const hs_real a[3], const hs_real b[3])
{
    r[0] = a[0] - b[0];
    r[1] = a[1] - b[1];
    r[2] = a[2] - b[2];
}
HS_HD static inline hs_real hs_v3_norm(const hs_real a[3])
{
    return sqrt(hs_v3_dot(a, a));
}
/* r = w x (w x a) */
HS_HD static inline void hs_v3_cross2(hs_real r[3], const hs_real w[3], const hs_real a[3])
{
    hs_real t[3];
    hs_v3_cross(t, w, a);
    hs_v3_cross(r, w, t);
}

/* ---- 3x3 matrices (row-major) ---- */
HS_HD static inline void hs_m3_identity(hs_real A[9])
{
    int k;
    for (k = 0; k < 9; ++k) A[k] = (k % 4 == 0) ? 1.0 : 0.0;
}
HS_HD static inline void hs_m3_copy(hs_real R[9], const hs_real A[9])
{
    int k;
    for (k = 0; k < 9; ++k) R[k] = A[k];
}
/* r = A a */
HS_HD static inline void hs_m3_mulv(hs_real r[3], const hs_real A[9], const hs_real a[3])
{
    r[0] = A[0] * a[0] + A[1] * a[1] + A[2] * a[2];
    r[1] = A[3] * a[0] + A[4] * a[1] + A[5] * a[2];
    r[2] = A[6] * a[0] + A[7] * a[1] + A[8] * a[2];
}
/* r = A a for an A that keeps e_z to the bit (a rotation about z: A[2], A[5], A[6], A[7] are
 * +-0 and A[8] is 1): hs_m3_mulv's values without its products with those zeros (a zero of
 * the result may differ in sign) */
HS_HD static inline void hs_m3_mulv_z(hs_real r[3], const hs_real A[9], const hs_real a[3])
{
    r[0] = A[0] * a[0] + A[1] * a[1];
    r[1] = A[3] * a[0] + A[4] * a[1];
    r[2] = A[8] * a[2];
}
/* C = A B (C aliases neither) */
HS_HD static inline void hs_m3_mul(hs_real C[9], const hs_real A[9], const hs_real B[9])
{
    int i, j;
    for (i = 0; i < 3; ++i)
        for (j = 0; j < 3; ++j)
            C[3 * i + j] = A[3 * i] * B[j] + A[3 * i + 1] * B[3 + j] + A[3 * i + 2] * B[6 + j];
}
/* Rotation by angle q about the unit axis u (Rodrigues). */
HS_HD static inline void hs_m3_rot(hs_real R[9], const hs_real u[3], hs_real q)
{
    hs_real c = cos(q), s = sin(q), v = 1.0 - c;
    R[0] = c + u[0] * u[0] * v;
    R[1] = u[0] * u[1] * v - u[2] * s;
    R[2] = u[0] * u[2] * v + u[1] * s;
    R[3] = u[1] * u[0] * v + u[2] * s;
    R[4] = c + u[1] * u[1] * v;
    R[5] = u[1] * u[2] * v - u[0] * s;
    R[6] = u[2] * u[0] * v - u[1] * s;
    R[7] = u[2] * u[1] * v + u[0] * s;
    R[8] = c + u[2] * u[2] * v;
}
/* T = A Rot(s e_k, q) for the rotation by q about the coordinate axis e_k (k = |kind| - 1)
 * or -e_k (kind < 0): with (a, b) the next two axes in cyclic order, Rot e_a = c e_a + s e_b,
 * Rot e_b = -s e_a + c e_b, Rot e_k = e_k, so two columns of A mix and one is copied (18
 * flops instead of Rodrigues' matrix and a 3x3 product), given c = cos q and sq = sin q.
 * T may not alias A. */
HS_HD static inline void hs_m3_mul_axisrot_cs(hs_real T[9], const hs_real A[9], int kind, hs_real c, hs_real sq)
{
    int k = (kind > 0 ? kind : -kind) - 1, a = (k + 1) % 3, b = (k + 2) % 3, i;
    hs_real s = kind > 0 ? sq : -sq;
    for (i = 0; i < 3; ++i) {
        T[3 * i + a] = A[3 * i + a] * c + A[3 * i + b] * s;
        T[3 * i + b] = A[3 * i + b] * c - A[3 * i + a] * s;
        T[3 * i + k] = A[3 * i + k];
    }
}

/* hs_m3_mul_axisrot_cs about z (kind +-3) for an A that keeps e_z (as hs_m3_mulv_z): the
 * same values without the products with A's zeros. */
HS_HD static inline void hs_m3_mul_zrot_cs(hs_real T[9], const hs_real A[9], int kind, hs_real c, hs_real sq)
{
    hs_real s = kind > 0 ? sq : -sq;
    T[0] = A[0] * c + A[1] * s;
    T[1] = A[1] * c - A[0] * s;
    T[3] = A[3] * c + A[4] * s;
    T[4] = A[4] * c - A[3] * s;
    T[2] = A[2];
    T[5] = A[5];
    T[6] = T[7] = 0.0;
    T[8] = A[8];
}

/* Symmetric inertia J (xx yy zz xy xz yz, body frame) rotated to global: G = A J A^T, its six
 * distinct entries computed once (G is exactly symmetric). */
HS_HD static inline void hs_m3_inertia_global(hs_real G[9], const hs_real A[9], const hs_real J[6])
{
    hs_real Jf[9], T[9];
    int i, j;
    Jf[0] = J[0];
    Jf[4] = J[1];
    Jf[8] = J[2];
    Jf[1] = Jf[3] = J[3];
    Jf[2] = Jf[6] = J[4];
    Jf[5] = Jf[7] = J[5];
    hs_m3_mul(T, A, Jf);
    for (i = 0; i < 3; ++i)
        for (j = i; j < 3; ++j) {
            hs_real s = T[3 * i] * A[3 * j] + T[3 * i + 1] * A[3 * j + 1] + T[3 * i + 2] * A[3 * j + 2];
            G[3 * i + j] = G[3 * j + i] = s;
        }
}

/* 1 when a body (mass, centre of mass com, inertia J about it: xx yy zz xy xz yz, body frame)
 * has inertia about every axis through the point pt (body frame): its inertia about pt,
 * J + mass (|r|^2 I - r r^T) with r = com - pt, has a determinant above 1e-9 of (trace / 3)^3.
 * A ball joint's child needs it: about an axis without, its spin is undetermined. Of a model's
 * values, so in double. */
HS_HD static inline int hs_inertia_full_about(double mass, const double com[3], const double pt[3], const double J[6])
{
    double r[3] = {com[0] - pt[0], com[1] - pt[1], com[2] - pt[2]}, rr, G[9], tr, det;
    int a, b;
    rr = r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
    G[0] = J[0], G[4] = J[1], G[8] = J[2];
    G[1] = G[3] = J[3], G[2] = G[6] = J[4], G[5] = G[7] = J[5];
    for (a = 0; a < 3; ++a)
        for (b = 0; b < 3; ++b) G[3 * a + b] += mass * ((a == b ? rr : 0.0) - r[a] * r[b]);
    tr = G[0] + G[4] + G[8];
    det = G[0] * (G[4] * G[8] - G[5] * G[7]) - G[1] * (G[3] * G[8] - G[5] * G[6]) + G[2] * (G[3] * G[7] - G[4] * G[6]);
    return tr > 0.0 && det > 1e-9 * tr * tr * tr / 27.0;
}

/* The same for a diagonal J (xx yy zz; the standard shapes' inertias about their principal
 * axes): G_ij = sum_k A_ik J_k A_jk, 18 products instead of 45. */
HS_HD static inline void hs_m3_inertia_global_diag(hs_real G[9], const hs_real A[9], const hs_real J[6])
{
    int i, j;
    for (i = 0; i < 3; ++i)
        for (j = i; j < 3; ++j) {
            hs_real s = A[3 * i] * J[0] * A[3 * j] + A[3 * i + 1] * J[1] * A[3 * j + 1] +
                       A[3 * i + 2] * J[2] * A[3 * j + 2];
            G[3 * i + j] = G[3 * j + i] = s;
        }
}

/* hs_m3_inertia_global_diag for an A that keeps e_z (as hs_m3_mulv_z): the same values
 * without the products with A's zeros. */
HS_HD static inline void hs_m3_inertia_global_diag_z(hs_real G[9], const hs_real A[9], const hs_real J[6])
{
    G[0] = A[0] * J[0] * A[0] + A[1] * J[1] * A[1];
    G[1] = G[3] = A[0] * J[0] * A[3] + A[1] * J[1] * A[4];
    G[4] = A[3] * J[0] * A[3] + A[4] * J[1] * A[4];
    G[8] = A[8] * J[2] * A[8];
    G[2] = G[6] = G[5] = G[7] = 0.0;
}

/* ---- dense LU with partial pivoting (row-major, leading dimension lda) ----
 * Factorises A = P L U in place (unit lower L below the diagonal, U above it and the
 * reciprocals 1/u_kk of U's diagonal on it: the factorisation divides once per pivot anyway,
 * and every solve then multiplies instead of dividing, which takes the divisions off the
 * back substitution's dependency chain on a CPU and off the GPU's FP64 division slow path);
 * piv[k] is the row swapped with row k at step k (0-based, LAPACK's ipiv minus one).
 * Returns 0, or k+1 when column k has no non-zero pivot (A singular; its diagonal entry is
 * left as it was); never divides by 0. */
HS_HD static inline int hs_lu_factor(hs_real *A, int n, int lda, int *piv)
{
    int i, j, k, info = 0;
    HS_UNROLL
    for (k = 0; k < n; ++k) {
        int p = k;
        hs_real amax = fabs(A[k * lda + k]);
        HS_UNROLL
        for (i = k + 1; i < n; ++i) {
            hs_real a = fabs(A[i * lda + k]);
            if (a > amax) {
                amax = a;
                p = i;
            }
        }
        piv[k] = p;
        if (amax == 0.0 || amax != amax) { /* zero or NaN column: singular */
            if (!info) info = k + 1;
            continue;
        }
        if (p != k) {
            HS_UNROLL
            for (j = 0; j < n; ++j) {
                hs_real t = A[k * lda + j];
                A[k * lda + j] = A[p * lda + j];
                A[p * lda + j] = t;
            }
        }
        {
            hs_real inv = 1.0 / A[k * lda + k];
            A[k * lda + k] = inv;
            HS_UNROLL
            for (i = k + 1; i < n; ++i) {
                hs_real l = A[i * lda + k] * inv;
                A[i * lda + k] = l;
                if (l != 0.0) {
                    HS_UNROLL
                    for (j = k + 1; j < n; ++j) A[i * lda + j] -= l * A[k * lda + j];
                }
            }
        }
    }
    return info;
}

/* Solves A x = b with the factors of hs_lu_factor; b is overwritten by x. */
HS_HD static inline void hs_lu_solve(const hs_real *LU, int n, int lda, const int *piv, hs_real *b)
{
    int i, j;
    HS_UNROLL
    for (i = 0; i < n; ++i) {
        int p = piv[i];
        if (p != i) {
            hs_real t = b[i];
            b[i] = b[p];
            b[p] = t;
        }
    }
    HS_UNROLL
    for (i = 1; i < n; ++i) {
        hs_real s = b[i];
        HS_UNROLL
        for (j = 0; j < i; ++j) s -= LU[i * lda + j] * b[j];
        b[i] = s;
    }
    HS_UNROLL
    for (i = n - 1; i >= 0; --i) {
        hs_real s = b[i];
        HS_UNROLL
        for (j = i + 1; j < n; ++j) s -= LU[i * lda + j] * b[j];
        b[i] = s * LU[i * lda + i]; /* the diagonal holds 1/u_ii */
    }
}

/* Solves A^T x = b with the factors of hs_lu_factor (A = P L U, so A^T = U^T L^T P^T): forward
 * substitution with U^T, back substitution with the unit L^T, then the row swaps in reverse
 * order; b is overwritten by x. */
HS_HD static inline void hs_lu_solve_t(const hs_real *LU, int n, int lda, const int *piv, hs_real *b)
{
    int i, j;
    for (i = 0; i < n; ++i) {
        hs_real s = b[i];
        for (j = 0; j < i; ++j) s -= LU[j * lda + i] * b[j];
        b[i] = s * LU[i * lda + i]; /* the diagonal holds 1/u_ii */
    }
    for (i = n - 2; i >= 0; --i) {
        hs_real s = b[i];
        for (j = i + 1; j < n; ++j) s -= LU[j * lda + i] * b[j];
        b[i] = s;
    }
    for (i = n - 1; i >= 0; --i) {
        int p = piv[i];
        if (p != i) {
            hs_real t = b[i];
            b[i] = b[p];
            b[p] = t;
        }
    }
}

/* The inverse of A from the factors of hs_lu_factor, in place (LAPACK dgetri's algorithm:
 * inv(U), then X L = inv(U) for X = inv(A) P, then the column exchanges of P^T). For a matrix
 * solved against many times, as modified Newton's tangent is: a product with the inverse has no
 * dependency chain through the unknowns, which a back substitution has (per row a multiply and
 * a subtract wait on the previous row). work (n). */
HS_HD static inline void hs_lu_invert(hs_real *A, int n, int lda, const int *piv, hs_real *work)
{
    int i, j, k;
    HS_UNROLL
    for (j = 0; j < n; ++j) { /* column j of inv(U); the diagonal already holds 1/u_jj */
        hs_real ajj = -A[j * lda + j];
        HS_UNROLL
        for (i = 0; i < j; ++i) {
            hs_real s = 0.0;
            HS_UNROLL
            for (k = i; k < j; ++k) s += A[i * lda + k] * A[k * lda + j];
            work[i] = s;
        }
        HS_UNROLL
        for (i = 0; i < j; ++i) A[i * lda + j] = work[i] * ajj;
    }
    HS_UNROLL
    for (j = n - 2; j >= 0; --j) { /* X L = inv(U), L unit lower, from the last column */
        HS_UNROLL
        for (i = j + 1; i < n; ++i) {
            work[i] = A[i * lda + j];
            A[i * lda + j] = 0.0;
        }
        HS_UNROLL
        for (k = 0; k < n; ++k) {
            hs_real s = A[k * lda + j];
            HS_UNROLL
            for (i = j + 1; i < n; ++i) s -= A[k * lda + i] * work[i];
            A[k * lda + j] = s;
        }
    }
    HS_UNROLL
    for (j = n - 2; j >= 0; --j) { /* inv(A) = X P^T: columns exchanged in reverse order */
        int p = piv[j];
        if (p != j) {
            HS_UNROLL
            for (k = 0; k < n; ++k) {
                hs_real t = A[k * lda + j];
                A[k * lda + j] = A[k * lda + p];
                A[k * lda + p] = t;
            }
        }
    }
}

/* b = Ainv b (n x n, leading dimension lda); work (n). */
HS_HD static inline void hs_inverse_apply(const hs_real *Ainv, int n, int lda, hs_real *b, hs_real *work)
{
    int i, j;
    HS_UNROLL
    for (i = 0; i < n; ++i) work[i] = b[i];
    HS_UNROLL
    for (i = 0; i < n; ++i) {
        hs_real s = 0.0;
        HS_UNROLL
        for (j = 0; j < n; ++j) s += Ainv[i * lda + j] * work[j];
        b[i] = s;
    }
}

/* Solves the symmetric positive semi-definite system (A + delta*I) x = b by LU, used for the
 * regularised least-squares corrections of the initial loop closure. A is overwritten. */
HS_HD static inline int hs_solve_regularised(hs_real *A, int n, int lda, int *piv, hs_real *b,
                                             hs_real delta)
{
    int i;
    for (i = 0; i < n; ++i) A[i * lda + i] += delta;
    if (hs_lu_factor(A, n, lda, piv)) return 1;
    hs_lu_solve(A, n, lda, piv, b);
    return 0;
}

#endif
