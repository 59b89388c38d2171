/* SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1 */
/*
 * The end-of-run summary, perf-style: a `#` header saying what ran and
 * how well it was observed, then one section per question (who waited,
 * who held, who took references, what removal cost, what was lost).  The
 * live run and `report` print it from the same inputs, so they agree.
 * docs/json-schema.md describes --format json.
 */
#ifndef SO_SUMMARY_H
#define SO_SUMMARY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "analysis/stats.h"
#include "report/json.h"
#include "trace/names.h"
#include "trace/trace_file.h"

/* Where the order-graph analysis (edges, cycles, deadlocks, verdict)
 * goes; any member may be NULL. */
struct so_summary_hooks {
	/* After hold times: order edges, cycles, observed deadlocks. */
	void (*analysis_text)(FILE *out, void *ctx);
	/* Last line(s) of the summary. */
	void (*verdict_text)(FILE *out, void *ctx);
	/* Members of the top-level object's "analysis" object. */
	void (*analysis_json)(struct so_json *j, void *ctx);
	/* Whether a class is in a finding: its rows come first. */
	bool (*in_finding)(uint64_t class_id, void *ctx);
	void *ctx;
};

struct so_report {
	const struct so_session_info *info;
	const struct so_session_end *end;	/* NULL: run cut short */
	struct so_stats *stats;			/* finished by the report */
	struct so_names *names;
	uint64_t malformed;			/* records the pipeline refused */
	/* Live: edges taken from the kernel's table, their records lost. */
	uint64_t edges_recovered;
	bool edges_exact;	/* live, compared with the kernel's table */
	const struct so_summary_hooks *hooks;	/* may be NULL */
	/* Text: rows per table, 0 for all (JSON lists every row). */
	unsigned int max_entries;
};

void summary_text(FILE *out, const struct so_report *r);
void summary_json(FILE *out, const struct so_report *r);
/* Whether any loss counter is non-zero (the WARNING line). */
bool summary_lost_events(const struct so_report *r);

#endif /* SO_SUMMARY_H */
