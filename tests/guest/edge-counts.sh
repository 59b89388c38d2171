#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# Runs in the guest, stock kernel: an edge's count is how many times it
# was taken, although the probes count a repeated attempt on its chain
# or in the task's memo, not on the edge (bpf/held_set.bpf.h, issue 12).
# A shell stores N times into test_dev_x (each store takes the config
# mutex holding the node's active reference), then resets the device
# (the config mutex, then a drain of test_dev_x): the cycle's edge
# kn:test_sysfs0/test_dev_x -> config_mutex must say N times, with and
# without -q, live and from a recording.  Two ways for the counts to
# reach user space: the shell exits first (its memos are flushed by the
# exit probe), or it outlives the session (the loader reads its pending
# memos).  The smallest tables (--map-nr-entries 64) count the same.
. /mnt/files/lib.sh
rmmod test_sysfs 2>/dev/null
grep -q " /sys/kernel/debug debugfs " /proc/mounts ||
	mount -t debugfs none /sys/kernel/debug
dev=/sys/devices/virtual/misc/test_sysfs0
reset=/sys/kernel/debug/test_sysfs/reset_first_test_dev
n=37
modprobe test_sysfs enable_debugfs=1 enable_lock=1 enable_lock_on_rmmod=1 ||
	{ echo "# SKIP no test_sysfs"; exit 4; }
stores="i=0; while [ \$i -lt $n ]; do echo 5 >$dev/test_dev_x;
	i=\$((i + 1)); done; echo 1 >$reset"

# count FILE: the JSON count of the edge test_dev_x -> config_mutex (a
# lock#... here: the module, so its mutex, came before the session).
count() {
	tr -d '\n' <"$1" | grep -o \
	'{"from":"kn:test_sysfs0/test_dev_x","to":"[^"]*","from_mode":"read"[^}]*"count":[0-9]*' |
		head -1 | grep -o '[0-9]*$'
}

reload() {
	rmmod test_sysfs 2>/dev/null
	modprobe test_sysfs enable_debugfs=1 enable_lock=1 \
		enable_lock_on_rmmod=1
}

# The shell exits before the session ends.
for opts in "" "-q" "--map-nr-entries 64"; do
	timeout -k 5 120 sysfs-observe --attach $opts --format json \
		-- sh -c "$stores" >/tmp/ec.json 2>/tmp/ec.err
	check "exited${opts:+, $opts}: a cycle with the edge, count $n (got '$(count /tmp/ec.json)')" \
		test "$(count /tmp/ec.json)" = $n
	reload
done

# Recorded, then reported: the trailer's edges carry the same count.
timeout -k 5 120 sysfs-observe record -o /tmp/ec.data --attach \
	-- sh -c "$stores" >/dev/null 2>&1
sysfs-observe report -i /tmp/ec.data --format json >/tmp/ec-rep.json 2>&1
check "recorded: the report's edge count is $n (got '$(count /tmp/ec-rep.json)')" \
	test "$(count /tmp/ec-rep.json)" = $n
reload

# The shell outlives the session: its memos are still pending.  It
# starts storing once the observer is attached, and the observer stops
# (--duration) while it sleeps.
rm -f /tmp/ec.go /tmp/ec.done
sh -c "while [ ! -e /tmp/ec.go ]; do sleep 0.2; done; $stores
	touch /tmp/ec.done; sleep 120" &
sh=$!
timeout -k 5 120 sysfs-observe --attach --pid $sh --duration 25 \
	--format json >/tmp/ec.json 2>/tmp/ec.err &
obs=$!
for _ in $(seq 300); do
	grep -q observing /tmp/ec.err && break
	sleep 0.2
done
touch /tmp/ec.go
wait $obs
check "alive: the shell stored and reset while observed" test -e /tmp/ec.done
check "alive: the shell outlived the session" kill -0 $sh
check "alive: a cycle with the edge, count $n (got '$(count /tmp/ec.json)')" \
	test "$(count /tmp/ec.json)" = $n
kill $sh 2>/dev/null
finish
