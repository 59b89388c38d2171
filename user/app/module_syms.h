/* SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1 */
/*
 * The module lines of /proc/kallsyms ("[test_sysfs]", "[bpf]"), read on
 * a thread of their own.  The kernel formats every symbol it has for
 * each read of that file, some 180 ms under TCG: done on the event loop
 * after a module load, it held back the records that followed, and with
 * them the verdict of a deadlock the unload was about to close.
 */
#ifndef SO_APP_MODULE_SYMS_H
#define SO_APP_MODULE_SYMS_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

struct module_syms {
	pthread_t thread;
	bool running;		/* started, not joined yet */
	atomic_bool done;	/* the thread has set buf and len */
	char *buf;		/* the lines read; NULL if none */
	size_t len;
};

/* The module lines now, on the caller's thread: 0 or -errno; *buf is
 * the caller's to free (NULL when there are none). */
int module_syms_read(char **buf, size_t *len);
/* Start a read in the background; false when one is under way already
 * or no thread could be made. */
bool module_syms_start(struct module_syms *m);
/* The background read's lines once it is done (`wait`: wait for it),
 * the caller's to free; false while it runs, or when none was started. */
bool module_syms_take(struct module_syms *m, bool wait, char **buf,
		      size_t *len);

#endif /* SO_APP_MODULE_SYMS_H */
