"""hydrosweep.cosim_search -- seed 004 Pub. III's rule applied to the results of a sweep with
method: cosim_search (docs/sweep-format.md): each co-simulation configuration's largest stable
communication step H per test input, and the configuration chosen for each input (Table 4).

    python3 -m hydrosweep.analyze cosim RESULTS.h5 [--json] [--max-order P]
    (the same as `hydrosweep analyze cosim RESULTS.h5`)

  search(res, max_order=6.0, floor=1e-9) -> dict (see below)

The rule (Pub. III Sect. 2.4.1). For one configuration and one test input, with H_0 < H_1 < ...
the grid of the search and E_k the accumulated energy residual E_res at t_end of the run with
H_k (Pub. III eqs. 9-11: the sum over the steps of |delta E|):
  - a run fails when its status has a failure bit (the co-simulation diverged, Newton failed,
    ...; warnings such as cosim_stiff do not count);
  - run k >= 1 is in the linear region when its local order in H,
        p_k = ln(E_k / E_{k-1}) / ln(H_k / H_{k-1}),
    is at most max_order (default 6), or when E_{k-1} or E_k is at most floor (1e-9 J: too
    small for its ratio to mean anything). Pub. III assumes E grows about linearly in H while
    the co-simulation is stable, and theory gives O(H^(m+1)) for extrapolation order m
    (Sect. 2.4): orders up to m + 1 = 5 (m <= 4). Past the stability limit E grows by orders of
    magnitude within one increment of H (p_k of 10 to 100 and more), and that growth, which no
    extrapolation error explains, is what the rule detects; run 0 has no predecessor and is
    judged by its status alone, as the paper's first run is;
  - the largest stable H is H_{j-1} for the first j that fails or leaves the linear region,
    H_last when none does (the search is then open-ended: "at least"), and none when run 0
    fails (H_ini is already too large). As in the paper, the search stops at the first such
    j: a stable run at a larger H after an unstable one does not count.
Per test input the chosen configuration is the one with the largest stable H (ties: the
smaller E at that H, the more accurate); the recommended configuration is the one whose
smallest stable H over the test inputs is the largest (Pub. III Sect. 4.2: "the most
pessimistic result ... being taken as the configuration for the system"; ties: the larger
mean).

The dict: model, t_end, H (s), inputs (names), params (the configuration parameters' names),
configs (a list of {values: {name: text}, H_stable: [s or None per input], at_least: [bool],
limit: ["failure" | "nonlinear" | "grid" per input], E: [[J or None per H] per input],
order: [[p_k or None per H] per input], failed: [[bool per H] per input]}), chosen (per
input: {config: index, H, E}), recommended ({config, H} or None), max_order, floor.
Needs numpy and h5py.
"""
import math
import zlib

import numpy as np

from .results import _WHY, ResultsError, open_results, status_bits, texts, warning_mask

DEFAULT_MAX_ORDER = 6.0
DEFAULT_FLOOR = 1e-9  # J


def _layout(f):
    """(nH, inputs, roles, enums) of a cosim_search file, else ResultsError. roles: per parameter
    0 H, 1 the hydraulics' step, 2 a test input's, 3 a configuration's."""
    method = f.attrs.get("method")
    method = method.decode() if isinstance(method, bytes) else str(method)
    if method != "cosim_search" or "search_inputs" not in f.attrs:
        raise ResultsError("%s: analyze cosim needs the results of a sweep with method: cosim_search (this one "
                           "is %s)" % (f.filename, method))
    bad = "%s: results file is damaged: the search's attributes (search_inputs, search_nH, search_param_roles, " \
          "search_param_enums) " % f.filename
    try:
        nH, inputs = int(f.attrs["search_nH"]), texts(f.attrs["search_inputs"])
        roles = [int(d) for d in np.atleast_1d(f.attrs["search_param_roles"])]
        enums, want = texts(f.attrs["search_param_enums"]), int(f.attrs["search_crc32"])
    except (KeyError, TypeError, ValueError) as e:
        raise ResultsError(bad + "cannot be read (%s): %s" % (e, _WHY)) from None
    # their checksum (docs/results-format.md, Checksums): the values as text, each ended by a null
    text = b"".join(t.encode() + b"\0" for t in inputs + [str(nH)] + [str(r) for r in roles] + enums)
    if zlib.crc32(text) & 0xFFFFFFFF != want:
        raise ResultsError(bad + "do not match their checksum search_crc32: " + _WHY)
    nparam = len(texts(f["params"].attrs["names"]))
    if nH < 1 or not inputs or len(roles) != nparam or len(enums) != nparam or any(r not in (0, 1, 2, 3) for r in roles):
        raise ResultsError(bad + "are not a search (nH %d, %d inputs, %d roles and %d enumerations for %d parameters): %s"
                           % (nH, len(inputs), len(roles), len(enums), nparam, _WHY))
    return nH, inputs, roles, enums


def local_order(E, H, floor=DEFAULT_FLOOR):
    """p_k = ln(E_k / E_(k-1)) / ln(H_k / H_(k-1)) for k >= 1 (None for k = 0, and where either E
    is at most floor or not finite)."""
    p = [None] * len(E)
    for k in range(1, len(E)):
        a, b = E[k - 1], E[k]
        if a is None or b is None or not (math.isfinite(a) and math.isfinite(b)) or a <= floor or b <= floor:
            continue
        p[k] = math.log(b / a) / math.log(H[k] / H[k - 1])
    return p


def stable_h(E, failed, H, max_order=DEFAULT_MAX_ORDER, floor=DEFAULT_FLOOR):
    """(index of the largest stable H or -1, limit, orders) for one configuration and input:
    the rule of the module docstring. limit: "failure", "nonlinear" or "grid" (none found)."""
    p = local_order(E, H, floor)
    for k in range(len(H)):
        if failed[k]:
            return k - 1, "failure", p
        if k >= 1 and p[k] is not None and p[k] > max_order:
            return k - 1, "nonlinear", p
    return len(H) - 1, "grid", p


def search(res, max_order=DEFAULT_MAX_ORDER, floor=DEFAULT_FLOOR):
    """Pub. III's rule on a cosim_search results file (path or open file); see the module
    docstring."""
    if isinstance(max_order, bool) or not isinstance(max_order, (int, float)) or not (
            math.isfinite(max_order) and max_order > 0):
        raise ValueError("the largest local order (--max-order) must be a number > 0, not %r" % (max_order,))
    if isinstance(floor, bool) or not isinstance(floor, (int, float)) or not (math.isfinite(floor) and floor >= 0):
        raise ValueError("the floor (--floor) must be a number >= 0 J, not %r" % (floor,))
    path = res if isinstance(res, str) else getattr(res, "path", None) or res.filename
    with open_results(path) as f:
        nH, inputs, roles, enums = _layout(f)
        if int(f.attrs.get("complete", 0)) != 1:
            raise ResultsError("%s: the run is not complete" % f.filename)
        names = texts(f["params"].attrs["names"])
        sigs = texts(f.attrs["signals"])
        cols = texts(f.attrs["columns"])
        if "E_res" not in sigs:
            raise ResultsError("%s: E_res is not recorded (outputs.signals), and the rule reads it" % f.filename)
        col = "final" if "final" in cols else "max" if "max" in cols else None
        if col is None:
            raise ResultsError("%s: E_res has neither statistic final nor max stored (outputs.statistics)"
                               % f.filename)
        E = np.array(f["stats/E_res"][()][:, cols.index(col)], dtype=float)
        P = np.array(f["params"][()], dtype=float)
        st = np.array(f["status"][()], dtype=np.int64)
        failed = (st & ~warning_mask(status_bits(f))) != 0
        model = f.attrs.get("model_name")
        model = model.decode() if isinstance(model, bytes) else str(model)
        t_end = None
        if "integrator.t_end" in names:
            t_end = float(P[0, names.index("integrator.t_end")])
    nin = len(inputs)
    n = E.size
    if n % (nH * nin):
        raise ResultsError("%s: %d instances are not a search of %d values of H x %d test inputs" % (path, n, nH, nin))
    ncfg = n // (nH * nin)
    dH = names.index("integrator.dt")
    H = [float(h) for h in P[:nH, dH]]
    cfgp = [j for j in range(len(names)) if roles[j] == 3]

    def label(j, v):
        e = enums[j].split(",") if enums[j] else []
        if e and float(v).is_integer() and 0 <= int(v) < len(e):
            return e[int(v)]
        return "%g" % v

    configs = []
    for c in range(ncfg):
        i0 = c * nH * nin
        cf = {"values": {names[j]: label(j, P[i0, j]) for j in cfgp}, "H_stable": [], "at_least": [], "limit": [],
              "E": [], "order": [], "failed": []}
        for k in range(nin):
            sl = slice(i0 + k * nH, i0 + (k + 1) * nH)
            e = [None if not math.isfinite(x) else float(x) for x in E[sl]]
            fl = [bool(x) for x in failed[sl]]
            j, lim, p = stable_h(e, fl, H, max_order, floor)
            cf["H_stable"].append(H[j] if j >= 0 else None)
            cf["at_least"].append(lim == "grid")
            cf["limit"].append(lim)
            cf["E"].append(e)
            cf["order"].append(p)
            cf["failed"].append(fl)
        configs.append(cf)
    chosen = []
    for k in range(nin):
        best = None
        for c, cf in enumerate(configs):
            h = cf["H_stable"][k]
            if h is None:
                continue
            e = cf["E"][k][H.index(h)]
            key = (h, -(e if e is not None else math.inf))
            if best is None or key > best[0]:
                best = (key, c, h, e)
        chosen.append(None if best is None else {"config": best[1], "H": best[2], "E": best[3]})
    rec = None
    for c, cf in enumerate(configs):
        hs = cf["H_stable"]
        if any(h is None for h in hs):
            continue
        key = (min(hs), sum(hs) / len(hs))
        if rec is None or key > rec["_key"]:
            rec = {"config": c, "H": key[0], "_key": key}
    if rec is not None:
        del rec["_key"]
    return {"model": model, "path": path, "t_end": t_end, "H": H, "inputs": inputs,
            "params": [names[j] for j in cfgp], "configs": configs, "chosen": chosen, "recommended": rec,
            "max_order": float(max_order), "floor": float(floor), "statistic": col}


def _short(name):
    return name[6:] if name.startswith("cosim.") else name


def _ms(h):
    return "%.4g ms" % (1e3 * h)


def config_text(r, c):
    """A configuration's values as "hydraulics trapezoidal, extrapolation 2"."""
    v = r["configs"][c]["values"]
    return ", ".join("%s %s" % (_short(p), v[p]) for p in r["params"])


def format_table(r):
    """Pub. III Table 4's form, then every configuration's largest stable H, as text."""
    out = []
    H = r["H"]
    inc = H[1] - H[0] if len(H) > 1 else 0.0
    out.append("co-simulation search of %s: %d configurations x %d test inputs x %d values of H (%s to %s%s)"
               % (r["model"], len(r["configs"]), len(r["inputs"]), len(H), _ms(H[0]), _ms(H[-1]),
                  ", by %s" % _ms(inc) if inc else ""))
    out.append("rule (Pub. III Sect. 2.4.1): the largest H before the first failed run or the first whose "
               "accumulated residual E_res")
    out.append("grows faster than H^%g over one increment (local order ln(E_k/E_k-1)/ln(H_k/H_k-1) > %g; "
               "--max-order)" % (r["max_order"], r["max_order"]))
    out.append("")
    w = max([len("test input")] + [len(s) for s in r["inputs"]])
    cols = [_short(p) for p in r["params"]]
    cw = [max(len(c), max(len(cf["values"][p]) for cf in r["configs"])) for c, p in zip(cols, r["params"])]
    out.append("%-*s  %s  %10s  %12s" % (w, "test input", "  ".join("%-*s" % (a, b) for a, b in zip(cw, cols)),
                                         "largest H", "E_res there"))
    for k, name in enumerate(r["inputs"]):
        ch = r["chosen"][k]
        if ch is None:
            out.append("%-*s  %s" % (w, name, "no configuration is stable at H_ini = %s" % _ms(H[0])))
            continue
        cf = r["configs"][ch["config"]]
        ge = ">= " if cf["at_least"][k] else ""
        out.append("%-*s  %s  %10s  %12s" % (w, name, "  ".join("%-*s" % (a, cf["values"][p])
                                                                for a, p in zip(cw, r["params"])),
                                             ge + _ms(ch["H"]), "%.3g J" % ch["E"] if ch["E"] is not None else "-"))
    out.append("")
    out.append("largest stable H of every configuration (ms; -: unstable at H_ini, >=: stable up to H_max; "
               "f/n: what ended it, failure or nonlinear):")
    iw = [max(8, len(s)) for s in r["inputs"]]
    out.append("%s  %s  %8s" % ("  ".join("%-*s" % (a, b) for a, b in zip(cw, cols)),
                                "  ".join("%*s" % (a, s) for a, s in zip(iw, r["inputs"])), "min"))
    for c, cf in enumerate(r["configs"]):
        cells = []
        for k in range(len(r["inputs"])):
            h = cf["H_stable"][k]
            lim = cf["limit"][k]
            cells.append("%*s" % (iw[k], "-" if h is None else (">=" if lim == "grid" else "") + "%.4g" % (1e3 * h)
                                  + ("" if lim == "grid" else " " + lim[0])))
        hs = cf["H_stable"]
        mn = "-" if any(h is None for h in hs) else "%.4g" % (1e3 * min(hs))
        out.append("%s  %s  %8s" % ("  ".join("%-*s" % (a, cf["values"][p]) for a, p in zip(cw, r["params"])),
                                    "  ".join(cells), mn))
    out.append("")
    rec = r["recommended"]
    if rec is None:
        out.append("recommended: none (no configuration is stable at H_ini under every test input: start the "
                   "search at a smaller H_ini)")
    else:
        cf = r["configs"][rec["config"]]
        ge = ">= " if all(cf["at_least"]) else ""
        out.append("recommended (stable under every test input up to the largest H): %s, H = %s%s"
                   % (config_text(r, rec["config"]), ge, _ms(rec["H"])))
    return "\n".join(out)


def to_json(r):
    """The search's dict as JSON text (None as null)."""
    import json
    return json.dumps(r, indent=1, allow_nan=False, default=float)
