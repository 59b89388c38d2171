// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#include <stdlib.h>
#include "lib/hash.h"
#include "lib/u64map.h"

/* Class ids are hashes already, but tids and stack ids are small and
 * dense: mix them so linear probing does not cluster. */
static size_t u64map_slot(const struct u64map *m, uint64_t key)
{
	return (size_t)hash_mix64(key) & (m->cap - 1);
}

void u64map_init(struct u64map *m)
{
	m->keys = NULL;
	m->vals = NULL;
	m->used = NULL;
	m->cap = 0;
	m->len = 0;
}

void u64map_fini(struct u64map *m)
{
	free(m->keys);
	free(m->vals);
	free(m->used);
	u64map_init(m);
}

static int u64map_grow(struct u64map *m)
{
	struct u64map bigger;
	size_t i;

	bigger.cap = m->cap ? m->cap * 2 : 64;
	bigger.len = 0;
	bigger.keys = calloc(bigger.cap, sizeof(*bigger.keys));
	bigger.vals = calloc(bigger.cap, sizeof(*bigger.vals));
	bigger.used = calloc(bigger.cap, 1);
	if (!bigger.keys || !bigger.vals || !bigger.used) {
		u64map_fini(&bigger);
		return -1;
	}
	for (i = 0; i < m->cap; i++)
		if (m->used[i])
			u64map_put(&bigger, m->keys[i], m->vals[i]);
	u64map_fini(m);
	*m = bigger;
	return 0;
}

int u64map_put(struct u64map *m, uint64_t key, uint32_t val)
{
	size_t i;

	if ((m->len + 1) * 4 > m->cap * 3 && u64map_grow(m))
		return -1;
	for (i = u64map_slot(m, key); m->used[i]; i = (i + 1) & (m->cap - 1)) {
		if (m->keys[i] == key) {
			m->vals[i] = val;
			return 0;
		}
	}
	m->used[i] = 1;
	m->keys[i] = key;
	m->vals[i] = val;
	m->len++;
	return 0;
}

bool u64map_get(const struct u64map *m, uint64_t key, uint32_t *val)
{
	size_t i;

	if (!m->cap)
		return false;
	for (i = u64map_slot(m, key); m->used[i]; i = (i + 1) & (m->cap - 1)) {
		if (m->keys[i] == key) {
			if (val)
				*val = m->vals[i];
			return true;
		}
	}
	return false;
}

void u64map_del(struct u64map *m, uint64_t key)
{
	size_t i, j, home;

	if (!m->cap)
		return;
	for (i = u64map_slot(m, key); m->used[i]; i = (i + 1) & (m->cap - 1))
		if (m->keys[i] == key)
			break;
	if (!m->used[i])
		return;
	m->used[i] = 0;
	m->len--;
	/* Shift later members of the run back so lookups still find them. */
	for (j = (i + 1) & (m->cap - 1); m->used[j]; j = (j + 1) & (m->cap - 1)) {
		home = u64map_slot(m, m->keys[j]);
		if ((j > i && (home <= i || home > j)) ||
		    (j < i && (home <= i && home > j))) {
			m->keys[i] = m->keys[j];
			m->vals[i] = m->vals[j];
			m->used[i] = 1;
			m->used[j] = 0;
			i = j;
		}
	}
}
