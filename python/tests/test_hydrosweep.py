"""pytest suite of the Python package (python/hydrosweep): the binding to the C library
(load_model, Model.set, simulate, run), the results reader and the plots, against what the C
program `hydrosweep` writes for the same inputs. Run by tests/cli_pytest.sh on the package
installed with `pip install .` into a virtual environment; HS_EXE names the program and
HS_ROOT the source tree."""
import os
import shutil
import subprocess

import numpy as np
import pandas as pd
import pytest

import hydrosweep as hs

ROOT = os.environ.get("HS_ROOT", os.path.join(os.path.dirname(__file__), os.pardir, os.pardir))
EXE = os.environ.get("HS_EXE")
FOURBAR3D = os.path.join(ROOT, "models", "fourbar3d_agundez2023.yaml")
PUB1 = os.path.join(ROOT, "models", "fourbar_rahikainen2018.yaml")


def test_installed_library_is_used():
    from hydrosweep import _capi
    lib = _capi.lib()
    if not os.environ.get("HS_CAPI_LIB"):
        assert os.path.dirname(lib._name).endswith(os.path.join("hydrosweep", "_lib")), lib._name
    assert _capi.dec(lib.hs_capi_version()).startswith(hs.__version__)


def test_params_as_info_lists_them():
    m = hs.load_model(FOURBAR3D)
    assert m.name == "fourbar3d_agundez2023"
    assert m.params["fluid.B_oil"] == 1.5e9 and m.units["fluid.B_oil"] == "Pa"
    assert m.params["cylinder.lift.friction.Fs"] == 830.0 and m.units["cylinder.lift.friction.Fs"] == "N"
    assert m.value_name("cylinder.lift.friction.model") == "brown_mcphee"
    assert "joint.phi2.z0" in m.params and len(m.params) == len(list(m.params))
    if EXE:
        out = subprocess.run([EXE, "info", FOURBAR3D], capture_output=True, text=True, check=True).stdout
        rows = {}
        for line in out.splitlines():
            parts = line.split(None, 2)  # NAME VALUE UNIT (a unit may hold a space: N m)
            if len(parts) == 3 and parts[0] in m.params:
                rows[parts[0]] = parts
        assert set(rows) == set(m.params.keys())
        for name, parts in rows.items():
            assert (m.units[name] or "-") == parts[2].strip(), (name, m.units[name], parts[2])


def test_set_with_units_and_enum_names():
    m = hs.load_model(PUB1)
    m.set("fluid.B_oil", "1200 MPa").set("joint.crank_angle.z0", "-25 deg")
    assert m.params["fluid.B_oil"] == 1.2e9
    assert m.params["joint.crank_angle.z0"] == pytest.approx(np.deg2rad(-25), rel=1e-15)
    m.set("cylinder.lift.friction.model", "lugre")
    assert m.value_name("cylinder.lift.friction.model") == "lugre"
    assert m.copy().params["fluid.B_oil"] == 1.2e9


def test_errors_carry_the_c_message(tmp_path):
    m = hs.load_model(PUB1)
    with pytest.raises(hs.HydrosweepError, match=r"key 'fluid.B_oli'.*did you mean fluid.B_oil"):
        m.set("fluid.B_oli", 1.0)
    with pytest.raises(hs.HydrosweepError, match=r"key 'fluid.B_oil'.*must be > 0"):
        m.set("fluid.B_oil", -1.0)
    with pytest.raises(KeyError, match="did you mean fluid.B_oil"):
        m.params["fluid.B_oli"]
    bad = tmp_path / "bad.yaml"
    bad.write_text(open(PUB1).read().replace("B_oil:", "B_oyl:", 1))
    with pytest.raises(hs.HydrosweepError, match=r"bad\.yaml:\d+:\d+: error: key 'fluid\.B_oyl'"):
        hs.load_model(bad)
    with pytest.raises(hs.HydrosweepError, match="cannot open the model file"):
        hs.load_model(tmp_path / "missing.yaml")


def test_simulate_equals_the_program(tmp_path):
    df = hs.simulate(PUB1, set={"fluid.B_oil": "1200 MPa"}, t_end=0.8, every=10)
    assert isinstance(df, pd.DataFrame)
    assert list(df.columns[:3]) == ["t", "crank_angle", "crank_angle_dot"]
    assert df["t"].iloc[-1] == pytest.approx(0.8, abs=1e-12) and len(df) == 81
    assert df.attrs["units"]["p_piston"] == "Pa" and df.attrs["units"]["t"] == "s"
    assert df.attrs["units"]["crank_angle"] == "rad"
    if EXE:
        csv = tmp_path / "c.csv"
        subprocess.run([EXE, "simulate", PUB1, "--set", "fluid.B_oil=1200MPa", "--t-end", "0.8", "--every", "10",
                        "-o", str(csv)], check=True, capture_output=True)
        ref = pd.read_csv(csv, float_precision="round_trip")
        pd.testing.assert_frame_equal(df, ref, check_exact=True)


def test_simulate_takes_the_models_outputs_every(tmp_path):
    m = tmp_path / "dp.yaml"
    m.write_text(open(os.path.join(ROOT, "models", "double_pendulum.yaml")).read() + "outputs: {every: 50}\n")
    assert len(hs.simulate(str(m), t_end=1.0)) == 21  # t = 0, then every 50th of 1000 steps
    assert len(hs.simulate(str(m), t_end=1.0, every=100)) == 11  # the argument over the file


def test_simulate_failure_raises():
    with pytest.raises(hs.HydrosweepError, match=r"integration failed in the step after t = 0\.5 s: Newton iteration limit"):
        hs.simulate(PUB1, set={"integrator.max_iter": 1}, t_end=1.0)


def test_run_returns_results(tmp_path):
    sweep = os.path.join(ROOT, "tests", "data", "sweep_small.yaml")
    r = hs.run(sweep, backend="cpu", n=8, out=tmp_path / "r.h5", progress=False)
    assert r.complete and r.params.shape[0] == 8
    assert r.status["finished"].all()
    st = r.stats
    assert st["p_piston"].dims == ("instance", "statistic")
    assert float(st["p_piston"].sel(statistic="max").min()) > 3e6
    assert r.ensemble.dims == ("signal", "statistic", "quantile")
    with pytest.raises(hs.HydrosweepError, match="unknown backend"):
        hs.run(sweep, backend="fpga", out=tmp_path / "x.h5")
    bad = tmp_path / "bad_sweep.yaml"
    bad.write_text(open(sweep).read().replace("seed:", "sed:", 1).replace("model: ", "model: " +
                   os.path.join(ROOT, "tests", "data") + "/", 1))
    with pytest.raises(hs.HydrosweepError, match=r"bad_sweep\.yaml:\d+:\d+: error"):
        hs.run(bad, out=tmp_path / "y.h5", progress=False)


def test_stability_map(tmp_path):
    r = hs.run(os.path.join(ROOT, "sweeps", "stability_grid.yaml"), out=tmp_path / "s.h5", progress=False)
    e = r.eig
    assert e["re"].shape == (72, 6) and int(e["status"].max()) == 0
    # instance 0 (F_s = F_c = 210 N, B_oil = 500 MPa) equals the linearization of that model
    m = hs.load_model(FOURBAR3D)
    assert float(e["min_damping"][0]) == 1.0 and float(e["max_real"][0]) < 0
    assert np.all(np.diff(e["re"].values, axis=1) <= 0)
    pytest.importorskip("matplotlib")
    fig = hs.plot.stability(r)
    assert fig.axes and fig.get_size_inches().tolist() == [8.0, 5.0]
    del m


def test_run_equals_the_program_to_the_bit(tmp_path, monkeypatch):
    """The issue's check: hs.run('sweeps/friction_bulk_mc.yaml', n=64) from a fresh directory
    (default output out/friction_bulk_mc.h5), its statistics equal to the CLI run's file."""
    if not EXE:
        pytest.skip("HS_EXE not set")
    import h5py
    monkeypatch.chdir(tmp_path)
    sweep = os.path.join(ROOT, "sweeps", "friction_bulk_mc.yaml")
    r = hs.run(sweep, n=64, progress=False)
    assert r.path == os.path.join("out", "friction_bulk_mc.h5")
    print(r.stats)
    subprocess.run([EXE, "run", sweep, "-n", "64", "-b", "cpu", "-o", "cli.h5", "--no-progress"], check=True,
                   capture_output=True)
    with h5py.File(r.path) as a, h5py.File("cli.h5") as b:
        for k in ["params", "status", "steps", "newton_mean"] + ["stats/" + s for s in a["stats"]] + \
                 ["traj/" + s for s in a["traj"]]:
            assert np.array_equal(a[k][()], b[k][()], equal_nan=True), k


def test_plots(tmp_path):
    """Every plot kind renders headless to a non-blank 800 x 500 PNG."""
    pytest.importorskip("matplotlib")
    import matplotlib.image as mi
    sweep = os.path.join(ROOT, "tests", "data", "sweep_python.yaml")
    r = hs.run(sweep, out=tmp_path / "p.h5", progress=False)
    csv = tmp_path / "sim.csv"
    df = hs.simulate(PUB1, t_end=0.5, every=10)
    df.to_csv(csv, index=False)
    units = hs.load_model(PUB1).column_units()
    assert units == df.attrs["units"] and units["crank_angle"] == "rad" and units["crank_angle_dot"] == "rad/s"
    s = hs.run(os.path.join(ROOT, "sweeps", "stability_grid.yaml"), out=tmp_path / "s.h5", progress=False)
    figs = {
        "fan": hs.plot.fan(r, r.traj_signals[0]),
        "hist": hs.plot.hist(r, "p_piston", "max"),
        "scatter": hs.plot.scatter(r, "p_piston", r.params.columns[0], "max"),
        "status": hs.plot.status(r),
        "stability": hs.plot.stability(s),
        "simulate": hs.plot.simulate(str(csv), units),
    }
    for kind, fig in figs.items():
        out = tmp_path / (kind + ".png")
        fig.savefig(out, dpi=100)
        a = mi.imread(out)
        rgb = a[..., :3]
        coloured = float(((rgb.max(axis=2) - rgb.min(axis=2)) > 0.2).mean())
        assert a.shape[:2] == (500, 800) and coloured > 0.0005, (kind, a.shape, coloured)


def test_results_describe_themselves(tmp_path):
    """What a reader needs comes from the file: the signals' units, the joints' kinds, the
    model's name and the status bits' table (kernels/hs_status.h)."""
    r = hs.run(os.path.join(ROOT, "tests", "data", "sweep_python.yaml"), out=tmp_path / "u.h5", progress=False)
    assert r.units["p_piston"] == "Pa" and r.units["crank_angle"] == "rad" and r.units["crank_angle_dot"] == "rad/s"
    assert r.stats["p_piston"].attrs["units"] == "Pa" and r.traj("crank_angle_dot").attrs["units"] == "rad/s"
    # no selection of a statistic carries another's unit: t_max (a time) is apart, in s
    assert "t_max" not in r.stats["statistic"].values and r.t_max["p_piston"].attrs["units"] == "s"
    assert str(r.ensemble.sel(signal="p_piston", statistic="t_max")["units"].values) == "s"
    assert set(r.joint_kinds.values()) == {"revolute"} and "crank_angle" in r.joint_kinds
    assert r.model_name == "fourbar_rahikainen2018"
    names = [n for _, n, _, _ in r.status_bits]
    assert names[:2] == ["maxiter", "nonfinite"] and "step_size" in names
    assert {n for _, n, k, _ in r.status_bits if k == "warning"} == {"cavitation", "implausible", "cosim_stiff"}
    st = r.status
    assert all(b == "" or set(b.split()) <= set(names) for b in st["bits"])


def test_plot_writes_the_file_named(tmp_path):
    """A plot goes to exactly the path given (no extension appended), and never through a link."""
    pytest.importorskip("matplotlib")
    from hydrosweep.plot import save
    from hydrosweep._paths import OutputPathError
    r = hs.run(os.path.join(ROOT, "tests", "data", "sweep_python.yaml"), out=tmp_path / "v.h5", progress=False)
    fig = hs.plot.status(r)
    assert save(fig, tmp_path / "noext") == "png"
    assert (tmp_path / "noext").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and not (tmp_path / "noext.png").exists()
    victim = tmp_path / "victim.txt"
    victim.write_text("keep")
    os.symlink(victim, tmp_path / "link.png")
    with pytest.raises(OutputPathError, match="symbolic link"):
        save(fig, tmp_path / "link.png")
    assert victim.read_text() == "keep" and os.path.islink(tmp_path / "link.png")
    with pytest.raises(OutputPathError, match="directory"):
        save(fig, tmp_path)
    with pytest.raises(OutputPathError, match="not a regular file"):
        save(fig, "/dev/null")
    with pytest.raises(hs.HydrosweepError, match="symbolic link"):
        hs.run(os.path.join(ROOT, "tests", "data", "sweep_python.yaml"), out=tmp_path / "link.png", progress=False)
    assert victim.read_text() == "keep"
    # a hard link: refused by the plot writer and by a run, the shared file unchanged
    os.link(victim, tmp_path / "hard.png")
    with pytest.raises(OutputPathError, match="2 hard links"):
        save(fig, tmp_path / "hard.png")
    os.link(victim, tmp_path / "hard.h5.part")
    with pytest.raises(hs.HydrosweepError, match="hard links"):
        hs.run(os.path.join(ROOT, "tests", "data", "sweep_python.yaml"), out=tmp_path / "hard.h5", progress=False)
    assert victim.read_text() == "keep"


def test_rules_on_every_route(tmp_path):
    """The integrator's rules (kernels/hs_rules.h) from Python: Model.set refuses what a model
    file refuses, and a sweep's drawn value that breaks one makes its instance invalid (128)."""
    m = hs.load_model(os.path.join(ROOT, "models", "double_pendulum.yaml"))
    for name, bad in [("integrator.rtol", 0), ("integrator.rtol", 2), ("integrator.h_min", 0),
                      ("integrator.atol_position", -1), ("integrator.max_iter", 2.5)]:
        with pytest.raises(hs.HydrosweepError, match=name.split(".")[1]):
            m.set(name, bad)
    sw = tmp_path / "r.yaml"
    sw.write_text("model: %s\nmethod: grid\nsimulation: {t_end: 0.02 s, dt: 1 ms, step: adaptive}\n"
                  "parameters:\n  integrator.rtol: {values: [0, 1e-300, 2, -1, 1e-6]}\n"
                  "outputs: {signals: [j1]}\n" % os.path.join(ROOT, "models", "double_pendulum.yaml"))
    r = hs.run(sw, out=tmp_path / "r.h5", progress=False)
    assert list(r.status["status"]) == [128, 128, 128, 128, 0]


def test_arguments_are_checked_not_wrapped(tmp_path):
    """Integers reach C as given or are refused (ctypes would wrap or truncate them); a path
    with a NUL is refused (C would cut it)."""
    sweep = os.path.join(ROOT, "tests", "data", "sweep_python.yaml")
    for bad in [2**64 + 1, 2.5, 0, -1, True, "3"]:
        with pytest.raises(hs.HydrosweepError, match="n "):
            hs.run(sweep, n=bad, out=tmp_path / "a.h5", progress=False)
    for bad in [2**40, -1, 1.0]:
        with pytest.raises(hs.HydrosweepError, match="threads"):
            hs.run(sweep, threads=bad, out=tmp_path / "a.h5", progress=False)
    with pytest.raises(hs.HydrosweepError, match="NUL"):
        hs.run(sweep + "\0.other", out=tmp_path / "a.h5", progress=False)
    with pytest.raises(hs.HydrosweepError, match="NUL"):
        hs.run(sweep, out=str(tmp_path / "a.h5") + "\0x", progress=False)
    with pytest.raises(hs.HydrosweepError, match="NUL"):
        hs.load_model(PUB1 + "\0x")
    with pytest.raises(hs.HydrosweepError, match="every"):
        hs.simulate(PUB1, t_end=0.01, every=2.5)
    assert not os.path.exists(tmp_path / "a.h5")


def test_simulate_uses_the_model_in_memory(tmp_path):
    """hs.simulate(m) runs the Model as loaded plus what was set on it: not the file on disk,
    which may have been edited or removed since."""
    src = tmp_path / "m.yaml"
    src.write_text(open(os.path.join(ROOT, "models", "double_pendulum.yaml")).read())
    m = hs.load_model(src)
    m.set("body.link1.mass", 3.0)
    a = hs.simulate(m, t_end=0.05)
    src.write_text(src.read_text().replace("name:", "name_broken:", 1))  # the file edited: no longer valid
    b = hs.simulate(m, t_end=0.05)
    os.remove(src)  # and removed
    c = hs.simulate(m, t_end=0.05)
    assert a.equals(b) and a.equals(c)
    m2 = m.copy()
    assert m2.params["body.link1.mass"] == 3.0
    ref = hs.load_model(os.path.join(ROOT, "models", "double_pendulum.yaml"))
    d = hs.simulate(ref, t_end=0.05)
    assert not a.equals(d)  # the set mass made a difference


def test_plots_say_what_they_show(tmp_path):
    """A fan chart shows each instance's peak (the bands are of samples, which can miss it) and
    says how often it is sampled; a stability map whose instances are all on one side of the
    line says so instead of promising a line, and leaks no matplotlib warning."""
    pytest.importorskip("matplotlib")
    import warnings
    r = hs.run(os.path.join(ROOT, "tests", "data", "sweep_python.yaml"), out=tmp_path / "f.h5", progress=False)
    fig = hs.plot.fan(r, "p_piston")
    title = fig.axes[0].get_title()
    assert "samples every" in title and "peaks up to" in title, title
    labels = [ln.get_label() for ln in fig.axes[0].get_lines()]
    assert any("peak" in lab for lab in labels), labels
    sw = tmp_path / "osc.yaml"
    sw.write_text("model: %s\nmethod: grid\nsimulation: {t_end: 0.01 s}\nparameters:\n"
                  "  cylinder.lift.friction.Fs: {values: [210 N, 260 N]}\n"
                  "  fluid.B_oil: {values: [2000 MPa, 3000 MPa]}\n"
                  "outputs: {signals: [p_piston], eigenvalues: true}\n"
                  % os.path.join(ROOT, "models", "fourbar3d_agundez2023.yaml"))
    s = hs.run(sw, out=tmp_path / "osc.h5", progress=False)
    assert (s.eig["min_damping"].values < 1).all()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fig = hs.plot.stability(s)
    title = fig.axes[0].get_title()
    assert "every instance oscillatory" in title and "line:" not in title, title


def _damage(src, dst, name, chunk, at=None, fill=None):
    """A copy dst of results file src with byte `at` of chunk `chunk` of dataset `name` XORed
    (where HDF5 stored it): what a disk, a copy or a transfer error does to a file. chunk None:
    the data of a contiguous (scalar) dataset. With fill: every stored byte of the chunk, its
    Fletcher32 included, set to fill instead (a lost write, an erased block)."""
    import h5py
    shutil.copy(src, dst)
    with h5py.File(dst, "r") as f:
        d = f[name]
        info = None if chunk is None else d.id.get_chunk_info(chunk)
        off = d.id.get_offset() if chunk is None else info.byte_offset
    with open(dst, "r+b") as fh:
        fh.seek(off + (at or 0))
        if fill is not None:
            fh.write(bytes([fill]) * info.size)
            return dst
        b = fh.read(1)
        fh.seek(off + at)
        fh.write(bytes([b[0] ^ 0x5A]))
    return dst


# the damaged chunks of sweep_python.yaml's results (20 instances in chunks of 8): dataset,
# chunk, its rows, the byte flipped, the byte an erased chunk holds, a read through open_results
_DAMAGED = [("status", 1, "rows 8..15", 2, 0xFF, lambda r: r.status),
            ("stats/p_piston", 2, "rows 16..19", 5, 0, lambda r: r.stats),
            ("params", 0, "rows 0..7", 20, 0, lambda r: r.params),
            ("traj/crank_angle_dot", 1, "rows 8..15", 40, 0xFF, lambda r: r.traj("crank_angle_dot"))]


def _reads_raise(bad, name, chunk, rows, checksum, read):
    """Reading dataset name of bad.h5 through hs.open_results and through the h5py.File of plot
    and analyze raises ResultsError naming it, the checksum, the chunk and its rows."""
    from hydrosweep.results import ResultsError, open_results
    want = r"bad\.h5: results file is damaged: dataset /%s: checksum mismatch \(%s\) in chunk %d \(%s\)" \
        % (name, checksum, chunk, rows)
    with pytest.raises(ResultsError, match=want):
        with hs.open_results(bad) as r:
            read(r)
    with open_results(str(bad)) as f:  # the h5py.File of plot and analyze
        with pytest.raises(ResultsError, match=want):
            f[name][()]


def test_checksums_damaged_file_raises(tmp_path, capsys):
    """Bytes flipped in /status, /stats/<signal>, /params or a text of a results file: reading
    it through hydrosweep.open_results (and plot, which reads through it) raises ResultsError
    naming the dataset and the damaged chunk with its rows, never returns the changed values
    (docs/results-format.md, Checksums). sweep_python.yaml: 20 instances in chunks of 8."""
    import h5py
    from hydrosweep.results import ResultsError
    good = tmp_path / "c.h5"
    hs.run(os.path.join(ROOT, "tests", "data", "sweep_python.yaml"), out=good, progress=False).close()
    with h5py.File(good, "r") as f:
        assert f["status"].fletcher32 and f["stats/p_piston"].fletcher32 and f["done"].fletcher32
        assert "crc32" in f["model_text"].attrs
    for name, chunk, rows, at, _, read in _DAMAGED:
        _reads_raise(_damage(good, tmp_path / "bad.h5", name, chunk, at), name, chunk, rows, "Fletcher32", read)
    bad = _damage(good, tmp_path / "bad.h5", "model_text", None, 3)
    with pytest.raises(ResultsError, match=r"dataset /model_text: checksum mismatch"):
        hs.open_results(bad)
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        matplotlib = None
    if matplotlib is not None:  # `hydrosweep plot` (its main): exit 2 with the message, no PNG
        from hydrosweep.plot import main as plot_main
        bad = _damage(good, tmp_path / "bad.h5", "stats/p_piston", 0, 5)
        assert plot_main([str(bad), "--kind", "hist", "--signal", "p_piston", "-o", str(tmp_path / "h.png")]) == 2
        err = capsys.readouterr().err
        assert "dataset /stats/p_piston: checksum mismatch (Fletcher32) in chunk 0 (rows 0..7)" in err, err
        assert not (tmp_path / "h.png").exists()
    with hs.open_results(good) as r:  # the intact file reads
        assert r.status.shape[0] == 20


def test_checksums_zeroed_or_erased_chunk_raises(tmp_path):
    """A chunk zeroed or erased with its Fletcher32 (which that checksum cannot see: h5py
    reads it without error) is a ResultsError from the CRC-32 in /crc on the first read of the
    dataset, naming it, the chunk and its rows (docs/results-format.md, Checksums)."""
    import h5py
    from hydrosweep.results import ResultsError
    good = tmp_path / "z.h5"
    hs.run(os.path.join(ROOT, "tests", "data", "sweep_python.yaml"), out=good, progress=False).close()
    for name, chunk, rows, _, byte, read in _DAMAGED:
        bad = _damage(good, tmp_path / "bad.h5", name, chunk, fill=byte)
        with h5py.File(bad, "r") as f:  # Fletcher32 passes: what the CRC is for
            h5py.Dataset.__getitem__(f[name], ())
        _reads_raise(bad, name, chunk, rows, "CRC-32", read)
    shutil.copy(good, tmp_path / "nocrc.h5")
    with h5py.File(tmp_path / "nocrc.h5", "r+") as f:
        del f["crc"]
    with pytest.raises(ResultsError, match=r"it has no /crc"):
        hs.open_results(tmp_path / "nocrc.h5")
    with hs.open_results(good) as r:
        assert r.status.shape[0] == 20


def test_partial_part_being_written_raises(tmp_path):
    """open_results(partial=True) on a .part that a run is writing (it holds the file's lock, as
    hydrosweep run does): a ResultsError saying the run is still writing it, not HDF5's raw
    BlockingIOError; once the lock is gone it opens."""
    import fcntl
    import shutil
    from hydrosweep.results import ResultsError
    if os.environ.get("HDF5_USE_FILE_LOCKING", "").upper() == "FALSE":
        pytest.skip("HDF5's file locking is switched off (HDF5_USE_FILE_LOCKING=FALSE)")
    done = tmp_path / "w.h5"
    hs.run(os.path.join(ROOT, "tests", "data", "sweep_python.yaml"), out=done, progress=False).close()
    part = tmp_path / "w2.h5.part"
    shutil.copy(done, part)
    fd = os.open(part, os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)  # what a running hydrosweep holds on its .part
        with pytest.raises(ResultsError, match="the run is still writing it"):
            hs.open_results(part, partial=True)
        with pytest.raises(ResultsError, match="still"):
            hs.open_results(tmp_path / "w2.h5", partial=True)
    finally:
        os.close(fd)
    with hs.open_results(part, partial=True) as r:
        assert r.instance.size == 20


def test_plot_without_matplotlib_says_how_to_install_it(tmp_path):
    """matplotlib is the extra [plot]: hs.plot, `import hydrosweep.plot` and its functions,
    without it, name the extra rather than raise a bare ModuleNotFoundError."""
    import sys
    pkg = os.path.dirname(os.path.dirname(hs.__file__))
    code = (
        "import sys; sys.modules['matplotlib'] = None\n"  # an import of it now fails
        "import hydrosweep as hs\n"
        "for get in (lambda: hs.plot, lambda: __import__('hydrosweep.plot').plot.fan('x.h5', 'p')):\n"
        "    try:\n"
        "        get()\n"
        "    except ModuleNotFoundError as e:\n"
        "        assert \"pip install 'hydrosweep[plot]'\" in str(e) and e.name == 'matplotlib', e\n"
        "    else:\n"
        "        raise SystemExit('no error')\n"
        "print('ok')\n")
    env = dict(os.environ, PYTHONPATH=pkg + os.pathsep + os.environ.get("PYTHONPATH", ""))
    p = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert p.returncode == 0 and p.stdout.strip() == "ok", p.stdout + p.stderr


def test_test_inputs_from_python():
    """Seed 004 Pub. III's test inputs (eqs. 12-15) through the Python route: a signal switched
    to an impulse of 10 V on [0.3, 0.7) s drives the valve's spool there and only there; a
    rule broken (d <= 0) is refused with the parameter named, as by --set and in a file."""
    m = hs.load_model(os.path.join(ROOT, "models", "crane_rahikainen2020_single.yaml"))
    m.set("signal.U_ref.kind", "impulse")
    m.set("signal.U_ref.v_max", 10)
    assert m.value_name("signal.U_ref.kind") == "impulse" and m.params["signal.U_ref.d"] == 0.4
    df = hs.simulate(m, t_end=1.0).set_index("t")
    u = df["U_dcv"]
    # the spool lags the command by its time constant tau = 4.5 ms (f45 = 35 Hz)
    assert abs(u.loc[0.29]) < 1e-12 and abs(u.loc[0.5] - 10.0) < 1e-6 and abs(u.loc[0.75]) < 1e-3, u.loc[[0.29, 0.5, 0.75]]
    with pytest.raises(hs.HydrosweepError, match=r"signal\.U_ref\.d.*must be a finite time > 0 s"):
        m.set("signal.U_ref.d", -1)


def test_cosim_from_python():
    """Co-simulation (seed 004 Pub. III; kernels/hs_cosim.h) through the Python route: the
    configuration set by name, the residual columns appear (P_res_lift, E_res_lift, E_res), the
    accumulated residual grows from 0 and the stroke stays within 1e-4 m of the monolithic one
    over the first second; H not a multiple of h_hyd is refused with the rule."""
    path = os.path.join(ROOT, "models", "crane_rahikainen2020_single.yaml")
    mono = hs.simulate(hs.load_model(path), t_end=1.0).set_index("t")
    m = hs.load_model(path)
    m.set("integrator.coupling", "cosim")
    m.set("cosim.extrapolation", "integrate")
    assert m.value_name("cosim.extrapolation") == "integrate" and m.value_name("cosim.hydraulics") == "trapezoidal"
    df = hs.simulate(m, t_end=1.0).set_index("t")
    assert {"P_res_lift", "E_res_lift", "E_res"} <= set(df.columns)
    assert df["E_res"].iloc[0] == 0.0 and df["E_res"].iloc[-1] > 0.0 and df["E_res"].is_monotonic_increasing
    assert (df["s_lift"] - mono["s_lift"]).abs().max() < 1e-4
    with pytest.raises(hs.HydrosweepError, match=r"cosim\.h_hyd.*divide the communication step"):
        m.set("cosim.h_hyd", 3e-4)


def test_notebook_surface(tmp_path, capsys):
    """What a notebook user reaches for (issue 47): hs.run of a Model (after set) or of a dict,
    TypeError for anything else; a failed simulate's partial DataFrame; the summary through
    Python's stdout and as HTML; the Model's sizes; dir() the API only."""
    m = hs.load_model(PUB1).set("fluid.B_oil", "1200 MPa").set("integrator.t_end", 0.05)
    assert "3 volumes" in repr(m) and "1 cylinders" in m.sizes and "components" in m.sizes, repr(m)
    r = hs.run(m, n=2, out=tmp_path / "m.h5", progress=False)
    assert capsys.readouterr().out == ""  # progress=False: silent
    assert list(r.params["fluid.B_oil"]) == [1.2e9, 1.2e9] and list(r.params["integrator.t_end"]) == [0.05, 0.05]
    alone = hs.simulate(m)  # the same instance alone (its CSV has 12 digits)
    assert float(r.stats["p_piston"].sel(statistic="final")[0]) == pytest.approx(alone["p_piston"].iloc[-1], rel=1e-11)
    d = hs.run({"model": m, "instances": 3, "parameters": {"cylinder.lift.friction.Fc": {"uniform": ["150 N", "250 N"]}}},
               out=tmp_path / "d.h5", progress=True)
    out = capsys.readouterr().out
    assert out.startswith("hydrosweep Results") and "p_piston" in out and "MPa" in out, out
    assert d.params.shape == (3, 3) and d.params["fluid.B_oil"].eq(1.2e9).all()
    assert d.params["cylinder.lift.friction.Fc"].between(150, 250).all()
    s = d.summary()
    assert s.loc[("p_piston", "max"), "unit"] == "MPa" and d.summary(si=True).loc[("p_piston", "max"), "unit"] == "Pa"
    assert s.loc[("p_piston", "max"), "50%"] == pytest.approx(d.summary(si=True).loc[("p_piston", "max"), "50%"] * 1e-6)
    assert "<table" in d._repr_html_() and "hydrosweep Results" in d._repr_html_()
    for bad in (3, None, ["x"], {"model": 3}):
        with pytest.raises(TypeError):
            hs.run(bad, out=tmp_path / "t.h5", progress=False)
    with pytest.raises(hs.HydrosweepError, match=r"integration failed in the step after t = 0\.5 s") as e:
        hs.simulate(PUB1, set={"integrator.max_iter": 1}, t_end=1.0)
    part = e.value.partial
    assert part is not None and part["t"].iloc[-1] == pytest.approx(0.5) and part.attrs["units"]["p_piston"] == "Pa"
    assert dir(hs) == sorted(hs.__all__ + ["__version__"])
    pytest.importorskip("matplotlib")
    assert "np" not in dir(hs.plot) and "fan" in dir(hs.plot)
    fig = hs.plot.simulate(part)  # the DataFrame as it is
    assert fig.axes[1].get_ylabel() == "pressure (MPa)" and fig.axes[1].get_lines()


def test_plots_in_units_of_the_field(tmp_path):
    """Strokes in mm, flows in L/min, the scatter's x axis scaled and labelled; hs.plot.SI as
    stored; 20 signals with their legend beside the panel."""
    pytest.importorskip("matplotlib")
    assert hs.plot.unit_scale("m") == (1e3, "mm") and hs.plot.unit_scale("m^3/s") == (6e4, "L/min")
    try:
        hs.plot.SI = True
        assert hs.plot.unit_scale("Pa") == (1.0, "Pa")
    finally:
        hs.plot.SI = False
    r = hs.run(os.path.join(ROOT, "tests", "data", "sweep_python.yaml"), out=tmp_path / "s.h5", progress=False)
    name = r.params.columns[0]
    fig = hs.plot.scatter(r, "p_piston", name)
    k, unit = hs.plot.unit_scale(r.params.attrs["units"][name])
    assert fig.axes[0].get_xlabel() == "%s (%s)" % (name, unit)
    x = fig.axes[0].get_lines()[0].get_xdata()
    assert np.allclose(np.sort(x), np.sort(r.params[name].to_numpy()[r.status["finished"].to_numpy()] * k))
    df = pd.DataFrame({"t": [0.0, 1.0], **{"p_v%d" % i: [1e5, 2e5] for i in range(20)}})
    fig = hs.plot.simulate(df)
    leg = fig.axes[1].get_legend()
    assert leg is not None and leg.get_bbox_to_anchor().x0 > fig.axes[1].get_window_extent().x1 - 1


def test_plot_si_option(tmp_path):
    """--si draws as stored for that call only (hs.plot.SI is back to False after it)."""
    pytest.importorskip("matplotlib")
    r = hs.run(os.path.join(ROOT, "tests", "data", "sweep_python.yaml"), out=tmp_path / "si.h5", progress=False)
    assert hs.plot.main([str(tmp_path / "si.h5"), "--kind", "hist", "--signal", "p_piston", "--si",
                         "-o", str(tmp_path / "si.png")]) == 0
    assert (tmp_path / "si.png").stat().st_size > 0 and hs.plot.SI is False
    r.close()


def test_cli_table_in_the_units_of_the_field(tmp_path):
    """`hydrosweep run` prints the ensemble table in the units of Results.summary (MPa, deg,
    mm, L/min; --si: SI as stored), with the same values to its 6 digits: the C table
    (host/results/results.c k_eng) and results.ENGINEERING agree."""
    if not EXE:
        pytest.skip("HS_EXE not set")
    sweep = os.path.join(ROOT, "tests", "data", "sweep_small.yaml")
    for si in (False, True):
        out = subprocess.run([EXE, "run", sweep, "-n", "8", "-b", "cpu", "-o", str(tmp_path / "t.h5"),
                              "--no-progress"] + (["--si"] if si else []),
                             capture_output=True, text=True, check=True).stdout
        s = hs.open_results(tmp_path / "t.h5").summary(si=si)
        rows, sig = {}, None
        for line in out.splitlines():
            f = line.split()
            if line.startswith("  ") and not line.startswith("  signal") and len(f) in (5, 6):
                if len(f) == 6:
                    sig = f.pop(0)
                rows[(sig, f[0])] = ([float(v) for v in f[1:4]], f[4])
        assert len(rows) == len(s) > 0, (out, s)
        for (sg, st), (vals, unit) in rows.items():
            want = s.loc[(sg, st)]
            assert unit == want["unit"], (sg, st, unit, want["unit"])
            # %.6g: half a unit in the 6th digit; round-off-sized values print as 0
            assert vals == pytest.approx([want["5%"], want["50%"], want["95%"]], rel=6e-6, abs=1e-10), (sg, st)
        units = {u for _, u in rows.values()}
        assert ("Pa" in units) == si and ("MPa" in units) == (not si), units
