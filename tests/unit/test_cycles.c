// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * The cycle and deadlock reports: golden text for the scenario pictures
 * (tests/golden/cycles_*.txt), the live stream's lines, and the JSON.
 */
#include "helpers.h"
#include "trace/names.h"
#include "analysis_fixtures.h"
#include "report/cycles.h"
#include "trace/stacks.h"

#define MUTEX(n)	SO_CLASS_MAKE(SO_CLASS_MUTEX, (n))

static int fake_stack(void *ctx, int32_t stack_id, FILE *out)
{
	(void)ctx;
	if (stack_id == 9)
		return -1;	/* as if the stack map lost it */
	fprintf(out, "      test_dev_x_store+0x1d/0x80 [test_sysfs]\n");
	fprintf(out, "      kernfs_fop_write_iter+0x12b/0x1c0 #%d\n",
		stack_id);
	return 0;
}

static struct og_graph *graph_0027(uint64_t lock, bool with_fix)
{
	struct og_graph *graph = fx_graph();

	assert_non_null(graph);
	fx_writer(graph, lock, with_fix);
	fx_rmmod(graph, lock);
	assert_int_equal(og_cycle_count(graph), 1);
	return graph;
}

static void test_golden_0027_prone(void **state)
{
	struct og_graph *graph = graph_0027(FX_CONFIG, false);
	struct test_capture capture;

	(void)state;
	cycles_detail(graph, og_cycle_at(graph, 0), fake_stack, NULL,
		      test_capture_begin(&capture));
	test_golden("cycles_0027_prone.txt", test_capture_end(&capture));
	free(capture.text);
	og_free(graph);
}

static void test_golden_0028_gated_section(void **state)
{
	struct og_graph *graph = graph_0027(FX_RTNL, true);
	struct test_capture capture;

	(void)state;
	assert_int_equal(cycles_print(graph, NULL, NULL,
				      test_capture_begin(&capture)), 0);
	test_golden("cycles_0028_gated.txt", test_capture_end(&capture));
	free(capture.text);
	og_free(graph);
}

static void test_golden_three_classes(void **state)
{
	struct og_graph *graph = fx_graph();
	struct fx_edge gated_writer = {
		FX_KN_X, SO_HOLD_READ, MUTEX(1), SO_HOLD_WRITE, 5, "bash", 5,
		3, FX_MOD, 0,
	};
	struct test_capture capture;

	(void)state;
	og_name_class(graph, MUTEX(1), "&a->lock");
	og_name_class(graph, MUTEX(2), "mutex@b_probe");
	fx_lock_edge(graph, MUTEX(1), MUTEX(2));
	fx_lock_edge(graph, MUTEX(2), FX_KN_X);
	fx_add(graph, &gated_writer);
	cycles_detail(graph, og_cycle_at(graph, 0), fake_stack, NULL,
		      test_capture_begin(&capture));
	test_golden("cycles_three_classes.txt", test_capture_end(&capture));
	free(capture.text);
	og_free(graph);
}

static void test_lines(void **state)
{
	char want[256];
	struct og_graph *graph = graph_0027(FX_CONFIG, false);
	struct test_capture capture;

	(void)state;
	cycles_line(graph, og_cycle_at(graph, 0),
		    test_capture_begin(&capture));
	assert_string_equal(test_capture_end(&capture),
			    "DEADLOCK-PRONE: &test_dev->config_mutex <-> "
			    "kn:test_sysfs0/test_dev_x (2 classes)\n");
	free(capture.text);
	og_free(graph);

	graph = fx_graph();
	fx_lock_edge(graph, MUTEX(1), MUTEX(2));
	fx_lock_edge(graph, MUTEX(2), MUTEX(3));
	fx_lock_edge(graph, MUTEX(3), MUTEX(1));
	cycles_line(graph, og_cycle_at(graph, 0),
		    test_capture_begin(&capture));
	/* Never an address: a handle (the same wherever met). */
	snprintf(want, sizeof(want),
		 "DEADLOCK-PRONE: mutex#%04x -> mutex#%04x -> mutex#%04x -> "
		 "mutex#%04x (3 classes)\n", addr_handle(MUTEX(3)),
		 addr_handle(MUTEX(1)), addr_handle(MUTEX(2)),
		 addr_handle(MUTEX(3)));
	assert_string_equal(test_capture_end(&capture), want);
	free(capture.text);
	og_free(graph);
}

static void test_section_skips_no_wait(void **state)
{
	struct og_graph *graph = graph_0027(FX_CONFIG, false);
	struct test_capture capture;
	const char *text;

	(void)state;
	fx_kn_read_read(graph);
	assert_int_equal(cycles_print(graph, NULL, NULL,
				      test_capture_begin(&capture)), 1);
	text = test_capture_end(&capture);
	assert_non_null(strstr(text, "# cycles: 1 deadlock-prone, 0 gated, "
				     "1 where nobody can wait\n"));
	assert_null(strstr(text, "NO-WAIT"));
	assert_null(strstr(text, "WARNING"));
	free(capture.text);
	og_free(graph);
}

static void test_section_warns_of_losses(void **state)
{
	struct og_limits limits = {
		.max_classes = 2, .max_edges = 4, .max_cycles = 4,
		.max_cycle_len = 2,
	};
	struct og_graph *graph = fx_judged(&limits);
	struct test_capture capture;

	(void)state;
	fx_lock_edge(graph, MUTEX(1), MUTEX(2));
	fx_lock_edge(graph, MUTEX(2), MUTEX(3));
	cycles_print(graph, NULL, NULL, test_capture_begin(&capture));
	assert_non_null(strstr(test_capture_end(&capture),
			       "WARNING! The graph was too big: 0 cycles, "
			       "0 edges, 0 variants, 1 classes lost"));
	free(capture.text);
	og_free(graph);
}

static void test_json_gated(void **state)
{
	struct og_graph *graph = graph_0027(FX_RTNL, true);
	struct test_capture capture;

	(void)state;
	assert_int_equal(cycles_json(graph, test_capture_begin(&capture)),
			 0);
	test_golden("cycles_0028_gated.json", test_capture_end(&capture));
	free(capture.text);
	og_free(graph);
}

static void test_json_escapes(void **state)
{
	struct og_graph *graph = fx_judged(NULL);
	struct test_capture capture;
	const char *text;

	(void)state;
	og_name_class(graph, MUTEX(1), "a\"b\\c\nd\x01\xc3\xa9");
	fx_lock_edge(graph, MUTEX(1), MUTEX(2));
	fx_lock_edge(graph, MUTEX(2), MUTEX(1));
	cycles_json(graph, test_capture_begin(&capture));
	text = test_capture_end(&capture);
	assert_non_null(strstr(text,
			       "\"a\\\"b\\\\c\\nd\\u0001\\u00c3\\u00a9\""));
	free(capture.text);
	og_free(graph);

	graph = fx_judged(NULL);
	cycles_json(graph, test_capture_begin(&capture));
	assert_string_equal(test_capture_end(&capture), "[]");
	free(capture.text);
	og_free(graph);
}

static void deadlock_0027(struct wf_graph *graph)
{
	fx_event(graph, SO_EV_KN_GET_ACTIVE, FX_WRITER_TID, "bash",
		 100000000, FX_KN_OBJ, FX_KN_X, "kn:test_sysfs0/test_dev_x", 1);
	fx_event(graph, SO_EV_LOCK_ACQUIRED, FX_RMMOD_TID, "rmmod",
		 200000000, FX_LOCK_OBJ, FX_CONFIG, "&test_dev->config_mutex",
		 0);
	fx_event(graph, SO_EV_CONTENTION_BEGIN, FX_WRITER_TID, "bash",
		 300000000, FX_LOCK_OBJ, 0, NULL, 0);
	fx_event(graph, SO_EV_KN_DRAIN_BEGIN, FX_RMMOD_TID, "rmmod",
		 400000000, FX_KN_OBJ, FX_KN_X, NULL, 0);
}

static void test_golden_deadlock(void **state)
{
	struct wf_graph *graph = wf_new(NULL);
	struct test_capture capture;
	struct wf_finding finding;

	(void)state;
	deadlock_0027(graph);
	assert_int_equal(wf_check(graph, 2500000000ULL, 0, &finding),
			 WF_FOUND_CYCLE);
	cycles_deadlock_print(&finding, fake_stack, NULL,
			      test_capture_begin(&capture));
	test_golden("cycles_deadlock.txt", test_capture_end(&capture));
	free(capture.text);
	cycles_deadlock_json(&finding, test_capture_begin(&capture));
	test_golden("cycles_deadlock.json", test_capture_end(&capture));
	free(capture.text);
	wf_free(graph);
}

static void test_hang_line(void **state)
{
	char want[256];
	struct wf_graph *graph = wf_new(NULL);
	struct test_capture capture;
	struct wf_finding finding;
	const char *text;

	(void)state;
	fx_event(graph, SO_EV_CONTENTION_BEGIN, 7, "cat", 1000000000ULL,
		 FX_LOCK_OBJ, 0, NULL, 0);
	assert_int_equal(wf_check(graph, 5000000000ULL, 3000000000ULL,
				  &finding), WF_FOUND_HANG);
	cycles_deadlock_line(&finding, test_capture_begin(&capture));
	snprintf(want, sizeof(want),
		 "HANG: cat/7 blocked 4.000000 s on lock#%04x (lock), past "
		 "the 3.000000 s hang timeout\n", addr_handle(FX_LOCK_OBJ));
	assert_string_equal(test_capture_end(&capture), want);
	free(capture.text);
	cycles_deadlock_print(&finding, NULL, NULL,
			      test_capture_begin(&capture));
	text = test_capture_end(&capture);
	assert_non_null(strstr(text, "holder unknown\n"));
	assert_non_null(strstr(text, "(not symbolized)"));
	free(capture.text);
	/* A stack read from the task when found says so, not an id. */
	finding.tasks[0].stack_id = stacks_task_id(7);
	cycles_deadlock_print(&finding, NULL, NULL,
			      test_capture_begin(&capture));
	text = test_capture_end(&capture);
	assert_non_null(strstr(text, "    stack, read when found:\n"));
	assert_null(strstr(text, "stack #"));
	free(capture.text);
	cycles_deadlock_json(&finding, test_capture_begin(&capture));
	text = test_capture_end(&capture);
	assert_non_null(strstr(text, "{\"kind\":\"hang\","));
	free(capture.text);
	wf_free(graph);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_golden_0027_prone),
		cmocka_unit_test(test_golden_0028_gated_section),
		cmocka_unit_test(test_golden_three_classes),
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_section_skips_no_wait),
		cmocka_unit_test(test_section_warns_of_losses),
		cmocka_unit_test(test_json_gated),
		cmocka_unit_test(test_json_escapes),
		cmocka_unit_test(test_golden_deadlock),
		cmocka_unit_test(test_hang_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
