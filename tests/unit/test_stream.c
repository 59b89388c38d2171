// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#include "helpers.h"
#include "trace/names.h"
#include "trace/stream.h"

static const char *stream_scenario(struct test_capture *cap, bool colour)
{
	struct so_edge_event evs[32];
	struct so_names *names = names_new(NULL);
	struct so_stream s;
	size_t sizes[32], n, i;

	n = test_scenario(evs, sizes);
	stream_init(&s, test_capture_begin(cap), names, colour,
		    1000000000ULL);
	stream_header(&s);
	for (i = 0; i < n; i++) {
		names_observe(names, &evs[i].ev, NULL);
		stream_event(&s, &evs[i].ev);
	}
	stream_finding(&s, 1000000000ULL + 1008000000ULL,
		       "DEADLOCK-PRONE", "%s -> %s -> %s",
		       "kn:test_sysfs0/test_dev_x",
		       "&test_dev->config_mutex",
		       "kn:test_sysfs0/test_dev_x");
	/* Nothing left out: each lock is taken in a store or a removal. */
	assert_int_equal(s.nr_hidden, 0);
	assert_int_equal(s.nr_lines, n + 1);
	stream_fini(&s);
	names_free(names);
	return test_capture_end(cap);
}

static void test_golden_lines(void **state)
{
	struct test_capture cap;
	const char *text = stream_scenario(&cap, false);
	const char *line = text;

	test_golden("stream_0028.txt", text);
	/* Under 80 columns where names allow (an edge or a finding names
	 * two or three classes), and no colour when not asked. */
	while (*line) {
		const char *nl = strchr(line, '\n');

		assert_non_null(nl);
		if (!memmem(line, nl - line, "->", 2))
			assert_true(nl - line < 80);
		line = nl + 1;
	}
	assert_null(strchr(text, '\033'));
	free(cap.text);
}

static void test_colour(void **state)
{
	struct test_capture cap;
	const char *text = stream_scenario(&cap, true);

	/* The refused get is red, the finding bold red, each reset. */
	assert_non_null(strstr(text, "\033[31mget_active   kn:test_sysfs0/test_dev_x refused\033[0m"));
	assert_non_null(strstr(text, "\033[1;31mDEADLOCK-PRONE\033[0m"));
	free(cap.text);
}

/*
 * The stream follows the driver: the loader's module_mutex is left out
 * (counted), a lock a task takes while it holds an active reference is
 * shown, and a class is shown once an edge relates it to a kernfs node;
 * with `all` (-v) everything is shown.
 */
/* As the live run does: names first, then the line. */
static void show(struct so_stream *s, const struct so_event *ev)
{
	names_observe(s->names, ev, NULL);
	stream_event(s, ev);
}

static void feed_noise_and_store(struct so_stream *s)
{
	const uint64_t mod_mutex = SO_CLASS_MAKE(SO_CLASS_MUTEX, 0x7777);
	struct so_edge_event e;
	struct so_event ev;

	ev = test_event(SO_EV_LOCK_ACQUIRED, 1100, 90, mod_mutex,
			"module_mutex");
	show(s, &ev);
	ev = test_event(SO_EV_LOCK_RELEASED, 1200, 90, mod_mutex, NULL);
	show(s, &ev);
	ev = test_event(SO_EV_KN_GET_ACTIVE, 1300, 7, KN_X,
			"test_sysfs0/test_dev_x");
	ev.ret = 1;
	show(s, &ev);
	ev = test_event(SO_EV_LOCK_ACQUIRED, 1400, 7, MTX_CFG,
			"&test_dev->config_mutex");
	show(s, &ev);	/* in the store: shown */
	ev = test_event(SO_EV_KN_PUT_ACTIVE, 1500, 7, KN_X, NULL);
	show(s, &ev);
	ev = test_event(SO_EV_LOCK_RELEASED, 1600, 7, MTX_CFG, NULL);
	show(s, &ev);	/* after the put, unrelated: out */
	memset(&e, 0, sizeof(e));
	e.ev = test_event(SO_EV_EDGE, 1700, 100, KN_X,
			  "&test_dev->config_mutex");
	e.key.from_class = MTX_CFG;
	e.key.to_class = KN_X;
	show(s, &e.ev);
	ev = test_event(SO_EV_LOCK_RELEASED, 1800, 100, MTX_CFG, NULL);
	show(s, &ev);	/* related now: shown */
}

static void test_follows_the_driver(void **state)
{
	struct so_names *names = names_new(NULL);
	struct test_capture cap;
	struct so_stream s;

	stream_init(&s, test_capture_begin(&cap), names, false, 1000);
	feed_noise_and_store(&s);
	test_capture_end(&cap);
	assert_null(strstr(cap.text, "module_mutex"));
	assert_non_null(strstr(cap.text, "&test_dev->config_mutex waited"));
	assert_non_null(strstr(cap.text,
			       "edge         &test_dev->config_mutex -> "));
	assert_int_equal(s.nr_hidden, 3);
	assert_int_equal(s.nr_lines, 5);
	free(cap.text);
	stream_fini(&s);

	stream_init(&s, test_capture_begin(&cap), names, false, 1000);
	s.all = true;
	feed_noise_and_store(&s);
	test_capture_end(&cap);
	assert_non_null(strstr(cap.text, "module_mutex"));
	assert_int_equal(s.nr_hidden, 0);
	assert_int_equal(s.nr_lines, 8);
	free(cap.text);
	stream_fini(&s);
	names_free(names);
	(void)state;
}

/* No negative time: an event before the session's start moves the
 * origin back until a line is out; after that, it shows as the origin. */
static void test_never_negative(void **state)
{
	struct so_names *names = names_new(NULL);
	struct test_capture cap;
	struct so_stream s;
	struct so_event ev;
	const char *line;

	stream_init(&s, test_capture_begin(&cap), names, false,
		    5000000000ULL);
	s.all = true;	/* lock events of no class: shown with -v */
	ev = test_event(SO_EV_LOCK_ACQUIRED, 4966112000ULL, 7, 0, NULL);
	stream_event(&s, &ev);	/* before t0: the new origin */
	ev.ts_ns = 4967112000ULL;
	stream_event(&s, &ev);	/* 1 ms later */
	ev.ts_ns = 4900000000ULL;
	stream_event(&s, &ev);	/* older than the origin */
	test_capture_end(&cap);
	assert_null(strstr(cap.text, "-0."));
	assert_int_equal(strncmp(cap.text, "  0.000000 ", 11), 0);
	line = strchr(cap.text, '\n') + 1;
	assert_int_equal(strncmp(line, "  0.001000 ", 11), 0);
	line = strchr(line, '\n') + 1;
	assert_int_equal(strncmp(line, "  0.000000 ", 11), 0);
	free(cap.text);
	stream_fini(&s);
	names_free(names);
	(void)state;
}

static void test_details(void **state)
{
	char want[256];
	struct so_names *names = names_new(NULL);
	struct so_stream s;
	char buf[200];
	struct so_event ev;

	stream_init(&s, stdout, names, false, 0);
	ev = test_event(SO_EV_KN_WRITE_END, 1, 7, 0, NULL);
	ev.obj = 0;
	ev.ret = 3;
	assert_string_equal(stream_details(&s, &ev, buf, sizeof(buf)),
			    "ret=3");
	ev.ret = -11;
	assert_string_equal(stream_details(&s, &ev, buf, sizeof(buf)),
			    "-EAGAIN");
	ev.ret = -300;
	assert_string_equal(stream_details(&s, &ev, buf, sizeof(buf)),
			    "-E300");
	ev = test_event(SO_EV_MOD_LOAD_BEGIN, 1, 7, 0, NULL);
	assert_string_equal(stream_details(&s, &ev, buf, sizeof(buf)),
			    "finit_module");
	ev = test_event(SO_EV_MUTEX_INIT, 1, 7, MTX_CFG, "&x->lock");
	ev.obj = 0xffff888000001000ULL;
	snprintf(want, sizeof(want), "&x->lock as lock#%04x",
		 addr_handle(0xffff888000001000ULL));
	assert_string_equal(stream_details(&s, &ev, buf, sizeof(buf)),
			    want);
	names_free(names);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_golden_lines),
		cmocka_unit_test(test_colour),
		cmocka_unit_test(test_details),
		cmocka_unit_test(test_never_negative),
		cmocka_unit_test(test_follows_the_driver),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
