# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# Sourced by the guest scripts that need the kernfs knob kernel
# (knob-race.sh, knob-attach.sh): where the knobs are, a SKIP (exit 4)
# on any other kernel, and a snapshot of every knob to check that a run
# put them all back.
D=/sys/kernel/debug/kernfs
W=$D/config_fail_kernfs_fop_write_iter
F=$D/fail_kernfs_fop_write_iter

# need_knobs NAME: SKIP this script unless the kernel has the knobs.
need_knobs() {
	[ -d $W ] && [ -d $F ] && return 0
	echo "ok - $1 # SKIP no kernfs knobs in $(uname -r)"
	echo "# SKIP no kernfs knobs in $(uname -r)"
	exit 4
}

knob_state() {
	(cd $D && grep -r . config_fail_kernfs_fop_write_iter \
		fail_kernfs_fop_write_iter sleep_after_wait_ms | sort)
}
save_knobs() { knob_state >/tmp/knobs.before; }
restored() { knob_state | cmp -s - /tmp/knobs.before; }

# held_store_driver FILE PARAMS THEN: a driver script that loads
# test_sysfs with PARAMS (and its own $1), writes test_dev_x once
# unhindered (the writer's half of the cycle), arms one wait after the
# active reference, starts a second write (its status in /tmp/write.rc),
# and once that write is held there (times drops to 0; /tmp/held says
# after how many polls) runs THEN, the other half: a removal that drains
# test_dev_x while the write holds it.
held_store_driver() {
	local dev=/sys/devices/virtual/misc/test_sysfs0
	cat >"$1" <<-DRIVER
	modprobe test_sysfs $2 \$1 || exit 1
	echo 3 >$dev/test_dev_x || exit 1
	echo 1 >$F/interval; echo 100 >$F/probability; echo 0 >$F/verbose
	echo 1 >$F/times; echo 1000 >$D/sleep_after_wait_ms
	echo Y >$W/wait_after_active
	(echo 5 >$dev/test_dev_x; echo "write rc \$?" >/tmp/write.rc) &
	for i in \$(seq 1 200); do
		[ "\$(cat $F/times)" = 0 ] && break
		sleep 0.05
	done
	echo "held after \$i polls" >/tmp/held
	echo N >$W/wait_after_active
	$3
	wait
	DRIVER
}
