#!/usr/bin/env bash
# val_pub3_search.sh -- seed 004 Pub. III Tables 4 and 5: the co-simulation configuration search
# (Sect. 2.4.1) on the single-actuator crane (H_ini = 1 ms, H_inc = 0.2 ms) and the double-actuator
# crane (the 0.2 ms grid of Table 5's values and the 0.5 ms grid of its text), each as one run of
# sweeps/cosim_search_{single,double}.yaml, analysed by `hydrosweep analyze cosim` (the rule of
# docs/sweep-format.md), printed beside the paper's values (validation/README.md has the
# table and the reasons for the differences). Fails when:
#   - a test input finds no stable configuration (Pub. III: the search always finds one);
#   - a chosen largest stable H is off the paper's by more than the stated factor: 3 on the
#     single crane, whose limits hang on a value the paper leaves open, the cylinders' viscous
#     friction c (models/crane_rahikainen2020_single.yaml: 1e5 Ns/m, Project Chrono's; with
#     c = 2e4 and 5e5 Ns/m the chosen H move by up to a factor 2: validation/README.md), and
#     1.5 on the double crane;
#   - zero-order hold (m = 0) is chosen for some input (the paper never chooses it; theory: its
#     residual is first order, E = O(H));
#   - the double crane's recommended H exceeds the single crane's (Pub. III Sect. 4.2: "the
#     achieved step-sizes are smaller due to the indirect coupling");
#   - a chosen H of the 0.5 ms grid differs from the 0.2 ms grid's by 0.5 ms or more (one
#     increment of the coarser grid: the grids sample one stability limit).
# Usage: val_pub3_search.sh PATH/TO/hydrosweep   (from the repository root)
set -u
HS=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
ROOT=$(pwd)
. "$ROOT/tests/lib_cli.sh"
PY=$(python_with numpy h5py)
if [ -z "$PY" ]; then
  echo "val_pub3_search: SKIPPED: no python3 with numpy and h5py (scripts/install-deps.sh)"
  exit 77
fi
export HS_PYTHON=$PY
for s in single double; do
  "$HS" run "$ROOT/sweeps/cosim_search_$s.yaml" -b cpu -o "$tmp/$s.h5" --no-progress >"$tmp/$s.log" 2>&1 &&
    "$HS" analyze cosim "$tmp/$s.h5" --json >"$tmp/$s.json" 2>>"$tmp/$s.log" && ok ||
    bad "the $s crane's search: $(tail -3 "$tmp/$s.log")"
  grep -E '^run: [0-9]+ instances' "$tmp/$s.log"
done
sed -e "s|^model: \.\./|model: $ROOT/|" -e 's|^search:.*$|search: {H_ini: 0.5 ms, H_inc: 0.5 ms, H_max: 4 ms, h_hyd: 0.1 ms}|' \
  "$ROOT/sweeps/cosim_search_double.yaml" >"$tmp/double05.yaml"
"$HS" run "$tmp/double05.yaml" -b cpu -o "$tmp/double05.h5" --no-progress >"$tmp/double05.log" 2>&1 &&
  "$HS" analyze cosim "$tmp/double05.h5" --json >"$tmp/double05.json" 2>>"$tmp/double05.log" && ok ||
  bad "the double crane's 0.5 ms search: $(tail -3 "$tmp/double05.log")"
"$PY" - "$tmp" <<'PYEOF' && ok || bad "the searches against Pub. III Tables 4 and 5 (above)"
import json, sys
d = sys.argv[1]
# Pub. III Table 4 (single actuator, H_ini = 1 ms, H_inc = 0.2 ms) and Table 5 (double actuator):
# (extrapolation, mechanics, hydraulics, largest stable H in ms) per test input
T4 = {"step": ("2", "I1AL", "euler", 4.0), "ramp": ("2", "I1AL", "euler", 5.0), "impulse": ("2", "I1AL", "euler", 3.6),
      "sine 17.5 Hz": ("2", "I1AL", "euler", 2.6), "sine 35 Hz": ("3", "I1AL", "euler", 2.8),
      "sine 70 Hz": ("2", "I1AL", "euler", 4.4)}
T5 = {"step": ("integrate", "I1AL", "euler", 1.6), "ramp": ("3", "I1AL", "euler", 2.0),
      "impulse": ("integrate", "I1AL", "euler", 1.6), "sine 17.5 Hz": ("integrate", "I1AL", "euler", 1.8),
      "sine 35 Hz": ("2", "I1AL", "euler", 1.8), "sine 70 Hz": ("3", "I1AL", "euler", 1.8)}
ok = True

def short(r, c):
    v = r["configs"][c]["values"]
    return " ".join(v[p] for p in r["params"])

def table(name, r, paper, factor):
    global ok
    print("%s (%s)" % (name, ", ".join(p[6:] if p.startswith("cosim.") else p for p in r["params"])))
    print("  %-13s %-28s %8s | %-28s %8s %7s" % ("test input", "paper: configuration", "H (ms)", "ours: configuration",
                                                 "H (ms)", "ratio"))
    for k, inp in enumerate(r["inputs"]):
        ch = r["chosen"][k]
        pe = paper[inp]
        if ch is None:
            print("  %-13s %-28s %8.1f | none stable at H_ini" % (inp, " ".join(pe[:3]), pe[3]))
            ok = False
            continue
        h = 1e3 * ch["H"]
        ratio = h / pe[3]
        flag = "" if 1 / factor <= ratio <= factor else "  <- off by more than %g" % factor
        if flag:
            ok = False
        if r["configs"][ch["config"]]["values"].get("cosim.extrapolation") == "0":
            flag += "  <- m = 0 chosen"
            ok = False
        print("  %-13s %-28s %8.1f | %-28s %8.1f %7.2f%s" % (inp, "m=" + pe[0] + " " + pe[1] + " " + pe[2], pe[3],
                                                            short(r, ch["config"]), h, ratio, flag))
    rec = r["recommended"]
    print("  recommended: %s at H = %s ms" % (short(r, rec["config"]) if rec else "none",
                                             "%.1f" % (1e3 * rec["H"]) if rec else "-"))
    return rec

s, d2, d5 = (json.load(open("%s/%s.json" % (d, n))) for n in ("single", "double", "double05"))
rs = table("Table 4, single actuator, H_ini 1 ms, H_inc 0.2 ms", s, T4, 3.0)
rd = table("Table 5, double actuator, H_ini 0.2 ms, H_inc 0.2 ms", d2, T5, 1.5)
table("Table 5, double actuator, H_ini 0.5 ms, H_inc 0.5 ms", d5, T5, 1.5)
if rs and rd and rd["H"] > rs["H"] + 1e-12:
    print("the double crane's recommended H %.1f ms exceeds the single crane's %.1f ms" % (1e3 * rd["H"], 1e3 * rs["H"]))
    ok = False
for k, inp in enumerate(d2["inputs"]):
    a, b = d2["chosen"][k], d5["chosen"][k]
    if a and b and abs(a["H"] - b["H"]) >= 0.5e-3 - 1e-12:
        print("%s: the 0.5 ms grid's %.1f ms and the 0.2 ms grid's %.1f ms differ by an increment or more"
              % (inp, 1e3 * b["H"], 1e3 * a["H"]))
        ok = False
sys.exit(0 if ok else 1)
PYEOF
finish val_pub3_search
