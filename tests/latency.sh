#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# Detection latency of the DEADLOCK-PRONE verdict over N guest boots
# (each unfixed 0027 wedges its kernel): prints each figure and the
# median.  Usage: tests/latency.sh [N]   (after `make vm-base`)
set -u
cd "$(dirname "$0")/.."
n=${1:-10}
files=$(mktemp -d)
cp tests/guest/*.sh "$files/"
kernel=$(make -s kernel)/vmlinuz
base=$(make -s --no-print-directory vm-base-path)
for i in $(seq "$n"); do
	scripts/vm.sh -k "$kernel" -i "$base" -t 120 \
		-f "$files" -- 'bash /mnt/files/latency.sh' 2>/dev/null |
		tr -d '\r' | sed -n 's/^latency_ms //p'
done | sort -n | awk '{ v[NR] = $1; print "run latency_ms " $1 }
	END { if (NR) printf "runs %d median %.1f ms min %.1f max %.1f\n",
		NR, v[int((NR + 1) / 2)], v[1], v[NR] }'
rm -rf "$files"
