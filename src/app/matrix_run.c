#include "app/matrix_run.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "os/selfexec.h"
#include "os/stop.h"

/* A child's exit status when it cannot start: a runtime failure. */
#define CHILD_CANNOT_RUN 1

void app_matrix_run_test(const struct app_matrix_run *r, int c, unsigned int round, struct app_child *what)
{
	const struct app_matrix *m = r->m;

	*what = (struct app_child){ .cmd = APP_CHILD_TEST, .words = r->test, .nwords = r->ntest,
				    .label = m->labels[c], .round = round, .db = r->db_path };
	what->tags[what->ntags++] = r->mtag;
	for (int t = 0; t < r->ntags && what->ntags < APP_STORE_MAX_TAGS; t++)
		what->tags[what->ntags++] = r->tags[t];
	if (!r->remote) {
		what->prefix = r->prefix;
		return;
	}
	what->placement = app_matrix_plan_value(m, c, app_matrix_plan_axis(m, "placement"));
	what->rules = app_matrix_plan_value(m, c, app_matrix_plan_axis(m, "rules"));
}

int app_matrix_run_report_ids(const struct app_matrix_run *r, int64_t *ids)
{
	int n = 0;

	for (int c = 0; c < r->m->nconf; c++)
		for (int k = 0; k < r->nsteps; k++)
			if (r->steps[k].conf == c && r->run_ids[k] > 0)
				ids[n++] = r->run_ids[k];
	return n;
}

/* Step k: its configuration's lab built, its test run (its stdout to
 * out_fd, -1 this process's) and stored. */
static int run_one(struct app_matrix_run *r, int k, int out_fd)
{
	int c = r->steps[k].conf;
	const char *label = r->m->labels[c];
	struct app_child what;
	char err[512];
	int st;

	r->h->starting(r->ctx, r, k);
	if (!r->remote && (lab_down(r->prefix, err, sizeof(err)) || lab_up(&r->specs[c], err, sizeof(err)))) {
		app_cli_hooks_say(r->cli, APP_SAY_ERROR, "configuration %d (%s): lab up: %s", c + 1, label, err);
		return -EIO;
	}
	if (stop_requested())
		return -EINTR;
	app_matrix_run_test(r, c, r->steps[k].round, &what);
	st = app_child_run(r->argv, r->cli->ctx, &what, out_fd, CHILD_CANNOT_RUN);
	if (st < 0) {
		app_cli_hooks_say(r->cli, APP_SAY_ERROR, "cannot run the test: %s", strerror(-st));
		return -EIO;
	}
	r->run_ids[k] = app_matrix_plan_newest_run(r->db_path, r->mtag);
	if (st) {
		/* the test said why; a stop keeps the runs so far */
		if (st == 130 || stop_requested())
			return -EINTR;
		app_cli_hooks_say(r->cli, APP_SAY_ERROR, "configuration %d (%s): the test failed (exit %d); the runs so "
				  "far are stored, tagged %s", c + 1, label, st, r->mtag);
		return st;
	}
	if (r->run_ids[k] <= (k ? r->run_ids[k - 1] : 0)) {
		r->run_ids[k] = 0;
		app_cli_hooks_say(r->cli, APP_SAY_ERROR, "configuration %d (%s): the test stored no run in %s", c + 1,
				  label, r->db_path);
		return -EIO;
	}
	r->h->done(r->ctx, r, k);
	return 0;
}

/* The configurations' runs compared by 'wirerate report', run as a
 * child; with json its document goes to a temporary file handed to the
 * report hook. Its exit status, or -EIO. */
static int report(struct app_matrix_run *r)
{
	int64_t ids[APP_MATRIX_RUNS_MAX];
	const struct app_child what = { .cmd = APP_CHILD_REPORT, .json = r->json, .runs = ids,
					.nruns = app_matrix_run_report_ids(r, ids), .db = r->db_path, .html = r->html,
					.fail_pct = r->fail_pct };
	FILE *doc = NULL;
	int st;

	if (r->json && !(doc = tmpfile())) {
		app_cli_hooks_say(r->cli, APP_SAY_ERROR, "a temporary file: %s", strerror(errno));
		return -EIO;
	}
	st = app_child_run(r->argv, r->cli->ctx, &what, doc ? fileno(doc) : -1, CHILD_CANNOT_RUN);
	if (st < 0)
		st = -EIO;
	if (doc) {
		if (r->h->report(r->ctx, r, doc))
			st = -EIO;
		fclose(doc);
	}
	return st;
}

/* The lab is the matrix's until the end: its lock, which the tests
 * inherit and take as theirs (the environment names it), so that it lasts
 * while a test runs, even if the matrix dies. 0, or -EIO after saying why. */
static int hold(struct app_matrix_run *r, int *lock)
{
	char err[512], held[64];

	if (lab_status_lock(r->prefix, "matrix", true, lock, err, sizeof(err))) {
		app_cli_hooks_say(r->cli, APP_SAY_ERROR, "%s", err);
		return -EIO;
	}
	fcntl(*lock, F_SETFD, 0);
	snprintf(held, sizeof(held), "%s:%d", r->prefix, *lock);
	setenv(LAB_LOCK_ENV, held, 1);
	return 0;
}

/* Every test in turn until one fails or a stop: 0 or why not, with *at
 * the last one started and *started how many were. */
static int run_all(struct app_matrix_run *r, int out_fd, int *at, int *started)
{
	int rc = 0;

	for (int k = 0; !rc && k < r->nsteps && !stop_requested(); k++) {
		*at = k;
		*started = k + 1;
		rc = run_one(r, k, out_fd);
	}
	return rc;
}

int app_matrix_run(struct app_matrix_run *r)
{
	int nsteps = r->nsteps, rc = 0, lock = -1, at = 0, started = 0;
	FILE *null = r->json ? fopen("/dev/null", "w") : NULL;
	struct stop sigs;
	bool between = false;
	char err[512];

	if (!r->remote && hold(r, &lock)) {
		if (null)
			fclose(null);
		return -EIO;
	}
	stop_catch_hangup(&sigs);
	r->h->begin(r->ctx, r);
	if (!r->remote && lab_down(r->prefix, err, sizeof(err))) {
		app_cli_hooks_say(r->cli, APP_SAY_ERROR, "lab down: %s", err);
		rc = -EIO;
	}
	if (!rc)
		rc = run_all(r, null ? fileno(null) : -1, &at, &started);
	if (!rc && stop_requested()) {
		rc = -EINTR;
		between = started > 0;
	}
	if (!r->remote && lab_down(r->prefix, err, sizeof(err))) {
		app_cli_hooks_say(r->cli, APP_SAY_ERROR, "lab down: %s", err);
		if (!rc)
			rc = -EIO;
	}
	if (rc == -EINTR && !started)
		app_cli_hooks_say(r->cli, APP_SAY_NOTE, "stopped before test 1 of %d; nothing was run", nsteps);
	else if (rc == -EINTR)
		app_cli_hooks_say(r->cli, APP_SAY_NOTE, "stopped %s test %d of %d; the runs so far are stored, "
				  "tagged %s", between ? "after" : "in", at + 1, nsteps, r->mtag);
	if (!rc)
		rc = report(r);
	if (!r->remote) {
		unsetenv(LAB_LOCK_ENV);
		lab_status_unlock(&lock, r->prefix);
	}
	stop_restore(&sigs);
	if (null)
		fclose(null);
	return rc;
}
