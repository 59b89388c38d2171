// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include "kernel/debugfs_mount.h"

bool debugfs_mounted(void)
{
	FILE *mounts = fopen("/proc/self/mounts", "r");
	char line[512];
	bool found = false;

	if (mounts) {
		while (!found && fgets(line, sizeof(line), mounts))
			found = strstr(line, " " DEBUGFS_DIR " debugfs ");
		fclose(mounts);
	}
	return found;
}

int debugfs_mount_if_absent(void)
{
	if (debugfs_mounted())
		return 0;
	if (mount("debugfs", DEBUGFS_DIR, "debugfs", 0, NULL))
		return -errno;
	return 1;
}

void debugfs_unmount(void)
{
	umount2(DEBUGFS_DIR, MNT_DETACH);
}
