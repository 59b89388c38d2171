/* SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1 */
/*
 * What the loader's files share and nobody else needs: loader.c runs the
 * lifecycle and calls into modes.c (probe modes), attach.c (attaching)
 * and maps.c (the mapped task table).  Not part of loader.h, whose
 * callers see only the lifecycle and the read-back.
 */
#ifndef SO_LOADER_INT_H
#define SO_LOADER_INT_H

#include "kernel/loader.h"
#include "kernel/preflight.h"

struct btf;

struct bpf_object;
struct bpf_program;

/* A row's program of one kind ("fentry", "kprobe", ...), or NULL. */
struct bpf_program *loader_row_prog(struct bpf_object *obj, const char *kind,
				    const char *base);
/* Each probe's mode on this kernel, and autoload set to match; -errno
 * (with the reason printed) when the probe table does not fit. */
int loader_decide_modes(struct so_loader *l, const struct btf *vmlinux_btf,
			const struct traceable *tr);
/* The kernfs knob probes' addresses; drops the probes that lack one. */
void loader_set_knob_addrs(struct so_loader *l);
void loader_set_lock_exits(struct so_loader *l);
/*
 * Attach every loaded program; -errno when a required probe failed.
 * With may_fall_back, -EAGAIN when fentry programs failed to attach:
 * their rows are marked, and a reload puts them in kprobe mode.
 */
int loader_attach_probes(struct so_loader *l, bool may_fall_back);
/* Map task_slots for in-place scans (loader_task_states, reset). */
int loader_map_task_slots(struct so_loader *l);

#endif /* SO_LOADER_INT_H */
