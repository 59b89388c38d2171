// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#include <stdio.h>
#include <string.h>
#include "trace/record.h"

int record_check(const void *rec, size_t len, char *why, size_t whylen)
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

void record_escape_str(char *s, size_t size)
{
	static const char hex[] = "0123456789abcdef";
	char out[256];
	size_t i, o = 0;

	if (!size)
		return;
	if (size > sizeof(out))
		size = sizeof(out);
	for (i = 0; i < size - 1 && s[i] && o < size - 1; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c >= 0x20 && c != 0x7f && c != '\\') {
			out[o++] = (char)c;
			continue;
		}
		if (o + 4 > size - 1)
			break;
		out[o++] = '\\';
		if (c == '\\') {
			out[o++] = '\\';
			continue;
		}
		out[o++] = 'x';
		out[o++] = hex[c >> 4];
		out[o++] = hex[c & 15];
	}
	out[o] = '\0';
	memcpy(s, out, o + 1);
}

void record_copy(void *out, const void *rec, size_t len)
{
	struct so_edge_event *edge = out;

	memcpy(out, rec, len);
	record_escape_str(edge->ev.comm, SO_COMM_LEN);
	record_escape_str(edge->ev.name, SO_NAME_LEN);
	if (len == sizeof(*edge)) {
		record_escape_str(edge->val.comm, SO_COMM_LEN);
		record_escape_str(edge->to_name, SO_NAME_LEN);
	}
}
