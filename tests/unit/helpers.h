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
/* As the probes name it, so that the module's name reaches the report. */
#define MOD_TS	SO_CLASS_MAKE(SO_CLASS_MOD, \
			      so_hash_name("test_sysfs", SO_NAME_LEN))
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

/* A whole file, NUL-terminated, to free(); NULL if unreadable. */
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

/* A golden file that must be there. */
static inline char *slurp(const char *path)
{
	size_t len;
	char *text = test_read_file(path, &len);

	assert_non_null(text);
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

#define CFG_LOCK	0xffff888000004444ULL

/* Appends one event to a scenario. */
static inline struct so_event *scn_add(struct so_edge_event *evs, size_t *n,
				       uint32_t type, uint64_t us,
				       uint32_t tid, uint64_t class_id,
				       const char *name)
{
	struct so_edge_event *slot = &evs[(*n)++];

	memset(slot, 0, sizeof(*slot));
	slot->ev = test_event(type, 1000000000ULL + us * 1000, tid, class_id,
			      name);
	return &slot->ev;
}

/* An edge record as the probes send it: first seen now, by `tid`. */
static inline void scn_edge(struct so_edge_event *evs, size_t *n,
			    uint64_t us, uint32_t tid, const char *comm,
			    uint64_t from, const char *from_name,
			    uint32_t from_mode, uint64_t to, const char *to_name,
			    uint32_t to_mode, uint64_t going)
{
	struct so_edge_event *edge = &evs[*n];
	struct so_event *ev = scn_add(evs, n, SO_EV_EDGE, us, tid, to, "");

	snprintf(ev->name, sizeof(ev->name), "%s", from_name);
	edge->key.from_class = from;
	edge->key.to_class = to;
	edge->val.count = 1;
	edge->val.first_ns = ev->ts_ns;
	edge->val.first_tid = tid;
	edge->val.stack_id = -1;
	edge->val.from_mode = from_mode;
	edge->val.to_mode = to_mode;
	edge->val.going = going;
	snprintf(edge->val.comm, sizeof(edge->val.comm), "%s", comm);
	snprintf(edge->to_name, sizeof(edge->to_name), "%s", to_name);
}

/*
 * Test 0028's story, fix off: a writer (sh/7) holds the kn active ref and
 * waits for config_mutex; rmmod (100) holds config_mutex, removes the
 * disk and drains the kn.  Then a late writer (sh/8) is refused.  Returns
 * how many records; sizes[i] is each record's length.
 */
static inline size_t test_scenario(struct so_edge_event evs[32],
				   size_t sizes[32])
{
	const char *kn = "test_sysfs0/test_dev_x";
	struct so_event *ev;
	size_t n = 0, i;

	ev = scn_add(evs, &n, SO_EV_MOD_LOAD_BEGIN, 0, 100, 0, NULL);
	ev = scn_add(evs, &n, SO_EV_MOD_LOAD_END, 800, 100, 0, NULL);
	ev = scn_add(evs, &n, SO_EV_KN_WRITE_BEGIN, 1000, 7, KN_X, kn);
	ev->arg = 2;
	ev = scn_add(evs, &n, SO_EV_KN_GET_ACTIVE, 1001, 7, KN_X, kn);
	ev->ret = 1;
	ev = scn_add(evs, &n, SO_EV_MOD_GET, 1002, 7, MOD_TS, "test_sysfs");
	ev->ret = 1;
	ev = scn_add(evs, &n, SO_EV_MOD_DELETE_BEGIN, 1003, 100, MOD_TS,
		     "test_sysfs");
	ev = scn_add(evs, &n, SO_EV_LOCK_ACQUIRED, 1004, 100, MTX_CFG,
		     "&test_dev->config_mutex");
	ev->obj = CFG_LOCK;
	/* The writer holds test_dev_x when it goes for the config mutex:
	 * one half of the cycle, no module reference held (fix off). */
	scn_edge(evs, &n, 1005, 7, "sh", KN_X, kn, SO_HOLD_READ, MTX_CFG,
		 "&test_dev->config_mutex", SO_HOLD_WRITE, 0);
	ev = scn_add(evs, &n, SO_EV_CONTENTION_BEGIN, 1005, 7, 0, NULL);
	ev->obj = CFG_LOCK;
	ev->arg = 2;
	ev = scn_add(evs, &n, SO_EV_DEL_GENDISK_BEGIN, 1006, 100, 0,
		     "test_sysfs0");
	ev = scn_add(evs, &n, SO_EV_KN_DRAIN_BEGIN, 1007, 100, KN_X, kn);
	ev->arg = 1;
	/* rmmod's half: test_sysfs is GOING. */
	scn_edge(evs, &n, 1008, 100, "rmmod", MTX_CFG,
		 "&test_dev->config_mutex", SO_HOLD_WRITE, KN_X, kn,
		 SO_HOLD_WRITE, MOD_TS);
	ev = scn_add(evs, &n, SO_EV_CONTENTION_END, 4000, 7, 0, NULL);
	ev->obj = CFG_LOCK;
	ev = scn_add(evs, &n, SO_EV_LOCK_RELEASED, 4000, 100, MTX_CFG, NULL);
	ev->obj = CFG_LOCK;
	ev->arg = 2996000;
	ev = scn_add(evs, &n, SO_EV_LOCK_ACQUIRED, 4001, 7, MTX_CFG, NULL);
	ev->obj = CFG_LOCK;
	ev->arg = 2996000;
	ev = scn_add(evs, &n, SO_EV_LOCK_RELEASED, 4010, 7, MTX_CFG, NULL);
	ev->obj = CFG_LOCK;
	ev->arg = 9000;
	ev = scn_add(evs, &n, SO_EV_MOD_PUT, 4011, 7, MOD_TS, "test_sysfs");
	ev = scn_add(evs, &n, SO_EV_KN_PUT_ACTIVE, 4012, 7, KN_X, kn);
	ev = scn_add(evs, &n, SO_EV_KN_WRITE_END, 4013, 7, KN_X, kn);
	ev->ret = -19;
	ev = scn_add(evs, &n, SO_EV_KN_DRAIN_END, 4014, 100, KN_X, kn);
	ev->arg = 3007000;
	ev = scn_add(evs, &n, SO_EV_DEL_GENDISK_END, 5000, 100, 0, NULL);
	ev->arg = 3994000;
	ev = scn_add(evs, &n, SO_EV_MOD_DELETE_END, 5100, 100, MOD_TS, NULL);
	ev = scn_add(evs, &n, SO_EV_KN_GET_ACTIVE, 6000, 8, KN_X, kn);
	ev = scn_add(evs, &n, SO_EV_MOD_GET, 6001, 8, MOD_TS, "test_sysfs");
	for (i = 0; i < n; i++)
		sizes[i] = evs[i].ev.type == SO_EV_EDGE ?
				   sizeof(struct so_edge_event) :
				   sizeof(struct so_event);
	return n;
}

#endif /* SO_TEST_HELPERS_H */
