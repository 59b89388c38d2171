// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * The ranges are the kernel's where it has one (probability is a
 * percentage, times -1 means no limit, verbose 0..2) and a typo guard
 * where it has none: sleep_after_wait_ms is a u32, but a writer asleep
 * for more than a minute outlives every timeout of the tool.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/knobs.h"

#define WAIT(n)  { "wait_" #n, KNOB_WAIT_DIR "/wait_" #n, KNOB_BOOL, 0, 1 }
#define FAULT(n, lo, hi)  { #n, KNOB_FAULT_DIR "/" #n, KNOB_INT, lo, hi }

const struct knob_def knob_defs[KNOB_NR] = {
	[KNOB_WAIT_AT_START]	   = WAIT(at_start),
	[KNOB_WAIT_BEFORE_MUTEX]   = WAIT(before_mutex),
	[KNOB_WAIT_AFTER_MUTEX]	   = WAIT(after_mutex),
	[KNOB_WAIT_AFTER_ACTIVE]   = WAIT(after_active),
	[KNOB_SLEEP_AFTER_WAIT_MS] = { "sleep_after_wait_ms",
				       "sleep_after_wait_ms", KNOB_INT, 0,
				       60000 },
	[KNOB_INTERVAL]		   = FAULT(interval, 1, 1000000000),
	[KNOB_PROBABILITY]	   = FAULT(probability, 0, 100),
	[KNOB_TIMES]		   = FAULT(times, -1, 2147483647),
	[KNOB_SPACE]		   = FAULT(space, 0, 2147483647),
	[KNOB_VERBOSE]		   = FAULT(verbose, 0, 2),
};

int knob_find(const char *name)
{
	int i;

	for (i = 0; i < KNOB_NR; i++)
		if (!strcmp(knob_defs[i].name, name))
			return i;
	return -1;
}

bool knob_is_wait(int id)
{
	return id >= 0 && id < KNOB_NR_WAITS;
}

static int knob_error(char *err, size_t errlen, const char *assignment,
		      const char *why)
{
	snprintf(err, errlen, "--knob: '%s': %s", assignment, why);
	return -1;
}

/* kstrtobool's spellings that a person types: Y/y/1 and N/n/0. */
static const char *knob_bool_text(const char *text)
{
	if (!strcmp(text, "Y") || !strcmp(text, "y") || !strcmp(text, "1"))
		return "Y";
	if (!strcmp(text, "N") || !strcmp(text, "n") || !strcmp(text, "0"))
		return "N";
	return NULL;
}

/* Decimal digits with an optional '-': strtoll alone takes " 7", "0x7". */
static bool knob_int_text(const char *text, long long *out)
{
	const char *digits = text[0] == '-' ? text + 1 : text;
	char *end;

	if (!isdigit((unsigned char)digits[0]) || strlen(digits) > 12)
		return false;
	errno = 0;
	*out = strtoll(text, &end, 10);
	return !*end && !errno;
}

int knob_parse(const char *assignment, int *id, char *value, size_t vlen,
	       char *err, size_t errlen)
{
	const char *eq = strchr(assignment, '=');
	const struct knob_def *def;
	char name[64], why[160];
	long long v;
	size_t len;

	len = eq ? (size_t)(eq - assignment) : 0;
	if (!eq || !len || len >= sizeof(name))
		return knob_error(err, errlen, assignment, "not NAME=VALUE");
	memcpy(name, assignment, len);
	name[len] = '\0';
	*id = knob_find(name);
	if (*id < 0)
		return knob_error(err, errlen, assignment,
				  "no such knob (wait_at_start, wait_before_mutex, wait_after_mutex, wait_after_active, sleep_after_wait_ms, interval, probability, times, space, verbose)");
	def = &knob_defs[*id];
	if (def->type == KNOB_BOOL) {
		const char *text = knob_bool_text(eq + 1);

		if (!text) {
			snprintf(why, sizeof(why), "%s is a bool: Y or N",
				 def->name);
			return knob_error(err, errlen, assignment, why);
		}
		snprintf(value, vlen, "%s", text);
		return 0;
	}
	if (!knob_int_text(eq + 1, &v) || v < def->min || v > def->max) {
		snprintf(why, sizeof(why), "%s is a whole number, %lld..%lld",
			 def->name, def->min, def->max);
		return knob_error(err, errlen, assignment, why);
	}
	snprintf(value, vlen, "%lld", v);
	return 0;
}

void knob_state_set(struct knob_state *st, int id, const char *text)
{
	size_t n;

	if (id < 0 || id >= KNOB_NR)
		return;
	snprintf(st->value[id], sizeof(st->value[id]), "%s", text);
	n = strcspn(st->value[id], "\n");
	st->value[id][n] = '\0';
	st->have[id] = true;
}

/* The four that say what a write will meet; space and verbose do not. */
bool knob_in_header(const struct knob_state *st, int id)
{
	if (!st->present || id < 0 || id >= KNOB_NR || !st->have[id])
		return false;
	if (knob_is_wait(id))
		return !strcmp(st->value[id], "Y");
	return id != KNOB_SPACE && id != KNOB_VERBOSE;
}

void knob_describe(const struct knob_state *st, char *buf, size_t len)
{
	size_t used = 0;
	int i;

	if (!len)
		return;
	buf[0] = '\0';
	if (!st->present) {
		snprintf(buf, len, "none (%s)",
			 st->reason[0] ? st->reason : "not detected");
		return;
	}
	for (i = 0; i < KNOB_NR; i++) {
		if (!knob_in_header(st, i))
			continue;
		if (used >= len)
			break;		/* truncated: the header is a summary */
		used += snprintf(buf + used, len - used, "%s%s=%s",
				 used ? " " : "", knob_defs[i].name,
				 st->value[i]);
	}
	if (!used)
		snprintf(buf, len, "(none readable)");
}
