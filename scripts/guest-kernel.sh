#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# Fetch Debian's cloud kernel and its headers into the cache and print the
# directory that holds them.  The version is the one apt offers today: the
# archive drops old ABIs, so none is hard-coded.
#
#   guest-kernel.sh CACHE_DIR        -> prints CACHE_DIR/kernel/<release>
#
# Layout of the result:
#   vmlinuz, config, System.map, release
#   root/lib/modules/<release>/...       the kernel's own modules
#   kdir -> root/usr/src/linux-headers-<release>   (KDIR for M= builds)
set -euo pipefail

cache=${1:?usage: guest-kernel.sh CACHE_DIR}
mkdir -p "$cache/kernel"

# Which release does the archive offer?  The metapackage depends on it.
release_file=$cache/kernel/current
if [ -z "${SO_REFRESH:-}" ] && [ -s "$release_file" ] &&
   [ -e "$cache/kernel/$(cat "$release_file")/.done" ]; then
	echo "$cache/kernel/$(cat "$release_file")"
	exit 0
fi

image_pkg=$(apt-cache depends linux-image-cloud-amd64 2>/dev/null |
	    sed -n 's/^ *Depends: \(linux-image-[0-9].*-cloud-amd64\)$/\1/p' |
	    head -n1)
if [ -z "$image_pkg" ]; then
	echo "guest-kernel: apt knows no linux-image-cloud-amd64: run" \
	     "'apt-get update' and try again" >&2
	exit 1
fi
release=${image_pkg#linux-image-}
dir=$cache/kernel/$release
if [ -e "$dir/.done" ]; then
	echo "$release" >"$release_file"
	echo "$dir"
	exit 0
fi

abi=${release%-cloud-amd64}		# 6.1.0-57
major=$(echo "$abi" | cut -d. -f1-2)	# 6.1
pkgs=(linux-image-$release linux-headers-$release
      linux-headers-$abi-common linux-kbuild-$major)

echo "guest-kernel: fetching ${pkgs[*]}" >&2
rm -rf "$dir.tmp"
mkdir -p "$dir.tmp/debs" "$dir.tmp/root"
(cd "$dir.tmp/debs" && apt-get download -qq "${pkgs[@]}" 2>/dev/null) || {
	echo "guest-kernel: apt-get download ${pkgs[*]} failed:" \
	     "run 'apt-get update' and try again" >&2
	exit 1
}
for deb in "$dir.tmp"/debs/*.deb; do
	dpkg-deb -x "$deb" "$dir.tmp/root"
done

# The headers' Makefile includes the common tree by absolute path; point it
# at our copy so M= builds work without installing anything system-wide.
hdr=$dir/root/usr/src/linux-headers-$release
sed -i "s#/usr/src/#$dir/root/usr/src/#" \
	"$dir.tmp/root/usr/src/linux-headers-$release/Makefile"

cp "$dir.tmp/root/boot/vmlinuz-$release" "$dir.tmp/vmlinuz"
cp "$dir.tmp/root/boot/config-$release" "$dir.tmp/config"
cp "$dir.tmp/root/boot/System.map-$release" "$dir.tmp/System.map"
echo "$release" >"$dir.tmp/release"
ln -s "root/usr/src/linux-headers-$release" "$dir.tmp/kdir"
rm -rf "$dir.tmp/debs" "$dir"
mv "$dir.tmp" "$dir"
: "$hdr"
touch "$dir/.done"
echo "$release" >"$release_file"
echo "$dir"
