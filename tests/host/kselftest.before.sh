#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# Before the guest test kselftest.sh boots: `make kselftest-install` into
# the directory the guest sees as /mnt/files/kselftest, the module built
# for the guest's kernel (TEST_KDIR: the knob kernel's build dir when
# that kernel boots; else the stock guest's headers).  $1: the guest's
# files directory.
set -euo pipefail
O=${O:-build}
kdir=${TEST_KDIR:-$(make -s --no-print-directory O="$O" kdir)}
rm -rf "$1/kselftest"
make -s --no-print-directory O="$O" KDIR="$kdir" \
	kselftest-install KSFT_INSTALL_PATH="$1/kselftest"
