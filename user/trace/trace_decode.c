// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * The reader's record decoders: SESSION, STACK, KSYM and TRAILER from a
 * checked cursor into what the handlers get.  Apart from the record loop
 * (trace_file.c) because each follows its record's layout in
 * trace_file.h, field by field.
 */
#include <string.h>
#include "trace/trace_format.h"

int tf_decode_session(struct tf_cursor *c, struct so_session_info *info)
{
	uint32_t i;

	memset(info, 0, sizeof(*info));
	info->start_realtime_ns = tf_get(c, 8, "start_realtime_ns");
	info->start_mono_ns = tf_get(c, 8, "start_mono_ns");
	info->pid_filter = (uint32_t)tf_get(c, 4, "pid_filter");
	tf_get_str(c, info->tool, sizeof(info->tool), "tool");
	tf_get_str(c, info->kernel, sizeof(info->kernel), "kernel");
	tf_get_str(c, info->test, sizeof(info->test), "test");
	tf_get_str(c, info->module_filter, sizeof(info->module_filter),
		   "module_filter");
	tf_get_str(c, info->path_prefix, sizeof(info->path_prefix),
		   "path_prefix");
	tf_get_str(c, info->module_params, sizeof(info->module_params),
		   "module_params");
	info->nr_probes = tf_get_count(c, SO_PROBES_MAX, 2 + 4, "nr_probes");
	for (i = 0; i < info->nr_probes && !c->bad; i++) {
		struct so_probe_info *probe = &info->probes[i];
		uint64_t at;

		tf_get_str(c, probe->name, sizeof(probe->name), "probe name");
		at = c->base + TF_RECORD_HDR_LEN + c->pos;
		probe->mode = (uint32_t)tf_get(c, 4, "probe mode");
		if (!c->bad && probe->mode >= SO_PROBE_NR) {
			c->bad = true;
			return tf_fail(c->r, "bad SESSION record at offset %llu: probe mode %u at offset %llu is unknown",
				       (unsigned long long)c->base,
				       probe->mode, (unsigned long long)at);
		}
	}
	info->nr_knobs = tf_get_count(c, SO_KNOBS_MAX, 2 + 2, "nr_knobs");
	for (i = 0; i < info->nr_knobs && !c->bad; i++) {
		tf_get_str(c, info->knobs[i].name, sizeof(info->knobs[i].name),
			   "knob name");
		tf_get_str(c, info->knobs[i].value,
			   sizeof(info->knobs[i].value), "knob value");
	}
	if (c->r->format >= 2)
		tf_get_str(c, info->knobs_note, sizeof(info->knobs_note),
			   "knobs_note");
	return tf_cursor_done(c);
}

int tf_decode_stack(struct tf_cursor *c, const struct tf_handlers *h,
		    void *ctx)
{
	uint64_t addrs[SO_STACK_DEPTH];
	uint64_t at = c->base + TF_RECORD_HDR_LEN;
	uint32_t id, depth, i;

	id = (uint32_t)tf_get(c, 4, "stack_id");
	depth = tf_get_count(c, SO_STACK_DEPTH, 8, "depth");
	for (i = 0; i < depth; i++)
		addrs[i] = tf_get(c, 8, "address");
	if (tf_cursor_done(c))
		return -1;
	if (id > INT32_MAX)
		return tf_fail(c->r, "bad STACK record at offset %llu: stack id %d at offset %llu is negative",
			       (unsigned long long)c->base, (int32_t)id,
			       (unsigned long long)at);
	c->r->nr_stacks++;
	return h->stack ? h->stack(ctx, (int32_t)id, addrs, depth) : 0;
}

int tf_decode_ksym(struct tf_cursor *c, const struct tf_handlers *h,
		   void *ctx)
{
	char name[TF_KSYM_NAME_LEN], module[TF_KSYM_MODULE_LEN];
	uint64_t addr, size, at;
	uint32_t type;

	addr = tf_get(c, 8, "addr");
	size = tf_get(c, 8, "size");
	at = c->base + TF_RECORD_HDR_LEN + c->pos;
	type = (uint32_t)tf_get(c, 4, "type");
	tf_get_str(c, name, sizeof(name), "name");
	tf_get_str(c, module, sizeof(module), "module");
	if (tf_cursor_done(c))
		return -1;
	if (type < 0x21 || type > 0x7e || !name[0])
		return tf_fail(c->r, "bad KSYM record at offset %llu: %s at offset %llu",
			       (unsigned long long)c->base,
			       name[0] ? "type is not a letter" : "empty name",
			       (unsigned long long)(name[0] ? at : at + 4));
	c->r->nr_ksyms++;
	return h->ksym ? h->ksym(ctx, addr, size, (char)type, name, module) :
			 0;
}

static int tf_check_count(struct tf_cursor *c, const char *what,
			  uint64_t claimed, uint64_t seen)
{
	if (c->bad || claimed == seen)
		return 0;
	c->bad = true;
	return tf_fail(c->r, "bad TRAILER record at offset %llu: it counts %llu %s, the file has %llu",
		       (unsigned long long)c->base,
		       (unsigned long long)claimed, what,
		       (unsigned long long)seen);
}

int tf_decode_trailer(struct tf_cursor *c, const struct tf_handlers *h,
		      void *ctx)
{
	struct so_session_end end;
	uint32_t nr_counters, i;
	uint64_t at;

	memset(&end, 0, sizeof(end));
	end.end_mono_ns = tf_get(c, 8, "end_mono_ns");
	end.nr_events = tf_get(c, 8, "nr_events");
	end.nr_stacks = tf_get(c, 8, "nr_stacks");
	end.nr_ksyms = tf_get(c, 8, "nr_ksyms");
	at = c->base + TF_RECORD_HDR_LEN + c->pos;
	nr_counters = tf_get_count(c, SO_CNT_NR, 8, "nr_counters");
	/* Counters are appended to the enum: an older trace has fewer, and
	 * those it lacks read as 0.  More than this ABI knows is corrupt. */
	if (!c->bad && nr_counters > SO_CNT_NR) {
		c->bad = true;
		return tf_fail(c->r, "bad TRAILER record at offset %llu: nr_counters %u at offset %llu, this ABI has at most %d",
			       (unsigned long long)c->base, nr_counters,
			       (unsigned long long)at, SO_CNT_NR);
	}
	for (i = 0; i < nr_counters; i++)
		end.counters[i] = tf_get(c, 8, "counter");
	if (tf_cursor_done(c) ||
	    tf_check_count(c, "events", end.nr_events, c->r->nr_events) ||
	    tf_check_count(c, "stacks", end.nr_stacks, c->r->nr_stacks) ||
	    tf_check_count(c, "symbols", end.nr_ksyms, c->r->nr_ksyms))
		return -1;
	return h->trailer ? h->trailer(ctx, &end) : 0;
}
