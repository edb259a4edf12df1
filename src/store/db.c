/* A store's handle (db_open.c opens it) and what is written through it:
 * a run's rows from its start to its end, its trials and results, their
 * deletion, and the checks of a run's status and of the file's integrity. */
#include "store/db_impl.h"
#include "core/goal.h"
#include "core/ns.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "store/db_pg.h"
#include "store/sql.h"
#include "os/fs.h"
#include "os/procstat.h"

bool db_is_uri(const char *path)
{
	return db_pg_is_uri(path);
}

int db_default_path(char *buf, size_t len, char *err, size_t errlen)
{
	const char *e = getenv("WIRERATE_DB"), *x = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
	int n;

	if (e && *e)
		n = snprintf(buf, len, "%s", e);
	else if (x && *x == '/')
		n = snprintf(buf, len, "%s/wirerate/results.db", x);
	else if (home && *home)
		n = snprintf(buf, len, "%s/.local/share/wirerate/results.db", home);
	else {
		snprintf(err, errlen, "no database path: set WIRERATE_DB or HOME, or give --db");
		return -EINVAL;
	}
	if (n < 0 || (size_t)n >= len) {
		snprintf(err, errlen, "database path too long");
		return -ENAMETOOLONG;
	}
	return 0;
}

int64_t db_found_version(const struct db *db)
{
	return db->found_version;
}

void db_close(struct db *db)
{
	if (!db)
		return;
	sql_close(db->c);
	sqlite3_close(db->h);
	free(db);
}

struct sql *db_sql(struct db *db)
{
	return db->c;
}

sqlite3 *db_sqlite(struct db *db)
{
	return db->h;
}

bool db_is_pg(const struct db *db)
{
	return !db->h;
}

void db_uuid(char out[37])
{
	unsigned char b[16];
	size_t got = 0;

	while (got < sizeof(b)) {
		ssize_t n = getrandom(b + got, sizeof(b) - got, 0);

		if (n > 0)
			got += (size_t)n;
		else if (n < 0 && errno != EINTR)
			break;
	}
	if (got < sizeof(b)) {	/* no entropy call: the time and the pid, unique enough per run */
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		for (size_t i = 0; i < sizeof(b); i++)
			b[i] = (unsigned char)((uint64_t)ts.tv_nsec >> (i % 4 * 8) ^ (uint64_t)getpid() >> (i % 3 * 8) ^
					       (uint64_t)ts.tv_sec >> (i % 5 * 8));
	}
	b[6] = (unsigned char)((b[6] & 0x0f) | 0x40);	/* version 4 */
	b[8] = (unsigned char)((b[8] & 0x3f) | 0x80);	/* RFC 4122 variant */
	snprintf(out, 37, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0], b[1], b[2],
		 b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
}

const char *db_status_shown(const char *status, int64_t pid, const char *boot_id, const char *this_boot)
{
	char path[64], comm[64];

	if (strcmp(status, "running"))
		return status;
	if (boot_id && *boot_id && this_boot && *this_boot && strcmp(boot_id, this_boot))
		return "interrupted";	/* the machine rebooted since */
	if (pid <= 0)
		return status;
	if (kill((pid_t)pid, 0) && errno == ESRCH)
		return "interrupted";
	/* The pid may have been reused by something else. */
	snprintf(path, sizeof(path), "/proc/%lld/comm", (long long)pid);
	if (fs_read(NULL, path, comm, sizeof(comm)) > 0 && strncmp(comm, "wirerate", 8))
		return "interrupted";
	return status;
}

const char *db_run_status(struct db *db, const char *status, int64_t id, int64_t pid, const char *boot_id,
			  const char *this_boot)
{
	int alive;

	if (strcmp(status, "running") || db->h)
		return db_status_shown(status, pid, boot_id, this_boot);
	/* PostgreSQL: the run may be another tester's, whose pid means
	 * nothing here; its session's lock says. */
	alive = db_pg_run_alive(db->c, id);
	return alive == 0 ? "interrupted" : status;
}

/* One statement with ? parameters bound by a tiny format: i (int64), d
 * (double, NAN as NULL), s (text, NULL as NULL). 0 or sql_errno(); with
 * id, the statement returns one row whose first column goes there. */
static int run_stmt_id(struct sql *c, int64_t *id, const char *sql, const char *fmt, ...)
{
	struct sql_st *st;
	va_list ap;
	int rc, i = 1;

	if ((rc = sql_prepare(c, sql, &st)))
		return rc;
	va_start(ap, fmt);
	for (const char *f = fmt; *f; f++, i++) {
		if (*f == 'i')
			sql_bind_int(st, i, va_arg(ap, int64_t));
		else if (*f == 'd')
			sql_bind_double(st, i, va_arg(ap, double));
		else
			sql_bind_str(st, i, va_arg(ap, const char *));
	}
	va_end(ap);
	rc = sql_step(st);
	if (rc == 1 && id)
		*id = sql_col_int(st, 0);
	sql_finalize(st);
	return rc < 0 ? rc : id && rc != 1 ? -EIO : 0;
}

#define run_stmt(c, ...) run_stmt_id(c, NULL, __VA_ARGS__)

/* A write transaction: SQLite takes the file's write lock at once, so
 * that two writers wait in the busy handler instead of failing later. */
static int begin(struct db *db, char *err, size_t errlen)
{
	int rc = sql_exec(db->c, db->h ? "BEGIN IMMEDIATE" : "BEGIN");

	if (rc)
		snprintf(err, errlen, "locking the database: %s", sql_errmsg(db->c));
	return rc;
}

static int finish(struct db *db, int rc, const char *what, char *err, size_t errlen)
{
	if (!rc && !(rc = sql_exec(db->c, "COMMIT")))
		return 0;
	snprintf(err, errlen, "%s: %s", what, sql_errmsg(db->c));
	sql_exec(db->c, "ROLLBACK");
	return rc;
}

int db_run_begin(struct db *db, const struct db_run_info *ri, const struct db_kv *env, size_t nenv,
		 int64_t *id, char *err, size_t errlen)
{
	char boot[64], uuid[37];
	int rc;

	procstat_boot_id(NULL, boot, sizeof(boot));
	if ((rc = begin(db, err, errlen)))
		return rc;
	db_uuid(uuid);
	rc = run_stmt_id(db->c, id,
		      "INSERT INTO runs (started, test, label, sizes, config, place, line_bps, repeats,"
		      " precision, pdr_ratio, status, pid, boot_id, uuid) VALUES (?,?,?,?,?,?,?,?,?,?,'running',?,?,?)"
		      " RETURNING id",
		      "isssssdiddiss", (int64_t)time(NULL), ri->test,
		      ri->label ? ri->label : "", ri->sizes ? ri->sizes : "", ri->config ? ri->config : "",
		      ri->where ? ri->where : "", ri->line_bps, (int64_t)(ri->repeats ? ri->repeats : 1),
		      ri->precision, ri->pdr_ratio, (int64_t)getpid(), boot, uuid);
	for (unsigned int i = 0; !rc && i < ri->ntags; i++)
		rc = run_stmt(db->c, "INSERT INTO tags (run_id, tag) VALUES (?,?) ON CONFLICT DO NOTHING", "is", *id,
			      ri->tags[i]);
	/* a key given twice keeps its last value */
	for (size_t i = 0; !rc && i < nenv; i++)
		if (!(rc = run_stmt(db->c, "DELETE FROM env WHERE run_id = ? AND key = ?", "is", *id, env[i].key)))
			rc = run_stmt(db->c, "INSERT INTO env (run_id, key, value) VALUES (?,?,?)", "iss",
				      *id, env[i].key, env[i].value ? env[i].value : "");
	if ((rc = finish(db, rc, "storing the run", err, errlen)))
		return rc;
	/* PostgreSQL: the run is alive to other testers while this lock is
	 * held (SQLite: its pid and boot id tell) */
	if (!db->h && (rc = db_pg_run_lock(db->c, *id, true)))
		snprintf(err, errlen, "locking the run: %s", sql_errmsg(db->c));
	return rc;
}

int db_run_end(struct db *db, int64_t id, const char *status, const char *headline, char *err, size_t errlen)
{
	int rc;

	if ((rc = begin(db, err, errlen)))
		return rc;
	rc = run_stmt(db->c, "UPDATE runs SET status = ?, ended = ?, headline = ? WHERE id = ?", "sisi",
		      status, (int64_t)time(NULL), headline ? headline : "", id);
	if ((rc = finish(db, rc, "finishing the run", err, errlen)))
		return rc;
	if (!db->h)
		db_pg_run_lock(db->c, id, false);
	return 0;
}

int db_run_reopen(struct db *db, int64_t id, char *err, size_t errlen)
{
	char boot[64];
	int rc;

	procstat_boot_id(NULL, boot, sizeof(boot));
	if ((rc = begin(db, err, errlen)))
		return rc;
	rc = run_stmt(db->c, "UPDATE runs SET status = 'running', ended = NULL, pid = ?, boot_id = ? WHERE id = ?", "isi",
		      (int64_t)getpid(), boot, id);
	if ((rc = finish(db, rc, "reopening the run", err, errlen)))
		return rc;
	if (!db->h && (rc = db_pg_run_lock(db->c, id, true))) {
		snprintf(err, errlen, "locking the run: %s", sql_errmsg(db->c));
		return -EIO;
	}
	return 0;
}

/* The trial's loss attribution, per direction (after its row). */
static int loss_add(struct db *db, int64_t trial, const struct db_trial *t)
{
	int rc = 0;

	for (unsigned int d = 0; !rc && d < t->nloss && d < LOSSATTR_MAX_DIRS; d++) {
		const struct lossattr *a = &t->loss[d];

		rc = run_stmt(db->c, "INSERT INTO trial_loss_dir (trial_id, dir, lost, over, dut_counters)"
				     " VALUES (?,?,?,?,?)", "iiiii", trial, (int64_t)d, (int64_t)a->lost,
			      (int64_t)a->over, (int64_t)a->have_dut);
		for (unsigned int i = 0; !rc && i < a->n && i < LOSSATTR_MAX; i++)
			rc = run_stmt(db->c, "INSERT INTO trial_loss (trial_id, dir, place, detail, frames, shared)"
					     " VALUES (?,?,?,?,?,?)", "iissii", trial, (int64_t)d,
				      lossattr_place_name(a->e[i].place), a->e[i].detail, (int64_t)a->e[i].frames,
				      (int64_t)a->e[i].shared);
	}
	return rc;
}

int db_trial_add(struct db *db, int64_t run, const struct db_trial *t, char *err, size_t errlen)
{
	char test[2] = { t->test, 0 };
	int64_t id = 0;
	int rc;

	if ((rc = begin(db, err, errlen)))
		return rc;
	rc = run_stmt_id(db->c, &id,
		      "INSERT INTO trials (run_id, size, test, repeat, load, duration_s, tx, rx, tester_limited, ended)"
		      " VALUES (?,?,?,?,?,?,?,?,?,?) RETURNING id",
		      "iisiddiiii", run, (int64_t)t->size, test, (int64_t)t->repeat, t->load, t->duration_s,
		      (int64_t)t->tx, (int64_t)t->rx, (int64_t)t->tester_limited, (int64_t)time(NULL));
	if (!rc && t->cpu_valid)
		rc = run_stmt(db->c, "INSERT INTO trial_cpu (trial_id, busy_pct, soak_pct, ns_per_frame, source)"
				     " VALUES (?,?,?,?,?)", "iddds", id,
			      t->cpu_busy_pct, t->cpu_soak_pct >= 0 ? t->cpu_soak_pct : NAN, t->ns_per_frame,
			      t->cpu_source);
	/* NULL where there was no check or no probe: an old trial's */
	if (!rc && t->cpu_valid && t->soak_trusted)
		rc = run_stmt(db->c, "UPDATE trial_cpu SET soak_trusted = ?, soak_note = ? WHERE trial_id = ?", "isi",
			      (int64_t)(t->soak_trusted > 0), t->soak_note ? t->soak_note : "", id);
	if (!rc && t->cpu_valid && t->stall_valid)
		rc = run_stmt(db->c, "UPDATE trial_cpu SET stall_max_ns = ?, stall_cpu = ?, stalls = ?,"
				     " stall_threshold_ns = ?, stall_fifo = ?, steal_pct = ? WHERE trial_id = ?",
			      "diidid" "i", t->stall_max_ns, (int64_t)t->stall_cpu, (int64_t)t->stalls,
			      t->stall_threshold_ns, (int64_t)t->stall_fifo, t->steal_pct >= 0 ? t->steal_pct : NAN, id);
	if (!rc && t->cpu_valid && t->nprof) {
		rc = run_stmt(db->c, "UPDATE trial_cpu SET profile_samples = ?, profile_hz = ?, profile_busy_pct = ?,"
				     " profile_softirq_pct = ? WHERE trial_id = ?", "iiddi", (int64_t)t->prof_samples,
			      (int64_t)t->prof_hz, t->prof_busy_pct, t->prof_softirq_pct, id);
		for (unsigned int i = 0; !rc && i < t->nprof; i++)
			rc = run_stmt(db->c, "INSERT INTO trial_profile (trial_id, pos, symbol, pct, samples)"
					     " VALUES (?,?,?,?,?)", "iisdi", id, (int64_t)i, t->prof[i].symbol,
				      t->prof[i].pct, (int64_t)t->prof[i].samples);
	}
	if (!rc && t->loss)
		rc = loss_add(db, id, t);
	if (!rc && t->stream) {
		const struct db_stream *x = t->stream;

		rc = run_stmt(db->c, "INSERT INTO stream_trial (trial_id, senders, sent_bytes, recv_bytes, send_ns,"
				     " recv_ns, errors, drops, send_cpus, send_busy_pct, recv_cpus, recv_busy_pct)"
				     " VALUES (?,?,?,?,?,?,?,?,?,?,?,?)", "iiiiiiiiidid", id, (int64_t)x->senders,
			      (int64_t)x->sent_bytes, (int64_t)x->recv_bytes, (int64_t)x->send_ns,
			      (int64_t)x->recv_ns, (int64_t)x->errors, (int64_t)x->drops, (int64_t)x->send_cpus,
			      x->send_cpus ? x->send_busy_pct : NAN, (int64_t)x->recv_cpus,
			      x->recv_cpus ? x->recv_busy_pct : NAN);
	}
	if (!rc && t->load > 0) {
		struct trial_output to;

		goal_trial_output(t->load, (uint64_t)llround(t->duration_s * NSEC_PER_SEC), t->tx, t->rx, &to);
		rc = run_stmt(db->c, "INSERT INTO trial_output (trial_id, loss_ratio, effective_s, forwarding_rate,"
				     " traffic_s) VALUES (?,?,?,?,?)", "idddd", id, to.loss_ratio, to.effective_s,
			      to.forwarding_rate, t->traffic_s > 0 ? t->traffic_s : NAN);
	}
	return finish(db, rc, "storing a trial", err, errlen);
}

int db_result_add(struct db *db, int64_t run, const struct db_result *r, char *err, size_t errlen)
{
	int rc;

	if ((rc = begin(db, err, errlen)))
		return rc;
	/* a size stored again replaces its row */
	rc = run_stmt(db->c, "DELETE FROM results WHERE run_id = ? AND size = ? AND repeat = ?", "iii", run,
		      (int64_t)r->size, (int64_t)r->repeat);
	if (!rc)
		rc = run_stmt(db->c, "DELETE FROM goal_results WHERE run_id = ? AND size = ? AND repeat = ?", "iii",
			      run, (int64_t)r->size, (int64_t)r->repeat);
	for (unsigned int i = 0; !rc && i < r->ngoals; i++) {
		const struct db_goal_result *g = &r->goals[i];

		rc = run_stmt(db->c, "INSERT INTO goal_results (run_id, size, repeat, pos, name, spec, rlb, rub,"
				     " cond_tput, irregular) VALUES (?,?,?,?,?,?,?,?,?,?)", "iiiissddds", run,
			      (int64_t)r->size, (int64_t)r->repeat, (int64_t)i, g->name, g->spec, g->rlb, g->rub,
			      g->cond, g->irregular);
	}
	if (!rc)
		rc = run_stmt(db->c,
		      "INSERT INTO results (run_id, size, repeat, max_load, max_is_ceiling,"
		      " ndr_lower, ndr_upper, pdr_lower, pdr_upper, at_max, tester_capped, noisy, search_done,"
		      " search_trials, width_pps, ns_per_frame, lat_load, lat_frames, lat_min, lat_median,"
		      " lat_p99, lat_p999, lat_max, b2b_avg, b2b_min, b2b_max, b2b_runs)"
		      " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
		      "iiididdddiiiiidddiddddddddi", run, (int64_t)r->size, (int64_t)r->repeat, r->max_load,
		      (int64_t)r->max_is_ceiling, r->ndr_valid ? r->ndr_lower : NAN, r->ndr_upper,
		      r->pdr_valid ? r->pdr_lower : NAN, r->pdr_upper, (int64_t)r->at_max,
		      (int64_t)r->tester_capped, (int64_t)r->noisy, (int64_t)r->search_done,
		      (int64_t)r->search_trials, r->width_pps, r->ns_per_frame,
		      r->have_lat ? r->lat_load : NAN, (int64_t)(r->have_lat ? r->lat_frames : 0),
		      r->have_lat ? r->lat_min : NAN, r->have_lat ? r->lat_median : NAN,
		      r->have_lat ? r->lat_p99 : NAN, r->have_lat ? r->lat_p999 : NAN,
		      r->have_lat ? r->lat_max : NAN, r->b2b_avg, r->b2b_min, r->b2b_max, (int64_t)r->b2b_runs);
	for (unsigned int i = 0; !rc && i < r->nloss; i++) {
		const struct db_loss_step *l = &r->loss[i];

		rc = run_stmt(db->c, "DELETE FROM loss_steps WHERE run_id = ? AND size = ? AND pct = ?", "iid", run,
			      (int64_t)r->size, l->pct);
		if (!rc)
			rc = run_stmt(db->c, "INSERT INTO loss_steps (run_id, size, pct, load, tx, rx, loss_pct,"
				     " tester_limited) VALUES (?,?,?,?,?,?,?,?)", "iiddiidi",
			      run, (int64_t)r->size, l->pct, l->load, (int64_t)l->tx, (int64_t)l->rx, l->loss_pct,
			      (int64_t)l->tester_limited);
	}
	return finish(db, rc, "storing a result", err, errlen);
}

/* 1 when run id is stored, 0 when not, < 0 when the store failed. */
static int run_exists(struct sql *c, int64_t id)
{
	struct sql_st *st;
	int rc;

	if ((rc = sql_prepare(c, "SELECT 1 FROM runs WHERE id = ?", &st)))
		return rc;
	sql_bind_int(st, 1, id);
	rc = sql_step(st);
	sql_finalize(st);
	return rc;
}

int db_delete_runs(struct db *db, const int64_t *ids, size_t n, char *err, size_t errlen)
{
	int rc;

	if ((rc = begin(db, err, errlen)))
		return rc;
	/* Every id is looked up before any is deleted, so that a bad one
	 * leaves all of them; an id given twice is no error. */
	for (size_t i = 0; i < n && !rc; i++) {
		int e = run_exists(db->c, ids[i]);

		if (e == 0) {
			sql_exec(db->c, "ROLLBACK");
			snprintf(err, errlen, "no run %lld", (long long)ids[i]);
			return -ENOENT;
		}
		rc = e < 0 ? e : 0;
	}
	for (size_t i = 0; i < n && !rc; i++)
		rc = run_stmt(db->c, "DELETE FROM runs WHERE id = ?", "i", ids[i]);
	return finish(db, rc, "deleting the runs", err, errlen);
}

int db_run_delete(struct db *db, int64_t id, char *err, size_t errlen)
{
	return db_delete_runs(db, &id, 1, err, errlen);
}

int db_integrity(struct db *db, char *err, size_t errlen)
{
	sqlite3_stmt *st;
	int rc = -EIO;

	if (!db->h)
		return 0;	/* PostgreSQL keeps its own pages whole */
	if (sqlite3_prepare_v2(db->h, "PRAGMA integrity_check", -1, &st, NULL) != SQLITE_OK)
		return db_sqlerr(db->h, "integrity_check", err, errlen);
	if (sqlite3_step(st) == SQLITE_ROW) {
		const char *v = (const char *)sqlite3_column_text(st, 0);

		if (v && !strcmp(v, "ok"))
			rc = 0;
		else
			snprintf(err, errlen, "integrity_check: %s", v ? v : "?");
	} else {
		rc = db_sqlerr(db->h, "integrity_check", err, errlen);
	}
	sqlite3_finalize(st);
	return rc;
}
