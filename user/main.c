// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * sysfs-observe: foundation entry point.  Loads the counter program,
 * runs a command (or waits), and prints how many kernfs writes it saw.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "observe.h"
#include "observe.skel.h"

int main(int argc, char **argv)
{
	struct observe_bpf *skel;
	__u64 total = 0, *vals;
	int ncpu, err, i;
	__u32 key = SO_CNT_KERNFS_WRITE;

	if (argc > 1 && !strcmp(argv[1], "--version")) {
		printf("sysfs-observe 0.1\n");
		return 0;
	}
	skel = observe_bpf__open();
	if (!skel) {
		fprintf(stderr, "sysfs-observe: failed to open BPF object\n");
		return 1;
	}
	bpf_program__set_autoload(skel->progs.kprobe_kernfs_fop_write_iter,
				  false);
	err = observe_bpf__load(skel);
	if (!err)
		err = observe_bpf__attach(skel);
	if (err) {
		fprintf(stderr, "sysfs-observe: failed to load BPF: %s\n",
			strerror(-err));
		observe_bpf__destroy(skel);
		return 4;
	}
	if (argc > 1)
		err = system(argv[1]);
	ncpu = libbpf_num_possible_cpus();
	vals = calloc(ncpu, sizeof(*vals));
	if (vals && !bpf_map__lookup_elem(skel->maps.counters, &key,
					  sizeof(key), vals,
					  ncpu * sizeof(*vals), 0))
		for (i = 0; i < ncpu; i++)
			total += vals[i];
	printf("kernfs writes: %llu\n", (unsigned long long)total);
	free(vals);
	observe_bpf__destroy(skel);
	return 0;
}
