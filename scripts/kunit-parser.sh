#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# Prints the directory of the kernel's own KTAP parser (tools/testing/
# kunit/kunit.py, `kunit.py parse FILE`), which make check uses to tell
# whether --format ktap is KTAP.  Taken from the knob kernel's unpacked
# linux-source-6.1 when it is there, else only that directory is
# extracted from Debian's linux-source-6.1 package (apt-get download,
# nothing installed) into CACHE_DIR/kunit.
#
#   scripts/kunit-parser.sh [CACHE_DIR]
set -euo pipefail

cache=${1:-${XDG_CACHE_HOME:-$HOME/.cache}/sysfs-observe}
pkg=linux-source-6.1
sub=tools/testing/kunit
die() { echo "kunit-parser: $*" >&2; exit 1; }

for d in "$cache/kernfs/src/$pkg/$sub" "$cache/kunit/$pkg/$sub"; do
	[ -f "$d/kunit.py" ] && { echo "$d"; exit 0; }
done
command -v python3 >/dev/null || die "python3 not found: run scripts/deps.sh"
deb=$(ls "$cache"/kernfs/debs/"$pkg"_*.deb "$cache"/kunit/debs/"$pkg"_*.deb \
	2>/dev/null | tail -n1 || true)
if [ -z "$deb" ]; then
	mkdir -p "$cache/kunit/debs"
	(cd "$cache/kunit/debs" && apt-get download -qq "$pkg" 2>/dev/null) ||
		die "apt-get download $pkg failed: run 'apt-get update' and retry"
	deb=$(ls "$cache"/kunit/debs/"$pkg"_*.deb | tail -n1)
fi
echo "kunit-parser: extracting $sub from $(basename "$deb")" >&2
rm -rf "$cache/kunit/$pkg.tmp"
mkdir -p "$cache/kunit/$pkg.tmp"
dpkg-deb --fsys-tarfile "$deb" |
	tar -xO --wildcards "./usr/src/$pkg.tar.xz" |
	tar -xJ -C "$cache/kunit/$pkg.tmp" --wildcards "$pkg/$sub/*"
[ -f "$cache/kunit/$pkg.tmp/$pkg/$sub/kunit.py" ] ||
	die "$(basename "$deb") has no $sub/kunit.py"
rm -rf "${cache:?}/kunit/$pkg"
mv "$cache/kunit/$pkg.tmp/$pkg" "$cache/kunit/$pkg"
rmdir "$cache/kunit/$pkg.tmp"
echo "$cache/kunit/$pkg/$sub"
