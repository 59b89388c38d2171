// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * Loader: see loader.h.  The skeleton lifecycle of libbpf-bootstrap
 * (open, set read-only data, load, attach, poll, destroy), with the
 * probe modes of bcc's libbpf-tools decided per function (modes.c),
 * attached one by one (attach.c), and the maps read back (maps.c) and
 * emptied (reset.c) elsewhere.
 */
#include <errno.h>
#include <pthread.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "kernel/loader_int.h"
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
/* --path, already in the probes' terms (opt_path_filter, at parse time). */
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

/* The read-only data the probes are specialised on, before load(). */
static int set_rodata(struct so_loader *l, const struct loader_opts *opts)
{
	l->skel->rodata->self_tgid = getpid();
	l->skel->rodata->rtnl_mutex_addr = kallsyms_addr("rtnl_mutex");
	l->skel->rodata->module_mutex_addr = kallsyms_addr("module_mutex");
	l->skel->rodata->observe_all = opts->observe_all;
	l->skel->rodata->emit_events = opts->emit_events;
	l->skel->rodata->wait_stacks = opts->wait_stacks;
	l->skel->rodata->wakeup_bytes =
		bpf_map__max_entries(l->skel->maps.events) / 4;
	if (opts->module)
		l->skel->rodata->filter_mod_class =
			SO_CLASS_MAKE(SO_CLASS_MOD,
				      so_hash_name(opts->module, SO_NAME_LEN));
	if (opts->path_filter && opts->path_filter[0] &&
	    set_path_filter(l, opts->path_filter))
		return 2;	/* a usage error */
	if (!l->skel->rodata->module_mutex_addr)
		fprintf(stderr, "sysfs-observe: warning: module_mutex not in "
			"kallsyms: GOING is not seen, no cycle is GATED\n");
	return 0;
}

/*
 * --map-nr-entries: the tables that grow with what is observed, all to
 * that size.  A full one is counted, not silent, and this is how to make
 * it larger.  The task, process and count tables keep their compiled
 * sizes: user space maps the task slots at SO_TASK_SLOTS, and the count
 * slots are numbered up to SO_COUNT_SLOTS.
 */
static int set_map_nr_entries(struct so_loader *l, unsigned int nr_entries)
{
	struct bpf_map *const maps[] = {
		l->skel->maps.lock_classes, l->skel->maps.edges,
		l->skel->maps.chains,	    l->skel->maps.stacks,
		l->skel->maps.lock_syms,    l->skel->maps.class_names,
	};
	size_t i;

	if (!nr_entries)
		return 0;	/* each keeps its compiled size */
	for (i = 0; i < sizeof(maps) / sizeof(maps[0]); i++) {
		if (bpf_map__set_max_entries(maps[i], nr_entries)) {
			fprintf(stderr, "sysfs-observe: cannot size the %s "
				"table to %u entries: %s (give another "
				"--map-nr-entries, or none for the defaults)\n",
				bpf_map__name(maps[i]), nr_entries,
				strerror(errno));
			return 2;
		}
	}
	return 0;
}

/* Open the object and make it this kernel's: modes, sizes, rodata. */
static int open_object(struct so_loader *l, const struct loader_opts *opts,
		       const struct btf *vmlinux_btf,
		       const struct traceable *tr)
{
	l->skel = observe_bpf__open();
	if (!l->skel) {
		fprintf(stderr, "sysfs-observe: failed to open the BPF "
			"object: %s\n", strerror(errno));
		return 1;
	}
	if (loader_decide_modes(l, vmlinux_btf, tr))
		return 1;
	l->aggregate = opts->aggregate;
	loader_set_knob_addrs(l);
	loader_set_lock_exits(l);
	if (opts->ringbuf_kib &&
	    bpf_map__set_max_entries(l->skel->maps.events,
				     opts->ringbuf_kib * 1024U)) {
		fprintf(stderr, "sysfs-observe: cannot size the ring buffer "
			"%u KiB: %s\n", opts->ringbuf_kib, strerror(errno));
		return 2;
	}
	if (set_map_nr_entries(l, opts->map_nr_entries))
		return 2;
	l->user_sized = opts->ringbuf_kib || opts->map_nr_entries;
	return set_rodata(l, opts);
}

/* Load the programs open_object() kept, and map the task table. */
static int load_object(struct so_loader *l)
{
	int err = observe_bpf__load(l->skel);

	if (err) {
		fprintf(stderr, "sysfs-observe: failed to load the BPF "
			"programs: %s\n", strerror(-err));
		if (err == -EPERM || err == -EACCES || err == -EINVAL) {
			fprintf(stderr, "  this kernel refuses BPF tracing "
				"programs (run as root on a kernel with "
				"CONFIG_BPF_SYSCALL, FTRACE, KPROBES; try -vvv "
				"for libbpf's log)\n");
			return 4;
		}
		/* The kernel could not allocate the tables at the sizes
		 * asked for: not a fault of this kernel or of the tool. */
		if (l->user_sized && (err == -ENOMEM || err == -E2BIG)) {
			fprintf(stderr, "  the tables do not fit at the sizes "
				"given (--ringbuf-kib, --map-nr-entries): give "
				"smaller ones, or none for the defaults\n");
			return 2;
		}
		return 1;
	}
	err = loader_map_task_slots(l);
	if (err) {
		fprintf(stderr, "sysfs-observe: failed to map the task "
			"states: %s\n", strerror(-err));
		return 1;
	}
	return 0;
}

static void *detach_all(void *arg)
{
	struct so_loader *l = arg;
	size_t i;

	for (i = 0; i < l->nr_links; i++)
		bpf_link__destroy(l->links[i]);
	l->nr_links = 0;
	l->task_iter = NULL;
	if (l->task_slots)
		munmap(l->task_slots, l->task_slots_len);
	l->task_slots = NULL;
	observe_bpf__destroy(l->skel);
	l->skel = NULL;
	return NULL;
}

/*
 * Open, load and attach; a kselftest exit code.
 *
 * An fentry program can load and still fail to attach: on a kernel
 * without BPF trampolines for its architecture (arm64 before 6.0 says
 * ENOTSUPP only at attach), or where another direct ftrace user holds
 * the function (EBUSY).  Its kprobe pair does the same work, but was not
 * loaded: loading both of every pair would cost verifier time on every
 * start (seconds under TCG) for a case most kernels never see, and
 * libbpf cannot add a program to a loaded object.  So the object is
 * destroyed and loaded again, once, with those rows in kprobe mode
 * (probe_state.fentry_failed): only the kernels that need it pay.
 * Detaching here is synchronous: the fentry links were made moments
 * before, and no event of theirs was read yet.
 */
static int start_object(struct so_loader *l, const struct loader_opts *opts,
			const struct btf *vmlinux_btf,
			const struct traceable *tr)
{
	bool may_fall_back = true;
	int rc, err;

	for (;;) {
		rc = open_object(l, opts, vmlinux_btf, tr);
		if (!rc)
			rc = load_object(l);
		if (rc)
			return rc;
		err = loader_attach_probes(l, may_fall_back);
		if (err != -EAGAIN)
			return err ? 1 : 0;
		detach_all(l);
		may_fall_back = false;
	}
}

int loader_start(struct so_loader *l, const struct loader_opts *opts)
{
	struct traceable tr = { 0 };
	struct btf *vmlinux_btf = NULL;
	struct utsname uts;
	int rc;

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

	rc = start_object(l, opts, vmlinux_btf, &tr);
	if (!rc) {
		l->rb = ring_buffer__new(bpf_map__fd(l->skel->maps.events),
					 handle_record, (void *)saved_opts,
					 NULL);
		if (!l->rb) {
			fprintf(stderr, "sysfs-observe: failed to create the "
				"ring buffer: %s\n", strerror(errno));
			rc = 1;
		}
	}
	traceable_free(&tr);
	btf__free(vmlinux_btf);
	if (rc)
		loader_stop(l, false);
	return rc;
}

void loader_pause(struct so_loader *l)
{
	if (l->skel && l->skel->bss)
		l->skel->bss->paused = true;
}

/*
 * Most records wake nobody (bpf/state.bpf.h, event_submit): epoll then
 * times out with records in the ring, so take them whether it woke or
 * not.  Returns how many records were taken, or a negative errno.
 */
int loader_poll(struct so_loader *l, int timeout_ms)
{
	int polled = ring_buffer__poll(l->rb, timeout_ms);
	int taken;

	if (polled < 0)
		return polled;
	taken = ring_buffer__consume(l->rb);
	return taken < 0 ? taken : polled + taken;
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
		l->detach_pending = true;
		return false;
	}
	return true;
}
