#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# On the host, after tests/guest/svg.sh: each picture is well-formed XML
# (xmllint), holds both tasks' lanes and both class names, and renders
# in headless Chromium to a PNG that is not blank.
out=$(realpath "$1")
bad=0
ok() { echo "ok - $*"; }
nok() { echo "not ok - $*"; bad=1; }

for name in 0028-fixed 0028; do
	svg=$out/$name.svg
	if msg=$(xmllint --noout "$svg" 2>&1); then
		ok "$name.svg: well-formed XML (xmllint)"
	else
		nok "$name.svg: xmllint: $(head -n 1 <<<"$msg")"
		continue
	fi
	n=$(grep -c 'class="lane">[^<]*/[0-9]*<' "$svg")
	if [ "$n" -ge 2 ]; then ok "$name.svg: task lanes ($n)"
	else nok "$name.svg: $n task lanes, want 2 or more"; fi
	if grep -q '&amp;test_dev-&gt;config_mutex' "$svg" &&
	   grep -q 'kn:test_sysfs0/test_dev_x' "$svg"; then
		ok "$name.svg: both class names"
	else
		nok "$name.svg: a class name is missing"
	fi
	if msg=$(scripts/render-svg.sh "$svg" "$out/$name.png"); then
		ok "$name.svg: $msg"
	else
		nok "$name.svg: $msg"
	fi
done
grep -q '>GATED: ' "$out/0028-fixed.svg" && ok "0028-fixed.svg: GATED" ||
	nok "0028-fixed.svg: no GATED title"
grep -q '>DEADLOCK: ' "$out/0028.svg" && ok "0028.svg: the observed deadlock" ||
	nok "0028.svg: no DEADLOCK panel"
exit $bad
