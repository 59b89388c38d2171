// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#include <stdlib.h>
#include <string.h>
#include "trace/pipeline.h"
#include "trace/record.h"

void so_pipeline_init(struct so_pipeline *p)
{
	memset(p, 0, sizeof(*p));
	so_stacks_init(&p->stacks);
}

void so_pipeline_fini(struct so_pipeline *p)
{
	so_stacks_fini(&p->stacks);
}

int so_pipeline_add_stack(struct so_pipeline *p, int32_t id,
			  const uint64_t *addrs, uint32_t depth)
{
	return so_stacks_put(&p->stacks, id, addrs, depth);
}

/* The event's stack: cached, else fetched once (and recorded). */
static const struct so_stack *so_pipeline_stack(struct so_pipeline *p,
						int32_t id)
{
	uint64_t addrs[SO_STACK_DEPTH];
	const struct so_stack *stack;
	int depth;

	if (id < 0)
		return NULL;
	stack = so_stacks_get(&p->stacks, id);
	if (stack || !p->fetch_stack)
		return stack && stack->depth ? stack : NULL;
	depth = p->fetch_stack(p->fetch_ctx, id, addrs, SO_STACK_DEPTH);
	if (depth < 0)
		depth = 0;	/* remembered as missing: fetched once */
	if (so_stacks_put(&p->stacks, id, addrs, (uint32_t)depth))
		return NULL;
	stack = so_stacks_get(&p->stacks, id);
	if (stack && stack->depth && p->writer &&
	    tf_write_stack(p->writer, id, stack->addrs, stack->depth))
		p->nr_write_errors++;
	return stack && stack->depth ? stack : NULL;
}

int so_pipeline_feed(struct so_pipeline *p, const void *rec, size_t len)
{
	struct so_edge_event copy;
	const struct so_event *ev = &copy.ev;
	const struct so_stack *stack;

	p->nr_records++;
	if (so_record_check(rec, len, p->last_error, sizeof(p->last_error))) {
		p->nr_malformed++;
		return -1;
	}
	so_record_copy(&copy, rec, len);
	stack = so_pipeline_stack(p, ev->stack_id);
	if (p->names)
		so_names_observe(p->names, ev, stack);
	if (p->writer && tf_write_event(p->writer, &copy, len))
		p->nr_write_errors++;
	if (p->stats)
		so_stats_feed(p->stats, ev);
	if (p->stream)
		so_stream_event(p->stream, ev);
	if (p->on_event)
		p->on_event(p->analysis_ctx, ev, stack);
	if (ev->type == SO_EV_EDGE && p->on_edge)
		p->on_edge(p->analysis_ctx, &copy, stack);
	return 0;
}

static long so_write_ksym_once(struct so_pipeline *p, struct ksyms *ks,
			       struct u64map *written, uint64_t addr)
{
	const struct ksym *sym = ksyms_find(ks, addr);

	if (!sym || u64map_get(written, sym->addr, NULL))
		return 0;
	if (u64map_put(written, sym->addr, 0) ||
	    tf_write_ksym(p->writer, sym->addr, sym->size, sym->type,
			  sym->name, sym->module))
		return -1;
	return 1;
}

long so_pipeline_write_ksyms(struct so_pipeline *p, struct ksyms *ks)
{
	uint64_t *locks = NULL;
	struct u64map written;
	long n = 0, ret = 0;
	size_t i, nr_locks;
	uint32_t f;

	if (!p->writer || !ks)
		return 0;
	u64map_init(&written);
	for (i = 0; i < p->stacks.len && ret >= 0; i++)
		for (f = 0; f < p->stacks.stacks[i].depth && ret >= 0; f++) {
			ret = so_write_ksym_once(p, ks, &written,
						 p->stacks.stacks[i].addrs[f]);
			n += ret > 0;
		}
	nr_locks = p->names ? so_names_lock_addrs(p->names, NULL, 0) : 0;
	if (nr_locks) {
		locks = calloc(nr_locks, sizeof(*locks));
		if (!locks)
			ret = -1;
		else
			so_names_lock_addrs(p->names, locks, nr_locks);
	}
	for (i = 0; i < nr_locks && ret >= 0; i++) {
		ret = so_write_ksym_once(p, ks, &written, locks[i]);
		n += ret > 0;
	}
	free(locks);
	u64map_fini(&written);
	return ret < 0 ? -1 : n;
}
