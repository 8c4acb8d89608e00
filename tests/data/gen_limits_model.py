#!/usr/bin/env python3
"""gen_limits_model.py OUT_DIR -- writes limits_model.yaml and limits_sweep.yaml: a model at
the sizes a six-section machine needs (issue 48; kernels/hs_hd.h HS_MAX_*): 32 bodies, 48
volumes, 16 directional valves, 12 cylinders, 24 throttles, 32 components and a sweep that
records 64 signals. Used by tests/cli_limits.sh.

The machine: 12 sliders on prismatic joints, each moved by its cylinder through a valve
section (supply line -> valve -> hose volume -> throttle -> chamber volume); sections 0..3
have a second valve in parallel; each section has a relief valve on its piston-side line and
an anti-cavitation check valve into its rod-side line, sections 0..7 an accumulator. Sliders
0..9 carry a double pendulum (20 more bodies)."""
import os
import sys

NSEC, NPAR, NPEND, NACC = 12, 4, 10, 8


def model():
    L = ["name: limits_model", "gravity: [0, -9.81, 0]", "bodies:"]
    for i in range(NSEC):
        L.append("  - {name: s%d, shape: point, mass: 100 kg}" % i)
    for i in range(NPEND):
        for k in "ab":
            L.append("  - {name: p%d%s, shape: beam, mass: 5 kg, length: 0.5 m, width: 0.02 m, height: 0.02 m}" % (i, k))
    L.append("joints:")
    for i in range(NSEC):
        L.append("  - {name: x%d, type: prismatic, parent: ground, child: s%d, axis: [1, 0, 0], "
                 "at_parent: [0, %d, 0], z0: 0.3 m}" % (i, i, 2 * i))
    for i in range(NPEND):
        L.append("  - {name: q%da, type: revolute, parent: s%d, child: p%da, axis: [0, 0, 1], at_parent: [0, 0, 0], "
                 "at_child: [0.25, 0, 0], z0: -90 deg}" % (i, i, i))
        L.append("  - {name: q%db, type: revolute, parent: p%da, child: p%db, axis: [0, 0, 1], at_parent: [-0.25, 0, 0], "
                 "at_child: [0.25, 0, 0], z0: 0 deg}" % (i, i, i))
    L.append("signals:")
    for v in range(NSEC + NPAR):
        t0 = 0.05 * (v % 6)
        L.append("  - {name: U%d, knots: [[%g s, 0], [%g s, %g], [%g s, %g], [%g s, 0]]}"
                 % (v, t0, t0 + 0.1, 4 + v % 5, t0 + 0.3, 4 + v % 5, t0 + 0.4))
    L += ["fluid: {B_oil: 1500 MPa, rho: 860 kg/m^3}", "hydraulics:", "  sources:",
          "    - {name: supply, p: 20 MPa}", "    - {name: tank, p: 0.1 MPa}", "  volumes:"]
    for i in range(NSEC):
        for v in ("a_line", "b_line", "piston", "rod"):
            L.append("    - {name: %s%d, V: 0.5 L, B: 1000 MPa}" % (v, i))
    L.append("  throttles:")
    for i in range(NSEC):
        L.append("    - {name: ta%d, from: a_line%d, to: piston%d, Cv: 2e-7}" % (i, i, i))
        L.append("    - {name: tb%d, from: b_line%d, to: rod%d, Cv: 2e-7}" % (i, i, i))
    L.append("  valves:")
    for v in range(NSEC + NPAR):
        i = v % NSEC
        L.append("    - {name: dcv%d, P: supply, T: tank, A: a_line%d, B: b_line%d, Cv: 2e-8, f45: 15 Hz, U_ref: U%d}"
                 % (v, i, i, v))
    L.append("  cylinders:")
    for i in range(NSEC):
        L.append("    - {name: c%d, body_a: ground, at_a: [-1.0, %d, 0], body_b: s%d, at_b: [0, 0, 0], d_piston: 63 mm, "
                 "d_rod: 36 mm, stroke: 1.0 m, l_piston0: 0.5 m, B_wall: 31500 MPa, piston_volume: piston%d, rod_volume: rod%d, "
                 "friction: {model: viscous, c: 5e3 Ns/m}, init: {mode: equilibrium, p_rod: 2 MPa}}" % (i, 2 * i, i, i, i))
    L.append("  components:")
    for i in range(NSEC):
        L.append("    - {name: relief%d, type: relief_valve, from: a_line%d, to: tank, p_crack: 22 MPa, Q_nom: 60 L/min, "
                 "dp_override: 20 bar}" % (i, i))
        L.append("    - {name: anticav%d, type: check_valve, from: tank, to: b_line%d, p_crack: 0.3 bar, Cv: 1e-7}" % (i, i))
    for i in range(NACC):
        L.append("    - {name: acc%d, type: accumulator, at: a_line%d, V0: 0.5 L, p_pre: 1 MPa, n: 1.4}" % (i, i))
    L += ["integrator: {dt: 1 ms, t_end: 0.6 s, tol_position: 1e-7, tol_pressure: 1e2 Pa, penalty: 1e11, max_iter: 20}"]
    return "\n".join(L) + "\n"


def sweep():
    sig = ["x%d" % i for i in range(NSEC)] + ["q%d%s" % (i, k) for i in range(NPEND) for k in "ab"]
    sig += ["p_%s%d" % (v, i) for i in range(8) for v in ("a_line", "b_line", "piston", "rod")]
    assert len(sig) == 64
    return ("model: limits_model.yaml\ninstances: 4\nseed: 3\nmethod: monte_carlo\n"
            "parameters:\n  fluid.B_oil: {uniform: [1200 MPa, 1800 MPa]}\n"
            "  cylinder.c0.friction.c: {uniform: [4e3 Ns/m, 6e3 Ns/m]}\n"
            "outputs:\n  signals: [%s]\n  statistics: [min, max, final]\n"
            "  trajectories: {every: 50, signals: [%s]}\n" % (", ".join(sig), ", ".join(sig[:16])))


if __name__ == "__main__":
    out = sys.argv[1]
    with open(os.path.join(out, "limits_model.yaml"), "w") as f:
        f.write(model())
    with open(os.path.join(out, "limits_sweep.yaml"), "w") as f:
        f.write(sweep())
