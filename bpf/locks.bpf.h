/* SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1 */
/*
 * Mutex probes (rtnl_mutex is one of them, named by its address), lock
 * class names from __mutex_init, and the lock contention tracepoints.
 * Included once, by observe.bpf.c.  mutex_lock fires tens of thousands
 * of times a run: everything below returns at once outside a context.
 */

/* `cannot_fail`: mutex_lock() and the like, not _killable (see
 * acquire_at_entry). */
static __always_inline int on_mutex_attempt(void *ctx, __u64 lock,
					    bool cannot_fail)
{
	struct so_task_state *ts;
	const char *name;
	__u64 class_id;
	__u32 slot;

	ts = task_observed();
	if (!ts)
		return 0;
	/* Only calls past the cheap check: what observing costs. */
	stripe_count(ts->tid, mutex_calls);
	class_id = lock_class_memo(ts, lock, &slot, &name);
	if (!class_id)
		return 0;
	held_attempt(ctx, ts, class_id, SO_HOLD_WRITE, name);
	if (acquire_at_entry && cannot_fail) {
		held_push(ts, class_id, lock, SO_HOLD_WRITE, name, slot,
			  bpf_ktime_get_ns());
		return 0;
	}
	/* The wait time rides on the acquisition event, which summary
	 * mode does not send (contention events time the real waits). */
	if (!aggregate)
		ts->lock_attempt_ts = bpf_ktime_get_ns();
	/* For the acquisition: the class again would be a second look-up. */
	ts->stash_obj = lock;
	ts->stash_class = class_id;
	ts->stash_slot = slot;
	name_copy(ts->stash_name, name);
	return 0;
}

static __always_inline int on_mutex_acquired(void *ctx, __u64 lock, long ret,
					     __u32 flags)
{
	struct so_task_state *ts = task_observed();
	__u64 class_id, waited = 0, now;
	const char *name;
	__u32 slot;

	if (!ts || !lock)
		return 0;
	if (ts->stash_class && ts->stash_obj == lock) {
		class_id = ts->stash_class;
		name = ts->stash_name;
		slot = ts->stash_slot;
	} else {	/* a trylock: no attempt probe */
		class_id = lock_class_of(lock, &slot, &name);
		if (!class_id)
			return 0;
	}
	ts->stash_class = 0;
	now = bpf_ktime_get_ns();
	if (!(flags & SO_EVF_TRYLOCK) && ts->lock_attempt_ts)
		waited = now - ts->lock_attempt_ts;
	ts->lock_attempt_ts = 0;
	if (ret) {
		flags |= SO_EVF_FAILED;
	} else {
		held_push(ts, class_id, lock, SO_HOLD_WRITE, name, slot, now);
		/* Summary mode: counted at the release (see there). */
		if (aggregate)
			return 0;
	}
	emit_at(ctx, now, SO_EV_LOCK_ACQUIRED, lock, class_id, waited, ret,
		name, false);
	return 0;
}

#define MUTEX_PROBES(fn, cannot_fail)					\
SEC("fentry/" #fn)							\
int BPF_PROG(fentry_##fn, struct mutex *lock)				\
{									\
	return on_mutex_attempt(ctx, (__u64)lock, cannot_fail);		\
}									\
SEC("kprobe/" #fn)							\
int BPF_KPROBE(kprobe_##fn, struct mutex *lock)				\
{									\
	return on_mutex_attempt(ctx, (__u64)lock, cannot_fail);		\
}									\
SEC("kretprobe/" #fn)							\
int BPF_KRETPROBE(kretprobe_##fn, long ret)				\
{									\
	struct so_task_state *ts = task_observed();			\
									\
	return ts ? on_mutex_acquired(ctx, ts->stash_obj, ret, 0) : 0;	\
}

MUTEX_PROBES(mutex_lock, true)
MUTEX_PROBES(mutex_lock_interruptible, false)
MUTEX_PROBES(mutex_lock_killable, false)
MUTEX_PROBES(mutex_lock_io, true)
/*
 * CONFIG_DEBUG_LOCK_ALLOC (lockdep) kernels: the plain entry points are
 * macros around these, which take a subclass (or a nest lock) as well.
 * The subclass only tells lockdep's nesting levels apart; our classes
 * are the mutex's __mutex_init name, so it is ignored.
 */
MUTEX_PROBES(mutex_lock_nested, true)
MUTEX_PROBES(mutex_lock_interruptible_nested, false)
MUTEX_PROBES(mutex_lock_killable_nested, false)
MUTEX_PROBES(mutex_lock_io_nested, true)
MUTEX_PROBES(_mutex_lock_nest_lock, true)

/* mutex_lock returns void: its fexit has no ret to name. */
SEC("fexit/mutex_lock")
int BPF_PROG(fexit_mutex_lock, struct mutex *lock)
{
	return on_mutex_acquired(ctx, (__u64)lock, 0, 0);
}

SEC("fexit/mutex_lock_interruptible")
int BPF_PROG(fexit_mutex_lock_interruptible, struct mutex *lock, int ret)
{
	return on_mutex_acquired(ctx, (__u64)lock, ret, 0);
}

SEC("fexit/mutex_lock_killable")
int BPF_PROG(fexit_mutex_lock_killable, struct mutex *lock, int ret)
{
	return on_mutex_acquired(ctx, (__u64)lock, ret, 0);
}

SEC("fexit/mutex_lock_io")
int BPF_PROG(fexit_mutex_lock_io, struct mutex *lock)
{
	return on_mutex_acquired(ctx, (__u64)lock, 0, 0);
}

SEC("fexit/mutex_lock_nested")
int BPF_PROG(fexit_mutex_lock_nested, struct mutex *lock, unsigned int sub)
{
	return on_mutex_acquired(ctx, (__u64)lock, 0, 0);
}

SEC("fexit/mutex_lock_interruptible_nested")
int BPF_PROG(fexit_mutex_lock_interruptible_nested, struct mutex *lock,
	     unsigned int sub, int ret)
{
	return on_mutex_acquired(ctx, (__u64)lock, ret, 0);
}

SEC("fexit/mutex_lock_killable_nested")
int BPF_PROG(fexit_mutex_lock_killable_nested, struct mutex *lock,
	     unsigned int sub, int ret)
{
	return on_mutex_acquired(ctx, (__u64)lock, ret, 0);
}

SEC("fexit/mutex_lock_io_nested")
int BPF_PROG(fexit_mutex_lock_io_nested, struct mutex *lock, unsigned int sub)
{
	return on_mutex_acquired(ctx, (__u64)lock, 0, 0);
}

/* The nest lock is lockdep's business: a void * spares its type. */
SEC("fexit/_mutex_lock_nest_lock")
int BPF_PROG(fexit__mutex_lock_nest_lock, struct mutex *lock, void *nest)
{
	return on_mutex_acquired(ctx, (__u64)lock, 0, 0);
}

/* A trylock never waits, so it adds no edge; it is held all the same. */
SEC("fexit/mutex_trylock")
int BPF_PROG(fexit_mutex_trylock, struct mutex *lock, int ret)
{
	return on_mutex_acquired(ctx, (__u64)lock, ret != 1,
				 SO_EVF_TRYLOCK);
}

SEC("kprobe/mutex_trylock")
int BPF_KPROBE(kprobe_mutex_trylock, struct mutex *lock)
{
	struct so_task_state *ts = task_observed();

	if (ts)
		ts->stash_obj = (__u64)lock;
	return 0;
}

SEC("kretprobe/mutex_trylock")
int BPF_KRETPROBE(kretprobe_mutex_trylock, int ret)
{
	struct so_task_state *ts = task_observed();

	return ts ? on_mutex_acquired(ctx, ts->stash_obj, ret != 1,
				      SO_EVF_TRYLOCK) : 0;
}

static __always_inline int on_mutex_unlock(void *ctx, __u64 lock)
{
	struct so_task_state *ts = task_observed();
	struct so_class_counts *cnt;
	struct so_held_entry *h;
	__u64 held_ns, class_id, now;
	int found;

	if (!ts)
		return 0;
	/*
	 * delete_module() drops module_mutex right after try_stop_module()
	 * made the module GOING; from here on its exit path runs.
	 */
	if (ts->deleting && lock == module_mutex_addr)
		ts->going = ts->deleting;
	found = held_find(ts, 0, lock);
	if (found < 0)
		return 0;
	cnt = held_counts(ts, found);
	/* Summary mode, the first release of a class: it makes the class's
	 * counts and goes out as an acquisition and a release, which name
	 * the class; every later one is counted. */
	h = &ts->held[found & (SO_HELD_MAX - 1)];
	now = bpf_ktime_get_ns();
	if (aggregate && !cnt) {
		class_counts_hit(h->class_id, h->name);
		emit_at(ctx, now, SO_EV_LOCK_ACQUIRED, lock, h->class_id, 0, 0,
			h->name, false);
	}
	/* Before held_remove(), which moves the entries h points into. */
	class_id = h->class_id;
	held_ns = held_remove(ts, found, now);
	if (cnt)
		count_hold(cnt, held_ns);
	else	/* the class too: the summary's hold times count by it */
		emit_at(ctx, now, SO_EV_LOCK_RELEASED, lock, class_id, held_ns,
			0, NULL, false);
	return 0;
}

SEC("fentry/mutex_unlock")
int BPF_PROG(fentry_mutex_unlock, struct mutex *lock)
{
	return on_mutex_unlock(ctx, (__u64)lock);
}

SEC("kprobe/mutex_unlock")
int BPF_KPROBE(kprobe_mutex_unlock, struct mutex *lock)
{
	return on_mutex_unlock(ctx, (__u64)lock);
}

/*
 * On kernels without lockdep __mutex_init still receives the stringified
 * lock expression ("&test_dev->config_mutex"): name classes as lockdep.
 */
static __always_inline int on_mutex_init(void *ctx, __u64 lock,
					 const char *name)
{
	struct scratch *s = get_scratch();
	struct lock_class *lc, *known;

	if (!s || !name)
		return 0;
	lc = &s->lock_class;
	lc->name[0] = 0;
	if (bpf_probe_read_kernel_str(lc->name, SO_NAME_LEN, name) <= 1)
		return 0;
	lc->class_id = SO_CLASS_MAKE(SO_CLASS_MUTEX,
				     so_hash_name(lc->name, SO_NAME_LEN));
	known = bpf_map_lookup_elem(&lock_classes, &lock);
	if (!known || known->class_id != lc->class_id)
		__sync_fetch_and_add(&lock_classes_gen, 1);
	if (bpf_map_update_elem(&lock_classes, &lock, lc, BPF_ANY))
		count(SO_CNT_CLASS_FULL);
	else if (!known)
		__sync_fetch_and_add(&classes_learned, 1);
	if (task_observed())
		emit(ctx, SO_EV_MUTEX_INIT, lock, lc->class_id, 0, 0,
		     lc->name, false);
	return 0;
}

SEC("fentry/__mutex_init")
int BPF_PROG(fentry___mutex_init, struct mutex *lock, const char *name)
{
	return on_mutex_init(ctx, (__u64)lock, name);
}

SEC("kprobe/__mutex_init")
int BPF_KPROBE(kprobe___mutex_init, struct mutex *lock, const char *name)
{
	return on_mutex_init(ctx, (__u64)lock, name);
}

/* include/trace/events/lock.h: not in BTF. */
#define LCB_F_MUTEX	(1U << 5)

/*
 * Wait times as the kernel itself sees them, for mutexes only (the model
 * has no other lock).  Spinlocks must stay out: bpf_ringbuf_reserve()
 * takes the ring buffer's spinlock, and when that is contended its slow
 * path fires these tracepoints inside our own program; sending an event
 * from there reserves on the same ring buffer again and spins forever on
 * the lock this CPU holds (seen as soft lockups with two writers
 * streaming).  So the begin filters on LCB_F_MUTEX and the end only
 * answers the begin its task recorded.
 */
SEC("tp_btf/contention_begin")
int BPF_PROG(tp_contention_begin, void *lock, unsigned int flags)
{
	struct so_task_state *ts;
	__u64 class_id, now;
	const char *name;
	__s32 stack_id;
	__u32 slot;

	if (!(flags & LCB_F_MUTEX))
		return 0;
	ts = task_state_lookup();
	if (!ts)
		return 0;
	/* The lock its mutex_lock() entry just looked up: the task's memo
	 * has it, and spares the class table's look-up. */
	class_id = lock_class_memo(ts, (__u64)lock, &slot, &name);
	if (!class_id)
		return 0;
	now = bpf_ktime_get_ns();
	stack_id = emit_at(ctx, now, SO_EV_CONTENTION_BEGIN, (__u64)lock,
			   class_id, flags, 0, name, wait_stacks);
	wait_begin(ts, SO_WAIT_LOCK, (__u64)lock, class_id, name, stack_id,
		   now);
	return 0;
}

SEC("tp_btf/contention_end")
int BPF_PROG(tp_contention_end, void *lock, int ret)
{
	struct so_task_state *ts = task_state_lookup();
	__u64 now;

	if (!ts || ts->wait_kind != SO_WAIT_LOCK ||
	    ts->wait_obj != (__u64)lock)
		return 0;
	wait_end(ts);
	/* Pushed at the lock call's entry: held from now on. */
	now = bpf_ktime_get_ns();
	if (acquire_at_entry) {
		int found = held_find(ts, 0, (__u64)lock);

		if (found >= 0)
			ts->held[found & (SO_HELD_MAX - 1)].ts = now;
	}
	emit_at(ctx, now, SO_EV_CONTENTION_END, (__u64)lock, 0, 0, ret, NULL,
		false);
	return 0;
}
