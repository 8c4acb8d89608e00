"""hydrosweep from Python: the C library through a thin binding, and its results as pandas and
xarray objects.

    import hydrosweep as hs
    m = hs.load_model("models/fourbar_rahikainen2018.yaml")
    m.params["fluid.B_oil"]                  # 1.5e9 (SI; m.units["fluid.B_oil"] == "Pa")
    df = hs.simulate(m, set={"fluid.B_oil": "1200 MPa"}, t_end=1.0, every=10)
    r = hs.run("sweeps/friction_bulk_mc.yaml", backend="cpu", n=64, out="out/mc.h5")
    r.stats["p_piston"].sel(statistic="max")
    hs.plot.fan(r, "p_piston")

  load_model(path)          a Model: .name, .path, .params (a read-only mapping name -> value
                            in SI, as `hydrosweep info` lists them), .units, .set(name, value)
  simulate(model, set=, t_end=, dt=, every=)
                            one instance on the CPU reference path: a pandas DataFrame with the
                            columns of `hydrosweep simulate` (units in df.attrs["units"])
  run(sweep, backend=, n=, out=, threads=, progress=)
                            `hydrosweep run`: the Results object of the file it wrote
  open_results(path, partial=False)
                            a results file: .params, .status, .stats, .t_max, .traj(signal), .ensemble,
                            .eig (hydrosweep.results.Results)
  plot                      fan charts, histograms, scatters, status counts, stability maps
  analyze.sobol(results, signal, stat="max")
                            Sobol' indices by SALib of a saltelli sweep (hydrosweep.analyze)
Errors of the C library raise HydrosweepError with its message (file:line:col, key, rule).
Nothing is computed twice: the binding (hydrosweep._capi, ctypes) calls the library that the
`hydrosweep` program is built from.
"""
import os
import tempfile

from ._capi import HydrosweepError

__version__ = "0.1.0"
__all__ = ["HydrosweepError", "Model", "load_model", "simulate", "run", "open_results", "plot", "analyze"]


def __dir__():
    """The API only (not the modules and helpers it is made of)."""
    return sorted(__all__ + ["__version__"])


def __getattr__(name):
    """hs.plot and hs.analyze, imported on first use (so that `python3 -m hydrosweep.plot`
    runs it once)."""
    if name in ("plot", "analyze"):
        import importlib
        mod = importlib.import_module("." + name, __name__)
        if name == "plot":  # matplotlib is the extra [plot]: say so at hs.plot, not at the first figure
            mod._pyplot()
        return mod
    raise AttributeError("module 'hydrosweep' has no attribute %r" % name)


def open_results(path, partial=False):
    """A results file of `hydrosweep run` as a Results object (hydrosweep.results.Results):
    params (DataFrame), status (DataFrame, decoded), stats (xarray Dataset), traj(signal)
    (xarray DataArray), ensemble, eig. partial=True also opens an interrupted run's .part file
    (its unwritten rows NaN, status -1). Needs pandas and xarray."""
    from .results import Results
    return Results(path, partial=partial)


def _int_arg(name, v, lo, hi, allow_none=False):
    """v as a Python int in [lo, hi], or HydrosweepError: never wrapped or truncated on its
    way to C (ctypes would wrap 2**64 + 1 to 1 and truncate 2.5 to 2)."""
    if v is None and allow_none:
        return None
    import numbers
    if isinstance(v, bool) or not isinstance(v, numbers.Integral):
        raise HydrosweepError("%s must be an integer, got %r" % (name, v))
    v = int(v)
    if not lo <= v <= hi:
        raise HydrosweepError("%s must be in [%d, %d], got %d" % (name, lo, hi, v))
    return v


def _path_arg(name, p):
    """A path for the C library: str, bytes or os.PathLike, without NUL (C would cut it
    there and use another file)."""
    if not isinstance(p, (str, bytes, os.PathLike)):
        raise HydrosweepError("%s must be a path, got %r" % (name, p))
    b = os.fsencode(p)
    if b"\0" in b:
        raise HydrosweepError("%s %r contains a NUL character" % (name, p))
    return os.fsdecode(b)


def _value_text(v):
    """A parameter value as the C parser takes it: numbers exactly (repr), strings as given
    ("1200 MPa", "lugre")."""
    if isinstance(v, bool):
        raise HydrosweepError("a parameter value cannot be a bool (%r)" % v)
    if isinstance(v, (int, float)):
        return repr(float(v))
    return str(v)


class _Params:
    """A read-only mapping name -> value (SI; an enumeration's integer) of a Model."""

    def __init__(self, model):
        self._m = model

    def __getitem__(self, name):
        i = self._m._index(name)
        return self._m._c.hs_capi_param_value(self._m._h, i)

    def __iter__(self):
        return iter(self._m._names())

    def __len__(self):
        return self._m._c.hs_capi_param_count(self._m._h)

    def __contains__(self, name):
        return name in self._m._names()

    def keys(self):
        return self._m._names()

    def items(self):
        return [(k, self[k]) for k in self._m._names()]

    def values(self):
        return [self[k] for k in self._m._names()]

    def get(self, name, default=None):
        return self[name] if name in self else default

    def __repr__(self):
        return "{%s}" % ", ".join("%r: %r" % kv for kv in self.items())


class Model:
    """A model file loaded and validated by the C library, with its named parameters.
    set() changes a parameter (re-derived and re-validated in C; an unknown name or a broken
    rule raises HydrosweepError with the library's message). simulate() and run() use the
    model's current values."""

    def __init__(self, path, _copy_of=None):
        from . import _capi
        self._c = _capi.lib()
        self.path = _path_arg("model", path)
        self._sets = []
        buf = _capi.msgbuf()
        if _copy_of is not None:  # the model in memory, not its file again
            h = self._c.hs_capi_model_copy(_copy_of._h, buf, len(buf))
        else:
            h = self._c.hs_capi_model_load(_capi.enc(self.path), buf, len(buf))
        if not h:
            raise HydrosweepError(_capi.dec(buf.value))
        self._h = h
        self.name = _capi.dec(self._c.hs_capi_model_name(h))
        self.params = _Params(self)

    def _names(self):
        from . import _capi
        return [_capi.dec(self._c.hs_capi_param_name(self._h, i)) for i in range(self._c.hs_capi_param_count(self._h))]

    def _index(self, name):
        names = self._names()
        if name not in names:
            import difflib
            near = difflib.get_close_matches(name, names, n=3)
            raise KeyError("%s: no parameter '%s'%s" % (self.path, name,
                                                        " (did you mean %s?)" % ", ".join(near) if near else ""))
        return names.index(name)

    @property
    def units(self):
        from . import _capi
        return {n: _capi.dec(self._c.hs_capi_param_unit(self._h, i)) for i, n in enumerate(self._names())}

    def column_units(self):
        """{column: SI unit} of the CSV that simulate() reads (t, the joints by their kind:
        rad or m, pressures Pa, ...), from the C library."""
        from . import _capi
        name, unit = _capi.msgbuf(), _capi.msgbuf()
        out = {}
        for i in range(self._c.hs_capi_column_count(self._h)):
            self._c.hs_capi_column(self._h, i, name, len(name), unit, len(unit))
            out[_capi.dec(name.value)] = _capi.dec(unit.value)
        return out

    def value_name(self, name):
        """An enumeration's current value by name (e.g. "brown_mcphee"), None for numbers."""
        from . import _capi
        return _capi.dec(self._c.hs_capi_param_value_name(self._h, self._index(name)))

    def set(self, name, value):
        """Sets parameter `name` to `value`: a number in SI, or a string with a unit
        ("1200 MPa", "30 deg") or an enumeration's value name ("lugre")."""
        from . import _capi
        a = "%s=%s" % (name, _value_text(value))
        buf = _capi.msgbuf()
        if self._c.hs_capi_param_set(self._h, _capi.enc(a), buf, len(buf)):
            raise HydrosweepError(_capi.dec(buf.value))
        self._sets.append(a)
        return self

    def copy(self):
        """A new Model equal to this one as it is in memory: the text loaded (not the file
        again, which may have changed or been removed since) with every value set on it."""
        m = Model(self.path, _copy_of=self)
        m._sets = list(self._sets)
        return m

    def close(self):
        if getattr(self, "_h", None):
            self._c.hs_capi_model_free(self._h)
            self._h = None

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    @property
    def sizes(self):
        """What the model is made of: "4 bodies, 3 joint coordinates, ..., 2 components: pump
        (pump), relief (relief_valve)"."""
        from . import _capi
        buf = _capi.msgbuf()
        self._c.hs_capi_model_sizes(self._h, buf, len(buf))
        return _capi.dec(buf.value)

    def __repr__(self):
        return "<hydrosweep Model %s (%s): %s; %d parameters%s>" % (
            self.name, self.path, self.sizes, len(self.params), (", set: " + ", ".join(self._sets)) if self._sets else "")


def load_model(path):
    """Loads and validates a model file (YAML, docs/model-format.md): a Model."""
    return Model(path)


def simulate(model, set=None, t_end=None, dt=None, every=None):
    """One instance of `model` (a Model or a model file path) on the CPU reference path, with
    the parameter changes `set` ({name: value}) and the end time and step (s) if given: a
    pandas DataFrame with the columns of `hydrosweep simulate` (t, joints, pressures, spools,
    cylinders, energies, ...), every `every`-th step (default: the model's outputs.every, else
    1) and the last; df.attrs["units"] maps each
    column to its SI unit. A failed integration raises HydrosweepError (the message says when
    and why) whose .partial is the DataFrame of every step up to the failure, as the CLI keeps
    its CSV."""
    import pandas as pd
    from . import _capi
    m = model.copy() if isinstance(model, Model) else Model(model)
    try:
        for k, v in (set or {}).items():
            m.set(k, v)
        if t_end is not None:
            m.set("integrator.t_end", t_end)
        if dt is not None:
            m.set("integrator.dt", dt)
        every = 0 if every is None else _int_arg("simulate: every", every, 1, 2**62)
        with tempfile.TemporaryDirectory() as tmp:
            csv = os.path.join(tmp, "sim.csv")
            buf = _capi.msgbuf()
            rc = m._c.hs_capi_simulate_csv(m._h, _capi.enc(csv), every, buf, len(buf))
            if rc and rc != 3:  # 3: the integration failed, the CSV holds the steps before
                raise HydrosweepError(_capi.dec(buf.value))
            df = pd.read_csv(csv, float_precision="round_trip")
        units = m.column_units()
        df.attrs["units"] = {c: units.get(c, "") for c in df.columns}
        df.attrs["model"] = m.path
        if rc:
            e = HydrosweepError(_capi.dec(buf.value))
            e.partial = df
            raise e
        return df
    finally:
        m.close()


def _sweep_spec(sweep):
    """A sweep given as a dict (the keys of a sweep file; its "model" a path or a Model) or as
    a Model (a sweep of its current values: instances 1 unless n says more): the dict of a sweep
    file, with the model's path absolute and each value set() on a Model one parameter of that
    single value (the dict's own parameters first). The name for out/<name>.h5 with it."""
    if isinstance(sweep, Model):
        sweep = {"model": sweep}
    if not isinstance(sweep, dict):
        raise TypeError("sweep must be a sweep file's path, a dict of its keys or a Model, not %s"
                        % type(sweep).__name__)
    spec = dict(sweep)
    m = spec.get("model")
    if isinstance(m, Model):
        params = dict(spec.get("parameters") or {})
        for a in m._sets:
            name, value = a.split("=", 1)
            params.setdefault(name, {"values": [value]})
        spec["model"], name = m.path, m.name
        if params:
            spec["parameters"] = params
    elif isinstance(m, (str, os.PathLike)):
        name = os.path.splitext(os.path.basename(os.fspath(m)))[0]
    else:
        raise TypeError("the sweep's model must be a model file's path or a Model, not %s" % type(m).__name__)
    spec["model"] = os.path.abspath(_path_arg("model", spec["model"]))
    spec.setdefault("instances", 1)
    return spec, name


def run(sweep, backend="cpu", n=None, out=None, threads=0, progress=True):
    """`hydrosweep run SWEEP`: runs every instance of a sweep (docs/sweep-format.md) on a
    backend ("cpu", "gpu", "reference", "auto"), n instances if given (else the sweep's), into
    the results file `out` (default out/<sweep name>.h5; its directory is made if missing),
    with a progress line on stderr if progress; returns its Results (open_results). The sweep
    is a file's path, a dict of a sweep file's keys ({"model": m, "instances": 100,
    "parameters": {...}}, m a path or a Model), or a Model (its current values, set() ones
    included); anything else raises TypeError. Bad input raises HydrosweepError with the
    library's message; so does a failed run."""
    import json
    from . import _capi
    L = _capi.lib()
    if not isinstance(sweep, (str, os.PathLike)):
        spec, name = _sweep_spec(sweep)
        with tempfile.TemporaryDirectory() as tmp:  # a JSON text is a YAML flow mapping
            path = os.path.join(tmp, name + ".yaml")
            with open(path, "w") as fh:
                json.dump(spec, fh)
            return run(path, backend, n, out, threads, progress)
    sweep = _path_arg("sweep", sweep)
    n = _int_arg("n (instances; None: the sweep's)", n, 1, 2**53, allow_none=True)
    threads = _int_arg("threads (0: all cores)", threads, 0, 2**31 - 1)
    if progress not in (True, False, 0, 1, 2):
        raise HydrosweepError("progress must be True, False, 0, 1 or 2, got %r" % (progress,))
    if not isinstance(backend, str):
        raise HydrosweepError("backend must be a string, got %r" % (backend,))
    if out is None:
        base = os.path.splitext(os.path.basename(sweep))[0]
        os.makedirs("out", exist_ok=True)
        out = os.path.join("out", base + ".h5")
    out = _path_arg("out", out)
    if os.path.dirname(out):  # the results' directory, as `hydrosweep run` makes out/
        os.makedirs(os.path.dirname(out), exist_ok=True)
    buf = _capi.msgbuf()
    rc = L.hs_capi_run(_capi.enc(sweep), _capi.enc(backend), n or 0, _capi.enc(out), threads,
                       4 + (2 if progress is True else (0 if not progress else int(progress))), buf, len(buf))
    if rc:
        raise HydrosweepError(_capi.dec(buf.value))
    r = open_results(out)
    if progress:  # the summary through Python's stdout (captured or silenced as any print)
        print(repr(r))
    return r
