#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# Host side: shows that the seed's tests 0027 and 0028 are a real deadlock
# when seed 007's fix is off, and how reliably.  Why: the deadlock is the
# thing sysfs-observe exists to explain, so its reproduction rate and the
# time it takes to appear are facts to measure, not to assume.  Each run
# boots a fresh guest running deadlock-unfixed.sh; a deadlocked run never
# finishes and vm.sh kills it after TIMEOUT seconds (exit 124).  Slow
# (about TIMEOUT s per hung run), so not part of `make check`.
#
#   tests/guest/deadlock-demo.sh [-n RUNS] [-t TIMEOUT] [-k] [TEST...]
#
#   -n RUNS     runs per test (default 5)
#   -t TIMEOUT  seconds before a guest counts as hung (default 40)
#   -k          keep the console logs (in build/deadlock-demo/)
#   TEST        0027 and/or 0028 (default both)
#
# Needs `make vm-base` (run first when `make -s vm-base-path` is missing).
# Exit status: 0 when every run of every test hung, 1 otherwise.
set -uo pipefail
cd "$(dirname "$0")/../.."

runs=5 timeout=40 keep=0
while getopts n:t:kh opt; do
	case $opt in
	n) runs=$OPTARG ;;
	t) timeout=$OPTARG ;;
	k) keep=1 ;;
	*) sed -n '12,22s/^# \{0,1\}//p' "$0"; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
tests=("$@")
[ ${#tests[@]} -gt 0 ] || tests=(0027 0028)

O=${O:-build}
SEEDS=${SEEDS:-../shared/seeds/extracted}
KERNEL=${KERNEL:-$(make -s kernel)/vmlinuz}
VM_BASE=${VM_BASE:-$(make -s --no-print-directory O="$O" vm-base-path)}
[ -e "$VM_BASE" ] || { echo "deadlock-demo: no $VM_BASE: run make vm-base" >&2; exit 2; }
[ -r "$SEEDS/sysfs.sh" ] || {
	echo "deadlock-demo: SKIP: no sysfs.sh in $SEEDS (it runs the seed's" \
	     "0027/0028 unfixed): pass SEEDS=DIR, the seed's extracted files" >&2
	exit 4
}

logs=$O/deadlock-demo
files=$(mktemp -d)
trap 'rm -rf "$files"' EXIT
mkdir -p "$logs" "$files/seeds"
cp tests/guest/*.sh "$files/"
cp "$SEEDS"/* "$files/seeds/"

# summary WHAT VALUE...: min, median, max and mean of the values.
summary() {
	local what=$1
	shift
	printf '%s\n' "$@" | sort -n | awk -v what="$what" '
		NF { v[++n] = $1; s += $1 }
		END { printf "  %s: min %.2f, median %.2f, max %.2f, mean %.2f (n=%d)\n",
			     what, v[1], v[int((n + 1) / 2)], v[n], s / n, n }'
}

all_hung=1
for id in "${tests[@]}"; do
	hung=0 clean=0 other=0 onsets=() races=() unloads=() reports=0
	locks=""
	for i in $(seq 1 "$runs"); do
		log=$logs/$id-$i.log
		start=$(date +%s.%N)
		scripts/vm.sh -k "$KERNEL" -i "$VM_BASE" -t "$timeout" \
			-f "$files" -- "bash /mnt/files/deadlock-unfixed.sh $id" \
			>"$log" 2>&1
		rc=$?
		wall=$(awk -v a="$start" -v b="$(date +%s.%N)" \
			'BEGIN { printf "%.1f", b - a }')
		onset=$(sed -n 's/.*@@deadlock-onset \([0-9.]*\)@@.*/\1/p' "$log" | head -n1)
		race=$(sed -n 's/.*@@race-to-deadlock \([0-9.]*\) s, \([0-9]*\) unloads@@.*/\1 \2/p' "$log" | head -n1)
		lock=$(sed -n 's/.*@@deadlock-lock \([a-z]*\)@@.*/\1/p' "$log" | head -n1)
		grep -q 'blocked for more than' "$log" && reports=$((reports + 1))
		if [ $rc -eq 124 ] && [ -n "$onset" ]; then
			hung=$((hung + 1))
			onsets+=("$onset")
			races+=("${race% *}")
			unloads+=("${race#* }")
			locks="$locks ${lock:-?}"
			what="hung on ${lock:-?}: seen stuck at $onset s; race ran ${race% *} s, ${race#* } unloads before it"
		elif [ $rc -eq 0 ] && grep -q '@@no-deadlock' "$log"; then
			clean=$((clean + 1))
			what="no deadlock: the module unloaded"
		else
			other=$((other + 1))
			what="unexpected: vm.sh exit $rc, onset '${onset:-none}'"
		fi
		echo "$id run $i/$runs: $what (guest killed or done after $wall s)"
		[ $keep -eq 1 ] || rm -f "$log"
	done
	echo "$id: hung in $hung of $runs runs ($clean clean, $other other);" \
	     "hung task reports in $reports runs"
	if [ "$hung" -gt 0 ]; then
		summary "from guest command start to the drain seen stuck" "${onsets[@]}"
		summary "from the writer's first store to the deadlocking unload" "${races[@]}"
		summary "unloads that got through first" "${unloads[@]}"
		echo "  lock held by rmmod:$(tr ' ' '\n' <<<"$locks" | sort | uniq -c |
			awk '$2 { printf " %s x%d", $2, $1 }')"
	fi
	[ "$hung" -eq "$runs" ] || all_hung=0
done
[ $keep -eq 1 ] && echo "console logs: $logs/"
[ $all_hung -eq 1 ]
