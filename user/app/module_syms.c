// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * The module lines of /proc/kallsyms, read on the caller's thread or on
 * one of their own (see module_syms.h).  The thread touches nothing but
 * its struct module_syms; the lines are parsed by whoever takes them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "app/module_syms.h"

int module_syms_read(char **buf, size_t *len)
{
	char line[512];
	FILE *in, *mem;

	*buf = NULL;
	*len = 0;
	in = fopen("/proc/kallsyms", "re");
	if (!in)
		return -errno;
	mem = open_memstream(buf, len);
	if (!mem) {
		fclose(in);
		return -ENOMEM;
	}
	while (fgets(line, sizeof(line), in))
		if (strchr(line, '['))
			fputs(line, mem);
	fclose(in);
	if (fclose(mem)) {
		free(*buf);
		*buf = NULL;
		*len = 0;
		return -ENOMEM;
	}
	return 0;
}

static void *module_syms_thread(void *arg)
{
	struct module_syms *m = arg;

	module_syms_read(&m->buf, &m->len);
	atomic_store(&m->done, true);
	return NULL;
}

bool module_syms_start(struct module_syms *m)
{
	if (m->running)
		return false;
	m->buf = NULL;
	m->len = 0;
	atomic_store(&m->done, false);
	if (pthread_create(&m->thread, NULL, module_syms_thread, m))
		return false;
	m->running = true;
	return true;
}

bool module_syms_take(struct module_syms *m, bool wait, char **buf,
		      size_t *len)
{
	if (!m->running || (!wait && !atomic_load(&m->done)))
		return false;
	pthread_join(m->thread, NULL);
	m->running = false;
	*buf = m->buf;
	*len = m->len;
	m->buf = NULL;
	m->len = 0;
	return true;
}
