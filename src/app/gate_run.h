/* The baseline gate (wirerate gate --baseline B RUN): a run compared with
 * a stored baseline by the report's noise-aware verdicts, each figure a
 * test point (core/testpoint.h) that passed, failed (a regression beyond
 * the noise and the threshold) or cannot be told (the noise is wider
 * than the threshold, the rounds disagree, or the figure is missing),
 * and one verdict for the whole: what a CI's exit status says. The
 * points of a run alone (no baseline: measured, not judged) are what
 * runs export --kcidb writes. */
#ifndef WR_APP_GATE_RUN_H
#define WR_APP_GATE_RUN_H

#include <stdbool.h>
#include <stddef.h>

#include "app/cli_hooks.h"
#include "core/testpoint.h"
#include "store/report_db.h"
#include "store/report_model.h"

/* The default threshold: a change smaller than this is no regression
 * (percent of the baseline). */
#define APP_GATE_THRESHOLD_PCT 5.0

/* What the gate says of the whole: no regression, a regression, or that
 * it cannot tell (kselftest's skip code is the exit status then). */
enum app_gate_verdict { APP_GATE_OK, APP_GATE_REGRESSION, APP_GATE_UNSURE };

/* The ids the KCIDB document carries (render/kcidb_print.h's), as given. */
struct app_gate_kcidb {
	const char *path;		/* the file to write; NULL none */
	const char *origin;		/* [a-z0-9_]+, the CI system's name */
	const char *checkout_id, *build_id;	/* NULL: made from the kernel's release */
};

struct app_gate_opts {
	const char *db[REPORT_MAX_STORES];
	unsigned int ndb;
	const char *baseline;		/* --baseline: a label, run id or UUID */
	const char *run;		/* RUN: the run judged */
	double threshold_pct;		/* --threshold, >= 0 */
	bool ktap, json;
	struct app_gate_kcidb kcidb;
};

/* The options' rules before any store is opened: a baseline and a run,
 * a threshold from 0 to 100, one of --ktap and --json, --kcidb with a
 * valid --origin (and ids that start with "ORIGIN:"), a --kcidb path in
 * a directory that exists. 0, or -EINVAL with the reason. */
int app_gate_run_check(const struct app_gate_opts *op, char *err, size_t errlen);

/* --kcidb's options alone (runs export's too): an --origin that is
 * valid, ids that start with "ORIGIN:", a path in a directory that
 * exists; the ids without --kcidb refused. 0, or -EINVAL with the reason. */
int app_gate_run_check_kcidb(const struct app_gate_kcidb *k, char *err, size_t errlen);

/* runs export RUN --kcidb: the run's figures, measured (DONE), into s
 * (the caller frees it). db: the store (NULL the default). 0, or -EINVAL
 * for a run or store not there, another -errno with err. */
int app_gate_run_export(const char *db, const char *run, struct testpoint_set *s, char *err, size_t errlen);


/* The points of m's runs: with one run, each figure measured (DONE);
 * with a baseline (run[0]) and a run (run[1]), each figure of the run
 * judged against the baseline's with threshold_pct, and the baseline's
 * figures the run lacks as cannot-tell points. s's env is the judged
 * run's. *v the whole's verdict (NULL: not wanted). 0 or -ENOMEM. */
int app_gate_run_points(const struct report_model *m, double threshold_pct, struct testpoint_set *s,
			enum app_gate_verdict *v);

/* How the gate ended. */
enum app_gate_why { APP_GATE_DONE, APP_GATE_INPUT, APP_GATE_HOST };

struct app_gate_hooks {
	/* the verdict on stdout as op asks (text, --json or --ktap): 0, or
	 * -errno when it could not be written */
	int (*print)(void *ctx, const struct app_gate_opts *op, const struct report_model *m,
		     const struct testpoint_set *s, enum app_gate_verdict v);
	/* the KCIDB document to k->path, whole or not at all: 0, or -errno
	 * with err */
	int (*kcidb)(void *ctx, const struct app_gate_kcidb *k, const struct testpoint_set *s, char *err,
		     size_t errlen);
};

/* gate, op checked: the two runs loaded and compared, the points made,
 * printed and written to --kcidb. 0 with *why DONE and *v, or -errno
 * with *why and err. */
int app_gate_run(const struct app_gate_opts *op, const struct app_cli_hooks *cli, const struct app_gate_hooks *h,
		 void *ctx, enum app_gate_verdict *v, enum app_gate_why *why, char *err, size_t errlen);

#endif
