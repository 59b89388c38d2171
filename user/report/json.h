/* SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1 */
/*
 * A small streaming JSON writer: it tracks nesting and commas, escapes
 * every string so any bytes (a corrupt trace's names included) come out
 * as valid JSON, and indents with two spaces.
 */
#ifndef SO_JSON_H
#define SO_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define SO_JSON_DEPTH	16

struct so_json {
	FILE *out;
	int depth;
	bool need_comma[SO_JSON_DEPTH];
	bool overflow;		/* nested deeper than SO_JSON_DEPTH: a bug */
};

void json_init(struct so_json *j, FILE *out);
/* key is NULL inside arrays and at the top level. */
void json_object(struct so_json *j, const char *key);
void json_array(struct so_json *j, const char *key);
void json_end_object(struct so_json *j);
void json_end_array(struct so_json *j);
void json_string(struct so_json *j, const char *key, const char *value);
void json_u64(struct so_json *j, const char *key, uint64_t value);
void json_i64(struct so_json *j, const char *key, int64_t value);
void json_bool(struct so_json *j, const char *key, bool value);
void json_null(struct so_json *j, const char *key);
/* A member whose value another writer prints whole (a JSON value). */
void json_raw(struct so_json *j, const char *key,
	      int (*write_value)(void *ctx, FILE *out), void *ctx);
/* Ends the document with a newline; returns -1 if nesting went wrong. */
int json_finish(struct so_json *j);
/* Writes s as a JSON string literal, quotes included. */
void json_escape(FILE *out, const char *s);

#endif /* SO_JSON_H */
