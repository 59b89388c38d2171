/* SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1 */
/*
 * Scenarios 0029-0032: one row per delay (sleep_after_wait_ms) of a
 * store held at a kernfs wait point while rmmod removes its attribute,
 * what the kernfs active reference lets each row show, and the table as
 * KTAP diagnostics ("# " lines).  Pure: user/app/knob_race.c
 * measures, this judges and prints.
 */
#ifndef SO_KNOB_TABLE_H
#define SO_KNOB_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define KNOB_RACE_NR_DELAYS	11
/* A writer without an active reference held this long loses the race. */
#define KNOB_RACE_LOSE_MS	1024

/* 0 2 4 ... 1024 ms, as seed 006's sysfs.sh loops. */
extern const unsigned int knob_race_delays_ms[KNOB_RACE_NR_DELAYS];

/* One delay's run; times are CLOCK_MONOTONIC seconds. */
struct knob_row {
	unsigned int delay_ms;
	bool fired;			/* the writer stopped at the point */
	bool write_done;		/* the writer reported back */
	long long write_result;		/* bytes written, or -errno */
	double write_start_s, write_end_s;
	double rmmod_start_s, rmmod_end_s;
	int rmmod_err;			/* delete_module: 0 or -errno */
	bool dmesg_splat;
	char dmesg_line[160];
};

/* What the run was set up to show. */
struct knob_expect {
	int wait_knob;			/* enum knob_id, a wait point */
	bool fixed;			/* enable_try_module_get=1 */
	long long write_len;		/* what a successful write returns */
};

/*
 * Whether the row keeps the guarantees of the kernfs active reference
 * (see knob_table.c); false with the broken one in why.
 */
bool knob_row_check(const struct knob_row *row, const struct knob_expect *ex,
		    char *why, size_t len);
/* "2 bytes", "-ENODEV", "-errno 1234". */
const char *knob_result_text(long long result, char *buf, size_t len);

/* The table: a header, one line a row (verdict "ok" or the reason). */
void knob_table_header(FILE *out, const char *id,
		       const struct knob_expect *ex);
void knob_table_row(FILE *out, const char *id, const struct knob_row *row,
		    const char *verdict);
/* How many rows ended each way, for the closing line. */
void knob_table_footer(FILE *out, const char *id,
		       const struct knob_row *rows, size_t nr,
		       const struct knob_expect *ex);

#endif /* SO_KNOB_TABLE_H */
