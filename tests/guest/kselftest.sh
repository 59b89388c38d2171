#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# Runs in the guest: the installed kselftest collection (make
# kselftest-install, tests/host/kselftest.before.sh) run by the kernel's
# own runner, `run_kselftest.sh -c sysfs_observe`, as KernelCI or LAVA
# would.  On the stock kernel smoke and scenarios pass and knobs skips;
# on the knob kernel all three pass.  The runner's output is kept for
# tests/host/kselftest.sh, which reads it with kunit.py parse.
. /mnt/files/lib.sh
dir=/mnt/files/kselftest
case $(uname -r) in
*sysfs-observe-knobs*) knobs=1 ;;
*) knobs= ;;
esac

check "the list names the collection's three tests" \
	test "$(cd $dir && ./run_kselftest.sh -l | grep -c '^sysfs_observe:')" -eq 3
t0=$(cut -d' ' -f1 /proc/uptime)
# Through a pipe: the runner reopens /dev/stdout for its tests' output,
# which on a regular file would write over its own lines.
# The loops' window halved, through the runner's own per-test arguments
# (what a lab would set): the scenarios' outcomes do not depend on it.
# Each result reaches the console as it comes: when a run hangs, the
# console's tail says which scenario it hung in.
export KSELFTEST_SCENARIOS_SH_ARGS="--window 1"
(cd $dir && ./run_kselftest.sh -c sysfs_observe) | tee /mnt/out/ksft.out |
	grep --line-buffered -E '^(ok|not ok|# (ok|not ok) [0-9]+ sysfs_|# # Totals)' |
	sed -u 's/^/# /'
rc=${PIPESTATUS[0]}
t1=$(cut -d' ' -f1 /proc/uptime)
echo "# run_kselftest.sh -c sysfs_observe: $(awk -v a="$t0" -v b="$t1" \
	'BEGIN{printf "%.0f", b-a}') s"
echo "knobs=${knobs:-0}" >/mnt/out/expect
check "run_kselftest.sh exits 0 (rc $rc)" test "$rc" -eq 0
check "smoke.sh: ok, not skipped" \
	grep -qx 'ok 1 selftests: sysfs_observe: smoke.sh' /mnt/out/ksft.out
check "smoke.sh: scenario 0001 ran and passed" \
	grep -qx '# ok 1 sysfs_0001' /mnt/out/ksft.out
check "scenarios.sh: ok, not skipped" \
	grep -qx 'ok 2 selftests: sysfs_observe: scenarios.sh' /mnt/out/ksft.out
check "scenarios.sh: 28 scenarios planned, 0028 passed" \
	sh -c "grep -q '^# 1\.\.28\$' /mnt/out/ksft.out &&
	       grep -qx '# ok 28 sysfs_0028' /mnt/out/ksft.out"
if [ -n "$knobs" ]; then
	check "knobs.sh: ok, not skipped (knob kernel)" \
		grep -qx 'ok 3 selftests: sysfs_observe: knobs.sh' /mnt/out/ksft.out
	check "knobs.sh: 0029 and 0032 ran and passed" \
		sh -c "grep -qx '# ok 1 sysfs_0029' /mnt/out/ksft.out &&
		       grep -qx '# ok 4 sysfs_0032' /mnt/out/ksft.out"
else
	check "knobs.sh: skipped (no knobs in the stock kernel)" \
		grep -qx 'ok 3 selftests: sysfs_observe: knobs.sh # SKIP' \
		/mnt/out/ksft.out
	check "knobs.sh: each knob scenario says why it skipped" \
		test "$(grep -Ec '^# ok [1-4] sysfs_00(29|3[0-2]) # SKIP .*CONFIG_FAIL_KERNFS_KNOBS' /mnt/out/ksft.out)" -eq 4
fi
# Nothing left behind, after a run that loaded the module (0001 passed
# above) and attached the probes.
check "the module was loaded during the run" \
	sh -c "dmesg | grep -q 'test_sysfs.*interface ready'"
check "nothing left: test_sysfs unloaded" \
	sh -c '! grep -q "^test_sysfs " /proc/modules'
check "nothing left: no sysfs-observe process" \
	sh -c '! pgrep -x sysfs-observe >/dev/null'
check "nothing left: no BPF link ($(bpftool link show 2>/dev/null | grep -c '^[0-9]'))" \
	test "$(bpftool link show 2>/dev/null | grep -c '^[0-9]')" -eq 0
finish
