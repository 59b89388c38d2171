// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * Write timelines: see write_timeline.h.
 *
 * A write is followed from its start in `flight`; its first knob wait
 * moves it to `records`, where it stays open until its device's removal
 * ends (which may come after the write returned) or the session ends.
 * Writes that never wait are forgotten when they return.
 *
 * The words for a timeline (step names, labels, the printed lines) are
 * write_timeline_text.c: this file only follows the writes.  It stays
 * one file past 400 lines because matching waits, drains and device
 * removals to the writes they belong to is one job over one table.
 */
#include <stdlib.h>
#include <string.h>
#include "analysis/write_timeline.h"
#include "lib/array.h"

/* A device removal in progress, to tell its end (which names nothing). */
struct wt_removal {
	uint32_t tid;
	uint32_t type;		/* the BEGIN event's */
	char name[SO_NAME_LEN];
};

/* Per timeline, what matching needs beyond what it shows. */
struct wt_entry {
	struct wt_timeline tl;
	bool waiting;		/* inside kernfs_debug_wait() now */
	bool completed;		/* a completion step for this wait */
	bool active_seen;
	bool active_held;	/* ... and it was taken */
	bool drain_seen;
	uint32_t drain_tid;
	uint64_t drain_obj;
	bool drain_ended;
};

struct wt_tracker {
	struct wt_entry *flight;	/* writes that have not waited */
	size_t nr_flight, cap_flight;
	struct wt_entry *records;	/* writes that waited */
	size_t nr_records, cap_records;
	struct wt_removal *removals;
	size_t nr_removals, cap_removals;
	uint64_t dropped;
	wt_knob_fn knob_fn;
	void *knob_ctx;
};

struct wt_tracker *wt_new(void)
{
	return calloc(1, sizeof(struct wt_tracker));
}

void wt_free(struct wt_tracker *wt)
{
	if (!wt)
		return;
	free(wt->flight);
	free(wt->records);
	free(wt->removals);
	free(wt);
}

void wt_set_knob_fn(struct wt_tracker *wt, wt_knob_fn fn, void *ctx)
{
	wt->knob_fn = fn;
	wt->knob_ctx = ctx;
}

static void wt_step(struct wt_entry *e, uint32_t kind, uint32_t tid,
		    uint64_t ts_ns)
{
	struct wt_timeline *tl = &e->tl;

	if (tl->nr_steps == WT_STEPS_MAX) {
		tl->nr_steps_lost++;
		return;
	}
	tl->steps[tl->nr_steps].kind = kind;
	tl->steps[tl->nr_steps].tid = tid;
	tl->steps[tl->nr_steps].ts_ns = ts_ns;
	tl->nr_steps++;
}

/* The timeline still open for writes by `tid`: waited first, then not. */
static struct wt_entry *wt_find_write(struct wt_tracker *wt, uint32_t tid,
				      size_t *flight_idx)
{
	size_t i;

	for (i = wt->nr_records; i-- > 0;)
		if (wt->records[i].tl.tid == tid && !wt->records[i].tl.done)
			return &wt->records[i];
	for (i = 0; i < wt->nr_flight; i++)
		if (wt->flight[i].tl.tid == tid) {
			if (flight_idx)
				*flight_idx = i;
			return &wt->flight[i];
		}
	return NULL;
}

static void wt_flight_drop(struct wt_tracker *wt, size_t i)
{
	wt->flight[i] = wt->flight[--wt->nr_flight];
}

static void wt_write_begin(struct wt_tracker *wt, const struct so_event *ev)
{
	size_t i = (size_t)-1;
	struct wt_entry *e = wt_find_write(wt, ev->tid, &i);

	/* A begin without its end (lost): the old write is over. */
	if (e && i != (size_t)-1)
		wt_flight_drop(wt, i);
	else if (e)
		e->tl.done = true;
	if (array_reserve((void **)&wt->flight, &wt->cap_flight,
			  wt->nr_flight, sizeof(*wt->flight))) {
		wt->dropped++;
		return;
	}
	e = &wt->flight[wt->nr_flight++];
	memset(e, 0, sizeof(*e));
	e->tl.tid = ev->tid;
	memcpy(e->tl.comm, ev->comm, SO_COMM_LEN);
	e->tl.comm[SO_COMM_LEN - 1] = 0;
	e->tl.kn = ev->obj;
	e->tl.class_id = ev->class_id;
	memcpy(e->tl.name, ev->name, SO_NAME_LEN);
	e->tl.name[SO_NAME_LEN - 1] = 0;
	e->tl.start_ns = ev->ts_ns;
	wt_step(e, WT_STEP_WRITE_START, ev->tid, ev->ts_ns);
}

static void wt_get_active(struct wt_tracker *wt, const struct so_event *ev)
{
	struct wt_entry *e = wt_find_write(wt, ev->tid, NULL);

	/* Only the write's own node, once: the store may take others. */
	if (!e || e->active_seen || ev->obj != e->tl.kn)
		return;
	e->active_seen = true;
	e->active_held = ev->ret != 0;
	wt_step(e, ev->ret ? WT_STEP_ACTIVE : WT_STEP_ACTIVE_REFUSED, ev->tid,
		ev->ts_ns);
}

static struct wt_entry *wt_promote(struct wt_tracker *wt, size_t flight_idx)
{
	struct wt_entry *e;

	if (wt->nr_records == WT_RECORDS_MAX ||
	    array_reserve((void **)&wt->records, &wt->cap_records,
			  wt->nr_records, sizeof(*wt->records))) {
		wt->dropped++;
		wt_flight_drop(wt, flight_idx);
		return NULL;
	}
	e = &wt->records[wt->nr_records++];
	*e = wt->flight[flight_idx];
	wt_flight_drop(wt, flight_idx);
	return e;
}

static void wt_knob_wait(struct wt_tracker *wt, const struct so_event *ev)
{
	size_t i = (size_t)-1;
	struct wt_entry *e = wt_find_write(wt, ev->tid, &i);

	if (!e)
		return;		/* its write was not seen: nothing to anchor */
	if (i != (size_t)-1 && e == &wt->flight[i]) {
		e = wt_promote(wt, i);
		if (!e)
			return;
	}
	if (!e->tl.nr_waits) {
		e->tl.knob_points = wt_points_from_event(ev, e->active_held);
		e->tl.sleep_ms = ev->flags & SO_EVF_KNOB_STATE ?
					 (int64_t)ev->arg : -1;
		if (ev->flags & SO_EVF_KNOB_STATE)
			wt_label_from_event(ev, e->active_held, e->tl.label,
					    sizeof(e->tl.label));
		else if (wt->knob_fn)
			wt->knob_fn(wt->knob_ctx, e->tl.label,
				    sizeof(e->tl.label));
		else
			wt_label_from_event(ev, false, e->tl.label,
					    sizeof(e->tl.label));
		e->tl.label[sizeof(e->tl.label) - 1] = 0;
	}
	e->tl.nr_waits++;
	e->waiting = true;
	e->completed = false;
	wt_step(e, WT_STEP_KNOB_WAIT, ev->tid, ev->ts_ns);
}

static void wt_knob_complete(struct wt_tracker *wt, const struct so_event *ev)
{
	size_t i;

	for (i = 0; i < wt->nr_records; i++) {
		struct wt_entry *e = &wt->records[i];

		if (!e->waiting || e->completed)
			continue;
		e->completed = true;
		wt_step(e, WT_STEP_COMPLETION, ev->tid, ev->ts_ns);
	}
}

static void wt_knob_wake(struct wt_tracker *wt, const struct so_event *ev)
{
	struct wt_entry *e = wt_find_write(wt, ev->tid, NULL);

	if (!e || !e->waiting)
		return;
	/* The completer may be unobserved: the wake knows when it was. */
	if (!e->completed && ev->ret > 0)
		wt_step(e, WT_STEP_COMPLETION, 0, (uint64_t)ev->ret);
	else if (!e->completed && ((ev->flags & SO_EVF_KNOB_SEEN) ||
				   ev->arg >= WT_TIMEOUT_NS))
		wt_step(e, WT_STEP_TIMEOUT, ev->tid, ev->ts_ns);
	e->waiting = false;
	e->completed = false;
	wt_step(e, WT_STEP_KNOB_RETURN, ev->tid, ev->ts_ns);
}

static void wt_write_end(struct wt_tracker *wt, const struct so_event *ev)
{
	size_t i = (size_t)-1;
	struct wt_entry *e = wt_find_write(wt, ev->tid, &i);

	if (!e)
		return;
	if (i != (size_t)-1 && e == &wt->flight[i]) {
		wt_flight_drop(wt, i);	/* never waited: not a timeline */
		return;
	}
	e->waiting = false;
	e->tl.done = true;
	e->tl.ret = ev->ret;
	wt_step(e, WT_STEP_WRITE_DONE, ev->tid, ev->ts_ns);
}

/* A drain of the written node, or of its class (a module reloaded). */
static void wt_drain(struct wt_tracker *wt, const struct so_event *ev,
		     bool begin)
{
	size_t i;

	for (i = 0; i < wt->nr_records; i++) {
		struct wt_entry *e = &wt->records[i];

		if (e->tl.removed)
			continue;
		if (begin && !e->drain_seen &&
		    (ev->obj == e->tl.kn ||
		     (ev->class_id && ev->class_id == e->tl.class_id))) {
			e->drain_seen = true;
			e->drain_tid = ev->tid;
			e->drain_obj = ev->obj;
			wt_step(e, WT_STEP_DRAIN_BEGIN, ev->tid, ev->ts_ns);
		} else if (!begin && e->drain_seen && !e->drain_ended &&
			   e->drain_tid == ev->tid &&
			   e->drain_obj == ev->obj) {
			e->drain_ended = true;
			wt_step(e, WT_STEP_DRAIN_END, ev->tid, ev->ts_ns);
		}
	}
}

static void wt_removal_begin(struct wt_tracker *wt, const struct so_event *ev)
{
	struct wt_removal *r;

	if (array_reserve((void **)&wt->removals, &wt->cap_removals,
			  wt->nr_removals, sizeof(*wt->removals)))
		return;
	r = &wt->removals[wt->nr_removals++];
	r->tid = ev->tid;
	r->type = ev->type;
	memcpy(r->name, ev->name, SO_NAME_LEN);
	r->name[SO_NAME_LEN - 1] = 0;
}

/* The device is the node's directory: "test_sysfs0" for
 * "test_sysfs0/test_dev_x".  Unknown on either side matches. */
static bool wt_device_of(const struct wt_timeline *tl, const char *device)
{
	size_t len = strlen(device);

	if (!device[0] || !strchr(tl->name, '/'))
		return true;
	return !strncmp(tl->name, device, len) && tl->name[len] == '/';
}

static void wt_removal_end(struct wt_tracker *wt, const struct so_event *ev)
{
	uint32_t begin_type = ev->type == SO_EV_DEL_GENDISK_END ?
				      SO_EV_DEL_GENDISK_BEGIN :
				      SO_EV_MISC_DEREG_BEGIN;
	struct wt_removal r;
	size_t i;

	/* Innermost first: one removal may run inside another. */
	for (i = wt->nr_removals; i-- > 0;)
		if (wt->removals[i].tid == ev->tid &&
		    wt->removals[i].type == begin_type)
			break;
	if (i == (size_t)-1)
		return;
	r = wt->removals[i];
	memmove(&wt->removals[i], &wt->removals[i + 1],
		(wt->nr_removals - i - 1) * sizeof(*wt->removals));
	wt->nr_removals--;
	for (i = 0; i < wt->nr_records; i++) {
		struct wt_entry *e = &wt->records[i];

		if (e->tl.removed || !wt_device_of(&e->tl, r.name))
			continue;
		e->tl.removed = true;
		wt_step(e, WT_STEP_REMOVED, ev->tid, ev->ts_ns);
	}
}

void wt_feed(struct wt_tracker *wt, const struct so_event *ev)
{
	if (!wt || !ev)
		return;
	switch (ev->type) {
	case SO_EV_KN_WRITE_BEGIN:
		wt_write_begin(wt, ev);
		break;
	case SO_EV_KN_WRITE_END:
		wt_write_end(wt, ev);
		break;
	case SO_EV_KN_GET_ACTIVE:
		wt_get_active(wt, ev);
		break;
	case SO_EV_KNOB_WAIT:
		wt_knob_wait(wt, ev);
		break;
	case SO_EV_KNOB_COMPLETE:
		wt_knob_complete(wt, ev);
		break;
	case SO_EV_KNOB_WAKE:
		wt_knob_wake(wt, ev);
		break;
	case SO_EV_KN_DRAIN_BEGIN:
	case SO_EV_KN_DRAIN_END:
		if (wt->nr_records)
			wt_drain(wt, ev, ev->type == SO_EV_KN_DRAIN_BEGIN);
		break;
	case SO_EV_DEL_GENDISK_BEGIN:
	case SO_EV_MISC_DEREG_BEGIN:
		wt_removal_begin(wt, ev);
		break;
	case SO_EV_DEL_GENDISK_END:
	case SO_EV_MISC_DEREG_END:
		wt_removal_end(wt, ev);
		break;
	default:
		break;
	}
}

/* Steps arrive per CPU and the wake reports its completion late: a
 * stable insertion sort by time (a timeline has a handful). */
static void wt_sort_steps(struct wt_timeline *tl)
{
	struct wt_step s;
	uint32_t i, j;

	for (i = 1; i < tl->nr_steps; i++) {
		s = tl->steps[i];
		for (j = i; j > 0 && tl->steps[j - 1].ts_ns > s.ts_ns; j--)
			tl->steps[j] = tl->steps[j - 1];
		tl->steps[j] = s;
	}
}

void wt_finish(struct wt_tracker *wt)
{
	size_t i;

	if (!wt)
		return;
	for (i = 0; i < wt->nr_records; i++)
		wt_sort_steps(&wt->records[i].tl);
}

size_t wt_count(const struct wt_tracker *wt)
{
	return wt ? wt->nr_records : 0;
}

const struct wt_timeline *wt_at(const struct wt_tracker *wt, size_t i)
{
	return wt && i < wt->nr_records ? &wt->records[i].tl : NULL;
}

uint64_t wt_dropped(const struct wt_tracker *wt)
{
	return wt ? wt->dropped : 0;
}
