#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# json-check.sh FILE...: each FILE is one JSON document that validates
# against docs/summary.schema.json, with Debian's python3-jsonschema (a
# real validator, not ours).  Prints one line per file; exit 1 if any
# fails, 4 if the validator is missing.
here=$(dirname "$0")/..
py=/usr/bin/python3
if ! "$py" -c 'import jsonschema' 2>/dev/null; then
	echo "json-check: no python3-jsonschema (apt install python3-jsonschema)"
	exit 4
fi
exec "$py" - "$here/docs/summary.schema.json" "$@" <<'PY'
import json, sys
import jsonschema

with open(sys.argv[1]) as f:
    schema = json.load(f)
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)
summary = jsonschema.Draft202012Validator(
    {"$ref": "#/$defs/summary", "$defs": schema["$defs"]})
bad = 0
for path in sys.argv[2:]:
    try:
        with open(path) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        print("%s: not one JSON document: %s" % (path, e))
        bad = 1
        continue
    # The root's oneOf (one summary, or an array of them) would report
    # any error as "the top is not valid": validate each summary alone.
    errors = list(validator.iter_errors(doc)) and [
        e for i, d in enumerate(doc if isinstance(doc, list) else [doc])
        for e in summary.iter_errors(d)] or []
    if not errors and not validator.is_valid(doc):
        errors = list(validator.iter_errors(doc))
    for e in errors[:5]:
        where = "/".join(str(p) for p in e.absolute_path) or "(top)"
        print("%s: %s: %s" % (path, where, e.message[:200]))
    if errors:
        bad = 1
    else:
        print("%s: valid" % path)
sys.exit(bad)
PY
