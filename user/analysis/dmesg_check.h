/* SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1 */
/*
 * sysfs.sh's check_dmesg: the kernel log since the scenario's marker,
 * searched for splats (BUG, WARNING, Oops, lockdep, RCU, UBSAN), minus
 * lockdep's complaints about its own limits.  Pure: the runner reads the
 * log and writes the marker; golden logs test the matching.
 */
#ifndef SO_DMESG_CHECK_H
#define SO_DMESG_CHECK_H

#include <stdbool.h>
#include <stddef.h>

/* The line the runner writes to /dev/kmsg before a scenario. */
#define SC_DMESG_MARKER_FMT "sysfs-observe: run sysfs/%s at %llu"

/*
 * Lockdep's circular-dependency reports are judged by the observer
 * against its own cycles (analysis/lockdep_report.h): a gated cycle's
 * report is lockdep's false alarm, not the scenario's failure.
 */
#define SC_DMESG_CYCLES_JUDGED	0x1

/*
 * Scans log after the last line containing marker (the whole log when
 * marker is NULL or absent).  Returns true when a splat is found, with
 * its line (trimmed to linelen) in line.
 */
bool sc_dmesg_splat(const char *log, const char *marker, unsigned int flags,
		    char *line, size_t linelen);
/* log after its last line containing marker (all of it: none or NULL). */
const char *sc_dmesg_after_marker(const char *log, const char *marker);

#endif /* SO_DMESG_CHECK_H */
