#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# `make check`'s runner: host checks, unit tests (plain and ASan+UBSan),
# then guest tests, each in a fresh guest.  Counts every test case, prints
# a line per failure and closes with `N passed, N failed, N skipped`.
#
#   tests/run.sh [GROUP ...]     groups: spdx unit asan fuzz make guest knobs
#                                (default all)
#
# Environment (set by make): O, KERNEL, VM_BASE, VM_TIMEOUT, SEEDS.
set -uo pipefail
cd "$(dirname "$0")/.."

O=${O:-build}
SEEDS=${SEEDS:-../shared/seeds/extracted}
VM_TIMEOUT=${VM_TIMEOUT:-300}
groups=("$@")
[ ${#groups[@]} -gt 0 ] || groups=(spdx unit asan fuzz make guest knobs)

passed=0 failed=0 skipped=0 retried=0
failures=()
logdir=$O/test-logs
mkdir -p "$logdir"

pass() { passed=$((passed + ${2:-1})); echo "ok - $1"; }
fail() { failed=$((failed + ${2:-1})); failures+=("$1"); echo "not ok - $1"; }
skip() { skipped=$((skipped + 1)); echo "ok - $1 # SKIP $2"; }

# A cmocka binary: count its cases from its own summary lines.
run_cmocka() {
	local name=$1 bin=$2 log=$logdir/$1.log np nf
	mkdir -p "$(dirname "$log")"
	"$bin" >"$log" 2>&1
	local rc=$?
	np=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -n1)
	nf=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -n1)
	np=${np:-0} nf=${nf:-0}
	if [ $rc -eq 0 ] && [ "$nf" -eq 0 ] && [ "$np" -gt 0 ]; then
		pass "$name ($np cases)" "$np"
	else
		[ "$nf" -gt 0 ] || nf=1
		passed=$((passed + np))
		fail "$name (exit $rc, $nf failed; see $log)" "$nf"
		grep -E '^\[  (FAILED|ERROR) ' "$log" | head -n 20 | sed 's/^/#   /'
	fi
}

# Includes point down (docs/design.md, "Layers"); the check itself must
# refuse a planted upward include, and a directory it does not know.
check_layers() {
	local tree
	if scripts/layer-check.sh >"$logdir/layers.log" 2>&1; then
		pass "layers: every #include in user/ points down"
	else
		fail "layers: an #include points up (see $logdir/layers.log)"
		sed 's/^/#   /' "$logdir/layers.log" | head -n 20
	fi
	tree=$(mktemp -d)
	mkdir -p "$tree/scripts"
	cp scripts/layer-check.sh "$tree/scripts/"
	cp -r user "$tree/"
	sed -i '0,/^#include "/s//#include "report\/summary.h"\n&/' \
		"$tree/user/analysis/stats.c"
	mkdir "$tree/user/misc" && printf 'int z;\n' >"$tree/user/misc/z.c"
	if "$tree/scripts/layer-check.sh" >"$logdir/layers-self.log" 2>&1; then
		fail "layers: the check passes an upward include"
	elif grep -q 'analysis/stats.c:[0-9]*: includes "report/summary.h"' \
			"$logdir/layers-self.log" &&
	     grep -q "misc/z.c: directory 'misc' is no layer" \
			"$logdir/layers-self.log" &&
	     [ "$(wc -l <"$logdir/layers-self.log")" -eq 2 ]; then
		pass "layers: the check refuses a planted upward include and an unknown directory"
	else
		fail "layers: the check failed for the wrong reason (see $logdir/layers-self.log)"
	fi
	rm -rf "$tree"
}

# The guest retry's signature: consoles of the freeze (as CI saw it in
# guest/hostile, and after the patching, as an attach/detach loop saw
# it, and as SysRq showed it on the knob kernel) match; a soft lockup
# elsewhere, an idle hung guest and a clean run do not.
check_freeze_signature() {
	local d
	d=$(mktemp -d)
	printf '%s\n' '[ 48.6] watchdog: BUG: soft lockup - CPU#0 stuck for 26s! [sysfs-observe:121]' \
		'[ 48.6] RIP: 0010:mutex_lock+0x0/0x30' \
		'[ 48.6]  modify_ftrace_direct_multi+0x3d/0x60' \
		'[ 48.6]  bpf_trampoline_update+0x18b/0x5d0' >"$d/frozen"
	printf '%s\n' '[  336.425944] rcu: INFO: rcu_preempt self-detected stall on CPU' \
		'[  336.452114] RIP: 0010:asm_exc_int3+0x0/0x40' \
		'[  336.452114] RIP: 0010:__mutex_init+0x1/0x30' \
		'[  336.452114]  __alloc_file+0x82/0xd0' >"$d/int3"
	printf '%s\n' '[ 9.1] watchdog: BUG: soft lockup - CPU#1 stuck for 22s! [sh:99]' \
		'[ 9.1] RIP: 0010:kernfs_drain+0x8a/0x130' \
		'[ 9.1]  kernfs_remove_by_name_ns+0x5c/0xa0' >"$d/other"
	printf '%s\n' '@@vm-up 3.4@@' '@@vm-exit 0@@' >"$d/clean"
	# The knob kernel, no lockup detector: vm.sh's SysRq dumps at the
	# deadline, of that freeze and of a guest idle in a sleep.
	printf '%s\n' '[  303.1] sysrq: Show backtrace of all active CPUs' \
		'[  303.1] NMI backtrace for cpu 1' \
		'[  303.1] RIP: 0010:mutex_lock_nested+0x0/0x20' \
		'[  303.1]  rcu_tasks_one_gp+0x2b/0x400' \
		'[  303.1] NMI backtrace for cpu 0' \
		'[  303.1] RIP: 0010:asm_exc_int3+0x0/0x40' \
		'[  303.1] RIP: 0010:mutex_lock_nested+0x1/0x20' \
		'[  303.1]  bpf_tracing_prog_attach+0x268/0x520' >"$d/sysrq-int3"
	printf '%s\n' '[ 42.7] sysrq: Show backtrace of all active CPUs' \
		'[ 42.7] NMI backtrace for cpu 1' \
		'[ 42.7] RIP: 0010:native_safe_halt+0xb/0x10' \
		'[ 42.7] NMI backtrace for cpu 0 skipped: idling at native_safe_halt+0xb/0x10' \
		>"$d/sysrq-idle"
	if tcg_text_patch_freeze "$d/frozen" &&
	   tcg_text_patch_freeze "$d/int3" &&
	   tcg_text_patch_freeze "$d/sysrq-int3" &&
	   ! tcg_text_patch_freeze "$d/other" &&
	   ! tcg_text_patch_freeze "$d/sysrq-idle" &&
	   ! tcg_text_patch_freeze "$d/clean"; then
		pass "guest retry: only a freeze inside kernel text patching is retried"
	else
		fail "guest retry: the freeze signature matches the wrong consoles"
	fi
	rm -rf "$d"
}

group_spdx() {
	if scripts/spdx-check.sh >"$logdir/spdx.log" 2>&1; then
		pass "spdx: every source file carries a known license"
	else
		fail "spdx (see $logdir/spdx.log)"
		sed 's/^/#   /' "$logdir/spdx.log" | head -n 20
	fi
	# The checker itself: a file without a line must fail it.
	local tree
	tree=$(mktemp -d)
	mkdir -p "$tree/scripts" "$tree/LICENSES"
	cp scripts/spdx-check.sh "$tree/scripts/"
	cp -r LICENSES/. "$tree/LICENSES/"
	printf 'int x;\n' >"$tree/bad.c"
	printf '// SPDX-License-Identifier: MIT\nint y;\n' >"$tree/mit.c"
	git -C "$tree" init -q 2>/dev/null
	if "$tree/scripts/spdx-check.sh" >"$logdir/spdx-self.log" 2>&1; then
		fail "spdx: the check passes a tree with unlicensed files"
	elif grep -q "bad.c: no SPDX" "$logdir/spdx-self.log" &&
	     grep -q "mit.c: 'MIT' has no text" "$logdir/spdx-self.log"; then
		pass "spdx: the check rejects a missing line and an unknown license"
	else
		fail "spdx: the check failed for the wrong reason (see $logdir/spdx-self.log)"
	fi
	rm -rf "$tree"
	check_layers
	check_freeze_signature
	# Kernel style for the module (checkpatch of linux-source-6.1).
	if scripts/checkpatch.sh module/test_sysfs.c >"$logdir/checkpatch.log" 2>&1 &&
	   scripts/checkpatch.sh --ignore LINUX_VERSION_CODE,CONSTANT_COMPARISON \
		module/test_sysfs_compat.h >>"$logdir/checkpatch.log" 2>&1; then
		pass "checkpatch --strict: module/ clean"
	else
		fail "checkpatch: module/ (see $logdir/checkpatch.log)"
		grep -E '^(ERROR|WARNING|CHECK)' "$logdir/checkpatch.log" |
			head -n 10 | sed 's/^/#   /'
	fi
}

# The hot programs (every observed mutex call, every write) copy class
# names by the word: a __builtin_memcpy() through a `char *` compiles to
# byte moves, 128 for one name (see name_copy() in bpf/state.bpf.h).
# Counted in the object, so it is a fact of the build, not a timing.
HOT_PROGS="fentry/mutex_lock fentry/mutex_unlock fexit/kernfs_get_active
	   fentry/kernfs_put_active fentry/kernfs_fop_write_iter
	   fexit/kernfs_fop_write_iter"
check_bpf_word_copies() {
	local obj=${1:-$O/bpf/observe.bpf.o} sec dis n bad= seen=0

	for sec in $HOT_PROGS; do
		dis=$(llvm-objdump -d --no-show-raw-insn -j "$sec" "$obj" \
			2>/dev/null)
		# The program is there: a check of nothing passes nothing.
		[ "$(grep -c ':	' <<<"$dis")" -gt 100 ] && seen=$((seen + 1))
		n=$(grep -c '(u8 \*)' <<<"$dis")
		[ "$n" -lt 64 ] || bad+=" $sec ($n byte moves)"
	done
	if [ "$seen" -ne "$(wc -w <<<"$HOT_PROGS")" ]; then
		fail "bpf: hot programs missing from $obj ($seen found)"
	elif [ -n "$bad" ]; then
		fail "bpf: names copied byte by byte in:$bad"
	else
		pass "bpf: the hot programs copy names by the word ($seen programs)"
	fi
}

group_unit() {
	local t
	check_bpf_word_copies
	for t in "$O"/tests/test_*; do
		[ -x "$t" ] || continue
		run_cmocka "unit/$(basename "$t")" "$t"
	done
}

group_asan() {
	local t
	export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
	export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
	for t in "$O"/asan/test_* "$O"/casan/test_*; do
		[ -x "$t" ] || continue
		run_cmocka "$(basename "$(dirname "$t")")/$(basename "$t")" "$t"
	done
}

# tcg_text_patch_freeze LOG: scripts/tcg-freeze.sh (vm.sh stops such a
# guest as soon as its console shows it).
. scripts/tcg-freeze.sh

# vm_said LOG: what vm.sh said of a guest that hung or died, the
# console's last lines (and a hung guest's SysRq dumps) among it, in the
# output itself: CI keeps only that, not the logs a failure points to.
vm_said() {
	grep '^vm:' "$1" | sed 's/^/#   /'
}

# One guest per script: tests/guest/<name>.sh runs inside and prints
# `ok - ...` / `not ok - ...` lines; its exit status must agree.  What
# it leaves in /mnt/out, tests/host/<name>.sh (if any) then checks on the
# host, with tools the guest does not have; its lines count alike.
# tests/host/<name>.before.sh (if any) prepares the guest's files first.
# run_guest NAME [TIMEOUT [must-run]]: must-run turns a skip into a
# failure (the knob kernel was built to have what the test needs).
run_guest() {
	local name=$1 timeout=${2:-$VM_TIMEOUT} must=${3:-} log=$logdir/guest-$1.log
	local files=$O/guest/files out=$logdir/guest-$1.out rc np nf ns
	local host=tests/host/$name.sh outopt=()
	rm -rf "$files" "$out"
	: >"$log"
	mkdir -p "$files/seeds"
	cp tests/guest/*.sh "$files/"
	[ -d "$SEEDS" ] && cp "$SEEDS"/* "$files/seeds/"
	[ -f "$host" ] && outopt=(-o "$out")
	echo "# guest: $name (timeout ${timeout} s)"
	if [ -f "tests/host/$name.before.sh" ] &&
	   ! O=$O TEST_KDIR=${TEST_KDIR:-} bash "tests/host/$name.before.sh" \
		"$files" >>"$log" 2>&1; then
		fail "guest/$name: tests/host/$name.before.sh failed; see $log"
		return
	fi
	scripts/vm.sh -k "$KERNEL" -i "$VM_BASE" -t "$timeout" -f "$files" \
		"${outopt[@]}" -l "$log.console" -- "bash /mnt/files/$name.sh" \
		>>"$log" 2>&1
	rc=$?
	if [ "$rc" -eq 124 ] && tcg_text_patch_freeze "$log.console"; then
		retried=$((retried + 1))
		echo "# guest/$name: the guest froze while the kernel patched a traced function (TCG); retrying once"
		mv "$log.console" "$log.console.frozen"
		: >"$log"
		rm -rf "$out"
		scripts/vm.sh -k "$KERNEL" -i "$VM_BASE" -t "$timeout" \
			-f "$files" "${outopt[@]}" -l "$log.console" \
			-- "bash /mnt/files/$name.sh" >>"$log" 2>&1
		rc=$?
	fi
	if [ -f "$host" ] && [ "$rc" -eq 0 ]; then
		bash "$host" "$out" >>"$log" 2>&1 || rc=1
	fi
	tr -d '\r' <"$log" >"$log.tmp" && mv "$log.tmp" "$log"
	# "ok - x # SKIP why" is a skip, never a pass.
	np=$(grep '^ok - ' "$log" | grep -vc ' # SKIP')
	ns=$(grep '^ok - ' "$log" | grep -c ' # SKIP')
	skipped=$((skipped + ns))
	nf=$(grep -c '^not ok - ' "$log")
	grep -E '^(not )?ok - ' "$log" | sed 's/^/#   /'
	case $rc in
	124) fail "guest/$name: guest hung (VM_TIMEOUT=$timeout); see $log"
	     vm_said "$log" ;;
	125) fail "guest/$name: guest died (panic?); see $log"
	     vm_said "$log" ;;
	4)   # Its own "# SKIP" lines counted already; else the test is one.
	     # A "not ok" is a failure whatever the exit status says.
	     if [ -n "$must" ]; then
		     passed=$((passed + np))
		     fail "guest/$name: skipped on a kernel built for it: $(grep -m1 '^# SKIP' "$log" | cut -c8-)"
	     elif [ "$nf" -gt 0 ]; then
		     passed=$((passed + np))
		     fail "guest/$name: exit 4 (skip) with $nf not ok; see $log" "$nf"
	     elif [ "$ns" -gt 0 ]; then
		     passed=$((passed + np))
		     echo "ok - guest/$name # SKIP ($ns skipped, $np passed)"
	     else
		     skip "guest/$name" "$(grep -m1 '^# SKIP' "$log" | cut -c8-)"
	     fi ;;
	0)   if [ "$nf" -eq 0 ] && [ "$np" -gt 0 ]; then
		     pass "guest/$name ($np cases)" "$np"
	     else
		     fail "guest/$name: exit 0 but $np ok, $nf not ok; see $log"
	     fi ;;
	*)   passed=$((passed + np))
	     fail "guest/$name: exit $rc; see $log" "$((nf > 0 ? nf : 1))" ;;
	esac
}

group_guest() {
	local t
	for t in $GUEST_TESTS; do
		run_guest "${t%%:*}" "$(echo "$t" | sed -n 's/^[^:]*:\([0-9]*\)$/\1/p')"
	done
}
# name[:timeout]; the order is the order of the issues.
GUEST_TESTS=${GUEST_TESTS:-"smoke:120 module-basics:120 negative-control:240 install:180
	sysfs-sh:600 deadlock-fixed:120 observe-0018:240 verdict-fixed:300
	verdict-unfixed:240 verdict-unfixed-0028:240 verdict-unfixed-stream:240
	verdict-unfixed-seed:240
	verdict-all:900 quiet-counts:240 edge-overflow:300 edge-counts:300
	output-pipe:180
	hostile:240 record-all:700 path-filter:180 unload-stuck:300
	json-stdout:300 static-mutex:240 reset-prone:240 svg:300 driver-kill:240
	probe-fallback:240 kselftest:600
	scenarios:900"}

# The kernfs knob kernel (kernfs/, with lockdep): built here when the cache lacks it
# (about 21 min on 2 cores; a cached build is a no-op), then its own
# initramfs (the module built against it), then KNOB_GUEST_TESTS booted on
# it; knob-skip on the stock kernel checks that the same scenarios SKIP
# there.  KNOBS_SKIP_BUILD=1 skips the group when the kernel is not cached.
KNOB_GUEST_TESTS=${KNOB_GUEST_TESTS:-"knob-race:900 knob-attach:300
	knob-timeline:200 knob-deadlock:240 lockdep-agree:300
	lockdep-agree-0028:300 lockdep-agree-gated:400
	lockdep-agree-reset:300 kselftest:600"}
group_knobs() {
	local kdir t log=$logdir/kernfs-kernel.log t0
	local KERNEL=${KERNEL:-} VM_BASE=${VM_BASE:-} TEST_KDIR=

	# Run by hand, not by make: the stock guest and its initramfs.
	if [ -z "$KERNEL" ] || [ -z "$VM_BASE" ]; then
		KERNEL=$(make -s --no-print-directory O="$O" kernel)/vmlinuz
		VM_BASE=$(make -s --no-print-directory O="$O" vm-base-path)
		make -s --no-print-directory O="$O" vm-base >>"$log" 2>&1 ||
			{ fail "knobs: the stock initramfs (see $log)"; return; }
	fi
	run_guest knob-skip 300
	if [ -n "${KNOBS_SKIP_BUILD:-}" ] &&
	   [ ! -e "${XDG_CACHE_HOME:-$HOME/.cache}/sysfs-observe/kernfs/O/.stamp" ]; then
		skip "knobs: the knob kernel" "not cached and KNOBS_SKIP_BUILD=1"
		return
	fi
	t0=$(date +%s)
	if ! kdir=$(make -s --no-print-directory O="$O" kernfs-kernel \
		    2>"$log"); then
		fail "knobs: make kernfs-kernel failed (see $log)"
		tail -n 5 "$log" | sed 's/^/#   /'
		return
	fi
	kdir=$(echo "$kdir" | tail -n 1)
	echo "# knob kernel: $kdir ($(( $(date +%s) - t0 )) s)"
	KERNEL=$kdir/arch/x86/boot/bzImage
	TEST_KDIR=$kdir		# what a test installs is built for it
	if ! VM_BASE=$(make -s --no-print-directory O="$O" KERNEL="$KERNEL" \
		       KDIR="$kdir" vm-base-path) ||
	   ! make -s --no-print-directory O="$O" KERNEL="$KERNEL" \
		KDIR="$kdir" vm-base >>"$log" 2>&1; then
		fail "knobs: the knob kernel's initramfs (see $log)"
		return
	fi
	for t in $KNOB_GUEST_TESTS; do
		run_guest "${t%%:*}" \
			"$(echo "$t" | sed -n 's/^[^:]*:\([0-9]*\)$/\1/p')" must-run
	done
}

# Each libFuzzer harness (make fuzz) for FUZZ_SECS on a copy of the
# corpus: any sanitizer report or crash fails it.  The copy grows with
# what the run found and is thrown away (the corpus in git stays small).
FUZZ_SECS=${FUZZ_SECS:-60}
group_fuzz() {
	local f name log corpus rc runs
	for f in "$O"/fuzz/fuzz_*; do
		[ -x "$f" ] || continue
		name=$(basename "$f")
		log=$logdir/$name.log
		corpus=$(mktemp -d)
		cp tests/fuzz/corpus/* "$corpus/"
		# stderr of the target is closed (a bad trace's error line per
		# run); sanitizer reports still print.
		"$f" -max_total_time="$FUZZ_SECS" -close_fd_mask=2 \
			-max_len=65536 -timeout=20 \
			-artifact_prefix="$logdir/$name-" "$corpus" >"$log" 2>&1
		rc=$?
		runs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$log")
		if [ $rc -eq 0 ] && [ "${runs:-0}" -gt 0 ]; then
			pass "$name: ${runs} runs in ${FUZZ_SECS} s, no crash"
		else
			fail "$name: exit $rc after ${runs:-0} runs (see $log)"
			grep -m3 -E 'ERROR|runtime error|SUMMARY' "$log" | sed 's/^/#   /'
		fi
		rm -rf "$corpus"
	done
	[ -n "${name:-}" ] || fail "fuzz: no harness built (make fuzz)"
}

# The make targets a user meets first: install/uninstall into DESTDIR,
# `make vm` handing CMD to the guest's shell untouched, and the README's
# `make run` (natively where this machine can, else in the guest).
# The bench's table (make bench prints it in the guest, figures only) on
# fixed figures: medians, min-max and ratios to bare.
check_bench_table() {
	local d out
	d=$(mktemp -d)
	printf '%s\n' "bare w1 1 100" "bare w1 2 300" "bare w1 3 200" \
		"quiet w1 1 50" "quiet w1 2 70" "quiet w1 3 60" \
		"bare mod 1 8.25" "bare mod 2 8.5" "quiet mod 1 6.375" \
		"quiet mod 2 6.125" >"$d/results"
	printf '%s\n' "quiet 1 5 0.50 1048576" "quiet 2 7 0.70 1048576" \
		"quiet 3 9 0.90 1048576" >"$d/costs"
	out=$(bash tests/bench/guest-bench.sh --table "bare quiet" \
		"$d/results" "$d/costs" 2>&1)
	rm -rf "$d"
	if grep -Eq '^bare +w1 +200 +100-300 +1\.00$' <<<"$out" &&
	   grep -Eq '^quiet +w1 +60 +50-70 +0\.30$' <<<"$out" &&
	   grep -Eq '^quiet +mod +6\.2 +6\.1-6\.4 +0\.75$' <<<"$out" &&
	   grep -Eq '^quiet +7 +0\.70 +1\.0 MiB$' <<<"$out"; then
		pass "bench: the table shows medians, spreads and ratios"
	else
		fail "bench: the table of fixed figures is wrong:"
		sed 's/^/#   /' <<<"$out"
	fi
	# make bench's host half: it once stopped linking unnoticed.
	if make -s --no-print-directory O="$O" "$O/bench/analysis_bench" \
			>"$logdir/analysis-bench.log" 2>&1 &&
	   "$O/bench/analysis_bench" >>"$logdir/analysis-bench.log" 2>&1; then
		pass "bench: the analysis bench builds and runs"
	else
		fail "bench: the analysis bench (see $logdir/analysis-bench.log)"
	fi
}

# Exit codes by kind (issue 14), for what needs no kernel: 2 for the
# user's input and outputs, 1 for a finding, 0 only when all was written.
# --format json against docs/summary.schema.json, by Debian's
# python3-jsonschema: the golden summary, both golden traces replayed
# (one PRONE, one GATED), and a negative control (an undocumented member,
# as the "?" once was) that the validator must refuse.
check_json_schema() {
	local d log=$logdir/json-schema.log t out
	d=$(mktemp -d)
	: >"$log"
	for t in 0028 0028-fixed; do
		"$O/bin/sysfs-observe" report -i "tests/golden/traces/$t.data" \
			--format json >"$d/$t.json" 2>>"$log"
	done
	/usr/bin/python3 - tests/golden/summary_0028.json "$d/bad.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
doc["losses"]["?"] = 0
json.dump(doc, open(sys.argv[2], "w"))
PY
	if scripts/json-check.sh tests/golden/summary_0028.json \
			"$d/0028.json" "$d/0028-fixed.json" >>"$log" 2>&1; then
		pass "json schema: the golden summary and two replayed traces validate"
	else
		fail "json schema: $(grep -v ': valid$' "$log" | head -n 1)"
	fi
	out=$(scripts/json-check.sh "$d/bad.json" 2>&1)
	if [ $? -eq 1 ] && grep -q "losses.*'?'" <<<"$out"; then
		pass "json schema: an undocumented member is refused"
	else
		fail "json schema: the validator took an undocumented member: $out"
	fi
	rm -rf "$d"
}

check_exit_codes() {
	local bin d good=tests/golden/traces/0028.data
	local row want cmd got bad=0
	bin=$(cd "$O" && pwd)/bin/sysfs-observe
	d=$(mktemp -d)
	head -c 100 "$good" >"$d/truncated"
	mkfifo "$d/fifo"
	while IFS='|' read -r want cmd; do
		got=$(cd "$d" && timeout 10 bash -c "$cmd" >/dev/null 2>&1; echo $?)
		row=${cmd//$bin/sysfs-observe}
		row="exit $got (want $want): ${row//$PWD\//}"
		if [ "$got" = "$want" ]; then
			pass "exit codes: $row"
		else
			fail "exit codes: $row"
			bad=1
		fi
	done <<EOF_MATRIX
0|$bin --list
0|$bin --help
0|$bin report -i $PWD/tests/golden/traces/0028-fixed.data
1|$bin report -i $PWD/$good
2|$bin --no-such-option
2|$bin report -i missing.data
2|$bin report -i /dev/null
2|$bin report -i truncated
2|$bin report -i fifo
2|$bin --list >/dev/full
2|$bin report -i $PWD/$good >/dev/full
2|$bin --attach --ringbuf-kib 5
2|$bin --attach --map-nr-entries 63
2|$bin --attach --map-nr-entries 1048577
2|$bin --attach --map-nr-entries abc
2|$bin --attach --map-nr-entries ''
2|$bin report -i $PWD/tests/golden/traces/0028-fixed.data --ringbuf-kib 64
2|$bin --list --map-nr-entries 128
0|setpriv --reuid=65534 --regid=65534 --clear-groups $bin report -i $PWD/tests/golden/traces/0028-fixed.data
2|setpriv --reuid=65534 --regid=65534 --clear-groups $bin report -i $PWD/tests/golden/traces/0028-fixed.data --addresses
0|$bin report -i $PWD/tests/golden/traces/0028-fixed.data --addresses
2|$bin report -i $PWD/tests/golden/traces/0028-fixed.data --svg $PWD/no/such/dir/x.svg
2|ln -s target link.svg; $bin report -i $PWD/tests/golden/traces/0028-fixed.data --svg link.svg
EOF_MATRIX
	rm -rf "$d"
	return $bad
}

# make kselftest-install: the kernel's layout, a second install that
# keeps other collections' lines and writes ours once, and the skip path
# run by the kernel's runner here (the module is the guest kernel's, not
# this machine's: every test must skip, saying why).  The guest test
# kselftest runs the same collection for real.
check_kselftest_install() {
	local tmp log=$logdir/kselftest-install.log got want out
	tmp=$(mktemp -d)
	echo "other:test.sh" >"$tmp/kselftest-list.txt"
	if ! make -s --no-print-directory O="$O" kselftest-install \
			KSFT_INSTALL_PATH="$tmp" >"$log" 2>&1 ||
	   ! make -s --no-print-directory O="$O" kselftest-install \
			KSFT_INSTALL_PATH="$tmp" >>"$log" 2>&1; then
		fail "make kselftest-install (see $log)"
		rm -rf "$tmp"
		return
	fi
	got=$(cd "$tmp" && find . ! -type d | sort | tr '\n' ' ')
	want="./kselftest-list.txt ./kselftest/module.sh ./kselftest/prefix.pl"
	want+=" ./kselftest/runner.sh ./run_kselftest.sh ./sysfs_observe/config"
	want+=" ./sysfs_observe/knobs.sh ./sysfs_observe/ksft_lib.sh"
	want+=" ./sysfs_observe/scenarios.sh ./sysfs_observe/settings"
	want+=" ./sysfs_observe/smoke.sh ./sysfs_observe/sysfs-observe"
	want+=" ./sysfs_observe/test_sysfs.ko "
	if [ "$got" = "$want" ]; then
		pass "make kselftest-install: the kernel's layout, our collection"
	else
		fail "make kselftest-install: got '$got', want '$want'"
	fi
	got=$(tr '\n' ' ' <"$tmp/kselftest-list.txt")
	want="other:test.sh sysfs_observe:smoke.sh sysfs_observe:scenarios.sh sysfs_observe:knobs.sh "
	if [ "$got" = "$want" ]; then
		pass "kselftest-list.txt: other collections kept, ours once"
	else
		fail "kselftest-list.txt: got '$got', want '$want'"
	fi
	if [ "$(modinfo -F vermagic "$tmp/sysfs_observe/test_sysfs.ko" |
		cut -d' ' -f1)" = "$(uname -r)" ]; then
		skip "kselftest: the skip path" "the module is built for this kernel"
	else
		out=$(cd "$tmp" && ./run_kselftest.sh -c sysfs_observe | cat)
		echo "$out" >>"$log"
		if [ "$(grep -c '^ok [1-3] selftests: sysfs_observe: .* # SKIP$' \
			<<<"$out")" -eq 3 ] &&
		   [ "$(grep -c '^# 1\.\.0 # SKIP test_sysfs.ko is built for' \
			<<<"$out")" -eq 3 ]; then
			pass "kselftest: on another kernel each test skips, saying why"
		else
			fail "kselftest: the skip path (see $log)"
		fi
	fi
	rm -rf "$tmp"
}

group_make() {
	local tmp log=$logdir/make.log rel got want kdir ver
	check_bench_table
	check_json_schema
	check_exit_codes
	tmp=$(mktemp -d)
	if ! make -s --no-print-directory O="$O" install DESTDIR="$tmp" \
			>"$log" 2>&1; then
		fail "make install DESTDIR (see $log)"
	else
		rel=$(modinfo -F vermagic "$O/module/test_sysfs.ko" | cut -d' ' -f1)
		got=$(cd "$tmp" && find . ! -type d | sort | tr '\n' ' ')
		want="./lib/modules/$rel/extra/test_sysfs.ko"
		want+=" ./usr/local/sbin/sysfs-observe"
		want+=" ./usr/local/share/man/man8/sysfs-observe.8 "
		if [ "$got" = "$want" ]; then
			pass "make install DESTDIR: exactly the binary, man page, module"
		else
			fail "make install DESTDIR: got '$got', want '$want'"
		fi
		if [ -x "$tmp/usr/local/sbin/sysfs-observe" ] &&
		   "$tmp/usr/local/sbin/sysfs-observe" --version >>"$log" 2>&1; then
			pass "the installed sysfs-observe runs (--version)"
		else
			fail "the installed sysfs-observe does not run (see $log)"
		fi
		make -s --no-print-directory O="$O" uninstall DESTDIR="$tmp" \
			>>"$log" 2>&1
		got=$(cd "$tmp" && find . ! -type d | tr '\n' ' ')
		if [ -z "$got" ]; then
			pass "make uninstall DESTDIR removes all install put there"
		else
			fail "make uninstall DESTDIR left: $got"
		fi
	fi
	rm -rf "$tmp"

	check_kselftest_install

	# DKMS builds the module from what dkms-install puts in /usr/src,
	# in trees of its own here (no system state touched).
	tmp=$(mktemp -d)
	mkdir -p "$tmp/dkms"	# dkms wants its tree to exist
	make -s --no-print-directory O="$O" dkms-install DESTDIR="$tmp/root" \
		>>"$log" 2>&1
	kdir=$(make -s --no-print-directory kdir)
	rel=$(sed -n 's/.*UTS_RELEASE "\(.*\)"/\1/p' \
		"$kdir/include/generated/utsrelease.h")
	ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' module/dkms.conf)
	dkms build --dkmstree "$tmp/dkms" --sourcetree "$tmp/root/usr/src" \
		-m test_sysfs -v "$ver" -k "$rel" --kernelsourcedir "$kdir" \
		>"$logdir/dkms.log" 2>&1
	got=$(find "$tmp/dkms" -name test_sysfs.ko | head -n 1)
	if [ -n "$got" ] &&
	   [ "$(modinfo -F vermagic "$got" | cut -d' ' -f1)" = "$rel" ]; then
		pass "dkms build of module/dkms.conf: test_sysfs.ko for $rel"
	else
		fail "dkms build of module/dkms.conf (see $logdir/dkms.log)"
	fi
	rm -rf "$tmp"

	# make vm: $? is the shell's, not make's (a make variable would be
	# the prerequisite list).
	got=$(make -s --no-print-directory O="$O" vm VM_TIMEOUT=120 \
		CMD='false; echo "status=$?"; echo "dollar=$$"' 2>&1 |
		tr -d '\r' | grep -E '^(status|dollar)=')
	if grep -qx 'status=1' <<<"$got" && grep -qE '^dollar=[0-9]+$' <<<"$got"; then
		pass "make vm: CMD reaches the guest's shell untouched"
	else
		fail "make vm CMD='false; echo status=\$?': got '$got'"
	fi

	# A guest that hangs after its command ended (a kernel wedged on
	# purpose cannot power off) is stopped with the command's status,
	# not reported as a hang after VM_TIMEOUT.
	local t0=$SECONDS
	POWEROFF_GRACE=3 scripts/vm.sh -k "$KERNEL" -i "$VM_BASE" -t 120 -- \
		'echo "@@vm-exit 7@@"; echo "@@vm-poweroff@@"; sleep 1000' \
		>"$log.grace" 2>&1
	rc=$?
	if [ $rc -eq 7 ] && [ $((SECONDS - t0)) -lt 110 ] &&
	   grep -q 'did not power off 3 s after' "$log.grace"; then
		pass "vm.sh: a guest stuck in poweroff is stopped, status kept"
	else
		fail "vm.sh: stuck poweroff: exit $rc after $((SECONDS - t0)) s (see $log.grace)"
	fi

	# A guest that hangs is asked for its blocked tasks and its CPUs'
	# stacks before it is stopped, and they reach the console's tail
	# that vm.sh prints (and run_guest passes on to CI's output).
	t0=$SECONDS
	scripts/vm.sh -k "$KERNEL" -i "$VM_BASE" -t 40 -- 'sleep 1000' \
		>"$log.hang" 2>&1
	rc=$?
	if [ $rc -eq 124 ] && grep -q '^vm: guest hung' "$log.hang" &&
	   grep -q '^vm: .*sysrq: Show Blocked State' "$log.hang" &&
	   grep -q '^vm: .*sysrq: Show backtrace of all active CPUs' "$log.hang"; then
		pass "vm.sh: a hung guest's SysRq dumps are in its report"
	else
		fail "vm.sh: hung guest: exit $rc after $((SECONDS - t0)) s, no SysRq dumps (see $log.hang)"
	fi

	# The README's first command, both verdicts.
	make -s --no-print-directory O="$O" run TEST=0028 \
		>"$logdir/make-run.log" 2>&1
	got=$(tr -d '\r' <"$logdir/make-run.log")
	if grep -Eq '^verdict: FAIL: [1-9][0-9]* DEADLOCK-PRONE' <<<"$got" &&
	   grep -q '^run: sysfs-observe --test 0028 .*: exit 1 ' <<<"$got"; then
		pass "make run TEST=0028: DEADLOCK-PRONE, the tool's exit 1 reported"
	else
		fail "make run TEST=0028 (see $logdir/make-run.log)"
	fi
	make -s --no-print-directory O="$O" run TEST=0028 FIXED=1 \
		>"$logdir/make-run-fixed.log" 2>&1
	rc=$?
	got=$(tr -d '\r' <"$logdir/make-run-fixed.log")
	if [ $rc -eq 0 ] && grep -q '^GATED: ' <<<"$got" &&
	   grep -Eq '^verdict: PASS: 0 DEADLOCK-PRONE, [1-9][0-9]* GATED' <<<"$got"; then
		pass "make run TEST=0028 FIXED=1: GATED, exit 0"
	else
		fail "make run TEST=0028 FIXED=1: exit $rc (see $logdir/make-run-fixed.log)"
	fi
	make -s --no-print-directory O="$O" run TEST=28 >"$log.bad" 2>&1
	rc=$?
	if [ $rc -ne 0 ] && grep -q "TEST must be a 4-digit" "$log.bad"; then
		pass "make run TEST=28: refused with the reason"
	else
		fail "make run TEST=28: exit $rc (see $log.bad)"
	fi
}

start=$(date +%s)
for g in "${groups[@]}"; do
	case $g in
	spdx|unit|asan|fuzz|make|guest|knobs) echo "# group: $g"; "group_$g" ;;
	*) echo "run.sh: unknown group '$g' (spdx unit asan fuzz make guest knobs)" >&2
	   exit 2 ;;
	esac
done
echo "# $(( $(date +%s) - start )) s"
# A run where nothing passed proved nothing, whatever it skipped.
[ "$passed" -gt 0 ] || fail "no test passed (${skipped} skipped)"
for f in "${failures[@]}"; do echo "# FAILED: $f"; done
[ "$retried" -eq 0 ] ||
	echo "# $retried guest run(s) retried after a TCG freeze while patching kernel text"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
