/* hs_esdirk.h -- the ESDIRK methods of adaptive steps (integrator.method: esdirk3, esdirk4):
 * their Butcher tables, the stages' rates, the embedded error estimate and one attempt of a
 * step, stage by stage, each stage a trapezoidal Newton solve and finish (hs_trapezoid.h)
 * with its own known terms. The tables and the reduction of a stage to a trapezoidal step are
 * explained below. */
#ifndef HS_ESDIRK_H
#define HS_ESDIRK_H

#include "hs_trapezoid.h"

/* ---- ESDIRK methods (integrator.method) ----
 * Kennedy & Carpenter, Additive Runge-Kutta schemes for convection-diffusion-reaction
 * equations, Appl. Numer. Math. 44 (2003): the implicit tables of ARK3(2)4L[2]SA and
 * ARK4(3)6L[2]SA, as SUNDIALS ARKODE ships them (ARKODE_ARK324L2SA_DIRK_4_2_3,
 * ARKODE_ARK436L2SA_DIRK_6_3_4). Explicit first stage (the state at the start of the step),
 * equal diagonal gamma, stiffly accurate (b = the last row of A: the last stage is the
 * solution, a state solved and projected like a trapezoidal step's end), L-stable.
 *
 * Stage i solves, with the known parts Z_i = z_n + h sum_{j<i} a_ij zd_j,
 * V_i = zd_n + h sum_{j<i} a_ij zdd_j, X_i = x_n + h sum_{j<i} a_ij xd_j:
 *   z_i = Z_i + gamma h zd_i,  zd_i = V_i + gamma h zdd_i,  x_i = X_i + gamma h xd_i,
 * which is a trapezoidal step (seed 000 eq. 34: zd = c1 z + hat_d, zdd = c2 z + hat_dd,
 * xd = c1 x + hat_x) of h' = 2 gamma h from a start state with z = Z_i, zd = 0,
 * zdd = V_i / (gamma h), x = X_i, xd = 0: c1 = 1/(gamma h), c2 = c1^2, hat_d = -c1 Z_i,
 * hat_dd = -(c2 Z_i + c1 V_i), hat_x = -c1 X_i. So every stage runs the trapezoidal step's
 * residual, tangent, Newton iteration, projections (P = M + gamma h C + (gamma h)^2 K) and
 * checks unchanged, and all stages of a step share one tangent (same h'), which modified
 * Newton reuses. */
#define HS_ESDIRK_MAXS 6

/* Stages of a method (1 for the trapezoidal rule, which has no table here). */
HS_HD static inline int hs_esdirk_stages(int method)
{
    return method == HS_METHOD_ESDIRK3 ? 4 : method == HS_METHOD_ESDIRK4 ? 6 : 1;
}

/* a_ij (i > j; the diagonal is gamma: hs_esdirk_gamma), c_i, and e_j = b_j - bhat_j, the
 * weights of the embedded error estimate. */
HS_HD static inline double hs_esdirk_a(int method, int i, int j)
{
    const double a3[4][3] = {{0.0, 0.0, 0.0},
                             {0.435866521508459, 0.0, 0.0},
                             {0.25764824606642722, -0.093514767574886248, 0.0},
                             {0.18764102434672383, -0.59529747357695495, 0.97178992772177208}};
    const double a4[6][5] = {{0.0, 0.0, 0.0, 0.0, 0.0},
                             {0.25, 0.0, 0.0, 0.0, 0.0},
                             {0.137776, -0.055776, 0.0, 0.0, 0.0},
                             {0.14463686602698217, -0.22393190761334475, 0.44929504158636258, 0.0, 0.0},
                             {0.098258783283564771, -0.59154424281967044, 0.81012105382829958,
                              0.28316440570780599, 0.0},
                             {0.15791629516167136, 0.0, 0.18675894052400077, 0.68056529530933463,
                              -0.27524053099500667}};
    return method == HS_METHOD_ESDIRK3 ? a3[i][j] : a4[i][j];
}

HS_HD static inline double hs_esdirk_gamma(int method)
{
    return method == HS_METHOD_ESDIRK3 ? 0.435866521508459 : 0.25;
}

HS_HD static inline double hs_esdirk_c(int method, int i)
{
    const double c3[4] = {0.0, 0.87173304301691801, 0.6, 1.0};
    const double c4[6] = {0.0, 0.5, 0.332, 0.62, 0.85, 1.0};
    return method == HS_METHOD_ESDIRK3 ? c3[i] : c4[i];
}

HS_HD static inline double hs_esdirk_b(int method, int j)
{
    int s = hs_esdirk_stages(method);
    return j == s - 1 ? hs_esdirk_gamma(method) : hs_esdirk_a(method, s - 1, j);
}

HS_HD static inline double hs_esdirk_e(int method, int j)
{
    const double d3[4] = {0.21474028622338914, -0.4851622638849391, 0.86872500252038753, 0.40169697514116243};
    const double d4[6] = {0.15471180076321217, 0.0, 0.18920519166068023, 0.70204537122892186,
                          -0.31918739906357912, 0.27322503541076487};
    return hs_esdirk_b(method, j) - (method == HS_METHOD_ESDIRK3 ? d3[j] : d4[j]);
}

/* The stages' rates: what the later stages' known parts and the error estimate sum. */
typedef struct hs_esdirk_k {
    double zd[HS_ESDIRK_MAXS][HS_CAP_Z], zdd[HS_ESDIRK_MAXS][HS_CAP_Z]; /* (nstage x nz) */
    double xd[HS_ESDIRK_MAXS][HS_CAP_VOLS + HS_CAP_FS]; /* pressures', friction states' (nstage x
                                                            (nvol + nfs)) */
    double Ud[HS_ESDIRK_MAXS][HS_CAP_DCV]; /* spools' (nstage x ndcv) */
    double P[HS_ESDIRK_MAXS][HS_CAP_CYLS + 1 + HS_MOT_ON + HS_NPW * HS_AUDIT_ON]; /* the cylinders'
        powers, then the external loads', the motors' and the hydraulic audit's (hs_energy.h)
        (nstage x (ncyl + 1 + HS_MOT_ON + HS_NPW HS_AUDIT_ON)) */
} hs_esdirk_k;

/* Stage j's rates from the state st (solved at stage j, or the step's start for j = 0). */
HS_HD static inline void hs_esdirk_take(const hs_mview *m, const hs_state *st, int j, hs_esdirk_k *k)
{
    int i, nv = HS_N(m, nvol);
    HS_UNROLL
    for (i = 0; i < HS_N(m, nz); ++i) {
        k->zd[j][i] = st->zd[i];
        k->zdd[j][i] = st->zdd[i];
    }
    HS_UNROLL
    for (i = 0; i < nv; ++i) k->xd[j][i] = st->pd[i];
    HS_UNROLL
    for (i = 0; i < HS_N(m, nfs); ++i) k->xd[j][nv + i] = st->fsd[i];
    HS_UNROLL
    for (i = 0; i < HS_N(m, ndcv); ++i) k->Ud[j][i] = hs_spool_rate(m, i, st->U[i], st->t, j == 0 ? 1 : -1);
    HS_UNROLL
    for (i = 0; i < HS_N(m, ncyl); ++i) k->P[j][i] = st->P_cyl[i];
    k->P[j][HS_N(m, ncyl)] = st->P_ext;
#if HS_MOT_ON
    k->P[j][HS_N(m, ncyl) + 1] = st->P_mot;
#endif
#if HS_AUDIT_ON
    for (i = 0; i < HS_NPW; ++i) k->P[j][HS_N(m, ncyl) + 1 + HS_MOT_ON + i] = st->P_hyd[i];
#endif
}

/* sum_{j<i} a_ij r_j: the known part's increment, per unit h. */
#define HS_ESDIRK_SUM(meth, i, arr, col, out)                                                        \
    do {                                                                                         \
        int j_;                                                                                  \
        (out) = 0.0;                                                                             \
        for (j_ = 0; j_ < (i); ++j_) (out) += hs_esdirk_a((meth), (i), j_) * (arr)[j_][col];       \
    } while (0)

/* The weighted RMS norm of the embedded error estimate h sum_j e_j (rates of stage j) of the
 * step from a to b, each component against atol_class + rtol max(|y_a|, |y_b|), as
 * hs_local_error weighs the trapezoidal rule's. */
HS_HD static inline double hs_esdirk_error(const hs_mview *m, const hs_state *a, const hs_state *b,
                                           const hs_esdirk_k *k, double h)
{
    int meth = hs_method(m), ns = hs_esdirk_stages(meth), i, j, n = 0, nv = HS_N(m, nvol);
    double sum = 0.0, rt = HS_D(m, rtol), e, wgt;
    HS_UNROLL
    for (i = 0; i < HS_N(m, nz); ++i) {
        double za = fabs(a->z[i]), zb = fabs(b->z[i]), va = fabs(a->zd[i]), vb = fabs(b->zd[i]), ez = 0.0,
               ev = 0.0;
        for (j = 0; j < ns; ++j) {
            ez += hs_esdirk_e(meth, j) * k->zd[j][i];
            ev += hs_esdirk_e(meth, j) * k->zdd[j][i];
        }
        e = h * ez;
        wgt = HS_D(m, atol_z) + rt * (za > zb ? za : zb);
        sum += (e / wgt) * (e / wgt);
        e = h * ev;
        wgt = HS_D(m, atol_zd) + rt * (va > vb ? va : vb);
        sum += (e / wgt) * (e / wgt);
        n += 2;
    }
    HS_UNROLL
    for (i = 0; i < nv + HS_N(m, nfs); ++i) {
        int vol = i < nv;
        double xa = fabs(vol ? a->p[i] : a->fs[i - nv]), xb = fabs(vol ? b->p[i] : b->fs[i - nv]);
        if (vol && HS_I(m, vol_model, i) == HS_VOL_SP) continue; /* algebraic */
        e = 0.0;
        for (j = 0; j < ns; ++j) e += hs_esdirk_e(meth, j) * k->xd[j][i];
        e *= h;
        wgt = vol ? HS_D(m, atol_p) + rt * (xa > xb ? xa : xb)
                  : HS_D(m, atol_fs) + rt * (xa > xb ? xa : xb);
        sum += (e / wgt) * (e / wgt);
        ++n;
    }
    HS_UNROLL
    for (i = 0; i < HS_N(m, ndcv); ++i) {
        double ua = fabs(a->U[i]), ub = fabs(b->U[i]);
        e = 0.0;
        for (j = 0; j < ns; ++j) e += hs_esdirk_e(meth, j) * k->Ud[j][i];
        e *= h;
        wgt = HS_D(m, atol_U) + rt * (ua > ub ? ua : ub);
        sum += (e / wgt) * (e / wgt);
        ++n;
    }
    return n > 0 ? sqrt(sum / (double)n) : 0.0;
}

/* The predictor of a stage at ti after the first implicit one: the cubic Hermite polynomial
 * through the values and rates at the step's start a and at the last stage b, at ti (mostly
 * inside: the stages' times are not monotone), for the positions and the pressures and
 * friction states (nx). */
HS_HD static inline void hs_esdirk_predict(const hs_mview *m, const hs_state *a, const hs_state *b, double ti,
                                           double *xp)
{
    double hb = b->t - a->t, th = (ti - a->t) / hb, th2 = th * th, th3 = th2 * th;
    double h00 = 2.0 * th3 - 3.0 * th2 + 1.0, h10 = (th3 - 2.0 * th2 + th) * hb, h01 = -2.0 * th3 + 3.0 * th2,
           h11 = (th3 - th2) * hb;
    int i, n = HS_N(m, nz), nv = HS_N(m, nvol);
    HS_UNROLL
    for (i = 0; i < n; ++i) xp[i] = h00 * a->z[i] + h10 * a->zd[i] + h01 * b->z[i] + h11 * b->zd[i];
    HS_UNROLL
    for (i = 0; i < nv; ++i) xp[n + i] = h00 * a->p[i] + h10 * a->pd[i] + h01 * b->p[i] + h11 * b->pd[i];
    HS_UNROLL
    for (i = 0; i < HS_N(m, nfs); ++i)
        xp[n + nv + i] = h00 * a->fs[i] + h10 * a->fsd[i] + h01 * b->fs[i] + h11 * b->fsd[i];
}

/* One attempt of an ESDIRK step (integrator.method) over the span in w (hs_step_span_adaptive)
 * from s0 into s, stage by stage (see above). Each stage's Newton iteration starts from the
 * Taylor predictor of the step's start to the stage's time (hs_step_prologue, with the rate
 * history); with modified Newton a stage that fails is taken again with full Newton, as
 * hs_step_solve does. The spools' linear equation is solved per stage in closed form:
 * U_i = (U_n + h sum a_ij Ud_j + (gamma h / tau) U_ref(t_i)) / (1 + gamma h / tau). The works
 * W_ext and W_cyl integrate the stages' powers with the weights b. An algebraic pressure's rate
 * is its backward difference from the step's start, as a trapezoidal step makes it. On success
 * (returns 1) s is the last stage's state, counted as one step of the sum of the stages'
 * iterations, *err the embedded estimate's norm (hs_esdirk_error), and w describes s with its
 * span restored (t0, t1, h of the whole step); on failure (returns 0) s carries the failing
 * stage's status. */
HS_HD HS_NOINLINE static inline int hs_esdirk_attempt(const hs_mview *m, const hs_state *s0, hs_state *s,
                                                      const hs_ctrl *c, hs_work *w, double *err)
{
    int meth = hs_method(m), ns = hs_esdirk_stages(meth), st, i, nv = HS_N(m, nvol), n = HS_N(m, nz);
    int reuse = hs_newton_reuse(m);
    double h = w->h, t0 = w->t0, t1 = w->t1, g = hs_esdirk_gamma(meth), gh = g * h, hp = 2.0 * gh;
    hs_esdirk_k k;
    hs_esdirk_take(m, s0, 0, &k);
    *s = *s0;
    w->it_step = 0;
    for (st = 1; st < ns; ++st) {
        double ti = st == ns - 1 ? t1 : t0 + hs_esdirk_c(meth, st) * h, lam[HS_CAP_CON], xp[HS_CAP_X], sum;
        int r, e;
        HS_UNROLL
        for (e = 0; e < HS_N(m, ncon); ++e) lam[e] = s->lambda[e]; /* the last stage's */
        if (st > 1) hs_esdirk_predict(m, s0, s, ti, xp);
        /* the start state of the stage's trapezoidal form */
        HS_UNROLL
        for (i = 0; i < n; ++i) {
            double zk, vk;
            HS_ESDIRK_SUM(meth, st, k.zd, i, sum);
            zk = s0->z[i] + h * sum;
            HS_ESDIRK_SUM(meth, st, k.zdd, i, sum);
            vk = s0->zd[i] + h * sum;
            s->z[i] = zk;
            s->zd[i] = 0.0;
            s->zdd[i] = vk / gh;
        }
        HS_UNROLL
        for (i = 0; i < nv + HS_N(m, nfs); ++i) {
            HS_ESDIRK_SUM(meth, st, k.xd, i, sum);
            if (i < nv) {
                s->p[i] = s0->p[i] + h * sum;
                s->pd[i] = 0.0;
            } else {
                s->fs[i - nv] = s0->fs[i - nv] + h * sum;
                s->fsd[i - nv] = 0.0;
            }
        }
        /* the predictor: the trapezoidal prologue from s0 over c_i h (spools overwritten) */
        w->t0 = t0;
        w->t1 = ti;
        w->tg = t1; /* only the last stage ends the step (hs_step_finish counts it) */
        w->h = ti - t0;
        for (r = 0; r < 2; ++r) { /* r = 1: the full-Newton retry of a failed modified one */
            int spent = r ? s->iters : 0, res;
            hs_step_prologue(m, s0, w, &c->hist);
            if (st > 1) {
                HS_UNROLL
                for (i = 0; i < HS_N(m, nx); ++i) w->x[i] = xp[i];
            }
            HS_UNROLL
            for (e = 0; e < HS_N(m, ncon); ++e) w->lam[e] = lam[e];
            HS_UNROLL
            for (i = 0; i < HS_N(m, ndcv); ++i) {
                double a = gh / HS_D(m, dcv_tau)[i], uref;
                HS_ESDIRK_SUM(meth, st, k.Ud, i, sum);
                uref = HS_I(m, dcv_sig, i) >= 0 ? hs_signal_eval_side(m, HS_I(m, dcv_sig, i), ti, -1) : 0.0;
                w->U1[i] = (s0->U[i] + h * sum + a * uref) / (1.0 + a);
            }
            w->h = hp;
            hs_penalty_adaptive(m, w, hp);
            if (r) {
                s->status = 0;
                w->tan_ok = 0;
            }
            res = hs_newton_solve(m, s, w, reuse && !r, spent);
            if (res == 1) break;
            if (!(reuse && !r)) { /* failed: the caller retries a smaller step */
                s->iters += w->it_step;
                w->t0 = t0;
                w->t1 = t1;
                w->h = h;
                return 0;
            }
            w->h = ti - t0; /* the predictor's span again */
        }
        {
            double tw = s->W_ext;
            if (hs_step_finish(m, s, w)) {
                s->iters += w->it_step;
                w->t0 = t0;
                w->t1 = t1;
                w->h = h;
                return 0;
            }
            s->W_ext = tw;
        }
        HS_UNROLL
        for (i = 0; i < nv; ++i) /* an algebraic pressure's rate: its backward difference */
            if (HS_I(m, vol_model, i) == HS_VOL_SP) s->pd[i] = (s->p[i] - s0->p[i]) / (ti - t0);
        hs_esdirk_take(m, s, st, &k);
    }
    *err = hs_esdirk_error(m, s0, s, &k, h);
    { /* the works: sum_j b_j P_j */
        int cc;
        double sum;
        HS_UNROLL
        for (cc = 0; cc <= HS_N(m, ncyl) + HS_MOT_ON + HS_NPW * HS_AUDIT_ON; ++cc) {
            int j;
            sum = 0.0;
            for (j = 0; j < ns; ++j) sum += hs_esdirk_b(meth, j) * k.P[j][cc];
            if (cc < HS_N(m, ncyl)) s->W_cyl[cc] = s0->W_cyl[cc] + h * sum;
            else if (cc == HS_N(m, ncyl)) s->W_ext = s0->W_ext + h * sum;
#if HS_MOT_ON
            else if (cc == HS_N(m, ncyl) + 1) s->W_mot = s0->W_mot + h * sum;
#endif
#if HS_AUDIT_ON
            else {
                int q = cc - HS_N(m, ncyl) - 1 - HS_MOT_ON;
                s->W_hyd[q] = s0->W_hyd[q] + h * sum;
            }
#endif
        }
    }
    w->t0 = t0;
    w->t1 = t1;
    w->tg = t1;
    w->h = h;
    return 1;
}
#undef HS_ESDIRK_SUM

#endif
