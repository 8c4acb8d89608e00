"""setup.py -- builds the shared C library of the Python package with CMake (pyproject.toml has
the metadata). The package is python/hydrosweep; the library goes to hydrosweep/_lib/.

Environment:
  HS_CMAKE_BUILD_DIR  an existing CMake build directory of this source tree to build the
                      target hydrosweep_capi in (its options as configured: CUDA, MPI); else
                      build/pip is configured here (Release, CUDA when nvcc is found)
  HS_CMAKE_ARGS       extra arguments of that configure, e.g. "-DHS_CUDA=OFF"
"""
import os
import shlex
import shutil
import subprocess

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = os.path.dirname(os.path.abspath(__file__))
LIB = "libhydrosweep_capi.so"


class BuildWithCMake(build_py):
    def run(self):
        super().run()
        bdir = os.environ.get("HS_CMAKE_BUILD_DIR")
        if bdir:
            bdir = os.path.abspath(bdir)
        else:
            bdir = os.path.join(ROOT, "build", "pip")
            cfg = ["cmake", "-S", ROOT, "-B", bdir, "-DCMAKE_BUILD_TYPE=Release"]
            cfg += shlex.split(os.environ.get("HS_CMAKE_ARGS", ""))
            subprocess.check_call(cfg)
        subprocess.check_call(["cmake", "--build", bdir, "--target", "hydrosweep_capi", "-j",
                               str(os.cpu_count() or 2)])
        dst = os.path.join(self.build_lib, "hydrosweep", "_lib")
        os.makedirs(dst, exist_ok=True)
        shutil.copy2(os.path.join(bdir, LIB), os.path.join(dst, LIB))


setup(
    package_dir={"": "python"},
    packages=["hydrosweep"],
    cmdclass={"build_py": BuildWithCMake},
    # setuptools' own build tree in a corner of the (ignored) CMake build directory
    options={"build": {"build_base": os.path.join("build", "setuptools")}, "egg_info": {"egg_base": os.path.join("build", "setuptools")}},
    zip_safe=False,
)
