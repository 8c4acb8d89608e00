/* hs_batch.h -- one instance of an ensemble, from its parameter overrides to its recorded
 * outputs. Shared by the CPU batch backend (OpenMP over instances) and the CUDA kernel (one
 * thread per instance): the instance copies the immutable model, applies its sampled values,
 * re-derives, runs the whole time loop with the integrator of hs_integrator.h and reduces
 * each recorded signal to per-instance statistics on the fly (min, max, final, mean, rms,
 * time of max), optionally keeping every k-th sample of chosen signals.
 *
 * Batch outputs are structure-of-arrays with the instance index fastest
 * (x[k * n_inst + i]) so that GPU stores coalesce. */
#ifndef HS_BATCH_H
#define HS_BATCH_H

#ifndef __CUDACC_RTC__
#include <string.h>
#endif

#include "hs_integrator.h"
#include "hs_model_derive.h"
#include "hs_rules.h"

#define HS_MAX_OUT 64 /* recorded signals */
#define HS_MAX_TRAJ 16 /* signals with trajectories */
#define HS_MAX_SWEEP 64 /* swept parameters */

/* What a recorded signal is: the same quantities as the columns of `hydrosweep simulate`. */
enum hs_sig_kind {
    HS_SIG_Z = 0, /* joint coordinate (index: joint) */
    HS_SIG_ZD, /* joint velocity */
    HS_SIG_P, /* volume pressure (index: volume) */
    HS_SIG_U, /* spool position (index: valve) */
    HS_SIG_S, /* cylinder length (index: cylinder) */
    HS_SIG_SD, /* cylinder rate */
    HS_SIG_F, /* cylinder force */
    HS_SIG_FFRIC, /* seal friction */
    HS_SIG_W, /* cylinder work */
    HS_SIG_EKIN,
    HS_SIG_EPOT,
    HS_SIG_WEXT,
    HS_SIG_EBAL, /* energy balance E_kin + E_pot - W_ext - sum W_cyl - initial */
    HS_SIG_PHI, /* constraint violation norm */
    HS_SIG_ITERS, /* Newton iterations of the step */
    HS_SIG_PRES, /* co-simulation: residual power of a cylinder's bond (index: cylinder) */
    HS_SIG_ERES, /* its accumulated residual energy sum |delta E| */
    HS_SIG_ERES_SUM, /* the sum over the bonds */
    HS_SIG_CX, /* open trees (hs_tree_batch.h): a body's centre of mass x (index: body) */
    HS_SIG_CY, /* its y */
    HS_SIG_CZ, /* its z */
    HS_SIG_FJ, /* |internal force| at a joint (index: joint) */
    HS_SIG_MJ, /* |internal moment| at a joint */
    HS_SIG_WIN, /* the hydraulic energy audit (hs_energy.h): energy taken in by the circuit */
    HS_SIG_WLOSS, /* energy dissipated by its elements, seal friction and end stops */
    HS_SIG_EFLUID, /* energy stored in the fluid since t = 0 */
    HS_SIG_QTHR, /* a throttle's flow, m^3/s (index: throttle; hs_energy.h hs_element_signal) */
    HS_SIG_PTHR, /* its dissipated power, W */
    HS_SIG_QA, /* a valve section's flow into its port A (index: valve) */
    HS_SIG_QB, /* into its port B */
    HS_SIG_PVAL, /* its dissipated power */
    HS_SIG_QCMP, /* a component's flow from -> to (index: component) */
    HS_SIG_PCMP, /* its dissipated power */
    HS_SIG_COUNT
};

typedef struct hs_signal_ref {
    int kind; /* enum hs_sig_kind */
    int index; /* joint / volume / valve / cylinder, 0 otherwise */
} hs_signal_ref;

enum hs_stat {
    HS_STAT_MIN = 0,
    HS_STAT_MAX,
    HS_STAT_FINAL,
    HS_STAT_MEAN, /* over the samples t = 0, dt, ..., t_end (fixed steps); the time average
                     over the accepted steps (adaptive steps: hs_instance_adaptive) */
    HS_STAT_RMS,
    HS_STAT_TMAX, /* time of the maximum (first one) */
    HS_NSTAT
};

/* Per-instance outputs of a run (part of the sweep definition). */
typedef struct hs_output_spec {
    int nsig; /* recorded signals */
    hs_signal_ref sig[HS_MAX_OUT]; /* (nsig) */
    unsigned int stats; /* bit HS_STAT_x: statistic x is stored (all are computed) */
    int traj_every; /* keep every k-th step of the trajectory signals; 0: none */
    int ntraj;
    hs_signal_ref traj[HS_MAX_TRAJ]; /* (ntraj) */
} hs_output_spec;

/* How the sampled values reach the model: the double (or int, for enumerations) at a byte
 * offset of hs_model. */
typedef struct hs_override_spec {
    int n; /* swept parameters */
    unsigned long offset[HS_MAX_SWEEP]; /* (n) byte offsets into hs_model */
    int is_int[HS_MAX_SWEEP]; /* (n) enumeration stored as int */
} hs_override_spec;
/* A GPU build keeps the model block and the output spec in constant memory (64 KiB; the
 * specialised engine's own tables take the rest): the HS_MAX_* sizes must leave room. */
typedef char hs_check_constant_memory[sizeof(hs_model) + sizeof(hs_output_spec) <= 56 * 1024 ? 1 : -1];

/* Number of trajectory samples: steps 0, k, 2k, ... up to nsteps (the last step always). */
HS_HD static inline long hs_traj_count(long nsteps, int every)
{
    if (every <= 0) return 0;
    return nsteps / every + 1 + (nsteps % every != 0);
}

/* A basic sanity check of physical values on the device side (the host validates models
 * fully when they are loaded; sampled values are checked here so that an instance with,
 * e.g., a negative bulk modulus drawn from a wide normal, or an rtol of 0, is flagged, not
 * run). The integrator's settings meet the same rules here as in a model file. */
HS_HD static inline int hs_model_values_ok(const hs_model *m)
{
    int i;
    /* the integrator's settings: the table every route checks (hs_rules.h) */
    if (hs_irule_broken(m) >= 0) return 0;
    if (hs_crule_broken(m) >= 0) return 0; /* and the co-simulation's */
    /* the double-step formulation solves position equations only (host/model/model_validate.c) */
    if (m->formulation != HS_FORM_PENALTY && (m->formulation != HS_FORM_DOUBLE_STEP || m->nnh > 0)) return 0;
    for (i = 0; i < m->nbody; ++i) {
        if (m->joint_ball[i] == 1 || m->joint_ball[i] == 2) continue; /* a ball joint's massless bodies */
        if (!(m->body_mass[i] > 0.0)) return 0;
        if (!(m->body_inertia[i][0] >= 0.0 && m->body_inertia[i][1] >= 0.0 &&
              m->body_inertia[i][2] >= 0.0))
            return 0;
    }
    if (m->nvol > 0 && !(m->B_oil > 0.0 && m->rho > 0.0 && m->p_vapour >= 0.0 && m->p_vapour < 1e6)) return 0;
    for (i = 0; i < m->npay; ++i) { /* a payload: its mass, and its signal continuous knots >= 0 */
        int s = m->pay_sig[i], k;
        if (!(m->pay_mass[i] > 0.0) || s < 0 || m->sig_kind[s] != HS_SIGK_KNOTS) return 0;
        for (k = 0; k < m->sig_n[s]; ++k) {
            int q = m->sig_start[s] + k;
            if (!(m->knot_v[q] >= 0.0) || (k > 0 && m->knot_t[q] == m->knot_t[q - 1] && m->knot_v[q] != m->knot_v[q - 1]))
                return 0;
        }
    }
    for (i = 0; i < m->nbody; ++i)
        if (!(m->joint_k[i] >= 0.0 && m->joint_c[i] >= 0.0)) return 0; /* a joint's spring and damper */
    if (m->nvol > 0 && !(m->air_fraction == 0.0 || (m->air_fraction > 0.0 && m->air_fraction < 1.0 && m->air_n >= 1.0 &&
                                                    m->air_n <= 1.4 && m->p_vapour < HS_P_ATM)))
        return 0; /* entrained air (kernels/hs_fluid.h) */
    for (i = 0; i < m->nvol; ++i)
        if (!(m->vol_V[i] >= 0.0 && m->vol_B[i] > 0.0 && m->vol_p0[i] >= 0.0)) return 0;
    for (i = 0; i < m->nsrc; ++i)
        if (!(m->src_p[i] >= 0.0)) return 0;
    for (i = 0; i < m->nthr; ++i)
        if (!(m->thr_Cv[i] > 0.0 && m->thr_dplim[i] > 0.0)) return 0;
    for (i = 0; i < m->ndcv; ++i)
        if (!(m->dcv_Cv[i] >= 0.0 && m->dcv_tau[i] > 0.0 && m->dcv_dplim[i] > 0.0) ||
            !(m->dcv_dpcomp[i] == 0.0 || m->dcv_dpcomp[i] > m->dcv_dplim[i]) || !(m->dcv_dpcomp[i] <= HS_CMP_NOLIMIT) ||
            (hs_dcv_sensed(m, i) && !(m->dcv_Uls[i] > 0.0 && m->dcv_Uls[i] <= HS_CMP_NOLIMIT)))
            return 0;
    for (i = 0; i < m->nsignal; ++i) { /* a signal's kind and test parameters (hs_test_input.h) */
        int k;
        if (m->sig_kind[i] < 0 || m->sig_kind[i] >= HS_SIGK_COUNT) return 0;
        if (m->sig_kind[i] == HS_SIGK_KNOTS && m->sig_n[i] < 1) return 0;
        if (hs_knots_broken(m->knot_t + m->sig_start[i], m->sig_n[i], &k) >= 0) return 0;
        for (k = 0; k < HS_TP_COUNT; ++k)
            if (hs_test_param_broken(k, m->sig_test[i][k])) return 0;
    }
    for (i = 0; i < m->ncyl; ++i) {
        const double *P = m->cyl_fp[i];
        if (!(m->cyl_d_rod[i] > 0.0 && m->cyl_d_rod[i] < m->cyl_d_piston[i])) return 0;
        if (!(m->cyl_l_p0[i] > 0.0 && m->cyl_l_p0[i] < m->cyl_stroke[i] && m->cyl_B[i] > 0.0))
            return 0;
        if (!(P[HS_FP_FC] >= 0.0 && P[HS_FP_FS] >= 0.0 && P[HS_FP_SIGMA2] >= 0.0)) return 0;
        if (m->cyl_fric[i] >= HS_FRIC_BROWN_MCPHEE && m->cyl_fric[i] <= HS_FRIC_LUGRE_MOD &&
            !(P[HS_FP_VS] > 0.0 && P[HS_FP_FC] <= P[HS_FP_FS]))
            return 0;
    }
    for (i = 0; i < m->ncmp; ++i) { /* each parameter's rule (hs_components.h) and the pairs */
        const double *par = m->cmp_par[i];
        int k;
        for (k = 0; k < HS_CMP_NPAR; ++k)
            if (hs_cmp_param_broken(m->cmp_type[i], k, par[k])) return 0;
        if (hs_cmp_pair_broken(m, i, &k) != HS_CPR_OK) return 0; /* the rules between parameters (hs_rules.h) */
    }
    return 1;
}

/* Plausibility rules: values that are legal but outside the range real hydraulic systems
 * have; an instance with one carries the warning HS_ST_IMPLAUSIBLE and runs
 * (docs/model-format.md, "Plausible ranges"). One table for the engines and the messages. */
enum hs_plaus_rule {
    HS_PL_B_OIL, /* fluid.B_oil in [1e7, 1e10] Pa */
    HS_PL_RHO, /* fluid.rho in [500, 2000] kg/m^3 */
    HS_PL_VOL_B, /* volume B in [1e6, 1e12] Pa (nvol) */
    HS_PL_VOL_P0, /* volume p0 <= 1e9 Pa (nvol) */
    HS_PL_CYL_B, /* cylinder B_wall in [1e6, 1e12] Pa (ncyl) */
    HS_PL_SRC_P, /* source p <= 1e9 Pa (nsrc) */
    HS_PL_AIR, /* fluid.air_fraction <= 0.1 (a per cent written as a fraction: 0.5 for 0.5 %) */
    HS_PL_CMP, /* component parameter slot j % HS_CMP_NPAR of j / HS_CMP_NPAR (ncmp x HS_CMP_NPAR):
                  |v| <= hs_cmp_param_plausible */
    HS_PL_NRULE
};

/* How many values rule r checks in m. */
HS_HD static inline int hs_plaus_count(const hs_model *m, int r)
{
    switch (r) {
    case HS_PL_B_OIL:
    case HS_PL_RHO:
    case HS_PL_AIR: return 1;
    case HS_PL_VOL_B:
    case HS_PL_VOL_P0: return m->nvol;
    case HS_PL_CYL_B: return m->ncyl;
    case HS_PL_CMP: return m->ncmp * HS_CMP_NPAR;
    default: return m->nsrc;
    }
}

/* Value j of rule r and its plausible range [*lo, *hi] (-1e300: no lower bound). */
HS_HD static inline double hs_plaus_value(const hs_model *m, int r, int j, double *lo, double *hi)
{
    switch (r) {
    case HS_PL_B_OIL: *lo = 1e7, *hi = 1e10; return m->B_oil;
    case HS_PL_RHO: *lo = 500.0, *hi = 2000.0; return m->rho;
    case HS_PL_VOL_B: *lo = 1e6, *hi = 1e12; return m->vol_B[j];
    case HS_PL_VOL_P0: *lo = -1e300, *hi = 1e9; return m->vol_p0[j];
    case HS_PL_CYL_B: *lo = 1e6, *hi = 1e12; return m->cyl_B[j];
    case HS_PL_AIR: *lo = 0.0, *hi = 0.1; return m->air_fraction;
    case HS_PL_CMP:
        *hi = hs_cmp_param_plausible(m->cmp_type[j / HS_CMP_NPAR], j % HS_CMP_NPAR), *lo = -*hi;
        return m->cmp_par[j / HS_CMP_NPAR][j % HS_CMP_NPAR];
    default: *lo = -1e300, *hi = 1e9; return m->src_p[j];
    }
}

/* HS_ST_IMPLAUSIBLE when a value of a model with hydraulics breaks a plausibility rule, else
 * 0. A mechanism without hydraulics keeps its (unused) fluid defaults unchecked. */
HS_HD static inline int hs_model_plausible(const hs_model *m)
{
    int r, j;
    double lo, hi, v;
    if (m->nvol + m->nsrc + m->ncyl + m->ncmp == 0) return 0;
    for (r = 0; r < HS_PL_NRULE; ++r)
        for (j = 0; j < hs_plaus_count(m, r); ++j) {
            v = hs_plaus_value(m, r, j, &lo, &hi);
            if (!(v >= lo && v <= hi)) return HS_ST_IMPLAUSIBLE;
        }
    return 0;
}

/* Applies the n overrides v to m in place and re-derives it. Returns 0 if a value broke a
 * physical rule. Every derived member is a function of the primary ones, so a model that
 * only overrides of the same members ever touch gives the same result whatever was applied
 * to it before (host/engine/kernel_spec.c relies on that). */
HS_HD static inline int hs_model_override(hs_model *m, const hs_override_spec *ov, const double *v)
{
    int j;
    for (j = 0; j < ov->n; ++j) {
        char *p = (char *)m + ov->offset[j];
        if (ov->is_int[j]) {
            int iv;
            /* NaN or out of int's range: the cast is undefined (x86 and CUDA disagree) */
            if (!(v[j] >= -2147483648.0 && v[j] <= 2147483647.0)) return 0;
            iv = (int)v[j];
            memcpy(p, &iv, sizeof iv);
        } else {
            memcpy(p, &v[j], sizeof v[j]);
        }
    }
    hs_model_derive(m);
    /* a swept axis: the general rotation and velocity recursion whatever the drawn value, as
     * in a specialised build (host/engine/kernel_spec.c), so that both give the same bits */
    for (j = 0; j < ov->n; ++j) {
        unsigned long a = (unsigned long)((char *)m->joint_axis - (char *)m);
        if (ov->offset[j] >= a && ov->offset[j] < a + sizeof m->joint_axis) {
            int k;
            for (k = 0; k < m->nbody; ++k) m->joint_axis_kind[k] = m->joint_planar[k] = 0;
        }
    }
    return hs_model_values_ok(m) && m->nx <= HS_MAX_X;
}

/* The local model of an instance: base with the n overrides v applied, re-derived. Returns 0
 * if a value broke a physical rule. */
HS_HD static inline int hs_instance_model(const hs_model *base, const hs_override_spec *ov,
                                          const double *v, hs_model *m)
{
    *m = *base;
    return hs_model_override(m, ov, v);
}

/* Value of a signal at the state s with observables o (E_balance needs the initial energy
 * E0 = E_kin + E_pot - W_ext - W_cyl at t = 0). */
HS_HD static inline double hs_signal_value(const hs_mview *m, const hs_state *s, const hs_obs *o,
                                           double E0, hs_signal_ref r)
{
    (void)m;
    switch (r.kind) {
    case HS_SIG_Z: return s->z[r.index];
    case HS_SIG_ZD: return s->zd[r.index];
    case HS_SIG_P: return s->p[r.index];
    case HS_SIG_U: return s->U[r.index];
    case HS_SIG_S: return o->s[r.index];
    case HS_SIG_SD: return o->sd[r.index];
    case HS_SIG_F: return o->F[r.index];
    case HS_SIG_FFRIC: return o->Ffric[r.index];
    case HS_SIG_W: return s->W_cyl[r.index];
    case HS_SIG_EKIN: return o->Ekin;
    case HS_SIG_EPOT: return o->Epot;
    case HS_SIG_WEXT: return s->W_ext;
    case HS_SIG_EBAL: return o->Ekin + o->Epot - s->W_ext - o->W_cyl - E0;
    case HS_SIG_PHI: return o->phi_norm;
    case HS_SIG_ITERS: return s->step ? (double)s->iters : 0.0;
#if HS_AUDIT_ON
    case HS_SIG_WIN: return s->W_hyd[HS_PW_IN];
    case HS_SIG_WLOSS: return s->W_hyd[HS_PW_LOSS];
    case HS_SIG_EFLUID: return s->W_hyd[HS_PW_STORE];
#endif
#if HS_FLOWS_ON
    case HS_SIG_QTHR:
    case HS_SIG_PTHR:
    case HS_SIG_QA:
    case HS_SIG_QB:
    case HS_SIG_PVAL:
    case HS_SIG_QCMP:
    case HS_SIG_PCMP: return hs_element_signal(m, s, r.kind - HS_SIG_QTHR, r.index);
#endif
#if HS_COSIM_ON
    case HS_SIG_PRES: return o->P_res[r.index];
    case HS_SIG_ERES: return o->E_res[r.index];
    case HS_SIG_ERES_SUM: {
        double e = 0.0;
        int c;
        for (c = 0; c < HS_N(m, ncyl); ++c) e += o->E_res[c];
        return e;
    }
#endif
    default: return 0.0;
    }
}

/* Is the signal a component of the state (hs_signal_value reads s only, not the observables):
 * its value at a grid point inside an adaptive step is the dense output's, with no kinematics
 * or hydraulics evaluated. */
HS_HD static inline int hs_signal_is_state(hs_signal_ref r)
{
    return r.kind == HS_SIG_Z || r.kind == HS_SIG_ZD || r.kind == HS_SIG_P || r.kind == HS_SIG_U ||
           r.kind == HS_SIG_W || r.kind == HS_SIG_WEXT || r.kind == HS_SIG_WIN || r.kind == HS_SIG_WLOSS ||
           r.kind == HS_SIG_EFLUID;
}

/* A state signal (hs_signal_is_state) at Hermite basis hb of the step from a to b: the number
 * hs_dense_state gives that component, computed alone. */
HS_HD static inline double hs_signal_dense(const hs_mview *m, const hs_state *a, const hs_state *b,
                                           const hs_hermite *hb, hs_signal_ref r)
{
    int k = r.index;
    switch (r.kind) {
    case HS_SIG_Z: return HS_HERMITE_EVAL(*hb, a->z[k], a->zd[k], b->z[k], b->zd[k]);
    case HS_SIG_ZD: return HS_HERMITE_EVAL(*hb, a->zd[k], a->zdd[k], b->zd[k], b->zdd[k]);
    case HS_SIG_P: return HS_HERMITE_EVAL(*hb, a->p[k], a->pd[k], b->p[k], b->pd[k]);
    case HS_SIG_U:
        return HS_HERMITE_EVAL(*hb, a->U[k], hs_spool_rate(m, k, a->U[k], a->t, 1), b->U[k],
                               hs_spool_rate(m, k, b->U[k], b->t, -1));
    case HS_SIG_W: return HS_HERMITE_EVAL(*hb, a->W_cyl[k], a->P_cyl[k], b->W_cyl[k], b->P_cyl[k]);
    case HS_SIG_WEXT: return HS_HERMITE_EVAL(*hb, a->W_ext, a->P_ext, b->W_ext, b->P_ext);
#if HS_AUDIT_ON
    case HS_SIG_WIN:
    case HS_SIG_WLOSS:
    case HS_SIG_EFLUID:
        k = r.kind - HS_SIG_WIN; /* HS_PW_IN, LOSS, STORE in the signals' order */
        return HS_HERMITE_EVAL(*hb, a->W_hyd[k], a->P_hyd[k], b->W_hyd[k], b->P_hyd[k]);
#endif
    default: return 0.0;
    }
}

/* Running statistics of one signal: HS_NACC numbers, a[f * HS_ACC_LD] for field f. They are
 * contiguous (HS_ACC_LD 1) unless a build places them elsewhere: the specialised GPU kernel
 * keeps them in shared memory, one column per thread (HS_ACC_LD its block size, so that the
 * threads of a warp touch consecutive words), where a translation unit defines HS_ACC_LD
 * before including this header. */
enum hs_acc_field { HS_ACC_MIN, HS_ACC_MAX, HS_ACC_LAST, HS_ACC_SUM, HS_ACC_SUMSQ, HS_ACC_TMAX, HS_NACC };
#ifndef HS_ACC_LD
#define HS_ACC_LD 1
#endif
#define HS_ACC(a, f) ((a)[(f) * HS_ACC_LD])

/* Adds the sample v at time t to a, which holds n samples so far. */
HS_HD static inline void hs_acc_add(double *a, double v, double t, long n)
{
    if (n == 0 || v < HS_ACC(a, HS_ACC_MIN)) HS_ACC(a, HS_ACC_MIN) = v;
    if (n == 0 || v > HS_ACC(a, HS_ACC_MAX)) {
        HS_ACC(a, HS_ACC_MAX) = v;
        HS_ACC(a, HS_ACC_TMAX) = t;
    }
    HS_ACC(a, HS_ACC_LAST) = v;
    HS_ACC(a, HS_ACC_SUM) += v;
    HS_ACC(a, HS_ACC_SUMSQ) += v * v;
}

/* Adds the sample v at time t to a, which holds n samples so far, the last at t - h, as a
 * time average (adaptive steps): min, max, t_max and the last value as hs_acc_add, the sums
 * by the trapezoidal rule over [t - h, t] (mean and rms are then these integrals over the
 * time covered: hs_instance_end). */
HS_HD static inline void hs_acc_add_tw(double *a, double v, double t, double h, long n)
{
    double u = HS_ACC(a, HS_ACC_LAST);
    if (n == 0 || v < HS_ACC(a, HS_ACC_MIN)) HS_ACC(a, HS_ACC_MIN) = v;
    if (n == 0 || v > HS_ACC(a, HS_ACC_MAX)) {
        HS_ACC(a, HS_ACC_MAX) = v;
        HS_ACC(a, HS_ACC_TMAX) = t;
    }
    if (n > 0) {
        HS_ACC(a, HS_ACC_SUM) += 0.5 * h * (u + v);
        HS_ACC(a, HS_ACC_SUMSQ) += 0.5 * h * (u * u + v * v);
    }
    HS_ACC(a, HS_ACC_LAST) = v;
}

/* An extreme-only sample (with adaptive steps, an output grid point inside a step: its dense
 * output): min, max and t_max, not the time integrals nor the last value. It comes after the
 * step's end was sampled, so an equal maximum moves t_max back to it: the first one. */
HS_HD static inline void hs_acc_extreme(double *a, double v, double t)
{
    if (v < HS_ACC(a, HS_ACC_MIN)) HS_ACC(a, HS_ACC_MIN) = v;
    if (v > HS_ACC(a, HS_ACC_MAX) || (v == HS_ACC(a, HS_ACC_MAX) && t < HS_ACC(a, HS_ACC_TMAX))) {
        HS_ACC(a, HS_ACC_MAX) = v;
        HS_ACC(a, HS_ACC_TMAX) = t;
    }
}

/* Per-instance results, written by hs_run_instance into SoA arrays at instance slot i of a
 * batch of n (the caller owns them). */
typedef struct hs_batch_out {
    long n; /* instances in the batch (stride of every array) */
    int *status; /* (n) */
    long *steps; /* (n) steps accepted */
    long *rejected; /* (n) steps rejected (adaptive steps; 0 with fixed ones), NULL: not kept */
    double *iters_mean; /* (n) */
    int *iters_max; /* (n) */
    double *stats; /* (nsig x HS_NSTAT x n): stats[(k * HS_NSTAT + q) * n + i] */
    double *traj; /* (ntraj x ntime x n): traj[(k * ntime + j) * n + i], NULL if none */
    long ntime; /* trajectory samples per signal */
} hs_batch_out;

/* Per-instance runner state between phases (the cuBLAS GPU path keeps it between kernels). */
typedef struct hs_inst_run {
#if HS_ACC_LD == 1
    double acc[HS_CAP_OUT * HS_NACC]; /* running statistics (nsig x HS_NACC): signal q's at
                                         acc + q * HS_NACC (hs_inst_acc) */
#else
    double *acc; /* the caller's: signal q's at acc + q * HS_NACC * HS_ACC_LD */
#endif
    long nrec; /* samples in every acc */
    double E0; /* initial energy, for E_balance */
    long nsteps; /* steps to t_end of this instance's model */
    long j; /* trajectory samples written */
    double tw; /* adaptive steps: the time the statistics' sums cover (time averages); 0: the
                  sums are over samples of the grid (means over nrec) */
    int done; /* outputs written: finished or failed */
    int newton; /* iterating the current step (cuBLAS path) */
    int it; /* current Newton iteration, 1-based (cuBLAS path) */
    int nx; /* unknowns, 0 once done (cuBLAS path) */
} hs_inst_run;

/* The running statistics of signal q of g (HS_NACC at stride HS_ACC_LD). */
HS_HD static inline double *hs_inst_acc(hs_inst_run *g, int q)
{
    return g->acc + q * HS_NACC * HS_ACC_LD;
}

/* Steps of an instance to t_end: t_end / dt, rounded up when t_end is not a multiple of dt. */
HS_HD static inline long hs_instance_steps(double t_end, double dt)
{
    double r = t_end / dt;
    long n = (long)floor(r + 0.5);
    if (fabs(r - (double)n) > 1e-9 * (r > 1.0 ? r : 1.0) && (double)n < r) ++n;
    return n;
}

/* Clears the runner state of an instance of nsteps steps and nx unknowns. */
HS_HD static inline void hs_instance_begin(const hs_output_spec *spec, long nsteps, int nx, hs_inst_run *g)
{
    int q, f;
    for (q = 0; q < spec->nsig; ++q)
        for (f = 0; f < HS_NACC; ++f) HS_ACC(hs_inst_acc(g, q), f) = 0.0;
    g->nrec = 0;
    g->E0 = 0.0;
    g->j = 0;
    g->tw = 0.0;
    g->done = g->newton = g->it = 0;
    g->nx = nx;
    g->nsteps = nsteps;
}

/* Adds the state s with observables o as output sample k (time s->t: k dt, or t_end for the
 * last) to the statistics and the trajectory. */
HS_HD HS_NOINLINE static inline void hs_instance_sample(const hs_output_spec *spec, const hs_mview *m,
                                                        const hs_state *s, const hs_obs *o, long k,
                                                        hs_inst_run *g, long i, hs_batch_out *out)
{
    long n = out->n;
    int q;
    if (k == 0) g->E0 = o->Ekin + o->Epot - s->W_ext - o->W_cyl;
    for (q = 0; q < spec->nsig; ++q)
        hs_acc_add(hs_inst_acc(g, q), hs_signal_value(m, s, o, g->E0, spec->sig[q]), s->t, g->nrec);
    g->nrec += 1;
    if (out->traj && spec->traj_every > 0 && (k % spec->traj_every == 0 || k == g->nsteps) &&
        g->j < out->ntime) {
        for (q = 0; q < spec->ntraj; ++q)
            out->traj[((long)q * out->ntime + g->j) * n + i] = hs_signal_value(m, s, o, g->E0, spec->traj[q]);
        ++g->j;
    }
}

/* Observe the accepted state (step k = s->step; w as hs_init / hs_step left it) and add it
 * to the statistics and trajectory. */
HS_HD HS_NOINLINE static inline void hs_instance_record(const hs_output_spec *spec, const hs_mview *m, const hs_state *s,
                                 hs_work *w, hs_inst_run *g, long i, hs_batch_out *out)
{
    hs_obs o;
    hs_observe_current(m, s, w, &o);
    hs_instance_sample(spec, m, s, &o, s->step, g, i, out);
}

/* With adaptive steps, after the accepted step from s0 to s (w describing s): the statistics
 * take s's observables as a time-weighted sample (hs_acc_add_tw: mean and rms as integrals over
 * time by the trapezoidal rule, so that unequal steps weigh by their length), and the points of
 * the grid k dt (t_end for k = nsteps) in (s0->t, s->t), each the dense output of the step there
 * (hs_dense_state: cubic Hermite), as extreme-only samples of the signals that are components of
 * the state (hs_signal_is_state: coordinates, velocities, pressures, spools, works): their min,
 * max and t_max are over the accepted steps and the output grid, so a long step over a smooth
 * peak resolves it as finely as fixed steps of dt would (a peak sampled every h misses it by
 * about |v''| h^2 / 8). The other signals' extremes are over the accepted steps: observing a
 * grid point (kinematics, hydraulics, energies) would cost about as much as the steps. The
 * trajectory takes the grid points it keeps (every traj_every-th, and the last) in
 * (s0->t, s->t], observed afresh there (hs_observe: w then describes that point; the next step
 * does not read it). *kg is the next grid point. */
HS_HD HS_NOINLINE static inline void hs_instance_adaptive(const hs_output_spec *spec, const hs_mview *m,
                                                          const hs_state *s0, const hs_state *s, hs_work *w,
                                                          long *kg, hs_inst_run *g, long i, hs_batch_out *out)
{
    hs_state si;
    hs_obs o;
    long n = out->n;
    int q;
    double h = s->t - s0->t;
    int ext = 0;
    if (spec->stats & (1u << HS_STAT_MIN | 1u << HS_STAT_MAX | 1u << HS_STAT_TMAX))
        for (q = 0; q < spec->nsig; ++q) ext |= hs_signal_is_state(spec->sig[q]);
    hs_observe_current(m, s, w, &o);
    for (q = 0; q < spec->nsig; ++q)
        hs_acc_add_tw(hs_inst_acc(g, q), hs_signal_value(m, s, &o, g->E0, spec->sig[q]), s->t, h, g->nrec);
    g->nrec += 1;
    g->tw = (g->tw > 0.0 ? g->tw : 0.0) + h;
    for (; *kg <= g->nsteps; ++*kg) {
        double tg = *kg == g->nsteps ? HS_D(m, t_end) : (double)*kg * HS_D(m, dt);
        int keep, inner;
        if (tg > s->t) break;
        keep = out->traj && spec->traj_every > 0 && g->j < out->ntime &&
               (*kg % spec->traj_every == 0 || *kg == g->nsteps);
        inner = ext && tg < s->t; /* s itself is sampled above */
        if (!keep && !inner) continue;
        if (inner) {
            const hs_hermite hb = hs_hermite_at(s0->t, s->t, tg);
            for (q = 0; q < spec->nsig; ++q)
                if (hs_signal_is_state(spec->sig[q]))
                    hs_acc_extreme(hs_inst_acc(g, q), hs_signal_dense(m, s0, s, &hb, spec->sig[q]), tg);
        }
        if (!keep) continue;
        hs_dense_state(m, s0, s, tg, &si);
        hs_observe(m, &si, w, &o);
        for (q = 0; q < spec->ntraj; ++q)
            out->traj[((long)q * out->ntime + g->j) * n + i] = hs_signal_value(m, &si, &o, g->E0, spec->traj[q]);
        ++g->j;
    }
}

/* The statistics of every signal of g into instance slot i, and NaN for the trajectory
 * samples it did not reach (an instance that failed early). */
HS_HD static inline void hs_instance_stats_out(const hs_output_spec *spec, hs_inst_run *g, long i,
                                               hs_batch_out *out)
{
    long n = out->n, j;
    int q;
    if (out->traj)
        for (j = g->j; j < out->ntime; ++j)
            for (q = 0; q < spec->ntraj; ++q) out->traj[((long)q * out->ntime + j) * n + i] = NAN;
    for (q = 0; q < spec->nsig; ++q) {
        double *S = out->stats + (long)q * HS_NSTAT * n + i;
        const double *a = hs_inst_acc(g, q);
        double cnt = g->tw > 0.0 ? g->tw : g->nrec > 0 && !(g->tw < 0.0) ? (double)g->nrec : NAN;
        S[HS_STAT_MIN * n] = g->nrec ? HS_ACC(a, HS_ACC_MIN) : NAN;
        S[HS_STAT_MAX * n] = g->nrec ? HS_ACC(a, HS_ACC_MAX) : NAN;
        S[HS_STAT_FINAL * n] = g->nrec ? HS_ACC(a, HS_ACC_LAST) : NAN;
        S[HS_STAT_MEAN * n] = HS_ACC(a, HS_ACC_SUM) / cnt;
        S[HS_STAT_RMS * n] = sqrt(HS_ACC(a, HS_ACC_SUMSQ) / cnt);
        S[HS_STAT_TMAX * n] = g->nrec ? HS_ACC(a, HS_ACC_TMAX) : NAN;
    }
}

/* Outputs of instance slot i with final status st and rej steps rejected; the instance is
 * frozen. */
HS_HD HS_NOINLINE static inline void hs_instance_end(const hs_output_spec *spec, hs_inst_run *g, const hs_state *s,
                                 int st, long rej, long i, hs_batch_out *out)
{
    hs_instance_stats_out(spec, g, i, out);
    out->status[i] = st | s->warn; /* failures and warnings (HS_ST_WARNINGS) */
    out->steps[i] = s->step;
    if (out->rejected) out->rejected[i] = rej;
    out->iters_mean[i] = s->step > 0 ? (double)s->iters_total / (double)s->step : 0.0;
    out->iters_max[i] = s->iters_max;
    g->done = 1;
    g->newton = 0;
    g->nx = 0;
}

/* Outputs of instance slot i whose sampled values broke a physical rule: status
 * HS_ST_INVALID, no step run, NaN statistics and trajectories (what hs_instance_end writes
 * for an instance without samples, written here without a runner state: a second hs_inst_run
 * in the GPU kernel's frame cost 440 B of local memory per thread). Returns HS_ST_INVALID. */
HS_HD HS_NOINLINE static inline int hs_instance_invalid(const hs_output_spec *spec, long i, hs_batch_out *out, hs_state *s)
{
    long n = out->n, j;
    int q, k;
    s->step = 0;
    s->iters_total = 0;
    s->iters_max = 0;
    s->warn = 0;
    if (out->traj)
        for (j = 0; j < out->ntime; ++j)
            for (q = 0; q < spec->ntraj; ++q) out->traj[((long)q * out->ntime + j) * n + i] = NAN;
    out->status[i] = HS_ST_INVALID;
    out->steps[i] = 0;
    if (out->rejected) out->rejected[i] = 0;
    out->iters_mean[i] = 0.0;
    out->iters_max[i] = 0;
    for (q = 0; q < spec->nsig; ++q)
        for (k = 0; k < HS_NSTAT; ++k) out->stats[((long)q * HS_NSTAT + k) * n + i] = NAN;
    return HS_ST_INVALID;
}

/* Runs instance slot i of model (view) m: the time loop to t_end, statistics and
 * trajectories into out. warn0: warnings it starts with (hs_model_plausible). s, w and g are
 * the caller's scratch (thread-private; g->acc set where HS_ACC_LD > 1). Never allocates; a
 * failing instance is flagged and keeps the statistics of every step it completed. Returns
 * the status bits (failures). */
HS_HD static inline int hs_run_model(const hs_mview *m, const hs_output_spec *spec, long i, hs_batch_out *out,
                                     hs_state *s, hs_work *w, hs_inst_run *g, int warn0)
{
    long k;
    int st;
    hs_instance_begin(spec, hs_instance_steps(HS_D(m, t_end), HS_D(m, dt)), HS_N(m, nx), g);
    st = hs_init(m, s, w);
    s->warn |= warn0;
    if (HS_N(m, step) == HS_STEP_ADAPTIVE) { /* steps of their own, outputs on the grid of dt */
        hs_state s0;
        hs_ctrl c;
        long kg = 1;
        hs_ctrl_start(m, &c);
        if (!st) {
            int q;
            hs_instance_record(spec, m, s, w, g, i, out); /* t = 0: E0, extremes, trajectory */
            for (q = 0; q < spec->nsig; ++q) /* the time averages start empty */
                HS_ACC(hs_inst_acc(g, q), HS_ACC_SUM) = HS_ACC(hs_inst_acc(g, q), HS_ACC_SUMSQ) = 0.0;
        }
        g->tw = -1.0; /* time averages: NaN until a step is accepted */
        while (!st && s->t < HS_D(m, t_end))
            if (!(st = hs_step_adaptive(m, s, &c, w, &s0))) hs_instance_adaptive(spec, m, &s0, s, w, &kg, g, i, out);
        hs_instance_end(spec, g, s, st, c.rejected, i, out);
    } else {
        for (k = 0; k <= g->nsteps && !st; ++k) {
            if (k > 0 && (st = hs_step(m, s, w)) != 0) break;
            hs_instance_record(spec, m, s, w, g, i, out);
        }
        hs_instance_end(spec, g, s, st, 0, i, out);
    }
    return st;
}

#ifndef HS_SPEC
/* Runs instance slot i of the generic engine: local model mloc from base and its overrides v
 * (ov->n values), then hs_run_model. mloc, s and w are the caller's scratch. */
HS_HD static inline int hs_run_instance(const hs_model *base, const hs_override_spec *ov,
                                        const double *v, const hs_output_spec *spec, long i,
                                        hs_batch_out *out, hs_model *mloc, hs_state *s,
                                        hs_work *w)
{
    hs_inst_run g;
    if (!hs_instance_model(base, ov, v, mloc)) return hs_instance_invalid(spec, i, out, s);
    return hs_run_model(mloc, spec, i, out, s, w, &g, hs_model_plausible(mloc));
}
#endif

#endif
