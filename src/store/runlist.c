/* The runs list and the newest run of a tag. */
#include "store/runlist.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <sqlite3.h>

static const char *col(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);

	return t ? (const char *)t : "";
}

int db_runs_list(struct db *db, const struct db_run_filter *f,
		 int (*fn)(void *ctx, const struct db_run_row *r), void *ctx, char *err, size_t errlen)
{
	sqlite3_stmt *st = NULL;
	int rc = 0;

	if (sqlite3_prepare_v2(db_sqlite(db),
			"SELECT r.id, r.started, r.label, r.test, r.sizes, r.status, r.pid, r.boot_id, r.headline,"
			" r.repeats, r.config, (SELECT group_concat(tag, ',') FROM tags WHERE run_id = r.id),"
			" (SELECT count(*) FROM trials WHERE run_id = r.id)"
			" FROM runs r WHERE (?1 IS NULL OR r.label = ?1)"
			" AND (?2 IS NULL OR EXISTS (SELECT 1 FROM tags WHERE run_id = r.id AND tag = ?2))"
			" AND r.started >= ?3"
			" AND (?4 IS NULL OR EXISTS (SELECT 1 FROM env WHERE run_id = r.id AND key = 'dut.name'"
			"  AND value = ?4)) ORDER BY r.started, r.id", -1, &st, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "%s", sqlite3_errmsg(db_sqlite(db)));
		return -EIO;
	}
	if (f->label)
		sqlite3_bind_text(st, 1, f->label, -1, SQLITE_STATIC);
	if (f->tag)
		sqlite3_bind_text(st, 2, f->tag, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, f->since);
	if (f->dut)
		sqlite3_bind_text(st, 4, f->dut, -1, SQLITE_STATIC);
	while (!rc && sqlite3_step(st) == SQLITE_ROW) {
		struct db_run_row r = {
			.id = sqlite3_column_int64(st, 0), .started = sqlite3_column_int64(st, 1),
			.label = col(st, 2), .test = col(st, 3), .sizes = col(st, 4), .status = col(st, 5),
			.pid = sqlite3_column_int64(st, 6), .boot_id = col(st, 7), .headline = col(st, 8),
			.repeats = sqlite3_column_int64(st, 9), .config = col(st, 10), .tags = col(st, 11),
			.ntrials = sqlite3_column_int64(st, 12),
		};

		rc = fn(ctx, &r);
	}
	sqlite3_finalize(st);
	return rc;
}

int db_tag_newest(struct db *db, const char *tag, int64_t *id, char *err, size_t errlen)
{
	sqlite3_stmt *st = NULL;

	*id = 0;
	if (sqlite3_prepare_v2(db_sqlite(db), "SELECT max(run_id) FROM tags WHERE tag = ?1", -1, &st, NULL) !=
	    SQLITE_OK) {
		snprintf(err, errlen, "%s", sqlite3_errmsg(db_sqlite(db)));
		return -EIO;
	}
	sqlite3_bind_text(st, 1, tag, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		*id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return 0;
}

int db_run_env(struct db *db, int64_t id, int (*fn)(void *ctx, const char *key, const char *value), void *ctx,
	       char *err, size_t errlen)
{
	sqlite3_stmt *st = NULL;
	int rc = 0, step;

	if (sqlite3_prepare_v2(db_sqlite(db), "SELECT key, value FROM env WHERE run_id = ?1 ORDER BY key", -1, &st,
			       NULL) != SQLITE_OK) {
		snprintf(err, errlen, "%s", sqlite3_errmsg(db_sqlite(db)));
		return -EIO;
	}
	sqlite3_bind_int64(st, 1, id);
	while (!rc && (step = sqlite3_step(st)) == SQLITE_ROW)
		rc = fn(ctx, col(st, 0), col(st, 1));
	if (!rc && step != SQLITE_DONE) {
		snprintf(err, errlen, "%s", sqlite3_errmsg(db_sqlite(db)));
		rc = -EIO;
	}
	sqlite3_finalize(st);
	return rc;
}
