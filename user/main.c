// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * sysfs-observe: entry point.  Interim driver while the pipeline, the
 * report and the runner land: --attach with a raw event stream.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "observe.h"
#include "kernel/loader.h"

static volatile sig_atomic_t exiting;

static void on_signal(int sig)
{
	exiting = 1;
	signal(sig, SIG_DFL);	/* a second Ctrl-C kills */
}

static int print_record(void *ctx, const void *rec, size_t len)
{
	const struct so_event *ev = rec;
	int *quiet = ctx;

	if (len < sizeof(*ev) || *quiet)
		return 0;
	printf("%llu.%06llu %u %s/%u type=%u obj=%llx class=%llx arg=%llu "
	       "ret=%lld name=%s\n",
	       (unsigned long long)(ev->ts_ns / 1000000000ULL),
	       (unsigned long long)(ev->ts_ns % 1000000000ULL / 1000),
	       ev->cpu, ev->comm, ev->tid, ev->type,
	       (unsigned long long)ev->obj, (unsigned long long)ev->class_id,
	       (unsigned long long)ev->arg, (long long)ev->ret, ev->name);
	if (ev->type == SO_EV_EDGE && len >= sizeof(struct so_edge_event)) {
		const struct so_edge_event *ee = rec;

		printf("  edge %s(%u) -> %s(%u) gates=%llx going=%llx\n",
		       ee->ev.name, ee->val.from_mode, ee->to_name,
		       ee->val.to_mode,
		       (unsigned long long)ee->val.gates[0],
		       (unsigned long long)ee->val.going);
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct loader_opts opts = { .emit_events = true };
	uint64_t cnt[SO_CNT_NR];
	struct so_loader l;
	double duration = 0;
	int quiet = 0, rc, i, cmd_at = 0;
	pid_t child = -1;
	struct timespec t0, t;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--version")) {
			printf("sysfs-observe 0.1\n");
			return 0;
		} else if (!strcmp(argv[i], "--attach")) {
			continue;
		} else if (!strcmp(argv[i], "--duration") && i + 1 < argc) {
			duration = atof(argv[++i]);
		} else if (!strcmp(argv[i], "-q")) {
			quiet = 1;
		} else if (!strcmp(argv[i], "-v")) {
			opts.verbose++;
		} else if (!strcmp(argv[i], "--")) {
			cmd_at = i + 1;
			break;
		}
	}
	opts.on_record = print_record;
	opts.record_ctx = &quiet;
	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);

	rc = loader_start(&l, &opts);
	if (rc)
		return rc;
	if (opts.verbose)
		loader_print_probes(&l, stderr);
	if (cmd_at && cmd_at < argc) {
		child = fork();
		if (child == 0) {
			execvp(argv[cmd_at], argv + cmd_at);
			fprintf(stderr, "sysfs-observe: failed to run %s: %s\n",
				argv[cmd_at], strerror(errno));
			_exit(127);
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (!exiting) {
		int err = loader_poll(&l, 100);

		if (err < 0 && err != -EINTR) {
			fprintf(stderr, "sysfs-observe: failed to poll the "
				"ring buffer: %s\n", strerror(-err));
			break;
		}
		if (child > 0 && waitpid(child, NULL, WNOHANG) == child)
			break;
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (duration > 0 && (t.tv_sec - t0.tv_sec) +
		    (t.tv_nsec - t0.tv_nsec) / 1e9 >= duration)
			break;
	}
	loader_poll(&l, 0);
	loader_counters(&l, cnt);
	printf("kernfs writes: %llu\n",
	       (unsigned long long)cnt[SO_CNT_KERNFS_WRITE]);
	printf("events: %llu, ring buffer drops: %llu, held-set full: %llu, "
	       "edge table full: %llu, task table full: %llu\n",
	       (unsigned long long)cnt[SO_CNT_EVENTS],
	       (unsigned long long)cnt[SO_CNT_RB_DROPS],
	       (unsigned long long)cnt[SO_CNT_HELD_FULL],
	       (unsigned long long)cnt[SO_CNT_EDGE_FULL],
	       (unsigned long long)cnt[SO_CNT_TASK_FULL]);
	loader_stop(&l, false);
	return 0;
}
