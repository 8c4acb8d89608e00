"""hydrosweep from Python.

What exists so far reads what the C program writes:
  - hydrosweep.open_results(path, partial=False): a results file as pandas and xarray objects
    (.params, .status, .stats, .traj(signal), .ensemble; a .part file with partial=True);
  - hydrosweep.results: the file-level reader (format checks, status bits);
  - hydrosweep.plot: fan charts, histograms, parameter scatters, failure counts and
    `hydrosweep simulate` trajectories with matplotlib (also `hydrosweep plot`).
The binding to the C library (loading models, simulating and running sweeps from Python) is
not written yet.
"""
__version__ = "0.1.0"



def __getattr__(name):
    """hs.plot, imported on first use (so that `python3 -m hydrosweep.plot` runs it once)."""
    if name == "plot":
        import importlib
        return importlib.import_module(".plot", __name__)
    raise AttributeError("module 'hydrosweep' has no attribute %r" % name)


def open_results(path, partial=False):
    """A results file of `hydrosweep run` as a Results object (hydrosweep.results.Results):
    params (DataFrame), status (DataFrame, decoded), stats (xarray Dataset), traj(signal)
    (xarray DataArray), ensemble. partial=True also opens an interrupted run's .part file
    (its unwritten rows NaN, status -1). Needs pandas and xarray."""
    from .results import Results
    return Results(path, partial=partial)
