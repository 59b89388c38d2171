// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * sysfs-observe: parse the command line and hand it to the one command
 * that does the work.  Nothing else lives here.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "lib/exit_codes.h"
#include "lib/version.h"
#include "cli/options.h"
#include "kernel/loader.h"
#include "app/session.h"
#include "app/replay.h"
#include "app/runner.h"
#include "lib/addr.h"
#include "lib/files.h"

/* report: the trace's summary; with --svg, its picture too (the file
 * created first: a bad path is exit 2 before the trace is read). */
static int cmd_report(const struct so_options *opts)
{
	struct replay_opts ro = {
		.format = opts->format,
		.entries = opts->entries,
	};
	int rc;

	if (opts->svg && !(ro.svg = files_open_output(opts->svg))) {
		fprintf(stderr, "sysfs-observe: failed to create %s: %s\n",
			opts->svg, files_open_error(errno));
		return SO_EXIT_USAGE;
	}
	rc = replay_report(opts->input ? opts->input : SO_DEFAULT_TRACE, &ro,
			   stdout);
	if (ro.svg && fclose(ro.svg) && rc == SO_EXIT_PASS)
		rc = SO_EXIT_USAGE;
	return rc;
}

static int cmd_probes(const struct so_options *opts)
{
	struct loader_opts lopts = { .verbose = opts->verbosity };
	struct so_loader l;
	int rc = loader_start(&l, &lopts);

	if (rc)
		return rc;
	loader_print_probes(&l, stdout);
	loader_stop(&l, false);
	return SO_EXIT_PASS;
}

/*
 * Exit 0 (or 1) only when every byte meant for the user was written:
 * `--list >/dev/full` must fail, and say so.  An unwritable output is the
 * user's to fix: 2.
 */
static int output_status(int rc)
{
	int err = fflush(stdout) ? errno : 0;

	if (!err && !ferror(stdout))
		return rc;
	fprintf(stderr, "sysfs-observe: failed to write the output: %s\n",
		err ? strerror(err) : "write error");
	return rc == SO_EXIT_SKIP ? rc : SO_EXIT_USAGE;
}

static int run(int argc, char **argv)
{
	struct so_options opts;
	char err[256];

	if (opt_parse(&opts, argc, argv, err, sizeof(err))) {
		fprintf(stderr, "sysfs-observe: %s\n", err);
		opt_usage_line(stderr);
		return SO_EXIT_USAGE;
	}
	/* The addresses give away where the kernel is (KASLR): for root,
	 * who can read /proc/kallsyms anyway. */
	if (opts.addresses && geteuid() != 0) {
		fprintf(stderr, "sysfs-observe: --addresses prints kernel "
			"addresses (the KASLR offset): run it as root, or "
			"leave it out for #handles\n");
		return SO_EXIT_USAGE;
	}
	addr_set_shown(opts.addresses);
	switch (opts.action) {
	case SO_ACT_HELP:
		opt_usage(stdout);
		return SO_EXIT_PASS;
	case SO_ACT_VERSION:
		printf("%s\n", SO_TOOL_VERSION);
		return SO_EXIT_PASS;
	case SO_ACT_PROBES:
		return cmd_probes(&opts);
	case SO_ACT_REPORT:
		return cmd_report(&opts);
	case SO_ACT_ATTACH:
		return session_run(&opts, NULL, NULL);
	case SO_ACT_LIST:
	case SO_ACT_TEST:
	case SO_ACT_WATCH:
		return sc_runner_main(&opts);
	default:
		opt_usage_line(stderr);
		return SO_EXIT_USAGE;
	}
}

int main(int argc, char **argv)
{
	return output_status(run(argc, argv));
}
