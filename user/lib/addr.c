// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#include <inttypes.h>
#include <stdio.h>
#include "observe.h"
#include "lib/addr.h"

static bool so_addresses;

void addr_set_shown(bool show)
{
	so_addresses = show;
}

bool addr_shown(void)
{
	return so_addresses;
}

const char *addr_str(uint64_t addr, char buf[SO_ADDR_LEN])
{
	if (so_addresses)
		snprintf(buf, SO_ADDR_LEN, "0x%" PRIx64, addr);
	else
		snprintf(buf, SO_ADDR_LEN, "#%04x", addr_handle(addr));
	return buf;
}

unsigned int addr_handle(uint64_t addr)
{
	uint64_t h = addr & ((1ULL << SO_CLASS_SHIFT) - 1);

	h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ULL;
	h = (h ^ (h >> 27)) * 0x94d049bb133111ebULL;
	h ^= h >> 31;
	return (unsigned int)(h & 0xffff);
}
