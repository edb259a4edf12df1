/* The results store on real files in a temporary directory: schema
 * creation, migration from version 1 with its data, refusal of files that
 * are not ours or carry objects of their own (untouched), readers that
 * never write, two writers at once, a held connection beside a writer
 * in another process, cascading deletes, the status of a
 * run whose process died. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include <sqlite3.h>

#include "store/db.h"
#include "store/db_schema.h"
#include "os/procstat.h"

static char dir[256];

static void path_of(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", dir, name);
}

static int64_t q_int(struct db *db, const char *sql)
{
	sqlite3_stmt *st;
	int64_t v = -1;

	assert_int_equal(sqlite3_prepare_v2(db_sqlite(db), sql, -1, &st, NULL), SQLITE_OK);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

static void q_text(struct db *db, const char *sql, char *buf, size_t len)
{
	sqlite3_stmt *st;

	buf[0] = '\0';
	assert_int_equal(sqlite3_prepare_v2(db_sqlite(db), sql, -1, &st, NULL), SQLITE_OK);
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
		snprintf(buf, len, "%s", (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
}

static int64_t new_run(struct db *db, const char *label)
{
	const char *tags[] = { "ci", "veth" };
	struct db_run_info ri = { .test = "rfc2544 throughput", .label = label, .tags = tags, .ntags = 2,
				  .sizes = "64,512", .config = "placement=bound rules=0", .repeats = 1,
				  .precision = 0.005 };
	struct db_kv env[] = { { "kernel.release", "6.1.0-test" }, { "cpu.count", "2" } };
	char err[256];
	int64_t id = 0;

	assert_int_equal(db_run_begin(db, &ri, env, 2, &id, err, sizeof(err)), 0);
	assert_true(id > 0);
	return id;
}

static void add_trials(struct db *db, int64_t run, unsigned int n)
{
	char err[256];

	for (unsigned int i = 0; i < n; i++) {
		struct db_trial t = { .size = 64, .test = 't', .load = 1000.0 + i, .duration_s = 1,
				      .tx = 1000 + i, .rx = 1000 + i, .cpu_valid = i % 2,
				      .cpu_busy_pct = 30, .cpu_soak_pct = -1, .ns_per_frame = 870,
				      .cpu_source = "/proc/stat" };

		assert_int_equal(db_trial_add(db, run, &t, err, sizeof(err)), 0);
	}
}

static void create_schema(void **st)
{
	char p[300], err[256], v[64];
	struct db *db;

	path_of(p, sizeof(p), "sub/dir/new.db");	/* directories are made */
	assert_int_equal(db_open(p, true, &db, err, sizeof(err)), 0);
	assert_int_equal(q_int(db, "PRAGMA user_version"), DB_SCHEMA_VERSION);
	assert_int_equal(q_int(db, "PRAGMA application_id"), DB_APPLICATION_ID);
	assert_int_equal(q_int(db, "PRAGMA foreign_keys"), 1);
	q_text(db, "PRAGMA journal_mode", v, sizeof(v));
	assert_string_equal(v, "wal");
	for (const char *const *t = (const char *const[]){ "runs", "trials", "trial_cpu", "results",
							   "loss_steps", "env", "tags", NULL }; *t; t++) {
		char sql[128];

		snprintf(sql, sizeof(sql), "SELECT count(*) FROM sqlite_master WHERE type='table' AND name='%s'", *t);
		assert_int_equal(q_int(db, sql), 1);
	}
	int64_t id = new_run(db, "2.6.29");

	add_trials(db, id, 5);
	assert_int_equal(q_int(db, "SELECT count(*) FROM trials"), 5);
	assert_int_equal(q_int(db, "SELECT count(*) FROM trial_cpu"), 2);
	assert_int_equal(q_int(db, "SELECT count(*) FROM tags"), 2);
	assert_int_equal(q_int(db, "SELECT count(*) FROM env"), 2);
	q_text(db, "SELECT status FROM runs", v, sizeof(v));
	assert_string_equal(v, "running");
	assert_int_equal(db_run_end(db, id, "complete", "NDR 64:1k", err, sizeof(err)), 0);
	q_text(db, "SELECT status FROM runs", v, sizeof(v));
	assert_string_equal(v, "complete");

	struct db_loss_step ls[2] = { { 100, 2000, 1000, 500, 50, false }, { 90, 1800, 900, 900, 0, false } };
	struct db_result r = { .size = 64, .repeat = 0, .max_load = 2000, .ndr_valid = true, .ndr_lower = 1000,
			       .ndr_upper = 1010, .pdr_valid = false, .width_pps = 10, .ns_per_frame = NAN,
			       .b2b_avg = NAN, .b2b_min = NAN, .b2b_max = NAN, .loss = ls, .nloss = 2 };

	assert_int_equal(db_result_add(db, id, &r, err, sizeof(err)), 0);
	assert_int_equal(q_int(db, "SELECT count(*) FROM results WHERE pdr_lower IS NULL AND ndr_lower = 1000"), 1);
	assert_int_equal(q_int(db, "SELECT count(*) FROM loss_steps"), 2);
	assert_int_equal(db_integrity(db, err, sizeof(err)), 0);

	/* A delete takes everything of the run with it. */
	assert_int_equal(db_run_delete(db, id, err, sizeof(err)), 0);
	for (const char *const *t = (const char *const[]){ "runs", "trials", "trial_cpu", "results",
							   "loss_steps", "env", "tags", NULL }; *t; t++) {
		char sql[128];

		snprintf(sql, sizeof(sql), "SELECT count(*) FROM %s", *t);
		assert_int_equal(q_int(db, sql), 0);
	}
	assert_int_equal(db_run_delete(db, id, err, sizeof(err)), -ENOENT);
	db_close(db);

	/* Opened again: nothing to do, same version. */
	assert_int_equal(db_open(p, false, &db, err, sizeof(err)), 0);
	assert_int_equal(q_int(db, "PRAGMA user_version"), DB_SCHEMA_VERSION);
	db_close(db);
}

static void migrate_from_v1(void **st)
{
	char p[300], err[256], sql[256];
	sqlite3 *h;
	struct db *db;

	path_of(p, sizeof(p), "v1.db");
	assert_int_equal(sqlite3_open(p, &h), SQLITE_OK);
	assert_int_equal(sqlite3_exec(h, db_schema_v1, NULL, NULL, NULL), SQLITE_OK);
	snprintf(sql, sizeof(sql), "PRAGMA application_id = %d; PRAGMA user_version = 1", DB_APPLICATION_ID);
	assert_int_equal(sqlite3_exec(h, sql, NULL, NULL, NULL), SQLITE_OK);
	/* One run: a search on 64 bytes; full-length trials (2 s) passed at
	 * 30000 and 35000, failed at 40000; a short one (0.5 s) at 50000. */
	assert_int_equal(sqlite3_exec(h,
		"INSERT INTO runs (id, started, test, sizes, status) VALUES (7, 1700000000, 'rfc2544 throughput', '64', 'complete');"
		"INSERT INTO trials (run_id, size, test, load, duration_s, tx, rx, cpu_busy_pct, ns_per_frame) VALUES"
		" (7, 64, 't', 50000, 0.5, 25000, 25000, 40, 900),"
		" (7, 64, 't', 30000, 2, 60000, 60000, 30, 880),"
		" (7, 64, 't', 40000, 2, 80000, 70000, NULL, NULL),"
		" (7, 64, 't', 35000, 2, 70000, 70000, 35, 870);",
		NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(h);

	assert_int_equal(db_open(p, true, &db, err, sizeof(err)), 0);
	assert_int_equal(q_int(db, "PRAGMA user_version"), DB_SCHEMA_VERSION);
	assert_int_equal(q_int(db, "SELECT count(*) FROM runs WHERE id = 7 AND label = '' AND status = 'complete'"), 1);
	assert_int_equal(q_int(db, "SELECT count(*) FROM trials WHERE run_id = 7"), 4);
	assert_int_equal(q_int(db, "SELECT sum(tx) FROM trials"), 235000);
	assert_int_equal(q_int(db, "SELECT count(*) FROM trial_cpu"), 3);
	assert_int_equal(q_int(db, "SELECT count(*) FROM trial_cpu c JOIN trials t ON t.id = c.trial_id"
				   " WHERE t.load = 35000 AND c.ns_per_frame = 870"), 1);
	/* The NDR of the size, derived from the full-length trials. */
	assert_int_equal(q_int(db, "SELECT ndr_lower FROM results WHERE run_id = 7 AND size = 64"), 35000);
	assert_int_equal(q_int(db, "PRAGMA foreign_key_check"), -1);	/* no rows */
	assert_int_equal(db_integrity(db, err, sizeof(err)), 0);
	assert_int_equal(db_found_version(db), 1);
	/* The old run got a UUID of its own (schema 5). */
	assert_int_equal(q_int(db, "SELECT count(*) FROM runs WHERE id = 7 AND length(uuid) = 36"
				   " AND substr(uuid, 15, 1) = '4'"), 1);
	/* And the migrated file takes new data. */
	add_trials(db, 7, 2);
	assert_int_equal(q_int(db, "SELECT count(*) FROM trials WHERE run_id = 7"), 6);
	new_run(db, "after");
	/* every run its own UUID */
	assert_int_equal(q_int(db, "SELECT count(DISTINCT uuid) FROM runs WHERE length(uuid) = 36"), 2);
	db_close(db);
	/* It holds what a fresh file does: readers and writers take it. */
	assert_int_equal(db_open_read(p, &db, err, sizeof(err)), 0);
	assert_int_equal(db_found_version(db), DB_SCHEMA_VERSION);
	db_close(db);
	assert_int_equal(db_open(p, false, &db, err, sizeof(err)), 0);
	assert_int_equal(db_found_version(db), DB_SCHEMA_VERSION);
	db_close(db);
}

/* A version 2 file gains trial_cpu's soak check and stall columns; its
 * trials keep NULL there (no check was made), new ones fill them. */
static void migrate_from_v2_cpu(void **st)
{
	char p[300], err[256], sql[256];
	sqlite3 *h;
	struct db *db;
	int64_t run;

	path_of(p, sizeof(p), "v2cpu.db");
	assert_int_equal(sqlite3_open(p, &h), SQLITE_OK);
	assert_int_equal(sqlite3_exec(h, db_schema_sql(2), NULL, NULL, NULL), SQLITE_OK);
	snprintf(sql, sizeof(sql), "PRAGMA application_id = %d; PRAGMA user_version = 2", DB_APPLICATION_ID);
	assert_int_equal(sqlite3_exec(h, sql, NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_exec(h,
		"INSERT INTO runs (id, started, test, status) VALUES (3, 1700000000, 'trial', 'complete');"
		"INSERT INTO trials (id, run_id, size, test, load, duration_s, tx, rx) VALUES (1, 3, 64, 'x', 1000, 1, 1000, 1000);"
		"INSERT INTO trial_cpu (trial_id, busy_pct, soak_pct, ns_per_frame, source) VALUES (1, 30, 32, 900, 'soak');",
		NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(h);

	assert_int_equal(db_open(p, true, &db, err, sizeof(err)), 0);
	assert_int_equal(q_int(db, "PRAGMA user_version"), DB_SCHEMA_VERSION);
	assert_int_equal(db_found_version(db), 2);
	assert_int_equal(q_int(db, "SELECT count(*) FROM trial_cpu WHERE trial_id = 1 AND soak_trusted IS NULL"
				   " AND stall_max_ns IS NULL AND ns_per_frame = 900"), 1);
	assert_int_equal(db_run_begin(db, &(struct db_run_info){ .test = "trial" }, NULL, 0, &run, err, sizeof(err)), 0);
	struct db_trial t = { .size = 64, .test = 'x', .load = 1000, .duration_s = 1, .tx = 10, .rx = 10,
			      .cpu_valid = true, .cpu_busy_pct = 30, .cpu_soak_pct = 40, .ns_per_frame = 870,
			      .cpu_source = "soak", .soak_trusted = -1, .soak_note = "idle speed of CPU 1 is 23% below",
			      .stall_valid = true, .stall_max_ns = 3.2e6, .stall_cpu = 1, .stalls = 4,
			      .stall_threshold_ns = 1e6, .stall_fifo = true, .steal_pct = -1 };

	assert_int_equal(db_trial_add(db, run, &t, err, sizeof(err)), 0);
	assert_int_equal(q_int(db, "SELECT count(*) FROM trial_cpu WHERE soak_trusted = 0 AND soak_note LIKE 'idle speed%'"
				   " AND stall_max_ns = 3200000 AND stall_cpu = 1 AND stalls = 4 AND stall_fifo = 1"
				   " AND steal_pct IS NULL"), 1);
	assert_int_equal(db_integrity(db, err, sizeof(err)), 0);
	db_close(db);
}

/* A version 2 file gains the loss attribution's tables, its trials none;
 * a trial stored with an attribution keeps every entry, and goes with
 * its run. */
static void migrate_from_v2_loss(void **st)
{
	char p[300], err[256], sql[256], text[128];
	sqlite3 *h;
	struct db *db;
	struct lossattr a[2] = { 0 };

	(void)st;
	path_of(p, sizeof(p), "v2.db");
	assert_int_equal(sqlite3_open(p, &h), SQLITE_OK);
	assert_int_equal(sqlite3_exec(h, db_schema_sql(2), NULL, NULL, NULL), SQLITE_OK);
	snprintf(sql, sizeof(sql), "PRAGMA application_id = %d; PRAGMA user_version = 2", DB_APPLICATION_ID);
	assert_int_equal(sqlite3_exec(h, sql, NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_exec(h,
		"INSERT INTO runs (id, started, test, sizes, status) VALUES (3, 1700000000, 'trial', '64', 'complete');"
		"INSERT INTO trials (run_id, size, test, load, duration_s, tx, rx) VALUES (3, 64, 'x', 1000, 1, 1000, 900);",
		NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(h);

	assert_int_equal(db_open(p, true, &db, err, sizeof(err)), 0);
	assert_int_equal(db_found_version(db), 2);
	assert_int_equal(q_int(db, "PRAGMA user_version"), DB_SCHEMA_VERSION);
	assert_int_equal(q_int(db, "SELECT count(*) FROM trial_loss"), 0);
	assert_int_equal(q_int(db, "SELECT count(*) FROM trial_loss_dir"), 0);
	a[0].lost = 100;
	lossattr_add(&a[0], LOSS_QDISC, "tbf on dut1", 60);
	lossattr_add(&a[0], LOSS_UNACCOUNTED, "", 40);
	a[0].have_dut = true;
	a[1].lost = 5;
	a[1].over = 2;
	lossattr_add(&a[1], LOSS_DUT_STACK, "nft inet t c rule 3", 7);
	struct db_trial t = { .size = 64, .test = 'x', .load = 1000, .duration_s = 1, .tx = 2000, .rx = 1895,
			      .cpu_soak_pct = -1, .loss = a, .nloss = 2 };

	assert_int_equal(db_trial_add(db, 3, &t, err, sizeof(err)), 0);
	assert_int_equal(q_int(db, "SELECT count(*) FROM trial_loss"), 3);
	assert_int_equal(q_int(db, "SELECT frames FROM trial_loss WHERE place = 'qdisc' AND detail = 'tbf on dut1'"), 60);
	assert_int_equal(q_int(db, "SELECT frames FROM trial_loss WHERE place = 'unaccounted'"), 40);
	assert_int_equal(q_int(db, "SELECT over FROM trial_loss_dir WHERE dir = 1"), 2);
	assert_int_equal(q_int(db, "SELECT dut_counters FROM trial_loss_dir WHERE dir = 0"), 1);
	q_text(db, "SELECT detail FROM trial_loss WHERE dir = 1", text, sizeof(text));
	assert_string_equal(text, "nft inet t c rule 3");
	assert_int_equal(db_integrity(db, err, sizeof(err)), 0);
	db_close(db);
	assert_int_equal(db_open_read(p, &db, err, sizeof(err)), 0);
	assert_int_equal(db_found_version(db), DB_SCHEMA_VERSION);
	db_close(db);
}

/* Several runs at once: a missing id among them deletes none; an id
 * given twice is no error. */
static void delete_all_or_none(void **st)
{
	char p[300], err[256];
	struct db *db;

	path_of(p, sizeof(p), "rm.db");
	assert_int_equal(db_open(p, true, &db, err, sizeof(err)), 0);
	int64_t a = new_run(db, "a"), b = new_run(db, "b"), c = new_run(db, "c");

	add_trials(db, a, 3);
	int64_t bad[] = { a, b + 1000, c };

	assert_int_equal(db_delete_runs(db, bad, 3, err, sizeof(err)), -ENOENT);
	char want[64];

	snprintf(want, sizeof(want), "no run %lld", (long long)(b + 1000));
	assert_string_equal(err, want);
	assert_int_equal(q_int(db, "SELECT count(*) FROM runs"), 3);
	assert_int_equal(q_int(db, "SELECT count(*) FROM trials"), 3);
	/* and the connection is not left inside a transaction */
	assert_int_equal(sqlite3_get_autocommit(db_sqlite(db)), 1);

	int64_t twice[] = { a, c, a };

	assert_int_equal(db_delete_runs(db, twice, 3, err, sizeof(err)), 0);
	assert_int_equal(q_int(db, "SELECT count(*) FROM runs"), 1);
	assert_int_equal(q_int(db, "SELECT id FROM runs"), b);
	assert_int_equal(q_int(db, "SELECT count(*) FROM trials"), 0);
	db_close(db);
}

/* In the child: read the store in a place it cannot write, and be told
 * "read-only" when asking to write. The exit status says what failed. */
static int read_only_child(const char *p)
{
	char err[512] = "";
	sqlite3_stmt *st;
	struct db *db;
	int n = -1;

	if (setgid(65534) || setuid(65534))
		return 10;
	if (db_open_read(p, &db, err, sizeof(err))) {
		fprintf(stderr, "db_open_read: %s\n", err);
		return 1;
	}
	if (sqlite3_prepare_v2(db_sqlite(db), "SELECT count(*) FROM runs", -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	db_close(db);
	if (n != 1)
		return 2;
	if (db_open(p, false, &db, err, sizeof(err)) != -EACCES || !strstr(err, "read-only")) {
		fprintf(stderr, "db_open: %s\n", err);
		return 3;
	}
	return 0;
}

/* A store in a directory nobody may write (WAL needs its -shm file there):
 * read as it is, nothing created, and a writer told it is read-only. */
static void read_only_place(void **st)
{
	char d[300], p[320], side[330], err[256];
	struct db *db;
	pid_t kid;
	int ws;

	if (geteuid() != 0)
		skip();	/* needs to become another user */
	path_of(d, sizeof(d), "ro");
	assert_int_equal(mkdir(d, 0755), 0);
	assert_int_equal(chmod(dir, 0711), 0);
	snprintf(p, sizeof(p), "%s/r.db", d);
	assert_int_equal(db_open(p, true, &db, err, sizeof(err)), 0);
	new_run(db, "ro");
	db_close(db);
	assert_int_equal(chmod(p, 0644), 0);
	kid = fork();
	assert_true(kid >= 0);
	if (kid == 0)
		_exit(read_only_child(p));
	assert_int_equal(waitpid(kid, &ws, 0), kid);
	assert_true(WIFEXITED(ws));
	assert_int_equal(WEXITSTATUS(ws), 0);
	snprintf(side, sizeof(side), "%s-shm", p);
	assert_int_not_equal(access(side, F_OK), 0);
	snprintf(side, sizeof(side), "%s-wal", p);
	assert_int_not_equal(access(side, F_OK), 0);
}

static void read_file(const char *p, char *buf, size_t len, size_t *n)
{
	FILE *f = fopen(p, "rb");

	assert_non_null(f);
	*n = fread(buf, 1, len, f);
	fclose(f);
}

/* db_open must refuse p with -EINVAL and leave its bytes alone. */
static void refused_untouched(const char *p, const char *want)
{
	static char before[1 << 16], after[1 << 16];
	char err[512] = "";
	size_t nb, na;
	struct db *db = NULL;

	read_file(p, before, sizeof(before), &nb);
	assert_int_equal(db_open(p, true, &db, err, sizeof(err)), -EINVAL);
	assert_null(db);
	assert_non_null(strstr(err, want));
	read_file(p, after, sizeof(after), &na);
	assert_int_equal(nb, na);
	assert_memory_equal(before, after, nb);
	char side[320];

	snprintf(side, sizeof(side), "%s-wal", p);
	assert_int_not_equal(access(side, F_OK), 0);	/* no WAL file was made */
}

static void refuse_foreign(void **st)
{
	char p[300];
	sqlite3 *h;
	FILE *f;

	path_of(p, sizeof(p), "notes.txt");
	f = fopen(p, "w");
	fputs("these are my notes, not a database\n", f);
	fclose(f);
	refused_untouched(p, "not a SQLite database");

	path_of(p, sizeof(p), "other.db");
	assert_int_equal(sqlite3_open(p, &h), SQLITE_OK);
	assert_int_equal(sqlite3_exec(h, "CREATE TABLE accounts (id INTEGER, owner TEXT);"
					 "INSERT INTO accounts VALUES (1, 'alice');", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(h);
	refused_untouched(p, "another program");

	/* A SQLite header followed by garbage. */
	path_of(p, sizeof(p), "corrupt.db");
	f = fopen(p, "wb");
	fwrite("SQLite format 3", 1, 16, f);
	for (int i = 0; i < 4096; i++)
		fputc((i * 7919) & 0xff, f);
	fclose(f);
	refused_untouched(p, "left untouched");
}

/* A store of ours (schema made by db_open) with extra SQL run on it by
 * another hand, in a file of its own name. */
static void planted(const char *name, const char *sql, char *p, size_t len)
{
	char err[256];
	struct db *db;
	sqlite3 *h;

	path_of(p, len, name);
	assert_int_equal(db_open(p, true, &db, err, sizeof(err)), 0);
	new_run(db, "victim");
	db_close(db);
	assert_int_equal(sqlite3_open(p, &h), SQLITE_OK);
	assert_int_equal(sqlite3_exec(h, sql, NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_exec(h, "PRAGMA journal_mode = DELETE", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(h);
}

/* Triggers would run on wirerate's own writes (runs rm), views could
 * stand in for a table: refused by writers and readers alike, the file
 * untouched, the error naming the object. */
static void refuse_planted(void **st)
{
	static const struct { const char *name, *sql, *want; } cases[] = {
		{ "trig.db", "CREATE TABLE spy (id INTEGER);"
			     "CREATE TRIGGER spy_rm AFTER DELETE ON runs BEGIN INSERT INTO spy VALUES (old.id); END;",
		  "table 'spy'" },
		{ "trig2.db", "CREATE TRIGGER wipe AFTER INSERT ON trials BEGIN DELETE FROM runs; END;",
		  "trigger 'wipe'" },
		{ "view.db", "CREATE VIEW v AS SELECT * FROM runs;", "view 'v'" },
		{ "index.db", "CREATE INDEX x ON runs(test);", "index 'x'" },
	};
	char p[300], err[512];
	struct db *db;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		planted(cases[i].name, cases[i].sql, p, sizeof(p));
		refused_untouched(p, cases[i].want);
		db = NULL;
		assert_int_equal(db_open_read(p, &db, err, sizeof(err)), -EINVAL);
		assert_null(db);
		assert_non_null(strstr(err, cases[i].want));
		assert_non_null(strstr(err, p));
	}
	/* SQLite's own statistics tables are no harm. */
	planted("analyzed.db", "ANALYZE;", p, sizeof(p));
	assert_int_equal(db_open_read(p, &db, err, sizeof(err)), 0);
	db_close(db);
	assert_int_equal(db_open(p, false, &db, err, sizeof(err)), 0);
	/* and the handle is defensive, the schema untrusted */
	int on = -1;

	assert_int_equal(sqlite3_db_config(db_sqlite(db), SQLITE_DBCONFIG_DEFENSIVE, -1, &on), SQLITE_OK);
	assert_int_equal(on, 1);
	assert_int_equal(q_int(db, "PRAGMA trusted_schema"), 0);
	assert_int_not_equal(sqlite3_exec(db_sqlite(db), "PRAGMA writable_schema = ON;"
					  "UPDATE sqlite_master SET sql = '' WHERE name = 'runs'", NULL, NULL, NULL),
			     SQLITE_OK);
	db_close(db);
}

static void file_bytes_same(const char *p, const char *before, size_t nb)
{
	static char after[1 << 16];
	char side[320];
	size_t na;

	read_file(p, after, sizeof(after), &na);
	assert_int_equal(nb, na);
	assert_memory_equal(before, after, nb);
	snprintf(side, sizeof(side), "%s-wal", p);
	assert_int_not_equal(access(side, F_OK), 0);
	snprintf(side, sizeof(side), "%s-journal", p);
	assert_int_not_equal(access(side, F_OK), 0);
}

/* A reader never writes: an older schema is left as it is (-ESTALE, the
 * message says how to upgrade), an empty file stays empty (-ENOENT). */
static void reader_never_writes(void **st)
{
	static char before[1 << 16];
	char p[300], err[512], sql[128];
	struct db *db = NULL;
	size_t nb;
	sqlite3 *h;
	FILE *f;

	path_of(p, sizeof(p), "old.db");
	assert_int_equal(sqlite3_open(p, &h), SQLITE_OK);
	snprintf(sql, sizeof(sql), "PRAGMA application_id = %d; PRAGMA user_version = 1", DB_APPLICATION_ID);
	assert_int_equal(sqlite3_exec(h, db_schema_v1, NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_exec(h, sql, NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_exec(h, "INSERT INTO runs (started, test) VALUES (1700000000, 'trial')",
				      NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(h);
	read_file(p, before, sizeof(before), &nb);
	assert_int_equal(db_open_read(p, &db, err, sizeof(err)), -ESTALE);
	assert_null(db);
	assert_non_null(strstr(err, "schema version 1"));
	assert_non_null(strstr(err, "wirerate runs upgrade"));
	assert_null(strchr(err, '\n'));
	file_bytes_same(p, before, nb);

	path_of(p, sizeof(p), "empty.db");
	f = fopen(p, "w");
	assert_non_null(f);
	fclose(f);
	assert_int_equal(db_open_read(p, &db, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "empty"));
	file_bytes_same(p, before, 0);
	/* a writer makes the schema in it */
	assert_int_equal(db_open(p, false, &db, err, sizeof(err)), 0);
	assert_int_equal(db_found_version(db), 0);
	db_close(db);
	assert_int_equal(db_open_read(p, &db, err, sizeof(err)), 0);
	db_close(db);
}

static void unwritable_and_absent(void **st)
{
	char err[512] = "", p[300];
	struct db *db = NULL;
	int rc;

	rc = db_open("/proc/wirerate-no/results.db", true, &db, err, sizeof(err));
	assert_true(rc < 0 && rc != -EINVAL);
	assert_null(db);
	assert_non_null(strstr(err, "/proc/wirerate-no"));
	path_of(p, sizeof(p), "absent.db");
	assert_int_equal(db_open(p, false, &db, err, sizeof(err)), -ENOENT);
	assert_int_not_equal(access(p, F_OK), 0);	/* a reader creates nothing */
	path_of(p, sizeof(p), "");
	assert_int_equal(db_open(p, true, &db, err, sizeof(err)), -EINVAL);	/* a directory */
}

/* Two processes, each its own connection and run, writing trials as fast
 * as they can at the same time: none lost, none failed. */
static void concurrent_writers(void **st)
{
	enum { N = 150 };
	char p[300], err[256];
	struct db *db;
	pid_t kid[2];

	path_of(p, sizeof(p), "busy.db");
	for (int k = 0; k < 2; k++) {
		kid[k] = fork();
		assert_true(kid[k] >= 0);
		if (kid[k] == 0) {
			/* Both also race to create the schema. */
			if (db_open(p, true, &db, err, sizeof(err))) {
				fprintf(stderr, "child open: %s\n", err);
				_exit(1);
			}
			int64_t id = new_run(db, k ? "b" : "a");

			for (unsigned int i = 0; i < N; i++) {
				struct db_trial t = { .size = 64, .test = 't', .load = i, .duration_s = 1, .tx = 1, .rx = 1 };

				if (db_trial_add(db, id, &t, err, sizeof(err))) {
					fprintf(stderr, "child %d trial %u: %s\n", k, i, err);
					_exit(1);
				}
			}
			if (db_run_end(db, id, "complete", NULL, err, sizeof(err)))
				_exit(1);
			db_close(db);
			_exit(0);
		}
	}
	for (int k = 0; k < 2; k++) {
		int ws;

		assert_int_equal(waitpid(kid[k], &ws, 0), kid[k]);
		assert_true(WIFEXITED(ws) && WEXITSTATUS(ws) == 0);
	}
	assert_int_equal(db_open(p, false, &db, err, sizeof(err)), 0);
	assert_int_equal(q_int(db, "SELECT count(*) FROM trials"), 2 * N);
	assert_int_equal(q_int(db, "SELECT count(*) FROM runs WHERE status = 'complete'"), 2);
	assert_int_equal(q_int(db, "SELECT count(DISTINCT run_id) FROM trials"), 2);
	assert_int_equal(db_integrity(db, err, sizeof(err)), 0);
	db_close(db);
}

static void status_of_dead_run(void **st)
{
	char boot[64];
	pid_t dead = fork();

	if (dead == 0)
		_exit(0);
	waitpid(dead, NULL, 0);
	procstat_boot_id(NULL, boot, sizeof(boot));
	assert_true(strlen(boot) > 10);
	assert_string_equal(db_status_shown("running", dead, boot, boot), "interrupted");
	assert_string_equal(db_status_shown("running", 1 /* init, not wirerate */, boot, boot), "interrupted");
	assert_string_equal(db_status_shown("running", getpid(), "another-boot", boot), "interrupted");
	assert_string_equal(db_status_shown("complete", dead, boot, boot), "complete");
	assert_string_equal(db_status_shown("interrupted", getpid(), boot, boot), "interrupted");
}

static void default_path(void **st)
{
	char buf[512], err[256];

	setenv("WIRERATE_DB", "/tmp/x/r.db", 1);
	assert_int_equal(db_default_path(buf, sizeof(buf), err, sizeof(err)), 0);
	assert_string_equal(buf, "/tmp/x/r.db");
	unsetenv("WIRERATE_DB");
	setenv("XDG_DATA_HOME", "/data", 1);
	assert_int_equal(db_default_path(buf, sizeof(buf), err, sizeof(err)), 0);
	assert_string_equal(buf, "/data/wirerate/results.db");
	unsetenv("XDG_DATA_HOME");
	setenv("HOME", "/home/u", 1);
	assert_int_equal(db_default_path(buf, sizeof(buf), err, sizeof(err)), 0);
	assert_string_equal(buf, "/home/u/.local/share/wirerate/results.db");
}

static int setup_dir(void **st)
{
	snprintf(dir, sizeof(dir), "/tmp/wr-test-db.XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int remove_dir(void **st)
{
	char cmd[300];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* One process holds a connection for long (a bisection's own run) and
 * opens and closes others beside it; another process writes and closes
 * meanwhile. Its close must see the held connection and leave the
 * write-ahead log alone: the holder then reads what was written, not a
 * "malformed" database. */
static void held_beside_writer(void **st)
{
	char p[300], err[256];
	struct db *held, *b;
	pid_t kid;
	int ws;

	path_of(p, sizeof(p), "held.db");
	assert_int_equal(db_open(p, true, &held, err, sizeof(err)), 0);
	new_run(held, "first");
	for (int round = 0; round < 3; round++) {
		assert_int_equal(db_open(p, false, &b, err, sizeof(err)), 0);
		db_close(b);
		kid = fork();
		assert_true(kid >= 0);
		if (kid == 0) {	/* a process of its own, as a measurement is */
			execl("/proc/self/exe", "test_db", "--write", p, (char *)NULL);
			_exit(127);
		}
		assert_int_equal(waitpid(kid, &ws, 0), kid);
		assert_true(WIFEXITED(ws));
		assert_int_equal(WEXITSTATUS(ws), 0);
		err[0] = '\0';
		assert_int_equal(db_open(p, false, &b, err, sizeof(err)), 0);
		assert_int_equal(q_int(b, "SELECT count(*) FROM runs WHERE label = 'child'"), round + 1);
		db_close(b);
		assert_int_equal(q_int(held, "SELECT count(*) FROM runs WHERE label = 'child'"), round + 1);
	}
	db_close(held);
	(void)st;
}

/* test_db --write PATH: one run stored by a process of its own */
static int write_one(const char *p)
{
	char err[256];
	struct db *w;

	if (db_open(p, false, &w, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	new_run(w, "child");
	db_close(w);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--write"))
		return write_one(argv[2]);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(create_schema), cmocka_unit_test(migrate_from_v1),
		cmocka_unit_test(migrate_from_v2_loss), cmocka_unit_test(migrate_from_v2_cpu),
		cmocka_unit_test(refuse_foreign), cmocka_unit_test(unwritable_and_absent),
		cmocka_unit_test(concurrent_writers), cmocka_unit_test(status_of_dead_run),
		cmocka_unit_test(default_path), cmocka_unit_test(delete_all_or_none),
		cmocka_unit_test(read_only_place), cmocka_unit_test(refuse_planted),
		cmocka_unit_test(reader_never_writes), cmocka_unit_test(held_beside_writer),
	};
	return cmocka_run_group_tests(tests, setup_dir, remove_dir);
}
