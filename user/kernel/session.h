/* SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1 */
/*
 * A live observation: the loader feeding the pipeline (stream, trace
 * file, stats, findings) until Ctrl-C, --duration, the observed command's
 * exit, or a deadlock; then the summary.  `--attach` and `record` use it,
 * and so will the scenario runner.
 */
#ifndef SO_SESSION_H
#define SO_SESSION_H

#include "cli/options.h"

/* Returns the kselftest exit status. */
int session_run(const struct so_options *opts);

#endif /* SO_SESSION_H */
