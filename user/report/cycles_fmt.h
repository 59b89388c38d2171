/* SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1 */
/*
 * The helpers that the cycle text (cycles.c), the deadlock text
 * (deadlock.c) and their JSON (cycles_json.c) share, so that a name, a
 * time or a mode reads the same in every rendering.  Private to report/.
 */
#ifndef SO_REPORT_CYCLES_FMT_H
#define SO_REPORT_CYCLES_FMT_H

#include <stdint.h>
#include <stdio.h>
#include "report/cycles.h"

#define CYCLES_NAME_BUF		(SO_NAME_LEN + 24)
#define CYCLES_REASON_BUF	512

/* cycles.c */
/* "12.345678" seconds. */
void cycles_time(FILE *out, uint64_t ns);
/* A class's name into buf[CYCLES_NAME_BUF]. */
const char *cycles_name(const struct og_graph *graph, uint64_t id, char *buf);
/* "test_sysfs" for "mod:test_sysfs". */
const char *cycles_module(const struct og_graph *graph, uint64_t id,
			  char *buf);
const char *cycles_mode_name(uint32_t mode);
void cycles_stack(int32_t stack_id, so_stack_fmt stack_fmt, void *stack_ctx,
		  FILE *out);

/* deadlock.c */
const char *cycles_wait_name(uint32_t kind);
const char *cycles_hold_name(uint32_t kind);
/* How long task has waited when the finding was made; 0 running. */
uint64_t cycles_blocked_ns(const struct wf_finding *finding,
			   const struct wf_task_report *task);

#endif /* SO_REPORT_CYCLES_FMT_H */
