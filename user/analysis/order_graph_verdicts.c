// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * The cycles the graph keeps and the bookkeeping of their verdicts: one
 * cycle per class set (the worst-judged order of it), judged when found
 * and again when a new variant of one of its edges arrives, counted in
 * og_stats by verdict.  Apart from the search because a verdict changes
 * without any search (og_rejudge), and the search knows nothing of it.
 */
#include <string.h>

#include "analysis/order_graph_impl.h"

static void og_judge(const struct og_graph *graph, const struct og_cycle *cycle,
		     struct og_verdict *verdict)
{
	if (graph->judge) {
		graph->judge(graph, cycle, verdict);
		return;
	}
	memset(verdict, 0, sizeof(*verdict));
	verdict->kind = OG_VERDICT_PRONE;
}

static uint64_t og_set_hash(const uint64_t *classes, uint32_t nr)
{
	uint64_t hash = nr;

	/* A sum, so that every rotation and order hashes alike. */
	for (uint32_t i = 0; i < nr; i++)
		hash += hash_mix64(classes[i]);
	return hash;
}

static void og_sorted(uint64_t *out, const uint64_t *classes, uint32_t nr)
{
	for (uint32_t i = 0; i < nr; i++) {
		uint32_t at = i;

		while (at > 0 && out[at - 1] > classes[i]) {
			out[at] = out[at - 1];
			at--;
		}
		out[at] = classes[i];
	}
}

static bool og_same_set(const struct og_cycle *a, const struct og_cycle *b)
{
	uint64_t sa[OG_CYCLE_LEN_MAX], sb[OG_CYCLE_LEN_MAX];

	if (a->nr != b->nr || a->set_hash != b->set_hash)
		return false;
	og_sorted(sa, a->classes, a->nr);
	og_sorted(sb, b->classes, b->nr);
	return !memcmp(sa, sb, a->nr * sizeof(sa[0]));
}

static uint64_t *og_verdict_counter(struct og_graph *graph,
				    enum og_verdict_kind kind)
{
	switch (kind) {
	case OG_VERDICT_PRONE:
		return &graph->stats.cycles_prone;
	case OG_VERDICT_GATED:
		return &graph->stats.cycles_gated;
	default:
		return &graph->stats.cycles_no_wait;
	}
}

/* Count the new verdict, and tell the caller when it is worth telling. */
static int og_cycle_judged(struct og_graph *graph, struct og_cycle *cycle,
			   enum og_verdict_kind was, bool is_new)
{
	if (!is_new)
		(*og_verdict_counter(graph, was))--;
	(*og_verdict_counter(graph, cycle->verdict.kind))++;
	if (cycle->verdict.kind == OG_VERDICT_NO_WAIT)
		return 0;
	if (graph->cycle_cb)
		graph->cycle_cb(graph->cycle_cb_ctx, graph, cycle, was);
	return 1;
}

/*
 * Keep a cycle just found.  A known class set keeps its edges unless
 * this order of the same classes judges worse.
 */
int og_cycle_add(struct og_graph *graph, struct og_cycle *candidate)
{
	struct og_cycle *cycle;
	enum og_verdict_kind was;

	candidate->set_hash = og_set_hash(candidate->classes, candidate->nr);
	for (uint32_t i = index_first(&graph->cycle_index,
				      candidate->set_hash);
	     i != SO_INDEX_NIL; i = cycle->hash_next) {
		cycle = &graph->cycles[i];
		if (!og_same_set(cycle, candidate))
			continue;
		if (cycle->verdict.kind == OG_VERDICT_PRONE)
			return 0;	/* nothing judges worse */
		og_judge(graph, candidate, &candidate->verdict);
		if (candidate->verdict.kind <= cycle->verdict.kind)
			return 0;
		was = cycle->verdict.kind;
		candidate->hash_next = cycle->hash_next;
		*cycle = *candidate;
		return og_cycle_judged(graph, cycle, was, false);
	}
	if (graph->nr_cycles == graph->limits.max_cycles) {
		graph->stats.lost_cycles++;
		return 0;
	}
	og_judge(graph, candidate, &candidate->verdict);
	cycle = &graph->cycles[graph->nr_cycles];
	*cycle = *candidate;
	index_add(&graph->cycle_index, graph->cycles, graph->nr_cycles++,
		  cycle->set_hash);
	return og_cycle_judged(graph, cycle, OG_VERDICT_NO_WAIT, true);
}

/* A new variant of a known edge: the cycles through it may judge worse. */
int og_rejudge(struct og_graph *graph, uint32_t edge_index)
{
	int found = 0;

	for (uint32_t i = 0; i < graph->nr_cycles; i++) {
		struct og_cycle *cycle = &graph->cycles[i];
		enum og_verdict_kind was = cycle->verdict.kind;
		struct og_verdict verdict;
		bool through = false;

		for (uint32_t k = 0; k < cycle->nr; k++)
			through |= cycle->edges[k] == edge_index;
		if (!through)
			continue;
		og_judge(graph, cycle, &verdict);
		if (verdict.kind <= was)
			continue;
		cycle->verdict = verdict;
		found += og_cycle_judged(graph, cycle, was, false);
	}
	return found;
}

/* --- read access ------------------------------------------------------ */

uint32_t og_cycle_count(const struct og_graph *graph)
{
	return graph->nr_cycles;
}

const struct og_cycle *og_cycle_at(const struct og_graph *graph,
				   uint32_t index)
{
	return index < graph->nr_cycles ? &graph->cycles[index] : NULL;
}

const struct og_variant *og_cycle_variant(const struct og_graph *graph,
					  const struct og_cycle *cycle,
					  uint32_t pos)
{
	const struct og_edge *edge = &graph->edges[cycle->edges[pos]];
	uint32_t pick = cycle->verdict.variant[pos];

	return &edge->variant[pick < edge->nr_variants ? pick : 0];
}

bool og_mode_blocks(uint32_t kind, uint32_t request_mode,
		    uint32_t held_mode)
{
	/* A mode of 0 is unknown: assume the worst, a wait. */
	switch (kind) {
	case SO_CLASS_MOD:
		return false;
	case SO_CLASS_KN:
		return request_mode != SO_HOLD_READ &&
		       held_mode != SO_HOLD_WRITE;
	default:
		return request_mode != SO_HOLD_READ ||
		       held_mode != SO_HOLD_READ;
	}
}
