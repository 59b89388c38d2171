/* SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1 */
/*
 * The one ABI between bpf/ and user/: counters, events and map keys.
 * Plain fixed-width types only; both sides include this file.
 */
#ifndef SYSFS_OBSERVE_H
#define SYSFS_OBSERVE_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

/* Indexes into the per-CPU counter array `counters`. */
enum so_counter {
	SO_CNT_KERNFS_WRITE,	/* kernfs_fop_write_iter entries */
	SO_CNT_NR,
};

#endif /* SYSFS_OBSERVE_H */
