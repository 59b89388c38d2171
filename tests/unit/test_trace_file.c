// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * The trace file: what is written reads back the same, and a file cut or
 * corrupted anywhere is an error naming the offset, never a crash.
 */
#include "helpers.h"
#include "trace/stacks.h"
#include "trace/trace_file.h"

struct seen {
	struct so_session_info info;
	struct so_session_end end;
	unsigned int sessions, events, edges, stacks, ksyms, trailers;
	struct so_event last_event;
	uint64_t last_stack[4];
	uint32_t last_depth;
	char ksym_name[64], ksym_module[64];
	uint64_t ksym_addr, ksym_size;
	char ksym_type;
};

static int seen_session(void *ctx, const struct so_session_info *info)
{
	struct seen *s = ctx;

	s->info = *info;
	s->sessions++;
	return 0;
}

static int seen_event(void *ctx, const void *rec, size_t len)
{
	struct seen *s = ctx;

	memcpy(&s->last_event, rec, sizeof(s->last_event));
	s->events++;
	s->edges += len == sizeof(struct so_edge_event);
	return 0;
}

static int seen_stack(void *ctx, int32_t id, const uint64_t *addrs,
		      uint32_t depth)
{
	struct seen *s = ctx;

	s->last_depth = depth;
	memcpy(s->last_stack, addrs, (depth < 4 ? depth : 4) * sizeof(*addrs));
	s->stacks++;
	return 0;
}

static int seen_ksym(void *ctx, uint64_t addr, uint64_t size, char type,
		     const char *name, const char *module)
{
	struct seen *s = ctx;

	s->ksym_addr = addr;
	s->ksym_size = size;
	s->ksym_type = type;
	snprintf(s->ksym_name, sizeof(s->ksym_name), "%s", name);
	snprintf(s->ksym_module, sizeof(s->ksym_module), "%s", module);
	s->ksyms++;
	return 0;
}

static int seen_trailer(void *ctx, const struct so_session_end *end)
{
	struct seen *s = ctx;

	s->end = *end;
	s->trailers++;
	return 0;
}

static const struct tf_handlers seen_handlers = {
	.session = seen_session,
	.event = seen_event,
	.stack = seen_stack,
	.ksym = seen_ksym,
	.trailer = seen_trailer,
};

static void fill_session(struct so_session_info *info)
{
	memset(info, 0, sizeof(*info));
	info->start_realtime_ns = 1700000000123456789ULL;
	info->start_mono_ns = 5000000000ULL;
	info->pid_filter = 42;
	strcpy(info->tool, "sysfs-observe 0.1");
	strcpy(info->kernel, "6.1.0-57-cloud-amd64");
	strcpy(info->test, "0028");
	strcpy(info->module_filter, "test_sysfs");
	strcpy(info->path_prefix, "/sys/devices/virtual/misc/test_sysfs");
	strcpy(info->module_params, "enable_lock=1 enable_lock_on_rmmod=1");
	assert_int_equal(tf_session_add_probe(info, "kernfs_fop_write_iter",
					      SO_PROBE_FENTRY), 0);
	assert_int_equal(tf_session_add_probe(info, "kernfs_get_active",
					      SO_PROBE_FEXIT), 0);
	assert_int_equal(tf_session_add_probe(info, "misc_deregister",
					      SO_PROBE_MISSING), 0);
	assert_int_equal(tf_session_add_knob(info, "kernfs_drain_delay_ms",
					     "5"), 0);
}

/* A small valid trace in memory: session, 2 events, stack, ksym, end. */
static char *make_trace(size_t *len)
{
	struct so_session_info info;
	struct so_session_end end;
	struct so_edge_event edge;
	struct so_event ev;
	struct tf_writer w;
	uint64_t addrs[3] = { 0xffffffff81000010ULL, 0xffffffff81000020ULL,
			      0xffffffffc0001000ULL };
	char *buf = NULL;
	FILE *f;

	f = open_memstream(&buf, len);
	assert_non_null(f);
	fill_session(&info);
	assert_int_equal(tf_writer_open(&w, f, &info), 0);
	ev = test_event(SO_EV_KN_WRITE_BEGIN, 5000001000ULL, 7, KN_X,
			"test_sysfs0/test_dev_x");
	ev.arg = 2;
	ev.stack_id = 3;
	assert_int_equal(tf_write_stack(&w, 3, addrs, 3), 0);
	assert_int_equal(tf_write_event(&w, &ev, sizeof(ev)), 0);
	memset(&edge, 0, sizeof(edge));
	edge.ev = test_event(SO_EV_EDGE, 5000002000ULL, 7, MTX_CFG,
			     "test_sysfs0/test_dev_x");
	edge.key.from_class = KN_X;
	edge.key.to_class = MTX_CFG;
	edge.val.count = 1;
	strcpy(edge.to_name, "&test_dev->config_mutex");
	assert_int_equal(tf_write_event(&w, &edge, sizeof(edge)), 0);
	assert_int_equal(tf_write_ksym(&w, 0xffffffffc0001000ULL, 0x80, 't',
				       "test_dev_x_store", "test_sysfs"), 0);
	memset(&end, 0, sizeof(end));
	end.end_mono_ns = 11000000000ULL;
	end.counters[SO_CNT_EVENTS] = 2;
	end.counters[SO_CNT_RB_DROPS] = 5;
	assert_int_equal(tf_writer_close(&w, &end), 0);
	fclose(f);
	return buf;
}

static int read_buf(const char *buf, size_t len, struct seen *s, char *err,
		    size_t errlen)
{
	FILE *f;
	int ret;

	memset(s, 0, sizeof(*s));
	/* glibc's fmemopen refuses size 0: an empty file is /dev/null. */
	f = len ? fmemopen((void *)buf, len, "rb") : fopen("/dev/null", "rb");
	assert_non_null(f);
	ret = tf_read(f, "trace.dat", &seen_handlers, s, err, errlen);
	fclose(f);
	return ret;
}

static void test_round_trip(void **state)
{
	struct so_session_info want;
	char err[256];
	struct seen s;
	size_t len;
	char *buf = make_trace(&len);

	assert_int_equal(read_buf(buf, len, &s, err, sizeof(err)), 0);
	fill_session(&want);
	assert_memory_equal(&s.info, &want, sizeof(want));
	assert_int_equal(s.sessions, 1);
	assert_int_equal(s.events, 2);
	assert_int_equal(s.edges, 1);
	assert_int_equal(s.stacks, 1);
	assert_int_equal(s.last_depth, 3);
	assert_true(s.last_stack[2] == 0xffffffffc0001000ULL);
	assert_int_equal(s.ksyms, 1);
	assert_string_equal(s.ksym_name, "test_dev_x_store");
	assert_string_equal(s.ksym_module, "test_sysfs");
	assert_int_equal(s.ksym_type, 't');
	assert_true(s.ksym_size == 0x80);
	assert_int_equal(s.trailers, 1);
	assert_true(s.end.end_mono_ns == 11000000000ULL);
	assert_true(s.end.nr_events == 2);
	assert_true(s.end.counters[SO_CNT_RB_DROPS] == 5);
	assert_int_equal(s.last_event.type, SO_EV_EDGE);
	free(buf);
}

/* Every prefix of a valid file is an error that names an offset. */
static void test_every_truncation(void **state)
{
	char err[256];
	struct seen s;
	size_t len, cut;
	char *buf = make_trace(&len);

	for (cut = 0; cut < len; cut++) {
		err[0] = '\0';
		if (read_buf(buf, cut, &s, err, sizeof(err)) != -1)
			fail_msg("a file cut at %zu of %zu bytes was accepted",
				 cut, len);
		assert_non_null(strstr(err, "trace.dat: "));
		if (!strstr(err, "offset"))
			fail_msg("cut at %zu: no offset in \"%s\"", cut, err);
		assert_int_equal(s.trailers, 0);
	}
	free(buf);
}

static void test_truncated_message(void **state)
{
	char err[256];
	struct seen s;
	size_t len;
	char *buf = make_trace(&len);

	/* Cut 4 bytes into the payload of the SESSION record. */
	assert_int_equal(read_buf(buf, TF_PREAMBLE_LEN + 8 + 4, &s, err,
				  sizeof(err)), -1);
	assert_non_null(strstr(err, "trace.dat: truncated record at offset 16: need "));
	assert_non_null(strstr(err, "bytes, have 12"));
	assert_int_equal(read_buf(buf, len - 1 - 0, &s, err, sizeof(err)), -1);
	free(buf);
}

static void put_le32(char *p, uint32_t v)
{
	int i;

	for (i = 0; i < 4; i++)
		p[i] = (char)(v >> (8 * i));
}

/* Offsets inside make_trace()'s output. */
#define SESSION_AT	TF_PREAMBLE_LEN
#define SESSION_BODY	(SESSION_AT + TF_RECORD_HDR_LEN)

static void expect_error(char *buf, size_t len, const char *want)
{
	char err[256];
	struct seen s;

	assert_int_equal(read_buf(buf, len, &s, err, sizeof(err)), -1);
	if (!strstr(err, want))
		fail_msg("error \"%s\" does not say \"%s\"", err, want);
}

static void test_corrupt_lengths(void **state)
{
	size_t len;
	char *buf = make_trace(&len);
	char *copy = malloc(len + 1);

	memcpy(copy, buf, len);
	put_le32(copy + SESSION_AT + 4, 0xffffffffU);
	expect_error(copy, len, "record at offset 16 claims 4294967295 bytes");

	memcpy(copy, buf, len);
	put_le32(copy + SESSION_AT + 4, 3);
	expect_error(copy, len, "bad SESSION record at offset 16");

	/* The tool string (after 20 bytes of numbers) claims 0xffff. */
	memcpy(copy, buf, len);
	copy[SESSION_BODY + 20] = (char)0xff;
	copy[SESSION_BODY + 21] = (char)0xff;
	expect_error(copy, len, "tool at offset 44 needs 65537 bytes");

	memcpy(copy, buf, len);
	copy[0] = 'X';
	expect_error(copy, len, "bad magic at offset 0");

	memcpy(copy, buf, len);
	put_le32(copy + 8, 99);
	expect_error(copy, len, "format version 99 at offset 8");

	memcpy(copy, buf, len);
	put_le32(copy + 12, SO_ABI_VERSION + 1);
	expect_error(copy, len, "event ABI");

	memcpy(copy, buf, len);
	put_le32(copy + SESSION_AT, 77);
	expect_error(copy, len, "unknown record type 77 at offset 16");

	memcpy(copy, buf, len);
	put_le32(copy + SESSION_AT, TF_REC_EVENT);
	expect_error(copy, len, "EVENT record at offset 16 before the SESSION");

	/* Format 3: what follows a TRAILER must be a whole session. */
	memcpy(copy, buf, len);
	copy[len] = 0;
	expect_error(copy, len + 1, "truncated record header at offset");
	/* Format 2 files end at their TRAILER. */
	memcpy(copy, buf, len);
	put_le32(copy + 8, 2);
	copy[len] = 0;
	expect_error(copy, len + 1, "data after the TRAILER record");
	free(copy);
	free(buf);
}

static uint32_t get_le32(const char *p)
{
	const unsigned char *b = (const unsigned char *)p;

	return b[0] | b[1] << 8 | b[2] << 16 | (uint32_t)b[3] << 24;
}

/*
 * Format 2 added the SESSION's knobs_note (a string, last); a format 1
 * file is the same without it and still reads, with knobs_note "".  And
 * a note round-trips.
 */
static void test_format_1_and_knobs_note(void **state)
{
	struct so_session_info want, info;
	uint32_t session_len;
	char err[256], *v1;
	struct seen s;
	size_t len;
	char *buf = make_trace(&len);
	struct tf_writer w;
	FILE *f;

	(void)state;
	session_len = get_le32(buf + SESSION_AT + 4);
	/* make_trace's note is "": its string is the u16 0 at the end. */
	assert_int_equal(buf[SESSION_BODY + session_len - 2], 0);
	assert_int_equal(buf[SESSION_BODY + session_len - 1], 0);
	v1 = malloc(len);
	memcpy(v1, buf, SESSION_BODY + session_len - 2);
	memcpy(v1 + SESSION_BODY + session_len - 2,
	       buf + SESSION_BODY + session_len,
	       len - SESSION_BODY - session_len);
	put_le32(v1 + 8, 1);
	put_le32(v1 + SESSION_AT + 4, session_len - 2);
	assert_int_equal(read_buf(v1, len - 2, &s, err, sizeof(err)), 0);
	fill_session(&want);
	assert_memory_equal(&s.info, &want, sizeof(want));
	assert_int_equal(s.events, 2);
	/* The same bytes claiming format 2 lack the note: refused. */
	put_le32(v1 + 8, 2);
	assert_int_equal(read_buf(v1, len - 2, &s, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "knobs_note"));
	free(v1);
	free(buf);

	memset(&info, 0, sizeof(info));
	strcpy(info.knobs_note, "kernel without CONFIG_FAIL_KERNFS_KNOBS");
	buf = NULL;
	f = open_memstream(&buf, &len);
	assert_int_equal(tf_writer_open(&w, f, &info), 0);
	fclose(f);
	memset(&s, 0, sizeof(s));
	f = fmemopen(buf, len, "rb");
	/* No trailer: an error after the session, which was read. */
	assert_int_equal(tf_read(f, "t", &seen_handlers, &s, err, sizeof(err)),
			 -1);
	fclose(f);
	assert_int_equal(s.sessions, 1);
	assert_string_equal(s.info.knobs_note,
			    "kernel without CONFIG_FAIL_KERNFS_KNOBS");
	free(buf);
}

/* Records after the session, found by walking the file. */
static size_t nth_record(const char *buf, size_t len, uint32_t type)
{
	size_t at = TF_PREAMBLE_LEN;
	uint32_t t, l;

	while (at + 8 <= len) {
		memcpy(&t, buf + at, 4);
		memcpy(&l, buf + at + 4, 4);
		if (t == type)
			return at;
		at += 8 + l;
	}
	fail_msg("no record of type %u", type);
	return 0;
}

static void test_corrupt_counts(void **state)
{
	size_t len, at;
	char *buf = make_trace(&len);
	char *copy = malloc(len);
	char want[128];

	/* A stack claiming 1000 frames. */
	memcpy(copy, buf, len);
	at = nth_record(copy, len, TF_REC_STACK);
	put_le32(copy + at + 8 + 4, 1000);
	snprintf(want, sizeof(want), "bad STACK record at offset %zu: depth 1000",
		 at);
	expect_error(copy, len, want);

	/* A stack id that is negative. */
	memcpy(copy, buf, len);
	put_le32(copy + at + 8, 0x80000000U);
	expect_error(copy, len, "is negative");

	/* An event of an unknown type. */
	memcpy(copy, buf, len);
	at = nth_record(copy, len, TF_REC_EVENT);
	put_le32(copy + at + 8 + 8, 999);
	expect_error(copy, len, "unknown event type 999");

	/* The trailer counting more events than there are. */
	memcpy(copy, buf, len);
	at = nth_record(copy, len, TF_REC_TRAILER);
	put_le32(copy + at + 8 + 8, 3);
	expect_error(copy, len, "it counts 3 events, the file has 2");

	/* nr_probes beyond the table. */
	memcpy(copy, buf, len);
	at = SESSION_BODY + 20;
	{
		size_t i;
		uint16_t slen;

		for (i = 0; i < 6; i++) {	/* skip the six strings */
			memcpy(&slen, copy + at, 2);
			at += 2 + slen;
		}
	}
	put_le32(copy + at, 100000);
	expect_error(copy, len, "nr_probes 100000");
	free(copy);
	free(buf);
}

/* A write error (here: a full buffer) is reported by close. */
static void test_write_error(void **state)
{
	struct so_session_info info;
	struct so_session_end end;
	struct tf_writer w;
	char small[64];
	FILE *f;

	fill_session(&info);
	memset(&end, 0, sizeof(end));
	f = fmemopen(small, sizeof(small), "wb");
	assert_non_null(f);
	setvbuf(f, NULL, _IONBF, 0);
	tf_writer_open(&w, f, &info);
	assert_int_equal(tf_writer_close(&w, &end), -1);
	fclose(f);
}

static void test_session_tables_full(void **state)
{
	struct so_session_info info;
	char name[16];
	int i;

	memset(&info, 0, sizeof(info));
	for (i = 0; i < SO_PROBES_MAX; i++) {
		snprintf(name, sizeof(name), "p%d", i);
		assert_int_equal(tf_session_add_probe(&info, name, 1), 0);
	}
	assert_int_equal(tf_session_add_probe(&info, "one_more", 1), -1);
	assert_int_equal(tf_session_add_probe(&info, "bad_mode", 99), -1);
	assert_string_equal(tf_probe_mode_name(SO_PROBE_KRETPROBE),
			    "kretprobe");
	assert_string_equal(tf_probe_mode_name(99), "?");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_every_truncation),
		cmocka_unit_test(test_truncated_message),
		cmocka_unit_test(test_corrupt_lengths),
		cmocka_unit_test(test_format_1_and_knobs_note),
		cmocka_unit_test(test_corrupt_counts),
		cmocka_unit_test(test_write_error),
		cmocka_unit_test(test_session_tables_full),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
