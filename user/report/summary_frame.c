// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * The text summary's frame: the `#` header that says what the run was,
 * and the `# losses` footer that says what it may have missed.  Apart
 * from the tables (summary.c) because these follow the session record
 * and the counters, not the analysis.
 */
#include <inttypes.h>
#include <string.h>
#include <time.h>
#include "report/rows.h"
#include "report/summary_frame.h"
#include "lib/units.h"

/* Losses that mean the analysis may have missed something. */
static const uint32_t so_loss_counters[] = {
	SO_CNT_RB_DROPS, SO_CNT_HELD_FULL, SO_CNT_EDGE_FULL,
	SO_CNT_TASK_FULL, SO_CNT_CLASS_FULL, SO_CNT_COUNTS_FULL,
	SO_CNT_CLASS_EVICTED,
};

bool summary_lost_events(const struct so_report *r)
{
	size_t i;

	for (i = 0; i < sizeof(so_loss_counters) / sizeof(so_loss_counters[0]);
	     i++)
		if (rows_counter(r, so_loss_counters[i]))
			return true;
	return r->malformed || r->stats->nomem;
}

/* "# probes fexit: a b c", wrapped under 80 columns. */
static void summary_probes(FILE *out, const struct so_session_info *info)
{
	uint32_t step, mode, i, col, len, shown;
	const char *label;

	/* Attached probes by mode, then the missing ones. */
	for (step = 1; step <= SO_PROBE_NR; step++) {
		mode = step % SO_PROBE_NR;
		shown = 0;
		col = 0;
		for (i = 0; i < info->nr_probes; i++) {
			if (info->probes[i].mode != mode)
				continue;
			len = (uint32_t)strlen(info->probes[i].name);
			if (!shown) {
				label = tf_probe_mode_name(mode);
				col = (uint32_t)fprintf(out, "# probes %s:",
							label);
			} else if (col + 1 + len > 79) {
				col = (uint32_t)fprintf(out, "\n#  ");
			}
			col += (uint32_t)fprintf(out, " %s",
						 info->probes[i].name);
			shown++;
		}
		if (shown)
			fputc('\n', out);
	}
}

void summary_header(FILE *out, const struct so_report *r)
{
	const struct so_session_info *info = r->info;
	char when[32] = "?", dur[SO_DURATION_LEN];
	time_t secs;
	struct tm tm;
	uint32_t i;

	fprintf(out, "# %s\n", info->tool[0] ? info->tool : "sysfs-observe");
	fprintf(out, "# kernel: %s\n", info->kernel[0] ? info->kernel : "?");
	fprintf(out, "# test: %s\n", info->test[0] ? info->test : "(attach)");
	secs = (time_t)(info->start_realtime_ns / 1000000000ULL);
	if (info->start_realtime_ns && gmtime_r(&secs, &tm))
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm);
	fprintf(out, "# started: %s\n", when);
	fprintf(out, "# module parameters: %s\n",
		info->module_params[0] ? info->module_params : "(none)");
	fprintf(out, "# filters: module=%s path=%s pid=",
		info->module_filter[0] ? info->module_filter : "*",
		info->path_prefix[0] ? info->path_prefix : "*");
	if (info->pid_filter)
		fprintf(out, "%u\n", info->pid_filter);
	else
		fprintf(out, "*\n");
	fprintf(out, "# kernfs knobs:");
	for (i = 0; i < info->nr_knobs; i++)
		fprintf(out, " %s=%s", info->knobs[i].name,
			info->knobs[i].value);
	if (info->nr_knobs)
		fputc('\n', out);
	else if (info->knobs_note[0])
		fprintf(out, " none (%s)\n", info->knobs_note);
	else
		fprintf(out, " (none)\n");
	summary_probes(out, info);
	fprintf(out, "# duration: %s%s\n",
		units_duration(rows_duration_ns(r), dur),
		r->end ? "" : " (cut short: no trailer)");
	/* Edges recovered from the kernel's table pass through the
	 * pipeline too, but BPF never submitted them: count them apart, so
	 * that received and submitted agree when nothing was lost. */
	fprintf(out, "# events: %" PRIu64 " received, ",
		r->stats->nr_events >= r->edges_recovered ?
			r->stats->nr_events - r->edges_recovered : 0);
	if (r->end)
		fprintf(out, "%" PRIu64 " submitted by BPF",
			rows_counter(r, SO_CNT_EVENTS));
	else
		fprintf(out, "submitted by BPF unknown (no trailer)");
	if (r->edges_recovered)
		fprintf(out, "; %" PRIu64 " edges from the kernel's table",
			r->edges_recovered);
	fputc('\n', out);
	fprintf(out, "# lost events: %" PRIu64 "\n",
		rows_counter(r, SO_CNT_RB_DROPS));
	fprintf(out, "#\n");
}

void summary_losses(FILE *out, const struct so_report *r)
{
	uint64_t dropped = 0;
	uint32_t i;

	fprintf(out, "\n# losses\n");
	for (i = SO_CNT_RB_DROPS; i <= SO_CNT_STACK_FAIL; i++)
		fprintf(out, "%10" PRIu64 "   %s\n", rows_counter(r, i),
			names_counter_desc(i));
	fprintf(out, "%10" PRIu64 "   %s\n",
		rows_counter(r, SO_CNT_COUNTS_FULL),
		names_counter_desc(SO_CNT_COUNTS_FULL));
	fprintf(out, "%10" PRIu64 "   %s\n", r->malformed,
		"malformed records refused");
	fprintf(out, "%10" PRIu64 "   %s\n", r->stats->nomem,
		"events not counted (out of memory)");
	fprintf(out, "%10" PRIu64 "   %s\n", r->stats->unpaired,
		"end events without their begin");
	fprintf(out, "%10" PRIu64 "   %s\n", r->edges_recovered,
		"edges taken from the kernel's edge table (record lost)");
	if (!summary_lost_events(r))
		return;
	for (i = 0; i < sizeof(so_loss_counters) / sizeof(so_loss_counters[0]);
	     i++)
		dropped += rows_counter(r, so_loss_counters[i]);
	/* Live, the edges are the kernel table's: complete whatever was
	 * dropped, unless the table itself was full. */
	fprintf(out, "\nWARNING! There were dropped events (%" PRIu64
		" in BPF, %" PRIu64 " refused, %" PRIu64 " uncounted): %s\n",
		dropped, r->malformed, r->stats->nomem,
		r->edges_exact && !rows_counter(r, SO_CNT_EDGE_FULL) ?
			"counts and timings may be short; the edges are "
			"complete (taken from the kernel's edge table)." :
			"the analysis may miss an edge.");
}
