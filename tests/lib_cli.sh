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

# monte_carlo_sweep FILE MODEL INSTANCES SEED T_END SIGNALS PARAM... : a Monte Carlo sweep file
# at dt 1 ms recording SIGNALS (a YAML list's inside, "a, b"), each PARAM a line of its
# parameters mapping ("component.x.p_set: {uniform: [1 bar, 2 bar]}").
monte_carlo_sweep() {
  local f=$1 model=$2 n=$3 seed=$4 tend=$5 sig=$6 p
  shift 6
  {
    printf 'model: %s\ninstances: %s\nseed: %s\nmethod: monte_carlo\n' "$model" "$n" "$seed"
    printf 'simulation: {t_end: %s, dt: 1 ms}\nparameters:\n' "$tend"
    for p in "$@"; do printf '  %s\n' "$p"; done
    printf 'outputs:\n  signals: [%s]\n' "$sig"
  } >"$f"
}

# sweep_agrees HS S: the sweep file S.yaml run (results S.h5, every instance finished),
# validated (cpu against the reference backend) and, in a CUDA build (HS's directory has
# tests/hydrosweep_gpu_emul), run on the emulated device with the cpu's statistics (h5diff 1e-6).
sweep_agrees() {
  local hs=$1 s=$2 emu
  emu=$(dirname "$1")/tests/hydrosweep_gpu_emul
  "$hs" run "$s.yaml" -o "$s.h5" --no-progress >"run_$s.txt" 2>&1 && grep -q 'finished, 0 failed' "run_$s.txt" && ok ||
    bad "$s: the sweep: $(head -5 "run_$s.txt")"
  "$hs" validate "$s.yaml" --sample 2 >"val_$s.txt" 2>&1 && grep -q 'validate: passed' "val_$s.txt" && ok ||
    bad "$s: validate, cpu against the reference: $(tail -3 "val_$s.txt")"
  if [ -x "$emu" ] && command -v h5diff >/dev/null; then
    "$emu" run "$s.yaml" -b gpu -o "g_$s.h5" --no-progress >"gpu_$s.txt" 2>&1 && ok ||
      bad "$s: the emulated device: $(tail -3 "gpu_$s.txt")"
    h5diff -q -p 1e-6 "$s.h5" "g_$s.h5" /stats /stats >/dev/null 2>&1 && ok || bad "$s: emulated device vs cpu: /stats differs"
  fi
}
