#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# Runs in the guest: the seed's deadlock tests 0027 (config mutex) and
# 0028 (rtnl) with seed 007's fix switched on at load time
# (`options test_sysfs enable_try_module_get=1` in modprobe.d).  Why:
# the fix is a module parameter so one build shows both behaviours; this
# proves the "fixed" half.  sysfs.sh alone is no proof (it prints "ok"
# for the deadlocked, unfixed module too), so each test must also leave
# no task stuck in kernfs_drain(), let the module unload, and leave dmesg
# clean (hung task reports included, after 5 s instead of 120).
. /mnt/files/lib.sh
. /mnt/files/sysfs-lib.sh
need_seed "run sysfs.sh -t 0027/0028 with the fix and check they unload"

echo "options test_sysfs enable_try_module_get=1" \
	>/etc/modprobe.d/test_sysfs.conf
echo 5 >/proc/sys/kernel/hung_task_timeout_secs

modprobe test_sysfs
check "modprobe.d sets enable_try_module_get=Y" \
	grep -qx Y /sys/module/test_sysfs/parameters/enable_try_module_get
modprobe -r test_sysfs

watch=$(mktemp)
for id in 0027 0028; do
	mark="deadlock-fixed.sh $id $$"
	echo "$mark" >/dev/kmsg
	t0=$(uptime_s)
	watch_drain "$t0" 2 >"$watch" &
	watch_pid=$!

	out=$(bash "$SYSFS_SH" -t "$id" 2>&1)
	rc=$?
	sed 's/^/# /' <<<"$out"
	check "$id: sysfs.sh -t $id exits 0" test "$rc" -eq 0
	check "$id: sysfs.sh prints ok" grep -q '\.\.\. ok$' <<<"$out"
	check "$id: the module unloads within 30 s" wait_module_gone 30
	sleep 2.5 # one more full watch period
	kill "$watch_pid" 2>/dev/null
	wait "$watch_pid" 2>/dev/null
	cat "$watch"
	check "$id: no task stuck in kernfs_drain()" \
		test ! -s "$watch"

	# That the race was run: module loads, unloads and stores seen.
	# Without them the checks above would pass for a run that did
	# nothing (sysfs.sh prints "ok" whenever its kill timer ends).
	log=$(dmesg_since "$mark") ||
		echo "# dmesg no longer holds '$mark'"
	loads=$(grep -c 'interface ready' <<<"$log")
	unloads=$(grep -c 'removing interface' <<<"$log")
	stores=$(grep -c 'wrote x' <<<"$log")
	ran="$loads loads, $unloads unloads, $stores stores of x"
	check "$id: the race ran in $(sub_s "$t0" "$(uptime_s)") s ($ran)" \
		test "$loads" -gt 0 -a "$unloads" -gt 0 -a "$stores" -gt 0
	splats=$(dmesg_splats "$mark")
	[ -z "$splats" ] || sed 's/^/# /' <<<"$splats"
	check "$id: no kernel splat in dmesg" test -z "$splats"
done
finish
