// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * The picture (--svg): for each cycle, its halves as observed and the
 * interleaving that would deadlock; for a deadlock, its tasks' holds and
 * waits until now.  The SVG primitives are in picture_svg.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/gates.h"
#include "report/cycles.h"
#include "report/picture_svg.h"


/* --- a cycle ---------------------------------------------------------- */

struct pic_lanes {
	uint32_t nr;
	uint32_t tid[OG_CYCLE_LEN_MAX];
	const char *comm[OG_CYCLE_LEN_MAX];
};

static uint32_t pic_lane_of(struct pic_lanes *l, uint32_t tid,
			    const char *comm)
{
	uint32_t i;

	for (i = 0; i < l->nr; i++)
		if (l->tid[i] == tid)
			return i;
	l->tid[l->nr] = tid;
	l->comm[l->nr] = comm;
	return l->nr++;
}

/* The module band: LIVE, then GOING from going_ns (0: not seen). */
static int pic_module_band(FILE *out, const struct og_graph *graph,
			   uint64_t module, uint64_t going_ns,
			   const struct pic_axis *a, int y)
{
	char name[PIC_NAME_LEN], text[32];
	int xg = going_ns ? pic_x(a, going_ns) : PIC_X1;

	pic_label(out, PIC_LABEL_X, y + 14, " class=\"lane\"",
		  og_class_name(graph, module, name, sizeof(name)));
	fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"20\" "
		"fill=\"%s\"/>\n", PIC_X0, y, xg - PIC_X0, PIC_LIVE);
	pic_label(out, PIC_X0 + 4, y + 14, " class=\"state\"", "LIVE");
	if (going_ns) {
		fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" "
			"height=\"20\" fill=\"%s\"/>\n", xg, y, PIC_X1 - xg,
			PIC_GOING);
		snprintf(text, sizeof(text), "GOING (removal began)");
		pic_label(out, xg + 4, y + 14, " class=\"state\"", text);
	}
	return 28;
}

/* Each half where it happened: the task's lane holds the edge's from
 * class when it wants its to class. */
static int pic_cycle_observed(FILE *out, const struct og_graph *graph,
			      const struct og_cycle *c, uint64_t going_ns,
			      uint64_t origin, int y)
{
	char from[PIC_NAME_LEN], to[PIC_NAME_LEN], text[2 * PIC_NAME_LEN];
	const struct og_variant *v;
	struct pic_lanes lanes = { 0 };
	uint64_t lo = UINT64_MAX, hi = 0, module = 0, closing = 0;
	struct pic_axis a;
	uint32_t i, lane;
	int x, top;

	/* A lane per task, and a cycle's edges have at most this many
	 * tasks: more would overrun lanes, so say so and draw nothing. */
	if (c->nr > OG_CYCLE_LEN_MAX) {
		snprintf(text, sizeof(text),
			 "a cycle of %u classes: more than the %d lanes a "
			 "picture has (OG_CYCLE_LEN_MAX)", c->nr,
			 OG_CYCLE_LEN_MAX);
		pic_label(out, PIC_LABEL_X, y + 14, " class=\"sub\"", text);
		return y + 22;
	}
	for (i = 0; i < c->nr; i++) {
		v = og_cycle_variant(graph, c, i);
		if (!v)
			return y;
		lo = v->first_ns < lo ? v->first_ns : lo;
		hi = v->first_ns > hi ? v->first_ns : hi;
		if (v->going)
			module = v->going;
		for (uint32_t g = 0; g < SO_GATES_MAX && !module; g++)
			module = v->gates[g];
		pic_lane_of(&lanes, v->first_tid, v->comm);
	}
	if (going_ns && going_ns < lo)
		lo = going_ns;
	a = pic_axis_of(lo, hi);
	pic_label(out, PIC_LABEL_X, y + 14, " class=\"sub\"",
		  "as observed (each half where it first happened):");
	y += 22;
	if (module)
		y += pic_module_band(out, graph, module, going_ns, &a, y);
	top = y;
	for (i = 0; i < lanes.nr; i++)
		pic_lane_label(out, top + (int)i * PIC_LANE_H, lanes.comm[i],
			       lanes.tid[i]);
	for (i = 0; i < c->nr; i++) {
		v = og_cycle_variant(graph, c, i);
		lane = pic_lane_of(&lanes, v->first_tid, v->comm);
		x = pic_x(&a, v->first_ns);
		snprintf(text, sizeof(text), "holds %s%s%s",
			 og_class_name(graph, c->classes[i], from,
				       sizeof(from)),
			 v->gates[0] ? " + a reference on " : "",
			 v->gates[0] ? og_class_name(graph, v->gates[0], to,
						     sizeof(to)) : "");
		pic_bar(out, x - 150 > PIC_X0 ? x - 150 : PIC_X0, x + 170,
			top + (int)lane * PIC_LANE_H + 4, false, text);
		snprintf(text, sizeof(text), "wants %s",
			 og_class_name(graph, c->classes[(i + 1) % c->nr], to,
				       sizeof(to)));
		pic_bar(out, x, x + 170, top + (int)lane * PIC_LANE_H + 22,
			true, text);
		if (v->first_ns >= closing)
			closing = v->first_ns;
	}
	y = top + (int)lanes.nr * PIC_LANE_H;
	x = pic_x(&a, closing);
	fprintf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
		"stroke=\"%s\" stroke-width=\"2\" stroke-dasharray=\"6 3\"/>"
		"\n", x, top - 4, x, y + 2, PIC_RED);
	pic_label(out, x + 4, top - 6, " class=\"mark\"",
		  "the closing edge");
	pic_axis_ticks(out, &a, origin, y + 6);
	return y + 32;
}

/* The interleaving that would deadlock: CPU i holds class i, then each
 * wants the next, as lockdep's scenario says. */
static int pic_cycle_interleaving(FILE *out, const struct og_graph *graph,
				  const struct og_cycle *c, int y)
{
	char name[PIC_NAME_LEN], text[2 * PIC_NAME_LEN], cpu[16];
	int step = (PIC_X1 - PIC_X0) / (int)(2 * c->nr + 1);
	const struct og_variant *v;
	uint32_t i;

	pic_label(out, PIC_LABEL_X, y + 14, " class=\"sub\"",
		  "the interleaving that would deadlock:");
	y += 22;
	for (i = 0; i < c->nr; i++) {
		int lane = y + (int)i * PIC_LANE_H;

		v = og_cycle_variant(graph, c, i);
		snprintf(cpu, sizeof(cpu), "CPU%u", i);
		pic_label(out, PIC_LABEL_X, lane + PIC_LANE_H / 2 + 4,
			  " class=\"lane\"", cpu);
		snprintf(text, sizeof(text), "holds %s%s",
			 og_class_name(graph, c->classes[i], name,
				       sizeof(name)),
			 v && v->going ? " (module GOING)" :
			 v && v->gates[0] ? " + a module reference" : "");
		pic_bar(out, PIC_X0 + (int)i * step, PIC_X1, lane + 4, false,
			text);
		snprintf(text, sizeof(text), "waits for %s",
			 og_class_name(graph, c->classes[(i + 1) % c->nr],
				       name, sizeof(name)));
		pic_bar(out, PIC_X0 + (int)(c->nr + i) * step, PIC_X1,
			lane + 22, true, text);
	}
	return y + (int)c->nr * PIC_LANE_H + 12;
}

static int pic_cycle(FILE *out, const struct og_graph *graph,
		     const struct og_cycle *c, uint64_t going_ns,
		     uint64_t origin, int y)
{
	char *line = NULL, reason[PIC_REASON_LEN];
	size_t len = 0;
	FILE *mem = open_memstream(&line, &len);

	if (!mem)
		return y;
	cycles_line(graph, c, mem);
	fclose(mem);
	line[strcspn(line, "\n")] = 0;
	pic_title(out, y, c->verdict.kind == OG_VERDICT_GATED ? PIC_GREEN :
								PIC_RED, line);
	free(line);
	y += PIC_TITLE_H;
	y = pic_cycle_observed(out, graph, c, going_ns, origin, y);
	y = pic_cycle_interleaving(out, graph, c, y);
	gate_reason(graph, c, reason, sizeof(reason));
	y += (int)pic_caption(out, y + 12, reason) * PIC_LINE_H + 16;
	return y;
}

/* --- an observed deadlock --------------------------------------------- */

static int pic_deadlock(FILE *out, const struct wf_finding *d,
			uint64_t origin, int y)
{
	char *line = NULL, text[PIC_NAME_LEN + 32];
	uint64_t lo = d->now_ns;
	size_t len = 0;
	struct pic_axis a;
	uint32_t i, h;
	FILE *mem = open_memstream(&line, &len);

	if (!mem)
		return y;
	cycles_deadlock_line(d, mem);
	fclose(mem);
	line[strcspn(line, "\n")] = 0;
	pic_title(out, y, PIC_RED, line);
	free(line);
	y += PIC_TITLE_H;
	for (i = 0; i < d->nr_tasks; i++) {
		const struct wf_task_report *t = &d->tasks[i];

		if (t->waits.kind && t->waits.since_ns < lo)
			lo = t->waits.since_ns;
		for (h = 0; h < t->nr_holds; h++)
			if (t->holds[h].since_ns < lo)
				lo = t->holds[h].since_ns;
	}
	a = pic_axis_of(lo, d->now_ns);
	a.t1 = d->now_ns;	/* the waits last until now, and on */
	for (i = 0; i < d->nr_tasks; i++) {
		const struct wf_task_report *t = &d->tasks[i];
		int lane = y + (int)i * PIC_LANE_H;

		pic_lane_label(out, lane, t->comm, t->tid);
		for (h = 0; h < t->nr_holds; h++) {
			snprintf(text, sizeof(text), "holds %s",
				 t->holds[h].name);
			pic_bar(out, pic_x(&a, t->holds[h].since_ns), PIC_X1,
				lane + 4, false, text);
		}
		if (t->waits.kind) {
			snprintf(text, sizeof(text), "%s %s",
				 t->waits.kind == WF_RES_ACTIVE ?
					 "drains" : "waits for",
				 t->waits.name);
			pic_bar(out, pic_x(&a, t->waits.since_ns), PIC_X1,
				lane + 22, true, text);
		}
	}
	y += (int)d->nr_tasks * PIC_LANE_H;
	pic_axis_ticks(out, &a, origin, y + 6);
	y += 32;
	y += (int)pic_caption(out, y + 12, d->kind == WF_FOUND_CYCLE ?
		"These tasks wait in the kernel for each other; the waits "
		"go on past the right edge, until reboot." :
		"A task blocked past the hang timeout, and whom it waits "
		"for.") * PIC_LINE_H + 16;
	return y;
}

/* --- the document ------------------------------------------------------ */

int pic_begin(struct so_picture *p)
{
	memset(p, 0, sizeof(*p));
	p->body = open_memstream(&p->buf, &p->len);
	p->height = 12;
	return p->body ? 0 : -ENOMEM;
}

void pic_session(struct so_picture *p, const struct og_graph *og,
		 uint64_t going_ns, const struct wf_finding *deadlock,
		 const char *test)
{
	const struct og_cycle *c;
	uint64_t origin = UINT64_MAX;
	int y = (int)p->height;
	char head[96];
	uint32_t i, nr = 0;

	for (i = 0; i < og_cycle_count(og); i++) {
		c = og_cycle_at(og, i);
		if (c->verdict.kind != OG_VERDICT_NO_WAIT &&
		    c->found_ns < origin)
			origin = c->found_ns;
	}
	if (going_ns && going_ns < origin)
		origin = going_ns;
	if (origin == UINT64_MAX)
		origin = 0;
	snprintf(head, sizeof(head), "sysfs-observe: %s%s",
		 test && test[0] ? "test " : "(attach)",
		 test && test[0] ? test : "");
	pic_label(p->body, PIC_LABEL_X, y + 18, " class=\"head\"", head);
	y += 30;
	for (i = 0; i < og_cycle_count(og); i++) {
		c = og_cycle_at(og, i);
		if (c->verdict.kind == OG_VERDICT_NO_WAIT)
			continue;
		y = pic_cycle(p->body, og, c, going_ns, origin, y);
		nr++;
	}
	if (deadlock) {
		y = pic_deadlock(p->body, deadlock, origin, y);
		nr++;
	}
	if (!nr) {
		pic_label(p->body, PIC_LABEL_X, y + 16, " class=\"sub\"",
			  "no cycle and no deadlock: nothing to draw");
		y += 28;
	}
	p->panels += nr;
	p->height = (unsigned int)y + 12;
}

int pic_end(struct so_picture *p, FILE *out)
{
	int rc = 0;

	if (fclose(p->body))
		rc = -EIO;
	p->body = NULL;
	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		"height=\"%u\" viewBox=\"0 0 %d %u\" "
		"font-family=\"DejaVu Sans Mono, monospace\" font-size=\"12\">"
		"\n<defs>\n<pattern id=\"hatch\" width=\"6\" height=\"6\" "
		"patternUnits=\"userSpaceOnUse\" "
		"patternTransform=\"rotate(45)\">\n"
		"<rect width=\"6\" height=\"6\" fill=\"#fff3e0\"/>\n"
		"<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"%s\" "
		"stroke-width=\"3\"/>\n</pattern>\n<style>\n"
		".head{font-size:16px;font-weight:bold}\n"
		".title{font-size:14px;font-weight:bold}\n"
		".sub{fill:#555}\n.hold{fill:#000}\n.wait{fill:#000}\n"
		".tick{fill:#666;font-size:10px}\n.mark{fill:%s}\n"
		"</style>\n</defs>\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n",
		SO_PICTURE_WIDTH, p->height, SO_PICTURE_WIDTH, p->height,
		PIC_WAIT, PIC_RED);
	if (p->buf)
		fwrite(p->buf, 1, p->len, out);
	fputs("</svg>\n", out);
	free(p->buf);
	p->buf = NULL;
	if (fflush(out) || ferror(out))
		rc = -EIO;
	return rc;
}

void pic_free(struct so_picture *p)
{
	if (p->body)
		fclose(p->body);
	p->body = NULL;
	free(p->buf);
	p->buf = NULL;
}
