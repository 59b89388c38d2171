// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * One session's state (struct live): kernel symbols, the pipeline and
 * its findings, the header's facts (probes, module parameters, knobs).
 * Apart from the observer, which outlives sessions, and from the event
 * loop, which only feeds what is set up here.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "kernel/knobfs.h"
#include "kernel/loader.h"
#include "lib/version.h"
#include "app/session_internal.h"
#include "observe.skel.h"

static uint64_t real_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void load_module_lines(struct live *lv, char *buf, size_t len)
{
	char err[128];
	FILE *rd;

	rd = len ? fmemopen(buf, len, "r") : NULL;
	if (rd) {
		ksyms_load(lv->ksyms, rd, err, sizeof(err));
		fclose(rd);
	}
	free(buf);
}

/*
 * Module symbols ("[test_sysfs]", "[bpf]" trampolines) exist only while
 * the module is loaded: they are read after each load (at most every
 * 2 s, a load loop must not starve the ring buffer), in the background
 * (app/module_syms.h), and at the end, so stacks taken in a module that
 * is gone by then still resolve.
 */
void live_module_ksyms_start(struct live *lv)
{
	if (mono_ns() - lv->ksyms_ns <= 2000000000ULL)
		return;
	if (module_syms_start(&lv->module_syms))
		lv->ksyms_ns = mono_ns();
}

/* The background read's symbols, once it is done (`wait`: wait). */
void live_module_ksyms_take(struct live *lv, bool wait)
{
	char *buf;
	size_t len;

	if (module_syms_take(&lv->module_syms, wait, &buf, &len))
		load_module_lines(lv, buf, len);
}

/* Now, on this thread: the end of a session. */
void live_add_module_ksyms(struct live *lv)
{
	char *buf;
	size_t len;

	live_module_ksyms_take(lv, true);
	if (!module_syms_read(&buf, &len))
		load_module_lines(lv, buf, len);
	lv->ksyms_ns = mono_ns();
}

/* A probe's stack from the stack map, or a blocked task's as it is now
 * (stacks_task_id()). */
static int fetch_stack(void *ctx, int32_t id, uint64_t *addrs, uint32_t max)
{
	struct live *lv = ctx;
	struct observe_bpf *skel = lv->obs->loader.skel;
	uint64_t buf[SO_KSTACK_DEPTH] = { 0 };
	uint32_t n;
	int err;

	if (stacks_id_is_task(id))
		err = loader_task_stack(&lv->obs->loader, stacks_id_tid(id),
					buf);
	else if (!skel || id < 0)
		err = -1;
	else
		err = bpf_map_lookup_elem(bpf_map__fd(skel->maps.stacks), &id,
					  buf);
	if (err)
		return -1;
	for (n = 0; n < max && n < SO_KSTACK_DEPTH && buf[n]; n++)
		addrs[n] = buf[n];
	return n;
}

/* The loader's probe modes, in the trace file's terms. */
static void fill_probes(struct live *lv)
{
	static const uint32_t modes[] = {
		[PROBE_MISSING] = SO_PROBE_MISSING,
		[PROBE_FENTRY] = SO_PROBE_FENTRY,
		[PROBE_KPROBE] = SO_PROBE_KPROBE,
		[PROBE_TRACEPOINT] = SO_PROBE_TRACEPOINT,
	};
	const struct so_loader *l = &lv->obs->loader;
	size_t i;

	/* A row whose counterpart is probed is no loss: not listed. */
	for (i = 0; i < l->nr_probes; i++)
		if (!l->probes[i].replaced)
			tf_session_add_probe(&lv->info,
					     l->probes[i].def->target,
					     modes[l->probes[i].mode]);
}

/* "name=value ..." of a loaded module's parameters, for the header. */
static void read_module_params(const char *module, char *out, size_t len)
{
	char dir[128], path[512], val[64];
	struct dirent *de;
	size_t used = 0;
	DIR *d;

	out[0] = 0;
	snprintf(dir, sizeof(dir), "/sys/module/%s/parameters", module);
	d = opendir(dir);
	if (!d)
		return;
	while ((de = readdir(d))) {
		FILE *f;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(val, sizeof(val), f)) {
			val[strcspn(val, "\n")] = 0;
			used += snprintf(out + used, used < len ? len - used : 0,
					 "%s%s=%s", used ? " " : "",
					 de->d_name, val);
		}
		fclose(f);
	}
	closedir(d);
}

/*
 * The write timelines' label when a knob wait event does not carry the
 * knob state (the probe could not read it): which wait_* bool is Y and
 * the delay, read from debugfs while the writer waits.
 */
static void knob_label(void *ctx, char *label, size_t len)
{
	char val[KNOB_VALUE_LEN];
	size_t used = 0;
	uint32_t p;

	/* kernel/knobfs.c knows the debugfs paths; the wait points are its
	 * wait_* bools under the names the events use. */
	for (p = 0; p < SO_KNOB_NR; p++)
		if (!knobfs_get(knob_find(names_knob_point(p)), val,
				sizeof(val)) && val[0] == 'Y')
			used += snprintf(label + used, used < len ? len - used : 0,
					 "%s%s", used ? "|" : "",
					 names_knob_point(p));
	if (knobfs_get(KNOB_SLEEP_AFTER_WAIT_MS, val, sizeof(val)))
		snprintf(val, sizeof(val), "?");
	if (used < len)
		snprintf(label + used, len - used, "%ssleep_after_wait_ms=%s",
			 used ? ", " : "", val);
	(void)ctx;
}

void live_describe(struct live *lv, const struct so_options *opts)
{
	snprintf(lv->info.kernel, sizeof(lv->info.kernel), "%s",
		 lv->obs->loader.kernel_release);
	fill_probes(lv);
	read_module_params(opts->module ? opts->module : "test_sysfs",
			   lv->info.module_params,
			   sizeof(lv->info.module_params));
}

int live_setup(struct live *lv, const struct so_options *opts)
{
	char err[256];
	FILE *f;

	lv->ksyms = ksyms_new();
	f = fopen("/proc/kallsyms", "r");
	if (lv->ksyms && f && ksyms_load(lv->ksyms, f, err, sizeof(err)) < 0)
		fprintf(stderr, "sysfs-observe: warning: no kernel symbols: "
			"%s\n  stacks print as addresses; run as root with "
			"kernel.kptr_restrict=0\n", err);
	if (f)
		fclose(f);
	lv->names = names_new(lv->ksyms);
	if (!lv->ksyms || !lv->names)
		return -ENOMEM;
	stats_init(&lv->stats);
	pipeline_init(&lv->pipeline);
	lv->pipeline.names = lv->names;
	lv->pipeline.stats = &lv->stats;
	lv->pipeline.fetch_stack = fetch_stack;
	lv->pipeline.fetch_ctx = lv;
	if (findings_init(&lv->findings, &lv->pipeline, lv->ksyms,
			  opts->hang_timeout_s > 0 ?
			  (uint64_t)(opts->hang_timeout_s * 1e9) :
			  SO_HANG_TIMEOUT_DEFAULT_NS, opts->map_nr_entries))
		return -ENOMEM;
	findings_attach(&lv->findings, &lv->pipeline);
	lv->findings.knob_label = knob_label;
	lv->findings.clock_ns = mono_ns;
	if (opts->module)
		og_name_module(lv->findings.og, opts->module);

	lv->info.start_realtime_ns = real_ns();
	lv->info.start_mono_ns = mono_ns();
	lv->info.pid_filter = opts->pid;
	snprintf(lv->info.tool, sizeof(lv->info.tool), "%s", SO_TOOL_VERSION);
	if (opts->test || opts->watch)
		snprintf(lv->info.test, sizeof(lv->info.test), "%s",
			 opts->test ? opts->test : opts->watch);
	if (opts->module)
		snprintf(lv->info.module_filter,
			 sizeof(lv->info.module_filter), "%s", opts->module);
	if (opts->path_prefix)
		snprintf(lv->info.path_prefix, sizeof(lv->info.path_prefix),
			 "%s", opts->path_prefix);
	knobfs_fill_info(&lv->info);
	return 0;
}

void live_teardown(struct live *lv)
{
	live_module_ksyms_take(lv, true);	/* joined before lv goes */
	stream_fini(&lv->stream);	/* zeroed when never started */
	findings_fini(&lv->findings);
	pipeline_fini(&lv->pipeline);
	stats_fini(&lv->stats);
	names_free(lv->names);
	ksyms_free(lv->ksyms);
}
