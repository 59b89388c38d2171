// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * so-bench-floor [--no-lock-exit]: attach floor.bpf.c's empty programs,
 * say so on stderr (the bench waits for that line as it does for
 * sysfs-observe's), and hold them until SIGINT or SIGTERM.
 *
 * --no-lock-exit leaves out the program on mutex_lock's exit: the floor
 * of `sysfs-observe -q`, which on kernels with the contention
 * tracepoints takes a lock at mutex_lock's entry and attaches no exit
 * there (the loader's loader_set_lock_exits()).
 */
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/libbpf.h>
#include "floor.skel.h"

static volatile sig_atomic_t exiting;

static void on_signal(int sig)
{
	exiting = 1;
	(void)sig;
}

int main(int argc, char **argv)
{
	bool lock_exit = !(argc > 1 && !strcmp(argv[1], "--no-lock-exit"));
	struct floor_bpf *skel;
	int err;

	if (argc > 2 || (argc == 2 && lock_exit)) {
		fprintf(stderr, "usage: so-bench-floor [--no-lock-exit]\n");
		return 2;
	}
	skel = floor_bpf__open();
	if (skel) {
		bpf_program__set_autoload(skel->progs.floor_mutex_lock_exit,
					  lock_exit);
		if (floor_bpf__load(skel)) {
			floor_bpf__destroy(skel);
			skel = NULL;
		}
	}
	if (!skel) {
		fprintf(stderr, "so-bench-floor: failed to load the floor\n");
		return 4;
	}
	err = floor_bpf__attach(skel);
	if (err) {
		fprintf(stderr, "so-bench-floor: failed to attach: %d\n", err);
		floor_bpf__destroy(skel);
		return 4;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	fprintf(stderr, "so-bench-floor: observing (%d programs)\n",
		lock_exit ? 7 : 6);
	while (!exiting)
		pause();
	floor_bpf__destroy(skel);
	return 0;
}
