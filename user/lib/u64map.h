/* SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1 */
/*
 * A u64 -> u32 hash map (open addressing, linear probing).  Tables keyed
 * by class id, tid or stack id keep their entries in arrays of their own
 * and use this map only as the index, so entries never move under a
 * pointer the caller holds into the map.
 */
#ifndef SO_U64MAP_H
#define SO_U64MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct u64map {
	uint64_t *keys;
	uint32_t *vals;
	unsigned char *used;
	size_t cap;		/* a power of two, or 0 before the first put */
	size_t len;
};

void u64map_init(struct u64map *m);
void u64map_fini(struct u64map *m);
/* Returns 0, or -1 when memory runs out (the map is left as it was). */
int u64map_put(struct u64map *m, uint64_t key, uint32_t val);
bool u64map_get(const struct u64map *m, uint64_t key, uint32_t *val);
/* Removes key if present (backward-shift deletion keeps probes short). */
void u64map_del(struct u64map *m, uint64_t key);

#endif /* SO_U64MAP_H */
