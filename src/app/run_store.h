/* Storing a traffic command's run (trial, rfc2544, stream): the run row with its
 * environment at the start, every trial as it ends, rfc2544's rows, the
 * status at the end. The options (--db, --label, --tag, --round, --no-store) are
 * parsed by src/cli/store_args.c into struct run_store. */
#ifndef WR_APP_RUN_STORE_H
#define WR_APP_RUN_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "app/cli_hooks.h"
#include "app/trial_setup.h"
#include "dut/profile.h"
#include "core/goal.h"
#include "store/db.h"

#define APP_STORE_MAX_TAGS 32

struct envcap;

/* Storing a run, in three parts with one owner each: what the user asked
 * (the store's options, written only by their table in
 * src/cli/store_args.c), what an rfc2544 search records of itself (its
 * plan's goals, set by the rfc2544 workflow), and the session: the open
 * database and the run's row, taken by app_run_store_open and
 * app_run_store_begin and let go by app_run_store_release. */
struct run_store_request {
	char path[4096];
	bool path_set;
	const char *label;
	const char *tags[APP_STORE_MAX_TAGS];
	unsigned int ntags;
	/* this run is round N (from 1) of an interleaved comparison: 'report'
	 * pairs the runs of one label by their rounds (0: none) */
	unsigned int round;
	bool no_store;
};

struct run_store_rfc2544 {
	double precision;		/* the search's width goal, fraction of max load */
	double exceed_ratio;		/* the search's goal exceed ratio */
	uint64_t duration_sum_ns;	/* its goal duration sum */
	uint64_t trial_ns;		/* its full trial time; 0: not rfc2544 */
	const struct search_goal *goals;	/* the search's goals (the plan's) */
	const unsigned char *goal_set;		/* and each one's search (rfc2544_set_outcome) */
	const unsigned char *goal_slot;		/* and its place there (rfc2544_goal_result) */
	unsigned int ngoals;
	/* the SUT's part of the environment captured at the start (lab.*,
	 * dut.*, kernel.release), stored or not, and its summary, for the
	 * run's own report */
	bool want_sut;
};

struct run_store_session {
	char path[4096];		/* the database opened: --db's, or the default */
	struct db *db;
	int64_t run_id;			/* 0: no run stored */
	unsigned int rows_stored;	/* rfc2544 rows stored so far */
	struct envcap *sut;		/* rfc2544 (want_sut); app_run_store_release frees it */
	char sut_config[256];
};

struct run_store {
	struct run_store_request req;
	struct run_store_rfc2544 rfc2544;
	struct run_store_session ses;
};

/* Open the database (nothing with --no-store). -EINVAL: the file is not
 * ours (bad input); other -errno: the host failed. */
int app_run_store_open(struct run_store *s, char *err, size_t errlen);

/* Capture the environment of the ports in to and insert the run (with
 * want_sut, capture it also when nothing is stored). */
int app_run_store_begin(struct run_store *s, const struct trial_setup *to, struct db_run_info *ri,
		    char *err, size_t errlen);
/* Free what app_run_store_begin kept for the run's report (s->sut). */
void app_run_store_release(struct run_store *s);

/* A finished trial; nothing without a run. */
int app_run_store_trial(struct run_store *s, const struct db_trial *t, char *err, size_t errlen);

/* Mark the run complete/interrupted/failed with its headline and close;
 * -errno with err when the mark failed (the database is closed anyway). */
int app_run_store_end(struct run_store *s, const char *status, const char *headline, char *err, size_t errlen);
/* The same, a mark that failed said as a warning through cli (the run's
 * results stand): "run 7 not marked complete in FILE: why". */
void app_run_store_end_say(struct run_store *s, const char *status, const char *headline,
			   const struct app_cli_hooks *cli);

/* A stream's run (wirerate stream): what its config says of it. */
struct app_stream_info {
	const char *lab;		/* lab mode's prefix, or NULL */
	struct dut *dut;		/* the DUT crossed (its environment), or NULL */
	const char *where;		/* "through lab wr-", "to 198.19.0.2" */
	unsigned int size, senders;
	double rate_pps;		/* each sender's --rate, 0: flat out */
	char cpus[64];			/* the senders' CPUs, "" none pinned */
	int server_cpu;			/* -1: not pinned */
	const char *dut_end;		/* "sender", "receiver": that end ran on the DUT; NULL: neither */
};

/* Capture the host's (and the lab's, the DUT's) environment and insert
 * the stream's run. */
int app_run_store_stream_begin(struct run_store *s, const struct app_stream_info *si, struct db_run_info *ri,
			   char *err, size_t errlen);

struct stream_result;
struct cpucost_result;
/* A stream's run of size-byte messages (one of -I's, rep from 0) as a
 * plain trial with its stream figures x, and the DUT's CPU and profile
 * where cr is valid (prof: PROFILE_TOP_MAX entries); x and prof must
 * outlive t's storing. */
void app_run_store_stream_trial(const struct stream_result *r, unsigned int size, unsigned int senders,
			    unsigned int rep, const struct cpucost_result *cr, struct db_trial *t, struct db_stream *x,
			    struct db_prof_entry *prof);

struct rfc2544_row;
struct rfc2544_result;
struct rfc2544_trial;

/* rfc2544's hooks (rfc2544_cfg.on_trial/on_row with hook_ctx = s). */
int app_run_store_rfc2544_trial(void *s, const struct rfc2544_trial *t, char *err, size_t errlen);
/* A trial's profile (p may be NULL or invalid: none) into t, its entries
 * in e (PROFILE_TOP_MAX of them), which must outlive t's storing. */
void app_run_store_profile(const struct profile_result *p, struct db_trial *t, struct db_prof_entry *e);
int app_run_store_rfc2544_row(void *s, const struct rfc2544_row *row, char *err, size_t errlen);
/* After the run: the rows a stop cut short (finished repeats only), and
 * the headline ("NDR 64:19.9k 512:19.9k f/s"). */
int app_run_store_rfc2544_finish(struct run_store *s, const struct rfc2544_result *res, char *headline,
			   size_t len, char *err, size_t errlen);

struct app_rfc2544_opts;
struct app_rfc2544_plan;
struct rfc2544_cfg;

/* Insert rfc2544's run (its tests, sizes and goals as asked in o, the
 * plan's timing) and set cfg's hooks to store each trial and row in s. */
int app_run_store_rfc2544_begin(struct run_store *s, const struct trial_setup *to, const struct app_rfc2544_opts *o,
			  const struct app_rfc2544_plan *plan, struct rfc2544_cfg *cfg, char *err, size_t errlen);

#endif
