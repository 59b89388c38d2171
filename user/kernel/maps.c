// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * What the probes left in their maps, read back by user space: the
 * per-CPU counters, summary mode's per-class counts, the task table
 * (mapped, and the hash behind it), the edge table.  Apart from the
 * lifecycle (loader.c) because these run all session long, on the
 * loaded object, and never change what is attached.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "kernel/loader_int.h"
#include "trace/chain_fold.h"
#include "observe.skel.h"

/* The value size is the array's element size only when a multiple of 8. */
_Static_assert(sizeof(struct so_task_state) % 8 == 0,
	       "task_slots elements are 8-byte aligned");

int loader_map_task_slots(struct so_loader *l)
{
	const struct bpf_map *map = l->skel->maps.task_slots;
	long page = sysconf(_SC_PAGESIZE);
	size_t len;
	void *p;

	if (bpf_map__value_size(map) != sizeof(struct so_task_state) ||
	    bpf_map__max_entries(map) != SO_TASK_SLOTS || page <= 0)
		return -EINVAL;
	len = (size_t)SO_TASK_SLOTS * sizeof(struct so_task_state);
	len = (len + page - 1) / page * page;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED,
		 bpf_map__fd(map), 0);
	if (p == MAP_FAILED)
		return -errno;
	l->task_slots = p;
	l->task_slots_len = len;
	return 0;
}

int loader_counters(struct so_loader *l, uint64_t out[SO_CNT_NR])
{
	int ncpu = libbpf_num_possible_cpus(), fd;
	__u64 *vals;
	__u32 k;

	memset(out, 0, SO_CNT_NR * sizeof(out[0]));
	if (ncpu <= 0 || !l->skel)
		return -EINVAL;
	vals = calloc(ncpu, sizeof(*vals));
	if (!vals)
		return -ENOMEM;
	fd = bpf_map__fd(l->skel->maps.counters);
	for (k = 0; k < SO_CNT_NR; k++) {
		if (bpf_map_lookup_elem(fd, &k, vals))
			continue;
		for (int c = 0; c < ncpu; c++)
			out[k] += vals[c];
	}
	free(vals);
	for (k = 0; k < SO_CALL_STRIPES; k++) {
		const struct so_call_stripe *st = &l->skel->bss->call_stripes[k];

		out[SO_CNT_MUTEX_CALLS] += st->mutex_calls;
		out[SO_CNT_KERNFS_WRITE] += st->kernfs_writes;
		out[SO_CNT_EVENTS] += st->events;
		out[SO_CNT_RB_DROPS] += st->rb_drops;
	}
	out[SO_CNT_CLASS_EVICTED] = loader_classes_evicted(l) -
				    l->classes_evicted_before;
	return 0;
}

/*
 * lock_classes keeps its classes across sessions, and an LRU table
 * makes room silently: every class learned beyond its size evicted one.
 * The common LRU may also evict a little earlier (free nodes sit in
 * per-CPU lists), so this is a lower bound.
 */
uint64_t loader_classes_evicted(const struct so_loader *l)
{
	uint64_t learned = l->skel->bss->classes_learned;
	uint64_t size = bpf_map__max_entries(l->skel->maps.lock_classes);

	return learned > size ? learned - size : 0;
}

/* Adds one CPU's counts to the sum. */
static void class_counts_add(struct so_class_counts *sum,
			     const struct so_class_counts *c)
{
	size_t b;

	if (c->writes) {
		if (!sum->writes || c->write_ns_min < sum->write_ns_min)
			sum->write_ns_min = c->write_ns_min;
		if (c->write_ns_max > sum->write_ns_max)
			sum->write_ns_max = c->write_ns_max;
	}
	if (c->holds) {
		if (!sum->holds || c->hold_ns_min < sum->hold_ns_min)
			sum->hold_ns_min = c->hold_ns_min;
		if (c->hold_ns_max > sum->hold_ns_max)
			sum->hold_ns_max = c->hold_ns_max;
	}
	sum->writes += c->writes;
	sum->write_bytes += c->write_bytes;
	sum->write_ns_total += c->write_ns_total;
	sum->holds += c->holds;
	sum->hold_ns_total += c->hold_ns_total;
	sum->kn_gets += c->kn_gets;
	sum->kn_puts += c->kn_puts;
	sum->mod_gets += c->mod_gets;
	sum->mod_puts += c->mod_puts;
	for (b = 0; b < SO_COUNTS_HIST; b++)
		sum->hold_hist[b] += c->hold_hist[b];
}

int loader_class_counts(struct so_loader *l, so_class_counts_fn fn,
			void *ctx)
{
	int ncpu = libbpf_num_possible_cpus(), fd, slots_fd, names_fd, c;
	struct so_class_counts *vals, sum;
	struct so_class_name name;
	__u64 key, *prev = NULL;
	int err = 0;
	__u32 slot;

	if (ncpu <= 0 || !l->skel)
		return -EINVAL;
	vals = calloc(ncpu, sizeof(*vals));
	if (!vals)
		return -ENOMEM;
	fd = bpf_map__fd(l->skel->maps.class_counts);
	slots_fd = bpf_map__fd(l->skel->maps.class_slots);
	names_fd = bpf_map__fd(l->skel->maps.class_names);
	/* Every class with a slot: its counts are in that slot. */
	while (!bpf_map_get_next_key(slots_fd, prev, &key)) {
		prev = &key;
		if (bpf_map_lookup_elem(slots_fd, &key, &slot) ||
		    bpf_map_lookup_elem(fd, &slot, vals)) {
			err = -errno;
			continue;
		}
		memset(&sum, 0, sizeof(sum));
		for (c = 0; c < ncpu; c++)
			class_counts_add(&sum, &vals[c]);
		if (bpf_map_lookup_elem(names_fd, &key, &name))
			memset(&name, 0, sizeof(name));
		name.name[SO_NAME_LEN - 1] = 0;
		fn(ctx, key, name.name, &sum);
	}
	free(vals);
	return err;
}

int64_t loader_nr_waiting(const struct so_loader *l)
{
	return l->skel && l->skel->bss ? l->skel->bss->nr_waiting : 0;
}

int loader_task_states(struct so_loader *l, so_task_state_fn fn, void *ctx)
{
	struct so_task_state ts;
	__u32 key, *prev = NULL, limit, i;
	int fd, err = 0;

	if (!l->skel || !l->task_slots)
		return -EINVAL;
	/*
	 * A slot changes under the scan: copy it, then judge the copy.
	 * Most slots are free: a look at tid first spares copying them
	 * (4096 slots of 1488 bytes, every 50 ms while a task waits).
	 */
	for (i = 0; i < SO_TASK_SLOTS; i++) {
		if (!__atomic_load_n(&l->task_slots[i].tid, __ATOMIC_RELAXED))
			continue;
		memcpy(&ts, &l->task_slots[i], sizeof(ts));
		if (ts.tid)
			fn(ctx, ts.tid, &ts);
	}
	fd = bpf_map__fd(l->skel->maps.tasks);
	/* A key deleted under the walk restarts it from the first: bound
	 * the walk by the table's size, twice over. */
	limit = 2 * bpf_map__max_entries(l->skel->maps.tasks);
	while (limit-- && !bpf_map_get_next_key(fd, prev, &key)) {
		prev = &key;
		/* Gone since: a task that exited. */
		if (bpf_map_lookup_elem(fd, &key, &ts)) {
			if (errno != ENOENT)
				err = -errno;
			continue;
		}
		fn(ctx, key, &ts);
	}
	return err;
}

static void class_name_of(int fd, __u64 class_id, struct so_class_name *out)
{
	if (bpf_map_lookup_elem(fd, &class_id, out))
		memset(out, 0, sizeof(*out));
	out->name[SO_NAME_LEN - 1] = 0;
}

struct memo_walk {
	struct chain_fold *fold;
	uint32_t gen;
	int err;
};

static void fold_memos(void *ctx, uint32_t tid, const struct so_task_state *ts)
{
	struct memo_walk *w = ctx;
	uint32_t i;

	(void)tid;
	for (i = 0; i < SO_HELD_MAX && !w->err; i++)
		w->err = chain_fold_memo(w->fold, &ts->memo[i], w->gen);
}

/*
 * What the chain cache counted for the edges (trace/chain_fold.h): the
 * tasks' memos, then the chains.  While tasks run, a memo flushed
 * between the two reads is counted twice or not at all; at the end of a
 * session they are still.
 */
static int fold_chains(struct so_loader *l, struct chain_fold *fold)
{
	struct memo_walk w = {
		.fold = fold,
		.gen = __atomic_load_n(&l->skel->bss->counts_gen,
				       __ATOMIC_SEQ_CST),
	};
	struct so_chain_val chain;
	__u64 key, *prev = NULL;
	int fd, err;
	__u32 limit;

	err = loader_task_states(l, fold_memos, &w);
	if (err || w.err)
		return err ? err : w.err;
	fd = bpf_map__fd(l->skel->maps.chains);
	limit = 2 * bpf_map__max_entries(l->skel->maps.chains);
	while (limit-- && !bpf_map_get_next_key(fd, prev, &key)) {
		prev = &key;
		if (bpf_map_lookup_elem(fd, &key, &chain))
			return -errno;
		err = chain_fold_chain(fold, key, &chain);
		if (err)
			return err;
	}
	return 0;
}

int loader_edges(struct so_loader *l, so_edge_entry_fn fn, void *ctx)
{
	struct so_class_name from, to;
	struct so_edge_key key, *prev = NULL;
	struct chain_fold fold;
	struct so_edge_val val;
	int fd, names_fd, err;
	__u32 limit;

	if (!l->skel)
		return -EINVAL;
	chain_fold_init(&fold);
	err = fold_chains(l, &fold);
	fd = bpf_map__fd(l->skel->maps.edges);
	names_fd = bpf_map__fd(l->skel->maps.class_names);
	/* Edges are never deleted while a session runs; bounded anyway. */
	limit = 2 * bpf_map__max_entries(l->skel->maps.edges);
	while (limit-- && !bpf_map_get_next_key(fd, prev, &key)) {
		prev = &key;
		if (bpf_map_lookup_elem(fd, &key, &val)) {
			err = -errno;
			continue;
		}
		val.count += chain_fold_count(&fold, &key);
		class_name_of(names_fd, key.from_class, &from);
		class_name_of(names_fd, key.to_class, &to);
		fn(ctx, &key, &val, from.name, to.name);
	}
	chain_fold_fini(&fold);
	return err;
}
