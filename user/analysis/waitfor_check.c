// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * wf_check(): the walk over the wait-for graph and the finding it
 * reports.  The graph is never stored: the walk derives it from the
 * task table when asked, which is rare (a timer tick), while wf_feed()
 * (waitfor.c) runs for every event and only updates one task.  Apart
 * because the two share the tables and nothing else.
 */
#include <stdio.h>
#include <string.h>

#include "analysis/waitfor_impl.h"
#include "trace/names.h"

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
			 addr_str(obj, addr));
}

/*
 * A task waiting for a lock does not hold it, whatever its held set
 * says: summary mode's probes push a mutex when the lock call begins
 * (acquire_at_entry), so two tasks contending for one lock list it both;
 * neither waits for the other, and neither holds what it waits for.
 */
static bool wf_hold_is_wait(const struct wf_task *task,
			    const struct wf_hold *hold)
{
	return hold->kind == WF_RES_LOCK && task->wait_kind == WF_RES_LOCK &&
	       task->wait_obj == hold->obj;
}

static bool wf_holds(const struct wf_task *task, uint32_t kind, uint64_t obj)
{
	for (uint32_t i = 0; i < task->nr_holds; i++)
		if (task->holds[i].kind == kind && task->holds[i].obj == obj &&
		    !wf_hold_is_wait(task, &task->holds[i]))
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
	report->nr_holds = 0;
	for (uint32_t i = 0; i < task->nr_holds; i++) {
		const struct wf_hold *hold = &task->holds[i];

		if (wf_hold_is_wait(task, hold))
			continue;
		wf_res_fill(graph, &report->holds[report->nr_holds++],
			    hold->kind, hold->obj, hold->class_id,
			    hold->since_ns);
	}
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

static bool wf_res_same(const struct wf_res *a, const struct wf_res *b)
{
	return a->kind == b->kind && a->obj == b->obj &&
	       a->since_ns == b->since_ns;
}

bool wf_finding_same(const struct wf_finding *a, const struct wf_finding *b)
{
	if (a->kind != b->kind || a->nr_tasks != b->nr_tasks)
		return false;
	for (uint32_t i = 0; i < a->nr_tasks; i++) {
		const struct wf_task_report *x = &a->tasks[i], *y = &b->tasks[i];

		if (x->tid != y->tid || x->waits_for_tid != y->waits_for_tid ||
		    x->nr_holds != y->nr_holds ||
		    !wf_res_same(&x->waits, &y->waits))
			return false;
		for (uint32_t h = 0; h < x->nr_holds && h < WF_HOLDS_MAX; h++)
			if (!wf_res_same(&x->holds[h], &y->holds[h]))
				return false;
	}
	return true;
}
