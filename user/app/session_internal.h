/* SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1 */
/*
 * What the files of the live session share and nobody else needs: the
 * observer, one session's state, and the steps each file provides.  The
 * public face is session.h; this stays inside user/app/.
 */
#ifndef SO_SESSION_INTERNAL_H
#define SO_SESSION_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <time.h>
#include "cli/options.h"
#include "kernel/loader.h"
#include "app/findings.h"
#include "app/module_syms.h"
#include "app/pipeline.h"
#include "app/session.h"
#include "trace/trace_file.h"

/* The session's clock: events, deadlines and findings all use it. */
static inline uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

struct live;

struct so_observer {
	struct so_loader loader;
	struct loader_opts lopts;
	struct live *cur;	/* the session the ring buffer feeds */
	bool wedged;
	/* record: one file for every session (every test of --test all) */
	FILE *trace;
	struct tf_writer writer;
};

/* driver.c: the watched workload child and its end. */
struct driver {
	session_driver_fn fn;	/* NULL: no workload of ours */
	void *ctx;
	bool own;		/* ours, not --attach's command: piped */
	pid_t child;		/* -1 once reaped, stopped or left */
	int out;		/* its stdout and stderr, or -1 */
	FILE *to;		/* where its output goes */
	int status;		/* as waitpid() gave it */
	int rc;			/* its exit code */
	int sig;		/* the signal that killed it, or 0 */
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

struct live {
	struct so_observer *obs;
	struct so_pipeline pipeline;
	struct so_stream stream;
	struct so_stats stats;
	struct so_findings findings;
	struct so_session_info info;
	struct so_session_end end;
	struct ksyms *ksyms;
	struct so_names *names;
	struct module_syms module_syms;	/* a background read of them */
	uint64_t ksyms_ns;	/* the last read of module symbols began */
	uint64_t scan_ns;	/* last scan_tasks() */
	bool scan_warned;
	uint64_t drops_seen;	/* ring-buffer drops at the last look */
	uint64_t drops_ns;	/* when they last grew */
	uint64_t drops_check_ns;
	uint64_t recover_before_ns; /* edges newer may still be in the ring */
	struct driver drv;
	uint64_t deadline;	/* --duration's end, or 0 */
	bool deadlock;		/* what ended the loop */
	FILE *side;		/* live lines: stdout, unless JSON or KTAP */
	FILE *svg;		/* --svg, opened before anything runs */
	char kmarker[96];	/* where the workload's kernel log begins */
};

/* live.c: one session's state, from its symbols to its header. */
int live_setup(struct live *lv, const struct so_options *opts);
/* Once attached and reset: what the header says of the kernel side. */
void live_describe(struct live *lv, const struct so_options *opts);
void live_teardown(struct live *lv);
/* Module symbols: read in the background after a load, taken in once
 * read; read at once (the end of a session). */
void live_module_ksyms_start(struct live *lv);
void live_module_ksyms_take(struct live *lv, bool wait);
void live_add_module_ksyms(struct live *lv);

/* event_loop.c: the loader's on_record, ctx the observer. */
int event_loop_feed(void *ctx, const void *rec, size_t len);
/* Until Ctrl-C, --duration, the driver's exit, a closed reader or a
 * deadlock (true). */
bool event_loop_run(struct so_observer *obs, struct live *lv);
/* After the loop: the driver stopped, the ring buffer and the kernel's
 * tables read to the end. */
void event_loop_drain(struct so_observer *obs, struct live *lv);

/* verdict.c: the summary and the rest of the session's output; returns
 * the exit code, the driver's status folded in. */
int verdict_judge(struct live *lv, const struct so_options *opts);

/* signals.c: Ctrl-C and SIGTERM end the session (session_interrupted()),
 * a closed reader does not kill us. */
void signals_catch(void);

#endif /* SO_SESSION_INTERNAL_H */
