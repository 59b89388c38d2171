// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * The class graph's store: its tables, sized once from og_limits, the
 * classes and edges in them, and og_add_edge(), which turns a sighting
 * into a new edge (then searched for cycles, order_graph_search.c) or a
 * new variant of a known one (then its cycles are judged again,
 * order_graph_verdicts.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/order_graph_impl.h"

#define OG_DEFAULT_CLASSES	4096
#define OG_DEFAULT_EDGES	16384
#define OG_DEFAULT_CYCLES	1024
#define OG_DEFAULT_BUDGET	65536

static bool og_limits_valid(const struct og_limits *limits)
{
	return limits->max_classes && limits->max_edges &&
	       limits->max_cycles && limits->max_cycle_len >= 2 &&
	       limits->max_cycle_len <= OG_CYCLE_LEN_MAX &&
	       limits->max_classes < (1U << 30) &&
	       limits->max_edges < (1U << 30) &&
	       limits->max_cycles < (1U << 30);
}

void og_limits_for_tables(struct og_limits *limits, uint32_t table_entries)
{
	*limits = (struct og_limits){
		.max_classes = OG_DEFAULT_CLASSES,
		.max_edges = OG_DEFAULT_EDGES,
		.max_cycles = OG_DEFAULT_CYCLES,
		.max_cycle_len = OG_CYCLE_LEN_MAX,
		.search_budget = OG_DEFAULT_BUDGET,
	};
	if (table_entries > limits->max_classes)
		limits->max_classes = table_entries;
	if (table_entries > limits->max_edges)
		limits->max_edges = table_entries;
}

struct og_graph *og_new(const struct og_limits *limits)
{
	struct og_limits defaults;
	struct og_graph *graph;

	if (!limits) {
		og_limits_for_tables(&defaults, 0);
		limits = &defaults;
	}
	if (!og_limits_valid(limits))
		return NULL;
	graph = calloc(1, sizeof(*graph));
	if (!graph)
		return NULL;
	graph->limits = *limits;
	if (!graph->limits.search_budget)
		graph->limits.search_budget = OG_DEFAULT_BUDGET;
	graph->nodes = calloc(limits->max_classes, sizeof(*graph->nodes));
	graph->edges = calloc(limits->max_edges, sizeof(*graph->edges));
	graph->cycles = calloc(limits->max_cycles, sizeof(*graph->cycles));
	graph->bfs_queue = calloc(limits->max_classes,
				  sizeof(*graph->bfs_queue));
	if (!graph->nodes || !graph->edges || !graph->cycles ||
	    !graph->bfs_queue ||
	    SO_INDEX_INIT(&graph->node_index, limits->max_classes,
			  struct og_node, hash_next) ||
	    SO_INDEX_INIT(&graph->edge_index, limits->max_edges,
			  struct og_edge, hash_next) ||
	    SO_INDEX_INIT(&graph->cycle_index, limits->max_cycles,
			  struct og_cycle, hash_next)) {
		og_free(graph);
		return NULL;
	}
	return graph;
}

void og_free(struct og_graph *graph)
{
	if (!graph)
		return;
	free(graph->nodes);
	free(graph->edges);
	free(graph->cycles);
	free(graph->bfs_queue);
	index_fini(&graph->node_index);
	index_fini(&graph->edge_index);
	index_fini(&graph->cycle_index);
	free(graph);
}

void og_set_cycle_cb(struct og_graph *graph, og_cycle_cb cycle_cb,
		     void *ctx)
{
	graph->cycle_cb = cycle_cb;
	graph->cycle_cb_ctx = ctx;
}

void og_set_judge(struct og_graph *graph, og_judge_fn judge)
{
	graph->judge = judge;
}

/* --- classes ---------------------------------------------------------- */

uint32_t og_node_find(const struct og_graph *graph, uint64_t id)
{
	uint32_t i = index_first(&graph->node_index, id);

	while (i != OG_NIL && graph->nodes[i].id != id)
		i = graph->nodes[i].hash_next;
	return i;
}

static void og_node_set_name(struct og_node *node, const char *name)
{
	size_t len;

	if (!name || !name[0] || node->name[0])
		return;
	len = strnlen(name, SO_NAME_LEN - 1);
	memcpy(node->name, name, len);
	node->name[len] = '\0';
}

uint32_t og_node_get(struct og_graph *graph, uint64_t id, const char *name)
{
	uint32_t i = og_node_find(graph, id);
	struct og_node *node;

	if (i == OG_NIL) {
		if (graph->nr_nodes == graph->limits.max_classes) {
			graph->stats.lost_classes++;
			return OG_NIL;
		}
		i = graph->nr_nodes++;
		node = &graph->nodes[i];
		node->id = id;
		node->first_out = OG_NIL;
		node->first_in = OG_NIL;
		index_add(&graph->node_index, graph->nodes, i, id);
	}
	og_node_set_name(&graph->nodes[i], name);
	return i;
}

/* --- edges and variants ----------------------------------------------- */

static uint64_t og_pair_hash(uint64_t from, uint64_t to)
{
	return hash_mix64(from) ^ (to * 0x9e3779b97f4a7c15ULL);
}

static uint32_t og_edge_find(const struct og_graph *graph, uint64_t from,
			     uint64_t to)
{
	uint32_t i = index_first(&graph->edge_index, og_pair_hash(from, to));

	while (i != OG_NIL && (graph->edges[i].from_class != from ||
			       graph->edges[i].to_class != to))
		i = graph->edges[i].hash_next;
	return i;
}

/* gates[] as a set: sorted, without repeats, zeros at the end. */
static void og_variant_from_val(struct og_variant *variant,
				const struct so_edge_val *val)
{
	uint32_t nr = 0;

	memset(variant, 0, sizeof(*variant));
	variant->from_mode = val->from_mode;
	variant->to_mode = val->to_mode;
	variant->going = val->going;
	variant->count = val->count ? val->count : 1;
	variant->first_ns = val->first_ns;
	variant->first_tid = val->first_tid;
	variant->stack_id = val->stack_id;
	memcpy(variant->comm, val->comm, SO_COMM_LEN - 1);
	for (uint32_t k = 0; k < SO_GATES_MAX; k++) {
		uint64_t gate = val->gates[k];
		uint32_t at = nr;

		if (!gate)
			continue;
		while (at > 0 && variant->gates[at - 1] > gate)
			at--;
		if (at > 0 && variant->gates[at - 1] == gate)
			continue;
		memmove(&variant->gates[at + 1], &variant->gates[at],
			(nr - at) * sizeof(variant->gates[0]));
		variant->gates[at] = gate;
		nr++;
	}
}

static bool og_variant_same_kind(const struct og_variant *a,
				 const struct og_variant *b)
{
	return a->from_mode == b->from_mode && a->to_mode == b->to_mode &&
	       a->going == b->going &&
	       !memcmp(a->gates, b->gates, sizeof(a->gates));
}

static uint32_t og_edge_insert(struct og_graph *graph,
			       const struct so_edge_key *key,
			       uint32_t from_node, uint32_t to_node)
{
	uint32_t i = graph->nr_edges++;
	struct og_edge *edge = &graph->edges[i];

	edge->from_class = key->from_class;
	edge->to_class = key->to_class;
	edge->from_node = from_node;
	edge->to_node = to_node;
	edge->next_out = graph->nodes[from_node].first_out;
	graph->nodes[from_node].first_out = i;
	edge->next_in = graph->nodes[to_node].first_in;
	graph->nodes[to_node].first_in = i;
	index_add(&graph->edge_index, graph->edges, i,
		  og_pair_hash(key->from_class, key->to_class));
	graph->stats.edges++;
	return i;
}

static int og_add_variant(struct og_graph *graph, uint32_t edge_index,
			  const struct og_variant *variant)
{
	struct og_edge *edge = &graph->edges[edge_index];

	for (uint32_t i = 0; i < edge->nr_variants; i++) {
		struct og_variant *known = &edge->variant[i];

		if (!og_variant_same_kind(known, variant))
			continue;
		if (variant->count > known->count)
			known->count = variant->count;
		return 0;
	}
	if (edge->nr_variants == OG_VARIANTS_MAX) {
		graph->stats.lost_variants++;
		return -ENOSPC;
	}
	edge->variant[edge->nr_variants++] = *variant;
	graph->stats.variants++;
	return 1;
}

int og_add_edge(struct og_graph *graph, const struct so_edge_key *key,
		const struct so_edge_val *val, const char *from_name,
		const char *to_name)
{
	uint32_t from_node, to_node, edge_index;
	struct og_variant variant;
	int ret;

	if (!graph || !key || !val || !key->from_class || !key->to_class)
		return -EINVAL;
	graph->stats.edge_events++;
	if (SO_CLASS_KIND(key->from_class) == SO_CLASS_MOD ||
	    SO_CLASS_KIND(key->to_class) == SO_CLASS_MOD) {
		graph->stats.gate_edges++;
		return 0;
	}
	if (key->from_class == key->to_class) {
		graph->stats.self_edges++;
		return 0;
	}
	from_node = og_node_get(graph, key->from_class, from_name);
	to_node = og_node_get(graph, key->to_class, to_name);
	if (from_node == OG_NIL || to_node == OG_NIL)
		return -ENOSPC;
	og_variant_from_val(&variant, val);

	edge_index = og_edge_find(graph, key->from_class, key->to_class);
	if (edge_index != OG_NIL) {
		ret = og_add_variant(graph, edge_index, &variant);
		return ret <= 0 ? ret : og_rejudge(graph, edge_index);
	}
	if (graph->nr_edges == graph->limits.max_edges) {
		graph->stats.lost_edges++;
		return -ENOSPC;
	}
	edge_index = og_edge_insert(graph, key, from_node, to_node);
	og_add_variant(graph, edge_index, &variant);
	/* Every cycle through a new edge is new: no room, no search. */
	if (graph->nr_cycles == graph->limits.max_cycles) {
		graph->stats.searches_cut++;
		return 0;
	}
	return og_search_cycles(graph, edge_index);
}

int og_add_edge_event(struct og_graph *graph,
		      const struct so_edge_event *edge_event)
{
	if (!edge_event || edge_event->ev.type != SO_EV_EDGE)
		return -EINVAL;
	return og_add_edge(graph, &edge_event->key, &edge_event->val,
			   edge_event->ev.name, edge_event->to_name);
}

/* --- read access ------------------------------------------------------ */

uint32_t og_edge_count(const struct og_graph *graph)
{
	return graph->nr_edges;
}

const struct og_edge *og_edge_at(const struct og_graph *graph,
				 uint32_t index)
{
	return index < graph->nr_edges ? &graph->edges[index] : NULL;
}

const struct og_edge *og_find_edge(const struct og_graph *graph,
				   uint64_t from_class, uint64_t to_class)
{
	uint32_t i = og_edge_find(graph, from_class, to_class);

	return i == OG_NIL ? NULL : &graph->edges[i];
}

const struct og_stats *og_get_stats(const struct og_graph *graph)
{
	return &graph->stats;
}
