// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * Lockdep's circular-dependency report (kernel/locking/lockdep.c,
 * print_circular_bug_header()), as 6.1 prints it:
 *
 *   WARNING: possible circular locking dependency detected
 *   ...
 *   modprobe/168 is trying to acquire lock:
 *   ffff888004a3c0b0 (kn->active#3){++++}-{0:0}, at: kernfs_drain+0x..
 *
 *   but task is already holding lock:
 *   ffffffffc0462100 (&test_dev->config_mutex){+.+.}-{3:3}, at: ...
 */
#include <ctype.h>
#include <string.h>
#include "analysis/dmesg_check.h"
#include "analysis/lockdep_report.h"
#include "trace/record.h"

#define LDR_HEADER	"possible circular locking dependency detected"
#define LDR_TRYING	" is trying to acquire lock:"
#define LDR_HOLDING	"but task is already holding lock:"

/* One line of the log without klogctl's "<4>" and the "[ 1.23]" stamp. */
static const char *ldr_text(const char *line, const char *end)
{
	const char *p = line;

	if (p < end && *p == '<') {
		const char *q = memchr(p, '>', (size_t)(end - p));

		if (q)
			p = q + 1;
	}
	if (p < end && *p == '[') {
		const char *q = memchr(p, ']', (size_t)(end - p));

		if (q)
			p = q + 1;
	}
	while (p < end && *p == ' ')
		p++;
	return p;
}

static void ldr_copy(char *dst, size_t len, const char *src, size_t n)
{
	if (n >= len)
		n = len - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
	/* A task names itself (PR_SET_NAME): never raw to a terminal. */
	record_escape_str(dst, len);
}

/* "<addr> (<name>){usage}-{wait}, at: ...": the name, which may hold
 * parentheses itself ("(work_completion)(&w->work)"). */
static bool ldr_lock_name(const char *p, const char *end, char *name,
			  size_t len)
{
	const char *open = memchr(p, '(', (size_t)(end - p));
	const char *close = NULL, *q;

	if (!open)
		return false;
	for (q = open + 1; q + 1 < end; q++)
		if (q[0] == ')' && q[1] == '{')
			close = q;
	if (!close)
		for (q = open + 1; q < end; q++)
			if (*q == ')')
				close = q;
	if (!close || close == open + 1)
		return false;
	ldr_copy(name, len, open + 1, (size_t)(close - open - 1));
	return true;
}

static bool ldr_has(const char *p, const char *end, const char *what)
{
	size_t n = strlen(what);

	for (; p + n <= end; p++)
		if (!memcmp(p, what, n))
			return true;
	return false;
}

size_t ldr_parse_circular(const char *log, const char *marker,
			  struct ldr_report *out, size_t max)
{
	enum { SEEK, TASK, ACQUIRING, HOLDING_LINE, HOLDING } state = SEEK;
	struct ldr_report cur;
	const char *line = sc_dmesg_after_marker(log, marker);
	size_t nr = 0, tl = strlen(LDR_TRYING);

	memset(&cur, 0, sizeof(cur));
	while (*line) {
		const char *end = strchr(line, '\n');
		const char *p;

		if (!end)
			end = line + strlen(line);
		p = ldr_text(line, end);
		if (ldr_has(p, end, LDR_HEADER)) {
			memset(&cur, 0, sizeof(cur));
			state = TASK;
		} else if (state == TASK && (size_t)(end - p) > tl &&
			   !memcmp(end - tl, LDR_TRYING, tl)) {
			ldr_copy(cur.task, sizeof(cur.task), p,
				 (size_t)(end - tl - p));
			state = ACQUIRING;
		} else if (state == ACQUIRING && p < end) {
			state = ldr_lock_name(p, end, cur.acquiring,
					      sizeof(cur.acquiring)) ?
				HOLDING_LINE : SEEK;
		} else if (state == HOLDING_LINE &&
			   ldr_has(p, end, LDR_HOLDING)) {
			state = HOLDING;
		} else if (state == HOLDING && p < end) {
			if (ldr_lock_name(p, end, cur.holding,
					  sizeof(cur.holding))) {
				if (nr < max)
					out[nr] = cur;
				nr++;
			}
			state = SEEK;
		}
		line = *end ? end + 1 : end;
	}
	return nr;
}

/* Drops a trailing "<c><digits>" (lockdep's "#N" or "/N"). */
static size_t ldr_strip(const char *name, size_t n, char c)
{
	size_t i = n;

	while (i > 0 && isdigit((unsigned char)name[i - 1]))
		i--;
	return i < n && i > 0 && name[i - 1] == c ? i - 1 : n;
}

bool ldr_class_matches(const char *lockdep_name, const char *our_name)
{
	size_t n = strlen(lockdep_name);

	n = ldr_strip(lockdep_name, n, '/');
	n = ldr_strip(lockdep_name, n, '#');
	if (n == strlen("kn->active") && !memcmp(lockdep_name, "kn->active", n))
		return !strncmp(our_name, "kn:", 3);
	return strlen(our_name) == n && !memcmp(lockdep_name, our_name, n);
}

static bool ldr_cycle_has(const struct og_graph *graph,
			  const struct og_cycle *cycle, const char *name)
{
	char fallback[64];
	uint32_t i;

	for (i = 0; i < cycle->nr; i++)
		if (ldr_class_matches(name, og_class_name(graph,
							  cycle->classes[i],
							  fallback,
							  sizeof(fallback))))
			return true;
	return false;
}

const struct og_cycle *ldr_our_cycle(const struct og_graph *graph,
				     const struct ldr_report *report)
{
	const struct og_cycle *best = NULL;
	uint32_t i;

	for (i = 0; i < og_cycle_count(graph); i++) {
		const struct og_cycle *c = og_cycle_at(graph, i);

		if (!ldr_cycle_has(graph, c, report->acquiring) ||
		    !ldr_cycle_has(graph, c, report->holding))
			continue;
		if (!best || c->verdict.kind > best->verdict.kind)
			best = c;
	}
	return best;
}
