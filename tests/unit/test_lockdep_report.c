// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * Lockdep's circular-dependency report read from a kernel log, its class
 * names against ours, and each report held to our cycles: the same
 * cycle, one we call GATED, one we missed.
 */
#include "helpers.h"
#include "analysis_fixtures.h"
#include "analysis/dmesg_check.h"
#include "analysis/gates.h"
#include "analysis/lockdep_report.h"
#include "app/findings.h"

static void test_parse_report(void **state)
{
	char *log = slurp("tests/golden/dmesg/lockdep-circular.txt");
	struct ldr_report r[2];

	(void)state;
	assert_int_equal(ldr_parse_circular(log, "sysfs-observe: session "
					    "0028", r, 2), 1);
	assert_string_equal(r[0].task, "sysfs-observe/120");
	assert_string_equal(r[0].acquiring, "kn->active#3");
	assert_string_equal(r[0].holding, "&test_dev->config_mutex");
	/* A log without a report: none. */
	assert_int_equal(ldr_parse_circular("<4>[ 1.0] x\n", NULL, r, 2), 0);
	free(log);
}

static void test_parse_after_marker_only(void **state)
{
	char *log = slurp("tests/golden/dmesg/lockdep-circular.txt");
	char *twice = malloc(2 * strlen(log) + 64);
	struct ldr_report r[1];

	(void)state;
	/* The same report twice: counted twice, one slot filled. */
	sprintf(twice, "%s%s", log, log);
	assert_int_equal(ldr_parse_circular(twice, NULL, r, 1), 2);
	/* After a later session's marker: none. */
	strcat(twice, "<6>[ 30.0] sysfs-observe: session 0028 at 3\n");
	assert_int_equal(ldr_parse_circular(twice, "sysfs-observe: session "
					    "0028", r, 1), 0);
	free(twice);
	free(log);
}

/* Cut short (the log wrapped, or the report is half printed): none. */
static void test_parse_incomplete(void **state)
{
	struct ldr_report r[1];

	(void)state;
	assert_int_equal(ldr_parse_circular(
		"WARNING: possible circular locking dependency detected\n"
		"bash/1 is trying to acquire lock:\n"
		"ffff (a){+.+.}-{3:3}, at: f+0x1/0x2\n", NULL, r, 1), 0);
	/* dmesg's form, without the "<4>", and a name with parentheses. */
	assert_int_equal(ldr_parse_circular(
		"[ 1.0] WARNING: possible circular locking dependency detected\n"
		"[ 1.0] kworker/0:1/9 is trying to acquire lock:\n"
		"[ 1.0] ffff ((work_completion)(&w->work)){+.+.}-{0:0}, at: x\n"
		"[ 1.0] \n"
		"[ 1.0] but task is already holding lock:\n"
		"[ 1.0] ffff (\x1b[2Jlock){+.+.}-{3:3}, at: y\n", NULL, r, 1),
		1);
	assert_string_equal(r[0].task, "kworker/0:1/9");
	assert_string_equal(r[0].acquiring, "(work_completion)(&w->work)");
	/* Escaped: a log line must not drive the terminal. */
	assert_string_equal(r[0].holding, "\\x1b[2Jlock");
}

static void test_class_matches(void **state)
{
	(void)state;
	assert_true(ldr_class_matches("kn->active#3",
				      "kn:test_sysfs0/test_dev_x"));
	assert_true(ldr_class_matches("kn->active", "kn:a/b"));
	assert_false(ldr_class_matches("kn->active#3", "&kn->mutex"));
	assert_true(ldr_class_matches("&test_dev->config_mutex",
				      "&test_dev->config_mutex"));
	assert_true(ldr_class_matches("&test_dev->config_mutex/1",
				      "&test_dev->config_mutex"));
	assert_true(ldr_class_matches("&x->lock#2/1", "&x->lock"));
	assert_false(ldr_class_matches("&test_dev->config_mutex",
				       "&test_dev->config_mutexes"));
	assert_false(ldr_class_matches("rtnl_mutex",
				       "&test_dev->config_mutex"));
	assert_false(ldr_class_matches("#3", "kn:a"));
}

static const struct ldr_report fx_report = {
	"modprobe/168", "kn->active#3", "&test_dev->config_mutex",
};

static void test_judge_prone_gated_missed(void **state)
{
	struct so_findings f = { 0 };
	char *text = NULL;
	size_t len = 0;
	FILE *out;

	(void)state;
	/* No cycle at all: missed. */
	f.og = fx_graph();
	assert_null(ldr_our_cycle(f.og, &fx_report));
	out = open_memstream(&text, &len);
	assert_int_equal(findings_lockdep(&f, &fx_report, 1, out), 1);
	fclose(out);
	assert_non_null(strstr(text, "MISSED here"));
	assert_non_null(strstr(text, "modprobe/168 took kn->active#3 while "
			       "holding &test_dev->config_mutex"));
	free(text);

	/* 0027 unfixed: the same cycle, DEADLOCK-PRONE. */
	fx_writer(f.og, FX_CONFIG, false);
	fx_rmmod(f.og, FX_CONFIG);
	assert_non_null(ldr_our_cycle(f.og, &fx_report));
	assert_int_equal(ldr_our_cycle(f.og, &fx_report)->verdict.kind,
			 OG_VERDICT_PRONE);
	out = open_memstream(&text, &len);
	assert_int_equal(findings_lockdep(&f, &fx_report, 1, out), 0);
	fclose(out);
	assert_non_null(strstr(text, "the same cycle here: DEADLOCK-PRONE"));
	free(text);
	og_free(f.og);

	/* Fixed: the writer holds a module reference; GATED. */
	f.og = fx_graph();
	fx_writer(f.og, FX_CONFIG, true);
	fx_rmmod(f.og, FX_CONFIG);
	assert_int_equal(ldr_our_cycle(f.og, &fx_report)->verdict.kind,
			 OG_VERDICT_GATED);
	out = open_memstream(&text, &len);
	assert_int_equal(findings_lockdep(&f, &fx_report, 1, out), 0);
	fclose(out);
	assert_non_null(strstr(text, "GATED here, lockdep's false alarm"));
	assert_non_null(strstr(text, "test_sysfs"));
	free(text);

	/* A cycle with only one of the two locks is not lockdep's. */
	og_free(f.og);
	f.og = fx_graph();
	fx_writer(f.og, FX_RTNL, false);
	fx_rmmod(f.og, FX_RTNL);
	assert_null(ldr_our_cycle(f.og, &fx_report));
	og_free(f.og);
}

/* The scenarios' dmesg check leaves lockdep's cycles to the judge. */
static void test_dmesg_cycles_judged(void **state)
{
	char *log = slurp("tests/golden/dmesg/lockdep-circular.txt");
	char line[128];

	(void)state;
	assert_true(sc_dmesg_splat(log, NULL, 0, line, sizeof(line)));
	assert_false(sc_dmesg_splat(log, NULL, SC_DMESG_CYCLES_JUDGED, line,
				    sizeof(line)));
	free(log);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_report),
		cmocka_unit_test(test_parse_after_marker_only),
		cmocka_unit_test(test_parse_incomplete),
		cmocka_unit_test(test_class_matches),
		cmocka_unit_test(test_judge_prone_gated_missed),
		cmocka_unit_test(test_dmesg_cycles_judged),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
