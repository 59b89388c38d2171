#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# Runs in the guest on the kernfs knob kernel: `--attach --knob`.  Why:
# the knobs must be set while the command runs, shown in the report
# header, and put back afterwards, whether the command exits, Ctrl-C or
# SIGTERM ends the session; a bad knob is a usage error (2) before
# anything is touched.  Without the knobs this is a SKIP.
. /mnt/files/lib.sh
. /mnt/files/knob-lib.sh
need_knobs "knob attach"
save_knobs

KNOBS=(--knob wait_after_mutex=Y --knob sleep_after_wait_ms=16
       --knob probability=0 --knob times=3)

# The command sees the knobs; the header shows them; they come back.
timeout -k 5 120 sysfs-observe --attach -q "${KNOBS[@]}" -- sh -c \
	"cat $W/wait_after_mutex $D/sleep_after_wait_ms $F/probability \
	$F/times >/tmp/seen" >/tmp/a.out 2>&1
rc=$?
grep '^# kernfs knobs' /tmp/a.out
check "--attach --knob ... -- CMD exits 0 (rc $rc)" test $rc -eq 0
check "CMD saw wait_after_mutex=Y sleep=16 probability=0 times=3" \
	test "$(tr '\n' ' ' </tmp/seen)" = "Y 16 0 3 "
check "the header shows the knobs" grep -q \
	'^# kernfs knobs: wait_after_mutex=Y sleep_after_wait_ms=16 interval=[0-9]* probability=0 times=3$' \
	/tmp/a.out
check "knobs restored after the command" restored

# Ctrl-C and SIGTERM end the session: restored all the same.
for sig in INT TERM; do
	sysfs-observe --attach -q "${KNOBS[@]}" -- sleep 60 \
		>/tmp/s.out 2>&1 &
	pid=$!
	for i in $(seq 1 600); do
		grep -q Y $W/wait_after_mutex && break
		sleep 0.1
	done
	check "SIG$sig: the knob was set while attached" \
		grep -q Y $W/wait_after_mutex
	sleep 0.5	# the session's own handlers come right after
	kill -$sig $pid
	wait $pid
	rc=$?
	check "SIG$sig: the tool exits by itself (rc $rc)" \
		test $rc -ne 137 -a $rc -ne 143 -a $rc -ne 130
	check "SIG$sig: knobs restored" restored
done

# A second Ctrl-C during teardown is held off (issue 14): the tool says
# so, finishes, and the knobs are restored; a third would kill.
sysfs-observe --attach -q "${KNOBS[@]}" -- sleep 60 >/tmp/s.out 2>&1 &
pid=$!
for i in $(seq 1 600); do
	grep -q Y $W/wait_after_mutex && break
	sleep 0.1
done
check "INT INT: the knob was set while attached" \
	grep -q Y $W/wait_after_mutex
sleep 0.5
kill -INT $pid
sleep 0.2
kill -INT $pid
wait $pid
rc=$?
check "INT INT: the second landed while stopping (the tool said so)" \
	grep -q 'stopping: restoring the knobs' /tmp/s.out
check "INT INT: the tool exits by itself (rc $rc)" \
	test $rc -ne 137 -a $rc -ne 143 -a $rc -ne 130
check "INT INT: knobs restored" restored

# Refused before anything changes.
sysfs-observe --attach --knob wait_after_mutex=maybe -- true >/tmp/b.out 2>&1
rc=$?
check "a bad knob value exits 2 (rc $rc): $(head -n 1 /tmp/b.out)" \
	test $rc -eq 2
check "the reason names the knob and its values" \
	grep -q "wait_after_mutex is a bool: Y or N" /tmp/b.out
sysfs-observe --attach --knob no_such_knob=1 -- true >/tmp/b.out 2>&1
rc=$?
check "an unknown knob exits 2 (rc $rc)" test $rc -eq 2
check "knobs untouched by the refused runs" restored

# Without --knob the header still shows the state, knobs untouched.
timeout -k 5 120 sysfs-observe --attach -q -- true >/tmp/n.out 2>&1
check "the header without --knob: the defaults" grep -q \
	'^# kernfs knobs: sleep_after_wait_ms=[0-9]* interval=' /tmp/n.out
finish
