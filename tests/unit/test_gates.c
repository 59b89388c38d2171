// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * The gate verdict on the seed's patterns: 0027/0028 prone without the
 * fix and gated with it; the debugfs reset path prone even with the fix.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "analysis_fixtures.h"
#include "analysis/gates.h"
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

static const char *reason(struct og_graph *graph, uint32_t index)
{
	static char buf[512];

	gate_reason(graph, og_cycle_at(graph, index), buf, sizeof(buf));
	return buf;
}

static void test_0027_fixed_gated(void **state)
{
	struct og_graph *graph = *state;
	const struct og_cycle *cycle;

	fx_writer(graph, FX_CONFIG, true);
	assert_int_equal(fx_rmmod(graph, FX_CONFIG), 1);
	cycle = og_cycle_at(graph, 0);
	assert_int_equal(cycle->verdict.kind, OG_VERDICT_GATED);
	assert_int_equal(cycle->verdict.gate_holder, 1);	/* writer */
	assert_int_equal(cycle->verdict.gate_going, 0);		/* rmmod */
	assert_true(cycle->verdict.gate_module == FX_MOD);
	assert_string_equal(reason(graph, 0),
		"gated: the edge kn:test_sysfs0/test_dev_x -> "
		"&test_dev->config_mutex, taken by bash, holds a "
		"try_module_get reference on test_sysfs, and the edge "
		"&test_dev->config_mutex -> kn:test_sysfs0/test_dev_x, taken "
		"by rmmod, runs while test_sysfs is GOING, so they never "
		"overlap");
}

/* The graph knows no gate by name: without the judge handed to it the
 * same fixed cycle stays PRONE, so the GATED above is gates.c's doing. */
static void test_unjudged_graph_is_prone(void **state)
{
	struct og_graph *graph = og_new(NULL);

	(void)state;
	assert_non_null(graph);
	fx_writer(graph, FX_CONFIG, true);
	assert_int_equal(fx_rmmod(graph, FX_CONFIG), 1);
	assert_int_equal(og_cycle_at(graph, 0)->verdict.kind,
			 OG_VERDICT_PRONE);
	og_free(graph);
}

static void test_0028_fixed_gated(void **state)
{
	struct og_graph *graph = *state;

	/* Either order of arrival gives the same verdict. */
	fx_rmmod(graph, FX_RTNL);
	assert_int_equal(fx_writer(graph, FX_RTNL, true), 1);
	assert_int_equal(og_cycle_at(graph, 0)->verdict.kind,
			 OG_VERDICT_GATED);
	assert_string_equal(reason(graph, 0),
		"gated: the edge kn:test_sysfs0/test_dev_x -> rtnl_mutex, "
		"taken by bash, holds a try_module_get reference on "
		"test_sysfs, and the edge rtnl_mutex -> "
		"kn:test_sysfs0/test_dev_x, taken by rmmod, runs while "
		"test_sysfs is GOING, so they never overlap");
}

static void test_0027_unfixed_reason(void **state)
{
	struct og_graph *graph = *state;

	fx_writer(graph, FX_CONFIG, false);
	fx_rmmod(graph, FX_CONFIG);
	assert_string_equal(gate_verdict_name(og_cycle_at(graph, 0)
						      ->verdict.kind),
			    "DEADLOCK-PRONE");
	assert_string_equal(reason(graph, 0),
		"deadlock-prone: no edge of the cycle holds a try_module_get "
		"reference, so nothing keeps the edges apart");
}

static void test_debugfs_reset_prone_with_fix(void **state)
{
	struct og_graph *graph = *state;

	/* enable_lock_on_rmmod: the reset holds test_sysfs, takes the lock
	 * and drains the sysfs file; the fixed writer holds test_sysfs too.
	 * Neither runs while test_sysfs is GOING. */
	fx_writer(graph, FX_CONFIG, true);
	assert_int_equal(fx_debugfs_reset(graph, FX_CONFIG), 1);
	assert_int_equal(og_cycle_at(graph, 0)->verdict.kind,
			 OG_VERDICT_PRONE);
	assert_string_equal(reason(graph, 0),
		"deadlock-prone: the edge &test_dev->config_mutex -> "
		"kn:test_sysfs0/test_dev_x, taken by bash, holds a "
		"try_module_get reference on test_sysfs, but no edge of the "
		"cycle runs while test_sysfs is GOING, so nothing keeps the "
		"edges apart");
}

static void test_debugfs_after_rmmod_turns_prone(void **state)
{
	struct og_graph *graph = *state;
	const struct og_cycle *cycle;

	fx_writer(graph, FX_CONFIG, true);
	fx_rmmod(graph, FX_CONFIG);
	assert_int_equal(og_cycle_at(graph, 0)->verdict.kind,
			 OG_VERDICT_GATED);
	/* The same class pair, another gate context. */
	assert_int_equal(fx_debugfs_reset(graph, FX_CONFIG), 1);
	cycle = og_cycle_at(graph, 0);
	assert_int_equal(og_cycle_count(graph), 1);
	assert_int_equal(cycle->verdict.kind, OG_VERDICT_PRONE);
	assert_int_equal(og_cycle_variant(graph, cycle, 0)->first_tid,
			 FX_DEBUGFS_TID);
}

static void test_module_get_is_no_gate(void **state)
{
	struct og_variant holder = { 0 }, going = { 0 };
	uint64_t module = 0;

	(void)state;
	going.going = FX_MOD;
	/* __module_get() leaves gates[] empty: nothing excludes. */
	assert_false(gate_excludes(&holder, &going, &module));
	holder.gates[0] = FX_OTHER_MOD;
	assert_false(gate_excludes(&holder, &going, &module));
	holder.gates[1] = FX_MOD;
	assert_true(gate_excludes(&holder, &going, &module));
	assert_true(module == FX_MOD);
	/* GOING on one side only excludes a holder, not another GOING. */
	assert_false(gate_excludes(&going, &going, NULL));
	going.going = 0;
	assert_false(gate_excludes(&holder, &going, NULL));
}

static void test_gates_as_a_set(void **state)
{
	struct og_graph *graph = *state;
	struct so_edge_key key = {
		.from_class = FX_KN_X, .to_class = FX_CONFIG,
	};
	struct so_edge_val val = {
		.from_mode = SO_HOLD_READ, .to_mode = SO_HOLD_WRITE,
		.gates = { 0, FX_MOD, FX_OTHER_MOD, FX_MOD },
	};
	const struct og_variant *variant;

	assert_int_equal(og_add_edge(graph, &key, &val, NULL, NULL), 0);
	variant = &og_find_edge(graph, FX_KN_X, FX_CONFIG)->variant[0];
	assert_true(variant->gates[0] == FX_MOD);
	assert_true(variant->gates[1] == FX_OTHER_MOD);
	assert_true(variant->gates[2] == 0);
	assert_int_equal(fx_rmmod(graph, FX_CONFIG), 1);
	assert_int_equal(og_cycle_at(graph, 0)->verdict.kind,
			 OG_VERDICT_GATED);
}

static void test_three_class_gated(void **state)
{
	struct og_graph *graph = *state;
	struct fx_edge holder = {
		MUTEX(1), SO_HOLD_WRITE, MUTEX(2), SO_HOLD_WRITE, 1, "a", 1,
		-1, FX_MOD, 0,
	};
	struct fx_edge going = {
		MUTEX(3), SO_HOLD_WRITE, MUTEX(1), SO_HOLD_WRITE, 3, "c", 3,
		-1, 0, FX_MOD,
	};

	fx_add(graph, &holder);
	fx_lock_edge(graph, MUTEX(2), MUTEX(3));
	assert_int_equal(fx_add(graph, &going), 1);
	assert_int_equal(og_cycle_at(graph, 0)->verdict.kind,
			 OG_VERDICT_GATED);
	assert_int_equal(og_cycle_at(graph, 0)->verdict.gate_holder, 1);
	assert_int_equal(og_cycle_at(graph, 0)->verdict.gate_going, 0);
}

static void test_other_module_going_no_gate(void **state)
{
	struct og_graph *graph = *state;
	struct fx_edge rmmod_other = {
		FX_CONFIG, SO_HOLD_WRITE, FX_KN_X, SO_HOLD_WRITE, 2, "rmmod",
		2, -1, 0, FX_OTHER_MOD,
	};

	fx_writer(graph, FX_CONFIG, true);
	fx_add(graph, &rmmod_other);
	assert_int_equal(og_cycle_at(graph, 0)->verdict.kind,
			 OG_VERDICT_PRONE);
}

static void test_no_wait_reason(void **state)
{
	struct og_graph *graph = *state;

	fx_kn_read_read(graph);
	assert_string_equal(gate_verdict_name(og_cycle_at(graph, 0)
						      ->verdict.kind),
			    "NO-WAIT");
	assert_string_equal(reason(graph, 0),
		"no wait: kn:test_sysfs0/test_dev_y is only asked for as an "
		"active reference, which never waits (active references "
		"never wait for each other)");
}

static void test_unknown_module_name(void **state)
{
	char want[256];
	struct og_graph *graph = fx_judged(NULL);
	struct fx_edge writer = {
		FX_KN_X, SO_HOLD_READ, FX_CONFIG, SO_HOLD_WRITE, 1, "", 1, -1,
		SO_CLASS_MAKE(SO_CLASS_MOD, 0x77), 0,
	};
	struct fx_edge rmmod = {
		FX_CONFIG, SO_HOLD_WRITE, FX_KN_X, SO_HOLD_WRITE, 2, "rmmod",
		2, -1, 0, SO_CLASS_MAKE(SO_CLASS_MOD, 0x77),
	};
	char buf[512];

	(void)state;
	fx_add(graph, &writer);
	fx_add(graph, &rmmod);
	gate_reason(graph, og_cycle_at(graph, 0), buf, sizeof(buf));
	snprintf(want, sizeof(want), "taken by an unnamed task, holds a "
		 "try_module_get reference on mod#%04x", addr_handle(0x77));
	assert_non_null(strstr(buf, want));
	og_free(graph);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
		T(test_0027_fixed_gated),
		T(test_unjudged_graph_is_prone),
		T(test_0028_fixed_gated),
		T(test_0027_unfixed_reason),
		T(test_debugfs_reset_prone_with_fix),
		T(test_debugfs_after_rmmod_turns_prone),
		T(test_module_get_is_no_gate),
		T(test_gates_as_a_set),
		T(test_three_class_gated),
		T(test_other_module_going_no_gate),
		T(test_no_wait_reason),
		T(test_unknown_module_name),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
