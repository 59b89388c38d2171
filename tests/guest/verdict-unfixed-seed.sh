#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# Runs in the guest: verdict-unfixed.sh for 0027 driven by the seed's
# sysfs.sh under --attach (an outside client, not the tool's runner), in
# its own boot since the deadlock wedges the kernel.
exec bash /mnt/files/verdict-unfixed.sh 0027 seed
