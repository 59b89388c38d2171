#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# Runs in the guest: `sysfs-observe --attach | head -1` ends when head
# does (issue 14).  SIGPIPE is ignored so that teardown can restore what
# the session changed; a failed write to stdout must end the session
# instead, with its BPF links gone.  The situation arises: the stream
# has lines to write (writes to test_dev_x keep coming) after head left.
. /mnt/files/lib.sh

nlinks() { bpftool link show 2>/dev/null | grep -c '^[0-9]*: '; }
modprobe test_sysfs
attr=/sys/devices/virtual/misc/test_sysfs0/test_dev_x
( while [ -e $attr ]; do echo 1 >$attr; sleep 0.01; done ) 2>/dev/null &
writer=$!

t0=$(date +%s.%N)
timeout -k 5 120 sysfs-observe --attach 2>/tmp/pipe.err | head -1 >/tmp/first
rcs=("${PIPESTATUS[@]}")
secs=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
kill $writer 2>/dev/null
wait $writer 2>/dev/null
echo "# first line: $(cat /tmp/first)"
sed 's/^/# stderr: /' /tmp/pipe.err
check "head got the stream's first line" test -s /tmp/first
check "the observer was attached (it said so)" \
	grep -q 'observing' /tmp/pipe.err
check "the observer ended by itself, not by timeout (rc ${rcs[0]}, $secs s)" \
	test "${rcs[0]}" -ne 124 -a "${rcs[0]}" -ne 137
check "no sysfs-observe process left" sh -c '! pgrep -x sysfs-observe'
check "no BPF link left ($(nlinks))" test "$(nlinks)" -eq 0
modprobe -r test_sysfs
finish
