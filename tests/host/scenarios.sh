#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# On the host, after tests/guest/scenarios.sh: the KTAP it kept
# (`--test all --format ktap`) read by the kernel's own parser, kunit.py
# parse, the way KernelCI and kselftest users would read it.
. tests/host/lib.sh
out=$(realpath "$1")

ktap=$out/k.out
[ -s "$ktap" ] || { nok "ktap: the guest kept no $ktap"; exit 1; }
nt=$(grep -m1 '^1\.\.' "$ktap" | cut -c4-)
kunit_parse "$ktap" "$out/kunit.txt"
if grep -q "Ran $nt tests" "$out/kunit.txt"; then ok "kunit.py parse: ran $nt tests"
else nok "kunit.py parse: did not count $nt tests"; fi
exit $bad
