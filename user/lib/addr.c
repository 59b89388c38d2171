// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#include <inttypes.h>
#include <stdio.h>
#include "observe.h"
#include "lib/addr.h"

static bool so_addresses;

void so_show_addresses(bool show)
{
	so_addresses = show;
}

bool so_addresses_shown(void)
{
	return so_addresses;
}

const char *so_addr_str(uint64_t addr, char buf[SO_ADDR_LEN])
{
	if (so_addresses)
		snprintf(buf, SO_ADDR_LEN, "0x%" PRIx64, addr);
	else
		snprintf(buf, SO_ADDR_LEN, "#%04x", so_addr_handle(addr));
	return buf;
}

unsigned int so_addr_handle(uint64_t addr)
{
	uint64_t h = addr & ((1ULL << SO_CLASS_SHIFT) - 1);

	h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ULL;
	h = (h ^ (h >> 27)) * 0x94d049bb133111ebULL;
	h ^= h >> 31;
	return (unsigned int)(h & 0xffff);
}
