/* SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1 */
/*
 * Kernel symbols from /proc/kallsyms text (or from a trace file's symbol
 * records): address -> "sym+0xoff [module]" for stacks and static locks,
 * name -> address for naming a lock like rtnl_mutex by where it lives.
 */
#ifndef SO_KSYMS_H
#define SO_KSYMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define KSYMS_NAME_MAX	128	/* KSYM_NAME_LEN in 6.1 */
#define KSYMS_LINE_MAX	512

struct ksym {
	uint64_t addr;
	uint64_t size;		/* up to the next symbol; 0: unknown (last) */
	const char *name;
	const char *module;	/* "" for vmlinux */
	char type;		/* kallsyms type letter: t, T, d, b, ... */
};

struct ksyms;

struct ksyms *ksyms_new(void);
void ksyms_free(struct ksyms *ks);
/*
 * Adds every line of kallsyms text.  Returns the number of symbols added,
 * or -1 with a reason in err: a malformed line (with its number), or only
 * zero addresses, which is what kptr_restrict shows an unprivileged user.
 */
long ksyms_load(struct ksyms *ks, FILE *kallsyms, char *err, size_t errlen);
/* size 0: up to the next symbol.  Returns 0, or -1 (no memory). */
int ksyms_add(struct ksyms *ks, uint64_t addr, uint64_t size, char type,
	      const char *name, const char *module);
/* The symbol containing addr, or NULL. */
const struct ksym *ksyms_find(struct ksyms *ks, uint64_t addr);
/* The first symbol of that name (any module), or NULL. */
const struct ksym *ksyms_by_name(struct ksyms *ks, const char *name);
/* "sym+0xoff [module]", "sym" at offset 0, else "0x<addr>". */
const char *ksyms_format(struct ksyms *ks, uint64_t addr, char *buf,
			 size_t len);
size_t ksyms_count(const struct ksyms *ks);

#endif /* SO_KSYMS_H */
