/* libFuzzer target for 'runs import': an export file comes from another
 * tester, so any bytes must either be stored as runs the store accepts or
 * refused whole, leaving the store as it was. Build and run with
 * tests/fuzz/run.sh. */
#include <json-c/json.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store/db.h"
#include "store/db_export.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)

static struct db *db;
static char dir[] = "/tmp/wr-fuzz-import.XXXXXX";

static void gone(void)
{
	char p[64];

	db_close(db);
	snprintf(p, sizeof(p), "rm -rf %s", dir);
	if (system(p))
		return;
}

static int64_t count(const char *table)
{
	char sql[64];
	sqlite3_stmt *st;
	int64_t n = -1;

	snprintf(sql, sizeof(sql), "SELECT count(*) FROM %s", table);
	CHECK(sqlite3_prepare_v2(db_sqlite(db), sql, -1, &st, NULL) == SQLITE_OK);
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct db_import_result r;
	json_tokener *tok;
	json_object *doc;
	char err[512], path[96];

	if (!db) {
		CHECK(mkdtemp(dir));
		snprintf(path, sizeof(path), "%s/f.db", dir);
		CHECK(!db_open(path, true, &db, err, sizeof(err)));
		atexit(gone);
	}
	if (size > 1 << 20)
		return 0;
	tok = json_tokener_new();
	doc = json_tokener_parse_ex(tok, (const char *)data, (int)size);
	json_tokener_free(tok);
	if (!doc)
		return 0;
	if (db_export_read(db, doc, &r, err, sizeof(err))) {
		CHECK(r.imported == 0 && r.skipped == 0);
		CHECK(count("runs") == 0 && count("trials") == 0 && count("trial_loss") == 0);
		CHECK(strnlen(err, sizeof(err)) < sizeof(err) && err[0]);
	} else {
		CHECK(count("runs") == (int64_t)r.imported);
		CHECK(r.imported == 0 || (r.first > 0 && r.last >= r.first));
		/* what went in comes out again */
		if (r.imported) {
			int64_t id = r.first;
			json_object *back = NULL;

			CHECK(!db_export_write(db, &id, 1, "fuzz", &back, err, sizeof(err)));
			json_object_put(back);
		}
		CHECK(sqlite3_exec(db_sqlite(db), "DELETE FROM runs", NULL, NULL, NULL) == SQLITE_OK);
	}
	json_object_put(doc);
	return 0;
}
