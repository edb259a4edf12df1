/* The results store: one SQLite file (WAL, foreign keys, busy timeout),
 * or a PostgreSQL database shared by several testers (a libpq URI as the
 * path; store/db_pg.h),
 * holding runs, their trials with the DUT CPU figures, per-size results of
 * every repeat, the environment and tags. The schema is versioned with
 * PRAGMA user_version and migrated forward when a writer opens it; readers
 * never write. The file carries wirerate's PRAGMA application_id, and a
 * file that is not ours, or that holds a trigger, a view or any object
 * the schema does not make, is refused without being touched. SQLite runs
 * in its defensive mode with the schema untrusted. Every write is its own short transaction, so a
 * crash loses at most the trial in flight. See docs/store.md. */
#ifndef WR_STORE_DB_H
#define WR_STORE_DB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/lossattr.h"

struct db;
struct sql;
struct sqlite3;

#define DB_APPLICATION_ID 0x57527274	/* "WRrt" */
#define DB_SCHEMA_VERSION 8
/* A random (version 4) UUID, as SQL: each run's, made as it is stored. */
#define DB_UUID_SQL \
	"lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-' ||" \
	" substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6)))"
#define DB_BUSY_TIMEOUT_MS 15000

/* The first schema (user_version 1), kept so the migration from it is
 * tested on a real file. */
extern const char db_schema_v1[];

/* Whether path is a PostgreSQL URI ("postgresql://..." or
 * "postgres://..."), which every function here takes for a file name. */
bool db_is_uri(const char *path);

/* The default file: $WIRERATE_DB, else $XDG_DATA_HOME/wirerate/results.db,
 * else ~/.local/share/wirerate/results.db. */
int db_default_path(char *buf, size_t len, char *err, size_t errlen);

/* Open for writing (and with create, create) the store at path, creating
 * its schema or migrating an older one. -EINVAL: the file is not a SQLite
 * database, or is one of another program, or holds objects (triggers,
 * views ...) that the schema does not make, or is corrupt (never
 * modified); -EPROTO: a newer schema; -ENOENT: absent and !create;
 * -EACCES: read-only (the file or its directory); other -errno: the host
 * failed. */
int db_open(const char *path, bool create, struct db **out, char *err, size_t errlen);
/* Open only to read (SQLITE_OPEN_READONLY: nothing is ever written, not
 * even the journal mode), with db_open's errors; works on a file in a
 * read-only place. -ENOENT also for an empty file; -ESTALE: an older
 * schema, which only a writer (db_open) makes current. */
int db_open_read(const char *path, struct db **out, char *err, size_t errlen);
/* The schema version the file had when it was opened, before db_open
 * migrated it (0: it was empty or new). */
int64_t db_found_version(const struct db *db);
void db_close(struct db *db);
/* The connection, for the store's own queries (store/sql.h). */
struct sql *db_sql(struct db *db);
/* The SQLite handle, NULL on PostgreSQL (the unit tests look in). */
struct sqlite3 *db_sqlite(struct db *db);
/* Whether the store is a PostgreSQL database. */
bool db_is_pg(const struct db *db);
/* A new random (version 4) UUID, as 36 characters and a NUL. */
void db_uuid(char out[37]);

/* One function of a trial's profile. */
struct db_prof_entry {
	const char *symbol;
	double pct;			/* of the busy samples */
	uint64_t samples;
};

/* A run as it starts. */
struct db_run_info {
	const char *test;		/* "rfc2544 throughput", "trial" */
	const char *label;		/* NULL or "" */
	const char *const *tags;
	unsigned int ntags;
	const char *sizes;		/* "64,512" */
	const char *config;		/* key=value per axis: "placement=bound rules=0 ..." */
	const char *where;		/* "through lab wr- (...)" */
	double line_bps;		/* 0 unknown */
	unsigned int repeats;
	double precision;		/* search width goal, fraction of max load */
	double pdr_ratio;
};

struct db_kv {
	const char *key, *value;
};

/* Insert the run (status "running", this pid) with its environment and
 * tags in one transaction; *id is its id. */
int db_run_begin(struct db *db, const struct db_run_info *ri, const struct db_kv *env, size_t nenv,
		 int64_t *id, char *err, size_t errlen);
/* status: "complete", "interrupted" or "failed"; headline: one line for
 * 'wirerate runs' (may be NULL). */
int db_run_end(struct db *db, int64_t id, const char *status, const char *headline,
	       char *err, size_t errlen);

/* A run that ended made running again by this process (a resumed
 * bisection): its status, end, pid and boot id. */
int db_run_reopen(struct db *db, int64_t id, char *err, size_t errlen);

/* A stream's figures (wirerate stream), beside its trial row: the bytes
 * each way and each end's time in ns, the sends refused, the receiving
 * socket's drops, the senders, and each end's CPU (cpus 0: not
 * measured). */
struct db_stream {
	unsigned int senders;
	uint64_t sent_bytes, recv_bytes, send_ns, recv_ns, errors, drops;
	unsigned int send_cpus, recv_cpus;
	double send_busy_pct, recv_busy_pct;
};

struct db_trial {
	unsigned int size;
	char test;			/* 't', 'l', 'f', 'b', or 'x' for a plain trial */
	unsigned int repeat;
	double load;			/* frames/s offered (target) */
	double duration_s;
	uint64_t tx, rx;
	bool tester_limited;
	bool cpu_valid;
	double cpu_busy_pct, cpu_soak_pct, ns_per_frame;	/* soak < 0: none */
	const char *cpu_source;
	const struct lossattr *loss;	/* or NULL: where the frames were lost, */
	unsigned int nloss;		/* per direction */
	/* The soak's idle check before the trial: 0 none (no soak), 1 its
	 * calibration held, -1 it did not (soak_note says why). */
	int soak_trusted;
	const char *soak_note;
	/* The stall probe over the traffic (stall_valid): the longest time a
	 * DUT CPU was away, on which CPU, the stalls over the threshold on all
	 * of them, whether it ran SCHED_FIFO; steal time in percent of the
	 * watched CPUs' time, < 0 when the host reports none. */
	bool stall_valid, stall_fifo;
	double stall_max_ns, stall_threshold_ns, steal_pct;
	unsigned int stall_cpu;
	uint64_t stalls;
	/* The profile of the DUT's CPUs (nprof entries, none without one):
	 * its samples and rate, the busy share of the samples and softirq's
	 * share of the busy ones, and the top functions. */
	uint64_t prof_samples;
	unsigned int prof_hz;
	double prof_busy_pct, prof_softirq_pct;
	const struct db_prof_entry *prof;
	unsigned int nprof;
	const struct db_stream *stream;	/* a stream's run, or NULL */
	double traffic_s;		/* the traffic's measured time, <= 0 unknown */
};

/* One finished trial, committed before returning. */
int db_trial_add(struct db *db, int64_t run, const struct db_trial *t, char *err, size_t errlen);

struct db_loss_step {
	double pct, load;
	uint64_t tx, rx;
	double loss_pct;
	bool tester_limited;
};

/* One frame size, one repeat of the search. NAN for figures not measured. */
/* One search goal's result (RFC 9971's Goal Result) for a size and
 * repeat: the goal's name and compact notation, its bounds and
 * conditional throughput (NAN: none), why it is irregular ("": not). */
struct db_goal_result {
	const char *name, *spec;
	double rlb, rub, cond;
	const char *irregular;
};

struct db_result {
	unsigned int size;
	unsigned int repeat;
	double max_load;
	bool max_is_ceiling;
	bool ndr_valid, pdr_valid;
	double ndr_lower, ndr_upper, pdr_lower, pdr_upper;
	bool at_max, tester_capped, noisy, search_done;
	unsigned int search_trials;
	double width_pps;		/* the search's width goal */
	double ns_per_frame;		/* DUT CPU at the NDR, NAN unknown */
	/* repeat 0 only: the tests run once per size */
	bool have_lat;
	double lat_load, lat_min, lat_median, lat_p99, lat_p999, lat_max;
	uint64_t lat_frames;
	double b2b_avg, b2b_min, b2b_max;	/* NAN: not measured */
	unsigned int b2b_runs;
	const struct db_loss_step *loss;
	unsigned int nloss;
	const struct db_goal_result *goals;	/* every goal of the search, in order */
	unsigned int ngoals;
};

/* One size's results (one repeat), committed before returning. */
int db_result_add(struct db *db, int64_t run, const struct db_result *r, char *err, size_t errlen);

/* Delete a run and everything of it; -ENOENT when there is none. */
int db_run_delete(struct db *db, int64_t id, char *err, size_t errlen);
/* Delete the n runs in one transaction: all of them, or with -ENOENT
 * (err names the first missing id) none. */
int db_delete_runs(struct db *db, const int64_t *ids, size_t n, char *err, size_t errlen);

/* The status to show: a run still "running" whose process is gone (other
 * boot, or no such pid) was killed: "interrupted". */
const char *db_status_shown(const char *status, int64_t pid, const char *boot_id, const char *this_boot);
/* db_status_shown for a run of this store: on PostgreSQL a run still
 * "running" is alive exactly while its writer's session holds the run's
 * lock, wherever that writer runs. */
const char *db_run_status(struct db *db, const char *status, int64_t id, int64_t pid, const char *boot_id,
			  const char *this_boot);

/* Check the file with PRAGMA integrity_check; 0 when "ok". */
int db_integrity(struct db *db, char *err, size_t errlen);

#endif
