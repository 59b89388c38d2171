/* SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1 */
/*
 * Shared by the unit tests: crafted events, output captured in memory,
 * and golden files (tests/golden/; SO_UPDATE_GOLDEN=1 rewrites them).
 */
#ifndef SO_TEST_HELPERS_H
#define SO_TEST_HELPERS_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "observe.h"

#define KN_X	SO_CLASS_MAKE(SO_CLASS_KN, 0x1111)
#define KN_Y	SO_CLASS_MAKE(SO_CLASS_KN, 0x2222)
#define MOD_TS	SO_CLASS_MAKE(SO_CLASS_MOD, 0x3333)
#define MTX_CFG	SO_CLASS_MAKE(SO_CLASS_MUTEX, 0x4444)
#define RTNL	SO_CLASS_MAKE(SO_CLASS_RTNL, 0x5555)

static inline struct so_event test_event(uint32_t type, uint64_t ts_ns,
					 uint32_t tid, uint64_t class_id,
					 const char *name)
{
	struct so_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.type = type;
	ev.ts_ns = ts_ns;
	ev.cpu = tid % 2;
	ev.pid = tid;
	ev.tid = tid;
	snprintf(ev.comm, sizeof(ev.comm), "%s", tid == 100 ? "rmmod" : "sh");
	ev.class_id = class_id;
	ev.obj = 0xffff888000000000ULL | (class_id & 0xffff);
	ev.stack_id = -1;
	if (name)
		snprintf(ev.name, sizeof(ev.name), "%s", name);
	return ev;
}

/* Output written to a FILE, read back as one string. */
struct test_capture {
	char *text;
	size_t len;
	FILE *out;
};

static inline FILE *test_capture_begin(struct test_capture *cap)
{
	cap->text = NULL;
	cap->len = 0;
	cap->out = open_memstream(&cap->text, &cap->len);
	assert_non_null(cap->out);
	return cap->out;
}

static inline const char *test_capture_end(struct test_capture *cap)
{
	fclose(cap->out);
	return cap->text;
}

static inline char *test_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *text;
	long size;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	fseek(f, 0, SEEK_SET);
	text = calloc(1, (size_t)size + 1);
	if (text && fread(text, 1, (size_t)size, f) != (size_t)size) {
		free(text);
		text = NULL;
	}
	fclose(f);
	if (len)
		*len = (size_t)size;
	return text;
}

/* Compares text with tests/golden/<name>, naming the first line that
 * differs; SO_UPDATE_GOLDEN=1 writes the file instead. */
static inline void test_golden(const char *name, const char *text)
{
	char path[256];
	char *want;
	size_t line = 1, i;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s",
		 getenv("SO_GOLDEN_DIR") ? getenv("SO_GOLDEN_DIR") :
					   "tests/golden", name);
	if (getenv("SO_UPDATE_GOLDEN")) {
		f = fopen(path, "w");
		assert_non_null(f);
		fputs(text, f);
		fclose(f);
		return;
	}
	want = test_read_file(path, NULL);
	if (!want)
		fail_msg("%s: missing (run with SO_UPDATE_GOLDEN=1 from the project root)",
			 path);
	for (i = 0; want[i] && want[i] == text[i]; i++)
		line += want[i] == '\n';
	if (want[i] != text[i]) {
		print_error("%s differs at line %zu; got:\n%s\n", path, line,
			    text);
		free(want);
		fail();
	}
	free(want);
}

#endif /* SO_TEST_HELPERS_H */
