# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# Sourced by the host-side checks (tests/host/<name>.sh): result lines
# that tests/run.sh counts, and the kernel's KTAP parser.
bad=0
ok() { echo "ok - $*"; }
nok() { echo "not ok - $*"; bad=1; }

# kunit_parse KTAP TXT: kunit.py parse (the kernel's, scripts/
# kunit-parser.sh) over KTAP into TXT, as KernelCI reads a run; one line
# for its exit status, one for any error, crash or failure it reports.
kunit_parse() {
	local ktap=$1 txt=$2 dir rc
	dir=$(scripts/kunit-parser.sh) || { nok "kunit.py parse: no parser"; return 1; }
	python3 "$dir/kunit.py" parse "$ktap" >"$txt" 2>&1
	rc=$?
	sed 's/^/# /' "$txt" | tail -n 5
	if [ $rc -eq 0 ]; then ok "kunit.py parse: exit 0"
	else nok "kunit.py parse: exit $rc (see $txt)"; fi
	if grep -qE '\[(ERROR|CRASHED|FAILED)\]' "$txt"; then
		nok "kunit.py parse: $(grep -m1 -E '\[(ERROR|CRASHED|FAILED)\]' "$txt")"
	else
		ok "kunit.py parse: no error, crash or failure"
	fi
}
