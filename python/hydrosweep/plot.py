"""hydrosweep.plot -- pictures of a results file (and of a `hydrosweep simulate` CSV).

    python3 -m hydrosweep.plot RESULTS.h5 --kind fan --signal p_piston -o fan.png
    (the same as `hydrosweep plot RESULTS.h5 --kind fan --signal p_piston -o fan.png`)

Kinds (each also a function taking a results path, an open h5py.File or the Results of
hydrosweep.open_results, and returning the matplotlib Figure):
  fan      fan(res, signal, nominal=None): the 5-95 %, 25-75 % bands and the median of a
           trajectory signal (/traj/<signal>) over time, across the finished instances, and the
           nominal instance (a CSV of `hydrosweep simulate --from RESULTS.h5 --nominal`, drawn
           at the trajectories' sample times when it has them)
  hist     hist(res, signal, stat="max"): histogram and ECDF of one statistic of a signal over
           the finished instances, with the stored 5/50/95 % quantiles marked
  scatter  scatter(res, signal, param, stat="max"): that statistic against a swept parameter,
           failed instances marked where they were sampled
  status   status(res): instances per failure and warning bit (docs/results-format.md)
  stability stability(res, param_x=None, param_y=None, what="min_damping"): the stability map of
           a sweep with outputs.eigenvalues: the smallest damping ratio (or the largest real
           part, what="max_real") of each instance's nonzero eigenvalues over two swept
           parameters (a grid: cells; other designs: dots), with the line where the least
           damped mode turns oscillatory (damping 1) or unstable (real part 0); against one
           parameter when the sweep varies only one
  cosim    cosim(res, test_input=None): a cosim_search's accumulated energy residual E_res against
           the communication step H, one line per configuration, for one test input (default the
           first): Pub. III Fig. 3. Each line ends at its first failed run (a cross); a circle
           marks each configuration's largest stable H by `hydrosweep analyze cosim`'s rule
  simulate simulate(csv): a `hydrosweep simulate` CSV: joint angles, pressures, the cylinder
           force, and the energy balance
Values are SI as stored; they are drawn in the units of the field (pressures in MPa, angles in
degrees, strokes in mm, flows in L/min; hs.plot.SI = True or --si: as stored), and every axis
says its unit. Names are the model's and the sweep's (docs/sweep-format.md, Signal names).
Needs numpy, h5py and matplotlib (Debian 12: python3-numpy python3-h5py python3-matplotlib).
"""
import argparse
import contextlib
import csv
import os
import subprocess
import sys
import tempfile

import numpy as np

from ._paths import OutputPathError, check_output_path, open_output
from .results import ResultsError, eng_scale, open_results, status_bits, text, texts, warning_mask

# the figure size every kind draws at, inches, and the resolution of the PNG
FIGSIZE = (8.0, 5.0)
DPI = 100


MATPLOTLIB_MISSING = ("hydrosweep.plot needs matplotlib, which cannot be imported here (%s: %s): pip install "
                      "'hydrosweep[plot]' (from the repository: pip install '.[plot]'; or pip install matplotlib; "
                      "Debian: apt-get install python3-matplotlib)")


def _pyplot():
    """matplotlib's pyplot on a non-interactive backend when no display is set (a headless
    run, CI): the figures are only saved. matplotlib is the extra [plot]: without it, a message
    that says how to install it rather than a bare ModuleNotFoundError."""
    try:
        import matplotlib
    except ImportError as e:
        raise ModuleNotFoundError(MATPLOTLIB_MISSING % (type(e).__name__, e), name="matplotlib") from e
    if not os.environ.get("DISPLAY") and not os.environ.get("MPLBACKEND"):
        matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


@contextlib.contextmanager
def _file(res):
    """The h5py.File of a path (opened here and closed after), an open h5py.File, or the
    Results of hydrosweep.open_results."""
    if isinstance(res, (str, os.PathLike)):
        f = open_results(os.fspath(res))
        try:
            yield f
        finally:
            f.close()
    elif hasattr(res, "_f") and hasattr(res, "traj_signals"):  # a hydrosweep.results.Results
        yield res._f
    else:
        yield res


__all__ = ["fan", "hist", "scatter", "status", "simulate", "stability", "cosim", "save", "unit_scale", "SI", "main"]


def __dir__():
    """The API only (not the modules this one imports)."""
    return sorted(__all__)


SI = False  # hs.plot.SI = True (or --si) draws every value in its SI unit, as stored

def unit_scale(unit):
    """(factor, unit drawn) for a value stored in the SI unit `unit`: the units of the field
    (pressures in MPa, angles in degrees, strokes in mm, flows in L/min, volumes in L), or as
    stored when SI is set (hydrosweep.results.eng_scale)."""
    return eng_scale(unit, SI)


def _legend(ax, n_max=6):
    """The legend inside the axes for a few lines, beside them (outside the curves, in
    columns of at most 15) for more: 20 signals stay legible."""
    n = len(ax.get_lines())
    if n == 0:
        return
    if n <= n_max:
        ax.legend(loc="best", fontsize=7)
    else:
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=6, ncol=(n + 14) // 15, frameon=False)


def _signal_scale(f, signal):
    """unit_scale of a recorded or trajectory signal's unit as the file stores it."""
    units = dict(zip(texts(f.attrs["signals"]), texts(f.attrs["signal_units"])))
    units.update(zip(texts(f.attrs["traj_signals"]), texts(f.attrs["traj_units"])))
    return unit_scale(units.get(signal, ""))


def _finished(f):
    status = f["status"][()]
    return status, (status >= 0) & ((status & ~warning_mask(status_bits(f))) == 0)


def _title(f, what):
    return "%s — %s (%s, %d instances)" % (what, text(f.attrs["model_name"]), text(f.attrs["method"]),
                                           int(f.attrs["n_total"]))


def fan(res, signal, nominal=None):
    """Fan chart of trajectory signal `signal`: the 5-95 % and 25-75 % bands and the median
    across the finished instances at each time of /traj/time, and the nominal instance (the
    path of a `hydrosweep simulate --from RESULTS --nominal` CSV) when given."""
    plt = _pyplot()
    with _file(res) as f:
        names = texts(f.attrs["traj_signals"])
        if signal not in names:
            raise ResultsError("%s: no trajectory of '%s' (trajectories: %s; a sweep records them "
                               "with outputs.trajectories)" % (f.filename, signal, ", ".join(names) or "none"))
        k, unit = _signal_scale(f, signal)
        t = f["traj/time"][()]
        _, ok = _finished(f)
        y = f["traj/" + signal][()][ok] * k
        if y.shape[0] == 0:
            raise ResultsError("%s: no finished instance to draw" % f.filename)
        q = np.nanquantile(y, [0.05, 0.25, 0.5, 0.75, 0.95], axis=0)
        fig, ax = plt.subplots(figsize=FIGSIZE, dpi=DPI)
        ax.fill_between(t, q[0], q[4], color="tab:blue", alpha=0.2, lw=0, label="5–95 %")
        ax.fill_between(t, q[1], q[3], color="tab:blue", alpha=0.4, lw=0, label="25–75 %")
        ax.plot(t, q[2], color="tab:blue", lw=1.5, label="median")
        # the bands are of samples every `every` s: a peak between two samples is not in them;
        # each instance's peak at full step resolution (stats max and t_max) is drawn too
        sigs, cols = texts(f.attrs["signals"]), texts(f.attrs["columns"])
        every = float(np.median(np.diff(t))) if t.size > 1 else 0.0
        peaks = ""
        if signal in sigs and "max" in cols and "t_max" in cols:
            st = f["stats/" + signal][()][ok]
            pm, pt = st[:, cols.index("max")] * k, st[:, cols.index("t_max")]
            good = np.isfinite(pm) & np.isfinite(pt)
            if good.any():
                ax.plot(pt[good], pm[good], ".", color="tab:red", ms=2, alpha=0.5,
                        label="each instance's peak (every step)")
                peaks = "; dots: each instance's peak at every step (peaks up to %.4g %s)" % (
                    float(np.max(pm[good])), unit)
        if nominal:
            tn, yn = _csv_column(nominal, signal)
            # at the trajectories' times when the nominal run has them all (a denser CSV would
            # show what the bands, sampled there, cannot: e.g. the ringing between samples)
            j = np.clip(np.searchsorted(tn, t), 1, tn.size - 1)
            j = np.where(np.abs(tn[j - 1] - t) <= np.abs(tn[j] - t), j - 1, j)  # the nearest row
            if tn.size > t.size and np.all(np.abs(tn[j] - t) <= 1e-9 * max(1.0, float(np.abs(t).max()))):
                tn, yn = tn[j], yn[j]
            ax.plot(tn, yn * k, color="k", lw=1.0, ls="--", label="nominal")
        ax.set_xlabel("t (s)")
        ax.set_ylabel("%s (%s)" % (signal, unit))
        ax.set_title(_title(f, "%s, %d finished" % (signal, y.shape[0])) +
                     "\nbands: samples every %.3g s%s" % (every, peaks), fontsize=9)
        ax.grid(alpha=0.3)
        ax.legend(loc="best", fontsize=9)
        fig.tight_layout()
        return fig


def _stat(f, signal, stat):
    sigs = texts(f.attrs["signals"])
    cols = texts(f.attrs["columns"])
    if signal not in sigs:
        raise ResultsError("%s: signal '%s' was not recorded (signals: %s)" % (f.filename, signal, ", ".join(sigs)))
    if stat not in cols:
        raise ResultsError("%s: statistic '%s' was not stored (statistics: %s)" % (f.filename, stat, ", ".join(cols)))
    return f["stats/" + signal][()][:, cols.index(stat)], cols.index(stat)


def hist(res, signal, stat="max"):
    """Histogram (left) and empirical CDF (right) of statistic `stat` of `signal` over the
    finished instances, with the stored 5/50/95 % ensemble quantiles marked."""
    plt = _pyplot()
    with _file(res) as f:
        v, c = _stat(f, signal, stat)
        _, ok = _finished(f)
        k, unit = _signal_scale(f, signal) if stat != "t_max" else (1.0, "s")
        x = v[ok] * k
        x = x[np.isfinite(x)]
        if x.size == 0:
            raise ResultsError("%s: no finished instance with a value of %s %s" % (f.filename, stat, signal))
        qs = f["ensemble/" + signal][()][c] * k
        fig, (a1, a2) = plt.subplots(1, 2, figsize=FIGSIZE, dpi=DPI)
        a1.hist(x, bins=max(5, min(50, int(np.sqrt(x.size)) + 1)), color="tab:blue", alpha=0.8)
        xs = np.sort(x)
        a2.step(xs, np.arange(1, xs.size + 1) / xs.size, where="post", color="tab:blue")
        for a in (a1, a2):
            for qv, lab in zip(qs, ("5 %", "50 %", "95 %")):
                a.axvline(qv, color="k", ls=":", lw=1)
            a.set_xlabel("%s of %s (%s)" % (stat, signal, unit))
            a.grid(alpha=0.3)
        a1.set_ylabel("instances")
        a2.set_ylabel("fraction of finished instances")
        fig.suptitle(_title(f, "%s %s, %d finished (dotted: 5/50/95 %%)" % (stat, signal, x.size)), fontsize=10)
        fig.tight_layout()
        return fig


def scatter(res, signal, param, stat="max"):
    """Statistic `stat` of `signal` against the swept parameter `param` (its sampled values,
    /params), the finished instances as dots and the failed ones as crosses on the axis."""
    plt = _pyplot()
    with _file(res) as f:
        names = texts(f["params"].attrs["names"])
        units = texts(f["params"].attrs["units"])
        if param not in names:
            raise ResultsError("%s: '%s' was not swept (parameters: %s)" % (f.filename, param, ", ".join(names) or "none"))
        j = names.index(param)
        kx, ux = unit_scale(units[j])
        pv = f["params"][()][:, j] * kx
        v, _ = _stat(f, signal, stat)
        status, ok = _finished(f)
        k, unit = _signal_scale(f, signal) if stat != "t_max" else (1.0, "s")
        fig, ax = plt.subplots(figsize=FIGSIZE, dpi=DPI)
        ax.plot(pv[ok], v[ok] * k, ".", color="tab:blue", ms=4, label="finished (%d)" % int(ok.sum()))
        bad = (~ok) & (status >= 0)
        if bad.any():
            y0 = np.nanmin(v[ok] * k) if ok.any() else 0.0
            ax.plot(pv[bad], np.full(int(bad.sum()), y0), "x", color="tab:red", ms=6,
                    label="failed (%d)" % int(bad.sum()))
        ax.set_xlabel("%s (%s)" % (param, ux))
        ax.set_ylabel("%s of %s (%s)" % (stat, signal, unit))
        ax.set_title(_title(f, "%s %s against %s" % (stat, signal, param)), fontsize=10)
        ax.grid(alpha=0.3)
        ax.legend(loc="best", fontsize=9)
        fig.tight_layout()
        return fig


def status(res):
    """Instances per status bit (failures red, warnings orange) and the finished count."""
    plt = _pyplot()
    with _file(res) as f:
        st, ok = _finished(f)
        st = st[st >= 0]
        bits = status_bits(f)
        labels = ["finished"] + [name for _, name, _, _ in bits]
        counts = [int(ok.sum())] + [int(np.count_nonzero(st & bit)) for bit, _, _, _ in bits]
        colors = ["tab:green"] + ["tab:orange" if kind == "warning" else "tab:red" for _, _, kind, _ in bits]
        fig, ax = plt.subplots(figsize=FIGSIZE, dpi=DPI)
        bars = ax.barh(range(len(labels)), counts, color=colors)
        for b, c in zip(bars, counts):
            ax.text(b.get_width(), b.get_y() + b.get_height() / 2, " %d" % c, va="center", fontsize=8)
        ax.set_yticks(range(len(labels)))
        ax.set_yticklabels(labels, fontsize=8)
        ax.invert_yaxis()
        ax.set_xlabel("instances (one instance may carry several bits)")
        ax.set_title(_title(f, "status"), fontsize=10)
        ax.grid(axis="x", alpha=0.3)
        fig.tight_layout()
        return fig


def _read_csv(path):
    with open(path, newline="") as fh:
        rows = list(csv.reader(fh))
    if len(rows) < 2 or rows[0][0] != "t":
        raise ResultsError("%s: not a `hydrosweep simulate` CSV (a header starting with t and rows)" % path)
    head = rows[0]
    data = np.array([[float(x) for x in r] for r in rows[1:] if r], dtype=float)
    return head, data


def _csv_column(path, name):
    head, data = _read_csv(path)
    if name not in head:
        raise ResultsError("%s: no column '%s'" % (path, name))
    return data[:, 0], data[:, head.index(name)]


def simulate(csv_path, units=None):
    """A `hydrosweep simulate` CSV, or the DataFrame hs.simulate returns, in three panels: the
    joint coordinates, the pressures, and the energy balance with the cylinders' work. units
    ({column: SI unit}: a DataFrame's attrs["units"], Model.column_units(), or `hydrosweep info
    MODEL --columns`) tells revolute joints (drawn in degrees) from prismatic ones (mm);
    without it the joints are drawn as stored. Many signals get their legends beside the
    panels."""
    plt = _pyplot()
    if hasattr(csv_path, "columns") and hasattr(csv_path, "to_numpy"):  # a pandas DataFrame
        head, d = [str(c) for c in csv_path.columns], csv_path.to_numpy(dtype=float)
        units = units or csv_path.attrs.get("units", {})
        title = os.path.basename(str(csv_path.attrs.get("model", "hs.simulate")))
        if not head or head[0] != "t":
            raise ResultsError("not a DataFrame of hs.simulate (its first column is t)")
    else:
        head, d = _read_csv(csv_path)
        title = os.path.basename(csv_path)
    units = units or {}
    t = d[:, 0]
    first_p = next((i for i, h in enumerate(head) if h.startswith("p_")), len(head))
    joints = [h for h in head[1:first_p] if not h.endswith("_dot")]
    press = [h for h in head if h.startswith("p_")]
    many = max(len(joints), len(press)) > 6
    fig, axs = plt.subplots(3, 1, figsize=(FIGSIZE[0] + 3.0, FIGSIZE[1] + 2.0) if many else FIGSIZE, dpi=DPI,
                            sharex=True)
    for h in joints:
        k, unit = unit_scale(units.get(h, "rad or m"))
        axs[0].plot(t, d[:, head.index(h)] * k, lw=1, label="%s (%s)" % (h, unit))
    axs[0].set_ylabel("joints")
    kp, up = unit_scale("Pa")
    for h in press:
        axs[1].plot(t, d[:, head.index(h)] * kp, lw=1, label=h)
    axs[1].set_ylabel("pressure (%s)" % up)
    energies = ("E_balance", "E_kin", "E_pot", "E_fluid")  # and the works W_*: W_in, W_loss of a circuit
    for h in [h for h in head if h.startswith("W_") or h in energies]:
        axs[2].plot(t, d[:, head.index(h)], lw=1, label=h)
    axs[2].set_ylabel("energy (J)")
    axs[2].set_xlabel("t (s)")
    for a in axs:
        a.grid(alpha=0.3)
        _legend(a)
    fig.suptitle("hydrosweep simulate: %s" % title, fontsize=10)
    fig.tight_layout()
    return fig


def stability(res, param_x=None, param_y=None, what="min_damping"):
    """The stability map: `what` (min_damping or max_real of /eig) over two swept parameters,
    or against one."""
    plt = _pyplot()
    if what not in ("min_damping", "max_real"):
        raise ResultsError("stability: what must be min_damping or max_real, not '%s'" % what)
    with _file(res) as f:
        if int(f.attrs.get("eig_size", 0)) <= 0 or "eig" not in f:
            raise ResultsError("%s: no eigenvalues (the sweep needs outputs: {eigenvalues: true})" % f.filename)
        names = texts(f["params"].attrs["names"])
        units = texts(f["params"].attrs["units"])
        if not names:
            raise ResultsError("%s: the sweep varies no parameter: no map" % f.filename)
        for p in (param_x, param_y):
            if p is not None and p not in names:
                raise ResultsError("%s: '%s' was not swept (parameters: %s)" % (f.filename, p, ", ".join(names)))
        px = param_x or names[0]
        py = param_y or next((n for n in names if n != px), None)
        P = f["params"][()]
        chunk = int(f.attrs["chunk"])
        written = np.repeat(f["done"][()].astype(bool), chunk)[: P.shape[0]]
        v = np.array(f["eig/" + what][()], dtype=float)
        st = np.array(f["eig/status"][()])
        ok = written & (st == 0) & np.isfinite(v)
        def axis(name):  # in the units of the field, as everywhere in these plots
            return unit_scale(units[names.index(name)])
        (kx, ux) = axis(px)
        x = P[:, names.index(px)] * kx
        label = "smallest damping ratio of the nonzero eigenvalues" if what == "min_damping" else \
            "largest real part of the nonzero eigenvalues (1/s)"
        level = 1.0 if what == "min_damping" else 0.0
        line = False
        fig, ax = plt.subplots(figsize=FIGSIZE, dpi=DPI)
        if py is None:
            o = np.argsort(x[ok])
            ax.plot(x[ok][o], v[ok][o], ".-", color="tab:blue", ms=5)
            ax.axhline(level, color="k", lw=0.8, ls="--")
            line = True
            ax.set_xlabel("%s (%s)" % (px, ux))
            ax.set_ylabel(label)
        else:
            (ky, uy) = axis(py)
            y = P[:, names.index(py)] * ky
            xs, ys = np.unique(x[written]), np.unique(y[written])
            cmap = "viridis" if what == "min_damping" else "coolwarm"
            if xs.size * ys.size == int(written.sum()) and xs.size > 1 and ys.size > 1:
                Z = np.full((ys.size, xs.size), np.nan)
                Z[np.searchsorted(ys, y[ok]), np.searchsorted(xs, x[ok])] = v[ok]
                m = ax.pcolormesh(xs, ys, Z, shading="nearest", cmap=cmap)
                # the line only where the map crosses it (overdamped instances have damping 1
                # exactly: the line is just below); a map on one side has none, and says so
                lvl = level - 1e-9 if what == "min_damping" else level
                if np.nanmin(Z) < lvl < np.nanmax(Z):
                    ax.contour(xs, ys, Z, levels=[lvl], colors="k", linewidths=1.0)
                    line = True
            else:
                m = ax.scatter(x[ok], y[ok], c=v[ok], cmap=cmap, s=16)
            bad = written & ~ok
            if bad.any():
                ax.plot(x[bad], y[bad], "x", color="tab:red", ms=6, label="not linearized (%d)" % int(bad.sum()))
                ax.legend(loc="best", fontsize=9)
            fig.colorbar(m, ax=ax, label=label)
            ax.set_xlabel("%s (%s)" % (px, ux))
            ax.set_ylabel("%s (%s)" % (py, uy))
        if line:
            note = "line: %s" % ("damping 1" if what == "min_damping" else "real part 0")
        elif ok.any():
            below = bool(np.all(v[ok] < level - (1e-9 if what == "min_damping" else 0.0)))
            note = ("every instance oscillatory (damping < 1)" if below else "every instance overdamped") \
                if what == "min_damping" else \
                ("every instance stable (real parts < 0)" if below else "every instance unstable or marginal")
        else:
            note = "no instance linearized"
        ax.set_title(_title(f, "stability map (%s)" % note), fontsize=10)
        fig.tight_layout()
        return fig


def cosim(res, test_input=None):
    """E_res against H per configuration for one test input of a cosim_search (Pub. III Fig. 3),
    with each configuration's largest stable H (hydrosweep.cosim_search) marked."""
    from . import cosim_search
    plt = _pyplot()
    with _file(res) as f:
        path = f.filename
        r = cosim_search.search(path)
        title = _title(f, "E_res against H, input '%s' (o: largest stable H, x: failure)"
                       % (test_input if test_input is not None else r["inputs"][0]))
    if test_input is None:
        test_input = r["inputs"][0]
    if test_input not in r["inputs"]:
        raise ResultsError("%s: no test input '%s' (the search's: %s)" % (path, test_input, ", ".join(r["inputs"])))
    k = r["inputs"].index(test_input)
    H = np.array(r["H"]) * 1e3
    fig, ax = plt.subplots(figsize=FIGSIZE, dpi=DPI)
    cmap = plt.get_cmap("tab20" if len(r["configs"]) > 10 else "tab10")
    for c, cf in enumerate(r["configs"]):
        E = np.array([np.nan if e is None else e for e in cf["E"][k]], dtype=float)
        fl = np.array(cf["failed"][k])
        col = cmap(c % cmap.N)
        first = int(np.argmax(fl)) if fl.any() else len(H)
        ax.plot(H[:first], E[:first], ".-", color=col, lw=1.0, ms=3, label=cosim_search.config_text(r, c))
        if first < len(H):
            ax.plot([H[first]], [E[first - 1] if first > 0 and np.isfinite(E[first - 1]) else np.nan], "x",
                    color=col, ms=7)
        h = cf["H_stable"][k]
        if h is not None:
            j = r["H"].index(h)
            ax.plot([H[j]], [E[j]], "o", mfc="none", color=col, ms=8)
    ax.set_yscale("log")
    ax.set_xlabel("communication step H (ms)")
    ax.set_ylabel("accumulated energy residual E_res (J)")
    ax.legend(fontsize=6, ncol=2, loc="upper left")
    ax.set_title(title, fontsize=9)
    fig.tight_layout()
    return fig


KINDS = ("fan", "hist", "scatter", "status", "stability", "cosim", "simulate")


def nominal_csv(exe, results, out):
    """Simulates the nominal instance of a results file (the sweep's model with its own values
    and the sweep's simulation settings) with the hydrosweep program exe into the CSV out;
    returns out, or None (with a warning) when that fails."""
    r = subprocess.run([exe, "simulate", "--from", results, "--nominal", "-o", out],
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        sys.stderr.write("hydrosweep plot: warning: no nominal line: %s" % (r.stderr or "simulate failed\n"))
        return None
    return out


def model_columns(model, exe=None):
    """{column: SI unit} of the `hydrosweep simulate` CSV of the model file `model`: from the
    hydrosweep program exe (`info MODEL --columns`) when given, else from the C library
    (hydrosweep.Model). Raises ResultsError with the program's message when the model cannot be
    loaded."""
    if exe:
        r = subprocess.run([exe, "info", model, "--columns"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True)
        if r.returncode != 0:
            raise ResultsError((r.stderr or "hydrosweep info failed").strip())
        return dict(line.split(" ", 1) for line in r.stdout.splitlines() if " " in line)
    from . import Model
    m = Model(model)
    try:
        return m.column_units()
    finally:
        m.close()


def save(fig, path):
    """Writes fig to exactly the file `path` (never `path` + an extension): in the format of
    its extension when matplotlib writes it (.png, .pdf, .svg, ...), else PNG; by the rule for
    outputs (hydrosweep._paths: a regular file or a new name, never through a link). Returns
    the format."""
    ext = os.path.splitext(os.fspath(path))[1][1:].lower()
    fmt = ext if ext in fig.canvas.get_supported_filetypes() else "png"
    with open_output(path, "plot") as fh:
        fig.savefig(fh, dpi=DPI, format=fmt)
    return fmt


def main(argv=None):
    p = argparse.ArgumentParser(prog="hydrosweep plot", description=__doc__.split("\n\n")[0])
    p.add_argument("input", help="results file (RESULTS.h5), or a `hydrosweep simulate` CSV for --kind simulate")
    p.add_argument("--kind", choices=KINDS, default=None,
                   help="fan (default for a results file with trajectories), hist, scatter, status, stability, simulate "
                        "(default for a .csv)")
    p.add_argument("--signal", help="signal to draw (default: the first recorded or with a trajectory)")
    p.add_argument("--stat", default="max", help="statistic for hist and scatter (default max)")
    p.add_argument("--param", action="append",
                   help="swept parameter for scatter (default: the first); for stability up to two, "
                        "the map's x and y (default: the first two)")
    p.add_argument("--what", default="min_damping", choices=("min_damping", "max_real"),
                   help="what a stability map shows (default min_damping)")
    p.add_argument("--input", dest="test_input", help="the test input a cosim plot draws (default the first)")
    p.add_argument("--nominal", help="CSV of the nominal instance for fan (hydrosweep simulate --from R --nominal)")
    p.add_argument("--no-nominal", action="store_true", help="fan without the nominal instance")
    p.add_argument("--hydrosweep", help="the hydrosweep program, which simulates the nominal instance of a fan "
                                        "chart when no --nominal is given (`hydrosweep plot` passes itself)")
    p.add_argument("--model", help="model file whose joint types label a simulate CSV (revolute in degrees)")
    p.add_argument("--si", action="store_true", help="every value in its SI unit, as stored (default: MPa, deg, mm, L/min)")
    p.add_argument("-o", "--output", required=True, help="PNG file to write")
    a = p.parse_args(argv)
    global SI
    si0, SI = SI, SI or a.si
    try:
        check_output_path(a.output, "plot (-o)")
        if os.path.exists(a.output) and os.path.realpath(a.output) in (
                os.path.realpath(a.input), os.path.realpath(a.nominal or a.input), os.path.realpath(a.model or a.input)):
            raise ResultsError("-o %s is an input of the plot: it would be overwritten" % a.output)
        kind = a.kind or ("simulate" if a.input.endswith(".csv") else None)
        if kind == "simulate":
            fig = simulate(a.input, model_columns(a.model, a.hydrosweep) if a.model else None)
        else:
            f = open_results(a.input)
            with f:
                trajs = texts(f.attrs["traj_signals"])
                sigs = texts(f.attrs["signals"])
                kind = kind or ("fan" if trajs else "hist")
                if kind == "fan":
                    with tempfile.TemporaryDirectory() as tmp:
                        nominal = a.nominal
                        if not nominal and not a.no_nominal and a.hydrosweep:
                            nominal = nominal_csv(a.hydrosweep, a.input, os.path.join(tmp, "nominal.csv"))
                        fig = fan(f, a.signal or (trajs[0] if trajs else ""), nominal)
                elif kind == "hist":
                    fig = hist(f, a.signal or sigs[0], a.stat)
                elif kind == "scatter":
                    names = texts(f["params"].attrs["names"])
                    if not names and not a.param:  # --param is a list (append)
                        raise ResultsError("%s: the sweep varies no parameter: nothing to scatter against" % a.input)
                    fig = scatter(f, a.signal or sigs[0], a.param[0] if a.param else names[0], a.stat)
                elif kind == "cosim":
                    fig = cosim(f, a.test_input)
                elif kind == "stability":
                    px = a.param[0] if a.param else None
                    py = a.param[1] if a.param and len(a.param) > 1 else None
                    fig = stability(f, px, py, a.what)
                else:
                    fig = status(f)
        fmt = save(fig, a.output)
    except (ResultsError, OutputPathError, OSError, ValueError) as e:
        sys.stderr.write("hydrosweep plot: error: %s\n" % e)
        return 2
    finally:
        SI = si0
    print("plot: wrote %s (%s, %s)" % (a.output, kind, fmt.upper()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
