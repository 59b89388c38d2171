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
