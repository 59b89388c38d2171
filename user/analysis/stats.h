/* SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1 */
/*
 * Counts and timings from the event stream, for the summary: contention
 * per class (perf lock contention's columns), hold times with log2
 * histograms, kernfs and module reference activity, device removal
 * timings, module loads and removals, writes and their errors.
 *
 * Begin/end pairs are matched per task.  An end without its begin (the
 * begin came before we attached, or was lost) is counted in `unpaired`,
 * never guessed at.
 */
#ifndef SO_STATS_H
#define SO_STATS_H

#include <stddef.h>
#include <stdint.h>
#include "observe.h"
#include "lib/u64map.h"

#define SO_HIST_BUCKETS	64	/* bucket i: [2^i, 2^(i+1)) ns; 0 holds 0 */
#define SO_ERRNOS_MAX	16

struct so_timing {
	uint64_t count;
	uint64_t total_ns;
	uint64_t max_ns;
	uint64_t min_ns;	/* valid when count > 0 */
};

struct so_hist {
	uint64_t buckets[SO_HIST_BUCKETS];
};

struct so_errno_count {
	int32_t err;		/* positive errno */
	uint64_t count;
};

struct so_errnos {
	uint32_t len;
	struct so_errno_count slots[SO_ERRNOS_MAX];
	uint64_t other;		/* errnos beyond the table */
};

struct so_class_stats {
	uint64_t class_id;
	struct so_timing wait;	/* contention: contended = wait.count */
	struct so_timing hold;
	struct so_hist hold_hist;
	/* kernfs: active references and drains */
	uint64_t kn_gets, kn_refused, kn_puts;
	uint64_t kn_drains, kn_drain_waits;	/* waits: readers at entry */
	struct so_timing drain;
	uint64_t writes, write_bytes, write_errors;
	struct so_timing write_time;
	/* module references */
	uint64_t mod_gets, mod_get_fails, mod_puts;
};

enum so_device_kind {
	SO_DEV_GENDISK,		/* del_gendisk */
	SO_DEV_MISC,		/* misc_deregister */
};

struct so_device_stats {
	uint32_t kind;		/* enum so_device_kind */
	char name[SO_NAME_LEN];
	struct so_timing removal;
};

struct so_module_ops {
	struct so_timing load, delete;	/* finit_module, delete_module */
	uint64_t load_fails, delete_fails;
	struct so_errnos load_errnos, delete_errnos;
};

/* Lock contention seen by lock address; folded into classes at finish. */
struct so_lock_wait {
	uint64_t obj;
	uint64_t class_id;	/* from the event, or 0 */
	struct so_timing wait;
};

struct so_pending {
	uint64_t ts_ns;
	uint64_t class_id;
	uint64_t obj;
	uint64_t arg;
	char name[SO_NAME_LEN];
};

struct so_stats {
	uint64_t nr_events;
	uint64_t by_type[SO_EV_NR];
	uint64_t first_ns, last_ns;
	uint64_t unpaired;	/* ends without a begin */

	struct so_class_stats *classes;
	uint32_t nr_classes;
	size_t cap_classes;
	struct u64map class_index;

	struct so_device_stats *devices;
	uint32_t nr_devices;
	size_t cap_devices;

	struct so_module_ops modules;
	struct so_errnos write_errnos;

	struct so_lock_wait *lock_waits;
	uint32_t nr_lock_waits;
	size_t cap_lock_waits;
	struct u64map lock_wait_index;	/* obj -> lock_waits[] */
	struct u64map lock_class;	/* obj -> classes[] index */

	/* Begins waiting for their end, keyed by stats_pending_key(). */
	struct so_pending *pending;
	uint32_t nr_pending;
	size_t cap_pending;
	uint32_t *free_pending;
	uint32_t nr_free_pending;
	size_t cap_free_pending;
	struct u64map pending_index;

	uint64_t nomem;		/* events not counted: out of memory */
};

void stats_init(struct so_stats *st);
void stats_fini(struct so_stats *st);
/* ev has passed record_check(). */
void stats_feed(struct so_stats *st, const struct so_event *ev);
/*
 * What the kernel counted itself (summary mode sends no event for a
 * write that succeeded, a reference taken or put, a lock held), summed
 * over CPUs: added to the class's figures as if each had come as events.
 */
void stats_add_class_counts(struct so_stats *st, uint64_t class_id,
			    const struct so_class_counts *counts);
/* Attributes lock contention to classes; call before reading results.
 * Feeding after finish is allowed: finish again. */
void stats_finish(struct so_stats *st);
const struct so_class_stats *stats_class(const struct so_stats *st,
					 uint64_t class_id);

void stats_timing_add(struct so_timing *t, uint64_t ns);
uint64_t stats_timing_avg(const struct so_timing *t);
void stats_hist_add(struct so_hist *h, uint64_t ns);
void stats_errnos_add(struct so_errnos *e, int64_t err);

#endif /* SO_STATS_H */
