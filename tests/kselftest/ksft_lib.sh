#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# Sourced by the sysfs_observe collection's test programs (make
# kselftest-install): kselftest's rules for them.  KTAP on stdout, exit 4
# to skip with the reason, nothing left behind.  The binary and the
# module are the collection's own copies, found beside this file.
ksft_skip=4
here=$(cd "$(dirname "$0")" && pwd)
so=$here/sysfs-observe
ko=$here/test_sysfs.ko

ksft_skip_all() {
	echo "KTAP version 1"
	echo "1..0 # SKIP $*"
	exit $ksft_skip
}

# What the tool cannot check itself before it runs: its own files and a
# module built for this kernel (a mismatch would fail the load, not skip).
# Root, BTF and tracing it checks and skips on (exit 4) with its reason.
ksft_require() {
	[ -x "$so" ] || ksft_skip_all "no $so: reinstall the collection"
	[ -r "$ko" ] || ksft_skip_all "no $ko: reinstall the collection"
	[ "$(id -u)" = 0 ] || ksft_skip_all "needs root (BPF tracing, module loading)"
	built=$(modinfo -F vermagic "$ko" 2>/dev/null | cut -d' ' -f1)
	[ "$built" = "$(uname -r)" ] ||
		ksft_skip_all "test_sysfs.ko is built for ${built:-an unknown kernel}," \
			"this is $(uname -r): make kselftest-install KDIR=<its build dir>"
	if grep -q '^test_sysfs ' /proc/modules; then
		ksft_skip_all "test_sysfs is loaded already: rmmod it first"
	fi
}

# Nothing left behind: the module unloaded, no observer still running.
# Prints why and returns 1 when something is.
ksft_left_behind() {
	left=0
	if grep -q '^test_sysfs ' /proc/modules; then
		echo "# left behind: test_sysfs is still loaded"
		left=1
	fi
	if pgrep -x sysfs-observe >/dev/null 2>&1; then
		echo "# left behind: a sysfs-observe process"
		left=1
	fi
	return $left
}

# Run the tool; exit with its status, or 1 when it left something behind.
# A test's own arguments (the runner's KSELFTEST_<TEST>_ARGS, e.g.
# KSELFTEST_SCENARIOS_SH_ARGS="--window 0.5") go to the tool last.
ksft_run() {
	"$so" "$@"
	rc=$?
	ksft_left_behind || rc=1
	exit $rc
}
