// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * sysfs-observe's probes (docs/design.md §3, §4).  Each kernel function has
 * an fentry/fexit pair and a kprobe/kretprobe pair doing the same work
 * through one handler; the loader keeps one pair per function (the
 * fentry one where BTF allows) and turns the other's autoload off.
 * kretprobes cannot see arguments, so their entry half stashes them in
 * the task's state.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "observe.h"
#include "state.bpf.h"
#include "held_set.bpf.h"
#include "names.bpf.h"

char LICENSE[] SEC("license") = "GPL";

/* ---- kernfs: writes, active references, drains ---------------------- */

#define KN_DEACTIVATED_BIAS	(-2147483647 - 1)	/* fs/kernfs */

/*
 * `btf`: iocb is a BTF pointer (fentry), read in place; a kprobe's is a
 * number, read through the helper.  A constant at each call site, so
 * each program keeps one branch.
 */
static __always_inline int on_write_entry(void *ctx, struct kiocb *iocb,
					  struct iov_iter *iter, bool btf)
{
	struct kernfs_open_file *of;
	struct so_task_state *ts;
	struct kernfs_node *kn;
	struct seq_file *sf;
	__u64 kn_id, id;

	id = bpf_get_current_pid_tgid();
	stripe_count((__u32)id, kernfs_writes);
	ts = context_enter_id(id);
	if (!ts)
		return 0;
	/*
	 * The node written, and whether it is the one named last time.  A
	 * kernfs inode's number is its node's id (kernfs_ino(), 64-bit
	 * ino_t), which no other node ever gets: with BTF it is read in
	 * place, and a task writing the node it wrote last (the hot path)
	 * skips the three reads through the open file.
	 */
	kn = NULL;
	if (btf) {
		kn_id = iocb->ki_filp->f_inode->i_ino;
		if (ts->named_kn && kn_id == ts->named_kn_id)
			kn = (struct kernfs_node *)ts->named_kn;
	}
	if (!kn) {
		/* kernfs_of(): the file's seq_file carries the open file. */
		if (btf)
			sf = iocb->ki_filp->private_data;
		else
			sf = BPF_CORE_READ(iocb, ki_filp, private_data);
		of = BPF_CORE_READ(sf, private);
		kn = BPF_CORE_READ(of, kn);
		kn_id = BPF_CORE_READ(kn, id);
	}
	if ((__u64)kn != ts->named_kn || kn_id != ts->named_kn_id) {
		ts->named_kn = 0;
		ts->write_slot = 0;
		ts->write_class = kn_class(kn, ts->write_name);
		if (!kn_wanted(ts->write_name))
			return 0;	/* counted as a context, not shown */
		ts->named_kn = (__u64)kn;
		ts->named_kn_id = kn_id;
	}
	ts->write_kn = (__u64)kn;
	ts->write_ts = bpf_ktime_get_ns();	/* the begin's time too */
	/* Summary mode counts a write that succeeds, and decides now, so
	 * that a write is either a begin/end pair or nothing but counts. */
	if (!ts->write_slot || ts->write_gen != counts_gen) {
		ts->write_slot = class_slot(ts->write_class, ts->write_name);
		ts->write_gen = counts_gen;
	}
	ts->write_counted = aggregate && ts->write_slot;
	if (!ts->write_counted)
		emit_at(ctx, ts->write_ts, SO_EV_KN_WRITE_BEGIN, (__u64)kn,
			ts->write_class,
			btf ? iter->count : BPF_CORE_READ(iter, count), 0,
			ts->write_name, false);
	return 0;
}

/* Summary mode: a successful write is only counted; false if it cannot
 * be (it failed: errors are events), and then it is sent alone. */
static __always_inline bool write_counted(struct so_task_state *ts, long ret,
					  __u64 ns)
{
	struct so_class_counts *cnt;

	if (ret < 0)
		return false;
	cnt = slot_counts(ts->write_slot);
	if (!cnt)
		return false;
	if (!cnt->writes || ns < cnt->write_ns_min)
		cnt->write_ns_min = ns;
	if (ns > cnt->write_ns_max)
		cnt->write_ns_max = ns;
	cnt->writes++;
	cnt->write_bytes += ret;
	cnt->write_ns_total += ns;
	return true;
}

/* The end of a write whose begin was not sent: it names its class. */
static __always_inline void write_end_alone(struct so_task_state *ts, long ret,
					    __u64 ns, __u64 now)
{
	struct so_event *ev;

	ev = event_reserve(SO_EV_KN_WRITE_END, now);
	if (!ev)
		return;
	ev->obj = ts->write_kn;
	ev->class_id = kn_class((struct kernfs_node *)ts->write_kn, ev->name);
	ev->arg = ns;
	ev->ret = ret;
	ev->flags = SO_EVF_ALONE;
	event_submit(ev, sizeof(*ev));
}

static __always_inline int on_write_exit(void *ctx, long ret)
{
	struct so_task_state *ts = task_observed();
	__u64 ns, now;

	if (!ts)
		return 0;
	if (ts->write_kn) {
		now = bpf_ktime_get_ns();
		ns = now - ts->write_ts;
		if (!ts->write_counted)
			emit_at(ctx, now, SO_EV_KN_WRITE_END, ts->write_kn, 0,
				ns, ret, NULL, false);
		else if (!write_counted(ts, ret, ns))
			write_end_alone(ts, ret, ns, now);
	}
	ts->write_kn = 0;
	ts->write_counted = 0;
	context_exit(ts);
	return 0;
}

SEC("fentry/kernfs_fop_write_iter")
int BPF_PROG(fentry_kernfs_fop_write_iter, struct kiocb *iocb,
	     struct iov_iter *iter)
{
	return on_write_entry(ctx, iocb, iter, true);
}

SEC("fexit/kernfs_fop_write_iter")
int BPF_PROG(fexit_kernfs_fop_write_iter, struct kiocb *iocb,
	     struct iov_iter *iter, long ret)
{
	return on_write_exit(ctx, ret);
}

SEC("kprobe/kernfs_fop_write_iter")
int BPF_KPROBE(kprobe_kernfs_fop_write_iter, struct kiocb *iocb,
	       struct iov_iter *iter)
{
	return on_write_entry(ctx, iocb, iter, false);
}

SEC("kretprobe/kernfs_fop_write_iter")
int BPF_KRETPROBE(kretprobe_kernfs_fop_write_iter, long ret)
{
	return on_write_exit(ctx, ret);
}

#define SYSFS_MAGIC	0x62656572	/* include/uapi/linux/magic.h */

/*
 * Reads are a context too: show() runs under an active reference, and a
 * show() that takes a lock the removal path holds while draining is the
 * read half of the same deadlock.  But only sysfs reads, where drivers'
 * show()s live: kernfs also serves cgroupfs, which daemons read all the
 * time, and each such read made every mutex of the system pay the slow
 * path for its duration while finding nothing this tool is for.  Watched
 * processes keep every read.  `reads` pairs the exit with an entry that
 * was a context, so a skipped read never ends someone else's context.
 */
static __always_inline bool read_observed(struct kiocb *iocb)
{
	if (observe_all || BPF_CORE_READ(iocb, ki_filp, f_inode, i_sb,
					 s_magic) == SYSFS_MAGIC)
		return true;
	return tgid_watched(current_tgid());
}

static __always_inline int on_read_entry(struct kiocb *iocb)
{
	struct so_task_state *ts;

	if (!read_observed(iocb))
		return 0;
	ts = context_enter();
	if (ts)
		ts->reads++;
	return 0;
}

static __always_inline int on_read_exit(void)
{
	struct so_task_state *ts = task_observed();

	if (!ts || !ts->reads)
		return 0;
	ts->reads--;
	context_exit(ts);
	return 0;
}

SEC("fentry/kernfs_fop_read_iter")
int BPF_PROG(fentry_kernfs_fop_read_iter, struct kiocb *iocb)
{
	return on_read_entry(iocb);
}

SEC("fexit/kernfs_fop_read_iter")
int BPF_PROG(fexit_kernfs_fop_read_iter)
{
	return on_read_exit();
}

SEC("kprobe/kernfs_fop_read_iter")
int BPF_KPROBE(kprobe_kernfs_fop_read_iter, struct kiocb *iocb)
{
	return on_read_entry(iocb);
}

SEC("kretprobe/kernfs_fop_read_iter")
int BPF_KRETPROBE(kretprobe_kernfs_fop_read_iter)
{
	return on_read_exit();
}

static __always_inline int on_get_active_exit(void *ctx,
					      struct kernfs_node *kn,
					      bool got)
{
	struct so_task_state *ts = task_observed();
	struct so_class_counts *cnt;
	const char *name;
	struct scratch *s;
	__u64 class_id, now;
	__u32 slot = 0;

	if (!ts || !kn)
		return 0;
	/* The node being written: its name, class and counts are known. */
	if ((__u64)kn == ts->write_kn) {
		class_id = ts->write_class;
		name = ts->write_name;
		if (ts->write_counted)
			slot = ts->write_slot;
	} else {
		s = get_scratch();
		if (!s)
			return 0;
		class_id = kn_class(kn, s->name);
		if (!kn_wanted(s->name))
			return 0;
		name = s->name;
	}
	now = bpf_ktime_get_ns();
	if (got) {
		held_attempt(ctx, ts, class_id, SO_HOLD_READ, name);
		if (!slot)
			slot = class_slot(class_id, name);
		held_push(ts, class_id, (__u64)kn, SO_HOLD_READ, name, slot,
			  now);
		cnt = slot_counts(slot);
		if (cnt) {
			cnt->kn_gets++;
			return 0;
		}
	}
	emit_at(ctx, now, SO_EV_KN_GET_ACTIVE, (__u64)kn, class_id, 0, got,
		name, false);
	return 0;
}

SEC("fexit/kernfs_get_active")
int BPF_PROG(fexit_kernfs_get_active, struct kernfs_node *kn,
	     struct kernfs_node *ret)
{
	return on_get_active_exit(ctx, kn, ret != NULL);
}

SEC("kprobe/kernfs_get_active")
int BPF_KPROBE(kprobe_kernfs_get_active, struct kernfs_node *kn)
{
	struct so_task_state *ts = task_observed();

	if (ts)
		ts->stash_obj = (__u64)kn;
	return 0;
}

SEC("kretprobe/kernfs_get_active")
int BPF_KRETPROBE(kretprobe_kernfs_get_active, struct kernfs_node *ret)
{
	struct so_task_state *ts = task_observed();

	if (!ts)
		return 0;
	return on_get_active_exit(ctx, (void *)ts->stash_obj, ret != NULL);
}

static __always_inline int on_put_active(void *ctx, struct kernfs_node *kn)
{
	struct so_task_state *ts = task_observed();
	struct so_class_counts *cnt;
	__u64 held_ns, now;
	int found;

	if (!ts || !kn)
		return 0;
	found = held_find(ts, 0, (__u64)kn);
	if (found < 0)
		return 0;
	cnt = held_counts(ts, found);
	now = bpf_ktime_get_ns();
	held_ns = held_remove(ts, found, now);
	if (cnt) {
		cnt->kn_puts++;
		count_hold(cnt, held_ns);
		return 0;
	}
	emit_at(ctx, now, SO_EV_KN_PUT_ACTIVE, (__u64)kn, 0, held_ns, 0, NULL,
		false);
	return 0;
}

SEC("fentry/kernfs_put_active")
int BPF_PROG(fentry_kernfs_put_active, struct kernfs_node *kn)
{
	return on_put_active(ctx, kn);
}

SEC("kprobe/kernfs_put_active")
int BPF_KPROBE(kprobe_kernfs_put_active, struct kernfs_node *kn)
{
	return on_put_active(ctx, kn);
}

/*
 * Entering kernfs_drain() is the write-side attempt whether or not it then
 * waits (docs/design.md §3): it returns early when nobody holds a reference.
 */
static __always_inline int on_drain_entry(void *ctx, struct kernfs_node *kn)
{
	struct so_task_state *ts = task_observed();
	struct scratch *s;
	__u64 class_id, now;
	__s32 stack_id;
	int active;

	if (!ts || !kn)
		return 0;
	s = get_scratch();
	if (!s)
		return 0;
	class_id = kn_class(kn, s->name);
	if (!kn_wanted(s->name))
		return 0;
	held_attempt(ctx, ts, class_id, SO_HOLD_WRITE, s->name);
	/* Deactivation added KN_DEACTIVATED_BIAS (INT_MIN): what is left
	 * are the holders the drain waits for. */
	active = BPF_CORE_READ(kn, active.counter);
	if (active < 0)
		active -= KN_DEACTIVATED_BIAS;
	now = bpf_ktime_get_ns();
	stack_id = emit_at(ctx, now, SO_EV_KN_DRAIN_BEGIN, (__u64)kn,
			   class_id, (__u32)active, 0, s->name, true);
	wait_begin(ts, SO_WAIT_DRAIN, (__u64)kn, class_id, s->name, stack_id,
		   now);
	return 0;
}

static __always_inline int on_drain_exit(void *ctx, struct kernfs_node *kn)
{
	struct so_task_state *ts = task_observed();

	__u64 since;

	if (!ts)
		return 0;
	since = ts->wait_kind == SO_WAIT_DRAIN ? ts->wait_ts : 0;
	if (ts->wait_kind == SO_WAIT_DRAIN)
		wait_end(ts);
	emit(ctx, SO_EV_KN_DRAIN_END, (__u64)kn, 0,
	     since ? bpf_ktime_get_ns() - since : 0, 0, NULL, false);
	return 0;
}

SEC("fentry/kernfs_drain")
int BPF_PROG(fentry_kernfs_drain, struct kernfs_node *kn)
{
	return on_drain_entry(ctx, kn);
}

SEC("fexit/kernfs_drain")
int BPF_PROG(fexit_kernfs_drain, struct kernfs_node *kn)
{
	return on_drain_exit(ctx, kn);
}

SEC("kprobe/kernfs_drain")
int BPF_KPROBE(kprobe_kernfs_drain, struct kernfs_node *kn)
{
	struct so_task_state *ts = task_observed();

	if (ts)
		ts->stash_obj = (__u64)kn;
	return on_drain_entry(ctx, kn);
}

SEC("kretprobe/kernfs_drain")
int BPF_KRETPROBE(kretprobe_kernfs_drain)
{
	struct so_task_state *ts = task_observed();

	return ts ? on_drain_exit(ctx, (void *)ts->stash_obj) : 0;
}

/* ---- kernfs knobs: where a write waits (kernfs/patches) -------------- */

/*
 * The patch's knob state, for the wait event to say which wait points
 * were enabled and how long the writer sleeps after the completion: read
 * in the kernel at the moment of the wait, so a trace carries it and a
 * knob changed later cannot mislabel it.  Not in the stock BTF; these
 * flavours relocate against the knob kernel's, the only one where the
 * programs using them load.
 */
struct kernfs_fop_write_iter_fail___so {
	bool wait_at_start;
	bool wait_before_mutex;
	bool wait_after_mutex;
	bool wait_after_active;
} __attribute__((preserve_access_index));

struct kernfs_config_fail___so {
	struct kernfs_fop_write_iter_fail___so kernfs_fop_write_iter_fail;
	__u32 sleep_after_wait_ms;
} __attribute__((preserve_access_index));

static __always_inline __u32 knob_point_mask(struct kernfs_config_fail___so *c)
{
	struct kernfs_fop_write_iter_fail___so *w =
		&c->kernfs_fop_write_iter_fail;
	__u32 mask = 0;
	bool on;

	on = false;
	bpf_core_read(&on, sizeof(on), &w->wait_at_start);
	mask |= on << SO_KNOB_AT_START;
	on = false;
	bpf_core_read(&on, sizeof(on), &w->wait_before_mutex);
	mask |= on << SO_KNOB_BEFORE_MUTEX;
	on = false;
	bpf_core_read(&on, sizeof(on), &w->wait_after_mutex);
	mask |= on << SO_KNOB_AFTER_MUTEX;
	on = false;
	bpf_core_read(&on, sizeof(on), &w->wait_after_active);
	mask |= on << SO_KNOB_AFTER_ACTIVE;
	return mask;
}

static __always_inline int on_knob_wait_entry(void *ctx)
{
	struct kernfs_config_fail___so *cfg = (void *)knob_config_addr;
	struct so_task_state *ts = task_observed();
	struct so_event *ev;
	__u32 sleep_ms = 0;

	/* No write_kn: a write --path filtered out, not shown either. */
	if (!ts || !ts->write_kn)
		return 0;
	ts->knob_ts = bpf_ktime_get_ns();
	if (!emit_events)
		return 0;
	ev = event_reserve(SO_EV_KNOB_WAIT, ts->knob_ts);
	if (!ev)
		return 0;
	ev->obj = ts->write_kn;
	ev->class_id = ts->write_class;
	if (cfg) {
		bpf_core_read(&sleep_ms, sizeof(sleep_ms),
			      &cfg->sleep_after_wait_ms);
		ev->arg = sleep_ms;
		ev->ret = knob_point_mask(cfg);
		ev->flags = SO_EVF_KNOB_STATE;
	}
	event_submit(ev, sizeof(*ev));
	return 0;
}

static __always_inline int on_knob_wait_exit(void *ctx)
{
	struct so_task_state *ts = task_observed();
	__u64 completed = knob_completed_ns;
	struct so_event *ev;

	if (!ts || !ts->write_kn || !ts->knob_ts || !emit_events)
		return 0;
	ev = event_reserve(SO_EV_KNOB_WAKE, bpf_ktime_get_ns());
	if (!ev)
		return 0;
	ev->obj = ts->write_kn;
	ev->class_id = ts->write_class;
	ev->arg = ev->ts_ns - ts->knob_ts;
	/* An earlier completion woke an earlier wait, not this one. */
	ev->ret = completed >= ts->knob_ts ? completed : 0;
	ev->flags = knob_completion_addr ? SO_EVF_KNOB_SEEN : 0;
	ts->knob_ts = 0;
	event_submit(ev, sizeof(*ev));
	return 0;
}

SEC("fentry/kernfs_debug_wait")
int BPF_PROG(fentry_kernfs_debug_wait)
{
	return on_knob_wait_entry(ctx);
}

SEC("fexit/kernfs_debug_wait")
int BPF_PROG(fexit_kernfs_debug_wait)
{
	return on_knob_wait_exit(ctx);
}

SEC("kprobe/kernfs_debug_wait")
int BPF_KPROBE(kprobe_kernfs_debug_wait)
{
	return on_knob_wait_entry(ctx);
}

SEC("kretprobe/kernfs_debug_wait")
int BPF_KRETPROBE(kretprobe_kernfs_debug_wait)
{
	return on_knob_wait_exit(ctx);
}

/*
 * complete() runs everywhere: the address compare comes first.  The
 * timestamp is kept for whoever completes, the event only for tasks in
 * context (the test module's rmmod).
 */
static __always_inline int on_complete(void *ctx, struct completion *x)
{
	struct so_task_state *ts;

	if (!knob_completion_addr || (__u64)x != knob_completion_addr)
		return 0;
	knob_completed_ns = bpf_ktime_get_ns();
	ts = task_observed();
	if (ts)
		emit(ctx, SO_EV_KNOB_COMPLETE, (__u64)x, 0, 0, 0, NULL,
		     false);
	return 0;
}

SEC("fentry/complete")
int BPF_PROG(fentry_complete, struct completion *x)
{
	return on_complete(ctx, x);
}

SEC("kprobe/complete")
int BPF_KPROBE(kprobe_complete, struct completion *x)
{
	return on_complete(ctx, x);
}

/* ---- module references: the gates ----------------------------------- */

static __always_inline int on_try_module_get_exit(void *ctx,
						  struct module *mod, bool got)
{
	struct so_class_counts *cnt;
	struct so_task_state *ts;
	struct scratch *s;
	__u64 class_id, now;

	if (!mod)	/* very common: built-in code passes NULL */
		return 0;
	ts = task_observed();
	if (!ts)
		return 0;
	s = get_scratch();
	if (!s)
		return 0;
	class_id = mod_class(mod, s->name);
	if (filter_mod_class && class_id != filter_mod_class)
		return 0;
	now = bpf_ktime_get_ns();
	if (got) {
		held_push(ts, class_id, (__u64)mod, SO_HOLD_READ, s->name, 0,
			  now);
		cnt = class_counts_hit(class_id, s->name);
		if (cnt) {
			cnt->mod_gets++;
			return 0;
		}
	}
	emit_at(ctx, now, SO_EV_MOD_GET, (__u64)mod, class_id, 0, got,
		s->name, false);
	return 0;
}

SEC("fexit/try_module_get")
int BPF_PROG(fexit_try_module_get, struct module *mod, bool ret)
{
	return on_try_module_get_exit(ctx, mod, ret);
}

SEC("kprobe/try_module_get")
int BPF_KPROBE(kprobe_try_module_get, struct module *mod)
{
	struct so_task_state *ts;

	if (!mod)
		return 0;
	ts = task_observed();
	if (ts)
		ts->stash_obj = (__u64)mod;
	return 0;
}

SEC("kretprobe/try_module_get")
int BPF_KRETPROBE(kretprobe_try_module_get, bool ret)
{
	struct so_task_state *ts = task_observed();

	if (!ts || !ts->stash_obj)
		return 0;
	on_try_module_get_exit(ctx, (void *)ts->stash_obj, ret);
	ts->stash_obj = 0;
	return 0;
}

static __always_inline int on_module_put(void *ctx, struct module *mod)
{
	struct so_class_counts *cnt;
	struct so_task_state *ts;
	int found;
	struct scratch *s;
	__u64 class_id, now;

	if (!mod)
		return 0;
	ts = task_observed();
	if (!ts)
		return 0;
	s = get_scratch();
	if (!s)
		return 0;
	class_id = mod_class(mod, s->name);
	if (filter_mod_class && class_id != filter_mod_class)
		return 0;
	found = held_find(ts, 0, (__u64)mod);
	cnt = found < 0 ? NULL : held_counts(ts, found);
	now = bpf_ktime_get_ns();
	if (found >= 0)
		held_remove(ts, found, now);
	if (cnt) {
		cnt->mod_puts++;
		return 0;
	}
	emit_at(ctx, now, SO_EV_MOD_PUT, (__u64)mod, class_id, 0, 0, s->name,
		false);
	return 0;
}

SEC("fentry/module_put")
int BPF_PROG(fentry_module_put, struct module *mod)
{
	return on_module_put(ctx, mod);
}

SEC("kprobe/module_put")
int BPF_KPROBE(kprobe_module_put, struct module *mod)
{
	return on_module_put(ctx, mod);
}

/* ---- module load and removal ---------------------------------------- */

static __always_inline int on_finit_entry(void *ctx)
{
	struct so_task_state *ts = context_enter();

	if (!ts)
		return 0;
	ts->load_ts = bpf_ktime_get_ns();
	emit(ctx, SO_EV_MOD_LOAD_BEGIN, 0, 0, 0, 0, NULL, false);
	return 0;
}

static __always_inline int on_finit_exit(void *ctx, long ret)
{
	struct so_task_state *ts = task_observed();

	if (!ts)
		return 0;
	emit(ctx, SO_EV_MOD_LOAD_END, 0, 0, bpf_ktime_get_ns() - ts->load_ts,
	     ret, NULL, false);
	context_exit(ts);
	return 0;
}

/*
 * A syscall's entry point is named for the architecture (__x64_sys_,
 * __arm64_sys_, ...), so these sections name no function.  The kprobes
 * are ksyscall ones: libbpf finds the prefix when it attaches them.  The
 * fentry programs get their target from the loader before load
 * (bpf_program__set_attach_target), from the probe table's row, which
 * has the prefix of the architecture the loader was built for.  Both
 * take the wrapper's pt_regs, as every architecture with a prefix does.
 */
SEC("fentry")
int BPF_PROG(fentry_sys_finit_module)
{
	return on_finit_entry(ctx);
}

SEC("fexit")
int BPF_PROG(fexit_sys_finit_module, const struct pt_regs *regs, long ret)
{
	return on_finit_exit(ctx, ret);
}

/* No argument read: BPF_KSYSCALL would find the wrapper's regs unused. */
SEC("ksyscall/finit_module")
int BPF_KPROBE(kprobe_sys_finit_module)
{
	return on_finit_entry(ctx);
}

SEC("kretsyscall/finit_module")
int BPF_KRETPROBE(kretprobe_sys_finit_module, long ret)
{
	return on_finit_exit(ctx, ret);
}

static __always_inline int on_delete_entry(void *ctx, const char *uname)
{
	struct so_task_state *ts = context_enter();
	struct scratch *s = get_scratch();
	__u64 class_id;

	if (!ts || !s)
		return 0;
	class_id = mod_class_user(uname, s->name);
	ts->deleting = class_id;
	ts->going = 0;
	ts->load_ts = bpf_ktime_get_ns();
	emit(ctx, SO_EV_MOD_DELETE_BEGIN, 0, class_id, 0, 0, s->name, false);
	return 0;
}

static __always_inline int on_delete_exit(void *ctx, long ret)
{
	struct so_task_state *ts = task_observed();

	if (!ts)
		return 0;
	emit(ctx, SO_EV_MOD_DELETE_END, 0, ts->deleting,
	     bpf_ktime_get_ns() - ts->load_ts, ret, NULL, false);
	ts->deleting = 0;
	ts->going = 0;
	context_exit(ts);
	return 0;
}

/* Sections without a function: see the finit_module ones above. */
SEC("fentry")
int BPF_PROG(fentry_sys_delete_module, const struct pt_regs *regs)
{
	return on_delete_entry(ctx,
			       (const char *)PT_REGS_PARM1_CORE_SYSCALL(regs));
}

SEC("fexit")
int BPF_PROG(fexit_sys_delete_module, const struct pt_regs *regs, long ret)
{
	return on_delete_exit(ctx, ret);
}

SEC("ksyscall/delete_module")
int BPF_KSYSCALL(kprobe_sys_delete_module, const char *name_user)
{
	return on_delete_entry(ctx, name_user);
}

SEC("kretsyscall/delete_module")
int BPF_KRETPROBE(kretprobe_sys_delete_module, long ret)
{
	return on_delete_exit(ctx, ret);
}

/* ---- device removal ------------------------------------------------- */

/*
 * del_gendisk() and misc_deregister() are device removal contexts: the
 * same begin/end events, each with its device's name and its own start
 * time (one device's removal may run inside another's).
 */
_Static_assert(sizeof(((struct gendisk *)0)->disk_name) == SO_DISK_NAME_LEN,
	       "SO_DISK_NAME_LEN is not this kernel's DISK_NAME_LEN");

static __always_inline int on_removal_entry(void *ctx, __u32 type, void *dev,
					    bool misc)
{
	struct so_task_state *ts = context_enter();
	struct scratch *s = get_scratch();

	if (!ts || !s)
		return 0;
	s->name[0] = 0;
	if (misc) {
		ts->misc_ts = bpf_ktime_get_ns();
		bpf_probe_read_kernel_str(s->name, SO_DISK_NAME_LEN,
			BPF_CORE_READ((struct miscdevice *)dev, name));
	} else {
		ts->gendisk_ts = bpf_ktime_get_ns();
		BPF_CORE_READ_STR_INTO((char (*)[SO_DISK_NAME_LEN])s->name,
				       (struct gendisk *)dev, disk_name);
	}
	emit(ctx, type, (__u64)dev, 0, 0, 0, s->name, false);
	return 0;
}

static __always_inline int on_removal_exit(void *ctx, __u32 type, bool misc)
{
	struct so_task_state *ts = task_observed();

	if (!ts)
		return 0;
	emit(ctx, type, 0, 0, bpf_ktime_get_ns() -
	     (misc ? ts->misc_ts : ts->gendisk_ts), 0, NULL, false);
	context_exit(ts);
	return 0;
}

static __always_inline int on_del_gendisk_entry(void *ctx,
						struct gendisk *disk)
{
	return on_removal_entry(ctx, SO_EV_DEL_GENDISK_BEGIN, disk, false);
}

static __always_inline int on_del_gendisk_exit(void *ctx)
{
	return on_removal_exit(ctx, SO_EV_DEL_GENDISK_END, false);
}

SEC("fentry/del_gendisk")
int BPF_PROG(fentry_del_gendisk, struct gendisk *disk)
{
	return on_del_gendisk_entry(ctx, disk);
}

SEC("fexit/del_gendisk")
int BPF_PROG(fexit_del_gendisk)
{
	return on_del_gendisk_exit(ctx);
}

SEC("kprobe/del_gendisk")
int BPF_KPROBE(kprobe_del_gendisk, struct gendisk *disk)
{
	return on_del_gendisk_entry(ctx, disk);
}

SEC("kretprobe/del_gendisk")
int BPF_KRETPROBE(kretprobe_del_gendisk)
{
	return on_del_gendisk_exit(ctx);
}

static __always_inline int on_misc_dereg_entry(void *ctx,
					       struct miscdevice *misc)
{
	return on_removal_entry(ctx, SO_EV_MISC_DEREG_BEGIN, misc, true);
}

static __always_inline int on_misc_dereg_exit(void *ctx)
{
	return on_removal_exit(ctx, SO_EV_MISC_DEREG_END, true);
}

SEC("fentry/misc_deregister")
int BPF_PROG(fentry_misc_deregister, struct miscdevice *misc)
{
	return on_misc_dereg_entry(ctx, misc);
}

SEC("fexit/misc_deregister")
int BPF_PROG(fexit_misc_deregister)
{
	return on_misc_dereg_exit(ctx);
}

SEC("kprobe/misc_deregister")
int BPF_KPROBE(kprobe_misc_deregister, struct miscdevice *misc)
{
	return on_misc_dereg_entry(ctx, misc);
}

SEC("kretprobe/misc_deregister")
int BPF_KRETPROBE(kretprobe_misc_deregister)
{
	return on_misc_dereg_exit(ctx);
}

/* debugfs writes (reset_first_test_dev) remove devices under locks. */
static __always_inline int on_debugfs_write_entry(void)
{
	context_enter();
	return 0;
}

static __always_inline int on_debugfs_write_exit(void)
{
	struct so_task_state *ts = task_observed();

	if (ts)
		context_exit(ts);
	return 0;
}

SEC("fentry/full_proxy_write")
int BPF_PROG(fentry_full_proxy_write)
{
	return on_debugfs_write_entry();
}

SEC("fexit/full_proxy_write")
int BPF_PROG(fexit_full_proxy_write)
{
	return on_debugfs_write_exit();
}

SEC("kprobe/full_proxy_write")
int BPF_KPROBE(kprobe_full_proxy_write)
{
	return on_debugfs_write_entry();
}

SEC("kretprobe/full_proxy_write")
int BPF_KRETPROBE(kretprobe_full_proxy_write)
{
	return on_debugfs_write_exit();
}

#include "locks.bpf.h"

/* Children of watched processes are watched: the runner's writers and
 * module loops, the shells a --attach command starts. */
SEC("tp_btf/sched_process_fork")
int BPF_PROG(tp_sched_process_fork, struct task_struct *parent,
	     struct task_struct *child)
{
	__u32 ptgid, ctgid;
	__u8 one = 1;

	if (!nr_watched)
		return 0;
	ptgid = BPF_CORE_READ(parent, tgid);
	ctgid = BPF_CORE_READ(child, tgid);
	if (ptgid != ctgid && bpf_map_lookup_elem(&watch_tgids, &ptgid) &&
	    !bpf_map_update_elem(&watch_tgids, &ctgid, &one, BPF_NOEXIST))
		__sync_fetch_and_add(&nr_watched, 1);
	return 0;
}

/*
 * A task's state goes with the task, and a process stops being watched
 * when its leader exits: otherwise both tables only grow (1000 writers a
 * burst in 0008).
 */
SEC("tp_btf/sched_process_exit")
int BPF_PROG(tp_sched_process_exit, struct task_struct *task)
{
	struct so_task_state *ts;
	__u32 tid, tgid;

	if (!nr_entries && !nr_watched)
		return 0;
	tid = BPF_CORE_READ(task, pid);
	tgid = BPF_CORE_READ(task, tgid);
	ts = task_find(tid);
	if (ts && ts->wait_kind)	/* killed in a wait */
		wait_end(ts);
	if (ts) {
		chain_flush_all(ts);
		task_delete(tid, ts);
	}
	if (tid == tgid && nr_watched &&
	    !bpf_map_delete_elem(&watch_tgids, &tgid))
		__sync_fetch_and_sub(&nr_watched, 1);
	return 0;
}

/* ---- a blocked task's stack, read when a deadlock is found ------------ */

/* Whose stack the next read of the iterator gives (user space sets it). */
volatile __u32 stack_tid;
/* Too big for the program's stack; one read runs at a time. */
__u64 task_stack_buf[SO_KSTACK_DEPTH];

/*
 * Live, no stack is taken when a task starts to wait on a mutex (see
 * wait_stacks): under TCG the unwind was 13.5 us of every contention with
 * two writers, for a stack only a deadlock report prints.  A task in a
 * deadlock stays where it waits, so its stack is read then, from here:
 * the same frames, paid once per report instead of once per wait.  Only
 * while the task's state still says it waits: one that got going again
 * in the meantime gives no stack rather than one from elsewhere.
 */
SEC("iter/task")
int iter_task_stack(struct bpf_iter__task *ctx)
{
	struct task_struct *task = ctx->task;
	struct so_task_state *ts;
	long len;

	if (!task || task->pid != stack_tid)
		return 0;
	ts = task_find(stack_tid);
	if (!ts || !ts->wait_kind)
		return 0;
	/* The helper zeroes what the frames leave of the buffer: all of it
	 * goes, and the reader stops at the first zero. */
	len = bpf_get_task_stack(task, task_stack_buf, sizeof(task_stack_buf),
				 0);
	if (len > 0)
		bpf_seq_write(ctx->meta->seq, task_stack_buf,
			      sizeof(task_stack_buf));
	return 0;
}
