/* SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1 */
/*
 * The summary's class rows: each class's stats with its resolved name,
 * in the order a section wants.  Text and JSON build the same rows, so
 * they list the same classes in the same order.
 */
#ifndef SO_ROWS_H
#define SO_ROWS_H

#include <stdbool.h>
#include <stddef.h>
#include "analysis/stats.h"
#include "report/summary.h"
#include "trace/names.h"

struct so_class_row {
	const struct so_class_stats *cls;
	/* In a finding, or of the observed module: listed first. */
	bool focus;
	const char *type;			/* names_class_kind() */
	char name[SO_CLASS_NAME_LEN];
};

struct so_class_rows {
	struct so_class_row *rows;
	size_t len;
};

enum so_row_order {
	SO_ROWS_BY_WAIT,	/* total wait, most first (perf's default) */
	SO_ROWS_BY_HOLD,	/* total hold, most first */
	SO_ROWS_BY_KERNFS,	/* drains that waited, refusals, gets */
	SO_ROWS_BY_WRITES,	/* writes, most first */
	SO_ROWS_BY_NAME,
};
/* Each order puts the focus rows first. */

/*
 * Returns 0, or -1 when out of memory (rows is then empty).  A row is
 * the focus when the report's hooks put its class in a finding, or when
 * its name holds the observed module's (the --module filter).
 */
int rows_build(struct so_class_rows *rows, const struct so_report *r);
void rows_sort(struct so_class_rows *rows, enum so_row_order order);
void rows_free(struct so_class_rows *rows);

/* From the trailer when there is one, else from the events. */
uint64_t rows_duration_ns(const struct so_report *r);
uint64_t rows_counter(const struct so_report *r, uint32_t counter);

#endif /* SO_ROWS_H */
