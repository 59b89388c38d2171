// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * The workloads of one scenario run: sysfs reads and writes as sysfs.sh
 * makes them, the numeric checks, and the loops (writers, modprobe,
 * reset) forked for the race window.  Only the driver child and its
 * children run this; the observer never writes to sysfs.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "kernel/debugfs_mount.h"
#include "kernel/module_sys.h"
#include "app/runner_internal.h"

#define SC_RESET_FILE	DEBUGFS_DIR "/test_sysfs/reset_first_test_dev"
#define SC_WRITER_PAUSE_US	200	/* a C loop outruns bash's by far */

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
		if (module_sys_load(run->ko_path, params))
			usleep(1000);
		if (module_sys_unload(SC_MODULE))
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
		module_sys_unload(SC_MODULE);
	return 0;
}

int sc_run_once(struct sc_run *run, const struct sc_scenario *sc)
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
