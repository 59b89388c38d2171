/* SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1 */
/*
 * Room for one more element in a growable array.  The tables that have
 * no fixed limit (stats' classes and pending begins, the write
 * timelines, trace/'s stacks, class names, kernel symbols and their
 * modules, preflight's traceable functions) keep their entries in a
 * plain array they index themselves; this is the one place such an
 * array grows.  Apart from index.h, whose tables never grow, and from
 * u64map, which grows by rehashing.
 */
#ifndef SO_LIB_ARRAY_H
#define SO_LIB_ARRAY_H

#include <stddef.h>

/*
 * *array holds *cap elements of `size` bytes, `len` of them used: make
 * room for one more, doubling (from 16).  0, or -ENOMEM with the array
 * as it was.
 */
int array_reserve(void **array, size_t *cap, size_t len, size_t size);

#endif /* SO_LIB_ARRAY_H */
