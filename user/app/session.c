// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * The live session: see session.h.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "lib/exit_codes.h"
#include "kernel/kmsg.h"
#include "kernel/knobs.h"
#include "kernel/loader.h"
#include "app/session.h"
#include "app/session_internal.h"
#include "lib/files.h"
#include "trace/record.h"
#include "observe.skel.h"
#include "app/findings.h"
#include "report/picture.h"
#include "report/summary.h"
#include "trace/trace_file.h"

/*
 * A debug kernel's lockdep speaks in the kernel log: its cycle reports
 * since the session's marker, held to ours.  A cycle lockdep saw and we
 * did not fails the session.  Returns how many we missed.
 */
static uint32_t judge_lockdep(struct live *lv, const char *marker, FILE *out)
{
	struct ldr_report reports[8];
	char *log = kmsg_read_all();
	uint32_t missed = 0;
	size_t nr;

	if (!log)
		return 0;
	nr = ldr_parse_circular(log, marker, reports,
				sizeof(reports) / sizeof(reports[0]));
	if (nr > sizeof(reports) / sizeof(reports[0]))
		nr = sizeof(reports) / sizeof(reports[0]);
	if (nr)
		missed = so_findings_lockdep(&lv->findings, reports, nr, out);
	free(log);
	return missed;
}

static void print_summary(struct live *lv, const struct so_options *opts,
			  bool cut_short)
{
	struct so_report r = {
		.info = &lv->info,
		.end = cut_short ? NULL : &lv->end,
		.stats = &lv->stats,
		.names = lv->names,
		.malformed = lv->pipeline.nr_malformed,
		.edges_recovered = lv->pipeline.nr_edges_recovered,
		.edges_exact = !cut_short,
		.hooks = &lv->findings.hooks,
		.max_entries = opts->entries,
	};

	/* KTAP owns stdout: the summary goes to stderr. */
	FILE *out = opts->format == SO_FMT_KTAP ? stderr : stdout;

	if (opts->format == SO_FMT_JSON)
		so_summary_json(out, &r);
	else
		so_summary_text(out, &r);
	fflush(out);
}

/* --svg: the session's findings as a picture; 0, or -1 said on stderr. */
static int write_picture(struct live *lv, const struct so_options *opts,
			 FILE *out)
{
	const struct so_findings *f = &lv->findings;
	struct so_picture pic;

	if (so_picture_begin(&pic)) {
		fprintf(stderr, "sysfs-observe: failed to draw %s: out of "
			"memory\n", opts->svg);
		return -1;
	}
	so_picture_session(&pic, f->og, f->going_ns,
			   f->have_deadlock ? &f->deadlock : NULL, opts->test);
	if (so_picture_end(&pic, out)) {
		fprintf(stderr, "sysfs-observe: failed to write %s: %s\n",
			opts->svg, strerror(errno));
		return -1;
	}
	return 0;
}

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
	obs->lopts.ringbuf_kib = opts->ringbuf_kib;
	obs->lopts.module = opts->module;
	obs->lopts.path_filter = opts->path_filter;
	obs->lopts.verbose = opts->verbosity;
	obs->lopts.on_record = event_loop_feed;
	obs->lopts.record_ctx = obs;
	*rc = loader_start(&obs->loader, &obs->lopts);
	if (*rc) {
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

int observer_session(struct so_observer *obs, const struct so_options *opts,
		     session_driver_fn driver, void *driver_ctx)
{
	uint64_t deadline = 0, t0;
	bool deadlock = false, recording = opts->subcommand == SO_SUB_RECORD;
	struct live *lv;
	struct driver drv;
	char kmarker[96] = "";
	FILE *svg = NULL;
	int rc;
	/* With --format json or ktap, stdout carries that format and
	 * nothing else: live lines go to stderr, and so does what the
	 * driver prints under JSON (KTAP's driver lines are its own). */
	FILE *side = opts->format == SO_FMT_TEXT ? stdout : stderr;

	lv = calloc(1, sizeof(*lv));
	if (!lv)
		return SO_EXIT_FAIL;
	driver_init(&drv, opts, driver, driver_ctx);
	lv->obs = obs;
	setvbuf(stdout, NULL, _IOLBF, 0);
	signals_catch();

	if (live_setup(lv, opts)) {
		fprintf(stderr, "sysfs-observe: failed to set up: out of "
			"memory\n");
		rc = SO_EXIT_FAIL;
		goto out;
	}
	lv->findings.wf_from_scans = obs->loader.aggregate;
	/* What the previous session left: its edges, held sets, counts. */
	rc = loader_reset(&obs->loader);
	if (rc) {
		fprintf(stderr, "sysfs-observe: failed to reset the BPF "
			"maps between sessions: %s\n", strerror(-rc));
		rc = SO_EXIT_FAIL;
		goto out;
	}
	obs->cur = lv;
	live_describe(lv, opts);
	if (opts->pid && loader_watch_tgid(&obs->loader, opts->pid))
		fprintf(stderr, "sysfs-observe: warning: cannot watch pid "
			"%u\n", opts->pid);

	if (recording) {
		const char *path = opts->output ? opts->output :
						  SO_DEFAULT_TRACE;

		/* 0600, no symlink followed: it holds kernel addresses.
		 * Opened once: the observer's later sessions follow. */
		if (obs->trace) {
			if (tf_writer_session(&obs->writer, &lv->info)) {
				fprintf(stderr, "sysfs-observe: failed to "
					"write %s: %s\n", path,
					strerror(errno));
				rc = SO_EXIT_USAGE;
				goto out;
			}
		} else if (!(obs->trace = so_open_output(path)) ||
			   tf_writer_open(&obs->writer, obs->trace,
					  &lv->info)) {
			fprintf(stderr, "sysfs-observe: failed to create %s: "
				"%s\n", path, so_open_error(errno));
			rc = SO_EXIT_USAGE;
			goto out;
		}
		lv->pipeline.writer = &obs->writer;
	}
	/* The picture's file: created now, so that a bad path is exit 2
	 * before anything runs, not after. */
	if (opts->svg && !(svg = so_open_output(opts->svg))) {
		fprintf(stderr, "sysfs-observe: failed to create %s: %s\n",
			opts->svg, so_open_error(errno));
		rc = SO_EXIT_USAGE;
		goto out;
	}
	t0 = lv->info.start_mono_ns;
	if (!opts->quiet) {
		so_stream_init(&lv->stream, side, lv->names,
			       isatty(fileno(side)), t0);
		lv->stream.all = opts->verbosity > 0;
		lv->pipeline.stream = &lv->stream;
		lv->findings.stream = &lv->stream;
		so_stream_header(&lv->stream);
	} else {
		lv->findings.live = side;
	}
	if (opts->duration_s > 0)
		deadline = t0 + (uint64_t)(opts->duration_s * 1e9);
	/* Where the workload's part of the kernel log begins. */
	if (drv.fn) {
		snprintf(kmarker, sizeof(kmarker), "sysfs-observe: session %s "
			 "at %llu", opts->test ? opts->test : "(attach)",
			 (unsigned long long)mono_ns());
		if (!kmsg_mark(kmarker))
			kmarker[0] = '\0';
	}
	if (driver_start(&drv, &obs->loader)) {
		fprintf(stderr, "sysfs-observe: failed to start the "
			"workload: %s\n", strerror(errno));
		rc = SO_EXIT_FAIL;
		goto out;
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
	deadlock = event_loop_run(obs, lv, &drv, deadline);
	event_loop_drain(obs, lv, &drv, deadlock);
	live_add_module_ksyms(lv);
	lv->end.end_mono_ns = mono_ns();
	if (recording) {
		lv->end.nr_events = obs->writer.nr_events;
		so_pipeline_write_ksyms(&lv->pipeline, lv->ksyms);
		lv->end.nr_stacks = obs->writer.nr_stacks;
		lv->end.nr_ksyms = obs->writer.nr_ksyms;
		if (tf_writer_close(&obs->writer, &lv->end))
			fprintf(stderr, "sysfs-observe: failed to write the "
				"trace file: %s\n", strerror(errno));
	}
	if (lv->pipeline.stream && lv->stream.nr_hidden)
		fprintf(side, "# the stream left out %" PRIu64 " lock events "
			"outside the observed contexts; -v shows every "
			"event\n", lv->stream.nr_hidden);
	print_summary(lv, opts, false);
	rc = so_findings_exit_code(&lv->findings);
	if (kmarker[0] &&
	    judge_lockdep(lv, kmarker, opts->format == SO_FMT_JSON ? stderr :
								    stdout))
		rc = SO_EXIT_FAIL;
	if (svg && write_picture(lv, opts, svg) && rc != SO_EXIT_FAIL)
		rc = SO_EXIT_USAGE;
	rc = driver_verdict(&drv, rc);
	if (deadlock) {
		/* The blocked task and its workload stay as they are: the
		 * caller reports and leaves through observer_abandon(). */
		obs->wedged = true;
		rc = SO_EXIT_FAIL;
	}
out:
	if (svg)
		fclose(svg);
	driver_release(&drv);
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

	rc = knobs_session_check(opts);
	if (rc)
		return rc;
	obs = observer_open(opts, &rc);
	if (!obs)
		return rc;
	/* --knob: set once attached, so the writes they shape are seen;
	 * restored after Ctrl-C and SIGTERM too (they end the session). */
	rc = knobs_session_begin(opts, &knobs_saved);
	if (!rc)
		rc = observer_session(obs, opts, driver, driver_ctx);
	knobs_session_end(opts, &knobs_saved);
	if (observer_wedged(obs))
		observer_abandon(rc);
	observer_close(obs);
	return rc;
}
