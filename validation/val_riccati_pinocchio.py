#!/usr/bin/env python3
"""Seed 002's Riccati transfer matrix method against an independent O(N) implementation:
Featherstone's articulated-body algorithm in Pinocchio (PyPI package `pin`).

1. Revolute and prismatic joints, random chains and trees of 10 to 10 000 bodies, random
   frames (rot0), inertias and states: the joint accelerations of hydrosweep's Riccati recursion
   (kernels/hs_riccati.h, through the C API) equal pin.aba's to 1e-9 relative
   (max |a - a_ref| / max(1, max |a_ref|)) wherever Pinocchio's Data fits in 4 GB -- it holds
   second-order derivative tensors of nv^3 doubles (13 GB at 600 degrees of freedom), so pin.aba
   cannot be called on the larger trees at all -- and everywhere those of Featherstone's ABA
   written out in numpy below (RBDA Table 7.1, in Pinocchio's joint frames).
2. With ball joints (random trees of 10 to 140 bodies, Pinocchio's memory limit): the
   reference is Pinocchio's dense solution by inverse dynamics alone, M a = -b with M's
   columns and b from pin.rnea and an LU solve. Found here: pin.aba (4.1.0), and the numpy ABA alike,
   lose accuracy fast along ball-jointed chains (at 140 bodies pin.aba is 9e-3 off the dense
   solution, whose M has a condition number of 1.4e6, on other draws O(1), while the Riccati
   accelerations agree with it to 1e-11); the articulated-body recursion in local frames divides by the rotational
   articulated inertia of every ball joint and carries the rounding of that Schur complement
   down the chain. Reported beside each row, not a failure of ours.
3. The seed's branch system (scripts/branch_system.py, N = 59) against the dense solution, to
   10 cond(M) eps: its 1 cm rods make cond(M) about 1e10, which bounds the reference itself.
Beyond Pinocchio's sizes the Riccati accelerations are checked without a reference:
tests/test_riccati.c verifies every body's Newton-Euler equations with the recovered internal
forces on trees of up to 10 000 bodies and on the N = 999 branch system.
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
    from hydrosweep._capi import HydrosweepError, lib
    lib()
except Exception as e:  # the C library not built
    print(f"val_riccati_pinocchio: SKIPPED (the hydrosweep C library: {e})")
    sys.exit(77)

TOL = 1e-9


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


def to_pinocchio(d, q, v):
    """hydrosweep's (q, v) as Pinocchio's: quaternion order, ball velocity in the joint frame."""
    qp, vp, iq, iv = [], [], 0, 0
    for j, t in enumerate(d["jtype"]):
        if t == BALL:
            w, x, y, z = q[iq:iq + 4]
            qp += [x, y, z, w]
            vp += list(d["rot0"][j] @ v[iv:iv + 3])
            iq, iv = iq + 4, iv + 3
        else:
            qp.append(q[iq])
            vp.append(v[iv])
            iq, iv = iq + 1, iv + 1
    return np.array(qp), np.array(vp)


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


# ---- Featherstone's articulated-body algorithm (Rigid Body Dynamics Algorithms, 2008, Table
# 7.1), in numpy, in the same joint frames as the Pinocchio model above: an O(N) check of its
# own for the sizes whose Pinocchio Data does not fit in memory (Pinocchio allocates nv^3
# second-order derivative tensors in Data: 13 GB at 600 degrees of freedom). Checked against
# pin.aba wherever both run. Spatial vectors [angular; linear].

def skew(a):
    return np.array([[0, -a[2], a[1]], [a[2], 0, -a[0]], [-a[1], a[0], 0]])


def xform(E, r):
    """Plucker transform to a frame rotated by E (coordinates in it = E x) at r (old coords)."""
    X = np.zeros((6, 6))
    X[:3, :3] = E
    X[3:, 3:] = E
    X[3:, :3] = -E @ skew(r)
    return X


def crm(v):
    M = np.zeros((6, 6))
    M[:3, :3] = skew(v[:3])
    M[3:, :3] = skew(v[3:])
    M[3:, 3:] = skew(v[:3])
    return M


def spatial_inertia(m, c, Ic):
    I = np.zeros((6, 6))
    C = skew(c)
    I[:3, :3] = Ic + m * C @ C.T
    I[:3, 3:] = m * C
    I[3:, :3] = m * C.T
    I[3:, 3:] = m * np.eye(3)
    return I


def quat_to_R(x, y, z, w):
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                     [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                     [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


def aba_numpy(d, qp, vp):
    """Joint accelerations (Pinocchio's coordinates) of the model of pinocchio_model(d)."""
    n = len(d["parent"])
    Xup, S, v, c, IA, pA, iv = [None] * n, [None] * n, [None] * n, [None] * n, [None] * n, [None] * n, []
    iq = k = 0
    for j in range(n):
        p, t = d["parent"][j], d["jtype"][j]
        if p < 0:
            Xt = xform(np.eye(3), d["at_parent"][j])
        else:
            Rp = d["rot0"][p]
            Xt = xform(Rp.T, Rp @ (d["at_parent"][j] - d["at_child"][p]))
        if t == BALL:
            R = quat_to_R(*qp[iq:iq + 4])
            XJ, Sj, nq, nv = xform(R.T, np.zeros(3)), np.vstack([np.eye(3), np.zeros((3, 3))]), 4, 3
        elif t == REVOLUTE:
            a = d["axis"][j]
            XJ = xform(pin.exp3(a * qp[iq]).T, np.zeros(3))
            Sj, nq, nv = np.concatenate([a, np.zeros(3)])[:, None], 1, 1
        else:
            a = d["axis"][j]
            XJ = xform(np.eye(3), a * qp[iq])
            Sj, nq, nv = np.concatenate([np.zeros(3), a])[:, None], 1, 1
        Xup[j], S[j] = XJ @ Xt, Sj
        vJ = Sj @ vp[k:k + nv]
        v[j] = (Xup[j] @ v[p] if p >= 0 else 0) + vJ
        c[j] = crm(v[j]) @ vJ
        R0 = d["rot0"][j]
        IA[j] = spatial_inertia(d["mass"][j], R0 @ (d["com"][j] - d["at_child"][j]),
                                R0 @ inertia_matrix(d["inertia"][j]) @ R0.T)
        pA[j] = -crm(v[j]).T @ (IA[j] @ v[j])
        iv.append((k, nv))
        iq, k = iq + nq, k + nv
    U, Dinv, u = [None] * n, [None] * n, [None] * n
    for j in range(n - 1, -1, -1):
        U[j] = IA[j] @ S[j]
        Dinv[j] = np.linalg.inv(S[j].T @ U[j])
        u[j] = -S[j].T @ pA[j]
        p = d["parent"][j]
        if p >= 0:
            Ia = IA[j] - U[j] @ Dinv[j] @ U[j].T
            pa = pA[j] + Ia @ c[j] + U[j] @ Dinv[j] @ u[j]
            IA[p] = IA[p] + Xup[j].T @ Ia @ Xup[j]
            pA[p] = pA[p] + Xup[j].T @ pa
    a0 = np.concatenate([np.zeros(3), -d["gravity"]])
    a, qdd = [None] * n, np.zeros(k)
    for j in range(n):
        p = d["parent"][j]
        ap = Xup[j] @ (a[p] if p >= 0 else a0) + c[j]
        k0, nv = iv[j]
        qdd[k0:k0 + nv] = Dinv[j] @ (u[j] - U[j].T @ ap)
        a[j] = ap + S[j] @ qdd[k0:k0 + nv]
    return qdd


def pinocchio_fits(d, budget=4e9):
    """Pinocchio's Data holds about 7 nv^3 doubles (the second-order derivative tensors)."""
    nv = int(np.sum(np.where(np.asarray(d["jtype"]) == BALL, 3, 1)))
    return 7.0 * nv ** 3 * 8 <= budget


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


def make_tree(d):
    n = len(d["parent"])
    return Tree.make(d["parent"], d["jtype"], d["mass"], d["com"], d["inertia"], d["at_parent"], d["at_child"],
                     d["axis"], d["rot0"].reshape(n, 9), d["gravity"])


def main():
    quick = "--quick" in sys.argv
    rng = np.random.default_rng(20261129)
    fails = 0
    print(f"pinocchio {pin.__version__}; tolerance {TOL:g} relative (max |a - a_ref| / max(1, max |a_ref|))")

    # 1. revolute and prismatic joints, 10 to 10 000 bodies: pin.aba where its Data fits, the numpy
    # ABA everywhere (both are stable on these)
    print("\n1. revolute and prismatic joints")
    print(f"{'bodies':>7} {'topology':>9} {'rev/pri':>10} {'states':>6} {'vs pin.aba':>11} {'vs numpy ABA':>13}")
    for n in ([10, 30, 100, 300, 1000, 3000, 10000] if not quick else [10, 100, 1000]):
        for bias, topo in ((1.0, "chain"), (0.7, "tree")):
            d = random_tree(rng, n, chain_bias=bias, kinds=(REVOLUTE, PRISMATIC), pk=(0.8, 0.2))
            tree, fits = make_tree(d), pinocchio_fits(d)
            if fits:
                model = pinocchio_model(d)
                data = model.createData()
            nstate = 5 if n <= 1000 else 2
            wp = wn = 0.0
            for _ in range(nstate):
                q, v = random_state(rng, d)
                vd, _F = tree.accel(q, v)
                qp, vp = to_pinocchio(d, q, v)
                wn = max(wn, rel(vd, from_pinocchio_acc(d, aba_numpy(d, qp, vp))))
                if fits:
                    wp = max(wp, rel(vd, from_pinocchio_acc(d, pin.aba(model, data, qp, vp, np.zeros(model.nv)))))
            ok = wn <= TOL and (not fits or wp <= TOL)
            fails += not ok
            kinds = "/".join(str(int(np.sum(d["jtype"] == k))) for k in (REVOLUTE, PRISMATIC))
            print(f"{n:>7} {topo:>9} {kinds:>10} {nstate:>6} {('%.3e' % wp) if fits else '(no fit)':>11} {wn:>13.3e}"
                  f"{'' if ok else '  FAIL'}")

    # 2. with ball joints: Pinocchio's dense solution (CRBA, bias forces, LU) where its Data fits;
    # pin.aba reported beside it (it loses accuracy along ball-jointed chains: see the docstring)
    print("\n2. with ball joints (reference: M and b from pin.rnea, LU)")
    print(f"{'bodies':>7} {'topology':>9} {'rev/pri/ball':>13} {'cond(M)':>9} {'vs dense':>10} {'pin.aba vs dense':>17}")
    for n in ([10, 30, 60, 100, 140] if not quick else [10, 30, 100]):
        for bias, topo in ((1.0, "chain"), (0.7, "tree")):
            d = random_tree(rng, n, chain_bias=bias)
            tree = make_tree(d)
            model = pinocchio_model(d)
            data = model.createData()
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
            del data

    # 3. the seed's branch system at N = 59 (30 bodies; scripts/branch_system.py) against the dense
    # solution; N = 999 and beyond: tests/test_riccati.c checks every body's Newton-Euler
    # equations, which needs no reference
    sys.path.insert(0, os.path.join(HERE, os.pardir, "scripts"))
    from branch_system import branch_system
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "b59.yaml")
        with open(path, "w") as f:
            f.write(branch_system(59))
        t = Tree.load(path)
    d = t.arrays()
    d["jtype"] = np.asarray(d["jtype"])
    model = pinocchio_model(d)
    data = model.createData()
    q0, v0 = t.state0()
    w = wa = cmax = 0.0
    for k in range(3):
        q, v = (q0, v0) if k == 0 else random_state(rng, d)
        vd, _F = t.accel(q, v)
        qp, vp = to_pinocchio(d, q, v)
        ref, cond = dense_reference(model, data, qp, vp)
        ref = from_pinocchio_acc(d, ref)
        w, cmax = max(w, rel(vd, ref)), max(cmax, cond)
        wa = max(wa, rel(from_pinocchio_acc(d, pin.aba(model, data, qp, vp, np.zeros(model.nv))), ref))
    # its 1 cm rods spin about their axes with 1/20 000 of their other inertia: cond(M) ~ 1e10,
    # so the dense reference itself is good to about cond(M) * 1e-16 only
    tol3 = max(TOL, 10.0 * cmax * np.finfo(float).eps)
    ok = w <= tol3
    fails += not ok
    print(f"\n3. the seed's branch system, N = 59 ({t.nbody} bodies, ball joints, 1 cm rods), initial and 2 random "
          f"states, against the dense solution: {w:.3e}, tolerance 10 cond(M) eps = {tol3:.1e} (cond(M) {cmax:.1e}; pin.aba "
          f"{wa:.3e}){'' if ok else '  FAIL'}")
    if fails:
        print(f"val_riccati_pinocchio: FAILED ({fails} cases above {TOL:g})")
        return 1
    print("val_riccati_pinocchio: passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
