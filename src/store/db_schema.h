/* The results store's schema, private to src/store: the SQL of each
 * version, the migration, and the check that a file holds nothing else
 * (no trigger, no view, no object that the schema does not make). */
#ifndef WR_STORE_DB_SCHEMA_H
#define WR_STORE_DB_SCHEMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sqlite3;

/* The SQL that makes schema version v from nothing ("" for 0), NULL for a
 * version this build does not know. */
const char *db_schema_sql(int64_t v);
/* From version 1 to 2, inside the caller's transaction. */
extern const char db_migrate_1_2[];
/* From version 2 to 3 (the loss attribution's tables). */
extern const char db_migrate_2_3[];
/* From version 3 to 4 (trial_cpu's soak check and stall probe columns). */
extern const char db_migrate_3_4[];
extern const char db_migrate_4_5[];
/* From version 5 to 6 (the trials' profiles); plain SQL that PostgreSQL
 * runs too, once sql_pg_ddl has named its types. */
extern const char db_migrate_5_6[];
/* From 6 to 7: the streams' figures. */
extern const char db_migrate_6_7[];
extern const char db_migrate_7_8[];

/* Refuse (-EINVAL with err naming path and the object) a file whose
 * sqlite_master holds an object that schema version v does not make,
 * compared by type, name and table: a trigger would run on wirerate's
 * own writes, a view could stand in for a table. SQLite's statistics
 * tables (ANALYZE) are allowed. Only reads h. */
/* The tables schema version v makes, by name, comma-separated into buf. */
int db_schema_tables(int64_t v, char *buf, size_t len, char *err, size_t errlen);

int db_schema_check(struct sqlite3 *h, const char *path, int64_t v, char *err, size_t errlen);

#endif
