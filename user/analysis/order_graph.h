/* SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1 */
/*
 * The class graph of docs/design.md §3: one node per resource class, one edge
 * per ordered pair "held A, then acquired or waited for B", and the
 * cycles among them, found as each edge arrives.
 *
 * An edge of the graph keeps the *variants* it was seen in: the same class
 * pair taken in other modes, or with other gates held, is another way the
 * pair can happen.  The verdict needs them: rmmod's gated
 * config_mutex -> kn does not make the debugfs reset path's ungated
 * config_mutex -> kn safe.  (The BPF edge table keys on the class pair
 * only; the lead's side should emit an SO_EV_EDGE again whenever a pair
 * shows up with another (modes, gates, going) combination.)
 *
 * Module classes (SO_CLASS_MOD) are not nodes: try_module_get() never
 * waits (it fails once the module is GOING) and delete_module() never
 * waits for references (it fails with EWOULDBLOCK), so no task can be
 * stuck on a module.  They only enter the graph as gates on edges.
 *
 * Memory is bounded by struct og_limits; what does not fit is counted in
 * struct og_stats, never silently dropped.
 */
#ifndef SO_ANALYSIS_ORDER_GRAPH_H
#define SO_ANALYSIS_ORDER_GRAPH_H

#include <stdbool.h>
#include <stdint.h>

#include "observe.h"

#define OG_CYCLE_LEN_MAX	6	/* classes in the longest cycle */
#define OG_VARIANTS_MAX		4	/* (modes, gates, going) per edge */
#define OG_NIL			UINT32_MAX

/* How one sighting of an edge happened; the first one of its kind. */
struct og_variant {
	uint32_t from_mode;		/* enum so_hold_mode */
	uint32_t to_mode;
	uint64_t gates[SO_GATES_MAX];	/* sorted, 0 past the last */
	uint64_t going;			/* module class GOING, or 0 */
	uint64_t count;			/* as reported by the edge table */
	uint64_t first_ns;
	uint32_t first_tid;
	int32_t stack_id;
	char comm[SO_COMM_LEN];
};

struct og_edge {
	uint64_t from_class;
	uint64_t to_class;
	uint32_t from_node;		/* index in the class table */
	uint32_t to_node;
	uint32_t next_out;		/* next edge leaving from_node */
	uint32_t next_in;		/* next edge entering to_node */
	uint32_t hash_next;
	uint32_t nr_variants;
	struct og_variant variant[OG_VARIANTS_MAX];
};

enum og_verdict_kind {
	OG_VERDICT_NO_WAIT = 0,	/* the modes let nobody wait: not a deadlock */
	OG_VERDICT_GATED,	/* two edges exclude each other (gates.h) */
	OG_VERDICT_PRONE,	/* nothing keeps the edges apart */
};

/*
 * The verdict and its witness: which variant of each edge makes the
 * worst case, and for GATED which pair of edges excludes each other.
 */
struct og_verdict {
	enum og_verdict_kind kind;
	uint8_t variant[OG_CYCLE_LEN_MAX];	/* per cycle edge */
	uint8_t gate_holder;	/* GATED: cycle edge holding the reference */
	uint8_t gate_going;	/* GATED: cycle edge running while GOING */
	uint8_t no_wait_at;	/* NO_WAIT: cycle position that cannot wait */
	uint64_t gate_module;	/* GATED: the module class */
};

/*
 * An elementary cycle: edges[i] goes from classes[i] to classes[i + 1]
 * (the last back to classes[0]).  classes[0] is where the edge that
 * closed the cycle starts.
 */
struct og_cycle {
	uint32_t nr;
	uint64_t classes[OG_CYCLE_LEN_MAX];
	uint32_t edges[OG_CYCLE_LEN_MAX];
	uint64_t set_hash;	/* of the class set: the dedup key */
	uint32_t hash_next;
	uint64_t found_ns;	/* first_ns of the closing sighting */
	struct og_verdict verdict;
};

struct og_limits {
	uint32_t max_classes;
	uint32_t max_edges;
	uint32_t max_cycles;
	uint32_t max_cycle_len;		/* 2 .. OG_CYCLE_LEN_MAX */
	uint32_t search_budget;		/* search steps per new edge */
};

struct og_stats {
	uint64_t edge_events;	/* og_add_edge() calls */
	uint64_t edges;		/* distinct class pairs in the graph */
	uint64_t variants;
	uint64_t self_edges;	/* A -> A: recursion, never a cycle */
	uint64_t gate_edges;	/* touching a module class: a gate only */
	uint64_t cycles_no_wait;	/* found, but nobody can wait */
	uint64_t cycles_gated;
	uint64_t cycles_prone;
	uint64_t lost_classes;	/* class table full */
	uint64_t lost_edges;	/* edge table full */
	uint64_t lost_variants;	/* an edge's variants full */
	uint64_t lost_cycles;	/* cycle table full */
	uint64_t searches_cut;	/* budget spent, or no room: cycles missed */
};

struct og_graph;

/*
 * Called for each cycle found whose verdict is GATED or PRONE, and again
 * when a new variant makes a known cycle's verdict worse; `was` is the
 * verdict before (OG_VERDICT_NO_WAIT for a new cycle).
 */
typedef void (*og_cycle_cb)(void *ctx, const struct og_graph *graph,
			    const struct og_cycle *cycle,
			    enum og_verdict_kind was);

/*
 * Judges a cycle: GATED when two of its edges exclude each other, else
 * PRONE, and which edges say so (gates.c's gate_judge).  Handed in by
 * whoever builds the graph, so the graph knows no gate by name.
 */
typedef void (*og_judge_fn)(const struct og_graph *graph,
			    const struct og_cycle *cycle,
			    struct og_verdict *verdict);

/*
 * The limits of a graph fed from kernel tables of `table_entries` each
 * (--map-nr-entries; 0 for their compiled sizes): the defaults, raised
 * so that a full kernel edge or lock class table fits.  Tables larger
 * than the graph would lose in user space what the kernel kept.
 */
void og_limits_for_tables(struct og_limits *limits, uint32_t table_entries);
/* NULL limits: og_limits_for_tables(0).  NULL on a bad limit or no
 * memory. */
struct og_graph *og_new(const struct og_limits *limits);
void og_free(struct og_graph *graph);
void og_set_cycle_cb(struct og_graph *graph, og_cycle_cb cycle_cb,
		     void *ctx);
/* Without a judge every cycle is PRONE: nothing proved it gated. */
void og_set_judge(struct og_graph *graph, og_judge_fn judge);
/* Names a class no edge named (a lock known by its address), asked when
 * printing, so symbols that arrived later count; false: no name. */
typedef bool (*og_namer_fn)(void *ctx, uint64_t class_id, char *buf,
			    uint32_t len);
void og_set_namer(struct og_graph *graph, og_namer_fn namer, void *ctx);

/*
 * Add one sighting of an edge.  Names may be NULL or unterminated within
 * SO_NAME_LEN.  Returns the number of cycles found or made worse (the
 * callback ran that many times), or -ENOSPC when a table was full (the
 * loss is counted), or -EINVAL.
 */
int og_add_edge(struct og_graph *graph, const struct so_edge_key *key,
		const struct so_edge_val *val, const char *from_name,
		const char *to_name);
int og_add_edge_event(struct og_graph *graph,
		      const struct so_edge_event *edge_event);

/*
 * Name a class the edges do not name, such as a module seen in gates[]
 * (its name comes with SO_EV_MOD_GET).  0 or -ENOSPC.
 */
int og_name_class(struct og_graph *graph, uint64_t class_id,
		  const char *name);
/*
 * Name the class of module `module` ("test_sysfs") as "mod:test_sysfs",
 * hashing the name as the probes do (so_hash_name()).  Call it for the
 * --module filter and for each SO_EV_MOD_GET.  0, -EINVAL or -ENOSPC.
 */
int og_name_module(struct og_graph *graph, const char *module);
/* The class's name, or "<kind>@<hex id>" in `fallback` when unknown. */
const char *og_class_name(const struct og_graph *graph, uint64_t class_id,
			  char *fallback, uint32_t fallback_len);

uint32_t og_cycle_count(const struct og_graph *graph);
const struct og_cycle *og_cycle_at(const struct og_graph *graph,
				   uint32_t index);
const struct og_edge *og_edge_at(const struct og_graph *graph,
				 uint32_t index);
uint32_t og_edge_count(const struct og_graph *graph);
/* The edge from -> to, or NULL. */
const struct og_edge *og_find_edge(const struct og_graph *graph,
				   uint64_t from_class, uint64_t to_class);
const struct og_stats *og_get_stats(const struct og_graph *graph);

/*
 * Can a task asking for a class of `kind` in `request_mode` wait for a
 * task holding it in `held_mode`?  A kernfs drain waits for active
 * references; an active reference never waits (kernfs_get_active() fails
 * on a deactivated node) and two active references never exclude each
 * other.  Mutexes and rtnl always exclude.  Modules never wait.
 */
bool og_mode_blocks(uint32_t kind, uint32_t request_mode,
		    uint32_t held_mode);

/* The edge variant a verdict picked for cycle edge `pos`. */
const struct og_variant *og_cycle_variant(const struct og_graph *graph,
					  const struct og_cycle *cycle,
					  uint32_t pos);

#endif /* SO_ANALYSIS_ORDER_GRAPH_H */
