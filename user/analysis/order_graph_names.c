// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * What a class is called when printed: the name an edge or a module
 * event gave it, else the namer's (symbols resolved later), else its
 * kind and handle.  Apart from the graph, which needs names for none of
 * its work: only reports ask.
 */
#include <errno.h>
#include <stdio.h>

#include "analysis/order_graph_impl.h"
#include "trace/names.h"

void og_set_namer(struct og_graph *graph, og_namer_fn namer, void *ctx)
{
	graph->namer = namer;
	graph->namer_ctx = ctx;
}

int og_name_class(struct og_graph *graph, uint64_t class_id,
		  const char *name)
{
	if (!class_id)
		return -EINVAL;
	return og_node_get(graph, class_id, name) == OG_NIL ? -ENOSPC : 0;
}

int og_name_module(struct og_graph *graph, const char *module)
{
	char name[SO_NAME_LEN];

	if (!module || !module[0])
		return -EINVAL;
	snprintf(name, sizeof(name), "mod:%.*s", SO_NAME_LEN - 5, module);
	return og_name_class(graph,
			     SO_CLASS_MAKE(SO_CLASS_MOD,
					   so_hash_name(module, SO_NAME_LEN)),
			     name);
}

static const char *og_kind_name(uint32_t kind)
{
	switch (kind) {
	case SO_CLASS_KN:
		return "kn";
	case SO_CLASS_MUTEX:
		return "mutex";
	case SO_CLASS_LOCK:
		return "lock";
	case SO_CLASS_RTNL:
		return "rtnl";
	case SO_CLASS_MOD:
		return "mod";
	default:
		return "class";
	}
}

const char *og_class_name(const struct og_graph *graph, uint64_t class_id,
			  char *fallback, uint32_t fallback_len)
{
	uint32_t i = og_node_find(graph, class_id);

	if (i != OG_NIL && graph->nodes[i].name[0])
		return graph->nodes[i].name;
	if (graph->namer &&
	    graph->namer(graph->namer_ctx, class_id, fallback, fallback_len))
		return fallback;
	snprintf(fallback, fallback_len, "%s#%04x",
		 og_kind_name(SO_CLASS_KIND(class_id)),
		 addr_handle(class_id));
	return fallback;
}
