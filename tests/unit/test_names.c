// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
#include "helpers.h"
#include "trace/names.h"

#define LOCK_STATIC	0xffffffff82a00000ULL	/* rtnl_mutex in kallsyms */
#define LOCK_DYNAMIC	0xffff888012345678ULL

static struct ksyms *test_ksyms(void)
{
	struct ksyms *ks = ksyms_new();

	ksyms_add(ks, 0xffffffff81100000ULL, 0x100, 'T', "mutex_lock", "");
	ksyms_add(ks, 0xffffffff81200000ULL, 0x100, 'T', "bpf_trampoline_6",
		  "");
	ksyms_add(ks, 0xffffffffc0a01000ULL, 0x200, 't', "test_dev_x_store",
		  "test_sysfs");
	ksyms_add(ks, LOCK_STATIC, 0x20, 'D', "rtnl_mutex", "");
	return ks;
}

static void test_class_names(void **state)
{
	struct so_names *names = names_new(NULL);
	char buf[SO_CLASS_NAME_LEN];
	struct so_event ev;

	ev = test_event(SO_EV_KN_WRITE_BEGIN, 1, 7, KN_X,
			"test_sysfs0/test_dev_x");
	names_observe(names, &ev, NULL);
	ev = test_event(SO_EV_MOD_GET, 2, 7, MOD_TS, "test_sysfs");
	names_observe(names, &ev, NULL);
	ev = test_event(SO_EV_MUTEX_INIT, 3, 7, MTX_CFG,
			"&test_dev->config_mutex");
	names_observe(names, &ev, NULL);
	/* A device name is not its class's name. */
	ev = test_event(SO_EV_DEL_GENDISK_BEGIN, 4, 7, KN_Y, "test_blk0");
	names_observe(names, &ev, NULL);

	assert_string_equal(names_class(names, KN_X, buf, sizeof(buf)),
			    "kn:test_sysfs0/test_dev_x");
	assert_string_equal(names_class(names, MOD_TS, buf, sizeof(buf)),
			    "mod:test_sysfs");
	assert_string_equal(names_class(names, MTX_CFG, buf, sizeof(buf)),
			    "&test_dev->config_mutex");
	assert_string_equal(names_class(names, RTNL, buf, sizeof(buf)),
			    "rtnl_mutex");
	assert_string_equal(names_class(names, KN_Y, buf, sizeof(buf)),
			    "kn:#2222");
	assert_string_equal(names_class(names, 0x7700000000000001ULL, buf,
					sizeof(buf)),
			    "class#7700000000000001");
	names_free(names);
}

static void test_lock_names(void **state)
{
	char want[256];
	struct ksyms *ks = test_ksyms();
	struct so_names *names = names_new(ks);
	uint64_t static_id = SO_CLASS_MAKE(SO_CLASS_LOCK, LOCK_STATIC);
	uint64_t dyn_id = SO_CLASS_MAKE(SO_CLASS_LOCK, LOCK_DYNAMIC);
	uint64_t anon_id = SO_CLASS_MAKE(SO_CLASS_LOCK, 0xffff888000000040ULL);
	uint64_t mod_id = SO_CLASS_MAKE(SO_CLASS_LOCK, 0xffffffffc04552c0ULL);
	struct so_stack stack = {
		.id = 1, .depth = 3,
		.addrs = { 0xffffffff81200010ULL, 0xffffffff81100020ULL,
			   0xffffffffc0a01040ULL },
	};
	char buf[SO_CLASS_NAME_LEN];
	uint64_t addrs[4];
	struct so_event ev;

	/* Static: named by its symbol even without an event's object. */
	assert_string_equal(names_class(names, static_id, buf, sizeof(buf)),
			    "rtnl_mutex");
	/* Dynamic: by the first function that took it, past the plumbing. */
	ev = test_event(SO_EV_LOCK_ACQUIRED, 1, 7, dyn_id, NULL);
	ev.obj = LOCK_DYNAMIC;
	names_observe(names, &ev, &stack);
	assert_string_equal(names_class(names, dyn_id, buf, sizeof(buf)),
			    "mutex@test_dev_x_store");
	/* Neither: a handle, never the address. */
	snprintf(want, sizeof(want), "lock#%04x",
		 addr_handle(0xffff888000000040ULL));
	assert_string_equal(names_class(names, anon_id, buf, sizeof(buf)),
			    want);
	assert_int_equal(names_lock_addrs(names, addrs, 4), 1);
	assert_true(addrs[0] == LOCK_DYNAMIC);
	/* A module's static mutex the probes named ("%ps") while the
	 * module was loaded: that name, without " [module]", although
	 * kallsyms never had it here. */
	ev = test_event(SO_EV_LOCK_ACQUIRED, 2, 7, mod_id,
			"reset_mutex [test_sysfs]");
	ev.obj = 0xffffffffc04552c0ULL;
	names_observe(names, &ev, NULL);
	assert_string_equal(names_class(names, mod_id, buf, sizeof(buf)),
			    "reset_mutex");
	names_free(names);
	ksyms_free(ks);
}

static void test_edge_names(void **state)
{
	struct so_names *names = names_new(NULL);
	char buf[SO_CLASS_NAME_LEN];
	struct so_edge_event edge;

	memset(&edge, 0, sizeof(edge));
	edge.ev = test_event(SO_EV_EDGE, 1, 7, MTX_CFG,
			     "test_sysfs0/test_dev_y");
	edge.key.from_class = KN_Y;
	edge.key.to_class = MTX_CFG;
	strcpy(edge.to_name, "&test_dev->config_mutex");
	names_observe(names, &edge.ev, NULL);
	assert_string_equal(names_class(names, KN_Y, buf, sizeof(buf)),
			    "kn:test_sysfs0/test_dev_y");
	assert_string_equal(names_class(names, MTX_CFG, buf, sizeof(buf)),
			    "&test_dev->config_mutex");
	names_free(names);
}

static void test_type_names(void **state)
{
	uint32_t type;

	for (type = 1; type < SO_EV_NR; type++) {
		assert_string_not_equal(names_event_type(type), "?");
		assert_true(strlen(names_event_type(type)) <= 12);
	}
	assert_string_equal(names_event_type(0), "?");
	assert_string_equal(names_event_type(SO_EV_NR), "?");
	assert_string_equal(names_class_kind(SO_CLASS_KN), "kernfs");
	assert_string_equal(names_class_kind(SO_CLASS_RTNL), "mutex");
	assert_string_equal(names_counter(SO_CNT_RB_DROPS), "rb_drops");
	assert_string_equal(names_counter(SO_CNT_NR), "?");
	/* Every counter is a JSON key: one without a name was "?". */
	for (type = 0; type < SO_CNT_NR; type++) {
		assert_string_not_equal(names_counter(type), "?");
		assert_string_not_equal(names_counter_desc(type), "?");
	}
	assert_true(names_class_addr(SO_CLASS_MAKE(SO_CLASS_LOCK,
						   LOCK_STATIC)) ==
		    LOCK_STATIC);
}

/* No address by default: a handle, the same for the same object; with
 * --addresses the address itself, in names, handles and stack frames. */
static void test_addresses(void **state)
{
	const uint64_t obj = 0xffff888004a3c2a0ULL;
	struct ksyms *ks = ksyms_new();
	char a[SO_ADDR_LEN], b[SO_ADDR_LEN], frame[64];

	assert_non_null(ks);
	addr_str(obj, a);
	assert_int_equal(a[0], '#');
	assert_int_equal(strlen(a), 5);
	assert_string_equal(addr_str(obj, b), a);
	assert_string_equal(ksyms_format(ks, obj, frame, sizeof(frame)),
			    "[unknown]");
	addr_set_shown(true);
	assert_string_equal(addr_str(obj, a), "0xffff888004a3c2a0");
	assert_string_equal(ksyms_format(ks, obj, frame, sizeof(frame)),
			    "0xffff888004a3c2a0");
	addr_set_shown(false);
	assert_int_equal(addr_str(obj, a)[0], '#');
	ksyms_free(ks);
	(void)state;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_class_names),
		cmocka_unit_test(test_lock_names),
		cmocka_unit_test(test_edge_names),
		cmocka_unit_test(test_type_names),
		cmocka_unit_test(test_addresses),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
