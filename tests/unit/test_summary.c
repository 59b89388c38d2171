// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * The summary, text and JSON, against golden files; and the promise of
 * record/report: a trace read back prints the summary the live run did,
 * edge counts from the kernel's table included.
 */
#include <inttypes.h>
#include "helpers.h"
#include "app/findings.h"
#include "report/summary.h"
#include "app/pipeline.h"

struct run {
	struct so_session_info info;
	struct so_session_end end;
	struct ksyms *ksyms;
	struct so_names *names;
	struct so_stats stats;
	struct so_pipeline pipe;
	/* The real analysis, not a stub: the goldens hold the verdicts the
	 * code gives (a stubbed "DEADLOCK-PRONE" once stood in an empty
	 * run's golden). */
	struct so_findings findings;
	bool have_end;
};

static void run_init(struct run *r)
{
	memset(r, 0, sizeof(*r));
	r->ksyms = ksyms_new();
	r->names = names_new(r->ksyms);
	stats_init(&r->stats);
	pipeline_init(&r->pipe);
	r->pipe.names = r->names;
	r->pipe.stats = &r->stats;
	assert_int_equal(findings_init(&r->findings, &r->pipe, r->ksyms,
				       SO_HANG_TIMEOUT_DEFAULT_NS, 0), 0);
	findings_attach(&r->findings, &r->pipe);
	r->findings.live = NULL;
}

static void run_fini(struct run *r)
{
	findings_fini(&r->findings);
	pipeline_fini(&r->pipe);
	stats_fini(&r->stats);
	names_free(r->names);
	ksyms_free(r->ksyms);
}

static void fill_info(struct so_session_info *info)
{
	memset(info, 0, sizeof(*info));
	strcpy(info->tool, "sysfs-observe 0.1");
	strcpy(info->kernel, "6.1.0-57-cloud-amd64");
	strcpy(info->test, "0028");
	strcpy(info->module_params, "enable_lock=1 enable_lock_on_rmmod=1");
	info->start_realtime_ns = 1700000000000000000ULL;
	info->start_mono_ns = 1000000000ULL;
	tf_session_add_probe(info, "kernfs_fop_write_iter", SO_PROBE_FENTRY);
	tf_session_add_probe(info, "kernfs_get_active", SO_PROBE_FEXIT);
	tf_session_add_probe(info, "kernfs_put_active", SO_PROBE_FENTRY);
	tf_session_add_probe(info, "kernfs_drain", SO_PROBE_FENTRY);
	tf_session_add_probe(info, "try_module_get", SO_PROBE_FEXIT);
	tf_session_add_probe(info, "contention_begin", SO_PROBE_TRACEPOINT);
	tf_session_add_probe(info, "misc_deregister", SO_PROBE_MISSING);
}

static void fill_end(struct so_session_end *end, uint64_t drops)
{
	memset(end, 0, sizeof(*end));
	end->end_mono_ns = 1000000000ULL + 6000000000ULL;
	end->counters[SO_CNT_EVENTS] = 24 + drops;
	end->counters[SO_CNT_RB_DROPS] = drops;
	end->counters[SO_CNT_KERNFS_WRITE] = 2;
}

static void feed_live(struct run *r)
{
	struct so_edge_event evs[32];
	size_t sizes[32], n, i;

	n = test_scenario(evs, sizes);
	for (i = 0; i < n; i++)
		assert_int_equal(pipeline_feed(&r->pipe, &evs[i], sizes[i]),
				 0);
}

static char *summary_of(struct run *r, bool json)
{
	struct so_report rep = {
		.info = &r->info, .end = r->have_end ? &r->end : NULL,
		.stats = &r->stats, .names = r->names,
		.malformed = r->pipe.nr_malformed, .hooks = &r->findings.hooks,
	};
	struct test_capture cap;

	if (json)
		summary_json(test_capture_begin(&cap), &rep);
	else
		summary_text(test_capture_begin(&cap), &rep);
	test_capture_end(&cap);
	return cap.text;
}

static void test_text_golden(void **state)
{
	struct run r;
	char *text;

	run_init(&r);
	fill_info(&r.info);
	tf_session_add_knob(&r.info, "kernfs_drain_delay_ms", "5");
	fill_end(&r.end, 0);
	r.have_end = true;
	feed_live(&r);
	text = summary_of(&r, false);
	test_golden("summary_0028.txt", text);
	assert_null(strstr(text, "WARNING!"));
	free(text);
	text = summary_of(&r, true);
	test_golden("summary_0028.json", text);
	free(text);
	run_fini(&r);
}

static void test_dropped_warning(void **state)
{
	const char junk[sizeof(struct so_event)] = { 0 };
	struct run r;
	char *text;

	run_init(&r);
	fill_info(&r.info);
	fill_end(&r.end, 12);
	r.have_end = true;
	feed_live(&r);
	/* A record of type 0 is refused and counted. */
	assert_int_equal(pipeline_feed(&r.pipe, junk, sizeof(junk)), -1);
	assert_int_equal(pipeline_feed(&r.pipe, junk, 3), -1);
	assert_int_equal(r.pipe.nr_malformed, 2);
	text = summary_of(&r, false);
	assert_non_null(strstr(text, "# lost events: 12\n"));
	assert_non_null(strstr(text, "\nWARNING! There were dropped events (12 in BPF, 2 refused, 0 uncounted)"));
	free(text);
	text = summary_of(&r, true);
	assert_non_null(strstr(text, "\"dropped\": true"));
	assert_non_null(strstr(text, "\"rb_drops\": 12"));
	free(text);
	run_fini(&r);
}

static char *analysis_of(struct run *r)
{
	struct test_capture cap;

	r->findings.hooks.analysis_text(test_capture_begin(&cap),
					r->findings.hooks.ctx);
	test_capture_end(&cap);
	return cap.text;
}

/*
 * Edges lost with the ring buffer's records come back from the kernel's
 * edge table: the same run with every EDGE record dropped, then the
 * table's entries recovered, gives the analysis of the run that lost
 * nothing.  The situation arises: the dropped run, before recovery, has
 * no cycle at all.
 */
static void test_edges_recovered(void **state)
{
	struct so_edge_event evs[32];
	size_t sizes[32], n, i, nr_edges = 0;
	uint32_t prone, gated, no_wait, prone0, gated0, no_wait0;
	struct run full, lossy;
	char *want, *got;

	(void)state;
	n = test_scenario(evs, sizes);
	run_init(&full);
	feed_live(&full);
	findings_counts(&full.findings, &prone0, &gated0, &no_wait0);
	assert_true(prone0 + gated0 > 0);

	run_init(&lossy);
	for (i = 0; i < n; i++)
		if (evs[i].ev.type != SO_EV_EDGE)
			assert_int_equal(pipeline_feed(&lossy.pipe, &evs[i],
						       sizes[i]), 0);
	findings_counts(&lossy.findings, &prone, &gated, &no_wait);
	assert_int_equal(prone + gated + no_wait, 0);
	for (i = 0; i < n; i++) {
		if (evs[i].ev.type != SO_EV_EDGE)
			continue;
		nr_edges++;
		assert_int_equal(pipeline_recover_edge(&lossy.pipe,
			&evs[i].key, &evs[i].val, evs[i].ev.name,
			evs[i].to_name), 1);
		/* Known now: not fed twice. */
		assert_int_equal(pipeline_recover_edge(&lossy.pipe,
			&evs[i].key, &evs[i].val, evs[i].ev.name,
			evs[i].to_name), 0);
	}
	assert_true(nr_edges >= 2);
	assert_int_equal(lossy.pipe.nr_edges_recovered, nr_edges);
	/* The full run's edges were all fed: none to recover there. */
	for (i = 0; i < n; i++)
		if (evs[i].ev.type == SO_EV_EDGE)
			assert_int_equal(pipeline_recover_edge(&full.pipe,
				&evs[i].key, &evs[i].val, "", ""), 0);
	findings_counts(&lossy.findings, &prone, &gated, &no_wait);
	assert_int_equal(prone, prone0);
	assert_int_equal(gated, gated0);
	assert_int_equal(no_wait, no_wait0);
	want = analysis_of(&full);
	got = analysis_of(&lossy);
	assert_string_equal(got, want);
	free(want);
	free(got);

	/* The summary says so, and that the edges are complete. */
	fill_info(&lossy.info);
	fill_end(&lossy.end, 2);
	lossy.have_end = true;
	{
		struct so_report rep = {
			.info = &lossy.info, .end = &lossy.end,
			.stats = &lossy.stats, .names = lossy.names,
			.hooks = &lossy.findings.hooks,
			.edges_recovered = lossy.pipe.nr_edges_recovered,
			.edges_exact = true,
		};
		struct test_capture cap;
		char line[160];

		summary_text(test_capture_begin(&cap), &rep);
		test_capture_end(&cap);
		got = cap.text;
		assert_non_null(strstr(got, "edges taken from the kernel's edge table"));
		assert_non_null(strstr(got, "the edges are complete"));
		/* Received counts what BPF sent; the recovered edges are
		 * said apart (they once made "received" exceed
		 * "submitted"). */
		snprintf(line, sizeof(line), "\n# events: %" PRIu64
			 " received, %" PRIu64 " submitted by BPF; %u edges "
			 "from the kernel's table\n",
			 lossy.stats.nr_events - nr_edges,
			 lossy.end.counters[SO_CNT_EVENTS], (unsigned)nr_edges);
		assert_non_null(strstr(got, line));
		free(got);
	}
	run_fini(&full);
	run_fini(&lossy);
}

/*
 * A stack as fexit and tp_btf leave it: the BPF program and the
 * tracepoint runner on top, a trampoline and the traced function's
 * patched entry ("mutex_lock+0x5") in the middle.  The report shows the
 * kernel's path alone; without the filter every one of them printed.
 */
static void test_stack_without_probe_frames(void **state)
{
	static const struct { uint64_t addr; const char *name, *mod; } sym[] = {
		{ 0x1000, "bpf_prog_0123456789abcdef_fentry_mutex_lock", "bpf" },
		{ 0x2000, "bpf_trace_run2", NULL },
		{ 0x3000, "__mutex_lock.constprop.0", NULL },
		{ 0x4000, "bpf_trampoline_6442522173", "bpf" },
		{ 0x5000, "mutex_lock", NULL },
		{ 0x6000, "test_dev_x_store", "test_sysfs" },
		{ 0x7000, "kernfs_fop_write_iter", NULL },
	};
	const uint64_t addrs[] = { 0x1010, 0x2047, 0x35a6, 0x406e, 0x5005,
				   0x60ba, 0x712b };
	struct so_edge_event evs[32];
	size_t sizes[32], n, i;
	struct run r;
	char *text;

	run_init(&r);
	for (i = 0; i < sizeof(sym) / sizeof(sym[0]); i++)
		assert_int_equal(ksyms_add(r.ksyms, sym[i].addr, 0x1000, 't',
					   sym[i].name, sym[i].mod), 0);
	assert_int_equal(pipeline_add_stack(&r.pipe, 42, addrs, 7), 0);
	n = test_scenario(evs, sizes);
	for (i = 0; i < n; i++) {
		if (evs[i].ev.type == SO_EV_EDGE)
			evs[i].val.stack_id = 42;
		assert_int_equal(pipeline_feed(&r.pipe, &evs[i], sizes[i]),
				 0);
	}
	text = analysis_of(&r);
	assert_non_null(strstr(text,
		"    stack #42:\n"
		"        __mutex_lock.constprop.0+0x5a6\n"
		"        test_dev_x_store+0xba [test_sysfs]\n"
		"        kernfs_fop_write_iter+0x12b\n"));
	assert_null(strstr(text, "bpf_"));
	assert_null(strstr(text, "mutex_lock+0x5\n"));
	free(text);
	run_fini(&r);
}

static void test_empty_run(void **state)
{
	struct run r;
	char *text;

	run_init(&r);
	text = summary_of(&r, false);
	test_golden("summary_empty.txt", text);
	free(text);
	run_fini(&r);
}

/*
 * The answer first, then tables cut like perf's -E: 15 unrelated mutexes
 * held far longer than the cycle's classes still rank below them, the
 * table stops at max_entries with the count of the rest, and 0 shows all.
 */
static void feed_noise(struct run *r)
{
	struct so_event ev;
	char name[32];
	int i;

	for (i = 0; i < 15; i++) {
		snprintf(name, sizeof(name), "noise_mutex_%02d", i);
		ev = test_event(SO_EV_LOCK_ACQUIRED, 7000000000ULL + i * 1000,
				300 + i, SO_CLASS_MAKE(SO_CLASS_MUTEX, 0x9000 + i),
				name);
		ev.obj = 0xffff888000009000ULL + i * 64;
		assert_int_equal(pipeline_feed(&r->pipe, &ev, sizeof(ev)),
				 0);
		ev = test_event(SO_EV_LOCK_RELEASED, 7050000000ULL + i * 1000,
				300 + i, SO_CLASS_MAKE(SO_CLASS_MUTEX, 0x9000 + i),
				NULL);
		ev.obj = 0xffff888000009000ULL + i * 64;
		ev.arg = 50000000;	/* 50 ms: more than the cycle's */
		assert_int_equal(pipeline_feed(&r->pipe, &ev, sizeof(ev)),
				 0);
	}
}

/* Whether the line that starts at `line` holds `needle`. */
static bool line_has(const char *line, const char *needle)
{
	const char *hit = strstr(line, needle), *end = strchr(line, '\n');

	return hit && (!end || hit < end);
}

static char *summary_cut(struct run *r, unsigned int max_entries)
{
	struct so_report rep = {
		.info = &r->info, .end = &r->end, .stats = &r->stats,
		.names = r->names, .hooks = &r->findings.hooks,
		.max_entries = max_entries,
	};
	struct test_capture cap;

	summary_text(test_capture_begin(&cap), &rep);
	test_capture_end(&cap);
	return cap.text;
}

static void test_answer_first_and_cut(void **state)
{
	const char *holds, *row1, *row2, *row3;
	char *text;
	struct run r;

	run_init(&r);
	fill_info(&r.info);
	fill_end(&r.end, 0);
	r.have_end = true;
	feed_live(&r);
	feed_noise(&r);
	text = summary_cut(&r, 3);
	/* The verdict and the cycle come before every table. */
	assert_non_null(strstr(text, "\nverdict: FAIL: 1 DEADLOCK-PRONE"));
	assert_true(strstr(text, "\nverdict: ") < strstr(text, "# contention"));
	assert_true(strstr(text, "DEADLOCK-PRONE: ") <
		    strstr(text, "# contention"));
	/* Hold times: the cycle's two classes on top although the noise
	 * held longer; one noise row fits; 14 more are counted. */
	holds = strstr(text, "# hold times\n");
	assert_non_null(holds);
	row1 = strchr(strchr(holds, '\n') + 1, '\n') + 1;
	row2 = strchr(row1, '\n') + 1;
	row3 = strchr(row2, '\n') + 1;
	assert_true(line_has(row1, "kn:test_sysfs0/test_dev_x") ||
		    line_has(row1, "&test_dev->config_mutex"));
	assert_true(line_has(row2, "kn:test_sysfs0/test_dev_x") ||
		    line_has(row2, "&test_dev->config_mutex"));
	assert_true(line_has(row3, "noise_mutex_"));
	assert_non_null(strstr(row3, "\n          ... 14 more (--entries 0 "
				     "for all)\n"));
	free(text);
	/* 0: every row, no cut line. */
	text = summary_cut(&r, 0);
	assert_non_null(strstr(text, "noise_mutex_14"));
	assert_null(strstr(text, "more (--entries 0 for all)"));
	free(text);
	run_fini(&r);
}

/* No knobs: the header says why, the JSON carries it as knobs_note. */
static void test_knobs_note(void **state)
{
	struct run r;
	char *text;

	run_init(&r);
	snprintf(r.info.knobs_note, sizeof(r.info.knobs_note),
		 "kernel without CONFIG_FAIL_KERNFS_KNOBS: x missing");
	text = summary_of(&r, false);
	assert_non_null(strstr(text, "\n# kernfs knobs: none (kernel without "
			       "CONFIG_FAIL_KERNFS_KNOBS: x missing)\n"));
	free(text);
	text = summary_of(&r, true);
	assert_non_null(strstr(text, "\"knobs_note\": \"kernel without "));
	free(text);
	run_fini(&r);
}

/* --- record, then report ---------------------------------------------- */

static int fetch_stack(void *ctx, int32_t id, uint64_t *addrs, uint32_t max)
{
	if (id != 5)
		return -1;
	addrs[0] = 0xffffffff81100020ULL;	/* mutex_lock+0x20 */
	addrs[1] = 0xffffffffc0a01040ULL;	/* test_dev_x_store+0x40 */
	return 2;
}

static int report_session(void *ctx, const struct so_session_info *info)
{
	((struct run *)ctx)->info = *info;
	return 0;
}

static int report_event(void *ctx, const void *rec, size_t len)
{
	pipeline_feed(&((struct run *)ctx)->pipe, rec, len);
	return 0;
}

static int report_stack(void *ctx, int32_t id, const uint64_t *addrs,
			uint32_t depth)
{
	return pipeline_add_stack(&((struct run *)ctx)->pipe, id, addrs,
				  depth);
}

static int report_ksym(void *ctx, uint64_t addr, uint64_t size, char type,
		       const char *name, const char *module)
{
	return ksyms_add(((struct run *)ctx)->ksyms, addr, size, type, name,
			 module);
}

static int report_trailer(void *ctx, const struct so_session_end *end)
{
	struct run *r = ctx;

	r->end = *end;
	r->have_end = true;
	return 0;
}

static const struct tf_handlers report_handlers = {
	.session = report_session,
	.event = report_event,
	.stack = report_stack,
	.ksym = report_ksym,
	.trailer = report_trailer,
};

static void test_record_then_report(void **state)
{
	struct so_edge_event evs[32];
	size_t sizes[32], n, i, len;
	struct tf_writer w;
	struct run live, report;
	char *live_text, *report_text, *trace = NULL, err[256];
	uint64_t dyn = SO_CLASS_MAKE(SO_CLASS_LOCK, 0xffff888000009000ULL);
	FILE *f;

	run_init(&live);
	fill_info(&live.info);
	fill_end(&live.end, 0);
	live.have_end = true;
	ksyms_add(live.ksyms, 0xffffffff81100000ULL, 0x100, 'T', "mutex_lock",
		  "");
	ksyms_add(live.ksyms, 0xffffffffc0a01000ULL, 0x200, 't',
		  "test_dev_x_store", "test_sysfs");
	ksyms_add(live.ksyms, 0xffffffffc0a01200ULL, 0x200, 't', "unrelated",
		  "test_sysfs");
	live.pipe.fetch_stack = fetch_stack;
	live.pipe.writer = &w;
	f = open_memstream(&trace, &len);
	assert_int_equal(tf_writer_open(&w, f, &live.info), 0);

	n = test_scenario(evs, sizes);
	/* One lock known only by address, named by its caller's stack. */
	evs[n].ev = test_event(SO_EV_LOCK_ACQUIRED, 1000000000ULL + 7000000,
			       9, dyn, NULL);
	evs[n].ev.obj = 0xffff888000009000ULL;
	evs[n].ev.stack_id = 5;
	sizes[n++] = sizeof(struct so_event);
	evs[n].ev = evs[n - 1].ev;
	evs[n].ev.type = SO_EV_LOCK_RELEASED;
	evs[n].ev.arg = 4000;
	evs[n].ev.stack_id = -1;
	sizes[n++] = sizeof(struct so_event);
	for (i = 0; i < n; i++)
		pipeline_feed(&live.pipe, &evs[i], sizes[i]);
	/* The session's end: the kernel's table counted each edge 500
	 * times; its records said 1.  An edge never fed, or seen once, is
	 * no count to pass on. */
	for (i = 0; i < n; i++) {
		struct so_edge_event e = evs[i];

		if (e.ev.type != SO_EV_EDGE)
			continue;
		e.val.count = 1;
		assert_int_equal(pipeline_edge_count(&live.pipe, &e.key,
			&e.val, e.ev.name, e.to_name), 0);
		e.val.count = 500;
		e.key.gate_ctx ^= 1;
		assert_int_equal(pipeline_edge_count(&live.pipe, &e.key,
			&e.val, e.ev.name, e.to_name), 0);
		e.key.gate_ctx ^= 1;
		assert_int_equal(pipeline_edge_count(&live.pipe, &e.key,
			&e.val, e.ev.name, e.to_name), 1);
	}
	/* Not events of their own: the figures count each edge once. */
	assert_int_equal(live.stats.nr_events, n);
	assert_int_equal(pipeline_write_ksyms(&live.pipe, live.ksyms), 2);
	live.end.counters[SO_CNT_EVENTS] = n;
	assert_int_equal(tf_writer_close(&w, &live.end), 0);
	fclose(f);
	live_text = summary_of(&live, false);
	assert_non_null(strstr(live_text, "mutex@test_dev_x_store"));
	assert_non_null(strstr(live_text, ", 500 times"));
	assert_null(strstr(live_text, ", 1 time"));

	run_init(&report);
	f = fmemopen(trace, len, "rb");
	assert_int_equal(tf_read(f, "trace.dat", &report_handlers, &report,
				 err, sizeof(err)), 0);
	fclose(f);
	report_text = summary_of(&report, false);
	assert_string_equal(report_text, live_text);
	free(live_text);
	free(report_text);
	free(trace);
	run_fini(&live);
	run_fini(&report);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text_golden),
		cmocka_unit_test(test_dropped_warning),
		cmocka_unit_test(test_edges_recovered),
		cmocka_unit_test(test_stack_without_probe_frames),
		cmocka_unit_test(test_empty_run),
		cmocka_unit_test(test_answer_first_and_cut),
		cmocka_unit_test(test_knobs_note),
		cmocka_unit_test(test_record_then_report),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
