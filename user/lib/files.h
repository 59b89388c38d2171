/* SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1 */
/*
 * The files a user names (-o, -i), opened the way trace files deserve:
 * they hold kernel addresses, so what we create is 0600 and never
 * reached through a symlink; and only regular files are read or written,
 * so a FIFO or a device can neither block the tool nor receive a trace.
 */
#ifndef SO_TRACE_FILES_H
#define SO_TRACE_FILES_H

#include <stdio.h>

/*
 * Create or truncate `path` for writing: mode 0600 (also when it existed),
 * O_NOFOLLOW, a regular file only.  NULL with errno set (ELOOP: a
 * symlink; EINVAL: not a regular file).
 */
FILE *files_open_output(const char *path);
/* Open `path` for reading, a regular file only (without blocking on a
 * FIFO); NULL with errno set (EINVAL: not a regular file). */
FILE *files_open_input(const char *path);
/* Why files_open_output() or files_open_input() failed, for people:
 * "it is a symlink", "not a regular file", or strerror(err). */
const char *files_open_error(int err);

#endif /* SO_TRACE_FILES_H */
