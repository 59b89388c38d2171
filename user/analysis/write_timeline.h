/* SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1 */
/*
 * Write timelines: each observed kernfs write that stopped at a kernfs
 * knob (kernfs/patches), followed by its tid from its start through the
 * wait to its end, and on to the removal of its device, so the report
 * can show the interleaving the knob produced:
 *
 *   wait_after_active, sleep_after_wait_ms=16: kn:test_sysfs0/test_dev_x
 *     +0.0 ms write starts, +0.1 active ref taken, +0.2 waiting at the
 *     knob, +40.3 completion, +41.0 drain begins, +141.2 write done
 *     (ret 2), +150.3 device removed
 *
 * Pure: events in, timelines out.  Which wait point and delay produced a
 * timeline comes from the wait event itself when the probe could read
 * the knob state in the kernel, else from a callback the live session
 * supplies (it reads debugfs), else it is unknown.
 */
#ifndef SO_WRITE_TIMELINE_H
#define SO_WRITE_TIMELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "observe.h"

#define WT_LABEL_LEN	96
#define WT_STEPS_MAX	16
/* Timelines kept; a run of the knob scenarios makes one per delay. */
#define WT_RECORDS_MAX	1024
/* A knob wait that lasted this long without a completion timed out
 * (the patch waits at most 3000 ms; TCG clocks run loose). */
#define WT_TIMEOUT_NS	2500000000ULL

enum wt_step_kind {
	WT_STEP_WRITE_START,
	WT_STEP_ACTIVE,		/* kernfs_get_active() on the write's node */
	WT_STEP_ACTIVE_REFUSED,	/* ... refused: the node is being removed */
	WT_STEP_KNOB_WAIT,	/* kernfs_debug_wait() entered */
	WT_STEP_COMPLETION,	/* kernfs_debug_wait_completion completed */
	WT_STEP_TIMEOUT,	/* the wait gave up */
	WT_STEP_KNOB_RETURN,	/* kernfs_debug_wait() returned (after its
				 * sleep_after_wait_ms) */
	WT_STEP_DRAIN_BEGIN,	/* kernfs_drain() of the node, any task */
	WT_STEP_DRAIN_END,
	WT_STEP_WRITE_DONE,
	WT_STEP_REMOVED,	/* del_gendisk / misc_deregister returned */
	WT_STEP_NR,
};

struct wt_step {
	uint32_t kind;		/* enum wt_step_kind */
	uint32_t tid;		/* who did it */
	uint64_t ts_ns;
};

struct wt_timeline {
	uint32_t tid;
	char comm[SO_COMM_LEN];
	uint64_t kn;			/* the node written */
	uint64_t class_id;
	char name[SO_NAME_LEN];		/* "<dir>/<attr>", may be empty */
	char label[WT_LABEL_LEN];	/* wait point and delay */
	/* The same from the wait event, when it carried the knob state:
	 * enum so_knob_point mask (the one that fired, where the order of
	 * the steps tells), sleep_after_wait_ms; -1 unknown. */
	uint32_t knob_points;
	int64_t sleep_ms;
	uint64_t start_ns;
	int64_t ret;			/* the write's, when done */
	bool done;			/* the write returned */
	bool removed;			/* its device's removal ended */
	uint32_t nr_waits;		/* knob waits in this write */
	uint32_t nr_steps;
	uint32_t nr_steps_lost;		/* beyond WT_STEPS_MAX */
	struct wt_step steps[WT_STEPS_MAX];
};

/*
 * The session's way to the knob state when the event does not carry it:
 * called once per timeline, at its first wait, with room for the label
 * ("wait_after_active, sleep_after_wait_ms=16").  Must not block long:
 * it runs in the event loop.
 */
typedef void (*wt_knob_fn)(void *ctx, char *label, size_t len);

struct wt_tracker;

struct wt_tracker *wt_new(void);
void wt_free(struct wt_tracker *wt);
void wt_set_knob_fn(struct wt_tracker *wt, wt_knob_fn fn, void *ctx);
/* Every checked event, in order; the ones it does not need cost a switch. */
void wt_feed(struct wt_tracker *wt, const struct so_event *ev);
/* The session ended: writes still waiting become timelines as they are
 * (not done), steps are put in time order.  Idempotent; feeding after it
 * goes on as before. */
void wt_finish(struct wt_tracker *wt);

/* Timelines of writes that waited at a knob, in the order they waited. */
size_t wt_count(const struct wt_tracker *wt);
const struct wt_timeline *wt_at(const struct wt_tracker *wt, size_t i);
/* Timelines not kept (WT_RECORDS_MAX) and writes not followed (memory). */
uint64_t wt_dropped(const struct wt_tracker *wt);

/* "write starts", "active ref taken", ...: the step as the report says it. */
const char *wt_step_name(uint32_t kind);
/* "write_start", "active_taken", ...: the step as JSON keys it. */
const char *wt_step_key(uint32_t kind);
/* The step's offset from the write's start, in ms (negative: before). */
double wt_step_ms(const struct wt_timeline *tl, const struct wt_step *step);
/* The label from a wait event's knob state: "wait_after_active,
 * sleep_after_wait_ms=16".  `after_active`: the write had its active
 * reference when it waited, which rules out the earlier wait points. */
void wt_label_from_event(const struct so_event *ev, bool after_active,
			 char *label, size_t len);
/* The wait points that can have fired, as wt_label_from_event() names
 * them (0 when the event has no knob state). */
uint32_t wt_points_from_event(const struct so_event *ev, bool after_active);
/* One timeline as the text summary prints it, wrapped under 80 columns. */
void wt_print(const struct wt_timeline *tl, FILE *out);

#endif /* SO_WRITE_TIMELINE_H */
