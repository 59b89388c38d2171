// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * The picture follows lockdep's print_circular_lock_scenario() so that
 * kernel developers read it at a glance, with the kernfs steps named for
 * what they are (get_active, drain) and the gates shown where they were
 * held.  A cycle of more than two classes does not fit two columns in 80:
 * each step then names its CPU.
 *
 * This file holds the cycles as text; their JSON is cycles_json.c, the
 * wait-for findings (deadlocks, hangs) deadlock.c.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "report/cycles_fmt.h"
#include "trace/names.h"
#include "trace/stacks.h"
#include "analysis/gates.h"

#define CYCLES_COL2		"                               "

void cycles_time(FILE *out, uint64_t ns)
{
	fprintf(out, "%llu.%06llu", (unsigned long long)(ns / 1000000000ULL),
		(unsigned long long)(ns % 1000000000ULL / 1000));
}

const char *cycles_name(const struct og_graph *graph, uint64_t id, char *buf)
{
	return og_class_name(graph, id, buf, CYCLES_NAME_BUF);
}

const char *cycles_module(const struct og_graph *graph, uint64_t id,
			  char *buf)
{
	const char *name = cycles_name(graph, id, buf);

	return strncmp(name, "mod:", 4) ? name : name + 4;
}

void cycles_line(const struct og_graph *graph, const struct og_cycle *cycle,
		 FILE *out)
{
	char buf[CYCLES_NAME_BUF];

	fprintf(out, "%s: ", gate_verdict_name(cycle->verdict.kind));
	if (cycle->nr == 2) {
		fprintf(out, "%s <-> ", cycles_name(graph, cycle->classes[0],
						    buf));
		fprintf(out, "%s", cycles_name(graph, cycle->classes[1], buf));
	} else {
		for (uint32_t i = 0; i < cycle->nr; i++)
			fprintf(out, "%s -> ",
				cycles_name(graph, cycle->classes[i], buf));
		fprintf(out, "%s", cycles_name(graph, cycle->classes[0], buf));
	}
	fprintf(out, " (%u classes)\n", cycle->nr);
}

/* --- the scenario picture --------------------------------------------- */

static void cycles_step(const struct og_graph *graph, uint64_t class_id,
			uint32_t mode, FILE *out)
{
	char buf[CYCLES_NAME_BUF];
	const char *verb;

	if (SO_CLASS_KIND(class_id) == SO_CLASS_KN)
		verb = mode == SO_HOLD_READ ? "get_active" :
		       mode == SO_HOLD_WRITE ? "drain" : "use";
	else
		verb = mode == SO_HOLD_READ ? "read_lock" : "lock";
	fprintf(out, "%s(%s);\n", verb, cycles_name(graph, class_id, buf));
}

/*
 * The gates of a cycle edge's task: it held its try_module_get()
 * references when it took its second lock, and its module was GOING
 * before it took the first (delete_module() marks it before ->exit()).
 */
static void cycles_gate_steps(const struct og_graph *graph,
			      const struct og_variant *variant,
			      const char *prefix, FILE *out)
{
	char buf[CYCLES_NAME_BUF];

	for (uint32_t k = 0; k < SO_GATES_MAX && variant->gates[k]; k++)
		fprintf(out, "%stry_module_get(%s);\n", prefix,
			cycles_module(graph, variant->gates[k], buf));
}

static void cycles_going_step(const struct og_graph *graph,
			      const struct og_variant *variant,
			      const char *prefix, FILE *out)
{
	char buf[CYCLES_NAME_BUF];

	if (variant->going)
		fprintf(out, "%s(%s is GOING)\n", prefix,
			cycles_module(graph, variant->going, buf));
}

static void cycles_picture_two(const struct og_graph *graph,
			       const struct og_cycle *cycle, FILE *out)
{
	const struct og_variant *cpu0 = og_cycle_variant(graph, cycle, 0);
	const struct og_variant *cpu1 = og_cycle_variant(graph, cycle, 1);

	fprintf(out, "       CPU0                    CPU1\n");
	fprintf(out, "       ----                    ----\n");
	cycles_going_step(graph, cpu0, "  ", out);
	fprintf(out, "  ");
	cycles_step(graph, cycle->classes[0], cpu0->from_mode, out);
	cycles_going_step(graph, cpu1, CYCLES_COL2, out);
	fprintf(out, CYCLES_COL2);
	cycles_step(graph, cycle->classes[1], cpu1->from_mode, out);
	cycles_gate_steps(graph, cpu1, CYCLES_COL2, out);
	fprintf(out, CYCLES_COL2);
	cycles_step(graph, cycle->classes[0], cpu1->to_mode, out);
	cycles_gate_steps(graph, cpu0, "  ", out);
	fprintf(out, "  ");
	cycles_step(graph, cycle->classes[1], cpu0->to_mode, out);
}

/* Step `second` of a CPU: its first lock, or the one it then waits for. */
static void cycles_many_step(const struct og_graph *graph,
			     const struct og_cycle *cycle, uint32_t cpu,
			     bool second, FILE *out)
{
	const struct og_variant *variant = og_cycle_variant(graph, cycle, cpu);
	char prefix[24];

	snprintf(prefix, sizeof(prefix), "  CPU%u: ", cpu);
	if (second)
		cycles_gate_steps(graph, variant, prefix, out);
	else
		cycles_going_step(graph, variant, prefix, out);
	fprintf(out, "%s", prefix);
	if (second)
		cycles_step(graph, cycle->classes[(cpu + 1) % cycle->nr],
			    variant->to_mode, out);
	else
		cycles_step(graph, cycle->classes[cpu], variant->from_mode,
			    out);
}

static void cycles_picture_many(const struct og_graph *graph,
				const struct og_cycle *cycle, FILE *out)
{
	fprintf(out, "       CPU0 .. CPU%u: each takes its first lock, "
		"then its second\n", cycle->nr - 1);
	for (uint32_t cpu = 0; cpu < cycle->nr; cpu++)
		cycles_many_step(graph, cycle, cpu, false, out);
	for (uint32_t cpu = 0; cpu < cycle->nr; cpu++)
		cycles_many_step(graph, cycle, cpu, true, out);
}

static void cycles_picture(const struct og_graph *graph,
			   const struct og_cycle *cycle, FILE *out)
{
	static const char *const ending[] = {
		[OG_VERDICT_NO_WAIT] = " *** no wait: no deadlock ***",
		[OG_VERDICT_GATED] = " *** GATED: no deadlock ***",
		[OG_VERDICT_PRONE] = " *** DEADLOCK ***",
	};

	fprintf(out, "\n Possible unsafe locking scenario:\n\n");
	if (cycle->nr == 2)
		cycles_picture_two(graph, cycle, out);
	else
		cycles_picture_many(graph, cycle, out);
	fprintf(out, "\n%s\n\n", ending[cycle->verdict.kind]);
}

/* --- edges ------------------------------------------------------------ */

const char *cycles_mode_name(uint32_t mode)
{
	return mode == SO_HOLD_READ ? "read" :
	       mode == SO_HOLD_WRITE ? "write" : "unknown";
}

void cycles_stack(int32_t stack_id, so_stack_fmt stack_fmt, void *stack_ctx,
		  FILE *out)
{
	if (stack_id < 0) {
		fprintf(out, "    stack: not captured\n");
		return;
	}
	if (stacks_id_is_task(stack_id))
		fprintf(out, "    stack, read when found:\n");
	else
		fprintf(out, "    stack #%d:\n", stack_id);
	if (!stack_fmt || stack_fmt(stack_ctx, stack_id, out) < 0)
		fprintf(out, "      (not symbolized)\n");
}

static void cycles_edge(const struct og_graph *graph,
			const struct og_cycle *cycle, uint32_t pos,
			so_stack_fmt stack_fmt, void *stack_ctx, FILE *out)
{
	const struct og_edge *edge = og_edge_at(graph, cycle->edges[pos]);
	const struct og_variant *variant = og_cycle_variant(graph, cycle, pos);
	char buf[CYCLES_NAME_BUF];

	fprintf(out, "  edge %s", cycles_name(graph, edge->from_class, buf));
	fprintf(out, " (%s) -> %s (%s)\n", cycles_mode_name(variant->from_mode),
		cycles_name(graph, edge->to_class, buf),
		cycles_mode_name(variant->to_mode));
	fprintf(out, "    first seen at ");
	cycles_time(out, variant->first_ns);
	fprintf(out, " by %s/%u, %llu time%s", variant->comm,
		variant->first_tid, (unsigned long long)variant->count,
		variant->count == 1 ? "" : "s");
	for (uint32_t k = 0; k < SO_GATES_MAX && variant->gates[k]; k++)
		fprintf(out, "%s%s", k ? ", " : ", holding ",
			cycles_name(graph, variant->gates[k], buf));
	if (variant->going)
		fprintf(out, ", while %s is GOING",
			cycles_module(graph, variant->going, buf));
	fprintf(out, "\n");
	if (edge->nr_variants > 1)
		fprintf(out, "    (seen in %u ways; this one decides)\n",
			edge->nr_variants);
	cycles_stack(variant->stack_id, stack_fmt, stack_ctx, out);
}

/* The gate sentence, wrapped at word boundaries to stay in 80 columns. */
static void cycles_wrapped(FILE *out, const char *text)
{
	const uint32_t width = 76;
	uint32_t column = 0;

	while (*text) {
		uint32_t word = strcspn(text, " ");

		if (column && column + 1 + word > width) {
			fputc('\n', out);
			column = 0;
		}
		fputs(column ? " " : "  ", out);
		fwrite(text, 1, word, out);
		column += word + (column ? 1 : 0);
		text += word;
		text += strspn(text, " ");
	}
	fputc('\n', out);
}

void cycles_detail(const struct og_graph *graph, const struct og_cycle *cycle,
		   so_stack_fmt stack_fmt, void *stack_ctx, FILE *out)
{
	char reason[CYCLES_REASON_BUF];

	cycles_line(graph, cycle, out);
	gate_reason(graph, cycle, reason, sizeof(reason));
	cycles_wrapped(out, reason);
	cycles_picture(graph, cycle, out);
	for (uint32_t pos = 0; pos < cycle->nr; pos++)
		cycles_edge(graph, cycle, pos, stack_fmt, stack_ctx, out);
}

uint32_t cycles_print(const struct og_graph *graph, so_stack_fmt stack_fmt,
		      void *stack_ctx, FILE *out)
{
	const struct og_stats *stats = og_get_stats(graph);
	static const enum og_verdict_kind order[] = {
		OG_VERDICT_PRONE, OG_VERDICT_GATED,
	};
	uint32_t printed = 0;

	fprintf(out, "# cycles: %llu deadlock-prone, %llu gated, "
		"%llu where nobody can wait\n",
		(unsigned long long)stats->cycles_prone,
		(unsigned long long)stats->cycles_gated,
		(unsigned long long)stats->cycles_no_wait);
	for (uint32_t o = 0; o < sizeof(order) / sizeof(order[0]); o++) {
		for (uint32_t i = 0; i < og_cycle_count(graph); i++) {
			const struct og_cycle *cycle = og_cycle_at(graph, i);

			if (cycle->verdict.kind != order[o])
				continue;
			fprintf(out, "\n");
			cycles_detail(graph, cycle, stack_fmt, stack_ctx, out);
			printed++;
		}
	}
	if (stats->lost_cycles || stats->searches_cut || stats->lost_edges ||
	    stats->lost_variants || stats->lost_classes)
		fprintf(out, "\nWARNING! The graph was too big: %llu cycles, "
			"%llu edges, %llu variants, %llu classes lost, "
			"%llu searches cut short; cycles may be missing\n",
			(unsigned long long)stats->lost_cycles,
			(unsigned long long)stats->lost_edges,
			(unsigned long long)stats->lost_variants,
			(unsigned long long)stats->lost_classes,
			(unsigned long long)stats->searches_cut);
	return (uint32_t)stats->cycles_prone;
}
