// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * What 6.1's kernfs_fop_write_iter() guarantees, and so what a row may
 * show.  The writer takes of->mutex, then an active reference
 * (kernfs_get_active_of()), calls store(), drops the reference.  The
 * removal deactivates the node, then drains: it waits until no active
 * reference is left.  test_sysfs (enable_completion_on_rmmod=1) releases
 * the writer from its wait point at the start of its exit, before it
 * removes the device, and the writer then sleeps sleep_after_wait_ms.
 *
 * - after_active: the writer holds its reference across the wait and the
 *   sleep, so the drain waits for it and the store runs on a live device:
 *   the write succeeds, and ends before rmmod does (rmmod still has the
 *   rest of the removal and free_module's RCU grace period to go).
 * - at_start, before_mutex, after_mutex: no reference yet.  When the
 *   removal deactivated the node first, kernfs_get_active_of() fails and
 *   the write returns -ENODEV; when the writer got its reference first
 *   (a short sleep outran the removal), it is the after_active case.
 *   Either is correct; anything else (another errno, a success after
 *   rmmod returned) is not.  Which one a delay gives is timing, and
 *   clocks in a TCG guest are approximate: the table shows it, the check
 *   does not demand it, but for one: a writer asleep for a whole second
 *   (KNOB_RACE_LOSE_MS) must lose, or the wait point held nothing.  The
 *   removal takes 20-160 ms in the guest (measured over five runs: the
 *   writer won at up to 32 ms, never at 64 ms or more), so the margin
 *   is wide.
 * - with enable_try_module_get=1 (--fixed) the module is GOING before its
 *   exit releases the writer, so every store that runs refuses with
 *   -ENODEV: every row is -ENODEV.
 * Always: the writer stopped at the wait point (the fault fired), rmmod
 * succeeded, dmesg stayed clean.
 */
#include <errno.h>
#include <string.h>
#include "cli/knobs.h"
#include "report/knob_table.h"

const unsigned int knob_race_delays_ms[KNOB_RACE_NR_DELAYS] = {
	0, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024,
};

const char *knob_result_text(long long result, char *buf, size_t len)
{
	static const struct {
		int err;
		const char *name;
	} names[] = {
		{ ENODEV, "ENODEV" }, { ENOENT, "ENOENT" }, { EINVAL, "EINVAL" },
		{ EIO, "EIO" },	      { EBUSY, "EBUSY" },   { EAGAIN, "EAGAIN" },
		{ EINTR, "EINTR" },   { EPERM, "EPERM" },   { EACCES, "EACCES" },
		{ ENXIO, "ENXIO" },
	};
	size_t i;

	if (result >= 0) {
		snprintf(buf, len, "%lld byte%s", result,
			 result == 1 ? "" : "s");
		return buf;
	}
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (-result == names[i].err) {
			snprintf(buf, len, "-%s", names[i].name);
			return buf;
		}
	snprintf(buf, len, "-errno %lld", -result);
	return buf;
}

static bool knob_why(char *why, size_t len, const char *text)
{
	snprintf(why, len, "%s", text);
	return false;
}

bool knob_row_check(const struct knob_row *row, const struct knob_expect *ex,
		    char *why, size_t len)
{
	bool ok = row->write_result == ex->write_len;
	bool refused = row->write_result == -ENODEV;
	char res[32];

	if (!row->fired)
		return knob_why(why, len, "the writer never stopped at the "
				"wait point (the fault did not fire)");
	if (row->rmmod_err) {
		snprintf(why, len, "rmmod failed: %s",
			 strerror(-row->rmmod_err));
		return false;
	}
	if (!row->write_done)
		return knob_why(why, len, "the writer did not report back");
	if (row->dmesg_splat) {
		snprintf(why, len, "dmesg: %s", row->dmesg_line);
		return false;
	}
	knob_result_text(row->write_result, res, sizeof(res));
	if (!ok && !refused) {
		snprintf(why, len, "the write returned %s: neither %lld nor "
			 "-ENODEV", res, ex->write_len);
		return false;
	}
	if (ex->fixed && !refused) {
		snprintf(why, len, "the write returned %s: with "
			 "enable_try_module_get the store refuses (-ENODEV) "
			 "once rmmod began", res);
		return false;
	}
	if (!ex->fixed && ex->wait_knob == KNOB_WAIT_AFTER_ACTIVE && !ok) {
		snprintf(why, len, "the write returned %s although it held "
			 "its active reference: the drain must wait for it",
			 res);
		return false;
	}
	if (!ex->fixed && knob_is_wait(ex->wait_knob) &&
	    ex->wait_knob != KNOB_WAIT_AFTER_ACTIVE &&
	    row->delay_ms >= KNOB_RACE_LOSE_MS && !refused) {
		snprintf(why, len, "the write returned %s although it slept "
			 "%u ms without an active reference: the removal must "
			 "have won", res, row->delay_ms);
		return false;
	}
	if (ok && row->write_end_s > row->rmmod_end_s)
		return knob_why(why, len, "the write succeeded after rmmod "
				"returned: the drain did not wait for it");
	return true;
}

void knob_table_header(FILE *out, const char *id,
		       const struct knob_expect *ex)
{
	fprintf(out, "# sysfs_%s: a store held at %s, test_sysfs removed "
		"(enable_completion_on_rmmod=1%s)\n", id,
		knob_defs[ex->wait_knob].name,
		ex->fixed ? " enable_try_module_get=1" : "");
	fprintf(out, "# sysfs_%s: %8s  %-9s %9s %9s  %-13s %s\n", id,
		"delay_ms", "write", "write_ms", "rmmod_ms", "write ended",
		"verdict");
}

void knob_table_row(FILE *out, const char *id, const struct knob_row *row,
		    const char *verdict)
{
	char res[32] = "-";
	const char *ended = "-";

	if (row->write_done) {
		knob_result_text(row->write_result, res, sizeof(res));
		ended = row->write_end_s <= row->rmmod_end_s ? "before rmmod" :
							       "after rmmod";
	}
	fprintf(out, "# sysfs_%s: %8u  %-9s %9.1f %9.1f  %-13s %s\n", id,
		row->delay_ms, res,
		row->write_done ?
			(row->write_end_s - row->write_start_s) * 1e3 : 0.0,
		(row->rmmod_end_s - row->rmmod_start_s) * 1e3, ended,
		verdict);
}

void knob_table_footer(FILE *out, const char *id,
		       const struct knob_row *rows, size_t nr,
		       const struct knob_expect *ex)
{
	unsigned int ok = 0, refused = 0, other = 0;
	size_t i;

	for (i = 0; i < nr; i++) {
		if (!rows[i].write_done)
			other++;
		else if (rows[i].write_result == ex->write_len)
			ok++;
		else if (rows[i].write_result == -ENODEV)
			refused++;
		else
			other++;
	}
	fprintf(out, "# sysfs_%s: %zu delays: %u written, %u -ENODEV, "
		"%u other\n", id, nr, ok, refused, other);
}
