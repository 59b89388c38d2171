/* SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1 */
/*
 * Text and JSON for the ordering analysis: cycles of the class graph with
 * their verdicts (analysis/order_graph.h, analysis/gates.h) and the
 * deadlocks the wait-for graph found (analysis/waitfor.h).  Stacks are
 * symbolized elsewhere: callers pass a so_stack_fmt.
 */
#ifndef SO_REPORT_CYCLES_H
#define SO_REPORT_CYCLES_H

#include <stdint.h>
#include <stdio.h>

#include "analysis/order_graph.h"
#include "analysis/waitfor.h"

/*
 * Print the kernel stack `stack_id` to `out`, one frame a line, each
 * line indented by six spaces.  Returns 0, or <0 when the stack is
 * unknown (the report then prints the bare id).
 */
typedef int (*so_stack_fmt)(void *ctx, int32_t stack_id, FILE *out);

/*
 * The live stream's line, e.g. "DEADLOCK-PRONE: &test_dev->config_mutex
 * <-> kn:test_sysfs0/test_dev_x (2 classes)", newline included.
 */
void cycles_line(const struct og_graph *graph, const struct og_cycle *cycle,
		 FILE *out);

/*
 * One cycle in full: the line, the gate sentence, the "possible unsafe
 * locking scenario" picture, and each edge with its first sighting and
 * stack.  stack_fmt may be NULL (ids only).
 */
void cycles_detail(const struct og_graph *graph, const struct og_cycle *cycle,
		   so_stack_fmt stack_fmt, void *stack_ctx, FILE *out);

/*
 * The summary's section: every GATED and DEADLOCK-PRONE cycle, prone ones
 * first, and a count of the cycles nobody can wait in.  Returns the
 * number of DEADLOCK-PRONE cycles (exit status 1 when not 0).
 */
uint32_t cycles_print(const struct og_graph *graph, so_stack_fmt stack_fmt,
		      void *stack_ctx, FILE *out);

/*
 * Every cycle as a JSON array (no trailing newline), for the JSON report
 * to embed:
 *   [{"classes": [name, ...], "verdict": "deadlock-prone" | "gated" |
 *     "no-wait", "reason": sentence, "found_ns": n,
 *     "edges": [{"from", "to", "from_mode", "to_mode": "read" | "write" |
 *     "unknown", "count", "first_ns", "tid", "comm", "stack_id",
 *     "gates": [module name, ...], "going": module name | null}]}]
 * Each edge is the variant the verdict rests on.  Returns 0 or -EIO.
 */
int cycles_json(const struct og_graph *graph, FILE *out);

/* "DEADLOCK: bash/1234 -> rmmod/1240 -> bash/1234 (2 tasks)" or "HANG: ..." */
void cycles_deadlock_line(const struct wf_finding *finding, FILE *out);

/* The tasks of a finding: holds, wait, since when, stack. */
void cycles_deadlock_print(const struct wf_finding *finding,
			   so_stack_fmt stack_fmt, void *stack_ctx, FILE *out);

/*
 * A finding as a JSON object (no trailing newline):
 *   {"kind": "deadlock" | "hang", "now_ns", "hang_timeout_ns",
 *    "tasks": [{"tid", "comm", "blocked_ns", "stack_id", "waits_for_tid",
 *    "waits": {"kind": "lock" | "drain", "name", "obj": "0x...",
 *    "since_ns"} | null, "holds": [{"kind": "lock" | "active", "name",
 *    "obj", "since_ns"}]}]}
 * Returns 0 or -EIO.
 */
int cycles_deadlock_json(const struct wf_finding *finding, FILE *out);

#endif /* SO_REPORT_CYCLES_H */
