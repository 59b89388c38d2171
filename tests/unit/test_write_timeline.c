// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * Write timelines: a write stopped at each kind of wait point against a
 * removal, followed to its end and to the removal of its device, with
 * the label from the event's knob state, from the session's callback,
 * or unknown; and the writes that must not make a timeline.
 */
#include "helpers.h"
#include "analysis/write_timeline.h"

#define MS		1000000ULL
#define WRITER		7
#define RMMOD		100	/* helpers.h names it "rmmod" */
#define T0		(5000 * MS)

static int setup(void **state)
{
	*state = wt_new();
	return *state ? 0 : -1;
}

static int teardown(void **state)
{
	wt_free(*state);
	return 0;
}

static void feed(struct wt_tracker *wt, uint32_t type, uint64_t ms_x10,
		 uint32_t tid, int64_t ret)
{
	struct so_event ev = test_event(type, T0 + ms_x10 * MS / 10, tid, KN_X,
					type == SO_EV_KN_WRITE_BEGIN ?
						"test_sysfs0/test_dev_x" : NULL);

	ev.ret = ret;
	wt_feed(wt, &ev);
}

/* The knob wait as the probe sends it with the knob state read. */
static void feed_wait(struct wt_tracker *wt, uint64_t ms_x10, uint32_t mask,
		      uint64_t sleep_ms)
{
	struct so_event ev = test_event(SO_EV_KNOB_WAIT, T0 + ms_x10 * MS / 10,
					WRITER, KN_X, NULL);

	ev.arg = sleep_ms;
	ev.ret = mask;
	ev.flags = SO_EVF_KNOB_STATE;
	wt_feed(wt, &ev);
}

static void feed_wake(struct wt_tracker *wt, uint64_t ms_x10,
		      uint64_t completed_ms_x10, bool seen)
{
	struct so_event ev = test_event(SO_EV_KNOB_WAKE, T0 + ms_x10 * MS / 10,
					WRITER, KN_X, NULL);

	ev.ret = completed_ms_x10 ? (int64_t)(T0 + completed_ms_x10 * MS / 10) :
				    0;
	ev.flags = seen ? SO_EVF_KNOB_SEEN : 0;
	wt_feed(wt, &ev);
}

static void feed_removal(struct wt_tracker *wt, uint32_t type,
			 uint64_t ms_x10, const char *device)
{
	struct so_event ev = test_event(type, T0 + ms_x10 * MS / 10, RMMOD, 0,
					device);

	ev.obj = 0;
	wt_feed(wt, &ev);
}

/* The step kinds of a timeline, in its order, for one assert. */
static const char *kinds(const struct wt_timeline *tl)
{
	static char buf[512];
	size_t used = 0;
	uint32_t i;

	buf[0] = 0;
	for (i = 0; i < tl->nr_steps; i++)
		used += snprintf(buf + used, sizeof(buf) - used, "%s%s",
				 i ? "," : "", wt_step_key(tl->steps[i].kind));
	return buf;
}

/* 0032's shape: the writer holds the active ref at the knob; rmmod
 * completes, removes the disk, drains and waits for the writer. */
static void after_active(struct wt_tracker *wt, bool with_complete_event)
{
	feed(wt, SO_EV_KN_WRITE_BEGIN, 0, WRITER, 0);
	feed(wt, SO_EV_KN_GET_ACTIVE, 1, WRITER, 1);
	feed_wait(wt, 2, 1u << SO_KNOB_AFTER_ACTIVE, 16);
	feed(wt, SO_EV_MOD_DELETE_BEGIN, 300, RMMOD, 0);
	if (with_complete_event)
		feed(wt, SO_EV_KNOB_COMPLETE, 403, RMMOD, 0);
	feed_removal(wt, SO_EV_DEL_GENDISK_BEGIN, 405, "test_sysfs0");
	feed(wt, SO_EV_KN_DRAIN_BEGIN, 410, RMMOD, 0);
	feed_wake(wt, 570, 403, true);
	feed(wt, SO_EV_KN_PUT_ACTIVE, 1400, WRITER, 0);
	feed(wt, SO_EV_KN_DRAIN_END, 1405, RMMOD, 0);
	feed(wt, SO_EV_KN_WRITE_END, 1412, WRITER, 2);
	feed_removal(wt, SO_EV_DEL_GENDISK_END, 1503, NULL);
	feed(wt, SO_EV_MOD_DELETE_END, 1600, RMMOD, 0);
}

static void test_after_active(void **state)
{
	struct wt_tracker *wt = *state;
	const struct wt_timeline *tl;

	after_active(wt, true);
	wt_finish(wt);
	assert_int_equal(wt_count(wt), 1);
	tl = wt_at(wt, 0);
	assert_string_equal(tl->label,
			    "wait_after_active, sleep_after_wait_ms=16");
	assert_int_equal(tl->knob_points, 1u << SO_KNOB_AFTER_ACTIVE);
	assert_int_equal(tl->sleep_ms, 16);
	assert_string_equal(kinds(tl),
			    "write_start,active_taken,knob_wait,completion,"
			    "drain_begin,knob_return,drain_end,write_done,"
			    "device_removed");
	assert_true(tl->done);
	assert_true(tl->removed);
	assert_int_equal(tl->ret, 2);
	assert_int_equal(tl->tid, WRITER);
	assert_string_equal(tl->name, "test_sysfs0/test_dev_x");
	assert_int_equal(tl->steps[3].tid, RMMOD);
	assert_true(wt_step_ms(tl, &tl->steps[3]) > 40.2 &&
		    wt_step_ms(tl, &tl->steps[3]) < 40.4);
	assert_null(wt_at(wt, 1));
}

/* Its text block: the wait point and delay first, then every step. */
static void test_print(void **state)
{
	struct wt_tracker *wt = *state;
	struct test_capture cap;
	const char *text, *line;

	after_active(wt, true);
	wt_finish(wt);
	wt_print(wt_at(wt, 0), test_capture_begin(&cap));
	text = test_capture_end(&cap);
	assert_string_equal(text,
		"wait_after_active, sleep_after_wait_ms=16: "
		"kn:test_sysfs0/test_dev_x by sh/7\n"
		"  +0.0 ms write starts, +0.1 active ref taken, +0.2 waiting "
		"at the knob,\n"
		"  +40.3 completion, +41.0 drain begins, +57.0 leaves the knob,"
		"\n"
		"  +140.5 drain ends, +141.2 write done (ret 2), +150.3 device "
		"removed\n");
	for (line = text; *line; line += strcspn(line, "\n") + 1)
		assert_true(strcspn(line, "\n") < 80);
	free(cap.text);
}

/* An unobserved completer: the wake says when the completion came. */
static void test_completion_from_wake(void **state)
{
	struct wt_tracker *wt = *state;
	const struct wt_timeline *tl;

	after_active(wt, false);
	wt_finish(wt);
	tl = wt_at(wt, 0);
	assert_string_equal(kinds(tl),
			    "write_start,active_taken,knob_wait,completion,"
			    "drain_begin,knob_return,drain_end,write_done,"
			    "device_removed");
	assert_int_equal(tl->steps[3].tid, 0);	/* nobody we saw */
	assert_true(wt_step_ms(tl, &tl->steps[3]) > 40.2 &&
		    wt_step_ms(tl, &tl->steps[3]) < 40.4);
}

/* 0029's shape: the writer waits before its active ref; the removal
 * deactivates the node meanwhile and the write fails -ENODEV.  With two
 * points on, the order tells which one fired. */
static void test_at_start_refused(void **state)
{
	struct wt_tracker *wt = *state;
	const struct wt_timeline *tl;
	struct test_capture cap;
	const char *text;

	feed(wt, SO_EV_KN_WRITE_BEGIN, 0, WRITER, 0);
	feed_wait(wt, 1, 1u << SO_KNOB_AT_START | 1u << SO_KNOB_AFTER_ACTIVE,
		  0);
	feed(wt, SO_EV_KNOB_COMPLETE, 400, RMMOD, 0);
	feed_wake(wt, 402, 400, true);
	feed_removal(wt, SO_EV_DEL_GENDISK_BEGIN, 403, "test_sysfs0");
	feed(wt, SO_EV_KN_DRAIN_BEGIN, 404, RMMOD, 0);
	feed(wt, SO_EV_KN_GET_ACTIVE, 405, WRITER, 0);
	feed(wt, SO_EV_KN_WRITE_END, 406, WRITER, -19);
	feed(wt, SO_EV_KN_DRAIN_END, 407, RMMOD, 0);
	feed_removal(wt, SO_EV_DEL_GENDISK_END, 500, NULL);
	wt_finish(wt);
	tl = wt_at(wt, 0);
	assert_string_equal(tl->label, "wait_at_start, sleep_after_wait_ms=0");
	assert_string_equal(kinds(tl),
			    "write_start,knob_wait,completion,knob_return,"
			    "drain_begin,active_refused,write_done,drain_end,"
			    "device_removed");
	assert_int_equal(tl->ret, -19);
	wt_print(tl, test_capture_begin(&cap));
	text = test_capture_end(&cap);
	assert_non_null(strstr(text, "+40.6 write done (-ENODEV)"));
	free(cap.text);
}

/* Writes that never wait make no timeline, and leave nothing behind. */
static void test_no_wait_no_timeline(void **state)
{
	struct wt_tracker *wt = *state;
	int i;

	for (i = 0; i < 3000; i++) {
		feed(wt, SO_EV_KN_WRITE_BEGIN, i * 10, WRITER + i, 0);
		feed(wt, SO_EV_KN_GET_ACTIVE, i * 10 + 1, WRITER + i, 1);
		feed(wt, SO_EV_KN_WRITE_END, i * 10 + 2, WRITER + i, 2);
	}
	/* A wait whose write was never seen has nothing to anchor it. */
	feed_wait(wt, 40000, 1u << SO_KNOB_AFTER_ACTIVE, 16);
	wt_finish(wt);
	assert_int_equal(wt_count(wt), 0);
	assert_int_equal(wt_dropped(wt), 0);
}

static void label_cb(void *ctx, char *label, size_t len)
{
	int *calls = ctx;

	(*calls)++;
	snprintf(label, len, "wait_after_mutex, sleep_after_wait_ms=4");
}

/* No knob state in the event: the session's callback names it, once. */
static void test_label_callback(void **state)
{
	struct wt_tracker *wt = *state;
	int calls = 0;

	wt_set_knob_fn(wt, label_cb, &calls);
	feed(wt, SO_EV_KN_WRITE_BEGIN, 0, WRITER, 0);
	feed(wt, SO_EV_KNOB_WAIT, 1, WRITER, 0);
	feed_wake(wt, 50, 30, false);
	feed(wt, SO_EV_KNOB_WAIT, 51, WRITER, 0);
	feed_wake(wt, 90, 80, false);
	feed(wt, SO_EV_KN_WRITE_END, 100, WRITER, 2);
	wt_finish(wt);
	assert_int_equal(calls, 1);
	assert_int_equal(wt_count(wt), 1);
	assert_string_equal(wt_at(wt, 0)->label,
			    "wait_after_mutex, sleep_after_wait_ms=4");
	assert_int_equal(wt_at(wt, 0)->nr_waits, 2);
	assert_int_equal(wt_at(wt, 0)->knob_points, 0);
	assert_int_equal(wt_at(wt, 0)->sleep_ms, -1);
	/* The event's state wins over the callback. */
	feed(wt, SO_EV_KN_WRITE_BEGIN, 200, WRITER, 0);
	feed_wait(wt, 201, 1u << SO_KNOB_BEFORE_MUTEX, 8);
	assert_int_equal(calls, 1);
	assert_string_equal(wt_at(wt, 1)->label,
			    "wait_before_mutex, sleep_after_wait_ms=8");
}

static void test_label_unknown(void **state)
{
	struct wt_tracker *wt = *state;
	struct so_event ev = test_event(SO_EV_KNOB_WAIT, 1, WRITER, KN_X,
					NULL);
	char label[WT_LABEL_LEN];

	wt_label_from_event(&ev, false, label, sizeof(label));
	assert_string_equal(label, "kernfs knob (state unknown)");
	ev.flags = SO_EVF_KNOB_STATE;
	ev.arg = 100;
	wt_label_from_event(&ev, true, label, sizeof(label));
	assert_string_equal(label, "no wait point, sleep_after_wait_ms=100");
	/* Only the earlier points on, yet the ref was held: say them all. */
	ev.ret = 1u << SO_KNOB_AT_START | 1u << SO_KNOB_AFTER_MUTEX;
	wt_label_from_event(&ev, true, label, sizeof(label));
	assert_string_equal(label, "wait_at_start|wait_after_mutex, "
			    "sleep_after_wait_ms=100");
	wt_label_from_event(&ev, false, label, 12);
	assert_string_equal(label, "wait_at_sta");
	(void)wt;
}

/* Completions are probed and none came: the wait timed out.  The
 * session then ends with the write still inside store(). */
static void test_timeout_and_session_end(void **state)
{
	struct wt_tracker *wt = *state;
	const struct wt_timeline *tl;
	struct test_capture cap;
	const char *text;

	feed(wt, SO_EV_KN_WRITE_BEGIN, 0, WRITER, 0);
	feed(wt, SO_EV_KN_GET_ACTIVE, 1, WRITER, 1);
	feed_wait(wt, 2, 1u << SO_KNOB_AFTER_ACTIVE, 16);
	feed_wake(wt, 30002, 0, true);
	wt_finish(wt);
	wt_finish(wt);
	tl = wt_at(wt, 0);
	assert_string_equal(kinds(tl), "write_start,active_taken,knob_wait,"
			    "timeout,knob_return");
	assert_false(tl->done);
	assert_false(tl->removed);
	wt_print(tl, test_capture_begin(&cap));
	text = test_capture_end(&cap);
	assert_non_null(strstr(text, "had not returned at the end"));
	free(cap.text);
}

/* Another device's removal is not this write's. */
static void test_other_device(void **state)
{
	struct wt_tracker *wt = *state;

	feed(wt, SO_EV_KN_WRITE_BEGIN, 0, WRITER, 0);
	feed_wait(wt, 1, 1u << SO_KNOB_AT_START, 16);
	feed_removal(wt, SO_EV_MISC_DEREG_BEGIN, 10, "test_sysfs1");
	feed_removal(wt, SO_EV_MISC_DEREG_END, 20, NULL);
	feed_wake(wt, 30, 25, true);
	feed(wt, SO_EV_KN_WRITE_END, 40, WRITER, 2);
	/* An end whose begin was never seen names nothing. */
	feed_removal(wt, SO_EV_DEL_GENDISK_END, 50, NULL);
	wt_finish(wt);
	assert_false(wt_at(wt, 0)->removed);
	feed_removal(wt, SO_EV_MISC_DEREG_BEGIN, 60, "test_sysfs0");
	feed_removal(wt, SO_EV_MISC_DEREG_END, 70, NULL);
	assert_true(wt_at(wt, 0)->removed);
}

static void test_names(void **state)
{
	uint32_t k;

	for (k = 0; k < WT_STEP_NR; k++) {
		assert_string_not_equal(wt_step_name(k), "?");
		assert_string_not_equal(wt_step_key(k), "?");
	}
	assert_string_equal(wt_step_name(WT_STEP_NR), "?");
	wt_feed(NULL, NULL);
	wt_finish(NULL);
	assert_int_equal(wt_count(NULL), 0);
	(void)state;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_after_active, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_print, setup, teardown),
		cmocka_unit_test_setup_teardown(test_completion_from_wake,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_at_start_refused, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_no_wait_no_timeline,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_label_callback, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_label_unknown, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_timeout_and_session_end,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_other_device, setup,
						teardown),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
