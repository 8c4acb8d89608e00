"""pytest suite of the Python package (python/hydrosweep): the binding to the C library
(load_model, Model.set, simulate, run), the results reader and the plots, against what the C
program `hydrosweep` writes for the same inputs. Run by tests/cli_pytest.sh on the package
installed with `pip install .` into a virtual environment; HS_EXE names the program and
HS_ROOT the source tree."""
import os
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
    assert set(r.joint_kinds.values()) == {"revolute"} and "crank_angle" in r.joint_kinds
    assert r.model_name == "fourbar_rahikainen2018"
    names = [n for _, n, _, _ in r.status_bits]
    assert names[:2] == ["maxiter", "nonfinite"] and "step_size" in names
    assert {n for _, n, k, _ in r.status_bits if k == "warning"} == {"cavitation", "implausible"}
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
