/* SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1 */
/*
 * debugfs at its usual place, mounted when it is not: a machine that
 * never mounted it still has the knobs and test_sysfs's reset file
 * under it.  Whoever mounts it unmounts it, so that debugfs is left as
 * it was; when to unmount is the caller's (kernel/knobfs.c at exit of
 * the process that mounted it, the scenario runner after each test).
 */
#ifndef SO_KERNEL_DEBUGFS_MOUNT_H
#define SO_KERNEL_DEBUGFS_MOUNT_H

#include <stdbool.h>

#define DEBUGFS_DIR	"/sys/kernel/debug"

/* Whether debugfs is mounted at DEBUGFS_DIR (/proc/self/mounts). */
bool debugfs_mounted(void);

/* Mounts debugfs at DEBUGFS_DIR unless it is mounted already.  1 when
 * this call mounted it (the caller owes a debugfs_unmount()), 0 when it
 * was there, -errno when the mount failed. */
int debugfs_mount_if_absent(void);

/* Detached (MNT_DETACH): a file still open under it does not keep the
 * unmount from happening. */
void debugfs_unmount(void);

#endif /* SO_KERNEL_DEBUGFS_MOUNT_H */
