/* The comparison report's workflow (wirerate report RUN...): the runs
 * named by id, UUID or label, found in one store or several, loaded into
 * one model with the first as the baseline, titled, and every cell
 * compared with the baseline's, then written out through the caller's
 * hooks; and report --trend's (app/trend.h has the series). */
#ifndef WR_APP_REPORT_H
#define WR_APP_REPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "app/cli_hooks.h"
#include "store/report_db.h"
#include "store/report_model.h"
#include "store/trend_model.h"

struct app_report_cfg {
	const char *const *dbs;		/* the stores, in order (K of "K:RUN" from 1) */
	unsigned int ndb;		/* 0: the default store */
	char *const *runs;		/* as given; runs[0] is the baseline */
	unsigned int nruns;
	double fail_pct;		/* a regression past it is one (< 0: no threshold) */
	/* A run's name matched more than one run (a label): what was taken,
	 * said as a note (NULL: nothing said). */
	const struct app_cli_hooks *cli;
};

/* The names of the runs before any store is opened: one at least, at
 * most RM_MAX_IDS, none empty. 0, or -EINVAL with the reason. */
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

/* The report command's request, either mode: its options as given. */
struct app_report_opts {
	const char *db[REPORT_MAX_STORES], *html;
	unsigned int ndb;
	char **runs;			/* the RUNs named, nruns of them */
	int nruns;
	bool csv, csv_loss, json;
	double fail_pct;		/* -1: not given */
	bool trend;			/* --trend and the series' filters */
	const char *label, *tag, *test;
	unsigned int size;
	char dut[160];			/* --dut: the DUT's name as runs store it; "" any */
};

/* The options' rules for the mode op asks for, before any store is
 * opened. 0, or -EINVAL with the reason. */
int app_report_check(const struct app_report_opts *op, char *err, size_t errlen);

/* How a report ended: written, refused for its input, failed by the
 * host, or written with a regression past --fail-on-regression. */
enum app_report_why { APP_REPORT_OK, APP_REPORT_INPUT, APP_REPORT_HOST, APP_REPORT_REGRESSION };

/* What the caller writes out, the hooks render exports
 * (report_live_hooks), each called with the ctx it hands the workflow. */
struct app_report_hooks {
	/* the report's or the trend's HTML page to path: 0, or -errno with
	 * err (-ENOSYS: this build writes no HTML) */
	int (*page)(void *ctx, const char *path, const struct report_model *m, char *err, size_t errlen);
	int (*trend_page)(void *ctx, const char *path, const struct trend *t, char *err, size_t errlen);
	/* the report on stdout as op asks (CSV, text or JSON): 0, or -errno
	 * when it could not be written */
	int (*print)(void *ctx, const struct app_report_opts *op, const struct report_model *m);
	/* the trend; regression: its last change is one */
	void (*trend_print)(void *ctx, const struct app_report_opts *op, const struct trend *t, bool regression);
};

/* report RUN... and report --trend, op checked (app_report_check): the
 * model or the series loaded, the page written, then the rest; a run's
 * name that matched several runs said through cli as a note (the trend
 * names none; neither stops early). 0 (why OK or REGRESSION), or -errno
 * with why and err. */
int app_report_run(const struct app_report_opts *op, const struct app_cli_hooks *cli,
		   const struct app_report_hooks *h, void *ctx, enum app_report_why *why, char *err, size_t errlen);
int app_report_trend(const struct app_report_opts *op, const struct app_cli_hooks *cli,
		     const struct app_report_hooks *h, void *ctx, enum app_report_why *why, char *err,
		     size_t errlen);

#endif
