#!/usr/bin/env bash
# cli_install.sh -- `cmake --install` of the build under test into a scratch prefix installs
# the program, the library, the headers, the pkg-config file and the CMake package config, the
# Python package, models, sweeps, the LICENSE and CITATION.cff; a C program built against the
# installed library (with pkg-config, and with find_package(hydrosweep) in CMake) loads a
# model and reads its sizes; the installed program runs, and its `plot` finds the installed
# Python package.
# Usage: cli_install.sh PATH/TO/BUILD/hydrosweep   (from the repository root)
set -u
BUILD=$(cd "$(dirname "$1")" && pwd)
ROOT=$(pwd)
. "$(dirname "${BASH_SOURCE[0]}")/lib_cli.sh"
T=$tmp

P=$T/prefix
if cmake --install "$BUILD" --prefix "$P" >"$T/install.log" 2>&1; then ok; else bad "cmake --install: $(tail -5 "$T/install.log")"; fi
for f in bin/hydrosweep lib/libhydrosweep.a include/hydrosweep/include/hs/model_file.h include/hydrosweep/kernels/hs_model.h \
         lib/pkgconfig/hydrosweep.pc lib/cmake/hydrosweep/hydrosweepConfig.cmake \
         lib/cmake/hydrosweep/hydrosweepConfigVersion.cmake share/hydrosweep/python/hydrosweep/plot.py \
         share/hydrosweep/models/fourbar_jaiswal2021_friction.yaml share/hydrosweep/sweeps/friction_bulk_mc.yaml \
         share/doc/hydrosweep/LICENSE share/doc/hydrosweep/CITATION.cff; do
  [ -e "$P/$f" ] && ok || bad "installed: $f"
done

cat >"$T/app.c" <<'EOF'
/* a user's program against the installed library: load a model, print its sizes */
#include <stdio.h>

#include "hs/model_file.h"

int main(int argc, char **argv)
{
    static hs_model_desc d;
    hs_error e;
    if (argc < 2 || hs_model_load(argv[1], &d, &e)) {
        fprintf(stderr, "app: %s\n", argc < 2 ? "usage: app MODEL" : e.msg);
        return 1;
    }
    printf("bodies %d coordinates %d volumes %d\n", d.model.nbody, d.model.nz, d.model.nvol);
    hs_model_desc_free(&d);
    return 0;
}
EOF
MODEL=$P/share/hydrosweep/models/fourbar_jaiswal2021_friction.yaml
# a program linking an instrumented library (scripts/sanitize.sh) needs the same flags
CF=$(sed -n 's/^CMAKE_C_FLAGS:[A-Z]*=//p' "$BUILD/CMakeCache.txt")
LF=$(sed -n 's/^CMAKE_EXE_LINKER_FLAGS:[A-Z]*=//p' "$BUILD/CMakeCache.txt")
# pkg-config, the installed .pc found through PKG_CONFIG_PATH (relocatable: the prefix is where it lies)
# shellcheck disable=SC2086
if PKG_CONFIG_PATH=$P/lib/pkgconfig cc -std=c11 $CF -o "$T/app" "$T/app.c" \
     $(PKG_CONFIG_PATH=$P/lib/pkgconfig pkg-config --cflags --libs hydrosweep) $LF >"$T/cc.log" 2>&1; then
  out=$("$T/app" "$MODEL" 2>&1)
  [ "$out" = "bodies 3 coordinates 3 volumes 3" ] && ok || bad "pkg-config app: '$out'"
else
  bad "cc with pkg-config --cflags --libs hydrosweep: $(tail -5 "$T/cc.log")"
fi
# CMake: find_package(hydrosweep) with the prefix on CMAKE_PREFIX_PATH
mkdir -p "$T/cm"
cp "$T/app.c" "$T/cm/"
cat >"$T/cm/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.22)
project(app C)
find_package(hydrosweep 0.1 REQUIRED)
add_executable(app app.c)
target_link_libraries(app PRIVATE hydrosweep::hydrosweep)
EOF
if cmake -S "$T/cm" -B "$T/cm/b" -DCMAKE_PREFIX_PATH="$P" "-DCMAKE_C_FLAGS=$CF" "-DCMAKE_EXE_LINKER_FLAGS=$LF" \
     >"$T/cm.log" 2>&1 &&
   cmake --build "$T/cm/b" >>"$T/cm.log" 2>&1; then
  out=$("$T/cm/b/app" "$MODEL" 2>&1)
  [ "$out" = "bodies 3 coordinates 3 volumes 3" ] && ok || bad "find_package app: '$out'"
else
  bad "find_package(hydrosweep): $(grep -E 'Error|error' "$T/cm.log" | head -5)"
fi

# the installed program
"$P/bin/hydrosweep" --version >"$T/v.log" 2>&1 && grep -q "0.1.0" "$T/v.log" && ok || bad "installed --version: $(cat "$T/v.log")"
"$P/bin/hydrosweep" simulate "$MODEL" --t-end 0.01 -o "$T/s.csv" >/dev/null 2>&1 && [ -s "$T/s.csv" ] && ok ||
  bad "installed simulate"
# its plot runs the installed Python package (when a python3 has matplotlib)
if /usr/bin/python3 -c 'import numpy, h5py, matplotlib' >/dev/null 2>&1; then
  # the package it runs is the installed one (marked here), not the source tree's
  sed -i 's/print("plot: wrote/print("plot (installed): wrote/' "$P/share/hydrosweep/python/hydrosweep/plot.py"
  "$P/bin/hydrosweep" plot "$T/s.csv" -o "$T/s.png" >"$T/plot.log" 2>&1 && [ -s "$T/s.png" ] &&
    grep -q "plot (installed): wrote" "$T/plot.log" && ok || bad "installed plot, installed package: $(tail -2 "$T/plot.log")"
fi
finish cli_install
