/* hs_double_step.h -- the double-step semi-recursive formulation (seed 000 Sects. 2.3 and 4):
 * coordinate partitioning inside the trapezoidal rule's Newton iteration. It shares the
 * penalty formulation's evaluation of the mechanism and the hydraulics (hs_residual.h:
 * hs_evaluate_kin_hyd, hs_residual_rows, hs_residual_hyd); the Newton and step stages
 * (hs_newton.h, hs_trapezoid.h) call these where integrator.formulation is double_step.
 *
 * Of the nz relative coordinates, r = rank Phi_z are dependent: a bit mask in hs_state.ds_dep,
 * and the r constraint rows that fix them in hs_state.ds_row (with redundant cut equations,
 * e.g. a spatial revolute cut closing a planar loop, the others follow from them). They are
 * chosen by Gaussian elimination with full pivoting on Phi_z (seed 000 text after eq. 15): the
 * columns where no pivot appears are the independent coordinates. The Newton unknowns are
 * the independent coordinates and the hydraulic states (eq. 35); at every iterate the
 * dependent coordinates are solved from Phi(z) = 0 by an inner Newton iteration from the
 * Taylor predictor (the text after eq. 34), the dependent velocities and accelerations follow
 * from eqs. 13-15, and the residual is the reduced equation R^T (M zdd - Q) = 0 (eqs. 16-17,
 * 38). The step keeps the penalty formulation's layout x = [z, p, fs]: the dependent
 * coordinates' rows and columns of the tangent are identity rows and columns and their
 * residual is zero, so every Newton path (LU, inverse, LAPACK, batched cuBLAS) solves the
 * reduced system unchanged and the update of a dependent coordinate is exactly 0.
 *
 * The partition is chosen at t = 0 and checked after every step: when the determinant of the
 * dependent block Phi_d has fallen below HS_DS_REPART times that of the block a new full-pivot
 * elimination would choose, the new one is taken (hs_state.ds_repart counts the changes; the
 * state holds every coordinate, so a change needs no conversion). */
#ifndef HS_DOUBLE_STEP_H
#define HS_DOUBLE_STEP_H

#include "hs_residual.h"

/* The loop closure is solved to this (m or rad), or until Newton stalls at rounding level
 * below HS_DS_CLOSE_FLOOR; at most HS_DS_CLOSE_ITER iterations. The forward-difference
 * tangent needs closures far tighter than its increments (fd_rel |z| ~ 1e-8): from a closed
 * point one inner iteration brings a perturbed one to rounding level. */
#define HS_DS_CLOSE_TOL 1e-13
#define HS_DS_CLOSE_FLOOR 1e-9
#define HS_DS_CLOSE_ITER 12
/* A pivot below this times the first ends the elimination: the rank of Phi_z. */
#define HS_DS_RANK_TOL 1e-9
/* Re-partition when |det Phi_d| < HS_DS_REPART |det| of the full-pivot choice: the factor
 * keeps two near-equal choices from alternating. */
#define HS_DS_REPART 0.5

/* The indices of the set bits of mask below n, ascending, into idx; returns their count. */
HS_HD static inline int hs_ds_index(hs_ds_mask mask, int n, int *idx)
{
    int i, k = 0;
    HS_UNROLL
    for (i = 0; i < n; ++i)
        if ((mask >> i) & (hs_ds_mask)1) idx[k++] = i;
    return k;
}

/* Gaussian elimination with full pivoting on Phi_z (J, ncon x nz, ld HS_CAP_Z; seed 000 after
 * eq. 15): the pivots' columns are the dependent coordinates (*dep), their rows the
 * constraint equations that fix them (*row). Returns the rank r and the product of the pivots'
 * magnitudes, |det| of the chosen r x r block, in *det. */
HS_HD static inline int hs_ds_pivots(const hs_mview *m, const double *J, hs_ds_mask *dep, hs_ds_mask *row,
                                     double *det)
{
    int nc = HS_N(m, ncon), n = HS_N(m, nz), i, j, k, r = 0, rp[HS_CAP_CON], cp[HS_CAP_Z];
    double A[HS_CAP_CON * HS_CAP_Z], a0 = 0.0, d = 1.0;
    for (i = 0; i < nc; ++i) {
        rp[i] = i;
        for (j = 0; j < n; ++j) A[i * HS_CAP_Z + j] = J[i * HS_CAP_Z + j];
    }
    for (j = 0; j < n; ++j) cp[j] = j;
    *dep = *row = (hs_ds_mask)0;
    for (k = 0; k < nc && k < n; ++k) {
        int pi = k, pj = k, t;
        double amax = -1.0, piv;
        for (i = k; i < nc; ++i)
            for (j = k; j < n; ++j) {
                double a = fabs(A[rp[i] * HS_CAP_Z + cp[j]]);
                if (a > amax) {
                    amax = a;
                    pi = i;
                    pj = j;
                }
            }
        if (k == 0) a0 = amax;
        if (!(amax > HS_DS_RANK_TOL * a0) || !(a0 > 0.0)) break; /* the rest is rank-deficient */
        t = rp[k];
        rp[k] = rp[pi];
        rp[pi] = t;
        t = cp[k];
        cp[k] = cp[pj];
        cp[pj] = t;
        piv = A[rp[k] * HS_CAP_Z + cp[k]];
        d *= fabs(piv);
        *dep |= (hs_ds_mask)1 << cp[k];
        *row |= (hs_ds_mask)1 << rp[k];
        ++r;
        for (i = k + 1; i < nc; ++i) {
            double l = A[rp[i] * HS_CAP_Z + cp[k]] / piv;
            for (j = k + 1; j < n; ++j) A[rp[i] * HS_CAP_Z + cp[j]] -= l * A[rp[k] * HS_CAP_Z + cp[j]];
        }
    }
    *det = d;
    return r;
}

/* The dependent block Phi_d (rows ds_row, columns ds_dep of w->J) into w->L (r x r, ld
 * HS_CAP_Z), factorised by the Newton systems' solver (HS_LU_FACTOR: the reference backend's
 * LAPACK too; pivots w->pivL). Returns the factorisation's result (0: regular). */
HS_HD static inline int hs_ds_factor(const hs_mview *m, const hs_state *s, hs_work *w)
{
    int ri[HS_CAP_CON], di[HS_CAP_Z], r, k, l;
    r = hs_ds_index(s->ds_row, HS_N(m, ncon), ri);
    hs_ds_index(s->ds_dep, HS_N(m, nz), di);
    for (k = 0; k < r; ++k)
        for (l = 0; l < r; ++l) w->L[k * HS_CAP_Z + l] = w->J[ri[k] * HS_CAP_Z + di[l]];
    return HS_LU_FACTOR(w->L, r, HS_CAP_Z, w->pivL);
}

/* The second of the double step (seed 000, text after eq. 34): the dependent coordinates of x
 * (nz first entries) solved from Phi(z) = 0 with the independent ones fixed, by Newton on
 * Phi_d dz_d = -Phi from x's values as the first guess. Leaves w->kin (positions), w->phi,
 * w->J and the factorised Phi_d (w->L) at the solution. Returns 0, or 1 when the closure does
 * not converge (no solution near the guess, or a singular Phi_d: a singular position). */
HS_HD static inline int hs_ds_close(const hs_mview *m, const hs_state *s, double *x, hs_work *w)
{
    int ri[HS_CAP_CON], di[HS_CAP_Z], r, k, it;
    double prev = 0.0, b[HS_CAP_CON];
    r = hs_ds_index(s->ds_row, HS_N(m, ncon), ri);
    hs_ds_index(s->ds_dep, HS_N(m, nz), di);
    for (it = 0; it < HS_DS_CLOSE_ITER; ++it) {
        double pm = 0.0;
        hs_kin_positions(m, x, &w->kin);
        hs_constraints_phi(m, &w->kin, w->phi);
        hs_constraints_jac(m, &w->kin, w->J, HS_CAP_Z);
        if (hs_ds_factor(m, s, w)) return 1;
        for (k = 0; k < r; ++k)
            if (fabs(w->phi[ri[k]]) > pm || w->phi[ri[k]] != w->phi[ri[k]]) pm = fabs(w->phi[ri[k]]);
        if (!(pm == pm)) return 1;
        /* closed, or stalled at rounding level (no longer decreasing) */
        if (pm <= HS_DS_CLOSE_TOL || (it > 0 && pm < HS_DS_CLOSE_FLOOR && pm > 0.1 * prev)) return 0;
        prev = pm;
        for (k = 0; k < r; ++k) b[k] = -w->phi[ri[k]];
        HS_LU_SOLVE(w->L, r, HS_CAP_Z, w->pivL, b);
        for (k = 0; k < r; ++k) x[di[k]] += b[k];
    }
    return 1;
}

/* The dependent entries of v (nz) from its independent ones and Phi_z (w->J, Phi_d factorised
 * in w->L): Phi_d v_d = -(Phi_i v_i + c), c = 0 for velocities (eq. 13) and c = Phidot_z zdot for
 * accelerations (eq. 15, the constraints' second derivative). */
HS_HD static inline void hs_ds_dependent(const hs_mview *m, const hs_state *s, hs_work *w, double *v,
                                         const double *c)
{
    int ri[HS_CAP_CON], di[HS_CAP_Z], r, k, i, n = HS_N(m, nz);
    double b[HS_CAP_CON];
    r = hs_ds_index(s->ds_row, HS_N(m, ncon), ri);
    hs_ds_index(s->ds_dep, n, di);
    for (k = 0; k < r; ++k) {
        double q = c ? c[ri[k]] : 0.0;
        for (i = 0; i < n; ++i)
            if (!((s->ds_dep >> i) & 1u)) q += w->J[ri[k] * HS_CAP_Z + i] * v[i];
        b[k] = -q;
    }
    HS_LU_SOLVE(w->L, r, HS_CAP_Z, w->pivL, b);
    for (k = 0; k < r; ++k) v[di[k]] = b[k];
}

/* The z rows of a residual f (nz, the full equations' rows r = M zdd - Q, scaled) reduced to
 * R^T r (eq. 16), R = [I; -Phi_d^-1 Phi_i] the velocity transformation of eq. 14:
 * f_i = r_i - Phi_i^T y with Phi_d^T y = r_d (y: the multipliers that the dependent rows
 * determine), f_d = 0. */
HS_HD static inline void hs_ds_reduce(const hs_mview *m, const hs_state *s, const hs_work *w, double *f)
{
    int ri[HS_CAP_CON], di[HS_CAP_Z], r, k, i, n = HS_N(m, nz);
    double y[HS_CAP_CON];
    r = hs_ds_index(s->ds_row, HS_N(m, ncon), ri);
    hs_ds_index(s->ds_dep, n, di);
    for (k = 0; k < r; ++k) y[k] = f[di[k]];
    HS_LU_SOLVE_T(w->L, r, HS_CAP_Z, w->pivL, y);
    for (i = 0; i < n; ++i) {
        double q = f[i];
        if ((s->ds_dep >> i) & 1u) {
            f[i] = 0.0;
            continue;
        }
        for (k = 0; k < r; ++k) q -= w->J[ri[k] * HS_CAP_Z + i] * y[k];
        f[i] = q;
    }
}

/* Velocities and accelerations of the iterate x (closed: hs_ds_close) into w->zd, w->zdd: the
 * independent ones by the trapezoidal rule (eq. 33), the dependent ones by eqs. 13 and 15;
 * the kinematics' velocities follow. */
HS_HD static inline void hs_ds_rates(const hs_mview *m, const hs_state *s, const double *x, hs_work *w)
{
    int i, n = HS_N(m, nz);
    double h = w->h, c1 = 2.0 / h, c2 = 4.0 / (h * h), vp[HS_CAP_CON];
    for (i = 0; i < n; ++i) {
        w->zd[i] = c1 * x[i] + hs_hat_d(s, c1, i);
        w->zdd[i] = c2 * x[i] + hs_hat_dd(s, c1, c2, i);
    }
    hs_ds_dependent(m, s, w, w->zd, NULL);
    hs_kin_velocities(m, w->zd, &w->kin);
    hs_constraints_vprod(m, &w->kin, vp);
    hs_ds_dependent(m, s, w, w->zdd, vp);
}

/* The double-step residual (eq. 38) at x = [z, p, fs]: the dependent coordinates of x closed
 * first (hs_ds_close, in place), then rates, dynamics and hydraulics at the end of the step
 * (the inputs' left limits), z rows reduced by R^T, dependent rows 0. Returns 1 when the
 * closure fails. */
HS_HD HS_NOINLINE static inline int hs_ds_residual(const hs_mview *m, const hs_state *s, double t, double *x,
                                                   hs_work *w, double *f)
{
    int n = HS_N(m, nz);
    hs_real fb[HS_CAP_BODIES][6];
    if (hs_ds_close(m, s, x, w)) return 1;
    hs_ds_rates(m, s, x, w);
    /* positions and velocities are in w->kin: masks 0 */
    hs_evaluate_kin_hyd(m, s, x, w->zd, x + n, x + n + HS_N(m, nvol), w->U1, w, 0u, 0u, 1);
    /* M zdd - Q of every body (the inputs' left limits) */
    hs_inverse_dynamics_side(m, &w->kin, t, -1, w->zdd, ~0u, fb, w->rm);
    hs_residual_rows(m, s, x, w, f);
    hs_ds_reduce(m, s, w, f);
    return 0;
}

/* Forward-difference tangent of the double-step residual at x (eqs. 40-41), f0 = f(x) just
 * computed by hs_ds_residual (its Phi_d still in w). The hydraulic columns first, on f0's
 * kinematics (hs_residual_hyd, then the reduction with f0's Phi_d); then each independent
 * coordinate's column, whose perturbed point is closed again (the dependent coordinates follow
 * the independent ones); the dependent coordinates' columns are unit columns. x is restored.
 * Returns 1 when a closure fails. */
HS_HD static inline int hs_ds_tangent(const hs_mview *m, const hs_state *s, double t, double *x, const double *f0,
                                      hs_work *w)
{
    int n = HS_N(m, nx), nz = HS_N(m, nz), nh = n - nz, i, k, r;
    double z0[HS_CAP_Z];
    for (i = 0; i < nz; ++i) z0[i] = x[i];
    HS_NOUNROLL
    for (k = 0; k < n; ++k) {
        int hyd = k < nh, rc = 0;
        double xi, xo, ie;
        i = hyd ? nz + k : n - 1 - k;
        if (!hyd && ((s->ds_dep >> i) & 1u)) {
            for (r = 0; r < n; ++r) w->lu.T[r * HS_CAP_X + i] = r == i ? 1.0 : 0.0;
            continue;
        }
        xo = x[i];
        xi = hs_fd_point(m, xo);
        ie = 1.0 / (xi - xo);
        x[i] = xi;
        if (hyd) {
            hs_residual_hyd(m, s, x, w, w->f1);
            hs_ds_reduce(m, s, w, w->f1);
        } else {
            rc = hs_ds_residual(m, s, t, x, w, w->f1);
        }
        x[i] = xo;
        if (!hyd)
            for (r = 0; r < nz; ++r) x[r] = z0[r];
        if (rc) return 1;
        for (r = 0; r < n; ++r) w->lu.T[r * HS_CAP_X + i] = (w->f1[r] - f0[r]) * ie;
    }
    return 0;
}

/* The partition at the state whose Phi_z is in w->J: at t = 0 (first = 1) the full-pivot
 * choice; after a step, that choice only when the current block's |det| (the product of the
 * pivots u_kk of its factorisation in w->L: HS_LU_PIVOT) has fallen below HS_DS_REPART times
 * the choice's. Returns 1 when the partition changed (a reused tangent is then stale), -1
 * when Phi_z has no rank at all at t = 0. */
HS_HD static inline int hs_ds_partition(const hs_mview *m, hs_state *s, const hs_work *w, int first)
{
    hs_ds_mask dep, row;
    double dbest, dcur = 1.0;
    int r = hs_ds_pivots(m, w->J, &dep, &row, &dbest), k, nd;
    if (first) {
        s->ds_dep = (hs_ds_zmask)dep;
        s->ds_row = row;
        s->ds_repart = 0;
        return r > 0 ? 0 : -1;
    }
    if (dep == s->ds_dep && row == s->ds_row) return 0;
    {
        int di[HS_CAP_Z];
        nd = hs_ds_index(s->ds_dep, HS_N(m, nz), di);
    }
    for (k = 0; k < nd; ++k) dcur *= fabs(HS_LU_PIVOT(w->L, HS_CAP_Z, k));
    if (nd == r && !(dcur < HS_DS_REPART * dbest)) return 0;
    s->ds_dep = (hs_ds_zmask)dep;
    s->ds_row = row;
    if (s->ds_repart < 65535u) s->ds_repart = (unsigned short)(s->ds_repart + 1u);
    return 1;
}

#endif
