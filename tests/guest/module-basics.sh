#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# Runs in the guest: the parts of test_sysfs.ko's contract that sysfs.sh
# does not check.  Why: sysfs.sh never writes a bad value, never loads a
# bad devtype, never reads the debugfs counter and cannot tell whether
# enable_try_module_get does anything; scenarios and sysfs-observe rely
# on all of these.  The gate check is deterministic: delay_rmmod_ms keeps
# the module GOING (rmmod begun, device still there) for a few seconds,
# during which a store must fail with ENODEV with the fix, and must not
# without it.
. /mnt/files/lib.sh

misc=/sys/devices/virtual/misc/test_sysfs0
block=/sys/devices/virtual/block/test_sysfs0
dbg=/sys/kernel/debug/test_sysfs/reset_first_test_dev

# write_err FILE VALUE: bash's message for the write, empty on success.
write_err() { { echo -n "$2" >"$1"; } 2>&1 | sed 's/.*write error: //'; }
# read_err FILE: cat's error, empty on success.
read_err() { cat "$1" 2>&1 >/dev/null | sed 's/.*: //'; }
gone() { test ! -e /sys/module/test_sysfs; }

rm -f /etc/modprobe.d/test_sysfs.conf

# A bad devtype fails the load, says what is valid, leaves nothing.
out=$(modprobe test_sysfs devtype=2 2>&1)
rc=$?
check "devtype=2: the load fails" test $rc -ne 0
check "devtype=2: the module is not left loaded" gone
check "devtype=2: dmesg names the valid values" \
	grep -q 'invalid devtype 2: valid values are 0 (misc) and 1 (block)' \
	<<<"$(dmesg)"

check "misc: load" modprobe test_sysfs enable_debugfs=1
check "misc: $misc exists" test -d $misc
check "enable_try_module_get defaults to N" \
	grep -qx N /sys/module/test_sysfs/parameters/enable_try_module_get
check "enable_try_module_get is read-only (0444)" \
	test "$(stat -c %a /sys/module/test_sysfs/parameters/enable_try_module_get)" = 444
expected=$(printf '%s\n' "Configuration for: test_sysfs0" "x:	3" "y:	4" \
	"enable_lock:	false" "enable_lock_on_rmmmod:	false" \
	"use_rtnl_lock:	false" "write_delay_msec_y:	500" \
	"enable_busy_alloc:	false" "enable_debugfs:	true" \
	"enable_verbose_writes:	false")
check "config reads as the seed's" test "$(cat $misc/config)" = "$expected"

echo 0 >$misc/config_write_delay_msec_y
echo 10 >$misc/test_dev_x
echo 5 >$misc/test_dev_y
check "y = x + value + 7" test "$(cat $misc/test_dev_y)" = 22
for attr in test_dev_x test_dev_y config_enable_lock \
		config_enable_lock_on_rmmod config_use_rtnl_lock \
		config_write_delay_msec_y config_enable_busy_alloc; do
	for bad in abc 99999999999 1x; do
		before=$(cat $misc/$attr)
		err=$(write_err $misc/$attr "$bad")
		check "$attr: '$bad' is EINVAL and changes nothing" \
			test "$err" = "Invalid argument" -a \
			"$(cat $misc/$attr)" = "$before"
	done
done

check "debugfs: no reset yet" test "$(cat $dbg)" = 0
check "debugfs: a reset" test -z "$(write_err $dbg 1)"
check "debugfs: one reset counted" test "$(cat $dbg)" = 1
check "debugfs: the reset device has x = 3 again" \
	test "$(cat $misc/test_dev_x)" = 3
check "misc: unload" modprobe -r test_sysfs
check "misc: gone" gone

check "block: load" modprobe test_sysfs devtype=1
check "block: $block exists" test -d $block
check "block: zero sectors" test "$(cat $block/size)" = 0
check "block: its node refuses to open" \
	test "$(read_err /dev/test_sysfs0)" = "Invalid argument"
check "block: unload" modprobe -r test_sysfs

# gate_test FIX: a store while the module is GOING.
gate_test() {
	local fix=$1 err state
	modprobe test_sysfs devtype=1 delay_rmmod_ms=4000 \
		enable_try_module_get="$fix"
	modprobe -r test_sysfs &
	for _ in $(seq 20); do
		state=$(cat /sys/module/test_sysfs/initstate 2>/dev/null)
		[ "$state" = going ] && break
		sleep 0.1
	done
	err=$(write_err $block/test_dev_x 9)
	echo "# enable_try_module_get=$fix: module $state, store: ${err:-ok}"
	wait
	if [ "$fix" = 1 ]; then
		check "fix on: a store while rmmod runs is ENODEV" \
			test "$state" = going -a "$err" = "No such device"
	else
		check "fix off: a store while rmmod runs succeeds" \
			test "$state" = going -a -z "$err"
	fi
	check "enable_try_module_get=$fix: the module unloads" gone
}
gate_test 1
gate_test 0
finish
