#!/usr/bin/env python3
"""Seed 002's Riccati transfer matrix method against an independent O(N) implementation:
Featherstone's articulated-body algorithm in Pinocchio (PyPI package `pin`), and Pinocchio's
inverse dynamics.

Pinocchio's model.createData() allocates the workspaces of all its algorithms, among them dense
nv x nv matrices and (since 2.6.17) nv^3 second-order derivative tensors: 1.8 GB at 300
degrees of freedom, out of memory at 1000. pin.aba and pin.rnea use none of them, so they run
here on a Data that holds only their own members (pin_data), which gives the full Data's
results to the bit (check_pin_data, run first). That lets both run on trees of any size.

1. Revolute and prismatic joints, random chains and trees of 10 to 10 000 bodies, random
   frames (rot0), inertias and states: the joint accelerations of hydrosweep's Riccati recursion
   (kernels/hs_riccati.h, through the C API) equal pin.aba's to 1e-9 relative
   (max |a - a_ref| / max(1, max |a_ref|)), and their backward error (below) is at most 1e-11.
2. With ball joints, the same sizes. The backward error of the Riccati accelerations is at
   most 1e-11 everywhere; they equal pin.aba's to 1e-9 wherever pin.aba meets the same
   backward-error bar. On long ball-jointed chains it does not: its error grows with the chain
   (backward error 2e-4 at 100 bodies, O(1) at 1000, NaN at 10 000), where the Riccati
   accelerations stay at rounding level (validation/README.md, Findings).
   The backward error of accelerations a is the residual of the equations of motion by
   pin.rnea, max |M a + b| / max(max |M a|, max |b|): inverse dynamics divides by nothing, so
   this measures whether a solves a nearby problem exactly, whatever M's condition number.
3. With ball joints, up to 140 bodies: against the dense solution of Pinocchio's inverse
   dynamics alone, M a = -b with M's columns and b from pin.rnea and an LU solve, to 1e-9.
4. The seed's branch system (scripts/branch_system.py): N = 59 against the dense solution, to
   10 cond(M) eps (its 1 cm rods make cond(M) about 1e10, which bounds the reference itself);
   N = 999 (the seed's 500-body example) by the backward error.
tests/test_riccati.c also verifies every body's Newton-Euler equations with the recovered
internal forces on trees of up to 10 000 bodies, without a reference.
Exit 77 (skipped) when pinocchio or the C library is not available.

    validation/val_riccati_pinocchio.py [--quick]

The map between the two models (kernels/hs_tree.h): hydrosweep's body j has the orientation
A_j = A_parent R_joint(q) rot0_j and its joint point at_parent in the parent's body frame.
Pinocchio's joint frame j is taken at the joint point with the orientation A_parent R_joint(q)
(before rot0): its placement in the parent's joint frame is (rot0_parent,
rot0_parent (at_parent_j - at_child_parent)), the joint axis is the same vector, and the body's
centre of mass and inertia are rot0_j (com - at_child) and rot0_j J rot0_j^T in it. A ball
joint's velocity there is rot0_j nu (nu in the child's body frame), its quaternion (w, x, y, z)
is Pinocchio's (x, y, z, w)."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, os.pardir, "python"))

try:
    import numpy as np
    import pinocchio as pin
except ImportError as e:
    print(f"val_riccati_pinocchio: SKIPPED ({e}; pip install pin)")
    sys.exit(77)
try:
    from hydrosweep.tree import BALL, PRISMATIC, REVOLUTE, Tree
    from hydrosweep._capi import lib
    lib()
except Exception as e:  # the C library not built
    print(f"val_riccati_pinocchio: SKIPPED (the hydrosweep C library: {e})")
    sys.exit(77)

TOL = 1e-9  # forward: against pin.aba and the dense solution (the issue's)
BERR_TOL = 1e-11  # backward error by pin.rnea (backward_error), about 5e4 eps
ABA_STABLE = BERR_TOL  # pin.aba is compared where it meets the same backward-error bar


def random_tree(rng, n, chain_bias=0.8, kinds=(REVOLUTE, PRISMATIC, BALL), pk=(0.45, 0.1, 0.45)):
    parent = np.array([-1] + [j - 1 if rng.random() < chain_bias else int(rng.integers(0, j)) for j in range(1, n)])
    jtype = rng.choice(kinds, size=n, p=pk)
    mass = rng.uniform(0.5, 3, n)
    com = rng.uniform(-0.5, 0.5, (n, 3))
    a0, a1 = rng.uniform(0.2, 1.5, n), rng.uniform(0.2, 1.5, n)
    a2 = rng.uniform(np.abs(a0 - a1) + 0.05, a0 + a1)
    inertia = np.column_stack([a0, a1, a2, rng.uniform(-0.02, 0.02, (n, 3))])
    at_parent = rng.uniform(-0.6, 0.6, (n, 3))
    at_child = rng.uniform(-0.3, 0.3, (n, 3))
    axis = rng.normal(size=(n, 3))
    axis /= np.linalg.norm(axis, axis=1)[:, None]
    rot0 = np.array([pin.exp3(rng.normal(size=3)) for _ in range(n)])
    return dict(parent=parent, jtype=jtype, mass=mass, com=com, inertia=inertia, at_parent=at_parent,
                at_child=at_child, axis=axis, rot0=rot0, gravity=np.array([rng.uniform(-2, 2), -9.81, rng.uniform(-2, 2)]))


def inertia_matrix(J):
    xx, yy, zz, xy, xz, yz = J
    return np.array([[xx, xy, xz], [xy, yy, yz], [xz, yz, zz]])


def pinocchio_model(d):
    m = pin.Model()
    m.gravity.linear = d["gravity"]
    jid = []
    for j in range(len(d["parent"])):
        p = d["parent"][j]
        if p < 0:
            placement = pin.SE3(np.eye(3), d["at_parent"][j])
            pj = 0
        else:
            placement = pin.SE3(d["rot0"][p], d["rot0"][p] @ (d["at_parent"][j] - d["at_child"][p]))
            pj = jid[p]
        t = d["jtype"][j]
        if t == REVOLUTE:
            jm = pin.JointModelRevoluteUnaligned(d["axis"][j])
        elif t == PRISMATIC:
            jm = pin.JointModelPrismaticUnaligned(d["axis"][j])
        else:
            jm = pin.JointModelSpherical()
        k = m.addJoint(pj, jm, placement, f"j{j}")
        R0 = d["rot0"][j]
        lever = R0 @ (d["com"][j] - d["at_child"][j])
        m.appendBodyToJoint(k, pin.Inertia(d["mass"][j], lever, R0 @ inertia_matrix(d["inertia"][j]) @ R0.T),
                            pin.SE3.Identity())
        jid.append(k)
    return m


def random_state(rng, d):
    q, v = [], []
    for j, t in enumerate(d["jtype"]):
        if t == BALL:
            x = rng.normal(size=4)
            q += list(x / np.linalg.norm(x))
            v += list(rng.uniform(-2, 2, 3))
        else:
            q.append(rng.uniform(-2, 2))
            v.append(rng.uniform(-2, 2))
    return np.array(q), np.array(v)


def to_pinocchio_tangent(d, v):
    """hydrosweep's velocities or accelerations (nv) as Pinocchio's: a ball joint's in its
    joint frame (rot0_j times the child frame's)."""
    out, iv = [], 0
    for j, t in enumerate(d["jtype"]):
        if t == BALL:
            out += list(d["rot0"][j] @ v[iv:iv + 3])
            iv += 3
        else:
            out.append(v[iv])
            iv += 1
    return np.array(out)


def to_pinocchio(d, q, v):
    """hydrosweep's (q, v) as Pinocchio's: quaternion order, ball velocity in the joint frame."""
    qp, iq = [], 0
    for t in d["jtype"]:
        if t == BALL:
            w, x, y, z = q[iq:iq + 4]
            qp += [x, y, z, w]
            iq += 4
        else:
            qp.append(q[iq])
            iq += 1
    return np.array(qp), to_pinocchio_tangent(d, v)


def from_pinocchio_acc(d, a):
    out, iv = [], 0
    for j, t in enumerate(d["jtype"]):
        if t == BALL:
            out += list(d["rot0"][j].T @ a[iv:iv + 3])
            iv += 3
        else:
            out.append(a[iv])
            iv += 1
    return np.array(out)


def pin_data(model):
    """A pin.Data holding only what pin.aba reads and writes, sized for model: O(nbody).

    model.createData() also allocates the workspaces of Pinocchio's other algorithms: dense
    nv x nv matrices (M, Minv, C, the derivatives, the regressors) and, since 2.6.17, four
    nv x nv x nv second-order derivative tensors -- 1.8 GB at 300 degrees of freedom, out of
    memory at 1000 -- none of which the articulated-body algorithm touches. pin.aba's default
    (Convention.LOCAL, pinocchio/src/algorithm/aba.hxx, abaLocalConvention and its three
    passes) uses joints, liMi, oMi, v, a, a_gf, f, h, Yaba, u and ddq, all per joint or per
    degree of freedom. This Data holds those, so that pin.aba itself runs on trees of any size;
    check_pin_data shows it gives the full Data's result to the bit."""
    nj = model.njoints
    d = pin.Data()
    joints = pin.StdVec_JointDataVector()
    for k in range(nj):
        joints.append(model.joints[k].createData())
    d.joints = joints
    d.liMi = pin.StdVec_SE3([pin.SE3.Identity()] * nj)
    d.oMi = pin.StdVec_SE3([pin.SE3.Identity()] * nj)
    d.v = pin.StdVec_Motion([pin.Motion.Zero()] * nj)
    d.a = pin.StdVec_Motion([pin.Motion.Zero()] * nj)
    d.a_gf = pin.StdVec_Motion([pin.Motion.Zero()] * nj)
    d.f = pin.StdVec_Force([pin.Force.Zero()] * nj)
    d.h = pin.StdVec_Force([pin.Force.Zero()] * nj)
    d.Yaba = pin.StdVec_Matrix6([np.zeros((6, 6))] * nj)
    d.u = np.zeros(model.nv)
    d.ddq = np.zeros(model.nv)
    d.tau = np.zeros(model.nv)  # pin.rnea's: it uses joints, liMi, v, a_gf, h, f and tau
    return d


def check_pin_data(rng):
    """pin.aba and pin.rnea with pin_data equal theirs with model.createData() to the bit (every joint
    kind, a branched tree, three states), or raises: the list of members above is this
    Pinocchio's (a release whose ABA reads another member fails here, not silently)."""
    for n, bias in ((12, 1.0), (40, 0.6)):
        d = random_tree(rng, n, chain_bias=bias)
        model = pinocchio_model(d)
        full, lean = model.createData(), pin_data(model)
        for _ in range(3):
            qp, vp = to_pinocchio(d, *random_state(rng, d))
            tau = rng.normal(size=model.nv)
            a_full = pin.aba(model, full, qp, vp, tau).copy()
            a_lean = pin.aba(model, lean, qp, vp, tau).copy()
            t_full = pin.rnea(model, full, qp, vp, tau).copy()
            t_lean = pin.rnea(model, lean, qp, vp, tau).copy()
            if not (np.array_equal(a_full, a_lean) and np.array_equal(t_full, t_lean)):
                raise RuntimeError(f"pin.aba / pin.rnea with the lean Data differ from the full Data's by "
                                   f"{np.max(np.abs(a_full - a_lean)):.3e} / {np.max(np.abs(t_full - t_lean)):.3e} "
                                   f"(pinocchio {pin.__version__})")


def dense_reference(model, data, qp, vp):
    """Pinocchio's accelerations by inverse dynamics only: the mass matrix column by column,
    M e_k = rnea(q, 0, e_k) - rnea(q, 0, 0), the bias b = rnea(q, v, 0), and a dense LU solve of
    M a = -b. O(N^2) recursive Newton-Euler passes and an O(N^3) solve, with no articulated
    inertia anywhere. (pin.crba is not used: in 4.1.0 its M differs from these columns on
    branched trees of ball joints, while pin.rnea agrees with pin.aba there.)"""
    nv = model.nv
    z = np.zeros(nv)
    g = pin.rnea(model, data, qp, z, z).copy()
    M = np.empty((nv, nv))
    for k in range(nv):
        e = np.zeros(nv)
        e[k] = 1.0
        M[:, k] = pin.rnea(model, data, qp, z, e) - g
    b = pin.rnea(model, data, qp, vp, z)
    return np.linalg.solve(M, -b), np.linalg.cond(M)


def rel(a, b):
    return float(np.max(np.abs(a - b)) / max(1.0, np.max(np.abs(b))))


def bias_torques(model, data, qp, vp):
    """b(q, v) = rnea(q, v, 0): gravity, velocity products (the torques of zero acceleration)."""
    return pin.rnea(model, data, qp, vp, np.zeros(model.nv)).copy()


def backward_error(model, data, qp, vp, ap, b):
    """How far accelerations ap (Pinocchio's coordinates) are from solving the equations of
    motion M(q) a + b(q, v) = 0 (no joint torques; b from bias_torques, once per state), by
    Pinocchio's inverse dynamics, which divides by nothing and is stable: the residual
    rnea(q, v, ap) relative to its two terms,
    max |M ap + b| / max(max |M ap|, max |b|). Rounding-level for accelerations that solve a
    nearby problem exactly (backward stable), however ill-conditioned M is; O(N) in time and
    memory, so it checks the trees of 10 000 bodies where no dense solution can be formed."""
    r = pin.rnea(model, data, qp, vp, ap).copy()
    return float(np.max(np.abs(r)) / max(np.max(np.abs(r - b)), np.max(np.abs(b)), 1e-300))


def depths(d):
    """Every body's depth: the joints from the ground to it, its own included (nbody)."""
    dep = np.zeros(len(d["parent"]), dtype=int)
    for j, p in enumerate(d["parent"]):
        dep[j] = dep[p] + 1 if p >= 0 else 1
    return dep


def depth(d):
    """The longest path from the ground to a tip, in joints."""
    return int(depths(d).max())


def make_tree(d):
    n = len(d["parent"])
    return Tree.make(d["parent"], d["jtype"], d["mass"], d["com"], d["inertia"], d["at_parent"], d["at_child"],
                     d["axis"], d["rot0"].reshape(n, 9), d["gravity"])


def main():
    quick = "--quick" in sys.argv
    rng = np.random.default_rng(20261129)
    fails = 0
    check_pin_data(rng)
    print(f"pinocchio {pin.__version__} (pin.aba and pin.rnea on a Data of their own members: pin_data; equal to "
          f"the full Data's to the bit, checked); forward tolerance {TOL:g} relative (max |a - a_ref| / max(1, "
          f"max |a_ref|)), backward error {BERR_TOL:g}")
    sizes = [10, 30, 100, 300, 1000, 3000, 10000] if not quick else [10, 100, 1000]

    # 1. revolute and prismatic joints, 10 to 10 000 bodies: pin.aba, and the backward error
    print("\n1. revolute and prismatic joints: against pin.aba; backward error by pin.rnea")
    print(f"{'bodies':>7} {'topology':>9} {'depth':>6} {'rev/pri':>10} {'states':>6} {'vs pin.aba':>11} "
          f"{'backward err':>13} {'pin.aba own':>12}")
    for n in sizes:
        for bias, topo in ((1.0, "chain"), (0.7, "tree")):
            d = random_tree(rng, n, chain_bias=bias, kinds=(REVOLUTE, PRISMATIC), pk=(0.8, 0.2))
            tree, model = make_tree(d), pinocchio_model(d)
            data = pin_data(model)
            nstate = 5 if n <= 1000 else 2
            wp = wb = wa = 0.0
            for _ in range(nstate):
                q, v = random_state(rng, d)
                vd, _F = tree.accel(q, v)
                qp, vp = to_pinocchio(d, q, v)
                aba = pin.aba(model, data, qp, vp, np.zeros(model.nv)).copy()
                b = bias_torques(model, data, qp, vp)
                wp = max(wp, rel(vd, from_pinocchio_acc(d, aba)))
                wb = max(wb, backward_error(model, data, qp, vp, to_pinocchio_tangent(d, vd), b))
                wa = max(wa, backward_error(model, data, qp, vp, aba, b))
            ok = wp <= TOL and wb <= BERR_TOL
            fails += not ok
            kinds = "/".join(str(int(np.sum(d["jtype"] == k))) for k in (REVOLUTE, PRISMATIC))
            print(f"{n:>7} {topo:>9} {depth(d):>6} {kinds:>10} {nstate:>6} {wp:>11.3e} {wb:>13.3e} {wa:>12.3e}"
                  f"{'' if ok else '  FAIL'}", flush=True)
            tree.close()

    # 2. with ball joints, 10 to 10 000 bodies: the backward error everywhere; pin.aba where it is
    # itself backward stable (its own backward error at rounding level); on long ball-jointed
    # chains it is not (validation/README.md, Findings), and the dense solution stands in
    print("\n2. with ball joints: backward error by pin.rnea; against pin.aba where pin.aba's own backward error "
          f"is at most {ABA_STABLE:g}")
    print(f"{'bodies':>7} {'topology':>9} {'depth':>6} {'rev/pri/ball':>13} {'backward err':>13} {'pin.aba own':>12} "
          f"{'vs pin.aba':>11}")
    for n in sizes:
        for bias, topo in ((1.0, "chain"), (0.7, "tree")):
            d = random_tree(rng, n, chain_bias=bias)
            tree, model = make_tree(d), pinocchio_model(d)
            data = pin_data(model)
            wb = wa = wp = 0.0
            compared = True
            for _ in range(3 if n <= 1000 else 2):
                q, v = random_state(rng, d)
                vd, _F = tree.accel(q, v)
                qp, vp = to_pinocchio(d, q, v)
                b = bias_torques(model, data, qp, vp)
                wb = max(wb, backward_error(model, data, qp, vp, to_pinocchio_tangent(d, vd), b))
                with np.errstate(all="ignore"):
                    aba = pin.aba(model, data, qp, vp, np.zeros(model.nv)).copy()
                    own = backward_error(model, data, qp, vp, aba, b) if np.all(np.isfinite(aba)) else float("inf")
                wa = max(wa, own)
                if own <= ABA_STABLE:
                    wp = max(wp, rel(vd, from_pinocchio_acc(d, aba)))
                else:
                    compared = False
            ok = wb <= BERR_TOL and wp <= TOL
            fails += not ok
            kinds = "/".join(str(int(np.sum(d["jtype"] == k))) for k in (REVOLUTE, PRISMATIC, BALL))
            cmp = f"{wp:.3e}" if compared else (f"{wp:.3e}*" if wp else "unstable")
            print(f"{n:>7} {topo:>9} {depth(d):>6} {kinds:>13} {wb:>13.3e} {wa:>12.3e} {cmp:>11}"
                  f"{'' if ok else '  FAIL'}", flush=True)
            tree.close()
    print("   (unstable: pin.aba's own backward error above; *: compared on the states where it was not)")

    # 3. with ball joints, against the dense solution of Pinocchio's inverse dynamics (no
    # articulated inertia anywhere), up to 140 bodies
    print("\n3. with ball joints, against the dense solution (M and b from pin.rnea, LU)")
    print(f"{'bodies':>7} {'topology':>9} {'rev/pri/ball':>13} {'cond(M)':>9} {'vs dense':>10} {'pin.aba vs dense':>17}")
    for n in ([10, 30, 60, 100, 140] if not quick else [10, 30, 100]):
        for bias, topo in ((1.0, "chain"), (0.7, "tree")):
            d = random_tree(rng, n, chain_bias=bias)
            tree, model = make_tree(d), pinocchio_model(d)
            data = pin_data(model)
            w = wa = cmax = 0.0
            for _ in range(3):
                q, v = random_state(rng, d)
                vd, _F = tree.accel(q, v)
                qp, vp = to_pinocchio(d, q, v)
                ref, cond = dense_reference(model, data, qp, vp)
                ref = from_pinocchio_acc(d, ref)
                w = max(w, rel(vd, ref))
                wa = max(wa, rel(from_pinocchio_acc(d, pin.aba(model, data, qp, vp, np.zeros(model.nv))), ref))
                cmax = max(cmax, cond)
            ok = w <= TOL
            fails += not ok
            kinds = "/".join(str(int(np.sum(d["jtype"] == k))) for k in (REVOLUTE, PRISMATIC, BALL))
            print(f"{n:>7} {topo:>9} {kinds:>13} {cmax:>9.1e} {w:>10.3e} {wa:>17.3e}{'' if ok else '  FAIL'}")
            tree.close()

    # 4. the seed's branch system (scripts/branch_system.py): N = 59 against the dense solution;
    # N = 999 (its 500-body example) by the backward error, at its initial state and moving
    sys.path.insert(0, os.path.join(HERE, os.pardir, "scripts"))
    from branch_system import branch_system
    import tempfile
    for N in (59, 999):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, f"b{N}.yaml")
            with open(path, "w") as f:
                f.write(branch_system(N))
            t = Tree.load(path)
        d = t.arrays()
        d["jtype"] = np.asarray(d["jtype"])
        model = pinocchio_model(d)
        data = pin_data(model)
        q0, v0 = t.state0()
        w = wa = cmax = wb = 0.0
        for k in range(3):
            if k == 0:
                q, v = q0, v0
            else:  # moving: small rates on every joint (random ones of O(1) add up along 500 joints)
                q, v = random_state(rng, d)
                v = 0.01 * v
            vd, _F = t.accel(q, v)
            qp, vp = to_pinocchio(d, q, v)
            b = bias_torques(model, data, qp, vp)
            wb = max(wb, backward_error(model, data, qp, vp, to_pinocchio_tangent(d, vd), b))
            if N == 59:
                ref, cond = dense_reference(model, data, qp, vp)
                ref = from_pinocchio_acc(d, ref)
                w, cmax = max(w, rel(vd, ref)), max(cmax, cond)
                wa = max(wa, rel(from_pinocchio_acc(d, pin.aba(model, data, qp, vp, np.zeros(model.nv))), ref))
        if N == 59:
            # its 1 cm rods spin about their axes with 1/20 000 of their other inertia: cond(M) ~ 1e10,
            # so the dense reference itself is good to about cond(M) * 1e-16 only
            tol3 = max(TOL, 10.0 * cmax * np.finfo(float).eps)
            ok = w <= tol3 and wb <= BERR_TOL
            print(f"\n4. the seed's branch system, N = 59 ({t.nbody} bodies, ball joints, 1 cm rods), initial and 2 "
                  f"random states: against the dense solution {w:.3e}, tolerance 10 cond(M) eps = {tol3:.1e} (cond(M) "
                  f"{cmax:.1e}; pin.aba {wa:.3e}); backward error {wb:.3e}{'' if ok else '  FAIL'}")
        else:
            ok = wb <= BERR_TOL
            print(f"   N = 999 ({t.nbody} bodies, the seed's ADAMS comparison), initial and 2 moving states: backward "
                  f"error {wb:.3e}{'' if ok else '  FAIL'}")
        fails += not ok
        t.close()
    if fails:
        print(f"val_riccati_pinocchio: FAILED ({fails} cases above their tolerance)")
        return 1
    print("val_riccati_pinocchio: passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
