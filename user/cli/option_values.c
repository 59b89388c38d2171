// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * One option's argument at a time: is it a number, a test id, a module
 * file, NAME=VALUE, and does it fit its table?  Apart from the parser
 * (options.c) because these are the rules a user meets in the error
 * messages, and they change without the getopt loop changing.
 */
#include <ctype.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "lib/exit_codes.h"
#include "cli/knobs.h"
#include "cli/option_parse.h"

int opt_error(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return SO_EXIT_USAGE;
}

/* Digits only: strtoul alone would take "-1" and " 7". */
static bool opt_parse_uint(const char *s, unsigned long max,
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

static bool opt_parse_seconds(const char *s, double *out)
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
bool opt_is_test_id(const char *s)
{
	int i;

	for (i = 0; i < 4; i++)
		if (!isdigit((unsigned char)s[i]))
			return false;
	return s[4] == '\0';
}

/* "0029-0032": two ids, the first not after the second. */
static bool opt_is_test_range(const char *s)
{
	char from[5];

	if (strlen(s) != 9 || s[4] != '-' || !opt_is_test_id(s + 5))
		return false;
	memcpy(from, s, 4);
	from[4] = '\0';
	return opt_is_test_id(from) && memcmp(from, s + 5, 4) <= 0;
}

bool opt_is_test_selection(const char *s)
{
	return !strcmp(s, "all") || opt_is_test_id(s) || opt_is_test_range(s);
}

/* Ids are four digits: their text orders them as their numbers do. */
bool opt_test_selects(const char *selection, const char *id)
{
	if (!strcmp(selection, "all"))
		return true;
	if (opt_is_test_range(selection))
		return memcmp(selection, id, 4) <= 0 &&
		       memcmp(id, selection + 5, 4) <= 0;
	return !strcmp(selection, id);
}

/*
 * --module NAME filters; --module PATH (a '/' in it, or a .ko name) is
 * also the file the scenarios load instead of modules.dep's, and its
 * module name ("test_sysfs" from ".../test_sysfs.ko") the filter.
 */
int opt_parse_module(struct so_options *opts, const char *arg,
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
		return opt_error(err, errlen,
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
static bool opt_is_assignment(const char *s)
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

int opt_parse_count(struct so_options *opts, int argc, char **argv,
		    const char *id, char *err, size_t errlen)
{
	struct so_test_count *slot;
	unsigned long n;

	if (!opt_is_test_id(id))
		return opt_error(err, errlen,
				 "--count: '%s' is not a test id (four digits, e.g. 0008)",
				 id);
	if (optind >= argc)
		return opt_error(err, errlen,
				 "--count %s: missing the count (--count ID N)",
				 id);
	if (!opt_parse_uint(argv[optind], 100000000UL, &n) || !n)
		return opt_error(err, errlen,
				 "--count %s: '%s' is not a positive number",
				 id, argv[optind]);
	optind++;
	for (unsigned int i = 0; i < opts->nr_counts; i++)
		if (!strcmp(opts->counts[i].id, id))
			return opt_error(err, errlen,
					 "--count %s given twice: give it once",
					 id);
	if (opts->nr_counts == SO_OPT_COUNTS_MAX)
		return opt_error(err, errlen, "--count: more than %d given",
				 SO_OPT_COUNTS_MAX);
	slot = &opts->counts[opts->nr_counts++];
	slot->id = id;
	slot->count = n;
	return 0;
}

int opt_parse_list_item(const char **list, unsigned int *len,
			unsigned int max, const char *opt,
			const char *arg, char *err, size_t errlen)
{
	if (!opt_is_assignment(arg))
		return opt_error(err, errlen, "%s: '%s' is not NAME=VALUE",
				 opt, arg);
	if (*len == max)
		return opt_error(err, errlen, "%s: more than %u given", opt,
				 max);
	list[(*len)++] = arg;
	return 0;
}

/* A knob name the kernel does not have, or a value it would refuse, is
 * a usage error here, not a failed write later. */
int opt_parse_knob(struct so_options *opts, const char *arg,
		   char *err, size_t errlen)
{
	char value[KNOB_VALUE_LEN];
	int id;

	if (knob_parse(arg, &id, value, sizeof(value), err, errlen))
		return SO_EXIT_USAGE;
	return opt_parse_list_item(opts->knobs, &opts->nr_knobs,
				   SO_OPT_KNOBS_MAX, "--knob", arg, err,
				   errlen);
}

/* Options that take a number, after getopt found their argument. */
int opt_parse_number(struct so_options *opts, int opt,
		     const char *arg, char *err, size_t errlen)
{
	unsigned long pid;

	switch (opt) {
	case SO_OPT_PID:
		if (!opt_parse_uint(arg, 4194304UL, &pid) || !pid)
			return opt_error(err, errlen,
					 "--pid: '%s' is not a process id",
					 arg);
		opts->pid = (unsigned int)pid;
		return 0;
	case SO_OPT_RINGBUF_KIB:
		/* The kernel wants a power of 2 of whole pages. */
		if (!opt_parse_uint(arg, SO_RINGBUF_KIB_MAX, &pid) ||
		    pid < 4 || (pid & (pid - 1)))
			return opt_error(err, errlen,
					 "--ringbuf-kib: '%s' is not a power of 2 from 4 to %lu",
					 arg, SO_RINGBUF_KIB_MAX);
		opts->ringbuf_kib = (unsigned int)pid;
		return 0;
	case SO_OPT_MAP_NR_ENTRIES:
		if (!opt_parse_uint(arg, SO_MAP_NR_ENTRIES_MAX, &pid) ||
		    pid < SO_MAP_NR_ENTRIES_MIN)
			return opt_error(err, errlen,
					 "--map-nr-entries: '%s' is not a number from %lu to %lu",
					 arg, SO_MAP_NR_ENTRIES_MIN,
					 SO_MAP_NR_ENTRIES_MAX);
		opts->map_nr_entries = (unsigned int)pid;
		return 0;
	case 'E':
		if (!opt_parse_uint(arg, SO_ENTRIES_MAX, &pid))
			return opt_error(err, errlen,
					 "--entries: '%s' is not a number of rows from 0 (all) to %lu",
					 arg, SO_ENTRIES_MAX);
		opts->entries = (unsigned int)pid;
		return 0;
	case SO_OPT_DURATION:
		if (!opt_parse_seconds(arg, &opts->duration_s))
			break;
		return 0;
	case SO_OPT_HANG_TIMEOUT:
		if (!opt_parse_seconds(arg, &opts->hang_timeout_s))
			break;
		return 0;
	default:
		if (!opt_parse_seconds(arg, &opts->window_s))
			break;
		return 0;
	}
	return opt_error(err, errlen,
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
int opt_path_filter(const char *path, char *out, size_t len)
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
