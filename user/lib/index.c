// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/index.h"

int index_init(struct so_index *index, uint32_t entries, size_t stride,
	       size_t next_at)
{
	uint32_t size = 1;

	/* Twice the entries: chains stay short at the table's limit. */
	while (size < entries * 2)
		size <<= 1;
	index->stride = stride;
	index->next_at = next_at;
	index->mask = size - 1;
	index->bucket = malloc(size * sizeof(*index->bucket));
	if (!index->bucket)
		return -ENOMEM;
	memset(index->bucket, 0xff, size * sizeof(*index->bucket));
	return 0;
}

void index_fini(struct so_index *index)
{
	free(index->bucket);
	index->bucket = NULL;
}

static uint32_t *index_next(const struct so_index *index, void *entries,
			    uint32_t i)
{
	return (uint32_t *)((char *)entries + (size_t)i * index->stride +
			    index->next_at);
}

void index_add(struct so_index *index, void *entries, uint32_t i,
	       uint64_t key)
{
	uint32_t *head = &index->bucket[hash_mix64(key) & index->mask];

	*index_next(index, entries, i) = *head;
	*head = i;
}

void index_del(struct so_index *index, void *entries, uint32_t i,
	       uint64_t key)
{
	uint32_t *link = &index->bucket[hash_mix64(key) & index->mask];

	while (*link != i)
		link = index_next(index, entries, *link);
	*link = *index_next(index, entries, i);
}
