#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# The 28 scenarios of the test_sysfs suite (0001-0028), each under
# observation, one KTAP line each; 0027 and 0028, which can deadlock the
# kernel without the fix, run with it.  Fails on a failed scenario, a
# DEADLOCK-PRONE lock order or an observed deadlock.
. "$(dirname "$0")/ksft_lib.sh"
ksft_require
ksft_run --test 0001-0028 --module "$ko" --format ktap "$@"
