#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# Runs in the guest: the scenario runner, `sysfs-observe --test`.  Why:
# it must run every scenario, agree with the seed's sysfs.sh test by test
# (where the seed is), judge 0028 with and without the fix, refuse bad
# input with exit 2, clean up on Ctrl-C, and speak valid KTAP.  The two
# runs' times are printed as a figure, not compared: this is no benchmark.
. /mnt/files/lib.sh
. /mnt/files/sysfs-lib.sh

bad() {		# bad ARGS...: exit 2 and a reason on stderr
	local rc
	sysfs-observe "$@" >/tmp/bad.out 2>&1
	rc=$?
	check "'$*' exits 2 (rc $rc): $(head -n 1 /tmp/bad.out)" test $rc -eq 2
}
bad --test 9999
# Every scenario of the table: sysfs.sh's 28, and the knob ones, which
# SKIP on a kernel without the kernfs knobs.
nt=$(sysfs-observe --list | grep -c '^[0-9][0-9][0-9][0-9] ')
bad --test abc
bad --count 0001 -1 --test 0001

# sysfs.sh all: which tests ran and which printed FAIL.
if have_seed; then
	t0=$(uptime_s)
	bash "$SYSFS_SH" all >/tmp/sh.out 2>&1
	sh_rc=$?
	sh_secs=$(sub_s "$t0" "$(uptime_s)")
	awk '/^Running test: sysfs_test_/ { id = substr($3, 12, 4); ran[id] = 1 }
	     /FAIL/ && id { fail[id] = 1 }
	     /Skipping test/ { skip[$3] = 1 }
	     END { for (i = 1; i <= 28; i++) { t = sprintf("%04d", i)
		print t, skip[t] ? "SKIP" : fail[t] ? "FAIL" : ran[t] ? "PASS" : "NONE" } }' \
		/tmp/sh.out | sort >/tmp/sh.res
fi

t0=$(uptime_s)
timeout -k 5 600 sysfs-observe --test all -q >/tmp/so.out 2>&1
so_rc=$?
t1=$(uptime_s)
so_secs=$(sub_s "$t0" "$t1")
grep -E '^(TEST|TOTAL|verdict)' /tmp/so.out | sed 's/^/# /'
awk '/^TEST / { print $2, $3 }' /tmp/so.out | sort >/tmp/so.res
check "--test all exits 0 (rc $so_rc, $so_secs s)" test $so_rc -eq 0
check "--test all ran $nt tests" test "$(wc -l </tmp/so.res)" -eq "$nt"
# Each test that ran printed a summary: events seen and all received,
# nothing lost, edges recorded (PASS from an observer that saw nothing
# would look the same otherwise).
ran=$(grep -cv ' SKIP$' /tmp/so.res)
awk -v ran="$ran" '
	/^# events: / { n++; if (!($3 > 0 && $3 == $5)) bad++ }
	/^# lost events: / { if ($4 != 0) lost++ }
	/^# Order edges: / { e++; if ($4 + 0 == 0) noedge++ }
	END { printf "# %d summaries, %d with bad counts, %d with losses, %d without edges\n",
		n, bad, lost, noedge
	      exit !(n == ran && !bad && !lost && e == ran && !noedge) }' \
	/tmp/so.out >/tmp/so.counts
so_counts_rc=$?
cat /tmp/so.counts
check "--test all: $ran summaries, events all received, none lost, edges seen" \
	test $so_counts_rc -eq 0
if have_seed; then
	echo "# figure: sysfs.sh all rc $sh_rc in $sh_secs s;" \
	     "sysfs-observe --test all rc $so_rc in $so_secs s"
	check "sysfs.sh all ran 28 tests" test "$(grep -vc NONE /tmp/sh.res)" -eq 28
	while read -r id sh_res; do
		so_res=$(awk -v id="$id" '$1 == id { print $2 }' /tmp/so.res)
		# sysfs.sh skips 0027/0028 (they may hang); we run them fixed.
		[ "$sh_res" = SKIP ] && [ "$so_res" = PASS ] && sh_res=PASS
		check "$id: sysfs.sh $sh_res, sysfs-observe $so_res" \
			test "$sh_res" = "$so_res"
	done </tmp/sh.res
else
	skip_seed "--test all agrees with sysfs.sh all" \
		"compare sysfs.sh all with --test all, test by test"
fi

# 0028 with the fix first: the unfixed run may wedge the kernel.
timeout -k 5 120 sysfs-observe --test 0028 --fixed -q >/tmp/f.out 2>&1
rc=$?
check "0028 --fixed exits 0 (rc $rc)" test $rc -eq 0
check "0028 --fixed: GATED" grep -q '^GATED:' /tmp/f.out

# Ctrl-C in the middle of 0008's loops: a 30 s window, so the signal
# cannot come after the test ended (with the default 2 s it did).
nlinks() { bpftool link show 2>/dev/null | grep -c '^[0-9]*: '; }
sysfs-observe --test 0008 -q --window 30 >/tmp/c.out 2>&1 &
pid=$!
for i in $(seq 1 100); do
	grep -q '^test_sysfs ' /proc/modules && break
	sleep 0.1
done
sleep 1.5
mid_links=$(nlinks)
mid_mod=$(grep -c '^test_sysfs ' /proc/modules)
kill -INT $pid
wait $pid
rc=$?
# That the signal landed mid-run: the observer's links were there when
# it was sent, and the test says it was interrupted (a test that had
# ended would PASS).  The module comes and goes in 0008's loop.
check "Ctrl-C in 0008: sent mid-run ($mid_links BPF links; test_sysfs loaded: $mid_mod)" \
	test "$mid_links" -gt 0
check "Ctrl-C in 0008: the test says interrupted, exit 1 (rc $rc)" \
	sh -c "[ $rc -eq 1 ] && grep -q 'sysfs_0008: interrupted' /tmp/c.out"
check "Ctrl-C in 0008: test_sysfs unloaded" \
	sh -c '! grep -q "^test_sysfs " /proc/modules'
check "Ctrl-C in 0008: no BPF link left ($(nlinks) after, $mid_links during)" \
	test "$(nlinks)" -eq 0
check "Ctrl-C in 0008: no sysfs-observe process left" \
	sh -c '! pgrep -x sysfs-observe'
check "Ctrl-C in 0008: the summary printed" grep -q '^verdict:' /tmp/c.out

# KTAP: the plan, one result per test, nothing but KTAP on stdout.
timeout -k 5 300 sysfs-observe --test all --format ktap --window 0.5 \
	>/tmp/k.out 2>/tmp/k.err
rc=$?
check "ktap: exits 0 (rc $rc)" test $rc -eq 0
check "ktap: header and plan" sh -c \
	"head -n 2 /tmp/k.out | tr '\n' ' ' | grep -q '^TAP version 13 1\.\.$nt \$'"
check "ktap: $nt results numbered 1..$nt" awk -v nt="$nt" '
	/^(not )?ok [0-9]+ / { n++; i = ($1 == "ok") ? $2 : $3
		if (i != n) exit 1 }
	END { exit n != nt }' /tmp/k.out
cp /tmp/k.out /mnt/out/k.out 2>/dev/null	# for tests/host/scenarios.sh
check "ktap: every line is KTAP" awk '
	NR <= 2 { next }
	!/^(ok|not ok) [0-9]+ / && !/^#/ && !/^$/ { bad = 1 }
	END { exit bad }' /tmp/k.out
# 0028 without the fix, last: DEADLOCK-PRONE, exit 1, bounded, whether or
# not the kernel deadlocked.
t0=$(uptime_s)
timeout -k 5 120 sysfs-observe --test 0028 >/tmp/u.out 2>&1
rc=$?
secs=$(sub_s "$t0" "$(uptime_s)")
check "0028 unfixed exits 1 in bounded time (rc $rc, $secs s)" test $rc -eq 1
check "0028 unfixed: DEADLOCK-PRONE" grep -q 'DEADLOCK-PRONE:' /tmp/u.out
# A stream line (TIME CPU COMM/TID EVENT DETAILS) of a write to x: the
# summary names the attribute too, so the name alone proves nothing.
check "0028 unfixed: live stream" grep -Eq \
	'^ *[0-9]+\.[0-9]+ +[0-9]+ [^ ]+/[0-9]+ +write +kn:test_sysfs0/test_dev_x' /tmp/u.out
finish
