#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# Runs in the guest: 0027 without the fix, the real deadlock (rmmod holds
# the config mutex and drains test_dev_x; the writer holds test_dev_x's
# active reference and waits for the mutex).  sysfs-observe must name
# the cycle DEADLOCK-PRONE at the first rmmod, catch the DEADLOCK with
# both tasks, and exit 1 in bounded time although the kernel stays
# wedged.  One scenario per boot: the guest is wedged after.
#   verdict-unfixed.sh [ID [test|seed]]   (the driver: --test, sysfs.sh)
. /mnt/files/lib.sh
. /mnt/files/observe-lib.sh
id=${1:-0027}
driver=${2:-test}
[ "$driver" = seed ] &&
	need_seed "judge sysfs.sh -t $id unfixed under --attach"

observe_test "$id" 0 "$driver"
check "$id unfixed: exit 1 (rc $obs_rc)" test $obs_rc -eq 1
check "$id unfixed: exits in bounded time ($obs_secs s < 100 s)" \
	awk -v s="$obs_secs" 'BEGIN{exit !(s < 100)}'
check "$id unfixed: kn:test_sysfs0/test_dev_x cycle DEADLOCK-PRONE" \
	grep -Eq '^DEADLOCK-PRONE: .*kn:test_sysfs0/test_dev_x' "$obs_out"
# Whether the race closed this run: the kernel says so, not our report.
# A module still GOING 2 s after the tool exited is stuck in its exit,
# and only the deadlock keeps it there; then the report is required.
sleep 2
state=$(cat /sys/module/test_sysfs/initstate 2>/dev/null)
if [ "$state" = going ] || grep -q '^DEADLOCK: ' "$obs_out"; then
	check "$id unfixed: deadlocked (test_sysfs ${state:-gone}) and reported DEADLOCK" \
		grep -q '^DEADLOCK: ' "$obs_out"
	check "$id unfixed: the DEADLOCK names the writer and rmmod" grep -Eq \
		'^DEADLOCK: .*(bash|modprobe|rmmod|sysfs-observe)/[0-9]+ -> .*(bash|modprobe|rmmod|sysfs-observe)/' \
		"$obs_out"
	check_deadlock_stacks "$id unfixed" "$obs_out"
	check "$id unfixed: no frame of our own probes in a stack" \
		sh -c "! grep -Eq '^ +(bpf_prog_|bpf_trampoline_|bpf_trace_run|__bpf_trace_)' '$obs_out'"
	# The seed's sysfs.sh shares the observer's stdout and prints
	# "Test for ... " without a newline before it runs the race, so
	# the live line may follow that on the same line.  The stream's has
	# the time and "finding" before it.
	check "$id unfixed: the live line says DEADLOCK once" grep -Eq \
		'(^|\.\.\. | finding +)DEADLOCK +[^ :]+/[0-9]+ -> ' "$obs_out"
	check "$id unfixed: no line says DEADLOCK DEADLOCK" \
		sh -c "! grep -q 'DEADLOCK DEADLOCK' '$obs_out'"
else
	echo "# no hang this run: test_sysfs ${state:-gone}, the race did not close (a verdict only)"
fi

# The module that deadlock wedged cannot be loaded again until reboot:
# the next test must SKIP and say so, not FAIL after a long wait.
if [ "$state" = going ]; then
	timeout -k 5 120 sysfs-observe --test 0001 -q >/tmp/after.out 2>&1
	rc=$?
	grep '^TEST' /tmp/after.out | sed 's/^/# /'
	check "after the deadlock: the next test skips (rc $rc)" \
		sh -c "[ $rc -eq 4 ] && grep -q '^TEST 0001 SKIP' /tmp/after.out"
	check "after the deadlock: the reason says reboot" \
		grep -q 'stuck unloading.*reboot to clear it' /tmp/after.out
else
	echo "# test_sysfs is not stuck unloading: no wedged-module check"
fi
finish
