/* SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1 */
/*
 * The attach points of docs/design.md §4 and how each is attached on this
 * kernel.  The mode is decided before load() from BTF and ftrace's list
 * of traceable functions, because one program that fails to load fails
 * the whole object and trial loads cost seconds each under TCG.
 */
#ifndef SO_PROBES_H
#define SO_PROBES_H

#include <stdbool.h>
#include <stddef.h>

enum probe_mode {
	PROBE_MISSING = 0,	/* cannot attach: its events are lost */
	PROBE_FENTRY,		/* fentry/fexit (BTF trampolines) */
	PROBE_KPROBE,		/* kprobe/kretprobe fallback */
	PROBE_TRACEPOINT,	/* tp_btf */
};

struct probe_def {
	const char *target;	/* kernel function or tracepoint */
	bool required;		/* without it the tool cannot work */
	bool tracepoint;
	const char *prog_base;	/* programs are <kind>_<prog_base> */
	const char *lost;	/* what a missing probe costs */
	/* Only on kernels whose BTF has this function (the kernfs knob
	 * kernel): elsewhere missing, and without a warning. */
	const char *needs_btf;
	/* A lockdep kernel's stand-in: CONFIG_DEBUG_LOCK_ALLOC turns
	 * mutex_lock() into a macro around mutex_lock_nested(), so where
	 * this function (the plain one) is absent, the stand-in is probed
	 * in its place; where it is present, the stand-in is not used. */
	const char *stands_for;
	/* A lock function that cannot fail (mutex_lock(), not _killable):
	 * the entry acquires, the exit only times the wait. */
	bool entry_acquires;
};

struct probe_state {
	const struct probe_def *def;
	enum probe_mode mode;
	int nr_links;
	int attach_err;		/* first attach error, 0 if none */
	bool not_here;		/* needs_btf absent: missing by design */
	/* The other one of a stand_for pair is probed: not attached, not
	 * listed in headers, not a warning. */
	bool replaced;
	/* Its fentry programs loaded but failed to attach: kprobe mode
	 * from the reload on (see loader.c, start_object). */
	bool fentry_failed;
};

/* At most this many rows in the probe table (checked by the loader). */
#define SO_MAX_PROBE_DEFS 40

extern const struct probe_def so_probe_defs[];
extern const size_t so_nr_probes;

const char *probe_mode_name(enum probe_mode mode);

#endif /* SO_PROBES_H */
