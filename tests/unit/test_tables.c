// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * The two tables of lib/: u64map, the growable map, and the fixed index
 * the analysis chains its entries through; and the mixer both use.
 */
#include "helpers.h"
#include "lib/hash.h"
#include "lib/index.h"
#include "lib/u64map.h"

static void test_mix_spreads_dense_keys(void **state)
{
	uint32_t seen[64] = { 0 };
	uint32_t busiest = 0;

	/* Tids 1..1024 in 64 buckets: no bucket gets twice its share. */
	for (uint64_t key = 1; key <= 1024; key++)
		seen[hash_mix64(key) & 63]++;
	for (uint32_t b = 0; b < 64; b++)
		busiest = seen[b] > busiest ? seen[b] : busiest;
	assert_true(busiest < 32);
	assert_int_equal(hash_mix64(0), 0);
	assert_true(hash_mix64(1) != hash_mix64(2));
}

static void test_u64map_grows_and_deletes(void **state)
{
	struct u64map m;
	uint32_t val;

	u64map_init(&m);
	assert_false(u64map_get(&m, 7, &val));
	u64map_del(&m, 7);		/* empty: nothing to do */
	for (uint64_t key = 0; key < 1000; key++)
		assert_int_equal(u64map_put(&m, key * 4096, (uint32_t)key), 0);
	assert_int_equal(m.len, 1000);
	assert_int_equal(u64map_put(&m, 4096, 99), 0);	/* overwrite */
	assert_int_equal(m.len, 1000);
	assert_true(u64map_get(&m, 4096, &val));
	assert_int_equal(val, 99);
	/* Every other key out: the rest of each probe run must stay found. */
	for (uint64_t key = 0; key < 1000; key += 2)
		u64map_del(&m, key * 4096);
	assert_int_equal(m.len, 500);
	for (uint64_t key = 0; key < 1000; key++) {
		bool found = u64map_get(&m, key * 4096, &val);

		assert_int_equal(found, key % 2);
		if (found && key != 1)
			assert_int_equal(val, key);
	}
	u64map_fini(&m);
	assert_int_equal(m.cap, 0);
}

struct entry {
	uint64_t key;
	uint32_t next;
};

static uint32_t find(const struct so_index *index, const struct entry *e,
		     uint64_t key)
{
	uint32_t i = index_first(index, key);

	while (i != SO_INDEX_NIL && e[i].key != key)
		i = e[i].next;
	return i;
}

static void test_index_chains(void **state)
{
	struct entry e[8];
	struct so_index index;

	/* Two entries: four buckets, so eight keys must share chains. */
	assert_int_equal(SO_INDEX_INIT(&index, 2, struct entry, next), 0);
	assert_int_equal(index.mask, 3);
	for (uint32_t i = 0; i < 8; i++) {
		assert_int_equal(find(&index, e, 100 + i), SO_INDEX_NIL);
		e[i].key = 100 + i;
		index_add(&index, e, i, e[i].key);
	}
	for (uint32_t i = 0; i < 8; i++)
		assert_int_equal(find(&index, e, 100 + i), i);
	/* Out of the middle, the head and the tail of chains alike. */
	for (uint32_t i = 0; i < 8; i += 3)
		index_del(&index, e, i, e[i].key);
	for (uint32_t i = 0; i < 8; i++)
		assert_int_equal(find(&index, e, 100 + i),
				 i % 3 ? i : SO_INDEX_NIL);
	/* A freed slot comes back under another key. */
	e[3].key = 7;
	index_add(&index, e, 3, 7);
	assert_int_equal(find(&index, e, 7), 3);
	assert_int_equal(find(&index, e, 103), SO_INDEX_NIL);
	index_fini(&index);
	index_fini(&index);		/* twice: the error path does */
}

static void test_index_sizes(void **state)
{
	struct so_index index;

	/* At least twice the entries, a power of two. */
	assert_int_equal(SO_INDEX_INIT(&index, 1, struct entry, next), 0);
	assert_int_equal(index.mask, 1);
	index_fini(&index);
	assert_int_equal(SO_INDEX_INIT(&index, 1000, struct entry, next), 0);
	assert_int_equal(index.mask, 2047);
	assert_int_equal(index.bucket[2047], SO_INDEX_NIL);
	index_fini(&index);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mix_spreads_dense_keys),
		cmocka_unit_test(test_u64map_grows_and_deletes),
		cmocka_unit_test(test_index_chains),
		cmocka_unit_test(test_index_sizes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
