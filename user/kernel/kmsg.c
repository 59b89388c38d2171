// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <unistd.h>
#include "kernel/kmsg.h"

#define SYSLOG_ACTION_READ_ALL		3
#define SYSLOG_ACTION_SIZE_BUFFER	10

bool kmsg_mark(const char *text)
{
	int fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
	bool ok;

	if (fd < 0)
		return false;
	ok = write(fd, text, strlen(text)) == (ssize_t)strlen(text);
	close(fd);
	return ok;
}

char *kmsg_read_all(void)
{
	int size = klogctl(SYSLOG_ACTION_SIZE_BUFFER, NULL, 0);
	char *log;
	int n;

	if (size <= 0)
		return NULL;
	log = malloc((size_t)size + 1);
	if (!log)
		return NULL;
	n = klogctl(SYSLOG_ACTION_READ_ALL, log, size);
	if (n < 0) {
		free(log);
		return NULL;
	}
	log[n] = '\0';
	return log;
}
