#include "store/sql.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>
#include <sqlite3.h>

/* PostgreSQL's type OIDs (pg_type.h, stable since 7.x). */
#define OID_BOOL 16
#define OID_INT8 20
#define OID_INT2 21
#define OID_INT4 23
#define OID_TEXT 25
#define OID_FLOAT4 700
#define OID_FLOAT8 701
#define OID_NUMERIC 1700

struct sql {
	enum sql_kind kind;
	sqlite3 *lite;
	PGconn *pg;
	char msg[512];		/* PostgreSQL: the last failure's text */
	char state[6];		/* and its SQLSTATE */
};

struct sql_st {
	struct sql *c;
	sqlite3_stmt *lite;
	/* PostgreSQL: the text with $N, the values as text, the result */
	char *text;
	int nparams;
	char *val[SQL_MAX_PARAMS];
	Oid type[SQL_MAX_PARAMS];
	PGresult *res;
	int row, nrows;
};

struct sql *sql_sqlite(sqlite3 *h)
{
	struct sql *c = calloc(1, sizeof(*c));

	if (c) {
		c->kind = SQL_SQLITE;
		c->lite = h;
	}
	return c;
}

enum sql_kind sql_kind(const struct sql *c)
{
	return c->kind;
}

/* The server's message as one line: libpq's end in a newline, and a
 * connection failure's spans several ("connection to server ... failed:
 * ..."). */
static void pg_set_msg(struct sql *c, const char *m, const char *state)
{
	size_t o = 0;

	for (const char *p = m ? m : "the server failed"; *p && o + 1 < sizeof(c->msg); p++) {
		char ch = *p == '\n' || *p == '\t' ? ' ' : *p;

		if (ch == ' ' && (o == 0 || c->msg[o - 1] == ' '))
			continue;
		c->msg[o++] = ch;
	}
	while (o && c->msg[o - 1] == ' ')
		o--;
	c->msg[o] = '\0';
	snprintf(c->state, sizeof(c->state), "%s", state ? state : "");
}

static void pg_set_res(struct sql *c, const PGresult *r)
{
	const char *m = r ? PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY) : NULL;

	pg_set_msg(c, m ? m : PQerrorMessage(c->pg), r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : NULL);
}

const char *sql_errmsg(struct sql *c)
{
	return c->kind == SQL_SQLITE ? sqlite3_errmsg(c->lite) : c->msg;
}

int sql_fail(struct sql *c, const char *what, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s: %s", what, sql_errmsg(c));
	return -EIO;
}

int sql_sqlite_errno(int code)
{
	if (code == SQLITE_NOTADB || code == SQLITE_CORRUPT)
		return -EINVAL;
	if (code == SQLITE_BUSY || code == SQLITE_LOCKED)
		return -EBUSY;
	if (code == SQLITE_FULL)
		return -ENOSPC;
	if (code == SQLITE_READONLY || code == SQLITE_PERM || code == SQLITE_CANTOPEN)
		return -EACCES;
	return -EIO;
}

int sql_errno(struct sql *c)
{
	if (c->kind == SQL_SQLITE)
		return sql_sqlite_errno(sqlite3_errcode(c->lite));
	/* SQLSTATE classes: 40 a conflict with another transaction, 53 out
	 * of a resource (53100 disk full), 42501 no privilege, 25006 a
	 * read-only transaction. */
	if (!strncmp(c->state, "40", 2) || !strcmp(c->state, "55P03"))
		return -EBUSY;
	if (!strcmp(c->state, "53100"))
		return -ENOSPC;
	if (!strcmp(c->state, "42501") || !strcmp(c->state, "25006"))
		return -EACCES;
	return -EIO;
}

void sql_close(struct sql *c)
{
	if (!c)
		return;
	if (c->pg)
		PQfinish(c->pg);
	free(c);
}

/* PostgreSQL writes notices (e.g. "relation exists, skipping") to
 * stderr unless told otherwise; the store has nothing to say of them. */
static void pg_quiet(void *arg, const char *message)
{
	(void)arg;
	(void)message;
}

int sql_pg_connect(const char *uri, bool readonly, struct sql **out, char *err, size_t errlen)
{
	const char *keys[6], *vals[6];
	const char *timeout = getenv("PGCONNECT_TIMEOUT");
	struct sql *c;
	PGresult *r;
	int n = 0;

	*out = NULL;
	if (!(c = calloc(1, sizeof(*c)))) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	c->kind = SQL_PG;
	/* Defaults first: the URI's own settings, expanded from dbname,
	 * override them. */
	if (!timeout || !*timeout) {
		keys[n] = "connect_timeout";
		vals[n++] = "10";
	}
	keys[n] = "fallback_application_name";
	vals[n++] = "wirerate";
	keys[n] = "dbname";
	vals[n++] = uri;
	keys[n] = NULL;
	vals[n] = NULL;
	c->pg = PQconnectdbParams(keys, vals, 1);
	if (!c->pg || PQstatus(c->pg) != CONNECTION_OK) {
		int rc = c->pg ? -EINVAL : -ENOMEM;

		pg_set_msg(c, c->pg ? PQerrorMessage(c->pg) : "out of memory", NULL);
		snprintf(err, errlen, "%s", c->msg);
		sql_close(c);
		return rc;
	}
	PQsetNoticeProcessor(c->pg, pg_quiet, NULL);
	/* One session's settings: UTC so that nothing depends on the
	 * server's zone, the shortest exact text of a double, and no
	 * statement waits on a lock longer than SQLite's busy timeout. */
	r = PQexec(c->pg, readonly ? "SET TIME ZONE 'UTC'; SET extra_float_digits = 1; SET lock_timeout = '15s';"
				     " SET default_transaction_read_only = on"
				   : "SET TIME ZONE 'UTC'; SET extra_float_digits = 1; SET lock_timeout = '15s'");
	if (PQresultStatus(r) != PGRES_COMMAND_OK) {
		pg_set_res(c, r);
		snprintf(err, errlen, "%s", c->msg);
		PQclear(r);
		sql_close(c);
		return -EINVAL;
	}
	PQclear(r);
	*out = c;
	return 0;
}

int sql_exec(struct sql *c, const char *sql)
{
	PGresult *r;
	int rc = 0;

	if (c->kind == SQL_SQLITE)
		return sqlite3_exec(c->lite, sql, NULL, NULL, NULL) == SQLITE_OK ? 0 : sql_errno(c);
	r = PQexec(c->pg, sql);
	if (PQresultStatus(r) != PGRES_COMMAND_OK && PQresultStatus(r) != PGRES_TUPLES_OK) {
		pg_set_res(c, r);
		rc = sql_errno(c);
	}
	PQclear(r);
	return rc;
}

/* Past a quoted run ('...' or "..."; a doubled quote stays inside). */
static const char *past_quote(const char *p)
{
	char q = *p++;

	for (; *p; p++)
		if (*p == q) {
			if (p[1] != q)
				return p + 1;
			p++;
		}
	return p;
}

char *sql_pg_params(const char *sql, int *nparams)
{
	size_t len = strlen(sql);
	char *out = malloc(len * 2 + 1), *o = out;
	int max = 0;

	if (!out)
		return NULL;
	for (const char *p = sql; *p;) {
		if (*p == '\'' || *p == '"') {
			const char *e = past_quote(p);

			memcpy(o, p, (size_t)(e - p));
			o += e - p;
			p = e;
		} else if (*p == '?') {
			long v;

			p++;
			if (isdigit((unsigned char)*p)) {
				char *end;

				v = strtol(p, &end, 10);
				p = end;
			} else {
				v = max + 1;
			}
			if (v < 1 || v > SQL_MAX_PARAMS) {
				free(out);
				return NULL;
			}
			if (v > max)
				max = (int)v;
			o += sprintf(o, "$%ld", v);
		} else {
			*o++ = *p++;
		}
	}
	*o = '\0';
	*nparams = max;
	return out;
}

/* Whether the upper-case word w starts at p, standing alone. */
static bool word_at(const char *start, const char *p, const char *w)
{
	size_t n = strlen(w);

	return !strncmp(p, w, n) && (p == start || !(isalnum((unsigned char)p[-1]) || p[-1] == '_')) &&
	       !(isalnum((unsigned char)p[n]) || p[n] == '_');
}

char *sql_pg_ddl(const char *sql)
{
	static const char *const map[][2] = {
		{ "id INTEGER PRIMARY KEY", "id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY" },
		{ "INTEGER", "BIGINT" },
		{ "REAL", "DOUBLE PRECISION" },
	};
	size_t len = strlen(sql);
	char *out = malloc(len * 3 + 1), *o = out;

	if (!out)
		return NULL;
	for (const char *p = sql; *p;) {
		size_t k;

		if (*p == '\'' || *p == '"') {
			const char *e = past_quote(p);

			memcpy(o, p, (size_t)(e - p));
			o += e - p;
			p = e;
			continue;
		}
		for (k = 0; k < sizeof(map) / sizeof(map[0]); k++)
			if (word_at(sql, p, map[k][0]))
				break;
		if (k < sizeof(map) / sizeof(map[0])) {
			o += sprintf(o, "%s", map[k][1]);
			p += strlen(map[k][0]);
		} else {
			*o++ = *p++;
		}
	}
	*o = '\0';
	return out;
}

int sql_prepare(struct sql *c, const char *sql, struct sql_st **out)
{
	struct sql_st *s = calloc(1, sizeof(*s));

	*out = NULL;
	if (!s) {
		if (c->kind == SQL_PG)
			pg_set_msg(c, "out of memory", NULL);
		return -ENOMEM;
	}
	s->c = c;
	if (c->kind == SQL_SQLITE) {
		if (sqlite3_prepare_v2(c->lite, sql, -1, &s->lite, NULL) != SQLITE_OK) {
			free(s);
			return sql_errno(c);
		}
	} else if (!(s->text = sql_pg_params(sql, &s->nparams))) {
		pg_set_msg(c, "a statement with too many parameters", NULL);
		free(s);
		return -EINVAL;
	}
	s->row = -1;
	*out = s;
	return 0;
}

static void pg_bind(struct sql_st *s, int i, char *v, Oid type)
{
	if (i < 1 || i > s->nparams) {
		free(v);
		return;
	}
	free(s->val[i - 1]);
	s->val[i - 1] = v;
	s->type[i - 1] = type;
}

void sql_bind_int(struct sql_st *s, int i, int64_t v)
{
	char buf[24];

	if (s->lite) {
		sqlite3_bind_int64(s->lite, i, v);
		return;
	}
	snprintf(buf, sizeof(buf), "%" PRId64, v);
	pg_bind(s, i, strdup(buf), OID_INT8);
}

void sql_bind_double(struct sql_st *s, int i, double v)
{
	char buf[32];

	if (!isfinite(v) && s->lite) {
		sqlite3_bind_null(s->lite, i);
		return;
	}
	if (!isfinite(v)) {	/* a NULL of its type: "? IS NULL" needs one */
		pg_bind(s, i, NULL, OID_FLOAT8);
		return;
	}
	if (s->lite) {
		sqlite3_bind_double(s->lite, i, v);
		return;
	}
	snprintf(buf, sizeof(buf), "%.17g", v);
	pg_bind(s, i, strdup(buf), OID_FLOAT8);
}

void sql_bind_text(struct sql_st *s, int i, const char *v, size_t len)
{
	if (!v && s->lite) {
		sqlite3_bind_null(s->lite, i);
		return;
	}
	if (!v) {
		pg_bind(s, i, NULL, OID_TEXT);
		return;
	}
	if (s->lite) {
		sqlite3_bind_text(s->lite, i, v, (int)len, SQLITE_TRANSIENT);
		return;
	}
	pg_bind(s, i, strndup(v, len), OID_TEXT);
}

void sql_bind_str(struct sql_st *s, int i, const char *v)
{
	sql_bind_text(s, i, v, v ? strlen(v) : 0);
}

void sql_bind_null(struct sql_st *s, int i)
{
	if (s->lite)
		sqlite3_bind_null(s->lite, i);
	else
		pg_bind(s, i, NULL, 0);	/* the type from where it is used */
}

int sql_step(struct sql_st *s)
{
	struct sql *c = s->c;
	int rc;

	if (s->lite) {
		rc = sqlite3_step(s->lite);
		return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : sql_errno(c);
	}
	if (!s->res) {
		s->res = PQexecParams(c->pg, s->text, s->nparams, s->type, (const char *const *)s->val, NULL, NULL, 0);
		if (PQresultStatus(s->res) != PGRES_TUPLES_OK && PQresultStatus(s->res) != PGRES_COMMAND_OK) {
			pg_set_res(c, s->res);
			PQclear(s->res);
			s->res = NULL;
			return sql_errno(c);
		}
		s->nrows = PQntuples(s->res);
		s->row = -1;
	}
	if (s->row + 1 >= s->nrows) {
		s->row = s->nrows;
		return 0;
	}
	s->row++;
	return 1;
}

void sql_reset(struct sql_st *s)
{
	if (s->lite) {
		sqlite3_reset(s->lite);
		return;
	}
	PQclear(s->res);
	s->res = NULL;
	s->row = -1;
}

void sql_finalize(struct sql_st *s)
{
	if (!s)
		return;
	if (s->lite)
		sqlite3_finalize(s->lite);
	PQclear(s->res);
	for (int i = 0; i < s->nparams; i++)
		free(s->val[i]);
	free(s->text);
	free(s);
}

/* PostgreSQL: the cell of the current row, NULL for SQL NULL or no row. */
static const char *pg_cell(struct sql_st *s, int i)
{
	if (!s->res || s->row < 0 || s->row >= s->nrows || i < 0 || i >= PQnfields(s->res) ||
	    PQgetisnull(s->res, s->row, i))
		return NULL;
	return PQgetvalue(s->res, s->row, i);
}

int sql_ncols(struct sql_st *s)
{
	if (s->lite)
		return sqlite3_column_count(s->lite);
	return s->res ? PQnfields(s->res) : 0;
}

const char *sql_col_name(struct sql_st *s, int i)
{
	if (s->lite)
		return sqlite3_column_name(s->lite, i);
	return s->res ? PQfname(s->res, i) : NULL;
}

enum sql_type sql_col_type(struct sql_st *s, int i)
{
	if (s->lite) {
		switch (sqlite3_column_type(s->lite, i)) {
		case SQLITE_INTEGER: return SQL_INT;
		case SQLITE_FLOAT: return SQL_FLOAT;
		case SQLITE_TEXT: return SQL_TEXT;
		default: return SQL_NULL;
		}
	}
	if (!pg_cell(s, i))
		return SQL_NULL;
	switch (PQftype(s->res, i)) {
	case OID_INT8: case OID_INT4: case OID_INT2: case OID_BOOL: return SQL_INT;
	case OID_FLOAT8: case OID_FLOAT4: case OID_NUMERIC: return SQL_FLOAT;
	default: return SQL_TEXT;
	}
}

int64_t sql_col_int(struct sql_st *s, int i)
{
	const char *v;

	if (s->lite)
		return sqlite3_column_int64(s->lite, i);
	if (!(v = pg_cell(s, i)))
		return 0;
	if (!strcmp(v, "t"))
		return 1;
	if (strchr(v, '.') || strchr(v, 'e'))
		return (int64_t)strtod(v, NULL);
	return strtoll(v, NULL, 10);
}

double sql_col_double(struct sql_st *s, int i)
{
	const char *v;

	if (s->lite)
		return sqlite3_column_type(s->lite, i) == SQLITE_NULL ? NAN : sqlite3_column_double(s->lite, i);
	if (!(v = pg_cell(s, i)))
		return NAN;
	return strtod(v, NULL);
}

const char *sql_col_text(struct sql_st *s, int i)
{
	const char *v;

	if (s->lite) {
		v = (const char *)sqlite3_column_text(s->lite, i);
		return v ? v : "";
	}
	return (v = pg_cell(s, i)) ? v : "";
}

size_t sql_col_len(struct sql_st *s, int i)
{
	if (s->lite)
		return (size_t)sqlite3_column_bytes(s->lite, i);
	return pg_cell(s, i) ? (size_t)PQgetlength(s->res, s->row, i) : 0;
}
