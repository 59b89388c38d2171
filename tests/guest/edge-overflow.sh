#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# Runs in the guest: no edge, and so no verdict, depends on a ring-buffer
# record arriving (issue 12).  0028 with the fix (two GATED cycles) runs
# with the default ring buffer and with a 4 KiB one that overflows; both
# must find the same cycles with the same verdicts.  The small run must
# have lost records and taken edges from the kernel's edge table, else it
# proved nothing: it is tried up to three times for that.  The tables
# that can fill are sized at load time by --map-nr-entries: the kernel
# must have them at that size while the observer runs.
. /mnt/files/lib.sh

# cycles FILE: the summary's cycles, one per line as "VERDICT: classes"
# with the classes sorted: a cycle is named from whichever edge closed
# it, and that order differs between runs.
cycles() {
	grep -E '^(DEADLOCK-PRONE|GATED|NO-WAIT): ' "$1" |
		sed 's/ ([0-9]* classes)$//' |
		awk -F': ' '{ n = split($2, c, " <-> ")
			for (i = 1; i <= n; i++)
				for (j = i + 1; j <= n; j++)
					if (c[j] < c[i]) { t = c[i]; c[i] = c[j]; c[j] = t }
			line = $1 ":"
			for (i = 1; i <= n; i++)
				line = line " " c[i]
			print line }' | sort -u
}

timeout -k 5 300 sysfs-observe --test 0028 --fixed >/tmp/full.out 2>&1
full_rc=$?
check "default ring: exit 0 (rc $full_rc)" test $full_rc -eq 0
want=$(cycles /tmp/full.out)
echo "$want" | sed 's/^/# full: /'
check "default ring: two GATED cycles" \
	test "$(grep -c '^GATED: ' <<<"$want")" -eq 2

for try in 1 2 3; do
	timeout -k 5 300 sysfs-observe --test 0028 --fixed --ringbuf-kib 4 \
		>/tmp/small.out 2>&1
	small_rc=$?
	lost=$(sed -n 's/^# lost events: \([0-9]*\).*/\1/p' /tmp/small.out)
	recovered=$(sed -n "s/^ *\([0-9]*\)   edges taken from the kernel's edge table.*/\1/p" \
		/tmp/small.out)
	echo "# try $try: lost ${lost:-?} events, recovered ${recovered:-?} edges"
	[ "${recovered:-0}" -gt 0 ] && break
done
got=$(cycles /tmp/small.out)
echo "$got" | sed 's/^/# small: /'
check "4 KiB ring: exit 0 (rc $small_rc)" test $small_rc -eq 0
check "4 KiB ring: records were lost (${lost:-none})" \
	test "${lost:-0}" -gt 0
check "4 KiB ring: edges taken from the kernel's table (${recovered:-none})" \
	test "${recovered:-0}" -gt 0
check "4 KiB ring: the same cycles and verdicts" test "$got" = "$want"
check "4 KiB ring: the summary says the edges are complete" \
	grep -q 'the edges are complete' /tmp/small.out
check "4 KiB ring: verdict PASS, 2 GATED" \
	grep -q '^verdict: PASS: 0 DEADLOCK-PRONE, 2 GATED cycles' \
	/tmp/small.out

# map_max NAME: the max_entries bpftool shows for the map NAME (the
# kernel keeps 15 characters of a name; these are shorter).  bpftool
# prints it on the line after the name's.
map_max() {
	bpftool map show | awk -v name="$1" '
		$0 ~ " name " name " " { f = 1; next }
		f { for (i = 1; i < NF; i++)
			if ($i == "max_entries") print $(i + 1)
		    f = 0 }' | head -n 1
}

# mutex_inits: 400 seq_file opens, each a __mutex_init the probes name.
mutex_inits() {
	for _ in $(seq 400); do
		cat /proc/version >/dev/null
	done
}

# evicted FILE: the JSON summary's count of lock classes evicted.
evicted() {
	grep -o '"class_evicted": [0-9]*' "$1" | grep -o '[0-9]*$'
}

timeout -k 5 200 sysfs-observe --attach -q --format json \
	--map-nr-entries 128 >/tmp/nr.out 2>/tmp/nr.err &
obs=$!
sizes=
for _ in $(seq 600); do
	if grep -q observing /tmp/nr.err; then
		for map in lock_classes edges chains stacks lock_syms \
			   class_names events; do
			sizes+=" $map=$(map_max $map)"
		done
		mutex_inits
		break
	fi
	sleep 0.2
done
kill -INT $obs
wait $obs
nr_rc=$?
sed 's/^/# /' /tmp/nr.err
echo "# sizes while observing:$sizes"
check "--map-nr-entries 128: exit 0 (rc $nr_rc)" test $nr_rc -eq 0
check "--map-nr-entries 128: the edge table has 128 entries" \
	grep -q ' edges=128 ' <<<"$sizes "
check "--map-nr-entries 128: so do the other five growing tables" \
	grep -q ' lock_classes=128 .*chains=128 stacks=128 lock_syms=128 class_names=128 ' \
	<<<"$sizes "
check "--map-nr-entries 128: the ring buffer keeps its 4 MiB" \
	grep -q ' events=4194304 ' <<<"$sizes "

# The LRU class table evicts silently; the summary must say so.  The same
# inits with the default 16384 classes evict none.
small=$(evicted /tmp/nr.out)
timeout -k 5 200 sysfs-observe --attach -q --format json \
	>/tmp/nr-default.out 2>/tmp/nr-default.err &
obs=$!
for _ in $(seq 600); do
	grep -q observing /tmp/nr-default.err && { mutex_inits; break; }
	sleep 0.2
done
kill -INT $obs
wait $obs
echo "# class_evicted: $small with 128 classes, $(evicted /tmp/nr-default.out) with the default"
check "128 classes, 400 mutex inits: the summary counts evicted classes" \
	test "${small:-0}" -gt 0
check "... and says it dropped something" \
	grep -q '"dropped": true' /tmp/nr.out
check "the default table, the same inits: none evicted" \
	test "$(evicted /tmp/nr-default.out)" = 0
finish
