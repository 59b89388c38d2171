// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * The session's event loop: the ring buffer into the pipeline, the task
 * table scans and the edge recovery that make up for what it dropped,
 * and the final drain.  What runs every 100 ms is kept apart from what
 * runs once per session, so the loop's timing is readable on its own.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "app/session.h"
#include "app/session_internal.h"
#include "trace/record.h"

int event_loop_feed(void *ctx, const void *rec, size_t len)
{
	struct so_observer *obs = ctx;
	struct live *lv = obs->cur;
	const struct so_event *ev = rec;

	if (!lv)
		return 0;
	pipeline_feed(&lv->pipeline, rec, len);
	if (len >= sizeof(*ev) && ev->type == SO_EV_MOD_LOAD_END && !ev->ret)
		live_module_ksyms_start(lv);
	return 0;
}

static void scan_task(void *ctx, uint32_t tid, const struct so_task_state *ts)
{
	struct live *lv = ctx;
	char path[64], comm[SO_COMM_LEN] = "";
	FILE *f;

	/* Nothing held, no wait: no node of the wait-for graph, and most
	 * states are such (a task keeps its slot until it exits). */
	if (!ts->nheld && ts->wait_kind == SO_WAIT_NONE)
		return;
	snprintf(path, sizeof(path), "/proc/%u/comm", tid);
	f = fopen(path, "re");
	if (f) {
		if (fgets(comm, sizeof(comm), f))
			comm[strcspn(comm, "\n")] = 0;
		fclose(f);
	}
	record_escape_str(comm, sizeof(comm));	/* any task names itself */
	findings_scan_task(&lv->findings, tid, comm, ts);
}

/*
 * Summary mode: the wait-for graph from the kernel's task table, at most
 * every 50 ms, while a task waits or the last scan saw one blocked (so
 * that an ended wait leaves the graph).  A deadlock persists: a scan
 * finds it whatever events were counted instead of sent, or lost.
 */
static void scan_tasks(struct so_observer *obs, struct live *lv, uint64_t now)
{
	static const uint64_t period_ns = 50000000;

	if (!obs->loader.aggregate || now - lv->scan_ns < period_ns)
		return;
	if (!loader_nr_waiting(&obs->loader) &&
	    !wf_blocked_count(lv->findings.wf))
		return;
	/* What the tasks did before the state we are about to read (the
	 * edge of the cycle, the wait's stack) is in the ring buffer:
	 * take it first, so a finding comes after what led to it. */
	loader_poll(&obs->loader, 0);
	lv->scan_ns = now;
	if (findings_scan_begin(&lv->findings))
		return;
	if (loader_task_states(&obs->loader, scan_task, lv) &&
	    !lv->scan_warned) {
		lv->scan_warned = true;
		fprintf(stderr, "sysfs-observe: warning: failed to read the "
			"kernel's task table: a deadlock may go unseen\n");
	}
	findings_scan_end(&lv->findings);
}

static void recover_edge(void *ctx, const struct so_edge_key *key,
			 const struct so_edge_val *val, const char *from_name,
			 const char *to_name)
{
	struct live *lv = ctx;

	if (lv->recover_before_ns && val->first_ns > lv->recover_before_ns)
		return;
	if (!pipeline_recover_edge(&lv->pipeline, key, val, from_name,
				   to_name) && !lv->recover_before_ns)
		pipeline_edge_count(&lv->pipeline, key, val, from_name,
				    to_name);
}

/*
 * The kernel's edge table is the truth: an edge whose record the full
 * ring buffer dropped is taken from it, so no verdict depends on a
 * record arriving.  While drops grow (looked at every 500 ms), and for
 * 2 s after, edges older than 1 s are compared (a younger one may still
 * be on its way); `final`, after the last drain, compares them all.
 */
static void recover_edges(struct so_observer *obs, struct live *lv,
			  uint64_t now, bool final)
{
	uint64_t counters[SO_CNT_NR];

	if (!final) {
		if (now - lv->drops_check_ns < 500000000ULL)
			return;
		lv->drops_check_ns = now;
		if (loader_counters(&obs->loader, counters))
			return;
		if (counters[SO_CNT_RB_DROPS] > lv->drops_seen) {
			lv->drops_seen = counters[SO_CNT_RB_DROPS];
			lv->drops_ns = now;
		}
		if (!lv->drops_ns || now - lv->drops_ns > 2000000000ULL)
			return;
	}
	lv->recover_before_ns = final ? 0 : now - 1000000000ULL;
	if (loader_edges(&obs->loader, recover_edge, lv))
		fprintf(stderr, "sysfs-observe: warning: failed to read the "
			"kernel's edge table: an edge may be missing\n");
}

static void add_class_counts(void *ctx, uint64_t class_id, const char *name,
			     const struct so_class_counts *counts)
{
	struct live *lv = ctx;

	names_add(lv->names, class_id, name);
	stats_add_class_counts(&lv->stats, class_id, counts);
}

bool event_loop_run(struct so_observer *obs, struct live *lv)
{
	int taken = 0;

	while (!session_interrupted()) {
		uint64_t now;

		/* Records that woke nobody wait for a poll to time out: soon
		 * while records come, at leisure while none do. */
		taken = loader_poll(&obs->loader,
				    taken > 0 ? SO_WAKEUP_MS : 100);
		now = mono_ns();
		if (taken < 0 && taken != -EINTR) {
			fprintf(stderr, "sysfs-observe: failed to poll the "
				"ring buffer: %s\n", strerror(-taken));
			break;
		}
		driver_copy_output(&lv->drv);
		live_module_ksyms_take(lv, false);
		scan_tasks(obs, lv, now);
		recover_edges(obs, lv, now, false);
		if (findings_check(&lv->findings, now))
			return true;
		if (driver_exited(&lv->drv))
			break;
		if (lv->deadline && now >= lv->deadline)
			break;
		/* The reader is gone (`--attach | head -1`; SIGPIPE is
		 * ignored so that the knobs are restored): stop. */
		if (ferror(stdout))
			break;
	}
	return false;
}

void event_loop_drain(struct so_observer *obs, struct live *lv)
{
	/* Pause, then count, then drain: what was submitted is then what
	 * the ring buffer still holds plus what we already took. */
	loader_pause(&obs->loader);
	loader_counters(&obs->loader, lv->end.counters);
	driver_finish(&lv->drv, lv->deadlock);
	if (!lv->deadlock)
		loader_poll(&obs->loader, 0);
	recover_edges(obs, lv, mono_ns(), true);
	if (obs->loader.aggregate &&
	    loader_class_counts(&obs->loader, add_class_counts, lv))
		fprintf(stderr, "sysfs-observe: warning: failed to read the "
			"kernel's counts: the tables are short\n");
}
