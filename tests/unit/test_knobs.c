// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * The kernfs knobs' names, value checks and header line (cli/knobs.c),
 * and the per-delay table of 0029-0032 (report/knob_table.c): what each
 * row may show, and the table's lines.
 */
#include <errno.h>
#include "helpers.h"
#include "cli/knobs.h"
#include "report/knob_table.h"

static void test_knob_names(void **state)
{
	(void)state;
	assert_int_equal(knob_find("wait_at_start"), KNOB_WAIT_AT_START);
	assert_int_equal(knob_find("wait_after_active"),
			 KNOB_WAIT_AFTER_ACTIVE);
	assert_int_equal(knob_find("sleep_after_wait_ms"),
			 KNOB_SLEEP_AFTER_WAIT_MS);
	assert_int_equal(knob_find("probability"), KNOB_PROBABILITY);
	assert_int_equal(knob_find("wait_after"), -1);
	assert_int_equal(knob_find("task-filter"), -1);
	assert_true(knob_is_wait(KNOB_WAIT_AFTER_MUTEX));
	assert_false(knob_is_wait(KNOB_SLEEP_AFTER_WAIT_MS));
	assert_false(knob_is_wait(-1));
	/* The files of kernfs/README.md, under /sys/kernel/debug/kernfs. */
	assert_string_equal(knob_defs[KNOB_WAIT_BEFORE_MUTEX].file,
			    "config_fail_kernfs_fop_write_iter/wait_before_mutex");
	assert_string_equal(knob_defs[KNOB_TIMES].file,
			    "fail_kernfs_fop_write_iter/times");
	assert_string_equal(knob_defs[KNOB_SLEEP_AFTER_WAIT_MS].file,
			    "sleep_after_wait_ms");
}

static void parse_ok(const char *assignment, int want_id, const char *want)
{
	char value[KNOB_VALUE_LEN], err[256];
	int id = -2;

	assert_int_equal(knob_parse(assignment, &id, value, sizeof(value), err,
				    sizeof(err)), 0);
	assert_int_equal(id, want_id);
	assert_string_equal(value, want);
}

static void parse_bad(const char *assignment, const char *want)
{
	char value[KNOB_VALUE_LEN], err[256];
	int id;

	assert_int_equal(knob_parse(assignment, &id, value, sizeof(value), err,
				    sizeof(err)), -1);
	if (!strstr(err, want))
		fail_msg("'%s': got '%s', want '%s'", assignment, err, want);
}

static void test_knob_parse(void **state)
{
	(void)state;
	parse_ok("wait_after_active=Y", KNOB_WAIT_AFTER_ACTIVE, "Y");
	parse_ok("wait_at_start=1", KNOB_WAIT_AT_START, "Y");
	parse_ok("wait_at_start=n", KNOB_WAIT_AT_START, "N");
	parse_ok("sleep_after_wait_ms=16", KNOB_SLEEP_AFTER_WAIT_MS, "16");
	parse_ok("probability=100", KNOB_PROBABILITY, "100");
	parse_ok("probability=0", KNOB_PROBABILITY, "0");
	parse_ok("times=-1", KNOB_TIMES, "-1");
	parse_ok("interval=1", KNOB_INTERVAL, "1");

	parse_bad("=5", "not NAME=VALUE");
	parse_bad("probability", "not NAME=VALUE");
	parse_bad("kernfs_drain_delay_ms=5", "no such knob");
	parse_bad("wait_after_active=yes", "wait_after_active is a bool: Y or N");
	parse_bad("wait_after_active=", "is a bool");
	parse_bad("probability=101", "probability is a whole number, 0..100");
	parse_bad("probability=-1", "0..100");
	parse_bad("interval=0", "interval is a whole number, 1..");
	parse_bad("times=-2", "times is a whole number, -1..");
	parse_bad("sleep_after_wait_ms=0x10", "sleep_after_wait_ms is a whole");
	parse_bad("sleep_after_wait_ms= 7", "whole number");
	parse_bad("sleep_after_wait_ms=60001", "0..60000");
	parse_bad("verbose=99999999999999999999", "verbose is a whole number");
	/* The reason names the whole argument, as the user typed it. */
	parse_bad("probability=101", "--knob: 'probability=101': ");
}

static void test_knob_describe(void **state)
{
	struct knob_state st;
	char line[256];

	(void)state;
	memset(&st, 0, sizeof(st));
	snprintf(st.reason, sizeof(st.reason),
		 "kernel without CONFIG_FAIL_KERNFS_KNOBS");
	knob_describe(&st, line, sizeof(line));
	assert_string_equal(line,
			    "none (kernel without CONFIG_FAIL_KERNFS_KNOBS)");

	memset(&st, 0, sizeof(st));
	st.present = true;
	knob_state_set(&st, KNOB_WAIT_AT_START, "N\n");
	knob_state_set(&st, KNOB_WAIT_AFTER_ACTIVE, "Y\n");
	knob_state_set(&st, KNOB_SLEEP_AFTER_WAIT_MS, "16\n");
	knob_state_set(&st, KNOB_INTERVAL, "1\n");
	knob_state_set(&st, KNOB_PROBABILITY, "100\n");
	knob_state_set(&st, KNOB_TIMES, "1\n");
	knob_state_set(&st, KNOB_VERBOSE, "0\n");
	knob_state_set(&st, KNOB_NR, "ignored");
	assert_false(knob_in_header(&st, KNOB_WAIT_AT_START));
	assert_true(knob_in_header(&st, KNOB_WAIT_AFTER_ACTIVE));
	assert_false(knob_in_header(&st, KNOB_VERBOSE));
	assert_false(knob_in_header(&st, KNOB_WAIT_AFTER_MUTEX)); /* unread */
	knob_describe(&st, line, sizeof(line));
	assert_string_equal(line, "wait_after_active=Y sleep_after_wait_ms=16 "
			    "interval=1 probability=100 times=1");
	/* A short buffer truncates, never overflows. */
	knob_describe(&st, line, 12);
	assert_string_equal(line, "wait_after_");
}

static struct knob_row row_of(unsigned int delay, long long result,
			      double write_end, double rmmod_end)
{
	struct knob_row row;

	memset(&row, 0, sizeof(row));
	row.delay_ms = delay;
	row.fired = true;
	row.write_done = true;
	row.write_result = result;
	row.write_start_s = 10.0;
	row.write_end_s = write_end;
	row.rmmod_start_s = 10.1;
	row.rmmod_end_s = rmmod_end;
	return row;
}

static void check_row(const struct knob_row *row, int wait, bool fixed,
		      const char *want)
{
	struct knob_expect ex = { .wait_knob = wait, .fixed = fixed,
				  .write_len = 2 };
	char why[256] = "";
	bool ok = knob_row_check(row, &ex, why, sizeof(why));

	if (!want) {
		if (!ok)
			fail_msg("delay %u: unexpected failure '%s'",
				 row->delay_ms, why);
		return;
	}
	assert_false(ok);
	if (!strstr(why, want))
		fail_msg("got '%s', want '%s'", why, want);
}

static void test_knob_row_check(void **state)
{
	struct knob_row row;

	(void)state;
	/* after_active: written before rmmod returned, whatever the delay. */
	row = row_of(1024, 2, 11.1, 11.2);
	check_row(&row, KNOB_WAIT_AFTER_ACTIVE, false, NULL);
	row = row_of(16, -ENODEV, 10.2, 10.3);
	check_row(&row, KNOB_WAIT_AFTER_ACTIVE, false,
		  "although it held its active reference");
	row = row_of(16, 2, 10.4, 10.3);
	check_row(&row, KNOB_WAIT_AFTER_ACTIVE, false,
		  "succeeded after rmmod returned");
	/* Before the active reference: either outcome, but no other. */
	row = row_of(2, 2, 10.2, 10.3);
	check_row(&row, KNOB_WAIT_AT_START, false, NULL);
	row = row_of(64, -ENODEV, 10.5, 10.3);
	check_row(&row, KNOB_WAIT_BEFORE_MUTEX, false, NULL);
	row = row_of(64, -EINVAL, 10.2, 10.3);
	check_row(&row, KNOB_WAIT_AFTER_MUTEX, false,
		  "returned -EINVAL: neither 2 nor -ENODEV");
	row = row_of(8, 2, 10.4, 10.3);
	check_row(&row, KNOB_WAIT_AT_START, false,
		  "succeeded after rmmod returned");
	row = row_of(KNOB_RACE_LOSE_MS, 2, 10.2, 10.3);
	check_row(&row, KNOB_WAIT_AFTER_MUTEX, false,
		  "the removal must have won");
	/* The fix refuses every store once rmmod began. */
	row = row_of(1024, -ENODEV, 11.1, 10.3);
	check_row(&row, KNOB_WAIT_AFTER_ACTIVE, true, NULL);
	row = row_of(0, 2, 10.2, 10.3);
	check_row(&row, KNOB_WAIT_AT_START, true, "enable_try_module_get");
	/* Setup problems come first. */
	row = row_of(0, 2, 10.2, 10.3);
	row.fired = false;
	check_row(&row, KNOB_WAIT_AT_START, false, "never stopped");
	row = row_of(0, 2, 10.2, 10.3);
	row.rmmod_err = -EBUSY;
	check_row(&row, KNOB_WAIT_AT_START, false, "rmmod failed");
	row = row_of(0, 2, 10.2, 10.3);
	row.write_done = false;
	check_row(&row, KNOB_WAIT_AT_START, false, "did not report back");
	row = row_of(0, 2, 10.2, 10.3);
	row.dmesg_splat = true;
	snprintf(row.dmesg_line, sizeof(row.dmesg_line), "WARNING: x");
	check_row(&row, KNOB_WAIT_AFTER_ACTIVE, false, "dmesg: WARNING: x");
}

static void test_knob_result_text(void **state)
{
	char buf[32];

	(void)state;
	assert_string_equal(knob_result_text(2, buf, sizeof(buf)), "2 bytes");
	assert_string_equal(knob_result_text(1, buf, sizeof(buf)), "1 byte");
	assert_string_equal(knob_result_text(-ENODEV, buf, sizeof(buf)),
			    "-ENODEV");
	assert_string_equal(knob_result_text(-4095, buf, sizeof(buf)),
			    "-errno 4095");
}

static void test_knob_table(void **state)
{
	struct knob_expect ex = { .wait_knob = KNOB_WAIT_AT_START,
				  .write_len = 2 };
	struct knob_row rows[3];
	struct test_capture cap;
	FILE *out;

	(void)state;
	rows[0] = row_of(0, 2, 10.0125, 10.2);
	rows[1] = row_of(512, -ENODEV, 10.53, 10.15);
	rows[2] = row_of(1024, 0, 0, 10.15);
	rows[2].write_done = false;
	out = test_capture_begin(&cap);
	knob_table_header(out, "0029", &ex);
	knob_table_row(out, "0029", &rows[0], "ok");
	knob_table_row(out, "0029", &rows[1], "ok");
	knob_table_row(out, "0029", &rows[2], "the writer did not report back");
	knob_table_footer(out, "0029", rows, 3, &ex);
	assert_string_equal(test_capture_end(&cap),
"# sysfs_0029: a store held at wait_at_start, test_sysfs removed (enable_completion_on_rmmod=1)\n"
"# sysfs_0029: delay_ms  write      write_ms  rmmod_ms  write ended   verdict\n"
"# sysfs_0029:        0  2 bytes        12.5     100.0  before rmmod  ok\n"
"# sysfs_0029:      512  -ENODEV       530.0      50.0  after rmmod   ok\n"
"# sysfs_0029:     1024  -               0.0      50.0  -             the writer did not report back\n"
"# sysfs_0029: 3 delays: 1 written, 1 -ENODEV, 1 other\n");
	free(cap.text);
	assert_int_equal(knob_race_delays_ms[0], 0);
	assert_int_equal(knob_race_delays_ms[KNOB_RACE_NR_DELAYS - 1],
			 KNOB_RACE_LOSE_MS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_knob_names),
		cmocka_unit_test(test_knob_parse),
		cmocka_unit_test(test_knob_describe),
		cmocka_unit_test(test_knob_row_check),
		cmocka_unit_test(test_knob_result_text),
		cmocka_unit_test(test_knob_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
