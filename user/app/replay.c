// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * Replay of a trace file: see replay.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "lib/exit_codes.h"
#include "app/findings.h"
#include "report/picture.h"
#include "app/replay.h"
#include "lib/files.h"
#include "trace/record.h"
#include "report/summary.h"
#include "trace/trace_file.h"

struct replay {
	struct so_session_info info;
	struct so_session_end end;
	bool have_end;
	struct so_pipeline pipeline;
	struct so_stats stats;
	struct so_findings findings;
	struct ksyms *ksyms;
	struct so_names *names;
	/* A file holds one session per test of `record --test all`: each
	 * is summarized at its TRAILER; JSON documents are kept to make
	 * an array of them when there are several. */
	enum so_format format;
	unsigned int entries;	/* rows per text table, 0 all */
	FILE *out;
	FILE *svg;		/* each session's panels go to `picture` */
	struct so_picture picture;
	unsigned int nr_sessions;
	int rc;				/* the worst session's status */
	char *json;
	size_t json_len;
	FILE *json_mem;
};

/* A fresh analysis for a session. */
static int replay_begin(struct replay *rp)
{
	rp->ksyms = ksyms_new();
	rp->names = names_new(rp->ksyms);
	stats_init(&rp->stats);
	pipeline_init(&rp->pipeline);
	rp->pipeline.names = rp->names;
	rp->pipeline.stats = &rp->stats;
	if (!rp->ksyms || !rp->names ||
	    /* The trace does not carry --map-nr-entries: a recording
	     * made with larger tables can lose edges here, which the
	     * report says (its "graph was too big" warning). */
	    findings_init(&rp->findings, &rp->pipeline, rp->ksyms,
			  SO_HANG_TIMEOUT_DEFAULT_NS, 0))
		return -1;
	findings_attach(&rp->findings, &rp->pipeline);
	rp->findings.live = NULL;	/* the live lines were the run's */
	rp->have_end = false;
	return 0;
}

static void replay_end(struct replay *rp)
{
	findings_fini(&rp->findings);
	pipeline_fini(&rp->pipeline);
	stats_fini(&rp->stats);
	names_free(rp->names);
	ksyms_free(rp->ksyms);
	rp->names = NULL;
	rp->ksyms = NULL;
}

static int on_session(void *ctx, const struct so_session_info *info)
{
	struct replay *rp = ctx;

	if (rp->nr_sessions) {
		replay_end(rp);
		if (replay_begin(rp))
			return -1;
	}
	rp->info = *info;
	return 0;
}

static int on_event(void *ctx, const void *rec, size_t len)
{
	struct replay *rp = ctx;

	pipeline_feed(&rp->pipeline, rec, len);
	return 0;
}

static int on_stack(void *ctx, int32_t id, const uint64_t *addrs,
		    uint32_t depth)
{
	struct replay *rp = ctx;

	return pipeline_add_stack(&rp->pipeline, id, addrs, depth);
}

static int on_ksym(void *ctx, uint64_t addr, uint64_t size, char type,
		   const char *name, const char *module)
{
	struct replay *rp = ctx;
	char sym[256], mod[256];

	/* A trace file is untrusted: its names reach the terminal. */
	snprintf(sym, sizeof(sym), "%s", name);
	snprintf(mod, sizeof(mod), "%s", module);
	record_escape_str(sym, sizeof(sym));
	record_escape_str(mod, sizeof(mod));
	return ksyms_add(rp->ksyms, addr, size, type, sym, mod);
}

/* The summary of the session that just ended, as the run printed it. */
static void replay_summary(struct replay *rp)
{
	const struct so_findings *f;
	struct so_report r = {
		.info = &rp->info,
		.end = &rp->end,
		.stats = &rp->stats,
		.names = rp->names,
		.malformed = rp->pipeline.nr_malformed,
		.hooks = &rp->findings.hooks,
		.max_entries = rp->entries,
	};

	/* A deadlock the run caught is still in the trace: the tasks were
	 * blocked when it ended. */
	findings_check(&rp->findings, rp->end.end_mono_ns);
	if (rp->format == SO_FMT_JSON) {
		if (rp->nr_sessions)
			fputs(",\n", rp->json_mem);
		summary_json(rp->json_mem, &r);
	} else {
		if (rp->nr_sessions)
			fputc('\n', rp->out);
		summary_text(rp->out, &r);
	}
	f = &rp->findings;
	if (rp->svg)
		pic_session(&rp->picture, f->og, f->going_ns,
			    f->have_deadlock ? &f->deadlock : NULL,
			    rp->info.test);
	if (findings_exit_code(&rp->findings))
		rp->rc = SO_EXIT_FAIL;
}

static int on_trailer(void *ctx, const struct so_session_end *end)
{
	struct replay *rp = ctx;

	rp->end = *end;
	rp->have_end = true;
	replay_summary(rp);
	rp->nr_sessions++;
	return 0;
}

int replay_report(const char *path, const struct replay_opts *ro,
		  FILE *out)
{
	FILE *in = files_open_input(path);
	int rc;

	if (!in && errno == EINVAL) {
		fprintf(stderr, "sysfs-observe: %s is not a regular file: "
			"give a trace file written by `record`\n", path);
		return SO_EXIT_USAGE;
	}
	if (!in) {
		fprintf(stderr, "sysfs-observe: failed to open %s: %s\n  "
			"record one with `sysfs-observe record -o %s ...`\n",
			path, strerror(errno), path);
		return SO_EXIT_USAGE;
	}
	rc = replay_report_file(in, path, ro, out);
	fclose(in);
	return rc;
}

int replay_report_file(FILE *in, const char *path,
		       const struct replay_opts *ro, FILE *out)
{
	const struct tf_handlers handlers = {
		.session = on_session,
		.event = on_event,
		.stack = on_stack,
		.ksym = on_ksym,
		.trailer = on_trailer,
	};
	struct replay *rp = calloc(1, sizeof(*rp));
	char err[256];
	int rc = SO_EXIT_FAIL;

	if (!rp)
		return SO_EXIT_FAIL;
	rp->format = ro->format;
	rp->entries = ro->entries;
	rp->out = out;
	if (ro->svg && pic_begin(&rp->picture))
		goto out;
	rp->svg = ro->svg;
	rp->rc = SO_EXIT_PASS;
	rp->json_mem = open_memstream(&rp->json, &rp->json_len);
	if (!rp->json_mem || replay_begin(rp))
		goto out;

	/* A trace that cannot be read (corrupt, truncated, another
	 * version) is the user's input: exit 2, never 1 ("a finding"). */
	if (tf_read(in, path, &handlers, rp, err, sizeof(err))) {
		fprintf(stderr, "sysfs-observe: failed to read trace: %s\n",
			err);
		rc = SO_EXIT_USAGE;
		goto out;
	}
	rc = rp->rc;
out:
	if (rp->json_mem) {
		fclose(rp->json_mem);
		rp->json_mem = NULL;
		/* One session, one document, as before; several, an array. */
		if (rc != SO_EXIT_USAGE && rp->nr_sessions == 1)
			fputs(rp->json, out);
		else if (rc != SO_EXIT_USAGE && rp->nr_sessions > 1)
			fprintf(out, "[\n%s]\n", rp->json);
	}
	free(rp->json);
	if (rp->svg && rc != SO_EXIT_USAGE) {
		if (pic_end(&rp->picture, rp->svg)) {
			fprintf(stderr, "sysfs-observe: failed to write the "
				"picture: %s\n", strerror(errno));
			if (rc == SO_EXIT_PASS)
				rc = SO_EXIT_USAGE;
		}
	} else if (rp->svg) {
		pic_free(&rp->picture);
	}
	replay_end(rp);
	free(rp);
	return rc;
}
