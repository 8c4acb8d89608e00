#!/usr/bin/env python3
"""Where a specialised kernel's stack frame goes: the bytes of each per-thread structure of
the specialised engine, and of each member of its work (hs_work), for one model or sweep.

ptxas reports one number, the frame (`hydrosweep kernel`). Most of it is the per-thread
structures that hs_spec_instance keeps (kernels/hs_spec_entry.h): hs_work (kinematics,
tangent and its LU, projection matrices, hydraulics, Newton vectors), hs_mview (the values
an instance varies) and hs_inst_run (the runner's state; the statistics live in shared memory
where they fit). hs_state lives in shared memory when a block's states fit in 16 KB. This
script takes the generated engine (`hydrosweep kernel FILE --source`), compiles it with the
host compiler and prints sizeof and offsetof of those structures: the sizes are the same for
the device (doubles and ints), so it needs no GPU and no CUDA toolkit. Issue 29: the frame
lives in local memory, which the L1 cache cannot hold for every resident thread.

    scripts/frame_breakdown.py [--hydrosweep build/hydrosweep] [--cc cc] [--json] FILE...
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), os.pardir))

# hs_work's members in declaration order (kernels/hs_state.h); a member under a switch is
# printed only where the switch is on in the generated engine
WORK = [("kin", None), ("trig", "HS_TRIG_CACHE"), ("fb", "HS_WORK_FB"), ("phi", None), ("J", None),
        ("lu", None), ("P", None), ("L", None), ("hyd", None), ("U1", None), ("js", None), ("rm", None),
        ("piv", None), ("pivL", None), ("tan_ok", None), ("kin_x", None), ("tan_h", None), ("alpha", None),
        ("alpha_m", None), ("h", None), ("t0", None), ("t1", None), ("tg", None), ("it_step", None),
        ("f0", None), ("f1", None), ("x", None), ("dx", None), ("zd", None), ("zdd", None), ("lam", None),
        ("hist", "HS_WORK_HIST"), ("cs", "HS_COSIM_ON")]
KIN = [("A", None), ("p", None), ("b", None), ("Z", None), ("Zd0", None), ("zb", "HS_CAP_BALL")]
STRUCTS = ["hs_state", "hs_work", "hs_mview", "hs_inst_run", "hs_kin", "hs_hyd"]
CAPS = ["HS_CAP_BODIES", "HS_CAP_Z", "HS_CAP_CON", "HS_CAP_X", "HS_CAP_VOLS", "HS_CAP_CYLS", "HS_CAP_FS",
        "HS_CAP_OUT", "HS_SPEC_BLOCK"]


def probe_source():
    lines = ["#include <stdio.h>", "#include <stddef.h>", "int main(void)", "{"]
    for s in STRUCTS:
        lines.append(f'    printf("S {s} %zu\\n", sizeof({s}));')
    for c in CAPS:
        lines.append(f'    printf("C {c} %d\\n", (int)({c}));')
    for typ, members in (("hs_work", WORK), ("hs_kin", KIN)):
        for m, switch in members:
            stmt = (f'    printf("M {typ} {m} %zu %zu\\n", offsetof({typ}, {m}), '
                    f'sizeof((({typ} *)0)->{m}));')
            lines += [f"#if {switch}", stmt, "#endif"] if switch else [stmt]
    lines += ["    return 0;", "}"]
    return "\n".join(lines) + "\n"


def breakdown(hs, cc, path):
    src = subprocess.run([hs, "kernel", path, "--source"], capture_output=True, text=True)
    if src.returncode != 0:
        raise RuntimeError(f"{path}: hydrosweep kernel --source: {src.stderr.strip()}")
    defs = {}
    for line in src.stdout.splitlines():
        k = line.split()
        if len(k) == 3 and k[0] == "#define" and k[2].isdigit():
            defs[k[1]] = int(k[2])
    block, nout = defs.get("HS_SPEC_BLOCK", 128), defs.get("HS_CAP_OUT", 0)
    # the device's layout: hs_spec_entry.h keeps the running statistics in shared memory (a
    # pointer in hs_inst_run) when a block's fit in 32 KB; the host compiler's build would
    # hold them in hs_inst_run
    acc_shared = nout * 6 * 8 * block <= 32768
    pre = f"#define HS_ACC_LD {block}\n" if acc_shared else ""
    with tempfile.TemporaryDirectory() as tmp:
        c, exe = os.path.join(tmp, "probe.c"), os.path.join(tmp, "probe")
        with open(c, "w") as f:
            f.write(pre + src.stdout + "\n" + probe_source())
        cmd = [cc, "-std=c11", "-O0", "-w", "-I", os.path.join(ROOT, "kernels"), "-I", os.path.join(ROOT, "include"),
               "-o", exe, c, "-lm"]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError(f"{path}: compiling the probe: {r.stderr[:2000]}")
        out = subprocess.run([exe], capture_output=True, text=True, check=True).stdout
    res = dict(file=path, structs={}, caps={}, members={"hs_work": [], "hs_kin": []}, stats_in_shared=acc_shared)
    for line in out.splitlines():
        k = line.split()
        if k[0] == "S":
            res["structs"][k[1]] = int(k[2])
        elif k[0] == "C":
            res["caps"][k[1]] = int(k[2])
        else:
            res["members"][k[1]].append(dict(name=k[2], offset=int(k[3]), bytes=int(k[4])))
    # hs_spec_kernel's state slot: shared memory when a block's padded states fit in 16 KB
    words = ((res["structs"]["hs_state"] + 7) // 8) | 1
    res["state_in_shared"] = words * 8 * block <= 16384
    st = res["structs"]
    res["frame_structs"] = (st["hs_work"] + st["hs_mview"] + st["hs_inst_run"] +
                            (0 if res["state_in_shared"] else st["hs_state"]))
    return res


def show(r):
    caps = ", ".join(f"{k.replace('HS_CAP_', '').replace('HS_SPEC_', '').lower()} {v}" for k, v in r["caps"].items())
    print(f"{r['file']}  ({caps})")
    print("  per thread: " + ", ".join(f"{k} {v} B" for k, v in r["structs"].items()) +
          f"; hs_state in {'shared memory' if r['state_in_shared'] else 'the frame'}, the statistics in "
          f"{'shared memory' if r['stats_in_shared'] else 'hs_inst_run'}")
    print(f"  in the frame unless held in registers: hs_work + hs_mview + hs_inst_run"
          f"{'' if r['state_in_shared'] else ' + hs_state'} = {r['frame_structs']} B")
    for typ in ("hs_work", "hs_kin"):
        ms = sorted(r["members"][typ], key=lambda m: -m["bytes"])
        total = r["structs"][typ]
        named = sum(m["bytes"] for m in ms)
        print(f"  {typ} ({total} B; padding {total - named} B): " +
              ", ".join(f"{m['name']} {m['bytes']}" for m in ms if m["bytes"] >= 16))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hydrosweep", default=os.path.join(ROOT, "build", "hydrosweep"))
    ap.add_argument("--cc", default=os.environ.get("CC", "cc"))
    ap.add_argument("--json", action="store_true")
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    rows = []
    for f in a.files:
        try:
            rows.append(breakdown(a.hydrosweep, a.cc, f))
        except RuntimeError as e:
            print(f"frame_breakdown: {e}", file=sys.stderr)
            return 1
    if a.json:
        json.dump(rows, sys.stdout, indent=1)
        print()
    else:
        for r in rows:
            show(r)
    return 0


if __name__ == "__main__":
    sys.exit(main())
