/* SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1 */
/*
 * The one ABI between bpf/ and user/: events on the ring buffer, the edge
 * table's key and value, counters.  Plain fixed-width types only; both
 * sides include this file, and the trace file stores these records as-is
 * (little endian, x86_64), so a change here bumps SO_ABI_VERSION.
 */
#ifndef SYSFS_OBSERVE_H
#define SYSFS_OBSERVE_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

#define SO_ABI_VERSION		1
#define SO_COMM_LEN		16
#define SO_NAME_LEN		64	/* "<parent>/<attr>", module, disk, lock */
#define SO_HELD_MAX		8	/* held-set slots per task */
/*
 * Task states live in a direct-mapped array indexed by tid (its low
 * bits): an array look-up is inlined by the verifier, a hash look-up is
 * a call that hashes (about three times the cost per probe under TCG,
 * nine times a write).  Two tasks whose tids share the low bits: the
 * second one's state goes to the `tasks` hash.  A power of two.
 */
#define SO_TASK_SLOTS		4096
/*
 * Summary mode's per-class counts: slots of a per-CPU array, 0 unused.
 * A class learns its slot once (class_slots), and a probe that knows it
 * (the write's node, a mutex's class) counts with an array look-up
 * instead of a hash look-up.
 */
#define SO_COUNT_SLOTS		1024
/*
 * The ring buffer wakes its reader at most once per SO_WAKEUP_MS, or once
 * a quarter of it was written since (bpf/state.bpf.h, event_submit); the
 * reader looks again SO_WAKEUP_MS after a poll that found records, so a
 * record that woke nobody waits at most about that long.
 */
#define SO_WAKEUP_MS		10
/*
 * After a record found the ring buffer full, routine records (see
 * so_event_routine) skip reserving for this long and count as lost: a
 * failed reserve still takes the ring's lock, and a reader that fell
 * behind made most of them fail.  Short against the time the reader
 * needs to empty the default ring (tens of ms under TCG), so that ring
 * stays full and its reader loses nothing to it; a ring of a few KiB
 * (--ringbuf-kib) empties sooner and loses more routine records,
 * counted as drops.
 */
#define SO_RING_FULL_NS		100000ULL
/* Frames of a kernel stack the probes keep (the `stacks` map's values,
 * a blocked task's stack): deep enough to reach the syscall. */
#define SO_KSTACK_DEPTH		32
#define SO_GATES_MAX		4	/* module refs recorded on one edge */
/* --path's match on "<parent>/<name>", NUL included: at most 30 characters
 * and the '/' a directory gets. */
#define SO_PATH_FILTER_LEN	32
/*
 * The kernel's own name lengths, NUL included, which the probes copy
 * names with (64-bit kernels).  MODULE_NAME_LEN, include/linux/module.h:
 * (64 - sizeof(unsigned long)), struct module's name[] and the most
 * delete_module(2) reads of its argument.  DISK_NAME_LEN,
 * include/linux/blkdev.h: struct gendisk's disk_name[]; a misc device's
 * name is cut at the same length, one bound for removal events' device
 * names.  The BPF side checks both against vmlinux.h; a name is one of
 * SO_NAME_LEN's uses, so both fit in it.
 */
#define SO_MODULE_NAME_LEN	56
#define SO_DISK_NAME_LEN	32
_Static_assert(SO_MODULE_NAME_LEN <= SO_NAME_LEN &&
	       SO_DISK_NAME_LEN <= SO_NAME_LEN,
	       "kernel names must fit in SO_NAME_LEN");

/*
 * Resource classes.  A class id is a 64-bit value whose top byte says the
 * kind and whose rest is a hash of the class name (kn, named mutex,
 * module) or an address (a lock nobody named: its static symbol is found
 * through kallsyms).  Ids survive a module reload wherever names do.
 */
enum so_class_kind {
	SO_CLASS_NONE	= 0,
	SO_CLASS_KN	= 1,	/* kernfs node: active ref (read) / drain (write) */
	SO_CLASS_MUTEX	= 2,	/* mutex named by __mutex_init */
	SO_CLASS_LOCK	= 3,	/* mutex known only by address (static) */
	SO_CLASS_RTNL	= 4,	/* rtnl_mutex through rtnl_lock() */
	SO_CLASS_MOD	= 5,	/* module: try_module_get ref / GOING */
};
#define SO_CLASS_SHIFT		56
#define SO_CLASS_KIND(id)	((__u32)((id) >> SO_CLASS_SHIFT))
#define SO_CLASS_MAKE(kind, v)	(((__u64)(kind) << SO_CLASS_SHIFT) | \
				 ((v) & ((1ULL << SO_CLASS_SHIFT) - 1)))

/* How a held-set entry or edge target was taken. */
enum so_hold_mode {
	SO_HOLD_READ	= 1,	/* kernfs active ref, module ref */
	SO_HOLD_WRITE	= 2,	/* mutex, drain, module removal (GOING) */
};

enum so_event_type {
	SO_EV_KN_WRITE_BEGIN = 1, /* obj kn, arg len, name kn */
	SO_EV_KN_WRITE_END,	/* obj kn, ret bytes or -errno */
	SO_EV_KN_GET_ACTIVE,	/* obj kn, ret 1 got / 0 refused (removed) */
	SO_EV_KN_PUT_ACTIVE,	/* obj kn */
	SO_EV_KN_DRAIN_BEGIN,	/* obj kn, arg active count at entry */
	SO_EV_KN_DRAIN_END,	/* obj kn, arg ns spent */
	SO_EV_MOD_GET,		/* obj module, ret 1 got / 0 refused, name */
	SO_EV_MOD_PUT,		/* obj module, name */
	SO_EV_MOD_LOAD_BEGIN,	/* finit_module entry; name unknown: empty */
	SO_EV_MOD_LOAD_END,	/* ret */
	SO_EV_MOD_DELETE_BEGIN,	/* delete_module entry; name from user */
	SO_EV_MOD_DELETE_END,	/* ret */
	SO_EV_DEL_GENDISK_BEGIN, /* obj gendisk, name disk */
	SO_EV_DEL_GENDISK_END,	/* arg ns spent */
	SO_EV_MISC_DEREG_BEGIN,	/* obj miscdevice, name device */
	SO_EV_MISC_DEREG_END,
	SO_EV_LOCK_ACQUIRED,	/* obj lock, class, arg ns waited, name */
	SO_EV_LOCK_RELEASED,	/* obj lock, class, arg ns held */
	SO_EV_CONTENTION_BEGIN,	/* obj lock, arg flags */
	SO_EV_CONTENTION_END,	/* obj lock, ret */
	SO_EV_MUTEX_INIT,	/* obj lock, class, name "&x->y" */
	SO_EV_EDGE,		/* a class pair seen for the first time */
	/*
	 * The kernfs knobs (kernfs/patches): only on a kernel that has
	 * kernfs_debug_wait().  Appended, so older traces keep their types.
	 */
	/*
	 * kernfs_debug_wait() entered: obj and class the node written; with
	 * SO_EVF_KNOB_STATE arg sleep_after_wait_ms, ret the mask of the
	 * enabled wait points (1 << enum so_knob_point).
	 */
	SO_EV_KNOB_WAIT,
	/*
	 * ... returned: arg ns in it, ret ts_ns of the completion that woke
	 * it, 0 none (SO_EVF_KNOB_SEEN: completions are probed: a timeout).
	 */
	SO_EV_KNOB_WAKE,
	SO_EV_KNOB_COMPLETE,	/* complete(), obj the knob's completion */
	SO_EV_NR,
};

/*
 * A record the stream may lose while its reader is behind (see
 * SO_RING_FULL_NS): the many of a write that went as expected.  Refusals,
 * errors, drains, module loads and removals, contention, knobs and edges
 * are never routine: they are what a report is read for, and rare.
 */
static inline int so_event_routine(__u32 type, __s64 ret)
{
	switch (type) {
	case SO_EV_KN_GET_ACTIVE:
	case SO_EV_MOD_GET:
		return ret == 1;	/* got it */
	case SO_EV_KN_WRITE_END:
		return ret >= 0;
	case SO_EV_LOCK_ACQUIRED:
		return ret == 0;
	case SO_EV_KN_WRITE_BEGIN:
	case SO_EV_KN_PUT_ACTIVE:
	case SO_EV_MOD_PUT:
	case SO_EV_LOCK_RELEASED:
		return 1;
	}
	return 0;
}

/* The wait points of kernfs_fop_write_iter(), in the order it passes them. */
enum so_knob_point {
	SO_KNOB_AT_START,
	SO_KNOB_BEFORE_MUTEX,
	SO_KNOB_AFTER_MUTEX,
	SO_KNOB_AFTER_ACTIVE,
	SO_KNOB_NR,
};

/* so_event.flags */
#define SO_EVF_TRYLOCK		0x1	/* mutex_trylock: never waits */
#define SO_EVF_FAILED		0x2	/* acquisition failed (trylock, signal) */
#define SO_EVF_GOING		0x4	/* task was removing a GOING module */
#define SO_EVF_KNOB_STATE	0x8	/* knob wait: the knob state was read */
#define SO_EVF_KNOB_SEEN	0x10	/* knob wake: completions are probed */
/*
 * A write's end sent without its begin (summary mode: successful writes
 * are counted in `class_counts`, not sent; this one failed, or could not
 * be counted): class_id and name are set, arg is the write's ns.
 */
#define SO_EVF_ALONE		0x20
/*
 * An edge sent before, again at the session's end with the count the
 * kernel's edge table reached (the first record says 1): user space
 * makes these, the probes never do; the live stream does not show them.
 */
#define SO_EVF_COUNT		0x40

/* One record on the ring buffer.  `name` depends on `type` (see above). */
struct so_event {
	__u64 ts_ns;		/* bpf_ktime_get_ns() */
	__u32 type;		/* enum so_event_type */
	__u32 cpu;
	__u32 pid;		/* tgid */
	__u32 tid;
	char comm[SO_COMM_LEN];
	__u64 obj;		/* kernel address of the object */
	__u64 class_id;		/* resource class of obj, 0 if none */
	__u64 arg;
	__s64 ret;
	__s32 stack_id;		/* kernel stack in `stacks`, <0 none */
	__u32 flags;
	char name[SO_NAME_LEN];
};
/*
 * Trace files store so_event and so_edge_event as they are (see the top
 * of this file): their sizes are part of ABI version 1.  Changing one
 * changes the format: bump SO_ABI_VERSION and the size asserted.
 */
_Static_assert(sizeof(struct so_event) == 144,
	       "struct so_event is ABI (trace files): bump SO_ABI_VERSION");

/*
 * FNV-1a over a NUL-terminated name, folded to the 56 bits a class id has
 * for its value.  Shared so that user space can compute the class of a
 * name it was given (a --module filter, say) exactly as the probes do.
 */
static inline __u64 so_hash_name(const char *name, __u32 max)
{
	__u64 h = 0xcbf29ce484222325ULL;
	__u32 i;

	for (i = 0; i < max && i < SO_NAME_LEN; i++) {
		if (!name[i])
			break;
		h ^= (unsigned char)name[i];
		h *= 0x100000001b3ULL;
	}
	return h & ((1ULL << SO_CLASS_SHIFT) - 1);
}

/*
 * A task's state in the `tasks` map, keyed by tid: its held set and what
 * it waits for.  Probes keep it; user space reads it in summary mode,
 * where holds are counted and not sent, to find deadlocks that are in
 * progress (a deadlock persists: a scan sees it).
 */
struct so_held_entry {
	__u64 class_id;
	__u64 obj;
	__u64 ts;
	__u32 mode;		/* enum so_hold_mode */
	__u32 slot;		/* its class's counts (class_counts), 0 unknown */
	char name[SO_NAME_LEN];
};

enum so_wait_kind {
	SO_WAIT_NONE	= 0,
	SO_WAIT_LOCK	= 1,	/* a mutex, from contention_begin to _end */
	SO_WAIT_DRAIN	= 2,	/* kernfs_drain(): for the node's readers */
};

/*
 * A chain, lockdep's term: the classes a task held, in order, when it
 * attempted one more.  The edges of an attempt are a function of its
 * chain, so an attempt whose chain the table `chains` knows is counted
 * once, on the chain, instead of once per edge; and a task repeating the
 * chain it made last at that depth counts it in its own memo, with no
 * map operation at all.  User space folds both back into the edges'
 * counts (trace/chain_fold.h).  The key is a 64-bit hash of the chain
 * (held classes and modes, the GOING module, the attempted class) and,
 * as in lockdep, not checked against the classes: two chains hashing
 * alike would share counts.
 */
struct so_chain_val {
	__u64 count;		/* attempts, besides the memos not flushed */
	__u64 to_class;		/* the class attempted */
	__u64 gate_ctx;		/* its edges' so_edge_key.gate_ctx */
	__u32 nfrom;		/* edges: from[0..nfrom) -> to_class */
	__u32 pad;
	__u64 from[SO_HELD_MAX];
};

/*
 * A task's last chain at one depth and the attempts of it not yet added
 * to its count in `chains` (flushed when the task makes another chain at
 * that depth, and when it exits).  `gen` is counts_gen's value when it
 * was made: a memo older than the session's is nothing.
 */
struct so_chain_memo {
	__u64 key;
	__u32 hits;
	__u32 gen;
};

/*
 * A lock the task took lately and its class, so that taking it again
 * needs no look-up in lock_classes (a hash look-up, a helper call).
 * Good while no __mutex_init gave any address another class since
 * (classes_gen, the probes' lock_classes_gen) and, for the counts' slot,
 * in the same session (gen, counts_gen).
 */
struct so_lock_memo {
	__u64 lock;
	__u64 class_id;
	__u32 slot;
	__u32 gen;
	__u32 classes_gen;
	__u32 pad;
	char name[SO_NAME_LEN];
};
#define SO_LOCK_MEMOS		2	/* of->mutex and the store's lock */

struct so_task_state {
	__u32 depth;		/* nesting of observed contexts */
	__u32 nheld;
	__u32 reads;		/* ... of which sysfs reads (see on_read_entry) */
	__u32 write_counted;	/* summary mode counts this write, sends none */
	/*
	 * In a context, holding something, or watched: counted in nr_tasks.
	 * An entry outlives its contexts (made once per task, deleted when
	 * the task exits), so a write costs a look-up, not an insert and a
	 * delete; an inactive entry is as good as none.
	 */
	__u32 active;
	__u32 tid;		/* whose state: 0 = a free slot */
	__u64 deleting;		/* module class this task is deleting */
	__u64 going;		/* ... and it is GOING now */
	/* kretprobe stashes: what the entry saw, for the return */
	__u64 stash_obj;
	__u64 stash_ts;
	__u64 stash_class;	/* mutex attempt: the lock's class, name */
	char stash_name[SO_NAME_LEN];
	__u64 lock_attempt_ts;	/* mutex/rtnl attempt, for wait time */
	__u64 write_kn;		/* the kernfs node being written */
	__u64 write_class;	/* ... and its class */
	char write_name[SO_NAME_LEN];	/* ... and its name */
	/* The node write_class and write_name belong to, and its kernfs id
	 * (an address can be a new node, an id cannot): a task writing the
	 * same attribute again reads neither name again. */
	__u64 named_kn, named_kn_id;
	__u32 write_slot, write_gen;	/* write_class's counts (counts_gen) */
	__u32 stash_slot, stash_pad;	/* mutex attempt: the class's counts */
	__u64 write_ts, gendisk_ts, misc_ts, load_ts, knob_ts;
	/* What the task waits for, since when, and the stack of the wait. */
	__u32 wait_kind;	/* enum so_wait_kind */
	__s32 wait_stack;
	__u64 wait_obj;
	__u64 wait_class;
	__u64 wait_ts;
	char wait_name[SO_NAME_LEN];
	struct so_held_entry held[SO_HELD_MAX];
	/* The chain last attempted at each depth (nheld - 1): see
	 * struct so_chain_memo. */
	struct so_chain_memo memo[SO_HELD_MAX];
	struct so_lock_memo lock_memo[SO_LOCK_MEMOS];
	__u32 lock_memo_next;	/* the one to replace */
	__u32 lock_memo_pad;
};

/* Edge table: held `from`, then acquired or started waiting for `to`. */
/*
 * The key carries a digest of the gates (try_module_get references and
 * GOING module) the task had, so the same class pair taken once gated and
 * once ungated is two edges: the ungated one must not hide behind the
 * gated first sight.  0 = no gates.
 */
struct so_edge_key {
	__u64 from_class;
	__u64 to_class;
	__u64 gate_ctx;
};

struct so_edge_val {
	__u64 count;
	__u64 first_ns;
	__u32 first_tid;
	__s32 stack_id;		/* stack of the first acquisition of `to` */
	__u32 from_mode;	/* enum so_hold_mode */
	__u32 to_mode;
	/* Gates held by the task at first sight: try_module_get refs. */
	__u64 gates[SO_GATES_MAX];	/* module class ids */
	__u64 going;		/* module class id GOING in this task, or 0 */
	char comm[SO_COMM_LEN];
};

/* An SO_EV_EDGE event carries the edge; name holds from's name. */
struct so_edge_event {
	struct so_event ev;	/* type SO_EV_EDGE, class_id = to_class */
	struct so_edge_key key;
	struct so_edge_val val;
	char to_name[SO_NAME_LEN];
};
_Static_assert(sizeof(struct so_edge_key) == 24 &&
	       sizeof(struct so_edge_val) == 88 &&
	       sizeof(struct so_edge_event) == 320,
	       "struct so_edge_event is ABI (trace files): bump SO_ABI_VERSION");

/*
 * Per-class figures the kernel counts itself (per CPU, summed by user
 * space) instead of sending an event per occurrence: in summary mode
 * (`aggregate`), the writes that succeeded, active references and module
 * references taken and put, and how long locks and active references
 * were held.  What the analysis needs event by event (edges, waits,
 * drains, refusals, module loads and removals) still comes as events.
 * Not stored in trace files: a recording keeps every event.
 */
#define SO_COUNTS_HIST		48	/* log2 ns buckets; the last: more */

struct so_class_counts {
	__u64 writes;
	__u64 write_bytes;
	__u64 write_ns_total;
	__u64 write_ns_min;	/* valid when writes > 0 */
	__u64 write_ns_max;
	__u64 holds;		/* lock held, or active reference put */
	__u64 hold_ns_total;
	__u64 hold_ns_min;	/* valid when holds > 0 */
	__u64 hold_ns_max;
	__u64 kn_gets;		/* active references taken */
	__u64 kn_puts;
	__u64 mod_gets;		/* try_module_get() that succeeded */
	__u64 mod_puts;
	/* bucket i: [2^i, 2^(i+1)) ns, 0 holds 0, as user space's so_hist */
	__u64 hold_hist[SO_COUNTS_HIST];
};

/* A class's name, for the classes only counted (class_counts). */
struct so_class_name {
	char name[SO_NAME_LEN];
};

/* Indexes into the per-CPU counter array `counters`. */
enum so_counter {
	SO_CNT_EVENTS,		/* events submitted, counted in
				 * call_stripes */
	SO_CNT_RB_DROPS,	/* ring buffer full: event lost (in
				 * call_stripes) */
	SO_CNT_HELD_FULL,	/* held set full: acquisition not tracked */
	SO_CNT_EDGE_FULL,	/* edge table full: edge not counted */
	SO_CNT_TASK_FULL,	/* task table full: task not tracked */
	SO_CNT_CLASS_FULL,	/* lock-class table full */
	SO_CNT_STACK_FAIL,	/* stack not captured */
	SO_CNT_KERNFS_WRITE,	/* kernfs_fop_write_iter entries, counted
				 * in call_stripes instead */
	SO_CNT_MUTEX_CALLS,	/* mutex probe hits past the cheap check,
				 * counted in call_stripes instead */
	/* Appended: trace files written before have fewer counters. */
	SO_CNT_COUNTS_FULL,	/* class_counts full: occurrence not counted */
	/* lock_classes is an LRU table: classes it dropped to make room, at
	 * least (the loader's count, from classes_learned; see there). */
	SO_CNT_CLASS_EVICTED,
	/* chains full: the attempt counted on its edges, one by one */
	SO_CNT_CHAIN_FULL,
	SO_CNT_NR,
};

/*
 * The counters bumped on every observed call or record,
 * SO_CNT_MUTEX_CALLS, SO_CNT_KERNFS_WRITE, SO_CNT_EVENTS and
 * SO_CNT_RB_DROPS, live in .bss stripes picked by tid (an atomic add to a
 * cache line of its own) rather than in `counters`: a per-CPU array
 * look-up is a helper call on 6.1, about 100 ns a call in the guest
 * (make bench-prof).  Drops are as hot as records: a live stream whose
 * reader falls behind loses most of them.
 */
#define SO_CALL_STRIPES		64
struct so_call_stripe {
	__u64 mutex_calls;
	__u64 kernfs_writes;
	__u64 events;
	__u64 rb_drops;
	__u64 pad[4];
} __attribute__((aligned(64)));	/* no line shared with the hot .bss */
_Static_assert(sizeof(struct so_call_stripe) == 64,
	       "one stripe per cache line");

#endif /* SYSFS_OBSERVE_H */
