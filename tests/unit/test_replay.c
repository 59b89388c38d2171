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
#include "app/replay.h"

static char *replay_of(const char *name, enum so_format format, int *rc)
{
	char path[256];
	struct test_capture cap;

	snprintf(path, sizeof(path), "%s/traces/%s",
		 getenv("SO_GOLDEN_DIR") ? getenv("SO_GOLDEN_DIR") :
					   "tests/golden", name);
	struct replay_opts ro = { .format = format,
				  .entries = SO_ENTRIES_DEFAULT };

	*rc = replay_report(path, &ro, test_capture_begin(&cap));
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

static char *golden_trace(const char *name, size_t *len)
{
	char path[256];
	char *buf;

	snprintf(path, sizeof(path), "%s/traces/%s",
		 getenv("SO_GOLDEN_DIR") ? getenv("SO_GOLDEN_DIR") :
					   "tests/golden", name);
	buf = test_read_file(path, len);
	assert_non_null(buf);
	return buf;
}

/*
 * `record --test all` keeps every test: sessions follow each other in one
 * file (format 3).  The two recordings as one file report both, each
 * with its own verdict, the exit status the worse one's; JSON is then an
 * array of the two documents.
 */
static void test_two_sessions(void **state)
{
	size_t fixed_len, unfixed_len;
	char *fixed = golden_trace("0028-fixed.data", &fixed_len);
	char *unfixed = golden_trace("0028.data", &unfixed_len);
	size_t len = fixed_len + unfixed_len - 16;
	char *both = malloc(len), *text, *second;
	struct test_capture cap;
	enum so_format formats[2] = { SO_FMT_TEXT, SO_FMT_JSON };
	struct replay_opts ro = { .entries = 0 };
	FILE *in;
	int rc, i;

	(void)state;
	assert_non_null(both);
	memcpy(both, fixed, fixed_len);
	memcpy(both + fixed_len, unfixed + 16, unfixed_len - 16);
	both[8] = 3;		/* the format that lets sessions repeat */
	for (i = 0; i < 2; i++) {
		in = fmemopen(both, len, "rb");
		assert_non_null(in);
		ro.format = formats[i];
		rc = replay_report_file(in, "both.data", &ro,
					test_capture_begin(&cap));
		fclose(in);
		test_capture_end(&cap);
		text = cap.text;
		assert_int_equal(rc, 1);
		if (formats[i] == SO_FMT_TEXT) {
			second = strstr(text, "\nverdict: PASS: 0 DEADLOCK-PRONE, 2 GATED");
			assert_non_null(second);
			assert_non_null(strstr(second, "\nverdict: FAIL: 1 DEADLOCK-PRONE"));
		} else {
			assert_int_equal(text[0], '[');
			second = strstr(text, "\"schema\"");
			assert_non_null(second);
			assert_non_null(strstr(second + 1, "\"schema\""));
			assert_non_null(strstr(text, "\"verdict\": \"pass\""));
			assert_non_null(strstr(text, "\"verdict\": \"fail\""));
		}
		free(text);
	}
	/* One session is one document, not an array of one. */
	in = fmemopen(fixed, fixed_len, "rb");
	assert_non_null(in);
	ro.format = SO_FMT_JSON;
	rc = replay_report_file(in, "fixed.data", &ro,
				test_capture_begin(&cap));
	fclose(in);
	test_capture_end(&cap);
	assert_int_equal(rc, 0);
	assert_int_equal(cap.text[0], '{');
	free(cap.text);
	free(both);
	free(fixed);
	free(unfixed);
}

static size_t count_of(const char *text, const char *what)
{
	size_t n = 0;

	for (text = strstr(text, what); text; text = strstr(text + 1, what))
		n++;
	return n;
}

/*
 * report --svg of the golden traces: the GATED (fixed) and the
 * DEADLOCK-PRONE (unfixed) 0028, each with its lanes, its closing edge,
 * the interleaving that would deadlock and its reason; plain SVG (no
 * script, no external reference), every element closed.
 */
static void test_picture(void **state)
{
	static const char *const traces[2] = { "0028-fixed.data", "0028.data" };
	static const char *const verdict[2] = { "GATED: ", "DEADLOCK-PRONE: " };
	struct test_capture cap, svg;
	struct replay_opts ro = { .format = SO_FMT_TEXT };
	char path[256];
	const char *pic;
	int i;

	(void)state;
	for (i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/traces/%s",
			 getenv("SO_GOLDEN_DIR") ? getenv("SO_GOLDEN_DIR") :
						   "tests/golden", traces[i]);
		ro.svg = test_capture_begin(&svg);
		replay_report(path, &ro, test_capture_begin(&cap));
		test_capture_end(&cap);
		free(cap.text);
		test_capture_end(&svg);
		pic = svg.text;
		assert_non_null(strstr(pic, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1280\""));
		assert_non_null(strstr(pic, verdict[i]));
		assert_non_null(strstr(pic, "&amp;test_dev-&gt;config_mutex"));
		assert_non_null(strstr(pic, "kn:test_sysfs0/test_dev_x"));
		/* The runner's driver forks as sysfs-observe: two lanes. */
		assert_true(count_of(pic, "class=\"lane\">sysfs-observe/") >= 2);
		assert_non_null(strstr(pic, "class=\"lane\">mod:test_sysfs<"));
		assert_non_null(strstr(pic, "the closing edge"));
		assert_non_null(strstr(pic, "the interleaving that would deadlock"));
		assert_non_null(strstr(pic, "GOING"));
		assert_non_null(strstr(pic, i ? "deadlock-prone: " : "gated: "));
		assert_null(strstr(pic, "<script"));
		assert_null(strstr(pic, "href"));
		assert_int_equal(count_of(pic, "<text"), count_of(pic, "</text>"));
		assert_int_equal(strcmp(pic + strlen(pic) - 7, "</svg>\n"), 0);
		free(svg.text);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unfixed_0028),
		cmocka_unit_test(test_fixed_0028),
		cmocka_unit_test(test_two_sessions),
		cmocka_unit_test(test_picture),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
