/* SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1 */
/*
 * The picture of the interleaving (--svg FILE, report --svg FILE): plain
 * SVG, no script, no external resource, 1280 px wide.  One panel per
 * DEADLOCK-PRONE or GATED cycle and one for an observed deadlock; each
 * has one lane per task on a shared time axis, holds as bars, waits
 * (contention, drain) as hatched bars, the module's state (LIVE, GOING)
 * as a band, the closing edge marked, and the verdict and the gate's
 * reason as a caption.  A cycle's halves are drawn where they happened
 * and, beneath, the interleaving that would deadlock, the way lockdep's
 * scenario text shows it.
 */
#ifndef SO_REPORT_PICTURE_H
#define SO_REPORT_PICTURE_H

#include <stddef.h>
#include <stdio.h>
#include "analysis/order_graph.h"
#include "analysis/waitfor.h"

#define SO_PICTURE_WIDTH	1280

struct so_picture {
	FILE *body;		/* the panels, until pic_end */
	char *buf;
	size_t len;
	unsigned int height;	/* where the next panel goes */
	unsigned int panels;
};

/* 0, or -ENOMEM. */
int pic_begin(struct so_picture *p);
/* The panels of one session's findings, headed "test 0028", or
 * "(attach)" when `test` is NULL or empty: the cycles of og, the module
 * removal's start (going_ns, 0 none), the deadlock seen (NULL none). */
void pic_session(struct so_picture *p, const struct og_graph *og,
		 uint64_t going_ns, const struct wf_finding *deadlock,
		 const char *test);
/* Writes the document to out and frees p: 0, or -EIO. */
int pic_end(struct so_picture *p, FILE *out);
/* Frees p, writing nothing. */
void pic_free(struct so_picture *p);

#endif /* SO_REPORT_PICTURE_H */
