// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#include <stdlib.h>
#include <string.h>
#include "analysis/stats.h"
#include "lib/array.h"

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

static uint64_t so_pending_key(uint32_t tid, enum so_pending_kind kind)
{
	return ((uint64_t)tid << 8) | kind;
}

void so_timing_add(struct so_timing *t, uint64_t ns)
{
	if (!t->count || ns < t->min_ns)
		t->min_ns = ns;
	if (ns > t->max_ns)
		t->max_ns = ns;
	t->count++;
	t->total_ns += ns;
}

uint64_t so_timing_avg(const struct so_timing *t)
{
	return t->count ? t->total_ns / t->count : 0;
}

void so_hist_add(struct so_hist *h, uint64_t ns)
{
	h->buckets[ns ? 63 - __builtin_clzll(ns) : 0]++;
}

void so_errnos_add(struct so_errnos *e, int64_t err)
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

void so_stats_init(struct so_stats *st)
{
	memset(st, 0, sizeof(*st));
	u64map_init(&st->class_index);
	u64map_init(&st->lock_wait_index);
	u64map_init(&st->lock_class);
	u64map_init(&st->pending_index);
}

void so_stats_fini(struct so_stats *st)
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

static struct so_class_stats *so_stats_class_rw(struct so_stats *st,
						uint64_t class_id)
{
	struct so_class_stats *cls;
	uint32_t idx;

	if (u64map_get(&st->class_index, class_id, &idx))
		return &st->classes[idx];
	if (so_array_reserve((void **)&st->classes, &st->cap_classes,
			     st->nr_classes, sizeof(*cls)) ||
	    u64map_put(&st->class_index, class_id, st->nr_classes)) {
		st->nomem++;
		return NULL;
	}
	cls = &st->classes[st->nr_classes++];
	memset(cls, 0, sizeof(*cls));
	cls->class_id = class_id;
	return cls;
}

const struct so_class_stats *so_stats_class(const struct so_stats *st,
					    uint64_t class_id)
{
	uint32_t idx;

	if (!u64map_get(&st->class_index, class_id, &idx))
		return NULL;
	return &st->classes[idx];
}

static void so_pending_begin(struct so_stats *st, const struct so_event *ev,
			     enum so_pending_kind kind)
{
	uint64_t key = so_pending_key(ev->tid, kind);
	struct so_pending *pend;
	uint32_t idx;

	if (!u64map_get(&st->pending_index, key, &idx)) {
		if (st->nr_free_pending) {
			idx = st->free_pending[--st->nr_free_pending];
		} else if (so_array_reserve((void **)&st->pending,
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
static bool so_pending_end(struct so_stats *st, const struct so_event *ev,
			   enum so_pending_kind kind, struct so_pending *out)
{
	uint64_t key = so_pending_key(ev->tid, kind);
	uint32_t idx;

	if (!u64map_get(&st->pending_index, key, &idx)) {
		st->unpaired++;
		return false;
	}
	*out = st->pending[idx];
	u64map_del(&st->pending_index, key);
	if (!so_array_reserve((void **)&st->free_pending,
			      &st->cap_free_pending, st->nr_free_pending,
			      sizeof(uint32_t)))
		st->free_pending[st->nr_free_pending++] = idx;
	return true;
}

static uint64_t so_elapsed(const struct so_event *ev,
			   const struct so_pending *begin)
{
	return ev->ts_ns > begin->ts_ns ? ev->ts_ns - begin->ts_ns : 0;
}

static struct so_class_stats *so_end_class(struct so_stats *st,
					   const struct so_event *ev,
					   const struct so_pending *begin)
{
	uint64_t class_id = ev->class_id ? ev->class_id :
			    begin ? begin->class_id : 0;

	return class_id ? so_stats_class_rw(st, class_id) : NULL;
}

static void so_stats_device(struct so_stats *st, uint32_t kind,
			    const char *name, uint64_t ns)
{
	struct so_device_stats *dev;
	uint32_t i;

	for (i = 0; i < st->nr_devices; i++) {
		dev = &st->devices[i];
		if (dev->kind == kind && !strncmp(dev->name, name, SO_NAME_LEN))
			goto found;
	}
	if (so_array_reserve((void **)&st->devices, &st->cap_devices,
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
	so_timing_add(&dev->removal, ns);
}

static void so_stats_lock_seen(struct so_stats *st, const struct so_event *ev)
{
	uint32_t idx;

	if (!ev->obj || !ev->class_id ||
	    u64map_get(&st->lock_class, ev->obj, NULL))
		return;
	if (!so_stats_class_rw(st, ev->class_id) ||
	    !u64map_get(&st->class_index, ev->class_id, &idx))
		return;
	if (u64map_put(&st->lock_class, ev->obj, idx))
		st->nomem++;
}

/* The class a lock address was seen with, or 0. */
static uint64_t so_stats_lock_class(const struct so_stats *st, uint64_t obj)
{
	uint32_t idx;

	if (!u64map_get(&st->lock_class, obj, &idx))
		return 0;
	return st->classes[idx].class_id;
}

static void so_stats_contention(struct so_stats *st, uint64_t obj,
				uint64_t class_id, uint64_t ns)
{
	struct so_class_stats *cls;
	struct so_lock_wait *lw;
	uint32_t idx;

	if (!class_id)
		class_id = so_stats_lock_class(st, obj);
	if (class_id) {
		cls = so_stats_class_rw(st, class_id);
		if (cls)
			so_timing_add(&cls->wait, ns);
		return;
	}
	/* Its class may come with the acquisition that follows: wait. */
	if (!u64map_get(&st->lock_wait_index, obj, &idx)) {
		if (so_array_reserve((void **)&st->lock_waits,
				     &st->cap_lock_waits, st->nr_lock_waits,
				     sizeof(*lw)) ||
		    u64map_put(&st->lock_wait_index, obj, st->nr_lock_waits)) {
			st->nomem++;
			return;
		}
		idx = st->nr_lock_waits++;
		memset(&st->lock_waits[idx], 0, sizeof(*lw));
		st->lock_waits[idx].obj = obj;
	}
	so_timing_add(&st->lock_waits[idx].wait, ns);
}

static void so_timing_merge(struct so_timing *into, const struct so_timing *t)
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

void so_stats_finish(struct so_stats *st)
{
	struct so_class_stats *cls;
	struct so_lock_wait *lw;
	uint64_t class_id;
	uint32_t i;

	for (i = 0; i < st->nr_lock_waits; i++) {
		lw = &st->lock_waits[i];
		if (!lw->wait.count)
			continue;
		class_id = so_stats_lock_class(st, lw->obj);
		if (!class_id)
			class_id = SO_CLASS_MAKE(SO_CLASS_LOCK, lw->obj);
		cls = so_stats_class_rw(st, class_id);
		if (!cls)
			continue;
		so_timing_merge(&cls->wait, &lw->wait);
		memset(&lw->wait, 0, sizeof(lw->wait));
	}
}

/* A write whose class and duration are known without a begin. */
static void so_stats_write(struct so_stats *st, uint64_t class_id,
			   int64_t ret, uint64_t ns)
{
	struct so_class_stats *cls = class_id ?
		so_stats_class_rw(st, class_id) : NULL;

	if (!cls)
		return;
	cls->writes++;
	if (ret < 0) {
		cls->write_errors++;
		so_errnos_add(&st->write_errnos, ret);
	} else {
		cls->write_bytes += (uint64_t)ret;
	}
	so_timing_add(&cls->write_time, ns);
}

static bool so_class_counts_empty(const struct so_class_counts *c)
{
	return !c->writes && !c->holds && !c->kn_gets && !c->kn_puts &&
	       !c->mod_gets && !c->mod_puts;
}

void so_stats_add_class_counts(struct so_stats *st, uint64_t class_id,
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

	if (!class_id || so_class_counts_empty(counts))
		return;
	cls = so_stats_class_rw(st, class_id);
	if (!cls)
		return;
	cls->writes += counts->writes;
	cls->write_bytes += counts->write_bytes;
	so_timing_merge(&cls->write_time, &writes);
	so_timing_merge(&cls->hold, &holds);
	for (b = 0; b < SO_COUNTS_HIST && b < SO_HIST_BUCKETS; b++)
		cls->hold_hist.buckets[b] += counts->hold_hist[b];
	cls->kn_gets += counts->kn_gets;
	cls->kn_puts += counts->kn_puts;
	cls->mod_gets += counts->mod_gets;
	cls->mod_puts += counts->mod_puts;
}

static void so_stats_kernfs(struct so_stats *st, const struct so_event *ev)
{
	struct so_class_stats *cls;
	struct so_pending begin;
	bool paired;

	switch (ev->type) {
	case SO_EV_KN_WRITE_BEGIN:
		so_pending_begin(st, ev, SO_PEND_WRITE);
		return;
	case SO_EV_KN_WRITE_END:
		if (ev->flags & SO_EVF_ALONE) {
			/* No begin was sent: its class and time are here. */
			so_stats_write(st, ev->class_id, ev->ret, ev->arg);
			return;
		}
		paired = so_pending_end(st, ev, SO_PEND_WRITE, &begin);
		cls = so_end_class(st, ev, paired ? &begin : NULL);
		if (!cls)
			return;
		cls->writes++;
		if (ev->ret < 0) {
			cls->write_errors++;
			so_errnos_add(&st->write_errnos, ev->ret);
		} else {
			cls->write_bytes += (uint64_t)ev->ret;
		}
		if (paired)
			so_timing_add(&cls->write_time, so_elapsed(ev, &begin));
		return;
	case SO_EV_KN_GET_ACTIVE:
		cls = so_end_class(st, ev, NULL);
		if (!cls)
			return;
		if (ev->ret) {
			cls->kn_gets++;
			so_pending_begin(st, ev, SO_PEND_ACTIVE);
		} else {
			cls->kn_refused++;
		}
		return;
	case SO_EV_KN_PUT_ACTIVE:
		paired = so_pending_end(st, ev, SO_PEND_ACTIVE, &begin);
		cls = so_end_class(st, ev, paired ? &begin : NULL);
		if (!cls)
			return;
		cls->kn_puts++;
		if (paired) {
			so_timing_add(&cls->hold, so_elapsed(ev, &begin));
			so_hist_add(&cls->hold_hist, so_elapsed(ev, &begin));
		}
		return;
	case SO_EV_KN_DRAIN_BEGIN:
		cls = so_end_class(st, ev, NULL);
		if (!cls)
			return;
		cls->kn_drains++;
		cls->kn_drain_waits += ev->arg != 0;
		so_pending_begin(st, ev, SO_PEND_DRAIN);
		return;
	case SO_EV_KN_DRAIN_END:
		paired = so_pending_end(st, ev, SO_PEND_DRAIN, &begin);
		cls = so_end_class(st, ev, paired ? &begin : NULL);
		if (!cls)
			return;
		so_timing_add(&cls->drain, ev->arg);
		/* Readers were there at entry: the drain waited for them. */
		if (paired && begin.arg)
			so_timing_add(&cls->wait, ev->arg);
		return;
	}
}

static void so_stats_module(struct so_stats *st, const struct so_event *ev)
{
	struct so_module_ops *mods = &st->modules;
	struct so_class_stats *cls;
	struct so_pending begin;
	bool paired;

	switch (ev->type) {
	case SO_EV_MOD_GET:
	case SO_EV_MOD_PUT:
		cls = so_end_class(st, ev, NULL);
		if (!cls)
			return;
		if (ev->type == SO_EV_MOD_PUT)
			cls->mod_puts++;
		else if (ev->ret)
			cls->mod_gets++;
		else
			cls->mod_get_fails++;
		return;
	case SO_EV_MOD_LOAD_BEGIN:
		so_pending_begin(st, ev, SO_PEND_LOAD);
		return;
	case SO_EV_MOD_DELETE_BEGIN:
		so_pending_begin(st, ev, SO_PEND_DELETE);
		return;
	case SO_EV_MOD_LOAD_END:
		paired = so_pending_end(st, ev, SO_PEND_LOAD, &begin);
		so_timing_add(&mods->load, paired ? so_elapsed(ev, &begin) : 0);
		if (ev->ret < 0) {
			mods->load_fails++;
			so_errnos_add(&mods->load_errnos, ev->ret);
		}
		return;
	case SO_EV_MOD_DELETE_END:
		paired = so_pending_end(st, ev, SO_PEND_DELETE, &begin);
		so_timing_add(&mods->delete,
			      paired ? so_elapsed(ev, &begin) : 0);
		if (ev->ret < 0) {
			mods->delete_fails++;
			so_errnos_add(&mods->delete_errnos, ev->ret);
		}
		return;
	}
}

static void so_stats_removal(struct so_stats *st, const struct so_event *ev)
{
	enum so_pending_kind kind = ev->type == SO_EV_DEL_GENDISK_BEGIN ||
				    ev->type == SO_EV_DEL_GENDISK_END ?
					    SO_PEND_GENDISK : SO_PEND_MISC;
	struct so_pending begin;

	if (ev->type == SO_EV_DEL_GENDISK_BEGIN ||
	    ev->type == SO_EV_MISC_DEREG_BEGIN) {
		so_pending_begin(st, ev, kind);
		return;
	}
	if (!so_pending_end(st, ev, kind, &begin))
		return;
	/* The end event's own measure, when the probe took one. */
	so_stats_device(st, kind == SO_PEND_GENDISK ? SO_DEV_GENDISK :
						      SO_DEV_MISC,
			begin.name, ev->arg ? ev->arg : so_elapsed(ev, &begin));
}

static void so_stats_lock(struct so_stats *st, const struct so_event *ev)
{
	uint64_t class_id;
	struct so_class_stats *cls;
	struct so_pending begin;

	switch (ev->type) {
	case SO_EV_LOCK_ACQUIRED:
	case SO_EV_MUTEX_INIT:
		so_stats_lock_seen(st, ev);
		return;
	case SO_EV_LOCK_RELEASED:
		so_stats_lock_seen(st, ev);
		/* Traces from before releases carried their class: find
		 * it by the lock's address. */
		class_id = ev->class_id ? ev->class_id :
			   so_stats_lock_class(st, ev->obj);
		cls = class_id ? so_stats_class_rw(st, class_id) : NULL;
		if (!cls)
			return;
		so_timing_add(&cls->hold, ev->arg);
		so_hist_add(&cls->hold_hist, ev->arg);
		return;
	case SO_EV_CONTENTION_BEGIN:
		so_pending_begin(st, ev, SO_PEND_CONTEND);
		return;
	case SO_EV_CONTENTION_END:
		if (!so_pending_end(st, ev, SO_PEND_CONTEND, &begin))
			return;
		so_stats_contention(st, begin.obj,
				    ev->class_id ? ev->class_id :
						   begin.class_id,
				    so_elapsed(ev, &begin));
		return;
	}
}

void so_stats_feed(struct so_stats *st, const struct so_event *ev)
{
	if (!st->nr_events || ev->ts_ns < st->first_ns)
		st->first_ns = ev->ts_ns;
	if (ev->ts_ns > st->last_ns)
		st->last_ns = ev->ts_ns;
	st->nr_events++;
	if (ev->type < SO_EV_NR)
		st->by_type[ev->type]++;

	switch (ev->type) {
	case SO_EV_KN_WRITE_BEGIN ... SO_EV_KN_DRAIN_END:
		so_stats_kernfs(st, ev);
		break;
	case SO_EV_MOD_GET ... SO_EV_MOD_DELETE_END:
		so_stats_module(st, ev);
		break;
	case SO_EV_DEL_GENDISK_BEGIN ... SO_EV_MISC_DEREG_END:
		so_stats_removal(st, ev);
		break;
	case SO_EV_LOCK_ACQUIRED ... SO_EV_MUTEX_INIT:
		so_stats_lock(st, ev);
		break;
	default:
		break;
	}
}
