/* SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1 */
/*
 * The one-way dispatcher of docs/design.md §2: every raw record, from the ring
 * buffer (live) or from a trace file (report), goes through
 * pipeline_feed(), which checks it and hands it to the consumers that
 * are switched on.  Nothing downstream calls back up.
 *
 *   record -> check -> stack -> names -> trace writer -> stats -> stream
 *                                                     -> on_event/on_edge
 */
#ifndef SO_PIPELINE_H
#define SO_PIPELINE_H

#include <stddef.h>
#include <stdint.h>
#include "analysis/stats.h"
#include "observe.h"
#include "trace/ksyms.h"
#include "trace/names.h"
#include "trace/stacks.h"
#include "trace/stream.h"
#include "trace/trace_file.h"
#include "lib/u64map.h"

/* Live mode's way to the BPF stack map: depth, or < 0 when it has none. */
typedef int (*so_stack_fetch_fn)(void *ctx, int32_t stack_id,
				 uint64_t *addrs, uint32_t max);

struct so_pipeline {
	/* Consumers; NULL is off.  names and stats are needed by stream
	 * and summary, so the caller sets them whenever it sets those. */
	struct so_names *names;
	struct so_stats *stats;
	struct so_stream *stream;
	struct tf_writer *writer;

	/* Analysis (order graph, wait-for graph): every checked event, and
	 * edge events once more as what they are. */
	void (*on_event)(void *ctx, const struct so_event *ev,
			 const struct so_stack *stack);
	void (*on_edge)(void *ctx, const struct so_edge_event *edge,
			const struct so_stack *stack);
	void *analysis_ctx;

	so_stack_fetch_fn fetch_stack;	/* live only */
	void *fetch_ctx;
	struct so_stacks stacks;	/* every stack seen, by id */

	/* Edge keys fed (edge_key_hash()), for pipeline_recover_edge. */
	struct u64map edge_keys;
	uint64_t nr_edges_recovered;	/* fed by pipeline_recover_edge */
	uint64_t nr_edge_keys_nomem;	/* keys not kept: recovery may repeat */

	uint64_t nr_records;		/* fed */
	uint64_t nr_malformed;		/* refused by record_check() */
	uint64_t nr_write_errors;	/* trace writes that failed */
	char last_error[128];		/* why the last record was refused */
};

void pipeline_init(struct so_pipeline *p);
void pipeline_fini(struct so_pipeline *p);
/* Returns 0, or -1 when the record is malformed (counted, not passed on). */
int pipeline_feed(struct so_pipeline *p, const void *rec, size_t len);
/*
 * Live mode: an edge of the kernel's edge table (the source of truth for
 * edges).  Fed as an SO_EV_EDGE record, made from the table's entry, when
 * no record of it came (the ring buffer was full): the analysis, and a
 * trace being written, then hold every edge.  Returns 1 when fed, 0 when
 * known already, -1 on a malformed or unrecordable entry.
 */
int pipeline_recover_edge(struct so_pipeline *p,
			  const struct so_edge_key *key,
			  const struct so_edge_val *val,
			  const char *from_name, const char *to_name);
/*
 * The session's end: an edge already fed, again with the count the
 * kernel's table reached (SO_EVF_COUNT), so the reports and a trace
 * being written say how often each order was taken.  1 when fed, 0 when
 * the edge is unknown or was seen once, -1 on a malformed entry.
 */
int pipeline_edge_count(struct so_pipeline *p, const struct so_edge_key *key,
			const struct so_edge_val *val, const char *from_name,
			const char *to_name);
/* A stack by id: cached, else fetched once (live) and recorded; NULL
 * when there is none.  A finding can name a stack before the event that
 * carried it was read. */
const struct so_stack *pipeline_get_stack(struct so_pipeline *p,
					  int32_t id);
/* Report mode: a trace file's STACK record. */
int pipeline_add_stack(struct so_pipeline *p, int32_t id,
		       const uint64_t *addrs, uint32_t depth);
/* Record mode, before the trailer: the symbols every stack seen and every
 * lock named by address need.  Returns the number written, or -1. */
long pipeline_write_ksyms(struct so_pipeline *p, struct ksyms *ks);

#endif /* SO_PIPELINE_H */
