/* The runs list and the newest run of a tag. */
#include "store/db_runs.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "store/sql.h"

static int failed(struct db *db, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s", sql_errmsg(db_sql(db)));
	return -EIO;
}

int db_runs_list(struct db *db, const struct db_run_filter *f,
		 int (*fn)(void *ctx, const struct db_run_row *r), void *ctx, char *err, size_t errlen)
{
	struct sql_st *st = NULL;
	char q[1024];
	int rc = 0, step;

	/* the tags in the order they were given: SQLite's rowid, or
	 * PostgreSQL's row position (tags are never updated) */
	snprintf(q, sizeof(q),
		 "SELECT r.id, r.started, r.label, r.test, r.sizes, r.status, r.pid, r.boot_id, r.headline,"
		 " r.repeats, r.config, (SELECT %s FROM tags WHERE run_id = r.id),"
		 " (SELECT count(*) FROM trials WHERE run_id = r.id),"
		 " (SELECT value FROM env WHERE run_id = r.id AND key = 'host.name'),"
		 " (SELECT value FROM env WHERE run_id = r.id AND key = 'dut.name'), r.uuid"
		 " FROM runs r WHERE (?1 IS NULL OR r.label = ?1)"
		 " AND (?2 IS NULL OR EXISTS (SELECT 1 FROM tags WHERE run_id = r.id AND tag = ?2))"
		 " AND r.started >= ?3"
		 " AND (?4 IS NULL OR EXISTS (SELECT 1 FROM env WHERE run_id = r.id AND key = 'dut.name'"
		 "  AND value = ?4)) ORDER BY r.started, r.id",
		 sql_kind(db_sql(db)) == SQL_PG ? "string_agg(tag, ',' ORDER BY ctid)" : "group_concat(tag, ',')");
	if (sql_prepare(db_sql(db), q, &st))
		return failed(db, err, errlen);
	sql_bind_str(st, 1, f->label);
	sql_bind_str(st, 2, f->tag);
	sql_bind_int(st, 3, f->since);
	sql_bind_str(st, 4, f->dut);
	while (!rc && (step = sql_step(st)) == 1) {
		struct db_run_row r = {
			.id = sql_col_int(st, 0), .started = sql_col_int(st, 1),
			.label = sql_col_text(st, 2), .test = sql_col_text(st, 3), .sizes = sql_col_text(st, 4),
			.status = sql_col_text(st, 5), .pid = sql_col_int(st, 6), .boot_id = sql_col_text(st, 7),
			.headline = sql_col_text(st, 8), .repeats = sql_col_int(st, 9), .config = sql_col_text(st, 10),
			.tags = sql_col_text(st, 11), .ntrials = sql_col_int(st, 12), .tester = sql_col_text(st, 13),
			.dut = sql_col_text(st, 14), .uuid = sql_col_text(st, 15),
		};

		rc = fn(ctx, &r);
	}
	if (!rc && step < 0)
		rc = failed(db, err, errlen);
	sql_finalize(st);
	return rc;
}

int db_runs_tag_newest(struct db *db, const char *tag, int64_t *id, char *err, size_t errlen)
{
	struct sql_st *st = NULL;

	*id = 0;
	if (sql_prepare(db_sql(db), "SELECT max(run_id) FROM tags WHERE tag = ?1", &st))
		return failed(db, err, errlen);
	sql_bind_str(st, 1, tag);
	if (sql_step(st) == 1)
		*id = sql_col_int(st, 0);
	sql_finalize(st);
	return 0;
}

int db_runs_env(struct db *db, int64_t id, int (*fn)(void *ctx, const char *key, const char *value), void *ctx,
	       char *err, size_t errlen)
{
	struct sql_st *st = NULL;
	int rc = 0, step;

	if (sql_prepare(db_sql(db), "SELECT key, value FROM env WHERE run_id = ?1 ORDER BY key", &st))
		return failed(db, err, errlen);
	sql_bind_int(st, 1, id);
	while (!rc && (step = sql_step(st)) == 1)
		rc = fn(ctx, sql_col_text(st, 0), sql_col_text(st, 1));
	if (!rc && step < 0)
		rc = failed(db, err, errlen);
	sql_finalize(st);
	return rc;
}
