/* The stored runs as a list: the queries 'runs' and the matrix make,
 * with typed rows. */
#ifndef WR_STORE_DB_RUNS_H
#define WR_STORE_DB_RUNS_H

#include <stddef.h>
#include <stdint.h>

#include "store/db.h"

/* Which runs: NULL / 0 fields take all. */
struct db_run_filter {
	const char *label;
	const char *tag;
	int64_t since;			/* Unix time: started at or after */
	const char *dut;		/* the DUT's name as stored (env dut.name:
					 * "lab wr-", "local", "ssh:root@dut") */
};

/* One run as listed; the strings are "" when the column is NULL and last
 * only for the call of the row function. */
struct db_run_row {
	int64_t id, started, pid, repeats, ntrials;
	const char *label, *test, *sizes, *status, *boot_id, *headline, *config;
	const char *tags;		/* comma-separated */
	const char *tester;		/* the tester's host name (env host.name) */
	const char *dut;		/* the DUT's name (env dut.name) */
	const char *uuid;
};

/* Call fn for each run that f lets through, oldest first; fn's non-zero
 * return stops the list and is returned. -EIO with the database's reason
 * in err when the query fails. */
int db_runs_list(struct db *db, const struct db_run_filter *f,
		 int (*fn)(void *ctx, const struct db_run_row *r), void *ctx, char *err, size_t errlen);

/* Each key and value of run id's environment, in key order, to fn; fn's
 * non-zero return stops and is returned. -EIO with err when the query
 * fails. */
int db_runs_env(struct db *db, int64_t id, int (*fn)(void *ctx, const char *key, const char *value), void *ctx,
	       char *err, size_t errlen);

/* The newest run tagged tag in *id (0: none). */
int db_runs_tag_newest(struct db *db, const char *tag, int64_t *id, char *err, size_t errlen);

#endif
