/* hs_linalg.h -- small dense linear algebra for one instance: 3-vectors, 3x3 rotations and
 * 6x6 spatial blocks, and LU factorisation with partial pivoting for the Newton matrix.
 * Row-major throughout. Tested against LAPACK dgetrf/dgetrs in tests/test_linalg.c. */
#ifndef HS_LINALG_H
#define HS_LINALG_H

#include "hs_hd.h"

/* ---- 3-vectors ---- */
HS_HD static inline void hs_v3_set(double r[3], double x, double y, double z)
{
    r[0] = x;
    r[1] = y;
    r[2] = z;
}
HS_HD static inline void hs_v3_copy(double r[3], const double a[3])
{
    r[0] = a[0];
    r[1] = a[1];
    r[2] = a[2];
}
HS_HD static inline double hs_v3_dot(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
/* r = a x b (r may alias neither a nor b) */
HS_HD static inline void hs_v3_cross(double r[3], const double a[3], const double b[3])
{
    r[0] = a[1] * b[2] - a[2] * b[1];
    r[1] = a[2] * b[0] - a[0] * b[2];
    r[2] = a[0] * b[1] - a[1] * b[0];
}
/* r = a + s b (r may alias a) */
HS_HD static inline void hs_v3_axpy(double r[3], const double a[3], double s, const double b[3])
{
    r[0] = a[0] + s * b[0];
    r[1] = a[1] + s * b[1];
    r[2] = a[2] + s * b[2];
}
HS_HD static inline void hs_v3_sub(double r[3], const double a[3], const double b[3])
{
    r[0] = a[0] - b[0];
    r[1] = a[1] - b[1];
    r[2] = a[2] - b[2];
}
HS_HD static inline double hs_v3_norm(const double a[3])
{
    return sqrt(hs_v3_dot(a, a));
}
/* r = w x (w x a) */
HS_HD static inline void hs_v3_cross2(double r[3], const double w[3], const double a[3])
{
    double t[3];
    hs_v3_cross(t, w, a);
    hs_v3_cross(r, w, t);
}

/* ---- 3x3 matrices (row-major) ---- */
HS_HD static inline void hs_m3_identity(double A[9])
{
    int k;
    for (k = 0; k < 9; ++k) A[k] = (k % 4 == 0) ? 1.0 : 0.0;
}
HS_HD static inline void hs_m3_copy(double R[9], const double A[9])
{
    int k;
    for (k = 0; k < 9; ++k) R[k] = A[k];
}
/* r = A a */
HS_HD static inline void hs_m3_mulv(double r[3], const double A[9], const double a[3])
{
    r[0] = A[0] * a[0] + A[1] * a[1] + A[2] * a[2];
    r[1] = A[3] * a[0] + A[4] * a[1] + A[5] * a[2];
    r[2] = A[6] * a[0] + A[7] * a[1] + A[8] * a[2];
}
/* C = A B (C aliases neither) */
HS_HD static inline void hs_m3_mul(double C[9], const double A[9], const double B[9])
{
    int i, j;
    for (i = 0; i < 3; ++i)
        for (j = 0; j < 3; ++j)
            C[3 * i + j] = A[3 * i] * B[j] + A[3 * i + 1] * B[3 + j] + A[3 * i + 2] * B[6 + j];
}
/* Rotation by angle q about the unit axis u (Rodrigues). */
HS_HD static inline void hs_m3_rot(double R[9], const double u[3], double q)
{
    double c = cos(q), s = sin(q), v = 1.0 - c;
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
 * flops instead of Rodrigues' matrix and a 3x3 product). T may not alias A. */
HS_HD static inline void hs_m3_mul_axisrot(double T[9], const double A[9], int kind, double q)
{
    int k = (kind > 0 ? kind : -kind) - 1, a = (k + 1) % 3, b = (k + 2) % 3, i;
    double c = cos(q), s = kind > 0 ? sin(q) : -sin(q);
    for (i = 0; i < 3; ++i) {
        T[3 * i + a] = A[3 * i + a] * c + A[3 * i + b] * s;
        T[3 * i + b] = A[3 * i + b] * c - A[3 * i + a] * s;
        T[3 * i + k] = A[3 * i + k];
    }
}

/* Symmetric inertia J (xx yy zz xy xz yz, body frame) rotated to global: G = A J A^T, its six
 * distinct entries computed once (G is exactly symmetric). */
HS_HD static inline void hs_m3_inertia_global(double G[9], const double A[9], const double J[6])
{
    double Jf[9], T[9];
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
            double s = T[3 * i] * A[3 * j] + T[3 * i + 1] * A[3 * j + 1] + T[3 * i + 2] * A[3 * j + 2];
            G[3 * i + j] = G[3 * j + i] = s;
        }
}

/* The same for a diagonal J (xx yy zz; the standard shapes' inertias about their principal
 * axes): G_ij = sum_k A_ik J_k A_jk, 18 products instead of 45. */
HS_HD static inline void hs_m3_inertia_global_diag(double G[9], const double A[9], const double J[6])
{
    int i, j;
    for (i = 0; i < 3; ++i)
        for (j = i; j < 3; ++j) {
            double s = A[3 * i] * J[0] * A[3 * j] + A[3 * i + 1] * J[1] * A[3 * j + 1] +
                       A[3 * i + 2] * J[2] * A[3 * j + 2];
            G[3 * i + j] = G[3 * j + i] = s;
        }
}

/* ---- dense LU with partial pivoting (row-major, leading dimension lda) ----
 * Factorises A = P L U in place (unit lower L below the diagonal, U above it and the
 * reciprocals 1/u_kk of U's diagonal on it: the factorisation divides once per pivot anyway,
 * and every solve then multiplies instead of dividing, which takes the divisions off the
 * back substitution's dependency chain on a CPU and off the GPU's FP64 division slow path);
 * piv[k] is the row swapped with row k at step k (0-based, LAPACK's ipiv minus one).
 * Returns 0, or k+1 when column k has no non-zero pivot (A singular; its diagonal entry is
 * left as it was); never divides by 0. */
HS_HD static inline int hs_lu_factor(double *A, int n, int lda, int *piv)
{
    int i, j, k, info = 0;
    for (k = 0; k < n; ++k) {
        int p = k;
        double amax = fabs(A[k * lda + k]);
        for (i = k + 1; i < n; ++i) {
            double a = fabs(A[i * lda + k]);
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
        if (p != k)
            for (j = 0; j < n; ++j) {
                double t = A[k * lda + j];
                A[k * lda + j] = A[p * lda + j];
                A[p * lda + j] = t;
            }
        {
            double inv = 1.0 / A[k * lda + k];
            A[k * lda + k] = inv;
            for (i = k + 1; i < n; ++i) {
                double l = A[i * lda + k] * inv;
                A[i * lda + k] = l;
                if (l != 0.0)
                    for (j = k + 1; j < n; ++j) A[i * lda + j] -= l * A[k * lda + j];
            }
        }
    }
    return info;
}

/* Solves A x = b with the factors of hs_lu_factor; b is overwritten by x. */
HS_HD static inline void hs_lu_solve(const double *LU, int n, int lda, const int *piv, double *b)
{
    int i, j;
    for (i = 0; i < n; ++i) {
        int p = piv[i];
        if (p != i) {
            double t = b[i];
            b[i] = b[p];
            b[p] = t;
        }
    }
    for (i = 1; i < n; ++i) {
        double s = b[i];
        for (j = 0; j < i; ++j) s -= LU[i * lda + j] * b[j];
        b[i] = s;
    }
    for (i = n - 1; i >= 0; --i) {
        double s = b[i];
        for (j = i + 1; j < n; ++j) s -= LU[i * lda + j] * b[j];
        b[i] = s * LU[i * lda + i]; /* the diagonal holds 1/u_ii */
    }
}

/* The inverse of A from the factors of hs_lu_factor, in place (LAPACK dgetri's algorithm:
 * inv(U), then X L = inv(U) for X = inv(A) P, then the column exchanges of P^T). For a matrix
 * solved against many times, as modified Newton's tangent is: a product with the inverse has no
 * dependency chain through the unknowns, which a back substitution has (per row a multiply and
 * a subtract wait on the previous row). work (n). */
HS_HD static inline void hs_lu_invert(double *A, int n, int lda, const int *piv, double *work)
{
    int i, j, k;
    for (j = 0; j < n; ++j) { /* column j of inv(U); the diagonal already holds 1/u_jj */
        double ajj = -A[j * lda + j];
        for (i = 0; i < j; ++i) {
            double s = 0.0;
            for (k = i; k < j; ++k) s += A[i * lda + k] * A[k * lda + j];
            work[i] = s;
        }
        for (i = 0; i < j; ++i) A[i * lda + j] = work[i] * ajj;
    }
    for (j = n - 2; j >= 0; --j) { /* X L = inv(U), L unit lower, from the last column */
        for (i = j + 1; i < n; ++i) {
            work[i] = A[i * lda + j];
            A[i * lda + j] = 0.0;
        }
        for (k = 0; k < n; ++k) {
            double s = A[k * lda + j];
            for (i = j + 1; i < n; ++i) s -= A[k * lda + i] * work[i];
            A[k * lda + j] = s;
        }
    }
    for (j = n - 2; j >= 0; --j) { /* inv(A) = X P^T: columns exchanged in reverse order */
        int p = piv[j];
        if (p != j)
            for (k = 0; k < n; ++k) {
                double t = A[k * lda + j];
                A[k * lda + j] = A[k * lda + p];
                A[k * lda + p] = t;
            }
    }
}

/* b = Ainv b (n x n, leading dimension lda); work (n). */
HS_HD static inline void hs_inverse_apply(const double *Ainv, int n, int lda, double *b, double *work)
{
    int i, j;
    for (i = 0; i < n; ++i) work[i] = b[i];
    for (i = 0; i < n; ++i) {
        double s = 0.0;
        for (j = 0; j < n; ++j) s += Ainv[i * lda + j] * work[j];
        b[i] = s;
    }
}

/* Solves the symmetric positive semi-definite system (A + delta*I) x = b by LU, used for the
 * regularised least-squares corrections of the initial loop closure. A is overwritten. */
HS_HD static inline int hs_solve_regularised(double *A, int n, int lda, int *piv, double *b,
                                             double delta)
{
    int i;
    for (i = 0; i < n; ++i) A[i * lda + i] += delta;
    if (hs_lu_factor(A, n, lda, piv)) return 1;
    hs_lu_solve(A, n, lda, piv, b);
    return 0;
}

#endif
