#!/usr/bin/env bash
# cli_kernel_all.sh -- tests/cli_kernel.sh over every shipped model and sweep (label long: a
# build of each specialised kernel, minutes on two cores). Usage: cli_kernel_all.sh PATH/TO/hydrosweep
exec bash "$(dirname "${BASH_SOURCE[0]}")/cli_kernel.sh" "$1" all
