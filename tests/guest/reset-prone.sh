#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# Runs in the guest, stock kernel: the debugfs reset path end to end.
# With enable_lock_on_rmmod the reset takes the config mutex and removes
# the device (draining test_dev_x) while a store holds test_dev_x's
# active reference and wants the mutex: the 0027 pair, but no module is
# GOING, so the fix (enable_try_module_get=1) cannot gate it.  Run in
# sequence (store, then reset), the edges are deterministic: the cycle
# must be DEADLOCK-PRONE, its reason naming the reset's edge.  The control:
# the same store, then rmmod instead of the reset, with the fix: GATED.
. /mnt/files/lib.sh
rmmod test_sysfs 2>/dev/null
grep -q " /sys/kernel/debug debugfs " /proc/mounts ||
	mount -t debugfs none /sys/kernel/debug
dev=/sys/devices/virtual/misc/test_sysfs0
params="enable_debugfs=1 enable_lock=1 enable_lock_on_rmmod=1
	enable_try_module_get=1"

observe() {	# observe OUT LAST-STEP: store, then LAST-STEP
	timeout -k 5 120 sysfs-observe --attach -- sh -c "
		modprobe test_sysfs $(echo $params) &&
		echo 5 >$dev/test_dev_x && $2; rmmod test_sysfs 2>/dev/null
		true" >"$1" 2>&1
}

observe /tmp/reset.out \
	"echo 1 >/sys/kernel/debug/test_sysfs/reset_first_test_dev"
rc=$?
grep -E '^(DEADLOCK-PRONE|GATED|verdict)' /tmp/reset.out | sed 's/^/# /'
check "reset: the reset ran" \
	sh -c "dmesg | grep -q 'first interface reset complete'"
check "reset: exit 1 (rc $rc)" test $rc -eq 1
check "reset: DEADLOCK-PRONE config_mutex <-> kn:test_sysfs0/test_dev_x" \
	grep -Eq '^DEADLOCK-PRONE: &test_dev->config_mutex <-> kn:test_sysfs0/test_dev_x' \
	/tmp/reset.out
check "reset: not GATED although the fix is loaded" \
	sh -c "! grep -q '^GATED: .*test_dev_x' /tmp/reset.out"
# The reason names the reset's edge (the shell's, not rmmod's) and why
# the fix cannot gate it.
tr '\n' ' ' </tmp/reset.out | tr -s ' ' >/tmp/reset.flat
check "reset: the reason names the reset's edge, taken by sh" grep -q \
	'the edge &test_dev->config_mutex -> kn:test_sysfs0/test_dev_x, taken by sh,' \
	/tmp/reset.flat
check "reset: the reason says no edge runs while test_sysfs is GOING" grep -q \
	'no edge of the cycle runs while test_sysfs is GOING' /tmp/reset.flat

observe /tmp/rmmod.out "true"
rc=$?
grep -E '^(DEADLOCK-PRONE|GATED|verdict)' /tmp/rmmod.out | sed 's/^/# /'
check "control, rmmod: exit 0 (rc $rc)" test $rc -eq 0
check "control, rmmod: GATED config_mutex <-> kn:test_sysfs0/test_dev_x" \
	grep -Eq '^GATED: &test_dev->config_mutex <-> kn:test_sysfs0/test_dev_x' \
	/tmp/rmmod.out
finish
