// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * The class graph: which edge sequences make cycles, which do not, and
 * that nothing beyond the limits is kept silently.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "analysis_fixtures.h"
#include "trace/names.h"

#define MUTEX(n)	SO_CLASS_MAKE(SO_CLASS_MUTEX, (n))

static int setup(void **state)
{
	*state = fx_graph();
	return *state ? 0 : -1;
}

static int teardown(void **state)
{
	og_free(*state);
	return 0;
}

static void test_0027_prone(void **state)
{
	struct og_graph *graph = *state;
	const struct og_cycle *cycle;

	assert_int_equal(fx_writer(graph, FX_CONFIG, false), 0);
	assert_int_equal(og_cycle_count(graph), 0);
	assert_int_equal(fx_rmmod(graph, FX_CONFIG), 1);
	assert_int_equal(og_cycle_count(graph), 1);
	cycle = og_cycle_at(graph, 0);
	assert_int_equal(cycle->nr, 2);
	/* The closing edge, rmmod's, starts the cycle. */
	assert_true(cycle->classes[0] == FX_CONFIG);
	assert_true(cycle->classes[1] == FX_KN_X);
	assert_int_equal(cycle->verdict.kind, OG_VERDICT_PRONE);
	assert_true(cycle->found_ns == 2000000000ULL);
	assert_int_equal(og_get_stats(graph)->cycles_prone, 1);
}

static void test_0028_rtnl_prone(void **state)
{
	struct og_graph *graph = *state;
	const struct og_cycle *cycle;

	fx_writer(graph, FX_RTNL, false);
	assert_int_equal(fx_rmmod(graph, FX_RTNL), 1);
	cycle = og_cycle_at(graph, 0);
	assert_non_null(cycle);
	assert_true(cycle->classes[0] == FX_RTNL);
	assert_int_equal(cycle->verdict.kind, OG_VERDICT_PRONE);
}

static void test_edges_carry_first_sighting(void **state)
{
	struct og_graph *graph = *state;
	const struct og_variant *variant;
	const struct og_cycle *cycle;

	fx_writer(graph, FX_CONFIG, true);
	fx_rmmod(graph, FX_CONFIG);
	cycle = og_cycle_at(graph, 0);
	variant = og_cycle_variant(graph, cycle, 1);
	assert_int_equal(variant->first_tid, FX_WRITER_TID);
	assert_string_equal(variant->comm, "bash");
	assert_int_equal(variant->stack_id, 7);
	assert_true(variant->gates[0] == FX_MOD);
	assert_int_equal(variant->from_mode, SO_HOLD_READ);
	variant = og_cycle_variant(graph, cycle, 0);
	assert_int_equal(variant->first_tid, FX_RMMOD_TID);
	assert_true(variant->going == FX_MOD);
	assert_int_equal(variant->to_mode, SO_HOLD_WRITE);
}

static void test_lock_free_no_cycle(void **state)
{
	struct og_graph *graph = *state;
	struct fx_edge drain = {
		FX_KN_Y, SO_HOLD_READ, FX_KN_X, SO_HOLD_WRITE, 1, "rmmod", 5,
		-1, 0, FX_MOD,
	};

	/* enable_lock=0: the writer takes no lock; rmmod drains bare. */
	assert_int_equal(fx_add(graph, &drain), 0);
	/* A chain and a diamond: orders, no cycle. */
	assert_int_equal(fx_lock_edge(graph, MUTEX(1), MUTEX(2)), 0);
	assert_int_equal(fx_lock_edge(graph, MUTEX(2), MUTEX(3)), 0);
	assert_int_equal(fx_lock_edge(graph, MUTEX(1), MUTEX(4)), 0);
	assert_int_equal(fx_lock_edge(graph, MUTEX(4), MUTEX(3)), 0);
	assert_int_equal(og_cycle_count(graph), 0);
	assert_int_equal(og_get_stats(graph)->edges, 5);
}

static void test_self_edges_and_recursion(void **state)
{
	struct og_graph *graph = *state;
	struct fx_edge self_drain = {
		FX_KN_X, SO_HOLD_READ, FX_KN_X, SO_HOLD_WRITE, 1, "bash", 5,
		-1, 0, 0,
	};

	/* Two config_mutex instances nested, and a kn on its own class. */
	assert_int_equal(fx_lock_edge(graph, FX_CONFIG, FX_CONFIG), 0);
	assert_int_equal(fx_add(graph, &self_drain), 0);
	/* Recursion on one class next to a plain order. */
	assert_int_equal(fx_lock_edge(graph, MUTEX(1), MUTEX(1)), 0);
	assert_int_equal(fx_lock_edge(graph, MUTEX(1), MUTEX(2)), 0);
	assert_int_equal(fx_lock_edge(graph, MUTEX(2), MUTEX(2)), 0);
	assert_int_equal(og_cycle_count(graph), 0);
	assert_int_equal(og_get_stats(graph)->self_edges, 4);
	assert_int_equal(og_get_stats(graph)->edges, 1);
}

static void test_same_edge_twice_one_cycle(void **state)
{
	struct og_graph *graph = *state;

	fx_writer(graph, FX_CONFIG, false);
	assert_int_equal(fx_rmmod(graph, FX_CONFIG), 1);
	assert_int_equal(fx_rmmod(graph, FX_CONFIG), 0);
	assert_int_equal(fx_writer(graph, FX_CONFIG, false), 0);
	assert_int_equal(og_cycle_count(graph), 1);
	assert_int_equal(og_get_stats(graph)->variants, 2);
}

static void test_three_classes(void **state)
{
	struct og_graph *graph = *state;
	const struct og_cycle *cycle;

	assert_int_equal(fx_lock_edge(graph, MUTEX(1), MUTEX(2)), 0);
	assert_int_equal(fx_lock_edge(graph, MUTEX(2), MUTEX(3)), 0);
	assert_int_equal(fx_lock_edge(graph, MUTEX(3), MUTEX(1)), 1);
	cycle = og_cycle_at(graph, 0);
	assert_int_equal(cycle->nr, 3);
	assert_true(cycle->classes[0] == MUTEX(3));
	assert_true(cycle->classes[1] == MUTEX(1));
	assert_true(cycle->classes[2] == MUTEX(2));
	assert_int_equal(cycle->verdict.kind, OG_VERDICT_PRONE);
}

static void test_dedup_by_class_set(void **state)
{
	struct og_graph *graph = *state;

	fx_lock_edge(graph, MUTEX(1), MUTEX(2));
	fx_lock_edge(graph, MUTEX(2), MUTEX(3));
	fx_lock_edge(graph, MUTEX(3), MUTEX(1));
	/* The reverse ring: three 2-cycles, and {1,2,3} again in another
	 * order, which is the same class set. */
	assert_int_equal(fx_lock_edge(graph, MUTEX(1), MUTEX(3)), 1);
	assert_int_equal(fx_lock_edge(graph, MUTEX(3), MUTEX(2)), 1);
	assert_int_equal(fx_lock_edge(graph, MUTEX(2), MUTEX(1)), 1);
	assert_int_equal(og_cycle_count(graph), 4);
}

static void test_kn_read_read_no_wait(void **state)
{
	struct og_graph *graph = *state;

	/* A cycle, but active references never wait for each other. */
	assert_int_equal(fx_kn_read_read(graph), 0);
	assert_int_equal(og_cycle_count(graph), 1);
	assert_int_equal(og_cycle_at(graph, 0)->verdict.kind,
			 OG_VERDICT_NO_WAIT);
	assert_int_equal(og_get_stats(graph)->cycles_no_wait, 1);
	assert_int_equal(og_get_stats(graph)->cycles_prone, 0);
}

static void test_lock_then_active_ref_no_wait(void **state)
{
	struct og_graph *graph = *state;
	struct fx_edge reader = {
		FX_CONFIG, SO_HOLD_WRITE, FX_KN_X, SO_HOLD_READ, 1, "a", 1,
		-1, 0, 0,
	};

	/* Holding the lock and taking an active ref (not draining): the
	 * ref never waits, so the writer cannot be waited for there. */
	fx_writer(graph, FX_CONFIG, false);
	assert_int_equal(fx_add(graph, &reader), 0);
	assert_int_equal(og_cycle_at(graph, 0)->verdict.kind,
			 OG_VERDICT_NO_WAIT);
}

static void test_modes(void **state)
{
	(void)state;
	assert_true(og_mode_blocks(SO_CLASS_KN, SO_HOLD_WRITE, SO_HOLD_READ));
	assert_false(og_mode_blocks(SO_CLASS_KN, SO_HOLD_READ, SO_HOLD_READ));
	assert_false(og_mode_blocks(SO_CLASS_KN, SO_HOLD_READ, SO_HOLD_WRITE));
	assert_false(og_mode_blocks(SO_CLASS_KN, SO_HOLD_WRITE,
				    SO_HOLD_WRITE));
	assert_true(og_mode_blocks(SO_CLASS_KN, 0, 0));
	assert_true(og_mode_blocks(SO_CLASS_MUTEX, SO_HOLD_WRITE,
				   SO_HOLD_WRITE));
	assert_true(og_mode_blocks(SO_CLASS_RTNL, 0, 0));
	assert_false(og_mode_blocks(SO_CLASS_MOD, SO_HOLD_WRITE,
				    SO_HOLD_READ));
}

static void test_module_classes_are_gates_only(void **state)
{
	struct og_graph *graph = *state;
	struct fx_edge into_module = {
		FX_KN_X, SO_HOLD_READ, FX_MOD, SO_HOLD_READ, 1, "a", 1, -1, 0,
		0,
	};
	struct fx_edge out_of_module = {
		FX_MOD, SO_HOLD_READ, FX_KN_X, SO_HOLD_WRITE, 1, "a", 1, -1, 0,
		0,
	};

	assert_int_equal(fx_add(graph, &into_module), 0);
	assert_int_equal(fx_add(graph, &out_of_module), 0);
	assert_int_equal(og_cycle_count(graph), 0);
	assert_int_equal(og_edge_count(graph), 0);
	assert_int_equal(og_get_stats(graph)->gate_edges, 2);
}

static int ring(struct og_graph *graph, uint32_t nr)
{
	int found = 0;

	for (uint32_t i = 0; i < nr; i++)
		found += fx_lock_edge(graph, MUTEX(100 + i),
				      MUTEX(100 + (i + 1) % nr));
	return found;
}

static void test_length_bound(void **state)
{
	struct og_graph *graph = *state;
	struct og_graph *seven = fx_graph();

	assert_int_equal(ring(graph, OG_CYCLE_LEN_MAX), 1);
	assert_int_equal(og_cycle_at(graph, 0)->nr, OG_CYCLE_LEN_MAX);
	assert_int_equal(ring(seven, OG_CYCLE_LEN_MAX + 1), 0);
	assert_int_equal(og_cycle_count(seven), 0);
	og_free(seven);
}

struct cb_log {
	int calls;
	enum og_verdict_kind was;
	enum og_verdict_kind now;
};

static void log_cycle(void *ctx, const struct og_graph *graph,
		      const struct og_cycle *cycle, enum og_verdict_kind was)
{
	struct cb_log *log = ctx;

	(void)graph;
	log->calls++;
	log->was = was;
	log->now = cycle->verdict.kind;
}

static void test_callback_on_new_and_worse(void **state)
{
	struct og_graph *graph = *state;
	struct cb_log log = { 0 };

	og_set_cycle_cb(graph, log_cycle, &log);
	fx_writer(graph, FX_CONFIG, true);
	assert_int_equal(fx_rmmod(graph, FX_CONFIG), 1);
	assert_int_equal(log.calls, 1);
	assert_int_equal(log.was, OG_VERDICT_NO_WAIT);
	assert_int_equal(log.now, OG_VERDICT_GATED);
	/* The debugfs reset takes the same pair ungated by GOING. */
	assert_int_equal(fx_debugfs_reset(graph, FX_CONFIG), 1);
	assert_int_equal(log.calls, 2);
	assert_int_equal(log.was, OG_VERDICT_GATED);
	assert_int_equal(log.now, OG_VERDICT_PRONE);
	assert_int_equal(og_get_stats(graph)->cycles_gated, 0);
	assert_int_equal(og_get_stats(graph)->cycles_prone, 1);
	/* Nothing worse can come: no more calls. */
	assert_int_equal(fx_rmmod(graph, FX_CONFIG), 0);
	assert_int_equal(log.calls, 2);
}

static void test_limits_count_losses(void **state)
{
	struct og_limits limits = {
		.max_classes = 3, .max_edges = 2, .max_cycles = 1,
		.max_cycle_len = 3,
	};
	struct og_graph *graph = fx_judged(&limits);

	(void)state;
	assert_non_null(graph);
	assert_int_equal(fx_lock_edge(graph, MUTEX(1), MUTEX(2)), 0);
	assert_int_equal(fx_lock_edge(graph, MUTEX(2), MUTEX(1)), 1);
	assert_int_equal(fx_lock_edge(graph, MUTEX(2), MUTEX(3)), -ENOSPC);
	assert_int_equal(og_get_stats(graph)->lost_edges, 1);
	assert_int_equal(fx_lock_edge(graph, MUTEX(4), MUTEX(1)), -ENOSPC);
	assert_int_equal(og_get_stats(graph)->lost_classes, 1);
	og_free(graph);

	limits.max_cycle_len = 7;
	assert_null(og_new(&limits));
	limits.max_cycle_len = 1;
	assert_null(og_new(&limits));
}

/* Adds `n` distinct edges MUTEX(i) -> MUTEX(i + 1); returns how many
 * the graph refused. */
static int add_chain(struct og_graph *graph, int n)
{
	int i, refused = 0;

	for (i = 0; i < n; i++)
		if (fx_lock_edge(graph, MUTEX(i + 1), MUTEX(i + 2)) < 0)
			refused++;
	return refused;
}

/*
 * --map-nr-entries 32768 lets the kernel keep 32768 edges: the graph
 * made for such tables holds them all, where the default one (16384
 * edges, 4096 classes) loses some.
 */
static void test_limits_follow_kernel_tables(void **state)
{
	struct og_limits limits, defaults;
	struct og_graph *graph;

	(void)state;
	og_limits_for_tables(&defaults, 0);
	og_limits_for_tables(&limits, 64);	/* smaller: the defaults */
	assert_memory_equal(&limits, &defaults, sizeof(limits));
	og_limits_for_tables(&limits, 32768);
	assert_int_equal(limits.max_edges, 32768);
	assert_int_equal(limits.max_classes, 32768);
	assert_int_equal(limits.max_cycles, defaults.max_cycles);

	graph = fx_judged(&defaults);
	assert_non_null(graph);
	assert_true(add_chain(graph, 20000) > 0);
	assert_true(og_get_stats(graph)->lost_classes > 0);
	og_free(graph);

	graph = fx_judged(&limits);
	assert_non_null(graph);
	assert_int_equal(add_chain(graph, 20000), 0);
	assert_int_equal(og_get_stats(graph)->edges, 20000);
	assert_int_equal(og_get_stats(graph)->lost_edges, 0);
	assert_int_equal(og_get_stats(graph)->lost_classes, 0);
	og_free(graph);
}

static void test_lost_cycles_and_variants(void **state)
{
	struct og_limits limits = {
		.max_classes = 8, .max_edges = 8, .max_cycles = 1,
		.max_cycle_len = 6,
	};
	struct og_graph *graph = fx_judged(&limits);
	struct fx_edge edge = {
		MUTEX(1), SO_HOLD_WRITE, MUTEX(2), SO_HOLD_WRITE, 1, "t", 1,
		-1, 0, 0,
	};

	(void)state;
	fx_lock_edge(graph, MUTEX(2), MUTEX(1));
	fx_lock_edge(graph, MUTEX(2), MUTEX(3));
	fx_lock_edge(graph, MUTEX(3), MUTEX(1));
	/* 1 -> 2 closes {1, 2} and {1, 2, 3}: room for one. */
	assert_int_equal(fx_lock_edge(graph, MUTEX(1), MUTEX(2)), 1);
	assert_int_equal(og_get_stats(graph)->lost_cycles, 1);
	/* Once full, new edges are not even searched. */
	assert_int_equal(fx_lock_edge(graph, MUTEX(3), MUTEX(2)), 0);
	assert_int_equal(og_get_stats(graph)->searches_cut, 1);
	/* The ungated variant and three gated ones fill it; a 4th is lost. */
	for (uint32_t i = 1; i <= OG_VARIANTS_MAX; i++) {
		edge.gate = SO_CLASS_MAKE(SO_CLASS_MOD, i);
		fx_add(graph, &edge);
	}
	assert_int_equal(og_find_edge(graph, MUTEX(1), MUTEX(2))->nr_variants,
			 OG_VARIANTS_MAX);
	assert_int_equal(og_get_stats(graph)->lost_variants, 1);
	og_free(graph);
}

static void test_names(void **state)
{
	char want[256];
	struct og_graph *graph = *state;
	struct so_edge_event event = { .ev.type = SO_EV_EDGE };
	uint64_t module;
	char buf[96];
	const char *name;

	event.key.from_class = MUTEX(1);
	event.key.to_class = MUTEX(2);
	memset(event.ev.name, 'a', sizeof(event.ev.name));	/* no NUL */
	snprintf(event.to_name, sizeof(event.to_name), "mutex@helper");
	assert_int_equal(og_add_edge_event(graph, &event), 0);
	name = og_class_name(graph, MUTEX(1), buf, sizeof(buf));
	assert_int_equal(strlen(name), SO_NAME_LEN - 1);
	assert_string_equal(og_class_name(graph, MUTEX(2), buf, sizeof(buf)),
			    "mutex@helper");
	snprintf(want, sizeof(want), "mutex#%04x",
		 addr_handle(MUTEX(0xabc)));
	assert_string_equal(og_class_name(graph, MUTEX(0xabc), buf,
					  sizeof(buf)), want);
	assert_string_equal(og_class_name(graph, FX_MOD, buf, sizeof(buf)),
			    "mod:test_sysfs");
	/* Modules are named by the probes' hash of their name. */
	assert_int_equal(og_name_module(graph, "test_sysfs"), 0);
	module = SO_CLASS_MAKE(SO_CLASS_MOD,
			       so_hash_name("test_sysfs", SO_NAME_LEN));
	assert_string_equal(og_class_name(graph, module, buf, sizeof(buf)),
			    "mod:test_sysfs");
	assert_int_equal(og_name_module(graph, ""), -EINVAL);
	event.ev.type = SO_EV_KN_PUT_ACTIVE;
	assert_int_equal(og_add_edge_event(graph, &event), -EINVAL);
	event.ev.type = SO_EV_EDGE;
	event.key.from_class = 0;
	assert_int_equal(og_add_edge_event(graph, &event), -EINVAL);
}

static void test_search_budget_counted(void **state)
{
	struct og_limits limits = {
		.max_classes = 64, .max_edges = 4096, .max_cycles = 4096,
		.max_cycle_len = 6, .search_budget = 16,
	};
	struct og_graph *graph = fx_judged(&limits);

	(void)state;
	/* A complete graph on 12 classes has far more paths than 16. */
	for (uint32_t a = 0; a < 12; a++)
		for (uint32_t b = 0; b < 12; b++)
			if (a != b)
				fx_lock_edge(graph, MUTEX(a + 1), MUTEX(b + 1));
	assert_true(og_get_stats(graph)->searches_cut > 0);
	og_free(graph);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
		T(test_0027_prone),
		T(test_0028_rtnl_prone),
		T(test_edges_carry_first_sighting),
		T(test_lock_free_no_cycle),
		T(test_self_edges_and_recursion),
		T(test_same_edge_twice_one_cycle),
		T(test_three_classes),
		T(test_dedup_by_class_set),
		T(test_kn_read_read_no_wait),
		T(test_lock_then_active_ref_no_wait),
		T(test_modes),
		T(test_module_classes_are_gates_only),
		T(test_length_bound),
		T(test_callback_on_new_and_worse),
		T(test_limits_count_losses),
		T(test_limits_follow_kernel_tables),
		T(test_lost_cycles_and_variants),
		T(test_names),
		T(test_search_budget_counted),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
