/* SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1 */
/*
 * The trace file of `sysfs-observe record -o FILE` and `report -i FILE`.
 * docs/trace-format.md describes it for people; this is the byte layout.
 * Every integer is little endian.
 *
 *   offset 0   char magic[8]       "SOTRACE\0"
 *          8   u32  format         TF_FORMAT_VERSION
 *         12   u32  abi            SO_ABI_VERSION of bpf/observe.h
 *         16   records, each:  u32 type, u32 len, u8 payload[len]
 *                              (len <= TF_PAYLOAD_MAX)
 *
 * Records come in this order: one TF_REC_SESSION; any number of
 * TF_REC_EVENT, TF_REC_STACK and TF_REC_KSYM; one TF_REC_TRAILER.  From
 * format 3 on that may repeat (one session per test of `record --test
 * all`, each counted on its own); then end of file.  A string is u16 len then len bytes (no NUL; len < the field's
 * size below, no NUL inside).
 *
 *   SESSION  u64 start_realtime_ns, u64 start_mono_ns, u32 pid_filter,
 *            string tool, kernel, test, module_filter, path_prefix,
 *            module_params, u32 nr_probes, nr_probes x {string name,
 *            u32 mode}, u32 nr_knobs, nr_knobs x {string name, string value},
 *            string knobs_note (format 2 on; format 1 files end at the
 *            knobs and read with knobs_note "")
 *   EVENT    a struct so_event, or a struct so_edge_event when its type
 *            is SO_EV_EDGE, exactly as the ring buffer delivered it
 *   STACK    s32 stack_id (>= 0), u32 depth (<= SO_STACK_DEPTH),
 *            depth x u64 address; written before the first event naming it
 *   KSYM     u64 addr, u64 size, u32 type letter, string name,
 *            string module ("" for vmlinux): the symbols that stacks and
 *            lock addresses need, so another machine can symbolize
 *   TRAILER  u64 end_mono_ns, u64 nr_events, u64 nr_stacks, u64 nr_ksyms,
 *            u32 nr_counters (== SO_CNT_NR), nr_counters x u64 counter
 *            (enum so_counter); the counts must match the records read
 *
 * The reader checks every length and count against both the field and the
 * bytes left, and reports the first problem with its byte offset.
 */
#ifndef SO_TRACE_FILE_H
#define SO_TRACE_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "observe.h"

#define TF_MAGIC		"SOTRACE"	/* 8 bytes with its NUL */
#define TF_FORMAT_VERSION	3	/* 2: SESSION's knobs_note; 3: sessions
					 * repeat after their TRAILER */
#define TF_FORMAT_OLDEST	1	/* the oldest this build reads */
#define TF_PREAMBLE_LEN		16
#define TF_RECORD_HDR_LEN	8
#define TF_PAYLOAD_MAX		(64 * 1024)

enum tf_record_type {
	TF_REC_SESSION	= 1,
	TF_REC_EVENT	= 2,
	TF_REC_STACK	= 3,
	TF_REC_KSYM	= 4,
	TF_REC_TRAILER	= 5,
};

/* How a probe is attached; SO_PROBE_MISSING: it could not be. */
enum so_probe_mode {
	SO_PROBE_MISSING,
	SO_PROBE_FENTRY,
	SO_PROBE_FEXIT,
	SO_PROBE_KPROBE,
	SO_PROBE_KRETPROBE,
	SO_PROBE_TRACEPOINT,
	SO_PROBE_NR,
};

#define SO_PROBES_MAX		64
#define SO_KNOBS_MAX		32
#define SO_PROBE_NAME_LEN	64
#define SO_KNOB_LEN		64

struct so_probe_info {
	char name[SO_PROBE_NAME_LEN];	/* "fexit_kernfs_get_active" or fn */
	uint32_t mode;			/* enum so_probe_mode */
};

struct so_knob {
	char name[SO_KNOB_LEN];
	char value[SO_KNOB_LEN];
};

/* What a run was: the `#` header of the summary, the trace's SESSION. */
struct so_session_info {
	uint64_t start_realtime_ns;	/* wall clock, for people */
	uint64_t start_mono_ns;		/* CLOCK_MONOTONIC = event ts_ns */
	uint32_t pid_filter;		/* 0: every pid */
	char tool[32];			/* SO_TOOL_VERSION, lib/version.h */
	char kernel[128];		/* uname -r */
	char test[32];			/* "0028", "" for --attach */
	char module_filter[SO_NAME_LEN];
	char path_prefix[256];
	char module_params[512];	/* "enable_lock=1 ..." */
	uint32_t nr_probes;
	struct so_probe_info probes[SO_PROBES_MAX];
	uint32_t nr_knobs;
	struct so_knob knobs[SO_KNOBS_MAX];
	char knobs_note[256];		/* no knobs: why ("kernel without
					 * CONFIG_FAIL_KERNFS_KNOBS: ...") */
};

/* How a run ended: the trace's TRAILER. */
struct so_session_end {
	uint64_t end_mono_ns;
	uint64_t nr_events;		/* EVENT records */
	uint64_t nr_stacks;
	uint64_t nr_ksyms;
	uint64_t counters[SO_CNT_NR];	/* enum so_counter, summed over CPUs */
};

const char *tf_probe_mode_name(uint32_t mode);
/* Appends a probe or knob; -1 when the table is full or a name too long. */
int tf_session_add_probe(struct so_session_info *info, const char *name,
			 uint32_t mode);
int tf_session_add_knob(struct so_session_info *info, const char *name,
			const char *value);

struct tf_writer {
	FILE *out;
	uint64_t nr_events, nr_stacks, nr_ksyms;
	bool failed;			/* a write failed: close reports it */
};

/* Writes the preamble and SESSION.  Returns 0, or -1 (write error). */
int tf_writer_open(struct tf_writer *w, FILE *out,
		   const struct so_session_info *info);
/* After tf_writer_close(): the next session in the same file, its
 * SESSION record.  Returns 0, or -1 (write error). */
int tf_writer_session(struct tf_writer *w, const struct so_session_info *info);
/* rec must have passed record_check(). */
int tf_write_event(struct tf_writer *w, const void *rec, size_t len);
int tf_write_stack(struct tf_writer *w, int32_t id, const uint64_t *addrs,
		   uint32_t depth);
int tf_write_ksym(struct tf_writer *w, uint64_t addr, uint64_t size,
		  char type, const char *name, const char *module);
/* Writes TRAILER with the writer's own counts and end's counters, then
 * flushes.  Returns 0, or -1 if this or any earlier write failed. */
int tf_writer_close(struct tf_writer *w, const struct so_session_end *end);

/* The reader calls these in file order; a non-zero return stops it. */
struct tf_handlers {
	int (*session)(void *ctx, const struct so_session_info *info);
	int (*event)(void *ctx, const void *rec, size_t len);
	int (*stack)(void *ctx, int32_t id, const uint64_t *addrs,
		     uint32_t depth);
	int (*ksym)(void *ctx, uint64_t addr, uint64_t size, char type,
		    const char *name, const char *module);
	int (*trailer)(void *ctx, const struct so_session_end *end);
};

/*
 * Reads and checks a whole trace, calling h (any member may be NULL).
 * Returns 0, or -1 with err holding "<fname>: <problem> at offset N: ...".
 * Handlers have seen every record before the bad one.
 */
int tf_read(FILE *in, const char *fname, const struct tf_handlers *h,
	    void *ctx, char *err, size_t errlen);

#endif /* SO_TRACE_FILE_H */
