// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#include <stdlib.h>
#include <string.h>
#include "lib/array.h"
#include "trace/stacks.h"

void stacks_init(struct so_stacks *st)
{
	st->stacks = NULL;
	st->len = 0;
	st->cap = 0;
	u64map_init(&st->by_id);
}

void stacks_fini(struct so_stacks *st)
{
	free(st->stacks);
	u64map_fini(&st->by_id);
	stacks_init(st);
}

int stacks_put(struct so_stacks *st, int32_t id, const uint64_t *addrs,
	       uint32_t depth)
{
	struct so_stack *stack;

	if (id < 0)
		return -1;
	if (u64map_get(&st->by_id, (uint32_t)id, NULL))
		return 0;
	if (array_reserve((void **)&st->stacks, &st->cap, st->len,
			  sizeof(*st->stacks)))
		return -1;
	if (u64map_put(&st->by_id, (uint32_t)id, st->len))
		return -1;
	stack = &st->stacks[st->len++];
	stack->id = id;
	stack->depth = depth > SO_STACK_DEPTH ? SO_STACK_DEPTH : depth;
	if (stack->depth)
		memcpy(stack->addrs, addrs, stack->depth * sizeof(*addrs));
	return 0;
}

const struct so_stack *stacks_get(const struct so_stacks *st, int32_t id)
{
	uint32_t idx;

	if (id < 0 || !u64map_get(&st->by_id, (uint32_t)id, &idx))
		return NULL;
	return &st->stacks[idx];
}
