"""The `hydrosweep` command of the pip-installed package, and `python -m hydrosweep`: they run
the `hydrosweep` program built into the package (hydrosweep/_bin/hydrosweep, setup.py) with
the same arguments, replacing this process (its exit status is the program's).

For `hydrosweep plot` and `hydrosweep analyze` (which run `python3 -m hydrosweep.plot` and
`... hydrosweep.analyze`) the program is told where this package lies (HS_PYTHONPATH, unless
set) and which interpreter it is installed in (HS_PACKAGE_PYTHON): that interpreter is tried
after $HS_PYTHON and before /usr/bin/python3 and python3 on PATH (host/cli/cli_plot.c).

Where the program is looked for, first found wins: this package's _bin/ (a pip install), then
the source tree's build/pip/ (what setup.py builds) and build/ (scripts/build.sh).
"""
import os
import sys

PROGRAM = "hydrosweep"


def program():
    """The path of the hydrosweep program, and the paths looked at."""
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))  # the source tree of python/hydrosweep
    cands = [os.path.join(here, "_bin", PROGRAM), os.path.join(root, "build", "pip", PROGRAM),
             os.path.join(root, "build", PROGRAM)]
    for c in cands:
        if os.path.isfile(c) and os.access(c, os.X_OK):
            return c, cands
    return None, cands


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    exe, tried = program()
    if exe is None:
        sys.stderr.write("hydrosweep: error: the hydrosweep program is not built (looked in: %s); install the "
                         "package with `pip install .` from the repository, or build it (scripts/build.sh)\n"
                         % ", ".join(tried))
        return 4
    env = dict(os.environ)
    if not env.get("HS_PYTHONPATH"):
        env["HS_PYTHONPATH"] = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if sys.executable:
        env["HS_PACKAGE_PYTHON"] = sys.executable
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        os.execve(exe, [exe] + argv, env)
    except OSError as e:
        sys.stderr.write("hydrosweep: error: cannot run %s: %s\n" % (exe, e.strerror))
        return 4
