#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# Runs in the guest (make bench): what observing costs, as ratios to bare
# runs of the same boot.  Figures only, never a test: under TCG absolute
# rates mean little and the spread is wide, so every mode runs in each of
# BENCH_ROUNDS interleaved rounds and the table shows medians and min-max.
#
# Modes: bare; floor (empty fentry/fexit programs where one write
# passes); floor-q (the same but mutex_lock's exit, which -q does not
# attach where it takes locks at their entry); sysfs-observe --attach
# -q, live stream (to a tmpfs file), record; klockstat (libbpf-tools)
# where it is installed.
# Workloads: pwrite loop on test_dev_x with enable_lock=1 (the store takes
# the driver's mutex) from 1 and 2 threads; a pipe ping-pong between two
# processes, mutex work outside every observed context; 0018's loop of
# loading test_sysfs, writing test_dev_x and removing it (module loads
# and removals are observed contexts, and take module_mutex dozens of
# times each).
# The table: median (min-max) per mode and workload, the median's ratio
# to bare's median; the observer's costs as medians over the rounds.
table() {
	awk -v modes="$1" -v costs="$3" '
function med(list,   n, a, i, j, t) {
	n = split(list, a, " ")
	for (i = 1; i <= n; i++)
		for (j = i + 1; j <= n; j++)
			if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
	lo = a[1]; hi = a[n]
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
{ v[$1, $2] = v[$1, $2] " " $4 }
END {
	while ((getline line < costs) > 0) {
		split(line, c, " ")
		lost[c[1]] = lost[c[1]] " " c[3]
		cpu[c[1]] = cpu[c[1]] " " c[4]
		mem[c[1]] = mem[c[1]] " " c[5]
	}
	nw = split("w1 w2 pipe mod", w, " ")
	printf "%-10s %-5s %10s %21s %6s\n", "mode", "load", "median/s",
	       "min-max", "ratio"
	nm = split(modes, m, " ")
	for (i = 1; i <= nm; i++)
		for (j = 1; j <= nw; j++) {
			if (!((m[i], w[j]) in v))
				continue
			# med() sets lo and hi: for bare first, then for this mode.
			b = med(v["bare", w[j]])
			x = med(v[m[i], w[j]])
			# Module cycles are a few a second: one decimal.
			f = w[j] == "mod" ? "%10.1f %10.1f-%-10.1f" : \
					    "%10.0f %10.0f-%-10.0f"
			printf "%-10s %-5s " f " %6.2f\n", m[i], w[j], x, lo,
			       hi, (b ? x / b : 0)
		}
	printf "\n%-10s %12s %14s %12s\n", "mode", "lost events",
	       "cpu s/round", "BPF memlock"
	for (i = 1; i <= nm; i++) {
		if (!(m[i] in cpu))
			continue
		l = "-"
		if (lost[m[i]] ~ /[0-9]/)
			l = sprintf("%.0f", med(lost[m[i]]))
		printf "%-10s %12s %14.2f %9.1f MiB\n", m[i], l,
		       med(cpu[m[i]]), med(mem[m[i]]) / 1048576
	}
	print "(load: w1/w2 pwrite test_dev_x enable_lock=1, 1/2 threads;\n" \
	      " pipe: 1-byte ping-pong, unobserved; mod: as in 0018," \
	      " modprobe,\n write test_dev_x, modprobe -r, cycles/s)"
}' "$2"
}

# --table MODES RESULTS COSTS: only the table (make check runs it on
# fixed figures: a table that prints nothing went unseen once).
if [ "${1:-}" = --table ]; then
	table "$2" "$3" "$4"
	exit
fi

secs=${BENCH_SECS:-3}
rounds=${BENCH_ROUNDS:-3}
attr=/sys/devices/virtual/misc/test_sysfs0/test_dev_x
results=/tmp/bench.results	# MODE WORKLOAD ROUND RATE
costs=/tmp/bench.costs		# MODE ROUND LOST CPU_S MEMLOCK_BYTES
modprobe test_sysfs enable_lock=1 || exit 1
: >$results
: >$costs

modes="bare floor floor-q quiet stream record"
type -P klockstat >/dev/null && modes="$modes klockstat"
# BENCH_MODES: a subset, for a quick look at one change (bare always).
[ -n "$BENCH_MODES" ] && modes="bare ${BENCH_MODES//bare/}"
hz=$(getconf CLK_TCK)

# modloop: 0018's loop for $secs seconds (load, one write, remove), in
# cycles a second; leaves the module loaded as the writers need it.
modloop() {
	local t0 t1 now n=0
	t0=${EPOCHREALTIME/./}
	t1=$((t0 + secs * 1000000))
	now=$t0
	while ((now < t1)); do
		modprobe test_sysfs enable_lock=1 || break
		echo 1 >"$attr"
		modprobe -r test_sysfs || break
		n=$((n + 1))
		now=${EPOCHREALTIME/./}
	done
	modprobe test_sysfs enable_lock=1
	awk -v n=$n -v us=$((now - t0)) \
		'BEGIN { printf "%.2f", (us > 0 ? n * 1e6 / us : 0) }'
}

workloads() {
	local mode=$1 round=$2
	echo "$mode w1 $round $(so-bench-writer $attr 1 $secs | awk '{print $8}')"
	echo "$mode w2 $round $(so-bench-writer $attr 2 $secs | awk '{print $8}')"
	echo "$mode pipe $round $(so-bench-pipe $secs | awk '{print $6}')"
	echo "$mode mod $round $(modloop)"
}

# cpu_ticks PID: user + system time so far, in clock ticks.
cpu_ticks() { awk '{print $14 + $15}' /proc/$1/stat; }

# memlock PID: bytes of BPF maps the process holds (fdinfo of map fds).
memlock() {
	local f sum=0 m
	for f in /proc/$1/fdinfo/*; do
		grep -q '^map_type:' "$f" 2>/dev/null || continue
		m=$(awk '/^memlock:/{print $2}' "$f")
		sum=$((sum + ${m:-0}))
	done
	echo $sum
}

# While a tool attaches, the kernel patches the entries of functions
# such as mutex_lock and try_module_get, and a TCG guest can freeze when
# the other vCPU runs them meanwhile (docs/design.md §7; one frozen
# console showed the bench's own grep inside try_module_get).  So the
# wait for readiness forks nothing: no grep, no sleep, only builtins.
mkfifo /tmp/bench.nap
exec {nap_fd}<>/tmp/bench.nap
# nap SECONDS: read's timeout on a FIFO nobody writes.
nap() { read -r -t "$1" -u "$nap_fd" _ || true; }
# has FILE TEXT: FILE contains TEXT.
has() {
	local text=
	[ -r "$1" ] && IFS= read -r -d '' text <"$1"
	[[ $text == *"$2"* ]]
}
# links PID: the process holds a BPF link (its fdinfo says link_type).
links() {
	local f
	for f in /proc/$1/fdinfo/*; do
		has "$f" link_type: && return 0
	done
	return 1
}

# observe MODE ROUND: start the observer, wait until it says it is
# attached, run the workloads, stop it; its costs go to $costs.
observe() {
	local mode=$1 round=$2 pid t0 t1 ml i lost=-
	rm -f /tmp/obs.out /tmp/obs.err
	case $mode in
	floor)     so-bench-floor 2>/tmp/obs.err & ;;
	floor-q)   so-bench-floor --no-lock-exit 2>/tmp/obs.err & ;;
	quiet)     sysfs-observe --attach -q >/tmp/obs.out 2>/tmp/obs.err & ;;
	stream)    sysfs-observe --attach >/tmp/obs.out 2>/tmp/obs.err & ;;
	record)    sysfs-observe record -o /tmp/bench.trace -q --attach \
			>/tmp/obs.out 2>/tmp/obs.err & ;;
	klockstat) klockstat >/tmp/obs.out 2>/tmp/obs.err & ;;
	esac
	pid=$!
	# Loading takes seconds under TCG: measure only once it is ready.
	# klockstat says so on a fully buffered stdout: for it, wait for
	# its BPF links to appear (it attaches them all at once), then 2 s.
	for ((i = 0; i < 600; i++)); do
		has /tmp/obs.err observing && break
		[ $mode = klockstat ] && links $pid && { nap 2; break; }
		kill -0 $pid 2>/dev/null || break
		nap 0.2
	done
	if ! kill -0 $pid 2>/dev/null; then
		echo "# $mode: did not start:"; sed 's/^/#   /' /tmp/obs.err
		return
	fi
	t0=$(cpu_ticks $pid)
	workloads "$mode" "$round" >>$results
	t1=$(cpu_ticks $pid)
	ml=$(memlock $pid)
	kill -INT $pid
	wait $pid
	[ "${mode%-q}" != floor ] && [ $mode != klockstat ] &&
		lost=$(awk '/^# lost events:/{print $4}' /tmp/obs.out)
	echo "# round $round: $mode done ($(date +%T))"
	echo "$mode $round ${lost:--} $(awk -v t=$((t1 - t0)) -v hz=$hz \
		'BEGIN{printf "%.2f", t / hz}') $ml" >>$costs
}

echo "# clocksource: $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
echo "# $rounds rounds of $modes; ${secs} s per workload; $(nproc) CPUs"
for round in $(seq $rounds); do
	for mode in $modes; do
		if [ $mode = bare ]; then
			workloads bare $round >>$results
		else
			observe $mode $round
		fi
	done
	echo "# round $round done"
	# The table so far: a guest that freezes in a later round (the
	# TCG hazard at attach, docs/design.md §7; vm.sh then stops it)
	# still leaves the rounds it finished.
	[ $round -lt $rounds ] || break
	echo "# the table after $round of $rounds rounds:"
	table "$modes" $results $costs | sed 's/^/#   /'
done
modprobe -r test_sysfs

echo "# the table, $rounds rounds:"
table "$modes" $results $costs
