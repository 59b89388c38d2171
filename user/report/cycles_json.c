// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * The cycles and the wait-for findings as JSON (docs/json-schema.md is
 * the contract).  Apart from the text renderings because the schema
 * changes by its own rules: members are added, never renamed.
 */
#include <errno.h>
#include <string.h>

#include "report/cycles_fmt.h"
#include "analysis/gates.h"
#include "lib/addr.h"

/* Bytes past ASCII are escaped too: kernel names need not be UTF-8. */
static void cycles_json_string(FILE *out, const char *str)
{
	fputc('"', out);
	for (const unsigned char *c = (const unsigned char *)str; *c; c++) {
		if (*c == '"' || *c == '\\')
			fprintf(out, "\\%c", *c);
		else if (*c == '\n')
			fputs("\\n", out);
		else if (*c < 0x20 || *c >= 0x7f)
			fprintf(out, "\\u%04x", *c);
		else
			fputc(*c, out);
	}
	fputc('"', out);
}

static void cycles_json_key(FILE *out, const char *key, const char *value)
{
	fprintf(out, "\"%s\":", key);
	cycles_json_string(out, value);
}

static void cycles_json_edge(const struct og_graph *graph,
			     const struct og_cycle *cycle, uint32_t pos,
			     FILE *out)
{
	const struct og_edge *edge = og_edge_at(graph, cycle->edges[pos]);
	const struct og_variant *variant = og_cycle_variant(graph, cycle, pos);
	char buf[CYCLES_NAME_BUF];

	fputc('{', out);
	cycles_json_key(out, "from", cycles_name(graph, edge->from_class, buf));
	fputc(',', out);
	cycles_json_key(out, "to", cycles_name(graph, edge->to_class, buf));
	fprintf(out, ",\"from_mode\":\"%s\",\"to_mode\":\"%s\"",
		cycles_mode_name(variant->from_mode),
		cycles_mode_name(variant->to_mode));
	fprintf(out, ",\"count\":%llu,\"first_ns\":%llu,\"tid\":%u,",
		(unsigned long long)variant->count,
		(unsigned long long)variant->first_ns, variant->first_tid);
	cycles_json_key(out, "comm", variant->comm);
	fprintf(out, ",\"stack_id\":%d,\"gates\":[", variant->stack_id);
	for (uint32_t k = 0; k < SO_GATES_MAX && variant->gates[k]; k++) {
		if (k)
			fputc(',', out);
		cycles_json_string(out, cycles_module(graph, variant->gates[k],
						      buf));
	}
	fputs("],\"going\":", out);
	if (variant->going)
		cycles_json_string(out, cycles_module(graph, variant->going,
						      buf));
	else
		fputs("null", out);
	fputc('}', out);
}

static void cycles_json_cycle(const struct og_graph *graph,
			      const struct og_cycle *cycle, FILE *out)
{
	static const char *const verdict[] = {
		[OG_VERDICT_NO_WAIT] = "no-wait",
		[OG_VERDICT_GATED] = "gated",
		[OG_VERDICT_PRONE] = "deadlock-prone",
	};
	char reason[CYCLES_REASON_BUF];
	char buf[CYCLES_NAME_BUF];

	fputs("{\"classes\":[", out);
	for (uint32_t i = 0; i < cycle->nr; i++) {
		if (i)
			fputc(',', out);
		cycles_json_string(out, cycles_name(graph, cycle->classes[i],
						    buf));
	}
	fprintf(out, "],\"verdict\":\"%s\",", verdict[cycle->verdict.kind]);
	gate_reason(graph, cycle, reason, sizeof(reason));
	cycles_json_key(out, "reason", reason);
	fprintf(out, ",\"found_ns\":%llu,\"edges\":[",
		(unsigned long long)cycle->found_ns);
	for (uint32_t pos = 0; pos < cycle->nr; pos++) {
		if (pos)
			fputc(',', out);
		cycles_json_edge(graph, cycle, pos, out);
	}
	fputs("]}", out);
}

int cycles_json(const struct og_graph *graph, FILE *out)
{
	fputc('[', out);
	for (uint32_t i = 0; i < og_cycle_count(graph); i++) {
		if (i)
			fputc(',', out);
		cycles_json_cycle(graph, og_cycle_at(graph, i), out);
	}
	fputc(']', out);
	return ferror(out) ? -EIO : 0;
}

/* --- deadlocks -------------------------------------------------------- */

static void cycles_json_res(FILE *out, const struct wf_res *res,
			    const char *kind)
{
	char addr[SO_ADDR_LEN];

	fprintf(out, "{\"kind\":\"%s\",", kind);
	cycles_json_key(out, "name", res->name);
	/* A handle, not the address: it ties a wait to the hold it waits
	 * for without giving away where the kernel is. */
	fprintf(out, ",\"obj\":\"%s\",\"since_ns\":%llu}",
		addr_str(res->obj, addr), (unsigned long long)res->since_ns);
}

int cycles_deadlock_json(const struct wf_finding *finding, FILE *out)
{
	fprintf(out, "{\"kind\":\"%s\",\"now_ns\":%llu,"
		"\"hang_timeout_ns\":%llu,\"tasks\":[",
		finding->kind == WF_FOUND_HANG ? "hang" : "deadlock",
		(unsigned long long)finding->now_ns,
		(unsigned long long)finding->hang_timeout_ns);
	for (uint32_t i = 0; i < finding->nr_tasks; i++) {
		const struct wf_task_report *task = &finding->tasks[i];

		fprintf(out, "%s{\"tid\":%u,", i ? "," : "", task->tid);
		cycles_json_key(out, "comm", task->comm);
		fprintf(out, ",\"blocked_ns\":%llu,\"stack_id\":%d,"
			"\"waits_for_tid\":%u,\"waits\":",
			(unsigned long long)cycles_blocked_ns(finding, task),
			task->stack_id, task->waits_for_tid);
		if (task->waits.kind == WF_RES_NONE)
			fputs("null", out);
		else
			cycles_json_res(out, &task->waits,
					cycles_wait_name(task->waits.kind));
		fputs(",\"holds\":[", out);
		for (uint32_t h = 0; h < task->nr_holds; h++) {
			if (h)
				fputc(',', out);
			cycles_json_res(out, &task->holds[h],
					cycles_hold_name(task->holds[h].kind));
		}
		fputs("]}", out);
	}
	fputs("]}", out);
	return ferror(out) ? -EIO : 0;
}
