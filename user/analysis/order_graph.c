// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * Incremental cycle search: a new edge u -> v closes a cycle for every
 * simple path v ~> u.  A bounded breadth-first walk backwards from u
 * first gives each class its distance to u, so the depth-first walk from
 * v only follows classes that can still get back to u within the length
 * bound.  Nothing is searched for a new variant of a known edge: the
 * cycles through it are already known and only their verdict can change.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/order_graph.h"
#include "lib/index.h"
#include "trace/names.h"

/* Chains end where the graph's lists do. */
_Static_assert(OG_NIL == SO_INDEX_NIL, "one end marker");

#define OG_DEFAULT_CLASSES	4096
#define OG_DEFAULT_EDGES	16384
#define OG_DEFAULT_CYCLES	1024
#define OG_DEFAULT_BUDGET	65536

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

struct og_search {
	uint32_t from_node;		/* u: the new edge's start */
	uint32_t edge;			/* the new edge */
	uint32_t path_node[OG_CYCLE_LEN_MAX];
	uint32_t path_edge[OG_CYCLE_LEN_MAX];
	uint32_t budget;
	int found;
	bool cut;
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

static bool og_limits_valid(const struct og_limits *limits)
{
	return limits->max_classes && limits->max_edges &&
	       limits->max_cycles && limits->max_cycle_len >= 2 &&
	       limits->max_cycle_len <= OG_CYCLE_LEN_MAX &&
	       limits->max_classes < (1U << 30) &&
	       limits->max_edges < (1U << 30) &&
	       limits->max_cycles < (1U << 30);
}

struct og_graph *og_new(const struct og_limits *limits)
{
	static const struct og_limits defaults = {
		.max_classes = OG_DEFAULT_CLASSES,
		.max_edges = OG_DEFAULT_EDGES,
		.max_cycles = OG_DEFAULT_CYCLES,
		.max_cycle_len = OG_CYCLE_LEN_MAX,
		.search_budget = OG_DEFAULT_BUDGET,
	};
	struct og_graph *graph;

	if (!limits)
		limits = &defaults;
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
	so_index_fini(&graph->node_index);
	so_index_fini(&graph->edge_index);
	so_index_fini(&graph->cycle_index);
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

void og_set_namer(struct og_graph *graph, og_namer_fn namer, void *ctx)
{
	graph->namer = namer;
	graph->namer_ctx = ctx;
}

/* --- classes ---------------------------------------------------------- */

static uint32_t og_node_find(const struct og_graph *graph, uint64_t id)
{
	uint32_t i = so_index_first(&graph->node_index, id);

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

/* The node of class `id`, added if new; OG_NIL when the table is full. */
static uint32_t og_node_get(struct og_graph *graph, uint64_t id,
			    const char *name)
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
		so_index_add(&graph->node_index, graph->nodes, i, id);
	}
	og_node_set_name(&graph->nodes[i], name);
	return i;
}

int og_name_class(struct og_graph *graph, uint64_t class_id,
		  const char *name)
{
	if (!class_id)
		return -EINVAL;
	return og_node_get(graph, class_id, name) == OG_NIL ? -ENOSPC : 0;
}

int og_name_module(struct og_graph *graph, const char *module)
{
	char name[SO_NAME_LEN];

	if (!module || !module[0])
		return -EINVAL;
	snprintf(name, sizeof(name), "mod:%.*s", SO_NAME_LEN - 5, module);
	return og_name_class(graph,
			     SO_CLASS_MAKE(SO_CLASS_MOD,
					   so_hash_name(module, SO_NAME_LEN)),
			     name);
}

static const char *og_kind_name(uint32_t kind)
{
	switch (kind) {
	case SO_CLASS_KN:
		return "kn";
	case SO_CLASS_MUTEX:
		return "mutex";
	case SO_CLASS_LOCK:
		return "lock";
	case SO_CLASS_RTNL:
		return "rtnl";
	case SO_CLASS_MOD:
		return "mod";
	default:
		return "class";
	}
}

const char *og_class_name(const struct og_graph *graph, uint64_t class_id,
			  char *fallback, uint32_t fallback_len)
{
	uint32_t i = og_node_find(graph, class_id);

	if (i != OG_NIL && graph->nodes[i].name[0])
		return graph->nodes[i].name;
	if (graph->namer &&
	    graph->namer(graph->namer_ctx, class_id, fallback, fallback_len))
		return fallback;
	snprintf(fallback, fallback_len, "%s#%04x",
		 og_kind_name(SO_CLASS_KIND(class_id)),
		 so_addr_handle(class_id));
	return fallback;
}

/* --- edges and variants ----------------------------------------------- */

static uint64_t og_pair_hash(uint64_t from, uint64_t to)
{
	return so_mix64(from) ^ (to * 0x9e3779b97f4a7c15ULL);
}

static uint32_t og_edge_find(const struct og_graph *graph, uint64_t from,
			     uint64_t to)
{
	uint32_t i = so_index_first(&graph->edge_index, og_pair_hash(from, to));

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
	so_index_add(&graph->edge_index, graph->edges, i,
		     og_pair_hash(key->from_class, key->to_class));
	graph->stats.edges++;
	return i;
}

/* --- cycles ----------------------------------------------------------- */

static uint64_t og_set_hash(const uint64_t *classes, uint32_t nr)
{
	uint64_t hash = nr;

	/* A sum, so that every rotation and order hashes alike. */
	for (uint32_t i = 0; i < nr; i++)
		hash += so_mix64(classes[i]);
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
static int og_cycle_add(struct og_graph *graph, struct og_cycle *candidate)
{
	struct og_cycle *cycle;
	enum og_verdict_kind was;

	for (uint32_t i = so_index_first(&graph->cycle_index,
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
	so_index_add(&graph->cycle_index, graph->cycles, graph->nr_cycles++,
		     cycle->set_hash);
	return og_cycle_judged(graph, cycle, OG_VERDICT_NO_WAIT, true);
}

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
	candidate.set_hash = og_set_hash(candidate.classes, nr);
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

static int og_search_cycles(struct og_graph *graph, uint32_t edge_index)
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

/* A new variant of a known edge: the cycles through it may judge worse. */
static int og_rejudge(struct og_graph *graph, uint32_t edge_index)
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

uint32_t og_cycle_count(const struct og_graph *graph)
{
	return graph->nr_cycles;
}

const struct og_cycle *og_cycle_at(const struct og_graph *graph,
				   uint32_t index)
{
	return index < graph->nr_cycles ? &graph->cycles[index] : NULL;
}

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
