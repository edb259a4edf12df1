/* The one SQL interface the store's code is written against, over either
 * backend: an SQLite handle or a PostgreSQL connection (libpq). The SQL is
 * SQLite's dialect with '?' and '?N' parameters; for PostgreSQL they become
 * '$N' and each bound value carries its type, so the server never guesses.
 * Where the two dialects really differ (locking, the row order key, string
 * aggregation, the DDL's types) the caller asks sql_kind(). Private to
 * src/store. */
#ifndef WR_STORE_SQL_H
#define WR_STORE_SQL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sql;
struct sql_st;
struct sqlite3;

enum sql_kind { SQL_SQLITE = 1, SQL_PG = 2 };
enum sql_type { SQL_NULL, SQL_INT, SQL_FLOAT, SQL_TEXT };

/* The interface over an open SQLite handle (which the caller still owns
 * and closes after sql_close). NULL: out of memory. */
struct sql *sql_sqlite(struct sqlite3 *h);
/* Connect to PostgreSQL with a libpq URI (postgresql://...); every other
 * setting (password, TLS, service) is libpq's from its environment and
 * files. A connection that is not up within connect_timeout (10 s unless
 * the URI or PGCONNECT_TIMEOUT says otherwise) fails. readonly: every
 * transaction of the session is read-only. -EINVAL with err: refused or
 * unreachable (err says which, from libpq); -ENOMEM. */
int sql_pg_connect(const char *uri, bool readonly, struct sql **out, char *err, size_t errlen);
void sql_close(struct sql *c);
enum sql_kind sql_kind(const struct sql *c);
/* The last failure's text, from SQLite or the server ("" when none). */
const char *sql_errmsg(struct sql *c);
/* The last failure as -errno: -EBUSY (locked, or a serialization
 * conflict), -ENOSPC, -EACCES (read-only or no privilege), -EINVAL (not a
 * database, corrupt), else -EIO. */
int sql_errno(struct sql *c);
/* The same for an SQLite result code. */
int sql_sqlite_errno(int code);
/* err = "what: " and the last failure's text; returns -EIO. */
int sql_fail(struct sql *c, const char *what, char *err, size_t errlen);

/* One or more statements without parameters; 0 or sql_errno(). */
int sql_exec(struct sql *c, const char *sql);
int sql_prepare(struct sql *c, const char *sql, struct sql_st **out);
/* Parameters count from 1; a NULL text and a non-finite double are NULL. */
void sql_bind_int(struct sql_st *s, int i, int64_t v);
void sql_bind_double(struct sql_st *s, int i, double v);
void sql_bind_text(struct sql_st *s, int i, const char *v, size_t len);
void sql_bind_str(struct sql_st *s, int i, const char *v);
void sql_bind_null(struct sql_st *s, int i);
/* 1: a row is ready; 0: done; < 0: failed (sql_errmsg says why). */
int sql_step(struct sql_st *s);
/* Back to before the first step; the bindings stay. */
void sql_reset(struct sql_st *s);
void sql_finalize(struct sql_st *s);

int sql_ncols(struct sql_st *s);
const char *sql_col_name(struct sql_st *s, int i);
enum sql_type sql_col_type(struct sql_st *s, int i);
/* NULL reads as 0, "" and NAN; a boolean as 0 or 1. */
int64_t sql_col_int(struct sql_st *s, int i);
double sql_col_double(struct sql_st *s, int i);
const char *sql_col_text(struct sql_st *s, int i);
size_t sql_col_len(struct sql_st *s, int i);

/* The statement's text for the server: '?' and '?N' outside quotes as
 * '$N'. Exposed for the unit test; NULL when out of memory or over
 * SQL_MAX_PARAMS parameters. Caller frees. */
#define SQL_MAX_PARAMS 64
char *sql_pg_params(const char *sql, int *nparams);
/* SQLite's DDL as PostgreSQL's: "id INTEGER PRIMARY KEY" an identity
 * column, INTEGER BIGINT, REAL DOUBLE PRECISION (upper-case words only).
 * Caller frees; NULL when out of memory. */
char *sql_pg_ddl(const char *sql);

#endif
