#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# Runs in the guest: writes/s to test_dev_x with 1 and 2 writer threads,
# bare, under `--attach -q`, with the live stream to /dev/null, and
# recording; prints a table of rates, ratios to bare, and losses.
# Figures under TCG are for ratios, not absolutes.
secs=${BENCH_SECS:-4}
attr=/sys/devices/virtual/misc/test_sysfs0/test_dev_x
modprobe test_sysfs || exit 1

rate() { so-bench-writer "$attr" "$1" "$secs" | awk '{print $8}'; }

# observe MODE THREADS: start the observer, measure, stop it; prints
# "rate losses".
observe() {
	local mode=$1 n=$2 pid r
	rm -f /tmp/obs.out /tmp/obs.summary
	case $mode in
	quiet)  sysfs-observe --attach -q >/tmp/obs.summary 2>&1 & ;;
	# The stream goes to a tmpfs file, not /dev/null, to keep the
	# summary that follows it: the cost of formatting is what counts.
	stream) sysfs-observe --attach >/tmp/obs.out 2>&1 & ;;
	record) sysfs-observe record -o /tmp/bench.trace -q --attach \
			>/tmp/obs.summary 2>&1 & ;;
	esac
	pid=$!
	# Loading and attaching take seconds under TCG; the quiet modes
	# print nothing until the end, so give every mode the same wait.
	sleep 6
	r=$(rate "$n")
	kill -INT $pid
	wait $pid
	[ $mode = stream ] && sed -n '/^# sysfs-observe/,$p' /tmp/obs.out \
		>/tmp/obs.summary
	echo "$r $(awk '/^# lost events:/{print $4}' /tmp/obs.summary)"
}

printf '%-8s %7s %12s %8s %8s\n' mode threads writes/s ratio lost
for n in 1 2; do
	bare=$(rate "$n")
	printf '%-8s %7s %12s %8s %8s\n' bare "$n" "$bare" 1.00 -
	for mode in quiet stream record; do
		set -- $(observe $mode "$n")
		printf '%-8s %7s %12s %8s %8s\n' "$mode" "$n" "$1" \
			"$(awk -v a="$1" -v b="$bare" 'BEGIN{printf "%.2f", a/b}')" \
			"${2:--}"
	done
done
modprobe -r test_sysfs
