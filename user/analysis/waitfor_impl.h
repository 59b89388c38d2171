/* SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1 */
/*
 * The wait-for tracker's insides, shared by waitfor.c (the task and
 * name tables the events keep up to date) and waitfor_check.c (the walk
 * over them and the finding it reports), and by no one else.
 */
#ifndef SO_ANALYSIS_WAITFOR_IMPL_H
#define SO_ANALYSIS_WAITFOR_IMPL_H

#include <stdbool.h>

#include "analysis/waitfor.h"
#include "lib/index.h"

#define WF_NIL			SO_INDEX_NIL

struct wf_hold {
	uint32_t kind;		/* enum wf_res_kind */
	uint32_t depth;		/* rtnl_lock() and its mutex_lock() nest */
	uint64_t obj;
	uint64_t class_id;
	uint64_t since_ns;
};

struct wf_task {
	uint32_t tid;
	bool used;
	char comm[SO_COMM_LEN];
	uint32_t nr_holds;
	struct wf_hold holds[WF_HOLDS_MAX];
	uint32_t wait_kind;	/* WF_RES_NONE: not blocked */
	uint64_t wait_obj;
	uint64_t wait_class;
	uint64_t wait_since;
	int32_t wait_stack;
	uint32_t hash_next;	/* tid chain, or the free list */
};

struct wf_name {
	uint64_t obj;
	uint64_t class_id;
	char name[SO_NAME_LEN];
	uint32_t hash_next;
};

/* The walk's stack: a task and where its successor scan stands. */
struct wf_frame {
	uint32_t task;
	uint32_t next_pos;
};

enum wf_colour { WF_WHITE, WF_GREY, WF_BLACK };

struct wf_graph {
	struct wf_limits limits;
	struct wf_stats stats;

	struct wf_task *tasks;
	struct so_index task_index;	/* by tid */
	uint32_t free_task;
	uint32_t nr_blocked;

	struct wf_name *names;
	uint32_t nr_names;
	struct so_index name_index;	/* by obj */

	/* wf_check() scratch, one slot per task */
	uint8_t *colour;
	struct wf_frame *stack;
	uint32_t *roots;
};

/* The name an event or wf_name_obj() gave `obj`, or NULL. */
struct wf_name *wf_name_find(const struct wf_graph *graph, uint64_t obj);

#endif /* SO_ANALYSIS_WAITFOR_IMPL_H */
