/* SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1 */
/*
 * The index of a fixed-capacity table: an array of bucket heads, each
 * the first entry of a chain that runs through a uint32_t `next` field
 * of the caller's own entries (SO_INDEX_NIL ends it).  Apart from
 * u64map because the analysis' tables (classes, edges, cycles, tasks)
 * are allocated once at their limit and must not move or grow: the
 * index then costs one word per bucket and never fails after init.
 *
 * The caller compares keys itself while it walks a chain, so entries
 * may be keyed by anything that hashes to a u64 (a class pair, a set).
 */
#ifndef SO_LIB_INDEX_H
#define SO_LIB_INDEX_H

#include <stddef.h>
#include <stdint.h>

#include "lib/hash.h"

#define SO_INDEX_NIL	UINT32_MAX

struct so_index {
	uint32_t *bucket;
	uint32_t mask;
	size_t stride;		/* sizeof one entry of the caller's array */
	size_t next_at;		/* offsetof its uint32_t chain field */
};

/*
 * Room for `entries` entries of the array whose elements are `stride`
 * bytes with the chain field at `next_at`: SO_INDEX_INIT() says it by
 * type and member.  0, or -ENOMEM (then index_fini() is still safe).
 */
int index_init(struct so_index *index, uint32_t entries, size_t stride,
	       size_t next_at);
#define SO_INDEX_INIT(index, entries, type, member)			\
	index_init(index, entries, sizeof(type), offsetof(type, member))
void index_fini(struct so_index *index);

/* The head of the chain `key` hashes to: walk on through `next`. */
static inline uint32_t index_first(const struct so_index *index,
				   uint64_t key)
{
	return index->bucket[hash_mix64(key) & index->mask];
}

/* Entry i of `entries` goes to the head of key's chain. */
void index_add(struct so_index *index, void *entries, uint32_t i,
	       uint64_t key);
/* Entry i, added under `key`, leaves its chain (which must hold it). */
void index_del(struct so_index *index, void *entries, uint32_t i,
	       uint64_t key);

#endif /* SO_LIB_INDEX_H */
