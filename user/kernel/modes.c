// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * Each probe's mode on this kernel (fentry, kprobe, tp_btf, missing),
 * decided before load() from BTF and ftrace's list, because a program
 * that fails to load fails the whole object; autoload and fentry targets
 * set to match; the table of modes printed.  Attaching is attach.c's.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "kernel/loader_int.h"
#include "kernel/preflight.h"
#include "observe.skel.h"

struct bpf_program *loader_row_prog(struct bpf_object *obj,
				    const char *kind, const char *base)
{
	char name[128];

	snprintf(name, sizeof(name), "%s_%s", kind, base);
	return bpf_object__find_program_by_name(obj, name);
}

static void set_autoload(struct bpf_object *obj, const char *kind,
			 const char *base, bool on)
{
	struct bpf_program *prog = loader_row_prog(obj, kind, base);

	if (prog)
		bpf_program__set_autoload(prog, on);
}

/*
 * A program whose section names no function (SEC("fentry"): a syscall,
 * whose name depends on the architecture) attaches to its row's target,
 * which must be known before load: the verifier checks the program
 * against the function's BTF.
 */
static int set_fentry_target(struct bpf_object *obj,
			     const struct probe_state *ps, const char *kind)
{
	struct bpf_program *prog;

	prog = loader_row_prog(obj, kind, ps->def->prog_base);

	if (!prog || strchr(bpf_program__section_name(prog), '/'))
		return 0;
	return bpf_program__set_attach_target(prog, 0, ps->def->target);
}

/* Load this row's programs for its mode, and no others. */
static void set_row_autoload(struct bpf_object *obj, struct probe_state *ps)
{
	const char *base = ps->def->prog_base;
	int err = 0;

	if (ps->mode == PROBE_FENTRY) {
		err = set_fentry_target(obj, ps, "fentry");
		if (!err)
			err = set_fentry_target(obj, ps, "fexit");
	}
	if (err) {
		/* Chosen from the same BTF: not expected.  The row goes
		 * missing, with the error in its warning. */
		ps->attach_err = err;
		ps->mode = PROBE_MISSING;
	}
	set_autoload(obj, "tp", base, ps->mode == PROBE_TRACEPOINT);
	set_autoload(obj, "fentry", base, ps->mode == PROBE_FENTRY);
	set_autoload(obj, "fexit", base, ps->mode == PROBE_FENTRY);
	set_autoload(obj, "kprobe", base, ps->mode == PROBE_KPROBE);
	set_autoload(obj, "kretprobe", base, ps->mode == PROBE_KPROBE);
}

static struct probe_state *find_row(struct so_loader *l, const char *target)
{
	size_t i;

	for (i = 0; i < l->nr_probes; i++)
		if (!strcmp(l->probes[i].def->target, target))
			return &l->probes[i];
	return NULL;
}

/*
 * One of each pair probed: the plain mutex_lock() where it exists, its
 * lockdep stand-in (mutex_lock_nested()) where DEBUG_LOCK_ALLOC made the
 * plain one a macro.  Where neither exists, the plain one's warning says
 * what is lost, once.
 */
static void pick_stand_ins(struct so_loader *l)
{
	size_t i;

	for (i = 0; i < l->nr_probes; i++) {
		struct probe_state *ps = &l->probes[i], *plain;

		if (!ps->def->stands_for)
			continue;
		plain = find_row(l, ps->def->stands_for);
		if (!plain)
			continue;
		if (plain->mode == PROBE_MISSING && ps->mode != PROBE_MISSING) {
			plain->replaced = true;
			continue;
		}
		ps->replaced = true;
		ps->mode = PROBE_MISSING;
	}
}

int loader_decide_modes(struct so_loader *l, const struct btf *vmlinux_btf,
			const struct traceable *tr)
{
	size_t i;

	/* probes.c asserts it where the table's size is known; this file
	 * sees only so_nr_probes. */
	if (so_nr_probes > SO_MAX_PROBE_DEFS) {
		fprintf(stderr, "sysfs-observe: failed to set up the probes: "
			"the probe table has %zu rows, so_loader.probes[] %d\n"
			"  raise SO_MAX_PROBE_DEFS in user/kernel/probes.h and "
			"rebuild\n", so_nr_probes, SO_MAX_PROBE_DEFS);
		return -ENOSPC;
	}
	l->nr_probes = so_nr_probes;
	for (i = 0; i < so_nr_probes; i++) {
		const struct probe_def *d = &so_probe_defs[i];
		struct probe_state *ps = &l->probes[i];
		bool in_btf, traceable, fentry_failed = ps->fentry_failed;
		char tp[96];

		/* Afresh, but for what a failed attach taught (a reload). */
		memset(ps, 0, sizeof(*ps));
		ps->fentry_failed = fentry_failed;
		ps->def = d;
		if (d->tracepoint) {
			snprintf(tp, sizeof(tp), "btf_trace_%s", d->target);
			ps->mode = btf__find_by_name_kind(vmlinux_btf, tp,
							  BTF_KIND_TYPEDEF) > 0 ?
				   PROBE_TRACEPOINT : PROBE_MISSING;
			continue;
		}
		in_btf = btf__find_by_name_kind(vmlinux_btf, d->target,
						BTF_KIND_FUNC) > 0;
		traceable = traceable_has(tr, d->target);
		ps->not_here = d->needs_btf &&
			       btf__find_by_name_kind(vmlinux_btf, d->needs_btf,
						      BTF_KIND_FUNC) <= 0;
		if (ps->not_here)
			ps->mode = PROBE_MISSING;
		else if (in_btf && traceable && !ps->fentry_failed)
			ps->mode = PROBE_FENTRY;
		else if (traceable || kallsyms_has(d->target))
			ps->mode = PROBE_KPROBE;
		else
			ps->mode = PROBE_MISSING;
	}
	pick_stand_ins(l);
	for (i = 0; i < l->nr_probes; i++)
		set_row_autoload(l->skel->obj, &l->probes[i]);
	return 0;
}

/*
 * What the kernfs knob probes read: the knob state (kernfs_config_fail)
 * and the completion complete() is filtered on.  Looked up only where
 * the knob probes are (kallsyms scans are slow under TCG); without the
 * completion's address its probe would only cost time, so it goes.
 */
void loader_set_knob_addrs(struct so_loader *l)
{
	struct probe_state *wait = NULL, *done = NULL;
	uint64_t addr = 0;
	size_t i;

	for (i = 0; i < l->nr_probes; i++) {
		if (!strcmp(l->probes[i].def->target, "kernfs_debug_wait"))
			wait = &l->probes[i];
		else if (!strcmp(l->probes[i].def->target, "complete"))
			done = &l->probes[i];
	}
	if (wait && wait->mode != PROBE_MISSING)
		l->skel->rodata->knob_config_addr =
			kallsyms_addr("kernfs_config_fail");
	/* The write timelines pair knob waits with the writes' events. */
	if (wait && wait->mode != PROBE_MISSING)
		l->aggregate = false;
	l->skel->rodata->aggregate = l->aggregate;
	if (!done || done->mode == PROBE_MISSING)
		return;
	addr = kallsyms_addr("kernfs_debug_wait_completion");
	l->skel->rodata->knob_completion_addr = addr;
	if (addr)
		return;
	set_autoload(l->skel->obj, "fentry", done->def->prog_base, false);
	set_autoload(l->skel->obj, "kprobe", done->def->prog_base, false);
	done->mode = PROBE_MISSING;
}

/*
 * Summary mode: a lock function that cannot fail acquires at its entry,
 * where the probe pushes the hold (acquire_at_entry); its exit program
 * would only time the wait, which summary mode takes from the
 * contention tracepoints.  Without an exit program the trampoline does
 * not call the function through itself, and one program per lock call
 * fewer runs on every mutex_lock() of the system.  After
 * loader_set_knob_addrs(), which has the last word on aggregate.
 */
void loader_set_lock_exits(struct so_loader *l)
{
	size_t i;

	l->skel->rodata->acquire_at_entry = l->aggregate;
	if (!l->aggregate)
		return;
	for (i = 0; i < l->nr_probes; i++) {
		const struct probe_state *ps = &l->probes[i];

		if (!ps->def->entry_acquires || ps->mode == PROBE_MISSING)
			continue;
		set_autoload(l->skel->obj, "fexit", ps->def->prog_base, false);
		set_autoload(l->skel->obj, "kretprobe", ps->def->prog_base,
			     false);
	}
}

size_t loader_nr_attached(const struct so_loader *l)
{
	size_t i, n = 0;

	for (i = 0; i < l->nr_probes; i++)
		n += l->probes[i].mode != PROBE_MISSING;
	return n;
}

/* Which mutex entry points are probed: the plain or lockdep's. */
const char *loader_mutex_set(const struct so_loader *l)
{
	size_t i;

	for (i = 0; i < l->nr_probes; i++) {
		const struct probe_state *ps = &l->probes[i];

		if (!strcmp(ps->def->target, "mutex_lock_nested"))
			return ps->mode != PROBE_MISSING ?
			       "lockdep's (mutex_lock_nested and friends: "
			       "CONFIG_DEBUG_LOCK_ALLOC)" :
			       "plain (mutex_lock and friends)";
	}
	return "plain (mutex_lock and friends)";
}

void loader_print_probes(const struct so_loader *l, FILE *out)
{
	size_t i;

	for (i = 0; i < l->nr_probes; i++) {
		const struct probe_state *ps = &l->probes[i];

		if (ps->replaced) {
			fprintf(out, "%-32s %-8s (%s)\n", ps->def->target,
				"unused", ps->def->stands_for ?
				"the plain function is probed" :
				"a lockdep stand-in is probed");
			continue;
		}
		fprintf(out, "%-32s %-8s%s%s\n", ps->def->target,
			probe_mode_name(ps->mode),
			ps->def->required ? " (required)" : "",
			ps->fentry_failed ? " (fentry failed to attach)" : "");
	}
	fprintf(out, "mutex probes: %s\n", loader_mutex_set(l));
}
