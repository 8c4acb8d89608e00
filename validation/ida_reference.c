/* ida_reference.c -- the planar absolute-coordinate reference solver (see ida_reference.h).
 *
 * Formulation (textbook planar multibody dynamics in absolute coordinates, e.g. Nikravesh
 * 1988 ch. 6/13, Haug 1989 ch. 6; the method under test is the semi-recursive one of seed 000
 * Sect. 2, which this file does not use):
 *   q_j = (x_j, y_j, theta_j): centre of mass and absolute angle of body j (global frame);
 *   M = diag(m_j, m_j, Izz_j), constant (body frames stay parallel to the global z axis);
 *   a body-fixed point c (body frame) is at r = g + R(theta) s with s = c - com, so
 *   r' = g' + theta' E R s and r'' = g'' + theta'' E R s - theta'^2 R s, E = [0 -1; 1 0];
 *   Phi(q) = 0 holds the joints (tree joints AND cut joints are all constraints here);
 *   the index-1 DAE in y = [q, v, lambda, W] (W: work of the external loads) is
 *     q' - v                          = 0
 *     M v' + Phi_q^T lambda - Q(t, q) = 0
 *     Phi_q v' + gamma(q, v)          = 0      (acceleration-level constraints)
 *     W' - P_ext(t, q, v) - P_cyl     = 0      (for the energy balance only)
 *   with gamma = Phi'' at v' = 0 (the velocity-product terms). Phi and Phi' are not
 *   enforced, only their second derivative, so they drift; with tight tolerances the drift
 *   stays small, and it is measured and reported (hs_ida_stats.phi_max).
 * Constraint primitives (two bodies a, b; ground = -1 has theta = 0 and r(s) = s):
 *   POINT    r_a(sa) - r_b(sb) = 0                             (2 rows; revolute joints)
 *   ANGLE    theta_b - theta_a - c = 0                          (prismatic: no rotation)
 *   LINE     n . (r_b(sb) - r_a(sa)) = 0,  n = R_a u            (point b on a's line)
 *   PARALLEL (R_a u) x (R_b w) = 0                              (parallel slide directions)
 * Piecewise-linear signals: the integration restarts (IDAReInit, with new consistent v' and
 * lambda) at every knot time, and inside a segment the signal is the straight line through
 * its values at the segment start and midpoint (both from hs_signal_eval), so IDA never
 * integrates across a kink or a jump.
 *
 * Hydraulics (seed 000 Sect. 3; seed 004 Pub. I Sects. 3 and 5), appended to y as plain
 * differential states [p (nvol), U (ndcv), fs (nfs), W_cyl]:
 *   p_k'  = Be_k / V_k (sum of inflows - V_k'),  V_k = V_hose + sum of chamber parts A l,
 *           1/Be_k = 1/B_oil + V_hose/(V_k B_hose) + sum A l/(V_k B_wall);
 *   chambers: l_p = l_p0 + (s - s0), l_r = stroke - l_p, V_p' = A_p s', V_r' = -A_r s',
 *           s = |r_b - r_a| from the absolute coordinates (plus a constant out-of-plane
 *           offset, if any), s' = e . (r_b' - r_a');
 *   throttles Q = orifice(Cv, p_a - p_b); 4/3 valves: U >= 0: P->A (Cv k_PA U), B->T
 *           (Cv k_BT U); U < 0: P->B (Cv k_PB |U|), A->T (Cv k_AT |U|); seat valves: P->A
 *           (Cv x, x = U clamped to [0, 1]), a 3/2 one's A->T (Cv (1 - x));
 *   U' = (U_ref(t) - U)/tau (an ODE state here; U_ref straight on each segment, as loads);
 *   fs' from the friction law (LuGre bristle/film states);
 *   the components of hydraulics.components (kernels/hs_components.h): each one's flow from
 *           its node a to b, an accumulator's capacitance added to its volume's
 *           (p' = (inflows - V') / (V / Be + C_acc)), a relief poppet's, a pilot valve's
 *           spool's and a variable pump's state as further fs; a shuttle's second seat;
 *   cylinder force F = p_p A_p - p_r A_r - F_fric + F_damper along e = (r_b - r_a)/s:
 *           +F e at r_b on body b, -F e at r_a on body a; W_cyl' = F s' (its work).
 * From the engine, besides hs_init's initial state (z, zd, p, U, s0: the static-equilibrium
 * start), only the pure component laws are taken: hs_orifice_flow, hs_friction_force,
 * hs_end_damper and those of hs_components.h (hs_relief_opening, hs_check_flow,
 * hs_flow_control_flow, the pilot valves' hs_pilot_opening and hs_pilot_flow,
 * hs_pump_flow, hs_pump_eps_ss, hs_accumulator_capacitance, and with entrained air the
 * mixture's specific volume hs_mix_volume of kernels/hs_fluid.h; unit-tested against their
 * closed forms on their own). With entrained air every flow enters its volumes as the mass it
 * carries (its upstream node's density: ref_edge), and a volume's oil mass V / v(p) changes by
 * them: (V kappa(p)) p' = v(p) (mass in) - V'. Circuit assembly, areas,
 * Cv of throttles, cylinder geometry, bulk moduli, pressure equations and force
 * application are written here. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ida/ida.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>

#include "ida_reference.h"
#include "hs_integrator.h" /* hs_init only: the common consistent initial state */
#include "hs_hydraulics.h" /* hs_orifice_flow, hs_friction_force, hs_end_damper only */
#include "hs_signal.h"
#include "engine/simulate.h" /* harness: hs_simulate, hs_status_string */

/* LAPACK (linked through hs_host) */
extern void dgesv_(const int *n, const int *nrhs, double *a, const int *lda, int *ipiv,
                   double *b, const int *ldb, int *info);

#define RB HS_MAX_BODIES
#define RQ (3 * HS_MAX_BODIES) /* absolute coordinates */
#define RC (2 * HS_MAX_BODIES + 2 * HS_MAX_CUTS) /* constraint rows */
#define RPC (2 * HS_MAX_BODIES + 2 * HS_MAX_CUTS) /* constraint primitives */
#define RA (RQ + RC) /* augmented system */

#define M_PI_REF 3.14159265358979323846

enum { PC_POINT = 0, PC_ANGLE = 1, PC_LINE = 2, PC_PARALLEL = 3 };

typedef struct pcon {
    int type;
    int a, b; /* bodies, -1 = ground */
    int row; /* first constraint row */
    double sa[2], sb[2]; /* points: relative to the com, body frame (ground: global) */
    double u[2], w[2]; /* LINE: u = line normal in frame a; PARALLEL: u in a, w in b */
    double c; /* ANGLE: constant relative angle */
} pcon;

/* Hydraulic quantities at one state (sys_hydraulics). */
typedef struct ref_hyd {
    double s[HS_MAX_CYLS], sd[HS_MAX_CYLS]; /* cylinder lengths and rates */
    double e[HS_MAX_CYLS][2]; /* in-plane part of the unit vector a -> b */
    double rsa[HS_MAX_CYLS][2], rsb[HS_MAX_CYLS][2]; /* R s of the attachments (moment arms) */
    double lp[HS_MAX_CYLS], lr[HS_MAX_CYLS]; /* chamber lengths */
    double F[HS_MAX_CYLS], Ffric[HS_MAX_CYLS]; /* net force pushing the ends apart; friction */
    double rate[HS_MAX_VOLS + HS_MAX_DCV + HS_MAX_FS + 1]; /* derivatives of the block */
    double Tm[HS_MAX_CMP]; /* a motor's torque on its joint, by component (0 for the others) */
    double Pcyl; /* sum of F s' and of the motors' T (w_child - w_parent) */
} ref_hyd;

typedef struct ref_sys {
    const hs_model *m;
    int nb, nq, nc, ny; /* bodies, 3 nb, constraint rows, DAE unknowns 2 nq + nc + 1 */
    int npc;
    pcon pc[RPC];
    double mass[RB], izz[RB], com[RB][2];
    int jsign[RB]; /* revolute: +1 axis +z, -1 axis -z */
    double beta[RB]; /* angle of rot0 about z */
    /* hydraulics: y = [q, v, lambda, W, p (nvol), U (ndcv), fs (nfs), W_cyl]; nh = 0 for a
     * pure mechanism (then the DAE is exactly the mechanical one) */
    int nh, ip, iu, ifs, iwc; /* hydraulic unknowns, offsets of p, U, fs, W_cyl in y */
    double cyl_sa[HS_MAX_CYLS][2], cyl_sb[HS_MAX_CYLS][2]; /* attachments relative to the com */
    double cyl_dz[HS_MAX_CYLS]; /* constant out-of-plane offset z_b - z_a of the ends, m */
    double cyl_Ap[HS_MAX_CYLS], cyl_Ar[HS_MAX_CYLS]; /* piston and annulus areas, m^2 */
    double s0[HS_MAX_CYLS]; /* cylinder lengths at t = 0 (hs_init's) */
    double thr_Cv[HS_MAX_THR]; /* throttle coefficients */
    /* load signals, straight lines on the current segment */
    double seg_t0;
    double sig_v0[HS_MAX_SIGNALS], sig_slope[HS_MAX_SIGNALS];
    /* scratch */
    double phi[RC], J[RC * RQ], gam[RC], Q[RQ];
    ref_hyd H; /* hydraulics of the last evaluated state */
    double A[RA * RA], rhs[RA];
    int piv[RA];
} ref_sys;

static int fail(char *e, size_t n, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static int fail(char *e, size_t n, const char *fmt, ...)
{
    va_list ap;
    if (e && n) {
        va_start(ap, fmt);
        vsnprintf(e, n, fmt, ap);
        va_end(ap);
    }
    return 1;
}

void hs_ida_opts_default(hs_ida_opts *o)
{
    o->rtol = 1e-11;
    o->atol_q = 1e-13;
    o->atol_v = 1e-12;
    o->max_steps = 10000000L;
    o->atol_p = 1e-3;
    o->atol_U = 1e-10;
    o->atol_fs = 1e-13;
}

/* ------------------------------------------------------------------ planar geometry */

static void rot2(double th, const double s[2], double r[2])
{
    double c = cos(th), sn = sin(th);
    r[0] = c * s[0] - sn * s[1];
    r[1] = sn * s[0] + c * s[1];
}

/* position r, R s and the angular-derivative vector E R s of the point s of body b */
static void body_point(const double *q, int b, const double s[2], double r[2], double rs[2],
                       double ers[2])
{
    if (b < 0) {
        r[0] = s[0];
        r[1] = s[1];
        rs[0] = rs[1] = ers[0] = ers[1] = 0.0;
        return;
    }
    rot2(q[3 * b + 2], s, rs);
    r[0] = q[3 * b] + rs[0];
    r[1] = q[3 * b + 1] + rs[1];
    ers[0] = -rs[1];
    ers[1] = rs[0];
}

static double ang(const double *q, int b) { return b < 0 ? 0.0 : q[3 * b + 2]; }
static double angv(const double *v, int b) { return b < 0 ? 0.0 : v[3 * b + 2]; }

/* velocity g' + theta' E R s of the point with E R s = ers */
static void point_vel(const double *v, int b, const double ers[2], double rv[2])
{
    if (b < 0) {
        rv[0] = rv[1] = 0.0;
        return;
    }
    rv[0] = v[3 * b] + v[3 * b + 2] * ers[0];
    rv[1] = v[3 * b + 1] + v[3 * b + 2] * ers[1];
}

static double cross2(const double a[2], const double b[2]) { return a[0] * b[1] - a[1] * b[0]; }
static double dot2(const double a[2], const double b[2]) { return a[0] * b[0] + a[1] * b[1]; }

/* ------------------------------------------------------------------ model checks */

static double norm3(const double *a) { return sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]); }

/* unit vector a parallel to +-z? (sets *sgn) */
static int is_z(const double *a, int *sgn)
{
    double n = norm3(a);
    if (!(n > 0.0)) return 0;
    if (fabs(a[0]) > 1e-9 * n || fabs(a[1]) > 1e-9 * n) return 0;
    if (sgn) *sgn = a[2] > 0.0 ? 1 : -1;
    return 1;
}

/* non-zero vector a in the x-y plane? */
static int in_plane(const double *a)
{
    double n = norm3(a);
    return n > 0.0 && fabs(a[2]) <= 1e-9 * n;
}

/* The circuit is well formed (the loader checks it too; the reference does not rely on
 * that): nodes in range, valve ports A and B and cylinder chambers are volumes, positive
 * sizes and coefficients, friction states within their limit. */
static int hyd_check(const hs_model *m, char *e, size_t n)
{
    int i, nn = m->nvol + m->nsrc, nfs = 0;
    if (m->nvol < 0 || m->nvol > HS_MAX_VOLS || m->nsrc < 0 || m->nsrc > HS_MAX_SRCS ||
        m->nthr < 0 || m->nthr > HS_MAX_THR || m->ndcv < 0 || m->ndcv > HS_MAX_DCV ||
        m->ncyl < 0 || m->ncyl > HS_MAX_CYLS)
        return fail(e, n, "planar reference: hydraulic sizes out of range");
    if (m->nvol > 0 && !(m->B_oil > 0.0))
        return fail(e, n, "planar reference: B_oil must be > 0");
    for (i = 0; i < m->nvol; ++i)
        if (!(m->vol_V[i] >= 0.0) || !(m->vol_B[i] > 0.0))
            return fail(e, n, "planar reference: volume %d needs V >= 0 and B > 0", i);
    for (i = 0; i < m->nthr; ++i)
        if (m->thr_a[i] < 0 || m->thr_a[i] >= nn || m->thr_b[i] < 0 || m->thr_b[i] >= nn ||
            !(m->thr_dplim[i] > 0.0))
            return fail(e, n, "planar reference: throttle %d: bad node or dp_lim", i);
    for (i = 0; i < m->ndcv; ++i) {
        if (m->dcv_P[i] < 0 || m->dcv_P[i] >= nn || m->dcv_T[i] < 0 || m->dcv_T[i] >= nn ||
            m->dcv_A[i] < 0 || m->dcv_A[i] >= m->nvol || m->dcv_B[i] < 0 ||
            m->dcv_B[i] >= m->nvol)
            return fail(e, n, "planar reference: valve %d: P, T must be nodes and A, B volumes",
                        i);
        if (!(m->dcv_tau[i] > 0.0) || !(m->dcv_dplim[i] > 0.0))
            return fail(e, n, "planar reference: valve %d needs tau > 0 and dp_lim > 0", i);
        if (m->dcv_sig[i] >= m->nsignal)
            return fail(e, n, "planar reference: valve %d: unknown signal", i);
    }
    for (i = 0; i < m->ncyl; ++i) {
        if (m->cyl_body_a[i] >= m->nbody || m->cyl_body_b[i] >= m->nbody ||
            m->cyl_body_a[i] < -1 || m->cyl_body_b[i] < -1)
            return fail(e, n, "planar reference: cylinder %d on an unknown body", i);
        if (m->cyl_vol_p[i] < 0 || m->cyl_vol_p[i] >= m->nvol || m->cyl_vol_r[i] < 0 ||
            m->cyl_vol_r[i] >= m->nvol || m->cyl_vol_p[i] == m->cyl_vol_r[i])
            return fail(e, n, "planar reference: cylinder %d: chambers must be two volumes", i);
        if (!(m->cyl_d_piston[i] > m->cyl_d_rod[i]) || !(m->cyl_d_rod[i] >= 0.0) ||
            !(m->cyl_B[i] > 0.0))
            return fail(e, n, "planar reference: cylinder %d: needs d_piston > d_rod >= 0 and "
                              "B_wall > 0",
                        i);
        if (m->cyl_fs0[i] != nfs || m->cyl_nfs[i] < 0)
            return fail(e, n, "planar reference: cylinder %d: friction states not in order", i);
        nfs += m->cyl_nfs[i];
    }
    if (m->ncmp < 0 || m->ncmp > HS_MAX_CMP) return fail(e, n, "planar reference: ncmp out of range");
    for (i = 0; i < m->ncmp; ++i) {
        int ports = hs_cmp_ports(m->cmp_type[i]);
        if (ports == 0 || m->cmp_a[i] < 0 || m->cmp_a[i] >= (ports == 1 ? m->nvol : nn) ||
            (ports >= 2 && (m->cmp_b[i] < 0 || m->cmp_b[i] >= nn)) ||
            ((ports == HS_PORTS_PILOT || ports == HS_PORTS_INPUTS) && (m->cmp_ref[i] < 0 || m->cmp_ref[i] >= nn)) ||
            (m->cmp_type[i] == HS_CMP_PUMP_LS && m->cmp_lsmask[i] == 0 && (m->cmp_ref[i] < 0 || m->cmp_ref[i] >= nn)))
            return fail(e, n, "planar reference: component %d: bad type or node", i);
        if (m->cmp_fs0[i] >= 0) {
            if (m->cmp_fs0[i] != nfs) return fail(e, n, "planar reference: component states not in order");
            nfs += m->cmp_dyn[i];
        }
        if (m->cmp_type[i] == HS_CMP_HOSE && m->cmp_dyn[i] > 1 &&
            (m->cmp_ref[i] < 0 || m->cmp_ref[i] + m->cmp_dyn[i] - 1 > m->nvol))
            return fail(e, n, "planar reference: hose %d: internal volumes out of range", i);
    }
    if (nfs != m->nfs || m->nfs > HS_MAX_FS)
        return fail(e, n, "planar reference: %d friction and component states, the cylinders and components "
                          "have %d",
                    m->nfs, nfs);
    return 0;
}

int hs_ida_planar_check(const hs_model *m, char *e, size_t n)
{
    int j, c, l;
    if (m->nbody < 1 || m->nbody > HS_MAX_BODIES)
        return fail(e, n, "planar reference: nbody = %d out of range", m->nbody);
    for (j = 0; j < m->nbody; ++j) {
        const double *R = m->joint_rot0[j];
        if (fabs(R[2]) > 1e-9 || fabs(R[5]) > 1e-9 || fabs(R[6]) > 1e-9 || fabs(R[7]) > 1e-9 ||
            fabs(R[8] - 1.0) > 1e-9)
            return fail(e, n,
                        "not planar: joint %d (child body %d) has a rot0 that is not a rotation "
                        "about z, so the body's z axis leaves the global z axis",
                        j, j);
        if (m->joint_type[j] == HS_JOINT_REVOLUTE) {
            if (!is_z(m->joint_axis[j], NULL))
                return fail(e, n,
                            "not planar: revolute joint %d has axis (%g, %g, %g) (parent "
                            "frame), not parallel to the global z axis",
                            j, m->joint_axis[j][0], m->joint_axis[j][1], m->joint_axis[j][2]);
        } else if (m->joint_type[j] == HS_JOINT_PRISMATIC) {
            if (!in_plane(m->joint_axis[j]))
                return fail(e, n,
                            "not planar: prismatic joint %d slides along (%g, %g, %g), not in "
                            "the x-y plane",
                            j, m->joint_axis[j][0], m->joint_axis[j][1], m->joint_axis[j][2]);
        } else {
            return fail(e, n, "planar reference: joint %d has unknown type %d", j,
                        m->joint_type[j]);
        }
        if (m->body_parent[j] >= j)
            return fail(e, n, "planar reference: body %d's parent %d does not precede it", j,
                        m->body_parent[j]);
        /* zero Izz (a point mass) is fine where the joints fix the angle; a singular
         * augmented matrix is reported by consistent() */
        if (!(m->body_mass[j] >= 0.0) || !(m->body_inertia[j][2] >= 0.0))
            return fail(e, n, "planar reference: body %d needs mass >= 0 and Izz >= 0", j);
    }
    for (c = 0; c < m->ncut; ++c) {
        int t = m->cut_type[c];
        if (t == HS_CUT_REVOLUTE_PLANAR) {
            if (!is_z(m->cut_axis_a[c], NULL) || !is_z(m->cut_axis_b[c], NULL))
                return fail(e, n, "not planar: revolute_planar cut %d has an axis not parallel "
                                  "to the global z axis",
                            c);
        } else if (t == HS_CUT_PRISMATIC_PLANAR) {
            if (!in_plane(m->cut_axis_a[c]) || !in_plane(m->cut_axis_b[c]) ||
                !is_z(m->cut_normal_b[c], NULL))
                return fail(e, n,
                            "not planar: prismatic_planar cut %d needs slide axes in the x-y "
                            "plane and plane normal parallel to z",
                            c);
        } else {
            return fail(e, n,
                        "planar reference: cut %d is a spatial %s cut; the planar reference "
                        "supports revolute_planar and prismatic_planar cuts only",
                        c, t == HS_CUT_REVOLUTE ? "revolute" : "prismatic");
        }
    }
    for (l = 0; l < m->nload; ++l)
        if (m->load_body[l] >= m->nbody)
            return fail(e, n, "planar reference: load %d on unknown body %d", l,
                        m->load_body[l]);
    return hyd_check(m, e, n);
}

/* ------------------------------------------------------------------ building the system */

/* point c (3-vector, body frame of b) relative to b's com; ground: the global point */
static void rel_com(const ref_sys *S, int b, const double *c, double s[2])
{
    s[0] = c[0] - (b >= 0 ? S->com[b][0] : 0.0);
    s[1] = c[1] - (b >= 0 ? S->com[b][1] : 0.0);
}

static pcon *add_pc(ref_sys *S, int type, int a, int b)
{
    pcon *p = &S->pc[S->npc++];
    memset(p, 0, sizeof *p);
    p->type = type;
    p->a = a;
    p->b = b;
    p->row = S->nc;
    S->nc += type == PC_POINT ? 2 : 1;
    return p;
}

static void unit2(const double *a, double u[2])
{
    double nn = sqrt(a[0] * a[0] + a[1] * a[1]);
    u[0] = a[0] / nn;
    u[1] = a[1] / nn;
}

static void build_sys(ref_sys *S, const hs_model *m)
{
    int j, c;
    S->m = m;
    S->nb = m->nbody;
    S->nq = 3 * m->nbody;
    S->nc = 0;
    S->npc = 0;
    for (j = 0; j < m->nbody; ++j) {
        S->mass[j] = m->body_mass[j];
        S->izz[j] = m->body_inertia[j][2];
        S->com[j][0] = m->body_com[j][0];
        S->com[j][1] = m->body_com[j][1];
        S->beta[j] = atan2(m->joint_rot0[j][3], m->joint_rot0[j][0]);
        S->jsign[j] = 1;
        if (m->joint_type[j] == HS_JOINT_REVOLUTE) is_z(m->joint_axis[j], &S->jsign[j]);
    }
    /* tree joints */
    for (j = 0; j < m->nbody; ++j) {
        int p = m->body_parent[j];
        pcon *k;
        if (m->joint_type[j] == HS_JOINT_REVOLUTE) {
            k = add_pc(S, PC_POINT, p, j);
            rel_com(S, p, m->joint_at_parent[j], k->sa);
            rel_com(S, j, m->joint_at_child[j], k->sb);
        } else {
            double ax[2];
            k = add_pc(S, PC_ANGLE, p, j);
            k->c = S->beta[j];
            k = add_pc(S, PC_LINE, p, j);
            rel_com(S, p, m->joint_at_parent[j], k->sa);
            rel_com(S, j, m->joint_at_child[j], k->sb);
            unit2(m->joint_axis[j], ax);
            k->u[0] = -ax[1]; /* e_z x axis */
            k->u[1] = ax[0];
        }
    }
    /* cut joints */
    for (c = 0; c < m->ncut; ++c) {
        int a = m->cut_body_a[c], b = m->cut_body_b[c];
        pcon *k;
        if (m->cut_type[c] == HS_CUT_REVOLUTE_PLANAR) {
            k = add_pc(S, PC_POINT, a, b);
            rel_com(S, a, m->cut_at_a[c], k->sa);
            rel_com(S, b, m->cut_at_b[c], k->sb);
        } else { /* prismatic_planar: slide directions parallel, point at_a on b's line */
            double ab[2];
            k = add_pc(S, PC_PARALLEL, a, b);
            unit2(m->cut_axis_a[c], k->u);
            unit2(m->cut_axis_b[c], k->w);
            k = add_pc(S, PC_LINE, b, a); /* the line belongs to b */
            rel_com(S, b, m->cut_at_b[c], k->sa);
            rel_com(S, a, m->cut_at_a[c], k->sb);
            unit2(m->cut_axis_b[c], ab);
            k->u[0] = -ab[1];
            k->u[1] = ab[0];
        }
    }
    /* hydraulics */
    {
        double zo[RB] = {0.0}; /* global z of the body origins (constant in planar motion) */
        int i, hyd = m->nvol > 0 || m->ndcv > 0 || m->ncyl > 0 || m->nfs > 0;
        for (j = 0; j < m->nbody; ++j) {
            int p = m->body_parent[j];
            zo[j] = (p >= 0 ? zo[p] : 0.0) + m->joint_at_parent[j][2] - m->joint_at_child[j][2];
        }
        for (c = 0; c < m->ncyl; ++c) {
            int a = m->cyl_body_a[c], b = m->cyl_body_b[c];
            double dp = m->cyl_d_piston[c], dr = m->cyl_d_rod[c];
            rel_com(S, a, m->cyl_at_a[c], S->cyl_sa[c]);
            rel_com(S, b, m->cyl_at_b[c], S->cyl_sb[c]);
            S->cyl_dz[c] = ((b >= 0 ? zo[b] : 0.0) + m->cyl_at_b[c][2]) -
                           ((a >= 0 ? zo[a] : 0.0) + m->cyl_at_a[c][2]);
            S->cyl_Ap[c] = 0.25 * M_PI_REF * dp * dp;
            S->cyl_Ar[c] = 0.25 * M_PI_REF * (dp * dp - dr * dr);
        }
        for (i = 0; i < m->nthr; ++i) /* Cd A sqrt(2/rho) (seed 000 eq. 25) unless given */
            S->thr_Cv[i] = m->thr_Cv_given[i] > 0.0 ? m->thr_Cv_given[i]
                                                    : m->thr_Cd[i] * m->thr_A[i] * sqrt(2.0 / m->rho);
        S->nh = hyd ? m->nvol + m->ndcv + m->nfs + 1 : 0;
        S->ip = 2 * S->nq + S->nc + 1;
        S->iu = S->ip + m->nvol;
        S->ifs = S->iu + m->ndcv;
        S->iwc = S->ifs + m->nfs;
    }
    S->ny = 2 * S->nq + S->nc + 1 + S->nh;
}

/* ------------------------------------------------------------------ Phi, Phi_q, gamma */

/* Phi (phi), Phi_q (J: nc x nq row-major) and gamma = Phi'' at v' = 0 (gam); any may be
 * NULL. v is needed for gam only. */
static void sys_constraints(const ref_sys *S, const double *q, const double *v, double *phi,
                            double *J, double *gam)
{
    int i, nq = S->nq;
    if (J)
        for (i = 0; i < S->nc * nq; ++i) J[i] = 0.0;
    for (i = 0; i < S->npc; ++i) {
        const pcon *p = &S->pc[i];
        int a = p->a, b = p->b, r = p->row, k;
        double ra[2], rsa[2], ersa[2], rb[2], rsb[2], ersb[2];
        double wa = v ? angv(v, a) : 0.0, wb = v ? angv(v, b) : 0.0;
        switch (p->type) {
        case PC_POINT:
            body_point(q, a, p->sa, ra, rsa, ersa);
            body_point(q, b, p->sb, rb, rsb, ersb);
            for (k = 0; k < 2; ++k) {
                if (phi) phi[r + k] = ra[k] - rb[k];
                if (J) {
                    if (a >= 0) {
                        J[(r + k) * nq + 3 * a + k] += 1.0;
                        J[(r + k) * nq + 3 * a + 2] += ersa[k];
                    }
                    if (b >= 0) {
                        J[(r + k) * nq + 3 * b + k] -= 1.0;
                        J[(r + k) * nq + 3 * b + 2] -= ersb[k];
                    }
                }
                if (gam) gam[r + k] = -wa * wa * rsa[k] + wb * wb * rsb[k];
            }
            break;
        case PC_ANGLE:
            if (phi) phi[r] = ang(q, b) - ang(q, a) - p->c;
            if (J) {
                if (a >= 0) J[r * nq + 3 * a + 2] -= 1.0;
                if (b >= 0) J[r * nq + 3 * b + 2] += 1.0;
            }
            if (gam) gam[r] = 0.0;
            break;
        case PC_LINE: {
            double nn[2], en[2], d[2], va[2], vb[2], dd[2];
            body_point(q, a, p->sa, ra, rsa, ersa);
            body_point(q, b, p->sb, rb, rsb, ersb);
            rot2(ang(q, a), p->u, nn);
            en[0] = -nn[1];
            en[1] = nn[0];
            d[0] = rb[0] - ra[0];
            d[1] = rb[1] - ra[1];
            if (phi) phi[r] = dot2(nn, d);
            if (J) {
                if (a >= 0) {
                    J[r * nq + 3 * a] -= nn[0];
                    J[r * nq + 3 * a + 1] -= nn[1];
                    J[r * nq + 3 * a + 2] += dot2(en, d) - dot2(nn, ersa);
                }
                if (b >= 0) {
                    J[r * nq + 3 * b] += nn[0];
                    J[r * nq + 3 * b + 1] += nn[1];
                    J[r * nq + 3 * b + 2] += dot2(nn, ersb);
                }
            }
            if (gam) {
                point_vel(v, a, ersa, va);
                point_vel(v, b, ersb, vb);
                dd[0] = vb[0] - va[0];
                dd[1] = vb[1] - va[1];
                /* n'' d + 2 n' d' + n d'' at v' = 0: n' = wa E n, n'' = -wa^2 n,
                 * d'' = -wb^2 R_b sb + wa^2 R_a sa */
                gam[r] = -wa * wa * dot2(nn, d) + 2.0 * wa * dot2(en, dd) +
                         dot2(nn, rsa) * wa * wa - dot2(nn, rsb) * wb * wb;
            }
            break;
        }
        default: { /* PC_PARALLEL */
            double u[2], w[2], sn, cs;
            rot2(ang(q, a), p->u, u);
            rot2(ang(q, b), p->w, w);
            sn = cross2(u, w);
            cs = dot2(u, w);
            if (phi) phi[r] = sn;
            if (J) {
                if (a >= 0) J[r * nq + 3 * a + 2] -= cs;
                if (b >= 0) J[r * nq + 3 * b + 2] += cs;
            }
            if (gam) gam[r] = -sn * (wb - wa) * (wb - wa);
            break;
        }
        }
    }
}

/* ------------------------------------------------------------------ forces, energy */

static double sig_value(const ref_sys *S, int k, double t)
{
    if (k < 0) return hs_signal_eval(S->m, k, t); /* no signal: the constant factor */
    return S->sig_v0[k] + S->sig_slope[k] * (t - S->seg_t0);
}

/* Each signal as the straight line it is on [t0, t1] (no knot strictly inside). */
static void seg_setup(ref_sys *S, double t0, double t1)
{
    int k;
    double tm = t0 + 0.5 * (t1 - t0);
    S->seg_t0 = t0;
    for (k = 0; k < S->m->nsignal; ++k) {
        S->sig_v0[k] = hs_signal_eval(S->m, k, t0);
        S->sig_slope[k] =
            tm > t0 ? (hs_signal_eval(S->m, k, tm) - S->sig_v0[k]) / (tm - t0) : 0.0;
    }
}

/* Node n's pressure (a volume's state or a source's setting). */
static double node_p(const hs_model *m, const double *p, int n)
{
    return n < m->nvol ? p[n] : m->src_p[n - m->nvol];
}

/* A flow Q from node na to node nb (its element's law: the volume flow at the upstream node),
 * into qin as the mass it carries: with entrained air in units of the mixture's density at
 * p_atm, Q rho(p_up) (rho = 1 / hs_mix_volume, the law of kernels/hs_fluid.h); without, Q. */
static void ref_edge(const hs_model *m, const double *p, int na, int nb, double Q, double *qin)
{
    if (m->air_fraction > 0.0) {
        double k, pu = Q >= 0.0 ? node_p(m, p, na) : node_p(m, p, nb);
        Q /= hs_mix_volume(m->air_fraction, m->air_n, m->B_oil, m->p_vapour, pu, &k);
    }
    if (na < m->nvol) qin[na] -= Q;
    if (nb < m->nvol) qin[nb] += Q;
}

/* Everything hydraulic at (t, q, v) and the hydraulic block x = y + S->ip = [p, U, fs, W_cyl]
 * (see the header of this file): cylinder geometry and forces, and in H->rate the
 * derivatives p', U', fs', W_cyl'. v may be NULL (then s' = 0: geometry and static forces). */
static void sys_hydraulics(const ref_sys *S, double t, const double *q, const double *v,
                           const double *x, ref_hyd *H)
{
    const hs_model *m = S->m;
    const double *p = x, *U = x + (S->iu - S->ip), *fs = x + (S->ifs - S->ip);
    double *pd = H->rate, *Ud = H->rate + (S->iu - S->ip), *fsd = H->rate + (S->ifs - S->ip);
    double qin[HS_MAX_VOLS], Vch[HS_MAX_VOLS], dVch[HS_MAX_VOLS], cw[HS_MAX_VOLS], cacc[HS_MAX_VOLS];
    int c, i, k;
    H->Pcyl = 0.0;
    for (k = 0; k < m->nvol; ++k) qin[k] = Vch[k] = dVch[k] = cw[k] = cacc[k] = 0.0;
    for (c = 0; c < m->ncyl; ++c) {
        int a = m->cyl_body_a[c], b = m->cyl_body_b[c], vp = m->cyl_vol_p[c],
            vr = m->cyl_vol_r[c];
        double ra[2], rb[2], ea[2], eb[2], d[2], s, sd = 0.0, Ap = S->cyl_Ap[c],
                                                 Ar = S->cyl_Ar[c], Fp, lp, lr;
        body_point(q, a, S->cyl_sa[c], ra, H->rsa[c], ea);
        body_point(q, b, S->cyl_sb[c], rb, H->rsb[c], eb);
        d[0] = rb[0] - ra[0];
        d[1] = rb[1] - ra[1];
        s = sqrt(d[0] * d[0] + d[1] * d[1] + S->cyl_dz[c] * S->cyl_dz[c]);
        H->e[c][0] = d[0] / s;
        H->e[c][1] = d[1] / s;
        if (v) {
            double va[2], vb[2];
            point_vel(v, a, ea, va);
            point_vel(v, b, eb, vb);
            sd = H->e[c][0] * (vb[0] - va[0]) + H->e[c][1] * (vb[1] - va[1]);
        }
        H->s[c] = s;
        H->sd[c] = sd;
        lp = m->cyl_l_p0[c] + (s - S->s0[c]);
        lr = m->cyl_stroke[c] - lp;
        H->lp[c] = lp;
        H->lr[c] = lr;
        Vch[vp] += Ap * lp;
        Vch[vr] += Ar * lr;
        dVch[vp] += Ap * sd; /* the piston side grows on extension */
        dVch[vr] -= Ar * sd;
        cw[vp] += Ap * lp / m->cyl_B[c];
        cw[vr] += Ar * lr / m->cyl_B[c];
        Fp = p[vp] * Ap - p[vr] * Ar;
        H->Ffric[c] = hs_friction_force(m, c, sd, fs + m->cyl_fs0[c], Fp, fsd + m->cyl_fs0[c]);
        H->F[c] = Fp - H->Ffric[c] + hs_end_damper(m, c, lp, lr, sd);
        H->Pcyl += H->F[c] * sd;
    }
    for (i = 0; i < m->nthr; ++i) {
        int na = m->thr_a[i], nb = m->thr_b[i];
        double pa = na < m->nvol ? p[na] : m->src_p[na - m->nvol];
        double pb = nb < m->nvol ? p[nb] : m->src_p[nb - m->nvol];
        ref_edge(m, p, na, nb, hs_orifice_flow(S->thr_Cv[i], pa - pb, m->thr_dplim[i]), qin);
    }
    for (i = 0; i < m->ndcv; ++i) {
        int nP = m->dcv_P[i], nT = m->dcv_T[i], nA = m->dcv_A[i], nB = m->dcv_B[i];
        double pP = nP < m->nvol ? p[nP] : m->src_p[nP - m->nvol];
        double pT = nT < m->nvol ? p[nT] : m->src_p[nT - m->nvol];
        double pA = p[nA], pB = p[nB], u = U[i], Cv = m->dcv_Cv[i], lim = m->dcv_dplim[i];
        double q1, q2; /* P -> (A or B), (B or A) -> T */
        double uref = m->dcv_sig[i] >= 0 ? sig_value(S, m->dcv_sig[i], t) : 0.0;
        if (m->dcv_kind[i] != HS_DCV_DIRECTIONAL) { /* a seat valve: P -> A by x, (3/2) A -> T by 1 - x */
            double x = u < 0.0 ? 0.0 : u > 1.0 ? 1.0 : u;
            q1 = hs_orifice_flow(Cv * x, pP - pA, lim);
            q2 = m->dcv_kind[i] == HS_DCV_SEAT_3_2 ? hs_orifice_flow(Cv * (1.0 - x), pA - pT, lim) : 0.0;
            ref_edge(m, p, nP, nA, q1, qin);
            ref_edge(m, p, nA, nT, q2, qin);
        } else if (u >= 0.0) { /* P -> A, B -> T */
            q1 = m->dcv_dpcomp[i] > 0.0 ? hs_compensated_edge(Cv * m->dcv_kpath[i][0] * u, m->dcv_dpcomp[i], lim, pP - pA)
                                        : hs_orifice_flow(Cv * m->dcv_kpath[i][0] * u, pP - pA, lim);
            q2 = hs_orifice_flow(Cv * m->dcv_kpath[i][1] * u, pB - pT, lim);
            ref_edge(m, p, nP, nA, q1, qin);
            ref_edge(m, p, nB, nT, q2, qin);
        } else { /* P -> B, A -> T */
            q1 = m->dcv_dpcomp[i] > 0.0 ? hs_compensated_edge(-Cv * m->dcv_kpath[i][2] * u, m->dcv_dpcomp[i], lim, pP - pB)
                                        : hs_orifice_flow(-Cv * m->dcv_kpath[i][2] * u, pP - pB, lim);
            q2 = hs_orifice_flow(-Cv * m->dcv_kpath[i][3] * u, pA - pT, lim);
            ref_edge(m, p, nP, nB, q1, qin);
            ref_edge(m, p, nA, nT, q2, qin);
        }
        Ud[i] = (uref - u) / m->dcv_tau[i];
    }
    for (i = 0; i < m->ncmp; ++i) { /* the components: only their laws are the engine's */
        const double *par = m->cmp_par[i];
        int na = m->cmp_a[i], nb = m->cmp_b[i], kf = m->cmp_fs0[i], ty = m->cmp_type[i];
        double pa, pb, Q, x, vg;
        H->Tm[i] = 0.0;
        if (ty == HS_CMP_ACCUMULATOR) { /* the gas's capacitance on its volume */
            cacc[na] += hs_accumulator_capacitance(par, m->B_oil, p[na], &vg);
            if (m->air_fraction > 0.0) { /* the oil it holds at the mixture's compressibility */
                double kap;
                (void)hs_mix_volume(m->air_fraction, m->air_n, m->B_oil, m->p_vapour, p[na], &kap);
                cacc[na] += (par[HS_CP_AC_V0] - vg) * (kap - 1.0 / m->B_oil);
            }
            continue;
        }
        if (ty == HS_CMP_HOSE) { /* the line: node j - 1 -> node j through segment j, half a
                                    segment's oil at each end (its internal volumes are volumes) */
            double A = 0.25 * M_PI_REF * par[HS_CP_HO_D] * par[HS_CP_HO_D];
            double vh = 0.5 * A * par[HS_CP_HO_L] / m->cmp_dyn[i], ch = vh * (1.0 / m->B_oil + 1.0 / par[HS_CP_HO_BW]);
            int j, n0 = na;
            if (m->air_fraction > 0.0) { /* each end's half segment at its own pressure */
                double ka, kb;
                if (na < m->nvol) {
                    (void)hs_mix_volume(m->air_fraction, m->air_n, m->B_oil, m->p_vapour, p[na], &ka);
                    cacc[na] += vh * (ka + 1.0 / par[HS_CP_HO_BW]);
                }
                if (nb < m->nvol) {
                    (void)hs_mix_volume(m->air_fraction, m->air_n, m->B_oil, m->p_vapour, p[nb], &kb);
                    cacc[nb] += vh * (kb + 1.0 / par[HS_CP_HO_BW]);
                }
            } else {
                if (na < m->nvol) cacc[na] += ch;
                if (nb < m->nvol) cacc[nb] += ch;
            }
            for (j = 0; j < m->cmp_dyn[i]; ++j) {
                int n1 = j + 1 < m->cmp_dyn[i] ? m->cmp_ref[i] + j : nb;
                double p0 = n0 < m->nvol ? p[n0] : m->src_p[n0 - m->nvol];
                double p1 = n1 < m->nvol ? p[n1] : m->src_p[n1 - m->nvol];
                fsd[kf + j] = hs_hose_accel(par, m->rho, p0 - p1, fs[kf + j]);
                ref_edge(m, p, n0, n1, A * fs[kf + j], qin);
                n0 = n1;
            }
            continue;
        }
        pa = na < m->nvol ? p[na] : m->src_p[na - m->nvol];
        pb = nb < m->nvol ? p[nb] : m->src_p[nb - m->nvol];
        if (ty == HS_CMP_RELIEF) {
            x = hs_relief_opening(par, pa - pb);
            if (kf >= 0) { /* the poppet lags: x' = (x_ss - x) / tau */
                fsd[kf] = (x - fs[kf]) / par[HS_CP_RV_TAU];
                x = fs[kf];
            }
            Q = par[HS_CP_RV_QNOM] * x + par[HS_CP_RV_GL] * (pa - pb);
        } else if (hs_cmp_is_pilot_valve(ty)) { /* the pilot (or second input) node's pressure */
            int r = m->cmp_ref[i];
            double px = r < 0 ? pa : r < m->nvol ? p[r] : m->src_p[r - m->nvol], q2;
            x = hs_pilot_opening(ty, par, pa, pb, px);
            if (kf >= 0) { /* the spool lags: x' = (x_ss - x) / tau */
                fsd[kf] = (x - fs[kf]) / par[hs_cmp_tau_slot(ty)];
                x = fs[kf];
            }
            Q = hs_pilot_flow(ty, par, x, pa, pb, px, &q2);
            if (ty == HS_CMP_SHUTTLE) ref_edge(m, p, r, nb, q2, qin); /* its second input's seat, r -> b */
        } else if (ty == HS_CMP_CHECK) {
            Q = hs_check_flow(par, pa - pb);
        } else if (ty == HS_CMP_FLOW_CONTROL) {
            Q = hs_flow_control_flow(par, pa - pb);
        } else if (ty == HS_CMP_PUMP) {
            Q = hs_pump_flow(par, 1.0, pb - pa);
        } else if (ty == HS_CMP_MOTOR) { /* the joint's rate from the absolute angular rates, its
                                            axis +-z (planar): u_z (w_body - w_parent) */
            int jb = m->cmp_ref[i], jp = m->body_parent[jb];
            double wr = v ? m->joint_u[jb][2] * (v[3 * jb + 2] - (jp >= 0 ? v[3 * jp + 2] : 0.0)) : 0.0;
            Q = hs_motor_flow(par, pa - pb, wr);
            H->Tm[i] = hs_motor_torque(par, pa - pb, wr);
            H->Pcyl += H->Tm[i] * wr;
        } else { /* a variable pump: its stroke fs[kf] follows eps_ss */
            int r = m->cmp_ref[i];
            double pref = par[HS_CP_PU_PREF];
            if (ty == HS_CMP_PUMP_LS && m->cmp_lsmask[i]) { /* the shuttle network: the sections'
                                                               sensed pressures, in turn */
                int v, first = 1;
                double best = 0.0;
                for (v = 0; v < m->ndcv; ++v)
                    if ((m->cmp_lsmask[i] >> v) & 1) {
                        double pT = m->dcv_T[v] < m->nvol ? p[m->dcv_T[v]] : m->src_p[m->dcv_T[v] - m->nvol];
                        double pw = U[v] >= 0.0 ? p[m->dcv_A[v]] : p[m->dcv_B[v]];
                        double ps = pT + hs_ls_open(U[v] / m->dcv_Uls[v]) * (pw - pT);
                        best = first ? ps : hs_smooth_max(best, ps, HS_LS_MAX_SMOOTH);
                        first = 0;
                    }
                pref += best;
            } else if (ty == HS_CMP_PUMP_LS) {
                pref += r < m->nvol ? p[r] : m->src_p[r - m->nvol];
            }
            fsd[kf] = (hs_pump_eps_ss(par, pb, pref) - fs[kf]) / par[HS_CP_PU_TAU];
            Q = hs_pump_flow(par, fs[kf], pb - pa);
        }
        ref_edge(m, p, na, nb, Q, qin);
    }
    for (k = 0; k < m->nvol; ++k) {
        double V = m->vol_V[k] + Vch[k];
        double iBe = 1.0 / m->B_oil + m->vol_V[k] / (V * m->vol_B[k]) + cw[k] / V;
        if (m->air_fraction > 0.0) { /* d(V / v)/dt = mass in: (V kappa) p' = v (mass in) - V' */
            double kap, vk = hs_mix_volume(m->air_fraction, m->air_n, m->B_oil, m->p_vapour, p[k], &kap);
            qin[k] *= vk;
            iBe += kap - 1.0 / m->B_oil;
        }
        pd[k] = (qin[k] - dVch[k]) / (iBe * V + cacc[k]);
    }
    if (S->nh > 0) H->rate[S->iwc - S->ip] = H->Pcyl;
}

/* Generalised forces Q (nq): gravity, the external loads and, with H (may be NULL), the
 * cylinder forces of sys_hydraulics; *P: the power of the loads and the cylinders. */
static void sys_forces(const ref_sys *S, double t, const double *q, const double *v,
                       const ref_hyd *H, double *Q, double *P)
{
    const hs_model *m = S->m;
    int j, l;
    double pw = 0.0;
    for (j = 0; j < S->nb; ++j) {
        Q[3 * j] = S->mass[j] * m->gravity[0];
        Q[3 * j + 1] = S->mass[j] * m->gravity[1];
        Q[3 * j + 2] = 0.0;
    }
    for (l = 0; l < m->nload; ++l) {
        int b = m->load_body[l];
        double sf, st, f[2], tq, s[2], r[2], rs[2], ers[2], rv[2];
        if (b < 0) continue; /* on ground: moves nothing */
        sf = sig_value(S, m->load_force_sig[l], t);
        st = sig_value(S, m->load_torque_sig[l], t);
        if (m->load_frame[l] == HS_FRAME_BODY) rot2(q[3 * b + 2], m->load_force_dir[l], f);
        else {
            f[0] = m->load_force_dir[l][0];
            f[1] = m->load_force_dir[l][1];
        }
        f[0] *= sf;
        f[1] *= sf;
        tq = m->load_torque_dir[l][2] * st; /* z component: the same in body and global */
        rel_com(S, b, m->load_at[l], s);
        body_point(q, b, s, r, rs, ers);
        Q[3 * b] += f[0];
        Q[3 * b + 1] += f[1];
        Q[3 * b + 2] += cross2(rs, f) + tq;
        if (v) {
            point_vel(v, b, ers, rv);
            pw += dot2(f, rv) + tq * v[3 * b + 2];
        }
    }
    if (H) {
        int c;
        for (c = 0; c < m->ncyl; ++c) {
            int a = m->cyl_body_a[c], b = m->cyl_body_b[c];
            double f[2];
            f[0] = H->F[c] * H->e[c][0];
            f[1] = H->F[c] * H->e[c][1];
            if (b >= 0) {
                Q[3 * b] += f[0];
                Q[3 * b + 1] += f[1];
                Q[3 * b + 2] += cross2(H->rsb[c], f);
            }
            if (a >= 0) {
                Q[3 * a] -= f[0];
                Q[3 * a + 1] -= f[1];
                Q[3 * a + 2] -= cross2(H->rsa[c], f);
            }
        }
        for (c = 0; c < m->ncmp; ++c) /* a motor: equal and opposite torques u_z T on its body and
                                          the parent */
            if (m->cmp_type[c] == HS_CMP_MOTOR) {
                int jb = m->cmp_ref[c], jp = m->body_parent[jb];
                double tq = m->joint_u[jb][2] * H->Tm[c];
                Q[3 * jb + 2] += tq;
                if (jp >= 0) Q[3 * jp + 2] -= tq;
            }
        pw += H->Pcyl;
    }
    if (P) *P = pw;
}

static double sys_energy(const ref_sys *S, const double *q, const double *v)
{
    const double *g = S->m->gravity;
    double E = 0.0;
    int j;
    for (j = 0; j < S->nb; ++j) {
        const double *qj = q + 3 * j, *vj = v + 3 * j;
        E += 0.5 * S->mass[j] * (vj[0] * vj[0] + vj[1] * vj[1]) + 0.5 * S->izz[j] * vj[2] * vj[2];
        E -= S->mass[j] * (g[0] * qj[0] + g[1] * qj[1]);
    }
    return E;
}

/* ------------------------------------------------------------------ tree <-> absolute */

/* Absolute q, v of every body from the relative joint coordinates z, zd: angles add along
 * the tree (plus rot0's angle), positions follow from the joint points. */
static void tree_to_abs(const ref_sys *S, const double *z, const double *zd, double *q, double *v)
{
    const hs_model *m = S->m;
    int j;
    for (j = 0; j < S->nb; ++j) {
        int p = m->body_parent[j], rev = m->joint_type[j] == HS_JOINT_REVOLUTE;
        double c[3], s[2], o[2], od[2], rs[2], ers[2], th, w, e[2], re[2];
        c[0] = m->joint_at_parent[j][0];
        c[1] = m->joint_at_parent[j][1];
        c[2] = 0.0;
        if (!rev) {
            double ax[2];
            unit2(m->joint_axis[j], ax);
            c[0] += ax[0] * z[j];
            c[1] += ax[1] * z[j];
        }
        rel_com(S, p, c, s);
        body_point(q, p, s, o, rs, ers);
        point_vel(v, p, ers, od);
        if (!rev) {
            double ax[2], a[2];
            unit2(m->joint_axis[j], ax);
            rot2(ang(q, p), ax, a);
            od[0] += a[0] * zd[j];
            od[1] += a[1] * zd[j];
        }
        th = ang(q, p) + S->beta[j] + (rev ? S->jsign[j] * z[j] : 0.0);
        w = angv(v, p) + (rev ? S->jsign[j] * zd[j] : 0.0);
        e[0] = S->com[j][0] - m->joint_at_child[j][0];
        e[1] = S->com[j][1] - m->joint_at_child[j][1];
        rot2(th, e, re);
        q[3 * j] = o[0] + re[0];
        q[3 * j + 1] = o[1] + re[1];
        q[3 * j + 2] = th;
        v[3 * j] = od[0] - w * re[1];
        v[3 * j + 1] = od[1] + w * re[0];
        v[3 * j + 2] = w;
    }
}

/* The relative joint coordinates (and rates, if zd) of an absolute state. */
static void abs_to_tree(const ref_sys *S, const double *q, const double *v, double *z, double *zd)
{
    const hs_model *m = S->m;
    int j;
    for (j = 0; j < S->nb; ++j) {
        int p = m->body_parent[j];
        if (m->joint_type[j] == HS_JOINT_REVOLUTE) {
            z[j] = S->jsign[j] * (q[3 * j + 2] - ang(q, p) - S->beta[j]);
            if (zd) zd[j] = S->jsign[j] * (v[3 * j + 2] - angv(v, p));
        } else { /* slide of the child's at_child from the parent's at_parent along the axis */
            double ax[2], a[2], sp[2], sc[2], rp[2], rc[2], rs[2], ersp[2], ersc[2], d[2];
            unit2(m->joint_axis[j], ax);
            rot2(ang(q, p), ax, a);
            rel_com(S, p, m->joint_at_parent[j], sp);
            rel_com(S, j, m->joint_at_child[j], sc);
            body_point(q, p, sp, rp, rs, ersp);
            body_point(q, j, sc, rc, rs, ersc);
            d[0] = rc[0] - rp[0];
            d[1] = rc[1] - rp[1];
            z[j] = dot2(a, d);
            if (zd) {
                double vp[2], vc[2], wp = angv(v, p);
                point_vel(v, p, ersp, vp);
                point_vel(v, j, ersc, vc);
                zd[j] = wp * (-a[1] * d[0] + a[0] * d[1]) + a[0] * (vc[0] - vp[0]) +
                        a[1] * (vc[1] - vp[1]);
            }
        }
    }
}

/* ------------------------------------------------------------------ DAE residual */

static int res_fn(sunrealtype t, N_Vector yy, N_Vector yp, N_Vector rr, void *ud)
{
    ref_sys *S = (ref_sys *)ud;
    const double *y = N_VGetArrayPointer(yy), *yd = N_VGetArrayPointer(yp);
    double *r = N_VGetArrayPointer(rr);
    int nq = S->nq, nc = S->nc, i, e, j;
    const double *q = y, *v = y + nq, *lam = y + 2 * nq, *vd = yd + nq;
    double P;
    sys_constraints(S, q, v, NULL, S->J, S->gam);
    if (S->nh > 0) sys_hydraulics(S, t, q, v, y + S->ip, &S->H);
    sys_forces(S, t, q, v, S->nh > 0 ? &S->H : NULL, S->Q, &P);
    for (i = 0; i < nq; ++i) r[i] = yd[i] - v[i];
    for (j = 0; j < S->nb; ++j) {
        r[nq + 3 * j] = S->mass[j] * vd[3 * j] - S->Q[3 * j];
        r[nq + 3 * j + 1] = S->mass[j] * vd[3 * j + 1] - S->Q[3 * j + 1];
        r[nq + 3 * j + 2] = S->izz[j] * vd[3 * j + 2] - S->Q[3 * j + 2];
    }
    for (e = 0; e < nc; ++e)
        for (i = 0; i < nq; ++i) r[nq + i] += S->J[e * nq + i] * lam[e];
    for (e = 0; e < nc; ++e) {
        double s = S->gam[e];
        for (i = 0; i < nq; ++i) s += S->J[e * nq + i] * vd[i];
        r[2 * nq + e] = s;
    }
    r[2 * nq + nc] = yd[2 * nq + nc] - P;
    for (i = 0; i < S->nh; ++i) r[S->ip + i] = yd[S->ip + i] - S->H.rate[i];
    return 0;
}

/* Consistent derivatives at (t, q, v, hydraulic states): q' = v, and v', lambda from
 * [M Phi_q^T; Phi_q 0] [v'; lambda] = [Q; -gamma] (LAPACK dgesv); W' = P_ext + P_cyl; the
 * hydraulic states' derivatives from their (explicit) equations. */
static int consistent(ref_sys *S, double t, double *y, double *yd, char *err, size_t n)
{
    int nq = S->nq, nc = S->nc, N = nq + nc, one = 1, info = 0, i, e;
    double P;
    const double *q = y, *v = y + nq;
    sys_constraints(S, q, v, NULL, S->J, S->gam);
    if (S->nh > 0) sys_hydraulics(S, t, q, v, y + S->ip, &S->H);
    sys_forces(S, t, q, v, S->nh > 0 ? &S->H : NULL, S->Q, &P);
    for (i = 0; i < N * N; ++i) S->A[i] = 0.0;
    for (i = 0; i < nq; ++i) S->A[i + i * N] = (i % 3 == 2) ? S->izz[i / 3] : S->mass[i / 3];
    for (e = 0; e < nc; ++e)
        for (i = 0; i < nq; ++i) {
            S->A[i + (nq + e) * N] = S->J[e * nq + i]; /* column-major */
            S->A[(nq + e) + i * N] = S->J[e * nq + i];
        }
    for (i = 0; i < nq; ++i) S->rhs[i] = S->Q[i];
    for (e = 0; e < nc; ++e) S->rhs[nq + e] = -S->gam[e];
    dgesv_(&N, &one, S->A, &N, S->piv, S->rhs, &N, &info);
    if (info != 0)
        return fail(err, n,
                    "planar reference: singular augmented matrix at t = %g (dgesv info %d): "
                    "redundant constraints or a singular configuration",
                    t, info);
    for (i = 0; i < nq; ++i) {
        yd[i] = v[i];
        yd[nq + i] = S->rhs[i];
    }
    for (e = 0; e < nc; ++e) {
        y[2 * nq + e] = S->rhs[nq + e];
        yd[2 * nq + e] = 0.0;
    }
    yd[2 * nq + nc] = P;
    for (i = 0; i < S->nh; ++i) yd[S->ip + i] = S->H.rate[i]; /* p', U', fs', W_cyl' */
    return 0;
}

/* ------------------------------------------------------------------ driver */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Knot times of the signals that drive loads and valves, strictly inside (0, tend), sorted, unique. */
static int breakpoints(const hs_model *m, double tend, double *bp)
{
    int l, k, nb = 0, out = 0;
    unsigned char used[HS_MAX_SIGNALS];
    memset(used, 0, sizeof used);
    for (l = 0; l < m->nload; ++l) {
        if (m->load_force_sig[l] >= 0) used[m->load_force_sig[l]] = 1;
        if (m->load_torque_sig[l] >= 0) used[m->load_torque_sig[l]] = 1;
    }
    for (l = 0; l < m->ndcv; ++l)
        if (m->dcv_sig[l] >= 0) used[m->dcv_sig[l]] = 1;
    for (k = 0; k < m->nsignal; ++k) {
        int i;
        if (!used[k]) continue;
        for (i = 0; i < m->sig_n[k]; ++i) {
            double t = m->knot_t[m->sig_start[k] + i];
            if (t > 1e-12 && t < tend && nb < HS_MAX_KNOTS) bp[nb++] = t;
        }
    }
    qsort(bp, (size_t)nb, sizeof *bp, cmp_double);
    for (k = 0; k < nb; ++k)
        if (out == 0 || bp[k] - bp[out - 1] > 1e-12 * (fabs(bp[k]) > 1.0 ? fabs(bp[k]) : 1.0))
            bp[out++] = bp[k];
    return out;
}

/* Samples the state held in y at time t into the outputs of row i. */
static void record(ref_sys *S, double t, const double *y, int i, double E0, const hs_ida_out *o,
                   hs_ida_stats *st)
{
    const hs_model *m = S->m;
    int nq = S->nq, nc = S->nc, nz = m->nz, e, k;
    const double *q = y, *v = y + nq;
    double E = sys_energy(S, q, v) - y[2 * nq + nc];
    size_t r = (size_t)i;
    sys_constraints(S, q, NULL, S->phi, S->J, NULL);
    for (e = 0; e < nc; ++e) {
        double pd = 0.0;
        for (k = 0; k < nq; ++k) pd += S->J[e * nq + k] * v[k];
        if (fabs(S->phi[e]) > st->phi_max) st->phi_max = fabs(S->phi[e]);
        if (fabs(pd) > st->phid_max) st->phid_max = fabs(pd);
    }
    if (fabs(E - E0) > st->dE_max) st->dE_max = fabs(E - E0);
    if (o->z || o->zd) {
        double z[HS_MAX_Z], zd[HS_MAX_Z];
        abs_to_tree(S, q, v, z, zd);
        for (k = 0; k < nz; ++k) {
            if (o->z) o->z[r * (size_t)nz + (size_t)k] = z[k];
            if (o->zd) o->zd[r * (size_t)nz + (size_t)k] = zd[k];
        }
    }
    if (o->E) o->E[i] = E;
    if (S->nh > 0) {
        sys_hydraulics(S, t, q, v, y + S->ip, &S->H);
        for (k = 0; k < m->nvol; ++k) {
            double pk = y[S->ip + k];
            if (o->p) o->p[r * (size_t)m->nvol + (size_t)k] = pk;
            if (i == 0 && k == 0) st->p_min = st->p_max = pk;
            if (pk < st->p_min) st->p_min = pk;
            if (pk > st->p_max) st->p_max = pk;
        }
        for (k = 0; k < m->ndcv; ++k)
            if (o->U) o->U[r * (size_t)m->ndcv + (size_t)k] = y[S->iu + k];
        for (k = 0; k < m->nfs; ++k)
            if (o->fs) o->fs[r * (size_t)m->nfs + (size_t)k] = y[S->ifs + k];
        for (k = 0; k < m->ncyl; ++k) {
            size_t x = r * (size_t)m->ncyl + (size_t)k;
            if (o->s) o->s[x] = S->H.s[k];
            if (o->sd) o->sd[x] = S->H.sd[k];
            if (o->F) o->F[x] = S->H.F[k];
        }
        if (o->W_cyl) o->W_cyl[i] = y[S->iwc];
    } else if (o->W_cyl) {
        o->W_cyl[i] = 0.0;
    }
}

int hs_ida_planar_hyd_solve(const hs_model *m, const hs_ida_opts *opts_in, const double *times,
                            int ntimes, const hs_ida_out *out, hs_ida_stats *stats, char *err,
                            size_t n)
{
    hs_ida_opts opts;
    hs_ida_stats st;
    hs_ida_out none;
    ref_sys *S = NULL;
    hs_state *hs = NULL;
    hs_work *hw = NULL;
    SUNContext ctx = NULL;
    N_Vector yy = NULL, yp = NULL, av = NULL, id = NULL;
    SUNMatrix A = NULL;
    SUNLinearSolver LS = NULL;
    void *mem = NULL;
    double *bp = NULL;
    int rc = 1, i, nbp = 0, ibp = 0, nq, nc, ny;
    double t_have = 0.0, seg_end, tlast, E0;
    long ns = 0, nr = 0;

    if (opts_in) opts = *opts_in;
    else hs_ida_opts_default(&opts);
    memset(&none, 0, sizeof none);
    if (!out) out = &none;
    memset(&st, 0, sizeof st);
    if (err && n) err[0] = '\0';
    if (hs_ida_planar_check(m, err, n)) goto done;
    if (ntimes < 1 || !times) {
        fail(err, n, "planar reference: no output times");
        goto done;
    }
    for (i = 0; i < ntimes; ++i)
        if (!(times[i] >= 0.0) || (i > 0 && times[i] < times[i - 1])) {
            fail(err, n, "planar reference: output times must be >= 0 and non-decreasing");
            goto done;
        }
    tlast = times[ntimes - 1];

    S = (ref_sys *)calloc(1, sizeof *S);
    hs = (hs_state *)calloc(1, sizeof *hs);
    hw = (hs_work *)calloc(1, sizeof *hw);
    bp = (double *)calloc(HS_MAX_KNOTS + 1, sizeof *bp);
    if (!S || !hs || !hw || !bp) {
        fail(err, n, "planar reference: out of memory");
        goto done;
    }
    build_sys(S, m);
    nq = S->nq;
    nc = S->nc;
    ny = S->ny;
    st.ncoord = nq;
    st.ncon = nc;
    st.nhyd = S->nh;

    /* the common initial state: hs_init's z, zd (loop closure solved there) and hydraulic
     * states p, U, fs, s0 (static-equilibrium pressures) */
    if (hs_init(m, hs, hw)) {
        fail(err, n, "planar reference: hs_init failed: %s", hs_status_string(hs->status));
        goto done;
    }
    for (i = 0; i < m->ncyl; ++i) S->s0[i] = hs->s0[i];

    /* SUNDIALS 7 takes a communicator (SUN_COMM_NULL: none; with MPI, a NULL pointer would
     * be duplicated as a communicator and abort); SUNDIALS 6 a void pointer */
#ifdef SUN_COMM_NULL
    if (SUNContext_Create(SUN_COMM_NULL, &ctx)) {
#else
    if (SUNContext_Create(NULL, &ctx)) {
#endif
        fail(err, n, "planar reference: SUNContext_Create failed");
        goto done;
    }
    yy = N_VNew_Serial(ny, ctx);
    yp = N_VNew_Serial(ny, ctx);
    av = N_VNew_Serial(ny, ctx);
    id = N_VNew_Serial(ny, ctx);
    if (!yy || !yp || !av || !id) {
        fail(err, n, "planar reference: N_VNew_Serial failed");
        goto done;
    }
    {
        double *y = N_VGetArrayPointer(yy), *a = N_VGetArrayPointer(av),
               *d = N_VGetArrayPointer(id);
        N_VConst(0.0, yy);
        N_VConst(0.0, yp);
        tree_to_abs(S, hs->z, hs->zd, y, y + nq);
        for (i = 0; i < ny; ++i) {
            a[i] = i < nq ? opts.atol_q : i < 2 * nq ? opts.atol_v : 1e-8;
            d[i] = (i >= 2 * nq && i < 2 * nq + nc) ? 0.0 : 1.0; /* lambda algebraic */
        }
        /* W (after lambda) is a plain quadrature; lambda is kept out of the error test */
        if (S->nh > 0) {
            for (i = 0; i < m->nvol; ++i) {
                y[S->ip + i] = hs->p[i];
                a[S->ip + i] = opts.atol_p;
            }
            for (i = 0; i < m->ndcv; ++i) {
                y[S->iu + i] = hs->U[i];
                a[S->iu + i] = opts.atol_U;
            }
            for (i = 0; i < m->nfs; ++i) {
                y[S->ifs + i] = hs->fs[i];
                a[S->ifs + i] = opts.atol_fs;
            }
            y[S->iwc] = 0.0;
            /* the cylinder lengths of the absolute coordinates against hs_init's s0 */
            sys_hydraulics(S, 0.0, y, NULL, y + S->ip, &S->H);
            for (i = 0; i < m->ncyl; ++i)
                if (fabs(S->H.s[i] - S->s0[i]) > st.s0_mismatch)
                    st.s0_mismatch = fabs(S->H.s[i] - S->s0[i]);
        }
    }
    nbp = breakpoints(m, tlast, bp);
    seg_end = nbp > 0 ? bp[0] : tlast;
    seg_setup(S, 0.0, seg_end > 0.0 ? seg_end : 1.0);
    if (consistent(S, 0.0, N_VGetArrayPointer(yy), N_VGetArrayPointer(yp), err, n)) goto done;
    for (i = 0; i < nq; ++i)
        if (fabs(N_VGetArrayPointer(yp)[nq + i]) > st.acc0_max)
            st.acc0_max = fabs(N_VGetArrayPointer(yp)[nq + i]);
    E0 = sys_energy(S, N_VGetArrayPointer(yy), N_VGetArrayPointer(yy) + nq);
    st.E0 = E0;
    st.nsegments = 1;

    mem = IDACreate(ctx);
    A = SUNDenseMatrix(ny, ny, ctx);
    if (!mem || !A) {
        fail(err, n, "planar reference: IDACreate/SUNDenseMatrix failed");
        goto done;
    }
    LS = SUNLinSol_Dense(yy, A, ctx);
    if (!LS || IDAInit(mem, res_fn, 0.0, yy, yp) != IDA_SUCCESS ||
        IDASVtolerances(mem, opts.rtol, av) != IDA_SUCCESS ||
        IDASetUserData(mem, S) != IDA_SUCCESS ||
        IDASetLinearSolver(mem, LS, A) != IDA_SUCCESS ||
        IDASetMaxNumSteps(mem, opts.max_steps) != IDA_SUCCESS ||
        IDASetId(mem, id) != IDA_SUCCESS || IDASetSuppressAlg(mem, SUNTRUE) != IDA_SUCCESS ||
        (seg_end > 0.0 && IDASetStopTime(mem, seg_end) != IDA_SUCCESS)) {
        fail(err, n, "planar reference: IDA setup failed");
        goto done;
    }

    for (i = 0; i < ntimes; ++i) {
        double tout = times[i], tret = 0.0;
        double slack = 1e-12 * (tout > 1.0 ? tout : 1.0); /* as hs_signal_eval's */
        int flag;
        /* cross every knot before tout: integrate onto it, restart with the new inputs (an
         * output time within rounding of a knot is taken at the knot, before the restart) */
        while (ibp < nbp && tout > seg_end + slack) {
            if (seg_end > t_have) {
                flag = IDASolve(mem, seg_end, &tret, yy, yp, IDA_NORMAL);
                if (flag < 0) {
                    fail(err, n, "planar reference: IDASolve failed (flag %d) on the way to t = %g",
                         flag, seg_end);
                    goto done;
                }
                t_have = seg_end;
            }
            IDAGetNumSteps(mem, &ns);
            IDAGetNumResEvals(mem, &nr);
            st.nsteps += ns;
            st.nres += nr;
            ++ibp;
            {
                double next = ibp < nbp ? bp[ibp] : tlast;
                seg_setup(S, seg_end, next > seg_end ? next : seg_end + 1.0);
                if (consistent(S, seg_end, N_VGetArrayPointer(yy), N_VGetArrayPointer(yp), err, n))
                    goto done;
                if (IDAReInit(mem, seg_end, yy, yp) != IDA_SUCCESS ||
                    (next > seg_end && IDASetStopTime(mem, next) != IDA_SUCCESS)) {
                    fail(err, n, "planar reference: IDAReInit failed at t = %g", seg_end);
                    goto done;
                }
                seg_end = next;
                ++st.nsegments;
            }
        }
        if (tout > t_have + slack) {
            flag = IDASolve(mem, tout, &tret, yy, yp, IDA_NORMAL);
            if (flag < 0) {
                fail(err, n, "planar reference: IDASolve failed (flag %d) on the way to t = %g",
                     flag, tout);
                goto done;
            }
            t_have = tout;
        }
        record(S, t_have, N_VGetArrayPointer(yy), i, E0, out, &st);
    }
    IDAGetNumSteps(mem, &ns);
    IDAGetNumResEvals(mem, &nr);
    st.nsteps += ns;
    st.nres += nr;
    rc = 0;

done:
    if (mem) IDAFree(&mem);
    if (LS) SUNLinSolFree(LS);
    if (A) SUNMatDestroy(A);
    if (yy) N_VDestroy(yy);
    if (yp) N_VDestroy(yp);
    if (av) N_VDestroy(av);
    if (id) N_VDestroy(id);
    if (ctx) SUNContext_Free(&ctx);
    free(S);
    free(hs);
    free(hw);
    free(bp);
    if (stats) *stats = st;
    return rc;
}

int hs_ida_planar_solve_ex(const hs_model *m, const hs_ida_opts *opts, const double *times,
                           int ntimes, double *z_out, double *zd_out, double *E_out,
                           hs_ida_stats *stats, char *errmsg, size_t n)
{
    hs_ida_out o;
    memset(&o, 0, sizeof o);
    o.z = z_out;
    o.zd = zd_out;
    o.E = E_out;
    return hs_ida_planar_hyd_solve(m, opts, times, ntimes, &o, stats, errmsg, n);
}

int hs_ida_planar_solve(const hs_model *m, const double *times, int ntimes, double *z_out,
                        double *phi_max_out, char *errmsg, size_t n)
{
    hs_ida_stats st;
    int rc = hs_ida_planar_solve_ex(m, NULL, times, ntimes, z_out, NULL, NULL, &st, errmsg, n);
    if (phi_max_out) *phi_max_out = st.phi_max;
    return rc;
}

/* ------------------------------------------------------------------ harness (our engine) */

typedef struct engine_ctx {
    const hs_val_out *o;
    int nout, taken;
    long stride;
} engine_ctx;

static int engine_cb(void *vctx, const hs_model *m, const hs_state *s, const hs_obs *ob,
                     double Eb)
{
    engine_ctx *c = (engine_ctx *)vctx;
    const hs_val_out *o = c->o;
    int j;
    (void)Eb;
    if (s->step % c->stride == 0) {
        long k = s->step / c->stride;
        if (k < c->nout) {
            size_t r = (size_t)k;
            if (o->z)
                for (j = 0; j < m->nz; ++j) o->z[r * (size_t)m->nz + (size_t)j] = s->z[j];
            if (o->zd)
                for (j = 0; j < m->nz; ++j) o->zd[r * (size_t)m->nz + (size_t)j] = s->zd[j];
            if (o->p)
                for (j = 0; j < m->nvol; ++j) o->p[r * (size_t)m->nvol + (size_t)j] = s->p[j];
            if (o->U)
                for (j = 0; j < m->ndcv; ++j) o->U[r * (size_t)m->ndcv + (size_t)j] = s->U[j];
            if (o->s)
                for (j = 0; j < m->ncyl; ++j) o->s[r * (size_t)m->ncyl + (size_t)j] = ob->s[j];
            if (o->W_cyl) o->W_cyl[k] = ob->W_cyl;
            if (k + 1 > c->taken) c->taken = (int)(k + 1);
        }
    }
    return c->taken >= c->nout; /* stop once every sample is taken */
}

int hs_val_run_engine_hyd(const hs_model *m, double out_dt, int nout, const hs_val_out *o,
                          hs_val_stats *st, char *errmsg, size_t n)
{
    engine_ctx c;
    hs_sim_summary sum;
    double r = out_dt / m->dt;
    int rc;
    memset(&sum, 0, sizeof sum);
    c.o = o;
    c.nout = nout;
    c.taken = 0;
    c.stride = (long)floor(r + 0.5);
    if (c.stride < 1 || fabs(r - (double)c.stride) > 1e-9 * r)
        return fail(errmsg, n, "output interval %g s is not a multiple of dt = %g s", out_dt,
                    m->dt);
    rc = hs_simulate(m, engine_cb, &c, &sum);
    if (st) {
        st->phi_max = sum.max_phi;
        st->mean_iters = sum.mean_iters;
        st->max_iters = sum.max_iters;
        st->steps = sum.steps;
        st->rejected = sum.rejected;
    }
    if (c.taken < nout)
        return fail(errmsg, n, "our integrator stopped at t = %g s after %d of %d samples: %s",
                    sum.t_final, c.taken, nout, rc ? hs_status_string(rc) : "t_end reached");
    return 0;
}

int hs_val_run_engine(const hs_model *m, double out_dt, int nout, double *z_out,
                      double *phi_max, char *errmsg, size_t n)
{
    hs_val_out o;
    hs_val_stats st;
    int rc;
    memset(&o, 0, sizeof o);
    memset(&st, 0, sizeof st);
    o.z = z_out;
    rc = hs_val_run_engine_hyd(m, out_dt, nout, &o, &st, errmsg, n);
    if (phi_max) *phi_max = st.phi_max;
    return rc;
}

double hs_val_max_abs_diff(const double *a, const double *b, int stride, int col, int k0, int k1)
{
    double e = 0.0;
    int k;
    for (k = k0; k < k1; ++k) {
        double d = fabs(a[(size_t)k * (size_t)stride + (size_t)col] -
                        b[(size_t)k * (size_t)stride + (size_t)col]);
        if (d > e || d != d) e = d;
    }
    return e;
}
