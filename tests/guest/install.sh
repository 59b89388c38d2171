#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# Runs in the guest: what `make install DESTDIR=...` put in
# /mnt/files/destdir (tests/host/install.before.sh), installed into the
# guest's root the way a package would.  Why: a user's `sudo make
# install` must leave a test_sysfs that modprobe finds after depmod and a
# binary that runs the main job with it.
. /mnt/files/lib.sh
dest=/mnt/files/destdir
rel=$(uname -r)
ko=$dest/lib/modules/$rel/extra/test_sysfs.ko

check "make install left test_sysfs.ko for $rel" test -s "$ko"
# The initramfs brings its own copy: take it away first, so the module
# modprobe finds below can only be the installed one.
find /lib/modules/"$rel" -name 'test_sysfs.ko*' -delete
depmod -a
check "without the installed module, modprobe test_sysfs fails" \
	sh -c '! modprobe test_sysfs 2>/dev/null'

cp -a "$dest"/lib/modules/. /lib/modules/
depmod -a
check "after depmod, modprobe test_sysfs loads it" modprobe test_sysfs
check "/sys/module/test_sysfs appears" test -d /sys/module/test_sysfs
check "modinfo names the installed file" test "$(modinfo -n test_sysfs)" = \
	"/lib/modules/$rel/extra/test_sysfs.ko"
check "it is the file make install wrote" \
	cmp -s "$ko" "/lib/modules/$rel/extra/test_sysfs.ko"
check "modprobe -r test_sysfs" modprobe -r test_sysfs

bin=$dest/usr/local/sbin/sysfs-observe
check "the installed man page is there" \
	test -s "$dest/usr/local/share/man/man8/sysfs-observe.8"
out=$("$bin" --test 0001 -q 2>&1)
rc=$?
grep -E '^(TEST|TOTAL)' <<<"$out" | sed 's/^/# /'
check "the installed binary runs --test 0001 with it (rc $rc)" \
	test $rc -eq 0
check "... and 0001 passes" grep -q '^TEST 0001 PASS' <<<"$out"
finish
