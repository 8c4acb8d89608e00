#!/usr/bin/env bash
# cli_layers.sh -- the layers point one way (scripts/check_layers.py, docs/architecture.md):
#  - the tree passes, over its includes and over the symbols of the build's object files;
#  - a copy with an upward include planted (host/model/ including host/cli/), one with a peer
#    include (host/capi/ including host/cli/), one with an include circle (kernels/hs_hd.h
#    including hs_model.h, which includes it), one with an include of no file, and one with a
#    source straight in host/: each fails, naming the file and the rule.
# Usage: cli_layers.sh PATH/TO/hydrosweep (its directory is the build checked)
set -u
HS=$1
. "$(dirname "${BASH_SOURCE[0]}")/lib_cli.sh"
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
BUILD=$(cd "$(dirname "$HS")" && pwd)
CHECK=scripts/check_layers.py

"$PY" "$CHECK" --build "$BUILD" >"$tmp/ok.txt" 2>&1 && grep -q '^check_layers: ok: .* object files' "$tmp/ok.txt" && ok ||
  bad "the tree: $(cat "$tmp/ok.txt")"

# plant ROOT FILE LINE: a copy of the layered folders with LINE added to FILE
plant() {
  rm -rf "$tmp/r" && mkdir -p "$tmp/r" && cp -r kernels include host "$tmp/r/" && printf '%s\n' "$2" >>"$tmp/r/$1"
}
expect_fail() { # DESC PATTERN
  if "$PY" "$CHECK" --root "$tmp/r" >"$tmp/f.txt" 2>&1; then
    bad "$1: passed: $(cat "$tmp/f.txt")"
  else
    grep -q -- "$2" "$tmp/f.txt" && ok || bad "$1: not said ($2): $(cat "$tmp/f.txt")"
  fi
}
plant host/model/params.h '#include "cli/cli.h"'
expect_fail "an upward include" 'host/model/params.h:[0-9]*: #include "cli/cli.h": host/model may not use host/cli'
plant host/capi/capi.c '#include "cli/cli.h"'
expect_fail "a peer include" 'host/capi/capi.c:[0-9]*: #include "cli/cli.h": host/capi may not use host/cli'
plant kernels/hs_hd.h '#include "hs_model.h"'
expect_fail "an include circle" 'include circle: .*kernels/hs_hd.h'
plant host/sweep/sweep_load.c '#include "sweep/no_such_header.h"'
expect_fail "an include of no file" 'resolves to no file'
plant host/base/errors.c ''
cp "$tmp/r/host/base/errors.c" "$tmp/r/host/loose.c"
expect_fail "a source straight in host/" "host/loose.c: not in a layer's folder"

finish cli_layers
