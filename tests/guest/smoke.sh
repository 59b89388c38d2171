#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# Guest smoke test of the foundation: the module loads and unloads, its
# misc device appears, and the BPF counter attaches and counts one write.
. /mnt/files/lib.sh
dev=/sys/devices/virtual/misc/test_sysfs0

check "modprobe test_sysfs" modprobe test_sysfs
check "misc device $dev appears" test -d $dev
out=$(sysfs-observe --attach -q -- sh -c "echo 5 > $dev/test_dev_x" 2>&1)
echo "$out" | sed 's/^/# /'
# The summary's writes table: one write of 2 bytes to the attribute.
check "the observer counts exactly one write to test_dev_x" \
	grep -Eq '^ +1 +2 +0 .* kn:test_sysfs0/test_dev_x$' <<<"$out"
check "no events lost" grep -q '^# lost events: 0' <<<"$out"
check "rmmod test_sysfs" modprobe -r test_sysfs
check "module gone" test ! -e /sys/module/test_sysfs
finish
