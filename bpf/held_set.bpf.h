/* SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1 */
/*
 * The held set of a task and the edges it implies: acquiring or starting
 * to wait for B while holding A counts A -> B once per class pair in the
 * edge table, and the first sight of a pair is sent to user space with
 * the gates (try_module_get references) the task held at that moment.
 * An attempt is counted on its chain (struct so_chain_val) once the
 * chain is known, and in the task's memo while it repeats one.
 */
#ifndef SO_HELD_SET_BPF_H
#define SO_HELD_SET_BPF_H

#include "state.bpf.h"

/* Module references are gates, not sources of edges. */
static __always_inline bool is_gate(__u64 class_id)
{
	return SO_CLASS_KIND(class_id) == SO_CLASS_MOD;
}

/* A module reference the task holds: a gate of the edges it makes. */
static __always_inline bool held_gate(const struct so_held_entry *h)
{
	return is_gate(h->class_id) && h->mode == SO_HOLD_READ;
}

/* Held entry h makes an edge to to_class: no gate, not the same class
 * (recursion or nesting, not an order). */
static __always_inline bool edge_source(const struct so_held_entry *h,
					__u64 to_class)
{
	return !is_gate(h->class_id) && h->class_id != to_class;
}

static __always_inline void fill_gates(struct so_task_state *ts,
				       struct so_edge_val *val)
{
	__u32 i, n = 0;

	for (i = 0; i < SO_GATES_MAX; i++)
		val->gates[i] = 0;
	for (i = 0; i < SO_HELD_MAX; i++) {
		if (i >= ts->nheld)
			break;
		if (!held_gate(&ts->held[i]))
			continue;
		if (n < SO_GATES_MAX)
			val->gates[n & (SO_GATES_MAX - 1)] =
				ts->held[i].class_id;
		n++;
	}
	val->going = ts->going;
}

/*
 * The edge key's gate_ctx: a digest of the gates fill_gates() would
 * record, read straight from the held set.  held_attempt() computes it
 * once for all the edges of one attempt; the value is only filled for
 * an edge not yet in the table.
 */
static __always_inline __u64 gate_digest(struct so_task_state *ts)
{
	__u64 d = ts->going * 31;
	__u32 i, n = 0;

	for (i = 0; i < SO_HELD_MAX; i++) {
		if (i >= ts->nheld || n >= SO_GATES_MAX)
			break;
		if (!held_gate(&ts->held[i]))
			continue;
		d ^= ts->held[i].class_id * (2 * n + 3);
		n++;
	}
	return d;
}

/*
 * Record from -> to_class and add `add` to its count: 1 for an attempt
 * counted edge by edge, 0 for one its chain counts (the edge is only
 * recorded, at its first sight).
 */
static __always_inline void record_edge(void *ctx, struct so_task_state *ts,
					struct so_held_entry *from, __u64 to_class,
					__u32 to_mode, const char *to_name,
					__u64 gate_ctx, __u64 add)
{
	struct so_edge_key key = {
		.from_class = from->class_id,
		.to_class = to_class,
		.gate_ctx = gate_ctx,
	};
	struct so_edge_val *val, *known;
	struct so_edge_event *ev;
	struct scratch *s;

	known = bpf_map_lookup_elem(&edges, &key);
	if (known) {
		if (add)
			__sync_fetch_and_add(&known->count, add);
		return;
	}
	s = get_scratch();
	if (!s)
		return;
	val = &s->edge_val;
	fill_gates(ts, val);
	val->count = add;
	val->first_ns = bpf_ktime_get_ns();
	val->first_tid = current_tid();
	val->stack_id = bpf_get_stackid(ctx, &stacks, 0);
	if (val->stack_id < 0)
		count(SO_CNT_STACK_FAIL);
	val->from_mode = from->mode;
	val->to_mode = to_mode;
	bpf_get_current_comm(val->comm, sizeof(val->comm));
	if (bpf_map_update_elem(&edges, &key, val, BPF_NOEXIST)) {
		/* Another CPU won the race, or the table is full. */
		if (!bpf_map_lookup_elem(&edges, &key))
			count(SO_CNT_EDGE_FULL);
		return;
	}
	/* The edge table is the truth user space reconciles with when a
	 * record below is lost: it needs the classes' names as well. */
	bpf_map_update_elem(&class_names, &key.from_class, from->name,
			    BPF_NOEXIST);
	bpf_map_update_elem(&class_names, &key.to_class, to_name,
			    BPF_NOEXIST);

	if (paused)
		return;
	ev = bpf_ringbuf_reserve(&events, sizeof(*ev), 0);
	if (!ev) {
		stripe_count(val->first_tid, rb_drops);
		return;
	}
	ev->ev.ts_ns = val->first_ns;
	ev->ev.type = SO_EV_EDGE;
	ev->ev.cpu = bpf_get_smp_processor_id();
	ev->ev.pid = current_tgid();
	ev->ev.tid = val->first_tid;
	comm_copy(ev->ev.comm, val->comm);
	ev->ev.obj = from->obj;
	ev->ev.class_id = to_class;
	ev->ev.arg = 0;
	ev->ev.ret = 0;
	ev->ev.stack_id = val->stack_id;
	ev->ev.flags = ts->going ? SO_EVF_GOING : 0;
	name_copy(ev->ev.name, from->name);
	ev->key = key;
	ev->val = *val;
	ev->val.count = 1;	/* this sight: the table may count it elsewhere */
	name_copy(ev->to_name, to_name);
	event_submit(&ev->ev, sizeof(*ev));
}

static __always_inline __u64 chain_mix(__u64 h, __u64 v)
{
	h = (h ^ v) * 0x9e3779b97f4a7c15ULL;
	return h ^ (h >> 29);
}

/* Add the memo's attempts to its chain's count. */
static __always_inline void chain_flush(struct so_chain_memo *memo)
{
	struct so_chain_val *chain;

	if (!memo->hits || memo->gen != counts_gen)
		return;
	chain = bpf_map_lookup_elem(&chains, &memo->key);
	if (chain)
		__sync_fetch_and_add(&chain->count, memo->hits);
	memo->hits = 0;
}

/* The task exits: what its memos hold goes to the chains. */
static __always_inline void chain_flush_all(struct so_task_state *ts)
{
	__u32 i;

	for (i = 0; i < SO_HELD_MAX; i++)
		chain_flush(&ts->memo[i]);
}

enum chain_seen {
	CHAIN_KNOWN,	/* in the table: its edges are recorded */
	CHAIN_NEW,	/* just added: record its edges, count none */
	CHAIN_FULL,	/* no room: count the edges one by one */
};

/* Look the chain `key` up, and add it if it is new. */
static __always_inline enum chain_seen chain_learn(struct so_task_state *ts,
						   __u64 key, __u64 to_class,
						   __u64 gate_ctx)
{
	struct so_chain_val *c;
	struct scratch *s;
	__u32 i, n = 0;

	if (bpf_map_lookup_elem(&chains, &key))
		return CHAIN_KNOWN;
	s = get_scratch();
	if (!s)
		return CHAIN_FULL;
	c = &s->chain_val;
	c->count = 0;
	c->to_class = to_class;
	c->gate_ctx = gate_ctx;
	for (i = 0; i < SO_HELD_MAX; i++) {
		c->from[i] = 0;
		if (i >= ts->nheld)
			continue;
		if (!edge_source(&ts->held[i], to_class))
			continue;
		c->from[n & (SO_HELD_MAX - 1)] = ts->held[i].class_id;
		n++;
	}
	c->nfrom = n;
	c->pad = 0;
	if (!bpf_map_update_elem(&chains, &key, c, BPF_NOEXIST))
		return CHAIN_NEW;
	/* Another CPU added it first (it records the edges), or full. */
	if (bpf_map_lookup_elem(&chains, &key))
		return CHAIN_KNOWN;
	count(SO_CNT_CHAIN_FULL);
	return CHAIN_FULL;
}

/*
 * The task is about to acquire, or wait for, `class_id`.  Each class it
 * holds (but gates and class_id itself) makes an edge to it.  The common
 * case, the same chain as its last attempt at this depth, costs a hash
 * of the held set and one increment: no helper call, no atomic.
 */
static __always_inline void held_attempt(void *ctx, struct so_task_state *ts,
					 __u64 class_id, __u32 mode,
					 const char *name)
{
	struct so_chain_memo *memo;
	__u64 key = class_id, gate_ctx, add;
	enum chain_seen seen;
	__u32 i, nfrom = 0;

	if (is_gate(class_id))
		return;
	for (i = 0; i < SO_HELD_MAX; i++) {
		if (i >= ts->nheld)
			break;
		key = chain_mix(chain_mix(key, ts->held[i].class_id),
				ts->held[i].mode);
		if (edge_source(&ts->held[i], class_id))
			nfrom++;
	}
	if (!nfrom)
		return;
	key = chain_mix(key, ts->going) | 1;	/* 0: an empty memo */
	memo = &ts->memo[(ts->nheld - 1) & (SO_HELD_MAX - 1)];
	if (memo->key == key && memo->gen == counts_gen) {
		if (++memo->hits == ~0U)
			chain_flush(memo);
		return;
	}
	chain_flush(memo);
	gate_ctx = gate_digest(ts);
	seen = chain_learn(ts, key, class_id, gate_ctx);
	if (seen == CHAIN_FULL) {
		memo->key = 0;
		add = 1;
	} else {
		memo->key = key;
		memo->gen = counts_gen;
		memo->hits = 1;
		if (seen == CHAIN_KNOWN)
			return;
		add = 0;
	}
	for (i = 0; i < SO_HELD_MAX; i++) {
		if (i >= ts->nheld)
			break;
		if (!edge_source(&ts->held[i], class_id))
			continue;
		record_edge(ctx, ts, &ts->held[i], class_id, mode, name,
			    gate_ctx, add);
	}
}

/* Held from `now` on (the caller's one clock read). */
static __always_inline void held_push(struct so_task_state *ts, __u64 class_id,
				      __u64 obj, __u32 mode, const char *name,
				      __u32 slot, __u64 now)
{
	__u32 n = ts->nheld;
	struct so_held_entry *h;

	if (n >= SO_HELD_MAX) {
		count(SO_CNT_HELD_FULL);
		return;
	}
	h = &ts->held[n & (SO_HELD_MAX - 1)];
	h->class_id = class_id;
	h->obj = obj;
	h->ts = now;
	h->mode = mode;
	h->slot = slot;
	name_copy(h->name, name);
	ts->nheld = n + 1;
}

/* The newest entry for `obj` (or, with obj 0, for class_id), or -1. */
static __always_inline int held_find(struct so_task_state *ts, __u64 class_id,
				     __u64 obj)
{
	int found = -1;
	__u32 i;

	for (i = 0; i < SO_HELD_MAX; i++) {
		if (i >= ts->nheld)
			break;
		if (obj ? ts->held[i].obj == obj :
			  ts->held[i].class_id == class_id)
			found = i;
	}
	return found;
}

/*
 * Release entry `found` (from held_find) at `now` and return how long it
 * was held, at least 1.  Entries above it move down one slot.
 */
static __always_inline __u64 held_remove(struct so_task_state *ts, int found,
					 __u64 now)
{
	__u64 held_ns;
	__u32 i;

	held_ns = now - ts->held[found & (SO_HELD_MAX - 1)].ts;
	for (i = 0; i < SO_HELD_MAX - 1; i++) {
		if (i < (__u32)found)
			continue;
		if (i + 1 >= ts->nheld)
			break;
		ts->held[i] = ts->held[i + 1];
	}
	ts->nheld--;
	return held_ns ? held_ns : 1;
}

/*
 * Summary mode: the counts of entry `found`'s class, where its release is
 * counted instead of sent; NULL when every release is sent (not summary
 * mode, or no counts yet: the first of its class is an event, which
 * names the class).  Call before held_remove().
 */
static __always_inline struct so_class_counts *
held_counts(struct so_task_state *ts, int found)
{
	struct so_held_entry *h = &ts->held[found & (SO_HELD_MAX - 1)];
	__u32 *slot;

	if (!aggregate)
		return NULL;
	if (h->slot)	/* known at the push: no hash look-up */
		return slot_counts(h->slot);
	slot = bpf_map_lookup_elem(&class_slots, &h->class_id);
	return slot ? slot_counts(*slot) : NULL;
}

#endif /* SO_HELD_SET_BPF_H */
