/* SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1 */
/*
 * The SVG primitives of the picture (picture.c): escaped text, labels,
 * hold and wait bars, captions, the time axis, lanes.  Apart from the
 * scenes so that each scene reads as what it draws, not how SVG spells
 * it.  Private to report/.
 */
#ifndef SO_REPORT_PICTURE_SVG_H
#define SO_REPORT_PICTURE_SVG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "report/picture.h"

/* The layout, in px. */
#define PIC_LABEL_X	16		/* lane labels */
#define PIC_X0		220		/* the time axis */
#define PIC_X1		(SO_PICTURE_WIDTH - 40)
#define PIC_LANE_H	44		/* a lane: a hold row and a wait row */
#define PIC_BAR_H	16
#define PIC_TITLE_H	34
#define PIC_LINE_H	18		/* caption lines */
#define PIC_CAPTION_COLS 150		/* characters per caption line */
#define PIC_NAME_LEN	(SO_NAME_LEN + 24)
#define PIC_REASON_LEN	512

#define PIC_RED		"#c62828"
#define PIC_GREEN	"#2e7d32"
#define PIC_HOLD	"#90caf9"
#define PIC_WAIT	"#ef6c00"
#define PIC_GOING	"#ffe0b2"
#define PIC_LIVE	"#e8f5e9"

/* A time axis: t0..t1 (events' clock) onto PIC_X0..PIC_X1. */
struct pic_axis {
	uint64_t t0, t1;
};

/* The first n bytes of s for XML: the five specials escaped, control
 * bytes dropped. */
void pic_textn(FILE *out, const char *s, size_t n);
void pic_text(FILE *out, const char *s);
void pic_label(FILE *out, int x, int y, const char *extra,
	       const char *text);
/* A hold (solid) or a wait (hatched) from x0 to x1 in a lane's row. */
void pic_bar(FILE *out, int x0, int x1, int y, bool wait,
	     const char *text);
/* Wraps `text` at PIC_CAPTION_COLS; returns the lines written. */
unsigned int pic_caption(FILE *out, int y, const char *text);
int pic_x(const struct pic_axis *a, uint64_t t);
/* Pads [lo, hi] by a fifth on each side (1 ms when it is a point). */
struct pic_axis pic_axis_of(uint64_t lo, uint64_t hi);
void pic_axis_ticks(FILE *out, const struct pic_axis *a,
		    uint64_t origin, int y);
void pic_lane_label(FILE *out, int y, const char *comm, uint32_t tid);
void pic_title(FILE *out, int y, const char *colour, const char *text);

#endif /* SO_REPORT_PICTURE_SVG_H */
