// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#include "helpers.h"
#include "analysis/stats.h"

static void feed_scenario(struct so_stats *st)
{
	struct so_edge_event evs[32];
	size_t sizes[32], n, i;

	n = test_scenario(evs, sizes);
	for (i = 0; i < n; i++)
		stats_feed(st, &evs[i].ev);
	stats_finish(st);
}

static void test_kernfs_refs(void **state)
{
	const struct so_class_stats *kn;
	struct so_stats st;

	stats_init(&st);
	feed_scenario(&st);
	kn = stats_class(&st, KN_X);
	assert_non_null(kn);
	assert_int_equal(kn->kn_gets, 1);
	assert_int_equal(kn->kn_refused, 1);
	assert_int_equal(kn->kn_puts, 1);
	assert_int_equal(kn->kn_drains, 1);
	assert_int_equal(kn->kn_drain_waits, 1);
	assert_int_equal(kn->drain.max_ns, 3007000);
	/* The drain waited for a reader: contention on the kn class. */
	assert_int_equal(kn->wait.count, 1);
	/* Active ref held from get (1001 us) to put (4012 us). */
	assert_int_equal(kn->hold.count, 1);
	assert_int_equal(kn->hold.total_ns, 3011000);
	assert_int_equal(kn->writes, 1);
	assert_int_equal(kn->write_errors, 1);
	assert_int_equal(kn->write_bytes, 0);
	assert_int_equal(st.write_errnos.len, 1);
	assert_int_equal(st.write_errnos.slots[0].err, 19);
	stats_fini(&st);
}

static void test_locks_and_modules(void **state)
{
	const struct so_class_stats *cfg, *mod;
	struct so_stats st;

	stats_init(&st);
	feed_scenario(&st);
	cfg = stats_class(&st, MTX_CFG);
	assert_non_null(cfg);
	/* Contention by address, attributed through the lock's class. */
	assert_int_equal(cfg->wait.count, 1);
	assert_int_equal(cfg->wait.total_ns, 2995000);
	assert_int_equal(cfg->hold.count, 2);
	assert_int_equal(cfg->hold.max_ns, 2996000);
	/* 9000 ns -> bucket 13 (8192..16383); 2996000 -> bucket 21 */
	assert_int_equal(cfg->hold_hist.buckets[13], 1);
	assert_int_equal(cfg->hold_hist.buckets[21], 1);
	mod = stats_class(&st, MOD_TS);
	assert_non_null(mod);
	assert_int_equal(mod->mod_gets, 1);
	assert_int_equal(mod->mod_get_fails, 1);
	assert_int_equal(mod->mod_puts, 1);
	assert_int_equal(st.modules.load.count, 1);
	assert_int_equal(st.modules.load.total_ns, 800000);
	assert_int_equal(st.modules.delete.count, 1);
	assert_int_equal(st.modules.delete_fails, 0);
	assert_int_equal(st.nr_devices, 1);
	assert_string_equal(st.devices[0].name, "test_sysfs0");
	assert_int_equal(st.devices[0].removal.total_ns, 3994000);
	assert_int_equal(st.unpaired, 0);
	assert_int_equal(st.nr_events, 24);
	assert_int_equal(st.by_type[SO_EV_KN_GET_ACTIVE], 2);
	stats_fini(&st);
}

/* An end without its begin is counted, not matched with a stranger. */
static void test_unpaired(void **state)
{
	struct so_stats st;
	struct so_event ev;

	stats_init(&st);
	ev = test_event(SO_EV_KN_WRITE_BEGIN, 10, 1, KN_X, "a/b");
	stats_feed(&st, &ev);
	ev = test_event(SO_EV_KN_WRITE_END, 20, 2, KN_X, "a/b");
	ev.ret = 5;
	stats_feed(&st, &ev);
	ev = test_event(SO_EV_DEL_GENDISK_END, 30, 3, 0, NULL);
	stats_feed(&st, &ev);
	ev = test_event(SO_EV_CONTENTION_END, 30, 3, 0, NULL);
	stats_feed(&st, &ev);
	assert_int_equal(st.unpaired, 3);
	/* The write still counts, without a time. */
	assert_int_equal(stats_class(&st, KN_X)->writes, 1);
	assert_int_equal(stats_class(&st, KN_X)->write_bytes, 5);
	assert_int_equal(stats_class(&st, KN_X)->write_time.count, 0);
	stats_fini(&st);
}

/* Contention on a lock never seen acquired gets an address class. */
static void test_anonymous_contention(void **state)
{
	struct so_stats st;
	struct so_event ev;
	int i;

	stats_init(&st);
	for (i = 0; i < 3; i++) {
		ev = test_event(SO_EV_CONTENTION_BEGIN, 100 * i, 9, 0, NULL);
		ev.obj = 0xffff888000777000ULL;
		stats_feed(&st, &ev);
		ev.type = SO_EV_CONTENTION_END;
		ev.ts_ns += 50;
		stats_feed(&st, &ev);
	}
	stats_finish(&st);
	stats_finish(&st);	/* twice: still counted once */
	assert_int_equal(stats_class(&st,
				     SO_CLASS_MAKE(SO_CLASS_LOCK,
						   0xffff888000777000ULL))
				 ->wait.count, 3);
	stats_fini(&st);
}

static void test_errnos_and_timing(void **state)
{
	struct so_errnos e;
	struct so_timing t;
	int i;

	memset(&e, 0, sizeof(e));
	for (i = 1; i <= SO_ERRNOS_MAX + 2; i++)
		stats_errnos_add(&e, -i);
	stats_errnos_add(&e, -1);
	assert_int_equal(e.len, SO_ERRNOS_MAX);
	assert_int_equal(e.other, 2);
	assert_int_equal(e.slots[0].count, 2);
	memset(&t, 0, sizeof(t));
	assert_int_equal(stats_timing_avg(&t), 0);
	stats_timing_add(&t, 10);
	stats_timing_add(&t, 30);
	assert_int_equal(t.min_ns, 10);
	assert_int_equal(t.max_ns, 30);
	assert_int_equal(stats_timing_avg(&t), 20);
}

/* Many tasks at once: the pending table grows and reuses its slots. */
/* A trace file's ret is any int64: the extremes must neither overflow
 * (UBSan halts on -INT64_MIN) nor pass for an errno. */
static void test_errnos_extremes(void **state)
{
	struct so_errnos e;

	(void)state;
	memset(&e, 0, sizeof(e));
	stats_errnos_add(&e, INT64_MIN);
	stats_errnos_add(&e, INT64_MAX);
	stats_errnos_add(&e, -5);
	assert_int_equal(e.len, 2);
	assert_int_equal(e.slots[0].err, INT32_MAX);
	assert_int_equal(e.slots[0].count, 2);
	assert_int_equal(e.slots[1].err, 5);
}

static void test_many_tasks(void **state)
{
	struct so_stats st;
	struct so_event ev;
	uint32_t tid;
	int round;

	stats_init(&st);
	for (round = 0; round < 3; round++) {
		for (tid = 1; tid <= 500; tid++) {
			ev = test_event(SO_EV_KN_WRITE_BEGIN, 1000 * round, tid,
					KN_Y, "d/a");
			stats_feed(&st, &ev);
		}
		for (tid = 1; tid <= 500; tid++) {
			ev = test_event(SO_EV_KN_WRITE_END,
					1000 * round + tid, tid, KN_Y, "d/a");
			ev.ret = 1;
			stats_feed(&st, &ev);
		}
	}
	assert_int_equal(stats_class(&st, KN_Y)->writes, 1500);
	assert_int_equal(stats_class(&st, KN_Y)->write_time.count, 1500);
	assert_int_equal(st.unpaired, 0);
	assert_true(st.nr_pending <= 500);
	stats_fini(&st);
}

/*
 * Summary mode: the kernel counts the writes that succeed and sends only
 * the failed ones, each alone; the table must read as if every write had
 * come as a begin/end pair.
 */
static void test_kernel_write_counts(void **state)
{
	struct so_class_counts counts = {
		.writes = 4, .write_bytes = 8, .write_ns_total = 400,
		.write_ns_min = 40, .write_ns_max = 250,
	};
	const struct so_class_stats *kn;
	struct so_stats st;
	struct so_event ev;

	stats_init(&st);
	ev = test_event(SO_EV_KN_WRITE_END, 500, 7, KN_X, "test_sysfs0/x");
	ev.flags = SO_EVF_ALONE;
	ev.ret = -19;
	ev.arg = 30;
	stats_feed(&st, &ev);
	stats_add_class_counts(&st, KN_X, &counts);
	stats_finish(&st);
	kn = stats_class(&st, KN_X);
	assert_non_null(kn);
	assert_int_equal(kn->writes, 5);
	assert_int_equal(kn->write_errors, 1);
	assert_int_equal(kn->write_bytes, 8);
	assert_int_equal(kn->write_time.count, 5);
	assert_int_equal(kn->write_time.total_ns, 430);
	assert_int_equal(kn->write_time.min_ns, 30);
	assert_int_equal(kn->write_time.max_ns, 250);
	assert_int_equal(st.write_errnos.slots[0].err, 19);
	/* An end sent alone is not an end that lost its begin. */
	assert_int_equal(st.unpaired, 0);
	/* Nothing counted, nothing added (no empty class row). */
	memset(&counts, 0, sizeof(counts));
	stats_add_class_counts(&st, KN_Y, &counts);
	assert_null(stats_class(&st, KN_Y));
	stats_fini(&st);
}

/*
 * A release counts its hold by its class: the probes send it now; a
 * trace from before sent 0, and the class comes from the lock's address
 * (learned from its acquisition).  Once live --attach tables had no
 * mutex at all.
 */
static void test_release_class(void **state)
{
	const uint64_t cls = SO_CLASS_MAKE(SO_CLASS_LOCK, 0xffffffffc04552c0ULL);
	const struct so_class_stats *c;
	struct so_stats st;
	struct so_event ev;

	stats_init(&st);
	ev = test_event(SO_EV_LOCK_ACQUIRED, 1000, 7, cls, "reset_mutex");
	ev.obj = 0xffffffffc04552c0ULL;
	stats_feed(&st, &ev);
	ev = test_event(SO_EV_LOCK_RELEASED, 2000, 7, cls, NULL);
	ev.obj = 0xffffffffc04552c0ULL;
	ev.arg = 1000;
	stats_feed(&st, &ev);
	ev.class_id = 0;	/* the old probes' release */
	ev.arg = 3000;
	stats_feed(&st, &ev);
	c = stats_class(&st, cls);
	assert_non_null(c);
	assert_int_equal(c->hold.count, 2);
	assert_int_equal(c->hold.total_ns, 4000);
	stats_fini(&st);
	(void)state;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kernfs_refs),
		cmocka_unit_test(test_locks_and_modules),
		cmocka_unit_test(test_unpaired),
		cmocka_unit_test(test_anonymous_contention),
		cmocka_unit_test(test_errnos_and_timing),
		cmocka_unit_test(test_errnos_extremes),
		cmocka_unit_test(test_many_tasks),
		cmocka_unit_test(test_kernel_write_counts),
		cmocka_unit_test(test_release_class),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
