// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * sysfs-observe's probes.  This first program only counts writes to kernfs
 * files; it proves the build, CO-RE and the guest end to end.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "observe.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, SO_CNT_NR);
	__type(key, __u32);
	__type(value, __u64);
} counters SEC(".maps");

static __always_inline void count(__u32 idx)
{
	__u64 *val = bpf_map_lookup_elem(&counters, &idx);

	if (val)
		(*val)++;
}

SEC("fentry/kernfs_fop_write_iter")
int BPF_PROG(fentry_kernfs_fop_write_iter, struct kiocb *iocb,
	     struct iov_iter *iter)
{
	count(SO_CNT_KERNFS_WRITE);
	return 0;
}

SEC("kprobe/kernfs_fop_write_iter")
int BPF_KPROBE(kprobe_kernfs_fop_write_iter)
{
	count(SO_CNT_KERNFS_WRITE);
	return 0;
}
