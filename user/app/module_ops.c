// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * test_sysfs as a module: where its .ko is, its parameters, and the
 * unload that may have to wait or may never happen (a module wedged by
 * an earlier run); the syscalls themselves are kernel/module_sys.h's.
 * Apart from the workloads because both the driver child and the parent
 * after a session use it.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "kernel/module_sys.h"
#include "app/runner_internal.h"

/* Like modprobe: the path modules.dep gives for test_sysfs.ko. */
static int sc_find_module(char *path, size_t len)
{
	char dep[PATH_MAX], line[PATH_MAX];
	struct utsname u;
	FILE *f;
	int found = -ENOENT;

	if (uname(&u))
		return -errno;
	sc_str(dep, sizeof(dep), "/lib/modules/%s/modules.dep", u.release);
	f = fopen(dep, "r");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');
		char *base;

		if (!colon)
			continue;
		*colon = '\0';
		base = strrchr(line, '/');
		base = base ? base + 1 : line;
		if (strcmp(base, SC_MODULE ".ko") &&
		    strncmp(base, SC_MODULE ".ko.", 7 + sizeof(SC_MODULE)))
			continue;
		if (line[0] == '/')
			sc_str(path, len, "%s", line);
		else
			sc_str(path, len, "/lib/modules/%s/%s", u.release,
				 line);
		found = 0;
		break;
	}
	fclose(f);
	return found;
}

/* sysfs.sh disables 0027/0028 (they can hang the box); `all` runs them
 * with the fix, where they must come out GATED. */
bool sc_fixed(const struct sc_run *run, const struct sc_scenario *sc)
{
	return run->opts->fixed || (run->all && !sc->enabled);
}

void sc_params(const struct sc_run *run, const struct sc_scenario *sc,
	       const char *extra, char *buf, size_t len)
{
	unsigned int i;
	size_t n;

	n = sc_str(buf, len, "devtype=%d", sc->devtype == SC_DEV_BLOCK);
	if (extra && n < len)
		n += sc_str(buf + n, len - n, " %s", extra);
	if (sc_fixed(run, sc) && n < len)
		n += sc_str(buf + n, len - n, " enable_try_module_get=1");
	for (i = 0; i < run->opts->nr_params && n < len; i++)
		n += sc_str(buf + n, len - n, " %s", run->opts->params[i]);
}

/*
 * A module an earlier run wedged (rmmod blocked in kernfs_drain() by the
 * unfixed 0027/0028) stays "going" until reboot: no test can load it.
 * True, with the reason, when that is so.
 */
bool sc_module_wedged(char *why, size_t len)
{
	char state[16] = "";
	FILE *f = fopen("/sys/module/" SC_MODULE "/initstate", "re");

	if (!f)
		return false;
	if (!fgets(state, sizeof(state), f))
		state[0] = '\0';
	fclose(f);
	if (strncmp(state, "going", 5))
		return false;
	sc_str(why, len, SC_MODULE " is stuck unloading since an earlier "
	       "run (a deadlock: a task waits in kernfs_drain()); reboot to "
	       "clear it");
	return true;
}

/* Unload, trying every 100 ms: a writer may still hold the module
 * briefly.  0, or the last -errno. */
int sc_unload_within(int tries)
{
	int err = 0, i;

	for (i = 0; i < tries && (err = module_sys_unload(SC_MODULE)); i++)
		usleep(100000);
	return err;
}

/* At the end or on SIGTERM: 10 s. */
void sc_unload_for_good(void)
{
	sc_unload_within(100);
}

/* modprobe_reset: unload (quietly) and load with the scenario's
 * parameters. */
int sc_reload(struct sc_run *run, const struct sc_scenario *sc,
	      const char *extra)
{
	char params[SC_PARAMS_LEN];
	int err = sc_unload_within(50);

	/* Still loaded: loading "again" would keep the old parameters. */
	if (err)
		return sc_fail(run, "could not unload %s to load it with "
			       "this test's parameters: %s", SC_MODULE,
			       strerror(-err));
	sc_params(run, sc, extra, params, sizeof(params));
	err = module_sys_load(run->ko_path, params);
	if (err)
		return sc_fail(run, "failed to load %s: %s", run->ko_path,
			       strerror(-err));
	return 0;
}

/* run->ko_path: --module's, or modules.dep's.  0, or -1 said on stderr
 * (the caller's exit code stays a SKIP: no module, nothing to test). */
int sc_module_locate(struct sc_run *run, const struct so_options *opts)
{
	int err;

	if (opts->module_path) {
		sc_str(run->ko_path, sizeof(run->ko_path), "%s",
		       opts->module_path);
		err = access(run->ko_path, R_OK) ? -errno : 0;
	} else {
		err = sc_find_module(run->ko_path, sizeof(run->ko_path));
	}
	if (!err)
		return 0;
	if (opts->module_path)
		fprintf(stderr, "sysfs-observe: %s: %s\n  build it with "
			"`make module` or pass --module PATH\n",
			opts->module_path, strerror(-err));
	else
		fprintf(stderr, "sysfs-observe: %s.ko not found in "
			"modules.dep: %s\n  build it with `make module` and "
			"install it under /lib/modules/$(uname -r) (then "
			"depmod), or pass --module PATH\n", SC_MODULE,
			strerror(-err));
	return -1;
}
