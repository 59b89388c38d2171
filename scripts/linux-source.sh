#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# Prints the path of each PART (a file or a directory of Debian's
# linux-source-6.1, e.g. tools/testing/kunit), one per line.  The tools
# the kernel ships for its own testing (kunit.py's KTAP parser, the
# kselftest runner) are taken from there, never rewritten here.  Taken
# from the knob kernel's unpacked source when it is there; else only
# those parts are extracted from the package (apt-get download, nothing
# installed) into CACHE_DIR/linux-source, once.
#
#   scripts/linux-source.sh [-c CACHE_DIR] PART...
set -euo pipefail

cache=${XDG_CACHE_HOME:-$HOME/.cache}/sysfs-observe
if [ "${1:-}" = -c ]; then cache=$2; shift 2; fi
[ $# -gt 0 ] || { echo "usage: $0 [-c CACHE_DIR] PART..." >&2; exit 2; }
pkg=linux-source-6.1
die() { echo "linux-source: $*" >&2; exit 1; }

# Every part from one tree, or none: a part list is asked for together.
for root in "$cache/kernfs/src/$pkg" "$cache/linux-source/$pkg"; do
	all=1
	for p in "$@"; do [ -e "$root/$p" ] || all=; done
	if [ -n "$all" ]; then
		for p in "$@"; do echo "$root/$p"; done
		exit 0
	fi
done

deb=$(ls "$cache"/kernfs/debs/"$pkg"_*.deb \
	"$cache"/linux-source/debs/"$pkg"_*.deb 2>/dev/null | tail -n1 || true)
if [ -z "$deb" ]; then
	mkdir -p "$cache/linux-source/debs"
	(cd "$cache/linux-source/debs" && apt-get download -qq "$pkg" 2>/dev/null) ||
		die "apt-get download $pkg failed: run 'apt-get update' and retry"
	deb=$(ls "$cache"/linux-source/debs/"$pkg"_*.deb | tail -n1)
fi
echo "linux-source: extracting $* from $(basename "$deb")" >&2
# Parts extracted earlier stay: the new ones join them in a copy that
# replaces the tree only once it is complete.
tmp=$cache/linux-source/$pkg.tmp
rm -rf "$tmp"
mkdir -p "$tmp/$pkg"
[ -d "$cache/linux-source/$pkg" ] && cp -a "$cache/linux-source/$pkg/." "$tmp/$pkg/"
patterns=()
for p in "$@"; do patterns+=("$pkg/$p" "$pkg/$p/*"); done
dpkg-deb --fsys-tarfile "$deb" |
	tar -xO "./usr/src/$pkg.tar.xz" |
	tar -xJ -C "$tmp" --wildcards "${patterns[@]}" 2>/dev/null || true
for p in "$@"; do
	[ -e "$tmp/$pkg/$p" ] || die "$(basename "$deb") has no $p"
done
rm -rf "${cache:?}/linux-source/$pkg"
mv "$tmp/$pkg" "$cache/linux-source/$pkg"
rmdir "$tmp"
for p in "$@"; do echo "$cache/linux-source/$pkg/$p"; done
