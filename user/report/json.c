// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#include <inttypes.h>
#include "report/json.h"

void json_init(struct so_json *j, FILE *out)
{
	j->out = out;
	j->depth = 0;
	j->need_comma[0] = false;
	j->overflow = false;
}

void json_escape(FILE *out, const char *s)
{
	const unsigned char *p;

	fputc('"', out);
	for (p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"':
			fputs("\\\"", out);
			break;
		case '\\':
			fputs("\\\\", out);
			break;
		case '\n':
			fputs("\\n", out);
			break;
		case '\t':
			fputs("\\t", out);
			break;
		case '\r':
			fputs("\\r", out);
			break;
		default:
			/* Bytes above 0x7f are taken as Latin-1: the kernel's
			 * names are ASCII, and this stays valid whatever the
			 * bytes were. */
			if (*p < 0x20 || *p > 0x7e)
				fprintf(out, "\\u%04x", *p);
			else
				fputc(*p, out);
		}
	}
	fputc('"', out);
}

/* Comma, newline and indent before a member or element, then its key. */
static void json_member(struct so_json *j, const char *key)
{
	int i;

	if (j->depth > 0) {
		if (j->need_comma[j->depth])
			fputc(',', j->out);
		fputc('\n', j->out);
		for (i = 0; i < j->depth; i++)
			fputs("  ", j->out);
		j->need_comma[j->depth] = true;
	}
	if (key) {
		json_escape(j->out, key);
		fputs(": ", j->out);
	}
}

static void json_open(struct so_json *j, const char *key, char bracket)
{
	json_member(j, key);
	fputc(bracket, j->out);
	if (j->depth + 1 >= SO_JSON_DEPTH) {
		j->overflow = true;
		return;
	}
	j->depth++;
	j->need_comma[j->depth] = false;
}

static void json_close(struct so_json *j, char bracket)
{
	bool had_members;
	int i;

	if (j->depth <= 0) {
		j->overflow = true;
		return;
	}
	had_members = j->need_comma[j->depth];
	j->depth--;
	if (had_members) {
		fputc('\n', j->out);
		for (i = 0; i < j->depth; i++)
			fputs("  ", j->out);
	}
	fputc(bracket, j->out);
}

void json_object(struct so_json *j, const char *key)
{
	json_open(j, key, '{');
}

void json_array(struct so_json *j, const char *key)
{
	json_open(j, key, '[');
}

void json_end_object(struct so_json *j)
{
	json_close(j, '}');
}

void json_end_array(struct so_json *j)
{
	json_close(j, ']');
}

void json_string(struct so_json *j, const char *key, const char *value)
{
	json_member(j, key);
	json_escape(j->out, value);
}

void json_u64(struct so_json *j, const char *key, uint64_t value)
{
	json_member(j, key);
	fprintf(j->out, "%" PRIu64, value);
}

void json_i64(struct so_json *j, const char *key, int64_t value)
{
	json_member(j, key);
	fprintf(j->out, "%" PRId64, value);
}

void json_bool(struct so_json *j, const char *key, bool value)
{
	json_member(j, key);
	fputs(value ? "true" : "false", j->out);
}

void json_null(struct so_json *j, const char *key)
{
	json_member(j, key);
	fputs("null", j->out);
}

int json_finish(struct so_json *j)
{
	fputc('\n', j->out);
	return j->depth || j->overflow ? -1 : 0;
}

void json_raw(struct so_json *j, const char *key,
	      int (*write_value)(void *ctx, FILE *out), void *ctx)
{
	json_member(j, key);
	if (write_value(ctx, j->out))
		fputs("null", j->out);
}
