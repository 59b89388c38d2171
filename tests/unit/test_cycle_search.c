// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * The order graph's incremental cycle search against a brute force one
 * on thousands of small random graphs (fixed seeds, so a failure
 * replays).  The search runs edge by edge with a budget; the brute force
 * looks at the final graph only: every set of 2..6 classes that a simple
 * cycle visits exactly.  Both must name the same class sets: a cycle the
 * search misses is a deadlock never reported, one it invents is a false
 * alarm.
 */
#include "helpers.h"
#include "analysis_fixtures.h"

#define RG_NODES_MAX	7

struct rand_graph {
	uint32_t nodes;
	bool adj[RG_NODES_MAX][RG_NODES_MAX];
};

/* xorshift64*: the same graphs on every machine, unlike rand(). */
static uint64_t rg_next(uint64_t *state)
{
	*state ^= *state >> 12;
	*state ^= *state << 25;
	*state ^= *state >> 27;
	return *state * 2685821657736338717ULL;
}

static uint64_t rg_class(uint32_t node)
{
	return SO_CLASS_MAKE(SO_CLASS_MUTEX, 0x1000 + node);
}

/* Is there a simple cycle through exactly the nodes of `set`?  Paths from
 * the lowest node of the set, extended within it (DFS over bitmasks). */
static bool rg_path(const struct rand_graph *g, uint32_t set, uint32_t start,
		    uint32_t at, uint32_t visited)
{
	uint32_t next;

	if (visited == set)
		return g->adj[at][start];
	for (next = 0; next < g->nodes; next++) {
		if (!(set & (1u << next)) || (visited & (1u << next)) ||
		    !g->adj[at][next])
			continue;
		if (rg_path(g, set, start, next, visited | (1u << next)))
			return true;
	}
	return false;
}

static bool rg_set_has_cycle(const struct rand_graph *g, uint32_t set)
{
	uint32_t start = (uint32_t)__builtin_ctz(set);

	return rg_path(g, set, start, start, 1u << start);
}

static uint32_t rg_popcount(uint32_t v)
{
	return (uint32_t)__builtin_popcount(v);
}

/* The class set of a found cycle as a node bitmask. */
static uint32_t og_cycle_set(const struct og_cycle *cycle)
{
	uint32_t set = 0, i;

	for (i = 0; i < cycle->nr; i++)
		set |= 1u << (uint32_t)(cycle->classes[i] & 0xfff);
	return set;
}

static void check_graph(uint64_t seed)
{
	struct rand_graph g = { 0 };
	struct og_graph *graph = fx_judged(NULL);
	uint64_t state = seed;
	uint32_t found_sets[256], nr_found = 0, set, i, from, to, nedges;
	bool want, got;

	assert_non_null(graph);
	g.nodes = 3 + (uint32_t)(rg_next(&state) % (RG_NODES_MAX - 2));
	nedges = 1 + (uint32_t)(rg_next(&state) % (g.nodes * 3));
	for (i = 0; i < nedges; i++) {
		from = (uint32_t)(rg_next(&state) % g.nodes);
		to = (uint32_t)(rg_next(&state) % g.nodes);
		if (from == to)
			continue;
		g.adj[from][to] = true;
		assert_true(fx_lock_edge(graph, rg_class(from),
					 rg_class(to)) >= 0);
	}
	for (i = 0; i < og_cycle_count(graph); i++) {
		const struct og_cycle *cycle = og_cycle_at(graph, i);

		assert_int_equal(cycle->verdict.kind, OG_VERDICT_PRONE);
		assert_true(nr_found < 256);
		found_sets[nr_found++] = og_cycle_set(cycle);
	}
	/* Every set the brute force finds, the search found once. */
	for (set = 1; set < (1u << g.nodes); set++) {
		uint32_t seen = 0;

		if (rg_popcount(set) < 2 || rg_popcount(set) > OG_CYCLE_LEN_MAX)
			continue;
		want = rg_set_has_cycle(&g, set);
		for (i = 0; i < nr_found; i++)
			seen += found_sets[i] == set;
		got = seen > 0;
		if (want != got || seen > 1)
			fail_msg("seed %llu: class set 0x%x: brute force %s, "
				 "search found it %u times",
				 (unsigned long long)seed, set,
				 want ? "has a cycle" : "has none", seen);
	}
	og_free(graph);
}

static void test_random_graphs(void **state)
{
	uint64_t seed;

	(void)state;
	for (seed = 1; seed <= 3000; seed++)
		check_graph(seed * 0x9e3779b97f4a7c15ULL);
}

/* The brute force itself, on graphs whose answer is known: a check that
 * cannot fail would pass a search that finds nothing. */
static void test_brute_force_knows(void **state)
{
	struct rand_graph g = { .nodes = 4 };

	(void)state;
	g.adj[0][1] = g.adj[1][2] = g.adj[2][0] = true;	/* 0 1 2 */
	g.adj[2][3] = true;				/* no way back */
	assert_true(rg_set_has_cycle(&g, 0x7));
	assert_false(rg_set_has_cycle(&g, 0x3));
	assert_false(rg_set_has_cycle(&g, 0xf));
	assert_false(rg_set_has_cycle(&g, 0xe));
	g.adj[3][0] = true;				/* 0 1 2 3 */
	assert_true(rg_set_has_cycle(&g, 0xf));
	g.adj[1][0] = true;				/* 0 <-> 1 */
	assert_true(rg_set_has_cycle(&g, 0x3));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_brute_force_knows),
		cmocka_unit_test(test_random_graphs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
