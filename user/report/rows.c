// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#include <stdlib.h>
#include <string.h>
#include "report/rows.h"

static bool rows_focus(const struct so_report *r,
		       const struct so_class_row *row)
{
	const struct so_summary_hooks *hooks = r->hooks;
	const char *module = r->info ? r->info->module_filter : "";

	if (hooks && hooks->in_finding &&
	    hooks->in_finding(row->cls->class_id, hooks->ctx))
		return true;
	return module[0] && strstr(row->name, module);
}

int rows_build(struct so_class_rows *rows, const struct so_report *r)
{
	const struct so_stats *st = r->stats;
	uint32_t i;

	rows->len = 0;
	rows->rows = calloc(st->nr_classes ? st->nr_classes : 1,
			    sizeof(*rows->rows));
	if (!rows->rows)
		return -1;
	for (i = 0; i < st->nr_classes; i++) {
		struct so_class_row *row = &rows->rows[rows->len++];

		row->cls = &st->classes[i];
		row->type = names_class_kind(SO_CLASS_KIND(row->cls->class_id));
		names_class(r->names, row->cls->class_id, row->name,
			    sizeof(row->name));
		row->focus = rows_focus(r, row);
	}
	return 0;
}

/* Every order lists the focus rows first: -1, 1, or 0 when both or
 * neither are. */
static int rows_focus_first(const struct so_class_row *x,
			    const struct so_class_row *y)
{
	return x->focus == y->focus ? 0 : x->focus ? -1 : 1;
}

static int rows_by_name(const void *a, const void *b)
{
	const struct so_class_row *x = a, *y = b;
	int cmp = rows_focus_first(x, y) ?: strcmp(x->name, y->name);

	if (cmp)
		return cmp;
	if (x->cls->class_id != y->cls->class_id)
		return x->cls->class_id < y->cls->class_id ? -1 : 1;
	return 0;
}

static int rows_cmp_desc(uint64_t x, uint64_t y)
{
	return x == y ? 0 : x > y ? -1 : 1;
}

static int rows_by_wait(const void *a, const void *b)
{
	const struct so_class_row *x = a, *y = b;

	return rows_focus_first(x, y) ?:
	       rows_cmp_desc(x->cls->wait.total_ns, y->cls->wait.total_ns) ?:
		       rows_by_name(a, b);
}

static int rows_by_hold(const void *a, const void *b)
{
	const struct so_class_row *x = a, *y = b;

	return rows_focus_first(x, y) ?:
	       rows_cmp_desc(x->cls->hold.total_ns, y->cls->hold.total_ns) ?:
		       rows_by_name(a, b);
}

/* A kernfs node's activity: a drain that waited or a refused get says
 * more than a hundred gets. */
static int rows_by_kernfs(const void *a, const void *b)
{
	const struct so_class_row *x = a, *y = b;
	const struct so_class_stats *p = x->cls, *q = y->cls;

	return rows_focus_first(x, y) ?:
	       rows_cmp_desc(p->kn_drain_waits, q->kn_drain_waits) ?:
	       rows_cmp_desc(p->kn_refused, q->kn_refused) ?:
	       rows_cmp_desc(p->kn_gets + p->kn_drains,
			     q->kn_gets + q->kn_drains) ?:
	       rows_by_name(a, b);
}

static int rows_by_writes(const void *a, const void *b)
{
	const struct so_class_row *x = a, *y = b;

	return rows_focus_first(x, y) ?:
	       rows_cmp_desc(x->cls->writes, y->cls->writes) ?:
		       rows_by_name(a, b);
}

void rows_sort(struct so_class_rows *rows, enum so_row_order order)
{
	int (*cmp)(const void *, const void *) =
		order == SO_ROWS_BY_WAIT ? rows_by_wait :
		order == SO_ROWS_BY_HOLD ? rows_by_hold :
		order == SO_ROWS_BY_KERNFS ? rows_by_kernfs :
		order == SO_ROWS_BY_WRITES ? rows_by_writes : rows_by_name;

	if (rows->len)
		qsort(rows->rows, rows->len, sizeof(*rows->rows), cmp);
}

void rows_free(struct so_class_rows *rows)
{
	free(rows->rows);
	rows->rows = NULL;
	rows->len = 0;
}

uint64_t rows_duration_ns(const struct so_report *r)
{
	if (r->end && r->info && r->end->end_mono_ns > r->info->start_mono_ns &&
	    r->info->start_mono_ns)
		return r->end->end_mono_ns - r->info->start_mono_ns;
	return r->stats->last_ns - r->stats->first_ns;
}

uint64_t rows_counter(const struct so_report *r, uint32_t counter)
{
	return r->end && counter < SO_CNT_NR ? r->end->counters[counter] : 0;
}
