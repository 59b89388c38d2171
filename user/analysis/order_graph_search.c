// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * Incremental cycle search: a new edge u -> v closes a cycle for every
 * simple path v ~> u.  A bounded breadth-first walk backwards from u
 * first gives each class its distance to u, so the depth-first walk from
 * v only follows classes that can still get back to u within the length
 * bound.  Nothing is searched for a new variant of a known edge: the
 * cycles through it are already known and only their verdict can change.
 *
 * Apart from the graph it walks: the walk is the one part with a budget
 * and scratch state (distances, the path), and what it finds is handed
 * to order_graph_verdicts.c to keep.
 */
#include "analysis/order_graph_impl.h"

struct og_search {
	uint32_t from_node;		/* u: the new edge's start */
	uint32_t edge;			/* the new edge */
	uint32_t path_node[OG_CYCLE_LEN_MAX];
	uint32_t path_edge[OG_CYCLE_LEN_MAX];
	uint32_t budget;
	int found;
	bool cut;
};

static void og_search_record(struct og_graph *graph,
			     struct og_search *search, uint32_t nr,
			     uint32_t last_edge)
{
	const struct og_edge *closing = &graph->edges[search->edge];
	struct og_cycle candidate = { .nr = nr };

	for (uint32_t i = 0; i < nr; i++) {
		candidate.classes[i] = graph->nodes[search->path_node[i]].id;
		candidate.edges[i] = search->path_edge[i];
	}
	candidate.edges[nr - 1] = last_edge;
	candidate.found_ns = closing->variant[closing->nr_variants - 1]
				     .first_ns;
	search->found += og_cycle_add(graph, &candidate);
}

static bool og_search_spend(struct og_search *search)
{
	if (!search->budget) {
		search->cut = true;
		return false;
	}
	search->budget--;
	return true;
}

/* Give every class within reach of u (backwards) its distance to u. */
static void og_search_distances(struct og_graph *graph,
				struct og_search *search)
{
	uint32_t head = 0, tail = 0;
	uint32_t max_dist = graph->limits.max_cycle_len - 1;

	if (++graph->gen == 0) {
		for (uint32_t i = 0; i < graph->nr_nodes; i++)
			graph->nodes[i].seen_gen = 0;
		graph->gen = 1;
	}
	graph->nodes[search->from_node].seen_gen = graph->gen;
	graph->nodes[search->from_node].dist = 0;
	graph->bfs_queue[tail++] = search->from_node;
	while (head < tail) {
		struct og_node *node = &graph->nodes[graph->bfs_queue[head++]];

		if (node->dist >= max_dist)
			continue;
		for (uint32_t e = node->first_in; e != OG_NIL;
		     e = graph->edges[e].next_in) {
			struct og_node *prev =
				&graph->nodes[graph->edges[e].from_node];

			if (!og_search_spend(search))
				return;
			if (prev->seen_gen == graph->gen)
				continue;
			prev->seen_gen = graph->gen;
			prev->dist = node->dist + 1;
			graph->bfs_queue[tail++] = graph->edges[e].from_node;
		}
	}
}

/* path_node[0 .. nr - 1] is u, v, ...; extend it from its last class. */
static void og_search_paths(struct og_graph *graph, struct og_search *search,
			    uint32_t nr)
{
	const struct og_node *last = &graph->nodes[search->path_node[nr - 1]];

	for (uint32_t e = last->first_out; e != OG_NIL;
	     e = graph->edges[e].next_out) {
		uint32_t next = graph->edges[e].to_node;
		struct og_node *node = &graph->nodes[next];

		if (!og_search_spend(search))
			return;
		if (next == search->from_node) {
			og_search_record(graph, search, nr, e);
			continue;
		}
		if (node->on_path || node->seen_gen != graph->gen ||
		    nr + node->dist > graph->limits.max_cycle_len)
			continue;
		search->path_node[nr] = next;
		search->path_edge[nr - 1] = e;
		node->on_path = true;
		og_search_paths(graph, search, nr + 1);
		node->on_path = false;
		if (search->cut)
			return;
	}
}

int og_search_cycles(struct og_graph *graph, uint32_t edge_index)
{
	const struct og_edge *edge = &graph->edges[edge_index];
	struct og_search search = {
		.from_node = edge->from_node,
		.edge = edge_index,
		.budget = graph->limits.search_budget,
	};
	struct og_node *to = &graph->nodes[edge->to_node];

	og_search_distances(graph, &search);
	if (!search.cut && to->seen_gen == graph->gen) {
		search.path_node[0] = edge->from_node;
		search.path_node[1] = edge->to_node;
		search.path_edge[0] = edge_index;
		graph->nodes[edge->from_node].on_path = true;
		to->on_path = true;
		og_search_paths(graph, &search, 2);
		graph->nodes[edge->from_node].on_path = false;
		to->on_path = false;
	}
	if (search.cut)
		graph->stats.searches_cut++;
	return search.found;
}
