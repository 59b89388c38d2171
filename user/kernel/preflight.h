/* SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1 */
/*
 * What the running kernel offers: root, BTF, tracefs, kallsyms.  Each
 * missing piece is named with what to do about it.
 */
#ifndef SO_PREFLIGHT_H
#define SO_PREFLIGHT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* 0 when the kernel can be observed, else 4 (skip) with reasons printed. */
int preflight_check(void);

/* ftrace's available_filter_functions, sorted, for bsearch. */
struct traceable {
	char **names;
	size_t nr;
};

int traceable_load(struct traceable *tr);
bool traceable_has(const struct traceable *tr, const char *fn);
void traceable_free(struct traceable *tr);

/*
 * /proc/kallsyms, scanned once per call (trace/ksyms.h is the whole
 * table, loaded once to name stacks).  kallsyms_addr: the first
 * address of a symbol, 0 if absent or hidden.  kallsyms_has: whether
 * it is listed at all, which a hidden address (kptr_restrict) does not
 * change.
 */
uint64_t kallsyms_addr(const char *name);
bool kallsyms_has(const char *name);

#endif /* SO_PREFLIGHT_H */
