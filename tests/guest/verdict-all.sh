#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# Runs in the guest: the seed's whole suite (`sysfs.sh all`, 0001-0026;
# it skips the deadlock tests 0027/0028) under `sysfs-observe --attach`.
# None of those scenarios can deadlock, so nothing may be DEADLOCK-PRONE:
# a false positive here is what would make kernel developers stop
# reading the tool's reports.
. /mnt/files/lib.sh
# Without the seed, scenarios.sh's `--test all` is the same judgement on
# the tool's own runner.
need_seed "observe sysfs.sh all under --attach: nothing DEADLOCK-PRONE"

t0=$(cut -d' ' -f1 /proc/uptime)
sysfs-observe --attach -q -- bash $SYSFS_SH all >/tmp/all.txt 2>&1
rc=$?
t1=$(cut -d' ' -f1 /proc/uptime)
grep -E 'PRONE|GATED|DEADLOCK|^verdict|^# (duration|events|lost)' \
	/tmp/all.txt | head -n 20 | sed 's/^/# /'
echo "# observed run of sysfs.sh all: $(awk -v a="$t0" -v b="$t1" \
	'BEGIN{printf "%.0f", b-a}') s"
check "sysfs.sh all under observation: exit 0 (rc $rc)" test $rc -eq 0
check "nothing DEADLOCK-PRONE" grep -q '^verdict: PASS: 0 DEADLOCK-PRONE' \
	/tmp/all.txt
check "no DEADLOCK" eval '! grep -q "^DEADLOCK: " /tmp/all.txt'
check "no events lost" grep -q '^# lost events: 0$' /tmp/all.txt
# The positive control: an observer that saw nothing would pass all of
# the above.
ev=$(sed -n 's/^# events: \([0-9]*\) received, \([0-9]*\) submitted.*/\1 \2/p' \
	/tmp/all.txt)
check "events seen, every one received ($ev)" \
	awk -v e="$ev" 'BEGIN { split(e, v, " "); exit !(v[1] > 0 && v[1] == v[2]) }'
edges=$(sed -n 's/^# Order edges: \([0-9]*\),.*/\1/p' /tmp/all.txt)
check "order edges recorded ($edges)" test "${edges:-0}" -gt 0
# Events and edges come from any process of the run, bash's start-up
# included: a stand-in sysfs.sh that did nothing passed both.  What
# sysfs.sh does is load and remove test_sysfs and write its attributes.
seen=$(awk '
	/^# / { section = $0 }
	section == "# writes" && $NF ~ /^kn:test_sysfs[0-9]*\// { w += $1 }
	$1 == "finit_module" { l = $2 }
	$1 == "delete_module" { d = $2 }
	END { printf "%d %d %d", w, l, d }' /tmp/all.txt)
check "sysfs.sh's work observed (test_sysfs writes, loads, removals: $seen)" \
	awk -v s="$seen" 'BEGIN { split(s, v, " "); exit !(v[1] > 0 && v[2] > 0 && v[3] > 0) }'
finish
