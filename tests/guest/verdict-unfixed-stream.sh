#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#
# Runs in the guest: verdict-unfixed.sh for 0027 with the live stream
# instead of -q.  The stream takes no stack at a mutex wait either, and
# finds the deadlock from events rather than scans: its report must still
# give each task its stack.  Its own boot: the deadlock wedges the kernel.
OBS_STREAM=1 exec bash /mnt/files/verdict-unfixed.sh 0027
