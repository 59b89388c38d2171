/* SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1 */
/*
 * Maps and per-task state shared by every probe: the held set, observed
 * contexts, the edge table, counters, the ring buffer.
 */
#ifndef SO_STATE_BPF_H
#define SO_STATE_BPF_H

#include "observe.h"

/*
 * Copy a name of SO_NAME_LEN bytes, a word at a time.  Every name buffer
 * (struct fields, map values, scratch) starts 8-byte aligned, but a
 * `char *` does not say so, and clang's BPF backend then expands
 * __builtin_memcpy() into 64 byte loads and 64 byte stores.  A push onto
 * the held set copies one name, three times a write: the byte copies
 * cost some 400 ns a write in the TCG guest, about half of what its
 * eight clock reads cost (bpf_stats; commit "bpf: copy names and comms
 * by the word").  tests/run.sh counts byte moves in the hot programs.
 */
static __always_inline void name_copy(char *dst, const char *src)
{
	__builtin_memcpy(__builtin_assume_aligned(dst, 8),
			 __builtin_assume_aligned(src, 8), SO_NAME_LEN);
}

/*
 * A comm (SO_COMM_LEN bytes) in two words, likewise.  A task's comm is
 * read in place, at an offset relocated at load whose alignment is not
 * known here: the verifier takes unaligned reads of kernel memory where
 * the CPU does (every architecture with efficient unaligned access).
 */
static __always_inline void comm_copy(char *dst, const char *src)
{
	__builtin_memcpy(__builtin_assume_aligned(dst, 8),
			 __builtin_assume_aligned(src, 8), SO_COMM_LEN);
}

/* Knobs set by the loader before load(). */
const volatile __u32 self_tgid;		/* never observe the loader */
const volatile __u64 rtnl_mutex_addr;	/* from kallsyms, 0 if unknown */
const volatile __u64 module_mutex_addr;
/* The kernfs knobs' state and completion (kallsyms), 0 elsewhere. */
const volatile __u64 knob_config_addr;
const volatile __u64 knob_completion_addr;
const volatile bool observe_all;	/* every task is in context */
const volatile bool emit_events = true;	/* stream, not only edges */
/*
 * A recording keeps the stack of every mutex wait (`report` prints a
 * deadlock from the file alone).  Live, a wait's stack is read only if
 * it turns out to be part of a deadlock (iter_task_stack): the unwind
 * at every contention was most of its cost.
 */
const volatile bool wait_stacks = true;
/* Wake the reader once this much was submitted unwoken (a quarter of
 * the ring). */
const volatile __u64 wakeup_bytes = 1 << 20;
/*
 * Summary mode: what the summary only counts (successful writes, active
 * and module references, lock holds) goes to class_counts, not to the
 * ring buffer; see struct so_class_counts.
 */
const volatile bool aggregate;
/*
 * Summary mode: mutex_lock() and the other lock calls that cannot fail
 * push the hold at their entry and have no exit program (the loader's
 * loader_set_lock_exits()).  Until its contention ends, a task waiting
 * for a lock so pushed lists it as held as well; whoever reads held sets
 * takes "waits for L" over "holds L" (wf_holds()).
 */
const volatile bool acquire_at_entry;
const volatile __u64 filter_mod_class;	/* only this module's refs, 0 all */
/* --path: only kernfs nodes whose "<parent>/<name>" starts with this. */
const volatile char filter_path[SO_PATH_FILTER_LEN];
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
 * How many tasks are active (see so_task_state.active) and how many
 * processes are watched.  While both are 0 (and observe_all is off) no
 * task can be in an observed context, so every global probe (mutex_lock
 * and friends on every CPU of the system) returns after reading these two
 * words instead of doing hash look-ups.  Whoever activates a task adds
 * one, whoever deactivates it (BPF, or user space through the mmapped
 * .bss when a session is reset) subtracts one: the count is exact, and a
 * task always sees its own activation.  nr_entries counts the task states
 * (slots and `tasks` entries), active or not, for the exit probe's own
 * cheap check.
 */
volatile __u64 nr_tasks;
volatile __u64 nr_entries;
volatile __u64 nr_overflow;	/* ... of which in `tasks` */
volatile __u64 nr_watched;
/*
 * Tasks with a wait in their state (so_task_state.wait_kind): while it is
 * 0 no deadlock can be in progress, and user space does not scan `tasks`.
 */
volatile __s64 nr_waiting;
/*
 * Slots of class_counts handed out, and their generation: user space
 * empties class_slots between sessions and adds one to counts_gen, and
 * a slot cached (a task's write_slot, a lock class's) with an older
 * generation is looked up again.
 */
volatile __u32 nr_count_slots;
volatile __u32 counts_gen;

/*
 * Locks __mutex_init named that lock_classes did not hold yet.  An LRU
 * table evicts without telling anyone; beyond its size every new class
 * cost an old one, which the loader reports (SO_CNT_CLASS_EVICTED): a
 * lock whose class was dropped is named by symbol, or not at all.
 */
volatile __u64 classes_learned;
/* Bumped when __mutex_init gives an address a class it may not have had:
 * the tasks' lock memos (struct so_lock_memo) made before are void. */
volatile __u32 lock_classes_gen;

/* SO_CNT_MUTEX_CALLS, _KERNFS_WRITE, _EVENTS and _RB_DROPS (see struct
 * so_call_stripe). */
struct so_call_stripe call_stripes[SO_CALL_STRIPES];

/* Count one of `field` in the stripe `key` picks: the task's tid, or the
 * CPU where no tid is at hand (the ring-full latch's drops). */
#define stripe_count(key, field)					\
	__sync_fetch_and_add(&call_stripes[(key) &			\
					   (SO_CALL_STRIPES - 1)].field, 1)

/* Task states by tid's low bits (see SO_TASK_SLOTS); user space maps it
 * to scan for deadlocks without a system call per task. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, SO_TASK_SLOTS);
	__type(key, __u32);
	__type(value, struct so_task_state);
} task_slots SEC(".maps");

/* ... and of the tasks whose slot was taken. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, __u32);		/* tid */
	__type(value, struct so_task_state);
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
	__u32 slot, gen;	/* its counts' slot, cached (counts_gen) */
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

/*
 * Chain key -> chain (struct so_chain_val): the chain cache.  Half the
 * edge table's size by default, for the 16 MiB budget (issue 12): a full
 * one costs speed, not counts (SO_CNT_CHAIN_FULL).
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);
	__type(key, __u64);
	__type(value, struct so_chain_val);
} chains SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, 16384);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, SO_KSTACK_DEPTH * sizeof(__u64));
} stacks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4 << 20);
} events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, SO_COUNT_SLOTS);
	__type(key, __u32);		/* slot (class_slots) */
	__type(value, struct so_class_counts);
} class_counts SEC(".maps");

/* Class id -> its slot in class_counts. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, SO_COUNT_SLOTS);
	__type(key, __u64);
	__type(value, __u32);
} class_slots SEC(".maps");

/*
 * Lock address -> its kernel symbol ("%ps"), or "" when none covers it:
 * locks __mutex_init never named (static DEFINE_MUTEX, or initialized
 * before attach).  Looked up in the kernel at first sight, while the
 * symbol exists: a module loaded and removed faster than user space
 * reads /proc/kallsyms still has its static mutex named.
 */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 4096);
	__type(key, __u64);
	__type(value, struct so_class_name);
} lock_syms SEC(".maps");

/* Names of the classes in class_counts and edges, written once each. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);
	__type(key, __u64);		/* class id */
	__type(value, struct so_class_name);
} class_names SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, SO_CNT_NR);
	__type(key, __u32);
	__type(value, __u64);
} counters SEC(".maps");

/* Zeroed templates and scratch space too big for the 512-byte stack. */
struct scratch {
	struct so_task_state zero_task;
	struct lock_class lock_class;
	struct so_edge_val edge_val;
	struct so_chain_val chain_val;
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

/* What name_copy() and comm_copy() assume of every buffer they fill. */
#define SO_NAME_ALIGNED(type, field)					\
	_Static_assert(__builtin_offsetof(type, field) % 8 == 0 &&	\
		       sizeof(type) % 8 == 0,				\
		       #type "." #field ": copied by the word")
SO_NAME_ALIGNED(struct so_event, name);
SO_NAME_ALIGNED(struct so_event, comm);
SO_NAME_ALIGNED(struct so_edge_val, comm);
SO_NAME_ALIGNED(struct so_edge_event, to_name);
SO_NAME_ALIGNED(struct so_held_entry, name);
SO_NAME_ALIGNED(struct so_lock_memo, name);
SO_NAME_ALIGNED(struct so_task_state, stash_name);
SO_NAME_ALIGNED(struct so_task_state, write_name);
SO_NAME_ALIGNED(struct so_task_state, wait_name);
SO_NAME_ALIGNED(struct so_task_state, held);
SO_NAME_ALIGNED(struct so_task_state, lock_memo);
SO_NAME_ALIGNED(struct so_class_name, name);
SO_NAME_ALIGNED(struct lock_class, name);
SO_NAME_ALIGNED(struct scratch, name);
SO_NAME_ALIGNED(struct scratch, name2);
SO_NAME_ALIGNED(struct scratch, lock_class);

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

/* The state of `tid` if it has one: its slot, else the overflow table. */
static __always_inline struct so_task_state *task_find(__u32 tid)
{
	__u32 slot = tid & (SO_TASK_SLOTS - 1);
	struct so_task_state *ts;

	ts = bpf_map_lookup_elem(&task_slots, &slot);
	if (ts && ts->tid == tid)
		return ts;
	return nr_overflow ? bpf_map_lookup_elem(&tasks, &tid) : NULL;
}

/* A zeroed, inactive state for `tid`; NULL when the tables are full. */
static __always_inline struct so_task_state *task_insert(__u32 tid)
{
	__u32 slot = tid & (SO_TASK_SLOTS - 1);
	struct so_task_state *ts;
	struct scratch *s;

	if (!tid)	/* 0 marks a free slot; the idle task is never observed */
		return NULL;
	s = get_scratch();
	ts = bpf_map_lookup_elem(&task_slots, &slot);
	if (!s || !ts)
		return NULL;
	/*
	 * Claim the slot, then clear it: a slot is only ever written by the
	 * task whose tid it holds (and by user space between sessions).
	 */
	if (!ts->tid && !__sync_val_compare_and_swap(&ts->tid, 0, tid)) {
		s->zero_task.tid = tid;
		bpf_map_update_elem(&task_slots, &slot, &s->zero_task, BPF_ANY);
		s->zero_task.tid = 0;
		__sync_fetch_and_add(&nr_entries, 1);
		return ts;
	}
	s->zero_task.tid = tid;
	if (!bpf_map_update_elem(&tasks, &tid, &s->zero_task, BPF_NOEXIST)) {
		__sync_fetch_and_add(&nr_entries, 1);
		__sync_fetch_and_add(&nr_overflow, 1);
	} else if (!bpf_map_lookup_elem(&tasks, &tid))
		count(SO_CNT_TASK_FULL);
	s->zero_task.tid = 0;
	return bpf_map_lookup_elem(&tasks, &tid);
}

static __always_inline void task_activate(struct so_task_state *ts)
{
	if (ts->active)
		return;
	ts->active = 1;
	__sync_fetch_and_add(&nr_tasks, 1);
}

static __always_inline void task_deactivate(struct so_task_state *ts)
{
	if (!ts->active)
		return;
	ts->active = 0;
	__sync_fetch_and_sub(&nr_tasks, 1);
}

/* The task exited: its state goes, its slot is free again. */
static __always_inline void task_delete(__u32 tid, struct so_task_state *ts)
{
	__u32 slot = tid & (SO_TASK_SLOTS - 1);
	struct so_task_state *in_slot;

	task_deactivate(ts);
	in_slot = bpf_map_lookup_elem(&task_slots, &slot);
	if (in_slot && in_slot->tid == tid) {
		if (__sync_val_compare_and_swap(&in_slot->tid, tid, 0) == tid)
			__sync_fetch_and_sub(&nr_entries, 1);
	} else if (!bpf_map_delete_elem(&tasks, &tid)) {
		__sync_fetch_and_sub(&nr_entries, 1);
		__sync_fetch_and_sub(&nr_overflow, 1);
	}
}

/* The task's state if it is inside an observed context, else NULL. */
static __always_inline struct so_task_state *task_observed(void)
{
	__u32 tid, tgid;
	struct so_task_state *ts;

	__u64 id;

	if (nothing_observed())
		return NULL;
	id = bpf_get_current_pid_tgid();
	tid = (__u32)id;
	tgid = id >> 32;
	if (tgid == self_tgid)
		return NULL;
	ts = task_find(tid);
	if (ts && ts->active)
		return ts;
	if (!observe_all && !tgid_watched(tgid))
		return NULL;
	if (!ts)
		ts = task_insert(tid);
	if (ts)
		task_activate(ts);
	return ts;
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
static __always_inline struct so_task_state *task_state_lookup(void)
{
	__u32 tid;

	struct so_task_state *ts;

	if (nothing_observed() || current_tgid() == self_tgid)
		return NULL;
	tid = current_tid();
	ts = task_find(tid);
	return ts && ts->active ? ts : NULL;
}

/*
 * Enter an observed context: kernfs write, module load/unload, removal.
 * `id` is bpf_get_current_pid_tgid(), which a caller may have at hand:
 * each call of it is a helper call.
 */
static __always_inline struct so_task_state *context_enter_id(__u64 id)
{
	__u32 tid = (__u32)id;
	struct so_task_state *ts;

	if (id >> 32 == self_tgid)
		return NULL;
	ts = task_find(tid);
	if (!ts)
		ts = task_insert(tid);
	if (!ts)
		return NULL;
	task_activate(ts);
	ts->depth++;
	return ts;
}

static __always_inline struct so_task_state *context_enter(void)
{
	return context_enter_id(bpf_get_current_pid_tgid());
}

/* Leave it; the task goes inactive once it holds nothing and is nowhere. */
static __always_inline void context_exit(struct so_task_state *ts)
{
	if (ts->depth)
		ts->depth--;
	/* nr_watched first: current_tgid() is a helper call the compiler
	 * makes before tgid_watched() could skip it. */
	if (!ts->depth && !ts->nheld && !ts->deleting &&
	    !(nr_watched && tgid_watched(current_tgid())))
		task_deactivate(ts);
}

/* The counts in `slot` on this CPU; NULL for slot 0 or after the end. */
static __always_inline struct so_class_counts *slot_counts(__u32 slot)
{
	if (!slot || paused)
		return NULL;
	return bpf_map_lookup_elem(&class_counts, &slot);
}

/*
 * Summary mode: the slot of `class_id`'s counts, where an occurrence is
 * counted instead of sent.  0, and the caller sends the event, when not
 * in summary mode, and for the first occurrence of a class: that one
 * gets the class a slot (and records its name, `name`, SO_NAME_LEN
 * bytes) and goes out as an event, so user space learns the class, its
 * name and its first stack the usual way.  0 too when the slots are all
 * taken (counted) or the session is over.
 */
static __always_inline __u32 class_slot(__u64 class_id, const char *name)
{
	__u32 *slot, n;

	if (!aggregate || paused)
		return 0;
	slot = bpf_map_lookup_elem(&class_slots, &class_id);
	if (slot)
		return *slot;
	if (nr_count_slots >= SO_COUNT_SLOTS - 1) {
		count(SO_CNT_COUNTS_FULL);
		return 0;
	}
	/* Two CPUs racing for a new class: one slot stays unused. */
	n = __sync_fetch_and_add(&nr_count_slots, 1) + 1;
	if (n >= SO_COUNT_SLOTS) {
		count(SO_CNT_COUNTS_FULL);
		return 0;
	}
	bpf_map_update_elem(&class_names, &class_id, name, BPF_NOEXIST);
	if (bpf_map_update_elem(&class_slots, &class_id, &n, BPF_NOEXIST) &&
	    !bpf_map_lookup_elem(&class_slots, &class_id))
		count(SO_CNT_COUNTS_FULL);
	return 0;
}

/* This CPU's counts of `class_id`, or NULL (see class_slot). */
static __always_inline struct so_class_counts *
class_counts_hit(__u64 class_id, const char *name)
{
	return slot_counts(class_slot(class_id, name));
}

/* floor(log2(ns)), 0 for 0: so_hist's bucket, capped at the last. */
static __always_inline __u32 hist_bucket(__u64 ns)
{
	__u32 b = 0;

	if (ns >> 32) { ns >>= 32; b += 32; }
	if (ns >> 16) { ns >>= 16; b += 16; }
	if (ns >> 8) { ns >>= 8; b += 8; }
	if (ns >> 4) { ns >>= 4; b += 4; }
	if (ns >> 2) { ns >>= 2; b += 2; }
	if (ns >> 1) { b += 1; }
	return b < SO_COUNTS_HIST ? b : SO_COUNTS_HIST - 1;
}

/* A hold of `class_id` ended after `ns` (at least 1: see held_remove). */
static __always_inline void count_hold(struct so_class_counts *cnt, __u64 ns)
{
	__u32 b;

	if (!cnt->holds || ns < cnt->hold_ns_min)
		cnt->hold_ns_min = ns;
	if (ns > cnt->hold_ns_max)
		cnt->hold_ns_max = ns;
	cnt->holds++;
	cnt->hold_ns_total += ns;
	b = hist_bucket(ns);
	if (b < SO_COUNTS_HIST)
		cnt->hold_hist[b]++;
}

_Static_assert(sizeof(((struct task_struct *)0)->comm) == SO_COMM_LEN,
	       "so_event.comm holds the task's comm as it is");

/* When a reserve last failed (see SO_RING_FULL_NS); written by every CPU
 * without atomics: a lost update only moves the latch a little. */
volatile __u64 ring_full_ns;

/*
 * A record of `type` stamped `now`: the clock the program read for its
 * own purposes (a hold, a write's time), so that one run reads it once
 * and its times agree with each other.
 *
 * Who it is comes from the task itself, read in place: one helper call
 * instead of bpf_get_current_pid_tgid() and bpf_get_current_comm() (a
 * padded string copy), and the drop it counts needs it too.  The comm so
 * read may race with a rename (prctl, /proc/PID/comm), as
 * bpf_get_current_comm()'s does; its last byte is always the NUL.
 */
static __always_inline struct so_event *event_reserve(__u32 type, __u64 now)
{
	struct task_struct *task;
	struct so_event *ev;

	if (paused)
		return NULL;
	task = bpf_get_current_task_btf();
	ev = bpf_ringbuf_reserve(&events, sizeof(*ev), 0);
	if (!ev) {
		stripe_count(task->pid, rb_drops);
		ring_full_ns = now;
		return NULL;
	}
	ev->ts_ns = now;
	ev->type = type;
	ev->cpu = bpf_get_smp_processor_id();
	ev->pid = task->tgid;
	ev->tid = task->pid;
	comm_copy(ev->comm, task->comm);
	ev->comm[SO_COMM_LEN - 1] = 0;
	ev->obj = 0;
	ev->class_id = 0;
	ev->arg = 0;
	ev->ret = 0;
	ev->stack_id = -1;
	ev->flags = 0;
	ev->name[0] = 0;
	return ev;
}

/*
 * The task waits from `now` on (the caller's clock read, which its
 * event carries too: a second read was 90 ns in the TCG guest).
 */
static __always_inline void wait_begin(struct so_task_state *ts, __u32 kind,
				       __u64 obj, __u64 class_id,
				       const char *name, __s32 stack_id,
				       __u64 now)
{
	if (!ts->wait_kind)
		__sync_fetch_and_add(&nr_waiting, 1);
	ts->wait_kind = kind;
	ts->wait_obj = obj;
	ts->wait_class = class_id;
	ts->wait_stack = stack_id;
	ts->wait_ts = now;
	name_copy(ts->wait_name, name);
}

/* ... and waits no more. */
static __always_inline void wait_end(struct so_task_state *ts)
{
	if (ts->wait_kind)
		__sync_fetch_and_sub(&nr_waiting, 1);
	ts->wait_kind = SO_WAIT_NONE;
	ts->wait_obj = 0;
	ts->wait_class = 0;
	ts->wait_stack = -1;
	ts->wait_ts = 0;
}

/*
 * When the reader was last woken, and how many bytes were submitted
 * since.  Written without atomics by every CPU: a lost update costs a
 * wakeup sooner or later than due, and the time rule bounds the later.
 */
volatile __u64 last_wakeup_ns;
volatile __u64 unwoken_bytes;

/*
 * Batched wakeups.  The default wakes the reader whenever it has caught
 * up, which for a reader that keeps up is every record: an irq_work for
 * the writer and a context switch for the observer each time (under two
 * contending writers that was some 350 wakeups a second, 40 % of a CPU).
 * So a record wakes the reader only SO_WAKEUP_MS after the last wakeup,
 * or once wakeup_bytes were submitted since; the others are forced never
 * to wake, and the reader's own poll timeout (SO_WAKEUP_MS after a busy
 * poll) picks them up.  A record that does wake must force it: the
 * default would not wake a reader that never saw the records before it.
 * The bytes are counted here rather than asked of the ring
 * (bpf_ringbuf_query()), which was a helper call per record.
 */
static __always_inline void event_submit(struct so_event *ev, __u64 size)
{
	__u64 flags = BPF_RB_NO_WAKEUP, unwoken = unwoken_bytes + size;

	stripe_count(ev->tid, events);
	if (ev->ts_ns - last_wakeup_ns >= SO_WAKEUP_MS * 1000000ULL ||
	    unwoken >= wakeup_bytes) {
		last_wakeup_ns = ev->ts_ns;
		unwoken = 0;
		flags = BPF_RB_FORCE_WAKEUP;
	}
	unwoken_bytes = unwoken;
	bpf_ringbuf_submit(ev, flags);
}

/* Emit a simple event stamped `now`; `name` may be NULL.  Returns the
 * stack's id (want_stack), or -1 when there is none. */
static __always_inline __s32 emit_at(void *ctx, __u64 now, __u32 type,
				     __u64 obj, __u64 class_id, __u64 arg,
				     __s64 ret, const char *name,
				     bool want_stack)
{
	struct so_event *ev;
	__s32 stack_id;

	if (!emit_events)
		return -1;
	if (now - ring_full_ns < SO_RING_FULL_NS &&
	    so_event_routine(type, ret)) {
		if (!paused)
			stripe_count(bpf_get_smp_processor_id(), rb_drops);
		return -1;
	}
	ev = event_reserve(type, now);
	if (!ev)
		return -1;
	ev->obj = obj;
	ev->class_id = class_id;
	ev->arg = arg;
	ev->ret = ret;
	if (name)
		name_copy(ev->name, name);
	if (want_stack) {
		ev->stack_id = bpf_get_stackid(ctx, &stacks, 0);
		if (ev->stack_id < 0)
			count(SO_CNT_STACK_FAIL);
	}
	stack_id = ev->stack_id;
	event_submit(ev, sizeof(*ev));
	return stack_id;
}

/* emit_at() now, for a program that has not read the clock. */
static __always_inline __s32 emit(void *ctx, __u32 type, __u64 obj,
				  __u64 class_id, __u64 arg, __s64 ret,
				  const char *name, bool want_stack)
{
	if (!emit_events)
		return -1;
	return emit_at(ctx, bpf_ktime_get_ns(), type, obj, class_id, arg, ret,
		       name, want_stack);
}

#endif /* SO_STATE_BPF_H */
