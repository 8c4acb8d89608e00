"""Open trees of the Riccati transfer matrix method (seed 002) from Python: a riccati model file
or arrays, the joint accelerations and internal forces at any state, RK4 steps and energies,
through the C library (include/hs/capi.h, kernels/hs_riccati.h). Needs numpy.

    t = Tree.load("models/branch_system_rui2020.yaml")
    q, v = t.state0()
    vd, F = t.accel(q, v)

Coordinates: one per revolute or prismatic joint; a ball joint has a unit quaternion
(w, x, y, z) of the relative rotation in q and the relative angular velocity in the child's
frame in v (kernels/hs_tree.h)."""
import ctypes

import numpy as np

from ._capi import HydrosweepError, dec, enc, lib, msgbuf

REVOLUTE, PRISMATIC, BALL = 0, 1, 2


def _p(a):
    return a.ctypes.data_as(ctypes.c_void_p)


class Tree:
    def __init__(self, handle):
        self._h = handle
        nb, nq, nv = ctypes.c_int(), ctypes.c_int(), ctypes.c_int()
        lib().hs_capi_tree_size(self._h, ctypes.byref(nb), ctypes.byref(nq), ctypes.byref(nv))
        self.nbody, self.nq, self.nv = nb.value, nq.value, nv.value

    @classmethod
    def load(cls, path):
        m = msgbuf()
        h = lib().hs_capi_tree_load(enc(path), m, len(m))
        if not h:
            raise HydrosweepError(dec(m.value))
        return cls(h)

    @classmethod
    def make(cls, parent, jtype, mass, com, inertia, at_parent, at_child, axis, rot0=None, gravity=(0, -9.81, 0)):
        """A tree from arrays (n bodies, parent before child): see hs_capi_tree_make."""
        ints = [np.ascontiguousarray(a, dtype=np.intc) for a in (parent, jtype)]
        dbl = [np.ascontiguousarray(a, dtype=np.float64) for a in (mass, com, inertia, at_parent, at_child, axis)]
        r0 = None if rot0 is None else np.ascontiguousarray(rot0, dtype=np.float64)
        g = np.ascontiguousarray(gravity, dtype=np.float64)
        n = len(ints[0])
        m = msgbuf()
        h = lib().hs_capi_tree_make(n, _p(ints[0]), _p(ints[1]), *[_p(a) for a in dbl],
                                    None if r0 is None else _p(r0), _p(g), m, len(m))
        if not h:
            raise HydrosweepError(dec(m.value))
        return cls(h)

    def close(self):
        if self._h:
            lib().hs_capi_tree_free(self._h)
            self._h = None

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    def state0(self):
        q, v = np.zeros(self.nq), np.zeros(self.nv)
        lib().hs_capi_tree_state0(self._h, _p(q), _p(v))
        return q, v

    def _qv(self, q, v):
        q = np.ascontiguousarray(q, dtype=np.float64)
        v = np.ascontiguousarray(v, dtype=np.float64)
        if q.shape != (self.nq,) or v.shape != (self.nv,):
            raise HydrosweepError(f"q needs {self.nq} and v {self.nv} values, got {q.shape} and {v.shape}")
        return q, v

    def accel(self, q, v):
        """(vd (nv), F (nbody x 6): internal moment and force at every joint, seed 002's signs)."""
        q, v = self._qv(q, v)
        vd, F = np.zeros(self.nv), np.zeros((self.nbody, 6))
        rc = lib().hs_capi_tree_accel(self._h, _p(q), _p(v), _p(vd), _p(F))
        if rc:
            raise HydrosweepError(f"the articulated inertia at joint {rc - 1} is singular")
        return vd, F

    def time_accel(self, q, v, nrep):
        """Seconds per acceleration evaluation, timed inside the library over nrep calls."""
        q, v = self._qv(q, v)
        return lib().hs_capi_tree_time_accel(self._h, _p(q), _p(v), int(nrep))

    def time_semirecursive(self, q, v, nrep):
        """(seconds per evaluation, accelerations) of the step's semi-recursive formulation (dense M,
        LU), or (None, None) when the tree does not fit it (ball joints, more than 16 bodies)."""
        q, v = self._qv(q, v)
        vd = np.zeros(self.nv)
        t = lib().hs_capi_tree_time_semirecursive(self._h, _p(q), _p(v), int(nrep), _p(vd))
        return (t, vd) if t >= 0 else (None, None)

    def rk4(self, q, v, dt, nsteps):
        q, v = self._qv(q, v)
        q, v = q.copy(), v.copy()
        rc = lib().hs_capi_tree_rk4(self._h, _p(q), _p(v), float(dt), int(nsteps))
        if rc:
            raise HydrosweepError(f"the articulated inertia at joint {rc - 1} became singular")
        return q, v

    def arrays(self):
        """The tree's arrays as a dict (hs_capi_tree_make's names and layout)."""
        n = self.nbody
        d = dict(parent=np.zeros(n, np.intc), jtype=np.zeros(n, np.intc), mass=np.zeros(n), com=np.zeros((n, 3)),
                 inertia=np.zeros((n, 6)), at_parent=np.zeros((n, 3)), at_child=np.zeros((n, 3)),
                 axis=np.zeros((n, 3)), rot0=np.zeros((n, 3, 3)), gravity=np.zeros(3))
        lib().hs_capi_tree_arrays(self._h, *[_p(d[k]) for k in ("parent", "jtype", "mass", "com", "inertia",
                                                                 "at_parent", "at_child", "axis", "rot0", "gravity")])
        return d

    def energy(self, q, v):
        q, v = self._qv(q, v)
        ek, ep = ctypes.c_double(), ctypes.c_double()
        lib().hs_capi_tree_energy(self._h, _p(q), _p(v), ctypes.byref(ek), ctypes.byref(ep))
        return ek.value, ep.value
