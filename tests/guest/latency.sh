#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# Runs in the guest (not part of make check; see tests/latency.sh on the
# host): one unfixed 0027 under the observer, printing how long after the
# closing edge (rmmod entering kernfs_drain under the config mutex) the
# DEADLOCK-PRONE verdict was printed.
rm -f /etc/modprobe.d/observe-fixed.conf
timeout -k 5 120 sysfs-observe --test 0027 >/tmp/lat.txt 2>&1
grep -m1 'DEADLOCK-PRONE.*ms after the edge' /tmp/lat.txt |
	sed -n 's/.*, \([0-9.]*\) ms after the edge.*/latency_ms \1/p'
