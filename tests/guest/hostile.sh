#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# Runs in the guest: what an unprivileged process or a planted file can
# do to the tool (issue 14).  A task that names itself with a terminal
# escape sequence writes to an observed attribute: the live stream must
# show the name escaped, never the raw byte.  A trace file is created
# 0600, and a symlink at the output path is refused (exit 2) with its
# target untouched.  A table size the kernel cannot allocate is the
# user's input too (exit 2), not the tool's error.
. /mnt/files/lib.sh

modprobe test_sysfs
attr=/sys/devices/virtual/misc/test_sysfs0/test_dev_x
esc=$(printf '\033')

# The writer renames itself (as PR_SET_NAME does; 15 bytes at most),
# then writes, itself: printf and echo are the shell's builtins (an exec
# would take the new program's name back, and only the rename's own
# locking, which the stream now leaves out, would carry the name).
timeout -k 5 120 sysfs-observe --attach -- sh -c "
	printf '${esc}[31mevil' >/proc/self/comm
	echo 7 >$attr; echo 8 >$attr" >/tmp/esc.out 2>&1
rc=$?
grep -a 'evil' /tmp/esc.out | head -3 | sed 's/^/# /'
check "escaped name: the observer exits 0 (rc $rc)" test $rc -eq 0
check "escaped name: the writer's writes are in the stream" \
	grep -aEq 'evil/[0-9]+ +write ' /tmp/esc.out
check "escaped name: shown as \\x1b[31mevil" \
	grep -aqF '\x1b[31mevil' /tmp/esc.out
check "escaped name: no raw escape byte in the output" \
	sh -c "! grep -aq '$esc' /tmp/esc.out"

# record: the trace file's mode, and a symlink planted at the path.
rm -f /tmp/t.data
timeout -k 5 120 sysfs-observe record -o /tmp/t.data -q --attach -- \
	sh -c "echo 1 >$attr" >/dev/null 2>&1
rc=$?
mode=$(stat -c %a /tmp/t.data 2>/dev/null)
check "record: exit 0 (rc $rc)" test $rc -eq 0
check "record: the trace file is mode 0600 (${mode:-missing})" \
	test "$mode" = 600
echo precious >/tmp/victim
ln -sf /tmp/victim /tmp/link.data
timeout -k 5 120 sysfs-observe record -o /tmp/link.data -q --attach -- \
	true >/tmp/link.out 2>&1
rc=$?
sed 's/^/# /' /tmp/link.out | grep -i symlink
check "record to a symlink: exit 2 (rc $rc)" test $rc -eq 2
check "record to a symlink: the message says why" \
	grep -q 'symlink' /tmp/link.out
check "record to a symlink: its target untouched" \
	test "$(cat /tmp/victim)" = precious

# Sizes within the options' bounds that this machine cannot allocate:
# a 1 GiB ring buffer in a 1 GiB guest.  The load is tried (the message
# is the loader's, after the kernel refused), and it is the user's input.
timeout -k 5 120 sysfs-observe --attach --ringbuf-kib 1048576 -- true \
	>/tmp/big.out 2>&1
rc=$?
sed 's/^/# /' /tmp/big.out | head -4
check "a ring buffer too big for memory: exit 2 (rc $rc)" test $rc -eq 2
check "a ring buffer too big for memory: the kernel refused the load" \
	grep -q 'failed to load the BPF programs' /tmp/big.out
check "a ring buffer too big for memory: the message names the option" \
	grep -q 'give smaller ones' /tmp/big.out
modprobe -r test_sysfs
finish
