/* SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1 */
/*
 * The scenario table of the seed's sysfs.sh (ALL_TESTS and each
 * sysfs_test_00NN): pure data and look-ups, so --list, id checks and the
 * steps every scenario takes are unit tests.  The runner
 * (user/app/) carries the steps out.
 */
#ifndef SO_SCENARIOS_H
#define SO_SCENARIOS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "cli/knobs.h"

enum sc_devtype {
	SC_DEV_MISC,	/* devtype=0: /sys/devices/virtual/misc/test_sysfs0 */
	SC_DEV_BLOCK,	/* devtype=1: /sys/devices/virtual/block/test_sysfs0 */
};

/* The steps, in the order the runner takes them. */
enum sc_step {
	SC_RELOAD	 = 1u << 0,	/* modprobe_reset (+ reload_params) */
	SC_CONFIG_RESET	 = 1u << 1,	/* echo 1 > reset */
	SC_RESET_VALS	 = 1u << 2,	/* x = 3, x = 4 */
	SC_ENABLE_LOCK	 = 1u << 3,	/* echo 1 > config_enable_lock */
	SC_DELAY_Y	 = 1u << 4,	/* config_write_delay_msec_y 1500 */
	SC_NUMERIC	 = 1u << 5,	/* single write, pieces, restore */
	SC_RMMOD_FIRST	 = 1u << 6,	/* unload before the loops */
	SC_LOOP_MODPROBE = 1u << 7,	/* load/unload loop */
	SC_LOOP_WRITE	 = 1u << 8,	/* one writer, value + 1 each time */
	SC_LOOP_WRITE_BG = 1u << 9,	/* bursts of 1000 one-shot writers */
	SC_LOOP_RESET	 = 1u << 10,	/* debugfs reset_first_test_dev */
	SC_KNOB_RACE	 = 1u << 11,	/* 0029-0032: a store held at a
					 * kernfs wait point vs rmmod
					 * (user/app/knob_race.c) */
};

#define SC_LOOPS (SC_LOOP_MODPROBE | SC_LOOP_WRITE | SC_LOOP_WRITE_BG | \
		  SC_LOOP_RESET)
#define SC_BURST_WRITERS	1000
#define SC_DELAY_Y_MS		1500
#define SC_WINDOW_S		2.0

struct sc_scenario {
	const char *id;			/* "0008" */
	unsigned int count;		/* sysfs.sh's recommended runs */
	bool enabled;			/* 0 in sysfs.sh: may hang the box */
	const char *target;		/* "test_dev_x" */
	enum sc_devtype devtype;
	unsigned int steps;		/* enum sc_step */
	const char *reload_params;	/* FIRST_MODPROBE_ARGS, or NULL */
	const char *loop_params;	/* MODPROBE_ARGS of the loop */
	const char *desc;		/* list_tests' line */
	int wait_knob;			/* SC_KNOB_RACE: the wait point's
					 * enum knob_id; else -1 */
};

/* The most scenarios a table may hold: the runner's per-run arrays
 * (--test all runs every one) are this size. */
#define SC_SCENARIOS_MAX	64

extern const struct sc_scenario sc_scenarios[];
extern const size_t sc_nr_scenarios;

/* "0008" -> its entry; NULL for an id sysfs.sh does not have. */
const struct sc_scenario *sc_find(const char *id);
/* The sysfs directory of the device ("/sys/devices/virtual/misc/..."). */
const char *sc_device_dir(enum sc_devtype devtype);
/* The target is test_dev_y: its value reads back as x + written + 7. */
bool sc_writes_y(const struct sc_scenario *sc);
/* --list: "0001 x 3 - misc test writing x in different ways". */
void sc_list(FILE *out);

#endif /* SO_SCENARIOS_H */
