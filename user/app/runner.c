// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * The steps of sysfs.sh in C, run in the session's watched driver child:
 * every module load, unload and sysfs write happens there or in the
 * loops it forks, never in the observer.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "analysis/dmesg_check.h"
#include "lib/exit_codes.h"
#include "cli/scenarios.h"
#include "kernel/kmsg.h"
#include "kernel/knobs.h"
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

static int sc_write(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;
	int rc = 0;

	if (fd < 0)
		return -errno;
	n = write(fd, text, strlen(text));
	if (n < 0)
		rc = -errno;
	close(fd);
	return rc;
}

static int sc_write_long(const char *path, long value)
{
	char text[32];

	sc_str(text, sizeof(text), "%ld\n", value);
	return sc_write(path, text);
}

static int sc_read_long(const char *path, long *value)
{
	char text[64], *end;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, text, sizeof(text) - 1);
	close(fd);
	if (n <= 0)
		return n ? -errno : -EIO;
	text[n] = '\0';
	*value = strtol(text, &end, 10);
	return end == text ? -EINVAL : 0;
}

int sc_fail(struct sc_run *run, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(run->reason, sizeof(run->reason), fmt, ap);
	va_end(ap);
	return -1;
}

struct sc_target {
	char dir[128];
	char path[192];
	bool is_y;
};

/* sysfs.sh's verify(): x reads back as written, y as x + written + 7. */
static bool sc_verify(const struct sc_target *t, long test_value)
{
	char xpath[192];
	long seen, x;

	if (sc_read_long(t->path, &seen))
		return false;
	if (!t->is_y)
		return seen == test_value;
	sc_str(xpath, sizeof(xpath), "%s/test_dev_x", t->dir);
	if (sc_read_long(xpath, &x))
		return false;
	return seen == x + test_value + 7;
}

/* "A" x 50 then the value, 50 bytes a write as dd bs=50: rejected. */
static void sc_write_in_pieces(const char *path, long value)
{
	char text[96];
	size_t len, off;
	int fd;

	memset(text, 'A', 50);
	len = 50 + sc_str(text + 50, sizeof(text) - 50, "%ld\n", value);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	for (off = 0; off < len; off += 50) {
		size_t chunk = len - off < 50 ? len - off : 50;

		if (write(fd, text + off, chunk) != (ssize_t)chunk)
			break;
	}
	close(fd);
}

static int sc_numeric(struct sc_run *run, const struct sc_target *t,
		      long orig)
{
	long test_value = orig + 1;
	char one_shot[32];

	if (sc_verify(t, test_value))
		return sc_fail(run, "%s already holds the test value", t->path);
	if (sc_write_long(t->path, test_value) || !sc_verify(t, test_value))
		return sc_fail(run, "writing %s from a process failed",
			       t->path);
	sc_write_long(t->path, orig);
	if (sc_verify(t, test_value))
		return sc_fail(run, "restoring %s failed", t->path);
	sc_str(one_shot, sizeof(one_shot), "%ld\n", test_value);
	sc_write_long(t->path, orig);
	if (sc_write(t->path, one_shot) || !sc_verify(t, test_value))
		return sc_fail(run, "a single write to %s failed", t->path);
	sc_write_long(t->path, orig);
	sc_write_in_pieces(t->path, test_value);
	if (sc_verify(t, test_value))
		return sc_fail(run, "a write to %s in pieces was accepted",
			       t->path);
	sc_write_long(t->path, orig);
	return 0;
}

/* The loops run in their own processes; SIGTERM ends them. */
static pid_t sc_spawn(void (*loop)(const struct sc_run *,
				   const struct sc_scenario *, const char *,
				   long),
		      const struct sc_run *run, const struct sc_scenario *sc,
		      const char *path, long value)
{
	pid_t pid = fork();

	if (pid == 0) {
		signal(SIGTERM, SIG_DFL);
		loop(run, sc, path, value);
		_exit(0);
	}
	return pid;
}

static void sc_loop_modprobe(const struct sc_run *run,
			     const struct sc_scenario *sc, const char *path,
			     long value)
{
	char params[SC_PARAMS_LEN];

	(void)path;
	(void)value;
	sc_params(run, sc, sc->loop_params, params, sizeof(params));
	for (;;) {
		if (sc_load(run, params))
			usleep(1000);
		if (sc_unload())
			usleep(1000);
	}
}

static void sc_loop_write(const struct sc_run *run,
			  const struct sc_scenario *sc, const char *path,
			  long value)
{
	(void)run;
	(void)sc;
	for (;; value++) {
		if (sc_write_long(path, value) == -ENOENT)
			usleep(1000);
		else
			usleep(SC_WRITER_PAUSE_US);
	}
}

static void sc_loop_write_bg(const struct sc_run *run,
			     const struct sc_scenario *sc, const char *path,
			     long value)
{
	struct sigaction sa = { .sa_handler = sc_on_term };
	int i;

	(void)run;
	(void)sc;
	/* Stop between forks and reap the burst: no writer outlives the
	 * window (each does one write, so the wait is bounded). */
	sc_stop = 0;
	sigaction(SIGTERM, &sa, NULL);
	while (!sc_stop) {
		for (i = 0; i < SC_BURST_WRITERS && !sc_stop; i++, value++) {
			pid_t pid = fork();

			if (pid == 0) {
				signal(SIGTERM, SIG_DFL);
				sc_write_long(path, value);
				_exit(0);
			}
			if (pid < 0)
				break;
		}
		while (wait(NULL) > 0)
			;
	}
}

static void sc_loop_reset(const struct sc_run *run,
			  const struct sc_scenario *sc, const char *path,
			  long value)
{
	(void)run;
	(void)sc;
	(void)path;
	(void)value;
	for (;;)
		if (sc_write(SC_RESET_FILE, "1"))
			usleep(1000);
}

static void sc_sleep(double secs)
{
	double end = sc_now() + secs;

	while (!sc_stop && sc_now() < end)
		usleep(50000);
}

static void sc_loops(const struct sc_run *run, const struct sc_scenario *sc,
		     const struct sc_target *t, long start)
{
	double window = run->opts->window_s > 0 ? run->opts->window_s :
						  SC_WINDOW_S;
	pid_t pids[4];
	int i, n = 0;

	if (sc->steps & SC_LOOP_WRITE)
		pids[n++] = sc_spawn(sc_loop_write, run, sc, t->path, start);
	if (sc->steps & SC_LOOP_WRITE_BG)
		pids[n++] = sc_spawn(sc_loop_write_bg, run, sc, t->path,
				     start);
	if (sc->steps & SC_LOOP_MODPROBE)
		pids[n++] = sc_spawn(sc_loop_modprobe, run, sc, t->path, 0);
	if (sc->steps & SC_LOOP_RESET)
		pids[n++] = sc_spawn(sc_loop_reset, run, sc, t->path, 0);
	sc_sleep(window);
	for (i = 0; i < n; i++)
		if (pids[i] > 0)
			kill(pids[i], SIGTERM);
	for (i = 0; i < n; i++)
		if (pids[i] > 0)
			waitpid(pids[i], NULL, 0);
}

static int sc_prepare(struct sc_run *run, const struct sc_scenario *sc,
		      struct sc_target *t, long *orig)
{
	char path[192];
	int err;

	if ((sc->steps & SC_RELOAD) && sc_reload(run, sc, sc->reload_params))
		return -1;
	sc_str(path, sizeof(path), "%s/reset", t->dir);
	if ((sc->steps & SC_CONFIG_RESET) && (err = sc_write(path, "1")))
		return sc_fail(run, "reset should have worked: %s",
			       strerror(-err));
	sc_str(path, sizeof(path), "%s/test_dev_x", t->dir);
	if (sc->steps & SC_RESET_VALS) {
		sc_write(path, "3");
		sc_write(path, "4");
	}
	sc_str(path, sizeof(path), "%s/config_enable_lock", t->dir);
	if ((sc->steps & SC_ENABLE_LOCK) && (err = sc_write(path, "1")))
		return sc_fail(run, "unable to enable locks: %s",
			       strerror(-err));
	sc_str(path, sizeof(path), "%s/config_write_delay_msec_y", t->dir);
	if ((sc->steps & SC_DELAY_Y) && (err = sc_write(path, "1500")))
		return sc_fail(run, "unable to set write_delay_msec_y: %s",
			       strerror(-err));
	err = sc_read_long(t->path, orig);
	if (err)
		return sc_fail(run, "failed to read %s: %s", t->path,
			       strerror(-err));
	if (sc->steps & SC_RMMOD_FIRST)
		sc_unload();
	return 0;
}

static void sc_mark_dmesg(const struct sc_scenario *sc, char *marker,
			  size_t len)
{
	sc_str(marker, len, SC_DMESG_MARKER_FMT, sc->id,
		 (unsigned long long)(sc_now() * 1e6));
	if (!kmsg_mark(marker))
		marker[0] = '\0';
}

/*
 * check_dmesg: 0 clean, -1 a splat since the marker.  Lockdep's cycle
 * reports are the session's to judge against its cycles (a gated one is
 * lockdep's false alarm), so they are not a splat here.
 */
static int sc_check_dmesg(struct sc_run *run, const char *marker)
{
	char line[200], *log = marker[0] ? kmsg_read_all() : NULL;
	int rc = 0;

	if (log && sc_dmesg_splat(log, marker, SC_DMESG_CYCLES_JUDGED, line,
				  sizeof(line)))
		rc = sc_fail(run, "something found in dmesg: %s", line);
	free(log);
	return rc;
}

static int sc_run_once(struct sc_run *run, const struct sc_scenario *sc)
{
	struct sc_target t = { .is_y = sc_writes_y(sc) };
	long orig;

	sc_str(t.dir, sizeof(t.dir), "%s", sc_device_dir(sc->devtype));
	sc_str(t.path, sizeof(t.path), "%s/%s", t.dir, sc->target);
	if (sc_prepare(run, sc, &t, &orig))
		return -1;
	if ((sc->steps & SC_NUMERIC) && sc_numeric(run, &t, orig))
		return -1;
	if (sc->steps & SC_LOOPS)
		sc_loops(run, sc, &t, orig + 1);
	return 0;
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
		sc_mark_dmesg(sc, marker, sizeof(marker));
		if (sc_run_once(run, sc))
			return SC_FAIL;
	}
	if (sc_check_dmesg(run, marker))
		return SC_FAIL;
	if (sc_stop) {
		sc_str(run->reason, sizeof(run->reason), "interrupted");
		return SC_FAIL;
	}
	return SC_PASS;
}

static bool sc_mount_debugfs(void)
{
	struct stat st;

	if (!stat(SC_DEBUGFS "/tracing", &st) ||
	    !stat(SC_DEBUGFS "/bdi", &st))
		return false;
	return !mount("debugfs", SC_DEBUGFS, "debugfs", 0, NULL);
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
		knobs_restore(knobs);
	if (!sc_module_wedged(wedged, sizeof(wedged)))
		err = sc_unload_within(20);
	if (mounted)
		umount2(SC_DEBUGFS, MNT_DETACH);
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
		 * too, and the unmount must happen if the driver is killed. */
		mounted = sc_mount_debugfs();
		/* No knob kernel, or a module wedged by an earlier run: a
		 * SKIP with the reason, no session. */
		if (((sc->steps & SC_KNOB_RACE) &&
		     !knob_race_supported(desc, sizeof(desc))) ||
		    sc_module_wedged(desc, sizeof(desc))) {
			if (mounted)
				umount2(SC_DEBUGFS, MNT_DETACH);
			sc_result_line(run->results, run->ktap, ++index, sc->id,
				       sc->desc, SC_SKIP, 0, desc, &totals);
			continue;
		}
		if (sc->steps & SC_KNOB_RACE)
			knobs_read(&knobs);
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
	if (!strcmp(id, "all")) {
		for (i = 0; i < sc_nr_scenarios; i++)
			run->tests[run->nr_tests++] = &sc_scenarios[i];
	} else if (sc_find(id)) {
		run->tests[run->nr_tests++] = sc_find(id);
	} else {
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
	run->all = opts->test && !strcmp(opts->test, "all");
	rc = sc_select(run, opts);
	if (rc) {
		so_usage_line(stderr);
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
