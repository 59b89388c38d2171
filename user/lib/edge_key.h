/* SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1 */
/*
 * An edge key (struct so_edge_key) in 64 bits, for the user-space tables
 * that index edges by it (the pipeline's recovered edges, the chain
 * fold's counts).  Two different keys that collide would share an entry,
 * at odds of 2^-64.
 */
#ifndef SO_LIB_EDGE_KEY_H
#define SO_LIB_EDGE_KEY_H

#include <stdint.h>
#include "observe.h"

/* splitmix64 steps over the three words. */
static inline uint64_t edge_key_hash(const struct so_edge_key *k)
{
	uint64_t h = 0x9e3779b97f4a7c15ULL, parts[3] = {
		k->from_class, k->to_class, k->gate_ctx,
	};
	size_t i;

	for (i = 0; i < 3; i++) {
		h ^= parts[i] + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
		h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ULL;
		h = (h ^ (h >> 27)) * 0x94d049bb133111ebULL;
		h ^= h >> 31;
	}
	return h;
}

#endif /* SO_LIB_EDGE_KEY_H */
