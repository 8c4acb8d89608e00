#!/usr/bin/env bash
# Installs every build and test dependency of hydrosweep from Debian 12 packages.
# Idempotent and quiet: apt-get's output goes to a log file ($HS_DEPS_LOG, default
# /tmp/hydrosweep-install-deps.log), one summary line is printed;
# on failure the log's tail is printed and the exit status is non-zero.
# CUDA is not installed here: the script only reports whether nvcc is there (the CUDA
# translation units are built when it is; scripts/build.sh passes its path to cmake).
#   scripts/install-deps.sh [--with-clang]
# --with-clang adds clang and its OpenMP runtime (libomp-dev): the second compiler CI builds
# the C code with (.ci/run).
set -euo pipefail

PKGS=(build-essential cmake pkg-config libfyaml-dev liblapack-dev libblas-dev liblapacke-dev
      libsundials-dev libhdf5-dev zlib1g-dev hdf5-tools librandom123-dev python3 python3-numpy python3-h5py python3-matplotlib
      python3-pandas python3-xarray python3-scipy python3-venv python3-wheel python3-pytest libopenmpi-dev
      openmpi-bin graphviz)
for arg in "$@"; do
    case $arg in
        --with-clang) PKGS+=(clang libomp-dev) ;;
        *) echo "install-deps: unknown option '$arg' (--with-clang)" >&2; exit 1 ;;
    esac
done
LOG=${HS_DEPS_LOG:-/tmp/hydrosweep-install-deps.log}
: >"$LOG"

missing=()
for p in "${PKGS[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
        missing+=("$p")
    fi
done

if [ ${#missing[@]} -eq 0 ]; then
    echo "install-deps: all ${#PKGS[@]} packages already installed"
else
    SUDO=()
    if [ "$(id -u)" -ne 0 ]; then
        if command -v sudo >/dev/null 2>&1; then
            SUDO=(sudo)
        else
            echo "install-deps: not root and no sudo; cannot install: ${missing[*]}" >&2
            exit 1
        fi
    fi
    export DEBIAN_FRONTEND=noninteractive
    if ! { "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q &&
           "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
               --no-install-recommends "${missing[@]}"; } >>"$LOG" 2>&1; then
        echo "install-deps: FAILED installing ${missing[*]}; last lines of $LOG:" >&2
        tail -n 30 "$LOG" >&2
        exit 1
    fi
    echo "install-deps: installed ${#missing[@]} package(s): ${missing[*]} (log: $LOG)"
fi

if command -v nvcc >/dev/null 2>&1; then
    echo "install-deps: nvcc found at $(command -v nvcc): CUDA code will be built"
elif [ -x /usr/local/cuda/bin/nvcc ]; then
    echo "install-deps: nvcc found at /usr/local/cuda/bin/nvcc (not on PATH): CUDA code will be built"
else
    echo "install-deps: no nvcc (PATH or /usr/local/cuda/bin): CUDA code will not be built"
fi
