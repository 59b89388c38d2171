#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# A short smoke test (seconds on hardware): the probes attach on this
# kernel and one scenario (0001, a store to test_sysfs's attribute) runs
# under observation and passes.
. "$(dirname "$0")/ksft_lib.sh"
ksft_require
ksft_run --test 0001 --module "$ko" --format ktap "$@"
