#!/usr/bin/env python3
"""The branch system of seed 002 (Rui et al. 2020), Fig. 1 and Sect. 5.2, as a riccati model
file for any N: N = 2 n - 1 (bodies the odd numbers 1..N, hinges the even ones), n bodies,
3 n degrees of freedom (every hinge a ball joint).

Topology (the seed numbers it for N = 999 and does not describe it for larger N; this script
keeps the figure's and lets the long chain grow): body N hangs from the ceiling and the chain
N, N-2, ..., 13 runs down to the multi-input body 11, which hangs at its centre and is
horizontal; from its left end hangs the subchain 3, 1 (two bodies), from its right end the
subchain 9, 7, 5 (three bodies). All bodies are 1 kg rods of 1 m as in the demonstration
example (Sect. 5.1), given a 1 cm x 1 cm section: a ball joint needs inertia about the rod's
own axis, which the seed's J_xx = 0 lacks (the spin would be undetermined). Initial state
(Sect. 5.2): at rest, body 11 horizontal, every other body hanging vertically.

    scripts/branch_system.py N [-o FILE] [--t-end T]
N = 999 gives models/branch_system_rui2020.yaml (500 bodies, the seed's ADAMS comparison);
N = 66667 gives 33 334 bodies and 100 002 degrees of freedom."""
import argparse
import sys


def branch_system(N, t_end=0.1, dt=1e-3):
    if N < 13 or N % 2 == 0:
        raise ValueError(f"N = {N}: the figure's topology needs an odd N >= 13 (bodies 1, 3, ..., N)")
    n = (N + 1) // 2
    top = n - 6
    rod = "{shape: beam, mass: 1 kg, length: 1 m, width: 0.01 m, height: 0.01 m}"
    return f"""# The branch system of seed 002 (Rui et al. 2020), Fig. 1 and Sect. 5.2, N = {N}: {n} bodies,
# {3 * n} degrees of freedom. Written by scripts/branch_system.py {N} (its docstring states the
# topology chosen for larger N and why the rods have a 1 cm section).
name: branch_system_rui2020_N{N}
source: "seed 002 (Rui, Bestle, Wang et al., Multibody Syst. Dyn. 49, 2020), Sect. 5.2, Fig. 1"
gravity: [0, -9.81, 0]                        # m/s^2

bodies:
  - name: b11                                 # the multi-input body 11: horizontal, hung at its centre
    shape: beam                               # 1 kg, 1 m rod with a 1 cm section (see above)
    mass: 1 kg
    length: 1 m
    width: 0.01 m
    height: 0.01 m

joints:
  - name: h12                                 # hinge 12: body 11's centre on body 13's lower end
    type: ball
    parent: top_{top}                         # body 13 (the chain's last)
    child: b11
    at_parent: [0, 0, 0]                      # body 13's lower end (its body origin), m
    at_child: [0.5, 0, 0]                     # body 11's centre, m
    q0: {{axis: [0, 0, 1], angle: -90 deg}}     # horizontal below a vertical body

chains:
  - name: top                                 # bodies N, N-2, ..., 13 from the ceiling down
    count: {top}
    parent: ground
    body: {rod}
    first_joint:                              # hinge N+1: body N's upper end on the ceiling
      type: ball
      at_parent: [0, 0, 0]                    # the ceiling point, m
      at_child: [1, 0, 0]                     # a rod's upper end (body x from its lower end up), m
      q0: {{axis: [0, 0, 1], angle: 90 deg}}    # hanging: body x points up
    joint:                                    # the next rod's upper end on this one's lower end
      type: ball
      at_parent: [0, 0, 0]
      at_child: [1, 0, 0]
  - name: left                                # bodies 3, 1 on body 11's left end (input I1)
    count: 2
    parent: b11
    body: {rod}
    first_joint:
      type: ball
      at_parent: [0, 0, 0]                    # body 11's left end, m
      at_child: [1, 0, 0]
      q0: {{axis: [0, 0, 1], angle: 90 deg}}    # hanging from a horizontal body
    joint:
      type: ball
      at_parent: [0, 0, 0]
      at_child: [1, 0, 0]
  - name: right                               # bodies 9, 7, 5 on body 11's right end (input I2)
    count: 3
    parent: b11
    body: {rod}
    first_joint:
      type: ball
      at_parent: [1, 0, 0]                    # body 11's right end, m
      at_child: [1, 0, 0]
      q0: {{axis: [0, 0, 1], angle: 90 deg}}
    joint:
      type: ball
      at_parent: [0, 0, 0]
      at_child: [1, 0, 0]

integrator:
  formulation: riccati
  method: rk4
  dt: {dt * 1e3:g} ms
  t_end: {t_end:g} s

outputs:
  bodies: [top_1, b11, left_2]                # bodies N, 11 and 1: the seed's Fig. 4
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("N", type=int, help="odd, >= 13: bodies 1, 3, ..., N")
    ap.add_argument("-o", "--output", help="file to write (default: standard output)")
    ap.add_argument("--t-end", type=float, default=0.1, help="simulated time, s (default 0.1)")
    a = ap.parse_args()
    try:
        text = branch_system(a.N, a.t_end)
    except ValueError as e:
        print(f"branch_system.py: {e}", file=sys.stderr)
        return 2
    if a.output:
        with open(a.output, "x") as f:  # never over an existing file or through a link
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
