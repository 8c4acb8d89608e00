/* hs_residual.h -- the residual of one implicit step and its tangent: the trapezoidal rule
 * with the positions as primary variables (seed 000 eqs. 33-34 and 38; the hat terms of
 * eq. 34) applied to the index-3 penalty augmented Lagrangian (seed 000 eqs. 18-19 and 32-35;
 * seed 004 Pub. I eqs. 15-28) coupled with the pressures' rates (Pub. I eqs. 37-38; Pub. II
 * eq. 33 for a singular-perturbation volume), scaled by dt^2/4 (seed 000 eq. 39, Pub. I
 * eqs. 39 and 41), and its forward-difference tangent (seed 000 eqs. 40-41, Pub. I eq. 42). The penalty factor (eq. 18) and its adaptive-step
 * variant are here too: they scale the residual's constraint rows.
 *
 * Every stage after this one (the double-step formulation, Newton, the trapezoidal and
 * ESDIRK steps, the initialisation) evaluates the mechanism and the hydraulics through the
 * functions here (hs_evaluate, hs_evaluate_kin_hyd). */
#ifndef HS_RESIDUAL_H
#define HS_RESIDUAL_H

#include "hs_state.h"

/* The hat terms of the trapezoidal rule (seed 000 eq. 34) from the state s at the start of the
 * step, c1 = 2/h, c2 = 4/h^2: zdot = c1 z + hat_d, zddot = c2 z + hat_dd, xdot = c1 x + hat_x
 * for the pressures and friction states (x index i >= nz). Computed where needed, not kept:
 * a few flops against 144 B more per GPU thread. */
HS_HD static inline double hs_hat_d(const hs_state *s, double c1, int i)
{
    return -(c1 * s->z[i] + s->zd[i]);
}

HS_HD static inline double hs_hat_dd(const hs_state *s, double c1, double c2, int i)
{
    return -(c2 * s->z[i] + 2.0 * c1 * s->zd[i] + s->zdd[i]);
}

HS_HD static inline double hs_hat_x(const hs_mview *m, const hs_state *s, double c1, int i)
{
    int v = i - HS_N(m, nz);
    double xv = v < HS_N(m, nvol) ? s->p[v] : s->fs[v - HS_N(m, nvol)];
    double xr = v < HS_N(m, nvol) ? s->pd[v] : s->fsd[v - HS_N(m, nvol)];
    return -(c1 * xv + xr);
}

/* The penalty factor alpha of the augmented Lagrangian (seed 000 eq. 18): integrator.penalty,
 * raised where needed so that alpha dt^2/4 is at least penalty_ratio times the largest
 * diagonal entry of the mass matrix (at the state in w->kin: the initial one). The multiplier
 * iteration then contracts by at least 1/(1 + penalty_ratio) per Newton iteration and the
 * penalty's error falls like dt^2 with the step: a fixed alpha leaves an error floor and slow
 * multipliers at small dt (validation/README.md; Pub. I four-bar over its 7 s cycle: second
 * order down to dt = 31 us with ratio 4, a floor and a failure at 31 us with alpha = 1e11).
 * penalty_ratio = 0: alpha as given. */
HS_HD static inline double hs_penalty(const hs_mview *m, hs_work *w)
{
    double a = HS_D(m, penalty), dmax = 0.0, dt = HS_D(m, dt), need;
    int i;
    hs_dyn_work dyn;
    double M[HS_CAP_Z * HS_CAP_Z], Q[HS_CAP_Z];
    w->alpha_m = 0.0;
    if (!(HS_D(m, penalty_ratio) > 0.0) || HS_N(m, ncon) == 0) return a;
    hs_mass_force(m, &w->kin, 0.0, M, HS_CAP_Z, Q, &dyn);
    for (i = 0; i < HS_N(m, nz); ++i)
        if (M[i * HS_CAP_Z + i] > dmax) dmax = M[i * HS_CAP_Z + i];
    w->alpha_m = HS_D(m, penalty_ratio) * dmax;
    need = w->alpha_m / (0.25 * dt * dt);
    return need > a ? need : a;
}

/* The penalty of an adaptive (sub-)step whose trapezoidal form has the step hp (an ESDIRK
 * stage's: 2 gamma h): it follows the step as hs_penalty makes it follow dt, alpha hp^2/4 at
 * least HS_PENALTY_GAIN_ADAPTIVE penalty_ratio times the largest mass-matrix entry (a step far
 * below dt with the alpha of dt loses the loop closure: the Pub. I four-bar at its valve
 * closing did). The gain: the multiplier iteration contracts by about 1/(1 + that factor) per
 * Newton iteration, and a tight tolerance needs many contractions; on the Pub. I cycle at
 * rtol 1e-8 the gain 16 (the default ratio 4 -> 64) cut ESDIRK4's Newton iterations per step
 * from 26 to 13 and the trapezoidal rule's from 2.7 to 2.0, at the same errors. */
#define HS_PENALTY_GAIN_ADAPTIVE 16.0
HS_HD static inline void hs_penalty_adaptive(const hs_mview *m, hs_work *w, double hp)
{
    w->alpha = HS_PENALTY_GAIN_ADAPTIVE * w->alpha_m / (0.25 * hp * hp);
    if (w->alpha < HS_D(m, penalty)) w->alpha = HS_D(m, penalty);
}

/* The kinematics and the hydraulics at positions z, velocities zd, pressures p, friction
 * states fs and spools U into w: the positions of the bodies in pmask and the velocities of
 * those in vmask (the rest as w holds them), the hydraulics and every cylinder's ds/dz if
 * hyd. */
HS_HD static inline void hs_evaluate_kin_hyd(const hs_mview *m, const hs_state *s, const double *z,
                                             const double *zd, const double *p, const double *fs,
                                             const double *U, hs_work *w, unsigned int pmask,
                                             unsigned int vmask, int hyd)
{
    int c;
    hs_kin_positions_tc(m, z, &w->kin, pmask, HS_WORK_TRIG(w));
    hs_kin_velocities_sub(m, zd, &w->kin, vmask);
    if (hyd && (HS_N(m, ncyl) > 0 || HS_N(m, nvol) > 0)) {
        hs_hydraulics(m, &w->kin, p, fs, U, s->s0, &w->hyd);
        hs_cosim_hold(m, w);
        HS_UNROLL
        for (c = 0; c < HS_N(m, ncyl); ++c) hs_cylinder_jac(m, &w->kin, &w->hyd, c, w->js[c]);
    }
}

/* The mechanism and the hydraulics at positions z, velocities zd, pressures p, friction
 * states fs and spools U, at time t (inputs' left limits if side < 0, right limits
 * otherwise): kinematics, hydraulics and every cylinder's ds/dz into w (hs_evaluate_kin_hyd);
 * M (nz x nz, ld HS_CAP_Z) and Q (nz, without the cylinders) into the caller's arrays (locals
 * of the phase that uses them: not kept in hs_work). The cylinders' generalised forces are
 * F_c ds_c/dz (virtual work: F_c e . (dr_b - dr_a) = F_c ds_c), added by whoever needs the
 * whole Q (hs_residual_rows, hs_q_total). */
HS_HD static inline void hs_evaluate(const hs_mview *m, const hs_state *s, double t, int side, const double *z,
                                     const double *zd, const double *p, const double *fs, const double *U,
                                     hs_work *w, double *M, double *Q)
{
    hs_dyn_work dyn; /* only here: the composite bodies of the backward accumulation */
    hs_evaluate_kin_hyd(m, s, z, zd, p, fs, U, w, ~0u, ~0u, 1);
    hs_mass_force_side(m, &w->kin, t, side, M, HS_CAP_Z, Q, &dyn);
}

/* The motors' torques (hs_hyd.Tm) added to their joints' rows of a generalised force Q (nz)
 * times sg (+1: Q; -1: a residual's M zdd - Q): a motor between a body and its parent does
 * the virtual work T dz_j. */
HS_HD static inline void hs_motor_forces(const hs_mview *m, const hs_hyd *o, double sg, double *Q)
{
#if HS_MOT_ON
    int i;
    HS_UNROLL
    for (i = 0; i < HS_N(m, ncmp); ++i)
        if (HS_I(m, cmp_type, i) == HS_CMP_MOTOR) Q[HS_I(m, cmp_ref, i)] += sg * o->Tm[HS_I(m, cmp_mot, i)];
#else
    (void)m, (void)o, (void)sg, (void)Q;
#endif
}

/* The motors' power on the mechanism, sum of T_j zdot_j (hs_hyd.Tm, wm), W. */
HS_HD static inline double hs_motor_power(const hs_mview *m, const hs_hyd *o)
{
    double P = 0.0;
#if HS_MOT_ON
    int i;
    HS_UNROLL
    for (i = 0; i < HS_N(m, nmot); ++i) P += o->Tm[i] * o->wm[i];
#else
    (void)m, (void)o;
#endif
    return P;
}

/* The joints' springs and dampers (joints[].spring: a torsion spring or a linear one across
 * the joint, with a viscous damper): -(k (z_j - z_rest) - c zdot_j) on coordinate j, added to
 * a generalised force Q (nz) times sg (+1: Q; -1: a residual's M zdd - Q), at positions z and
 * velocities zd (nz). */
HS_HD static inline void hs_spring_forces(const hs_mview *m, const double *z, const double *zd, double sg, double *Q)
{
    int j;
    HS_UNROLL
    for (j = 0; j < HS_N(m, nz); ++j) {
        double k = HS_D(m, joint_k)[j], c = HS_D(m, joint_c)[j];
        if (k != 0.0 || c != 0.0) Q[j] -= sg * (k * (z[j] - HS_D(m, joint_zs)[j]) + c * zd[j]);
    }
}

/* Their power on the mechanism, sum of -(k (z - z_rest) + c zdot) zdot, W: counted with the
 * external loads' (W_ext), so that E_balance closes with the spring's energy and the damper's
 * loss in it. */
HS_HD static inline double hs_spring_power(const hs_mview *m, const double *z, const double *zd)
{
    double P = 0.0;
    int j;
    if (HS_N(m, nspring) == 0) return 0.0;
    HS_UNROLL
    for (j = 0; j < HS_N(m, nz); ++j)
        P -= (HS_D(m, joint_k)[j] * (z[j] - HS_D(m, joint_zs)[j]) + HS_D(m, joint_c)[j] * zd[j]) * zd[j];
    return P;
}

/* The whole generalised force: Q0 of hs_evaluate plus the cylinders' F_c ds_c/dz, the
 * motors' torques and the joints' springs at positions z and velocities zd (nz). */
HS_HD static inline void hs_q_total(const hs_mview *m, const hs_work *w, const double *z, const double *zd,
                                    const double *Q0, double *Q)
{
    int i, c;
    HS_UNROLL
    for (i = 0; i < HS_N(m, nz); ++i) {
        double q = Q0[i];
        HS_UNROLL
        for (c = 0; c < HS_N(m, ncyl); ++c) q += w->hyd.F[c] * w->js[c][i];
        Q[i] = q;
    }
    if (HS_N(m, nmot) > 0) hs_motor_forces(m, &w->hyd, 1.0, Q);
    if (HS_N(m, nspring) > 0) hs_spring_forces(m, z, zd, 1.0, Q);
}

/* The rows of the residual from the z rows' mechanical part w->rm, the cylinder forces, the
 * motors' torques and the hydraulic rates in w->hyd (hs_residual, hs_residual_hyd). */
HS_HD static inline void hs_residual_rows(const hs_mview *m, const hs_state *s, const double *x, hs_work *w,
                                          double *f)
{
    int n = HS_N(m, nz), nx = HS_N(m, nx), i, c;
    double h = w->h, c1 = 2.0 / h, sc = 0.25 * h * h, r[HS_CAP_Z];
    HS_UNROLL
    for (i = 0; i < n; ++i) {
        r[i] = w->rm[i];
        HS_UNROLL
        for (c = 0; c < HS_N(m, ncyl); ++c) r[i] -= w->hyd.F[c] * w->js[c][i];
    }
    if (HS_N(m, nmot) > 0) hs_motor_forces(m, &w->hyd, -1.0, r);
    if (HS_N(m, nspring) > 0) hs_spring_forces(m, x, w->zd, -1.0, r);
    HS_UNROLL
    for (i = 0; i < n; ++i) f[i] = sc * r[i];
    HS_UNROLL
    for (i = n; i < nx; ++i) {
        int v = i - n;
        double rate = v < HS_N(m, nvol) ? w->hyd.h[v] : w->hyd.fsd[v - HS_N(m, nvol)];
        if (v < HS_N(m, nvol) && HS_I(m, vol_model, v) == HS_VOL_SP)
            f[i] = sc * c1 * (x[i] - rate); /* algebraic: p = the quasi-static pressure (Pub. II
                                               eq. 33), scaled as the c1 p term of a lumped row */
        else
            f[i] = sc * (c1 * x[i] + hs_hat_x(m, s, c1, i) - rate);
    }
}

/* The nonholonomic rows' values (seed 001 eq. 11), B zdot with Phi_z's rows B in J (ld
 * HS_CAP_Z), scaled by h/2 into phi: the trapezoidal rule's zdot = 2/h z + ... makes h/2 B zdot
 * a position-like increment, which the penalty alpha and the multiplier update weigh as they
 * weigh the holonomic rows (the index-3 augmented Lagrangian, seed 000 eqs. 32-35, with
 * velocity constraints in its index-2 penalty form). */
HS_HD static inline void hs_phi_nh(const hs_mview *m, const double *J, const double *zd, double h, double *phi)
{
    int e, i;
    if (HS_N(m, nnh) == 0) return;
    HS_UNROLL
    for (e = 0; e < HS_N(m, ncon); ++e)
        if (HS_I(m, con_type, e) == HS_CON_NH) {
            double q = 0.0;
            HS_UNROLL
            for (i = 0; i < HS_N(m, nz); ++i) q += J[e * HS_CAP_Z + i] * zd[i];
            phi[e] = 0.5 * h * q;
        }
}

/* Scaled residual of the monolithic system (seed 004 Pub. I eq. 41; seed 000 eq. 39) at the
 * iterate x = [z, p, fs] with multipliers lam:
 *   z rows:  dt^2/4 (M zdd + Phi_z^T (alpha Phi + lam) - Q(z, zd, p, fs))
 *   p rows:  dt^2/4 (pdot - h(p, z, zd))        fs rows: dt^2/4 (fsdot - g(fs, sdot))
 * with zd, zdd, pdot and fsdot from the trapezoidal rule (eqs. 33-34, 38). The spool
 * positions w->U1 are those of the end of the step. Leaves the state's kinematics,
 * Phi, Phi_z, hydraulics and the z rows' mechanical part in w. The positions are those
 * hs_newton_apply left when it flagged them (w->kin_x: x is then its iterate, unchanged),
 * which saves one kinematic pass per Newton iteration after the first.
 * M zdd - Q comes from the inverse dynamics (hs_inverse_dynamics_side), without forming M.
 * hs_residual_sub recomputes the positions of the bodies in pmask, the velocities of those in
 * vmask, the dynamics of both and the hydraulics if hyd, and takes the rest from w
 * (hs_tangent's columns). */
HS_HD HS_NOINLINE static inline void hs_residual_sub(const hs_mview *m, const hs_state *s, double t,
                                                     const double *x, const double *lam, hs_work *w, double *f,
                                                     unsigned int pmask, unsigned int vmask, int hyd)
{
    int n = HS_N(m, nz), i, e;
    double h = w->h, c1 = 2.0 / h, c2 = 4.0 / (h * h), a = w->alpha, tau[HS_CAP_Z];
    HS_UNROLL
    for (i = 0; i < n; ++i) {
        w->zd[i] = c1 * x[i] + hs_hat_d(s, c1, i);
        w->zdd[i] = c2 * x[i] + hs_hat_dd(s, c1, c2, i);
    }
    hs_evaluate_kin_hyd(m, s, x, w->zd, x + n, x + n + HS_N(m, nvol), w->U1, w, pmask, vmask, hyd);
    /* M zdd - Q at the end of the step (the inputs' left limits), of the bodies whose
       positions or velocities changed (the rest as the last call left them in w->fb) */
#if HS_WORK_FB
    hs_inverse_dynamics_side(m, &w->kin, t, -1, w->zdd, pmask | vmask, w->fb, tau);
#else
    {
        hs_real fb[HS_CAP_BODIES][6];
        hs_inverse_dynamics_side(m, &w->kin, t, -1, w->zdd, ~0u, fb, tau);
    }
#endif
    hs_constraints_phi(m, &w->kin, w->phi);
    hs_constraints_jac(m, &w->kin, w->J, HS_CAP_Z);
    hs_phi_nh(m, w->J, w->zd, h, w->phi);
    HS_UNROLL
    for (i = 0; i < n; ++i) {
        double r = tau[i];
        HS_UNROLL
        for (e = 0; e < HS_N(m, ncon); ++e) r += w->J[e * HS_CAP_Z + i] * (a * w->phi[e] + lam[e]);
        w->rm[i] = r;
    }
    hs_residual_rows(m, s, x, w, f);
}

HS_HD static inline void hs_residual(const hs_mview *m, const hs_state *s, double t, const double *x,
                                     const double *lam, hs_work *w, double *f)
{
    unsigned int pmask = w->kin_x ? 0u : ~0u;
    w->kin_x = 0;
    hs_residual_sub(m, s, t, x, lam, w, f, pmask, ~0u, 1);
}

/* The residual at x whose coordinates z (x[0..nz)) are those of the last hs_residual call,
 * only the hydraulic unknowns p, fs changed: the kinematics, the cylinder geometry and the
 * z rows' mechanical part that call left in w are reused, only the hydraulic rates and the
 * cylinder forces re-evaluated (hs_hydraulic_rates_f; a friction force of the rod velocity
 * alone kept), the same operations on the same values as hs_residual(x) performs for them:
 * equal to the bit. */
HS_HD static inline void hs_residual_hyd(const hs_mview *m, const hs_state *s, const double *x, hs_work *w,
                                         double *f)
{
    int n = HS_N(m, nz);
    hs_hydraulic_rates_f(m, x + n, x + n + HS_N(m, nvol), w->U1, &w->hyd, 1);
    hs_cosim_hold(m, w);
    hs_residual_rows(m, s, x, w, f);
}

/* The point x0 + eps of a forward difference (eqs. 40-41): eps = fd_rel max(fd_floor, |x0|);
 * the caller divides by the representable difference (x0 + eps) - x0. */
HS_HD static inline double hs_fd_point(const hs_mview *m, double x0)
{
    double ax = fabs(x0);
    return x0 + HS_D(m, fd_rel) * (ax > HS_D(m, fd_floor) ? ax : HS_D(m, fd_floor));
}

/* Forward-difference tangent of the residual at x (eqs. 40-41), given f0 = f(x) just computed
 * by hs_residual (its kinematics still in w). Column i uses the increment
 * fd_rel * max(fd_floor, |x_i|), taken as the representable difference (x_i + eps) - x_i;
 * x_i is perturbed in place and restored. The hydraulic columns (p, fs) come first, through
 * hs_residual_hyd on f0's kinematics. The coordinate columns follow, from the last to the
 * first (leaves before their ancestors): column z_i recomputes the kinematics of joint i's
 * subtree and of the bodies an earlier column left perturbed (for a chain, none: each subtree
 * holds the previous one), and the hydraulics only when a cylinder's body is among them or an
 * earlier column left them perturbed; the rest are f0's values, so each column equals a full
 * hs_residual at its point to the bit (tests/test_integrator.c). */
HS_HD static inline void hs_tangent(const hs_mview *m, const hs_state *s, double t, double *x, const double *lam,
                                    const double *f0, hs_work *w)
{
    int n = HS_N(m, nx), nh = n - HS_N(m, nz), i, k, r, hyd_dirty = 0;
    unsigned int dirty = 0u;
#if HS_WORK_FB
    /* f0's hydraulics, put back after the hydraulic columns for the columns that keep them
     * (a GPU thread evaluates its rates again instead: a copy would take room in its frame) */
    hs_hyd f0h = w->hyd;
#endif
    HS_NOUNROLL
    for (k = 0; k < n; ++k) {
        int hyd = k < nh;
        double xi, x0, ie;
        i = hyd ? HS_N(m, nz) + k : n - 1 - k; /* p, fs first, then z from the last */
        if (k == nh && nh > 0) { /* f0's hydraulic rates again, for the columns that keep them */
#if HS_WORK_FB
            w->hyd = f0h;
#else
            hs_hydraulic_rates_f(m, x + HS_N(m, nz), x + HS_N(m, nz) + HS_N(m, nvol), w->U1, &w->hyd, 1);
            hs_cosim_hold(m, w);
#endif
        }
        x0 = x[i];
        xi = hs_fd_point(m, x0);
        ie = 1.0 / (xi - x0);
        x[i] = xi;
        if (hyd) {
            hs_residual_hyd(m, s, x, w, w->f1);
        } else {
            unsigned int sub = hs_subtree(m, i) | dirty;
            int c, hc = hyd_dirty;
            HS_UNROLL
            for (c = 0; c < HS_N(m, ncyl); ++c) {
                int ba = HS_I(m, cyl_body_a, c), bb = HS_I(m, cyl_body_b, c);
                if ((ba >= 0 && ((sub >> ba) & 1u)) || (bb >= 0 && ((sub >> bb) & 1u))) hc = 1;
            }
            HS_UNROLL
            for (c = 0; c < HS_N(m, ncmp); ++c) /* a motor's joint rate */
                if (HS_I(m, cmp_type, c) == HS_CMP_MOTOR && ((sub >> HS_I(m, cmp_ref, c)) & 1u)) hc = 1;
            w->kin_x = 0;
            hs_residual_sub(m, s, t, x, lam, w, w->f1, sub, sub, hc);
            dirty = sub;
            hyd_dirty = hc;
        }
        HS_UNROLL
        for (r = 0; r < n; ++r) w->lu.T[r * HS_CAP_X + i] = (w->f1[r] - f0[r]) * ie;
        x[i] = x0;
    }
}

#endif
