// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * The wait-for tracker's tables and wf_feed(): who holds what and who
 * waits for what, one task updated per event.  The walk that looks for
 * a deadlock or a hang in them is waitfor_check.c.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/waitfor_impl.h"

#define WF_DEFAULT_TASKS	1024
#define WF_DEFAULT_NAMES	1024

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
	index_fini(&graph->task_index);
	free(graph->names);
	index_fini(&graph->name_index);
	free(graph->colour);
	free(graph->stack);
	free(graph->roots);
	free(graph);
}

/* --- names ------------------------------------------------------------ */

struct wf_name *wf_name_find(const struct wf_graph *graph, uint64_t obj)
{
	uint32_t i = index_first(&graph->name_index, obj);

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
		index_add(&graph->name_index, graph->names,
			  graph->nr_names++, obj);
	}
	entry->class_id = class_id;
	len = strnlen(name, SO_NAME_LEN - 1);
	memcpy(entry->name, name, len);
	entry->name[len] = '\0';
	return 0;
}

/* --- tasks ------------------------------------------------------------ */

static uint32_t wf_task_find(const struct wf_graph *graph, uint32_t tid)
{
	uint32_t i = index_first(&graph->task_index, tid);

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
		index_add(&graph->task_index, graph->tasks, i, event->tid);
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
	index_del(&graph->task_index, graph->tasks,
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

uint32_t wf_blocked_count(const struct wf_graph *graph)
{
	return graph->nr_blocked;
}

const struct wf_stats *wf_get_stats(const struct wf_graph *graph)
{
	return &graph->stats;
}
