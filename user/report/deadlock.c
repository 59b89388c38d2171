// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * The wait-for findings as text: a deadlock's tasks (what each holds and
 * waits for, since when, its stack) or a hang.  Apart from the cycles
 * (cycles.c) because these are what the kernel is doing now, not what it
 * could do: another graph (analysis/waitfor.h), another picture.
 */
#include "report/cycles_fmt.h"

const char *cycles_wait_name(uint32_t kind)
{
	return kind == WF_RES_ACTIVE ? "drain" : "lock";
}

const char *cycles_hold_name(uint32_t kind)
{
	return kind == WF_RES_ACTIVE ? "active" : "lock";
}

uint64_t cycles_blocked_ns(const struct wf_finding *finding,
			   const struct wf_task_report *task)
{
	if (task->waits.kind == WF_RES_NONE ||
	    finding->now_ns < task->waits.since_ns)
		return 0;
	return finding->now_ns - task->waits.since_ns;
}

void cycles_deadlock_line(const struct wf_finding *finding, FILE *out)
{
	const struct wf_task_report *first = &finding->tasks[0];

	if (finding->kind == WF_FOUND_HANG) {
		fprintf(out, "HANG: %s/%u blocked ", first->comm, first->tid);
		cycles_time(out, cycles_blocked_ns(finding, first));
		fprintf(out, " s on %s (%s), past the ", first->waits.name,
			cycles_wait_name(first->waits.kind));
		cycles_time(out, finding->hang_timeout_ns);
		fprintf(out, " s hang timeout\n");
		return;
	}
	fprintf(out, "DEADLOCK: ");
	for (uint32_t i = 0; i < finding->nr_tasks; i++)
		fprintf(out, "%s/%u -> ", finding->tasks[i].comm,
			finding->tasks[i].tid);
	fprintf(out, "%s/%u (%u tasks)\n", first->comm, first->tid,
		finding->nr_tasks);
}

static const struct wf_task_report *
cycles_task_by_tid(const struct wf_finding *finding, uint32_t tid)
{
	for (uint32_t i = 0; i < finding->nr_tasks; i++)
		if (finding->tasks[i].tid == tid)
			return &finding->tasks[i];
	return NULL;
}

static void cycles_deadlock_task(const struct wf_finding *finding,
				 const struct wf_task_report *task,
				 so_stack_fmt stack_fmt, void *stack_ctx,
				 FILE *out)
{
	const struct wf_task_report *next;

	fprintf(out, "  %s/%u", task->comm, task->tid);
	if (task->waits.kind == WF_RES_NONE) {
		fprintf(out, " is running\n");
	} else {
		fprintf(out, " blocked for ");
		cycles_time(out, cycles_blocked_ns(finding, task));
		fprintf(out, " s, since ");
		cycles_time(out, task->waits.since_ns);
		fprintf(out, "\n");
	}
	for (uint32_t i = 0; i < task->nr_holds; i++) {
		fprintf(out, "    holds  %s (%s, since ", task->holds[i].name,
			cycles_hold_name(task->holds[i].kind));
		cycles_time(out, task->holds[i].since_ns);
		fprintf(out, ")\n");
	}
	if (task->waits.kind == WF_RES_NONE)
		return;
	fprintf(out, "    waits  %s (%s), ", task->waits.name,
		cycles_wait_name(task->waits.kind));
	next = cycles_task_by_tid(finding, task->waits_for_tid);
	if (next)
		fprintf(out, "held by %s/%u\n", next->comm, next->tid);
	else if (task->waits_for_tid)
		fprintf(out, "held by tid %u\n", task->waits_for_tid);
	else
		fprintf(out, "holder unknown\n");
	cycles_stack(task->stack_id, stack_fmt, stack_ctx, out);
}

void cycles_deadlock_print(const struct wf_finding *finding,
			   so_stack_fmt stack_fmt, void *stack_ctx, FILE *out)
{
	if (finding->kind == WF_FOUND_NONE)
		return;
	cycles_deadlock_line(finding, out);
	for (uint32_t i = 0; i < finding->nr_tasks; i++)
		cycles_deadlock_task(finding, &finding->tasks[i], stack_fmt,
				     stack_ctx, out);
	if (finding->kind == WF_FOUND_CYCLE)
		fprintf(out, "  These tasks wait in the kernel for each other "
			"for good: the kernel\n  stays wedged until reboot.\n");
	else
		fprintf(out, "  It may still make progress, or the kernel may "
			"stay wedged.\n");
}
