// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#include "lib/exit_codes.h"
#include "report/test_results.h"

const char *sc_result_name(enum sc_result result)
{
	switch (result) {
	case SC_PASS:
		return "PASS";
	case SC_FAIL:
		return "FAIL";
	default:
		return "SKIP";
	}
}

void sc_results_begin(FILE *out, bool ktap, unsigned int nr_tests)
{
	if (ktap)
		fprintf(out, "TAP version 13\n1..%u\n", nr_tests);
	fflush(out);
}

void sc_result_line(FILE *out, bool ktap, unsigned int index,
		    const char *id, const char *desc, enum sc_result result,
		    double secs, const char *reason, struct sc_totals *totals)
{
	if (result == SC_PASS)
		totals->pass++;
	else if (result == SC_FAIL)
		totals->fail++;
	else
		totals->skip++;
	totals->secs += secs;
	if (ktap) {
		if (reason && result == SC_FAIL)
			fprintf(out, "# sysfs_%s: %s\n", id, reason);
		fprintf(out, "%s %u sysfs_%s", result == SC_FAIL ? "not ok" :
			"ok", index, id);
		if (result == SC_SKIP)
			fprintf(out, " # SKIP %s", reason ? reason : "");
		fprintf(out, "\n# sysfs_%s: %s (%.1f s)\n", id, desc, secs);
	} else {
		fprintf(out, "TEST %s %-4s %6.1f s  %s%s%s\n", id,
			sc_result_name(result), secs, desc,
			reason ? ": " : "", reason ? reason : "");
	}
	fflush(out);
}

void sc_results_end(FILE *out, bool ktap, const struct sc_totals *totals)
{
	fprintf(out, "%sTOTAL %u passed, %u failed, %u skipped in %.1f s\n",
		ktap ? "# " : "", totals->pass, totals->fail, totals->skip,
		totals->secs);
	if (ktap)
		fprintf(out, "# Totals: pass:%u fail:%u xfail:0 xpass:0 "
			"skip:%u error:0\n", totals->pass, totals->fail,
			totals->skip);
	fflush(out);
}

int sc_results_exit_code(const struct sc_totals *totals)
{
	if (totals->fail)
		return SO_EXIT_FAIL;
	if (totals->skip && !totals->pass)
		return SO_EXIT_SKIP;
	return SO_EXIT_PASS;
}
