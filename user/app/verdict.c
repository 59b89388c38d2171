// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * How a session ends on paper: the summary, the picture, lockdep's word
 * held to ours, the driver's status, and the exit code they add up to.
 * Apart from the loop and the lifecycle: it runs once, after both, and
 * its order is the order of the output.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/exit_codes.h"
#include "kernel/kmsg.h"
#include "app/session_internal.h"
#include "report/picture.h"
#include "report/summary.h"

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
		missed = findings_lockdep(&lv->findings, reports, nr, out);
	free(log);
	return missed;
}

static void print_summary(struct live *lv, const struct so_options *opts)
{
	struct so_report r = {
		.info = &lv->info,
		.end = &lv->end,
		.stats = &lv->stats,
		.names = lv->names,
		.malformed = lv->pipeline.nr_malformed,
		.edges_recovered = lv->pipeline.nr_edges_recovered,
		.edges_exact = true,
		.hooks = &lv->findings.hooks,
		.max_entries = opts->entries,
	};

	/* KTAP owns stdout: the summary goes to stderr. */
	FILE *out = opts->format == SO_FMT_KTAP ? stderr : stdout;

	if (opts->format == SO_FMT_JSON)
		summary_json(out, &r);
	else
		summary_text(out, &r);
	fflush(out);
}

/* --svg: the session's findings as a picture; 0, or -1 said on stderr. */
static int write_picture(struct live *lv, const struct so_options *opts,
			 FILE *out)
{
	const struct so_findings *f = &lv->findings;
	struct so_picture pic;

	if (pic_begin(&pic)) {
		fprintf(stderr, "sysfs-observe: failed to draw %s: out of "
			"memory\n", opts->svg);
		return -1;
	}
	pic_session(&pic, f->og, f->going_ns,
		    f->have_deadlock ? &f->deadlock : NULL, opts->test);
	if (pic_end(&pic, out)) {
		fprintf(stderr, "sysfs-observe: failed to write %s: %s\n",
			opts->svg, strerror(errno));
		return -1;
	}
	return 0;
}

int verdict_judge(struct live *lv, const struct so_options *opts)
{
	int rc;

	if (lv->pipeline.stream && lv->stream.nr_hidden)
		fprintf(lv->side, "# the stream left out %" PRIu64 " lock "
			"events outside the observed contexts; -v shows every "
			"event\n", lv->stream.nr_hidden);
	print_summary(lv, opts);
	rc = findings_exit_code(&lv->findings);
	if (lv->kmarker[0] &&
	    judge_lockdep(lv, lv->kmarker, opts->format == SO_FMT_JSON ?
					   stderr : stdout))
		rc = SO_EXIT_FAIL;
	if (lv->svg && write_picture(lv, opts, lv->svg) &&
	    rc != SO_EXIT_FAIL)
		rc = SO_EXIT_USAGE;
	return driver_verdict(&lv->drv, rc);
}
