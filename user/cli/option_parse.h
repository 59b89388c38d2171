/* SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1 */
/*
 * What the option parser (options.c) shares with the value checks
 * (option_values.c) and the combination checks (option_checks.c), and
 * nobody else: the long-only option codes and the one error helper.
 * Apart from options.h so that the public interface stays the struct and
 * opt_parse().
 */
#ifndef SO_OPTION_PARSE_H
#define SO_OPTION_PARSE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include "cli/options.h"

#define SO_SECONDS_MAX	(7 * 24 * 3600.0)	/* a week: a typo beyond */
#define SO_RINGBUF_KIB_MAX	1048576UL	/* 1 GiB */
#define SO_MAP_NR_ENTRIES_MIN	64UL		/* below, a table fills at once */
#define SO_MAP_NR_ENTRIES_MAX	1048576UL	/* stacks alone: 256 MiB */
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
	SO_OPT_MAP_NR_ENTRIES,
	SO_OPT_ENTRIES,
	SO_OPT_SVG,
	SO_OPT_ADDRESSES,
	SO_OPT_SEEN_MAX,	/* 'o', 'i' and these fit below */
};

/* getopt_long returns both kinds in one int: no long-only code may be a
 * short option's letter, and opt_check_repeat's seen[] covers both. */
_Static_assert(SO_OPT_ATTACH > UCHAR_MAX,
	       "long-only option codes must not collide with short options");
_Static_assert(SO_OPT_SEEN_MAX > 'o' && SO_OPT_SEEN_MAX > 'i' &&
	       SO_OPT_SEEN_MAX > 'E', "seen[] must cover -o, -i and -E");

/* Writes the message into err; returns SO_EXIT_USAGE, for `return`. */
int opt_error(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* option_values.c: one option's argument, checked and stored. */
int opt_parse_module(struct so_options *opts, const char *arg, char *err,
		     size_t errlen);
/* --count ID N: takes N from argv[optind]. */
int opt_parse_count(struct so_options *opts, int argc, char **argv,
		    const char *id, char *err, size_t errlen);
int opt_parse_list_item(const char **list, unsigned int *len,
			unsigned int max, const char *opt, const char *arg,
			char *err, size_t errlen);
int opt_parse_knob(struct so_options *opts, const char *arg, char *err,
		   size_t errlen);
int opt_parse_number(struct so_options *opts, int opt, const char *arg,
		     char *err, size_t errlen);

/* option_checks.c: which options go with which action and subcommand. */
int opt_check(struct so_options *opts, char *err, size_t errlen);

#endif /* SO_OPTION_PARSE_H */
