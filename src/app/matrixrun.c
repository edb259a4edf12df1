#include "app/matrixrun.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "os/selfexec.h"

/* A child's exit status when it cannot start: a runtime failure. */
#define CHILD_CANNOT_RUN 1

static void say(const struct app_matrix_run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(const struct app_matrix_run *r, const char *fmt, ...)
{
	char line[4096 + 1024];
	va_list ap;

	if (!r->say)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	r->say(r->ctx, line);
}

char **app_matrix_run_argv(struct app_matrix_run *r, int c)
{
	app_matrix_test_argv(r->targv, r->test, r->ntest, r->remote ? NULL : r->prefix, r->m->labels[c], r->mtag,
			     r->tags, r->ntags, r->db_path);
	if (r->remote)
		app_matrix_dut_argv(r->m, c, r->targv);
	return r->targv;
}

/* Configuration c: its lab built, its test run and stored. */
static int run_one(struct app_matrix_run *r, int c)
{
	const char *label = r->m->labels[c];
	char err[512];
	int st;

	if (r->starting)
		r->starting(r->ctx, c);
	if (!r->remote && (lab_down(r->prefix, err, sizeof(err)) || lab_up(&r->specs[c], err, sizeof(err)))) {
		say(r, "configuration %d (%s): lab up: %s", c + 1, label, err);
		return -EIO;
	}
	if (selfexec_stopped())
		return -EINTR;
	st = selfexec_run(app_matrix_run_argv(r, c), r->test_out, CHILD_CANNOT_RUN);
	if (st < 0) {
		say(r, "cannot run the test: %s", strerror(-st));
		return -EIO;
	}
	r->run_ids[c] = app_matrix_newest_run(r->db_path, r->mtag);
	if (st) {
		/* the test said why; a stop keeps the runs so far */
		if (st == 130 || selfexec_stopped())
			return -EINTR;
		say(r, "configuration %d (%s): the test failed (exit %d); the runs so far are stored, tagged %s",
		    c + 1, label, st, r->mtag);
		return st;
	}
	if (r->run_ids[c] <= (c ? r->run_ids[c - 1] : 0)) {
		say(r, "configuration %d (%s): the test stored no run in %s", c + 1, label, r->db_path);
		return -EIO;
	}
	if (r->done)
		r->done(r->ctx, c);
	return 0;
}

int app_matrix_run(struct app_matrix_run *r)
{
	int nconf = r->m->nconf, rc = 0, lock = -1, at = 0, started = 0;
	struct selfexec_sigs sigs;
	char err[512], held[64];
	bool between = false;

	/* the lab is the matrix's until the end; its tests share its lock
	 * (inherited: it lasts while a test runs, even if the matrix dies) */
	if (!r->remote) {
		if (lab_lock(r->prefix, "matrix", true, &lock, err, sizeof(err))) {
			say(r, "%s", err);
			return -EIO;
		}
		fcntl(lock, F_SETFD, 0);
		snprintf(held, sizeof(held), "%s:%d", r->prefix, lock);
		setenv(LAB_LOCK_ENV, held, 1);
	}
	selfexec_catch(&sigs);
	if (r->begin)
		r->begin(r->ctx);
	if (!r->remote && lab_down(r->prefix, err, sizeof(err))) {
		say(r, "lab down: %s", err);
		rc = -EIO;
	}
	for (int c = 0; !rc && c < nconf && !selfexec_stopped(); c++) {
		at = c;
		started = c + 1;
		rc = run_one(r, c);
	}
	if (!rc && selfexec_stopped()) {
		rc = -EINTR;
		between = started > 0;
	}
	if (!r->remote && lab_down(r->prefix, err, sizeof(err))) {
		say(r, "lab down: %s", err);
		if (!rc)
			rc = -EIO;
	}
	if (rc == -EINTR && !started)
		say(r, "stopped before configuration 1 of %d; nothing was run", nconf);
	else if (rc == -EINTR)
		say(r, "stopped %s configuration %d of %d; the runs so far are stored, tagged %s",
		    between ? "after" : "in", at + 1, nconf, r->mtag);
	if (!rc && r->end)
		rc = r->end(r->ctx);
	if (!r->remote) {
		unsetenv(LAB_LOCK_ENV);
		lab_unlock(&lock, r->prefix);
	}
	selfexec_restore(&sigs);
	return rc;
}
