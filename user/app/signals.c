// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * How Ctrl-C and SIGTERM end a session.  Apart from the session: the
 * flag they set outlives any one session (a runner of several stops on
 * it), and a handler may touch only what is async-signal-safe.
 */
#include <signal.h>
#include <unistd.h>
#include "app/session.h"
#include "app/session_internal.h"

static volatile sig_atomic_t exiting, nr_signals;

/*
 * The first Ctrl-C (or SIGTERM) ends the session; teardown then stops
 * the workload, detaches, restores the knobs and closes the trace, which
 * takes seconds.  A second one is held off, saying so: dying there would
 * leave the kernfs knobs armed and the trace without its trailer.  A
 * third kills.
 */
static void on_signal(int sig)
{
	static const char held[] = "\nsysfs-observe: stopping: restoring "
		"the knobs and closing the trace first (again to kill)\n";

	exiting = 1;
	if (++nr_signals == 2) {
		if (write(STDERR_FILENO, held, sizeof(held) - 1) < 0)
			return;
	} else if (nr_signals > 2) {
		signal(sig, SIG_DFL);
		raise(sig);
	}
}

void signals_catch(void)
{
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGPIPE, SIG_IGN);
}

bool session_interrupted(void)
{
	return exiting;
}
