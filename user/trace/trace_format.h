/* SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1 */
/*
 * What the trace file's writer and reader share beyond trace_file.h: the
 * KSYM field sizes, the reader's cursor over one record, and the checks
 * that the records stored as-is still have the size the format promises.
 * Private to trace/: nothing outside reads a record's bytes.
 */
#ifndef SO_TRACE_FORMAT_H
#define SO_TRACE_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "trace/stacks.h"
#include "trace/trace_file.h"

#define TF_KSYM_NAME_LEN	128	/* KSYM_NAME_LEN */
#define TF_KSYM_MODULE_LEN	64	/* MODULE_NAME_LEN */

/*
 * EVENT records are struct so_event and struct so_edge_event exactly as
 * the ring buffer delivered them (bpf/observe.h): a size that changes
 * without SO_ABI_VERSION changing would make old traces read as garbage
 * that passes record_check().  A failure here means: bump
 * SO_ABI_VERSION in observe.h, then update these sizes.
 */
_Static_assert(SO_ABI_VERSION == 1,
	       "observe.h's ABI changed: check the sizes below, then this");
_Static_assert(sizeof(struct so_event) == 144,
	       "struct so_event is stored as-is: its size is the trace ABI");
_Static_assert(sizeof(struct so_edge_key) == 24 &&
	       sizeof(struct so_edge_val) == 88,
	       "the edge key and value are stored as-is inside EVENT records");
_Static_assert(sizeof(struct so_edge_event) == 320,
	       "struct so_edge_event is stored as-is: its size is the trace ABI");
_Static_assert(offsetof(struct so_edge_event, ev) == 0,
	       "the reader takes an EVENT's type from its first so_event");
/* Every record must fit the payload limit the reader enforces. */
_Static_assert(sizeof(struct so_edge_event) <= TF_PAYLOAD_MAX,
	       "an edge event must fit one record");
_Static_assert(8 + 8 * SO_STACK_DEPTH <= TF_PAYLOAD_MAX,
	       "a full stack must fit one STACK record");
_Static_assert(sizeof(TF_MAGIC) + 4 + 4 == TF_PREAMBLE_LEN,
	       "the preamble is the magic, the format and the ABI version");
/* Strings are stored with a u16 length. */
_Static_assert(sizeof(((struct so_session_info *)0)->module_params) <=
	       UINT16_MAX, "a SESSION string's length must fit its u16");
_Static_assert(TF_KSYM_NAME_LEN <= UINT16_MAX,
	       "a KSYM string's length must fit its u16");

/* --- reading (trace_cursor.c) ---------------------------------------- */

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

/* "<fname>: <problem>" into r->err; returns -1. */
int tf_fail(struct tf_reader *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Reads exactly len bytes or says how many there were. */
int tf_read_exact(struct tf_reader *r, void *buf, size_t len,
		  const char *what, uint64_t at, size_t need);
uint64_t tf_le(const uint8_t *p, size_t width);
/* The next width bytes as a little-endian integer; 0 once bad. */
uint64_t tf_get(struct tf_cursor *c, size_t width, const char *field);
/* A string into dst[size]: shorter than size, no NUL inside. */
void tf_get_str(struct tf_cursor *c, char *dst, size_t size,
		const char *field);
uint32_t tf_get_count(struct tf_cursor *c, uint32_t max, size_t min_item,
		      const char *field);
/* Everything decoded must be everything there was. */
int tf_cursor_done(struct tf_cursor *c);

/* --- the records (trace_decode.c) ------------------------------------ */

int tf_decode_session(struct tf_cursor *c, struct so_session_info *info);
int tf_decode_stack(struct tf_cursor *c, const struct tf_handlers *h,
		    void *ctx);
int tf_decode_ksym(struct tf_cursor *c, const struct tf_handlers *h,
		   void *ctx);
int tf_decode_trailer(struct tf_cursor *c, const struct tf_handlers *h,
		      void *ctx);

#endif /* SO_TRACE_FORMAT_H */
