#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# Runs in the guest, for tests/guest/deadlock-demo.sh: one unfixed run of
# the seed's deadlock test ($1: 0027 or 0028).  Why: the deadlock has to
# be shown, not assumed, and sysfs.sh hides it (it prints "ok" and
# returns while rmmod and the writer stay blocked).  So this watches for
# a task stuck in kernfs_drain() (prints @@deadlock-onset S@@ and the
# stacks), lets the hung task detector speak after 5 s, and then waits
# for the module to go away, with no time limit: a deadlocked run never
# gets there, and the host harness kills the guest at its timeout.
# Not part of `make check`.
. /mnt/files/lib.sh
. /mnt/files/sysfs-lib.sh
need_seed "run sysfs.sh -t $1 without the fix and show the deadlock"

id=${1:?usage: deadlock-unfixed.sh 0027|0028}
rm -f /etc/modprobe.d/test_sysfs.conf
echo 5 >/proc/sys/kernel/hung_task_timeout_secs

mark="deadlock-unfixed.sh $id $$"
echo "$mark" >/dev/kmsg
t0=$(uptime_s)
watch_drain "$t0" 2 &
watch_pid=$!
bash "$SYSFS_SH" -t "$id" 2>&1 | sed 's/^/# /'
echo "@@sysfs.sh-done $(sub_s "$t0" "$(uptime_s)")@@"

# Either the module goes (no deadlock) or the watcher finds one.
while [ -e /sys/module/test_sysfs ] && kill -0 "$watch_pid" 2>/dev/null; do
	modprobe -q -r test_sysfs 2>/dev/null
	sleep 0.5
done
if ! kill -0 "$watch_pid" 2>/dev/null; then
	# In kernel time: from the writer's first store to the unload that
	# deadlocked (its "removing interface" comes just before the drain),
	# and how many unloads went through before it.
	dmesg_since "$mark" | awk '
		{ t = $0; sub(/^\[ */, "", t); sub(/\].*/, "", t) }
		/wrote x = / && !first { first = t }
		/removing interface/ { last = t; if (first) n++ }
		END { if (first && last)
			printf "@@race-to-deadlock %.2f s, %d unloads@@\n",
			       last - first, n - 1 }'
	# 0028 loads its first instance without use_rtnl_lock (sysfs.sh
	# calls modprobe_reset_enable_lock_on_rmmod): say which lock it was.
	if grep -qx Y /sys/module/test_sysfs/parameters/use_rtnl_lock; then
		echo "@@deadlock-lock rtnl@@"
	else
		echo "@@deadlock-lock mutex@@"
	fi
	wait_module_gone 0
fi
kill "$watch_pid" 2>/dev/null
echo "@@no-deadlock $(sub_s "$t0" "$(uptime_s)")@@"
