/* 'report --trend': one figure of a series of stored runs over time, and
 * where it changed beyond the run-to-run noise (core/changepoint.h), with
 * what differed in the runs' environment across each change: the kernel,
 * the configuration, the host, the tool.
 *
 * The series: the complete runs that the filter lets through and that
 * ran the same test as the newest of them, oldest first. The figure: an
 * rfc2544 run's NDR (the median of its repeats) at one frame size, or a
 * plain trial's forwarded rate (the median of its repeats) at the load
 * the newest one offered; runs without it (another size, another load, a
 * trial the tester limited) are left out and counted. */
#ifndef WR_APP_TREND_H
#define WR_APP_TREND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store/db.h"
#include "store/db_runs.h"
#include "store/trend_model.h"

/* The series in the ndb stores that f lets through, merged in time (a
 * run synced into several is taken once, by its UUID; test NULL: the
 * newest run's; size 0: the newest run's smallest). 0, or -errno with err: -EINVAL for
 * no runs or a series shorter than TREND_MIN_RUNS (bad input), else a
 * store error. t is the caller's to free with app_trend_free. */
int app_trend(struct db *const *dbs, unsigned int ndb, const struct db_run_filter *f, const char *test,
	      unsigned int size, struct trend *t, char *err, size_t errlen);
void app_trend_free(struct trend *t);

/* What differed in the environment between the runs before[0..nb) and
 * after[0..na) of one store, as a trend's change explains itself (steady
 * keys first: the same on each side); c's at, before, after and pct are
 * the caller's. 0, or -errno with err. */
int app_trend_explain(struct db *db, const int64_t *before, size_t nb, const int64_t *after, size_t na,
		      struct trend_change *c, char *err, size_t errlen);

#endif
