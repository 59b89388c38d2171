// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * The table mirrors sysfs.sh: 0014-0026 are 0001-0013 on the block
 * device, 0027/0028 are disabled there because they can hang the box.
 * Targets are the ones the steps write: sysfs_test_0015 runs 0002, so it
 * writes test_dev_y although ALL_TESTS names test_dev_x.
 */
#include <string.h>
#include "cli/scenarios.h"

#define NUMERIC		(SC_CONFIG_RESET | SC_NUMERIC)
#define LOCKED		(SC_CONFIG_RESET | SC_ENABLE_LOCK | SC_NUMERIC)
#define MODLOOP		(SC_RELOAD | SC_CONFIG_RESET | SC_LOOP_MODPROBE | \
			 SC_LOOP_WRITE)
#define BUSYLOOP	(SC_RELOAD | SC_CONFIG_RESET | SC_RESET_VALS | \
			 SC_LOOP_MODPROBE | SC_LOOP_WRITE_BG)
#define RESETLOOP	(SC_RELOAD | SC_CONFIG_RESET | SC_RESET_VALS | \
			 SC_LOOP_WRITE | SC_LOOP_RESET)
#define RMMODLOOP	(SC_RELOAD | SC_LOOP_WRITE | SC_LOOP_MODPROBE)

#define DELAY_Y		"write_delay_msec_y=1500"
#define DEBUGFS		"enable_debugfs=1"
#define LOCK_RMMOD	"enable_lock=1 enable_lock_on_rmmod=1 " \
			"enable_verbose_writes=1"
#define RTNL_RMMOD	"enable_lock=1 enable_lock_on_rmmod=1 " \
			"use_rtnl_lock=1 enable_verbose_writes=1"

#define SC(i, c, t, steps, reload, loop, what)				\
	{ i, c, true, t, SC_DEV_MISC, steps, reload, loop, "misc " what, -1 }
#define SCB(i, c, t, steps, reload, loop, what)				\
	{ i, c, true, t, SC_DEV_BLOCK, steps, reload, loop, "block " what, \
	  -1 }

/* Not in seed 005's sysfs.sh: seed 006/007's knob tests, which need the
 * kernel of kernfs/ and run only the knob race. */
#define KNOB(i, wait)							\
	{ i, 1, true, "test_dev_x", SC_DEV_BLOCK, SC_KNOB_RACE, NULL, NULL, \
	  "block racing removal of store op with kernfs", wait }

const struct sc_scenario sc_scenarios[] = {
	SC("0001", 3, "test_dev_x", NUMERIC | SC_RESET_VALS, NULL, NULL,
	   "test writing x in different ways"),
	SC("0002", 3, "test_dev_y", NUMERIC, NULL, NULL,
	   "test writing y in different ways"),
	SC("0003", 3, "test_dev_x", LOCKED, NULL, NULL,
	   "test writing x in different ways using a mutex lock"),
	SC("0004", 3, "test_dev_y", LOCKED, NULL, NULL,
	   "test writing y in different ways using a mutex lock"),
	SC("0005", 1, "test_dev_x", MODLOOP, NULL, NULL,
	   "test writing x load and remove the test_sysfs module"),
	SC("0006", 1, "test_dev_y", MODLOOP, NULL, NULL,
	   "writing y load and remove the test_sysfs module"),
	SC("0007", 1, "test_dev_y", MODLOOP, NULL, DELAY_Y,
	   "test writing y larger delay, load, remove test_sysfs"),
	SC("0008", 1, "test_dev_x", BUSYLOOP, NULL, NULL,
	   "test busy writing x remove test_sysfs module"),
	SC("0009", 1, "test_dev_y", BUSYLOOP, NULL, NULL,
	   "test busy writing y remove the test_sysfs module"),
	SC("0010", 1, "test_dev_y", BUSYLOOP | SC_RMMOD_FIRST, NULL, DELAY_Y,
	   "test busy writing y larger delay, remove test_sysfs"),
	SC("0011", 1, "test_dev_x", RESETLOOP, DEBUGFS, NULL,
	   "test writing x and resetting device"),
	SC("0012", 1, "test_dev_y", RESETLOOP, DEBUGFS, NULL,
	   "test writing y and resetting device"),
	SC("0013", 1, "test_dev_y", RESETLOOP | SC_DELAY_Y, DEBUGFS, NULL,
	   "test writing y with a larger delay and resetting device"),
	SCB("0014", 3, "test_dev_x", NUMERIC | SC_RESET_VALS, NULL, NULL,
	    "test writing x in different ways"),
	SCB("0015", 3, "test_dev_y", NUMERIC, NULL, NULL,
	    "test writing y in different ways"),
	SCB("0016", 3, "test_dev_x", LOCKED, NULL, NULL,
	    "test writing x in different ways using a mutex lock"),
	SCB("0017", 3, "test_dev_y", LOCKED, NULL, NULL,
	    "test writing y in different ways using a mutex lock"),
	SCB("0018", 1, "test_dev_x", MODLOOP, NULL, NULL,
	    "test writing x load and remove the test_sysfs module"),
	SCB("0019", 1, "test_dev_y", MODLOOP, NULL, NULL,
	    "test writing y load and remove the test_sysfs module"),
	SCB("0020", 1, "test_dev_y", MODLOOP, NULL, DELAY_Y,
	    "test writing y larger delay, load, remove test_sysfs"),
	SCB("0021", 1, "test_dev_x", BUSYLOOP, NULL, NULL,
	    "test busy writing x remove the test_sysfs module"),
	SCB("0022", 1, "test_dev_y", BUSYLOOP, NULL, NULL,
	    "test busy writing y remove the test_sysfs module"),
	SCB("0023", 1, "test_dev_y", BUSYLOOP | SC_RMMOD_FIRST, NULL,
	    DELAY_Y, "test busy writing y larger delay, remove test_sysfs"),
	SCB("0024", 1, "test_dev_x", RESETLOOP, DEBUGFS, NULL,
	    "test writing x and resetting device"),
	SCB("0025", 1, "test_dev_y", RESETLOOP, DEBUGFS, NULL,
	    "test writing y and resetting device"),
	SCB("0026", 1, "test_dev_y", RESETLOOP | SC_DELAY_Y, DEBUGFS, NULL,
	    "test writing y larger delay and resetting device"),
	{ "0027", 1, false, "test_dev_x", SC_DEV_BLOCK, RMMODLOOP, LOCK_RMMOD,
	  LOCK_RMMOD, "test rmmod deadlock while writing x", -1 },
	{ "0028", 1, false, "test_dev_x", SC_DEV_BLOCK, RMMODLOOP, LOCK_RMMOD,
	  RTNL_RMMOD, "test rmmod deadlock using rtnl_lock while writing x",
	  -1 },
	KNOB("0029", KNOB_WAIT_AT_START),
	KNOB("0030", KNOB_WAIT_BEFORE_MUTEX),
	KNOB("0031", KNOB_WAIT_AFTER_MUTEX),
	KNOB("0032", KNOB_WAIT_AFTER_ACTIVE),
};

const size_t sc_nr_scenarios = sizeof(sc_scenarios) / sizeof(sc_scenarios[0]);
_Static_assert(sizeof(sc_scenarios) / sizeof(sc_scenarios[0]) <=
	       SC_SCENARIOS_MAX, "the runner holds SC_SCENARIOS_MAX tests");

const struct sc_scenario *sc_find(const char *id)
{
	size_t i;

	for (i = 0; i < sc_nr_scenarios; i++)
		if (!strcmp(sc_scenarios[i].id, id))
			return &sc_scenarios[i];
	return NULL;
}

const char *sc_device_dir(enum sc_devtype devtype)
{
	return devtype == SC_DEV_BLOCK ?
		       "/sys/devices/virtual/block/test_sysfs0" :
		       "/sys/devices/virtual/misc/test_sysfs0";
}

bool sc_writes_y(const struct sc_scenario *sc)
{
	return !strcmp(sc->target, "test_dev_y");
}

void sc_list(FILE *out)
{
	size_t i;

	fputs("TEST_ID x NUM_TESTS - description\n", out);
	for (i = 0; i < sc_nr_scenarios; i++) {
		const struct sc_scenario *sc = &sc_scenarios[i];

		fprintf(out, "%s x %u - %s", sc->id, sc->count, sc->desc);
		if (sc->steps & SC_KNOB_RACE)
			fprintf(out, " (%s; knob kernel)",
				knob_defs[sc->wait_knob].name);
		fputs(sc->enabled ? "\n" : " (disabled in sysfs.sh: may hang)\n",
		      out);
	}
}
