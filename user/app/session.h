/* SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1 */
/*
 * A live observation: the loader feeding the pipeline (stream, trace
 * file, stats, findings) until Ctrl-C, --duration, the observed command's
 * exit, or a deadlock; then the summary.  `--attach` and `record` use it,
 * and so will the scenario runner.
 */
#ifndef SO_SESSION_H
#define SO_SESSION_H

#include <stdbool.h>
#include "cli/options.h"

/*
 * What the session observes besides whatever runs: a driver function run
 * in a forked, watched child process (so its module loads, writes and the
 * processes it forks are all in context, while the observer's own tasks
 * never are).  It returns the child's exit status, a kselftest code.  On
 * Ctrl-C or SIGTERM the child gets SIGTERM and must stop its loops,
 * unload what it loaded and restore what it changed, then exit.
 */
typedef int (*session_driver_fn)(void *ctx);

/* Returns the kselftest exit status: the worse of the verdict and the
 * driver's (or --attach command's) status. */
int session_run(const struct so_options *opts, session_driver_fn driver,
		void *driver_ctx);

/*
 * Several sessions on one loaded BPF object: loading, verifying and
 * attaching takes seconds under TCG, detaching as long again, so the
 * runner pays it once for `--test all`.  Every session starts from an
 * empty edge table, held sets and counters: verdicts stay per session.
 */
struct so_observer;

/* NULL with the reason printed and *rc set to a kselftest code. */
struct so_observer *observer_open(const struct so_options *opts, int *rc);
int observer_session(struct so_observer *obs, const struct so_options *opts,
		     session_driver_fn driver, void *driver_ctx);
/* A session ended in a deadlock: a task sleeps inside a traced function
 * for good.  The caller prints what it has and calls observer_abandon(). */
bool observer_wedged(const struct so_observer *obs);
/* Exit with `rc` leaving the links to the kernel: detaching would wait
 * for the blocked task. */
_Noreturn void observer_abandon(int rc);
void observer_close(struct so_observer *obs);

/* Whether Ctrl-C or SIGTERM ended a session: a runner of several
 * sessions then stops. */
bool session_interrupted(void);

#endif /* SO_SESSION_H */
