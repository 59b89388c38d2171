// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * Strings from the kernel and from trace files reach the terminal only
 * escaped: a task that names itself "\e]0;...\a" (PR_SET_NAME, any user)
 * or a crafted trace must not drive the root user's terminal.
 */
#include "helpers.h"
#include "trace/record.h"

static void test_escape_str(void **state)
{
	char s[64];

	(void)state;
	snprintf(s, sizeof(s), "plain name/with-dash_1");
	record_escape_str(s, sizeof(s));
	assert_string_equal(s, "plain name/with-dash_1");
	snprintf(s, sizeof(s), "\x1b[31mred\x07\x7f\n");
	record_escape_str(s, sizeof(s));
	assert_string_equal(s, "\\x1b[31mred\\x07\\x7f\\x0a");
	snprintf(s, sizeof(s), "a\\b");
	record_escape_str(s, sizeof(s));
	assert_string_equal(s, "a\\\\b");
	/* UTF-8 passes as it is. */
	snprintf(s, sizeof(s), "caf\xc3\xa9");
	record_escape_str(s, sizeof(s));
	assert_string_equal(s, "caf\xc3\xa9");
}

/* What does not fit is cut, never half an escape, always terminated. */
static void test_escape_bounds(void **state)
{
	char comm[16];

	(void)state;
	memset(comm, '\x1b', sizeof(comm));	/* not even terminated */
	record_escape_str(comm, sizeof(comm));
	assert_string_equal(comm, "\\x1b\\x1b\\x1b");
	memcpy(comm, "abcdefghijklm\x1b", 15);
	comm[15] = 0;
	record_escape_str(comm, sizeof(comm));
	assert_string_equal(comm, "abcdefghijklm");
}

/* Every string of a record is escaped on its way in. */
static void test_record_copy_escapes(void **state)
{
	struct so_edge_event in, out;

	(void)state;
	memset(&in, 0, sizeof(in));
	in.ev.type = SO_EV_EDGE;
	snprintf(in.ev.comm, sizeof(in.ev.comm), "\x1b]0;pwn\x07");
	snprintf(in.ev.name, sizeof(in.ev.name), "kn\x1b[2J");
	snprintf(in.val.comm, sizeof(in.val.comm), "\x9bok\x1b");
	snprintf(in.to_name, sizeof(in.to_name), "to\rname");
	record_copy(&out, &in, sizeof(in));
	assert_string_equal(out.ev.comm, "\\x1b]0;pwn\\x07");
	assert_string_equal(out.ev.name, "kn\\x1b[2J");
	assert_string_equal(out.val.comm, "\x9bok\\x1b");
	assert_string_equal(out.to_name, "to\\x0dname");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escape_str),
		cmocka_unit_test(test_escape_bounds),
		cmocka_unit_test(test_record_copy_escapes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
