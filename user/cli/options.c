// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * The command line parser: getopt's loop, which option sets what, and
 * the repeats and conflicts only the loop can see.  Each argument's check
 * is in option_values.c, the combinations in option_checks.c, --help in
 * usage.c.
 */
#include <getopt.h>
#include <string.h>
#include "cli/option_parse.h"

static const struct option so_long_options[] = {
	{ "attach",	  no_argument,	     NULL, SO_OPT_ATTACH },
	{ "module",	  required_argument, NULL, SO_OPT_MODULE },
	{ "path",	  required_argument, NULL, SO_OPT_PATH },
	{ "pid",	  required_argument, NULL, SO_OPT_PID },
	{ "duration",	  required_argument, NULL, SO_OPT_DURATION },
	{ "format",	  required_argument, NULL, SO_OPT_FORMAT },
	{ "hang-timeout", required_argument, NULL, SO_OPT_HANG_TIMEOUT },
	{ "probes",	  no_argument,	     NULL, SO_OPT_PROBES },
	{ "help",	  no_argument,	     NULL, 'h' },
	{ "version",	  no_argument,	     NULL, SO_OPT_VERSION },
	{ "quiet",	  no_argument,	     NULL, 'q' },
	{ "verbose",	  no_argument,	     NULL, 'v' },
	{ "output",	  required_argument, NULL, 'o' },
	{ "input",	  required_argument, NULL, 'i' },
	{ "test",	  required_argument, NULL, SO_OPT_TEST },
	{ "count",	  required_argument, NULL, SO_OPT_COUNT },
	{ "watch",	  required_argument, NULL, SO_OPT_WATCH },
	{ "list",	  no_argument,	     NULL, SO_OPT_LIST },
	{ "fixed",	  no_argument,	     NULL, SO_OPT_FIXED },
	{ "param",	  required_argument, NULL, SO_OPT_PARAM },
	{ "window",	  required_argument, NULL, SO_OPT_WINDOW },
	{ "knob",	  required_argument, NULL, SO_OPT_KNOB },
	{ "ringbuf-kib",  required_argument, NULL, SO_OPT_RINGBUF_KIB },
	{ "map-nr-entries", required_argument, NULL, SO_OPT_MAP_NR_ENTRIES },
	{ "entries",	  required_argument, NULL, 'E' },
	{ "svg",	  required_argument, NULL, SO_OPT_SVG },
	{ "addresses",	  no_argument,	     NULL, SO_OPT_ADDRESSES },
	{ NULL, 0, NULL, 0 },
};

/* Marks one of the options that choose the action; two is a conflict. */
static int opt_set_action(struct so_options *opts, enum so_action action,
			  const char **given, const char *name, char *err,
			  size_t errlen)
{
	if (opts->action != SO_ACT_NONE && opts->action != action)
		return opt_error(err, errlen,
				 "%s and %s cannot be combined: give one",
				 *given, name);
	opts->action = action;
	*given = name;
	return 0;
}

/* The options that choose the action: --attach, --test, ... */
static int opt_parse_action(struct so_options *opts, int opt,
			    const char **given, char *err, size_t errlen)
{
	switch (opt) {
	case SO_OPT_ATTACH:
		return opt_set_action(opts, SO_ACT_ATTACH, given, "--attach",
				      err, errlen);
	case SO_OPT_PROBES:
		return opt_set_action(opts, SO_ACT_PROBES, given, "--probes",
				      err, errlen);
	case SO_OPT_TEST:
		if (!opt_is_test_selection(optarg))
			return opt_error(err, errlen,
					 "--test: '%s' is not a test id (four digits, e.g. 0028), a range (0029-0032) or all",
					 optarg);
		opts->test = optarg;
		return opt_set_action(opts, SO_ACT_TEST, given, "--test", err,
				      errlen);
	case SO_OPT_WATCH:
		if (!opt_is_test_id(optarg))
			return opt_error(err, errlen,
					 "--watch: '%s' is not a test id (four digits, e.g. 0028)",
					 optarg);
		opts->watch = optarg;
		return opt_set_action(opts, SO_ACT_WATCH, given, "--watch",
				      err, errlen);
	default:	/* SO_OPT_LIST */
		return opt_set_action(opts, SO_ACT_LIST, given, "--list", err,
				      errlen);
	}
}

/* --module, --path and --format: a word each, checked here. */
static int opt_parse_filter(struct so_options *opts, int opt, char *err,
			    size_t errlen)
{
	switch (opt) {
	case SO_OPT_MODULE:
		if (!optarg[0])
			return opt_error(err, errlen,
					 "--module: empty: give a module name or drop the option");
		return opt_parse_module(opts, optarg, err, errlen);
	case SO_OPT_PATH:
		if (!optarg[0])
			return opt_error(err, errlen,
					 "--path: empty: give a sysfs path or drop the option");
		if (opt_path_filter(optarg, opts->path_filter,
				    sizeof(opts->path_filter)))
			return opt_error(err, errlen,
					 "--path: '%.40s%s' is matched on its last directory or as a \"dir/attr\" prefix of at most %d characters",
					 optarg,
					 strlen(optarg) > 40 ? "..." : "",
					 SO_PATH_FILTER_LEN - 2);
		opts->path_prefix = optarg;
		return 0;
	default:	/* SO_OPT_FORMAT */
		break;
	}
	if (!strcmp(optarg, "text"))
		opts->format = SO_FMT_TEXT;
	else if (!strcmp(optarg, "json"))
		opts->format = SO_FMT_JSON;
	else if (!strcmp(optarg, "ktap"))
		opts->format = SO_FMT_KTAP;
	else
		return opt_error(err, errlen,
				 "--format: '%s' is not text, json or ktap",
				 optarg);
	return 0;
}

static int opt_parse_one(struct so_options *opts, int opt, int argc,
			 char **argv, const char **given, char *err,
			 size_t errlen)
{
	switch (opt) {
	case 'h':
		opts->action = SO_ACT_HELP;
		return 0;
	case SO_OPT_VERSION:
		opts->action = SO_ACT_VERSION;
		return 0;
	case 'q':
		opts->quiet = true;
		return 0;
	case 'v':
		if (opts->verbosity < 3)
			opts->verbosity++;
		return 0;
	case 'o':
		opts->output = optarg;
		return 0;
	case SO_OPT_ADDRESSES:
		opts->addresses = true;
		return 0;
	case SO_OPT_SVG:
		if (!optarg[0])
			return opt_error(err, errlen,
					 "--svg: give a file name");
		opts->svg = optarg;
		return 0;
	case 'i':
		opts->input = optarg;
		return 0;
	case SO_OPT_ATTACH: case SO_OPT_PROBES: case SO_OPT_LIST:
	case SO_OPT_TEST: case SO_OPT_WATCH:
		return opt_parse_action(opts, opt, given, err, errlen);
	case SO_OPT_MODULE: case SO_OPT_PATH: case SO_OPT_FORMAT:
		return opt_parse_filter(opts, opt, err, errlen);
	case 'E':
		return opt_parse_number(opts, opt, optarg, err, errlen);
	case SO_OPT_COUNT:
		return opt_parse_count(opts, argc, argv, optarg, err, errlen);
	case SO_OPT_FIXED:
		opts->fixed = true;
		return 0;
	case SO_OPT_PARAM:
		return opt_parse_list_item(opts->params, &opts->nr_params,
					   SO_OPT_PARAMS_MAX, "--param", optarg,
					   err, errlen);
	case SO_OPT_KNOB:
		return opt_parse_knob(opts, optarg, err, errlen);
	case ':':
		return opt_error(err, errlen, "%s needs an argument",
				 argv[optind - 1]);
	case '?':
		if (optopt)
			return opt_error(err, errlen, "unknown option '-%c'",
					 optopt);
		return opt_error(err, errlen, "unknown option '%s'",
				 argv[optind - 1]);
	default:
		return opt_parse_number(opts, opt, optarg, err, errlen);
	}
}

/*
 * An option that takes one value, given twice, is an error: "last one
 * wins" would silently drop what the user typed first.  Repeatable:
 * --param, --knob, --count (once per id), -v; flags may repeat.
 */
static int opt_check_repeat(int opt, bool seen[SO_OPT_SEEN_MAX], char **argv,
			    char *err, size_t errlen)
{
	switch (opt) {
	case 'o': case 'i':
	case SO_OPT_MODULE: case SO_OPT_PATH: case SO_OPT_PID:
	case SO_OPT_DURATION: case SO_OPT_FORMAT: case SO_OPT_HANG_TIMEOUT:
	case SO_OPT_TEST: case SO_OPT_WATCH: case SO_OPT_WINDOW:
	case SO_OPT_RINGBUF_KIB: case SO_OPT_MAP_NR_ENTRIES: case 'E':
	case SO_OPT_SVG:
		break;
	default:
		return 0;
	}
	if (opt < 0 || opt >= SO_OPT_SEEN_MAX)
		return 0;
	if (seen[opt])
		return opt_error(err, errlen,
				 "%s given twice: give it once",
				 argv[optind - 1][0] == '-' ?
					    argv[optind - 1] : argv[optind - 2]);
	seen[opt] = true;
	return 0;
}

int opt_parse(struct so_options *opts, int argc, char **argv,
	      char *err, size_t errlen)
{
	bool seen[SO_OPT_SEEN_MAX] = { false };
	const char *given = NULL;
	int opt, ret;

	memset(opts, 0, sizeof(*opts));
	opts->entries = SO_ENTRIES_DEFAULT;
	err[0] = '\0';
	if (argc > 1 && !strcmp(argv[1], "record"))
		opts->subcommand = SO_SUB_RECORD;
	else if (argc > 1 && !strcmp(argv[1], "report"))
		opts->subcommand = SO_SUB_REPORT;
	if (opts->subcommand != SO_SUB_NONE) {
		argc--;
		argv++;
	}
	/* Reset getopt for every call ("+": never permute argv; ":":
	 * report a missing argument as ':'), and let us word the errors. */
	optind = 0;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "+:hqvo:i:E:", so_long_options,
				  NULL)) != -1) {
		ret = opt_check_repeat(opt, seen, argv, err, errlen);
		if (!ret)
			ret = opt_parse_one(opts, opt, argc, argv, &given, err,
					    errlen);
		if (ret)
			return ret;
	}
	/* "--attach -- CMD ARGS...": observe CMD, stop when it exits. */
	if (optind < argc && optind > 0 && !strcmp(argv[optind - 1], "--") &&
	    opts->action == SO_ACT_ATTACH) {
		opts->command = argv + optind;
		opts->nr_command = argc - optind;
		optind = argc;
	}
	if (optind < argc)
		return opt_error(err, errlen, "unexpected argument '%s'%s",
				 argv[optind],
				 opts->subcommand == SO_SUB_NONE &&
						    optind == 1 ?
					    " (subcommands: record, report)" :
					    "");
	return opt_check(opts, err, errlen);
}
