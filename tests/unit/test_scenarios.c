// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * The scenario table against sysfs.sh's ALL_TESTS, the dmesg check on
 * golden logs, and the KTAP lines.
 */
#include "helpers.h"
#include "analysis/dmesg_check.h"
#include "lib/exit_codes.h"
#include "cli/scenarios.h"
#include "report/test_results.h"

static void test_table_matches_all_tests(void **state)
{
	/* ALL_TESTS: id:count:enabled:target:type, 0001..0028; then seed
	 * 007's 0029-0032 (one run each, block, test_dev_x). */
	static const unsigned int counts[] = { 3, 3, 3, 3, 1, 1, 1, 1, 1, 1,
		1, 1, 1, 3, 3, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
		1, 1, 1, 1 };
	size_t i;

	(void)state;
	assert_int_equal(sc_nr_scenarios, 32);
	for (i = 0; i < 28; i++) {
		const struct sc_scenario *sc = &sc_scenarios[i];
		char id[24];	/* room for any size_t: -Wformat-truncation */

		snprintf(id, sizeof(id), "%04zu", i + 1);
		assert_string_equal(sc->id, id);
		assert_ptr_equal(sc_find(id), sc);
		assert_int_equal(sc->count, counts[i]);
		assert_int_equal(sc->enabled, i < 26);
		assert_false(sc->steps & SC_KNOB_RACE);
		assert_int_equal(sc->wait_knob, -1);
		assert_int_equal(sc->devtype, i < 13 ? SC_DEV_MISC :
						       SC_DEV_BLOCK);
		/* 0014-0026 repeat 0001-0013's steps on the block device */
		if (i >= 13 && i < 26) {
			assert_int_equal(sc->steps, sc_scenarios[i - 13].steps);
			assert_string_equal(sc->target,
					    sc_scenarios[i - 13].target);
		}
	}
}

/* 0029-0032: the knob race, one wait point each, in the order a write
 * passes them. */
static void test_knob_scenarios(void **state)
{
	static const int waits[] = { KNOB_WAIT_AT_START,
		KNOB_WAIT_BEFORE_MUTEX, KNOB_WAIT_AFTER_MUTEX,
		KNOB_WAIT_AFTER_ACTIVE };
	struct test_capture cap;
	const char *list;
	size_t i;

	(void)state;
	for (i = 28; i < sc_nr_scenarios; i++) {
		const struct sc_scenario *sc = &sc_scenarios[i];
		char id[24];

		snprintf(id, sizeof(id), "%04zu", i + 1);
		assert_ptr_equal(sc_find(id), sc);
		assert_int_equal(sc->count, 1);
		assert_true(sc->enabled);
		assert_int_equal(sc->devtype, SC_DEV_BLOCK);
		assert_string_equal(sc->target, "test_dev_x");
		assert_int_equal(sc->steps, SC_KNOB_RACE);
		assert_int_equal(sc->wait_knob, waits[i - 28]);
		assert_non_null(strstr(sc->desc,
				       "racing removal of store op with kernfs"));
	}
	sc_list(test_capture_begin(&cap));
	list = test_capture_end(&cap);
	assert_non_null(strstr(list, "\n0032 x 1 - block racing removal of "
			       "store op with kernfs (wait_after_active; "
			       "knob kernel)\n"));
	assert_non_null(strstr(list, "\n0028 x 1 - test rmmod deadlock "
			       "using rtnl_lock while writing x (disabled"));
	free(cap.text);
}

static void test_find_unknown(void **state)
{
	(void)state;
	assert_null(sc_find("9999"));
	assert_null(sc_find("0000"));
	assert_null(sc_find("0033"));
	assert_null(sc_find("abc"));
}

static void test_steps(void **state)
{
	(void)state;
	assert_true(sc_find("0008")->steps & SC_LOOP_WRITE_BG);
	assert_true(sc_find("0010")->steps & SC_RMMOD_FIRST);
	assert_string_equal(sc_find("0007")->loop_params,
			    "write_delay_msec_y=1500");
	assert_true(sc_find("0011")->steps & SC_LOOP_RESET);
	assert_non_null(strstr(sc_find("0028")->loop_params,
			       "use_rtnl_lock=1"));
	assert_null(strstr(sc_find("0028")->reload_params, "rtnl"));
	assert_true(sc_writes_y(sc_find("0015")));
	assert_false(sc_writes_y(sc_find("0014")));
}

static void test_dmesg_clean(void **state)
{
	char *log = slurp("tests/golden/dmesg/clean.txt");
	char line[128];

	(void)state;
	assert_false(sc_dmesg_splat(log, "sysfs-observe: run sysfs/0008 at "
				    "12000000", 0, line, sizeof(line)));
	/* without the marker the old WARNING counts */
	assert_true(sc_dmesg_splat(log, NULL, 0, line, sizeof(line)));
	assert_non_null(strstr(line, "WARNING: an old run"));
	free(log);
}

static void test_dmesg_splat_after_last_marker(void **state)
{
	char *log = slurp("tests/golden/dmesg/splat.txt");
	char line[128];

	(void)state;
	assert_true(sc_dmesg_splat(log, "sysfs-observe: run sysfs/0027", 0,
				   line, sizeof(line)));
	assert_non_null(strstr(line, "circular locking dependency"));
	assert_true(sc_dmesg_splat("x\nkernel BUG at fs/kernfs/dir.c:1\n",
				   NULL, 0, line, sizeof(line)));
	assert_false(sc_dmesg_splat("DEBUG: fine\nno BUGs here\n", NULL, 0,
				    line, sizeof(line)));
	free(log);
}

static void test_ktap_lines(void **state)
{
	struct sc_totals totals = { 0 };
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	(void)state;
	sc_results_begin(out, true, 3);
	sc_result_line(out, true, 1, "0001", "misc x", SC_PASS, 1.0, NULL,
		       &totals);
	sc_result_line(out, true, 2, "0002", "misc y", SC_FAIL, 2.0, "bad",
		       &totals);
	sc_result_line(out, true, 3, "0003", "misc z", SC_SKIP, 0.0, "no x",
		       &totals);
	sc_results_end(out, true, &totals);
	fclose(out);
	assert_string_equal(buf,
		"TAP version 13\n1..3\n"
		"ok 1 sysfs_0001\n# sysfs_0001: misc x (1.0 s)\n"
		"# sysfs_0002: bad\nnot ok 2 sysfs_0002\n"
		"# sysfs_0002: misc y (2.0 s)\n"
		"ok 3 sysfs_0003 # SKIP no x\n# sysfs_0003: misc z (0.0 s)\n"
		"# TOTAL 1 passed, 1 failed, 1 skipped in 3.0 s\n"
		"# Totals: pass:1 fail:1 xfail:0 xpass:0 skip:1 error:0\n");
	assert_int_equal(sc_results_exit_code(&totals), SO_EXIT_FAIL);
	free(buf);
}

static void test_exit_codes(void **state)
{
	struct sc_totals skipped = { .skip = 2 }, passed = { 1, 0, 1, 0 };

	(void)state;
	assert_int_equal(sc_results_exit_code(&skipped), SO_EXIT_SKIP);
	assert_int_equal(sc_results_exit_code(&passed), SO_EXIT_PASS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_matches_all_tests),
		cmocka_unit_test(test_knob_scenarios),
		cmocka_unit_test(test_find_unknown),
		cmocka_unit_test(test_steps),
		cmocka_unit_test(test_dmesg_clean),
		cmocka_unit_test(test_dmesg_splat_after_last_marker),
		cmocka_unit_test(test_ktap_lines),
		cmocka_unit_test(test_exit_codes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
