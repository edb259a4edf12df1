/* The comparison report's workflow (wirerate report RUN...): the runs
 * named by id, UUID or label, found in one store or several, loaded into
 * one model with the first as the baseline, titled, and every cell
 * compared with the baseline's. The CLI writes the model out. */
#ifndef WR_APP_REPORT_H
#define WR_APP_REPORT_H

#include <stddef.h>

#include "store/report.h"
#include "store/report_model.h"

struct app_report_cfg {
	const char *const *dbs;		/* the stores, in order (K of "K:RUN" from 1) */
	unsigned int ndb;		/* 0: the default store */
	char *const *runs;		/* as given; runs[0] is the baseline */
	unsigned int nruns;
	double fail_pct;		/* a regression past it is one (< 0: no threshold) */
	/* A run's name matched more than one run (a label): what was taken. */
	void (*note)(void *ctx, const char *line);
	void *note_ctx;
};

/* The names of the runs before any store is opened: one at least, at
 * most RM_MAX_RUNS, none empty. 0, or -EINVAL with the reason. */
int app_report_check_runs(char *const *runs, int nruns, char *err, size_t errlen);

/* The stores dbs[0..ndb) (ndb 0: the default one, its path in path)
 * opened to read into db[] (REPORT_MAX_STORES, NULL-filled), and how
 * errors name them in names[]; run is the first run asked for, named when
 * the one store is not there, or NULL. -EINVAL for a store that is not
 * ours or not there; the caller closes what was opened (app_report_close),
 * also on failure. */
int app_report_open(const char *const *dbs, unsigned int ndb, const char *run, char *path, size_t plen,
		    const char **names, struct db **db, char *err, size_t errlen);
void app_report_close(struct db **db);

/* The model of c's runs, compared (the caller frees *m). -EINVAL for bad
 * input (a store that is not ours or not there, a run not stored, an
 * ambiguous id), another -errno when the host fails; err says why. */
int app_report_load(const struct app_report_cfg *c, struct report_model **m, char *err, size_t errlen);

/* --html's path, checked before any work: a name, not a directory or a
 * device (the page is renamed over it), in a directory that exists.
 * -EINVAL with the reason. */
int app_report_check_html(const char *path, char *err, size_t errlen);

#endif
