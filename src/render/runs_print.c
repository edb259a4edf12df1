#include "render/runs_print.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "os/timefmt.h"

void runs_print_list_head(struct out *o, const char *path)
{
	out_str(o, "db", NULL, path);
	out_text(o, "%5s  %-19s  %-14s  %-22s  %-14s  %-11s  %s\n", "id", "started", "label", "test", "sizes",
		 "status", "headline");
}

/* One run, a line of the table or an object of the list. */
void runs_print_run(void *arg, const struct app_run_entry *e)
{
	const struct db_run_row *r = e->row;
	struct out *o = arg;
	char when[32], tags[512], *save = NULL;
	bool when_known = !timefmt_local(when, sizeof(when), r->started, "%Y-%m-%d %H:%M:%S");

	out_obj_start(o, NULL);
	out_i64(o, "id", "%5lld", r->id);
	out_i64(o, "started", NULL, r->started);
	if (when_known) {
		out_str(o, "time", "  %-19s", when);
	} else {
		out_null(o, "time");
		out_text(o, "  %-19s", when);
	}
	out_str(o, "label", "  %-14s", r->label[0] ? r->label : "-");
	out_str(o, "test", "  %-22s", r->test);
	out_str(o, "sizes", "  %-14s", r->sizes);
	out_str(o, "status", "  %-11s", e->status);
	out_str(o, "headline", "  %s\n", e->headline);
	out_i64(o, "repeats", NULL, r->repeats);
	out_config(o, "config", "config_text", r->config);
	out_arr_start(o, "tags");
	snprintf(tags, sizeof(tags), "%s", r->tags);
	for (char *tk = strtok_r(tags, ",", &save); tk; tk = strtok_r(NULL, ",", &save))
		out_str(o, NULL, NULL, tk);
	out_arr_end(o);
	out_i64(o, "trials", NULL, r->ntrials);
	/* where it came from: a shared store holds several testers' runs */
	out_str(o, "tester", NULL, r->tester);
	out_str(o, "dut", NULL, r->dut);
	out_str(o, "uuid", NULL, r->uuid);
	out_obj_end(o);
}

static const char *field(json_object *o, const char *key)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !v)
		return "";
	return json_object_get_string(v);
}

void runs_print_show(struct out *o, json_object *doc)
{
	json_object *one, *run, *a;

	one = json_object_array_get_idx(json_object_object_get(doc, "runs"), 0);
	run = json_object_object_get(one, "run");
	out_str(o, NULL, "run %s", field(run, "id"));
	out_str(o, NULL, "  %s", field(run, "test"));
	out_str(o, NULL, "  label '%s'", field(run, "label"));
	out_str(o, NULL, "  %s\n", field(run, "status"));
	out_str(o, NULL, "  uuid       %s\n", field(run, "uuid"));
	{
		char when[64];

		/* A stored time may have no calendar date: "?" as runs and report. */
		timefmt_local(when, sizeof(when), json_object_get_int64(json_object_object_get(run, "started")),
			      "%Y-%m-%d %H:%M:%S %z");
		out_str(o, NULL, "  started    %s\n", when);
	}
	out_str(o, NULL, "  sizes      %s\n", field(run, "sizes"));
	out_str(o, NULL, "  config     %s\n", field(run, "config"));
	out_str(o, NULL, "  where      %s\n", field(run, "place"));
	out_str(o, NULL, "  headline   %s\n", field(run, "headline"));
	a = json_object_object_get(one, "tags");
	for (size_t i = 0; a && i < json_object_array_length(a); i++)
		out_str(o, NULL, "  tag        %s\n", field(json_object_array_get_idx(a, i), "tag"));
	a = json_object_object_get(one, "env");
	for (size_t i = 0; a && i < json_object_array_length(a); i++) {
		json_object *e = json_object_array_get_idx(a, i);

		out_str(o, NULL, "  env        %s", field(e, "key"));
		out_str(o, NULL, " = %s\n", field(e, "value"));
	}
	a = json_object_object_get(one, "trials");
	out_text(o, "\n  %5s %5s %-4s %6s %12s %8s %12s %12s %9s  %s\n", "trial", "size", "test", "repeat", "load f/s",
		 "time s", "tx", "rx", "loss %", "tester-limited");
	for (size_t i = 0; a && i < json_object_array_length(a); i++) {
		json_object *t = json_object_array_get_idx(a, i);
		int64_t tx = json_object_get_int64(json_object_object_get(t, "tx"));
		int64_t rx = json_object_get_int64(json_object_object_get(t, "rx"));

		out_text(o, "  %5zu %5lld ", i + 1, (long long)json_object_get_int64(json_object_object_get(t, "size")));
		out_str(o, NULL, "%-4.4s", field(t, "test"));
		out_text(o, " %6lld %12.1f %8.3f %12lld %12lld %9.4f  %s\n",
			 (long long)json_object_get_int64(json_object_object_get(t, "repeat")),
			 json_object_get_double(json_object_object_get(t, "load")),
			 json_object_get_double(json_object_object_get(t, "duration_s")), (long long)tx, (long long)rx,
			 tx > 0 ? 100.0 * (double)(tx - (rx < tx ? rx : tx)) / (double)tx : 0,
			 json_object_get_int64(json_object_object_get(t, "tester_limited")) ? "yes" : "no");
	}
}

void runs_print_import(struct out *o, const char *path, const struct db_import_result *r)
{
	out_str(o, "db", NULL, path);
	out_u64(o, "imported", "imported %llu run(s)", r->imported);
	if (r->imported) {
		out_i64(o, "first", " as %lld", r->first);
		out_i64(o, "last", r->last != r->first ? "-%lld" : NULL, r->last);
	}
	out_text(o, " into %s", path);
	out_u64(o, "skipped", "; %llu already there (the same UUID), skipped\n", r->skipped);
}

void runs_print_sync(struct out *o, const char *from, const char *path, const struct db_import_result *r)
{
	out_str(o, "from", "synced %s", from);
	out_str(o, "db", " into %s: ", path);
	out_u64(o, "imported", "%llu run(s) copied", r->imported);
	if (r->imported) {
		out_i64(o, "first", " as %lld", r->first);
		out_i64(o, "last", r->last != r->first ? "-%lld" : NULL, r->last);
	}
	out_u64(o, "skipped", ", %llu already there (the same UUID)\n", r->skipped);
}

void runs_print_upgrade(struct out *o, const char *path, int64_t was)
{
	out_str(o, "db", "database %s: ", path);
	out_i64(o, "schema_version", "schema version %lld", DB_SCHEMA_VERSION);
	out_i64(o, "was", NULL, was);
	if (was == DB_SCHEMA_VERSION)
		out_text(o, ", already current\n");
	else if (was == 0)
		out_text(o, ", created in the empty file\n");
	else
		out_text(o, ", upgraded from %lld\n", (long long)was);
}

void runs_print_removed(struct out *o, const int64_t *ids, size_t n)
{
	out_arr_start(o, "removed");
	for (size_t i = 0; i < n; i++)
		out_i64(o, NULL, "deleted run %lld\n", ids[i]);
	out_arr_end(o);
}

void runs_print_doc(json_object *doc)
{
	out_json_put_value(stdout, doc);
	putchar('\n');
}

void runs_print_done(struct out *o, const struct app_runs_done *d)
{
	switch (d->sub) {
	case APP_RUNS_SHOW:
	case APP_RUNS_EXPORT:
		if (o)
			runs_print_show(o, d->doc);
		else
			runs_print_doc(d->doc);
		break;
	case APP_RUNS_IMPORT:
		runs_print_import(o, d->path, &d->r);
		break;
	case APP_RUNS_SYNC:
		runs_print_sync(o, d->from, d->path, &d->r);
		break;
	case APP_RUNS_RM:
		runs_print_removed(o, d->ids, d->n);
		break;
	case APP_RUNS_UPGRADE:
		runs_print_upgrade(o, d->path, d->was);
		break;
	case APP_RUNS_LIST:
		break;
	}
}
