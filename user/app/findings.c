// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * Findings: see findings.h.  What this file decides, findings_report.c
 * prints in the summary.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/gates.h"
#include "lib/exit_codes.h"
#include "report/cycles.h"
#include "app/findings_report.h"

static void findings_live(struct so_findings *f, uint64_t ts_ns,
			  const char *verdict, const char *line)
{
	if (f->stream)
		stream_finding(f->stream, ts_ns, verdict, "%s", line);
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
	cycles_line(graph, cycle, mem);
	fclose(mem);
	/* cycles_line leads with the verdict; keep the rest for the
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

/* kernfs classes are "kn:<parent>/<attr>" in every report
 * (docs/design.md §3); the probes send the bare path. */
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

int findings_scan_begin(struct so_findings *f)
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

void findings_scan_task(struct so_findings *f, uint32_t tid,
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

void findings_scan_end(struct so_findings *f)
{
	if (!f->scan)
		return;
	wf_free(f->wf);
	f->wf = f->scan;
	f->scan = NULL;
	f->scans++;
}

/* Scan mode: true when an earlier scan showed the same finding (see
 * so_findings.candidate); else it becomes the candidate. */
static bool findings_seen_twice(struct so_findings *f,
				const struct wf_finding *found)
{
	if (f->have_candidate && wf_finding_same(&f->candidate, found))
		return f->candidate_scan != f->scans;
	f->candidate = *found;
	f->candidate_scan = f->scans;
	f->have_candidate = true;
	return false;
}

static void findings_knob_label(void *ctx, char *label, size_t len)
{
	struct so_findings *f = ctx;

	if (f->knob_label)
		f->knob_label(f->knob_label_ctx, label, len);
	else
		snprintf(label, len, "kernfs knob (state unknown)");
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

/* Locks the edges left unnamed: by symbol (module symbols come late),
 * by the code that took them, or a handle; never the address. */
static bool findings_namer(void *ctx, uint64_t class_id, char *buf,
			   uint32_t len)
{
	struct so_findings *f = ctx;

	if (!f->pipeline || !f->pipeline->names)
		return false;
	names_class(f->pipeline->names, class_id, buf, len);
	return true;
}

int findings_init(struct so_findings *f, struct so_pipeline *p,
		  struct ksyms *ks, uint64_t hang_timeout_ns,
		  uint32_t table_entries)
{
	struct og_limits limits;

	memset(f, 0, sizeof(*f));
	og_limits_for_tables(&limits, table_entries);
	f->og = og_new(&limits);
	f->wf = wf_new(NULL);
	f->wt = wt_new();
	if (!f->og || !f->wf || !f->wt) {
		findings_fini(f);
		return -ENOMEM;
	}
	og_set_judge(f->og, gate_judge);
	f->pipeline = p;
	f->ksyms = ks;
	f->hang_timeout_ns = hang_timeout_ns;
	og_set_cycle_cb(f->og, findings_on_cycle, f);
	og_set_namer(f->og, findings_namer, f);
	wt_set_knob_fn(f->wt, findings_knob_label, f);
	findings_report_hooks(f);
	return 0;
}

void findings_fini(struct so_findings *f)
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

void findings_attach(struct so_findings *f, struct so_pipeline *p)
{
	p->on_event = findings_on_event;
	p->on_edge = findings_on_edge;
	p->analysis_ctx = f;
}

/*
 * Live, a task whose wait came without a stack (only a recording takes
 * one at every mutex wait) is given its stack as it is now, read while
 * the deadlock holds it there; a replayed trace has only the stacks it
 * recorded.
 */
static void findings_stacks_now(struct so_findings *f,
				struct wf_finding *found)
{
	uint32_t i;

	if (!f->pipeline || !f->pipeline->fetch_stack)
		return;
	for (i = 0; i < found->nr_tasks; i++) {
		struct wf_task_report *task = &found->tasks[i];

		if (task->stack_id >= 0 || !task->tid)
			continue;
		task->stack_id = stacks_task_id(task->tid);
		if (!pipeline_get_stack(f->pipeline, task->stack_id))
			task->stack_id = -1;	/* gone, or no iterator */
	}
}

bool findings_check(struct so_findings *f, uint64_t now_ns)
{
	struct wf_finding found;
	char *line = NULL;
	size_t len = 0;
	FILE *mem;

	if (f->have_deadlock)
		return true;
	if (wf_check(f->wf, now_ns, f->hang_timeout_ns, &found) ==
	    WF_FOUND_NONE) {
		f->have_candidate = false;
		return false;
	}
	if (f->wf_from_scans && !findings_seen_twice(f, &found))
		return false;
	f->deadlock = found;
	f->have_deadlock = true;
	mem = open_memstream(&line, &len);
	if (mem) {
		char *rest;

		cycles_deadlock_line(&f->deadlock, mem);
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
	/* After the line: reading the stacks is no part of how soon the
	 * deadlock is told. */
	findings_stacks_now(f, &f->deadlock);
	return true;
}

void findings_counts(const struct so_findings *f, uint32_t *prone,
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

uint32_t findings_lockdep(const struct so_findings *f,
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
			cycles_line(f->og, c, out);
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

int findings_exit_code(const struct so_findings *f)
{
	uint32_t prone, gated, no_wait;

	findings_counts(f, &prone, &gated, &no_wait);
	return prone || f->have_deadlock ? SO_EXIT_FAIL : SO_EXIT_PASS;
}
