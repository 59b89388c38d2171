#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# Build the knob kernel (knobs and lockdep): Debian's linux-source-6.1 with kernfs/patches/*
# applied, configured from x86_64_defconfig + kvm_guest.config +
# kernfs/config.fragment, built out of tree.  Prints the O= directory:
#
#   kernfs/build.sh [CACHE_DIR]      -> CACHE_DIR/kernfs/O
#
#   O/arch/x86/boot/bzImage          the guest kernel (KERNEL=)
#   O/                               KDIR= for module/ (make -C O M=...)
#
# CACHE_DIR defaults to ${XDG_CACHE_HOME:-$HOME/.cache}/sysfs-observe.
# Nothing is installed: the source package is fetched with apt-get
# download.  A second run with the same patches, fragment and source
# package does nothing; a changed patch or fragment rebuilds incrementally
# (old patches reverted, new ones applied, so only what they touch is
# rebuilt).  SO_REFRESH=1 fetches the newest linux-source-6.1 again.
# Make's output goes to CACHE_DIR/kernfs/build.log.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
cache=${1:-${XDG_CACHE_HOME:-$HOME/.cache}/sysfs-observe}
top=$cache/kernfs
pkg=linux-source-6.1
src=$top/src/$pkg
out=$top/O
log=$top/build.log
fragment=$here/config.fragment
patches=("$here"/patches/*.patch)
jobs=${JOBS:-$(nproc)}

# Options without which the kernel is useless to us: the build fails if
# olddefconfig dropped one of them (a missing dependency, a typo).
required=(FAIL_KERNFS_KNOBS FAULT_INJECTION FAULT_INJECTION_DEBUG_FS
	  DEBUG_FS BPF_SYSCALL BPF_JIT DEBUG_INFO_BTF DEBUG_INFO_BTF_MODULES
	  KPROBES FUNCTION_TRACER DYNAMIC_FTRACE MODULES MODULE_UNLOAD
	  DEVTMPFS BLK_DEV_INITRD SERIAL_8250_CONSOLE VIRTIO_PCI VIRTIO_BLK
	  PROVE_LOCKING DEBUG_LOCK_ALLOC)

say() { echo "kernfs-build: $*" >&2; }
die() { say "$*"; exit 1; }

[ -e "${patches[0]}" ] || die "no patches in $here/patches"
missing=()
for tool in gcc make flex bison bc perl pahole xz dpkg-deb patch; do
	command -v "$tool" >/dev/null || missing+=("$tool")
done
[ -e /usr/include/gelf.h ] || missing+=(libelf-dev)
[ -e /usr/include/openssl/opensslv.h ] || missing+=(libssl-dev)
[ ${#missing[@]} -eq 0 ] ||
	die "missing build tools: ${missing[*]}: install them (Debian:" \
	    "apt-get install flex bison bc dwarves libelf-dev libssl-dev)"
mkdir -p "$top"
exec 9>"$top/.lock"
flock -n 9 || { say "another build holds $top/.lock: waiting"; flock 9; }

# 1. The source package, fetched once.
deb=$(ls "$top"/debs/"$pkg"_*.deb 2>/dev/null | tail -n1 || true)
if [ -z "$deb" ] || [ -n "${SO_REFRESH:-}" ]; then
	say "fetching $pkg (apt-get download)"
	rm -rf "$top/debs.tmp"
	mkdir -p "$top/debs.tmp"
	(cd "$top/debs.tmp" && apt-get download -qq "$pkg" 2>/dev/null) ||
		die "apt-get download $pkg failed: run 'apt-get update' and" \
		    "try again"
	rm -rf "$top/debs"
	mv "$top/debs.tmp" "$top/debs"
	deb=$(ls "$top"/debs/"$pkg"_*.deb | tail -n1)
fi

# The stamp names everything the build depends on.
stamp=$( { basename "$deb"; cat "${patches[@]}" "$fragment"; } |
	 sha256sum | cut -c1-16)
if [ -e "$out/.stamp" ] && [ "$(cat "$out/.stamp")" = "$stamp" ] &&
   [ -e "$out/arch/x86/boot/bzImage" ]; then
	echo "$out"
	exit 0
fi

# 2. The source tree, unpacked once per source package.
unpack() {
	local tarball

	say "unpacking $(basename "$deb")"
	rm -rf "$top/src" "$out"
	mkdir -p "$top/src"
	dpkg-deb --fsys-tarfile "$deb" |
		tar -x -C "$top/src" --strip-components=3 \
		    --wildcards "./usr/src/$pkg.tar.xz"
	tarball=$top/src/$pkg.tar.xz
	[ -e "$tarball" ] || die "$(basename "$deb") holds no $pkg.tar.xz"
	tar -x -J -f "$tarball" -C "$top/src"
	rm -f "$tarball"
	mkdir -p "$src/.sysfs-observe/applied"
	basename "$deb" >"$src/.sysfs-observe/deb"
}
if [ ! -e "$src/.sysfs-observe/deb" ] ||
   [ "$(cat "$src/.sysfs-observe/deb")" != "$(basename "$deb")" ]; then
	unpack
fi

# 3. The patches: if the applied series differs from ours, revert it (in
# reverse order) and apply ours; files they touch get new mtimes, so the
# O= build redoes only those.  A series that does not revert cleanly means
# a tree we cannot trust: unpack it again.
applied=$src/.sysfs-observe/applied
same=yes
mapfile -t old < <(ls "$applied" 2>/dev/null | sort)
if [ "${#old[@]}" -ne "${#patches[@]}" ]; then
	same=no
else
	for p in "${patches[@]}"; do
		cmp -s "$p" "$applied/$(basename "$p")" || same=no
	done
fi
if [ "$same" = no ]; then
	for ((i = ${#old[@]} - 1; i >= 0; i--)); do
		p=$applied/${old[i]}
		if patch -d "$src" -p1 -R -s -f --dry-run <"$p" >/dev/null &&
		   patch -d "$src" -p1 -R -s -f --no-backup-if-mismatch \
			 <"$p" >/dev/null; then
			rm -f "$p"
		else
			say "cannot revert ${old[i]}: unpacking afresh"
			unpack
			break
		fi
	done
	rm -f "$applied"/*
	for p in "${patches[@]}"; do
		say "applying $(basename "$p")"
		if ! patch -d "$src" -p1 -N -s -f --dry-run <"$p" \
			>"$top/patch.log" 2>&1; then
			cat "$top/patch.log" >&2
			die "$(basename "$p") does not apply to $(basename "$deb")"
		fi
		patch -d "$src" -p1 -N -s -f --no-backup-if-mismatch <"$p" \
			>/dev/null
		cp "$p" "$applied/"
	done
fi

# 4. Configure out of tree and check that our options stuck.
mkdir -p "$out"
rm -f "$out/.stamp"
say "configuring in $out"
(cd "$src" && scripts/kconfig/merge_config.sh -m -O "$out" \
	arch/x86/configs/x86_64_defconfig kernel/configs/kvm_guest.config \
	"$fragment") >"$log" 2>&1 || { tail -n 30 "$log" >&2
				       die "merge_config.sh failed"; }
make -C "$src" O="$out" olddefconfig >>"$log" 2>&1 ||
	{ tail -n 30 "$log" >&2; die "olddefconfig failed"; }

bad=0
while read -r line; do
	case $line in
	CONFIG_*=*)
		opt=${line%%=*}
		;;
	"# CONFIG_"*" is not set")
		opt=${line#\# }
		opt=${opt%% *}
		;;
	*) continue ;;
	esac
	got=$(grep -E "^$opt=|^# $opt is not set" "$out/.config" ||
	      echo "# $opt is not set")
	[ "$got" = "$line" ] && continue
	name=${opt#CONFIG_}
	if printf '%s\n' "${required[@]}" | grep -qx "$name"; then
		say "REQUIRED $line did not stick: .config has '$got'"
		bad=1
	else
		say "note: asked for '$line', .config has '$got'"
	fi
done <"$fragment"
[ "$bad" -eq 0 ] || die "configuration lacks required options (see above)"

# 5. Build.  modules_prepare leaves what out-of-tree modules need; after a
# full build it is quick, but it keeps M= builds working if only it ran.
say "building bzImage and modules with -j$jobs (log: $log)"
start=$(date +%s)
make -C "$src" O="$out" -j"$jobs" bzImage modules >>"$log" 2>&1 ||
	{ grep -E 'error|Error' "$log" | tail -n 20 >&2
	  tail -n 20 "$log" >&2; die "build failed (log: $log)"; }
make -C "$src" O="$out" modules_prepare >>"$log" 2>&1 ||
	{ tail -n 20 "$log" >&2; die "modules_prepare failed"; }
say "built $(cat "$out/include/config/kernel.release") in" \
    "$(( $(date +%s) - start )) s"

echo "$stamp" >"$out/.stamp"
echo "$out"
