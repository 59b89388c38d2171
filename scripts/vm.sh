#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# Boot the test guest under QEMU (TCG), run one command in it as root, and
# exit with that command's status.
#
#   vm.sh -k KERNEL_IMAGE -i BASE.cpio [-f FILES_DIR] [-o OUT_DIR]
#         [-t TIMEOUT_S] [-l LOG] [-c CLOCK_ARGS] -- COMMAND
#
# Exit status: the guest command's, or
#   124  the guest did not finish within TIMEOUT_S (hung), or froze in
#        kernel text patching (scripts/tcg-freeze.sh): QEMU killed.  A
#        hung guest is asked first, through SysRq, for its blocked tasks
#        and its CPUs' stacks, which the console's tail then shows.
#   125  the guest died without an exit status (panic, crash, bad boot)
# Both are reported on stderr; neither is a test result.
#
# VM_TCG_THREAD=single runs both vCPUs on one host thread (default multi):
# it avoids a QEMU freeze when kernel text is patched under load, at 2.5
# times the run time (docs/design.md §7).
set -euo pipefail
. "$(dirname "$0")/tcg-freeze.sh"

usage() {
	sed -n '4,20s/^# \{0,1\}//p' "$0" >&2
	exit 2
}

kernel= base= files= outdir= timeout=${VM_TIMEOUT:-300} log=
# The guest's clock: TSC is unstable under TCG, so tests use HPET.  The
# bench passes -c 'tsc=reliable clocksource=tsc' (tests/bench).
clock="tsc=unstable"
while getopts "k:i:f:o:t:l:c:" opt; do
	case $opt in
	k) kernel=$OPTARG ;;
	i) base=$OPTARG ;;
	f) files=$OPTARG ;;
	o) outdir=$OPTARG ;;
	t) timeout=$OPTARG ;;
	l) log=$OPTARG ;;
	c) clock=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ "${1:-}" = "--" ] && shift
[ -n "$kernel" ] && [ -n "$base" ] && [ $# -gt 0 ] || usage
cmd="$*"

[ -e "$kernel" ] || {
	echo "vm: no kernel image at $kernel: run 'make kernel' or pass KERNEL=" >&2
	exit 2
}
case $timeout in
''|*[!0-9]*) echo "vm: VM_TIMEOUT must be whole seconds, not '$timeout'" >&2
	     exit 2 ;;
esac

work=$(mktemp -d "${TMPDIR:-/tmp}/sysfs-observe-vm.XXXXXX")
qpid=
cleanup() {
	if [ -n "$qpid" ] && kill -0 "$qpid" 2>/dev/null; then
		kill -TERM "$qpid" 2>/dev/null || true
		sleep 1
		kill -KILL "$qpid" 2>/dev/null || true
	fi
	rm -rf "$work"
}
trap cleanup EXIT
trap 'echo "vm: interrupted: QEMU stopped" >&2; exit 130' INT TERM
[ -n "$log" ] || log=$work/console.log

# The command and the extra files ride in a second cpio appended to the
# base one: the kernel unpacks concatenated archives in order.
mkdir -p "$work/extra/etc/vm" "$work/extra/mnt/files"
printf '%s\n' "$cmd" >"$work/extra/etc/vm/cmd"
if [ -n "$files" ]; then
	[ -d "$files" ] || { echo "vm: VM_FILES=$files is not a directory" >&2
			     exit 2; }
	cp -a "$files"/. "$work/extra/mnt/files/"
fi
# QEMU's monitor on a pair of FIFOs: how a hung guest is sent SysRq.
# Both held open read-write here as well, so that no open or write ever
# waits for QEMU (nor for a QEMU that is gone); the monitor's few lines
# of echo stay in the pipe.
mkfifo "$work/mon.in" "$work/mon.out"
exec 3<>"$work/mon.in" 4<>"$work/mon.out"
qemu_disk=()
if [ -n "$outdir" ]; then
	touch "$work/extra/etc/vm/out"
	truncate -s 256M "$work/out.img"
	qemu_disk=(-drive "file=$work/out.img,format=raw,if=virtio")
fi
(cd "$work/extra" && find . | cpio -o -H newc --quiet --owner=0:0) \
	>"$work/extra.cpio"
cat "$base" "$work/extra.cpio" >"$work/initrd"

# The log is read while QEMU runs (the poweroff marker below): empty it
# first, or an earlier run's marker in it stops this guest.
: >"$log"

# TCG: no KVM here.  -no-reboot turns the panic=-1 reboot into an exit.
# log_buf_len: the tests read dmesg from a marker on, and the seed's 0027
# prints a line per store, thousands a run: Debian's 128 KiB ring lost the
# marker within one test.  loglevel=5: warnings reach the console, among
# them the stack of a soft lockup, which CI saw once without one.
# The console goes to our stdout and, through QEMU's own logfile, to $log.
start=$(date +%s.%N)
qemu-system-x86_64 -machine pc -accel "tcg,thread=${VM_TCG_THREAD:-multi}" -cpu max -smp 2 -m 1G \
	-display none -no-reboot \
	-chardev "pipe,id=mon,path=$work/mon" -mon chardev=mon,mode=readline \
	-chardev "stdio,id=con,signal=off,logfile=$log" -serial chardev:con \
	-kernel "$kernel" -initrd "$work/initrd" \
	-append "console=ttyS0 panic=-1 quiet loglevel=5 log_buf_len=16M mitigations=off sysrq_always_enabled $clock" \
	"${qemu_disk[@]}" </dev/null &
qpid=$!

# console_tail: the console's last lines on stderr, 150 when a hung
# guest answered SysRq (sysrq_dump), so that its dumps, stacks of both
# CPUs included, are all in them; else 20.
console_tail() {
	local n=20
	grep -q 'sysrq: Show Blocked State' "$log" && n=150
	tr -d '\r' <"$log" | tail -n "$n" | sed 's/^/vm:   /' >&2
}

# Wait for QEMU or the deadline, whichever comes first.  A guest whose
# command has ended (its status and files are out) gets POWEROFF_GRACE
# seconds to power off: a kernel wedged on purpose may never manage it,
# and that is not the command's failure.
# give_up MESSAGE...: stop QEMU, say why with the console's tail, 124.
give_up() {
	kill -TERM "$qpid" 2>/dev/null || true
	sleep 2
	kill -KILL "$qpid" 2>/dev/null || true
	wait "$qpid" 2>/dev/null || true
	qpid=
	echo >&2
	echo "vm: $* Console log: kept below." >&2
	console_tail
	exit 124
}
# sysrq_dump: the console's loglevel raised (SysRq 9: the dumps print at
# KERN_INFO, below the quiet boot's 5), then the tasks blocked in D state
# (w) and a backtrace of every CPU (l): what a deadlock or a wedged
# kernel looks like from inside.  A guest frozen in TCG may not answer.
sysrq_dump() {
	local k
	for k in 9 w l; do
		echo "sendkey alt-sysrq-$k" >&3 || return 0
		sleep 2
	done
	sleep 3
}
deadline=$(( $(date +%s) + timeout ))
grace=${POWEROFF_GRACE:-15}
poweroff_by= polls=0
while kill -0 "$qpid" 2>/dev/null; do
	if [ -z "$poweroff_by" ] &&
	   tail -c 65536 "$log" 2>/dev/null | grep -q '@@vm-poweroff@@'; then
		poweroff_by=$(( $(date +%s) + grace ))
	fi
	if [ -n "$poweroff_by" ] && [ "$(date +%s)" -ge "$poweroff_by" ]; then
		kill -KILL "$qpid" 2>/dev/null || true
		wait "$qpid" 2>/dev/null || true
		qpid= qrc=137
		echo "vm: the guest did not power off ${grace} s after its" \
		     "command ended (a wedged kernel?): QEMU stopped" >&2
		break
	fi
	# Every 5 s: a guest frozen in kernel text patching never recovers
	# (scripts/tcg-freeze.sh); stop it now rather than at the deadline.
	if [ $((++polls % 25)) -eq 0 ] &&
	   tail -c 65536 "$log" >"$work/tail" 2>/dev/null &&
	   tcg_text_patch_freeze "$work/tail"; then
		give_up "the guest froze while its kernel patched a traced" \
			"function (a QEMU TCG hazard, docs/design.md §7): QEMU" \
			"stopped; run it again."
	fi
	if [ "$(date +%s)" -ge "$deadline" ]; then
		sysrq_dump
		give_up "guest hung: no exit status after ${timeout} s" \
			"(VM_TIMEOUT); QEMU killed."
	fi
	sleep 0.2
done
if [ -n "$qpid" ]; then
	wait "$qpid" && qrc=0 || qrc=$?
fi
qpid=

rc=$(tr -d '\r' <"$log" | sed -n 's/^@@vm-exit \([0-9]*\)@@$/\1/p' | tail -n1)
if [ -z "$rc" ]; then
	why="QEMU exit status $qrc"
	grep -q 'Kernel panic' "$log" && why="kernel panic"
	echo "vm: guest died without an exit status ($why). Console log:" >&2
	console_tail
	exit 125
fi

if [ -n "$outdir" ]; then
	mkdir -p "$outdir"
	if grep -q '@@vm-out ok@@' "$log"; then
		tar -C "$outdir" --no-overwrite-dir -xf "$work/out.img" 2>/dev/null ||
			echo "vm: could not unpack the guest's /mnt/out" >&2
	else
		echo "vm: the guest wrote no /mnt/out archive" >&2
	fi
fi
up=$(tr -d '\r' <"$log" | sed -n 's/^@@vm-up \([0-9.]*\)@@$/\1/p')
end=$(date +%s.%N)
printf 'vm: exit %s; kernel to userspace %s s; whole run %.1f s\n' \
	"$rc" "${up:-?}" "$(awk -v a="$start" -v b="$end" 'BEGIN{print b-a}')" >&2
exit "$rc"
