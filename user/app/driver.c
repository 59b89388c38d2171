// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * The session's workload: a forked, watched child running the driver
 * function (or the --attach command), its output copied to ours, and its
 * end: SIGTERM, a bounded wait, SIGKILL, and what its status says.  A
 * process of its own with its own failure modes (it may ignore SIGTERM,
 * hang in the kernel, or hold our stdout), kept apart from the observer.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "lib/exit_codes.h"
#include "kernel/loader.h"
#include "app/session.h"
#include "app/session_internal.h"

static int exec_command(void *ctx)
{
	char **argv = ctx;

	execvp(argv[0], argv);
	fprintf(stderr, "sysfs-observe: failed to run %s: %s\n", argv[0],
		strerror(errno));
	return 127;
}

void driver_init(struct driver *d, const struct so_options *opts,
		 session_driver_fn fn, void *ctx)
{
	d->fn = fn;
	d->ctx = ctx;
	d->own = fn != NULL;
	d->child = -1;
	d->out = -1;
	d->status = 0;
	d->rc = 0;
	d->sig = 0;
	/* Under JSON stdout carries the JSON alone (KTAP's driver lines
	 * are its own). */
	d->to = opts->format == SO_FMT_JSON ? stderr : stdout;
	if (!fn && opts->command) {
		d->fn = exec_command;
		d->ctx = opts->command;
	}
}

/*
 * Start the driver held until it is watched, so its first write counts.
 * With `out` its stdout and stderr are a pipe we copy to ours: a driver
 * stuck in the kernel for good (a real deadlock) must not keep holding
 * our stdout open, or `sysfs-observe --test 0028 | tee log` would never
 * end although we do.  An --attach command keeps the terminal.
 */
static pid_t start_driver(struct so_loader *l, session_driver_fn fn,
			  void *ctx, int *out)
{
	int go[2], po[2] = { -1, -1 };
	pid_t pid;
	char c;

	if (pipe(go))
		return -1;
	if (out && pipe2(po, O_CLOEXEC)) {
		close(go[0]);
		close(go[1]);
		return -1;
	}
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		close(go[1]);
		if (out && (dup2(po[1], STDOUT_FILENO) < 0 ||
			    dup2(po[1], STDERR_FILENO) < 0))
			_exit(127);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		if (read(go[0], &c, 1) != 1)
			_exit(127);
		close(go[0]);
		setpgid(0, 0);	/* Ctrl-C goes to us; we pass it on */
		_exit(fn(ctx));
	}
	close(go[0]);
	if (out) {
		close(po[1]);
		*out = po[0];
		if (pid < 0) {
			close(po[0]);
			*out = -1;
		} else {
			fcntl(po[0], F_SETFL, O_NONBLOCK);
		}
	}
	if (pid > 0)
		loader_watch_tgid(l, pid);
	if (write(go[1], "g", 1) != 1)
		pid = -1;
	close(go[1]);
	return pid;
}

int driver_start(struct driver *d, struct so_loader *l)
{
	if (!d->fn)
		return 0;
	d->child = start_driver(l, d->fn, d->ctx, d->own ? &d->out : NULL);
	return d->child < 0 ? -1 : 0;
}

/* Copy what the driver printed so far to `to`; -1 once it closed its
 * end. */
static int copy_driver_output(int fd, FILE *to)
{
	char buf[4096];
	ssize_t n;

	while (fd >= 0) {
		n = read(fd, buf, sizeof(buf));
		if (n > 0) {
			fflush(to);
			if (write(fileno(to), buf, n) != n)
				break;
			continue;
		}
		if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
			close(fd);
			return -1;
		}
		if (errno == EAGAIN)
			break;
	}
	return fd;
}

void driver_copy_output(struct driver *d)
{
	d->out = copy_driver_output(d->out, d->to);
}

bool driver_exited(struct driver *d)
{
	if (d->child > 0 && waitpid(d->child, &d->status, WNOHANG) ==
			    d->child) {
		d->child = -1;
		return true;
	}
	return false;
}

/* Ctrl-C, --duration or a failure: SIGTERM the driver's process group
 * (it cleans up), wait a bounded time, then SIGKILL. */
static void stop_driver(pid_t child, int *status)
{
	int i;

	kill(-child, SIGTERM);
	kill(child, SIGTERM);
	for (i = 0; i < 300; i++) {	/* 30 s: a module unload under TCG */
		if (waitpid(child, status, WNOHANG) == child)
			return;
		usleep(100000);
	}
	fprintf(stderr, "sysfs-observe: warning: the workload did not stop "
		"in 30 s; killed\n");
	kill(-child, SIGKILL);
	waitpid(child, status, 0);
}

void driver_finish(struct driver *d, bool deadlock)
{
	if (!deadlock && d->child > 0)
		stop_driver(d->child, &d->status);
	/* After a deadlock it stays as it is: the blocked task and its
	 * workload are left to observer_abandon(). */
	d->child = -1;
	/* Its last lines (a loop child may still hold the pipe: take what
	 * is there, do not wait for its end). */
	driver_copy_output(d);
	if (WIFEXITED(d->status))
		d->rc = WEXITSTATUS(d->status);
	else if (d->fn)
		d->rc = SO_EXIT_FAIL;
	if (d->fn && WIFSIGNALED(d->status))
		d->sig = WTERMSIG(d->status);
}

/* The session's exit status `rc` with the driver's folded in. */
int driver_verdict(const struct driver *d, int rc)
{
	if (d->fn && d->sig && !session_interrupted())
		fprintf(d->to, "# the observed workload was killed by signal "
			"%d (%s)\n", d->sig, sigabbrev_np(d->sig) ?
			sigabbrev_np(d->sig) : "?");
	else if (d->fn && d->rc && !session_interrupted())
		fprintf(d->to, "# the observed workload exited with status "
			"%d\n", d->rc);
	/* kselftest: fail beats skip beats pass. */
	if (rc != SO_EXIT_FAIL && d->fn && d->rc)
		rc = d->rc == SO_EXIT_SKIP ? SO_EXIT_SKIP : SO_EXIT_FAIL;
	return rc;
}

void driver_release(struct driver *d)
{
	if (d->child > 0)
		stop_driver(d->child, &d->status);
	if (d->out >= 0)
		close(d->out);
}
