// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * The text summary: the verdict and the findings, then the tables, each
 * cut to -E rows.  The header and the losses around them are
 * summary_frame.c; the JSON is summary_json.c.
 */
#include <inttypes.h>
#include <string.h>
#include "report/rows.h"
#include "report/summary_frame.h"
#include "lib/units.h"

static const char *summary_dur(uint64_t ns, char buf[SO_DURATION_LEN])
{
	return units_duration(ns, buf);
}

static const struct so_timing *summary_row_wait(const struct so_class_stats *c)
{
	return &c->wait;
}

static const struct so_timing *summary_row_hold(const struct so_class_stats *c)
{
	return &c->hold;
}

/*
 * A table's rows are cut at r->max_entries, like perf's -E: whether the
 * next row with something to show still fits, counting the rest.
 */
struct so_cut {
	unsigned int max;	/* 0: no limit */
	size_t shown, more;
};

static bool summary_cut_row(struct so_cut *cut)
{
	if (cut->max && cut->shown >= cut->max) {
		cut->more++;
		return false;
	}
	cut->shown++;
	return true;
}

static void summary_cut_end(FILE *out, const struct so_cut *cut, int indent)
{
	if (cut->more)
		fprintf(out, "%*s... %zu more (--entries 0 for all)\n", indent,
			"", cut->more);
	else if (!cut->shown)
		fprintf(out, "%*s\n", indent, "(none)");
}

/* One perf-lock-contention-style table; returns the rows shown. */
static size_t summary_timing_table(FILE *out, struct so_class_rows *rows,
				   unsigned int max_entries,
				   const char *const columns[4],
				   const struct so_timing *(*pick)(
					    const struct so_class_stats *))
{
	char total[SO_DURATION_LEN], max[SO_DURATION_LEN], avg[SO_DURATION_LEN];
	struct so_cut cut = { .max = max_entries };
	const struct so_timing *t;
	size_t i;

	fprintf(out, "%10s %12s %12s %12s %8s   %s\n", columns[0],
		columns[1], columns[2], columns[3], "type", "name");
	for (i = 0; i < rows->len; i++) {
		t = pick(rows->rows[i].cls);
		if (!t->count || !summary_cut_row(&cut))
			continue;
		fprintf(out, "%10" PRIu64 " %12s %12s %12s %8s   %s\n",
			t->count, summary_dur(t->total_ns, total),
			summary_dur(t->max_ns, max),
			summary_dur(stats_timing_avg(t), avg),
			rows->rows[i].type, rows->rows[i].name);
	}
	summary_cut_end(out, &cut, 10);
	return cut.shown;
}

static void summary_contention(FILE *out, struct so_class_rows *rows,
			       unsigned int max_entries)
{
	static const char *const columns[4] = {
		"contended", "total wait", "max wait", "avg wait",
	};

	rows_sort(rows, SO_ROWS_BY_WAIT);
	fprintf(out, "\n# contention\n");
	summary_timing_table(out, rows, max_entries, columns, summary_row_wait);
}

static void summary_hist(FILE *out, const struct so_hist *h)
{
	uint64_t peak = 0;
	int lo = -1, hi = -1, i, stars;

	for (i = 0; i < SO_HIST_BUCKETS; i++) {
		if (!h->buckets[i])
			continue;
		if (lo < 0)
			lo = i;
		hi = i;
		if (h->buckets[i] > peak)
			peak = h->buckets[i];
	}
	if (lo < 0)
		return;
	fprintf(out, "%28s : %-8s %s\n", "ns", "count", "distribution");
	for (i = lo; i <= hi; i++) {
		stars = (int)(h->buckets[i] * 30 / peak);
		fprintf(out, "%12" PRIu64 " -> %-12" PRIu64 " : %-8" PRIu64
			" |%-30.*s|\n", i ? (uint64_t)1 << i : 0,
			(i < 63 ? (uint64_t)1 << (i + 1) : 0) - 1, h->buckets[i],
			stars, "******************************");
	}
}

static void summary_holds(FILE *out, struct so_class_rows *rows,
			  unsigned int max_entries)
{
	static const char *const columns[4] = {
		"holds", "total hold", "max hold", "avg hold",
	};
	size_t i, shown;

	rows_sort(rows, SO_ROWS_BY_HOLD);
	fprintf(out, "\n# hold times\n");
	shown = summary_timing_table(out, rows, max_entries, columns,
				     summary_row_hold);
	/* The histograms of the rows the table showed, in its order. */
	for (i = 0; i < rows->len && shown; i++) {
		if (!rows->rows[i].cls->hold.count)
			continue;
		shown--;
		fprintf(out, "\n%s\n", rows->rows[i].name);
		summary_hist(out, &rows->rows[i].cls->hold_hist);
	}
}

static void summary_errnos(FILE *out, const char *label,
			   const struct so_errnos *e)
{
	char buf[SO_DURATION_LEN];
	uint32_t i;

	if (!e->len)
		return;
	fprintf(out, "%s", label);
	for (i = 0; i < e->len; i++)
		fprintf(out, "%s %s %" PRIu64, i ? "," : "",
			units_errno(e->slots[i].err, buf), e->slots[i].count);
	if (e->other)
		fprintf(out, ", other %" PRIu64, e->other);
	fputc('\n', out);
}

static void summary_kernfs(FILE *out, struct so_class_rows *rows,
			   const struct so_stats *st, unsigned int max_entries)
{
	char max[SO_DURATION_LEN], avg[SO_DURATION_LEN];
	struct so_cut cut = { .max = max_entries };
	const struct so_class_stats *c;
	size_t i;

	rows_sort(rows, SO_ROWS_BY_KERNFS);
	fprintf(out, "\n# kernfs active references\n");
	fprintf(out, "%8s %8s %8s %7s %6s %10s   %s\n", "gets", "refused",
		"puts", "drains", "waits", "max drain", "name");
	for (i = 0; i < rows->len; i++) {
		c = rows->rows[i].cls;
		if (SO_CLASS_KIND(c->class_id) != SO_CLASS_KN ||
		    !(c->kn_gets + c->kn_refused + c->kn_puts + c->kn_drains) ||
		    !summary_cut_row(&cut))
			continue;
		fprintf(out, "%8" PRIu64 " %8" PRIu64 " %8" PRIu64 " %7" PRIu64
			" %6" PRIu64 " %10s   %s\n", c->kn_gets, c->kn_refused,
			c->kn_puts, c->kn_drains, c->kn_drain_waits,
			c->drain.count ?
				summary_dur(c->drain.max_ns, max) : "-",
			rows->rows[i].name);
	}
	summary_cut_end(out, &cut, 8);

	cut = (struct so_cut){ .max = max_entries };
	rows_sort(rows, SO_ROWS_BY_WRITES);
	fprintf(out, "\n# writes\n");
	fprintf(out, "%8s %10s %8s %12s   %s\n", "writes", "bytes", "errors",
		"avg time", "name");
	for (i = 0; i < rows->len; i++) {
		c = rows->rows[i].cls;
		if (!c->writes || !summary_cut_row(&cut))
			continue;
		fprintf(out, "%8" PRIu64 " %10" PRIu64 " %8" PRIu64 " %12s   %s\n",
			c->writes, c->write_bytes, c->write_errors,
			c->write_time.count ?
				summary_dur(stats_timing_avg(&c->write_time),
					    avg) : "-",
			rows->rows[i].name);
	}
	summary_cut_end(out, &cut, 8);
	summary_errnos(out, "# write errors:", &st->write_errnos);
}

static void summary_module_refs(FILE *out, struct so_class_rows *rows,
				unsigned int max_entries)
{
	struct so_cut cut = { .max = max_entries };
	const struct so_class_stats *c;
	size_t i;

	fprintf(out, "\n# module references (try_module_get / module_put)\n");
	fprintf(out, "%8s %8s %8s   %s\n", "gets", "refused", "puts", "name");
	for (i = 0; i < rows->len; i++) {
		c = rows->rows[i].cls;
		if (!(c->mod_gets + c->mod_get_fails + c->mod_puts) ||
		    !summary_cut_row(&cut))
			continue;
		fprintf(out, "%8" PRIu64 " %8" PRIu64 " %8" PRIu64 "   %s\n",
			c->mod_gets, c->mod_get_fails, c->mod_puts,
			rows->rows[i].name);
	}
	summary_cut_end(out, &cut, 8);
}

static void summary_timing_row(FILE *out, const char *what,
			       const struct so_timing *t, uint64_t failed,
			       const char *name)
{
	char total[SO_DURATION_LEN], max[SO_DURATION_LEN], avg[SO_DURATION_LEN];

	fprintf(out, "%-14s %6" PRIu64 " %6" PRIu64 " %11s %11s %11s   %s\n",
		what, t->count, failed, summary_dur(t->total_ns, total),
		summary_dur(t->max_ns, max),
		summary_dur(stats_timing_avg(t), avg), name);
}

static void summary_removals(FILE *out, const struct so_stats *st)
{
	const struct so_module_ops *mods = &st->modules;
	const struct so_device_stats *dev;
	uint32_t i;

	fprintf(out, "\n# module loads, removals and device removal\n");
	fprintf(out, "%-14s %6s %6s %11s %11s %11s   %s\n", "function",
		"count", "failed", "total", "max", "avg", "name");
	if (mods->load.count)
		summary_timing_row(out, "finit_module", &mods->load,
				   mods->load_fails, "-");
	if (mods->delete.count)
		summary_timing_row(out, "delete_module", &mods->delete,
				   mods->delete_fails, "-");
	for (i = 0; i < st->nr_devices; i++) {
		dev = &st->devices[i];
		summary_timing_row(out, dev->kind == SO_DEV_GENDISK ?
						 "del_gendisk" :
						 "misc_deregister",
				   &dev->removal, 0,
				   dev->name[0] ? dev->name : "?");
	}
	if (!mods->load.count && !mods->delete.count && !st->nr_devices)
		fprintf(out, "%-14s\n", "(none)");
	summary_errnos(out, "# finit_module errors:", &mods->load_errnos);
	summary_errnos(out, "# delete_module errors:", &mods->delete_errnos);
}

/*
 * The answer first: the verdict and the findings (cycles with their
 * scenario, an observed deadlock), then the tables, each cut to
 * r->max_entries rows with the finding's and the observed module's
 * classes on top, then what was lost.
 */
void summary_text(FILE *out, const struct so_report *r)
{
	const struct so_summary_hooks *hooks = r->hooks;
	struct so_class_rows rows;

	stats_finish(r->stats);
	rows_build(&rows, r);
	summary_header(out, r);
	if (hooks && hooks->verdict_text)
		hooks->verdict_text(out, hooks->ctx);
	if (summary_lost_events(r))
		fprintf(out, "WARNING! events were lost: see # losses below\n");
	if (hooks && hooks->analysis_text)
		hooks->analysis_text(out, hooks->ctx);
	summary_contention(out, &rows, r->max_entries);
	summary_holds(out, &rows, r->max_entries);
	summary_kernfs(out, &rows, r->stats, r->max_entries);
	summary_module_refs(out, &rows, r->max_entries);
	summary_removals(out, r->stats);
	summary_losses(out, r);
	rows_free(&rows);
}
