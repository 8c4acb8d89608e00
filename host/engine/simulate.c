/* simulate.c -- single-instance driver and CSV writer. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/simulate.h"
#include "hs/sweep.h"
#include "hs_batch.h"
#include "model/model_names.h"
#include "model/params.h"


const char *hs_status_string(int status)
{
    if (status == 0) return "ok";
    if (status & HS_ST_GEOMETRY) return "initial loop closure has no solution near z0";
    if (status & HS_ST_NONFINITE) return "NaN or Inf in the state or residual";
    if (status & HS_ST_SINGULAR) return "singular Newton or projection matrix";
    if ((status & HS_ST_MAXITER) && (status & HS_ST_SINGULAR_CONFIG))
        return "Newton iteration limit reached at a singular position of the closed loops (the "
               "cut-joint Jacobian lost rank: e.g. a parallelogram folding flat; add an end stop "
               "or keep the motion away from it)";
    if (status & HS_ST_MAXITER) return "Newton iteration limit reached (step not accepted)";
    if (status & HS_ST_CONSTRAINT) return "constraint violation blew up";
    if (status & HS_ST_STROKE) return "a cylinder left its stroke (chamber length <= 0)";
    if (status & HS_ST_EQUILIBRIUM)
        return "the cylinders cannot hold the initial configuration statically";
    if (status & HS_ST_STEPSIZE)
        return "adaptive steps: the error tolerance could not be met at the smallest step "
               "(integrator.h_min): loosen rtol/atol or lower h_min";
    {
        /* any other bit: its description in the one table (kernels/hs_status.h) */
#define HS_ST_PAIR_(N, v, name, warn, desc) {(v), (desc)},
        static const struct {
            int v;
            const char *desc;
        } bits[] = {HS_STATUS_BITS(HS_ST_PAIR_)};
#undef HS_ST_PAIR_
        size_t k;
        for (k = 0; k < sizeof bits / sizeof bits[0]; ++k)
            if (status & bits[k].v) return bits[k].desc;
    }
    return "unknown failure";
}

double hs_penalty_ratio(const hs_model *m)
{
    hs_work *w;
    double dmax = 0.0;
    int i;
    if (m->ncon == 0) return 0.0;
    w = (hs_work *)calloc(1, sizeof *w);
    if (!w) return 0.0;
    hs_kin_positions(m, m->joint_z0, &w->kin);
    hs_kin_velocities(m, m->joint_zd0, &w->kin);
    {
        hs_dyn_work dyn;
        double M[HS_MAX_Z * HS_MAX_Z], Q[HS_MAX_Z];
        hs_mass_force(m, &w->kin, 0.0, M, HS_MAX_Z, Q, &dyn);
        for (i = 0; i < m->nz; ++i)
            if (M[i * HS_MAX_Z + i] > dmax) dmax = M[i * HS_MAX_Z + i];
    }
    free(w);
    return dmax > 0.0 ? 0.25 * m->penalty * m->dt * m->dt / dmax : 0.0;
}

/* the lowest pressure so far, and when one first fell below p_vapour */
static void note_pressures(const hs_model *m, const hs_state *s, hs_sim_summary *sum)
{
    int v;
    for (v = 0; v < m->nvol; ++v) {
        if (s->p[v] < sum->p_min) {
            sum->p_min = s->p[v];
            sum->p_min_vol = v;
        }
        if (s->p[v] < m->p_vapour && !(sum->warn & HS_ST_CAVITATION)) {
            sum->warn |= HS_ST_CAVITATION;
            sum->t_cavitation = s->t;
        }
    }
}

/* The energy table's powers at sample s (w->hyd: the hydraulics at s), integrated from the
 * last sample by the trapezoidal rule (first: the start, nothing to integrate). */
static void element_energy(const hs_model *m, const hs_state *s, const hs_work *w, hs_sim_summary *sum, int first)
{
    double P[HS_NPW], Pel[(HS_MAX_THR + HS_MAX_DCV + HS_MAX_CMP + 2) * HS_NPW];
    int k;
    if (!hs_model_has_hydraulics(m)) return;
    sum->nel = m->nthr + m->ndcv + m->ncmp + 2;
    hs_hydraulic_power(m, s->p, s->fs, s->U, &w->hyd, P, Pel);
    for (k = 0; k < sum->nel * HS_NPW; ++k) {
        if (!first) sum->E_el[k] += 0.5 * (s->t - sum->t_el) * (sum->P_el[k] + Pel[k]);
        sum->P_el[k] = Pel[k];
    }
    sum->t_el = s->t;
}

/* One output sample (the state s and its observables o): the summary's maxima, then fn. */
static int sim_sample(const hs_model *m, const hs_state *s, const hs_obs *o, double E0, hs_step_fn fn, void *ctx,
                      hs_sim_summary *sum)
{
    double Eb = o->Ekin + o->Epot - s->W_ext - o->W_cyl - E0;
    double dev = fabs(s->W_hyd[HS_PW_IN] - s->W_hyd[HS_PW_LOSS] - s->W_hyd[HS_PW_STORE] - o->W_cyl);
    int i;
    for (i = 0; i < m->ncyl; ++i)
        if (fabs(s->W_cyl[i]) > sum->max_abs_Wcyl) sum->max_abs_Wcyl = fabs(s->W_cyl[i]);
    if (fabs(Eb) > sum->max_abs_Ebal) sum->max_abs_Ebal = fabs(Eb);
    for (i = 0; i < HS_NPW; ++i) sum->W_hyd[i] = s->W_hyd[i];
    if (dev > sum->max_abs_audit) sum->max_abs_audit = dev;
    if (o->phi_norm > sum->max_phi) sum->max_phi = o->phi_norm;
    if (o->phid_norm > sum->max_phid) sum->max_phid = o->phid_norm;
    return fn && fn(ctx, m, s, o, Eb);
}

int hs_simulate(const hs_model *m, hs_step_fn fn, void *ctx, hs_sim_summary *sum)
{
    hs_state *s = (hs_state *)calloc(3, sizeof *s);
    hs_work *w = (hs_work *)calloc(1, sizeof *w);
    hs_obs o;
    double E0 = 0.0;
    long n, k;
    int st = 0, stop = 0;
    memset(sum, 0, sizeof *sum);
    if (!s || !w) {
        free(s);
        free(w);
        sum->status = HS_ST_NONFINITE;
        return sum->status;
    }
    n = hs_nsteps(m);
    sum->steps_planned = n;
    sum->p_min = HUGE_VAL;
    sum->p_min_vol = -1;
    st = hs_init(m, s, w);
    sum->ds_dep0 = s->ds_dep;
    s->warn |= hs_model_plausible(m);
    if (!st) {
        note_pressures(m, s, sum);
        hs_observe_current(m, s, w, &o);
        E0 = o.Ekin + o.Epot - s->W_ext - o.W_cyl;
        element_energy(m, s, w, sum, 1);
        sum->max_phi = o.phi_norm;
        sum->max_phid = o.phid_norm;
        if (fn && fn(ctx, m, s, &o, 0.0)) n = 0;
    }
    if (m->step == HS_STEP_ADAPTIVE) {
        /* steps of their own; the rows on the grid k dt (t_end last), each the dense output
         * of the step that covers it (hs_dense_state), carrying its grid index as step */
        hs_state *s0 = s + 1, *si = s + 2;
        hs_ctrl c;
        long kg = 1;
        hs_ctrl_start(m, &c);
        while (!st && !stop && kg <= n) {
            if ((st = hs_step_adaptive(m, s, &c, w, s0))) break;
            note_pressures(m, s, sum);
            for (; kg <= n && !stop; ++kg) {
                double tg = kg == n ? m->t_end : (double)kg * m->dt;
                if (tg > s->t) break;
                hs_dense_state(m, s0, s, tg, si);
                si->step = kg;
                hs_observe(m, si, w, &o);
                element_energy(m, si, w, sum, 0);
                stop = sim_sample(m, si, &o, E0, fn, ctx, sum);
            }
        }
        sum->grid_done = kg - 1;
        sum->rejected = c.rejected;
    } else {
        for (k = 0; k < n && !st; ++k) {
            st = hs_step(m, s, w);
            if (st) break;
            note_pressures(m, s, sum);
            hs_observe_current(m, s, w, &o);
            element_energy(m, s, w, sum, 0);
            if (sim_sample(m, s, &o, E0, fn, ctx, sum)) break;
        }
        sum->grid_done = s->step;
    }
    sum->steps = s->step;
    sum->adaptive = m->step == HS_STEP_ADAPTIVE;
    sum->t_final = s->t;
    sum->max_iters = s->iters_max;
    sum->mean_iters = s->step > 0 ? (double)s->iters_total / (double)s->step : 0.0;
    sum->status = st;
    sum->warn = s->warn;
    sum->ds_dep = s->ds_dep;
    sum->ds_repart = s->ds_repart;
    free(s);
    free(w);
    return st;
}

typedef struct csv_ctx {
    FILE *f;
    long every;
    long nplanned;
    int err; /* errno of the first failed write */
} csv_ctx;

/* 1 (and c->err) once a write to the CSV has failed. */
static int csv_failed(csv_ctx *c)
{
    if (!c->err && ferror(c->f)) c->err = errno ? errno : EIO;
    return c->err != 0;
}

static int csv_row(void *vctx, const hs_model *m, const hs_state *s, const hs_obs *o, double Eb)
{
    csv_ctx *c = (csv_ctx *)vctx;
    int j;
    if (s->step % c->every != 0 && s->step != c->nplanned) return 0;
    errno = 0; /* a write failing in this row sets it (csv_failed) */
    fprintf(c->f, "%.12g", s->t);
    for (j = 0; j < m->nz; ++j) fprintf(c->f, ",%.15g,%.15g", s->z[j], s->zd[j]);
    for (j = 0; j < m->nvol; ++j) fprintf(c->f, ",%.12g", s->p[j]);
    for (j = 0; j < m->ndcv; ++j) fprintf(c->f, ",%.12g", s->U[j]);
    for (j = 0; j < m->ncyl; ++j)
        fprintf(c->f, ",%.15g,%.12g,%.12g,%.12g,%.12g", o->s[j], o->sd[j], o->F[j], o->Ffric[j],
                s->W_cyl[j]);
    fprintf(c->f, ",%.15g,%.15g,%.15g,%.15g", o->Ekin, o->Epot, s->W_ext, Eb);
    if (hs_model_has_hydraulics(m)) /* the energy audit (hs_energy.h) */
        fprintf(c->f, ",%.15g,%.15g,%.15g", s->W_hyd[HS_PW_IN], s->W_hyd[HS_PW_LOSS], s->W_hyd[HS_PW_STORE]);
    fprintf(c->f, ",%.6e,%d", o->phi_norm, s->step ? s->iters : 0);
    if (m->coupling == HS_COUPLE_COSIM) { /* the residuals, in hs_output_at's order */
        double e = 0.0;
        for (j = 0; j < m->ncyl; ++j) {
            fprintf(c->f, ",%.12g,%.12g", o->P_res[j], o->E_res[j]);
            e += o->E_res[j];
        }
        fprintf(c->f, ",%.12g", e);
    }
    { /* the elements' flows and losses (hs_energy.h), in hs_output_at's order */
        const hs_mview *mv = m; /* the ordinary build: hs_mview is hs_model */
        for (j = 0; j < m->nthr; ++j)
            fprintf(c->f, ",%.12g,%.12g", hs_element_signal(mv, s, 0, j), hs_element_signal(mv, s, 1, j));
        for (j = 0; j < m->ndcv; ++j)
            fprintf(c->f, ",%.12g,%.12g,%.12g", hs_element_signal(mv, s, 2, j), hs_element_signal(mv, s, 3, j),
                    hs_element_signal(mv, s, 4, j));
        for (j = 0; j < m->ncmp; ++j)
            if (m->cmp_type[j] != HS_CMP_ACCUMULATOR)
                fprintf(c->f, ",%.12g,%.12g", hs_element_signal(mv, s, 5, j), hs_element_signal(mv, s, 6, j));
    }
    fprintf(c->f, "\n");
    return csv_failed(c); /* a failed write stops the run: the CSV could not hold it */
}

int hs_simulate_csv(const hs_model_desc *d, FILE *out, long every, hs_sim_summary *sum)
{
    const hs_model *m = &d->model;
    csv_ctx c;
    int j, st;
    fprintf(out, "t");
    for (j = 0; j < hs_output_count(d); ++j) { /* the columns of the signals (hs_output_at) */
        char name[HS_NAME_LEN + 16];
        hs_output_name(d, hs_output_at(d, j), name, sizeof name);
        fprintf(out, ",%s", name);
    }
    fprintf(out, "\n");
    c.f = out;
    c.every = every;
    c.nplanned = hs_nsteps(m);
    c.err = 0;
    errno = 0;
    if (csv_failed(&c)) {
        memset(sum, 0, sizeof *sum);
        sum->write_errno = c.err;
        return 0;
    }
    st = hs_simulate(m, csv_row, &c, sum);
    errno = 0;
    if (fflush(out) != 0 && !c.err) c.err = errno ? errno : EIO;
    csv_failed(&c);
    sum->write_errno = c.err;
    return st;
}

void hs_independent_names(const hs_model_desc *d, unsigned int dep, char *buf, size_t n)
{
    size_t k = 0;
    int i;
    buf[0] = '\0';
    for (i = 0; i < d->model.nz && k < n; ++i)
        if (!((dep >> i) & 1u)) {
            int w = snprintf(buf + k, n - k, "%s%s", k ? ", " : "", d->joint_name[i]);
            if (w < 0) break;
            k += (size_t)w;
        }
}

/* The energy table: each element's energy in, lost and stored, J, and their sum beside the
 * audit's (they differ by the quadrature: samples against steps; equal with fixed steps). */
static void print_energy_table(FILE *f, const hs_model_desc *d, const hs_sim_summary *s)
{
    const hs_model *m = &d->model;
    double tot[HS_NPW] = {0.0, 0.0, 0.0};
    int e, c;
    if (s->nel <= 0) return;
    fprintf(f, "energy by element (J, 0 to t = %g s; in: from a source through it, less what it returns to one, and a pump's shaft)\n",
            s->t_el);
    fprintf(f, "  %-34s %14s %14s %14s\n", "element", "in", "lost", "stored");
    for (e = 0; e < s->nel; ++e) {
        const double *E = s->E_el + e * HS_NPW;
        char name[HS_NAME_LEN + 32];
        if (e < m->nthr) snprintf(name, sizeof name, "%s (throttle)", d->thr_name[e]);
        else if (e < m->nthr + m->ndcv) snprintf(name, sizeof name, "%s (valve)", d->dcv_name[e - m->nthr]);
        else if (e < m->nthr + m->ndcv + m->ncmp) {
            int k = e - m->nthr - m->ndcv;
            if (m->cmp_type[k] == HS_CMP_ACCUMULATOR) continue; /* its gas: the volumes' row */
            snprintf(name, sizeof name, "%s (%s)", d->cmp_name[k], hs_cmp_type_names[m->cmp_type[k]]);
        } else
            snprintf(name, sizeof name, "%s", e == s->nel - 2 ? "seals and end stops" : "volumes (oil, gas)");
        fprintf(f, "  %-34s %14.6g %14.6g %14.6g\n", name, E[HS_PW_IN], E[HS_PW_LOSS], E[HS_PW_STORE]);
        for (c = 0; c < HS_NPW; ++c) tot[c] += E[c];
    }
    fprintf(f, "  %-34s %14.6g %14.6g %14.6g\n", "sum", tot[HS_PW_IN], tot[HS_PW_LOSS], tot[HS_PW_STORE]);
    fprintf(f, "  %-34s %14.6g %14.6g %14.6g\n", "energy audit", s->W_hyd[HS_PW_IN], s->W_hyd[HS_PW_LOSS],
            s->W_hyd[HS_PW_STORE]);
}

void hs_sim_summary_print(FILE *f, const hs_model_desc *d, const hs_sim_summary *s)
{
    fprintf(f, "model            %s\n", d->name);
    if (s->adaptive) {
        fprintf(f, "steps            %ld accepted, %ld rejected (adaptive, rtol = %g; t = %g s)\n", s->steps,
                s->rejected, d->model.rtol, s->t_final);
        fprintf(f, "output grid      %ld of %ld (dt = %g s)\n", s->grid_done, s->steps_planned, d->model.dt);
    } else {
        fprintf(f, "steps            %ld of %ld (dt = %g s, t = %g s)\n", s->steps, s->steps_planned,
                d->model.dt, s->t_final);
    }
    fprintf(f, "newton iters     mean %.3f, max %d\n", s->mean_iters, s->max_iters);
    if (d->model.formulation == HS_FORM_DOUBLE_STEP && d->model.ncon > 0) {
        char a[256], b[256];
        hs_independent_names(d, s->ds_dep0, a, sizeof a);
        hs_independent_names(d, s->ds_dep, b, sizeof b);
        if (s->ds_repart == 0)
            fprintf(f, "independent      %s (double-step: full-pivot elimination on Phi_z at t = 0, kept)\n", a);
        else
            fprintf(f, "independent      %s at t = 0, %s at the end (double-step: %d re-partitions)\n", a, b,
                    s->ds_repart);
    }
    fprintf(f, "max |E_balance|  %.3e J\n", s->max_abs_Ebal);
    if (d->model.ncyl > 0) fprintf(f, "max |W_cyl|      %.3e J\n", s->max_abs_Wcyl);
    if (hs_model_has_hydraulics(&d->model))
        fprintf(f,
                "energy audit     in %.6g J, lost %.6g J, stored in the fluid %.6g J (at t_end); max |in - "
                "lost - stored - actuators' work| %.3e J\n",
                s->W_hyd[HS_PW_IN], s->W_hyd[HS_PW_LOSS], s->W_hyd[HS_PW_STORE], s->max_abs_audit);
    fprintf(f, "max phi_norm     %.3e\n", s->max_phi);
    fprintf(f, "wall time        %.3f s\n", s->wall_s);
    print_energy_table(f, d, s);
    if (s->warn & HS_ST_CAVITATION)
        fprintf(f,
                "WARNING          cavitation: p_%s fell below fluid.p_vapour = %g Pa (first at t = %g s; "
                "lowest %.4g Pa): the lumped-fluid model does not hold there\n",
                s->p_min_vol >= 0 ? d->vol_name[s->p_min_vol] : "?", d->model.p_vapour, s->t_cavitation,
                s->p_min);
    if (s->warn & HS_ST_IMPLAUSIBLE) {
        char what[512];
        hs_model_implausible(d, what, sizeof what);
        fprintf(f, "WARNING          implausible values: %s\n", what);
    }
    if (s->status)
        fprintf(f, "FAILED at t = %g s: %s\n", s->adaptive ? s->t_final : s->t_final + d->model.dt,
                hs_status_string(s->status));
}

int hs_model_implausible(const hs_model_desc *d, char *buf, size_t n)
{
    static const char *const fmt[HS_PL_NRULE] = {"fluid.B_oil",        "fluid.rho",   "volume.%s.B", "volume.%s.p0",
                                                 "cylinder.%s.B_wall", "source.%s.p", "fluid.air_fraction",
                                                 "component.%s.%s"};
    static const char *const unit[HS_PL_NRULE] = {"Pa", "kg/m^3", "Pa", "Pa", "Pa", "Pa", "", ""};
    const hs_model *m = &d->model;
    size_t o = 0;
    int k = 0, r, j;
    if (n) buf[0] = '\0';
    if (!hs_model_plausible(m)) return 0;
    for (r = 0; r < HS_PL_NRULE; ++r)
        for (j = 0; j < hs_plaus_count(m, r); ++j) {
            double lo, hi, v = hs_plaus_value(m, r, j, &lo, &hi);
            char key[HS_NAME_LEN + 32];
            const char *name = r == HS_PL_VOL_B || r == HS_PL_VOL_P0 ? d->vol_name[j]
                               : r == HS_PL_CYL_B                    ? d->cyl_name[j]
                               : r == HS_PL_SRC_P                    ? d->src_name[j]
                               : r == HS_PL_CMP                      ? d->cmp_name[j / HS_CMP_NPAR]
                                                                     : "";
            const char *u = unit[r];
            if (v >= lo && v <= hi) continue;
            if (k++ >= 4) continue; /* counted, not listed */
            if (r == HS_PL_CMP) { /* its key and unit from the parameter table */
                int q;
                for (q = 0; q < hs_ncmp_params; ++q)
                    if (hs_cmp_params[q].type == m->cmp_type[j / HS_CMP_NPAR] && hs_cmp_params[q].slot == j % HS_CMP_NPAR)
                        break;
                snprintf(key, sizeof key, fmt[r], name, q < hs_ncmp_params ? hs_cmp_params[q].key : "?");
                u = q < hs_ncmp_params ? hs_cmp_params[q].unit : "";
            } else {
                snprintf(key, sizeof key, fmt[r], name);
            }
            if (o < n && (lo > -1e300 && r != HS_PL_CMP))
                o += (size_t)snprintf(buf + o, n - o, "%s%s = %g %s outside [%g, %g] %s",
                                      k > 1 ? "; " : "", key, v, u, lo, hi, u);
            else if (o < n)
                o += (size_t)snprintf(buf + o, n - o, "%s%s = %g %s %s %g %s", k > 1 ? "; " : "", key, v, u,
                                      r == HS_PL_CMP ? "beyond +-" : "above", hi, u);
        }
    if (k > 4 && o < n) snprintf(buf + o, n - o, "; and %d more", k - 4);
    return k;
}

/* Node k's name: a volume's or a source's. */
static const char *node_label(const hs_model_desc *d, int k)
{
    return k < d->model.nvol ? d->vol_name[k] : d->src_name[k - d->model.nvol];
}

int hs_model_load_not_held(const hs_model_desc *d, char *buf, size_t n)
{
    const hs_model *m = &d->model;
    hs_state *s;
    hs_work *w;
    size_t o = 0;
    int i, k = 0;
    if (n) buf[0] = '\0';
    for (i = 0; i < m->ncmp && m->cmp_type[i] != HS_CMP_COUNTERBALANCE; ++i) {
    }
    if (i == m->ncmp) return 0;
    s = (hs_state *)calloc(1, sizeof *s);
    w = (hs_work *)calloc(1, sizeof *w);
    if (s && w && hs_init(m, s, w) == 0)
        for (i = 0; i < m->ncmp; ++i) {
            const double *par = m->cmp_par[i];
            double pl, pv, pd;
            if (m->cmp_type[i] != HS_CMP_COUNTERBALANCE) continue;
            pl = hs_node_p(m, s->p, m->cmp_a[i]);
            pv = hs_node_p(m, s->p, m->cmp_b[i]);
            pd = par[HS_CP_CB_VENT] != 0.0 ? HS_P_ATM : pv; /* the pilot not acting */
            if (!(hs_cbv_opening(par, pl, pv, pd) > 0.0)) continue;
            ++k;
            if (o < n)
                o += (size_t)snprintf(buf + o, n - o,
                                      "%scomponent %s: its setting p_set = %.4g bar is below the load's pressure "
                                      "at rest at its port '%s', %.4g bar above the spring chamber's: it opens "
                                      "unpiloted and lets the load down (catalogues set it about 1.3 times the "
                                      "highest load pressure)",
                                      k > 1 ? "; " : "", d->cmp_name[i], par[HS_CP_CB_PSET] / 1e5,
                                      node_label(d, m->cmp_a[i]), (pl - pd) / 1e5);
        }
    free(s);
    free(w);
    return k;
}
