/* SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1 */
/*
 * The two module syscalls, once: load a .ko file with its parameters,
 * remove a module without waiting.  One try each; how often to retry,
 * and on which error, is the caller's (the scenario runner retries any
 * error every 100 ms, the knob race only EBUSY/EAGAIN every 50 ms).
 */
#ifndef SO_KERNEL_MODULE_SYS_H
#define SO_KERNEL_MODULE_SYS_H

/* finit_module(2) of the file at ko_path: 0 or -errno (-EEXIST: a
 * module of that name is loaded already). */
int module_sys_load(const char *ko_path, const char *params);

/* delete_module(2), O_NONBLOCK: 0 when the module is gone, also when it
 * was not loaded at all; else -errno (-EBUSY, -EAGAIN: still in use). */
int module_sys_unload(const char *name);

#endif /* SO_KERNEL_MODULE_SYS_H */
