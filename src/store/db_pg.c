#include "store/db_pg.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "store/db.h"
#include "store/db_schema.h"
#include "store/sql.h"

/* The advisory lock keys: the schema's maker, and a run's writer (the
 * application id in the high half, the run id in the low one). */
#define LOCK_SCHEMA ((int64_t)DB_APPLICATION_ID << 32)
#define LOCK_RUN(id) (((int64_t)(DB_APPLICATION_ID + 1) << 32) | ((id) & 0xffffffffLL))

bool db_pg_is_uri(const char *path)
{
	return !strncmp(path, "postgresql://", 13) || !strncmp(path, "postgres://", 11);
}

/* A password written into the URI would be in the process list (from
 * --db) and wherever the URI is shown: it must come from libpq's own
 * places instead. */
static int check_uri(const char *uri, char *err, size_t errlen)
{
	char *perr = NULL;
	PQconninfoOption *opts = PQconninfoParse(uri, &perr);
	int rc = 0;

	if (!opts) {
		size_t n = perr ? strcspn(perr, "\n") : 0;

		snprintf(err, errlen, "database %s: not a PostgreSQL URI (%.*s)", uri, (int)n, perr ? perr : "");
		PQfreemem(perr);
		return -EINVAL;
	}
	for (PQconninfoOption *o = opts; o->keyword; o++)
		if (!strcmp(o->keyword, "password") && o->val && *o->val) {
			snprintf(err, errlen, "the database URI holds a password, which anyone can read in the process list: "
				 "put it in ~/.pgpass (or PGPASSFILE, or a service file) and leave it out of the URI");
			rc = -EINVAL;
		}
	PQconninfoFree(opts);
	return rc;
}

static int64_t one_int(struct sql *c, const char *q, const char *arg, int *rc)
{
	struct sql_st *st;
	int64_t v = -1;

	if ((*rc = sql_prepare(c, q, &st)))
		return -1;
	if (arg)
		sql_bind_str(st, 1, arg);
	*rc = sql_step(st);
	if (*rc == 1) {
		v = sql_col_int(st, 0);
		*rc = 0;
	} else if (*rc == 0) {
		*rc = -ENOENT;
	}
	sql_finalize(st);
	return v;
}

#define IN_SCHEMA "n.oid = c.relnamespace AND n.nspname = current_schema()"

/* Every table and view of the schema is one that wirerate's makes; no
 * trigger (it would run on our writes) and no rule (it could send them
 * elsewhere) is on any of them. */
static int check_objects(struct sql *c, const char *uri, int64_t v, char *err, size_t errlen)
{
	char tables[1024] = "wirerate_meta,";
	struct sql_st *st;
	int rc;

	if ((rc = db_schema_tables(v, tables + strlen(tables), sizeof(tables) - strlen(tables), err, errlen)))
		return rc;
	/* the first relation that is not one of the schema's tables */
	if ((rc = sql_prepare(c, "SELECT c.relname, c.relkind FROM pg_class c, pg_namespace n WHERE " IN_SCHEMA
			      " AND c.relkind IN ('r', 'v', 'm', 'p', 'f')"
			      " AND NOT (c.relkind = 'r' AND c.relname = ANY (string_to_array(?1, ','))) LIMIT 1", &st)))
		goto fail;
	sql_bind_str(st, 1, tables);
	if ((rc = sql_step(st)) == 1) {
		snprintf(err, errlen, "database %s has a %s '%s' that wirerate's schema does not make: refused "
			 "(left untouched; give another --db)", uri, !strcmp(sql_col_text(st, 1), "r") ? "table" : "view",
			 sql_col_text(st, 0));
		sql_finalize(st);
		return -EINVAL;
	}
	sql_finalize(st);
	if (rc)
		goto fail;
	if ((rc = sql_prepare(c, "SELECT 'trigger', t.tgname FROM pg_trigger t, pg_class c, pg_namespace n"
			      " WHERE t.tgrelid = c.oid AND " IN_SCHEMA " AND NOT t.tgisinternal"
			      " UNION ALL SELECT 'rule', rulename FROM pg_rules WHERE schemaname = current_schema()",
			      &st)))
		goto fail;
	if ((rc = sql_step(st)) == 1) {
		snprintf(err, errlen, "database %s has a %s '%s' that wirerate's schema does not make: refused "
			 "(left untouched; give another --db)", uri, sql_col_text(st, 0), sql_col_text(st, 1));
		sql_finalize(st);
		return -EINVAL;
	}
	sql_finalize(st);
	if (!rc)
		return 0;
fail:
	snprintf(err, errlen, "database %s: reading its catalog: %s", uri, sql_errmsg(c));
	return -EIO;
}

/* Ours, empty, or refused, as check_owner does for a file; inside one
 * snapshot. *ntab: the tables and views in the schema. */
static int check_owner(struct sql *c, const char *uri, int64_t *version, int64_t *ntab, char *err, size_t errlen)
{
	int rc;
	int64_t app = 0;

	*version = 0;
	*ntab = one_int(c, "SELECT count(*) FROM pg_class c, pg_namespace n WHERE " IN_SCHEMA
			" AND c.relkind IN ('r', 'v', 'm', 'p', 'f')", NULL, &rc);
	if (rc) {
		snprintf(err, errlen, "database %s: reading its catalog: %s", uri, sql_errmsg(c));
		return -EIO;
	}
	if (!*ntab)
		return 0;
	if (one_int(c, "SELECT count(*) FROM pg_class c, pg_namespace n WHERE " IN_SCHEMA
		    " AND c.relkind = 'r' AND c.relname = 'wirerate_meta'", NULL, &rc) == 1) {
		app = one_int(c, "SELECT CAST(value AS BIGINT) FROM wirerate_meta WHERE key = 'application_id'", NULL, &rc);
		if (!rc)
			*version = one_int(c, "SELECT CAST(value AS BIGINT) FROM wirerate_meta WHERE key = 'schema_version'",
					   NULL, &rc);
		if (rc)
			app = 0;
	}
	if (app != DB_APPLICATION_ID) {
		snprintf(err, errlen, "database %s holds %" PRId64 " tables of another program (no wirerate_meta "
			 "naming wirerate); left untouched; give another --db", uri, *ntab);
		return -EINVAL;
	}
	if (*version > DB_SCHEMA_VERSION) {
		snprintf(err, errlen, "database %s has schema version %" PRId64 ", newer than this wirerate's %d: "
			 "use a newer wirerate", uri, *version, DB_SCHEMA_VERSION);
		return -EPROTO;
	}
	if (*version < 5) {
		/* The PostgreSQL store began at version 5: an older one
		 * was not made by wirerate. */
		snprintf(err, errlen, "database %s has schema version %" PRId64 ", which wirerate never made on "
			 "PostgreSQL; left untouched; give another --db", uri, *version);
		return -EINVAL;
	}
	return check_objects(c, uri, *version, err, errlen);
}

static int check_owner_once(struct sql *c, const char *uri, int64_t *version, int64_t *ntab, char *err,
			    size_t errlen)
{
	int rc;

	if (sql_exec(c, "BEGIN ISOLATION LEVEL REPEATABLE READ")) {
		snprintf(err, errlen, "database %s: %s", uri, sql_errmsg(c));
		return -EIO;
	}
	rc = check_owner(c, uri, version, ntab, err, errlen);
	sql_exec(c, "ROLLBACK");
	return rc;
}

/* The migrations from a version (5 and on) to the next, as for a file. */
static const char *migration(int64_t from)
{
	return from == 5 ? db_migrate_5_6 : from == 6 ? db_migrate_6_7 : from == 7 ? db_migrate_7_8 : NULL;
}

/* Make the schema, or bring an older one up to date, under the lock,
 * unless another tester did while we waited for it. */
static int create(struct sql *c, const char *uri, char *err, size_t errlen)
{
	char lock[96], meta[256];
	char *ddl = NULL;
	int64_t version, ntab;
	int rc;

	snprintf(lock, sizeof(lock), "SELECT pg_advisory_xact_lock(%" PRId64 ")", LOCK_SCHEMA);
	snprintf(meta, sizeof(meta),
		 "CREATE TABLE wirerate_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
		 "INSERT INTO wirerate_meta VALUES ('application_id', '%d'), ('schema_version', '%d')",
		 DB_APPLICATION_ID, DB_SCHEMA_VERSION);
	if ((rc = sql_exec(c, "BEGIN")) || (rc = sql_exec(c, lock)))
		goto fail;
	if ((rc = check_owner(c, uri, &version, &ntab, err, errlen))) {
		sql_exec(c, "ROLLBACK");
		return rc;
	}
	if (!ntab) {
		if (!(ddl = sql_pg_ddl(db_schema_sql(DB_SCHEMA_VERSION)))) {
			sql_exec(c, "ROLLBACK");
			snprintf(err, errlen, "out of memory");
			return -ENOMEM;
		}
		if ((rc = sql_exec(c, ddl)) || (rc = sql_exec(c, meta)))
			goto fail;
	}
	for (int64_t v = ntab ? version : DB_SCHEMA_VERSION; v < DB_SCHEMA_VERSION; v++) {
		char set[128];

		free(ddl);
		if (!migration(v) || !(ddl = sql_pg_ddl(migration(v)))) {
			ddl = NULL;
			sql_exec(c, "ROLLBACK");
			snprintf(err, errlen, "database %s: no migration from schema version %lld", uri, (long long)v);
			return -EPROTO;
		}
		snprintf(set, sizeof(set), "UPDATE wirerate_meta SET value = '%lld' WHERE key = 'schema_version'",
			 (long long)v + 1);
		if ((rc = sql_exec(c, ddl)) || (rc = sql_exec(c, set)))
			goto fail;
	}
	free(ddl);
	if ((rc = sql_exec(c, "COMMIT")))
		goto fail;
	return 0;
fail:
	free(ddl);
	snprintf(err, errlen, "database %s: making the schema: %s", uri, sql_errmsg(c));
	sql_exec(c, "ROLLBACK");
	return rc == -EACCES ? -EACCES : -EIO;
}

int db_pg_open(const char *uri, bool write, struct sql **out, int64_t *found, char *err, size_t errlen)
{
	char e2[512];
	struct sql *c;
	int64_t version, ntab;
	int rc;

	*out = NULL;
	*found = 0;
	if ((rc = check_uri(uri, err, errlen)))
		return rc;
	if ((rc = sql_pg_connect(uri, !write, &c, e2, sizeof(e2)))) {
		snprintf(err, errlen, "database %s: %s", uri, e2);
		return rc;
	}
	if ((rc = check_owner_once(c, uri, &version, &ntab, err, errlen)))
		goto fail;
	*found = version;
	/* An empty database is a new store, as an empty file is: a writer
	 * makes the schema in it (runs upgrade too), a reader finds none. */
	if (!ntab && !write) {
		snprintf(err, errlen, "database %s holds no wirerate store (nothing stored yet)", uri);
		rc = -ENOENT;
		goto fail;
	}
	if (ntab && version < DB_SCHEMA_VERSION && !write) {
		snprintf(err, errlen, "database %s has schema version %lld, older than this wirerate's %d, and this "
			 "command only reads: upgrade it with 'wirerate runs upgrade --db %s'", uri, (long long)version,
			 DB_SCHEMA_VERSION, uri);
		rc = -ESTALE;
		goto fail;
	}
	if ((!ntab || version < DB_SCHEMA_VERSION) && (rc = create(c, uri, err, errlen)))
		goto fail;
	*out = c;
	return 0;
fail:
	sql_close(c);
	return rc;
}

int db_pg_run_lock(struct sql *c, int64_t run, bool lock)
{
	struct sql_st *st;
	int rc;

	if ((rc = sql_prepare(c, lock ? "SELECT pg_advisory_lock(?1)" : "SELECT pg_advisory_unlock(?1)", &st)))
		return rc;
	sql_bind_int(st, 1, LOCK_RUN(run));
	rc = sql_step(st);
	sql_finalize(st);
	return rc < 0 ? rc : 0;
}

int db_pg_run_alive(struct sql *c, int64_t run)
{
	struct sql_st *st;
	int rc;

	if ((rc = sql_prepare(c, "SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted"
			      " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
			      " AND objsubid = 1 AND CAST(classid AS BIGINT) * 4294967296 + CAST(objid AS BIGINT) = ?1)",
			      &st)))
		return rc;
	sql_bind_int(st, 1, LOCK_RUN(run));
	rc = sql_step(st);
	if (rc == 1)
		rc = sql_col_int(st, 0) ? 1 : 0;
	else if (rc == 0)
		rc = -EIO;
	sql_finalize(st);
	return rc;
}
