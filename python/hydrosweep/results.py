"""hydrosweep.results -- reading a hydrosweep results file (HDF5) with numpy and h5py.

The layout is docs/results-format.md. `open_results(path)` opens a complete file and refuses,
with the reason, anything else (a missing file, an interrupted run's .part, another format
version); `decode_status` names the bits of /status. examples/read_results.py and
hydrosweep.plot read files through these functions.
"""
import os
import zlib

import h5py
import numpy as np

# The layout version this reader reads (root attribute format_version; RES_FORMAT_VERSION in
# host/results/results_h5.h).
FORMAT_VERSION = 5


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


ENGINEERING = {"Pa": (1e-6, "MPa"), "rad": (180.0 / np.pi, "deg"), "rad/s": (180.0 / np.pi, "deg/s"),
               "m": (1e3, "mm"), "m/s": (1e3, "mm/s"), "m^3/s": (6e4, "L/min"), "m^3": (1e3, "L"),
               "m^3/rev": (1e6, "cm^3/rev")}


def eng_scale(unit, si=False):
    """(factor, unit shown) for a value stored in the SI unit `unit`: the units of the field
    (pressures in MPa, angles in degrees, strokes in mm, flows in L/min, volumes in L), or as
    stored with si."""
    return (1.0, unit or "-") if si else ENGINEERING.get(unit, (1.0, unit or "-"))


class ResultsError(Exception):
    """The file cannot be read as a complete hydrosweep results file."""


# ------------------------------------------------------------------------------------------
# checksums (docs/results-format.md, Checksums): every dataset with data carries HDF5's
# Fletcher32 filter, one checksum per chunk, which HDF5 verifies on every read (h5py raises
# OSError "... data error detected by Fletcher32 checksum"); the scalar texts /model_text and
# /sweep_text carry an attribute crc32 instead (CRC-32 of the text, zlib.crc32). Fletcher32
# cannot see a chunk zeroed or erased together with its checksum, so each run chunk's rows of
# every row dataset also have a CRC-32 of their bytes as stored (little-endian, row-major) in
# /crc[chunk, k] (its attribute datasets names column k), checked on a dataset's first read
# (_Dataset._verify) for every finished chunk (/done). The file open_results returns reads its
# datasets through _Dataset, which turns any failure into a ResultsError naming the file, the
# dataset, the chunk and its rows.

_TEXT_CRC = "crc32"


def _checksum_error(e):
    return "Fletcher32" in str(e)


def _locked(e):
    """An OSError of HDF5's file lock: a process (a running hydrosweep) has the file open for
    writing (h5py: BlockingIOError, "unable to lock file, errno = 11")."""
    return isinstance(e, BlockingIOError) or "lock" in str(e)


_WHY = ("its bytes changed after they were written (a disk, copy or transfer error): its values "
        "cannot be trusted")


def _damaged(ds, e):
    """The message for a checksum failure met reading dataset ds: its damaged chunks, found
    by reading them one by one."""
    where = ""
    if ds.chunks and ds.shape and ds.shape[0] > 0:
        crow, bad = ds.chunks[0], []
        for k, r0 in enumerate(range(0, ds.shape[0], crow)):
            try:
                h5py.Dataset.__getitem__(ds, np.s_[r0:r0 + crow])
            except OSError as e2:
                if _checksum_error(e2):
                    bad.append(k)
        if bad:
            r0 = bad[0] * crow
            where = " in chunk %d (rows %d..%d)" % (bad[0], r0, min(r0 + crow, ds.shape[0]) - 1)
            if len(bad) > 1:
                where += " and in %d more chunks (%s)" % (len(bad) - 1, ", ".join(str(b) for b in bad[1:8])
                                                          + (", ..." if len(bad) > 8 else ""))
    return ("%s: results file is damaged: dataset %s: checksum mismatch (Fletcher32)%s: %s (HDF5: %s)"
            % (ds.file.filename, ds.name, where, _WHY, e))


class _Dataset(h5py.Dataset):
    """An h5py.Dataset whose reads raise ResultsError on a checksum failure (see above)."""
    _root = None

    def _verify(self):
        """The first read of a row dataset: its finished chunks against /crc."""
        if self._root is None or self.name in ("/crc", "/done"):
            return
        table = self._root._crc_table()
        if self.name not in table[0] or self.name in table[3]:
            return
        k, crc, done, chunk = table[0][self.name], table[1], table[2], table[4]
        for c in range(len(done)):
            if not done[c]:
                continue
            a, e = c * chunk, min((c + 1) * chunk, self.shape[0])
            try:
                v = h5py.Dataset.__getitem__(self, np.s_[a:e])
            except OSError as err:
                if _checksum_error(err):
                    raise ResultsError(_damaged(self, err)) from None
                raise
            got = zlib.crc32(np.ascontiguousarray(v, dtype=v.dtype.newbyteorder("<")).tobytes()) & 0xFFFFFFFF
            if got != int(crc[c, k]):
                raise ResultsError("%s: results file is damaged: dataset %s: checksum mismatch (CRC-32) in chunk %d "
                                   "(rows %d..%d): its rows have CRC-32 0x%08x, /crc[%d][%d] says 0x%08x: %s"
                                   % (self.file.filename, self.name, c, a, e - 1, got, c, k, int(crc[c, k]), _WHY))
        table[3].add(self.name)

    def __getitem__(self, args, new_dtype=None):
        self._verify()
        try:
            v = h5py.Dataset.__getitem__(self, args) if new_dtype is None else \
                h5py.Dataset.__getitem__(self, args, new_dtype=new_dtype)
        except OSError as e:
            if _checksum_error(e):
                raise ResultsError(_damaged(self, e)) from None
            raise
        if self.shape == () and self.dtype.kind == "S" and _TEXT_CRC in self.attrs:
            t = bytes(v).split(b"\0", 1)[0]
            want = int(self.attrs[_TEXT_CRC])
            if zlib.crc32(t) & 0xFFFFFFFF != want:
                raise ResultsError("%s: results file is damaged: dataset %s: checksum mismatch (its text has "
                                   "CRC-32 0x%08x, its attribute %s says 0x%08x): %s"
                                   % (self.file.filename, self.name, zlib.crc32(t) & 0xFFFFFFFF, _TEXT_CRC,
                                      want, _WHY))
        return v

    def read_direct(self, *args, **kw):
        self._verify()
        try:
            return h5py.Dataset.read_direct(self, *args, **kw)
        except OSError as e:
            if _checksum_error(e):
                raise ResultsError(_damaged(self, e)) from None
            raise


class _Checked:
    """Groups and files whose datasets are _Datasets."""

    _root = None

    def __getitem__(self, name):
        obj = super().__getitem__(name)
        root = self if isinstance(self, _File) else self._root
        if isinstance(obj, h5py.Dataset) and not isinstance(obj, _Dataset):
            obj = _Dataset(obj.id)
        elif isinstance(obj, h5py.Group) and not isinstance(obj, (h5py.File, _Checked)):
            obj = _Group(obj.id)
        if isinstance(obj, (_Dataset, _Group)):
            obj._root = root
        return obj


class _Group(_Checked, h5py.Group):
    pass


class _File(_Checked, h5py.File):
    _crc = None

    def _crc_table(self):
        """({dataset: column}, /crc values, /done, verified names, rows per chunk), read once."""
        if self._crc is None:
            d, done = self["crc"], np.asarray(self["done"][()])
            names = texts(d.attrs.get("datasets", h5py.Empty("S1")))
            if d.shape != (done.size, len(names)):
                raise ResultsError("%s: results file is damaged: /crc is %s, not (%d chunks x %d datasets) with the "
                                   "attribute datasets naming them" % (self.filename, d.shape, done.size, len(names)))
            self._crc = ({n: k for k, n in enumerate(names)}, np.asarray(d[()]), done, set(), int(self.attrs["chunk"]))
        return self._crc


def _check_checksums(f, path):
    """Refuses a results file whose datasets lack their checksums (written by another program,
    or by a build of format 4 before checksums were stored): their bytes cannot be verified."""
    names = ["instance", "params", "status", "steps", "newton_mean", "newton_max", "rejected_steps",
             "done", "traj/time", "crc"]
    names += ["stats/" + s for s in texts(f.attrs.get("signals", h5py.Empty("S1")))]
    names += ["ensemble/" + s for s in texts(f.attrs.get("signals", h5py.Empty("S1")))]
    names += ["traj/" + s for s in texts(f.attrs.get("traj_signals", h5py.Empty("S1")))]
    if int(f.attrs.get("eig_size", 0)) > 0:
        names += ["eig/" + s for s in ("re", "im", "max_real", "min_damping", "status")]
    if "crc" not in f:
        raise ResultsError("%s: results file is damaged: it has no /crc (the chunks' CRC-32 checksums)" % path)
    bare = []
    for n in names:
        d = h5py.Group.get(f, n)
        if isinstance(d, h5py.Dataset) and d.size and not d.fletcher32:
            bare.append("/" + n)
    for n in ("model_text", "sweep_text"):
        d = h5py.Group.get(f, n)
        if isinstance(d, h5py.Dataset) and _TEXT_CRC not in d.attrs:
            bare.append("/" + n)
    if bare:
        raise ResultsError("%s: results file is damaged: dataset%s %s ha%s no checksum (Fletcher32 filter, or the "
                           "attribute crc32 of a text): written by another program?"
                           % (path, "s" if len(bare) > 1 else "", ", ".join(bare[:6]) + (", ..." if len(bare) > 6 else ""),
                              "ve" if len(bare) > 1 else "s"))


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
    other name -> name + '.csv' (as host/results/results.c does)."""
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
        if _locked(e):  # HDF5 locks a file that a process has open for writing
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
    format this reader knows, whose datasets carry their checksums. Returns the h5py.File (its
    reads raise ResultsError, naming the dataset and the chunk, where a checksum does not
    match); raises ResultsError otherwise."""
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
        f = _File(path, "r")
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
    try:
        _check_checksums(f, path)
    except ResultsError:
        f.close()
        raise
    return f


# ------------------------------------------------------------------------------------------
# the results object: pandas and xarray views of a file


class Results:
    """A results file as pandas and xarray objects (what hydrosweep.open_results returns).

    params      pandas.DataFrame (instance x swept parameter), units in .attrs["units"]
    status      pandas.DataFrame (instance): status, finished, bits (names of the bits set),
                steps, newton_mean, newton_max, rejected_steps
    stats       xarray.Dataset: one variable per recorded signal, dims (instance, statistic),
                statistic min, max, final, mean, rms (those stored), in the signal's SI unit
                (.attrs["units"]); .stats.to_array("signal") is instance x signal x statistic
    t_max       xarray.Dataset: per signal, when each instance first reached its maximum (s;
                None when t_max was not stored)
    traj(s)     xarray.DataArray (instance, time) of a trajectory signal
    ensemble    xarray.DataArray (signal, statistic, quantile): the stored 5/50/95 % quantiles,
                each one's unit in the coordinate units (signal, statistic)
    eig         xarray.Dataset of the eigenvalues (sweeps with outputs.eigenvalues; None
                otherwise): re, im (instance, mode; by decreasing real part), max_real and
                min_damping of the nonzero ones, status (0 ok, 1 no equilibrium, 2 failed,
                3 another Jacobian size, 4 invalid values, -1 not written)
    finished    numpy bool mask of the instances that ran to t_end (warnings allowed)
    status_bits the status bits as the file describes them: (value, name, kind, description)
    units       {signal: SI unit} of the recorded and trajectory signals, as the file stores
                them; joint_kinds {joint: 'revolute' | 'prismatic' | 'ball'}; model_name
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
            try:
                f = _File(p, "r")
            except OSError as e:
                if _locked(e):
                    raise ResultsError("%s: the run is still writing it: a running hydrosweep has this file open "
                                       "for writing (HDF5: %s); open it when the run has stopped (interrupted, or "
                                       "complete as %s)" % (p, e, p[:-len(".part")])) from None
                raise ResultsError("%s: cannot be opened as HDF5 (not an HDF5 file, or damaged): %s"
                                   % (p, e)) from None
            if int(f.attrs.get("format_version", -1)) != FORMAT_VERSION:
                f.close()
                raise ResultsError("%s: not a results file of format_version %d" % (p, FORMAT_VERSION))
            try:
                _check_checksums(f, p)
            except ResultsError:
                f.close()
                raise
            path = p
        else:
            f = open_results(path)
        self.path = path
        self._f = f
        try:
            self._read(f)
        except BaseException:
            f.close()  # a damaged dataset (ResultsError) or another failure: not left open
            raise

    def _read(self, f):
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

    def _head(self):
        return "hydrosweep Results %s: %s, %d instances, %d finished%s" % (
            self.path, self.model_name, self.instance.size, int(self.finished.sum()),
            "" if self.complete else " (INCOMPLETE: .part)")

    def summary(self, si=False):
        """The ensemble's 5/50/95 % quantiles of every statistic of every signal (the table
        `hydrosweep run` prints) as a DataFrame indexed by (signal, statistic), in the units of
        the field (MPa, deg, mm, L/min; si=True: SI as stored), each row's unit in column unit."""
        e = self.ensemble
        rows, index = [], []
        for i, sg in enumerate(e.coords["signal"].values):
            for j, st in enumerate(e.coords["statistic"].values):
                k, unit = eng_scale(str(e.coords["units"].values[i, j]), si)
                rows.append(list(e.values[i, j] * k) + [unit])
                index.append((str(sg), str(st)))
        return self._pd.DataFrame(rows, columns=["5%", "50%", "95%", "unit"],
                                  index=self._pd.MultiIndex.from_tuples(index, names=["signal", "statistic"]))

    def __repr__(self):
        return "%s\n%s" % (self._head(), self.summary().to_string(float_format=lambda v: "%.6g" % v))

    def _repr_html_(self):
        import html
        return "<p><b>%s</b></p>%s" % (html.escape(self._head()), self.summary().to_html(float_format=lambda v: "%.6g" % v))

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
        # the statistics in the signal's unit; t_max (a time) is apart, in .t_max, so that no
        # selection of a statistic carries a unit that is not its own
        xr = self._xr
        keep = [i for i, c in enumerate(self.columns) if c != "t_max"]
        data = {}
        for s in self.signals:
            data[s] = xr.DataArray(self._rows(self._f["stats/" + s][()])[:, keep], dims=("instance", "statistic"),
                                   attrs={"units": self.units[s]})
        ds = xr.Dataset(data, coords={"instance": self.instance,
                                      "statistic": [self.columns[i] for i in keep]})
        ds["finished"] = ("instance", self.finished)
        return ds

    @property
    def t_max(self):
        # when each signal first reached its maximum (s); None when t_max was not stored
        if "t_max" not in self.columns:
            return None
        xr = self._xr
        c = self.columns.index("t_max")
        ds = xr.Dataset({s: xr.DataArray(self._rows(self._f["stats/" + s][()])[:, c], dims=("instance",),
                                         attrs={"units": "s"}) for s in self.signals},
                        coords={"instance": self.instance})
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
        # each (signal, statistic) in its own unit: the coordinate units (t_max in s)
        units = np.array([["s" if c == "t_max" else self.units[s] for c in self.columns] for s in self.signals],
                         dtype=object).reshape(len(self.signals), len(self.columns))
        return self._xr.DataArray(vals, dims=("signal", "statistic", "quantile"),
                                  coords={"signal": self.signals, "statistic": self.columns,
                                          "quantile": [0.05, 0.5, 0.95],
                                          "units": (("signal", "statistic"), units)}, name="ensemble")
