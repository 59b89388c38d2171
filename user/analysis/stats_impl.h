/* SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1 */
/*
 * Between the two halves of stats.h's implementation and no one else:
 * the store (stats.c) and what the events do to it (stats_feed.c).
 */
#ifndef SO_STATS_IMPL_H
#define SO_STATS_IMPL_H

#include <stdbool.h>

#include "analysis/stats.h"

/* What a pending begin waits for; one of each per task at a time. */
enum so_pending_kind {
	SO_PEND_WRITE,
	SO_PEND_ACTIVE,
	SO_PEND_DRAIN,
	SO_PEND_LOAD,
	SO_PEND_DELETE,
	SO_PEND_GENDISK,
	SO_PEND_MISC,
	SO_PEND_CONTEND,
};

/* The figures of class_id, new (zeroed) if unseen; NULL: no memory. */
struct so_class_stats *stats_class_rw(struct so_stats *st,
				      uint64_t class_id);

/* A begin waits for its end: the newer one if two come (the end of the
 * first was lost). */
void stats_pending_begin(struct so_stats *st, const struct so_event *ev,
			 enum so_pending_kind kind);
/* Takes the begin matching ev into *out; false (and counted) if none. */
bool stats_pending_end(struct so_stats *st, const struct so_event *ev,
		       enum so_pending_kind kind, struct so_pending *out);

/* One removal of device `name` that took `ns`. */
void stats_device(struct so_stats *st, uint32_t kind, const char *name,
		  uint64_t ns);
/* Remember the class a lock address was seen with. */
void stats_lock_seen(struct so_stats *st, const struct so_event *ev);
/* The class a lock address was seen with, or 0. */
uint64_t stats_lock_class(const struct so_stats *st, uint64_t obj);
/* A wait of `ns` for lock `obj`, on its class when it is known. */
void stats_contention(struct so_stats *st, uint64_t obj,
		      uint64_t class_id, uint64_t ns);

#endif /* SO_STATS_IMPL_H */
