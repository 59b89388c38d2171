// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * The reader's distrust, in one place: every integer, string and count of
 * a record is checked against its field and the bytes the record has
 * left, and the first problem is reported with its byte offset.  Apart
 * from the record decoders so that these checks are read (and fuzzed) as
 * one piece.
 */
#include <stdarg.h>
#include <string.h>
#include "trace/trace_format.h"

int tf_fail(struct tf_reader *r, const char *fmt, ...)
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
int tf_read_exact(struct tf_reader *r, void *buf, size_t len,
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

uint64_t tf_le(const uint8_t *p, size_t width)
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

uint64_t tf_get(struct tf_cursor *c, size_t width, const char *field)
{
	uint64_t v;

	if (!tf_need(c, width, field))
		return 0;
	v = tf_le(c->bytes + c->pos, width);
	c->pos += width;
	return v;
}

/* A string into dst[size]: shorter than size, no NUL inside. */
void tf_get_str(struct tf_cursor *c, char *dst, size_t size,
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
uint32_t tf_get_count(struct tf_cursor *c, uint32_t max,
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
int tf_cursor_done(struct tf_cursor *c)
{
	if (c->bad)
		return -1;
	if (c->pos != c->len)
		return tf_fail(c->r, "bad %s record at offset %llu: %zu bytes left over after its fields",
			       c->what, (unsigned long long)c->base,
			       c->len - c->pos);
	return 0;
}
