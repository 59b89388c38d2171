# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# Helpers for scripts that run inside the guest: KTAP-like result lines
# that tests/run.sh counts, and a closing exit status that agrees.
nr_fail=0

ok()     { echo "ok - $*"; }
not_ok() { echo "not ok - $*"; nr_fail=$((nr_fail + 1)); }
# check NAME CMD...: one test case from a command's status.
check() {
	local name=$1
	shift
	if "$@"; then ok "$name"; else not_ok "$name"; fi
}
finish() { [ "$nr_fail" -eq 0 ] && exit 0; exit 1; }
