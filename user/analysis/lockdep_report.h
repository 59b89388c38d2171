/* SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1 */
/*
 * Lockdep's "possible circular locking dependency detected" reports, read
 * from the kernel log, so that a debug kernel's verdict can be held beside
 * ours: the lock the task was trying to take and the one it held close
 * lockdep's cycle, and both must be in one of our cycles.  Pure: the
 * session reads the log, golden logs test the parsing.
 */
#ifndef SO_ANALYSIS_LOCKDEP_REPORT_H
#define SO_ANALYSIS_LOCKDEP_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include "analysis/order_graph.h"

#define LDR_NAME_LEN	96
#define LDR_TASK_LEN	48

struct ldr_report {
	char task[LDR_TASK_LEN];	/* "modprobe/168" */
	char acquiring[LDR_NAME_LEN];	/* "kn->active#3" */
	char holding[LDR_NAME_LEN];	/* "&test_dev->config_mutex" */
};

/*
 * The circular-dependency reports in `log` (klogctl's or dmesg's text)
 * after its last line containing `marker` (all of it when marker is NULL
 * or absent).  Fills up to `max`, returns how many complete reports there
 * are.  Lockdep reports once per boot, then turns itself off.
 */
size_t ldr_parse_circular(const char *log, const char *marker,
			  struct ldr_report *out, size_t max);

/*
 * Whether lockdep's class name is our class: the same lock expression
 * (lockdep's "#N" instance and "/N" subclass suffixes ignored; the
 * mutexes' names come from the same __mutex_init() argument), and
 * lockdep's "kn->active" (every kernfs node's active reference) is any
 * of our "kn:" nodes.
 */
bool ldr_class_matches(const char *lockdep_name, const char *our_name);

/*
 * Our cycle holding both of the report's locks, the worst verdict first
 * (DEADLOCK-PRONE, then GATED, then NO-WAIT); NULL when none has both:
 * lockdep saw a cycle we missed.
 */
const struct og_cycle *ldr_our_cycle(const struct og_graph *graph,
				     const struct ldr_report *report);

#endif /* SO_ANALYSIS_LOCKDEP_REPORT_H */
