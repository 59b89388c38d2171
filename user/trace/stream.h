/* SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1 */
/*
 * The live stream: one event a line, aligned, under 80 columns where the
 * names allow, colour only when the caller asks (it knows if out is a
 * tty).  Findings go through here too, so they line up with the events.
 *
 *       TIME CPU COMM/TID         EVENT        DETAILS
 *   0.000120   1 sh/312           write        kn:test_sysfs0/test_dev_x len=2
 */
#ifndef SO_STREAM_H
#define SO_STREAM_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "observe.h"
#include "trace/names.h"
#include "lib/u64map.h"

/*
 * By default the stream follows the driver: kernfs, module and knob
 * events, and lock events only where they touch what is observed: a
 * lock class with an order edge to or from a kernfs node or a module, or
 * a lock taken by a task holding an active reference (inside a sysfs
 * store or show) or removing a module.  The loader's own locking
 * (module_mutex forty times a load, text_mutex, a pipe's mutex) is
 * counted, not printed; `all` (-v) prints every event.
 */
struct so_stream {
	FILE *out;
	struct so_names *names;
	bool colour;
	bool all;		/* -v: every event */
	uint64_t t0_ns;		/* TIME is relative to it; 0: first event */
	uint64_t nr_lines;
	uint64_t nr_hidden;	/* events left out (not `all`) */
	struct u64map related;	/* lock classes with an edge to kn/mod */
	struct u64map contexts;	/* tid -> active refs held, removals */
};

void stream_init(struct so_stream *s, FILE *out, struct so_names *names,
		 bool colour, uint64_t t0_ns);
void stream_fini(struct so_stream *s);
void stream_header(struct so_stream *s);
void stream_event(struct so_stream *s, const struct so_event *ev);
/* verdict: "DEADLOCK-PRONE", "GATED", "DEADLOCK", ...; the rest printf. */
void stream_finding(struct so_stream *s, uint64_t ts_ns,
		    const char *verdict, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* The DETAILS column of ev, as the stream prints it. */
const char *stream_details(struct so_stream *s, const struct so_event *ev,
			   char *buf, size_t len);

#endif /* SO_STREAM_H */
