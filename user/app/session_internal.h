/* SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1 */
/*
 * What the files of the live session share and nobody else needs: the
 * observer, one session's state, and the steps each file provides.  The
 * public face is session.h; this stays inside user/app/.
 */
#ifndef SO_SESSION_INTERNAL_H
#define SO_SESSION_INTERNAL_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>
#include "cli/options.h"
#include "app/session.h"

struct so_loader;

/* signals.c: Ctrl-C and SIGTERM end the session (session_interrupted()),
 * a closed reader does not kill us. */
void signals_catch(void);

/* driver.c: the watched workload child and its end. */
struct driver {
	session_driver_fn fn;	/* NULL: no workload of ours */
	void *ctx;
	bool own;		/* ours, not --attach's command: piped */
	pid_t child;		/* -1 once reaped, stopped or left */
	int out;		/* its stdout and stderr, or -1 */
	FILE *to;		/* where its output goes */
	int status;		/* as waitpid() gave it */
	int rc, sig;		/* its exit code, the signal that killed it */
};

/* fn NULL with --attach CMD runs CMD. */
void driver_init(struct driver *d, const struct so_options *opts,
		 session_driver_fn fn, void *ctx);
/* Forks and watches it (nothing without fn); -1 with errno. */
int driver_start(struct driver *d, struct so_loader *l);
void driver_copy_output(struct driver *d);
/* Whether it ended by itself (reaped). */
bool driver_exited(struct driver *d);
/* Stops it (unless a deadlock holds it) and reads its status. */
void driver_finish(struct driver *d, bool deadlock);
/* Says how it ended, and returns `rc` with its status folded in. */
int driver_verdict(const struct driver *d, int rc);
/* On the way out of a session that failed early. */
void driver_release(struct driver *d);

#endif /* SO_SESSION_INTERNAL_H */
