"""hydrosweep.results -- reading a hydrosweep results file (HDF5) with numpy and h5py.

The layout is docs/results-format.md. `open_results(path)` opens a complete file and refuses,
with the reason, anything else (a missing file, an interrupted run's .part, another format
version); `decode_status` names the bits of /status. examples/read_results.py and
hydrosweep.plot read files through these functions.
"""
import os

import h5py
import numpy as np

# The layout version this reader reads (root attribute format_version; RES_FORMAT_VERSION in
# host/results_h5.h).
FORMAT_VERSION = 3

# Status bits of /status (0 = the instance ran to t_end). Values from kernels/hs_integrator.h
# (enum hs_status_bits) and kernels/hs_batch.h (HS_ST_INVALID); names as host/results.c
# spells them in the attributes failed_<name> of /ensemble.
STATUS_BITS = [
    (1, "maxiter", "Newton hit its iteration limit; the step was not accepted"),
    (2, "nonfinite", "NaN or Inf in the residual or the state"),
    (4, "singular", "singular Newton or projection matrix"),
    (8, "constraint", "constraint violation above HS_PHI_BLOWUP (1e-3)"),
    (16, "geometry", "the initial loop closure has no solution near z0"),
    (32, "stroke", "a cylinder left its stroke (a chamber length <= 0)"),
    (64, "equilibrium", "the cylinders cannot hold the initial configuration statically"),
    (128, "invalid", "a sampled value breaks a physical rule: the instance was not run"),
    (256, "singular_config", "(with maxiter) the loop-closure Jacobian lost rank: a singular "
                             "position"),
    # warnings: the instance finished and its values count, but an assumption failed
    (512, "cavitation", "warning: a volume pressure fell below fluid.p_vapour"),
    (1024, "implausible", "warning: a value outside its plausible range"),
    (2048, "step_size", "adaptive steps: the error tolerance could not be met at integrator.h_min"),
]
WARNING_BITS = 512 | 1024


class ResultsError(Exception):
    """The file cannot be read as a complete hydrosweep results file."""


# ------------------------------------------------------------------------------------------
# small helpers: hydrosweep stores strings as fixed-length ASCII, which h5py returns as bytes


def text(v):
    """A string attribute or dataset value as str (h5py gives numpy.bytes_)."""
    if isinstance(v, h5py.Empty):
        return ""
    if isinstance(v, (bytes, np.bytes_)):
        return v.decode("utf-8", "replace")
    return str(v)


def texts(v):
    """A string-vector attribute as a list of str; an empty list is stored with a null
    dataspace, which h5py returns as h5py.Empty."""
    if isinstance(v, h5py.Empty):
        return []
    return [text(s) for s in np.atleast_1d(v)]


def csv_path_for(h5_path):
    """The CSV summary hydrosweep writes beside a results file: out.h5 -> out.csv, any
    other name -> name + '.csv' (as host/results.c does)."""
    return h5_path[:-3] + ".csv" if h5_path.endswith(".h5") and len(h5_path) > 3 else \
        h5_path + ".csv"


def decode_status(status):
    """The names of the bits set in one status value ([] for 0, 'bit<k>' for an unknown
    bit, so that nothing is silently dropped; ['not run'] for -1, the value of the rows of a
    .part file's chunks not yet written)."""
    status = int(status)
    if status == -1:  # a row of a .part file's chunk not yet written
        return ["not run"]
    names = [name for bit, name, _ in STATUS_BITS if status & bit]
    known = sum(bit for bit, _, _ in STATUS_BITS)
    names += ["bit%d" % b for b in range(32) if status & ~known & (1 << b)]
    return names


# ------------------------------------------------------------------------------------------
# opening a file: refuse anything that is not a complete results file, with the reason


def _incomplete(path, final):
    """The message for an interrupted run's file PATH (its final name FINAL)."""
    detail, sweep = "", "SWEEP"
    try:
        with h5py.File(path, "r") as f:
            done = f["done"][()]
            detail = " (%d of %d chunks written)" % (int(np.count_nonzero(done)), done.size)
            sweep = text(f.attrs.get("sweep_path", b"SWEEP"))
    except OSError as e:
        if "lock" in str(e):  # HDF5 locks a file that a process has open for writing
            return ("%s: the run is still going: a running hydrosweep has this file open "
                    "for writing (HDF5: %s); it becomes %s when the last chunk is written"
                    % (path, e, final))
    except KeyError:
        pass  # damaged: the general message is enough
    return ("%s: the run is incomplete%s: this is an interrupted run's .part file. Its unwritten "
            "rows are undefined and it has no ensemble quantiles and no CSV summary yet. "
            "Finish it with `hydrosweep run %s -o %s --resume` (docs/results-format.md shows "
            "how to read the finished chunks of a .part file)" % (path, detail, sweep, final))


def open_results(path):
    """Opens PATH read-only and checks that it is a complete hydrosweep results file of a
    format this reader knows. Returns the h5py.File; raises ResultsError otherwise."""
    if path.endswith(".part"):
        if not os.path.exists(path):
            raise ResultsError("%s: no such file" % path)
        raise ResultsError(_incomplete(path, path[:-len(".part")]))
    if not os.path.exists(path):
        if os.path.exists(path + ".part"):
            raise ResultsError(_incomplete(path + ".part", path))
        raise ResultsError("%s: no such file (and no %s.part of an interrupted run)"
                           % (path, path))
    try:
        f = h5py.File(path, "r")
    except OSError as e:
        raise ResultsError("%s: cannot be opened as HDF5 (not an HDF5 file, damaged, or being "
                           "written by a running hydrosweep): %s" % (path, e))
    if "format_version" not in f.attrs:
        f.close()
        raise ResultsError("%s: not a hydrosweep results file (no attribute format_version)"
                           % path)
    if int(f.attrs["format_version"]) != FORMAT_VERSION:
        v = int(f.attrs["format_version"])
        f.close()
        raise ResultsError("%s: results format_version %d; this reader reads version %d"
                           % (path, v, FORMAT_VERSION))
    if int(f.attrs.get("complete", 0)) != 1:
        f.close()
        raise ResultsError(_incomplete(path, path))
    return f
