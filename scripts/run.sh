#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# `make run TEST=0028 [FIXED=1]`: the main job, `sysfs-observe --test ID`
# (or `all`), natively when this machine can (root, BTF, ftrace, and a
# test_sysfs.ko for the running kernel: installed, or built by make),
# else in the guest.  Exits with the tool's status: 0 pass, 1 a finding
# or a failed test, 2 bad input, 4 this kernel cannot.
#
# Environment (set by make): O, TEST (default 0028), FIXED=1 (--fixed:
# the module's fix, enable_try_module_get=1), ARGS (more options, e.g.
# '-q --format json'), MODULE (the built test_sysfs.ko), RUN_IN=native or
# guest (force one), VM_TIMEOUT.
set -uo pipefail
cd "$(dirname "$0")/.."

O=${O:-build}
TEST=${TEST:-0028}
MODULE=${MODULE:-$O/module/test_sysfs.ko}
case $TEST in
[0-9][0-9][0-9][0-9]|all) ;;
*) echo "run: TEST must be a 4-digit scenario id like 0028, or all," \
	"not '$TEST' (sysfs-observe --list names them)" >&2
   exit 2 ;;
esac
case ${RUN_IN:-} in
''|native|guest) ;;
*) echo "run: RUN_IN must be native or guest, not '$RUN_IN'" >&2
   exit 2 ;;
esac
args=(--test "$TEST")
[ "${FIXED:-0}" = 1 ] && args+=(--fixed)
# ARGS is word-split on purpose: it holds options, like a command line.
# shellcheck disable=SC2206
args+=(${ARGS:-})

# why_not_native: prints the first reason this machine cannot run the
# tool itself, or nothing.  Sets modopt when the module is the built one.
modopt=()
why_not_native() {
	[ "$(id -u)" -eq 0 ] || { echo "not root"; return; }
	[ -r /sys/kernel/btf/vmlinux ] || { echo "no BTF"; return; }
	[ -r /sys/kernel/tracing/available_filter_functions ] ||
		[ -r /sys/kernel/debug/tracing/available_filter_functions ] ||
		{ echo "no ftrace (tracefs)"; return; }
	modinfo test_sysfs >/dev/null 2>&1 && return
	if [ -r "$MODULE" ] && [ "$(modinfo -F vermagic "$MODULE" |
			cut -d' ' -f1)" = "$(uname -r)" ]; then
		modopt=(--module "$MODULE")
		return
	fi
	echo "no test_sysfs.ko for $(uname -r) (make install, or kernel headers)"
}

# report RC WHERE: one closing line that says what the status means.
report() {
	local what
	case $1 in
	0) what="pass" ;;
	1) what="a finding (DEADLOCK-PRONE or a deadlock) or a failed test" ;;
	2) what="bad input" ;;
	4) what="skipped: this kernel cannot" ;;
	124) what="the guest hung and was stopped" ;;
	125) what="the guest died without a status" ;;
	*) what="unexpected" ;;
	esac
	echo "run: sysfs-observe ${args[*]} $2: exit $1 ($what)" >&2
	exit "$1"
}

why=
[ "${RUN_IN:-}" = guest ] || why=$(why_not_native)
if [ "${RUN_IN:-}" = native ] || { [ "${RUN_IN:-}" != guest ] &&
				   [ -z "$why" ]; }; then
	echo "run: natively on $(uname -r)" >&2
	"$O/bin/sysfs-observe" "${args[@]}" "${modopt[@]}"
	report $? natively
fi

[ "${RUN_IN:-}" = guest ] && why="RUN_IN=guest"
echo "run: in the guest ($why here)" >&2
mk=(make -s --no-print-directory O="$O")
"${mk[@]}" vm-base >&2 || { echo "run: building the guest failed" >&2; exit 1; }
base=$("${mk[@]}" vm-base-path) && kernel=$("${mk[@]}" kernel) ||
	{ echo "run: no guest kernel" >&2; exit 1; }
printf -v cmd '%q ' sysfs-observe "${args[@]}"
scripts/vm.sh -k "$kernel/vmlinuz" -i "$base" -t "${VM_TIMEOUT:-300}" -- "$cmd"
report $? "in the guest"
