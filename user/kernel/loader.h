/* SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1 */
/*
 * The BPF side's lifecycle: preflight, open, decide probe modes, set the
 * knobs, load, attach each probe on its own (a probe that fails is a
 * warning, a required one an error), poll the ring buffer, tear down.
 */
#ifndef SO_LOADER_H
#define SO_LOADER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "observe.h"
#include "kernel/probes.h"

struct observe_bpf;
struct ring_buffer;
struct bpf_link;

/* Called for every ring-buffer record, in order. */
typedef int (*so_record_fn)(void *ctx, const void *rec, size_t len);

struct loader_opts {
	bool observe_all;	/* every task is in context (--attach) */
	bool emit_events;	/* stream every event, not only edges */
	/* Summary only: count in the kernel what the summary only counts
	 * (struct so_class_counts), send no event for it; not where the
	 * knob probes need every write's events. */
	bool aggregate;
	/* Take the stack of every mutex wait (a recording); else only a
	 * deadlocked task's, when asked (loader_task_stack). */
	bool wait_stacks;
	unsigned int ringbuf_kib;	/* 0: the default size */
	unsigned int map_nr_entries;	/* 0: each table's default size */
	const char *module;	/* only this module's references, or NULL */
	const char *path_filter; /* --path as opt_path_filter() made it */
	int verbose;
	so_record_fn on_record;
	void *record_ctx;
};

/*
 * Links of attached programs: each loaded program makes at most one, so
 * this must be at least the skeleton's number of programs (asserted in
 * attach.c, which sees the skeleton).
 */
#define SO_MAX_LINKS 96

struct so_loader {
	struct observe_bpf *skel;
	struct probe_state probes[SO_MAX_PROBE_DEFS];
	size_t nr_probes;
	struct bpf_link *links[SO_MAX_LINKS];
	size_t nr_links;
	struct ring_buffer *rb;
	/* The probes' task_slots array, mapped: a scan reads it in place. */
	struct so_task_state *task_slots;
	size_t task_slots_len;	/* bytes mapped */
	/* The task iterator (loader_task_stack), also in links[]; NULL
	 * until a stack was asked for. */
	struct bpf_link *task_iter;
	bool aggregate;		/* in force: see loader_opts */
	/* --ringbuf-kib or --map-nr-entries: a table too big for this
	 * machine is the user's input (exit 2), not an error. */
	bool user_sized;
	/* Classes evicted before this session (loader_reset). */
	uint64_t classes_evicted_before;
	/* loader_stop() gave up waiting: its detach thread still uses
	 * this struct, which must then outlive the process. */
	bool detach_pending;
	char kernel_release[65];
};

/*
 * Everything up to attach.  On failure returns a kselftest exit code
 * (4 = this kernel cannot do it, 2 = a size the user gave does not fit,
 * 1 = error) with the reason printed.
 */
int loader_start(struct so_loader *l, const struct loader_opts *opts);
/* Poll once; returns records consumed or -errno (-EINTR is a clean stop). */
int loader_poll(struct so_loader *l, int timeout_ms);
/* No new events from here on (the session is ending). */
void loader_pause(struct so_loader *l);
/*
 * Task `tid`'s kernel stack now, innermost frame first, zeroes after the
 * last frame, as the stack map's values are; 0 or -errno.  For a task
 * that waits and will not move (a deadlock), whose wait was recorded
 * without a stack.
 */
int loader_task_stack(struct so_loader *l, uint32_t tid,
		      uint64_t frames[SO_KSTACK_DEPTH]);
/* Sum of the per-CPU loss and activity counters. */
int loader_counters(struct so_loader *l, uint64_t out[SO_CNT_NR]);
/* Lock classes the LRU table evicted since load, at least. */
uint64_t loader_classes_evicted(const struct so_loader *l);
/* Each class's kernel-side counts (aggregate), summed over CPUs, with
 * the class's name (SO_NAME_LEN bytes, "" if the kernel lost it). */
typedef void (*so_class_counts_fn)(void *ctx, uint64_t class_id,
				   const char *name,
				   const struct so_class_counts *counts);
int loader_class_counts(struct so_loader *l, so_class_counts_fn fn,
			void *ctx);
/* Tasks whose state has a wait in it now: 0 means no deadlock can be in
 * progress, and the task table need not be scanned. */
int64_t loader_nr_waiting(const struct so_loader *l);
/* Each task in the kernel's task table (held set, wait); 0 or -errno. */
typedef void (*so_task_state_fn)(void *ctx, uint32_t tid,
				 const struct so_task_state *ts);
int loader_task_states(struct so_loader *l, so_task_state_fn fn, void *ctx);
/* Each edge of the kernel's edge table, with its classes' names (from
 * class_names; "" where the kernel lost them).  0 or -errno. */
typedef void (*so_edge_entry_fn)(void *ctx, const struct so_edge_key *key,
				 const struct so_edge_val *val,
				 const char *from_name, const char *to_name);
int loader_edges(struct so_loader *l, so_edge_entry_fn fn, void *ctx);
/* Start a new session on the loaded programs: empty the edge table,
 * the held sets and the watched processes, zero the counters, unpause. */
int loader_reset(struct so_loader *l);
/* Put a process (and threads) in context: runner children, --pid. */
int loader_watch_tgid(struct so_loader *l, uint32_t tgid);
/* Detach and free.  With `leave_attached` (a task is blocked inside a
 * traced function: detaching would wait for it) only the ring buffer and
 * our memory go; the kernel drops the links when the process exits.
 * False when detaching did not finish in bounded time: the caller must
 * then exit without touching the loader again. */
bool loader_stop(struct so_loader *l, bool leave_attached);
/* How many probes are attached (in whatever mode). */
size_t loader_nr_attached(const struct so_loader *l);
/* "fentry", "kprobe", ... per probe, for headers and --probes. */
void loader_print_probes(const struct so_loader *l, FILE *out);
/* "plain (...)" or "lockdep's (...)": the mutex entry points in use. */
const char *loader_mutex_set(const struct so_loader *l);

#endif /* SO_LOADER_H */
