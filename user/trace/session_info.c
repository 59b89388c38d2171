// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * The session description's tables: probe mode names and the bounded
 * appends that fill its probe and knob arrays.  Apart from the writer and
 * the reader because the live session fills these long before any file
 * is written, and a replay without one.
 */
#include <string.h>
#include "lib/version.h"
#include "trace/trace_file.h"

/* The live session stores SO_TOOL_VERSION in the SESSION record. */
_Static_assert(sizeof(SO_TOOL_VERSION) <=
	       sizeof(((struct so_session_info *)0)->tool),
	       "the tool's name and version must fit the session's tool field");

static const char *const so_probe_mode_names[SO_PROBE_NR] = {
	[SO_PROBE_MISSING]	= "missing",
	[SO_PROBE_FENTRY]	= "fentry",
	[SO_PROBE_FEXIT]	= "fexit",
	[SO_PROBE_KPROBE]	= "kprobe",
	[SO_PROBE_KRETPROBE]	= "kretprobe",
	[SO_PROBE_TRACEPOINT]	= "tracepoint",
};

const char *tf_probe_mode_name(uint32_t mode)
{
	return mode < SO_PROBE_NR ? so_probe_mode_names[mode] : "?";
}

static int tf_copy_name(char *dst, size_t size, const char *src)
{
	size_t len = strlen(src);

	if (len >= size)
		return -1;
	memcpy(dst, src, len + 1);
	return 0;
}

int tf_session_add_probe(struct so_session_info *info, const char *name,
			 uint32_t mode)
{
	struct so_probe_info *probe;

	if (info->nr_probes >= SO_PROBES_MAX || mode >= SO_PROBE_NR)
		return -1;
	probe = &info->probes[info->nr_probes];
	if (tf_copy_name(probe->name, sizeof(probe->name), name))
		return -1;
	probe->mode = mode;
	info->nr_probes++;
	return 0;
}

int tf_session_add_knob(struct so_session_info *info, const char *name,
			const char *value)
{
	struct so_knob *knob;

	if (info->nr_knobs >= SO_KNOBS_MAX)
		return -1;
	knob = &info->knobs[info->nr_knobs];
	if (tf_copy_name(knob->name, sizeof(knob->name), name) ||
	    tf_copy_name(knob->value, sizeof(knob->value), value))
		return -1;
	info->nr_knobs++;
	return 0;
}
