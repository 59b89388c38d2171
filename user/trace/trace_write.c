// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * The trace file writer: records encoded into bounded buffers, a failed
 * write remembered until close.  Apart from the reader because the two
 * share only the layout (trace_file.h, trace_format.h), and the reader's
 * distrust of every byte has no place here.
 */
#include <string.h>
#include "trace/trace_format.h"

/* A record being encoded into a caller's buffer; overflow sticks. */
struct tf_payload {
	uint8_t *bytes;
	size_t cap, len;
	bool overflow;
};
#define TF_PAYLOAD_ON(buf)	{ (buf), sizeof(buf), 0, false }
/* The largest SESSION: every string and table full. */
#define TF_SESSION_MAX	(64 + sizeof(struct so_session_info) + \
			 2 * (SO_PROBES_MAX + 2 * SO_KNOBS_MAX))

static void tf_put(struct tf_payload *pl, const void *src, size_t len)
{
	if (pl->overflow || len > pl->cap - pl->len) {
		pl->overflow = true;
		return;
	}
	memcpy(pl->bytes + pl->len, src, len);
	pl->len += len;
}

static void tf_put_le(struct tf_payload *pl, uint64_t v, size_t width)
{
	uint8_t le[8];
	size_t i;

	for (i = 0; i < width; i++)
		le[i] = (uint8_t)(v >> (8 * i));
	tf_put(pl, le, width);
}

static void tf_put_u32(struct tf_payload *pl, uint32_t v)
{
	tf_put_le(pl, v, 4);
}

static void tf_put_u64(struct tf_payload *pl, uint64_t v)
{
	tf_put_le(pl, v, 8);
}

static void tf_put_str(struct tf_payload *pl, const char *s, size_t size)
{
	size_t len = strnlen(s, size - 1);

	tf_put_le(pl, len, 2);
	tf_put(pl, s, len);
}

static int tf_emit(struct tf_writer *w, uint32_t type, const void *payload,
		   size_t len)
{
	uint8_t hdr_bytes[TF_RECORD_HDR_LEN];
	struct tf_payload hdr = TF_PAYLOAD_ON(hdr_bytes);

	if (len > TF_PAYLOAD_MAX) {
		w->failed = true;
		return -1;
	}
	tf_put_u32(&hdr, type);
	tf_put_u32(&hdr, (uint32_t)len);
	if (fwrite(hdr.bytes, 1, hdr.len, w->out) != hdr.len ||
	    (len && fwrite(payload, 1, len, w->out) != len)) {
		w->failed = true;
		return -1;
	}
	return 0;
}

static int tf_emit_payload(struct tf_writer *w, uint32_t type,
			   const struct tf_payload *pl)
{
	if (pl->overflow) {
		w->failed = true;
		return -1;
	}
	return tf_emit(w, type, pl->bytes, pl->len);
}

int tf_writer_open(struct tf_writer *w, FILE *out,
		   const struct so_session_info *info)
{
	uint8_t preamble[TF_PREAMBLE_LEN] = TF_MAGIC;
	uint32_t i;

	w->out = out;
	w->failed = false;
	for (i = 0; i < 4; i++) {
		preamble[8 + i] = (uint8_t)(TF_FORMAT_VERSION >> (8 * i));
		preamble[12 + i] = (uint8_t)(SO_ABI_VERSION >> (8 * i));
	}
	if (fwrite(preamble, 1, sizeof(preamble), out) != sizeof(preamble)) {
		w->failed = true;
		return -1;
	}
	return tf_writer_session(w, info);
}

int tf_writer_session(struct tf_writer *w, const struct so_session_info *info)
{
	uint8_t bytes[TF_SESSION_MAX];
	struct tf_payload pl = TF_PAYLOAD_ON(bytes);
	uint32_t i, nr_probes, nr_knobs;

	w->nr_events = w->nr_stacks = w->nr_ksyms = 0;
	nr_probes = info->nr_probes < SO_PROBES_MAX ? info->nr_probes :
						      SO_PROBES_MAX;
	nr_knobs = info->nr_knobs < SO_KNOBS_MAX ? info->nr_knobs :
						   SO_KNOBS_MAX;
	tf_put_u64(&pl, info->start_realtime_ns);
	tf_put_u64(&pl, info->start_mono_ns);
	tf_put_u32(&pl, info->pid_filter);
	tf_put_str(&pl, info->tool, sizeof(info->tool));
	tf_put_str(&pl, info->kernel, sizeof(info->kernel));
	tf_put_str(&pl, info->test, sizeof(info->test));
	tf_put_str(&pl, info->module_filter, sizeof(info->module_filter));
	tf_put_str(&pl, info->path_prefix, sizeof(info->path_prefix));
	tf_put_str(&pl, info->module_params, sizeof(info->module_params));
	tf_put_u32(&pl, nr_probes);
	for (i = 0; i < nr_probes; i++) {
		tf_put_str(&pl, info->probes[i].name,
			   sizeof(info->probes[i].name));
		tf_put_u32(&pl, info->probes[i].mode);
	}
	tf_put_u32(&pl, nr_knobs);
	for (i = 0; i < nr_knobs; i++) {
		tf_put_str(&pl, info->knobs[i].name,
			   sizeof(info->knobs[i].name));
		tf_put_str(&pl, info->knobs[i].value,
			   sizeof(info->knobs[i].value));
	}
	tf_put_str(&pl, info->knobs_note, sizeof(info->knobs_note));
	return tf_emit_payload(w, TF_REC_SESSION, &pl);
}

int tf_write_event(struct tf_writer *w, const void *rec, size_t len)
{
	if (tf_emit(w, TF_REC_EVENT, rec, len))
		return -1;
	w->nr_events++;
	return 0;
}

int tf_write_stack(struct tf_writer *w, int32_t id, const uint64_t *addrs,
		   uint32_t depth)
{
	uint8_t bytes[8 + 8 * SO_STACK_DEPTH];
	struct tf_payload pl = TF_PAYLOAD_ON(bytes);
	uint32_t i;

	if (id < 0 || depth > SO_STACK_DEPTH) {
		w->failed = true;
		return -1;
	}
	tf_put_u32(&pl, (uint32_t)id);
	tf_put_u32(&pl, depth);
	for (i = 0; i < depth; i++)
		tf_put_u64(&pl, addrs[i]);
	if (tf_emit_payload(w, TF_REC_STACK, &pl))
		return -1;
	w->nr_stacks++;
	return 0;
}

/* The largest TRAILER: four u64 counts, nr_counters, the counters. */
#define TF_TRAILER_MAX	(4 * 8 + 4 + 8 * SO_CNT_NR)
_Static_assert(TF_SESSION_MAX <= TF_PAYLOAD_MAX,
	       "a full SESSION must fit one record");
_Static_assert(TF_TRAILER_MAX <= TF_PAYLOAD_MAX,
	       "a full TRAILER must fit one record");

int tf_write_ksym(struct tf_writer *w, uint64_t addr, uint64_t size,
		  char type, const char *name, const char *module)
{
	uint8_t bytes[20 + 2 + TF_KSYM_NAME_LEN + 2 + TF_KSYM_MODULE_LEN];
	struct tf_payload pl = TF_PAYLOAD_ON(bytes);

	tf_put_u64(&pl, addr);
	tf_put_u64(&pl, size);
	tf_put_u32(&pl, (uint8_t)type);
	tf_put_str(&pl, name, TF_KSYM_NAME_LEN);
	tf_put_str(&pl, module ? module : "", TF_KSYM_MODULE_LEN);
	if (tf_emit_payload(w, TF_REC_KSYM, &pl))
		return -1;
	w->nr_ksyms++;
	return 0;
}

int tf_writer_close(struct tf_writer *w, const struct so_session_end *end)
{
	uint8_t bytes[TF_TRAILER_MAX];
	struct tf_payload pl = TF_PAYLOAD_ON(bytes);
	uint32_t i;

	tf_put_u64(&pl, end->end_mono_ns);
	tf_put_u64(&pl, w->nr_events);
	tf_put_u64(&pl, w->nr_stacks);
	tf_put_u64(&pl, w->nr_ksyms);
	tf_put_u32(&pl, SO_CNT_NR);
	for (i = 0; i < SO_CNT_NR; i++)
		tf_put_u64(&pl, end->counters[i]);
	tf_emit_payload(w, TF_REC_TRAILER, &pl);
	if (fflush(w->out) || ferror(w->out))
		w->failed = true;
	return w->failed ? -1 : 0;
}
