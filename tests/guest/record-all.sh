#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# Runs in the guest: `record --test all` keeps every test (issue 14; it
# used to reopen the file for each one, so only the last was left).
# report must give a summary, with its verdict, per test that ran.
. /mnt/files/lib.sh

rm -f /tmp/all.data
timeout -k 5 600 sysfs-observe record -o /tmp/all.data -q --test all \
	--window 0.5 >/tmp/live.out 2>&1
rc=$?
ran=$(grep -cE '^TEST [0-9]{4} (PASS|FAIL)' /tmp/live.out)
check "record --test all: exit 0 (rc $rc)" test $rc -eq 0
check "record --test all: tests ran ($ran)" test "$ran" -ge 20
sysfs-observe report -i /tmp/all.data >/tmp/report.out 2>&1
rc=$?
n=$(grep -c '^verdict: ' /tmp/report.out)
check "report: exit 0 (rc $rc)" test $rc -eq 0
check "report: one summary per test that ran ($n of $ran)" \
	test "$n" -eq "$ran"
check "report: the first test and the last are there" \
	sh -c 'grep -q "^# test: 0001" /tmp/report.out &&
	       grep -q "^# test: 0028" /tmp/report.out'
sysfs-observe report -i /tmp/all.data --format json >/tmp/report.json
check "report --format json: an array of them" \
	test "$(head -c 1 /tmp/report.json)" = "["
finish
