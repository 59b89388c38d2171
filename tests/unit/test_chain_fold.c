// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * trace/chain_fold: the edges' counts rebuilt from the kernel's chain
 * cache, as the probes split them between chains and task memos.
 */
#include "helpers.h"
#include "trace/chain_fold.h"

#define A 0x1000
#define B 0x2000
#define C 0x3000

static const struct so_edge_key a_c = { A, C, 0 }, b_c = { B, C, 0 },
				a_b = { A, B, 0 }, a_c_gated = { A, C, 7 };

/* {A, B} -> C, counted 5 times on the chain. */
static const struct so_chain_val ab_c = {
	.count = 5, .to_class = C, .nfrom = 2, .from = { A, B },
};

static void test_chain_counts_each_of_its_edges(void **state)
{
	struct chain_fold f;

	chain_fold_init(&f);
	assert_int_equal(chain_fold_chain(&f, 11, &ab_c), 0);
	assert_int_equal(chain_fold_count(&f, &a_c), 5);
	assert_int_equal(chain_fold_count(&f, &b_c), 5);
	/* Not an edge of the chain, and not the same gates. */
	assert_int_equal(chain_fold_count(&f, &a_b), 0);
	assert_int_equal(chain_fold_count(&f, &a_c_gated), 0);
	chain_fold_fini(&f);
}

static void test_chains_sharing_an_edge_add_up(void **state)
{
	/* {A} -> C, and {A, B} -> C in another mode of B: A -> C twice. */
	const struct so_chain_val a_only = {
		.count = 3, .to_class = C, .nfrom = 1, .from = { A },
	};
	struct chain_fold f;

	chain_fold_init(&f);
	assert_int_equal(chain_fold_chain(&f, 11, &ab_c), 0);
	assert_int_equal(chain_fold_chain(&f, 12, &a_only), 0);
	assert_int_equal(chain_fold_chain(&f, 13, &ab_c), 0);
	assert_int_equal(chain_fold_count(&f, &a_c), 13);
	assert_int_equal(chain_fold_count(&f, &b_c), 10);
	chain_fold_fini(&f);
}

static void test_memos_of_this_session_add_to_their_chain(void **state)
{
	const struct so_chain_memo memos[] = {
		{ .key = 11, .hits = 4, .gen = 2 },
		{ .key = 11, .hits = 6, .gen = 2 },	/* another task */
		{ .key = 11, .hits = 100, .gen = 1 },	/* an older session */
		{ .key = 12, .hits = 9, .gen = 2 },	/* no such chain */
		{ .key = 0, .hits = 9, .gen = 2 },	/* empty */
	};
	struct chain_fold f;
	size_t i;

	chain_fold_init(&f);
	for (i = 0; i < sizeof(memos) / sizeof(memos[0]); i++)
		assert_int_equal(chain_fold_memo(&f, &memos[i], 2), 0);
	assert_int_equal(chain_fold_chain(&f, 11, &ab_c), 0);
	assert_int_equal(chain_fold_count(&f, &a_c), 5 + 4 + 6);
	assert_int_equal(chain_fold_count(&f, &b_c), 5 + 4 + 6);
	chain_fold_fini(&f);
}

static void test_hostile_chain_is_cut_to_a_held_set(void **state)
{
	struct so_chain_val bad = ab_c;
	struct chain_fold f;
	uint32_t i;

	for (i = 0; i < SO_HELD_MAX; i++)
		bad.from[i] = 0x100 * (i + 1);
	bad.nfrom = 0xffffffff;
	chain_fold_init(&f);
	assert_int_equal(chain_fold_chain(&f, 11, &bad), 0);
	assert_int_equal(f.nedges, SO_HELD_MAX);
	chain_fold_fini(&f);
}

static void test_many_chains_grow_the_tables(void **state)
{
	struct so_chain_val chain = { .count = 1, .to_class = C, .nfrom = 1 };
	struct so_chain_memo memo = { .hits = 1, .gen = 0 };
	struct so_edge_key key = { .to_class = C };
	struct chain_fold f;
	uint64_t i;

	chain_fold_init(&f);
	for (i = 1; i <= 5000; i++) {
		memo.key = i;
		assert_int_equal(chain_fold_memo(&f, &memo, 0), 0);
	}
	for (i = 1; i <= 5000; i++) {
		chain.from[0] = i << 12;
		assert_int_equal(chain_fold_chain(&f, i, &chain), 0);
	}
	for (i = 1; i <= 5000; i++) {
		key.from_class = i << 12;
		assert_int_equal(chain_fold_count(&f, &key), 2);
	}
	chain_fold_fini(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_chain_counts_each_of_its_edges),
		cmocka_unit_test(test_chains_sharing_an_edge_add_up),
		cmocka_unit_test(test_memos_of_this_session_add_to_their_chain),
		cmocka_unit_test(test_hostile_chain_is_cut_to_a_held_set),
		cmocka_unit_test(test_many_chains_grow_the_tables),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
