/* SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1 */
/*
 * The gate verdict of docs/design.md §3.  Two edges of a cycle exclude each
 * other when one ran holding a try_module_get() reference on module M
 * and the other ran while M was GOING: GOING needs a zero refcount and
 * makes try_module_get() fail, so the two never hold at the same moment.
 * A cycle with such a pair is GATED; one whose waits are all possible and
 * that has no such pair is DEADLOCK-PRONE.  __module_get() takes no gate:
 * only the references in so_edge_val.gates[] count.
 */
#ifndef SO_ANALYSIS_GATES_H
#define SO_ANALYSIS_GATES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/order_graph.h"

/*
 * Does `holder` hold a reference on the module `going_side` ran while
 * GOING?  If so and `module` is not NULL, *module is that module's class.
 */
bool gate_excludes(const struct og_variant *holder,
		   const struct og_variant *going_side, uint64_t *module);

/*
 * Judge a cycle over every combination of its edges' variants and keep
 * the worst case: PRONE if any combination can wait at every class and
 * has no excluding pair, else GATED if any combination can wait, else
 * NO_WAIT.  The witness combination goes into *verdict.
 */
void gate_judge(const struct og_graph *graph, const struct og_cycle *cycle,
		struct og_verdict *verdict);

/*
 * The one sentence saying why, from cycle->verdict, e.g. "gated: the
 * edge A -> B, taken by bash, holds a try_module_get reference on
 * test_sysfs, and ...".  Returns what snprintf() returns.
 */
int gate_reason(const struct og_graph *graph, const struct og_cycle *cycle,
		char *buf, size_t len);

/* "DEADLOCK-PRONE", "GATED", "NO-WAIT". */
const char *gate_verdict_name(enum og_verdict_kind kind);

#endif /* SO_ANALYSIS_GATES_H */
