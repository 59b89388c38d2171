// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "lib/addr.h"
#include "lib/array.h"
#include "trace/ksyms.h"

struct ksyms {
	struct ksym *syms;
	size_t len, cap;
	/* Modules are few and names repeat for every symbol: intern them. */
	char **modules;
	size_t nr_modules, cap_modules;
	bool sorted;
};

struct ksyms *ksyms_new(void)
{
	return calloc(1, sizeof(struct ksyms));
}

void ksyms_free(struct ksyms *ks)
{
	size_t i;

	if (!ks)
		return;
	for (i = 0; i < ks->len; i++)
		free((char *)ks->syms[i].name);
	for (i = 0; i < ks->nr_modules; i++)
		free(ks->modules[i]);
	free(ks->modules);
	free(ks->syms);
	free(ks);
}

size_t ksyms_count(const struct ksyms *ks)
{
	return ks->len;
}

static const char *ksyms_intern_module(struct ksyms *ks, const char *module)
{
	size_t i;

	if (!module || !*module)
		return "";
	for (i = 0; i < ks->nr_modules; i++)
		if (!strcmp(ks->modules[i], module))
			return ks->modules[i];
	if (array_reserve((void **)&ks->modules, &ks->cap_modules,
			  ks->nr_modules, sizeof(*ks->modules)))
		return NULL;
	ks->modules[ks->nr_modules] = strdup(module);
	if (!ks->modules[ks->nr_modules])
		return NULL;
	return ks->modules[ks->nr_modules++];
}

int ksyms_add(struct ksyms *ks, uint64_t addr, uint64_t size, char type,
	      const char *name, const char *module)
{
	struct ksym *sym;

	if (array_reserve((void **)&ks->syms, &ks->cap, ks->len,
			  sizeof(*ks->syms)))
		return -1;
	sym = &ks->syms[ks->len];
	sym->module = ksyms_intern_module(ks, module);
	sym->name = strndup(name, KSYMS_NAME_MAX - 1);
	if (!sym->module || !sym->name) {
		free((char *)sym->name);
		return -1;
	}
	sym->addr = addr;
	sym->size = size;
	sym->type = type;
	ks->len++;
	ks->sorted = false;
	return 0;
}

/* "ffffffffc0a01000 t test_dev_x_store\t[test_sysfs]" */
static int ksyms_parse_line(char *line, uint64_t *addr, char *type,
			    char **name, char **module)
{
	char *end, *tok;

	*addr = strtoull(line, &end, 16);
	if (end == line || (*end != ' ' && *end != '\t'))
		return -1;
	tok = strtok_r(end, " \t\n", &end);
	if (!tok || tok[1])
		return -1;
	*type = tok[0];
	*name = strtok_r(NULL, " \t\n", &end);
	if (!*name)
		return -1;
	*module = strtok_r(NULL, " \t\n", &end);
	if (*module) {
		size_t len = strlen(*module);

		if (len < 3 || (*module)[0] != '[' || (*module)[len - 1] != ']')
			return -1;
		(*module)[len - 1] = '\0';
		(*module)++;
	}
	return 0;
}

long ksyms_load(struct ksyms *ks, FILE *kallsyms, char *err, size_t errlen)
{
	char line[KSYMS_LINE_MAX], type, *name, *module;
	unsigned long lineno = 0;
	long added = 0, nonzero = 0;
	uint64_t addr;

	while (fgets(line, sizeof(line), kallsyms)) {
		lineno++;
		if (!strchr(line, '\n') && !feof(kallsyms)) {
			snprintf(err, errlen, "line %lu is longer than %d bytes",
				 lineno, KSYMS_LINE_MAX - 1);
			return -1;
		}
		if (line[0] == '\n')
			continue;
		if (ksyms_parse_line(line, &addr, &type, &name, &module)) {
			snprintf(err, errlen,
				 "line %lu is not \"ADDR TYPE NAME [MODULE]\"",
				 lineno);
			return -1;
		}
		if (ksyms_add(ks, addr, 0, type, name, module)) {
			snprintf(err, errlen, "out of memory at line %lu",
				 lineno);
			return -1;
		}
		added++;
		nonzero += addr != 0;
	}
	if (added && !nonzero) {
		snprintf(err, errlen,
			 "every address is 0 (kptr_restrict hides them)");
		return -1;
	}
	return added;
}

static int ksym_cmp(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	/* Aliases at one address: prefer the global (upper-case) name,
	 * then the name, so every run picks the same one. */
	if ((x->type >= 'a') != (y->type >= 'a'))
		return x->type >= 'a' ? 1 : -1;
	return strcmp(x->name, y->name);
}

static void ksyms_sort(struct ksyms *ks)
{
	size_t i, j;

	if (ks->sorted)
		return;
	if (ks->len)	/* qsort(NULL, 0) is undefined */
		qsort(ks->syms, ks->len, sizeof(*ks->syms), ksym_cmp);
	/* A module's symbols are read again after each load of it: keep
	 * one of each (module names are interned, so pointers compare). */
	for (i = j = 0; i < ks->len; i++) {
		struct ksym *s = &ks->syms[i];
		/* &syms[j - 1] with j == 0 is undefined even unread. */
		struct ksym *kept = j ? &ks->syms[j - 1] : NULL;

		if (kept && s->addr == kept->addr &&
		    s->module == kept->module && s->type == kept->type &&
		    !strcmp(s->name, kept->name)) {
			free((char *)s->name);
			continue;
		}
		ks->syms[j++] = *s;
	}
	ks->len = j;
	/* A symbol without a size ends where the next address starts;
	 * aliases share the size of the first symbol above them. */
	for (i = 0; i < ks->len; i++) {
		if (ks->syms[i].size)
			continue;
		for (j = i + 1; j < ks->len; j++)
			if (ks->syms[j].addr != ks->syms[i].addr)
				break;
		if (j < ks->len)
			ks->syms[i].size = ks->syms[j].addr - ks->syms[i].addr;
	}
	ks->sorted = true;
}

const struct ksym *ksyms_find(struct ksyms *ks, uint64_t addr)
{
	size_t lo = 0, hi, mid;
	const struct ksym *sym;

	ksyms_sort(ks);
	hi = ks->len;
	/* The last symbol whose address is <= addr. */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (ks->syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	sym = &ks->syms[lo - 1];
	while (sym > ks->syms && (sym - 1)->addr == sym->addr)
		sym--;
	if (sym->size && addr - sym->addr >= sym->size)
		return NULL;
	return sym;
}

const struct ksym *ksyms_by_name(struct ksyms *ks, const char *name)
{
	size_t i;

	ksyms_sort(ks);
	for (i = 0; i < ks->len; i++)
		if (!strcmp(ks->syms[i].name, name))
			return &ks->syms[i];
	return NULL;
}

const char *ksyms_format(struct ksyms *ks, uint64_t addr, char *buf,
			 size_t len)
{
	const struct ksym *sym = ksyms_find(ks, addr);
	char off[24] = "";

	/* perf's word for it: the address would give away KASLR; with
	 * --addresses (root), the address. */
	if (!sym) {
		char a[SO_ADDR_LEN];

		snprintf(buf, len, "%s", addr_shown() ?
			 addr_str(addr, a) : "[unknown]");
		return buf;
	}
	if (addr != sym->addr)
		snprintf(off, sizeof(off), "+0x%" PRIx64, addr - sym->addr);
	snprintf(buf, len, "%s%s%s%s%s", sym->name, off,
		 *sym->module ? " [" : "", sym->module,
		 *sym->module ? "]" : "");
	return buf;
}
