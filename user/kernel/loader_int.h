/* SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1 */
/*
 * What the loader's files share and nobody else needs: loader.c runs the
 * lifecycle and calls into attach.c (probe modes, attaching) and maps.c
 * (the mapped task table).  Not part of loader.h, whose callers see
 * only the lifecycle and the read-back.
 */
#ifndef SO_LOADER_INT_H
#define SO_LOADER_INT_H

#include "kernel/loader.h"
#include "kernel/preflight.h"

struct btf;

/* Each probe's mode on this kernel, and autoload set to match; -errno
 * (with the reason printed) when the probe table does not fit. */
int loader_decide_modes(struct so_loader *l, const struct btf *vmlinux_btf,
			const struct traceable *tr);
/* The kernfs knob probes' addresses; drops the probes that lack one. */
void loader_set_knob_addrs(struct so_loader *l);
/* Attach every loaded program; -errno when a required probe failed. */
int loader_attach_probes(struct so_loader *l);
/* Map task_slots for in-place scans (loader_task_states, reset). */
int loader_map_task_slots(struct so_loader *l);

#endif /* SO_LOADER_INT_H */
