# lib_cli.sh -- sourced by the CLI tests (tests/cli_*.sh, tests/gpu_emul/cli_*.sh): a scratch
# directory $tmp removed at exit, the pass/fail counters ok/bad, and the closing line.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
# finish NAME [NOTE]: prints "NAME: P passed, F failed" and returns non-zero on a failure
finish() {
  echo "$1: $pass passed, $fail failed${2:+ ($2)}"
  [ "$fail" -eq 0 ]
}
# python_with MODULE...: the first python3 (Debian's /usr/bin/python3, then the one on PATH,
# which may be a venv's without them) that imports every MODULE; empty when none does
python_with() {
  local cand mods
  mods=$(IFS=,; echo "$*")
  for cand in /usr/bin/python3 "$(command -v python3 2>/dev/null)"; do
    if [ -n "$cand" ] && [ -x "$cand" ] && "$cand" -c "import $mods" >/dev/null 2>&1; then
      echo "$cand"
      return 0
    fi
  done
  return 1
}

# need_python TEST MODULE...: PY, a python3 that imports every MODULE (python_with); else the
# test is skipped (exit 77) with the modules it needs
need_python() {
  local name=$1
  shift
  PY=$(python_with "$@") && return 0
  echo "$name: SKIPPED: no python3 can import $* (scripts/install-deps.sh installs them)"
  exit 77
}
