"""python -m hydrosweep ARGS: the `hydrosweep` command (the program built into the package;
hydrosweep._cli), e.g. python -m hydrosweep info models/double_pendulum.yaml."""
import sys

from ._cli import main

if __name__ == "__main__":
    sys.exit(main())
