// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * stats_feed(): what each event means for the figures, by family
 * (kernfs, modules, device removals, locks).  Apart from the store
 * (stats.c), which knows no event type: this file is where a new probe's
 * event is taught to the summary.
 */
#include "analysis/stats_impl.h"

static uint64_t stats_elapsed(const struct so_event *ev,
			      const struct so_pending *begin)
{
	return ev->ts_ns > begin->ts_ns ? ev->ts_ns - begin->ts_ns : 0;
}

static struct so_class_stats *stats_end_class(struct so_stats *st,
					      const struct so_event *ev,
					      const struct so_pending *begin)
{
	uint64_t class_id = ev->class_id ? ev->class_id :
			    begin ? begin->class_id : 0;

	return class_id ? stats_class_rw(st, class_id) : NULL;
}

/* A write's bytes or its error, on its class and in the errno table. */
static void stats_write_end(struct so_stats *st, const struct so_event *ev)
{
	/* Sent alone (summary mode): no begin, its class and time here. */
	bool alone = ev->flags & SO_EVF_ALONE;
	struct so_class_stats *cls;
	struct so_pending begin;
	bool paired;

	paired = !alone && stats_pending_end(st, ev, SO_PEND_WRITE, &begin);
	cls = stats_end_class(st, ev, paired ? &begin : NULL);
	if (!cls)
		return;
	cls->writes++;
	if (ev->ret < 0) {
		cls->write_errors++;
		stats_errnos_add(&st->write_errnos, ev->ret);
	} else {
		cls->write_bytes += (uint64_t)ev->ret;
	}
	if (alone)
		stats_timing_add(&cls->write_time, ev->arg);
	else if (paired)
		stats_timing_add(&cls->write_time, stats_elapsed(ev, &begin));
}

static void stats_kernfs(struct so_stats *st, const struct so_event *ev)
{
	struct so_class_stats *cls;
	struct so_pending begin;
	bool paired;

	switch (ev->type) {
	case SO_EV_KN_WRITE_BEGIN:
		stats_pending_begin(st, ev, SO_PEND_WRITE);
		return;
	case SO_EV_KN_WRITE_END:
		stats_write_end(st, ev);
		return;
	case SO_EV_KN_GET_ACTIVE:
		cls = stats_end_class(st, ev, NULL);
		if (!cls)
			return;
		if (ev->ret) {
			cls->kn_gets++;
			stats_pending_begin(st, ev, SO_PEND_ACTIVE);
		} else {
			cls->kn_refused++;
		}
		return;
	case SO_EV_KN_PUT_ACTIVE:
		paired = stats_pending_end(st, ev, SO_PEND_ACTIVE, &begin);
		cls = stats_end_class(st, ev, paired ? &begin : NULL);
		if (!cls)
			return;
		cls->kn_puts++;
		if (paired) {
			stats_timing_add(&cls->hold, stats_elapsed(ev, &begin));
			stats_hist_add(&cls->hold_hist,
				       stats_elapsed(ev, &begin));
		}
		return;
	case SO_EV_KN_DRAIN_BEGIN:
		cls = stats_end_class(st, ev, NULL);
		if (!cls)
			return;
		cls->kn_drains++;
		cls->kn_drain_waits += ev->arg != 0;
		stats_pending_begin(st, ev, SO_PEND_DRAIN);
		return;
	case SO_EV_KN_DRAIN_END:
		paired = stats_pending_end(st, ev, SO_PEND_DRAIN, &begin);
		cls = stats_end_class(st, ev, paired ? &begin : NULL);
		if (!cls)
			return;
		stats_timing_add(&cls->drain, ev->arg);
		/* Readers were there at entry: the drain waited for them. */
		if (paired && begin.arg)
			stats_timing_add(&cls->wait, ev->arg);
		return;
	}
}

static void stats_module(struct so_stats *st, const struct so_event *ev)
{
	struct so_module_ops *mods = &st->modules;
	struct so_class_stats *cls;
	struct so_pending begin;
	bool paired;

	switch (ev->type) {
	case SO_EV_MOD_GET:
	case SO_EV_MOD_PUT:
		cls = stats_end_class(st, ev, NULL);
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
		stats_pending_begin(st, ev, SO_PEND_LOAD);
		return;
	case SO_EV_MOD_DELETE_BEGIN:
		stats_pending_begin(st, ev, SO_PEND_DELETE);
		return;
	case SO_EV_MOD_LOAD_END:
		paired = stats_pending_end(st, ev, SO_PEND_LOAD, &begin);
		stats_timing_add(&mods->load,
				 paired ? stats_elapsed(ev, &begin) : 0);
		if (ev->ret < 0) {
			mods->load_fails++;
			stats_errnos_add(&mods->load_errnos, ev->ret);
		}
		return;
	case SO_EV_MOD_DELETE_END:
		paired = stats_pending_end(st, ev, SO_PEND_DELETE, &begin);
		stats_timing_add(&mods->delete,
				 paired ? stats_elapsed(ev, &begin) : 0);
		if (ev->ret < 0) {
			mods->delete_fails++;
			stats_errnos_add(&mods->delete_errnos, ev->ret);
		}
		return;
	}
}

static void stats_removal(struct so_stats *st, const struct so_event *ev)
{
	enum so_pending_kind kind = ev->type == SO_EV_DEL_GENDISK_BEGIN ||
				    ev->type == SO_EV_DEL_GENDISK_END ?
					    SO_PEND_GENDISK : SO_PEND_MISC;
	struct so_pending begin;

	if (ev->type == SO_EV_DEL_GENDISK_BEGIN ||
	    ev->type == SO_EV_MISC_DEREG_BEGIN) {
		stats_pending_begin(st, ev, kind);
		return;
	}
	if (!stats_pending_end(st, ev, kind, &begin))
		return;
	/* The end event's own measure, when the probe took one. */
	stats_device(st, kind == SO_PEND_GENDISK ? SO_DEV_GENDISK :
						      SO_DEV_MISC,
		     begin.name, ev->arg ? ev->arg : stats_elapsed(ev, &begin));
}

static void stats_lock(struct so_stats *st, const struct so_event *ev)
{
	uint64_t class_id;
	struct so_class_stats *cls;
	struct so_pending begin;

	switch (ev->type) {
	case SO_EV_LOCK_ACQUIRED:
	case SO_EV_MUTEX_INIT:
		stats_lock_seen(st, ev);
		return;
	case SO_EV_LOCK_RELEASED:
		stats_lock_seen(st, ev);
		/* Traces from before releases carried their class: find
		 * it by the lock's address. */
		class_id = ev->class_id ? ev->class_id :
			   stats_lock_class(st, ev->obj);
		cls = class_id ? stats_class_rw(st, class_id) : NULL;
		if (!cls)
			return;
		stats_timing_add(&cls->hold, ev->arg);
		stats_hist_add(&cls->hold_hist, ev->arg);
		return;
	case SO_EV_CONTENTION_BEGIN:
		stats_pending_begin(st, ev, SO_PEND_CONTEND);
		return;
	case SO_EV_CONTENTION_END:
		if (!stats_pending_end(st, ev, SO_PEND_CONTEND, &begin))
			return;
		stats_contention(st, begin.obj,
				 ev->class_id ? ev->class_id :
						   begin.class_id,
				 stats_elapsed(ev, &begin));
		return;
	}
}

void stats_feed(struct so_stats *st, const struct so_event *ev)
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
		stats_kernfs(st, ev);
		break;
	case SO_EV_MOD_GET ... SO_EV_MOD_DELETE_END:
		stats_module(st, ev);
		break;
	case SO_EV_DEL_GENDISK_BEGIN ... SO_EV_MISC_DEREG_END:
		stats_removal(st, ev);
		break;
	case SO_EV_LOCK_ACQUIRED ... SO_EV_MUTEX_INIT:
		stats_lock(st, ev);
		break;
	default:
		break;
	}
}
