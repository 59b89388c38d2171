/* SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1 */
/*
 * The kernfs failure-injection knobs of the knob kernel (kernfs/README.md):
 * their names, files, value checks, and the one-line state of a report
 * header.  Pure: user/kernel/knobfs.c reads and writes the files.
 *
 *   /sys/kernel/debug/kernfs/
 *     config_fail_kernfs_fop_write_iter/wait_{at_start,before_mutex,
 *                                           after_mutex,after_active}
 *     sleep_after_wait_ms
 *     fail_kernfs_fop_write_iter/{interval,probability,times,space,verbose}
 */
#ifndef SO_KNOBS_H
#define SO_KNOBS_H

#include <stdbool.h>
#include <stddef.h>

#define KNOB_ROOT	"/sys/kernel/debug/kernfs"
#define KNOB_WAIT_DIR	"config_fail_kernfs_fop_write_iter"
#define KNOB_FAULT_DIR	"fail_kernfs_fop_write_iter"
#define KNOB_VALUE_LEN	24
#define KNOB_REASON_LEN	256

/* The four wait points first, in the order a write passes them. */
enum knob_id {
	KNOB_WAIT_AT_START,
	KNOB_WAIT_BEFORE_MUTEX,
	KNOB_WAIT_AFTER_MUTEX,
	KNOB_WAIT_AFTER_ACTIVE,
	KNOB_SLEEP_AFTER_WAIT_MS,
	KNOB_INTERVAL,
	KNOB_PROBABILITY,
	KNOB_TIMES,
	KNOB_SPACE,
	KNOB_VERBOSE,
	KNOB_NR,
};

#define KNOB_NR_WAITS	(KNOB_WAIT_AFTER_ACTIVE + 1)

enum knob_type {
	KNOB_BOOL,		/* debugfs bool: reads Y or N */
	KNOB_INT,		/* decimal, min..max */
};

struct knob_def {
	const char *name;	/* --knob NAME */
	const char *file;	/* under KNOB_ROOT */
	enum knob_type type;
	long long min, max;
};

extern const struct knob_def knob_defs[KNOB_NR];

/* "wait_after_active" -> its id; -1 for a name that is no knob. */
int knob_find(const char *name);
/* Whether id is one of the four wait points. */
bool knob_is_wait(int id);

/*
 * Checks one "NAME=VALUE" of --knob: *id and, in value, the text to
 * write ("Y"/"N" for a bool, the number otherwise).  Returns 0, or -1
 * with the reason in err ("--knob: 'probability=101': probability is
 * 0..100").
 */
int knob_parse(const char *assignment, int *id, char *value, size_t vlen,
	       char *err, size_t errlen);

/* What the kernel has: every knob as read, or why there are none. */
struct knob_state {
	bool present;
	char reason[KNOB_REASON_LEN];	/* when !present */
	bool have[KNOB_NR];
	char value[KNOB_NR][KNOB_VALUE_LEN];
};

/* Stores a value read from its file (trailing newline dropped). */
void knob_state_set(struct knob_state *st, int id, const char *text);
/* Whether the header shows this knob: a wait point only when enabled. */
bool knob_in_header(const struct knob_state *st, int id);
/*
 * The state in one line: "wait_after_active=Y sleep_after_wait_ms=16
 * interval=1 probability=100 times=1", or "none (<reason>)".
 */
void knob_describe(const struct knob_state *st, char *buf, size_t len);

#endif /* SO_KNOBS_H */
