#include "store/db_export.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "store/db.h"
#include "store/sql.h"

/* A run's tables: (table, the column naming its parent). */
static const char *const run_children[][2] = {
	{ "tags", "run_id" }, { "env", "run_id" }, { "results", "run_id" }, { "loss_steps", "run_id" },
	{ "goal_results", "run_id" },
};
static const char *const trial_children[][2] = {
	{ "trial_cpu", "cpu" }, { "trial_loss_dir", "loss_dir" }, { "trial_loss", "loss" },
	{ "trial_profile", "profile" }, { "stream_trial", "stream" },
	{ "trial_output", "output" },
};
#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

static json_object *column_value(struct sql_st *st, int i)
{
	switch (sql_col_type(st, i)) {
	case SQL_INT:
		return json_object_new_int64(sql_col_int(st, i));
	case SQL_FLOAT:
		return json_object_new_double(sql_col_double(st, i));
	case SQL_TEXT:
		return json_object_new_string_len(sql_col_text(st, i), (int)sql_col_len(st, i));
	default:
		return NULL;	/* null (a blob is none of ours) */
	}
}

/* Every row of table whose key column is id, without that column, into
 * arr (in the order they were stored: SQLite's rowid, PostgreSQL's row
 * position, which only an update moves); each row's "id" kept. */
static int dump(struct sql *h, const char *table, const char *key, int64_t id, json_object *arr, char *err,
		size_t errlen)
{
	char sql[160];
	struct sql_st *st;
	int rc;

	snprintf(sql, sizeof(sql), "SELECT * FROM %s WHERE %s = ? ORDER BY %s", table, key,
		 sql_kind(h) == SQL_PG ? "ctid" : "rowid");
	if (sql_prepare(h, sql, &st)) {
		snprintf(err, errlen, "reading %s: %s", table, sql_errmsg(h));
		return -EIO;
	}
	sql_bind_int(st, 1, id);
	while ((rc = sql_step(st)) == 1) {
		json_object *o = json_object_new_object();

		for (int i = 0; i < sql_ncols(st); i++)
			if (strcmp(sql_col_name(st, i), key))
				json_object_object_add(o, sql_col_name(st, i), column_value(st, i));
		json_object_array_add(arr, o);
	}
	sql_finalize(st);
	if (rc) {
		snprintf(err, errlen, "reading %s: %s", table, sql_errmsg(h));
		return -EIO;
	}
	return 0;
}

static int export_run(struct sql *h, int64_t id, json_object *runs, char *err, size_t errlen)
{
	json_object *one = json_object_new_object(), *arr = json_object_new_array(), *trials;
	int rc;

	json_object_array_add(runs, one);
	if ((rc = dump(h, "runs", "id", id, arr, err, errlen)))
		goto out;
	if (json_object_array_length(arr) != 1) {
		snprintf(err, errlen, "no run %" PRId64, id);
		rc = -ENOENT;
		goto out;
	}
	json_object_object_add(one, "run", json_object_get(json_object_array_get_idx(arr, 0)));
	json_object_object_add(json_object_object_get(one, "run"), "id", json_object_new_int64(id));
	for (size_t k = 0; k < NELEM(run_children); k++) {
		json_object *a = json_object_new_array();

		json_object_object_add(one, run_children[k][0], a);
		if ((rc = dump(h, run_children[k][0], run_children[k][1], id, a, err, errlen)))
			goto out;
	}
	trials = json_object_new_array();
	json_object_object_add(one, "trials", trials);
	if ((rc = dump(h, "trials", "run_id", id, trials, err, errlen)))
		goto out;
	for (size_t t = 0; t < json_object_array_length(trials); t++) {
		json_object *tr = json_object_array_get_idx(trials, t), *tid;

		if (!json_object_object_get_ex(tr, "id", &tid))
			continue;
		for (size_t k = 0; k < NELEM(trial_children); k++) {
			json_object *a = json_object_new_array();

			json_object_object_add(tr, trial_children[k][1], a);
			if ((rc = dump(h, trial_children[k][0], "trial_id", json_object_get_int64(tid), a, err, errlen)))
				goto out;
		}
	}
out:
	json_object_put(arr);
	return rc;
}

int db_export_write(struct db *db, const int64_t *ids, size_t n, const char *version, struct json_object **doc, char *err,
	      size_t errlen)
{
	struct sql *h = db_sql(db);
	json_object *d = json_object_new_object(), *hdr = json_object_new_object(), *runs = json_object_new_array();
	int rc = 0;

	json_object_object_add(hdr, "export", json_object_new_int(DB_EXPORT_FORMAT));
	json_object_object_add(hdr, "schema", json_object_new_int(DB_SCHEMA_VERSION));
	json_object_object_add(hdr, "version", json_object_new_string(version));
	json_object_object_add(d, "wirerate", hdr);
	json_object_object_add(d, "runs", runs);
	/* one snapshot of the store for all of them */
	if (sql_exec(h, sql_kind(h) == SQL_PG ? "BEGIN ISOLATION LEVEL REPEATABLE READ" : "BEGIN")) {
		snprintf(err, errlen, "reading the store: %s", sql_errmsg(h));
		json_object_put(d);
		return -EIO;
	}
	for (size_t i = 0; i < n && !rc; i++)
		rc = export_run(h, ids[i], runs, err, errlen);
	sql_exec(h, "COMMIT");
	if (rc) {
		json_object_put(d);
		return rc;
	}
	*doc = d;
	return 0;
}

/* ---- import ---- */

/* Whether table has a column called name (the store's own schema says). */
static bool has_column(struct sql *h, const char *table, const char *name)
{
	char sql[160];
	struct sql_st *st;
	bool found = false;

	if (sql_kind(h) == SQL_PG)
		snprintf(sql, sizeof(sql), "SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema()"
			 " AND table_name = '%s' AND column_name = ?", table);
	else
		snprintf(sql, sizeof(sql), "SELECT 1 FROM pragma_table_info('%s') WHERE name = ?", table);
	if (sql_prepare(h, sql, &st))
		return false;
	sql_bind_str(st, 1, name);
	found = sql_step(st) == 1;
	sql_finalize(st);
	return found;
}

static bool is_child_key(const char *table, const char *key)
{
	if (!strcmp(table, "runs"))
		return false;
	if (!strcmp(table, "trials"))
		for (size_t k = 0; k < NELEM(trial_children); k++)
			if (!strcmp(key, trial_children[k][1]))
				return true;
	return false;
}

#define MAX_COLUMNS 48

/* Insert row (an object of column: value) into table, with parent_col set
 * to parent (parent_col NULL: none); its "id" is left to the store. The
 * new rowid in *id. */
static int insert(struct sql *h, const char *table, json_object *row, const char *parent_col, int64_t parent,
		  int64_t *id, char *err, size_t errlen)
{
	const char *cols[MAX_COLUMNS];
	json_object *vals[MAX_COLUMNS];
	char sql[4096];
	size_t n = 0, off;
	struct sql_st *st;
	bool with_id = !strcmp(table, "runs") || !strcmp(table, "trials");
	int rc;

	if (!json_object_is_type(row, json_type_object)) {
		snprintf(err, errlen, "a row of %s is not an object", table);
		return -EINVAL;
	}
	json_object_object_foreach(row, key, val) {
		if (!strcmp(key, "id") || is_child_key(table, key) || (parent_col && !strcmp(key, parent_col)))
			continue;
		if (!has_column(h, table, key)) {
			char q[64];

			snprintf(q, sizeof(q), "%.40s%s", key, strlen(key) > 40 ? "..." : "");
			for (char *c = q; *c; c++)
				if (*c < 0x20 || *c > 0x7e)
					*c = '?';
			snprintf(err, errlen, "the store's %s have no column '%s'", table, q);
			return -EINVAL;
		}
		if (n == MAX_COLUMNS) {
			snprintf(err, errlen, "a row of %s has too many columns", table);
			return -EINVAL;
		}
		if (val && !json_object_is_type(val, json_type_int) && !json_object_is_type(val, json_type_double) &&
		    !json_object_is_type(val, json_type_string)) {
			snprintf(err, errlen, "%s.%s: a number, a string or null, not %s", table, key,
				 json_type_to_name(json_object_get_type(val)));
			return -EINVAL;
		}
		if (val && json_object_is_type(val, json_type_string) &&
		    json_object_get_string_len(val) > DB_EXPORT_TEXT_MAX) {
			snprintf(err, errlen, "%s.%s: a text of over %d bytes", table, key, DB_EXPORT_TEXT_MAX);
			return -EINVAL;
		}
		if (val && json_object_is_type(val, json_type_string) &&
		    strlen(json_object_get_string(val)) != (size_t)json_object_get_string_len(val)) {
			/* stored whole, shown cut at the NUL: what is shown is not what is stored */
			snprintf(err, errlen, "%s.%s: a text with a NUL byte", table, key);
			return -EINVAL;
		}
		cols[n] = key;
		vals[n++] = val;
	}
	off = (size_t)snprintf(sql, sizeof(sql), "INSERT INTO %s (", table);
	if (parent_col)
		off += (size_t)snprintf(sql + off, sizeof(sql) - off, "%s%s", parent_col, n ? "," : "");
	for (size_t i = 0; i < n; i++)
		off += (size_t)snprintf(sql + off, sizeof(sql) - off, "\"%s\"%s", cols[i], i + 1 < n ? "," : "");
	off += (size_t)snprintf(sql + off, sizeof(sql) - off, ") VALUES (");
	for (size_t i = 0; i < n + (parent_col != NULL); i++)
		off += (size_t)snprintf(sql + off, sizeof(sql) - off, "?%s", i + 1 < n + (parent_col != NULL) ? "," : "");
	snprintf(sql + off, sizeof(sql) - off, ")%s", with_id ? " RETURNING id" : "");
	if (sql_prepare(h, sql, &st)) {
		snprintf(err, errlen, "storing a row of %s: %s", table, sql_errmsg(h));
		return -EINVAL;
	}
	int b = 1;

	if (parent_col)
		sql_bind_int(st, b++, parent);
	for (size_t i = 0; i < n; i++, b++) {
		json_object *v = vals[i];

		if (!v)
			sql_bind_null(st, b);
		else if (json_object_is_type(v, json_type_int))
			sql_bind_int(st, b, json_object_get_int64(v));
		else if (json_object_is_type(v, json_type_double))
			sql_bind_double(st, b, json_object_get_double(v));
		else
			sql_bind_text(st, b, json_object_get_string(v), (size_t)json_object_get_string_len(v));
	}
	rc = sql_step(st);
	*id = rc == 1 ? sql_col_int(st, 0) : 0;
	sql_finalize(st);
	if (rc < 0 || (with_id && rc != 1)) {
		snprintf(err, errlen, "the store refused a row of %s: %s", table, sql_errmsg(h));
		return -EINVAL;
	}
	return 0;
}

static json_object *array_of(json_object *o, const char *key)
{
	json_object *a;

	if (!json_object_object_get_ex(o, key, &a) || !json_object_is_type(a, json_type_array))
		return NULL;
	return a;
}

/* The run with this UUID, 0 when none. */
static int64_t run_by_uuid(struct sql *h, const char *uuid)
{
	struct sql_st *st;
	int64_t id = 0;

	if (!uuid || !*uuid || sql_prepare(h, "SELECT id FROM runs WHERE uuid = ?", &st))
		return 0;
	sql_bind_str(st, 1, uuid);
	if (sql_step(st) == 1)
		id = sql_col_int(st, 0);
	sql_finalize(st);
	return id;
}

/* A UUID as db_uuid writes it: 8-4-4-4-12 hex digits. Anything else in
 * the uuid column could pose as a label ("baseline") or another run. */
static bool is_uuid(const char *s)
{
	if (strlen(s) != 36)
		return false;
	for (int i = 0; i < 36; i++)
		if (i == 8 || i == 13 || i == 18 || i == 23 ? s[i] != '-' : !isxdigit((unsigned char)s[i]))
			return false;
	return true;
}

static int import_run(struct sql *h, json_object *one, struct db_import_result *r, char *err, size_t errlen)
{
	json_object *run, *uuid = NULL, *trials;
	int64_t id, tid, unused;
	int rc;

	if (!json_object_is_type(one, json_type_object) || !json_object_object_get_ex(one, "run", &run) ||
	    !json_object_is_type(run, json_type_object)) {
		snprintf(err, errlen, "a run without its \"run\" object");
		return -EINVAL;
	}
	if (json_object_object_get_ex(run, "uuid", &uuid) && uuid &&
	    (!json_object_is_type(uuid, json_type_string) ||
	     (json_object_get_string_len(uuid) && !is_uuid(json_object_get_string(uuid))))) {
		snprintf(err, errlen, "run.uuid: not a UUID (8-4-4-4-12 hex digits)");
		return -EINVAL;
	}
	if (uuid && run_by_uuid(h, json_object_get_string(uuid))) {
		r->skipped++;
		return 0;
	}
	if ((rc = insert(h, "runs", run, NULL, 0, &id, err, errlen)))
		return rc;
	/* a run that had none gets its UUID here */
	struct sql_st *st;
	char fresh[37];

	db_uuid(fresh);
	if (!sql_prepare(h, "UPDATE runs SET uuid = ? WHERE id = ? AND uuid = ''", &st)) {
		sql_bind_str(st, 1, fresh);
		sql_bind_int(st, 2, id);
		sql_step(st);
		sql_finalize(st);
	}
	/* Nothing imported runs here: a run another store had as running
	 * ended unfinished (the schema's CHECK refuses unknown statuses). */
	if (!sql_prepare(h, "UPDATE runs SET status = 'interrupted' WHERE id = ? AND status = 'running'", &st)) {
		sql_bind_int(st, 1, id);
		sql_step(st);
		sql_finalize(st);
	}
	for (size_t k = 0; k < NELEM(run_children); k++) {
		json_object *a = array_of(one, run_children[k][0]);

		for (size_t i = 0; a && i < json_object_array_length(a); i++)
			if ((rc = insert(h, run_children[k][0], json_object_array_get_idx(a, i), "run_id", id, &unused,
					 err, errlen)))
				return rc;
	}
	trials = array_of(one, "trials");
	for (size_t t = 0; trials && t < json_object_array_length(trials); t++) {
		json_object *tr = json_object_array_get_idx(trials, t);

		if ((rc = insert(h, "trials", tr, "run_id", id, &tid, err, errlen)))
			return rc;
		for (size_t k = 0; k < NELEM(trial_children); k++) {
			json_object *a = array_of(tr, trial_children[k][1]);

			for (size_t i = 0; a && i < json_object_array_length(a); i++)
				if ((rc = insert(h, trial_children[k][0], json_object_array_get_idx(a, i), "trial_id", tid,
						 &unused, err, errlen)))
					return rc;
		}
	}
	if (!r->first)
		r->first = id;
	r->last = id;
	r->imported++;
	return 0;
}

int db_export_read(struct db *db, struct json_object *doc, struct db_import_result *r, char *err, size_t errlen)
{
	struct sql *h = db_sql(db);
	json_object *hdr, *fmt, *runs;
	int rc = 0;

	memset(r, 0, sizeof(*r));
	if (!json_object_is_type(doc, json_type_object) || !json_object_object_get_ex(doc, "wirerate", &hdr) ||
	    !json_object_object_get_ex(hdr, "export", &fmt) || !json_object_is_type(fmt, json_type_int)) {
		snprintf(err, errlen, "not a wirerate export (no \"wirerate\": {\"export\": N})");
		return -EINVAL;
	}
	if (json_object_get_int64(fmt) != DB_EXPORT_FORMAT) {
		snprintf(err, errlen, "export format %" PRId64 ", this build reads %d", json_object_get_int64(fmt),
			 DB_EXPORT_FORMAT);
		return -EINVAL;
	}
	if (!(runs = array_of(doc, "runs"))) {
		snprintf(err, errlen, "no \"runs\" array");
		return -EINVAL;
	}
	if (sql_exec(h, sql_kind(h) == SQL_PG ? "BEGIN" : "BEGIN IMMEDIATE")) {
		snprintf(err, errlen, "locking the store: %s", sql_errmsg(h));
		return -EIO;
	}
	for (size_t i = 0; i < json_object_array_length(runs) && !rc; i++) {
		rc = import_run(h, json_object_array_get_idx(runs, i), r, err, errlen);
		if (rc) {
			size_t l = strlen(err);

			snprintf(err + l, errlen > l ? errlen - l : 0, " (run %zu of the file)", i + 1);
		}
	}
	if (!rc && sql_exec(h, "COMMIT")) {
		snprintf(err, errlen, "committing: %s", sql_errmsg(h));
		rc = -EIO;
	}
	if (rc) {
		sql_exec(h, "ROLLBACK");
		memset(r, 0, sizeof(*r));
	}
	return rc;
}
