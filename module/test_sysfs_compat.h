/* SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1 */
/*
 * The block API test_sysfs uses, across the kernels it aims at (5.15 to
 * 6.12).  Every LINUX_VERSION_CODE check of the module lives here, so that
 * test_sysfs.c reads as code for one kernel.  Only Debian's 6.1 is built
 * and run by this project; the other branches follow the upstream commits
 * named next to them and have not been compiled.
 *
 * checkpatch warns about every LINUX_VERSION_CODE (and, for
 * "LINUX_VERSION_CODE >= KERNEL_VERSION()", about the constant on the
 * left): code merged upstream has no use for them, an out-of-tree module
 * does.  Check this file with
 * --ignore LINUX_VERSION_CODE,CONSTANT_COMPARISON.
 *
 * Unchanged over the whole range, so not wrapped: device_add_disk()
 * returning int (5.15, 83cbce957446), del_gendisk(), set_capacity(),
 * dev_to_disk(), a zero major asking device_add_disk() for a dynamic
 * (extended) dev_t, and <linux/blkdev.h> including what <linux/genhd.h>
 * used to hold (genhd.h is gone since 5.18, 322cbb50de71).
 */
#ifndef _TEST_SYSFS_COMPAT_H
#define _TEST_SYSFS_COMPAT_H

#include <linux/blkdev.h>
#include <linux/err.h>
#include <linux/version.h>

/*
 * 6.9 (e6c9b130d681): blk_alloc_disk() takes queue limits and returns an
 * ERR_PTR; before, it took only the node and returned NULL on failure.
 * Callers here always get an ERR_PTR.
 */
static inline struct gendisk *test_sysfs_alloc_disk(void)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 9, 0)
	return blk_alloc_disk(NULL, NUMA_NO_NODE);
#else
	struct gendisk *disk = blk_alloc_disk(NUMA_NO_NODE);

	return disk ? disk : ERR_PTR(-ENOMEM);
#endif
}

/*
 * Frees a disk from test_sysfs_alloc_disk(), whether device_add_disk()
 * failed or del_gendisk() ran.  6.0 (8b9ab6266204) dropped
 * blk_cleanup_disk(): the queue now goes with the disk's last reference.
 */
static inline void test_sysfs_free_disk(struct gendisk *disk)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 0, 0)
	put_disk(disk);
#else
	blk_cleanup_disk(disk);
#endif
}

/*
 * A bio that reaches this zero-sized disk fails at once.  5.16
 * (3e08773c3841): ->submit_bio returns void instead of a blk_qc_t polling
 * cookie.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(5, 16, 0)
static inline void test_sysfs_submit_bio(struct bio *bio)
{
	bio_io_error(bio);
}
#else
static inline blk_qc_t test_sysfs_submit_bio(struct bio *bio)
{
	bio_io_error(bio);
	return BLK_QC_T_NONE;
}
#endif

/*
 * Nothing may open the disk, so nothing holds the module through the
 * block layer and rmmod meets only the sysfs writers.  6.5 (d32e2bf83791,
 * 05bdb9965305): ->open gets the gendisk and a blk_mode_t instead of the
 * block_device and an fmode_t.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 5, 0)
static inline int test_sysfs_open(struct gendisk *disk, blk_mode_t mode)
#else
static inline int test_sysfs_open(struct block_device *bdev, fmode_t mode)
#endif
{
	return -EINVAL;
}

#endif /* _TEST_SYSFS_COMPAT_H */
