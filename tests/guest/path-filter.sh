#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# Runs in the guest: --path keeps what it names and drops the rest.  The
# same command writes test_dev_x and test_dev_y and a module parameter
# (sysfs too, under /sys/module); without --path all three are seen (the
# situation arises), with --path only what it names.
. /mnt/files/lib.sh

modprobe test_sysfs
dev=/sys/devices/virtual/misc/test_sysfs0
cmd="echo 1 >$dev/test_dev_x; echo 2 >$dev/test_dev_y;
     echo Y >/sys/module/test_sysfs/parameters/enable_lock"

run() {	# run OUT [--path P]: the stream of one observed command
	local out=$1
	shift
	timeout -k 5 120 sysfs-observe --attach "$@" -- sh -c "$cmd" \
		>"$out" 2>&1
}

seen() { grep -aq "write .*$2" "$1"; }

run /tmp/all.out
rc=$?
check "no --path: exit 0 (rc $rc)" test $rc -eq 0
check "no --path: test_dev_x seen" seen /tmp/all.out test_sysfs0/test_dev_x
check "no --path: test_dev_y seen" seen /tmp/all.out test_sysfs0/test_dev_y
check "no --path: the module parameter seen" \
	seen /tmp/all.out parameters/enable_lock

run /tmp/dir.out --path $dev
rc=$?
check "--path DIR: exit 0 (rc $rc)" test $rc -eq 0
check "--path DIR: test_dev_x and test_dev_y seen" sh -c \
	"grep -aq 'write .*test_sysfs0/test_dev_x' /tmp/dir.out &&
	 grep -aq 'write .*test_sysfs0/test_dev_y' /tmp/dir.out"
check "--path DIR: the module parameter not" \
	sh -c "! grep -aq 'write .*parameters/enable_lock' /tmp/dir.out"

run /tmp/attr.out --path test_sysfs0/test_dev_y
rc=$?
check "--path dir/attr: exit 0 (rc $rc)" test $rc -eq 0
check "--path dir/attr: test_dev_y seen" \
	seen /tmp/attr.out test_sysfs0/test_dev_y
check "--path dir/attr: test_dev_x not" \
	sh -c "! grep -aq 'write .*test_sysfs0/test_dev_x' /tmp/attr.out"
modprobe -r test_sysfs
finish
