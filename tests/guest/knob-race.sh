#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# Runs in the guest on the kernfs knob kernel (kernfs/): scenarios
# 0029-0032, a store to test_dev_x held at each wait point while rmmod
# removes it, one row per delay.  Why: each must pass (no crash, dmesg
# clean, every row keeps the active reference's guarantee), print all 11
# rows, and leave every knob as it found it; 0032 (the reference held)
# must succeed at every delay and make rmmod wait; and a writer stopped
# before its reference must lose at the longest delay.  Without the knobs
# this is a SKIP (knob-skip.sh checks that case on the stock kernel).
. /mnt/files/lib.sh
. /mnt/files/knob-lib.sh
need_knobs "knob race"

# Something not the default, to see that it comes back as it was.
echo 7 >$F/interval
save_knobs

declare -A wait=([0029]=wait_at_start [0030]=wait_before_mutex
		 [0031]=wait_after_mutex [0032]=wait_after_active)
for id in 0029 0030 0031 0032; do
	t0=$(cut -d' ' -f1 /proc/uptime)
	timeout -k 5 300 sysfs-observe --test $id -q >/tmp/$id.out 2>&1
	rc=$?
	t1=$(cut -d' ' -f1 /proc/uptime)
	grep -E '^# sysfs_|^TEST ' /tmp/$id.out
	echo "# --test $id: $(awk -v a="$t0" -v b="$t1" \
		'BEGIN { printf "%.1f", b - a }') s, rc $rc"
	rows=/tmp/$id.rows
	grep -E "^# sysfs_$id: +[0-9]+  " /tmp/$id.out >$rows
	check "$id exits 0 (rc $rc)" test $rc -eq 0
	check "$id: TEST line PASS" grep -q "^TEST $id PASS" /tmp/$id.out
	check "$id: the table names ${wait[$id]}" \
		grep -q "^# sysfs_$id: a store held at ${wait[$id]}," /tmp/$id.out
	check "$id: 11 rows, delays 0..1024 ms" test "$(awk '{ print $3 }' \
		$rows | tr '\n' ' ')" = "0 2 4 8 16 32 64 128 256 512 1024 "
	check "$id: every row ok" test "$(grep -c ' ok$' $rows)" -eq 11
	check "$id: knobs restored" restored
	check "$id: test_sysfs unloaded" \
		sh -c '! grep -q "^test_sysfs " /proc/modules'
done

# The active reference held: written every time, rmmod waited for it.
check "0032: 11 writes of 2 bytes" \
	test "$(grep -c ' 2 bytes ' /tmp/0032.rows)" -eq 11
check "0032: every write ended before rmmod" \
	test "$(grep -c 'before rmmod' /tmp/0032.rows)" -eq 11
# How long rmmod took is a TCG clock reading, not a test: the order
# above is what the active reference guarantees.
awk '$3 == 1024 { print "# figure: 0032 at 1024 ms: rmmod took " $(NF - 3) " ms" }' \
	/tmp/0032.rows
# The report: per delay, the write's timeline against the removal.
check "0032: the summary has 11 write timelines" \
	grep -q '^# write timelines: 11 writes waited at a kernfs knob' /tmp/0032.out
check "0032: every timeline names wait_after_active and its delay" \
	test "$(grep -c '^wait_after_active, sleep_after_wait_ms=[0-9]*: ' \
		/tmp/0032.out)" -eq 11
# What the active reference guarantees, in every timeline: the drain
# ends only after the writer left the knob, and the device goes after.
check "0032: every timeline: drain ends after the knob, device removed last" \
	awk '/^wait_after_active, / { t = ""; on = 1; next }
	     on && /^  \+/ { t = t $0; if ($0 ~ /device removed/) {
		on = 0; n++
		k = index(t, "leaves the knob"); d = index(t, "drain ends")
		r = index(t, "device removed")
		if (k && d && k < d && d < r) good++ } }
	     END { exit !(n == 11 && good == 11) }' /tmp/0032.out
# No reference yet: the longest sleep loses to the removal.
for id in 0029 0030 0031; do
	check "$id: -ENODEV at 1024 ms" \
		awk '$3 == 1024 { exit !($4 == "-ENODEV") }' /tmp/$id.rows
done
check "dmesg: no kernfs wait timed out" \
	sh -c '! dmesg | grep -q "no completion within"'
# Ctrl-C in the middle of a race: the knobs and the module as they were.
# The knob is armed for some tens of ms per delay (the module's exit
# completes the wait): a poll that forks and sleeps 50 ms missed every
# window once.  So read it with the shell's own read, no sleep, and send
# the signal the moment it is seen.
sysfs-observe --test 0032 -q >/tmp/int.out 2>&1 &
pid=$!
armed=0
end=$((SECONDS + 90))
while [ $SECONDS -lt $end ] && kill -0 $pid 2>/dev/null; do
	read -r v <$W/wait_after_active
	[ "$v" = Y ] && { armed=1; break; }
done
kill -INT $pid
check "Ctrl-C in 0032: caught it armed" test $armed -eq 1
wait $pid
rc=$?
check "Ctrl-C in 0032: the tool exits by itself, not 0 (rc $rc)" \
	test $rc -ne 0 -a $rc -ne 130 -a $rc -ne 137
check "Ctrl-C in 0032: knobs restored" restored
check "Ctrl-C in 0032: test_sysfs unloaded" \
	sh -c '! grep -q "^test_sysfs " /proc/modules'

finish
