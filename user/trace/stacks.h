/* SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1 */
/*
 * Kernel stacks by stack id, as the BPF stack map returned them (live) or
 * the trace file stored them (report): the one place stacks are looked up
 * after the event that named them has gone by.
 */
#ifndef SO_STACKS_H
#define SO_STACKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/u64map.h"

#define SO_STACK_DEPTH	127	/* PERF_MAX_STACK_DEPTH */

/*
 * The id a blocked task's stack goes by when it was read from the task
 * (loader_task_stack) rather than taken by a probe: the `stacks` map's
 * ids stay far below this bit, and tids (at most PID_MAX_LIMIT, 2^22)
 * fit beneath it.  Stored and recorded like any other id.
 */
#define SO_STACK_ID_TASK	0x40000000
static inline int32_t stacks_task_id(uint32_t tid)
{
	return (int32_t)(SO_STACK_ID_TASK | (tid & (SO_STACK_ID_TASK - 1)));
}

static inline bool stacks_id_is_task(int32_t id)
{
	return id >= 0 && (id & SO_STACK_ID_TASK);
}

static inline uint32_t stacks_id_tid(int32_t id)
{
	return (uint32_t)id & (SO_STACK_ID_TASK - 1);
}

struct so_stack {
	int32_t id;
	uint32_t depth;
	uint64_t addrs[SO_STACK_DEPTH];
};

struct so_stacks {
	struct so_stack *stacks;
	size_t len, cap;
	struct u64map by_id;
};

void stacks_init(struct so_stacks *st);
void stacks_fini(struct so_stacks *st);
/* Keeps the first stack stored for an id.  depth is capped at
 * SO_STACK_DEPTH.  Returns 0, or -1 when memory runs out. */
int stacks_put(struct so_stacks *st, int32_t id, const uint64_t *addrs,
	       uint32_t depth);
const struct so_stack *stacks_get(const struct so_stacks *st, int32_t id);

#endif /* SO_STACKS_H */
