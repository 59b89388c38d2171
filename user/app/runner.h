/* SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1 */
/*
 * The scenario runner: --test ID|FROM-TO|all, --watch ID, --list.  One observed
 * session runs every selected scenario in its driver child (a load and
 * attach costs ~4 s under TCG, so once is enough), one line per test.
 */
#ifndef SO_RUNNER_H
#define SO_RUNNER_H

#include "cli/options.h"

/* Validates the ids and counts (exit 2 with the reason), checks root and
 * the module file (exit 4), then runs.  Returns the kselftest code. */
int sc_runner_main(const struct so_options *opts);

#endif /* SO_RUNNER_H */
