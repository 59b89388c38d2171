/* SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1 */
/*
 * The class graph's insides, shared by the files that implement
 * order_graph.h and by no one else: order_graph.c keeps the classes
 * and edges, order_graph_search.c finds the cycles a new edge closes,
 * order_graph_verdicts.c keeps the cycles and their verdicts, and
 * order_graph_names.c says what a class is called.
 */
#ifndef SO_ANALYSIS_ORDER_GRAPH_IMPL_H
#define SO_ANALYSIS_ORDER_GRAPH_IMPL_H

#include "analysis/order_graph.h"
#include "lib/index.h"

/* Chains end where the graph's lists do. */
_Static_assert(OG_NIL == SO_INDEX_NIL, "one end marker");

struct og_node {
	uint64_t id;
	char name[SO_NAME_LEN];
	uint32_t first_out;
	uint32_t first_in;
	uint32_t hash_next;
	uint32_t seen_gen;	/* == graph->gen: dist is valid */
	uint8_t dist;		/* edges from here back to the search's u */
	bool on_path;
};

struct og_graph {
	struct og_limits limits;
	struct og_stats stats;
	og_cycle_cb cycle_cb;
	void *cycle_cb_ctx;
	og_judge_fn judge;
	og_namer_fn namer;
	void *namer_ctx;

	struct og_node *nodes;
	uint32_t nr_nodes;
	struct so_index node_index;

	struct og_edge *edges;
	uint32_t nr_edges;
	struct so_index edge_index;

	struct og_cycle *cycles;
	uint32_t nr_cycles;
	struct so_index cycle_index;

	uint32_t *bfs_queue;
	uint32_t gen;
};

/* The node of class `id`, or OG_NIL (order_graph.c). */
uint32_t og_node_find(const struct og_graph *graph, uint64_t id);
/* The node of class `id`, added if new; OG_NIL when the table is full.
 * A name given fills the node's if it has none yet. */
uint32_t og_node_get(struct og_graph *graph, uint64_t id, const char *name);

/* The cycles the new edge closes; how many the callback was told of
 * (order_graph_search.c). */
int og_search_cycles(struct og_graph *graph, uint32_t edge_index);

/* Keep a cycle the search found, judged; 1 when the callback ran
 * (order_graph_verdicts.c). */
int og_cycle_add(struct og_graph *graph, struct og_cycle *candidate);
/* A new variant of a known edge: judge the cycles through it again. */
int og_rejudge(struct og_graph *graph, uint32_t edge_index);

#endif /* SO_ANALYSIS_ORDER_GRAPH_IMPL_H */
