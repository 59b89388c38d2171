# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# Sourced by the guest scripts that judge sysfs-observe's verdicts: run
# one scenario under observation and keep the observer's output and exit
# status.  Two drivers: the tool's own runner (`--test ID`, always), and
# the seed's sysfs.sh as an outside client under `--attach` (only where
# the seed is: lib.sh's have_seed).

# observe_test ID FIXED(0|1) [test|seed]: a deadlocked scenario never
# ends, so the observer must.  Sets obs_rc, obs_out (file), obs_secs.
# Summary mode (-q), or the live stream with OBS_STREAM=1.
observe_test() {
	local id=$1 fixed=$2 driver=${3:-test} t0 t1 cmd q=-q
	[ "${OBS_STREAM:-0}" = 1 ] && q=
	if [ "$driver" = seed ]; then
		if [ "$fixed" = 1 ]; then
			echo "options test_sysfs enable_try_module_get=1" \
				>/etc/modprobe.d/observe-fixed.conf
		else
			rm -f /etc/modprobe.d/observe-fixed.conf
		fi
		cmd=(sysfs-observe --attach ${q:+"$q"} -- bash "$SYSFS_SH" -t "$id")
	else
		cmd=(sysfs-observe --test "$id" ${q:+"$q"})
		[ "$fixed" = 1 ] && cmd+=(--fixed)
	fi
	obs_out=/tmp/observe-$id-$fixed-$driver.txt
	t0=$(cut -d' ' -f1 /proc/uptime)
	timeout -k 5 120 "${cmd[@]}" >"$obs_out" 2>&1
	obs_rc=$?
	t1=$(cut -d' ' -f1 /proc/uptime)
	obs_secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.1f", b-a}')
	echo "# ${cmd[*]}"
	grep -E 'GATED|PRONE|DEADLOCK|^verdict|^TEST' "$obs_out" | head -n 12 |
		sed 's/^/# /'
	# A failure that happens once in many runs must be readable from
	# the log alone: the whole report (which deadlock, which tasks).
	if [ $obs_rc -ne 0 ] && [ "$fixed" = 1 ]; then
		echo "# the whole output of the failed run:"
		head -n 120 "$obs_out" | sed 's/^/#   /'
	fi
}

# check_deadlock_stacks PREFIX OUT: the DEADLOCK report in OUT gives each
# blocked task its own stack (an edge's stack elsewhere in OUT names the
# store too, so the whole output proves nothing): the writer's in the
# store, rmmod's in the removal (its drain's caller: the probed
# function's own frame is left out), and none "not captured".  A live
# session reads the writer's when the deadlock is found (iter_task_stack).
check_deadlock_stacks() {
	local prefix=$1 out=$2 block=/tmp/deadlock-block.txt
	sed -n '/^DEADLOCK: /,/These tasks wait/p' "$out" >"$block"
	head -n 60 "$block" | sed 's/^/# /'
	check "$prefix: the writer's stack in the DEADLOCK report" \
		grep -q 'test_dev_x_store' "$block"
	check "$prefix: rmmod's stack in the DEADLOCK report" \
		grep -q 'kernfs_remove' "$block"
	check "$prefix: no task without its stack" \
		sh -c "! grep -q 'not captured' '$block'"
}
