#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# The kernfs knob scenarios 0029-0032 (a store racing its attribute's
# removal, held at each kernfs wait point for sleeps of 0 to 1024 ms).
# A kernel built with the knobs of the project's kernfs/patches
# (CONFIG_FAIL_KERNFS_KNOBS) runs them; any other skips them, each with
# the reason, and the test skips (exit 4).
. "$(dirname "$0")/ksft_lib.sh"
ksft_require
ksft_run --test 0029-0032 --module "$ko" --format ktap "$@"
