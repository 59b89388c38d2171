// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * The probe table: one row per kernel function or tracepoint.
 */
#include "kernel/probes.h"

#define P(fn, req, what) { #fn, req, false, #fn, what, NULL, NULL, false }
/*
 * A lock function that cannot fail: its entry acquires what it names, so
 * summary mode needs no exit program on it (see acquire_at_entry).
 */
#define LOCK(fn, what) { #fn, false, false, #fn, what, NULL, NULL, true }
#define TP(tp, what) { #tp, false, true, #tp, what, NULL, NULL, false }
/* The kernfs knob kernel's (kernfs/patches): its wait function. */
#define KNOB(fn, what) \
	{ #fn, false, false, #fn, what, "kernfs_debug_wait", NULL, false }
/*
 * A syscall's entry point is named for the architecture the kernel was
 * built for (arch/<arch>/include/asm/syscall_wrapper.h): this binary's,
 * which runs on it.  The prefixes are libbpf's for ksyscall programs
 * (arch_specific_syscall_pfx()), so a row's fentry and kprobe programs
 * find the same function; the programs are <kind>_sys_<name> on every
 * architecture, the fentry ones get the row's target at load.
 */
#if defined(__x86_64__)
#define SYSCALL_PREFIX "__x64_sys_"
#elif defined(__i386__)
#define SYSCALL_PREFIX "__ia32_sys_"
#elif defined(__s390x__)
#define SYSCALL_PREFIX "__s390x_sys_"
#elif defined(__s390__)
#define SYSCALL_PREFIX "__s390_sys_"
#elif defined(__arm__)
#define SYSCALL_PREFIX "__arm_sys_"
#elif defined(__aarch64__)
#define SYSCALL_PREFIX "__arm64_sys_"
#elif defined(__mips__)
#define SYSCALL_PREFIX "__mips_sys_"
#elif defined(__riscv)
#define SYSCALL_PREFIX "__riscv_sys_"
#elif defined(__powerpc__)
#define SYSCALL_PREFIX "__powerpc_sys_"
#else
#error "no syscall prefix for this architecture: add libbpf's one here"
#endif
#define SYSCALL(name, what) \
	{ SYSCALL_PREFIX #name, false, false, "sys_" #name, what, NULL, NULL, \
	  false }
/* DEBUG_LOCK_ALLOC kernels' (lockdep's) mutex entry points. */
#define NESTED(fn, plain, what) \
	{ #fn, false, false, #fn, what, NULL, #plain, false }
#define NESTED_LOCK(fn, plain, what) \
	{ #fn, false, false, #fn, what, NULL, #plain, true }

const struct probe_def so_probe_defs[] = {
	P(kernfs_fop_write_iter, true, "sysfs writes and their contexts"),
	P(kernfs_get_active, true, "kernfs active references (read side)"),
	P(try_module_get, true, "module references: every cycle looks ungated"),
	P(del_gendisk, true, "block device removal contexts"),
	P(kernfs_put_active, false, "active reference releases: holds never end"),
	P(kernfs_drain, false, "drains (write side of kn classes): no kn cycles"),
	P(kernfs_fop_read_iter, false, "sysfs reads as observed contexts"),
	P(module_put, false, "module reference releases"),
	SYSCALL(finit_module, "module load contexts"),
	SYSCALL(delete_module, "module removal contexts, GOING"),
	P(misc_deregister, false, "misc device removal contexts"),
	P(full_proxy_write, false, "debugfs writes as observed contexts"),
	LOCK(mutex_lock, "mutex order edges"),
	P(mutex_lock_interruptible, false, "interruptible mutex edges"),
	P(mutex_lock_killable, false, "killable mutex edges"),
	LOCK(mutex_lock_io, "I/O mutex edges"),
	NESTED_LOCK(mutex_lock_nested, mutex_lock, "mutex order edges"),
	NESTED(mutex_lock_interruptible_nested, mutex_lock_interruptible,
	       "interruptible mutex edges"),
	NESTED(mutex_lock_killable_nested, mutex_lock_killable,
	       "killable mutex edges"),
	NESTED_LOCK(mutex_lock_io_nested, mutex_lock_io,
		    "I/O mutex edges"),
	/* mutex_lock_nest_lock() is mutex_lock() without lockdep. */
	NESTED_LOCK(_mutex_lock_nest_lock, mutex_lock,
		    "nest-locked mutex edges"),
	P(mutex_trylock, false, "trylocked mutexes in held sets"),
	P(mutex_unlock, false, "mutex releases: holds never end"),
	P(__mutex_init, false, "mutex class names (addresses instead)"),
	KNOB(kernfs_debug_wait, "knob waits: no write timelines"),
	KNOB(complete, "knob completions: timelines say no completion"),
	TP(contention_begin, "lock wait times"),
	TP(contention_end, "lock wait times"),
	TP(sched_process_fork, "children of watched processes unwatched"),
	TP(sched_process_exit, "state of exited tasks kept: slower, not wrong"),
};

const size_t so_nr_probes = sizeof(so_probe_defs) / sizeof(so_probe_defs[0]);
_Static_assert(sizeof(so_probe_defs) / sizeof(so_probe_defs[0]) <=
	       SO_MAX_PROBE_DEFS, "so_loader.probes[] cannot hold the table");

const char *probe_mode_name(enum probe_mode mode)
{
	switch (mode) {
	case PROBE_FENTRY:
		return "fentry";
	case PROBE_KPROBE:
		return "kprobe";
	case PROBE_TRACEPOINT:
		return "tp_btf";
	default:
		return "missing";
	}
}
