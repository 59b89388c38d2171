// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#include <ctype.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "lib/exit_codes.h"
#include "cli/knobs.h"
#include "cli/options.h"

#define SO_SECONDS_MAX	(7 * 24 * 3600.0)	/* a week: a typo beyond */
#define SO_RINGBUF_KIB_MAX	1048576UL	/* 1 GiB */
#define SO_ENTRIES_MAX		1000000UL

enum so_long_only {
	SO_OPT_ATTACH = 256,
	SO_OPT_MODULE,
	SO_OPT_PATH,
	SO_OPT_PID,
	SO_OPT_DURATION,
	SO_OPT_FORMAT,
	SO_OPT_HANG_TIMEOUT,
	SO_OPT_PROBES,
	SO_OPT_VERSION,
	SO_OPT_TEST,
	SO_OPT_COUNT,
	SO_OPT_WATCH,
	SO_OPT_LIST,
	SO_OPT_FIXED,
	SO_OPT_PARAM,
	SO_OPT_WINDOW,
	SO_OPT_KNOB,
	SO_OPT_RINGBUF_KIB,
	SO_OPT_ENTRIES,
	SO_OPT_SVG,
	SO_OPT_ADDRESSES,
	SO_OPT_SEEN_MAX,	/* 'o', 'i' and these fit below */
};

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
	{ "entries",	  required_argument, NULL, 'E' },
	{ "svg",	  required_argument, NULL, SO_OPT_SVG },
	{ "addresses",	  no_argument,	     NULL, SO_OPT_ADDRESSES },
	{ NULL, 0, NULL, 0 },
};

static int so_opt_error(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int so_opt_error(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return SO_EXIT_USAGE;
}

const char *so_format_name(enum so_format format)
{
	switch (format) {
	case SO_FMT_JSON:
		return "json";
	case SO_FMT_KTAP:
		return "ktap";
	default:
		return "text";
	}
}

/* Digits only: strtoul alone would take "-1" and " 7". */
static bool so_parse_uint(const char *s, unsigned long max,
			  unsigned long *out)
{
	unsigned long v;
	char *end;

	if (!isdigit((unsigned char)s[0]))
		return false;
	v = strtoul(s, &end, 10);
	if (*end || v > max)
		return false;
	*out = v;
	return true;
}

static bool so_parse_seconds(const char *s, double *out)
{
	char *end;
	double v;

	size_t digits = strspn(s, "0123456789");

	/* Decimal only: strtod would take "0x10" and "1e3" too. */
	if (s[digits] == '.')
		digits += 1 + strspn(s + digits + 1, "0123456789");
	if (!digits || s[digits])
		return false;
	v = strtod(s, &end);
	if (*end || !isfinite(v) || v <= 0 || v > SO_SECONDS_MAX)
		return false;
	*out = v;
	return true;
}

/* A scenario id is four digits, as in sysfs.sh ("0028"). */
static bool so_is_test_id(const char *s)
{
	int i;

	for (i = 0; i < 4; i++)
		if (!isdigit((unsigned char)s[i]))
			return false;
	return s[4] == '\0';
}

/*
 * --module NAME filters; --module PATH (a '/' in it, or a .ko name) is
 * also the file the scenarios load instead of modules.dep's, and its
 * module name ("test_sysfs" from ".../test_sysfs.ko") the filter.
 */
static int so_parse_module(struct so_options *opts, const char *arg,
			   char *err, size_t errlen)
{
	const char *base = strrchr(arg, '/');
	size_t len;

	base = base ? base + 1 : arg;
	len = strcspn(base, ".");
	if (!strchr(arg, '/') && !strstr(base, ".ko")) {
		opts->module = arg;
		return 0;
	}
	if (!len || len >= sizeof(opts->module_name) ||
	    strncmp(base + len, ".ko", 3) ||
	    (base[len + 3] && base[len + 3] != '.'))
		return so_opt_error(err, errlen,
				    "--module: '%s' is not a module file "
				    "(NAME.ko)", arg);
	memcpy(opts->module_name, base, len);
	opts->module_name[len] = '\0';
	opts->module_path = arg;
	opts->module = opts->module_name;
	return 0;
}

/* "NAME=VALUE" with NAME a C identifier, as module parameters and
 * kernfs knobs are. */
static bool so_is_assignment(const char *s)
{
	const char *eq = strchr(s, '=');
	const char *p;

	if (!eq || eq == s)
		return false;
	for (p = s; p < eq; p++)
		if (!isalnum((unsigned char)*p) && *p != '_')
			return false;
	return true;
}

static int so_parse_count(struct so_options *opts, int argc, char **argv,
			  const char *id, char *err, size_t errlen)
{
	struct so_test_count *slot;
	unsigned long n;

	if (!so_is_test_id(id))
		return so_opt_error(err, errlen,
				    "--count: '%s' is not a test id (four digits, e.g. 0008)",
				    id);
	if (optind >= argc)
		return so_opt_error(err, errlen,
				    "--count %s: missing the count (--count ID N)",
				    id);
	if (!so_parse_uint(argv[optind], 100000000UL, &n) || !n)
		return so_opt_error(err, errlen,
				    "--count %s: '%s' is not a positive number",
				    id, argv[optind]);
	optind++;
	for (unsigned int i = 0; i < opts->nr_counts; i++)
		if (!strcmp(opts->counts[i].id, id))
			return so_opt_error(err, errlen,
					    "--count %s given twice: give it once",
					    id);
	if (opts->nr_counts == SO_OPT_COUNTS_MAX)
		return so_opt_error(err, errlen, "--count: more than %d given",
				    SO_OPT_COUNTS_MAX);
	slot = &opts->counts[opts->nr_counts++];
	slot->id = id;
	slot->count = n;
	return 0;
}

static int so_parse_list_item(const char **list, unsigned int *len,
			      unsigned int max, const char *opt,
			      const char *arg, char *err, size_t errlen)
{
	if (!so_is_assignment(arg))
		return so_opt_error(err, errlen, "%s: '%s' is not NAME=VALUE",
				    opt, arg);
	if (*len == max)
		return so_opt_error(err, errlen, "%s: more than %u given", opt,
				    max);
	list[(*len)++] = arg;
	return 0;
}

/* A knob name the kernel does not have, or a value it would refuse, is
 * a usage error here, not a failed write later. */
static int so_parse_knob(struct so_options *opts, const char *arg,
			 char *err, size_t errlen)
{
	char value[KNOB_VALUE_LEN];
	int id;

	if (knob_parse(arg, &id, value, sizeof(value), err, errlen))
		return SO_EXIT_USAGE;
	return so_parse_list_item(opts->knobs, &opts->nr_knobs,
				  SO_OPT_KNOBS_MAX, "--knob", arg, err,
				  errlen);
}

/* Options that take a number, after getopt found their argument. */
static int so_parse_number_opt(struct so_options *opts, int opt,
			       const char *arg, char *err, size_t errlen)
{
	unsigned long pid;

	switch (opt) {
	case SO_OPT_PID:
		if (!so_parse_uint(arg, 4194304UL, &pid) || !pid)
			return so_opt_error(err, errlen,
					    "--pid: '%s' is not a process id",
					    arg);
		opts->pid = (unsigned int)pid;
		return 0;
	case SO_OPT_RINGBUF_KIB:
		/* The kernel wants a power of 2 of whole pages. */
		if (!so_parse_uint(arg, SO_RINGBUF_KIB_MAX, &pid) ||
		    pid < 4 || (pid & (pid - 1)))
			return so_opt_error(err, errlen,
					    "--ringbuf-kib: '%s' is not a power of 2 from 4 to %lu",
					    arg, SO_RINGBUF_KIB_MAX);
		opts->ringbuf_kib = (unsigned int)pid;
		return 0;
	case 'E':
		if (!so_parse_uint(arg, SO_ENTRIES_MAX, &pid))
			return so_opt_error(err, errlen,
					    "--entries: '%s' is not a number of rows from 0 (all) to %lu",
					    arg, SO_ENTRIES_MAX);
		opts->entries = (unsigned int)pid;
		return 0;
	case SO_OPT_DURATION:
		if (!so_parse_seconds(arg, &opts->duration_s))
			break;
		return 0;
	case SO_OPT_HANG_TIMEOUT:
		if (!so_parse_seconds(arg, &opts->hang_timeout_s))
			break;
		return 0;
	default:
		if (!so_parse_seconds(arg, &opts->window_s))
			break;
		return 0;
	}
	return so_opt_error(err, errlen,
			    "--%s: '%s' is not a number of seconds (0 < S <= %g)",
			    opt == SO_OPT_DURATION	  ? "duration" :
			    opt == SO_OPT_HANG_TIMEOUT ? "hang-timeout" :
							 "window",
			    arg, SO_SECONDS_MAX);
}

/*
 * What the probes compare kernfs names ("<parent>/<name>") with: an
 * absolute path matches its last directory's entries ("dev/"), anything
 * else is a prefix as given.  Checked here, so that a path too long is a
 * usage error on every machine, not a load error on some.
 */
int so_path_filter(const char *path, char *out, size_t len)
{
	const char *base = path;
	size_t n;

	if (path[0] == '/') {
		n = strlen(path);
		while (n > 1 && path[n - 1] == '/')
			n--;
		base = path + n;
		while (base > path && base[-1] != '/')
			base--;
		snprintf(out, len, "%.*s/", (int)(path + n - base), base);
		n = (size_t)(path + n - base) + 1;
	} else {
		snprintf(out, len, "%s", path);
		n = strlen(path);
	}
	return n >= len - 1 ? -1 : 0;
}

/* Marks one of the options that choose the action; two is a conflict. */
static int so_set_action(struct so_options *opts, enum so_action action,
			 const char **given, const char *name, char *err,
			 size_t errlen)
{
	if (opts->action != SO_ACT_NONE && opts->action != action)
		return so_opt_error(err, errlen,
				    "%s and %s cannot be combined: give one",
				    *given, name);
	opts->action = action;
	*given = name;
	return 0;
}

static int so_parse_one(struct so_options *opts, int opt, int argc,
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
			return so_opt_error(err, errlen,
					    "--svg: give a file name");
		opts->svg = optarg;
		return 0;
	case 'i':
		opts->input = optarg;
		return 0;
	case 'E':
		return so_parse_number_opt(opts, opt, optarg, err, errlen);
	case SO_OPT_ATTACH:
		return so_set_action(opts, SO_ACT_ATTACH, given, "--attach",
				     err, errlen);
	case SO_OPT_PROBES:
		return so_set_action(opts, SO_ACT_PROBES, given, "--probes",
				     err, errlen);
	case SO_OPT_LIST:
		return so_set_action(opts, SO_ACT_LIST, given, "--list", err,
				     errlen);
	case SO_OPT_TEST:
		if (strcmp(optarg, "all") && !so_is_test_id(optarg))
			return so_opt_error(err, errlen,
					    "--test: '%s' is not a test id (four digits, e.g. 0028, or all)",
					    optarg);
		opts->test = optarg;
		return so_set_action(opts, SO_ACT_TEST, given, "--test", err,
				     errlen);
	case SO_OPT_WATCH:
		if (!so_is_test_id(optarg))
			return so_opt_error(err, errlen,
					    "--watch: '%s' is not a test id (four digits, e.g. 0028)",
					    optarg);
		opts->watch = optarg;
		return so_set_action(opts, SO_ACT_WATCH, given, "--watch",
				     err, errlen);
	case SO_OPT_MODULE:
		if (!optarg[0])
			return so_opt_error(err, errlen,
					    "--module: empty: give a module name or drop the option");
		return so_parse_module(opts, optarg, err, errlen);
	case SO_OPT_PATH:
		if (!optarg[0])
			return so_opt_error(err, errlen,
					    "--path: empty: give a sysfs path or drop the option");
		if (so_path_filter(optarg, opts->path_filter,
				   sizeof(opts->path_filter)))
			return so_opt_error(err, errlen,
					    "--path: '%.40s%s' is matched on its last directory or as a \"dir/attr\" prefix of at most %d characters",
					    optarg,
					    strlen(optarg) > 40 ? "..." : "",
					    SO_PATH_FILTER_LEN - 2);
		opts->path_prefix = optarg;
		return 0;
	case SO_OPT_FORMAT:
		if (!strcmp(optarg, "text"))
			opts->format = SO_FMT_TEXT;
		else if (!strcmp(optarg, "json"))
			opts->format = SO_FMT_JSON;
		else if (!strcmp(optarg, "ktap"))
			opts->format = SO_FMT_KTAP;
		else
			return so_opt_error(err, errlen,
					    "--format: '%s' is not text, json or ktap",
					    optarg);
		return 0;
	case SO_OPT_COUNT:
		return so_parse_count(opts, argc, argv, optarg, err, errlen);
	case SO_OPT_FIXED:
		opts->fixed = true;
		return 0;
	case SO_OPT_PARAM:
		return so_parse_list_item(opts->params, &opts->nr_params,
					  SO_OPT_PARAMS_MAX, "--param", optarg,
					  err, errlen);
	case SO_OPT_KNOB:
		return so_parse_knob(opts, optarg, err, errlen);
	case ':':
		return so_opt_error(err, errlen, "%s needs an argument",
				    argv[optind - 1]);
	case '?':
		if (optopt)
			return so_opt_error(err, errlen, "unknown option '-%c'",
					    optopt);
		return so_opt_error(err, errlen, "unknown option '%s'",
				    argv[optind - 1]);
	default:
		return so_parse_number_opt(opts, opt, optarg, err, errlen);
	}
}

/* Options that only make sense with a scenario run. */
static int so_check_runner_opts(const struct so_options *opts,
				bool running_test, char *err, size_t errlen)
{
	const char *alone = opts->nr_counts ? "--count" :
			    opts->fixed	    ? "--fixed" :
			    opts->nr_params ? "--param" :
			    opts->window_s  ? "--window" :
			    opts->format == SO_FMT_KTAP ? "--format ktap" :
							  NULL;

	if (alone && !running_test)
		return so_opt_error(err, errlen,
				    "%s applies to scenario runs: add --test ID or --watch ID",
				    alone);
	if (opts->nr_counts && !opts->test)
		return so_opt_error(err, errlen,
				    "--count applies to --test, not --watch");
	for (unsigned int i = 0; i < opts->nr_counts; i++)
		if (strcmp(opts->test, "all") &&
		    strcmp(opts->test, opts->counts[i].id))
			return so_opt_error(err, errlen,
					    "--count %s: that test is not run (--test %s)",
					    opts->counts[i].id, opts->test);
	return 0;
}

/* Which options go with which action and subcommand. */
static int so_check_options(struct so_options *opts, char *err,
			    size_t errlen)
{
	bool live = opts->action == SO_ACT_ATTACH ||
		    opts->action == SO_ACT_TEST || opts->action == SO_ACT_WATCH;

	if (opts->action == SO_ACT_HELP || opts->action == SO_ACT_VERSION)
		return 0;
	if (opts->quiet && opts->verbosity)
		return so_opt_error(err, errlen,
				    "-q and -v cannot be combined: give one");
	if (opts->subcommand == SO_SUB_REPORT) {
		if (opts->action != SO_ACT_NONE)
			return so_opt_error(err, errlen,
					    "report reads a trace: it takes no --attach, --test, --watch, --list or --probes");
		if (opts->output)
			return so_opt_error(err, errlen,
					    "report takes -i FILE, not -o");
		opts->action = SO_ACT_REPORT;
		if (!opts->input)
			opts->input = SO_DEFAULT_TRACE;
	} else if (opts->input) {
		return so_opt_error(err, errlen,
				    "-i FILE belongs to the report subcommand");
	}
	if (opts->subcommand == SO_SUB_RECORD) {
		if (!live)
			return so_opt_error(err, errlen,
					    "record needs something to observe: --attach, --test ID or --watch ID");
		if (!opts->output)
			opts->output = SO_DEFAULT_TRACE;
	} else if (opts->output) {
		return so_opt_error(err, errlen,
				    "-o FILE belongs to the record subcommand");
	}
	if (opts->action == SO_ACT_NONE)
		return so_opt_error(err, errlen,
				    "nothing to do: give --attach, --test ID, --list, --probes, record or report");
	if (opts->svg && (opts->action == SO_ACT_WATCH ||
			  (opts->action == SO_ACT_TEST &&
			   !strcmp(opts->test, "all"))))
		return so_opt_error(err, errlen,
				    "--svg draws one session: give one test ID or --attach (or record, then report --svg)");
	if (opts->svg && !live && opts->action != SO_ACT_REPORT)
		return so_opt_error(err, errlen,
				    "--svg goes with --attach, --test ID or report");
	if (opts->duration_s && opts->action != SO_ACT_ATTACH)
		return so_opt_error(err, errlen,
				    "--duration applies to --attach (a test ends by itself)");
	if (opts->nr_knobs && live && opts->action != SO_ACT_ATTACH)
		return so_opt_error(err, errlen,
				    "--knob applies to --attach (scenarios 0029-0032 set the knobs themselves)");
	if (!live && (opts->module || opts->path_prefix || opts->pid ||
		      opts->nr_knobs || opts->hang_timeout_s))
		return so_opt_error(err, errlen,
				    "filters, --knob and --hang-timeout apply to --attach, --test and --watch");
	return so_check_runner_opts(opts, opts->action == SO_ACT_TEST ||
						  opts->action == SO_ACT_WATCH,
				    err, errlen);
}

/*
 * An option that takes one value, given twice, is an error: "last one
 * wins" would silently drop what the user typed first.  Repeatable:
 * --param, --knob, --count (once per id), -v; flags may repeat.
 */
static int so_check_repeat(int opt, bool seen[SO_OPT_SEEN_MAX], char **argv,
			   char *err, size_t errlen)
{
	switch (opt) {
	case 'o': case 'i':
	case SO_OPT_MODULE: case SO_OPT_PATH: case SO_OPT_PID:
	case SO_OPT_DURATION: case SO_OPT_FORMAT: case SO_OPT_HANG_TIMEOUT:
	case SO_OPT_TEST: case SO_OPT_WATCH: case SO_OPT_WINDOW:
	case SO_OPT_RINGBUF_KIB: case 'E': case SO_OPT_SVG:
		break;
	default:
		return 0;
	}
	if (opt < 0 || opt >= SO_OPT_SEEN_MAX)
		return 0;
	if (seen[opt])
		return so_opt_error(err, errlen,
				    "%s given twice: give it once",
				    argv[optind - 1][0] == '-' ?
					    argv[optind - 1] : argv[optind - 2]);
	seen[opt] = true;
	return 0;
}

int so_options_parse(struct so_options *opts, int argc, char **argv,
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
		ret = so_check_repeat(opt, seen, argv, err, errlen);
		if (!ret)
			ret = so_parse_one(opts, opt, argc, argv, &given, err,
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
		return so_opt_error(err, errlen, "unexpected argument '%s'%s",
				    argv[optind],
				    opts->subcommand == SO_SUB_NONE &&
						    optind == 1 ?
					    " (subcommands: record, report)" :
					    "");
	return so_check_options(opts, err, errlen);
}

void so_usage_line(FILE *out)
{
	fprintf(out,
		"usage: sysfs-observe [record [-o FILE] | report [-i FILE]]\n"
		"         [--attach | --test ID|all | --watch ID | --list | --probes] [OPTIONS]\n"
		"Try 'sysfs-observe --help' for more.\n");
}

void so_usage(FILE *out)
{
	fprintf(out,
"usage: sysfs-observe [OPTIONS] --attach | --test ID|all | --watch ID\n"
"       sysfs-observe record [-o FILE] [OPTIONS] --attach | --test ID\n"
"       sysfs-observe report [-i FILE] [--format text|json]\n"
"       sysfs-observe --list | --probes | --help | --version\n"
"\n"
"Watch sysfs/kernfs writes, active references, drains, module references\n"
"and locks with eBPF; report lock-order cycles as DEADLOCK-PRONE or GATED.\n"
"\n"
"What to do:\n"
"  --attach            observe whatever runs until Ctrl-C or --duration\n"
"  --attach -- CMD...  observe while CMD runs, stop when it exits\n"
"  --test ID|all       run a sysfs.sh scenario (or all) under observation\n"
"  --watch ID          run a scenario again and again until it fails\n"
"  --list              list the scenarios\n"
"  --probes            print how each probe attaches on this kernel\n"
"  record              like the above, into a trace file (-o, default\n"
"                      " SO_DEFAULT_TRACE ")\n"
"  report              print a trace file's summary (-i, same default)\n"
"\n"
"Filters:\n"
"  --module NAME       only this module's attributes and references\n"
"  --module PATH.ko    ... and scenarios load this file, not modules.dep's\n"
"  --path PREFIX       only sysfs paths under PREFIX\n"
"  --pid PID           only this process\n"
"  --duration S        stop --attach after S seconds\n"
"  --hang-timeout S    a task blocked S seconds counts as a hang\n"
"\n"
"Scenarios:\n"
"  --count ID N        run scenario ID N times (repeatable)\n"
"  --fixed             load the module with enable_try_module_get=1\n"
"  --param NAME=VAL    extra module parameter (repeatable)\n"
"  --window S          the loops' time window (default 2 s)\n"
"\n"
"The kernfs knobs (a kernel from kernfs/; see --test 0029-0032):\n"
"  --knob NAME=VALUE   set a kernfs knob for an --attach session,\n"
"                      restored after it (repeatable): wait_at_start,\n"
"                      wait_before_mutex, wait_after_mutex,\n"
"                      wait_after_active (Y/N), sleep_after_wait_ms,\n"
"                      interval, probability, times, space, verbose\n"
"\n"
"Output:\n"
"  --format FMT        text (default), json, or ktap (scenario runs)\n"
"  -q, --quiet         no live stream, the summary only\n"
"  -v, --verbose       more detail; -vv debug; -vvv libbpf debug too\n"
"  -E, --entries N     rows per summary table (default %u; 0 for all)\n"
"  --svg FILE          the picture of each cycle and deadlock (SVG)\n"
"  --addresses         print kernel addresses, not #handles (root only)\n"
"  --ringbuf-kib N     the ring buffer's size in KiB (default 4096)\n"
"  -o, --output FILE   record: the trace file to write\n"
"  -i, --input FILE    report: the trace file to read\n"
"  -h, --help          this text\n"
"      --version       print the version\n"
"\n"
"Exit status (kselftest): 0 pass, 1 fail or deadlock-prone, 2 usage,\n"
"4 skip (no root, no BTF, no tracing in this kernel; no kernfs knobs for\n"
"--knob and scenarios 0029-0032: build that kernel, make kernfs-kernel).\n"
"\n"
"EXAMPLES:\n"
"  sudo sysfs-observe --test 0028          # rmmod under lock: the cycle\n"
"  sudo sysfs-observe --test 0028 --fixed  # the same, gated by the fix\n"
"  sudo sysfs-observe --test all --format ktap\n"
"  sudo sysfs-observe --attach --module test_sysfs --duration 10\n"
"  sudo sysfs-observe --test 0032          # store vs removal, knob kernel\n"
"  sudo sysfs-observe --attach --knob wait_after_active=Y \\\n"
"       --knob probability=100 --knob times=1 -- sh -c 'echo 1 >FILE'\n"
"  sudo sysfs-observe record -o 0018.data --test 0018\n"
"  sysfs-observe report -i 0018.data --format json\n",
		SO_ENTRIES_DEFAULT);
}
