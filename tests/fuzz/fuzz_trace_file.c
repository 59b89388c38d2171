// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * libFuzzer harness: any bytes as a trace file, read the way `report`
 * reads one (pipeline, names, stats, stream, then both summaries), must
 * end in success or a clean error, never a crash, leak or UB.
 *
 *   clang -g -O1 -std=c11 -D_GNU_SOURCE -fsanitize=fuzzer,address,undefined \
 *       -Iuser -Ibpf tests/fuzz/fuzz_trace_file.c \
 *       user/trace/[a-z]*.c user/analysis/stats.c user/report/json.c \
 *       user/report/rows.c user/report/summary.c user/report/summary_json.c \
 *       -o build/fuzz_trace_file
 *   mkdir -p build/fuzz-corpus && build/fuzz_trace_file -max_total_time=60 \
 *       build/fuzz-corpus tests/fuzz/corpus
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "report/summary.h"
#include "app/pipeline.h"

struct fuzz_run {
	struct so_session_info info;
	struct so_session_end end;
	bool have_end;
	struct ksyms *ksyms;
	struct so_pipeline pipe;
};

static int fuzz_session(void *ctx, const struct so_session_info *info)
{
	((struct fuzz_run *)ctx)->info = *info;
	return 0;
}

static int fuzz_event(void *ctx, const void *rec, size_t len)
{
	pipeline_feed(&((struct fuzz_run *)ctx)->pipe, rec, len);
	return 0;
}

static int fuzz_stack(void *ctx, int32_t id, const uint64_t *addrs,
		      uint32_t depth)
{
	pipeline_add_stack(&((struct fuzz_run *)ctx)->pipe, id, addrs,
			   depth);
	return 0;
}

static int fuzz_ksym(void *ctx, uint64_t addr, uint64_t size, char type,
		     const char *name, const char *module)
{
	ksyms_add(((struct fuzz_run *)ctx)->ksyms, addr, size, type, name,
		  module);
	return 0;
}

static int fuzz_trailer(void *ctx, const struct so_session_end *end)
{
	struct fuzz_run *run = ctx;

	run->end = *end;
	run->have_end = true;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct tf_handlers handlers = {
		.session = fuzz_session, .event = fuzz_event,
		.stack = fuzz_stack, .ksym = fuzz_ksym,
		.trailer = fuzz_trailer,
	};
	static FILE *sink;
	struct fuzz_run run;
	struct so_stream stream;
	struct so_stats stats;
	struct so_report rep;
	char err[256];
	FILE *in;

	if (!sink)
		sink = fopen("/dev/null", "w");
	if (!size)
		return 0;
	in = fmemopen((void *)data, size, "rb");
	if (!in)
		return 0;
	memset(&run, 0, sizeof(run));
	run.ksyms = ksyms_new();
	stats_init(&stats);
	pipeline_init(&run.pipe);
	run.pipe.names = names_new(run.ksyms);
	run.pipe.stats = &stats;
	stream_init(&stream, sink, run.pipe.names, true, 0);
	run.pipe.stream = &stream;
	tf_read(in, "fuzz.dat", &handlers, &run, err, sizeof(err));
	fclose(in);

	memset(&rep, 0, sizeof(rep));
	rep.info = &run.info;
	rep.end = run.have_end ? &run.end : NULL;
	rep.stats = &stats;
	rep.names = run.pipe.names;
	rep.malformed = run.pipe.nr_malformed;
	summary_text(sink, &rep);
	summary_json(sink, &rep);
	stream_fini(&stream);

	names_free(run.pipe.names);
	pipeline_fini(&run.pipe);
	stats_fini(&stats);
	ksyms_free(run.ksyms);
	return 0;
}
