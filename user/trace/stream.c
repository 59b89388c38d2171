// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>
#include "trace/stream.h"
#include "lib/units.h"

#define SO_COL_RESET	"\033[0m"
#define SO_COL_RED	"\033[31m"
#define SO_COL_GREEN	"\033[32m"
#define SO_COL_YELLOW	"\033[33m"
#define SO_COL_MAGENTA	"\033[35m"
#define SO_COL_BOLD_RED	"\033[1;31m"

#define SO_DETAILS_LEN	(2 * SO_CLASS_NAME_LEN + 48)

void stream_init(struct so_stream *s, FILE *out, struct so_names *names,
		 bool colour, uint64_t t0_ns)
{
	s->out = out;
	s->names = names;
	s->colour = colour;
	s->all = false;
	s->t0_ns = t0_ns;
	s->nr_lines = 0;
	s->nr_hidden = 0;
	u64map_init(&s->related);
	u64map_init(&s->contexts);
}

void stream_fini(struct so_stream *s)
{
	u64map_fini(&s->related);
	u64map_fini(&s->contexts);
}

void stream_header(struct so_stream *s)
{
	fprintf(s->out, "%10s %3s %-16s %-12s %s\n", "TIME", "CPU", "COMM/TID",
		"EVENT", "DETAILS");
}

static const char *stream_class(struct so_stream *s, const struct so_event *ev,
				char *buf, size_t len)
{
	uint64_t class_id = ev->class_id ? ev->class_id :
			    names_obj_class(s->names, ev->obj);

	if (class_id)
		return names_class(s->names, class_id, buf, len);
	if (ev->name[0])
		return ev->name;
	return addr_str(ev->obj, buf);
}

/* "ret=2"; an error is its name alone, "-ENODEV", to fit 80 columns. */
static const char *stream_ret(int64_t ret, char *buf, size_t len)
{
	char errbuf[SO_DURATION_LEN];

	if (ret < 0)
		snprintf(buf, len, "-%s", units_errno(ret, errbuf));
	else
		snprintf(buf, len, "ret=%" PRId64, ret);
	return buf;
}

/* The kernfs knobs' events: where a write waits, how it left. */
static const char *stream_knob_details(struct so_stream *s,
				       const struct so_event *ev,
				       char *buf, size_t len)
{
	char cls[SO_CLASS_NAME_LEN], points[SO_CLASS_NAME_LEN];
	char dur[SO_DURATION_LEN];

	if (ev->type == SO_EV_KNOB_COMPLETE)
		snprintf(buf, len, "%s", SO_KNOB_COMPLETION);
	else if (ev->type == SO_EV_KNOB_WAKE)
		snprintf(buf, len, "%s after %s%s",
			 stream_class(s, ev, cls, sizeof(cls)),
			 units_duration(ev->arg, dur),
			 ev->ret > 0 ? ", completed" :
			 ev->flags & SO_EVF_KNOB_SEEN ? ", timed out" : "");
	else if (ev->flags & SO_EVF_KNOB_STATE)
		snprintf(buf, len, "%s at %s, sleep %" PRIu64 " ms",
			 stream_class(s, ev, cls, sizeof(cls)),
			 names_knob_points((uint32_t)ev->ret, points,
					   sizeof(points)),
			 (uint64_t)ev->arg);
	else
		snprintf(buf, len, "%s", stream_class(s, ev, cls, sizeof(cls)));
	return buf;
}

const char *stream_details(struct so_stream *s, const struct so_event *ev,
			   char *buf, size_t len)
{
	const struct so_edge_event *edge = (const void *)ev;
	char cls[SO_CLASS_NAME_LEN], to[SO_CLASS_NAME_LEN];
	char dur[SO_DURATION_LEN], ret[SO_DURATION_LEN + 8];

	switch (ev->type) {
	case SO_EV_KN_WRITE_BEGIN:
		snprintf(buf, len, "%s len=%" PRIu64,
			 stream_class(s, ev, cls, sizeof(cls)),
			 (uint64_t)ev->arg);
		break;
	case SO_EV_KN_WRITE_END:
	case SO_EV_MOD_LOAD_END:
	case SO_EV_MOD_DELETE_END:
	case SO_EV_CONTENTION_END:
		stream_ret(ev->ret, ret, sizeof(ret));
		if (ev->class_id || ev->name[0] ||
		    (ev->type == SO_EV_CONTENTION_END && ev->obj))
			snprintf(buf, len, "%s %s",
				 stream_class(s, ev, cls, sizeof(cls)), ret);
		else
			snprintf(buf, len, "%s", ret);
		break;
	case SO_EV_KN_GET_ACTIVE:
	case SO_EV_MOD_GET:
		snprintf(buf, len, "%s %s",
			 stream_class(s, ev, cls, sizeof(cls)),
			 ev->ret ? "got" : "refused");
		break;
	case SO_EV_KN_DRAIN_BEGIN:
		snprintf(buf, len, "%s active=%" PRIu64,
			 stream_class(s, ev, cls, sizeof(cls)),
			 (uint64_t)ev->arg);
		break;
	case SO_EV_KN_DRAIN_END:
	case SO_EV_DEL_GENDISK_END:
	case SO_EV_MISC_DEREG_END:
		snprintf(buf, len, "%s%s%s",
			 ev->class_id || ev->name[0] ?
				 stream_class(s, ev, cls, sizeof(cls)) : "",
			 ev->class_id || ev->name[0] ? " " : "",
			 units_duration(ev->arg, dur));
		break;
	case SO_EV_MOD_LOAD_BEGIN:
		snprintf(buf, len, "%s", ev->name[0] ? ev->name : "finit_module");
		break;
	case SO_EV_LOCK_ACQUIRED:
		snprintf(buf, len, "%s waited %s",
			 stream_class(s, ev, cls, sizeof(cls)),
			 units_duration(ev->arg, dur));
		break;
	case SO_EV_LOCK_RELEASED:
		snprintf(buf, len, "%s held %s",
			 stream_class(s, ev, cls, sizeof(cls)),
			 units_duration(ev->arg, dur));
		break;
	case SO_EV_CONTENTION_BEGIN:
		snprintf(buf, len, "%s flags=0x%" PRIx64,
			 stream_class(s, ev, cls, sizeof(cls)),
			 (uint64_t)ev->arg);
		break;
	case SO_EV_MUTEX_INIT:
		snprintf(buf, len, "%s as lock%s", ev->name,
			 addr_str(ev->obj, to));
		break;
	case SO_EV_KNOB_WAIT:
	case SO_EV_KNOB_WAKE:
	case SO_EV_KNOB_COMPLETE:
		return stream_knob_details(s, ev, buf, len);
	case SO_EV_EDGE:
		snprintf(buf, len, "%s -> %s",
			 names_class(s->names, edge->key.from_class, cls,
				     sizeof(cls)),
			 names_class(s->names, edge->key.to_class, to,
				     sizeof(to)));
		break;
	default:
		snprintf(buf, len, "%s", stream_class(s, ev, cls, sizeof(cls)));
		break;
	}
	return buf;
}

/* What deserves a colour: failures red, waits yellow, modules magenta. */
static const char *stream_event_colour(const struct so_event *ev)
{
	switch (ev->type) {
	case SO_EV_KN_WRITE_END:
	case SO_EV_MOD_LOAD_END:
	case SO_EV_MOD_DELETE_END:
		return ev->ret < 0 ? SO_COL_RED : NULL;
	case SO_EV_KN_GET_ACTIVE:
	case SO_EV_MOD_GET:
		return ev->ret ? NULL : SO_COL_RED;
	case SO_EV_KN_DRAIN_BEGIN:
		return ev->arg ? SO_COL_YELLOW : NULL;
	case SO_EV_CONTENTION_BEGIN:
	case SO_EV_KNOB_WAIT:
	case SO_EV_EDGE:
		return SO_COL_YELLOW;
	case SO_EV_MOD_LOAD_BEGIN:
	case SO_EV_MOD_DELETE_BEGIN:
	case SO_EV_DEL_GENDISK_BEGIN:
	case SO_EV_MISC_DEREG_BEGIN:
		return SO_COL_MAGENTA;
	default:
		return NULL;
	}
}

/*
 * Seconds since the session began, never negative: an event taken
 * between attach and the session's start moves the origin back while
 * nothing is printed yet; later, one a few microseconds out of order
 * (CPUs reserve ring-buffer space after reading the clock) shows as the
 * origin, not as a time before it.
 */
static double stream_secs(struct so_stream *s, uint64_t ts_ns)
{
	if (!s->t0_ns || (!s->nr_lines && ts_ns < s->t0_ns))
		s->t0_ns = ts_ns;
	return ts_ns > s->t0_ns ? (double)(ts_ns - s->t0_ns) / 1e9 : 0.0;
}

static bool stream_kind_observed(uint64_t class_id)
{
	uint32_t kind = SO_CLASS_KIND(class_id);

	return kind == SO_CLASS_KN || kind == SO_CLASS_MOD;
}

/* Keeps what stream_wants() asks: which tasks hold active references
 * or remove a module, which lock classes have an edge to or from a
 * kernfs node or module.  Out of memory, a context or relation goes
 * unrecorded and its lock lines are counted as left out (-v shows them). */
static void stream_track(struct so_stream *s, const struct so_event *ev)
{
	const struct so_edge_event *edge = (const void *)ev;
	uint32_t n = 0;

	switch (ev->type) {
	case SO_EV_KN_GET_ACTIVE:
		if (ev->ret != 1)
			break;
		/* fall through */
	case SO_EV_MOD_DELETE_BEGIN:
		u64map_get(&s->contexts, ev->tid, &n);
		u64map_put(&s->contexts, ev->tid, n + 1);
		break;
	case SO_EV_KN_PUT_ACTIVE:
	case SO_EV_MOD_DELETE_END:
		if (!u64map_get(&s->contexts, ev->tid, &n))
			break;
		if (n > 1)
			u64map_put(&s->contexts, ev->tid, n - 1);
		else
			u64map_del(&s->contexts, ev->tid);
		break;
	case SO_EV_EDGE:
		if (stream_kind_observed(edge->key.from_class))
			u64map_put(&s->related, edge->key.to_class, 1);
		if (stream_kind_observed(edge->key.to_class))
			u64map_put(&s->related, edge->key.from_class, 1);
		break;
	}
}

static bool stream_wants(struct so_stream *s, const struct so_event *ev)
{
	const struct so_edge_event *edge = (const void *)ev;
	uint64_t class_id;

	if (s->all || u64map_get(&s->contexts, ev->tid, NULL))
		return true;
	switch (ev->type) {
	case SO_EV_EDGE:
		return stream_kind_observed(edge->key.from_class) ||
		       stream_kind_observed(edge->key.to_class);
	case SO_EV_LOCK_ACQUIRED:
	case SO_EV_LOCK_RELEASED:
	case SO_EV_CONTENTION_BEGIN:
	case SO_EV_CONTENTION_END:
	case SO_EV_MUTEX_INIT:
		class_id = ev->class_id ? ev->class_id :
			   names_obj_class(s->names, ev->obj);
		return class_id && u64map_get(&s->related, class_id, NULL);
	default:
		return true;
	}
}

void stream_event(struct so_stream *s, const struct so_event *ev)
{
	char who[SO_COMM_LEN + 12], details[SO_DETAILS_LEN];
	const char *colour = s->colour ? stream_event_colour(ev) : NULL;

	stream_track(s, ev);
	if (!stream_wants(s, ev)) {
		s->nr_hidden++;
		return;
	}
	snprintf(who, sizeof(who), "%s/%u", ev->comm, ev->tid);
	stream_details(s, ev, details, sizeof(details));
	fprintf(s->out, "%10.6f %3u %-16s %s%-12s %s%s\n",
		stream_secs(s, ev->ts_ns), ev->cpu, who,
		colour ? colour : "", names_event_type(ev->type), details,
		colour ? SO_COL_RESET : "");
	s->nr_lines++;
}

static const char *stream_verdict_colour(const char *verdict)
{
	if (!strcmp(verdict, "GATED"))
		return SO_COL_GREEN;
	if (!strncmp(verdict, "DEADLOCK", 8))
		return SO_COL_BOLD_RED;
	return SO_COL_YELLOW;
}

void stream_finding(struct so_stream *s, uint64_t ts_ns,
		    const char *verdict, const char *fmt, ...)
{
	va_list ap;

	fprintf(s->out, "%10.6f %3s %-16s %s%s%s ", stream_secs(s, ts_ns),
		"-", "finding", s->colour ? stream_verdict_colour(verdict) : "",
		verdict, s->colour ? SO_COL_RESET : "");
	va_start(ap, fmt);
	vfprintf(s->out, fmt, ap);
	va_end(ap);
	fputc('\n', s->out);
	s->nr_lines++;
}
