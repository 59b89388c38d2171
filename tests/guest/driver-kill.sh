#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# Runs in the guest: a workload that ignores SIGTERM.  When --duration
# ends, the observer gives its workload 30 s, then kills it; after that
# it must still undo everything it did: its programs and links gone, no
# process of the workload left, the summary printed, the module free to
# unload, and the exit status saying the workload did not end well.
. /mnt/files/lib.sh
attr=/sys/devices/virtual/misc/test_sysfs0/test_dev_x

modprobe test_sysfs enable_lock=1 || exit 1
rm -f /tmp/wrote
t0=$(date +%s)
# `trap "" TERM` is inherited through exec: sleep ignores SIGTERM too.
sysfs-observe --attach -q --duration 2 -- sh -c \
	"trap '' TERM; echo 1 >$attr && touch /tmp/wrote; exec sleep 97" \
	>/tmp/kill.out 2>/tmp/kill.err &
obs=$!
during=0 links=0
for _ in $(seq 300); do
	if grep -q observing /tmp/kill.err; then
		during=$(bpftool prog show | grep -c 'name fentry_mutex_lock')
		links=$(bpftool link show | grep -c 'attach_type trace_f')
		break
	fi
	sleep 0.2
done
wait $obs
rc=$?
secs=$(($(date +%s) - t0))
cat /tmp/kill.err /tmp/kill.out | grep -E 'warning|workload' | sed 's/^/# /'
pgrep -af sleep | sed "s/^/# left: /"

check "the workload wrote to test_dev_x before the stop" test -e /tmp/wrote
check "while observing, the observer's programs were loaded ($during)" \
	test "$during" -ge 1
check "... and attached ($links fentry/fexit links)" test "$links" -ge 1
check "the workload was killed after its 30 s" \
	grep -q 'the workload did not stop in 30 s; killed' /tmp/kill.err
check "... at least 30 s after the stop began (${secs} s in all)" \
	test "$secs" -ge 32
check "the message says it was killed by SIGKILL" \
	grep -q 'the observed workload was killed by signal 9 (KILL)' \
	/tmp/kill.out
check "exit 1: the workload did not end well (rc $rc)" test $rc -eq 1
check "the summary was printed, with the write" \
	grep -q 'test_sysfs0/test_dev_x' /tmp/kill.out
check "no process of the workload left" \
	sh -c "! pgrep -f '^sleep 97\$' >/dev/null"
check "no program of the observer left" \
	sh -c "! bpftool prog show | grep -q 'name fentry_mutex_lock'"
check "no fentry/fexit link left" \
	sh -c "! bpftool link show | grep -q 'attach_type trace_f'"
check "test_sysfs unloads" rmmod test_sysfs
finish
