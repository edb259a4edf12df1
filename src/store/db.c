#include "store/db.h"
#include "core/goal.h"
#include "core/ns.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "store/db_pg.h"
#include "store/db_schema.h"
#include "store/sql.h"
#include "os/fs.h"
#include "os/procstat.h"

struct db {
	sqlite3 *h;		/* NULL on PostgreSQL */
	struct sql *c;		/* either backend */
	int64_t found_version;	/* the file's schema version as opened */
	char path[4096];
};

static int sqlerr(sqlite3 *h, const char *what, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s: %s", what, sqlite3_errmsg(h));
	return sql_sqlite_errno(sqlite3_errcode(h));
}

static int exec(sqlite3 *h, const char *sql, const char *what, char *err, size_t errlen)
{
	if (sqlite3_exec(h, sql, NULL, NULL, NULL) != SQLITE_OK)
		return sqlerr(h, what, err, errlen);
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
	return sqlerr(h, what, err, errlen);
}

/* The one integer a PRAGMA or a count returns; -1 with err on failure. */
static int64_t one_int(sqlite3 *h, const char *sql, int *rc, char *err, size_t errlen)
{
	sqlite3_stmt *st = NULL;
	int64_t v = -1;

	if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) != SQLITE_OK || sqlite3_step(st) != SQLITE_ROW) {
		*rc = sqlerr(h, sql, err, errlen);
	} else {
		v = sqlite3_column_int64(st, 0);
		*rc = 0;
	}
	sqlite3_finalize(st);
	return v;
}

bool db_is_uri(const char *path)
{
	return db_pg_is_uri(path);
}

int db_default_path(char *buf, size_t len, char *err, size_t errlen)
{
	const char *e = getenv("WIRERATE_DB"), *x = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
	int n;

	if (e && *e)
		n = snprintf(buf, len, "%s", e);
	else if (x && *x == '/')
		n = snprintf(buf, len, "%s/wirerate/results.db", x);
	else if (home && *home)
		n = snprintf(buf, len, "%s/.local/share/wirerate/results.db", home);
	else {
		snprintf(err, errlen, "no database path: set WIRERATE_DB or HOME, or give --db");
		return -EINVAL;
	}
	if (n < 0 || (size_t)n >= len) {
		snprintf(err, errlen, "database path too long");
		return -ENAMETOOLONG;
	}
	return 0;
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

int64_t db_found_version(const struct db *db)
{
	return db->found_version;
}

void db_close(struct db *db)
{
	if (!db)
		return;
	sql_close(db->c);
	sqlite3_close(db->h);
	free(db);
}

struct sql *db_sql(struct db *db)
{
	return db->c;
}

sqlite3 *db_sqlite(struct db *db)
{
	return db->h;
}

bool db_is_pg(const struct db *db)
{
	return !db->h;
}

void db_uuid(char out[37])
{
	unsigned char b[16];
	size_t got = 0;

	while (got < sizeof(b)) {
		ssize_t n = getrandom(b + got, sizeof(b) - got, 0);

		if (n > 0)
			got += (size_t)n;
		else if (n < 0 && errno != EINTR)
			break;
	}
	if (got < sizeof(b)) {	/* no entropy call: the time and the pid, unique enough per run */
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		for (size_t i = 0; i < sizeof(b); i++)
			b[i] = (unsigned char)((uint64_t)ts.tv_nsec >> (i % 4 * 8) ^ (uint64_t)getpid() >> (i % 3 * 8) ^
					       (uint64_t)ts.tv_sec >> (i % 5 * 8));
	}
	b[6] = (unsigned char)((b[6] & 0x0f) | 0x40);	/* version 4 */
	b[8] = (unsigned char)((b[8] & 0x3f) | 0x80);	/* RFC 4122 variant */
	snprintf(out, 37, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0], b[1], b[2],
		 b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
}

const char *db_status_shown(const char *status, int64_t pid, const char *boot_id, const char *this_boot)
{
	char path[64], comm[64];

	if (strcmp(status, "running"))
		return status;
	if (boot_id && *boot_id && this_boot && *this_boot && strcmp(boot_id, this_boot))
		return "interrupted";	/* the machine rebooted since */
	if (pid <= 0)
		return status;
	if (kill((pid_t)pid, 0) && errno == ESRCH)
		return "interrupted";
	/* The pid may have been reused by something else. */
	snprintf(path, sizeof(path), "/proc/%lld/comm", (long long)pid);
	if (fs_read(NULL, path, comm, sizeof(comm)) > 0 && strncmp(comm, "wirerate", 8))
		return "interrupted";
	return status;
}

const char *db_run_status(struct db *db, const char *status, int64_t id, int64_t pid, const char *boot_id,
			  const char *this_boot)
{
	int alive;

	if (strcmp(status, "running") || db->h)
		return db_status_shown(status, pid, boot_id, this_boot);
	/* PostgreSQL: the run may be another tester's, whose pid means
	 * nothing here; its session's lock says. */
	alive = db_pg_run_alive(db->c, id);
	return alive == 0 ? "interrupted" : status;
}

/* One statement with ? parameters bound by a tiny format: i (int64), d
 * (double, NAN as NULL), s (text, NULL as NULL). 0 or sql_errno(); with
 * id, the statement returns one row whose first column goes there. */
static int run_stmt_id(struct sql *c, int64_t *id, const char *sql, const char *fmt, ...)
{
	struct sql_st *st;
	va_list ap;
	int rc, i = 1;

	if ((rc = sql_prepare(c, sql, &st)))
		return rc;
	va_start(ap, fmt);
	for (const char *f = fmt; *f; f++, i++) {
		if (*f == 'i')
			sql_bind_int(st, i, va_arg(ap, int64_t));
		else if (*f == 'd')
			sql_bind_double(st, i, va_arg(ap, double));
		else
			sql_bind_str(st, i, va_arg(ap, const char *));
	}
	va_end(ap);
	rc = sql_step(st);
	if (rc == 1 && id)
		*id = sql_col_int(st, 0);
	sql_finalize(st);
	return rc < 0 ? rc : id && rc != 1 ? -EIO : 0;
}

#define run_stmt(c, ...) run_stmt_id(c, NULL, __VA_ARGS__)

/* A write transaction: SQLite takes the file's write lock at once, so
 * that two writers wait in the busy handler instead of failing later. */
static int begin(struct db *db, char *err, size_t errlen)
{
	int rc = sql_exec(db->c, db->h ? "BEGIN IMMEDIATE" : "BEGIN");

	if (rc)
		snprintf(err, errlen, "locking the database: %s", sql_errmsg(db->c));
	return rc;
}

static int finish(struct db *db, int rc, const char *what, char *err, size_t errlen)
{
	if (!rc && !(rc = sql_exec(db->c, "COMMIT")))
		return 0;
	snprintf(err, errlen, "%s: %s", what, sql_errmsg(db->c));
	sql_exec(db->c, "ROLLBACK");
	return rc;
}

int db_run_begin(struct db *db, const struct db_run_info *ri, const struct db_kv *env, size_t nenv,
		 int64_t *id, char *err, size_t errlen)
{
	char boot[64], uuid[37];
	int rc;

	procstat_boot_id(NULL, boot, sizeof(boot));
	if ((rc = begin(db, err, errlen)))
		return rc;
	db_uuid(uuid);
	rc = run_stmt_id(db->c, id,
		      "INSERT INTO runs (started, test, label, sizes, config, place, line_bps, repeats,"
		      " precision, pdr_ratio, status, pid, boot_id, uuid) VALUES (?,?,?,?,?,?,?,?,?,?,'running',?,?,?)"
		      " RETURNING id",
		      "isssssdiddiss", (int64_t)time(NULL), ri->test,
		      ri->label ? ri->label : "", ri->sizes ? ri->sizes : "", ri->config ? ri->config : "",
		      ri->where ? ri->where : "", ri->line_bps, (int64_t)(ri->repeats ? ri->repeats : 1),
		      ri->precision, ri->pdr_ratio, (int64_t)getpid(), boot, uuid);
	for (unsigned int i = 0; !rc && i < ri->ntags; i++)
		rc = run_stmt(db->c, "INSERT INTO tags (run_id, tag) VALUES (?,?) ON CONFLICT DO NOTHING", "is", *id,
			      ri->tags[i]);
	/* a key given twice keeps its last value */
	for (size_t i = 0; !rc && i < nenv; i++)
		if (!(rc = run_stmt(db->c, "DELETE FROM env WHERE run_id = ? AND key = ?", "is", *id, env[i].key)))
			rc = run_stmt(db->c, "INSERT INTO env (run_id, key, value) VALUES (?,?,?)", "iss",
				      *id, env[i].key, env[i].value ? env[i].value : "");
	if ((rc = finish(db, rc, "storing the run", err, errlen)))
		return rc;
	/* PostgreSQL: the run is alive to other testers while this lock is
	 * held (SQLite: its pid and boot id tell) */
	if (!db->h && (rc = db_pg_run_lock(db->c, *id, true)))
		snprintf(err, errlen, "locking the run: %s", sql_errmsg(db->c));
	return rc;
}

int db_run_end(struct db *db, int64_t id, const char *status, const char *headline, char *err, size_t errlen)
{
	int rc;

	if ((rc = begin(db, err, errlen)))
		return rc;
	rc = run_stmt(db->c, "UPDATE runs SET status = ?, ended = ?, headline = ? WHERE id = ?", "sisi",
		      status, (int64_t)time(NULL), headline ? headline : "", id);
	if ((rc = finish(db, rc, "finishing the run", err, errlen)))
		return rc;
	if (!db->h)
		db_pg_run_lock(db->c, id, false);
	return 0;
}

int db_run_reopen(struct db *db, int64_t id, char *err, size_t errlen)
{
	char boot[64];
	int rc;

	procstat_boot_id(NULL, boot, sizeof(boot));
	if ((rc = begin(db, err, errlen)))
		return rc;
	rc = run_stmt(db->c, "UPDATE runs SET status = 'running', ended = NULL, pid = ?, boot_id = ? WHERE id = ?", "isi",
		      (int64_t)getpid(), boot, id);
	if ((rc = finish(db, rc, "reopening the run", err, errlen)))
		return rc;
	if (!db->h && (rc = db_pg_run_lock(db->c, id, true))) {
		snprintf(err, errlen, "locking the run: %s", sql_errmsg(db->c));
		return -EIO;
	}
	return 0;
}

/* The trial's loss attribution, per direction (after its row). */
static int loss_add(struct db *db, int64_t trial, const struct db_trial *t)
{
	int rc = 0;

	for (unsigned int d = 0; !rc && d < t->nloss && d < LOSSATTR_MAX_DIRS; d++) {
		const struct lossattr *a = &t->loss[d];

		rc = run_stmt(db->c, "INSERT INTO trial_loss_dir (trial_id, dir, lost, over, dut_counters)"
				     " VALUES (?,?,?,?,?)", "iiiii", trial, (int64_t)d, (int64_t)a->lost,
			      (int64_t)a->over, (int64_t)a->have_dut);
		for (unsigned int i = 0; !rc && i < a->n && i < LOSSATTR_MAX; i++)
			rc = run_stmt(db->c, "INSERT INTO trial_loss (trial_id, dir, place, detail, frames, shared)"
					     " VALUES (?,?,?,?,?,?)", "iissii", trial, (int64_t)d,
				      lossattr_place_name(a->e[i].place), a->e[i].detail, (int64_t)a->e[i].frames,
				      (int64_t)a->e[i].shared);
	}
	return rc;
}

int db_trial_add(struct db *db, int64_t run, const struct db_trial *t, char *err, size_t errlen)
{
	char test[2] = { t->test, 0 };
	int64_t id = 0;
	int rc;

	if ((rc = begin(db, err, errlen)))
		return rc;
	rc = run_stmt_id(db->c, &id,
		      "INSERT INTO trials (run_id, size, test, repeat, load, duration_s, tx, rx, tester_limited, ended)"
		      " VALUES (?,?,?,?,?,?,?,?,?,?) RETURNING id",
		      "iisiddiiii", run, (int64_t)t->size, test, (int64_t)t->repeat, t->load, t->duration_s,
		      (int64_t)t->tx, (int64_t)t->rx, (int64_t)t->tester_limited, (int64_t)time(NULL));
	if (!rc && t->cpu_valid)
		rc = run_stmt(db->c, "INSERT INTO trial_cpu (trial_id, busy_pct, soak_pct, ns_per_frame, source)"
				     " VALUES (?,?,?,?,?)", "iddds", id,
			      t->cpu_busy_pct, t->cpu_soak_pct >= 0 ? t->cpu_soak_pct : NAN, t->ns_per_frame,
			      t->cpu_source);
	/* NULL where there was no check or no probe: an old trial's */
	if (!rc && t->cpu_valid && t->soak_trusted)
		rc = run_stmt(db->c, "UPDATE trial_cpu SET soak_trusted = ?, soak_note = ? WHERE trial_id = ?", "isi",
			      (int64_t)(t->soak_trusted > 0), t->soak_note ? t->soak_note : "", id);
	if (!rc && t->cpu_valid && t->stall_valid)
		rc = run_stmt(db->c, "UPDATE trial_cpu SET stall_max_ns = ?, stall_cpu = ?, stalls = ?,"
				     " stall_threshold_ns = ?, stall_fifo = ?, steal_pct = ? WHERE trial_id = ?",
			      "diidid" "i", t->stall_max_ns, (int64_t)t->stall_cpu, (int64_t)t->stalls,
			      t->stall_threshold_ns, (int64_t)t->stall_fifo, t->steal_pct >= 0 ? t->steal_pct : NAN, id);
	if (!rc && t->cpu_valid && t->nprof) {
		rc = run_stmt(db->c, "UPDATE trial_cpu SET profile_samples = ?, profile_hz = ?, profile_busy_pct = ?,"
				     " profile_softirq_pct = ? WHERE trial_id = ?", "iiddi", (int64_t)t->prof_samples,
			      (int64_t)t->prof_hz, t->prof_busy_pct, t->prof_softirq_pct, id);
		for (unsigned int i = 0; !rc && i < t->nprof; i++)
			rc = run_stmt(db->c, "INSERT INTO trial_profile (trial_id, pos, symbol, pct, samples)"
					     " VALUES (?,?,?,?,?)", "iisdi", id, (int64_t)i, t->prof[i].symbol,
				      t->prof[i].pct, (int64_t)t->prof[i].samples);
	}
	if (!rc && t->loss)
		rc = loss_add(db, id, t);
	if (!rc && t->stream) {
		const struct db_stream *x = t->stream;

		rc = run_stmt(db->c, "INSERT INTO stream_trial (trial_id, senders, sent_bytes, recv_bytes, send_ns,"
				     " recv_ns, errors, drops, send_cpus, send_busy_pct, recv_cpus, recv_busy_pct)"
				     " VALUES (?,?,?,?,?,?,?,?,?,?,?,?)", "iiiiiiiiidid", id, (int64_t)x->senders,
			      (int64_t)x->sent_bytes, (int64_t)x->recv_bytes, (int64_t)x->send_ns,
			      (int64_t)x->recv_ns, (int64_t)x->errors, (int64_t)x->drops, (int64_t)x->send_cpus,
			      x->send_cpus ? x->send_busy_pct : NAN, (int64_t)x->recv_cpus,
			      x->recv_cpus ? x->recv_busy_pct : NAN);
	}
	if (!rc && t->load > 0) {
		struct trial_output to;

		goal_trial_output(t->load, (uint64_t)llround(t->duration_s * NSEC_PER_SEC), t->tx, t->rx, &to);
		rc = run_stmt(db->c, "INSERT INTO trial_output (trial_id, loss_ratio, effective_s, forwarding_rate,"
				     " traffic_s) VALUES (?,?,?,?,?)", "idddd", id, to.loss_ratio, to.effective_s,
			      to.forwarding_rate, t->traffic_s > 0 ? t->traffic_s : NAN);
	}
	return finish(db, rc, "storing a trial", err, errlen);
}

int db_result_add(struct db *db, int64_t run, const struct db_result *r, char *err, size_t errlen)
{
	int rc;

	if ((rc = begin(db, err, errlen)))
		return rc;
	/* a size stored again replaces its row */
	rc = run_stmt(db->c, "DELETE FROM results WHERE run_id = ? AND size = ? AND repeat = ?", "iii", run,
		      (int64_t)r->size, (int64_t)r->repeat);
	if (!rc)
		rc = run_stmt(db->c, "DELETE FROM goal_results WHERE run_id = ? AND size = ? AND repeat = ?", "iii",
			      run, (int64_t)r->size, (int64_t)r->repeat);
	for (unsigned int i = 0; !rc && i < r->ngoals; i++) {
		const struct db_goal_result *g = &r->goals[i];

		rc = run_stmt(db->c, "INSERT INTO goal_results (run_id, size, repeat, pos, name, spec, rlb, rub,"
				     " cond_tput, irregular) VALUES (?,?,?,?,?,?,?,?,?,?)", "iiiissddds", run,
			      (int64_t)r->size, (int64_t)r->repeat, (int64_t)i, g->name, g->spec, g->rlb, g->rub,
			      g->cond, g->irregular);
	}
	if (!rc)
		rc = run_stmt(db->c,
		      "INSERT INTO results (run_id, size, repeat, max_load, max_is_ceiling,"
		      " ndr_lower, ndr_upper, pdr_lower, pdr_upper, at_max, tester_capped, noisy, search_done,"
		      " search_trials, width_pps, ns_per_frame, lat_load, lat_frames, lat_min, lat_median,"
		      " lat_p99, lat_p999, lat_max, b2b_avg, b2b_min, b2b_max, b2b_runs)"
		      " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
		      "iiididdddiiiiidddiddddddddi", run, (int64_t)r->size, (int64_t)r->repeat, r->max_load,
		      (int64_t)r->max_is_ceiling, r->ndr_valid ? r->ndr_lower : NAN, r->ndr_upper,
		      r->pdr_valid ? r->pdr_lower : NAN, r->pdr_upper, (int64_t)r->at_max,
		      (int64_t)r->tester_capped, (int64_t)r->noisy, (int64_t)r->search_done,
		      (int64_t)r->search_trials, r->width_pps, r->ns_per_frame,
		      r->have_lat ? r->lat_load : NAN, (int64_t)(r->have_lat ? r->lat_frames : 0),
		      r->have_lat ? r->lat_min : NAN, r->have_lat ? r->lat_median : NAN,
		      r->have_lat ? r->lat_p99 : NAN, r->have_lat ? r->lat_p999 : NAN,
		      r->have_lat ? r->lat_max : NAN, r->b2b_avg, r->b2b_min, r->b2b_max, (int64_t)r->b2b_runs);
	for (unsigned int i = 0; !rc && i < r->nloss; i++) {
		const struct db_loss_step *l = &r->loss[i];

		rc = run_stmt(db->c, "DELETE FROM loss_steps WHERE run_id = ? AND size = ? AND pct = ?", "iid", run,
			      (int64_t)r->size, l->pct);
		if (!rc)
			rc = run_stmt(db->c, "INSERT INTO loss_steps (run_id, size, pct, load, tx, rx, loss_pct,"
				     " tester_limited) VALUES (?,?,?,?,?,?,?,?)", "iiddiidi",
			      run, (int64_t)r->size, l->pct, l->load, (int64_t)l->tx, (int64_t)l->rx, l->loss_pct,
			      (int64_t)l->tester_limited);
	}
	return finish(db, rc, "storing a result", err, errlen);
}

/* 1 when run id is stored, 0 when not, < 0 when the store failed. */
static int run_exists(struct sql *c, int64_t id)
{
	struct sql_st *st;
	int rc;

	if ((rc = sql_prepare(c, "SELECT 1 FROM runs WHERE id = ?", &st)))
		return rc;
	sql_bind_int(st, 1, id);
	rc = sql_step(st);
	sql_finalize(st);
	return rc;
}

int db_delete_runs(struct db *db, const int64_t *ids, size_t n, char *err, size_t errlen)
{
	int rc;

	if ((rc = begin(db, err, errlen)))
		return rc;
	/* Every id is looked up before any is deleted, so that a bad one
	 * leaves all of them; an id given twice is no error. */
	for (size_t i = 0; i < n && !rc; i++) {
		int e = run_exists(db->c, ids[i]);

		if (e == 0) {
			sql_exec(db->c, "ROLLBACK");
			snprintf(err, errlen, "no run %lld", (long long)ids[i]);
			return -ENOENT;
		}
		rc = e < 0 ? e : 0;
	}
	for (size_t i = 0; i < n && !rc; i++)
		rc = run_stmt(db->c, "DELETE FROM runs WHERE id = ?", "i", ids[i]);
	return finish(db, rc, "deleting the runs", err, errlen);
}

int db_run_delete(struct db *db, int64_t id, char *err, size_t errlen)
{
	return db_delete_runs(db, &id, 1, err, errlen);
}

int db_integrity(struct db *db, char *err, size_t errlen)
{
	sqlite3_stmt *st;
	int rc = -EIO;

	if (!db->h)
		return 0;	/* PostgreSQL keeps its own pages whole */
	if (sqlite3_prepare_v2(db->h, "PRAGMA integrity_check", -1, &st, NULL) != SQLITE_OK)
		return sqlerr(db->h, "integrity_check", err, errlen);
	if (sqlite3_step(st) == SQLITE_ROW) {
		const char *v = (const char *)sqlite3_column_text(st, 0);

		if (v && !strcmp(v, "ok"))
			rc = 0;
		else
			snprintf(err, errlen, "integrity_check: %s", v ? v : "?");
	} else {
		rc = sqlerr(db->h, "integrity_check", err, errlen);
	}
	sqlite3_finalize(st);
	return rc;
}
