/* Runs that travel: stored runs as one JSON document, and that document
 * read back into another store (`wirerate runs export` and `runs
 * import`). Every row of a run goes, table by table, column by column
 * (the run, its tags and environment, its trials with their CPU figures
 * and loss attribution, its per-size results and frame loss steps), so
 * that a report of the imported runs is the report of the exported ones.
 *
 * The document:
 *   {"wirerate": {"export": 1, "schema": 5, "version": "..."},
 *    "runs": [{"run": {column: value, ...}, "tags": [...], "env": [...],
 *              "results": [...], "loss_steps": [...],
 *              "trials": [{column: value, ..., "cpu": [...], "loss_dir": [...],
 *                          "loss": [...]}]}]}
 * Ids are the exporting store's; import gives new ones. A run whose UUID
 * the store already holds is skipped, not stored twice.
 *
 * An imported file is untrusted: only the columns the store's own tables
 * have are taken (an unknown one refuses the whole file), values are
 * numbers, strings of at most DB_EXPORT_TEXT_MAX bytes or null, the
 * store's own constraints apply, and everything is one transaction: a
 * file that fails leaves the store as it was. */
#ifndef WR_STORE_DB_EXPORT_H
#define WR_STORE_DB_EXPORT_H

#include <stddef.h>
#include <stdint.h>

struct db;
struct json_object;

#define DB_EXPORT_FORMAT 1
#define DB_EXPORT_TEXT_MAX 65536	/* bytes of one text value */
#define DB_EXPORT_FILE_MAX (256u << 20)	/* bytes of a file import reads */

/* The runs ids[0..n) as a document (*doc, the caller's to put), made by
 * wirerate version. -ENOENT with the id in err when one is not stored. */
int db_export_write(struct db *db, const int64_t *ids, size_t n, const char *version, struct json_object **doc, char *err,
	      size_t errlen);

struct db_import_result {
	unsigned int imported, skipped;	/* skipped: the UUID was there already */
	int64_t first, last;		/* the new ids (0: none imported) */
};

/* Store the runs of doc. -EINVAL with a reason for a document that is
 * not an export of a known format, or a row the store refuses (nothing
 * stored then); other -errno: the host failed. */
int db_export_read(struct db *db, struct json_object *doc, struct db_import_result *r, char *err, size_t errlen);

#endif
