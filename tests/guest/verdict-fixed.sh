#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# Runs in the guest: the deadlock scenarios 0027 (config mutex) and 0028
# (rtnl) with the module's fix on (enable_try_module_get=1), driven by
# the tool's runner and, where the seed is, by sysfs.sh under --attach.
# The cycle is still in the order graph, but a module reference gates
# it: sysfs-observe must call it GATED and exit 0.
. /mnt/files/lib.sh
. /mnt/files/observe-lib.sh

for id in 0027 0028; do
	for driver in test seed; do
		name="$id fixed ($driver)"
		if [ $driver = seed ] && ! have_seed; then
			skip_seed "$name" "judge sysfs.sh -t $id under --attach"
			continue
		fi
		observe_test $id 1 $driver
		check "$name: exit 0 (rc $obs_rc, $obs_secs s)" \
			test $obs_rc -eq 0
		check "$name: the kn <-> lock cycle is GATED" grep -Eq \
			'^GATED: .*kn:test_sysfs0/test_dev_x' "$obs_out"
		check "$name: nothing DEADLOCK-PRONE" \
			grep -q '^verdict: PASS: 0 DEADLOCK-PRONE' "$obs_out"
		check "$name: the gate is named" \
			grep -q 'try_module_get reference on test_sysfs' "$obs_out"
	done
done
finish
