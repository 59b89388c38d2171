#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# Installs the sysfs_observe kselftest collection into DIR, laid out as
# the kernel's `make -C tools/testing/selftests install` lays out its own:
# DIR/run_kselftest.sh and DIR/kselftest/ (the kernel's runner, taken from
# linux-source-6.1, not rewritten; an existing one is kept), the
# collection's lines in DIR/kselftest-list.txt, and DIR/sysfs_observe/
# with the test programs, settings, config, the binary and the module.
# Then `DIR/run_kselftest.sh -c sysfs_observe` runs it, as KernelCI and
# LAVA run any collection.
#
#   scripts/kselftest-install.sh DIR BINARY MODULE.ko
set -euo pipefail

[ $# -eq 3 ] || { echo "usage: $0 DIR BINARY MODULE.ko" >&2; exit 2; }
dir=$1 bin=$2 ko=$3
src=$(cd "$(dirname "$0")/.." && pwd)/tests/kselftest
coll=sysfs_observe
tests="smoke.sh scenarios.sh knobs.sh"

mkdir -p "$dir/$coll"
if [ ! -e "$dir/run_kselftest.sh" ]; then
	parts=$("$(dirname "$0")/linux-source.sh" \
		tools/testing/selftests/run_kselftest.sh \
		tools/testing/selftests/kselftest)
	install -m 0755 "$(sed -n 1p <<<"$parts")" "$dir/run_kselftest.sh"
	mkdir -p "$dir/kselftest"
	cp -p "$(sed -n 2p <<<"$parts")"/* "$dir/kselftest/"
fi
for t in $tests; do
	install -m 0755 "$src/$t" "$dir/$coll/$t"
done
install -m 0644 "$src/ksft_lib.sh" "$src/settings" "$src/config" "$dir/$coll/"
install -m 0755 "$bin" "$dir/$coll/sysfs-observe"
install -m 0644 "$ko" "$dir/$coll/test_sysfs.ko"

# The list: other collections' lines kept, ours (re)written once.
list=$dir/kselftest-list.txt
touch "$list"
{ grep -v "^$coll:" "$list" || true
  for t in $tests; do echo "$coll:$t"; done; } >"$list.new"
mv "$list.new" "$list"
echo "kselftest: $coll installed in $dir ($(uname -m); module for" \
     "$(modinfo -F vermagic "$ko" | cut -d' ' -f1))"
