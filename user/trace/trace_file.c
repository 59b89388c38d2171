// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * The trace file reader: preamble, record order, and the loop that hands
 * each record to its decoder; the layout is in trace_file.h.  The reader
 * trusts nothing: every length is checked against the field it fills and
 * the bytes the record has left, before a single byte is copied
 * (trace_cursor.c).  The writer is trace_write.c.
 */
#include <stdlib.h>
#include <string.h>
#include "trace/record.h"
#include "trace/trace_format.h"

static const char *const tf_record_names[] = {
	[TF_REC_SESSION] = "SESSION", [TF_REC_EVENT] = "EVENT",
	[TF_REC_STACK] = "STACK",     [TF_REC_KSYM] = "KSYM",
	[TF_REC_TRAILER] = "TRAILER",
};
_Static_assert(sizeof(tf_record_names) / sizeof(tf_record_names[0]) ==
	       TF_REC_TRAILER + 1, "a name for every record type");

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
		if (record_check(c->bytes, c->len, why, sizeof(why)))
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
