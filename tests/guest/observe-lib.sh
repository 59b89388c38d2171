# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# Sourced by the guest scripts that judge sysfs-observe's verdicts: run
# one sysfs.sh scenario under `sysfs-observe --attach` and keep the
# observer's output and exit status.
SYSFS_SH=/mnt/files/seeds/sysfs.sh
[ -r $SYSFS_SH ] || { echo "# SKIP no seeds/sysfs.sh"; exit 4; }

# observe_test ID FIXED(0|1): the observer runs the scenario as its
# command; a deadlocked scenario never ends, so the observer must.
# Sets obs_rc, obs_out (file), obs_secs.
observe_test() {
	local id=$1 fixed=$2 t0 t1
	if [ "$fixed" = 1 ]; then
		echo "options test_sysfs enable_try_module_get=1" \
			>/etc/modprobe.d/observe-fixed.conf
	else
		rm -f /etc/modprobe.d/observe-fixed.conf
	fi
	obs_out=/tmp/observe-$id-$fixed.txt
	t0=$(cut -d' ' -f1 /proc/uptime)
	timeout -k 5 120 sysfs-observe --attach -q -- \
		bash $SYSFS_SH -t "$id" >"$obs_out" 2>&1
	obs_rc=$?
	t1=$(cut -d' ' -f1 /proc/uptime)
	obs_secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.1f", b-a}')
	grep -E 'GATED|PRONE|DEADLOCK|^verdict' "$obs_out" | head -n 12 |
		sed 's/^/# /'
}
