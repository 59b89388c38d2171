#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# Runs in the guest: the runners must be able to fail.  test_sysfs's
# planted bug (inject_y_fault=1: y stores set x + value + 8) breaks what
# 0002 checks; `--test 0002` must say FAIL and exit 1, and so must the
# seed's sysfs.sh where it is.  The same test without the fault passes
# in the same boot: the failure is the fault's.
. /mnt/files/lib.sh

sysfs-observe --test 0002 -q >/tmp/ok.out 2>&1
rc=$?
grep '^TEST' /tmp/ok.out | sed 's/^/# /'
check "--test 0002 without the fault: PASS, exit 0 (rc $rc)" \
	sh -c "[ $rc -eq 0 ] && grep -q '^TEST 0002 PASS' /tmp/ok.out"

sysfs-observe --test 0002 -q --param inject_y_fault=1 >/tmp/bad.out 2>&1
rc=$?
grep -E '^(TEST|# sysfs_0002)' /tmp/bad.out | sed 's/^/# /'
check "--test 0002 with inject_y_fault=1: FAIL, exit 1 (rc $rc)" \
	sh -c "[ $rc -eq 1 ] && grep -q '^TEST 0002 FAIL' /tmp/bad.out"
check "the failure is the fault's: test_dev_y" \
	grep -q '^# sysfs_0002: .*test_dev_y' /tmp/bad.out

if have_seed; then
	echo "options test_sysfs inject_y_fault=1" \
		>/etc/modprobe.d/negative-control.conf
	bash "$SYSFS_SH" -t 0002 >/tmp/sh.out 2>&1
	rc=$?
	rm -f /etc/modprobe.d/negative-control.conf
	modprobe -r test_sysfs 2>/dev/null
	grep -m3 FAIL /tmp/sh.out | sed 's/^/# /'
	check "sysfs.sh -t 0002 with inject_y_fault=1 prints FAIL (rc $rc)" \
		grep -q FAIL /tmp/sh.out
else
	skip_seed "sysfs.sh -t 0002 with the fault prints FAIL" \
		"check the seed's sysfs.sh fails on the planted bug"
fi
finish
