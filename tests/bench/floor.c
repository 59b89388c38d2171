// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * so-bench-floor: attach floor.bpf.c's empty programs, say so on stderr
 * (the bench waits for that line as it does for sysfs-observe's), and
 * hold them until SIGINT or SIGTERM.
 */
#include <signal.h>
#include <stdio.h>
#include <unistd.h>
#include <bpf/libbpf.h>
#include "floor.skel.h"

static volatile sig_atomic_t exiting;

static void on_signal(int sig)
{
	exiting = 1;
	(void)sig;
}

int main(void)
{
	struct floor_bpf *skel;
	int err;

	skel = floor_bpf__open_and_load();
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
	fprintf(stderr, "so-bench-floor: observing (7 programs)\n");
	while (!exiting)
		pause();
	floor_bpf__destroy(skel);
	return 0;
}
