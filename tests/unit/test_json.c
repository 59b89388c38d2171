// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#include "helpers.h"
#include "report/json.h"

static void test_escape(void **state)
{
	struct test_capture cap;
	const char *text;

	json_escape(test_capture_begin(&cap),
		    "a\"b\\c\nd\te\x01\x7f\xc3\xa9/");
	text = test_capture_end(&cap);
	assert_string_equal(text,
			    "\"a\\\"b\\\\c\\nd\\te\\u0001\\u007f\\u00c3\\u00a9/\"");
	free(cap.text);
}

static void test_nesting(void **state)
{
	struct test_capture cap;
	struct so_json j;
	const char *text;

	json_init(&j, test_capture_begin(&cap));
	json_object(&j, NULL);
	json_string(&j, "name", "kn:a/b");
	json_u64(&j, "count", 18446744073709551615ULL);
	json_i64(&j, "ret", -19);
	json_bool(&j, "ok", false);
	json_null(&j, "stack");
	json_array(&j, "empty");
	json_end_array(&j);
	json_array(&j, "list");
	json_u64(&j, NULL, 1);
	json_object(&j, NULL);
	json_end_object(&j);
	json_end_array(&j);
	json_end_object(&j);
	assert_int_equal(json_finish(&j), 0);
	text = test_capture_end(&cap);
	assert_string_equal(text,
			    "{\n"
			    "  \"name\": \"kn:a/b\",\n"
			    "  \"count\": 18446744073709551615,\n"
			    "  \"ret\": -19,\n"
			    "  \"ok\": false,\n"
			    "  \"stack\": null,\n"
			    "  \"empty\": [],\n"
			    "  \"list\": [\n"
			    "    1,\n"
			    "    {}\n"
			    "  ]\n"
			    "}\n");
	free(cap.text);
}

static void test_unbalanced(void **state)
{
	struct test_capture cap;
	struct so_json j;

	json_init(&j, test_capture_begin(&cap));
	json_object(&j, NULL);
	assert_int_equal(json_finish(&j), -1);
	json_end_object(&j);
	json_end_object(&j);		/* one too many */
	assert_int_equal(json_finish(&j), -1);
	test_capture_end(&cap);
	free(cap.text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_nesting),
		cmocka_unit_test(test_unbalanced),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
