// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#include <stdio.h>
#include "lib/units.h"

const char *units_duration(uint64_t ns, char buf[SO_DURATION_LEN])
{
	static const struct {
		uint64_t scale;
		const char *unit;
	} units[] = {
		{ 1000000000ULL, "s" }, { 1000000ULL, "ms" }, { 1000ULL, "us" },
	};
	size_t i;
	double v;

	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (ns < units[i].scale)
			continue;
		v = (double)ns / (double)units[i].scale;
		snprintf(buf, SO_DURATION_LEN, "%.*f %s",
			 v >= 100.0 ? 0 : v >= 10.0 ? 1 : 2, v, units[i].unit);
		return buf;
	}
	snprintf(buf, SO_DURATION_LEN, "%llu ns", (unsigned long long)ns);
	return buf;
}

/* The errnos kernfs, the module loader and our test module return; the
 * host's <errno.h> is not the target's, so the numbers are Linux's. */
static const char *const so_errno_names[] = {
	[1] = "EPERM",	 [2] = "ENOENT",   [4] = "EINTR",   [5] = "EIO",
	[11] = "EAGAIN", [12] = "ENOMEM",  [13] = "EACCES", [14] = "EFAULT",
	[16] = "EBUSY",	 [17] = "EEXIST",  [19] = "ENODEV", [22] = "EINVAL",
	[28] = "ENOSPC", [34] = "ERANGE",  [38] = "ENOSYS", [95] = "EOPNOTSUPP",
	[110] = "ETIMEDOUT",
};

const char *units_errno(int64_t err, char buf[SO_DURATION_LEN])
{
	uint64_t n = err < 0 ? -(uint64_t)err : (uint64_t)err;

	if (n < sizeof(so_errno_names) / sizeof(so_errno_names[0]) &&
	    so_errno_names[n])
		return so_errno_names[n];
	snprintf(buf, SO_DURATION_LEN, "E%llu", (unsigned long long)n);
	return buf;
}
