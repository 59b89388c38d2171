// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * Summary mode finds deadlocks from scans of the kernel's task table, not
 * from events (holds are counted there, not sent): the 0027 deadlock as
 * two task states must be a DEADLOCK, and the same states one wait short
 * must not be, nor one that a second scan does not confirm.  Also:
 * events no longer feed the graph in that mode.
 */
#include "helpers.h"
#include "app/findings.h"

#define SCAN_KN	SO_CLASS_MAKE(SO_CLASS_KN, 0x51)
#define SCAN_CONFIG	SO_CLASS_MAKE(SO_CLASS_MUTEX, 0x52)
#define SCAN_MOD	SO_CLASS_MAKE(SO_CLASS_MOD, 0x53)
#define KN_OBJ	0xffff888001000000ULL
#define LOCK	0xffff888002000000ULL
#define MOD_OBJ	0xffffffffc0001000ULL
#define SEC	1000000000ULL

static void hold(struct so_task_state *ts, uint64_t class_id, uint64_t obj,
		 uint32_t mode, const char *name, uint64_t since)
{
	struct so_held_entry *h = &ts->held[ts->nheld++];

	h->class_id = class_id;
	h->obj = obj;
	h->mode = mode;
	h->ts = since;
	snprintf(h->name, sizeof(h->name), "%s", name);
}

static void wait_for(struct so_task_state *ts, uint32_t kind, uint64_t obj,
		     uint64_t class_id, const char *name, uint64_t since)
{
	ts->wait_kind = kind;
	ts->wait_obj = obj;
	ts->wait_class = class_id;
	ts->wait_ts = since;
	ts->wait_stack = 7;
	snprintf(ts->wait_name, sizeof(ts->wait_name), "%s", name);
}

/* The writer holds test_dev_x's active reference (and a module reference,
 * which is no resource of the wait-for graph) and waits for the mutex;
 * rmmod holds the mutex and drains test_dev_x. */
static void states_0027(struct so_task_state *writer,
			struct so_task_state *rmmod)
{
	memset(writer, 0, sizeof(*writer));
	memset(rmmod, 0, sizeof(*rmmod));
	hold(writer, SCAN_MOD, MOD_OBJ, SO_HOLD_READ, "test_sysfs", 1 * SEC);
	hold(writer, SCAN_KN, KN_OBJ, SO_HOLD_READ, "test_sysfs0/test_dev_x",
	     1 * SEC);
	wait_for(writer, SO_WAIT_LOCK, LOCK, SCAN_CONFIG,
		 "&test_dev->config_mutex", 2 * SEC);
	hold(rmmod, SCAN_CONFIG, LOCK, SO_HOLD_WRITE, "&test_dev->config_mutex",
	     1 * SEC);
	wait_for(rmmod, SO_WAIT_DRAIN, KN_OBJ, SCAN_KN, "test_sysfs0/test_dev_x",
		 2 * SEC);
}

static void scan(struct so_findings *f, const struct so_task_state *writer,
		 const struct so_task_state *rmmod)
{
	assert_int_equal(findings_scan_begin(f), 0);
	findings_scan_task(f, 100, "sh", writer);
	findings_scan_task(f, 200, "modprobe", rmmod);
	findings_scan_end(f);
}

static void setup(struct so_findings *f, struct so_pipeline *p)
{
	pipeline_init(p);
	assert_int_equal(findings_init(f, p, NULL, 0, 0), 0);
	findings_attach(f, p);
	f->wf_from_scans = true;
}

static void test_scan_finds_deadlock(void **state)
{
	struct so_task_state writer, rmmod;
	struct so_pipeline p;
	struct so_findings f;
	uint32_t i, kinds = 0;

	(void)state;
	setup(&f, &p);
	states_0027(&writer, &rmmod);
	scan(&f, &writer, &rmmod);
	/* One scan is a candidate: checked again, still not a finding. */
	assert_false(findings_check(&f, 3 * SEC));
	assert_false(findings_check(&f, 3 * SEC));
	scan(&f, &writer, &rmmod);
	assert_true(findings_check(&f, 3 * SEC));
	assert_int_equal(f.deadlock.kind, WF_FOUND_CYCLE);
	assert_int_equal(f.deadlock.nr_tasks, 2);
	for (i = 0; i < f.deadlock.nr_tasks; i++) {
		const struct wf_task_report *t = &f.deadlock.tasks[i];

		assert_int_equal(t->stack_id, 7);
		assert_int_equal(t->nr_holds, 1);	/* not the module */
		if (t->tid == 100) {
			kinds |= 1;
			assert_string_equal(t->comm, "sh");
			assert_int_equal(t->waits.kind, WF_RES_LOCK);
			assert_int_equal(t->waits.obj, LOCK);
			assert_int_equal(t->waits_for_tid, 200);
			assert_int_equal(t->holds[0].kind, WF_RES_ACTIVE);
			assert_string_equal(t->holds[0].name,
					    "kn:test_sysfs0/test_dev_x");
		} else {
			kinds |= 2;
			assert_int_equal(t->tid, 200);
			assert_int_equal(t->waits.kind, WF_RES_ACTIVE);
			assert_int_equal(t->waits_for_tid, 100);
			assert_string_equal(t->holds[0].name,
					    "&test_dev->config_mutex");
		}
	}
	assert_int_equal(kinds, 3);
	findings_fini(&f);
	pipeline_fini(&p);
}

/* The negative controls: the same tasks with rmmod not (yet) draining,
 * and a later scan after the wait ended, find nothing; each scan
 * replaces the graph, so a wait that ended is forgotten. */
static void test_scan_one_wait_short(void **state)
{
	struct so_task_state writer, rmmod;
	struct so_pipeline p;
	struct so_findings f;

	(void)state;
	setup(&f, &p);
	states_0027(&writer, &rmmod);
	rmmod.wait_kind = SO_WAIT_NONE;
	scan(&f, &writer, &rmmod);
	assert_int_equal(wf_blocked_count(f.wf), 1);	/* the writer */
	assert_false(findings_check(&f, 3 * SEC));
	writer.wait_kind = SO_WAIT_NONE;
	scan(&f, &writer, &rmmod);
	assert_int_equal(wf_blocked_count(f.wf), 0);
	assert_false(findings_check(&f, 3 * SEC));
	findings_fini(&f);
	pipeline_fini(&p);
}

/*
 * A scan reads the tasks one after the other while they run: a cycle it
 * shows once may join a wait that ended before the other began.  It is
 * believed when the next scan shows the same waits and holds, begun at
 * the same times; a wait that ended and began again in between is not
 * the same wait, so it starts over.
 */
static void test_scan_cycle_must_persist(void **state)
{
	struct so_task_state writer, rmmod;
	struct so_pipeline p;
	struct so_findings f;

	(void)state;
	setup(&f, &p);
	states_0027(&writer, &rmmod);
	scan(&f, &writer, &rmmod);
	assert_int_equal(wf_blocked_count(f.wf), 2);	/* the cycle arose */
	assert_false(findings_check(&f, 3 * SEC));
	/* Gone at the next scan: never reported. */
	rmmod.wait_kind = SO_WAIT_NONE;
	scan(&f, &writer, &rmmod);
	assert_false(findings_check(&f, 3 * SEC));
	/* Back, but the writer's wait is a new one: a candidate again. */
	states_0027(&writer, &rmmod);
	scan(&f, &writer, &rmmod);
	assert_false(findings_check(&f, 3 * SEC));
	writer.wait_ts += 1;
	scan(&f, &writer, &rmmod);
	assert_false(findings_check(&f, 3 * SEC));
	/* So is a hold taken again in between. */
	rmmod.held[0].ts += 1;
	scan(&f, &writer, &rmmod);
	assert_false(findings_check(&f, 3 * SEC));
	/* The same twice running: a deadlock. */
	scan(&f, &writer, &rmmod);
	assert_true(findings_check(&f, 3 * SEC));
	assert_int_equal(f.deadlock.kind, WF_FOUND_CYCLE);
	findings_fini(&f);
	pipeline_fini(&p);
}

/* A fake of the live session's stack source: for a task id, frames that
 * name the task; a probe's id was never taken here. */
static uint32_t task_reads;
static bool task_reads_fail;

static int fake_fetch_stack(void *ctx, int32_t id, uint64_t *addrs,
			    uint32_t max)
{
	(void)ctx;
	if (!stacks_id_is_task(id) || max < 2 || task_reads_fail)
		return -1;
	task_reads++;
	addrs[0] = 0xffffffff81000000ULL + (uint32_t)id;
	addrs[1] = 0xffffffff82000000ULL;
	return 2;
}

/*
 * A live session takes no stack at a mutex wait: the deadlock's task
 * gets its stack as it is when the deadlock is found, read once and kept
 * under its task id; a task whose wait had a stack keeps that one.  A
 * replay (no source to read from) leaves the wait without a stack.
 */
static void test_stack_read_when_found(void **state)
{
	struct so_task_state writer, rmmod;
	const struct wf_task_report *t;
	const struct so_stack *st;
	struct so_pipeline p;
	struct so_findings f;
	uint32_t i, w = 0;

	(void)state;
	for (int live = 1; live >= 0; live--) {
		setup(&f, &p);
		if (live)
			p.fetch_stack = fake_fetch_stack;
		task_reads = 0;
		states_0027(&writer, &rmmod);
		writer.wait_stack = -1;
		scan(&f, &writer, &rmmod);
		assert_false(findings_check(&f, 3 * SEC));
		assert_int_equal(task_reads, 0);	/* not for a candidate */
		scan(&f, &writer, &rmmod);
		assert_true(findings_check(&f, 3 * SEC));
		assert_int_equal(f.deadlock.nr_tasks, 2);
		for (i = 0; i < f.deadlock.nr_tasks; i++)
			if (f.deadlock.tasks[i].tid == 100)
				w = i;
		t = &f.deadlock.tasks[w];
		assert_int_equal(t->tid, 100);
		assert_int_equal(f.deadlock.tasks[1 - w].stack_id, 7);
		if (!live) {
			assert_int_equal(t->stack_id, -1);
		} else {
			assert_int_equal(t->stack_id, stacks_task_id(100));
			assert_int_equal(task_reads, 1);
			st = pipeline_get_stack(&p, t->stack_id);
			assert_non_null(st);
			assert_int_equal(st->depth, 2);
			assert_int_equal(st->addrs[0], 0xffffffff81000000ULL +
					 (uint32_t)stacks_task_id(100));
			assert_int_equal(task_reads, 1);	/* kept */
		}
		findings_fini(&f);
		pipeline_fini(&p);
	}
	/* A stack that cannot be read (the task went, no iterator): none,
	 * as if never taken, not an id without frames. */
	setup(&f, &p);
	p.fetch_stack = fake_fetch_stack;
	task_reads_fail = true;
	states_0027(&writer, &rmmod);
	writer.wait_stack = -1;
	scan(&f, &writer, &rmmod);
	assert_false(findings_check(&f, 3 * SEC));
	scan(&f, &writer, &rmmod);
	assert_true(findings_check(&f, 3 * SEC));
	for (i = 0; i < f.deadlock.nr_tasks; i++)
		assert_int_equal(f.deadlock.tasks[i].stack_id,
				 f.deadlock.tasks[i].tid == 100 ? -1 : 7);
	task_reads_fail = false;
	findings_fini(&f);
	pipeline_fini(&p);
}

/* In scan mode, events do not build the graph: a stream of the same
 * deadlock's events finds nothing until a scan shows it. */
static void test_events_ignored_in_scan_mode(void **state)
{
	struct so_event ev = { .tid = 100, .ret = 1, .stack_id = -1 };
	struct so_task_state writer, rmmod;
	struct so_pipeline p;
	struct so_findings f;

	(void)state;
	setup(&f, &p);
	ev.type = SO_EV_KN_GET_ACTIVE;
	ev.obj = KN_OBJ;
	ev.class_id = SCAN_KN;
	p.on_event(p.analysis_ctx, &ev, NULL);
	ev.type = SO_EV_CONTENTION_BEGIN;
	ev.obj = LOCK;
	ev.class_id = SCAN_CONFIG;
	p.on_event(p.analysis_ctx, &ev, NULL);
	assert_int_equal(wf_blocked_count(f.wf), 0);
	states_0027(&writer, &rmmod);
	scan(&f, &writer, &rmmod);
	assert_false(findings_check(&f, 3 * SEC));
	scan(&f, &writer, &rmmod);
	assert_true(findings_check(&f, 3 * SEC));
	findings_fini(&f);
	pipeline_fini(&p);
}

/*
 * From events (the live stream's mode): the deadlock's waits and holds
 * are named as every report names them.  An edge record carries its from
 * class's name with its to class's id: it must not rename the mutex
 * "kn:&test_dev->config_mutex".
 */
static void feed(struct so_pipeline *p, uint32_t type, uint32_t tid,
		 uint64_t obj, uint64_t class_id, const char *name,
		 uint64_t ts)
{
	struct so_event ev = { .type = type, .tid = tid, .pid = tid,
			       .obj = obj, .class_id = class_id, .ret = 1,
			       .ts_ns = ts, .stack_id = -1 };

	snprintf(ev.comm, sizeof(ev.comm), "%s", tid == 100 ? "sh" : "rmmod");
	snprintf(ev.name, sizeof(ev.name), "%s", name);
	p->on_event(p->analysis_ctx, &ev, NULL);
}

static void test_event_names(void **state)
{
	struct so_pipeline p;
	struct so_findings f;
	uint32_t i;

	(void)state;
	pipeline_init(&p);
	assert_int_equal(findings_init(&f, &p, NULL, 0, 0), 0);
	findings_attach(&f, &p);
	feed(&p, SO_EV_LOCK_ACQUIRED, 200, LOCK, SCAN_CONFIG,
	     "&test_dev->config_mutex", 1 * SEC);
	feed(&p, SO_EV_KN_GET_ACTIVE, 100, KN_OBJ, SCAN_KN,
	     "test_sysfs0/test_dev_x", 1 * SEC);
	feed(&p, SO_EV_CONTENTION_BEGIN, 100, LOCK, SCAN_CONFIG, "",
	     2 * SEC);
	/* rmmod's edge config_mutex -> test_dev_x: from's obj and name,
	 * to's class. */
	feed(&p, SO_EV_EDGE, 200, LOCK, SCAN_KN, "&test_dev->config_mutex",
	     2 * SEC);
	feed(&p, SO_EV_KN_DRAIN_BEGIN, 200, KN_OBJ, SCAN_KN,
	     "test_sysfs0/test_dev_x", 2 * SEC);
	assert_true(findings_check(&f, 3 * SEC));
	assert_int_equal(f.deadlock.kind, WF_FOUND_CYCLE);
	assert_int_equal(f.deadlock.nr_tasks, 2);
	for (i = 0; i < f.deadlock.nr_tasks; i++) {
		const struct wf_task_report *t = &f.deadlock.tasks[i];

		if (t->tid == 100) {
			assert_string_equal(t->waits.name,
					    "&test_dev->config_mutex");
		} else {
			assert_string_equal(t->waits.name,
					    "kn:test_sysfs0/test_dev_x");
			assert_string_equal(t->holds[0].name,
					    "&test_dev->config_mutex");
		}
	}
	findings_fini(&f);
	pipeline_fini(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stack_read_when_found),
		cmocka_unit_test(test_scan_finds_deadlock),
		cmocka_unit_test(test_scan_one_wait_short),
		cmocka_unit_test(test_scan_cycle_must_persist),
		cmocka_unit_test(test_events_ignored_in_scan_mode),
		cmocka_unit_test(test_event_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
