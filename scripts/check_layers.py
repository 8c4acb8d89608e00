#!/usr/bin/env python3
"""The layers of hydrosweep point one way (docs/architecture.md):

    kernels/ < include/hs/ < host/base < host/model < host/tree < host/sweep < host/engine < host/gpu
             < host/results < host/run < host/capi | host/cli

A file may include (and, through its object file, call) only files of its own layer or of a
layer below; host/capi and host/cli are peers and use neither each other. No include circle
anywhere: a header reached again from itself fails, whatever the layers.

    scripts/check_layers.py [--root DIR] [--build BUILD]

Checks every quoted #include under kernels/, include/ and host/ (resolved as the compiler does:
beside the including file, then include/, kernels/, host/); an include that resolves nowhere is
an error too, so that a moved file cannot slip past. With --build, also the symbols: every
object file of the host library (BUILD/CMakeFiles/hs_host_c.dir, hs_host_cu.dir) may use only
symbols defined in its own layer or below (nm), which catches a call through a public header
into a higher layer. Prints each broken rule with the file; exit 1 when any, else 0.
"""
import argparse
import os
import re
import subprocess
import sys

HOST_LAYERS = ["base", "model", "tree", "sweep", "engine", "gpu", "results", "run", "capi", "cli"]
PEERS = {"capi", "cli"}  # the top: neither may use the other
SRC = re.compile(r"\.(c|h|cu|cuh|cpp|hpp)$")
INC = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def layer_of(rel):
    """(rank, name) of a path relative to the root, or None outside the layered folders."""
    parts = rel.split("/")
    if parts[0] == "kernels":
        return (0, "kernels")
    if parts[0] == "include":
        return (1, "include")
    if parts[0] == "host" and len(parts) >= 3 and parts[1] in HOST_LAYERS:
        return (2 + HOST_LAYERS.index(parts[1]), "host/" + parts[1])
    if parts[0] == "host":
        return (-1, "host")  # a file directly in host/ or in an unknown folder
    return None


def may_use(a, b):
    """May a file of layer a use one of layer b?"""
    if a[1] == b[1]:
        return True
    if a[1] in ("host/capi", "host/cli") and b[1] in ("host/capi", "host/cli"):
        return False
    return b[0] < a[0] and b[0] >= 0


def sources(root):
    out = []
    for top in ("kernels", "include", "host"):
        for d, _, files in os.walk(os.path.join(root, top)):
            for f in files:
                if SRC.search(f):
                    out.append(os.path.relpath(os.path.join(d, f), root))
    return sorted(out)


def resolve(root, rel, inc):
    for base in (os.path.dirname(rel), "include", "kernels", "host"):
        p = os.path.normpath(os.path.join(base, inc))
        if os.path.isfile(os.path.join(root, p)):
            return p
    return None


def check_includes(root, errors):
    files = sources(root)
    graph = {}
    for rel in files:
        lay = layer_of(rel)
        if lay[0] < 0:
            errors.append(f"{rel}: not in a layer's folder (host/{{{','.join(HOST_LAYERS)}}}/)")
        with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as fh:
            text = fh.read()
        graph[rel] = []
        for m in INC.finditer(text):
            inc = m.group(1)
            line = text.count("\n", 0, m.start()) + 1
            tgt = resolve(root, rel, inc)
            if tgt is None:
                errors.append(f"{rel}:{line}: #include \"{inc}\" resolves to no file of the tree")
                continue
            graph[rel].append((tgt, line))
            tl = layer_of(tgt)
            if tl is None:
                errors.append(f"{rel}:{line}: #include \"{inc}\" reaches outside the layers ({tgt})")
            elif lay[0] >= 0 and tl[0] >= 0 and not may_use(lay, tl):
                errors.append(f"{rel}:{line}: #include \"{inc}\": {lay[1]} may not use {tl[1]} "
                              f"(layers point down: {' < '.join(['kernels', 'include'] + ['host/' + h for h in HOST_LAYERS[:8]])} < host/capi | host/cli)")
    # circles: a depth-first search that meets a file on its own path
    state, stack = {}, []

    def visit(f):
        state[f] = 1
        stack.append(f)
        for g, line in graph.get(f, []):
            if state.get(g) == 1:
                cyc = stack[stack.index(g):] + [g]
                errors.append(f"{f}:{line}: include circle: {' -> '.join(cyc)}")
            elif g not in state:
                visit(g)
        stack.pop()
        state[f] = 2

    sys.setrecursionlimit(10000)
    for f in files:
        if f not in state:
            visit(f)
    return len(files)


def objects(build):
    for lib in ("hs_host_c.dir", "hs_host_cu.dir"):
        top = os.path.join(build, "CMakeFiles", lib)
        for d, _, fs in os.walk(top):
            for f in fs:
                if f.endswith(".o"):
                    p = os.path.join(d, f)
                    rel = os.path.relpath(p, top)  # host/<layer>/<file>.o, or the build's own
                    yield p, rel[:-2]


def check_symbols(root, build, errors):
    defs, undef = {}, {}
    n = 0
    for path, rel in objects(build):
        lay = layer_of(rel)
        if lay is None or lay[0] < 0:
            continue  # generated sources (the embedded headers)
        if not os.path.isfile(os.path.join(root, rel)):
            continue  # a stale object of a moved or removed source: not part of the library
        n += 1
        out = subprocess.run(["nm", "-P", path], capture_output=True, text=True, check=True).stdout
        undef[rel] = (lay, set())
        for line in out.splitlines():
            p = line.split()
            if len(p) < 2:
                continue
            if p[1] in "TDBRVW" and p[1] != "U":
                defs.setdefault(p[0], set()).add(lay)
            elif p[1] == "U":
                undef[rel][1].add(p[0])
    for rel, (lay, us) in sorted(undef.items()):
        for s in sorted(us):
            for dl in defs.get(s, ()):
                if not may_use(lay, dl):
                    errors.append(f"{rel}: uses {s}, defined in {dl[1]}: {lay[1]} may not use {dl[1]}")
    if n == 0:
        errors.append(f"{build}: no object files of the host library (build it first)")
    return n


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    ap.add_argument("--build", help="a build directory whose object files to check as well")
    a = ap.parse_args()
    root = os.path.abspath(a.root)
    errors = []
    nf = check_includes(root, errors)
    no = check_symbols(root, a.build, errors) if a.build else 0
    for e in errors:
        print("check_layers: " + e)
    what = f"{nf} files" + (f", {no} object files" if a.build else "")
    if errors:
        print(f"check_layers: FAILED: {len(errors)} broken rule(s) in {what}")
        return 1
    print(f"check_layers: ok: {what}, no upward use, no include circle")
    return 0


if __name__ == "__main__":
    sys.exit(main())
