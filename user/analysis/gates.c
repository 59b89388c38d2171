// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * The verdict is a worst case over the ways the cycle's edges were seen:
 * one combination of variants that can wait at every class and has no
 * excluding pair is enough for DEADLOCK-PRONE.  A cycle has at most
 * OG_CYCLE_LEN_MAX edges of at most OG_VARIANTS_MAX variants, so trying
 * every combination costs at most 4^6 small checks, and nearly always 1.
 */
#include <stdio.h>
#include <string.h>

#include "analysis/gates.h"

bool gate_excludes(const struct og_variant *holder,
		   const struct og_variant *going_side, uint64_t *module)
{
	if (!going_side->going)
		return false;
	for (uint32_t k = 0; k < SO_GATES_MAX && holder->gates[k]; k++) {
		if (holder->gates[k] != going_side->going)
			continue;
		if (module)
			*module = going_side->going;
		return true;
	}
	return false;
}

/* The first class of `verdict`'s combination where nobody would wait. */
static int gate_no_wait_at(const struct og_graph *graph,
			   const struct og_cycle *cycle,
			   const struct og_verdict *verdict)
{
	for (uint32_t pos = 0; pos < cycle->nr; pos++) {
		uint32_t in = (pos + cycle->nr - 1) % cycle->nr;
		const struct og_variant *asked, *held;

		asked = &og_edge_at(graph, cycle->edges[in])
				 ->variant[verdict->variant[in]];
		held = &og_edge_at(graph, cycle->edges[pos])
				->variant[verdict->variant[pos]];
		if (!og_mode_blocks(SO_CLASS_KIND(cycle->classes[pos]),
				    asked->to_mode, held->from_mode))
			return pos;
	}
	return -1;
}

/* Fill gate_* when two edges of the combination exclude each other. */
static bool gate_find_pair(const struct og_graph *graph,
			   const struct og_cycle *cycle,
			   struct og_verdict *verdict)
{
	const struct og_variant *picked[OG_CYCLE_LEN_MAX];

	for (uint32_t i = 0; i < cycle->nr; i++)
		picked[i] = &og_edge_at(graph, cycle->edges[i])
				     ->variant[verdict->variant[i]];
	for (uint32_t h = 0; h < cycle->nr; h++) {
		for (uint32_t g = 0; g < cycle->nr; g++) {
			if (h == g || !gate_excludes(picked[h], picked[g],
						     &verdict->gate_module))
				continue;
			verdict->gate_holder = h;
			verdict->gate_going = g;
			return true;
		}
	}
	return false;
}

/* Step the combination like an odometer; false once it wrapped. */
static bool gate_next_combination(const struct og_graph *graph,
				  const struct og_cycle *cycle,
				  struct og_verdict *verdict)
{
	for (uint32_t i = 0; i < cycle->nr; i++) {
		const struct og_edge *edge = og_edge_at(graph, cycle->edges[i]);

		if (++verdict->variant[i] < edge->nr_variants)
			return true;
		verdict->variant[i] = 0;
	}
	return false;
}

void gate_judge(const struct og_graph *graph, const struct og_cycle *cycle,
		struct og_verdict *verdict)
{
	struct og_verdict trial = { 0 };
	bool have_witness = false;

	do {
		int no_wait_at = gate_no_wait_at(graph, cycle, &trial);

		if (no_wait_at >= 0) {
			trial.kind = OG_VERDICT_NO_WAIT;
			trial.no_wait_at = no_wait_at;
		} else if (gate_find_pair(graph, cycle, &trial)) {
			trial.kind = OG_VERDICT_GATED;
		} else {
			trial.kind = OG_VERDICT_PRONE;
			*verdict = trial;
			return;
		}
		if (!have_witness || trial.kind > verdict->kind)
			*verdict = trial;
		have_witness = true;
	} while (gate_next_combination(graph, cycle, &trial));
}

const char *gate_verdict_name(enum og_verdict_kind kind)
{
	switch (kind) {
	case OG_VERDICT_PRONE:
		return "DEADLOCK-PRONE";
	case OG_VERDICT_GATED:
		return "GATED";
	default:
		return "NO-WAIT";
	}
}

/* --- the sentence ----------------------------------------------------- */

struct gate_names {
	char from_buf[SO_NAME_LEN + 24];
	char to_buf[SO_NAME_LEN + 24];
	const char *from;
	const char *to;
	const char *comm;
};

static void gate_edge_names(const struct og_graph *graph,
			    const struct og_cycle *cycle, uint32_t pos,
			    struct gate_names *names)
{
	const struct og_edge *edge = og_edge_at(graph, cycle->edges[pos]);
	const struct og_variant *variant = og_cycle_variant(graph, cycle, pos);

	names->from = og_class_name(graph, edge->from_class, names->from_buf,
				    sizeof(names->from_buf));
	names->to = og_class_name(graph, edge->to_class, names->to_buf,
				  sizeof(names->to_buf));
	names->comm = variant->comm[0] ? variant->comm : "an unnamed task";
}

/* "test_sysfs" for the class named "mod:test_sysfs". */
static const char *gate_module_name(const struct og_graph *graph,
				    uint64_t module, char *buf, uint32_t len)
{
	const char *name = og_class_name(graph, module, buf, len);

	return strncmp(name, "mod:", 4) ? name : name + 4;
}

static int gate_reason_gated(const struct og_graph *graph,
			     const struct og_cycle *cycle, char *buf,
			     size_t len)
{
	const struct og_verdict *verdict = &cycle->verdict;
	struct gate_names holder, going;
	char module_buf[SO_NAME_LEN + 24];
	const char *module;

	gate_edge_names(graph, cycle, verdict->gate_holder, &holder);
	gate_edge_names(graph, cycle, verdict->gate_going, &going);
	module = gate_module_name(graph, verdict->gate_module, module_buf,
				  sizeof(module_buf));
	return snprintf(buf, len,
			"gated: the edge %s -> %s, taken by %s, holds a "
			"try_module_get reference on %s, and the edge "
			"%s -> %s, taken by %s, runs while %s is GOING, so "
			"they never overlap",
			holder.from, holder.to, holder.comm, module,
			going.from, going.to, going.comm, module);
}

static int gate_reason_prone(const struct og_graph *graph,
			     const struct og_cycle *cycle, char *buf,
			     size_t len)
{
	char module_buf[SO_NAME_LEN + 24];
	struct gate_names holder;

	for (uint32_t pos = 0; pos < cycle->nr; pos++) {
		const struct og_variant *variant =
			og_cycle_variant(graph, cycle, pos);
		const char *module;

		if (!variant->gates[0])
			continue;
		gate_edge_names(graph, cycle, pos, &holder);
		module = gate_module_name(graph, variant->gates[0],
					  module_buf, sizeof(module_buf));
		return snprintf(buf, len,
				"deadlock-prone: the edge %s -> %s, taken by "
				"%s, holds a try_module_get reference on %s, "
				"but no edge of the cycle runs while %s is "
				"GOING, so nothing keeps the edges apart",
				holder.from, holder.to, holder.comm, module,
				module);
	}
	return snprintf(buf, len,
			"deadlock-prone: no edge of the cycle holds a "
			"try_module_get reference, so nothing keeps the edges "
			"apart");
}

static int gate_reason_no_wait(const struct og_graph *graph,
			       const struct og_cycle *cycle, char *buf,
			       size_t len)
{
	uint32_t pos = cycle->verdict.no_wait_at;
	uint32_t in = (pos + cycle->nr - 1) % cycle->nr;
	const struct og_variant *asked = og_cycle_variant(graph, cycle, in);
	uint32_t kind = SO_CLASS_KIND(cycle->classes[pos]);
	char name_buf[SO_NAME_LEN + 24];
	const char *name;

	name = og_class_name(graph, cycle->classes[pos], name_buf,
			     sizeof(name_buf));
	if (kind == SO_CLASS_KN && asked->to_mode == SO_HOLD_READ)
		return snprintf(buf, len,
				"no wait: %s is only asked for as an active "
				"reference, which never waits (active "
				"references never wait for each other)",
				name);
	if (kind == SO_CLASS_KN)
		return snprintf(buf, len,
				"no wait: %s is held drained, which makes "
				"others fail instead of wait", name);
	return snprintf(buf, len,
			"no wait: %s is read on both sides, and readers do "
			"not wait for each other", name);
}

int gate_reason(const struct og_graph *graph, const struct og_cycle *cycle,
		char *buf, size_t len)
{
	switch (cycle->verdict.kind) {
	case OG_VERDICT_GATED:
		return gate_reason_gated(graph, cycle, buf, len);
	case OG_VERDICT_PRONE:
		return gate_reason_prone(graph, cycle, buf, len);
	default:
		return gate_reason_no_wait(graph, cycle, buf, len);
	}
}
