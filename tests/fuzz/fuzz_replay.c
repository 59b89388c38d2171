// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * libFuzzer harness: any bytes as a trace file through `report` itself
 * (replay_report_file: the pipeline, the order graph, gates, the
 * wait-for graph, write timelines, both summaries).  fuzz_trace_file.c
 * stops before the analysis; this one runs it.  Built and run by
 * `make fuzz` (tests/run.sh's fuzz group).
 */
#include <stdint.h>
#include <stdio.h>
#include "app/replay.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *sink;
	struct replay_opts text = { .format = SO_FMT_TEXT, .entries = 2 };
	struct replay_opts json = { .format = SO_FMT_JSON };
	FILE *in;

	if (!sink)
		sink = fopen("/dev/null", "w");
	if (!size || !sink)
		return 0;
	in = fmemopen((void *)data, size, "rb");
	if (!in)
		return 0;
	text.svg = sink;	/* the picture's code on every input too */
	/* The errors of a bad trace go to stderr: keep the fuzzer's quiet. */
	replay_report_file(in, "fuzz.dat", &text, sink);
	rewind(in);
	replay_report_file(in, "fuzz.dat", &json, sink);
	fclose(in);
	return 0;
}
