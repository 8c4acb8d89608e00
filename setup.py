"""setup.py -- builds the C parts of the Python package with CMake (pyproject.toml has the
metadata): the shared library libhydrosweep_capi.so (hydrosweep/_lib/, which the ctypes
binding loads) and the `hydrosweep` program (hydrosweep/_bin/, which the `hydrosweep` command
and `python -m hydrosweep` run: hydrosweep/_cli.py). The package is python/hydrosweep.

    pip install .            (pip install -v . shows the build's progress, one line per stage
                              and CMake's own lines)

The private build (build/pip) is configured with what the package uses and no more: Release,
CUDA off (the package runs the cpu and reference backends), MPI off, and only the two targets
are built (no tests, no CUDA units): about a minute on 2 cores.

Environment:
  HS_CMAKE_BUILD_DIR  an existing CMake build directory of this source tree to build the two
                      targets in, with its options as configured there (CUDA, MPI): the gpu
                      backend from Python needs such a build with CUDA
  HS_CMAKE_ARGS       extra arguments of the configure of build/pip, e.g. "-DHS_CUDA=ON"
  CMAKE_BUILD_PARALLEL_LEVEL  build jobs (default: the number of CPUs)
"""
import os
import re
import shlex
import shutil
import subprocess
import sys
import time

import setuptools
from setuptools import Command, setup
from setuptools.command.build_py import build_py

ROOT = os.path.dirname(os.path.abspath(__file__))
LIB = "libhydrosweep_capi.so"
PROGRAM = "hydrosweep"
SETUPTOOLS = tuple(int(x) for x in re.match(r"(\d+)(?:\.(\d+))?", setuptools.__version__).groups("0"))
_T0 = time.time()


def _say(msg):
    """One progress line on stderr (pip shows it with -v, and with the log of a failure)."""
    sys.stderr.write("hydrosweep build [%5.1f s]: %s\n" % (time.time() - _T0, msg))
    sys.stderr.flush()


def _run(cmd):
    _say("$ " + " ".join(shlex.quote(c) for c in cmd))
    subprocess.check_call(cmd)


class BuildWithCMake(build_py):
    """build_py, then the CMake targets hydrosweep_capi and hydrosweep, copied into the package."""

    def run(self):
        super().run()
        bdir = os.environ.get("HS_CMAKE_BUILD_DIR")
        if not shutil.which("cmake"):
            raise SystemExit("hydrosweep setup.py: error: cmake is not on PATH (the C library is built with "
                             "CMake >= 3.22; Debian 12: bash scripts/install-deps.sh installs it and the "
                             "libraries the build needs)")
        if bdir:
            bdir = os.path.abspath(bdir)
            _say("[1/3] using the CMake build directory %s (HS_CMAKE_BUILD_DIR), as configured there" % bdir)
        else:
            bdir = os.path.join(ROOT, "build", "pip")
            _say("[1/3] configuring %s (Release, CUDA off, MPI off)" % bdir)
            cfg = ["cmake", "-S", ROOT, "-B", bdir, "-DCMAKE_BUILD_TYPE=Release", "-DHS_CUDA=OFF",
                   "-DHS_MPI=OFF", "-DHS_WERROR=OFF"]
            cfg += shlex.split(os.environ.get("HS_CMAKE_ARGS", ""))
            _run(cfg)
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") or str(os.cpu_count() or 2)
        _say("[2/3] building %s and the %s program (%s jobs)" % (LIB, PROGRAM, jobs))
        _run(["cmake", "--build", bdir, "--target", "hydrosweep_capi", PROGRAM, "-j", jobs])
        pkg = os.path.join(self.build_lib, "hydrosweep")
        _say("[3/3] copying %s into %s/_lib and %s into %s/_bin" % (LIB, pkg, PROGRAM, pkg))
        for sub, name in (("_lib", LIB), ("_bin", PROGRAM)):
            os.makedirs(os.path.join(pkg, sub), exist_ok=True)
            shutil.copy2(os.path.join(bdir, name), os.path.join(pkg, sub, name))
        _say("done")


# The wheel carries a shared library and a program built for this platform (loaded through
# ctypes and run as a process: no Python C extension), so it is tagged py3-none-<platform>,
# not py3-none-any. bdist_wheel is setuptools' own from 70.1 on, the wheel package's before.
try:
    from setuptools.command.bdist_wheel import bdist_wheel as _bdist_wheel
except ImportError:
    try:
        from wheel.bdist_wheel import bdist_wheel as _bdist_wheel
    except ImportError:
        _bdist_wheel = None

if _bdist_wheel is not None:
    class PlatformWheel(_bdist_wheel):
        def finalize_options(self):
            super().finalize_options()
            self.root_is_pure = False

        def get_tag(self):
            return ("py3", "none", super().get_tag()[2])
else:
    def _no_wheel(*args, **kwargs):
        raise SystemExit("hydrosweep setup.py: error: building a wheel needs setuptools >= 70.1 or the `wheel` "
                         "package, and this environment's setuptools %s has no bdist_wheel (an install with "
                         "--no-build-isolation builds with the environment's own setuptools): install without "
                         "--no-build-isolation, or install wheel (Debian: apt-get install python3-wheel; elsewhere: "
                         "pip install wheel)" % setuptools.__version__)

    class PlatformWheel(Command):
        """Stands in for a missing bdist_wheel with the reason instead of `invalid command`
        (setuptools < 70.1 asks for it in the metadata step already: egg2dist)."""
        user_options = []

        def initialize_options(self):
            pass

        finalize_options = run = egg2dist = _no_wheel


# the license: an SPDX expression where setuptools takes one (>= 77; the TOML table is
# deprecated there), the plain License field before (Debian 12's setuptools 66 takes no string
# in pyproject.toml): pyproject.toml declares it dynamic
LICENSE = {"license_expression": "BSD-3-Clause"} if SETUPTOOLS >= (77, 0) else {"license": "BSD-3-Clause"}

# setuptools' own build tree (build/lib, the egg-info) in a corner of the ignored build/, away
# from the CMake build directories; it must exist before egg_info looks at it
SETUPTOOLS_BUILD = os.path.join("build", "setuptools")
os.makedirs(SETUPTOOLS_BUILD, exist_ok=True)

setup(
    package_dir={"": "python"},
    packages=["hydrosweep"],
    cmdclass={"build_py": BuildWithCMake, "bdist_wheel": PlatformWheel},
    options={"build": {"build_base": SETUPTOOLS_BUILD}, "egg_info": {"egg_base": SETUPTOOLS_BUILD}},
    zip_safe=False,
    **LICENSE,
)
