# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# Sourced by the guest scripts that drive the seed's sysfs.sh (sysfs-sh.sh,
# deadlock-fixed.sh, deadlock-unfixed.sh).  Why a library: sysfs.sh prints
# "ok" for 0027/0028 even when they deadlock (it only waits for its own
# kill timer), so each of them needs the same outside evidence: a watcher
# for tasks stuck in kernfs_drain(), a dmesg splat check, and a bounded
# wait for the module to leave.

# lib.sh says where the seed's sysfs.sh is (SYSFS_SH) and skips without it.

# Seconds since boot, to the centisecond (approximate under TCG).
uptime_s() {
	local up
	read -r up _ </proc/uptime
	echo "$up"
}

# sub_s A B: B - A in seconds, two decimals.
sub_s() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }

# dmesg_since MARK: the kernel log from the line containing MARK on.
# Fails, printing nothing, when MARK is no longer in the ring: a busy test
# (0027 prints a line per store) can overwrite it, and a slice that
# silently comes back empty would make every check on it pass.
dmesg_since() {
	local log
	log=$(dmesg)
	grep -qF -- "$1" <<<"$log" || return 1
	sed -n "/$1/,\$p" <<<"$log"
}

# The lines of dmesg after the line containing MARK that look like a
# kernel splat: sysfs.sh's own check_dmesg patterns, plus the hung task
# detector's report.  A lost MARK is reported as a line of its own, so
# that "no splat" cannot be concluded from a log that is gone.
dmesg_splats() {
	local log
	if ! log=$(dmesg_since "$1"); then
		echo "dmesg no longer holds the marker '$1' (ring overwritten)"
		return
	fi
	grep -E <<<"$log" \
		-e 'kernel BUG at' -e 'WARNING:' -e '\bBUG:' -e 'Oops:' \
		-e 'possible recursive locking detected' -e 'Internal error' \
		-e '(INFO|ERR): suspicious RCU usage' \
		-e 'INFO: possible circular locking dependency detected' \
		-e 'general protection fault' -e 'BUG .* remaining' \
		-e 'UBSAN:' -e 'blocked for more than' -e 'soft lockup' \
		-e 'rcu_sched self-detected stall'
}

# Pids of tasks in uninterruptible sleep (state D).
d_state_pids() {
	local f stat state
	for f in /proc/[0-9]*/stat; do
		{ read -r stat <"$f"; } 2>/dev/null || continue
		state=${stat##*) }
		[ "${state%% *}" = D ] || continue
		f=${f#/proc/}
		echo "${f%/stat}"
	done
}

# print_d_stacks: every D-state task with its kernel stack, as diagnostics.
print_d_stacks() {
	local pid
	for pid in $(d_state_pids); do
		echo "# task $pid ($(cat /proc/"$pid"/comm 2>/dev/null)) state D:"
		sed 's/^/#   /' /proc/"$pid"/stack 2>/dev/null
	done
}

# watch_drain T0 HOLD: polls every 0.2 s for a task that has sat in
# kernfs_drain() in state D for HOLD seconds.  A drain normally waits for
# one store of microseconds; seconds means the store it waits for will
# never return.  Prints "@@deadlock-onset S@@" (S = seconds from T0 to
# the first sample that saw the drain) and the D-state stacks, then exits.
watch_drain() {
	local t0=$1 hold=$2 now pid
	declare -A first=()
	declare -A seen
	while :; do
		now=$(uptime_s)
		seen=()
		for pid in $(d_state_pids); do
			grep -q kernfs_drain /proc/"$pid"/stack 2>/dev/null ||
				continue
			seen[$pid]=1
			[ -n "${first[$pid]:-}" ] || first[$pid]=$now
			if awk -v a="${first[$pid]}" -v b="$now" -v h="$hold" \
					'BEGIN { exit !(b - a >= h) }'; then
				echo "@@deadlock-onset $(sub_s "$t0" "${first[$pid]}")@@"
				echo "# task $pid has waited in kernfs_drain() since" \
				     "$(sub_s "$t0" "${first[$pid]}") s:"
				print_d_stacks
				return 0
			fi
		done
		for pid in "${!first[@]}"; do
			[ -n "${seen[$pid]:-}" ] || unset "first[$pid]"
		done
		sleep 0.2
	done
}

# wait_module_gone SECS: unloads test_sysfs and waits until it is gone.
# SECS=0 waits forever: a deadlocked rmmod then hangs the guest, which is
# what the host harness's timeout is for.
wait_module_gone() {
	local secs=$1 start
	start=$(uptime_s)
	modprobe -q -r test_sysfs 2>/dev/null &
	while [ -e /sys/module/test_sysfs ]; do
		if [ "$secs" -gt 0 ] && awk -v a="$start" -v b="$(uptime_s)" \
				-v s="$secs" 'BEGIN { exit !(b - a >= s) }'; then
			return 1
		fi
		# A modprobe -r that met a live module user fails: retry.
		[ -n "$(jobs -r)" ] || modprobe -q -r test_sysfs 2>/dev/null &
		sleep 0.5
	done
	return 0
}
