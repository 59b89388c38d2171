/* SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1 */
/*
 * What the scenario runner's files share and nobody else needs: the run's
 * state and each file's steps.  The public face is runner.h.
 */
#ifndef SO_RUNNER_INTERNAL_H
#define SO_RUNNER_INTERNAL_H

#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "cli/options.h"
#include "cli/scenarios.h"

#define SC_MODULE	"test_sysfs"
#define SC_PARAMS_LEN	1024

struct sc_run {
	const struct so_options *opts;
	const struct sc_scenario *tests[SC_SCENARIOS_MAX];
	unsigned int counts[SC_SCENARIOS_MAX];
	unsigned int nr_tests;
	bool watch;
	bool all;		/* --test all or FROM-TO: 0027/0028 run fixed */
	unsigned int cur;	/* the test this session runs */
	bool ktap;
	FILE *results;	/* the result lines: stderr under --format json */
	char ko_path[PATH_MAX];
	char reason[256];	/* why the current test failed */
};

/* SIGTERM in the driver child or a loop of it: stop, clean up. */
extern volatile sig_atomic_t sc_stop;

/* runner.c: what every step uses. */
/* snprintf whose truncation is expected: paths and reasons are short. */
int sc_str(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Records why the test failed; returns -1 for the caller to return. */
int sc_fail(struct sc_run *run, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void sc_on_term(int sig);
double sc_now(void);

/* module_ops.c: test_sysfs loaded, unloaded, found. */
int sc_module_locate(struct sc_run *run, const struct so_options *opts);
bool sc_fixed(const struct sc_run *run, const struct sc_scenario *sc);
void sc_params(const struct sc_run *run, const struct sc_scenario *sc,
	       const char *extra, char *buf, size_t len);
bool sc_module_wedged(char *why, size_t len);
int sc_unload_within(int tries);
void sc_unload_for_good(void);
int sc_reload(struct sc_run *run, const struct sc_scenario *sc,
	      const char *extra);

/* workloads.c: one run of a scenario, its sysfs steps and loops. */
int sc_run_once(struct sc_run *run, const struct sc_scenario *sc);

/* dmesg.c: a marker before a run; after the runs, -1 (reason recorded)
 * for a splat since the marker. */
void sc_dmesg_mark(const struct sc_scenario *sc, char *marker, size_t len);
int sc_dmesg_check(struct sc_run *run, const char *marker);

#endif /* SO_RUNNER_INTERNAL_H */
