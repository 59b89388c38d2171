// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#include "helpers.h"
#include "lib/exit_codes.h"
#include "cli/options.h"

#define ARGV(...) ((char *[]){ "sysfs-observe", __VA_ARGS__, NULL })
#define ARGC(...) ((int)(sizeof((char *[]){ "sysfs-observe", __VA_ARGS__ }) / \
			 sizeof(char *)))
#define PARSE(opts, err, ...) \
	opt_parse(opts, ARGC(__VA_ARGS__), ARGV(__VA_ARGS__), err, \
		  sizeof(err))

/* --module PATH: the file the scenarios load, and its name the filter. */
static void test_module_path(void **state)
{
	struct so_options o;
	char err[256];

	assert_int_equal(PARSE(&o, err, "--test", "0001", "--module",
			       "build/module/test_sysfs.ko"), 0);
	assert_string_equal(o.module_path, "build/module/test_sysfs.ko");
	assert_string_equal(o.module, "test_sysfs");
	assert_int_equal(PARSE(&o, err, "--test", "0001", "--module",
			       "test_sysfs.ko.xz"), 0);
	assert_string_equal(o.module, "test_sysfs");
	assert_int_equal(PARSE(&o, err, "--attach", "--module",
			       "test_sysfs"), 0);
	assert_null(o.module_path);
	assert_string_equal(o.module, "test_sysfs");
	assert_int_equal(PARSE(&o, err, "--test", "0001", "--module",
			       "/tmp/"), SO_EXIT_USAGE);
	assert_non_null(strstr(err, "not a module file"));
	assert_int_equal(PARSE(&o, err, "--test", "0001", "--module",
			       "./test_sysfs.kobj"), SO_EXIT_USAGE);
	(void)state;
}

/* Issue 14: what used to be accepted in silence is a usage error now. */
static void test_repeats_and_empties(void **state)
{
	struct so_options o;
	char err[256];

	(void)state;
	assert_int_equal(PARSE(&o, err, "--test", "0028", "--test", "0027"),
			 SO_EXIT_USAGE);
	assert_non_null(strstr(err, "--test given twice"));
	assert_int_equal(PARSE(&o, err, "report", "-i", "a", "-i", "b"),
			 SO_EXIT_USAGE);
	assert_non_null(strstr(err, "-i given twice"));
	assert_int_equal(PARSE(&o, err, "--attach", "--duration=1",
			       "--duration=2"), SO_EXIT_USAGE);
	assert_non_null(strstr(err, "--duration=2 given twice"));
	assert_int_equal(PARSE(&o, err, "--test", "all", "--count", "0008",
			       "2", "--count", "0008", "3"), SO_EXIT_USAGE);
	assert_non_null(strstr(err, "--count 0008 given twice"));
	assert_int_equal(PARSE(&o, err, "--test", "0028", "--count", "0008",
			       "2"), SO_EXIT_USAGE);
	assert_non_null(strstr(err, "that test is not run"));
	assert_int_equal(PARSE(&o, err, "--attach", "--module", ""),
			 SO_EXIT_USAGE);
	assert_non_null(strstr(err, "--module: empty"));
	assert_int_equal(PARSE(&o, err, "--attach", "--path", ""),
			 SO_EXIT_USAGE);
	assert_non_null(strstr(err, "--path: empty"));
	assert_int_equal(PARSE(&o, err, "--attach", "--duration", "0x10"),
			 SO_EXIT_USAGE);
	assert_int_equal(PARSE(&o, err, "--attach", "--duration", "1e3"),
			 SO_EXIT_USAGE);
	assert_int_equal(PARSE(&o, err, "--attach", "--duration", "1."),
			 0);
	/* Still fine: repeatable options, and a count for a test run. */
	assert_int_equal(PARSE(&o, err, "--test", "all", "--count", "0008",
			       "2", "--count", "0009", "3", "--param", "a=1",
			       "--param", "b=2", "-q", "-q"), 0);
	assert_int_equal(PARSE(&o, err, "--test", "0008", "--count", "0008",
			       "2", "--window", "2.5"), 0);
	assert_true(o.window_s == 2.5);
}

/* --path is matched as the probes see kernfs names; too long is a usage
 * error at parse time on every machine (it was exit 4 or 2). */
static void test_path_filter(void **state)
{
	char long_path[300], out[SO_PATH_FILTER_LEN], err[256];
	struct so_options o;

	(void)state;
	assert_int_equal(opt_path_filter("/sys/devices/virtual/misc/"
					 "test_sysfs0", out, sizeof(out)), 0);
	assert_string_equal(out, "test_sysfs0/");
	assert_int_equal(opt_path_filter("/sys/devices/virtual/misc/test_sysfs0//",
					 out, sizeof(out)), 0);
	assert_string_equal(out, "test_sysfs0/");
	assert_int_equal(opt_path_filter("test_sysfs0/test_dev_x", out,
					 sizeof(out)), 0);
	assert_string_equal(out, "test_sysfs0/test_dev_x");
	assert_int_equal(opt_path_filter("/sys/a_directory_name_of_30_chars_x",
					 out, sizeof(out)), -1);
	assert_int_equal(opt_path_filter("/sys/a_directory_name_of_29_chars",
					 out, sizeof(out)), 0);
	memset(long_path, 'a', sizeof(long_path) - 1);
	long_path[0] = '/';
	long_path[sizeof(long_path) - 1] = 0;
	assert_int_equal(PARSE(&o, err, "--attach", "--path", long_path),
			 SO_EXIT_USAGE);
	assert_non_null(strstr(err, "at most 30 characters"));
	assert_int_equal(PARSE(&o, err, "--attach", "--path",
			       "/sys/devices/virtual/misc/test_sysfs0"), 0);
	assert_string_equal(o.path_filter, "test_sysfs0/");
}

/* --ringbuf-kib: a power of 2 of whole pages, or a usage error. */
static void test_ringbuf_kib(void **state)
{
	static char *const bad[] = {
		"0", "2", "6", "1000", "2097152", "-4", "4k", "0x10", "",
	};
	struct so_options o;
	char err[256];
	size_t i;

	assert_int_equal(PARSE(&o, err, "--test", "0027"), 0);
	assert_int_equal(o.ringbuf_kib, 0);
	assert_int_equal(PARSE(&o, err, "--test", "0027", "--ringbuf-kib",
			       "4"), 0);
	assert_int_equal(o.ringbuf_kib, 4);
	assert_int_equal(PARSE(&o, err, "--attach", "--ringbuf-kib",
			       "1048576"), 0);
	assert_int_equal(o.ringbuf_kib, 1048576);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(PARSE(&o, err, "--attach", "--ringbuf-kib",
				       bad[i]), SO_EXIT_USAGE);
		assert_non_null(strstr(err, "not a power of 2"));
	}
	(void)state;
}

/* --map-nr-entries (perf lock's): a decimal count from 64 to 1048576,
 * or a usage error that names the option; 0 (absent) the defaults. */
static void test_map_nr_entries(void **state)
{
	static char *const bad[] = {
		"63", "1048577", "abc", "12x", "", "0", "-64", "0x100", " 64",
	};
	struct so_options o;
	char err[256];
	size_t i;

	assert_int_equal(PARSE(&o, err, "--test", "0027"), 0);
	assert_int_equal(o.map_nr_entries, 0);
	assert_int_equal(PARSE(&o, err, "--attach", "--map-nr-entries",
			       "64"), 0);
	assert_int_equal(o.map_nr_entries, 64);
	assert_int_equal(PARSE(&o, err, "--test", "0028", "--map-nr-entries",
			       "1048576"), 0);
	assert_int_equal(o.map_nr_entries, 1048576);
	assert_int_equal(PARSE(&o, err, "--attach", "--map-nr-entries",
			       "20000"), 0);
	assert_int_equal(o.map_nr_entries, 20000);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(PARSE(&o, err, "--attach", "--map-nr-entries",
				       bad[i]), SO_EXIT_USAGE);
		assert_non_null(strstr(err, "--map-nr-entries: '"));
		assert_non_null(strstr(err, "is not a number from 64 to 1048576"));
	}
	assert_int_equal(PARSE(&o, err, "--attach", "--map-nr-entries", "64",
			       "--map-nr-entries", "128"), SO_EXIT_USAGE);
	assert_non_null(strstr(err, "--map-nr-entries given twice"));
	(void)state;
}

/* -E/--entries: rows per table, perf's -E; 0 for all; decimal only. */
static void test_entries(void **state)
{
	static char *const bad[] = { "-1", "x", "0x10", "", "1000001" };
	struct so_options o;
	char err[256];
	size_t i;

	assert_int_equal(PARSE(&o, err, "--test", "0027"), 0);
	assert_int_equal(o.entries, SO_ENTRIES_DEFAULT);
	assert_int_equal(PARSE(&o, err, "--test", "0027", "-E", "0"), 0);
	assert_int_equal(o.entries, 0);
	assert_int_equal(PARSE(&o, err, "report", "--entries", "25"), 0);
	assert_int_equal(o.entries, 25);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(PARSE(&o, err, "--attach", "--entries",
				       bad[i]), SO_EXIT_USAGE);
		assert_non_null(strstr(err, "--entries: "));
	}
	assert_int_equal(PARSE(&o, err, "--attach", "-E", "3", "-E", "4"),
			 SO_EXIT_USAGE);
	(void)state;
}

/* --svg: one session (a test, --attach) or report; not all, not --watch. */
static void test_svg(void **state)
{
	struct so_options o;
	char err[256];

	assert_int_equal(PARSE(&o, err, "--test", "0028", "--svg", "a.svg"), 0);
	assert_string_equal(o.svg, "a.svg");
	assert_int_equal(PARSE(&o, err, "--attach", "--svg", "a.svg"), 0);
	assert_int_equal(PARSE(&o, err, "report", "--svg", "a.svg"), 0);
	assert_int_equal(PARSE(&o, err, "--test", "all", "--svg", "a.svg"),
			 SO_EXIT_USAGE);
	assert_non_null(strstr(err, "one session"));
	assert_int_equal(PARSE(&o, err, "--watch", "0001", "--svg", "a.svg"),
			 SO_EXIT_USAGE);
	assert_int_equal(PARSE(&o, err, "--list", "--svg", "a.svg"),
			 SO_EXIT_USAGE);
	assert_int_equal(PARSE(&o, err, "--attach", "--svg", ""),
			 SO_EXIT_USAGE);
	assert_int_equal(PARSE(&o, err, "--attach", "--svg", "a", "--svg",
			       "b"), SO_EXIT_USAGE);
	(void)state;
}

static void test_attach(void **state)
{
	struct so_options o;
	char err[256];

	assert_int_equal(PARSE(&o, err, "--attach", "--module", "test_sysfs",
			       "--path", "/sys/devices/virtual", "--pid",
			       "42", "--duration", "6", "-vv"), 0);
	assert_int_equal(o.action, SO_ACT_ATTACH);
	assert_string_equal(o.module, "test_sysfs");
	assert_string_equal(o.path_prefix, "/sys/devices/virtual");
	assert_int_equal(o.pid, 42);
	assert_true(o.duration_s == 6.0);
	assert_int_equal(o.verbosity, 2);
	assert_int_equal(o.subcommand, SO_SUB_NONE);

	assert_int_equal(PARSE(&o, err, "--attach", "-vvvv", "--duration",
			       "0.5"), 0);
	assert_int_equal(o.verbosity, 3);
	assert_true(o.duration_s == 0.5);

	/* --knob: repeatable, kept as typed; the session applies them. */
	assert_int_equal(PARSE(&o, err, "--attach", "--knob",
			       "wait_after_active=Y", "--knob",
			       "probability=100", "--", "sh", "-c", "true"),
			 0);
	assert_int_equal(o.nr_knobs, 2);
	assert_string_equal(o.knobs[0], "wait_after_active=Y");
	assert_string_equal(o.knobs[1], "probability=100");
	assert_int_equal(o.nr_command, 3);
}

static void test_runner(void **state)
{
	struct so_options o;
	char err[256];

	assert_int_equal(PARSE(&o, err, "--test", "0028", "--fixed",
			       "--count", "0028", "3", "--param",
			       "enable_lock=1", "--param", "delay_ms=5",
			       "--window", "2.5", "--format", "ktap",
			       "-q", "--hang-timeout", "10"), 0);
	assert_int_equal(o.action, SO_ACT_TEST);
	assert_string_equal(o.test, "0028");
	assert_true(o.fixed);
	assert_int_equal(o.nr_counts, 1);
	assert_string_equal(o.counts[0].id, "0028");
	assert_int_equal(o.counts[0].count, 3);
	assert_int_equal(o.nr_params, 2);
	assert_string_equal(o.params[1], "delay_ms=5");
	assert_true(o.window_s == 2.5);
	assert_int_equal(o.format, SO_FMT_KTAP);
	assert_true(o.quiet);
	assert_true(o.hang_timeout_s == 10.0);

	assert_int_equal(PARSE(&o, err, "--test", "all"), 0);
	assert_string_equal(o.test, "all");
	assert_int_equal(PARSE(&o, err, "--watch", "0018"), 0);
	assert_int_equal(o.action, SO_ACT_WATCH);
	assert_int_equal(PARSE(&o, err, "--list"), 0);
	assert_int_equal(o.action, SO_ACT_LIST);
	assert_int_equal(PARSE(&o, err, "--probes"), 0);
	assert_int_equal(o.action, SO_ACT_PROBES);
}

static void test_subcommands(void **state)
{
	struct so_options o;
	char err[256];

	assert_int_equal(PARSE(&o, err, "record", "-o", "t.data", "--test",
			       "0018"), 0);
	assert_int_equal(o.subcommand, SO_SUB_RECORD);
	assert_int_equal(o.action, SO_ACT_TEST);
	assert_string_equal(o.output, "t.data");
	assert_int_equal(PARSE(&o, err, "record", "--attach"), 0);
	assert_string_equal(o.output, SO_DEFAULT_TRACE);
	assert_int_equal(PARSE(&o, err, "report"), 0);
	assert_int_equal(o.action, SO_ACT_REPORT);
	assert_string_equal(o.input, SO_DEFAULT_TRACE);
	assert_int_equal(PARSE(&o, err, "report", "-i", "x", "--format",
			       "json"), 0);
	assert_string_equal(o.input, "x");
	assert_int_equal(o.format, SO_FMT_JSON);
}

static void test_help_version(void **state)
{
	struct so_options o;
	char err[256];

	assert_int_equal(PARSE(&o, err, "--help"), 0);
	assert_int_equal(o.action, SO_ACT_HELP);
	assert_int_equal(PARSE(&o, err, "-h"), 0);
	assert_int_equal(PARSE(&o, err, "--version"), 0);
	assert_int_equal(o.action, SO_ACT_VERSION);
	/* Options are taken in order: a conflict before -h is an error. */
	assert_int_equal(PARSE(&o, err, "--attach", "--test", "0001", "-h"),
			 SO_EXIT_USAGE);
}

/* Each bad command line: exit 2 and a reason that says what to fix. */
static void expect_bad(char **argv, int argc, const char *reason)
{
	struct so_options o;
	char err[256];

	assert_int_equal(opt_parse(&o, argc, argv, err, sizeof(err)),
			 SO_EXIT_USAGE);
	if (!strstr(err, reason))
		fail_msg("error \"%s\" does not say \"%s\"", err, reason);
}

#define BAD(reason, ...) expect_bad(ARGV(__VA_ARGS__), ARGC(__VA_ARGS__), \
				    reason)

/* --test FROM-TO: the ids between, both included; a bad range is input. */
static void test_test_range(void **state)
{
	struct so_options o;
	char err[256];

	(void)state;
	assert_int_equal(PARSE(&o, err, "--test", "0029-0032"), 0);
	assert_int_equal(o.action, SO_ACT_TEST);
	assert_string_equal(o.test, "0029-0032");
	assert_true(opt_test_selects("0029-0032", "0029"));
	assert_true(opt_test_selects("0029-0032", "0030"));
	assert_true(opt_test_selects("0029-0032", "0032"));
	assert_false(opt_test_selects("0029-0032", "0028"));
	assert_false(opt_test_selects("0029-0032", "0033"));
	assert_true(opt_test_selects("0028-0028", "0028"));
	assert_true(opt_test_selects("all", "0017"));
	assert_true(opt_test_selects("0017", "0017"));
	assert_false(opt_test_selects("0017", "0018"));
	assert_true(opt_is_test_selection("0001-0028"));
	assert_false(opt_is_test_selection("0032-0029"));
	assert_false(opt_is_test_selection("0029-"));
	assert_false(opt_is_test_selection("0029-00320"));
	assert_false(opt_is_test_selection("29-32"));
	assert_false(opt_is_test_selection("0029_0032"));
	assert_int_equal(PARSE(&o, err, "--test", "0032-0029"), SO_EXIT_USAGE);
	assert_non_null(strstr(err, "a range (0029-0032)"));
	/* --count within the range is a test run; outside it is not. */
	assert_int_equal(PARSE(&o, err, "--test", "0001-0010", "--count",
			       "0008", "2"), 0);
	assert_int_equal(PARSE(&o, err, "--test", "0001-0010", "--count",
			       "0011", "2"), SO_EXIT_USAGE);
	assert_non_null(strstr(err, "that test is not run"));
	/* A range is several sessions: no one picture. */
	assert_int_equal(PARSE(&o, err, "--test", "0027-0028", "--svg",
			       "a.svg"), SO_EXIT_USAGE);
	assert_non_null(strstr(err, "one session"));
}

static void test_bad_inputs(void **state)
{
	struct so_options o;
	char err[256];

	assert_int_equal(opt_parse(&o, 1, ARGV("x"), err, sizeof(err)),
			 SO_EXIT_USAGE);
	assert_non_null(strstr(err, "nothing to do"));
	BAD("unknown option '--frobnicate'", "--frobnicate");
	BAD("unknown option '-z'", "-z");
	BAD("--pid needs an argument", "--attach", "--pid");
	BAD("--pid: 'abc' is not a process id", "--attach", "--pid", "abc");
	BAD("--pid: '-3' is not a process id", "--attach", "--pid", "-3");
	BAD("--pid: '0' is not a process id", "--attach", "--pid", "0");
	BAD("--duration: 'soon' is not a number of seconds", "--attach",
	    "--duration", "soon");
	BAD("--duration: '-1' is not", "--attach", "--duration", "-1");
	BAD("--duration: 'inf' is not", "--attach", "--duration", "inf");
	BAD("--test: 'abc' is not a test id", "--test", "abc");
	BAD("--test: '28' is not a test id", "--test", "28");
	BAD("--count 0001: '-1' is not a positive number", "--test", "all",
	    "--count", "0001", "-1");
	BAD("--count 0001: '0' is not a positive number", "--test", "all",
	    "--count", "0001", "0");
	BAD("--count 0001: missing the count", "--test", "all", "--count",
	    "0001");
	BAD("--count: 'x' is not a test id", "--test", "all", "--count", "x",
	    "1");
	BAD("--count applies to scenario runs", "--attach", "--count",
	    "0001", "2");
	BAD("--attach and --test cannot be combined", "--attach", "--test",
	    "0001");
	BAD("--test and --list cannot be combined", "--test", "0001",
	    "--list");
	BAD("-q and -v cannot be combined", "--attach", "-q", "-v");
	BAD("--format: 'xml' is not text, json or ktap", "--attach",
	    "--format", "xml");
	BAD("--format ktap applies to scenario runs", "--attach", "--format",
	    "ktap");
	BAD("--param: 'novalue' is not NAME=VALUE", "--test", "0001",
	    "--param", "novalue");
	BAD("--knob: '=5': not NAME=VALUE", "--attach", "--knob", "=5");
	BAD("--knob applies to --attach (scenarios 0029-0032 set the knobs",
	    "--test", "0032", "--knob", "sleep_after_wait_ms=5");
	BAD("--knob: 'frob=1': no such knob (wait_at_start,", "--attach",
	    "--knob", "frob=1");
	BAD("--knob: 'probability=101': probability is a whole number, 0..100",
	    "--attach", "--knob", "probability=101");
	BAD("--knob: 'wait_at_start=maybe': wait_at_start is a bool: Y or N",
	    "--attach", "--knob", "wait_at_start=maybe");
	BAD("--fixed applies to scenario runs", "--attach", "--fixed");
	BAD("--duration applies to --attach", "--test", "0001", "--duration",
	    "3");
	BAD("-o FILE belongs to the record subcommand", "--attach", "-o", "f");
	BAD("-i FILE belongs to the report subcommand", "--attach", "-i", "f");
	BAD("record needs something to observe", "record", "-o", "f");
	BAD("report reads a trace", "report", "--attach");
	BAD("report takes -i FILE, not -o", "report", "-o", "f");
	BAD("unexpected argument 'frob' (subcommands: record, report)",
	    "frob");
	BAD("unexpected argument 'extra'", "--attach", "extra");
	BAD("filters, --knob and --hang-timeout apply", "--list", "--pid",
	    "1");
	BAD("--ringbuf-kib sizes the BPF maps of a live run: it applies to",
	    "report", "--ringbuf-kib", "64");
	BAD("--map-nr-entries sizes the BPF maps of a live run", "--list",
	    "--map-nr-entries", "128");
	BAD("--ringbuf-kib sizes the BPF maps", "--probes", "--ringbuf-kib",
	    "4");
	BAD("--count applies to --test, not --watch", "--watch", "0001",
	    "--count", "0001", "2");
}

static void test_usage(void **state)
{
	struct test_capture cap;
	const char *text, *line;

	opt_usage(test_capture_begin(&cap));
	text = test_capture_end(&cap);
	assert_non_null(strstr(text, "\nEXAMPLES:\n"));
	for (line = text; *line;) {
		const char *nl = strchr(line, '\n');

		assert_non_null(nl);
		assert_true(nl - line < 80);
		line = nl + 1;
	}
	free(cap.text);
	opt_usage_line(test_capture_begin(&cap));
	assert_non_null(strstr(test_capture_end(&cap), "usage: "));
	free(cap.text);
	assert_string_equal(opt_format_name(SO_FMT_JSON), "json");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_attach),
		cmocka_unit_test(test_ringbuf_kib),
		cmocka_unit_test(test_map_nr_entries),
		cmocka_unit_test(test_entries),
		cmocka_unit_test(test_svg),
		cmocka_unit_test(test_path_filter),
		cmocka_unit_test(test_repeats_and_empties),
		cmocka_unit_test(test_runner),
		cmocka_unit_test(test_test_range),
		cmocka_unit_test(test_subcommands),
		cmocka_unit_test(test_help_version),
		cmocka_unit_test(test_bad_inputs),
		cmocka_unit_test(test_usage),
		cmocka_unit_test(test_module_path),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
