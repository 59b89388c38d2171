/* SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1 */
/*
 * Maps and per-task state shared by every probe: the held set, observed
 * contexts, the edge table, counters, the ring buffer.
 */
#ifndef SO_STATE_BPF_H
#define SO_STATE_BPF_H

#include "observe.h"

/* Knobs set by the loader before load(). */
const volatile __u32 self_tgid;		/* never observe the loader */
const volatile __u64 rtnl_mutex_addr;	/* from kallsyms, 0 if unknown */
const volatile __u64 module_mutex_addr;
/* The kernfs knobs' state and completion (kallsyms), 0 elsewhere. */
const volatile __u64 knob_config_addr;
const volatile __u64 knob_completion_addr;
const volatile bool observe_all;	/* every task is in context */
const volatile bool emit_events = true;	/* stream, not only edges */
/* Summary mode: count successful writes in class_counts, send no event. */
const volatile bool count_writes;
const volatile __u64 filter_mod_class;	/* only this module's refs, 0 all */
/* --path: only kernfs nodes whose "<parent>/<name>" starts with this. */
const volatile char filter_path[32];
const volatile __u32 filter_path_len;

/* Set by the loader when the session ends: no new events, so the counters
 * it then reads match what the ring buffer delivers. */
volatile bool paused;

/*
 * When kernfs_debug_wait_completion was last completed, by anyone: a
 * writer's wake tells completion from timeout by it.
 */
volatile __u64 knob_completed_ns;

/*
 * How many entries `tasks` and `watch_tgids` hold.  While both are 0 (and
 * observe_all is off) no task can be in an observed context, so every
 * global probe (mutex_lock and friends on every CPU of the system) returns
 * after reading these two words instead of doing hash look-ups.  Whoever
 * inserts an entry adds one, whoever deletes it (BPF, or user space through
 * the mmapped .bss when a session is reset) subtracts one: the count is
 * exact, and a task always sees its own insertion.
 */
volatile __u64 nr_tasks;
volatile __u64 nr_watched;

struct held_entry {
	__u64 class_id;
	__u64 obj;
	__u64 ts;
	__u32 mode;
	__u32 pad;
	char name[SO_NAME_LEN];
};

struct task_state {
	__u32 depth;		/* nesting of observed contexts */
	__u32 nheld;
	__u32 reads;		/* ... of which sysfs reads (see on_read_entry) */
	__u32 pad;
	__u64 deleting;		/* module class this task is deleting */
	__u64 going;		/* ... and it is GOING now */
	/* kretprobe stashes: what the entry saw, for the return */
	__u64 stash_obj;
	__u64 stash_ts;
	__u64 lock_attempt_ts;	/* mutex/rtnl attempt, for wait time */
	__u64 contending;	/* mutex in contention_begin, 0 none */
	__u64 write_kn;		/* the kernfs node being written */
	__u64 write_class;	/* ... and its class */
	__u64 write_ts, drain_ts, gendisk_ts, misc_ts, load_ts, knob_ts;
	struct held_entry held[SO_HELD_MAX];
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);
	__type(key, __u32);		/* tid */
	__type(value, struct task_state);
} tasks SEC(".maps");

/* Processes the runner started or --pid named: always in context. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 8192);	/* 0016 forks 1000 writers */
	__type(key, __u32);		/* tgid */
	__type(value, __u8);
} watch_tgids SEC(".maps");

struct lock_class {
	__u64 class_id;
	char name[SO_NAME_LEN];
};

/* Lock address -> class, learned from __mutex_init. */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 16384);
	__type(key, __u64);
	__type(value, struct lock_class);
} lock_classes SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 8192);
	__type(key, struct so_edge_key);
	__type(value, struct so_edge_val);
} edges SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, 4096);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, 32 * sizeof(__u64));
} stacks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4 << 20);
} events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, 1024);
	__type(key, __u64);		/* class id */
	__type(value, struct so_class_counts);
} class_counts SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, SO_CNT_NR);
	__type(key, __u32);
	__type(value, __u64);
} counters SEC(".maps");

/* Zeroed templates and scratch space too big for the 512-byte stack. */
struct scratch {
	struct task_state zero_task;
	struct lock_class lock_class;
	struct so_edge_val edge_val;
	struct so_class_counts zero_counts;
	char name[SO_NAME_LEN];
	char name2[SO_NAME_LEN];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct scratch);
} scratch_map SEC(".maps");

static __always_inline void count(__u32 idx)
{
	__u64 *val = bpf_map_lookup_elem(&counters, &idx);

	if (val)
		(*val)++;
}

static __always_inline struct scratch *get_scratch(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&scratch_map, &zero);
}

static __always_inline __u32 current_tid(void)
{
	return (__u32)bpf_get_current_pid_tgid();
}

static __always_inline __u32 current_tgid(void)
{
	return bpf_get_current_pid_tgid() >> 32;
}

/* The cheap check every global probe makes first (see nr_tasks). */
static __always_inline bool nothing_observed(void)
{
	return !observe_all && !nr_tasks && !nr_watched;
}

static __always_inline bool tgid_watched(__u32 tgid)
{
	return nr_watched && bpf_map_lookup_elem(&watch_tgids, &tgid);
}

/* A zeroed state for `tid`, counted in nr_tasks; NULL when full. */
static __always_inline struct task_state *task_insert(__u32 tid)
{
	struct scratch *s = get_scratch();

	if (!s)
		return NULL;
	if (!bpf_map_update_elem(&tasks, &tid, &s->zero_task, BPF_NOEXIST))
		__sync_fetch_and_add(&nr_tasks, 1);
	else if (!bpf_map_lookup_elem(&tasks, &tid))
		count(SO_CNT_TASK_FULL);
	return bpf_map_lookup_elem(&tasks, &tid);
}

static __always_inline void task_delete(__u32 tid)
{
	if (!bpf_map_delete_elem(&tasks, &tid))
		__sync_fetch_and_sub(&nr_tasks, 1);
}

/* The task's state if it is inside an observed context, else NULL. */
static __always_inline struct task_state *task_observed(void)
{
	__u32 tid, tgid;
	struct task_state *ts;

	if (nothing_observed())
		return NULL;
	tid = current_tid();
	tgid = current_tgid();
	if (tgid == self_tgid)
		return NULL;
	ts = bpf_map_lookup_elem(&tasks, &tid);
	if (ts)
		return ts;
	if (!observe_all && !tgid_watched(tgid))
		return NULL;
	return task_insert(tid);
}

/*
 * The task's state if it has one, never creating it: for probes that
 * fire inside a spinlock's slow path with the lock held (the contention
 * tracepoints).  Creating state there updates the task table, whose
 * update takes spinlocks of its own (bucket, free list): re-entering
 * that from the middle of a lock is how a CPU ends up spinning on a lock
 * it holds.  A task that contends inside a context has state already:
 * mutex_lock's entry probe made it.
 */
static __always_inline struct task_state *task_state_lookup(void)
{
	__u32 tid;

	if (nothing_observed() || current_tgid() == self_tgid)
		return NULL;
	tid = current_tid();
	return bpf_map_lookup_elem(&tasks, &tid);
}

/* Enter an observed context: kernfs write, module load/unload, removal. */
static __always_inline struct task_state *context_enter(void)
{
	__u32 tid = current_tid();
	struct task_state *ts;

	if (current_tgid() == self_tgid)
		return NULL;
	ts = nr_tasks ? bpf_map_lookup_elem(&tasks, &tid) : NULL;
	if (!ts)
		ts = task_insert(tid);
	if (!ts)
		return NULL;
	ts->depth++;
	return ts;
}

/* Leave it; forget the task once it holds nothing and is nowhere. */
static __always_inline void context_exit(struct task_state *ts)
{
	__u32 tid = current_tid(), tgid = current_tgid();

	if (ts->depth)
		ts->depth--;
	if (!ts->depth && !ts->nheld && !ts->deleting && !tgid_watched(tgid))
		task_delete(tid);
}

static __always_inline struct so_event *event_reserve(__u32 type)
{
	struct so_event *ev;
	__u64 id = bpf_get_current_pid_tgid();

	if (paused)
		return NULL;
	ev = bpf_ringbuf_reserve(&events, sizeof(*ev), 0);
	if (!ev) {
		count(SO_CNT_RB_DROPS);
		return NULL;
	}
	ev->ts_ns = bpf_ktime_get_ns();
	ev->type = type;
	ev->cpu = bpf_get_smp_processor_id();
	ev->pid = id >> 32;
	ev->tid = (__u32)id;
	bpf_get_current_comm(ev->comm, sizeof(ev->comm));
	ev->obj = 0;
	ev->class_id = 0;
	ev->arg = 0;
	ev->ret = 0;
	ev->stack_id = -1;
	ev->flags = 0;
	ev->name[0] = 0;
	return ev;
}

static __always_inline void event_submit(struct so_event *ev)
{
	count(SO_CNT_EVENTS);
	bpf_ringbuf_submit(ev, 0);
}

/* Emit a simple event; `name` may be NULL.  Streaming only. */
static __always_inline void emit(void *ctx, __u32 type, __u64 obj,
				 __u64 class_id, __u64 arg, __s64 ret,
				 const char *name, bool want_stack)
{
	struct so_event *ev;

	if (!emit_events)
		return;
	ev = event_reserve(type);
	if (!ev)
		return;
	ev->obj = obj;
	ev->class_id = class_id;
	ev->arg = arg;
	ev->ret = ret;
	if (name)
		__builtin_memcpy(ev->name, name, SO_NAME_LEN);
	if (want_stack) {
		ev->stack_id = bpf_get_stackid(ctx, &stacks, 0);
		if (ev->stack_id < 0)
			count(SO_CNT_STACK_FAIL);
	}
	event_submit(ev);
}

#endif /* SO_STATE_BPF_H */
