/* hs_init.h -- the consistent initial state of an instance: the loop closure solved at z0
 * (minimum-norm corrections of the free coordinates), consistent velocities, static
 * equilibrium of the cylinders initialised "at equilibrium" (seed 004 Pub. I eqs. 53-54; seed
 * 000 text after eq. 45), the chamber pressures that follow, and accelerations and multipliers
 * from the acceleration-level augmented Lagrangian (hs_consistent_rates, hs_trapezoid.h), and a
 * co-simulation's first exchange (hs_cosim_start). */
#ifndef HS_INIT_H
#define HS_INIT_H

#include "hs_cosim.h"

/* Solves Jf Jf^T y = r (ncon), Jf = Phi_z with the held columns removed, then dz = -Jf^T y:
 * the minimum-norm change of the free coordinates that cancels r to first order. A relative
 * regularisation of 1e-14 keeps redundant constraints (rank-deficient Jf) solvable. */
HS_HD static inline int hs_min_norm_correction(const hs_mview *m, hs_work *w, const double *r,
                                               double *dz)
{
    int nc = HS_N(m, ncon), n = HS_N(m, nz), a, b, i;
    double dmax = 0.0;
    for (a = 0; a < nc; ++a)
        for (b = 0; b < nc; ++b) {
            double s = 0.0;
            for (i = 0; i < n; ++i)
                if (!HS_I(m, joint_hold, i)) s += w->J[a * HS_CAP_Z + i] * w->J[b * HS_CAP_Z + i];
            w->lu.G[a * HS_CAP_G + b] = s;
        }
    for (a = 0; a < nc; ++a) {
        if (w->lu.G[a * HS_CAP_G + a] > dmax) dmax = w->lu.G[a * HS_CAP_G + a];
        w->y[a] = r[a];
    }
    if (!(dmax > 0.0)) return 1;
    if (hs_solve_regularised(w->lu.G, nc, HS_CAP_G, w->piv, w->y, 1e-14 * dmax)) return 1;
    for (i = 0; i < n; ++i) {
        double s = 0.0;
        if (!HS_I(m, joint_hold, i))
            for (a = 0; a < nc; ++a) s += w->J[a * HS_CAP_Z + i] * w->y[a];
        dz[i] = -s;
    }
    return 0;
}

/* Static equilibrium at the initial configuration (seed 004 Pub. I eqs. 53-54, seed 000 text
 * after eq. 45, done generically): with the mechanism at rest, the forces F_c of the cylinders
 * initialised "at equilibrium" and the multipliers lam satisfy
 *   Q0 + sum_c (ds_c/dz)^T F_c - Phi_z^T lam = 0      (nz equations),
 * Q0 being gravity, loads and the other cylinders. Solved in the least-squares sense
 * (normal equations, a relative 1e-14 regularisation for redundant constraints); a residual
 * above 1e-8 |Q0| means the cylinders cannot hold the mechanism and is flagged. Then each
 * cylinder's missing chamber pressure follows from F = p_p A_p - p_r A_r + F_d (friction is
 * zero at rest), and volumes joined by throttles (no flow at rest) share their pressure. */
HS_HD HS_NOINLINE static inline int hs_init_pressures(const hs_mview *m, hs_state *s, hs_work *w)
{
    int n = HS_N(m, nz), nc = HS_N(m, ncon), ne = 0, c, i, a, b, it, ceq[HS_CAP_CYLS], set[HS_CAP_VOLS];
    double F[HS_CAP_CYLS], M[HS_CAP_Z * HS_CAP_Z], Q0[HS_CAP_Z];
    for (c = 0; c < HS_N(m, ncyl); ++c) {
        F[c] = HS_D(m, cyl_init_F)[c];
        if (HS_I(m, cyl_init, c) == HS_CYLINIT_EQ_PROD || HS_I(m, cyl_init, c) == HS_CYLINIT_EQ_PPISTON)
            ceq[ne++] = c;
    }
    for (i = 0; i < HS_N(m, nvol); ++i) set[i] = 0;
    if (ne > 0) {
        int nu = ne + nc;
        double dmax = 0.0, rmax = 0.0, qmax = 0.0;
        /* Q0 (into w->r): gravity, loads and the cylinders not being solved for */
        hs_evaluate(m, s, 0.0, 1, s->z, s->zd, s->p, s->fs, s->U, w, M, Q0);
        for (i = 0; i < ne; ++i) w->hyd.F[ceq[i]] = 0.0;
        hs_q_total(m, w, s->z, s->zd, Q0, w->r);
        hs_constraints_jac(m, &w->kin, w->J, HS_CAP_Z);
        /* A = [js^T | -J^T] (nz x nu): column u of A at row k */
#define HS_ACOL(u, k) ((u) < ne ? w->js[ceq[u]][(k)] : -w->J[((u) - ne) * HS_CAP_Z + (k)])
        for (a = 0; a < nu; ++a) {
            double r = 0.0;
            for (b = 0; b < nu; ++b) {
                double g = 0.0;
                for (i = 0; i < n; ++i) g += HS_ACOL(a, i) * HS_ACOL(b, i);
                w->lu.G[a * HS_CAP_G + b] = g;
            }
            for (i = 0; i < n; ++i) r -= HS_ACOL(a, i) * w->r[i];
            w->y[a] = r;
            if (w->lu.G[a * HS_CAP_G + a] > dmax) dmax = w->lu.G[a * HS_CAP_G + a];
        }
        if (!(dmax > 0.0) || hs_solve_regularised(w->lu.G, nu, HS_CAP_G, w->piv, w->y, 1e-14 * dmax)) {
            s->status |= HS_ST_EQUILIBRIUM;
            return s->status;
        }
        for (i = 0; i < n; ++i) {
            double r = w->r[i];
            for (a = 0; a < nu; ++a) r += HS_ACOL(a, i) * w->y[a];
            if (fabs(r) > rmax) rmax = fabs(r);
            if (fabs(w->r[i]) > qmax) qmax = fabs(w->r[i]);
        }
#undef HS_ACOL
        if (!(rmax <= 1e-8 * (1.0 + qmax))) {
            s->status |= HS_ST_EQUILIBRIUM;
            return s->status;
        }
        for (i = 0; i < ne; ++i) F[ceq[i]] = w->y[i];
    }
    for (c = 0; c < HS_N(m, ncyl); ++c) {
        int vp = HS_I(m, cyl_vol_p, c), vr = HS_I(m, cyl_vol_r, c), mode = HS_I(m, cyl_init, c);
        double Ap = HS_D(m, cyl_Ap)[c], Ar = HS_D(m, cyl_Ar)[c];
        double Fd = hs_end_damper(m, c, HS_D(m, cyl_l_p0)[c], HS_D(m, cyl_stroke)[c] - HS_D(m, cyl_l_p0)[c], 0.0);
        if (mode == HS_CYLINIT_PRESSURES) continue;
        if (mode == HS_CYLINIT_EQ_PPISTON) {
            s->p[vp] = HS_D(m, cyl_init_p)[c];
            s->p[vr] = (s->p[vp] * Ap - F[c] + Fd) / Ar;
        } else { /* rod-side pressure given: equilibrium or prescribed force */
            s->p[vr] = HS_D(m, cyl_init_p)[c];
            s->p[vp] = (F[c] + s->p[vr] * Ar - Fd) / Ap;
        }
        if (!(s->p[vp] >= 0.0) || !(s->p[vr] >= 0.0)) {
            s->status |= HS_ST_EQUILIBRIUM; /* holding it would need a negative pressure */
            return s->status;
        }
        set[vp] = set[vr] = 1;
    }
    for (it = 0; it < HS_N(m, nvol); ++it) /* throttles carry no flow at rest: equal pressures */
        for (i = 0; i < HS_N(m, nthr); ++i) {
            a = HS_I(m, thr_a, i);
            b = HS_I(m, thr_b, i);
            if (a >= HS_N(m, nvol) || b >= HS_N(m, nvol) || set[a] == set[b]) continue;
            if (set[a]) s->p[b] = s->p[a];
            else s->p[a] = s->p[b];
            set[a] = set[b] = 1;
        }
    return 0;
}

/* Initial state: z0 with the loop closure solved to rounding level (held joints stay at z0),
 * velocities made consistent (Phi_z zd = 0) the same way, and accelerations and multipliers
 * from the acceleration-level augmented Lagrangian iteration
 *   (M + alpha J^T J) zdd = Q - J^T (lam + alpha c),  lam += alpha (J zdd + c),
 * which also tolerates redundant constraints. Returns s->status. */
HS_HD HS_NOINLINE static inline int hs_init(const hs_mview *m, hs_state *s, hs_work *w)
{
    int n = HS_N(m, nz), nc = HS_N(m, ncon), i, e, it;
    s->t = 0.0;
    s->step = 0;
    s->status = 0;
    s->warn = 0;
    s->iters = s->iters_max = 0;
    s->iters_total = 0;
    s->W_ext = 0.0;
    w->tan_ok = 0;
    w->kin_x = 0;
    w->tan_h = 0.0;
    w->it_step = 0;
#if HS_COSIM_ON
    w->cs.hold = 0; /* no hydraulics held (hs_cosim_hold); the exchange empty (hs_cosim_start) */
    w->cs.nh = 0;
    for (i = 0; i < HS_N(m, ncyl); ++i) w->cs.P_res[i] = w->cs.E_res[i] = 0.0; /* observed always */
#endif
#if HS_TRIG_CACHE
    hs_trig_start(&w->trig);
#endif
#if HS_WORK_HIST
    w->hist.h = 0.0; /* no rate history before the first step */
#endif
    for (i = 0; i < n; ++i) {
        s->z[i] = HS_D(m, joint_z0)[i];
        s->zd[i] = HS_D(m, joint_zd0)[i];
        s->zdd[i] = 0.0;
    }
    for (e = 0; e < nc; ++e) s->lambda[e] = 0.0;
    if (nc > 0) {
        double best = 1e300;
        for (it = 0; it < 60; ++it) {
            double pm = 0.0;
            hs_kin_positions(m, s->z, &w->kin);
            hs_constraints_phi(m, &w->kin, w->phi);
            for (e = 0; e < nc; ++e)
                if (fabs(w->phi[e]) > pm) pm = fabs(w->phi[e]);
            if (!(pm == pm)) break;
            /* stop at rounding level: no further decrease */
            if (pm == 0.0 || (pm >= 0.5 * best && pm < 1e-12)) {
                best = pm < best ? pm : best;
                break;
            }
            if (pm < best) best = pm;
            hs_constraints_jac(m, &w->kin, w->J, HS_CAP_Z);
            if (hs_min_norm_correction(m, w, w->phi, w->dx)) break;
            for (i = 0; i < n; ++i) s->z[i] += w->dx[i];
        }
        if (!(best <= 1e-9)) {
            s->status |= HS_ST_GEOMETRY;
            return s->status;
        }
        hs_kin_positions(m, s->z, &w->kin);
        hs_constraints_jac(m, &w->kin, w->J, HS_CAP_Z);
        for (it = 0; it < 3; ++it) { /* consistent velocities, with one refinement */
            for (e = 0; e < nc; ++e) {
                double q = 0.0;
                for (i = 0; i < n; ++i) q += w->J[e * HS_CAP_Z + i] * s->zd[i];
                w->r[e] = q;
            }
            if (hs_min_norm_correction(m, w, w->r, w->dx)) {
                s->status |= HS_ST_GEOMETRY;
                return s->status;
            }
            for (i = 0; i < n; ++i) s->zd[i] += w->dx[i];
        }
    }
    /* hydraulic states: spools, friction states, cylinder reference lengths, pressures */
    hs_kin_positions(m, s->z, &w->kin);
    hs_kin_velocities(m, s->zd, &w->kin);
    w->alpha = hs_penalty(m, w);
    for (i = 0; i < HS_N(m, ndcv); ++i) s->U[i] = HS_D(m, dcv_U0)[i];
    for (i = 0; i < HS_N(m, nfs); ++i) s->fs[i] = s->fsd[i] = 0.0;
    for (i = 0; i < HS_N(m, nvol); ++i) s->p[i] = HS_D(m, vol_p0)[i];
    for (i = 0; i < HS_N(m, ncyl); ++i) {
        hs_cylinder_geometry(m, &w->kin, i, &w->hyd);
        s->s0[i] = w->hyd.s[i];
        s->W_cyl[i] = 0.0;
    }
#if HS_MOT_ON
    s->W_mot = 0.0;
#endif
#if HS_AUDIT_ON
    for (i = 0; i < HS_NPW; ++i) s->W_hyd[i] = 0.0;
#endif
    if (HS_N(m, ncyl) > 0 && hs_init_pressures(m, s, w)) return s->status;
    for (i = 0; i < HS_N(m, ncmp); ++i) /* the components' states start at rest at p */
        if (HS_I(m, cmp_type, i) == HS_CMP_HOSE)
            hs_hose_rest(m, i, s->p, s->fs);
        else if (HS_I(m, cmp_fs0, i) >= 0)
            s->fs[HS_I(m, cmp_fs0, i)] = hs_component_state_ss(m, i, s->p, s->U);
    if (hs_consistent_rates(m, s, w, 0.0)) return s->status;
    hs_constraints_phi(m, &w->kin, w->phi); /* w now describes s: hs_observe_current */
    hs_cavitation_check(m, s);
    s->ds_dep = 0;
    s->ds_row = 0u;
    s->ds_repart = 0;
    if (hs_double_step(m) && hs_ds_partition(m, s, w, 1)) {
        s->status |= HS_ST_GEOMETRY;
        return s->status;
    }
#if HS_COSIM_ON
    hs_cosim_start(m, s, w); /* the exchange at t = 0 */
#endif
    return 0;
}

#endif
