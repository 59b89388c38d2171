// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * so-bench-pipe SECONDS: two processes bounce one byte over two pipes for
 * SECONDS and print round trips per second.  Every read and write takes
 * the pipe's mutex, and nothing here is an observed context: the figure
 * is what the observer costs the work it was not asked to watch.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	int ping[2], pong[2];
	unsigned long trips = 0;
	double secs, t0, t1;
	char byte = 'x';
	pid_t child;

	secs = argc == 2 ? atof(argv[1]) : 0;
	if (secs <= 0) {
		fprintf(stderr, "usage: so-bench-pipe SECONDS\n");
		return 2;
	}
	if (pipe(ping) || pipe(pong)) {
		perror("so-bench-pipe: pipe");
		return 1;
	}
	child = fork();
	if (child < 0) {
		perror("so-bench-pipe: fork");
		return 1;
	}
	if (child == 0) {
		/* Echo until the parent closes its end; our copy of that
		 * end must go first, or read() never sees EOF. */
		close(ping[1]);
		close(pong[0]);
		while (read(ping[0], &byte, 1) == 1)
			if (write(pong[1], &byte, 1) != 1)
				break;
		_exit(0);
	}
	close(ping[0]);
	close(pong[1]);
	t0 = now_s();
	do {
		/* Check the clock every 256 trips: it is slow under TCG. */
		for (int i = 0; i < 256; i++) {
			if (write(ping[1], &byte, 1) != 1 ||
			    read(pong[0], &byte, 1) != 1) {
				perror("so-bench-pipe: ping-pong");
				return 1;
			}
		}
		trips += 256;
		t1 = now_s();
	} while (t1 - t0 < secs);
	close(ping[1]);
	waitpid(child, NULL, 0);
	printf("trips %lu seconds %.2f trips/s %.0f\n", trips, t1 - t0,
	       trips / (t1 - t0));
	return 0;
}
