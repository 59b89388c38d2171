/* SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1 */
/*
 * The kernel log: a marker line written through /dev/kmsg, and the whole
 * log buffer read back (klogctl), for the checks that look at what the
 * kernel printed since the marker (analysis/dmesg_check.h,
 * analysis/lockdep_report.h).
 */
#ifndef SO_KERNEL_KMSG_H
#define SO_KERNEL_KMSG_H

#include <stdbool.h>

/* Writes text as one kernel log line.  false when it could not. */
bool kmsg_mark(const char *text);
/* The log buffer as text, NUL-terminated, to free(); NULL if unreadable. */
char *kmsg_read_all(void);

#endif /* SO_KERNEL_KMSG_H */
