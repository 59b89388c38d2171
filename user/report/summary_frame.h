/* SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1 */
/*
 * The text summary's frame, shared between summary.c (the tables) and
 * summary_frame.c (what comes before and after them).  Private to
 * report/.
 */
#ifndef SO_REPORT_SUMMARY_FRAME_H
#define SO_REPORT_SUMMARY_FRAME_H

#include <stdio.h>
#include "report/summary.h"

/* The `#` lines: tool, kernel, test, filters, probes, knobs, duration. */
void summary_header(FILE *out, const struct so_report *r);
/* `# losses`, and the warning when events were lost. */
void summary_losses(FILE *out, const struct so_report *r);

#endif /* SO_REPORT_SUMMARY_FRAME_H */
