// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * glibc wraps neither syscall: syscall(2) it is.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "kernel/module_sys.h"

int module_sys_load(const char *ko_path, const char *params)
{
	int fd = open(ko_path, O_RDONLY | O_CLOEXEC);
	int rc;

	if (fd < 0)
		return -errno;
	rc = syscall(SYS_finit_module, fd, params, 0) ? -errno : 0;
	close(fd);
	return rc;
}

int module_sys_unload(const char *name)
{
	if (syscall(SYS_delete_module, name, O_NONBLOCK) && errno != ENOENT)
		return -errno;
	return 0;
}
