#!/usr/bin/env bash
# cli_frame_breakdown.sh -- scripts/frame_breakdown.py: the per-thread structures of a specialised
# kernel's frame from the generated engine (`hydrosweep kernel --source`), sized by the host
# compiler with the device's layout; no GPU or CUDA needed.
#  - the canonical model: every structure sized; hs_work's members add up to it but for padding
#    (< 16 B); the kinematics' A is 9 doubles per body and the LU 8 max(nx, ncon + ncyl)^2 bytes;
#    its state and statistics in shared memory (hs_spec_entry.h's rules at 64 threads per block),
#    so the frame's structures are hs_work + hs_mview + hs_inst_run;
#  - the excavator's sweep: its state (416 B) and statistics (14 signals) do not fit in shared
#    memory at 64 threads per block, so both count in the frame;
#  - the text form names the structures; a missing file exits non-zero with its name.
set -u
HS=$1
. "$(dirname "${BASH_SOURCE[0]}")/lib_cli.sh"
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
FB=scripts/frame_breakdown.py

"$PY" "$FB" --hydrosweep "$HS" --json models/fourbar_jaiswal2021_friction.yaml sweeps/excavator_mc.yaml \
  >"$tmp/fb.json" 2>"$tmp/fb.err" && ok || bad "frame_breakdown --json: $(cat "$tmp/fb.err")"
"$PY" - "$tmp/fb.json" >"$tmp/check.txt" 2>&1 <<'PY' && ok || bad "frame_breakdown's figures: $(cat "$tmp/check.txt")"
import json, sys
four, exc = json.load(open(sys.argv[1]))
for r in (four, exc):
    st, caps = r["structs"], r["caps"]
    for k in ("hs_state", "hs_work", "hs_mview", "hs_inst_run", "hs_kin", "hs_hyd"):
        assert st[k] > 0, (r["file"], k, st)
    work = sum(m["bytes"] for m in r["members"]["hs_work"])
    assert 0 <= st["hs_work"] - work < 16, (r["file"], st["hs_work"], work)
    kin = {m["name"]: m["bytes"] for m in r["members"]["hs_kin"]}
    assert kin["A"] == 9 * 8 * caps["HS_CAP_BODIES"], (r["file"], kin)
    lu = {m["name"]: m["bytes"] for m in r["members"]["hs_work"]}["lu"]
    g = caps["HS_CAP_CON"] + caps["HS_CAP_CYLS"]
    assert lu == 8 * max(caps["HS_CAP_X"], g) ** 2, (r["file"], lu, caps)
assert four["state_in_shared"] and four["stats_in_shared"], four
assert four["frame_structs"] == four["structs"]["hs_work"] + four["structs"]["hs_mview"] + four["structs"]["hs_inst_run"]
assert not exc["state_in_shared"] and not exc["stats_in_shared"], exc
assert exc["frame_structs"] == sum(exc["structs"][k] for k in ("hs_work", "hs_mview", "hs_inst_run", "hs_state"))
print("canonical hs_work", four["structs"]["hs_work"], "B; excavator frame structures", exc["frame_structs"], "B")
PY
cat "$tmp/check.txt"

"$PY" "$FB" --hydrosweep "$HS" models/fourbar_jaiswal2021_friction.yaml >"$tmp/fb.txt" 2>&1 &&
  grep -q "hs_work (2" "$tmp/fb.txt" && grep -q "hs_state in shared memory" "$tmp/fb.txt" && grep -q "kin 720" "$tmp/fb.txt" &&
  ok || bad "the text form: $(cat "$tmp/fb.txt")"

if "$PY" "$FB" --hydrosweep "$HS" models/no_such_model.yaml >"$tmp/miss.txt" 2>&1; then
  bad "a missing file exited 0"
else
  grep -q "no_such_model.yaml" "$tmp/miss.txt" && ok || bad "a missing file's message: $(cat "$tmp/miss.txt")"
fi

finish cli_frame_breakdown
