/* SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1 */
/*
 * The command line, parsed into a struct and nothing else: no output, no
 * files opened, so every good and bad input is a unit test.  main() prints
 * the error and opt_usage_line(), and exits SO_EXIT_USAGE.
 */
#ifndef SO_OPTIONS_H
#define SO_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "observe.h"

#define SO_OPT_COUNTS_MAX	64
/* perf lock's -E: the summary's tables show this many rows. */
#define SO_ENTRIES_DEFAULT	10
#define SO_OPT_PARAMS_MAX	32
#define SO_OPT_KNOBS_MAX	16
#define SO_DEFAULT_TRACE	"sysfs-observe.data"

enum so_subcommand {
	SO_SUB_NONE,		/* observe or test, live */
	SO_SUB_RECORD,		/* the same, into a trace file */
	SO_SUB_REPORT,		/* summarize a trace file */
};

/* What to do; exactly one per run. */
enum so_action {
	SO_ACT_NONE,
	SO_ACT_HELP,
	SO_ACT_VERSION,
	SO_ACT_PROBES,		/* print each probe's mode and exit */
	SO_ACT_LIST,		/* list the scenarios */
	SO_ACT_ATTACH,		/* observe whatever runs */
	SO_ACT_TEST,		/* run --test ID|FROM-TO|all */
	SO_ACT_WATCH,		/* run --watch ID until it fails */
	SO_ACT_REPORT,
};

enum so_format {
	SO_FMT_TEXT,
	SO_FMT_JSON,
	SO_FMT_KTAP,
};

struct so_test_count {
	const char *id;		/* "0008" */
	unsigned long count;
};

struct so_options {
	enum so_subcommand subcommand;
	enum so_action action;
	enum so_format format;
	int verbosity;		/* -v 1, -vv 2, -vvv 3 (libbpf debug) */
	bool quiet;		/* -q: summary only, no live stream */
	unsigned int entries;	/* -E: rows per summary table, 0 all */

	/* filters (--attach, --test) */
	const char *module;	/* --module NAME, or PATH's module name */
	const char *module_path;	/* --module PATH/NAME.ko: load this */
	char module_name[64];	/* the name out of module_path */
	const char *path_prefix;
	unsigned int pid;	/* 0: any */
	double duration_s;	/* 0: until Ctrl-C (attach) */
	double hang_timeout_s;	/* blocked this long = a hang */
	/* --ringbuf-kib: the ring buffer's size, a power of 2; 0 default. */
	unsigned int ringbuf_kib;
	/* --map-nr-entries: entries of each table that grows with what is
	 * observed (classes, edges, stacks, names); 0 their defaults. */
	unsigned int map_nr_entries;
	/* --path as the probes match it: "<dir>/" of an absolute path,
	 * else the prefix as given ("test_sysfs0/test_dev_x"). */
	char path_filter[SO_PATH_FILTER_LEN];

	char **command;		/* --attach -- CMD ARGS... (NULL-terminated) */
	int nr_command;

	const char *output;	/* record -o */
	const char *input;	/* report -i */
	const char *svg;	/* --svg FILE: the picture */
	bool addresses;		/* --addresses: raw kernel addresses */

	/* the scenario runner */
	const char *test;	/* "0028", "0029-0032" or "all" */
	const char *watch;
	bool fixed;		/* load with enable_try_module_get=1 */
	double window_s;	/* 0: the scenario's default (2 s) */
	unsigned int nr_counts;
	struct so_test_count counts[SO_OPT_COUNTS_MAX];
	unsigned int nr_params;
	const char *params[SO_OPT_PARAMS_MAX];	/* "NAME=VAL" */
	unsigned int nr_knobs;
	const char *knobs[SO_OPT_KNOBS_MAX];	/* "NAME=VALUE" */
};

/*
 * Parses argv into opts (pointers into argv).  Returns 0, or
 * SO_EXIT_USAGE with the reason in err ("--pid: 'abc' is not a number").
 */
int opt_parse(struct so_options *opts, int argc, char **argv,
	      char *err, size_t errlen);
/* The one-line reminder after an error. */
/* A scenario id: four digits, as in sysfs.sh ("0028"). */
bool opt_is_test_id(const char *s);
/* --test's argument: an id, a range FROM-TO of ids (FROM <= TO), or all. */
bool opt_is_test_selection(const char *s);
/* Whether that selection takes scenario id; one id selects only itself. */
bool opt_test_selects(const char *selection, const char *id);
void opt_usage_line(FILE *out);
/* --help: every option, then EXAMPLES. */
void opt_usage(FILE *out);
const char *opt_format_name(enum so_format format);

/* --path as the probes match it, into out (SO_PATH_FILTER_LEN); -1 when
 * it does not fit. */
int opt_path_filter(const char *path, char *out, size_t len);

#endif /* SO_OPTIONS_H */
