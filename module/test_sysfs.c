// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * test_sysfs: a driver whose only purpose is to race sysfs stores against
 * device and module removal.
 *
 * Its interface (parameters, attributes, debugfs file, messages) is the one
 * of lib/test_sysfs.c as posted by Luis Chamberlain in 2021 ("selftests: add
 * tests_sysfs module" and "test_sysfs: demonstrate deadlock fix"), so that
 * the selftest sysfs.sh of that series drives it unmodified.  This is a
 * rewrite for the block API of 6.1 and later (see test_sysfs_compat.h).
 *
 * The deadlock under study: with enable_lock_on_rmmod, module removal takes
 * the configuration lock (a mutex or rtnl) and then removes the device,
 * which drains every attribute file, i.e. waits for every store in flight.
 * A store in flight holds its file's kernfs active reference and waits for
 * that same lock.  enable_try_module_get is the fix of the second patch:
 * once rmmod has begun, a new show or store fails with -ENODEV instead of
 * waiting.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/blkdev.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "test_sysfs_compat.h"

/*
 * The kernfs failure-injection knobs (kernfs/ of sysfs-observe): only a
 * kernel built with them has <linux/kernfs_debug.h>.
 */
#if IS_ENABLED(CONFIG_FAIL_KERNFS_KNOBS)
#include <linux/kernfs_debug.h>

static bool enable_completion_on_rmmod;
module_param(enable_completion_on_rmmod, bool_enable_only, 0644);
MODULE_PARM_DESC(enable_completion_on_rmmod,
		 "on rmmod, complete kernfs_debug_wait_completion before the delay and the device removal");
MODULE_IMPORT_NS(KERNFS_DEBUG_PRIVATE);

/* A completion left over from an earlier run would release a writer early. */
static void test_sysfs_kernfs_reset(void)
{
	if (enable_completion_on_rmmod)
		reinit_completion(&kernfs_debug_wait_completion);
}

static void test_sysfs_kernfs_complete(void)
{
	if (enable_completion_on_rmmod)
		complete(&kernfs_debug_wait_completion);
}
#else
static inline void test_sysfs_kernfs_reset(void) {}
static inline void test_sysfs_kernfs_complete(void) {}
#endif

static bool enable_lock;
module_param(enable_lock, bool_enable_only, 0644);
MODULE_PARM_DESC(enable_lock, "enable locking on reads / stores from the start");

static bool enable_lock_on_rmmod;
module_param(enable_lock_on_rmmod, bool_enable_only, 0644);
MODULE_PARM_DESC(enable_lock_on_rmmod, "enable locking on rmmod");

static bool use_rtnl_lock;
module_param(use_rtnl_lock, bool_enable_only, 0644);
MODULE_PARM_DESC(use_rtnl_lock,
		 "use an rtnl_lock instead of the device mutex_lock");

static unsigned int write_delay_msec_y = 500;
module_param_named(write_delay_msec_y, write_delay_msec_y, uint, 0644);
MODULE_PARM_DESC(write_delay_msec_y, "msec write delay for writes to y");

static unsigned int test_devtype;
module_param_named(devtype, test_devtype, uint, 0644);
MODULE_PARM_DESC(devtype,
		 "device type to register: 0 misc, 1 block (read at load)");

static bool enable_busy_alloc;
module_param(enable_busy_alloc, bool_enable_only, 0644);
MODULE_PARM_DESC(enable_busy_alloc, "do a fake allocation during writes");

static bool enable_debugfs;
module_param(enable_debugfs, bool_enable_only, 0644);
MODULE_PARM_DESC(enable_debugfs, "enable a few debugfs files");

static bool enable_verbose_writes;
module_param(enable_verbose_writes, bool_enable_only, 0644);
MODULE_PARM_DESC(enable_verbose_writes,
		 "enable stores to print verbose information");

static unsigned int delay_rmmod_ms;
module_param_named(delay_rmmod_ms, delay_rmmod_ms, uint, 0644);
MODULE_PARM_DESC(delay_rmmod_ms,
		 "if set how many ms to delay rmmod before device deletion");

static bool enable_verbose_rmmod;
module_param(enable_verbose_rmmod, bool_enable_only, 0644);
MODULE_PARM_DESC(enable_verbose_rmmod,
		 "enable verbose print messages on rmmod");

/* Read-only: a show or store must put exactly the reference it got. */
static bool enable_try_module_get;
module_param(enable_try_module_get, bool, 0444);
MODULE_PARM_DESC(enable_try_module_get,
		 "run every show / store under try_module_get(), -ENODEV once rmmod began");

/*
 * A planted bug for the test suite's negative control: a test runner
 * that reports PASS here is a runner that cannot fail.
 */
static bool inject_y_fault;
module_param(inject_y_fault, bool, 0444);
MODULE_PARM_DESC(inject_y_fault,
		 "test the tests: y stores set x + value + 8, not + 7");

enum sysfs_test_devtype {
	TESTDEV_TYPE_MISC = 0,
	TESTDEV_TYPE_BLOCK,
};

/*
 * How the device behaves.  Writes to the lock knobs are not serialized
 * against the stores that use them, as in the original: tests change them
 * only while nothing else runs.
 */
struct test_config {
	bool enable_lock;
	bool enable_lock_on_rmmod;
	bool use_rtnl_lock;
	unsigned int write_delay_msec_y;
	bool enable_busy_alloc;
};

/**
 * struct sysfs_test_device - one test device
 * @config: how its attributes behave
 * @config_mutex: the lock of @config, unless @config.use_rtnl_lock
 * @misc_dev: the device when the device type is misc
 * @disk: the device when the device type is block
 * @dev: the struct device carrying the attributes (of @misc_dev or @disk)
 * @dev_idx: instance number, the N of test_sysfsN
 * @x: a value stores set directly
 * @y: a value stores set slowly, to x + value + 7
 */
struct sysfs_test_device {
	struct test_config config;
	struct mutex config_mutex; /* the lock of config, unless use_rtnl_lock */
	struct miscdevice misc_dev;
	struct gendisk *disk;
	struct device *dev;
	int dev_idx;
	int x;
	int y;
};

/* test_devtype as validated at load: the parameter stays writable. */
static enum sysfs_test_devtype devtype_in_use;

/* Serializes debugfs resets of first_test_dev against each other. */
static DEFINE_MUTEX(reset_mutex);
static struct sysfs_test_device *first_test_dev;
static unsigned int reset_count;
static struct dentry *debugfs_dir;

static struct sysfs_test_device *dev_to_test_dev(struct device *dev)
{
	struct miscdevice *misc_dev;

	if (devtype_in_use == TESTDEV_TYPE_BLOCK)
		return dev_to_disk(dev)->private_data;

	/* misc_register() makes the miscdevice the drvdata of its device. */
	misc_dev = dev_get_drvdata(dev);
	return container_of(misc_dev, struct sysfs_test_device, misc_dev);
}

static void test_dev_config_lock(struct sysfs_test_device *test_dev)
{
	struct test_config *config = &test_dev->config;

	if (!config->enable_lock)
		return;
	if (config->use_rtnl_lock)
		rtnl_lock();
	else
		mutex_lock(&test_dev->config_mutex);
}

static void test_dev_config_unlock(struct sysfs_test_device *test_dev)
{
	struct test_config *config = &test_dev->config;

	if (!config->enable_lock)
		return;
	if (config->use_rtnl_lock)
		rtnl_unlock();
	else
		mutex_unlock(&test_dev->config_mutex);
}

static void test_dev_config_lock_rmmod(struct sysfs_test_device *test_dev)
{
	if (test_dev->config.enable_lock_on_rmmod)
		test_dev_config_lock(test_dev);
}

static void test_dev_config_unlock_rmmod(struct sysfs_test_device *test_dev)
{
	if (test_dev->config.enable_lock_on_rmmod)
		test_dev_config_unlock(test_dev);
}

static void test_sysfs_reset_vals(struct sysfs_test_device *test_dev)
{
	test_dev->x = 3;
	test_dev->y = 4;
}

/*
 * Every show and store of the device goes through these two, so that the
 * module reference gate (enable_try_module_get) sits in one place.  The
 * attribute's own function gets the test device.
 */
struct test_sysfs_attr {
	struct device_attribute dev_attr;
	ssize_t (*show)(struct sysfs_test_device *test_dev, char *buf);
	ssize_t (*store)(struct sysfs_test_device *test_dev, const char *buf,
			 size_t count);
};

static bool test_sysfs_get_module(void)
{
	return !enable_try_module_get || try_module_get(THIS_MODULE);
}

static void test_sysfs_put_module(void)
{
	if (enable_try_module_get)
		module_put(THIS_MODULE);
}

static ssize_t test_sysfs_attr_show(struct device *dev,
				    struct device_attribute *attr, char *buf)
{
	struct test_sysfs_attr *ta = container_of(attr, struct test_sysfs_attr,
						  dev_attr);
	ssize_t ret;

	if (!test_sysfs_get_module())
		return -ENODEV;
	ret = ta->show(dev_to_test_dev(dev), buf);
	test_sysfs_put_module();

	return ret;
}

static ssize_t test_sysfs_attr_store(struct device *dev,
				     struct device_attribute *attr,
				     const char *buf, size_t count)
{
	struct test_sysfs_attr *ta = container_of(attr, struct test_sysfs_attr,
						  dev_attr);
	ssize_t ret;

	if (!test_sysfs_get_module())
		return -ENODEV;
	ret = ta->store(dev_to_test_dev(dev), buf, count);
	test_sysfs_put_module();

	return ret;
}

#define TEST_SYSFS_ATTR_RO(_name)					\
	static struct test_sysfs_attr test_sysfs_attr_##_name = {	\
		.dev_attr = __ATTR(_name, 0444, test_sysfs_attr_show, NULL), \
		.show = _name##_show,					\
	}
#define TEST_SYSFS_ATTR_WO(_name)					\
	static struct test_sysfs_attr test_sysfs_attr_##_name = {	\
		.dev_attr = __ATTR(_name, 0200, NULL, test_sysfs_attr_store), \
		.store = _name##_store,					\
	}
#define TEST_SYSFS_ATTR_RW(_name)					\
	static struct test_sysfs_attr test_sysfs_attr_##_name = {	\
		.dev_attr = __ATTR(_name, 0644, test_sysfs_attr_show,	\
				   test_sysfs_attr_store),		\
		.show = _name##_show,					\
		.store = _name##_store,					\
	}

/*
 * Parses a store's value.  Whatever kstrtoint() rejects (not a number, out
 * of range) is -EINVAL, and the caller leaves its attribute as it was.
 */
static int test_sysfs_parse(const char *buf, int *val)
{
	return kstrtoint(buf, 10, val) ? -EINVAL : 0;
}

static const char *test_sysfs_bool_str(bool val)
{
	return val ? "true" : "false";
}

static ssize_t config_show(struct sysfs_test_device *test_dev, char *buf)
{
	struct test_config *config = &test_dev->config;
	int len = 0;

	test_dev_config_lock(test_dev);

	len += sysfs_emit_at(buf, len, "Configuration for: %s\n",
			     dev_name(test_dev->dev));
	len += sysfs_emit_at(buf, len, "x:\t%d\n", test_dev->x);
	len += sysfs_emit_at(buf, len, "y:\t%d\n", test_dev->y);
	len += sysfs_emit_at(buf, len, "enable_lock:\t%s\n",
			     test_sysfs_bool_str(config->enable_lock));
	/* The triple m is the original's: readers may match on it. */
	len += sysfs_emit_at(buf, len, "enable_lock_on_rmmmod:\t%s\n",
			     test_sysfs_bool_str(config->enable_lock_on_rmmod));
	len += sysfs_emit_at(buf, len, "use_rtnl_lock:\t%s\n",
			     test_sysfs_bool_str(config->use_rtnl_lock));
	len += sysfs_emit_at(buf, len, "write_delay_msec_y:\t%d\n",
			     (int)config->write_delay_msec_y);
	len += sysfs_emit_at(buf, len, "enable_busy_alloc:\t%s\n",
			     test_sysfs_bool_str(config->enable_busy_alloc));
	len += sysfs_emit_at(buf, len, "enable_debugfs:\t%s\n",
			     test_sysfs_bool_str(enable_debugfs));
	len += sysfs_emit_at(buf, len, "enable_verbose_writes:\t%s\n",
			     test_sysfs_bool_str(enable_verbose_writes));

	test_dev_config_unlock(test_dev);

	return len;
}
TEST_SYSFS_ATTR_RO(config);

static ssize_t reset_store(struct sysfs_test_device *test_dev,
			   const char *buf, size_t count)
{
	struct test_config *config = &test_dev->config;

	/* Unlocked, as the lock type itself is being reset. */
	config->enable_lock = false;
	config->enable_lock_on_rmmod = false;
	config->use_rtnl_lock = false;
	config->enable_busy_alloc = false;
	test_sysfs_reset_vals(test_dev);

	dev_info(test_dev->dev, "reset\n");

	return count;
}
TEST_SYSFS_ATTR_WO(reset);

/* Mimics a driver allocating between writes, and yields. */
static void test_dev_busy_alloc(struct sysfs_test_device *test_dev)
{
	struct sysfs_test_device *scratch;

	if (!test_dev->config.enable_busy_alloc)
		return;

	scratch = kcalloc(10, sizeof(*scratch), GFP_KERNEL);
	kfree(scratch);

	schedule();
}

static ssize_t test_dev_x_store(struct sysfs_test_device *test_dev,
				const char *buf, size_t count)
{
	ssize_t ret = count;
	int x;

	test_dev_busy_alloc(test_dev);
	test_dev_config_lock(test_dev);

	if (test_sysfs_parse(buf, &x))
		ret = -EINVAL;
	else
		test_dev->x = x;

	if (enable_verbose_writes)
		dev_info(test_dev->dev, "wrote x = %d\n", test_dev->x);

	test_dev_config_unlock(test_dev);

	return ret;
}

static ssize_t test_dev_x_show(struct sysfs_test_device *test_dev, char *buf)
{
	ssize_t ret;

	test_dev_config_lock(test_dev);
	ret = sysfs_emit(buf, "%d\n", test_dev->x);
	test_dev_config_unlock(test_dev);

	return ret;
}
TEST_SYSFS_ATTR_RW(test_dev_x);

static ssize_t test_dev_y_store(struct sysfs_test_device *test_dev,
				const char *buf, size_t count)
{
	ssize_t ret = count;
	int y;

	test_dev_busy_alloc(test_dev);
	test_dev_config_lock(test_dev);

	if (test_sysfs_parse(buf, &y)) {
		ret = -EINVAL;
		goto out;
	}

	msleep(test_dev->config.write_delay_msec_y);
	test_dev->y = test_dev->x + y + (inject_y_fault ? 8 : 7);

	if (enable_verbose_writes)
		dev_info(test_dev->dev, "wrote y = %d\n", test_dev->y);
out:
	test_dev_config_unlock(test_dev);

	return ret;
}

static ssize_t test_dev_y_show(struct sysfs_test_device *test_dev, char *buf)
{
	ssize_t ret;

	test_dev_config_lock(test_dev);
	ret = sysfs_emit(buf, "%d\n", test_dev->y);
	test_dev_config_unlock(test_dev);

	return ret;
}
TEST_SYSFS_ATTR_RW(test_dev_y);

static ssize_t config_enable_lock_store(struct sysfs_test_device *test_dev,
					const char *buf, size_t count)
{
	int val;

	if (test_sysfs_parse(buf, &val))
		return -EINVAL;

	/* Unlocked: taking the lock we are switching on or off would leak. */
	test_dev->config.enable_lock = val;

	return count;
}

static ssize_t config_enable_lock_show(struct sysfs_test_device *test_dev,
				       char *buf)
{
	ssize_t ret;

	test_dev_config_lock(test_dev);
	ret = sysfs_emit(buf, "%d\n", test_dev->config.enable_lock);
	test_dev_config_unlock(test_dev);

	return ret;
}
TEST_SYSFS_ATTR_RW(config_enable_lock);

static ssize_t
config_enable_lock_on_rmmod_store(struct sysfs_test_device *test_dev,
				  const char *buf, size_t count)
{
	int val;

	if (test_sysfs_parse(buf, &val))
		return -EINVAL;

	test_dev_config_lock(test_dev);
	test_dev->config.enable_lock_on_rmmod = val;
	test_dev_config_unlock(test_dev);

	return count;
}

static ssize_t
config_enable_lock_on_rmmod_show(struct sysfs_test_device *test_dev,
				 char *buf)
{
	ssize_t ret;

	test_dev_config_lock(test_dev);
	ret = sysfs_emit(buf, "%d\n", test_dev->config.enable_lock_on_rmmod);
	test_dev_config_unlock(test_dev);

	return ret;
}
TEST_SYSFS_ATTR_RW(config_enable_lock_on_rmmod);

static ssize_t config_use_rtnl_lock_store(struct sysfs_test_device *test_dev,
					  const char *buf, size_t count)
{
	int val;

	if (test_sysfs_parse(buf, &val))
		return -EINVAL;

	/* Unlocked, as this changes which lock the lock helpers take. */
	test_dev->config.use_rtnl_lock = val;

	return count;
}

static ssize_t config_use_rtnl_lock_show(struct sysfs_test_device *test_dev,
					 char *buf)
{
	return sysfs_emit(buf, "%d\n", test_dev->config.use_rtnl_lock);
}
TEST_SYSFS_ATTR_RW(config_use_rtnl_lock);

static ssize_t
config_write_delay_msec_y_store(struct sysfs_test_device *test_dev,
				const char *buf, size_t count)
{
	int val;

	if (test_sysfs_parse(buf, &val))
		return -EINVAL;

	test_dev_config_lock(test_dev);
	test_dev->config.write_delay_msec_y = val;
	test_dev_config_unlock(test_dev);

	return count;
}

static ssize_t
config_write_delay_msec_y_show(struct sysfs_test_device *test_dev, char *buf)
{
	return sysfs_emit(buf, "%d\n", (int)test_dev->config.write_delay_msec_y);
}
TEST_SYSFS_ATTR_RW(config_write_delay_msec_y);

static ssize_t
config_enable_busy_alloc_store(struct sysfs_test_device *test_dev,
			       const char *buf, size_t count)
{
	int val;

	if (test_sysfs_parse(buf, &val))
		return -EINVAL;

	test_dev_config_lock(test_dev);
	test_dev->config.enable_busy_alloc = val;
	test_dev_config_unlock(test_dev);

	return count;
}

static ssize_t
config_enable_busy_alloc_show(struct sysfs_test_device *test_dev, char *buf)
{
	return sysfs_emit(buf, "%d\n", test_dev->config.enable_busy_alloc);
}
TEST_SYSFS_ATTR_RW(config_enable_busy_alloc);

#define TEST_SYSFS_DEV_ATTR(_name)	(&test_sysfs_attr_##_name.dev_attr.attr)

static struct attribute *test_dev_attrs[] = {
	/* Generic driver knobs */
	TEST_SYSFS_DEV_ATTR(config),
	TEST_SYSFS_DEV_ATTR(reset),

	/* The values the tests race on */
	TEST_SYSFS_DEV_ATTR(test_dev_x),
	TEST_SYSFS_DEV_ATTR(test_dev_y),

	/* How reads and stores behave */
	TEST_SYSFS_DEV_ATTR(config_enable_lock),
	TEST_SYSFS_DEV_ATTR(config_enable_lock_on_rmmod),
	TEST_SYSFS_DEV_ATTR(config_use_rtnl_lock),
	TEST_SYSFS_DEV_ATTR(config_write_delay_msec_y),
	TEST_SYSFS_DEV_ATTR(config_enable_busy_alloc),
	NULL,
};
ATTRIBUTE_GROUPS(test_dev);

static const struct block_device_operations test_sysfs_disk_ops = {
	.owner = THIS_MODULE,
	.open = test_sysfs_open,
	.submit_bio = test_sysfs_submit_bio,
};

static int register_test_dev_misc(struct sysfs_test_device *test_dev)
{
	struct miscdevice *misc_dev = &test_dev->misc_dev;
	int ret;

	misc_dev->minor = MISC_DYNAMIC_MINOR;
	misc_dev->groups = test_dev_groups;
	misc_dev->name = kasprintf(GFP_KERNEL, "test_sysfs%d",
				   test_dev->dev_idx);
	if (!misc_dev->name)
		return -ENOMEM;

	ret = misc_register(misc_dev);
	if (ret) {
		pr_err("could not register misc device: %d\n", ret);
		kfree_const(misc_dev->name);
		misc_dev->name = NULL;
		return ret;
	}
	test_dev->dev = misc_dev->this_device;

	return 0;
}

/* A bio-based disk of zero sectors: all it has to offer is its sysfs. */
static int register_test_dev_block(struct sysfs_test_device *test_dev)
{
	struct gendisk *disk;
	int ret;

	disk = test_sysfs_alloc_disk();
	if (IS_ERR(disk)) {
		pr_err("could not allocate disk %d: %ld\n", test_dev->dev_idx,
		       PTR_ERR(disk));
		return PTR_ERR(disk);
	}

	/* Major 0 and no minors: device_add_disk() picks a dynamic dev_t. */
	disk->fops = &test_sysfs_disk_ops;
	disk->private_data = test_dev;
	snprintf(disk->disk_name, sizeof(disk->disk_name), "test_sysfs%d",
		 test_dev->dev_idx);
	set_capacity(disk, 0);

	ret = device_add_disk(NULL, disk, test_dev_groups);
	if (ret) {
		pr_err("could not register block device: %d\n", ret);
		test_sysfs_free_disk(disk);
		return ret;
	}
	test_dev->disk = disk;
	test_dev->dev = disk_to_dev(disk);

	return 0;
}

/* Takes its configuration from the module parameters of the moment. */
static struct sysfs_test_device *register_test_dev(int idx)
{
	struct sysfs_test_device *test_dev;
	struct test_config *config;
	int ret;

	test_dev = kzalloc(sizeof(*test_dev), GFP_KERNEL);
	if (!test_dev)
		return ERR_PTR(-ENOMEM);

	mutex_init(&test_dev->config_mutex);
	test_dev->dev_idx = idx;

	/* Set before the attributes appear, so no store sees it half done. */
	config = &test_dev->config;
	config->enable_lock = enable_lock;
	config->enable_lock_on_rmmod = enable_lock_on_rmmod;
	config->use_rtnl_lock = use_rtnl_lock;
	config->enable_busy_alloc = enable_busy_alloc;
	config->write_delay_msec_y = write_delay_msec_y;
	test_sysfs_reset_vals(test_dev);

	if (devtype_in_use == TESTDEV_TYPE_BLOCK)
		ret = register_test_dev_block(test_dev);
	else
		ret = register_test_dev_misc(test_dev);
	if (ret) {
		mutex_destroy(&test_dev->config_mutex);
		kfree(test_dev);
		return ERR_PTR(ret);
	}

	dev_info(test_dev->dev, "interface ready\n");

	return test_dev;
}

/*
 * With enable_lock_on_rmmod the device goes away under the configuration
 * lock, and removing it drains its attribute files: the deadlock this
 * module exists to show.  Keep that order.
 */
static void unregister_test_dev(struct sysfs_test_device *test_dev)
{
	test_dev_config_lock_rmmod(test_dev);

	dev_info(test_dev->dev, "removing interface\n");

	if (devtype_in_use == TESTDEV_TYPE_BLOCK) {
		del_gendisk(test_dev->disk);
		test_sysfs_free_disk(test_dev->disk);
	} else {
		misc_deregister(&test_dev->misc_dev);
	}

	test_dev_config_unlock_rmmod(test_dev);

	kfree_const(test_dev->misc_dev.name);
	mutex_destroy(&test_dev->config_mutex);
	kfree(test_dev);
}

/* Reads how many times the first device was reset. */
static ssize_t read_reset_first_test_dev(struct file *file,
					 char __user *user_buf,
					 size_t count, loff_t *ppos)
{
	char buf[16];
	int len;

	len = scnprintf(buf, sizeof(buf), "%u\n", READ_ONCE(reset_count));

	return simple_read_from_buffer(user_buf, count, ppos, buf, len);
}

/*
 * Removes the first device and registers it again.  Holding a module
 * reference keeps rmmod out meanwhile; with enable_lock_on_rmmod the
 * removal still happens under the configuration lock, fix or no fix.
 */
static ssize_t write_reset_first_test_dev(struct file *file,
					  const char __user *user_buf,
					  size_t count, loff_t *ppos)
{
	struct sysfs_test_device *test_dev;
	ssize_t ret = count;

	if (!try_module_get(THIS_MODULE))
		return -ENODEV;

	mutex_lock(&reset_mutex);
	if (!first_test_dev) {
		ret = -ENODEV;
		goto out;
	}

	dev_info(first_test_dev->dev, "going to reset first interface ...\n");

	unregister_test_dev(first_test_dev);
	first_test_dev = NULL;

	test_dev = register_test_dev(0);
	if (IS_ERR(test_dev)) {
		pr_err("could not reset first interface: %ld\n",
		       PTR_ERR(test_dev));
		ret = PTR_ERR(test_dev);
		goto out;
	}
	first_test_dev = test_dev;
	WRITE_ONCE(reset_count, reset_count + 1);

	dev_info(first_test_dev->dev, "first interface reset complete\n");
out:
	mutex_unlock(&reset_mutex);
	module_put(THIS_MODULE);

	return ret;
}

static const struct file_operations fops_reset_first_test_dev = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = read_reset_first_test_dev,
	.write = write_reset_first_test_dev,
	.llseek = default_llseek,
};

static int __init test_sysfs_init(void)
{
	struct sysfs_test_device *test_dev;

	test_sysfs_kernfs_reset();

	switch (test_devtype) {
	case TESTDEV_TYPE_MISC:
	case TESTDEV_TYPE_BLOCK:
		devtype_in_use = test_devtype;
		break;
	default:
		pr_err("invalid devtype %u: valid values are %d (misc) and %d (block)\n",
		       test_devtype, TESTDEV_TYPE_MISC, TESTDEV_TYPE_BLOCK);
		return -EINVAL;
	}

	if (enable_debugfs) {
		debugfs_dir = debugfs_create_dir("test_sysfs", NULL);
		if (IS_ERR(debugfs_dir)) {
			pr_err("could not create debugfs directory: %ld\n",
			       PTR_ERR(debugfs_dir));
			return PTR_ERR(debugfs_dir);
		}
	}

	test_dev = register_test_dev(0);
	if (IS_ERR(test_dev)) {
		debugfs_remove(debugfs_dir);
		debugfs_dir = NULL;
		return PTR_ERR(test_dev);
	}
	first_test_dev = test_dev;

	/* Only now: a reset must find the first device in place. */
	if (enable_debugfs)
		debugfs_create_file("reset_first_test_dev", 0600, debugfs_dir,
				    NULL, &fops_reset_first_test_dev);

	return 0;
}
module_init(test_sysfs_init);

static void __exit test_sysfs_exit(void)
{
	debugfs_remove(debugfs_dir);
	test_sysfs_kernfs_complete();
	if (delay_rmmod_ms)
		msleep(delay_rmmod_ms);
	/* NULL after a reset that failed to register the device again. */
	if (first_test_dev)
		unregister_test_dev(first_test_dev);
	if (enable_verbose_rmmod)
		pr_info("unregister_test_dev_sysfs() completed\n");
	first_test_dev = NULL;
}
module_exit(test_sysfs_exit);

MODULE_DESCRIPTION("sysfs test driver: races stores against device and module removal");
MODULE_LICENSE("GPL");
MODULE_INFO(test, "Y");
