// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * Thin: paths, open, read, write.  Detecting or changing the knobs
 * mounts debugfs when it is not (kernel/debugfs_mount.h), and unmounts
 * it when the process that mounted it exits (atexit: on a skip too):
 * debugfs is left as it was.  Describing them for a header mounts
 * nothing.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lib/exit_codes.h"
#include "kernel/debugfs_mount.h"
#include "kernel/knobfs.h"

/* Every knob a command line sets is recorded in the trace's session. */
_Static_assert(SO_OPT_KNOBS_MAX <= SO_KNOBS_MAX,
	       "--knob assignments must fit struct so_session_info's table");

static void knobfs_path(int id, char *path, size_t len)
{
	snprintf(path, len, "%s/%s", KNOB_ROOT, knob_defs[id].file);
}

static bool knobfs_dir_exists(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/* Who mounted debugfs, if we did: forked children exit too, and their
 * exit must not unmount it under the parent. */
static pid_t knobfs_mounted_by;

static void knobfs_unmount(void)
{
	if (knobfs_mounted_by && knobfs_mounted_by == getpid())
		debugfs_unmount();
}

/* 0 when debugfs is there (now or already), or -errno. */
static int knobfs_mount(void)
{
	int rc = debugfs_mount_if_absent();

	if (rc <= 0)
		return rc;
	if (!knobfs_mounted_by)
		atexit(knobfs_unmount);
	knobfs_mounted_by = getpid();
	return 0;
}

static bool knobfs_probe(char *reason, size_t len, bool may_mount)
{
	int err;

	if (knobfs_dir_exists(KNOB_ROOT "/" KNOB_WAIT_DIR) &&
	    knobfs_dir_exists(KNOB_ROOT "/" KNOB_FAULT_DIR))
		return true;
	if (!may_mount && !debugfs_mounted()) {
		snprintf(reason, len, "debugfs is not mounted at "
			 DEBUGFS_DIR);
		return false;
	}
	err = may_mount ? knobfs_mount() : 0;
	if (err) {
		snprintf(reason, len, "cannot mount debugfs at "
			 DEBUGFS_DIR ": %s%s", strerror(-err),
			 err == -EPERM ? " (run as root)" : "");
		return false;
	}
	if (access(DEBUGFS_DIR, R_OK | X_OK)) {
		snprintf(reason, len, "cannot read " DEBUGFS_DIR ": %s "
			 "(run as root)", strerror(errno));
		return false;
	}
	if (!knobfs_dir_exists(KNOB_ROOT "/" KNOB_WAIT_DIR)) {
		snprintf(reason, len, "kernel without CONFIG_FAIL_KERNFS_KNOBS: "
			 KNOB_ROOT "/" KNOB_WAIT_DIR " missing; build one "
			 "with `make kernfs-kernel`");
		return false;
	}
	if (!knobfs_dir_exists(KNOB_ROOT "/" KNOB_FAULT_DIR)) {
		snprintf(reason, len, "kernel without "
			 "CONFIG_FAULT_INJECTION_DEBUG_FS: " KNOB_ROOT "/"
			 KNOB_FAULT_DIR " missing; build one with `make "
			 "kernfs-kernel`");
		return false;
	}
	return true;
}

bool knobfs_detect(char *reason, size_t len)
{
	return knobfs_probe(reason, len, true);
}

static int knobfs_read_one(int id, char *text, size_t len)
{
	char path[256];
	ssize_t n;
	int fd;

	knobfs_path(id, path, sizeof(path));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, text, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	text[n] = '\0';
	return 0;
}

int knobfs_get(int id, char *text, size_t len)
{
	int err;

	if (id < 0 || id >= KNOB_NR || !len)
		return -EINVAL;
	err = knobfs_read_one(id, text, len);
	if (!err)
		text[strcspn(text, "\n")] = '\0';
	return err;
}

static void knobfs_read_all(struct knob_state *st, bool may_mount)
{
	char text[KNOB_VALUE_LEN];
	int i;

	memset(st, 0, sizeof(*st));
	st->present = knobfs_probe(st->reason, sizeof(st->reason), may_mount);
	if (!st->present)
		return;
	for (i = 0; i < KNOB_NR; i++)
		if (!knobfs_read_one(i, text, sizeof(text)))
			knob_state_set(st, i, text);
}

void knobfs_read(struct knob_state *st)
{
	knobfs_read_all(st, true);
}

int knobfs_write(int id, const char *value)
{
	char path[256];
	ssize_t n;
	int fd, err = 0;

	if (id < 0 || id >= KNOB_NR)
		return -EINVAL;
	knobfs_path(id, path, sizeof(path));
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, value, strlen(value));
	if (n < 0)
		err = -errno;
	else if ((size_t)n != strlen(value))
		err = -EIO;
	close(fd);
	return err;
}

int knobfs_restore(const struct knob_state *st)
{
	int i, err, first = 0;

	if (!st->present)
		return 0;
	for (i = 0; i < KNOB_NR; i++) {
		if (!st->have[i])
			continue;
		err = knobfs_write(i, st->value[i]);
		if (err && !first)
			first = err;
	}
	return first;
}

/* A report header only looks: it mounts nothing. */
void knobfs_describe(char *buf, size_t len)
{
	struct knob_state st;

	knobfs_read_all(&st, false);
	knob_describe(&st, buf, len);
}

int knobfs_apply(const char *const *assignments, unsigned int nr,
		 struct knob_state *saved)
{
	char value[KNOB_VALUE_LEN], err[256];
	unsigned int i;
	int id, rc;

	knobfs_read(saved);
	if (!nr)
		return 0;
	if (!saved->present) {
		fprintf(stderr, "sysfs-observe: failed to set --knob %s: %s\n",
			assignments[0], saved->reason);
		return SO_EXIT_SKIP;
	}
	for (i = 0; i < nr; i++) {
		if (knob_parse(assignments[i], &id, value, sizeof(value), err,
			       sizeof(err))) {
			fprintf(stderr, "sysfs-observe: %s\n", err);
			knobfs_restore(saved);
			return SO_EXIT_USAGE;
		}
		rc = knobfs_write(id, value);
		if (rc) {
			fprintf(stderr, "sysfs-observe: failed to set --knob "
				"%s: %s/%s: %s\n  the knobs are as they were\n",
				assignments[i], KNOB_ROOT, knob_defs[id].file,
				strerror(-rc));
			knobfs_restore(saved);
			return SO_EXIT_FAIL;
		}
	}
	return 0;
}

int knobfs_session_check(const struct so_options *opts)
{
	char reason[KNOB_REASON_LEN];

	if (!opts->nr_knobs || knobfs_detect(reason, sizeof(reason)))
		return 0;
	fprintf(stderr, "sysfs-observe: failed to set --knob %s: %s\n",
		opts->knobs[0], reason);
	return SO_EXIT_SKIP;
}

int knobfs_session_begin(const struct so_options *opts,
			 struct knob_state *saved)
{
	memset(saved, 0, sizeof(*saved));
	if (!opts->nr_knobs)
		return 0;
	return knobfs_apply(opts->knobs, opts->nr_knobs, saved);
}

void knobfs_session_end(const struct so_options *opts,
			const struct knob_state *saved)
{
	int err;

	if (!opts->nr_knobs)
		return;
	err = knobfs_restore(saved);
	if (err)
		fprintf(stderr, "sysfs-observe: failed to restore the kernfs "
			"knobs: %s\n  check %s by hand: a wait point left on "
			"stops sysfs writes\n", strerror(-err), KNOB_ROOT);
}

void knobfs_fill_info(struct so_session_info *info)
{
	struct knob_state st;
	int i;

	knobfs_read_all(&st, false);
	if (!st.present)
		snprintf(info->knobs_note, sizeof(info->knobs_note), "%s",
			 st.reason);
	for (i = 0; i < KNOB_NR; i++)
		if (knob_in_header(&st, i))
			tf_session_add_knob(info, knob_defs[i].name,
					    st.value[i]);
}
