/* The store on a PostgreSQL server: the connection, the check that the
 * database (its current schema) is wirerate's, and the schema made there.
 * Private to src/store; db.c opens through it. */
#ifndef WR_STORE_DB_PG_H
#define WR_STORE_DB_PG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sql;

/* Whether path names a PostgreSQL store: a libpq URI, "postgresql://..."
 * or "postgres://...". */
bool db_pg_is_uri(const char *path);

/* Connect to uri and check what its schema holds, as db_open and
 * db_open_read do for a file: -EINVAL refused (a password in the URI, an
 * unreachable or refusing server, another program's tables, a trigger or
 * a rule on ours); -EPROTO a newer schema; -ENOENT no wirerate tables
 * for a reader. A writer makes the schema in an empty database, as in an
 * empty file (db_open's create is for a file that is not there), under an
 * advisory lock, so that two testers starting at once make it once.
 * *found: the schema version found (0: none). */
int db_pg_open(const char *uri, bool write, struct sql **out, int64_t *found, char *err, size_t errlen);

/* The lock a running run's writer holds on its session for the run's
 * life: another tester sees the run alive exactly while the lock is held,
 * and a killed writer's connection drops it. */
int db_pg_run_lock(struct sql *c, int64_t run, bool lock);
/* 1: the run's writer holds its lock; 0: no one does; < 0: failed. */
int db_pg_run_alive(struct sql *c, int64_t run);

#endif
