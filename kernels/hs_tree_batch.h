/* hs_tree_batch.h -- one instance of an ensemble of open trees (the Riccati formulation, seed
 * 002): its sampled values applied to a private copy of the tree's numbers, the RK4 time loop
 * to t_end, and its recorded signals reduced to the per-instance statistics and trajectories
 * of hs_batch.h (the same hs_batch_out, so the results files and the ensemble statistics are
 * the step's). Shared by the cpu and reference backends and the GPU's tree kernel.
 *
 * A tree of hundreds of bodies does not fit a thread's registers or its stack, so each
 * instance gets a block of hs_tree_inst_doubles() doubles from the caller (global memory on
 * the GPU): its state, the RK4 stages, the Riccati work, and, only when the sweep changes a
 * body's numbers, its own copy of them. The model's arrays are read, never written. */
#ifndef HS_TREE_BATCH_H
#define HS_TREE_BATCH_H

#include "hs_batch.h"
#include "hs_tree_rk4.h"

/* What a sweep parameter of a tree sets (host/tree/tree_params.c names them). Per-body fields act
 * on the bodies [b0, b1) (a body, or a chain's), the others on the tree. */
enum hs_tree_field {
    HS_TF_MASS = 0, /* kg; the inertia scales with it (same shape, another density) */
    HS_TF_LENGTH, /* m; the body's frame scales by length / its loaded length: its centre of
                     mass, joint points and its children's joint points; inertia by the square */
    HS_TF_COM, /* m, component comp of the centre of mass (body frame) */
    HS_TF_Z0, /* rad or m: the initial coordinate of a revolute or prismatic joint */
    HS_TF_ZD0, /* rad/s or m/s: its initial velocity; a ball joint's component comp of nu */
    HS_TF_GRAVITY, /* m/s^2, component comp */
    HS_TF_COUNT
};

typedef struct hs_tree_ov {
    int field; /* enum hs_tree_field */
    int comp; /* 0..2 for vector fields */
    int b0, b1; /* bodies [b0, b1) of the tree's order */
    int chain; /* -1: all of them; else those of this chain only (hs_tree_ens.chain_of) */
} hs_tree_ov;

/* The model of a tree ensemble: shared by every instance, read only. */
typedef struct hs_tree_ens {
    hs_tree base; /* the loaded tree */
    const double *length; /* loaded length per body, 0 if none (nbody) */
    const int *chain_of; /* the chain of each body, -1: none (nbody) */
    const double *q0, *v0; /* initial state (nq), (nv) */
    double dt, t_end; /* RK4 step and end time, s */
    int nov; /* swept parameters */
    hs_tree_ov ov[HS_MAX_SWEEP]; /* (nov) */
    int own_par; /* 1: a per-body field is swept: every instance copies the bodies' numbers */
    int forces; /* 1: a force or moment signal is recorded: the backward sweep keeps them */
    int kin; /* 1: a signal needs the kinematics of the accepted state (energies, positions) */
    int energy; /* 1: an energy signal is recorded (E_kin, E_pot, E_balance) */
} hs_tree_ens;

/* Doubles of an instance's block. */
HS_HD static inline long hs_tree_inst_doubles(const hs_tree_ens *e)
{
    long nb = e->base.nbody, ny = (long)e->base.nq + e->base.nv;
    return (1 + HS_TREE_RK4_NSCRATCH) * ny + nb * HS_TREE_NW + (e->own_par ? 16 * nb : 0) + (e->forces ? 6 * nb : 0);
}

/* The instance's tree: base's arrays, or its own copy of the bodies' numbers (par, 16 per
 * body) with the sampled per-body values applied, and its gravity. y gets the initial state.
 * 0 if a value breaks a physical rule (mass, length or a joint of the ball kind given z0). */
HS_HD static inline int hs_tree_instance_setup(const hs_tree_ens *e, const double *val, hs_tree *t, double *par,
                                               double *y)
{
    const hs_tree *b = &e->base;
    long nb = b->nbody, j;
    int k, c;
    *t = *b;
    for (j = 0; j < b->nq; ++j) y[j] = e->q0[j];
    for (j = 0; j < b->nv; ++j) y[b->nq + j] = e->v0[j];
    if (e->own_par) {
        double *mass = par, *com = par + nb, *in = par + 4 * nb, *ap = par + 10 * nb, *ac = par + 13 * nb;
        for (j = 0; j < nb; ++j) mass[j] = b->mass[j];
        for (j = 0; j < 3 * nb; ++j) {
            com[j] = b->com[j];
            ap[j] = b->at_parent[j];
            ac[j] = b->at_child[j];
        }
        for (j = 0; j < 6 * nb; ++j) in[j] = b->inertia[j];
        t->mass = mass;
        t->com = com;
        t->inertia = in;
        t->at_parent = ap;
        t->at_child = ac;
    }
    for (k = 0; k < e->nov; ++k) {
        const hs_tree_ov *o = &e->ov[k];
        double v = val[k];
        if (!(v == v)) return 0; /* NaN */
#define HS_TREE_OV_SKIP(j) (o->chain >= 0 && e->chain_of[j] != o->chain)
        switch (o->field) {
        case HS_TF_GRAVITY: t->gravity[o->comp] = v; break;
        case HS_TF_Z0:
            for (j = o->b0; j < o->b1; ++j) {
                if (HS_TREE_OV_SKIP(j)) continue;
                if (b->jtype[j] == HS_JOINT_BALL) return 0;
                y[hs_tree_iq(b, (int)j)] = v;
            }
            break;
        case HS_TF_ZD0:
            for (j = o->b0; j < o->b1; ++j)
                if (!HS_TREE_OV_SKIP(j)) y[b->nq + hs_tree_iv(b, (int)j) + (b->jtype[j] == HS_JOINT_BALL ? o->comp : 0)] = v;
            break;
        case HS_TF_MASS:
            if (!(v > 0.0)) return 0;
            for (j = o->b0; j < o->b1; ++j) {
                double s = v / par[j];
                if (HS_TREE_OV_SKIP(j)) continue;
                par[j] = v;
                for (c = 0; c < 6; ++c) par[4 * nb + 6 * j + c] *= s;
            }
            break;
        case HS_TF_COM:
            for (j = o->b0; j < o->b1; ++j)
                if (!HS_TREE_OV_SKIP(j)) par[nb + 3 * j + o->comp] = v;
            break;
        case HS_TF_LENGTH: {
            long i;
            if (!(v > 0.0)) return 0;
            for (j = o->b0; j < o->b1; ++j) {
                double s = v / e->length[j]; /* from the loaded geometry */
                if (HS_TREE_OV_SKIP(j)) continue;
                for (c = 0; c < 3; ++c) {
                    par[nb + 3 * j + c] = b->com[3 * j + c] * s;
                    par[13 * nb + 3 * j + c] = b->at_child[3 * j + c] * s;
                }
                for (c = 0; c < 6; ++c) par[4 * nb + 6 * j + c] = b->inertia[6 * j + c] * (par[j] / b->mass[j]) * s * s;
                /* the children's joint points on this body (children come after their parent) */
                for (i = j + 1; i < nb; ++i)
                    if (b->parent[i] == (int)j)
                        for (c = 0; c < 3; ++c) par[10 * nb + 3 * i + c] = b->at_parent[3 * i + c] * s;
            }
            break;
        }
        default: return 0;
        }
#undef HS_TREE_OV_SKIP
    }
    hs_tree_normalise(t, y);
    return 1;
}

/* The value of signal r of the tree at the state y (nq + nv); w holds the kinematics of y when
 * e->kin, F the internal loads (nbody x 6: [m; q]) when e->forces. E0: the initial energy, W
 * the external loads' work so far, Ek and Ep the energies of y (when e->kin).
 *   z: a revolute or prismatic joint's coordinate, a ball joint's rotation angle (rad, in
 *      [0, pi]); zd: its velocity, a ball joint's |nu|; x, y, z of a body's centre of mass;
 *   F_joint, M_joint: |q| and |m| at a joint (N, N m). */
HS_HD static inline double hs_tree_signal(const hs_tree *t, const double *y, const double *w, const double *F,
                                          double E0, double W, double Ek, double Ep, hs_signal_ref r)
{
    int j = r.index;
    const double *wj = w + (long)j * HS_TREE_NW;
    switch (r.kind) {
    case HS_SIG_Z: {
        const double *q = y + hs_tree_iq(t, j);
        if (t->jtype[j] == HS_JOINT_BALL) return 2.0 * atan2(sqrt(q[1] * q[1] + q[2] * q[2] + q[3] * q[3]), fabs(q[0]));
        return q[0];
    }
    case HS_SIG_ZD: {
        const double *v = y + t->nq + hs_tree_iv(t, j);
        if (t->jtype[j] == HS_JOINT_BALL) return sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
        return v[0];
    }
    case HS_SIG_CX:
    case HS_SIG_CY:
    case HS_SIG_CZ: {
        double c[3];
        hs_tree_com(t, j, wj, c);
        return c[r.kind - HS_SIG_CX];
    }
    case HS_SIG_EKIN: return Ek;
    case HS_SIG_EPOT: return Ep;
    case HS_SIG_EBAL: return Ek + Ep - W - E0;
    case HS_SIG_WEXT: return W;
    case HS_SIG_FJ:
    case HS_SIG_MJ: {
        const double *f = F + 6L * j + (r.kind == HS_SIG_FJ ? 3 : 0);
        return sqrt(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]);
    }
    default: return 0.0;
    }
}

/* Output sample k (time tk) of instance slot i at state y: kinematics and forces as the
 * signals need, then every signal into the statistics and the trajectory. 0, or the failing
 * joint + 1 of the force evaluation. */
HS_HD static inline int hs_tree_sample(const hs_tree_ens *e, const hs_tree *t, const hs_output_spec *spec,
                                       const double *y, double *w, double *F, double *scr, double W, long k,
                                       double tk, hs_inst_run *g, long i, hs_batch_out *out)
{
    int q, rc = 0;
    double Ek = 0.0, Ep = 0.0;
    if (e->forces) {
        rc = hs_riccati_accel(t, y, y + t->nq, (const double *)0, w, scr, F); /* kinematics too */
    } else if (e->kin) {
        hs_tree_kinematics(t, y, y + t->nq, w);
    }
    if (rc) return rc;
    if (e->energy) hs_tree_energy(t, w, &Ek, &Ep); /* once for every energy signal */
    if (k == 0) g->E0 = Ek + Ep;
    for (q = 0; q < spec->nsig; ++q) hs_acc_add(hs_inst_acc(g, q), hs_tree_signal(t, y, w, F, g->E0, W, Ek, Ep, spec->sig[q]), tk, g->nrec);
    g->nrec += 1;
    if (out->traj && spec->traj_every > 0 && (k % spec->traj_every == 0 || k == g->nsteps) && g->j < out->ntime) {
        for (q = 0; q < spec->ntraj; ++q)
            out->traj[((long)q * out->ntime + g->j) * out->n + i] = hs_tree_signal(t, y, w, F, g->E0, W, Ek, Ep, spec->traj[q]);
        ++g->j;
    }
    return 0;
}

/* The outputs of slot i after steps accepted steps with status st (hs_instance_end's, for a
 * run with no Newton iterations). */
HS_HD static inline void hs_tree_instance_end(const hs_output_spec *spec, hs_inst_run *g, long steps, int st, long i,
                                              hs_batch_out *out)
{
    hs_instance_stats_out(spec, g, i, out);
    out->status[i] = st;
    out->steps[i] = steps;
    if (out->rejected) out->rejected[i] = 0;
    out->iters_mean[i] = 0.0;
    out->iters_max[i] = 0;
    g->done = 1;
}

/* Runs instance slot i of the tree ensemble e with its sampled values val (e->nov): the RK4
 * loop at dt to t_end (the last step shortened to end there), every step an output sample.
 * blk: the instance's hs_tree_inst_doubles(e) doubles. Never allocates; a failing instance
 * (singular articulated inertia, a state that is not finite) keeps the statistics of the steps
 * it completed. Returns its status bits. */
HS_HD static inline int hs_tree_run_instance(const hs_tree_ens *e, const double *val, const hs_output_spec *spec, long i,
                                             hs_batch_out *out, double *blk)
{
    hs_tree t;
    hs_inst_run g;
    long ny = (long)e->base.nq + e->base.nv, nb = e->base.nbody, k, m;
    double *y = blk, *scr = y + ny, *w = scr + HS_TREE_RK4_NSCRATCH * ny, *par = w + nb * HS_TREE_NW;
    double *F = par + (e->own_par ? 16 * nb : 0);
    int st = 0;
    double W = 0.0; /* the external loads' work */
    hs_instance_begin(spec, hs_instance_steps(e->t_end, e->dt), 0, &g);
    if (!hs_tree_instance_setup(e, val, &t, par, y)) {
        hs_tree_instance_end(spec, &g, 0, HS_ST_INVALID, i, out);
        return HS_ST_INVALID;
    }
    t.time = 0.0;
    if (hs_tree_sample(e, &t, spec, y, w, F, scr, W, 0, 0.0, &g, i, out)) st = HS_ST_SINGULAR;
    for (k = 1; k <= g.nsteps && !st; ++k) {
        double tk = k == g.nsteps ? e->t_end : (double)k * e->dt;
        double h = tk - (double)(k - 1) * e->dt;
        t.time = (double)(k - 1) * e->dt;
        if (hs_tree_rk4_step_w(&t, h, (const double *)0, y, w, scr, &W)) {
            st = HS_ST_SINGULAR;
            break;
        }
        for (m = 0; m < ny; ++m)
            if (!(y[m] - y[m] == 0.0)) st = HS_ST_NONFINITE;
        if (st) break;
        t.time = tk;
        if (hs_tree_sample(e, &t, spec, y, w, F, scr, W, k, tk, &g, i, out)) st = HS_ST_SINGULAR;
    }
    hs_tree_instance_end(spec, &g, st ? k - 1 : g.nsteps, st, i, out);
    return st;
}

#endif
