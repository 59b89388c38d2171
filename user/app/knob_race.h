/* SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1 */
/*
 * Scenarios 0029-0032 (SC_KNOB_RACE): for each delay of
 * knob_race_delays_ms, a store to test_dev_x held at one kernfs wait
 * point while test_sysfs is removed; the per-delay table and its checks
 * are report/knob_table.h.  Runs in the session's driver child, like the
 * rest of the runner, and needs the knob kernel of kernfs/.
 */
#ifndef SO_KNOB_RACE_H
#define SO_KNOB_RACE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include "cli/options.h"
#include "cli/scenarios.h"
#include "report/test_results.h"

/* Whether this kernel can run a knob race; false with the reason (the
 * scenario is then a SKIP). */
bool knob_race_supported(char *reason, size_t len);

/*
 * Runs sc (SC_KNOB_RACE) with the module at ko_path, fixed: with
 * enable_try_module_get=1, plus opts' --param.  Every knob is restored
 * before it returns, also when *stop (SIGTERM) cut it short.  Returns the
 * result, with why it failed or skipped in reason.
 */
enum sc_result knob_race_run(const struct sc_scenario *sc,
			     const char *ko_path, bool fixed,
			     const struct so_options *opts,
			     volatile sig_atomic_t *stop, char *reason,
			     size_t len);

#endif /* SO_KNOB_RACE_H */
