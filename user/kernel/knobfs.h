/* SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1 */
/*
 * The kernfs knobs on this kernel: detect, read, set, restore.  knobfs_
 * for the debugfs files it opens; user/cli/knobs.h's knob_* are the
 * names and checks, which touch no file.  Whoever changes a knob
 * saves the state first and restores it on every way out, SIGTERM
 * included: a wait point left enabled stops the next sysfs write of the
 * whole machine for up to 3 s.
 */
#ifndef SO_KERNEL_KNOBFS_H
#define SO_KERNEL_KNOBFS_H

#include <stdbool.h>
#include <stddef.h>
#include "cli/knobs.h"
#include "cli/options.h"
#include "trace/trace_file.h"

/*
 * Whether this kernel has the knobs; mounts debugfs at /sys/kernel/debug
 * when nothing is mounted there.  False with the reason ("kernel without
 * CONFIG_FAIL_KERNFS_KNOBS: /sys/kernel/debug/kernfs missing; build one
 * with `make kernfs-kernel`").
 */
bool knobfs_detect(char *reason, size_t len);
/* Every knob's current value into st (st->present false: the reason). */
void knobfs_read(struct knob_state *st);
/* Reads one knob (trailing newline dropped); 0 or -errno. */
int knobfs_get(int id, char *text, size_t len);
/* Writes one knob; 0 or -errno. */
int knobfs_write(int id, const char *value);
/* Writes back every knob st holds, wait points first (so that nothing
 * stops while the rest is put back).  0, or the first -errno. */
int knobfs_restore(const struct knob_state *st);
/* knob_describe() of the current state. */
void knobfs_describe(char *buf, size_t len);

/*
 * --knob NAME=VALUE...: saves the state into saved, then sets each.
 * Returns 0; SO_EXIT_SKIP when the kernel has no knobs; SO_EXIT_FAIL
 * when a write failed (what was set is restored).  Prints the reason.
 */
int knobfs_apply(const char *const *assignments, unsigned int nr,
		 struct knob_state *saved);

/*
 * --knob for a session (session_run()): check before the observer loads
 * (SO_EXIT_SKIP with the reason printed on a kernel without knobs), set
 * once it is attached, restore when it ended however it ended.  All do
 * nothing without --knob.
 */
int knobfs_session_check(const struct so_options *opts);
int knobfs_session_begin(const struct so_options *opts,
			 struct knob_state *saved);
void knobfs_session_end(const struct so_options *opts,
			const struct knob_state *saved);

/* The report header's knobs (knob_in_header()) into info->knobs, or
 * why there are none into info->knobs_note. */
void knobfs_fill_info(struct so_session_info *info);

#endif /* SO_KERNEL_KNOBFS_H */
