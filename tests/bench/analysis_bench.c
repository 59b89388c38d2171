// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * How fast the ordering analysis takes edges and events: a benchmark that
 * prints figures, never a pass/fail test (timings on shared machines and
 * TCG guests say nothing reliable).  Build it against the analysis:
 *
 *   cc -std=c11 -D_GNU_SOURCE -O2 -Iuser -Ibpf tests/bench/analysis_bench.c \
 *	user/analysis/order_graph.c user/analysis/gates.c \
 *	user/analysis/waitfor.c -o build/bench/analysis_bench
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "analysis/gates.h"
#include "analysis/order_graph.h"
#include "analysis/waitfor.h"

#define BENCH_EDGES	10000

static uint64_t bench_rng = 0x2545f4914f6cdd1dULL;

static uint32_t bench_random(uint32_t below)
{
	bench_rng ^= bench_rng << 13;
	bench_rng ^= bench_rng >> 7;
	bench_rng ^= bench_rng << 17;
	return (uint32_t)(bench_rng % below);
}

/* CPU time, not wall time: the cores are shared with other work. */
static double bench_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static uint64_t bench_class(uint32_t n)
{
	/* Every fifth class a kernfs node, the rest mutexes. */
	return SO_CLASS_MAKE(n % 5 ? SO_CLASS_MUTEX : SO_CLASS_KN, n + 1);
}

static int bench_edge(struct og_graph *graph, uint32_t from, uint32_t to,
		      uint64_t ns)
{
	struct so_edge_key key = {
		.from_class = bench_class(from),
		.to_class = bench_class(to),
	};
	struct so_edge_val val = {
		.count = 1,
		.first_ns = ns,
		.first_tid = 1000 + from % 64,
		.stack_id = (int32_t)(from % 512),
		.from_mode = from % 5 ? SO_HOLD_WRITE : SO_HOLD_READ,
		.to_mode = SO_HOLD_WRITE,
		.gates = { from % 7 ? 0 : SO_CLASS_MAKE(SO_CLASS_MOD, 1) },
		.going = to % 11 ? 0 : SO_CLASS_MAKE(SO_CLASS_MOD, 1),
	};

	snprintf(val.comm, sizeof(val.comm), "task%u", from % 64);
	return og_add_edge(graph, &key, &val, NULL, NULL);
}

/* A shape of graph: the i-th of n edges, over `classes` classes. */
typedef void (*bench_shape)(uint32_t i, uint32_t classes, uint32_t *from,
			    uint32_t *to);

/* Orders go mostly down a ranking (a DAG), one edge in 50 back up. */
static void shape_layered(uint32_t i, uint32_t classes, uint32_t *from,
			  uint32_t *to)
{
	uint32_t a = bench_random(classes - 8);
	uint32_t b = a + 1 + bench_random(8);

	if (i % 50 == 49) {
		*from = b;
		*to = a;
	} else {
		*from = a;
		*to = b;
	}
}

/* Any class after any other: dense in cycles, the worst case. */
static void shape_random(uint32_t i, uint32_t classes, uint32_t *from,
			 uint32_t *to)
{
	(void)i;
	*from = bench_random(classes);
	do
		*to = bench_random(classes);
	while (*to == *from);
}

static void bench_graph(const char *name, bench_shape shape,
			uint32_t classes)
{
	struct og_limits limits = {
		.max_classes = 4096,
		.max_edges = 2 * BENCH_EDGES,
		.max_cycles = 65536,
		.max_cycle_len = OG_CYCLE_LEN_MAX,
		.search_budget = 65536,
	};
	struct og_graph *graph = og_new(&limits);
	const struct og_stats *stats;
	double start, secs;

	if (!graph) {
		fprintf(stderr, "analysis_bench: failed to allocate graph\n");
		return;
	}
	og_set_judge(graph, gate_judge);
	start = bench_now();
	for (uint32_t i = 0; i < BENCH_EDGES; i++) {
		uint32_t from, to;

		shape(i, classes, &from, &to);
		bench_edge(graph, from, to, i);
	}
	secs = bench_now() - start;
	stats = og_get_stats(graph);
	printf("%-8s %7u %6u %8.3f %10.0f %7llu %6llu %6llu %5llu %5llu\n",
	       name, BENCH_EDGES, classes, secs * 1e3, BENCH_EDGES / secs,
	       (unsigned long long)stats->edges,
	       (unsigned long long)stats->cycles_prone,
	       (unsigned long long)stats->cycles_gated,
	       (unsigned long long)stats->lost_cycles,
	       (unsigned long long)stats->searches_cut);
	og_free(graph);
}

static void bench_feed(struct wf_graph *graph, uint32_t type, uint32_t tid,
		       uint64_t ns, uint64_t obj)
{
	struct so_event event = {
		.ts_ns = ns, .type = type, .tid = tid, .obj = obj, .ret = 1,
	};

	wf_feed(graph, &event);
}

/* 1,000 tasks taking and dropping refs and locks; 100 of them stuck. */
static void bench_waitfor(void)
{
	const uint32_t events = 1000000, tasks = 1000;
	struct wf_graph *graph = wf_new(NULL);
	struct wf_finding finding;
	double start, feed_secs, check_secs;
	uint32_t checks = 1000;

	if (!graph) {
		fprintf(stderr, "analysis_bench: failed to allocate wf\n");
		return;
	}
	start = bench_now();
	for (uint32_t i = 0; i < events; i += 4) {
		uint32_t tid = 1 + bench_random(tasks);
		uint64_t lock = 0x1000 + 64 * bench_random(64);

		bench_feed(graph, SO_EV_KN_GET_ACTIVE, tid, i, 0x9000);
		bench_feed(graph, SO_EV_LOCK_ACQUIRED, tid, i, lock);
		bench_feed(graph, SO_EV_LOCK_RELEASED, tid, i, lock);
		bench_feed(graph, SO_EV_KN_PUT_ACTIVE, tid, i, 0x9000);
	}
	feed_secs = bench_now() - start;
	for (uint32_t tid = 1; tid <= 100; tid++) {
		bench_feed(graph, SO_EV_LOCK_ACQUIRED, tid, events, tid * 64);
		bench_feed(graph, SO_EV_CONTENTION_BEGIN, tid, events,
			   (tid % 100 + 1) * 64 + 0x100000);
	}
	start = bench_now();
	for (uint32_t i = 0; i < checks; i++)
		wf_check(graph, events + 1, 1000000000ULL, &finding);
	check_secs = (bench_now() - start) / checks;
	printf("\nwait-for: %u events in %.3f ms (%.0f events/s); "
	       "wf_check with %u blocked tasks: %.1f us\n", events,
	       feed_secs * 1e3, events / feed_secs, wf_blocked_count(graph),
	       check_secs * 1e6);
	wf_free(graph);
}

int main(void)
{
	printf("# order graph: cycles up to %u classes, search budget 65536 "
	       "steps per edge; CPU time\n", OG_CYCLE_LEN_MAX);
	printf("%-8s %7s %6s %8s %10s %7s %6s %6s %5s %5s\n", "shape",
	       "edges", "class", "ms", "edges/s", "pairs", "prone", "gated",
	       "lost", "cut");
	bench_graph("layered", shape_layered, 2000);
	bench_graph("random", shape_random, 2000);
	bench_graph("random", shape_random, 4000);
	/* Dense: tens of thousands of short cycles; the limits show. */
	bench_graph("dense", shape_random, 300);
	bench_waitfor();
	return 0;
}
