#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# Runs in the guest: scenario 0018 (block device, module load/unload
# loop against writes) recorded by `sysfs-observe record --test 0018`;
# then `report` of the recording.  The core's acceptance: every kind of
# event is seen with a plausible count, nothing is lost, and the report
# prints the summary the live run printed.
. /mnt/files/lib.sh

# The scenario is the observer's own: under a loaded TCG host the load
# alone can take seconds, and a fixed --duration would then see a
# different part of the scenario each run.
sysfs-observe record -o /tmp/0018.data -q -E 0 --test 0018 >/tmp/live.txt 2>&1
check "observer exit status 0" test $? -eq 0
sed 's/^/# /' /tmp/live.txt | head -n 40

# count TABLE_HEADER_RE NAME_RE COLUMN: a figure from a summary table.
figure() {
	awk -v sec="$1" -v name="$2" -v col="$3" '
		/^# / { insec = index($0, sec) > 0; next }
		insec && $NF ~ name { print $col; exit }' /tmp/live.txt
}
positive() { [ -n "$1" ] && [ "$1" -gt 0 ] 2>/dev/null; }

check "writes to test_dev_x counted" \
	positive "$(figure '# writes' 'kn:test_sysfs0/test_dev_x' 1)"
gets=$(figure '# kernfs active' 'kn:test_sysfs0/test_dev_x' 1)
puts=$(figure '# kernfs active' 'kn:test_sysfs0/test_dev_x' 3)
check "active ref gets on test_dev_x ($gets)" positive "$gets"
check "every get put back ($gets gets, $puts puts)" test "$gets" = "$puts"
check "test_dev_x drained on removal" \
	positive "$(figure '# kernfs active' 'kn:test_sysfs0/test_dev_x' 4)"
check "module loads seen" grep -Eq '^finit_module +[1-9]' /tmp/live.txt
check "module removals seen" grep -Eq '^delete_module +[1-9]' /tmp/live.txt
check "del_gendisk seen" grep -Eq '^del_gendisk +[1-9]' /tmp/live.txt
check "no events lost" grep -q '^# lost events: 0$' /tmp/live.txt

sysfs-observe report -i /tmp/0018.data -E 0 >/tmp/report.txt 2>&1
check "report exit status 0" test $? -eq 0
# The live run's summary runs from its header to the runner's TEST line
# (then TOTAL); the report is only that summary.
sed -n '/^# sysfs-observe/,/^TEST /p' /tmp/live.txt | sed '$d' \
	>/tmp/live-summary.txt
check "the live run printed a summary" grep -q '^verdict: ' /tmp/live-summary.txt
if diff -u /tmp/live-summary.txt /tmp/report.txt >/tmp/diff.txt; then
	ok "report prints the live run's summary"
else
	sed 's/^/# /' /tmp/diff.txt | head -n 30
	not_ok "report prints the live run's summary"
fi
finish
