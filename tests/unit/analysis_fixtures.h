/* SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1 */
/*
 * Synthetic edges and events for the ordering analysis tests: the
 * classes and tasks of the seed's tests 0027/0028 (sysfs writer vs rmmod)
 * and of the debugfs reset path, built the way the BPF side reports them.
 */
#ifndef SO_TESTS_ANALYSIS_FIXTURES_H
#define SO_TESTS_ANALYSIS_FIXTURES_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/gates.h"
#include "analysis/order_graph.h"
#include "analysis/waitfor.h"

#define FX_KN_X		SO_CLASS_MAKE(SO_CLASS_KN, 0x6b6e78ULL)
#define FX_KN_Y		SO_CLASS_MAKE(SO_CLASS_KN, 0x6b6e79ULL)
#define FX_CONFIG	SO_CLASS_MAKE(SO_CLASS_MUTEX, 0x636667ULL)
#define FX_RTNL		SO_CLASS_MAKE(SO_CLASS_RTNL, 0x72746eULL)
#define FX_MOD		SO_CLASS_MAKE(SO_CLASS_MOD, 0x6d6f64ULL)
#define FX_OTHER_MOD	SO_CLASS_MAKE(SO_CLASS_MOD, 0x6d6f65ULL)

#define FX_WRITER_TID	1234
#define FX_RMMOD_TID	1240
#define FX_DEBUGFS_TID	1250

/* A graph judged the way the tool judges it (findings.c). */
static inline struct og_graph *fx_judged(const struct og_limits *limits)
{
	struct og_graph *graph = og_new(limits);

	if (graph)
		og_set_judge(graph, gate_judge);
	return graph;
}

static inline const char *fx_name(uint64_t class_id)
{
	switch (class_id) {
	case FX_KN_X:
		return "kn:test_sysfs0/test_dev_x";
	case FX_KN_Y:
		return "kn:test_sysfs0/test_dev_y";
	case FX_CONFIG:
		return "&test_dev->config_mutex";
	case FX_RTNL:
		return "rtnl_mutex";
	case FX_MOD:
		return "mod:test_sysfs";
	case FX_OTHER_MOD:
		return "mod:other";
	default:
		return NULL;
	}
}

struct fx_edge {
	uint64_t from;
	uint32_t from_mode;
	uint64_t to;
	uint32_t to_mode;
	uint32_t tid;
	const char *comm;
	uint64_t ns;
	int32_t stack_id;
	uint64_t gate;		/* a try_module_get reference held, or 0 */
	uint64_t going;
};

static inline int fx_add(struct og_graph *graph, const struct fx_edge *edge)
{
	struct so_edge_key key = {
		.from_class = edge->from,
		.to_class = edge->to,
	};
	struct so_edge_val val = {
		.count = 1,
		.first_ns = edge->ns,
		.first_tid = edge->tid,
		.stack_id = edge->stack_id,
		.from_mode = edge->from_mode,
		.to_mode = edge->to_mode,
		.gates = { edge->gate },
		.going = edge->going,
	};

	snprintf(val.comm, sizeof(val.comm), "%s",
		 edge->comm ? edge->comm : "");
	return og_add_edge(graph, &key, &val, fx_name(edge->from),
			   fx_name(edge->to));
}

/* Any class pair, both sides mutex-like (WRITE). */
static inline int fx_lock_edge(struct og_graph *graph, uint64_t from,
			       uint64_t to)
{
	struct fx_edge edge = {
		from, SO_HOLD_WRITE, to, SO_HOLD_WRITE, 1, "t", 1, -1, 0, 0,
	};

	return fx_add(graph, &edge);
}

/* The sysfs writer: active ref on test_dev_x, then the config lock. */
static inline int fx_writer(struct og_graph *graph, uint64_t lock,
			    bool with_fix)
{
	struct fx_edge edge = {
		FX_KN_X, SO_HOLD_READ, lock, SO_HOLD_WRITE, FX_WRITER_TID,
		"bash", 1000000000ULL, 7, with_fix ? FX_MOD : 0, 0,
	};

	return fx_add(graph, &edge);
}

/* rmmod: test_sysfs GOING, holds the config lock, drains test_dev_x. */
static inline int fx_rmmod(struct og_graph *graph, uint64_t lock)
{
	struct fx_edge edge = {
		lock, SO_HOLD_WRITE, FX_KN_X, SO_HOLD_WRITE, FX_RMMOD_TID,
		"rmmod", 2000000000ULL, 9, 0, FX_MOD,
	};

	return fx_add(graph, &edge);
}

/* The debugfs reset: holds a reference on test_sysfs, the lock, drains. */
static inline int fx_debugfs_reset(struct og_graph *graph, uint64_t lock)
{
	struct fx_edge edge = {
		lock, SO_HOLD_WRITE, FX_KN_X, SO_HOLD_WRITE, FX_DEBUGFS_TID,
		"bash", 3000000000ULL, 11, FX_MOD, 0,
	};

	return fx_add(graph, &edge);
}

/* Two attributes, each written from the other's store(): read-read. */
static inline int fx_kn_read_read(struct og_graph *graph)
{
	struct fx_edge x_then_y = {
		FX_KN_X, SO_HOLD_READ, FX_KN_Y, SO_HOLD_READ, 1, "a", 1, -1,
		0, 0,
	};
	struct fx_edge y_then_x = {
		FX_KN_Y, SO_HOLD_READ, FX_KN_X, SO_HOLD_READ, 2, "b", 2, -1,
		0, 0,
	};
	int found = fx_add(graph, &x_then_y);

	return found < 0 ? found : found + fx_add(graph, &y_then_x);
}

static inline struct og_graph *fx_graph(void)
{
	struct og_graph *graph = fx_judged(NULL);

	if (graph)
		og_name_class(graph, FX_MOD, fx_name(FX_MOD));
	return graph;
}

/* --- events for the wait-for graph ------------------------------------ */

#define FX_LOCK_OBJ	0xffff888001230000ULL
#define FX_KN_OBJ	0xffff888004560000ULL

static inline int fx_event(struct wf_graph *graph, uint32_t type,
			   uint32_t tid, const char *comm, uint64_t ns,
			   uint64_t obj, uint64_t class_id, const char *name,
			   int64_t ret)
{
	struct so_event event = {
		.ts_ns = ns,
		.type = type,
		.pid = tid,
		.tid = tid,
		.obj = obj,
		.class_id = class_id,
		.ret = ret,
		.stack_id = (int32_t)(tid % 100),
	};

	snprintf(event.comm, sizeof(event.comm), "%s", comm);
	if (name)
		snprintf(event.name, sizeof(event.name), "%s", name);
	return wf_feed(graph, &event);
}

#endif /* SO_TESTS_ANALYSIS_FIXTURES_H */
