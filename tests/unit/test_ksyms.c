// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#include "helpers.h"
#include "trace/names.h"
#include "trace/ksyms.h"

static const char kallsyms[] =
	"ffffffff81000000 T _stext\n"
	"ffffffff81000100 T startup_64\n"
	"ffffffff81234000 T kernfs_fop_write_iter\n"
	"ffffffff81234000 t __pfx_alias\n"
	"ffffffff81234400 t kernfs_drain\n"
	"ffffffff82a00000 D rtnl_mutex\n"
	"ffffffff82a00020 d other_data\n"
	"ffffffffc0a01000 t test_dev_x_store\t[test_sysfs]\n"
	"ffffffffc0a01200 t test_sysfs_exit\t[test_sysfs]\n"
	"ffffffffc0a03000 b config_lock\t[test_sysfs]\n";

static struct ksyms *load(const char *text, long *added, char *err,
			  size_t errlen)
{
	struct ksyms *ks = ksyms_new();
	FILE *f = fmemopen((void *)text, strlen(text), "r");

	assert_non_null(ks);
	assert_non_null(f);
	*added = ksyms_load(ks, f, err, errlen);
	fclose(f);
	return ks;
}

static void test_lookup(void **state)
{
	char err[128], buf[128];
	long added;
	struct ksyms *ks = load(kallsyms, &added, err, sizeof(err));

	assert_int_equal(added, 10);
	assert_string_equal(ksyms_format(ks, 0xffffffff81234010ULL, buf,
					 sizeof(buf)),
			    "kernfs_fop_write_iter+0x10");
	assert_string_equal(ksyms_format(ks, 0xffffffff81234000ULL, buf,
					 sizeof(buf)),
			    "kernfs_fop_write_iter");
	assert_string_equal(ksyms_format(ks, 0xffffffffc0a01234ULL, buf,
					 sizeof(buf)),
			    "test_sysfs_exit+0x34 [test_sysfs]");
	assert_string_equal(ksyms_format(ks, 0xffffffffc0a01000ULL, buf,
					 sizeof(buf)),
			    "test_dev_x_store [test_sysfs]");
	/* Unknown: never the address (KASLR), perf's word instead. */
	assert_string_equal(ksyms_format(ks, 0x1000, buf, sizeof(buf)),
			    "[unknown]");
	assert_string_equal(ksyms_find(ks, 0xffffffff82a00008ULL)->name,
			    "rtnl_mutex");
	assert_int_equal(ksyms_find(ks, 0xffffffff82a00008ULL)->type, 'D');
	ksyms_free(ks);
}

static void test_by_name(void **state)
{
	char err[128];
	long added;
	struct ksyms *ks = load(kallsyms, &added, err, sizeof(err));
	const struct ksym *sym = ksyms_by_name(ks, "rtnl_mutex");

	assert_non_null(sym);
	assert_true(sym->addr == 0xffffffff82a00000ULL);
	sym = ksyms_by_name(ks, "config_lock");
	assert_non_null(sym);
	assert_string_equal(sym->module, "test_sysfs");
	assert_null(ksyms_by_name(ks, "no_such_symbol"));
	ksyms_free(ks);
}

/* Symbols read back from a trace carry sizes: beyond one is a miss. */
static void test_sized(void **state)
{
	struct ksyms *ks = ksyms_new();
	char buf[64];

	assert_int_equal(ksyms_add(ks, 0x2000, 0x10, 't', "small", ""), 0);
	assert_int_equal(ksyms_add(ks, 0x1000, 0, 't', "first", "mod"), 0);
	assert_string_equal(ksyms_format(ks, 0x2008, buf, sizeof(buf)),
			    "small+0x8");
	assert_string_equal(ksyms_format(ks, 0x2010, buf, sizeof(buf)),
			    "[unknown]");
	assert_string_equal(ksyms_format(ks, 0x1fff, buf, sizeof(buf)),
			    "first+0xfff [mod]");
	assert_int_equal(ksyms_count(ks), 2);
	ksyms_free(ks);
}

/* The session reads a module's symbols again after each load of it. */
static void test_reload_keeps_one(void **state)
{
	char err[128], buf[64];
	long added;
	struct ksyms *ks = load(kallsyms, &added, err, sizeof(err));
	size_t once;
	FILE *f;

	assert_string_equal(ksyms_format(ks, 0xffffffffc0a01004, buf,
					 sizeof(buf)),
			    "test_dev_x_store+0x4 [test_sysfs]");
	once = ksyms_count(ks);
	for (int i = 0; i < 3; i++) {
		f = fmemopen((void *)kallsyms, strlen(kallsyms), "r");
		assert_int_equal(ksyms_load(ks, f, err, sizeof(err)), added);
		fclose(f);
	}
	assert_string_equal(ksyms_format(ks, 0xffffffffc0a01004, buf,
					 sizeof(buf)),
			    "test_dev_x_store+0x4 [test_sysfs]");
	assert_int_equal(ksyms_count(ks), once);
	ksyms_free(ks);
}

static void test_bad_input(void **state)
{
	char err[128];
	long added;
	struct ksyms *ks;

	ks = load("ffffffff81000000 T ok\nnot an address line\n", &added,
		  err, sizeof(err));
	assert_int_equal(added, -1);
	assert_string_equal(err, "line 2 is not \"ADDR TYPE NAME [MODULE]\"");
	ksyms_free(ks);

	ks = load("ffffffff81000000 T name [unclosed\n", &added, err,
		  sizeof(err));
	assert_int_equal(added, -1);
	ksyms_free(ks);

	ks = load("0000000000000000 T a\n0000000000000000 t b\n", &added, err,
		  sizeof(err));
	assert_int_equal(added, -1);
	assert_non_null(strstr(err, "kptr_restrict"));
	ksyms_free(ks);

	ks = load("", &added, err, sizeof(err));
	assert_int_equal(added, 0);
	assert_null(ksyms_find(ks, 0x1234));
	ksyms_free(ks);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lookup),
		cmocka_unit_test(test_by_name),
		cmocka_unit_test(test_sized),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_reload_keeps_one),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
