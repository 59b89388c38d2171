// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * A new session on the loaded programs: the maps emptied, the counts
 * the probes keep of them corrected, the watched processes set.  Apart
 * from the read side (maps.c) because it writes, and each write here
 * races a probe that may write the same entry: the comments say who
 * wins.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "kernel/loader_int.h"
#include "observe.skel.h"

/*
 * Empty a hash map: delete the first key until there is none.  With
 * `nr`, subtract each entry this deleted from the BPF side's count of
 * them (a probe may delete one at the same time: whoever deletes it
 * subtracts it, so the count stays exact).
 */
static int clear_map(const struct bpf_map *map, volatile __u64 *nr)
{
	int fd = bpf_map__fd(map);
	char key[64];

	if (bpf_map__key_size(map) > sizeof(key))
		return -E2BIG;
	while (!bpf_map_get_next_key(fd, NULL, key)) {
		if (!bpf_map_delete_elem(fd, key)) {
			if (nr)
				__atomic_fetch_sub(nr, 1, __ATOMIC_SEQ_CST);
		} else if (errno != ENOENT) {
			return -errno;
		}
	}
	return 0;
}

/*
 * Empty class_counts' slots and hand them out afresh; counts_gen tells
 * every slot cached in the kernel that it is stale.
 */
static int clear_count_slots(struct so_loader *l)
{
	int ncpu = libbpf_num_possible_cpus(), fd, err;
	struct so_class_counts *zero;
	__u32 slot, used;

	err = clear_map(l->skel->maps.class_slots, NULL);
	if (err)
		return err;
	used = l->skel->bss->nr_count_slots;
	if (used >= SO_COUNT_SLOTS)
		used = SO_COUNT_SLOTS - 1;
	zero = calloc(ncpu, sizeof(*zero));
	if (!zero)
		return -ENOMEM;
	fd = bpf_map__fd(l->skel->maps.class_counts);
	for (slot = 1; slot <= used && !err; slot++)
		if (bpf_map_update_elem(fd, &slot, zero, BPF_ANY))
			err = -errno;
	free(zero);
	l->skel->bss->nr_count_slots = 0;
	__atomic_fetch_add(&l->skel->bss->counts_gen, 1, __ATOMIC_SEQ_CST);
	return err;
}

/* Free every slot, as the exit probe would (see clear_map's `nr`). */
static void clear_task_slots(struct so_loader *l)
{
	struct so_task_state *ts;
	__u32 i, tid;

	for (i = 0; i < SO_TASK_SLOTS; i++) {
		ts = &l->task_slots[i];
		tid = __atomic_load_n(&ts->tid, __ATOMIC_RELAXED);
		if (!tid || !__atomic_compare_exchange_n(&ts->tid, &tid, 0,
				false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
			continue;
		__atomic_fetch_sub(&l->skel->bss->nr_entries, 1,
				   __ATOMIC_SEQ_CST);
		memset(ts, 0, sizeof(*ts));
	}
}

int loader_reset(struct so_loader *l)
{
	int ncpu = libbpf_num_possible_cpus(), fd, err;
	__u64 *zero;
	__u32 k;

	if (!l->skel || ncpu <= 0)
		return -EINVAL;
	err = clear_map(l->skel->maps.edges, NULL);
	if (!err)
		err = clear_map(l->skel->maps.chains, NULL);
	if (!err)
		err = clear_count_slots(l);
	if (!err)
		err = clear_map(l->skel->maps.class_names, NULL);
	if (!err)
		err = clear_map(l->skel->maps.tasks, &l->skel->bss->nr_entries);
	if (!err) {
		l->skel->bss->nr_overflow = 0;
		clear_task_slots(l);
		l->skel->bss->nr_tasks = 0;
		l->skel->bss->nr_waiting = 0;
	}
	if (!err)
		err = clear_map(l->skel->maps.watch_tgids,
				&l->skel->bss->nr_watched);
	if (err)
		return err;
	zero = calloc(ncpu, sizeof(*zero));
	if (!zero)
		return -ENOMEM;
	fd = bpf_map__fd(l->skel->maps.counters);
	for (k = 0; k < SO_CNT_NR && !err; k++)
		if (bpf_map_update_elem(fd, &k, zero, BPF_ANY))
			err = -errno;
	free(zero);
	memset(l->skel->bss->call_stripes, 0,
	       sizeof(l->skel->bss->call_stripes));
	l->classes_evicted_before = loader_classes_evicted(l);
	if (!err)
		l->skel->bss->paused = false;
	return err;
}

int loader_watch_tgid(struct so_loader *l, uint32_t tgid)
{
	__u8 one = 1;
	int err;

	err = bpf_map__update_elem(l->skel->maps.watch_tgids, &tgid,
				   sizeof(tgid), &one, sizeof(one),
				   BPF_NOEXIST);
	if (err == -EEXIST)
		return 0;
	/* Counted like the probes count theirs (state.bpf.h nr_watched). */
	if (!err)
		__atomic_fetch_add(&l->skel->bss->nr_watched, 1,
				   __ATOMIC_SEQ_CST);
	return err;
}
