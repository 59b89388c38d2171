// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * Write timelines in words: the steps' names and JSON keys, the knob
 * label a wait event's state makes, and the text summary's lines.
 * Apart from the tracker (write_timeline.c) because none of it follows
 * a write: it only says what a finished timeline holds.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "analysis/write_timeline.h"
#include "trace/names.h"
#include "lib/units.h"

static const char *const wt_step_names[WT_STEP_NR] = {
	[WT_STEP_WRITE_START]	 = "write starts",
	[WT_STEP_ACTIVE]	 = "active ref taken",
	[WT_STEP_ACTIVE_REFUSED] = "active ref refused",
	[WT_STEP_KNOB_WAIT]	 = "waiting at the knob",
	[WT_STEP_COMPLETION]	 = "completion",
	[WT_STEP_TIMEOUT]	 = "knob wait timed out",
	[WT_STEP_KNOB_RETURN]	 = "leaves the knob",
	[WT_STEP_DRAIN_BEGIN]	 = "drain begins",
	[WT_STEP_DRAIN_END]	 = "drain ends",
	[WT_STEP_WRITE_DONE]	 = "write done",
	[WT_STEP_REMOVED]	 = "device removed",
};

static const char *const wt_step_keys[WT_STEP_NR] = {
	[WT_STEP_WRITE_START]	 = "write_start",
	[WT_STEP_ACTIVE]	 = "active_taken",
	[WT_STEP_ACTIVE_REFUSED] = "active_refused",
	[WT_STEP_KNOB_WAIT]	 = "knob_wait",
	[WT_STEP_COMPLETION]	 = "completion",
	[WT_STEP_TIMEOUT]	 = "timeout",
	[WT_STEP_KNOB_RETURN]	 = "knob_return",
	[WT_STEP_DRAIN_BEGIN]	 = "drain_begin",
	[WT_STEP_DRAIN_END]	 = "drain_end",
	[WT_STEP_WRITE_DONE]	 = "write_done",
	[WT_STEP_REMOVED]	 = "device_removed",
};

const char *wt_step_name(uint32_t kind)
{
	return kind < WT_STEP_NR ? wt_step_names[kind] : "?";
}

const char *wt_step_key(uint32_t kind)
{
	return kind < WT_STEP_NR ? wt_step_keys[kind] : "?";
}

uint32_t wt_points_from_event(const struct so_event *ev, bool after_active)
{
	uint32_t mask = (uint32_t)ev->ret & ((1u << SO_KNOB_NR) - 1);
	uint32_t after = 1u << SO_KNOB_AFTER_ACTIVE;

	if (!(ev->flags & SO_EVF_KNOB_STATE))
		return 0;
	/* The wait points are passed in order: with the active reference
	 * held only after_active can have fired, without it only the
	 * others.  Unless that leaves none: then say all that were on. */
	if (mask & (after_active ? after : ~after))
		mask &= after_active ? after : ~after;
	return mask;
}

void wt_label_from_event(const struct so_event *ev, bool after_active,
			 char *label, size_t len)
{
	char points[WT_LABEL_LEN];

	if (!(ev->flags & SO_EVF_KNOB_STATE)) {
		snprintf(label, len, "kernfs knob (state unknown)");
		return;
	}
	snprintf(label, len, "%s, sleep_after_wait_ms=%" PRIu64,
		 names_knob_points(wt_points_from_event(ev, after_active),
				   points, sizeof(points)),
		 (uint64_t)ev->arg);
}

double wt_step_ms(const struct wt_timeline *tl, const struct wt_step *step)
{
	return step->ts_ns >= tl->start_ns ?
		       (double)(step->ts_ns - tl->start_ns) / 1e6 :
		       -(double)(tl->start_ns - step->ts_ns) / 1e6;
}

/* "+41.0 drain begins": the first one says its unit. */
static int wt_step_text(const struct wt_timeline *tl, uint32_t i, char *buf,
			size_t len)
{
	const struct wt_step *step = &tl->steps[i];
	char err[SO_DURATION_LEN], ret[SO_DURATION_LEN + 16] = "";

	if (step->kind == WT_STEP_WRITE_DONE) {
		if (tl->ret < 0)
			snprintf(ret, sizeof(ret), " (-%s)",
				 units_errno(tl->ret, err));
		else
			snprintf(ret, sizeof(ret), " (ret %" PRId64 ")",
				 tl->ret);
	}
	return snprintf(buf, len, "%+.1f%s %s%s", wt_step_ms(tl, step),
			i ? "" : " ms", wt_step_name(step->kind), ret);
}

void wt_print(const struct wt_timeline *tl, FILE *out)
{
	char step[80], name[SO_NAME_LEN + 4];
	uint32_t i;
	int col;

	if (tl->name[0])
		snprintf(name, sizeof(name), "kn:%s", tl->name);
	else
		snprintf(name, sizeof(name), "kn:?");
	fprintf(out, "%s: %s by %s/%u", tl->label[0] ? tl->label : "?", name,
		tl->comm, tl->tid);
	if (tl->nr_waits > 1)
		fprintf(out, ", %u waits", tl->nr_waits);
	fputc('\n', out);
	col = fprintf(out, " ");
	for (i = 0; i < tl->nr_steps; i++) {
		int len = wt_step_text(tl, i, step, sizeof(step));

		/* ", " before, "," after: keep lines under 80 columns. */
		if (i && col + 2 + len + 1 > 79)
			col = fprintf(out, ",\n ");
		else if (i)
			col += fprintf(out, ",");
		col += fprintf(out, " %s", step);
	}
	if (!tl->done)
		fprintf(out, "%s the write had not returned at the end",
			col + 40 > 79 ? ";\n " : ";");
	else if (!tl->removed)
		fprintf(out, "%s no device removal seen",
			col + 25 > 79 ? ";\n " : ";");
	if (tl->nr_steps_lost)
		fprintf(out, " (%u more steps not kept)", tl->nr_steps_lost);
	fputc('\n', out);
}
