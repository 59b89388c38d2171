#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# Runs in the guest: --svg on a live run, 0028 fixed (GATED) and then
# unfixed (DEADLOCK-PRONE and the observed deadlock; last in this boot,
# it wedges the module).  The pictures go to /mnt/out, where
# tests/host/svg.sh parses them with xmllint and renders them with
# Chromium.  Here: the runs found what the pictures must show.
. /mnt/files/lib.sh
out=/mnt/out

sysfs-observe --test 0028 --fixed -q --svg $out/0028-fixed.svg \
	>/tmp/fixed.out 2>&1
rc=$?
check "0028 fixed: exit 0 (rc $rc)" test $rc -eq 0
check "0028 fixed: GATED" grep -q '^GATED: ' /tmp/fixed.out
check "0028 fixed: the picture is written, mode 0600" \
	test "$(stat -c %a $out/0028-fixed.svg 2>/dev/null)" = 600

timeout -k 5 120 sysfs-observe --test 0028 -q --svg $out/0028.svg \
	>/tmp/unfixed.out 2>&1
rc=$?
check "0028 unfixed: exit 1 (rc $rc)" test $rc -eq 1
check "0028 unfixed: DEADLOCK-PRONE" grep -q '^DEADLOCK-PRONE: ' /tmp/unfixed.out
check "0028 unfixed: the deadlock observed" grep -q '^DEADLOCK: ' /tmp/unfixed.out
check "0028 unfixed: the picture is written" test -s $out/0028.svg
finish
