// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * The options, once each is valid on its own: which go together with
 * which action and subcommand, and the defaults that depend on them.
 * Apart from the parser because this is the table of rules the man page
 * describes, read and changed as one.
 */
#include <string.h>
#include "cli/option_parse.h"

/* Options that only make sense with a scenario run. */
static int opt_check_runner(const struct so_options *opts,
			    bool running_test, char *err, size_t errlen)
{
	const char *alone = opts->nr_counts ? "--count" :
			    opts->fixed	    ? "--fixed" :
			    opts->nr_params ? "--param" :
			    opts->window_s  ? "--window" :
			    opts->format == SO_FMT_KTAP ? "--format ktap" :
							  NULL;

	if (alone && !running_test)
		return opt_error(err, errlen,
				 "%s applies to scenario runs: add --test ID or --watch ID",
				 alone);
	if (opts->nr_counts && !opts->test)
		return opt_error(err, errlen,
				 "--count applies to --test, not --watch");
	for (unsigned int i = 0; i < opts->nr_counts; i++)
		if (!opt_test_selects(opts->test, opts->counts[i].id))
			return opt_error(err, errlen,
					 "--count %s: that test is not run (--test %s)",
					 opts->counts[i].id, opts->test);
	return 0;
}

/* Which options go with which action and subcommand. */
int opt_check(struct so_options *opts, char *err,
	      size_t errlen)
{
	bool live = opts->action == SO_ACT_ATTACH ||
		    opts->action == SO_ACT_TEST || opts->action == SO_ACT_WATCH;

	if (opts->action == SO_ACT_HELP || opts->action == SO_ACT_VERSION)
		return 0;
	if (opts->quiet && opts->verbosity)
		return opt_error(err, errlen,
				 "-q and -v cannot be combined: give one");
	if (opts->subcommand == SO_SUB_REPORT) {
		if (opts->action != SO_ACT_NONE)
			return opt_error(err, errlen,
					 "report reads a trace: it takes no --attach, --test, --watch, --list or --probes");
		if (opts->output)
			return opt_error(err, errlen,
					 "report takes -i FILE, not -o");
		opts->action = SO_ACT_REPORT;
		if (!opts->input)
			opts->input = SO_DEFAULT_TRACE;
	} else if (opts->input) {
		return opt_error(err, errlen,
				 "-i FILE belongs to the report subcommand");
	}
	if (opts->subcommand == SO_SUB_RECORD) {
		if (!live)
			return opt_error(err, errlen,
					 "record needs something to observe: --attach, --test ID or --watch ID");
		if (!opts->output)
			opts->output = SO_DEFAULT_TRACE;
	} else if (opts->output) {
		return opt_error(err, errlen,
				 "-o FILE belongs to the record subcommand");
	}
	if (opts->action == SO_ACT_NONE)
		return opt_error(err, errlen,
				 "nothing to do: give --attach, --test ID, --list, --probes, record or report");
	if (opts->svg && (opts->action == SO_ACT_WATCH ||
			  (opts->action == SO_ACT_TEST &&
			   !opt_is_test_id(opts->test))))
		return opt_error(err, errlen,
				 "--svg draws one session: give one test ID or --attach (or record, then report --svg)");
	if (opts->svg && !live && opts->action != SO_ACT_REPORT)
		return opt_error(err, errlen,
				 "--svg goes with --attach, --test ID or report");
	if (opts->duration_s && opts->action != SO_ACT_ATTACH)
		return opt_error(err, errlen,
				 "--duration applies to --attach (a test ends by itself)");
	if (opts->nr_knobs && live && opts->action != SO_ACT_ATTACH)
		return opt_error(err, errlen,
				 "--knob applies to --attach (scenarios 0029-0032 set the knobs themselves)");
	if (!live && (opts->module || opts->path_prefix || opts->pid ||
		      opts->nr_knobs || opts->hang_timeout_s))
		return opt_error(err, errlen,
				 "filters, --knob and --hang-timeout apply to --attach, --test and --watch");
	if (!live && (opts->ringbuf_kib || opts->map_nr_entries))
		return opt_error(err, errlen,
				 "%s sizes the BPF maps of a live run: it applies to --attach, --test and --watch",
				 opts->ringbuf_kib ? "--ringbuf-kib" :
						     "--map-nr-entries");
	return opt_check_runner(opts, opts->action == SO_ACT_TEST ||
						  opts->action == SO_ACT_WATCH,
				err, errlen);
}
