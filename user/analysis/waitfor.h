/* SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1 */
/*
 * Actual deadlocks (docs/design.md §3): who holds what and who waits for whom
 * right now, from the decoded event stream.
 *
 * A task holds a lock from SO_EV_LOCK_ACQUIRED to SO_EV_LOCK_RELEASED
 * (rtnl included: its events carry class SO_CLASS_RTNL) and an active
 * reference from SO_EV_KN_GET_ACTIVE (ret 1) to SO_EV_KN_PUT_ACTIVE.  It
 * waits for a lock from SO_EV_CONTENTION_BEGIN to _END (or until it
 * acquires the lock), and for a kernfs node from SO_EV_KN_DRAIN_BEGIN to
 * _END.  A lock wait points at the lock's owner; a drain points at every
 * task holding an active reference on the node, and waits for all of
 * them, so any cycle through one of them is a deadlock.
 *
 * Memory is bounded: tasks with nothing held and nothing awaited are
 * forgotten; what does not fit is counted in struct wf_stats.
 */
#ifndef SO_ANALYSIS_WAITFOR_H
#define SO_ANALYSIS_WAITFOR_H

#include <stdbool.h>
#include <stdint.h>

#include "observe.h"

#define WF_HOLDS_MAX		16	/* per task: SO_HELD_MAX and nesting */
#define WF_FINDING_TASKS_MAX	8

enum wf_res_kind {
	WF_RES_NONE = 0,
	WF_RES_LOCK,		/* mutex or rtnl: one owner */
	WF_RES_ACTIVE,		/* kernfs active ref / drain */
};

/* One resource as a finding shows it: copied, so it outlives the graph. */
struct wf_res {
	uint32_t kind;		/* enum wf_res_kind */
	uint64_t obj;
	uint64_t class_id;
	uint64_t since_ns;
	char name[SO_NAME_LEN];	/* class name, or "lock@<obj>" */
};

struct wf_task_report {
	uint32_t tid;
	char comm[SO_COMM_LEN];
	struct wf_res waits;	/* since_ns: when the wait began */
	int32_t stack_id;	/* at the start of the wait */
	uint32_t waits_for_tid;	/* next task in the cycle/chain, 0 unknown */
	uint32_t nr_holds;
	struct wf_res holds[WF_HOLDS_MAX];
};

enum wf_finding_kind {
	WF_FOUND_NONE = 0,
	WF_FOUND_CYCLE,		/* tasks wait for each other: DEADLOCK */
	WF_FOUND_HANG,		/* a task blocked past the hang timeout */
};

struct wf_finding {
	enum wf_finding_kind kind;
	uint64_t now_ns;
	uint64_t hang_timeout_ns;
	/*
	 * CYCLE: each waits for the next, the last for the first.
	 * HANG: the hung task first, then whom it waits for, and so on.
	 */
	uint32_t nr_tasks;
	struct wf_task_report tasks[WF_FINDING_TASKS_MAX];
};

struct wf_limits {
	uint32_t max_tasks;
	uint32_t max_names;	/* object -> name cache */
};

struct wf_stats {
	uint64_t events;
	uint64_t lost_tasks;	/* task table full: task not tracked */
	uint64_t lost_holds;	/* a task's holds full */
	uint64_t lost_names;	/* name cache full */
	uint64_t unmatched;	/* release/put/end without its begin */
};

struct wf_graph;

/* NULL limits: the defaults.  NULL on a bad limit or no memory. */
struct wf_graph *wf_new(const struct wf_limits *limits);
void wf_free(struct wf_graph *graph);

/*
 * Feed one decoded event; other types are ignored.  0, or -ENOSPC when
 * a table was full (counted), or -EINVAL.
 */
int wf_feed(struct wf_graph *graph, const struct so_event *event);

/* Name an object the events do not name (e.g. from SO_EV_MUTEX_INIT). */
int wf_name_obj(struct wf_graph *graph, uint64_t obj, uint64_t class_id,
		const char *name);

/*
 * Look for a cycle among blocked tasks, else a task blocked for longer
 * than hang_timeout_ns (0: no hang check).  Returns the finding's kind
 * (WF_FOUND_NONE when nothing is wrong); *finding is filled otherwise.
 */
enum wf_finding_kind wf_check(struct wf_graph *graph, uint64_t now_ns,
			      uint64_t hang_timeout_ns,
			      struct wf_finding *finding);

/*
 * The same finding: the same tasks in the same order, each in the same
 * wait and holding the same resources since the same times (now_ns
 * aside).  Two scans of a task table that agree on that saw each wait
 * and hold go on across the time between them: see findings_check().
 */
bool wf_finding_same(const struct wf_finding *a, const struct wf_finding *b);

uint32_t wf_blocked_count(const struct wf_graph *graph);
const struct wf_stats *wf_get_stats(const struct wf_graph *graph);

#endif /* SO_ANALYSIS_WAITFOR_H */
