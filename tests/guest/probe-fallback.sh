#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# Runs in the guest: an fentry that loads but cannot attach falls back to
# its kprobe pair instead of going MISSING.  SYSFS_OBSERVE_FAIL_FENTRY
# makes the attach fail as on a kernel without BPF trampolines; the
# verdict must not change, and --probes must say which rows fell back.
. /mnt/files/lib.sh
nlinks() { bpftool link show 2>/dev/null | grep -c '^[0-9]*: '; }
forced=kernfs_get_active,del_gendisk

# The control: without the variable every row keeps fentry.
sysfs-observe --probes >/tmp/plain.out 2>&1
check "control: --probes exits 0" test $? -eq 0
check "control: kernfs_get_active and del_gendisk by fentry, no fallback" \
	sh -c "grep -Eq '^kernfs_get_active +fentry' /tmp/plain.out &&
	       grep -Eq '^del_gendisk +fentry' /tmp/plain.out &&
	       ! grep -q 'fentry failed' /tmp/plain.out"

SYSFS_OBSERVE_FAIL_FENTRY=$forced sysfs-observe --probes >/tmp/fb.out 2>&1
rc=$?
grep -E 'fentry failed' /tmp/fb.out | sed 's/^/# /'
check "forced: --probes exits 0 (rc $rc)" test $rc -eq 0
check "forced: the fallback is said, with its reason" grep -q \
	'fentry failed to attach to 2 functions (.*): loading again with kprobes' \
	/tmp/fb.out
check "forced: kernfs_get_active by kprobe, marked as a fallback" \
	grep -Eq '^kernfs_get_active +kprobe .*\(fentry failed to attach\)' /tmp/fb.out
check "forced: del_gendisk by kprobe, marked as a fallback" \
	grep -Eq '^del_gendisk +kprobe .*\(fentry failed to attach\)' /tmp/fb.out
check "forced: the other rows keep fentry (kernfs_fop_write_iter)" \
	grep -Eq '^kernfs_fop_write_iter +fentry' /tmp/fb.out

# The verdict through the kprobes: 0028 with the fix is still GATED,
# which needs kernfs_get_active's active references and del_gendisk.
SYSFS_OBSERVE_FAIL_FENTRY=$forced sysfs-observe --test 0028 --fixed -q \
	>/tmp/t.out 2>&1
rc=$?
grep -E 'fentry failed|^# probes kprobe|^verdict' /tmp/t.out | sed 's/^/# /'
check "forced 0028 --fixed: exit 0 (rc $rc)" test $rc -eq 0
check "forced 0028 --fixed: the header lists both under kprobe" \
	sh -c "grep '^# probes kprobe:' /tmp/t.out | grep -q kernfs_get_active &&
	       grep '^# probes kprobe:' /tmp/t.out | grep -q del_gendisk"
check "forced 0028 --fixed: the same verdict, 2 GATED" \
	grep -q '^verdict: PASS: 0 DEADLOCK-PRONE, 2 GATED cycles' /tmp/t.out
check "forced: no BPF link left ($(nlinks))" test "$(nlinks)" -eq 0
finish
