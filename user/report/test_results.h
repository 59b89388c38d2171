/* SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1 */
/*
 * The scenario runner's per-test lines and totals, as text or KTAP
 * (Documentation/dev-tools/ktap.rst): "TAP version 13", "1..N",
 * "ok N name", "not ok N name", "ok N name # SKIP reason", diagnostics
 * behind "# ".
 */
#ifndef SO_TEST_RESULTS_H
#define SO_TEST_RESULTS_H

#include <stdbool.h>
#include <stdio.h>

enum sc_result {
	SC_PASS,
	SC_FAIL,
	SC_SKIP,
};

struct sc_totals {
	unsigned int pass, fail, skip;
	double secs;
};

const char *sc_result_name(enum sc_result result);
/* The plan: KTAP header and "1..N"; nothing for text. */
void sc_results_begin(FILE *out, bool ktap, unsigned int nr_tests);
/* One test; reason (may be NULL) says why it failed or was skipped. */
void sc_result_line(FILE *out, bool ktap, unsigned int index,
		    const char *id, const char *desc, enum sc_result result,
		    double secs, const char *reason, struct sc_totals *totals);
void sc_results_end(FILE *out, bool ktap, const struct sc_totals *totals);
/* The kselftest exit code of the totals: fail, else skip if all were
 * skipped, else pass. */
int sc_results_exit_code(const struct sc_totals *totals);

#endif /* SO_TEST_RESULTS_H */
