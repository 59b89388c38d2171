// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * The names of what the trace carries: event types, counters, knob points
 * and class kinds, and the dictionary of class names learned from events
 * and symbols.  Kept whole at a little over 400 lines: every caller
 * asks names.h for a name, whichever kind, and the enum tables (about
 * 100 lines) are the only part that could move, for a file that would
 * hold nothing but string arrays.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "trace/names.h"
#include "lib/array.h"
#include "lib/u64map.h"

struct so_class_entry {
	uint64_t class_id;
	uint64_t obj;		/* first object seen: a lock's address */
	char name[SO_NAME_LEN];
	uint32_t nr_frames;
	uint64_t frames[SO_NAMES_FRAMES];
};

struct so_names {
	struct ksyms *ksyms;
	struct so_class_entry *entries;
	size_t len, cap;
	struct u64map by_class;
	struct u64map by_obj;	/* lock address -> entries[] */
};

static const char *const so_event_names[SO_EV_NR] = {
	[SO_EV_KN_WRITE_BEGIN]	  = "write",
	[SO_EV_KN_WRITE_END]	  = "write_end",
	[SO_EV_KN_GET_ACTIVE]	  = "get_active",
	[SO_EV_KN_PUT_ACTIVE]	  = "put_active",
	[SO_EV_KN_DRAIN_BEGIN]	  = "drain",
	[SO_EV_KN_DRAIN_END]	  = "drain_end",
	[SO_EV_MOD_GET]		  = "mod_get",
	[SO_EV_MOD_PUT]		  = "mod_put",
	[SO_EV_MOD_LOAD_BEGIN]	  = "mod_load",
	[SO_EV_MOD_LOAD_END]	  = "mod_load_end",
	[SO_EV_MOD_DELETE_BEGIN]  = "mod_delete",
	[SO_EV_MOD_DELETE_END]	  = "mod_del_end",
	[SO_EV_DEL_GENDISK_BEGIN] = "del_gendisk",
	[SO_EV_DEL_GENDISK_END]	  = "gendisk_end",
	[SO_EV_MISC_DEREG_BEGIN]  = "misc_dereg",
	[SO_EV_MISC_DEREG_END]	  = "misc_end",
	[SO_EV_LOCK_ACQUIRED]	  = "lock",
	[SO_EV_LOCK_RELEASED]	  = "unlock",
	[SO_EV_CONTENTION_BEGIN]  = "contend",
	[SO_EV_CONTENTION_END]	  = "contend_end",
	[SO_EV_MUTEX_INIT]	  = "mutex_init",
	[SO_EV_EDGE]		  = "edge",
	[SO_EV_KNOB_WAIT]	  = "knob_wait",
	[SO_EV_KNOB_WAKE]	  = "knob_wake",
	[SO_EV_KNOB_COMPLETE]	  = "complete",
};

const char *names_event_type(uint32_t type)
{
	return type < SO_EV_NR && so_event_names[type] ? so_event_names[type] :
							 "?";
}

/* The debugfs bools of kernfs/patches, under config_fail_kernfs_fop_write_iter/. */
static const char *const so_knob_point_names[SO_KNOB_NR] = {
	[SO_KNOB_AT_START]	= "wait_at_start",
	[SO_KNOB_BEFORE_MUTEX]	= "wait_before_mutex",
	[SO_KNOB_AFTER_MUTEX]	= "wait_after_mutex",
	[SO_KNOB_AFTER_ACTIVE]	= "wait_after_active",
};

const char *names_knob_point(uint32_t point)
{
	return point < SO_KNOB_NR ? so_knob_point_names[point] : "?";
}

const char *names_knob_points(uint32_t mask, char *buf, size_t len)
{
	size_t used = 0;
	uint32_t p;

	buf[0] = 0;
	for (p = 0; p < SO_KNOB_NR; p++)
		if (mask & (1u << p))
			used += snprintf(buf + used, used < len ? len - used : 0,
					 "%s%s", used ? "|" : "",
					 so_knob_point_names[p]);
	if (!used)
		snprintf(buf, len, "no wait point");
	return buf;
}

const char *names_class_kind(uint32_t kind)
{
	switch (kind) {
	case SO_CLASS_KN:
		return "kernfs";
	case SO_CLASS_MUTEX:
	case SO_CLASS_LOCK:
	case SO_CLASS_RTNL:
		return "mutex";
	case SO_CLASS_MOD:
		return "module";
	default:
		return "?";
	}
}

static const char *const so_counter_names[SO_CNT_NR][2] = {
	[SO_CNT_EVENTS]	      = { "events", "events submitted by BPF" },
	[SO_CNT_RB_DROPS]     = { "rb_drops", "ring buffer full, event lost" },
	[SO_CNT_HELD_FULL]    = { "held_full", "held set full, not tracked" },
	[SO_CNT_EDGE_FULL]    = { "edge_full", "edge table full, not counted" },
	[SO_CNT_TASK_FULL]    = { "task_full", "task table full, not tracked" },
	[SO_CNT_CLASS_FULL]   = { "class_full", "lock-class table full" },
	[SO_CNT_STACK_FAIL]   = { "stack_fail", "stacks not captured" },
	[SO_CNT_KERNFS_WRITE] = { "kernfs_writes", "kernfs writes entered" },
	[SO_CNT_MUTEX_CALLS]  = { "mutex_calls",
				  "mutex probe hits past the cheap check" },
	[SO_CNT_COUNTS_FULL]  = { "counts_full",
				  "class-counts table full, not counted" },
	[SO_CNT_CLASS_EVICTED] = { "class_evicted",
				   "lock classes evicted, at least" },
	[SO_CNT_CHAIN_FULL]   = { "chain_full",
				  "chain table full, edges counted one by one" },
};

const char *names_counter(uint32_t counter)
{
	return counter < SO_CNT_NR && so_counter_names[counter][0] ?
		       so_counter_names[counter][0] : "?";
}

const char *names_counter_desc(uint32_t counter)
{
	return counter < SO_CNT_NR && so_counter_names[counter][1] ?
		       so_counter_names[counter][1] : "?";
}

/* Kernel addresses have their top byte all ones: put back what the class
 * id's kind byte replaced. */
uint64_t names_class_addr(uint64_t class_id)
{
	return (uint64_t)SO_CLASS_MAKE(0, class_id) | (0xffULL << SO_CLASS_SHIFT);
}

struct so_names *names_new(struct ksyms *ks)
{
	struct so_names *names = calloc(1, sizeof(*names));

	if (!names)
		return NULL;
	names->ksyms = ks;
	u64map_init(&names->by_class);
	u64map_init(&names->by_obj);
	return names;
}

void names_free(struct so_names *names)
{
	if (!names)
		return;
	u64map_fini(&names->by_class);
	u64map_fini(&names->by_obj);
	free(names->entries);
	free(names);
}

static struct so_class_entry *names_entry(struct so_names *names,
					  uint64_t class_id)
{
	struct so_class_entry *entry;
	uint32_t idx;

	if (u64map_get(&names->by_class, class_id, &idx))
		return &names->entries[idx];
	if (array_reserve((void **)&names->entries, &names->cap, names->len,
			  sizeof(*names->entries)))
		return NULL;
	if (u64map_put(&names->by_class, class_id, names->len))
		return NULL;
	entry = &names->entries[names->len++];
	memset(entry, 0, sizeof(*entry));
	entry->class_id = class_id;
	return entry;
}

static void names_learn(struct so_names *names, uint64_t class_id,
			const char *name, uint64_t obj)
{
	struct so_class_entry *entry;

	if (!class_id)
		return;
	entry = names_entry(names, class_id);
	if (!entry)
		return;
	if (!entry->name[0] && name && name[0])
		snprintf(entry->name, sizeof(entry->name), "%s", name);
	if (!entry->obj)
		entry->obj = obj;
	/* Contention events carry only the lock's address. */
	if (obj && !u64map_get(&names->by_obj, obj, NULL))
		u64map_put(&names->by_obj, obj, (uint32_t)(entry - names->entries));
}

void names_add(struct so_names *names, uint64_t class_id,
	       const char *name)
{
	char bounded[SO_NAME_LEN];

	snprintf(bounded, sizeof(bounded), "%s", name ? name : "");
	names_learn(names, class_id, bounded, 0);
}

uint64_t names_obj_class(const struct so_names *names, uint64_t obj)
{
	uint32_t idx;

	if (!obj || !u64map_get(&names->by_obj, obj, &idx))
		return 0;
	return names->entries[idx].class_id;
}

/* Events whose name field names their class, not a device. */
static bool names_event_names_class(uint32_t type)
{
	switch (type) {
	case SO_EV_MOD_LOAD_BEGIN:
	case SO_EV_MOD_LOAD_END:
	case SO_EV_DEL_GENDISK_BEGIN:
	case SO_EV_DEL_GENDISK_END:
	case SO_EV_MISC_DEREG_BEGIN:
	case SO_EV_MISC_DEREG_END:
	case SO_EV_EDGE:
		return false;
	default:
		return true;
	}
}

void names_observe(struct so_names *names, const struct so_event *ev,
		   const struct so_stack *stack)
{
	const struct so_edge_event *edge;
	struct so_class_entry *entry;
	uint32_t kind;

	if (ev->type == SO_EV_EDGE) {
		edge = (const struct so_edge_event *)ev;
		names_learn(names, edge->key.from_class, ev->name, 0);
		names_learn(names, edge->key.to_class, edge->to_name, 0);
		return;
	}
	if (!names_event_names_class(ev->type) || !ev->class_id)
		return;
	kind = SO_CLASS_KIND(ev->class_id);
	names_learn(names, ev->class_id, ev->name,
		    kind == SO_CLASS_LOCK || kind == SO_CLASS_MUTEX ?
			       ev->obj : 0);
	if (ev->type != SO_EV_LOCK_ACQUIRED || !stack)
		return;
	entry = names_entry(names, ev->class_id);
	if (!entry || entry->nr_frames)
		return;
	entry->nr_frames = stack->depth < SO_NAMES_FRAMES ? stack->depth :
							    SO_NAMES_FRAMES;
	memcpy(entry->frames, stack->addrs,
	       entry->nr_frames * sizeof(entry->frames[0]));
}

/* Frames of the locking machinery itself, not the code that took it. */
static bool names_frame_is_plumbing(const char *sym)
{
	static const char *const prefixes[] = {
		"mutex_", "__mutex_", "bpf_", "__bpf", "rtnl_lock",
		"kprobe", "__kprobe", "ftrace", "fentry", "trampoline",
	};
	size_t i;

	for (i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (!strncmp(sym, prefixes[i], strlen(prefixes[i])))
			return true;
	return false;
}

static bool names_lock_static(struct so_names *names, uint64_t addr,
			      char *buf, size_t len)
{
	const struct ksym *sym;

	if (!names->ksyms)
		return false;
	sym = ksyms_find(names->ksyms, addr);
	/* Only data: a text symbol "containing" the address is a miss. */
	if (!sym || !strchr("dDbBrR", sym->type))
		return false;
	if (addr == sym->addr)
		snprintf(buf, len, "%s", sym->name);
	else
		snprintf(buf, len, "%s+0x%" PRIx64, sym->name,
			 addr - sym->addr);
	return true;
}

static bool names_lock_acquirer(struct so_names *names,
				const struct so_class_entry *entry,
				char *buf, size_t len)
{
	const struct ksym *sym;
	uint32_t i;

	if (!names->ksyms)
		return false;
	for (i = 0; i < entry->nr_frames; i++) {
		sym = ksyms_find(names->ksyms, entry->frames[i]);
		if (sym && !names_frame_is_plumbing(sym->name)) {
			snprintf(buf, len, "mutex@%s", sym->name);
			return true;
		}
	}
	return false;
}

static const char *names_lock(struct so_names *names,
			      const struct so_class_entry *entry,
			      uint64_t class_id, char *buf, size_t len)
{
	uint64_t addr = entry && entry->obj ? entry->obj :
					      names_class_addr(class_id);

	if (entry && SO_CLASS_KIND(class_id) == SO_CLASS_MUTEX &&
	    entry->name[0]) {
		snprintf(buf, len, "%s", entry->name);
		return buf;
	}
	if (names_lock_static(names, addr, buf, len))
		return buf;
	/* The probes' own look-up ("%ps", at first sight: a module's
	 * static mutex stays named after the module is gone), without
	 * its " [module]". */
	if (entry && SO_CLASS_KIND(class_id) == SO_CLASS_LOCK &&
	    entry->name[0]) {
		snprintf(buf, len, "%.*s", (int)strcspn(entry->name, " "),
			 entry->name);
		return buf;
	}
	if (entry && names_lock_acquirer(names, entry, buf, len))
		return buf;
	char a[SO_ADDR_LEN];

	snprintf(buf, len, "lock%s", addr_str(addr, a));
	return buf;
}


static const char *names_class_prefix(uint64_t class_id)
{
	return SO_CLASS_KIND(class_id) == SO_CLASS_KN ? "kn" : "mod";
}

const char *names_class(struct so_names *names, uint64_t class_id,
			char *buf, size_t len)
{
	const struct so_class_entry *entry = NULL;
	uint32_t idx;

	if (u64map_get(&names->by_class, class_id, &idx))
		entry = &names->entries[idx];
	switch (SO_CLASS_KIND(class_id)) {
	case SO_CLASS_KN:
	case SO_CLASS_MOD:
		/* Unnamed: the id, so two such classes still differ. */
		if (entry && entry->name[0])
			snprintf(buf, len, "%s:%s",
				 names_class_prefix(class_id), entry->name);
		else
			snprintf(buf, len, "%s:#%" PRIx64,
				 names_class_prefix(class_id),
				 (uint64_t)SO_CLASS_MAKE(0, class_id));
		return buf;
	case SO_CLASS_RTNL:
		snprintf(buf, len, "rtnl_mutex");
		return buf;
	case SO_CLASS_MUTEX:
	case SO_CLASS_LOCK:
		return names_lock(names, entry, class_id, buf, len);
	default:
		snprintf(buf, len, "class#%" PRIx64, class_id);
		return buf;
	}
}

size_t names_lock_addrs(const struct so_names *names, uint64_t *addrs,
			size_t max)
{
	size_t i, n = 0;
	uint32_t kind;

	for (i = 0; i < names->len; i++) {
		kind = SO_CLASS_KIND(names->entries[i].class_id);
		if (kind != SO_CLASS_LOCK && kind != SO_CLASS_MUTEX)
			continue;
		if (n < max)
			addrs[n] = names->entries[i].obj ?
				   names->entries[i].obj :
				   names_class_addr(names->entries[i].class_id);
		n++;
	}
	return n;
}
