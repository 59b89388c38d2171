// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * The SVG primitives: see picture_svg.h.
 */
#include <string.h>
#include "report/picture_svg.h"

/* The first n bytes of s for XML: the five specials escaped, control
 * bytes dropped. */
void pic_textn(FILE *out, const char *s, size_t n)
{
	for (; n && *s; s++, n--) {
		switch (*s) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&apos;", out); break;
		default:
			if ((unsigned char)*s >= 0x20 && *s != 0x7f)
				fputc(*s, out);
		}
	}
}

void pic_text(FILE *out, const char *s)
{
	pic_textn(out, s, strlen(s));
}

void pic_label(FILE *out, int x, int y, const char *extra,
	       const char *text)
{
	fprintf(out, "<text x=\"%d\" y=\"%d\"%s>", x, y, extra);
	pic_text(out, text);
	fputs("</text>\n", out);
}

/* A hold (solid) or a wait (hatched) from x0 to x1 in a lane's row. */
void pic_bar(FILE *out, int x0, int x1, int y, bool wait,
	     const char *text)
{
	if (x1 > PIC_X1)
		x1 = PIC_X1;
	if (x0 > PIC_X1 - 4)
		x0 = PIC_X1 - 4;
	if (x1 < x0 + 4)
		x1 = x0 + 4;
	fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
		"fill=\"%s\" stroke=\"%s\"/>\n", x0, y, x1 - x0, PIC_BAR_H,
		wait ? "url(#hatch)" : PIC_HOLD, wait ? PIC_WAIT : PIC_HOLD);
	pic_label(out, x0 + 4, y + PIC_BAR_H - 4,
		  wait ? " class=\"wait\"" : " class=\"hold\"", text);
}

/* Wraps `text` at PIC_CAPTION_COLS; returns the lines written. */
unsigned int pic_caption(FILE *out, int y, const char *text)
{
	unsigned int lines = 0;
	const char *p = text;
	size_t n, cut;

	while (*p) {
		n = strlen(p);
		cut = n;
		if (n > PIC_CAPTION_COLS) {
			cut = PIC_CAPTION_COLS;
			while (cut > 0 && p[cut] != ' ')
				cut--;
			if (!cut)
				cut = PIC_CAPTION_COLS;
		}
		fprintf(out, "<text x=\"%d\" y=\"%u\" class=\"caption\">",
			PIC_LABEL_X, y + lines * PIC_LINE_H);
		pic_textn(out, p, cut);
		fputs("</text>\n", out);
		lines++;
		p += cut;
		while (*p == ' ')
			p++;
	}
	return lines;
}


int pic_x(const struct pic_axis *a, uint64_t t)
{
	double f;

	if (t <= a->t0)
		return PIC_X0;
	if (t >= a->t1)
		return PIC_X1;
	f = (double)(t - a->t0) / (double)(a->t1 - a->t0);
	return PIC_X0 + (int)(f * (PIC_X1 - PIC_X0));
}

/* Pads [lo, hi] by a fifth on each side (1 ms when it is a point). */
struct pic_axis pic_axis_of(uint64_t lo, uint64_t hi)
{
	uint64_t pad = (hi - lo) / 5;
	struct pic_axis a;

	if (pad < 1000000)
		pad = 1000000;
	a.t0 = lo > pad ? lo - pad : 0;
	a.t1 = hi + pad;
	return a;
}

void pic_axis_ticks(FILE *out, const struct pic_axis *a,
		    uint64_t origin, int y)
{
	char buf[48];
	int i;

	fprintf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
		"stroke=\"#888\"/>\n", PIC_X0, y, PIC_X1, y);
	for (i = 0; i <= 4; i++) {
		uint64_t t = a->t0 + (a->t1 - a->t0) / 4 * (uint64_t)i;
		int x = pic_x(a, t);

		/* Seconds from the session's first finding: before it,
		 * negative. */
		snprintf(buf, sizeof(buf), "%.6f s",
			 t >= origin ? (double)(t - origin) / 1e9 :
				       -(double)(origin - t) / 1e9);
		fprintf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
			"stroke=\"#888\"/>\n", x, y, x, y + 5);
		pic_label(out, x - 30, y + 18, " class=\"tick\"", buf);
	}
}

void pic_lane_label(FILE *out, int y, const char *comm, uint32_t tid)
{
	char who[SO_COMM_LEN + 16];

	snprintf(who, sizeof(who), "%s/%u", comm, tid);
	pic_label(out, PIC_LABEL_X, y + PIC_LANE_H / 2 + 4,
		  " class=\"lane\"", who);
	fprintf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
		"stroke=\"#ddd\"/>\n", PIC_LABEL_X, y + PIC_LANE_H,
		PIC_X1, y + PIC_LANE_H);
}

void pic_title(FILE *out, int y, const char *colour, const char *text)
{
	char extra[64];

	snprintf(extra, sizeof(extra), " class=\"title\" fill=\"%s\"", colour);
	pic_label(out, PIC_LABEL_X, y + 22, extra, text);
}
