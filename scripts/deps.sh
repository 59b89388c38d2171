#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# Install the Debian packages the build and the guest testbed need, once.
# Quiet and quick when everything is present: a dpkg-query, no apt call.
set -euo pipefail

# package                 why
PKGS=(
	make gcc libc6-dev        # user space, module build
	clang llvm                # BPF objects (clang -target bpf, llvm-strip)
	bpftool                   # skeletons, vmlinux.h
	libbpf-dev libelf-dev zlib1g-dev libzstd-dev # static sysfs-observe
	pahole                    # module BTF (pahole -J)
	libcmocka-dev             # host unit tests
	libclang-rt-14-dev        # libFuzzer, clang's sanitizers (make fuzz)
	flex bison bc libssl-dev  # the kernfs knob kernel (kernfs/build.sh)
	qemu-system-x86           # the guest (TCG)
	busybox-static cpio kmod  # the guest's initramfs, depmod
	bash perl-base coreutils diffutils grep sed mawk findutils
	util-linux debianutils libc-bin procps # sysfs.sh's GNU tools in the guest
	dpkg-dev                  # dpkg-deb for the guest kernel packages
	dkms                      # the test of module/dkms.conf
	libbpf-tools              # klockstat: the bench's peer (make bench)
	python3-jsonschema        # --format json checked against its schema
	libxml2-utils chromium python3-pil # --svg: xmllint, rendered, not blank
)

missing=()
for p in "${PKGS[@]}"; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
			grep -q 'install ok installed'; then
		missing+=("$p")
	fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "deps: installing ${missing[*]}" >&2
if [ "$(id -u)" -ne 0 ]; then
	SUDO=sudo
	command -v sudo >/dev/null || {
		echo "deps: not root and no sudo: install as root:" >&2
		echo "  apt-get install ${missing[*]}" >&2
		exit 1
	}
else
	SUDO=
fi
export DEBIAN_FRONTEND=noninteractive
# apt's lists may be missing or stale on a fresh machine
$SUDO apt-get update -qq >/dev/null || true
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
