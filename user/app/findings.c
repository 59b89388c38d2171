// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * Findings: see findings.h.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/gates.h"
#include "report/cycles.h"
#include "app/findings.h"
#include "report/json.h"

/* "    sym+0x1a [module]" a frame, from the pipeline's stacks. */
static int findings_stack_fmt(void *ctx, int32_t stack_id, FILE *out)
{
	struct so_findings *f = ctx;
	const struct so_stack *st;
	char sym[160];
	uint32_t i;

	if (stack_id < 0 || !f->pipeline)
		return -ENOENT;
	st = so_pipeline_get_stack(f->pipeline, stack_id);
	if (!st)
		return -ENOENT;
	for (i = 0; i < st->depth; i++)
		fprintf(out, "        %s\n",
			f->ksyms ? ksyms_format(f->ksyms, st->addrs[i], sym,
						sizeof(sym)) : "?");
	return 0;
}

static void findings_live(struct so_findings *f, uint64_t ts_ns,
			  const char *verdict, const char *line)
{
	if (f->stream)
		so_stream_finding(f->stream, ts_ns, verdict, "%s", line);
	else if (f->live)
		fprintf(f->live, "%s %s\n", verdict, line);
}

static void findings_on_cycle(void *ctx, const struct og_graph *graph,
			      const struct og_cycle *cycle,
			      enum og_verdict_kind was)
{
	struct so_findings *f = ctx;
	char *line = NULL;
	size_t len = 0;
	FILE *mem;

	if (cycle->verdict.kind == OG_VERDICT_NO_WAIT)
		return;
	mem = open_memstream(&line, &len);
	if (!mem)
		return;
	so_cycle_line(graph, cycle, mem);
	fclose(mem);
	/* so_cycle_line leads with the verdict; keep the rest for the
	 * stream's own verdict column. */
	line[strcspn(line, "\n")] = 0;
	if (f->clock_ns && f->clock_ns() > cycle->found_ns) {
		char *timed = NULL;

		if (asprintf(&timed, "%s, %.1f ms after the edge",
			     strchr(line, ':') ? strchr(line, ':') + 2 : line,
			     (f->clock_ns() - cycle->found_ns) / 1e6) > 0) {
			findings_live(f, cycle->found_ns,
				      gate_verdict_name(cycle->verdict.kind),
				      timed);
			free(timed);
			free(line);
			return;
		}
	}
	findings_live(f, cycle->found_ns,
		      gate_verdict_name(cycle->verdict.kind),
		      strchr(line, ':') ? strchr(line, ':') + 2 : line);
	free(line);
	(void)was;
}

/* kernfs classes are "kn:<parent>/<attr>" in every report (design §3);
 * the probes send the bare path. */
static void findings_kn_name(char *name, uint64_t class_id)
{
	char bare[SO_NAME_LEN];

	if (SO_CLASS_KIND(class_id) != SO_CLASS_KN || !strncmp(name, "kn:", 3))
		return;
	memcpy(bare, name, SO_NAME_LEN);
	bare[SO_NAME_LEN - 1] = 0;
	snprintf(name, SO_NAME_LEN, "kn:%.*s", SO_NAME_LEN - 4, bare);
}

/* Feeds the event, then names its object as every report names it
 * (wf_feed names it too, with the bare name the probes send). */
static void findings_wf_feed(struct wf_graph *wf, const struct so_event *ev)
{
	char name[SO_NAME_LEN];

	wf_feed(wf, ev);
	/* An edge's name is its from class's, its class_id the to class's:
	 * the pair names nothing (it once made "kn:&test_dev->config_mutex"
	 * of a mutex). */
	if (ev->type != SO_EV_EDGE && ev->name[0] && ev->class_id) {
		memcpy(name, ev->name, SO_NAME_LEN);
		findings_kn_name(name, ev->class_id);
		wf_name_obj(wf, ev->obj, ev->class_id, name);
	}
}

static void findings_on_event(void *ctx, const struct so_event *ev,
			      const struct so_stack *stack)
{
	struct so_findings *f = ctx;

	/* Modules are named where their name is seen: a reference taken,
	 * a removal begun (the unfixed runs take no reference at all). */
	if ((ev->type == SO_EV_MOD_GET || ev->type == SO_EV_MOD_DELETE_BEGIN) &&
	    ev->name[0])
		og_name_module(f->og, ev->name);
	if (ev->type == SO_EV_MOD_DELETE_BEGIN && !f->going_ns)
		f->going_ns = ev->ts_ns;
	if (!f->wf_from_scans)
		findings_wf_feed(f->wf, ev);
	wt_feed(f->wt, ev);
	(void)stack;
}

int so_findings_scan_begin(struct so_findings *f)
{
	wf_free(f->scan);
	f->scan = wf_new(NULL);
	return f->scan ? 0 : -ENOMEM;
}

/* One held entry or wait of a task's state as the event that began it. */
static void findings_scan_event(struct so_findings *f, struct so_event *ev,
				uint32_t type, uint64_t obj, uint64_t class_id,
				uint64_t ts_ns, const char *name)
{
	ev->type = type;
	ev->obj = obj;
	ev->class_id = class_id;
	ev->ts_ns = ts_ns;
	ev->ret = type == SO_EV_KN_GET_ACTIVE;	/* got it */
	memcpy(ev->name, name, SO_NAME_LEN);
	ev->name[SO_NAME_LEN - 1] = 0;
	findings_wf_feed(f->scan, ev);
}

void so_findings_scan_task(struct so_findings *f, uint32_t tid,
			   const char *comm, const struct so_task_state *ts)
{
	struct so_event ev = { .tid = tid, .pid = tid, .stack_id = -1 };
	uint32_t i, kind, n = ts->nheld < SO_HELD_MAX ? ts->nheld :
							SO_HELD_MAX;

	if (!f->scan)
		return;
	snprintf(ev.comm, sizeof(ev.comm), "%s", comm ? comm : "");
	for (i = 0; i < n; i++) {
		const struct so_held_entry *h = &ts->held[i];

		kind = SO_CLASS_KIND(h->class_id);
		if (kind == SO_CLASS_KN && h->mode == SO_HOLD_READ)
			findings_scan_event(f, &ev, SO_EV_KN_GET_ACTIVE,
					    h->obj, h->class_id, h->ts,
					    h->name);
		else if (kind == SO_CLASS_MUTEX || kind == SO_CLASS_LOCK ||
			 kind == SO_CLASS_RTNL)
			findings_scan_event(f, &ev, SO_EV_LOCK_ACQUIRED,
					    h->obj, h->class_id, h->ts,
					    h->name);
	}
	ev.stack_id = ts->wait_stack;
	if (ts->wait_kind == SO_WAIT_LOCK)
		findings_scan_event(f, &ev, SO_EV_CONTENTION_BEGIN,
				    ts->wait_obj, ts->wait_class, ts->wait_ts,
				    ts->wait_name);
	else if (ts->wait_kind == SO_WAIT_DRAIN)
		findings_scan_event(f, &ev, SO_EV_KN_DRAIN_BEGIN,
				    ts->wait_obj, ts->wait_class, ts->wait_ts,
				    ts->wait_name);
}

void so_findings_scan_end(struct so_findings *f)
{
	if (!f->scan)
		return;
	wf_free(f->wf);
	f->wf = f->scan;
	f->scan = NULL;
}

static void findings_knob_label(void *ctx, char *label, size_t len)
{
	struct so_findings *f = ctx;

	if (f->knob_label)
		f->knob_label(f->knob_label_ctx, label, len);
	else
		snprintf(label, len, "kernfs knob (state unknown)");
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
	so_json_array(j, "write_timelines");
	for (i = 0; i < wt_count(f->wt); i++) {
		tl = wt_at(f->wt, i);
		so_json_object(j, NULL);
		snprintf(name, sizeof(name), "kn:%s", tl->name);
		so_json_string(j, "class", tl->name[0] ? name : "");
		so_json_u64(j, "tid", tl->tid);
		so_json_string(j, "comm", tl->comm);
		so_json_string(j, "label", tl->label);
		if (tl->knob_points) {
			char points[WT_LABEL_LEN];

			so_json_string(j, "wait_point",
				       so_knob_points(tl->knob_points, points,
						      sizeof(points)));
		} else {
			so_json_null(j, "wait_point");
		}
		if (tl->sleep_ms >= 0)
			so_json_u64(j, "sleep_after_wait_ms",
				    (uint64_t)tl->sleep_ms);
		else
			so_json_null(j, "sleep_after_wait_ms");
		so_json_u64(j, "waits", tl->nr_waits);
		so_json_u64(j, "start_ns", tl->start_ns);
		so_json_bool(j, "done", tl->done);
		if (tl->done)
			so_json_i64(j, "ret", tl->ret);
		else
			so_json_null(j, "ret");
		so_json_bool(j, "removed", tl->removed);
		so_json_array(j, "steps");
		for (s = 0; s < tl->nr_steps; s++) {
			so_json_object(j, NULL);
			so_json_string(j, "step",
				       wt_step_key(tl->steps[s].kind));
			so_json_i64(j, "offset_ns",
				    (int64_t)(tl->steps[s].ts_ns -
					      tl->start_ns));
			so_json_u64(j, "tid", tl->steps[s].tid);
			so_json_end_object(j);
		}
		so_json_end_array(j);
		so_json_end_object(j);
	}
	so_json_end_array(j);
	so_json_u64(j, "write_timelines_dropped", wt_dropped(f->wt));
}

static void findings_on_edge(void *ctx, const struct so_edge_event *edge,
			     const struct so_stack *stack)
{
	struct so_findings *f = ctx;
	struct so_edge_event named = *edge;

	findings_kn_name(named.ev.name, named.key.from_class);
	findings_kn_name(named.to_name, named.key.to_class);
	og_add_edge_event(f->og, &named);
	(void)stack;
}

static void findings_text(FILE *out, void *ctx)
{
	struct so_findings *f = ctx;

	fprintf(out, "\n# Order edges: %u, cycles: %u\n",
		og_edge_count(f->og), og_cycle_count(f->og));
	so_cycles_print(f->og, findings_stack_fmt, f, out);
	if (f->have_deadlock) {
		fprintf(out, "\n# Observed deadlock\n");
		so_deadlock_print(&f->deadlock, findings_stack_fmt, f, out);
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

	so_findings_counts(f, &prone, &gated, &no_wait);
	fprintf(out, "\nverdict: %s: %u DEADLOCK-PRONE, %u GATED cycle%s%s\n",
		so_findings_exit_code(f) ? "FAIL" : "PASS", prone, gated,
		prone + gated == 1 ? "" : "s",
		f->have_deadlock ? "; DEADLOCK observed" : "");
}

static int findings_cycles_json(void *ctx, FILE *out)
{
	return so_cycles_json(ctx, out);
}

static int findings_deadlock_json(void *ctx, FILE *out)
{
	return so_deadlock_json(ctx, out);
}

static void findings_json(struct so_json *j, void *ctx)
{
	struct so_findings *f = ctx;
	uint32_t prone, gated, no_wait;

	so_findings_counts(f, &prone, &gated, &no_wait);
	so_json_u64(j, "edges", og_edge_count(f->og));
	so_json_u64(j, "deadlock_prone", prone);
	so_json_u64(j, "gated", gated);
	so_json_raw(j, "cycles", findings_cycles_json, f->og);
	if (f->have_deadlock)
		so_json_raw(j, "deadlock", findings_deadlock_json,
			    &f->deadlock);
	else
		so_json_null(j, "deadlock");
	findings_timelines_json(j, f);
	so_json_string(j, "verdict", so_findings_exit_code(f) ? "fail" :
								"pass");
}

/* Locks the edges left unnamed: by symbol (module symbols come late),
 * by the code that took them, or a handle; never the address. */
static bool findings_namer(void *ctx, uint64_t class_id, char *buf,
			   uint32_t len)
{
	struct so_findings *f = ctx;

	if (!f->pipeline || !f->pipeline->names)
		return false;
	so_names_class(f->pipeline->names, class_id, buf, len);
	return true;
}

int so_findings_init(struct so_findings *f, struct so_pipeline *p,
		     struct ksyms *ks, uint64_t hang_timeout_ns)
{
	memset(f, 0, sizeof(*f));
	f->og = og_new(NULL);
	f->wf = wf_new(NULL);
	f->wt = wt_new();
	if (!f->og || !f->wf || !f->wt) {
		so_findings_fini(f);
		return -ENOMEM;
	}
	og_set_judge(f->og, gate_judge);
	f->pipeline = p;
	f->ksyms = ks;
	f->hang_timeout_ns = hang_timeout_ns;
	og_set_cycle_cb(f->og, findings_on_cycle, f);
	og_set_namer(f->og, findings_namer, f);
	wt_set_knob_fn(f->wt, findings_knob_label, f);
	f->hooks.analysis_text = findings_text;
	f->hooks.verdict_text = findings_verdict;
	f->hooks.analysis_json = findings_json;
	f->hooks.in_finding = findings_in_finding;
	f->hooks.ctx = f;
	return 0;
}

void so_findings_fini(struct so_findings *f)
{
	og_free(f->og);
	wf_free(f->wf);
	wf_free(f->scan);
	wt_free(f->wt);
	f->og = NULL;
	f->wf = NULL;
	f->scan = NULL;
	f->wt = NULL;
}

void so_findings_attach(struct so_findings *f, struct so_pipeline *p)
{
	p->on_event = findings_on_event;
	p->on_edge = findings_on_edge;
	p->analysis_ctx = f;
}

bool so_findings_check(struct so_findings *f, uint64_t now_ns)
{
	char *line = NULL;
	size_t len = 0;
	FILE *mem;

	if (f->have_deadlock)
		return true;
	if (wf_check(f->wf, now_ns, f->hang_timeout_ns, &f->deadlock) ==
	    WF_FOUND_NONE)
		return false;
	f->have_deadlock = true;
	mem = open_memstream(&line, &len);
	if (mem) {
		char *rest;

		so_deadlock_line(&f->deadlock, mem);
		fclose(mem);
		line[strcspn(line, "\n")] = 0;
		/* The line leads with its kind ("DEADLOCK: ", "HANG: "):
		 * the live stream puts the kind in its own column. */
		rest = strstr(line, ": ");
		if (rest) {
			*rest = 0;
			findings_live(f, now_ns, line, rest + 2);
		} else {
			findings_live(f, now_ns, "DEADLOCK", line);
		}
		free(line);
	}
	return true;
}

void so_findings_counts(const struct so_findings *f, uint32_t *prone,
			uint32_t *gated, uint32_t *no_wait)
{
	uint32_t i;

	*prone = *gated = *no_wait = 0;
	for (i = 0; i < og_cycle_count(f->og); i++) {
		switch (og_cycle_at(f->og, i)->verdict.kind) {
		case OG_VERDICT_PRONE:
			(*prone)++;
			break;
		case OG_VERDICT_GATED:
			(*gated)++;
			break;
		default:
			(*no_wait)++;
		}
	}
}

uint32_t so_findings_lockdep(const struct so_findings *f,
			     const struct ldr_report *reports, size_t nr,
			     FILE *out)
{
	uint32_t missed = 0;
	size_t i;

	for (i = 0; i < nr; i++) {
		const struct ldr_report *r = &reports[i];
		const struct og_cycle *c = ldr_our_cycle(f->og, r);
		char why[512];

		fprintf(out, "# lockdep: %s took %s while holding %s: ",
			r->task, r->acquiring, r->holding);
		if (!c) {
			missed++;
			fprintf(out, "MISSED here: no cycle of ours has both "
				"locks\n");
			continue;
		}
		switch (c->verdict.kind) {
		case OG_VERDICT_PRONE:
			fprintf(out, "the same cycle here: ");
			so_cycle_line(f->og, c, out);
			break;
		case OG_VERDICT_GATED:
			gate_reason(f->og, c, why, sizeof(why));
			fprintf(out, "GATED here, lockdep's false alarm (it "
				"does not see module references): %s\n", why);
			break;
		default:
			fprintf(out, "NO-WAIT here, lockdep's false alarm: "
				"nobody can wait in it\n");
		}
	}
	return missed;
}

int so_findings_exit_code(const struct so_findings *f)
{
	uint32_t prone, gated, no_wait;

	so_findings_counts(f, &prone, &gated, &no_wait);
	return prone || f->have_deadlock ? 1 : 0;
}
