#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# Runs in the guest: with --format json, stdout is the JSON document and
# nothing else, so `> out.json` is valid whatever the run finds.  Live
# findings, the live stream and the result lines go to stderr.  The
# documents are parsed on the host (tests/host/json-stdout.sh); here, the
# situations that used to spill onto stdout must arise: a live finding
# line (both runs) and the live stream (the run without -q).
. /mnt/files/lib.sh
out=/mnt/out

# GATED, with the live stream on: every stream line must go to stderr.
sysfs-observe --test 0027 --fixed --format json >$out/0027-fixed.json \
	2>$out/0027-fixed.err
rc=$?
check "0027 fixed: exit 0 (rc $rc)" test $rc -eq 0
check "0027 fixed: the live GATED line went to stderr" \
	grep -q 'finding *GATED' $out/0027-fixed.err
check "0027 fixed: the live stream went to stderr" \
	grep -q 'kernfs_get_active\|get_active' $out/0027-fixed.err
check "0027 fixed: the result line went to stderr" \
	grep -q '^TEST 0027 PASS' $out/0027-fixed.err

# DEADLOCK-PRONE and the observed deadlock, -q: the live finding lines.
# Last in this boot: it wedges the module.
timeout -k 5 120 sysfs-observe --test 0028 --format json -q \
	>$out/0028.json 2>$out/0028.err
rc=$?
check "0028 unfixed: exit 1 (rc $rc)" test $rc -eq 1
check "0028 unfixed: the live DEADLOCK-PRONE line went to stderr" \
	grep -q '^DEADLOCK-PRONE ' $out/0028.err
check "0028 unfixed: the result line went to stderr" \
	grep -q '^TEST 0028 FAIL' $out/0028.err
check "0028 unfixed: stdout starts a JSON document" \
	test "$(head -c 1 $out/0028.json)" = "{"
finish
