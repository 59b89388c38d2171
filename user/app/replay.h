/* SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1 */
/*
 * `sysfs-observe report`: a trace file through the same pipeline and
 * analysis as the live run, so the summary is the one the run printed.
 */
#ifndef SO_REPLAY_H
#define SO_REPLAY_H

#include <stdio.h>
#include "cli/options.h"

struct replay_opts {
	enum so_format format;
	unsigned int entries;	/* rows per text table (--entries), 0 all */
	FILE *svg;		/* --svg: the picture's file, or NULL */
};

/* Returns the kselftest exit status; errors name the file and offset. */
int replay_report(const char *path, const struct replay_opts *ro,
		  FILE *out);
/* The same from an open stream; `path` names it in errors. */
int replay_report_file(FILE *in, const char *path,
		       const struct replay_opts *ro, FILE *out);

#endif /* SO_REPLAY_H */
