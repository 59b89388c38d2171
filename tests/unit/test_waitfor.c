// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * The wait-for graph: the rmmod-under-lock deadlock of 0027/0028 caught
 * with both tasks, hangs past the timeout, and waits that end in time.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "analysis_fixtures.h"
#include "trace/names.h"

#define MS		1000000ULL
#define SEC		1000000000ULL
#define LOCK2_OBJ	(FX_LOCK_OBJ + 0x100)
#define LOCK3_OBJ	(FX_LOCK_OBJ + 0x200)

static int setup(void **state)
{
	*state = wf_new(NULL);
	return *state ? 0 : -1;
}

static int teardown(void **state)
{
	wf_free(*state);
	return 0;
}

static int writer(struct wf_graph *graph, uint32_t type, uint64_t ns,
		  uint64_t obj, int64_t ret)
{
	const char *name = obj == FX_KN_OBJ ? "kn:test_sysfs0/test_dev_x" :
			   "&test_dev->config_mutex";
	uint64_t class_id = obj == FX_KN_OBJ ? FX_KN_X : FX_CONFIG;

	return fx_event(graph, type, FX_WRITER_TID, "bash", ns, obj, class_id,
			name, ret);
}

static int rmmod(struct wf_graph *graph, uint32_t type, uint64_t ns,
		 uint64_t obj)
{
	const char *name = obj == FX_KN_OBJ ? "kn:test_sysfs0/test_dev_x" :
			   "&test_dev->config_mutex";
	uint64_t class_id = obj == FX_KN_OBJ ? FX_KN_X : FX_CONFIG;

	return fx_event(graph, type, FX_RMMOD_TID, "rmmod", ns, obj, class_id,
			name, 0);
}

/* 0027 live: the writer holds the active ref and waits for the lock;
 * rmmod holds the lock and drains the file. */
static void deadlock_0027(struct wf_graph *graph)
{
	assert_int_equal(writer(graph, SO_EV_KN_GET_ACTIVE, 100 * MS,
				FX_KN_OBJ, 1), 0);
	assert_int_equal(rmmod(graph, SO_EV_LOCK_ACQUIRED, 200 * MS,
			       FX_LOCK_OBJ), 0);
	/* Contention events carry no name: the lock's is known already. */
	assert_int_equal(fx_event(graph, SO_EV_CONTENTION_BEGIN,
				  FX_WRITER_TID, "bash", 300 * MS,
				  FX_LOCK_OBJ, 0, NULL, 0), 0);
	assert_int_equal(rmmod(graph, SO_EV_KN_DRAIN_BEGIN, 400 * MS,
			       FX_KN_OBJ), 0);
}

static void test_two_task_deadlock(void **state)
{
	struct wf_graph *graph = *state;
	struct wf_finding finding;
	const struct wf_task_report *task;

	deadlock_0027(graph);
	assert_int_equal(wf_blocked_count(graph), 2);
	assert_int_equal(wf_check(graph, 500 * MS, 0, &finding),
			 WF_FOUND_CYCLE);
	assert_int_equal(finding.nr_tasks, 2);

	task = &finding.tasks[0];	/* waiting longest */
	assert_int_equal(task->tid, FX_WRITER_TID);
	assert_string_equal(task->comm, "bash");
	assert_int_equal(task->waits.kind, WF_RES_LOCK);
	assert_string_equal(task->waits.name, "&test_dev->config_mutex");
	assert_true(task->waits.since_ns == 300 * MS);
	assert_int_equal(task->waits_for_tid, FX_RMMOD_TID);
	assert_int_equal(task->stack_id, FX_WRITER_TID % 100);
	assert_int_equal(task->nr_holds, 1);
	assert_int_equal(task->holds[0].kind, WF_RES_ACTIVE);
	assert_string_equal(task->holds[0].name, "kn:test_sysfs0/test_dev_x");

	task = &finding.tasks[1];
	assert_int_equal(task->tid, FX_RMMOD_TID);
	assert_int_equal(task->waits.kind, WF_RES_ACTIVE);
	assert_string_equal(task->waits.name, "kn:test_sysfs0/test_dev_x");
	assert_int_equal(task->waits_for_tid, FX_WRITER_TID);
	assert_int_equal(task->nr_holds, 1);
	assert_string_equal(task->holds[0].name, "&test_dev->config_mutex");
	assert_true(task->holds[0].since_ns == 200 * MS);
}

static void test_rtnl_deadlock(void **state)
{
	char want[256];
	struct wf_graph *graph = *state;
	struct wf_finding finding;
	uint64_t rtnl = 0xffffffff8a001000ULL;

	fx_event(graph, SO_EV_KN_GET_ACTIVE, 1, "bash", 1, FX_KN_OBJ, FX_KN_X,
		 NULL, 1);
	/* rtnl_lock() and the mutex_lock() inside it: one lock, nested. */
	fx_event(graph, SO_EV_LOCK_ACQUIRED, 2, "rmmod", 2, rtnl, FX_RTNL,
		 "rtnl_mutex", 0);
	fx_event(graph, SO_EV_LOCK_ACQUIRED, 2, "rmmod", 2, rtnl, FX_RTNL,
		 "rtnl_mutex", 0);
	fx_event(graph, SO_EV_CONTENTION_BEGIN, 1, "bash", 3, rtnl, FX_RTNL,
		 NULL, 0);
	fx_event(graph, SO_EV_KN_DRAIN_BEGIN, 2, "rmmod", 4, FX_KN_OBJ,
		 FX_KN_X, NULL, 0);
	assert_int_equal(wf_check(graph, 5, 0, &finding), WF_FOUND_CYCLE);
	assert_string_equal(finding.tasks[0].waits.name, "rtnl_mutex");
	assert_int_equal(finding.tasks[1].nr_holds, 1);
	/* Unnamed objects get a handle, never their address. */
	snprintf(want, sizeof(want), "kn#%04x",
		 addr_handle(0xffff888004560000ULL));
	assert_string_equal(finding.tasks[0].holds[0].name, want);
}

static void test_drain_on_running_holder(void **state)
{
	struct wf_graph *graph = *state;
	struct wf_finding finding;

	/* The writer holds its ref and is still running its store(). */
	writer(graph, SO_EV_KN_GET_ACTIVE, 1 * SEC, FX_KN_OBJ, 1);
	rmmod(graph, SO_EV_KN_DRAIN_BEGIN, 2 * SEC, FX_KN_OBJ);
	assert_int_equal(wf_check(graph, 3 * SEC, 0, &finding),
			 WF_FOUND_NONE);
	assert_int_equal(wf_check(graph, 3 * SEC, 5 * SEC, &finding),
			 WF_FOUND_NONE);
	/* Past the timeout: a hang, and whom it waits for. */
	assert_int_equal(wf_check(graph, 8 * SEC, 5 * SEC, &finding),
			 WF_FOUND_HANG);
	assert_int_equal(finding.nr_tasks, 2);
	assert_int_equal(finding.tasks[0].tid, FX_RMMOD_TID);
	assert_int_equal(finding.tasks[0].waits_for_tid, FX_WRITER_TID);
	assert_int_equal(finding.tasks[1].tid, FX_WRITER_TID);
	assert_int_equal(finding.tasks[1].waits.kind, WF_RES_NONE);
	assert_int_equal(finding.tasks[1].stack_id, -1);
	/* The ref dropped: the drain ends, nothing is wrong. */
	writer(graph, SO_EV_KN_PUT_ACTIVE, 8 * SEC, FX_KN_OBJ, 0);
	rmmod(graph, SO_EV_KN_DRAIN_END, 8 * SEC, FX_KN_OBJ);
	assert_int_equal(wf_check(graph, 20 * SEC, 5 * SEC, &finding),
			 WF_FOUND_NONE);
	assert_int_equal(wf_blocked_count(graph), 0);
}

static void test_hang_unknown_owner(void **state)
{
	char want[256];
	struct wf_graph *graph = *state;
	struct wf_finding finding;

	fx_event(graph, SO_EV_CONTENTION_BEGIN, 7, "cat", 1 * SEC,
		 FX_LOCK_OBJ, 0, NULL, 0);
	assert_int_equal(wf_check(graph, 2 * SEC, 3 * SEC, &finding),
			 WF_FOUND_NONE);
	assert_int_equal(wf_check(graph, 5 * SEC, 3 * SEC, &finding),
			 WF_FOUND_HANG);
	assert_int_equal(finding.nr_tasks, 1);
	assert_int_equal(finding.tasks[0].waits_for_tid, 0);
	snprintf(want, sizeof(want), "lock#%04x",
		 addr_handle(0xffff888001230000ULL));
	assert_string_equal(finding.tasks[0].waits.name, want);
	assert_true(finding.hang_timeout_ns == 3 * SEC);
}

static void test_waits_that_end(void **state)
{
	struct wf_graph *graph = *state;
	struct wf_finding finding;

	deadlock_0027(graph);
	/* Had rmmod's drain returned and released the lock ... */
	rmmod(graph, SO_EV_KN_DRAIN_END, 500 * MS, FX_KN_OBJ);
	assert_int_equal(wf_check(graph, 600 * MS, 0, &finding),
			 WF_FOUND_NONE);
	rmmod(graph, SO_EV_LOCK_RELEASED, 600 * MS, FX_LOCK_OBJ);
	/* ... the writer gets the lock: acquiring ends its wait. */
	writer(graph, SO_EV_LOCK_ACQUIRED, 700 * MS, FX_LOCK_OBJ, 0);
	assert_int_equal(wf_blocked_count(graph), 0);
	writer(graph, SO_EV_LOCK_RELEASED, 800 * MS, FX_LOCK_OBJ, 0);
	writer(graph, SO_EV_KN_PUT_ACTIVE, 800 * MS, FX_KN_OBJ, 0);
	assert_int_equal(wf_check(graph, 100 * SEC, 1 * SEC, &finding),
			 WF_FOUND_NONE);
	assert_int_equal(wf_get_stats(graph)->unmatched, 0);
}

static void test_refused_active_ref(void **state)
{
	struct wf_graph *graph = *state;
	struct wf_finding finding;

	/* kernfs_get_active() refused (node deactivated): nothing held. */
	writer(graph, SO_EV_KN_GET_ACTIVE, 1, FX_KN_OBJ, 0);
	rmmod(graph, SO_EV_LOCK_ACQUIRED, 2, FX_LOCK_OBJ);
	writer(graph, SO_EV_CONTENTION_BEGIN, 3, FX_LOCK_OBJ, 0);
	rmmod(graph, SO_EV_KN_DRAIN_BEGIN, 4, FX_KN_OBJ);
	assert_int_equal(wf_check(graph, 5, 0, &finding), WF_FOUND_NONE);
}

static void test_three_task_cycle(void **state)
{
	struct wf_graph *graph = *state;
	struct wf_finding finding;
	uint64_t locks[3] = { FX_LOCK_OBJ, LOCK2_OBJ, LOCK3_OBJ };

	for (uint32_t i = 0; i < 3; i++)
		fx_event(graph, SO_EV_LOCK_ACQUIRED, 10 + i, "t", 1, locks[i],
			 0, NULL, 0);
	/* A bystander waits too, outside the cycle. */
	fx_event(graph, SO_EV_CONTENTION_BEGIN, 99, "late", 1, LOCK2_OBJ, 0,
		 NULL, 0);
	for (uint32_t i = 0; i < 3; i++)
		fx_event(graph, SO_EV_CONTENTION_BEGIN, 10 + i, "t", 10 + i,
			 locks[(i + 1) % 3], 0, NULL, 0);
	assert_int_equal(wf_check(graph, 100, 0, &finding), WF_FOUND_CYCLE);
	assert_int_equal(finding.nr_tasks, 3);
	assert_int_equal(finding.tasks[0].tid, 10);
	assert_int_equal(finding.tasks[0].waits_for_tid, 11);
	assert_int_equal(finding.tasks[1].waits_for_tid, 12);
	assert_int_equal(finding.tasks[2].waits_for_tid, 10);
}

/*
 * Summary mode pushes a mutex at the lock call's entry: a task waiting
 * for a lock lists it as held too.  Two such waiters on a lock a third
 * task holds wait for that task, not for each other.
 */
static void test_pushed_at_entry(void **state)
{
	struct wf_graph *graph = *state;
	struct wf_finding finding;

	fx_event(graph, SO_EV_LOCK_ACQUIRED, 1, "owner", 1, FX_LOCK_OBJ,
		 FX_CONFIG, "&test_dev->config_mutex", 0);
	for (uint32_t tid = 2; tid <= 3; tid++) {
		fx_event(graph, SO_EV_LOCK_ACQUIRED, tid, "w", 2, FX_LOCK_OBJ,
			 FX_CONFIG, NULL, 0);
		fx_event(graph, SO_EV_CONTENTION_BEGIN, tid, "w", 3,
			 FX_LOCK_OBJ, 0, NULL, 0);
	}
	assert_int_equal(wf_blocked_count(graph), 2);
	assert_int_equal(wf_check(graph, 100, 0, &finding), WF_FOUND_NONE);

	/* The 0027 deadlock so seen: the writer's lock is its wait, and
	 * not among its holds. */
	writer(graph, SO_EV_KN_GET_ACTIVE, 10, FX_KN_OBJ, 1);
	writer(graph, SO_EV_LOCK_ACQUIRED, 11, LOCK2_OBJ, 0);
	writer(graph, SO_EV_CONTENTION_BEGIN, 12, LOCK2_OBJ, 0);
	fx_event(graph, SO_EV_LOCK_ACQUIRED, 1, "owner", 13, LOCK2_OBJ,
		 FX_CONFIG, NULL, 0);
	fx_event(graph, SO_EV_KN_DRAIN_BEGIN, 1, "owner", 14, FX_KN_OBJ,
		 FX_KN_X, NULL, 0);
	assert_int_equal(wf_check(graph, 100, 0, &finding), WF_FOUND_CYCLE);
	assert_int_equal(finding.nr_tasks, 2);
	assert_int_equal(finding.tasks[0].tid, FX_WRITER_TID);
	assert_int_equal(finding.tasks[0].waits_for_tid, 1);
	assert_int_equal(finding.tasks[0].nr_holds, 1);
	assert_int_equal(finding.tasks[0].holds[0].kind, WF_RES_ACTIVE);
}

static void test_drain_many_holders(void **state)
{
	struct wf_graph *graph = *state;
	struct wf_finding finding;

	/* Two readers hold the file; only the second one is stuck on the
	 * drainer's lock: still a deadlock, the drain waits for both. */
	fx_event(graph, SO_EV_KN_GET_ACTIVE, 20, "cat", 1, FX_KN_OBJ, 0,
		 NULL, 1);
	writer(graph, SO_EV_KN_GET_ACTIVE, 2, FX_KN_OBJ, 1);
	rmmod(graph, SO_EV_LOCK_ACQUIRED, 3, FX_LOCK_OBJ);
	writer(graph, SO_EV_CONTENTION_BEGIN, 4, FX_LOCK_OBJ, 0);
	rmmod(graph, SO_EV_KN_DRAIN_BEGIN, 5, FX_KN_OBJ);
	assert_int_equal(wf_check(graph, 6, 0, &finding), WF_FOUND_CYCLE);
	assert_int_equal(finding.nr_tasks, 2);
	assert_int_equal(finding.tasks[0].tid, FX_WRITER_TID);
	assert_int_equal(finding.tasks[1].waits_for_tid, FX_WRITER_TID);
}

static void test_limits_and_forgetting(void **state)
{
	struct wf_limits limits = { .max_tasks = 2, .max_names = 1 };
	struct wf_graph *graph = wf_new(&limits);

	(void)state;
	assert_non_null(graph);
	/* Tasks that hold nothing are forgotten: many fit in two slots. */
	for (uint32_t tid = 1; tid < 100; tid++) {
		fx_event(graph, SO_EV_LOCK_ACQUIRED, tid, "t", tid,
			 FX_LOCK_OBJ, 0, NULL, 0);
		fx_event(graph, SO_EV_LOCK_RELEASED, tid, "t", tid,
			 FX_LOCK_OBJ, 0, NULL, 0);
	}
	assert_int_equal(wf_get_stats(graph)->lost_tasks, 0);
	fx_event(graph, SO_EV_LOCK_ACQUIRED, 1, "t", 1, FX_LOCK_OBJ, 0,
		 "a", 0);
	fx_event(graph, SO_EV_LOCK_ACQUIRED, 2, "t", 1, LOCK2_OBJ, 0, "b", 0);
	assert_int_equal(fx_event(graph, SO_EV_LOCK_ACQUIRED, 3, "t", 1,
				  LOCK3_OBJ, 0, NULL, 0), -ENOSPC);
	assert_int_equal(wf_get_stats(graph)->lost_tasks, 1);
	assert_int_equal(wf_get_stats(graph)->lost_names, 1);
	/* A release nobody acquired is counted, not trusted. */
	fx_event(graph, SO_EV_LOCK_RELEASED, 1, "t", 1, LOCK3_OBJ, 0, NULL,
		 0);
	fx_event(graph, SO_EV_KN_PUT_ACTIVE, 50, "t", 1, FX_KN_OBJ, 0, NULL,
		 0);
	assert_int_equal(wf_get_stats(graph)->unmatched, 2);
	assert_null(wf_new(&(struct wf_limits){ .max_tasks = 0 }));
	wf_free(graph);
}

static void test_holds_full(void **state)
{
	struct wf_graph *graph = *state;

	for (uint32_t i = 0; i < WF_HOLDS_MAX; i++)
		assert_int_equal(fx_event(graph, SO_EV_LOCK_ACQUIRED, 1, "t", 1,
					  FX_LOCK_OBJ + i, 0, NULL, 0), 0);
	assert_int_equal(fx_event(graph, SO_EV_LOCK_ACQUIRED, 1, "t", 1,
				  LOCK3_OBJ + 64, 0, NULL, 0), -ENOSPC);
	assert_int_equal(wf_get_stats(graph)->lost_holds, 1);
	assert_int_equal(wf_feed(graph, NULL), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
		T(test_two_task_deadlock),
		T(test_rtnl_deadlock),
		T(test_drain_on_running_holder),
		T(test_hang_unknown_owner),
		T(test_waits_that_end),
		T(test_refused_active_ref),
		T(test_three_task_cycle),
		T(test_pushed_at_entry),
		T(test_drain_many_holders),
		T(test_limits_and_forgetting),
		T(test_holds_full),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
