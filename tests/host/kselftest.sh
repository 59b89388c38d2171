#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# On the host, after tests/guest/kselftest.sh: the kernel runner's output
# read by the kernel's own parser, kunit.py parse, as KernelCI reads a
# kselftest run: three tests, two passed and knobs skipped on the stock
# kernel, three passed on the knob kernel.
. tests/host/lib.sh
out=$(realpath "$1")

ksft=$out/ksft.out
[ -s "$ksft" ] || { nok "kselftest: the guest kept no $ksft"; exit 1; }
if grep -qx 'knobs=1' "$out/expect"; then
	want="Ran 3 tests: passed: 3"
else
	want="Ran 3 tests: passed: 2, skipped: 1"
fi
kunit_parse "$ksft" "$out/kunit.txt"
if grep -q "$want\$" "$out/kunit.txt"; then ok "kunit.py parse: $want"
else nok "kunit.py parse: not '$want'"; fi
exit $bad
