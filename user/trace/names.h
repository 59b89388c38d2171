/* SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1 */
/*
 * Names for what events mention: resource classes by id ("kn:dir/attr",
 * "mod:name", "&dev->config_mutex", "rtnl_mutex", "mutex@caller") and
 * event types.  Classes are learnt from the events that carry their names
 * and resolved when asked, so symbols that arrive later (a trace file's
 * KSYM records come at its end) still name every lock.
 */
#ifndef SO_NAMES_H
#define SO_NAMES_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include "observe.h"
#include "lib/addr.h"
#include "trace/ksyms.h"
#include "trace/stacks.h"

#define SO_CLASS_NAME_LEN	(SO_NAME_LEN + 16)
/* Frames kept from a lock's first acquisition, to name it by its caller. */
#define SO_NAMES_FRAMES		8

struct so_names;

/* ks may be NULL, and may be filled after the events came. */
struct so_names *names_new(struct ksyms *ks);
void names_free(struct so_names *names);
/* Learns from one (checked) event; stack is its stack, if known. */
void names_observe(struct so_names *names, const struct so_event *ev,
		   const struct so_stack *stack);
/* A class named elsewhere than in an event (the kernel's class_names);
 * a name the class already has is kept. */
void names_add(struct so_names *names, uint64_t class_id,
	       const char *name);
/* The class's name into buf; never NULL, never empty. */
const char *names_class(struct so_names *names, uint64_t class_id,
			char *buf, size_t len);
/* The class of a lock seen at address obj (contention events carry only
 * the address), or 0. */
uint64_t names_obj_class(const struct so_names *names, uint64_t obj);
/* Addresses of the lock objects seen, for the symbols a trace must carry.
 * Returns how many there are (it may exceed max; max are stored). */
size_t names_lock_addrs(const struct so_names *names, uint64_t *addrs,
			size_t max);

/* "write", "get_active", ...; "?" for an unknown type. */
const char *names_event_type(uint32_t type);
/* "wait_after_active", ...: enum so_knob_point as debugfs names it. */
const char *names_knob_point(uint32_t point);
/* The points of a mask, "wait_at_start|wait_after_active", into buf;
 * "no wait point" for none. */
const char *names_knob_points(uint32_t mask, char *buf, size_t len);
/* The knob kernels' completion, the object of SO_EV_KNOB_COMPLETE. */
#define SO_KNOB_COMPLETION	"kernfs_debug_wait_completion"
/* "kernfs", "mutex", "module", ...: the summary's type column. */
const char *names_class_kind(uint32_t kind);
/* "rb_drops", ...: enum so_counter as the JSON keys spell it. */
const char *names_counter(uint32_t counter);
/* "ring buffer full", ...: what the counter counts, for people. */
const char *names_counter_desc(uint32_t counter);
/* The kernel address a lock class id was made from. */
uint64_t names_class_addr(uint64_t class_id);

#endif /* SO_NAMES_H */
