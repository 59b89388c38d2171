#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# Runs in the guest: a test module that will not unload stops the run.
# A process holds test_sysfs's debugfs file open from 0011 on (an open
# debugfs file pins its module), so delete_module fails when 0011 ends.
# Loading "again" would keep 0011's parameters for 0012: the run must stop
# there with the reason, unmount the debugfs it mounted although the file
# is busy, and a run after the holder lets go must pass.
. /mnt/files/lib.sh
dbg=/sys/kernel/debug
f=$dbg/test_sysfs/reset_first_test_dev

mounted_before=$(grep -c " $dbg debugfs" /proc/mounts)
rm -f /tmp/held
(
	for _ in $(seq 3000); do
		if { exec 3<"$f"; } 2>/dev/null; then
			touch /tmp/held
			sleep 90
			exit 0
		fi
		sleep 0.02
	done
) &
holder=$!

timeout -k 5 200 sysfs-observe --test all -q >/tmp/stuck.out 2>&1
rc=$?
grep -E '^TEST|stopping' /tmp/stuck.out | tail -n 4 | sed 's/^/# /'
check "the holder had test_sysfs's debugfs file open" test -e /tmp/held
check "exit 1 (rc $rc)" test $rc -eq 1
check "the run stopped at 0011 (the last result line)" \
	sh -c "grep '^TEST' /tmp/stuck.out | tail -n 1 | grep -q '^TEST 0011 FAIL'"
check "no test after 0011 ran" sh -c "! grep -q '^TEST 0012' /tmp/stuck.out"
check "the reason says the module stays loaded and to rmmod it" grep -q \
	'stopping: test_sysfs stays loaded after 0011.*rmmod test_sysfs' \
	/tmp/stuck.out
check "debugfs as it was ($mounted_before mount(s))" \
	test "$(grep -c " $dbg debugfs" /proc/mounts)" = "$mounted_before"

kill "$holder" 2>/dev/null
pkill -f 'sleep 90' 2>/dev/null
wait 2>/dev/null
for _ in $(seq 50); do
	rmmod test_sysfs 2>/dev/null && break
	sleep 0.1
done
check "released: test_sysfs is gone" test ! -e /sys/module/test_sysfs
timeout -k 5 120 sysfs-observe --test 0011 -q >/tmp/after.out 2>&1
rc=$?
check "released: 0011 passes again (rc $rc)" \
	sh -c "[ $rc -eq 0 ] && grep -q '^TEST 0011 PASS' /tmp/after.out"
finish
