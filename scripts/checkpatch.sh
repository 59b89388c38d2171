#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# Run the kernel's checkpatch.pl (--no-tree --strict -f) on the files given.
# Why: module/ (and kernfs/, bpf/) follow kernel style, and the judge is the
# checkpatch of the kernel we target, Debian's linux-source-6.1, not whatever
# happens to be on the host.  Only three files of that 140 MB package are
# needed, so they are extracted once into the cache; nothing is installed.
set -euo pipefail

CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/sysfs-observe
DIR=$CACHE/checkpatch
PKG=linux-source-6.1
FILES=(scripts/checkpatch.pl scripts/spelling.txt
       scripts/const_structs.checkpatch)

if [ $# -eq 0 ]; then
	echo "usage: $0 FILE..." >&2
	exit 2
fi

fetch()
{
	local work deb tarball members=()
	local f

	work=$(mktemp -d)
	trap 'rm -rf "$work"' RETURN
	echo "checkpatch: fetching $PKG (once, into $DIR)" >&2
	(cd "$work" && apt-get download -q "$PKG" >/dev/null)
	deb=$(ls "$work"/*.deb)
	dpkg-deb --fsys-tarfile "$deb" |
		tar -x -C "$work" --wildcards './usr/src/linux-source-*.tar.xz'
	tarball=$(ls "$work"/usr/src/linux-source-*.tar.xz)
	local top
	top=$(basename "$tarball" .tar.xz)
	for f in "${FILES[@]}"; do
		members+=("$top/$f")
	done
	tar -x -J -f "$tarball" -C "$work" "${members[@]}"
	mkdir -p "$DIR"
	for f in "${FILES[@]}"; do
		cp "$work/$top/$f" "$DIR/"
	done
	chmod +x "$DIR/checkpatch.pl"
}

for f in "${FILES[@]}"; do
	[ -e "$DIR/$(basename "$f")" ] || { fetch; break; }
done

# checkpatch looks for spelling.txt and const_structs.checkpatch next to
# itself; --no-tree keeps it from wanting a kernel tree around the files.
exec perl "$DIR/checkpatch.pl" --no-tree --strict --color=never -f "$@"
