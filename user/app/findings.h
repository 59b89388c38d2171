/* SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1 */
/*
 * Findings: the analysis as a consumer of the pipeline.  Feeds the order
 * graph (edges), the wait-for graph and the write timelines (events),
 * prints each cycle and
 * deadlock in the live stream the moment it is found, and gives the
 * summary its analysis section, its verdict and the exit status.
 */
#ifndef SO_FINDINGS_H
#define SO_FINDINGS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "analysis/lockdep_report.h"
#include "analysis/order_graph.h"
#include "analysis/waitfor.h"
#include "analysis/write_timeline.h"
#include "report/summary.h"
#include "trace/ksyms.h"
#include "app/pipeline.h"
#include "trace/stream.h"

/* Blocked this long is a hang: several seconds, since TCG is slow and
 * sysfs.sh's own store delays are 500 ms. */
#define SO_HANG_TIMEOUT_DEFAULT_NS	5000000000ULL

struct so_findings {
	struct og_graph *og;
	struct wf_graph *wf;
	struct wt_tracker *wt;		/* writes that waited at a knob */
	/* The knob state when a wait event does not carry it (the live
	 * session reads debugfs); NULL: the label says unknown. */
	wt_knob_fn knob_label;
	void *knob_label_ctx;
	struct so_stream *stream;	/* live lines; NULL: none */
	FILE *live;			/* live lines without a stream */
	struct so_pipeline *pipeline;	/* its stacks, for printing */
	struct ksyms *ksyms;
	uint64_t hang_timeout_ns;	/* 0: no hang check */
	/* The events' clock now, to say how late a live finding is; NULL
	 * when replaying a trace. */
	uint64_t (*clock_ns)(void);
	bool have_deadlock;
	struct wf_finding deadlock;
	/* The first module removal seen (delete_module entered): where
	 * the picture's GOING band starts; 0 none. */
	uint64_t going_ns;
	/*
	 * Summary mode: holds are counted in the kernel, not sent, so the
	 * wait-for graph is rebuilt from scans of the kernel's task table
	 * (findings_scan_*) instead of being fed by events.
	 */
	bool wf_from_scans;
	struct wf_graph *scan;		/* the graph a scan is building */
	uint32_t scans;			/* scans ended so far */
	/*
	 * What the last scan showed, not yet believed: a scan reads one
	 * task after another while they run, so a cycle in one scan may
	 * join waits that never overlapped.  It is a finding once a later
	 * scan shows it again (wf_finding_same): then every wait and hold
	 * in it lasted from the first read of its task to the second, and
	 * those intervals overlap, so all of them were there at once.
	 */
	bool have_candidate;
	uint32_t candidate_scan;
	struct wf_finding candidate;
	struct so_summary_hooks hooks;
};

/* 0, or -ENOMEM.  table_entries: the kernel tables' size the order
 * graph must hold (og_limits_for_tables()). */
int findings_init(struct so_findings *f, struct so_pipeline *p,
		  struct ksyms *ks, uint64_t hang_timeout_ns,
		  uint32_t table_entries);
void findings_fini(struct so_findings *f);
/* Plug into the pipeline's on_event/on_edge slots. */
void findings_attach(struct so_findings *f, struct so_pipeline *p);
/* Look for a deadlock at `now_ns` (the events' clock).  True when found:
 * printed live already, kept for the summary. */
bool findings_check(struct so_findings *f, uint64_t now_ns);
/*
 * A scan of the kernel's task table: begin, then each task's state, then
 * end, which makes it the wait-for graph findings_check() looks at.
 * 0, or -ENOMEM (the previous graph stays).
 */
int findings_scan_begin(struct so_findings *f);
void findings_scan_task(struct so_findings *f, uint32_t tid,
			const char *comm, const struct so_task_state *ts);
void findings_scan_end(struct so_findings *f);
/* Cycles by verdict. */
void findings_counts(const struct so_findings *f, uint32_t *prone,
		     uint32_t *gated, uint32_t *no_wait);
/*
 * Lockdep's cycle reports (a debug kernel's, from the same boot) held to
 * ours, a line each: the same cycle, or one we call GATED or NO-WAIT
 * (lockdep's false alarm: it sees neither module references nor who can
 * wait), or one we missed.  Returns how many we missed.
 */
uint32_t findings_lockdep(const struct so_findings *f,
			  const struct ldr_report *reports, size_t nr,
			  FILE *out);
/* kselftest status: 1 with a DEADLOCK-PRONE cycle or a deadlock, else 0. */
int findings_exit_code(const struct so_findings *f);

#endif /* SO_FINDINGS_H */
