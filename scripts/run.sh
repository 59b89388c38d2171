#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# `make run TEST=0028`: observe one scenario of the seed's sysfs.sh.
# Natively when this machine can (root, BTF, ftrace, test_sysfs found by
# modprobe), else in the guest.  Until `--test` lands the scenario runs
# through sysfs.sh itself, under `sysfs-observe --attach`.
#
# Environment: O, KERNEL, VM_BASE, TEST (default 0001), SEEDS, FIXED=1
# (load with enable_try_module_get=1), VM_TIMEOUT.
set -uo pipefail
cd "$(dirname "$0")/.."

O=${O:-build}
TEST=${TEST:-0001}
SEEDS=${SEEDS:-../shared/seeds/extracted}
case $TEST in
[0-9][0-9][0-9][0-9]) ;;
*) echo "run: TEST must be a 4-digit test id like 0028, not '$TEST'" >&2
   exit 2 ;;
esac
[ -r "$SEEDS/sysfs.sh" ] || {
	echo "run: no sysfs.sh in $SEEDS: pass SEEDS=DIR (the seed's" \
	     "extracted files)" >&2
	exit 2
}
fixopt=
[ "${FIXED:-0}" = 1 ] && fixopt="echo 'options test_sysfs enable_try_module_get=1' >/etc/modprobe.d/sysfs-observe-run.conf;"
inner="sysfs-observe --attach -- bash SEEDS/sysfs.sh -t $TEST"

native=1
[ "$(id -u)" -eq 0 ] || native=0
[ -r /sys/kernel/btf/vmlinux ] || native=0
[ -r /sys/kernel/tracing/available_filter_functions ] ||
	[ -r /sys/kernel/debug/tracing/available_filter_functions ] || native=0
modinfo test_sysfs >/dev/null 2>&1 || native=0

if [ $native = 1 ]; then
	echo "run: natively on $(uname -r)" >&2
	[ -n "$fixopt" ] && echo "run: FIXED=1 natively: put 'options test_sysfs enable_try_module_get=1' in /etc/modprobe.d yourself" >&2
	exec "$O/bin/sysfs-observe" --attach -- bash "$SEEDS/sysfs.sh" -t "$TEST"
fi
echo "run: this machine cannot load modules or BPF tracing programs here:" \
     "running in the guest" >&2
exec scripts/vm.sh -k "$KERNEL" -i "$VM_BASE" -t "${VM_TIMEOUT:-300}" \
	-f "$SEEDS" -- "$fixopt ${inner/SEEDS/\/mnt\/files}"
