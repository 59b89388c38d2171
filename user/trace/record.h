/* SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1 */
/*
 * What makes a raw record (ring buffer sample or trace file event) one we
 * may decode: its type and size.  The pipeline and the trace reader both
 * ask here, so the live run and `report` reject the same records.
 */
#ifndef SO_RECORD_H
#define SO_RECORD_H

#include <stddef.h>
#include "observe.h"

/* 0 if rec is a valid so_event or so_edge_event; else -1 and why. */
int record_check(const void *rec, size_t len, char *why, size_t whylen);
/* Copies a checked record into out and NUL-terminates its strings, so no
 * consumer reads past a name the kernel (or a corrupt file) left open,
 * and escapes them (record_escape_str).  out must have room for a struct
 * so_edge_event. */
void record_copy(void *out, const void *rec, size_t len);
/*
 * In place, within `size` bytes (at most 256): control bytes become
 * "\x1b" and a backslash "\\", so a task's name (any process can set it:
 * PR_SET_NAME) or a crafted trace cannot drive the terminal; what no
 * longer fits is cut.  Always NUL-terminated.
 */
void record_escape_str(char *s, size_t size);

#endif /* SO_RECORD_H */
