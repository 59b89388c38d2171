// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#include <stdio.h>
#include <string.h>
#include "trace/record.h"

int so_record_check(const void *rec, size_t len, char *why, size_t whylen)
{
	struct so_event ev;
	size_t want;

	if (len < sizeof(ev)) {
		snprintf(why, whylen, "record of %zu bytes, an event has %zu",
			 len, sizeof(ev));
		return -1;
	}
	memcpy(&ev, rec, sizeof(ev));
	if (ev.type == 0 || ev.type >= SO_EV_NR) {
		snprintf(why, whylen, "unknown event type %u", ev.type);
		return -1;
	}
	want = ev.type == SO_EV_EDGE ? sizeof(struct so_edge_event) :
				       sizeof(struct so_event);
	if (len != want) {
		snprintf(why, whylen,
			 "event type %u of %zu bytes, expected %zu", ev.type,
			 len, want);
		return -1;
	}
	return 0;
}

void so_record_copy(void *out, const void *rec, size_t len)
{
	struct so_edge_event *edge = out;

	memcpy(out, rec, len);
	edge->ev.comm[SO_COMM_LEN - 1] = '\0';
	edge->ev.name[SO_NAME_LEN - 1] = '\0';
	if (len == sizeof(*edge)) {
		edge->val.comm[SO_COMM_LEN - 1] = '\0';
		edge->to_name[SO_NAME_LEN - 1] = '\0';
	}
}
