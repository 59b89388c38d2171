// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * The figures' store: classes, devices, lock waits and begins pending
 * their end, each in an array of its own indexed by a u64map, with the
 * arithmetic of timings, histograms and errno tables.  What each event
 * means for them is stats_feed.c.
 */
#include <stdlib.h>
#include <string.h>
#include "analysis/stats_impl.h"
#include "lib/array.h"

static uint64_t stats_pending_key(uint32_t tid, enum so_pending_kind kind)
{
	return ((uint64_t)tid << 8) | kind;
}

void stats_timing_add(struct so_timing *t, uint64_t ns)
{
	if (!t->count || ns < t->min_ns)
		t->min_ns = ns;
	if (ns > t->max_ns)
		t->max_ns = ns;
	t->count++;
	t->total_ns += ns;
}

uint64_t stats_timing_avg(const struct so_timing *t)
{
	return t->count ? t->total_ns / t->count : 0;
}

void stats_hist_add(struct so_hist *h, uint64_t ns)
{
	h->buckets[ns ? 63 - __builtin_clzll(ns) : 0]++;
}

void stats_errnos_add(struct so_errnos *e, int64_t err)
{
	/* From a trace file err is anything: -INT64_MIN overflows, and a
	 * magnitude past int32 is no errno (kept apart as INT32_MAX). */
	uint64_t mag = err < 0 ? 0 - (uint64_t)err : (uint64_t)err;
	int32_t pos = mag > INT32_MAX ? INT32_MAX : (int32_t)mag;
	uint32_t i;

	for (i = 0; i < e->len; i++) {
		if (e->slots[i].err == pos) {
			e->slots[i].count++;
			return;
		}
	}
	if (e->len == SO_ERRNOS_MAX) {
		e->other++;
		return;
	}
	e->slots[e->len].err = pos;
	e->slots[e->len].count = 1;
	e->len++;
}

void stats_init(struct so_stats *st)
{
	memset(st, 0, sizeof(*st));
	u64map_init(&st->class_index);
	u64map_init(&st->lock_wait_index);
	u64map_init(&st->lock_class);
	u64map_init(&st->pending_index);
}

void stats_fini(struct so_stats *st)
{
	free(st->classes);
	free(st->devices);
	free(st->lock_waits);
	free(st->pending);
	free(st->free_pending);
	u64map_fini(&st->class_index);
	u64map_fini(&st->lock_wait_index);
	u64map_fini(&st->lock_class);
	u64map_fini(&st->pending_index);
	memset(st, 0, sizeof(*st));
}

/*
 * The entry of `key` in an array that `index` maps keys into, appended
 * zeroed when new: classes by id, lock waits by address.  UINT32_MAX
 * when memory ran out (counted).
 */
static uint32_t stats_keyed_entry(struct so_stats *st, struct u64map *index,
				  void **array, size_t *cap, uint32_t *nr,
				  size_t size, uint64_t key)
{
	uint32_t idx;

	if (u64map_get(index, key, &idx))
		return idx;
	if (array_reserve(array, cap, *nr, size) ||
	    u64map_put(index, key, *nr)) {
		st->nomem++;
		return UINT32_MAX;
	}
	memset((char *)*array + (size_t)*nr * size, 0, size);
	return (*nr)++;
}

struct so_class_stats *stats_class_rw(struct so_stats *st,
				      uint64_t class_id)
{
	uint32_t idx = stats_keyed_entry(st, &st->class_index,
					 (void **)&st->classes,
					 &st->cap_classes, &st->nr_classes,
					 sizeof(*st->classes), class_id);

	if (idx == UINT32_MAX)
		return NULL;
	st->classes[idx].class_id = class_id;
	return &st->classes[idx];
}

const struct so_class_stats *stats_class(const struct so_stats *st,
					 uint64_t class_id)
{
	uint32_t idx;

	if (!u64map_get(&st->class_index, class_id, &idx))
		return NULL;
	return &st->classes[idx];
}

void stats_pending_begin(struct so_stats *st, const struct so_event *ev,
			 enum so_pending_kind kind)
{
	uint64_t key = stats_pending_key(ev->tid, kind);
	struct so_pending *pend;
	uint32_t idx;

	if (!u64map_get(&st->pending_index, key, &idx)) {
		if (st->nr_free_pending) {
			idx = st->free_pending[--st->nr_free_pending];
		} else if (array_reserve((void **)&st->pending,
					 &st->cap_pending, st->nr_pending,
					 sizeof(*pend))) {
			st->nomem++;
			return;
		} else {
			idx = st->nr_pending++;
		}
		if (u64map_put(&st->pending_index, key, idx)) {
			st->nomem++;
			return;
		}
	}
	/* A second begin before its end: the end was lost; keep the newer. */
	pend = &st->pending[idx];
	pend->ts_ns = ev->ts_ns;
	pend->class_id = ev->class_id;
	pend->obj = ev->obj;
	pend->arg = ev->arg;
	memcpy(pend->name, ev->name, sizeof(pend->name));
}

/* Takes the begin matching ev into *out; false (and counted) if none. */
bool stats_pending_end(struct so_stats *st, const struct so_event *ev,
		       enum so_pending_kind kind, struct so_pending *out)
{
	uint64_t key = stats_pending_key(ev->tid, kind);
	uint32_t idx;

	if (!u64map_get(&st->pending_index, key, &idx)) {
		st->unpaired++;
		return false;
	}
	*out = st->pending[idx];
	u64map_del(&st->pending_index, key);
	if (!array_reserve((void **)&st->free_pending,
			   &st->cap_free_pending, st->nr_free_pending,
			   sizeof(uint32_t)))
		st->free_pending[st->nr_free_pending++] = idx;
	return true;
}

void stats_device(struct so_stats *st, uint32_t kind, const char *name,
		  uint64_t ns)
{
	struct so_device_stats *dev;
	uint32_t i;

	for (i = 0; i < st->nr_devices; i++) {
		dev = &st->devices[i];
		if (dev->kind == kind && !strncmp(dev->name, name, SO_NAME_LEN))
			goto found;
	}
	if (array_reserve((void **)&st->devices, &st->cap_devices,
			  st->nr_devices, sizeof(*dev))) {
		st->nomem++;
		return;
	}
	dev = &st->devices[st->nr_devices++];
	memset(dev, 0, sizeof(*dev));
	dev->kind = kind;
	memcpy(dev->name, name, SO_NAME_LEN);
	dev->name[SO_NAME_LEN - 1] = '\0';
found:
	stats_timing_add(&dev->removal, ns);
}

void stats_lock_seen(struct so_stats *st, const struct so_event *ev)
{
	uint32_t idx;

	if (!ev->obj || !ev->class_id ||
	    u64map_get(&st->lock_class, ev->obj, NULL))
		return;
	if (!stats_class_rw(st, ev->class_id) ||
	    !u64map_get(&st->class_index, ev->class_id, &idx))
		return;
	if (u64map_put(&st->lock_class, ev->obj, idx))
		st->nomem++;
}

/* The class a lock address was seen with, or 0. */
uint64_t stats_lock_class(const struct so_stats *st, uint64_t obj)
{
	uint32_t idx;

	if (!u64map_get(&st->lock_class, obj, &idx))
		return 0;
	return st->classes[idx].class_id;
}

void stats_contention(struct so_stats *st, uint64_t obj,
		      uint64_t class_id, uint64_t ns)
{
	struct so_class_stats *cls;
	uint32_t idx;

	if (!class_id)
		class_id = stats_lock_class(st, obj);
	if (class_id) {
		cls = stats_class_rw(st, class_id);
		if (cls)
			stats_timing_add(&cls->wait, ns);
		return;
	}
	/* Its class may come with the acquisition that follows: wait. */
	idx = stats_keyed_entry(st, &st->lock_wait_index,
				(void **)&st->lock_waits, &st->cap_lock_waits,
				&st->nr_lock_waits, sizeof(*st->lock_waits),
				obj);
	if (idx == UINT32_MAX)
		return;
	st->lock_waits[idx].obj = obj;
	stats_timing_add(&st->lock_waits[idx].wait, ns);
}

static void stats_timing_merge(struct so_timing *into,
			       const struct so_timing *t)
{
	if (!t->count)
		return;
	if (!into->count || t->min_ns < into->min_ns)
		into->min_ns = t->min_ns;
	if (t->max_ns > into->max_ns)
		into->max_ns = t->max_ns;
	into->count += t->count;
	into->total_ns += t->total_ns;
}

void stats_finish(struct so_stats *st)
{
	struct so_class_stats *cls;
	struct so_lock_wait *lw;
	uint64_t class_id;
	uint32_t i;

	for (i = 0; i < st->nr_lock_waits; i++) {
		lw = &st->lock_waits[i];
		if (!lw->wait.count)
			continue;
		class_id = stats_lock_class(st, lw->obj);
		if (!class_id)
			class_id = SO_CLASS_MAKE(SO_CLASS_LOCK, lw->obj);
		cls = stats_class_rw(st, class_id);
		if (!cls)
			continue;
		stats_timing_merge(&cls->wait, &lw->wait);
		memset(&lw->wait, 0, sizeof(lw->wait));
	}
}

static bool stats_class_counts_empty(const struct so_class_counts *c)
{
	return !c->writes && !c->holds && !c->kn_gets && !c->kn_puts &&
	       !c->mod_gets && !c->mod_puts;
}

void stats_add_class_counts(struct so_stats *st, uint64_t class_id,
			    const struct so_class_counts *counts)
{
	struct so_class_stats *cls;
	struct so_timing writes = {
		.count = counts->writes,
		.total_ns = counts->write_ns_total,
		.min_ns = counts->write_ns_min,
		.max_ns = counts->write_ns_max,
	};
	struct so_timing holds = {
		.count = counts->holds,
		.total_ns = counts->hold_ns_total,
		.min_ns = counts->hold_ns_min,
		.max_ns = counts->hold_ns_max,
	};
	size_t b;

	if (!class_id || stats_class_counts_empty(counts))
		return;
	cls = stats_class_rw(st, class_id);
	if (!cls)
		return;
	cls->writes += counts->writes;
	cls->write_bytes += counts->write_bytes;
	stats_timing_merge(&cls->write_time, &writes);
	stats_timing_merge(&cls->hold, &holds);
	for (b = 0; b < SO_COUNTS_HIST && b < SO_HIST_BUCKETS; b++)
		cls->hold_hist.buckets[b] += counts->hold_hist[b];
	cls->kn_gets += counts->kn_gets;
	cls->kn_puts += counts->kn_puts;
	cls->mod_gets += counts->mod_gets;
	cls->mod_puts += counts->mod_puts;
}
