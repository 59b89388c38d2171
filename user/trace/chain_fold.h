/* SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1 */
/*
 * The edges' counts from the kernel's chain cache.  The probes count an
 * attempt on its edges only when the chain table is full; otherwise on
 * its chain (struct so_chain_val), or in the memo of the task repeating
 * it (struct so_chain_memo).  An edge's count is then its own count,
 * plus the count of every chain it is an edge of, plus the memo hits
 * pending on those chains.  Fed the memos first, then the chains; asked
 * per edge.  The kernel's tables are untrusted: a chain claiming more
 * edges than a held set has is cut to SO_HELD_MAX.
 */
#ifndef SO_TRACE_CHAIN_FOLD_H
#define SO_TRACE_CHAIN_FOLD_H

#include <stdint.h>
#include "observe.h"
#include "lib/u64map.h"

struct chain_fold_edge {
	struct so_edge_key key;
	uint64_t count;		/* from chains and memos */
};

struct chain_fold {
	struct u64map pending_at;	/* chain key -> index in pending */
	uint64_t *pending;		/* memo hits by chain */
	size_t npending, pending_cap;
	struct u64map edge_at;		/* edge_key_hash -> index in edges */
	struct chain_fold_edge *edges;
	size_t nedges, edges_cap;
};

void chain_fold_init(struct chain_fold *f);
void chain_fold_fini(struct chain_fold *f);

/* A task's memo, counted if made in session generation `gen`.  0 or
 * -ENOMEM. */
int chain_fold_memo(struct chain_fold *f, const struct so_chain_memo *memo,
		    uint32_t gen);

/* A chain of the table, with the memos fed so far.  0 or -ENOMEM. */
int chain_fold_chain(struct chain_fold *f, uint64_t key,
		     const struct so_chain_val *chain);

/* What the chains add to the count of edge `key`. */
uint64_t chain_fold_count(const struct chain_fold *f,
			  const struct so_edge_key *key);

#endif /* SO_TRACE_CHAIN_FOLD_H */
