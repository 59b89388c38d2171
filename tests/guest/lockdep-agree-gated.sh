#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# Runs in the guest: lockdep-agree.sh's "gated" case, in a boot of its own
# (lockdep reports one cycle per boot).
exec bash /mnt/files/lockdep-agree.sh gated
