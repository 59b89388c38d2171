#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# Runs in the guest: the seed's deadlock scenarios 0027 (config mutex) and
# 0028 (rtnl) with the module's fix on (enable_try_module_get=1).  The
# cycle is still in the order graph, but a module reference gates it:
# sysfs-observe must call it GATED and exit 0.
. /mnt/files/lib.sh
. /mnt/files/observe-lib.sh

for id in 0027 0028; do
	observe_test $id 1
	check "$id fixed: exit 0 (rc $obs_rc, $obs_secs s)" test $obs_rc -eq 0
	check "$id fixed: the kn <-> lock cycle is GATED" grep -Eq \
		'^GATED: .*kn:test_sysfs0/test_dev_x' "$obs_out"
	check "$id fixed: nothing DEADLOCK-PRONE" \
		grep -q '^verdict: PASS: 0 DEADLOCK-PRONE' "$obs_out"
	check "$id fixed: the gate is named" \
		grep -q 'try_module_get reference on test_sysfs' "$obs_out"
done
finish
