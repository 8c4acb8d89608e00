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
import numbers

import numpy as np

from ._capi import HydrosweepError, dec, enc, lib, msgbuf

REVOLUTE, PRISMATIC, BALL = 0, 1, 2


def _p(a):
    return a.ctypes.data_as(ctypes.c_void_p)


def _array(name, a, dtype, shape):
    """a as a C-contiguous array of dtype and exactly this shape (or flat, as many values), else
    TypeError (not numbers) or ValueError naming the argument: C copies shape's count of values."""
    try:
        x = np.ascontiguousarray(a, dtype=dtype)
    except (TypeError, ValueError) as e:
        raise TypeError(f"{name} must be numbers, got {a!r:.60}") from e
    if x.shape != shape and not (x.ndim == 1 and x.size == int(np.prod(shape))):  # (3, n) is no (n, 3)
        raise ValueError(f"{name} needs shape {shape}, got {x.shape}")
    if dtype is np.float64 and not np.all(np.isfinite(x)):
        raise ValueError(f"{name} has values that are not finite")
    return x.reshape(shape)


def _count(name, v, lo, hi=2**62):
    """v as an int in [lo, hi], else TypeError (no integer: 2.7, True) or ValueError."""
    if isinstance(v, bool) or not isinstance(v, numbers.Integral):
        raise TypeError(f"{name} must be an integer, got {v!r}")
    if not lo <= int(v) <= hi:
        raise ValueError(f"{name} must be in [{lo}, {hi}], got {int(v)}")
    return int(v)


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
        n = np.size(parent)
        if n < 1 or np.ndim(parent) != 1:
            raise ValueError(f"parent needs one index per body (a list of n >= 1), got shape {np.shape(parent)}")
        ints = [_array(k, a, np.intc, (n,)) for k, a in (("parent", parent), ("jtype", jtype))]
        dbl = [_array(k, a, np.float64, sh) for k, a, sh in
               (("mass", mass, (n,)), ("com", com, (n, 3)), ("inertia", inertia, (n, 6)),
                ("at_parent", at_parent, (n, 3)), ("at_child", at_child, (n, 3)), ("axis", axis, (n, 3)))]
        r0 = None if rot0 is None else _array("rot0", rot0, np.float64, (n, 3, 3))
        g = _array("gravity", gravity, np.float64, (3,))
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

    def _handle(self):
        if not self._h:
            raise ValueError("the tree is closed")
        return self._h

    def state0(self):
        q, v = np.zeros(self.nq), np.zeros(self.nv)
        lib().hs_capi_tree_state0(self._handle(), _p(q), _p(v))
        return q, v

    def _qv(self, q, v):
        self._handle()
        q = _array("q", q, np.float64, (self.nq,))
        v = _array("v", v, np.float64, (self.nv,))
        return q, v

    def accel(self, q, v):
        """(vd (nv), F (nbody x 6): internal moment and force at every joint, seed 002's signs)."""
        q, v = self._qv(q, v)
        vd, F = np.zeros(self.nv), np.zeros((self.nbody, 6))
        rc = lib().hs_capi_tree_accel(self._handle(), _p(q), _p(v), _p(vd), _p(F))
        if rc:
            raise HydrosweepError(f"the articulated inertia at joint {rc - 1} is singular")
        return vd, F

    def time_accel(self, q, v, nrep):
        """Seconds per acceleration evaluation, timed inside the library over nrep calls."""
        q, v = self._qv(q, v)
        return lib().hs_capi_tree_time_accel(self._handle(), _p(q), _p(v), _count("nrep", nrep, 1))

    def time_semirecursive(self, q, v, nrep):
        """(seconds per evaluation, accelerations) of the step's semi-recursive formulation (dense M,
        LU), or (None, None) when the tree does not fit it (ball joints, more than 16 bodies)."""
        q, v = self._qv(q, v)
        vd = np.zeros(self.nv)
        t = lib().hs_capi_tree_time_semirecursive(self._handle(), _p(q), _p(v), _count("nrep", nrep, 1), _p(vd))
        return (t, vd) if t >= 0 else (None, None)

    def rk4(self, q, v, dt, nsteps):
        q, v = self._qv(q, v)
        q, v = q.copy(), v.copy()
        if isinstance(dt, bool) or not isinstance(dt, numbers.Real) or not (np.isfinite(dt) and dt > 0):
            raise ValueError(f"dt must be a finite step > 0 (s), got {dt!r}")
        rc = lib().hs_capi_tree_rk4(self._handle(), _p(q), _p(v), float(dt), _count("nsteps", nsteps, 0))
        if rc:
            raise HydrosweepError(f"the articulated inertia at joint {rc - 1} became singular")
        return q, v

    def arrays(self):
        """The tree's arrays as a dict (hs_capi_tree_make's names and layout)."""
        n = self.nbody
        d = dict(parent=np.zeros(n, np.intc), jtype=np.zeros(n, np.intc), mass=np.zeros(n), com=np.zeros((n, 3)),
                 inertia=np.zeros((n, 6)), at_parent=np.zeros((n, 3)), at_child=np.zeros((n, 3)),
                 axis=np.zeros((n, 3)), rot0=np.zeros((n, 3, 3)), gravity=np.zeros(3))
        lib().hs_capi_tree_arrays(self._handle(), *[_p(d[k]) for k in ("parent", "jtype", "mass", "com", "inertia",
                                                                 "at_parent", "at_child", "axis", "rot0", "gravity")])
        return d

    def energy(self, q, v):
        q, v = self._qv(q, v)
        ek, ep = ctypes.c_double(), ctypes.c_double()
        lib().hs_capi_tree_energy(self._handle(), _p(q), _p(v), ctypes.byref(ek), ctypes.byref(ep))
        return ek.value, ep.value
