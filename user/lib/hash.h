/* SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1 */
/*
 * The one integer mixer of user space.  Keys here are class ids (hashes
 * already), but also tids, stack ids and lock addresses: small, dense or
 * aligned, so their low bits alone would pile up in a few buckets.  The
 * splitmix64 finalizer spreads every input bit over every output bit;
 * a header of its own because the index and u64map both need it and
 * neither should depend on the other.
 */
#ifndef SO_LIB_HASH_H
#define SO_LIB_HASH_H

#include <stdint.h>

static inline uint64_t hash_mix64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

#endif /* SO_LIB_HASH_H */
