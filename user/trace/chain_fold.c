// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "lib/array.h"
#include "lib/edge_key.h"
#include "trace/chain_fold.h"

void chain_fold_init(struct chain_fold *f)
{
	memset(f, 0, sizeof(*f));
	u64map_init(&f->pending_at);
	u64map_init(&f->edge_at);
}

void chain_fold_fini(struct chain_fold *f)
{
	u64map_fini(&f->pending_at);
	u64map_fini(&f->edge_at);
	free(f->pending);
	free(f->edges);
	memset(f, 0, sizeof(*f));
}

int chain_fold_memo(struct chain_fold *f, const struct so_chain_memo *memo,
		    uint32_t gen)
{
	uint32_t at;

	if (!memo->key || !memo->hits || memo->gen != gen)
		return 0;
	if (u64map_get(&f->pending_at, memo->key, &at)) {
		f->pending[at] += memo->hits;
		return 0;
	}
	if (f->npending >= UINT32_MAX ||
	    array_reserve((void **)&f->pending, &f->pending_cap, f->npending,
			  sizeof(*f->pending)) ||
	    u64map_put(&f->pending_at, memo->key, (uint32_t)f->npending))
		return -ENOMEM;
	f->pending[f->npending++] = memo->hits;
	return 0;
}

static int add_edge(struct chain_fold *f, const struct so_edge_key *key,
		    uint64_t n)
{
	uint64_t h = edge_key_hash(key);
	uint32_t at;

	if (u64map_get(&f->edge_at, h, &at)) {
		f->edges[at].count += n;
		return 0;
	}
	if (f->nedges >= UINT32_MAX ||
	    array_reserve((void **)&f->edges, &f->edges_cap, f->nedges,
			  sizeof(*f->edges)) ||
	    u64map_put(&f->edge_at, h, (uint32_t)f->nedges))
		return -ENOMEM;
	f->edges[f->nedges].key = *key;
	f->edges[f->nedges++].count = n;
	return 0;
}

int chain_fold_chain(struct chain_fold *f, uint64_t key,
		     const struct so_chain_val *chain)
{
	struct so_edge_key edge = {
		.to_class = chain->to_class,
		.gate_ctx = chain->gate_ctx,
	};
	uint64_t n = chain->count;
	uint32_t i, nfrom, at;

	if (u64map_get(&f->pending_at, key, &at))
		n += f->pending[at];
	nfrom = chain->nfrom < SO_HELD_MAX ? chain->nfrom : SO_HELD_MAX;
	for (i = 0; n && i < nfrom; i++) {
		edge.from_class = chain->from[i];
		if (add_edge(f, &edge, n))
			return -ENOMEM;
	}
	return 0;
}

uint64_t chain_fold_count(const struct chain_fold *f,
			  const struct so_edge_key *key)
{
	uint32_t at;

	if (!u64map_get(&f->edge_at, edge_key_hash(key), &at) ||
	    memcmp(&f->edges[at].key, key, sizeof(*key)))
		return 0;
	return f->edges[at].count;
}
