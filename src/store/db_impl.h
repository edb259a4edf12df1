/* What db.c (a store's handle, its runs written and removed) and
 * db_open.c (a store opened) share: not for use outside src/store/db*.c. */
#ifndef WR_STORE_DB_IMPL_H
#define WR_STORE_DB_IMPL_H

#include <stdint.h>
#include <stdio.h>

#include <sqlite3.h>

#include "store/db.h"
#include "store/sql.h"

struct db {
	sqlite3 *h;		/* NULL on PostgreSQL */
	struct sql *c;		/* either backend */
	int64_t found_version;	/* the file's schema version as opened */
	char path[4096];
};

/* err = "what: " and SQLite's message; SQLite's code as -errno. */
static inline int db_sqlerr(sqlite3 *h, const char *what, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s: %s", what, sqlite3_errmsg(h));
	return sql_sqlite_errno(sqlite3_errcode(h));
}

#endif
