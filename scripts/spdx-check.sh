#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# Fail when a source file lacks an SPDX line where it belongs (line one,
# or line two after a shebang) or names a license with no text in
# LICENSES/.  Prints one line per offending file and a total.
set -uo pipefail
cd "$(dirname "$0")/.."

valid=$(grep -rh '^Valid-License-Identifier:' LICENSES/ | awk '{print $2}')

# Source files git knows about, plus untracked ones not ignored.
mapfile -t files < <(git ls-files -co --exclude-standard |
	grep -E '(\.(c|h|sh|bpf\.c|mk|py)|/Makefile|^Makefile|/Kbuild|/init|\.ci/run|^scripts/[^.]+)$' |
	grep -v '^LICENSES/')

bad=0
for f in "${files[@]}"; do
	[ -f "$f" ] || continue
	first=$(sed -n 1p "$f")
	if [ "${first#\#!}" != "$first" ]; then
		line=$(sed -n 2p "$f")
	else
		line=$first
	fi
	expr=$(printf '%s\n' "$line" |
	       sed -n 's/^\(\/\/\|\/\*\|#\) *SPDX-License-Identifier: *\(.*\)$/\2/p' |
	       sed 's/ *\*\/ *$//')
	if [ -z "$expr" ]; then
		echo "spdx: $f: no SPDX-License-Identifier on its first line"
		bad=$((bad + 1))
		continue
	fi
	case $f in
	*.c) style='//' ;;
	*.h) style='/*' ;;
	*) style='#' ;;
	esac
	if [ "${line#"$style"}" = "$line" ]; then
		echo "spdx: $f: SPDX line should start with '$style'"
		bad=$((bad + 1))
	fi
	for id in $(printf '%s\n' "$expr" | tr '()' '  ' |
		    sed 's/ OR / /g; s/ AND / /g; s/ WITH [^ ]*//g'); do
		# A here-string, not a pipe: under pipefail, grep -q quitting
		# early can SIGPIPE the writer and fail a valid id (seen once).
		if ! grep -qxF -- "$id" <<<"$valid"; then
			echo "spdx: $f: '$id' has no text in LICENSES/"
			bad=$((bad + 1))
		fi
	done
done
echo "spdx: ${#files[@]} files checked, $bad problems"
[ "$bad" -eq 0 ]
