#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# Runs in the guest on the stock Debian kernel (no kernfs knobs).  Why:
# there, 0029-0032 and --knob must SKIP (exit 4, KTAP "# SKIP") naming
# what is missing and how to get it, never fail, and the tool stays fully
# working: --list still lists them, the report header says why there are
# no knobs.
. /mnt/files/lib.sh

if [ -d /sys/kernel/debug/kernfs/config_fail_kernfs_fop_write_iter ]; then
	not_ok "this is a knob kernel ($(uname -r)): knob-skip wants the stock one"
	finish
fi
why='CONFIG_FAIL_KERNFS_KNOBS: /sys/kernel/debug/kernfs/config_fail_kernfs_fop_write_iter missing; build one with `make kernfs-kernel`'

# debugfs as it was: the guest mounts it at boot; unmounted here, the
# tool must mount it to find the knobs missing (the reason says it
# looked) and unmount it again, on this exit-4 path too.
umount /sys/kernel/debug
check "debugfs unmounted before the skips" sh -c '! grep -q " /sys/kernel/debug debugfs " /proc/mounts'
timeout -k 5 120 sysfs-observe --test 0029 -q >/tmp/dbg.out 2>&1
rc=$?
check "debugfs: the tool looked inside (rc $rc, the reason names the knob dir)" \
	grep -qF "$why" /tmp/dbg.out
check "debugfs: unmounted again after the skip" sh -c '! grep -q " /sys/kernel/debug debugfs " /proc/mounts'

check "--list shows 0029-0032" test "$(sysfs-observe --list |
	grep -c '^00\(29\|3[012]\) x 1 - block racing removal of store op with kernfs')" -eq 4
for id in 0029 0032; do
	timeout -k 5 120 sysfs-observe --test $id -q >/tmp/$id.out 2>&1
	rc=$?
	grep '^TEST' /tmp/$id.out
	check "--test $id exits 4, skip (rc $rc)" test $rc -eq 4
	check "--test $id: SKIP with the reason" \
		grep -qF "TEST $id SKIP" /tmp/$id.out
	check "--test $id: the reason names the missing config and the fix" \
		grep -qF "$why" /tmp/$id.out
done
timeout -k 5 120 sysfs-observe --test 0032 --format ktap >/tmp/k.out 2>/dev/null
rc=$?
cat /tmp/k.out | sed 's/^/# /'
check "KTAP: ok 1 sysfs_0032 with SKIP and the reason (rc $rc)" \
	grep -q '^ok 1 sysfs_0032 # SKIP kernel without CONFIG_FAIL_KERNFS_KNOBS' \
	/tmp/k.out
check "KTAP: skip:1 in the totals" grep -q 'pass:0 fail:0 .*skip:1' /tmp/k.out

timeout -k 5 120 sysfs-observe --attach -q --knob wait_at_start=Y -- true \
	>/tmp/a.out 2>&1
rc=$?
check "--attach --knob exits 4 (rc $rc)" test $rc -eq 4
check "--attach --knob: names the missing support" grep -qF "$why" /tmp/a.out

check "debugfs: still unmounted after every skip" sh -c '! grep -q " /sys/kernel/debug debugfs " /proc/mounts'
# As the guest has it, for the header's reason below.
mount -t debugfs debugfs /sys/kernel/debug
timeout -k 5 120 sysfs-observe --attach -q -- true >/tmp/n.out 2>&1
rc=$?
grep '^# kernfs knobs' /tmp/n.out
check "--attach without --knob still works (rc $rc)" test $rc -eq 0
check "the header: no knobs, and why" grep -qF \
	"# kernfs knobs: none (kernel without CONFIG_FAIL_KERNFS_KNOBS" /tmp/n.out
finish
