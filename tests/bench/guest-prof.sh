#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# Runs in the guest (make bench-prof): what each BPF program costs per
# run, from the kernel's own accounting (kernel.bpf_stats_enabled), under
# a pwrite loop on test_dev_x (enable_lock=1) observed by `--attach -q`.
# Figures only; the ns include the accounting's two clock reads.
secs=${BENCH_SECS:-3}
attr=/sys/devices/virtual/misc/test_sysfs0/test_dev_x
modprobe test_sysfs enable_lock=1 || exit 1
sysctl -q kernel.bpf_stats_enabled=1
sysfs-observe --attach -q ${PROF_ARGS:-} >/tmp/o.out 2>/tmp/o.err &
pid=$!
for i in $(seq 600); do
	grep -q observing /tmp/o.err && break
	kill -0 $pid 2>/dev/null || { cat /tmp/o.err; exit 1; }
	sleep 0.2
done
echo "# clocksource: $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
so-bench-writer $attr 1 "$secs" | sed 's/^/# /'
bpftool prog show --json >/tmp/progs.json
kill -INT $pid
wait $pid
printf '%-34s %10s %10s %9s\n' program runs ns/run total_s
tr '{' '\n' </tmp/progs.json |
	sed -n 's/.*"name":"\([^"]*\)".*"run_time_ns":\([0-9]*\),"run_cnt":\([0-9]*\).*/\1 \2 \3/p' |
	awk '$3 > 0 { printf "%-34s %10d %10.0f %9.3f\n", $1, $3, $2 / $3, $2 / 1e9 }' |
	sort -k4 -n -r
modprobe -r test_sysfs
