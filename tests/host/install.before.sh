#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# Before the guest test install.sh boots: `make install` into the
# directory the guest sees as /mnt/files/destdir, with the module built
# for the guest's kernel.  $1: the guest's files directory.
set -euo pipefail
O=${O:-build}
make -s --no-print-directory O="$O" KDIR="$(make -s --no-print-directory kdir)" \
	install DESTDIR="$1/destdir"
