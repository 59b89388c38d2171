/* SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1 */
/*
 * How reports print a kernel address they cannot name.  By default not
 * at all (it would give away the KASLR offset): a 16-bit mix of its low
 * 56 bits, the same wherever the object is met (order graph, wait-for
 * graph, names, stream, JSON), "#3f2a".  With --addresses (root only)
 * the address itself, "0xffff888004a3c2a0".  The setting is the
 * process's, like perf's symbol_conf: one run, one way.
 */
#ifndef SO_ADDR_H
#define SO_ADDR_H

#include <stdbool.h>
#include <stdint.h>

#define SO_ADDR_LEN	24

unsigned int addr_handle(uint64_t addr);
void addr_set_shown(bool show);
bool addr_shown(void);
/* "#3f2a", or "0xffff888004a3c2a0" with addr_set_shown(true). */
const char *addr_str(uint64_t addr, char buf[SO_ADDR_LEN]);

#endif /* SO_ADDR_H */
