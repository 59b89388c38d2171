// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * sysfs.sh's dmesg check: a marker in the kernel log before each run,
 * and after the runs whatever splat came since.  Apart because it is
 * glue between the kernel log (kernel/kmsg.h) and the splat rules
 * (analysis/dmesg_check.h), not a workload step.
 */
#include <stdlib.h>
#include "analysis/dmesg_check.h"
#include "kernel/kmsg.h"
#include "app/runner_internal.h"

void sc_dmesg_mark(const struct sc_scenario *sc, char *marker, size_t len)
{
	sc_str(marker, len, SC_DMESG_MARKER_FMT, sc->id,
		 (unsigned long long)(sc_now() * 1e6));
	if (!kmsg_mark(marker))
		marker[0] = '\0';
}

/*
 * check_dmesg: 0 clean, -1 a splat since the marker.  Lockdep's cycle
 * reports are the session's to judge against its cycles (a gated one is
 * lockdep's false alarm), so they are not a splat here.
 */
int sc_dmesg_check(struct sc_run *run, const char *marker)
{
	char line[200], *log = marker[0] ? kmsg_read_all() : NULL;
	int rc = 0;

	if (log && sc_dmesg_splat(log, marker, SC_DMESG_CYCLES_JUDGED, line,
				  sizeof(line)))
		rc = sc_fail(run, "something found in dmesg: %s", line);
	free(log);
	return rc;
}
