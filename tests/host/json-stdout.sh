#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# On the host, after tests/guest/json-stdout.sh: each stdout it kept is
# one JSON document (python3's parser, which refuses any stray line),
# with the verdict the run printed.
out=$(realpath "$1")
bad=0
ok() { echo "ok - $*"; }
nok() { echo "not ok - $*"; bad=1; }

# judge FILE VERDICT CYCLE_VERDICT
judge() {
	local msg
	if msg=$(python3 - "$1" "$2" "$3" 2>&1 <<'PY'
import json, sys
with open(sys.argv[1]) as f:
    doc = json.load(f)          # the whole file: one document
a = doc["analysis"]
kinds = [c["verdict"] for c in a["cycles"]]
if a["verdict"] != sys.argv[2]:
    sys.exit("verdict %r, expected %r" % (a["verdict"], sys.argv[2]))
if sys.argv[3] not in kinds:
    sys.exit("no %s cycle among %r" % (sys.argv[3], kinds))
PY
	); then
		ok "$(basename "$1"): one JSON document, verdict $2, a $3 cycle"
	else
		nok "$(basename "$1"): $msg"
	fi
}
judge "$out/0027-fixed.json" pass gated
judge "$out/0028.json" fail deadlock-prone
# The live documents against the schema, as make check's replayed ones.
if msg=$(scripts/json-check.sh "$out/0027-fixed.json" "$out/0028.json"); then
	ok "both live documents validate against docs/summary.schema.json"
else
	nok "schema: $(grep -v ': valid$' <<<"$msg" | head -n 1)"
fi
exit $bad
