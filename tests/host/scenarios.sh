#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# On the host, after tests/guest/scenarios.sh: the KTAP it kept
# (`--test all --format ktap`) read by the kernel's own parser, kunit.py
# parse, the way KernelCI and kselftest users would read it.
out=$(realpath "$1")
ok() { echo "ok - $*"; }
nok() { echo "not ok - $*"; bad=1; }
bad=0

ktap=$out/k.out
[ -s "$ktap" ] || { nok "ktap: the guest kept no $ktap"; exit 1; }
dir=$(scripts/kunit-parser.sh) || { nok "ktap: no kunit.py parser"; exit 1; }
nt=$(grep -m1 '^1\.\.' "$ktap" | cut -c4-)
python3 "$dir/kunit.py" parse "$ktap" >"$out/kunit.txt" 2>&1
rc=$?
sed 's/^/# /' "$out/kunit.txt" | tail -n 4
if [ $rc -eq 0 ]; then ok "kunit.py parse: every test passed or skipped"
else nok "kunit.py parse: exit $rc (see $out/kunit.txt)"; fi
if grep -qE '\[(ERROR|CRASHED)\]' "$out/kunit.txt"; then
	nok "kunit.py parse: KTAP errors: $(grep -m1 -E '\[(ERROR|CRASHED)\]' \
		"$out/kunit.txt")"
else
	ok "kunit.py parse: no KTAP error"
fi
if grep -q "Ran $nt tests" "$out/kunit.txt"; then ok "kunit.py parse: ran $nt tests"
else nok "kunit.py parse: did not count $nt tests"; fi
exit $bad
