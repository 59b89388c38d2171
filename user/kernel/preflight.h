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

/* First address of a kallsyms symbol, 0 if absent or hidden. */
uint64_t ksym_addr(const char *name);
bool ksym_exists(const char *name);

#endif /* SO_PREFLIGHT_H */
