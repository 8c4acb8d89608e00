/* linearize.cpp -- hs_linearize and hs_lin_eigen (include/hs/linearize.h): the Jacobian of a
 * model's reduced equations of motion about a state, and its eigen-analysis (seed 001).
 *
 * The engine's physics (kernels/, written over hs_real) is compiled here a second time with
 * hs_real = hs_dual, a forward-mode dual number: one code, two arithmetics. The headers go
 * into namespace hs_ad so that their structs (hs_kin, hs_hyd, ...) with dual members do not
 * clash with the double ones of the rest of the program; the model block stays the shared,
 * double hs_model.
 *
 * Why differentiating the reduced ODE is seed 001's linearization: with z = z(z_a) on the
 * constraint manifold and zdot = T zdot_a (T = [I; -Phi_d^-1 Phi_a], eq. 31),
 *   T^T M T zddot_a = T^T (Q - M c),    c: Phi_z c = -Phidot_z zdot   (eqs. 32-38),
 * and the derivative of T^T Q along the manifold is T^T (dQ/dz - d(Phi_z^T Lambda)/dz) T
 * (eq. 59), since T^T Phi_z^T = 0 identically; at an equilibrium (zdot = zddot = 0) the
 * remaining terms of eqs. (57)-(59) vanish. So dF/dX of F(X) = (zdot_a, zddot_a, pdot, fsdot,
 * Udot) at X0 is eq. (64)'s J, and it is exact when the derivatives are: dz/dz_a = T (the
 * implicit function theorem; no Newton on the loop closure is differentiated).
 *
 * With l nonholonomic constraints B zdot = 0 (seed 001 eqs. 11, 14) the velocities are
 * partitioned once more (eq. 29): of the n - m admissible coordinates z_a, l more (z_ad)
 * have rates fixed by D zdot = 0, D = [Phi_z; B], and T = [I; -D_dd^-1 D_ai] maps the
 * n - m - l independent rates zdot_ai (eq. 31). Positions stay n - m: F(X) = (zdot_ai,
 * zddot_ai, zdot_ad, pdot, fsdot, Udot) over X = (z_ai, zdot_ai, z_ad, p, fs, U) is eqs.
 * (53)-(56), whose Jacobian is eq. (61) of size 2(n - m) - l + r + u. */
#include "engine/hs_dual.hpp"

#define HS_REAL hs_dual
#include "hs/linearize.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

/* The linear-algebra helpers of hs_linalg.h are called with a model constant (double) as one
 * operand; these lift it to a dual with a zero derivative. Declared before the engine's
 * headers so that their calls see them. */
namespace hs_ad {
HS_HD static inline void hs_v3_copy(hs_real r[3], const hs_real a[3]);
HS_HD static inline hs_real hs_v3_dot(const hs_real a[3], const hs_real b[3]);
HS_HD static inline void hs_v3_axpy(hs_real r[3], const hs_real a[3], hs_real s, const hs_real b[3]);
HS_HD static inline void hs_m3_mulv(hs_real r[3], const hs_real A[9], const hs_real a[3]);
HS_HD static inline void hs_m3_mulv_z(hs_real r[3], const hs_real A[9], const hs_real a[3]);
HS_HD static inline void hs_m3_mul(hs_real C[9], const hs_real A[9], const hs_real B[9]);
HS_HD static inline void hs_m3_rot(hs_real R[9], const hs_real u[3], hs_real q);
HS_HD static inline void hs_m3_inertia_global(hs_real G[9], const hs_real A[9], const hs_real J[6]);
HS_HD static inline void hs_m3_inertia_global_diag(hs_real G[9], const hs_real A[9], const hs_real J[6]);
HS_HD static inline void hs_m3_inertia_global_diag_z(hs_real G[9], const hs_real A[9], const hs_real J[6]);

template <int N> struct lifted {
    hs_real v[N];
    explicit lifted(const double *a)
    {
        for (int i = 0; i < N; ++i) v[i] = a[i];
    }
};
static inline void hs_v3_copy(hs_real r[3], const double a[3]) { hs_v3_copy(r, lifted<3>(a).v); }
static inline hs_real hs_v3_dot(const double a[3], const hs_real b[3]) { return hs_v3_dot(lifted<3>(a).v, b); }
static inline void hs_v3_axpy(hs_real r[3], const double a[3], hs_real s, const double b[3])
{
    hs_v3_axpy(r, lifted<3>(a).v, s, lifted<3>(b).v);
}
static inline void hs_m3_mulv(hs_real r[3], const hs_real A[9], const double a[3]) { hs_m3_mulv(r, A, lifted<3>(a).v); }
static inline void hs_m3_mulv_z(hs_real r[3], const hs_real A[9], const double a[3])
{
    hs_m3_mulv_z(r, A, lifted<3>(a).v);
}
static inline void hs_m3_mul(hs_real C[9], const hs_real A[9], const double B[9]) { hs_m3_mul(C, A, lifted<9>(B).v); }
static inline void hs_m3_rot(hs_real R[9], const double u[3], hs_real q) { hs_m3_rot(R, lifted<3>(u).v, q); }
static inline void hs_m3_inertia_global(hs_real G[9], const hs_real A[9], const double J[6])
{
    hs_m3_inertia_global(G, A, lifted<6>(J).v);
}
static inline void hs_m3_inertia_global_diag(hs_real G[9], const hs_real A[9], const double J[6])
{
    hs_m3_inertia_global_diag(G, A, lifted<6>(J).v);
}
static inline void hs_m3_inertia_global_diag_z(hs_real G[9], const hs_real A[9], const double J[6])
{
    hs_m3_inertia_global_diag_z(G, A, lifted<6>(J).v);
}
static inline hs_dual pow(const hs_dual &a, const hs_dual &e) { return ::pow(a, e.v); }

#include "hs_constraints.h"
#include "hs_dynamics.h"
#include "hs_hydraulics.h"
} // namespace hs_ad

using hs_ad::hs_dyn_work;
using hs_ad::hs_hyd;
using hs_ad::hs_kin;

extern "C" void dgeev_(const char *jobvl, const char *jobvr, const int *n, double *a, const int *lda, double *wr,
                       double *wi, double *vl, const int *ldvl, double *vr, const int *ldvr, double *work,
                       const int *lwork, int *info);

namespace {

/* The coordinate partition (seed 001 eq. 29): dependent coordinates dep[0..m) with the
 * independent holonomic equations rows[0..m) that determine them; the admissible
 * coordinates ind (n - m), ordered as the independent ones z_ai (n - m - l) and then the
 * admissible dependent ones z_ad (l), whose rates the nonholonomic equations rows[m..m+l)
 * fix: dep[m..m+l) = ind[n-m-l..n-m). */
struct partition {
    int n, m, l, ncon;
    int dep[HS_MAX_Z], ind[HS_MAX_Z], rows[HS_MAX_CON];
};

/* The largest |A[i][j]| above tol over the unused rows of one kind (nonholonomic or not) and
 * the unused columns, the columns of held joints only when no other column has one; *bi = -1
 * when there is none. */
double pick_pivot(const hs_model *m, double (*A)[HS_MAX_Z], int nc, const int *usedr, const int *usedc,
                  const int *nh, int want_nh, double tol, int *bi, int *bj)
{
    for (int pass = 0; pass < 2; ++pass) {
        double best = 0.0;
        *bi = *bj = -1;
        for (int i = 0; i < nc; ++i) {
            if (usedr[i] || nh[i] != want_nh) continue;
            for (int j = 0; j < m->nz; ++j) {
                if (usedc[j] || (pass == 0 && m->joint_hold[j])) continue;
                if (std::fabs(A[i][j]) > best) {
                    best = std::fabs(A[i][j]);
                    *bi = i;
                    *bj = j;
                }
            }
        }
        if (*bi >= 0 && best > tol) return best;
    }
    *bi = *bj = -1;
    return 0.0;
}

/* Pivot (bi, bj) taken: row bi and column bj are used, the other rows eliminated. */
void take_pivot(double (*A)[HS_MAX_Z], int nc, int n, int *usedr, int *usedc, int bi, int bj)
{
    usedr[bi] = 1;
    usedc[bj] = 1;
    for (int i = 0; i < nc; ++i) {
        if (usedr[i]) continue;
        double f = A[i][bj] / A[bi][bj];
        for (int j = 0; j < n; ++j) A[i][j] -= f * A[bi][j];
    }
}

/* Full-pivot Gaussian elimination of Phi_z (ncon x n, ld HS_MAX_Z) at the point (seed 000
 * Sect. 3): each pivot's column becomes a dependent coordinate and its row an independent
 * equation, until the largest remaining entry is below 1e-10 of the first pivot (the rank,
 * with redundant equations such as a spatial revolute cut of a planar loop). Columns of
 * held joints are pivots only when no other column has an acceptable one left, so that a held
 * input joint stays independent. The nonholonomic rows come after the holonomic ones, which
 * are eliminated from them (B T^h, seed 001 eq. 50): their pivots choose the l coordinates
 * z_ad among the admissible ones. Returns 1 when the nonholonomic rows are dependent there. */
int choose_partition(const hs_model *m, const double *Jz, partition *P)
{
    double A[HS_MAX_CON][HS_MAX_Z], first = 0.0, nh_scale = 0.0;
    int usedr[HS_MAX_CON] = {0}, usedc[HS_MAX_Z] = {0}, nh[HS_MAX_CON];
    int n = m->nz, nc = m->ncon, bi, bj;
    P->n = n;
    P->ncon = nc;
    P->m = 0;
    P->l = 0;
    for (int i = 0; i < nc; ++i) {
        nh[i] = m->con_type[i] == HS_CON_NH;
        for (int j = 0; j < n; ++j) {
            A[i][j] = Jz[i * HS_MAX_Z + j];
            if (nh[i]) nh_scale = std::fmax(nh_scale, std::fabs(A[i][j]));
        }
    }
    for (int k = 0; k < n && k < nc; ++k) { /* the rank: below 1e-10 of the first pivot */
        double best = pick_pivot(m, A, nc, usedr, usedc, nh, 0, k > 0 ? 1e-10 * first : 0.0, &bi, &bj);
        if (bi < 0) break;
        if (k == 0) first = best;
        P->rows[P->m] = bi;
        P->dep[P->m++] = bj;
        take_pivot(A, nc, n, usedr, usedc, bi, bj);
    }
    for (int k = 0; k < m->nnh; ++k) {
        pick_pivot(m, A, nc, usedr, usedc, nh, 1, 1e-10 * nh_scale, &bi, &bj);
        if (bi < 0) return 1; /* B T^h lost rank here */
        P->rows[P->m + P->l] = bi;
        P->dep[P->m + P->l++] = bj;
        take_pivot(A, nc, n, usedr, usedc, bi, bj);
    }
    int na = 0;
    for (int j = 0; j < n; ++j)
        if (!usedc[j]) P->ind[na++] = j;
    for (int i = 0; i < P->l; ++i) P->ind[na++] = P->dep[P->m + i];
    return 0;
}

/* Everything one evaluation needs besides the state. */
struct context {
    const hs_model *m;
    partition P;
    double t;
    hs_dual s0[HS_MAX_CYLS];
};

/* Phi_z restricted: D = Phi_z[rows][dep] (nd x nd, ld HS_MAX_Z), factorised: nd = m for the
 * positions (the holonomic part), m + l for the velocities (D_dd of eq. 31). */
int factor_dep(const context &c, const hs_dual *Jz, int nd, hs_dual *D, int *piv)
{
    const partition &P = c.P;
    for (int i = 0; i < nd; ++i)
        for (int j = 0; j < nd; ++j) D[i * HS_MAX_Z + j] = Jz[P.rows[i] * HS_MAX_Z + P.dep[j]];
    return hs_ad::hs_lu_factor(D, nd, HS_MAX_Z, piv);
}

/* The mechanism's M and whole Q (cylinders, motors and the joints' springs included) and the
 * hydraulic rates at the kinematics in k (positions z and velocities zd). */
void mechanics(const context &c, const hs_kin *k, const hs_dual *z, const hs_dual *zd, const hs_dual *p,
               const hs_dual *fs, const hs_dual *U, hs_dual *M, hs_dual *Q, hs_hyd *hyd)
{
    const hs_model *m = c.m;
    hs_dyn_work dyn;
    hs_ad::hs_mass_force_side(m, k, c.t, 1, M, HS_MAX_Z, Q, &dyn);
    for (int j = 0; j < m->nz; ++j) /* a joint's spring and damper (hs_spring_forces) */
        if (m->joint_k[j] != 0.0 || m->joint_c[j] != 0.0)
            Q[j] -= m->joint_k[j] * (z[j] - m->joint_zs[j]) + m->joint_c[j] * zd[j];
    if (m->ncyl > 0 || m->nvol > 0) {
        hs_ad::hs_hydraulics(m, k, p, fs, U, c.s0, hyd);
        for (int cy = 0; cy < m->ncyl; ++cy) {
            hs_dual js[HS_MAX_Z];
            hs_ad::hs_cylinder_jac(m, k, hyd, cy, js);
            for (int i = 0; i < m->nz; ++i) Q[i] += hyd->F[cy] * js[i];
        }
        for (int i = 0; i < m->ncmp; ++i) /* a motor's torque on its joint (hs_motor_forces) */
            if (m->cmp_type[i] == HS_CMP_MOTOR) Q[m->cmp_ref[i]] += hyd->Tm[m->cmp_mot[i]];
    }
}

/* The first-order rates that follow the mechanical ones: pdot (r), fsdot (nfs), Udot (u). */
void other_rates(const context &c, const hs_hyd *hyd, const hs_dual *U, hs_dual *out)
{
    const hs_model *m = c.m;
    int o = 0;
    for (int v = 0; v < m->nvol; ++v) out[o++] = hyd->h[v];
    for (int f = 0; f < m->nfs; ++f) out[o++] = hyd->fsd[f];
    for (int i = 0; i < m->ndcv; ++i) out[o++] = hs_ad::hs_spool_rate(m, i, U[i], c.t, 1);
}

/* The reduced rates F(X) = (zdot_ai, zddot_ai, zdot_ad, pdot, fsdot, Udot) at the full
 * coordinates z (on the manifold), the independent rates zda (n - m - l) and the first-order
 * states p, fs, U. Returns non-zero for a singular matrix. */
int reduced_rates(const context &c, const hs_dual *z, const hs_dual *zda, const hs_dual *p, const hs_dual *fs,
                  const hs_dual *U, hs_dual *F)
{
    const hs_model *m = c.m;
    const partition &P = c.P;
    int n = m->nz, nd = P.m + P.l, na = n - nd;
    hs_kin k;
    hs_hyd hyd;
    hs_dual Jz[HS_MAX_CON * HS_MAX_Z], D[HS_MAX_Z * HS_MAX_Z], T[HS_MAX_Z * HS_MAX_Z], zd[HS_MAX_Z];
    hs_dual vp[HS_MAX_CON], cc[HS_MAX_Z], M[HS_MAX_Z * HS_MAX_Z], Q[HS_MAX_Z], Mr[HS_MAX_Z * HS_MAX_Z],
        rhs[HS_MAX_Z];
    int piv[HS_MAX_Z];
    std::memset(static_cast<void *>(&hyd), 0, sizeof hyd);
    hs_ad::hs_kin_positions(m, z, &k);
    /* T (n x na, ld HS_MAX_Z): zdot = T zdot_ai (eq. 31) */
    for (int i = 0; i < n; ++i)
        for (int a = 0; a < na; ++a) T[i * HS_MAX_Z + a] = 0.0;
    for (int a = 0; a < na; ++a) T[P.ind[a] * HS_MAX_Z + a] = 1.0;
    if (nd > 0) {
        hs_ad::hs_constraints_jac(m, &k, Jz, HS_MAX_Z);
        if (factor_dep(c, Jz, nd, D, piv)) return 1;
        for (int a = 0; a < na; ++a) {
            hs_dual col[HS_MAX_Z];
            for (int i = 0; i < nd; ++i) col[i] = -Jz[P.rows[i] * HS_MAX_Z + P.ind[a]];
            hs_ad::hs_lu_solve(D, nd, HS_MAX_Z, piv, col);
            for (int i = 0; i < nd; ++i) T[P.dep[i] * HS_MAX_Z + a] = col[i];
        }
    }
    for (int i = 0; i < n; ++i) {
        zd[i] = 0.0;
        for (int a = 0; a < na; ++a) zd[i] += T[i * HS_MAX_Z + a] * zda[a];
    }
    hs_ad::hs_kin_velocities(m, zd, &k);
    /* c: the acceleration with zddot_ai = 0, D_dd c_dd = -Ddot zdot (eqs. 36-38) */
    for (int i = 0; i < n; ++i) cc[i] = 0.0;
    if (nd > 0) {
        hs_dual cd[HS_MAX_Z];
        hs_ad::hs_constraints_vprod(m, &k, vp);
        for (int i = 0; i < nd; ++i) cd[i] = -vp[P.rows[i]];
        hs_ad::hs_lu_solve(D, nd, HS_MAX_Z, piv, cd);
        for (int i = 0; i < nd; ++i) cc[P.dep[i]] = cd[i];
    }
    mechanics(c, &k, z, zd, p, fs, U, M, Q, &hyd);
    /* T^T M T zddot_a = T^T (Q - M c) (eq. 32) */
    for (int a = 0; a < na; ++a) {
        hs_dual s = 0.0;
        for (int i = 0; i < n; ++i) {
            hs_dual r = Q[i];
            for (int j = 0; j < n; ++j) r -= M[i * HS_MAX_Z + j] * cc[j];
            s += T[i * HS_MAX_Z + a] * r;
        }
        rhs[a] = s;
        for (int b = 0; b < na; ++b) {
            hs_dual q = 0.0;
            for (int i = 0; i < n; ++i) {
                hs_dual mt = 0.0;
                for (int j = 0; j < n; ++j) mt += M[i * HS_MAX_Z + j] * T[j * HS_MAX_Z + b];
                q += T[i * HS_MAX_Z + a] * mt;
            }
            Mr[a * HS_MAX_Z + b] = q;
        }
    }
    if (hs_ad::hs_lu_factor(Mr, na, HS_MAX_Z, piv)) return 1;
    hs_ad::hs_lu_solve(Mr, na, HS_MAX_Z, piv, rhs);
    for (int a = 0; a < na; ++a) {
        F[a] = zda[a];
        F[na + a] = rhs[a];
    }
    for (int i = 0; i < P.l; ++i) F[2 * na + i] = zd[P.dep[P.m + i]]; /* eq. 54 */
    other_rates(c, &hyd, U, F + 2 * na + P.l);
    return 0;
}

/* The conventional counterpart (seed 001 eqs. 95-98): all coordinates, the index-1 system
 *   [M Phi_s^T; Phi_s 0] [zddot; Lambda] = [Q; -Phidot_s zdot]
 * with the m independent equations Phi_s, and F = (zdot, zddot, pdot, fsdot, Udot). */
int conventional_rates(const context &c, const hs_dual *z, const hs_dual *zd, const hs_dual *p, const hs_dual *fs,
                       const hs_dual *U, hs_dual *F)
{
    const hs_model *m = c.m;
    const partition &P = c.P;
    int n = m->nz, nd = P.m + P.l, nk = n + nd;
    hs_kin k;
    hs_hyd hyd;
    hs_dual Jz[HS_MAX_CON * HS_MAX_Z], vp[HS_MAX_CON], M[HS_MAX_Z * HS_MAX_Z], Q[HS_MAX_Z];
    static const int LD = HS_MAX_Z + HS_MAX_CON;
    hs_dual K[LD * LD], b[LD];
    int piv[LD];
    std::memset(static_cast<void *>(&hyd), 0, sizeof hyd);
    hs_ad::hs_kin_positions(m, z, &k);
    hs_ad::hs_kin_velocities(m, zd, &k);
    mechanics(c, &k, z, zd, p, fs, U, M, Q, &hyd);
    for (int i = 0; i < nk; ++i)
        for (int j = 0; j < nk; ++j) K[i * LD + j] = 0.0;
    for (int i = 0; i < n; ++i) {
        for (int j = 0; j < n; ++j) K[i * LD + j] = M[i * HS_MAX_Z + j];
        b[i] = Q[i];
    }
    if (nd > 0) {
        hs_ad::hs_constraints_jac(m, &k, Jz, HS_MAX_Z);
        hs_ad::hs_constraints_vprod(m, &k, vp);
        for (int e = 0; e < nd; ++e) {
            for (int j = 0; j < n; ++j) {
                K[(n + e) * LD + j] = Jz[P.rows[e] * HS_MAX_Z + j];
                K[j * LD + n + e] = Jz[P.rows[e] * HS_MAX_Z + j];
            }
            b[n + e] = -vp[P.rows[e]];
        }
    }
    if (hs_ad::hs_lu_factor(K, nk, LD, piv)) return 1;
    hs_ad::hs_lu_solve(K, nk, LD, piv, b);
    for (int i = 0; i < n; ++i) {
        F[i] = zd[i];
        F[n + i] = b[i];
    }
    other_rates(c, &hyd, U, F + 2 * n);
    return 0;
}

/* The state vector's layout: nv mechanical coordinates and their rates, then the nq - nv
 * coordinates whose rates the nonholonomic constraints fix (z_ad), then p, fs, U. */
struct layout {
    int nq, nv, r, nfs, u, size;
};

/* Unpacks X (doubles plus one direction dX, may be null) into duals: q (nq: z_ai, z_ad), qd
 * (nv). */
void unpack(const layout &L, const double *X, const double *dX, hs_dual *q, hs_dual *qd, hs_dual *p, hs_dual *fs,
            hs_dual *U)
{
    int o = 0;
    hs_dual *dst[6] = {q, qd, q + L.nv, p, fs, U};
    int cnt[6] = {L.nv, L.nv, L.nq - L.nv, L.r, L.nfs, L.u};
    for (int g = 0; g < 6; ++g)
        for (int i = 0; i < cnt[g]; ++i, ++o) dst[g][i] = hs_dual(X[o], dX ? dX[o] : 0.0);
}

/* The index in X of admissible coordinate a (0 <= a < nq): z_ai first, z_ad after the rates. */
int pos_index(const layout &L, int a) { return a < L.nv ? a : a + L.nv; }

/* Newton on the m independent equations for the dependent coordinates, the independent ones
 * held (the reduced system's position level, for its finite differences). */
int close_loop(const context &c, double *z)
{
    const hs_model *m = c.m;
    const partition &P = c.P;
    for (int it = 0; it < 50; ++it) {
        hs_kin k;
        hs_dual zz[HS_MAX_Z], phi[HS_MAX_CON], Jz[HS_MAX_CON * HS_MAX_Z], D[HS_MAX_Z * HS_MAX_Z], r[HS_MAX_Z];
        int piv[HS_MAX_Z];
        double nr = 0.0;
        for (int i = 0; i < m->nz; ++i) zz[i] = z[i];
        hs_ad::hs_kin_positions(m, zz, &k);
        hs_ad::hs_constraints_phi(m, &k, phi);
        hs_ad::hs_constraints_jac(m, &k, Jz, HS_MAX_Z);
        if (factor_dep(c, Jz, P.m, D, piv)) return 1;
        for (int i = 0; i < P.m; ++i) r[i] = phi[P.rows[i]];
        hs_ad::hs_lu_solve(D, P.m, HS_MAX_Z, piv, r);
        for (int i = 0; i < P.m; ++i) {
            z[P.dep[i]] -= r[i].v;
            nr = std::fmax(nr, std::fabs(r[i].v));
        }
        if (nr <= 1e-15 * (1.0 + std::fabs(z[P.dep[0]]))) return 0;
    }
    return 1;
}

/* F at X (value only) for the finite differences. */
int rates_at(const context &c, const layout &L, int method, const double *X, const double *zfull, double *Fout)
{
    hs_dual q[HS_MAX_Z], qd[HS_MAX_Z], p[HS_MAX_VOLS], fs[HS_MAX_FS], U[HS_MAX_DCV], F[HS_LIN_MAX];
    int st;
    unpack(L, X, nullptr, q, qd, p, fs, U);
    if (method == HS_LIN_CONVENTIONAL) {
        st = conventional_rates(c, q, qd, p, fs, U, F);
    } else {
        double z[HS_MAX_Z];
        hs_dual zz[HS_MAX_Z];
        std::memcpy(z, zfull, sizeof z);
        for (int a = 0; a < L.nq; ++a) z[c.P.ind[a]] = X[pos_index(L, a)];
        if (c.P.m > 0 && close_loop(c, z)) return 1;
        for (int i = 0; i < c.m->nz; ++i) zz[i] = z[i];
        st = reduced_rates(c, zz, qd, p, fs, U, F);
    }
    for (int i = 0; i < L.size; ++i) Fout[i] = F[i].v;
    return st;
}

} // namespace

extern "C" int hs_linearize(const hs_model *m, const hs_lin_point *x, int method, double fd_step,
                            hs_linearization *lin, hs_error *err)
{
    context c;
    layout L;
    double Jz0[HS_MAX_CON * HS_MAX_Z];
    std::memset(static_cast<void *>(lin), 0, sizeof *lin);
    c.m = m;
    c.t = x->t;
    for (int i = 0; i < HS_MAX_CYLS; ++i) c.s0[i] = x->s0[i];
    if (method < HS_LIN_EXACT || method > HS_LIN_CONVENTIONAL)
        return hs_error_set(err, HS_ERR_ARG, "", 0, 0, "method", "unknown linearization method %d", method);
    for (int v = 0; v < m->nvol; ++v)
        if (m->vol_model[v] == HS_VOL_SP)
            return hs_error_set(err, HS_ERR_VALUE, "", 0, 0, "model",
                                "volume %d is a singular-perturbation volume (an algebraic pressure): the "
                                "linearization handles lumped volumes only (set its model to lumped)",
                                v + 1);
    if (method != HS_LIN_EXACT && !(fd_step > 0.0 && fd_step < 1.0))
        return hs_error_set(err, HS_ERR_ARG, "", 0, 0, "fd_step", "the finite-difference step must be in (0, 1), got %g",
                            fd_step);
    /* the partition, from Phi_z at the point */
    {
        hs_kin k;
        hs_dual zz[HS_MAX_Z], Jz[HS_MAX_CON * HS_MAX_Z];
        for (int i = 0; i < m->nz; ++i) zz[i] = x->z[i];
        hs_ad::hs_kin_positions(m, zz, &k);
        if (m->ncon > 0) hs_ad::hs_constraints_jac(m, &k, Jz, HS_MAX_Z);
        for (int i = 0; i < m->ncon; ++i)
            for (int j = 0; j < m->nz; ++j) Jz0[i * HS_MAX_Z + j] = Jz[i * HS_MAX_Z + j].v;
        if (choose_partition(m, Jz0, &c.P))
            return hs_error_set(err, HS_ERR_NUMERIC, "", 0, 0, "",
                                "the nonholonomic constraints are dependent at the point (B T lost rank)");
    }
    lin->method = method;
    lin->fd_step = method == HS_LIN_EXACT ? 0.0 : fd_step;
    lin->n = m->nz;
    lin->m = c.P.m;
    lin->ncon = m->ncon;
    lin->l = c.P.l;
    lin->r = m->nvol;
    lin->nfs = m->nfs;
    lin->u = m->ndcv;
    for (int a = 0; a < m->nz - c.P.m; ++a) lin->indep[a] = c.P.ind[a];
    L.nq = method == HS_LIN_CONVENTIONAL ? m->nz : m->nz - c.P.m;
    L.nv = method == HS_LIN_CONVENTIONAL ? m->nz : L.nq - c.P.l;
    L.r = m->nvol;
    L.nfs = m->nfs;
    L.u = m->ndcv;
    L.size = L.nq + L.nv + L.r + L.nfs + L.u;
    lin->size = L.size;
    if (L.size == 0)
        return hs_error_set(err, HS_ERR_VALUE, "", 0, 0, "", "the model has no degree of freedom and no states");
    /* X0 and the classes */
    {
        int o = L.nq + L.nv;
        for (int a = 0; a < L.nq; ++a) {
            int q = method == HS_LIN_CONVENTIONAL ? a : c.P.ind[a];
            lin->X0[pos_index(L, a)] = x->z[q];
            lin->state_class[pos_index(L, a)] = HS_LIN_MECH;
            if (a < L.nv) {
                lin->X0[L.nv + a] = x->zd[q];
                lin->state_class[L.nv + a] = HS_LIN_MECH;
            }
        }
        for (int v = 0; v < L.r; ++v, ++o) {
            lin->X0[o] = x->p[v];
            lin->state_class[o] = HS_LIN_PRESSURE;
        }
        for (int f = 0; f < L.nfs; ++f, ++o) {
            lin->X0[o] = x->fs[f];
            lin->state_class[o] = HS_LIN_FRICTION;
        }
        for (int i = 0; i < L.u; ++i, ++o) {
            lin->X0[o] = x->U[i];
            lin->state_class[o] = HS_LIN_SPOOL;
        }
    }
    if (method == HS_LIN_EXACT) {
        /* the value pass gives F(X0) and T0 (dz/dz_a); then one dual pass per column */
        hs_dual zz[HS_MAX_Z], qa[HS_MAX_Z], qd[HS_MAX_Z], p[HS_MAX_VOLS], fs[HS_MAX_FS], U[HS_MAX_DCV],
            F[HS_LIN_MAX];
        double T0[HS_MAX_Z][HS_MAX_Z];
        int n = m->nz, na = L.nq, apos[HS_LIN_MAX]; /* the admissible coordinate of state j, or -1 */
        /* the positions go in as the full z (zz, with dz/dz_a = T0 below); qa is unused */
        for (int i = 0; i < n; ++i) zz[i] = x->z[i];
        unpack(L, lin->X0, nullptr, qa, qd, p, fs, U);
        if (reduced_rates(c, zz, qd, p, fs, U, F))
            return hs_error_set(err, HS_ERR_NUMERIC, "", 0, 0, "", "singular loop-closure or reduced mass matrix at the point");
        for (int i = 0; i < L.size; ++i) lin->rates[i] = F[i].v;
        for (int j = 0; j < L.size; ++j) apos[j] = -1;
        for (int a = 0; a < na; ++a) apos[pos_index(L, a)] = a;
        /* T0 = dz/dz_a from the holonomic dependent columns of Phi_z (eqs. 31, 43), in doubles */
        {
            hs_dual D[HS_MAX_Z * HS_MAX_Z], Jz[HS_MAX_CON * HS_MAX_Z];
            int piv[HS_MAX_Z];
            for (int i = 0; i < m->ncon; ++i)
                for (int j = 0; j < n; ++j) Jz[i * HS_MAX_Z + j] = Jz0[i * HS_MAX_Z + j];
            for (int i = 0; i < n; ++i)
                for (int a = 0; a < na; ++a) T0[i][a] = 0.0;
            for (int a = 0; a < na; ++a) T0[c.P.ind[a]][a] = 1.0;
            if (c.P.m > 0) {
                if (factor_dep(c, Jz, c.P.m, D, piv))
                    return hs_error_set(err, HS_ERR_NUMERIC, "", 0, 0, "", "singular loop-closure Jacobian at the point");
                for (int a = 0; a < na; ++a) {
                    hs_dual col[HS_MAX_Z];
                    for (int i = 0; i < c.P.m; ++i) col[i] = -Jz[c.P.rows[i] * HS_MAX_Z + c.P.ind[a]];
                    hs_ad::hs_lu_solve(D, c.P.m, HS_MAX_Z, piv, col);
                    for (int i = 0; i < c.P.m; ++i) T0[c.P.dep[i]][a] = col[i].v;
                }
            }
        }
        for (int j = 0; j < L.size; ++j) {
            double dX[HS_LIN_MAX] = {0.0};
            dX[j] = 1.0;
            unpack(L, lin->X0, dX, qa, qd, p, fs, U);
            for (int i = 0; i < n; ++i) zz[i] = hs_dual(x->z[i], apos[j] >= 0 ? T0[i][apos[j]] : 0.0);
            if (reduced_rates(c, zz, qd, p, fs, U, F))
                return hs_error_set(err, HS_ERR_NUMERIC, "", 0, 0, "", "singular matrix in the dual pass of column %d", j);
            for (int i = 0; i < L.size; ++i) lin->J[i * L.size + j] = F[i].d;
        }
    } else {
        double Fp[HS_LIN_MAX], Fm[HS_LIN_MAX], X[HS_LIN_MAX];
        if (rates_at(c, L, method, lin->X0, x->z, lin->rates))
            return hs_error_set(err, HS_ERR_NUMERIC, "", 0, 0, "", "singular matrix at the point");
        for (int j = 0; j < L.size; ++j) {
            double h = fd_step * std::fmax(1.0, std::fabs(lin->X0[j]));
            std::memcpy(X, lin->X0, sizeof X);
            X[j] = lin->X0[j] + h;
            if (rates_at(c, L, method, X, x->z, Fp))
                return hs_error_set(err, HS_ERR_NUMERIC, "", 0, 0, "", "singular matrix at the perturbed state %d", j);
            X[j] = lin->X0[j] - h;
            if (rates_at(c, L, method, X, x->z, Fm))
                return hs_error_set(err, HS_ERR_NUMERIC, "", 0, 0, "", "singular matrix at the perturbed state %d", j);
            for (int i = 0; i < L.size; ++i) lin->J[i * L.size + j] = (Fp[i] - Fm[i]) / (2.0 * h);
        }
    }
    for (int i = 0; i < L.size * L.size; ++i)
        if (!std::isfinite(lin->J[i]))
            return hs_error_set(err, HS_ERR_NUMERIC, "", 0, 0, "", "non-finite Jacobian entry (%d, %d)", i / L.size,
                                i % L.size);
    return 0;
}

extern "C" int hs_lin_eigen(hs_linearization *lin, hs_error *err)
{
    int n = lin->size, info = 0, lwork = -1;
    /* on the heap: callers run instances in parallel threads (host/run/run.c) */
    double *A = (double *)std::malloc(3 * sizeof(double) * HS_LIN_MAX * HS_LIN_MAX), *VL, *VR;
    double wr[HS_LIN_MAX], wi[HS_LIN_MAX], wq = 0.0, work[64 * HS_LIN_MAX];
    int order[HS_LIN_MAX];
    double part[HS_LIN_MAX][HS_LIN_NCLASS];
    if (!A) return hs_error_set(err, HS_ERR_IO, "", 0, 0, "", "out of memory");
    VL = A + HS_LIN_MAX * HS_LIN_MAX;
    VR = VL + HS_LIN_MAX * HS_LIN_MAX;
    /* column-major copy */
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) A[j * n + i] = lin->J[i * n + j];
    dgeev_("V", "V", &n, A, &n, wr, wi, VL, &n, VR, &n, &wq, &lwork, &info);
    lwork = (int)wq;
    if (lwork > 64 * HS_LIN_MAX) lwork = 64 * HS_LIN_MAX;
    if (lwork < 4 * n) lwork = 4 * n;
    dgeev_("V", "V", &n, A, &n, wr, wi, VL, &n, VR, &n, work, &lwork, &info);
    if (info != 0) {
        std::free(A);
        return hs_error_set(err, HS_ERR_NUMERIC, "", 0, 0, "", "LAPACK dgeev did not converge (info %d)", info);
    }
    /* participation of state k in mode j: |vl_kj| |vr_kj| (complex pairs: columns j, j + 1
     * hold the real and imaginary parts), normalised per mode */
    for (int j = 0; j < n; ++j) {
        int jr = j, ji = -1;
        double tot = 0.0;
        if (wi[j] != 0.0) {
            if (wi[j] > 0.0) ji = j + 1;
            else {
                jr = j - 1;
                ji = j;
            }
        }
        for (int c = 0; c < HS_LIN_NCLASS; ++c) part[j][c] = 0.0;
        for (int k = 0; k < n; ++k) {
            double lr = VL[jr * n + k], li = ji >= 0 ? VL[ji * n + k] : 0.0;
            double rr = VR[jr * n + k], ri = ji >= 0 ? VR[ji * n + k] : 0.0;
            double w = std::sqrt(lr * lr + li * li) * std::sqrt(rr * rr + ri * ri);
            part[j][lin->state_class[k]] += w;
            tot += w;
        }
        for (int c = 0; c < HS_LIN_NCLASS; ++c) part[j][c] = tot > 0.0 ? part[j][c] / tot : 0.0;
    }
    /* eigenvalues within rounding of zero are zero: dgeev's error on a (balanced) matrix is
     * about n eps times its norm, far below 1e-10 of the spectral radius, and an exact zero
     * (a pressure that is a combination of others, seed 001 Sect. 4.4) comes out as 1e-13 */
    {
        double rho = 0.0;
        for (int j = 0; j < n; ++j) rho = std::fmax(rho, std::hypot(wr[j], wi[j]));
        lin->zero_tol = HS_LIN_ZERO_REL * rho;
        for (int j = 0; j < n; ++j)
            if (std::hypot(wr[j], wi[j]) <= lin->zero_tol) wr[j] = wi[j] = 0.0;
    }
    /* by decreasing real part; a complex pair keeps + before - */
    for (int j = 0; j < n; ++j) order[j] = j;
    for (int a = 1; a < n; ++a) {
        int o = order[a], b = a - 1;
        while (b >= 0 && (wr[order[b]] < wr[o] || (wr[order[b]] == wr[o] && wi[order[b]] < wi[o]))) {
            order[b + 1] = order[b];
            --b;
        }
        order[b + 1] = o;
    }
    for (int j = 0; j < n; ++j) {
        int o = order[j], best = 0;
        lin->eig_re[j] = wr[o];
        lin->eig_im[j] = wi[o];
        for (int c = 0; c < HS_LIN_NCLASS; ++c) {
            lin->part[j][c] = part[o][c];
            if (part[o][c] > part[o][best]) best = c;
        }
        lin->label[j] = best;
    }
    std::free(A);
    return 0;
}

extern "C" double hs_lin_damping(double re, double im)
{
    double a = std::hypot(re, im);
    return a > 0.0 ? -re / a : NAN;
}

extern "C" double hs_lin_frequency(double im) { return std::fabs(im) / (2.0 * HS_PI); }

extern "C" const char *hs_lin_class_name(int c)
{
    static const char *names[HS_LIN_NCLASS] = {"mechanical", "pressure", "friction", "spool"};
    return c >= 0 && c < HS_LIN_NCLASS ? names[c] : "?";
}
