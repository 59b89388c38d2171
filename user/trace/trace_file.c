// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * Trace file writer and reader; the layout is in trace_file.h.  The reader
 * trusts nothing: every length is checked against the field it fills and
 * the bytes the record has left, before a single byte is copied.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "trace/record.h"
#include "trace/stacks.h"
#include "trace/trace_file.h"

static const char *const so_probe_mode_names[SO_PROBE_NR] = {
	[SO_PROBE_MISSING]	= "missing",
	[SO_PROBE_FENTRY]	= "fentry",
	[SO_PROBE_FEXIT]	= "fexit",
	[SO_PROBE_KPROBE]	= "kprobe",
	[SO_PROBE_KRETPROBE]	= "kretprobe",
	[SO_PROBE_TRACEPOINT]	= "tracepoint",
};

const char *so_probe_mode_name(uint32_t mode)
{
	return mode < SO_PROBE_NR ? so_probe_mode_names[mode] : "?";
}

static int so_copy_name(char *dst, size_t size, const char *src)
{
	size_t len = strlen(src);

	if (len >= size)
		return -1;
	memcpy(dst, src, len + 1);
	return 0;
}

int so_session_add_probe(struct so_session_info *info, const char *name,
			 uint32_t mode)
{
	struct so_probe_info *probe;

	if (info->nr_probes >= SO_PROBES_MAX || mode >= SO_PROBE_NR)
		return -1;
	probe = &info->probes[info->nr_probes];
	if (so_copy_name(probe->name, sizeof(probe->name), name))
		return -1;
	probe->mode = mode;
	info->nr_probes++;
	return 0;
}

int so_session_add_knob(struct so_session_info *info, const char *name,
			const char *value)
{
	struct so_knob *knob;

	if (info->nr_knobs >= SO_KNOBS_MAX)
		return -1;
	knob = &info->knobs[info->nr_knobs];
	if (so_copy_name(knob->name, sizeof(knob->name), name) ||
	    so_copy_name(knob->value, sizeof(knob->value), value))
		return -1;
	info->nr_knobs++;
	return 0;
}

/* --- writer ---------------------------------------------------------- */

/* A record being encoded into a caller's buffer; overflow sticks. */
struct tf_payload {
	uint8_t *bytes;
	size_t cap, len;
	bool overflow;
};
#define TF_PAYLOAD_ON(buf)	{ (buf), sizeof(buf), 0, false }
/* The largest SESSION: every string and table full. */
#define TF_SESSION_MAX	(64 + sizeof(struct so_session_info) + \
			 2 * (SO_PROBES_MAX + 2 * SO_KNOBS_MAX))

static void tf_put(struct tf_payload *pl, const void *src, size_t len)
{
	if (pl->overflow || len > pl->cap - pl->len) {
		pl->overflow = true;
		return;
	}
	memcpy(pl->bytes + pl->len, src, len);
	pl->len += len;
}

static void tf_put_le(struct tf_payload *pl, uint64_t v, size_t width)
{
	uint8_t le[8];
	size_t i;

	for (i = 0; i < width; i++)
		le[i] = (uint8_t)(v >> (8 * i));
	tf_put(pl, le, width);
}

static void tf_put_u32(struct tf_payload *pl, uint32_t v)
{
	tf_put_le(pl, v, 4);
}

static void tf_put_u64(struct tf_payload *pl, uint64_t v)
{
	tf_put_le(pl, v, 8);
}

static void tf_put_str(struct tf_payload *pl, const char *s, size_t size)
{
	size_t len = strnlen(s, size - 1);

	tf_put_le(pl, len, 2);
	tf_put(pl, s, len);
}

static int tf_emit(struct tf_writer *w, uint32_t type, const void *payload,
		   size_t len)
{
	uint8_t hdr_bytes[TF_RECORD_HDR_LEN];
	struct tf_payload hdr = TF_PAYLOAD_ON(hdr_bytes);

	if (len > TF_PAYLOAD_MAX) {
		w->failed = true;
		return -1;
	}
	tf_put_u32(&hdr, type);
	tf_put_u32(&hdr, (uint32_t)len);
	if (fwrite(hdr.bytes, 1, hdr.len, w->out) != hdr.len ||
	    (len && fwrite(payload, 1, len, w->out) != len)) {
		w->failed = true;
		return -1;
	}
	return 0;
}

static int tf_emit_payload(struct tf_writer *w, uint32_t type,
			   const struct tf_payload *pl)
{
	if (pl->overflow) {
		w->failed = true;
		return -1;
	}
	return tf_emit(w, type, pl->bytes, pl->len);
}

int tf_writer_open(struct tf_writer *w, FILE *out,
		   const struct so_session_info *info)
{
	uint8_t preamble[TF_PREAMBLE_LEN] = TF_MAGIC;
	uint32_t i;

	w->out = out;
	w->failed = false;
	for (i = 0; i < 4; i++) {
		preamble[8 + i] = (uint8_t)(TF_FORMAT_VERSION >> (8 * i));
		preamble[12 + i] = (uint8_t)(SO_ABI_VERSION >> (8 * i));
	}
	if (fwrite(preamble, 1, sizeof(preamble), out) != sizeof(preamble)) {
		w->failed = true;
		return -1;
	}
	return tf_writer_session(w, info);
}

int tf_writer_session(struct tf_writer *w, const struct so_session_info *info)
{
	uint8_t bytes[TF_SESSION_MAX];
	struct tf_payload pl = TF_PAYLOAD_ON(bytes);
	uint32_t i, nr_probes, nr_knobs;

	w->nr_events = w->nr_stacks = w->nr_ksyms = 0;
	nr_probes = info->nr_probes < SO_PROBES_MAX ? info->nr_probes :
						      SO_PROBES_MAX;
	nr_knobs = info->nr_knobs < SO_KNOBS_MAX ? info->nr_knobs :
						   SO_KNOBS_MAX;
	tf_put_u64(&pl, info->start_realtime_ns);
	tf_put_u64(&pl, info->start_mono_ns);
	tf_put_u32(&pl, info->pid_filter);
	tf_put_str(&pl, info->tool, sizeof(info->tool));
	tf_put_str(&pl, info->kernel, sizeof(info->kernel));
	tf_put_str(&pl, info->test, sizeof(info->test));
	tf_put_str(&pl, info->module_filter, sizeof(info->module_filter));
	tf_put_str(&pl, info->path_prefix, sizeof(info->path_prefix));
	tf_put_str(&pl, info->module_params, sizeof(info->module_params));
	tf_put_u32(&pl, nr_probes);
	for (i = 0; i < nr_probes; i++) {
		tf_put_str(&pl, info->probes[i].name,
			   sizeof(info->probes[i].name));
		tf_put_u32(&pl, info->probes[i].mode);
	}
	tf_put_u32(&pl, nr_knobs);
	for (i = 0; i < nr_knobs; i++) {
		tf_put_str(&pl, info->knobs[i].name,
			   sizeof(info->knobs[i].name));
		tf_put_str(&pl, info->knobs[i].value,
			   sizeof(info->knobs[i].value));
	}
	tf_put_str(&pl, info->knobs_note, sizeof(info->knobs_note));
	return tf_emit_payload(w, TF_REC_SESSION, &pl);
}

int tf_write_event(struct tf_writer *w, const void *rec, size_t len)
{
	if (tf_emit(w, TF_REC_EVENT, rec, len))
		return -1;
	w->nr_events++;
	return 0;
}

int tf_write_stack(struct tf_writer *w, int32_t id, const uint64_t *addrs,
		   uint32_t depth)
{
	uint8_t bytes[8 + 8 * SO_STACK_DEPTH];
	struct tf_payload pl = TF_PAYLOAD_ON(bytes);
	uint32_t i;

	if (id < 0 || depth > SO_STACK_DEPTH) {
		w->failed = true;
		return -1;
	}
	tf_put_u32(&pl, (uint32_t)id);
	tf_put_u32(&pl, depth);
	for (i = 0; i < depth; i++)
		tf_put_u64(&pl, addrs[i]);
	if (tf_emit_payload(w, TF_REC_STACK, &pl))
		return -1;
	w->nr_stacks++;
	return 0;
}

#define TF_KSYM_NAME_LEN	128	/* KSYM_NAME_LEN */
#define TF_KSYM_MODULE_LEN	64	/* MODULE_NAME_LEN */

int tf_write_ksym(struct tf_writer *w, uint64_t addr, uint64_t size,
		  char type, const char *name, const char *module)
{
	uint8_t bytes[20 + 2 + TF_KSYM_NAME_LEN + 2 + TF_KSYM_MODULE_LEN];
	struct tf_payload pl = TF_PAYLOAD_ON(bytes);

	tf_put_u64(&pl, addr);
	tf_put_u64(&pl, size);
	tf_put_u32(&pl, (uint8_t)type);
	tf_put_str(&pl, name, TF_KSYM_NAME_LEN);
	tf_put_str(&pl, module ? module : "", TF_KSYM_MODULE_LEN);
	if (tf_emit_payload(w, TF_REC_KSYM, &pl))
		return -1;
	w->nr_ksyms++;
	return 0;
}

int tf_writer_close(struct tf_writer *w, const struct so_session_end *end)
{
	uint8_t bytes[36 + 8 * SO_CNT_NR];
	struct tf_payload pl = TF_PAYLOAD_ON(bytes);
	uint32_t i;

	tf_put_u64(&pl, end->end_mono_ns);
	tf_put_u64(&pl, w->nr_events);
	tf_put_u64(&pl, w->nr_stacks);
	tf_put_u64(&pl, w->nr_ksyms);
	tf_put_u32(&pl, SO_CNT_NR);
	for (i = 0; i < SO_CNT_NR; i++)
		tf_put_u64(&pl, end->counters[i]);
	tf_emit_payload(w, TF_REC_TRAILER, &pl);
	if (fflush(w->out) || ferror(w->out))
		w->failed = true;
	return w->failed ? -1 : 0;
}

/* --- reader ---------------------------------------------------------- */

static const char *const tf_record_names[] = {
	[TF_REC_SESSION] = "SESSION", [TF_REC_EVENT] = "EVENT",
	[TF_REC_STACK] = "STACK",     [TF_REC_KSYM] = "KSYM",
	[TF_REC_TRAILER] = "TRAILER",
};

struct tf_reader {
	FILE *in;
	const char *fname;
	char *err;
	size_t errlen;
	uint64_t offset;	/* of the next byte to read */
	uint8_t *payload;	/* TF_PAYLOAD_MAX, plus room to align */
	uint64_t nr_events, nr_stacks, nr_ksyms;
	uint32_t format;	/* the file's TF_FORMAT_VERSION */
};

/* One record's payload being decoded; base is its offset in the file. */
struct tf_cursor {
	struct tf_reader *r;
	const char *what;
	const uint8_t *bytes;
	size_t len, pos;
	uint64_t base;
	bool bad;
};

static int tf_fail(struct tf_reader *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int tf_fail(struct tf_reader *r, const char *fmt, ...)
{
	size_t used;
	va_list ap;

	snprintf(r->err, r->errlen, "%s: ", r->fname);
	used = strlen(r->err);
	va_start(ap, fmt);
	vsnprintf(r->err + used, r->errlen - used, fmt, ap);
	va_end(ap);
	return -1;
}

/* Reads exactly len bytes or says how many there were. */
static int tf_read_exact(struct tf_reader *r, void *buf, size_t len,
			 const char *what, uint64_t at, size_t need)
{
	size_t have = fread(buf, 1, len, r->in);

	r->offset += have;
	if (have == len)
		return 0;
	if (ferror(r->in))
		return tf_fail(r, "read error in %s at offset %llu", what,
			       (unsigned long long)at);
	return tf_fail(r, "truncated %s at offset %llu: need %zu bytes, have %zu",
		       what, (unsigned long long)at, need,
		       need - (len - have));
}

static uint64_t tf_le(const uint8_t *p, size_t width)
{
	uint64_t v = 0;
	size_t i;

	for (i = 0; i < width; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

static bool tf_need(struct tf_cursor *c, size_t width, const char *field)
{
	if (c->bad)
		return false;
	if (width <= c->len - c->pos)
		return true;
	tf_fail(c->r, "bad %s record at offset %llu: %s at offset %llu needs %zu bytes, the record has %zu left",
		c->what, (unsigned long long)c->base, field,
		(unsigned long long)(c->base + TF_RECORD_HDR_LEN + c->pos),
		width, c->len - c->pos);
	c->bad = true;
	return false;
}

static uint64_t tf_get(struct tf_cursor *c, size_t width, const char *field)
{
	uint64_t v;

	if (!tf_need(c, width, field))
		return 0;
	v = tf_le(c->bytes + c->pos, width);
	c->pos += width;
	return v;
}

/* A string into dst[size]: shorter than size, no NUL inside. */
static void tf_get_str(struct tf_cursor *c, char *dst, size_t size,
		       const char *field)
{
	uint64_t at = c->base + TF_RECORD_HDR_LEN + c->pos;
	size_t len = (size_t)tf_get(c, 2, field);

	dst[0] = '\0';
	if (c->bad)
		return;
	if (len > c->len - c->pos) {
		tf_fail(c->r, "bad %s record at offset %llu: %s at offset %llu needs %zu bytes, the record has %zu left",
			c->what, (unsigned long long)c->base, field,
			(unsigned long long)at, 2 + len, 2 + c->len - c->pos);
		c->bad = true;
		return;
	}
	if (len >= size || memchr(c->bytes + c->pos, '\0', len)) {
		tf_fail(c->r, "bad %s record at offset %llu: %s at offset %llu %s",
			c->what, (unsigned long long)c->base, field,
			(unsigned long long)at,
			len >= size ? "is longer than its field" :
				      "contains a NUL byte");
		c->bad = true;
		return;
	}
	memcpy(dst, c->bytes + c->pos, len);
	dst[len] = '\0';
	c->pos += len;
}

/* A count of items each at least min_item bytes: no larger than max, and
 * no larger than what the bytes left could hold. */
static uint32_t tf_get_count(struct tf_cursor *c, uint32_t max,
			     size_t min_item, const char *field)
{
	uint64_t at = c->base + TF_RECORD_HDR_LEN + c->pos;
	uint32_t n = (uint32_t)tf_get(c, 4, field);

	if (c->bad)
		return 0;
	if (n > max || (uint64_t)n * min_item > c->len - c->pos) {
		tf_fail(c->r, "bad %s record at offset %llu: %s %u at offset %llu is more than %s %u",
			c->what, (unsigned long long)c->base, field, n,
			(unsigned long long)at,
			n > max ? "the limit" : "the record holds, at most",
			n > max ? max :
				  (uint32_t)((c->len - c->pos) / min_item));
		c->bad = true;
		return 0;
	}
	return n;
}

/* Everything decoded must be everything there was. */
static int tf_cursor_done(struct tf_cursor *c)
{
	if (c->bad)
		return -1;
	if (c->pos != c->len)
		return tf_fail(c->r, "bad %s record at offset %llu: %zu bytes left over after its fields",
			       c->what, (unsigned long long)c->base,
			       c->len - c->pos);
	return 0;
}

static int tf_decode_session(struct tf_cursor *c, struct so_session_info *info)
{
	uint32_t i;

	memset(info, 0, sizeof(*info));
	info->start_realtime_ns = tf_get(c, 8, "start_realtime_ns");
	info->start_mono_ns = tf_get(c, 8, "start_mono_ns");
	info->pid_filter = (uint32_t)tf_get(c, 4, "pid_filter");
	tf_get_str(c, info->tool, sizeof(info->tool), "tool");
	tf_get_str(c, info->kernel, sizeof(info->kernel), "kernel");
	tf_get_str(c, info->test, sizeof(info->test), "test");
	tf_get_str(c, info->module_filter, sizeof(info->module_filter),
		   "module_filter");
	tf_get_str(c, info->path_prefix, sizeof(info->path_prefix),
		   "path_prefix");
	tf_get_str(c, info->module_params, sizeof(info->module_params),
		   "module_params");
	info->nr_probes = tf_get_count(c, SO_PROBES_MAX, 2 + 4, "nr_probes");
	for (i = 0; i < info->nr_probes && !c->bad; i++) {
		struct so_probe_info *probe = &info->probes[i];
		uint64_t at;

		tf_get_str(c, probe->name, sizeof(probe->name), "probe name");
		at = c->base + TF_RECORD_HDR_LEN + c->pos;
		probe->mode = (uint32_t)tf_get(c, 4, "probe mode");
		if (!c->bad && probe->mode >= SO_PROBE_NR) {
			c->bad = true;
			return tf_fail(c->r, "bad SESSION record at offset %llu: probe mode %u at offset %llu is unknown",
				       (unsigned long long)c->base,
				       probe->mode, (unsigned long long)at);
		}
	}
	info->nr_knobs = tf_get_count(c, SO_KNOBS_MAX, 2 + 2, "nr_knobs");
	for (i = 0; i < info->nr_knobs && !c->bad; i++) {
		tf_get_str(c, info->knobs[i].name, sizeof(info->knobs[i].name),
			   "knob name");
		tf_get_str(c, info->knobs[i].value,
			   sizeof(info->knobs[i].value), "knob value");
	}
	if (c->r->format >= 2)
		tf_get_str(c, info->knobs_note, sizeof(info->knobs_note),
			   "knobs_note");
	return tf_cursor_done(c);
}

static int tf_decode_stack(struct tf_cursor *c, const struct tf_handlers *h,
			   void *ctx)
{
	uint64_t addrs[SO_STACK_DEPTH];
	uint64_t at = c->base + TF_RECORD_HDR_LEN;
	uint32_t id, depth, i;

	id = (uint32_t)tf_get(c, 4, "stack_id");
	depth = tf_get_count(c, SO_STACK_DEPTH, 8, "depth");
	for (i = 0; i < depth; i++)
		addrs[i] = tf_get(c, 8, "address");
	if (tf_cursor_done(c))
		return -1;
	if (id > INT32_MAX)
		return tf_fail(c->r, "bad STACK record at offset %llu: stack id %d at offset %llu is negative",
			       (unsigned long long)c->base, (int32_t)id,
			       (unsigned long long)at);
	c->r->nr_stacks++;
	return h->stack ? h->stack(ctx, (int32_t)id, addrs, depth) : 0;
}

static int tf_decode_ksym(struct tf_cursor *c, const struct tf_handlers *h,
			  void *ctx)
{
	char name[TF_KSYM_NAME_LEN], module[TF_KSYM_MODULE_LEN];
	uint64_t addr, size, at;
	uint32_t type;

	addr = tf_get(c, 8, "addr");
	size = tf_get(c, 8, "size");
	at = c->base + TF_RECORD_HDR_LEN + c->pos;
	type = (uint32_t)tf_get(c, 4, "type");
	tf_get_str(c, name, sizeof(name), "name");
	tf_get_str(c, module, sizeof(module), "module");
	if (tf_cursor_done(c))
		return -1;
	if (type < 0x21 || type > 0x7e || !name[0])
		return tf_fail(c->r, "bad KSYM record at offset %llu: %s at offset %llu",
			       (unsigned long long)c->base,
			       name[0] ? "type is not a letter" : "empty name",
			       (unsigned long long)(name[0] ? at : at + 4));
	c->r->nr_ksyms++;
	return h->ksym ? h->ksym(ctx, addr, size, (char)type, name, module) :
			 0;
}

static int tf_check_count(struct tf_cursor *c, const char *what,
			  uint64_t claimed, uint64_t seen)
{
	if (c->bad || claimed == seen)
		return 0;
	c->bad = true;
	return tf_fail(c->r, "bad TRAILER record at offset %llu: it counts %llu %s, the file has %llu",
		       (unsigned long long)c->base,
		       (unsigned long long)claimed, what,
		       (unsigned long long)seen);
}

static int tf_decode_trailer(struct tf_cursor *c, const struct tf_handlers *h,
			     void *ctx)
{
	struct so_session_end end;
	uint32_t nr_counters, i;
	uint64_t at;

	memset(&end, 0, sizeof(end));
	end.end_mono_ns = tf_get(c, 8, "end_mono_ns");
	end.nr_events = tf_get(c, 8, "nr_events");
	end.nr_stacks = tf_get(c, 8, "nr_stacks");
	end.nr_ksyms = tf_get(c, 8, "nr_ksyms");
	at = c->base + TF_RECORD_HDR_LEN + c->pos;
	nr_counters = tf_get_count(c, SO_CNT_NR, 8, "nr_counters");
	/* Counters are appended to the enum: an older trace has fewer, and
	 * those it lacks read as 0.  More than this ABI knows is corrupt. */
	if (!c->bad && nr_counters > SO_CNT_NR) {
		c->bad = true;
		return tf_fail(c->r, "bad TRAILER record at offset %llu: nr_counters %u at offset %llu, this ABI has at most %d",
			       (unsigned long long)c->base, nr_counters,
			       (unsigned long long)at, SO_CNT_NR);
	}
	for (i = 0; i < nr_counters; i++)
		end.counters[i] = tf_get(c, 8, "counter");
	if (tf_cursor_done(c) ||
	    tf_check_count(c, "events", end.nr_events, c->r->nr_events) ||
	    tf_check_count(c, "stacks", end.nr_stacks, c->r->nr_stacks) ||
	    tf_check_count(c, "symbols", end.nr_ksyms, c->r->nr_ksyms))
		return -1;
	return h->trailer ? h->trailer(ctx, &end) : 0;
}

static int tf_read_preamble(struct tf_reader *r)
{
	uint8_t preamble[TF_PREAMBLE_LEN];
	uint32_t format, abi;

	if (tf_read_exact(r, preamble, sizeof(preamble), "header", 0,
			  sizeof(preamble)))
		return -1;
	if (memcmp(preamble, TF_MAGIC, 8))
		return tf_fail(r, "not a sysfs-observe trace (bad magic at offset 0)");
	format = (uint32_t)tf_le(preamble + 8, 4);
	abi = (uint32_t)tf_le(preamble + 12, 4);
	if (format < TF_FORMAT_OLDEST || format > TF_FORMAT_VERSION)
		return tf_fail(r, "format version %u at offset 8, this build reads %d..%d",
			       format, TF_FORMAT_OLDEST, TF_FORMAT_VERSION);
	r->format = format;
	if (abi != SO_ABI_VERSION)
		return tf_fail(r, "recorded with event ABI %u (offset 12), this build reads %d",
			       abi, SO_ABI_VERSION);
	return 0;
}

/* Which record types may come next: SESSION first, TRAILER last. */
static int tf_check_order(struct tf_reader *r, uint32_t type, uint64_t at,
			  bool have_session)
{
	const char *name = type < sizeof(tf_record_names) /
					  sizeof(tf_record_names[0]) ?
				   tf_record_names[type] : NULL;

	if (!name)
		return tf_fail(r, "unknown record type %u at offset %llu",
			       type, (unsigned long long)at);
	if (!have_session && type != TF_REC_SESSION)
		return tf_fail(r, "%s record at offset %llu before the SESSION record",
			       name, (unsigned long long)at);
	if (have_session && type == TF_REC_SESSION)
		return tf_fail(r, "second SESSION record at offset %llu",
			       (unsigned long long)at);
	return 0;
}

static int tf_dispatch(struct tf_reader *r, struct tf_cursor *c,
		       uint32_t type, const struct tf_handlers *h, void *ctx)
{
	struct so_session_info *info;
	char why[128];
	int ret;

	switch (type) {
	case TF_REC_SESSION:
		info = malloc(sizeof(*info));
		if (!info)
			return tf_fail(r, "out of memory");
		ret = tf_decode_session(c, info);
		if (!ret && h->session)
			ret = h->session(ctx, info);
		free(info);
		return ret;
	case TF_REC_EVENT:
		if (so_record_check(c->bytes, c->len, why, sizeof(why)))
			return tf_fail(r, "bad EVENT record at offset %llu: %s",
				       (unsigned long long)c->base, why);
		r->nr_events++;
		return h->event ? h->event(ctx, c->bytes, c->len) : 0;
	case TF_REC_STACK:
		return tf_decode_stack(c, h, ctx);
	case TF_REC_KSYM:
		return tf_decode_ksym(c, h, ctx);
	default:
		return tf_decode_trailer(c, h, ctx);
	}
}

static int tf_read_records(struct tf_reader *r, const struct tf_handlers *h,
			   void *ctx)
{
	bool have_session = false;
	uint8_t hdr[TF_RECORD_HDR_LEN];
	struct tf_cursor c;
	uint32_t type, len;
	uint64_t at;
	int ret, extra;

	for (;;) {
		at = r->offset;
		extra = fgetc(r->in);
		if (extra == EOF) {
			if (ferror(r->in))
				return tf_fail(r, "read error at offset %llu",
					       (unsigned long long)at);
			return tf_fail(r, "no TRAILER record: the trace ends at offset %llu (was the recording cut short?)",
				       (unsigned long long)at);
		}
		hdr[0] = (uint8_t)extra;
		r->offset++;
		if (tf_read_exact(r, hdr + 1, sizeof(hdr) - 1, "record header",
				  at, sizeof(hdr)))
			return -1;
		type = (uint32_t)tf_le(hdr, 4);
		len = (uint32_t)tf_le(hdr + 4, 4);
		if (tf_check_order(r, type, at, have_session))
			return -1;
		if (len > TF_PAYLOAD_MAX)
			return tf_fail(r, "record at offset %llu claims %u bytes, the limit is %d",
				       (unsigned long long)at, len,
				       TF_PAYLOAD_MAX);
		if (tf_read_exact(r, r->payload, len, "record", at,
				  TF_RECORD_HDR_LEN + (size_t)len))
			return -1;
		c = (struct tf_cursor){
			.r = r, .what = tf_record_names[type],
			.bytes = r->payload, .len = len, .base = at,
		};
		ret = tf_dispatch(r, &c, type, h, ctx);
		if (ret) {
			if (!r->err[0])
				tf_fail(r, "stopped by its reader at offset %llu",
					(unsigned long long)at);
			return -1;
		}
		have_session = true;
		if (type != TF_REC_TRAILER)
			continue;
		/* Format 3 on: another SESSION may follow its TRAILER
		 * (`record --test all` keeps every test), counted anew. */
		at = r->offset;
		extra = fgetc(r->in);
		if (extra == EOF)
			return ferror(r->in) ?
				tf_fail(r, "read error at offset %llu",
					(unsigned long long)at) : 0;
		if (r->format < 3)
			return tf_fail(r, "data after the TRAILER record at offset %llu",
				       (unsigned long long)at);
		ungetc(extra, r->in);
		have_session = false;
		r->nr_events = r->nr_stacks = r->nr_ksyms = 0;
	}
}

int tf_read(FILE *in, const char *fname, const struct tf_handlers *h,
	    void *ctx, char *err, size_t errlen)
{
	static const struct tf_handlers none;
	struct tf_reader r = {
		.in = in, .fname = fname, .err = err, .errlen = errlen,
	};
	int ret;

	err[0] = '\0';
	/* Records are read into aligned memory: handlers cast them. */
	r.payload = aligned_alloc(16, TF_PAYLOAD_MAX);
	if (!r.payload)
		return tf_fail(&r, "out of memory");
	ret = tf_read_preamble(&r);
	if (!ret)
		ret = tf_read_records(&r, h ? h : &none, ctx);
	free(r.payload);
	return ret;
}
