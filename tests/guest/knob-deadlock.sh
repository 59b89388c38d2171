#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# Runs in the guest on the kernfs knob kernel: 0027's deadlock every
# time, not when the race happens to close.  A store to test_dev_x is
# held at wait_after_active (its active reference taken, the config
# mutex not yet) while rmmod takes the config mutex and drains
# test_dev_x; when the store wakes it waits for the mutex rmmod holds.
# sysfs-observe must report the DEADLOCK, with both tasks, what each
# holds and waits for, and their stacks, and an independent witness
# (/proc: a task in D state inside kernfs_drain) must agree.  With the
# fix the store's try_module_get fails: -ENODEV, GATED, nothing stuck.
. /mnt/files/lib.sh
. /mnt/files/knob-lib.sh
. /mnt/files/sysfs-lib.sh
. /mnt/files/observe-lib.sh
need_knobs "knob deadlock"
save_knobs
dev=/sys/devices/virtual/misc/test_sysfs0
params="enable_lock=1 enable_lock_on_rmmod=1 enable_verbose_writes=1"
# The cycle's two classes, named in the order the closing edge gives.
cfg='&test_dev->config_mutex' kn='kn:test_sysfs0/test_dev_x'
pair="($cfg <-> $kn|$kn <-> $cfg)"

# The driver: load, write once unhindered (the writer's half of the
# cycle: with the fix it holds a module reference), arm one wait after
# the active reference, write, and remove the module once the write is
# held there (times drops to 0).
held_store_driver /tmp/driver.sh "$params" "modprobe -r test_sysfs"

# --- fixed first: it must not wedge the guest --------------------------
rm -f /tmp/write.rc /tmp/held
timeout -k 5 120 sysfs-observe --attach -q -- \
	bash /tmp/driver.sh enable_try_module_get=1 >/tmp/fixed.out 2>&1
rc=$?
grep -E 'GATED|PRONE|DEADLOCK|^verdict' /tmp/fixed.out | sed 's/^/# /'
check "fixed: the store was held at the knob ($(cat /tmp/held 2>/dev/null))" \
	grep -q "^held after [0-9]* polls" /tmp/held
check "fixed: the store returned an error (-ENODEV): $(cat /tmp/write.rc 2>/dev/null)" \
	grep -q '^write rc 1$' /tmp/write.rc
check "fixed: exit 0 (rc $rc)" test $rc -eq 0
check "fixed: the cycle is GATED" grep -Eq "^GATED: $pair " /tmp/fixed.out
check "fixed: no DEADLOCK" sh -c "! grep -q '^DEADLOCK' /tmp/fixed.out"
check "fixed: the module is gone" test ! -e /sys/module/test_sysfs

# --- unfixed: the deadlock, every time ---------------------------------
rm -f /tmp/write.rc /tmp/held
t0=$(uptime_s)
timeout -k 5 120 sysfs-observe --attach -q -- \
	bash /tmp/driver.sh >/tmp/unfixed.out 2>&1
rc=$?
secs=$(sub_s "$t0" "$(uptime_s)")
grep -E 'GATED|PRONE|DEADLOCK|^verdict|holds|waits' /tmp/unfixed.out |
	head -n 20 | sed 's/^/# /'
check "unfixed: the store was held at the knob" \
	grep -q "^held after [0-9]* polls" /tmp/held
check "unfixed: exit 1 in bounded time (rc $rc, $secs s)" test $rc -eq 1
check "unfixed: DEADLOCK-PRONE config_mutex <-> test_dev_x" \
	grep -Eq "^DEADLOCK-PRONE: $pair " /tmp/unfixed.out
check "unfixed: DEADLOCK reported, two tasks" \
	grep -Eq '^DEADLOCK: .* \(2 tasks\)$' /tmp/unfixed.out
check "unfixed: what each holds and waits for" sh -c \
	"grep -q 'config_mutex' /tmp/unfixed.out &&
	 grep -q 'kn:test_sysfs0/test_dev_x' /tmp/unfixed.out"
check_deadlock_stacks "unfixed" /tmp/unfixed.out
# The witness the tool does not control: the kernel's own task states.
sleep 1
drain=0
for pid in $(d_state_pids); do
	grep -q kernfs_drain /proc/"$pid"/stack 2>/dev/null && drain=$pid
done
print_d_stacks
check "witness: a task in D state inside kernfs_drain ($drain)" \
	test "$drain" -gt 0
check "witness: the store is blocked on the mutex" sh -c \
	'for p in $(ls /proc | grep -E "^[0-9]+$"); do
		grep -q test_dev_x_store /proc/$p/stack 2>/dev/null && exit 0
	 done; exit 1'
finish
