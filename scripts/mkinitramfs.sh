#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# Build the guest's base initramfs: busybox, the GNU tools sysfs.sh needs
# (copied from this Debian host with their shared libraries), the kernel
# modules the guest loads, the project's binaries and test_sysfs.ko, with a
# modules.dep so that modprobe finds everything.
#
#   mkinitramfs.sh OUT.cpio RELEASE MODROOT BIN_DIR [MODULE.ko ...]
#
# MODROOT holds lib/modules/RELEASE of the guest kernel; empty when the
# kernel has what the guest needs built in.
set -euo pipefail

out=${1:?usage: mkinitramfs.sh OUT.cpio RELEASE MODROOT BIN_DIR [KO...]}
release=${2:?}
modroot=${3-}
bindir=${4:?}
shift 4
here=$(cd "$(dirname "$0")" && pwd)
stage=$out.d
rm -rf "$stage"
mkdir -p "$stage"/{bin,sbin,usr/bin,usr/sbin,usr/local/bin,lib64,etc/vm} \
	 "$stage"/{proc,sys,dev,tmp,run,root,mnt/files,mnt/out,var/log}

# busybox provides the base system; GNU tools shadow it in /usr/bin.
cp /bin/busybox "$stage/bin/busybox"
for applet in $(/bin/busybox --list); do
	[ -e "$stage/bin/$applet" ] || ln -s busybox "$stage/bin/$applet"
done

copy_with_libs() {
	local f=$1 dest=$2
	cp -L "$f" "$stage$dest"
	{ ldd "$f" 2>/dev/null || true; } | awk '/=> \//{print $3} /^\t\/lib/{print $1}' |
	while read -r lib; do
		[ -e "$stage$lib" ] && continue
		mkdir -p "$stage$(dirname "$lib")"
		cp -L "$lib" "$stage$lib"
	done
}

# What sysfs.sh and the harness use; busybox's versions differ in ways
# that break it (sed's 0,/re/ address, no getconf).  bpftool: the tests
# check that no BPF link outlives the tool.
gnu_tools=(bash perl kmod diff cmp getconf dmesg mawk sed grep egrep
	   fgrep which find xargs ps pkill pgrep timeout bpftool)
for t in $(dpkg -L coreutils | grep -E '^/(usr/)?bin/[^/]+$'); do
	copy_with_libs "$t" /usr/bin/
done
for t in "${gnu_tools[@]}"; do
	p=$(PATH=$PATH:/usr/sbin:/sbin type -P "$t") || { echo "mkinitramfs: $t not found:" \
				  "run scripts/deps.sh" >&2; exit 1; }
	copy_with_libs "$p" /usr/bin/
done
# The bench's peer (make bench), when libbpf-tools is installed.
for t in klockstat; do
	p=$(PATH=$PATH:/usr/sbin:/sbin type -P "$t") &&
		copy_with_libs "$p" /usr/bin/
done
# perl's core modules (perl-base's, 5 MB): the kernel's kselftest runner
# prefixes its tests' output with kselftest/prefix.pl (strict, IO::Handle).
perl_lib=$(perl -e 'print grep { m{/perl-base$} } @INC')
[ -d "$perl_lib" ] || { echo "mkinitramfs: no perl-base in perl's @INC" >&2; exit 1; }
mkdir -p "$stage$(dirname "$perl_lib")"
cp -a "$perl_lib" "$stage$perl_lib"
ln -sf mawk "$stage/usr/bin/awk"
ln -sf ../usr/bin/bash "$stage/bin/bash"
for k in modprobe insmod rmmod lsmod depmod modinfo; do
	ln -sf ../bin/kmod "$stage/usr/sbin/$k"
done

# Kernel modules: the output disk's drivers and ours, with a modules.dep.
mdest=$stage/lib/modules/$release
mkdir -p "$mdest/kernel" "$mdest/extra"
if [ -n "$modroot" ]; then
	mroot=$modroot/lib/modules/$release
	cp "$mroot"/modules.builtin* "$mroot"/modules.order "$mdest/"
	for m in virtio virtio_ring virtio_pci virtio_pci_legacy_dev \
		 virtio_pci_modern_dev virtio_blk; do
		f=$(find "$mroot/kernel" -name "$m.ko*" | head -n1)
		[ -n "$f" ] || { echo "mkinitramfs: $m.ko not in $mroot" >&2
				 exit 1; }
		rel=${f#"$mroot"/}
		mkdir -p "$mdest/$(dirname "$rel")"
		cp "$f" "$mdest/$rel"
	done
fi
for ko in "$@"; do
	cp "$ko" "$mdest/extra/"
done
depmod -b "$stage" "$release"

# The project's binaries, on PATH.
if [ -d "$bindir" ]; then
	find "$bindir" -maxdepth 1 -type f -perm -u+x \
		-exec cp {} "$stage/usr/local/bin/" \;
fi

cp "$here/guest/init" "$stage/init"
chmod +x "$stage/init"
echo "root:x:0:0:root:/root:/bin/bash" >"$stage/etc/passwd"
echo "root:x:0:" >"$stage/etc/group"
mkdir -p "$stage/etc/modprobe.d"

(cd "$stage" && find . -print0 | LC_ALL=C sort -z |
	cpio --null -o -H newc --quiet --owner=0:0) >"$out.tmp"
mv "$out.tmp" "$out"
rm -rf "$stage"
