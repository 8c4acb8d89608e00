"""The ctypes binding of libhydrosweep_capi.so (include/hs/capi.h).

ctypes, not cffi or nanobind: the C API is flat (handles, strings, numbers), so the binding
needs no compiled code of its own and no package beyond the standard library; the shared
library is built by CMake from the same objects as the `hydrosweep` program.

Where the library is looked for, first found wins:
  1. $HS_CAPI_LIB (a path to the .so);
  2. this package's _lib/ directory (what `pip install .` puts there);
  3. the source tree's build/ directory (cmake --build build --target hydrosweep_capi).
"""
import ctypes
import os

_LIBNAME = "libhydrosweep_capi.so"
_lib = None


class HydrosweepError(Exception):
    """A failure in the C library; the message is the library's own (file:line:col: error:
    key 'k': the rule broken). A failed integration of hydrosweep.simulate carries what it
    computed: .partial, the DataFrame of every step up to the failure (None otherwise)."""

    partial = None


def _candidates():
    env = os.environ.get("HS_CAPI_LIB")
    if env:
        yield env
        return
    here = os.path.dirname(os.path.abspath(__file__))
    yield os.path.join(here, "_lib", _LIBNAME)
    yield os.path.join(here, os.pardir, os.pardir, "build", _LIBNAME)


def lib():
    """The loaded library (loaded once), with its functions' signatures declared."""
    global _lib
    if _lib is not None:
        return _lib
    tried = []
    for p in _candidates():
        p = os.path.normpath(p)
        tried.append(p)
        if os.path.exists(p):
            L = ctypes.CDLL(p)
            break
    else:
        raise HydrosweepError("the hydrosweep C library %s is not built (looked in: %s); install the package "
                              "with `pip install .` from the repository, or build it with `cmake --build build "
                              "--target hydrosweep_capi`, or set HS_CAPI_LIB" % (_LIBNAME, ", ".join(tried)))
    c_char_p, c_int, c_long, c_double, c_size_t, c_void_p = (ctypes.c_char_p, ctypes.c_int, ctypes.c_long,
                                                              ctypes.c_double, ctypes.c_size_t, ctypes.c_void_p)
    sig = {
        "hs_capi_version": (c_char_p, []),
        "hs_capi_model_load": (c_void_p, [c_char_p, c_char_p, c_size_t]),
        "hs_capi_model_free": (None, [c_void_p]),
        "hs_capi_model_copy": (c_void_p, [c_void_p, c_char_p, c_size_t]),
        "hs_capi_model_name": (c_char_p, [c_void_p]),
        "hs_capi_model_sizes": (None, [c_void_p, c_char_p, c_size_t]),
        "hs_capi_param_count": (c_int, [c_void_p]),
        "hs_capi_param_name": (c_char_p, [c_void_p, c_int]),
        "hs_capi_param_unit": (c_char_p, [c_void_p, c_int]),
        "hs_capi_param_value": (c_double, [c_void_p, c_int]),
        "hs_capi_param_value_name": (c_char_p, [c_void_p, c_int]),
        "hs_capi_param_set": (c_int, [c_void_p, c_char_p, c_char_p, c_size_t]),
        "hs_capi_column_count": (c_int, [c_void_p]),
        "hs_capi_column": (None, [c_void_p, c_int, c_char_p, c_size_t, c_char_p, c_size_t]),
        "hs_capi_simulate_csv": (c_int, [c_void_p, c_char_p, c_long, c_char_p, c_size_t]),
        "hs_capi_run": (c_int, [c_char_p, c_char_p, c_long, c_char_p, c_int, c_int, c_char_p, c_size_t]),
        # open trees (hydrosweep.tree); arrays as c_void_p (numpy's data pointers)
        "hs_capi_tree_load": (c_void_p, [c_char_p, c_char_p, c_size_t]),
        "hs_capi_tree_make": (c_void_p, [c_int] + [c_void_p] * 10 + [c_char_p, c_size_t]),
        "hs_capi_tree_free": (None, [c_void_p]),
        "hs_capi_tree_size": (None, [c_void_p, c_void_p, c_void_p, c_void_p]),
        "hs_capi_tree_state0": (None, [c_void_p, c_void_p, c_void_p]),
        "hs_capi_tree_accel": (c_int, [c_void_p, c_void_p, c_void_p, c_void_p, c_void_p]),
        "hs_capi_tree_time_accel": (c_double, [c_void_p, c_void_p, c_void_p, c_long]),
        "hs_capi_tree_rk4": (c_int, [c_void_p, c_void_p, c_void_p, c_double, c_long]),
        "hs_capi_tree_energy": (None, [c_void_p, c_void_p, c_void_p, c_void_p, c_void_p]),
        "hs_capi_tree_arrays": (None, [c_void_p] * 11),
        "hs_capi_tree_time_semirecursive": (c_double, [c_void_p, c_void_p, c_void_p, c_long, c_void_p]),
    }
    for name, (res, args) in sig.items():
        f = getattr(L, name)
        f.restype = res
        f.argtypes = args
    _lib = L
    return L


def msgbuf():
    return ctypes.create_string_buffer(2048)


def enc(s):
    """A str or path as the bytes C takes; one with a NUL is refused (C would cut it there)."""
    b = os.fsencode(s) if isinstance(s, (str, os.PathLike)) else s
    if isinstance(b, bytes) and b"\0" in b:
        raise HydrosweepError("%r contains a NUL character" % (s,))
    return b


def dec(b):
    return b.decode("utf-8", "replace") if b is not None else None
