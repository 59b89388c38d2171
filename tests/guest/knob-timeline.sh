#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# Runs in the guest on the kernfs knob kernel (kernfs/): a write to
# test_dev_x held at wait_after_active while rmmod completes the knob's
# completion and removes the disk.  The live stream must show the knob
# events, the summary the write's timeline named by its wait point and
# delay, with the write's end, in order; `report` of the recording must
# show the same.  On any other kernel it SKIPs.  The knobs are armed by
# hand here, not through sysfs-observe, so this checks the observatory
# alone.
. /mnt/files/lib.sh

D=/sys/kernel/debug/kernfs
W=$D/config_fail_kernfs_fop_write_iter
F=$D/fail_kernfs_fop_write_iter
X=/sys/devices/virtual/block/test_sysfs0/test_dev_x

grep -q ' /sys/kernel/debug debugfs ' /proc/mounts ||
	mount -t debugfs none /sys/kernel/debug 2>/dev/null
if [ ! -e $W/wait_after_active ]; then
	echo "ok - knob timeline # SKIP no kernfs knobs in $(uname -r)"
	echo "# SKIP no kernfs knobs in $(uname -r)"
	exit 4
fi

disarm() {
	for p in wait_at_start wait_before_mutex wait_after_mutex \
		 wait_after_active; do
		echo N >$W/$p
	done
	echo 0 >$F/probability
	echo 100 >$D/sleep_after_wait_ms
}
disarm
rm -f /etc/modprobe.d/test_sysfs.conf

# before A B: step A comes before step B in /tmp/steps.txt.
before() {
	local a b
	a=$(grep -nx -m1 "$1" /tmp/steps.txt | cut -d: -f1)
	b=$(grep -nx -m1 "$2" /tmp/steps.txt | cut -d: -f1)
	[ -n "$a" ] && [ -n "$b" ] && [ "$a" -lt "$b" ]
}

# knob_case SLEEP_MS: one write held at wait_after_active against rmmod.
knob_case() {
	local ms=$1 live=/tmp/live-$1.txt data=/tmp/knob-$1.data rc
	local head="wait_after_active, sleep_after_wait_ms=$1"

	check "$ms ms: load test_sysfs (block, completion on rmmod)" \
		modprobe test_sysfs devtype=1 enable_completion_on_rmmod=1
	echo 1 >$F/interval
	echo 100 >$F/probability
	echo 1 >$F/times
	echo "$ms" >$D/sleep_after_wait_ms
	# The wait point is enabled by the observed command itself, just
	# before its write: the fault fires once (times 1), on the next
	# kernfs write.  The writer waits at the knob until rmmod
	# completes it (or 3 s).
	sysfs-observe record -o $data --attach -- sh -c "
		echo Y >$W/wait_after_active
		echo 5 >$X &
		sleep 0.5
		rmmod test_sysfs
		wait" >$live 2>&1
	rc=$?
	disarm
	check "$ms ms: observer exit status 0 ($rc)" test $rc -eq 0
	check "$ms ms: test_sysfs removed" test ! -e /sys/module/test_sysfs
	sed -n '/^# write timelines/,/^$/p' $live | sed 's/^/# /'

	check "$ms ms: stream: knob_wait at wait_after_active, sleep $ms ms" \
		grep -Eq "knob_wait +kn:test_sysfs0/test_dev_x at wait_after_active, sleep $ms ms" \
		$live
	check "$ms ms: stream: the completion by rmmod" \
		grep -Eq 'rmmod/[0-9]+ +complete +kernfs_debug_wait_completion' \
		$live
	check "$ms ms: stream: knob_wake, completed" \
		grep -Eq 'knob_wake +kn:test_sysfs0/test_dev_x after .*, completed' \
		$live
	check "$ms ms: summary: one write waited at a knob" \
		grep -q '^# write timelines: 1 write waited at a kernfs knob$' \
		$live
	check "$ms ms: summary: the timeline names the wait point and delay" \
		grep -Eq "^$head: kn:test_sysfs0/test_dev_x by " $live

	# The steps, one a line, in the order the block prints them.
	sed -n "/^$head:/,/^[^ ]/p" $live | sed -n '2,$p' | grep '^ ' |
		tr ',' '\n' | sed 's/^ *//; s/^+[0-9.]*\( ms\)\? //' |
		grep . >/tmp/steps.txt
	check "$ms ms: the write ended (ret 2)" \
		grep -qx 'write done (ret 2)' /tmp/steps.txt
	check "$ms ms: active ref taken before the knob wait" \
		before 'active ref taken' 'waiting at the knob'
	check "$ms ms: completion, then the writer leaves the knob" \
		before 'completion' 'leaves the knob'
	check "$ms ms: the write is done before its device is removed" \
		before 'write done (ret 2)' 'device removed'

	sysfs-observe report -i $data >/tmp/report.txt 2>&1
	check "$ms ms: report exit status 0" test $? -eq 0
	sed -n '/^# write timelines/,/^$/p' $live >/tmp/live-tl.txt
	sed -n '/^# write timelines/,/^$/p' /tmp/report.txt >/tmp/report-tl.txt
	check "$ms ms: report of the recording shows the same timeline" \
		cmp -s /tmp/live-tl.txt /tmp/report-tl.txt
	sysfs-observe report -i $data --format json >/tmp/report.json 2>&1
	check "$ms ms: json: the wait point" \
		grep -q '"wait_point": "wait_after_active"' /tmp/report.json
	check "$ms ms: json: the delay" \
		grep -q "\"sleep_after_wait_ms\": $ms" /tmp/report.json
}

# 16 ms: the writer is done before rmmod gets to the drain.
knob_case 16
# 500 ms: the removal drains while the writer sleeps with its active
# reference; the drain has to wait for the write.
knob_case 500
check "500 ms: the drain begins while the write holds its ref" \
	before 'drain begins' 'write done (ret 2)'
# The drain ends when the writer drops its active reference, which is
# before kernfs_fop_write_iter() returns: "write done" (its fexit) may
# come a little after "drain ends".  Leaving the knob (the sleep is over,
# the reference still held) is what the drain must wait for.
check "500 ms: the drain ends after the writer left the knob" \
	before 'leaves the knob' 'drain ends'
check "dmesg: the writer received the completion" \
	grep -q 'kernfs_debug_wait received completion' <<<"$(dmesg)"
finish
