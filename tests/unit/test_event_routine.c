// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * Which records the probes may give up while the ring buffer is full
 * (SO_RING_FULL_NS): only the routine steps of a write that went as
 * expected.  A report is read for the rest (a refused reference, a failed
 * write, a drain, a module going, contention, a knob, an edge), so a
 * latch that skipped one of those would lose a finding's evidence to
 * load; this pins which is which, type by type.
 */
#include <stdbool.h>
#include "helpers.h"

/* The routine records, at the outcome that makes them routine. */
static const struct {
	uint32_t type;
	int64_t ret;
} routine[] = {
	{ SO_EV_KN_WRITE_BEGIN, 0 },
	{ SO_EV_KN_WRITE_END, 0 },
	{ SO_EV_KN_WRITE_END, 4096 },
	{ SO_EV_KN_GET_ACTIVE, 1 },
	{ SO_EV_KN_PUT_ACTIVE, 0 },
	{ SO_EV_MOD_GET, 1 },
	{ SO_EV_MOD_PUT, 0 },
	{ SO_EV_LOCK_ACQUIRED, 0 },
	{ SO_EV_LOCK_RELEASED, 0 },
};

static bool type_can_be_routine(uint32_t type)
{
	size_t i;

	for (i = 0; i < sizeof(routine) / sizeof(routine[0]); i++)
		if (routine[i].type == type)
			return true;
	return false;
}

static void test_routine_records(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(routine) / sizeof(routine[0]); i++)
		assert_true(so_event_routine(routine[i].type, routine[i].ret));
}

/* Every other type is always tried, whatever its outcome. */
static void test_rare_types_never_routine(void **state)
{
	static const int64_t rets[] = { -22, -4, 0, 1, 4096 };
	uint32_t type, rare = 0;
	size_t i;

	(void)state;
	for (type = 0; type <= SO_EV_NR; type++) {
		if (type_can_be_routine(type))
			continue;
		rare++;
		for (i = 0; i < sizeof(rets) / sizeof(rets[0]); i++)
			assert_false(so_event_routine(type, rets[i]));
	}
	/* The loop saw the types that matter, not an empty enum. */
	assert_true(rare >= 10);
	assert_false(type_can_be_routine(SO_EV_EDGE));
	assert_false(type_can_be_routine(SO_EV_CONTENTION_BEGIN));
	assert_false(type_can_be_routine(SO_EV_KN_DRAIN_BEGIN));
	assert_false(type_can_be_routine(SO_EV_KNOB_WAIT));
}

/* A routine step that went wrong is a finding's evidence: tried. */
static void test_failures_never_routine(void **state)
{
	(void)state;
	assert_false(so_event_routine(SO_EV_KN_GET_ACTIVE, 0));	/* refused */
	assert_false(so_event_routine(SO_EV_MOD_GET, 0));	/* refused */
	assert_false(so_event_routine(SO_EV_KN_WRITE_END, -19));	/* -ENODEV */
	assert_false(so_event_routine(SO_EV_KN_WRITE_END, -1));
	assert_false(so_event_routine(SO_EV_LOCK_ACQUIRED, -4));	/* -EINTR */
	assert_false(so_event_routine(SO_EV_LOCK_ACQUIRED, 1)); /* trylock failed */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_routine_records),
		cmocka_unit_test(test_rare_types_never_routine),
		cmocka_unit_test(test_failures_never_routine),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
