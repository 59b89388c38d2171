// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * The wait-for graph is never stored: wf_check() walks it from the task
 * table when asked, which is rare (a timer tick), while wf_feed() runs for
 * every event and only updates one task's holds or wait.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/waitfor.h"
#include "lib/index.h"
#include "trace/names.h"

#define WF_DEFAULT_TASKS	1024
#define WF_DEFAULT_NAMES	1024
#define WF_NIL			SO_INDEX_NIL

struct wf_hold {
	uint32_t kind;		/* enum wf_res_kind */
	uint32_t depth;		/* rtnl_lock() and its mutex_lock() nest */
	uint64_t obj;
	uint64_t class_id;
	uint64_t since_ns;
};

struct wf_task {
	uint32_t tid;
	bool used;
	char comm[SO_COMM_LEN];
	uint32_t nr_holds;
	struct wf_hold holds[WF_HOLDS_MAX];
	uint32_t wait_kind;	/* WF_RES_NONE: not blocked */
	uint64_t wait_obj;
	uint64_t wait_class;
	uint64_t wait_since;
	int32_t wait_stack;
	uint32_t hash_next;	/* tid chain, or the free list */
};

struct wf_name {
	uint64_t obj;
	uint64_t class_id;
	char name[SO_NAME_LEN];
	uint32_t hash_next;
};

/* The walk's stack: a task and where its successor scan stands. */
struct wf_frame {
	uint32_t task;
	uint32_t next_pos;
};

enum wf_colour { WF_WHITE, WF_GREY, WF_BLACK };

struct wf_graph {
	struct wf_limits limits;
	struct wf_stats stats;

	struct wf_task *tasks;
	struct so_index task_index;	/* by tid */
	uint32_t free_task;
	uint32_t nr_blocked;

	struct wf_name *names;
	uint32_t nr_names;
	struct so_index name_index;	/* by obj */

	/* wf_check() scratch, one slot per task */
	uint8_t *colour;
	struct wf_frame *stack;
	uint32_t *roots;
};

struct wf_graph *wf_new(const struct wf_limits *limits)
{
	static const struct wf_limits defaults = {
		.max_tasks = WF_DEFAULT_TASKS,
		.max_names = WF_DEFAULT_NAMES,
	};
	struct wf_graph *graph;
	uint32_t n;

	if (!limits)
		limits = &defaults;
	if (!limits->max_tasks || !limits->max_names ||
	    limits->max_tasks >= (1U << 24) || limits->max_names >= (1U << 24))
		return NULL;
	graph = calloc(1, sizeof(*graph));
	if (!graph)
		return NULL;
	graph->limits = *limits;
	n = limits->max_tasks;
	graph->tasks = calloc(n, sizeof(*graph->tasks));
	graph->names = calloc(limits->max_names, sizeof(*graph->names));
	graph->colour = calloc(n, sizeof(*graph->colour));
	graph->stack = calloc(n, sizeof(*graph->stack));
	graph->roots = calloc(n, sizeof(*graph->roots));
	if (!graph->tasks || !graph->names || !graph->colour ||
	    !graph->stack || !graph->roots ||
	    SO_INDEX_INIT(&graph->task_index, n, struct wf_task, hash_next) ||
	    SO_INDEX_INIT(&graph->name_index, limits->max_names,
			  struct wf_name, hash_next)) {
		wf_free(graph);
		return NULL;
	}
	for (uint32_t i = 0; i < n; i++)
		graph->tasks[i].hash_next = i + 1 < n ? i + 1 : WF_NIL;
	graph->free_task = 0;
	return graph;
}

void wf_free(struct wf_graph *graph)
{
	if (!graph)
		return;
	free(graph->tasks);
	so_index_fini(&graph->task_index);
	free(graph->names);
	so_index_fini(&graph->name_index);
	free(graph->colour);
	free(graph->stack);
	free(graph->roots);
	free(graph);
}

/* --- names ------------------------------------------------------------ */

static struct wf_name *wf_name_find(const struct wf_graph *graph,
				    uint64_t obj)
{
	uint32_t i = so_index_first(&graph->name_index, obj);

	while (i != WF_NIL && graph->names[i].obj != obj)
		i = graph->names[i].hash_next;
	return i == WF_NIL ? NULL : &graph->names[i];
}

int wf_name_obj(struct wf_graph *graph, uint64_t obj, uint64_t class_id,
		const char *name)
{
	struct wf_name *entry;
	size_t len;

	if (!obj || !name || !name[0])
		return -EINVAL;
	entry = wf_name_find(graph, obj);
	if (!entry) {
		if (graph->nr_names == graph->limits.max_names) {
			graph->stats.lost_names++;
			return -ENOSPC;
		}
		entry = &graph->names[graph->nr_names];
		entry->obj = obj;
		so_index_add(&graph->name_index, graph->names,
			     graph->nr_names++, obj);
	}
	entry->class_id = class_id;
	len = strnlen(name, SO_NAME_LEN - 1);
	memcpy(entry->name, name, len);
	entry->name[len] = '\0';
	return 0;
}

static void wf_res_fill(const struct wf_graph *graph, struct wf_res *res,
			uint32_t kind, uint64_t obj, uint64_t class_id,
			uint64_t since_ns)
{
	const struct wf_name *entry = wf_name_find(graph, obj);
	char addr[SO_ADDR_LEN];

	res->kind = kind;
	res->obj = obj;
	res->class_id = class_id;
	res->since_ns = since_ns;
	if (entry)
		snprintf(res->name, sizeof(res->name), "%s", entry->name);
	else
		snprintf(res->name, sizeof(res->name), "%s%s",
			 kind == WF_RES_ACTIVE ? "kn" : "lock",
			 so_addr_str(obj, addr));
}

/* --- tasks ------------------------------------------------------------ */

static uint32_t wf_task_find(const struct wf_graph *graph, uint32_t tid)
{
	uint32_t i = so_index_first(&graph->task_index, tid);

	while (i != WF_NIL && graph->tasks[i].tid != tid)
		i = graph->tasks[i].hash_next;
	return i;
}

static struct wf_task *wf_task_get(struct wf_graph *graph,
				   const struct so_event *event)
{
	uint32_t i = wf_task_find(graph, event->tid);
	struct wf_task *task;

	if (i == WF_NIL) {
		if (graph->free_task == WF_NIL) {
			graph->stats.lost_tasks++;
			return NULL;
		}
		i = graph->free_task;
		task = &graph->tasks[i];
		graph->free_task = task->hash_next;
		memset(task, 0, sizeof(*task));
		task->used = true;
		task->tid = event->tid;
		so_index_add(&graph->task_index, graph->tasks, i, event->tid);
	}
	task = &graph->tasks[i];
	memcpy(task->comm, event->comm, SO_COMM_LEN - 1);
	return task;
}

/* A task holding nothing and waiting for nothing is forgotten. */
static void wf_task_put(struct wf_graph *graph, struct wf_task *task)
{
	if (task->nr_holds || task->wait_kind != WF_RES_NONE)
		return;
	so_index_del(&graph->task_index, graph->tasks,
		     (uint32_t)(task - graph->tasks), task->tid);
	task->used = false;
	task->hash_next = graph->free_task;
	graph->free_task = (uint32_t)(task - graph->tasks);
}

static int wf_hold_add(struct wf_graph *graph, struct wf_task *task,
		       uint32_t kind, const struct so_event *event)
{
	struct wf_hold *hold;

	for (uint32_t i = 0; i < task->nr_holds; i++) {
		hold = &task->holds[i];
		if (hold->kind == kind && hold->obj == event->obj) {
			hold->depth++;
			return 0;
		}
	}
	if (task->nr_holds == WF_HOLDS_MAX) {
		graph->stats.lost_holds++;
		return -ENOSPC;
	}
	hold = &task->holds[task->nr_holds++];
	hold->kind = kind;
	hold->depth = 1;
	hold->obj = event->obj;
	hold->class_id = event->class_id;
	hold->since_ns = event->ts_ns;
	return 0;
}

static void wf_hold_drop(struct wf_graph *graph, struct wf_task *task,
			 uint32_t kind, uint64_t obj)
{
	for (uint32_t i = 0; i < task->nr_holds; i++) {
		struct wf_hold *hold = &task->holds[i];

		if (hold->kind != kind || hold->obj != obj)
			continue;
		if (--hold->depth)
			return;
		/* Keep the order of acquisition: the report shows it. */
		memmove(hold, hold + 1,
			(task->nr_holds - i - 1) * sizeof(*hold));
		task->nr_holds--;
		return;
	}
	graph->stats.unmatched++;
}

static void wf_wait_begin(struct wf_graph *graph, struct wf_task *task,
			  uint32_t kind, const struct so_event *event)
{
	if (task->wait_kind == WF_RES_NONE)
		graph->nr_blocked++;
	task->wait_kind = kind;
	task->wait_obj = event->obj;
	task->wait_class = event->class_id;
	task->wait_since = event->ts_ns;
	task->wait_stack = event->stack_id;
}

static void wf_wait_end(struct wf_graph *graph, struct wf_task *task,
			uint32_t kind, uint64_t obj)
{
	if (task->wait_kind != kind || task->wait_obj != obj)
		return;
	task->wait_kind = WF_RES_NONE;
	graph->nr_blocked--;
}

/* --- events ----------------------------------------------------------- */

static bool wf_event_is_begin(uint32_t type)
{
	switch (type) {
	case SO_EV_LOCK_ACQUIRED:
	case SO_EV_CONTENTION_BEGIN:
	case SO_EV_KN_DRAIN_BEGIN:
		return true;
	default:
		return false;
	}
}

static int wf_feed_begin(struct wf_graph *graph, const struct so_event *event)
{
	struct wf_task *task = wf_task_get(graph, event);
	int err = 0;

	if (!task)
		return -ENOSPC;
	switch (event->type) {
	case SO_EV_LOCK_ACQUIRED:
		wf_wait_end(graph, task, WF_RES_LOCK, event->obj);
		err = wf_hold_add(graph, task, WF_RES_LOCK, event);
		break;
	case SO_EV_KN_GET_ACTIVE:
		err = wf_hold_add(graph, task, WF_RES_ACTIVE, event);
		break;
	case SO_EV_CONTENTION_BEGIN:
		wf_wait_begin(graph, task, WF_RES_LOCK, event);
		break;
	case SO_EV_KN_DRAIN_BEGIN:
		wf_wait_begin(graph, task, WF_RES_ACTIVE, event);
		break;
	}
	wf_task_put(graph, task);
	return err;
}

static int wf_feed_end(struct wf_graph *graph, const struct so_event *event)
{
	uint32_t i = wf_task_find(graph, event->tid);
	struct wf_task *task;

	if (i == WF_NIL) {
		graph->stats.unmatched++;
		return 0;
	}
	task = &graph->tasks[i];
	switch (event->type) {
	case SO_EV_LOCK_RELEASED:
		wf_hold_drop(graph, task, WF_RES_LOCK, event->obj);
		break;
	case SO_EV_KN_PUT_ACTIVE:
		wf_hold_drop(graph, task, WF_RES_ACTIVE, event->obj);
		break;
	case SO_EV_CONTENTION_END:
		wf_wait_end(graph, task, WF_RES_LOCK, event->obj);
		break;
	case SO_EV_KN_DRAIN_END:
		wf_wait_end(graph, task, WF_RES_ACTIVE, event->obj);
		break;
	}
	wf_task_put(graph, task);
	return 0;
}

int wf_feed(struct wf_graph *graph, const struct so_event *event)
{
	if (!graph || !event)
		return -EINVAL;
	graph->stats.events++;
	switch (event->type) {
	case SO_EV_MUTEX_INIT:
	case SO_EV_LOCK_ACQUIRED:
	case SO_EV_KN_WRITE_BEGIN:
	case SO_EV_KN_GET_ACTIVE:
	case SO_EV_KN_DRAIN_BEGIN:
		if (event->obj && event->name[0])
			wf_name_obj(graph, event->obj, event->class_id,
				    event->name);
		break;
	}
	switch (event->type) {
	case SO_EV_KN_GET_ACTIVE:
		/* ret 0: the node is going away, nothing was taken */
		return event->ret == 1 ? wf_feed_begin(graph, event) : 0;
	case SO_EV_LOCK_RELEASED:
	case SO_EV_KN_PUT_ACTIVE:
	case SO_EV_CONTENTION_END:
	case SO_EV_KN_DRAIN_END:
		return wf_feed_end(graph, event);
	default:
		return wf_event_is_begin(event->type) ?
			       wf_feed_begin(graph, event) : 0;
	}
}

/* --- the walk --------------------------------------------------------- */

static bool wf_holds(const struct wf_task *task, uint32_t kind, uint64_t obj)
{
	for (uint32_t i = 0; i < task->nr_holds; i++)
		if (task->holds[i].kind == kind && task->holds[i].obj == obj)
			return true;
	return false;
}

/*
 * The next task at or after *pos that `waiter` waits for: the lock's
 * owner, or one of the active-reference holders a drain waits for.
 */
static uint32_t wf_next_holder(const struct wf_graph *graph,
			       const struct wf_task *waiter, uint32_t *pos)
{
	for (; *pos < graph->limits.max_tasks; (*pos)++) {
		const struct wf_task *task = &graph->tasks[*pos];

		if (task->used && task != waiter &&
		    wf_holds(task, waiter->wait_kind, waiter->wait_obj))
			return (*pos)++;
	}
	return WF_NIL;
}

static void wf_report_task(const struct wf_graph *graph,
			   struct wf_task_report *report, uint32_t index,
			   uint32_t waits_for)
{
	const struct wf_task *task = &graph->tasks[index];

	memset(report, 0, sizeof(*report));
	report->tid = task->tid;
	memcpy(report->comm, task->comm, SO_COMM_LEN);
	report->stack_id = task->wait_stack;
	report->waits_for_tid =
		waits_for == WF_NIL ? 0 : graph->tasks[waits_for].tid;
	if (task->wait_kind != WF_RES_NONE)
		wf_res_fill(graph, &report->waits, task->wait_kind,
			    task->wait_obj, task->wait_class,
			    task->wait_since);
	else
		report->stack_id = -1;
	report->nr_holds = task->nr_holds;
	for (uint32_t i = 0; i < task->nr_holds; i++)
		wf_res_fill(graph, &report->holds[i], task->holds[i].kind,
			    task->holds[i].obj, task->holds[i].class_id,
			    task->holds[i].since_ns);
}

static bool wf_waits_longer(const struct wf_task *a, const struct wf_task *b)
{
	if (a->wait_since != b->wait_since)
		return a->wait_since < b->wait_since;
	return a->tid < b->tid;
}

/* Blocked tasks, the longest waiting first; returns how many. */
static uint32_t wf_collect_roots(struct wf_graph *graph)
{
	uint32_t nr = 0;

	for (uint32_t i = 0; i < graph->limits.max_tasks; i++) {
		const struct wf_task *task = &graph->tasks[i];
		uint32_t at = nr;

		if (!task->used || task->wait_kind == WF_RES_NONE)
			continue;
		while (at > 0 &&
		       wf_waits_longer(task,
				       &graph->tasks[graph->roots[at - 1]])) {
			graph->roots[at] = graph->roots[at - 1];
			at--;
		}
		graph->roots[at] = i;
		nr++;
	}
	return nr;
}

/* The grey stack from `first` to its top is a cycle: report it. */
static void wf_report_cycle(const struct wf_graph *graph, uint32_t depth,
			    uint32_t first, struct wf_finding *finding)
{
	const struct wf_frame *cycle;
	uint32_t from = 0, nr, start = 0;

	while (graph->stack[from].task != first)
		from++;
	cycle = &graph->stack[from];
	nr = depth - from;
	if (nr > WF_FINDING_TASKS_MAX)
		nr = WF_FINDING_TASKS_MAX;
	/* Start with the longest waiting task: the order is then stable. */
	for (uint32_t i = 1; i < nr; i++)
		if (wf_waits_longer(&graph->tasks[cycle[i].task],
				    &graph->tasks[cycle[start].task]))
			start = i;
	finding->kind = WF_FOUND_CYCLE;
	finding->nr_tasks = nr;
	for (uint32_t i = 0; i < nr; i++)
		wf_report_task(graph, &finding->tasks[i],
			       cycle[(start + i) % nr].task,
			       cycle[(start + i + 1) % nr].task);
}

/* Depth-first over blocked tasks only: a grey successor closes a cycle. */
static bool wf_find_cycle(struct wf_graph *graph, uint32_t nr_roots,
			  struct wf_finding *finding)
{
	memset(graph->colour, WF_WHITE, graph->limits.max_tasks);
	for (uint32_t r = 0; r < nr_roots; r++) {
		uint32_t depth = 0;

		if (graph->colour[graph->roots[r]] != WF_WHITE)
			continue;
		graph->stack[depth++] = (struct wf_frame){ graph->roots[r], 0 };
		graph->colour[graph->roots[r]] = WF_GREY;
		while (depth) {
			struct wf_frame *top = &graph->stack[depth - 1];
			uint32_t next = wf_next_holder(graph,
						       &graph->tasks[top->task],
						       &top->next_pos);

			if (next == WF_NIL) {
				graph->colour[top->task] = WF_BLACK;
				depth--;
				continue;
			}
			if (graph->tasks[next].wait_kind == WF_RES_NONE ||
			    graph->colour[next] == WF_BLACK)
				continue;
			if (graph->colour[next] == WF_GREY) {
				wf_report_cycle(graph, depth, next, finding);
				return true;
			}
			graph->colour[next] = WF_GREY;
			graph->stack[depth++] = (struct wf_frame){ next, 0 };
		}
	}
	return false;
}

static uint32_t wf_first_holder(const struct wf_graph *graph, uint32_t index)
{
	uint32_t pos = 0;

	if (graph->tasks[index].wait_kind == WF_RES_NONE)
		return WF_NIL;
	return wf_next_holder(graph, &graph->tasks[index], &pos);
}

/* The hung task, then whom it waits for, as far as that goes. */
static void wf_report_hang(struct wf_graph *graph, uint32_t hung,
			   struct wf_finding *finding)
{
	uint32_t chain[WF_FINDING_TASKS_MAX];
	uint32_t nr = 0, at = hung;

	while (at != WF_NIL && nr < WF_FINDING_TASKS_MAX) {
		bool seen = false;

		for (uint32_t i = 0; i < nr; i++)
			seen |= chain[i] == at;
		if (seen)
			break;
		chain[nr++] = at;
		at = wf_first_holder(graph, at);
	}
	finding->kind = WF_FOUND_HANG;
	finding->nr_tasks = nr;
	for (uint32_t i = 0; i < nr; i++)
		wf_report_task(graph, &finding->tasks[i], chain[i],
			       wf_first_holder(graph, chain[i]));
}

enum wf_finding_kind wf_check(struct wf_graph *graph, uint64_t now_ns,
			      uint64_t hang_timeout_ns,
			      struct wf_finding *finding)
{
	uint32_t nr_roots;

	memset(finding, 0, sizeof(*finding));
	finding->now_ns = now_ns;
	finding->hang_timeout_ns = hang_timeout_ns;
	if (!graph->nr_blocked)
		return WF_FOUND_NONE;
	nr_roots = wf_collect_roots(graph);
	if (wf_find_cycle(graph, nr_roots, finding))
		return finding->kind;
	if (hang_timeout_ns && nr_roots) {
		uint32_t oldest = graph->roots[0];
		uint64_t since = graph->tasks[oldest].wait_since;

		if (now_ns > since && now_ns - since > hang_timeout_ns) {
			wf_report_hang(graph, oldest, finding);
			return finding->kind;
		}
	}
	return WF_FOUND_NONE;
}

uint32_t wf_blocked_count(const struct wf_graph *graph)
{
	return graph->nr_blocked;
}

const struct wf_stats *wf_get_stats(const struct wf_graph *graph)
{
	return &graph->stats;
}
