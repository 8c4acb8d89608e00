"""hydrosweep from Python.

What exists so far reads what the C program writes:
  - hydrosweep.results: open a results file (HDF5) and decode its status bits;
  - hydrosweep.plot: fan charts, histograms, parameter scatters, failure counts and
    `hydrosweep simulate` trajectories with matplotlib (also `hydrosweep plot`).
The binding to the C library (loading models, simulating and running sweeps from Python) is
not written yet.
"""
__version__ = "0.1.0"
