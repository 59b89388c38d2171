#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# The layers of user/ (docs/design.md, "Layers") and the one rule they
# keep: an #include points down or sideways, never up.  Exit 1 with one
# line per upward include, 0 when there is none.
#
#   scripts/layer-check.sh [ROOT]     ROOT defaults to the project's top
set -euo pipefail

root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root"

# What each directory may include besides itself.  analysis/ sees trace/
# only through the decoded event (record.h) and the name dictionary
# (names.h); the BPF skeleton is for the code that loads it.
allowed() {
	case $1 in
	lib)		echo "" ;;
	cli)		echo "lib" ;;
	trace)		echo "lib" ;;
	analysis)	echo "lib trace/record.h trace/names.h" ;;
	kernel)		echo "lib cli trace observe.skel.h" ;;
	report)		echo "lib cli trace analysis" ;;
	app)		echo "*" ;;
	*)		echo "?" ;;
	esac
}

bad=0
while IFS= read -r file; do
	rel=${file#user/}
	case $rel in
	*/*) layer=${rel%%/*} ;;
	*) continue ;;		# main.c, the entry point, uses everything
	esac
	may=$(allowed "$layer")
	if [ "$may" = "?" ]; then
		echo "$file: directory '$layer' is no layer of docs/design.md: add it to scripts/layer-check.sh"
		bad=1
		continue
	fi
	[ "$may" = "*" ] && continue
	while IFS=: read -r line inc; do
		inc=${inc#*\"}
		inc=${inc%\"*}
		case $inc in
		observe.h) continue ;;		# the BPF ABI: every layer's floor
		"$layer"/*) continue ;;
		esac
		ok=0
		for m in $may; do
			case $inc in
			"$m"|"$m"/*) ok=1 ;;
			esac
		done
		if [ $ok = 0 ]; then
			echo "$file:$line: includes \"$inc\", which is not below $layer/ (it may include: ${may:-nothing but itself})"
			bad=1
		fi
	done < <(grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$file" |
		 sed 's/^\([0-9]*\):.*\("[^"]*"\).*/\1:\2/')
done < <(find user -name '*.[ch]' | sort)

exit $bad
