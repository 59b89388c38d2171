// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * One delay, in order: load test_sysfs (devtype=1,
 * enable_completion_on_rmmod=1), arm the fault (interval 1, probability
 * 100, times 1, verbose 0), enable the one wait point, set
 * sleep_after_wait_ms; a child writes test_dev_x and stops at the point
 * (the fault's times drops to 0 when it fires: that is how we know);
 * delete_module (its exit releases the writer, then removes the device);
 * disarm; collect the writer's result; check dmesg.  report/knob_table.c
 * says what each row may show and why.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "analysis/dmesg_check.h"
#include "kernel/kmsg.h"
#include "kernel/knobfs.h"
#include "kernel/module_sys.h"
#include "report/knob_table.h"
#include "app/knob_race.h"

#define KR_MODULE	"test_sysfs"
#define KR_PARAM_FILE	"/sys/module/" KR_MODULE \
			"/parameters/enable_completion_on_rmmod"
#define KR_VALUE	"5\n"
#define KR_FIRE_TIMEOUT_S	5.0
/* The kernel's bound on a wait (KERNFS_DEBUG_WAIT_TIMEOUT_MS) plus the
 * sleep plus TCG's slowness: a writer later than this is stuck. */
#define KR_WRITER_TIMEOUT_MS	(3000 + 5000)

struct kr_ctx {
	const struct sc_scenario *sc;
	const char *ko_path;
	char params[1024];
	char target[192];
	struct knob_expect ex;
	volatile sig_atomic_t *stop;
};

/* What the writer sends back through its pipe. */
struct kr_report {
	long long result;
	double start_s, end_s;
};

static double kr_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int kr_fail(char *reason, size_t len, const char *what, int err)
{
	snprintf(reason, len, "%s: %s", what, strerror(-err));
	return -1;
}

static int kr_unload(void)
{
	int err = 0, i;

	/* A writer that just left the store may pin it for a moment. */
	for (i = 0; i < 40; i++) {
		err = module_sys_unload(KR_MODULE);
		if (err != -EAGAIN && err != -EBUSY)
			break;
		usleep(50000);
	}
	return err;
}

static int kr_load(const struct kr_ctx *c)
{
	int rc = module_sys_load(c->ko_path, c->params);

	/* Loaded already, maybe with other parameters: ours, afresh. */
	if (rc == -EEXIST && !kr_unload())
		rc = module_sys_load(c->ko_path, c->params);
	return rc;
}

static int kr_arm(const struct kr_ctx *c, unsigned int delay_ms)
{
	static const struct {
		int id;
		const char *value;
	} fault[] = {
		{ KNOB_PROBABILITY, "0" },	/* nothing fires meanwhile */
		{ KNOB_INTERVAL, "1" },
		{ KNOB_VERBOSE, "0" },		/* no stack dump per fire */
		{ KNOB_SPACE, "0" },
		{ KNOB_TIMES, "1" },
		{ KNOB_PROBABILITY, "100" },
	};
	char sleep_ms[16];
	size_t i;
	int err = 0, id;

	for (id = 0; id < KNOB_NR_WAITS && !err; id++)
		err = knobfs_write(id, "N");
	snprintf(sleep_ms, sizeof(sleep_ms), "%u", delay_ms);
	if (!err)
		err = knobfs_write(KNOB_SLEEP_AFTER_WAIT_MS, sleep_ms);
	for (i = 0; i < sizeof(fault) / sizeof(fault[0]) && !err; i++)
		err = knobfs_write(fault[i].id, fault[i].value);
	return err ? err : knobfs_write(c->ex.wait_knob, "Y");
}

static void kr_disarm(const struct kr_ctx *c)
{
	knobfs_write(c->ex.wait_knob, "N");
	knobfs_write(KNOB_PROBABILITY, "0");
}

static pid_t kr_start_writer(const char *path, int *report_fd)
{
	struct kr_report rep = { 0 };
	int pipefd[2], fd;
	pid_t pid;
	ssize_t n;

	if (pipe2(pipefd, O_CLOEXEC))
		return -1;
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		signal(SIGTERM, SIG_DFL);
		close(pipefd[0]);
		fd = open(path, O_WRONLY | O_CLOEXEC);
		rep.start_s = kr_now();
		if (fd < 0) {
			rep.result = -errno;
		} else {
			n = write(fd, KR_VALUE, strlen(KR_VALUE));
			rep.result = n < 0 ? -errno : n;
			close(fd);
		}
		rep.end_s = kr_now();
		_exit(write(pipefd[1], &rep, sizeof(rep)) == sizeof(rep) ?
			      0 : 1);
	}
	close(pipefd[1]);
	if (pid < 0)
		close(pipefd[0]);
	*report_fd = pipefd[0];
	return pid;
}

static bool kr_readable(int fd, int timeout_ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, timeout_ms) > 0;
}

/* The fault fired, so the writer sits at the wait point; or it already
 * finished (it never stopped), or nothing happened in time. */
static bool kr_wait_fired(const struct kr_ctx *c, int report_fd)
{
	double end = kr_now() + KR_FIRE_TIMEOUT_S;
	char times[KNOB_VALUE_LEN];

	while (!*c->stop && kr_now() < end) {
		if (!knobfs_get(KNOB_TIMES, times, sizeof(times)) &&
		    !strcmp(times, "0"))
			return true;
		if (kr_readable(report_fd, 1))
			return false;
	}
	return false;
}

static void kr_collect(const struct kr_ctx *c, pid_t pid, int report_fd,
		       struct knob_row *row)
{
	struct kr_report rep;
	double end = kr_now() + (KR_WRITER_TIMEOUT_MS + row->delay_ms) / 1e3;

	while (!*c->stop && kr_now() < end && !kr_readable(report_fd, 100))
		;
	if (kr_readable(report_fd, 0) &&
	    read(report_fd, &rep, sizeof(rep)) == sizeof(rep)) {
		row->write_done = true;
		row->write_result = rep.result;
		row->write_start_s = rep.start_s;
		row->write_end_s = rep.end_s;
	} else {
		kill(pid, SIGKILL);
	}
	close(report_fd);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
}

static void kr_mark_dmesg(const struct kr_ctx *c, char *marker, size_t len)
{
	snprintf(marker, len, SC_DMESG_MARKER_FMT, c->sc->id,
		 (unsigned long long)(kr_now() * 1e6));
	if (!kmsg_mark(marker))
		marker[0] = '\0';
}

static void kr_check_dmesg(const char *marker, struct knob_row *row)
{
	char *log = marker[0] ? kmsg_read_all() : NULL;

	/* Lockdep's cycle reports: the session holds them to its own. */
	if (log)
		row->dmesg_splat = sc_dmesg_splat(log, marker,
						  SC_DMESG_CYCLES_JUDGED,
						  row->dmesg_line,
						  sizeof(row->dmesg_line));
	free(log);
}

/* One delay.  Returns -1 (with reason) when the run cannot go on, 0 when
 * the row is measured, whatever it shows. */
static int kr_one(const struct kr_ctx *c, struct knob_row *row,
		  char *reason, size_t len)
{
	char marker[128];
	int err, report_fd;
	pid_t pid;

	err = kr_load(c);
	if (err) {
		snprintf(reason, len, "failed to load %s (%s): %s", c->ko_path,
			 c->params, strerror(-err));
		return -1;
	}
	if (access(KR_PARAM_FILE, F_OK)) {
		kr_unload();
		snprintf(reason, len, "%s has no enable_completion_on_rmmod: "
			 "it was built against a kernel without the knobs; "
			 "build it against this one", c->ko_path);
		return -1;
	}
	if (access(c->target, F_OK)) {
		kr_unload();
		snprintf(reason, len, "%s does not exist", c->target);
		return -1;
	}
	kr_mark_dmesg(c, marker, sizeof(marker));
	err = kr_arm(c, row->delay_ms);
	if (err) {
		kr_disarm(c);
		kr_unload();
		return kr_fail(reason, len, "failed to arm the kernfs knobs",
			       err);
	}
	pid = kr_start_writer(c->target, &report_fd);
	if (pid < 0) {
		err = -errno;
		kr_disarm(c);
		kr_unload();
		return kr_fail(reason, len, "failed to start the writer", err);
	}
	row->fired = kr_wait_fired(c, report_fd);
	row->rmmod_start_s = kr_now();
	row->rmmod_err = kr_unload();
	row->rmmod_end_s = kr_now();
	kr_disarm(c);
	kr_collect(c, pid, report_fd, row);
	kr_check_dmesg(marker, row);
	return 0;
}

static void kr_setup(struct kr_ctx *c, const struct sc_scenario *sc,
		     const char *ko_path, bool fixed,
		     const struct so_options *opts)
{
	size_t n;
	unsigned int i;

	c->sc = sc;
	c->ko_path = ko_path;
	c->ex.wait_knob = sc->wait_knob;
	c->ex.fixed = fixed;
	c->ex.write_len = (long long)strlen(KR_VALUE);
	snprintf(c->target, sizeof(c->target), "%s/%s",
		 sc_device_dir(sc->devtype), sc->target);
	n = snprintf(c->params, sizeof(c->params),
		     "devtype=%d enable_completion_on_rmmod=1%s",
		     sc->devtype == SC_DEV_BLOCK,
		     fixed ? " enable_try_module_get=1" : "");
	for (i = 0; i < opts->nr_params && n < sizeof(c->params); i++)
		n += snprintf(c->params + n, sizeof(c->params) - n, " %s",
			      opts->params[i]);
}

bool knob_race_supported(char *reason, size_t len)
{
	return knobfs_detect(reason, len);
}

enum sc_result knob_race_run(const struct sc_scenario *sc,
			     const char *ko_path, bool fixed,
			     const struct so_options *opts,
			     volatile sig_atomic_t *stop, char *reason,
			     size_t len)
{
	struct knob_row rows[KNOB_RACE_NR_DELAYS];
	enum sc_result res = SC_PASS;
	struct knob_state saved;
	struct kr_ctx c = { .stop = stop };
	char why[256];
	size_t i, nr = 0;
	int err;

	reason[0] = '\0';
	knobfs_read(&saved);
	if (!saved.present) {
		snprintf(reason, len, "%s", saved.reason);
		return SC_SKIP;
	}
	kr_setup(&c, sc, ko_path, fixed, opts);
	knob_table_header(stdout, sc->id, &c.ex);
	memset(rows, 0, sizeof(rows));
	for (i = 0; i < KNOB_RACE_NR_DELAYS && !*stop; i++, nr++) {
		rows[i].delay_ms = knob_race_delays_ms[i];
		if (kr_one(&c, &rows[i], reason, len)) {
			res = SC_FAIL;
			break;
		}
		if (knob_row_check(&rows[i], &c.ex, why, sizeof(why))) {
			knob_table_row(stdout, sc->id, &rows[i], "ok");
		} else {
			knob_table_row(stdout, sc->id, &rows[i], why);
			if (res == SC_PASS)
				snprintf(reason, len, "delay %u ms: %s",
					 rows[i].delay_ms, why);
			res = SC_FAIL;
		}
		fflush(stdout);
	}
	knob_table_footer(stdout, sc->id, rows, nr, &c.ex);
	kr_disarm(&c);
	kr_unload();
	err = knobfs_restore(&saved);
	if (err) {
		snprintf(reason, len, "failed to restore the kernfs knobs: %s",
			 strerror(-err));
		res = SC_FAIL;
	}
	if (*stop && res == SC_PASS) {
		snprintf(reason, len, "interrupted");
		res = SC_FAIL;
	}
	return res;
}
