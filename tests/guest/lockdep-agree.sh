#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# Runs in the guest on the project's lockdep kernel (kernfs/: knobs and
# PROVE_LOCKING): lockdep's verdicts beside ours, in the same boot.
# Lockdep reports one cycle per boot and then turns itself off, so each
# case that needs its report gets a boot of its own:
#   lockdep-agree.sh 0027|0028   unfixed: lockdep's pair is our
#                                DEADLOCK-PRONE cycle, and the deadlock
#                                is observed
#   lockdep-agree.sh gated       a sequential run (lockdep silent, we
#                                PRONE), then 0027's race held by a knob
#                                with the fix (lockdep reports, we say
#                                GATED), then the runner's 0027 and 0028
#                                fixed (GATED; lockdep off, silent on the
#                                rtnl cycle)
#   lockdep-agree.sh reset       the debugfs reset racing a store: a real
#                                deadlock the fix does not prevent; both
#                                report it
# Lockdep's pair is read from dmesg here, by the script, as a witness the
# tool does not control; the tool's own "# lockdep:" line must agree.
. /mnt/files/lib.sh
. /mnt/files/observe-lib.sh
. /mnt/files/knob-lib.sh
case_=${1:-0027}
dev=/sys/devices/virtual/misc/test_sysfs0
kn='kn:test_sysfs0/test_dev_x'

if [ ! -e /proc/lockdep_chains ]; then
	echo "# SKIP no lockdep (PROVE_LOCKING) in $(uname -r)"
	exit 4
fi
debug_locks() { awk '/debug_locks:/ { print $2 }' /proc/lockdep_stats; }
mark() { echo "lockdep-agree: $1" >/dev/kmsg; }
# lockdep_pair MARK: "acquiring|holding" of lockdep's report after MARK.
lockdep_pair() {
	dmesg | sed -n "/lockdep-agree: $1\$/,\$p" | sed 's/^\[[^]]*\] //' |
		awk '/is trying to acquire lock:/ { t = 1; next }
		     t == 1 { a = $0; t = 2; next }
		     /but task is already holding lock:/ { h = 1; next }
		     h == 1 { b = $0; h = 2 }
		     END { if (a != "" && b != "") print a "|" b }' |
		sed 's/[^ ]* (\([^{]*\)){[^|]*|[^ ]* (\([^{]*\)){.*/\1|\2/'
}
# other_lock "A|B": the one that is not a kn->active, when the other is.
other_lock() {
	case $1 in
	kn-\>active*\|*) echo "${1#*|}" ;;
	*\|kn-\>active*) echo "${1%%|*}" ;;
	esac
}
# report_lines FILE: what the note quotes.
report_lines() {
	grep -E '^(DEADLOCK-PRONE|GATED|DEADLOCK):|^# lockdep:' "$1" |
		head -n 6 | sed 's/^/# /'
}

check "lockdep is on at the start (debug_locks $(debug_locks))" \
	test "$(debug_locks)" = 1

case $case_ in
0027|0028)
	sysfs-observe --probes >/tmp/probes.out 2>/tmp/probes.err
	sed 's/^/# /' /tmp/probes.out | grep -E 'mutex'
	for p in mutex_lock_nested mutex_lock_interruptible_nested \
		 mutex_lock_killable_nested mutex_lock_io_nested \
		 _mutex_lock_nest_lock mutex_trylock mutex_unlock __mutex_init \
		 kernfs_get_active kernfs_drain; do
		check "--probes: $p attached" grep -Eq \
			"^$p +(fentry|kprobe)" /tmp/probes.out
	done
	check "--probes: mutex_lock unused (its lockdep stand-in is probed)" \
		grep -Eq '^mutex_lock +unused' /tmp/probes.out
	check "--probes: says the lockdep set is in use" \
		grep -q "^mutex probes: lockdep's" /tmp/probes.out
	check "--probes: no mutex probe missing" \
		sh -c "! grep -q 'no probe on mutex' /tmp/probes.err"
	mark "$case_"
	observe_test "$case_" 0
	report_lines "$obs_out"
	pair=$(lockdep_pair "$case_")
	echo "# lockdep's pair: $pair"
	check "$case_ unfixed: lockdep reported a cycle" test -n "$pair"
	# lockdep's mutex, whichever the race closed on (0028's runs
	# take the config mutex and rtnl): ours must be the same.
	lock=$(other_lock "$pair")
	check "$case_ unfixed: lockdep's pair is kn->active and a mutex ($lock)" \
		test -n "$lock"
	check "$case_ unfixed: ours: DEADLOCK-PRONE $lock <-> $kn" grep -Fq \
		-e "DEADLOCK-PRONE: $lock <-> $kn " -e "DEADLOCK-PRONE: $kn <-> $lock " \
		"$obs_out"
	check "$case_ unfixed: the tool holds lockdep's report to the same cycle" \
		grep -Eq "^# lockdep: .* the same cycle here: DEADLOCK-PRONE: .*$kn" \
		"$obs_out"
	check "$case_ unfixed: the deadlock is observed" \
		grep -Eq '^DEADLOCK: .* \(2 tasks\)$' "$obs_out"
	check "$case_ unfixed: exit 1 (rc $obs_rc)" test "$obs_rc" -eq 1
	;;
gated)
	# 1. Sequential: the store ends before rmmod; 6.1's kernfs_drain()
	# returns before its lockdep annotation when no reference is
	# held, so lockdep never sees the drain's side.  We see both edges.
	cat >/tmp/seq.sh <<-SEQ
	modprobe test_sysfs enable_lock=1 enable_lock_on_rmmod=1 || exit 1
	echo 3 >$dev/test_dev_x || exit 1
	modprobe -r test_sysfs
	SEQ
	mark seq
	timeout -k 5 120 sysfs-observe --attach -q -- bash /tmp/seq.sh \
		>/tmp/seq.out 2>&1
	rc=$?
	report_lines /tmp/seq.out
	check "sequential: the store and the removal ran" sh -c \
		"dmesg | sed -n '/lockdep-agree: seq\$/,\$p' | grep -q 'test_sysfs'"
	check "sequential: ours: DEADLOCK-PRONE config_mutex <-> $kn (rc $rc)" \
		grep -Eq "^DEADLOCK-PRONE: .*config_mutex.*<->|<-> .*config_mutex" \
		/tmp/seq.out
	on=$(debug_locks) pair=$(lockdep_pair seq)
	check "sequential: lockdep silent (still on: $on; no report: '$pair')" \
		test "$on" = 1 -a -z "$pair"

	# 2. 0027's race made certain with a knob, with the fix: the store
	# holds its active reference at wait_after_active while rmmod, with
	# the config mutex held, drains it.  Lockdep reports the cycle; the
	# store's module reference keeps it out of the GOING module: GATED.
	need_knobs "lockdep-agree gated"
	held_store_driver /tmp/held.sh \
		"enable_lock=1 enable_lock_on_rmmod=1 enable_try_module_get=1" \
		"modprobe -r test_sysfs"
	mark held
	timeout -k 5 120 sysfs-observe --attach -q -- bash /tmp/held.sh \
		>/tmp/held.out 2>&1
	rc=$?
	report_lines /tmp/held.out
	pair=$(lockdep_pair held)
	echo "# lockdep's pair: $pair"
	check "held, fixed: the store failed (-ENODEV): $(cat /tmp/write.rc 2>/dev/null)" \
		grep -q '^write rc 1$' /tmp/write.rc
	lock=$(other_lock "$pair")
	check "held, fixed: lockdep reported kn->active and a lock ($lock)" \
		test -n "$lock"
	check "held, fixed: ours: GATED, through $lock" \
		grep -Fq -e "GATED: $lock " -e " $lock (" -e " $lock -> " /tmp/held.out
	check "held, fixed: ours: GATED config_mutex <-> $kn" \
		grep -Eq "^GATED: .*config_mutex.*$kn|^GATED: $kn.*config_mutex" \
		/tmp/held.out
	check "held, fixed: the tool calls lockdep's report a false alarm, with the gate" \
		grep -Eq "^# lockdep: .*GATED here, lockdep's false alarm.*test_sysfs" \
		/tmp/held.out
	check "held, fixed: exit 0 (rc $rc)" test "$rc" -eq 0

	# 3. The runner's 0027 and 0028 with the fix: GATED, PASS, whatever
	# lockdep said (it is off now: one report per boot).
	check "lockdep is off after its report (debug_locks $(debug_locks))" \
		test "$(debug_locks)" = 0
	observe_test 0027 1
	report_lines "$obs_out"
	check "0027 fixed: ours: GATED" grep -Eq "^GATED: .*$kn" "$obs_out"
	check "0027 fixed: PASS, exit 0 (rc $obs_rc)" sh -c \
		"grep -Eq '^TEST 0027 PASS ' '$obs_out' && [ $obs_rc -eq 0 ]"
	mark second
	observe_test 0028 1
	report_lines "$obs_out"
	check "second cycle: ours: GATED rtnl_mutex <-> $kn" \
		grep -Eq "^GATED: (rtnl_mutex <-> $kn|$kn <-> rtnl_mutex) " "$obs_out"
	check "second cycle: lockdep silent (off)" \
		test -z "$(lockdep_pair second)"
	;;
reset)
	need_knobs "lockdep-agree reset"
	# A store held after its active reference (wait_after_active) while
	# the debugfs reset takes the config mutex and drains test_dev_x:
	# both hold module references, nobody is GOING, the fix cannot help.
	held_store_driver /tmp/reset.sh "enable_lock=1 enable_lock_on_rmmod=1 \
		enable_try_module_get=1 enable_debugfs=1" \
		"echo 1 >/sys/kernel/debug/test_sysfs/reset_first_test_dev"
	mark reset
	timeout -k 5 120 sysfs-observe --attach -q -- bash /tmp/reset.sh \
		>/tmp/reset.out 2>&1
	rc=$?
	report_lines /tmp/reset.out
	grep -vE '^(DEADLOCK|GATED)' /tmp/reset.out | grep -iE 'error|fail|denied|no such|verdict' |
		head -n 5 | sed 's/^/# reset: /' 
	pair=$(lockdep_pair reset)
	echo "# lockdep's pair: $pair"
	check "reset: the store was held at the knob ($(cat /tmp/held 2>/dev/null))" \
		grep -q '^held after [0-9]* polls' /tmp/held
	lock=$(other_lock "$pair")
	check "reset: lockdep reported kn->active and a lock ($lock)" \
		test -n "$lock"
	check "reset: ours: DEADLOCK-PRONE, through $lock" sh -c \
		"grep '^DEADLOCK-PRONE: ' /tmp/reset.out | grep -Fq -- '$lock'"
	check "reset: ours: DEADLOCK-PRONE, not GATED (the fix does not gate it)" \
		grep -Eq "^DEADLOCK-PRONE: .*config_mutex" /tmp/reset.out
	check "reset: the tool holds lockdep's report to the same cycle" \
		grep -Eq "^# lockdep: .* the same cycle here: DEADLOCK-PRONE" \
		/tmp/reset.out
	check "reset: the deadlock is observed (rc $rc)" \
		grep -Eq '^DEADLOCK: .* \(2 tasks\)$' /tmp/reset.out
	;;
*)
	echo "lockdep-agree.sh: no case $case_" >&2
	exit 2
	;;
esac
finish
