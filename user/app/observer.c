// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * The observer's lifecycle (open, sessions, close or abandon) and one
 * session's steps in order.  The steps' parts live elsewhere (live.c,
 * event_loop.c, driver.c, verdict.c): here is only what happens when,
 * and what a failed step costs, so the order can be read in one place.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "lib/exit_codes.h"
#include "lib/files.h"
#include "kernel/kmsg.h"
#include "kernel/knobfs.h"
#include "kernel/loader.h"
#include "app/session.h"
#include "app/session_internal.h"
#include "trace/trace_file.h"

struct so_observer *observer_open(const struct so_options *opts, int *rc)
{
	struct so_observer *obs = calloc(1, sizeof(*obs));

	*rc = SO_EXIT_FAIL;
	if (!obs) {
		fprintf(stderr, "sysfs-observe: failed to set up: out of "
			"memory\n");
		return NULL;
	}
	obs->lopts.emit_events = true;
	/* Summary only: what the summary only counts is counted in the
	 * kernel, not sent (a recording keeps every event: `report`
	 * rebuilds from them). */
	obs->lopts.aggregate = opts->quiet &&
			       opts->subcommand != SO_SUB_RECORD;
	obs->lopts.wait_stacks = opts->subcommand == SO_SUB_RECORD;
	obs->lopts.ringbuf_kib = opts->ringbuf_kib;
	obs->lopts.map_nr_entries = opts->map_nr_entries;
	obs->lopts.module = opts->module;
	obs->lopts.path_filter = opts->path_filter;
	obs->lopts.verbose = opts->verbosity;
	obs->lopts.on_record = event_loop_feed;
	obs->lopts.record_ctx = obs;
	*rc = loader_start(&obs->loader, &obs->lopts);
	if (*rc) {
		/* A failed start detaches what it attached; if that still
		 * waits, its thread holds obs: leave, do not free. */
		if (obs->loader.detach_pending)
			observer_abandon(*rc);
		free(obs);
		return NULL;
	}
	if (opts->verbosity)
		loader_print_probes(&obs->loader, stderr);
	return obs;
}

bool observer_wedged(const struct so_observer *obs)
{
	return obs->wedged;
}

_Noreturn void observer_abandon(int rc)
{
	fflush(NULL);
	_exit(rc);
}

void observer_close(struct so_observer *obs)
{
	if (!obs)
		return;
	if (obs->trace && fclose(obs->trace))
		fprintf(stderr, "sysfs-observe: failed to write the trace "
			"file: %s\n", strerror(errno));
	obs->trace = NULL;
	if (!loader_stop(&obs->loader, obs->wedged))
		observer_abandon(SO_EXIT_FAIL);
	free(obs);
}

/* Set up and reset: the session starts from empty tables.  0, or the
 * exit code with the reason said. */
static int session_prepare(struct so_observer *obs, struct live *lv,
			   const struct so_options *opts)
{
	int err;

	if (live_setup(lv, opts)) {
		fprintf(stderr, "sysfs-observe: failed to set up: out of "
			"memory\n");
		return SO_EXIT_FAIL;
	}
	lv->findings.wf_from_scans = obs->loader.aggregate;
	/* What the previous session left: its edges, held sets, counts. */
	err = loader_reset(&obs->loader);
	if (err) {
		fprintf(stderr, "sysfs-observe: failed to reset the BPF "
			"maps between sessions: %s\n", strerror(-err));
		return SO_EXIT_FAIL;
	}
	obs->cur = lv;
	live_describe(lv, opts);
	if (opts->pid && loader_watch_tgid(&obs->loader, opts->pid))
		fprintf(stderr, "sysfs-observe: warning: cannot watch pid "
			"%u\n", opts->pid);
	return 0;
}

/* record: the trace file's next session, or the file itself. */
static int session_open_trace(struct so_observer *obs, struct live *lv,
			      const struct so_options *opts)
{
	const char *path = opts->output ? opts->output : SO_DEFAULT_TRACE;

	/* 0600, no symlink followed: it holds kernel addresses.
	 * Opened once: the observer's later sessions follow. */
	if (obs->trace) {
		if (tf_writer_session(&obs->writer, &lv->info)) {
			fprintf(stderr, "sysfs-observe: failed to write %s: "
				"%s\n", path, strerror(errno));
			return SO_EXIT_USAGE;
		}
	} else if (!(obs->trace = files_open_output(path)) ||
		   tf_writer_open(&obs->writer, obs->trace, &lv->info)) {
		fprintf(stderr, "sysfs-observe: failed to create %s: %s\n",
			path, files_open_error(errno));
		return SO_EXIT_USAGE;
	}
	lv->pipeline.writer = &obs->writer;
	return 0;
}

static int session_open_files(struct so_observer *obs, struct live *lv,
			      const struct so_options *opts)
{
	int rc;

	if (opts->subcommand == SO_SUB_RECORD) {
		rc = session_open_trace(obs, lv, opts);
		if (rc)
			return rc;
	}
	/* The picture's file: created now, so that a bad path is exit 2
	 * before anything runs, not after. */
	if (opts->svg && !(lv->svg = files_open_output(opts->svg))) {
		fprintf(stderr, "sysfs-observe: failed to create %s: %s\n",
			opts->svg, files_open_error(errno));
		return SO_EXIT_USAGE;
	}
	return 0;
}

/* The stream or the quiet live lines, the deadline, the kernel log's
 * marker, then the workload. */
static int session_start(struct so_observer *obs, struct live *lv,
			 const struct so_options *opts)
{
	uint64_t t0 = lv->info.start_mono_ns;

	if (!opts->quiet) {
		stream_init(&lv->stream, lv->side, lv->names,
			    isatty(fileno(lv->side)), t0);
		lv->stream.all = opts->verbosity > 0;
		lv->pipeline.stream = &lv->stream;
		lv->findings.stream = &lv->stream;
		stream_header(&lv->stream);
	} else {
		lv->findings.live = lv->side;
	}
	if (opts->duration_s > 0)
		lv->deadline = t0 + (uint64_t)(opts->duration_s * 1e9);
	/* Where the workload's part of the kernel log begins. */
	if (lv->drv.fn) {
		snprintf(lv->kmarker, sizeof(lv->kmarker), "sysfs-observe: "
			 "session %s at %llu",
			 opts->test ? opts->test : "(attach)",
			 (unsigned long long)mono_ns());
		if (!kmsg_mark(lv->kmarker))
			lv->kmarker[0] = '\0';
	}
	if (driver_start(&lv->drv, &obs->loader)) {
		fprintf(stderr, "sysfs-observe: failed to start the "
			"workload: %s\n", strerror(errno));
		return SO_EXIT_FAIL;
	}
	/*
	 * Attached, reset, the workload (if any) started: from here on
	 * what runs is seen.  Scripts that start `--attach &` wait for this
	 * line instead of guessing how long loading takes (seconds under
	 * TCG); stderr, so that it never mixes with the stream or summary.
	 */
	if (opts->action == SO_ACT_ATTACH) {
		fprintf(stderr, "sysfs-observe: observing (%zu probes); "
			"Ctrl-C to stop\n", loader_nr_attached(&obs->loader));
		fflush(stderr);
	}
	return 0;
}

/* The last module symbols, the end time, the trace file's trailer. */
static void session_finish(struct so_observer *obs, struct live *lv,
			   const struct so_options *opts)
{
	live_add_module_ksyms(lv);
	lv->end.end_mono_ns = mono_ns();
	if (opts->subcommand != SO_SUB_RECORD)
		return;
	lv->end.nr_events = obs->writer.nr_events;
	pipeline_write_ksyms(&lv->pipeline, lv->ksyms);
	lv->end.nr_stacks = obs->writer.nr_stacks;
	lv->end.nr_ksyms = obs->writer.nr_ksyms;
	if (tf_writer_close(&obs->writer, &lv->end))
		fprintf(stderr, "sysfs-observe: failed to write the trace "
			"file: %s\n", strerror(errno));
}

/* From the first event seen to the exit code. */
static int session_observe(struct so_observer *obs, struct live *lv,
			   const struct so_options *opts)
{
	int rc;

	lv->deadlock = event_loop_run(obs, lv);
	event_loop_drain(obs, lv);
	session_finish(obs, lv, opts);
	rc = verdict_judge(lv, opts);
	if (lv->deadlock) {
		/* The blocked task and its workload stay as they are: the
		 * caller reports and leaves through observer_abandon(). */
		obs->wedged = true;
		rc = SO_EXIT_FAIL;
	}
	return rc;
}

int observer_session(struct so_observer *obs, const struct so_options *opts,
		     session_driver_fn driver, void *driver_ctx)
{
	struct live *lv = calloc(1, sizeof(*lv));
	int rc;

	if (!lv)
		return SO_EXIT_FAIL;
	driver_init(&lv->drv, opts, driver, driver_ctx);
	lv->obs = obs;
	/* With --format json or ktap, stdout carries that format and
	 * nothing else: live lines go to stderr, and so does what the
	 * driver prints under JSON (KTAP's driver lines are its own). */
	lv->side = opts->format == SO_FMT_TEXT ? stdout : stderr;
	setvbuf(stdout, NULL, _IOLBF, 0);
	signals_catch();

	rc = session_prepare(obs, lv, opts);
	if (!rc)
		rc = session_open_files(obs, lv, opts);
	if (!rc)
		rc = session_start(obs, lv, opts);
	if (!rc)
		rc = session_observe(obs, lv, opts);
	if (lv->svg)
		fclose(lv->svg);
	driver_release(&lv->drv);
	obs->cur = NULL;
	live_teardown(lv);
	free(lv);
	return rc;
}

int session_run(const struct so_options *opts, session_driver_fn driver,
		void *driver_ctx)
{
	struct knob_state knobs_saved;
	struct so_observer *obs;
	int rc;

	rc = knobfs_session_check(opts);
	if (rc)
		return rc;
	obs = observer_open(opts, &rc);
	if (!obs)
		return rc;
	/* --knob: set once attached, so the writes they shape are seen;
	 * restored after Ctrl-C and SIGTERM too (they end the session). */
	rc = knobfs_session_begin(opts, &knobs_saved);
	if (!rc)
		rc = observer_session(obs, opts, driver, driver_ctx);
	knobfs_session_end(opts, &knobs_saved);
	if (observer_wedged(obs))
		observer_abandon(rc);
	observer_close(obs);
	return rc;
}
