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
