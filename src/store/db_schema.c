#include "store/db_schema.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <sqlite3.h>

#include "store/db.h"

/* Version 1: runs and trials, the CPU figures inline in trials. */
const char db_schema_v1[] =
	"CREATE TABLE runs ("
	"  id INTEGER PRIMARY KEY,"
	"  started INTEGER NOT NULL,"
	"  test TEXT NOT NULL,"
	"  sizes TEXT NOT NULL DEFAULT '',"
	"  config TEXT NOT NULL DEFAULT '',"
	"  status TEXT NOT NULL DEFAULT 'running');"
	"CREATE TABLE trials ("
	"  id INTEGER PRIMARY KEY,"
	"  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	"  size INTEGER NOT NULL,"
	"  test TEXT NOT NULL,"
	"  load REAL NOT NULL,"
	"  duration_s REAL NOT NULL,"
	"  tx INTEGER NOT NULL,"
	"  rx INTEGER NOT NULL,"
	"  tester_limited INTEGER NOT NULL DEFAULT 0,"
	"  cpu_busy_pct REAL,"
	"  ns_per_frame REAL);"
	"CREATE INDEX trials_run ON trials(run_id);";

#define TRIAL_CPU_SQL \
	"CREATE TABLE trial_cpu (" \
	"  trial_id INTEGER PRIMARY KEY REFERENCES trials(id) ON DELETE CASCADE," \
	"  busy_pct REAL, soak_pct REAL, ns_per_frame REAL, source TEXT);"

/* Tables of version 2 that the fresh schema and the migration from 1
 * both create: one definition, so the two cannot drift apart. */
#define TAGS_ENV_SQL \
	"CREATE TABLE tags (" \
	"  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE," \
	"  tag TEXT NOT NULL," \
	"  PRIMARY KEY (run_id, tag));" \
	"CREATE TABLE env (" \
	"  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE," \
	"  key TEXT NOT NULL," \
	"  value TEXT NOT NULL," \
	"  PRIMARY KEY (run_id, key));"

#define TRIALS_V2_SQL \
	"CREATE TABLE trials (" \
	"  id INTEGER PRIMARY KEY," \
	"  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE," \
	"  size INTEGER NOT NULL," \
	"  test TEXT NOT NULL," \
	"  repeat INTEGER NOT NULL DEFAULT 0," \
	"  load REAL NOT NULL," \
	"  duration_s REAL NOT NULL," \
	"  tx INTEGER NOT NULL," \
	"  rx INTEGER NOT NULL," \
	"  tester_limited INTEGER NOT NULL DEFAULT 0," \
	"  ended INTEGER NOT NULL DEFAULT 0);"

#define RESULTS_LOSS_SQL \
	"CREATE TABLE results (" \
	"  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE," \
	"  size INTEGER NOT NULL," \
	"  repeat INTEGER NOT NULL," \
	"  max_load REAL, max_is_ceiling INTEGER NOT NULL DEFAULT 0," \
	"  ndr_lower REAL, ndr_upper REAL, pdr_lower REAL, pdr_upper REAL," \
	"  at_max INTEGER NOT NULL DEFAULT 0, tester_capped INTEGER NOT NULL DEFAULT 0," \
	"  noisy INTEGER NOT NULL DEFAULT 0, search_done INTEGER NOT NULL DEFAULT 0," \
	"  search_trials INTEGER NOT NULL DEFAULT 0, width_pps REAL, ns_per_frame REAL," \
	"  lat_load REAL, lat_frames INTEGER, lat_min REAL, lat_median REAL," \
	"  lat_p99 REAL, lat_p999 REAL, lat_max REAL," \
	"  b2b_avg REAL, b2b_min REAL, b2b_max REAL, b2b_runs INTEGER," \
	"  PRIMARY KEY (run_id, size, repeat));" \
	"CREATE TABLE loss_steps (" \
	"  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE," \
	"  size INTEGER NOT NULL," \
	"  pct REAL NOT NULL, load REAL NOT NULL," \
	"  tx INTEGER NOT NULL, rx INTEGER NOT NULL," \
	"  loss_pct REAL NOT NULL, tester_limited INTEGER NOT NULL DEFAULT 0," \
	"  PRIMARY KEY (run_id, size, pct));"

/* Version 3: where each trial's lost frames went (core/lossattr.h): per
 * direction what was lost and by how much the counters over-explained
 * it, and one row per place; "unaccounted" is a place too. */
#define TRIAL_LOSS_SQL \
	"CREATE TABLE trial_loss_dir (" \
	"  trial_id INTEGER NOT NULL REFERENCES trials(id) ON DELETE CASCADE," \
	"  dir INTEGER NOT NULL," \
	"  lost INTEGER NOT NULL," \
	"  over INTEGER NOT NULL DEFAULT 0," \
	"  dut_counters INTEGER NOT NULL DEFAULT 0," \
	"  PRIMARY KEY (trial_id, dir));" \
	"CREATE TABLE trial_loss (" \
	"  trial_id INTEGER NOT NULL REFERENCES trials(id) ON DELETE CASCADE," \
	"  dir INTEGER NOT NULL," \
	"  place TEXT NOT NULL," \
	"  detail TEXT NOT NULL DEFAULT ''," \
	"  frames INTEGER NOT NULL," \
	"  shared INTEGER NOT NULL DEFAULT 0);" \
	"CREATE INDEX trial_loss_trial ON trial_loss(trial_id);"

/* Version 2, from nothing. */
#define SCHEMA_V2_SQL \
	"CREATE TABLE runs (" \
	"  id INTEGER PRIMARY KEY," \
	"  started INTEGER NOT NULL," \
	"  ended INTEGER," \
	"  test TEXT NOT NULL," \
	"  label TEXT NOT NULL DEFAULT ''," \
	"  sizes TEXT NOT NULL DEFAULT ''," \
	"  config TEXT NOT NULL DEFAULT ''," \
	"  place TEXT NOT NULL DEFAULT ''," \
	"  line_bps REAL NOT NULL DEFAULT 0," \
	"  repeats INTEGER NOT NULL DEFAULT 1," \
	"  precision REAL NOT NULL DEFAULT 0," \
	"  pdr_ratio REAL NOT NULL DEFAULT 0," \
	"  status TEXT NOT NULL DEFAULT 'running'" \
	"    CHECK (status IN ('running', 'complete', 'interrupted', 'failed'))," \
	"  pid INTEGER NOT NULL DEFAULT 0," \
	"  boot_id TEXT NOT NULL DEFAULT ''," \
	"  headline TEXT NOT NULL DEFAULT '');" \
	"CREATE INDEX runs_label ON runs(label);" \
	TAGS_ENV_SQL \
	TRIALS_V2_SQL \
	"CREATE INDEX trials_run ON trials(run_id);" \
	TRIAL_CPU_SQL \
	RESULTS_LOSS_SQL

/* From 3 to 4: each trial's DUT CPU figures say whether the soak's
 * calibration held at the idle check before it (NULL: no check), and what
 * the stall probe saw on the DUT's CPUs over the traffic: the longest
 * time a CPU was away, on which CPU, how many stalls over the threshold,
 * whether the probe ran SCHED_FIFO, and the steal time the host reported. */
#define MIGRATE_3_4_SQL \
	"ALTER TABLE trial_cpu ADD COLUMN soak_trusted INTEGER;" \
	"ALTER TABLE trial_cpu ADD COLUMN soak_note TEXT;" \
	"ALTER TABLE trial_cpu ADD COLUMN stall_max_ns REAL;" \
	"ALTER TABLE trial_cpu ADD COLUMN stall_cpu INTEGER;" \
	"ALTER TABLE trial_cpu ADD COLUMN stalls INTEGER;" \
	"ALTER TABLE trial_cpu ADD COLUMN stall_threshold_ns REAL;" \
	"ALTER TABLE trial_cpu ADD COLUMN stall_fifo INTEGER;" \
	"ALTER TABLE trial_cpu ADD COLUMN steal_pct REAL;"

/* From 4 to 5: every run gets a UUID, so that runs exported from one
 * store and imported into another are known again (a run made outside
 * wirerate, with '', has none). */
#define UUID_COLUMN_SQL \
	"ALTER TABLE runs ADD COLUMN uuid TEXT NOT NULL DEFAULT '';" \
	"CREATE UNIQUE INDEX runs_uuid ON runs(uuid) WHERE uuid != '';"
#define MIGRATE_4_5_SQL \
	"ALTER TABLE runs ADD COLUMN uuid TEXT NOT NULL DEFAULT '';" \
	"UPDATE runs SET uuid = " DB_UUID_SQL " WHERE uuid = '';" \
	"CREATE UNIQUE INDEX runs_uuid ON runs(uuid) WHERE uuid != '';"

/* From 5 to 6: where the DUT's CPUs spent a trial's time (--profile):
 * the profile's totals with the trial's CPU figures, and its top
 * functions, each with its share of the busy samples. */
#define MIGRATE_5_6_SQL \
	"ALTER TABLE trial_cpu ADD COLUMN profile_samples INTEGER;" \
	"ALTER TABLE trial_cpu ADD COLUMN profile_hz INTEGER;" \
	"ALTER TABLE trial_cpu ADD COLUMN profile_busy_pct REAL;" \
	"ALTER TABLE trial_cpu ADD COLUMN profile_softirq_pct REAL;" \
	"CREATE TABLE trial_profile (" \
	"  trial_id INTEGER NOT NULL REFERENCES trials(id) ON DELETE CASCADE," \
	"  pos INTEGER NOT NULL," \
	"  symbol TEXT NOT NULL," \
	"  pct REAL NOT NULL," \
	"  samples INTEGER NOT NULL," \
	"  PRIMARY KEY (trial_id, pos));"

/* From 6 to 7: a stream's figures beside its trial row (a stream run is
 * stored as plain trials, one per run of -I, messages for frames and the
 * message size for the size): the bytes each way and each end's time,
 * the sends refused and the receiving socket's drops, how many senders,
 * and each end's CPU (how many CPUs and how busy; NULL: not measured). */
#define MIGRATE_6_7_SQL \
	"CREATE TABLE stream_trial (" \
	"  trial_id INTEGER PRIMARY KEY REFERENCES trials(id) ON DELETE CASCADE," \
	"  senders INTEGER NOT NULL," \
	"  sent_bytes INTEGER NOT NULL," \
	"  recv_bytes INTEGER NOT NULL," \
	"  send_ns INTEGER NOT NULL," \
	"  recv_ns INTEGER NOT NULL," \
	"  errors INTEGER NOT NULL," \
	"  drops INTEGER NOT NULL," \
	"  send_cpus INTEGER," \
	"  send_busy_pct REAL," \
	"  recv_cpus INTEGER," \
	"  recv_busy_pct REAL);"

/* From 7 to 8: RFC 9971's items. Each trial's Trial Output (its loss
 * ratio, the effective duration the search counted, its forwarding rate:
 * load times one less the loss ratio) and the traffic time measured
 * beside it; and each search goal's result per size and repeat: the goal
 * in the RFC's compact notation, its Relevant Lower and Upper Bounds and
 * Conditional Throughput (NULL when there is none), and why the result is
 * irregular ('' when it is not). */
#define MIGRATE_7_8_SQL \
	"CREATE TABLE trial_output (" \
	"  trial_id INTEGER PRIMARY KEY REFERENCES trials(id) ON DELETE CASCADE," \
	"  loss_ratio REAL NOT NULL," \
	"  effective_s REAL NOT NULL," \
	"  forwarding_rate REAL NOT NULL," \
	"  traffic_s REAL);" \
	"CREATE TABLE goal_results (" \
	"  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE," \
	"  size INTEGER NOT NULL," \
	"  repeat INTEGER NOT NULL DEFAULT 0," \
	"  pos INTEGER NOT NULL," \
	"  name TEXT NOT NULL DEFAULT ''," \
	"  spec TEXT NOT NULL," \
	"  rlb REAL," \
	"  rub REAL," \
	"  cond_tput REAL," \
	"  irregular TEXT NOT NULL DEFAULT ''," \
	"  PRIMARY KEY (run_id, size, repeat, pos));"

static const char schema_v2[] = SCHEMA_V2_SQL;
/* Version 3: version 2 and the loss attribution's tables. */
static const char schema_v3[] = SCHEMA_V2_SQL TRIAL_LOSS_SQL;
/* Version 4, from nothing: version 3 and the one step, so the fresh and
 * the migrated schema are the same statements. */
static const char schema_v4[] = SCHEMA_V2_SQL TRIAL_LOSS_SQL MIGRATE_3_4_SQL;
/* Version 5 (current): version 4 and the runs' UUIDs (a new store has
 * no run to give one). Plain SQL that PostgreSQL runs too, once
 * sql_pg_ddl has named its types. */
static const char schema_v5[] = SCHEMA_V2_SQL TRIAL_LOSS_SQL MIGRATE_3_4_SQL UUID_COLUMN_SQL;
/* Version 6: version 5 and the trials' profiles. */
static const char schema_v6[] = SCHEMA_V2_SQL TRIAL_LOSS_SQL MIGRATE_3_4_SQL UUID_COLUMN_SQL MIGRATE_5_6_SQL;
/* Version 7: version 6 and the streams' figures. */
static const char schema_v7[] = SCHEMA_V2_SQL TRIAL_LOSS_SQL MIGRATE_3_4_SQL UUID_COLUMN_SQL MIGRATE_5_6_SQL
	MIGRATE_6_7_SQL;
/* Version 8 (current): version 7 and RFC 9971's trial outputs and goal
 * results. */
static const char schema_v8[] = SCHEMA_V2_SQL TRIAL_LOSS_SQL MIGRATE_3_4_SQL UUID_COLUMN_SQL MIGRATE_5_6_SQL
	MIGRATE_6_7_SQL MIGRATE_7_8_SQL;
/* From 2 to 3: the loss attribution's tables; older trials have none. */
const char db_migrate_2_3[] = TRIAL_LOSS_SQL;
const char db_migrate_3_4[] = MIGRATE_3_4_SQL;
const char db_migrate_4_5[] = MIGRATE_4_5_SQL;
const char db_migrate_5_6[] = MIGRATE_5_6_SQL;
const char db_migrate_6_7[] = MIGRATE_6_7_SQL;
const char db_migrate_7_8[] = MIGRATE_7_8_SQL;


/* From 1 to 2: runs gain their label, place, line rate, pid and headline;
 * the CPU figures move out of trials into trial_cpu; tags, env, results
 * and loss_steps appear. Version 1 kept no per-size results: the NDR of
 * each size is derived from its full-length throughput trials (the
 * highest load that lost nothing), so old runs still show in reports. */
const char db_migrate_1_2[] =
	"ALTER TABLE runs ADD COLUMN ended INTEGER;"
	"ALTER TABLE runs ADD COLUMN label TEXT NOT NULL DEFAULT '';"
	"ALTER TABLE runs ADD COLUMN place TEXT NOT NULL DEFAULT '';"
	"ALTER TABLE runs ADD COLUMN line_bps REAL NOT NULL DEFAULT 0;"
	"ALTER TABLE runs ADD COLUMN repeats INTEGER NOT NULL DEFAULT 1;"
	"ALTER TABLE runs ADD COLUMN precision REAL NOT NULL DEFAULT 0;"
	"ALTER TABLE runs ADD COLUMN pdr_ratio REAL NOT NULL DEFAULT 0;"
	"ALTER TABLE runs ADD COLUMN pid INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE runs ADD COLUMN boot_id TEXT NOT NULL DEFAULT '';"
	"ALTER TABLE runs ADD COLUMN headline TEXT NOT NULL DEFAULT '';"
	"CREATE INDEX runs_label ON runs(label);"
	/* trial_cpu is made after the old table is out of the way: dropping a
	 * parent table deletes its rows, and that would cascade. */
	"DROP INDEX trials_run;"
	"ALTER TABLE trials RENAME TO trials_v1;"
	TRIALS_V2_SQL
	"INSERT INTO trials (id, run_id, size, test, load, duration_s, tx, rx, tester_limited)"
	"  SELECT id, run_id, size, test, load, duration_s, tx, rx, tester_limited FROM trials_v1;"
	TRIAL_CPU_SQL
	"INSERT INTO trial_cpu (trial_id, busy_pct, ns_per_frame, source)"
	"  SELECT id, cpu_busy_pct, ns_per_frame, '/proc/stat' FROM trials_v1"
	"  WHERE cpu_busy_pct IS NOT NULL;"
	"DROP TABLE trials_v1;"
	"CREATE INDEX trials_run ON trials(run_id);"
	TAGS_ENV_SQL
	RESULTS_LOSS_SQL
	"INSERT INTO results (run_id, size, repeat, ndr_lower, pdr_lower, search_done, search_trials)"
	"  SELECT t.run_id, t.size, 0, MAX(CASE WHEN t.rx >= t.tx THEN t.load END),"
	"         MAX(CASE WHEN t.rx >= t.tx THEN t.load END), 1, COUNT(*)"
	"  FROM trials t WHERE t.test = 't' AND t.duration_s ="
	"    (SELECT MAX(u.duration_s) FROM trials u WHERE u.run_id = t.run_id AND u.size = t.size AND u.test = 't')"
	"  GROUP BY t.run_id, t.size;";

const char *db_schema_sql(int64_t v)
{
	return v == 0 ? "" : v == 1 ? db_schema_v1 : v == 2 ? schema_v2 : v == 3 ? schema_v3 : v == 4 ? schema_v4 :
	       v == 5 ? schema_v5 : v == 6 ? schema_v6 : v == 7 ? schema_v7 :
	       v == 8 ? schema_v8 : NULL;
}

/* What the file's (type, name, table) rows are checked against: the
 * schema of its version made in memory, so the list cannot drift from
 * the SQL above. A migrated file holds the same objects as a fresh one
 * (test_db checks it). */
static int reference(int64_t v, sqlite3 **ref, sqlite3_stmt **q, char *err, size_t errlen)
{
	const char *sql = db_schema_sql(v);

	*ref = NULL;
	*q = NULL;
	if (!sql) {
		snprintf(err, errlen, "no schema version %lld in this build", (long long)v);
		return -EPROTO;
	}
	if (sqlite3_open_v2(":memory:", ref, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK ||
	    sqlite3_exec(*ref, sql, NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(*ref, "SELECT 1 FROM sqlite_master WHERE type = ?1 AND name = ?2 AND tbl_name = ?3",
			       -1, q, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "making the reference schema: %s", *ref ? sqlite3_errmsg(*ref) : "out of memory");
		return -ENOMEM;
	}
	return 0;
}

int db_schema_tables(int64_t v, char *buf, size_t len, char *err, size_t errlen)
{
	sqlite3 *ref;
	sqlite3_stmt *q, *t = NULL;
	size_t o = 0;
	int rc;

	buf[0] = '\0';
	if ((rc = reference(v, &ref, &q, err, errlen)))
		goto out;
	if (sqlite3_prepare_v2(ref, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name", -1, &t,
			       NULL) != SQLITE_OK) {
		snprintf(err, errlen, "listing the reference schema: %s", sqlite3_errmsg(ref));
		rc = -ENOMEM;
		goto out;
	}
	while (sqlite3_step(t) == SQLITE_ROW) {
		int n = snprintf(buf + o, len - o, "%s%s", o ? "," : "", (const char *)sqlite3_column_text(t, 0));

		if (n < 0 || (size_t)n >= len - o) {
			snprintf(err, errlen, "the schema's tables do not fit %zu bytes", len);
			rc = -ENAMETOOLONG;
			goto out;
		}
		o += (size_t)n;
	}
out:
	sqlite3_finalize(t);
	sqlite3_finalize(q);
	sqlite3_close(ref);
	return rc;
}

/* What makes an index the one wirerate made, beyond its name: unique or
 * not, partial or not, its columns in order with their direction and
 * collation, and its SQL (a partial index's WHERE; the migrations make
 * each index with the same statement as a fresh schema, which the v1
 * upgrade in tests/netns/store_hostile.sh exercises). Into buf ("" when h
 * has no such index). */
static void index_shape(sqlite3 *h, const char *table, const char *name, char *buf, size_t len)
{
	sqlite3_stmt *st;

	buf[0] = '\0';
	if (sqlite3_prepare_v2(h, "SELECT (SELECT \"unique\" || '/' || partial FROM pragma_index_list(?1) WHERE name = ?2)"
			       " || ':' || (SELECT group_concat(c, ',') FROM (SELECT coalesce(name, '?') || ' ' || \"desc\""
			       " || ' ' || coll || ' ' || key AS c FROM pragma_index_xinfo(?2) ORDER BY seqno))"
			       " || ':' || coalesce((SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?2), '')",
			       -1, &st, NULL) != SQLITE_OK)
		return;
	sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
		snprintf(buf, len, "%s", (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
}

int db_schema_check(sqlite3 *h, const char *path, int64_t v, char *err, size_t errlen)
{
	sqlite3 *ref;
	sqlite3_stmt *q, *st = NULL;
	int rc, step;

	if ((rc = reference(v, &ref, &q, err, errlen)))
		goto out;
	if (sqlite3_prepare_v2(h, "SELECT type, name, tbl_name FROM sqlite_master"
			       " WHERE NOT (type = 'table' AND name IN ('sqlite_stat1', 'sqlite_stat4'))",
			       -1, &st, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "%s is not a readable SQLite database (%s); left untouched", path,
			 sqlite3_errmsg(h));
		rc = -EINVAL;
		goto out;
	}
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		const char *type = (const char *)sqlite3_column_text(st, 0);
		const char *name = (const char *)sqlite3_column_text(st, 1);

		for (int i = 0; i < 3; i++)
			sqlite3_bind_text(q, i + 1, (const char *)sqlite3_column_text(st, i), -1, SQLITE_TRANSIENT);
		if (sqlite3_step(q) != SQLITE_ROW) {
			snprintf(err, errlen, "%s has a %s '%s' that wirerate's schema does not make: refused "
				 "(left untouched; give another --db)", path, type ? type : "?", name ? name : "?");
			rc = -EINVAL;
			goto out;
		}
		sqlite3_reset(q);
		if (type && name && !strcmp(type, "index")) {
			const char *table = (const char *)sqlite3_column_text(st, 2);
			char mine[512], theirs[512];

			index_shape(ref, table ? table : "", name, mine, sizeof(mine));
			index_shape(h, table ? table : "", name, theirs, sizeof(theirs));
			if (strcmp(mine, theirs)) {
				snprintf(err, errlen, "%s has an index '%s' that is not the one wirerate's schema makes "
					 "(unique, partial or columns differ): refused (left untouched; give another --db)",
					 path, name);
				rc = -EINVAL;
				goto out;
			}
		}
	}
	if (step != SQLITE_DONE) {
		snprintf(err, errlen, "%s is not a readable SQLite database (%s); left untouched", path,
			 sqlite3_errmsg(h));
		rc = -EINVAL;
	}
out:
	sqlite3_finalize(st);
	sqlite3_finalize(q);
	sqlite3_close(ref);
	return rc;
}
