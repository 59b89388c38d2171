// SPDX-License-Identifier: GPL-2.0-or-later OR copyleft-next-0.3.1
/*
 * The summary as JSON: docs/json-schema.md is the contract.  Add members,
 * never rename or retype one without bumping SO_JSON_SCHEMA.
 */
#include "report/rows.h"
#include "report/summary.h"
#include "lib/units.h"

#define SO_JSON_SCHEMA	"sysfs-observe-summary/1"

static void summary_json_timing(struct so_json *j, const char *prefix_key,
				const struct so_timing *t)
{
	json_object(j, prefix_key);
	json_u64(j, "count", t->count);
	json_u64(j, "total_ns", t->total_ns);
	json_u64(j, "max_ns", t->max_ns);
	json_u64(j, "min_ns", t->count ? t->min_ns : 0);
	json_u64(j, "avg_ns", stats_timing_avg(t));
	json_end_object(j);
}

static void summary_json_errnos(struct so_json *j, const char *key,
				const struct so_errnos *e)
{
	char buf[SO_DURATION_LEN];
	uint32_t i;

	json_array(j, key);
	for (i = 0; i < e->len; i++) {
		json_object(j, NULL);
		json_string(j, "errno", units_errno(e->slots[i].err, buf));
		json_u64(j, "count", e->slots[i].count);
		json_end_object(j);
	}
	if (e->other) {
		json_object(j, NULL);
		json_string(j, "errno", "other");
		json_u64(j, "count", e->other);
		json_end_object(j);
	}
	json_end_array(j);
}

static void summary_json_session(struct so_json *j, const struct so_report *r)
{
	const struct so_session_info *info = r->info;
	uint32_t i;

	json_object(j, "session");
	json_string(j, "tool", info->tool);
	json_string(j, "kernel", info->kernel);
	json_string(j, "test", info->test);
	json_u64(j, "start_realtime_ns", info->start_realtime_ns);
	json_u64(j, "duration_ns", rows_duration_ns(r));
	json_bool(j, "complete", r->end != NULL);
	json_string(j, "module_params", info->module_params);
	json_object(j, "filters");
	json_string(j, "module", info->module_filter);
	json_string(j, "path_prefix", info->path_prefix);
	json_u64(j, "pid", info->pid_filter);
	json_end_object(j);
	json_array(j, "knobs");
	for (i = 0; i < info->nr_knobs; i++) {
		json_object(j, NULL);
		json_string(j, "name", info->knobs[i].name);
		json_string(j, "value", info->knobs[i].value);
		json_end_object(j);
	}
	json_end_array(j);
	if (info->knobs_note[0])	/* only when there are none */
		json_string(j, "knobs_note", info->knobs_note);
	json_array(j, "probes");
	for (i = 0; i < info->nr_probes; i++) {
		json_object(j, NULL);
		json_string(j, "name", info->probes[i].name);
		json_string(j, "mode",
			    tf_probe_mode_name(info->probes[i].mode));
		json_end_object(j);
	}
	json_end_array(j);
	json_end_object(j);
}

static void summary_json_events(struct so_json *j, const struct so_stats *st)
{
	uint32_t type;

	json_object(j, "events");
	json_u64(j, "received", st->nr_events);
	json_object(j, "by_type");
	for (type = 1; type < SO_EV_NR; type++)
		json_u64(j, names_event_type(type), st->by_type[type]);
	json_end_object(j);
	json_end_object(j);
}

static void summary_json_class_head(struct so_json *j,
				    const struct so_class_row *row)
{
	json_object(j, NULL);
	json_string(j, "class", row->name);
	json_string(j, "type", row->type);
}

static void summary_json_classes(struct so_json *j, struct so_class_rows *rows)
{
	const struct so_class_stats *c;
	uint32_t b;
	size_t i;

	rows_sort(rows, SO_ROWS_BY_WAIT);
	json_array(j, "contention");
	for (i = 0; i < rows->len; i++) {
		c = rows->rows[i].cls;
		if (!c->wait.count)
			continue;
		summary_json_class_head(j, &rows->rows[i]);
		summary_json_timing(j, "wait", &c->wait);
		json_end_object(j);
	}
	json_end_array(j);

	rows_sort(rows, SO_ROWS_BY_HOLD);
	json_array(j, "holds");
	for (i = 0; i < rows->len; i++) {
		c = rows->rows[i].cls;
		if (!c->hold.count)
			continue;
		summary_json_class_head(j, &rows->rows[i]);
		summary_json_timing(j, "hold", &c->hold);
		json_array(j, "histogram");
		for (b = 0; b < SO_HIST_BUCKETS; b++) {
			if (!c->hold_hist.buckets[b])
				continue;
			json_object(j, NULL);
			json_u64(j, "log2_ns", b);
			json_u64(j, "count", c->hold_hist.buckets[b]);
			json_end_object(j);
		}
		json_end_array(j);
		json_end_object(j);
	}
	json_end_array(j);

	rows_sort(rows, SO_ROWS_BY_KERNFS);
	json_array(j, "kernfs");
	for (i = 0; i < rows->len; i++) {
		c = rows->rows[i].cls;
		if (SO_CLASS_KIND(c->class_id) != SO_CLASS_KN)
			continue;
		summary_json_class_head(j, &rows->rows[i]);
		json_u64(j, "gets", c->kn_gets);
		json_u64(j, "refused", c->kn_refused);
		json_u64(j, "puts", c->kn_puts);
		json_u64(j, "drains", c->kn_drains);
		json_u64(j, "drain_waits", c->kn_drain_waits);
		summary_json_timing(j, "drain", &c->drain);
		json_u64(j, "writes", c->writes);
		json_u64(j, "write_bytes", c->write_bytes);
		json_u64(j, "write_errors", c->write_errors);
		summary_json_timing(j, "write_time", &c->write_time);
		json_end_object(j);
	}
	json_end_array(j);

	json_array(j, "module_refs");
	for (i = 0; i < rows->len; i++) {
		c = rows->rows[i].cls;
		if (!(c->mod_gets + c->mod_get_fails + c->mod_puts))
			continue;
		summary_json_class_head(j, &rows->rows[i]);
		json_u64(j, "gets", c->mod_gets);
		json_u64(j, "refused", c->mod_get_fails);
		json_u64(j, "puts", c->mod_puts);
		json_end_object(j);
	}
	json_end_array(j);
}

static void summary_json_removals(struct so_json *j, const struct so_stats *st)
{
	const struct so_module_ops *mods = &st->modules;
	uint32_t i;

	json_object(j, "modules");
	summary_json_timing(j, "load", &mods->load);
	json_u64(j, "load_failed", mods->load_fails);
	summary_json_errnos(j, "load_errors", &mods->load_errnos);
	summary_json_timing(j, "delete", &mods->delete);
	json_u64(j, "delete_failed", mods->delete_fails);
	summary_json_errnos(j, "delete_errors", &mods->delete_errnos);
	json_end_object(j);
	summary_json_errnos(j, "write_errors", &st->write_errnos);
	json_array(j, "devices");
	for (i = 0; i < st->nr_devices; i++) {
		json_object(j, NULL);
		json_string(j, "function",
			    st->devices[i].kind == SO_DEV_GENDISK ?
				       "del_gendisk" : "misc_deregister");
		json_string(j, "name", st->devices[i].name);
		summary_json_timing(j, "removal", &st->devices[i].removal);
		json_end_object(j);
	}
	json_end_array(j);
}

static void summary_json_losses(struct so_json *j, const struct so_report *r)
{
	uint32_t i;

	json_object(j, "losses");
	for (i = 0; i < SO_CNT_NR; i++)
		json_u64(j, names_counter(i), rows_counter(r, i));
	json_u64(j, "malformed_records", r->malformed);
	json_u64(j, "uncounted_nomem", r->stats->nomem);
	json_u64(j, "unpaired_ends", r->stats->unpaired);
	json_u64(j, "edges_recovered", r->edges_recovered);
	json_bool(j, "dropped", summary_lost_events(r));
	json_end_object(j);
}

void summary_json(FILE *out, const struct so_report *r)
{
	const struct so_summary_hooks *hooks = r->hooks;
	struct so_class_rows rows;
	struct so_json j;

	stats_finish(r->stats);
	rows_build(&rows, r);
	json_init(&j, out);
	json_object(&j, NULL);
	json_string(&j, "schema", SO_JSON_SCHEMA);
	summary_json_session(&j, r);
	summary_json_events(&j, r->stats);
	summary_json_classes(&j, &rows);
	summary_json_removals(&j, r->stats);
	summary_json_losses(&j, r);
	json_object(&j, "analysis");
	if (hooks && hooks->analysis_json)
		hooks->analysis_json(&j, hooks->ctx);
	json_end_object(&j);
	json_end_object(&j);
	json_finish(&j);
	rows_free(&rows);
}
