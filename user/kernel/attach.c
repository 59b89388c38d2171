// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * Attaching the loaded programs one by one, so that one failure costs
 * one probe: a required probe's failure is an error, another's a
 * warning, and a failed fentry attach asks loader.c for a reload with
 * the row's kprobes instead.  The modes themselves are modes.c's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/libbpf.h>
#include "kernel/loader_int.h"
#include "observe.skel.h"

/*
 * Each loaded program makes at most one link, so links[] can hold every
 * program of the skeleton; the check in attach_prog() stays for the day
 * a program makes more.
 */
#define SKEL_NR_PROGS (sizeof(((struct observe_bpf *)0)->progs) / \
		       sizeof(struct bpf_program *))
_Static_assert(SKEL_NR_PROGS <= SO_MAX_LINKS,
	       "so_loader.links[] is smaller than the skeleton's programs: "
	       "raise SO_MAX_LINKS in user/kernel/loader.h");

/* The row a program serves: programs are <kind>_<prog_base>. */
static struct probe_state *prog_row(struct so_loader *l,
				    const struct bpf_program *prog)
{
	const char *us = strchr(bpf_program__name(prog), '_');
	size_t i;

	for (i = 0; us && i < l->nr_probes; i++)
		if (!strcmp(us + 1, l->probes[i].def->prog_base))
			return &l->probes[i];
	return NULL;
}

/* fentry and fexit programs: those a failed attach falls back from. */
static bool is_fentry(const struct bpf_program *prog)
{
	enum bpf_attach_type type = bpf_program__expected_attach_type(prog);

	return type == BPF_TRACE_FENTRY || type == BPF_TRACE_FEXIT;
}

/*
 * SYSFS_OBSERVE_FAIL_FENTRY=all, or a comma-separated list of functions:
 * their fentry/fexit attach fails as on a kernel without BPF trampolines
 * (EOPNOTSUPP), so the kprobe fallback can be tested where fentry works.
 */
static bool fentry_fail_forced(const char *target)
{
	const char *list = getenv("SYSFS_OBSERVE_FAIL_FENTRY"), *p;
	size_t len = strlen(target);

	if (!list || !*list)
		return false;
	if (!strcmp(list, "all"))
		return true;
	for (p = list; (p = strstr(p, target)); p += len)
		if ((p == list || p[-1] == ',') && (!p[len] || p[len] == ','))
			return true;
	return false;
}

/*
 * Attach one program.  A failure is its row's (attach_err), and only a
 * full links[] is the whole load's: a link we cannot keep we cannot
 * destroy at detach either, so it is never made to stay.
 */
static int attach_prog(struct so_loader *l, struct bpf_program *prog,
		       struct probe_state *ps)
{
	struct bpf_link *link = NULL;

	if (ps && is_fentry(prog) && fentry_fail_forced(ps->def->target))
		errno = EOPNOTSUPP;
	else
		link = bpf_program__attach(prog);
	if (!link) {
		if (ps && !ps->attach_err)
			ps->attach_err = -errno;
		return 0;
	}
	if (l->nr_links == SO_MAX_LINKS) {
		bpf_link__destroy(link);
		fprintf(stderr, "sysfs-observe: failed to attach %s: all %d "
			"link slots are in use\n  so_loader.links[] must hold "
			"a link per program: raise SO_MAX_LINKS in "
			"user/kernel/loader.h and rebuild\n",
			bpf_program__name(prog), SO_MAX_LINKS);
		return -ENOSPC;
	}
	l->links[l->nr_links++] = link;
	if (ps)
		ps->nr_links++;
	return 0;
}

/* An iterator runs when read, not on an event: loader_task_stack(). */
static bool is_iter(const struct bpf_program *prog)
{
	return bpf_program__expected_attach_type(prog) == BPF_TRACE_ITER;
}

/* Attach the loaded fentry/fexit programs, or all the others. */
static int attach_pass(struct so_loader *l, bool fentry)
{
	struct bpf_program *prog;
	int err;

	bpf_object__for_each_program(prog, l->skel->obj) {
		if (!bpf_program__autoload(prog) || is_iter(prog) ||
		    is_fentry(prog) != fentry)
			continue;
		err = attach_prog(l, prog, prog_row(l, prog));
		if (err)
			return err;
	}
	return 0;
}

/*
 * Rows whose fentry programs failed to attach, marked for kprobe mode in
 * the reload; how many.  fentry mode needs the function in ftrace's
 * list, so a kprobe can attach where the fentry could not, if the row
 * has kprobe programs.
 */
static size_t mark_fallbacks(struct so_loader *l)
{
	const struct probe_state *first = NULL;
	size_t i, n = 0;

	for (i = 0; i < l->nr_probes; i++) {
		struct probe_state *ps = &l->probes[i];

		if (ps->mode != PROBE_FENTRY || !ps->attach_err ||
		    !loader_row_prog(l->skel->obj, "kprobe",
				     ps->def->prog_base))
			continue;
		ps->fentry_failed = true;
		if (!n++)
			first = ps;
	}
	if (n)
		fprintf(stderr, "sysfs-observe: fentry failed to attach to "
			"%zu function%s (%s: %s): loading again with kprobes "
			"there\n", n, n > 1 ? "s" : "", first->def->target,
			strerror(-first->attach_err));
	return n;
}

/* Rows without a probe: an error if required, else a warning. */
static int report_missing(struct so_loader *l)
{
	size_t i;

	for (i = 0; i < l->nr_probes; i++) {
		struct probe_state *ps = &l->probes[i];

		if (ps->mode != PROBE_MISSING && !ps->attach_err)
			continue;
		if (ps->def->required) {
			fprintf(stderr,
				"sysfs-observe: failed to attach to %s: %s\n"
				"  it is required: this kernel cannot be "
				"observed without it\n", ps->def->target,
				ps->attach_err ? strerror(-ps->attach_err) :
						 "not in BTF, ftrace or kallsyms");
			return -ENOENT;
		}
		if (!ps->not_here && !ps->replaced)
			fprintf(stderr, "sysfs-observe: warning: no probe on "
				"%s (%s): lost: %s\n", ps->def->target,
				ps->attach_err ? strerror(-ps->attach_err) :
						 "not traceable here",
				ps->def->lost);
		ps->mode = PROBE_MISSING;
	}
	return 0;
}

/*
 * Attach every loaded program on its own, so one failure is one probe.
 * fentry/fexit first: when one fails, -EAGAIN asks for the reload (with
 * may_fall_back) before anything else is attached, so that only those
 * links, made moments ago, are detached again.
 */
int loader_attach_probes(struct so_loader *l, bool may_fall_back)
{
	int err;

	err = attach_pass(l, true);
	if (!err && may_fall_back && mark_fallbacks(l))
		return -EAGAIN;
	if (!err)
		err = attach_pass(l, false);
	return err ? err : report_missing(l);
}

