#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# Runs in the guest: a driver's static DEFINE_MUTEX, in a module loaded
# after --attach starts and removed before the session ends, is named by
# its symbol (the probes look it up at first sight: user space reads
# /proc/kallsyms too late for a module that comes and goes within
# milliseconds) in the stream, the summary's hold times (a release
# carries its class), report and JSON; no output carries a raw address.
# test_sysfs's reset_mutex (static) is taken by a write to its debugfs
# reset file; the module is loaded by the observed command itself.
. /mnt/files/lib.sh
rmmod test_sysfs 2>/dev/null
grep -q " /sys/kernel/debug debugfs " /proc/mounts ||
	mount -t debugfs none /sys/kernel/debug
reset=/sys/kernel/debug/test_sysfs/reset_first_test_dev
cmd="modprobe test_sysfs enable_debugfs=1 && echo 1 >$reset &&
     rmmod test_sysfs"

check "test_sysfs is not loaded before the session" \
	test ! -e /sys/module/test_sysfs
timeout -k 5 120 sysfs-observe record -o /tmp/sm.data --attach -v -E 0 \
	-- sh -c "$cmd" >/tmp/sm.out 2>&1
rc=$?
check "record --attach: exit 0 (rc $rc)" test $rc -eq 0
check "the reset ran (the module said so)" \
	sh -c "dmesg | grep -q 'first interface reset complete'"
check "stream: reset_mutex by name" \
	grep -aEq '^ *[0-9.]+ +[0-9]+ +sh/[0-9]+ +lock +reset_mutex' /tmp/sm.out
check "stream: reset_mutex's edges by name" \
	grep -aEq ' edge +reset_mutex -> ' /tmp/sm.out
check "summary: reset_mutex in the hold times" \
	sh -c "sed -n '/^# hold times/,/^# kernfs/p' /tmp/sm.out |
	       grep -q ' reset_mutex$'"
sysfs-observe report -i /tmp/sm.data -E 0 >/tmp/sm.report 2>&1
check "report: reset_mutex in the hold times" \
	sh -c "sed -n '/^# hold times/,/^# kernfs/p' /tmp/sm.report |
	       grep -q ' reset_mutex$'"
sysfs-observe report -i /tmp/sm.data --format json >/tmp/sm.json 2>&1
check "json: reset_mutex" grep -q '"reset_mutex"' /tmp/sm.json
for f in /tmp/sm.out /tmp/sm.report /tmp/sm.json; do
	check "$(basename $f): no raw kernel address" \
		sh -c "! grep -Eq '(0x)?ffff[0-9a-f]{8,}' $f"
done
finish
