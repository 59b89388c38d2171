// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * Preflight checks and the kernel's symbol lists (see preflight.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "kernel/preflight.h"
#include "lib/array.h"

static const char *const tracefs_lists[] = {
	"/sys/kernel/tracing/available_filter_functions",
	"/sys/kernel/debug/tracing/available_filter_functions",
};

int preflight_check(void)
{
	int missing = 0;
	size_t i;

	if (geteuid() != 0) {
		fprintf(stderr, "sysfs-observe: needs root: BPF tracing "
			"programs and module loading are privileged\n"
			"  run it with sudo\n");
		missing++;
	}
	if (access("/sys/kernel/btf/vmlinux", R_OK)) {
		fprintf(stderr, "sysfs-observe: this kernel has no BTF "
			"(/sys/kernel/btf/vmlinux): CO-RE programs cannot "
			"load\n  boot a kernel with CONFIG_DEBUG_INFO_BTF=y "
			"(Debian's do)\n");
		missing++;
	}
	for (i = 0; i < 2; i++)
		if (!access(tracefs_lists[i], R_OK))
			break;
	if (i == 2) {
		fprintf(stderr, "sysfs-observe: no ftrace on this kernel "
			"(no available_filter_functions in tracefs): fentry "
			"and kprobes cannot attach\n  mount tracefs "
			"(mount -t tracefs none /sys/kernel/tracing) on a "
			"kernel with CONFIG_FTRACE and CONFIG_KPROBES\n");
		missing++;
	}
	return missing ? 4 : 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int traceable_load(struct traceable *tr)
{
	char line[256];
	size_t cap = 0, i;
	FILE *f = NULL;

	memset(tr, 0, sizeof(*tr));
	for (i = 0; i < 2 && !f; i++)
		f = fopen(tracefs_lists[i], "r");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, " \t\n")] = 0;	/* drop " [module]" */
		if (array_reserve((void **)&tr->names, &cap, tr->nr,
				  sizeof(*tr->names)))
			break;
		tr->names[tr->nr] = strdup(line);
		if (tr->names[tr->nr])
			tr->nr++;
	}
	fclose(f);
	qsort(tr->names, tr->nr, sizeof(*tr->names), cmp_str);
	return 0;
}

bool traceable_has(const struct traceable *tr, const char *fn)
{
	return tr->nr && bsearch(&fn, tr->names, tr->nr, sizeof(*tr->names),
				 cmp_str);
}

void traceable_free(struct traceable *tr)
{
	size_t i;

	for (i = 0; i < tr->nr; i++)
		free(tr->names[i]);
	free(tr->names);
	memset(tr, 0, sizeof(*tr));
}

uint64_t kallsyms_addr(const char *name)
{
	char line[512], sym[256], type;
	unsigned long long addr;
	uint64_t found = 0;
	FILE *f = fopen("/proc/kallsyms", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %255s", &addr, &type, sym) != 3)
			continue;
		if (!strcmp(sym, name)) {
			found = addr;
			break;
		}
	}
	fclose(f);
	return found;
}

bool kallsyms_has(const char *name)
{
	char line[512], sym[256], type;
	unsigned long long addr;
	bool found = false;
	FILE *f = fopen("/proc/kallsyms", "r");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		found = sscanf(line, "%llx %c %255s", &addr, &type, sym) == 3 &&
			!strcmp(sym, name);
	fclose(f);
	return found;
}
