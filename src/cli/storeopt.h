/* Storing a traffic command's run (trial, rfc2544): --db, --label, --tag,
 * --no-store, the run row with its environment at the start, every trial
 * as it ends, the status at the end. Storing is on by default. */
#ifndef WR_CLI_STOREOPT_H
#define WR_CLI_STOREOPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli/trialopt.h"
#include "store/db.h"

#define STOREOPT_MAX_TAGS 32

#define STOREOPT_HELP \
	"results store (see 'wirerate runs' and 'wirerate report'):\n" \
	"  --db FILE           the results database (default $WIRERATE_DB, else\n" \
	"                      $XDG_DATA_HOME/wirerate/results.db or ~/.local/share/wirerate/results.db)\n" \
	"  --label TEXT        a name for this run, e.g. the kernel: --label 2.6.29\n" \
	"  --tag TEXT          a free-form tag (repeatable)\n" \
	"  --no-store          do not store this run\n"

struct storeopt {
	char path[4096];
	bool path_set;
	const char *label;
	const char *tags[STOREOPT_MAX_TAGS];
	unsigned int ntags;
	bool no_store;
	struct db *db;
	int64_t run_id;			/* 0: no run stored */
	unsigned int rows_stored;	/* rfc2544 rows stored so far */
	double precision;		/* rfc2544: the search's width goal, fraction of max load */
	double exceed_ratio;		/* rfc2544: the search's goal exceed ratio */
	uint64_t duration_sum_ns;	/* rfc2544: its goal duration sum */
	uint64_t trial_ns;		/* rfc2544: its full trial time; 0: not rfc2544 */
};

/* Take the store options out of argv (the rest is left for the command's
 * own parser); returns the new argc, or -EINVAL with err. */
int storeopt_take(struct storeopt *s, int argc, char **argv, char *err, size_t errlen);

/* Open the database (nothing with --no-store). -EINVAL: the file is not
 * ours (bad input); other -errno: the host failed. */
int storeopt_open(struct storeopt *s, char *err, size_t errlen);

/* Capture the environment of the ports in to and insert the run. */
int storeopt_begin(struct storeopt *s, const struct trialopt *to, struct db_run_info *ri,
		   char *err, size_t errlen);

/* A finished trial; nothing without a run. */
int storeopt_trial(struct storeopt *s, const struct db_trial *t, char *err, size_t errlen);

/* Mark the run complete/interrupted/failed with its headline and close;
 * prints a warning on failure (the results were printed anyway). */
void storeopt_end(struct storeopt *s, const char *status, const char *headline);


struct r2544_row;
struct r2544_result;
struct r2544_trial;

/* rfc2544's hooks (r2544_cfg.on_trial/on_row with hook_ctx = s). */
int storeopt_r2544_trial(void *s, const struct r2544_trial *t, char *err, size_t errlen);
int storeopt_r2544_row(void *s, const struct r2544_row *row, char *err, size_t errlen);
/* After the run: the rows a stop cut short (finished repeats only), and
 * the headline ("NDR 64:19.9k 512:19.9k f/s"). */
int storeopt_r2544_finish(struct storeopt *s, const struct r2544_result *res, char *headline,
			  size_t len, char *err, size_t errlen);

#endif
