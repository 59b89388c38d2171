// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "lib/array.h"

int array_reserve(void **array, size_t *cap, size_t len, size_t size)
{
	size_t bigger;
	void *grown;

	if (len < *cap)
		return 0;
	bigger = *cap ? *cap * 2 : 16;
	if (bigger > SIZE_MAX / size)
		return -ENOMEM;
	grown = realloc(*array, bigger * size);
	if (!grown)
		return -ENOMEM;
	*array = grown;
	*cap = bigger;
	return 0;
}
