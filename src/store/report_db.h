/* wirerate report: the runs named found in the stores
 * (report_db_resolve.c), loaded into a report_model (report_db.c), each
 * cell compared with the baseline's, the first run (report_db_compare.c).
 * render/ writes the model as text, JSON, CSV and HTML. The verdict rule
 * is in docs/store.md. */
#ifndef WR_STORE_REPORT_DB_H
#define WR_STORE_REPORT_DB_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "store/db.h"
#include "store/report_model.h"

#define REPORT_MAX_STORES 8

/* RUN as given on the command line: a run id, a run's UUID, or a label
 * (the latest run with it; note says so when the label matched more than
 * one). -ENOENT with err when there is no such run. */
int report_db_resolve(struct db *db, const char *arg, int64_t *id, char *note, size_t notelen,
		   char *err, size_t errlen);

/* The same over ndb stores (names: how errors name them), *which the
 * store the run is in. A label is the latest run with it in any store;
 * "K:RUN" (K from 1, with several stores) is RUN in the K-th store only.
 * An id found in more than one store is ambiguous: -EINVAL, err naming
 * them. An id or UUID is taken before a label, as in one store. */
int report_db_resolve_in(struct db *const *dbs, const char *const *names, unsigned int ndb, const char *arg,
		      unsigned int *which, int64_t *id, char *note, size_t notelen, char *err, size_t errlen);

/* Load the runs (ids[0] is the baseline; at most RM_MAX_IDS) into m,
 * sizes ascending; each run's ref is its id. Runs of one label stored
 * with rounds make one column (report_db_rounds_add). report_db_load_stores
 * reads run i from dbs[i]. */
int report_db_load(struct db *db, const int64_t *ids, unsigned int n, struct report_model *m,
		char *err, size_t errlen);
int report_db_load_stores(struct db *const *dbs, const int64_t *ids, unsigned int n, struct report_model *m,
		       char *err, size_t errlen);

/* What came out of the DUT in a stored plain trial, frames/s: what was
 * offered (the load asked for, or what the generator sent when it fell
 * short of it by more than TRIAL_OFFER_SLACK: a trial offered 59k of
 * 100k never reads 100k forwarded) times rx/tx. NAN when tx is not > 0. */
#define TRIAL_OFFER_SLACK 0.005
/* A plain trial in which the tester fell short of the load asked still
 * measures the DUT when the DUT lost this share or more of what it was
 * offered (a VM lab's generator sharing its vCPUs with QEMU falls short
 * while the guest drops a third or more): full, what it forwarded is its
 * capacity. 5% is fourteen times the sporadic loss of a held vCPU here
 * (up to 3,500 per million, docs/confidence.md). */
#define TRIAL_SATURATED 0.05
double report_db_trial_forwarded(double load, double tx, double rx, double duration_s);

/* Run r, just loaded with its round (0: none), into m: a column of its
 * own, or a round more of the column of the same label, test and store
 * (store: a key, the same for runs of one store) when both have rounds.
 * -E2BIG with err when there would be more than RM_MAX_RUNS columns,
 * -EINVAL when a column would have a round twice
 * (report_db_rounds.c). */
int report_db_rounds_add(struct report_model *m, const struct rm_run *r, unsigned int round, uintptr_t store,
			 char *err, size_t errlen);
/* Each column of rounds: its figures over its rounds (the median, the
 * range, the interval), the rest from its first round. */
void report_db_rounds_finish(struct report_model *m);
/* The figure the rounds of a cell are compared by: the NDR, the
 * forwarded rate of plain trials, a stream's received rate; NAN none. */
double report_db_rounds_figure(const struct rm_cell *c);

/* m->title, from the runs and the baseline's ref. */
void report_db_title(struct report_model *m);

/* The verdict and difference of every cell against the baseline, and
 * m->regression against fail_pct (< 0: no threshold). */
void report_db_compare(struct report_model *m, double fail_pct);

/* The noise band of a cell, in frames/s: [lo, hi] around its median,
 * from the spread of its repeats widened by the search's width goal. */
void report_db_band(const struct rm_cell *c, double *lo, double *hi);

const char *report_db_verdict_name(enum rm_verdict v);

#endif
