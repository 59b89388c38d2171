// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * debugfs for a test: mounted by the parent, not the driver, because knob
 * detection needs it before the session and the unmount must happen even
 * when the driver was killed.  Only what we mounted is unmounted.
 */
#include <stdbool.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include "app/runner_internal.h"

/* True when we mounted it: it was not there before. */
bool sc_debugfs_mount(void)
{
	struct stat st;

	if (!stat(SC_DEBUGFS "/tracing", &st) ||
	    !stat(SC_DEBUGFS "/bdi", &st))
		return false;
	return !mount("debugfs", SC_DEBUGFS, "debugfs", 0, NULL);
}

void sc_debugfs_unmount(bool mounted)
{
	if (mounted)
		umount2(SC_DEBUGFS, MNT_DETACH);
}
