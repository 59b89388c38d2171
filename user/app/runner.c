// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * The steps of sysfs.sh in C, run in the session's watched driver child:
 * every module load, unload and sysfs write happens there or in the
 * loops it forks, never in the observer.  This file orchestrates: which
 * tests, one session each, the driver's test case, the parent's cleanup
 * after it; the steps are module_ops.c, workloads.c, dmesg.c, and
 * kernel/debugfs_mount.h mounts debugfs for a test.
 */
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "lib/exit_codes.h"
#include "cli/scenarios.h"
#include "kernel/debugfs_mount.h"
#include "kernel/knobfs.h"
#include "app/session.h"
#include "report/test_results.h"
#include "app/knob_race.h"
#include "app/runner.h"
#include "app/runner_internal.h"

volatile sig_atomic_t sc_stop;

int sc_str(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	return n;
}

void sc_on_term(int sig)
{
	(void)sig;
	sc_stop = 1;
}

double sc_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int sc_fail(struct sc_run *run, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(run->reason, sizeof(run->reason), fmt, ap);
	va_end(ap);
	return -1;
}

/* test_case: load, skip when the target is missing, run count times,
 * then check dmesg since the last run started. */
static enum sc_result sc_test_case(struct sc_run *run,
				   const struct sc_scenario *sc,
				   unsigned int count)
{
	char path[192], marker[128] = "";
	unsigned int i;

	run->reason[0] = '\0';
	if (sc->steps & SC_KNOB_RACE)
		return knob_race_run(sc, run->ko_path, sc_fixed(run, sc),
				     run->opts, &sc_stop, run->reason,
				     sizeof(run->reason));
	if (sc_reload(run, sc, NULL))
		return SC_FAIL;
	sc_str(path, sizeof(path), "%s/%s", sc_device_dir(sc->devtype),
		 sc->target);
	if (access(path, F_OK)) {
		sc_str(run->reason, sizeof(run->reason),
			 "%s does not exist", path);
		return SC_SKIP;
	}
	for (i = 0; i < count && !sc_stop; i++) {
		sc_dmesg_mark(sc, marker, sizeof(marker));
		if (sc_run_once(run, sc))
			return SC_FAIL;
	}
	if (sc_dmesg_check(run, marker))
		return SC_FAIL;
	if (sc_stop) {
		sc_str(run->reason, sizeof(run->reason), "interrupted");
		return SC_FAIL;
	}
	return SC_PASS;
}

/* The session's driver: one scenario, its runs, then the module
 * unloaded.  The parent prints the result line and, since a driver that
 * did not stop in 30 s was killed, undoes the rest (sc_after_session). */
static int sc_driver(void *ctx)
{
	struct sc_run *run = ctx;
	const struct sc_scenario *sc = run->tests[run->cur];
	struct sigaction sa = { .sa_handler = sc_on_term };
	enum sc_result res;

	sigaction(SIGTERM, &sa, NULL);
	res = sc_test_case(run, sc, run->counts[run->cur]);
	sc_unload_for_good();
	if (run->reason[0])
		printf("# sysfs_%s: %s\n", sc->id, run->reason);
	fflush(stdout);
	return res == SC_PASS ? SO_EXIT_PASS :
	       res == SC_SKIP ? SO_EXIT_SKIP : SO_EXIT_FAIL;
}

/*
 * In the parent, after each session: what the driver undoes on its way
 * out, again (each step is idempotent), since a driver killed after 30 s
 * did not: the knobs as they were, the module unloaded, debugfs as it
 * was.  A module that still will not unload stops the run: the next test
 * would find it loaded and run with this test's parameters.  0, or -1
 * with the reason.
 */
static int sc_after_session(const struct sc_scenario *sc,
			    const struct knob_state *knobs, bool mounted,
			    char *why, size_t len)
{
	char wedged[160];
	int err = 0;

	if (knobs->present)
		knobfs_restore(knobs);
	if (!sc_module_wedged(wedged, sizeof(wedged)))
		err = sc_unload_within(20);
	if (mounted)
		debugfs_unmount();
	if (!err)
		return 0;
	sc_str(why, len, "stopping: %s stays loaded after %s (delete_module: "
	       "%s; who holds it? lsmod shows the count); the next test "
	       "would inherit its parameters; rmmod %s, then run again",
	       SC_MODULE, sc->id, strerror(-err), SC_MODULE);
	return -1;
}

/* One session per test on one loaded observer: each verdict is the
 * test's own (cycles of different tests' module configurations must not
 * join into one) without paying load and attach, seconds under TCG, 28
 * times. */
static int sc_run_tests(struct sc_run *run, struct so_observer *obs,
			struct so_options *session_opts)
{
	struct sc_totals totals = { 0 };
	unsigned int index = 0;

	sc_results_begin(run->results, run->ktap,
			 run->watch ? 0 : run->nr_tests);
	for (run->cur = 0; run->cur < run->nr_tests; run->cur++) {
		const struct sc_scenario *sc = run->tests[run->cur];
		struct knob_state knobs = { .present = false };
		double t0 = sc_now();
		bool mounted, stop;
		enum sc_result res;
		char desc[160], why[320];
		int rc;

		/* Mounted here, not by the driver: knob detection needs it
		 * too, and the unmount must happen if the driver is killed.
		 * Only what this mounted is unmounted. */
		mounted = debugfs_mount_if_absent() > 0;
		/* No knob kernel, or a module wedged by an earlier run: a
		 * SKIP with the reason, no session. */
		if (((sc->steps & SC_KNOB_RACE) &&
		     !knob_race_supported(desc, sizeof(desc))) ||
		    sc_module_wedged(desc, sizeof(desc))) {
			if (mounted)
				debugfs_unmount();
			sc_result_line(run->results, run->ktap, ++index, sc->id,
				       sc->desc, SC_SKIP, 0, desc, &totals);
			continue;
		}
		if (sc->steps & SC_KNOB_RACE)
			knobfs_read(&knobs);
		session_opts->test = sc->id;
		session_opts->watch = NULL;
		rc = observer_session(obs, session_opts, sc_driver, run);
		res = rc == SO_EXIT_PASS ? SC_PASS :
		      rc == SO_EXIT_SKIP ? SC_SKIP : SC_FAIL;
		stop = !observer_wedged(obs) &&
		       sc_after_session(sc, &knobs, mounted, why, sizeof(why));
		if (stop)
			res = SC_FAIL;
		sc_str(desc, sizeof(desc), "%s%s", sc->desc,
		       sc_fixed(run, sc) ? " (fixed)" : "");
		sc_result_line(run->results, run->ktap, ++index, sc->id, desc,
			       res, sc_now() - t0, stop ? why : NULL, &totals);
		if (stop)
			break;
		if (observer_wedged(obs)) {
			/* A task is stuck for good: the tests after this
			 * one would only queue behind it. */
			sc_results_end(run->results, run->ktap, &totals);
			observer_abandon(SO_EXIT_FAIL);
		}
		if (session_interrupted())
			break;
		if (run->watch && res == SC_PASS)
			run->cur--;	/* again, until it fails */
	}
	if (run->watch && run->ktap)
		printf("1..%u\n", index);
	sc_results_end(run->results, run->ktap, &totals);
	return session_interrupted() ? SO_EXIT_FAIL :
	       sc_results_exit_code(&totals);
}

static unsigned int sc_count_of(const struct so_options *opts,
				const struct sc_scenario *sc)
{
	unsigned int i;

	for (i = 0; i < opts->nr_counts; i++)
		if (!strcmp(opts->counts[i].id, sc->id))
			return opts->counts[i].count;
	return sc->count;
}

static int sc_select(struct sc_run *run, const struct so_options *opts)
{
	const char *id = opts->watch ? opts->watch : opts->test;
	unsigned int i;

	for (i = 0; i < opts->nr_counts; i++)
		if (!sc_find(opts->counts[i].id)) {
			fprintf(stderr, "sysfs-observe: --count: no scenario "
				"%s (0001-%04zu; see --list)\n",
				opts->counts[i].id, sc_nr_scenarios);
			return SO_EXIT_USAGE;
		}
	for (i = 0; i < sc_nr_scenarios; i++)
		if (opt_test_selects(id, sc_scenarios[i].id))
			run->tests[run->nr_tests++] = &sc_scenarios[i];
	if (!run->nr_tests) {
		fprintf(stderr, "sysfs-observe: no scenario %s (0001-%04zu; "
			"see --list)\n", id, sc_nr_scenarios);
		return SO_EXIT_USAGE;
	}
	for (i = 0; i < run->nr_tests; i++)
		run->counts[i] = opts->watch ? 1 :
				 sc_count_of(opts, run->tests[i]);
	return 0;
}

int sc_runner_main(const struct so_options *opts)
{
	struct so_options session_opts = *opts;
	struct so_observer *obs;
	struct sc_run *run;
	int rc;

	if (opts->action == SO_ACT_LIST) {
		sc_list(stdout);
		return SO_EXIT_PASS;
	}
	run = calloc(1, sizeof(*run));
	if (!run)
		return SO_EXIT_FAIL;
	run->opts = opts;
	run->watch = opts->action == SO_ACT_WATCH;
	run->ktap = opts->format == SO_FMT_KTAP;
	run->results = opts->format == SO_FMT_JSON ? stderr : stdout;
	/* Several tests (all or a range) run 0027/0028 with the fix. */
	run->all = opts->test && !opt_is_test_id(opts->test);
	rc = sc_select(run, opts);
	if (rc) {
		opt_usage_line(stderr);
		goto out;
	}
	rc = SO_EXIT_SKIP;
	if (geteuid()) {
		fprintf(stderr, "sysfs-observe: failed to run scenarios: not "
			"root\n  scenarios load modules: run with sudo\n");
		goto out;
	}
	if (opts->module_path && strcmp(opts->module, SC_MODULE)) {
		fprintf(stderr, "sysfs-observe: --module %s: the scenarios "
			"drive %s.ko, not %s\n", opts->module_path, SC_MODULE,
			opts->module);
		rc = SO_EXIT_USAGE;
		goto out;
	}
	if (sc_module_locate(run, opts))
		goto out;
	/* KTAP on stdout must stay KTAP: no live stream there. */
	if (run->ktap)
		session_opts.quiet = true;
	if (!session_opts.module)
		session_opts.module = SC_MODULE;
	obs = observer_open(&session_opts, &rc);
	if (!obs)
		goto out;
	rc = sc_run_tests(run, obs, &session_opts);
	observer_close(obs);
out:
	free(run);
	return rc;
}
