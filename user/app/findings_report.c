// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * The findings in the summary: the cycles, an observed deadlock and the
 * knob-forced interleavings as text and JSON, and the verdict line.
 * Apart from findings.c because that one decides, live or replaying, and
 * this one only prints what it decided, through struct so_summary_hooks.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include "report/cycles.h"
#include "report/json.h"
#include "app/findings_report.h"

/*
 * Frames our own probes put into a stack: the BPF program that took it
 * and the tracepoint runner that called it (on top), and, for each
 * traced function below, the trampoline that
 * fexit runs it from, followed by the function's patched entry ("fn+0x5",
 * the call the trampoline returns to).  They say nothing of the kernel's
 * path and move with how we attached, so the report leaves them out.
 */
static bool findings_probe_frame(const char *sym)
{
	return !strncmp(sym, "bpf_prog_", 9) ||
	       !strncmp(sym, "bpf_trampoline_", 15) ||
	       !strncmp(sym, "bpf_trace_run", 13) ||	/* tp_btf */
	       !strncmp(sym, "__bpf_trace_", 12);
}

static bool findings_entry_frame(const char *sym)
{
	const char *off = strstr(sym, "+0x5");

	return off && (off[4] == '\0' || off[4] == ' ');
}

/* "    sym+0x1a [module]" a frame, from the pipeline's stacks. */
static int findings_stack_fmt(void *ctx, int32_t stack_id, FILE *out)
{
	struct so_findings *f = ctx;
	const struct so_stack *st;
	bool after_probe = false;
	char sym[160];
	uint32_t i, shown = 0;

	if (stack_id < 0 || !f->pipeline)
		return -ENOENT;
	st = pipeline_get_stack(f->pipeline, stack_id);
	if (!st)
		return -ENOENT;
	for (i = 0; i < st->depth; i++) {
		const char *frame = f->ksyms ?
			ksyms_format(f->ksyms, st->addrs[i], sym, sizeof(sym)) :
			"?";
		bool entry = after_probe && findings_entry_frame(frame);

		after_probe = findings_probe_frame(frame);
		if (after_probe || entry)
			continue;
		fprintf(out, "        %s\n", frame);
		shown++;
	}
	if (!shown)
		fprintf(out, "        (only the probe's own frames)\n");
	return 0;
}

/* Each interleaving a knob forced, with the wait point and delay. */
static void findings_timelines_text(struct so_findings *f, FILE *out)
{
	size_t i, n;

	wt_finish(f->wt);
	n = wt_count(f->wt);
	if (!n && !wt_dropped(f->wt))
		return;		/* no knob kernel, or no write waited */
	fprintf(out, "\n# write timelines: %zu write%s waited at a kernfs "
		"knob\n", n, n == 1 ? "" : "s");
	for (i = 0; i < n; i++)
		wt_print(wt_at(f->wt, i), out);
	if (wt_dropped(f->wt))
		fprintf(out, "# %" PRIu64 " more not kept (out of room)\n",
			wt_dropped(f->wt));
}

static void findings_timelines_json(struct so_json *j, struct so_findings *f)
{
	const struct wt_timeline *tl;
	char name[SO_NAME_LEN + 4];
	uint32_t s;
	size_t i;

	wt_finish(f->wt);
	json_array(j, "write_timelines");
	for (i = 0; i < wt_count(f->wt); i++) {
		tl = wt_at(f->wt, i);
		json_object(j, NULL);
		snprintf(name, sizeof(name), "kn:%s", tl->name);
		json_string(j, "class", tl->name[0] ? name : "");
		json_u64(j, "tid", tl->tid);
		json_string(j, "comm", tl->comm);
		json_string(j, "label", tl->label);
		if (tl->knob_points) {
			char points[WT_LABEL_LEN];

			json_string(j, "wait_point",
				    names_knob_points(tl->knob_points, points,
						      sizeof(points)));
		} else {
			json_null(j, "wait_point");
		}
		if (tl->sleep_ms >= 0)
			json_u64(j, "sleep_after_wait_ms",
				 (uint64_t)tl->sleep_ms);
		else
			json_null(j, "sleep_after_wait_ms");
		json_u64(j, "waits", tl->nr_waits);
		json_u64(j, "start_ns", tl->start_ns);
		json_bool(j, "done", tl->done);
		if (tl->done)
			json_i64(j, "ret", tl->ret);
		else
			json_null(j, "ret");
		json_bool(j, "removed", tl->removed);
		json_array(j, "steps");
		for (s = 0; s < tl->nr_steps; s++) {
			json_object(j, NULL);
			json_string(j, "step",
				    wt_step_key(tl->steps[s].kind));
			json_i64(j, "offset_ns",
				 (int64_t)(tl->steps[s].ts_ns -
					   tl->start_ns));
			json_u64(j, "tid", tl->steps[s].tid);
			json_end_object(j);
		}
		json_end_array(j);
		json_end_object(j);
	}
	json_end_array(j);
	json_u64(j, "write_timelines_dropped", wt_dropped(f->wt));
}

static void findings_text(FILE *out, void *ctx)
{
	struct so_findings *f = ctx;

	fprintf(out, "\n# Order edges: %u, cycles: %u\n",
		og_edge_count(f->og), og_cycle_count(f->og));
	cycles_print(f->og, findings_stack_fmt, f, out);
	if (f->have_deadlock) {
		fprintf(out, "\n# Observed deadlock\n");
		cycles_deadlock_print(&f->deadlock, findings_stack_fmt, f, out);
		fprintf(out, "  the kernel may stay wedged: the tool exits "
			"without detaching (a blocked task holds a traced "
			"function)\n");
	}
	findings_timelines_text(f, out);
}

/* Whether a class is in a DEADLOCK-PRONE or GATED cycle. */
static bool findings_in_finding(uint64_t class_id, void *ctx)
{
	struct so_findings *f = ctx;
	const struct og_cycle *c;
	uint32_t i, k;

	for (i = 0; i < og_cycle_count(f->og); i++) {
		c = og_cycle_at(f->og, i);
		if (c->verdict.kind == OG_VERDICT_NO_WAIT)
			continue;
		for (k = 0; k < c->nr; k++)
			if (c->classes[k] == class_id)
				return true;
	}
	return false;
}

static void findings_verdict(FILE *out, void *ctx)
{
	struct so_findings *f = ctx;
	uint32_t prone, gated, no_wait;

	findings_counts(f, &prone, &gated, &no_wait);
	fprintf(out, "\nverdict: %s: %u DEADLOCK-PRONE, %u GATED cycle%s%s\n",
		findings_exit_code(f) ? "FAIL" : "PASS", prone, gated,
		prone + gated == 1 ? "" : "s",
		f->have_deadlock ? "; DEADLOCK observed" : "");
}

static int findings_cycles_json(void *ctx, FILE *out)
{
	return cycles_json(ctx, out);
}

static int findings_deadlock_json(void *ctx, FILE *out)
{
	return cycles_deadlock_json(ctx, out);
}

static void findings_json(struct so_json *j, void *ctx)
{
	struct so_findings *f = ctx;
	uint32_t prone, gated, no_wait;

	findings_counts(f, &prone, &gated, &no_wait);
	json_u64(j, "edges", og_edge_count(f->og));
	json_u64(j, "deadlock_prone", prone);
	json_u64(j, "gated", gated);
	json_raw(j, "cycles", findings_cycles_json, f->og);
	if (f->have_deadlock)
		json_raw(j, "deadlock", findings_deadlock_json,
			 &f->deadlock);
	else
		json_null(j, "deadlock");
	findings_timelines_json(j, f);
	json_string(j, "verdict", findings_exit_code(f) ? "fail" :
								"pass");
}

void findings_report_hooks(struct so_findings *f)
{
	f->hooks.analysis_text = findings_text;
	f->hooks.verdict_text = findings_verdict;
	f->hooks.analysis_json = findings_json;
	f->hooks.in_finding = findings_in_finding;
	f->hooks.ctx = f;
}
