// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lib/files.h"

/* A regular file, opened non-blocking (a FIFO would block the open),
 * made blocking again for stdio. */
static FILE *files_open_regular(int fd, const char *mode)
{
	struct stat st;
	FILE *f;
	int err;

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st)) {
		err = errno;
		goto fail;
	}
	if (!S_ISREG(st.st_mode)) {
		err = EINVAL;
		goto fail;
	}
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) ||
	    (mode[0] == 'w' && (fchmod(fd, 0600) || ftruncate(fd, 0)))) {
		err = errno;
		goto fail;
	}
	f = fdopen(fd, mode);
	if (f)
		return f;
	err = errno;
fail:
	close(fd);
	errno = err;
	return NULL;
}

FILE *files_open_output(const char *path)
{
	/* No O_TRUNC here: a file that turns out not to be ours to write
	 * (a device, a FIFO) must be left as it was. */
	int fd = open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK |
			    O_CLOEXEC, 0600);

	if (fd < 0 && errno == ENXIO)	/* a FIFO nobody reads */
		errno = EINVAL;
	return files_open_regular(fd, "wb");
}

FILE *files_open_input(const char *path)
{
	return files_open_regular(open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC),
				  "rb");
}

const char *files_open_error(int err)
{
	return err == ELOOP ? "it is a symlink" :
	       err == EINVAL ? "not a regular file" : strerror(err);
}
