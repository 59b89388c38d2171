// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "app/pipeline.h"
#include "lib/edge_key.h"
#include "trace/record.h"

void pipeline_init(struct so_pipeline *p)
{
	memset(p, 0, sizeof(*p));
	stacks_init(&p->stacks);
	u64map_init(&p->edge_keys);
}

void pipeline_fini(struct so_pipeline *p)
{
	stacks_fini(&p->stacks);
	u64map_fini(&p->edge_keys);
}

/* The record the probes would have sent for the table's entry. */
static void pipeline_edge_record(struct so_edge_event *e,
				 const struct so_edge_key *key,
				 const struct so_edge_val *val,
				 const char *from_name, const char *to_name)
{
	memset(e, 0, sizeof(*e));
	e->ev.ts_ns = val->first_ns;
	e->ev.type = SO_EV_EDGE;
	e->ev.pid = val->first_tid;	/* the table keeps no tgid */
	e->ev.tid = val->first_tid;
	memcpy(e->ev.comm, val->comm, SO_COMM_LEN);
	e->ev.comm[SO_COMM_LEN - 1] = 0;
	e->ev.class_id = key->to_class;
	e->ev.stack_id = val->stack_id;
	e->ev.flags = val->going ? SO_EVF_GOING : 0;
	snprintf(e->ev.name, sizeof(e->ev.name), "%s", from_name ? from_name : "");
	e->key = *key;
	e->val = *val;
	snprintf(e->to_name, sizeof(e->to_name), "%s", to_name ? to_name : "");
}

int pipeline_recover_edge(struct so_pipeline *p,
			  const struct so_edge_key *key,
			  const struct so_edge_val *val,
			  const char *from_name, const char *to_name)
{
	struct so_edge_event e;

	if (u64map_get(&p->edge_keys, edge_key_hash(key), NULL))
		return 0;
	pipeline_edge_record(&e, key, val, from_name, to_name);
	if (pipeline_feed(p, &e, sizeof(e)))
		return -1;
	p->nr_edges_recovered++;
	return 1;
}

int pipeline_edge_count(struct so_pipeline *p, const struct so_edge_key *key,
			const struct so_edge_val *val, const char *from_name,
			const char *to_name)
{
	struct so_edge_event e;

	if (val->count <= 1 ||
	    !u64map_get(&p->edge_keys, edge_key_hash(key), NULL))
		return 0;
	pipeline_edge_record(&e, key, val, from_name, to_name);
	e.ev.flags |= SO_EVF_COUNT;
	return pipeline_feed(p, &e, sizeof(e)) ? -1 : 1;
}

int pipeline_add_stack(struct so_pipeline *p, int32_t id,
		       const uint64_t *addrs, uint32_t depth)
{
	return stacks_put(&p->stacks, id, addrs, depth);
}

/* The event's stack: cached, else fetched once (and recorded). */
const struct so_stack *pipeline_get_stack(struct so_pipeline *p,
					  int32_t id)
{
	uint64_t addrs[SO_STACK_DEPTH];
	const struct so_stack *stack;
	int depth;

	if (id < 0)
		return NULL;
	stack = stacks_get(&p->stacks, id);
	if (stack || !p->fetch_stack)
		return stack && stack->depth ? stack : NULL;
	depth = p->fetch_stack(p->fetch_ctx, id, addrs, SO_STACK_DEPTH);
	if (depth < 0)
		depth = 0;	/* remembered as missing: fetched once */
	if (stacks_put(&p->stacks, id, addrs, (uint32_t)depth))
		return NULL;
	stack = stacks_get(&p->stacks, id);
	if (stack && stack->depth && p->writer &&
	    tf_write_stack(p->writer, id, stack->addrs, stack->depth))
		p->nr_write_errors++;
	return stack && stack->depth ? stack : NULL;
}

int pipeline_feed(struct so_pipeline *p, const void *rec, size_t len)
{
	struct so_edge_event copy;
	const struct so_event *ev = &copy.ev;
	const struct so_stack *stack;
	bool count_only;

	p->nr_records++;
	if (record_check(rec, len, p->last_error, sizeof(p->last_error))) {
		p->nr_malformed++;
		return -1;
	}
	record_copy(&copy, rec, len);
	/* An edge's count at the end (pipeline_edge_count): it was shown,
	 * counted and analysed as it came; only its count is news. */
	count_only = ev->type == SO_EV_EDGE && (ev->flags & SO_EVF_COUNT);
	if (ev->type == SO_EV_EDGE &&
	    u64map_put(&p->edge_keys, edge_key_hash(&copy.key), 0))
		p->nr_edge_keys_nomem++;
	stack = pipeline_get_stack(p, ev->stack_id);
	if (p->names)
		names_observe(p->names, ev, stack);
	if (p->writer && tf_write_event(p->writer, &copy, len))
		p->nr_write_errors++;
	if (p->stats && !count_only)
		stats_feed(p->stats, ev);
	if (p->stream && !count_only)
		stream_event(p->stream, ev);
	if (p->on_event && !count_only)
		p->on_event(p->analysis_ctx, ev, stack);
	if (ev->type == SO_EV_EDGE && p->on_edge)
		p->on_edge(p->analysis_ctx, &copy, stack);
	return 0;
}

static long pipeline_write_ksym_once(struct so_pipeline *p, struct ksyms *ks,
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

long pipeline_write_ksyms(struct so_pipeline *p, struct ksyms *ks)
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
			uint64_t addr = p->stacks.stacks[i].addrs[f];

			ret = pipeline_write_ksym_once(p, ks, &written, addr);
			n += ret > 0;
		}
	nr_locks = p->names ? names_lock_addrs(p->names, NULL, 0) : 0;
	if (nr_locks) {
		locks = calloc(nr_locks, sizeof(*locks));
		if (!locks)
			ret = -1;
		else
			names_lock_addrs(p->names, locks, nr_locks);
	}
	for (i = 0; i < nr_locks && ret >= 0; i++) {
		ret = pipeline_write_ksym_once(p, ks, &written, locks[i]);
		n += ret > 0;
	}
	free(locks);
	u64map_fini(&written);
	return ret < 0 ? -1 : n;
}
