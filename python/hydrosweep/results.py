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
FORMAT_VERSION = 4


def status_bits(f):
    """The status bits of /status as the file describes them (root attributes status_bit_*,
    written from the one table kernels/hs_status.h): a list of (value, name, kind,
    description), kind "failure" or "warning". f: an open results file (h5py.File)."""
    vals = [int(v) for v in np.atleast_1d(f.attrs["status_bit_values"])]
    return list(zip(vals, texts(f.attrs["status_bit_names"]), texts(f.attrs["status_bit_kinds"]),
                    texts(f.attrs["status_bit_descriptions"])))


def warning_mask(bits):
    """The OR of the warning bits of a status_bits table: an instance whose status has no other
    bit ran to t_end (its values count)."""
    return sum(v for v, _, kind, _ in bits if kind == "warning")


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


def decode_status(status, bits):
    """The names of the bits set in one status value, by the table bits (status_bits of the
    file): [] for 0, 'bit<k>' for a bit the table lacks, so that nothing is silently dropped;
    ['not run'] for -1, the value of the rows of a .part file's chunks not yet written."""
    status = int(status)
    if status == -1:  # a row of a .part file's chunk not yet written
        return ["not run"]
    names = [name for bit, name, _, _ in bits if status & bit]
    known = sum(bit for bit, _, _, _ in bits)
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


# ------------------------------------------------------------------------------------------
# the results object: pandas and xarray views of a file


class Results:
    """A results file as pandas and xarray objects (what hydrosweep.open_results returns).

    params      pandas.DataFrame (instance x swept parameter), units in .attrs["units"]
    status      pandas.DataFrame (instance): status, finished, bits (names of the bits set),
                steps, newton_mean, newton_max, rejected_steps
    stats       xarray.Dataset: one variable per recorded signal, dims (instance, statistic),
                its SI unit in .attrs["units"] (t_max: in s, its .attrs["t_max_units"]);
                .stats.to_array("signal") is instance x signal x statistic
    traj(s)     xarray.DataArray (instance, time) of a trajectory signal
    ensemble    xarray.DataArray (signal, statistic, quantile): the stored 5/50/95 % quantiles
    eig         xarray.Dataset of the eigenvalues (sweeps with outputs.eigenvalues; None
                otherwise): re, im (instance, mode; by decreasing real part), max_real and
                min_damping of the nonzero ones, status (0 ok, 1 no equilibrium, 2 failed,
                3 another Jacobian size, 4 invalid values, -1 not written)
    finished    numpy bool mask of the instances that ran to t_end (warnings allowed)
    status_bits the status bits as the file describes them: (value, name, kind, description)
    units       {signal: SI unit} of the recorded and trajectory signals, as the file stores
                them; joint_kinds {joint: 'revolute' | 'prismatic'}; model_name
    The rows of a .part file's chunks not yet written (opened with partial=True) have status
    -1, finished False and NaN values; complete is then False.
    """

    def __init__(self, path, partial=False):
        import pandas as pd
        import xarray as xr
        self._pd, self._xr = pd, xr
        path = os.fspath(path)
        if partial and (path.endswith(".part") or (not os.path.exists(path) and os.path.exists(path + ".part"))):
            p = path if path.endswith(".part") else path + ".part"
            if not os.path.exists(p):
                raise ResultsError("%s: no such file" % p)
            f = h5py.File(p, "r")
            if int(f.attrs.get("format_version", -1)) != FORMAT_VERSION:
                f.close()
                raise ResultsError("%s: not a results file of format_version %d" % (p, FORMAT_VERSION))
            path = p
        else:
            f = open_results(path)
        self.path = path
        self._f = f
        self.attrs = {}
        for k, v in f.attrs.items():
            if isinstance(v, h5py.Empty) or (isinstance(v, np.ndarray) and v.dtype.kind == "S"):
                self.attrs[k] = texts(v)
            elif isinstance(v, (bytes, np.bytes_)):
                self.attrs[k] = text(v)
            else:
                self.attrs[k] = v.item() if hasattr(v, "item") and np.ndim(v) == 0 else v
        self.complete = int(f.attrs.get("complete", 0)) == 1
        self.signals = texts(f.attrs["signals"])
        self.columns = texts(f.attrs["columns"])
        self.traj_signals = texts(f.attrs["traj_signals"])
        self.model_text = text(f["model_text"][()])
        self.sweep_text = text(f["sweep_text"][()])
        self.instance = f["instance"][()]
        chunk = int(f.attrs["chunk"])
        done = f["done"][()].astype(bool)
        self.written = np.repeat(done, chunk)[: self.instance.size]
        st = f["status"][()].astype(np.int64)
        st[~self.written] = -1
        self._status = st
        self.status_bits = status_bits(f)
        self.finished = (st >= 0) & ((st & ~warning_mask(self.status_bits)) == 0)
        self.units = dict(zip(self.signals, texts(f.attrs["signal_units"])))
        self.units.update(zip(self.traj_signals, texts(f.attrs["traj_units"])))
        self.joint_kinds = dict(zip(texts(f.attrs["joint_names"]), texts(f.attrs["joint_kinds"])))
        self.model_name = text(f.attrs["model_name"])

    def close(self):
        self._f.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self):
        return "<hydrosweep Results %s: %d instances, %d finished, signals %s%s>" % (
            self.path, self.instance.size, int(self.finished.sum()), ", ".join(self.signals),
            "" if self.complete else " (INCOMPLETE: .part)")

    def _rows(self, a):
        a = np.array(a, dtype=float)
        a[~self.written] = np.nan
        return a

    @property
    def params(self):
        names = texts(self._f["params"].attrs["names"])
        df = self._pd.DataFrame(self._rows(self._f["params"][()]).reshape(self.instance.size, len(names)),
                                index=self._pd.Index(self.instance, name="instance"), columns=names)
        df.attrs["units"] = dict(zip(names, texts(self._f["params"].attrs["units"])))
        return df

    @property
    def status(self):
        f = self._f
        df = self._pd.DataFrame({
            "status": self._status,
            "finished": self.finished,
            "bits": [" ".join(decode_status(s, self.status_bits)) for s in self._status],
            "steps": f["steps"][()],
            "newton_mean": f["newton_mean"][()],
            "newton_max": f["newton_max"][()],
            "rejected_steps": f["rejected_steps"][()],
        }, index=self._pd.Index(self.instance, name="instance"))
        return df

    @property
    def stats(self):
        xr = self._xr
        data = {}
        for s in self.signals:
            data[s] = xr.DataArray(self._rows(self._f["stats/" + s][()]), dims=("instance", "statistic"),
                                   attrs={"units": self.units[s], "t_max_units": "s"})
        ds = xr.Dataset(data, coords={"instance": self.instance, "statistic": self.columns})
        ds["statistic"].attrs["note"] = "t_max in s; the others in the signal's unit"
        ds["finished"] = ("instance", self.finished)
        return ds

    def traj(self, signal):
        if signal not in self.traj_signals:
            raise ResultsError("%s: no trajectory of '%s' (trajectories: %s)"
                               % (self.path, signal, ", ".join(self.traj_signals) or "none"))
        return self._xr.DataArray(self._rows(self._f["traj/" + signal][()]), dims=("instance", "time"),
                                  coords={"instance": self.instance, "time": self._f["traj/time"][()]},
                                  name=signal, attrs={"units": self.units[signal]})

    @property
    def eig(self):
        f = self._f
        if int(f.attrs.get("eig_size", 0)) <= 0 or "eig" not in f:
            return None
        xr = self._xr
        st = f["eig/status"][()].astype(np.int64)
        st[~self.written] = -1
        n = int(f.attrs["eig_size"])
        ds = xr.Dataset({
            "re": (("instance", "mode"), self._rows(f["eig/re"][()]), {"units": "1/s"}),
            "im": (("instance", "mode"), self._rows(f["eig/im"][()]), {"units": "rad/s"}),
            "max_real": ("instance", self._rows(f["eig/max_real"][()]), {"units": "1/s"}),
            "min_damping": ("instance", self._rows(f["eig/min_damping"][()]), {"units": "-"}),
            "status": ("instance", st),
        }, coords={"instance": self.instance, "mode": np.arange(1, n + 1)})
        return ds

    @property
    def ensemble(self):
        vals = np.stack([self._f["ensemble/" + s][()] for s in self.signals]) if self.signals else \
            np.zeros((0, len(self.columns), 3))
        return self._xr.DataArray(vals, dims=("signal", "statistic", "quantile"),
                                  coords={"signal": self.signals, "statistic": self.columns,
                                          "quantile": [0.05, 0.5, 0.95]}, name="ensemble")
