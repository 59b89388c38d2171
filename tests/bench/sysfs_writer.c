// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * so-bench-writer FILE THREADS SECONDS: write "1\n" to a sysfs attribute
 * from THREADS threads for SECONDS and print writes per second.  A shell
 * loop measures fork+exec, not kernfs; this measures the write path.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static const char *path;
static atomic_ulong total_writes, total_errors;
static atomic_bool stop;

static void *writer(void *unused)
{
	unsigned long writes = 0, errors = 0;
	int fd = open(path, O_WRONLY);

	if (fd < 0) {
		perror(path);
		return NULL;
	}
	while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
		if (pwrite(fd, "1\n", 2, 0) == 2)
			writes++;
		else
			errors++;
	}
	close(fd);
	atomic_fetch_add(&total_writes, writes);
	atomic_fetch_add(&total_errors, errors);
	return unused;
}

int main(int argc, char **argv)
{
	pthread_t tids[64];
	struct timespec t0, t1;
	int nthreads, i;
	double secs, elapsed;

	if (argc != 4) {
		fprintf(stderr, "usage: so-bench-writer FILE THREADS SECONDS\n");
		return 2;
	}
	path = argv[1];
	nthreads = atoi(argv[2]);
	secs = atof(argv[3]);
	if (nthreads < 1 || nthreads > 64 || secs <= 0) {
		fprintf(stderr, "so-bench-writer: THREADS 1..64, SECONDS > 0\n");
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < nthreads; i++)
		pthread_create(&tids[i], NULL, writer, NULL);
	usleep((useconds_t)(secs * 1e6));
	atomic_store(&stop, true);
	for (i = 0; i < nthreads; i++)
		pthread_join(tids[i], NULL);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	elapsed = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	printf("writes %lu errors %lu seconds %.2f writes/s %.0f\n",
	       (unsigned long)total_writes, (unsigned long)total_errors,
	       elapsed, total_writes / elapsed);
	return total_writes ? 0 : 1;
}
