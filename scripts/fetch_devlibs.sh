#!/usr/bin/env bash
# Fetches the build and run-time libraries hydrosweep needs from this machine's Debian
# package sources and unpacks them (dpkg -x, no installation) into .devlibs/ (or DEST), for a
# machine without a package registry: the lent GPU machine, where scripts/gpu_session.sh
# points the compiler, linker, loader, pkg-config and CMake at them.
#
#   scripts/fetch_devlibs.sh [DEST]      run HERE (needs apt-get download, i.e. network)
#
# What is fetched: the libraries and -dev packages of libfyaml, LAPACK/BLAS (reference),
# SUNDIALS IDA (nvecserial, dense sunmatrix/sunlinsol), HDF5 (serial, and its tools h5diff,
# h5ls, h5dump that the CLI tests use), Random123 (headers) and pkgconf (in case the GPU machine has no pkg-config); then, repeatedly, the packages of
# every shared library those need (ELF NEEDED entries) that is neither in DEST already nor in
# any base image (glibc, libgcc_s, libstdc++, zlib). Packages are downloaded alone
# (`apt-get download`, no dependency resolution: the -dev packages' own Depends would pull in
# MPI, PETSc, Fortran compilers...). Dependencies are found with `dpkg -S`, so the packages
# must be installed here (scripts/install-deps.sh).
#
# Then, because dpkg -x runs no maintainer scripts: the update-alternatives links of
# LAPACK/BLAS are made (relative), absolute symlinks are made relative to DEST, pkg-config
# files are made relocatable (${pcfiledir}), and what a build does not need is removed
# (docs, man pages, static libraries, HDF5's h5cc compiler wrappers, which hard-code /usr). The result
# must stay well under the 64 MiB that travels with a device call (with the repository).
# DEST/MANIFEST lists the packages and versions.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DEST=${1:-$ROOT/.devlibs}
ARCH_DIR=usr/lib/x86_64-linux-gnu
ROOTS=(libfyaml0 libfyaml-dev
       liblapack3 liblapack-dev libblas3 libblas-dev
       libsundials-ida6 libsundials-nvecserial6 libsundials-sunmatrix4 libsundials-sunlinsol3
       libsundials-dev
       libhdf5-103-1 libhdf5-dev hdf5-tools
       librandom123-dev zlib1g-dev
       pkgconf pkgconf-bin libpkgconf3)
# sonames every Linux userland has (glibc, the GCC runtime, zlib)
BASE_RE='^(libc|libm|libmvec|libpthread|libdl|librt|libresolv|libutil|libanl|ld-linux-x86-64|libgcc_s|libstdc\+\+|libz)\.so'

command -v apt-get >/dev/null || { echo "fetch_devlibs: needs apt-get (Debian/Ubuntu)" >&2; exit 1; }
command -v readelf >/dev/null || { echo "fetch_devlibs: needs readelf (binutils)" >&2; exit 1; }

rm -rf "$DEST"
mkdir -p "$DEST"
DEBS=$(mktemp -d)
trap 'rm -rf "$DEBS"' EXIT
# apt's sandbox user _apt must be able to write there
chmod 755 "$DEBS"

fetch() { # packages...
    (cd "$DEBS" && apt-get download -q "$@" >/dev/null 2>"$DEBS/apt.err") || {
        echo "fetch_devlibs: apt-get download $* failed:" >&2
        cat "$DEBS/apt.err" >&2
        exit 1
    }
    local p f
    for p in "$@"; do
        f=$(ls "$DEBS"/"${p}"_*.deb 2>/dev/null | head -1)
        [ -n "$f" ] || { echo "fetch_devlibs: no .deb for $p" >&2; exit 1; }
        dpkg -x "$f" "$DEST"
        echo "$p $(dpkg-deb -f "$f" Version) $(stat -c %s "$f")" >>"$DEST/MANIFEST.tmp"
    done
}

echo "fetch_devlibs: ${#ROOTS[@]} packages into $DEST"
fetch "${ROOTS[@]}"
have=" ${ROOTS[*]} "
# SUNDIALS' packages hold every solver, vector and matrix backend (PETSc, hypre, KLU,
# SuperLU...): keep the four the IDA validation links (CMakeLists.txt), or the closure below
# would pull in MPI and PETSc.
find "$DEST/$ARCH_DIR" -maxdepth 1 -name 'libsundials_*' \
     ! -name 'libsundials_ida.so*' ! -name 'libsundials_nvecserial.so*' \
     ! -name 'libsundials_sunmatrixdense.so*' ! -name 'libsundials_sunlinsoldense.so*' -delete
rm -rf "$DEST/$ARCH_DIR/cmake"

# Dependency closure over shared libraries: NEEDED sonames not provided by DEST nor base.
for round in 1 2 3 4 5 6 7 8; do
    needed=$(find "$DEST" -type f \( -name '*.so*' -o -path '*/bin/*' \) -print0 |
             xargs -0 -r sh -c 'readelf -d "$@" 2>/dev/null; exit 0' sh | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | sort -u)
    provided=$(find "$DEST" \( -type f -o -type l \) -name '*.so*' -printf '%f\n' | sort -u)
    new=()
    for so in $needed; do
        [[ $so =~ $BASE_RE ]] && continue
        grep -qxF "$so" <<<"$provided" && continue
        pkg=$(dpkg -S "*/$so" 2>/dev/null | grep -v -- '-dev[:,]' | head -1 | cut -d: -f1 || true)
        if [ -z "$pkg" ]; then
            echo "fetch_devlibs: warning: no installed package provides $so (needed in .devlibs)" >&2
            continue
        fi
        case "$have" in *" $pkg "*) continue ;; esac
        case " ${new[*]-} " in *" $pkg "*) continue ;; esac
        new+=("$pkg")
    done
    [ ${#new[@]} -eq 0 ] && break
    echo "fetch_devlibs: round $round: + ${new[*]}"
    fetch "${new[@]}"
    have="$have${new[*]} "
done

# What dpkg -x leaves undone, and what a build does not need.
rm -rf "$DEST"/usr/share/{doc,man,info,lintian,bug} "$DEST"/etc
# HDF5's compiler wrappers (they hard-code /usr); its tools (h5diff, h5ls, h5dump) stay
find "$DEST/usr/bin" \( -name 'h5*cc*' -o -name 'h5c++*' -o -name 'h5*fc*' \) -delete 2>/dev/null || true
find "$DEST" -name '*.a' \( -type f -o -type l \) -delete
find "$DEST" -name '*.mod' -type f -delete
# update-alternatives: liblapack.so(.3) and libblas.so(.3) in the library directory
for lib in lapack blas; do
    for f in "$DEST/$ARCH_DIR/$lib"/lib$lib.so*; do
        [ -e "$f" ] && ln -sfn "$lib/$(basename "$f")" "$DEST/$ARCH_DIR/$(basename "$f")"
    done
done
# absolute symlinks -> relative, inside DEST
find "$DEST" -type l -print0 | while IFS= read -r -d '' l; do
    t=$(readlink "$l")
    case "$t" in
    /*) ln -sfn "$(realpath -m --relative-to="$(dirname "$l")" "$DEST$t")" "$l" ;;
    esac
done
# pkg-config files: prefix relative to the file's own directory
find "$DEST" -name '*.pc' -type f -print0 | while IFS= read -r -d '' pc; do
    rel=$(realpath -m --relative-to="$(dirname "$pc")" "$DEST/usr")
    sed -i -e "s|^prefix=/usr\$|prefix=\${pcfiledir}/$rel|" -e "s|=/usr/|=\${pcfiledir}/$rel/|" "$pc"
done
# remove symlinks left dangling by the pruning (other libraries of the -dev packages)
find "$DEST" -xtype l -delete

sort -u "$DEST/MANIFEST.tmp" >"$DEST/MANIFEST" && rm -f "$DEST/MANIFEST.tmp"

# Checks: the files a build looks for, and the sonames left to the GPU machine's base system.
fail=0
for f in usr/include/libfyaml.h usr/include/hdf5/serial/hdf5.h usr/include/ida/ida.h \
         usr/include/nvector/nvector_serial.h usr/include/sunmatrix/sunmatrix_dense.h \
         usr/include/sunlinsol/sunlinsol_dense.h usr/include/Random123/philox.h \
         "$ARCH_DIR"/libfyaml.so "$ARCH_DIR"/liblapack.so "$ARCH_DIR"/libblas.so \
         "$ARCH_DIR"/hdf5/serial/libhdf5.so "$ARCH_DIR"/libsundials_ida.so \
         "$ARCH_DIR"/libsundials_nvecserial.so "$ARCH_DIR"/libsundials_sunmatrixdense.so \
         "$ARCH_DIR"/libsundials_sunlinsoldense.so "$ARCH_DIR"/pkgconfig/libfyaml.pc usr/bin/pkgconf \
         usr/bin/h5diff usr/bin/h5ls usr/bin/h5dump; do
    if [ ! -e "$DEST/$f" ]; then
        echo "fetch_devlibs: MISSING $f" >&2
        fail=1
    fi
done
left=$(find "$DEST" -type f \( -name '*.so*' -o -path '*/bin/*' \) -print0 |
       xargs -0 -r sh -c 'readelf -d "$@" 2>/dev/null; exit 0' sh | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | sort -u |
       while read -r so; do
           find "$DEST" -name "$so" | grep -q . || echo "$so"
       done | tr '\n' ' ')
size=$(du -sm "$DEST" | cut -f1)
echo "fetch_devlibs: $(wc -l <"$DEST/MANIFEST") packages, ${size} MiB in $DEST"
echo "fetch_devlibs: left to the target's base system: $left"
if [ "$size" -ge 48 ]; then
    echo "fetch_devlibs: $DEST is ${size} MiB: too much to travel with a device call (64 MiB with the repo)" >&2
    fail=1
fi
exit $fail
