/* SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1 */
/*
 * Between findings.c, which finds, and findings_report.c, which says what
 * was found in the summary: the one call that plugs the latter's hooks
 * into the former.  Private to app/.
 */
#ifndef SO_FINDINGS_REPORT_H
#define SO_FINDINGS_REPORT_H

#include "app/findings.h"

/* Fills f->hooks: the findings' part of the text and JSON summary. */
void findings_report_hooks(struct so_findings *f);

#endif /* SO_FINDINGS_REPORT_H */
