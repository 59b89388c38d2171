// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * The trampoline floor: empty programs on the points one observed write
 * passes (the store takes the driver's mutex).  What any fentry-based
 * observer pays before doing anything; the bench's ratios are read
 * against it.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "GPL";

SEC("fentry/kernfs_fop_write_iter")
int BPF_PROG(floor_write_entry)
{
	return 0;
}

SEC("fexit/kernfs_fop_write_iter")
int BPF_PROG(floor_write_exit)
{
	return 0;
}

SEC("fexit/kernfs_get_active")
int BPF_PROG(floor_get_active)
{
	return 0;
}

SEC("fentry/kernfs_put_active")
int BPF_PROG(floor_put_active)
{
	return 0;
}

SEC("fentry/mutex_lock")
int BPF_PROG(floor_mutex_lock_entry)
{
	return 0;
}

SEC("fexit/mutex_lock")
int BPF_PROG(floor_mutex_lock_exit)
{
	return 0;
}

SEC("fentry/mutex_unlock")
int BPF_PROG(floor_mutex_unlock)
{
	return 0;
}
