/* A store opened: an SQLite file checked before and after SQLite opens
 * it (a database of ours, or nothing yet), its schema created or
 * migrated under a write lock, WAL set up; a reader that never writes,
 * through an immutable URI where the directory is read-only; or a
 * PostgreSQL server (db_pg.c). db_open and db_open_read (db.h). */
#include "store/db_impl.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store/db_pg.h"
#include "store/db_schema.h"
#include "store/sql.h"
#include "os/fs.h"

static int exec(sqlite3 *h, const char *sql, const char *what, char *err, size_t errlen)
{
	if (sqlite3_exec(h, sql, NULL, NULL, NULL) != SQLITE_OK)
		return db_sqlerr(h, what, err, errlen);
	return 0;
}

/* Changing the journal mode takes an exclusive lock without waiting in
 * SQLite's busy handler: two processes opening a new file at once must
 * wait here, in small bounded steps. */
static int exec_patient(sqlite3 *h, const char *sql, const char *what, char *err, size_t errlen)
{
	for (unsigned int i = 0; i < DB_BUSY_TIMEOUT_MS / 10; i++) {
		if (sqlite3_exec(h, sql, NULL, NULL, NULL) == SQLITE_OK)
			return 0;
		if (sqlite3_errcode(h) != SQLITE_BUSY && sqlite3_errcode(h) != SQLITE_LOCKED)
			break;
		usleep(10000);
	}
	return db_sqlerr(h, what, err, errlen);
}

/* The one integer a PRAGMA or a count returns; -1 with err on failure. */
static int64_t one_int(sqlite3 *h, const char *sql, int *rc, char *err, size_t errlen)
{
	sqlite3_stmt *st = NULL;
	int64_t v = -1;

	if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) != SQLITE_OK || sqlite3_step(st) != SQLITE_ROW) {
		*rc = db_sqlerr(h, sql, err, errlen);
	} else {
		v = sqlite3_column_int64(st, 0);
		*rc = 0;
	}
	sqlite3_finalize(st);
	return v;
}

/* The file's first bytes, read through SQLite's own VFS: a plain open()
 * and close() of the file would drop every POSIX lock this process holds
 * on it, and with them the shared lock by which another connection of
 * ours says it is open, so a writer elsewhere would take itself for the
 * last one and fold in and delete the write-ahead log under it. SQLite's
 * VFS defers that close. */
static int read_head(const char *path, char *head, size_t len, char *err, size_t errlen)
{
	sqlite3_vfs *vfs = sqlite3_vfs_find(NULL);
	sqlite3_file *f;
	int out = 0, rc;

	if (!vfs || !(f = calloc(1, (size_t)vfs->szOsFile))) {
		snprintf(err, errlen, "database %s: no SQLite file system", path);
		return -ENOMEM;
	}
	rc = vfs->xOpen(vfs, path, f, SQLITE_OPEN_READONLY | SQLITE_OPEN_MAIN_DB, &out);
	if (rc == SQLITE_OK)
		rc = f->pMethods->xRead(f, head, (int)len, 0);
	if (f->pMethods)
		f->pMethods->xClose(f);
	free(f);
	if (rc == SQLITE_OK)
		return 0;
	if (rc == SQLITE_IOERR_SHORT_READ)
		return 1;
	snprintf(err, errlen, "database %s: %s", path, sqlite3_errstr(rc));
	return rc == SQLITE_CANTOPEN ? -EACCES : -EIO;
}

/* Refuse, before SQLite opens it, a file that is not a SQLite database:
 * opening one for writing could turn it into one. */
static int check_header(const char *path, bool *exists, char *err, size_t errlen)
{
	static const char magic[16] = "SQLite format 3";
	char head[16];
	struct stat sb;
	int rc;

	*exists = false;
	if (stat(path, &sb)) {
		if (errno == ENOENT)
			return 0;
		snprintf(err, errlen, "database %s: %s", path, strerror(errno));
		return -errno;
	}
	*exists = true;
	if (S_ISDIR(sb.st_mode)) {
		snprintf(err, errlen, "database %s is a directory", path);
		return -EINVAL;
	}
	if (sb.st_size == 0)
		return 0;	/* SQLite's own empty database */
	if ((rc = read_head(path, head, sizeof(head), err, errlen)) < 0)
		return rc;
	if (rc || memcmp(head, magic, sizeof(magic))) {
		snprintf(err, errlen, "%s is not a SQLite database (left untouched; give another --db)", path);
		return -EINVAL;
	}
	return 0;
}

/* Ours, empty, or refused: read-only questions before anything is written.
 * *ntab: the objects in the file, 0 when it is empty. */
static int check_owner(sqlite3 *h, const char *path, int64_t *version, int64_t *ntab, char *err, size_t errlen)
{
	char e2[256];
	int rc;
	int64_t app = one_int(h, "PRAGMA application_id", &rc, e2, sizeof(e2));

	if (!rc)
		*version = one_int(h, "PRAGMA user_version", &rc, e2, sizeof(e2));
	if (!rc)
		*ntab = one_int(h, "SELECT count(*) FROM sqlite_master", &rc, e2, sizeof(e2));
	if (rc) {
		snprintf(err, errlen, "%s is not a readable SQLite database (%s); left untouched", path,
			 sqlite3_errmsg(h));
		return rc == -EINVAL || rc == -EIO ? -EINVAL : rc;
	}
	if (app != DB_APPLICATION_ID && (app != 0 || *ntab > 0)) {
		snprintf(err, errlen, "%s is a SQLite database of another program (application_id %lld, "
			 "%lld tables); left untouched; give another --db", path, (long long)app, (long long)*ntab);
		return -EINVAL;
	}
	if (*version > DB_SCHEMA_VERSION) {
		snprintf(err, errlen, "%s has schema version %lld, newer than this wirerate's %d: use a newer wirerate",
			 path, (long long)*version, DB_SCHEMA_VERSION);
		return -EPROTO;
	}
	if (*ntab && (rc = db_schema_check(h, path, *version, err, errlen)))
		return rc;
	/* Damage SQLite finds only when it reads a page. */
	sqlite3_stmt *st = NULL;

	if (*ntab && (sqlite3_prepare_v2(h, "PRAGMA quick_check", -1, &st, NULL) != SQLITE_OK ||
		     sqlite3_step(st) != SQLITE_ROW ||
		     strcmp((const char *)sqlite3_column_text(st, 0), "ok"))) {
		snprintf(err, errlen, "%s is corrupt (%s); left untouched", path,
			 st && sqlite3_column_text(st, 0) ? (const char *)sqlite3_column_text(st, 0) : sqlite3_errmsg(h));
		sqlite3_finalize(st);
		return -EINVAL;
	}
	sqlite3_finalize(st);
	return 0;
}

/* Create or migrate under a write lock; another process may have done it
 * while we waited, so look again once the lock is held. */
static int upgrade(sqlite3 *h, char *err, size_t errlen)
{
	char sql[64];
	int64_t v;
	int rc;

	if ((rc = exec(h, "BEGIN IMMEDIATE", "locking the database", err, errlen)))
		return rc;
	v = one_int(h, "PRAGMA user_version", &rc, err, errlen);
	if (!rc && v == 0)
		rc = exec(h, db_schema_sql(DB_SCHEMA_VERSION), "creating the schema", err, errlen);
	if (!rc && v == 1)
		rc = exec(h, db_migrate_1_2, "migrating the schema from version 1", err, errlen);
	if (!rc && v >= 1 && v < 3)
		rc = exec(h, db_migrate_2_3, "migrating the schema from version 2", err, errlen);
	if (!rc && v >= 1 && v < 4)
		rc = exec(h, db_migrate_3_4, "migrating the schema from version 3", err, errlen);
	if (!rc && v >= 1 && v < 5)
		rc = exec(h, db_migrate_4_5, "migrating the schema from version 4", err, errlen);
	if (!rc && v >= 1 && v < 6)
		rc = exec(h, db_migrate_5_6, "migrating the schema from version 5", err, errlen);
	if (!rc && v >= 1 && v < 7)
		rc = exec(h, db_migrate_6_7, "migrating the schema from version 6", err, errlen);
	if (!rc && v >= 1 && v < 8)
		rc = exec(h, db_migrate_7_8, "migrating the schema from version 7", err, errlen);
	if (!rc && v < DB_SCHEMA_VERSION) {
		snprintf(sql, sizeof(sql), "PRAGMA application_id = %d; PRAGMA user_version = %d",
			 DB_APPLICATION_ID, DB_SCHEMA_VERSION);
		rc = exec(h, sql, "setting the schema version", err, errlen);
	}
	if (!rc)
		rc = exec(h, "COMMIT", "committing the schema", err, errlen);
	if (rc)
		sqlite3_exec(h, "ROLLBACK", NULL, NULL, NULL);
	return rc;
}

/* The directory path is in, "." for a bare name. */
static void dir_of(const char *path, char *buf, size_t len)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		snprintf(buf, len, ".");
	else
		snprintf(buf, len, "%.*s", slash == path ? 1 : (int)(slash - path), path);
}

/* A writer needs the file and its directory, where SQLite makes the -wal
 * and -shm files: say "read-only" before SQLite fails on it mid-way with
 * "unable to open database file". Other errors are SQLite's to report. */
static int check_writable(const char *path, char *err, size_t errlen)
{
	char dir[4096];

	if (faccessat(AT_FDCWD, path, W_OK, AT_EACCESS)) {
		if (errno != EACCES && errno != EROFS && errno != EPERM)
			return 0;
		snprintf(err, errlen, "database %s is read-only (%s)", path, strerror(errno));
		return -EACCES;
	}
	dir_of(path, dir, sizeof(dir));
	if (faccessat(AT_FDCWD, dir, W_OK | X_OK, AT_EACCESS)) {
		if (errno != EACCES && errno != EROFS && errno != EPERM)
			return 0;
		snprintf(err, errlen, "database %s is read-only: its directory %s cannot be written (%s)", path, dir,
			 strerror(errno));
		return -EACCES;
	}
	return 0;
}

/* sqlite3_open_v2 of name (the path or a URI of it) with our settings. */
static int open_handle(struct db *db, const char *name, int flags, char *err, size_t errlen)
{
	if (sqlite3_open_v2(name, &db->h, flags, NULL) != SQLITE_OK) {
		int sys = db->h ? sqlite3_system_errno(db->h) : 0;

		snprintf(err, errlen, "cannot open database %s: %s", db->path,
			 sys ? strerror(sys) : db->h ? sqlite3_errmsg(db->h) : "out of memory");
		return sys ? -sys : -EACCES;
	}
	sqlite3_extended_result_codes(db->h, 0);
	sqlite3_busy_timeout(db->h, DB_BUSY_TIMEOUT_MS);
	sql_close(db->c);
	if (!(db->c = sql_sqlite(db->h))) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	/* The file is data that anyone may have written, not code: no
	 * writes to the schema by hand (DEFENSIVE), no function with side
	 * effects from the schema's own SQL (trusted_schema), and triggers
	 * and views ignored; check_owner refuses a file that has any. */
	if (sqlite3_db_config(db->h, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL) != SQLITE_OK ||
	    sqlite3_db_config(db->h, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, NULL) != SQLITE_OK ||
	    sqlite3_db_config(db->h, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, NULL) != SQLITE_OK ||
	    sqlite3_db_config(db->h, SQLITE_DBCONFIG_ENABLE_VIEW, 0, NULL) != SQLITE_OK ||
	    sqlite3_exec(db->h, "PRAGMA trusted_schema = OFF", NULL, NULL, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "database %s: this SQLite (%s) cannot open files defensively", db->path,
			 sqlite3_libversion());
		return -ENOSYS;
	}
	return 0;
}

/* One read transaction, so that the questions see one snapshot:
 * otherwise another process creating the schema between two of them
 * makes our fresh file look like a foreign one. */
static int check_owner_once(struct db *db, int64_t *version, int64_t *ntab, char *err, size_t errlen)
{
	int rc;

	sqlite3_exec(db->h, "BEGIN", NULL, NULL, NULL);
	rc = check_owner(db->h, db->path, version, ntab, err, errlen);
	sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
	return rc;
}

static int open_pg(const char *uri, bool write, struct db **out, char *err, size_t errlen)
{
	struct db *db = calloc(1, sizeof(*db));
	int rc;

	if (!db) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	snprintf(db->path, sizeof(db->path), "%s", uri);
	if ((rc = db_pg_open(uri, write, &db->c, &db->found_version, err, errlen))) {
		free(db);
		return rc;
	}
	*out = db;
	return 0;
}

int db_open(const char *path, bool create, struct db **out, char *err, size_t errlen)
{
	struct db *db;
	bool exists;
	int64_t version = 0, ntab = 0;
	int rc, flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_FULLMUTEX;

	*out = NULL;
	if (db_pg_is_uri(path))
		return open_pg(path, true, out, err, errlen);
	if ((rc = check_header(path, &exists, err, errlen)))
		return rc;
	if (!exists && !create) {
		snprintf(err, errlen, "no database at %s (nothing stored yet)", path);
		return -ENOENT;
	}
	if (exists && (rc = check_writable(path, err, errlen)))
		return rc;
	if (!exists) {
		if ((rc = fs_mkdir_parents(path))) {
			snprintf(err, errlen, "cannot create the directory of %s: %s", path, strerror(-rc));
			return rc;
		}
		flags |= SQLITE_OPEN_CREATE;
	}
	if (!(db = calloc(1, sizeof(*db)))) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	snprintf(db->path, sizeof(db->path), "%s", path);
	if ((rc = open_handle(db, path, flags, err, errlen)) ||
	    (rc = check_owner_once(db, &version, &ntab, err, errlen)))
		goto fail;
	db->found_version = version;
	if (sqlite3_db_readonly(db->h, "main") == 1) {
		snprintf(err, errlen, "database %s is read-only", path);
		rc = -EACCES;
		goto fail;
	}
	/* WAL: readers never block the writer, and a killed writer leaves a
	 * log that the next open replays. FULL: each commit is on the disk
	 * before the next trial starts; one fsync per trial costs nothing
	 * next to a trial of a second or more. */
	if ((rc = exec_patient(db->h, "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON",
		       "setting up", err, errlen))) {
		char e2[512];

		snprintf(e2, sizeof(e2), "%s", err);
		snprintf(err, errlen, "database %s: %s", path, e2);
		goto fail;
	}
	if (version < DB_SCHEMA_VERSION && (rc = upgrade(db->h, err, errlen)))
		goto fail;
	*out = db;
	return 0;
fail:
	db_close(db);
	return rc;
}

/* path as an SQLite URI of an immutable file: read without locks and
 * without the -shm file. */
static void immutable_uri(const char *path, char *buf, size_t len)
{
	size_t o = (size_t)snprintf(buf, len, path[0] == '/' ? "file://" : "file:");

	for (const unsigned char *p = (const unsigned char *)path; *p && o + 4 < len; p++)
		o += (size_t)snprintf(buf + o, len - o, isalnum(*p) || strchr("/._-~", *p) ? "%c" : "%%%02X", *p);
	snprintf(buf + o, len - o, "?immutable=1");
}

/* SQLite reads a WAL file through its -shm file, which it must create
 * when it is absent: in a directory we cannot write, the file is read as
 * immutable instead, which is right only while no -wal file holds commits
 * that the main file lacks. */
static int open_read(struct db *db, char *err, size_t errlen)
{
	char uri[3 * sizeof(db->path) + 32];
	int rc, flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_FULLMUTEX;

	if ((rc = open_handle(db, db->path, flags, err, errlen)))
		return rc;
	if (sqlite3_exec(db->h, "SELECT count(*) FROM sqlite_master", NULL, NULL, NULL) == SQLITE_OK ||
	    (sqlite3_errcode(db->h) != SQLITE_READONLY && sqlite3_errcode(db->h) != SQLITE_CANTOPEN))
		return 0;	/* any other failure is check_owner's to report */
	snprintf(uri, sizeof(uri), "%s-wal", db->path);
	if (!access(uri, F_OK)) {
		snprintf(err, errlen, "database %s cannot be read here: its directory is read-only and it has "
			 "a write-ahead log (%s) that only a writer can fold in", db->path, uri);
		return -EACCES;
	}
	sqlite3_close(db->h);
	db->h = NULL;
	immutable_uri(db->path, uri, sizeof(uri));
	return open_handle(db, uri, flags | SQLITE_OPEN_URI, err, errlen);
}

int db_open_read(const char *path, struct db **out, char *err, size_t errlen)
{
	struct db *db;
	bool exists;
	int64_t version = 0, ntab = 0;
	int rc;

	*out = NULL;
	if (db_pg_is_uri(path))
		return open_pg(path, false, out, err, errlen);
	if ((rc = check_header(path, &exists, err, errlen)))
		return rc;
	if (!exists) {
		snprintf(err, errlen, "no database at %s (nothing stored yet)", path);
		return -ENOENT;
	}
	if (!(db = calloc(1, sizeof(*db)))) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	snprintf(db->path, sizeof(db->path), "%s", path);
	if ((rc = open_read(db, err, errlen)) || (rc = check_owner_once(db, &version, &ntab, err, errlen)))
		goto fail;
	db->found_version = version;
	/* Making an empty file or an older schema current is a write, which
	 * a reader never does: the file stays as it is. */
	if (!ntab) {
		snprintf(err, errlen, "database %s is empty (nothing stored yet)", path);
		rc = -ENOENT;
		goto fail;
	}
	if (version < DB_SCHEMA_VERSION) {
		snprintf(err, errlen, "database %s has schema version %lld, older than this wirerate's %d, and this "
			 "command only reads: upgrade it with 'wirerate runs upgrade --db %s'", path,
			 (long long)version, DB_SCHEMA_VERSION, path);
		rc = -ESTALE;
		goto fail;
	}
	*out = db;
	return 0;
fail:
	db_close(db);
	return rc;
}
