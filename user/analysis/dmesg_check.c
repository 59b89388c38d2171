// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#include <regex.h>
#include <stdio.h>
#include <string.h>
#include "analysis/dmesg_check.h"

/* check_dmesg's egrep patterns; "\bBUG:" spelled without GNU's \b. */
static const char *const sc_splat_patterns[] = {
	"kernel BUG at",
	"WARNING:",
	"(^|[^[:alnum:]_])BUG:",
	"Oops:",
	"possible recursive locking detected",
	"Internal error",
	"(INFO|ERR): suspicious RCU usage",
	"INFO: possible circular locking dependency detected",
	"general protection fault:",
	"BUG .* remaining",
	"UBSAN:",
};

/* _check_dmesg_filter: lockdep's own limits are not the test's fault. */
static const char *const sc_splat_ignored[] = {
	"BUG: MAX_LOCKDEP_CHAIN_HLOCKS too low",
	"BUG: MAX_STACK_TRACE_ENTRIES too low",
};

#define SC_NR(a) (sizeof(a) / sizeof((a)[0]))

static bool sc_line_is_splat(const char *text, const regex_t *res,
			     unsigned int flags)
{
	size_t i;

	if ((flags & SC_DMESG_CYCLES_JUDGED) &&
	    strstr(text, "possible circular locking dependency detected"))
		return false;
	for (i = 0; i < SC_NR(sc_splat_ignored); i++)
		if (strstr(text, sc_splat_ignored[i]))
			return false;
	for (i = 0; i < SC_NR(sc_splat_patterns); i++)
		if (!regexec(&res[i], text, 0, NULL, 0))
			return true;
	return false;
}

const char *sc_dmesg_after_marker(const char *log, const char *marker)
{
	const char *p, *last = NULL;

	if (!marker || !*marker)
		return log;
	for (p = strstr(log, marker); p; p = strstr(p + 1, marker))
		last = p;
	if (!last)
		return log;
	p = strchr(last, '\n');
	return p ? p + 1 : last + strlen(last);
}

bool sc_dmesg_splat(const char *log, const char *marker, unsigned int flags,
		    char *line, size_t linelen)
{
	regex_t res[SC_NR(sc_splat_patterns)];
	const char *p = sc_dmesg_after_marker(log, marker);
	char text[1024];
	bool found = false;
	size_t i, n;

	for (i = 0; i < SC_NR(sc_splat_patterns); i++)
		if (regcomp(&res[i], sc_splat_patterns[i],
			    REG_EXTENDED | REG_NOSUB))
			break;
	n = i;
	while (n == SC_NR(sc_splat_patterns) && *p && !found) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);

		if (len >= sizeof(text))
			len = sizeof(text) - 1;
		memcpy(text, p, len);
		text[len] = '\0';
		if (sc_line_is_splat(text, res, flags)) {
			found = true;
			if (line && linelen)
				snprintf(line, linelen, "%s", text);
		}
		p = eol ? eol + 1 : p + strlen(p);
	}
	for (i = 0; i < n; i++)
		regfree(&res[i]);
	return found;
}
