/* SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1 */
/*
 * Units for people: durations and errnos the way the stream, the summary
 * and the tests spell them, in one place so they always agree.
 */
#ifndef SO_UNITS_H
#define SO_UNITS_H

#include <stddef.h>
#include <stdint.h>

#define SO_DURATION_LEN	24

/* "812 ns", "1.23 us", "45.6 ms", "2.00 s": three significant digits. */
const char *units_duration(uint64_t ns, char buf[SO_DURATION_LEN]);
/* "ENODEV" for 19 (or -19); "E123" for numbers it does not know. */
const char *units_errno(int64_t err, char buf[SO_DURATION_LEN]);

#endif /* SO_UNITS_H */
