/* SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1 */
/*
 * Class names and ids computed in the kernel: kernfs nodes as
 * "<parent>/<name>", modules by name, mutexes by their __mutex_init name.
 */
#ifndef SO_NAMES_BPF_H
#define SO_NAMES_BPF_H

#include <bpf/bpf_core_read.h>
#include "state.bpf.h"

/* Newer kernels renamed kernfs_node.parent to __parent (v6.15, commit
 * 633488947ef6 "kernfs: Use RCU to access kernfs_node::parent"). */
struct kernfs_node___new {
	struct kernfs_node *__parent;
} __attribute__((preserve_access_index));

static __always_inline struct kernfs_node *kn_parent(struct kernfs_node *kn)
{
	struct kernfs_node___new *kn_new = (void *)kn;

	if (bpf_core_field_exists(kn_new->__parent))
		return BPF_CORE_READ(kn_new, __parent);
	return BPF_CORE_READ(kn, parent);
}

#define SO_KN_PART	31	/* bytes of each of parent and name */

/* "<parent>/<name>" into buf (SO_NAME_LEN); returns the class id. */
static __always_inline __u64 kn_class(struct kernfs_node *kn, char *buf)
{
	struct kernfs_node *parent = kn_parent(kn);
	long len = 0;

	buf[0] = 0;
	if (parent) {
		len = bpf_probe_read_kernel_str(buf, SO_KN_PART + 1,
						BPF_CORE_READ(parent, name));
		if (len > 0) {
			len--;		/* drop the NUL */
			buf[len & SO_KN_PART] = '/';
			len++;
		} else {
			len = 0;
		}
	}
	bpf_probe_read_kernel_str(buf + (len & SO_KN_PART), SO_KN_PART + 1,
				  BPF_CORE_READ(kn, name));
	return SO_CLASS_MAKE(SO_CLASS_KN, so_hash_name(buf, SO_NAME_LEN));
}

/* False when --path excludes this node (its name is in buf). */
static __always_inline bool kn_wanted(const char *buf)
{
	__u32 i;

	for (i = 0; i < sizeof(filter_path); i++) {
		if (i >= filter_path_len)
			break;
		if (buf[i] != filter_path[i])
			return false;
	}
	return true;
}

/* The copy below is as long as the kernel's name[]: never cut short. */
_Static_assert(sizeof(((struct module *)0)->name) == SO_MODULE_NAME_LEN,
	       "SO_MODULE_NAME_LEN is not this kernel's MODULE_NAME_LEN");

static __always_inline __u64 mod_class(struct module *mod, char *buf)
{
	buf[0] = 0;
	BPF_CORE_READ_STR_INTO((char (*)[SO_MODULE_NAME_LEN])buf, mod, name);
	buf[SO_NAME_LEN - 1] = 0;
	return SO_CLASS_MAKE(SO_CLASS_MOD, so_hash_name(buf, SO_NAME_LEN));
}

static __always_inline __u64 mod_class_user(const char *uname, char *buf)
{
	buf[0] = 0;
	bpf_probe_read_user_str(buf, SO_MODULE_NAME_LEN, uname);
	buf[SO_NAME_LEN - 1] = 0;
	return SO_CLASS_MAKE(SO_CLASS_MOD, so_hash_name(buf, SO_NAME_LEN));
}

/* The kernel symbol of an unnamed lock into buf ("" if none), once per
 * address (lock_syms). */
static __always_inline void lock_sym(__u64 lock, char *buf)
{
	static const char fmt[] = "%ps";
	struct so_class_name *sym;
	__u64 arg = lock;

	sym = bpf_map_lookup_elem(&lock_syms, &lock);
	if (sym) {
		name_copy(buf, sym->name);
		return;
	}
	/* "0xffff..." when no symbol covers the address: a heap lock. */
	if (bpf_snprintf(buf, SO_NAME_LEN, fmt, &arg, sizeof(arg)) < 0 ||
	    buf[0] == '0')
		buf[0] = 0;
	bpf_map_update_elem(&lock_syms, &lock, buf, BPF_ANY);
}

/*
 * A mutex's class: its __mutex_init name, rtnl, or its address (named
 * by its symbol when it has one); 0 when there is no scratch space.
 * *slot: its counts' slot when known without a look-up (a named class
 * caches it), else 0.  *name: the class's name, read in place from the
 * class table when the lock has an entry there (the hot path: no copy,
 * no scratch look-up), else written into this CPU's scratch.
 */
static __always_inline __u64 lock_class_of(__u64 lock, __u32 *slot,
					   const char **name)
{
	struct lock_class *lc;
	struct scratch *s;

	*slot = 0;
	lc = bpf_map_lookup_elem(&lock_classes, &lock);
	if (lc && lock != rtnl_mutex_addr) {
		*name = lc->name;
		if (aggregate && (!lc->slot || lc->gen != counts_gen)) {
			__u32 *known = bpf_map_lookup_elem(&class_slots,
							   &lc->class_id);

			lc->slot = known ? *known : 0;
			lc->gen = counts_gen;
		}
		*slot = lc->slot;
		return lc->class_id;
	}
	s = get_scratch();
	if (!s)
		return 0;
	*name = s->name;
	if (lock && lock == rtnl_mutex_addr) {
		__builtin_memcpy(s->name, "rtnl_mutex", 11);
		return SO_CLASS_MAKE(SO_CLASS_RTNL, 0);
	}
	lock_sym(lock, s->name);
	return SO_CLASS_MAKE(SO_CLASS_LOCK, lock);
}

/*
 * lock_class_of() for a task taking `lock`: from its lock memos when one
 * holds it, else looked up and remembered.  An unnamed lock's class is
 * remembered too: naming it later is an __mutex_init, which voids every
 * memo.  In summary mode a class is remembered with its counts' slot,
 * once it has one.
 */
static __always_inline __u64 lock_class_memo(struct so_task_state *ts,
					     __u64 lock, __u32 *slot,
					     const char **name)
{
	__u32 classes_gen = lock_classes_gen, gen = counts_gen, i, *known;
	struct so_lock_memo *m;
	__u64 class_id;

	for (i = 0; i < SO_LOCK_MEMOS; i++) {
		m = &ts->lock_memo[i];
		if (m->lock == lock && m->classes_gen == classes_gen &&
		    m->gen == gen && lock) {
			*slot = m->slot;
			*name = m->name;
			return m->class_id;
		}
	}
	class_id = lock_class_of(lock, slot, name);
	if (!class_id)
		return 0;
	if (aggregate && !*slot) {
		known = bpf_map_lookup_elem(&class_slots, &class_id);
		if (!known)
			return class_id;
		*slot = *known;
	}
	m = &ts->lock_memo[ts->lock_memo_next & (SO_LOCK_MEMOS - 1)];
	ts->lock_memo_next++;
	m->lock = lock;
	m->class_id = class_id;
	m->slot = *slot;
	m->gen = gen;
	m->classes_gen = classes_gen;
	name_copy(m->name, *name);
	return class_id;
}

#endif /* SO_NAMES_BPF_H */
