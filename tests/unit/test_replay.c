// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * `report` of real traces: tests/golden/traces/ holds two recordings of
 * the guest (`sysfs-observe record -q --test 0028`, without and with
 * --fixed).  Replayed, each must give the verdicts and exit status the
 * live run gave: DEADLOCK-PRONE and the observed DEADLOCK (exit 1);
 * GATED on both locks (exit 0).  A trace the format can no longer read,
 * or an analysis that changed its mind, fails here.
 */
#include "helpers.h"
#include "report/replay.h"

static char *replay_of(const char *name, enum so_format format, int *rc)
{
	char path[256];
	struct test_capture cap;

	snprintf(path, sizeof(path), "%s/traces/%s",
		 getenv("SO_GOLDEN_DIR") ? getenv("SO_GOLDEN_DIR") :
					   "tests/golden", name);
	*rc = replay_report(path, format, test_capture_begin(&cap));
	test_capture_end(&cap);
	return cap.text;
}

static void test_unfixed_0028(void **state)
{
	int rc;
	char *text = replay_of("0028.data", SO_FMT_TEXT, &rc);

	(void)state;
	assert_int_equal(rc, 1);
	assert_non_null(strstr(text, "\nDEADLOCK-PRONE: &test_dev->config_mutex"
				     " <-> kn:test_sysfs0/test_dev_x"));
	assert_non_null(strstr(text, "\nDEADLOCK: "));
	assert_non_null(strstr(text, "(2 tasks)\n"));
	assert_non_null(strstr(text, "\nverdict: FAIL: 1 DEADLOCK-PRONE"));
	assert_non_null(strstr(text, "; DEADLOCK observed\n"));
	assert_null(strstr(text, "GATED: "));
	free(text);
	text = replay_of("0028.data", SO_FMT_JSON, &rc);
	assert_int_equal(rc, 1);
	assert_non_null(strstr(text, "\"verdict\":\"deadlock-prone\""));
	assert_non_null(strstr(text, "\"verdict\": \"fail\""));
	free(text);
}

static void test_fixed_0028(void **state)
{
	int rc;
	char *text = replay_of("0028-fixed.data", SO_FMT_TEXT, &rc);

	(void)state;
	assert_int_equal(rc, 0);
	assert_non_null(strstr(text, "\nGATED: &test_dev->config_mutex <-> "
				     "kn:test_sysfs0/test_dev_x"));
	assert_non_null(strstr(text, "\nGATED: rtnl_mutex <-> "
				     "kn:test_sysfs0/test_dev_x"));
	assert_non_null(strstr(text, "try_module_get reference on test_sysfs"));
	assert_non_null(strstr(text, "\nverdict: PASS: 0 DEADLOCK-PRONE, 2 GATED"));
	assert_null(strstr(text, "\nDEADLOCK"));
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unfixed_0028),
		cmocka_unit_test(test_fixed_0028),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
