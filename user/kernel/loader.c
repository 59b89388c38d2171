// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * Loader: see loader.h.  The skeleton lifecycle of libbpf-bootstrap,
 * with the probe modes of bcc's libbpf-tools decided per function.
 */
#include <errno.h>
#include <pthread.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "kernel/loader.h"
#include "kernel/preflight.h"
#include "observe.skel.h"

static int verbosity;

static int libbpf_log(enum libbpf_print_level level, const char *fmt,
		      va_list args)
{
	if (level == LIBBPF_DEBUG && verbosity < 3)
		return 0;
	if (level == LIBBPF_INFO && verbosity < 2)
		return 0;
	return vfprintf(stderr, fmt, args);
}

static void set_autoload(struct bpf_object *obj, const char *kind,
			 const char *base, bool on)
{
	struct bpf_program *prog;
	char name[128];

	snprintf(name, sizeof(name), "%s_%s", kind, base);
	prog = bpf_object__find_program_by_name(obj, name);
	if (prog)
		bpf_program__set_autoload(prog, on);
}

/* Load this row's programs for its mode, and no others. */
static void set_row_autoload(struct bpf_object *obj,
			     const struct probe_state *ps)
{
	const char *base = ps->def->prog_base;

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

static void decide_modes(struct so_loader *l, const struct btf *vmlinux_btf,
			 const struct traceable *tr)
{
	size_t i;

	l->nr_probes = so_nr_probes;
	for (i = 0; i < so_nr_probes; i++) {
		const struct probe_def *d = &so_probe_defs[i];
		struct probe_state *ps = &l->probes[i];
		bool in_btf, traceable;
		char tp[96];

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
		else if (in_btf && traceable)
			ps->mode = PROBE_FENTRY;
		else if (traceable || ksym_exists(d->target))
			ps->mode = PROBE_KPROBE;
		else
			ps->mode = PROBE_MISSING;
	}
	pick_stand_ins(l);
	for (i = 0; i < l->nr_probes; i++)
		set_row_autoload(l->skel->obj, &l->probes[i]);
}

/*
 * What the kernfs knob probes read: the knob state (kernfs_config_fail)
 * and the completion complete() is filtered on.  Looked up only where
 * the knob probes are (kallsyms scans are slow under TCG); without the
 * completion's address its probe would only cost time, so it goes.
 */
static void set_knob_addrs(struct so_loader *l)
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
			ksym_addr("kernfs_config_fail");
	/* The write timelines pair knob waits with the writes' events. */
	if (wait && wait->mode != PROBE_MISSING)
		l->aggregate = false;
	l->skel->rodata->aggregate = l->aggregate;
	if (!done || done->mode == PROBE_MISSING)
		return;
	addr = ksym_addr("kernfs_debug_wait_completion");
	l->skel->rodata->knob_completion_addr = addr;
	if (addr)
		return;
	set_autoload(l->skel->obj, "fentry", done->def->prog_base, false);
	set_autoload(l->skel->obj, "kprobe", done->def->prog_base, false);
	done->mode = PROBE_MISSING;
}

/* Attach every loaded program on its own, so one failure is one probe. */
static int attach_probes(struct so_loader *l)
{
	struct bpf_program *prog;
	size_t i;

	bpf_object__for_each_program(prog, l->skel->obj) {
		const char *name = bpf_program__name(prog);
		struct probe_state *ps = NULL;
		struct bpf_link *link;

		if (!bpf_program__autoload(prog))
			continue;
		for (i = 0; i < l->nr_probes; i++) {
			const char *base = l->probes[i].def->prog_base;
			const char *us = strchr(name, '_');

			if (us && !strcmp(us + 1, base)) {
				ps = &l->probes[i];
				break;
			}
		}
		link = bpf_program__attach(prog);
		if (!link) {
			int err = -errno;

			if (ps && !ps->attach_err)
				ps->attach_err = err;
			continue;
		}
		if (l->nr_links == sizeof(l->links) / sizeof(l->links[0])) {
			/* Never an untracked link: it could not be
			 * destroyed at detach. */
			bpf_link__destroy(link);
			if (ps && !ps->attach_err)
				ps->attach_err = -ENOSPC;
			continue;
		}
		l->links[l->nr_links++] = link;
		if (ps)
			ps->nr_links++;
	}

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

static int handle_record(void *ctx, void *data, size_t len)
{
	const struct loader_opts *opts = ctx;

	return opts->on_record ? opts->on_record(opts->record_ctx, data, len) :
				 0;
}

static const struct loader_opts *saved_opts;

/*
 * kernfs nodes are known by "<parent>/<name>": a sysfs path keeps its
 * last directory ("/sys/devices/virtual/misc/test_sysfs0" matches every
 * attribute of test_sysfs0), a relative one is taken as it is.
 */
/* --path, already in the probes' terms (so_path_filter, at parse time). */
static int set_path_filter(struct so_loader *l, const char *filter)
{
	size_t len = strlen(filter);

	if (len >= sizeof(l->skel->rodata->filter_path) - 1) {
		fprintf(stderr, "sysfs-observe: failed to set the path filter "
			"%s: longer than %zu characters\n", filter,
			sizeof(l->skel->rodata->filter_path) - 2);
		return -EINVAL;
	}
	memcpy((char *)l->skel->rodata->filter_path, filter, len + 1);
	l->skel->rodata->filter_path_len = len;
	return 0;
}

/* The value size is the array's element size only when a multiple of 8. */
_Static_assert(sizeof(struct so_task_state) % 8 == 0,
	       "task_slots elements are 8-byte aligned");

static int map_task_slots(struct so_loader *l)
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

int loader_start(struct so_loader *l, const struct loader_opts *opts)
{
	struct traceable tr = { 0 };
	struct btf *vmlinux_btf = NULL;
	struct utsname uts;
	int err, rc = 1;

	memset(l, 0, sizeof(*l));
	verbosity = opts->verbose;
	saved_opts = opts;
	libbpf_set_print(libbpf_log);
	if (!uname(&uts))
		snprintf(l->kernel_release, sizeof(l->kernel_release), "%s",
			 uts.release);

	rc = preflight_check();
	if (rc)
		return rc;
	rc = 1;

	vmlinux_btf = btf__load_vmlinux_btf();
	if (!vmlinux_btf) {
		fprintf(stderr, "sysfs-observe: failed to read the kernel's "
			"BTF: %s\n  a kernel with CONFIG_DEBUG_INFO_BTF=y is "
			"needed\n", strerror(errno));
		return 4;
	}
	if (traceable_load(&tr) && verbosity)
		fprintf(stderr, "sysfs-observe: no ftrace function list: "
			"kprobes only where kallsyms has the symbol\n");

	l->skel = observe_bpf__open();
	if (!l->skel) {
		fprintf(stderr, "sysfs-observe: failed to open the BPF "
			"object: %s\n", strerror(errno));
		goto out;
	}
	decide_modes(l, vmlinux_btf, &tr);
	l->aggregate = opts->aggregate;
	set_knob_addrs(l);
	if (opts->ringbuf_kib &&
	    bpf_map__set_max_entries(l->skel->maps.events,
				     opts->ringbuf_kib * 1024U)) {
		fprintf(stderr, "sysfs-observe: cannot size the ring buffer "
			"%u KiB: %s\n", opts->ringbuf_kib, strerror(errno));
		rc = 2;
		goto out;
	}

	l->skel->rodata->self_tgid = getpid();
	l->skel->rodata->rtnl_mutex_addr = ksym_addr("rtnl_mutex");
	l->skel->rodata->module_mutex_addr = ksym_addr("module_mutex");
	l->skel->rodata->observe_all = opts->observe_all;
	l->skel->rodata->emit_events = opts->emit_events;
	if (opts->module)
		l->skel->rodata->filter_mod_class =
			SO_CLASS_MAKE(SO_CLASS_MOD,
				      so_hash_name(opts->module, SO_NAME_LEN));
	if (opts->path_filter && opts->path_filter[0] &&
	    set_path_filter(l, opts->path_filter)) {
		rc = 2;		/* a usage error */
		goto out;
	}
	if (!l->skel->rodata->module_mutex_addr)
		fprintf(stderr, "sysfs-observe: warning: module_mutex not in "
			"kallsyms: GOING is not seen, no cycle is GATED\n");

	err = observe_bpf__load(l->skel);
	if (err) {
		fprintf(stderr, "sysfs-observe: failed to load the BPF "
			"programs: %s\n", strerror(-err));
		if (err == -EPERM || err == -EACCES || err == -EINVAL) {
			fprintf(stderr, "  this kernel refuses BPF tracing "
				"programs (run as root on a kernel with "
				"CONFIG_BPF_SYSCALL, FTRACE, KPROBES; try -vvv "
				"for libbpf's log)\n");
			rc = 4;
		}
		goto out;
	}
	err = map_task_slots(l);
	if (err) {
		fprintf(stderr, "sysfs-observe: failed to map the task "
			"states: %s\n", strerror(-err));
		goto out;
	}
	err = attach_probes(l);
	if (err)
		goto out;
	l->rb = ring_buffer__new(bpf_map__fd(l->skel->maps.events),
				 handle_record, (void *)saved_opts, NULL);
	if (!l->rb) {
		fprintf(stderr, "sysfs-observe: failed to create the ring "
			"buffer: %s\n", strerror(errno));
		goto out;
	}
	rc = 0;
out:
	traceable_free(&tr);
	btf__free(vmlinux_btf);
	if (rc)
		loader_stop(l, false);
	return rc;
}

int loader_poll(struct so_loader *l, int timeout_ms)
{
	return ring_buffer__poll(l->rb, timeout_ms);
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
	return 0;
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
	/* A slot changes under the scan: copy it, then judge the copy. */
	for (i = 0; i < SO_TASK_SLOTS; i++) {
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

int loader_edges(struct so_loader *l, so_edge_entry_fn fn, void *ctx)
{
	struct so_class_name from, to;
	struct so_edge_key key, *prev = NULL;
	struct so_edge_val val;
	int fd, names_fd, err = 0;
	__u32 limit;

	if (!l->skel)
		return -EINVAL;
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
		class_name_of(names_fd, key.from_class, &from);
		class_name_of(names_fd, key.to_class, &to);
		fn(ctx, &key, &val, from.name, to.name);
	}
	return err;
}

void loader_pause(struct so_loader *l)
{
	if (l->skel && l->skel->bss)
		l->skel->bss->paused = true;
}

/*
 * Empty a hash map: delete the first key until there is none.  With
 * `nr`, subtract each entry this deleted from the BPF side's count of
 * them (a probe may delete one at the same time: whoever deletes it
 * subtracts it, so the count stays exact).
 */
static int clear_map(const struct bpf_map *map, volatile __u64 *nr)
{
	int fd = bpf_map__fd(map);
	char key[64];

	if (bpf_map__key_size(map) > sizeof(key))
		return -E2BIG;
	while (!bpf_map_get_next_key(fd, NULL, key)) {
		if (!bpf_map_delete_elem(fd, key)) {
			if (nr)
				__atomic_fetch_sub(nr, 1, __ATOMIC_SEQ_CST);
		} else if (errno != ENOENT) {
			return -errno;
		}
	}
	return 0;
}

/*
 * Empty class_counts' slots and hand them out afresh; counts_gen tells
 * every slot cached in the kernel that it is stale.
 */
static int clear_count_slots(struct so_loader *l)
{
	int ncpu = libbpf_num_possible_cpus(), fd, err;
	struct so_class_counts *zero;
	__u32 slot, used;

	err = clear_map(l->skel->maps.class_slots, NULL);
	if (err)
		return err;
	used = l->skel->bss->nr_count_slots;
	if (used >= SO_COUNT_SLOTS)
		used = SO_COUNT_SLOTS - 1;
	zero = calloc(ncpu, sizeof(*zero));
	if (!zero)
		return -ENOMEM;
	fd = bpf_map__fd(l->skel->maps.class_counts);
	for (slot = 1; slot <= used && !err; slot++)
		if (bpf_map_update_elem(fd, &slot, zero, BPF_ANY))
			err = -errno;
	free(zero);
	l->skel->bss->nr_count_slots = 0;
	__atomic_fetch_add(&l->skel->bss->counts_gen, 1, __ATOMIC_SEQ_CST);
	return err;
}

/* Free every slot, as the exit probe would (see clear_map's `nr`). */
static void clear_task_slots(struct so_loader *l)
{
	struct so_task_state *ts;
	__u32 i, tid;

	for (i = 0; i < SO_TASK_SLOTS; i++) {
		ts = &l->task_slots[i];
		tid = __atomic_load_n(&ts->tid, __ATOMIC_RELAXED);
		if (!tid || !__atomic_compare_exchange_n(&ts->tid, &tid, 0,
				false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
			continue;
		__atomic_fetch_sub(&l->skel->bss->nr_entries, 1,
				   __ATOMIC_SEQ_CST);
		memset(ts, 0, sizeof(*ts));
	}
}

int loader_reset(struct so_loader *l)
{
	int ncpu = libbpf_num_possible_cpus(), fd, err;
	__u64 *zero;
	__u32 k;

	if (!l->skel || ncpu <= 0)
		return -EINVAL;
	err = clear_map(l->skel->maps.edges, NULL);
	if (!err)
		err = clear_count_slots(l);
	if (!err)
		err = clear_map(l->skel->maps.class_names, NULL);
	if (!err)
		err = clear_map(l->skel->maps.tasks, &l->skel->bss->nr_entries);
	if (!err) {
		l->skel->bss->nr_overflow = 0;
		clear_task_slots(l);
		l->skel->bss->nr_tasks = 0;
		l->skel->bss->nr_waiting = 0;
	}
	if (!err)
		err = clear_map(l->skel->maps.watch_tgids,
				&l->skel->bss->nr_watched);
	if (err)
		return err;
	zero = calloc(ncpu, sizeof(*zero));
	if (!zero)
		return -ENOMEM;
	fd = bpf_map__fd(l->skel->maps.counters);
	for (k = 0; k < SO_CNT_NR && !err; k++)
		if (bpf_map_update_elem(fd, &k, zero, BPF_ANY))
			err = -errno;
	free(zero);
	if (!err)
		l->skel->bss->paused = false;
	return err;
}

int loader_watch_tgid(struct so_loader *l, uint32_t tgid)
{
	__u8 one = 1;
	int err;

	err = bpf_map__update_elem(l->skel->maps.watch_tgids, &tgid,
				   sizeof(tgid), &one, sizeof(one),
				   BPF_NOEXIST);
	if (err == -EEXIST)
		return 0;
	/* Counted like the probes count theirs (state.bpf.h nr_watched). */
	if (!err)
		__atomic_fetch_add(&l->skel->bss->nr_watched, 1,
				   __ATOMIC_SEQ_CST);
	return err;
}

static void *detach_all(void *arg)
{
	struct so_loader *l = arg;
	size_t i;

	for (i = 0; i < l->nr_links; i++)
		bpf_link__destroy(l->links[i]);
	l->nr_links = 0;
	if (l->task_slots)
		munmap(l->task_slots, l->task_slots_len);
	l->task_slots = NULL;
	observe_bpf__destroy(l->skel);
	l->skel = NULL;
	return NULL;
}

/* Detaching an fexit program waits for every task inside the traced
 * function; a task asleep in one (mutex_lock, a drain) can make that
 * take as long as it sleeps.  Give it DETACH_WAIT_S, then leave the rest
 * to the kernel, which drops the links when this process exits. */
#define DETACH_WAIT_S	15

bool loader_stop(struct so_loader *l, bool leave_attached)
{
	struct timespec deadline;
	pthread_t thread;

	ring_buffer__free(l->rb);
	l->rb = NULL;
	if (leave_attached || !l->skel)
		return !l->skel;
	if (pthread_create(&thread, NULL, detach_all, l)) {
		detach_all(l);
		return true;
	}
	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_sec += DETACH_WAIT_S;
	if (pthread_timedjoin_np(thread, NULL, &deadline)) {
		fprintf(stderr, "sysfs-observe: warning: detaching the BPF "
			"programs still waits after %d s for a task inside a "
			"traced function;\n  leaving it to the kernel, which "
			"drops them when this process exits\n", DETACH_WAIT_S);
		return false;
	}
	return true;
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
		fprintf(out, "%-32s %-8s%s\n", ps->def->target,
			probe_mode_name(ps->mode),
			ps->def->required ? " (required)" : "");
	}
	fprintf(out, "mutex probes: %s\n", loader_mutex_set(l));
}
